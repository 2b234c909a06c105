"""Command line driver of the Python/Numba LULESH 2.0 port.

    python examples/lulesh/run.py -s N -i ITERS [-p] [-q] [--json] [--threads T]
                                  [-r NUMREG] [-b BALANCE] [-c COST]

Prints the same report as the original ``lulesh2.0`` (iteration count, final
origin energy, energy symmetry measures, elapsed time, grind time, FOM), plus
the final time and the origin energy to full precision.  ``--json`` prints a
single JSON object instead.  The elapsed time excludes Numba compilation: the
kernels are compiled (or loaded from the cache) by a short warm-up run on a
small mesh before the timed run starts.
"""

import argparse
import json
import os
import sys
import time


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="LULESH 2.0 (serial/OpenMP, no MPI) in Python + Numba")
    ap.add_argument("-s", dest="size", type=int, default=30,
                    help="length of cube mesh along side (default 30)")
    ap.add_argument("-i", dest="its", type=int, default=9999999,
                    help="number of cycles to run (default: until stop time)")
    ap.add_argument("-r", dest="numReg", type=int, default=11,
                    help="number of distinct regions (default 11)")
    ap.add_argument("-b", dest="balance", type=int, default=1,
                    help="load balance between regions (default 1)")
    ap.add_argument("-c", dest="cost", type=int, default=1,
                    help="extra cost of more expensive regions (default 1)")
    ap.add_argument("-p", dest="progress", action="store_true",
                    help="print out progress")
    ap.add_argument("-q", dest="quiet", action="store_true",
                    help="quiet mode: suppress all stdout")
    ap.add_argument("--json", action="store_true",
                    help="print one JSON object with the results")
    ap.add_argument("--threads", type=int, default=None,
                    help="number of Numba threads (default: all cores)")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.size < 1 or args.its < 0 or args.numReg < 1:
        print("invalid size, iteration count or region count", file=sys.stderr)
        return 2
    if args.threads is not None:
        if args.threads < 1:
            print("--threads must be at least 1", file=sys.stderr)
            return 2
        # numba.set_num_threads cannot exceed NUMBA_NUM_THREADS, fixed at import
        if args.threads > (os.cpu_count() or 1) and "NUMBA_NUM_THREADS" not in os.environ:
            os.environ["NUMBA_NUM_THREADS"] = str(args.threads)

    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if repo not in sys.path:
        sys.path.insert(0, repo)
    import numba
    from examples.lulesh.domain import Domain
    from examples.lulesh.lulesh import LuleshError, run_cycles, symmetry_check

    if args.threads is not None:
        numba.set_num_threads(args.threads)
    nthreads = numba.get_num_threads()
    say = (not args.quiet) and (not args.json)

    if say:
        nx = args.size
        print("Running problem size %d^3 per domain until completion" % nx)
        print("Num processors: 1")
        print("Num threads: %d" % nthreads)
        print("Total number of elements: %d \n" % (nx * nx * nx))
        print("To run other sizes, use -s <integer>.")
        print("To run a fixed number of iterations, use -i <integer>.")
        print("To run a more or less balanced region set, use -b <integer>.")
        print("To change the relative costs of regions, use -c <integer>.")
        print("To print out progress, use -p")
        print("See help (-h) for more options\n")

    # warm-up: compile or load every kernel before the clock starts
    warm = Domain(3, args.numReg, args.balance, args.cost)
    run_cycles(warm, 2)

    domain = Domain(args.size, args.numReg, args.balance, args.cost)

    def show(d):
        print("cycle = %d, time = %e, dt=%e" % (d.cycle, d.time, d.deltatime))

    progress = show if (args.progress and say) else None
    start = time.perf_counter()
    try:
        run_cycles(domain, args.its, progress)
    except LuleshError as exc:
        sys.stdout.flush()
        print(str(exc), file=sys.stderr)
        return exc.exit_code & 0xFF
    elapsed = time.perf_counter() - start

    nx = args.size
    cycles = domain.cycle
    maxabs, totabs, maxrel = symmetry_check(domain)
    if cycles > 0 and elapsed > 0.0:
        grind1 = ((elapsed * 1e6) / cycles) / (nx * nx * nx)
        fom = 1000.0 / grind1
    else:
        grind1 = float("nan")
        fom = float("nan")
    e0 = float(domain.e[0])

    if args.json:
        print(json.dumps({
            "size": nx,
            "threads": nthreads,
            "iterations": cycles,
            "final_time": domain.time,
            "origin_energy": e0,
            "max_abs_diff": maxabs,
            "total_abs_diff": totabs,
            "max_rel_diff": maxrel,
            "elapsed_s": elapsed,
            "ms_per_iteration": (1e3 * elapsed / cycles) if cycles else None,
            "fom": fom,
        }))
    elif say:
        print("Run completed:")
        print("   Problem size        =  %d" % nx)
        print("   MPI tasks           =  1")
        print("   Iteration count     =  %d" % cycles)
        print("   Final time          =  %e" % domain.time)
        print("   Final Origin Energy =  %12.6e" % e0)
        print("   Final Origin Energy (full precision) = %.17e" % e0)
        print("   Testing Plane 0 of Energy Array on rank 0:")
        print("        MaxAbsDiff   = %12.6e" % maxabs)
        print("        TotalAbsDiff = %12.6e" % totabs)
        print("        MaxRelDiff   = %12.6e" % maxrel)
        print()
        print("Elapsed time         = %10.2g (s)" % elapsed)
        print("Grind time (us/z/c)  = %10.8g (per dom)  (%10.8g overall)"
              % (grind1, elapsed))
        print("FOM                  = %10.8g (z/s)" % fom)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

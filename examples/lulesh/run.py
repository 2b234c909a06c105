"""Command line driver of the Python/Numba LULESH 2.0 port.

    python examples/lulesh/run.py -s N -i ITERS [-p] [-q] [--json] [--threads T]
                                  [-r NUMREG] [-b BALANCE] [-c COST]
                                  [--grad [--plot FILE.png] [--grad-from C]
                                   [--freeze-dt] [--jitter EPS] [--no-cutoffs]]

Prints the same report as the original ``lulesh2.0`` (iteration count, final
origin energy, energy symmetry measures, elapsed time, grind time, FOM), plus
the final time and the origin energy to full precision.  ``--json`` prints a
single JSON object instead.  The elapsed time excludes Numba compilation: the
kernels are compiled (or loaded from the cache) by a short warm-up run on a
small mesh before the timed run starts.

``--grad`` then computes, with adtrans, the gradient of the final origin
energy e0 = e[0] after the ``-i`` cycles with respect to the energies ``e``
and node positions ``x, y, z`` at cycle ``--grad-from`` (default 0, the
initial state), prints its norms, the memory the adjoint taped and its time,
and checks it against central finite differences (exit status 1 if the check
fails).  ``--plot FILE.png`` saves d e0/d e on the element plane z = 0 and
|d e0/d (x, y, z)| on the node plane z = 0.  ``--freeze-dt`` holds the time
steps fixed (else they are differentiated through LULESH's time-step
control).  ``--jitter EPS`` moves the initial nodes randomly by EPS element
widths (breaks the mesh symmetry, whose ties in minima/maxima make e0
non-differentiable), ``--no-cutoffs`` sets u_cut, e_cut, p_cut, q_cut and
v_cut to 0 (both change the problem, for the primal run too).  See
``examples/lulesh/grad.py``.
"""

import argparse
import json
import math
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
    g = ap.add_argument_group("gradient (adtrans)")
    g.add_argument("--grad", action="store_true",
                   help="gradient of the final origin energy w.r.t. e, x, y, z, "
                        "with a finite-difference check")
    g.add_argument("--plot", metavar="FILE.png",
                   help="with --grad: save the sensitivity d e0/d e on the plane z = 0")
    g.add_argument("--grad-from", type=int, default=0, metavar="C",
                   help="differentiate with respect to the state at cycle C (default 0)")
    g.add_argument("--freeze-dt", action="store_true",
                   help="hold the time steps fixed in the gradient")
    g.add_argument("--jitter", type=float, default=0.0, metavar="EPS",
                   help="move the initial nodes randomly by EPS element widths")
    g.add_argument("--no-cutoffs", action="store_true",
                   help="set the cut-offs u_cut, e_cut, p_cut, q_cut, v_cut to 0")
    return ap.parse_args(argv)


def _problem(args, size):
    """A fresh Domain with the --jitter / --no-cutoffs changes."""
    from examples.lulesh.domain import Domain
    d = Domain(size, args.numReg, args.balance, args.cost)
    if args.jitter or args.no_cutoffs:
        from examples.lulesh import grad as G
        if args.jitter:
            G.jitter_mesh(d, args.jitter)
        if args.no_cutoffs:
            G.without_cutoffs(d)
    return d


def gradient_report(args, say):
    """The --grad part: returns (dict for --json, exit status)."""
    import numpy as np
    from examples.lulesh import grad as G
    from examples.lulesh.lulesh import run_cycles

    # warm-up: generate and compile (or load) the kernel adjoints on a small mesh
    G.origin_energy_gradient(_problem(args, 3), 2, freeze_dt=args.freeze_dt)

    d = _problem(args, args.size)
    if args.grad_from:
        run_cycles(d, args.grad_from)
    t0 = time.perf_counter()
    run_cycles(_copy(d), args.its)
    t_primal = time.perf_counter() - t0
    grad = G.origin_energy_gradient(d, args.its, freeze_dt=args.freeze_dt)
    checks = G.origin_fd_check(d, grad, entries=_fd_entries(d, grad), ndirections=2)
    tol = G.FD_TOLERANCE_CUTOFFS if d.v_cut > 0.0 else G.FD_TOLERANCE_SMOOTH
    worst = float(max(c[3] for c in checks))
    ok = bool(worst <= tol)
    # on the symmetric mesh an asymmetric gradient shows a kink (ties): not checkable
    defect = G.symmetry_defect(grad, d.sizeX) if not args.jitter else None
    kink = bool(defect is not None and defect > G.SYMMETRY_TOLERANCE)
    verdict = "PASSED" if ok else ("INCONCLUSIVE" if kink else "FAILED")
    state = sum(getattr(d, f).nbytes for f in G.STEP_ARRAY_NAMES[:-1])
    norms = {n: float(np.linalg.norm(grad.grads[n])) for n in "exyz"}
    if say:
        print("Gradient (adtrans driver adjoint of %d cycles, time steps %s):"
              % (grad.cycles, "frozen" if grad.freeze_dt else "differentiated"))
        print("   e0 = e[0] after cycle %d      = %.17e" % (d.cycle + grad.cycles, grad.e0))
        print("   with respect to the state at cycle %d%s%s"
              % (d.cycle, ", mesh jittered by %g" % args.jitter if args.jitter else "",
                 ", no cut-offs" if args.no_cutoffs else ""))
        print("   |d e0/d e|              = %.6e   (%d of %d entries nonzero)"
              % (norms["e"], np.count_nonzero(grad.grads["e"]), d.numElem))
        for n in "xyz":
            print("   |d e0/d %s|              = %.6e" % (n, norms[n]))
        print("   |d e0/d (e, x, y, z)|    = %.6e" % math.sqrt(sum(v * v for v in norms.values())))
        print("   d e0/d dt (first step)   = %.6e" % grad.dt0)
        print("   tape memory              = %.1f MB (%.2f MB per cycle; the state is %.2f MB)"
              % (grad.tape_nbytes / 1e6, grad.tape_nbytes / 1e6 / max(grad.cycles, 1), state / 1e6))
        print("   gradient time            = %.3f s (primal of the same cycles %.3f s, ratio %.1f)"
              % (grad.seconds, t_primal, grad.seconds / t_primal if t_primal > 0 else float("nan")))
        rel_e, step_x = G.fd_steps(d)
        print("   Finite-difference check (central; energies moved by %g of their value, "
              "positions by %.3g):" % (rel_e, step_x))
        for label, ad, fd, err in checks:
            print("      %-38s adtrans % .10e   fd % .10e   error %.1e" % (label, ad, fd, err))
        if defect is not None:
            print("   symmetry of the gradient under x<->y<->z: defect %.1e%s"
                  % (defect, " (a kink: ties of the symmetric mesh)" if kink else ""))
        print("   check %s: largest error %.1e (tolerance %.0e)" % (verdict, worst, tol))
        if verdict == "INCONCLUSIVE":
            print("   e0 is not differentiable at this state: the symmetric mesh keeps many minima and\n"
                  "   maxima tied up to rounding, adtrans gives the derivative of the branches the run\n"
                  "   took and finite differences see other branches.  Use --jitter 1e-3 (and\n"
                  "   --no-cutoffs for ordinary finite-difference steps) for a checkable problem.")
    if args.plot:
        G.plot_sensitivity(grad, d.sizeX, args.plot, d.cycle)
        if say:
            print("   plot saved to %s" % args.plot)
    out = {"grad_cycles": grad.cycles, "grad_from_cycle": d.cycle, "grad_e0": grad.e0,
           "grad_norms": norms, "grad_dt0": grad.dt0, "grad_freeze_dt": grad.freeze_dt,
           "grad_tape_bytes": grad.tape_nbytes, "grad_seconds": grad.seconds,
           "grad_primal_seconds": t_primal, "grad_fd_worst": worst, "grad_fd_ok": ok,
           "grad_fd_verdict": verdict, "grad_symmetry_defect": defect,
           "grad_fd": [{"what": c[0], "adtrans": float(c[1]), "fd": float(c[2]), "error": float(c[3])}
                       for c in checks]}
    return out, (1 if verdict == "FAILED" else 0)


def _copy(domain):
    import copy
    return copy.deepcopy(domain)


def _fd_entries(d, grad):
    """e[0], the most sensitive position of each coordinate, and a cold element."""
    import numpy as np
    entries = [("e", 0)]
    for n in "xyz":
        entries.append((n, int(np.argmax(np.abs(grad.grads[n])))))
    cold = np.flatnonzero(d.e == 0.0)
    if cold.size:
        entries.append(("e", int(cold[-1])))
    return tuple(entries)


def main(argv=None):
    args = parse_args(argv)
    if args.size < 1 or args.its < 0 or args.numReg < 1:
        print("invalid size, iteration count or region count", file=sys.stderr)
        return 2
    if args.grad and args.its >= 9999999:
        print("--grad needs the number of cycles: -i K (the adjoint tapes every cycle)",
              file=sys.stderr)
        return 2
    if args.grad and not 0 <= args.grad_from < args.its:
        print("--grad-from must be in [0, -i)", file=sys.stderr)
        return 2
    if (args.plot or args.freeze_dt or args.grad_from) and not args.grad:
        print("--plot, --freeze-dt and --grad-from go with --grad", file=sys.stderr)
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

    domain = _problem(args, args.size)

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

    if say:
        print_report(nx, cycles, domain, e0, maxabs, totabs, maxrel, elapsed, grind1, fom)
    grad_out, status = {}, 0
    if args.grad:
        grad_out, status = gradient_report(args, say)

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
            **grad_out,
        }))
    return status


def print_report(nx, cycles, domain, e0, maxabs, totabs, maxrel, elapsed, grind1, fom):
    """The report of the original program."""
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


if __name__ == "__main__":
    sys.exit(main())

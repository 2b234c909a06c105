"""Per-iteration time of the LULESH primal for several thread counts.

    python examples/lulesh/bench.py [-s 30] [-i 100] [--threads 1 2] [--repeat 3]

For each thread count, runs ``-i`` cycles from a fresh domain ``--repeat``
times (after a warm-up that compiles or loads the kernels) and prints the
best and median milliseconds per iteration and the FOM of the best run.
The best run is the meaningful number on a machine shared with other work.
"""

import argparse
import json
import os
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-s", dest="size", type=int, default=30)
    ap.add_argument("-i", dest="its", type=int, default=100)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    if max(args.threads) > (os.cpu_count() or 1) and "NUMBA_NUM_THREADS" not in os.environ:
        os.environ["NUMBA_NUM_THREADS"] = str(max(args.threads))
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if repo not in sys.path:
        sys.path.insert(0, repo)
    import numba
    from examples.lulesh.domain import Domain
    from examples.lulesh.lulesh import run_cycles

    run_cycles(Domain(3), 2)  # compile / load from cache
    results = []
    for nt in args.threads:
        numba.set_num_threads(nt)
        times = []
        for _ in range(args.repeat):
            d = Domain(args.size)
            t0 = time.perf_counter()
            run_cycles(d, args.its)
            times.append((time.perf_counter() - t0) / d.cycle)
        times.sort()
        best = times[0]
        res = {"size": args.size, "threads": nt, "iterations": args.its,
               "best_ms_per_iteration": 1e3 * best,
               "median_ms_per_iteration": 1e3 * times[len(times) // 2],
               "fom_best": args.size ** 3 / (1e3 * best)}
        results.append(res)
        if not args.json:
            print("s=%d threads=%d: best %.2f ms/it, median %.2f ms/it, FOM %.1f"
                  % (args.size, nt, res["best_ms_per_iteration"],
                     res["median_ms_per_iteration"], res["fom_best"]))
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

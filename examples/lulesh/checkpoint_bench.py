"""Tape memory and time of the LULESH K-cycle gradient: store-all vs binomial checkpointing.

``python examples/lulesh/checkpoint_bench.py -s 10 -k 100 -n 5 10 20`` differentiates e[0]
after K cycles (``grad.origin_energy_gradient``) with the store-all tape and with N
snapshots (``adtrans.autodiff(..., checkpoints=N)``), checks that every gradient is
bit-identical to the store-all one and prints a table (peak tape bytes, seconds).
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from examples.lulesh import grad as G  # noqa: E402
from examples.lulesh.domain import Domain  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-s", type=int, default=10, help="edge elements (default 10)")
    ap.add_argument("-k", type=int, default=100, help="cycles K (default 100)")
    ap.add_argument("-n", type=int, nargs="*", default=[5, 10, 20], help="snapshot counts")
    a = ap.parse_args(argv)
    d = Domain(a.s)
    G.origin_energy_gradient(Domain(3), 3)            # compile (cached) before timing
    t0 = time.perf_counter()
    G.origin_energy(d, a.k)
    primal = time.perf_counter() - t0
    rows, ref = [], None
    for n in [None] + list(a.n):
        g = G.origin_energy_gradient(d, a.k, checkpoints=n)
        same = "reference" if ref is None else \
            all(np.array_equal(g.grads[k], ref.grads[k]) for k in ref.grads) and g.dt0 == ref.dt0
        ref = ref or g
        rows.append(("store-all" if n is None else f"N = {n}", g.tape_nbytes, g.seconds, same))
    print(f"LULESH -s {a.s}, K = {a.k} cycles ({ref.cycles} run), e0 = {ref.e0:.17g}; primal {primal:.2f} s")
    print(f"{'tape':>10} | {'peak tape MB':>12} | {'gradient s':>10} | {'x primal':>8} | identical")
    for name, nb, sec, same in rows:
        print(f"{name:>10} | {nb / 1e6:12.2f} | {sec:10.2f} | {sec / primal:8.1f} | {same}")
    bad = [r for r in rows[1:] if r[3] is not True]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

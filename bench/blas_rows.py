"""Times only the gemm and 2mm rows of `make bench` (bench/run.py's array_rows: same kernels,
sizes and calls), with primal and gradient interleaved round by round so that both see the
same machine load; prints medians and minima.

    python bench/blas_rows.py [--quick] [--rounds N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import adtrans  # noqa: E402
import array_kernels as AK  # noqa: E402


def interleaved(primal, gradient, rounds):
    """Wall and CPU seconds of each call: ``(wall primal, wall gradient, cpu primal, cpu gradient)``
    (CPU time leaves out the time the process waits for a core on a shared machine)."""
    primal(), gradient()            # compile both first
    out = ([], [], [], [])
    for _ in range(rounds):
        for k, fn in enumerate((primal, gradient)):
            t, c = time.perf_counter(), time.process_time()
            fn()
            out[2 + k].append(time.process_time() - c)
            out[k].append(time.perf_counter() - t)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=21)
    opt = ap.parse_args()
    rng = np.random.default_rng(1)
    k = 200 if not opt.quick else 80
    A, B, C, D = (rng.uniform(-1, 1, (k, k)) for _ in range(4))
    rows = [(f"gemm @ {k}x{k}", lambda: AK.gemm_at(A, B, C),
             lambda: adtrans.grad(AK.gemm_at, argnums=(0, 1))(A, B, C)),
            (f"2mm @ {k}x{k}", lambda: AK.two_mm_at(A, B, C, D),
             lambda: adtrans.grad(AK.two_mm_at, argnums=(0, 1, 2))(A, B, C, D))]
    for name, primal, gradient in rows:
        tp, tg, cp, cg = interleaved(primal, gradient, opt.rounds)
        for what, p, g in (("wall median", statistics.median(tp), statistics.median(tg)),
                           ("wall min", min(tp), min(tg)),
                           ("cpu median", statistics.median(cp), statistics.median(cg))):
            print(f"{name:<16} {what:<12} primal {p * 1e3:8.3f} ms  gradient {g * 1e3:8.3f} ms  "
                  f"ratio {g / p:6.1f}x")


if __name__ == "__main__":
    main()

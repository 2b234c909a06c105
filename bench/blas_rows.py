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
    primal(), gradient()            # compile both first
    tp, tg = [], []
    for _ in range(rounds):
        for fn, out in ((primal, tp), (gradient, tg)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return tp, tg


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
        tp, tg = interleaved(primal, gradient, opt.rounds)
        mp, mg = statistics.median(tp), statistics.median(tg)
        print(f"{name:<16} median: primal {mp * 1e3:7.3f} ms, gradient {mg * 1e3:8.3f} ms, ratio {mg / mp:6.1f}x"
              f" | min: primal {min(tp) * 1e3:7.3f} ms, gradient {min(tg) * 1e3:8.3f} ms, "
              f"ratio {min(tg) / min(tp):6.1f}x")


if __name__ == "__main__":
    main()

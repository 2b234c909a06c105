"""Times only the gemm and 2mm rows of `make bench` (bench/run.py's array_rows, same sizes).

`python bench/blas_rows.py [--quick] [--repeats N]`: primal ms, gradient ms, ratio.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import adtrans  # noqa: E402
import array_kernels as AK  # noqa: E402
from run import case  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=7)
    opt = ap.parse_args()
    rng = np.random.default_rng(1)
    k = 200 if not opt.quick else 80
    A, B, C, D = (rng.uniform(-1, 1, (k, k)) for _ in range(4))
    rows = [case(f"gemm @ {k}x{k}", lambda: AK.gemm_at(A, B, C),
                 lambda: adtrans.grad(AK.gemm_at, argnums=(0, 1))(A, B, C), repeats=opt.repeats),
            case(f"2mm @ {k}x{k}", lambda: AK.two_mm_at(A, B, C, D),
                 lambda: adtrans.grad(AK.two_mm_at, argnums=(0, 1, 2))(A, B, C, D), repeats=opt.repeats)]
    for name, _, tp, tg, ratio, _ in rows:
        print(f"{name:<16} primal {tp * 1e3:8.3f} ms  gradient {tg * 1e3:8.3f} ms  ratio {ratio:6.1f}x")


if __name__ == "__main__":
    main()

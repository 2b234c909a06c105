"""The stencil rows of `make bench` alone (bench/run.py's sizes, medians of 7): the heat time
loop and the slice stencil time loop, and (``--prange``) the prange gather/pairwise rows with a
checksum of their gradients.  Usage: python bench/stencil_rows.py [--prange]"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import adtrans  # noqa: E402
import array_kernels as AK  # noqa: E402
import kernels as K  # noqa: E402


def median_ms(fn, repeats=7):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def row(name, primal, gradient):
    primal()
    gradient()
    tp, tg = median_ms(primal), median_ms(gradient)
    print(f"{name:36s} primal {tp:8.3f} ms  gradient {tg:8.3f} ms  ratio {tg / tp:6.2f}", flush=True)


def main():
    n, steps = 2000, 200
    u0 = np.random.default_rng(0).uniform(0, 1, n)
    row(f"heat time loop n={n} steps={steps}", lambda: K.heat_time_loop(u0.copy(), 0.2, steps),
        lambda: adtrans.grad(K.heat_time_loop)(u0.copy(), 0.2, steps))
    u1 = np.random.default_rng(1).uniform(0, 1, n)
    row(f"slice stencil time loop n={n} steps={steps}", lambda: AK.heat_slices(u1.copy(), 0.2, steps),
        lambda: adtrans.grad(AK.heat_slices)(u1.copy(), 0.2, steps))
    if "--prange" not in sys.argv:
        return
    rng = np.random.default_rng(0)
    rng.uniform(0, 1, n)
    N = 2_000_000
    xg = rng.uniform(-1, 1, 50_000)
    idx = rng.integers(0, 50_000, N)
    w = rng.uniform(0, 1, N)
    adj = adtrans.adjoint(K.gather_energy, ("dup", "const", "dup"))
    a = rng.uniform(-1, 1, (4000, 2))
    b = rng.uniform(-1, 1, (500, 2))
    o = np.zeros(a.shape[0])
    adj2 = adtrans.adjoint(K.pairwise_prange, ("dup", "dup", "dup"))
    for th in (1, 2):
        numba.set_num_threads(th)
        row(f"prange gather N={N} threads={th}", lambda: K.gather_energy(xg, idx, w),
            lambda: adj(xg, np.zeros_like(xg), idx, w, np.zeros_like(w), 1.0))
        dx, dw = np.zeros_like(xg), np.zeros_like(w)
        adj(xg, dx, idx, w, dw, 1.0)
        print(f"  checksum d_x {dx.sum():.10g}  d_w {dw.sum():.10g}")
        row(f"prange pairwise 4000x500 threads={th}", lambda: K.pairwise_prange(a, b, o),
            lambda: adj2(a, np.zeros_like(a), b, np.zeros_like(b), o, np.ones_like(o)))
        da, db = np.zeros_like(a), np.zeros_like(b)
        adj2(a, da, b, db, o, np.ones_like(o))
        print(f"  checksum d_a {da.sum():.10g}  d_b {db.sum():.10g}")


if __name__ == "__main__":
    main()

"""Kernels compiled with fast-math options (their adjoints inherit them)."""
import math

import numpy as np
from numba import njit, prange

B = 8


def _blocked(p, q, out):
    # B values of q per prange iteration; the inner loop over the block reads the outer
    # point (px, py), so d_px and d_py accumulate across its iterations
    nq = q.shape[0]
    for g in prange((nq + B - 1) // B):
        acc = np.zeros(B)
        for i in range(p.shape[0]):
            px = p[i, 0]
            py = p[i, 1]
            for l in range(B):
                k = min(g * B + l, nq - 1)
                d = math.sqrt((q[k] - px) ** 2 + py * py + 1.0)
                acc[l] += d * px + math.sin(q[k] * py)
        for l in range(B):
            k = g * B + l
            if k < nq:
                out[k] = acc[l]


blocked_pairs = njit(parallel=True)(_blocked)
blocked_pairs_fast = njit(parallel=True, fastmath=True)(_blocked)
blocked_pairs_reassoc = njit(parallel=True, fastmath={"reassoc", "contract"}, error_model="numpy",
                             boundscheck=True)(_blocked)


@njit(parallel=True, fastmath=True)
def distances_fast(p, x, out):
    """Whole-array form: the sum over x reads the outer p[i]."""
    for i in prange(p.shape[0]):
        out[i] = np.sum(np.sqrt((x - p[i]) ** 2 + 1.0))

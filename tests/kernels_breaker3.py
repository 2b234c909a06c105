"""Kernels for tests/test_breaker3.py: adversarial checks of the rules that landed in session 10
(LAPACK in loops, varying-length arrays in taped loops, firstwrite_params, CPU_NO_OUTPUTS)."""
import numpy as np
from numba import njit


@njit
def nested_mask_update(u0, thr, nt):
    """A mask rebound in an inner loop of a taped loop, read and written through."""
    u = u0.copy()
    for t in range(nt):
        for r in range(2):
            m = u > thr + 0.1 * r
            u[m] = u[m] * 0.97 + 0.01
        u = u * 1.03
    return np.sum(u * u)

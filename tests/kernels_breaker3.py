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


@njit
def nested_positions_while(u0, lo, tol):
    """np.nonzero positions rebound in a for loop nested in a while loop."""
    u = u0.copy()
    k = 0
    while np.sum(u) < tol and k < 6:
        for r in range(3):
            idx = np.nonzero(u < lo + 0.05 * r)[0]
            u[idx] += 0.1 * u[idx] ** 2
        u = u * 1.04 + 0.01
        k += 1
    return np.sum(u * u)


@njit
def doubly_nested_compaction(u0, nt):
    """A compacting read two loops deep, its elements read in the reverse sweep."""
    u = u0.copy()
    acc = 0.0
    for t in range(nt):
        for r in range(2):
            for q in range(2):
                v = u[u > 0.3 + 0.1 * q]
                acc += np.sum(v * v * v)
            u = u * 0.9 + 0.05 * r
        u = np.sin(u) + 0.2
    return acc + np.sum(u)

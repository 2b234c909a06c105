"""A user's kernel module for the codegen tests (read by `adtrans gen`, never edited by it)."""
import math

import adtrans
from numba import njit

DIFFUSIVITY = 0.2


@adtrans.differentiable(activity="dup,const", signature="float64(float64[:], int64)")
@njit(cache=True)
def heat_energy(u, steps):
    n = u.shape[0]
    for s in range(steps):
        left = u[0]
        for i in range(1, n - 1):
            mid = u[i]
            u[i] = mid + DIFFUSIVITY * (left - 2.0 * mid + u[i + 1])
            left = mid
    e = 0.0
    for i in range(n):
        e += math.sin(u[i]) * u[i]
    return e

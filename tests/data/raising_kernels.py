"""A kernel module for `adtrans gen` that raises a user-defined exception class (tests/test_codegen.py)."""
import numpy as np
from numba import njit
import adtrans

class BadInput(ValueError):
    pass

@adtrans.differentiable(("dup",), "float64(float64[:])")
@njit
def energy(x):
    if x.shape[0] < 2:
        raise BadInput("need two points")
    s = 0.0
    for i in range(x.shape[0] - 1):
        if x[i] < -1e9:
            raise ValueError("too small")
        s += (x[i + 1] - x[i]) ** 2
    return s

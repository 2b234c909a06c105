"""Kernels that accumulate into Python lists, for `make bench` (adtrans lowers a list to a
preallocated array and a length counter; the primal runs Numba's own growing list)."""
import math

import numpy as np
from numba import njit


@njit
def filtered_append(x, w):
    picked = []
    for i in range(x.shape[0]):
        if x[i] > 0.0:
            picked.append(x[i] * w[i])
    s = 0.0
    for v in picked:
        s += v * v
    return s


@njit
def comprehension_sum(x):
    ys = [math.exp(-v * v) for v in x]
    return sum(ys) + np.sum(np.array(ys) * x)

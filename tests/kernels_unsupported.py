"""Kernels with constructs adtrans refuses; each marks its offending line with `# <-`."""
import math

import numpy as np
import numba
from numba import njit


def gen_kernel(x):
    for v in x:
        yield v            # <- generator


@njit
def try_kernel(x):
    s = 0.0
    try:                   # <- try
        s = x[0]
    except Exception:
        s = 0.0
    return s


@njit
def slicing(x):
    y = x[1:3]             # <- slice
    return y[0]


@njit
def recursive(x, n):
    if n == 0:
        return x[0]
    return recursive(x, n - 1) * 2.0   # <- recursion


@njit
def calls_unknown(x):
    return np.linalg.norm(x)           # <- no rule


@njit
def writes_const(x, table):
    for i in range(x.shape[0]):
        table[i] = x[i] * 2.0          # <- active into Const
    return table[0]


@njit
def list_kernel(x):
    # lists of numbers are differentiated now (tests/test_lists.py); a list of arrays is not
    acc = [x]                          # <- list of arrays
    return acc[0][0]


def make_closure():
    scale = [2.0]

    def closure(x):
        return x[0] * scale[0]
    return closure


closure = make_closure()


@njit(cache=True)
def row_view(A, a):
    row = A[1]             # <- array view
    return row[0] * a


@njit
def untypable(x, table):
    s = x[0] * 2.0
    c = math.gamma(table)              # <- Numba cannot type
    return s * c


@njit(cache=True)
def fancy_index(x, idx):
    y = x[idx]             # differentiated now (a gather; tests/test_arrays_more.py)
    return y[0]


@njit(cache=True)
def view_rebound(A, a):
    row = A[1]
    for k in range(2):
        row = A[:, k]      # <- rebound to a view
    return row[0] * a


@njit
def calls_det_in_loop(A):
    s = 0.0
    for k in range(3):
        s += np.linalg.det(A * k)      # differentiated in loops now (tests/test_lapack_loops.py)
    return s


@njit(cache=True)
def mask_index(x):
    y = x[x > 0.5]         # <- boolean mask
    return np.sum(y)


@njit(cache=True)
def scatter_write(x, idx, v):
    x[idx] = v             # <- writing through an integer-array index
    return np.sum(x)


@njit(cache=True)
def sort_2d(A):
    B = np.sort(A)         # <- np.sort of a 2-d array
    return np.sum(B[0])


@njit(cache=True)
def shapes_never_agree(x):
    y = x[1:] + x          # <- extents that never agree
    return np.sum(y)


@njit(cache=True)
def spectral_norm(A):
    return np.linalg.norm(A, 'nuc')    # <- the nuclear norm (Numba does not compile it either)


@njit(cache=True)
def monte_carlo(s0, strike, n):
    np.random.seed(0)
    total = 0.0
    i = 0
    while np.random.random() < 0.99:       # <- random numbers drawn in a while test (bodies: test_gaps13_dd.py)
        total += max(s0[0] * math.exp(0.2 * i) - strike, 0.0)
        i += 1
    return total / n


@numba.stencil
def laplace_stencil(a):
    return a[-1] - 2.0 * a[0] + a[1]


@njit
def calls_stencil(x):
    y = laplace_stencil(x)                     # <- a @numba.stencil kernel
    return np.sum(y * y)

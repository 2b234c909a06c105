"""Kernels for tests/test_gaps13_arrays.py: NumPy window functions of scalars, np.nonzero of 2-d
arrays and gathers/scatters with several index arrays (x[r, c], x[0, c], x[:, c]), and NumPy
functions of scalars that adtrans does not know (refused with the line)."""
import numpy as np
from numba import njit


# ------------------------------------------------------------------ NumPy functions of scalars
@njit
def kaiser_window(x, c):
    w = np.kaiser(x.size, 2.5)
    return c * np.sum(w * x * x)


@njit
def kaiser_in_loop(x, c):
    s = 0.0
    for k in range(3):
        w = np.kaiser(x.size, 1.0 + k)
        s += np.sum(w * np.sin(x)) * c
    return s


@njit
def kaiser_active_beta(x, beta):
    w = np.kaiser(x.size, beta)          # <- refused
    return np.sum(w * x)


@njit
def logspace_weights(x):
    w = np.logspace(0.0, 1.0, x.size)    # <- refused
    return np.sum(w * x)


@njit
def linspace_power_weights(x):
    w = 10.0 ** np.linspace(0.0, 1.0, x.size)
    return np.sum(w * x)


# ------------------------------------------------------------------ np.nonzero of 2-d arrays
@njit
def nonzero_rows_cols_loop(A):
    rows, cols = np.nonzero(A > 0.6)
    s = 0.0
    for k in range(len(rows)):
        s += A[rows[k], cols[k]] ** 2 * (1.0 + cols[k])
    return s


@njit
def nonzero_gather(A, B):
    rows, cols = np.nonzero(B)
    return np.sum(np.sin(A[rows, cols]) * B[rows, cols])


@njit
def nonzero_part(A):
    cols = np.nonzero(A > 0.6)[1]
    rows = A.nonzero()[0]
    return np.sum(A[0, cols] ** 2) + np.sum(A[rows, 1])


@njit
def nonzero_row_gather(A):
    return np.sum(A[np.nonzero(A > 0.5)[0]] ** 2)    # whole rows, once per true element in them


@njit
def nonzero_3d(T):
    i, j, k = np.nonzero(T > 0.5)
    return np.sum(T[i, j, k] ** 3)


# ------------------------------------------------------------------ several index arrays
@njit
def gather_pairs(A, r, c):
    return np.sum(A[r, c] ** 2 * np.arange(r.size))


@njit
def gather_negative(A, r, c):
    B = A[1:, :]                          # a view: negative indices wrap against its extents
    return np.sum(A[r, c] * B[r, c])


@njit
def gather_columns(A, c):
    return np.sum(A[:, c] ** 2 * A[:, 0:1])


@njit
def gather_rows_of_3d(T, r, c):
    return np.sum(np.exp(T[r, c, :]) * T[r, c, 0:1])


@njit
def scatter_pairs(A, r, c, v):
    A[r, c] = v * v


@njit
def scatter_add_repeats(A, r, c, v):
    A[r, c] += np.sin(v)                 # a repeated (r, c): the last store wins, as in NumPy


@njit
def scatter_columns(A, c, v):
    A[:, c] = A[:, c] * v


@njit
def gather_sliced(A, c):
    return np.sum(A[1:, c] ** 2) + np.sum(A[::-2, c] * A[0, c])


@njit
def scatter_sliced(A, c, v):
    A[1:, c] = np.cos(v) * A[:-1, c]


@njit
def gather_apart(T, r, c):
    return np.sum(T[r, :, c])            # <- refused

"""Kernels for tests/test_newuser8.py (a new user's eighth trial): lists of array rows, math
functions Numba lacks, a tuple of active arrays passed whole to a kernel."""
import math

import numpy as np
from numba import njit


@njit
def stacked_rows(X, c):
    rows = []
    for i in range(X.shape[0]):
        rows.append(X[i] * c[i])
    Y = np.array(rows)
    return np.sum(Y * Y)


@njit
def vstacked_rows(X, c):
    rows = []
    for i in range(X.shape[0]):
        rows.append(np.sin(X[i]) + c[i])
    Y = np.vstack(rows)
    return np.sum(Y * Y)


@njit
def summed_rows(X, c):
    rows = []
    for i in range(X.shape[0]):
        rows.append(X[i] * c[i])
    s = 0.0
    for k in range(len(rows)):
        s += np.sum(rows[k]) ** 2
    return s


@njit
def unknown_row_length(x, n):
    rows = []
    for i in range(n):
        rows.append(x[:i + 1] * 2.0)
    return np.sum(rows[0])


@njit
def factorial_series(x):
    s = 0.0
    for i in range(6):
        s += x[0] ** i / math.factorial(i)
    return s


@njit
def cbrt_sum(x):
    return math.cbrt(x[0]) + x[1]


@njit
def fsum_of(x):
    return math.fsum((x[0], x[1]))


@njit
def factorial_series_gamma(x):
    """The hint of factorial_series: the same series with math.gamma."""
    s = 0.0
    for i in range(6):
        s += x[0] ** i / math.gamma(i + 1.0)
    return s


@njit
def first_row_element(a):
    rows = []
    for i in range(a.shape[0]):
        rows.append(a[i])
    return rows[0][0] * rows[-1][1]


# ----------------------------------------------------------------- drivers
@njit
def sum_pair(p):
    return np.sum(p[0] * p[1])


def tuple_of_arrays_driver(x, y):
    """A tuple of active arrays passed whole to a kernel (each element its own shadow)."""
    pair = (x * 2.0, y)
    s = sum_pair(pair)
    return s


def list_of_arrays_driver(x, y):
    parts = [x * 2.0, y]
    return sum_pair(parts)


def passive_tuple_driver(x, n):
    """A tuple of constants passed whole: fine (the kernel's tuple parameter is constant)."""
    shape = (n, n + 1)
    return sum_pair(shape) * np.sum(x * x)


# ----------------------------------------------------------------- rows bound to a name first
@njit
def named_rows(X, c):
    rows = []
    for i in range(X.shape[0]):
        r = X[i] * c[i]
        rows.append(r)
    Y = np.array(rows)
    return np.sum(Y * Y)


@njit
def filled_rows(X, c):
    rows = []
    m = X.shape[1]
    for i in range(X.shape[0]):
        r = np.zeros(m)
        for j in range(m):
            r[j] = X[i, j] * c[i]
        rows.append(r)
    s = 0.0
    for r2 in rows:
        s += np.sum(r2 * r2)
    return s

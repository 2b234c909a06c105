"""Drivers and their kernels for tests/test_breaker3.py (module-level kernels, cache=True)."""
import numpy as np
from numba import njit


@njit(cache=True)
def fill_sin(x, y):
    for i in range(x.shape[0]):
        y[i] = np.sin(x[i]) * x[i]


@njit(cache=True)
def fill_cos2d(X, Y):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            Y[i, j] = np.cos(X[i, j]) + X[i, j] ** 2


def reshape_written(X):
    """NumPy's reshape of a contiguous array is a view: the in-place update doubles Y."""
    Y = np.zeros(X.shape)
    fill_cos2d(X, Y)
    r = Y.reshape(-1)
    r *= 2.0
    return np.sum(Y * Y)


def ravel_written_by_a_kernel(X, w):
    """Y.ravel() is a view of Y: the kernel overwrites all of Y through it."""
    Y = np.zeros(X.shape)
    fill_cos2d(X, Y)
    r = Y.ravel()
    fill_sin(w, r)
    return np.sum(Y * Y)


def ravel_of_zeros_written_by_a_kernel(w):
    """Y starts constant (zeros); only the kernel's writes through the view make it active."""
    Y = np.zeros((2, 3))
    r = Y.ravel()
    fill_sin(w, r)
    return np.sum(Y * Y)


def ravel_copy_written(X):
    """Y[:, ::2].ravel() is a copy: writes to it leave Y alone."""
    Y = np.zeros(X.shape)
    fill_cos2d(X, Y)
    r = Y[:, ::2].ravel()
    r *= 2.0
    return np.sum(Y * Y) + np.sum(r * r)


def reshape_read_and_written(X):
    """np.reshape(Y, ...) read, then written through: both go to Y."""
    Y = np.zeros(X.shape)
    fill_cos2d(X, Y)
    r = np.reshape(Y, (-1,))
    s = np.sum(r * r)
    r += 1.0
    return s + np.sum(Y ** 3)

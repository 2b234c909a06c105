"""Kernels calling the NumPy functions of adtrans/normalise/arrayfuncs.py (tests/test_npfuncs.py).

Kernels with a form Numba does not compile (PRIMAL_LIMITS: np.roll/np.flip/np.diff/np.cumprod with
axis=; np.take with axis= compiles) are differentiated by adtrans; the finite differences run their
py_func in NumPy."""
import math

import numpy as np
from numba import njit


# ------------------------------------------------------------------ shifts and differences
@njit
def roll_stencil(u, c, steps):
    """A periodic diffusion time loop written with np.roll (the stencil idiom)."""
    for _ in range(steps):
        u = u + c * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))
    return np.sum(u * u)


@njit
def roll_runtime(x, s):
    y = np.roll(x, s) * x
    return np.sum(y * np.arange(x.shape[0]))


@njit
def roll_flat_2d(A, s):
    return np.sum(np.roll(A, s) * A) + np.sum(np.roll(A[1:, ::2], 1) ** 2)


@njit
def roll_axis(A, s):
    return np.sum(np.roll(A, s, axis=1) * A) + np.sum(np.roll(A, -1, 0) ** 3)


@njit
def flips(A, x):
    return np.sum(np.flip(x) * x) + np.sum(np.fliplr(A) * A) + np.sum(np.flipud(A) ** 2 * A) + \
        np.sum(np.flip(A) * np.arange(A.size).reshape(A.shape[0], A.shape[1]))


@njit
def flip_axis(A):
    return np.sum(np.flip(A, axis=1) * A) + np.sum(np.flip(A, 0) ** 2 * A)


@njit
def flip_view_write(x):
    y = np.flip(x)            # a view: the write reaches x
    y[0] = y[0] * 3.0
    return np.sum(x * x)


@njit
def diffs(x, A):
    d = np.diff(x)
    d2 = np.diff(x, 2)
    d3 = np.diff(x, n=3)
    return np.sum(d * d) + np.sum(d2 ** 3) + np.sum(d3 * x[:d3.shape[0]]) + np.sum(np.diff(A) ** 2) + \
        np.sum(np.ediff1d(A) * np.arange(A.size - 1))


@njit
def diff_axis(A):
    return np.sum(np.diff(A, axis=0) ** 2) + np.sum(np.diff(A, 2, 0) * A[:-2])


@njit
def diff_in_loop(x, steps):
    s = 0.0
    for k in range(steps):
        s += np.sum(np.diff(x[k:]) ** 2) * (k + 1)
    return s


@njit
def cumprods(x, A):
    return np.sum(np.cumprod(x) * x) + np.sum(np.cumprod(A[:, 1:]) ** 2) + np.sum(x.cumprod())


@njit
def cumprod_axis(A):
    return np.sum(np.cumprod(A, axis=0) * A) + np.sum(np.cumprod(A, 1) ** 2)


@njit
def convolutions(a, v):
    return np.sum(np.convolve(a, v) ** 2) + np.sum(np.convolve(a, v, 'same') ** 2 * 0.5) + \
        np.sum(np.convolve(v, a, 'valid') ** 3) + np.sum(np.correlate(a, v) ** 2) + \
        np.sum(np.correlate(a, v, 'full') * np.arange(a.shape[0] + v.shape[0] - 1)) + \
        np.sum(np.correlate(v, a, 'same') ** 2)


@njit
def convolve_in_loop(a, v, steps):
    s = 0.0
    for k in range(steps):
        s += np.sum(np.convolve(a[k:], v) ** 2)
    return s


@njit
def interps(x, xp, fp):
    y = np.interp(x, xp, fp)
    return np.sum(y * y * x) + np.interp(0.3 * x[0], xp, fp) ** 2


@njit
def interp_loop(x, xp, fp):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.interp(x[i] * 1.1, xp, fp) * x[i]
    return s


@njit
def crosses(a, b, V, W):
    return np.sum(np.cross(a, b) ** 2) + np.sum(np.cross(V, W) * V) + np.sum(np.cross(V, b) ** 3)


@njit
def averages(x, w, A):
    return np.average(x) ** 2 + np.average(x, weights=w) * np.average(A) + np.trapezoid(x * x) + \
        np.trapezoid(x * w, x=np.cumsum(w)) + np.trapezoid(x, dx=0.3) + np.ptp(x) * np.ptp(A)


# ------------------------------------------------------------------ element-wise (table entries)
@njit
def ufuncs2(x, y):
    return np.sum(np.logaddexp(x, y) + np.logaddexp2(x, 2.0 * y) + np.fmax(x, y) * np.fmin(x, 0.5) +
                  np.deg2rad(x) * np.radians(y) + np.rad2deg(x) * np.degrees(y) + np.sinc(x) + np.sinc(x * 1e-3) +
                  np.positive(y) * x + np.float_power(x, 1.5) + np.float_power(y, x))


@njit
def ufuncs2_loop(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.logaddexp(x[i], y[i]) * np.fmax(x[i], 0.3) + np.sinc(x[i] - 0.5) + math.radians(y[i]) ** 2
    return s


@njit
def nan_reductions(x):
    y = np.where(x > 0.5, np.nan, x)
    return np.nansum(y * 2.0) + np.nanmean(y) ** 2 + np.nanmax(y) * np.nanmin(y) + np.nanprod(y + 1.0)


@njit
def order_statistics(x, A, q):
    return np.median(x) ** 2 + np.median(A) * np.percentile(x, 30.0) + np.quantile(A, 0.85) + \
        np.sum(np.percentile(x, q) ** 2) + np.percentile(A[1], q[0] + 5.0) * np.quantile(x, 0.5)


@njit
def median_in_loop(X):
    s = 0.0
    for i in range(X.shape[0]):
        s += np.median(X[i]) * (i + 1)
    return s


# ------------------------------------------------------------------ shape functions
@njit
def shapes2(x, y, A):
    s = np.sum(np.expand_dims(x, 0) * A[:, :x.shape[0]]) + np.sum(np.expand_dims(x, axis=1) * y)
    s += np.sum(np.atleast_1d(x) * 2.0) + np.sum(np.atleast_2d(x) ** 2) + np.sum(np.atleast_3d(A) * 3.0)
    s += np.sum(np.column_stack((x, y)) ** 2) + np.sum(np.row_stack((x, y)) * np.arange(2 * x.size).reshape(2, -1))
    s += np.sum(np.dstack((x, y)) ** 3) + np.sum(np.broadcast_to(x, (3, x.shape[0])) * np.arange(3.0)[:, None])
    s += np.sum(np.repeat(x, 2) * np.arange(2 * x.shape[0])) + np.sum(x.repeat(3) ** 2)
    return s


@njit
def gathers2(x, A, idx):
    return np.sum(np.take(x, idx) ** 2) + np.take(x, 2) * np.sum(np.take(A, idx)) + np.sum(x.take(idx) * x[:4])


@njit
def take_axis(A, idx):
    return np.sum(np.take(A, idx, axis=1) ** 2) + np.sum(np.take(A, idx[1:], axis=0) * A[:2])


@njit
def matrices2(x, A):
    n = x.shape[0]
    return np.sum(np.identity(n) * np.outer(x, x)) + np.sum(np.tri(n) * np.outer(x, x)) + \
        np.sum(np.tri(n, n, 1) * np.outer(x, x)) + np.sum(np.diagflat(x) ** 2) + \
        np.sum(np.diagflat(x, 1) * np.diagflat(x * x, 1)) + np.sum(np.diagflat(A, -2) ** 2)


@njit
def axes2(A, B):
    return np.sum(np.swapaxes(A, 0, 1) * B) + np.sum(np.moveaxis(A, 0, 1) ** 2 * B) + \
        np.sum(np.rot90(A) * B) + np.sum(np.rot90(A, 2) * A) + np.sum(np.rot90(A, 3) ** 2 * B) + \
        np.sum(np.transpose(A, (1, 0)) * B)


@njit
def axes3(T):
    return np.sum(np.swapaxes(T, 0, 2) * np.arange(T.size).reshape(T.shape[2], T.shape[1], T.shape[0])) + \
        np.sum(np.moveaxis(T, 0, -1) ** 2 * np.arange(T.size).reshape(T.shape[1], T.shape[2], T.shape[0]))


# ------------------------------------------------------------------ constant functions
@njit
def constants(x, bins, ints):
    s = 0.0
    if np.array_equal(x, x) and np.allclose(x, x) and np.all(np.isclose(x, x)):
        s += np.sum(x)
    s += np.count_nonzero(x > 0.5) * np.sum(x ** 2)
    s += np.sum(x[np.flatnonzero(x > 0.5)] ** 2)
    s += np.sum(x * np.digitize(x, bins)) + np.sum(x * np.searchsorted(bins, x)) + np.searchsorted(bins, x[0]) * x[1]
    s += np.sum(x[:4] * np.bincount(ints)[:4])
    s += np.sum(np.where(np.isfinite(x), x, 0.0) ** 2) + np.sum(np.where(np.signbit(x - 0.5), x, 2.0 * x))
    s += np.sum(np.where(np.logical_xor(x > 0.3, x < 0.6), x, -x)) + np.sum(np.where(np.logical_and(x > 0.3, x < 0.6), x, 0.0))
    s += np.shape(x)[0] * x[0] + np.size(x) * x[1]
    return s


@njit
def constants_loop(X, bins):
    s = 0.0
    for i in range(X.shape[0]):
        k = np.digitize(X[i], bins)
        s += np.sum(X[i] * k) + np.count_nonzero(X[i] > 0.5) * X[i, 0]
    return s


# ------------------------------------------------------------------ refused, with the line
@njit
def refused_repeat_counts(x, r):
    return np.sum(np.repeat(x, r))            # <- refused


@njit
def refused_interp_left(x, xp, fp):
    return np.sum(np.interp(x, xp, fp, 0.0))  # <- refused


@njit
def refused_bincount_weights(i, w):
    return np.sum(np.bincount(i, w))          # <- refused


@njit
def refused_ediff1d_end(x):
    return np.sum(np.ediff1d(x, to_end=x[:1]))   # <- refused


@njit
def refused_cross_2(a, b):
    return np.sum(np.cross(a[:2], b[:2]))     # <- refused


@njit
def refused_nonzero_2d(A):
    return np.sum(A[np.nonzero(A > 0.5)[2]])  # <- refused (a 2-d array has two index arrays)


@njit
def nan_only_sum(x):
    return np.nansum(x * x)


@njit
def refused_no_rule(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.ldexp(x[i] * 2.0, 3)        # <- refused
    return s


@njit
def percentile_small(x, q):
    return np.percentile(x, q) * np.quantile(x[::-1], 0.4)


# ------------------------------------------------------------------ a driver (plain Python, the table entries)
def driver_ufuncs2(x, y):
    return np.sum(np.logaddexp(x, y) * np.fmax(x, 0.5) + np.sinc(x) + np.sinc(1e-3 * y) + np.deg2rad(y) ** 2
                  + np.float_power(x, 1.5) + np.logaddexp2(y, x) * np.fmin(y, x)) + math.lgamma(x[0] + 1.0)

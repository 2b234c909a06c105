"""Kernels for tests/test_issue13_leftovers.py (issue 13's leftovers), written as users write them:
whole-array reductions in ``prange``, run-time indices into tuples of arrays, arrays rebound in a
taped loop to a data-dependent length."""
import numpy as np
from numba import njit, prange


# 1. whole-array reductions in prange (Numba's own array reductions), one kernel: one compilation
@njit(parallel=True)
def prange_array_reductions(X, w):
    acc = np.zeros(w.shape[0])
    low = np.zeros(X.shape[1])
    prod = np.ones(X.shape[1])
    peak = np.full(X.shape[1], -1e300)
    for i in prange(X.shape[0]):
        acc += X[i, 0] * w
        low -= np.sin(X[i])
        prod *= 1.0 + 0.1 * X[i]
        peak = np.maximum(peak, X[i] * X[i])
    return np.sum(acc * acc) + np.sum(low ** 3) + np.sum(prod * prod) + np.sum(peak)


@njit(parallel=True)
def prange_array_product_read(X):
    acc = np.ones(X.shape[1])
    for i in prange(X.shape[0]):
        acc *= 1.0 + 0.1 * X[i] * acc[0]      # <- the reduced array read in the body
    return np.sum(acc)


# 2. run-time indices into tuples of arrays
@njit
def tuple_counter_len(a, b, c):
    p = (a, b, c)
    s = 0.0
    for i in range(len(p)):
        s += np.sum(p[i] * p[i]) * (i + 1.0)
    return s


@njit
def tuple_counter_const(a, b, c, w):
    p = (a, b, c)
    s = 0.0
    for i in range(3):
        for j in range(w.shape[0]):
            s += w[j] * np.sin(p[i][j]) * p[(i + 1) % 3][j]
    return s


@njit
def layer_energy(layers, x):
    s = 0.0
    for k in range(len(layers)):
        s += np.sum(np.tanh(layers[k] @ x))
    return s


@njit
def tuple_helper(W1, W2, x):
    return layer_energy((W1, W2), x)


@njit
def tuple_param(p, w):
    s = 0.0
    for i in range(len(p)):
        s += np.dot(p[i], w) ** 2
    return s


@njit
def tuple_runtime_count(a, b, c, n):
    p = (a, b, c)
    s = 0.0
    for i in range(n):
        s += np.sum(p[i])           # <- n known only at run time
    return s


# 4. arrays rebound in a taped loop to a data-dependent length
@njit
def self_compaction(x, t, nt):
    s = 0.0
    for k in range(nt):
        x = x[x > t]                # <- x rebound to its own compaction
        s += np.sum(x * x)
        t = t + 0.1
    return s


@njit
def truncation(x, nt):
    s = 0.0
    for k in range(nt):
        m = 0
        for j in range(x.shape[0]):
            if x[j] > 0.0:
                m += 1
        x = x[:m] * 0.9             # <- a length computed from the data
        s += np.sum(x)
    return s


# 3. aliasing inside a Duplicated tuple
@njit
def tuple_scale_into(p, c):
    src, dst = p
    for i in range(src.shape[0]):
        dst[i] = c * src[i] * src[i]
    return np.sum(dst)


@njit(parallel=True)
def tuple_prange(p, w):
    s = 0.0
    for i in prange(w.shape[0]):
        s += w[i] * p[0][i] * p[1][i]
    return s

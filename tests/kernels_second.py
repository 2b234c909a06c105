"""Kernels for the second-order tests (module-level so Numba caches them): scalar loops, whole-array
NumPy and explicit loops, a time loop with a tape, a while loop, branches, prange."""
import math

import numpy as np
from numba import njit, prange


@njit(cache=True)
def poly(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] ** 3 - 2.0 * x[i] * x[i] + 0.5 * x[i]
    return s


@njit(cache=True)
def poly_numpy(x):
    return np.sum(x ** 3 - 2.0 * x * x + 0.5 * x)


@njit(cache=True)
def coupled(x, a):
    s = 0.0
    for i in range(x.shape[0] - 1):
        d = x[i + 1] - a * x[i]
        s += math.exp(0.3 * d) + d * d * x[i] + math.sin(x[i] * a) / (1.0 + x[i + 1] ** 2)
    return s + math.sqrt(a * a + 1.0) * math.log(1.0 + x[0] * x[0])


@njit(cache=True)
def quad_form(A, x):
    y = A @ x
    return np.dot(y, y) + np.sum(np.tanh(x)) * np.sum(x * x)


@njit(cache=True)
def quad_form_loops(A, x):
    n = x.shape[0]
    s = 0.0
    for i in range(n):
        yi = 0.0
        for j in range(n):
            yi += A[i, j] * x[j]
        s += yi * yi
    t = 0.0
    q = 0.0
    for i in range(n):
        t += math.tanh(x[i])
        q += x[i] * x[i]
    return s + t * q


@njit(cache=True)
def recurrence(x, a):
    y = 1.0
    for i in range(x.shape[0]):
        y = math.sin(y * x[i]) + a * y
    return y * y


@njit(cache=True)
def time_loop(u, c, steps):
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i] * u[i]
    return e


@njit(cache=True)
def newton_iterations(a, x):
    y = x
    it = 0
    while abs(y * y - a) > 1e-12 and it < 50:
        y = 0.5 * (y + a / y)
        it += 1
    return y * y * y


@njit(cache=True)
def branchy(x, t):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > t:
            s += x[i] * x[i] * t
        else:
            s -= math.cos(x[i]) * x[i]
    return s + max(x[0], x[1]) ** 2


@njit(cache=True)
def array_steps(x):
    y = np.exp(0.5 * x) * x
    z = y[1:] - y[:-1]
    return np.sum(z * z) + np.prod(1.0 + 0.1 * x)


@njit(parallel=True, cache=True)
def pairs_prange(x):
    n = x.shape[0]
    s = 0.0
    for i in prange(n):
        for j in range(n):
            d = x[i] - x[j]
            s += math.exp(-d * d) * x[i]
    return s


@njit(cache=True)
def sqrt_at_zero(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sqrt(x[i] * x[i] + 1.0) * x[i]
    return s


@njit(cache=True)
def piecewise(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.floor(3.0 * x[i]) * x[i] ** 2 + np.sign(x[i]) * x[i] ** 3 + abs(x[i]) * x[i]
    return s

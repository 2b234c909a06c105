"""Benchmark kernels, written as a user would write them."""
import math

import numpy as np
from numba import njit, prange


@njit(cache=True)
def heat_time_loop(u, c, steps):
    """Explicit diffusion with a cubic sink, updated in place for ``steps`` steps; returns the energy."""
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit(cache=True)
def pair_potential(x, n):
    """Soft pair potential over all pairs i < j of 3-D points ``x`` (n, 3)."""
    e = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            dx = x[i, 0] - x[j, 0]
            dy = x[i, 1] - x[j, 1]
            dz = x[i, 2] - x[j, 2]
            r2 = dx * dx + dy * dy + dz * dz + 0.1
            e += 1.0 / r2 - 1.0 / math.sqrt(r2)
    return e


@njit(cache=True)
def recurrence(x, a):
    """A scalar recurrence (taped: each step depends on the previous one)."""
    t = 0.5
    for i in range(x.shape[0]):
        t = math.tanh(a * t + x[i])
    return t


@njit(parallel=True, cache=True)
def gather_energy(x, idx, w):
    s = 0.0
    for i in prange(idx.shape[0]):
        v = x[idx[i]]
        s += w[i] * math.sin(v) * v
    return s


@njit(parallel=True, cache=True)
def pairwise_prange(a, b, out):
    for i in prange(a.shape[0]):
        e = 0.0
        for j in range(b.shape[0]):
            dx = a[i, 0] - b[j, 0]
            dy = a[i, 1] - b[j, 1]
            r2 = dx * dx + dy * dy + 0.5
            e += 1.0 / r2 - 0.3 / math.sqrt(r2)
        out[i] = 0.5 * e

"""Kernels with singular points (sqrt / ** 0.5 / hypot at 0) written as users write Numba."""
import math

import numpy as np
from numba import njit, prange


@njit
def sph_density(pos, h):
    """SPH density with the self-pair: r = 0 when i == j."""
    n = pos.shape[0]
    rho = 0.0
    for i in range(n):
        for j in range(n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            dz = pos[i, 2] - pos[j, 2]
            r = (dx * dx + dy * dy + dz * dz) ** 0.5
            q = r / h
            if q < 1.0:
                rho += (1.0 - q) ** 3
    return rho


@njit(parallel=True)
def pair_energy_prange(pos, out):
    n = pos.shape[0]
    for i in prange(n):
        e = 0.0
        for j in range(n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            r = math.sqrt(dx * dx + dy * dy)
            e += math.exp(-r)
        out[i] = e


@njit
def hypot_pairs(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[0]):
            s += math.hypot(x[i] - x[j], y[i] - y[j]) * x[j]
    return s


@njit
def pow_half(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.pow(x[i] * x[i], 0.5) + np.sqrt(x[i] * x[i]) * 2.0
    return s

"""Array-style kernels for `make bench` (whole-array NumPy, lowered to loops by adtrans)."""
import numpy as np
from numba import njit


@njit
def heat_slices(u, c, steps):
    un = np.empty_like(u)
    for t in range(steps):
        un[:] = u
        u[1:-1] = un[1:-1] + c * (un[2:] - 2.0 * un[1:-1] + un[:-2])
    return np.sum(u * u)


@njit
def nbody_broadcast(x, y, z, mass, eps):
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    dz = z[:, None] - z[None, :]
    inv = 1.0 / np.sqrt(dx * dx + dy * dy + dz * dz + eps * eps)
    return -0.5 * np.sum(mass[:, None] * mass[None, :] * inv)


@njit
def gemm_at(A, B, C):
    return np.sum((A @ B) * C)


@njit
def two_mm_at(A, B, C, D):
    return np.sum((A @ B) @ C * D)


@njit
def logsumexp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))

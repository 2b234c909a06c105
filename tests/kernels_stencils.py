"""Stencil kernels as users write them (explicit loops and whole-array slices, serial and
``prange``, 1-D/2-D/3-D, asymmetric offsets): the gather-form adjoint's test corpus."""
import math

import numpy as np
from numba import njit, prange


# ------------------------------------------------------------------ 1-D
@njit
def heat_1d(u, out, c):
    n = u.shape[0]
    for i in range(1, n - 1):
        out[i] = u[i] + c * (u[i + 1] - 2.0 * u[i] + u[i - 1]) - 0.01 * u[i] ** 3


@njit
def asym_1d(u, out):
    """Asymmetric offsets, a store offset and a loop starting at 2."""
    n = u.shape[0]
    for i in range(2, n - 1):
        out[i - 1] = 0.5 * u[i - 2] - u[i + 1] * u[i] + math.sin(u[i - 1])


@njit
def two_inputs_1d(a, b, w, out):
    """Two active inputs and a constant coefficient array read at the iteration."""
    n = a.shape[0]
    for i in range(1, n - 2):
        out[i] = a[i - 1] * b[i + 2] + w[i] * math.exp(0.1 * a[i]) - b[i]


@njit
def heat_1d_slices(u, out, c):
    out[1:-1] = u[1:-1] + c * (u[2:] - 2.0 * u[1:-1] + u[:-2])


@njit
def asym_1d_slices(u, out):
    out[1:-2] = 0.5 * u[:-3] - u[3:] * u[2:-1] + np.sin(u[1:-2])


@njit(parallel=True)
def heat_1d_prange(u, out, c):
    n = u.shape[0]
    for i in prange(1, n - 1):
        out[i] = u[i] + c * (u[i + 1] - 2.0 * u[i] + u[i - 1]) - 0.01 * u[i] ** 3


@njit(parallel=True)
def asym_1d_prange(u, out):
    n = u.shape[0]
    for i in prange(2, n - 1):
        out[i - 1] = 0.5 * u[i - 2] - u[i + 1] * u[i] + math.sin(u[i - 1])


@njit
def heat_steps(u, c, steps):
    """A time loop: the stencil reads a copy of the previous step."""
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


@njit
def heat_steps_slices(u, c, steps):
    un = np.empty_like(u)
    for t in range(steps):
        un[:] = u
        u[1:-1] = un[1:-1] + c * (un[2:] - 2.0 * un[1:-1] + un[:-2])
    return np.sum(u * u)


# ------------------------------------------------------------------ 2-D
@njit
def jacobi_2d(A, B, steps):
    n, m = A.shape
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                B[i, j] = 0.2 * (A[i, j] + A[i, j - 1] + A[i, j + 1] + A[i + 1, j] + A[i - 1, j])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                A[i, j] = 0.2 * (B[i, j] + B[i, j - 1] + B[i, j + 1] + B[i + 1, j] + B[i - 1, j])


@njit
def jacobi_2d_slices(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


@njit(parallel=True)
def skew_2d_prange(A, out):
    """Asymmetric 2-D offsets, a nonlinear term, rows in parallel."""
    n, m = A.shape
    for i in prange(2, n - 1):
        for j in range(1, m - 2):
            out[i, j] = A[i - 2, j + 2] * A[i, j] - math.cos(A[i + 1, j - 1]) + 0.3 * A[i, j + 1]


# ------------------------------------------------------------------ 3-D
@njit(parallel=True)
def heat_3d_prange(A, B):
    n, m, p = A.shape
    for i in prange(1, n - 1):
        for j in range(1, m - 1):
            for k in range(1, p - 1):
                B[i, j, k] = (0.125 * (A[i + 1, j, k] - 2.0 * A[i, j, k] + A[i - 1, j, k])
                              + 0.125 * (A[i, j + 1, k] - 2.0 * A[i, j, k] + A[i, j - 1, k])
                              + 0.125 * (A[i, j, k + 1] - 2.0 * A[i, j, k] + A[i, j, k - 1])
                              + A[i, j, k] * A[i, j, k])


@njit
def heat_3d_slices(A, B):
    B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                           + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                           + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                           + A[1:-1, 1:-1, 1:-1] * A[1:-1, 1:-1, 1:-1])


# ------------------------------------------------------------------ not stencils
@njit
def seidel_1d(u):
    """Reads what it writes (Gauss-Seidel): not a gather-form loop."""
    n = u.shape[0]
    for i in range(1, n - 1):
        u[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0


# ------------------------------------------------------------------ in place (FDTD)
@njit
def fdtd_2d(ex, ey, hz, fict, steps):
    """PolyBench fdtd-2d: each update reads the array it writes at the element it writes."""
    nx, ny = ex.shape
    for t in range(steps):
        for j in range(ny):
            ey[0, j] = fict[t]
        for i in range(1, nx):
            for j in range(ny):
                ey[i, j] = ey[i, j] - 0.5 * (hz[i, j] - hz[i - 1, j])
        for i in range(nx):
            for j in range(1, ny):
                ex[i, j] = ex[i, j] - 0.5 * (hz[i, j] - hz[i, j - 1])
        for i in range(nx - 1):
            for j in range(ny - 1):
                hz[i, j] = hz[i, j] - 0.7 * (ex[i, j + 1] - ex[i, j] + ey[i + 1, j] - ey[i, j])


@njit(parallel=True)
def damp_in_place_prange(u, v, c):
    """u[i] updated in place from its own value (nonlinearly) and v's neighbours."""
    n = u.shape[0]
    for i in prange(1, n - 1):
        u[i] = u[i] * u[i] * 0.5 + c * (v[i + 1] - v[i - 1])

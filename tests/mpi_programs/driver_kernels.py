"""@njit kernels used by the driver tests and MPI programs (module-level, cache=True)."""
import math

import numpy as np

from numba import njit


@njit(cache=True)
def diffuse(u, unew, c):
    """unew[i] = u[i] + c (u[i-1] - 2 u[i] + u[i+1]) - 0.1 u[i]^3 for the interior points."""
    for i in range(1, u.shape[0] - 1):
        unew[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * u[i] ** 3


@njit(cache=True)
def energy(u, w):
    """sum_i w[i] u[i]^2."""
    e = 0.0
    for i in range(u.shape[0]):
        e += w[i] * u[i] * u[i]
    return e


@njit(cache=True)
def scale_sin(x, out, a):
    """out[i] = a sin(x[i]); returns sum(out)."""
    s = 0.0
    for i in range(x.shape[0]):
        out[i] = a * math.sin(x[i])
        s += out[i]
    return s


@njit(cache=True)
def square_inplace(x):
    """x[i] = x[i]^2 in place."""
    for i in range(x.shape[0]):
        x[i] = x[i] * x[i]


@njit(cache=True)
def sumsq(x):
    """sum_i x[i]^2."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


@njit(cache=True)
def cubesum(x):
    """sum_i x[i]^3."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i] * x[i]
    return s


@njit(cache=True)
def fill(x, v):
    """x[:] = v."""
    for i in range(x.shape[0]):
        x[i] = v


@njit(cache=True)
def doubled(x):
    """Returns a new array 2 x."""
    return 2.0 * x


@njit(cache=True)
def first_negative(x):
    """Index of the first negative entry, -1 if none (an integer result, like LULESH's checks)."""
    for i in range(x.shape[0]):
        if x[i] < 0.0:
            return i
    return -1


# ----------------------------------------------------------------------------- kernels returning values

@njit(cache=True)
def advect_step(u, c):
    """One upwind advection + diffusion step of a 1-D field with fixed end points, whole-array
    NumPy with slices: a new array."""
    un = u.copy()
    un[1:-1] = u[1:-1] - c * (u[1:-1] - u[:-2]) + 0.1 * (u[:-2] - 2.0 * u[1:-1] + u[2:]) - 0.05 * u[1:-1] ** 3
    return un


@njit(cache=True)
def advect_step_loop(u, c):
    """advect_step written with an explicit loop over a fresh np.empty (end points held)."""
    n = u.shape[0]
    un = np.empty(n)
    un[0] = u[0]
    un[n - 1] = u[n - 1]
    for i in range(1, n - 1):
        un[i] = u[i] - c * (u[i] - u[i - 1]) + 0.1 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.05 * u[i] ** 3
    return un


@njit(cache=True)
def sir_rhs(S, I, beta):
    """Right-hand side (dS/dt, dI/dt) of the SIR model with recovery rate 0.1: two floats."""
    inf = beta * S * I
    return -inf, inf - 0.1 * I


@njit(cache=True)
def sir_rhs_arrays(S, I, beta):
    """SIR right-hand sides of a population of patches (arrays S, I): two new arrays."""
    dS = np.empty_like(S)
    dI = np.empty_like(I)
    for k in range(S.shape[0]):
        inf = beta * S[k] * I[k]
        dS[k] = -inf
        dI[k] = inf - 0.1 * I[k]
    return dS, dI


@njit(cache=True)
def step_and_mass(u, c):
    """(new field, its mass sum(u^2)): an array and a float."""
    un = u * (1.0 - c) + c * np.sin(u)
    return un, np.sum(un * un)


@njit(cache=True)
def relax_into(u, out, c):
    """Writes out[:] = u + c tanh(u) and returns the increment out - u (a new array)."""
    for i in range(u.shape[0]):
        out[i] = u[i] + c * math.tanh(u[i])
    return out - u


@njit(cache=True)
def passthrough(x):
    """Returns its argument itself (a driver cannot give the result a shadow of its own)."""
    return x

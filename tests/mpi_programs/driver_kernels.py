"""@njit kernels used by the driver tests and MPI programs (module-level, cache=True)."""
import math

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
    """Returns a new array 2 x (drivers reject array-returning kernels)."""
    return 2.0 * x


@njit(cache=True)
def first_negative(x):
    """Index of the first negative entry, -1 if none (an integer result, like LULESH's checks)."""
    for i in range(x.shape[0]):
        if x[i] < 0.0:
            return i
    return -1

"""Kernels and drivers using the intrinsics added to the derivative table (module-level so Numba caches them)."""
import math

import numpy as np
from numba import cuda, njit


@njit
def square(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.square(a * x[i])
    return s


@njit
def arcsinh(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.arcsinh(a * x[i]) + math.asinh(x[i] - a)
    return s


@njit
def arccosh(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.arccosh(1.0 + a * x[i]) + math.acosh(2.0 + x[i] * x[i] - a)
    return s


@njit
def arctanh(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.arctanh(0.5 * a * x[i]) + math.atanh(x[i] - 0.5 * a)
    return s


@njit
def exp2(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.exp2(a * x[i]) + math.exp2(x[i] - a)
    return s


@njit
def reciprocal(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.reciprocal(a + x[i])
    return s


@njit
def gamma_of_constant(x, c):
    """math.gamma / math.lgamma of a constant: allowed (no derivative needed)."""
    for i in range(x.shape[0]):
        x[i] = x[i] * math.gamma(c) + math.lgamma(c + 1.0) * x[i] * x[i]


@njit
def gamma_of_active(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.gamma(a * x[i]) + math.lgamma(a + x[i])     # digamma (adtrans.special)
    return s


@njit
def radians_of_constant(x, c):
    """math.ldexp has no rule: fine with a constant argument (math.radians has one since)."""
    for i in range(x.shape[0]):
        x[i] = x[i] * math.ldexp(c, 2) * math.radians(c)


@njit
def radians_of_active(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.ldexp(x[i], 2)        # <- refused: no rule, active argument
    return s


# ---------------------------------------------------------------- drivers (plain Python)
def driver_arrays(x, a):
    """Every new intrinsic on NumPy arrays and on a Python float."""
    s = np.sum(np.square(x)) + np.sum(np.arcsinh(a * x)) + np.sum(np.arccosh(1.0 + x)) \
        + np.sum(np.arctanh(0.5 * x)) + np.sum(np.exp2(a * x)) + np.sum(np.reciprocal(x))
    t = math.asinh(a) + math.acosh(1.0 + a) + math.atanh(0.5 * a) + math.exp2(a) + np.square(a) \
        + np.reciprocal(a) + np.arcsinh(a) + np.arccosh(2.0 + a) + np.arctanh(0.25 * a) + np.exp2(-a)
    return s * t + math.gamma(3.5) * a + math.lgamma(2.5)


def driver_gamma_active(x, a):
    return np.sum(x) * math.lgamma(a) + math.gamma(a)


# ---------------------------------------------------------------- CUDA
@cuda.jit
def cuda_intrinsics(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        out[i] = np.square(v) + math.asinh(v) + np.arcsinh(0.5 * v) + math.acosh(1.0 + v) \
            + np.arccosh(2.0 + v) + math.atanh(0.5 * v) + np.arctanh(0.25 * v) + math.exp2(v) \
            + np.exp2(-v) + np.reciprocal(v) + math.gamma(3.5) * v


def cuda_intrinsics_derivative(v):
    """d out[i] / d x[i] of :func:`cuda_intrinsics`, written by hand (A&S 4.6.39-41)."""
    return (2 * v + 1 / np.sqrt(v * v + 1) + 0.5 / np.sqrt(0.25 * v * v + 1) + 1 / np.sqrt((1 + v) ** 2 - 1)
            + 1 / np.sqrt((2 + v) ** 2 - 1) + 0.5 / (1 - 0.25 * v * v) + 0.25 / (1 - v * v / 16)
            + np.log(2) * 2 ** v - np.log(2) * 2 ** -v - 1 / (v * v) + math.gamma(3.5))

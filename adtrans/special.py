"""Special functions that derivative templates call (ground floor: imports nothing of adtrans).

``special.histogram_counts`` is the counts of ``np.histogram`` (a constant the array lowering
keeps as a call). ``special.digamma`` is the derivative of ``math.lgamma`` (and ``math.gamma``'s is
``gamma(x) * digamma(x)``); Numba has no digamma, so this one is written here.  Generated
CPU kernels and tangents import this module as ``special``; drivers call the array version
(:func:`digamma_array`).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

# A&S 6.3.18: psi(x) ~ ln x - 1/(2x) - sum_n B_2n / (2n x^2n); the B_2n / (2n) for n = 1..6
_B1, _B2, _B3, _B4, _B5, _B6 = (1.0 / 12.0, -1.0 / 120.0, 1.0 / 252.0, -1.0 / 240.0, 1.0 / 132.0,
                                -691.0 / 32760.0)


@njit(cache=True)
def digamma(x):
    """psi(x) = d ln Gamma(x) / dx for a float ``x``.

    Negative ``x``: the reflection psi(x) = psi(1 - x) - pi / tan(pi x) (A&S 6.3.7); poles (0,
    -1, -2, ...) give NaN.  Then the recurrence psi(x) = psi(x + 1) - 1 / x (A&S 6.3.5) up to
    x >= 10 and the asymptotic series A&S 6.3.18 to the x^-12 term (truncation below 1e-15
    relative there)."""
    if x != x:
        return x
    shift = 0.0
    if x <= 0.0:
        if x == math.floor(x):
            return math.nan
        shift = -math.pi / math.tan(math.pi * x)
        x = 1.0 - x
    acc = 0.0
    while x < 10.0:
        acc -= 1.0 / x
        x += 1.0
    r = 1.0 / (x * x)
    series = r * (_B1 + r * (_B2 + r * (_B3 + r * (_B4 + r * (_B5 + r * _B6)))))
    return shift + acc + math.log(x) - 0.5 / x - series


def digamma_array(x):
    """:func:`digamma` element-wise, for NumPy arrays and numbers (drivers)."""
    a = np.asarray(x, dtype=np.float64)
    out = np.empty(a.shape)
    flat, res = a.ravel(), out.ravel()
    for k in range(flat.size):
        res[k] = digamma(flat[k])
    return out if out.ndim else float(out)


@njit(cache=True)
def histogram_counts(a, bins=10, range=None):
    """The counts of ``np.histogram(a, bins, range)``, as Numba computes them: a constant of the
    array lowering (the edges are differentiated there, ``np.linspace`` of the range); generated
    kernels call it where the primal reads ``np.histogram(...)[0]``."""
    return np.histogram(a, bins, range)[0]

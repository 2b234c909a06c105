"""Kernels as public Numba code writes them (issue 13, sixth round: tests/test_newuser6.py): a yield
found by bisection (refused: its value reaches the inputs only through comparisons), the same yield
by Newton steps, counts and table lookups under comparisons (zero gradients, not refused), and
Longstaff-Schwartz style reads ``S[itm, t]`` of a boolean mask and a time index."""
import numpy as np
from numba import njit


@njit
def bisection_ytm(price, coupons, tol=1e-12):
    """Yield to maturity by bisection: ``lo``/``hi`` are chosen by ``pv > price``, never computed from it."""
    lo, hi = 0.0, 1.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        pv = 0.0
        for k in range(coupons.shape[0]):
            pv += coupons[k] / (1 + mid) ** (k + 1)
        if pv > price:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit
def bisection_fixed_steps(target, a):
    """The same search with a fixed number of halvings (a for loop): refused too."""
    lo, hi = 0.0, 4.0
    for it in range(60):
        mid = 0.5 * (lo + hi)
        if a * mid ** 3 + mid < target:
            lo = mid
        else:
            hi = mid
    return mid


@njit
def newton_ytm(price, coupons, y0=0.05, tol=1e-13):
    """The yield by Newton steps on the active values: differentiable, the refusal's hint."""
    y = y0
    for _ in range(100):
        pv = 0.0
        dpv = 0.0
        for k in range(coupons.shape[0]):
            pv += coupons[k] / (1 + y) ** (k + 1)
            dpv -= (k + 1) * coupons[k] / (1 + y) ** (k + 2)
        step = (pv - price) / dpv
        y -= step
        if abs(step) < tol:
            break
    return y


@njit
def exceedance_fraction(x, c):
    """A count under a comparison of active values: piecewise constant, its zero gradient is right."""
    n = 0.0
    for v in x:
        if v > c:
            n = n + 1.0
    return n / x.shape[0]


@njit
def regime_level(x, levels):
    """A table lookup chosen by a comparison (no value fed back): zero gradient in ``x``, not refused."""
    total = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0.0:
            lv = levels[0]
        else:
            lv = levels[1]
        total += lv
    return total


@njit
def lsm_continuation(S, K=1.1, r=0.06):
    """Longstaff-Schwartz's backward sweep with the in-the-money paths read as ``S[itm, t]`` and a
    fixed quadratic continuation value (the regression itself is a LAPACK call in a loop, refused)."""
    npaths, nt = S.shape
    payoff = np.maximum(K - S[:, -1], 0.0)
    value = 0.0
    for t in range(nt - 2, 0, -1):
        itm = K - S[:, t] > 0
        x = S[itm, t]
        y = payoff[itm] * np.exp(-r * (nt - 1 - t))
        cont = 0.2 + 0.5 * (K - x) + 0.3 * (K - x) ** 2
        value += np.sum((y - cont) ** 2) / npaths
    return value + np.mean(payoff)


@njit
def discounted_itm_cash(S, K=1.1):
    """``cash`` rebound in the loop and read through a mask whose count changes with ``t``."""
    npaths, nt = S.shape
    cash = np.maximum(K - S[:, -1], 0.0)
    value = 0.0
    for t in range(nt - 2, 0, -1):
        cash = cash * 0.9
        itm = K - S[:, t] > 0
        y = cash[itm]
        value += np.sum(y ** 2)
    return value


@njit
def row_gather(X, idx, i=1):
    """``X[i, idx]``: an integer before an integer array, and ``X[idx, 1:]`` a slice after it."""
    a = X[i, idx]
    b = X[idx, 1:]
    return np.sum(a ** 2) + np.sum(np.sin(b))

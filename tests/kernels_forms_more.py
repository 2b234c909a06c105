"""More Python forms in kernels: inner functions (closures, named lambdas), np.nonzero/argwhere
gathers, np.nanvar/nanstd; and drivers that collect kernel results in lists."""
import math

import numpy as np
from numba import njit, prange


@njit
def closure_scalar(x, a):
    def g(t):
        return a * t * t
    s = 0.0
    for i in range(x.size):
        s += g(x[i])
    return s


@njit
def closure_reads_array(x, w):
    def term(i):
        return w[i] * math.sin(x[i]) * x[i]
    s = 0.0
    for i in range(x.size):
        s += term(i)
    return s


@njit
def named_lambda(x, w):
    sq = lambda t: t * t
    mix = lambda t, u: t * u + w[0]
    s = 0.0
    for i in range(x.size):
        s += sq(x[i]) + mix(x[i], w[i])
    return s


@njit
def closure_writes_output(x, out):
    def put(i, v):
        out[i] = v * v
    for i in range(x.size):
        put(i, x[i] + 1.0)


@njit
def closure_calls_closure(x, a):
    def h(t):
        return a * t
    def g(t, p=2.0):
        return h(t) * t ** p
    s = 0.0
    for i in range(x.size):
        s += g(x[i]) + g(x[i], 3.0)
    return s


@njit
def closure_late_binding(x, a):
    c = a
    def g(t):
        return c * t
    s = 0.0
    for i in range(x.size):
        c = c * 1.5            # g reads c as it is when called
        s += g(x[i])
    return s


@njit
def closure_with_branch(x, a):
    def f(t):
        if t > 0.6:
            return math.exp(a * t)
        return t * t
    s = 0.0
    for v in x:
        s += f(v)
    return s


@njit
def closure_two_results(x):
    def both(t):
        return t * t, math.exp(t)
    s = 0.0
    for i in range(x.size):
        p, q = both(x[i])
        s += p * q
    return s


@njit
def closure_of_arrays(x):
    def sq(v):
        return v * v
    return np.sum(sq(x) * x)


@njit(parallel=True)
def closure_in_prange(x, y):
    def g(i):
        return x[i] * y[i] + np.sin(x[i])
    out = np.zeros(x.size)
    for i in prange(x.size):
        out[i] = g(i)
    return np.sum(out * out)


@njit
def closure_escapes(x):
    def g(t):
        return t * 2.0
    h = g
    return h(x[0])


@njit
def nonzero_gather(x, m):
    idx = np.nonzero(m)[0]
    (jdx,) = np.nonzero(m > 1)
    return np.sum(x[idx] ** 2) + np.sum(np.exp(x[jdx]))


@njit
def nonzero_of_comparison(x):
    idx, = x.nonzero()
    big = np.nonzero(x > 0.6)[0]
    return np.sum(np.sin(x[idx])) + np.sum(x[big] * x[big])


@njit
def argwhere_gather(A, m):
    idx = np.argwhere(m > 0.5)
    s = 0.0
    for k in range(idx.shape[0]):
        s += A[idx[k, 0], idx[k, 1]] ** 3
    return s


@njit
def nan_spread(x, m):
    y = np.where(m, np.nan, x)
    return np.nanstd(y) + np.nanvar(y) * 2.0


@njit
def nan_spread_all(x):
    y = np.where(x > -1.0, np.nan, x)
    return np.nanstd(y)



@njit
def flat_of_views(A):
    s = 0.0
    for v in A[1:].flat:
        s += v * v
    for v in A[:, 1:].flat:
        s += math.sin(v)
    for i in range(A.shape[0]):
        for v in A[i, ::2].flat:
            s += v * i
    return s


@njit
def raise_with_values(x, n):
    s = 0.0
    for i in range(x.size):
        if x[i] < 0.0:
            raise ValueError("negative entry at", i, x[i])
        s += math.sqrt(x[i]) * n
    if n < 0:
        raise ValueError("negative count", n)
    return s

# ------------------------------------------------------------------ drivers collecting results in lists
@njit
def energy(x, k):
    s = 0.0
    for i in range(x.size):
        s += (k + 1.0) * x[i] * x[i] + math.sin(k * x[i])
    return s


@njit
def advance(u, c):
    out = np.empty_like(u)
    for i in range(u.size):
        out[i] = u[i] + c * math.sin(u[i])
    return out


def driver_sum_of_list(x, n):
    out = []
    for k in range(n):
        out.append(energy(x, k))
    return sum(out)


def driver_array_of_list(x, c, n):
    out = []
    for k in range(n):
        out.append(c * energy(x, k))
    out.append(2.0)                  # a constant element
    return np.sum(np.array(out) ** 2)


def driver_last_and_slices(x, n):
    out = []
    for k in range(n):
        out.append(energy(x, k))
    tail = out[1:]
    first = out[0]
    return out[-1] * first + sum(out[1:]) + tail[0] * sum(tail)


def driver_extremes(x, n):
    out = []
    for k in range(n):
        out.append(energy(x, k) * (-1.0) ** k)
    return max(out) - 2.0 * min(out)


def driver_states(u, c, n):
    states = []
    for k in range(n):
        u = advance(u, c)
        states.append(u.copy())
    s = 0.0
    for st in states:
        s += energy(st, 1.0)
    return s + float(np.sum(np.array(states)[-1] ** 3))


def driver_list_of_arrays_rebound(u, c, n):
    states = []
    for k in range(n):
        states.append(u)             # the array itself: u is rebound, the element stays
        u = advance(u, c)
    later = states[1:]
    s = 0.0
    for st in later:
        s += energy(st, 2.0)
    return s + float(np.sum(states[0] * u))


def driver_same_array_twice(u, c):
    parts = []
    v = advance(u, c)
    parts.append(v)
    parts.append(v)
    return float(np.sum(np.array(parts) * np.array(parts)))


def driver_loop_over_array(x):
    s = 0.0
    for v in x:                      # <- refused
        s += energy(v * x, 1.0)
    return s

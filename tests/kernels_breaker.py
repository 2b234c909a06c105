"""Adversarial kernels for the rules of the previous session (tests/test_breaker.py)."""
import numpy as np
from numba import njit, prange


# --- 1. stage arrays whose shadows get a first write (transform/firstwrite.py) ----------------------

@njit
def fw_ode(x, s, y):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        k[0] = x[0]
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]
        for i in range(n):
            y[i] += 0.1 * k[i]


@njit
def fw_ode_k0_once(x, s, y):
    n = x.shape[0]
    k = np.empty(n)
    k[0] = x[0]
    for step in range(s):
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]
        for i in range(n):
            y[i] += 0.1 * k[i]


@njit
def fw_ode_twice(x, s, y):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        k[0] = x[0]
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]
        for i in range(n):
            y[i] += 0.1 * k[i] + k[i] * k[i]
        for i in range(n):
            y[i] += 0.2 * k[i]


@njit
def fw_ode_m(x, s, y, m):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        k[0] = x[0]
        for i in range(1, m):
            k[i] = x[i] * y[i - 1]
        for i in range(m):
            y[i] += 0.1 * k[i]


@njit
def fw_ode_stale(x, s, y):
    n = x.shape[0]
    k = np.zeros(n)
    for step in range(s):
        for i in range(n):
            y[i] += 0.1 * k[i]
        k[0] = x[0] * y[0]
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]


@njit
def fw_skip(x, s):
    n = x.shape[0]
    k = np.zeros(n)
    for step in range(s):
        for i in range(n):
            if x[i] > 0.0:
                k[i] = x[i] * x[i]
        for i in range(1, n):
            x[i] += 0.1 * k[i - 1]
        x[0] += 0.1 * k[0]
    return x.sum()


# --- 2. prange scatters checked one-to-one at run time (rules/injective.py) -------------------------

@njit(parallel=True)
def inj_scatter(v, idx, out):
    for c in prange(idx.shape[0]):
        k = idx[c]
        out[k] += v[c] * v[c]


@njit(parallel=True)
def inj_inner(v, idx, out):
    for c in prange(idx.shape[0]):
        for q in range(idx.shape[1]):
            out[idx[c, q]] += v[c] * v[c] * (q + 1.0)


# --- 3. random draws (normalise/draws.py) -----------------------------------------------------------

@njit
def dr_branch(x, n):
    np.random.seed(3)
    s = 0.0
    for i in range(n):
        if x[i % x.shape[0]] > 0.0:
            s += x[i % x.shape[0]] * np.random.normal(0.0, 1.0)
        else:
            s += np.random.uniform(x[0], 2.0)
    return s


@njit
def dr_nested(x, n):
    np.random.seed(5)
    s = 0.0
    for i in range(n):
        for j in range(i):
            s += x[j % x.shape[0]] * np.random.standard_normal()
    return s


@njit
def dr_noseed(x, sig):
    z = np.random.normal(1.0, sig, x.shape[0])
    return np.sum(x * z)


# --- 4. inner functions and lambdas (normalise/closures.py) -----------------------------------------

@njit
def cl_late(x, a):
    c = a
    f = lambda t: c * t
    c = a * a
    return f(x[0]) + x[1]


@njit
def cl_late_loop(x, a):
    c = a
    def f(t):
        return c * t * t
    s = 0.0
    for i in range(x.shape[0]):
        c = x[i]
        s += f(a)
    return s


@njit
def cl_array(x, a):
    def g(i):
        return x[i] * a
    s = g(0)
    x[0] = x[0] * 5.0
    s += g(0)
    return s


# --- 5. np.ascontiguousarray: the array itself where Numba returns it, else a copy ------------------

@njit
def al_contig_write(x):
    y = np.ascontiguousarray(x)
    y[0] = y[0] * 3.0
    return x[0] * x[1] + y[0]


@njit
def al_contig_view(a):
    y = a.T
    z = np.ascontiguousarray(y)
    z[0, 0] = 7.0 * z[0, 0] * z[0, 0]
    return y[0, 0] + z[0, 0] + z[1, 0]


@njit
def al_contig_slice(x, c):
    y = np.ascontiguousarray(x[1:])
    y *= c
    return np.sum(x * x) + y[0]


@njit
def al_contig_row(a, c):
    y = np.ascontiguousarray(a[1])
    y *= c
    return np.sum(a * a) + y[0]


@njit
def al_contig_col(a, c):
    y = np.ascontiguousarray(a[:, 1])
    y *= c
    return np.sum(a * a) + y[0]


@njit
def al_contig_view_read(a):
    z = np.ascontiguousarray(a.T)
    return np.sum(z * z) + 3.0 * z[0, -1]


# --- index arrays whose length changes per iteration of a taped loop (found by the gaps13 helper) --

@njit
def varying_positions(x, m):
    s = 0.0
    for t in range(3):
        idx = np.flatnonzero(m > 0.4 + 0.2 * t)     # its length changes per iteration
        s += np.sum(x[idx]) * t
        x[idx] *= 0.9
    return s


@njit
def varying_mask(x, m):
    s = 0.0
    for t in range(3):
        mask = m > 0.4 + 0.2 * t
        s += np.sum(x[mask]) * t
        x[mask] *= 0.9
    return s


@njit
def varying_mask_loops(x, m):
    s = 0.0
    for t in range(3):
        for i in range(x.size):
            if m[i] > 0.4 + 0.2 * t:
                s += x[i] * t
                x[i] *= 0.9
    return s

"""Adversarial kernels for the rules of the previous session (tests/test_breaker.py)."""
import math

import numba
import numpy as np
from numba import njit, prange


# --- 1. first accumulation as an assignment (transform/firstwrite.py) -------------------------

@njit
def fw_rk(x, s):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        for i in range(n):
            k[i] = x[i] * x[i]
        for i in range(1, n):
            x[i] += 0.1 * k[i - 1]
        x[0] += 0.1 * k[0]
    return x.sum()


@njit
def fw_partial_fill(x, s):
    n = x.shape[0]
    k = np.zeros(n)
    for step in range(s):
        for i in range(1, n):
            k[i] = x[i] * x[i]
        for i in range(n):
            x[i] += 0.1 * k[i]
    return x.sum()


@njit
def fw_reversed(x, s):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        for i in range(n - 1, -1, -1):
            k[i] = x[i] * x[i]
        for i in range(1, n):
            x[i] += 0.1 * k[i - 1]
        x[0] += 0.1 * k[0]
    return x.sum()


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


@njit
def fw_two_reads(x, s):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        for i in range(n):
            k[i] = math.sin(x[i])
        for i in range(1, n):
            x[i] += 0.1 * k[i - 1]
        x[0] += 0.1 * k[0]
        for i in range(n):
            x[i] += 0.05 * k[i] * k[i]
    return x.sum()


@njit
def fw_short_loop(x, m, s):
    n = x.shape[0]
    k = np.empty(n)
    for step in range(s):
        for i in range(m):
            k[i] = x[i] * x[i]
        for i in range(1, m):
            x[i] += 0.1 * k[i - 1]
        x[0] += 0.1 * k[0]
    return x.sum()


@njit
def fw_stage2(x, s):
    n = x.shape[0]
    k1 = np.empty(n)
    k2 = np.empty(n)
    for step in range(s):
        for i in range(n):
            k1[i] = x[i] * x[i]
        for i in range(n):
            k2[i] = k1[i] * x[i] + k1[(i + 1) % n]
        for i in range(n):
            x[i] += 0.01 * (k1[i] + k2[i])
    return x.sum()


@njit
def fw_nested(x, s):
    n, m = x.shape
    k = np.empty(n)
    for step in range(s):
        for i in range(n):
            for j in range(m):
                k[i] = x[i, j] * x[i, j]
        for i in range(1, n):
            for j in range(m):
                x[i, j] += 0.1 * k[i - 1]
        for j in range(m):
            x[0, j] += 0.1 * k[0]
    return x.sum()


# --- 2. prange scatters: run-time one-to-one check (rules/injective.py) ------------------------

@njit(parallel=True)
def inj_scatter(v, idx, out):
    for c in prange(idx.shape[0]):
        k = idx[c]
        out[k] += v[c] * v[c]


@njit(parallel=True)
def inj_two_stmts(v, idx, jdx, out):
    for c in prange(idx.shape[0]):
        out[idx[c]] += v[c] * v[c]
        out[jdx[c]] += 2.0 * v[c]


@njit(parallel=True)
def inj_computed(v, idx, out):
    n = out.shape[0]
    for c in prange(idx.shape[0]):
        k = (idx[c] + c) % n
        out[k] += v[c] * v[c]


@njit(parallel=True)
def inj_read(v, idx, out):
    for c in prange(idx.shape[0]):
        k = idx[c]
        out[k] = out[k] * v[c]


@njit(parallel=True)
def inj_gather_use(v, idx, out):
    for c in prange(idx.shape[0]):
        k = idx[c]
        out[k] += v[k] * v[c]


@njit(parallel=True)
def inj_2d(v, idx, jdx, out):
    for c in prange(idx.shape[0]):
        for q in range(2):
            out[idx[c], jdx[c] + q] += v[c] * (q + 1.0)


@njit(parallel=True)
def inj_inner(v, idx, out):
    for c in prange(idx.shape[0]):
        for q in range(idx.shape[1]):
            out[idx[c, q]] += v[c] * v[c] * (q + 1.0)


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
def fw_ode_outer(x, s, y):
    n = x.shape[0]
    k = np.empty(n)
    for outer in range(2):
        for step in range(s):
            k[0] = x[0]
            for i in range(1, n):
                k[i] = x[i] * y[i - 1]
            for i in range(n):
                y[i] += 0.1 * k[i]


# --- 5. np.asarray / np.ascontiguousarray aliases, x = np.copy(x) ---------------------------

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
def al_asarray_write(x):
    y = np.asarray(x)
    y[0] = y[0] * 3.0
    return x[0] * x[1]


@njit
def al_copy_rebind(x):
    s = 0.0
    for it in range(3):
        x = np.copy(x)
        x[0] = x[0] * x[1] + 1.0
        s += x[0]
    return s


@njit
def al_copy_rebind_param(x, y):
    y[0] = x[0]
    x = np.copy(x)
    x[0] = 2.0 * x[0] * x[0]
    y[1] = x[0]
    return x[0] + y[0]


# --- 3. random draws -----------------------------------------------------------------------

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
def dr_tuple(x, sig):
    np.random.seed(2)
    z = np.random.normal(0.0, sig, (x.shape[0], 2))
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * z[i, 0] + x[i] * x[i] * z[i, 1]
    return s


@njit
def dr_noseed(x, sig):
    z = np.random.normal(1.0, sig, x.shape[0])
    return np.sum(x * z)


@njit
def dr_seed_mid(x, n):
    s = 0.0
    for i in range(n):
        np.random.seed(i)
        s += x[i % x.shape[0]] * np.random.random()
    return s


@njit
def _dr_helper(a):
    return a * np.random.standard_normal()


@njit
def dr_in_helper(x):
    np.random.seed(1)
    return _dr_helper(x[0])


@njit
def dr_scale_arr(x, sig):
    np.random.seed(4)
    s = 0.0
    for i in range(x.shape[0]):
        s += np.random.normal(x[i], sig * x[i]) ** 2
    return s


# --- 4. closures -----------------------------------------------------------------------------

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


@njit
def cl_default(x, a):
    def h(t, k=2.0):
        return k * t * a
    return h(x[0]) + h(x[1], 3.0)


@njit
def cl_nested(x, a):
    def f(t):
        return a * t
    def g(t):
        return f(t) * f(t)
    return g(x[0]) + g(x[1])


@njit
def cl_shadow_param(x, a):
    def f(a):
        return a * a
    return f(x[0]) * a

"""Kernels exercising each adjoint rule (imported by the tests; module-level so Numba caches them)."""
import math

import numba
import numpy as np
from numba import njit, prange


@njit(cache=True)
def straight_line(x, a, b):
    t = a * x[0] + b / x[1] - x[2] ** 3
    u = math.exp(t * 0.1) + math.log(x[0]) + math.sqrt(x[1]) - math.sin(a) * math.cos(b)
    v = math.tanh(u) + math.atan2(x[0], x[1]) + math.hypot(a, b) + abs(x[2] - 2.0)
    w = min(t, u) + max(v, a) + math.pow(x[0], 2.5) + math.log1p(b * b) + np.cbrt(x[1]) + math.tan(0.3 * a)
    return t * u + v * w - (x[0] % 0.7) + math.floor(a)


@njit(cache=True)
def nested_triangular(x, n):
    s = 0.0
    for i in range(n):
        for j in range(i):
            s += x[i] * x[j] * math.sin(x[i] - x[j])
    for i in range(n - 1, -1, -2):
        s -= x[i] ** 2
    return s


@njit(cache=True)
def overwrite_scalars(x, n):
    t = 1.0
    for i in range(n):
        t = t * x[i] + math.sin(t)
        if t > 2.0:
            t = t / 2.0
    return t


@njit(cache=True)
def time_loop(u, c, steps):
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit(cache=True)
def newton_sqrt(a, x):
    y = x
    it = 0
    while abs(y * y - a) > 1e-12 and it < 50:
        y = 0.5 * (y + a / y)
        it += 1
    return y


@njit(cache=True)
def early_exit(x, n):
    s = 0.0
    for i in range(n):
        if x[i] < 0.0:
            continue
        s += math.sqrt(x[i]) * s + x[i]
        if s > 5.0:
            break
    if s > 4.0:
        return s * 2.0
    return s


@njit(cache=True)
def _sq_dist(p, q):
    d = p - q
    return d * d


@njit(cache=True)
def _scatter(out, i, v):
    out[i] += v * v
    out[i + 1] -= 0.5 * v


@njit(cache=True)
def helpers(x, out):
    for i in range(x.shape[0] - 1):
        r = _sq_dist(x[i], x[i + 1])
        _scatter(out, i, r)


@njit(cache=True)
def inplace_updates(a, b):
    for i in range(a.shape[0]):
        a[i] *= b[i]
        a[i] += math.sin(b[i])
        b[i] = a[i] * a[i]
        a[i] -= b[i] * 0.5
    return a[0] + b[-1]


@njit(cache=True)
def int_from_float(x, table):
    s = 0.0
    for i in range(x.shape[0]):
        k = int(x[i] * 3.0)
        s += table[k % table.shape[0]] * x[i]
    return s


@njit(cache=True)
def dead_acos(x):
    unused = math.acos(2.0 * x[0])
    return x[0] * x[1]


@njit(cache=True)
def local_array(x):
    n = x.shape[0]
    y = np.zeros(n)
    for i in range(n):
        y[i] = x[i] * x[i]
    s = 0.0
    for i in range(n):
        s += y[i] * y[(i + 1) % n]
    return s


@njit(cache=True)
def matrix_2d(A, v, out):
    for i in range(A.shape[0]):
        acc = 0.0
        for j in range(A.shape[1]):
            acc += A[i, j] * v[j]
        out[i] = math.tanh(acc)


@njit(cache=True)
def branchy(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        y = x[i] if x[i] > thresh else -x[i] * thresh
        s += y * y if y > 0.1 and i % 2 == 0 else y
    return s


@njit(cache=True)
def tuple_swap(x):
    a, b = x[0], x[1]
    for k in range(3):
        a, b = b, a * b + 0.1
    return a - b


@njit(cache=True)
def float32_kernel(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i] * x[i] + np.float32(1.0)) * x[i]


@njit(cache=True)
def strided_recurrence(x):
    t = 0.3
    for i in range(x.shape[0] - 1, 0, -2):
        t = math.sin(t * x[i]) + x[i - 1]
    for i in range(1, x.shape[0], 3):
        t = t * x[i] + 0.1
    return t


@njit(parallel=True, cache=True)
def prange_with_while(x, out):
    for i in numba.prange(x.shape[0]):
        y = x[i]
        k = 0
        while y > 0.1 and k < 20:
            y = y * 0.5 + 0.01 * math.sin(y)
            k += 1
        out[i] = y * y


@njit(cache=True)
def early_return_in_loop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s = s * 0.9 + x[i] * x[i]
        if s > 2.0:
            return s * x[i]
    return -s


@njit(parallel=True, cache=True)
def repeated_evaluation(x, reps, out):
    """Each element evaluates its model reps[i] times and keeps the last result
    (LULESH's EOS loop): the last-iteration strategy."""
    for i in numba.prange(x.shape[0]):
        a = 0.0
        b = 0.0
        for j in range(reps[i]):
            t = math.sin(x[i]) * x[i]
            if t > 0.1:
                a = t * t
            else:
                a = 2.0 * t
            b = math.exp(0.1 * t)
        out[i] = a + b * x[i]


@njit(cache=True)
def repeated_evaluation_strided(x, n):
    """The last index of a stepped range (and the loop index inside the body)."""
    s = 0.0
    for j in range(1, n, 3):
        s = x[0] * j + math.cos(x[1] * j)
    return s * x[0]


@njit(cache=True)
def sometimes_reassigned(x, reps):
    """`a` keeps the value of the last even iteration: not a last-iteration loop."""
    s = 0.0
    for i in range(x.shape[0]):
        a = 0.0
        for j in range(reps[i]):
            if j % 2 == 0:
                a = x[i] * (j + 1.0)
        s += a * x[i]
    return s


@njit(cache=True)
def running_minimum(ss, arealg, vdov, dt0):
    """LULESH's Courant limit: a running minimum over elements (carried-scalar strategy)."""
    dt_tmp = dt0
    chosen = -1
    for i in range(ss.shape[0]):
        dtf = ss[i] * ss[i]
        if vdov[i] < 0.0:
            dtf = dtf + 64.0 * arealg[i] * arealg[i] * vdov[i] * vdov[i]
        dtf = arealg[i] / math.sqrt(dtf)
        if vdov[i] != 0.0:
            if dtf < dt_tmp:
                dt_tmp = dtf
                chosen = i
    if chosen != -1:
        return dt_tmp
    return dt0


@njit(cache=True)
def carried_with_reads(x, out):
    """A recurrence whose carried values are read and updated with += in the same iteration."""
    s = 0.5
    k = 0
    for i in range(x.shape[0]):
        s += x[i] * s
        t = math.sin(s) + k
        if t > 0.3:
            k += 1
        out[i] = t * x[i]
        s = s * 0.9
    return s + k


@njit(cache=True)
def assigned_only_inside_last(x, a, n):
    """`t` exists only inside the loop and is read after it (last-iteration loop)."""
    for j in range(n):
        t = x[j] * a
    return t


@njit(cache=True)
def assigned_only_inside_carried(x, a, n):
    """`u` exists only inside a carried-scalar loop and is read after it."""
    s = x[0]
    for j in range(n):
        s = s * a + math.sin(s) * x[j]
        u = s * x[j]
    return u + s


@njit(cache=True)
def last_inside_carried(x, a, n):
    """A last-iteration inner loop under a carried outer loop."""
    acc = 0.0
    for i in range(n):
        for j in range(3):
            t = x[j] * x[i] * a
        acc = acc * 0.5 + t * t
    return acc


@njit(cache=True)
def array_alias(x, a):
    """`y = x` binds a second name to the same array (its shadow is the same too)."""
    y = x
    y[0] = a * y[1]
    return a * y[1] + x[0]


@njit(cache=True)
def _branchy(u, v):
    if u > v:
        return u * v
    return math.sin(u) + 0.5 * v


@njit(cache=True)
def after_loop_helper_and_update(x, a, n):
    """Statements after a fusable loop: an inlined helper with a branch, then an element
    read after an in-place update (neither may be hoisted above what it depends on)."""
    s = 0.0
    for i in range(n):
        t = a * 0.5
    s += 0.5 + _branchy(a, 0.5)
    x[0] += 0.5 * math.tanh(a)
    x[0] += 0.5 * math.tanh(0.5 + x[0])
    return s + x[0] * a


@njit
def negative_constant_base(x, a):
    # found by tests/test_random_programs.py: `(-0.75) ** 2` came out as `-0.75 ** 2` (= -0.5625),
    # so the adjoint took the other branch and gave a gradient for the branch never run
    s = 0.0
    if (-0.75) ** 2 > 0.0:
        s += x[0] * (-2.0) ** 3 + a * x[1]
    else:
        s += a + x[0]
    return s + (-1.5) ** 2 * x[2]

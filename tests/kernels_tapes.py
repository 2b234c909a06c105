"""Kernels for tests/test_tapes.py: scratch arrays of symbolic size, loop-invariant values,
values recomputed or taped by cost, tapes reused across calls."""
import math

import numpy as np
from numba import njit


@njit
def scratch_symbolic(x, mu, w):
    """sum_p log(sum_j exp(w_j (x[p, j] - mu[j])^2)): per-point scratch arrays of extent d."""
    n = x.shape[0]
    d = x.shape[1]
    diff = np.empty(d)
    sq = np.empty(d)
    total = 0.0
    for p in range(n):
        for j in range(d):
            diff[j] = x[p, j] - mu[j]
        for j in range(d):
            sq[j] = w[j] * diff[j] * diff[j]
        s = 0.0
        for j in range(d):
            s += math.exp(sq[j])
        total += math.log(s)
    return total


@njit
def scratch_whole_array(x, mu, w):
    """The same objective written with whole-array NumPy inside the loop over points."""
    n = x.shape[0]
    total = 0.0
    for p in range(n):
        diff = x[p] - mu
        total += math.log(np.sum(np.exp(w * diff * diff)))
    return total


@njit
def scratch_read_first(x, w):
    """Not scratch: each iteration reads buf[0] before overwriting buf (a value carried through
    the array from the previous point)."""
    n = x.shape[0]
    d = x.shape[1]
    buf = np.empty(d)
    for j in range(d):
        buf[j] = 1.0
    total = 0.0
    for p in range(n):
        total += buf[0] * x[p, 0]
        for j in range(d):
            buf[j] = math.sin(x[p, j] * w[j])
    return total


@njit
def scratch_read_after(x, w):
    """Not scratch: buf is read after the loop (the last point's values escape)."""
    n = x.shape[0]
    d = x.shape[1]
    buf = np.empty(d)
    total = 0.0
    for p in range(n):
        for j in range(d):
            buf[j] = x[p, j] * w[j]
        for j in range(d):
            total += buf[j] * buf[j]
    for j in range(d):
        total += 3.0 * buf[j]
    return total


@njit
def _tail_energy(a):
    return np.sum(a[1:] * a[1:])


@njit
def scratch_views_read_after(x, w):
    """buf is read after the loop that rewrites it only through views: one bound before the
    loop, a reversed one, a slice in a whole-array sum and a view passed to a helper (views are
    subscripts of buf once normalised, so analyse/loops.py sees buf live after the loop)."""
    n = x.shape[0]
    d = x.shape[1]
    buf = np.empty(d)
    tail = buf[1:]
    total = 0.0
    for p in range(n):
        for j in range(d):
            buf[j] = math.sin(x[p, j] * w[j])
        for j in range(d):
            total += buf[j] * x[p, j]
    rev = buf[::-1]
    for j in range(d - 1):
        total += 3.0 * tail[j] * tail[j]
    return total + 2.0 * rev[0] + np.sum(buf[:2] * w[:2]) + _tail_energy(rev)


@njit
def scratch_extent_changes(x, w, m):
    """Not scratch: the allocation's extent name is reassigned in the loop."""
    n = x.shape[0]
    buf = np.zeros(m)
    total = 0.0
    for p in range(n):
        for j in range(m):
            total += buf[j] * x[p, 0]
        for j in range(m):
            buf[j] = x[p, j] * w[j]
        m = m - 1 + 1
    return total


@njit
def costly_in_recomputed_loop(x):
    """log-sum-exp: the exp of the second loop is taped, not computed again in reverse."""
    n = x.shape[0]
    a = x[0]
    for i in range(1, n):
        a = max(a, x[i])
    s = 0.0
    for i in range(n):
        s += math.exp(x[i] - a) * math.sin(x[i])
    return math.log(s * s + 1.0) + a


@njit
def costly_whole_array(x):
    """The same objective with whole-array NumPy."""
    a = np.max(x)
    s = np.sum(np.exp(x - a) * np.sin(x))
    return math.log(s * s + 1.0) + a


@njit
def costly_conditional(x, t):
    """A costly value assigned under a branch of a recomputed loop's body: not taped (only
    direct statements of the body are), and still right."""
    s = 0.0
    for i in range(x.shape[0]):
        v = x[i] * t
        if v > 0.2:
            v = math.exp(v)
        s += v * v
    return s


@njit
def invariant_in_taped_loop(u, w, steps):
    """A time loop (taped) whose inner loop reads u[i - 1] after writing u: taped too; the
    inner loop's c = cos(0.5 w[s]) is loop-invariant there and saved once per step."""
    n = u.shape[0]
    total = 0.0
    for s in range(steps):
        for i in range(1, n):
            c = math.cos(w[s] * 0.5)
            u[i] = u[i] + c * math.sin(u[i - 1])
        for i in range(n):
            total += u[i] * u[i]
    return total


@njit
def cheap_recomputed_in_taped_loop(x, l, n):
    """Triangular loop with a running counter (GMM's L * x): the load l[k] and the bound
    i + 1 are recomputed in the reverse sweep instead of taped."""
    d = x.shape[0]
    y = np.zeros(d)
    for j in range(d):
        y[j] = x[j]
    k = 0
    for i in range(d):
        for j in range(i + 1, d):
            y[j] = y[j] + l[k] * x[i]
            k += 1
    out = 0.0
    for j in range(d):
        out += math.sin(y[j]) * n
    return out


@njit
def cheap_value_read_late(x, w):
    """t = w[0] * 2 is cheap, but read again after the loop it was computed in."""
    n = x.shape[0]
    t = 0.0
    for i in range(1, n):
        t = w[i] * 2.0
        x[i] = x[i] * math.sin(x[i - 1] + t)
    return x[n - 1] + t * t


@njit
def two_snapshots(a, b, x, steps):
    """A time loop (taped) around a recomputed loop that reads two arrays the time loop then
    overwrites: both are saved on one tape per step, so they come back in reverse order."""
    acc = 0.0
    for t in range(steps):
        s = 0.0
        for k in range(a.shape[0]):
            s += math.sin(a[k]) * b[k] * b[k]
        acc = acc * 0.5 + s * s
        for k in range(a.shape[0]):
            a[k] = a[k] * 0.9 + x[k]
            b[k] = b[k] + 0.1 * a[k]
    return acc


@njit
def linear_scan(x, a):
    """y[i] = a y[i - 1] + x[i]: the reverse sweep carries d_y[i] into d_y[i - 1] and adds into d_a,
    so its iterations stay in descending order."""
    n = x.shape[0]
    y = np.empty(n)
    y[0] = x[0]
    for i in range(1, n):
        y[i] = a * y[i - 1] + x[i]
    s = 0.0
    for i in range(n):
        s += math.sin(y[i])
    return s


@njit
def scaled_copy_loop(x, y, c):
    """A time loop over an explicit loop whose reverse writes each element once: ascending."""
    n = x.shape[0]
    for step in range(c):
        for i in range(n):
            y[i] = y[i] * 0.5 + math.sin(x[i])
    return y[0] + y[n - 1]


@njit
def nearest_distance(p, q):
    """sum_i min_j |q_j - p_i|^2 (k-means cost): the inner distance sum is taped, not recomputed."""
    total = 0.0
    for i in range(p.shape[0]):
        best = math.inf
        for j in range(q.shape[0]):
            dist = 0.0
            for e in range(p.shape[1]):
                dd = p[i, e] - q[j, e]
                dist += dd * dd
            best = min(best, dist)
        total += best
    return total

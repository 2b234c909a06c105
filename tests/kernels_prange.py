"""prange kernels for the parallel rule (module-level so Numba caches them)."""
import math

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True)
def neighbour_product(x):
    s = 0.0
    for i in prange(x.shape[0] - 1):
        s += x[i] * x[i + 1]
    return s


@njit(parallel=True, cache=True)
def gather(x, idx, w):
    s = 0.0
    for i in prange(idx.shape[0]):
        v = x[idx[i]]
        s += w[i] * v * v
    return s


@njit(parallel=True, cache=True)
def pairwise_energy(a, b, out):
    for i in prange(a.shape[0]):
        e = 0.0
        for j in range(b.shape[0]):
            d = a[i, 0] - b[j, 0]
            r2 = d * d + (a[i, 1] - b[j, 1]) ** 2 + 0.5
            e += 1.0 / r2 - 0.3 / math.sqrt(r2)
        out[i] = 0.5 * e


@njit(parallel=True, cache=True)
def column_update(A, B, a, c):
    for j in prange(A.shape[1]):
        for i in range(A.shape[0]):
            A[i, j] += a * B[i, j] * c


@njit(parallel=True, cache=True)
def scaled(x, c, out):
    for i in prange(x.shape[0]):
        out[i] = c * x[i] + math.sin(c) * x[i] * x[i]


@njit(parallel=True, cache=True)
def edge_energy(x, edges, k):
    s = 0.0
    for e in prange(edges.shape[0]):
        d = x[edges[e, 0]] - x[edges[e, 1]]
        s += k[e] * d * d
        if d > 0.5:
            s += 0.1 * d
    return s


@njit(parallel=True, cache=True)
def stencil_inplace(u, out):
    n = u.shape[0]
    for i in prange(1, n - 1):
        out[i] = u[i - 1] - 2.0 * u[i] + u[i + 1]
    for i in prange(n):
        u[i] = u[i] * 0.5


# Regressions found by porting LULESH (helper-2's reproducers).
@njit(parallel=True, cache=True)
def branch_local_in_else(v, a, b, out):
    for i in prange(v.shape[0]):
        if v[i] > 0:
            q = 0.0
        else:
            t1 = a[i] * b[i]
            if t1 > 0:
                t1 = 0.0
            q = t1 * a[i]
        out[i] = q


@njit(parallel=True, cache=True)
def masked_reassigned(mask, a, out):
    for i in prange(a.shape[0]):
        if mask[i] == 1:
            x = a[i] * 2.0
            if x > 1.0:
                x = x - 1.0
            else:
                x = x * x
            out[i] = x


@njit(cache=True)
def _pair(a, b):
    return a * b, a + b


@njit(cache=True)
def _forward_tuple(a, b):
    return _pair(a, b)


@njit(cache=True)
def returns_helper_tuple(x):
    s, t = _forward_tuple(x[0], x[1])
    return s * t


@njit(parallel=True, cache=True)
def conditional_inner_scalar(x, s, start, out):
    """An Active scalar read in a data-dependent inner loop that assigns conditionally
    (made Numba's reduction inference fail: "unexpected cycle in lookup()")."""
    for i in prange(out.shape[0]):
        v = 0.0
        for c in range(start[i], start[i + 1]):
            if x[c] > 0.2:
                v = x[c] * s
        out[i] = v * v + s


@njit(parallel=True, cache=True)
def local_scratch(x, w, out):
    """A fixed-size array allocated in every iteration (per-thread rows in the adjoint)."""
    for i in prange(out.shape[0]):
        buf = np.empty(4)
        for k in range(4):
            buf[k] = x[(i + k) % x.shape[0]] * w[k]
        acc = 0.0
        for k in range(4):
            acc += np.sin(buf[k]) * buf[(k + 1) % 4]
        out[i] = acc


@njit(parallel=True, cache=True)
def two_active_sum(x, a, b):
    """A prange sum named `t` with two Active scalars (Numba names its reduction copies t_1, t_2)."""
    t = 0.0
    for i in prange(x.shape[0]):
        t += math.exp(a * x[i]) * b
    return t


@njit(parallel=True, cache=True)
def nested_prange(x, out):
    """A prange inside a prange (Numba runs the inner one serially)."""
    for i in prange(out.shape[0]):
        s = 0.0
        for j in prange(x.shape[0]):
            s += x[j] * x[i]
        out[i] = s


@njit(parallel=True, cache=True)
def corner_gather(pos, elems, w, out):
    for e in prange(elems.shape[0]):
        s = 0.0
        for j in range(elems.shape[1]):
            a = elems[e, j]
            s += w[j] * pos[a, 0] * pos[a, 1] + pos[a, 1] * pos[a, 1]
        out[e] = s


@njit(parallel=True, cache=True)
def gather_checked(x, idx, w):
    s = 0.0
    for i in prange(idx.shape[0]):
        v = x[idx[i]]
        if v > 10.0:
            raise ValueError("x too large")
        s += w[i] * v * v
    return s


@njit(parallel=True, cache=True)
def node_corner_sum(start, corner_elem, corner_local, f, w, out):
    # LULESH's gather: node g sums its corners f[corner_elem[c], corner_local[c]]
    for g in prange(start.shape[0] - 1):
        s = 0.0
        for c in range(start[g], start[g + 1]):
            k = corner_elem[c]
            j = corner_local[c]
            if j >= 0:
                s += w[g] * f[k, j] * f[k, j]
        out[g] = s


@njit(parallel=True, cache=True)
def node_corner_sum_float_test(start, corner_elem, corner_local, f, w, out):
    for g in prange(start.shape[0] - 1):
        s = 0.0
        for c in range(start[g], start[g + 1]):
            if w[g] > 0.5:
                s += f[corner_elem[c], corner_local[c]] ** 2
        out[g] = s


@njit(cache=True)
def gather2(x, nodes, k):
    return x[nodes[k, 0]], x[nodes[k, 1]]


@njit(parallel=True, cache=True)
def edge_energy_two_fields(nodes, x, y, out):
    # LULESH's kinematics in small: each element reads its nodes' coordinates through an inlined
    # helper, once per field; the adjoint scatters into d_x and d_y with the same index slice
    for k in prange(nodes.shape[0]):
        x0, x1 = gather2(x, nodes, k)
        y0, y1 = gather2(y, nodes, k)
        out[k] = (x1 - x0) ** 2 + (y1 - y0) ** 2 + x0 * y1


@njit(parallel=True, cache=True)
def scaled_squares(x, dt, out):
    # dt may come as a 0-d array (np.array(0.5)): every iteration reads it as a scalar
    for i in prange(x.shape[0]):
        out[i] = dt * x[i] * x[i]

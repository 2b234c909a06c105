"""Adversarial kernels for tests/test_redteam16.py: the idioms session 16 taught adtrans (loops over
tuple/list literals, names and globals bound to literals of number tuples, parameters defaulting to
None, loops over tuple parameters, loop-filled arrays read whole in the adjoint, taped loops with
index-dependent temporaries, prange bodies reading through aliases), written to break them."""
import math

import numpy as np
from numba import njit, prange

OFFS = ((1, 0), (-1, 0), (0, 1), (0, -1))
WEIGHTS = (0.5, 0.25, 0.25)


# ------------------------------------------------------------ literals of numbers
@njit(cache=True)
def lit_shift(x):
    n = x.shape[0]
    s = 0.0
    for i in range(1, n - 1):
        for shift in (-1, 1):
            s += x[i] * x[i + shift] ** 2
    return s


@njit(cache=True)
def lit_pairs_nested(A):
    n, m = A.shape
    s = 0.0
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            for di, dj in ((1, 0), (0, 1), (-1, 0)):
                for w in (0.5, 2.0):
                    s += w * A[i, j] * A[i + di, j + dj]
    return s


@njit(cache=True)
def lit_enumerate_break(x):
    s = 0.0
    for k, c in enumerate((2.0 / 3.0, 1.0 / 6.0, 0.1, 0.05)):
        if k == 2:
            break
        s += c * np.sum(np.sin(x * (k + 1)))
    return s


@njit(cache=True)
def lit_zip_continue(x):
    s = 0.0
    for a, b in zip((0, 1, 2, 3), (1.0, -2.0, 3.0, 0.5)):
        if a == 1:
            continue
        s += b * x[a] ** 3
    return s


@njit(cache=True)
def lit_arrays_write(a, b):
    for arr in (a, b):
        arr[0] += arr[1] * arr[2]
        arr[1] = arr[1] * arr[0]
    return np.sum(a * b)


@njit(cache=True)
def lit_arrays_mutate_both(a, b):
    for arr in (a, b, a):
        arr *= 1.5
        arr[0] = arr[0] * arr[-1]
    return np.sum(a ** 2) + np.sum(b)


@njit(cache=True)
def lit_expressions(a, b):
    s = 0.0
    for e in (a * b, a + b, np.sin(a)):
        s += np.sum(e * e)
    return s


@njit(cache=True)
def lit_in_time_loop(u, dt=0.1, nsteps=6):
    n = u.shape[0]
    v = u.copy()
    for t in range(nsteps):
        w = v.copy()
        for i in range(1, n - 1):
            acc = 0.0
            for sh, c in ((-1, 1.0), (0, -2.0), (1, 1.0)):
                acc += c * w[i + sh]
            v[i] = w[i] + dt * acc * w[i]
    return np.sum(v ** 2)


@njit(cache=True)
def lit_break_in_time_loop(x, nsteps=5):
    y = x.copy()
    for t in range(nsteps):
        for k in (0, 1, 2):
            if y[k] > 10.0:
                break
            y[k] = y[k] * 1.3 + 0.1 * y[k + 1] ** 2
    return np.sum(y)


@njit(cache=True)
def lit_arrays_nested(a, b, c):
    s = 0.0
    for p in (a, b):
        for q in (b, c):
            s += np.sum(p * q) * p[0]
    return s


@njit(cache=True)
def lit_arrays_swap_role(a, b):
    for arr in (a, b):
        a[0] = a[0] + arr[1] * b[1]
    return a[0] * b[0] + np.sum(a)


# ------------------------------------------------------------ names bound to literals
@njit(cache=True)
def name_pairs(x):
    pairs = [(0, 1), (1, 2), (2, 3)]
    s = 0.0
    for a, b in pairs:
        s += (x[a] - x[b]) ** 2 * x[a]
    return s


@njit(cache=True)
def name_pairs_len(x):
    ws = (0.2, 0.3, 0.5)
    s = 0.0
    for k, w in enumerate(ws):
        s += w * x[k] ** 2 / len(ws)
    return s


@njit(cache=True)
def global_offs(A):
    n, m = A.shape
    s = 0.0
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            for di, dj in OFFS:
                s += (A[i, j] - A[i + di, j + dj]) ** 2 * A[i, j]
    return s


@njit(cache=True)
def global_weights_time(x, nsteps=4):
    y = x.copy()
    for t in range(nsteps):
        z = y.copy()
        for i in range(1, y.shape[0] - 1):
            acc = 0.0
            for k, w in enumerate(WEIGHTS):
                acc += w * z[i - 1 + k]
            y[i] = acc * z[i]
    return np.sum(y)


@njit(cache=True, parallel=True)
def prange_global_offs(A):
    n, m = A.shape
    out = np.zeros(n)
    for i in prange(1, n - 1):
        s = 0.0
        for j in range(1, m - 1):
            for di, dj in OFFS:
                s += A[i, j] * A[i + di, j + dj] ** 2
        out[i] = s
    return np.sum(out ** 2)


@njit(cache=True, parallel=True)
def prange_name_pairs(X):
    n = X.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        pairs = [(0, 1), (1, 2), (0, 2)]
        s = 0.0
        for a, b in pairs:
            s += (X[i, a] - X[i, b]) ** 2
        out[i] = math.sqrt(s + 1e-3)
    return np.sum(out)


@njit(cache=True, parallel=True)
def prange_literal_loop_accum(x, y):
    n = x.shape[0]
    out = np.zeros(n)
    for i in prange(1, n - 1):
        for sh, c in ((-1, 0.5), (1, 0.5), (0, -1.0)):
            out[i] += c * x[i + sh] * y[i]
    return np.sum(out ** 2)


@njit(cache=True, parallel=True)
def prange_literal_arrays(a, b):
    n = a.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        s = 0.0
        for arr in (a, b):
            s += arr[i] ** 2 * a[i]
        out[i] = s
    return np.sum(out)


# ------------------------------------------------------------ None defaults
@njit(cache=True)
def none_weight(x, w=None):
    if w is None:
        return np.sum(x ** 2)
    return np.sum(w * x ** 2)


@njit(cache=True)
def none_weight_else(x, w=None):
    s = 0.0
    if w is not None:
        s = np.sum(w * np.sin(x))
    else:
        s = np.sum(np.cos(x))
    return s * x[0]


@njit(cache=True)
def _helper_none(x, scale=None):
    if scale is None:
        return x * 2.0
    return x * scale


@njit(cache=True)
def none_helper(x, y):
    a = _helper_none(x)
    b = _helper_none(x, y)
    return np.sum(a * b)


@njit(cache=True)
def none_scalar(x, beta=None):
    if beta is None:
        beta = 0.5
    return np.sum(np.exp(beta * x))


@njit(cache=True)
def none_out(x, out=None):
    if out is None:
        out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] ** 2
    return np.sum(out * x)


@njit(cache=True, parallel=True)
def none_prange(x, w=None):
    n = x.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        if w is None:
            out[i] = x[i] ** 3
        else:
            out[i] = w[i] * x[i] ** 3
    return np.sum(out)


# ------------------------------------------------------------ tuple parameters
@njit(cache=True)
def tuple_param(x, coeffs=(1.0, -0.5, 0.25)):
    s = 0.0
    p = np.ones_like(x)
    for c in coeffs:
        s += c * np.sum(p)
        p = p * x
    return s


@njit(cache=True)
def tuple_param_enum(x, coeffs=(1.0, 2.0, 3.0)):
    s = 0.0
    for k, c in enumerate(coeffs):
        s += c * x[k] * x[k + 1]
    return s


# ------------------------------------------------------------ loop-filled then whole-array read
@njit(cache=True)
def filled_slogdet(x):
    n = x.shape[0]
    M = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            M[i, j] = math.exp(-(x[i] - x[j]) ** 2)
    M += 0.5 * np.eye(n)
    return np.linalg.slogdet(M)[1]


@njit(cache=True)
def filled_inv_literal(x):
    n = x.shape[0]
    M = np.eye(n) * 2.0
    for i in range(n - 1):
        for sh in (0, 1):
            M[i, i + sh] += x[i] * x[i + sh]
    return np.sum(np.linalg.inv(M)) + np.sum(M @ x)


@njit(cache=True)
def filled_solve_twice(x, b):
    n = x.shape[0]
    M = np.eye(n) * 3.0
    for i in range(n):
        M[i, i] += x[i] ** 2
    y = np.linalg.solve(M, b)
    for i in range(n):
        M[i, (i + 1) % n] += 0.1 * y[i]
    return np.sum(np.linalg.solve(M, y))


@njit(cache=True)
def filled_matmul_mutated(x):
    n = x.shape[0]
    M = np.zeros((n, n))
    for i in range(n):
        M[i, i] = x[i]
    P = M @ M
    for i in range(n):
        M[i, 0] += x[i] ** 2
    return np.sum(P * M)


# ------------------------------------------------------------ index-dependent taped temporaries
@njit(cache=True)
def shrinking_tape(q):
    n = q.shape[0]
    Q = q.copy()
    for r in range(1, n):
        Q[:n - r] = Q[:n - r] * 0.5 + np.sin(Q[1:n - r + 1])
    return np.sum(Q ** 2)


@njit(cache=True)
def shrinking_tape_2d(A):
    n = A.shape[0]
    B = A.copy()
    for r in range(1, n):
        B[:n - r, :] = B[:n - r, :] * B[1:n - r + 1, :] + 0.1
    return np.sum(B)


@njit(cache=True)
def growing_tape_literal(q):
    n = q.shape[0]
    Q = q.copy()
    for r in range(1, n - 1):
        for c in (0.5, 0.25):
            Q[r:] = Q[r:] * c + Q[:n - r] ** 2 * (1.0 - c)
    return np.sum(Q)


# ------------------------------------------------------------ prange through aliases
@njit(cache=True)
def _rowsq(w):
    return w * w


@njit(cache=True, parallel=True)
def prange_alias_helper(x, w):
    n = x.shape[0]
    R = _rowsq(w)
    out = np.zeros(n)
    for i in prange(n):
        out[i] = R[i] * x[i] + R[(i + 1) % n]
    return np.sum(out ** 2)


@njit(cache=True, parallel=True)
def prange_alias_name(x):
    n = x.shape[0]
    v = x
    out = np.zeros(n)
    for i in prange(n):
        out[i] = v[i] * x[(i + 1) % n] ** 2
    return np.sum(out)


@njit(cache=True, parallel=True)
def prange_alias_mutated(x):
    n = x.shape[0]
    v = x
    v[0] = v[0] * 2.0
    out = np.zeros(n)
    for i in prange(n):
        out[i] = v[i] * v[i]
    return np.sum(out) + x[0]


# ------------------------------------------------------------ second wave: evaluation order, aliasing
@njit(cache=True)
def lit_scalars_eval_first(x):
    """Python evaluates the tuple before the loop: the second element reads the ORIGINAL x[0]."""
    for c in (x[0], x[0] * x[1]):
        x[0] = x[0] + c * x[2]
    return np.sum(x ** 2)


@njit(cache=True)
def lit_exprs_eval_first(a, b):
    """The tuple of expressions is built before the body mutates a."""
    s = 0.0
    for e in (a * b, a + b):
        a[0] = a[0] * 2.0 + e[1]
        s += np.sum(e * a)
    return s


@njit(cache=True)
def lit_overlapping_views(x):
    for arr in (x[:3], x[1:4]):
        arr[0] += arr[1] ** 2
        arr[2] = arr[2] * arr[0]
    return np.sum(x * x)


@njit(cache=True)
def lit_same_array_twice(a):
    for arr in (a, a):
        arr[0] = arr[0] * arr[1] + 0.5
    return np.sum(a)


@njit(cache=True)
def lit_whole_write(a, b):
    for arr in (a, b):
        arr[:] = np.sin(arr) * arr[0]
    return np.sum(a * b)


@njit(cache=True)
def lit_rebind_loop_name(a, b):
    s = 0.0
    for arr in (a, b):
        arr = arr * 2.0
        s += np.sum(arr * a)
    return s


@njit(cache=True)
def lit_var_after_loop(x):
    s = 0.0
    for k in (1, 2, 3):
        s += x[k]
    return s * x[k] ** 2


@njit(cache=True)
def lit_data_break(a, b):
    s = 0.0
    for arr in (a, b):
        s += np.sum(arr ** 2)
        if s > 1.0:
            break
    return s * a[0]


@njit(cache=True)
def lit_buffer_swap(u, nsteps=5):
    n = u.shape[0]
    cur = u.copy()
    nxt = np.empty_like(cur)
    for t in range(nsteps):
        nxt[0] = cur[0]
        nxt[n - 1] = cur[n - 1]
        for i in range(1, n - 1):
            acc = 0.0
            for sh in (-1, 1):
                acc += cur[i + sh] * cur[i]
            nxt[i] = 0.5 * acc
        cur, nxt = nxt, cur
    return np.sum(cur ** 2)


@njit(cache=True)
def name_bound_in_branch(x, flag):
    if flag > 0:
        pairs = [(0, 1), (1, 2)]
    else:
        pairs = [(1, 2), (2, 3)]
    s = 0.0
    for a, b in pairs:
        s += x[a] * x[b] ** 2
    return s


@njit(cache=True)
def name_bound_twice(x):
    pairs = [(0, 1), (1, 2)]
    s = 0.0
    for a, b in pairs:
        s += x[a] * x[b]
    pairs = [(2, 3), (3, 4)]
    for a, b in pairs:
        s += x[a] ** 2 * x[b]
    return s


@njit(cache=True)
def global_plain_weights(x):
    s = 0.0
    for w in WEIGHTS:
        s += w * np.sum(x ** 2) * x[0]
    return s


@njit(cache=True)
def _scaled_none(x, w=None):
    if w is None:
        return np.sum(x ** 3)
    return np.sum(w * x ** 3)


@njit(cache=True, parallel=True)
def none_helper_prange(X, w):
    n = X.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        out[i] = _scaled_none(X[i]) + _scaled_none(X[i], w)
    return np.sum(out)


@njit(cache=True)
def filled_det_time_loop(x, nsteps=3):
    n = x.shape[0]
    s = 0.0
    M = np.eye(n)
    for t in range(nsteps):
        for i in range(n):
            M[i, i] = M[i, i] + x[i] * (t + 1)
        s += np.linalg.det(M)
    return s


@njit(cache=True, parallel=True)
def prange_shrinking(A):
    m, n = A.shape
    out = np.zeros(m)
    for i in prange(m):
        q = A[i].copy()
        for r in range(1, n):
            q[:n - r] = q[:n - r] * 0.5 + q[1:n - r + 1] ** 2
        out[i] = np.sum(q)
    return np.sum(out)


@njit(cache=True, parallel=True)
def prange_alias_view(x, y):
    n = y.shape[0]
    v = x[1:]
    out = np.zeros(n)
    for i in prange(n):
        out[i] = v[i] * y[i] + x[i] ** 2
    return np.sum(out ** 2)


@njit(cache=True)
def tuple_param_arrays(x, coeffs=(1.0, 0.5)):
    y = x.copy()
    for c in coeffs:
        for sh in (0, 1):
            y[sh] = y[sh] * c + y[sh + 1] ** 2
    return np.sum(y)


# ------------------------------------------------------------ third wave: around what failed
@njit(cache=True)
def nested_shrinking(A):
    m, n = A.shape
    s = 0.0
    for i in range(m):
        q = A[i].copy()
        for r in range(1, n):
            q[:n - r] = q[:n - r] * 0.5 + q[1:n - r + 1] ** 2
        s += np.sum(q)
    return s


@njit(cache=True, parallel=True)
def prange_fixed_tape(A):
    m, n = A.shape
    out = np.zeros(m)
    for i in prange(m):
        q = A[i].copy()
        for r in range(1, 4):
            q[:n - 1] = q[:n - 1] * 0.5 + q[1:] ** 2
        out[i] = np.sum(q)
    return np.sum(out)


@njit(cache=True, parallel=True)
def prange_literal_time(A, nsteps=3):
    m, n = A.shape
    out = np.zeros(m)
    for i in prange(m):
        q = A[i].copy()
        for t in range(nsteps):
            for j in range(1, n - 1):
                for sh in (-1, 1):
                    q[j] = q[j] + 0.1 * q[j + sh] * q[j]
        out[i] = np.sum(q ** 2)
    return np.sum(out)


@njit(cache=True)
def _same(w):
    return w


@njit(cache=True, parallel=True)
def prange_alias_helper_identity(x, w):
    n = x.shape[0]
    R = _same(w)
    R[0] = R[0] * 3.0
    out = np.zeros(n)
    for i in prange(n):
        out[i] = R[i] * x[i] + w[(i + 1) % n]
    return np.sum(out ** 2)


# ------------------------------------------------------------ found after the fix
@njit(cache=True, parallel=True)
def prange_shrinking_2d(A):
    m, n, k = A.shape
    out = np.zeros(m)
    for i in prange(m):
        B = A[i].copy()
        for r in range(1, n):
            B[:n - r, :] = B[:n - r, :] * 0.5 + B[1:n - r + 1, :] ** 2
        out[i] = np.sum(B)
    return np.sum(out)

@njit(cache=True, parallel=True)
def prange_mask_literal(A, thr):
    m, n = A.shape
    out = np.zeros(m)
    for i in prange(m):
        u = A[i].copy()
        for t in range(3):
            for c in (0.9, 1.1):
                v = u[u > thr]
                u = u * c + 0.01 * np.sum(v * v)
        out[i] = np.sum(u ** 2)
    return np.sum(out)

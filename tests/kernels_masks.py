"""Kernels for tests/test_masks.py: boolean masks, integer-array scatter writes and slice bounds
beyond the axis, each in the two styles users write (whole-array NumPy and explicit loops, serial
and prange)."""
import numpy as np
from numba import njit, prange


# ----------------------------------------------------------------- boolean masks (reads)
@njit
def mask_sum(x):
    return np.sum(x[x > 0.5]) + np.sum(x[x > 0.5] ** 2)


@njit
def mask_sum_loops(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            s += x[i] + x[i] ** 2
    return s


@njit
def mask_argument(x, m):
    return np.sum(np.sin(x[m])) + x[m].sum()


@njit
def mask_local(a, b, t, s):
    mask = (a > t) & (b < s)
    r = a * b - 0.3
    return np.mean(r[mask] ** 2) + np.sum(b[mask] * a[mask])


@njit
def mask_local_loops(a, b, t, s):
    acc = 0.0
    cnt = 0
    tot = 0.0
    for i in range(a.shape[0]):
        if (a[i] > t) and (b[i] < s):
            r = a[i] * b[i] - 0.3
            acc += r ** 2
            cnt += 1
            tot += b[i] * a[i]
    return acc / cnt + tot


@njit
def mask_rows(A, m):
    return np.sum(A[m] ** 2) + np.sum(A[m][:, 1]) * A[0, 2]


@njit
def mask_method(y, m):
    return y[m].sum() * y[~m].max()


# ----------------------------------------------------------------- boolean masks (writes)
@njit
def mask_write_scalar(x, w):
    y = x * 2.0
    y[y < 1.0] = 0.0
    return np.sum(y * w)


@njit
def mask_write_scalar_loops(x, w):
    y = x * 2.0
    for i in range(y.shape[0]):
        if y[i] < 1.0:
            y[i] = 0.0
    return np.sum(y * w)


@njit
def mask_write_in_place(x, v):
    x[x < 0.6] = v[x < 0.6] ** 2           # the argument itself
    return np.sum(x ** 3)


@njit
def mask_writes(y, v, m, w):
    y[m] = np.sin(v[m])
    y[~m] *= 2.0
    y[m] += v[m] * y[m]
    return np.sum(y * w)


@njit
def mask_writes_loops(y, v, m, w):
    for i in range(y.shape[0]):
        if m[i]:
            y[i] = np.sin(v[i])
        else:
            y[i] *= 2.0
    for i in range(y.shape[0]):
        if m[i]:
            y[i] += v[i] * y[i]
    return np.sum(y * w)


@njit
def mask_write_rows(A, m, c):
    A[m] = A[m] * c
    A[~m] = 0.5
    return np.sum(A ** 2)


@njit
def mask_time_loop(u0, steps):
    u = u0.copy()
    for t in range(steps):
        v = np.sin(u)
        u[v > 0.7] *= 0.9
        u = u + 0.1 * v
    return np.sum(u ** 2)


@njit(parallel=True)
def mask_prange(A, w):
    n = A.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        row = A[i]
        out[i] = np.sum(row[row > 0.5] ** 2) + np.sum(np.where(row < 0.5, row, 0.0))
    return np.sum(out * w)


@njit(parallel=True)
def mask_prange_write(A, c):
    for i in prange(A.shape[0]):
        row = A[i]
        row[row > 0.8] = c * row[row > 0.8]
    return np.sum(A ** 2)


@njit(parallel=True)
def mask_prange_loops(A, w):
    n = A.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        s = 0.0
        for j in range(A.shape[1]):
            if A[i, j] > 0.5:
                s += A[i, j] ** 2
        out[i] = s
    return np.sum(out * w)


# ------------------------------------------------------------ integer-array scatter writes
@njit
def scatter_set(x, idx, v):
    y = x * 1.5
    y[idx] = v ** 2                   # repeated indices: the last store wins
    return np.sum(y * y)


@njit
def scatter_add(x, idx, v):
    y = np.sin(x)
    y[idx] += v * x[idx]              # Numba: y[idx] = y[idx] + v (one v per position)
    return np.sum(y ** 2)


@njit
def scatter_mul(x, idx, c):
    x[idx] *= c
    return np.sum(x ** 3)


@njit
def scatter_scalar(x, idx):
    x[idx] = 0.25
    x[idx[:2]] -= x[idx[-1]]
    return np.sum(x ** 2)


@njit
def assembly(ke, dofs, K):
    K[dofs] += ke                     # rows of a 2-D K
    return np.sum(K ** 2)


@njit
def scatter_loops(w, idx, m):
    y = np.zeros(m)
    for e in range(idx.shape[0]):
        y[idx[e]] += w[e] ** 2        # explicit loop: repeats add up
    return np.sum(y ** 2)


@njit(parallel=True)
def scatter_prange(w, idx, m):
    y = np.zeros(m)
    for e in prange(idx.shape[0]):
        y[idx[e]] += w[e] ** 2        # a race in the primal if idx repeats; its adjoint is a gather
    return np.sum(y * np.arange(m))


@njit(parallel=True)
def gather_prange(x, idx):
    out = np.zeros(idx.shape[0])
    for e in prange(idx.shape[0]):
        out[e] = x[idx[e]] ** 2       # the adjoint scatters: must be race-free
    return np.sum(out * np.arange(idx.shape[0]))


# ---------------------------------------------------------------- slice bounds beyond the axis
@njit
def clip_forward(x, k):
    return np.sum(x[:k] ** 2) + np.sum(x[2:100] * 3.0) + np.sum(x[-100:] ** 3) + np.sum(x[k:] * 0.5)


@njit
def clip_backward(x, k):
    return np.sum(x[100::-1] ** 2) + np.sum(x[:-100:-2] * 1.5) + np.sum(x[k::-1] ** 3)


@njit
def clip_write(x, k):
    y = np.zeros(6)
    y[:k] = x[:k]                     # k may exceed both lengths
    y[4:50] += x[-50:2]
    return np.sum(y ** 2)


@njit
def clip_windows(x, w):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.sum(x[i:i + 3] * w[:3][: x.shape[0] - i])   # the last windows are shorter
    return s


@njit
def mask_time_loop_loops(u0, steps):
    u = u0.copy()
    for t in range(steps):
        v = np.sin(u)
        for i in range(u.shape[0]):
            if v[i] > 0.7:
                u[i] *= 0.9
        u = u + 0.1 * v
    return np.sum(u ** 2)



# ----------------------------------------------------------------------------- refused
@njit
def mask_2d_read(A):
    return np.sum(A[A > 0.5])          # <- a 2-d mask


@njit
def mask_2d_write(A, w):
    B = A * 2.0
    B[B > 1.0] = 1.0                   # <- a 2-d mask
    return np.sum(B * w)


@njit
def scatter_mixed(K, d, v):
    K[d, 1] += v                       # <- an index array with another index
    return np.sum(K ** 2)

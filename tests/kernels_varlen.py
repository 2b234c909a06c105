"""Kernels for tests/test_varlen_loops.py: masks, index arrays and compacting reads whose length
changes from iteration to iteration of a taped loop (issue 13)."""
import numpy as np
from numba import njit, prange


@njit
def masked_update(u0, thr, decay, s, nt):
    u = u0.copy()
    for t in range(nt):
        m = u > thr                     # True count varies by step
        u[m] = u[m] * decay + s
        u = u * 1.01 + 0.02
    return np.sum(u * u)


@njit
def nonzero_update(u0, lo, nt):
    u = u0.copy()
    for t in range(nt):
        idx = np.nonzero(u < lo)[0]     # varying-length index array
        u[idx] += 0.1 * u[idx] ** 2
        u = u * 1.01
    return np.sum(u * u)


@njit
def compacting_read(u0, nt):
    u = u0.copy()
    acc = 0.0
    for t in range(nt):
        v = u[u > 0.0]                  # compacting read
        acc += np.sum(v * v)
        u = u - 0.3
    return acc


@njit
def combined(u0, thr, lo, decay, s, nt):
    u = u0.copy()
    acc = 0.0
    for t in range(nt):
        m = u > thr
        u[m] = u[m] * decay + s
        idx = np.nonzero(u < lo)[0]
        u[idx] += 0.1 * u[idx] ** 2
        v = u[u > 0.0]
        acc += np.sum(v * v)
        u = u - 0.15
    return acc


@njit
def combined_while(u0, thr, lo, decay, s, tol):
    u = u0.copy()
    acc = 0.0
    while np.max(u) > tol:
        m = u > thr
        u[m] = u[m] * decay + s
        idx = np.nonzero(u < lo)[0]
        u[idx] += 0.1 * u[idx] ** 2
        v = u[u > 0.0]
        acc += np.sum(v * v)
        u = u - 0.15
    return acc


@njit
def masked_update_while(u0, thr, decay, tol):
    u = u0.copy()
    k = 0
    while np.sum(u) > tol:
        m = u > thr
        u[m] = u[m] * decay
        u = u - 0.05
        k += 1
    return np.sum(u * u) + k


@njit
def nonzero_while(u0, lo, tol):
    u = u0.copy()
    while np.sum(u) < tol:
        idx = np.nonzero(u < lo)[0]
        u[idx] += 0.1 * u[idx] ** 2 + 0.05
        u = u * 1.01
    return np.sum(u * u)


@njit
def compacting_while(u0, tol):
    u = u0.copy()
    acc = 0.0
    while np.max(u) > tol:
        v = u[u > 0.0]
        acc += np.sum(v * v)
        u = u - 0.3
    return acc


@njit
def where_positions(u0, lo, nt):
    u = u0.copy()
    for t in range(nt):
        idx = np.where(u < lo)[0]
        u[idx] = u[idx] * 1.2 + 0.01
        u = np.sin(u)
    return np.sum(u ** 3)


@njit
def flatnonzero_positions(x, m):
    s = 0.0
    for t in range(3):
        idx = np.flatnonzero(m > 0.4 + 0.2 * t)     # its length changes per iteration
        s += np.sum(x[idx]) * t
        x[idx] *= 0.9
    return s


@njit
def compacting_sum_in_place(u0, nt):
    u = u0.copy()
    acc = 0.0
    for t in range(nt):
        acc += np.sum(u[u > 0.0] ** 2)
        u -= 0.3 * u ** 2 + 0.1
    return acc


@njit
def function_level(u, thr, lo, decay, s):
    m = u > thr
    u[m] = u[m] * decay + s
    idx = np.nonzero(u < lo)[0]
    u[idx] += 0.1 * u[idx] ** 2
    v = u[u > 0.0]
    return np.sum(v * v)


@njit(parallel=True)
def prange_rows(A, thr):
    out = np.zeros(A.shape[0])
    for i in prange(A.shape[0]):
        r = A[i]
        v = r[r > thr]              # varying length per row
        out[i] = np.sum(v * v)
    return np.sum(out)


@njit(parallel=True)
def prange_time_loop(U, thr, nt):
    out = np.zeros(U.shape[0])
    for i in prange(U.shape[0]):
        u = U[i].copy()
        for t in range(nt):
            m = u > thr
            u[m] = u[m] * 0.9
            u = u * 1.01
        out[i] = np.sum(u * u)
    return np.sum(out)


@njit
def nested_compaction(u0, nt):
    u = u0.copy()
    acc = 0.0
    for t in range(nt):
        for k in range(2):
            v = u[u > 0.2 * k]      # <- allocated in a nested loop, read after it
        acc += np.sum(v * v)
        u = u - 0.1
    return acc


@njit
def argwhere_rows(M, nt):
    acc = 0.0
    for t in range(nt):
        rc = np.argwhere(M > 0.5)   # <- 2-d positions
        for k in range(rc.shape[0]):
            acc += M[rc[k, 0], rc[k, 1]] * t
        M = M * 1.1
    return acc


@njit
def carried_compaction(u, nt):
    acc = 0.0
    v = u[u > 0.5]
    for t in range(nt):
        acc += np.sum(v * v)
        v = u[u > 0.5 + 0.1 * t]    # <- rebound to another length, read in the next iteration
        u = u * 0.95
    return acc


@njit
def carried_positions(u, nt):
    acc = 0.0
    idx = np.flatnonzero(u > 0.5)
    for t in range(nt):
        acc += np.sum(u[idx] ** 2)
        idx = np.flatnonzero(u > 0.5 + 0.1 * t)     # <- rebound to another length
        u = u * 0.95
    return acc


@njit
def branch_compaction(u, c):
    v = u[u > 0.5]
    if c > 0.0:
        v = u[u > 0.7]              # <- rebound to another length under a branch
    return np.sum(v * v)


@njit
def rebound_same_length(u, nt):
    acc = 0.0
    w = u[u > 0.5]
    v = w * 1.0
    for t in range(nt):
        v = w * (1.0 + 0.1 * t)     # w's length throughout: written into v's array
        acc += np.sum(v * v)
    return acc

"""Kernels with dense linear algebra written the way users write them (whole-array `@`,
`np.dot`, transposes, mat-vec and vec-mat, chains), for the BLAS-level adjoint
rules (adtrans/rules/linalg.py), plus cases that must stay loop nests.  Small sizes."""
import numpy as np
from numba import njit, prange

WEIGHTS = np.linspace(0.5, 1.5, 12).reshape(4, 3)       # a module-level array used as an operand


@njit
def mm_out(A, B, C):
    C[:] = A @ B


@njit
def mm_tn(A, B, W):
    return np.sum((A.T @ B) * W)


@njit
def mm_nt(A, B):
    P = A @ B.T
    return np.sum(np.sin(P))


@njit
def mm_tt(A, B):
    P = np.dot(A.T, B.T)
    return np.sum(P * P)


@njit
def mv_variants(A, x, z, y1, y2, y3, y4):
    y1[:] = A @ x            # (m,k) @ (k,)
    y2[:] = A.T @ z          # (k,m) @ (m,)
    y3[:] = z @ A            # (m,) @ (m,k)
    y4[:] = np.dot(x, A.T)


@njit
def chain(A, B, C, x):
    T = (A @ B).T @ C
    v = T @ x
    return np.sum(v * v) + np.trace(A @ B)


@njit
def gram(alpha, A, C):
    C[:] = alpha * A @ A.T + C


@njit
def returns_product(A, B):
    return A @ B


@njit
def returns_matvec(A, x):
    return A @ x, x @ A


@njit
def operand_written_later(A, B):
    P = A @ B
    A[0, :] = 0.5 * A[0, :]
    B *= 2.0
    return np.sum(P * P) + np.sum(A * A) + np.sum(B)


@njit
def product_in_time_loop(A, y, steps):
    for t in range(steps):
        y[:] = np.tanh(A @ y)
    return np.sum(y * y)


@njit
def outer_and_vdot(x, y, W):
    return np.sum(np.outer(x, y) * W) + np.vdot(x, y) + np.dot(x, y)


@njit(parallel=True)
def product_then_prange(A, B, w):
    P = A @ B
    s = 0.0
    for i in prange(P.shape[0]):
        for j in range(P.shape[1]):
            s += w[j] * np.cos(P[i, j])
    return s


@njit
def gemm_loops(alpha, C, A, B):
    ni, nk = A.shape
    nj = B.shape[1]
    for i in range(ni):
        for k in range(nk):
            for j in range(nj):
                C[i, j] += alpha * A[i, k] * B[k, j]


@njit
def global_operand(A):
    return np.sum(np.cos(A @ WEIGHTS))


@njit
def result_written_later(A, B, steps):
    P = A @ B
    for t in range(steps):
        P[0, :] = np.sin(P[0, :]) * P[1, :]
    return np.sum(P * P)


@njit
def tanh_matvec(A, x):
    return np.sum(np.tanh(A @ x))


@njit
def ridge_loss(A, x, b, lam):
    """Least squares with a ridge term, as users write it: vector @ vector is a number."""
    r = A @ x - b
    return r @ r + lam * (x @ x)


@njit
def quadratic_form(w, S):
    """Portfolio variance w' S w, left to right (`w @ S` is a vector)."""
    return w @ S @ w


@njit
def two_mm_sum(A, B, C, D):
    return np.sum((A @ B) @ C * D)

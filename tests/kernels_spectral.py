"""Kernels calling np.linalg.eigh, eigvalsh, svd, norm(A, 2), cond, lstsq and pinv as users write
them (a spectral energy, a PCA-style projection, a least-squares fit); tests/test_spectral.py
differentiates them."""
import numpy as np
from numba import njit


@njit
def eigvalsh_energy(B):
    A = B + B.T
    w = np.linalg.eigvalsh(A)
    return np.sum(w * w * w) + w[-1]


@njit
def eigh_both(A, c):
    w, V = np.linalg.eigh(A)
    return np.sum(np.sin(w) * c) + np.sum(V[:, 0] * c) ** 2 + np.sum(V * V * V)


@njit
def eigh_vectors_only(A):
    V = np.linalg.eigh(A)[1]
    return np.sum(V[:, -1] * np.arange(A.shape[0]))


@njit
def eigh_matrix_function(A):
    """exp(A) through the eigendecomposition: sum of the entries of V diag(exp(w)) V^T."""
    w, V = np.linalg.eigh(A)
    E = (V * np.exp(w)) @ V.T
    return np.sum(E)


@njit
def svd_values(A):
    s = np.linalg.svd(A, full_matrices=False)[1]
    return np.sum(s * s * s)


@njit
def svd_unpacked(A):
    U, s, Vt = np.linalg.svd(A)
    return np.sum(np.log(s))


@njit
def spectral_norm(A, B):
    return np.linalg.norm(A @ B, 2) + 0.5 * np.linalg.norm(A, -2)


@njit
def condition(A):
    return np.linalg.cond(A) + np.linalg.cond(A.T @ A, -2)


@njit
def lstsq_fit(A, b):
    x, res, rank, sv = np.linalg.lstsq(A, b)
    r = A @ x - b
    return np.sum(x * x * x) + np.sum(r * r) + sv[0]


@njit
def lstsq_matrix(A, B):
    X = np.linalg.lstsq(A, B)[0]
    return np.sum(np.sin(X))


@njit
def pinv_sum(A):
    P = np.linalg.pinv(A)
    return np.sum(P * P * P) + P[0, -1]


@njit
def pinv_wide(A):
    return np.sum(np.cos(np.linalg.pinv(A)))


@njit
def qr_both(A):
    Q, R = np.linalg.qr(A)
    return np.sum(Q[:, 0] ** 3) + np.sum(np.diag(R) ** 2) + R[0, -1]


@njit
def eigh_in_loop(A):
    t = 0.0
    for k in range(2):
        w = np.linalg.eigvalsh(A)                       # in a loop (saved per iteration)
        t += w[0]
    return t


@njit
def svd_vectors(A):
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    return np.sum(U[:, 0] ** 3) + np.sum(s * Vt[0])


@njit
def lstsq_residuals(A, b):
    x, res, rank, sv = np.linalg.lstsq(A, b)            # <- residuals read
    return np.sum(res)


@njit
def eigh_overwritten(A):
    w = np.linalg.eigvalsh(A)                           # its operand is written later (copied)
    A[0, 0] = 2.0
    return np.sum(w)


@njit
def eigh_parts(A, c):
    """Both parts of one eigh, in a sign-invariant loss (one LAPACK call in the adjoint too)."""
    w, V = np.linalg.eigh(A)
    return np.sum(w ** 2) + np.sum((V ** 2) @ c)


@njit
def eigh_parts_in_loop(A, c):
    t = 0.0
    for k in range(2):
        w, V = np.linalg.eigh(A * (k + 1.0))
        t += np.sum(w ** 2) + np.sum((V ** 2) @ c)
    return t

"""Kernels calling np.linalg (solve, inv, det, slogdet, cholesky) as users write them (Gaussian
process likelihoods, a Newton step, a Kalman update); tests/test_lapack.py differentiates them."""
import numpy as np
from numba import njit


@njit
def solve_vector(A, b, w):
    x = np.linalg.solve(A, b)
    return np.sum(w * x * x)


@njit
def solve_matrix(A, B):
    X = np.linalg.solve(A, B)
    return np.sum(X * X)


@njit
def solve_view(A, b):
    x = np.linalg.solve(A.T, 2.0 * b[1:])           # operands that are not whole arrays: copied first
    return np.sum(np.sin(x))


@njit
def inv_sum(A):
    Ai = np.linalg.inv(A)
    return np.sum(Ai * Ai)


@njit
def det_square(A):
    return np.linalg.det(A) ** 2 + 3.0 * np.linalg.det(A)


@njit
def slogdet_both(A):
    sign, logdet = np.linalg.slogdet(A)
    return sign * logdet + np.linalg.slogdet(A)[1] ** 2


@njit
def cholesky_of_gram(B):
    n = B.shape[0]
    A = B @ B.T + n * np.eye(n)
    L = np.linalg.cholesky(A)
    return np.sum(L * L * L)


@njit
def cholesky_direct(A):
    L = np.linalg.cholesky(A)
    return np.sum(np.sin(L))


@njit
def gp_nll_cholesky(X, y, ell, sf2, noise):
    """Negative log-likelihood of a GP with an RBF kernel: Cholesky, then the triangular solve and
    the log-determinant written as loops."""
    n, d = X.shape
    K = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            r2 = 0.0
            for k in range(d):
                t = X[i, k] - X[j, k]
                r2 += t * t
            K[i, j] = sf2 * np.exp(-0.5 * r2 / (ell * ell))
        K[i, i] += noise
    L = np.linalg.cholesky(K)
    z = np.zeros(n)
    for i in range(n):
        s = y[i]
        for j in range(i):
            s -= L[i, j] * z[j]
        z[i] = s / L[i, i]
    logdet = 0.0
    for i in range(n):
        logdet += np.log(L[i, i])
    return 0.5 * np.sum(z * z) + logdet + 0.5 * n * np.log(2.0 * np.pi)


@njit
def gp_nll_solve(X, y, ell, sf2, noise):
    """The same likelihood with np.linalg.solve and slogdet, whole-array style."""
    n = X.shape[0]
    D = X[:, None, :] - X[None, :, :]
    K = sf2 * np.exp(-0.5 * np.sum(D * D, axis=2) / (ell * ell)) + noise * np.eye(n)
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * (y @ alpha) + 0.5 * logdet + 0.5 * n * np.log(2.0 * np.pi)


@njit
def newton_step(x, c):
    """One Newton step for F(x) = x**3 + T x - c (T tridiagonal): x -= J^-1 F in place."""
    n = x.shape[0]
    J = np.zeros((n, n))
    F = np.zeros(n)
    for i in range(n):
        F[i] = x[i] ** 3 + 2.0 * x[i] - c[i]
        J[i, i] = 3.0 * x[i] ** 2 + 2.0
        if i > 0:
            F[i] -= x[i - 1]
            J[i, i - 1] = -1.0
        if i < n - 1:
            F[i] -= x[i + 1]
            J[i, i + 1] = -1.0
    x -= np.linalg.solve(J, F)


@njit
def newton_map(x, c):
    """A Newton step for F(x) = x**3 + 2 x - c returning the new iterate (a driver loops over it)."""
    J = np.diag(3.0 * x ** 2 + 2.0)
    J[1:, :-1] -= np.eye(x.shape[0] - 1)
    return x - np.linalg.solve(J, x ** 3 + 2.0 * x - c)


@njit
def newton_in_loop(x, c):
    for it in range(3):
        n = x.shape[0]
        J = np.diag(3.0 * x ** 2 + 2.0)
        x = x - np.linalg.solve(J, x ** 3 + 2.0 * x - c)      # in a loop (saved per iteration)
    return np.sum(x)


@njit
def kalman_update(x, P, z, H, R):
    """The Kalman filter's measurement update with the inverse of the innovation covariance."""
    S = H @ P @ H.T + R
    Si = np.linalg.inv(S)
    K = P @ H.T @ Si
    xn = x + K @ (z - H @ x)
    Pn = P - K @ H @ P
    return np.sum(xn * xn) + np.sum(Pn * Pn)


@njit
def operand_written_after(A, b):
    x = np.linalg.solve(A, b)                            # its operand A is written after it (copied)
    A[0, 0] = 1.0
    return np.sum(x)


@njit
def cholesky_logdet(A):
    L = np.linalg.cholesky(A)
    return 2.0 * np.sum(np.log(np.diag(L)))

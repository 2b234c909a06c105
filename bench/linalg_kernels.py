"""Kernels of the `make bench` linalg rows (bench/run.py --only linalg): the negative
log-likelihood of a Gaussian process with an RBF kernel, as users write it with np.linalg."""
import numpy as np
from numba import njit


@njit
def gp_nll_cholesky(X, y, ell, sf2, noise):
    """Cholesky factor, forward substitution and log-determinant as loops."""
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
    """np.linalg.solve and slogdet, whole-array style."""
    n = X.shape[0]
    D = X[:, None, :] - X[None, :, :]
    K = sf2 * np.exp(-0.5 * np.sum(D * D, axis=2) / (ell * ell)) + noise * np.eye(n)
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * (y @ alpha) + 0.5 * logdet + 0.5 * n * np.log(2.0 * np.pi)

"""Two helpers of the LAPACK adjoints (:data:`adtrans.rules.linalg.LAPACK`) for generated CPU
adjoints and drivers: ``cofactors(A, det)`` and ``cholesky_adjoint(L, G)``.

Both are ``@njit`` functions made of LAPACK calls (``np.linalg.inv``/``svd``/``solve``), callable
from generated adjoints and from plain Python (the driver's reverse sweep).
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit
def cofactors(A, det):
    """The cofactor matrix of ``A`` (``adj(A).T``, the derivative of ``det(A)`` w.r.t. ``A``), with
    ``det = np.linalg.det(A)``: ``det * inv(A).T`` where ``det != 0`` (Giles 2008, sec. 3.1).

    At a singular ``A`` (``det == 0``, where ``inv`` would raise) it is computed from the SVD
    ``A = U diag(s) V^T``: ``adj(A).T = det(U) det(V) U diag(c) V^T`` with ``c_i`` the product of
    the singular values other than ``s_i``; so a matrix of rank ``n - 1`` gets its true, nonzero
    gradient, one of lower rank the gradient 0."""
    if det != 0.0:
        return det * np.linalg.inv(A).T
    u, s, vt = np.linalg.svd(A)
    n = s.shape[0]
    c = np.ones(n)
    for i in range(n):
        for j in range(n):
            if j != i:
                c[i] *= s[j]
    sign = np.linalg.det(u) * np.linalg.det(vt)
    return sign * ((u * c) @ vt)


@njit
def cholesky_adjoint(L, G):
    """The adjoint of ``A`` for ``L = np.linalg.cholesky(A)`` given the adjoint ``G`` of ``L``
    (Murray 2016, "Differentiation of the Cholesky decomposition", eq. 10: ``P = Phi(L^T G)``,
    ``S = L^-T P L^-1``; ``Phi`` keeps the lower triangle and halves the diagonal).

    ``np.linalg.cholesky`` (NumPy's and Numba's) reads only the lower triangle of ``A``, so this
    is the exact gradient of that function: the lower triangle gets ``S + S^T`` (its diagonal
    ``S_ii``), the strict upper triangle 0.  For a symmetric ``A`` built from other values
    (``A = B @ B.T + n * I``) both halves reach those values alike, so the convention does not
    show there.  Only the lower triangle of ``G`` is read (the upper entries of ``L`` are the
    constant 0).  The triangular solves are LAPACK ``solve`` calls."""
    n = L.shape[0]
    P = L.T @ np.tril(G)
    for i in range(n):
        P[i, i] *= 0.5
        for j in range(i + 1, n):
            P[i, j] = 0.0
    X = np.linalg.solve(L.T, P.T)            # L^-T P^T
    S = np.linalg.solve(L.T, X.T)            # L^-T P L^-1
    out = np.zeros((n, n))
    for i in range(n):
        out[i, i] = S[i, i]
        for j in range(i):
            out[i, j] = S[i, j] + S[j, i]
    return out

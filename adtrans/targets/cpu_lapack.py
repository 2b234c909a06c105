"""Two helpers of the LAPACK adjoints (:data:`adtrans.rules.linalg.LAPACK`) for generated CPU
adjoints and drivers: ``cofactors(A, det)`` and ``cholesky_adjoint(L, G)``.

Both are ``@njit`` functions made of LAPACK calls (``np.linalg.inv``/``svd``/``solve``), callable
from generated adjoints and from plain Python (the driver's reverse sweep).
"""
from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from numba import njit, types
from numba.extending import get_cython_function_address

# BLAS dtrsm (triangular solve with many right-hand sides), the one SciPy exports to Cython (Numba
# compiles np.linalg through SciPy's LAPACK too): side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb.
# Bound by symbol name, not as a ctypes pointer, so that code calling it stays in Numba's cache.
llvm.add_symbol("adtrans_dtrsm", get_cython_function_address("scipy.linalg.cython_blas", "dtrsm"))
_dtrsm = types.ExternalFunction("adtrans_dtrsm", types.void(*[types.voidptr] * 11))


@njit
def _upper_solve(U, B, side, trans):
    """B <- op(U)^-1 B (side 'L') or B op(U)^-1 (side 'R') in place, for column-major ``U`` upper
    triangular and ``B`` square, as BLAS sees the buffers of C-ordered arrays (their transposes)."""
    n = U.shape[0]
    flags = np.array([side, ord("U"), trans, ord("N")], dtype=np.uint8)
    ints = np.array([n, n, n, n], dtype=np.int32)
    one = np.ones(1)
    _dtrsm(flags[0:].ctypes, flags[1:].ctypes, flags[2:].ctypes, flags[3:].ctypes, ints[0:].ctypes,
           ints[1:].ctypes, one.ctypes, U.ctypes, ints[2:].ctypes, B.ctypes, ints[3:].ctypes)


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
    constant 0).  The two triangular solves are BLAS ``dtrsm`` calls (``n^3`` flops each)."""
    n = L.shape[0]
    Lc = np.ascontiguousarray(L)
    S = Lc.T @ np.tril(G)
    for i in range(n):
        S[i, i] *= 0.5
        for j in range(i + 1, n):
            S[i, j] = 0.0
    # the C buffer of L is U = L^T to BLAS (column-major), that of S is S^T
    _upper_solve(Lc, S, ord("R"), ord("T"))      # S^T U^-T: S <- L^-T P
    _upper_solve(Lc, S, ord("L"), ord("N"))      # U^-1 S^T: S <- L^-T P L^-1
    out = np.zeros((n, n))
    for i in range(n):
        out[i, i] = S[i, i]
        for j in range(i):
            out[i, j] = S[i, j] + S[j, i]
    return out

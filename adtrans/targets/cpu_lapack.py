"""Helpers of the LAPACK adjoints (:data:`adtrans.rules.derivatives.LAPACK`) for generated CPU
adjoints and drivers: ``cofactors(A, det)``, ``cholesky_adjoint(L, G)``, ``eigh_values_vjp``,
``eigh_vectors_vjp``, ``svd_values_vjp``, ``svd_u_vjp``, ``svd_vt_vjp``, ``normal_solve`` (``lstsq``), ``pinv_vjp``,
``qr_q_vjp`` and ``qr_r_vjp``.

All are ``@njit`` functions made of LAPACK calls (``np.linalg.inv``/``svd``/``solve``/``eigh``/
``qr``), callable from generated adjoints and from plain Python (the driver's reverse sweep).
Where a derivative does not exist (repeated eigenvalues or singular values whose adjoints differ,
eigenvectors of a repeated eigenvalue, a rank-deficient ``lstsq``/``pinv``) they raise
``ValueError`` in the reverse sweep instead of returning a value that depends on LAPACK's choice.
The new helpers are named ``*_vjp``, not ``*_adjoint``: a generated adjoint is ``<kernel>_adjoint``
(a kernel named ``svd_values`` would shadow ``svd_values_adjoint``).  They are cached on disk.
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


# ------------------------------------------------- spectral decompositions, least squares, pinv
_EPS = 2.220446049250313e-16


@njit(cache=True)
def _scale(x):
    s = 0.0
    for v in x.flat:
        s = max(s, abs(v))
    return s


@njit(cache=True)
def _repeated(w, G):
    """Is there a pair ``w_i ~ w_j`` (within ``n eps max|w|``) whose adjoints ``G_i``, ``G_j``
    differ (by more than ``sqrt(eps) max|G|``)?  Such a single eigenvalue (singular value) has
    no derivative where it meets another; a symmetric function of them (their sum, a trace) has
    equal adjoints there and passes."""
    n = w.shape[0]
    tol = n * _EPS * _scale(w)
    gtol = np.sqrt(_EPS) * _scale(G)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(w[i] - w[j]) <= tol and abs(G[i] - G[j]) > gtol:
                return True
    return False


@njit(cache=True)
def _lower(S2, diag_half):
    """The adjoint of ``A`` for a function reading only the lower triangle of ``A`` (as
    ``np.linalg.eigh``/``eigvalsh``/``cholesky`` do) from ``S2 = S + S^T``, ``S`` its adjoint
    for symmetric perturbations: the strict lower triangle ``S2_ij``, the diagonal ``S2_ii / 2``
    (``diag_half``; else ``S2_ii``), the strict upper triangle 0."""
    n = S2.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        out[i, i] = 0.5 * S2[i, i] if diag_half else S2[i, i]
        for j in range(i):
            out[i, j] = S2[i, j]
    return out


@njit(cache=True)
def eigh_values_vjp(A, w, G):
    """The adjoint of ``A`` for ``w = np.linalg.eigh(A)[0]`` (or ``np.linalg.eigvalsh(A)``) given
    the adjoint ``G`` of the eigenvalues: ``V diag(G) V^T`` (Giles 2008, eigenvalues:
    ``dw_i = v_i^T dA v_i``), put on the lower triangle of ``A``, the one LAPACK's ``syevd``
    reads (the strict upper triangle gets 0, as for :func:`cholesky_adjoint`; a symmetric ``A``
    built from other values sends both halves to them alike).

    Repeated eigenvalues (``|w_i - w_j| <= n eps max|w|``): where their adjoints agree (a sum,
    a trace, ``sum(w**2)``) the result does not depend on the basis LAPACK picked in their
    eigenspace and is the true gradient; where they differ (``w[0]`` alone at a crossing, which
    has no derivative there) ``ValueError`` is raised, never a silent basis-dependent value."""
    if _repeated(w, G):
        raise ValueError("np.linalg.eigh/eigvalsh adjoint: an eigenvalue whose adjoint differs from that of "
                         "an equal eigenvalue (a repeated eigenvalue alone has no derivative)")
    V = np.linalg.eigh(A)[1]
    S = (V * G) @ V.T
    return _lower(S + S.T, True)


@njit(cache=True)
def eigh_vectors_vjp(A, V, G):
    """The adjoint of ``A`` for ``V = np.linalg.eigh(A)[1]`` given the adjoint ``G`` of the
    eigenvectors: ``V (F o V^T G) V^T`` with ``F_ij = 1 / (w_j - w_i)`` (``i != j``, 0 on the
    diagonal; Giles 2008, ``dV = V (F o V^T dA V)`` for symmetric ``dA``; the same as
    Seeger et al. 2017), on the lower triangle of ``A`` as :func:`eigh_values_vjp`.

    Only ``B_ij - B_ji`` (``B = V^T G``) reaches ``A``.  Repeated eigenvalues (``|w_i - w_j| <=
    n eps max|w|``): a pair with ``B_ij - B_ji == 0`` (the result does not read those
    eigenvectors) contributes 0; any other raises ``ValueError``: the eigenvectors of a repeated
    eigenvalue have no derivative (a function of the eigenspace alone, ``V f(w) V^T``, has one,
    but this rule cannot recover it from ``B``: write it without eigh)."""
    w = np.linalg.eigvalsh(A)
    n = w.shape[0]
    tol = n * _EPS * _scale(w)
    B = V.T @ G
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d = B[i, j] - B[j, i]
            if abs(w[j] - w[i]) <= tol:
                if d != 0.0:
                    raise ValueError("np.linalg.eigh adjoint: the result reads eigenvectors of a repeated "
                                     "eigenvalue, which have no derivative there")
            else:
                K[i, j] = d / (w[j] - w[i])
                K[j, i] = K[i, j]
    return _lower(V @ K @ V.T, True)


@njit(cache=True)
def svd_values_vjp(A, s, G):
    """The adjoint of ``A`` for ``s = np.linalg.svd(A)[1]`` given the adjoint ``G`` of the singular
    values: ``U diag(G) V^T`` with the thin ``U``, ``V`` (Townsend, "Differentiating the singular
    value decomposition", 2016; ``ds_i = u_i^T dA v_i``).  Also the rule of
    ``np.linalg.norm(A, 2)`` (``s[0]``) and ``np.linalg.cond(A)`` (``s[0] / s[-1]``).

    Repeated singular values raise ``ValueError`` where their adjoints differ (as
    :func:`eigh_values_vjp`: the spectral norm where the largest one is repeated has no
    derivative), and so does a zero singular value with a nonzero adjoint (``s_i = |.|`` there)."""
    if _repeated(s, G):
        raise ValueError("np.linalg.svd adjoint: a singular value whose adjoint differs from that of an equal "
                         "singular value (a repeated singular value alone has no derivative)")
    tol = max(A.shape[0], A.shape[1]) * _EPS * _scale(s)
    for i in range(s.shape[0]):
        if s[i] <= tol and G[i] != 0.0:
            raise ValueError("np.linalg.svd adjoint: a zero singular value with a nonzero adjoint "
                             "(no derivative at a rank-deficient matrix)")
    U, s2, Vt = np.linalg.svd(A, False)
    return (U * G) @ Vt


@njit(cache=True)
def _full_column_rank(R, m, n):
    """Whether the ``m`` x ``n`` matrix whose thin QR has the triangle ``R`` has full column rank:
    ``min |R_ii| > max(m, n) eps max |R_ii|``."""
    big = 0.0
    small = np.inf
    for i in range(n):
        big = max(big, abs(R[i, i]))
        small = min(small, abs(R[i, i]))
    return small > max(m, n) * _EPS * big


@njit(cache=True)
def normal_solve(A, G):
    """``(A^T A)^-1 G`` for the adjoint of ``x = np.linalg.lstsq(A, b)[0]`` (a vector or matrix
    ``G``), from the thin QR ``A = Q R`` (``R^-1 R^-T G``: two triangular solves, no ``A^T A``
    formed).  ``A`` must be square or tall with full column rank (``min |R_ii| > n eps
    max |R_ii|``), where ``x = (A^T A)^-1 A^T b`` is differentiable; else ``ValueError``."""
    m, n = A.shape
    if m < n:
        raise ValueError("np.linalg.lstsq adjoint: A must have at least as many rows as columns")
    R = np.linalg.qr(A)[1]
    if not _full_column_rank(R, m, n):
        raise ValueError("np.linalg.lstsq adjoint: A must have full column rank")
    return np.linalg.solve(R, np.linalg.solve(R.T, G))


@njit(cache=True)
def pinv_vjp(A, X, G):
    """The adjoint of ``A`` for ``X = np.linalg.pinv(A)`` given the adjoint ``G`` of ``X``, where
    ``A`` has full rank (``matrix_rank(A) == min(m, n)``; else ``ValueError``: the pseudo-inverse
    is discontinuous at a rank drop).  From Golub & Pereyra 1973, ``dX = -X dA X + X X^T dA^T
    (I - A X) + (I - X A) dA^T X^T X``: ``-X^T G X^T + (I - A X) G^T X X^T + X^T X G^T (I - X A)``."""
    m, n = A.shape
    if np.linalg.matrix_rank(A) < min(m, n):
        raise ValueError("np.linalg.pinv adjoint: A must have full rank")
    left = G.T @ (X @ X.T)
    left -= A @ (X @ left)
    right = (X.T @ X) @ G.T
    right -= (right @ X) @ A
    return left + right - X.T @ (G @ X.T)


@njit(cache=True)
def _svd_like(A, U):
    """``U, s, Vt`` of ``A`` from the same call the primal made (``full_matrices`` read from the
    shape of its ``U``; a square ``A`` gives the same either way), so signs agree with it."""
    m, n = A.shape
    k = min(m, n)
    if U.shape[1] != k:
        raise ValueError("np.linalg.svd adjoint: U or V^T of full_matrices=True on a non-square matrix (the "
                         "extra columns have no derivative): pass full_matrices=False")
    return np.linalg.svd(A, U.shape[0] == U.shape[1] and m == n)


@njit(cache=True)
def _pair_coupling(s, M, what_u):
    """``F o M`` with ``F_ij = 1 / (s_j^2 - s_i^2)`` (``i != j``) for the antisymmetric ``M``;
    a pair of equal singular values (within ``k eps max s``) with ``M_ij != 0`` raises."""
    k = s.shape[0]
    tol = k * _EPS * _scale(s)
    out = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            if i != j:
                if abs(s[j] - s[i]) <= tol:
                    if M[i, j] != 0.0:
                        if what_u:
                            raise ValueError("np.linalg.svd adjoint: the result reads left singular vectors of "
                                             "a repeated singular value, which have no derivative there")
                        raise ValueError("np.linalg.svd adjoint: the result reads right singular vectors of "
                                         "a repeated singular value, which have no derivative there")
                else:
                    out[i, j] = M[i, j] / (s[j] * s[j] - s[i] * s[i])
    return out


@njit(cache=True)
def svd_u_vjp(A, U, G):
    """The adjoint of ``A`` for ``U = np.linalg.svd(A, full_matrices=False)[0]`` given its adjoint
    ``G`` (Townsend, "Differentiating the singular value decomposition", 2016):
    ``U (F o (U^T G - G^T U)) S V^T + (I - U U^T) G S^-1 V^T``, ``F_ij = 1 / (s_j^2 - s_i^2)``.
    Raises ``ValueError`` for the vectors of a repeated singular value that the result reads, for
    a zero singular value whose column the second term needs, and for ``full_matrices=True`` on
    a non-square ``A``."""
    U, s, Vt = _svd_like(A, U)
    m = A.shape[0]
    k = s.shape[0]
    UtG = U.T @ G
    J = _pair_coupling(s, UtG - UtG.T, True) * s.reshape(1, k)
    out = U @ J @ Vt
    if m > k:
        P = G - U @ UtG
        tol = max(A.shape[0], A.shape[1]) * _EPS * _scale(s)
        for j in range(k):
            if s[j] <= tol:
                for i in range(m):
                    if P[i, j] != 0.0:
                        raise ValueError("np.linalg.svd adjoint: U of a zero singular value (no derivative "
                                         "at a rank-deficient matrix)")
                P[:, j] = 0.0
            else:
                P[:, j] /= s[j]
        out += P @ Vt
    return out


@njit(cache=True)
def svd_vt_vjp(A, Vt, G):
    """The adjoint of ``A`` for ``Vt = np.linalg.svd(A, full_matrices=False)[2]`` given its adjoint
    ``G`` (Townsend 2016, with ``dV = G^T``): ``U S (F o (V^T dV - dV^T V)) V^T + U S^-1 dV^T
    (I - V V^T)``; raises as :func:`svd_u_vjp`."""
    U, s, Vt = _svd_like(A, Vt.T)
    n = A.shape[1]
    k = s.shape[0]
    VtVb = Vt @ G.T
    J = s.reshape(k, 1) * _pair_coupling(s, VtVb - VtVb.T, False)
    out = U @ J @ Vt
    if n > k:
        P = G - VtVb.T @ Vt           # (dV - V V^T dV)^T, k x n
        tol = max(A.shape[0], A.shape[1]) * _EPS * _scale(s)
        for i in range(k):
            if s[i] <= tol:
                for j in range(n):
                    if P[i, j] != 0.0:
                        raise ValueError("np.linalg.svd adjoint: V of a zero singular value (no derivative "
                                         "at a rank-deficient matrix)")
                P[i, :] = 0.0
            else:
                P[i, :] /= s[i]
        out += U @ P
    return out


@njit(cache=True)
def _qr_adjoint(A, GQ, GR):
    """``(GQ + Q copyltu(M)) R^-T`` with ``M = R GR^T - GQ^T Q`` (``copyltu``: the symmetric
    matrix with ``M``'s lower triangle) for the thin ``A = Q R`` of a tall or square ``A`` of full
    column rank (Walter, Lehmann & Lamour, "On evaluating higher-order derivatives of the QR
    decomposition of tall matrices with full column rank in forward and reverse mode AD", 2012)."""
    m, n = A.shape
    if m < n:
        raise ValueError("np.linalg.qr adjoint: A must have at least as many rows as columns")
    Q, R = np.linalg.qr(A)
    Q, R = np.ascontiguousarray(Q), np.ascontiguousarray(R)
    if not _full_column_rank(R, m, n):
        raise ValueError("np.linalg.qr adjoint: A must have full column rank")
    M = R @ np.ascontiguousarray(GR.T) - np.ascontiguousarray(GQ.T) @ Q
    for i in range(n):
        for j in range(i + 1, n):
            M[i, j] = M[j, i]
    B = GQ + Q @ M
    # B R^-T: solve R X^T = B^T
    return np.ascontiguousarray(np.linalg.solve(R, np.ascontiguousarray(B.T)).T)


@njit(cache=True)
def qr_q_vjp(A, Q, G):
    """The adjoint of ``A`` for ``Q = np.linalg.qr(A)[0]`` given its adjoint ``G`` (``m >= n``, full
    column rank; else ``ValueError``); see :func:`_qr_adjoint`."""
    return _qr_adjoint(A, np.ascontiguousarray(G), np.zeros((A.shape[1], A.shape[1])))


@njit(cache=True)
def qr_r_vjp(A, R, G):
    """The adjoint of ``A`` for ``R = np.linalg.qr(A)[1]`` given its adjoint ``G`` (the upper
    triangle of ``G`` is read: the lower entries of ``R`` are the constant 0)."""
    return _qr_adjoint(A, np.zeros(A.shape), np.triu(G))

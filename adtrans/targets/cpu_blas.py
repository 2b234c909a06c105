"""``matmul_add(out, a, b)``: ``out += a @ b`` as one BLAS call, for generated CPU adjoints.

The array-level adjoint of a matrix product accumulates into a shadow (``d_A += G @ B.T``,
:mod:`adtrans.rules.linalg`).  Numba compiles ``out += a @ b`` as a fresh array for the
product and a second pass adding it; GEMM computes ``C = alpha A B + beta C``, so with
``beta = 1`` the product is added where it is made: no temporary array (a fresh allocation of
the output's size each call) and no extra pass.  Numba's own wrapper of the BLAS ``xgemm``
(``numba_xxgemm``, the one its ``np.dot`` calls, SciPy's BLAS) does the work.

Used where ``out`` is a C-contiguous 2-D float64 array, ``a`` and ``b`` 2-D float64 arrays,
each C- or F-contiguous (an operand's ``.T``), and ``out`` shares no memory with them; any other
case, and an empty product, runs ``out += a @ b`` (the same values up to the summation order
inside BLAS).  Raises ``ValueError`` when the shapes do not agree (as NumPy's ``@``).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload
from numba.np.linalg import _BLAS, ensure_blas


def matmul_add(out, a, b):
    """``out += a @ b`` (``out`` (m, n), ``a`` (m, k), ``b`` (k, n), float64); see the module."""
    out += a @ b


def _gemm_ready(out, a, b) -> bool:
    return (isinstance(out, types.Array) and isinstance(a, types.Array) and isinstance(b, types.Array)
            and out.ndim == a.ndim == b.ndim == 2 and out.layout == "C" and out.mutable
            and a.layout in "CF" and b.layout in "CF"
            and out.dtype == a.dtype == b.dtype == types.float64)


@njit
def _overlap(x, y):
    """Whether the memory of two contiguous arrays overlaps."""
    x0, y0 = x.ctypes.data, y.ctypes.data
    return x0 < y0 + y.size * y.itemsize and y0 < x0 + x.size * x.itemsize


@overload(matmul_add)
def _matmul_add(out, a, b):
    if not _gemm_ready(out, a, b):
        def plain(out, a, b):
            out += a @ b
        return plain
    ensure_blas()
    gemm = _BLAS().numba_xxgemm(types.float64)
    kind = ord("d")
    # out is C-contiguous (m, n): column-major it is out.T = b.T @ a.T, so BLAS gets b first;
    # an operand of out's layout is passed as it is, one of the other layout transposed
    trans_b = ord("n") if b.layout == "C" else ord("t")
    trans_a = ord("n") if a.layout == "C" else ord("t")
    b_c, a_c = b.layout == "C", a.layout == "C"

    def blas(out, a, b):
        m, k = a.shape
        kb, n = b.shape
        if k != kb or out.shape[0] != m or out.shape[1] != n:
            raise ValueError("matmul_add: shapes of out, a and b do not agree (out += a @ b)")
        if m == 0 or n == 0 or k == 0:
            return
        if _overlap(out, a) or _overlap(out, b):
            out += a @ b
            return
        ldb = n if b_c else k
        lda = k if a_c else m
        one = np.ones(2)
        r = gemm(kind, trans_b, trans_a, n, m, k, one.ctypes, b.ctypes, ldb, a.ctypes, lda,
                 one[1:].ctypes, out.ctypes, n)
        if r < 0:
            raise RuntimeError("matmul_add: the BLAS call failed")
    return blas

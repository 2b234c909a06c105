"""Array values of the whole-array lowering (:mod:`.arrays`) and the table of NumPy names.

The lowering (see :mod:`.arrays`) is summarised here too:

This pass runs on the kernel body after :mod:`.jumps` and before :mod:`.threeaddr`.
It rewrites every statement that computes with whole arrays into scalar loops
that the rest of the pipeline already differentiates (so the loop strategies,
the prange race analysis and the tapes serve NumPy code too):

- element-wise arithmetic, comparisons and ufuncs with NumPy broadcasting
  (scalars, ``None``/``np.newaxis``, ``reshape``, ``.T``/``transpose``),
  ``np.where``, ``np.clip``: one loop nest writing a fresh array;
- slices and views (``A[1:-1]``, ``A[i]``, ``A[:, j]``, ``x[::-1]``): a view is
  not an array in the lowered code but a *rewrite of its indices* into its base
  array, so reads, writes and augmented writes through a view (also in helpers
  it is passed to) read and write the base, and the adjoint of a write to a
  view goes to the base array;
- reductions (``sum``, ``prod``, ``mean``, ``var``, ``std``, ``max``, ``min``,
  ``argmax``/``argmin``, ``any``/``all``, with and without ``axis``) and linear
  algebra (``dot``, ``vdot``, ``@``, ``outer``, ``np.linalg.norm``, ``trace``):
  accumulation loops (a matrix product is the ``i, k, j`` loop nest), except a
  float64 matrix-matrix, matrix-vector or vector-matrix product at the kernel's
  function level, which stays one BLAS statement ``prod = A @ B`` (operands
  ``A``/``A.T``) with the array-level adjoint of :mod:`adtrans.rules.linalg`;
- creation (``zeros``/``ones``/``empty``/``full`` and ``*_like`` stay
  allocations; ``arange``, ``linspace``, ``eye``, ``copy``, ``ascontiguousarray``
  become loops) and the shape functions ``reshape``, ``ravel``, ``flatten``,
  ``hstack``, ``vstack``, ``concatenate``, ``stack``, ``triu``, ``tril``,
  ``diag``, ``cumsum``.

Shapes are tracked statically as (ndim, dtype); extents are expressions
(``A.shape[0]``, slice lengths).  Axes broadcast only where their size is 1
by construction (``None``, ``reshape(-1, 1)``, a 1-D operand against 2-D);
operands whose extents differ at run time raise ``ValueError`` in the forward
sweep instead of indexing out of bounds (``ArrayLowering.check``: one integer
test per pair of extents per statement, before its loops; an axis that is 1
only at run time raises too, never a wrong result).  Slice bounds beyond the axis
are clipped as NumPy and Numba clip them (``ArrayLowering.slice_bound``).
Integer-array indexing is a gather (``x[idx]``) or a scatter (``x[idx] = v``,
``x[idx] += v``: the value is computed first, the last store to a repeated index
wins, as Numba runs it); a 1-d boolean mask is the integer array of its true
positions (``ArrayLowering.positions``), so ``x[m]`` is a gather and ``x[m] = v``
or ``x[m] *= c`` a scatter, and the mask has no derivative.

:data:`TABLE` (name -> how it is handled) is the source of ``docs/supported.md``.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from ..parse import is_vectorized
from ..rules.derivatives import intrinsic_of
from ..ir.walk import iter_nodes

# --------------------------------------------------------------------- table
#: how each NumPy name is handled in kernels: (status, note); status is one of
#: "differentiated", "constant", "refused".  ``docs/supported.md`` is generated from it.
ELEMENTWISE_BINOPS = {"add": ast.Add, "subtract": ast.Sub, "multiply": ast.Mult, "divide": ast.Div,
                      "true_divide": ast.Div, "floor_divide": ast.FloorDiv, "mod": ast.Mod,
                      "remainder": ast.Mod}
COMPARE_UFUNCS = {"greater": ast.Gt, "greater_equal": ast.GtE, "less": ast.Lt, "less_equal": ast.LtE,
                  "equal": ast.Eq, "not_equal": ast.NotEq}
REDUCTIONS = {"sum", "prod", "mean", "var", "std", "max", "min", "amax", "amin", "argmax", "argmin",
              "any", "all"}
SHAPE_FUNCS = {"reshape", "ravel", "flatten", "transpose", "copy", "ascontiguousarray", "hstack", "vstack",
               "concatenate", "stack", "triu", "tril", "diag", "cumsum", "where", "clip", "arange",
               "linspace", "eye", "outer", "dot", "vdot", "matmul", "trace", "negative", "square"}

#: array methods -> the NumPy function each lowers to, with the receiver as its first argument
#: (``x.sum(axis=0)`` is ``np.sum(x, axis=0)``); ``astype`` and ``fill`` are methods only.
#: ``docs/supported.md`` lists them.  Attributes: ``x.T`` is ``np.transpose(x)`` (a view).
METHODS = {m: m for m in ("sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin", "any", "all",
                          "reshape", "ravel", "flatten", "transpose", "copy", "dot", "cumsum", "clip",
                          "astype", "fill", "sort", "argsort", "cumprod", "repeat", "take")}

TABLE = {
    **{k: ("differentiated", "element-wise, broadcasting") for k in ELEMENTWISE_BINOPS},
    **{k: ("constant", "element-wise comparison (boolean result)") for k in COMPARE_UFUNCS},
    "negative": ("differentiated", "element-wise"),
    "where": ("differentiated", "element-wise selection; the condition is constant; np.where(c)[0] is "
                                "np.nonzero(c)[0] (constant positions)"),
    "clip": ("differentiated", "element-wise min(max(a, lo), hi)"),
    "sum": ("differentiated", "whole array or axis="),
    "prod": ("differentiated", "whole array or axis="),
    "mean": ("differentiated", "whole array or axis="),
    "var": ("differentiated", "whole array or axis= (ddof=0)"),
    "std": ("differentiated", "whole array or axis= (ddof=0); singular at zero spread"),
    "max": ("differentiated", "whole array or axis=; ties to the first element"),
    "min": ("differentiated", "whole array or axis=; ties to the first element"),
    "amax": ("differentiated", "as max"), "amin": ("differentiated", "as min"),
    "argmax": ("constant", "an index (no derivative); axis= gives an index array"),
    "argmin": ("constant", "an index (no derivative); axis= gives an index array"),
    "any": ("constant", "boolean"), "all": ("constant", "boolean"),
    "dot": ("differentiated", "1-D/2-D operands; float64 matrix products at function level stay BLAS "
                              "(adjoint `dA += G @ B.T`), others are lowered to loops"),
    "vdot": ("differentiated", "flattened dot product (a loop)"),
    "matmul": ("differentiated", "the `@` operator, 1-D/2-D operands: as `np.dot`"),
    "outer": ("differentiated", "1-D operands (a loop nest)"),
    "trace": ("differentiated", "2-D, main diagonal (a loop)"),
    "linalg.norm": ("differentiated", "vectors: ord 1, 2, inf, -inf, p > 0; matrices: 'fro', 1, inf, -1, -inf, "
                                      "and 2, -2 (singular values, as `np.linalg.svd`); "
                                      "axis= an integer"),
    "reshape": ("differentiated", "C order; -1 allowed"), "ravel": ("differentiated", "C order"),
    "flatten": ("differentiated", "method, C order"), "transpose": ("differentiated", "no axes argument: reversed"),
    "copy": ("differentiated", ""), "ascontiguousarray": ("differentiated", ""),
    "array": ("differentiated", "of a (nested) list literal of numbers, or of a list built in the kernel "
                                "(np.copy(x) for an array)"),
    "asarray": ("differentiated", "a copy; of an array or of a list built in the kernel"),
    "hstack": ("differentiated", "tuple or list literal of arrays"),
    "vstack": ("differentiated", "tuple or list literal of arrays"),
    "concatenate": ("differentiated", "tuple or list literal, axis= constant"),
    "stack": ("differentiated", "tuple or list literal, axis= constant"),
    "triu": ("differentiated", "k= constant or name"), "tril": ("differentiated", "k= constant or name"),
    "diag": ("differentiated", "1-D -> matrix, 2-D -> main diagonal"),
    "cumsum": ("differentiated", "flattened, or along axis= (a running sum per line)"),
    "astype": ("differentiated", "method: element-wise cast (to an integer type: no derivative)"),
    "fill": ("differentiated", "method: x.fill(v) is x[:] = v"),
    "zeros": ("constant", "allocation"), "ones": ("constant", "allocation"), "empty": ("constant", "allocation"),
    "full": ("differentiated", "allocation; the fill value is differentiated"),
    "zeros_like": ("constant", "allocation"), "ones_like": ("constant", "allocation"),
    "empty_like": ("constant", "allocation"), "full_like": ("differentiated", "the fill value is differentiated"),
    "arange": ("constant", "start/stop/step"), "linspace": ("differentiated", "endpoints differentiated"),
    "eye": ("constant", "identity matrix"),
    "sort": ("differentiated", "1-D (also x.sort()): a permutation, the adjoint scatters back through argsort"),
    "argsort": ("constant", "1-D: a permutation (no derivative)"),
    "linalg.solve": ("differentiated", "b a vector or matrix; a LAPACK call in the adjoint too (`t = solve(A.T, G)`, "
                                       "`dA -= t x^T`); in loops, branches and helpers too (not prange)"),
    "linalg.inv": ("differentiated", "LAPACK (`dA -= X.T @ G @ X.T`); in loops and branches too (not prange)"),
    "linalg.det": ("differentiated", "LAPACK (cofactors, from the SVD where det is 0); in loops and branches too (not prange)"),
    "linalg.slogdet": ("differentiated", "`sign, logdet = np.linalg.slogdet(A)` (`dA += g inv(A).T`; the sign is constant); "
                                         "in loops and branches too (not prange)"),
    "linalg.cholesky": ("differentiated", "LAPACK (Murray 2016): the lower triangle of A, the one it reads, gets "
                                          "the gradient; in loops and branches too (not prange)"),
    "linalg.eig": ("refused", "for a symmetric matrix np.linalg.eigh; else compute eigenpairs in the driver"),
    "linalg.eigh": ("differentiated", "`w, V = np.linalg.eigh(A)`, also in loops and branches (LAPACK; `dA = V (diag(Gw) + "
                                      "F o V^T GV) V^T`, F = 1/(w_j - w_i)) on the lower triangle, the one it reads; "
                                      "at repeated eigenvalues ValueError where the result depends on the basis "
                                      "(adtrans/targets/cpu_lapack.py)"),
    "linalg.eigvalsh": ("differentiated", "LAPACK (`dA = V diag(G) V^T`, lower triangle; as eigh); in loops and branches too"),
    "linalg.svd": ("differentiated", "`U, s, Vt = np.linalg.svd(A, full_matrices=False)`, also in loops and branches "
                                     "(`dA = U diag(G) V^T` for s; Townsend 2016 for U, V^T, which need "
                                     "full_matrices=False unless A is square); at repeated or zero singular values "
                                     "ValueError where the result depends on the basis"),
    "linalg.cond": ("differentiated", "p None, 2 or -2: s[0] / s[-1] of the singular values (also in loops and branches)"),
    "linalg.lstsq": ("differentiated", "the solution `x = np.linalg.lstsq(A, b)[0]` (b a vector or matrix) and the "
                                       "singular values [3], also in loops and branches, A of full column rank (QR of A in "
                                       "the adjoint; else ValueError); residuals and rank refused"),
    "linalg.qr": ("differentiated", "`Q, R = np.linalg.qr(A)`, also in loops and branches, A square or tall of full column "
                                    "rank (Walter et al. 2012; else ValueError)"),
    "linalg.pinv": ("differentiated", "A of full rank (Golub & Pereyra; else ValueError); also in loops and branches"),
    "fft.fft": ("refused", "write the transform loops"),
    "unique": ("refused", "compute it in the driver"),
    "histogram": ("constant", "the counts (`counts, edges = np.histogram(a, bins, range)`, as Numba computes "
                              "them); the edges differentiated (np.linspace of range= or of a's min and max; "
                              "an array of bins: a copy)"),
    "searchsorted": ("constant", "an index (no derivative)"),
    # adtrans.normalise.arrayfuncs
    "roll": ("differentiated", "flattened or along axis=; constant or run-time shift (an index shift)"),
    "flip": ("differentiated", "a view (x[::-1] on every axis, or on axis=)"),
    "fliplr": ("differentiated", "a view (A[:, ::-1])"), "flipud": ("differentiated", "a view (A[::-1])"),
    "rot90": ("differentiated", "2-d, k= constant: a view (A[:, ::-1].T ...)"),
    "swapaxes": ("differentiated", "a view (a permutation of the axes)"),
    "moveaxis": ("differentiated", "a view (a permutation of the axes); integer source and destination"),
    "diff": ("differentiated", "n= constant, axis= constant (x[k + 1] - x[k], n times)"),
    "ediff1d": ("differentiated", "flattened first difference (no to_begin/to_end: np.concatenate them)"),
    "cumprod": ("differentiated", "flattened, or along axis= (a running product per line)"),
    "convolve": ("differentiated", "1-d, mode 'full', 'same', 'valid' (one accumulation per output element)"),
    "correlate": ("differentiated", "1-d, mode 'valid', 'same', 'full' (convolve(a, v[::-1]))"),
    "interp": ("differentiated", "x, xp, fp (NumPy's formula after a constant searchsorted; left/right/period "
                                 "not compiled by Numba)"),
    "cross": ("differentiated", "3-vectors along the last axis, leading axes broadcast"),
    "kron": ("differentiated", "1-d or 2-d operands (a[i // p, j // q] * b[i % p, j % q])"),
    "average": ("differentiated", "whole array, weights= too (sum(a * w) / sum(w))"),
    "trapezoid": ("differentiated", "1-d y, x= or dx="),
    "ptp": ("differentiated", "whole array: max - min"),
    "nansum": ("differentiated", "whole array; NaN entries contribute nothing"),
    "nanprod": ("differentiated", "whole array; NaN entries contribute nothing"),
    "nanmean": ("differentiated", "whole array; NaN entries contribute nothing"),
    "nanmax": ("differentiated", "whole array; NaN entries ignored (all NaN: NaN)"),
    "nanmin": ("differentiated", "whole array; NaN entries ignored (all NaN: NaN)"),
    "nanvar": ("differentiated", "whole array, over the non-NaN entries (all NaN: NaN)"),
    "nanstd": ("differentiated", "whole array, over the non-NaN entries (all NaN: NaN)"),
    "median": ("differentiated", "flattened: through the sort permutation (the middle one or two)"),
    "percentile": ("differentiated", "flattened, q a number or an array; NumPy's linear method, through the sort "
                                     "permutation"),
    "quantile": ("differentiated", "as percentile, q in [0, 1]"),
    "expand_dims": ("differentiated", "a view (x[:, None]); one integer axis"),
    "atleast_1d": ("differentiated", "one array: itself"),
    "atleast_2d": ("differentiated", "one array: a view (x[None, :])"),
    "atleast_3d": ("differentiated", "one array: a view (x[None, :, None], A[:, :, None])"),
    "column_stack": ("differentiated", "tuple or list literal; 1-d parts become columns"),
    "row_stack": ("differentiated", "as vstack"),
    "dstack": ("differentiated", "tuple or list literal, along a third axis"),
    "broadcast_to": ("differentiated", "read-only; the array's axes are 1 by construction or fit the shape"),
    "repeat": ("differentiated", "flattened, a scalar count (also x.repeat(k))"),
    "take": ("differentiated", "integer indices, flattened or along axis= (also x.take(idx))"),
    "identity": ("constant", "identity matrix"), "tri": ("constant", "lower-triangular ones"),
    "diagflat": ("differentiated", "k= constant"),
    "logical_and": ("constant", "element-wise, boolean"), "logical_or": ("constant", "element-wise, boolean"),
    "logical_not": ("constant", "element-wise, boolean"), "logical_xor": ("constant", "element-wise, boolean"),
    "count_nonzero": ("constant", "an integer"), "flatnonzero": ("constant", "an index array"),
    "nonzero": ("constant", "index arrays: idx, = np.nonzero(m) (np.flatnonzero(m)); of a d-d m "
                            "rows, cols = np.nonzero(m) or np.nonzero(m)[k] (np.argwhere(m)[:, k]), "
                            "then gathers/scatters A[rows, cols]"),
    "argwhere": ("constant", "an index array, one row per true element"),
    "digitize": ("constant", "bin indices"), "bincount": ("constant", "of integers, without weights"),
    "array_equal": ("constant", "boolean"), "allclose": ("constant", "boolean"),
    "isclose": ("constant", "element-wise, boolean"), "size": ("constant", "an integer"),
    **{w: ("constant", "a window of an integer length") for w in ("hanning", "hamming", "blackman", "bartlett")},
    "kaiser": ("constant", "a window of an integer length; beta constant (an active beta is refused)"),
    "trapz": ("refused", "np.trapezoid(y, x) (differentiated; np.trapz is gone from NumPy 2.4)"),
    "logspace": ("refused", "10.0 ** np.linspace(start, stop, num) (differentiated)"),
    "geomspace": ("refused", "start * (stop / start) ** np.linspace(0.0, 1.0, num) (differentiated)"),
    "shape": ("constant", "a tuple of extents"),
}


#: NumPy functions this Numba does not compile at all (a kernel calling one runs under neither Numba
#: nor adtrans): name -> what to write instead.  Checked against Numba by tests/test_forms_more.py;
#: listed in ``docs/supported.md`` and given as the hint where a kernel calls one.
NUMBA_MISSING = {
    "tile": "np.concatenate((x, x, x)) for a few copies, or a loop over the copies "
            "(`for k in range(r): out[k * n:(k + 1) * n] = x`)",
}


#: NumPy forms this Numba does not compile in a kernel's own (primal) code, although adtrans
#: differentiates them (lowered to loops with NumPy's semantics): name -> (the form, what to write
#: so that the primal compiles too).  Checked against Numba by tests/test_masks.py; shown in
#: ``docs/supported.md``.
PRIMAL_LIMITS = {
    "kron": ("a sliced view (layout 'A')", "`np.kron(np.ascontiguousarray(M[:2, :3]), a)`"),
    **{k: ("axis=", f"a loop over the kept axis (`for j in range(A.shape[1]): out[j] = np.{k}(A[:, j])`)")
       for k in ("max", "min", "amax", "amin", "mean", "std", "var", "prod")},
    **{k: ("axis=", f"a loop over the rows (`for i in range(A.shape[0]): B[i] = np.{k}(A[i]{x})`) for axis=1, "
                    f"or over the columns for axis=0")
       for k, x in (("roll", ", s"), ("flip", ""), ("diff", ""), ("cumprod", ""))},
    "linalg.norm": ("ord='fro' and axis=", "`np.linalg.norm(A)` (a matrix's Frobenius norm is the default); "
                                           "along an axis `np.sqrt(np.sum(A * A, axis=1))` or a loop over the rows"),
}


# --------------------------------------------------------------- small AST kit
def C(v):
    return ast.Constant(v)


def N(n, store=False):
    return ast.Name(id=n, ctx=ast.Store() if store else ast.Load())


def is_const(e, v=None):
    return isinstance(e, ast.Constant) and not isinstance(e.value, bool) and isinstance(e.value, (int, float)) \
        and (v is None or e.value == v)


def split_offset(e):
    """``(x, c)`` with ``e == x + c`` for a constant ``c``."""
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)) and is_const(e.right) \
            and type(e.right.value) is int:
        return e.left, e.right.value if isinstance(e.op, ast.Add) else -e.right.value
    return e, 0


def add(a, b):
    if is_const(b) and type(b.value) is int and not is_const(a):
        x, c = split_offset(a)
        if c:
            a, b = x, C(c + b.value)
    if is_const(a, 0):
        return b
    if is_const(b, 0):
        return a
    if is_const(a) and is_const(b):
        return C(a.value + b.value)
    if is_const(b) and b.value < 0:
        return ast.BinOp(left=a, op=ast.Sub(), right=C(-b.value))
    return ast.BinOp(left=a, op=ast.Add(), right=b)


def sub(a, b):
    if is_const(b) and type(b.value) is int:
        return add(a, C(-b.value))
    if is_const(b, 0):
        return a
    if is_const(a) and is_const(b):
        return C(a.value - b.value)
    if ast.dump(a) == ast.dump(b):
        return C(0)
    return ast.BinOp(left=a, op=ast.Sub(), right=b)


def mul(a, b):
    if is_const(a, 1):
        return b
    if is_const(b, 1):
        return a
    if is_const(a) and is_const(b):
        return C(a.value * b.value)
    return ast.BinOp(left=a, op=ast.Mult(), right=b)


def same(a, b) -> bool:
    return ast.dump(a) == ast.dump(b)


def located(nodes, like):
    """Give every node of ``nodes`` (statements) the position of ``like`` where it has none."""
    for s in nodes:
        for n in iter_nodes(s):
            if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
                ast.copy_location(n, like)
    return nodes


# ------------------------------------------------------------------ values
DT_RANK = {"bool": 0, "int64": 1, "float32": 2, "float64": 3}


def join_dtypes(dts):
    dts = [d for d in dts if d is not None]
    if not dts:
        return "float64"
    best = max(dts, key=lambda d: DT_RANK.get(d, 3))
    if best == "float32" and any(d == "int64" for d in dts):
        return "float64"
    return best


@dataclass
class Axis:
    """One axis of an array value: its extent (an expression) and whether it is 1 by construction."""
    extent: ast.expr
    unit: bool = False


class Arr:
    """An array-valued expression: ``shape`` (list of :class:`Axis`), ``dtype``; ``at(idx)``
    gives the scalar expression of the element at index expressions ``idx``."""
    shape: list
    dtype: str

    @property
    def ndim(self):
        return len(self.shape)

    def at(self, idx):
        raise NotImplementedError


@dataclass
class ViewAxis:
    """A view axis over base axis ``base`` (start + step * k, ``length`` elements), or a new unit
    axis (``base`` None)."""
    base: int | None
    start: ast.expr = None
    step: ast.expr = None
    length: ast.expr = None


@dataclass
class View:
    """A view of array ``base``: ``fixed`` base axes (axis -> index expression) and the view's
    axes in order."""
    base: str
    base_ndim: int
    dtype: str
    fixed: dict = field(default_factory=dict)
    axes: list = field(default_factory=list)

    @staticmethod
    def whole(base, ndim, dtype):
        return View(base, ndim, dtype, {}, [ViewAxis(b, C(0), C(1), _shape(base, b)) for b in range(ndim)])

    def element(self, idx):
        """Base subscript for view index ``idx``."""
        base_idx = dict(self.fixed)
        for ax, k in zip(self.axes, idx):
            if ax.base is not None:
                base_idx[ax.base] = add(ax.start, mul(ax.step, k))
        elts = [copy.deepcopy(base_idx[b]) for b in range(self.base_ndim)]
        sl = elts[0] if len(elts) == 1 else ast.Tuple(elts=elts, ctx=ast.Load())
        return ast.Subscript(value=N(self.base), slice=sl, ctx=ast.Load())

    def signature(self):
        return ast.dump(ast.Tuple(elts=[ast.Tuple(elts=[C(b), v], ctx=ast.Load()) for b, v in
                                        sorted(self.fixed.items())] +
                                  [ast.Tuple(elts=[C(-1 if a.base is None else a.base), a.start or C(0),
                                                   a.step or C(0)], ctx=ast.Load()) for a in self.axes],
                                  ctx=ast.Load()))


def _shape(arr, k):
    return ast.Subscript(value=ast.Attribute(value=N(arr), attr="shape", ctx=ast.Load()), slice=C(k), ctx=ast.Load())


class Ref(Arr):
    def __init__(self, view: View):
        self.view = view
        self.shape = [Axis(C(1), True) if a.base is None else Axis(a.length, is_const(a.length, 1))
                      for a in view.axes]
        self.dtype = view.dtype

    def at(self, idx):
        return self.view.element(idx)


class Scalar(Arr):
    def __init__(self, expr, dtype):
        self.expr, self.dtype, self.shape = expr, dtype, []

    def at(self, idx):
        return copy.deepcopy(self.expr)


class Gen(Arr):
    """An array given by a function of its index (iota, eye, elementwise combinations)."""

    def __init__(self, shape, dtype, fn):
        self.shape, self.dtype, self.fn = shape, dtype, fn

    def at(self, idx):
        return self.fn(list(idx))


def broadcast(parts, check):
    """Shape of broadcasting ``parts`` (Arr); ``check(a, b)`` is told about extents that must agree."""
    nd = max((p.ndim for p in parts), default=0)
    shape = []
    for k in range(nd):
        axes = [p.shape[p.ndim - nd + k] for p in parts if p.ndim - nd + k >= 0]
        real = [a for a in axes if not a.unit]
        if not real:
            shape.append(Axis(C(1), True))
            continue
        shape.append(real[0])
        for a in real[1:]:
            if not same(a.extent, real[0].extent):
                check(real[0].extent, a.extent)
    return shape


def bidx(p, idx, shape):
    """The index of part ``p`` for the broadcast index ``idx`` (right-aligned, unit axes -> 0)."""
    off = len(idx) - p.ndim
    return [C(0) if p.shape[k].unit else idx[off + k] for k in range(p.ndim)]


def elementwise(parts, dtype, combine, check):
    shape = broadcast(parts, check)
    if not shape:
        return Scalar(combine([p.at([]) for p in parts]), dtype)
    return Gen(shape, dtype, lambda idx: combine([p.at(bidx(p, idx, shape)) for p in parts]))


class Refused(Exception):
    def __init__(self, node, construct, hint=""):
        super().__init__(construct)
        self.node, self.construct, self.hint = node, construct, hint


def is_helper_object(obj) -> bool:
    """A function a kernel calls that adtrans inlines: an ``@njit`` dispatcher or a plain Python
    function (not one of ``math``'s or NumPy's, which are intrinsics or array functions, nor Numba's
    own, such as the ``cuda.shared.array`` stubs, which the target's extension lowers)."""
    if hasattr(obj, "py_func") or is_vectorized(obj):
        return True
    mod = getattr(obj, "__module__", None) or ""
    return callable(obj) and type(obj).__name__ == "function" and mod != "math" and \
        not mod.startswith(("numpy", "numba"))

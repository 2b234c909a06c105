"""Lists of equal-length 1-d arrays (``rows.append(X[i] * c[i])``): the row length of an appended
array, known before the loop, so that :class:`~.lists.ListLowering` can preallocate a 2-D buffer
``np.empty((capacity, row_length))`` and copy each row in.

:func:`row_length` reads the length from the shapes of the arrays in the value: ``x`` (1-d) ->
``x.shape[0]``; ``X[i]``, ``X[i, :]`` -> ``X.shape[1]``; ``X[:, j]`` -> ``X.shape[0]``; arithmetic,
NumPy's elementwise functions and ``np.copy`` of those; ``np.zeros(m)``/``ones``/``empty``/``full``
-> ``m``.  Anything else (a slice with bounds, ``x[:i]``) gives None: the caller refuses the list
with its hint to preallocate."""
from __future__ import annotations

import ast

from .listvalues import canon_of

#: NumPy functions that keep the shape of their (array) arguments.
ELEMENTWISE = frozenset({
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "exp", "expm1",
    "log", "log1p", "log2", "log10", "sqrt", "cbrt", "abs", "absolute", "fabs", "square", "negative",
    "power", "maximum", "minimum", "fmax", "fmin", "hypot", "sign", "floor", "ceil", "add", "subtract",
    "multiply", "divide", "true_divide", "reciprocal", "where", "clip", "copy", "ascontiguousarray",
})
_FILLED = frozenset({"zeros", "ones", "empty", "full"})


def _shape(arr: str, k: int) -> ast.expr:
    return ast.Subscript(value=ast.Attribute(value=ast.Name(id=arr, ctx=ast.Load()), attr="shape", ctx=ast.Load()),
                         slice=ast.Constant(k), ctx=ast.Load())


def single_defs(tree) -> dict:
    """Name -> its value, for the names ``tree`` assigns exactly once (``r = X[i] * c[i]``)."""
    seen: dict = {}
    for n in ast.walk(tree):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
            n, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
        for t in targets:
            for x in ast.walk(t):
                if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):     # not r in r[j] = v
                    seen.setdefault(x.id, []).append(n.value if isinstance(n, ast.Assign) and len(n.targets) == 1
                                                     and t is n.targets[0] and isinstance(t, ast.Name) else None)
    return {k: v[0] for k, v in seen.items() if len(v) == 1 and v[0] is not None}


def row_length(nz, e, defs=None):
    """The length of the 1-d array ``e`` as an expression of shapes, or None (see the module);
    ``defs``: :func:`single_defs`, for a name bound once to an array (``r = X[i] * c[i]``)."""
    nd = nz.ndims
    if isinstance(e, ast.Name):
        if e.id in getattr(nz, "list_info", {}):
            return None
        if defs and e.id in defs:       # from its definition, valid before the loop that binds it
            row = row_length(nz, defs[e.id], {k: v for k, v in defs.items() if k != e.id})   # no cycles
            if row is not None:
                return row
        return _shape(e.id, 0) if nd.get(e.id) == 1 else None
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in nd:
        idx = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        free = [k for k, i in enumerate(idx) if isinstance(i, ast.Slice)]
        if any(isinstance(i, ast.Slice) and (i.lower or i.upper or i.step) for i in idx):
            return None
        free += list(range(len(idx), nd[e.value.id]))
        return _shape(e.value.id, free[0]) if len(free) == 1 else None
    if isinstance(e, ast.BinOp):
        return row_length(nz, e.left, defs) or row_length(nz, e.right, defs)
    if isinstance(e, ast.UnaryOp):
        return row_length(nz, e.operand, defs)
    if isinstance(e, ast.Call) and not e.keywords or isinstance(e, ast.Call) and \
            all(k.arg == "dtype" for k in e.keywords):
        short = (canon_of(nz, e.func) or "").split(".")
        if short[0] != "numpy":
            return None
        if short[-1] in _FILLED and e.args and not isinstance(e.args[0], (ast.Tuple, ast.List)):
            return e.args[0]
        if short[-1] in ELEMENTWISE:
            return next((r for r in (row_length(nz, a, defs) for a in e.args) if r is not None), None)
    return None

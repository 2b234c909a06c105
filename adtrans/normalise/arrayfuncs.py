"""More NumPy functions for the whole-array lowering (:mod:`.arrays`): shifts, differences,
convolutions, interpolation, order statistics, NaN-ignoring reductions and shape functions.

Two kinds of entries, both read by :class:`.arrays.ArrayLowering`:

- :data:`REWRITES` (name -> function of the call returning an equivalent expression of forms the
  lowering already has): views (``np.flip(x)`` is ``x[::-1]``, ``np.expand_dims(x, 1)`` is
  ``x[:, None]``, ``np.rot90(A)`` is ``A[:, ::-1].T``, ``np.swapaxes`` a transposition), stacking
  (``column_stack``, ``dstack`` as ``concatenate`` of views) and formulas of reductions (``np.ptp``
  is ``max - min``, ``np.average`` ``sum(a * w) / sum(w)``, ``np.trapezoid``, ``np.nansum`` the sum
  of ``np.where(np.isnan(x), 0.0, x)``: NaN entries contribute nothing; ``np.nanvar``/``nanstd``
  NumPy's two passes over the non-NaN entries; ``np.nonzero(m)[0]`` of a 1-d ``m`` is
  ``np.flatnonzero(m)``).  The lowering rewrites a statement's calls first (:func:`rewrite_calls`),
  so a view function bound to a name is a view (writes through it reach the base array, as in NumPy).
- :data:`VALUES` (name -> ``(ndim, value)``): element functions and loops written here, with the
  lowering's values (:mod:`.arrayvalues`): ``np.roll`` (a shifted index), ``np.diff``/``ediff1d``,
  ``np.cumprod`` (a running product, a carried scalar), ``np.convolve``/``np.correlate`` (one
  accumulation per output element over the overlapping range), ``np.interp`` (a constant
  ``searchsorted`` index, then the linear formula: derivatives w.r.t. ``x``, ``fp`` and ``xp``),
  ``np.cross``, ``np.kron`` (a product of a floor-divided and a
  wrapped index), ``np.tri``, ``np.diagflat``, ``np.broadcast_to``, ``np.repeat``, ``np.take``,
  ``np.median``/``np.percentile``/``np.quantile`` (through the sort permutation, as ``np.sort``:
  the adjoint goes to the one or two order statistics read).

Every value is an ordinary loop or index expression, so every loop strategy serves it and the
derivatives come from the engine; nothing here knows a derivative.
"""
from __future__ import annotations

import ast
import copy

from .varlength import note_data_shaped
from .arrayvalues import Axis, Gen, Ref, Scalar, View, C, N, add, bidx, broadcast, elementwise, is_const, \
    join_dtypes, sub

# ------------------------------------------------------------------ helpers


def _args(lw, call, args, kw, names, defaults=None):
    """Positional ``args`` and keywords ``kw`` of ``call`` bound to parameter ``names``; a name
    neither passed nor in ``defaults`` is None.  Unknown keywords are refused with the line."""
    defaults = defaults or {}
    extra = set(kw) - set(names)
    if extra or len(args) > len(names):
        fname = lw.function_of(call)[0]
        what = f"keyword `{sorted(extra)[0]}`" if extra else f"{len(args)} arguments"
        raise lw.err(call, f"np.{fname} with {what}", f"call it as np.{fname}({', '.join(names)})")
    out = dict(zip(names, args))
    for k in names:
        if k not in out:
            out[k] = kw.get(k, defaults.get(k))
    return out


def _none(e):
    return e is None or (isinstance(e, ast.Constant) and e.value is None)


def _const_int(lw, call, e, what):
    """The value of a constant integer argument (``-1`` too), else refused with the line."""
    try:
        v = ast.literal_eval(e)
    except ValueError:
        v = None
    if not isinstance(v, int) or isinstance(v, bool):
        raise lw.err(call, f"np.{lw.function_of(call)[0]} with a variable or non-integer {what} "
                           f"`{ast.unparse(e)}`", f"use a constant integer {what}")
    return v


def _axis_of(lw, call, e, ndim, what="axis"):
    ax = _const_int(lw, call, e, what)
    if not -ndim <= ax < ndim:
        raise lw.err(call, f"{what} {ax} of a {ndim}-d array in `{ast.unparse(call)}`")
    return ax % ndim


def _np(lw, fn, *args, **kws):
    return ast.Call(func=lw.npf(fn), args=list(args), keywords=[ast.keyword(arg=k, value=v) for k, v in kws.items()])


def _sub(x, items):
    """``x[items]`` (slices, ``None``); a single item unwrapped."""
    sl = items[0] if len(items) == 1 else ast.Tuple(elts=items, ctx=ast.Load())
    return ast.Subscript(value=copy.deepcopy(x), slice=sl, ctx=ast.Load())


def _all():
    return ast.Slice()


def _rev():
    return ast.Slice(step=ast.UnaryOp(op=ast.USub(), operand=C(1)))


def _float(dt):
    return dt if dt.startswith("float") else "float64"


def _assign(t, v):
    return ast.Assign(targets=[t if isinstance(t, ast.expr) else N(t, True)], value=v)


def _store(t, idx, v):
    sl = idx[0] if len(idx) == 1 else ast.Tuple(elts=[copy.deepcopy(i) for i in idx], ctx=ast.Load())
    return ast.Assign(targets=[ast.Subscript(value=N(t), slice=sl, ctx=ast.Store())], value=v)


def _alloc(lw, t, ext, dt, pre, like):
    pre.append(ast.copy_location(_assign(t, _np(lw, "empty", ast.Tuple(elts=[copy.deepcopy(x) for x in ext],
                                                                         ctx=ast.Load()),
                                                dtype=lw.npf({"bool": "bool_"}.get(dt, dt)))), like))
    lw.info[t] = (len(ext), dt)


def _cmp(a, op, b):
    return ast.Compare(left=a, ops=[op()], comparators=[b])


def _call(f, *a):
    return ast.Call(func=N(f), args=list(a), keywords=[])


# ----------------------------------------------------------------- rewrites
def _flip(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("m", "axis"))
    nd = lw.ndim(a["m"])
    if nd == 0:
        raise lw.err(call, "np.flip of a scalar")
    axes = range(nd) if _none(a["axis"]) else [_axis_of(lw, call, a["axis"], nd)]
    return _sub(a["m"], [_rev() if k in axes else _all() for k in range(nd)])


def _flip_axis(k):
    def rw(lw, call, args, kw):
        a = _args(lw, call, args, kw, ("m",))
        nd = lw.ndim(a["m"])
        if nd < k + 1:
            raise lw.err(call, f"np.{lw.function_of(call)[0]} of a {nd}-d array", f"it needs {k + 1} dimensions")
        return _sub(a["m"], [_rev() if j == k else _all() for j in range(nd)])
    return rw


def _rot90(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("m", "k", "axes"), {"k": C(1)})
    if a["axes"] is not None or lw.ndim(a["m"]) != 2:
        raise lw.err(call, "np.rot90 other than of a 2-d array in its first two axes",
                     "slices and .T: np.rot90(A) is A[:, ::-1].T")
    k = _const_int(lw, call, a["k"], "k") % 4
    m = a["m"]
    if k == 0:
        return _sub(m, [_all(), _all()])
    if k == 1:
        return ast.Attribute(value=_sub(m, [_all(), _rev()]), attr="T", ctx=ast.Load())
    if k == 2:
        return _sub(m, [_rev(), _rev()])
    return _sub(ast.Attribute(value=copy.deepcopy(m), attr="T", ctx=ast.Load()), [_all(), _rev()])


def _transposed(lw, x, perm):
    return _np(lw, "transpose", copy.deepcopy(x), ast.Tuple(elts=[C(p) for p in perm], ctx=ast.Load()))


def _swapaxes(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("a", "axis1", "axis2"))
    nd = lw.ndim(a["a"])
    i, j = _axis_of(lw, call, a["axis1"], nd, "axis1"), _axis_of(lw, call, a["axis2"], nd, "axis2")
    perm = list(range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return _transposed(lw, a["a"], perm)


def _moveaxis(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("a", "source", "destination"))
    nd = lw.ndim(a["a"])
    s = _axis_of(lw, call, a["source"], nd, "source")
    d = _axis_of(lw, call, a["destination"], nd, "destination")
    perm = [k for k in range(nd) if k != s]
    perm.insert(d, s)
    return _transposed(lw, a["a"], perm)


def _expand_dims(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("a", "axis"))
    nd = lw.ndim(a["a"])
    ax = _axis_of(lw, call, a["axis"], nd + 1)
    return _sub(a["a"], [_all()] * ax + [C(None)] + [_all()] * (nd - ax))


def _atleast(k):
    def rw(lw, call, args, kw):
        if len(args) != 1 or kw:
            raise lw.err(call, f"np.atleast_{k}d of several arrays", f"call np.atleast_{k}d once per array")
        x = args[0]
        nd = lw.ndim(x)
        if nd == 0:
            raise lw.err(call, f"np.atleast_{k}d of a scalar (Numba compiles it for arrays only)",
                         "np.array([v]) or np.full(1, v)")
        if nd >= k:
            return copy.deepcopy(x)
        if k == 2:
            return _sub(x, [C(None), _all()])
        return _sub(x, [C(None), _all(), C(None)] if nd == 1 else [_all(), _all(), C(None)])
    return rw


def _seq(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("tup",))
    if not isinstance(a["tup"], (ast.Tuple, ast.List)):
        raise lw.err(call, f"np.{lw.function_of(call)[0]} of `{ast.unparse(a['tup'])}`",
                     "pass a tuple of arrays: np.column_stack((a, b))")
    return a["tup"].elts


def _column_stack(lw, call, args, kw):
    parts = [_sub(p, [_all(), C(None)]) if lw.ndim(p) == 1 else copy.deepcopy(p) for p in _seq(lw, call, args, kw)]
    return _np(lw, "concatenate", ast.Tuple(elts=parts, ctx=ast.Load()), axis=C(1))


def _row_stack(lw, call, args, kw):
    return _np(lw, "vstack", ast.Tuple(elts=[copy.deepcopy(p) for p in _seq(lw, call, args, kw)], ctx=ast.Load()))


def _dstack(lw, call, args, kw):
    parts = []
    for p in _seq(lw, call, args, kw):
        nd = lw.ndim(p)
        parts.append(_sub(p, [C(None), _all(), C(None)]) if nd == 1 else
                     _sub(p, [_all(), _all(), C(None)]) if nd == 2 else copy.deepcopy(p))
    return _np(lw, "concatenate", ast.Tuple(elts=parts, ctx=ast.Load()), axis=C(2))


def _identity(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("n",))
    return _np(lw, "eye", copy.deepcopy(a["n"]))


def _ptp(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("a",))
    return ast.BinOp(left=_np(lw, "max", copy.deepcopy(a["a"])), op=ast.Sub(),
                     right=_np(lw, "min", copy.deepcopy(a["a"])))


def _average(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("a", "axis", "weights"))
    if not _none(a["axis"]):
        raise lw.err(call, "np.average with axis= (Numba compiles it without)",
                     "np.mean(A, axis=k), or np.sum(A * w, axis=k) / np.sum(w)")
    if _none(a["weights"]):
        return _np(lw, "mean", copy.deepcopy(a["a"]))
    w = a["weights"]
    return ast.BinOp(left=_np(lw, "sum", ast.BinOp(left=copy.deepcopy(a["a"]), op=ast.Mult(), right=copy.deepcopy(w))),
                     op=ast.Div(), right=_np(lw, "sum", copy.deepcopy(w)))


def _trapezoid(lw, call, args, kw):
    a = _args(lw, call, args, kw, ("y", "x", "dx", "axis"), {"dx": C(1.0)})
    y = a["y"]
    if lw.ndim(y) != 1 or not _none(a["axis"]):
        raise lw.err(call, "np.trapezoid other than of a 1-d array", "integrate each row: np.trapezoid(A[i])")
    mean = ast.BinOp(left=ast.BinOp(left=_sub(y, [ast.Slice(lower=C(1))]), op=ast.Add(),
                                    right=_sub(y, [ast.Slice(upper=ast.UnaryOp(op=ast.USub(), operand=C(1)))])),
                     op=ast.Div(), right=C(2.0))
    if _none(a["x"]):
        d = copy.deepcopy(a["dx"])
    else:
        x = a["x"]
        if lw.ndim(x) != 1:
            raise lw.err(call, "np.trapezoid with a sample array x that is not 1-d")
        d = ast.BinOp(left=_sub(x, [ast.Slice(lower=C(1))]), op=ast.Sub(),
                      right=_sub(x, [ast.Slice(upper=ast.UnaryOp(op=ast.USub(), operand=C(1)))]))
    return _np(lw, "sum", ast.BinOp(left=d, op=ast.Mult(), right=mean))


def _isnan(lw, x):
    return _np(lw, "isnan", copy.deepcopy(x))


def _nan_reduction(kind):
    def rw(lw, call, args, kw):
        a = _args(lw, call, args, kw, ("a",))
        x = a["a"]
        if kind in ("sum", "prod"):
            return _np(lw, kind, _np(lw, "where", _isnan(lw, x), C(0.0 if kind == "sum" else 1.0), copy.deepcopy(x)))
        if kind == "mean":
            # all NaN: NaN, as Numba (not 0.0 / 0.0, a ZeroDivisionError in compiled code)
            mean = ast.BinOp(left=_np(lw, "sum", _np(lw, "where", _isnan(lw, x), C(0.0), copy.deepcopy(x))),
                             op=ast.Div(), right=_np(lw, "sum", _np(lw, "where", _isnan(lw, x), C(0.0), C(1.0))))
            return ast.IfExp(test=_np(lw, "all", _isnan(lw, x)), body=lw.npf("nan"), orelse=mean)
        if kind in ("var", "std"):
            # two passes, as NumPy: the mean of the non-NaN entries, then their squared deviations
            count = _np(lw, "sum", _np(lw, "where", _isnan(lw, x), C(0.0), C(1.0)))
            mean = ast.BinOp(left=_np(lw, "sum", _np(lw, "where", _isnan(lw, x), C(0.0), copy.deepcopy(x))),
                             op=ast.Div(), right=count)
            dev = ast.BinOp(left=ast.BinOp(left=copy.deepcopy(x), op=ast.Sub(), right=mean), op=ast.Pow(), right=C(2))
            var = ast.BinOp(left=_np(lw, "sum", _np(lw, "where", _isnan(lw, x), C(0.0), dev)), op=ast.Div(),
                            right=copy.deepcopy(count))
            value = var if kind == "var" else _np(lw, "sqrt", var)
            return ast.IfExp(test=_np(lw, "all", _isnan(lw, x)), body=lw.npf("nan"), orelse=value)
        inf = lw.npf("inf")
        fill = ast.UnaryOp(op=ast.USub(), operand=inf) if kind == "max" else inf
        # all NaN: NaN, as NumPy (the reduction over the rest is then never read)
        return ast.IfExp(test=_np(lw, "all", _isnan(lw, x)), body=lw.npf("nan"),
                         orelse=_np(lw, kind, _np(lw, "where", _isnan(lw, x), fill, copy.deepcopy(x))))
    return rw


def _attribute(attr):
    def rw(lw, call, args, kw):
        a = _args(lw, call, args, kw, ("a",))
        return ast.Attribute(value=copy.deepcopy(a["a"]), attr=attr, ctx=ast.Load())
    return rw


#: name -> rewrite (see the module docstring)
REWRITES = {
    "flip": _flip, "fliplr": _flip_axis(1), "flipud": _flip_axis(0), "rot90": _rot90,
    "swapaxes": _swapaxes, "moveaxis": _moveaxis, "expand_dims": _expand_dims,
    "atleast_1d": _atleast(1), "atleast_2d": _atleast(2), "atleast_3d": _atleast(3),
    "column_stack": _column_stack, "row_stack": _row_stack, "dstack": _dstack, "identity": _identity,
    "ptp": _ptp, "average": _average, "trapezoid": _trapezoid,
    "nansum": _nan_reduction("sum"), "nanprod": _nan_reduction("prod"), "nanmean": _nan_reduction("mean"),
    "nanmax": _nan_reduction("max"), "nanmin": _nan_reduction("min"),
    "nanvar": _nan_reduction("var"), "nanstd": _nan_reduction("std"),
    "shape": _attribute("shape"), "size": _attribute("size"),
}


def _nonzero_part(lw, call, part):
    """``np.nonzero(m)[0]`` (also ``m.nonzero()[0]``, ``np.where(m)[0]``) of a 1-d ``m``: ``np.flatnonzero(m)``, a
    constant index array; ``np.nonzero(m)[k]`` of a d-d ``m``: ``np.argwhere(m)[:, k]`` (the same
    indices, row-major order)."""
    method = lw.function_of(call)[0] is None          # m.nonzero()
    args = ([call.func.value] if method else []) + list(call.args)
    if len(args) != 1 or call.keywords:
        raise lw.err(call, f"`{ast.unparse(call)}`", "np.nonzero(m) of one array")
    d = lw.ndim(args[0])
    if d < 1 or not (isinstance(part, ast.Constant) and type(part.value) is int and -d <= part.value < d):
        raise lw.err(call, f"`{ast.unparse(call)}[{ast.unparse(part)}]` of a {d}-d array",
                     f"a constant index from 0 to {d - 1} (the tuple has one index array per axis)" if d else
                     "np.nonzero of an array")
    if d == 1:
        return _np(lw, "flatnonzero", copy.deepcopy(args[0]))
    # axis k's indices of the true elements, in row-major order: column k of np.argwhere(m)
    return ast.Subscript(value=_np(lw, "argwhere", copy.deepcopy(args[0])),
                         slice=ast.Tuple(elts=[ast.Slice(), ast.Constant(part.value % d)], ctx=ast.Load()),
                         ctx=ast.Load())


def _split_mixed_index(lw, node):
    """A read ``x[mask, t]`` (one array index, only integers before it, integers or slices after it)
    as ``x[:, t][mask]``: the basic indices first (a view whose first axis is the array index's),
    then the one gather or mask; NumPy's and Numba's meaning, since the array index's axis leads the
    result either way.  Other mixes are left to :meth:`ArrayLowering.ndim` to refuse."""
    if not isinstance(node.slice, ast.Tuple) or lw.ndim(node.value) == 0:
        return node
    elts = node.slice.elts
    arrays = [k for k, x in enumerate(elts) if not isinstance(x, ast.Slice) and lw.ndim(x) > 0]
    if len(arrays) != 1:
        return node
    k = arrays[0]
    if any(isinstance(x, ast.Slice) or lw.newaxis(x) for x in elts[:k]) or any(lw.newaxis(x) for x in elts[k + 1:]):
        return node
    basic = [ast.Slice() if j == k else x for j, x in enumerate(elts)]
    view = ast.copy_location(ast.Subscript(value=node.value, slice=ast.Tuple(elts=basic, ctx=ast.Load()),
                                           ctx=ast.Load()), node)
    return ast.copy_location(ast.Subscript(value=view, slice=elts[k], ctx=ast.Load()), node)


def _histogram_part(lw, call, part):
    """``np.histogram(a, bins, range)`` as Numba computes it: ``[0]``, the counts, a constant call
    (marked, so it is not split again); ``[1]``, the bin edges, ``bins`` itself for an array of
    edges, else ``np.linspace(lo, hi, bins + 1)`` with ``lo, hi`` the ``range`` or ``a``'s minimum and
    maximum, so the edges are differentiated; ``part`` None: the tuple of both."""
    a = _args(lw, call, list(call.args), {k.arg: k.value for k in call.keywords}, ("a", "bins", "range"),
              {"bins": C(10)})
    if part is not None and not (isinstance(part, ast.Constant) and part.value in (0, 1)):
        raise lw.err(call, f"`{ast.unparse(call)}[{ast.unparse(part)}]`",
                     "counts, edges = np.histogram(a, bins) (the tuple has two parts)")
    counts = copy.deepcopy(call)
    counts.adtrans_counts = True
    if part is not None and part.value == 0:
        return counts
    bins, rng = a["bins"], a["range"]
    if lw.ndim(bins) > 0:
        edges = _np(lw, "copy", copy.deepcopy(bins))
    else:
        if _none(rng):
            lo, hi = _np(lw, "min", copy.deepcopy(a["a"])), _np(lw, "max", copy.deepcopy(a["a"]))
        elif isinstance(rng, ast.Tuple) and len(rng.elts) == 2:
            lo, hi = (copy.deepcopy(x) for x in rng.elts)
        else:
            lo, hi = (ast.Subscript(value=copy.deepcopy(rng), slice=C(k), ctx=ast.Load()) for k in (0, 1))
        edges = _np(lw, "linspace", lo, hi, add(copy.deepcopy(bins), C(1)))
    edges = ast.copy_location(edges, call)
    if part is not None:
        return edges
    return ast.Tuple(elts=[counts, edges], ctx=ast.Load())


def _is_histogram(lw, e):
    return isinstance(e, ast.Call) and lw.function_of(e)[0] == "histogram" and not getattr(e, "adtrans_counts", False)


def rewrite_calls(lw, s):
    """Statement ``s`` with every call of a :data:`REWRITES` function replaced by its rewrite
    (innermost first; the bodies of compound statements are left to their own turn), and mixed
    reads ``x[mask, t]`` split (:func:`_split_mixed_index`)."""

    class R(ast.NodeTransformer):
        def visit_Subscript(self, node):
            if _is_histogram(lw, node.value):
                node.value.args = [self.visit(a) for a in node.value.args]
                return ast.copy_location(_histogram_part(lw, node.value, node.slice), node)
            self.generic_visit(node)
            call = node.value
            # np.where(c)[k] is np.nonzero(c)[k] (NumPy: where with the condition alone)
            one_arg_where = isinstance(call, ast.Call) and lw.function_of(call)[0] == "where" and \
                len(call.args) == 1 and not call.keywords
            if one_arg_where or isinstance(call, ast.Call) and (lw.function_of(call)[0] == "nonzero" or isinstance(
                    call.func, ast.Attribute) and call.func.attr == "nonzero" and lw.ndim(call.func.value) > 0):
                return ast.copy_location(_nonzero_part(lw, node.value, node.slice), node)
            if isinstance(node.ctx, ast.Load):
                return _split_mixed_index(lw, node)
            return node

        def visit_Call(self, node):
            self.generic_visit(node)
            name, recv = lw.function_of(node)
            if _is_histogram(lw, node):
                return ast.copy_location(_histogram_part(lw, node, None), node)
            if name not in REWRITES:
                return node
            args = ([recv] if recv is not None else []) + list(node.args)
            kw = {k.arg: k.value for k in node.keywords}
            return ast.copy_location(REWRITES[name](lw, node, args, kw), node)

    r = R()
    for fld, val in ast.iter_fields(s):
        if isinstance(val, ast.expr):
            setattr(s, fld, r.visit(val))
        elif isinstance(val, list) and val and all(isinstance(v, ast.expr) for v in val):
            setattr(s, fld, [r.visit(v) for v in val])
    return s


# ------------------------------------------------------------------- values
def _roll(lw, call, args, kw, pre):
    """``np.roll(x, shift, axis)``: element ``i`` reads ``x[i - shift]`` modulo the extent (the
    flattened array without ``axis``); the shift is reduced once, so the index is one compare."""
    a = _args(lw, call, args, kw, ("a", "shift", "axis"))
    if isinstance(a["shift"], (ast.Tuple, ast.List)) or isinstance(a["axis"], (ast.Tuple, ast.List)):
        raise lw.err(call, "np.roll with a tuple of shifts or axes", "roll one axis at a time")
    x = lw.value(a["a"], pre)
    if x.ndim == 0:
        raise lw.err(call, "np.roll of a scalar")
    flat = _none(a["axis"])
    src = lw.flat(x, pre, call) if flat else x
    ax = 0 if flat else _axis_of(lw, call, a["axis"], x.ndim)
    n = lw.extent_atom(src.shape[ax], pre)
    sh, back = lw.fresh("shift"), lw.fresh("back")
    lw.sdt[sh] = lw.sdt[back] = "int64"
    shift = lw.scalar(a["shift"], pre)
    pre.append(ast.copy_location(_assign(sh, ast.IfExp(test=_cmp(copy.deepcopy(n), ast.Gt, C(0)), body=ast.BinOp(
        left=shift, op=ast.Mod(), right=copy.deepcopy(n)), orelse=C(0))), call))
    pre.append(ast.copy_location(_assign(back, sub(copy.deepcopy(n), N(sh))), call))

    def at(idx):
        i = idx[ax]
        j = ast.IfExp(test=_cmp(copy.deepcopy(i), ast.Lt, N(sh)), body=add(copy.deepcopy(i), N(back)),
                      orelse=sub(copy.deepcopy(i), N(sh)))
        return src.at(list(idx[:ax]) + [j] + list(idx[ax + 1:]))
    out = Gen(list(src.shape), src.dtype, at)
    if flat and x.ndim > 1:
        return lw.reshape(out, [lw.extent_atom(s, pre) for s in x.shape], pre, call)
    return out


def _diff_steps(lw, call, x, n, ax, pre):
    for level in range(n):
        cur = x
        ext = cur.shape[ax].extent
        shape = list(cur.shape)
        shape[ax] = Axis(C(max(ext.value - 1, 0)) if is_const(ext) else sub(copy.deepcopy(ext), C(1)))

        def at(idx, cur=cur):
            nxt = list(idx)
            nxt[ax] = add(copy.deepcopy(idx[ax]), C(1))
            return ast.BinOp(left=cur.at(nxt), op=ast.Sub(), right=cur.at([copy.deepcopy(i) for i in idx]))
        x = Gen(shape, cur.dtype if cur.dtype != "bool" else "int64", at)
        if level < n - 1:
            t = lw.materialise(x, pre, call, "diff")
            x = Ref(View.whole(t, x.ndim, x.dtype))
    return x


def _diff(lw, call, args, kw, pre):
    """``np.diff(x, n, axis)``: ``x[k + 1] - x[k]`` along the axis, ``n`` times (each difference but
    the last stored, so every level reads its own array)."""
    a = _args(lw, call, args, kw, ("a", "n", "axis"), {"n": C(1), "axis": C(-1)})
    x = lw.value(a["a"], pre)
    if x.ndim == 0:
        raise lw.err(call, "np.diff of a scalar")
    n = _const_int(lw, call, a["n"], "n")
    if n < 0:
        raise lw.err(call, f"np.diff with n = {n}", "n must be >= 0")
    return _diff_steps(lw, call, x, n, _axis_of(lw, call, a["axis"], x.ndim), pre)


def _ediff1d(lw, call, args, kw, pre):
    a = _args(lw, call, args, kw, ("ary", "to_end", "to_begin"))
    if not (_none(a["to_end"]) and _none(a["to_begin"])):
        raise lw.err(call, "np.ediff1d with to_end/to_begin", "np.concatenate((begin, np.ediff1d(x), end))")
    return _diff_steps(lw, call, lw.flat(lw.value(a["ary"], pre), pre, call), 1, 0, pre)


def _cumprod(lw, call, args, kw, pre):
    """``np.cumprod(x[, axis])``: a running product per line (the flattened array without axis)."""
    a = _args(lw, call, args, kw, ("a", "axis"))
    x = lw.value(a["a"], pre)
    flat = _none(a["axis"]) or x.ndim == 1
    if flat:
        x = lw.flat(x, pre, call)
    ax = 0 if flat else _axis_of(lw, call, a["axis"], x.ndim)
    dt = "int64" if x.dtype == "bool" else x.dtype
    tmp, acc = lw.fresh("cumprod"), lw.fresh("running")
    lw.sdt[acc] = dt
    _alloc(lw, tmp, [lw.extent_atom(s, pre) for s in x.shape], dt, pre, call)
    one = C(1.0) if dt.startswith("float") else C(1)
    pre += lw.along(x, ax, pre, call, "cumprod", lambda full: [
        ast.AugAssign(target=N(acc, True), op=ast.Mult(), value=x.at(full)), _store(tmp, full, N(acc))],
        lambda rest: [_assign(acc, copy.deepcopy(one))], lambda rest: [])
    return Ref(View.whole(tmp, x.ndim, dt))


def _convolution(kind):
    def value(lw, call, args, kw, pre):
        """``np.convolve(a, v, mode)`` / ``np.correlate``: output ``k`` of the full convolution
        is ``sum_j a[k - j] v[j]`` over the overlap; 'same' and 'valid' are its middle parts
        (offsets ``(min(n, m) - 1) // 2`` and ``min(n, m) - 1``); ``correlate(a, v)`` is
        ``convolve(a, v[::-1])``.  One accumulation per output element (a gather: no scatter)."""
        a = _args(lw, call, args, kw, ("a", "v", "mode"), {"mode": C("full" if kind == "convolve" else "valid")})
        mode = a["mode"]
        if not (isinstance(mode, ast.Constant) and mode.value in ("full", "same", "valid")):
            raise lw.err(call, f"np.{kind} with mode `{ast.unparse(mode)}`", "use 'full', 'same' or 'valid'")
        x, v = lw.value(a["a"], pre), lw.value(a["v"], pre)
        if x.ndim != 1 or v.ndim != 1:
            raise lw.err(call, f"np.{kind} of arrays that are not 1-d")
        na, nv = lw.extent_atom(x.shape[0], pre), lw.extent_atom(v.shape[0], pre)
        if kind == "correlate":
            vv = v
            v = Gen(list(v.shape), v.dtype, lambda idx: vv.at([sub(sub(copy.deepcopy(nv), C(1)), idx[0])]))
        dt = join_dtypes([x.dtype, v.dtype, "float64" if "float" not in x.dtype + v.dtype else None])
        m = mode.value
        if m == "full":
            length, off = sub(add(copy.deepcopy(na), copy.deepcopy(nv)), C(1)), C(0)
        else:
            lo = lw.fresh("shorter")
            lw.sdt[lo] = "int64"
            pre.append(ast.copy_location(_assign(lo, _call("min", copy.deepcopy(na), copy.deepcopy(nv))), call))
            hi = _call("max", copy.deepcopy(na), copy.deepcopy(nv))
            if m == "same":
                length, off = hi, ast.BinOp(left=sub(N(lo), C(1)), op=ast.FloorDiv(), right=C(2))
            else:
                length, off = add(sub(hi, N(lo)), C(1)), sub(N(lo), C(1))
        n = lw.fresh("n")
        lw.sdt[n] = "int64"
        pre.append(ast.copy_location(_assign(n, length), call))
        shift = None
        if not is_const(off, 0):
            shift = lw.fresh("offset")
            lw.sdt[shift] = "int64"
            pre.append(ast.copy_location(_assign(shift, off), call))
        tmp, acc, j = lw.fresh(kind), lw.fresh("acc"), lw.fresh("j")
        lw.sdt[acc], lw.sdt[j] = dt, "int64"
        _alloc(lw, tmp, [N(n)], dt, pre, call)

        def body(idx):
            k = idx[0] if shift is None else add(copy.deepcopy(idx[0]), N(shift))
            first = _call("max", C(0), add(sub(copy.deepcopy(k), copy.deepcopy(na)), C(1)))
            last = _call("min", copy.deepcopy(nv), add(copy.deepcopy(k), C(1)))
            inner = ast.For(target=N(j, True), iter=_call("range", first, last), body=[ast.AugAssign(
                target=N(acc, True), op=ast.Add(), value=ast.BinOp(
                    left=x.at([sub(copy.deepcopy(k), N(j))]), op=ast.Mult(), right=v.at([N(j)])))], orelse=[])
            return [_assign(acc, C(0.0) if dt.startswith("float") else C(0)), inner, _store(tmp, idx, N(acc))]
        pre += lw.loops([N(n)], body, call, ["k"])
        return Ref(View.whole(tmp, 1, dt))
    return value


def _interp(lw, call, args, kw, pre):
    """``np.interp(x, xp, fp)``: per element, below ``xp[0]`` ``fp[0]``, from ``xp[-1]`` on
    ``fp[-1]``, else ``slope * (x - xp[j]) + fp[j]`` with ``j`` the constant index of
    ``np.searchsorted(xp, x, side='right') - 1`` (NumPy's formula), so the gradient goes to
    ``x`` (the slope), ``fp`` (the two weights) and ``xp`` where they are active."""
    a = _args(lw, call, args, kw, ("x", "xp", "fp", "left", "right", "period"))
    if not (_none(a["left"]) and _none(a["right"]) and _none(a["period"])):
        raise lw.err(call, "np.interp with left/right/period (Numba compiles np.interp(x, xp, fp))",
                     "np.where(x < xp[0], left, np.interp(x, xp, fp)) for an outside value")
    xp, fp = lw.value(a["xp"], pre), lw.value(a["fp"], pre)
    if xp.ndim != 1 or fp.ndim != 1:
        raise lw.err(call, "np.interp with xp or fp not 1-d")
    lw.check(xp.shape[0].extent, fp.shape[0].extent, pre, call, "fp and xp are not of the same length")
    xp_name = lw.materialise(xp, pre, call, "xp")
    xq = lw.value(a["x"], pre)
    n = lw.extent_atom(xp.shape[0], pre)
    last = sub(copy.deepcopy(n), C(1))
    dt = _float(join_dtypes([xq.dtype, fp.dtype]))
    xi, j = lw.fresh("xi"), lw.fresh("j")
    lw.sdt[xi], lw.sdt[j] = _float(xq.dtype), "int64"

    def element(target, xval):
        lo = xp.at([N(j)])
        slope = ast.BinOp(left=sub(fp.at([add(N(j), C(1))]), fp.at([N(j)])), op=ast.Div(),
                          right=sub(xp.at([add(N(j), C(1))]), xp.at([N(j)])))
        find = ast.Call(func=lw.npf("searchsorted"), args=[N(xp_name), N(xi)],
                        keywords=[ast.keyword(arg="side", value=C("right"))])
        inside = [_assign(j, _call("min", sub(find, C(1)), sub(copy.deepcopy(n), C(2)))),
                  _assign(copy.deepcopy(target), ast.BinOp(left=ast.BinOp(left=slope, op=ast.Mult(),
                                                                          right=sub(N(xi), lo)),
                                                           op=ast.Add(), right=fp.at([N(j)])))]
        return [_assign(xi, xval), ast.If(test=_cmp(N(xi), ast.Lt, xp.at([C(0)])),
                                          body=[_assign(copy.deepcopy(target), fp.at([C(0)]))],
                                          orelse=[ast.If(test=_cmp(N(xi), ast.GtE, xp.at([copy.deepcopy(last)])),
                                                         body=[_assign(copy.deepcopy(target),
                                                                       fp.at([copy.deepcopy(last)]))],
                                                         orelse=inside)])]
    if xq.ndim == 0:
        t = lw.fresh("interp")
        lw.sdt[t] = dt
        pre += [ast.copy_location(s, call) for s in element(N(t, True), xq.at([]))]
        return Scalar(N(t), dt)
    tmp = lw.fresh("interp")
    ext = [lw.extent_atom(s, pre) for s in xq.shape]
    _alloc(lw, tmp, ext, dt, pre, call)
    pre += lw.loops(ext, lambda idx: element(ast.Subscript(value=N(tmp), slice=idx[0] if len(idx) == 1 else
                                                            ast.Tuple(elts=list(idx), ctx=ast.Load()),
                                                            ctx=ast.Store()), xq.at(idx)), call)
    return Ref(View.whole(tmp, xq.ndim, dt))


def _cross(lw, call, args, kw, pre):
    """``np.cross(a, b)`` of 3-vectors (the last axis; leading axes broadcast): component ``c``
    is ``a[c+1] b[c+2] - a[c+2] b[c+1]`` (indices mod 3)."""
    a = _args(lw, call, args, kw, ("a", "b"))
    x, y = lw.value(a["a"], pre), lw.value(a["b"], pre)
    if x.ndim == 0 or y.ndim == 0:
        raise lw.err(call, "np.cross of a scalar")
    for p in (x, y):
        e = p.shape[-1].extent
        if is_const(e) and e.value != 3:
            raise lw.err(call, f"np.cross of vectors of {e.value} components",
                         "3-vectors only (Numba refuses 2-vectors: write a[0] * b[1] - a[1] * b[0])")
        lw.check(copy.deepcopy(e), C(3), pre, call, "np.cross: the vectors must have 3 components")
    shape = broadcast([x, y], lambda p, q: lw.check(p, q, pre, call))
    shape[-1] = Axis(C(3))

    def at(idx):
        c = idx[-1]

        def comp(p, k):
            i = list(bidx(p, idx, shape))
            i[-1] = ast.BinOp(left=add(copy.deepcopy(c), C(k)), op=ast.Mod(), right=C(3))
            return p.at(i)
        return ast.BinOp(left=ast.BinOp(left=comp(x, 1), op=ast.Mult(), right=comp(y, 2)), op=ast.Sub(),
                         right=ast.BinOp(left=comp(x, 2), op=ast.Mult(), right=comp(y, 1)))
    return Gen(shape, _float(join_dtypes([x.dtype, y.dtype])), at)


def _tri(lw, call, args, kw, pre):
    a = _args(lw, call, args, kw, ("N", "M", "k"), {"k": C(0)})
    n = lw.scalar(a["N"], pre)
    m = n if _none(a["M"]) else lw.scalar(a["M"], pre)
    k = lw.scalar(a["k"], pre)
    return Gen([Axis(n), Axis(copy.deepcopy(m))], "float64", lambda idx: ast.IfExp(
        test=_cmp(idx[1], ast.LtE, add(idx[0], copy.deepcopy(k))), body=C(1.0), orelse=C(0.0)))


def _diagflat(lw, call, args, kw, pre):
    a = _args(lw, call, args, kw, ("v", "k"), {"k": C(0)})
    x = lw.flat(lw.value(a["v"], pre), pre, call)
    k = _const_int(lw, call, a["k"], "k")
    n = add(copy.deepcopy(x.shape[0].extent), C(abs(k)))
    zero = C(0.0) if x.dtype.startswith("float") else C(0)

    def at(idx):
        i, j = idx
        pos = i if k >= 0 else j
        return ast.IfExp(test=_cmp(sub(copy.deepcopy(j), copy.deepcopy(i)), ast.Eq, C(k)),
                         body=x.at([copy.deepcopy(pos)]), orelse=copy.deepcopy(zero))
    return Gen([Axis(n), Axis(copy.deepcopy(n))], x.dtype, at)


def _broadcast_to(lw, call, args, kw, pre):
    """``np.broadcast_to(x, shape)``: a read-only value; ``x``'s axes align right and must be 1 by
    construction or agree with ``shape`` (checked at run time)."""
    a = _args(lw, call, args, kw, ("array", "shape"))
    x = lw.value(a["array"], pre)
    shape = lw.shape_axes(a["shape"], pre)
    if x.ndim > len(shape):
        raise lw.err(call, "np.broadcast_to a shape of fewer dimensions than the array")
    off = len(shape) - x.ndim
    for k, ax in enumerate(x.shape):
        if not ax.unit:
            lw.check(copy.deepcopy(shape[off + k].extent), copy.deepcopy(ax.extent), pre, call,
                     "np.broadcast_to: the array's extents do not fit the shape")
    return Gen(shape, x.dtype, lambda idx: x.at(bidx(x, idx, shape)))


def _repeat(lw, call, args, kw, pre):
    a = _args(lw, call, args, kw, ("a", "repeats", "axis"))
    if not _none(a["axis"]):
        raise lw.err(call, "np.repeat with axis= (Numba compiles it without)",
                     "index with an integer array: A[np.arange(2 * n) // 2]")
    if lw.ndim(a["repeats"]) > 0:
        raise lw.err(call, "np.repeat with an array of repeat counts",
                     "compute the index array idx in the driver and gather x[idx]")
    x = lw.flat(lw.value(a["a"], pre), pre, call)
    r = lw.fresh("repeats")
    lw.sdt[r] = "int64"
    pre.append(ast.copy_location(_assign(r, lw.scalar(a["repeats"], pre)), call))
    n = ast.BinOp(left=copy.deepcopy(x.shape[0].extent), op=ast.Mult(), right=N(r))
    return Gen([Axis(n)], x.dtype, lambda idx: x.at([ast.BinOp(left=idx[0], op=ast.FloorDiv(), right=N(r))]))


def _take(lw, call, args, kw, pre):
    """``np.take(x, idx[, axis])``: the gather of ``idx`` (negative indices from the end) in the
    flattened ``x``, or along ``axis``."""
    a = _args(lw, call, args, kw, ("a", "indices", "axis"))
    x, idx = lw.value(a["a"], pre), lw.value(a["indices"], pre)
    if idx.dtype is None and isinstance(idx, Scalar) and isinstance(getattr(idx.expr, "value", None), int):
        idx.dtype = "int64"             # np.take(x, 2)
    if idx.dtype != "int64":
        raise lw.err(call, f"np.take with {idx.dtype} indices", "index with integers")
    flat = _none(a["axis"])
    src = lw.flat(x, pre, call) if flat else x
    ax = 0 if flat else _axis_of(lw, call, a["axis"], x.ndim)
    n = lw.extent_atom(src.shape[ax], pre)
    k = idx.ndim
    shape = list(src.shape[:ax]) + list(idx.shape) + list(src.shape[ax + 1:])

    def at(ix):
        t = idx.at(ix[ax:ax + k])
        t = ast.IfExp(test=_cmp(copy.deepcopy(t), ast.Lt, C(0)), body=add(copy.deepcopy(t), copy.deepcopy(n)),
                      orelse=t)
        return src.at(list(ix[:ax]) + [t] + list(ix[ax + k:]))
    if not shape:
        return Scalar(at([]), src.dtype)
    return Gen(shape, src.dtype, at)


def _order_statistic(kind):
    def value(lw, call, args, kw, pre):
        """``np.median(x)``, ``np.percentile(x, q)``, ``np.quantile(x, q)`` of the flattened ``x``
        (NumPy's 'linear' method): the sorted values are read through the constant permutation
        ``np.argsort(x)`` (as ``np.sort``), at ``floor(p)`` and the next index with weight
        ``p - floor(p)``, ``p = q (n - 1)``; a NaN anywhere gives NaN, as in NumPy."""
        names = ("a",) if kind == "median" else ("a", "q")
        a = _args(lw, call, args, kw, names)
        x = lw.flat(lw.value(a["a"], pre), pre, call)
        src, perm = lw.permutation(x, pre, call, "sort")
        n = lw.extent_atom(x.shape[0], pre)

        def s(i):
            return ast.Subscript(value=N(src), slice=ast.Subscript(value=N(perm), slice=i, ctx=ast.Load()),
                                 ctx=ast.Load())
        last = sub(copy.deepcopy(n), C(1))
        nan_test = _np(lw, "isnan", s(copy.deepcopy(last)))      # argsort puts NaN last
        if kind == "median":
            mid = ast.BinOp(left=ast.BinOp(
                left=s(ast.BinOp(left=copy.deepcopy(last), op=ast.FloorDiv(), right=C(2))), op=ast.Add(),
                right=s(ast.BinOp(left=copy.deepcopy(n), op=ast.FloorDiv(), right=C(2)))), op=ast.Div(), right=C(2.0))
            return Scalar(ast.IfExp(test=nan_test, body=lw.npf("nan"), orelse=mid), "float64")
        q = lw.value(a["q"], pre)
        scale = C(100.0) if kind == "percentile" else C(1.0)

        def combine(v):
            p = ast.BinOp(left=ast.BinOp(left=v[0], op=ast.Div(), right=copy.deepcopy(scale)), op=ast.Mult(),
                          right=copy.deepcopy(last)) if kind == "percentile" else \
                ast.BinOp(left=v[0], op=ast.Mult(), right=copy.deepcopy(last))
            lo = _call("int", _np(lw, "floor", copy.deepcopy(p)))
            hi = _call("min", add(copy.deepcopy(lo), C(1)), copy.deepcopy(last))
            t = sub(copy.deepcopy(p), _np(lw, "floor", copy.deepcopy(p)))
            below, above = s(copy.deepcopy(lo)), s(hi)
            diff = sub(copy.deepcopy(above), copy.deepcopy(below))
            # NumPy's _lerp: a + (b - a) t, from the upper end where t >= 0.5
            lerp = ast.IfExp(test=_cmp(copy.deepcopy(t), ast.GtE, C(0.5)),
                             body=sub(above, ast.BinOp(left=copy.deepcopy(diff), op=ast.Mult(),
                                                       right=sub(C(1.0), copy.deepcopy(t)))),
                             orelse=add(below, ast.BinOp(left=diff, op=ast.Mult(), right=t)))
            return ast.IfExp(test=copy.deepcopy(nan_test), body=lw.npf("nan"), orelse=lerp)
        return elementwise([q], "float64", combine, lambda p, r: None)
    return value


def _kron(lw, call, args, kw, pre):
    """``np.kron(a, b)`` of 1-d or 2-d operands (a 1-d one beside a 2-d one is a row): element
    ``(i, j)`` is ``a[i // p, j // q] * b[i % p, j % q]`` for ``b`` of shape ``(p, q)``."""
    a = _args(lw, call, args, kw, ("a", "b"))
    x, y = lw.value(a["a"], pre), lw.value(a["b"], pre)
    if not (1 <= x.ndim <= 2 and 1 <= y.ndim <= 2):
        raise lw.err(call, f"np.kron of {x.ndim}-d and {y.ndim}-d operands",
                     "1-d or 2-d operands (write the element loop for more axes)")
    nd = max(x.ndim, y.ndim)
    xs = [lw.extent_atom(s, pre) for s in x.shape]
    ys = [lw.extent_atom(s, pre) for s in y.shape]
    if nd == 2:
        xs, ys = [C(1)] * (2 - x.ndim) + xs, [C(1)] * (2 - y.ndim) + ys

    def at(idx):
        outer = [ast.BinOp(left=copy.deepcopy(i), op=ast.FloorDiv(), right=copy.deepcopy(q)) for i, q in zip(idx, ys)]
        inner = [ast.BinOp(left=copy.deepcopy(i), op=ast.Mod(), right=copy.deepcopy(q)) for i, q in zip(idx, ys)]
        return ast.BinOp(left=x.at(outer[nd - x.ndim:]), op=ast.Mult(), right=y.at(inner[nd - y.ndim:]))
    shape = [Axis(ast.BinOp(left=copy.deepcopy(p), op=ast.Mult(), right=copy.deepcopy(q))) for p, q in zip(xs, ys)]
    return Gen(shape, join_dtypes([x.dtype, y.dtype]), at)


def _nd_first(lw, call, args, kw):
    return lw.ndim(args[0]) if args else 0


#: name -> (ndim of the result for the call, its value); see the module docstring
VALUES = {
    "roll": (_nd_first, _roll),
    "diff": (_nd_first, _diff),
    "ediff1d": (lambda lw, call, args, kw: 1, _ediff1d),
    "cumprod": (lambda lw, call, args, kw: lw.ndim(args[0]) if len(args) > 1 or "axis" in kw else 1, _cumprod),
    "convolve": (lambda lw, call, args, kw: 1, _convolution("convolve")),
    "correlate": (lambda lw, call, args, kw: 1, _convolution("correlate")),
    "interp": (_nd_first, _interp),
    "cross": (lambda lw, call, args, kw: max(lw.ndim(a) for a in args[:2]), _cross),
    "kron": (lambda lw, call, args, kw: max(lw.ndim(a) for a in args[:2]), _kron),
    "tri": (lambda lw, call, args, kw: 2, _tri),
    "diagflat": (lambda lw, call, args, kw: 2, _diagflat),
    "broadcast_to": (lambda lw, call, args, kw: lw.shape_len(args[1] if len(args) > 1 else kw.get("shape")),
                     _broadcast_to),
    "repeat": (lambda lw, call, args, kw: 1, _repeat),
    "take": (lambda lw, call, args, kw: (lw.ndim(args[1]) if len(args) > 1 else lw.ndim(kw["indices"])) +
             (lw.ndim(args[0]) - 1 if len(args) > 2 or "axis" in kw else 0), _take),
    "median": (lambda lw, call, args, kw: 0, _order_statistic("median")),
    "percentile": (lambda lw, call, args, kw: lw.ndim(args[1]) if len(args) > 1 else lw.ndim(kw["q"]),
                   _order_statistic("percentile")),
    "quantile": (lambda lw, call, args, kw: lw.ndim(args[1]) if len(args) > 1 else lw.ndim(kw["q"]),
                 _order_statistic("quantile")),
}

#: constant NumPy functions of arrays kept as calls (their results have no derivative): name ->
#: (ndim of the result, dtype); the call's array arguments are whole arrays (views are copied).
CONSTANT_CALLS = {
    "searchsorted": (None, "int64"), "digitize": (None, "int64"), "count_nonzero": (0, "int64"),
    "flatnonzero": (1, "int64"), "argwhere": (2, "int64"), "bincount": (1, "int64"), "array_equal": (0, "bool"),
    "allclose": (0, "bool"), "isclose": (None, "bool"),
    # window functions of an integer length (np.kaiser's beta: refused where it has a derivative)
    "hanning": (1, "float64"), "hamming": (1, "float64"), "blackman": (1, "float64"), "bartlett": (1, "float64"),
    "kaiser": (1, "float64"),
    # the counts, np.histogram(...)[0], a call of adtrans.special.histogram_counts (rewrite_calls
    # gives the edges their own value)
    "histogram": (1, "int64"),
}


def constant_ndim(lw, name, call, args):
    """ndim of a :data:`CONSTANT_CALLS` result: fixed, or (None) that of its last array argument
    (``np.searchsorted(xp, v)``: of ``v``; ``np.isclose(a, b)``: the broadcast of both)."""
    nd, _ = CONSTANT_CALLS[name]
    if nd is not None:
        return nd
    if name == "isclose":
        return max(lw.ndim(a) for a in args[:2])
    return lw.ndim(args[1]) if name == "searchsorted" else lw.ndim(args[0])


def constant_call(lw, name, call, args, kw, pre):
    """The value of a constant call: its array arguments as names, the call kept (no derivative)."""
    if name == "bincount" and (len(args) > 1 or "weights" in kw):
        raise lw.err(call, "np.bincount with weights (a sum with a derivative)",
                     "write the loop: for k in range(len(idx)): out[idx[k]] += w[k]")
    def scalar(v):                      # np.histogram's range=(lo, hi): a tuple of scalars
        if isinstance(v, ast.Tuple):
            return ast.Tuple(elts=[scalar(x) for x in v.elts], ctx=ast.Load())
        return v if isinstance(v, ast.Constant) else lw.scalar(v, pre)
    out = []
    for a in args:
        if isinstance(a, ast.Tuple):
            out.append(scalar(a))
        elif lw.ndim(a) > 0 and not (isinstance(a, ast.Name) and a.id not in lw.views):
            out.append(N(lw.materialise(lw.value(a, pre), pre, call, "arg")))
        elif lw.ndim(a) > 0:
            out.append(a)
        else:
            out.append(lw.scalar(a, pre))
    kws = [ast.keyword(arg=k, value=scalar(v)) for k, v in kw.items()]
    func = ast.Attribute(value=N("special"), attr="histogram_counts", ctx=ast.Load()) if name == "histogram" \
        else lw.npf(name)
    value = ast.copy_location(ast.Call(func=func, args=out, keywords=kws), call)
    dt = CONSTANT_CALLS[name][1]
    nd = constant_ndim(lw, name, call, args)
    if nd == 0:
        return Scalar(value, dt)
    t = lw.fresh(name)
    pre.append(ast.copy_location(_assign(t, value), call))
    lw.info[t] = (nd, dt)
    if name in ("flatnonzero", "argwhere"):
        note_data_shaped(lw, t)
    if lw.depth > 0:
        # inside a loop the result changes from one iteration to the next: stored into an array
        # the engine sees written (as np.argsort's permutation), so the reverse reads its own
        stored = lw.fresh(name)
        lw.materialise_into(stored, Ref(View.whole(t, nd, dt)), pre, call)
        return Ref(View.whole(stored, nd, dt))
    return Ref(View.whole(t, nd, dt))

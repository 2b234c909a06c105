"""Runtime helpers of generated driver adjoints (imported there as ``_rt``).

Generated driver adjoints are plain Python; they do not know statically
whether a name holds a float or an array.  These helpers make one line of
generated code right for both:

- a *shadow* (adjoint) of an ndarray is an ndarray of the same shape and dtype,
  updated **in place** (so views share it: the shadow of ``u[1:-1]`` is
  ``u_b[1:-1]``); the shadow of a float is a float, rebound;
- ``None`` is the shadow of a value that has none (an integer, a request);
  shadows of integer arrays are integer arrays that adjoints never change.

Shapes follow NumPy broadcasting: an adjoint contribution is summed over the
broadcast dimensions before it is added (:func:`unbroadcast`).
"""
from __future__ import annotations

import ctypes
import numbers
import threading

import numpy as np
from numba import _helperlib

from ..dispatch import kernel_adjoint as kernel_adjoint_function
from ..errors import ADError, UnsupportedError
from .checkpoint import Checkpoints  # noqa: F401  (generated code: _rt.Checkpoints)
from ..special import digamma_array as digamma  # noqa: F401  (derivative templates: special.digamma)
from ..analyse.effects import kernel_draws, read_params, written_params
from ..targets.cpu_lapack import (cholesky_adjoint, cofactors, eigh_values_vjp, eigh_vectors_vjp,  # noqa: F401
                                  normal_solve, pinv_vjp, qr_q_vjp, qr_r_vjp, svd_u_vjp, svd_values_vjp,
                                  svd_vt_vjp)   # (generated code: _rt.cofactors)


class _Undefined:
    """Value of a driver local before its first assignment (pushed on the tape like any value)."""
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "UNDEF"


UNDEF = _Undefined()


# ----------------------------------------------------------------------------- shadows

def _singular_values_vjp(a, pick):
    """The adjoint of matrix ``a`` for a function of its singular values ``s`` whose adjoint is
    ``pick(s)`` (:func:`adtrans.targets.cpu_lapack.svd_values_vjp`)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    s = np.linalg.svd(a, compute_uv=False)
    return svd_values_vjp(a, s, pick(s))


def norm_vjp(a, order, c):
    """The adjoint of ``a`` for ``np.linalg.norm(a, order)`` with adjoint ``c``: a matrix's
    spectral norm (``order`` 2: the largest singular value; -2 the smallest) and nuclear norm
    (``'nuc'``: their sum) through the singular values; a vector's 2-norm ``c a / |a|``."""
    if np.ndim(a) == 1 and order == 2:
        return c * a / np.linalg.norm(a)
    if np.ndim(a) != 2:
        raise ValueError(f"np.linalg.norm with ord {order!r} of a {np.ndim(a)}-d array has no adjoint rule here")

    def pick(s):
        g = np.full_like(s, c) if order == "nuc" else np.zeros_like(s)
        if order != "nuc":
            g[0 if order == 2 else -1] = c
        return g
    return _singular_values_vjp(a, pick)


def cond_vjp(a, p, c):
    """The adjoint of ``a`` for ``np.linalg.cond(a, p)`` (``p`` None or 2: ``s[0] / s[-1]``; -2 its
    reciprocal) with adjoint ``c``."""
    def pick(s):
        hi, lo = (0, -1) if p in (None, 2) else (-1, 0)
        g = np.zeros_like(s)
        g[hi] += c / s[lo]
        g[lo] -= c * s[hi] / s[lo] ** 2
        return g
    return _singular_values_vjp(a, pick)


def is_float_array(a) -> bool:
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def is_record_array(a) -> bool:
    """A structured array with a float field: a kernel's adjoint takes it ``Duplicated``
    (:mod:`adtrans.normalise.records`)."""
    return isinstance(a, np.ndarray) and a.dtype.fields is not None and \
        any(a.dtype[f].kind == "f" for f in a.dtype.names)


def is_float(v) -> bool:
    """A differentiable scalar: a Python or NumPy float (not a bool or an integer)."""
    return isinstance(v, (float, np.floating)) and not isinstance(v, bool)


def new_shadow(value):
    """Zero shadow of a freshly computed value: ``zeros_like`` for arrays, 0.0 for numbers, a list of
    the elements' shadows for a list (``out = []``: ``[]``), else None."""
    if isinstance(value, np.ndarray):
        return np.zeros_like(value)
    if isinstance(value, list):
        return [new_shadow(v) for v in value]
    if isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, (bool, np.bool_)):
        return 0.0
    return None


def _is_basic(key) -> bool:
    """True when ``a[key]`` is NumPy basic indexing (a view for arrays): ints, slices, ``...``, None,
    field names of structured arrays."""
    items = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (slice, numbers.Integral, np.integer, str))
               and not isinstance(k, (bool, np.bool_)) for k in items)


def getitem_shadow(shadow, key):
    """Shadow of ``v = a[key]`` given ``a``'s shadow: the same view of the shadow when ``a[key]``
    is a view (basic indexing giving an array), else a fresh zero (element or fancy-index copy)."""
    if shadow is None:
        return None
    part = shadow[key]
    if isinstance(shadow, list) and isinstance(key, slice):     # a new list of the same elements
        return [alias_shadow(e) for e in part]
    if isinstance(part, np.ndarray):
        return part if _is_basic(key) else np.zeros_like(part)
    if isinstance(part, np.void):       # a row of a structured array: a view
        return part
    return 0.0


def getitem_adjoint(shadow, key, part_b):
    """Adjoint of ``v = a[key]``: nothing for a view (its shadow is a view of ``a``'s), else
    ``a_b[key] += v_b`` (repeated fancy indices accumulate)."""
    if shadow is None or part_b is None:
        return
    if isinstance(shadow, list) and isinstance(key, slice):
        for k, pb in zip(range(len(shadow))[key], part_b):
            shadow[k] = alias_adjoint(shadow[k], pb)
        return
    if isinstance(part_b, np.ndarray) and _is_basic(key):
        return
    add_at(shadow, key, part_b)


def reshape_shadow(value, src, src_shadow):
    """Shadow of ``v = src.reshape(...)`` (also ``ravel``, ``np.reshape``, ``np.ravel``): NumPy gives a
    view of ``src`` where the layout allows (a C-contiguous array), and writes through ``v`` then
    change ``src``; the shadow is then the same reshape of ``src``'s shadow (a view of it, so an
    adjoint added into ``v``'s shadow is ``src``'s), else a fresh zero (a copy)."""
    if not isinstance(value, np.ndarray) or not isinstance(src_shadow, np.ndarray) \
            or not np.shares_memory(value, src):
        return new_shadow(value)
    part = np.reshape(src_shadow, value.shape)
    if not np.shares_memory(part, src_shadow):
        raise ValueError("adtrans: a reshape that is a view of its array but not of that array's shadow "
                         "(the shadow's layout differs); take a copy: v = src.reshape(...).copy()")
    return part


def reshape_back(c, shape, src_shadow):
    """Adjoint of ``v = src.reshape(...)`` for ``src``: ``c`` (``v``'s adjoint) in ``src``'s shape,
    or nothing where ``v``'s shadow is a view of ``src``'s (:func:`reshape_shadow`: already there)."""
    if isinstance(c, np.ndarray) and isinstance(src_shadow, np.ndarray) and np.shares_memory(c, src_shadow):
        return None
    return np.reshape(c, shape)


def check_copied(value, arg, file, line, what):
    """``value = np.ascontiguousarray(arg)`` in a driver, differentiated as a copy: refused at run
    time where it returned ``arg`` itself (or a view of it), already contiguous."""
    if isinstance(value, np.ndarray) and isinstance(arg, np.ndarray) and np.shares_memory(value, arg):
        raise UnsupportedError(f"{what} of an active array that is already contiguous (it returns the array "
                               "itself, not a copy)", "write np.copy(...) for a copy, or use the array",
                               filename=file, lineno=int(line))


def alias_shadow(shadow):
    """Shadow of ``v = a``: the same array shadow (aliasing), or 0.0 for a float copy."""
    if isinstance(shadow, np.ndarray) or shadow is None:
        return shadow
    return 0.0


def alias_adjoint(shadow, alias_b):
    """Adjoint of ``v = a``: arrays share the shadow (nothing to do); floats add ``v_b`` to ``a_b``."""
    if isinstance(shadow, np.ndarray) or shadow is None:
        return shadow
    return shadow + to_scalar(alias_b)


# ----------------------------------------------------------------------------- accumulation

def to_scalar(c):
    """A contribution summed to a scalar (the adjoint of a scalar broadcast to ``c``'s shape)."""
    if c is None:
        return 0.0
    if isinstance(c, np.ndarray):
        return c.sum()[()] if c.ndim else c[()]
    return c


def unbroadcast(c, shape):
    """Sum ``c`` over the dimensions NumPy broadcasting added or stretched to reach ``shape``."""
    if not isinstance(c, np.ndarray) or c.shape == tuple(shape):
        return c
    extra = c.ndim - len(shape)
    if extra > 0:
        c = c.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, (n, m) in enumerate(zip(shape, c.shape)) if n == 1 and m != 1)
    if axes:
        c = c.sum(axis=axes, keepdims=True)
    return c


def unb(c, like):
    """``c`` reduced to the shape of the value ``like`` (a scalar when ``like`` is one)."""
    if isinstance(like, np.ndarray) and like.ndim:
        return unbroadcast(c, like.shape)
    return to_scalar(c)


def acc(shadow, c):
    """``shadow += c`` for a name's shadow: in place for arrays (integer shadows unchanged),
    rebinding for floats.  Returns the (new) shadow."""
    if shadow is None or c is None:
        return shadow
    if isinstance(shadow, list):        # a list's shadow: element by element (c: a list or an array)
        if len(c) != len(shadow):
            raise ValueError(f"adjoint of a list of {len(shadow)} elements with {len(c)} values")
        for k, ck in enumerate(c):
            shadow[k] = acc(shadow[k], ck)
        return shadow
    if isinstance(shadow, np.ndarray):
        if shadow.dtype.kind in "fc":
            shadow += unbroadcast(c, shadow.shape)
        return shadow
    return shadow + to_scalar(c)


def add_at(shadow, key, c):
    """``shadow[key] += c`` in place (``np.add.at`` for fancy indices, so repeats accumulate; for a
    list's shadow, the element ``key`` or the elements of a slice)."""
    if isinstance(shadow, list):
        if isinstance(key, slice):
            picked = range(len(shadow))[key]
            if len(c) != len(picked):
                raise ValueError(f"adjoint of {len(picked)} list elements with {len(c)} values")
            for k, ck in zip(picked, c):
                shadow[k] = acc(shadow[k], ck)
        else:
            shadow[key] = acc(shadow[key], c)
        return
    if isinstance(shadow, np.void) or (isinstance(shadow, np.ndarray) and shadow.dtype.fields is not None):
        if shadow[key].dtype.kind in "fc":            # a float field of a structured array or row
            shadow[key] += unbroadcast(c, np.shape(shadow[key])) if np.ndim(shadow[key]) else to_scalar(c)
        return
    if shadow is None or c is None or not isinstance(shadow, np.ndarray) or shadow.dtype.kind not in "fc":
        return
    if _is_basic(key):
        part = shadow[key]
        shadow[key] = part + (unbroadcast(c, part.shape) if isinstance(part, np.ndarray) else to_scalar(c))
    else:
        np.add.at(shadow, key, c)


def _check_unique(key) -> None:
    if _is_basic(key):
        return
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, np.ndarray) and k.dtype.kind in "iu" and np.unique(k).size != k.size:
            raise UnsupportedError("assignment through an index array with repeated indices in a driver",
                                   "use unique indices (which of the repeated values is kept is unspecified)")


def take(shadow, key):
    """A copy of ``shadow[key]`` (the adjoint of values about to be overwritten by ``a[key] = ...``)."""
    if shadow is None:
        return None
    _check_unique(key)
    part = shadow[key]
    return part.copy() if isinstance(part, np.ndarray) else part


def zero_at(shadow, key) -> None:
    """``shadow[key] = 0`` (the overwritten values have no adjoint before the assignment)."""
    if isinstance(shadow, np.ndarray):
        shadow[key] = 0


def scatter(like, key, c):
    """Adjoint of ``w[key]`` for a computed ``w``: zeros of ``w``'s shape with ``c`` added at ``key``."""
    out = np.zeros(np.shape(like), dtype=np.result_type(like, np.float64) if not is_float_array(like)
                   else like.dtype)
    add_at(out, key, c)
    return out


# ----------------------------------------------------------------------------- saving and restoring

def snap(value):
    """A copy of an array (or of its part) or of a list (``reqs += [...]`` extends in place),
    the value itself otherwise (immutable)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list):
        return list(value)
    return value


def restore(target, saved):
    """Put the ``saved`` contents back into ``target``: in place for arrays and lists (other names
    may see the same object), returns ``saved`` otherwise."""
    if isinstance(target, np.ndarray) and isinstance(saved, np.ndarray) and target.shape == saved.shape:
        target[...] = saved
        return target
    if isinstance(target, list) and isinstance(saved, list):
        target[:] = saved
        return target
    return saved


# ----------------------------------------------------------------------------- saved copies, reused

#: most bytes of saved copies kept for reuse per Python thread (see :func:`release_buffers`)
BUFFER_POOL_MAX_BYTES = 1 << 30


class _Pool(threading.local):
    """Arrays that held saved copies (checkpoints, final states), kept for the next call of a
    driver adjoint in this Python thread: a fresh array pays a page fault on first touch of each
    page (on these machines a first write is ~10x slower than a later one), a reused one does not."""

    def __init__(self):
        self.free: dict = {}
        self.nbytes = 0


_POOL = _Pool()


def saved_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` (same shape and dtype, C order) in an array reused from an earlier call
    when one is free; give it back with :func:`release_copy` once nothing reads it."""
    key = (a.shape, a.dtype.str)
    free = _POOL.free.get(key)
    if free:
        buf = free.pop()
        _POOL.nbytes -= buf.nbytes
        np.copyto(buf, a)
        return buf
    return np.array(a, order="C", copy=True)


def release_copy(buf) -> None:
    """Keep ``buf`` (made by :func:`saved_copy`, no longer read) for reuse, up to
    :data:`BUFFER_POOL_MAX_BYTES` per thread."""
    if isinstance(buf, np.ndarray) and buf.base is None and _POOL.nbytes + buf.nbytes <= BUFFER_POOL_MAX_BYTES:
        _POOL.free.setdefault((buf.shape, buf.dtype.str), []).append(buf)
        _POOL.nbytes += buf.nbytes


def release_buffers() -> None:
    """Drop the calling thread's reused copies (:func:`saved_copy`)."""
    _POOL.free.clear()
    _POOL.nbytes = 0


def final_state(params, kept=()):
    """Copies of the array arguments' final contents (restored by :func:`restore_final`) but for
    the arrays in ``kept``: outputs of kernel calls that the driver never saved (nor wrote any
    other way), which the reverse sweep leaves as the forward sweep left them
    (:func:`kernel_adjoint` puts back what the adjoint changes in them)."""
    skip = {id(k) for k in kept}
    return [(p, saved_copy(p)) for p in params if isinstance(p, np.ndarray) and id(p) not in skip]


def restore_final(saved) -> None:
    """The reverse sweep leaves arrays as they were on entry; give them their final contents again."""
    for arr, final in saved:
        arr[...] = final
        release_copy(final)


def _byte_bounds(a):
    lo = hi = a.__array_interface__["data"][0]
    for n, st in zip(a.shape, a.strides):
        if n == 0:
            return lo, lo
        if st < 0:
            lo += (n - 1) * st
        else:
            hi += (n - 1) * st
    return lo, hi + a.itemsize


def disjoint(values) -> bool:
    """Do the arrays among ``values`` occupy disjoint memory (by their byte bounds: a
    conservative test)?  The driver adjoint saves fewer copies when its array arguments are
    distinct arrays (the statements it scans name every array they touch)."""
    spans = sorted(_byte_bounds(v) for v in values if isinstance(v, np.ndarray) and v.size)
    return all(b[0] >= a[1] for a, b in zip(spans, spans[1:]))


def spread(bar, like):
    """Adjoint of the builtin ``sum(like)``: ``bar`` for every element of a list (an array's first
    axis takes it by broadcasting)."""
    return [bar] * len(like) if isinstance(like, list) else bar


def _one_hot(bar, like, k):
    """``bar`` at flat position ``k`` of ``like``'s shape, zero elsewhere (a list for a list)."""
    out = np.zeros(np.shape(like))
    out.flat[k] = bar
    return out.tolist() if isinstance(like, list) else out


def pick(bar, like, largest: bool):
    """Adjoint of the builtin ``max(like)`` / ``min(like)`` of one sequence of numbers: ``bar`` at the
    first extreme element (the one Python returns), zero elsewhere."""
    values = [float(v) for v in like]
    return _one_hot(bar, values if isinstance(like, list) else like,
                    values.index(max(values) if largest else min(values)))


def extreme(bar, a, largest: bool):
    """Adjoint of ``np.max(a)`` / ``np.min(a)`` (whole array): ``bar`` at the first extreme element
    (``np.argmax``/``np.argmin``, as the kernels' rule), zero elsewhere."""
    arr = np.asarray(a)
    return _one_hot(bar, a if isinstance(a, list) else arr, int(np.argmax(arr) if largest else np.argmin(arr)))


def spread_adjoint(bar, a, std: bool):
    """Adjoint of ``np.var(a)`` / ``np.std(a)`` (whole array, ddof=0): ``bar 2 (a - m) / n`` for the
    variance, ``bar (a - m) / (n s)`` for the deviation ``s`` (singular at zero spread)."""
    arr = np.asarray(a, dtype=np.float64)
    d = arr - arr.mean()
    out = bar * d / (arr.size * arr.std()) if std else 2.0 * bar * d / arr.size
    return out.tolist() if isinstance(a, list) else out


def sequence(iterable):
    """The values a driver ``for`` loop runs over, kept for the reverse sweep (ranges stay ranges)."""
    return iterable if isinstance(iterable, range) else list(iterable)


# ----------------------------------------------------------------------------- derivative helpers

def sign(x):
    return np.sign(x)


def dot_adjoint(a, b, bar):
    """Adjoints ``(a_b, b_b)`` of ``c = np.dot(a, b)`` (or ``a @ b``) for 0-, 1- and 2-D operands."""
    a, b = np.asarray(a), np.asarray(b)
    bar = np.asarray(bar)
    if a.ndim == 0 or b.ndim == 0:
        return (np.sum(bar * b) if a.ndim == 0 else bar * b), (np.sum(bar * a) if b.ndim == 0 else bar * a)
    if a.ndim == 1 and b.ndim == 1:
        return bar * b, bar * a
    if a.ndim == 2 and b.ndim == 1:
        return np.outer(bar, b), a.T @ bar
    if a.ndim == 1 and b.ndim == 2:
        return b @ bar, np.outer(a, bar)
    if a.ndim == 2 and b.ndim == 2:
        return bar @ b.T, a.T @ bar
    raise UnsupportedError(f"np.dot of {a.ndim}-D and {b.ndim}-D arrays in a driver",
                           "use 1-D or 2-D operands, or compute it in an @njit kernel")


def expand(bar, like, axis=None):
    """Adjoint of ``np.sum(x, axis)``: ``bar`` broadcast back to ``x``'s shape."""
    shape = np.shape(like)
    if axis is None:
        return np.broadcast_to(bar, shape).copy() if shape else bar
    bar = np.expand_dims(bar, axis)
    return np.broadcast_to(bar, shape).copy()


def split(bar, parts, axis=0):
    """Adjoint of ``np.concatenate(parts, axis)``: ``bar`` cut into pieces shaped like ``parts``."""
    sizes = np.cumsum([np.shape(p)[axis] for p in parts])[:-1]
    return np.split(bar, sizes, axis=axis)


def unstack(bar, parts, how, axis=0):
    """Adjoint of ``np.stack(parts, axis)`` (``how="stack"``), ``np.vstack(parts)`` (``"vstack"``)
    and ``np.hstack(parts)`` (``"hstack"``): ``bar`` (the result's shape) cut into pieces shaped
    like ``parts`` (a list of arrays or scalars)."""
    shapes = [np.shape(p) for p in parts]
    if how == "stack":
        axis = axis % (len(shapes[0]) + 1)
        sizes = [1] * len(parts)
    elif how == "vstack":
        axis = 0
        sizes = [np.atleast_2d(p).shape[0] for p in parts]
    else:
        axis = 0 if np.ndim(parts[0]) <= 1 else 1
        sizes = [np.atleast_1d(p).shape[axis] for p in parts]
    pieces = np.split(bar, np.cumsum(sizes)[:-1], axis=axis)
    return [piece.reshape(shape) for piece, shape in zip(pieces, shapes)]


def diff_adjoint(bar, n=1, axis=-1):
    """Adjoint of ``np.diff(a, n, axis)``: ``bar`` (the result's shape, ``n`` shorter along
    ``axis``) sent back through ``y[k] = a[k + 1] - a[k]`` ``n`` times (``a``'s shape)."""
    g = np.asarray(bar, dtype=np.float64)
    axis = axis % g.ndim
    for _ in range(n):
        shape = list(g.shape)
        shape[axis] += 1
        up = np.zeros(shape)
        lo = [slice(None)] * g.ndim
        hi = [slice(None)] * g.ndim
        lo[axis], hi[axis] = slice(None, -1), slice(1, None)
        up[tuple(hi)] += g
        up[tuple(lo)] -= g
        g = up
    return g


def cumsum_adjoint(bar, like, axis=None):
    """Adjoint of ``np.cumsum(a, axis)`` for ``a`` shaped like ``like``: each element's adjoint is
    the sum of ``bar`` from its position to the end of its line (of the flattened array for
    ``axis=None``), a reversed running sum."""
    g = np.asarray(bar, dtype=np.float64)
    if axis is None:
        return np.cumsum(g.ravel()[::-1])[::-1].reshape(np.shape(like))
    return np.flip(np.cumsum(np.flip(g, axis), axis), axis)


def roll_adjoint(bar, shift, axis=None):
    """Adjoint of ``np.roll(a, shift, axis)``: the same permutation undone (``np.roll`` by
    ``-shift``; a tuple of shifts negated element by element)."""
    return np.roll(np.asarray(bar, dtype=np.float64), np.negative(shift), axis)


def outer_adjoint(bar, a, b):
    """Adjoint of ``np.outer(a, b)`` (``a``, ``b`` flattened, as NumPy does): ``(bar @ b, bar.T @ a)``,
    each in its operand's shape."""
    g = np.asarray(bar, dtype=np.float64)
    av, bv = np.ravel(a), np.ravel(b)
    return (g @ bv).reshape(np.shape(a)), (g.T @ av).reshape(np.shape(b))


def sort_adjoint(bar, a, axis=-1):
    """Adjoint of ``np.sort(a, axis)``: each sorted position's adjoint goes back to the element
    that landed there (the stable order: tied elements have equal values, the split between them
    is one valid choice at a point where the sort has no derivative)."""
    g = np.asarray(bar, dtype=np.float64)
    if axis is None:
        out = np.zeros(np.size(a))
        out[np.argsort(np.ravel(a), kind="stable")] = g
        return out.reshape(np.shape(a))
    order = np.argsort(a, axis=axis, kind="stable")
    out = np.zeros(np.shape(a))
    np.put_along_axis(out, order, g, axis)
    return out


def prod_adjoint(bar, a, axis=None):
    """Adjoint of ``np.prod(a, axis)``: each element's adjoint is ``bar`` times the product of
    the other elements of its line, formed from exclusive running products from both ends (no
    division: right where elements are zero)."""
    x = np.asarray(a, dtype=np.float64)
    if axis is None:
        flat = x.ravel()
        return (np.asarray(bar) * _others_product(flat, 0)).reshape(x.shape)
    axis = axis % x.ndim
    return np.expand_dims(np.asarray(bar, dtype=np.float64), axis) * _others_product(x, axis)


def _others_product(x, axis):
    m = np.moveaxis(x, axis, -1)
    left = np.ones_like(m)
    right = np.ones_like(m)
    left[..., 1:] = np.cumprod(m[..., :-1], axis=-1)
    right[..., :-1] = np.cumprod(m[..., :0:-1], axis=-1)[..., ::-1]
    return np.moveaxis(left * right, -1, axis)


def append_adjoint(bar, arr, values, axis=None):
    """Adjoint of ``np.append(arr, values, axis)``: ``bar`` split where ``values`` starts (both
    flattened for ``axis=None``, as NumPy appends), each part in its operand's shape."""
    g = np.asarray(bar, dtype=np.float64)
    if axis is None:
        n = np.size(arr)
        return g[:n].reshape(np.shape(arr)), g[n:].reshape(np.shape(values))
    n = np.shape(arr)[axis]
    first, rest = np.split(g, [n], axis=axis)
    return first, rest.reshape(np.shape(values))


def norm_axis_adjoint(bar, a, axis):
    """Adjoint of ``np.linalg.norm(a, axis=axis)`` (the 2-norm of each line): ``bar * a / norm``
    per line, 0 on a line of zeros (the singular convention of the kernels' ``sqrt``)."""
    x = np.asarray(a, dtype=np.float64)
    n = np.expand_dims(np.sqrt(np.sum(x * x, axis=axis)), axis)
    safe = np.where(n == 0.0, 1.0, n)
    return np.where(n == 0.0, 0.0, np.expand_dims(np.asarray(bar, dtype=np.float64), axis) * x / safe)


def choose(first_wins, bar):
    """Adjoint of ``min(a, b)``/``max(a, b)``: ``(bar, 0)`` when the first operand was chosen."""
    return (bar, 0.0) if first_wins else (0.0, bar)


# ----------------------------------------------------------------------------- kernel calls

_TOO_HARD = getattr(getattr(np, "exceptions", np), "TooHardError")


def _overlap(a, b) -> bool:
    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=10_000))
    except _TOO_HARD:
        return True


def checkpoint(kernel, args, written, at="", skip=()):
    """Copies of the arguments ``kernel`` overwrites (``written``: their positions) but for
    those in ``skip`` (outputs of the kernel whose values before the call no earlier statement
    reads: the driver adjoint found them), taken before the call; checks that no written array
    overlaps another array argument.

    Raises :class:`UnsupportedError` for overlapping arguments (the kernel's
    adjoint assumes they do not alias).  Memory: one copy of each saved array, reused
    across calls (:func:`saved_copy`).
    """
    arrays = [(i, a) for i, a in enumerate(args) if isinstance(a, np.ndarray)]
    for i in written:
        for j, b in arrays:
            if j != i and isinstance(args[i], np.ndarray) and _overlap(args[i], b):
                name = getattr(kernel, "__name__", "kernel")
                raise _error(at, f"arguments {i} and {j} of {name} overlap in memory and argument {i} is written",
                             "pass non-overlapping arrays (copy one of them first)")
    saved = [(i, saved_copy(args[i])) for i in written if i not in skip and isinstance(args[i], np.ndarray)]
    if kernel_draws(kernel):
        saved.append((None, numba_np_state()))
    return saved


class _RndState(ctypes.Structure):
    """Numba's ``rnd_state_t`` (numba/_helperlib.c): the Mersenne Twister and the cached second
    normal of the polar method, which ``_helperlib.rnd_get_state`` leaves out."""
    _fields_ = [("index", ctypes.c_int), ("mt", ctypes.c_uint * 624), ("has_gauss", ctypes.c_int),
                ("gauss", ctypes.c_double), ("is_initialized", ctypes.c_int)]


def numba_np_state():
    """The whole state of Numba's NumPy generator: the twister and the cached normal (a kernel
    that drew an odd number of normals leaves one for the next draw; without it a replay from
    that state drew other numbers, and the driver's gradient was wrong)."""
    ptr = _helperlib.rnd_get_np_state_ptr()
    raw = _RndState.from_address(ptr)
    return _helperlib.rnd_get_state(ptr), raw.has_gauss, raw.gauss


def set_numba_np_state(state) -> None:
    """Put back a state of :func:`numba_np_state`."""
    ptr = _helperlib.rnd_get_np_state_ptr()
    twister, has_gauss, gauss = state
    _helperlib.rnd_set_state(ptr, twister)
    raw = _RndState.from_address(ptr)
    raw.has_gauss, raw.gauss = has_gauss, gauss


class _Replay:
    """``with _Replay(state):`` runs the block from Numba's NumPy generator ``state`` (None: as it
    is), then restores the state it found."""

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        if self.state is not None:
            self.now = numba_np_state()
            set_numba_np_state(self.state)

    def __exit__(self, *exc):
        if self.state is not None:
            set_numba_np_state(self.now)
        return False


def _restore_args(args, saved, only=None):
    """Put the ``saved`` copies back (those of the positions in ``only``, when given)."""
    for i, copy in saved or ():
        if i is not None and (only is None or i in only):     # None: a generator state
            args[i][...] = copy


def _release(saved):
    for i, copy in saved or ():
        if i is not None:
            release_copy(copy)


_ADJOINTS: dict = {}


def _kernel_adjoint_function(kernel, activity):
    """``adtrans.adjoint(kernel, activity)``, kept per kernel and activity; it need not leave the
    kernel's outputs in its arrays: :func:`kernel_adjoint` restores the checkpointed ones after the
    call and no earlier statement reads the others."""
    key = (kernel, activity)
    adj = _ADJOINTS.get(key)
    if adj is None:
        adj = _ADJOINTS[key] = kernel_adjoint_function(kernel, activity, keeps_outputs=False)
    return adj


def kernel_adjoint(kernel, args, shadows, seed, saved):
    """Reverse of one driver call ``kernel(*args)``.

    ``shadows``: per argument, the shadow of an active name (None for passive
    ones); an argument is ``"dup"`` when it is a float array with an array
    shadow, ``"active"`` when it is a float with a shadow, else ``"const"``.
    ``seed``: the adjoint of the result (the shadow of the name it was bound to: a float, or an
    array shaped like a returned array), a tuple of them for a returned tuple unpacked into names
    (``a, b = kernel(...)``), 0.0 for a kernel returning nothing, None for a discarded result
    (the kernel's forward is then run once more to shape zero seeds).
    ``saved``: the :func:`checkpoint` taken before the forward call; the
    written arguments are restored from it before the adjoint (which re-runs
    the kernel's forward sweep) and again after, so they hold their values
    from before the call.  Array shadows are updated in place (Enzyme's
    ``Duplicated`` convention).  Returns a list with, per argument, the adjoint
    of an ``"active"`` float (0.0 for others).
    """
    activity, flat = [], []
    for a, s in zip(args, shadows):
        if s is not None and (is_float_array(a) or is_record_array(a)) and isinstance(s, np.ndarray) \
                and s.dtype == a.dtype:
            activity.append("dup")
            flat += [a, s]
        elif s is not None and is_float(a):
            activity.append("active")
            flat.append(a)
        elif isinstance(a, tuple) and isinstance(s, tuple) and any(x is not None for x in s):
            activity.append("dup")          # a tuple of arrays passed whole: the tuple of shadows
            flat += [a, _tuple_shadow(a, s)]
        else:
            activity.append("const")
            flat.append(a)
    out = [0.0] * len(args)
    if all(k == "const" for k in activity):
        _restore_args(args, saved)
        _release(saved)
        return out
    seeds = [_seed(w) for w in (seed if isinstance(seed, tuple) else (seed,))]
    if not saved and not any(w is not None and np.any(w) for w in seeds) and not written_params(kernel):
        # it writes no argument and its result's adjoint is 0 (e.g. an integer result only
        # compared): every adjoint it would add is 0, so the call is skipped
        return out
    # the adjoint reruns the kernel's forward sweep: the arguments it reads get their values
    # from before the call back; its outputs (written, not read) are overwritten by it anyway
    reads = read_params(kernel)
    _restore_args(args, saved, reads)
    adj = _kernel_adjoint_function(kernel, tuple(activity))
    writes = _adjoint_writes(adj, args)
    rerun = any(w is None for w in seeds)
    # not Checkpoints.save: per call, by argument position, pooled and given back at once (snapshots outlive steps)
    kept = _keep_unsaved(kernel, args, saved, (writes | written_params(kernel)) if rerun else writes)
    state = next((c for i, c in saved or () if i is None), None)
    with _Replay(state):
        if rerun:
            seeds = _zero_seeds(kernel, args, saved, seeds)
    with _Replay(state):
        res = adj(*flat, *seeds)
    # the saved arguments get their values from before the call again where the adjoint may have
    # changed them (those it reads were given back above and are still there unless it writes them)
    _restore_args(args, saved, {i for i, _ in saved or () if i not in reads or i in writes})
    _restore_args(args, kept)
    _release(kept)
    _release(saved)
    res = iter(res if isinstance(res, tuple) else (res,))
    for k, kind in enumerate(activity):
        if kind == "active":
            out[k] = next(res)
        elif kind == "dup" and isinstance(args[k], tuple):     # its floats' adjoints, in order
            out[k] = tuple(next(res) if is_float(e) else 0.0 for e in args[k])
    return out


def _adjoint_writes(adj, args) -> frozenset:
    """Positions of the arguments whose arrays the kernel adjoint ``adj`` may write
    (:meth:`adtrans.adjoint.AdjointFunction.primal_writes`; every position for an adjoint
    object that cannot tell)."""
    writes = getattr(adj, "primal_writes", None)
    return writes(*args) if writes is not None else frozenset(range(len(args)))


def _keep_unsaved(kernel, args, saved, disturbed) -> list:
    """Copies of the arrays the kernel writes that the driver did not save before its forward
    call (outputs whose old values no earlier statement reads) and that the adjoint (or a rerun
    of the kernel) may change: ``disturbed``, positions.  The reverse sweep puts them back after
    the adjoint, so an unsaved output holds its value from after the forward sweep throughout
    the reverse sweep (the driver then need not keep a final copy of it:
    :func:`final_state`)."""
    at = {i for i, _ in saved or ()}
    return [(i, saved_copy(args[i])) for i in sorted(written_params(kernel) & disturbed)
            if i not in at and isinstance(args[i], np.ndarray)]


def _seed(w):
    """One seed of a kernel's adjoint: None as it is, an array as a float array, else a float."""
    if w is None:
        return w
    if isinstance(w, np.ndarray) and w.ndim:
        return w if w.dtype.kind == "f" else w.astype(np.float64)
    return float(to_scalar(w))


def _zero_seeds(kernel, args, saved, seeds):
    """``seeds`` with each None replaced by a zero shaped like the kernel's matching result
    (found by running the kernel on ``args``, restored to their values before the call first
    and again after)."""
    results = kernel(*args)
    _restore_args(args, saved, read_params(kernel))
    if not isinstance(results, tuple):
        results = (results,)
    if len(seeds) == 1 and len(results) > 1:
        seeds = seeds * len(results)
    return [(np.zeros(np.shape(r)) if isinstance(r, np.ndarray) else 0.0) if w is None else w
            for w, r in zip(seeds, results)]


def _error(at: str, construct: str, hint: str) -> UnsupportedError:
    """An UnsupportedError located at ``at`` (``"/path/file.py:12:5"`` or ``"file.py:12"``, as
    generated code passes it)."""
    file, _, line = at.rpartition(":")
    col = 1
    head, _, maybe_line = file.rpartition(":")
    if head and maybe_line.isdigit() and line.isdigit():
        file, line, col = head, maybe_line, int(line)
    if file and line.isdigit():
        return UnsupportedError(construct, hint, filename=file, lineno=int(line), col=col)
    return UnsupportedError(construct, hint)


def check_tape_empty(tape) -> None:
    if tape:
        raise ADError(f"driver tape not empty after the reverse sweep ({len(tape)} entries): internal error")


def check_tuple_arg(elements, active, kernel, at="") -> None:
    """Refuse (:class:`UnsupportedError` at ``at``) an active element of a tuple passed whole to
    ``kernel`` that is neither a float array nor a float (``active``: per element whether the
    driver holds it active)."""
    for k, (e, on) in enumerate(zip(elements, active)):
        if on and not (is_float_array(e) or is_float(e)):
            name = getattr(kernel, "__name__", "kernel")
            raise _error(at, f"an active {type(e).__name__}, element {k} of a tuple passed whole to the kernel "
                             f"{name} (a tuple's derivatives are those of its float arrays and floats)",
                         f"pass it to {name} as its own argument")


def _tuple_shadow(a: tuple, s: tuple) -> tuple:
    """The shadow tuple of a tuple argument ``a`` passed whole: the given array shadows, a zero
    array for a float array the driver holds passive, the element itself for the others (an
    adjoint reads the shadows of float arrays only)."""
    return tuple(x if isinstance(x, np.ndarray) and is_float_array(e) and x.dtype == e.dtype else
                 np.zeros_like(e) if is_float_array(e) else e for e, x in zip(a, s))


def kernel_restore(args, saved) -> None:
    """Reverse of a kernel call without active arguments: restore what it overwrote."""
    _restore_args(args, saved)
    _release(saved)


def acc_scalar(shadow, adjoint):
    """Add a kernel's ``"active"`` float adjoint to a float shadow (array shadows were updated in place)."""
    if shadow is None or isinstance(shadow, np.ndarray):
        return shadow
    return shadow + adjoint


def check_result(value, kernel, at="", args=(), count=0):
    """Returns ``value``, the result of a differentiated kernel called with ``args``, after
    checking it: it must be a number or array (the shadow of the name it is bound to is the seed
    of the kernel's adjoint), or with ``count`` > 0 a tuple of ``count`` of them (unpacked into
    names), and its arrays must share no memory with the array arguments or with each other (a
    returned argument or view of one would need the argument's shadow).

    Raises :class:`UnsupportedError` at ``at`` (``"file:line:col"``) otherwise."""
    name = getattr(kernel, "__name__", "kernel")
    if count and not (isinstance(value, tuple) and len(value) == count):
        raise _error(at, f"kernel {name} returns {type(value).__name__}"
                     f"{f' of {len(value)}' if isinstance(value, tuple) else ''}, unpacked into {count} names",
                     "unpack as many names as the kernel returns values")
    results = value if count else (value,)
    for r in results:
        if isinstance(r, tuple):
            raise _error(at, f"kernel {name} returns a tuple to one name in a driver",
                         "unpack it into names: a, b = kernel(...)")
        if not (isinstance(r, (numbers.Number, np.generic, np.ndarray)) or r is None):
            raise _error(at, f"kernel {name} returns {type(r).__name__} to a driver",
                         "kernels called from drivers return floats, arrays or tuples of them")
    arrays = [r for r in results if isinstance(r, np.ndarray)]
    for k, r in enumerate(arrays):
        for a in args:
            if isinstance(a, np.ndarray) and _overlap(r, a):
                raise _error(at, f"kernel {name} returns an array sharing memory with one of its arguments",
                             "return a new array (e.g. a.copy()) or write into the argument and return nothing")
        for q in arrays[k + 1:]:
            if _overlap(r, q):
                raise _error(at, f"kernel {name} returns two results sharing memory",
                             "return distinct arrays (e.g. a.copy())")
    return value


# ----------------------------------------------------------------------------- memory

_STATS = {"tape_nbytes": 0, "tape_peak": 0, "tape_entries": 0}


def _arrays(obj, seen, out, depth=0):
    if depth > 6 or id(obj) in seen:
        return
    if isinstance(obj, np.ndarray):
        root = obj if obj.base is None or not isinstance(obj.base, np.ndarray) else obj.base
        if id(root) not in seen:
            out.append(root)
        seen.update((id(obj), id(root)))
        return
    seen.add(id(obj))
    if isinstance(obj, (list, tuple)):
        for x in obj:
            _arrays(x, seen, out, depth + 1)
    elif isinstance(obj, dict):
        for x in obj.values():
            _arrays(x, seen, out, depth + 1)
    elif hasattr(obj, "__dict__") and type(obj).__module__.startswith("adtrans"):
        for x in vars(obj).values():
            _arrays(x, seen, out, depth + 1)
    elif hasattr(obj, "__slots__") and type(obj).__module__.startswith("adtrans"):
        for s in obj.__slots__:
            _arrays(getattr(obj, s, None), seen, out, depth + 1)


def tape_stats(tape, args, *extra, peak_only=False) -> None:
    """Record how much array memory the forward sweep's tape holds (read with
    :func:`adtrans.driver.last_tape_nbytes`): every array reachable from the tape --
    copies of overwritten values, arrays kept alive by taped bindings, snapshots of
    checkpointed loops -- except the arguments' own arrays (and shadows), counted once.
    ``extra``: more objects to count (the :class:`Checkpoints` of a loop being reversed).
    ``peak_only``: only raise the peak (:func:`adtrans.driver.last_tape_peak_nbytes`)."""
    seen: set = set()
    for a in args:
        if isinstance(a, np.ndarray):
            root = a if a.base is None or not isinstance(a.base, np.ndarray) else a.base
            seen.update((id(a), id(root)))
    found: list = []
    for entry in list(tape) + list(extra):
        _arrays(entry, seen, found)
    nbytes = int(sum(a.nbytes for a in found))
    if peak_only:
        _STATS["tape_peak"] = max(_STATS["tape_peak"], nbytes)
        return
    _STATS["tape_nbytes"] = _STATS["tape_peak"] = nbytes
    _STATS["tape_entries"] = len(tape)

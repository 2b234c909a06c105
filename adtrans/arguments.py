"""Arguments of adjoints, shared by every target: the activity wrappers, unwrapping them,
splitting a flat argument list, Numba types of arguments, and the parse cache."""
from __future__ import annotations

import inspect
import threading
import weakref

import numba
import numpy as np
from numba.core import sigutils
from numba.core import types as nbtypes

from .errors import ActivityError, ADError
from .parse import parse_function, python_function


class Const:
    """An argument that is not differentiated (any type)."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Active:
    """A float scalar argument whose adjoint ``autodiff`` returns."""
    __slots__ = ("value",)

    def __init__(self, value):
        if isinstance(value, (list, tuple)) or type(value).__name__ == "List":
            raise ActivityError(f"Active needs a float scalar, not a {type(value).__name__}: a list argument is "
                                "constant (no derivative); pass np.array(...) as a Duplicated array to differentiate it")
        self.value = float(value) if not isinstance(value, np.floating) else value


class Duplicated:
    """An array and its shadow (same shape and dtype); the shadow is updated in place.

    Or a tuple of arrays (a kernel's tuple parameter, ``params = (W1, b1, W2)``) and the tuple of
    their shadows, element by element; a float in the tuple has no shadow (put anything at its
    place): its adjoint is returned with those of the ``Active`` arguments, in parameter order."""
    __slots__ = ("value", "shadow")

    def __init__(self, value, shadow):
        if isinstance(value, tuple):
            if not isinstance(shadow, tuple) or len(shadow) != len(value):
                raise ActivityError(f"the shadow of a tuple of {len(value)} must be a tuple of {len(value)}, "
                                    f"got {type(shadow).__name__}")
            for k, (v, d) in enumerate(zip(value, shadow)):
                if isinstance(v, np.ndarray) and v.dtype.kind == "f" and not (
                        isinstance(d, np.ndarray) and d.shape == v.shape and d.dtype == v.dtype):
                    raise ActivityError(f"element {k} of the tuple: an array of shape {v.shape} and dtype {v.dtype} "
                                        f"needs a shadow of the same shape and dtype")
            self.value, self.shadow = value, shadow
            return
        value, shadow = np.asarray(value), np.asarray(shadow)
        if value.shape != shadow.shape or value.dtype != shadow.dtype:
            raise ActivityError(f"shadow of shape {shadow.shape} and dtype {shadow.dtype} for an array of "
                                f"shape {value.shape} and dtype {value.dtype}: they must match")
        self.value, self.shadow = value, shadow


def unwrap(args) -> tuple[tuple, list]:
    """(activity tuple, flat argument list) of wrapped arguments; unwrapped ones are ``Const``.
    The flat list has each ``Duplicated`` value followed by its shadow."""
    activity, flat = [], []
    for a in args:
        if isinstance(a, Duplicated):
            activity.append("dup")
            flat += [a.value, a.shadow]
        elif isinstance(a, Active):
            activity.append("active")
            flat.append(a.value)
        elif isinstance(a, Const):
            activity.append("const")
            flat.append(a.value)
        else:
            activity.append("const")
            flat.append(a)
    return tuple(activity), flat


_SIGNATURES: dict = {}


def signature_of(pyfunc) -> inspect.Signature:
    """``inspect.signature(pyfunc)``, computed once per function (``grad`` binds the arguments
    of every call; reading the signature anew costs ~30 us a call)."""
    hit = _SIGNATURES.get(pyfunc)
    if hit is None or hit[0] is not pyfunc.__code__:       # a redefined __code__ gets a new one
        hit = _SIGNATURES[pyfunc] = (pyfunc.__code__, inspect.signature(pyfunc))
    return hit[1]


def param_names(fn) -> list:
    """Names of ``fn``'s parameters, in order."""
    pyfunc, _ = python_function(fn)
    return list(signature_of(pyfunc).parameters)


def bind_arguments(fn, args, kwargs=None) -> list:
    """``args`` and ``kwargs`` of a call of ``fn`` as one positional list in parameter order,
    omitted parameters filled with their defaults (as :class:`Const`), as Python binds them.

    Raises :class:`ActivityError` naming the parameter when one is missing or unknown."""
    pyfunc, _ = python_function(fn)
    sig = signature_of(pyfunc)
    params = list(sig.parameters.values())
    if not kwargs and len(args) == len(params):
        return list(args)
    try:
        bound = sig.bind(*args, **(kwargs or {}))
    except TypeError as exc:
        raise ActivityError(f"call of {pyfunc.__name__}{sig}: {exc}") from None
    out = []
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ActivityError(f"{pyfunc.__name__} has *{p.name}: kernels take named parameters only")
        if p.name in bound.arguments:
            out.append(bound.arguments[p.name])
        else:
            out.append(Const(p.default))
    return out


def _memory_of(v):
    """An array argument as something whose memory can be compared: a NumPy array (host arrays,
    and the CUDA simulator's device arrays, which wrap one), a ``(first, last)`` byte range of a
    device array (``__cuda_array_interface__``), or None for anything else."""
    if isinstance(v, np.ndarray):
        return v
    if isinstance(getattr(v, "_ary", None), np.ndarray):        # numba's CUDA simulator
        return v._ary
    cai = getattr(v, "__cuda_array_interface__", None)
    if cai is None or not cai.get("shape"):
        return None
    ptr, item = cai["data"][0], np.dtype(cai["typestr"]).itemsize
    shape = cai["shape"]
    strides = cai.get("strides") or tuple(int(np.prod(shape[i + 1:])) * item for i in range(len(shape)))
    lo = ptr + sum(min(0, (n - 1) * st) for n, st in zip(shape, strides))
    hi = ptr + sum(max(0, (n - 1) * st) for n, st in zip(shape, strides)) + item
    return (lo, hi)


def _overlap(a, b) -> bool:
    """Whether two :func:`_memory_of` values share memory (device ranges: by their extents)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and a[0] < b[1] and b[0] < a[1]
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b):
        return False
    try:
        return np.shares_memory(a, b, max_work=10 ** 6)
    except np.exceptions.TooHardError:
        return True


def check_aliasing(params, args) -> None:
    """Refuse ``Duplicated`` arrays (or shadows) that share memory with another array argument:
    the adjoint treats arguments as distinct, so ``shift(a, a)`` would get a wrong gradient.

    ``params``: parameter names; ``args``: the wrapped arguments in parameter order (every
    overlap with a ``Duplicated`` array counts: drivers, whose writes are not analysed).
    Raises :class:`ActivityError` naming both parameters."""
    check_aliasing_flat(params, *unwrap(args))


def check_aliasing_flat(params, activity, args, written=None, parallel=True) -> None:
    """:func:`check_aliasing` for a flat adjoint argument list (each ``"dup"`` argument followed
    by its shadow), as :class:`~adtrans.adjoint.AdjointFunction` and CUDA adjoint launches take
    it; host, simulator and device arrays alike.

    ``written``: the parameters the kernel writes (None: all).  In a serial kernel two names for
    one array that the kernel only reads are differentiated right (both shadows accumulate into
    one), so only an overlap involving a written parameter (or its shadow) is refused; in a
    parallel kernel (``parallel``) every overlap with a ``Duplicated`` array is."""
    key = (tuple(params), tuple(activity), None if written is None else frozenset(written), bool(parallel))
    pairs = _PAIRS.get(key)
    if pairs is None:
        if len(_PAIRS) > 1024:
            _PAIRS.clear()
        pairs = _PAIRS[key] = aliasing_pairs(params, activity, written, parallel)
    refuse_overlaps(pairs, args)


_PAIRS: dict = {}


def aliasing_pairs(params, activity, written=None, parallel=True) -> tuple:
    """The pairs ``(i, j, name_i, name_j, written)`` of flat argument positions (``i < j``, in
    order) that :func:`check_aliasing_flat` refuses to see overlap: one of the two is a
    ``Duplicated`` array or its shadow, and one is written by the primal (``written``) or one is a
    shadow and the other an array (the adjoint writes every shadow).  Depends on the activity and the kernel only, so a
    caller computes it once and checks each call with :func:`refuse_overlaps`."""
    roles, k = [], 0
    for p, a in zip(params, activity):
        w = written is None or parallel or p in written
        roles.append((k, p, a == "dup", w, False))
        if a == "dup":
            roles.append((k + 1, p + " (its shadow)", True, w, True))
        k += 2 if a == "dup" else 1
    # two read-only arrays may share memory, and so may the shadows of two read-only arrays (the
    # adjoint only adds into them: `f(a, a)` with one shadow gets both contributions); but a
    # shadow is written by the adjoint, so it may never overlap an array the adjoint reads,
    # its own included (`Duplicated(x, x)`)
    return tuple((ia, ib, pa, pb, wa or wb) for n, (ia, pa, da, wa, sa) in enumerate(roles)
                 for (ib, pb, db, wb, sb) in roles[n + 1:]
                 if (da or db) and (wa or wb or sa != sb))


def refuse_overlaps(pairs, args) -> None:
    """Raise :class:`ActivityError` for the first of :func:`aliasing_pairs`' ``pairs`` whose two
    arguments in the flat list ``args`` are arrays that share memory.  A tuple argument (a
    ``Duplicated`` tuple of arrays, or its tuple of shadows) counts element by element: each
    element pairs as its position does, and two elements of one tuple pair as two ``Duplicated``
    arguments would (where the position pairs with its own shadow: a tuple the kernel writes, or
    any in a parallel kernel), so ``Duplicated((a, a), (d_a, d_b))`` names ``p[0]`` and ``p[1]``.

    Cost: the byte extents of the arrays sorted once, then a sweep over them; only pairs whose
    extents intersect (never for distinct arrays) are tested exactly, so a call with ``n``
    distinct arrays costs ``O(n log n)``, not one test per pair (a driver with a hundred
    arguments has thousands of pairs)."""
    if not pairs:
        return
    order, positions, selves = _pair_order(pairs)
    spans = []
    for k in positions:
        if k < len(args):
            members = enumerate(args[k]) if type(args[k]) is tuple else [(None, args[k])]
            for j, v in members:
                m = _memory_of(v)
                if m is not None:
                    lo, hi = _extent(m)
                    if hi > lo:
                        spans.append((lo, hi, (k, j), m))
    spans.sort(key=lambda s: s[0])
    first = None
    open_spans: list = []
    for lo, hi, at, m in spans:
        open_spans = [s for s in open_spans if s[1] > lo]
        k = at[0]
        for _, _, at2, m2 in open_spans:
            k2 = at2[0]
            key = (k2, k) if k2 < k else (k, k2)
            n = order.get(key) if k2 != k else selves.get(k)
            if n is not None and not pairs[n[0]][4] and not (_may_be_float(m) and _may_be_float(m2)):
                n = None        # a shadow meets an array only: the adjoint writes float shadows only
            if n is not None and (first is None or n < first[0]) and _overlap(m2, m):
                first = (n, min(at, at2, key=_order_key), max(at, at2, key=_order_key))
        open_spans.append((lo, hi, at, m))
    if first is not None:
        (rank, _), (ka, ja), (kb, jb) = first
        i, j, pa, pb = pairs[rank][:4]
        if ka == kb:            # two elements of one tuple: the tuple is named by its pair with its shadow
            pa = pb = pa if ka == i else pb
        pa, pb = _element_name(pa, ja), _element_name(pb, jb)
        fix = (f"give {pb.split(' ')[0]} a shadow of its own (e.g. `np.zeros_like({pb.split(' ')[0]})`)"
               if pb.endswith("(its shadow)") and not pa.endswith("(its shadow)") else
               f"pass a copy (e.g. `{pb.split(' ')[0]}.copy()`), or give the kernel one parameter for both")
        raise ActivityError(
            f"arguments {pa} and {pb} share memory (the same array, or overlapping views), "
            f"and one is Duplicated: the adjoint needs distinct arrays; {fix}")


def _order_key(at) -> tuple:
    """Sort key of a ``(position, element or None)`` span label."""
    return at[0], -1 if at[1] is None else at[1]


def _element_name(label: str, j) -> str:
    """``label`` (``p`` or ``p (its shadow)``) of element ``j`` of a tuple argument (None: the
    argument itself): ``p[1]``, ``p[1] (its shadow)``."""
    if j is None:
        return label
    base, _, rest = label.partition(" ")
    return f"{base}[{j}]" + (f" {rest}" if rest else "")


_PAIR_ORDER: dict = {}


def _pair_order(pairs) -> tuple:
    """``({(i, j): (rank in pairs, 2)}, sorted positions named, {k: (rank, 0 or 1)})`` of a
    ``pairs`` tuple, kept per tuple (callers keep theirs: :class:`~adtrans.adjoint.AdjointFunction`
    computes it once).  The last maps the positions whose elements (of a tuple argument) pair
    with each other: a ``Duplicated`` position (0) and its shadow's (1) where the two pair (``p``
    and ``p (its shadow)``: the parameter counts as written), ranked with that pair."""
    hit = _PAIR_ORDER.get(id(pairs))
    if hit is None or hit[0] is not pairs:
        order: dict = {}
        selves: dict = {}
        for n, (i, j, pa, pb, written) in enumerate(pairs):
            order.setdefault((i, j), (n, 2))
            if written and j == i + 1 and pb == pa + " (its shadow)":      # (the arrays' overlap named before the shadows')
                selves.setdefault(i, (n, 0))
                selves.setdefault(j, (n, 1))
        hit = (pairs, order, sorted({k for ij in order for k in ij}), selves)
        if len(_PAIR_ORDER) > 4096:
            _PAIR_ORDER.clear()
        _PAIR_ORDER[id(pairs)] = hit
    return hit[1], hit[2], hit[3]


def _may_be_float(m) -> bool:
    """Whether a :func:`_memory_of` value may hold floats (a device byte range may)."""
    return not isinstance(m, np.ndarray) or m.dtype.kind in "fc"


_EXTENTS: dict = {}


def _extent(m) -> tuple:
    """``(first byte, one past the last)`` of a :func:`_memory_of` value (empty for no elements).

    Kept per array (a weak reference, checked with its shape and strides), since a driver or a
    time loop passes the same arrays call after call: reading ``__array_interface__`` costs
    ~5 us, the lookup under 1 us (LULESH's step passes ~460 arrays to its kernels' adjoints)."""
    if isinstance(m, tuple):
        return m
    hit = _EXTENTS.get(id(m))
    if hit is not None and hit[0]() is m and hit[1] == m.shape and hit[2] == m.strides:
        return hit[3]
    if m.size == 0:
        ext = (0, 0)
    else:
        lo = hi = m.__array_interface__["data"][0]
        for n, st in zip(m.shape, m.strides):
            if st < 0:
                lo += (n - 1) * st
            else:
                hi += (n - 1) * st
        ext = (lo, hi + m.itemsize)
    try:
        ref = weakref.ref(m)
    except TypeError:
        return ext
    if len(_EXTENTS) > 65536:
        _EXTENTS.clear()
    _EXTENTS[id(m)] = (ref, m.shape, m.strides, ext)
    return ext


def split_args(activity, args, check_shadows: bool = False) -> tuple[list, list]:
    """(primal arguments, the arguments after them) of a flat adjoint argument list ``args``
    (each ``"dup"`` argument followed by its shadow).  ``check_shadows``: shadows must be
    present and match their array's shape and dtype."""
    primal_args, k = [], 0
    for a in activity:
        if k >= len(args):
            raise ActivityError(f"too few arguments for activity {tuple(activity)}")
        primal_args.append(args[k])
        if a == "dup" and check_shadows:
            if k + 1 >= len(args):
                raise ActivityError(f"missing the shadow of argument {len(primal_args) - 1}")
            v, s = args[k], args[k + 1]
            if tuple(v.shape) != tuple(s.shape) or np.dtype(v.dtype) != np.dtype(s.dtype):
                raise ActivityError(f"shadow of shape {tuple(s.shape)} and dtype {s.dtype} for an array of "
                                    f"shape {tuple(v.shape)} and dtype {v.dtype}: they must match")
        k += 2 if a == "dup" else 1
    return primal_args, list(args[k:])


_ARRAY_TYPES: dict = {}


def _typeof_host(a):
    """``numba.typeof(a)``; for a plain NumPy array looked up by what its Numba type depends on
    (dtype, ndim, layout, writeable, aligned), as ``numba.typeof`` would build it."""
    if type(a) is not np.ndarray:
        return numba.typeof(a)
    flags = a.flags
    key = (a.dtype, a.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.aligned)
    t = _ARRAY_TYPES.get(key)
    if t is None:
        t = _ARRAY_TYPES[key] = numba.typeof(a)
    return t


_INT64 = (-(1 << 63), 1 << 63)
# NumPy scalars (``regElemStart[r]`` passed on) are typed by their dtype alone: np.float64, np.int64
# and np.bool_ as Python's float, int and bool are, the others each as itself.
_NUMPY_SCALARS = {np.float64: float, np.int64: int, np.bool_: bool, np.float32: np.float32,
                  np.int32: np.int32, np.int16: np.int16, np.int8: np.int8, np.uint64: np.uint64,
                  np.uint32: np.uint32, np.uint16: np.uint16, np.uint8: np.uint8,
                  np.complex128: np.complex128, np.complex64: np.complex64}


def host_key(args):
    """A cheap key that determines :func:`typeof_args` of host arguments (for a cache of the
    compiled adjoint per call): per plain NumPy array what its Numba type depends on, per Python
    ``float``/``bool``/``int`` (in int64 range) and NumPy scalar its type; None when an argument is anything else
    (then the caller types the arguments the long way)."""
    key = []
    for a in args:
        t = type(a)
        if t is np.ndarray:
            flags = a.flags
            key.append((a.dtype, a.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.aligned))
        elif t is float or t is bool:
            key.append(t)
        elif t is int and _INT64[0] <= a < _INT64[1]:
            key.append(t)
        elif t in _NUMPY_SCALARS:
            key.append(_NUMPY_SCALARS[t])
        else:
            return None
    return tuple(key)


def typeof_args(args) -> tuple:
    """Numba types of host arguments (as ``numba.typeof``; array types cached by their key)."""
    return tuple(_typeof_host(a) for a in args)


def typeof_arg(a):
    """Numba type of a kernel argument (numpy array, device array, scalar)."""
    try:
        return numba.typeof(a)
    except (ValueError, TypeError):
        pass
    if hasattr(a, "dtype") and hasattr(a, "ndim"):
        return nbtypes.Array(numba.from_dtype(np.dtype(a.dtype)), int(a.ndim), "A")
    raise ADError(f"cannot type kernel argument {a!r}")


def signature_types(fn, signature=None) -> tuple:
    """Argument types from a Numba ``signature`` string, else from ``fn``'s first compiled signature."""
    if signature is not None:
        args, _ = sigutils.normalize_signature(signature)
        return tuple(args)
    sigs = getattr(fn, "signatures", None)
    if sigs:
        return tuple(sigs[0])
    raise ADError("types unknown: pass example arguments or signature='float64(float64[:], int64)'")


_PARSE_LOCK = threading.Lock()
_PARSED: dict = {}


def primal_of(fn):
    """The parsed :class:`~adtrans.parse.Primal` of ``fn``, parsed once per Python function and
    dispatcher (two dispatchers of one function may differ in options such as ``fastmath``,
    which the adjoint inherits)."""
    pyfunc, _ = python_function(fn)
    key = (id(pyfunc), id(fn))
    with _PARSE_LOCK:
        hit = _PARSED.get(key)
        if hit is None or hit[0] is not pyfunc or hit[1] is not fn:
            hit = _PARSED[key] = (pyfunc, fn, parse_function(fn))
    return hit[2]

"""Arguments of adjoints, shared by every target: the activity wrappers, unwrapping them,
splitting a flat argument list, Numba types of arguments, and the parse cache."""
from __future__ import annotations

import threading

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
        self.value = float(value) if not isinstance(value, np.floating) else value


class Duplicated:
    """An array and its shadow (same shape and dtype); the shadow is updated in place."""
    __slots__ = ("value", "shadow")

    def __init__(self, value, shadow):
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


def typeof_args(args) -> tuple:
    """Numba types of host arguments."""
    return tuple(numba.typeof(a) for a in args)


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
    """The parsed :class:`~adtrans.parse.Primal` of ``fn``, parsed once per Python function."""
    pyfunc, _ = python_function(fn)
    key = id(pyfunc)
    with _PARSE_LOCK:
        hit = _PARSED.get(key)
        if hit is None or hit[0] is not pyfunc:
            hit = _PARSED[key] = (pyfunc, parse_function(fn))
    return hit[1]

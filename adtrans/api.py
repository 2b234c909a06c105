"""Public API: activity wrappers, ``autodiff``, ``grad``, ``adjoint``, ``source``.

Conventions follow Enzyme (Moses & Churavy, NeurIPS 2020): an argument is
``Const`` (no derivative), ``Active`` (a float scalar whose adjoint is
returned) or ``Duplicated`` (an array with a shadow of the same shape and
dtype).  On entry a shadow holds the seed (adjoint) of the array's final value;
on return it holds the adjoint of its initial value, added to what it held.
"""
from __future__ import annotations

import inspect
import threading

import numpy as np

from . import gencache
from .compile import load_module
from .errors import ActivityError, ADError
from .parse import parse_function, python_function
from .pipeline import generate, module_source, typeof_args


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


_LOCK = threading.Lock()
_PARSED: dict = {}
_COMPILED: dict = {}


def _primal(fn):
    pyfunc, _ = python_function(fn)
    key = id(pyfunc)
    hit = _PARSED.get(key)
    if hit is None or hit[0] is not pyfunc:
        hit = _PARSED[key] = (pyfunc, parse_function(fn))
    return hit[1]


def _compiled(fn, activity: tuple, argtypes: tuple):
    primal = _primal(fn)
    key = (id(primal.pyfunc), activity, argtypes)
    with _LOCK:
        hit = _COMPILED.get(key)
        if hit is None:
            disk_key = gencache.key_of(primal, activity, argtypes)
            gen = gencache.load(disk_key)
            if gen is None:
                gen = generate(primal, activity, argtypes)
                gencache.store(disk_key, gen)
            text, digest = module_source([gen], f"{primal.filename}:{primal.name}", primal.source)
            mod = load_module(text, digest, gen.global_arrays)
            hit = _COMPILED[key] = (gen, getattr(mod, gen.name))
    return hit


class AdjointFunction:
    """The compiled adjoint of ``fn`` for one activity tuple.

    Call it with the primal arguments in order, each ``"dup"`` argument
    followed by its shadow, then the seed (the adjoint of the returned float;
    omit it for kernels returning nothing).  Returns the tuple of adjoints of
    the ``"active"`` arguments.  Compiled once per argument types.
    """

    def __init__(self, fn, activity):
        self.fn = fn
        self.activity = tuple(a.lower() for a in activity)
        self.primal = _primal(fn)
        if len(self.activity) != len(self.primal.params):
            raise ActivityError(f"{self.primal.name} has {len(self.primal.params)} parameters, "
                                f"got {len(self.activity)} activities")

    def _split(self, args):
        primal_args, k = [], 0
        for a in self.activity:
            if k >= len(args):
                raise ActivityError(f"too few arguments for activity {self.activity}")
            primal_args.append(args[k])
            k += 2 if a == "dup" else 1
        return primal_args, list(args[k:])

    def __call__(self, *args):
        primal_args, seeds = self._split(args)
        gen, compiled = _compiled(self.fn, self.activity, typeof_args(primal_args))
        full = list(args[:len(args) - len(seeds)])
        if len(seeds) < len(gen.seeds):
            seeds = seeds + [1.0] * (len(gen.seeds) - len(seeds))
        full += seeds[:len(gen.seeds)]
        out = compiled(*full)
        return () if out is None else out

    def source(self, *primal_args) -> str:
        gen, _ = _compiled(self.fn, self.activity, typeof_args(primal_args))
        return gen.function_source


def adjoint(fn, activity) -> AdjointFunction:
    """Compiled adjoint of ``fn`` (an ``@njit`` kernel) for ``activity``.

    ``activity``: one of ``"const"``, ``"active"``, ``"dup"`` per parameter.
    See :class:`AdjointFunction` for the calling convention.
    Raises :class:`~adtrans.errors.UnsupportedError` for constructs without an
    adjoint rule, :class:`~adtrans.errors.ActivityError` for bad activities.
    """
    if _is_cuda_kernel(fn):
        from .cuda import cuda_adjoint
        return cuda_adjoint(fn, activity)
    return AdjointFunction(fn, activity)


def _is_cuda_kernel(fn) -> bool:
    mod = type(fn).__module__
    return mod.startswith("numba.cuda") or mod.startswith("numba_cuda")


def _unwrap(args):
    activity, flat, actives = [], [], []
    for a in args:
        if isinstance(a, Duplicated):
            activity.append("dup")
            flat += [a.value, a.shadow]
        elif isinstance(a, Active):
            activity.append("active")
            flat.append(a.value)
            actives.append(a)
        elif isinstance(a, Const):
            activity.append("const")
            flat.append(a.value)
        else:
            activity.append("const")
            flat.append(a)
    return tuple(activity), flat


def autodiff(fn, *args, seed=1.0):
    """Run the forward and reverse sweeps of ``fn`` on ``args``.

    ``args``: the primal arguments, each optionally wrapped in :class:`Const`,
    :class:`Active` or :class:`Duplicated` (unwrapped = ``Const``).  ``seed``:
    the adjoint of ``fn``'s returned float (ignored for kernels returning
    nothing).  Arrays are updated in place as the primal updates them; shadows
    are updated as described in :class:`Duplicated`.  Returns a tuple with the
    adjoint of each ``Active`` argument, in order.
    """
    if not hasattr(fn, "py_func") and inspect.isfunction(fn):
        from .driver import autodiff_driver
        return autodiff_driver(fn, args, seed)
    activity, flat = _unwrap(args)
    adj = AdjointFunction(fn, activity)
    seeds = list(seed) if isinstance(seed, (tuple, list)) else [seed]
    out = adj(*flat, *seeds)
    return tuple(out)


def grad(fn, argnums=0):
    """Gradient of a float-valued ``fn`` with respect to the argument(s) ``argnums``.

    Returns a function taking ``fn``'s arguments and returning one gradient
    (``argnums`` an int) or a tuple (``argnums`` a tuple): same-shape arrays
    for array arguments, floats for float arguments.
    """
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def gradient(*args):
        wrapped, shadows = [], {}
        for k, a in enumerate(args):
            if k in nums:
                if isinstance(a, np.ndarray):
                    shadows[k] = np.zeros_like(a)
                    wrapped.append(Duplicated(a, shadows[k]))
                else:
                    wrapped.append(Active(a))
            else:
                wrapped.append(Const(a))
        adjs = iter(autodiff(fn, *wrapped))
        out = []
        for k in sorted(nums):
            out.append(shadows[k] if k in shadows else float(next(adjs)))
        by_k = dict(zip(sorted(nums), out))
        res = tuple(by_k[k] for k in nums)
        return res[0] if isinstance(argnums, int) else res
    gradient.__name__ = f"grad_{getattr(fn, '__name__', 'fn')}"
    return gradient


def source(fn, activity, *args, signature=None) -> str:
    """The generated adjoint source of ``fn`` for ``activity`` as a string.

    Types come from example ``args``, else from ``signature`` (Numba syntax,
    e.g. ``"float64(float64[:], int64)"``), else from the kernel's first
    compiled signature.  Raises :class:`ADError` when none is available.
    """
    if _is_cuda_kernel(fn):
        from .cuda import cuda_source
        return cuda_source(fn, activity, *args, signature=signature)
    if not hasattr(fn, "py_func") and inspect.isfunction(fn):
        from .driver import driver_source
        return driver_source(fn, activity, *args)
    primal = _primal(fn)
    if args:
        argtypes = typeof_args(args)
    else:
        argtypes = _signature_types(fn, signature)
    gen = generate(primal, tuple(a.lower() for a in activity), argtypes)
    return gen.function_source


def _signature_types(fn, signature):
    from numba.core import sigutils
    if signature is not None:
        args, _ = sigutils.normalize_signature(signature)
        return tuple(args)
    sigs = getattr(fn, "signatures", None)
    if sigs:
        return tuple(sigs[0])
    raise ADError("types unknown: pass example arguments or signature='float64(float64[:], int64)'")

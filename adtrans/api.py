"""Public API: activity wrappers, ``autodiff``, ``grad``, ``adjoint``, ``source``.

Conventions follow Enzyme (Moses & Churavy, NeurIPS 2020): an argument is
``Const`` (no derivative), ``Active`` (a float scalar whose adjoint is
returned) or ``Duplicated`` (an array with a shadow of the same shape and
dtype).  On entry a shadow holds the seed (adjoint) of the array's final value;
on return it holds the adjoint of its initial value, added to what it held.
"""
from __future__ import annotations

import numpy as np

from .adjoint import AdjointFunction
from .arguments import (Active, Const, Duplicated, bind_arguments, check_aliasing, param_names, primal_of,
                        signature_types, typeof_args, unwrap)
from .cuda import cuda_adjoint, cuda_source
from .dispatch import target_of
from .driver import autodiff_driver, driver_source
from .build import generated
from .errors import ActivityError
from .pipeline import ACTIVITIES
from .secondorder import hessian_diag, hvp

__all__ = ["Active", "AdjointFunction", "Const", "Duplicated", "adjoint", "autodiff", "grad", "hessian_diag", "hvp",
           "source"]

_primal = primal_of         # kept for callers of the former private name


def adjoint(fn, activity):
    """Compiled adjoint of ``fn`` (an ``@njit`` kernel) for ``activity``.

    ``activity``: one of ``"const"``, ``"active"``, ``"dup"`` per parameter.
    See :class:`AdjointFunction` for the calling convention; a ``@cuda.jit``
    kernel gets a :class:`~adtrans.cuda.CudaAdjointKernel`.
    Raises :class:`~adtrans.errors.UnsupportedError` for constructs without an
    adjoint rule, :class:`~adtrans.errors.ActivityError` for bad activities.
    """
    if target_of(fn).kind == "cuda":
        return cuda_adjoint(fn, activity)
    return AdjointFunction(fn, activity)


def autodiff(fn, *args, seed=1.0, checkpoints=None, **kwargs):
    """Run the forward and reverse sweeps of ``fn`` on ``args``.

    ``args``: the primal arguments, each optionally wrapped in :class:`Const`,
    :class:`Active` or :class:`Duplicated` (unwrapped = ``Const``).  ``seed``:
    the adjoint of ``fn``'s returned float (ignored for kernels returning
    nothing).  Arrays are updated in place as the primal updates them; shadows
    are updated as described in :class:`Duplicated`.  Returns a tuple with the
    adjoint of each ``Active`` argument, in order.  Parameters may be passed by keyword
    and defaulted ones omitted (their defaults are ``Const``).  Raises
    :class:`~adtrans.errors.ActivityError` when a ``Duplicated`` array shares memory with
    another array argument (both parameters named).

    ``checkpoints`` (drivers only): None stores what every step of the driver's
    time loops overwrites; an int ``N`` runs its outer ``for`` loops under a
    binomial schedule with ``N`` snapshots (recomputing steps; same gradient).
    """
    args = bind_arguments(fn, args, kwargs)
    if target_of(fn).kind == "driver":
        check_aliasing(param_names(fn), args)
        return autodiff_driver(fn, args, seed, checkpoints)
    if checkpoints is not None:
        raise TypeError("checkpoints= applies to plain-Python drivers (their time loops), not to kernels")
    activity, flat = unwrap(args)
    adj = AdjointFunction(fn, activity)
    seeds = list(seed) if isinstance(seed, (tuple, list)) else [seed]
    out = adj(*flat, *seeds)
    return tuple(out)


# kernel -> activity -> AdjointFunction, shared by every `grad` of that kernel: `grad(f)(x)` written
# inline (a new gradient function per call) then pays no construction and no typing of its
# arguments the long way per call (AdjointFunction keeps its compiled adjoint per argument types);
# heat time loop of `make bench`: 0.10-0.24 ms of a ~1 ms call.  Drivers go through autodiff.
_GRAD_ADJOINTS: dict = {}


def grad_adjoint(fn, activity: tuple) -> AdjointFunction:
    """The :class:`AdjointFunction` of kernel ``fn`` for ``activity`` that :func:`grad` calls."""
    by_activity = _GRAD_ADJOINTS.get(fn)
    if by_activity is None:
        by_activity = _GRAD_ADJOINTS[fn] = {}
    adj = by_activity.get(activity)
    if adj is None:
        adj = by_activity[activity] = AdjointFunction(fn, activity)
    return adj


def grad(fn, argnums=0):
    """Gradient of a float-valued ``fn`` with respect to the argument(s) ``argnums``.

    Returns a function taking ``fn``'s arguments and returning one gradient
    (``argnums`` an int) or a tuple (``argnums`` a tuple): same-shape arrays
    for array arguments, floats for float arguments.
    """
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    single = isinstance(argnums, int)
    # per call only what depends on the arguments: the target (fixed per function) is looked up
    # once, and a float-valued kernel of array arguments needs no sorting of its results (each
    # Python-level step of a call costs 1-5 us; heat time loop of `make bench`: primal ~0.2 ms)
    target = []

    def gradient(*args, **kwargs):
        if not target:
            target.append(target_of(fn).kind)
        args = [a.value if isinstance(a, Const) else a for a in bind_arguments(fn, args, kwargs)]
        if target[0] == "driver":
            return _driver_gradient(fn, nums, argnums, args)
        activity, flat, shadows = [], [], {}
        for k, a in enumerate(args):
            if k in nums:
                if isinstance(a, np.ndarray):
                    shadows[k] = sh = _zeros_like(a)
                    activity.append("dup")
                    flat += (a, sh)
                else:
                    activity.append("active")
                    flat.append(Active(a).value)
            else:
                activity.append("const")
                flat.append(a)
        out = grad_adjoint(fn, tuple(activity))(*flat, 1.0)
        if single and not out:          # one array argument: its shadow
            return shadows[argnums]
        return _gradient_result(nums, argnums, shadows, out)
    gradient.__name__ = f"grad_{getattr(fn, '__name__', 'fn')}"
    return gradient


def _zeros_like(a):
    """``np.zeros_like(a)``; for a C-contiguous NumPy array the same as ``np.zeros(a.shape, a.dtype)``,
    which costs ~0.6 us against ~5 us."""
    if type(a) is np.ndarray and a.flags.c_contiguous:
        return np.zeros(a.shape, a.dtype)
    return np.zeros_like(a)


def _driver_gradient(fn, nums, argnums, args):
    """``grad``'s gradient of a plain-Python driver: through :func:`autodiff`, arguments wrapped."""
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
    return _gradient_result(nums, argnums, shadows, autodiff(fn, *wrapped))


def _gradient_result(nums, argnums, shadows, adjoints):
    """``grad``'s result: the shadow or the returned adjoint of each of ``argnums``, in its order."""
    adjs = iter(adjoints)
    by_k = {k: shadows[k] if k in shadows else float(next(adjs)) for k in sorted(nums)}
    res = tuple(by_k[k] for k in nums)
    return res[0] if isinstance(argnums, int) else res


def source(fn, activity, *args, signature=None) -> str:
    """The generated adjoint source of ``fn`` for ``activity`` as a string.

    ``activity``: one of ``"const"``, ``"active"``, ``"dup"`` per parameter; or call it as
    ``autodiff`` is called, with wrapped arguments
    (``source(f, Duplicated(x, dx), Active(c), n)``), whose values then serve as examples.
    Types come from example ``args``, else from ``signature`` (Numba syntax,
    e.g. ``"float64(float64[:], int64)"``), else (``@cuda.jit`` kernels) from
    the last adjoint launch, else from the kernel's first compiled signature.
    Raises :class:`ADError` when none is available, :class:`ActivityError` for an activity that
    is neither.
    """
    activity, args = _activity_and_examples(activity, args)
    kind = target_of(fn).kind
    if kind == "cuda":
        return cuda_source(fn, activity, *args, signature=signature)
    if kind == "driver":
        return driver_source(fn, activity, *args)
    primal = primal_of(fn)
    if args:
        argtypes = typeof_args(args)
    else:
        argtypes = signature_types(fn, signature)
    return generated(primal, tuple(a.lower() for a in activity), tuple(argtypes)).function_source


def _activity_and_examples(activity, args) -> tuple[tuple, tuple]:
    """``source``'s two calling forms as (activity names, example primal values)."""
    if isinstance(activity, (Const, Active, Duplicated)):
        wrapped = (activity,) + tuple(args)
        names, _ = unwrap(wrapped)
        return names, tuple(a.value if isinstance(a, (Const, Active, Duplicated)) else a for a in wrapped)
    if isinstance(activity, str) or not isinstance(activity, (tuple, list)) or not all(
            isinstance(a, str) and a.lower() in ACTIVITIES for a in activity):
        raise ActivityError(f"source(fn, activity, *args): activity must be a tuple naming one of {ACTIVITIES} per "
                            f"parameter (e.g. ('dup', 'const')), or the arguments wrapped as for autodiff "
                            f"(Duplicated(x, dx), Active(c), ...); got {activity!r}")
    return tuple(activity), tuple(args)

"""Second order on the CPU: Hessian-vector products and Hessian diagonals, forward over reverse.

The compiled adjoint's own source is read back as a primal and differentiated in forward mode
(:func:`adtrans.pipeline.generate_tangent`): one run of the tangent function gives the gradient
``d_x`` and its directional derivative ``d(d_x) = H v`` (Pearlmutter's R-operator applied to
the adjoint).  Cost: about two to three adjoint runs per direction, no extra tape.
"""
from __future__ import annotations

import threading

import numpy as np

from .arguments import bind_arguments, primal_of, typeof_args
from .build import compiled
from .compile import load_module
from .dispatch import target_of
from .errors import ActivityError, UnsupportedError
from .pipeline import generate_tangent, module_source
from .targets.cpu import CPU, CPU_PLAIN
from .analyse.effects import written_params

_LOCK = threading.RLock()
_TANGENTS: dict = {}


def tangent_adjoint(fn, activity: tuple, argtypes: tuple, inputs: tuple):
    """``(GeneratedTangent, compiled tangent function, Generated adjoint)`` of ``fn``'s adjoint for
    ``activity`` and Numba ``argtypes``, with respect to the primal parameters ``inputs``;
    generated and compiled once per process (Numba caches the machine code on disk)."""
    primal = primal_of(fn)
    key = (id(primal), activity, argtypes, inputs)
    with _LOCK:
        hit = _TANGENTS.get(key)
        if hit is None:
            gen, _ = compiled(fn, activity, argtypes, CPU_PLAIN)     # no tape pools or views
            tan = generate_tangent(primal, gen, activity, argtypes, inputs)
            text, digest = module_source([tan], f"{primal.filename}:{primal.name} (tangent of the adjoint)",
                                         primal.source + "\0tangent " + repr(inputs), CPU)
            mod = load_module(text, digest, tan.global_arrays)
            hit = _TANGENTS[key] = (tan, getattr(mod, tan.name), gen)
    return hit


def _directions(nums, v):
    vs = (v,) if len(nums) == 1 and not isinstance(v, tuple) else tuple(v)
    if len(vs) != len(nums):
        raise ActivityError(f"{len(nums)} differentiated argument(s) but {len(vs)} direction(s)")
    return dict(zip(nums, vs))


def _run(fn, nums, args, directions):
    """One run of the tangent of ``fn``'s adjoint: ``(gradient, H v)`` per argument in ``nums``.
    Float arrays outside ``nums`` that the kernel writes into are ``dup`` (their tangent is 0:
    what the kernel stores into them may depend on the differentiated arguments)."""
    kind = target_of(fn).kind
    if kind != "cpu":
        raise UnsupportedError(f"second order of a {'@cuda.jit kernel' if kind == 'cuda' else 'plain-Python driver'}",
                               "second order (hvp, hessian_diag) covers @njit kernels; call the kernel's "
                               "computation from an @njit function")
    args = [a for a in args]
    primal = primal_of(fn)
    written = {primal.params[k] for k in written_params(fn)}
    activity = []
    for k, a in enumerate(args):
        if k in nums:
            if isinstance(a, np.ndarray) and a.dtype.kind == "f":
                activity.append("dup")
            elif isinstance(a, (float, np.floating)):
                activity.append("active")
                args[k] = float(a)
            else:
                raise ActivityError(f"argument {k} is {type(a).__name__}: second order needs float arrays or floats")
        elif isinstance(a, np.ndarray) and a.dtype.kind == "f" and primal.params[k] in written:
            activity.append("dup")
        else:
            activity.append("const")
    activity = tuple(activity)
    argtypes = typeof_args(args)
    inputs = tuple(primal.params[k] for k in nums)
    tan, tfn, gen = tangent_adjoint(fn, activity, argtypes, inputs)
    if gen.seed_args or not gen.seeds:
        raise ActivityError(f"{primal.name} returns {'arrays' if gen.seed_args else 'nothing'}: second order needs "
                            f"a float-valued function (return the float whose Hessian you need)")
    params = iter(tan.params)
    flat, shadows = [], {}
    for k, (a, act) in enumerate(zip(args, activity)):
        name, dot = next(params)
        flat.append(a)
        if dot is not None:
            d = directions.get(k) if k in nums else None
            if isinstance(a, np.ndarray):
                flat.append(np.zeros_like(a) if d is None else np.array(d, dtype=a.dtype).reshape(a.shape))  # a copy: the
                # tangent of an array the kernel overwrites is overwritten too
            else:
                flat.append(0.0 if d is None else float(d))
        if act == "dup":
            sname, sdot = next(params)
            shadows[k] = (np.zeros_like(a), np.zeros_like(a))
            flat.append(shadows[k][0])
            if sdot is not None:
                flat.append(shadows[k][1])
    for name, dot in params:        # the seed(s): the adjoint of the returned float
        flat.append(1.0)
        if dot is not None:
            flat.append(0.0)
    out = tfn(*flat)
    out = () if out is None else tuple(out)
    n = len(tan.returns)
    scalars = iter(zip(out[:n], out[n:]))
    result = {}
    for k in sorted(nums):
        if k in shadows:
            result[k] = shadows[k]
        else:
            g, h = next(scalars)
            result[k] = (float(g), float(h))
    return result


def hvp(fn, argnums=0, with_grad: bool = False):
    """Hessian-vector product of a float-valued ``@njit`` kernel ``fn``.

    ``hvp(fn, argnums)(*args, v)``: ``H v`` where ``H`` is the Hessian of ``fn`` with respect to
    the argument(s) ``argnums`` at ``args`` and ``v`` the direction (shaped like the argument,
    a float for a float argument; a tuple of directions when ``argnums`` is a tuple, and the
    result a tuple).  ``with_grad=True``: returns ``(gradient, H v)`` from the same run.
    Forward over reverse (:mod:`adtrans.secondorder`); the derivative rules are the table's
    (:mod:`adtrans.rules.derivatives`), the singular-point convention included.
    Raises :class:`~adtrans.errors.UnsupportedError` where the adjoint has no tangent,
    :class:`~adtrans.errors.ActivityError` for non-float arguments in ``argnums``.
    """
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def hessian_vector(*args_and_v):
        if not args_and_v:
            raise ActivityError("hvp(fn)(*args, v): pass the arguments, then the direction")
        *args, v = args_and_v
        args = bind_arguments(fn, tuple(args))
        args = [a.value if hasattr(a, "value") else a for a in args]
        res = _run(fn, nums, args, _directions(nums, v))
        grads = tuple(res[k][0] for k in nums)
        hvs = tuple(res[k][1] for k in nums)
        if isinstance(argnums, int):
            return (grads[0], hvs[0]) if with_grad else hvs[0]
        return (grads, hvs) if with_grad else hvs
    hessian_vector.__name__ = f"hvp_{getattr(fn, '__name__', 'fn')}"
    return hessian_vector


def hessian_diag(fn, argnums: int = 0, colors=None, with_grad: bool = False):
    """Diagonal of the Hessian of a float-valued ``@njit`` kernel ``fn`` with respect to the array
    (or float) argument ``argnums``, shaped like it.

    ``colors``: an integer array shaped like the argument grouping entries whose mutual second
    derivatives are zero (structurally orthogonal: ``H[i, j] == 0`` for ``i != j`` of one colour);
    the diagonal costs one Hessian-vector product per colour (the seed is the colour's indicator,
    Curtis, Powell & Reid 1974).  None: every entry its own colour (exact for any Hessian, one
    product per entry).  A Hessian known to be diagonal (k-means' cost w.r.t. the centroids)
    takes ``colors=np.zeros(shape, int)``: one product.  ``with_grad=True``: returns
    ``(gradient, diagonal)``; the gradient comes from the first run.
    """
    def diagonal(*args):
        bound = [a.value if hasattr(a, "value") else a for a in bind_arguments(fn, tuple(args))]
        x = bound[argnums]
        if not isinstance(x, np.ndarray):
            g, h = _run(fn, (argnums,), bound, {argnums: 1.0})[argnums]
            return (g, h) if with_grad else h
        c = np.arange(x.size).reshape(x.shape) if colors is None else np.asarray(colors)
        if c.shape != x.shape:
            raise ActivityError(f"colors of shape {c.shape} for an argument of shape {x.shape}")
        diag = np.zeros_like(x)
        grad = None
        for color in np.unique(c):
            mask = c == color
            g, h = _run(fn, (argnums,), bound, {argnums: mask.astype(x.dtype)})[argnums]
            grad = g if grad is None else grad
            diag[mask] = h[mask]
        return (grad, diag) if with_grad else diag
    diagonal.__name__ = f"hessian_diag_{getattr(fn, '__name__', 'fn')}"
    return diagonal

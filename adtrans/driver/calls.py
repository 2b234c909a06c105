"""Classify the calls of a driver function by what they call.

A driver's names resolve in its module's globals (at transformation time, by
attribute reads only: nothing is called).  A call is one of:

``kernel``      an ``@njit`` function (Numba CPU dispatcher): differentiated with
                :func:`adtrans.adjoint`;
``numpy``/``math``/``builtin``  a function with (or without) a driver adjoint
                rule (see :mod:`adtrans.driver.exprs`);
``method``      an array method on a local (``u.copy()``, ``u.sum()``);
``mpi``         an mpi4py method (``comm.Send``, ``req.Wait``,
                ``MPI.Request.Waitall``) -- recognised by name on locals, by
                the object's module on globals;
``append``      ``lst.append(x)`` on a local list (requests);
``python``      a plain Python function (a helper: inlined by the normaliser, :mod:`.jumps`);
``passive``     known to return values without derivatives (``MPI.Status()``);
``unknown``     anything else (rejected when its arguments are active).
"""
from __future__ import annotations

import ast
import builtins
import inspect
import math
from dataclasses import dataclass

import numpy as np

from ..mpi.specs import MPI_NAMES
from ..rules.derivatives import LAPACK
from ..parse import is_cuda_dispatcher

#: NumPy functions that return values without derivative (constructors, indices, predicates,
#: piecewise-constant functions): passive whatever their arguments.
NUMPY_PASSIVE = frozenset({
    "zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like", "arange", "eye",
    "identity", "shape", "size", "ndim", "isnan", "isfinite", "isinf", "argmax", "argmin", "argsort", "sign",
    "floor", "ceil", "round", "rint", "trunc", "array_equal", "allclose", "isclose", "nonzero", "count_nonzero",
    "any", "all", "searchsorted", "unravel_index", "ravel_multi_index", "iinfo", "finfo", "dtype",
    "flatnonzero", "argwhere",
})
#: NumPy constructors whose values come from one argument (``np.full(shape, v)``): active with it
NUMPY_FILLS = {"full": 1, "full_like": 1}
#: builtins that return values without derivative
BUILTIN_PASSIVE = frozenset({"len", "range", "int", "bool", "round", "isinstance", "enumerate", "zip", "reversed",
                             "str", "repr", "print", "divmod", "type", "id", "hash", "sorted", "list", "tuple"})
#: array methods without derivative
METHOD_PASSIVE = frozenset({"argmax", "argmin", "argsort", "nonzero", "any", "all"})
#: array methods with a driver adjoint rule
METHOD_RULES = frozenset({"copy", "sum", "mean", "dot", "ravel", "flatten", "reshape", "max", "min", "std", "var",
                          "prod", "clip"})


_LAPACK_OBJECTS = {id(getattr(np.linalg, f.split(".")[1])): f for f in LAPACK}


@dataclass
class CallKind:
    """What a call in a driver calls: ``kind`` (see the module doc), ``name`` (the function or
    method name), ``obj`` (the resolved object for globals) and ``receiver`` (for methods)."""
    kind: str
    name: str
    obj: object = None
    receiver: ast.expr | None = None


def lapack_of(kind: CallKind) -> str | None:
    """``"linalg.solve"`` for a call of ``np.linalg.solve`` (a name of the LAPACK rule table,
    :data:`adtrans.rules.derivatives.LAPACK`), else None."""
    return _LAPACK_OBJECTS.get(id(kind.obj)) if kind.kind == "numpy" else None


def _is_mpi_object(obj) -> bool:
    if inspect.ismodule(obj):
        return obj.__name__ == "mpi4py.MPI"
    mod = getattr(obj, "__module__", None) if inspect.isclass(obj) else type(obj).__module__
    return isinstance(mod, str) and mod.startswith("mpi4py")


def _is_kernel(obj) -> bool:
    return hasattr(obj, "py_func") and type(obj).__module__.startswith("numba") and not is_cuda_dispatcher(obj)


def _is_cuda(obj) -> bool:
    return hasattr(obj, "py_func") and is_cuda_dispatcher(obj)


class Resolver:
    """Resolves names of a driver in ``globs``; ``local_names`` are the driver's locals and parameters."""

    def __init__(self, globs: dict, local_names: set):
        self.globs = globs or {}
        self.locals = set(local_names)

    def resolve(self, node):
        """The object a global Name/Attribute chain names, or None (locals, unknown names)."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id in self.locals:
            return None
        if node.id in self.globs:
            obj = self.globs[node.id]
        elif hasattr(builtins, node.id):
            obj = getattr(builtins, node.id)
        else:
            return None
        for p in reversed(parts):
            try:
                obj = getattr(obj, p)
            except AttributeError:
                return None
        return obj

    def is_local_root(self, node) -> bool:
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
        return isinstance(node, ast.Name) and node.id in self.locals

    def classify(self, call: ast.Call) -> CallKind:
        func = call.func
        if isinstance(func, ast.Attribute):
            meth = func.attr
            recv = self.resolve(func.value)
            if recv is None:
                # a method of a local or of a computed value (`u.sum()`, `np.exp(x).sum()`, `comm.Send`)
                if meth in MPI_NAMES and self.is_local_root(func.value):
                    return CallKind("mpi", meth, receiver=func.value)
                if meth == "append" and self.is_local_root(func.value):
                    return CallKind("append", meth, receiver=func.value)
                if meth in METHOD_RULES or meth in METHOD_PASSIVE:
                    return CallKind("method", meth, receiver=func.value)
                return CallKind("unknown", meth, receiver=func.value)
            if _is_mpi_object(recv) and meth in MPI_NAMES:
                return CallKind("mpi", meth, obj=recv, receiver=func.value)
        if isinstance(func, ast.Name) and func.id in self.locals:
            return CallKind("unknown", func.id)
        obj = self.resolve(func)
        name = getattr(obj, "__name__", None) or (func.attr if isinstance(func, ast.Attribute) else
                                                   getattr(func, "id", "?"))
        if obj is None:
            return CallKind("unknown", name)
        if _is_kernel(obj):
            return CallKind("kernel", obj.__name__, obj)
        if _is_cuda(obj):
            return CallKind("cuda", obj.__name__, obj)
        if isinstance(obj, np.ufunc) or (getattr(obj, "__module__", None) or "").startswith("numpy") \
                or obj is np.float64 or obj is np.float32:
            return CallKind("numpy", name, obj)
        if getattr(math, name, None) is obj:
            return CallKind("math", name, obj)
        if getattr(builtins, name, None) is obj:
            return CallKind("builtin", name, obj)
        if _is_mpi_object(obj):
            return CallKind("passive", name, obj)
        if inspect.isfunction(obj):
            return CallKind("python", name, obj)
        return CallKind("unknown", name, obj)

"""Which parameters of an ``@njit`` kernel the kernel may overwrite (and whether it returns a value).

Stage 3 (analyse); asked by the driver adjoint and by second order.  The driver
adjoint saves a copy of each array a kernel call overwrites (to give the kernel's
adjoint its inputs and to restore the primal state in the reverse
sweep), so it needs the written parameters.  This is a conservative AST
analysis of the kernel's source:

- a name *may refer to* parameter ``p`` when it is ``p`` or is assigned (or a
  ``for`` target over) an expression mentioning a name that may refer to ``p``
  (views, rows, aliases; scalars too, harmlessly);
- ``p`` is written when a subscript store (``x[i] = ...``, ``x[i] += ...``)
  has a root name that may refer to ``p``; when such a name is passed to an
  ``@njit`` callee that writes the matching parameter (analysed recursively);
  to a NumPy function with ``out=`` or that mutates (``np.copyto`` ...); to a
  mutating array method (``fill``, ``sort`` ...); or to anything unknown.

Over-approximation only costs memory (an extra copy); it never makes a gradient wrong.

:func:`read_params` is the twin for reads: ``p`` is read when a name that may refer to it is
loaded anywhere except as the root of a plain store target (``x[i] = ...``; ``x[i] += ...``
reads), or is passed to an ``@njit`` callee that reads the matching parameter, or to anything
else.  A parameter that is written but not read is an *output* of the kernel: its adjoint (which
reruns the kernel's forward sweep) never looks at its values before the call, so the driver
need not give them back before the adjoint, nor save them when no earlier statement reads them.
"""
from __future__ import annotations

import ast
import builtins
import inspect
import math
import threading

from ..parse import parse_function
from ..ir.walk import iter_nodes

_PURE_BUILTINS = {"len", "range", "min", "max", "abs", "float", "int", "bool", "round", "sum", "print",
                  "enumerate", "zip", "reversed", "divmod", "pow", "isinstance", "complex", "tuple", "list"}
_NP_MUTATING = {"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis", "shuffle"}
_PURE_METHODS = {"sum", "copy", "reshape", "ravel", "flatten", "astype", "transpose", "dot", "min", "max", "mean",
                 "prod", "any", "all", "argmin", "argmax", "view", "item", "conj", "conjugate", "cumsum", "cumprod",
                 "std", "var", "nonzero", "tolist", "searchsorted", "real", "imag", "T", "argsort", "clip",
                 "round", "trace", "diagonal", "squeeze", "swapaxes"}

_LOCK = threading.RLock()
_CACHE: dict = {}
_IN_PROGRESS = object()


def _root(node):
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _resolve(node, globs):
    """The object a Name/Attribute chain names in the kernel's globals, or None."""
    if globs is None:
        return None
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    if node.id in globs:
        obj = globs[node.id]
    elif hasattr(builtins, node.id):
        obj = getattr(builtins, node.id)
    else:
        return None
    for p in reversed(parts):
        obj = getattr(obj, p, None)
        if obj is None:
            return None
    return obj


def _module_of(obj) -> str:
    mod = getattr(obj, "__module__", None) or ""
    if not mod and type(obj).__name__ == "ufunc":
        return "numpy"
    return mod


def _cached(cache: dict, kernel, analyse) -> frozenset:
    """``analyse(tree, params, globals)`` of ``kernel``'s source, cached in ``cache``; a
    recursive call (the kernel reaching itself) answers every parameter (conservative)."""
    pyfunc = getattr(kernel, "py_func", kernel)
    with _LOCK:
        hit = cache.get(pyfunc)
        if hit is _IN_PROGRESS:
            return frozenset(range(pyfunc.__code__.co_argcount))
        if hit is not None:
            return hit
        cache[pyfunc] = _IN_PROGRESS
        try:
            primal = parse_function(kernel)
            result = analyse(primal.tree, primal.params, primal.globals)
        except BaseException:
            del cache[pyfunc]
            raise
        cache[pyfunc] = result
        return result


def written_params(kernel) -> frozenset:
    """Positions of the parameters ``kernel`` (an ``@njit`` dispatcher) may write.  Cached."""
    return _cached(_CACHE, kernel, _analyse)


def written_in(tree: ast.FunctionDef, globs=None) -> frozenset:
    """Positions of the parameters of the function ``tree`` (parsed source, e.g. a generated
    adjoint) that it may write, by the analysis of :func:`written_params`; ``globs``: the
    function's globals, to analyse the ``@njit`` functions it calls (None: every call that is
    given a parameter counts as writing it)."""
    return _analyse(tree, [a.arg for a in tree.args.args], globs)


_READ_CACHE: dict = {}


def read_params(kernel) -> frozenset:
    """Positions of the parameters whose values ``kernel`` (an ``@njit`` dispatcher) may read
    (conservative: any load of a name that may refer to the parameter, see the module doc).
    Cached."""
    return _cached(_READ_CACHE, kernel, _analyse_reads)


def returns_value(kernel) -> bool:
    """Does ``kernel`` (an ``@njit`` dispatcher) have a ``return`` with a value (other than
    ``None``)?  Conservative: a nested function's return counts too."""
    tree = parse_function(kernel).tree
    return any(isinstance(n, ast.Return) and n.value is not None and
               not (isinstance(n.value, ast.Constant) and n.value.value is None) for n in iter_nodes(tree))


def _refers(tree: ast.FunctionDef, params: list) -> tuple:
    """``(refers, mentioned)``: for each name, the parameters it may refer to, and the function
    giving the parameters an expression mentions."""
    refers = {p: {i} for i, p in enumerate(params)}

    def mentioned(expr) -> set:
        out = set()
        for n in iter_nodes(expr):
            if isinstance(n, ast.Name) and n.id in refers:
                out |= refers[n.id]
        return out

    def bind(target, value_params):
        changed = False
        for n in iter_nodes(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and value_params:
                cur = refers.setdefault(n.id, set())
                if not value_params <= cur:
                    cur |= value_params
                    changed = True
        return changed

    changed = True
    while changed:
        changed = False
        for node in iter_nodes(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    changed |= bind(t, mentioned(node.value))
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                changed |= bind(node.target, mentioned(node.value))
            elif isinstance(node, ast.For):
                changed |= bind(node.target, mentioned(node.iter))
            elif isinstance(node, ast.NamedExpr):
                changed |= bind(node.target, mentioned(node.value))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                changed |= bind(node.optional_vars, mentioned(node.context_expr))
    return refers, mentioned


def _analyse_reads(tree: ast.FunctionDef, params: list, globs) -> frozenset:
    refers, mentioned = _refers(tree, params)
    skip: set = set()           # Name nodes that are not reads: roots of plain store targets, callee arguments
    read: set = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for tt in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                    if isinstance(tt, ast.Subscript) and isinstance(tt.value, ast.Name):
                        skip.add(id(tt.value))
        elif isinstance(node, ast.Call):
            callee = _resolve(node.func, globs)
            if hasattr(callee, "py_func") and not node.keywords:
                inner = read_params(callee)
                for k, a in enumerate(node.args):
                    if isinstance(a, ast.Name):
                        skip.add(id(a))
                        if k in inner or isinstance(a, ast.Starred):
                            read |= refers.get(a.id, set())
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store) and id(node) not in skip:
            read |= refers.get(node.id, set())
    return frozenset(read)


def _analyse(tree: ast.FunctionDef, params: list, globs) -> frozenset:
    refers, mentioned = _refers(tree, params)
    written: set = set()
    for node in iter_nodes(tree):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = _root(node)
            if root in refers:
                written |= refers[root]
        elif isinstance(node, ast.Call):
            written |= _call_writes(node, mentioned, globs)
    return frozenset(written)


def _call_writes(node: ast.Call, mentioned, globs) -> set:
    args = list(node.args) + [k.value for k in node.keywords]
    touched = set()
    for a in args:
        touched |= mentioned(a)
    func = node.func
    if isinstance(func, ast.Attribute) and mentioned(func.value):
        # a method of an array that may be a parameter
        recv = mentioned(func.value)
        if func.attr in _PURE_METHODS:
            return set()
        return recv | touched
    if not touched:
        return set()
    callee = _resolve(func, globs)
    if callee is None:
        return touched
    if hasattr(callee, "py_func"):                       # another @njit function: analyse it
        inner = written_params(callee)
        try:
            sig_params = list(inspect.signature(callee.py_func).parameters)
        except (TypeError, ValueError):
            return touched
        out = set()
        for k, a in enumerate(node.args):
            if k in inner:
                out |= mentioned(a)
        for kw in node.keywords:
            if kw.arg in sig_params and sig_params.index(kw.arg) in inner:
                out |= mentioned(kw.value)
        return out
    mod = _module_of(callee)
    name = getattr(callee, "__name__", "")
    if callee is math or mod == "math" or mod.startswith("numba"):
        return set()
    if mod.startswith("numpy") or type(callee).__name__ == "ufunc":
        if name in _NP_MUTATING:
            return touched
        out = set()
        for kw in node.keywords:
            if kw.arg == "out":
                out |= mentioned(kw.value)
        return out
    if getattr(builtins, name, None) is callee and name in _PURE_BUILTINS:
        return set()
    return touched


def kernel_draws(kernel) -> bool:
    """Does ``kernel`` (an ``@njit`` dispatcher) name ``np.random``?  A driver then replays its
    draws: :func:`adtrans.driver.runtime.checkpoint` keeps Numba's generator state from before the
    forward call and :func:`adtrans.driver.runtime.kernel_adjoint` runs the kernel's adjoint from
    that state (then puts the current one back), so the adjoint draws what the forward call drew
    and the state after the driver's adjoint is as after its primal."""
    code = getattr(getattr(kernel, "py_func", None), "__code__", None)
    return code is not None and "random" in code.co_names

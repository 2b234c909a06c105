"""Element-wise array temporaries computed where they are used (whole-array NumPy code).

``dx = x[:, None] - x[None, :]`` followed by ``inv = 1.0 / np.sqrt(dx * dx + ...)`` and
``np.sum(m * inv)`` lowers, statement by statement, to one loop nest and one n-by-n array per
statement; their adjoints then need one n-by-n adjoint array each, written in one loop nest and
read in another (the broadcasting N-body: seven n-by-n arrays of fresh memory per gradient).
Where a temporary is an element-wise value (a :class:`~.arrayvalues.Gen`) that later top-level
statements only combine element-wise or reduce, the lowering keeps its element function
instead of an array (:meth:`ArrayLowering.assign_name <.arrays.ArrayLowering.assign_name>`), and
each use computes the element in place, as NumPy's own expression fusion (and Numba's) does for
one statement.  The whole kernel then becomes one loop nest, fused with its adjoint.

:func:`deferrable` decides it from the syntax alone:

- the name is bound once in the kernel, is no parameter, and is used in the following top-level
  statements only (not in loops or branches), each a ``name = ...`` or a ``return``;
- every use sits in a chain of element-wise operators, comparisons and NumPy calls that take it
  as a positional element-wise or reduction argument (not ``.shape``, not a subscript, not a
  view-making or matrix function, not a helper, not a statement's whole value as in ``y = dx``);
- nothing from the definition to the last use binds a name the definition reads (through other
  such temporaries too), stores into an array, or calls anything but NumPy and ``math``;
- a temporary used more than once is cheap to recompute (no calls).

A use the lowering nevertheless reads as an array (a path not foreseen here) is caught after the
lowering: the kernel is normalised again with that temporary materialised (:func:`leaked`).
"""
from __future__ import annotations

import ast

from .arrayfuncs import CONSTANT_CALLS, REWRITES, VALUES
from ..ir.walk import dotted, iter_nodes
from ..rules.derivatives import LAPACK

#: NumPy functions whose results are views, copies in another layout or products, or that read
#: other elements than the one they make (the array functions of :mod:`.arrayfuncs`, the kept
#: LAPACK calls): a temporary passed to them is an array
ARRAY_FUNCS = {"reshape", "ravel", "flatten", "transpose", "copy", "ascontiguousarray", "hstack", "vstack",
               "concatenate", "stack", "triu", "tril", "diag", "cumsum", "dot", "vdot", "matmul", "outer",
               "trace", "sort", "argsort", "zeros_like", "ones_like", "empty_like", "full_like", "asarray",
               "array", "linalg.norm"} | set(VALUES) | set(REWRITES) | set(CONSTANT_CALLS) | set(LAPACK)


class Retry(Exception):
    """Raised after a lowering in which deferred temporaries were read as arrays (``names``)."""

    def __init__(self, names):
        super().__init__(", ".join(sorted(names)))
        self.names = set(names)


def _parents(tree) -> dict:
    out = {}
    for n in iter_nodes(tree):
        for c in ast.iter_child_nodes(n):
            out[id(c)] = n
    return out


def _pure_calls(node, numpy_alias) -> bool:
    for n in iter_nodes(node):
        if isinstance(n, ast.Call):
            f = dotted(n.func) or ""
            if not (f.startswith((f"{numpy_alias}.", "math.")) or f in ("abs", "min", "max", "float", "int")):
                return False
    return True


def _element_use(name_node, root, parents, numpy_function) -> bool:
    """The use ``name_node`` reaches ``root`` (a statement's value) through element-wise nodes only."""
    if name_node is root:       # `y = dx`, `return dx`: a second name for the array, or the result
        return False
    child = name_node
    while child is not root:
        p = parents.get(id(child))
        if p is None:
            return False
        if isinstance(p, ast.BinOp):
            if isinstance(p.op, ast.MatMult):
                return False
        elif isinstance(p, (ast.UnaryOp, ast.Compare)):
            pass
        elif isinstance(p, ast.Call):
            f = numpy_function(p)
            if f is None or f in ARRAY_FUNCS or child not in p.args:
                return False
        else:
            return False
        child = p
    return True


def deferrable(name: str, value, rest: list, stores: dict, params, numpy_alias: str, numpy_function,
               reads_of: dict) -> set | None:
    """The names the element-wise definition ``name = value`` reads (deferred temporaries
    expanded), if ``name`` may be computed at its uses in ``rest`` (the top-level statements
    after it); None otherwise.  ``numpy_function(call)``: the NumPy name of a call or None;
    ``reads_of``: what each temporary deferred so far reads."""
    if name in params or stores.get(name, 0) != 1 or not _pure_calls(value, numpy_alias):
        return None
    reads = set()
    for n in iter_nodes(value):
        if isinstance(n, ast.Name):
            reads |= reads_of.get(n.id, {n.id})
    last, uses = None, 0
    for k, s in enumerate(rest):
        hits = [n for n in iter_nodes(s) if isinstance(n, ast.Name) and n.id == name]
        if hits:
            last = k
            uses += len(hits)
    if last is None:
        return None
    if uses > 1 and any(isinstance(n, ast.Call) for n in iter_nodes(value)):
        return None
    for s in rest[:last + 1]:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            root = s.value
            if s.targets[0].id in reads or s.targets[0].id == name:
                return None
        elif isinstance(s, ast.Return) and s.value is not None:
            root = s.value
        else:
            return None
        if not _pure_calls(root, numpy_alias):
            return None
        parents = _parents(root)
        for n in iter_nodes(root):
            if isinstance(n, ast.Name) and n.id == name and not _element_use(n, root, parents, numpy_function):
                return None
    return reads


def leaked(deferred, body) -> set:
    """Deferred temporaries that the lowered ``body`` still reads as arrays."""
    names = set(deferred)
    return {n.id for s in body for n in iter_nodes(s) if isinstance(n, ast.Name) and n.id in names}

"""Names in a parallel adjoint that Numba's prange lowering would mistake for one another.

Why: Numba's SSA pass renames a variable assigned more than once, ``s``, to versions ``s.1``,
``s.2``, ...; when a prange body uses such a version, the parfor lowering makes a parameter
name of it with ``numba.core.ir_utils.legalize_names`` (``_`` -> ``__``, then ``.`` -> ``_``:
``s.2`` -> ``s_2``) and enters that name into the function's type map, which already holds
our own variable ``s_2`` if the function has one: ``AssertionError: key already in dictionary:
's_2'`` and no adjoint (measured with numba 0.68.1: a plain ``@njit(parallel=True)`` kernel with
a prange reduction ``s += ...`` and a variable ``s_3`` fails the same way).  The engine names
fresh values ``x``, ``x_1``, ``x_2`` (shape-check counters ``mismatch``, ``mismatch_1`` in one
prange body, seen in a Biot-Savart kernel), so such pairs arise.

:func:`avoid_legalized_collisions` renames, in a function with a prange loop, every variable
``y`` that equals ``legalize(x) + "_" + digits`` for a variable ``x`` stored more than once,
to ``y`` followed by underscores (a name ending in ``_`` is never a legalized SSA version,
whose last character is a digit).  Deterministic; functions without prange are returned as they are.
"""
from __future__ import annotations

import ast
import re

_VERSION = re.compile(r"^(.*)_(\d+)$")


def _has_prange(func: ast.FunctionDef) -> bool:
    for n in ast.walk(func):
        if isinstance(n, ast.For) and isinstance(n.iter, ast.Call):
            f = n.iter.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name == "prange":
                return True
    return False


def _stores(func: ast.FunctionDef) -> dict:
    """How many times each name is bound (assignments, augmented assignments, loop targets)."""
    count: dict = {}
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            count[n.id] = count.get(n.id, 0) + 1
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            count[n.target.id] = count.get(n.target.id, 0) + 1
    return count


def avoid_legalized_collisions(func: ast.FunctionDef) -> ast.FunctionDef:
    """``func`` with the names renamed that Numba's parfor lowering could confuse with the
    legalized SSA version of another name (see the module docstring)."""
    if not _has_prange(func):
        return func
    params = {a.arg for a in func.args.args}
    names = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)} | params
    multi = {legal for x, k in _stores(func).items() if k > 1
             for legal in [x.replace("_", "__").replace("$", "_").replace(".", "_")]}
    rename = {}
    for y in sorted(names - params):
        m = _VERSION.match(y)
        if m and m.group(1) in multi:
            new = y + "_"
            while new in names or new in rename.values():
                new += "_"
            rename[y] = new
    if not rename:
        return func
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and n.id in rename:
            n.id = rename[n.id]
    return func

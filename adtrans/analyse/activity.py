"""Activity analysis: which values carry derivatives.

A value is *varied* if it depends on an active input (an ``Active`` scalar or
a ``Duplicated`` array) and *useful* if an output (the returned value or a
``Duplicated`` array's final contents) depends on it; it is *active* if both.
Integer and boolean values are never active (piecewise-constant), so
``k = int(x[i])`` is constant.  The analysis is flow-insensitive (a name is
active if any of its assignments is), the standard conservative choice
(Hascoet & Pascual, "The Tapenade AD tool", ACM TOMS 2013, sec. 3).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass


from .types import is_array, is_float
from ..ir.walk import is_lapack, iter_stmts, lapack_operands, reads


@dataclass
class Activity:
    active: set          # active scalar names and arrays that need a shadow
    varied: set
    useful: set
    dup_params: set      # arrays with user-given shadows
    local_shadow_arrays: set   # active arrays allocated inside the kernel
    alias: dict          # array name -> root array name (for B = A)


def _operands(value) -> set[str]:
    """Names whose values flow into ``value`` (indices excluded)."""
    if is_lapack(value):
        return set(lapack_operands(value))
    if isinstance(value, ast.Subscript):
        if isinstance(value.value, ast.Attribute):
            return set()
        return {value.value.id}
    if isinstance(value, ast.Call):
        out = set()
        for a in value.args:
            out |= reads(a)
        return out
    if isinstance(value, ast.Attribute):
        return set()
    return reads(value)


def analyse_activity(norm, types, param_activity: dict, error) -> Activity:
    """``param_activity``: name -> "const" | "active" | "dup".  ``error(node, msg, hint)`` builds errors."""
    stmts = [s for s, _ in iter_stmts(norm.body)]
    alias = {}

    def root(n):
        while n in alias:
            n = alias[n]
        return n

    for s in stmts:
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name) \
                and is_array(types.get(s.targets[0].id)) and is_array(types.get(s.value.id)):
            a, b = root(s.targets[0].id), root(s.value.id)
            if a != b:
                alias[a] = b

    def floaty(n):
        ty = types.get(n)
        return is_float(ty) or (is_array(ty) and is_float(ty.dtype))

    # value flows: (target, sources) per assignment, arrays by their alias root
    flows = []
    for s in stmts:
        if isinstance(s, ast.Assign):
            t, src = s.targets[0], {root(n) for n in _operands(s.value)}
        elif isinstance(s, ast.AugAssign):
            t, src = s.target, {root(n) for n in reads(s.value)}
        else:
            continue
        flows.append((root(t.value.id if isinstance(t, ast.Subscript) else t.id), src))
    varied = {root(p) for p, a in param_activity.items() if a in ("active", "dup")}
    changed = True
    while changed:                      # forward: what depends on an active input
        changed = False
        for tname, src in flows:
            if tname not in varied and floaty(tname) and src & varied:
                varied.add(tname)
                changed = True
    useful = {root(r) for r in norm.results if floaty(r)}
    useful |= {root(p) for p, a in param_activity.items() if a == "dup"}
    changed = True
    while changed:                      # backward: what an output depends on
        changed = False
        for tname, src in flows:
            if tname in useful:
                new = {n for n in src if floaty(n)} - useful
                if new:
                    useful |= new
                    changed = True
    active_roots = varied & useful
    # every name whose root is active is active (aliases share one shadow)
    names = set(types) | set(norm.params)
    active = {n for n in names if root(n) in active_roots and floaty(n)}
    dup_params = {p for p, a in param_activity.items() if a == "dup"}
    active |= dup_params
    # an active value stored into a constant input array is lost: refuse
    for s in stmts:
        if isinstance(s, (ast.Assign, ast.AugAssign)):
            t = s.targets[0] if isinstance(s, ast.Assign) else s.target
            if isinstance(t, ast.Subscript):
                arr = root(t.value.id)
                if arr in norm.params and param_activity.get(arr) == "const" and \
                        {root(n) for n in reads(s.value)} & varied:
                    raise error(s, f"active value stored into `{t.value.id}`, which is Const",
                                f"pass `{t.value.id}` as Duplicated(array, shadow)")
    local_arrays = {n for n in active if is_array(types.get(n)) and n not in norm.params
                    and n not in norm.global_arrays}
    return Activity(active=active, varied=varied, useful=useful, dup_params=dup_params,
                    local_shadow_arrays=local_arrays, alias=alias)

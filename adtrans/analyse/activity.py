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
import linecache
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
    _refuse_control_only_results(norm, stmts, flows, varied, root, floaty, error)
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


def _closure(names: set, flows) -> set:
    """``names`` and every name whose value flows into them (all types)."""
    out, changed = set(names), True
    while changed:
        changed = False
        for tname, src in flows:
            if tname in out and not src <= out:
                out |= src
                changed = True
    return out


def _refuse_control_only_results(norm, stmts, flows, varied, root, floaty, error):
    """Refuse a float result that no active input reaches by its value, only through a comparison
    whose two branches move two values each computed from the other: a bisection or search loop
    (``if pv > price: lo = mid else: hi = mid``, ``mid`` from ``lo`` and ``hi``).  Its derivative is
    zero wherever it is defined, while the value it converges to moves with the inputs, so a zero
    gradient would be silently wrong.  A count (``n = n + 1.0`` under a comparison) or a table
    lookup (``lv = levels[0] else lv = levels[1]``) is piecewise constant and is not refused."""
    ctrl, changed = set(varied), True
    while changed:                      # forward, every type: what a comparison of active values reads
        changed = False
        for tname, src in flows:
            if tname not in ctrl and src & ctrl:
                ctrl.add(tname)
                changed = True

    def assigned(body):
        return [(root(a.targets[0].id), a) for a, _ in iter_stmts(body)
                if isinstance(a, ast.Assign) and isinstance(a.targets[0], ast.Name) and floaty(a.targets[0].id)]

    results = [r for r in norm.results if floaty(r) and root(r) not in varied]
    if not results:
        return
    deps = _closure({root(r) for r in results}, flows)
    for c in stmts:
        if not (isinstance(c, ast.If) and c.orelse and {root(n) for n in reads(c.test)} & ctrl):
            continue
        one, other = assigned(c.body), assigned(c.orelse)
        for (x, a), (y, b) in ((p, q) for p in one for q in other):
            if x == y or not ({x, y} & deps):
                continue
            if y in _closure({root(n) for n in reads(a.value)}, flows) or \
                    x in _closure({root(n) for n in reads(b.value)}, flows):
                where = error(c, "")
                test = _condition_source(c.test, stmts, where.filename, where.lineno)
                raise error(c, f"the returned value depends on the active inputs only through the comparison "
                               f"`{test}` (a bisection or search loop): its derivative is zero wherever it is "
                               f"defined, while the value it converges to moves with the inputs",
                            "find the root with Newton steps on the active values (the gradient then flows "
                            "through each step), or differentiate the equation it solves: dr/dp = "
                            "-(dF/dp)/(dF/dr) at the root; pass the inputs as Const if a zero gradient is meant")


def _condition_source(test, stmts, filename, lineno) -> str:
    """The user's spelling of a normalised condition: the ``if`` line's test where the source file
    can be read, else the comparison behind the condition's name (``cond = pv > price``)."""
    line = linecache.getline(filename, lineno).strip()
    for head in ("if ", "elif "):
        if line.startswith(head) and line.endswith(":"):
            return line[len(head):-1].strip()
    if isinstance(test, ast.Name):
        for s in stmts:
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and s.targets[0].id == test.id \
                    and isinstance(s.value, (ast.Compare, ast.BoolOp, ast.UnaryOp)):
                return ast.unparse(s.value)
    return ast.unparse(test)

"""One LAPACK call per tuple result (run on the final ``FunctionDef`` of the CPU target).

The array lowering makes ``w, V = np.linalg.eigh(A)`` two statements, ``w = np.linalg.eigh(A)[0]``
and ``V = np.linalg.eigh(A)[1]`` (each part has its own adjoint rule, saves and tape entries;
:meth:`~adtrans.normalise.arrays.ArrayLowering.assign_tuple`), both tagged with one
``adtrans_group``.  This pass writes them back as one call where the first stands::

    w, V = np.linalg.eigh(A)

so that the adjoint's forward sweep (and each recomputation of it) runs the factorisation once.
Parts are joined only within one statement list, when the calls are the same text, the first
part's name is not an operand, and no statement between them mentions a later part's name (a
save of its old value) or stores into an operand.  A part the kernel does not read is bound
to ``_`` (``_2``... for a second one).
"""
from __future__ import annotations

import ast

from ..ir.walk import all_names, dotted, iter_nodes
from ..rules.derivatives import LAPACK


def merge_lapack_parts(func: ast.FunctionDef) -> ast.FunctionDef:
    """``func`` with the parts of each tuple-valued LAPACK call computed by one call."""
    used = all_names(func)
    for node in list(iter_nodes(func)):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                setattr(node, field, _merge(stmts, used))
    return func


def _part(s):
    """``(group, k, name, call)`` for ``name = np.linalg.f(...)[k]`` of a tagged tuple statement."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        return None
    v = s.value
    group = getattr(v, "adtrans_group", None)
    if group is None or not (isinstance(v, ast.Subscript) and isinstance(v.value, ast.Call)
                             and isinstance(v.slice, ast.Constant) and isinstance(v.slice.value, int)):
        return None
    func = (dotted(v.value.func) or "").removeprefix("np.")
    if func not in LAPACK or not LAPACK[func].parts:
        return None
    return group, v.slice.value, s.targets[0].id, v.value, len(LAPACK[func].parts)


def _stores(s) -> set:
    """Names ``s`` binds or stores into (``x = ...``, ``x[i] = ...``, ``x += ...``, ``x.fill``)."""
    out = set()
    for n in iter_nodes(s):
        t = n
        while isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t.ctx, (ast.Store, ast.Del)):
            t = t.value
            if isinstance(t, ast.Name):
                out.add(t.id)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        if isinstance(n, ast.Call):      # a call may write an array passed to it
            out |= {a.id for a in n.args if isinstance(a, ast.Name)}
            if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.attr != "copy":
                out.add(n.func.value.id)
    return out


def _unused(used: set) -> str:
    """``_``, else ``_2``, ``_3``...: a name for a part nobody reads, distinct within one statement."""
    k, name = 1, "_"
    while name in used:
        k += 1
        name = f"_{k}"
    return name


def _merge(stmts: list, used: set) -> list:
    out = list(stmts)
    i = 0
    while i < len(out):
        first = _part(out[i])
        if first is None:
            i += 1
            continue
        group, k0, name0, call, size = first
        key = ast.dump(call)
        operands = set().union(*(all_names(a) for a in call.args + [k.value for k in call.keywords]))
        if name0 in operands:
            i += 1
            continue
        parts, taken, between = {k0: name0}, [], []
        for j in range(i + 1, len(out)):
            p = _part(out[j])
            if p is not None and p[0] == group:
                if p[1] in parts or ast.dump(p[3]) != key or p[2] in operands or p[2] in parts.values() \
                        or any(p[2] in all_names(b) for b in between):
                    break
                parts[p[1]] = p[2]
                taken.append(j)
                continue
            if _stores(out[j]) & operands:
                break
            between.append(out[j])
        if taken:
            taken_names = set(used)
            elts = []
            for k in range(size):
                nm = parts.get(k) or _unused(taken_names)
                taken_names.add(nm)
                elts.append(ast.Name(id=nm, ctx=ast.Store()))
            target = ast.Tuple(elts=elts, ctx=ast.Store())
            merged = ast.copy_location(ast.Assign(targets=[target], value=call), out[i])
            for attr, val in vars(out[i]).items():
                if attr.startswith("adtrans_"):
                    setattr(merged, attr, val)
            out[i] = merged
            out = [s for j, s in enumerate(out) if j not in taken]
        i += 1
    return out

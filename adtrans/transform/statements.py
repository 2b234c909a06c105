"""Adjoint rules of single normalised statements (the statement-level table).

Each rule returns the reverse-sweep statements of one forward statement; the
loop- and block-level strategies live in :mod:`adtrans.transform.builder`.

| forward statement     | reverse statements                                   |
|-----------------------|------------------------------------------------------|
| ``x = a``             | ``da += dx; dx = 0``                                 |
| ``x = f(a, b)``       | ``da += df/da * dx; db += df/db * dx; dx = 0``       |
| ``x = A[i]``          | ``dA[i] += dx; dx = 0``                              |
| ``A[i] = v``          | ``dv += dA[i]; dA[i] = 0``                           |
| ``A[i] += v``         | ``dv += dA[i]``                                      |
| ``x += v``            | ``dv += dx``                                         |
"""
from __future__ import annotations

import ast
import copy

from ..analyse.types import is_array
from ..ir.nodes import add_to, name
from ..rules.scalar import partials


def call_kind(value) -> str | None:
    """Which rule family a normalised right-hand side belongs to."""
    if isinstance(value, ast.BinOp):
        return "binop"
    if isinstance(value, ast.UnaryOp):
        return "unaryop" if not isinstance(value.op, ast.Not) else None
    if isinstance(value, ast.Call):
        return "call"
    return None


class StatementRules:
    """Instantiates the table above for one kernel; ``b`` is the builder (activity, names)."""

    def __init__(self, builder):
        self.b = builder

    def cast_for(self, adj_target: str) -> str | None:
        return self.b.cast_of(adj_target)

    def reverse(self, s: ast.stmt) -> list[ast.stmt]:
        b = self.b
        out: list[ast.stmt] = []
        if isinstance(s, ast.Expr):     # a target's statement call (e.g. a barrier) carries its own reverse
            return [copy.deepcopy(r) for r in getattr(s, "adtrans_reverse", ())]
        if isinstance(s, ast.Assign):
            t = s.targets[0]
            if isinstance(t, ast.Name):
                x = t.id
                if not b.is_active(x):
                    return []
                g = name(b.adj(x))
                v = s.value
                if isinstance(v, ast.Name):
                    # an array name bound to another array aliases it, and so do their shadows
                    if b.is_active(v.id) and not is_array(b.types.get(x)):
                        out.append(add_to(name(b.adj(v.id), True), g, self.cast_for(v.id)))
                elif isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name):
                    arr = v.value.id
                    if b.is_active(arr):
                        out.append(b.shadow_add(arr, v.slice, g))
                elif isinstance(v, ast.Constant) or v is None:
                    pass
                else:
                    kind = call_kind(v)
                    if kind == "call":
                        key = b.intrinsic_key(v)
                        if key is None:
                            return []  # allocation / opaque: nothing to propagate
                        args = list(v.args)
                        op = key
                    elif kind in ("binop", "unaryop"):
                        args = [v.left, v.right] if kind == "binop" else [v.operand]
                        op = v.op
                    else:
                        return []
                    for i, expr in partials(kind, op, args, name(x), g):
                        a = args[i]
                        if isinstance(a, ast.Name) and b.is_active(a.id):
                            out.append(add_to(name(b.adj(a.id), True), expr, self.cast_for(a.id)))
                return out
            if isinstance(t, ast.Subscript):
                arr = t.value.id
                if not b.is_active(arr):
                    return []
                v = s.value
                if isinstance(v, ast.Name) and b.is_active(v.id):
                    out.append(add_to(name(b.adj(v.id), True),
                                      b.shadow_read(arr, t.slice), self.cast_for(v.id)))
                out.append(b.shadow_kill(arr, t.slice))
                return out
        if isinstance(s, ast.AugAssign):
            t, v = s.target, s.value
            sub = isinstance(s.op, ast.Sub)
            if not (isinstance(v, ast.Name) and b.is_active(v.id)):
                return []
            if isinstance(t, ast.Subscript):
                if not b.is_active(t.value.id):
                    return []
                return [add_to(name(b.adj(v.id), True), b.shadow_read(t.value.id, t.slice),
                               self.cast_for(v.id), sub=sub)]
            if b.is_active(t.id):
                return [add_to(name(b.adj(v.id), True), name(b.adj(t.id)), self.cast_for(v.id), sub=sub)]
        return out


def copy_expr(e):
    return copy.deepcopy(e)

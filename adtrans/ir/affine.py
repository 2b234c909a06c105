"""Affine index analysis: is an array index a one-to-one function of a loop index?

Used by the parallel rule (which shadow updates can race) and by loop fusion
(whether a serial loop writes each element from one iteration only).
"""
from __future__ import annotations

import ast

from .walk import iter_stmts


def scalar_definitions(body) -> dict:
    """Per name assigned in ``body``: the values assigned to it in program order (None for an
    augmented assignment)."""
    defs: dict = {}
    for s, _ in iter_stmts(body):
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
            defs.setdefault(s.targets[0].id, []).append(s.value)
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            defs.setdefault(s.target.id, []).append(None)
    return defs


class AffineMap:
    """Integer names of a loop body as ``coef * i + offset`` (numbers), where known."""

    def __init__(self, body, index: str, invariant=frozenset()):
        self.index = index
        self.forms = {index: (1, 0)}
        defs = scalar_definitions(body)
        for name, values in defs.items():   # program order: definitions precede uses
            if len(values) == 1 and values[0] is not None:
                f = self.form(values[0])
                if f is not None:
                    self.forms[name] = f

    def form(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return (0, node.value)
        if isinstance(node, ast.Name):
            return self.forms.get(node.id)
        if isinstance(node, ast.BinOp):
            l, r = self.form(node.left), self.form(node.right)
            if l is None or r is None:
                return None
            if isinstance(node.op, ast.Add):
                return (l[0] + r[0], l[1] + r[1])
            if isinstance(node.op, ast.Sub):
                return (l[0] - r[0], l[1] - r[1])
            if isinstance(node.op, ast.Mult) and (l[0] == 0 or r[0] == 0):
                return (l[0] * r[1] + r[0] * l[1], l[1] * r[1])
        return None

    def index_forms(self, idx):
        elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        return [self.form(e) for e in elts]


def unique_position(accesses, amap: AffineMap):
    """A position at which every access has the same one-to-one affine form, else None.

    ``accesses``: index expressions of all accesses to one array within one iteration.
    Two accesses with the same non-constant form at some position touch the
    same element only in the same iteration, so iterations never collide.
    """
    if not accesses:
        return None
    forms = [amap.index_forms(a) for a in accesses]
    n = min(len(f) for f in forms)
    for p in range(n):
        first = forms[0][p]
        if first is None or first[0] == 0:
            continue
        if all(f[p] == first for f in forms):
            return p
    return None

"""Tape capacity for inline pushes (CPU target).

A push is lowered to an inline store ``tape[top] = v; top += 1`` and a pop to
``top -= 1; v = tape[top]``: no call, no tuple, no reference counting in the
loop.  The store needs room, which this pass provides before the loop rather
than in it:

- **reserved**: for the outermost loop whose pushes onto a tape can be counted
  when it starts (no pop of that tape in it, every enclosing ``range`` bound of a
  push invariant in the loop, also products of nested bounds and the larger
  branch of an ``if``), one check ``if top + N > tape.shape[0]: tape =
  tape_grow(tape, top + N)`` runs before it; the pushes inside are unchecked;
- **checked**: other pushes (a ``while`` loop, a loop that also pops, bounds
  computed inside the loop) are preceded by ``if top >= tape.shape[0]:
  tape = tape_grow(tape, top + 1)`` (capacity doubling, amortised O(1)).

Push and pop statements carry the attribute ``adtrans_tape = (kind, tape, top)``, set by
the lowering: ``kind`` is ``"push"`` (the store), ``"bump"`` (``top += 1``), ``"pop"``
(``top -= 1``, or ``top = tape_pop_array(...)``), ``"load"`` (``v = tape[top]``) or
``"push_array"`` (``tape, top = tape_push_array(tape, top, a)``, 4th item ``a``: counted as
``a.size`` where ``a`` is not rebound in the loop; the call still grows the tape itself).
"""
from __future__ import annotations

import ast

from ..ir.walk import iter_nodes, iter_stmts


def _tape_of(s):
    return getattr(s, "adtrans_tape", None)


def _pushed_tapes(stmts) -> list:
    out = []
    for s, _ in iter_stmts(stmts):
        t = _tape_of(s)
        if t is not None and t[0] in ("push", "push_array") and t[1:3] not in out:
            out.append(t[1:3])
    return out


def _stores(s) -> set:
    return {n.id for n in iter_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _assigned(stmts) -> set:
    out = set()
    for s in stmts:
        out |= _stores(s)
    return out


def _loads(node) -> set:
    return {n.id for n in iter_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _trips(loop) -> str | None:
    """``len(range(...))`` of a ``range`` loop, else None."""
    it = loop.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords:
        args = ", ".join(ast.unparse(a) for a in it.args)
        if len(it.args) == 1:
            return f"max({args}, 0)"
        return f"len(range({args}))"
    return None


def _product(a: str, b: str) -> str:
    if a == "1":
        return b
    if b == "1":
        return a
    return f"{a} * ({b})"


def _sum(parts: list) -> str:
    ones = sum(1 for p in parts if p == "1")
    rest = [p for p in parts if p != "1"]
    if ones:
        rest.append(str(ones))
    return " + ".join(rest) if rest else "0"


def count_pushes(stmts, tape, variant: set):
    """Pushes onto ``tape`` (``(tape, top)`` names) that ``stmts`` make, as an expression
    over names not in ``variant`` ("0" for none), or None when they cannot be counted
    beforehand (pops or other updates of the tape, while loops, variant bounds)."""
    parts = []
    for s in stmts:
        t = _tape_of(s)
        if t is not None and t[1:3] == tape:
            if t[0] == "pop":
                return None
            if t[0] == "push":
                parts.append("1")
            if t[0] == "push_array":
                if t[3] in variant:
                    return None
                parts.append(f"{t[3]}.size")
            continue
        if isinstance(s, ast.For):
            inner = count_pushes(s.body, tape, variant | _assigned(s.body) | _stores(s.target))
            if inner is None:
                return None
            if inner == "0":
                continue
            trips = _trips(s)
            if trips is None or _loads(s.iter) & variant:
                return None
            parts.append(_product(trips, inner))
            continue
        if isinstance(s, ast.While):
            if tape in _pushed_tapes([s]) or set(tape) & _assigned([s]):
                return None
            continue
        if isinstance(s, ast.If):
            a = count_pushes(s.body, tape, variant)
            b = count_pushes(s.orelse, tape, variant)
            if a is None or b is None:
                return None
            if a == "0" and b == "0":
                continue
            parts.append(a if b == "0" else b if a == "0" else f"max({a}, {b})")
            continue
        if set(tape) & _stores(s):
            return None             # another update of the tape or its top (a pop of an array, a start)
    return _sum(parts) if parts else "0"


def _reserve(tape, top, count) -> ast.stmt:
    return ast.parse(f"if {top} + {count} > {tape}.shape[0]:\n"
                     f"    {tape} = tape_grow({tape}, {top} + {count})").body[0]


class CapacityPlanner:
    """Inserts the reserves and checks described in the module docstring."""

    def __init__(self):
        self.reserved = 0
        self.checked = 0

    def run(self, stmts, covered=frozenset()) -> list:
        out = []
        for s in stmts:
            if isinstance(s, (ast.For, ast.While)):
                inner = set(covered)
                if isinstance(s, ast.For) and _trips(s) is not None:
                    variant = _assigned(s.body) | _stores(s.target)
                    for tape in _pushed_tapes([s]):
                        if tape in covered:
                            continue
                        per_iter = count_pushes(s.body, tape, variant)
                        if per_iter is None:
                            continue
                        out.append(_reserve(tape[0], tape[1], _product(_trips(s), per_iter)))
                        inner.add(tape)
                        self.reserved += 1
                s.body = self.run(s.body, frozenset(inner))
                s.orelse = self.run(s.orelse, frozenset(inner))
                out.append(s)
            elif isinstance(s, ast.If):
                s.body = self.run(s.body, covered) or [ast.Pass()]
                s.orelse = self.run(s.orelse, covered)
                out.append(s)
            else:
                t = _tape_of(s)
                if t is not None and t[0] == "push" and t[1:] not in covered:
                    out.append(ast.parse(f"if {t[2]} >= {t[1]}.shape[0]:\n"
                                         f"    {t[1]} = tape_grow({t[1]}, {t[2]} + 1)").body[0])
                    self.checked += 1
                out.append(s)
        return out

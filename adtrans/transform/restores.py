"""Drop tape saves whose restored value nothing reads.

The builder brackets every overwrite of a value the reverse sweep may need with
a push (forward) and a pop (reverse) marker of the same pair id.  Whether the
popped value is read again is only known once the whole adjoint is laid out
(forward and reverse sweeps, fused and recomputed loops interleaved), so this
pass runs a backward liveness analysis over the laid-out function: a pop whose
name is dead after it restores nothing anybody reads, and its pair (every push
and pop with that id) is removed.  A push counts as a read only when its own
pair is live (optimistic fixpoint), so save/restore chains around a loop die
together.  Standard dead-store elimination applied to the
tape (e.g. Hascoët & Pascual, TAPENADE's "TBR" analysis, ACM TOMS 2013).
"""
from __future__ import annotations

import ast

from ..ir.markers import POP, PUSH, is_marker
from ..ir.walk import iter_nodes


def _names(node, ctx) -> set:
    return {n.id for n in iter_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def _uses_defs(s, live_pairs):
    """Names a simple statement reads and (scalar) names it assigns (a push reads its name
    only if its pair is live)."""
    if is_marker(s, PUSH):
        return ({s.value.args[0].value} if s.value.args[2].value in live_pairs else set()), set()
    if is_marker(s, POP):
        return set(), {s.value.args[0].value}
    if isinstance(s, ast.Assign):
        defs = set()
        uses = _names(s.value, ast.Load)
        for t in s.targets:
            if isinstance(t, ast.Name):
                defs.add(t.id)
            elif isinstance(t, ast.Tuple):
                defs |= {e.id for e in t.elts if isinstance(e, ast.Name)}
                uses |= _names(t, ast.Load)
            else:
                uses |= _names(t, ast.Load) | _names(t, ast.Store)
        return uses, defs
    if isinstance(s, ast.AugAssign):
        uses = _names(s.value, ast.Load) | _names(s.target, ast.Load) | _names(s.target, ast.Store)
        return uses, ({s.target.id} if isinstance(s.target, ast.Name) else set())
    return _names(s, ast.Load), set()


class _Liveness:
    def __init__(self, assumed_live: set):
        self.assumed = assumed_live
        self.live_pairs: set = set()

    def block(self, stmts, live: set) -> set:
        for s in reversed(stmts):
            live = self.stmt(s, live)
        return live

    def stmt(self, s, live: set) -> set:
        if isinstance(s, ast.If):
            return _names(s.test, ast.Load) | self.block(s.body, live) | self.block(s.orelse, live)
        if isinstance(s, (ast.For, ast.While)):
            header = _names(s.iter if isinstance(s, ast.For) else s.test, ast.Load)
            target = _names(s.target, ast.Store) if isinstance(s, ast.For) else set()
            inside = set(live)
            while True:
                top = self.block(s.body, inside | header) - target
                new = live | top | header
                if new <= inside:
                    return inside
                inside |= new
        if isinstance(s, ast.Return):
            return _names(s, ast.Load)
        if is_marker(s, POP):
            x = s.value.args[0].value
            if x in live:
                self.live_pairs.add(s.value.args[2].value)
        uses, defs = _uses_defs(s, self.assumed)
        return (live - defs) | uses


def _strip(stmts, dead: set) -> list:
    out = []
    for s in stmts:
        if (is_marker(s, PUSH) or is_marker(s, POP)) and s.value.args[2].value in dead:
            continue
        if isinstance(s, (ast.If, ast.For, ast.While)):
            s.body = _strip(s.body, dead) or [ast.Pass()]
            s.orelse = _strip(s.orelse, dead)
        out.append(s)
    return out


def drop_dead_restores(body: list) -> list:
    """``body`` without the push/pop pairs whose popped value is never read.

    Optimistic fixpoint: start with every pair dead (pushes read nothing), find the pops
    whose name is live after them, count those pairs' pushes as reads, and repeat until
    the set of live pairs stops growing; a push feeding only dead pops is dead too.
    """
    pairs = {s.value.args[2].value for n in body for s in iter_nodes(n)
             if is_marker(s, PUSH) or is_marker(s, POP)}
    live: set = set()
    while True:
        an = _Liveness(live)
        an.block(body, set())
        if an.live_pairs <= live:
            break
        live |= an.live_pairs
    dead = pairs - live
    return _strip(body, dead) if dead else body


def _dead_store(s, x) -> bool:
    """``x = ...`` or ``x += ...`` (whose value does not read ``x``) at the top of a block."""
    if isinstance(s, ast.Assign):
        return len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id == x
    return isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id == x


def _uses(s, x) -> bool:
    """Whether statement ``s`` (nested statements included) may read ``x``, restore it or
    assign it other than by a plain ``x = ...`` at its top."""
    plain = _dead_store(s, x)
    for n in iter_nodes(s.value if plain else s):
        if isinstance(n, ast.Name) and n.id == x:
            return True
        if isinstance(n, ast.stmt) and (is_marker(n, POP) or is_marker(n, PUSH)) and n.value.args[0].value == x:
            return True
    return False


def drop_idle_pairs(body: list) -> list:
    """``body`` without the push/pop pairs whose saved value would come back unchanged: a push
    of ``x`` followed in the same block by its own pop, where nothing in between reads ``x``
    (assignments ``x = ...``, ``x += ...`` there are dead, overwritten by the pop, and go too).  The tape is
    a stack, so the statements between push and pop as many values as they pop, and removing
    the pair keeps it balanced.  (These pairs appear where a reverse sweep reruns an
    iteration's statements: the value still holds what the pop would restore.)"""
    out = []
    for s in body:
        if isinstance(s, (ast.If, ast.For, ast.While)):
            s.body = drop_idle_pairs(s.body) or [ast.Pass()]
            s.orelse = drop_idle_pairs(s.orelse)
        out.append(s)
    pos, drop = {}, set()
    for k, s in enumerate(out):
        if is_marker(s, PUSH):
            pos[s.value.args[2].value] = k
        elif is_marker(s, POP) and s.value.args[2].value in pos:
            i = pos[s.value.args[2].value]
            x = s.value.args[0].value
            between = [j for j in range(i + 1, k) if j not in drop]
            if not any(_uses(out[j], x) for j in between):
                drop |= {i, k} | {j for j in between if _dead_store(out[j], x)}
    return [s for k, s in enumerate(out) if k not in drop]

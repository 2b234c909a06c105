"""Taped time loops recomputed from the state each iteration starts from (cache or recompute by cost).

The reverse of a taped loop's iteration reads, for its inner loops, copies of the arrays the
iteration overwrites later (the *snapshots* of :meth:`~adtrans.transform.loops.LoopStrategies.snapshots`),
which the forward sweep pushes onto the tape: GradBench ode's step pushes ``yf`` and three
stages of ``yt``, ``4 n`` values a step that go to memory and come back from it.  Where the
iteration is a cheap function of the arrays it starts from (its *state*, here ``yf``), this
strategy tapes the state alone (Enzyme's cache or recompute by cost):

- the forward sweep pushes the state arrays at the start of each iteration, then runs the
  primal body (no other tape traffic);
- the reverse sweep, per iteration from the last, views the state on the tape (``yf_entry =
  tape_view(...)``, not popped), reruns the iteration's forward statements up to the last one
  its reverse needs, reading and writing the view instead of the state arrays (so these keep
  the primal's final values), its snapshots pushed above the state and popped again by the
  reverse of the same iteration (a tape region reused every step: in the cache), then runs
  the reverse of the iteration and drops the state.

Chosen (:meth:`IterationReruns.rerun_state`) on the CPU (``tape_by_cost``) for a serial
``range`` loop at the kernel's top level whose forward sweep pushes more arrays than its
state (:meth:`~adtrans.transform.loops.LoopStrategies.time_loop_state`: no scalar carried from
one iteration to the next or out of the loop, index dead after it) and whose body is cheap to
run again: no costly intrinsic (:data:`~adtrans.rules.derivatives.COSTLY`), BLAS product,
LAPACK call, random draw or ``while`` loop.  Sound because a rerun from the state computes
what the forward iteration computed: every array the body reads is a state array (viewed as
it was), never written in the loop, or written in the iteration before it is read (rerun
first); every scalar the body assigns is assigned nowhere else and is not read in an
iteration before it is assigned.  Arrays the loop writes must not be read by the statements
before it (their reverse would see the rerun's values), no name may alias a state array,
and no state array is rebound in the loop.
"""
from __future__ import annotations

import ast
from collections import defaultdict

from ..ir.liveness import upward_exposed
from ..ir.markers import COMMENT, comment, is_marker
from ..ir.walk import array_target, dotted, is_draw, is_lapack, is_product, iter_nodes, iter_stmts, stored_names
from ..ir.nodes import name
from ..rules.derivatives import COSTLY


class IterationReruns:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder`."""

    def rerun_state(self, L, scope, depth, f):
        """The state arrays (sorted) from which the reverse sweep of the taped loop ``L``
        (forward statements ``f`` of one iteration) recomputes each iteration, or None where
        the loop keeps its tape (module docstring)."""
        if not self.rerun_loops or not any(L is s for s in self.norm.body):
            return None
        state = self.time_loop_state(L, scope, depth, f)
        if state is None:
            return None
        pushes = sum(1 for s, _ in iter_stmts(f) if getattr(s, "adtrans_tape", (None,))[0] == "push_array")
        if pushes <= len(state):
            return None
        for s, _ in iter_stmts(L.body):
            if isinstance(s, ast.While) or is_draw(s):
                return None
            v = getattr(s, "value", None)
            if isinstance(s, (ast.Assign, ast.AugAssign)) and (is_product(v) or is_lapack(v)):
                return None
            if any(isinstance(n, ast.Call) and self.intrinsic_key(n) in COSTLY for n in iter_nodes(s)):
                return None
        inside = {id(s) for s, _ in iter_stmts(L.body)} | {id(L)}
        mine = stored_names(ast.Module(body=list(L.body), type_ignores=[]))
        if mine & set(state):
            return None             # a state array rebound in the loop
        for s, _ in iter_stmts(self.norm.body):
            if id(s) not in inside and not isinstance(s, (ast.For, ast.While, ast.If)) and stored_names(s) & mine:
                return None         # a scalar of the body also assigned outside the loop
        roots = set(state)
        for n in iter_nodes(ast.Module(body=list(L.body), type_ignores=[])):
            if isinstance(n, ast.Name) and n.id not in roots and self.root_array(n.id) in roots:
                return None         # an alias of a state array
        written = {self.root_array(a) for a in self.body_arrays(L.body)[1]}
        before = self.norm.body[:[id(s) for s in self.norm.body].index(id(L))]
        if {self.root_array(a) for a in self.body_arrays(before)[0]} & written:
            return None
        for s, _ in iter_stmts(f):
            if is_marker(s) and not is_marker(s, COMMENT) and any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split("[")[0] in roots
                    for a in s.value.args):
                return None         # a marker naming a state array (not renamed below)
        return state

    def rerun_loop(self, L, scope, f, r, saves, pops, state, why, choice):
        """The taped loop ``L`` recomputed from its ``state`` each iteration (module docstring):
        ``(forward statements, reverse statements)``."""
        ts = scope.tape_scope
        views = {a: self.norm.alloc.fresh(a + "_entry") for a in state}
        for a, v in views.items():
            self.types[v] = self.types[a]
        pushes, by_tape = [], defaultdict(list)
        for a in state:
            push, _ = self.array_save(ts, a, a, "tape_pop_array")
            pushes.append(push)
            by_tape[push.adtrans_tape[1:3]].append(a)
        peeks, drops = [], []
        for (tape, top), arrays in sorted(by_tape.items()):
            below = []
            for a in reversed(arrays):          # the last pushed lies on top
                below.append(f"{a}.size")
                peeks.insert(0, ast.parse(f"{views[a]} = tape_view({tape}, {top} - {' - '.join(below)}, {a})").body[0])
            drop = ast.parse(f"{top} -= {' + '.join(f'{a}.size' for a in arrays)}").body[0]
            drop.adtrans_tape = ("pop", tape, top)
            drops.append(drop)
        redo = _needed_prefix(f, r)
        for s, _ in iter_stmts(redo):
            if getattr(s, "adtrans_tape", (None,))[0] == "push_array":
                s.value.func = name("tape_push_array_warm")     # popped again in this iteration
        for s in redo + r:
            for n in iter_nodes(s):
                if isinstance(n, ast.Name) and n.id in views:
                    n.id = views[n.id]
        primal = self.plain(L, scope)
        primal.body = pushes + primal.body
        kept = f"; the rest is recomputed, not taped (cheap): {', '.join(views[a] for a in state)} views the " \
               f"state on the tape" if state else "; the rest is recomputed, not taped (cheap)"
        note = comment(f"taped loop ({why}): the forward sweep records only the state each iteration starts "
                       f"from ({', '.join(state) or 'none'}){kept}, the iteration is rerun from it up to "
                       f"the last statement its reverse needs, then reversed{choice}")
        rev = ast.For(target=name(L.target.id, True), iter=self.reversed_iter(L),
                      body=peeks + redo + r + drops or [ast.Pass()], orelse=[])
        self.need(peeks + drops)
        return saves + [note, primal], [rev] + pops


def _needed_prefix(f, r) -> list:
    """``f`` less its trailing statements that the reverse ``r`` does not need: no tape
    traffic or other call in them, and nothing they assign (scalars: read by ``r`` before it
    assigns them; arrays: :func:`_arrays_used` by ``r``) is read by ``r``."""
    mentioned = _arrays_used(r)
    keep = len(f)
    while keep:
        s = f[keep - 1]
        if is_marker(s, COMMENT):
            keep -= 1
            continue
        inner = [t for t, _ in iter_stmts([s])]
        if any(isinstance(t, ast.Expr) and not is_marker(t, COMMENT) or getattr(t, "adtrans_tape", None)
               for t in inner):
            break
        arrays = {a for t in inner for a in [array_target(t)] if a}
        if arrays & mentioned or any(upward_exposed(r, x) for x in stored_names(s) - arrays):
            break
        keep -= 1
    return f[:keep]


_SHAPED = {"np.empty_like", "np.zeros_like", "np.empty", "np.zeros", "np.ones"}


def _arrays_used(stmts) -> set:
    """Names whose elements ``stmts`` may read or write: subscripted, passed to a call (not one
    that only takes their shape, ``np.empty_like(a)``) or bound to another name; ``a.size``
    and ``a.shape`` do not count."""
    out = set()
    for n in iter_nodes(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            out.add(n.value.id)
        elif isinstance(n, ast.Call) and dotted(n.func) not in _SHAPED:
            out |= {a.id for a in n.args if isinstance(a, ast.Name)}
        elif isinstance(n, (ast.Assign, ast.AugAssign)) and isinstance(n.value, ast.Name):
            out.add(n.value.id)
    return out

"""Tapes indexed by loop counters (CPU target).

Inline pushes and pops (:mod:`.capacity`) move a running index: ``tape[top] = v; top += 1``
in the forward loop, ``top -= 1; v = tape[top]`` in the reverse one.  That index is a
dependence from each iteration to the next, and it keeps LLVM from vectorising the loop
(measured on llsq's inner loop: 3.7-7x the primal with it, 1.3x without it).  Where the
trip count is known when the loop starts, the index is an affine function of the loop
counter instead:

- a ``for j in range(A, B)`` loop (step 1) whose body pushes onto a tape exactly ``P``
  values, at its top level (not under an ``if`` or in an inner loop), with room for them
  reserved before the loop (no growth check inside), stores the ``k``-th at
  ``tape[top + (j - A) * P + k]`` and is followed by ``top += trips * P``;
- a ``for j in range(H, L, -1)`` loop (step -1) whose body pops exactly ``P`` values at its
  top level is preceded by ``top -= trips * P`` and loads the ``k``-th pop of iteration
  ``j`` from ``tape[top + (j - L - 1) * P + P - 1 - k]``.

Both are the running index written out, so every value lands in (and comes from) the same
slot as before: results are unchanged.  A tape (or its top) that the body touches in any
other way (a growth check, an array push, a pop under a branch) keeps its running index.
"""
from __future__ import annotations

import ast

from ..ir.markers import COMMENT, is_marker
from ..ir.walk import const_int, iter_stmts


def plus(e, k: int) -> str:
    """Source of ``e + k`` (folded where ``e`` is constant or ``x +/- c``)."""
    v = const_int(e)
    if v is not None:
        return str(v + k)
    if k == 0:
        return ast.unparse(e)
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)) and const_int(e.right) is not None:
        c = const_int(e.right) if isinstance(e.op, ast.Add) else -const_int(e.right)
        return plus(e.left, c + k)
    return f"{ast.unparse(e)} {'+' if k > 0 else '-'} {abs(k)}"


def counted_range(loop):
    """``(first, stop_source, step)`` of a ``for`` over ``range`` with a constant step of 1 or
    -1 (``first``: the AST of the first bound), else None."""
    it = loop.iter
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords
            and 1 <= len(it.args) <= 3 and not loop.orelse):
        return None
    if len(it.args) == 1:
        return ast.Constant(0), it.args[0], 1
    step = 1 if len(it.args) == 2 else const_int(it.args[2])
    if step not in (1, -1):
        return None
    return it.args[0], it.args[1], step


def _names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _offset(j: str, first, per: int, k: int) -> str:
    """Source of ``(j - first) * per + k``, folded where ``first`` is a constant."""
    a = const_int(first)
    scaled = j if per == 1 else f"{j} * {per}"
    if a is not None:
        c = k - a * per
        return scaled if c == 0 else f"{scaled} {'+' if c > 0 else '-'} {abs(c)}"
    inner = f"{j} - ({ast.unparse(first)})" if not isinstance(first, ast.Name) else f"{j} - {first.id}"
    out = f"({inner})" if per == 1 else f"({inner}) * {per}"
    return out if k == 0 else f"{out} + {k}"


def _tape_ops(loop) -> dict:
    """``(tape, top) -> [(kind, stmt, is_top_level)]`` of the tape statements in ``loop``'s body."""
    top_level = {id(s) for s in loop.body}
    out = {}
    for s, _ in iter_stmts(loop.body):
        t = getattr(s, "adtrans_tape", None)
        if t is not None:
            out.setdefault((t[1], t[2]), []).append((t[0], s, id(s) in top_level))
    return out


def _affine(loop, tape, top, ops, step):
    """The rewrite of ``loop`` for one tape: (statements before, after), or None."""
    j = loop.target.id
    want = ("push", "bump") if step == 1 else ("pop", "load")
    if not all(top_level for _, _, top_level in ops) or len(ops) % 2 or \
            [k for k, _, _ in ops] != list(want) * (len(ops) // 2):
        return None
    stmts = [s for _, s, _ in ops]
    # the pairs are the exact shapes the lowering writes, adjacent in the body
    for a, b in zip(stmts[::2], stmts[1::2]):
        k = loop.body.index(a)
        if k + 1 >= len(loop.body) or loop.body[k + 1] is not b:
            return None
        first, second = (a, b) if step == 1 else (b, a)        # the store/load and the index step
        if step == 1 and not (isinstance(first, ast.Assign) and isinstance(first.targets[0], ast.Subscript)
                              and ast.unparse(first.targets[0].slice) == top):
            return None
        if step == -1 and not (isinstance(first, ast.Assign) and isinstance(first.value, ast.Subscript)
                               and ast.unparse(first.value.slice) == top):
            return None
        if not (isinstance(second, ast.AugAssign) and isinstance(second.value, ast.Constant)
                and second.value.value == 1):
            return None
    mine = {id(s) for s in stmts}
    for s, _ in iter_stmts(loop.body):
        if id(s) not in mine and {tape, top} & _names(s):
            return None         # a growth check, an array push, another use of the index
    if {tape, top} & _names(loop.iter):
        return None
    first_bound, stop, _ = counted_range(loop)
    per = len(stmts) // 2
    if step == 1:
        trips = f"max({ast.unparse(stop)} - ({ast.unparse(first_bound)}), 0)" if const_int(first_bound) != 0 \
            else f"max({ast.unparse(stop)}, 0)"
    else:
        lo = const_int(stop)
        trips = f"max({plus(first_bound, -lo)}, 0)" if lo is not None else \
            f"max({ast.unparse(first_bound)} - ({ast.unparse(stop)}), 0)"
    count = trips if per == 1 else f"{trips} * {per}"
    start = first_bound if step == 1 else ast.parse(plus(stop, 1), mode="eval").body
    for n, (a, b) in enumerate(zip(stmts[::2], stmts[1::2])):
        k = n if step == 1 else per - 1 - n
        index = ast.parse(f"{top} + {_offset(j, start, per, k)}", mode="eval").body
        if step == 1:
            a.targets[0].slice = index
            loop.body.remove(b)
        else:
            b.value.slice = index
            loop.body.remove(a)
    step_stmt = ast.parse(f"{top} {'+' if step == 1 else '-'}= {count}").body[0]
    step_stmt.adtrans_tape = ("bump" if step == 1 else "pop", tape, top)
    return ([], [step_stmt]) if step == 1 else ([step_stmt], [])


def affine_tapes(stmts) -> list:
    """``stmts`` with the counted loops' tape indices written as affine functions of the loop
    counters (see the module docstring); nested loops first."""
    out = []
    for s in stmts:
        for field in ("body", "orelse"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, affine_tapes(getattr(s, field)))
        r = counted_range(s) if isinstance(s, ast.For) else None
        before, after = [], []
        if r is not None and s.target.id not in {n.id for b in s.body for n in ast.walk(b)
                                                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}:
            for (tape, top), ops in sorted(_tape_ops(s).items()):
                got = _affine(s, tape, top, ops, r[2])
                if got is not None:
                    before += got[0]
                    after += got[1]
        note = [out.pop()] if before and out and is_marker(out[-1], COMMENT) else []
        before = [b for b in before if not _cancels(out, b)]
        out += before + note + [s] + after
    return out


def _cancels(out, step) -> bool:
    """Drop the ``top += count`` that ``step`` (``top -= count``) undoes, when the statements
    between them do not use the tape; True if it went."""
    tape, top = step.adtrans_tape[1:3]
    count = ast.unparse(step.value)
    for k in range(len(out) - 1, -1, -1):
        s = out[k]
        t = getattr(s, "adtrans_tape", None)
        if t is not None and t[0] == "bump" and t[1:3] == (tape, top) and isinstance(s, ast.AugAssign) \
                and isinstance(s.op, ast.Add) and ast.unparse(s.value) == count:
            del out[k]
            return True
        if {tape, top} & _names(s):
            return False
    return False

"""Whole overwrites of shadow arrays in time loops: the first accumulation an assignment, no kills.

The reverse sweep of a time loop whose stage arrays every step writes whole (Runge-Kutta's
``k1 ... k4``) adds into their shadows and reads and zeroes ("kills") every element again in
the same step::

    for step in range(s - 1, -1, -1):
        for i in range(n):
            d_k4[i] += d_t17          # the shadow is zero here: killed last step, zeros before
        ...
        for i in range(1, n):
            d_t12 = d_k4[i]
            d_k4[i] = 0.0
        d_x_0 = d_k4[0]
        d_k4[0] = 0.0

This pass, run on the final ``FunctionDef`` (after :func:`~adtrans.transform.tidy.tidy`), writes
the first accumulation as an assignment and drops the kills: every element is assigned before it
is read in each step, so the zeros are never read.  Two reads and one write per element and step
fewer (GradBench ode: 8 of the reverse sweep's 59 array passes a step).

A loop ``T`` (``for`` over ``range``; no ``while``, ``break``, ``continue`` or ``return`` in
it) and a local 1-D array ``d`` (bound once at the function's top level by ``np.zeros(E)`` or
``np.zeros_like(a)`` with ``a`` bound so by ``np.empty/zeros/ones(E)``, ``E`` a constant or a name
stored once at the top level or a parameter never stored; every other mention an element access,
see :func:`~adtrans.transform.tidy._local_array_uses`) qualify when ``d`` is mentioned only in
``T``'s body, where, among the statements of ``T.body`` that mention it:

- the first is ``for i in range(E)`` whose body mentions ``d`` only in ``d[i] += v`` statements
  at its top level (``v`` not reading ``d``, ``i`` not assigned);
- the others read and kill: ``for j in range(c, E)`` (one such loop) whose body mentions ``d``
  only as ``d[j]``, reads first and ``d[j] = 0.0`` last, and simple statements reading ``d[k]``
  then killing it for each constant ``k`` in ``0 .. c - 1`` (once each).

So each step assigns ``d[0:E]`` (it was zero: the kills of the step before, or the allocation)
and reads every element once before its kill; nothing else touches ``d``.

A second form (:func:`_plan_span`) serves a stencil's gather (the heat time loop's ``d_tmp``):
the first statement mentioning ``d`` adds into ``d[lo:hi]`` (ascending or descending loop), the
last is a loop zeroing the same ``d[lo:hi]``, the statements between only read ``d`` (at any
index); ``lo`` and ``hi`` are the same in every step.  The elements outside the span are never
written (zero throughout), those inside are assigned before any read: the first accumulation
becomes an assignment and the zeroing loop goes (with bound names only it read).  Heat,
n = 2000, 200 steps: one pass of the reverse step fewer, the adjoint 0.288 -> 0.256 ms.

A third form (:func:`_plan_rounds`) serves a shifted scatter between stages (GradBench ode's
``d_yt``: each ``k`` loop's adjoint adds into ``d_yt[i - 1]``, the next stage's adjoint reads and
kills ``d_yt[i]`` over the whole array): rounds of one accumulation over the same span and one
read-and-kill loop; the accumulations become assignments and the kills go (the elements outside
the span are never written, so they keep the allocation's zeros).
"""
from __future__ import annotations

import ast

from ..ir.affine import AffineMap
from ..ir.walk import all_names, const_int, stored_names
from .tidy import _is_comment, _local_array_uses

_ZEROS = {"np.zeros", "np.zeros_like"}
_ALLOC = {"np.empty", "np.zeros", "np.ones"}


def first_writes(func: ast.FunctionDef) -> ast.FunctionDef:
    """Apply the rewrite above to ``func`` in place and return it."""
    params = {a.arg for a in func.args.args}
    extents = _extents(func, params)
    if not extents:
        return func
    stable = _stable(func, params)
    mentions = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and node.id in extents:
            mentions[node.id] = mentions.get(node.id, 0) + 1
    for T in [n for n in ast.walk(func) if isinstance(n, ast.For)]:
        if not _is_range(T) or any(isinstance(n, (ast.While, ast.Break, ast.Continue, ast.Return))
                                    for n in ast.walk(T)):
            continue
        for d, E in sorted(extents.items()):
            inside = sum(1 for n in ast.walk(T) if isinstance(n, ast.Name) and n.id == d)
            if inside + 1 != mentions[d]:           # the allocation is its only mention outside T
                continue
            plan = _plan(T, d, E) or _plan_span(T, d, stable)
            if plan is not None:
                firsts, kills = [plan[0]], plan[1]
            else:
                plan = _plan_rounds(T, d, E)
                if plan is None:
                    continue
                firsts, kills = plan
            for block, first in firsts:
                assign = ast.copy_location(ast.Assign(targets=[first.target], value=first.value), first)
                for k, v in vars(first).items():           # the engine's tags (adtrans_reverse_of ...)
                    if k not in ("target", "op", "value") and not hasattr(assign, k):
                        setattr(assign, k, v)
                block[block.index(first)] = assign
            for block, kill in kills:
                block.remove(kill)
                if isinstance(kill, ast.For):
                    _drop_dead_bounds(func, T, kill)
            del extents[d]
    return ast.fix_missing_locations(func)


def _extents(func, params) -> dict:
    """``{d: E}`` (``E`` as ``ast.dump``) for the local arrays ``d`` that qualify (module
    docstring), allocated at the top level of ``func``."""
    once = _store_counts(func)
    top = {}
    for s in func.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Call) and len(s.value.args) == 1 and not getattr(s.value, "keywords", None):
            top[s.targets[0].id] = s.value
    stable = _stable(func, params)

    def size(call, depth=0):
        fn, arg = ast.unparse(call.func), call.args[0]
        if fn in ("np.zeros_like", "np.empty_like") and isinstance(arg, ast.Name) and arg.id in top and depth == 0:
            return size(top[arg.id], 1)
        if fn not in _ALLOC:
            return None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, int) or \
                isinstance(arg, ast.Name) and arg.id in stable:
            return ast.dump(arg)
        return None
    local = _local_array_uses(func, params)
    out = {}
    for d, call in top.items():
        if d in local and ast.unparse(call.func) in _ZEROS and once.get(d) == 1:
            E = size(call)
            if E is not None:
                out[d] = E
    return out


def _drop_dead_bounds(func, T, loop) -> None:
    """Remove the assignments at ``T``'s top level of the names in the bounds of the removed
    ``loop`` that nothing reads any more."""
    for x in sorted(all_names(loop.iter)):
        defs = [s for s in T.body if isinstance(s, ast.Assign) and len(s.targets) == 1 and
                isinstance(s.targets[0], ast.Name) and s.targets[0].id == x]
        reads = sum(1 for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == x) - len(defs)
        if defs and not reads and all(_is_arith(s.value) for s in defs):
            for s in defs:
                T.body.remove(s)


def _is_arith(e) -> bool:
    """``e`` is built of names, constants and arithmetic only (nothing to keep when unused)."""
    return all(isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop,
                              ast.expr_context)) for n in ast.walk(e))


def _store_counts(node) -> dict:
    """``{name: how many times it is stored}`` in ``node``: ``Name`` nodes in ``Store`` context,
    and names in assignment and loop targets (the engine builds some without a context)."""
    once = {}
    seen = set()

    def count(n):
        if id(n) not in seen:
            seen.add(id(n))
            once[n.id] = once.get(n.id, 0) + 1

    def targets(t):
        if isinstance(t, ast.Name):
            count(t)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                targets(e)
        elif isinstance(t, ast.Starred):
            targets(t.value)
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(getattr(n, "ctx", None), ast.Store):
            count(n)
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                targets(t)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            targets(n.target)
    return once


def _stable(func, params) -> set:
    """Names with one value for the whole call: stored once, by a top-level assignment of
    ``func``, or parameters never stored."""
    once = _store_counts(func)
    top = set()         # names stored by a top-level assignment
    for s in func.body:
        if isinstance(s, ast.Assign):
            top.update(_store_counts(s))
    stable = {x for x, k in once.items() if k == 1 and x in top}
    return stable | {p for p in params if p not in once}


def _is_range(L) -> bool:
    return isinstance(L, ast.For) and isinstance(L.target, ast.Name) and isinstance(L.iter, ast.Call) \
        and ast.unparse(L.iter.func) == "range" and not getattr(L.iter, "keywords", None) \
        and not getattr(L, "orelse", None)


def _bounds(L):
    """``(start, stop)`` as ``ast.dump`` of a unit-step ``range`` loop, else None."""
    if not _is_range(L) or not 1 <= len(L.iter.args) <= 2:
        return None
    args = L.iter.args
    return (ast.dump(ast.Constant(0)) if len(args) == 1 else ast.dump(args[0])), ast.dump(args[-1])


def _element(n, d):
    """The index of ``d[index]`` (an ``ast.Subscript`` node), else None."""
    if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == d:
        return n.slice
    return None


def _only_elements(stmts, d, index) -> bool:
    """Every mention of ``d`` in ``stmts`` is ``d[index]`` (``index`` as ``ast.dump``)."""
    names = subs = 0
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and n.id == d:
                names += 1
            ix = _element(n, d)
            if ix is not None:
                if ast.dump(ix) != index:
                    return False
                subs += 1
    return names == subs


def _is_kill(s, d, index) -> bool:
    return isinstance(s, ast.Assign) and len(s.targets) == 1 and _element(s.targets[0], d) is not None \
        and ast.dump(s.targets[0].slice) == index and isinstance(s.value, ast.Constant) and s.value.value == 0.0 \
        and not isinstance(s.value.value, bool)


def _reads_then_kill(stmts, d, index) -> bool:
    """``stmts`` (simple statements) read ``d[index]`` and end with its kill, which is the only
    store into ``d``."""
    if not stmts or not _is_kill(stmts[-1], d, index):
        return False
    for s in stmts[:-1]:
        if isinstance(s, (ast.For, ast.While, ast.If)) or d in _stored_arrays(s):
            return False
    return _only_elements(stmts, d, index)


def _stored_arrays(s) -> set:
    targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, (ast.AugAssign,
                                                                                        ast.AnnAssign)) else []
    return {t.value.id for t in targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)}


def _plan(T, d, E):
    """``((block, first accumulation), [(block, kill), ...])`` when ``d`` qualifies in ``T`` (module
    docstring), else None."""
    uses = [s for s in T.body if d in all_names(s)]
    accumulating = 0
    while accumulating < len(uses) and _adds(uses[accumulating], d, E) is not None:
        accumulating += 1
    if not accumulating:
        return None
    S1 = uses[0]
    adds = _adds(S1, d, E)
    loop, simple, kills = None, [], []
    for s in uses[accumulating:]:
        if isinstance(s, ast.For):
            if loop is not None:
                return None
            loop = s
        elif isinstance(s, (ast.While, ast.If)):
            return None
        else:
            simple.append(s)
    if loop is None:
        return None
    b = _bounds(loop)
    first_arg = loop.iter.args[0] if b and len(loop.iter.args) == 2 else ast.Constant(0)
    start = first_arg.value if isinstance(first_arg, ast.Constant) else None
    if b is None or b[1] != E or type(start) is not int or start < 0:
        return None
    j = ast.dump(ast.Name(id=loop.target.id, ctx=ast.Load()))
    inner = [s for s in loop.body if d in all_names(s)]
    if loop.target.id in {x for s in loop.body for x in stored_names(s)} or not _reads_then_kill(inner, d, j):
        return None
    kills.append((loop.body, inner[-1]))
    groups = {}
    for s in simple:
        ixs = {ast.dump(ix) for n in ast.walk(s) if (ix := _element(n, d)) is not None}
        if len(ixs) != 1:
            return None
        groups.setdefault(ixs.pop(), []).append(s)
    if sorted(groups) != sorted(ast.dump(ast.Constant(k)) for k in range(start)):
        return None
    for index, stmts in groups.items():
        if not _reads_then_kill(stmts, d, index):
            return None
        kills.append((T.body, stmts[-1]))
    return (S1.body, adds[0]), kills


def _plan_rounds(T, d, E):
    """The third form (a shifted scatter between stages, ``d_yt`` of GradBench ode's reverse
    step): ``([(block, accumulation), ...], [(block, kill), ...])`` when the statements of
    ``T.body`` that mention ``d`` are rounds of two loops, each round

    - ``for i in range(c, E)`` (``c`` an int) whose body mentions ``d`` once, in ``d[i + k] += v``
      at its top level (``k`` an int, also through names the body binds once, before it, to
      ``i + k``; ``v`` not reading ``d``; ``i`` not assigned), the same span ``[c + k, E + k)``
      inside ``[0, E)`` in every round;
    - then ``for j in range(E)`` whose body reads ``d[j]`` and kills it (``d[j] = 0.0``) last.

    ``d`` is zero when each round starts (the allocation, then each round's kills); each round
    assigns every element of the span once before the kill loop reads it, and no statement
    writes an element outside the span, which therefore stays zero: the accumulations become
    assignments and the kills go.  Else None."""
    uses = [s for s in T.body if d in all_names(s)]
    if not uses or len(uses) % 2:
        return None
    span, firsts, kills = None, [], []
    for A, K in zip(uses[0::2], uses[1::2]):
        bounds = _bounds(A)
        if bounds is None or bounds[1] != E or _bounds(K) != (ast.dump(ast.Constant(0)), E):
            return None
        c = const_int(A.iter.args[0]) if len(A.iter.args) == 2 else 0
        i = A.target.id
        adds = [s for s in A.body if d in all_names(s)]
        if c is None or i in _store_counts(ast.Module(A.body, [])) or len(adds) != 1:
            return None
        add = adds[0]
        if not (isinstance(add, ast.AugAssign) and isinstance(add.op, ast.Add) and _element(add.target, d) is not None
                and d not in all_names(add.value) and sum(1 for n in ast.walk(add) if isinstance(n, ast.Name)
                                                          and n.id == d) == 1):
            return None
        before = set(_store_counts(ast.Module(A.body[:A.body.index(add)], [])))
        if not all_names(add.target.slice) <= before | {i}:
            return None             # an index name bound after the accumulation: last iteration's value
        form = AffineMap(A.body, i).form(add.target.slice)
        if form is None or form[0] != 1 or form[1] > 0 or c + form[1] < 0:
            return None
        if span not in (None, (c, form[1])):
            return None
        span = (c, form[1])
        j = K.target.id
        inner = [s for s in K.body if d in all_names(s)]
        if j in _store_counts(ast.Module(K.body, [])) or \
                not _reads_then_kill(inner, d, ast.dump(ast.Name(id=j, ctx=ast.Load()))):
            return None
        firsts.append((A.body, add))
        kills.append((K.body, inner[-1]))
    return firsts, kills


def _adds(L, d, E):
    """The statements ``d[i] += v`` of ``L`` when ``L`` is ``for i in range(E)`` whose body
    mentions ``d`` only in such statements at its top level (``v`` not reading ``d``, ``i`` not
    assigned), else None."""
    if not isinstance(L, ast.For) or _bounds(L) != (ast.dump(ast.Constant(0)), E):
        return None
    return _element_adds(L, d)


def _element_adds(L, d):
    """The statements of the loop ``L``'s body that mention ``d`` when each is ``d[i] += v`` at
    the top level (``i`` the loop's index, never assigned; ``v`` not reading ``d``), else None."""
    i = ast.dump(ast.Name(id=L.target.id, ctx=ast.Load()))
    adds = [s for s in L.body if d in all_names(s)]
    if not adds or L.target.id in {x for s in L.body for x in stored_names(s)} or not _only_elements(adds, d, i):
        return None
    for s in adds:
        if not (isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and _element(s.target, d) is not None
                and d not in all_names(s.value)):
            return None
    return adds


def _plan_span(T, d, stable):
    """The second form (a stencil's gather): ``((block, first accumulation), [(T.body, kill loop)])``
    when, among the statements of ``T.body`` that mention ``d``, the first is a unit-step
    ``range`` loop (ascending or descending) over ``[lo, hi)`` whose body mentions ``d`` only in
    ``d[i] += v`` statements at its top level, the last is ``for j in range(lo, hi): d[j] = 0.0``
    over the same span, and those between only read elements of ``d``.  ``lo`` and ``hi`` must be
    the same every step and every run of ``T``: constants, names of one value for the call
    (``stable``), or names assigned once at ``T``'s top level from such names plus or minus
    constants.  Each step then assigns ``d[lo:hi]``
    before any read, the kills only restore the zeros elsewhere never written: the loop goes."""
    uses = [s for s in T.body if d in all_names(s)]
    if len(uses) < 2:
        return None
    S1, K = uses[0], uses[-1]
    stored = _store_counts(T)
    defs = {s.targets[0].id: s.value for s in T.body[:T.body.index(S1)] if isinstance(s, ast.Assign)
            and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and stored.get(s.targets[0].id) == 1}
    span = _span(S1, stable, stored, defs)
    if span is None or span != _span(K, stable, stored, {**defs, **{s.targets[0].id: s.value for s in T.body[
            T.body.index(S1):T.body.index(K)] if isinstance(s, ast.Assign) and len(s.targets) == 1 and
            isinstance(s.targets[0], ast.Name) and stored.get(s.targets[0].id) == 1}}):
        return None
    adds = _element_adds(S1, d)
    if adds is None:
        return None
    j = ast.dump(ast.Name(id=K.target.id, ctx=ast.Load()))
    body = [s for s in K.body if not _is_comment(s)]
    if len(body) != 1 or not _is_kill(body[0], d, j):
        return None
    for s in uses[1:-1]:
        names = subs = 0
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and n.id == d:
                names += 1
            if _element(n, d) is not None:
                if not isinstance(getattr(n, "ctx", None), ast.Load):
                    return None
                subs += 1
            if isinstance(n, ast.AugAssign) and _element(n.target, d) is not None:
                return None
        if names != subs:
            return None
    return (S1.body, adds[0]), [(T.body, K)]


def _span(L, stable, stored, defs):
    """``(lo, hi)`` of the indices a unit-step ``range`` loop ``L`` visits, each as ``(base, offset)``
    (:func:`_affine`), for an ascending ``range(lo, hi)`` or a descending ``range(hi - 1, lo - 1, -1)``;
    None for anything else or a bound that may change between steps."""
    return range_bounds(L, lambda e: _affine(e, stable, stored, defs), ("", 0), lambda b, k: (b[0], b[1] + k))


def range_bounds(L, bound, zero, shift):
    """``(lo, hi)`` of the indices a unit-step ``range`` loop ``L`` visits, for an ascending
    ``range(lo, hi)`` or a descending ``range(hi - 1, lo - 1, -1)``, in the representation of
    ``bound(e)`` (None where a bound has none), ``zero`` (0) and ``shift(b, k)`` (``b + k``);
    None for any other loop."""
    if not _is_range(L):
        return None
    args = L.iter.args
    if len(args) in (1, 2):
        lo = bound(args[0]) if len(args) == 2 else zero
        hi = bound(args[-1])
    elif len(args) == 3 and _minus_one(args[2]):
        start, stop = bound(args[0]), bound(args[1])
        if start is None or stop is None:
            return None
        lo, hi = shift(stop, 1), shift(start, 1)
    else:
        return None
    return None if lo is None or hi is None else (lo, hi)


def _minus_one(e) -> bool:
    """Whether the step ``e`` is the int -1 (``-1`` as written, or folded into one constant)."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
        return isinstance(e, ast.Constant) and type(e.value) is int and e.value == 1
    return isinstance(e, ast.Constant) and type(e.value) is int and e.value == -1


def _affine(e, stable, stored, defs, depth=0):
    """``e`` as ``(name, offset)``: an int constant ``("", c)``, a ``stable`` name not stored in
    the time loop ``(x, 0)``, ``a + c`` / ``a - c`` of those, or a name in ``defs`` (assigned once in the
    loop from such an expression) resolved; else None."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ("", e.value)
    if isinstance(e, ast.Name):
        if e.id in defs and depth < 8:
            return _affine(defs[e.id], stable, stored, defs, depth + 1)
        return (e.id, 0) if e.id in stable and e.id not in stored else None
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)) and isinstance(e.right, ast.Constant) \
            and type(e.right.value) is int:
        a = _affine(e.left, stable, stored, defs, depth + 1)
        if a is None:
            return None
        return (a[0], a[1] + (e.right.value if isinstance(e.op, ast.Add) else -e.right.value))
    return None

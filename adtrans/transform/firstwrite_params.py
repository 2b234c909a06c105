"""First writes of vector shadows between a kill loop and a stencil's gather.

The reverse step of the heat time loop (bench/kernels.py ``heat_time_loop``) reads and zeroes
``d_u`` over the span the primal copied back, then the gather adds into ``d_u`` element by
element::

    for i_1 in range(i_bound_1 - 1, 0, -1):     # kill loop: span [1, i_bound_1)
        d_tmp_i = d_u[i_1]
        d_u[i_1] = 0.0
        ...
    i_bound = n - 1
    if 1 < i_bound:
        for i_1_read in range(0, 2):             # edge: partly in the span
            ...
            d_u[i_1_read] += d_u_sum
        for i_1_read in range(2, i_bound - 1):   # interior: inside the span
            ...
            d_u[i_1_read] += d_u_sum
        for i_1_read in range(max(2, i_bound - 1), i_bound + 1):
            ...
            d_u[i_1_read] += d_u_sum

This pass (run after :func:`~adtrans.transform.firstwrite.first_writes`) drops the kill and
writes each add into the span as an assignment: the interior loop's ``d_u[i_1_read] = d_u_sum``,
the edge loops' ``if 1 <= i_1_read < i_bound: d_u[i_1_read] = d_u_sum`` / ``else: ... +=``.

It applies to a 1-D array ``d`` (every mention in the function an element ``d[e]``; the
pipeline names the shadows of 1-D parameters) and two consecutive statements of a loop body
``T`` that mention ``d``:

- the kill loop ``L``: a unit-step ``range`` loop over ``[lo, hi)`` (either direction) whose
  body mentions ``d`` only as ``d[j]`` (``j`` its index, not assigned), reads first and
  ``d[j] = 0.0`` last;
- the gather ``G``: unit-step ``range`` loops, bare or under one ``if`` without ``else``, each of
  whose bodies mentions ``d`` in one statement only, ``d[r] += v`` at its top level (``r`` its
  index, not assigned; ``v`` not reading ``d``).

All bounds (loop ranges, the ``if`` test) must be built of int constants, one name ``x`` of one
value for the call (or names assigned once in ``T`` before their use from such expressions),
``+``/``-`` of constants, ``max`` and ``min``.  Such bounds are piecewise affine in ``x`` with
slope 0 or 1, so the order of all endpoints, and with it every question asked here, is the same
for every ``x`` beyond a bound ``X`` on the constants: checking each integer ``x`` in
``[-X, X]`` proves, for every ``x``, that where the guard fails the span is empty and where it
holds the gather's loops visit each element of the span exactly once.  Then the kill's zeros
are read only by the one add per element, which becomes an assignment: one read and one write
per element and step fewer.  A loop whose range is provably inside the span gets ``=``, one
provably outside keeps ``+=``, others get the guarded pair.  Anything else: no change.
"""
from __future__ import annotations

import ast
from collections import Counter

from ..ir.walk import all_names, iter_nodes, stored_names
from .firstwrite import _element, _is_range, _reads_then_kill, _stable, _store_counts, range_bounds
from .tidy import _is_comment


def param_first_writes(func: ast.FunctionDef, vectors) -> ast.FunctionDef:
    """Apply the rewrite above to ``func`` in place for the 1-D arrays named in ``vectors``."""
    params = {a.arg for a in func.args.args}
    ok = _elements_only_all(func, set(vectors))
    vectors = sorted(d for d in vectors if d in ok)
    if not vectors:
        return func
    stable = _stable(func, params)
    if {"max", "min"} & set(_store_counts(func)):
        stable = set()
    for T in [n for n in ast.walk(func) if isinstance(n, ast.For)]:
        if not _is_range(T) or any(isinstance(n, (ast.While, ast.Break, ast.Continue, ast.Return))
                                    for n in ast.walk(T)):
            continue
        for d in vectors:
            uses = [s for s in T.body if d in all_names(s)]
            for L, G in zip(uses, uses[1:]):
                if _rewrite(T, L, G, d, stable):
                    break
    return ast.fix_missing_locations(func)


def _elements_only_all(func, ds: set) -> set:
    """The names ``d`` of ``ds`` every mention of which in ``func`` is an element ``d[e]`` (no
    slice, no tuple index, no alias, no call argument) and which ``func`` never rebinds; one walk
    of ``func`` for all of them."""
    names: dict = {}
    subs: dict = {}
    bad = set()
    for n in iter_nodes(func):
        if isinstance(n, ast.Name) and n.id in ds:
            names[n.id] = names.get(n.id, 0) + 1
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in ds:
            if isinstance(n.slice, (ast.Slice, ast.Tuple)):
                bad.add(n.value.id)
            else:
                subs[n.value.id] = subs.get(n.value.id, 0) + 1
    return {d for d in ds if d not in bad and names.get(d, 0) > 0 and names.get(d) == subs.get(d, 0)}


def _rewrite(T, L, G, d, stable) -> bool:
    """Rewrite the kill loop ``L`` and the gather ``G`` (module docstring) when provably right."""
    stored = _store_counts(T)

    def defs(upto):             # {name: (position in T.body, value)} of the names assigned once in T
        return {s.targets[0].id: (k, s.value) for k, s in enumerate(T.body[:T.body.index(upto)])
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and stored.get(s.targets[0].id) == 1}
    span = _range(L, stable, stored, defs(L))
    if span is None or L.target.id in {x for s in L.body for x in stored_names(s)}:
        return False
    inner = [s for s in L.body if d in all_names(s)]
    if not _reads_then_kill(inner, d, ast.dump(ast.Name(id=L.target.id, ctx=ast.Load()))):
        return False
    guard, loops = None, [G]
    if isinstance(G, ast.If):
        if G.orelse:
            return False
        guard, loops = G.test, [s for s in G.body if not _is_comment(s)]
    at_G = defs(G)
    if guard is not None:
        guard_b = _compare(guard, stable, stored, at_G)
        if guard_b is None:
            return False
    ranges, adds = [], []
    for loop in loops:
        r = _range(loop, stable, stored, at_G) if isinstance(loop, ast.For) else None
        add = _single_add(loop, d) if r is not None else None
        if add is None:
            return False
        ranges.append(r)
        adds.append(add)
    verdict = _decide(span, guard_b if guard is not None else None, ranges)
    if verdict is None:
        return False
    lo, hi = _span_exprs(L, guard, guard_b if guard is not None else None, span)
    for loop, add, where in zip(loops, adds, verdict):
        if where == "outside":
            continue
        assign = _assign(add)
        if where == "inside":
            loop.body[loop.body.index(add)] = assign
        else:
            r = ast.Name(id=loop.target.id, ctx=ast.Load())
            test = ast.Compare(left=lo, ops=[ast.LtE(), ast.Lt()], comparators=[r, hi])
            branch = ast.copy_location(ast.If(test=test, body=[assign], orelse=[add]), add)
            loop.body[loop.body.index(add)] = branch
    L.body.remove(inner[-1])
    L.adtrans_kill_dropped = d      # d[span] is dead after L (transform/shadowswap.py reads it)
    return True


def _assign(add):
    assign = ast.copy_location(ast.Assign(targets=[add.target], value=add.value), add)
    for k, v in vars(add).items():              # the engine's tags (adtrans_reverse_of ...)
        if k not in ("target", "op", "value") and not hasattr(assign, k):
            setattr(assign, k, v)
    return assign


def _single_add(loop, d):
    """The one statement of ``loop``'s body that mentions ``d`` when it is ``d[r] += v`` at the
    top level (``r`` the index, never assigned; ``v`` not reading ``d``), else None."""
    if loop.target.id in {x for s in loop.body for x in stored_names(s)}:
        return None
    uses = [s for s in loop.body if d in all_names(s)]
    if len(uses) != 1:
        return None
    s = uses[0]
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and _element(s.target, d) is not None \
            and isinstance(s.target.slice, ast.Name) and s.target.slice.id == loop.target.id \
            and d not in all_names(s.value):
        return s
    return None


# --------------------------------------------------------------------------- bounds
# A bound is ("c", k), ("v", name, k) (name + k), ("max", [bounds]) or ("min", [bounds]).

def _bound(e, stable, stored, defs, depth=0):
    if depth > 16:
        return None
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ("c", e.value)
    if isinstance(e, ast.Name):
        if e.id in defs:        # resolved with the definitions before its own only
            k, value = defs[e.id]
            return _bound(value, stable, stored, {x: d for x, d in defs.items() if d[0] < k}, depth + 1)
        return ("v", e.id, 0) if e.id in stable and e.id not in stored else None
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)) and isinstance(e.right, ast.Constant) \
            and type(e.right.value) is int:
        b = _bound(e.left, stable, stored, defs, depth + 1)
        return None if b is None else _shift(b, e.right.value if isinstance(e.op, ast.Add) else -e.right.value)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("max", "min") \
            and len(e.args) >= 2 and not e.keywords:
        parts = [_bound(a, stable, stored, defs, depth + 1) for a in e.args]
        return None if any(p is None for p in parts) else (e.func.id, parts)
    return None


def _shift(b, k):
    if b[0] == "c":
        return ("c", b[1] + k)
    if b[0] == "v":
        return ("v", b[1], b[2] + k)
    return (b[0], [_shift(p, k) for p in b[1]])


def _value(b, x):
    if b[0] == "c":
        return b[1]
    if b[0] == "v":
        return x + b[2]
    return (max if b[0] == "max" else min)(_value(p, x) for p in b[1])


def _parts(b):
    """``(names, size)``: the names in ``b`` and the sum of the magnitudes of its constants."""
    if b[0] == "c":
        return set(), abs(b[1])
    if b[0] == "v":
        return {b[1]}, abs(b[2])
    names, size = set(), 0
    for p in b[1]:
        n, s = _parts(p)
        names |= n
        size += s
    return names, size


def _range(L, stable, stored, defs):
    """``(lo, hi)`` bounds of the indices a unit-step ``range`` loop visits, else None."""
    return range_bounds(L, lambda e: _bound(e, stable, stored, defs), ("c", 0), _shift)


def _compare(test, stable, stored, defs):
    """A guard ``a < b`` (``<=``, ``>``, ``>=`` too, chained) as ``[(a, op, b), ...]``, else None."""
    if not isinstance(test, ast.Compare):
        return None
    terms = [test.left, *test.comparators]
    out = []
    for a, op, b in zip(terms, test.ops, terms[1:]):
        if not isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
            return None
        ba, bb = _bound(a, stable, stored, defs), _bound(b, stable, stored, defs)
        if ba is None or bb is None:
            return None
        out.append((ba, type(op).__name__, bb))
    return out


_OPS = {"Lt": lambda a, b: a < b, "LtE": lambda a, b: a <= b, "Gt": lambda a, b: a > b, "GtE": lambda a, b: a >= b}


def _decide(span, guard, ranges):
    """Per gather loop ``"inside"``, ``"outside"`` or ``"partly"`` of the kill span when, for
    every value of the one base name, the span is empty where the guard fails and the loops
    visit each element of it exactly once where it holds; else None (module docstring)."""
    bounds = [*span, *(b for r in ranges for b in r), *(b for g in guard or () for b in (g[0], g[2]))]
    names, size = set(), 0
    for b in bounds:
        n, s = _parts(b)
        names |= n
        size += s
    if len(names) > 1:
        return None
    X = 2 * size + 4
    inside = [True] * len(ranges)
    outside = [True] * len(ranges)
    for x in range(-X, X + 1):
        lo, hi = _value(span[0], x), _value(span[1], x)
        if guard is not None and not all(_OPS[op](_value(a, x), _value(b, x)) for a, op, b in guard):
            if lo < hi:
                return None
            continue
        seen = Counter()
        for k, (a, b) in enumerate(ranges):
            a, b = _value(a, x), _value(b, x)
            seen.update(range(a, b))
            if a < b:
                inside[k] = inside[k] and lo <= a and b <= hi
                outside[k] = outside[k] and (b <= lo or hi <= a or hi <= lo)
        if any(seen[e] != 1 for e in range(lo, hi)):
            return None
    return ["inside" if i else "outside" if o else "partly" for i, o in zip(inside, outside)]


def _span_exprs(L, guard, guard_b, span):
    """Expressions for the kill span's ``lo`` and ``hi`` valid at the gather: the guard's own
    when it is ``lo < hi`` with the span's bounds, else the kill loop's bounds."""
    if guard_b is not None and len(guard_b) == 1 and guard_b[0] == (span[0], "Lt", span[1]):
        return _copy(guard.left), _copy(guard.comparators[0])
    args = L.iter.args
    if len(args) == 3:
        return _plus_one(args[1]), _plus_one(args[0])
    return (_copy(args[0]) if len(args) == 2 else ast.Constant(0)), _copy(args[-1])


def _copy(e):
    return ast.parse(ast.unparse(e), mode="eval").body


def _plus_one(e):
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ast.Constant(e.value + 1)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Sub) and isinstance(e.right, ast.Constant) \
            and e.right.value == 1:
        return _copy(e.left)
    return ast.BinOp(left=_copy(e), op=ast.Add(), right=ast.Constant(1))

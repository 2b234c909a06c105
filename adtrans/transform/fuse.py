"""Consecutive element-wise loops fused into one loop over ``i``, where it stays vectorisable.

The sweeps are sequences of loops over the same index, each a whole pass over its arrays.
Where every element that two consecutive loops both touch (one writing) is touched at the same
``i``, the two run as one loop (iteration ``i`` runs the first body, then the second): what the
second reads is still in a register, and each array is traversed once.  GradBench ode's forward
step (``k1`` and the first stage value)::

    for i_2 in range(min(1, n)):          # peeled: the iterations only the second loop had
        yt[i_2] = yf[i_2] + h * k1[i_2] / 2.0
    for i_2 in range(1, n):
        k1[i_2] = x[i_2] * yf[i_2 - 1]
        yt[i_2] = yf[i_2] + h * k1[i_2] / 2.0

This pass runs last on the final CPU ``FunctionDef`` (after :func:`~adtrans.transform.tidy.tidy`,
:mod:`~adtrans.transform.firstwrite` and :mod:`~adtrans.transform.zeroskip`, whose patterns
read unfused loops).  Two loops ``L1; L2`` of one statement list fuse when (legality):

- both are ascending unit-step ``for v in range(...)`` (the second renamed to the first's name
  where both are mentioned only inside loops that bind them), with the same stop (not assigned
  in either body) and integer-constant starts; the iterations only the earlier-starting loop
  runs are peeled into ``for v in range(c1, min(c2, stop))`` before the fused loop (they touch
  no element the other loop touches);
- only comments and simple statements lie between them (``top -= n``, ``v = tape_view(...)``:
  names bound, no array stored), and those move above ``L1`` (neither mentions what the
  other binds or writes);
- their bodies are straight-line: assignments, augmented assignments and comments; calls only
  to ``math``/``np`` (not ``np.random``)/``special`` functions and ``min``/``max``/``abs``/
  ``float``/``int``; ``v`` is not assigned;
- no scalar one body assigns is mentioned in the other, and none is carried from one iteration
  to the next (``s += ...``; also, without fast-math a float reduction runs in order, and so
  would the loop fused with it);
- every array written in either body is a parameter or a local bound once by a NumPy
  allocation; every array read is one of those or a tape view (so no two names alias);
- every array mentioned in both bodies and written in one of them is subscripted as ``a[v + k]``
  (``k`` an int constant, also through a name bound once to ``v + k``), and wherever an access
  of ``L1`` at ``v + k1`` and one of ``L2`` at ``v + k2`` may meet and one writes, ``k2 <= k1``:
  the element's iteration of ``L1`` still comes first.

Each loop's own iterations keep their order, so the fused loop computes the same values with
the same floating-point operations.  Legal is not enough: Numba's loops are fast when LLVM
vectorises them, and a fused loop it does not vectorise is slower than the two it replaces
(:func:`_vectorisable` says which pairs are kept apart, with the measurements).  GradBench ode's
reverse-sweep pairs (the stage value's adjoint and ``k``'s, nine and six arrays, a dependence
carried through ``d_yt[i - 1]``) are legal and stay apart for that reason.
"""
from __future__ import annotations

import ast
import copy

from ..ir.affine import AffineMap
from ..ir.markers import comment
from ..ir.walk import all_names, const_int, dotted, is_alloc, iter_nodes, reads, stored_names
from .tidy import _is_comment

_PURE_CALLS = {"min", "max", "abs", "float", "int"}

#: the most pairs of (written, other) arrays a fused loop may touch (see :func:`_vectorisable`)
MAX_ALIAS_CHECKS = 8


def fuse_loops(func: ast.FunctionDef) -> ast.FunctionDef:
    """Fuse the consecutive loops of ``func`` (a generated adjoint, the final ``FunctionDef``)
    that qualify as described above, in place; returns ``func``.  Never raises: loops that do
    not qualify are left as they are."""
    arrays, views = _array_names(func)
    mentions: dict = {}
    inside: dict = {}
    for node in iter_nodes(func):
        if isinstance(node, ast.Name):
            mentions[node.id] = mentions.get(node.id, 0) + 1
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            t = node.target.id
            inside[t] = inside.get(t, 0) + sum(isinstance(n, ast.Name) and n.id == t for n in iter_nodes(node))
    # loop counters mentioned only inside loops that bind them: never read after their loop
    counters = {t for t, k in inside.items() if k == mentions.get(t)}
    func.body = _fuse_block(func.body, (arrays, views, counters))
    return func


def _array_names(func):
    """Parameters and locals bound once by a NumPy allocation (``arrays``); locals bound only
    by ``tape_view(...)`` (``views``, read-only views of a tape)."""
    binds: dict = {}
    values: dict = {}
    for node in iter_nodes(func):
        for name in _bound_here(node):
            binds[name] = binds.get(name, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
    params = {a.arg for a in func.args.args}
    arrays = {p for p in params if p not in binds}
    views = set()
    for name, vs in values.items():
        if name in params or binds.get(name) != len(vs):
            continue
        if len(vs) == 1 and is_alloc(vs[0]):
            arrays.add(name)
        elif all(isinstance(v, ast.Call) and dotted(v.func) == "tape_view" for v in vs):
            views.add(name)
    return arrays, views


def _bound_here(node):
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for n in iter_nodes(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    yield n.id


def _fuse_block(stmts, names):
    for s in stmts:
        for field in ("body", "orelse"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner:
                setattr(s, field, _fuse_block(inner, names))
    out = []
    for s in stmts:
        if isinstance(s, ast.For):
            j = len(out) - 1            # the loop before ``s``, past comments and movable statements
            while j >= 0 and not isinstance(out[j], ast.For) and (_is_comment(out[j]) or _simple(out[j])):
                j -= 1
            if j >= 0 and isinstance(out[j], ast.For):
                L1, between = out[j], out[j + 1:]
                moved = [m for m in between if not _is_comment(m)]
                fused = None if not all(_commutes(m, L1) for m in moved) else _fuse(L1, s, names)
                if fused is not None:
                    peel, loop = fused
                    k = j                # L1's own comments stay with it, after the moved statements
                    while k > 0 and _is_comment(out[k - 1]):
                        k -= 1
                    head = [] if getattr(L1, "adtrans_fused", False) else [comment(
                        "loops fused: one pass over i runs the bodies in turn (elements they share are "
                        "touched at the same i, in the original order)")]
                    out[k:] = (moved + head + out[k:j] + [m for m in between if _is_comment(m)]
                               + peel + [loop])
                    continue
        out.append(s)
    return out


def _simple(s) -> bool:
    """A statement that may move above a loop: it binds names (no subscript stores) and calls
    nothing but pure functions and ``tape_view``."""
    if not isinstance(s, (ast.Assign, ast.AugAssign)):
        return False
    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
    if not all(isinstance(t, (ast.Name, ast.Tuple)) and all(
            isinstance(e, ast.Name) for e in (t.elts if isinstance(t, ast.Tuple) else [t])) for t in targets):
        return False
    return _pure(s, extra=("tape_view",))


def _commutes(s, L) -> bool:
    """Whether the simple statement ``s`` after loop ``L`` may run before it: neither binds or
    writes what the other mentions."""
    sub = _subscripts(L.body)
    written = {a for a, (_, w) in (sub or {}).items() if w}
    names_s, stored_s = all_names(s), stored_names(s)
    return sub is not None and not (stored_s & all_names(L)) and not (names_s & (stored_names(L) | written))


def _fuse(L1, L2, names):
    """``(peel, loop)``: the peeled loop (a list of zero or one statement) and the fused loop,
    or None where ``L1; L2`` do not qualify."""
    arrays, views, counters = names
    b1, b2 = _ascending(L1), _ascending(L2)
    if b1 is None or b2 is None:
        return None
    if L1.target.id != L2.target.id:
        L2 = _renamed(L2, L1.target.id, counters)
        if L2 is None:
            return None
    (c1, stop1), (c2, stop2) = b1, b2
    if ast.dump(stop1) != ast.dump(stop2):
        return None
    v = L1.target.id
    st1, st2 = stored_names(ast.Module(L1.body, [])), stored_names(ast.Module(L2.body, []))
    if v in st1 | st2 or (all_names(stop1) & (st1 | st2)):
        return None
    # straight-line bodies, no scalar carried across iterations (index names are then affine
    # in v where the body binds them once)
    if not (_straight(L1.body) and _straight(L2.body)) or _carried(L1.body) or _carried(L2.body):
        return None
    sub1, sub2 = _subscripts(L1.body, v), _subscripts(L2.body, v)
    if sub1 is None or sub2 is None:
        return None
    w1 = {a for a, (_, wrote) in sub1.items() if wrote}
    w2 = {a for a, (_, wrote) in sub2.items() if wrote}
    # scalars: assigned in one body, mentioned in the other (arrays are stored as subscripts,
    # never as names, in straight-line bodies)
    n1, n2 = all_names(ast.Module(L1.body, [])), all_names(ast.Module(L2.body, []))
    if ((st1 - {v}) & n2) or ((st2 - {v}) & n1):
        return None
    for a in set(sub1) | set(sub2):
        if a in w1 or a in w2:
            if a not in arrays:
                return None
        elif a not in arrays and a not in views:
            return None
    # an element both loops touch, one of them writing: L1 at v + o1 and L2 at v + o2 meet at
    # iterations i = e - o1 of L1 and j = e - o2 of L2; L1's must come first (i <= j: o2 <= o1)
    for a in (w1 | w2) & set(sub1) & set(sub2):
        for o1, s1 in sub1[a][0]:
            for o2, s2 in sub2[a][0]:
                if (s1 or s2) and (o1 is None or o2 is None or o2 > o1):
                    return None
    # a name subscripted in one body and mentioned bare in the other (a view, a call argument)
    if ((set(sub1) & (n2 - set(sub2))) or (set(sub2) & (n1 - set(sub1)))):
        return None
    if not _vectorisable(sub1, sub2, w1 | w2):
        return None
    lo, hi = min(c1, c2), max(c1, c2)
    peel = []
    if lo != hi:
        first = L1 if c1 < c2 else L2
        bound = ast.Call(func=ast.Name("min", ast.Load()), args=[ast.Constant(hi), copy.deepcopy(stop1)],
                         keywords=[])
        peel.append(ast.For(target=ast.Name(v, ast.Store()), iter=_range(lo, bound),
                            body=copy.deepcopy(first.body), orelse=[]))
    loop = ast.For(target=ast.Name(v, ast.Store()), iter=_range(hi, copy.deepcopy(stop1)),
                   body=L1.body + L2.body, orelse=[])
    loop.adtrans_fused = True
    for node in peel + [loop]:
        ast.copy_location(node, L1)
        ast.fix_missing_locations(node)
    return peel, loop


def _vectorisable(sub1, sub2, written) -> bool:
    """Whether the fused loop keeps what lets LLVM vectorise each loop alone: every index of the
    form ``v + k`` (no gathers or scatters through index arrays), no dependence carried between the bodies (every array
    both touch, one writing, at one offset ``v + k`` in both), and at most
    :data:`MAX_ALIAS_CHECKS` pairs of arrays that may overlap (one written), the runtime alias
    checks LLVM's loop vectoriser emits before it gives up (its
    ``runtime-memory-check-threshold``, 8).  Measured on GradBench ode's loops (n = 1e5, 100
    passes, this 2-core machine): ``k1`` and the stage value fused 8.0 -> 5.5 ms; fused past
    these limits, 11.2 -> 11.6 ms (seven arrays), 18.4 -> 38 ms (nine) and 14.7 -> 38 ms (a
    dependence carried through ``d_yt[i - 1]``)."""
    if any(o is None for sub in (sub1, sub2) for acc, _ in sub.values() for o, _ in acc):
        return False
    for a in written & set(sub1) & set(sub2):
        if len({o for o, _ in sub1[a][0] + sub2[a][0]}) != 1:
            return False
    names = set(sub1) | set(sub2)
    w = len(written & names)
    return w * (w - 1) // 2 + w * (len(names) - w) <= MAX_ALIAS_CHECKS


def _renamed(L, v, counters):
    """A copy of loop ``L`` counting with ``v`` instead of its own name, where both are
    ``counters`` (mentioned only inside loops that bind them) and ``v`` is not mentioned in
    ``L``; else None."""
    own = L.target.id
    if own not in counters or v not in counters or any(
            isinstance(n, ast.Name) and n.id == v for n in iter_nodes(L)):
        return None
    L = copy.deepcopy(L)
    for n in iter_nodes(L):
        if isinstance(n, ast.Name) and n.id == own:
            n.id = v
    return L


def _carried(body) -> bool:
    """Whether a scalar ``body`` assigns is read before its first assignment in the body (its
    value comes from the iteration before)."""
    bound: set = set()
    assigned = stored_names(ast.Module(body, []))
    for s in body:
        if _is_comment(s):
            continue
        if (reads(s) - bound) & assigned:
            return True
        bound |= stored_names(s)
    return False


def _range(lo, stop):
    args = [stop] if lo == 0 else [ast.Constant(lo), stop]
    return ast.Call(func=ast.Name("range", ast.Load()), args=args, keywords=[])


def _ascending(L):
    """``(start, stop)`` (an int and an expression) of ``for v in range([start,] stop)``."""
    if not (isinstance(L, ast.For) and isinstance(L.target, ast.Name) and isinstance(L.iter, ast.Call)
            and isinstance(L.iter.func, ast.Name) and L.iter.func.id == "range" and not L.iter.keywords
            and not L.orelse and 1 <= len(L.iter.args) <= 2):
        return None
    args = L.iter.args
    start = 0 if len(args) == 1 else const_int(args[0])
    return None if start is None else (start, args[-1])


def _straight(body) -> bool:
    return all(_is_comment(s) or (isinstance(s, (ast.Assign, ast.AugAssign)) and _pure(s)) for s in body)


def _pure(s, extra=()) -> bool:
    """``s`` calls only functions of values (``math``, ``np`` but ``np.random``, ``special``,
    ``min``/``max``/``abs``/``float``/``int``) and those named in ``extra``."""
    for n in iter_nodes(s):
        if isinstance(n, ast.Call):
            name = dotted(n.func)
            if not (name in _PURE_CALLS or name in extra or name.startswith(("math.", "special."))
                    or (name.startswith("np.") and not name.startswith("np.random"))):
                return False
        elif isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.Await, ast.Starred)):
            return False
    return True


def _subscripts(body, v=None):
    """For each array subscripted in ``body``: ``(accesses, written)``, ``accesses`` a list of
    ``(offset, store)`` (``offset`` the constant ``k`` of an index ``v + k``, also through a
    name the body binds once to ``v + k``, else None; ``store`` whether the access writes),
    ``written`` whether any does; None where a subscript is not of a plain name."""
    amap = AffineMap(body, v) if v is not None else None
    out: dict = {}
    for s in body:
        if _is_comment(s):
            continue
        for n in iter_nodes(s):
            if isinstance(n, ast.Subscript):
                if not isinstance(n.value, ast.Name):
                    return None
                acc, wrote = out.setdefault(n.value.id, ([], False))
                store = isinstance(n.ctx, ast.Store)
                acc.append((_offset(n.slice, amap), store))
                out[n.value.id] = (acc, wrote or store)
    return out


def _offset(index, amap):
    """``k`` where ``index`` is ``v + k`` (``amap``: the body's :class:`~adtrans.ir.affine.AffineMap`
    for ``v``), else None."""
    form = amap.form(index) if amap is not None else None
    return form[1] if form is not None and form[0] == 1 else None

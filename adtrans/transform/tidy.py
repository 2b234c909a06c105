"""Clean-up of a lowered adjoint so that it reads like hand-written code.

The engine writes every adjoint as ``d_x = 0`` at the top of its scope and
``d_x += ...`` at each use, lowers returns into ``result = ...`` and leaves
``if c: pass``.  These passes, run on the final ``FunctionDef`` of either target,
remove that noise without changing what the function computes:

- **constant folding** of integer arithmetic (``range(n - 1, 1 - 1, -1)`` ->
  ``range(n - 1, 0, -1)``);
- **declarations at first use**: ``d_x = 0.0`` (or ``= seed``) moves down to the
  statement of its block that first mentions ``d_x``;
- **first accumulation is an assignment**: ``d_x = 0.0; ...; d_x += e`` becomes
  ``d_x = e`` where ``d_x`` is known to hold zero (a forward "known zero"
  analysis; inside loops only what is zero on entry *and* at the end of every
  iteration; nothing flows into ``prange`` bodies, whose scalars Numba
  privatises or reduces);
- **dead stores**: assignments of pure values to scalars nobody reads later
  (backward liveness with loop fixpoints): the primal result the adjoint does not
  return, the adjoint kill after a scalar's last use, tape-free temporaries;
- **stores nobody reads**: element stores into a local array whose elements are never read
  (only its shape: ``inv.shape[0]``, ``np.zeros_like(inv)``), such as a forward array whose
  every reverse use is recomputed; the loops left computing them then go as dead stores; and
  the adjoint kills ``d[i, j] = 0.0`` of a local shadow that no later statement reads (its
  last loop nest reads each element once, then kills it);
- **copy propagation** of ``d_r = seed`` (a parameter never reassigned);
- **empty control flow**: ``if c: pass`` becomes ``if not c: ...`` or goes,
  empty loops over ``range`` go, ``return ()`` goes (the caller reads ``()``);
- **comments**: one ``# adjoint of: <source line>`` before the reverse-sweep
  statements of each source statement (from the ``adtrans_reverse_of`` tag the
  builder puts on them).

Array element stores (but those into local arrays nobody reads), calls that are not known to
be pure, and everything a target lowered (atomics, barriers, tape pushes) are never removed.
"""
from __future__ import annotations

import ast

from ..ir.markers import comment
from ..ir.walk import all_names, dotted, iter_nodes, stored_names, unstored_names
from ..ir.nodes import Rename

# calls without side effects (their results may be dropped when unused)
_PURE_PREFIXES = ("math.", "np.")
_PURE_CALLS = {"abs", "min", "max", "float", "int", "bool", "len", "range", "num_threads", "thread_id",
               "numba.prange"}
_COMPOUND = (ast.For, ast.While, ast.If)


def tidy(func: ast.FunctionDef, scalars=frozenset(), discard=frozenset()) -> ast.FunctionDef:
    """Apply the clean-up passes above to ``func`` in place and return it.

    ``scalars``: names known to hold scalars; only their ``x += v`` may be dropped as dead
    (on an array ``+=`` updates it in place).  ``discard``: array parameters whose values after
    the call nobody reads (a driver adjoint restores or ignores them): their element stores go
    like those of an unread local array when no element of theirs is read in the function."""
    _Fold().visit(func)
    params = {a.arg for a in func.args.args}
    dumped = ast.dump(func)
    for _ in range(6):
        before = dumped         # (the dump that ended the last round: one dump per round)
        stored = _stored_names(func.body)
        func.body = _sink(func.body, stored, params)
        _zero_fold(func.body, set())
        unread = _unread_arrays(func, params, discard)
        func.body = _dead_stores(_drop_unread_stores(func.body, unread), set(), scalars)[0]
        _dead_kills(func, params)
        _propagate_params(func, params)
        func.body = _propagate_copies(func.body, _stored_names(func.body))
        func.body = _empty_control(func.body)
        dumped = ast.dump(func)
        if dumped == before:
            break
    last = func.body[-1] if func.body else None
    if isinstance(last, ast.Return) and isinstance(last.value, ast.Tuple) and not last.value.elts:
        func.body.pop()
        while func.body and _is_comment(func.body[-1]):     # it described a loop that went
            func.body.pop()
    func.body = _comments(func.body) or [ast.Pass()]
    return ast.fix_missing_locations(func)


# --------------------------------------------------------------------------- helpers
_loads = unstored_names
_stores = stored_names
_mentions = all_names


def _stored_names(body) -> dict:
    """How many times each name is stored; under ``("uses", name)``, how many times it is read."""
    count: dict = {}
    for s in body:
        for n in iter_nodes(s):
            if isinstance(n, ast.Name):
                key = n.id if isinstance(getattr(n, "ctx", None), ast.Store) else ("uses", n.id)
                count[key] = count.get(key, 0) + 1
    return count


def _header_loads(s) -> set:
    if isinstance(s, ast.For):
        return _loads(s.iter)
    if isinstance(s, (ast.While, ast.If)):
        return _loads(s.test)
    return _loads(s)


def _is_pure(e) -> bool:
    for n in iter_nodes(e):
        if isinstance(n, ast.Call):
            f = dotted(n.func)
            if not (f in _PURE_CALLS or f.startswith(_PURE_PREFIXES)) or f.startswith("np.random."):
                return False
        elif isinstance(n, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda)):
            return False
    return True


def _scalar_store(s, scalars) -> str | None:
    """Target name of ``x = pure`` / ``x op= pure`` (``x`` a scalar), the statements a dead-store
    pass may drop."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
        return s.targets[0].id if _is_pure(s.value) else None
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id in scalars:
        return s.target.id if _is_pure(s.value) else None
    return None


def _is_zero(e) -> bool:
    """``0.0`` or ``np.float32(0)``: a float zero (integer zeros are counters, left alone)."""
    if isinstance(e, ast.Constant):
        return type(e.value) is float and e.value == 0.0
    return (isinstance(e, ast.Call) and dotted(e.func) in ("np.float32", "np.float64") and len(e.args) == 1
            and isinstance(e.args[0], ast.Constant) and e.args[0].value == 0 and not e.keywords)


def _is_constant(e) -> bool:
    """``1.5``, ``0`` or ``np.int64(0)`` (a tape top's start), ``np.float32(0)``: a constant."""
    if isinstance(e, ast.Constant):
        return True
    return (isinstance(e, ast.Call) and dotted(e.func) in ("np.float32", "np.float64", "np.int64")
            and len(e.args) == 1 and isinstance(e.args[0], ast.Constant) and not e.keywords)


def _is_prange(s) -> bool:
    return isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and dotted(s.iter.func) in (
        "numba.prange", "prange")


def _is_comment(s) -> bool:
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) \
        and s.value.func.id == "__comment__"


def _children(s):
    if isinstance(s, (ast.For, ast.While)):
        return ("body",)
    if isinstance(s, ast.If):
        return ("body", "orelse")
    return ()


# --------------------------------------------------------------------------- passes
class _Fold(ast.NodeTransformer):
    """Fold integer arithmetic on constants."""
    _OPS = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__}

    def visit_BinOp(self, node):
        self.generic_visit(node)
        fn = self._OPS.get(type(node.op))
        if fn and all(isinstance(x, ast.Constant) and type(x.value) is int for x in (node.left, node.right)):
            return ast.copy_location(ast.Constant(fn(node.left.value, node.right.value)), node)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and type(node.operand.value) is int:
            return ast.copy_location(ast.Constant(-node.operand.value), node)
        return node


def _movable(s, stored, params) -> str | None:
    """``x = constant`` or ``x = p`` (a parameter never reassigned): the name ``x``, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and (
            _is_constant(s.value)
            or (isinstance(s.value, ast.Name) and s.value.id in params and s.value.id not in stored)):
        return s.targets[0].id
    return None


def _sink(stmts, stored, params):
    """Move ``x = 0.0`` / ``x = param`` down to the first statement of the block mentioning ``x``
    (past other statements, not past other such declarations; a comment stays with the statement
    after it)."""
    out = list(stmts)
    for s in out:
        for field in _children(s):
            setattr(s, field, _sink(getattr(s, field), stored, params))
    movable = [_movable(s, stored, params) for s in out]
    mentions = [_mentions(s) for s in out]
    anchor = {}                 # index of a moved statement -> index it goes before
    seen_after: dict = {}       # name -> first index after the current one mentioning it
    for k in range(len(out) - 1, -1, -1):
        x = movable[k]
        if x is not None and x in seen_after:
            j = seen_after[x]
            while j - 1 > k and _is_comment(out[j - 1]):
                j -= 1
            if any(movable[m] is None for m in range(k + 1, j)):
                anchor[k] = j
        for n in mentions[k]:
            seen_after[n] = k
    if not anchor:
        return out
    before: dict = {}
    for k in sorted(anchor):
        before.setdefault(anchor[k], []).append(k)

    def emit(j, acc):
        for k in before.get(j, ()):
            emit(k, acc)
            acc.append(out[k])

    result = []
    for j in range(len(out)):
        if j in anchor:
            continue
        emit(j, result)
        result.append(out[j])
    return result


def _zero_fold(stmts, zero: set, rewrite=True) -> set:
    """Rewrite ``x += e`` to ``x = e`` in place where ``x`` holds a float zero; returns the zero set
    after ``stmts`` (``rewrite=False``: only the set)."""
    zero = set(zero)
    for k, s in enumerate(stmts):
        if not rewrite and isinstance(s, ast.AugAssign):
            zero -= _stores(s)
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id in zero \
                and isinstance(s.op, (ast.Add, ast.Sub)) and s.target.id not in _loads(s.value):
            value = s.value if isinstance(s.op, ast.Add) else ast.UnaryOp(op=ast.USub(), operand=s.value)
            new = ast.copy_location(ast.Assign(targets=[ast.Name(s.target.id, ast.Store())], value=value), s)
            new.__dict__.update({a: v for a, v in s.__dict__.items() if a.startswith("adtrans_")})
            stmts[k] = new
            zero.discard(s.target.id)
        elif isinstance(s, ast.If):
            zero = _zero_fold(s.body, zero, rewrite) & _zero_fold(s.orelse, zero, rewrite)
        elif isinstance(s, (ast.For, ast.While)):
            entry = set() if _is_prange(s) else set(zero)
            if isinstance(s, ast.For):
                entry.discard(s.target.id)
            while True:     # zero on entry and after every iteration (found without rewriting)
                new_entry = entry & _zero_fold(s.body, entry, rewrite=False)
                if new_entry == entry:
                    break
                entry = new_entry
            if rewrite:
                _zero_fold(s.body, entry)
            zero = (zero - _stores(s)) | entry
        else:
            zero -= _stores(s)
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and _is_zero(s.value):
                zero.add(s.targets[0].id)
    return zero


def _dead_stores(stmts, live_after: set, scalars, remove=True, memo=None):
    """Drop pure scalar stores whose target is not live; returns ``(stmts, live_before)``.
    ``memo``: id of a simple statement -> (statement, what it stores, what it reads), shared by
    the loop fixpoints of one call (which revisit inner bodies; simple statements do not change)."""
    memo = {} if memo is None else memo
    live = set(live_after)
    out = []
    for s in reversed(stmts):
        if isinstance(s, ast.If):
            body, lb = _dead_stores(s.body, live, scalars, remove, memo)
            orelse, lo = _dead_stores(s.orelse, live, scalars, remove, memo)
            if remove:
                s.body, s.orelse = body, orelse
            live = lb | lo | _loads(s.test)
        elif isinstance(s, (ast.For, ast.While)):
            target = {s.target.id} if isinstance(s, ast.For) else set()
            header = _header_loads(s)
            carried = set()
            while True:
                end = live | (carried - target) | (header if isinstance(s, ast.While) else set())
                _, lin = _dead_stores(s.body, end, scalars, False, memo)
                if lin <= carried:
                    break
                carried |= lin
            end = live | (carried - target) | (header if isinstance(s, ast.While) else set())
            if remove:
                s.body = _dead_stores(s.body, end, scalars, True, memo)[0]
            live = live | (carried - target) | header
        else:
            hit = memo.get(id(s))
            if hit is None or hit[0] is not s:
                hit = memo[id(s)] = (s, _scalar_store(s, scalars), _loads(s))
            x = hit[1]
            if remove and x is not None and x not in live:
                continue
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                live = (live - {s.targets[0].id}) | hit[2]
            else:
                live = live | hit[2]
        out.append(s)
    out.reverse()
    return out, live


_ALLOCATIONS = {"np.empty", "np.zeros", "np.ones", "np.full", "np.empty_like", "np.zeros_like",
                "np.ones_like", "np.full_like"}
_SHAPE_READS = {"shape", "size", "ndim", "dtype"}


def _local_array_uses(func, params, discard=frozenset()) -> dict:
    """For each local array (bound once, by a NumPy allocation, not a parameter; or a parameter of
    ``discard`` never bound in the function) whose every other
    mention is an element access, ``x.shape`` (size, ndim, dtype) or the template of
    ``np.zeros_like(x)`` / ``np.empty_like(x)``: whether any element is read (``x[i]`` loaded,
    ``x[i] += v`` counts as a store).  Any other use (a call, a tape push, a view, a return, a
    second binding, ``y = x``) leaves the name out."""
    ok: dict = {}
    read: dict = {}
    bound: dict = {}
    parents = {}
    names = []
    # one walk in ast.walk's order (the parents first, every Name kept in order), then the names
    for node in iter_nodes(func):
        for f in node._fields:
            v = getattr(node, f, None)
            if type(v) is list:
                for child in v:
                    if isinstance(child, ast.AST):
                        parents[id(child)] = node
            elif isinstance(v, ast.AST):
                parents[id(v)] = node
        if isinstance(node, ast.Name):
            names.append(node)
    for node in names:
        up = parents.get(id(node))
        x = node.id
        if isinstance(getattr(node, "ctx", None), ast.Store):
            alloc = isinstance(up, ast.Assign) and len(up.targets) == 1 and up.targets[0] is node \
                and isinstance(up.value, ast.Call) and dotted(up.value.func) in _ALLOCATIONS
            bound[x] = bound.get(x, 0) + 1
            ok[x] = ok.get(x, True) and alloc
            continue
        element = isinstance(up, ast.Subscript) and up.value is node
        store = element and isinstance(getattr(up, "ctx", None), ast.Store) \
            and isinstance(parents.get(id(up)), (ast.Assign, ast.AugAssign))
        shape = isinstance(up, ast.Attribute) and up.value is node and up.attr in _SHAPE_READS
        like = isinstance(up, ast.Call) and dotted(up.func) in ("np.zeros_like", "np.empty_like") \
            and up.args and up.args[0] is node
        ok[x] = ok.get(x, True) and (store or shape or like or (element and not store))
        if element and not store:
            read[x] = True
    return {x: read.get(x, False) for x, good in ok.items()
            if good and (bound.get(x) == 1 and x not in params or x in discard and x in params and x not in bound)}


def _unread_arrays(func, params, discard=frozenset()) -> set:
    """Local arrays and parameters of ``discard`` (see :func:`_local_array_uses`) whose elements
    nothing reads."""
    return {x for x, r in _local_array_uses(func, params, discard).items() if not r}


def _drop_unread_stores(stmts, unread: set) -> list:
    """``stmts`` without the element stores of pure values into the arrays ``unread`` (nested
    blocks too)."""
    if not unread:
        return stmts
    out = []
    for s in stmts:
        target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else \
            s.target if isinstance(s, ast.AugAssign) else None
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in unread \
                and _is_pure(s.value) and _is_pure(target.slice):
            continue
        for field in _children(s):
            setattr(s, field, _drop_unread_stores(getattr(s, field), unread))
        out.append(s)
    return out


def _dead_kills(func, params) -> None:
    """Drop the adjoint kills ``d[i, j] = 0.0`` that nothing can read: ``d`` a local array (see
    :func:`_local_array_uses`) not mentioned after the top-level loop nest holding the kill;
    there every mention of ``d`` is ``d[I]`` with one index ``I``, the targets of all the
    ``range`` loops around it (none reassigned, no ``while`` around), in the kill's block with
    the kill last: each iteration reads its own element before killing it, and no later one
    comes back to it."""
    local = _local_array_uses(func, params)
    body = func.body
    for k, top in enumerate(body):
        if not isinstance(top, ast.For):
            continue
        later = set()
        for s in body[k + 1:]:
            later |= _mentions(s)
        for d in local:
            if d in later:
                continue
            found = _kill_block(top, d, [])
            if found is not None:
                block, kill = found
                block.remove(kill)


def _kill_block(loop, d, targets):
    """``(block, kill)``: the block of the loop nest ``loop`` holding the only statements that
    mention ``d``, when they are as :func:`_dead_kills` needs, else None."""
    if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call)
            and ast.unparse(loop.iter.func) == "range"):
        return None
    targets = targets + [loop.target.id]
    inner = [s for s in loop.body if d in _mentions(s)]
    if not inner:
        return None
    if len(inner) == 1 and isinstance(inner[0], ast.For):        # the nest goes on
        if any(t in _stores(s) for s in loop.body if s is not inner[0] for t in targets):
            return None
        return _kill_block(inner[0], d, targets)
    if any(isinstance(s, _COMPOUND) for s in inner):
        return None
    kill = inner[-1]
    if not (isinstance(kill, ast.Assign) and len(kill.targets) == 1 and isinstance(kill.targets[0], ast.Subscript)
            and isinstance(kill.targets[0].value, ast.Name) and kill.targets[0].value.id == d
            and _is_zero(kill.value)):
        return None
    index = kill.targets[0].slice
    names = index.elts if isinstance(index, ast.Tuple) else [index]
    if sorted(getattr(n, "id", None) or "" for n in names) != sorted(targets) \
            or not all(isinstance(n, ast.Name) for n in names):
        return None
    if any(t in _stores(s) for s in loop.body for t in targets):
        return None
    want = ast.dump(index)
    for s in inner:
        for n in ast.walk(s):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == d \
                    and ast.dump(n.slice) != want:
                return None
        mentions = sum(1 for n in ast.walk(s) if isinstance(n, ast.Name) and n.id == d)
        subs = sum(1 for n in ast.walk(s) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                   and n.value.id == d)
        if mentions != subs:
            return None
    return loop.body, kill


def _propagate_params(func, params):
    """``a = p`` with ``p`` a parameter never reassigned and ``a`` assigned once: use ``p`` for ``a``."""
    stored = _stored_names(func.body)
    copies = {}
    for s in iter_nodes(ast.Module(body=func.body, type_ignores=[])):
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Name) and s.value.id in params and s.value.id not in stored \
                and stored.get(s.targets[0].id) == 1 and s.targets[0].id not in params:
            copies[s.targets[0].id] = s.value.id
    if not copies:
        return

    class _Use(ast.NodeTransformer):
        def visit_Name(self, node):
            if not isinstance(getattr(node, "ctx", None), ast.Store) and node.id in copies:
                return ast.copy_location(ast.Name(copies[node.id], ast.Load()), node)
            return node

    _Use().visit(func)
    func.body = _drop_copies(func.body, copies)


def _propagate_copies(stmts, stored):
    """``a = b`` where ``a`` is assigned only here and read only later in this block, and ``b`` is not
    reassigned after it in the block: read ``b`` instead and drop the copy."""
    out = list(stmts)
    for s in out:
        for field in _children(s):
            setattr(s, field, _propagate_copies(getattr(s, field), stored))
    loads_after: dict = {}      # name -> loads in out[k + 1:]
    stored_after: set = set()   # names stored in out[k + 1:]
    mapping, drop = {}, set()
    for k in range(len(out) - 1, -1, -1):
        s = out[k]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Name) and stored.get(s.targets[0].id) == 1:
            a, b = s.targets[0].id, s.value.id
            if a != b and b not in stored_after and loads_after.get(a, 0) == stored.get(("uses", a), 0):
                mapping[a] = b
                drop.add(k)
        for n in iter_nodes(s):
            if isinstance(n, ast.Name):
                if isinstance(getattr(n, "ctx", None), ast.Store):
                    stored_after.add(n.id)
                else:
                    loads_after[n.id] = loads_after.get(n.id, 0) + 1
    if not mapping:
        return out

    def final(n):
        while n in mapping:
            n = mapping[n]
        return n
    out = [s for k, s in enumerate(out) if k not in drop]
    Rename({a: final(a) for a in mapping}, loads_only=True).visit(ast.Module(body=out, type_ignores=[]))
    for a, b in mapping.items():        # keep the counts exact for the enclosing blocks
        stored[a] -= 1
        stored[("uses", b)] -= 1
    for a in mapping:
        stored[("uses", final(a))] = stored.get(("uses", final(a)), 0) + stored.pop(("uses", a), 0)
    return out


def _drop_copies(stmts, copies):
    out = []
    for s in stmts:
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and s.targets[0].id in copies:
            continue
        for field in _children(s):
            setattr(s, field, _drop_copies(getattr(s, field), copies))
        out.append(s)
    return out


def _empty(body) -> bool:
    return all(isinstance(s, ast.Pass) or _is_comment(s) for s in body)


def _empty_control(stmts):
    """Drop ``if c: pass``, empty ``range`` loops and comments left with nothing to describe."""
    out = []
    for s in stmts:
        for field in _children(s):
            setattr(s, field, _empty_control(getattr(s, field)))
        if isinstance(s, ast.If):
            if _empty(s.body) and _empty(s.orelse) and _is_pure(s.test):
                continue
            if _empty(s.body):
                test = s.test.operand if isinstance(s.test, ast.UnaryOp) and isinstance(s.test.op, ast.Not) \
                    else ast.UnaryOp(op=ast.Not(), operand=s.test)
                s.test, s.body, s.orelse = test, s.orelse, []
            s.orelse = [x for x in s.orelse if not isinstance(x, ast.Pass)]
        if isinstance(s, ast.For) and _empty(s.body) and _is_pure(s.iter):
            continue
        if isinstance(s, (ast.For, ast.While, ast.If)):
            s.body = [x for x in s.body if not isinstance(x, ast.Pass)] or [ast.Pass()]
        out.append(s)
    while out and _is_comment(out[-1]):     # a comment describes what follows it
        out.pop()
    return out


def _comments(stmts):
    """One ``# adjoint of: <line>`` before each run of reverse statements of one source statement."""
    out, prev = [], None
    for s in stmts:
        if getattr(s, "adtrans_bookkeeping", False):     # e.g. a prange span update: no comment, keeps the run
            pass
        elif isinstance(s, _COMPOUND):
            for field in _children(s):
                setattr(s, field, _comments(getattr(s, field)))
            prev = None
        else:
            src = getattr(s, "adtrans_reverse_of", None)
            if src is not None and src != prev and ast.unparse(s) != src:     # a mirrored barrier says itself
                out.append(comment(f"adjoint of: {src}"))
                prev = src
        out.append(s)
    return out

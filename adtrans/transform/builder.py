"""Builds the adjoint function of a normalised kernel: forward sweep, reverse sweep, tape.

Loop strategies (chosen per loop, see :meth:`AdjointBuilder.plan`):

- **fused** — iterations are independent and everything their reverse needs is
  known when they run (a sum over poses or pairs): each iteration runs its
  forward statements and then at once its reverse statements; no tape, one pass.
- **recompute** — iterations are independent but the adjoints they need are
  known only later: the forward sweep runs the primal loop untouched; the
  reverse sweep runs each iteration's forward statements again, then its
  reverse.  Arrays the loop reads that are overwritten later are copied first.
- **taped** — iterations depend on each other (a time loop, a recurrence, a
  ``while``): the forward sweep pushes every overwritten value that the reverse
  sweep reads onto a typed tape, and the trip count; the reverse sweep pops.

``prange`` loops are always fused or recomputed, so the adjoint stays parallel.
"""
from __future__ import annotations

import ast
import copy
import itertools
from collections import defaultdict

from ..analyse.types import is_array, is_float, scalar_dtype_name
from ..analyse.walk import array_target, is_alloc, iter_stmts, reads, scalar_target
from ..rules.scalar import INTRINSIC
from .affine import AffineMap, unique_position
from .liveness import after_in_block, containing_block, upward_exposed
from .statements import StatementRules, name

_SPELLED = {}
for _k, (_spell, _t) in INTRINSIC.items():
    _SPELLED.setdefault(_spell, _k)

PUSH, POP, SCOPE_START, COMMENT = "__push__", "__pop__", "__scope_start__", "__comment__"


def marker(kind, *args):
    return ast.Expr(value=ast.Call(func=name(kind), args=[ast.Constant(a) for a in args], keywords=[]))


def comment(text):
    return marker(COMMENT, text)


def is_marker(s, kind=None):
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id.startswith("__") and (kind is None or s.value.func.id == kind))


def loop_is_prange(loop) -> bool:
    return isinstance(loop, ast.For) and ast.unparse(loop.iter.func) == "numba.prange"


def _weight(loop, depth=1) -> int:
    """Rough work of a loop: statements, weighted by ten per level of loop nesting."""
    w = 0
    for s in loop.body:
        if isinstance(s, (ast.For, ast.While)):
            w += _weight(s, depth + 1)
        elif isinstance(s, ast.If):
            w += _weight(ast.For(body=s.body + s.orelse), depth)
        else:
            w += 10 ** depth
    return w


class Scope:
    """A region whose forward and reverse statements run back to back (the function body,
    or one iteration of a fused or recomputed loop)."""
    _ids = itertools.count()

    def __init__(self, root, parent, live_in, mode="record", prange_var=None, recompute_root=None,
                 renames=None):
        self.id = next(self._ids)
        self.root, self.parent, self.live_in = root, parent, live_in
        self.mode, self.prange_var = mode, prange_var
        self.recompute_root = recompute_root
        self.renames = dict(renames or {})
        self.seen: set = set()
        self.owned: set = set()
        self.loop_node = None
        self.fused = False
        self.hoisted: list = []      # statements run once at the start of this (tape) scope
        self.tape_scope = self if (parent is None or prange_var) else parent.tape_scope

    @property
    def root_body(self):
        return None if self.root is None else self.root.body


class AdjointBuilder:
    def __init__(self, norm, types, act, param_activity, error):
        self.norm, self.types, self.act = norm, types, act
        self.param_activity = param_activity
        self.error = error
        self.rules = StatementRules(self)
        self.ancestors = {}
        self.sites = defaultdict(list)
        for s, parents in iter_stmts(norm.body):
            self.ancestors[id(s)] = parents
            t = scalar_target(s)
            if t:
                self.sites[t].append(s)
        self.adj_names: dict = {}
        self.needed: set = set()
        self.scopes: list[Scope] = []
        self.tape_dtypes = defaultdict(set)     # scope id -> dtypes
        self.pushed_names = defaultdict(set)    # scope id -> names pushed there
        self.plan_notes: list[str] = []
        self.primal_names = set(types) | set(norm.params)
        self._needed_cache: dict = {}

    # ------------------------------------------------------------ naming
    def root_array(self, a):
        while a in self.act.alias:
            a = self.act.alias[a]
        return a

    def adj(self, x: str) -> str:
        x = self.root_array(x) if is_array(self.types.get(x)) else x
        if x not in self.adj_names:
            self.adj_names[x] = self.norm.alloc.fresh("d_" + x)
        return self.adj_names[x]

    def is_active(self, x: str) -> bool:
        return x in self.act.active

    def cast_of(self, x):
        ty = self.types.get(x)
        if ty is not None and is_array(ty):
            ty = ty.dtype
        return "np.float32" if str(ty) == "float32" else None

    def intrinsic_key(self, call):
        return _SPELLED.get(ast.unparse(call.func)) if isinstance(call, ast.Call) else None

    # ------------------------------------------------------- shadow access
    def shadow_add(self, arr, idx, g):
        node = ast.AugAssign(target=ast.Subscript(value=name(self.adj(arr)), slice=copy.deepcopy(idx),
                                                  ctx=ast.Store()), op=ast.Add(), value=g)
        cast = self.cast_of(arr)
        if cast:
            node.value = ast.Call(func=ast.parse(cast, mode="eval").body, args=[g], keywords=[])
        return node

    def shadow_read(self, arr, idx):
        return ast.Subscript(value=name(self.adj(arr)), slice=copy.deepcopy(idx), ctx=ast.Load())

    def shadow_kill(self, arr, idx):
        return ast.Assign(targets=[ast.Subscript(value=name(self.adj(arr)), slice=copy.deepcopy(idx),
                                                 ctx=ast.Store())], value=ast.Constant(0.0))

    # ---------------------------------------------------------- ownership
    def touch(self, code, scope):
        """Register the scalar adjoints ``code`` uses with the scope that owns them."""
        inverse = {v: k for k, v in self.adj_names.items()}
        for n in ast.walk(ast.Module(body=list(code), type_ignores=[])):
            if isinstance(n, ast.Name) and n.id in inverse:
                x = inverse[n.id]
                if is_array(self.types.get(x)):
                    continue
                s = scope
                while s.parent is not None and x in s.live_in:
                    s = s.parent
                s.owned.add(x)

    def need(self, code):
        for s in code:
            for n in ast.walk(s):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    self.needed.add(n.id)

    # ------------------------------------------------------------ analysis
    def live_in_of(self, loop) -> set:
        inside = {id(s) for s, _ in iter_stmts(loop.body)}
        out = set(self.norm.params)
        for x, sites in self.sites.items():
            if any(id(s) not in inside for s in sites):
                out.add(x)
        return out

    def body_arrays(self, body):
        reads_, writes, allocs = set(), set(), set()
        for s, _ in iter_stmts(body):
            a = array_target(s)
            if a:
                writes.add(a)
            if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and \
                    isinstance(s.value.value, ast.Name):
                reads_.add(s.value.value.id)
            if isinstance(s, ast.Assign) and is_alloc(s.value):
                allocs.add(s.targets[0].id)
        return reads_, writes, allocs

    def scratch_arrays(self, loop) -> set:
        """Arrays allocated outside ``loop`` that each iteration overwrites completely before
        reading them (``for l in range(K): A[l] = ...`` with ``A = np.zeros(K)``) and that
        nothing reads after the loop: private to the iteration, like arrays allocated in it."""
        sizes = {}
        for s, _ in iter_stmts(self.norm.body):
            if isinstance(s, ast.Assign) and is_alloc(s.value) and s.value.args and \
                    isinstance(s.value.args[0], ast.Constant) and isinstance(s.targets[0], ast.Name):
                sizes.setdefault(s.targets[0].id, []).append(s.value.args[0].value)
        out = set()
        touched = set()
        for s in loop.body:
            r, w, _ = self.body_arrays([s])
            if isinstance(s, ast.For) and len(s.iter.args) == 1 and isinstance(s.iter.args[0], ast.Constant):
                k = s.iter.args[0].value
                for a in sorted(w - touched - r):
                    full = any(isinstance(t, ast.Assign) and array_target(t) == a and
                               isinstance(t.targets[0].slice, ast.Name) and t.targets[0].slice.id == s.target.id
                               for t in s.body)
                    if full and sizes.get(a) == [k] and not self.array_live_after(loop, a):
                        out.add(a)
            touched |= r | w
        return out

    def array_live_after(self, loop, a) -> bool:
        """Whether array ``a`` may be read after ``loop`` (before it is allocated anew)."""
        elem, chain = loop, self.ancestors[id(loop)]
        for parent in reversed((None,) + chain):
            block = containing_block(parent, elem, self.norm.body)
            if a in self.body_arrays(after_in_block(block, elem))[0]:
                return True
            if isinstance(parent, (ast.For, ast.While)):
                if a in self.body_arrays(parent.body)[2]:
                    return False        # allocated afresh in every iteration of `parent`
                if a in self.body_arrays(parent.body)[0]:
                    return True
            elem = parent
        return False

    def private_arrays(self, loop) -> set:
        return self.body_arrays(loop.body)[2] | (set() if loop_is_prange(loop) else self.scratch_arrays(loop))

    def live_after(self, loop, x) -> bool:
        elem, chain = loop, self.ancestors[id(loop)]
        for parent in reversed((None,) + chain):
            block = containing_block(parent, elem, self.norm.body)
            if upward_exposed(after_in_block(block, elem), x):
                return True
            if isinstance(parent, (ast.For, ast.While)) and upward_exposed(parent.body, x):
                return True
            elem = parent
        return x in self.norm.results

    def independent(self, loop) -> str | None:
        """Why the iterations of ``loop`` are not independent, or None if they are."""
        if not isinstance(loop, ast.For):
            return "a while loop"
        body, i = loop.body, loop.target.id
        inside = {id(s) for s, _ in iter_stmts(body)}
        for x in sorted({scalar_target(s) for s, _ in iter_stmts(body)} - {None}):
            sites = [s for s in self.sites[x] if id(s) in inside]
            accum = all(isinstance(s, ast.AugAssign) for s in sites)
            if accum:
                readers = [s for s, _ in iter_stmts(body) if x in reads(s) and s not in sites]
                if not readers and not any(x in reads(s.value) for s in sites):
                    continue
            if upward_exposed(body, x):
                return f"`{x}` carries a value from one iteration to the next"
            if self.live_after(loop, x):
                return f"`{x}` is used after the loop"
        if loop_is_prange(loop):
            return None
        if self.live_after(loop, i):
            return f"the loop index `{i}` is used after the loop"
        r, w, _ = self.body_arrays(body)
        shared = (r & w) - self.private_arrays(loop)
        if shared:
            return f"array `{sorted(shared)[0]}` is both read and written"
        return None

    def unique_stores(self, loop) -> bool:
        """Every store into an outer array writes an element no other iteration writes."""
        _, w, _ = self.body_arrays(loop.body)
        amap = AffineMap(loop.body, loop.target.id)
        for arr in w - self.private_arrays(loop):
            idxs = [s.targets[0].slice for s, _ in iter_stmts(loop.body)
                    if isinstance(s, ast.Assign) and array_target(s) == arr]
            if idxs and unique_position(idxs, amap) is None:
                return False
        return True

    def written_after(self, loop, scope) -> set:
        out = set()
        elem, chain = loop, self.ancestors[id(loop)]
        if scope.root is not None:
            chain = chain[[id(c) for c in chain].index(id(scope.root)) + 1:]
        root_parent = scope.root
        for parent in reversed((root_parent,) + tuple(chain)):
            block = containing_block(parent, elem, self.norm.body) if parent is not None else \
                containing_block(None, elem, self.norm.body)
            for s, _ in iter_stmts(after_in_block(block, elem)):
                a = array_target(s)
                if a:
                    out.add(a)
            if isinstance(parent, (ast.For, ast.While)) and parent is not scope.root:
                for s, _ in iter_stmts(parent.body):
                    a = array_target(s)
                    if a:
                        out.add(a)
            elem = parent
            if parent is scope.root:
                break
        return out

    # ------------------------------------------------------------ blocks
    def adjacent(self, stmts, scope) -> list:
        """Forward then reverse statements of ``stmts`` (a scope's body), fusing the last loop
        whose reverse can run during the forward sweep."""
        if stmts and isinstance(stmts[-1], ast.If) and any(
                isinstance(n, (ast.For, ast.While)) for n in ast.walk(stmts[-1])):
            return self.fuse_if(stmts[:-1], stmts[-1], scope)
        # try the loops doing the most work first: fusing one saves a pass over it
        loops = [k for k, L in enumerate(stmts) if isinstance(L, ast.For)]
        for k in sorted(loops, key=lambda k: (-_weight(stmts[k]), -k)):
            fused = self.try_fuse(stmts[:k], stmts[k], stmts[k + 1:], scope)
            if fused is not None:
                return fused
        f, r = self.block(stmts, scope, 0)
        self.need(r)
        return f + r

    def fuse_if(self, s1, node, scope):
        """The region ends with ``if``: each branch runs its forward then its reverse statements
        (so loops inside the branches can be fused); the reverse of ``s1`` follows."""
        f1, r1 = self.block(s1, scope, 0)
        before = set(scope.seen)
        body = self.adjacent(node.body, scope)
        after_body, scope.seen = scope.seen, before
        orelse = self.adjacent(node.orelse, scope)
        scope.seen |= after_body
        self.need(r1)
        self.need(body + orelse)
        return f1 + [ast.If(test=copy.deepcopy(node.test), body=body or [ast.Pass()], orelse=orelse)] + r1

    def hoist(self, loop, s2):
        """Split ``s2`` into scalar statements that do not depend on ``loop`` (they may run
        before it) and the rest."""
        assigned = {scalar_target(s) for s, _ in iter_stmts(loop.body)} - {None}
        assigned.add(loop.target.id)
        _, written, _ = self.body_arrays(loop.body)
        early, late = [], []
        for s in s2:
            x = scalar_target(s)
            ok = (isinstance(s, ast.Assign) and x is not None and not is_alloc(s.value)
                  and not (reads(s) & assigned) and not (self.body_arrays([s])[0] & written))
            if ok:
                early.append(s)
            else:
                late.append(s)
                if x is not None:
                    assigned.add(x)
        return early, late

    def try_fuse(self, s1, loop, s2, scope):
        """Fuse ``loop`` (forward and reverse per iteration, in the forward sweep) if its
        iterations are independent and the reverse of what follows it (``s2``) can run before
        it: that reverse must read nothing that ``loop`` or ``s2`` computes."""
        if not isinstance(loop, ast.For) or self.independent(loop) is not None:
            return None
        early, s2 = self.hoist(loop, s2)
        s1 = list(s1) + early
        if not loop_is_prange(loop) and not self.unique_stores(loop):
            return None
        if any(isinstance(s, ast.Assign) and is_alloc(s.value) for s, _ in iter_stmts(s2)):
            return None
        saved_seen = set(scope.seen)
        f1, r1 = self.block(s1, scope, 0)
        f2, r2 = self.block(s2, scope, 0)
        if not self.can_run_first(r2, f2, loop):
            scope.seen = saved_seen
            return None
        # only values the reverse of s1 reads need restoring after the fused loop
        r1_reads = {n.id for st in r1 for n in ast.walk(st) if isinstance(n, ast.Name)}
        saves, pops = self.compound_save(loop, scope, restrict=r1_reads)
        fused = self.fused_loop(loop, scope)
        self.need(r1)
        self.need(r2)
        return f1 + r2 + saves + fused + f2 + pops + r1

    def can_run_first(self, r2, f2, loop) -> bool:
        """Whether reverse code ``r2`` can run before ``loop`` and the forward code ``f2``."""
        module = ast.Module(body=list(r2), type_ignores=[])
        for n in ast.walk(module):
            if isinstance(n, ast.stmt) and (is_marker(n, PUSH) or is_marker(n, POP)):
                return False
            if isinstance(n, ast.Name) and n.id.startswith("top") and isinstance(n.ctx, ast.Store):
                return False
        produced = {scalar_target(s) for s, _ in iter_stmts(loop.body)} - {None}
        produced.add(loop.target.id)
        produced |= {n.id for st in f2 for n in ast.walk(st) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store)}
        if any(upward_exposed(r2, x) for x in produced):
            return False
        _, written, _ = self.body_arrays(loop.body)
        _, written2, _ = self.body_arrays(f2)
        read_arrays = {n.value.id for n in ast.walk(module) if isinstance(n, ast.Subscript)
                       and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)}
        return not (read_arrays & (written | written2))

    def block(self, stmts, scope, depth):
        fwd, rev = [], []
        for s in stmts:
            f, r = self.stmt(s, scope, depth)
            fwd += f
            rev = r + rev
        return fwd, rev

    # -------------------------------------------------------- statements
    def stmt(self, s, scope, depth):
        if isinstance(s, ast.If):
            # the two branches exclude each other: an assignment in one does not overwrite the other's
            before = set(scope.seen)
            f1, r1 = self.block(s.body, scope, depth)
            after_body, scope.seen = scope.seen, before
            f2, r2 = self.block(s.orelse, scope, depth)
            scope.seen |= after_body
            fwd = [ast.If(test=copy.deepcopy(s.test), body=f1 or [ast.Pass()], orelse=f2)] if (f1 or f2) else []
            rev = [ast.If(test=copy.deepcopy(s.test), body=r1 or [ast.Pass()], orelse=r2)] if (r1 or r2) else []
            return fwd, rev
        if isinstance(s, (ast.For, ast.While)):
            return self.loop(s, scope, depth)
        if isinstance(s, ast.Raise):
            return ([] if scope.mode == "recompute" else [copy.deepcopy(s)]), []
        return self.simple(s, scope, depth)

    def simple(self, s, scope, depth):
        fwd, rev = [], []
        x = scalar_target(s)
        primal = self.forward_copy(s, scope)
        if primal is None:          # recomputing: the side effect already happened
            rev = self.rules.reverse(s)
            self.touch(rev, scope)
            return [], rev
        if x is not None:
            first = depth == 0 and x not in scope.seen and x not in scope.live_in
            scope.seen.add(x)
            # an outer accumulator updated in a fused iteration keeps its new value
            keeps = scope.fused and x in scope.live_in
            if not first and not keeps:
                fwd.append(marker(PUSH, x, scope.tape_scope.id))
        fwd.append(primal)
        if isinstance(s, ast.Assign) and x is not None:
            v = s.value
            if is_alloc(v) and self.is_active(x):
                shape = ast.Call(func=ast.parse("np.zeros_like", mode="eval").body, args=[name(x)], keywords=[])
                fwd.append(ast.Assign(targets=[name(self.adj(x), True)], value=shape))
            elif isinstance(v, ast.Name) and is_array(self.types.get(x)) and self.is_active(x) \
                    and self.adj(x) != self.adj(v.id):
                fwd.append(ast.Assign(targets=[name(self.adj(x), True)], value=name(self.adj(v.id))))
        rev = self.rules.reverse(s)
        if isinstance(s, ast.Assign) and x is not None and self.is_active(x) and not is_array(self.types.get(x)):
            single = depth == 0 and len([t for t in self.sites[x]]) == 1 and x not in scope.live_in
            if not single:
                rev.append(ast.Assign(targets=[name(self.adj(x), True)], value=self.zero(x)))
        if isinstance(s, ast.Assign) and x is not None and is_alloc(s.value) and self.is_active(x) \
                and (depth > 0 or len(self.sites[x]) > 1):
            rev.append(ast.Expr(value=ast.Call(func=ast.Attribute(value=name(self.adj(x)), attr="fill",
                                                                  ctx=ast.Load()), args=[ast.Constant(0)],
                                               keywords=[])))
        if x is not None and fwd and is_marker(fwd[0], PUSH):
            rev.append(marker(POP, x, scope.tape_scope.id))
        self.touch(rev, scope)
        self.touch(fwd, scope)
        return fwd, rev

    def forward_copy(self, s, scope):
        """The primal statement as the current scope runs it (renamed/dropped when recomputing)."""
        if scope.mode == "recompute":
            root = scope.recompute_root
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                if s.target.id in self.live_in_of(root):
                    return None         # outer accumulator: already holds its final value
            need = self.recompute_needed(root)
            arr, x = array_target(s), scalar_target(s)
            if arr is not None and arr not in need:
                return None             # nothing recomputed reads this array
            if x is not None and x not in need:
                return None             # the reverse statements do not use this value
        return self.rename(copy.deepcopy(s), scope)

    def recompute_needed(self, loop) -> set:
        """Names (scalars and arrays) whose values the reverse of ``loop``'s body uses:
        what its adjoint rules read, and everything those values are computed from."""
        key = id(loop)
        if key in self._needed_cache:
            return self._needed_cache[key]
        stmts = [s for s, _ in iter_stmts(loop.body)]
        need = set(reads(loop.iter)) if isinstance(loop, ast.For) else set()
        for s in stmts:
            if isinstance(s, (ast.If, ast.For, ast.While)):
                need |= reads(s)
            elif isinstance(s, (ast.Assign, ast.AugAssign)):
                for r in self.rules.reverse(s):
                    need |= {n.id for n in ast.walk(r) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        changed = True
        while changed:
            changed = False
            for s in reversed(stmts):
                if not isinstance(s, (ast.Assign, ast.AugAssign)):
                    continue
                t = scalar_target(s) or array_target(s)
                if t in need:
                    new = reads(s) - need
                    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and \
                            isinstance(s.value.value, ast.Name):
                        new |= {s.value.value.id} - need
                    if new:
                        need |= new
                        changed = True
        self._needed_cache[key] = need
        return need

    def rename(self, node, scope):
        if not scope.renames:
            return node
        for n in ast.walk(node):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in scope.renames:
                n.value = name(scope.renames[n.value.id])
        return node

    def zero(self, x):
        ty = self.types.get(x)
        dt = scalar_dtype_name(ty) if ty is not None else "float64"
        if dt == "float64":
            return ast.Constant(0.0)
        if dt == "int64":
            return ast.Constant(0)
        if dt == "bool_":
            return ast.Constant(False)
        return ast.parse(f"np.{dt}(0)", mode="eval").body

    # ------------------------------------------------------------- loops
    def plan(self, loop, scope):
        why = self.independent(loop)
        if why is None:
            return "recompute", None
        if loop_is_prange(loop):
            raise self.error(loop, f"prange loop whose iterations depend on each other ({why})",
                             "make each iteration independent, or use range()")
        return "taped", why

    def loop(self, L, scope, depth):
        strategy, why = self.plan(L, scope)
        if strategy == "recompute":
            return self.recompute_loop(L, scope, depth)
        return self.taped_loop(L, scope, depth, why)

    def compound_save(self, L, scope, only_header=False, restrict=None):
        # loop variables of independent loops are not live after them (see `independent`)
        names = {L.target.id} if isinstance(L, ast.For) and only_header else set()
        if not only_header:
            names |= {scalar_target(s) for s, _ in iter_stmts(L.body)} - {None}
        if restrict is not None:
            names &= restrict
        saves, pops = [], []
        for x in sorted(names):
            if x in scope.seen or x in scope.live_in:
                saves.append(marker(PUSH, x, scope.tape_scope.id))
                pops.insert(0, marker(POP, x, scope.tape_scope.id))
            scope.seen.add(x)
        return saves, pops

    def reversed_iter(self, L):
        args = [copy.deepcopy(a) for a in L.iter.args]
        if loop_is_prange(L):
            return copy.deepcopy(L.iter)
        a, b, c = (ast.Constant(0), args[0], ast.Constant(1)) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else ast.Constant(1))
        sub = lambda l, r: ast.BinOp(left=l, op=ast.Sub(), right=r)
        if isinstance(c, ast.Constant) and c.value == 1:
            rargs = [sub(b, ast.Constant(1)), sub(copy.deepcopy(a), ast.Constant(1)), ast.Constant(-1)]
        else:
            trips = ast.Call(func=name("len"), args=[ast.Call(func=name("range"), args=[a, b, c], keywords=[])],
                             keywords=[])
            start = ast.BinOp(left=copy.deepcopy(a), op=ast.Add(),
                              right=ast.BinOp(left=sub(trips, ast.Constant(1)), op=ast.Mult(), right=copy.deepcopy(c)))
            rargs = [start, sub(copy.deepcopy(a), copy.deepcopy(c)), ast.UnaryOp(op=ast.USub(), operand=copy.deepcopy(c))]
        return ast.Call(func=name("range"), args=rargs, keywords=[])

    def taped_loop(self, L, scope, depth, why):
        saves, pops = self.compound_save(L, scope, only_header=True)
        note = comment(f"taped loop ({why}): the forward sweep records overwritten values")
        f, r = self.block(L.body, scope, depth + 1)
        if isinstance(L, ast.For):
            fwd = saves + [note, ast.For(target=copy.deepcopy(L.target), iter=self.rename(copy.deepcopy(L.iter), scope),
                                         body=f or [ast.Pass()], orelse=[])]
            rev = [ast.For(target=copy.deepcopy(L.target), iter=self.reversed_iter(L), body=r or [ast.Pass()],
                           orelse=[])] + pops
            return fwd, rev
        count = self.norm.alloc.fresh("trips")
        self.types[count] = self.types.get("<int>") or _int64()
        self.sites[count].append(None)
        init = ast.Assign(targets=[name(count, True)], value=ast.Constant(0))
        fi, ri = self.simple(init, scope, depth)
        body = f + [ast.AugAssign(target=name(count, True), op=ast.Add(), value=ast.Constant(1))]
        fwd = fi + [note, ast.While(test=copy.deepcopy(L.test), body=body, orelse=[])]
        rev = [ast.For(target=name(self.norm.alloc.fresh("_"), True),
                       iter=ast.Call(func=name("range"), args=[name(count)], keywords=[]),
                       body=r or [ast.Pass()], orelse=[])] + ri
        self.needed.add(count)
        return fwd, rev

    def recompute_loop(self, L, scope, depth):
        is_par = loop_is_prange(L)
        reads_, writes, _ = self.body_arrays(L.body)
        local = self.private_arrays(L)
        reads_ &= self.recompute_needed(scope.recompute_root or L)
        snap = sorted((reads_ - local) & (writes | self.written_after(L, scope)))
        saves, pops = self.compound_save(L, scope)
        fwd, rev = list(saves), []
        renames = dict(scope.renames)
        for a in snap:
            src = scope.renames.get(a, a)
            copy_name = self.norm.alloc.fresh(a + "_before_loop")
            renames[a] = copy_name
            if depth == 0:
                fwd.append(ast.Assign(targets=[name(copy_name, True)],
                                      value=ast.parse(f"{src}.copy()", mode="eval").body))
            else:
                dt = str(self.types[a].dtype)
                ts = scope.tape_scope
                self.tape_dtypes[ts.id].add(dt)
                tape, top = self.tape_vars(ts, dt)
                fwd.append(ast.parse(f"{tape}, {top} = tape_push_array({tape}, {top}, {src})").body[0])
                rev.append(ast.parse(f"{copy_name} = np.empty_like({src})").body[0])
                rev.append(ast.parse(f"{top} = tape_pop_array({tape}, {top}, {copy_name})").body[0])
        child = Scope(L, scope, self.live_in_of(L), mode="recompute",
                      prange_var=L.target.id if is_par else None,
                      recompute_root=scope.recompute_root or L, renames=renames)
        self.scopes.append(child)
        body = self.adjacent(L.body, child)
        loop = ast.For(target=copy.deepcopy(L.target), iter=self.reversed_iter(L),
                       body=[marker(SCOPE_START, child.id)] + body, orelse=[])
        child.loop_node = loop
        how = "in parallel" if is_par else "in reverse order"
        why = f"; arrays copied first: {', '.join(snap)}" if snap else ""
        rev.append(comment(f"recomputed loop: each iteration reruns its forward statements, then its "
                           f"reverse, {how}{why}"))
        rev.append(loop)
        self.need([loop])
        fwd.append(self.plain(L, scope))
        return fwd, rev + pops

    def fused_loop(self, L, scope):
        is_par = loop_is_prange(L)
        child = Scope(L, scope, self.live_in_of(L), mode=scope.mode,
                      prange_var=L.target.id if is_par else None,
                      recompute_root=scope.recompute_root, renames=scope.renames)
        child.fused = True
        self.scopes.append(child)
        body = self.adjacent(L.body, child)
        loop = ast.For(target=copy.deepcopy(L.target), iter=self.rename(copy.deepcopy(L.iter), scope),
                       body=[marker(SCOPE_START, child.id)] + body, orelse=[])
        child.loop_node = loop
        self.need([loop])
        pre, post = ([], []) if is_par else self.lane_reductions(loop, child)
        return [comment("fused loop: each iteration runs its forward statements, then its reverse, "
                        "in one pass" + (" (parallel)" if is_par else ""))] + pre + [loop] + post

    def lane_reductions(self, loop, scope):
        """Adjoints of values the loop reads from outside accumulate across iterations
        (``d_p += ...``), which keeps LLVM from vectorising the loop without fast-math.
        For short loops of constant trip count, give each iteration its own slot
        (``d_p_lanes[l] += ...``) and add the slots after the loop."""
        args = loop.iter.args
        if len(args) != 1 or not isinstance(args[0], ast.Constant) or not 1 < args[0].value <= 1024:
            return [], []
        inverse = {v: k for k, v in self.adj_names.items()}
        targets = set()
        for n in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in inverse \
                    and inverse[n.target.id] in scope.live_in and not is_array(self.types.get(inverse[n.target.id])):
                targets.add(n.target.id)
        if not targets:
            return [], []
        i = loop.target.id
        pre, post = [], []
        for d in sorted(targets):
            lanes = self.norm.alloc.fresh(d + "_lanes")
            dt = scalar_dtype_name(self.types[inverse[d]])
            # allocated once per thread-private scope; each use leaves it zeroed
            scope.tape_scope.hoisted.append(ast.parse(f"{lanes} = np.zeros({args[0].value}, np.{dt})").body[0])
            for n in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == d:
                    n.target = ast.Subscript(value=name(lanes), slice=name(i), ctx=ast.Store())
            k = self.norm.alloc.fresh("lane")
            post.append(ast.parse(f"for {k} in range({args[0].value}):\n    {d} += {lanes}[{k}]\n"
                                  f"    {lanes}[{k}] = 0").body[0])
        return pre, post

    def plain(self, L, scope):
        """The primal loop as the current scope runs it (no tape)."""
        if scope.mode != "recompute" and not scope.renames:
            return copy.deepcopy(L)

        def walk(stmts):
            out = []
            for s in stmts:
                if isinstance(s, ast.If):
                    out.append(ast.If(test=s.test, body=walk(s.body) or [ast.Pass()], orelse=walk(s.orelse)))
                elif isinstance(s, (ast.For, ast.While)):
                    n = copy.copy(s)
                    n.body = walk(s.body) or [ast.Pass()]
                    out.append(n)
                elif isinstance(s, ast.Raise):
                    continue
                else:
                    c = self.forward_copy(s, scope)
                    if c is not None:
                        out.append(c)
            return out
        return walk([L])[0]

    def tape_vars(self, tape_scope, dt):
        tag = "" if tape_scope.parent is None else str(tape_scope.id)
        return f"tape{tag}_{dt}", f"top{tag}_{dt}"


def _int64():
    from numba.core import types
    return types.int64

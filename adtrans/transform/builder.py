"""Builds the adjoint function of a normalised kernel: forward sweep, reverse sweep, tape.

Loop strategies (chosen per loop, see :meth:`AdjointBuilder.plan`):

- **fused** — iterations are independent and everything their reverse needs is
  known when they run (a sum over poses or pairs): each iteration runs its
  forward statements and then at once its reverse statements; no tape, one pass.
- **recompute** — iterations are independent but the adjoints they need are
  known only later: the forward sweep runs the primal loop untouched; the
  reverse sweep runs each iteration's forward statements again, then its
  reverse.  Arrays the loop reads that are overwritten later are copied first.
- **gather** — a recompute loop that is a stencil (``out[i + a] = f(in[i + k], ...)``,
  ``in`` not written by the loop; also 2-D/3-D nests): the reverse sweep loops over the
  elements ``j`` of ``in`` and adds up the adjoints of the iterations ``j - k`` that read
  them, so each iteration writes only ``d_in[j]`` (no scatter, race-free under ``prange``,
  vectorisable); ``transform/loops.py`` ``gather_loop``.
- **last iteration** — a ``range`` loop that repeats an evaluation and keeps the
  last result (every iteration overwrites the scalars read after it, nothing else
  escapes): the forward sweep runs it untouched; the reverse sweep reruns and
  reverses only the last iteration, since the earlier ones reach no output.
- **carried scalars** — iterations depend on each other only through scalars
  (a recurrence, a running minimum): the forward sweep saves just those at the
  top of each iteration; the reverse reruns each iteration from them, then
  reverses it (like *recompute*, in reverse order).
- **taped** — iterations depend on each other (a time loop, a recurrence, a
  ``while``): the forward sweep pushes every overwritten value that the reverse
  sweep reads onto a typed tape, and the trip count; the reverse sweep pops.  A time loop
  whose iteration is cheap to run again tapes only the arrays each iteration starts from and
  reruns the iteration from them in the reverse sweep (``transform/rerun.py``).

``prange`` loops are always fused or recomputed, so the adjoint stays parallel.
"""
from __future__ import annotations

import ast
import copy
from collections import defaultdict

from ..analyse.types import is_array, scalar_dtype_name
from ..ir.walk import (array_target, forward_only, is_draw, is_lapack, is_product, iter_nodes, iter_stmts,
                       loaded_names, makes_array, product_operands, reads, scalar_target, stored_names)
from ..ir.liveness import upward_exposed
from ..analyse.loops import LoopAnalysis, StencilAnalysis, assigned_scalars, loop_is_prange, rebound_by_lapack
from .lapack_saves import LapackSaves
from .loops import LoopStrategies
from .rerun import IterationReruns
from .varlen import VaryingLengths
from ..ir.markers import POP, PUSH, is_marker, save_restore

from ..ir.nodes import name
from ..rules.linalg import product_shape
from ..rules.statements import StatementRules

def _loads(s) -> set:
    """Names ``s`` (nested statements included) reads."""
    return loaded_names(s)


def _stores(stmts) -> set:
    """Names ``stmts`` (nested statements included) assign."""
    return set().union(*map(stored_names, stmts))


def tag_reverse(rev, s):
    """Mark the reverse statements ``rev`` of ``s`` with ``s``'s source line (for the
    ``# adjoint of:`` comments)."""
    src = getattr(s, "adtrans_source", None)
    where = getattr(s, "adtrans_where", None)
    for r in rev:
        if src is not None:
            r.adtrans_reverse_of = src
        if where is not None and getattr(r, "adtrans_where", None) is None:
            r.adtrans_where = where


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


class AdjointBuilder(LoopAnalysis, StencilAnalysis, LoopStrategies, LapackSaves, VaryingLengths, IterationReruns):
    def __init__(self, norm, types, act, param_activity, error, tape_by_cost=False, reassociate=False,
                 checkpoint_loops=False, rerun_loops=False):
        self.norm, self.types, self.act = norm, types, act
        self.tape_by_cost = tape_by_cost
        self.checkpoint_loops = checkpoint_loops
        self.rerun_loops = rerun_loops
        self.reassociate = reassociate
        self.cost_taped: dict = {}          # id(loop) -> ids of statements its reverse sweep pops
        self.saved_per_loop: set = set()    # ids of loop-invariant statements saved once per loop
        self.varying_arrays: set = set()    # arrays of a length that varies per iteration of an enclosing taped loop
        self.cheap_redone: dict = {}        # id(statement list) -> names recompute_cheap recomputes
        self.param_activity = param_activity
        self.error = error
        self.rules = StatementRules(self)
        self.ancestors = {}
        self.lapack_copies = {}     # array -> (its copy, the LAPACK statement, scope): lapack_saves
        self.lapack_shared = {}     # (id(LAPACK statement), array) -> the name its save pops into: lapack_saves
        self.sites = defaultdict(list)
        for s, parents in iter_stmts(norm.body):
            self.ancestors[id(s)] = parents
            t = scalar_target(s)
            if t:
                self.sites[t].append(s)
            if isinstance(s, ast.For) and loop_is_prange(s) and any(loop_is_prange(p) for p in parents):
                # Numba runs a prange nested in another prange serially; so does the adjoint
                s.iter.func = name("range")
            if is_draw(s):
                self.check_draw(s)
            self.refuse_lapack_in_prange(s, parents)
            if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and t is not None \
                    and not is_lapack(s.value) and is_array(types.get(t)):
                raise error(s, f"array view `{ast.unparse(s.value)}` (part of an array bound to `{t}`)",
                            "index the elements directly (A[i, j]), or pass the whole array to a helper")
        self.adj_names: dict = {}
        self.needed: set = set()
        self.scopes: list = []              # every Scope, function scope first
        self.tape_dtypes = defaultdict(set)     # scope id -> dtypes
        self.pushed_names = defaultdict(set)    # scope id -> names pushed there
        self.plan_notes: list[str] = []
        self.primal_names = set(types) | set(norm.params)
        self._needed_cache: dict = {}

    def check_draw(self, s):
        """A random draw kept whole (``np.random.gamma(a, b)``, see :mod:`adtrans.normalise.draws`) has no
        pathwise derivative here: refuse an active parameter (normal and uniform are written with theirs)."""
        v = s.value
        spelled = getattr(v, "adtrans_args", None) or [ast.unparse(a) for a in v.args]
        for k, a in enumerate(v.args):
            if isinstance(a, ast.Name) and self.is_active(a.id):
                raise self.error(v, f"`{ast.unparse(v.func)}` of an active parameter (`{spelled[k]}`): its draws "
                                    f"have no pathwise derivative in adtrans",
                                 "pass constant parameters, or write the draw from a standard one with the "
                                 "parameter outside (`scale * np.random.standard_exponential()`, "
                                 "`mu + sigma * np.random.standard_normal()`)")

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

    def scalar_names(self) -> set:
        """The primal's scalars and their adjoints (for the clean-up passes)."""
        out = {x for x, t in self.types.items() if not is_array(t)}
        return out | {self.adj_names[x] for x in out if x in self.adj_names}

    def is_active(self, x: str) -> bool:
        return x in self.act.active

    def operand_ndims(self, product) -> tuple:
        """Numbers of dimensions of a BLAS product's operands (arguments, locals, global arrays)."""
        out = []
        for n in product_operands(product):
            ty = self.types.get(n)
            out.append(ty.ndim if ty is not None else self.norm.global_arrays[n].ndim)
        return tuple(out)

    def cast_of(self, x):
        ty = self.types.get(x)
        if ty is not None and is_array(ty):
            ty = ty.dtype
        return "np.float32" if str(ty) == "float32" else None

    def intrinsic_key(self, call):
        """The canonical intrinsic the normaliser tagged ``call`` with (None: not an intrinsic)."""
        return getattr(call, "adtrans_intrinsic", None) if isinstance(call, ast.Call) else None

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
        for n in iter_nodes(ast.Module(body=list(code), type_ignores=[])):
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
            for n in iter_nodes(s):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    self.needed.add(n.id)

    # ------------------------------------------------------------ analysis
    def adjacent(self, stmts, scope) -> list:
        """Forward then reverse statements of ``stmts`` (a scope's body), fusing the last loop
        whose reverse can run during the forward sweep."""
        if stmts and isinstance(stmts[-1], ast.If) and any(
                isinstance(n, (ast.For, ast.While)) for n in iter_nodes(stmts[-1])):
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
        before it) and the rest.  Arrays compare by root: ``out = result`` (a helper's returned
        array bound to a name) makes ``out[0]`` a read of what the loop writes into ``result``."""
        assigned = assigned_scalars(loop.body)
        assigned.add(loop.target.id)
        written = {self.root_array(a) for a in self.body_arrays(loop.body)[1]}
        early, late = [], []
        for s in s2:
            x = scalar_target(s)
            read = {self.root_array(a) for a in self.body_arrays([s])[0]}
            ok = (isinstance(s, ast.Assign) and x is not None and not makes_array(s)
                  and not (reads(s) & assigned) and not (read & written))
            if ok:
                early.append(s)
            else:
                late.append(s)
                # everything it assigns or stores into (also inside an if or loop) stays after the loop
                assigned |= {n.id for n in iter_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                written |= {self.root_array(a) for a in self.body_arrays([s])[1]}
        return early, late

    def try_fuse(self, s1, loop, s2, scope):
        """Fuse ``loop`` (forward and reverse per iteration, in the forward sweep) if its
        iterations are independent and the reverse of what follows it (``s2``) can run before
        it: that reverse must read nothing that ``loop`` or ``s2`` computes."""
        if not isinstance(loop, ast.For) or self.independent(loop) is not None:
            return None
        st = self.stencil(loop)
        if st is not None and st.spread:
            return None         # its reverse is a gather (transform/loops.py), not a fused scatter
        early, s2 = self.hoist(loop, s2)
        s1 = list(s1) + early
        if not loop_is_prange(loop) and not self.unique_stores(loop):
            return None
        if any(makes_array(s) for s, _ in iter_stmts(s2)):
            return None     # its shadow is allocated in the forward code of s2, after the loop
        saved_seen = set(scope.seen)
        f1, r1 = self.block(s1, scope, 0)
        f2, r2 = self.block(s2, scope, 0)
        if not self.can_run_first(r2, f2, loop):
            scope.seen = saved_seen
            return None
        # only values the reverse of s1 reads need restoring after the fused loop
        r1_reads = {n.id for st in r1 for n in iter_nodes(st) if isinstance(n, ast.Name)}
        saves, pops = self.compound_save(loop, scope, restrict=r1_reads)
        fused = self.fused_loop(loop, scope)
        self.need(r1)
        self.need(r2)
        return f1 + r2 + saves + fused + f2 + pops + r1

    def can_run_first(self, r2, f2, loop) -> bool:
        """Whether reverse code ``r2`` can run before ``loop`` and the forward code ``f2``."""
        module = ast.Module(body=list(r2), type_ignores=[])
        for n in iter_nodes(module):
            if isinstance(n, ast.stmt) and (is_marker(n, PUSH) or is_marker(n, POP)):
                return False
            if isinstance(n, ast.Name) and n.id.startswith("top") and isinstance(n.ctx, ast.Store):
                return False
        produced = assigned_scalars(loop.body)
        produced.add(loop.target.id)
        produced |= {n.id for st in f2 for n in iter_nodes(st) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store)}
        if any(upward_exposed(r2, x) for x in produced):
            return False
        _, written, _ = self.body_arrays(loop.body)
        _, written2, _ = self.body_arrays(f2)
        read_arrays = {self.root_array(n.value.id) for n in iter_nodes(module) if isinstance(n, ast.Subscript)
                       and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)}
        # a whole array read (``d_operand += seed * np.linalg.inv(operand).T``, slogdet's adjoint
        # of an operand the loop fills): not before the loop that computes it; its shape is known
        meta = {id(n.value) for n in iter_nodes(module) if isinstance(n, ast.Attribute)
                and n.attr in ("shape", "size", "ndim", "dtype")}
        sub = {id(n.value) for n in iter_nodes(module) if isinstance(n, ast.Subscript)}
        read_arrays |= {self.root_array(n.id) for n in iter_nodes(module) if isinstance(n, ast.Name)
                        and isinstance(n.ctx, ast.Load) and id(n) not in meta and id(n) not in sub}
        # by root: a name bound to the loop's array (``ret = result``) reads what the loop writes
        return not (read_arrays & {self.root_array(a) for a in written | written2})

    def block(self, stmts, scope, depth):
        fwd, revs = [], []
        for s in stmts:
            f, r = self.stmt(s, scope, depth)
            fwd += f
            revs.append(r)
        if depth > 0:
            self.cheap_redone[id(stmts)] = self.recompute_cheap(stmts, revs, scope)
        return fwd, [r for rs in reversed(revs) for r in rs]

    def recompute_cheap(self, stmts, revs, scope):
        """Cache or recompute by cost, the cheap side: inside a taped loop (``depth > 0``) a
        value ``x = e`` that costs at most one operation -- a load from an array the kernel never
        writes, or one arithmetic operation or comparison of names and constants -- is computed
        again at the start of the reverse of its last reader in ``stmts`` (``revs[k]``) instead
        of being pushed before it is overwritten and popped after its own reverse: that pair's
        restored value is then dead, and :func:`~adtrans.transform.restores.drop_dead_restores`
        removes it.  Sound when ``x`` is assigned only there and read only by the statements up
        to that reader, none of which assigns a name ``e`` reads: every name a reverse statement
        reads holds its forward value there (the tape's invariant), so ``e`` evaluates as it did
        in the forward sweep.  Returns the names recomputed, in order."""
        redone = {}
        for j, s in enumerate(stmts):
            x = scalar_target(s)
            if not isinstance(s, ast.Assign) or x is None or len(self.sites[x]) != 1 or not self._cheap(s.value):
                continue
            if is_array(self.types.get(x)) or x not in self.types:
                continue
            readers = [k for k in range(j + 1, len(stmts)) if x in _loads(stmts[k])]
            if not readers:
                continue
            k = readers[-1]
            uses = reads(s.value)
            if x in uses or uses & set(redone) or uses & _stores(stmts[j + 1:k + 1]):
                continue
            if self._read_outside(stmts[j:k + 1], x):
                continue            # read elsewhere: keep the tape
            if not any(x in _loads(r) for rs in revs[j + 1:k + 1] for r in rs):
                continue            # no reverse statement reads it: nothing to restore
            if scope.mode == "recompute":
                need = self.recompute_needed(scope.recompute_root)
                if not (uses | {x}) <= need:
                    continue        # a rerun would not compute what `e` reads
            again = self.rename(copy.deepcopy(s), scope)
            revs[k].insert(0, again)
            self.need([again])
            redone[x] = None
        return list(redone)

    def _cheap(self, value) -> bool:
        """At most one operation on names and constants, or a load (constant or name
        indices) from an array no statement of the kernel writes."""
        atom = lambda e: isinstance(e, (ast.Name, ast.Constant))
        if isinstance(value, ast.BinOp):
            return atom(value.left) and atom(value.right)
        if isinstance(value, ast.UnaryOp):
            return atom(value.operand)
        if isinstance(value, ast.Compare):
            return atom(value.left) and all(atom(c) for c in value.comparators)
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
            idx = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
            return all(atom(i) for i in idx) and self.root_array(value.value.id) not in self.written_arrays()
        return False

    def written_arrays(self) -> set:
        """Arrays (by alias root) that some statement of the kernel stores into (or rebinds to a LAPACK result)."""
        if "written" not in self._needed_cache:
            # a LAPACK result bound in a loop is another array each iteration: written, for this purpose
            self._needed_cache["written"] = {self.root_array(a) for s, _ in iter_stmts(self.norm.body)
                                             for a in [array_target(s) or rebound_by_lapack(s)] if a}
        return self._needed_cache["written"]

    def _read_outside(self, region, x) -> bool:
        """Whether a statement of the kernel outside ``region`` (and its nested statements) reads ``x``."""
        if "readers" not in self._needed_cache:
            readers = defaultdict(list)         # name -> ids of the statements reading it
            for t, _ in iter_stmts(self.norm.body):
                for y in (reads(t) if isinstance(t, (ast.For, ast.While, ast.If)) else _loads(t)):
                    readers[y].append(id(t))
            self._needed_cache["readers"] = readers
        inside = {id(t) for t, _ in iter_stmts(region)}
        return any(r not in inside for r in self._needed_cache["readers"].get(x, ()))

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
        if forward_only(s):
            return ([] if scope.mode == "recompute" else [copy.deepcopy(s)]), []
        return self.simple(s, scope, depth)

    def simple(self, s, scope, depth):
        fwd, rev = [], []
        x = scalar_target(s)
        primal = self.forward_copy(s, scope)
        if primal is None:          # recomputing: the side effect already happened
            rev = self.rules.reverse(s) + self.kill_adjoint(s, x, scope, depth)
            tag_reverse(rev, s)
            self.touch(rev, scope)
            return [], rev
        restore = None
        if x is not None:
            first = depth == 0 and x not in scope.seen and x not in scope.live_in
            scope.seen.add(x)
            # an outer accumulator updated in a fused iteration keeps its new value
            keeps = scope.fused and x in scope.live_in
            if not first and not keeps and id(s) not in self.saved_per_loop:
                restore = self.integer_inverse(s, x)
                if restore is None:
                    push, restore = save_restore(x, scope.tape_scope.id)
                    fwd.append(push)
        fwd.append(primal)
        if isinstance(s, ast.Assign) and x is not None:
            v = s.value
            if makes_array(s) and self.is_active(x):
                if is_product(v):       # shaped from the operands: the product itself may be dead
                    ndims = self.operand_ndims(v)
                    shape = ast.Call(func=ast.parse("np.zeros", mode="eval").body,
                                     args=[product_shape(v, ndims)], keywords=[])
                else:
                    shape = ast.Call(func=ast.parse("np.zeros_like", mode="eval").body, args=[name(x)], keywords=[])
                fwd.append(ast.Assign(targets=[name(self.adj(x), True)], value=shape))
            elif isinstance(v, ast.Name) and is_array(self.types.get(x)) and self.is_active(x) \
                    and self.adj(x) != self.adj(v.id):
                fwd.append(ast.Assign(targets=[name(self.adj(x), True)], value=name(self.adj(v.id))))
        rev = self.rules.reverse(s)
        if isinstance(s, ast.Assign) and is_lapack(s.value):
            saves, pops = self.lapack_saves(s, scope, depth, rev)
            fwd += saves
            rev = pops + rev
        rev += self.kill_adjoint(s, x, scope, depth)
        if makes_array(s) and self.is_active(x) \
                and (depth > 0 or len(self.sites[x]) > 1):
            rev.append(ast.Expr(value=ast.Call(func=ast.Attribute(value=name(self.adj(x)), attr="fill",
                                                                  ctx=ast.Load()), args=[ast.Constant(0)],
                                               keywords=[])))
        if restore is not None:
            rev.append(restore)
        tag_reverse(rev, s)
        self.touch(rev, scope)
        self.touch(fwd, scope)
        return fwd, rev

    def is_integer(self, x) -> bool:
        ty = self.types.get(x)
        return ty is not None and not is_array(ty) and scalar_dtype_name(ty).startswith(("int", "uint"))

    def integer_inverse(self, s, x):
        """``x -= c`` for an integer update ``x += c`` (``c`` an integer constant or name), and
        the converse: the reverse sweep undoes the step instead of restoring ``x`` from the
        tape (exact in integers; ``c`` holds its forward value there, like every name the
        reverse of ``s`` reads).  None for other statements."""
        if not (isinstance(s, ast.AugAssign) and isinstance(s.op, (ast.Add, ast.Sub)) and self.is_integer(x)):
            return None
        c = s.value
        ok = (isinstance(c, ast.Constant) and type(c.value) is int) or \
            (isinstance(c, ast.Name) and c.id != x and self.is_integer(c.id))
        if not ok:
            return None
        op = ast.Sub() if isinstance(s.op, ast.Add) else ast.Add()
        return ast.AugAssign(target=name(x, True), op=op, value=copy.deepcopy(c))

    def kill_adjoint(self, s, x, scope, depth) -> list:
        """``d_x = 0`` after the reverse of an assignment to scalar ``x``: the value before it
        gets no adjoint from uses after it (not needed when it is ``x``'s only assignment)."""
        if isinstance(s, ast.Assign) and x is not None and self.is_active(x) and not is_array(self.types.get(x)):
            single = depth == 0 and len(self.sites[x]) == 1 and x not in scope.live_in
            if not single:
                return [ast.Assign(targets=[name(self.adj(x), True)], value=self.zero(x))]
        return []

    def forward_copy(self, s, scope):
        """The primal statement as the current scope runs it (renamed/dropped when recomputing;
        dropped where the reverse iteration pops its value, see ``LoopStrategies.costly_values``;
        the engine's own trip counters are always kept)."""
        if id(s) in scope.popped:
            return None
        if scope.mode == "recompute" and not getattr(s, "adtrans_trip_counter", False):
            root = scope.recompute_root
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                x = s.target.id
                if x in self.live_in_of(root) and x not in (self.carried_scalars(root) or ()) \
                        and self.pure_accumulator(root.body, x):
                    return None         # outer accumulator: already holds its final value
                # otherwise the rerun resets `x` (`x = 0.0` in the body) or reads it (a test
                # `x > c` that ends a loop): it must be recomputed like any other value
            need = self.recompute_needed(root)
            arr, x = array_target(s), scalar_target(s)
            if arr is not None and arr not in need:
                return None             # nothing recomputed reads this array
            if x is not None and x not in need:
                return None             # the reverse statements do not use this value
        return self.rename(copy.deepcopy(s), scope)

    def rename(self, node, scope):
        if not scope.renames:
            return node
        for n in iter_nodes(node):
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
    def tape_vars(self, tape_scope, dt):
        tag = "" if tape_scope.parent is None else str(tape_scope.id)
        return f"tape{tag}_{dt}", f"top{tag}_{dt}"

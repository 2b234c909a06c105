"""The loop strategies (fused, recomputed, gather, last iteration, carried scalars, taped, checkpointed) and
how a loop is chosen for one.  See :mod:`adtrans.transform.builder` for the overview."""
from __future__ import annotations

import ast
import copy

from ..analyse.types import is_array, scalar_dtype_name
from ..analyse.loops import assigned_scalars, is_serial_range, loop_is_prange
from ..ir.markers import SCOPE_START, comment, marker, save_restore
from ..ir.affine import AffineMap
from ..ir.liveness import upward_exposed
from ..ir.walk import forward_only, is_alloc, iter_nodes, iter_stmts, reads, scalar_target
from ..rules.derivatives import COSTLY
from .scope import Scope
from ..ir.nodes import name




class LoopStrategies:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder`."""

    def plan(self, loop, scope):
        why = self.independent(loop)
        # gather: stencils whose reverse would scatter, and in-place updates (else taped)
        st = self.stencil(loop) if why is None or not loop_is_prange(loop) else None
        if st is not None and ((why is None and st.spread) or
                               (why is not None and st.in_place and self.independent_but_in_place(loop))):
            return "gather", None
        if why is None:
            return "recompute", None
        if loop_is_prange(loop):
            raise self.error(loop, f"prange loop whose iterations depend on each other ({why})",
                             "make each iteration independent, or use range()")
        if self.only_last_iteration_escapes(loop):
            return "last", why
        if self.carried_scalars(loop) is not None:
            return "carried", why
        return "taped", why

    def passive(self, L) -> bool:
        """A loop that writes no array and assigns only inactive scalars (a search for the
        position of a maximum): it has no adjoint."""
        _, written, _ = self.body_arrays(L.body)
        if written:
            return False
        for n in iter_nodes(ast.Module(body=list(L.body), type_ignores=[])):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and self.is_active(n.id):
                return False
        return not any(isinstance(n, ast.While) for n in iter_nodes(L))

    def loop(self, L, scope, depth):
        if isinstance(L, ast.For) and self.passive(L):
            saves, pops = self.compound_save(L, scope)
            scope.seen.add(L.target.id)
            note = comment("passive loop (no active value): no adjoint")
            return saves + [note, self.rename(copy.deepcopy(L), scope)], pops
        strategy, why = self.plan(L, scope)
        if strategy == "recompute":
            return self.recompute_loop(L, scope, depth)
        if strategy == "gather":
            return self.gather_loop(L, scope, depth, self.stencil(L))
        if strategy == "last":
            return self.recompute_loop(L, scope, depth, last_only=True)
        if strategy == "carried":
            return self.recompute_loop(L, scope, depth, carried=self.carried_scalars(L))
        return self.taped_loop(L, scope, depth, why)

    def compound_save(self, L, scope, only_header=False, restrict=None):
        # loop variables of independent loops are not live after them (see `independent`)
        names = {L.target.id} if isinstance(L, ast.For) and only_header else set()
        if not only_header:
            names |= assigned_scalars(L.body)
        if restrict is not None:
            names &= restrict
        saves, pops = [], []
        for x in sorted(names):
            if x in scope.seen or x in scope.live_in:
                push, pop = save_restore(x, scope.tape_scope.id)
                saves.append(push)
                pops.insert(0, pop)
            scope.seen.add(x)
        return saves, pops

    @staticmethod
    def range_parts(L):
        """(start, stop, step) of ``L``'s ``range``, as copies."""
        args = [copy.deepcopy(a) for a in L.iter.args]
        return (ast.Constant(0), args[0], ast.Constant(1)) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else ast.Constant(1))

    def reversed_iter(self, L):
        if loop_is_prange(L):
            return copy.deepcopy(L.iter)
        a, b, c = self.range_parts(L)
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

    def last_iter(self, L):
        """``range`` over just the last index of ``L``'s range (empty if ``L`` runs no iteration)."""
        a, b, c = self.range_parts(L)
        A, B, C = (ast.unparse(v) for v in (a, b, c))
        if isinstance(c, ast.Constant) and c.value == 1:
            src = f"range(max({A}, {B} - 1), {B})"
        else:
            src = f"range({A} + max(len(range({A}, {B}, {C})) - 1, 0) * ({C}), {B}, {C})"
        return ast.parse(src, mode="eval").body

    def loop_invariants(self, L) -> list:
        """Statements ``x = e`` of ``L``'s body (not nested) that give ``x`` the same value in
        every iteration: ``e`` reads no name the body assigns (nor the loop index) but the
        loop-invariant values before it, no array it stores into, calls nothing but
        intrinsics; ``x`` is a scalar assigned only there and not read in an iteration before
        it is assigned."""
        if not isinstance(L, ast.For):
            return []
        variant = assigned_scalars(L.body) | {L.target.id}
        written = {self.root_array(a) for a in self.body_arrays(L.body)[1]}
        out, found = [], set()
        for s in L.body:
            x = scalar_target(s)
            if not isinstance(s, ast.Assign) or x is None or is_alloc(s.value) or len(self.sites[x]) != 1:
                continue
            if x not in self.types or is_array(self.types.get(x)) or reads(s.value) & (variant - found):
                continue
            if any(isinstance(n, ast.Call) and self.intrinsic_key(n) is None for n in iter_nodes(s.value)):
                continue
            if {self.root_array(a) for a in self.body_arrays([s])[0]} & written or upward_exposed(L.body, x):
                continue
            out.append(s)
            found.add(x)
        return out

    def taped_loop(self, L, scope, depth, why):
        # arrays of a length that varies per iteration (a mask's positions, a compacting read):
        # each reverse iteration gets its own iteration's binding back (transform/varlen.py)
        # (an array allocated in a nested loop is served by both: each restores its own iterations')
        varying = set(self.rebound_arrays(L, self.varying_allocations(L), why))
        before = set(self.varying_arrays)
        self.varying_arrays |= varying
        try:
            return self._taped_loop(L, scope, depth, why, sorted(varying))
        finally:
            self.varying_arrays = before

    def _taped_loop(self, L, scope, depth, why, varying=()):
        saves, pops = self.compound_save(L, scope, only_header=True)
        # loop-invariant values: saved once around the loop, not before every iteration's
        # assignment (Enzyme's loop-invariant cache hoisting); each iteration assigns the same value
        invariant = self.loop_invariants(L)
        for s in invariant:
            push, pop = save_restore(s.targets[0].id, scope.tape_scope.id)
            saves.append(push)
            pops.insert(0, pop)
        ids = {id(s) for s in invariant} - self.saved_per_loop
        self.saved_per_loop |= ids
        f, r = self.block(L.body, scope, depth + 1)
        self.saved_per_loop -= ids
        redone = self.cheap_redone.pop(id(L.body), [])
        read_back = {n.id for st in r for n in iter_nodes(st) if isinstance(n, ast.Name)}
        once = [s.targets[0].id for s in invariant if s.targets[0].id not in redone and s.targets[0].id in read_back]
        choice = f"; saved once, not per iteration (loop-invariant): {', '.join(once)}" if once else ""
        if redone:
            choice += f"; recomputed in the reverse sweep, not taped (cheap): {', '.join(redone)}"
        note = comment(f"taped loop ({why}): the forward sweep records overwritten values{choice}")
        init, record, r = self.rebind_per_iteration(varying, scope, f, r)
        f = record + f
        saves += init
        state = self.checkpoint_state(L, scope, depth, f) if not init else None
        if state is not None:
            return self.checkpointed_loop(L, scope, f, r, saves, pops, state, why, choice)
        state = self.rerun_state(L, scope, depth, f) if not init else None
        if state is not None:
            return self.rerun_loop(L, scope, f, r, saves, pops, state, why, choice)
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
        # the engine's own statement, not the primal's: every sweep that runs the loop (also a
        # rerun inside a recomputed or carried-scalar loop) must start its count at 0
        init.adtrans_trip_counter = True
        fi, ri = self.simple(init, scope, depth)
        body = f + [ast.AugAssign(target=name(count, True), op=ast.Add(), value=ast.Constant(1))]
        fwd = saves + fi + [note, ast.While(test=copy.deepcopy(L.test), body=body, orelse=[])]
        rev = [ast.For(target=name(self.norm.alloc.fresh("_"), True),
                       iter=ast.Call(func=name("range"), args=[name(count)], keywords=[]),
                       body=r or [ast.Pass()], orelse=[])] + ri
        self.needed.add(count)
        return fwd, rev

    def checkpoint_state(self, L, scope, depth, f):
        """The arrays a checkpointed time loop saves at the start of a segment (sorted), or None
        where the loop is not checkpointed: only with ``self.checkpoint_loops``, see
        :meth:`time_loop_state`."""
        return self.time_loop_state(L, scope, depth, f) if self.checkpoint_loops else None

    def time_loop_state(self, L, scope, depth, f):
        """The arrays from which an iteration of the taped loop ``L`` can be rerun (sorted), or
        None: for a serial ``range`` loop at the function level whose forward sweep ``f`` copies
        arrays to the tape every iteration (what a rerun saves), that has no ``while`` loop
        inside, carries no scalar from one iteration to the next (nor out of the loop: each
        iteration is rerun from its saved arrays alone) and whose index is dead after it.  The
        state: every array the body reads that the body or a later statement writes, less the
        arrays private to an iteration (checkpointed loops, :mod:`~adtrans.transform.rerun`)."""
        if depth != 0 or not is_serial_range(L) or scope.tape_scope.prange_var:
            return None
        if not any(getattr(s, "adtrans_tape", (None,))[0] == "push_array" for s, _ in iter_stmts(f)):
            return None
        if any(isinstance(n, ast.While) for n in iter_nodes(L)) or self.live_after(L, L.target.id):
            return None
        for x in assigned_scalars(L.body) - {L.target.id}:
            if upward_exposed(L.body, x) or self.live_after(L, x):
                return None
        reads_, writes, _ = self.body_arrays(L.body)
        state = sorted((reads_ - self.private_arrays(L) - self.written_before_read(L))
                       & (writes | self.written_after(L, scope)))
        if any(not is_array(self.types.get(a)) or a in scope.renames for a in state):
            return None
        return state

    def checkpointed_loop(self, L, scope, f, r, saves, pops, state, why, choice):
        """A time loop checkpointed in segments of ``K = max(1, int(sqrt(trips)))`` iterations:
        the forward sweep runs the primal body, saving the ``state`` arrays on the tape before
        each segment; the reverse sweep, segment by segment from the last, restores them, reruns
        the segment's iterations with the taped loop's forward statements ``f`` (their copies go
        to the tape, popped again by ``r`` within the segment), then runs their reverse ``r`` in
        reverse order.  The tape holds ``trips / K`` saved states plus one segment's copies
        instead of every iteration's copies; the price is one more run of the primal body."""
        a, b, c = self.range_parts(L)
        alloc = self.norm.alloc
        trips, K, nseg, seg, lo, hi, j = (alloc.fresh(v) for v in ("trips", "seg_len", "segments", "seg",
                                                                   "seg_lo", "seg_hi", "j"))
        for v in (trips, K, nseg, seg, lo, hi, j):
            self.types[v] = self.types.get("<int>") or _int64()
            self.sites[v].append(None)
        A, B, C = (ast.unparse(v) for v in (a, b, c))
        unit = isinstance(c, ast.Constant) and c.value == 1
        zero = A == "0"
        count = (f"max({B}, 0)" if zero else f"max({B} - ({A}), 0)") if unit else f"len(range({A}, {B}, {C}))"
        head = ast.parse(f"{trips} = {count}\n"
                         f"{K} = max(1, int(math.sqrt({trips})))\n"
                         f"{nseg} = ({trips} + {K} - 1) // {K}").body
        ts = scope.tape_scope
        pushes, restores = [], []
        for x in state:
            push, pop = self.array_save(ts, x, x, "tape_restore_array")
            pushes.append(push)
            restores.insert(0, pop)
        i = L.target.id

        def steps(body, backwards):
            """The iterations ``lo <= j < hi`` of the segment (trip numbers) running ``body``."""
            if backwards:
                it = f"range({hi} - 1, {lo} - 1, -1)"
            else:
                it = f"range({lo}, {hi})"
            if unit:
                at = "" if zero else f"{A} + "
                it = f"range({at}{hi} - 1, {at}{lo} - 1, -1)" if backwards else f"range({at}{lo}, {at}{hi})"
                return ast.For(target=name(i, True), iter=ast.parse(it, mode="eval").body,
                               body=body or [ast.Pass()], orelse=[])
            at = ast.parse(f"{i} = {A} + {j} * ({C})").body[0]
            return ast.For(target=name(j, True), iter=ast.parse(it, mode="eval").body,
                           body=[at] + (body or [ast.Pass()]), orelse=[])
        bounds = ast.parse(f"{lo} = {seg} * {K}\n{hi} = min({lo} + {K}, {trips})").body
        primal = self.plain(L, scope)
        note = comment(f"checkpointed loop ({why}): the forward sweep runs the primal and saves only "
                       f"{', '.join(state)} before each segment of {K} = sqrt(trips) iterations; the reverse "
                       f"sweep, per segment from the last, restores that state, reruns the segment recording overwritten "
                       f"values, then reverses it{choice}")
        fwd_loop = ast.For(target=name(seg, True), iter=ast.parse(f"range({nseg})", mode="eval").body,
                           body=copy.deepcopy(bounds) + pushes + [steps(primal.body, False)], orelse=[])
        rev_loop = ast.For(target=name(seg, True), iter=ast.parse(f"range({nseg} - 1, -1, -1)", mode="eval").body,
                           body=copy.deepcopy(bounds) + restores + [steps(f, False), steps(r, True)], orelse=[])
        self.needed |= {trips, K, nseg}
        self.need(head)
        return saves + [note] + head + [fwd_loop], [rev_loop] + pops

    def snapshots(self, L, scope, depth, saves):
        """Copies of the arrays ``L`` reads (for its reverse) that it or a later statement
        overwrites: (forward statements: ``saves`` and the copies, reverse statements: the
        copies restored, renames to the copies, the names copied)."""
        reads_, writes, _ = self.body_arrays(L.body)
        local = self.private_arrays(L)
        reads_ &= self.recompute_needed(scope.recompute_root or L)
        # by alias root: `L = helper_B` reads the array that a later `helper_B[1, 0] = ...` overwrites
        written = {self.root_array(a) for a in writes | self.written_after(L, scope)}
        private = {self.root_array(a) for a in local}
        snap = sorted((reads_ - local) & (writes | self.written_after(L, scope)) |
                      {a for a in reads_ - local if self.root_array(a) in written - private})
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
                # a varying-length array has its iteration's binding here (transform/varlen.py)
                push, pop = self.array_save(scope.tape_scope, src, copy_name, "tape_pop_array", dtype_of=a)
                fwd.append(push)
                # popped in the reverse order of the pushes (the last array pushed is on top)
                # C order whatever the layout (a LAPACK result is Fortran-ordered): tape_pop_array
                # fills a C-contiguous array in the order tape_push_array wrote it
                ty = self.types[a]
                fresh = f"np.empty_like({src})" if getattr(ty, "layout", "C") == "C" else \
                    f"np.empty({src}.shape, dtype=np.{ty.dtype})"
                rev[:0] = [ast.parse(f"{copy_name} = {fresh}").body[0], pop]
        return fwd, rev, renames, snap

    def array_save(self, ts, src, into, pop_fn, dtype_of=None):
        """``(push, pop)``: the whole array ``src`` pushed on the tape of scope ``ts`` (its dtype's,
        ``dtype_of``'s array by default ``src``), and popped back into ``into`` by ``pop_fn``
        (``tape_pop_array``: C-contiguous; ``tape_restore_array``: any layout)."""
        dt = str(self.types[dtype_of or src].dtype)
        self.tape_dtypes[ts.id].add(dt)
        tape, top = self.tape_vars(ts, dt)
        push = ast.parse(f"{tape}, {top} = tape_push_array({tape}, {top}, {src})").body[0]
        push.adtrans_tape = ("push_array", tape, top, src)     # see transform/capacity.py
        pop = ast.parse(f"{top} = {pop_fn}({tape}, {top}, {into})").body[0]
        pop.adtrans_tape = ("pop", tape, top)
        return push, pop

    def costly_values(self, L, scope) -> list:
        """Statements of ``L``'s body (not nested) whose value the reverse sweep of a recomputed
        loop pops from the tape instead of computing it again: a float scalar assigned once, by
        a costly intrinsic (:data:`~adtrans.rules.derivatives.COSTLY`), that the reverse reads
        and the forward sweep computes here (cache or recompute by cost).  Not inside a
        ``prange`` iteration, whose per-thread tape starts small and would grow (allocate) in
        every iteration that pushes a loop's worth of values."""
        if not self.tape_by_cost or scope.tape_scope.prange_var is not None:
            return []
        out = []
        for s in L.body:
            x = scalar_target(s)
            if not (isinstance(s, ast.Assign) and x is not None and self.intrinsic_key(s.value) in COSTLY):
                continue
            ty = self.types.get(x)
            if ty is None or is_array(ty) or not scalar_dtype_name(ty).startswith("float") or len(self.sites[x]) != 1:
                continue
            if self.forward_copy(s, scope) is not None and x in self.recompute_needed(scope.recompute_root or L):
                out.append(s)
        return out

    def costly_reductions(self, L, scope) -> list:
        """``(init, loop, x)`` for the inner reductions of ``L``'s body whose result the reverse
        sweep pops instead of rerunning the reduction loop (cache or recompute by cost: a loop's
        worth of work against one store and one load): ``x = <constant>`` at the top level of the
        body, then a serial ``range`` loop that writes no array and updates ``x`` only by
        ``x += v``; ``x`` is a float that the reverse reads, assigned nowhere else; nothing after
        the loop reads the loop's other scalars; its iterations are independent (no scalar
        carried from one to the next, as ``kprev`` of a Runge-Kutta stage loop: the reverse of
        such a loop reads what the skipped rerun would save).  The reverse of the reduction
        itself reruns its own iterations, so it needs nothing from the skipped rerun.  Not inside a ``prange``
        iteration (see :meth:`costly_values`)."""
        if not self.tape_by_cost or scope.tape_scope.prange_var is not None:
            return []
        out = []
        need = self.recompute_needed(scope.recompute_root or L)
        for k, F in enumerate(L.body):
            if not (is_serial_range(F) and not self.body_arrays(F.body)[1]) or \
                    any(isinstance(n, ast.While) for n in ast.walk(F)) or self.independent(F) is not None:
                continue
            inner = {id(t) for t, _ in iter_stmts(F.body)}
            temps = assigned_scalars(F.body) | {F.target.id}
            accs = [x for x in sorted(temps - {F.target.id}) if x in need and self.pure_accumulator(F.body, x)]
            others = temps - set(accs)
            rest = L.body[:k] + L.body[k + 1:]
            if not accs or any(others & _loaded(t) for t in rest) or any(self.live_after(L, y) for y in others):
                continue
            for x in accs:
                ty = self.types.get(x)
                if ty is None or is_array(ty) or not scalar_dtype_name(ty).startswith("float"):
                    continue
                sites = self.sites[x]
                init = [t for t in sites if id(t) not in inner]
                if len(sites) != 2 or len(init) != 1 or not any(init[0] is t for t in L.body[:k]):
                    continue
                init = init[0]
                if isinstance(init, ast.Assign) and isinstance(init.value, ast.Constant) and \
                        self.forward_copy(init, scope) is not None:
                    out.append((init, F, x))
        return out

    def recompute_loop(self, L, scope, depth, last_only=False, carried=None):
        is_par = loop_is_prange(L)
        reads_, writes, _ = self.body_arrays(L.body)
        local = self.private_arrays(L)
        # pushes in the forward loop pop in the reverse one, mirrored: not with carried scalars
        # (popped at the top of an iteration) nor after arrays copied to the tape before it
        costly = [] if (is_par or last_only or carried is not None) else self.costly_values(L, scope)
        # inner reductions: also in carried-scalar loops (their values pop before the carried ones)
        reductions = [] if (is_par or last_only) else self.costly_reductions(L, scope)
        if (costly or reductions) and depth > 0 and sorted(
                (reads_ & self.recompute_needed(scope.recompute_root or L) - local)
                & (writes | self.written_after(L, scope))):
            costly, reductions = [], []
        if costly or reductions:
            self.cost_taped[id(L)] = {id(s) for s in costly} | {
                id(t) for init, F, x in reductions for t in [init] + [u for u, _ in iter_stmts(F.body)]
                if scalar_target(t) == x}
            self._needed_cache.pop(id(L), None)
        saves, pops = self.compound_save(L, scope)
        fwd, rev, renames, snap = self.snapshots(L, scope, depth, saves)
        live_in = self.live_in_of(L)
        if last_only or carried is not None:
            # scalars that outlive an iteration (carried to the next, or read after the loop):
            # their adjoints flow between iterations, so the enclosing scope owns them
            live_in = live_in | set(carried or ()) | {
                x for x in assigned_scalars(L.body) - {L.target.id} if self.live_after(L, x)}
        child = Scope(L, scope, live_in, mode="recompute",
                      prange_var=L.target.id if is_par else None,
                      recompute_root=scope.recompute_root or L, renames=renames)
        self.scopes.append(child)
        # costly values: pushed after their assignment in the forward loop, popped in reverse
        # order at the top of the reverse iteration (which then skips their assignment)
        after, popped = {}, []
        position = {id(t): k for k, t in enumerate(L.body)}
        taped = sorted([(position[id(s)], s, s.targets[0].id, [s]) for s in costly] +
                       [(position[id(F)], F, x, [init] + [u for u, _ in iter_stmts(F.body)])
                        for init, F, x in reductions], key=lambda e: e[0])
        for _, anchor, x, skipped in taped:
            push, pop = save_restore(x, scope.tape_scope.id)
            after.setdefault(id(anchor), []).append(push)
            popped.insert(0, pop)
            child.popped |= {id(t) for t in skipped}
        body = self.adjacent(L.body, child)
        # carried scalars: saved at the top of every forward iteration, restored at the top of
        # the same iteration in the reverse sweep, before it is rerun
        pairs = [save_restore(x, scope.tape_scope.id) for x in carried or ()]
        restores = [pop for _, pop in reversed(pairs)]
        loop = ast.For(target=copy.deepcopy(L.target), iter=self.last_iter(L) if last_only else self.reversed_iter(L),
                       body=[marker(SCOPE_START, child.id)] + popped + restores + body, orelse=[])
        child.loop_node = loop
        how = "in parallel" if is_par else "in reverse order"
        why = f"; arrays copied first: {', '.join(snap)}" if snap else ""
        if taped:
            names = [x if isinstance(a, ast.Assign) else f"{x} (a loop's sum)" for _, a, x, _ in taped]
            why += f"; taped, not recomputed (costly): {', '.join(names)}; the rest is recomputed (cheap)"

        if last_only:
            rev.append(comment("last-iteration loop: every iteration overwrites the values read after it "
                               "and nothing else escapes, so only the last one is rerun and reversed" + why))
        elif carried is not None:
            saved = f"saves only what one iteration hands the next ({', '.join(carried)})" if carried else \
                "saves nothing (no iteration reads what an earlier one assigned)"
            rev.append(comment(f"carried-scalar loop: the forward sweep {saved}; each iteration is rerun from "
                               f"it, then reversed, in reverse order{why}"))
        else:
            rev.append(comment(f"recomputed loop: each iteration reruns its forward statements, then its "
                               f"reverse, {how}{why}"))
        rev.append(loop)
        self.need([loop])
        primal = self.plain(L, scope, after)
        if pairs:
            primal.body = [push for push, _ in pairs] + primal.body
        fwd.append(primal)
        return fwd, rev + pops

    def gather_loop(self, L, scope, depth, st):
        """The reverse of a stencil nest (:meth:`~adtrans.analyse.loops.StencilAnalysis.stencil`)
        in gather form: for every element ``j`` of each active array read at offsets ``k``,
        ``d_in[j] += sum_k (adjoint of iteration j - k, restricted to its read at offset k)``,
        then ``d_out[v + a] = 0`` for every iteration.  Each iteration of the gather writes only
        its own ``d_in[j]`` (race-free under ``prange``, no atomics, vectorisable); the terms
        come from the statement rules of the body, rerun at iteration ``j - k``, each keeping
        the contribution of one read.  Per dimension the range of ``j`` is split into two
        guarded edges and a branch-free interior."""
        is_par = loop_is_prange(L)
        saves, pops = self.compound_save(L, scope)
        fwd, rev, renames, snap = self.snapshots(L, scope, depth, saves)
        child = Scope(L, scope, self.live_in_of(L), mode="recompute",
                      recompute_root=scope.recompute_root or L, renames=renames)
        self.scopes.append(child)
        f, r = self.block(st.body, child, 0)
        # the terms recompute values only: a rerun store would clobber what other terms read
        f = [s for s in f if not (isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript))]
        prelude = [self.rename(copy.deepcopy(s), child) for s in st.prelude]
        bounds = [(self.rename(copy.deepcopy(a), child), self.rename(copy.deepcopy(b), child)) for a, b in st.bounds]
        d_out = self.adj(st.out)
        kills = [s for s in r if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript)
                 and s.targets[0].value.id == d_out]
        # one array read at one offset (a copy, a shift): iteration j alone reads d_out at its
        # element, so it clears it there too; otherwise a loop clears d_out after the gathers
        # (an in-place update reads d_out at its own element only: its gather, the last one, clears it)
        single = (len(st.reads) == 1 and len(st.reads[0].offsets) == 1) or st.in_place
        gathers = []
        for k, rd in enumerate(st.reads):
            gathers += self.gather_array(st, rd, f, r, bounds, child, is_par, designated=k == 0,
                                         clear=single and k == len(st.reads) - 1)
        nonempty = ast.BoolOp(op=ast.And(), values=[ast.Compare(left=copy.deepcopy(a), ops=[ast.Lt()],
                                                                  comparators=[copy.deepcopy(b)]) for a, b in bounds])
        guard = ast.If(test=nonempty if len(bounds) > 1 else nonempty.values[0], body=gathers, orelse=[])
        kill = copy.deepcopy(kills[0])
        elts = [_plus(name(st.indices[d]), off) for d, off in st.store_index]
        kill.targets[0].slice = elts[0] if len(elts) == 1 else ast.Tuple(elts=elts, ctx=ast.Load())
        nest = [kill]
        for d in reversed(range(len(st.indices))):
            nest = [ast.For(target=name(st.indices[d], True), iter=self._range(bounds[d][0], bounds[d][1], is_par and d == 0),
                            body=nest, orelse=[])]
        why = f"; arrays copied first: {', '.join(snap)}" if snap else ""
        offsets = "; ".join(f"{self.adj(rd.array)} from offset{'s' if len(rd.offsets) > 1 else ''} " + ", ".join(
            str(k[0]) if len(k) == 1 else "(" + ", ".join(map(str, k)) + ")" for k in rd.offsets) for rd in st.reads)
        edges = any(len({k[d] for k in rd.offsets}) > 1 for rd in st.reads for d in range(len(st.indices)))
        note = comment("reverse sweep: gather form (stencil loop): each element collects the adjoints of "
                       f"the iterations that read it ({offsets})"
                       + ("; edges guarded, interior branch-free" if edges else "")
                       + ("; in parallel, race-free without atomics" if is_par else "")
                       + (f"; the last one clears the element of {d_out} it reads" if single and len(st.reads) > 1
                          else f"; each clears the element of {d_out} it reads" if single else
                          f"; then {d_out} is cleared where the loop stored") + why)
        code = prelude + [guard] + ([] if single else nest)
        self.need(code)
        rev += [note] + code
        fwd.append(self.plain(L, scope))
        return fwd, rev + pops

    @staticmethod
    def _range(a, b, par=False):
        return ast.Call(func=ast.parse("numba.prange" if par else "range", mode="eval").body,
                        args=[a, b], keywords=[])

    def gather_array(self, st, rd, f, r, bounds, child, is_par, designated, clear):
        """The gather loops adding into the shadow of ``rd.array`` (see :meth:`gather_loop`)."""
        D = len(st.indices)
        g = [self.norm.alloc.fresh(v + "_read") for v in st.indices]
        acc = self.norm.alloc.fresh(self.adj(rd.array) + "_sum")
        inverse = {v: k for k, v in self.adj_names.items()}
        mine = self.adj(rd.array)

        def term(k, scalars):
            binds = [ast.Assign(targets=[name(st.indices[d], True)], value=_plus(name(g[d]), -k[d]))
                     for d in range(D)]
            head = binds + copy.deepcopy(f)
            maps = [AffineMap(head, g[d]) for d in range(D)]
            body = []
            for s in r:
                t = s.targets[0] if isinstance(s, ast.Assign) else s.target
                if isinstance(t, ast.Subscript):
                    if clear and isinstance(s, ast.Assign) and t.value.id == self.adj(st.out):
                        body.append(copy.deepcopy(s))
                        continue
                    if not isinstance(s, ast.AugAssign) or t.value.id != mine:
                        continue        # the store's kill (after the gather) or another array's term
                    forms = maps[0].index_forms(t.slice) if D == 1 else \
                        [maps[rd.perm[p]].form(e) for p, e in enumerate(t.slice.elts)]
                    if all(fm == (1, 0) for fm in forms):
                        add = ast.AugAssign(target=name(acc, True), op=ast.Add(), value=copy.deepcopy(s.value))
                        tag_copy(add, s)
                        body.append(add)
                    continue
                if isinstance(t, ast.Name) and t.id in inverse and inverse[t.id] in child.live_in and not scalars:
                    continue            # an outer scalar's adjoint: summed once, by the first term
                body.append(copy.deepcopy(s))
            code = head + body
            used = sorted({n.id for n in iter_nodes(ast.Module(body=code, type_ignores=[])) if isinstance(n, ast.Name)
                           and n.id in inverse and not is_array(self.types.get(inverse[n.id]))
                           and inverse[n.id] not in child.live_in})
            return [ast.Assign(targets=[name(d, True)], value=self.zero(inverse[d])) for d in used] + code

        def leaf(guarded):
            body = [ast.Assign(targets=[name(acc, True)], value=self.zero_of_array(rd.array))]
            for n, k in enumerate(rd.offsets):
                code = term(k, designated and n == 0)
                conds = [ast.Compare(left=copy.deepcopy(bounds[d][0]), ops=[ast.LtE(), ast.Lt()],
                                     comparators=[_plus(name(g[d]), -k[d]), copy.deepcopy(bounds[d][1])])
                         for d in sorted(guarded)]
                if conds:
                    test = conds[0] if len(conds) == 1 else ast.BoolOp(op=ast.And(), values=conds)
                    body.append(ast.If(test=test, body=code, orelse=[]))
                else:
                    body += code
            idx = [name(g[rd.perm[p]]) for p in range(D)]
            body.append(self.shadow_add(rd.array, idx[0] if D == 1 else ast.Tuple(elts=idx, ctx=ast.Load()),
                                        name(acc)))
            return body

        def region(d, guarded):
            if d == D:
                return leaf(guarded)
            lo, hi = bounds[d]
            ks = [k[d] for k in rd.offsets]
            kmin, kmax = min(ks), max(ks)
            par = is_par and d == 0

            def loop(a, b, inner):
                return ast.For(target=name(g[d], True), iter=self._range(a, b, par), body=inner, orelse=[])
            if kmin == kmax:
                return [loop(_plus(lo, kmin), _plus(hi, kmin), region(d + 1, guarded))]
            if guarded:
                return [loop(_plus(lo, kmin), _plus(hi, kmax), region(d + 1, guarded | {d}))]
            a = _plus(lo, kmax)
            m = ast.Call(func=name("max"), args=[_plus(lo, kmax), _plus(hi, kmin)], keywords=[])
            # (an empty interior is range(a, b) with b < a; a bound of max(...) keeps LLVM from
            # vectorising the interior, so only the right edge starts at one)
            return [loop(_plus(lo, kmin), a, region(d + 1, {d})),
                    loop(copy.deepcopy(a), _plus(hi, kmin), region(d + 1, set())),
                    loop(m, _plus(hi, kmax), region(d + 1, {d}))]
        return region(0, set())

    def zero_of_array(self, a):
        """A zero of the element type of array ``a``."""
        cast = self.cast_of(a)
        return ast.Constant(0.0) if cast is None else ast.parse(f"{cast}(0)", mode="eval").body

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
        (``d_p_lanes[l] += ...``) and add the slots after the loop.  Not under fast-math
        reassociation (``self.reassociate``): LLVM then vectorises ``d_p += ...`` itself, with the
        partial sums in registers (per-lane slots would cost a load and a store per lane and
        value, and a sum of the slots after every run of the loop)."""
        args = loop.iter.args
        if self.reassociate:
            return [], []
        if len(args) != 1 or not isinstance(args[0], ast.Constant) or not 1 < args[0].value <= 1024:
            return [], []
        inverse = {v: k for k, v in self.adj_names.items()}
        targets = set()
        for n in iter_nodes(ast.Module(body=loop.body, type_ignores=[])):
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
            for n in iter_nodes(ast.Module(body=loop.body, type_ignores=[])):
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == d:
                    n.target = ast.Subscript(value=name(lanes), slice=name(i), ctx=ast.Store())
            k = self.norm.alloc.fresh("lane")
            post.append(ast.parse(f"for {k} in range({args[0].value}):\n    {d} += {lanes}[{k}]\n"
                                  f"    {lanes}[{k}] = 0").body[0])
        return pre, post

    def plain(self, L, scope, after=None):
        """The primal loop as the current scope runs it (no tape but the pushes in ``after``:
        id(statement) -> statements to run after its copy)."""
        after = after or {}
        recompute = scope.mode == "recompute"
        if not recompute and not scope.renames and not after:
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
                    out.extend(after.get(id(s), ()))
                elif forward_only(s):
                    if not recompute:
                        out.append(copy.deepcopy(s))
                else:
                    c = self.forward_copy(s, scope) if recompute else self.rename(copy.deepcopy(s), scope)
                    if c is not None:
                        out.append(c)
                        out.extend(after.get(id(s), ()))
            return out
        return walk([L])[0]


def _loaded(s) -> set:
    """Names ``s`` (nested statements included) reads."""
    return {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _int64():
    from numba.core import types
    return types.int64


def _plus(e, k):
    """``e + k`` for an integer constant ``k``, folded where ``e`` is a constant or ``x +/- c``."""
    e = copy.deepcopy(e)
    if k == 0:
        return e
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ast.Constant(e.value + k)
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)) and isinstance(e.right, ast.Constant) \
            and type(e.right.value) is int:
        c = e.right.value if isinstance(e.op, ast.Add) else -e.right.value
        return _plus(e.left, c + k)
    return ast.BinOp(left=e, op=ast.Add() if k > 0 else ast.Sub(), right=ast.Constant(abs(k)))


def tag_copy(new, old):
    """Carry the ``# adjoint of:`` tags of ``old`` over to ``new``."""
    for attr in ("adtrans_reverse_of", "adtrans_where"):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))

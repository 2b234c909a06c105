"""What the loop strategies need to know about a loop: which arrays it reads and writes,
which are private to an iteration, whether its iterations are independent, what is read
after it, and what its reverse statements need recomputed."""
from __future__ import annotations

import ast

from ..ir.walk import array_reads, array_target, is_alloc, iter_stmts, makes_array, reads, scalar_target
from ..ir.affine import AffineMap, unique_position
from ..ir.liveness import after_in_block, containing_block, definitely_assigns, upward_exposed


def loop_is_prange(loop) -> bool:
    return isinstance(loop, ast.For) and ast.unparse(loop.iter.func) == "numba.prange"


def is_serial_range(loop) -> bool:
    """``for i in range(...)`` (not ``prange``, not ``while``)."""
    return isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter.func) == "range"


def assigned_scalars(body) -> set:
    """Scalars assigned anywhere in ``body`` (loop variables of nested loops included)."""
    return {scalar_target(s) for s, _ in iter_stmts(body)} - {None}


class LoopAnalysis:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder` (uses its ``norm``,
    ``sites``, ``ancestors``, ``rules``, ``cost_taped`` and ``_needed_cache``)."""

    def live_in_of(self, loop) -> set:
        inside = {id(s) for s, _ in iter_stmts(loop.body)}
        out = set(self.norm.params)
        for x, sites in self.sites.items():
            if any(id(s) not in inside for s in sites):
                out.add(x)
        return out

    def body_arrays(self, body):
        """Arrays ``body`` reads, stores into and allocates (by the names it uses; a BLAS
        product ``P = A @ B`` reads all of ``A`` and ``B`` and makes ``P`` afresh)."""
        reads_, writes, allocs = set(), set(), set()
        for s, _ in iter_stmts(body):
            a = array_target(s)
            if a:
                writes.add(a)
            reads_ |= array_reads(s)
            if makes_array(s):
                allocs.add(s.targets[0].id)
        return reads_, writes, allocs

    def shared_arrays(self, loop) -> set:
        """Arrays (by root, through aliases ``y = x``) that ``loop`` both reads and writes and
        that are not private to an iteration."""
        r, w, _ = self.body_arrays(loop.body)
        private = self.private_arrays(loop)
        r = {self.root_array(a) for a in r - private}
        w = {self.root_array(a) for a in w - private}
        return r & w

    def scratch_arrays(self, loop) -> set:
        """Arrays allocated outside ``loop`` that each iteration overwrites completely before
        reading them and that nothing reads after the loop: private to the iteration, like
        arrays allocated in it.  "Completely" means a statement of the body, before any other
        touches the array, is ``for t in range(E): A[t] = ...`` for a 1-D ``A = np.empty(E)``
        (``E`` a constant, or a name with one assignment that ``loop`` does not change: the
        extent is the same at the allocation and in every iteration), or a serial loop for
        which the array is itself scratch (and no later statement of the body touches it)."""
        key = ("scratch", id(loop))
        if key in self._needed_cache:
            return self._needed_cache[key]
        sizes = self._scratch_sizes()
        variant = assigned_scalars(loop.body) | ({loop.target.id} if isinstance(loop, ast.For) else set())
        aliased = set(self.act.alias) | set(self.act.alias.values())
        out = set()
        touched = set()
        for k, s in enumerate(loop.body):
            r, w, _ = self.body_arrays([s])
            if is_serial_range(s) and len(s.iter.args) == 1:
                extent = ast.unparse(s.iter.args[0])
                for a in sorted(w - touched - r - aliased):
                    full = any(isinstance(t, ast.Assign) and array_target(t) == a and
                               isinstance(t.targets[0].slice, ast.Name) and t.targets[0].slice.id == s.target.id
                               for t in s.body)
                    if full and sizes.get(a) == [extent] and extent not in variant \
                            and not self.array_live_after(loop, a):
                        out.add(a)
                later = self.body_arrays(loop.body[k + 1:])
                for a in sorted(self.scratch_arrays(s) - touched - aliased):
                    if a not in later[0] | later[1] and not self.array_live_after(loop, a):
                        out.add(a)
            touched |= r | w
        self._needed_cache[key] = out
        return out

    def _scratch_sizes(self) -> dict:
        """Array name -> the extents (unparsed) of its 1-D allocations, for allocations whose
        extent is a constant or a name assigned at most once (a parameter or one statement)."""
        key = ("scratch sizes",)
        if key not in self._needed_cache:
            sizes = {}
            for s, _ in iter_stmts(self.norm.body):
                if isinstance(s, ast.Assign) and is_alloc(s.value) and len(s.value.args) == 1 and \
                        isinstance(s.targets[0], ast.Name):
                    e = s.value.args[0]
                    ok = (isinstance(e, ast.Constant) and type(e.value) is int) or \
                        (isinstance(e, ast.Name) and len(self.sites.get(e.id, ())) <= 1)
                    sizes.setdefault(s.targets[0].id, []).append(ast.unparse(e) if ok else None)
            self._needed_cache[key] = sizes
        return self._needed_cache[key]

    def array_live_after(self, loop, a) -> bool:
        """Whether array ``a`` may be read after ``loop`` (before it is allocated anew).  Reads
        inside ``loop`` itself do not count in an enclosing loop's next iteration: the caller
        knows every iteration of ``loop`` writes ``a`` before reading it."""
        inside = {id(s) for s, _ in iter_stmts(loop.body)}
        elem, chain = loop, self.ancestors[id(loop)]
        for parent in reversed((None,) + chain):
            block = containing_block(parent, elem, self.norm.body)
            if a in self.body_arrays(after_in_block(block, elem))[0]:
                return True
            if isinstance(parent, (ast.For, ast.While)):
                if a in self.body_arrays(parent.body)[2]:
                    return False        # allocated afresh in every iteration of `parent`
                outside = [s for s, _ in iter_stmts(parent.body) if id(s) not in inside
                           and not isinstance(s, (ast.For, ast.While, ast.If))]
                if a in self.body_arrays(outside)[0]:
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
        for x in sorted(assigned_scalars(body)):
            if self.pure_accumulator(body, x):
                continue
            if upward_exposed(body, x):
                return f"`{x}` carries a value from one iteration to the next"
            if self.live_after(loop, x):
                return f"`{x}` is used after the loop"
        if loop_is_prange(loop):
            return None
        if self.live_after(loop, i):
            return f"the loop index `{i}` is used after the loop"
        shared = self.shared_arrays(loop)
        if shared:
            return f"array `{sorted(shared)[0]}` is both read and written"
        return None

    def only_last_iteration_escapes(self, loop) -> bool:
        """Whether nothing but the last iteration of ``loop`` can affect what follows it.

        True for a ``range`` loop whose iterations carry no value to the next one, store
        into no array that outlives the iteration, accumulate into nothing, and assign
        every scalar that is read after the loop on every path through the body (a
        repeated evaluation whose last result is kept, like LULESH's EOS ``rep`` loop).
        The values of the earlier iterations are then dead: none of them reaches an
        output, so their adjoints are zero (activity analysis per iteration).
        """
        if not is_serial_range(loop):
            return False
        body = loop.body
        if self.live_after(loop, loop.target.id):
            return False
        _, writes, _ = self.body_arrays(body)
        if writes - self.private_arrays(loop):
            return False
        for x in sorted(assigned_scalars(body) - {loop.target.id}):
            if upward_exposed(body, x):
                return False
            if self.live_after(loop, x) and not definitely_assigns(body, x):
                return False
        return True

    def carried_scalars(self, loop) -> list | None:
        """The scalars ``loop`` carries from one iteration to the next (read in an iteration
        before it assigns them; pure ``+=`` accumulators excepted), when they are its only
        dependence: a ``range`` loop whose index is dead after it and that reads no array it
        also writes.  None for other loops."""
        if not is_serial_range(loop):
            return None
        key = ("carried", id(loop))
        if key in self._needed_cache:
            return self._needed_cache[key]
        body = loop.body
        out = None
        if not self.shared_arrays(loop) and not self.live_after(loop, loop.target.id):
            out = [x for x in sorted(assigned_scalars(body) - {loop.target.id})
                   if not self.pure_accumulator(body, x) and upward_exposed(body, x)]
        self._needed_cache[key] = out
        return out

    def pure_accumulator(self, body, x) -> bool:
        """``x`` is only updated by ``x += v`` in ``body`` and read nowhere else there: its
        adjoint is the same in every iteration, so it does not tie iterations together."""
        inside = {id(s) for s, _ in iter_stmts(body)}
        sites = [s for s in self.sites[x] if id(s) in inside]
        if not all(isinstance(s, ast.AugAssign) for s in sites):
            return False
        readers = [s for s, _ in iter_stmts(body) if x in reads(s) and s not in sites]
        return not readers and not any(x in reads(s.value) for s in sites)

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

    def recompute_needed(self, loop) -> set:
        """Names (scalars and arrays) whose values the reverse of ``loop``'s body uses:
        what its adjoint rules read, and everything those values are computed from."""
        key = id(loop)
        if key in self._needed_cache:
            return self._needed_cache[key]
        stmts = [s for s, _ in iter_stmts(loop.body)]
        taped = self.cost_taped.get(key, ())
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
                if t in need and id(s) not in taped:    # a value popped from the tape needs no operands
                    new = reads(s) - need
                    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and \
                            isinstance(s.value.value, ast.Name):
                        new |= {s.value.value.id} - need
                    if new:
                        need |= new
                        changed = True
        self._needed_cache[key] = need
        return need

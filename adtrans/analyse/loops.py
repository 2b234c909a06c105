"""What the loop strategies need to know about a loop: which arrays it reads and writes,
which are private to an iteration, whether its iterations are independent, what is read
after it, what its reverse statements need recomputed, and whether it is a stencil (whose
adjoint is a gather)."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .types import is_array
from ..ir.walk import (array_reads, array_target, dotted, is_alloc, is_lapack, iter_nodes, iter_stmts, makes_array, reads,
                       scalar_target)
from ..ir.affine import AffineMap, unique_position
from ..ir.liveness import (after_in_block, containing_block, definitely_assigns, fixed_after_in_block, fixed_code,
                           upward_exposed)


def loop_is_prange(loop) -> bool:
    return isinstance(loop, ast.For) and dotted(loop.iter.func) == "numba.prange"


def is_serial_range(loop) -> bool:
    """``for i in range(...)`` (not ``prange``, not ``while``)."""
    return isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and dotted(loop.iter.func) == "range"


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

    def written_before_read(self, loop) -> set:
        """Arrays whose every element an iteration of ``loop`` reads it has stored earlier in the
        same iteration (so their values before the iteration do not matter).  Proved per 1-D
        extent, by the body's statements in order: a store ``A[c] = v`` (``c`` a constant) or a
        unit-step loop ``for i in range(lo, hi)`` storing ``A[i + c] = v`` at the top of its body
        covers ``[lo + c, hi + c)``; each read ``x = A[i + c]`` in such a loop (or ``x = A[c]``)
        must lie in a chain of earlier covered ranges (bounds compared as ``name + constant``
        through names assigned once).  Any other use of ``A`` (``A[i] += v``, a read indexed
        otherwise, a whole-array use) keeps it out."""
        key = ("written before read", id(loop))
        if key in self._needed_cache:
            return self._needed_cache[key]
        cover, bad, seen = {}, set(), set()
        for s in loop.body:
            rd, wr = self._extents(s)
            for a, ext in rd:
                seen.add(a)
                if ext is None or not _chain_covers(cover.get(a, []), *ext):
                    bad.add(a)
            for a, ext in wr:
                cover.setdefault(a, []).append(ext)
        out = {a for a in cover if a not in bad}
        self._needed_cache[key] = out
        return out

    def _extents(self, s):
        """(reads, stores) of top-level body statement ``s``: ``(array, (lo, hi) or None)``."""
        rd, wr = [], []
        if isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and dotted(s.iter.func) in ("range", "numba.prange") \
                and len(s.iter.args) in (1, 2) and not s.iter.keywords:
            args = s.iter.args
            lo, hi = (_bound(self, ast.Constant(0)), _bound(self, args[0])) if len(args) == 1 else \
                (_bound(self, args[0]), _bound(self, args[1]))
            i = s.target.id
            top = {id(t) for t in s.body}
            inside = {id(t) for t, _ in iter_stmts(s.body)}
            for t, _ in iter_stmts(s.body):
                for a, idx, kind in _array_uses(t):
                    off = _offset(self, idx, i, inside) if idx is not None and lo is not None and hi is not None \
                        else None
                    ext = None if off is None else ((lo[0], lo[1] + off), (hi[0], hi[1] + off))
                    if kind == "store" and id(t) in top and ext is not None:
                        wr.append((a, ext))
                    elif kind != "store":
                        rd.append((a, ext))
            return rd, wr
        if isinstance(s, (ast.Assign, ast.AugAssign)):
            for a, idx, kind in _array_uses(s):
                c = idx.value if isinstance(idx, ast.Constant) and type(idx.value) is int else None
                ext = None if c is None else (("", c), ("", c + 1))
                (wr if kind == "store" and ext is not None else rd).append((a, ext))
            return rd, wr
        for t, _ in iter_stmts([s]):
            rd += [(a, None) for a, _, kind in _array_uses(t) if kind != "store"]
        return rd, wr

    def private_arrays(self, loop) -> set:
        return self.body_arrays(loop.body)[2] | (set() if loop_is_prange(loop) else self.scratch_arrays(loop))

    def live_after(self, loop, x) -> bool:
        """Whether the scalar ``x`` may be read after ``loop`` (before it is assigned again),
        or is a result.  Cached per loop and name: the normalised kernel does not change while
        its adjoint is built."""
        key = ("live after", id(loop), x)
        hit = self._needed_cache.get(key)
        if hit is None:
            with fixed_code():
                hit = self._needed_cache[key] = self._live_after(loop, x)
        return hit

    def _live_after(self, loop, x) -> bool:
        elem, chain = loop, self.ancestors[id(loop)]
        for parent in reversed((None,) + chain):
            block = containing_block(parent, elem, self.norm.body)
            if upward_exposed(fixed_after_in_block(block, elem), x):
                return True
            if isinstance(parent, (ast.For, ast.While)) and upward_exposed(parent.body, x):
                return True
            elem = parent
        return x in self.norm.results

    def independent_but_in_place(self, loop) -> bool:
        """Whether the iterations of stencil ``loop`` are independent but for the array it
        updates in place (each iteration reads and writes only its own element of it)."""
        return self.independent(loop, allow={self.root_array(self.stencil(loop).out)}) is None

    def independent(self, loop, allow=frozenset()) -> str | None:
        """Why the iterations of ``loop`` are not independent, or None if they are (arrays in
        ``allow`` may be both read and written).  Cached per loop (see :meth:`live_after`)."""
        key = ("independent", id(loop), frozenset(allow))
        if key not in self._needed_cache:
            with fixed_code():
                self._needed_cache[key] = self._independent(loop, allow)
        return self._needed_cache[key]

    def _independent(self, loop, allow) -> str | None:
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
        shared = self.shared_arrays(loop) - set(allow)
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
        # one memo of what each statement reads for all the names (not one per live_after: each
        # walks the rest of the kernel; a long kernel's EOS-like loop asks about hundreds)
        with fixed_code():
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
            with fixed_code():
                out = [x for x in sorted(assigned_scalars(body) - {loop.target.id})
                       if not self.pure_accumulator(body, x) and upward_exposed(body, x)]
        self._needed_cache[key] = out
        return out

    def pure_accumulator(self, body, x) -> bool:
        """``x`` is only updated by ``x += v`` in ``body`` and read nowhere else there: its
        adjoint is the same in every iteration, so it does not tie iterations together."""
        key = ("inside", id(body))     # the statements of body (asked per name of the body)
        hit = self._needed_cache.get(key)
        if hit is None or hit[0] is not body or hit[1] != len(body):
            hit = self._needed_cache[key] = (body, len(body), {id(s) for s, _ in iter_stmts(body)})
        inside = hit[2]
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
                a = array_target(s) or rebound_by_lapack(s)
                if a:
                    out.add(a)
            if isinstance(parent, (ast.For, ast.While)) and parent is not scope.root:
                for s, _ in iter_stmts(parent.body):
                    a = array_target(s) or rebound_by_lapack(s)
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
                    need |= {n.id for n in iter_nodes(r) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                # an active array allocated in the body: its shadow is made from the rerun allocation
                if isinstance(s, ast.Assign) and is_alloc(s.value) and isinstance(s.targets[0], ast.Name) \
                        and self.is_active(s.targets[0].id):
                    need.add(s.targets[0].id)
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


def rebound_by_lapack(s):
    """The array name a kept LAPACK statement binds afresh (``w = np.linalg.eigvalsh(M)``), else None:
    inside a loop every iteration rebinds it, so a loop reading the name's elements after an earlier
    iteration sees other values (counted as a write by :meth:`LoopAnalysis.written_after`)."""
    if makes_array(s) and is_lapack(s.value):
        return s.targets[0].id
    return None


def _array_uses(s):
    """``(array, index or None, kind)`` for the arrays simple statement ``s`` (not its body)
    uses: ``"store"`` for ``A[idx] = v``, ``"read"`` for ``x = A[idx]`` (index None: any other
    use of an array name, also ``A[idx] += v``).  Shapes (``A.shape``) are not uses."""
    out = []
    if isinstance(s, (ast.For, ast.While, ast.If)):
        nodes = [s.iter] if isinstance(s, ast.For) else [s.test]
    else:
        nodes = [s]
    skip = set()
    if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript) and isinstance(s.targets[0].value, ast.Name):
        out.append((s.targets[0].value.id, s.targets[0].slice, "store"))
        skip.add(id(s.targets[0].value))
    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and isinstance(s.value.value, ast.Name):
        out.append((s.value.value.id, s.value.slice, "read"))
        skip.add(id(s.value.value))
    for root in nodes:
        for n in iter_nodes(root):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                skip.add(id(n.value))
            if isinstance(n, ast.Name) and id(n) not in skip:
                out.append((n.id, None, "use"))
    return out


def _bound(an, e, depth=0):
    """``(name, constant)`` with ``e == name + constant`` (name ``""`` for a constant), through
    names assigned once; None where ``e`` is not of that form."""
    if depth > 8:
        return None
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ("", e.value)
    if isinstance(e, ast.Name):
        sites = an.sites.get(e.id, [])
        if len(sites) == 1 and isinstance(sites[0], ast.Assign) and isinstance(sites[0].targets[0], ast.Name):
            r = _bound(an, sites[0].value, depth + 1)
            if r is not None:
                return r
        return (e.id, 0) if len(sites) <= 1 else None
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
        a, b = _bound(an, e.left, depth + 1), _bound(an, e.right, depth + 1)
        if a is None or b is None:
            return None
        if b[0] == "":
            return (a[0], a[1] + b[1] if isinstance(e.op, ast.Add) else a[1] - b[1])
        if a[0] == "" and isinstance(e.op, ast.Add):
            return (b[0], a[1] + b[1])
        return None
    if isinstance(e, (ast.Attribute, ast.Subscript)) and not any(isinstance(n, ast.Call) for n in iter_nodes(e)):
        return (ast.unparse(e), 0)
    return None


def _offset(an, idx, i, inside, depth=0):
    """``c`` where index ``idx`` is ``i + c`` (through names assigned once, by a statement among
    ``inside``: the loop's own body, so the name holds this iteration's value), else None."""
    if depth > 8:
        return None
    if isinstance(idx, ast.Name):
        if idx.id == i:
            return 0
        sites = an.sites.get(idx.id, [])
        if len(sites) == 1 and id(sites[0]) in inside and isinstance(sites[0], ast.Assign) and \
                isinstance(sites[0].targets[0], ast.Name):
            return _offset(an, sites[0].value, i, inside, depth + 1)
        return None
    if isinstance(idx, ast.BinOp) and isinstance(idx.op, (ast.Add, ast.Sub)):
        if isinstance(idx.right, ast.Constant) and type(idx.right.value) is int:
            k = _offset(an, idx.left, i, inside, depth + 1)
            return None if k is None else k + (idx.right.value if isinstance(idx.op, ast.Add) else -idx.right.value)
        if isinstance(idx.op, ast.Add) and isinstance(idx.left, ast.Constant) and type(idx.left.value) is int:
            k = _offset(an, idx.right, i, inside, depth + 1)
            return None if k is None else k + idx.left.value
    return None


def _chain_covers(ranges, lo, hi) -> bool:
    """Whether ``[lo, hi)`` lies in the union of ``ranges`` for every value of the names: a chain
    of ranges, the first starting at or before ``lo``, each starting at or before the end of
    the one before, the last ending at or after ``hi`` (``(name, constant)`` bounds compare only
    with the same name)."""
    le = lambda a, b: a[0] == b[0] and a[1] <= b[1]
    cur, used = lo, set()
    for _ in range(len(ranges)):
        if le(hi, cur):
            return True
        nxt = [k for k, (a, b) in enumerate(ranges) if k not in used and le(a, cur)]
        if not nxt:
            return False
        k = nxt[0]
        used.add(k)
        cur = ranges[k][1]
    return le(hi, cur)


@dataclass
class StencilRead:
    """The reads of one active array in a stencil nest: ``perm[p]`` is the nest level whose
    index position ``p`` follows; ``offsets`` the distinct offset vectors (one entry per
    nest level, outermost first), sorted."""
    array: str
    perm: tuple
    offsets: list


@dataclass
class Stencil:
    """A loop nest whose innermost body stores ``out[v + a]`` once per iteration from reads
    ``in[v + k]`` (``v``: the nest's indices, ``a``/``k``: constant offset vectors) of arrays
    the nest does not write.  See :meth:`StencilAnalysis.stencil`."""
    loops: list                 # the perfect nest, outermost first
    indices: list               # their loop variables
    bounds: list                # (start, stop) expressions of each level (step 1)
    prelude: list               # loop-invariant scalar statements of the outer levels
    body: list                  # the innermost body (straight-line)
    out: str                    # the stored array (as the store spells it)
    store_index: list           # per index position of the store: (nest level, offset)
    reads: list                 # StencilRead per active array read, sorted by name
    outer_scalars: bool         # the body reads active scalars from outside the nest
    in_place: bool = False      # the body reads ``out`` at the stored element (last of ``reads``)

    @property
    def spread(self) -> bool:
        """Some array is read at more than one offset: the other strategies' reverse would
        scatter (several iterations add into one element)."""
        return any(len(r.offsets) > 1 for r in self.reads)


class StencilAnalysis:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder`: recognises stencil loops,
    whose adjoint can be written in gather form (see :mod:`adtrans.transform.loops`)."""

    def stencil(self, loop) -> Stencil | None:
        """The :class:`Stencil` fact of ``loop``, or None.

        A perfect nest of ``range`` loops (``prange`` at the outermost level) of step 1 whose
        bounds do not depend on the nest; each outer level holds only loop-invariant scalar
        assignments besides the next loop; the innermost body is straight-line code assigning
        every scalar once (and nowhere else), with exactly one array store ``out[idx] = v``
        and loads ``x = A[idx]``, where each index position of ``out`` and of every active
        ``A`` is ``v_d + constant`` for a distinct nest index ``v_d`` (``A[i + 1, j - 2]``);
        ``out`` is read only at the element being stored (an in-place update, FDTD; not
        Gauss-Seidel) and no other loaded active array is written.  Under ``prange`` the body must read no active scalar from outside (its
        adjoint would be a reduction)."""
        key = ("stencil", id(loop))
        if key not in self._needed_cache:
            self._needed_cache[key] = self._stencil(loop)
        return self._needed_cache[key]

    def _stencil(self, loop):
        loops, prelude = [], []
        L = loop
        while True:
            if not isinstance(L, ast.For) or not isinstance(L.iter, ast.Call) or \
                    ast.unparse(L.iter.func) not in ("range", "numba.prange") or L.orelse or \
                    not 1 <= len(L.iter.args) <= 3 or L.iter.keywords:
                return None
            if loops and loop_is_prange(L):
                return None
            if len(L.iter.args) == 3 and not (isinstance(L.iter.args[2], ast.Constant) and L.iter.args[2].value == 1):
                return None
            loops.append(L)
            inner = [s for s in L.body if isinstance(s, (ast.For, ast.While, ast.If))]
            if not inner:
                break
            if len(inner) != 1 or not isinstance(L.body[-1], ast.For):
                return None
            prelude.extend(L.body[:-1])
            L = L.body[-1]
        body = loops[-1].body
        indices = [l.target.id for l in loops]
        assigned = {}
        for s in body:
            if not isinstance(s, ast.Assign) or len(s.targets) != 1:
                return None
            t = scalar_target(s)
            if t is not None:
                if t in assigned or t in indices or is_array(self.types.get(t)):
                    return None     # (an array-level statement, a BLAS product, is no element update)
                assigned[t] = s
        inside = {id(s) for s in body}
        if any(id(site) not in inside for x in assigned for site in self.sites[x]):
            return None         # a name also assigned outside: its reverse would need a restore
        variant = set(indices) | set(assigned)
        for s in prelude:
            t = scalar_target(s)
            if not isinstance(s, ast.Assign) or t is None or self.is_active(t) or \
                    any(isinstance(n, (ast.Subscript, ast.Call)) for n in iter_nodes(s.value)) or reads(s) & variant:
                return None
        for l in loops:
            if reads(l.iter) & variant:
                return None
        bounds = [(ast.Constant(0), l.iter.args[0]) if len(l.iter.args) == 1 else tuple(l.iter.args[:2])
                  for l in loops]
        maps = {v: AffineMap(body, v) for v in indices}

        def positions(idx):
            """Per index position, (nest level, offset); None unless a bijection onto the nest."""
            elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
            if len(elts) != len(indices):
                return None
            out = []
            for e in elts:
                hits = [(d, f[1]) for d, v in enumerate(indices) for f in [maps[v].form(e)]
                        if f is not None and f[0] == 1]
                if len(hits) != 1:
                    return None
                out.append(hits[0])
            return out if len({d for d, _ in out}) == len(indices) else None

        stores = [s for s in body if isinstance(s.targets[0], ast.Subscript)]
        if len(stores) != 1 or not isinstance(stores[0].targets[0].value, ast.Name):
            return None
        store = stores[0]
        out = store.targets[0].value.id
        v = store.value
        if not (self.is_active(out) and isinstance(v, ast.Name) and v.id in assigned and self.is_active(v.id)):
            return None
        store_index = positions(store.targets[0].slice)
        if store_index is None:
            return None
        reads_by = {}
        for s in body:
            if isinstance(s.value, ast.Subscript):
                if not isinstance(s.value.value, ast.Name) or isinstance(s.targets[0], ast.Subscript):
                    return None
                arr = s.value.value.id
                pos = positions(s.value.slice) if self.is_active(arr) else None
                if self.root_array(arr) == self.root_array(out) and pos != store_index:
                    return None             # reads what it writes, elsewhere than where (Gauss-Seidel)
                if not self.is_active(arr):
                    continue
                if pos is None:
                    return None
                perm = tuple(d for d, _ in pos)
                offs = [0] * len(indices)
                for d, k in pos:
                    offs[d] = k
                r = reads_by.setdefault(self.root_array(arr), StencilRead(arr, perm, []))
                if r.perm != perm:
                    return None
                if tuple(offs) not in r.offsets:
                    r.offsets.append(tuple(offs))
            elif any(isinstance(n, ast.Subscript) for n in iter_nodes(s)) and s is not store:
                return None
            elif isinstance(s.value, ast.Call) and is_alloc(s.value):
                return None
        if not reads_by:
            return None
        outside = set().union(*(reads(s) for s in body)) - variant - {r.array for r in reads_by.values()} - {out}
        outer_scalars = any(self.is_active(x) and not is_array(self.types.get(x)) for x in outside)
        if outer_scalars and loop_is_prange(loop):
            return None
        for r in reads_by.values():
            r.offsets.sort()
        # the stored array's own read (in place) goes last: its gather rewrites the adjoints
        # of the stored elements, which the other arrays' gathers read
        own = self.root_array(out)
        return Stencil(loops, indices, bounds, prelude, body, out, store_index,
                       [reads_by[a] for a in sorted(reads_by, key=lambda a: (a == own, a))], outer_scalars,
                       own in reads_by)

"""The prange rule: keep the adjoint loop parallel and free of data races.

In the adjoint of a ``prange`` loop a read ``x[e]`` becomes an accumulation
``dx[e] += ...``.  Per shadow array, index analysis (:mod:`.affine`) decides:

- **plain update** when one index position is the same one-to-one affine
  function of the loop index in every access (``x[i]``, ``A[j, i]``,
  ``x[i - 1]`` if all accesses use ``i - 1``): no two iterations touch the
  same element;
- **per-thread buffers** otherwise (neighbour reads, gathers through index
  arrays, a table read by every iteration): thread 0 accumulates into the
  shadow itself, every other thread into its own zeroed copy (indexed by the
  thread id), and the copies are added after the loop.  One thread needs no
  copy at all; deterministic for a given thread count, no atomics.  On the CPU target
  with pools the copies come from the adjoint's scratch-pool arguments and are kept across
  calls: the sum after the loop zeroes each element as it adds it in, leaving the copies
  zeroed for the next call (no allocation, no zero fill, no first-touch page faults per call).
  Where the index is integer code the loop can rerun (:mod:`.injective`), a run-time test
  before the loop finds whether it is in fact one-to-one across iterations; then every thread
  adds into the shadow itself and the copies are neither touched nor summed.

Adjoints of scalars read by every iteration accumulate into a private partial
sum per iteration, added into one slot per thread (not Numba's reduction
inference, which fails on some loop shapes), and the slots after the loop.
"""
from __future__ import annotations

import ast

from ..analyse.types import scalar_dtype_name
from ..ir.affine import AffineMap, unique_position
from .injective import bind, index_slice, injectivity_check
from ..ir.markers import comment
from ..ir.nodes import name
from ..ir.walk import iter_nodes


def _shadow_accesses(body, shadow_names):
    out = {s: [] for s in shadow_names}
    kinds = {s: set() for s in shadow_names}
    for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript):
            t = node.target
            if isinstance(t.value, ast.Name) and t.value.id in out:
                out[t.value.id].append(t.slice)
                kinds[t.value.id].add("add")
                node.target.adtrans_seen = True
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in out \
                and not getattr(node, "adtrans_seen", False):
            out[node.value.id].append(node.slice)
            kinds[node.value.id].add("store" if isinstance(node.ctx, ast.Store) else "read")
    return out, kinds


# per-thread buffer sums of at most this many elements in all ((n_threads - 1) x size) run
# serially after the loop; larger ones as a parallel loop over rows
SERIAL_SUM_MAX = 1 << 17
# ranks of shadows whose per-thread sums are the runtime's scratch_sum_<n>d (larger ones inline)
SCRATCH_SUM_MAX_NDIM = 3


def _indent(code: str) -> str:
    return "\n".join("    " + ln for ln in code.splitlines())


_ALLOC = {"np.empty": False, "np.zeros": True}
_ALLOC_LIKE = {"np.empty_like": False, "np.zeros_like": True}


def _small_allocations(body) -> dict:
    """Top-level ``x = np.empty(K[, dtype])`` / ``np.zeros(K[, dtype])`` of a constant size and
    ``d_x = np.zeros_like(x)`` of those, each name allocated once: id(stmt) -> (name, size,
    dtype source, zero-filled)."""
    counts: dict = {}
    for st in body:
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
            counts[st.targets[0].id] = counts.get(st.targets[0].id, 0) + 1
    found, out = {}, {}
    for st in body:
        if not (isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call)):
            continue
        x, call = st.targets[0].id, st.value
        fn = ast.unparse(call.func)
        if counts.get(x) != 1 or call.keywords:
            continue
        if fn in _ALLOC and call.args and isinstance(call.args[0], ast.Constant) and \
                isinstance(call.args[0].value, int) and not isinstance(call.args[0].value, bool) and len(call.args) <= 2:
            dtype = ast.unparse(call.args[1]) if len(call.args) == 2 else "np.float64"
            found[x] = (call.args[0].value, dtype)
            out[id(st)] = (x, call.args[0].value, dtype, _ALLOC[fn])
        elif fn in _ALLOC_LIKE and len(call.args) == 1 and isinstance(call.args[0], ast.Name) and \
                call.args[0].id in found:
            size, dtype = found[call.args[0].id]
            found[x] = (size, dtype)
            out[id(st)] = (x, size, dtype, _ALLOC_LIKE[fn])
    return out


class PrangeRewriter:
    """The prange rewrite of the CPU lowering.  ``pools``: per-thread shadow copies come from the
    adjoint's scratch-pool arguments (kept zeroed across calls, see
    :mod:`adtrans.targets.cpu_runtime`; their dtypes are collected in ``scratch_dtypes``), each
    added in and zeroed after the loop; False keeps fresh zeroed copies summed whole (the plain form the tangent reads back)."""

    def __init__(self, builder, pools: bool = False):
        self.b = builder
        self.pools = pools
        self.scratch_dtypes: set = set()

    def per_thread_scratch(self, scope, thread, nthreads, pre, notes):
        """Scratch arrays of one iteration (adjoint lanes, the tape) are allocated once per
        thread before the loop and reused by every iteration the thread runs (they are left
        zeroed / empty by each iteration), instead of once per iteration."""
        b = self.b
        scope.hoisted = self.per_thread_arrays(scope.hoisted, _small_allocations(scope.hoisted), thread,
                                               nthreads, pre, refill=False)
        for dt in sorted(b.tape_dtypes.get(scope.id, ())):
            tape, _ = b.tape_vars(scope, dt)
            rows = b.norm.alloc.fresh(tape + "_per_thread")
            pre.append(ast.parse(f"{rows} = np.empty(({nthreads}, 64), np.{dt})").body[0])
            scope.tape_rows[dt] = f"{rows}[{thread}]"
        if scope.tape_rows:
            notes.append("tape: one per thread, reused by its iterations (grows privately past 64 entries)")

    def per_thread_arrays(self, body, small, thread, nthreads, pre, refill=True):
        """Fixed-size arrays an iteration allocates (``np.empty(32)``, their ``zeros_like``
        shadows: ``small``, see :func:`_small_allocations`) come from one row per thread
        instead of the allocator.  Zeroed allocations are zero-filled in every iteration, or,
        with ``refill=False`` (scratch every iteration leaves zeroed), once before the loop."""
        out = []
        for st in body:
            hit = small.get(id(st))
            if hit is None:
                out.append(st)
                continue
            x, size, dtype, zero = hit
            rows = self.b.norm.alloc.fresh(x + "_per_thread")
            make = "np.zeros" if zero and not refill else "np.empty"
            pre.append(ast.parse(f"{rows} = {make}(({nthreads}, {size}), {dtype})").body[0])
            out.append(ast.parse(f"{x} = {rows}[{thread}]").body[0])
            if zero and refill:
                out.append(ast.parse(f"{x}[:] = 0").body[0])
        return out

    def _inline_sum(self, d, buf, ndim, nthreads) -> str:
        """The sum of the per-thread copies ``buf`` into the shadow ``d`` as loops in the adjoint
        (ranks above :data:`SCRATCH_SUM_MAX_NDIM`): serial up to :data:`SERIAL_SUM_MAX` elements
        in all, parallel over rows above."""
        alloc = self.b.norm.alloc
        t = alloc.fresh("per_thread_slot")
        r = alloc.fresh("row")
        inner = [alloc.fresh("col") for _ in range(ndim - 1)]
        at = ", ".join([r] + inner)
        body_code = f"{d}[{at}] += {buf}[{t}, {at}]\n{buf}[{t}, {at}] = 0.0"
        for k in range(ndim - 1, 0, -1):
            body_code = f"for {inner[k - 1]} in range({d}.shape[{k}]):\n" + _indent(body_code)

        def nest(rows):
            return f"for {t} in range(max({nthreads} - 1, 0)):\n" + _indent(
                f"for {r} in {rows}({d}.shape[0]):\n" + _indent(body_code))
        return (f"if {d}.size * max({nthreads} - 1, 0) <= {SERIAL_SUM_MAX}:\n" + _indent(nest("range"))
                + "\nelse:\n" + _indent(nest("numba.prange")))

    def one_to_one(self, body, loop, d, ndim, nthreads, pre, checks, slices=None):
        """The name of a flag, set before the loop by a run-time test (:mod:`.injective`), that
        is True when no two iterations of ``loop`` update the same element of shadow ``d``
        (tested only with more than one thread; one test serves the shadows whose updates have
        the same index slice up to the names of its temporaries, ``checks``: slice -> (flag, the
        shadow it was tested on); a later shadow's flag also asks for equal extents); None where
        no test can be written.  ``slices``: a dict that keeps the loop's index slice
        (:func:`.injective.index_slice`, built on the first shadow) for the loop's other shadows."""
        if slices is None:
            slices = {}
        if "slice" not in slices:
            slices["slice"] = index_slice(body, loop, self.b.types)
        if slices["slice"] is None:
            return None
        found = injectivity_check(body, loop, d, ndim, self.b.types, self.b.norm.alloc, sl=slices["slice"])
        if found is None:
            return None
        key, stmts = found
        alloc = self.b.norm.alloc
        if key in checks:
            # the test ran on the first shadow's extents: it holds for this one where they agree
            first_ok, first = checks[key]
            ok = alloc.fresh("one_to_one")
            pre.append(ast.parse(f"{ok} = {first_ok} and {d}.shape == {first}.shape").body[0])
            return ok
        ok, owner = alloc.fresh("one_to_one"), alloc.fresh("owner")
        pre.append(ast.parse(f"{ok} = False").body[0])
        test = ast.parse(f"if {nthreads} > 1:\n    {owner} = np.full({d}.shape, -1, np.int64)\n"
                         f"    {ok} = True").body[0]
        test.body += bind(stmts, ok, owner)
        pre.append(test)
        checks[key] = (ok, d)
        return ok

    def rewrite(self, scope, loop: ast.For):
        """Return the statements replacing ``loop`` (buffers before, reductions after)."""
        b = self.b
        body = loop.body
        i = scope.prange_var
        _, _, local = b.body_arrays(scope.root.body)
        shadows = {}
        for arr, d in b.adj_names.items():
            if b.is_active(arr) and b.types.get(arr) is not None and hasattr(b.types[arr], "ndim") \
                    and arr not in local:
                shadows[d] = arr
        accesses, kinds = _shadow_accesses(body, set(shadows))
        amap = AffineMap(scope.root.body, i)
        primal_reads, _, _ = b.body_arrays(scope.root.body)
        # by root too: the body may read an array under an alias (`R = rodrigues(w)` inlined binds
        # R to the helper's result array, whose shadow is the result's)
        read_roots = {b.root_array(a) for a in primal_reads}
        pre, post, head, notes = [], [], [], []
        ids = []

        def thread_ids():
            """(thread id, thread count) names, defined first in the iteration / before the loop."""
            if not ids:
                ids[:] = [b.norm.alloc.fresh("thread"), b.norm.alloc.fresh("n_threads")]
                pre.insert(0, ast.parse(f"{ids[1]} = num_threads()").body[0])
                head.insert(0, ast.parse(f"{ids[0]} = thread_id()").body[0])
            return ids

        small = _small_allocations(body)
        if scope.hoisted or b.tape_dtypes.get(scope.id) or small:
            thread, nthreads = thread_ids()
            self.per_thread_scratch(scope, thread, nthreads, pre, notes)
            if small:
                body = self.per_thread_arrays(body, small, thread, nthreads, pre)
                notes.append("arrays of fixed size allocated per iteration come from one row per thread: "
                             + ", ".join(sorted(v[0] for v in small.values())))
        slots, tail, checks, slices = {}, [], {}, {}
        # the subscripts of each shadow in the body, found in one walk (each shadow's are
        # redirected to its per-thread copy below; redirecting one leaves the others' in place)
        subscripts: dict = {}
        for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in accesses:
                subscripts.setdefault(node.value.id, []).append(node)
        for d, idxs in sorted(accesses.items()):
            if not idxs:
                continue
            arr = shadows[d]
            pos = unique_position(idxs, amap)
            if pos is not None:
                notes.append(f"{d}: plain update, index position {pos} is one-to-one in {i}")
                continue
            if arr not in primal_reads and b.root_array(arr) not in read_roots:
                # the loop only stores into `arr`: a race-free primal stores each element from
                # one iteration, and the adjoint touches exactly those elements
                notes.append(f"{d}: plain update, the primal loop only stores into {arr}")
                continue
            if kinds[d] - {"add"}:
                raise b.error(scope.root, f"prange loop writes `{arr}` at an index that other iterations "
                                          f"may also use", "write each element from one iteration only")
            thread, nthreads = thread_ids()
            ndim = b.types[arr].ndim
            one_to_one = self.one_to_one(body, loop, d, ndim, nthreads, pre, checks, slices) if self.pools else None
            buf = b.norm.alloc.fresh(d + "_per_thread")
            here = b.norm.alloc.fresh(d + "_here")
            ours = f"{thread} == 0" + (f" or {one_to_one}" if one_to_one else "")
            head.append(ast.parse(f"{here} = {d} if {ours} else {buf}[{thread} - 1]").body[0])
            note = (f"{d}: per-thread buffers ({buf}), the index is not one-to-one in {i}: thread 0 "
                    f"adds into {d} itself, each other thread into its own copy")
            if self.pools:
                dt = scalar_dtype_name(b.types[arr].dtype)
                slot = slots.get(dt, 0)
                slots[dt] = slot + 1
                self.scratch_dtypes.add(dt)
                # np.int64(slot), not a literal: Numba would compile scratch_rows once per slot number
                pre.append(ast.parse(f"{buf} = scratch_rows(scratch_pool_{dt}, np.int64({slot}), "
                                     f"max({nthreads} - 1, 0), {d})").body[0])
                # a parallel region costs a launch and a barrier (on a loaded machine, milliseconds of
                # spinning): small sums run serially, large ones in parallel; same order of additions.
                # Up to 3-D, a runtime helper compiled once per machine (targets/cpu_runtime.py: each
                # prange loop is a kernel of its own for Numba to compile); above, the loops inline
                if ndim <= SCRATCH_SUM_MAX_NDIM:
                    code = f"scratch_sum_{ndim}d({d}, {buf})"
                else:
                    code = self._inline_sum(d, buf, ndim, nthreads)
                if one_to_one:
                    code = f"if not {one_to_one}:\n" + _indent(code)
                    note += (f", unless the run-time test before the loop ({one_to_one}) finds that no two "
                             f"iterations update one element of {d}: then every thread adds into {d}")
                post.append(ast.parse(code).body[0])
                notes.append(note + "; the copies come from the scratch pool (kept zeroed between calls: "
                             "the sum after the loop zeroes what it adds; serial up to "
                             f"{SERIAL_SUM_MAX} elements in all, parallel above)")
            else:
                t = b.norm.alloc.fresh("per_thread_slot")
                shape = ", ".join([f"max({nthreads} - 1, 0)"] + [f"{d}.shape[{k}]" for k in range(ndim)])
                pre.append(ast.parse(f"{buf} = np.zeros(({shape}), {d}.dtype)").body[0])
                # summed by loops, not `d += buf[t]`: Numba compiles an array expression's broadcasting
                # machinery (~0.2 s of the adjoint's first call); same order of additions
                ks = [b.norm.alloc.fresh("k") for _ in range(ndim)]
                loops = "".join(f"\n{'    ' * (j + 1)}for {k} in range({d}.shape[{j}]):" for j, k in enumerate(ks))
                at = ", ".join(ks)
                post.append(ast.parse(f"for {t} in range({nthreads} - 1):{loops}\n{'    ' * (ndim + 1)}"
                                      f"{d}[{at}] += {buf}[{t}, {at}]").body[0])
                notes.append(note + f"; memory (n_threads - 1) x {d}.size")
            for node in subscripts.get(d, ()):
                node.value = name(here)
        # scalar adjoints of values read by every iteration: private partial sums
        inverse = {v: k for k, v in b.adj_names.items()}
        written = set()
        for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id in inverse and inverse[node.target.id] in scope.live_in:
                written.add(node.target.id)
        mentions: dict = {}
        if written:
            for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
                if isinstance(node, ast.Name) and node.id in written:
                    mentions.setdefault(node.id, []).append(node)
        for d in sorted(written):
            x = inverse[d]
            part = b.norm.alloc.fresh(d + "_part")
            for node in mentions.get(d, ()):
                node.id = part
            thread, nthreads = thread_ids()
            sums = b.norm.alloc.fresh(d + "_per_thread")
            dt = scalar_dtype_name(b.types[x])
            pre.append(ast.parse(f"{sums} = np.zeros({nthreads}, np.{dt})").body[0])
            head.append(ast.Assign(targets=[name(part, True)], value=b.zero(x)))
            tail.append(ast.parse(f"{sums}[{thread}] += {part}").body[0])
            t = b.norm.alloc.fresh("per_thread_slot")
            post.append(ast.parse(f"for {t} in range({nthreads}):\n    {d} += {sums}[{t}]").body[0])
            notes.append(f"{d}: sum over iterations (private partial sum {part}, one slot per thread in {sums})")
        loop.body = head + body + tail
        return [comment("prange adjoint: " + n) for n in notes] + pre + [loop] + post

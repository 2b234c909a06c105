"""The prange rule: keep the adjoint loop parallel and free of data races.

In the adjoint of a ``prange`` loop a read ``x[e]`` becomes an accumulation
``dx[e] += ...``.  Per shadow array, index analysis (:mod:`.affine`) decides:

- **plain update** when one index position is the same one-to-one affine
  function of the loop index in every access (``x[i]``, ``A[j, i]``,
  ``x[i - 1]`` if all accesses use ``i - 1``): no two iterations touch the
  same element;
- **per-thread buffers** otherwise (neighbour reads, gathers through index
  arrays, a table read by every iteration): each thread accumulates into its
  own copy, indexed by ``numba.get_thread_id()``, and the copies are added
  after the loop.  Deterministic for a given thread count, no atomics.

Adjoints of scalars read by every iteration accumulate into a private partial
sum that is added once per iteration (Numba's reduction form ``s += v``).
"""
from __future__ import annotations

import ast
import copy

from .affine import AffineMap, unique_position
from .statements import name


def _shadow_accesses(body, shadow_names):
    out = {s: [] for s in shadow_names}
    kinds = {s: set() for s in shadow_names}
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
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


class PrangeRewriter:
    def __init__(self, builder):
        self.b = builder

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
        pre, post, head, notes = [], [], [], []
        thread = None
        for d, idxs in sorted(accesses.items()):
            if not idxs:
                continue
            arr = shadows[d]
            pos = unique_position(idxs, amap)
            if pos is not None:
                notes.append(f"{d}: plain update, index position {pos} is one-to-one in {i}")
                continue
            if arr not in primal_reads:
                # the loop only stores into `arr`: a race-free primal stores each element from
                # one iteration, and the adjoint touches exactly those elements
                notes.append(f"{d}: plain update, the primal loop only stores into {arr}")
                continue
            if kinds[d] - {"add"}:
                raise b.error(scope.root, f"prange loop writes `{arr}` at an index that other iterations "
                                          f"may also use", "write each element from one iteration only")
            if thread is None:
                thread = b.norm.alloc.fresh("thread")
                nthreads = b.norm.alloc.fresh("n_threads")
                pre.append(ast.parse(f"{nthreads} = num_threads()").body[0])
                head.append(ast.parse(f"{thread} = thread_id()").body[0])
            buf = b.norm.alloc.fresh(d + "_per_thread")
            ndim = b.types[arr].ndim
            shape = ", ".join([nthreads] + [f"{d}.shape[{k}]" for k in range(ndim)])
            pre.append(ast.parse(f"{buf} = np.zeros(({shape}), {d}.dtype)").body[0])
            t = b.norm.alloc.fresh("t")
            post.append(ast.parse(f"for {t} in range({nthreads}):\n    {d} += {buf}[{t}]").body[0])
            notes.append(f"{d}: per-thread buffers ({buf}), the index is not one-to-one in {i}; "
                         f"memory {ndim + 1}-D, n_threads x {d}.size")
            for node in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == d:
                    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                    node.value = name(buf)
                    node.slice = ast.Tuple(elts=[name(thread)] + [copy.deepcopy(e) for e in elts], ctx=ast.Load())
        # scalar adjoints of values read by every iteration: private partial sums
        inverse = {v: k for k, v in b.adj_names.items()}
        written = set()
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id in inverse and inverse[node.target.id] in scope.live_in:
                written.add(node.target.id)
        tail = []
        for d in sorted(written):
            x = inverse[d]
            part = b.norm.alloc.fresh(d + "_part")
            for node in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(node, ast.Name) and node.id == d:
                    node.id = part
            head.append(ast.Assign(targets=[name(part, True)], value=b.zero(x)))
            tail.append(ast.AugAssign(target=name(d, True), op=ast.Add(), value=name(part)))
            notes.append(f"{d}: reduction over iterations (private partial sum {part})")
        loop.body = head + body + tail
        from .markers import comment
        return [comment("prange adjoint: " + n) for n in notes] + pre + [loop] + post

"""Arrays whose length changes from iteration to iteration of a taped loop (issue 13).

A boolean mask's positions (``np.flatnonzero(u > thr)``, ``np.nonzero(c)[0]``, ``u[m]``) and a
compacting read (``v = u[u > 0.0]``) are lowered by the normaliser to a count, then
``x = np.empty(count)`` and a loop filling it.  Inside a taped loop the reverse sweep of
iteration ``t`` needs ``x`` as iteration ``t`` bound it: its length (the tape pops of its
snapshots are ``x.size`` long, its shadow ``d_x`` is indexed up to it) and, where the reverse
reads its elements directly, its contents.  The forward sweep leaves only the last iteration's
binding.

Tape layout (variable-length records on the ordinary typed stacks): at the *start* of every
forward iteration the binding the previous iteration left (length 0 before the first: the
array is bound to ``np.empty(0)`` before the loop) is recorded, its elements first (flat, on
the tape of its dtype, only where the reverse reads them) and then its length (one int64
entry).  At the *end* of every reverse iteration, after the body's own pops, the length is
popped, ``x`` is allocated at that length and its elements popped into it, and its shadow is
bound to ``np.zeros(length)``: the next reverse iteration (the previous forward one) starts
with the binding and a zero shadow it had at its end.  The first reverse iteration (the
forward's last) starts with the forward's final binding, so adjoints that statements after
the loop added into ``d_x`` are kept.  Integer and boolean contents (mask positions) are
constants of the primal: they are recorded, never differentiated.

Served: an array allocated once in the kernel, in the taped loop's body (also under an ``if``:
the binding recorded is whatever the iteration ends with), not read in an iteration before that
allocation, C-contiguous (an n-D one records one length per axis), not inside a prange body;
one allocated in a nested loop and read only there is left to that loop (a nested taped loop rebinds it itself, a rerun allocates it again), and the
enclosing loop records the binding each of its iterations ends with too.  Other varying
arrays stay refused with :data:`FIXED_SHAPE_HINT`.
"""
from __future__ import annotations

import ast

from numba.core import types as nbtypes

from ..analyse.loops import loop_is_prange
from ..analyse.types import is_array
from ..ir.liveness import upward_exposed
from ..ir.markers import comment, save_restore
from ..ir.walk import all_names, is_alloc, iter_nodes, iter_stmts, reads

# NumPy calls whose result's length depends on the values of their arguments
DATA_SHAPED_CALLS = frozenset({"flatnonzero", "nonzero", "argwhere", "unique", "extract"})
FIXED_SHAPE_HINT = ("keep the shape fixed: np.where(mask, x, 0.0) instead of x[mask], or loop over the "
                    "elements with `if mask[i]:`")
# whole-array uses of an array that read only its shape
_SHAPE_ONLY = frozenset({"np.empty_like", "np.zeros_like", "np.ones_like", "tape_view"})


def _np_dtype(dt) -> str:
    s = str(dt)
    return "np.bool_" if s == "bool" else f"np.{s}"


def reads_elements(stmts, x) -> bool:
    """Whether ``stmts`` may read the elements of array ``x``: anything but ``x.shape``,
    ``x.size``, the shape-only calls (``np.empty_like(x)``) and stores ``x[i] = v``."""
    shape_only = set()
    for n in iter_nodes(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr in ("shape", "size", "ndim"):
            shape_only.add(id(n.value))
        if isinstance(n, ast.Call) and ast.unparse(n.func) in _SHAPE_ONLY:
            f = ast.unparse(n.func)
            shape_only |= {id(a) for a in (n.args[2:3] if f == "tape_view" else n.args[:1])}
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name):
            shape_only.add(id(n.value))         # a store (a rerun filling it) needs only its length
    return any(isinstance(n, ast.Name) and n.id == x and isinstance(n.ctx, ast.Load) and id(n) not in shape_only
               for n in iter_nodes(ast.Module(body=list(stmts), type_ignores=[])))


def _fills(s, x) -> bool:
    """Whether statement ``s`` is ``x.fill(0)``."""
    v = s.value if isinstance(s, ast.Expr) else None
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "fill" \
        and isinstance(v.func.value, ast.Name) and v.func.value.id == x


class VaryingLengths:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder` (see the module docstring)."""

    def varying_allocations(self, L) -> dict:
        """Array -> its allocating statement, for the arrays ``L``'s body allocates (or gets
        from a data-shaped call) with a length that changes from iteration to iteration."""
        # a length counted in the body (``count += 1`` over the mask) changes from iteration to
        # iteration, and so do the arrays allocated with it and the lengths read from those
        variant = {a.target.id for a, _ in iter_stmts(L.body)
                   if isinstance(a, ast.AugAssign) and isinstance(a.target, ast.Name)}
        # and so does a length computed from the loop's index (``Q[:n - r] = ...`` in
        # ``for r in range(1, n)``: the right side's temporary is ``n - r`` long)
        if isinstance(L, ast.For) and isinstance(L.target, ast.Name):
            variant.add(L.target.id)
        varying = {}
        for a, _ in iter_stmts(L.body):     # index arrays whose length is the data's (np.flatnonzero(m))
            if isinstance(a, ast.Assign) and isinstance(a.targets[0], ast.Name) and isinstance(a.value, ast.Call) \
                    and ast.unparse(a.value.func).split(".")[-1] in DATA_SHAPED_CALLS:
                variant.add(a.targets[0].id)
                varying[a.targets[0].id] = a
        for s, _ in iter_stmts(L.body):
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and reads(s.value) & variant:
                x = s.targets[0].id
                if is_alloc(s.value) and s.value.args and reads(s.value.args[0]) & variant or \
                        not is_array(self.types.get(x)):
                    variant.add(x)
                if is_alloc(s.value) and is_array(self.types.get(x)):
                    varying[x] = s
        return varying

    def rebound_arrays(self, L, varying: dict, why) -> list:
        """The varying arrays of taped loop ``L`` (sorted), each checked to be one the reverse
        sweep can rebind per iteration; others are refused at their allocation."""
        aliased = {a for a in self.act.alias if a not in varying}
        out = []
        for x, s in sorted(varying.items()):
            ty = self.types.get(x)
            chain = list(self.ancestors[id(s)])
            at = [id(p) for p in chain].index(id(L))
            inner = [p for p in chain[at + 1:] if isinstance(p, (ast.For, ast.While))]
            problem = None
            if inner:
                # allocated in a nested loop: that loop serves it (taped: here again; rerun: allocated
                # again), and this one records the binding each of its iterations ends with: the
                # nested loop's reverse leaves the binding it had before its first iteration
                if not any(x in all_names(t) for t in L.body if t is not inner[0]):
                    out.append(x)
                    continue
                problem = "allocated inside a nested loop and read outside it"
            elif len(self.sites[x]) != 1:
                problem = "bound more than once in the kernel"
            elif upward_exposed(L.body, x):
                problem = "read in an iteration before it is allocated (carried to the next iteration)"
            elif ty.layout != "C":
                problem = "not C-contiguous" if ty.ndim == 1 else f"{ty.ndim}-dimensional and not C-contiguous"
            elif any(self.root_array(a) == x for a in aliased):
                problem = "bound to a second name"
            elif any(isinstance(p, ast.For) and loop_is_prange(p) for p in chain[:at]):
                # the reverse sweep rebinds it per iteration, which Numba's parallel lowering does not
                # keep apart per thread: wrong gradients (tests/test_redteam16.py prange_shrinking,
                # prange_shrinking_2d, prange_mask_literal)
                problem = "inside a prange body (its per-iteration rebinding in the reverse sweep is not thread-safe)"
            if problem is not None:
                raise self.error(s, f"an array whose length changes from iteration to iteration inside a taped "
                                    f"loop ({why}): `{x}` is {problem}", FIXED_SHAPE_HINT)
            out.append(x)
        return out

    def rebind_per_iteration(self, arrays, scope, f, r):
        """``(init, push, r)``: statements binding each array of ``arrays`` before the loop,
        recording its binding at the start of a forward iteration, and the reverse body ``r``
        restoring it (and a zero shadow, which replaces the shadow's ``fill(0)``) at the end of
        a reverse iteration; only for the arrays ``r`` names (itself or its shadow)."""
        init, push, pop = [], [], []
        ts = scope.tape_scope
        for x in arrays:
            used = {n.id for n in iter_nodes(ast.Module(body=list(r), type_ignores=[])) if isinstance(n, ast.Name)}
            shadow = self.adj(x) if self.is_active(x) else None
            if x not in used and shadow not in used:
                continue
            dt = _np_dtype(self.types[x].dtype)
            ndim = self.types[x].ndim
            # one length per axis (an n-D temporary `(1 - t) * Q[:n - r] + ...` of a 2-D Q)
            ns = [self.norm.alloc.fresh(x + "_len") for _ in range(ndim)]
            for n in ns:
                self.types[n] = self.types.get("<int>") or nbtypes.int64
                self.sites[n].append(None)
                self.needed.add(n)
            empty = "0" if ndim == 1 else "(" + ", ".join(["0"] * ndim) + ")"
            shape = ns[0] if ndim == 1 else "(" + ", ".join(ns) + ")"
            init.append(ast.parse(f"{x} = np.empty({empty}, dtype={dt})").body[0])
            saves = [save_restore(n, ts.id) for n in ns]
            rec = []
            back = [q for _, q in reversed(saves)] + [ast.parse(f"{x} = np.empty({shape}, dtype={dt})").body[0]]
            if reads_elements(r, x):
                p, q = self.array_save(ts, x, x, "tape_pop_array")
                rec.append(p)
                back.append(q)
            for k, (n, (save, _)) in enumerate(zip(ns, saves)):
                rec += [ast.parse(f"{n} = {x}.shape[{k}]").body[0], save]
            if shadow is not None:
                # bound before the loop too: a name bound only under a branch of a prange body
                # would look shared to Numba's parfor pass
                init.append(ast.parse(f"{shadow} = np.zeros({empty}, dtype={dt})").body[0])
                back.append(ast.parse(f"{shadow} = np.zeros({shape}, dtype={dt})").body[0])
                r = [s for s in r if not _fills(s, shadow)]
            push += rec
            pop[:0] = back
        if push:
            names = ", ".join(x for x in arrays if any(x == getattr(t, "id", None) for st in init for t in st.targets))
            push.insert(0, comment(f"record the binding of {names} (length varies per iteration) for the reverse sweep"))
            pop.insert(0, comment(f"the previous iteration's binding of {names} back (lengths from the tape, shadows zero)"))
        return init, push, r + pop

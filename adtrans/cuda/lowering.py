"""The CUDA lowering: the marked adjoint IR (:mod:`adtrans.transform`) as a ``@cuda.jit`` kernel.

Lowers the markers itself (the scope prologues, shared with the CPU target,
:class:`~adtrans.transform.lowering.MarkerLowering`; tape pushes and pops as
below), then:

1. **Primal atomics** (``arr[idx] += v`` marked ``adtrans_atomic``) become
   ``cuda.atomic.add(arr, idx, v)`` again in the forward sweep; their adjoint,
   made by the builder, reads the shadow (``dv += d_arr[idx]``).
2. **Shadow accumulations** ``d_x[idx] += g``:
   - global arrays (arguments, module arrays): a plain update when the shadow's
     index is provably unique per thread: at one index position every access
     has the same one-to-one affine form in the thread's grid coordinate
     (``cuda.grid(1)``, or ``threadIdx.x + blockIdx.x * blockDim.x``; with
     ``cuda.grid(2)`` one position per coordinate), analysed with
     :mod:`adtrans.ir.affine`.  Otherwise ``cuda.atomic.add``;
   - shared-memory arrays: the shadow is a ``cuda.shared.array`` of the same
     shape and dtype, zeroed by the block at kernel start followed by
     ``cuda.syncthreads()``, and accumulated with ``cuda.atomic.add``;
   - local arrays: a zeroed ``cuda.local.array`` shadow, plain updates.
3. **Tapes** become per-thread ``cuda.local.array`` stacks, one per dtype (GPU
   tapes cannot grow).  Their size is a bound of all pushes: pushes outside
   loops count once, loops with constant trip counts multiply, and a halving
   loop (``while s > 0: ...; s //= 2``, the block tree reduction) runs at most
   :data:`HALVING_TRIPS` times.  A tape in any other loop (trip count from
   runtime data) raises :class:`~adtrans.errors.UnsupportedError` at generation
   time unless a capacity is given (``tape_capacity=N`` values per thread and
   dtype, or ``$ADTRANS_CUDA_TAPE_CAPACITY``): then pushes beyond it are
   dropped, pops beyond it give NaN/0/False, and the thread adds NaN to
   element 0 of every shadow argument, so an overflow shows as a NaN gradient,
   never as a silently wrong one or a stray memory access.
4. **Copies of shared and local arrays** that a recomputed loop re-reads after a later
   overwrite (shared-memory tiling: the tile is refilled by the next iteration) are
   per-thread ``cuda.local.array`` copies, saved on the tape when the loop is nested in
   a taped one (the tape grows by the array's size per save).  Such copies of *global*
   arrays would be whole-array copies per thread and raise
   :class:`~adtrans.errors.UnsupportedError`.
5. **Scratch arrays of the engine** (``d_s_lanes = np.zeros(6, np.float64)``: one adjoint slot
   per iteration of a short fused loop) become zeroed per-thread ``cuda.local.array``s.
6. The trailing ``return`` goes (kernels return nothing).
"""
from __future__ import annotations

import ast
import copy
import os
from collections import defaultdict

from ..analyse.types import is_array
from ..ir.walk import const_int, iter_nodes, iter_stmts, rewrite_stmts
from ..ir.affine import AffineMap, scalar_definitions
from ..transform.lowering import MarkerLowering
from ..ir.markers import POP, PUSH, comment, is_marker
from .extension import ALLOCS, cuda_call_member, is_cuda_int

#: A halving loop (``while x > 0: ... x //= 2``) runs at most this many times on 64-bit integers.
HALVING_TRIPS = 64


def tape_capacity_default() -> int | None:
    """``$ADTRANS_CUDA_TAPE_CAPACITY`` if set, else None (tapes must have a provable bound)."""
    env = os.environ.get("ADTRANS_CUDA_TAPE_CAPACITY")
    return int(env) if env else None


def _parse(text):
    return ast.parse(text).body


def _expr(text):
    return ast.parse(text, mode="eval").body


class GridMap(AffineMap):
    """:class:`AffineMap` whose index is any of several names holding the same grid coordinate."""

    def __init__(self, body, names):
        names = sorted(names)
        self.index = names[0]
        self.forms = {n: (1, 0) for n in names}
        defs = scalar_definitions(body)
        for name, values in defs.items():
            if name in self.forms:
                continue
            if len(values) == 1 and values[0] is not None:
                f = self.form(values[0])
                if f is not None:
                    self.forms[name] = f


def grid_coordinates(body) -> dict:
    """Grid coordinate -> names holding it (single assignments only).

    ``i = cuda.grid(1)`` -> {0: {i}}; ``g = cuda.grid(2); i = g[0]; j = g[1]`` -> {0: {i}, 1: {j}};
    ``i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x`` (any order) -> {0: {i}}.
    """
    defs = defaultdict(list)
    for s, _ in iter_stmts(body):
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
            defs[s.targets[0].id].append(s.value)
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            defs[s.target.id].append(None)
        elif isinstance(s, ast.For):
            defs[s.target.id].append(None)
    single = {n: v[0] for n, v in defs.items() if len(v) == 1 and v[0] is not None}
    axis = {"x": 0, "y": 1, "z": 2}
    dims = defaultdict(set)
    tuples, attrs, prods = {}, {}, {}
    for name, v in single.items():     # dicts keep program order
        member = cuda_call_member(v)
        if member == "grid" and isinstance(v.args[0], ast.Constant):
            if v.args[0].value == 1:
                dims[0].add(name)
            else:
                tuples[name] = v.args[0].value
        elif isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id in tuples \
                and isinstance(v.slice, ast.Constant):
            dims[v.slice.value].add(name)
        elif is_cuda_int(v):
            attrs[name] = ast.unparse(v)[len("cuda."):]
        elif isinstance(v, ast.BinOp) and isinstance(v.left, ast.Name) and isinstance(v.right, ast.Name):
            a, b = attrs.get(v.left.id), attrs.get(v.right.id)
            if isinstance(v.op, ast.Mult) and a and b:
                pa, pb = sorted([a, b])
                if pa.startswith("blockDim.") and pb.startswith("blockIdx.") and pa[-1] == pb[-1]:
                    prods[name] = pa[-1]
            elif isinstance(v.op, ast.Add):
                for t, p in ((v.left.id, v.right.id), (v.right.id, v.left.id)):
                    ta, c = attrs.get(t), prods.get(p)
                    if ta and c and ta == f"threadIdx.{c}":
                        dims[axis[c]].add(name)
    return dict(dims)


def _index_elts(idx):
    return idx.elts if isinstance(idx, ast.Tuple) else [idx]


class CudaLowering(MarkerLowering):
    """Lowers a :class:`~adtrans.transform.MarkedAdjoint` to a ``@cuda.jit`` kernel (module docstring)."""

    def __init__(self, marked, types, act, primal, tape_capacity=None):
        super().__init__(marked.builder, marked.result_seeds)
        self.marked = marked
        self.norm, self.types, self.act = marked.norm, types, act
        self.primal = primal
        self.capacity = tape_capacity or tape_capacity_default()
        self.notes: list[str] = []
        self.fresh = self.norm.alloc.fresh

    def error(self, construct, hint=""):
        return self.primal.error(getattr(self, "where", None) or self.primal.tree, construct, hint)

    # ---------------------------------------------------------------- driver
    def lower(self) -> ast.FunctionDef:
        """The ``@cuda.jit`` adjoint ``FunctionDef`` (no decorator) of the marked IR."""
        body = rewrite_stmts(self.marked.body, self.keep_needed)
        body = self.scope_starts(body)
        func = self.marked.function(body, self.marked.parameters())
        return self.run(func)

    def keep_needed(self, s):
        """Tape markers that are needed stay (with their tape slot, lowered by :meth:`tapes`)."""
        if is_marker(s, PUSH) or is_marker(s, POP):
            slot = self.tape_slot(s)
            if slot is None:
                return []
            s.adtrans_slot = slot
        return [s]

    def tape_start(self, scope, dt):
        # the capacity is set by :meth:`tapes` once all pushes are known
        return f"cuda.local.array(1, np.{dt})"

    def run(self, func: ast.FunctionDef) -> ast.FunctionDef:
        body = list(func.body)
        allocs = self.allocs = self.array_allocations()
        shadows = self.shadow_kinds(allocs)
        self.primal_atomics(body)
        self.shadow_updates(body, shadows)
        self.local_copies(body)
        self.scratch_zeros(body)
        tape_head, tape_tail = self.tapes(body)
        self.check_gpu_forms(body)
        head = self.shadow_allocations(shadows, allocs)
        func.body = [self.comment(n) for n in self.notes] + head + tape_head + body + tape_tail or [ast.Pass()]
        return ast.fix_missing_locations(func)

    def comment(self, text):
        return comment("cuda adjoint: " + text)

    # ----------------------------------------------------------- validation
    def check_gpu_forms(self, body):
        """Refuse what a GPU kernel cannot run (host allocations, whole-array copies per thread),
        naming the user's line behind it: the statement's own, else that of the loop it serves
        (the next located statement of its block), else that of the enclosing statement."""
        tree = self.primal.tree

        def located(q):         # a statement at a line of the kernel's body (generated ones are not)
            return tree.lineno < (getattr(q, "lineno", None) or 0) <= (tree.end_lineno or 0)

        def walk(stmts, parents):
            for k, st in enumerate(stmts):
                where = st if located(st) else next((q for q in stmts[k + 1:] if located(q)),
                                                    next((p for p in reversed(parents) if located(p)), None))
                self.where = where or self.primal.tree
                nested = [q for f in ("body", "orelse") for q in getattr(st, f, [])]
                if isinstance(st, (ast.For, ast.While, ast.If)):
                    self.check_calls([st.iter] if isinstance(st, ast.For) else [st.test])
                    walk(st.body, parents + (st,))
                    walk(st.orelse, parents + (st,))
                elif not nested:
                    self.check_calls([st])
        walk(body, ())

    def check_calls(self, nodes):
        for node in (n for root in nodes for n in iter_nodes(root)):
            if not isinstance(node, ast.Call):
                continue
            f = ast.unparse(node.func)
            if f.endswith(".copy") or f in ("tape_push_array", "tape_pop_array"):
                arr = ast.unparse(node.func.value) if f.endswith(".copy") else ast.unparse(node.args[2])
                if arr in self.allocs and self.allocs[arr][0] == "shared":
                    raise self.error(
                        f"a loop of the CUDA kernel reads shared array `{arr}`, which a later iteration "
                        f"refills (shared-memory tiling); its reverse sweep would need every tile again",
                        "not supported yet: read the global array directly in the loop, or use one tile")
                raise self.error(
                    f"a loop of the CUDA kernel reads array `{arr}`, which the kernel overwrites later; "
                    f"its reverse sweep would need a per-thread copy of the whole array",
                    "write the new values into a separate output array")
            if f in ("num_threads", "thread_id", "numba.prange") or f.startswith("np.") and \
                    f.split(".")[-1] in ("zeros", "zeros_like", "empty", "empty_like", "ones", "full"):
                raise self.error(f"`{ast.unparse(node)}` in a CUDA adjoint",
                                 "allocate arrays with cuda.local.array or cuda.shared.array")
            if f.endswith(".fill"):
                raise self.error(f"local array `{ast.unparse(node.func.value)}` allocated inside a loop",
                                 "allocate it once at the top of the kernel")

    # -------------------------------------------------------------- arrays
    def array_allocations(self) -> dict:
        """Local/shared arrays of the primal: name -> (kind, shape node, dtype node)."""
        out = {}
        for s, parents in iter_stmts(self.norm.body):
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
                member = cuda_call_member(s.value)
                if member in ALLOCS:
                    x = s.targets[0].id
                    if x in out or any(isinstance(p, (ast.For, ast.While)) for p in parents):
                        if x in self.act.active:
                            raise self.primal.error(s, f"active cuda.{member} `{x}` allocated inside a loop",
                                                    "allocate it once at the top of the kernel")
                    kind = member.split(".")[0]
                    out[x] = (kind, s.value.args[0], s.value.args[1])
        return out

    def shadow_kinds(self, allocs) -> dict:
        """Shadow array name -> (array, kind) with kind "global", "shared" or "local"."""
        out = {}
        for arr, d in self.b.adj_names.items():
            if not is_array(self.types.get(arr)):
                continue
            root = self.b.root_array(arr)
            kind = allocs[root][0] if root in allocs else "global"
            out[d] = (root, kind)
        return out

    # ------------------------------------------------------------ atomics
    def primal_atomics(self, body):
        def one(s):
            out = []
            member = getattr(s, "adtrans_atomic", None)
            if isinstance(s, ast.AugAssign) and member:
                t = s.target
                s = ast.copy_location(ast.Expr(value=ast.Call(
                    func=_expr(f"cuda.{member}"), args=[ast.Name(t.value.id, ast.Load()),
                                                       copy.deepcopy(t.slice), s.value], keywords=[])), s)
            out.append(s)
            return out
        body[:] = rewrite_stmts(body, one)

    def unique_per_thread(self, idxs) -> bool:
        """One index position per grid coordinate, each with the same one-to-one affine form in
        that coordinate in every access: threads then never touch the same element."""
        if not self.grid or not idxs:
            return False
        taken = set()
        for k in sorted(self.grid):
            forms = [self.maps[k].index_forms(a) for a in idxs]
            n = min(len(f) for f in forms)
            ok = [p for p in range(n) if p not in taken and forms[0][p] is not None and forms[0][p][0] != 0
                  and all(f[p] == forms[0][p] for f in forms)]
            if not ok:
                return False
            taken.add(ok[0])
        return True

    def shadow_updates(self, body, shadows):
        self.grid = grid_coordinates(self.norm.body)
        self.maps = {k: GridMap(self.norm.body, names) for k, names in self.grid.items()}
        accesses, accumulated = defaultdict(list), set()
        for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in shadows:
                accesses[node.value.id].append(node.slice)
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) and \
                    isinstance(node.target.value, ast.Name):
                accumulated.add(node.target.value.id)
        atomic = set()
        for d, idxs in sorted(accesses.items()):
            arr, kind = shadows[d]
            if d not in accumulated:
                self.notes.append(f"{d}: read and reset only")
            elif kind == "local":
                self.notes.append(f"{d}: thread-private shadow (cuda.local.array), plain updates")
            elif kind == "shared":
                atomic.add(d)
                self.notes.append(f"{d}: shared-memory shadow, zeroed at kernel start, atomic updates")
            elif self.unique_per_thread(idxs):
                coords = ", ".join(sorted(n for k in sorted(self.grid) for n in self.grid[k]))
                self.notes.append(f"{d}: plain update, the index is one-to-one in the thread's grid "
                                  f"coordinate ({coords})")
            else:
                atomic.add(d)
                self.notes.append(f"{d}: cuda.atomic.add, threads may update the same element")

        def one(s):
            out = []
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Subscript) and \
                    isinstance(s.target.value, ast.Name) and s.target.value.id in atomic and \
                    isinstance(s.op, (ast.Add, ast.Sub)):
                op = "add" if isinstance(s.op, ast.Add) else "sub"
                t = s.target
                s = ast.copy_location(ast.Expr(value=ast.Call(
                    func=_expr(f"cuda.atomic.{op}"), args=[ast.Name(t.value.id, ast.Load()),
                                                          copy.deepcopy(t.slice), s.value],
                    keywords=[])), s)
            out.append(s)
            return out
        body[:] = rewrite_stmts(body, one)

    def shadow_allocations(self, shadows, allocs) -> list:
        """Declarations of local and shared shadows, zeroed, at the top of the kernel."""
        local, shared = [], []
        for d, (arr, kind) in sorted(shadows.items()):
            if kind == "global":
                continue
            _, shape, dtype = allocs[arr]
            dims = [e.value for e in _index_elts(shape)]
            decl = ast.Assign(targets=[ast.Name(d, ast.Store())],
                              value=ast.Call(func=_expr(f"cuda.{kind}.array"),
                                             args=[copy.deepcopy(shape), copy.deepcopy(dtype)], keywords=[]))
            if kind == "local":
                ks = [self.fresh("k") for _ in dims]
                idx = ks[0] if len(ks) == 1 else "(" + ", ".join(ks) + ")"
                text = ""
                for depth, (k, n) in enumerate(zip(ks, dims)):
                    text += "    " * depth + f"for {k} in range({n}):\n"
                text += "    " * len(ks) + f"{d}[{idx}] = 0\n"
                local += [decl] + _parse(text)
            else:
                shared.append((d, dims, decl))
        out = list(local)
        if shared:
            tid, nthr = self.fresh("block_thread"), self.fresh("block_threads")
            out += _parse(f"{tid} = cuda.threadIdx.x + cuda.blockDim.x * (cuda.threadIdx.y + "
                          f"cuda.blockDim.y * cuda.threadIdx.z)\n"
                          f"{nthr} = cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z")
            for d, dims, decl in shared:
                k = self.fresh("k")
                total = 1
                for n in dims:
                    total *= n
                parts, stride = [], total
                for n in dims:
                    stride //= n
                    parts.append(f"{k} // {stride} % {n}" if stride > 1 else f"{k} % {n}")
                parts[0] = f"{k} // {total // dims[0]}" if len(dims) > 1 else k
                idx = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
                out.append(decl)
                out += _parse(f"for {k} in range({tid}, {total}, {nthr}):\n    {d}[{idx}] = 0")
            out += _parse("cuda.syncthreads()")
        return out

    # ------------------------------------------------- copies of local arrays
    def array_shape(self, name):
        """(dims, dtype node) of a shared/local array of the primal or of a copy of one, else None."""
        seen = set()
        while name in self.copy_of and name not in seen:
            seen.add(name)
            name = self.copy_of[name]
        root = self.b.root_array(name)
        if root not in self.allocs:
            return None
        _, shape, dtype = self.allocs[root]
        return [e.value for e in _index_elts(shape)], dtype

    def elementwise(self, dims, stmt):
        """Nested loops over ``dims`` running ``stmt(index_text, flat_text)``."""
        ks = [self.fresh("k") for _ in dims]
        idx = ks[0] if len(ks) == 1 else "(" + ", ".join(ks) + ")"
        flat, stride = [], 1
        for k, n in reversed(list(zip(ks, dims))):
            flat.insert(0, k if stride == 1 else f"{k} * {stride}")
            stride *= n
        text = ""
        for depth, (k, n) in enumerate(zip(ks, dims)):
            text += "    " * depth + f"for {k} in range({n}):\n"
        text += "    " * len(ks) + stmt(idx, " + ".join(flat)) + "\n"
        return _parse(text)

    def local_copies(self, body):
        """Copies of shared/local arrays for recomputed loops become per-thread ``cuda.local.array``s:
        ``X = a.copy()`` (copied in place) and ``X = np.empty_like(a)`` (filled from the tape)."""
        self.copy_of = {}

        def one(s):
            out = []
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and \
                    isinstance(s.value, ast.Call):
                f = ast.unparse(s.value.func)
                src = (s.value.func.value if f.endswith(".copy") and not s.value.args else
                       s.value.args[0] if f == "np.empty_like" and len(s.value.args) == 1 else None)
                if isinstance(src, ast.Name):
                    x = s.targets[0].id
                    self.copy_of[x] = src.id
                    shape = self.array_shape(src.id)
                    if shape is not None:
                        dims, dtype = shape
                        dims_text = str(dims[0]) if len(dims) == 1 else "(" + ", ".join(map(str, dims)) + ")"
                        out += _parse(f"{x} = cuda.local.array({dims_text}, {ast.unparse(dtype)})")
                        if f.endswith(".copy"):
                            out += self.elementwise(dims, lambda i, fl: f"{x}[{i}] = {src.id}[{i}]")
                        return out
            out.append(s)
            return out
        body[:] = rewrite_stmts(body, one)

    def scratch_zeros(self, body):
        """Zeroed scratch arrays of the engine (``d_s_lanes = np.zeros(6, np.float64)``, one slot per
        iteration of a short fused loop) become zeroed per-thread ``cuda.local.array``s."""
        def one(s):
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and \
                    isinstance(s.value, ast.Call) and ast.unparse(s.value.func) == "np.zeros" and \
                    len(s.value.args) == 2 and not s.value.keywords and \
                    isinstance(s.value.args[0], ast.Constant) and type(s.value.args[0].value) is int:
                x, n, dt = s.targets[0].id, s.value.args[0].value, ast.unparse(s.value.args[1])
                return _parse(f"{x} = cuda.local.array({n}, {dt})") + \
                    self.elementwise([n], lambda i, fl: f"{x}[{i}] = 0")
            return [s]
        body[:] = rewrite_stmts(body, one)

    # --------------------------------------------------------------- tapes
    def tapes(self, body):
        b = self.b
        names = {}
        for scope in b.scopes:
            for dt in b.tape_dtypes.get(scope.id, ()):
                tape, top = b.tape_vars(scope, dt)
                names[tape] = (top, dt)
        if not names:
            return [], []
        counts = defaultdict(int)
        unbounded = {}          # tape -> the first loop that has no trip bound

        def count(stmts, mult, loop):
            for s in stmts:
                if is_marker(s, PUSH):
                    tape = s.adtrans_slot[2]
                    if mult is None:
                        unbounded.setdefault(tape, loop)
                    else:
                        counts[tape] += mult
                if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) and \
                        ast.unparse(s.value.func) == "tape_push_array":
                    tape, shape = s.value.args[0].id, self.array_shape(ast.unparse(s.value.args[2]))
                    if shape is not None:
                        size = 1
                        for n in shape[0]:
                            size *= n
                        if mult is None:
                            unbounded.setdefault(tape, loop)
                        else:
                            counts[tape] += mult * size
                if isinstance(s, (ast.For, ast.While)):
                    n = trip_bound(s)
                    count(s.body, None if (n is None or mult is None) else mult * n,
                          loop if mult is None else (s if n is None else None))
                elif isinstance(s, ast.If):
                    count(s.body, mult, loop)
                    count(s.orelse, mult, loop)
        count(body, 1, None)
        if unbounded and self.capacity is None:
            tape, loop = sorted(unbounded.items())[0]
            header = ast.unparse(loop).splitlines()[0] if loop is not None else "a loop"
            where = self.primal.tree
            for s, _ in iter_stmts(self.norm.body):     # the primal loop with the same header
                if isinstance(s, (ast.For, ast.While)) and loop is not None and \
                        ast.unparse(s).splitlines()[0] == header and getattr(s, "lineno", None):
                    where = s
                    break
            if where is not self.primal.tree:     # the user's loop header, not the normalised one
                head = ast.Pass(lineno=where.lineno, end_lineno=where.lineno, col_offset=0)
                header = (self.primal.line_text(head) or header).rstrip(":") + ":"
            raise self.primal.error(
                where,
                f"the CUDA adjoint needs a tape of {names[tape][1]} values in `{header}`, a loop whose trip "
                f"count adtrans cannot bound (GPU tapes are fixed-size per-thread arrays)",
                "pass tape_capacity=N (values per thread and dtype) to adtrans.cuda.cuda_adjoint, or set "
                "$ADTRANS_CUDA_TAPE_CAPACITY; a thread that needs more adds NaN to the shadows")
        caps = {t: (self.capacity if t in unbounded else max(1, counts[t])) for t in names}
        overflow = self.fresh("tape_overflow") if unbounded else None

        def neutral(dt):
            return {"bool_": "False", "float64": "math.nan", "float32": "np.float32(math.nan)"}.get(dt, "0")

        def one(s):
            out = []
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and \
                    s.targets[0].id in names and isinstance(s.value, ast.Call):
                tape = s.targets[0].id
                out.append(ast.parse(f"{tape} = cuda.local.array({caps[tape]}, np.{names[tape][1]})").body[0])
                return out
            if is_marker(s, PUSH):
                _, x, tape, top, _ = s.adtrans_slot
                if tape in unbounded:
                    out += _parse(f"if {top} < {caps[tape]}:\n    {tape}[{top}] = {x}\n"
                                  f"else:\n    {overflow} = True\n{top} += 1")
                else:
                    out += _parse(f"{tape}[{top}] = {x}\n{top} += 1")
                return out
            f = ast.unparse(s.value.func) if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) else ""
            if f in ("tape_push_array", "tape_pop_array"):
                tape, top, arr = (ast.unparse(a) for a in s.value.args)
                shape = self.array_shape(arr)
                if shape is not None:
                    dims, _ = shape
                    size = 1
                    for n in dims:
                        size *= n
                    if f == "tape_push_array":
                        copy_in = self.elementwise(dims, lambda i, fl: f"{tape}[{top} + {fl}] = {arr}[{i}]")
                        if tape in unbounded:
                            out.append(ast.If(test=_expr(f"{top} + {size} <= {caps[tape]}"), body=copy_in,
                                              orelse=_parse(f"{overflow} = True")))
                        else:
                            out += copy_in
                        out += _parse(f"{top} += {size}")
                    else:
                        out += _parse(f"{top} -= {size}")
                        copy_out = self.elementwise(dims, lambda i, fl: f"{arr}[{i}] = {tape}[{top} + {fl}]")
                        if tape in unbounded:
                            nan = self.elementwise(dims, lambda i, fl: f"{arr}[{i}] = {neutral(names[tape][1])}")
                            out.append(ast.If(test=_expr(f"{top} + {size} <= {caps[tape]}"), body=copy_out,
                                              orelse=nan))
                        else:
                            out += copy_out
                    return out
            if is_marker(s, POP):
                _, x, tape, top, dt = s.adtrans_slot
                out += _parse(f"{top} -= 1")
                if tape in unbounded:
                    # a pop beyond the capacity yields a neutral value (NaN, 0, False), never stale data
                    out += _parse(f"if {top} < {caps[tape]}:\n    {x} = {tape}[{top}]\n"
                                  f"else:\n    {x} = {neutral(dt)}")
                else:
                    out += _parse(f"{x} = {tape}[{top}]")
                return out
            out.append(s)
            return out
        body[:] = rewrite_stmts(body, one)
        for tape, (top, dt) in sorted(names.items()):
            how = (f"{caps[tape]} values (tape_capacity; a thread that needs more adds NaN to the shadows)"
                   if tape in unbounded else f"{caps[tape]} values (bound of all pushes)")
            self.notes.append(f"tape {tape}: cuda.local.array of {how}")
        head, tail = [], []
        if overflow:
            head = _parse(f"{overflow} = False")
            poison = []
            for p in self.norm.params:
                if self.b.param_activity.get(p) != "dup":
                    continue
                d = self.b.adj(p)
                ty = self.types[p]
                nan = "np.float32(math.nan)" if str(ty.dtype) == "float32" else "math.nan"
                zero = "0" if ty.ndim == 1 else "(" + ", ".join(["0"] * ty.ndim) + ")"
                poison += _parse(f"if {d}.size > 0:\n    cuda.atomic.add({d}, {zero}, {nan})")
            tail = [ast.If(test=ast.Name(overflow, ast.Load()), body=poison or [ast.Pass()], orelse=[])]
        return head, tail


def _assigns(stmts, x, nested=True):
    """Assignments to the name ``x`` in ``stmts`` (``nested``: also inside ifs and loops)."""
    out = []
    for s in stmts:
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and s.targets[0].id == x:
            out.append(s)
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id == x:
            out.append(s)
        elif isinstance(s, ast.For) and s.target.id == x:
            out.append(s)
        elif is_marker(s, POP) and x in (s.adtrans_slot[1], s.adtrans_slot[3]):
            out.append(s)       # a pop assigns the popped name and the tape top
        if nested and isinstance(s, (ast.If, ast.For, ast.While)):
            out += _assigns(s.body + getattr(s, "orelse", []), x)
    return out


def _halves(stmts, x) -> bool:
    """``x`` is assigned once in ``stmts`` (top level), to ``x // k`` or ``x >> k`` (k >= 2 / >= 1),
    directly or through one temporary assigned once."""
    sites = _assigns(stmts, x)
    if len(sites) != 1 or not any(s is sites[0] for s in stmts) or not isinstance(sites[0], ast.Assign):
        return False
    v = sites[0].value
    if isinstance(v, ast.Name):
        tmp = _assigns(stmts, v.id)
        if len(tmp) != 1 or not isinstance(tmp[0], ast.Assign) or not any(s is tmp[0] for s in stmts):
            return False
        v = tmp[0].value
    return (isinstance(v, ast.BinOp) and isinstance(v.left, ast.Name) and v.left.id == x
            and isinstance(v.right, ast.Constant) and isinstance(v.right.value, int)
            and ((isinstance(v.op, ast.FloorDiv) and v.right.value >= 2)
                 or (isinstance(v.op, ast.RShift) and v.right.value >= 1)))


def trip_bound(loop) -> int | None:
    """An upper bound of the trip count of a loop of the generated code, else None.

    ``for k in range(<constant expressions>)``: exact.  ``while c`` with ``c = x > 0`` (or ``x >= 1``) and
    ``x`` halved once per trip (``x //= 2``, ``x >>= 1``): at most 64 trips for 64-bit integers.
    """
    if isinstance(loop, ast.For):
        it = loop.iter
        if isinstance(it, ast.Call) and ast.unparse(it.func) == "range":
            args = [const_int(a) for a in it.args]
            if None not in args:
                return len(range(*args))
        return None
    if not isinstance(loop.test, ast.Name):
        return None
    c = loop.test.id
    sites = _assigns(loop.body, c)
    if len(sites) != 1 or not any(s is sites[0] for s in loop.body) or not isinstance(sites[0], ast.Assign):
        return None
    t = sites[0].value
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.left, ast.Name)
            and isinstance(t.comparators[0], ast.Constant)
            and ((isinstance(t.ops[0], ast.Gt) and t.comparators[0].value == 0)
                 or (isinstance(t.ops[0], ast.GtE) and t.comparators[0].value == 1))):
        return None
    return HALVING_TRIPS if _halves(loop.body, t.left.id) else None

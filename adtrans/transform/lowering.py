"""Lowering of the marked IR (:mod:`.markers`) into code.

:class:`MarkerLowering` holds what every target shares: which tape markers are
needed (and the tapes they use) and the prologue of each scope (tape
allocations, initialisations of pushed names and of adjoints).
:class:`CpuLowering` lowers the markers to the CPU runtime's tape calls and
rewrites prange loops; the CUDA target lowers them itself
(:mod:`adtrans.cuda.lowering`)."""
from __future__ import annotations

import ast

from ..analyse.types import is_array, scalar_dtype_name
from ..ir.walk import iter_nodes, rewrite_stmts
from ..ir.markers import POP, PUSH, SCOPE_START, is_marker
from ..rules.parallel import PrangeRewriter
from .affine_tapes import affine_tapes
from .ascending import ascending
from .capacity import CapacityPlanner


def conditional_names(body) -> set:
    """Names assigned inside an ``if`` anywhere in ``body``."""
    out = set()
    for node in iter_nodes(ast.Module(body=list(body), type_ignores=[])):
        if isinstance(node, ast.If):
            for sub in iter_nodes(ast.Module(body=node.body + node.orelse, type_ignores=[])):
                if isinstance(sub, ast.Assign) and isinstance(sub.targets[0], ast.Name):
                    out.add(sub.targets[0].id)
    return out


def empty_array(ty) -> str:
    """Source of an empty array of Numba array type ``ty``'s dtype and number of dimensions."""
    shape = "0" if ty.ndim == 1 else "(" + ", ".join(["0"] * ty.ndim) + ")"
    return f"np.empty({shape}, np.{scalar_dtype_name(ty.dtype)})"


def _array_pop(stmts, k):
    """``(copy, tape, top, src)`` when ``stmts[k:k + 2]`` is ``copy = np.empty_like(src)`` (or
    ``np.empty(src.shape, dtype=...)``, C order) then
    ``top = tape_pop_array(tape, top, copy)``, else None."""
    if k + 1 >= len(stmts):
        return None
    a, b = stmts[k], stmts[k + 1]
    t = getattr(b, "adtrans_tape", None)
    if t is None or t[0] != "pop" or not (isinstance(b, ast.Assign) and isinstance(b.value, ast.Call)
                                          and ast.unparse(b.value.func) == "tape_pop_array"):
        return None
    if not (isinstance(a, ast.Assign) and isinstance(a.targets[0], ast.Name) and isinstance(a.value, ast.Call)
            and ast.unparse(b.value.args[2]) == a.targets[0].id and len(a.value.args) == 1
            and all(k.arg == "dtype" for k in a.value.keywords)):
        return None
    func, arg = ast.unparse(a.value.func), a.value.args[0]
    if func == "np.empty_like":
        return a.targets[0].id, t[1], t[2], ast.unparse(arg)
    if func == "np.empty" and isinstance(arg, ast.Attribute) and arg.attr == "shape":
        # a C-order copy of an array of any layout (lapack_saves)
        return a.targets[0].id, t[1], t[2], ast.unparse(arg.value)
    return None


def _pushes_onto(stmts, tape) -> bool:
    return any(getattr(n, "adtrans_tape", (None, None))[0] in ("push", "push_array") and n.adtrans_tape[1] == tape
               or (isinstance(n, ast.Call) and ast.unparse(n.func) == "tape_grow")
               for s in stmts for n in iter_nodes(s))


def _is_zeros(s):
    """The name bound by ``d = np.zeros(...)`` / ``np.zeros_like(...)``, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
            and isinstance(s.value, ast.Call) and ast.unparse(s.value.func) in ("np.zeros", "np.zeros_like"):
        return s.targets[0].id
    return None


def _product_accumulation(s):
    """``(target, left, right)`` of ``d += X @ Y`` (a product adjoint of :mod:`adtrans.rules.linalg`),
    else None."""
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name) \
            and isinstance(s.value, ast.BinOp) and isinstance(s.value.op, ast.MatMult):
        return s.target.id, s.value.left, s.value.right
    return None


def products_in_place(stmts, shadows: set) -> list:
    """The accumulations of matrix-product adjoints (``d_A += G @ B.T``, statements of one block)
    without temporaries: the first one into a shadow that holds the zeros it was allocated with
    (``d_P = np.zeros(...)``, nothing mentioning ``d_P`` in between) becomes the product itself
    (``d_P = G @ C.T``: no zero fill, no addition; ``shadows``: the names of the shadows, the only
    arrays this applies to), every other one ``matmul_add(d_A, G, B.T)``
    (:mod:`adtrans.targets.cpu_blas`: one GEMM with beta = 1 adding into ``d_A``, no fresh array
    for the product).  The shapes agree by construction: a shadow is allocated with its array's
    shape, and the product adjoint has the operand's shape (checked in the forward sweep)."""
    out = list(stmts)
    drop = set()
    for k, s in enumerate(out):
        d = _is_zeros(s)
        if d is None or d not in shadows:
            continue
        for j in range(k + 1, len(out)):
            if d not in {n.id for n in ast.walk(out[j]) if isinstance(n, ast.Name)}:
                continue
            acc = _product_accumulation(out[j])
            if acc is not None and acc[0] == d and d not in {n.id for n in ast.walk(out[j].value)
                                                            if isinstance(n, ast.Name)}:
                new = ast.Assign(targets=[ast.Name(d, ast.Store())], value=out[j].value)
                new.__dict__.update({a: v for a, v in out[j].__dict__.items() if a.startswith("adtrans_")})
                out[j] = ast.copy_location(new, out[j])
                drop.add(k)
            break
    for j, s in enumerate(out):
        acc = _product_accumulation(s)
        if acc is not None:
            call = ast.Call(func=ast.Name("matmul_add", ast.Load()), args=[ast.Name(acc[0], ast.Load()), acc[1],
                                                                         acc[2]], keywords=[])
            new = ast.Expr(value=call)
            new.__dict__.update({a: v for a, v in s.__dict__.items() if a.startswith("adtrans_")})
            out[j] = ast.copy_location(new, s)
    return [s for k, s in enumerate(out) if k not in drop]


def pops_as_views(stmts) -> list:
    """An array popped from the tape (a copy taken before a recomputed loop) is read in place,
    ``copy = tape_view(tape, top, src)`` after ``top -= src.size``, instead of being copied
    into a fresh array, when nothing pushes onto that tape while the copy is in use (the
    statements of the block up to its last use): no allocation, no copy, and the popped
    region of the stack is not written before the view dies."""
    out = list(stmts)
    for s in out:
        for field in ("body", "orelse"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, pops_as_views(getattr(s, field)))
    k = 0
    while k < len(out):
        hit = _array_pop(out, k)
        if hit is not None:
            x, tape, top, src = hit
            uses = [j for j in range(k + 2, len(out)) if any(isinstance(n, ast.Name) and n.id == x
                                                              for n in iter_nodes(out[j]))]
            if uses and not _pushes_onto(out[k + 2:uses[-1] + 1], tape):
                step = ast.parse(f"{top} -= {src}.size").body[0]
                step.adtrans_tape = ("pop", tape, top)
                view = ast.parse(f"{x} = tape_view({tape}, {top}, {src})").body[0]
                out[k:k + 2] = [step, view]
        k += 1
    return out


class MarkerLowering:
    """What every target's lowering shares (see the module docstring)."""

    def __init__(self, builder, seeds: dict):
        self.b = builder
        self.seeds = seeds          # result name -> seed parameter name
        self.by_id = {s.id: s for s in builder.scopes}

    def tape_slot(self, s):
        """``(kind, x, tape, top, dtype)`` of a needed push/pop marker ``s`` (registering its
        tape), or None when the marker goes (``x`` unused by the reverse sweep, an array)."""
        kind = s.value.func.id
        x, sid = s.value.args[0].value, s.value.args[1].value
        b = self.b
        if x not in b.needed or is_array(b.types.get(x)) or x not in b.types:
            return None
        dt = scalar_dtype_name(b.types[x])
        scope = self.by_id[sid]
        b.tape_dtypes[sid].add(dt)
        b.pushed_names[sid].add(x)
        tape, top = b.tape_vars(scope, dt)
        return kind, x, tape, top, dt

    def tape_start(self, scope, dt):
        """The expression a tape of ``scope`` and dtype ``dt`` starts as."""
        raise NotImplementedError

    #: The expression a tape top starts as.
    top_start = "0"

    def prologue(self, scope):
        b = self.b
        out = list(scope.hoisted)
        for dt in sorted(b.tape_dtypes.get(scope.id, ())):
            tape, top = b.tape_vars(scope, dt)
            out.append(ast.parse(f"{tape} = {self.tape_start(scope, dt)}").body[0])
            out.append(ast.parse(f"{top} = {self.top_start}").body[0])
        body = b.norm.body if scope.root is None else scope.root.body
        init = set()
        for x in sorted(b.pushed_names.get(scope.id, ())):
            sites = b.sites.get(x) or [None]
            if x not in scope.live_in and not any(sites[0] is t for t in body):
                init.add(x)
        if scope.prange_var is not None:
            # names assigned only under a branch would look loop-carried to Numba's parfor pass
            init |= {x for x in conditional_names(body) if x not in scope.live_in and x in b.types
                     and not is_array(b.types[x])}
        for x in sorted(init):
            out.append(ast.Assign(targets=[ast.Name(x, ast.Store())], value=b.zero(x)))
        if scope.prange_var is not None:
            # an array assigned only under a branch (inside an inner loop) and read by the reverse
            # sweep after it reads as an empty array in Numba's parfor body (its `.size` 0, a
            # wrong tape top, a wrong gradient): an empty array of its type binds it first
            for x in sorted(conditional_names(body)):
                ty = b.types.get(x)
                if x not in scope.live_in and is_array(ty) and x in b.needed:
                    out.append(ast.parse(f"{x} = {empty_array(ty)}").body[0])
        for x in sorted(scope.owned):
            if is_array(b.types.get(x)):
                continue
            value = ast.Name(self.seeds[x]) if (scope.parent is None and x in self.seeds) else b.zero(x)
            out.append(ast.Assign(targets=[ast.Name(b.adj(x), ast.Store())], value=value))
        return out

    def scope_starts(self, stmts):
        return rewrite_stmts(stmts, lambda s: self.prologue(self.by_id[s.value.args[0].value])
                             if is_marker(s, SCOPE_START) else [s])


class CpuLowering(MarkerLowering):
    """Markers -> inline stores and loads on typed tapes (room reserved before loops, see
    :mod:`.capacity`); prange loops -> their rewrite."""

    def __init__(self, builder, seeds: dict, pools: bool = True):
        super().__init__(builder, seeds)
        self.pools = pools          # tapes from pool arguments and popped arrays as views (CpuTarget)
        self.loops = {id(s.loop_node): s for s in builder.scopes if s.loop_node is not None}
        self.prange = PrangeRewriter(builder, pools)

    def run(self, body):
        """The lowered statements of the marked ``body``."""
        body = rewrite_stmts(body, self.resolve)
        body = self.scope_starts(body)
        if self.pools:
            body = products_in_place(pops_as_views(body), set(self.b.adj_names.values()))
        return ascending(affine_tapes(CapacityPlanner().run(body)))

    def resolve(self, s):
        """Tape markers become pushes/pops (or nothing); prange loops get their rewrite."""
        if is_marker(s, PUSH) or is_marker(s, POP):
            return self.tape_op(s)
        scope = self.loops.get(id(s))
        if scope is not None and scope.prange_var is not None:
            return self.prange.rewrite(scope, s)
        return [s]

    def tape_op(self, s):
        slot = self.tape_slot(s)
        if slot is None:
            return []
        kind, x, tape, top, _ = slot
        if kind == PUSH:
            code = [ast.parse(f"{tape}[{top}] = {x}").body[0], ast.parse(f"{top} += 1").body[0]]
            kinds = ("push", "bump")
        else:
            code = [ast.parse(f"{top} -= 1").body[0], ast.parse(f"{x} = {tape}[{top}]").body[0]]
            kinds = ("pop", "load")
        for st, k in zip(code, kinds):
            st.adtrans_tape = (k, tape, top)
        return code

    @property
    def pooled(self) -> list:
        """Dtypes of the function scope's tapes: taken from and kept in a pool argument each."""
        return sorted(self.b.tape_dtypes.get(self.b.scopes[0].id, ())) if self.pools else []

    @staticmethod
    def pool_name(dt) -> str:
        return f"tape_pool_{dt}"

    # ``np.int64(0)``, not ``0``: Numba would type the first call's top ``Literal[int](0)`` and compile
    # each runtime helper it reaches (tape_push_array) once more for that literal (~0.4-0.8 s cold)
    top_start = "np.int64(0)"

    def tape_start(self, scope, dt):
        if scope.parent is None:
            return f"tape_take({self.pool_name(dt)}, 1024, np.{dt})" if self.pools else f"np.empty(1024, np.{dt})"
        return scope.tape_rows.get(dt, f"np.empty(64, np.{dt})")

"""CUDA constructs in the normalised statement language, and their CPU stand-ins for typing.

:class:`CudaExtension` is the normaliser's target extension (``Normaliser(..., ext=...)``).
It lowers

- ``cuda.grid(1)``, ``cuda.gridsize(1)``, ``cuda.threadIdx.x`` (``blockIdx``,
  ``blockDim``, ``gridDim``; ``.x/.y/.z``), ``cuda.laneid``, ``cuda.warpsize``
  to opaque integers (``i = cuda.grid(1)``); ``i, j = cuda.grid(2)`` to
  ``g = cuda.grid(2); i = g[0]; j = g[1]``;
- ``cuda.shared.array(shape, dtype)`` / ``cuda.local.array(shape, dtype)`` to
  allocations (constant shape, dtype spelled ``np.float64`` ...);
- ``cuda.syncthreads()`` / ``cuda.syncwarp()`` to a barrier statement whose
  reverse is the same barrier (``adtrans_reverse``), so the builder mirrors it
  at the corresponding point of the reverse sweep, also inside loops;
- ``cuda.atomic.add(arr, idx, v)`` / ``cuda.atomic.sub`` used as a statement to
  the accumulation ``arr[idx] += v`` (``-=``), marked ``adtrans_atomic`` so the
  CUDA finalize pass emits the atomic again in the forward sweep.

Device functions (``@cuda.jit(device=True)``) have ``py_func`` and are inlined by
the normaliser like ``@njit`` helpers.  Anything else under ``cuda.`` raises
:class:`~adtrans.errors.UnsupportedError`.

:func:`typing_copy` replaces these constructs by CPU equivalents of the same
types (``np.int64(0)``, ``np.zeros(shape, dtype)``, no barrier) so Numba's CPU
type inference types the normalised kernel.
"""
from __future__ import annotations

import ast
import copy
import dataclasses

DIM3 = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
INT_SCALARS = {"laneid", "warpsize"}
BARRIERS = {"syncthreads", "syncwarp"}
ALLOCS = {"shared.array", "local.array"}
ATOMICS = {"atomic.add": ast.Add, "atomic.sub": ast.Sub}
SUPPORTED = ("cuda.grid(n), cuda.gridsize(n), cuda.threadIdx/blockIdx/blockDim/gridDim.x|y|z, "
             "cuda.laneid, cuda.warpsize, cuda.shared.array, cuda.local.array, cuda.syncthreads(), "
             "cuda.syncwarp(), cuda.atomic.add/sub as a statement, @cuda.jit(device=True) functions")


def cuda_member(canon: str | None) -> str | None:
    """``"grid"`` for ``numba.cuda.grid`` (any spelling resolving there), else None."""
    if not canon:
        return None
    for prefix in ("numba.cuda.", "numba_cuda.numba.cuda."):
        if canon.startswith(prefix):
            return canon[len(prefix):]
    return None


def spelled(member: str) -> ast.expr:
    """``cuda.<member>`` as an expression (the generated module imports ``cuda``)."""
    return ast.parse(f"cuda.{member}", mode="eval").body


def _call(member, args):
    return ast.Call(func=spelled(member), args=args, keywords=[])


class CudaExtension:
    """Normaliser hooks for ``@cuda.jit`` kernels (see the module docstring)."""

    def _member(self, n, node):
        dotted = n.resolver.dotted(node)
        if not dotted or dotted.split(".")[0] in n.locals:
            return None, dotted
        return cuda_member(n.resolver.canonical(dotted)), dotted

    def allocation(self, n, call) -> int | None:
        """The number of axes of ``cuda.shared.array(shape, dtype)`` / ``cuda.local.array``, else None
        (the array lowering then treats rows of these arrays as views)."""
        dotted = n.resolver.dotted(call.func)
        if not dotted or dotted.split(".")[0] in n.locals or \
                cuda_member(n.resolver.canonical(dotted)) not in ALLOCS:
            return None
        shape = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "shape"), None)
        return len(shape.elts) if isinstance(shape, ast.Tuple) else 1

    # ------------------------------------------------------------ attributes
    def attribute(self, n, expr, out, base):
        member, dotted = self._member(n, expr)
        if member is None:
            return None
        parts = member.split(".")
        if (len(parts) == 2 and parts[0] in DIM3 and parts[1] in ("x", "y", "z")) or member in INT_SCALARS:
            node = spelled(member)
            node.adtrans_kind = "opaque"
            return ast.copy_location(node, expr)
        raise n.err(expr, f"`{dotted}` in a CUDA kernel", f"supported: {SUPPORTED}")

    # ----------------------------------------------------------------- calls
    def call(self, n, expr, canon, out, want, base):
        member = cuda_member(canon)
        if member is None:
            return NotImplemented
        dotted = n.resolver.dotted(expr.func)
        if member in ("grid", "gridsize"):
            return self._grid(n, expr, member, out, want)
        if member in BARRIERS:
            if want:
                raise n.err(expr, f"the value of `{dotted}()`", "call it as a statement")
            if member == "syncthreads" and (expr.args or expr.keywords):
                raise n.err(expr, f"arguments to `{dotted}`", "call cuda.syncthreads() without arguments")
            args = [n.atom(a, out, "mask") for a in expr.args]
            stmt = ast.copy_location(ast.Expr(value=_call(member, args)), expr)
            # the reverse of a barrier is the same barrier, at the mirrored point of the reverse sweep
            stmt.adtrans_reverse = [ast.Expr(value=_call(member, copy.deepcopy(args)))]
            stmt.adtrans_barrier = True
            out.append(stmt)
            return None
        if member in ALLOCS:
            return self._alloc(n, expr, member, dotted, out, want)
        if member in ATOMICS:
            return self._atomic(n, expr, member, dotted, out, want)
        raise n.err(expr, f"call to `{dotted}` in a CUDA kernel", f"supported: {SUPPORTED}")

    def _int_arg(self, n, expr, dotted):
        if len(expr.args) != 1 or expr.keywords:
            raise n.err(expr, f"`{dotted}` with {len(expr.args)} arguments", "write cuda.grid(1), (2) or (3)")
        a = n.atom(expr.args[0], out=[], base="ndim")
        if not (isinstance(a, ast.Constant) and a.value in (1, 2, 3)):
            raise n.err(expr, f"`{ast.unparse(expr)}`", "the dimension must be the constant 1, 2 or 3")
        return a.value

    def _grid(self, n, expr, member, out, want):
        ndim = self._int_arg(n, expr, n.resolver.dotted(expr.func))
        node = ast.copy_location(_call(member, [ast.Constant(ndim)]), expr)
        node.adtrans_kind = "opaque"
        if want == 0:
            return None
        if want == 1:
            return node
        if ndim == 1 or want != ndim:
            raise n.err(expr, f"cuda.{member}({ndim}) unpacked into {want} names",
                        f"unpack cuda.{member}(k) into k names")
        g = n.fresh(member)
        out.append(ast.copy_location(ast.Assign(targets=[ast.Name(g, ast.Store())], value=node), expr))
        return [ast.copy_location(ast.Subscript(value=ast.Name(g, ast.Load()), slice=ast.Constant(k),
                                                ctx=ast.Load()), expr) for k in range(ndim)]

    def _alloc(self, n, expr, member, dotted, out, want):
        args = list(expr.args)
        kws = {k.arg: k.value for k in expr.keywords}
        if set(kws) - {"shape", "dtype"} or len(args) + len(kws) != 2:
            raise n.err(expr, f"`{ast.unparse(expr)}`", f"write {dotted}(shape, dtype)")
        shape = args[0] if args else kws["shape"]
        dtype = args[1] if len(args) > 1 else kws["dtype"]
        elts = shape.elts if isinstance(shape, ast.Tuple) else [shape]
        dims = []
        for e in elts:
            a = _folded(n, e)
            if not (isinstance(a, ast.Constant) and isinstance(a.value, int) and a.value > 0):
                raise n.err(expr, f"{dotted} with shape `{ast.unparse(shape)}`",
                            "the shape of a CUDA shared or local array must be a constant (a literal or "
                            "a module-level integer)")
            dims.append(ast.Constant(a.value))
        shape_node = dims[0] if not isinstance(shape, ast.Tuple) else ast.Tuple(elts=dims, ctx=ast.Load())
        node = ast.copy_location(_call(member, [shape_node, n._dtype(dtype)]), expr)
        node.adtrans_kind = "alloc"
        if want == 0:
            return None
        if want != 1:
            raise n.err(expr, f"{dotted} unpacked into {want} names")
        return node

    def _atomic(self, n, expr, member, dotted, out, want):
        if want:
            raise n.err(expr, f"the value returned by `{dotted}`",
                        "call it as a statement (its old-value result has no adjoint rule)")
        if len(expr.args) != 3 or expr.keywords:
            raise n.err(expr, f"`{ast.unparse(expr)}`", f"write {dotted}(array, index, value)")
        arr, idx, val = expr.args
        if not isinstance(arr, ast.Name):
            raise n.err(expr, f"atomic update of `{ast.unparse(arr)}`", "pass an array variable")
        target = ast.copy_location(ast.Subscript(value=arr, slice=idx, ctx=ast.Store()), expr)
        name, index = n.subscript_parts(target, out)
        value = n.atom(val, out, name + "_inc")
        stmt = ast.AugAssign(target=ast.Subscript(value=ast.Name(name, ast.Load()), slice=index, ctx=ast.Store()),
                             op=ATOMICS[member](), value=value)
        stmt.adtrans_atomic = member
        out.append(ast.copy_location(stmt, expr))
        return None


_FOLD = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
         ast.FloorDiv: lambda a, b: a // b if b else None}


def _folded(n, e):
    """``e`` as an integer constant where it is one: a literal, a module-level integer, or ``+ - * //``
    of those (``TPB + 2``, ``2 * TILE``), else what the normaliser's ``atom`` makes of it."""
    if isinstance(e, ast.BinOp) and type(e.op) in _FOLD:
        a, b = _folded(n, e.left), _folded(n, e.right)
        if all(isinstance(v, ast.Constant) and type(v.value) is int for v in (a, b)):
            v = _FOLD[type(e.op)](a.value, b.value)
            if v is not None:
                return ast.Constant(v)
        return e
    return n.atom(e, [], "shape")


# ------------------------------------------------------------------ typing stand-ins

def _int64_zero():
    return ast.parse("np.int64(0)", mode="eval").body


class _StandIns(ast.NodeTransformer):
    def visit_Expr(self, node):
        if isinstance(node.value, ast.Call) and cuda_call_member(node.value) in BARRIERS:
            return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    def visit_Call(self, node):
        member = cuda_call_member(node)
        if member in ("grid", "gridsize"):
            ndim = node.args[0].value
            if ndim == 1:
                return ast.copy_location(_int64_zero(), node)
            return ast.copy_location(ast.Tuple(elts=[_int64_zero() for _ in range(ndim)], ctx=ast.Load()), node)
        if member in ALLOCS:
            return ast.copy_location(ast.Call(func=ast.parse("np.zeros", mode="eval").body,
                                              args=copy.deepcopy(node.args), keywords=[]), node)
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        if is_cuda_int(node):
            return ast.copy_location(_int64_zero(), node)
        return self.generic_visit(node)


def cuda_call_member(node) -> str | None:
    """``"grid"`` for a normalised ``cuda.grid(...)`` call node, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        text = ast.unparse(node.func)
        if text.startswith("cuda."):
            return text[len("cuda."):]
    return None


def is_cuda_int(node) -> bool:
    """A normalised opaque CUDA integer (``cuda.threadIdx.x``, ``cuda.warpsize`` ...)."""
    if not isinstance(node, ast.Attribute):
        return False
    text = ast.unparse(node)
    if not text.startswith("cuda."):
        return False
    member = text[len("cuda."):]
    parts = member.split(".")
    return member in INT_SCALARS or (len(parts) == 2 and parts[0] in DIM3)


def typing_copy(norm):
    """A copy of ``norm`` whose CUDA constructs are CPU stand-ins of the same types (for typing only)."""
    body = [_StandIns().visit(copy.deepcopy(s)) for s in norm.body]
    body = [ast.fix_missing_locations(s) for s in body]
    return dataclasses.replace(norm, body=body)

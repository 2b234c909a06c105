"""Adjoint rules of single normalised statements (the statement-level table).

Each rule returns the reverse-sweep statements of one forward statement; the
loop- and block-level strategies live in :mod:`adtrans.transform.builder`.

| kind         | forward statement | reverse statements                               |
|--------------|-------------------|--------------------------------------------------|
| ``copy``     | ``x = a``         | ``da += dx; dx = 0``                             |
| ``binop`` ...| ``x = f(a, b)``   | ``da += dx * df/da; db += dx * df/db; dx = 0``   |
| ``load``     | ``x = A[i]``      | ``dA[i] += dx; dx = 0``                          |
| ``store``    | ``A[i] = v``      | ``dv += dA[i]; dA[i] = 0``                       |
| ``accumulate``| ``A[i] += v``, ``x += v`` | ``dv += dA[i]``, ``dv += dx``           |
| ``carried``  | ``barrier()``...  | the reverse the target attached to the call      |
| ``product``  | ``P = A @ B.T``   | ``dA += dP @ B; dB += dP.T @ A`` (BLAS, :mod:`.linalg`) |
| ``lapack``   | ``x = np.linalg.solve(A, b)`` | ``t = solve(A.T, dx); db += t; dA -= t x^T`` (:mod:`.linalg`) |

:func:`statement_kind` finds the row, :attr:`StatementRules.TABLE` the rule;
``df/da`` comes from :mod:`adtrans.rules.derivatives` (``binop``, ``unaryop``,
``call``).  ``dx = 0`` is added by the builder (``kill_adjoint``).
"""
from __future__ import annotations

import ast
import copy

from ..analyse.types import is_array
from ..ir.nodes import add_to, name
from ..ir.walk import is_lapack, is_product, lapack_operands
from .linalg import lapack_adjoint, product_adjoint
from .scalar import INTRINSIC, partials


def call_kind(value) -> str | None:
    """Which rule family a normalised right-hand side belongs to."""
    if isinstance(value, ast.BinOp):
        return "binop"
    if isinstance(value, ast.UnaryOp):
        return "unaryop" if not isinstance(value.op, ast.Not) else None
    if isinstance(value, ast.Call):
        return "call"
    return None


def statement_kind(s) -> str | None:
    """The row of the table above that statement ``s`` belongs to (None: no reverse)."""
    if isinstance(s, ast.Expr):
        return "carried"
    if isinstance(s, ast.Assign):
        t, v = s.targets[0], s.value
        if isinstance(t, ast.Subscript):
            return "store"
        if not isinstance(t, ast.Name):
            return None
        if isinstance(v, ast.Name):
            return "copy"
        if is_lapack(v):
            return "lapack"
        if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name):
            return "load"
        if isinstance(v, ast.Constant) or v is None:
            return None
        if is_product(v):
            return "product"
        return call_kind(v)             # "binop" / "unaryop" / "call" / None
    if isinstance(s, ast.AugAssign):
        return "accumulate"
    return None


class StatementRules:
    """Instantiates the table above for one kernel; ``b`` is the builder (activity, names).

    :attr:`TABLE` maps each statement kind (:func:`statement_kind`) to its rule;
    operations (``binop``, ``unaryop``, ``call``) take their partial derivatives
    from :mod:`adtrans.rules.derivatives`.
    """

    TABLE = {
        "carried": "carried",
        "copy": "assign_name",
        "load": "load",
        "binop": "operation",
        "unaryop": "operation",
        "call": "operation",
        "store": "store",
        "accumulate": "accumulate",
        "product": "product",
        "lapack": "lapack",
    }

    def __init__(self, builder):
        self.b = builder

    def cast_for(self, adj_target: str) -> str | None:
        return self.b.cast_of(adj_target)

    def reverse(self, s: ast.stmt) -> list[ast.stmt]:
        """Reverse-sweep statements of the forward statement ``s``."""
        kind = statement_kind(s)
        rule = self.TABLE.get(kind)
        if rule is None:
            return []
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and not self.b.is_active(s.targets[0].id):
            return []
        return getattr(self, rule)(s, kind)

    def adj_add(self, x: str, value: ast.expr, sub=False) -> ast.stmt:
        """``d_x += value`` (``-=`` with ``sub``)."""
        return add_to(name(self.b.adj(x), True), value, self.cast_for(x), sub=sub)

    # -- the rules (``s``: the statement, ``kind``: its row)
    def carried(self, s, kind):
        """A target's statement call (e.g. a barrier) carries its own reverse."""
        return [copy.deepcopy(r) for r in getattr(s, "adtrans_reverse", ())]

    def assign_name(self, s, kind):
        """``x = a``: ``da += dx`` (an array name bound to another array aliases it, and so do
        their shadows: nothing to add)."""
        x, v = s.targets[0].id, s.value
        if self.b.is_active(v.id) and not is_array(self.b.types.get(x)):
            return [self.adj_add(v.id, name(self.b.adj(x)))]
        return []

    def load(self, s, kind):
        """``x = A[i]``: ``dA[i] += dx``."""
        arr = s.value.value.id
        if self.b.is_active(arr):
            return [self.b.shadow_add(arr, s.value.slice, name(self.b.adj(s.targets[0].id)))]
        return []

    def operation(self, s, kind):
        """``x = f(a, b)``: ``da += g * df/da`` for each active argument (table partials)."""
        b, x, v = self.b, s.targets[0].id, s.value
        if kind == "call":
            op = b.intrinsic_key(v)
            args = list(v.args)
            active = [a for a in args if isinstance(a, ast.Name) and b.is_active(a.id)]
            # the user's spelling of the first active argument (not a temporary's name)
            spelled = getattr(v, "adtrans_args", None)
            first = spelled[args.index(active[0])] if active and spelled and len(spelled) == len(args) \
                else (active[0].id if active else "")
            if op is None:
                if active and getattr(v, "adtrans_kind", None) == "norule":
                    raise b.error(v, f"call to `{ast.unparse(v.func)}` with an active argument "
                                     f"(`{first}`), which has no adjoint rule",
                                  "pass it only constant arguments, or use math/NumPy functions "
                                  "with rules (adtrans.rules.derivatives)")
                return []  # allocation / opaque: nothing to propagate
            rule = INTRINSIC[op]
            if rule.constant_only and active:
                raise b.error(v, f"`{ast.unparse(v.func)}` of an active value (`{first}`)",
                              rule.constant_only)
        else:
            args = [v.left, v.right] if kind == "binop" else [v.operand]
            op = v.op
        out = []
        for i, expr in partials(kind, op, args, name(x), name(b.adj(x))):
            a = args[i]
            if isinstance(a, ast.Name) and b.is_active(a.id):
                out.append(self.adj_add(a.id, expr))
        return out

    def store(self, s, kind):
        """``A[i] = v``: ``dv += dA[i]; dA[i] = 0``."""
        b, t, v = self.b, s.targets[0], s.value
        arr = t.value.id
        if not b.is_active(arr):
            return []
        out = []
        if isinstance(v, ast.Name) and b.is_active(v.id):
            out.append(self.adj_add(v.id, b.shadow_read(arr, t.slice)))
        out.append(b.shadow_kill(arr, t.slice))
        return out

    def product(self, s, kind):
        """``P = X @ Y`` (a BLAS product, operands ``A`` / ``A.T``): ``dA += G @ Y.T`` and
        ``dB += X.T @ G`` as whole-array BLAS statements (:func:`.linalg.product_adjoint`)."""
        b, p, v = self.b, s.targets[0].id, s.value
        out = []
        for arr, expr in product_adjoint(v, b.operand_ndims(v), b.adj(p)):
            if b.is_active(arr):
                out.append(ast.AugAssign(target=name(b.adj(arr), True), op=ast.Add(), value=expr))
        return out

    def lapack(self, s, kind, fresh=None):
        """``x = np.linalg.solve(A, b)`` and the other kept LAPACK calls: the rule of
        :data:`adtrans.rules.derivatives.LAPACK` (:func:`.linalg.lapack_adjoint`), whole-array
        LAPACK/BLAS statements; temporaries only where an operand that reads them is active.
        ``fresh``: names for the temporaries (default: new names of the kernel)."""
        b, x, v = self.b, s.targets[0].id, s.value
        ndims = tuple((b.types[a] if a in b.types else b.norm.global_arrays[a]).ndim for a in lapack_operands(v))
        temps, updates = lapack_adjoint(v, x, b.adj(x), ndims, fresh or b.norm.alloc.fresh)
        updates = [(arr, sub, e) for arr, sub, e in updates if b.is_active(arr)]
        used = {n.id for _, _, e in updates for n in ast.walk(e) if isinstance(n, ast.Name)}
        out = [ast.Assign(targets=[name(t, True)], value=e) for t, e in temps if t in used]
        for arr, sub, e in updates:
            out.append(ast.AugAssign(target=name(b.adj(arr), True), op=ast.Sub() if sub else ast.Add(), value=e))
        return out

    def accumulate(self, s, kind):
        """``A[i] += v`` / ``x += v`` (``-=``): ``dv += dA[i]`` / ``dv += dx``."""
        b, t, v = self.b, s.target, s.value
        sub = isinstance(s.op, ast.Sub)
        if not (isinstance(v, ast.Name) and b.is_active(v.id)):
            return []
        if isinstance(t, ast.Subscript):
            if not b.is_active(t.value.id):
                return []
            return [self.adj_add(v.id, b.shadow_read(t.value.id, t.slice), sub=sub)]
        if b.is_active(t.id):
            return [self.adj_add(v.id, name(b.adj(t.id)), sub=sub)]
        return []


def copy_expr(e):
    return copy.deepcopy(e)

"""Helpers to walk normalised statements: what each statement reads and writes."""
from __future__ import annotations

import ast
from collections import deque

_AST = ast.AST
_NAME = ast.Name


def iter_nodes(node):
    """Every node under ``node`` (itself included), in the order of :func:`ast.walk`
    (breadth first), without its per-node generator overhead (the transformation walks
    small trees many times; this is its most frequent operation)."""
    todo = deque([node])
    pop, push = todo.popleft, todo.append
    while todo:
        n = pop()
        for f in n._fields:
            v = getattr(n, f, None)
            if type(v) is list:
                for x in v:
                    if isinstance(x, _AST):
                        push(x)
            elif isinstance(v, _AST):
                push(v)
        yield n


def _names(node, want) -> set[str]:
    """Ids of the ``ast.Name`` nodes under ``node`` whose ``ctx`` passes ``want(ctx)``."""
    out = set()
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        if type(n) is _NAME:
            if want(getattr(n, "ctx", None)):
                out.add(n.id)
            continue
        for f in n._fields:
            v = getattr(n, f, None)
            if type(v) is list:
                for x in v:
                    if isinstance(x, _AST):
                        push(x)
            elif isinstance(v, _AST):
                push(v)
    return out


def loaded_names(node) -> set[str]:
    """Names ``node`` (an expression or statement, nested statements included) reads:
    ``{n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}``."""
    return _names(node, lambda c: type(c) is ast.Load)


def stored_names(node) -> set[str]:
    """Names ``node`` (nested statements included) assigns (``Name`` nodes in ``Store`` context)."""
    return _names(node, lambda c: type(c) is ast.Store)


def unstored_names(node) -> set[str]:
    """Names under ``node`` not in ``Store`` context (reads, and names built without a context)."""
    return _names(node, lambda c: type(c) is not ast.Store)


def all_names(node) -> set[str]:
    """Every name under ``node``, whatever its context."""
    return _names(node, lambda c: True)


def dotted(node) -> str:
    """``ast.unparse(node)``, short-cut for names and attribute chains (``np.exp``), the
    callees the passes ask about most."""
    parts = []
    cur = node
    while type(cur) is ast.Attribute:
        parts.append(cur.attr)
        cur = cur.value
    if type(cur) is _NAME:
        parts.append(cur.id)
        return ".".join(reversed(parts))
    return ast.unparse(node)


def iter_stmts(body, parents=()):
    """Yield ``(stmt, parents)`` for every statement, depth first in program order."""
    for s in body:
        yield s, parents
        if isinstance(s, (ast.For, ast.While)):
            yield from iter_stmts(s.body, parents + (s,))
        elif isinstance(s, ast.If):
            yield from iter_stmts(s.body, parents + (s,))
            yield from iter_stmts(s.orelse, parents + (s,))


def reads(node) -> set[str]:
    """Names read by an expression or by a statement's own header (not its body)."""
    if isinstance(node, ast.stmt):
        if isinstance(node, ast.Assign):
            out = reads(node.value)
            t = node.targets[0]
            if isinstance(t, ast.Subscript):
                out |= reads(t.slice) | {t.value.id}
            return out
        if isinstance(node, ast.AugAssign):
            out = reads(node.value)
            t = node.target
            if isinstance(t, ast.Subscript):
                return out | reads(t.slice) | {t.value.id}
            return out | {t.id}
        if isinstance(node, ast.For):
            return reads(node.iter)
        if isinstance(node, (ast.While, ast.If)):
            return reads(node.test)
        return loaded_names(node)
    return loaded_names(node) - _FUNC_PARTS


#: names that are part of a called function in normalised code, not values it reads
_FUNC_PARTS = frozenset(("math", "np", "numba", "abs", "min", "max", "float", "int", "len", "range", "bool",
                         "round"))


def scalar_target(s) -> str | None:
    """The scalar a statement assigns (``x = ...``, ``x += ...``, loop variable), else None."""
    if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
        return s.targets[0].id
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
        return s.target.id
    if isinstance(s, ast.For):
        return s.target.id
    return None


def array_target(s) -> str | None:
    """The array a statement stores into (``A[i] = v``, ``A[i] += v``), else None."""
    t = s.targets[0] if isinstance(s, ast.Assign) else getattr(s, "target", None)
    if isinstance(s, (ast.Assign, ast.AugAssign)) and isinstance(t, ast.Subscript):
        return t.value.id
    return None


def array_reads(s) -> set[str]:
    """Arrays a simple statement reads elements of (``x = A[i]``; every element for ``x = A @ B``)."""
    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript) and isinstance(s.value.value, ast.Name):
        return {s.value.value.id}
    if isinstance(s, ast.Assign) and is_product(s.value):
        return set(product_operands(s.value))
    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) and getattr(s.value, "adtrans_kind", None) == \
            "opaque" and (dotted(s.value.func) or "").startswith(("np.", "special.")):
        # a NumPy call of whole arrays without a derivative (np.count_nonzero(m), np.argsort(x)): it
        # reads every element of its array arguments (names of scalars among them are never stored
        # into); len(x) reads only the extent
        return {a.id for a in s.value.args if isinstance(a, ast.Name)}
    if isinstance(s, ast.Assign) and is_lapack(s.value):
        return set(lapack_operands(s.value))
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Subscript):
        return set()
    return set()


def assigned_names(body) -> set[str]:
    out = set()
    for s, _ in iter_stmts(body):
        t = scalar_target(s)
        if t:
            out.add(t)
    return out


def forward_only(s) -> bool:
    """A statement kept in the forward sweep only, with nothing to differentiate: ``raise``,
    ``print(...)`` and the random draws (``np.random.seed(s)``, ``draws[k] = np.random.random()``:
    see :mod:`adtrans.normalise.draws`); a recomputation does not repeat it."""
    if isinstance(s, ast.Raise):
        return True
    if isinstance(s, ast.Expr) and getattr(s, "adtrans_kind", None) == "print":
        return True
    return is_draw(s)


def is_draw(s) -> bool:
    """``np.random.seed(s)`` or ``draws[k] = np.random.standard_normal()``: a statement that calls
    NumPy's generator (it must run once, where the primal runs it)."""
    v = s.value if isinstance(s, (ast.Expr, ast.Assign)) else None
    return isinstance(v, ast.Call) and (getattr(v, "adtrans_kind", None) == "draw" or
                                        dotted(v.func).startswith("np.random."))


def is_alloc(value) -> bool:
    return isinstance(value, ast.Call) and dotted(value.func) in (
        "np.zeros", "np.empty", "np.ones", "np.zeros_like", "np.empty_like", "np.ones_like", "np.full")


def is_product(value) -> bool:
    """A BLAS product the array lowering kept whole (``A @ B``, ``A.T @ B``; see
    :mod:`adtrans.rules.linalg`): it makes a fresh array (or a float) from whole arrays."""
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.MatMult)


def product_operands(value) -> list[str]:
    """The arrays a BLAS product reads, by name (``A`` for ``A.T``)."""
    return [x.value.id if isinstance(x, ast.Attribute) else x.id for x in (value.left, value.right)]


def is_lapack(value) -> bool:
    """A dense linear-algebra call the array lowering kept whole (``np.linalg.solve(A, b)``,
    ``np.linalg.slogdet(A)[1]``; see :data:`adtrans.rules.linalg.LAPACK`): it reads whole arrays."""
    return getattr(value, "adtrans_lapack", None) is not None


def lapack_operands(value) -> list[str]:
    """The arrays a kept LAPACK call reads, by name."""
    call = value.value if isinstance(value, ast.Subscript) else value
    return [a.id for a in call.args]


def makes_array(s) -> bool:
    """``x = np.zeros(...)``, ``x = A @ B`` or ``x = np.linalg.solve(A, b)``: the statement binds
    ``x`` to a fresh array."""
    return isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and (
        is_alloc(s.value) or ((is_product(s.value) or is_lapack(s.value))
                              and bool(getattr(s.value, "adtrans_linalg", 0))))


def rewrite_stmts(stmts, fn):
    """Rebuild a statement list bottom-up: nested ``body``/``orelse`` lists first, then each
    statement is replaced by ``fn(stmt)`` (a list of statements; empty bodies get ``pass``)."""
    out = []
    for s in stmts:
        for field in ("body", "orelse"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, rewrite_stmts(getattr(s, field), fn) or
                        ([ast.Pass()] if field == "body" else []))
        out.extend(fn(s))
    return out


def const_int(e):
    """The value of an integer expression of constants, ``+``, ``-``, ``*``, ``//`` and ``%`` (a
    nonzero divisor; Python's rounding) (else None)."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        v = const_int(e.operand)
        return None if v is None else -v
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
        a, b = const_int(e.left), const_int(e.right)
        if a is None or b is None or (b == 0 and isinstance(e.op, (ast.FloorDiv, ast.Mod))):
            return None
        if isinstance(e.op, ast.FloorDiv):
            return a // b
        if isinstance(e.op, ast.Mod):
            return a % b
        return a + b if isinstance(e.op, ast.Add) else a - b if isinstance(e.op, ast.Sub) else a * b
    return None

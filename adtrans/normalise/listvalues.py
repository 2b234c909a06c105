"""What the two list passes (:mod:`.comprehensions`, :mod:`.lists`) share: :class:`ListInfo`, the
forms that make a new list (:func:`creation`), values that are integers or booleans by construction
(:func:`is_int`, :func:`int_names`, :func:`is_bool`; they choose a list's element dtype) and small
AST builders."""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numba

from ..ir.nodes import name
from ..ir.walk import iter_nodes


@dataclass
class ListInfo:
    """A list of the kernel: ``length`` (the expression of its length), ``param`` (an argument),
    ``dtype`` (of ``empty_list(dtype)``, else None: inferred), ``growable`` (appends in ``while``
    loops are counted as none: the draw buffers of :mod:`.draws`, which the CPU target grows when
    a store finds them full, :func:`adtrans.targets.cpu.grow_draw_buffers`), ``row`` (a list of 1-d
    arrays: their length, the second dimension of its 2-D buffer, :mod:`.listrows`)."""
    length: ast.expr
    param: bool = False
    dtype: str | None = None
    growable: bool = False
    row: ast.expr | None = None


def mk_call(func, *args, keywords=()):
    if isinstance(func, str):
        func = ast.parse(func, mode="eval").body
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def at_line(node, like):
    if hasattr(like, "lineno"):
        for n in iter_nodes(node):
            if not hasattr(n, "lineno") and isinstance(n, (ast.stmt, ast.expr)):
                ast.copy_location(n, like)
    return node


def assign(target, value, like):
    t = name(target, True) if isinstance(target, str) else target
    return at_line(ast.Assign(targets=[t], value=value), like)


def binop(l, op, r):
    return ast.BinOp(left=l, op=op, right=r)


def canon_of(nz, func):
    dotted = nz.resolver.dotted(func)
    if dotted is None or dotted.split(".")[0] in nz.locals:
        return None
    return nz.resolver.canonical(dotted)


def is_typed_list(nz, func) -> bool:
    dotted = nz.resolver.dotted(func)
    if dotted is None or dotted.split(".")[0] in nz.locals:
        return False
    found, obj = nz.resolver.lookup(dotted)
    if found:
        return obj is numba.typed.List
    return nz.resolver.canonical(dotted) in ("numba.typed.List", "numba.typed.typedlist.List")


def creation(nz, v):
    """``(kind, payload)`` when ``v`` makes a new list: ("literal", elements), ("repeat", (value, n)),
    ("typed", dtype or None); else None."""
    if isinstance(v, ast.List):
        return "literal", list(v.elts)
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult):
        for lst, n in ((v.left, v.right), (v.right, v.left)):
            if isinstance(lst, ast.List) and len(lst.elts) == 1:
                return "repeat", (lst.elts[0], n)
    if isinstance(v, ast.Call) and not v.args and not v.keywords:
        if canon_of(nz, v.func) == "builtins.list" or is_typed_list(nz, v.func):
            return "typed", None
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "empty_list" \
            and is_typed_list(nz, v.func.value) and len(v.args) == 1:
        dotted = nz.resolver.dotted(v.args[0]) or ""
        short = nz.resolver.canonical(dotted).split(".")[-1] if dotted else ""
        return "typed", {"float64": "float64", "float32": "float32", "int64": "int64", "intp": "int64",
                         "int32": "int32", "boolean": "bool_", "bool_": "bool_"}.get(short, "float64")
    return None


# --------------------------------------------------------- integer values
_INT_CALLS = {"builtins.len", "builtins.int", "builtins.round", "numpy.int64", "numpy.int32", "numpy.intp"}


def is_int(e, ints, nz) -> bool:
    """Whether ``e`` is an integer by construction: integer constants, `range` indices, `len`, `.shape[k]`,
    integer parameters, elements of integer arrays and lists, and `+ - * // %` of those."""
    if isinstance(e, ast.Constant):
        return type(e.value) is int
    if isinstance(e, ast.Name):
        if e.id in ints:
            return True
        st = getattr(nz, "scalar_types", {}).get(e.id) if e.id in nz.p.params else None
        if st is not None:
            return st.startswith("int")
        if e.id not in nz.locals:
            found, obj = nz.resolver.lookup(e.id)
            return found and type(obj) is int
        return False
    if isinstance(e, ast.BinOp):
        return isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and \
            is_int(e.left, ints, nz) and is_int(e.right, ints, nz)
    if isinstance(e, ast.UnaryOp):
        return isinstance(e.op, (ast.USub, ast.UAdd)) and is_int(e.operand, ints, nz)
    if isinstance(e, ast.IfExp):
        return is_int(e.body, ints, nz) and is_int(e.orelse, ints, nz)
    if isinstance(e, ast.Subscript):
        if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
            return True
        if not isinstance(e.value, ast.Name) or isinstance(e.slice, ast.Slice):
            return False
        arr = (nz.array_info or {}).get(e.value.id)
        lst = nz.list_info.get(e.value.id)
        dtype = arr[1] if arr is not None else lst.dtype if lst is not None and not lst.param else \
            nz.list_params.get(e.value.id)
        return str(dtype).startswith("int")
    if isinstance(e, ast.Attribute):
        return e.attr in ("size", "ndim")
    if isinstance(e, ast.Call):
        canon = canon_of(nz, e.func)
        if canon in _INT_CALLS:
            return True
        if canon in ("builtins.min", "builtins.max", "builtins.abs") and e.args:
            return all(is_int(a, ints, nz) for a in e.args)
    return False


def is_bool(e) -> bool:
    """Whether ``e`` is a boolean by construction (comparisons, ``and``/``or``/``not``, True/False)."""
    if isinstance(e, ast.Constant):
        return type(e.value) is bool
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return True
    return isinstance(e, (ast.Compare, ast.BoolOp))


def int_names(nz, tree) -> set:
    """Local names every assignment of which is an integer (the greatest such set)."""
    defs: dict = {}
    for n in iter_nodes(tree):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for x in iter_nodes(t):
                    if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                        defs.setdefault(x.id, []).append(n.value if t is x else None)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            defs.setdefault(n.target.id, []).append(binop(name(n.target.id), n.op, n.value))
        elif isinstance(n, (ast.For, ast.comprehension)):
            loop = isinstance(n.iter, ast.Call) and (canon_of(nz, n.iter.func) or "").split(".")[-1] in \
                ("range", "prange")
            for x in iter_nodes(n.target):
                if isinstance(x, ast.Name):
                    defs.setdefault(x.id, []).append(ast.Constant(0) if loop and x is n.target else None)
    ints = {k for k in defs if k not in nz.p.params}
    changed = True
    while changed:
        changed = False
        for k in sorted(ints):
            if not all(v is not None and is_int(v, ints, nz) for v in defs[k]):
                ints.discard(k)
                changed = True
    return ints

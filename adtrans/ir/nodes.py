"""The one AST node builder of adtrans: names, in-place additions, atoms."""
from __future__ import annotations

import ast


def name(id_, store=False):
    """``ast.Name`` for ``id_`` (a load, or a store with ``store=True``)."""
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def add_to(target: ast.expr, value: ast.expr, cast: str | None = None, sub=False) -> ast.stmt:
    """``target += value`` (cast to ``cast``, e.g. ``np.float32``, to keep the adjoint's precision)."""
    if cast:
        value = ast.Call(func=ast.parse(cast, mode="eval").body, args=[value], keywords=[])
    return ast.AugAssign(target=target, op=ast.Sub() if sub else ast.Add(), value=value)


class Rename(ast.NodeTransformer):
    """Rename names by ``mapping`` (every occurrence, or with ``loads_only`` only reads)."""

    def __init__(self, mapping: dict, loads_only: bool = False):
        self.mapping, self.loads_only = mapping, loads_only

    def visit_Name(self, node):
        ctx = getattr(node, "ctx", None) or ast.Load()
        if node.id in self.mapping and not (self.loads_only and isinstance(ctx, ast.Store)):
            return ast.copy_location(ast.Name(id=self.mapping[node.id], ctx=ctx), node)
        return node

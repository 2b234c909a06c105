"""``...`` in array indices, written out as the full slices it stands for.

Why: users write ``r[..., 0]``, ``X[..., None]``, ``T[0, ...]`` (Numba compiles them); the
lowering of indices (:mod:`.arrays`) knows integer, slice, ``None`` and index-array positions
only.  Where the number of dimensions of the indexed array is known, ``...`` is replaced by as
many ``:`` as there are axes the other positions leave (``None`` takes no axis), so ``r[..., 0]``
of a 1-d ``r`` is ``r[0]`` and ``A[..., 1:]`` of a 2-d ``A`` is ``A[:, 1:]``.  An index with two
``...`` (an IndexError in NumPy) or of an array whose dimensions are not known is left as written
(refused later with its line).
"""
from __future__ import annotations

import ast


def _is_ellipsis(x) -> bool:
    return isinstance(x, ast.Constant) and x.value is Ellipsis


def expand_ellipsis(stmt: ast.stmt, ndim, newaxis) -> ast.stmt:
    """``stmt`` with every ``x[..., k]`` whose ``ndim(x) > 0`` written out (inner indices first);
    ``ndim(expr)``: static number of dimensions, ``newaxis(expr)``: whether it is ``None``/
    ``np.newaxis``."""
    if not any(_is_ellipsis(n) for n in ast.walk(stmt)):
        return stmt

    class Expand(ast.NodeTransformer):
        def visit_Subscript(self, node):
            self.generic_visit(node)
            elts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
            dots = [k for k, x in enumerate(elts) if _is_ellipsis(x)]
            if len(dots) != 1:
                return node
            d = ndim(node.value)
            if d <= 0:
                return node
            used = sum(1 for x in elts if not _is_ellipsis(x) and not newaxis(x))
            fill = [ast.Slice(lower=None, upper=None, step=None) for _ in range(max(d - used, 0))]
            k = dots[0]
            new = elts[:k] + fill + elts[k + 1:]
            if not new:
                new = [ast.Slice(lower=None, upper=None, step=None)]
            node.slice = ast.copy_location(ast.Tuple(elts=new, ctx=ast.Load()), node.slice) if len(new) > 1 \
                else new[0]
            return node
    out = Expand().visit(stmt)
    ast.fix_missing_locations(out)
    return out

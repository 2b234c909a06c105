"""Array-level adjoints of BLAS products (the transpose rules; JAX's ``dot_general`` transpose).

A product the array lowering kept whole (``P = X @ Y`` with ``X`` either ``A`` or ``A.T`` and
``Y`` either ``B`` or ``B.T``, float64; see :mod:`adtrans.normalise.arrays`) gets its adjoint as
whole-array statements that Numba compiles to BLAS calls again, with ``G`` the adjoint of ``P``:

| product (shapes)               | adjoint of ``X``        | adjoint of ``Y``        |
|--------------------------------|-------------------------|-------------------------|
| matrix-matrix ``(m,k) @ (k,n)``| ``dX += G @ Y.T``       | ``dY += X.T @ G``       |
| matrix-vector ``(m,k) @ (k,)`` | ``dX += outer(G, Y)``   | ``dY += X.T @ G``       |
| vector-matrix ``(k,) @ (k,n)`` | ``dX += Y @ G``         | ``dY += outer(X, G)``   |

An operand written transposed (``X = A.T``) receives the transpose: ``dA += dX.T``, spelled
without the transpose of a product (``(G @ Y.T).T = Y @ G.T``).  Source: the matrix product
rule d(XY) = dX Y + X dY (Magnus & Neudecker, *Matrix Differential Calculus*, 3rd ed., ch. 9;
Giles, "Collected matrix derivative results for forward and reverse mode AD", 2008, sec. 2.2).
"""
from __future__ import annotations

import ast

from ..ir.nodes import name
from .derivatives import LAPACK


def _t(e):
    return ast.Attribute(value=e, attr="T", ctx=ast.Load())


def _mm(a, b):
    return ast.BinOp(left=a, op=ast.MatMult(), right=b)


def _outer(a, b):
    return ast.Call(func=ast.Attribute(value=name("np"), attr="outer", ctx=ast.Load()), args=[a, b], keywords=[])


def _operand(x):
    """``(array name, transposed)`` of a product operand ``A`` / ``A.T``."""
    if isinstance(x, ast.Attribute):
        return x.value.id, True
    return x.id, False


def _spell(arr, transposed):
    """``A`` or ``A.T`` (an operand as the product read it)."""
    return _t(name(arr)) if transposed else name(arr)


def product_shape(product: ast.BinOp, ndims: tuple) -> ast.Tuple:
    """The shape of ``X @ Y`` from its operands' shapes (``(A.shape[0], B.shape[1])``, with the
    axes swapped for a transposed operand), so that allocating the product's adjoint does not
    read the product: the forward sweep can drop a product nothing else reads.  ``ndims`` as
    in :func:`product_adjoint`."""
    (a, ta), (b, tb) = _operand(product.left), _operand(product.right)
    nx, ny = ndims

    def extent(arr, axis):
        return ast.Subscript(value=ast.Attribute(value=name(arr), attr="shape", ctx=ast.Load()),
                             slice=ast.Constant(axis), ctx=ast.Load())
    dims = ([extent(a, 1 if ta else 0)] if nx == 2 else []) + ([extent(b, 0 if tb else 1)] if ny == 2 else [])
    return ast.Tuple(elts=dims, ctx=ast.Load())


def product_adjoint(product: ast.BinOp, ndims: tuple, g: str) -> list:
    """The adjoints of a BLAS product ``X @ Y`` as ``[(array, expression), ...]``: ``array`` (the
    name of ``A`` in ``X = A`` or ``X = A.T``) receives ``d_A += expression``.

    ``product``: the ``BinOp`` (operands ``A`` / ``A.T``); ``ndims``: (ndim of X, ndim of Y),
    each 1 or 2 (a vector's ``.T`` is itself); ``g``: the name of the adjoint of the result
    (an array of the result's shape).  Both operands are returned; the caller keeps the active
    ones.  Raises ``ValueError`` for a vector-vector product (kept as loops by the lowering).
    """
    (a, ta), (b, tb) = _operand(product.left), _operand(product.right)
    nx, ny = ndims
    G = name(g)
    X, Y = _spell(a, ta), _spell(b, tb)
    if (nx, ny) == (2, 2):
        # dX = G @ Y.T -> dA = dX (or dX.T = Y @ G.T);  dY = X.T @ G -> dB = dY (or dY.T = G.T @ X)
        da = _mm(_spell(b, tb), _t(G)) if ta else _mm(G, _spell(b, not tb))
        db = _mm(_t(G), _spell(a, ta)) if tb else _mm(_spell(a, not ta), G)
    elif (nx, ny) == (2, 1):
        # dX = outer(G, y);  dy = X.T @ G
        da = _outer(Y, G) if ta else _outer(G, Y)
        db = _mm(_spell(a, not ta), G)
    elif (nx, ny) == (1, 2):
        # dx = Y @ G;  dY = outer(x, G)
        da = _mm(_spell(b, tb), G)
        db = _outer(G, X) if tb else _outer(X, G)
    else:
        raise ValueError(f"no BLAS rule for a product of {nx}-D and {ny}-D operands")
    return [(a, da), (b, db)]


# ------------------------------------------------------------------ LAPACK
def lapack_call(value):
    """``(function, operand names, part)`` of a kept LAPACK statement's value
    (``np.linalg.solve(A, b)`` -> ``("linalg.solve", ["A", "b"], None)``; ``np.linalg.slogdet(A)[1]``
    -> ``("linalg.slogdet", ["A"], 1)``)."""
    func, part = value.adtrans_lapack, None
    if isinstance(value, ast.Subscript):
        part, value = value.slice.value, value.value
    return func, [a.id for a in value.args], part


class _Names(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        return name(self.names[node.id]) if node.id in self.names else node


def _fill(template: str, names: dict):
    return _Names(names).visit(ast.parse(template, mode="eval").body)


def lapack_adjoint(value, result: str, g: str, ndims: tuple, fresh) -> tuple:
    """The reverse of ``result = value`` for a kept LAPACK call, from its entry in
    :data:`adtrans.rules.derivatives.LAPACK` (the one table; drivers read it too).

    ``g``: the name of the adjoint of ``result``; ``ndims``: the operands' numbers of dimensions;
    ``fresh(base)``: a new name.  Returns ``(temps, updates)``: ``temps`` a list of ``(name,
    expression)`` to assign first, ``updates`` a list of ``(array, subtract, expression)``, meaning
    ``d_array += expression`` (``-=`` where ``subtract``).  A tuple's piecewise-constant part
    (``slogdet``'s sign) has none; a refused one never reaches here (the lowering refuses it)."""
    func, ops, part = lapack_call(value)
    rule = LAPACK[func].part(part)
    if rule.constant:
        return [], []
    names = dict(zip(LAPACK[func].args, ops), z=result, G=g)
    temps = []
    for t, template in rule.temps:
        names[t] = fresh(g + "_solved" if t == "t" else t)
        temps.append((names[t], _fill(template, names)))
    reverse = rule.vector if rule.vector and ndims[-1] == 1 else rule.reverse
    return temps, [(names[arg], sign == "-", _fill(template, names)) for arg, sign, template in reverse]

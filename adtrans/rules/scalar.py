"""Instantiating the derivative table (:mod:`adtrans.rules.derivatives`) in either mode.

- reverse: :func:`partials` gives ``g * p_i`` for each argument (the kernel
  statement rules and the driver expression adjoints add it to ``da_i``);
- forward: :func:`jvp` gives ``sum_i p_i * da_i`` (the tangent of ``z``);
  :func:`jvp_value` evaluates it numerically (used by the tests to check the
  table against finite differences).

Templates are parsed once and instantiated by substitution.  Multiplying a
partial by ``g`` is simplified so the code stays as direct as hand-written
adjoints: ``1 -> g``, ``-1 -> -g``, ``0 -> 0.0``, ``-p -> -(g * p)``,
``p * q -> (g * p) * q``, ``p / q -> (g * p) / q``, and a conditional
multiplies each branch.  :func:`elementwise` respells an instantiated template
for NumPy arrays (``math.cos -> _np.cos``, ``a if t else b -> _np.where(t, a, b)``).
"""
from __future__ import annotations

import ast
import copy
import math

import numpy as np

from .. import special
from .derivatives import BINOP, INTRINSIC, UNARYOP, Rule, intrinsic_of, rule_of, spelling

__all__ = ["BINOP", "INTRINSIC", "UNARYOP", "Rule", "intrinsic_of", "rule_of", "spelling", "partials",
           "jvp", "jvp_value", "guarded_template", "singular_guard", "scale", "instantiate", "substitute", "template", "elementwise"]

_PARSED: dict[str, ast.expr] = {}


def _template(src: str) -> ast.expr:
    tree = _PARSED.get(src)
    if tree is None:
        tree = _PARSED[src] = ast.parse(src, mode="eval").body
    return copy.deepcopy(tree)


class _Subst(ast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        rep = self.mapping.get(node.id)
        return copy.deepcopy(rep) if rep is not None else node


def substitute(expr: ast.expr, args: list, result: ast.expr | None, **more) -> ast.expr:
    """Substitute operands into a (parsed) template: ``a0, a1, ...`` the arguments, ``z`` the
    result, and any further ``name=expr`` (e.g. ``g``); substituted code is not revisited."""
    mapping = {f"a{i}": a for i, a in enumerate(args)}
    mapping["z"] = result
    mapping.update(more)
    return _Subst(mapping).visit(expr)


def template(src: str) -> ast.expr:
    """A fresh copy of the parsed template ``src``."""
    return _template(src)


def instantiate(src: str, args: list, result: ast.expr) -> ast.expr:
    """Substitute operands into template ``src``: ``a0, a1, ...`` the arguments, ``z`` the result."""
    return substitute(_template(src), args, result)


def _const(node, value) -> bool:
    return isinstance(node, ast.Constant) and not isinstance(node.value, bool) and node.value == value


def scale(g: ast.expr, p: ast.expr) -> ast.expr:
    """``g * p`` for a seed ``g`` (an adjoint or a tangent), simplified (see the module docstring)."""
    if _const(p, 1):
        return copy.deepcopy(g)
    if _const(p, 0):
        return ast.Constant(0.0)
    if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub):
        return ast.UnaryOp(op=ast.USub(), operand=scale(g, p.operand))
    if isinstance(p, ast.BinOp) and isinstance(p.op, (ast.Mult, ast.Div)):
        return ast.BinOp(left=scale(g, p.left), op=p.op, right=p.right)
    if isinstance(p, ast.IfExp):
        return ast.IfExp(test=p.test, body=scale(g, p.body), orelse=scale(g, p.orelse))
    return ast.BinOp(left=copy.deepcopy(g), op=ast.Mult(), right=p)


def _templates(kind, op) -> Rule:
    rule = rule_of(kind, op)
    if rule is None:            # e.g. ``not``: no differentiable dependence
        return Rule("", ())
    return rule


def _fold(node):
    """The constant truth value of a condition over constants (``2 < 1.0``), else None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        l, r = _fold(node.left), _fold(node.comparators[0])
        if isinstance(l, (int, float)) and isinstance(r, (int, float)):
            code = compile(ast.fix_missing_locations(ast.Expression(copy.deepcopy(node))), "<fold>", "eval")
            return bool(eval(code, {}))
        return None
    if isinstance(node, ast.BoolOp):
        vals = [_fold(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is False for v in vals):
                return False
            return True if all(v is True for v in vals) else None
        if any(v is True for v in vals):
            return True
        return False if all(v is False for v in vals) else None
    return None


def _simplify_test(node):
    """``node`` (a condition) with constant-true conjuncts dropped (``a == 0.0 and True``)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        rest = [v for v in node.values if _fold(v) is not True]
        return rest[0] if len(rest) == 1 else ast.BoolOp(op=node.op, values=rest)
    return node


def guarded_template(rule: Rule, i: int) -> str:
    """Partial ``i`` of ``rule`` with its singular-point guard (``0.0 if cond else p``, see
    :data:`~adtrans.rules.derivatives.SINGULAR_CONVENTION`), as template source."""
    tpl = rule.partials[i]
    cond = rule.zero_where[i] if i < len(rule.zero_where) else None
    return tpl if cond is None else f"0.0 if {cond} else {tpl}"


def singular_guard(rule: Rule, i: int, args, result, contribution: ast.expr) -> ast.expr:
    """``contribution`` (``g * p_i``), guarded by the rule's singular-point condition for
    argument ``i`` when that condition is not constant-false for these ``args``."""
    cond = rule.zero_where[i] if i < len(rule.zero_where) else None
    if cond is None:
        return contribution
    test = instantiate(cond, args, result)
    truth = _fold(test)
    if truth is False:
        return contribution
    if truth is True:
        return ast.Constant(0.0)
    return ast.IfExp(test=_simplify_test(test), body=ast.Constant(0.0), orelse=contribution)


def partials(kind, op, args, result, grad):
    """Reverse mode: contributions ``[(arg_index, g * p_i)]`` of ``z = op(args)`` to its
    arguments' adjoints, ``grad`` being ``g``, the adjoint of ``z``.

    ``kind`` is ``"binop"``, ``"unaryop"`` or ``"call"`` (``op`` is then the
    canonical intrinsic name).  Arguments with no differentiable dependence are
    left out.
    """
    out = []
    rule = _templates(kind, op)
    for i, tpl in enumerate(rule.partials):
        if tpl is not None and i < len(args):
            out.append((i, singular_guard(rule, i, args, result, scale(grad, instantiate(tpl, args, result)))))
    return out


def jvp(kind, op, args, result, tangents, guarded: bool = False) -> ast.expr:
    """Forward mode: the tangent ``sum_i p_i * da_i`` of ``z = op(args)``.

    ``tangents``: one expression per argument (``None`` for a constant one).
    ``guarded``: each term ``p_i * da_i`` is 0 where the rule's singular-point condition
    holds (:data:`~adtrans.rules.derivatives.SINGULAR_CONVENTION`, as :func:`partials` does), so
    that a tangent of an adjoint follows the same convention as the adjoint.
    Returns ``0.0`` when no argument contributes.
    """
    terms = []
    rule = _templates(kind, op)
    for i, tpl in enumerate(rule.partials):
        if tpl is not None and i < len(args) and i < len(tangents) and tangents[i] is not None:
            term = scale(tangents[i], instantiate(tpl, args, result))
            terms.append(singular_guard(rule, i, args, result, term) if guarded else term)
    if not terms:
        return ast.Constant(0.0)
    total = terms[0]
    for t in terms[1:]:
        total = ast.BinOp(left=total, op=ast.Add(), right=t)
    return total


def jvp_value(name: str, args, tangents):
    """Evaluate intrinsic ``name`` and its tangent at float ``args`` with ``tangents``:
    returns ``(z, dz)`` (the forward engine run on numbers)."""
    env = {"math": math, "np": np, "special": special, "abs": abs, "min": min, "max": max, "float": float}
    f = eval(compile(ast.Expression(ast.parse(spelling(name), mode="eval").body), "<rule>", "eval"), env)
    z = f(*args)
    names = [ast.Name(id=f"x{i}", ctx=ast.Load()) for i in range(len(args))]
    dots = [ast.Name(id=f"t{i}", ctx=ast.Load()) for i in range(len(args))]
    expr = jvp("call", name, names, ast.Name(id="zz", ctx=ast.Load()), dots)
    env.update({f"x{i}": a for i, a in enumerate(args)})
    env.update({f"t{i}": t for i, t in enumerate(tangents)})
    env["zz"] = z
    code = compile(ast.fix_missing_locations(ast.Expression(expr)), "<jvp>", "eval")
    return z, eval(code, env)


_NUMPY_NAME = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "atan2": "arctan2", "asinh": "arcsinh",
               "acosh": "arccosh", "atanh": "arctanh", "pow": "power"}


class _Elementwise(ast.NodeTransformer):
    def __init__(self, np_name):
        self.np_name = np_name

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "special":     # driver runtime: array versions
            return ast.Attribute(value=ast.Name(id="_rt", ctx=ast.Load()), attr=node.attr, ctx=node.ctx)
        if isinstance(node.value, ast.Name) and node.value.id == "math":
            return ast.Attribute(value=ast.Name(id=self.np_name, ctx=ast.Load()),
                                 attr=_NUMPY_NAME.get(node.attr, node.attr), ctx=node.ctx)
        return self.generic_visit(node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        acc = node.values[0]
        for v in node.values[1:]:
            acc = ast.Call(func=ast.Attribute(value=ast.Name(id=self.np_name, ctx=ast.Load()), attr=fn,
                                              ctx=ast.Load()), args=[acc, v], keywords=[])
        return acc

    def visit_IfExp(self, node):
        self.generic_visit(node)
        where = ast.Attribute(value=ast.Name(id=self.np_name, ctx=ast.Load()), attr="where", ctx=ast.Load())
        return ast.Call(func=where, args=[node.test, node.body, node.orelse], keywords=[])


def elementwise(expr: ast.expr, np_name: str = "_np") -> ast.expr:
    """``expr`` respelled for NumPy arrays (``math.f`` -> ``np.f``, conditionals -> ``np.where``)."""
    return _Elementwise(np_name).visit(copy.deepcopy(expr))

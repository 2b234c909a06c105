"""Adjoint rules of scalar operations, written as templates (in the manner of
Google Tangent's ``grads.py``).

For ``z = f(a0, a1, ...)`` each entry lists, per argument, the contribution to
that argument's adjoint given the incoming adjoint ``g`` (the adjoint of ``z``).
``None`` marks an argument the result does not depend on differentiably.
Templates may use the arguments ``a0``, ``a1``, the result ``z`` and ``g``;
they are parsed once and instantiated by substitution.  Derivatives are the
textbook ones (e.g. Abramowitz & Stegun ch. 4); min/max/abs give the whole
adjoint to one side (ties go to the first argument; ``abs`` at 0 takes +1).
"""
from __future__ import annotations

import ast
import copy
import math

import numpy as np

# name -> templates, one per argument
BINOP = {
    ast.Add: ("g", "g"),
    ast.Sub: ("g", "-g"),
    ast.Mult: ("g * a1", "g * a0"),
    ast.Div: ("g / a1", "-(g * z) / a1"),
    ast.Pow: ("g * a1 * a0 ** (a1 - 1)", "g * z * math.log(a0)"),
    ast.Mod: ("g", "-(g * math.floor(a0 / a1))"),
    ast.FloorDiv: (None, None),
}

UNARYOP = {
    ast.USub: ("-g",),
    ast.UAdd: ("g",),
}

# canonical intrinsic name -> (emitted spelling, templates)
INTRINSIC = {
    "exp": ("math.exp", ("g * z",)),
    "expm1": ("math.expm1", ("g * (z + 1.0)",)),
    "log": ("math.log", ("g / a0",)),
    "log1p": ("math.log1p", ("g / (a0 + 1.0)",)),
    "log10": ("math.log10", ("g / (a0 * 2.302585092994046)",)),
    "log2": ("math.log2", ("g / (a0 * 0.6931471805599453)",)),
    "sqrt": ("math.sqrt", ("g / (z + z)",)),
    "cbrt": ("np.cbrt", ("g / (3.0 * z * z)",)),
    "sin": ("math.sin", ("g * math.cos(a0)",)),
    "cos": ("math.cos", ("-(g * math.sin(a0))",)),
    "tan": ("math.tan", ("g * (z * z + 1.0)",)),
    "tanh": ("math.tanh", ("g * (1.0 - z * z)",)),
    "sinh": ("math.sinh", ("g * math.cosh(a0)",)),
    "cosh": ("math.cosh", ("g * math.sinh(a0)",)),
    "asin": ("math.asin", ("g / math.sqrt(1.0 - a0 * a0)",)),
    "acos": ("math.acos", ("-g / math.sqrt(1.0 - a0 * a0)",)),
    "atan": ("math.atan", ("g / (a0 * a0 + 1.0)",)),
    "atan2": ("math.atan2", ("g * a1 / (a0 * a0 + a1 * a1)", "-(g * a0) / (a0 * a0 + a1 * a1)")),
    "hypot": ("math.hypot", ("g * a0 / z", "g * a1 / z")),
    "erf": ("math.erf", ("g * 1.1283791670955126 * math.exp(-(a0 * a0))",)),
    "erfc": ("math.erfc", ("-(g * 1.1283791670955126 * math.exp(-(a0 * a0)))",)),
    "abs": ("abs", ("g if a0 >= 0 else -g",)),
    "min": ("min", ("g if a0 <= a1 else g - g", "g - g if a0 <= a1 else g")),
    "max": ("max", ("g if a0 >= a1 else g - g", "g - g if a0 >= a1 else g")),
    "pow": ("math.pow", ("g * a1 * a0 ** (a1 - 1)", "g * z * math.log(a0)")),
    "copysign": ("math.copysign", ("g * math.copysign(1.0, a0) * math.copysign(1.0, a1)", None)),
    "float": ("float", ("g",)),
    "float64": ("np.float64", ("g",)),
    "float32": ("np.float32", ("g",)),
    # piecewise constant: zero adjoint
    "floor": ("math.floor", (None,)),
    "ceil": ("math.ceil", (None,)),
    "trunc": ("math.trunc", (None,)),
    "sign": ("np.sign", (None,)),
    "isnan": ("math.isnan", (None,)),
    "isinf": ("math.isinf", (None,)),
}

# objects -> canonical intrinsic name (several spellings share one rule)
_OBJECTS = {}
for _name in INTRINSIC:
    for _mod in (math, np):
        _obj = getattr(_mod, {"abs": "fabs"}.get(_name, _name) if _mod is math else _name, None)
        if _obj is not None:
            _OBJECTS[id(_obj)] = _name
for _obj, _name in ((abs, "abs"), (min, "min"), (max, "max"), (float, "float"), (pow, "pow"),
                    (np.abs, "abs"), (np.absolute, "abs"), (np.fabs, "abs"), (np.minimum, "min"),
                    (np.maximum, "max"), (np.power, "pow"), (np.arctan2, "atan2"),
                    (np.arcsin, "asin"), (np.arccos, "acos"), (np.arctan, "atan"),
                    (np.float32, "float32"), (np.float64, "float64"), (math.fabs, "abs")):
    _OBJECTS[id(_obj)] = _name

# canonical dotted spellings (for parsing files without importing them)
_SPELLINGS = {f"math.{n}": n for n in INTRINSIC if hasattr(math, n)}
_SPELLINGS.update({f"numpy.{n}": n for n in INTRINSIC if hasattr(np, n)})
_SPELLINGS.update({"math.fabs": "abs", "numpy.abs": "abs", "numpy.fabs": "abs", "builtins.abs": "abs",
                   "builtins.min": "min", "builtins.max": "max", "builtins.float": "float",
                   "builtins.pow": "pow", "numpy.minimum": "min", "numpy.maximum": "max",
                   "numpy.power": "pow", "numpy.arctan2": "atan2", "numpy.arcsin": "asin",
                   "numpy.arccos": "acos", "numpy.arctan": "atan"})


def intrinsic_of(obj=None, dotted: str | None = None) -> str | None:
    """Canonical intrinsic name of a callee object (or of its dotted spelling), else None."""
    if obj is not None:
        try:
            return _OBJECTS.get(id(obj))
        except TypeError:
            return None
    return _SPELLINGS.get(dotted)


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


def instantiate(template: str, args: list[ast.expr], result: ast.expr, grad: ast.expr) -> ast.expr:
    """Substitute operands into a template: ``a0, a1, ...`` args, ``z`` result, ``g`` adjoint."""
    mapping = {f"a{i}": a for i, a in enumerate(args)}
    mapping["z"], mapping["g"] = result, grad
    return _Subst(mapping).visit(_template(template))


def partials(kind, op, args, result, grad):
    """Contributions ``[(arg_index, expr)]`` of ``z = op(args)`` to its arguments' adjoints.

    ``kind`` is ``"binop"``, ``"unaryop"`` or ``"call"`` (``op`` is then the
    canonical intrinsic name).  Arguments with no differentiable dependence are
    left out.
    """
    if kind == "binop":
        templates = BINOP[type(op)]
    elif kind == "unaryop":
        templates = UNARYOP.get(type(op), (None,))
    else:
        templates = INTRINSIC[op][1]
    out = []
    for i, tpl in enumerate(templates):
        if tpl is not None and i < len(args):
            out.append((i, instantiate(tpl, args, result, grad)))
    return out


def spelling(name: str) -> str:
    """How generated code spells intrinsic ``name`` (e.g. ``math.sqrt``)."""
    return INTRINSIC[name][0]

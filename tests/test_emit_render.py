"""render_function's shortcuts (first-call time) give the text of the full rewrite: unparse a
deep copy with every negative constant base parenthesised; the function itself is left as it was."""
import ast
import copy

import pytest

from adtrans.emit import _NegativeBase, render_function
from adtrans.ir.lines import line_map


def _reference(func, decorator):
    text = ast.unparse(_NegativeBase().visit(copy.deepcopy(func)))
    text = text.replace("__comment__('note')", "# note")
    return (f"@{decorator}\n" if decorator else "") + text


def _func(body_expr):
    tree = ast.parse(f"def f(x, k):\n    __comment__('note')\n    y = {body_expr}\n    return y\n").body[0]
    return tree


def _negative(value):
    """``value ** k`` with ``value`` a Constant (negative constants do not come from parsing)."""
    return ast.BinOp(left=ast.Constant(value), op=ast.Pow(), right=ast.Name("k", ast.Load()))


@pytest.mark.parametrize("expr", ["x ** 2", "-(2 ** k)", "-2 ** k", "x - 2 ** k", "(-0.75) ** 2", "x"])
def test_parsed_expressions(expr):
    func = _func(expr)
    before = ast.dump(func)
    raw = []
    assert render_function(func, "njit", raw=raw) == _reference(func, "njit")
    assert raw == [ast.unparse(func)]
    assert ast.dump(func) == before


@pytest.mark.parametrize("value", [-0.75, -2, -1e-05, -1.5e20, -0.0, float("-inf"), 0.5, 3])
def test_constant_bases(value):
    func = _func("x")
    func.body[1].value = ast.BinOp(left=ast.Name("x", ast.Load()), op=ast.Mult(), right=_negative(value))
    ast.fix_missing_locations(func)
    before = ast.dump(func)
    text = render_function(func, None)
    assert text == _reference(func, None)
    assert ast.dump(func) == before
    assert ("(-" in text) == (value < 0 or str(value).startswith("-"))


def test_line_map_with_and_without_the_text():
    func = _func("x * 2.0")
    for s in func.body:
        s.adtrans_where = ("user.py", 7)
    assert line_map(func, ast.unparse(func)) == line_map(func)
    del func.body[1].lineno        # a statement without a location: unparsed from a filled-in copy
    assert line_map(func)

"""Shadow arrays a time loop's reverse sweep writes whole every step (transform/firstwrite.py):
the first accumulation an assignment, the kills gone; only where every element is assigned
before it is read in each step.  Each case runs as plain Python before and after the pass."""
import ast
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import adtrans
from adtrans.transform.firstwrite import first_writes
from fdcheck import check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gradbench as GB  # noqa: E402

BODY = """
def f(x, s):
    n = x.shape[0]
    m = n + {grow}
    k = np.empty({extent})
    d_k = np.zeros_like(k)
    out = np.zeros(n)
    for step in range(s):
        for i in range(n):
            {first}
        for i in range(n):
            d_k[i] += 1.0
        for i in range({start}, n):
            t = d_k[i]
            d_k[i] = 0.0
            out[i - 1] += t * x[i]
        t0 = d_k[0]
        d_k[0] = 0.0
        out[0] += t0 * step
        {after}
    {tail}
    return out
"""
OK = dict(grow=0, extent="n", first="d_k[i] += x[i] * step", start=1, after="pass", tail="pass")
CASES = {
    "whole overwrite": ({}, True),
    "element 1 never killed": (dict(start=2), False),
    "read after the loop": (dict(tail="out[0] += d_k[1]"), False),
    "accumulation under a branch": (dict(first="if x[i] > 0.5:\n                d_k[i] += x[i]"), False),
    "accumulation after the reads": (dict(after="for i in range(n):\n            d_k[i] += x[i]"), False),
    "allocated larger than the loops": (dict(extent="m", grow=1), False),
    "read before the kill loop reads again": (dict(after="out[1] += d_k[1]"), False),
}


def _run(func, x, s):
    ns = {"np": np}
    exec(compile(ast.Module(body=[func], type_ignores=[]), "<case>", "exec"), ns)
    return ns["f"](x.copy(), s)


@pytest.mark.parametrize("case", list(CASES))
def test_rewrite_only_where_every_element_is_assigned_first(case):
    fill, rewritten = CASES[case]
    src = textwrap.dedent(BODY.format(**{**OK, **fill}))
    before = ast.parse(src).body[0]
    after = first_writes(ast.parse(src).body[0])
    assert (ast.dump(before) != ast.dump(after)) == rewritten, ast.unparse(after)
    if rewritten:
        text = ast.unparse(after)
        assert "d_k[i] = x[i] * step" in text and "d_k[i] = 0.0" not in text and "d_k[0] = 0.0" not in text
    x = np.random.default_rng(2).uniform(0.1, 1.0, 9)
    assert np.array_equal(_run(before, x, 4), _run(after, x, 4))


def test_ode_stage_shadows_are_assigned_not_zeroed():
    """GradBench ode: the reverse sweep assigns d_k1 ... d_k4 once a step and kills none of
    them; d_yt, of which one element is not read back in every pass, keeps its kills."""
    x, s, yf = GB.ode_input(9, 3, np.random.default_rng(1))
    src = adtrans.source(GB.ode, ("dup", "const", "dup"), x, s, yf)
    for k in "1234":
        assert f"d_k{k}[i_2] = 0.0" not in src and f"d_k{k}[0] = 0.0" not in src
    assert "d_k4[i_2] = d_t17" in src and "d_k1[i_2] = d_t17" in src
    assert "d_yt[i_2] = 0.0" in src
    check(GB.ode, [x, s, yf])

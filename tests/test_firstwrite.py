"""Shadow arrays a time loop's reverse sweep writes whole every step (transform/firstwrite.py):
the first accumulation an assignment, the kills gone; only where every element is assigned
before it is read in each step.  Each case runs as plain Python before and after the pass."""
import ast
import re
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
    them; d_yt, into which each stage's adjoint scatters over the same span d_yt[0:n - 1] (its
    last element never written), is assigned in each of the three rounds and not killed
    (firstwrite's rounds form, tests/test_firstwrite_rounds.py)."""
    x, s, yf = GB.ode_input(9, 3, np.random.default_rng(1))
    src = adtrans.source(GB.ode, ("dup", "const", "dup"), x, s, yf)
    for k in "1234":
        assert f"d_k{k}[i_2] = 0.0" not in src and f"d_k{k}[0] = 0.0" not in src
    assert "d_k4[i_2] = d_t17" in src and "d_k1[i_2] = d_t17" in src
    assert not re.search(r"d_yt\[\w+\] = 0\.0", src) and not re.search(r"d_yt\[\w+\] \+=", src)
    assert len(re.findall(r"d_yt\[\w+\] = d_yt_", src)) == 3
    check(GB.ode, [x, s, yf])


SPAN = """
def f(x, s):
    n = x.shape[0]
    k = np.empty(n)
    d_k = np.zeros_like(k)
    out = np.zeros(n)
    for step in range(s):
        hi = n - 1
        for i in range(hi - 1, 0, -1):
            d_k[i] += x[i] * step + out[i]
        lo = {lo}
        for j in range(0, n):
            acc = 0.0
            if 1 <= j + 1 < n - 1:
                acc += d_k[j + 1] * x[j]
            if 1 <= j - 1 < n - 1:
                acc += d_k[j - 1]
            out[j] += acc * 0.5
        {after}
        for i in range(lo, {khi}):
            d_k[i] = 0.0
    {tail}
    return out
"""
SPAN_OK = dict(lo="1", khi="n - 1", after="pass", tail="pass")
SPAN_CASES = {
    "kill loop over the written span": ({}, True),
    "its bound under another name": (dict(khi="hi"), True),
    "kill span one short": (dict(khi="n - 2"), False),
    "kill span starting later": (dict(lo="2"), False),
    "bound assigned twice a step": (dict(khi="hi", after="hi = n - 2"), False),
    "bound varying with the step": (dict(lo="1 + step % 2"), False),
    "read after the loop": (dict(tail="out[0] += d_k[1]"), False),
    "store between": (dict(after="d_k[2] = x[2]"), False),
    "accumulation between": (dict(after="d_k[2] += x[2]"), False),
}


@pytest.mark.parametrize("case", list(SPAN_CASES))
def test_span_form_rewrites_only_where_the_kill_loop_clears_exactly_the_written_span(case):
    """The stencil form: the first loop (descending here) adds into d_k[1:n-1], gathers read
    d_k at neighbours, a last loop zeroes the span; rewritten only when both spans are the same
    in every step and nothing else writes d_k."""
    fill, rewritten = SPAN_CASES[case]
    src = textwrap.dedent(SPAN.format(**{**SPAN_OK, **fill}))
    before = ast.parse(src).body[0]
    after = first_writes(ast.parse(src).body[0])
    assert (ast.dump(before) != ast.dump(after)) == rewritten, ast.unparse(after)
    if rewritten:
        text = ast.unparse(after)
        assert "d_k[i] = x[i] * step + out[i]" in text and "d_k[i] = 0.0" not in text
        assert "lo = 1" not in text and "hi = n - 1" in text     # lo was read by the kill loop only
    x = np.random.default_rng(3).uniform(0.1, 1.0, 9)
    assert np.array_equal(_run(before, x, 4), _run(after, x, 4))


def test_heat_stencil_shadow_is_assigned_and_its_clearing_loop_goes():
    """bench/kernels.py heat_time_loop: d_tmp is assigned from d_u each reverse step and its
    clearing loop after the gather is gone; the gradient matches finite differences."""
    import kernels as K
    u = np.random.default_rng(4).uniform(0.0, 1.0, 12)
    src = adtrans.source(K.heat_time_loop, ("dup", "const", "const"), u, 0.2, 5)
    assert "d_tmp[i_1] = d_tmp_i" in src and "d_tmp[i_1] = 0.0" not in src
    check(K.heat_time_loop, [u, 0.2, 5], activity=("dup", "const", "const"))

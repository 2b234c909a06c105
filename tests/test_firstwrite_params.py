"""Vector shadows a kill loop zeroes right before a stencil's gather adds into them
(transform/firstwrite_params.py): the kill goes and the adds into the kill span become
assignments, only where the gather provably visits each element of the span exactly once."""
import ast
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import adtrans
from adtrans.transform.firstwrite_params import param_first_writes
from fdcheck import check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import kernels as K  # noqa: E402

BODY = """
def f(x, d, s):
    n = x.shape[0]
    out = np.zeros(n)
    for step in range(s):
        for i in range(n):
            d[i] += x[i] * (step + 1)
        hi = n - 1
        for i in range({klo}, {khi}):
            out[i] += d[i] * x[i]
            d[i] = 0.0
        {between}
        top = n - 1
        if {guard}:
            for r in range(0, 2):
                {body}
            for r in range(2, top - 1):
                {body}
            for r in range({third}, {stop}):
                {body}
        for i in range(n):
            out[i] += d[i] * step
    return out
"""
OK = dict(klo="1", khi="hi", between="pass", guard="1 < top", third="max(2, top - 1)", stop="top + 1",
          body="d[r] += x[r] * 0.5 + step")
CASES = {   # case: (changes, rewritten)
    "span [1, n - 1) gathered whole": ({}, True),
    "kill span inside the gather": (dict(klo="2", khi="n - 2"), True),
    "kill span one longer than the gather": (dict(khi="n", stop="top"), False),
    "kill from 0 with the gather from 1": (dict(klo="0", guard="0 < top"), False),   # body below starts at 0
    "element top - 1 visited twice": (dict(third="max(2, top - 2)"), False),
    "a boundary element not covered": (dict(third="max(2, top)"), False),
    "a read between the kill and the gather": (dict(between="out[0] += d[1]"), False),
    "guard weaker than the span": (dict(guard="2 < top"), False),
    "a read in the gather": (dict(body="d[r] += x[r] + d[1]"), False),
    "the add under a branch": (dict(body="if x[r] > 0.5:\n                    d[r] += x[r]"), False),
    "bound varying with the step": (dict(khi="hi - step % 2"), False),
}


def _run(func, x, s):
    ns = {"np": np}
    exec(compile(ast.Module(body=[func], type_ignores=[]), "<case>", "exec"), ns)
    try:
        d = x[::-1] * 0.25
        return np.concatenate([ns["f"](x.copy(), d, s), d])
    except IndexError:          # the same in both (the kill span past the end, out[0] of n = 0)
        return "IndexError"


@pytest.mark.parametrize("case", list(CASES))
def test_rewrite_only_where_the_gather_visits_the_kill_span_once(case):
    fill, rewritten = CASES[case]
    src = textwrap.dedent(BODY.format(**{**OK, **fill}))
    if case.startswith("kill from 0"):
        src = src.replace("range(0, 2)", "range(1, 2)")
    before = ast.parse(src).body[0]
    after = param_first_writes(ast.parse(src).body[0], {"d"})
    assert (ast.dump(before) != ast.dump(after)) == rewritten, ast.unparse(after)
    if rewritten:
        text = ast.unparse(after)
        assert "d[i] = 0.0" not in text and "d[i] += x[i] * (step + 1)" in text
        if case.startswith("span"):     # the edges partly in the span: guarded
            assert text.count("if 1 <= r < top:") == 2 and text.count("d[r] = x[r] * 0.5 + step") == 3
        else:                           # the span is the interior: the edges outside keep their adds
            assert "<= r <" not in text and text.count("d[r] = x[r] * 0.5 + step") == 1
    for n in range(0, 9):       # the edges: empty span, guard false, loops overlapping max(...)
        x = np.random.default_rng(n).uniform(0.1, 1.0, n)
        a, b = _run(before, x, 3), _run(after, x, 3)
        assert (a == b) if isinstance(a, str) else np.array_equal(a, b), n


def test_only_vectors_named_and_accessed_by_element():
    src = textwrap.dedent(BODY.format(**OK))
    assert ast.dump(param_first_writes(ast.parse(src).body[0], set())) == ast.dump(ast.parse(src).body[0])
    aliased = src.replace("out = np.zeros(n)", "out = np.zeros(n)\n    view = d[1:]")
    assert ast.dump(param_first_writes(ast.parse(aliased).body[0], {"d"})) == ast.dump(ast.parse(aliased).body[0])


def test_heat_time_loop_parameter_shadow_is_assigned_by_the_gather():
    """bench/kernels.py heat_time_loop: the copy-back's adjoint no longer zeroes d_u, the
    gather's interior assigns d_u, its edges assign inside [1, i_bound) and add outside."""
    u = np.random.default_rng(4).uniform(0.0, 1.0, 12)
    src = adtrans.source(K.heat_time_loop, ("dup", "const", "const"), u, 0.2, 5)
    assert "d_u[i_1] = 0.0" not in src
    assert src.count("d_u[i_1_read] = d_u_sum") == 3 and src.count("d_u[i_1_read] += d_u_sum") == 2
    assert src.count("if 1 <= i_1_read < i_bound:\n                    d_u[i_1_read] = d_u_sum\n"
                     "                else:\n                    d_u[i_1_read] += d_u_sum") == 2
    for n in (2, 3, 4, 5, 12):
        check(K.heat_time_loop, [np.random.default_rng(n).uniform(0.0, 1.0, n), 0.2, 5],
              activity=("dup", "const", "const"))


@njit
def heat_low_uncovered(u, c, steps):
    """Copies back u[0], which the stencil never reads: element 0 is killed, not gathered."""
    n = u.shape[0]
    tmp = np.zeros(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i + 1] - u[i]) - 0.01 * u[i] ** 3
        for i in range(0, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def heat_high_uncovered(u, c, steps):
    """Copies back u[n - 1], which the stencil never reads: the kill span one longer."""
    n = u.shape[0]
    tmp = np.zeros(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - u[i]) - 0.01 * u[i] ** 3
        for i in range(1, n):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def heat_read_between(u, c, steps):
    """Reads u between the stencil and the copy-back: its adjoint adds into d_u between the
    kill and the gather."""
    n = u.shape[0]
    tmp = np.empty(n)
    acc = 0.0
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        acc += u[2] * u[3]
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = acc
    for i in range(n):
        e += u[i] * u[i]
    return e


@pytest.mark.parametrize("kernel", [heat_low_uncovered, heat_high_uncovered, heat_read_between],
                         ids=lambda k: k.__name__)
def test_heat_near_misses_keep_the_kill(kernel):
    u = np.random.default_rng(5).uniform(0.0, 1.0, 10)
    src = adtrans.source(kernel, ("dup", "const", "const"), u, 0.2, 4)
    assert "d_u[i_1] = 0.0" in src and "d_u[i_1_read] = d_u_sum" not in src
    for n in (4, 10):
        check(kernel, [np.random.default_rng(n).uniform(0.0, 1.0, n), 0.2, 4], activity=("dup", "const", "const"))

"""Consecutive element-wise loops fused into one (adtrans/transform/fuse.py): which pairs fuse,
that the fused code computes exactly what the loops did, and gradients of kernels whose adjoint
gets fused loops against central finite differences."""
import ast
import sys
import textwrap
from pathlib import Path

import numpy as np
from numba import njit

import adtrans
from adtrans.transform.fuse import fuse_loops
from fdcheck import check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gradbench as GB  # noqa: E402

FUSED = "loops fused:"


def fused(src):
    """``(fused source, number of top-level-or-nested loops before, after)``."""
    func = ast.parse(textwrap.dedent(src)).body[0]
    before = sum(isinstance(n, ast.For) for n in ast.walk(func))
    out = fuse_loops(func)
    after = sum(isinstance(n, ast.For) for n in ast.walk(out))
    return ast.unparse(ast.fix_missing_locations(out)), before, after


def run(src, n, rng):
    """Run the function in ``src`` (pure Python) on fresh random arrays; its arrays after."""
    env = {"np": np, "math": __import__("math")}
    exec(src, env)
    fn = env["f"]
    arrays = [rng.standard_normal(n) for _ in range(fn.__code__.co_argcount - 1)]
    fn(*arrays, n)
    return arrays


SAME_INDEX = """
def f(x, y, k, t, n):
    for i in range(1, n):
        k[i] = x[i] * y[i - 1]
    for i in range(n):
        t[i] = y[i] + 0.5 * k[i]
"""

SHIFTED_READ = """
def f(x, y, k, t, n):
    for i in range(n):
        t[i] = y[i] + 0.5 * k[i]
    for i in range(1, n):
        k[i] = x[i] * t[i - 1]
"""

SHARED_SCALAR = """
def f(x, y, k, t, n):
    for i in range(n):
        s = x[i] * 2.0
        k[i] = s
    for i in range(n):
        t[i] = s + y[i]
"""

ALIASED_VIEW = """
def f(x, y, k, t, n):
    v = k[1:]
    for i in range(n - 1):
        k[i] = x[i]
    for i in range(n - 1):
        t[i] = v[i]
"""

MANY_ARRAYS = """
def f(a, b, c, d, e, g, n):
    for i in range(n):
        a[i] = b[i] * c[i]
        d[i] = a[i] + e[i]
    for i in range(n):
        g[i] = a[i] + d[i] + b[i] + c[i] + e[i]
"""

CALL_IN_BODY = """
def f(x, y, k, t, n):
    for i in range(n):
        k[i] = x[i]
        print(i)
    for i in range(n):
        t[i] = k[i]
"""

REDUCTION = """
def f(x, y, k, t, n):
    for i in range(n):
        k[i] = x[i] * 2.0
    s = 0.0
    for i in range(n):
        s += k[i] * y[i]
    t[0] = s
"""

GATHER = """
def f(x, y, k, t, n):
    for i in range(n):
        k[i] = x[i] * 2.0
    for i in range(n):
        t[i] = k[i] + y[n - 1 - i]
"""

THREE_WITH_POP_BETWEEN = """
def f(x, y, t, n):
    for i in range(n):
        y[i] = 2.0 * x[i]
    top = n - 1
    for i in range(n):
        t[i] = y[i] + 1.0
    for i in range(2, n):
        x[i] = t[i] * 3.0 + top
"""


def test_same_index_loops_fuse_with_the_first_iteration_peeled_and_compute_the_same():
    src, before, after = fused(SAME_INDEX)
    assert (before, after) == (2, 2) and FUSED in src and "range(min(1, n))" in src
    for n in (0, 1, 2, 7):
        a = run(textwrap.dedent(SAME_INDEX), n, np.random.default_rng(n))
        b = run(src.replace("__comment__(", "(lambda *a: None)("), n, np.random.default_rng(n))
        assert all(np.array_equal(p, q) for p, q in zip(a, b))


def test_three_loops_fuse_past_a_scalar_statement_that_moves_above_them():
    src, before, after = fused(THREE_WITH_POP_BETWEEN)
    # the third loop starts at 2: the first two fuse, then their iterations 0, 1 are peeled
    assert after == 2 and src.count(FUSED) == 1
    assert src.index("top = n - 1") < src.index("for i in range(min(2, n))")
    for n in (0, 1, 2, 3, 9):
        a = run(textwrap.dedent(THREE_WITH_POP_BETWEEN), n, np.random.default_rng(n))
        b = run(src.replace("__comment__(", "(lambda *a: None)("), n, np.random.default_rng(n))
        assert all(np.array_equal(p, q) for p, q in zip(a, b))


def test_loops_that_must_not_fuse_are_left_alone():
    # a read of what the first loop writes at another element (a carried dependence), a scalar
    # shared between the bodies, a view that aliases a written array, a call with effects
    for src in (SHIFTED_READ, SHARED_SCALAR, ALIASED_VIEW, CALL_IN_BODY):
        out, before, after = fused(src)
        assert before == after and FUSED not in out, src


def test_a_loop_that_carries_a_scalar_or_indexes_other_than_i_plus_k_stays_apart():
    """Fused with an in-order float reduction or a reversed read, the first loop would no
    longer vectorise (it does alone)."""
    for src in (REDUCTION, GATHER):
        out, before, after = fused(src)
        assert before == after and FUSED not in out, src


def test_loops_over_many_arrays_stay_apart_so_that_each_still_vectorises():
    """Fused, 6 arrays with 3 written: 3 * 3 + 3 = 12 pairs that may overlap, past the 8 runtime
    alias checks LLVM's vectoriser emits (GradBench ode's reverse loops: fused they ran 2x slower)."""
    out, before, after = fused(MANY_ARRAYS)
    assert before == after and FUSED not in out


@njit(cache=True)
def stages(x, y, s):
    """Two stage loops a step, the first pair fusable (same index), the second not (shifted)."""
    n = x.shape[0]
    k = np.empty(n)
    t = np.empty(n)
    for step in range(s):
        k[0] = x[0]
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]
        for i in range(n):
            t[i] = y[i] + 0.25 * k[i]
        for i in range(1, n):
            y[i] += 0.1 * x[i] * t[i - 1]


def test_stage_loops_fuse_in_the_adjoint_and_the_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    x, y = rng.uniform(0.2, 1.0, 9), rng.uniform(0.2, 1.0, 9)
    src = adtrans.source(stages, ("dup", "dup", "const"), x, y, 3)
    assert FUSED in src
    assert check(stages, [x, y, 3]) < 1e-6


def test_gradbench_ode_forward_stage_loop_fuses_with_k1():
    x, s, yf = GB.ode_input(7, 4, np.random.default_rng(3))
    src = adtrans.source(GB.ode, ("dup", "const", "dup"), x, s, yf)
    assert src.count(FUSED) == 1
    fused_loop = src[src.index(FUSED):].split("tape_push_array")[0]
    assert "k1[i_2] = t1" in fused_loop and "yt[i_2] = t4" in fused_loop

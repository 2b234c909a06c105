"""Shadow buffers that swap roles instead of being copied (transform/shadowswap.py): the reverse
step of a copy-back time loop (`u[i] = tmp[i]`) lets `d_u` and `d_tmp` exchange roles (the step
written once per assignment of roles, the elements outside the copied span moved); whole-array
exchanges (`u, tmp = tmp, u`) become name swaps in both sweeps (opt-in).  Each form against
central finite differences (odd and even step counts: the caller's array holds the result after
either parity), with the near misses."""
import ast
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import adtrans
from adtrans.targets.cpu import CPU
from adtrans.transform.shadowswap import swap_exchanges
from fdcheck import check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import kernels as K  # noqa: E402

ACT = ("dup", "const", "const")


@pytest.fixture(autouse=True, scope="module")
def swapping():
    """Both rewrites are opt-in (ADTRANS_SWAP_SHADOWS=1 / ADTRANS_SWAP_EXCHANGES=1, ``CPU.shadow_swaps``,
    ``CPU.exchange_swaps``)."""
    old = CPU.shadow_swaps, CPU.exchange_swaps
    CPU.shadow_swaps = CPU.exchange_swaps = True
    yield
    CPU.shadow_swaps, CPU.exchange_swaps = old


SIZES_STEPS = [(n, s) for n in (1, 2, 3, 4, 7) for s in (0, 1, 4, 5)]


@njit
def heat_tuple_swap(x, c, steps):
    """Double buffering on a copy (with ``x`` itself in the swap, Numba writes the caller's array
    from the second step on)."""
    u = x.copy()
    n = u.shape[0]
    tmp = np.zeros(n)
    for s in range(steps):
        tmp[0] = u[0]
        tmp[n - 1] = u[n - 1]
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        u, tmp = tmp, u
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def upwind_copy_back(u, c, steps):
    """One-sided stencil copied back over [0, n - 1): the span starts at 0."""
    n = u.shape[0]
    tmp = np.zeros(n)
    for s in range(steps):
        for i in range(0, n - 1):
            tmp[i] = u[i] - c * (u[i + 1] - u[i]) * u[i]
        for i in range(0, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i] * (i + 1)
    return e


@njit
def heat_longer_scratch(u, c, steps):
    """The scratch array one longer than u: the lengths differ, the copy stays (at run time)."""
    n = u.shape[0]
    tmp = np.zeros(n + 1)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def heat_scratch_read_after(u, c, steps):
    """Reads the scratch array after the time loop: its shadow is live there, no swap."""
    n = u.shape[0]
    tmp = np.zeros(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i] + 0.5 * tmp[i]
    return e


def _source(kernel, n=8):
    return adtrans.source(kernel, ACT, np.random.default_rng(3).uniform(0.0, 1.0, n), 0.2, 5)


def _fd(kernel, sizes_steps=SIZES_STEPS):
    for n, s in sizes_steps:
        check(kernel, [np.random.default_rng(n + 10 * s).uniform(0.0, 1.0, n), 0.2, s], activity=ACT)


def test_copy_back_swaps_the_shadows():
    """bench/kernels.py heat_time_loop: the reverse step runs in one of two role assignments of
    d_u and d_tmp, moves the two edge elements, and copies back once after the loop where the
    step count is odd; no copy loop is left."""
    src = _source(K.heat_time_loop)
    assert "if d_u_swapped:" in src and "d_u_swapped = not d_u_swapped" in src
    assert "d_tmp_i = d_u[i_1]" not in src and "d_u, d_tmp" not in src
    assert src.count("d_u[:1] = d_tmp[:1]") == 1 and src.count("d_tmp[:1] = d_u[:1]") == 1
    assert "d_tmp[max(1, i_bound_1):] = d_u[max(1, i_bound_1):]" in src
    assert "if d_u_swapped:\n        # an odd number of steps" in src and "d_u[:] = d_tmp" in src
    # param_first_writes' assignments, once per role assignment
    assert src.count("d_u[i_1_read] = d_u_sum") == 3 and src.count("d_tmp[i_1_read] = d_u_sum") == 3
    _fd(K.heat_time_loop)


def test_copy_back_from_zero_has_no_low_edge():
    src = _source(upwind_copy_back)
    assert "if d_u_swapped:" in src and "[:0]" not in src and "d_u[:1]" not in src
    assert "d_u[max(0, i_bound_1):] = d_tmp[max(0, i_bound_1):]" in src
    _fd(upwind_copy_back)


def test_copy_back_swap_with_a_strided_shadow():
    """A non-contiguous d_u (Numba layout A) gives the same gradient as a contiguous one."""
    adj = adtrans.adjoint(K.heat_time_loop, ACT)
    u = np.random.default_rng(0).uniform(0.0, 1.0, 9)
    for steps in (4, 5):
        w = np.random.default_rng(steps).standard_normal(9)
        flat = w.copy()
        adj(u.copy(), flat, 0.2, steps, 1.0)
        big = np.zeros(18)
        big[::2] = w
        adj(u.copy(), big[::2], 0.2, steps, 1.0)
        assert np.array_equal(big[::2], flat) and not big[1::2].any()


def test_scratch_of_another_length_keeps_the_copy():
    """The scratch array one longer than u: its length is not u's by construction, no swap."""
    src = _source(heat_longer_scratch)
    assert "swapped" not in src and "d_tmp_i = d_u[i_1]" in src
    _fd(heat_longer_scratch, [(4, 3), (7, 4)])


def test_scratch_shadow_live_after_the_loop_is_not_swapped():
    src = _source(heat_scratch_read_after)
    assert "swapped" not in src
    _fd(heat_scratch_read_after, [(4, 3), (7, 4)])


def test_tuple_swap_exchanges_by_name_in_both_sweeps():
    """u, tmp = tmp, u: the forward exchange of u's copy and tmp and the reverse exchange of
    their shadows are name swaps."""
    src = _source(heat_tuple_swap)
    assert src.count("# the whole arrays exchange: their names swap") == 2
    assert "tmp, u = (u, tmp)" in src and "d_tmp, d_u = (d_u, d_tmp)" in src
    _fd(heat_tuple_swap)


EXCHANGE = """
def f(x):
    a = np.zeros(x.shape[0])
    b = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        a[i] = x[i]
        b[i] = 2.0 * x[i]
    for s in range(3):
        for i in range({rng}):
            {body}
        for i in range(x.shape[0]):
            a[i] += b[i] * 0.5
    {after}
    return a[0] + 3.0 * b[-1]
"""
SWAP = "t = a[i]\n            v = b[i]\n            a[i] = v\n            b[i] = t"
EXCHANGES = {   # case: (fill, rewritten)
    "exchange": (dict(rng="x.shape[0]", body=SWAP, after="pass"), True),
    "descending exchange": (dict(rng="x.shape[0] - 1, -1, -1", body=SWAP, after="pass"), True),
    "through zeros and adds": (dict(rng="x.shape[0]", body="t = b[i]\n            b[i] = 0.0\n            v = a[i]\n"
                                    "            a[i] = 0.0\n            a[i] += t\n            b[i] += v",
                                    after="pass"), True),
    "not from 0": (dict(rng="1, x.shape[0]", body=SWAP, after="pass"), False),
    "a copy, not an exchange": (dict(rng="x.shape[0]", body="a[i] = b[i]\n            b[i] = a[i]",
                                     after="pass"), False),
    "an add left over": (dict(rng="x.shape[0]", body=SWAP + "\n            a[i] += b[i]", after="pass"), False),
    "a scalar read after": (dict(rng="x.shape[0]", body=SWAP, after="a[0] += t"), False),
    "a view of one array": (dict(rng="x.shape[0]", body=SWAP, after="a[0] += np.sum(b[1:])"), False),
}


@pytest.mark.parametrize("case", list(EXCHANGES))
def test_exchange_loops_swap_names_only_when_exact(case):
    fill, rewritten = EXCHANGES[case]
    src = textwrap.dedent(EXCHANGE.format(**fill))
    before = ast.parse(src).body[0]
    after = swap_exchanges(ast.parse(src).body[0], {"a", "b"})
    assert (ast.dump(before) != ast.dump(after)) == rewritten, ast.unparse(after)
    ns_a, ns_b = ({"np": np, "__comment__": lambda text: None} for _ in range(2))
    exec(compile(ast.Module(body=[before], type_ignores=[]), "<before>", "exec"), ns_a)
    exec(compile(ast.Module(body=[after], type_ignores=[]), "<after>", "exec"), ns_b)
    for n in (1, 2, 5):
        x = np.random.default_rng(n).uniform(0.0, 1.0, n)
        assert ns_a["f"](x) == ns_b["f"](x), n

"""What a driver adjoint saves before a kernel call, and that saving less keeps gradients right.

A kernel's *outputs* (parameters it writes and never reads) need no copy before the call when
no earlier statement reads their old values (the driver adjoint scans backwards, loops from
their end too); saved copies are reused across calls.  Gradients against central differences
(every array's final value is in the objective, so scratch arrays count), plus aliasing and
loop-carried cases where the copy must stay.  A driver's kernel adjoints do not write the
kernel's outputs back (the driver restores the saved ones after the call and never reads the
others): element stores into an array the adjoint never reads are left out.
"""
import os
import sys

import numpy as np
import pytest
from numba import njit, prange

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi_programs"))

import adtrans  # noqa: E402
from adtrans.driver import driver_source, last_tape_nbytes, runtime  # noqa: E402
from adtrans.analyse.effects import read_params, written_params  # noqa: E402
from adtrans.adjoint import AdjointFunction  # noqa: E402
from adtrans.targets.cpu import CPU_NO_OUTPUTS  # noqa: E402
from driver_kernels import sumsq  # noqa: E402
from fdcheck import check  # noqa: E402

RNG = np.random.default_rng(5)


@njit
def square_into(x, out, c):
    """out = c * x**2 (out: written, never read)."""
    for i in range(x.shape[0]):
        out[i] = c * x[i] * x[i]


@njit
def store_row(out, k, v):
    out[k] = v


@njit
def sin_into(x, out):
    """out = sin(x), through a helper that only stores."""
    for i in range(x.shape[0]):
        store_row(out, i, np.sin(x[i]))


@njit
def add_sin(y, out):
    """out += sin(y) (out: read and written)."""
    for i in range(y.shape[0]):
        out[i] += np.sin(y[i])


def reuse_scratch(x, t, u):
    square_into(x, t, 2.0)      # t: an output nobody read before: not saved
    add_sin(t, u)               # u: read and written: saved
    square_into(u, t, 3.0)      # t: read by add_sin before: saved
    sin_into(x, u)              # u: read by square_into before: saved
    return sumsq(t) + sumsq(u)


def scratch_in_loop(x, t, u, n):
    for k in range(n):
        square_into(u, t, 0.5)  # t: read by the previous iteration's add_sin: saved
        add_sin(t, u)
    square_into(x, t, 1.5)      # t: read in the loop before: saved
    return sumsq(u) + sumsq(t)


def branch_then_output(x, t, u, flag):
    if flag > 0:
        add_sin(t, u)           # reads t on one path
    square_into(x, t, 2.0)      # t: saved (the branch may have read it)
    return sumsq(t) + sumsq(u)


def read_then_output(x, a, b):
    s = sumsq(b)                # reads b: when b is a, a's old value is needed
    square_into(x, a, 2.0)      # a: not saved when the arrays are distinct
    return s + sumsq(a)


@njit(parallel=True)
def two_outputs(x, y, s, r):
    """y = x sin(x), s = x**2, r = y s (the adjoint reads y and s back: their stores stay)."""
    for i in prange(x.shape[0]):
        y[i] = np.sin(x[i]) * x[i]
        s[i] = x[i] * x[i]
    for i in prange(x.shape[0]):
        r[i] = y[i] * s[i]


@njit(parallel=True)
def outputs_only(x, y, s):
    for i in prange(x.shape[0]):
        y[i] = np.sin(x[i]) * x[i]
        s[i] = x[i] * x[i]


def through_outputs(x, y, s, r):
    outputs_only(x, y, s)
    two_outputs(s, y, r, x)         # x overwritten: its old value is saved for outputs_only
    return sumsq(y) + sumsq(s) + sumsq(r) + sumsq(x)


def _skips(src, kernel):
    return [ln for ln in src.splitlines() if f"checkpoint({kernel}" in ln]


def test_read_params_finds_outputs_through_helpers():
    assert written_params(square_into) == {1} and read_params(square_into) == {0, 2}
    assert written_params(sin_into) == {1} and 1 not in read_params(sin_into)
    assert {0, 1} <= read_params(add_sin) and written_params(add_sin) == {1}


def test_outputs_nobody_read_are_not_saved():
    x, t, u = RNG.uniform(0.3, 1.2, 6), np.zeros(6), RNG.uniform(0.3, 1.2, 6)
    src = driver_source(reuse_scratch, ("dup", "dup", "dup"), x, t, u)
    first, second = _skips(src, "square_into")
    assert "(1,) if _elide else ()" in first       # the first write of t saves nothing
    assert "_elide" not in second                   # add_sin read t before
    assert all("_elide" not in ln for ln in _skips(src, "sin_into") + _skips(src, "add_sin"))
    assert "_elide = _rt.disjoint(_args)" in src
    check(reuse_scratch, [x, t, u])


def test_saved_bytes_and_reused_copies():
    n = 1000
    x, t, u = RNG.uniform(0.3, 1.2, n), np.zeros(n), RNG.uniform(0.3, 1.2, n)
    shadows = [np.ones(n), np.ones(n), np.ones(n)]
    adtrans.autodiff(reuse_scratch, *(adtrans.Duplicated(a, s) for a, s in zip((x, t, u), shadows)))
    assert last_tape_nbytes() == 3 * 8 * n           # u, t, u: the first write of t is not copied
    runtime.release_buffers()
    a = np.arange(5.0)
    c1 = runtime.saved_copy(a)
    runtime.release_copy(c1)
    c2 = runtime.saved_copy(a + 1)
    assert c2 is c1 and np.array_equal(c2, a + 1)  # the released copy is reused
    runtime.release_buffers()


def test_loop_carried_and_branch_reads_keep_their_copies():
    x, t, u = RNG.uniform(0.3, 1.2, 5), RNG.uniform(0.3, 1.2, 5), RNG.uniform(0.3, 1.2, 5)
    src = driver_source(scratch_in_loop, ("dup", "dup", "dup", "const"), x, t, u, 3)
    assert "_elide" not in src
    check(scratch_in_loop, [x, t, u, 3])
    src = driver_source(branch_then_output, ("dup", "dup", "dup", "const"), x, t, u, 1)
    assert "_elide" not in src
    check(branch_then_output, [x, t, u, 1])
    check(branch_then_output, [x, t, u, -1])


def test_aliased_arguments_save_everything():
    """Aliased Duplicated arrays are refused before the adjoint runs; an alias the API lets
    through (or a direct call of the generated adjoint) fails the run-time disjointness check
    (``_elide`` False), and then every written array is saved."""
    x = RNG.uniform(0.3, 1.2, 4)
    src = driver_source(read_then_output, ("dup", "dup", "dup"), x, np.zeros(4), np.zeros(4))
    assert "(1,) if _elide else ()" in src
    check(read_then_output, [x, np.zeros(4), RNG.uniform(0.3, 1.2, 4)])
    arr = RNG.uniform(0.3, 1.2, 8)
    assert not runtime.disjoint((x, arr, arr))
    assert not runtime.disjoint((x, arr[:5], arr[4:]))
    assert runtime.disjoint((x, arr[:4], arr[4:], arr[::-1][:0], 2.0))
    with pytest.raises(adtrans.ActivityError):
        adtrans.autodiff(read_then_output, adtrans.Duplicated(x, np.zeros(4)),
                         adtrans.Duplicated(arr, np.zeros(8)), adtrans.Duplicated(arr, np.zeros(8)))


def _stores(src, name):
    return [ln.strip() for ln in src.splitlines() if ln.strip().startswith(f"{name}[")]


def test_driver_kernel_adjoints_leave_unread_outputs_unwritten():
    x, y, s, r = RNG.uniform(0.3, 1.2, 7), np.zeros(7), np.zeros(7), np.zeros(7)
    act = ("dup", "dup", "dup", "dup")
    kept = AdjointFunction(outputs_only, act[:3]).source(x, y, s)
    dropped = AdjointFunction(outputs_only, act[:3], CPU_NO_OUTPUTS).source(x, y, s)
    assert _stores(kept, "y") and _stores(kept, "s")
    assert not _stores(dropped, "y") and not _stores(dropped, "s") and "np.sin" in dropped
    both = AdjointFunction(two_outputs, act, CPU_NO_OUTPUTS).source(x, y, s, r)
    assert _stores(both, "y") and _stores(both, "s") and not _stores(both, "r")   # y, s read back
    check(through_outputs, [x, y, s, r])
    # the driver adjoint ends in the primal's final state
    args = [x.copy(), y.copy(), s.copy(), r.copy()]
    expect = [a.copy() for a in args]
    through_outputs(*expect)
    adtrans.autodiff(through_outputs, *(adtrans.Duplicated(a, np.ones_like(a)) for a in args))
    for a, e in zip(args, expect):
        assert np.array_equal(a, e)

"""Driver adjoint overhead outside the kernel adjoints (issue 14): which arrays get a final copy,
what a kernel adjoint call gives back, and the overlap check of many arguments.

- An array written only as an *unsaved output* of kernel calls (no copy before the call: nothing
  earlier reads its old value) needs no copy of its final contents: the reverse sweep restores
  nothing into it, and ``kernel_adjoint`` puts back what an adjoint (or a rerun of the kernel
  for a discarded result) changes in it.  Gradients against central differences and the final
  state against the primal's, bit for bit.
- After a kernel's adjoint only the saved arguments the adjoint may change are restored again
  (``AdjointFunction.primal_writes``).
- ``refuse_overlaps`` sorts extents instead of testing every pair: same answers (and the same
  first pair named) as the pairwise test on random views of one buffer.
"""
import os
import sys

import numpy as np
import pytest
from numba import njit

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi_programs"))

import adtrans  # noqa: E402
from adtrans.adjoint import AdjointFunction  # noqa: E402
from adtrans.arguments import _memory_of, _overlap, aliasing_pairs, refuse_overlaps  # noqa: E402
from adtrans.driver import driver_source, runtime  # noqa: E402
from adtrans.targets.cpu import CPU_NO_OUTPUTS  # noqa: E402
from driver_kernels import sumsq  # noqa: E402
from fdcheck import check  # noqa: E402

RNG = np.random.default_rng(14)


@njit
def fill_scaled(x, out, c):
    """out = c sin(x) (an output); returns sum(out) (a caller may discard it)."""
    s = 0.0
    for i in range(x.shape[0]):
        v = c * np.sin(x[i])
        out[i] = v
        s += v
    return s


@njit
def square_into(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * x[i]


@njit
def axpy(a, x, y):
    """y += a x (y read and written)."""
    for i in range(x.shape[0]):
        y[i] += a * x[i]


def rewrite_discarded(x, y, t):
    fill_scaled(x, t, 2.0)          # result discarded: its adjoint reruns the kernel (t = 2 sin x)
    fill_scaled(y, t, 3.0)          # t again an unsaved output (nothing read it in between)
    return sumsq(t) + sumsq(x)


def outputs_and_updates(x, t, u):
    square_into(x, t)               # t: only ever an unsaved output -> no final copy
    axpy(0.5, t, u)                 # u: read and written -> saved, final copy
    return sumsq(u)


def output_then_setitem(x, t):
    square_into(x, t)
    t[0] = 1.5                      # a driver write: t needs its final copy
    return sumsq(t)


def _final_line(src):
    return next(ln for ln in src.splitlines() if "_final = _rt.final_state(" in ln)


def _final_state_after_adjoint(fn, args):
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fn(*want)
    adtrans.autodiff(fn, *(adtrans.Duplicated(a, np.ones_like(a)) for a in got))
    return got, want


def _check_unsaved_output(fn, args, in_line):
    """The final-copy line of ``fn``'s driver adjoint contains ``in_line``, its gradient matches
    central differences, and after the adjoint every argument holds its value after ``fn``, bit
    for bit; returns the arguments after the adjoint."""
    line = _final_line(driver_source(fn, ("dup",) * len(args), *args))
    assert in_line in line, line
    check(fn, args)
    got, want = _final_state_after_adjoint(fn, args)
    for a, b in zip(got, want):
        assert np.array_equal(a, b)
    return got


def test_unsaved_outputs_get_no_final_copy():
    x, t, u = RNG.uniform(0.3, 1.2, 6), np.zeros(6), RNG.uniform(0.3, 1.2, 6)
    _check_unsaved_output(outputs_and_updates, [x, t, u], "final_state((t, u, ), (t, ) if _elide else ())")
    line = _final_line(driver_source(output_then_setitem, ("dup", "dup"), x, t))
    assert "if _elide" not in line and "(t, )" in line
    check(output_then_setitem, [x, t])


def test_rerun_of_a_discarded_result_is_undone():
    """The adjoint of the first call reruns the kernel (its result was discarded), which writes
    t = 2 sin x; t has no final copy, so kernel_adjoint must put t's value back."""
    x, y, t = RNG.uniform(0.3, 1.2, 5), RNG.uniform(0.3, 1.2, 5), np.zeros(5)
    got = _check_unsaved_output(rewrite_discarded, [x, y, t], "(t, ) if _elide")
    assert np.array_equal(got[2], 3.0 * np.sin(y))


def test_checkpointed_loops_keep_every_final_copy():
    x, t = RNG.uniform(0.3, 1.2, 4), np.zeros(4)

    def loop(x, t, n):
        for _ in range(n):
            square_into(x, t)
        return sumsq(t)
    src = driver_source(loop, ("dup", "dup", "const"), x, t, 3, checkpoints=2)
    assert "if _elide else ())" not in _final_line(src)


def test_primal_writes_of_adjoints():
    x, y, a = RNG.uniform(0.3, 1.2, 4), np.zeros(4), 0.5
    out_only = AdjointFunction(square_into, ("dup", "dup"), CPU_NO_OUTPUTS)
    assert out_only.primal_writes(x, y) == frozenset()      # stores into the unread output dropped
    assert AdjointFunction(square_into, ("dup", "dup")).primal_writes(x, y) == {1}
    upd = AdjointFunction(axpy, ("active", "dup", "dup"), CPU_NO_OUTPUTS)
    assert upd.primal_writes(a, x, y) <= {2}


def _pairwise_first(pairs, args):
    for n, (i, j, *_) in enumerate(pairs):
        if j < len(args):
            a, b = _memory_of(args[i]), _memory_of(args[j])
            if a is not None and b is not None and _overlap(a, b):
                return n
    return None


def test_overlap_sweep_matches_pairwise():
    buf = np.arange(64.0)
    views = [buf[0:8], buf[8:16], buf[::2], buf[1::2], buf[4:12], buf[::-1][:3], buf[60:],
             buf[:0], buf.reshape(8, 8)[:, 1], buf.reshape(8, 8)[2], np.ones(5), 2.0]
    params = [f"p{k}" for k in range(6)]
    for trial in range(60):
        pick = RNG.choice(len(views), 6, replace=True)
        args_by_param = [views[k] for k in pick]
        activity = tuple(RNG.choice(["dup", "const"], 6))
        flat = []
        for v, a in zip(args_by_param, activity):
            flat.append(v)
            if a == "dup":
                flat.append(np.zeros_like(v) if isinstance(v, np.ndarray) else 0.0)
        pairs = aliasing_pairs(params, activity, written={"p1", "p3"}, parallel=bool(trial % 2))
        first = _pairwise_first(pairs, flat)
        if first is None:
            refuse_overlaps(pairs, flat)
        else:
            _, _, pa, pb = pairs[first][:4]
            with pytest.raises(adtrans.ActivityError) as err:
                refuse_overlaps(pairs, flat)
            assert f"arguments {pa} and {pb} share memory" in str(err.value)


def test_many_distinct_arguments_are_cheap():
    """A hundred distinct arrays: the check must not test each of the ~5000 pairs exactly."""
    arrays = [np.zeros(3) for _ in range(100)]
    params = [f"a{k}" for k in range(50)]
    pairs = aliasing_pairs(params, ("dup",) * 50)
    calls = []
    orig = np.may_share_memory
    try:
        np.may_share_memory = lambda *a, **k: calls.append(1) or orig(*a, **k)
        refuse_overlaps(pairs, arrays)
    finally:
        np.may_share_memory = orig
    assert len(pairs) > 4000 and not calls
    runtime.release_buffers()

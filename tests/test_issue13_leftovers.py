"""Issue 13's leftovers, kernels as users write them (tests/kernels_issue13_leftovers.py): whole-array
reductions in ``prange`` (per-iteration slots), tuples of arrays indexed by a loop counter
(unrolled) or a run-time index (range-checked), aliasing inside a ``Duplicated`` tuple, arrays
rebound in a taped loop to a data-dependent length.  Gradients against central finite
differences in float64 on the Python function; refusals naming file:line."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_issue13_leftovers as K
from fdcheck import check

RNG = np.random.default_rng(13)
U0 = np.array([0.13, 0.55, 0.92, 0.31, 0.71, 0.48, 1.21, -0.23])


def marked_line(fn):
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, ln in enumerate(lines) if "# <-" in ln)


def fd_tuple(f, arrays, h=1e-6):
    """Central differences of ``f(*arrays)`` for every element of every array."""
    out = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for j in range(a.size):
            e = np.zeros_like(a)
            e.flat[j] = h
            up = [b + e if m == k else b for m, b in enumerate(arrays)]
            dn = [b - e if m == k else b for m, b in enumerate(arrays)]
            g.flat[j] = (f(*up) - f(*dn)) / (2 * h)
        out.append(g)
    return out


# ---------------------------------------------------------------- 1. whole-array reductions in prange
def test_whole_array_reductions_in_prange_get_slots():
    """The rewrite, read in the generated source (no compilation)."""
    X, w = RNG.standard_normal((5, 3)), RNG.standard_normal(3)
    src = adtrans.source(K.prange_array_reductions, ("dup", "dup"), X, w)
    for a in ("acc", "low", "prod", "peak"):
        assert f"{a}_parts[i" in src and f"for {a}_k in range(" in src, a
    assert "# adjoint of: prod *= 1.0 + 0.1 * X[i]" in src


@pytest.mark.slow
def test_whole_array_reductions_in_prange():
    """`acc += X[i, 0] * w` was lowered to `acc[k] += ...` inside the prange (a race in the adjoint's
    forward sweep), `prod *= f` refused without naming the construct, `peak = np.maximum(peak, v)`
    written in place by every iteration: now one row of slots per iteration, combined in order
    after the loop.  (Numba's own parallel run of the `np.maximum` rebinding returns the start
    value, -1e300 per element: the gradient is the Python function's.)"""
    X, w = RNG.standard_normal((5, 3)), RNG.standard_normal(3)
    assert check(K.prange_array_reductions, [X, w], primal=K.prange_array_reductions.py_func) < 1e-6


def test_whole_array_reduction_read_in_the_body_is_refused_at_its_line():
    with pytest.raises(adtrans.UnsupportedError) as e:
        adtrans.grad(K.prange_array_product_read)(np.ones((4, 3)))
    msg = str(e.value)
    assert f"kernels_issue13_leftovers.py:{marked_line(K.prange_array_product_read)}:" in msg
    assert "whole-array reduction of `acc` in a prange loop" in msg and "read otherwise" in msg
    assert "acc = np.maximum(acc, v)" in msg


# ---------------------------------------------------------------- 2. tuples indexed by a loop counter
def test_tuple_indexed_by_a_counter_of_constant_range_is_unrolled():
    a, b, c, w = (RNG.standard_normal(4) for _ in range(4))
    assert check(K.tuple_counter_len, [a, b, c], primal=K.tuple_counter_len.py_func) < 1e-6
    assert check(K.tuple_counter_const, [a, b, c, w], primal=K.tuple_counter_const.py_func) < 1e-6
    src = adtrans.source(K.tuple_counter_len, ("dup",) * 3, a, b, c)
    assert " if i == " not in src and "for i in range" not in src       # unrolled, no run-time selection
    W1, W2, x = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    assert check(K.tuple_helper, [W1, W2, x], primal=K.tuple_helper.py_func) < 1e-6


def test_duplicated_tuple_parameter_indexed_by_a_counter():
    a, b, w = RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal(4)
    da, db = np.zeros(4), np.zeros(4)
    adtrans.autodiff(K.tuple_param, adtrans.Duplicated((a, b), (da, db)), w)
    fa, fb = fd_tuple(lambda u, v: K.tuple_param.py_func((u, v), w), [a, b])
    np.testing.assert_allclose(da, fa, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(db, fb, rtol=1e-6, atol=1e-8)


def test_tuple_indexed_at_run_time_is_range_checked():
    """`p[i]` with `i < n` known only at run time is a selection among the elements; an index past
    the end picked the last element (a gradient for a run that raises in Numba): now IndexError."""
    a, b, c = (RNG.standard_normal(4) for _ in range(3))
    assert check(K.tuple_runtime_count, [a, b, c, 3], primal=K.tuple_runtime_count.py_func) < 1e-6
    with pytest.raises(IndexError, match=rf"tuple index out of range in `p\[i\]` "
                                         rf"\(kernels_issue13_leftovers.py:{marked_line(K.tuple_runtime_count)}\)"):
        adtrans.grad(K.tuple_runtime_count)(a, b, c, 4)


# ---------------------------------------------------------------- 3. aliasing inside a Duplicated tuple
def test_aliasing_inside_a_duplicated_tuple_is_refused_naming_both():
    a, b, w = RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal(4)
    for fn, other in ((K.tuple_scale_into, 2.0), (K.tuple_prange, w)):      # written / parallel
        for shadows in ((np.zeros(4), np.zeros(4)), (np.zeros(4),) * 2):
            with pytest.raises(adtrans.ActivityError, match=r"arguments p\[0\] and p\[1\] share memory"):
                adtrans.autodiff(fn, adtrans.Duplicated((a, a), shadows), other)
    with pytest.raises(adtrans.ActivityError, match=r"arguments p\[0\] \(its shadow\) and p\[1\] \(its shadow\)"):
        adtrans.autodiff(K.tuple_prange, adtrans.Duplicated((a, b), (w, w)), w.copy())
    with pytest.raises(adtrans.ActivityError, match=r"arguments p\[1\] and w share memory"):
        adtrans.autodiff(K.tuple_prange, adtrans.Duplicated((b, a), (np.zeros(4), np.zeros(4))),
                         adtrans.Duplicated(a, np.zeros(4)))
    with pytest.raises(adtrans.ActivityError, match=r"arguments p\[0\] \(its shadow\) and w share memory"):
        adtrans.autodiff(K.tuple_prange, adtrans.Duplicated((a, b), (w, np.zeros(4))), w)


def test_same_array_twice_in_a_tuple_the_kernel_only_reads():
    """A serial kernel that only reads the tuple: the two elements' adjoints add into one shadow."""
    a, w = RNG.standard_normal(4), RNG.standard_normal(4)
    da = np.zeros(4)
    adtrans.autodiff(K.tuple_param, adtrans.Duplicated((a, a), (da, da)), w)
    (fa,) = fd_tuple(lambda u: K.tuple_param.py_func((u, u), w), [a])
    np.testing.assert_allclose(da, fa, rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------- 4. data-dependent lengths in taped loops
def test_self_compaction_in_a_taped_loop_is_refused_at_its_line():
    with pytest.raises(adtrans.UnsupportedError) as e:
        adtrans.grad(K.self_compaction)(U0.copy(), 0.3, 3)
    msg = str(e.value)
    assert f"kernels_issue13_leftovers.py:{marked_line(K.self_compaction)}:" in msg
    assert "length depends on the data" in msg and "bind the array afresh" in msg


def test_truncation_to_a_computed_length_names_the_line():
    """`x = x[:m] * 0.9` with `m` counted in the loop: written into `x`'s array, whose length stays;
    the run-time check fails, and adtrans refuses the construct (UnsupportedError) at the user's line,
    saying what to write instead."""
    with pytest.raises(adtrans.UnsupportedError) as e:
        adtrans.grad(K.truncation)(U0.copy(), 3)
    msg = str(e.value)
    assert e.value.filename.endswith("kernels_issue13_leftovers.py") and e.value.lineno == marked_line(K.truncation)
    assert f"kernels_issue13_leftovers.py:{marked_line(K.truncation)}:0: unsupported: `x = " in msg
    assert "`x` is rebound inside a loop or branch to a value of another length" in msg
    assert "bind the array afresh" in msg

"""NumPy functions in kernels, third part (adtrans/normalise/arrayfuncs.py and the new entries of the
derivative table): shifts, differences, convolutions, interpolation, order statistics, NaN-ignoring
reductions, shape and constant functions.  Gradients against central finite differences in float64
(on the pure-Python function where Numba does not compile the form); kernels in
tests/kernels_npfuncs.py."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_npfuncs as K
from fdcheck import check

RNG = np.random.default_rng(29)
pytestmark = pytest.mark.filterwarnings("ignore:`row_stack` alias is deprecated")   # NumPy 2 (py_func runs)


def u(*shape, lo=0.2, hi=1.2):
    return RNG.uniform(lo, hi, shape)


XP = np.array([0.0, 0.3, 0.5, 0.9, 1.2])
BINS = np.array([0.3, 0.6, 0.9])


@pytest.mark.parametrize("fn,args", [
    (K.roll_stencil, lambda: [u(9), 0.1, 3]),
    (K.roll_runtime, lambda: [u(7), 3]),
    (K.roll_runtime, lambda: [u(7), -9]),
    (K.roll_flat_2d, lambda: [u(4, 5), -2]),
    (K.flips, lambda: [u(3, 4), u(5)]),
    (K.flip_view_write, lambda: [u(5)]),
    (K.diffs, lambda: [u(8), u(3, 4)]),
    (K.diff_in_loop, lambda: [u(8), 3]),
    (K.cumprods, lambda: [u(5), u(3, 4)]),
    (K.convolutions, lambda: [u(6), u(3)]),
    (K.convolutions, lambda: [u(2), u(5)]),
    (K.convolve_in_loop, lambda: [u(7), u(3), 3]),
    (K.interps, lambda: [RNG.uniform(-0.2, 1.4, 9), XP, u(5)]),
    (K.interp_loop, lambda: [RNG.uniform(-0.2, 1.4, 9), XP, u(5)]),
    (K.crosses, lambda: [u(3), u(3), u(4, 3), u(4, 3)]),
    (K.averages, lambda: [u(6), u(6), u(3, 4)]),
    (K.ufuncs2, lambda: [u(5), u(5)]),
    (K.ufuncs2_loop, lambda: [u(5), u(5)]),
    (K.nan_reductions, lambda: [u(8)]),
    pytest.param(K.order_statistics, lambda: [u(7), u(3, 4), np.array([12.0, 45.0, 77.0])],
                 marks=pytest.mark.slow),          # compiles for 20-40 s (sort permutations)
    pytest.param(K.order_statistics, lambda: [u(6), u(3, 3), np.array([12.0, 45.0, 77.0])],
                 marks=pytest.mark.slow),
    (K.median_in_loop, lambda: [u(3, 6)]),
    (K.percentile_small, lambda: [u(7), 37.0]),
    (K.shapes2, lambda: [u(4), u(4), u(3, 5)]),
    (K.gathers2, lambda: [u(5), u(3, 4), np.array([0, 3, -1, 2])]),
    (K.matrices2, lambda: [u(4), u(2, 3)]),
    (K.axes2, lambda: [u(3, 3), u(3, 3)]),
    (K.axes3, lambda: [u(2, 3, 4)]),
    pytest.param(K.constants, lambda: [u(8), BINS, np.array([1, 0, 3, 1, 2])],
                 marks=pytest.mark.slow),          # compiles for 40-90 s
    (K.constants_loop, lambda: [u(3, 5), BINS]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_gradients_match_finite_differences(fn, args):
    check(fn, args(), primal=fn.py_func)     # the differences run NumPy (Numba compiles no primal here)


@pytest.mark.parametrize("fn,args", [
    (K.roll_axis, lambda: [u(3, 5), 2]),
    (K.flip_axis, lambda: [u(3, 4)]),
    (K.diff_axis, lambda: [u(5, 3)]),
    (K.cumprod_axis, lambda: [u(3, 4)]),
    (K.take_axis, lambda: [u(3, 4), np.array([3, -1, 0])]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_forms_numba_does_not_compile_match_numpy(fn, args):
    """np.roll/flip/diff/cumprod with axis= (PRIMAL_LIMITS): the differences run NumPy."""
    check(fn, args(), primal=fn.py_func)


def test_roll_reads_one_compare_per_element_and_the_stencil_adjoint_reads_well():
    src = adtrans.source(K.roll_stencil, ("dup", "const", "const"), u(9), 0.1, 3)
    assert "%" in src and src.count(" % ") <= 2, src          # the shift is reduced once per roll
    assert "# adjoint of: u = u + c * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))" in src
    assert src == adtrans.source(K.roll_stencil, ("dup", "const", "const"), u(9), 0.1, 3)   # deterministic


def test_the_values_are_numpys():
    """The lowered forward code computes what NumPy computes (the gradient of x -> <w, f(x)> at
    w = e_k is not enough: check the values through a linear probe, sum(f(x) * w))."""
    x, w = u(7), u(7)
    g = adtrans.grad(K.roll_runtime)(x, 3)
    np.testing.assert_allclose(g, np.roll(x, 3) * np.arange(7) + np.roll(x * np.arange(7), -3), rtol=1e-13)
    del w
    xq, fp = RNG.uniform(-0.2, 1.4, 9), u(5)
    got = adtrans.grad(K.interps, argnums=2)(xq, XP, fp)
    h = 1e-6
    fd = np.array([(K.interps.py_func(xq, XP, fp + h * e) - K.interps.py_func(xq, XP, fp - h * e)) / (2 * h)
                   for e in np.eye(5)])
    np.testing.assert_allclose(got, fd, rtol=1e-6)


def test_nan_entries_contribute_nothing():
    x = u(8)
    x[[1, 4]] = np.nan
    g = adtrans.grad(K.nan_reductions)(np.where(np.isnan(x), 0.9, x))
    assert np.isfinite(g).all()
    g2 = adtrans.grad(K.nan_only_sum)(x)
    np.testing.assert_array_equal(g2, np.where(np.isnan(x), 0.0, 2.0 * np.where(np.isnan(x), 0.0, x)))
    # every entry NaN: the primal is NaN (nanmean of nothing); no entry reaches it, so the
    # gradient is 0 (it was a ZeroDivisionError in the adjoint's 0.0 / 0.0)
    allnan = np.full(8, 0.9)
    assert np.isnan(K.nan_reductions(allnan))
    np.testing.assert_array_equal(adtrans.grad(K.nan_reductions)(allnan), np.zeros(8))


def _line_of(fn, marker="<- refused"):
    src, start = inspect.getsourcelines(fn)
    return start + next(k for k, ln in enumerate(src) if marker in ln)


@pytest.mark.parametrize("fn,args,construct,hint", [
    (K.refused_repeat_counts, lambda: [u(3), np.array([1, 2, 0])], "np.repeat with an array of repeat counts",
     "x[idx]"),
    (K.refused_interp_left, lambda: [u(3), XP, u(5)], "np.interp with left/right/period", "np.where"),
    (K.refused_bincount_weights, lambda: [np.array([0, 2, 1]), u(3)], "np.bincount with weights", "out[idx[k]]"),
    (K.refused_ediff1d_end, lambda: [u(4)], "np.ediff1d with to_end/to_begin", "np.concatenate"),
    (K.refused_cross_2, lambda: [u(3), u(3)], "np.cross", "3 components"),
    (K.refused_nonzero_2d, lambda: [u(3, 4)], "np.nonzero(A > 0.5)[2]` of a 2-d array", "from 0 to 1"),
], ids=lambda v: getattr(v, "__name__", ""))
def test_unsupported_forms_are_refused_with_the_line(fn, args, construct, hint):
    wrapped = [adtrans.Duplicated(a, np.zeros_like(a)) if isinstance(a, np.ndarray) and a.dtype.kind == "f"
               else adtrans.Const(a) for a in args()]
    try:
        adtrans.autodiff(fn, *wrapped)
    except (adtrans.UnsupportedError, ValueError) as e:
        msg = str(e)
    else:
        raise AssertionError("not refused")
    assert construct in msg and hint in msg, msg
    assert f"kernels_npfuncs.py:{_line_of(fn)}" in msg, msg


def test_a_refusal_names_the_users_expression_not_a_temporary():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.grad(K.refused_no_rule)(u(3))
    msg = str(info.value)
    assert "with an active argument (`x[i] * 2.0`)" in msg, msg
    assert f"kernels_npfuncs.py:{_line_of(K.refused_no_rule)}" in msg, msg


def test_table_entries_in_a_driver():
    check(K.driver_ufuncs2, [u(5), u(5)])

"""Inner functions of kernels, np.nonzero/argwhere gathers, np.nanvar/nanstd, np.tile (not in Numba),
raise with run-time values, .flat of views; drivers collecting kernel results in lists: each gradient
against central finite differences in float64 on the Numba kernel or the Python driver."""
import inspect

import numpy as np
import pytest
from numba import njit

import adtrans
import kernels_forms_more as K
from adtrans.normalise.arrayvalues import NUMBA_MISSING
from fdcheck import check

RNG = np.random.default_rng(13)


def v(*shape):
    return RNG.uniform(0.3, 1.2, shape)


@pytest.mark.parametrize("fn,args", [
    (K.closure_scalar, lambda: [v(5), 1.5]),
    (K.closure_reads_array, lambda: [v(5), v(5)]),
    (K.named_lambda, lambda: [v(4), v(4)]),
    (K.closure_writes_output, lambda: [v(4), np.zeros(4)]),
    (K.closure_calls_closure, lambda: [v(4), 0.7]),
    (K.closure_late_binding, lambda: [v(4), 0.7]),
    (K.closure_two_results, lambda: [v(4)]),
    (K.closure_with_branch, lambda: [v(6), 1.1]),
    (K.closure_of_arrays, lambda: [v(4)]),
    (K.closure_in_prange, lambda: [v(6), v(6)]),
    (K.nan_spread, lambda: [v(6), np.array([False, True, False, False, True, False])]),
    (K.flat_of_views, lambda: [v(3, 4)]),
    (K.raise_with_values, lambda: [v(4), 2]),
], ids=lambda f: getattr(f, "__name__", ""))
def test_form_matches_finite_differences(fn, args):
    check(fn, args())


def test_late_binding_is_numbas():
    x = v(4)
    c, want = 0.7, 0.0
    for t in x:
        c *= 1.5
        want += c * t
    assert K.closure_late_binding(x, 0.7) == pytest.approx(want, rel=1e-14)
    g = adtrans.grad(K.closure_late_binding)(x, 0.7)
    np.testing.assert_allclose(g, 0.7 * 1.5 ** np.arange(1, 5), rtol=1e-14)


def test_raise_with_run_time_values_raises_from_the_adjoint():
    x = v(4)
    x[2] = -1.0
    for args in ((x, 2), (v(3), -1)):
        with pytest.raises(ValueError) as want:
            K.raise_with_values(*args)
        with pytest.raises(ValueError) as got:
            adtrans.grad(K.raise_with_values)(*args)
        assert got.value.args == want.value.args


def test_closure_used_as_a_value_is_refused_with_its_line():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_forms_more.py:\d+:\d+: .*inner function `g` used "
                                                       r"as a value"):
        adtrans.grad(K.closure_escapes)(v(3))


@pytest.mark.parametrize("fn,args", [
    (K.nonzero_gather, lambda: [v(6), np.array([1, 0, 2, 0, 0, 3])]),
    (K.nonzero_of_comparison, lambda: [v(6) - 0.3]),
    (K.argwhere_gather, lambda: [v(3, 4), v(3, 4)]),
], ids=lambda f: getattr(f, "__name__", ""))
def test_index_arrays_from_masks(fn, args):
    a = args()
    check(fn, a, activity=("dup",) + ("const",) * (len(a) - 1))


def test_nonzero_primal_and_gradient_values():
    x, m = v(6), np.array([1, 0, 2, 0, 0, 3])
    g = adtrans.grad(K.nonzero_gather)(x, m)
    np.testing.assert_allclose(g, np.where(m != 0, 2 * x, 0.0) + np.where(m > 1, np.exp(x), 0.0), rtol=1e-14)
    assert K.nonzero_gather(x, m) == pytest.approx(np.sum(x[m != 0] ** 2) + np.sum(np.exp(x[m > 1])), rel=1e-14)


def test_nan_spread_ignores_nans_and_all_nan_is_nan():
    x, m = v(6), np.array([False, True, False, False, True, False])
    y = np.where(m, np.nan, x)
    assert K.nan_spread(x, m) == pytest.approx(np.nanstd(y) + np.nanvar(y) * 2.0, rel=1e-13)
    d = x[~m] - x[~m].mean()
    g = adtrans.grad(K.nan_spread)(x, m)
    want = np.zeros(6)
    want[~m] = d / (d.size * np.std(x[~m])) + 2.0 * 2 * d / d.size
    np.testing.assert_allclose(g, want, rtol=1e-12)
    x = v(3)
    assert np.isnan(K.nan_spread_all(x))
    np.testing.assert_array_equal(adtrans.grad(K.nan_spread_all)(x), np.zeros(3))


@pytest.mark.parametrize("name", sorted(NUMBA_MISSING))
def test_functions_listed_as_missing_are_missing_from_numba(name):
    fn = getattr(np, name)

    @njit
    def uses(x):
        return fn(x, 2)

    with pytest.raises(Exception, match="(?i)unsupported|untyped|not supported"):
        uses(np.ones(3))


@pytest.mark.parametrize("fn,args,act", [
    (K.driver_sum_of_list, lambda: [v(5), 3], ("dup", "const")),
    (K.driver_array_of_list, lambda: [v(5), 0.8, 3], ("dup", "active", "const")),
    (K.driver_last_and_slices, lambda: [v(4), 3], ("dup", "const")),
    (K.driver_states, lambda: [v(5), 0.4, 3], ("dup", "active", "const")),
    (K.driver_extremes, lambda: [v(4), 4], ("dup", "const")),
    (K.driver_same_array_twice, lambda: [v(4), 0.4], ("dup", "active")),
    (K.driver_list_of_arrays_rebound, lambda: [v(4), 0.4, 3], ("dup", "active", "const")),
], ids=lambda f: getattr(f, "__name__", ""))
def test_driver_lists_of_active_values(fn, args, act):
    check(fn, args(), activity=act)


def test_driver_list_gradient_values():
    x = v(5)
    g = adtrans.grad(K.driver_sum_of_list)(x, 3)
    want = sum((k + 1.0) * 2 * x + k * np.cos(k * x) for k in range(3))
    np.testing.assert_allclose(g, want, rtol=1e-13)


def test_driver_refusal_names_the_statement_line():
    src, first = inspect.getsourcelines(K.driver_loop_over_array)
    line = first + next(k for k, ln in enumerate(src) if "<- refused" in ln)
    with pytest.raises(adtrans.UnsupportedError, match=rf"kernels_forms_more.py:{line}:1: .*for loop over active"):
        adtrans.grad(K.driver_loop_over_array)(v(3))

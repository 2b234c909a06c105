"""What a new user's sixth corpus of public-style Numba kernels found (issue 13): each gradient
against central finite differences in float64 on the pure-Python function, or a refusal at the
user's line."""
import numpy as np
import pytest

import adtrans
import kernels_newuser6 as K
from fdcheck import check

RNG = np.random.default_rng(6)
COUPONS = np.array([5.0, 5.0, 5.0, 105.0])


def test_bisection_is_refused_at_its_comparison():
    """Its gradient would be zero (the value never reads the inputs), finite differences are not."""
    with pytest.raises(adtrans.UnsupportedError) as e:
        adtrans.autodiff(K.bisection_ytm, adtrans.Active(95.0), adtrans.Duplicated(COUPONS.copy(), np.zeros(4)))
    msg = str(e.value)
    assert "kernels_newuser6.py:18:" in msg and "`pv > price`" in msg and "bisection" in msg and "Newton" in msg
    f = K.bisection_ytm.py_func
    assert abs(f(95.0 + 1e-6, COUPONS) - f(95.0 - 1e-6, COUPONS)) > 1e-9      # the value does move
    with pytest.raises(adtrans.UnsupportedError, match="kernels_newuser6.py:31:.*a \\* mid"):
        adtrans.grad(K.bisection_fixed_steps)(3.0, 0.5)


def test_newton_root_find_is_differentiated():
    assert check(K.newton_ytm, [95.0, COUPONS], primal=K.newton_ytm.py_func) < 1e-6
    f = K.newton_ytm.py_func
    assert abs(f(95.0, COUPONS) - K.bisection_ytm.py_func(95.0, COUPONS)) < 1e-10


def test_counts_and_lookups_under_comparisons_are_not_refused():
    x = RNG.standard_normal(15)
    x = x[np.abs(x - 0.3) > 1e-3]
    g = adtrans.grad(K.exceedance_fraction)(x, 0.3)
    assert np.all(g[0] == 0.0) and g[1] == 0.0
    assert check(K.exceedance_fraction, [x, 0.3], primal=K.exceedance_fraction.py_func) < 1e-6
    levels = np.array([2.0, -1.0])
    assert check(K.regime_level, [x, levels], primal=K.regime_level.py_func, activity=["dup", "const"]) < 1e-6
    dx, dl = np.zeros_like(x), np.zeros(2)
    adtrans.autodiff(K.regime_level, adtrans.Duplicated(x.copy(), dx), adtrans.Duplicated(levels.copy(), dl))
    np.testing.assert_array_equal(dl, [np.sum(x > 0), np.sum(x <= 0)])


def test_mask_and_time_index_read():
    """``S[itm, t]`` was refused (an array index beside another index): now ``S[:, t][itm]``."""
    S = np.exp(np.cumsum(0.1 * RNG.standard_normal((30, 5)), axis=1))
    assert check(K.lsm_continuation, [S], primal=K.lsm_continuation.py_func) < 1e-6
    assert abs(K.lsm_continuation(S) - K.lsm_continuation.py_func(S)) < 1e-12


def test_mask_count_varying_in_a_taped_loop():
    """``cash`` rebound in the loop makes it a taped loop; ``cash[itm]``'s length changes with ``t``
    (the reverse sweep once read it at the last iteration's length; then refused; now each reverse
    iteration rebinds it at its own length, transform/varlen.py)."""
    S = np.exp(np.cumsum(0.1 * RNG.standard_normal((30, 5)), axis=1))
    assert len({int(np.sum(1.1 - S[:, t] > 0)) for t in range(1, 4)}) > 1
    check(K.discounted_itm_cash, [S], primal=K.discounted_itm_cash.py_func)


def test_integer_before_and_slice_after_an_index_array():
    X, idx = RNG.standard_normal((4, 5)), np.array([3, 0, 2, 2])
    assert check(K.row_gather, [X, idx], primal=K.row_gather.py_func) < 1e-6
    assert abs(K.row_gather(X, idx) - K.row_gather.py_func(X, idx)) < 1e-12

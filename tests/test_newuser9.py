"""What a new user's ninth trial found (issue 13, kernels from domains not yet covered:
tests/kernels_newuser9.py): two wrong gradients (an inner loop carrying a scalar whose sum the
reverse pops; an element of a helper's returned array read after the helper's loop), strings
compared in kernels, and the messages for np.trapz and complex constants.  Each gradient against
central finite differences in float64 on the pure-Python function, or a refusal at the user's line."""
import math

import numpy as np
import pytest

import adtrans
import kernels_newuser9 as K
from fdcheck import check

RNG = np.random.default_rng(9)


def test_inner_loop_with_a_carried_scalar_and_a_popped_sum():
    """The stage loop ``for s in range(4)`` carries ``kprev`` and sums ``acc``; the reverse pops
    ``acc`` but must still rerun the stages to get each ``kprev`` (it read 0.0: d/dk 4% off)."""
    assert check(K.rk_tableau, [1.0, 0.7, 0.1, 5], primal=K.rk_tableau.py_func) < 1e-6
    g = adtrans.grad(K.rk_tableau, argnums=(1, 2))(1.0, 0.7, 0.1, 5)
    h = 1e-6
    f = K.rk_tableau.py_func
    fd_k = (f(1.0, 0.7 + h, 0.1, 5) - f(1.0, 0.7 - h, 0.1, 5)) / (2 * h)
    assert abs(g[0] - fd_k) < 1e-7 * abs(fd_k)
    # Horner's scheme summed in a time loop (4% off before)
    assert check(K.horner_in_time, [np.array([0.3, -0.2, 0.5]), 0.4, 4], primal=K.horner_in_time.py_func) < 1e-6
    # the same stage loop in an independent (recomputed) outer loop (right before; a guard)
    assert check(K.per_cell_stages, [RNG.standard_normal(3), RNG.uniform(0.5, 1.0, 3), 0.2],
                 primal=K.per_cell_stages.py_func) < 1e-6


def test_element_of_a_helpers_returned_array():
    """``h = layer(x, W, b); h[1]``: the read of ``h[1]`` ran before the helper's loop (the
    gradient was zero)."""
    W, b, x = RNG.standard_normal((3, 4)), RNG.standard_normal(4), RNG.standard_normal(3)
    assert check(K.first_unit, [W, b, x]) < 1e-6
    gW = adtrans.grad(K.first_unit)(W, b, x)
    h = np.tanh(x @ W + b)
    np.testing.assert_allclose(gW[:, 1], 2 * h[1] * (1 - h[1] ** 2) * x, rtol=1e-12)
    np.testing.assert_array_equal(np.delete(gW, 1, axis=1), 0.0)
    # a user's own second name for a loop's result
    assert check(K.aliased_result, [RNG.standard_normal(4)]) < 1e-6


def test_mlp_called_per_sample_from_a_loop():
    W1, b1, W2 = RNG.standard_normal((3, 4)), RNG.standard_normal(4), RNG.standard_normal((4, 1))
    X, y = RNG.standard_normal((5, 3)), RNG.standard_normal(5)
    assert check(K.mlp_batches, [W1, b1, W2, X, y], activity=["dup", "dup", "dup", "const", "const"]) < 1e-6


@pytest.mark.parametrize("limiter", [None, "minmod", "vanleer", "superbee"])
def test_string_compared_in_a_kernel(limiter):
    u = RNG.standard_normal(8)
    args = [u] if limiter is None else [u, limiter]
    assert check(K.limited_sum, args, primal=K.limited_sum.py_func) < 1e-6


def test_string_global_and_a_driver_passing_strings():
    u = RNG.standard_normal(6)
    assert check(K.global_scheme, [u, 0.7], primal=K.global_scheme.py_func) < 1e-6
    d = np.diff(u)
    np.testing.assert_allclose(adtrans.grad(K.global_scheme)(u, 0.7), 1.4 * (np.r_[0.0, d] - np.r_[d, 0.0]), rtol=1e-12)
    assert check(K.limiter_driver, [u, "superbee"], activity=["dup", "const"]) < 1e-6


@pytest.mark.parametrize("k, limiter", [(2, "minmod"), (5, "mc"), (2, "other")])
def test_membership_in_a_tuple_of_constants(k, limiter):
    u = RNG.standard_normal(7)
    assert check(K.in_choices, [u, k, limiter], primal=K.in_choices.py_func) < 1e-6


def test_string_outside_a_comparison_is_refused_at_the_line():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser9.py:417:28:.*string constant 'abc' outside "
                       r"a comparison.*`if mode == \"fast\":`"):
        adtrans.grad(K.string_length)(np.ones(3))


def test_np_trapz_is_refused_naming_trapezoid():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser9.py:373:12:.*np.trapz.*np.trapezoid\(y, x\)"):
        adtrans.grad(K.trapz_dose)(np.ones(3), np.arange(3.0))
    c, t = RNG.uniform(0, 1, 6), np.cumsum(RNG.uniform(0.1, 1, 6))
    g = adtrans.grad(K.trapz_dose_hint)(c, t)
    w = np.zeros(6)
    w[:-1] += 0.5 * np.diff(t)
    w[1:] += 0.5 * np.diff(t)
    np.testing.assert_allclose(g, w, rtol=1e-12)


def test_complex_constant_is_refused_with_the_real_form():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser9.py:381:34:.*complex constant 1j.*"
                       r"real and imaginary parts as separate floats"):
        adtrans.grad(K.complex_film)(np.array([1.4, 2.3]), np.array([0.1, 0.07]), 0.6)


# ------------------------------------------------------------- the trial's kernels (cold: ~4 min)
def _trial_cases():
    R = np.random.default_rng(9)
    n = 6
    return [
        (K.beer_lambert, [R.uniform(0.1, 1, n), R.uniform(0.1, 0.5, n), 2.0], None),
        (K.beer_lambert_rays, [R.uniform(0.1, 1, n), R.uniform(0.1, 0.5, n), R.uniform(0.3, 1, 8)], None),
        (K.muskingum, [np.sin(np.linspace(0, 3, 12)) ** 2 * 10 + 1, 2.0, 0.2, 1.0], None),
        (K.enzyme_rk4, [np.array([1.0, 0.0]), 1.2, 0.4, 0.05, 20], None),
        # data off the limiter's kinks (a sine sampled evenly has |a| == |b| ties)
        (K.burgers_fv, [np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False)) + 0.3 + 0.05 * R.standard_normal(16),
                        0.01, 0.1, 5], None),
        (K.logreg_loss, [R.standard_normal(3), R.standard_normal((10, 3)), np.sign(R.standard_normal(10)), 0.1],
         ["dup", "const", "const", "active"]),
        (K.savgol_residual, [R.standard_normal(12), np.array([-3., 12, 17, 12, -3]) / 35], None),
        (K.poisson_glm, [R.standard_normal(3) * 0.3, R.standard_normal(2) * 0.3, R.standard_normal((8, 3)),
                         R.poisson(2, 8).astype(np.float64), R.integers(0, 2, 8)], ["dup", "dup", "const", "const", "const"]),
        (K.spring_chain, [np.arange(5.0) * 1.1, R.standard_normal(5) * 0.1, 3.0, 1.0, 0.05, 10], None),
        (K.mlp_loss, [R.standard_normal((3, 4)), R.standard_normal(4), R.standard_normal(4), R.standard_normal((5, 3)),
                      R.standard_normal(5)], ["dup", "dup", "dup", "const", "const"]),
        (K.pk_fit, [np.array([0.5, 0.3, 0.2]), 10.0, R.uniform(0, 1, 8)], ["dup", "const", "const"]),
        (K.thin_film, [np.array([1.4, 2.3, 1.4, 2.3]), np.array([0.1, 0.07, 0.1, 0.07]), 6.0], None),
        (K.gp_nll, [R.standard_normal((5, 2)), R.standard_normal(5), 0.8, 1.1, 0.3], None),
        # capacities apart (np.minimum/np.maximum have no derivative at a tie)
        (K.ntu_effectiveness, [R.uniform(1, 3, 5), np.array([1.0, 2.0, 1.5, 2.0, 3.0]),
                               np.array([2.0, 1.0, 1.6, 2.5, 1.0]), R.uniform(80, 90, 5), R.uniform(10, 20, 5)], None),
        (K.portfolio, [R.standard_normal(4), np.cov(R.standard_normal((4, 10))), R.standard_normal(4), 0.5], None),
        (K.kepler_orbit, [np.linspace(0.1, 6.0, 7), 0.3, 1.5], None),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("case", _trial_cases(), ids=lambda c: c[0].__name__)
def test_trial_kernel_matches_finite_differences(case):
    fn, args, act = case
    assert check(fn, args, activity=act, primal=getattr(fn, "py_func", fn)) < 1e-6


@pytest.mark.slow
def test_two_compartment_concentrations_with_a_seed():
    """A kernel returning its concentration curve: ``autodiff`` with a seed per step."""
    w = RNG.standard_normal(8)
    args = (0.5, 0.3, 0.2, 10.0, 0.1, 8)
    r = adtrans.autodiff(K.two_compartment, *map(adtrans.Active, args[:4]), *args[4:], seed=(w,))
    f = K.two_compartment.py_func
    for k in range(4):
        p, m = list(args), list(args)
        p[k] += 1e-6
        m[k] -= 1e-6
        fd = (w @ f(*p) - w @ f(*m)) / 2e-6
        assert abs(r[k] - fd) < 1e-6 * max(1.0, abs(fd))
    assert math.isfinite(sum(r))

"""What a new user's corpus of public-style Numba kernels found (issue 13): each gradient against
central finite differences in float64, and a run-time error naming the line where NumPy's slice
would be empty."""
import numpy as np
import pytest

import adtrans
import kernels_newuser4 as K
from fdcheck import check

RNG = np.random.default_rng(4)


@pytest.mark.parametrize("fn,args", [
    (K.sir_loss, lambda: [np.array([990.0, 10.0, 0.0]), np.array([0.5, 0.2]), np.array([12.0, 20.0, 31.0, 45.0])]),
    (K.arm_reach, lambda: [np.array([0.3, -0.5, 0.8]), np.array([1.0, 0.8, 0.5]), np.array([1.2, 0.9, 0.1])]),
    (K.abcd_system, lambda: [np.array([10.0, 25.0, 15.0]), np.array([50.0, -30.0, 40.0]), np.array([1.0, 0.01])]),
    (K.pair_potential, lambda: [RNG.standard_normal((5, 2)), RNG.uniform(0.5, 1.5, 4)]),
    (K.muscl_step, lambda: [1.0 + 0.5 * np.sin(np.linspace(0, 6, 12)) + 0.2 * np.cos(np.arange(12.0)), 0.05]),
    (K.route_length, lambda: [np.radians([48.85, 51.5, 52.52, 41.9]), np.radians([2.35, -0.12, 13.4, 12.5])]),
], ids=lambda x: getattr(x, "__name__", ""))
def test_gradient_matches_fd(fn, args):
    assert check(fn, args()) < 1e-5


def test_abcd_gradient_values():
    """The matrices of the second and third iterations are not the last one's (a wrong gradient
    before the fix: d/d ds wrong by more than the gradient)."""
    ds, fs, ray = np.array([10.0, 25.0, 15.0]), np.array([50.0, -30.0, 40.0]), np.array([1.0, 0.0])
    gd, gf = adtrans.grad(K.abcd_system, argnums=(0, 1))(ds, fs, ray)
    h = 1e-6
    fd = [(K.abcd_system.py_func(ds + h * e, fs, ray) - K.abcd_system.py_func(ds - h * e, fs, ray)) / (2 * h)
          for e in np.eye(3)]
    np.testing.assert_allclose(gd, fd, rtol=1e-6, atol=1e-9)
    assert abs(gd[0]) > 0.01


def test_one_element_slice_past_the_axis_names_the_line():
    pos = RNG.standard_normal((3, 2))
    with pytest.raises(ValueError, match=r"kernels_newuser4.py:\d+.*one-element slice"):
        adtrans.grad(K.column_past_end)(pos)


def test_literal_left_in_a_conditional_is_refused_at_its_line():
    """Not hoisted (that would evaluate both branches): refused at the user's line, with advice."""
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser4.py:\d+:\d+: .*np.array"):
        adtrans.grad(K.literal_in_conditional)(np.array([1.0, 2.0]), 1.0)

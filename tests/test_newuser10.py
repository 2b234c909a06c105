"""What a new user's tenth trial found (issue 13): ``prange`` kernels over pixels, particles, rows
and ensemble members, and plain-Python drivers calling several kernels in a time loop.  Each
gradient against central finite differences in float64 on the pure-Python function (drivers: the
driver itself, its kernels compiled), or a refusal at the user's line."""
import re

import numpy as np
import pytest

import adtrans
import kernels_newuser10 as K
from fdcheck import check

RNG = np.random.default_rng(10)
GL = np.polynomial.legendre.leggauss(4)


def _kernels():
    R = np.random.default_rng(11)
    pts = np.array([[0, 0, 0], [1.1, 0, 0], [0, 1.2, 0], [0.1, 0.2, 1.05]]) + 0.01 * R.standard_normal((4, 3))
    return [
        (K.tv_energy, [R.standard_normal((5, 6)), R.standard_normal((5, 6)), 0.7, 0.1], None),
        (K.pendulum_ensemble, [R.uniform(-1, 1, 4), R.uniform(-1, 1, 4), R.uniform(1, 3, 4), 0.05, 10, np.zeros(4)],
         ["dup", "dup", "dup", "active", "const", "dup"]),
        (K.softmax_xent, [R.standard_normal((5, 4)), np.array([0, 3, -1, 2, 1])], None),
        (K.gl_quadrature, [np.array([1.2, 0.7, 0.4]), np.linspace(-1, 2, 5), GL[0], GL[1]], None),
        (K.mds_stress, [R.standard_normal((5, 3)), np.abs(R.standard_normal((5, 5))) + 0.5], None),
        (K.kde_loglik, [R.standard_normal(8), np.array([0.6]), R.standard_normal(5)], None),
        (K.pair_energy, [pts, 0.9], None),
        (K.row_standardise, [R.standard_normal((4, 5)), np.zeros((4, 5))], None),
        (K.kepler_positions, [R.uniform(0.1, 3, 5), R.uniform(0.1, 0.6, 5), np.zeros(5)], None),
        (K.masked_smoothness, [R.standard_normal((5, 6)), (R.uniform(0, 1, (5, 6)) > 0.3).astype(np.int64)], None),
        (K.linear_softmax, [R.standard_normal((4, 3)), R.standard_normal((5, 3)), np.zeros((4, 5))], None),
        (K.cutoff_energy, [R.uniform(0, 2, (6, 3)), 1.5], None),
        (K.moments, [R.standard_normal(6), R.uniform(0.5, 1.5, 6)], None),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("fn, args, activity", _kernels(), ids=lambda v: getattr(v, "__name__", ""))
def test_prange_kernels_as_users_write_them(fn, args, activity):
    """Passed before this round: kept so that they stay right."""
    assert check(fn, args, primal=fn.py_func, activity=activity) < 1e-5


def _drivers():
    R = np.random.default_rng(12)
    return [
        (K.pic_driver, [R.uniform(0.05, 0.95, 10), 0.1 * R.standard_normal(10), R.uniform(0.5, 1.5, 10), 3]),
        (K.nw_loss, [R.standard_normal((4, 2)), R.standard_normal((6, 2)), R.standard_normal(6), 0.8,
                     R.standard_normal(4)]),
        (K.traffic_driver, [np.linspace(0, 450, 10) + R.uniform(0, 5, 10), R.uniform(8, 12, 10),
                            np.array([15.0, 1.5, 1.0, 1.5, 2.0]), 5]),
        (K.ebm_driver, [R.uniform(-20, 20, 8), np.linspace(-1.4, 1.4, 8), np.array([1360.0, 200.0, 2.0, 0.5]), 5]),
        (K.cfl_driver, [R.standard_normal(8), R.uniform(0.5, 1.0, 8), 0.3]),
        (K.heat_fit_driver, [R.standard_normal(6), 0.2, R.standard_normal((3, 6))]),
        (K.relax_driver, [R.standard_normal(5), R.standard_normal(5), 0.3]),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("fn, args", _drivers(), ids=lambda v: getattr(v, "__name__", ""))
def test_time_loop_drivers_as_users_write_them(fn, args):
    """Passed before this round: kept so that they stay right."""
    assert check(fn, args) < 1e-5


def test_array_bound_in_a_branch_of_an_inner_loop_of_a_prange_body():
    """`k2 = rhs(y + 0.5 * dt * k1, g)` lands under the broadcast check's `else` inside the RK2 loop;
    Numba's parfor body read it after the loop as an empty array (`k2.size` 0: the tape top off,
    d_dt uninitialised memory, d_Y0 wrong by 7 %).  Now bound to an empty array first."""
    Y0, out = RNG.uniform(-1, 1, (3, 2)), np.zeros((3, 2))
    args = [Y0, 9.81, 0.02, 8, out]
    assert check(K.pendulum_helper, args, primal=K.pendulum_helper.py_func,
                 activity=["dup", "active", "active", "const", "dup"]) < 1e-6
    src = adtrans.source(K.pendulum_helper, ("dup", "active", "active", "const", "dup"), *args)
    assert "        k2 = np.empty(0, np.float64)\n" in src


@pytest.mark.parametrize("fn", [K.worst_and_product, K.product_only, K.min_reduction])
def test_max_min_and_product_reductions_in_prange(fn):
    """Numba's own prange reductions `m = max(m, v)`, `m = min(m, v)`, `p *= f` were refused."""
    x = RNG.standard_normal(7)
    assert check(fn, [x], primal=fn.py_func) < 1e-6


def test_max_reduction_in_an_inner_loop_after_a_continue():
    u, w = RNG.standard_normal(9), RNG.standard_normal(9)
    assert check(K.peak_interior, [u, w], primal=K.peak_interior.py_func) < 1e-6
    assert abs(K.peak_interior(u, w) - K.peak_interior.py_func(u, w)) < 1e-14


def test_max_reduction_ties_go_where_the_serial_loop_sends_them():
    x = np.array([0.5, -2.0, 1.0, 2.0, -0.3])          # x[1] ** 2 == x[3] ** 2: the first one wins
    g = adtrans.grad(K.first_max_prange)(x)
    np.testing.assert_array_equal(g, adtrans.grad(K.first_max_serial)(x))
    np.testing.assert_array_equal(g, [0.0, -4.0, 0.0, 0.0, 0.0])
    src = adtrans.source(K.first_max_prange, ("dup",), x)
    assert "# adjoint of: m = max(m, x[i] * x[i])" in src and "numba.prange" in src


def test_running_maximum_read_in_the_body_stays_refused_at_the_loop():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser10.py:517:5:.*prange loop whose "
                       r"iterations depend on each other \(`m` carries a value"):
        adtrans.grad(K.running_max_read)(np.ones(4))


def test_nested_prange_keeps_its_adjoint_parallel():
    """The inner prange's shape checks raised inside the outer prange body: Numba ran the adjoint
    serially (NumbaPerformanceWarning "more than one entry to or exit from the loop")."""
    img, wts = RNG.standard_normal((5, 5)), RNG.standard_normal((3, 3))
    assert check(K.box_blur_energy, [img, wts], primal=K.box_blur_energy.py_func) < 1e-6
    src = adtrans.source(K.box_blur_energy, ("dup", "dup"), img, wts)
    raises = re.findall(r"^( *)raise ValueError", src, re.M)
    assert raises and all(len(pad) == 8 for pad in raises)          # after the loop, not in its body


def test_driver_stacks_active_arrays():
    a, b = RNG.standard_normal(5), RNG.standard_normal(5)
    assert check(K.slice_driver, [a, b]) < 1e-6
    A, B, w = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    assert check(K.stack_driver, [A, B, w]) < 1e-6


@pytest.mark.slow
def test_whole_array_product_reduction():
    """A local array's `acc *= f` in a prange was refused ("writes `acc` at an index"): now one row of
    slots per iteration (issue 13's leftovers, tests/test_issue13_leftovers.py)."""
    X = RNG.standard_normal((4, 3))
    assert check(K.scaled_rows_product, [X], primal=K.scaled_rows_product.py_func) < 1e-6

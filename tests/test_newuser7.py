"""What a new user's seventh corpus of public-style Numba kernels found (issue 13): each gradient
against central finite differences in float64 on the pure-Python function, or a refusal at the
user's line."""
import numpy as np
import pytest

import adtrans
import kernels_newuser7 as K
from fdcheck import check

RNG = np.random.default_rng(7)


def test_kron_is_differentiated():
    A, B = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 2))
    assert check(K.kron_energy, [A, B], primal=K.kron_energy.py_func) < 1e-6
    a, b, M = RNG.standard_normal(3), RNG.standard_normal(2), RNG.standard_normal((6, 6))
    assert check(K.kron_mixed, [a, b, M], primal=K.kron_mixed.py_func) < 1e-6
    assert abs(K.kron_mixed(a, b, M) - K.kron_mixed.py_func(a, b, M)) < 1e-12


def test_histogram_counts_are_constant():
    x, w = RNG.standard_normal(20), RNG.standard_normal(5)
    assert check(K.binned_weights, [x, w], primal=K.binned_weights.py_func) < 1e-6
    dx, dw = np.zeros(20), np.zeros(5)
    adtrans.autodiff(K.binned_weights, adtrans.Duplicated(x.copy(), dx), adtrans.Duplicated(w.copy(), dw))
    np.testing.assert_array_equal(dw, np.histogram(x, bins=5)[0])
    assert np.all(dx == 0.0)
    X, w3 = RNG.standard_normal((4, 7)), RNG.standard_normal(3)
    assert check(K.binned_rows, [X, w3], primal=K.binned_rows.py_func) < 1e-6


def test_histogram_edges_are_differentiated():
    x, w = RNG.standard_normal(20), RNG.standard_normal(4)
    assert check(K.binned_centres, [x, w], primal=K.binned_centres.py_func) < 1e-6
    g = adtrans.grad(K.binned_centres)(x, w)
    assert np.count_nonzero(g) == 2             # the minimum and the maximum move the edges
    assert abs(K.binned_centres(x, w) - K.binned_centres.py_func(x, w)) < 1e-12
    args = [RNG.standard_normal(30), -1.5, 1.7, np.array([-2.0, -0.5, 0.1, 0.8, 2.5]), RNG.standard_normal(4)]
    assert check(K.binned_ranges, args, primal=K.binned_ranges.py_func) < 1e-6


def test_driver_ravel_and_reshape_of_active_arrays():
    A = RNG.standard_normal((3, 4))
    assert check(K.column_driver, [A, 1], activity=["dup", "const"]) < 1e-6
    g = adtrans.grad(K.column_driver)(A, 1)
    assert np.all(g[:, [0, 2, 3]] == 0.0)
    assert check(K.reshape_driver, [A, RNG.standard_normal(2)]) < 1e-6


def test_driver_tuples_of_active_values():
    assert check(K.tuple_driver, [1.5, 0.5]) < 1e-6
    np.testing.assert_allclose(adtrans.grad(K.tuple_driver, argnums=(0, 1))(1.5, 0.5), (32.0, 33.0), rtol=1e-14)
    np.testing.assert_allclose(adtrans.grad(K.list_unpack_driver, argnums=(0, 1))(1.5, 0.5), (12.0, 1.0),
                               rtol=1e-14)
    # a tuple passed whole to a kernel was refused; its floats' adjoints now come back (issue 13)
    assert check(K.tuple_to_kernel_driver, [1.5, 0.5]) < 1e-6
    assert adtrans.grad(K.tuple_to_kernel_driver, argnums=(0, 1))(1.5, 0.5) == (2.0, 1.0)


def test_complex_parameter_is_refused_with_the_real_embedding():
    """It was a Numba typing error inside the lowered kernel (complex arrays were lowered as float64)."""
    A = RNG.standard_normal((3, 3))
    A = A + A.T
    B = RNG.standard_normal((3, 3))
    B = B - B.T
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser7.py:100:22:.*complex parameter `H`.*"
                                                       r"np.hstack\(\(A, -B\)\)"):
        adtrans.autodiff(K.hermitian_levels, adtrans.Const(A + 1j * B), adtrans.Active(1.3))
    assert abs(K.hermitian_levels.py_func(A + 1j * B, 1.3) - K.hermitian_levels_real.py_func(A, B, 1.3)) < 1e-10
    assert check(K.hermitian_levels_real, [A, B, 1.3], primal=K.hermitian_levels_real.py_func) < 1e-6
    assert check(K.complex_cast, [A], primal=K.complex_cast.py_func) < 1e-5     # real values cast: differentiated


def test_driver_whole_array_extremes_and_spreads():
    u0 = RNG.standard_normal(8)
    assert check(K.extremes_driver, [u0, 0.2]) < 1e-6
    assert check(K.list_extreme_driver, [1.5, 0.5]) < 1e-6


def test_driver_unpacking_of_active_rows_and_elements():
    assert check(K.unpack_rows_driver, [RNG.standard_normal((2, 3)), RNG.standard_normal(2)]) < 1e-6
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_newuser7.py:162:.*`pair` into a name twice"):
        adtrans.grad(K.unpack_twice_driver)(1.5, 0.5)

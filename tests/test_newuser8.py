"""What a new user's eighth trial found: lists of array rows stacked in a kernel, math functions
Numba lacks, a tuple of active arrays passed whole to a kernel.  Each gradient against central
finite differences in float64 on the pure-Python function, or a refusal at the user's line."""
import math

import numpy as np
import pytest

import adtrans
import kernels_newuser8 as K
from fdcheck import check

RNG = np.random.default_rng(8)


@pytest.mark.parametrize("fn", [K.stacked_rows, K.vstacked_rows, K.summed_rows, K.named_rows, K.filled_rows])
def test_list_of_rows_is_a_2d_buffer(fn):
    X, c = RNG.standard_normal((4, 3)), RNG.standard_normal(4)
    assert check(fn, [X, c], primal=fn.py_func) < 1e-6


def test_summed_rows_primal_agrees():
    """Numba compiles this one (np.array/np.vstack of a list of arrays it does not)."""
    X, c = RNG.standard_normal((4, 3)), RNG.standard_normal(4)
    assert abs(K.summed_rows(X, c) - K.summed_rows.py_func(X, c)) < 1e-12 * max(1.0, abs(K.summed_rows.py_func(X, c)))


def test_list_of_rows_of_unknown_length_is_refused():
    with pytest.raises(adtrans.UnsupportedError,
                       match=r"kernels_newuser8.py:42:9:.*row length is not known before the loop.*np.empty\(\(n, m\)\)"):
        adtrans.grad(K.unknown_row_length)(np.ones(5), 3)


@pytest.mark.parametrize("fn, line, col, hint", [
    (K.factorial_series, 50, 26, r"math.gamma\(n \+ 1.0\)"),
    (K.cbrt_sum, 56, 12, r"np.cbrt\(x\)"),
    (K.fsum_of, 61, 12, r"np.sum of an array"),
])
def test_math_functions_numba_lacks_are_refused_at_the_line(fn, line, col, hint):
    with pytest.raises(adtrans.UnsupportedError, match=rf"kernels_newuser8.py:{line}:{col}:.*Numba does not compile.*{hint}"):
        adtrans.grad(fn)(np.array([0.7, 1.3]))


def test_factorial_hint_is_differentiated():
    x = np.array([0.7])
    assert check(K.factorial_series_gamma, [x], primal=K.factorial_series_gamma.py_func) < 1e-6
    assert abs(adtrans.grad(K.factorial_series_gamma)(x)[0] - sum(0.7 ** (i - 1) / math.factorial(i - 1)
                                                                     for i in range(1, 6))) < 1e-12


def test_element_of_a_row_of_the_list():
    a = RNG.standard_normal((3, 2))
    assert check(K.first_row_element, [a], primal=K.first_row_element.py_func) < 1e-6
    g = adtrans.grad(K.first_row_element)(a)
    np.testing.assert_allclose(g, [[a[2, 1], 0.0], [0.0, 0.0], [0.0, a[0, 0]]], rtol=1e-14)


def test_tuple_and_list_of_active_arrays_passed_whole_to_a_kernel():
    """They were refused (the kernel's tuple parameter was constant); now each element has its
    own shadow (issue 13, tests/test_tuplewhole.py)."""
    x, y = np.array([1.0, 2.0]), np.array([0.5, 3.0])
    assert check(K.tuple_of_arrays_driver, [x, y]) < 1e-6
    gx, gy = adtrans.grad(K.tuple_of_arrays_driver, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, 2.0 * y, rtol=1e-14)
    np.testing.assert_allclose(gy, 2.0 * x, rtol=1e-14)
    # a list passed whole crashed with a TypeError in the adjoint (the list's shadow plus a float)
    assert check(K.list_of_arrays_driver, [x, y]) < 1e-6
    gx, gy = adtrans.grad(K.list_of_arrays_driver, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, 2.0 * y, rtol=1e-14)
    np.testing.assert_allclose(gy, 2.0 * x, rtol=1e-14)


def test_tuple_of_constants_passed_whole_to_a_kernel():
    x = np.array([1.0, 2.0])
    assert check(K.passive_tuple_driver, [x, 2], activity=["dup", "const"]) < 1e-6
    np.testing.assert_allclose(adtrans.grad(K.passive_tuple_driver)(x, 2), 2 * 6 * x, rtol=1e-14)

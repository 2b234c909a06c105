"""What a new user's seventh corpus of public-style Numba kernels found (issue 13): each gradient
against central finite differences in float64 on the pure-Python function, or a refusal at the
user's line."""
import numpy as np

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


def test_histogram_edges_are_differentiated():
    x, w = RNG.standard_normal(20), RNG.standard_normal(4)
    assert check(K.binned_centres, [x, w], primal=K.binned_centres.py_func) < 1e-6
    g = adtrans.grad(K.binned_centres)(x, w)
    assert np.count_nonzero(g) == 2             # the minimum and the maximum move the edges
    assert abs(K.binned_centres(x, w) - K.binned_centres.py_func(x, w)) < 1e-12
    args = [RNG.standard_normal(30), -1.5, 1.7, np.array([-2.0, -0.5, 0.1, 0.8, 2.5]), RNG.standard_normal(4)]
    assert check(K.binned_ranges, args, primal=K.binned_ranges.py_func) < 1e-6

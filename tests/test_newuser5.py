"""What a new user's corpus of public-style Numba kernels found (issue 13, fifth round): each
gradient against central finite differences in float64 on the pure-Python function."""
import numpy as np

import adtrans
import kernels_newuser5 as K
from fdcheck import check

RNG = np.random.default_rng(5)


def test_helper_array_summed_in_a_loop():
    """The helper's array is read (as ``ret``) by the accumulation after it: its loop is not fused
    into the reverse sweep before that read (the amplitudes' gradients were another line's)."""
    p = np.array([1.0, -1.0, 0.8, 0.5, 1.5, 0.6])
    x, y = np.linspace(-3, 3, 15), RNG.uniform(0, 0.5, 15)
    g = adtrans.grad(K.line_fit)(p, x, y)
    h = 1e-6
    fd = [(K.line_fit.py_func(p + h * e, x, y) - K.line_fit.py_func(p - h * e, x, y)) / (2 * h) for e in np.eye(6)]
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    assert check(K.line_fit, [p, x, y], primal=K.line_fit.py_func) < 1e-5


def test_window_functions_are_constant_arrays():
    x = RNG.standard_normal(20)
    assert check(K.windowed_power, [x, 0.7], primal=K.windowed_power.py_func) < 1e-5
    assert abs(K.windowed_power(x, 0.7) - K.windowed_power.py_func(x, 0.7)) < 1e-12


def test_clip_with_an_open_side():
    x = np.linspace(-3, 3.1, 13)     # no entry at the kink 2.0
    y = np.exp(-0.5 * (x - 0.3) ** 2) + 0.05 * RNG.standard_normal(13) - 0.02
    w = (0.3, -0.7)
    dx, dy = np.zeros_like(x), np.zeros_like(y)
    adtrans.autodiff(K.clipped_moments, adtrans.Duplicated(x.copy(), dx), adtrans.Duplicated(y.copy(), dy), seed=w)
    f = K.clipped_moments.py_func
    obj = (lambda a, b: sum(wi * r for wi, r in zip(w, f(a, b))))
    h = 1e-6
    for k in range(13):
        e = np.zeros(13)
        e[k] = h
        assert abs(dx[k] - (obj(x + e, y) - obj(x - e, y)) / (2 * h)) < 1e-6
        assert abs(dy[k] - (obj(x, y + e) - obj(x, y - e)) / (2 * h)) < 1e-6
    assert np.allclose(K.clipped_moments(x, y), f(x, y), rtol=1e-12)
    assert np.any(y < 0) and np.any(x > 2)


def test_element_assembly_with_tuple_index():
    """``idx[a]`` of a tuple local with a loop name (was refused), and the shadow of the per-element
    array ``ke`` allocated in the reverse sweep's rerun (was a NameError in generated code)."""
    x, kappa, u = np.linspace(0, 1, 6) ** 1.2, np.linspace(1.0, 2.0, 5), RNG.standard_normal(6)
    assert check(K.stiffness_energy, [x, kappa, u], primal=K.stiffness_energy.py_func) < 1e-5
    np.testing.assert_allclose(K.assemble_1d(x, kappa), K.assemble_1d.py_func(x, kappa), rtol=1e-13)


def test_integer_array_literal_of_node_numbers():
    p = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.1], [0.5, 0.45]])
    tris = np.array([[0, 1, 4], [1, 3, 4], [3, 2, 4], [2, 0, 4]])
    args = [p, tris, np.array([1.0, 1.5, 0.8, 1.2]), np.array([0.0, 0.1, 0.2, 0.35, 0.15])]
    assert check(K.triangle_energy, args, primal=K.triangle_energy.py_func) < 1e-5
    assert abs(K.triangle_energy(*args) - K.triangle_energy.py_func(*args)) < 1e-12

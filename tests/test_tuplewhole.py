"""Tuples (and lists) of active arrays passed whole to an @njit helper or kernel (issue 13):
``params = (W1, b1, W2); loss = forward(params, X)``.  In kernels the helper is inlined with its
tuple parameter split into one parameter per element; from drivers the kernel's adjoint gets the
tuple of shadows (an entry splitting the tuple, adtrans.normalise.tupleargs).  Gradients against
central finite differences in float64 on the Python functions; what stays refused, at its line."""
import numpy as np
import pytest

import adtrans
import kernels_tuplewhole as K
from fdcheck import check

RNG = np.random.default_rng(13)
W1, B1, W2, X = RNG.standard_normal((3, 4)), RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal((5, 3))
x, y, z = RNG.standard_normal(3), RNG.standard_normal(3), RNG.standard_normal(3)
NET = ["dup", "dup", "dup", "const"]


def test_helper_taking_a_tuple_literal_or_a_named_tuple():
    assert check(K.mlp_literal, [W1, B1, W2, X], activity=NET, primal=K.mlp_literal.py_func) < 1e-6
    assert check(K.mlp_named, [W1, B1, W2, X], activity=NET, primal=K.mlp_named.py_func) < 1e-6
    g_lit = adtrans.grad(K.mlp_literal, argnums=(0, 1, 2))(W1, B1, W2, X)
    g_named = adtrans.grad(K.mlp_named, argnums=(0, 1, 2))(W1, B1, W2, X)
    np.testing.assert_allclose(g_named[0], g_lit[0], rtol=1e-14)
    np.testing.assert_allclose(g_named[1], g_lit[1] + 2.0 * B1, rtol=1e-13)


def test_tuple_read_by_index_len_slice_loop_and_nested():
    assert check(K.parts_kernel, [x, y, z, 0.7], primal=K.parts_kernel.py_func) < 1e-6
    assert check(K.nested_kernel, [x, y], primal=K.nested_kernel.py_func) < 1e-6
    gx, gy, gz, gc = adtrans.grad(K.parts_kernel, argnums=(0, 1, 2, 3))(x, y, z, 0.7)
    np.testing.assert_allclose(gz, np.sin(x) * 0.7 + 3 * 2 * z, rtol=1e-13)
    assert abs(gc - np.sum(np.sin(x) * z)) < 1e-13


def test_state_tuple_of_an_ode_step_in_a_time_loop():
    assert check(K.oscillator, [x, y, 0.1], primal=K.oscillator.py_func) < 1e-6
    assert check(K.oscillator_named, [x, y, 0.1], primal=K.oscillator_named.py_func) < 1e-6
    np.testing.assert_allclose(adtrans.grad(K.oscillator_named, argnums=(0, 1))(x, y, 0.1),
                               adtrans.grad(K.oscillator, argnums=(0, 1))(x, y, 0.1), rtol=1e-14)


def test_unpacking_a_named_tuple_into_its_own_elements():
    assert check(K.swap_kernel, [x, y], primal=K.swap_kernel.py_func) < 1e-6
    gx, gy = adtrans.grad(K.swap_kernel, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, 2.0 * y + 1.0, rtol=1e-14)
    np.testing.assert_allclose(gy, 2.0 * x + 6.0, rtol=1e-14)


def test_kernel_whose_parameter_is_a_tuple_of_duplicated_arrays():
    shadows = tuple(np.zeros_like(a) for a in (W1, B1, W2))
    assert adtrans.autodiff(K.forward, adtrans.Duplicated((W1, B1, W2), shadows), adtrans.Const(X)) == ()
    expected = adtrans.grad(K.mlp_literal, argnums=(0, 1, 2))(W1, B1, W2, X)
    for got, want in zip(shadows, expected):
        np.testing.assert_allclose(got, want, rtol=1e-14)
    src = adtrans.adjoint(K.forward, ("dup", "const")).source((W1, B1, W2), X)
    assert "def forward_adjoint(params, d_params, X, seed):" in src
    assert "forward_adjoint_elements(params[0], d_params[0], params[1], d_params[1]" in src
    assert "# adjoint of: h = np.tanh(X @ W1 + b1)" in src


@pytest.mark.parametrize("fn", [K.mlp_driver])
def test_driver_passing_a_parameter_tuple_whole(fn):
    assert check(fn, [W1, B1, W2, X], activity=NET) < 1e-6


@pytest.mark.parametrize("fn", [K.literal_driver, K.tuple_driver, K.list_driver])
def test_driver_tuple_literal_named_tuple_and_list(fn):
    assert check(fn, [x, y]) < 1e-6


def test_driver_tuple_with_constants_floats_and_in_a_loop():
    assert check(K.mixed_driver, [x, 0.5]) < 1e-6
    gx, gk = adtrans.grad(K.mixed_driver, argnums=(0, 1))(x, 0.5)
    np.testing.assert_allclose(gx, 18.0 * x * [1.0, 0.0, 2.0] * 2 * 0.5, rtol=1e-13)    # idx = [2, 0, 2], n = 2
    assert check(K.loop_driver, [x, y, 0.3]) < 1e-6
    assert check(K.passive_float_driver, [x, 0.5]) < 1e-6
    gx, gy = adtrans.grad(K.passive_float_driver, argnums=(0, 1))(x, 0.5)
    np.testing.assert_allclose(gx, np.full(3, 1.0), rtol=1e-14)
    assert abs(gy - np.sum(2.0 * x)) < 1e-13


def test_helper_indexing_its_tuple_by_a_counter_of_constant_range():
    """`for i in range(2): s += np.sum(p[i])` in the helper was refused: now unrolled (issue 13)."""
    assert check(K.dynamic_index_kernel, [x, y], primal=K.dynamic_index_kernel.py_func) < 1e-6


@pytest.mark.parametrize("fn, where, what", [
    (K.runtime_index_kernel, "212:21", r"`p`, a tuple of arrays, indexed by a value known only at run time.*p\[0\]"),
    (K.rebind_kernel, "104:5", r"`p`, a tuple passed whole, assigned.*its own name"),
])
def test_kernel_refusals_at_the_helpers_line(fn, where, what):
    with pytest.raises(adtrans.UnsupportedError, match=rf"kernels_tuplewhole.py:{where}: unsupported: .*{what}"):
        adtrans.grad(fn)(x, y)


@pytest.mark.parametrize("fn, where, what", [
    (K.twice_bound_driver, "187:12", r"passed whole to the kernel sum_pair.*`pair`, a name bound more than once"
                                     r".*sum_pair\(\(y, x\)\)"),
    (K.appended_list_driver, "195:12", r"the list `parts` of active values passed whole to the kernel sum_pair: "
                                       r"its length is known only at run time"),
    (K.list_to_list_kernel_driver, "205:12", r"the list `parts`.*or appends does more than read it"),
    (K.written_tuple_driver, "200:12", r"passed whole to the kernel writes_first, which writes into it"),
])
def test_driver_refusals_at_the_call(fn, where, what):
    with pytest.raises(adtrans.UnsupportedError, match=rf"kernels_tuplewhole.py:{where}: unsupported: .*{what}"):
        adtrans.grad(fn)(x, y)


def test_tuple_shadow_must_match():
    with pytest.raises(adtrans.ActivityError, match="element 1 of the tuple"):
        adtrans.Duplicated((W1, B1), (np.zeros_like(W1), np.zeros(2)))

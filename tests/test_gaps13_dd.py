"""Random draws in while loops (the draw buffer grows as the loop runs; pathwise derivative with the
draws held fixed, primal values and generator state as Numba's) and drivers building lists from
literals of active values: gradients against central finite differences in float64."""
import inspect
import math

import numpy as np
import pytest

import adtrans
import kernels_gaps13_dd as K
from fdcheck import check

RNG = np.random.default_rng(1313)


def v(*shape):
    return RNG.uniform(0.3, 1.2, shape)


def _marked_line(fn) -> int:
    lines, start = inspect.getsourcelines(fn.py_func if hasattr(fn, "py_func") else fn)
    return start + next(k for k, ln in enumerate(lines) if "# <-" in ln)


# ------------------------------------------------------------------ draws in while loops
@pytest.mark.parametrize("fn,args,act", [
    (K.walk_to_threshold, lambda: [v(5), 30.0], ("dup", "const")),
    (K.rejection, lambda: [v(4) * 0.5, 40], ("dup", "const")),
    (K.while_counter, lambda: [v(4), 90, 0.3], ("dup", "const", "active")),
    (K.array_in_while, lambda: [v(4), 5], ("dup", "const")),
    (K.break_in_while, lambda: [v(4), 0.97], ("dup", "const")),
    (K.nested_while, lambda: [v(4), 6], ("dup", "const")),
], ids=lambda f: getattr(f, "__name__", ""))
def test_draws_in_while_loops_match_finite_differences(fn, args, act):
    check(fn, args(), activity=act, primal=fn.py_func)


def test_while_counter_gradient_values_from_numpys_draws():
    x, m, c = v(4), 90, 0.3
    np.random.seed(7)
    z = c + 0.5 * np.random.standard_normal(m)      # Numba's normal(c, s) is c + s * z, z drawn in order
    keep = z > 0.0
    want_x = np.zeros(4)
    np.add.at(want_x, np.arange(m)[keep] % 4, z[keep] ** 2)
    want_c = np.sum(x[np.arange(m)[keep] % 4] * 2.0 * z[keep])
    g_x, g_c = adtrans.grad(K.while_counter, argnums=(0, 2))(x, m, c)
    np.testing.assert_allclose(g_x, want_x, rtol=1e-12)
    assert g_c == pytest.approx(want_c, rel=1e-12)


def test_while_draws_primal_values_and_generator_state_are_numbas():
    x, n = np.array([1.5]), 40                      # about 47 draws: the buffer grows twice
    K.seed_numba(21)
    out_primal = np.zeros(n)
    K.draws_until(out_primal, x, n)
    after_primal = K.next_uniform()
    K.seed_numba(21)
    out, d_out, d_x = np.zeros(n), np.ones(n), np.zeros(1)
    adtrans.autodiff(K.draws_until, adtrans.Duplicated(out, d_out), adtrans.Duplicated(x.copy(), d_x), n)
    assert K.next_uniform() == after_primal
    np.testing.assert_array_equal(out, out_primal)
    np.testing.assert_allclose(d_x, [out_primal.sum() / x[0]], rtol=1e-13)


def test_while_draw_buffer_grows_in_the_forward_sweep_only():
    src = adtrans.source(K.while_counter, ("dup", "const", "active"), v(4), 90, 0.3)
    grows = [ln.strip() for ln in src.splitlines() if "draws = tape_grow(draws" in ln]
    assert len(grows) == 1 and src.index(grows[0]) < src.index("# adjoint of")
    assert sum("np.random.standard_normal()" in ln for ln in src.splitlines()) == 1


def test_hvp_through_while_draws_matches_differences_of_the_gradient():
    x, w = v(4), v(4)
    hv = adtrans.hvp(K.walk_to_threshold)(x, 30.0, w)
    g, h = adtrans.grad(K.walk_to_threshold), 1e-5
    fd = (g(x + h * w, 30.0) - g(x - h * w, 30.0)) / (2 * h)
    np.testing.assert_allclose(hv, fd, rtol=1e-6, atol=1e-8)
    assert abs(hv[0]) > 1e-3


@pytest.mark.parametrize("driver,p", [(K.driver_odd_normals, 5), (K.driver_walks, 10.0)],
                         ids=lambda f: getattr(f, "__name__", ""))
def test_driver_replays_kernel_draws_with_numbas_cached_normal(driver, p):
    """A driver's reverse sweep runs each kernel's adjoint from Numba's generator state before the
    call: with the cached second normal of the polar method too (an odd number of normals drawn
    before), else the replay drew other numbers (wrong gradient: 1.14 off for n = 5)."""
    x, h = v(4), 1e-6

    def run(xx):
        K.seed_numba(9)
        return driver(xx, p)

    fd = np.array([(run(x + h * e) - run(x - h * e)) / (2 * h) for e in np.eye(4)])
    run(x)
    after_primal = K.next_uniform()
    K.seed_numba(9)
    g = adtrans.grad(driver)(x, p)
    assert K.next_uniform() == after_primal
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


# ------------------------------------------------------------------ drivers: list literals
@pytest.mark.parametrize("fn", [K.literal_sum, K.literal_array, K.literal_history, K.literal_index_and_loop,
                                K.literal_of_arrays, K.column_store, K.literal_rows, K.sum_of_array_literal,
                                K.literal_extended, K.comprehension_of_kernels], ids=lambda f: f.__name__)
def test_driver_list_literals_match_finite_differences(fn):
    check(fn, [v(4), 0.7], activity=("dup", "active"))


def test_driver_list_literal_gradient_values():
    x, c = v(5), 0.7
    g_x, g_c = adtrans.grad(K.literal_sum, argnums=(0, 1))(x, c)
    np.testing.assert_allclose(g_x, 4 * x + np.cos(x) + c * (6 * x + 2 * np.cos(2 * x)), rtol=1e-13)
    assert g_c == pytest.approx(K.energy(x, 2.0), rel=1e-13)


@pytest.mark.parametrize("fn,words", [
    (K.tuple_of_actives, "a tuple of active values in a driver"),
    (K.literal_reads_its_name, "a list literal bound to `p`, a name its elements read"),
    (K.list_scaled, "an augmented assignment to the list `parts`"),
    (K.returns_a_list, "a list returned by a driver"),
], ids=lambda f: getattr(f, "__name__", ""))
def test_driver_literal_refusals_name_the_line(fn, words):
    with pytest.raises(adtrans.UnsupportedError, match=words) as info:
        adtrans.grad(fn, argnums=(0, 1))(v(3), 0.5)
    assert info.value.lineno == _marked_line(fn)

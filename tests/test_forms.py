"""Python forms in kernels (zip, enumerate, .flat, ndindex, shapes, tuples, defaults, raise, print,
closures, casts): each gradient against central finite differences in float64."""
import numpy as np
import pytest
from numba import njit

import adtrans
import kernels_forms as F
from fdcheck import check

RNG = np.random.default_rng(11)


def v(*shape):
    return RNG.uniform(0.3, 1.2, shape)


@pytest.mark.parametrize("fn,args", [
    (F.zip_dot, lambda: [v(5), v(5)]),
    (F.zip_range, lambda: [v(5), v(6)]),
    (F.enumerate_weights, lambda: [v(4)]),
    (F.enumerate_start, lambda: [v(4)]),
    (F.iterate_values, lambda: [v(5)]),
    (F.flat_iter, lambda: [v(3, 4)]),
    (F.flat_index, lambda: [v(3, 4), np.zeros((3, 4))]),
    (F.ndindex_tuple, lambda: [v(3, 2)]),
    (F.ndindex_name, lambda: [v(2, 3)]),
    (F.shape_unpack_and_alloc, lambda: [v(4, 3)]),
    (F.tuple_locals, lambda: [v(2)]),
    (F.rotation, lambda: [v(1), v(2)]),
    (F.kernel_with_defaults, lambda: [v(4)]),
    (F.module_constants, lambda: [v(4)]),
    (F.casts, lambda: [v(3)]),
    (F.rebind_argument, lambda: [v(4)]),
    (F.factory_kernel, lambda: [v(3)]),
    (F.newton_or_raise, lambda: [np.array([2.0]), np.array([1.0])]),
    (F.while_true_then_raise, lambda: [np.array([2.0, 3.0]), np.array([1.0])]),
    (F.any_all, lambda: [v(3), np.array([True, False, True])]),
    (F.unpack_rows, lambda: [v(5, 3)]),
    (F.unpack_edges, lambda: [v(5), np.array([[0, 1], [1, 2], [3, 1], [4, 0]]), v(4)]),
    (F.unpack_vector_and_tuple, lambda: [v(2), v(4)]),
    (F.vectorized_calls, lambda: [v(5), v(5)]),
    (F.tuple_result_local, lambda: [v(4)]),
], ids=lambda f: getattr(f, "__name__", ""))
def test_form_matches_finite_differences(fn, args):
    check(fn, args())


def test_lgamma_of_constant_arguments_needs_no_rule():
    check(F.lgamma_constant, [v(4), 3.0], activity=("dup", "const"))
    check(F.lgamma_constant, [v(4), 3.0])          # and of an active one: digamma (adtrans.special)


def test_print_runs_in_the_forward_sweep_only(capfd):
    x = v(3)
    check(F.prints, [x])
    capfd.readouterr()
    g = adtrans.grad(F.prints)(x)
    np.testing.assert_allclose(g, 2 * x, rtol=1e-14)
    printed = capfd.readouterr().out
    assert printed.count("sum of squares") == 1, printed


def test_zip_stops_at_the_shortest():
    x, y = v(5), v(3)
    np.testing.assert_allclose(adtrans.grad(F.zip_dot)(x, y), np.r_[y, 0.0, 0.0], rtol=1e-14)


def test_user_exception_reaches_the_adjoint():
    a, x0 = np.array([-2.0]), np.array([0.7])
    with pytest.raises(F.ConvergenceError, match="did not converge"):
        F.newton_or_raise(a, x0)                # the primal raises too
    with pytest.raises(F.ConvergenceError, match="did not converge"):
        adtrans.grad(F.newton_or_raise)(a, x0)
    with pytest.raises(ValueError, match="no convergence"):
        F.while_true_then_raise(np.array([-2.0, 1.0]), x0)
    with pytest.raises(ValueError, match="no convergence"):
        adtrans.grad(F.while_true_then_raise)(np.array([-2.0, 1.0]), x0)


def test_grad_of_kernel_with_defaults_and_keywords():
    x = v(4)
    np.testing.assert_allclose(adtrans.grad(F.with_default_exponent)(x), 2 * x, rtol=1e-14)
    np.testing.assert_allclose(adtrans.grad(F.with_default_exponent)(x, p=3.0), 3 * x ** 2, rtol=1e-14)
    gx, gp = adtrans.grad(F.with_default_exponent, argnums=(0, 1))(x, 3.0)
    np.testing.assert_allclose(gp, np.sum(x ** 3 * np.log(x)), rtol=1e-12)
    dx = np.zeros_like(x)
    adtrans.autodiff(F.with_default_exponent, adtrans.Duplicated(x, dx))
    np.testing.assert_allclose(dx, 2 * x, rtol=1e-14)
    with pytest.raises(adtrans.ActivityError, match="q"):
        adtrans.grad(F.with_default_exponent)(x, q=1.0)


def test_aliased_duplicated_arrays_are_refused():
    a = v(5)
    with pytest.raises(adtrans.ActivityError, match="a and out"):
        adtrans.autodiff(F.shift, adtrans.Duplicated(a, np.ones(5)), adtrans.Duplicated(a, np.ones(5)))
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adtrans.autodiff(F.shift, adtrans.Duplicated(a[1:], np.ones(4)), adtrans.Duplicated(a[:4], np.ones(4)))
    with pytest.raises(adtrans.ActivityError, match="shadow"):
        da = np.ones(5)
        adtrans.autodiff(F.shift, adtrans.Duplicated(a, da), adtrans.Duplicated(np.zeros(5), da))
    # distinct arrays (also disjoint halves of one buffer) are fine and match finite differences
    buf = v(10)
    check(F.shift, [buf[:5].copy(), buf[5:].copy()])
    adtrans.autodiff(F.shift, adtrans.Duplicated(buf[:5], np.ones(5)), adtrans.Duplicated(buf[5:], np.ones(5)))


def test_aliased_arguments_are_refused_by_the_adjoint_callable_too():
    a, da = v(5), np.ones(5)
    adj = adtrans.adjoint(F.shift, ("dup", "dup"))
    with pytest.raises(adtrans.ActivityError, match="a and out"):
        adj(a, da, a, da)
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adj(a[1:], np.ones(4), a[:4], np.ones(4))
    b, db, da = np.zeros(5), np.ones(5), np.zeros(5)
    adj(a, da, b, db)                    # distinct arrays: the same gradient as autodiff's
    da2 = np.zeros(5)
    adtrans.autodiff(F.shift, adtrans.Duplicated(a, da2), adtrans.Duplicated(np.zeros(5), np.ones(5)))
    np.testing.assert_array_equal(da, da2)


@njit
def weighted_sum(u, w):
    s = 0.0
    for i in range(u.shape[0]):
        s += u[i] * w[i] * w[i]
    return s


def test_one_array_for_two_read_only_parameters_is_differentiated():
    """`f(u, u)` where the kernel only reads both: the two shadows accumulate into one, so
    the gradient is that of u -> sum(u^3) (3 u^2), checked against finite differences."""
    u = v(6)
    du = np.zeros(6)
    adtrans.adjoint(weighted_sum, ("dup", "dup"))(u, du, u, du, 1.0)
    np.testing.assert_allclose(du, 3 * u ** 2, rtol=1e-14)
    fd = [(np.sum((u + h) ** 3) - np.sum((u - h) ** 3)) / 2e-6 for h in 1e-6 * np.eye(6)]
    np.testing.assert_allclose(du, fd, rtol=1e-7)
    du2 = np.zeros(6)
    adtrans.autodiff(weighted_sum, adtrans.Duplicated(u, du2), adtrans.Duplicated(u, du2))
    np.testing.assert_allclose(du2, 3 * u ** 2, rtol=1e-14)


def test_rows_of_a_matrix_by_iteration():
    check(F.rows_of_matrix, [v(3, 4), v(3)])


def test_recursion_is_refused_with_a_line():
    import kernels_unsupported as U
    with pytest.raises(adtrans.UnsupportedError, match="recursive") as info:
        adtrans.source(U.recursive, ("dup", "const"), np.ones(3), 2)
    assert info.value.lineno > 0


def test_zip_and_enumerate_over_slices():
    check(F.zip_over_slices, [v(7), np.cos(v(7))])


def test_unpacking_the_wrong_number_of_values_raises():
    """`xi, yi, zi = r[i]` with two columns: ValueError as Numba's primal raises, never a
    gradient of the first values."""
    r = v(4, 2)
    with pytest.raises(ValueError):
        F.unpack_rows(r)
    with pytest.raises(ValueError, match="unpacking into 3 names"):
        adtrans.grad(F.unpack_rows)(r)


def test_grad_of_a_vectorize_ufunc_itself():
    """`adtrans.grad` of a @vectorize element function: its scalar derivative."""
    x = 0.7
    assert adtrans.grad(F.decay)(x) == pytest.approx(-np.exp(-x) + 2 * x, rel=1e-12)


def test_a_shadow_overlapping_an_array_of_a_read_only_kernel_is_refused():
    """`zip_dot` only reads x and y, yet its adjoint writes every shadow: a shadow that is its
    own array (or a view of it), or another argument, would be read after the adjoint wrote
    into it (Duplicated(x, x) silently returned garbage and changed x)."""
    x, y = v(5), v(5) + 1.0
    x0 = x.copy()
    with pytest.raises(adtrans.ActivityError, match=r"x and x \(its shadow\) share memory.*np.zeros_like\(x\)"):
        adtrans.autodiff(F.zip_dot, adtrans.Duplicated(x, x), y)
    with pytest.raises(adtrans.ActivityError, match=r"x and x \(its shadow\) share memory"):
        adtrans.autodiff(F.zip_dot, adtrans.Duplicated(x, x[::-1]), y)
    with pytest.raises(adtrans.ActivityError, match=r"x \(its shadow\) and y share memory"):
        adtrans.autodiff(F.zip_dot, adtrans.Duplicated(x, y), y)
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adtrans.adjoint(F.zip_dot, ("dup", "const"))(x, x, y, 1.0)
    assert np.array_equal(x, x0)                         # nothing of the user's was changed
    # the same read-only array twice with one shadow: both contributions add into it
    d = np.zeros(5)
    adtrans.autodiff(F.zip_dot, adtrans.Duplicated(x, d), adtrans.Duplicated(x, d))
    np.testing.assert_allclose(d, 2 * x, rtol=1e-14)

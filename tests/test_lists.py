"""Python lists in kernels (issue 13): appends in loops and ifs, comprehensions, sum(generator),
numba.typed.List, list arguments.  Each gradient against central finite differences in float64,
plus closed forms where there is one; what stays refused names its line."""
import inspect
import math

import numpy as np
import pytest
from numba.typed import List

import adtrans
import kernels_lists as K
from fdcheck import check

RNG = np.random.default_rng(13)


def v(*shape):
    return RNG.uniform(0.3, 1.2, shape)


@pytest.mark.parametrize("fn,args", [
    (K.append_then_sum, lambda: [v(5)]),
    (K.append_under_if, lambda: [v(6), v(6)]),
    (K.append_nested, lambda: [v(3, 4)]),
    (K.append_triangular, lambda: [v(5)]),
    (K.running_list, lambda: [v(5)]),
    (K.list_to_array, lambda: [v(4), v(4)]),
    (K.enumerate_list, lambda: [v(4)]),
    (K.comprehension_map, lambda: [v(4)]),
    (K.comprehension_indexed, lambda: [v(4), v(4)]),
    (K.comprehension_filtered, lambda: [v(6)]),
    (K.sum_of_comprehension, lambda: [v(4)]),
    (K.typed_list, lambda: [v(4)]),
    (K.typed_empty_list, lambda: [v(6)]),
    (K.list_of_indices, lambda: [v(6)]),
    (K.literal_and_repeat, lambda: [v(3)]),
    (K.pop_last, lambda: [v(4)]),
    (K.time_loop_list, lambda: [v(5), 3]),
    (K.time_loop_nonlinear, lambda: [v(4), 3]),
    (K.time_loop_comprehension, lambda: [v(4), 3]),
    (K.bound_after_creation, lambda: [v(6)]),
    (K.literal_then_counted_bound, lambda: [v(6)]),
    (K.list_views, lambda: [v(5), v(5)]),
    (K.list_truthiness, lambda: [np.array([0.5, 0.9, 0.7])]),
    (K.list_truthiness, lambda: [np.array([0.5, 0.6, 0.7])]),
    (K.bound_reassigned_after_loop, lambda: [v(5), 4]),
    (K.list_per_prange_iteration, lambda: [v(4), np.zeros(4)]),
    (K.pop_in_while, lambda: [v(3)]),
    (K.integer_counts, lambda: [v(7)]),
    (K.list_in_helper, lambda: [v(4)]),
    (K.two_generators, lambda: [v(3), v(2)]),
    (K.prange_over_list, lambda: [v(5)]),
    (K.int_list_as_indices, lambda: [v(5), 5]),
    (K.list_statistics, lambda: [v(5)]),
], ids=lambda f: getattr(f, "__name__", ""))
def test_list_kernel_matches_finite_differences(fn, args):
    check(fn, args())


@pytest.mark.xfail(strict=True, raises=adtrans.GeneratedCodeError,
                   reason="engine, not lists: a break in an inner loop under a carried-scalar outer loop; the "
                          "rerun of the inner (taped while) loop counts `trips` without setting it to 0 (the "
                          "same happens with a preallocated array and a counter written by hand)")
def test_append_under_a_break_in_an_inner_loop():
    check(K.append_with_break, [v(5), 6])


def _fd_pure_python(fn, args, k, h=1e-6):
    """Central differences of the pure-Python function in argument ``k``."""
    x = args[k]
    out = np.zeros_like(x)
    for j in range(x.size):
        plus, minus = [a.copy() for a in args], [a.copy() for a in args]
        plus[k].flat[j] += h
        minus[k].flat[j] -= h
        out.flat[j] = (fn(*plus) - fn(*minus)) / (2 * h)
    return out


@pytest.mark.parametrize("fn,args", [
    (K.sum_of_generator, lambda: [v(4), v(4)]),
    (K.nested_comprehension, lambda: [v(3), v(4)]),
], ids=lambda f: getattr(f, "__name__", ""))
def test_sum_of_generator_matches_the_pure_python_function(fn, args):
    # Numba 0.68 itself refuses generators in @njit code ("yield in a closure"); adtrans lowers
    # sum(<generator>) to an accumulation loop, so the adjoint compiles and is checked against
    # finite differences of the pure-Python function
    a = args()
    grads = adtrans.grad(fn, argnums=(0, 1))(*a)
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g, _fd_pure_python(fn.py_func, a, k), rtol=1e-6, atol=1e-8)


def test_closed_forms():
    x = v(5)
    np.testing.assert_allclose(adtrans.grad(K.append_then_sum)(x), np.cos(x) * x + np.sin(x), rtol=1e-13)
    g = adtrans.grad(K.typed_list)(x)
    ref = np.arange(1.0, 6.0)
    ref[-1] += 5.0                       # acc[-1] = 5 * x[4]
    np.testing.assert_allclose(g, ref, rtol=1e-13)
    x = np.array([0.2, 0.9, 0.4, 0.7])
    np.testing.assert_allclose(adtrans.grad(K.list_of_indices)(x), np.where(x > 0.5, 2 * x, 0.0), rtol=1e-13)
    np.testing.assert_allclose(adtrans.grad(K.comprehension_filtered)(x), np.where(x > 0.7, 2 * x, 0.0),
                               rtol=1e-13)
    w = v(4)
    np.testing.assert_allclose(adtrans.grad(K.list_to_array, argnums=1)(x, w), np.tanh(x), rtol=1e-13)


def test_list_values_match_the_primal():
    # the lowered forward sweep computes what Numba's own list code computes
    for fn, args in ((K.running_list, [v(6)]), (K.pop_last, [v(5)]), (K.append_triangular, [v(6)]),
                     (K.typed_empty_list, [v(7)]), (K.literal_and_repeat, [v(3)])):
        x = args[0]
        seed_out = adtrans.autodiff(fn, adtrans.Duplicated(x.copy(), np.zeros_like(x)))
        assert seed_out == ()
        np.testing.assert_allclose(fn(*args), fn.py_func(*args), rtol=1e-14)


@pytest.mark.parametrize("make", [list, List], ids=["reflected", "typed"])
def test_list_argument_is_a_constant(make):
    x = v(4)
    weights = make([0.5, 1.5, -2.0, 0.25])
    check(K.reflected_weights, [x, weights], activity=("dup", "const"))
    ref = np.array([2 * weights[i] * x[i] for i in range(4)])
    ref[0] += sum(weights)
    ref[1] += sum(weights)
    np.testing.assert_allclose(adtrans.grad(K.reflected_weights)(x, weights), ref, rtol=1e-13)
    with pytest.raises(adtrans.ActivityError, match="list"):
        adtrans.grad(K.reflected_weights, argnums=1)(x, weights)


def _marked_line(fn):
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, line in enumerate(lines) if "# <-" in line)


@pytest.mark.parametrize("fn,args,construct", [
    (K.append_in_while, lambda: [v(3)], "while loop"),
    (K.list_of_arrays, lambda: [v(3, 2)], "list of arrays"),
    (K.list_extend, lambda: [v(3)], "extend"),
    (K.bound_assigned_after_use, lambda: [v(4)], "assigns after creating the list"),
    (K.append_in_prange, lambda: [v(4)], "prange"),
    (K.list_in_expression, lambda: [v(2)], "used as a value"),
    (K.writes_argument_list, lambda: [v(3), [1.0, 2.0]], "list argument"),
    (K.returns_list, lambda: [v(2)], "returning the list"),
    (K.append_while_iterating, lambda: [v(2)], "while iterating over it"),
    (K.nested_lists, lambda: [v(2)], "list of arrays, tuples or lists"),
], ids=lambda f: getattr(f, "__name__", ""))
def test_refused_list_forms_name_their_line(fn, args, construct):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.grad(fn)(*args())
    err = info.value
    assert err.filename.endswith("kernels_lists.py")
    assert err.lineno == _marked_line(fn), str(err)
    assert construct in str(err), str(err)
    assert err.hint


def test_append_in_a_helper_is_refused_at_the_helper_line():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.grad(K.append_in_helper)(v(3))
    assert info.value.lineno == _marked_line(K._push), str(info.value)
    assert "append" in str(info.value)

"""Kernels that crashed or were refused wrongly (issue 13): gradients against finite differences."""
import inspect

import numpy as np
import pytest

import adtrans

import kernels_crash as C
from fdcheck import check


@pytest.mark.parametrize("fn", [C.search_then_triangular, C.search_then_triangular_serial,
                                C.while_search_then_triangular], ids=lambda f: f.__name__)
def test_search_with_break_then_triangular_accumulation(fn):
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, (4, 6))
    x[2] = 0.1          # a row where the search finds nothing (runs to the end)
    check(fn, [x, 0.8, rng.uniform(0, 1, (4, 6))], activity=("dup", "const", "dup"))


def u(rng, *shape):
    return rng.uniform(0.1, 1.0, shape)


# A `break` turns an inner `for` into a taped `while` that counts its trips; under an outer
# loop that the reverse sweep reruns (carried scalars, recomputed prange, last iteration) the
# rerun must start that count at 0.  Each of these crashed (GeneratedCodeError) before.
TRIP_COUNTER = [
    (C.inner_break_carried, lambda r: [u(r, 5), 6], None),
    (C.inner_break_counter, lambda r: [u(r, 5), 6, np.zeros(30)], None),
    (C.prange_break_then_reduce, lambda r: [u(r, 5, 6), np.zeros(5)], None),
    (C.last_iteration_inner_break, lambda r: [u(r, 6), 3], None),
    (C.carried_while_in_for_in_for, lambda r: [u(r, 3, 4), 6], None),
    (C.carried_for_break_in_for_in_for, lambda r: [u(r, 3, 4), 6], None),
    (C.while_break_in_for_in_for_then_read, lambda r: [u(r, 3, 4), 8, np.zeros((3, 4))], None),
    (C.carried_continue_in_while, lambda r: [u(r, 5), 5], None),
    # continue alone keeps the counted loop; these ran before and must keep running
    (C.inner_continue_carried, lambda r: [u(r, 5), 6], None),
    (C.inner_continue_on_value_carried, lambda r: [u(r, 5), 6], None),
    (C.prange_continue_then_reduce, lambda r: [u(r, 5, 6), np.zeros(5)], None),
    (C.while_break_in_for_in_for, lambda r: [u(r, 3, 4), 8, np.zeros((3, 4))], None),
    (C.while_continue_in_for_in_for, lambda r: [u(r, 3, 4), 5, u(r, 3, 4)], None),
]


@pytest.mark.parametrize("fn,args,activity", TRIP_COUNTER, ids=[c[0].__name__ for c in TRIP_COUNTER])
def test_break_and_continue_under_a_rerun_outer_loop(fn, args, activity):
    check(fn, args(np.random.default_rng(7)), activity=activity)


# break / continue / early return in nested loops, serial and prange (thresholds chosen so that
# every jump is taken for these inputs, and no input lies within h of one)
NESTED_JUMPS = [
    (C.early_return_from_nested, lambda r: [u(r, 4, 5), 0.8], ("dup", "const")),
    (C.early_return_from_while_in_for, lambda r: [u(r, 6), 2.0], ("dup", "const")),
    (C.prange_break_and_continue, lambda r: [u(r, 5, 7), np.zeros(5)], None),
    (C.flag_breaks_outer, lambda r: [u(r, 4, 5), 12.0], ("dup", "const")),
    (C.two_level_break, lambda r: [u(r, 4, 5), 0.85], ("dup", "const")),
    (C.prange_newton_with_break, lambda r: [u(r, 6) + 1.0, np.zeros(6)], None),
    (C.continue_skips_inner_loop, lambda r: [u(r, 6), 4], None),
    (C.time_loop_with_inner_break, lambda r: [u(r, 8), 3, 0.8], ("dup", "const", "const")),
    (C.triangular_break, lambda r: [u(r, 7), 0.5], ("dup", "const")),
    (C.prange_while_search_then_row_update, lambda r: [u(r, 4, 6), 1.2, u(r, 4, 6)], ("dup", "const", "dup")),
    (C.early_return_in_nested_while, lambda r: [u(r, 4, 5), 3.0], ("dup", "const")),
    (C.early_return_under_carried, lambda r: [u(r, 5), 4, 3.0], ("dup", "const", "const")),
    (C.prange_while_true_then_reduce, lambda r: [u(r, 7), np.zeros(7)], None),
    (C.inplace_rows_with_break, lambda r: [u(r, 5, 4), 0.8], ("dup", "const")),
    (C.break_inside_two_rerun_levels, lambda r: [u(r, 2, 3), 4], None),
    (C.prange_rows_search_update_reduce, lambda r: [u(r, 4, 6), 0.8, u(r, 4, 6)], ("dup", "const", "dup")),
    (C.continue_and_break_carried, lambda r: [u(r, 5), 6], None),
    (C.while_with_return_under_for, lambda r: [u(r, 5), 3.0], ("dup", "const")),
    (C.nested_break_last_value, lambda r: [u(r, 4, 5), 3], None),      # was a wrong gradient
    (C.prange_break_carried_inner, lambda r: [u(r, 4, 5), np.zeros(4)], None),
    # a wrong gradient before (not a crash), like nested_break_last_value above: see the kernel
    (C.last_iteration_threshold, lambda r: [u(r, 8), 3], None),
]


@pytest.mark.parametrize("fn,args,activity", NESTED_JUMPS, ids=[c[0].__name__ for c in NESTED_JUMPS])
def test_break_continue_return_in_nested_loops(fn, args, activity):
    check(fn, args(np.random.default_rng(7)), activity=activity)


ELSE_AND_SEQUENCES = [
    (C.for_else_return, lambda r: [u(r, 4, 5), 0.95], ("dup", "const")),
    (C.while_else, lambda r: [u(r, 6), 1.6], ("dup", "const")),
    (C.for_else_without_break, lambda r: [u(r, 5)], None),
    (C.for_else_continue_outer, lambda r: [u(r, 5, 4), 0.85], ("dup", "const")),
    (C.nested_for_else_break_outer, lambda r: [u(r, 4, 3), 1.9], ("dup", "const")),
    (C.break_over_array, lambda r: [u(r, 4, 5), 0.8], ("dup", "const")),
    (C.break_over_array_then_read, lambda r: [u(r, 4, 5), 0.8], ("dup", "const")),
    (C.break_over_zip, lambda r: [u(r, 6), u(r, 6), 0.5], ("dup", "dup", "const")),
    (C.break_in_prange_body, lambda r: [u(r, 6), np.zeros(6)], None),
    (C.return_in_prange_body, lambda r: [u(r, 6), np.zeros(6)], None),
]


@pytest.mark.filterwarnings("ignore::numba.NumbaPerformanceWarning")
@pytest.mark.parametrize("fn,args,activity", ELSE_AND_SEQUENCES, ids=[c[0].__name__ for c in ELSE_AND_SEQUENCES])
def test_loop_else_and_breaks_out_of_sequences(fn, args, activity):
    # were refused ("for/while ... else", "break in a loop over something other than range()")
    # with the line of the `def`, not of the loop
    check(fn, args(np.random.default_rng(7)), activity=activity)


def test_a_jump_that_stays_refused_names_its_loop():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(C.break_with_zero_step, ("dup",), np.ones(3))
    line = inspect.getsourcelines(C.break_with_zero_step.py_func)[1] + 3      # the `for` line
    assert f"kernels_crash.py:{line}:" in str(info.value) and "step of 0" in str(info.value)


@pytest.mark.parametrize("fn,args", [
    (C.continue_and_break_carried, lambda r: [u(r, 5), 6]),
    (C.nested_break_last_value, lambda r: [u(r, 4, 5), 3]),
    (C.for_else_return, lambda r: [u(r, 4, 5), 0.95]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_hessian_vector_products_through_jumps(fn, args):
    # forward over reverse reads the adjoint's reruns and trip counters: H v against central
    # differences of the gradient along v
    rng = np.random.default_rng(7)
    a = args(rng)
    v = rng.standard_normal(a[0].shape)
    hv = adtrans.hvp(fn)(*a, v)
    g = adtrans.grad(fn)
    h = 1e-5
    fd = (g(a[0] + h * v, *a[1:]) - g(a[0] - h * v, *a[1:])) / (2 * h)
    assert np.max(np.abs(fd)) > 1e-3
    np.testing.assert_allclose(hv, fd, rtol=1e-6, atol=1e-7)

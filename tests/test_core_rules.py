"""Every core rule against central finite differences in float64."""
import numpy as np
import pytest

import adtrans
import kernels_core as K
from fdcheck import check, tape_pushes

RNG = np.random.default_rng(7)


def vec(n, lo=0.2, hi=1.5):
    return RNG.uniform(lo, hi, n)


@pytest.mark.parametrize("fn,args", [
    (K.straight_line, lambda: [vec(3), 0.7, 1.3]),
    (K.nested_triangular, lambda: [vec(6), 6]),
    (K.overwrite_scalars, lambda: [vec(8), 8]),
    (K.time_loop, lambda: [vec(10), 0.2, 5]),
    (K.newton_sqrt, lambda: [2.5, 1.0]),
    (K.early_exit, lambda: [np.array([0.5, -0.2, 0.9, 1.3, 0.7, 2.0, 0.4]), 7]),
    (K.helpers, lambda: [vec(6), vec(6)]),
    (K.inplace_updates, lambda: [vec(5), vec(5)]),
    (K.local_array, lambda: [vec(7)]),
    (K.matrix_2d, lambda: [RNG.uniform(-1, 1, (4, 3)), vec(3), vec(4)]),
    (K.branchy, lambda: [RNG.uniform(-1, 1, 9), 0.3]),
    (K.tuple_swap, lambda: [vec(2)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_rule_matches_finite_differences(fn, args):
    check(fn, args())


def test_int_from_float_is_constant():
    x = np.array([0.1, 0.5, 0.9, 1.2])
    table = np.array([1.0, 2.0, 3.0])
    g = adtrans.grad(K.int_from_float)(x, table)
    expect = np.array([table[int(v * 3.0) % 3] for v in x])
    np.testing.assert_allclose(g, expect, rtol=1e-14)


def test_dead_out_of_domain_value_does_not_poison_gradient():
    x = np.array([0.9, 2.0])
    g = adtrans.grad(K.dead_acos)(x)
    np.testing.assert_allclose(g, [2.0, 0.9], rtol=1e-14)


def test_float32_inputs_give_float32_adjoints():
    x = RNG.uniform(0.5, 1.5, 6).astype(np.float32)
    out = np.zeros(6, np.float32)
    dx = np.zeros_like(x)
    dout = np.ones_like(out)
    adtrans.autodiff(K.float32_kernel, adtrans.Duplicated(x, dx), adtrans.Duplicated(out, dout))
    assert dx.dtype == np.float32
    x64 = x.astype(np.float64)
    expect = np.sqrt(x64 ** 2 + 1) + x64 ** 2 / np.sqrt(x64 ** 2 + 1)
    np.testing.assert_allclose(dx, expect, rtol=1e-5)
    np.testing.assert_allclose(out, x64 * np.sqrt(x64 ** 2 + 1), rtol=1e-6)


def test_arrays_updated_in_place_as_primal():
    a, b = vec(5), vec(5)
    a1, b1 = a.copy(), b.copy()
    ret = K.inplace_updates(a1, b1)
    da, db = np.zeros(5), np.zeros(5)
    adtrans.autodiff(K.inplace_updates, adtrans.Duplicated(a, da), adtrans.Duplicated(b, db))
    np.testing.assert_array_equal(a, a1)
    np.testing.assert_array_equal(b, b1)
    assert ret == pytest.approx(a1[0] + b1[-1])


def test_adjoint_api_and_active_scalars():
    x = vec(3)
    adj = adtrans.adjoint(K.straight_line, ("dup", "active", "active"))
    dx = np.zeros(3)
    da, db = adj(x, dx, 0.7, 1.3, 2.0)
    h = 1e-6
    fd = (K.straight_line(x, 0.7 + h, 1.3) - K.straight_line(x, 0.7 - h, 1.3)) / (2 * h)
    assert da == pytest.approx(2.0 * fd, rel=1e-6)
    ga, gb = adtrans.grad(K.straight_line, argnums=(1, 2))(x, 0.7, 1.3)
    assert ga == pytest.approx(fd, rel=1e-6)


@pytest.mark.parametrize("fn,args", [
    (K.strided_recurrence, lambda: [vec(11)]),
    (K.prange_with_while, lambda: [vec(9, 0.2, 3.0), np.zeros(9)]),
    (K.early_return_in_loop, lambda: [vec(6)]),
    (K.early_return_in_loop, lambda: [vec(6, 0.1, 0.3)]),
    (K.repeated_evaluation, lambda: [vec(12, -1.0, 1.0), np.array([1, 3, 0, 2, 5, 1, 0, 4, 2, 1, 1, 3]),
                                     np.zeros(12)]),
    (K.repeated_evaluation_strided, lambda: [vec(2), 11]),
    (K.repeated_evaluation_strided, lambda: [vec(2), 1]),
    (K.sometimes_reassigned, lambda: [vec(6), np.array([0, 1, 2, 3, 4, 5])]),
    (K.running_minimum, lambda: [vec(9, 0.5, 1.5), vec(9, 0.5, 1.5), vec(9, -1.0, 1.0), 10.0]),
    (K.carried_with_reads, lambda: [vec(7, -0.5, 0.5), np.zeros(7)]),
    (K.assigned_only_inside_last, lambda: [vec(3), 0.7, 3]),
    (K.assigned_only_inside_carried, lambda: [vec(3), 0.7, 3]),
    (K.last_inside_carried, lambda: [vec(4), 0.7, 4]),
    (K.array_alias, lambda: [vec(3), 0.7]),
    (K.after_loop_helper_and_update, lambda: [vec(3), 0.7, 3]),
], ids=["strided", "prange_while", "early_return_taken", "early_return_not_taken", "last_iteration",
        "last_iteration_stepped", "last_iteration_no_trip", "conditional_reassignment", "running_minimum",
        "carried_with_reads", "only_inside_last", "only_inside_carried", "last_inside_carried",
        "array_alias", "hoist_after_loop"])
def test_loop_shapes_match_finite_differences(fn, args):
    check(fn, args())


def test_last_iteration_strategy_is_chosen_only_when_earlier_iterations_are_dead():
    reps = np.array([1, 2], np.int64)
    src = adtrans.source(K.repeated_evaluation, ("dup", "const", "dup"), vec(2), reps, np.zeros(2))
    assert "last-iteration loop" in src and "tape_push" not in src and tape_pushes(src) == 0
    src = adtrans.source(K.sometimes_reassigned, ("dup", "const"), vec(2), reps)
    assert "last-iteration loop" not in src and "carried-scalar loop" in src


def test_carried_scalar_loop_saves_only_the_carried_values():
    x = vec(9, 0.5, 1.5)
    src = adtrans.source(K.running_minimum, ("dup", "dup", "dup", "active"), x, x, x - 1.0, 10.0)
    assert "carried-scalar loop" in src and "(dt_tmp)" in src
    # one float and no bool pushed per iteration: the rest is recomputed
    assert tape_pushes(src) == 1


def test_negative_constant_base_keeps_its_parentheses():
    x = vec(3)
    check(K.negative_constant_base, [x, 0.7])
    src = adtrans.source(K.negative_constant_base, ("dup", "active"), x, 0.7)
    assert "(-0.75) ** 2" in src and "-0.75 ** 2" not in src.replace("(-0.75) ** 2", "")

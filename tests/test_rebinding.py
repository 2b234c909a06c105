"""Array names rebound to other arrays, as users write time loops: `y = y + dt * k`, `u = un`,
double buffering by `u, un = un, u`, an argument rebound twice.  Each gradient against central
finite differences (fdcheck also checks the final values of the arguments: the caller's arrays
are never written by a rebinding), and the forms that would need two names for one array inside
a loop are refused with their line."""
import numpy as np
import pytest
from numba import njit

import adtrans
from fdcheck import check


@njit
def argument_rebound_twice(y):
    y = y * 2.0
    y = y * 3.0
    return np.sum(y * y)


@njit
def argument_rebound_from_itself(y):
    y = y + 1.0
    y = y * y
    return np.sum(y)


@njit
def alias_of_a_shifted_copy(x):
    u = x.copy()
    v = u.copy()
    v[1:] = u[:-1]
    u = v
    return np.sum(u * u)


@njit
def fresh_copy_then_rename_in_loop(x):
    u = x.copy()
    for _ in range(3):
        v = u.copy()
        v[0] = 2.0 * u[0] * u[1]
        u = v
    return np.sum(u * u)


@njit
def swap_buffers_once(x):
    u = x.copy()
    un = np.empty_like(u)
    un[:] = 2.0 * u
    u, un = un, u
    return np.sum(u * un)


@njit
def swap_buffers_in_time_loop(x, c):
    u = x.copy()
    un = np.empty_like(u)
    n = u.shape[0]
    for _ in range(4):
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        for i in range(1, n - 1):
            un[i] = u[i] + c * (u[i + 1] - 2.0 * u[i] + u[i - 1]) + 0.1 * u[i] * u[i]
        u, un = un, u
    return np.sum(u * u)


@njit
def euler_rebinding_argument(y, dt):
    for _ in range(5):
        k = -y * y + np.sin(y)
        y = y + dt * k
    return np.sum(y)


@njit
def heat_copy_and_rebind(u, c):
    for _ in range(3):
        un = u.copy()
        un[1:-1] = u[1:-1] + c * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u * u)


@njit
def second_name_survives_rebinding(x):
    w = x
    for _ in range(2):
        x = x * 1.5 + w
    return np.sum(w * x)


@njit
def rebind_in_branch(y, flag):
    if flag > 0:
        y = y * y
    return np.sum(y)


@njit
def two_names_written_in_loop(x):
    u = x.copy()
    v = np.zeros_like(x)
    for _ in range(2):
        v[0] = u[0]
        u = v
        u[1] = 3.0
    return np.sum(u)


@njit
def view_rebound_at_top_level(A, a):
    row = A[1]
    s = np.sum(row * row)
    row = A[:, 0]
    return s + row[0] * a * row[1]


@njit
def rebound_through_a_temporary(a0, n):
    a = a0.copy()
    for _ in range(n):
        m = 2.0 * a * a
        a = m + 1.0
    return np.sum(a)


@njit
def normalised_iteration(x, steps):
    alpha = x / np.sum(x)
    for _ in range(steps):
        nxt = np.exp(-alpha) * alpha
        alpha = nxt / np.sum(nxt)
    return np.sum(alpha * np.arange(alpha.shape[0]))


@njit
def three_level_leapfrog(u0, c, steps):
    u_old = u0.copy()
    u = u0.copy()
    for _ in range(steps):
        lap = np.zeros_like(u)
        lap[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
        u_new = 2.0 * u - u_old + c * lap
        u_old = u
        u = u_new
    return np.sum(u * u) + np.sum(u_old)


@njit
def swap_two_arguments_copies(x, y):
    u = x.copy()
    v = y.copy()
    for _ in range(2):
        v[0] = 2.0 * u[0] * u[-1]
        u, v = v, u
    return np.sum(u * v)


V = np.array([0.2, 0.5, 0.9, 0.4, 0.7])


@pytest.mark.parametrize("fn", [argument_rebound_twice, argument_rebound_from_itself, alias_of_a_shifted_copy,
                                fresh_copy_then_rename_in_loop, swap_buffers_once, second_name_survives_rebinding])
def test_rebinding_matches_finite_differences(fn):
    check(fn, [V.copy()])


def test_double_buffering_in_a_time_loop():
    check(swap_buffers_in_time_loop, [V.copy(), 0.2])


def test_ode_step_rebinding_the_state():
    check(euler_rebinding_argument, [V.copy(), 0.1])
    x = V.copy()
    adtrans.grad(euler_rebinding_argument)(x, 0.1)
    np.testing.assert_array_equal(x, V)         # the caller's state is not written


def test_stencil_copy_then_rebind():
    check(heat_copy_and_rebind, [np.linspace(0.1, 1.0, 8), 0.2])


def test_view_rebound_at_top_level():
    check(view_rebound_at_top_level, [np.arange(1.0, 7.0).reshape(3, 2), 0.5])


def test_rebound_through_temporaries_in_time_loops():
    check(rebound_through_a_temporary, [V.copy() * 0.5, 3])
    check(normalised_iteration, [V.copy(), 3])
    check(three_level_leapfrog, [V.copy(), 0.1, 4])


def test_rebinding_in_a_branch():
    check(rebind_in_branch, [V.copy(), 1])
    check(rebind_in_branch, [V.copy(), -1])


def test_two_names_for_one_written_array_in_a_loop_are_refused_with_the_line():
    with pytest.raises(adtrans.UnsupportedError, match=r"test_rebinding.py:\d+:\d+.*`u = v` inside a loop"):
        adtrans.grad(two_names_written_in_loop)(V.copy())


def test_exchanging_arrays_of_different_lengths_raises():
    """A loop swap `u, v = v, ...` is an element exchange: arrays of different lengths raise
    ValueError naming the line (Python would rebind them); equal lengths are FD-checked."""
    check(swap_two_arguments_copies, [V.copy(), V[::-1].copy()])
    with pytest.raises(ValueError, match=r"test_rebinding.py"):
        adtrans.grad(swap_two_arguments_copies)(V.copy(), V[:3].copy())

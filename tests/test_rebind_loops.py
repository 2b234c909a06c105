"""Array names rebound inside time loops by tuple assignment, and arguments written in place
before the loop rebinds them (shallow water, boundary conditions, RK stages).

Every gradient is checked against central finite differences in float64 of the pure-Python
function (``fn.py_func``), for ``J = seed * fn(...) + sum_k <w_k, final value of array k>`` with
random non-zero shadows ``w_k`` on every float array (``autodiff`` with ``Duplicated``), and the
arrays the caller passed must end as Numba's (and Python's) primal leaves them.  The same forms
through the plain-Python driver (``autodiff(fn.py_func, ...)``) are checked the same way.
"""
import numpy as np
import pytest
from numba import njit, prange

import adtrans
from fdcheck import adtrans_gradient, objective


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def check_loop_kernel(fn, args, seed=1.25, h=1e-6, rng=0, driver=False):
    """``fn``'s adjoint (or, with ``driver``, the plain-Python driver's) against central
    differences of ``fn.py_func``, every float array Duplicated with a random shadow; also the
    final values of the caller's arrays against Numba's and Python's primal."""
    gen = np.random.default_rng(rng)
    weights = {k: gen.standard_normal(a.shape) for k, a in enumerate(args)
               if isinstance(a, np.ndarray) and a.dtype.kind == "f"}
    py = fn.py_func
    grads, after = adtrans_gradient(py if driver else fn, args, weights, seed)
    numba_after, py_after = _copy(args), _copy(args)
    fn(*numba_after)
    py(*py_after)
    for k in weights:
        np.testing.assert_allclose(numba_after[k], py_after[k], rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(after[k], numba_after[k], rtol=1e-13, atol=1e-15,
                                   err_msg=f"argument {k} after the adjoint differs from the primal's")
    for k, g in grads.items():
        a = args[k]
        if isinstance(a, np.ndarray):
            fd = np.empty(a.size)
            for j in range(a.size):
                plus, minus = _copy(args), _copy(args)
                plus[k].flat[j] += h
                minus[k].flat[j] -= h
                fd[j] = (objective(py, plus, weights, seed) - objective(py, minus, weights, seed)) / (2 * h)
            np.testing.assert_allclose(g.ravel(), fd, rtol=1e-6, atol=1e-7, err_msg=f"argument {k}")
        else:
            plus, minus = _copy(args), _copy(args)
            plus[k] += h
            minus[k] -= h
            fd = (objective(py, plus, weights, seed) - objective(py, minus, weights, seed)) / (2 * h)
            assert abs(g - fd) <= 1e-7 + 1e-6 * abs(fd), f"argument {k}: adtrans {g!r} vs finite differences {fd!r}"


# ------------------------------------------------------------ tuple rebinding to fresh arrays
@njit
def shallow_water(h, hu, dt, n):
    for s in range(n):
        hn = h.copy(); hun = hu.copy()
        hn[1:-1] = h[1:-1] - dt * (hu[2:] - hu[:-2])
        hun[1:-1] = hu[1:-1] - dt * (h[2:] - h[:-2]) * h[1:-1]
        h, hu = hn, hun
    return np.sum(h ** 2) + np.sum(hu ** 2)


@njit
def shallow_water_walls(h, hu, dt, n):
    """Reflecting walls written into the state at the top of each step: the first step writes the
    caller's arrays, later ones the fresh arrays the previous step made."""
    for s in range(n):
        h[0] = h[1]
        hu[0] = -hu[1]
        hn = np.empty_like(h); hun = np.empty_like(hu)
        hn[0] = h[0]; hun[0] = hu[0]
        hn[1:] = h[1:] - dt * (hu[1:] - hu[:-1])
        hun[1:] = hu[1:] - dt * (h[1:] * h[1:] - h[:-1] * h[:-1])
        h, hu = hn, hun
    return np.sum(h * hu)


@njit
def mixed_rebinding(h, hu, dt, n):
    for s in range(n):
        hn = h.copy()
        hn[1:-1] = h[1:-1] - dt * (hu[2:] - hu[:-2])
        hu[1:-1] = hu[1:-1] * (1.0 - dt * h[1:-1])      # the caller's hu, written every step
        h, hu = hn, hu
    return np.sum(h ** 2) + np.sum(hu ** 2)


@njit
def chain_rebinding(x, dt, n):
    a = x.copy()
    b = 2.0 * x
    for s in range(n):
        c = a * b - dt * a
        a, b = b, c              # a takes b's values before b takes c's
    return np.sum(a * a) + np.sum(b)


@njit
def rotation_of_three(x, n):
    a = x.copy(); b = 2.0 * x; c = x * x
    for s in range(n):
        a[0] = a[0] * b[1] + c[2]
        a, b, c = b, c, a
    return np.sum(a * b) + np.sum(c)


@njit
def expression_values(h, hu, dt, n):
    for s in range(n):
        h, hu = h + dt * hu * hu, hu - dt * np.sin(h)     # each value reads the other name
    return np.sum(h * h * hu)


@njit
def rk2_stages(y, v, dt, n):
    for s in range(n):
        ky, kv = v, -y * y * y
        y1, v1 = y + dt * ky, v + dt * kv
        y, v = 0.5 * (y + y1 + dt * v1), 0.5 * (v + v1 - dt * y1 * y1 * y1)
    return np.sum(y * v) + np.sum(y * y)


@njit
def while_rebinding(h, hu, dt, tol):
    t = 0.0
    while t < tol:
        hn = h + dt * hu
        hun = hu - dt * h * h
        h, hu = hn, hun
        t += dt
    return np.sum(h * hu)


@njit(parallel=True)
def prange_in_time_loop(h, hu, dt, n):
    m = h.shape[0]
    for s in range(n):
        hn = np.empty_like(h); hun = np.empty_like(hu)
        for i in prange(m):
            hn[i] = h[i] - dt * hu[i] * hu[i]
            hun[i] = hu[i] + dt * np.cos(h[i])
        h, hu = hn, hun
    return np.sum(h ** 2) + np.sum(hu)


# ------------------------------------------------------------ a helper returning a tuple of arrays
@njit
def euler_step(a, b, dt):
    an = a - dt * b * b
    bn = b + dt * np.sin(a)
    return an, bn


@njit
def helper_results_in_loop(a, b, dt, n):
    for s in range(n):
        a, b = euler_step(a, b, dt)
    return np.sum(a * b)


@njit
def helper_results_at_top_level(a, b, dt):
    a, b = euler_step(a, b, dt)
    a, b = euler_step(a, b, dt)
    return np.sum(a * b)


@njit
def helper_results_in_while(a, b, dt, tol):
    t = 0.0
    while t < tol:
        a, b = euler_step(a, b, dt)
        t += dt
    return np.sum(a * a * b)


# ------------------------------------------------------------ written in place, then rebound
@njit
def boundary_then_rebind(u, c, n):
    for s in range(n):
        u[0] *= 0.9          # first iteration writes the caller's array (Numba semantics)
        u = u + c * u        # from here u is a fresh array
    return np.sum(u)


@njit
def boundary_then_conditional_rebind(u, c, n):
    for s in range(n):
        u[0] *= 0.9
        u[-1] += c * u[0]
        if s % 2 == 1:
            u = u + c * u * u
    return np.sum(u * u)


@njit
def boundary_then_rebind_in_while(u, c, tol):
    t = 0.0
    while t < tol:
        u[1:3] = u[1:3] * c
        u = np.sin(u) + u
        t += 0.25
    return np.sum(u * u)


@njit
def augmented_then_rebind(u, c, n):
    for s in range(n):
        u += c
        u = u * u
    return np.sum(u)


# ------------------------------------------------------------ refused with the user's line
@njit
def swap_results(a, b):
    return b, a


@njit
def helper_returning_its_arguments(a, b, n):
    for s in range(n):
        a[0] = a[0] * b[1]
        a, b = swap_results(a, b)
    return np.sum(a * b * b)


@njit
def one_array_two_names(x, n):
    a = x.copy(); b = x.copy()
    for s in range(n):
        c = a * b
        a, b = c, c
    return np.sum(a)


@njit
def written_after_the_rebinding_loop(u, c, n):
    for s in range(n):
        u[0] *= 0.9
        u = u + c * u
    u[1] = 0.0               # the caller's array if the loop ran no iteration
    return np.sum(u)


@njit
def rebound_again_after_writes(u, c, n):
    for s in range(n):
        u = u + c * u
    u[1] = 0.0
    u = u * u
    return np.sum(u)


@njit
def written_while_another_name_sees_it(u, c, n):
    w = u
    for s in range(n):
        u[0] *= 0.9
        u = u + c * w
    return np.sum(u)


X = np.array([0.3, 0.5, 0.9, 0.4, 0.7, 0.6])
Y = np.array([0.2, -0.1, 0.4, 0.3, -0.2, 0.1])


@pytest.mark.parametrize("fn, args", [
    (shallow_water, [X, Y, 0.1, 3]),
    (shallow_water_walls, [X, Y, 0.1, 3]),
    (mixed_rebinding, [X, Y, 0.1, 3]),
    (expression_values, [X, Y, 0.1, 3]),
    (while_rebinding, [X, Y, 0.1, 0.35]),
], ids=lambda p: getattr(p, "__name__", ""))
def test_tuple_rebinding_to_fresh_arrays(fn, args):
    check_loop_kernel(fn, args)


def test_chains_and_rotations():
    check_loop_kernel(chain_rebinding, [X, 0.1, 3])
    check_loop_kernel(rotation_of_three, [X, 4])


def test_runge_kutta_stages():
    check_loop_kernel(rk2_stages, [X, Y, 0.1, 3])


def test_prange_inside_the_time_loop():
    check_loop_kernel(prange_in_time_loop, [X, Y, 0.1, 3])


def test_helper_returning_a_tuple_of_arrays():
    """`a, b = f(a, b)`: was silently wrong (the results never reached `a`, `b`)."""
    check_loop_kernel(helper_results_in_loop, [X, Y, 0.1, 3])
    check_loop_kernel(helper_results_at_top_level, [X, Y, 0.1])
    check_loop_kernel(helper_results_in_while, [X, Y, 0.1, 0.25])


def test_argument_written_then_rebound_leaves_the_callers_array_as_numba_does():
    """`u[0] *= 0.9; u = u + c*u`: the caller's array gets the first iteration's write (was copied
    before the loop: a wrong final value, and a wrong gradient for a non-zero shadow on `u`)."""
    u = X.copy()
    du = np.zeros_like(u)
    adtrans.autodiff(boundary_then_rebind, adtrans.Duplicated(u, du), adtrans.Active(0.3), adtrans.Const(3))
    assert u[0] == X[0] * 0.9 and np.array_equal(u[1:], X[1:])
    check_loop_kernel(boundary_then_rebind, [X, 0.3, 3])
    check_loop_kernel(boundary_then_rebind, [X, 0.3, 1])
    check_loop_kernel(boundary_then_rebind, [X, 0.3, 0])
    check_loop_kernel(augmented_then_rebind, [X, 0.3, 3])


def test_argument_written_after_the_loop_that_rebinds_it():
    for n in (0, 2):         # 0: every write lands in the caller's array
        check_loop_kernel(written_after_the_rebinding_loop, [X, 0.3, n])


def test_argument_written_then_rebound_conditionally_or_in_while():
    for n in (0, 1, 4):      # 1: the branch never rebinds, every write goes to the caller's array
        check_loop_kernel(boundary_then_conditional_rebind, [X, 0.3, n])
    check_loop_kernel(boundary_then_rebind_in_while, [X, 0.8, 0.6])
    check_loop_kernel(boundary_then_rebind_in_while, [X, 0.8, -1.0])


@pytest.mark.parametrize("fn, args", [
    (shallow_water_walls, [X, Y, 0.1, 3]),
    (mixed_rebinding, [X, Y, 0.1, 3]),
    (rotation_of_three, [X, 4]),
    (rk2_stages, [X, Y, 0.1, 2]),
    (helper_results_in_loop, [X, Y, 0.1, 3]),
    (boundary_then_rebind, [X, 0.3, 3]),
    (boundary_then_conditional_rebind, [X, 0.3, 4]),
], ids=lambda p: getattr(p, "__name__", ""))
def test_the_same_forms_in_plain_python_drivers(fn, args):
    check_loop_kernel(fn, args, driver=True)


@pytest.mark.parametrize("fn, args, what", [
    (helper_returning_its_arguments, [X, Y, 2], r"rebinding `a` to an array swap_results returns without making it"),
    (one_array_two_names, [X, 2], r"one array bound to two names"),
    (rebound_again_after_writes, [X, 0.3, 2], r"rebinding `u` again after a loop or branch"),
    (written_while_another_name_sees_it, [X, 0.3, 2], r"while another name or view refers to its array"),
], ids=lambda p: getattr(p, "__name__", "") if callable(p) else "")
def test_forms_without_a_sure_gradient_are_refused_with_the_line(fn, args, what):
    with pytest.raises(adtrans.UnsupportedError, match=r"test_rebind_loops.py:\d+:\d+: .*" + what + r".*copy"):
        adtrans.grad(fn)(*_copy(args))


@njit
def augmented_after_straight_rebinding(y, c):
    y = y * 2.0
    y += c               # the new array `y` names, not the caller's
    y *= y
    return np.sum(y)


def test_augmented_assignment_to_a_rebound_name():
    check_loop_kernel(augmented_after_straight_rebinding, [X, 0.3])


@njit
def relax(u, c):
    return u + c * u * u


@njit
def energy(u):
    return np.sum(u * u)


@njit
def boundary_then_helper_rebind(u, c, n):
    for s in range(n):
        u[0] = 0.5 * u[1]
        u = relax(u, c)
    return energy(u)          # a helper reading `u` after the loop: no write, nothing refused


@njit
def written_after_a_conditional_rebinding(u, c, flag):
    if flag > 0:
        u = u * c
    u[0] = 2.0 * u[1]         # the caller's array where the branch did not run
    return np.sum(u * u)


def test_argument_rebound_by_a_helper_then_read_by_one():
    check_loop_kernel(boundary_then_helper_rebind, [X, 0.3, 3])


def test_argument_written_after_a_branch_that_may_rebind_it():
    check_loop_kernel(written_after_a_conditional_rebinding, [X, 0.3, 1])
    check_loop_kernel(written_after_a_conditional_rebinding, [X, 0.3, 0])


# ------------------------------------------------------------ np.asarray / ascontiguousarray alias
@njit
def asarray_writes_through(x, c):
    y = np.asarray(x)            # Numba returns x itself: writing y writes the caller's x
    y *= c
    z = np.ascontiguousarray(x)  # x is contiguous: x itself again
    z[0] += 1.0
    return np.sum(x * x)


@njit
def contiguous_copy_of_a_strided_view(x, c):
    y = np.ascontiguousarray(x[::2])   # a strided view: a copy, x unchanged
    y *= c
    return np.sum(x[::2] * y) + np.sum(x * x)


def test_asarray_and_ascontiguousarray_of_an_array_are_the_array():
    # before: adtrans copied, so the caller's x kept its values and dx missed the factor c**2
    check_loop_kernel(asarray_writes_through, [X, 1.7])


@njit
def copy_of_a_strided_view(x, c):
    y = np.copy(x[::2])                # always a copy, x unchanged
    y *= c
    return np.sum(x[::2] * y) + np.sum(x * x)


def test_ascontiguousarray_of_a_written_strided_view_is_refused():
    # Numba copies x[::2] unless it has one element (then it is contiguous and Numba returns the
    # view, and `y *= c` scales x): the gradient would depend on len(x), so this is refused;
    # np.copy always copies and is differentiated
    x = np.linspace(0.1, 1.0, 6)
    with pytest.raises(adtrans.UnsupportedError, match=r"np.copy\(x\[::2\]\)"):
        adtrans.grad(contiguous_copy_of_a_strided_view, argnums=(0, 1))(x, 1.7)
    check_loop_kernel(copy_of_a_strided_view, [x, 1.7])
    check_loop_kernel(copy_of_a_strided_view, [x[:2].copy(), 1.7])


@njit
def rebound_in_a_time_loop(u, c, n):
    for k in range(n):
        u = u + c * u * u
    return np.sum(u)


def test_a_rebound_argument_is_copied_once():
    check_loop_kernel(rebound_in_a_time_loop, [X, 0.1, 3])
    src = adtrans.source(rebound_in_a_time_loop, adtrans.Duplicated(X, np.zeros_like(X)), adtrans.Active(0.1), 3)
    assert src.count("np.empty(") == 1, src

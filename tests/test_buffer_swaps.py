"""Buffer swapping of the caller's arrays (double buffering ``u, un = un, u``, rotation
``a, b, c = b, c, a``, under an ``if``, in ``while`` and nested loops, 2-D, prange, helpers,
drivers, ``checkpoints=2``).

Enzyme's convention: on entry a Duplicated shadow holds the seed of its array's FINAL value, on
return the adjoint of its INITIAL value.  Every gradient is checked against central differences
in float64 of ``fn.py_func`` for ``J = seed * fn(...) + sum_k <w_k, final value of array k>``,
random non-zero ``w_k`` on every Duplicated array (both buffers seeded), float scalars Active,
odd and even step counts; the caller's arrays must end as Python leaves them.  Before the fix the
caller's ``u`` was handed its copy back only at the first swap (kernels: wrong gradients, the seed
of ``u`` never read, wrong final arrays) and a driver's reverse sweep left ``u`` at its initial
values (its final values were not kept: only ``un`` was seen written).
"""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import adtrans  # noqa: E402
import kernels_buffer_swaps as K  # noqa: E402


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _objective(py, args, weights, seed):
    args = _copy(args)
    ret = py(*args)
    total = 0.0 if ret is None else float(np.sum(np.asarray(seed) * ret))
    for k, w in weights.items():
        total += float(np.sum(w * args[k]))
    return total


def check(fn, args, activity=None, driver=False, seed=1.25, h=1e-6, **kw):
    """Adjoint (kernel, or with ``driver`` the plain-Python driver) against central differences;
    ``activity`` per argument ("dup", "const", "active"), default: float arrays dup, floats active."""
    py = fn if driver else fn.py_func
    if activity is None:
        activity = ["dup" if isinstance(a, np.ndarray) else "active" if isinstance(a, float) else "const"
                    for a in args]
    gen = np.random.default_rng(0)
    weights = {k: gen.standard_normal(a.shape) for k, a in enumerate(args) if activity[k] == "dup"}
    work = _copy(args)
    wrapped = []
    for k, a in enumerate(work):
        wrapped.append(adtrans.Duplicated(a, weights[k].copy()) if activity[k] == "dup" else
                       adtrans.Active(a) if activity[k] == "active" else adtrans.Const(a))
    adj = iter(adtrans.autodiff(fn, *wrapped, seed=seed, **kw))
    after = _copy(args)
    py(*after)
    for k in weights:
        np.testing.assert_allclose(work[k], after[k], rtol=1e-13, atol=1e-15,
                                   err_msg=f"argument {k} after the adjoint differs from the primal's")
    for k, a in enumerate(args):
        if activity[k] == "dup":
            g = wrapped[k].shadow
            fd = np.empty(a.size)
            for j in range(a.size):
                plus, minus = _copy(args), _copy(args)
                plus[k].flat[j] += h
                minus[k].flat[j] -= h
                fd[j] = (_objective(py, plus, weights, seed) - _objective(py, minus, weights, seed)) / (2 * h)
            np.testing.assert_allclose(g.ravel(), fd, rtol=1e-6, atol=1e-7, err_msg=f"argument {k}")
        elif activity[k] == "active":
            g = next(adj)
            plus, minus = _copy(args), _copy(args)
            plus[k] += h
            minus[k] -= h
            fd = (_objective(py, plus, weights, seed) - _objective(py, minus, weights, seed)) / (2 * h)
            assert abs(g - fd) <= 1e-7 + 1e-6 * abs(fd), f"argument {k}: adtrans {g!r} vs finite differences {fd!r}"


def vec(n=6, rng=[1]):
    rng[0] += 1
    return np.random.default_rng(rng[0]).standard_normal(n) * 0.5


@pytest.mark.parametrize("nt", [3, 4])
@pytest.mark.parametrize("fn", [K.heat_swap, K.heat_swap_return_un, K.heat_swap_no_return, K.swap_under_if,
                                K.swap_then_copy, K.helper_then_swap, K.while_swap, K.swap_first,
                                K.alias_before_swaps, K.two_swapping_loops, K.nested_swap_and_writes])
def test_two_argument_buffers(fn, nt):
    check(fn, [vec(), vec(), 0.3, nt])


@pytest.mark.parametrize("nt", [3, 4, 5])
def test_three_buffer_rotation(nt):
    check(K.rotate_three, [vec(), vec(), vec(), 0.7, nt])
    check(K.rotate_or_swap, [vec(), vec(), vec(), 0.7, nt])


@pytest.mark.parametrize("nt", [3, 4])
def test_local_buffer_and_argument(nt):
    check(K.local_and_argument, [vec(), 0.3, nt])


def test_two_dimensional_buffers():
    for nt in (3, 4):
        check(K.swap_2d, [vec(20).reshape(4, 5), vec(20).reshape(4, 5), 0.2, nt])


def test_helper_swapping_its_own_names():
    check(K.helper_swapping_inside, [vec(), vec(), 0.7, 3])


def test_prange_time_loop_swapping():
    for nt in (3, 4):
        check(K.prange_swap, [vec(), vec(), 0.3, nt])


def test_returned_buffer_seeded():
    w = np.random.default_rng(5).standard_normal(6)
    for nt in (3, 4):
        check(K.swap_return_array, [vec(), vec(), 0.7, nt], seed=w)


def test_const_buffer_receiving_active_values_is_refused_at_the_swap():
    for act in (["const", "dup", "active", "const"], ["dup", "const", "active", "const"]):
        with pytest.raises(adtrans.UnsupportedError, match=r"kernels_buffer_swaps.py:\d+:\d+.*which is Const"):
            check(K.heat_swap, [vec(), vec(), 0.3, 3], activity=act)


def test_swaps_that_cannot_be_served_are_refused_with_the_line():
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_buffer_swaps.py:\d+:\d+.*two names for one array"):
        check(K.swap_through_temporary, [vec(), vec(), 0.3, 3])
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_buffer_swaps.py:\d+:\d+.*rebinding the view"):
        check(K.swap_rows, [vec(18).reshape(3, 6), 0.3, 3])
    with pytest.raises(adtrans.UnsupportedError, match=r"kernels_buffer_swaps.py:\d+:\d+.*exchanges with an argument"):
        check(K.swap_then_fresh, [vec(), vec(), 0.3, 3])


@pytest.mark.parametrize("nt", [3, 4])
@pytest.mark.parametrize("fn", [K.driver_swap, K.driver_swap_no_return, K.driver_swap_under_if, K.driver_temporary])
def test_drivers_swapping_argument_buffers(fn, nt):
    check(fn, [vec(), vec(), 0.3, nt], driver=True)


@pytest.mark.parametrize("nt", [3, 4])
def test_drivers_rotating_or_with_a_local_buffer(nt):
    check(K.driver_rotate, [vec(), vec(), vec(), 0.3, nt], driver=True)
    check(K.driver_local, [vec(), 0.3, nt], driver=True)


def test_driver_with_one_const_buffer_and_checkpoints():
    for nt in (3, 4):
        check(K.driver_swap, [vec(), vec(), 0.3, nt], activity=["const", "dup", "active", "const"], driver=True)
        check(K.driver_swap, [vec(), vec(), 0.3, nt], driver=True, checkpoints=2)

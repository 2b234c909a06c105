"""The per-call fast path of ``AdjointFunction`` and ``grad`` (adtrans/adjoint.py ``_compiled``,
arguments.host_key): a compiled adjoint looked up by a cheap key of the argument types must be
the one for these types, and the aliasing check must still run on every call."""
import numpy as np
import pytest
from numba import njit

import adtrans
from adtrans.arguments import host_key, typeof_args

from fdcheck import check


@njit
def scaled_sum(x, a, k):
    s = 0.0
    for i in range(x.shape[0]):
        s += a * x[i] ** 2 + k * x[i]
    return s


@njit
def shift_into(a, out):
    for i in range(a.shape[0] - 1):
        out[i + 1] = 2.0 * a[i]


def test_host_key_tells_apart_what_the_numba_types_tell_apart():
    x = np.arange(6.0)
    cases = [(x, 1.0, 2), (x[::2], 1.0, 2), (x.astype(np.float32), 1.0, 2), (x, 1, 2), (x, 1.0, True),
             (x.reshape(2, 3), 1.0, 2), (np.asfortranarray(x.reshape(2, 3)), 1.0, 2)]
    ro = x.copy()
    ro.flags.writeable = False
    cases.append((ro, 1.0, 2))
    cases += [(x, np.float64(1.0), 2), (x, 1.0, np.int64(2)), (x, np.float32(1.0), 2), (x, 1.0, np.int32(2)),
              (x, np.bool_(True), 2), (x, 1.0, np.uint8(2)), (x, np.complex128(1.0), 2)]
    keys = [host_key(c) for c in cases]
    types = [typeof_args(c) for c in cases]
    for i in range(len(cases)):
        for j in range(len(cases)):
            assert (keys[i] == keys[j]) == (types[i] == types[j]), (cases[i], cases[j])
    assert host_key((x, 1 << 63, 2)) is None        # a uint64: typed the long way
    assert host_key((x, np.float64(1.0), np.int64(2))) == host_key((x, 1.0, 2))     # regElemStart[r] passed on
    assert host_key((x, np.longdouble(1.0), 2)) is None
    assert host_key((x, 1.0, 2)) == host_key((np.ones(3), 5.0, -7))


def test_one_adjoint_called_with_changing_types_gives_each_call_its_own_gradient():
    x = np.linspace(0.1, 1.0, 7)
    g = adtrans.grad(scaled_sum, argnums=(0, 1))
    for args in [(x, 1.5, 2), (x, 1.5, 2.5), (x[::2].copy(), 0.5, 3), (x[::2], 0.5, 3), (x, 2, 1.0)]:
        dx, da = g(*args)
        xs = np.asarray(args[0])
        np.testing.assert_allclose(dx, 2.0 * args[1] * xs + args[2], rtol=1e-12)
        np.testing.assert_allclose(da, np.sum(xs ** 2), rtol=1e-12)
    check(scaled_sum, [x, 1.5, 2], activity=("dup", "const", "const"))


def test_grad_written_inline_reuses_one_adjoint_per_kernel_and_activity():
    # `grad(f)(x)` makes a new gradient function per call: its adjoint (compiled per argument
    # types) is the one every other grad of the kernel with that activity calls
    x = np.linspace(0.1, 1.0, 7)
    first = adtrans.api.grad_adjoint(scaled_sum, ("dup", "active", "const"))
    for k in (2, 3):
        dx, da = adtrans.grad(scaled_sum, argnums=(0, 1))(x, 1.5, k)
        np.testing.assert_allclose(dx, 3.0 * x + k, rtol=1e-12)
        np.testing.assert_allclose(da, np.sum(x ** 2), rtol=1e-12)
    assert adtrans.api.grad_adjoint(scaled_sum, ("dup", "active", "const")) is first
    assert adtrans.api.grad_adjoint(scaled_sum, ("dup", "const", "const")) is not first
    # another argnums: another activity, another adjoint, its own gradient
    np.testing.assert_allclose(adtrans.grad(scaled_sum)(x, 1.5, 2), 3.0 * x + 2, rtol=1e-12)
    check(scaled_sum, [x, 1.5, 2], activity=("dup", "active", "const"))


def test_aliasing_is_refused_on_every_call_of_a_cached_adjoint():
    adj = adtrans.adjoint(shift_into, ("dup", "dup"))
    a, out = np.linspace(0.0, 1.0, 5), np.zeros(5)
    da, dout = np.zeros(5), np.ones(5)
    adj(a, da, out, dout)                    # compiled and cached for these types
    np.testing.assert_array_equal(da, [2.0, 2.0, 2.0, 2.0, 0.0])
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adj(a, np.zeros(5), a, np.ones(5))
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adj(a, da, out, da)                  # two shadows, one array
    buf = np.zeros(10)
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adj(buf[1:6], np.zeros(5), buf[:5], np.ones(5))


def test_grad_of_a_driver_still_goes_through_autodiff():
    def driver(x):
        return scaled_sum(x, 1.0, 0.0) + 1.0
    x = np.linspace(0.1, 1.0, 4)
    np.testing.assert_allclose(adtrans.grad(driver)(x), 2.0 * x, rtol=1e-12)


@njit
def weighted_square_sum(x, a):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            s += a * (i + 1.0) * x[i, j] ** 2
    return s


def test_grad_fast_path_keeps_each_arguments_layout_and_returns_the_right_gradient():
    # grad's shadow of a C-contiguous array is np.zeros(shape, dtype) (cheaper than zeros_like),
    # of any other array np.zeros_like; one int argnums returns the shadow, or the float adjoint
    base = np.linspace(0.1, 1.2, 12).reshape(3, 4)
    rows = (np.arange(1.0, 4.0) * 1.5)[:, None]
    for x in (base.copy(), np.asfortranarray(base), base[:, ::2]):
        dx = adtrans.grad(weighted_square_sum)(x, 1.5)
        assert dx.shape == x.shape and dx.flags.c_contiguous == np.zeros_like(x).flags.c_contiguous
        np.testing.assert_allclose(dx, 2.0 * rows * x, rtol=1e-12)
        da = adtrans.grad(weighted_square_sum, argnums=1)(x, 1.5)
        assert isinstance(da, float)
        np.testing.assert_allclose(da, np.sum(np.arange(1.0, 4.0)[:, None] * x ** 2), rtol=1e-12)
    check(weighted_square_sum, [np.asfortranarray(base), 1.5])

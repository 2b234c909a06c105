"""Whole-array NumPy kernels (normalise/arrays.py) against central finite differences in float64."""
import numpy as np
import pytest

import adtrans
import kernels_arrays as K
import kernels_unsupported as U
from fdcheck import check

RNG = np.random.default_rng(11)


def u(*shape, lo=0.2, hi=1.2):
    return RNG.uniform(lo, hi, shape)


CASES = [
    (K.jacobi_1d, lambda: [u(10), u(10), 3]),
    (K.jacobi_2d, lambda: [u(6, 7), u(6, 7), 2]),
    pytest.param(K.heat_3d, lambda: [u(5, 5, 6), u(5, 5, 6), 2], marks=pytest.mark.slow),   # compiles for over 10 s
    (K.seidel_2d, lambda: [u(6, 6), 2]),
    (K.fdtd_2d, lambda: [u(5, 6), u(5, 6), u(5, 6), u(3), 3]),
    (K.gemm, lambda: [1.5, 1.2, u(3, 4), u(3, 5), u(5, 4)]),
    (K.gemm_loops, lambda: [1.5, 1.2, u(3, 4), u(3, 5), u(5, 4)]),
    (K.two_mm, lambda: [1.5, 1.2, u(3, 4), u(4, 5), u(5, 2), u(3, 2)]),
    (K.atax, lambda: [u(4, 5), u(5), u(5)]),
    (K.bicg, lambda: [u(4, 5), u(5), u(4), u(5), u(4)]),
    (K.mvt, lambda: [u(4), u(4), u(4), u(4), u(4, 4)]),
    (K.gesummv, lambda: [1.5, 1.2, u(4, 4), u(4, 4), u(4), u(4)]),
    (K.syrk, lambda: [1.5, 1.2, u(4, 4), u(4, 3)]),
    (K.doitgen, lambda: [u(2, 3, 4), u(4, 4)]),
    (K.covariance, lambda: [u(6, 3)]),
    (K.nbody_energy, lambda: [u(6, 3), u(6), 0.1]),
    (K.lennard_jones, lambda: [np.arange(15.0).reshape(5, 3) * 0.37 + u(5, 3, lo=0, hi=0.1)]),
    (K.lennard_jones_prange, lambda: [np.arange(15.0).reshape(5, 3) * 0.37 + u(5, 3, lo=0, hi=0.1), u(5)]),
    (K.sph_density, lambda: [u(6, 2), u(6), 0.9]),
    (K.logsumexp, lambda: [u(7)]),
    (K.softmax_dot, lambda: [u(7), u(7)]),
    (K.kde, lambda: [u(4), u(6), 0.5]),
    pytest.param(K.gmm_loglik, lambda: [u(5, 2), u(3, 2), u(3, 2, lo=-0.3, hi=0.3), u(3, lo=-1, hi=0)], marks=pytest.mark.slow),   # compiles for over 10 s
    (K.arc_distance, lambda: [u(5), u(5), u(5), u(5)]),
    (K.black_scholes, lambda: [u(5, lo=5, hi=15), u(5, lo=5, hi=15), u(5, lo=0.5, hi=2), 0.05, 0.3]),
    (K.filter_2d, lambda: [u(6, 7), u(3, 3)]),
    pytest.param(K.ufuncs, lambda: [u(5), u(5)], marks=pytest.mark.slow),   # compiles for over 10 s
    pytest.param(K.shapes, lambda: [u(3, 4), u(4)], marks=pytest.mark.slow),   # compiles for over 10 s
    (K.reductions_axis, lambda: [u(3, 4)]),
    (K.views, lambda: [u(4, 5), u(5)]),
    (K.prange_rows, lambda: [u(5, 3), u(3), u(5)]),
    (K.heat_time_loop, lambda: [u(9), 0.2, 3]),
    (K.wrapper, lambda: [u(5), u(5)]),
    (U.slicing, lambda: [u(4)]),              # refused before whole-array support
    (U.row_view, lambda: [u(3, 2), 0.5]),
    (U.calls_unknown, lambda: [u(5)]),        # np.linalg.norm
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_array_kernel_matches_finite_differences(fn, args):
    check(fn, args())


def _fd_seeded(fn, args, seeds, k, h=1e-6):
    """Central differences of sum_r <fn(args)_r, seed_r> in argument ``k`` (array)."""
    def f(a):
        vals = list(args)
        vals[k] = a
        out = fn(*vals)
        out = out if isinstance(out, tuple) else (out,)
        return sum(float(np.sum(o * w)) for o, w in zip(out, seeds))
    x = args[k]
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += h
        xm[i] -= h
        g[i] = (f(xp) - f(xm)) / (2 * h)
    return g


def test_kernel_returning_an_array_takes_an_array_seed():
    x, w = u(6), u(6)
    dx = np.zeros_like(x)
    (dc,) = adtrans.autodiff(K.returns_array, adtrans.Duplicated(x, dx), adtrans.Active(1.7), seed=w)
    np.testing.assert_allclose(dx, _fd_seeded(K.returns_array, [x, 1.7], [w], 0), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(dc, np.sum(np.sin(x) * w), rtol=1e-12)


def test_kernel_returning_a_tuple_of_arrays_takes_one_seed_each():
    A, x = u(3, 4), u(4)
    w1, w2 = u(3), u(4)
    dA, dx = np.zeros_like(A), np.zeros_like(x)
    adtrans.autodiff(K.returns_two, adtrans.Duplicated(A, dA), adtrans.Duplicated(x, dx), seed=(w1, w2))
    np.testing.assert_allclose(dA, _fd_seeded(K.returns_two, [A, x], [w1, w2], 0), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(dx, _fd_seeded(K.returns_two, [A, x], [w1, w2], 1), rtol=1e-7, atol=1e-9)
    with pytest.raises(adtrans.ActivityError, match="one seed per returned value"):
        adtrans.autodiff(K.returns_two, adtrans.Duplicated(A, dA), adtrans.Duplicated(x, dx), seed=w1)


def test_grad_of_a_weighted_sum_of_a_helper_returning_an_array():
    x, w = u(5), u(5)
    np.testing.assert_allclose(adtrans.grad(K.wrapper)(x, w), 2.0 * w, rtol=1e-14)

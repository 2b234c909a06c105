"""Whole-array NumPy kernels (normalise/arrays.py) against central finite differences in float64."""
import numpy as np
import pytest

import kernels_arrays as K
from fdcheck import check

RNG = np.random.default_rng(11)


def u(*shape, lo=0.2, hi=1.2):
    return RNG.uniform(lo, hi, shape)


CASES = [
    (K.jacobi_1d, lambda: [u(10), u(10), 3]),
    (K.jacobi_2d, lambda: [u(6, 7), u(6, 7), 2]),
    (K.heat_3d, lambda: [u(5, 5, 6), u(5, 5, 6), 2]),
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
    (K.gmm_loglik, lambda: [u(5, 2), u(3, 2), u(3, 2, lo=-0.3, hi=0.3), u(3, lo=-1, hi=0)]),
    (K.arc_distance, lambda: [u(5), u(5), u(5), u(5)]),
    (K.black_scholes, lambda: [u(5, lo=5, hi=15), u(5, lo=5, hi=15), u(5, lo=0.5, hi=2), 0.05, 0.3]),
    (K.filter_2d, lambda: [u(6, 7), u(3, 3)]),
    (K.ufuncs, lambda: [u(5), u(5)]),
    (K.shapes, lambda: [u(3, 4), u(4)]),
    (K.reductions_axis, lambda: [u(3, 4)]),
    (K.views, lambda: [u(4, 5), u(5)]),
    (K.prange_rows, lambda: [u(5, 3), u(3), u(5)]),
    (K.heat_time_loop, lambda: [u(9), 0.2, 3]),
    (K.wrapper, lambda: [u(5), u(5)]),
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_array_kernel_matches_finite_differences(fn, args):
    check(fn, args())

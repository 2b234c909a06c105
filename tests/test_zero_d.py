"""0-d arrays (``np.array(0.5)``) passed as Duplicated where a kernel reads a scalar: the
prange adjoint's per-thread partial sums of their adjoint take the array's dtype (it wrote the
array type into ``np.zeros`` and failed to parse)."""
import numpy as np

import adtrans
import kernels_prange as P
from adtrans import Duplicated


def test_zero_d_duplicated_in_prange_matches_finite_differences():
    rng = np.random.default_rng(2)
    x, w = rng.uniform(-1, 1, 9), rng.standard_normal(9)
    dt = np.array(0.37)
    d_x, d_dt = np.zeros(9), np.zeros(())
    adtrans.autodiff(P.scaled_squares, Duplicated(x.copy(), d_x), Duplicated(dt.copy(), d_dt),
                     Duplicated(np.zeros(9), w.copy()))
    h = 1e-6

    def obj(dtv):
        out = np.zeros(9)
        P.scaled_squares.py_func(x, np.array(dtv), out)
        return float(np.sum(w * out))
    fd = (obj(0.37 + h) - obj(0.37 - h)) / (2 * h)
    assert abs(float(d_dt) - fd) <= 1e-8 * max(1.0, abs(fd))
    np.testing.assert_allclose(d_x, 2 * 0.37 * x * w, rtol=1e-12)

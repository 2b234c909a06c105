"""Gather-form adjoints of stencil loops (analyse/loops.py StencilAnalysis, transform/loops.py
gather_loop): gradients against central finite differences in float64, in both styles (explicit
loops and slices), serial and prange, 1-D/2-D/3-D, with asymmetric offsets; and the strategy
named in the generated loop comment."""
import numba
import numpy as np
import pytest

import adtrans
import kernels_stencils as K
from fdcheck import check

RNG = np.random.default_rng(5)
GATHER = "reverse sweep: gather form"


def u(*shape):
    return RNG.uniform(0.2, 1.2, shape)


CASES = [
    (K.heat_1d, lambda: [u(9), u(9), 0.3], None),
    (K.heat_1d, lambda: [u(9), u(9), 0.3], ("dup", "dup", "const")),
    (K.asym_1d, lambda: [u(10), u(10)], None),
    (K.two_inputs_1d, lambda: [u(9), u(9), u(9), u(9)], ("dup", "dup", "const", "dup")),
    (K.heat_1d_slices, lambda: [u(9), u(9), 0.3], None),
    (K.asym_1d_slices, lambda: [u(10), u(10)], None),
    (K.heat_1d_prange, lambda: [u(11), u(11), 0.3], ("dup", "dup", "const")),
    (K.asym_1d_prange, lambda: [u(12), u(12)], None),
    (K.heat_steps, lambda: [u(9), 0.2, 3], None),
    (K.heat_steps_slices, lambda: [u(9), 0.2, 3], None),
    (K.jacobi_2d, lambda: [u(6, 7), u(6, 7), 2], None),
    (K.jacobi_2d_slices, lambda: [u(6, 7), u(6, 7), 2], None),
    (K.skew_2d_prange, lambda: [u(7, 8), u(7, 8)], None),
    (K.heat_3d_prange, lambda: [u(5, 4, 6), u(5, 4, 6)], None),
    (K.heat_3d_slices, lambda: [u(4, 5, 5), u(4, 5, 5)], None),
    (K.fdtd_2d, lambda: [u(5, 6), u(5, 6), u(5, 6), u(3), 3], None),
    (K.damp_in_place_prange, lambda: [u(10), u(10), 0.3], ("dup", "dup", "const")),
    (K.seidel_1d, lambda: [u(8)], None),
]


@pytest.mark.parametrize("fn,args,activity", CASES, ids=lambda v: getattr(v, "__name__", None))
def test_stencil_gradient_matches_finite_differences(fn, args, activity):
    check(fn, args(), activity=activity)


@pytest.mark.parametrize("fn,args,activity", CASES[:-1], ids=lambda v: getattr(v, "__name__", None))
def test_gather_strategy_is_chosen(fn, args, activity):
    a = args()
    act = activity or tuple("dup" if isinstance(x, np.ndarray) else "active" if isinstance(x, float) else "const"
                            for x in a)
    src = adtrans.source(fn, act, *a)
    assert GATHER in src
    assert "per_thread" not in src and "_here" not in src     # no per-thread shadow buffers


def test_gauss_seidel_is_not_a_gather():
    src = adtrans.source(K.seidel_1d, ("dup",), u(8))
    assert GATHER not in src


def test_short_and_empty_ranges():
    """Loops shorter than the stencil's reach (edges overlap, no interior) and empty loops."""
    for n in (1, 2, 3, 4, 5):
        check(K.asym_1d, [u(n), u(n)]) if n > 0 else None
        check(K.heat_1d, [u(n), u(n), 0.3])


@pytest.mark.parametrize("threads", [1, 2])
def test_prange_gather_with_threads(threads):
    numba.set_num_threads(threads)
    try:
        check(K.heat_1d_prange, [u(40), u(40), 0.3], activity=("dup", "dup", "const"))
        check(K.skew_2d_prange, [u(9, 10), u(9, 10)])
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_float32_gather_matches_float64():
    """float32 arrays: the gather's accumulators keep the element type; same gradient as float64."""
    x, w = u(12), RNG.standard_normal(12)
    grads = {}
    for dt in (np.float64, np.float32):
        xs, out = x.astype(dt), np.zeros(12, dt)
        dx, dout = np.zeros(12, dt), w.astype(dt)
        src = adtrans.source(K.asym_1d, ("dup", "dup"), xs, out)
        assert GATHER in src
        adtrans.autodiff(K.asym_1d, adtrans.Duplicated(xs, dx), adtrans.Duplicated(out, dout))
        assert dx.dtype == dt
        grads[dt] = dx
    assert np.allclose(grads[np.float32], grads[np.float64], rtol=1e-5, atol=1e-5)
    assert np.abs(grads[np.float64]).max() > 0.1

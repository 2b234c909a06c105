"""Adjoints inherit the primal's fastmath / error_model / boundscheck; under fast-math
reassociation sums across a short inner loop stay scalar accumulations (no per-lane slots)."""
import numpy as np

import adtrans
import kernels_fastmath as K
from fdcheck import adtrans_gradient, check

RNG = np.random.default_rng(5)


def args():
    return [RNG.uniform(-1, 1, (7, 2)), RNG.uniform(-1, 1, 21), np.zeros(21)]


def decorator(src):
    return next(line for line in src.splitlines() if line.startswith("@"))


def test_fastmath_adjoint_matches_finite_differences():
    check(K.blocked_pairs_fast, args())
    check(K.blocked_pairs_reassoc, args())
    check(K.distances_fast, [RNG.uniform(-1, 1, 6), RNG.uniform(-1, 1, 17), np.zeros(6)])


def test_fastmath_and_ieee_adjoints_agree():
    a = args()
    gen = np.random.default_rng(2)
    w = {k: gen.standard_normal(x.shape) for k, x in enumerate(a)}
    g_ieee, _ = adtrans_gradient(K.blocked_pairs, a, w, 1.0)
    g_fast, _ = adtrans_gradient(K.blocked_pairs_fast, a, w, 1.0)
    for k in g_ieee:
        np.testing.assert_allclose(g_fast[k], g_ieee[k], rtol=1e-12, atol=1e-13)


def test_reassociation_keeps_scalar_accumulations():
    a = args()
    ieee = adtrans.source(K.blocked_pairs, ("dup", "dup", "dup"), *a)
    fast = adtrans.source(K.blocked_pairs_fast, ("dup", "dup", "dup"), *a)
    # IEEE: one slot per lane, summed after the loop (keeps the loop vectorisable)
    assert "d_px_lanes[l" in ieee and "fastmath" not in decorator(ieee)
    # fast-math: LLVM vectorises the reduction itself
    assert "_lanes" not in fast and "d_px += " in fast
    assert decorator(fast) == "@numba.njit(cache=True, parallel=True, fastmath=True)"


def test_options_inherited_and_rendered_deterministically():
    src = adtrans.source(K.blocked_pairs_reassoc, ("dup", "dup", "dup"), *args())
    assert decorator(src) == ("@numba.njit(cache=True, parallel=True, fastmath={'contract', 'reassoc'}, "
                              "error_model='numpy', boundscheck=True)")
    assert "_lanes" not in src

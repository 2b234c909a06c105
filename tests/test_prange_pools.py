"""Per-thread prange buffers kept across calls (scratch pools): reuse gives the results of fresh
buffers, across inputs, shapes and thread counts, and after a call that raised."""
import numba
import numpy as np
import pytest

import adtrans
import sys

import adtrans.adjoint  # noqa: F401  (the module, for its pools)
import kernels_prange as P

adjoint_module = sys.modules["adtrans.adjoint"]
from fdcheck import check

TWO = numba.config.NUMBA_NUM_THREADS >= 2
needs_two = pytest.mark.skipif(not TWO, reason="needs 2 Numba threads")


def _gather_args(rng, n, m):
    # negative indices count from the end: the touched rows of a thread wrap around
    return [rng.uniform(-1, 1, n), rng.integers(-n, n, m), rng.uniform(0, 1, m)]


def _corner_args(rng, n, m):
    return [rng.uniform(-1, 1, (n, 2)), rng.integers(0, n, (m, 4)), rng.uniform(0, 1, 4), np.zeros(m)]


def _grad(adj, fn, args, activity, seed_out):
    """Shadows after one call of ``adj`` (an adtrans.adjoint) on copies of ``args``."""
    flat, shadows = [], []
    for a, kind in zip(args, activity):
        a = a.copy() if isinstance(a, np.ndarray) else a
        flat.append(a)
        if kind == "dup":
            d = seed_out(a)
            shadows.append(d)
            flat.append(d)
    out = adj(*flat, 1.0)
    return shadows, out


def _fresh(fn, args, activity, seed_out):
    adjoint_module.release_tapes()          # a call with fresh buffers
    return _grad(adtrans.adjoint(fn, activity), fn, args, activity, seed_out)


def _scratch_zero():
    """Every scratch-pool array of the calling thread is all zeros (the pools' invariant)."""
    for fn, pools in getattr(adjoint_module._POOLS, "by_fn", {}).values():
        for pool in pools:
            arrays = list(pool)
            if arrays and arrays[0].size == 0:     # a scratch pool starts with an empty slot
                for a in arrays:
                    assert not np.any(a), "a per-thread buffer was left non-zero"


def _same(a, b):
    for x, y in zip(a[0], b[0]):
        np.testing.assert_array_equal(x, y)
    assert a[1] == b[1]


CASES = [
    (P.gather, ("dup", "const", "dup"), _gather_args, lambda a: np.full_like(a, 0.5) if a.dtype.kind == "f" else a),
    (P.corner_gather, ("dup", "const", "dup", "dup"), _corner_args,
     lambda a: np.linspace(-1, 1, a.size).reshape(a.shape)),
]


@needs_two
@pytest.mark.parametrize("k", range(len(CASES)), ids=["gather", "corner_gather"])
def test_reuse_across_inputs_shapes_and_threads(k):
    fn, activity, make, seed_out = CASES[k]
    rng = np.random.default_rng(5)
    adj = adtrans.adjoint(fn, activity)
    runs = [(2, 200, 900), (2, 200, 900), (2, 37, 150), (1, 200, 900), (2, 500, 2000), (2, 37, 150)]
    inputs = [(th, make(rng, n, m)) for th, n, m in runs]
    try:
        for th, args in inputs:           # one adjoint, its pools kept across the calls
            numba.set_num_threads(th)
            kept = _grad(adj, fn, args, activity, seed_out)
            _scratch_zero()
            fresh = _fresh(fn, args, activity, seed_out)
            _same(kept, fresh)
            assert any(np.any(s) for s in kept[0])
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    src = adtrans.source(fn, activity, *inputs[0][1])
    assert "scratch_rows(scratch_pool_float64" in src


@needs_two
def test_pooled_buffers_match_finite_differences():
    rng = np.random.default_rng(7)
    numba.set_num_threads(2)
    try:
        for _ in range(2):      # the second check runs on the pool the first one left
            check(P.gather, _gather_args(rng, 30, 120), activity=("dup", "const", "dup"))
            check(P.corner_gather, _corner_args(rng, 20, 60), activity=("dup", "const", "dup", "dup"))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@needs_two
def test_call_that_raises_drops_the_pool():
    rng = np.random.default_rng(9)
    activity = ("dup", "const", "dup")
    seed_out = CASES[0][3]
    numba.set_num_threads(2)
    try:
        adj = adtrans.adjoint(P.gather_checked, activity)
        good = _gather_args(rng, 300, 2000)
        bad = [a.copy() for a in good]
        bad[0][bad[1][0]] = 20.0            # the first iteration raises, the other thread has run
        expected = _fresh(P.gather_checked, good, activity, seed_out)
        _grad(adj, P.gather_checked, good, activity, seed_out)
        with pytest.raises(ValueError, match="x too large"):
            _grad(adj, P.gather_checked, bad, activity, seed_out)
        _same(_grad(adj, P.gather_checked, good, activity, seed_out), expected)
        _scratch_zero()
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


_gather_adjoint = adtrans.adjoint(P.gather, ("dup", "const", "dup")).jit


@numba.njit
def _gather_from_jit(x, d_x, idx, w, d_w):
    return _gather_adjoint(x, d_x, idx, w, d_w, 1.0)


@needs_two
def test_adjoint_called_from_njit_code_uses_fresh_buffers():
    rng = np.random.default_rng(4)
    activity = ("dup", "const", "dup")
    seed_out = CASES[0][3]
    numba.set_num_threads(2)
    try:
        args = _gather_args(rng, 200, 900)
        expected = _fresh(P.gather, args, activity, seed_out)
        for _ in range(2):
            x, idx, w = (a.copy() for a in args)
            d_x, d_w = seed_out(x), seed_out(w)
            _gather_from_jit(x, d_x, idx, w, d_w)
            np.testing.assert_array_equal(d_x, expected[0][0])
            np.testing.assert_array_equal(d_w, expected[0][1])
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@needs_two
@pytest.mark.parametrize("n", [200, 140_000], ids=["serial_sum", "parallel_sum"])
def test_per_thread_sum_serial_and_parallel_branches(n):
    """The sum of per-thread buffers after the loop runs serially up to SERIAL_SUM_MAX elements in all
    and as a parallel loop above: both branches give the gradient of an independent reference
    (np.add.at), bit for bit the same for the pooled and the fresh buffers."""
    from adtrans.rules.parallel import SERIAL_SUM_MAX
    assert (n > SERIAL_SUM_MAX) == (n == 140_000)
    rng = np.random.default_rng(11)
    activity = ("dup", "const", "dup")
    x, idx, w = rng.uniform(-1, 1, n), rng.integers(0, n, 3 * n), rng.uniform(0, 1, 3 * n)
    numba.set_num_threads(2)
    try:
        adj = adtrans.adjoint(P.gather, activity)
        zero = lambda a: np.zeros_like(a)                       # noqa: E731
        kept = _grad(adj, P.gather, [x, idx, w], activity, zero)
        _scratch_zero()
        _same(kept, _fresh(P.gather, [x, idx, w], activity, zero))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    d_x_ref = np.zeros(n)
    np.add.at(d_x_ref, idx, 2.0 * w * x[idx])
    np.testing.assert_allclose(kept[0][0], d_x_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(kept[0][1], x[idx] ** 2, rtol=1e-14)

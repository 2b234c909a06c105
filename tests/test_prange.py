"""The prange rule: finite differences, serial agreement, determinism with 1 and 2 threads."""
import numba
import numpy as np
import pytest

import adtrans
import kernels_prange as P
from fdcheck import adtrans_gradient, check

RNG = np.random.default_rng(3)


def cases():
    n = 40
    edges = RNG.integers(0, 12, (30, 2))
    return [
        (P.neighbour_product, [RNG.uniform(-1, 1, n)], None),
        (P.gather, [RNG.uniform(-1, 1, 10), RNG.integers(0, 10, 50), RNG.uniform(0, 1, 50)],
         ("dup", "const", "dup")),
        (P.pairwise_energy, [RNG.uniform(-1, 1, (12, 2)), RNG.uniform(-1, 1, (9, 2)), np.zeros(12)], None),
        (P.column_update, [RNG.uniform(-1, 1, (5, 7)), RNG.uniform(-1, 1, (5, 7)), 0.7, 1.3], None),
        (P.scaled, [RNG.uniform(-1, 1, n), 0.8, np.zeros(n)], None),
        (P.edge_energy, [RNG.uniform(-1, 1, 12), edges, RNG.uniform(0, 1, 30)], ("dup", "const", "dup")),
        (P.stencil_inplace, [RNG.uniform(-1, 1, n), np.zeros(n)], None),
        (P.conditional_inner_scalar, [RNG.uniform(0, 1, 40), 0.7, np.array([0, 3, 9, 9, 15, 22, 30, 40]),
                                      np.zeros(7)], ("dup", "active", "const", "dup")),
        (P.local_scratch, [RNG.uniform(-1, 1, 11), RNG.uniform(-1, 1, 4), np.zeros(9)], None),
        (P.two_active_sum, [RNG.uniform(-1, 1, 30), 0.7, 1.3], None),
        (P.nested_prange, [RNG.uniform(-1, 1, 6), np.zeros(5)], None),
    ]


@pytest.mark.parametrize("k", range(11))
def test_prange_matches_finite_differences(k):
    fn, args, activity = cases()[k]
    check(fn, args, activity=activity)


@pytest.mark.parametrize("k", range(11))
def test_prange_deterministic_with_1_and_2_threads(k):
    fn, args, activity = cases()[k]
    gen = np.random.default_rng(11)
    weights = {j: gen.standard_normal(a.shape) for j, a in enumerate(args)
               if isinstance(a, np.ndarray) and a.dtype.kind == "f" and (activity is None or activity[j] == "dup")}
    results = []
    for threads in (1, 2, 2, 1, 2):
        numba.set_num_threads(threads)
        g, _ = adtrans_gradient(fn, args, weights, 1.0, activity)
        results.append(g)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for r in results[1:]:
        for j in r:
            np.testing.assert_allclose(r[j], results[0][j], rtol=1e-12, atol=1e-14)


def test_no_buffers_where_index_is_unique():
    src = adtrans.source(P.scaled, ("dup", "active", "dup"), np.zeros(4), 1.0, np.zeros(4))
    assert "per-thread buffers" not in src and "get_thread_id" not in src
    assert "plain update" in src and "sum over iterations" in src
    src = adtrans.source(P.gather, ("dup", "const", "dup"), np.zeros(4), np.zeros(4, np.int64), np.zeros(4))
    assert "d_x_per_thread" in src and "d_w_per_thread" not in src


@pytest.mark.parametrize("fn,args,activity", [
    (P.branch_local_in_else, lambda: [RNG.uniform(-1, 1, 8), RNG.uniform(-1, 1, 8), RNG.uniform(-1, 1, 8),
                                      np.zeros(8)], None),
    (P.masked_reassigned, lambda: [np.array([1, 0, 1, 1, 0, 1, 1, 1]), RNG.uniform(0, 1, 8), np.zeros(8)],
     ("const", "dup", "dup")),
    (P.returns_helper_tuple, lambda: [RNG.uniform(0, 1, 2)], None),
], ids=["branch_local_in_else", "masked_reassigned", "returns_helper_tuple"])
def test_regressions_from_lulesh(fn, args, activity):
    check(fn, args(), activity=activity)

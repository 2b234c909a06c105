"""prange adjoints whose scatter index is one-to-one only at run time (LULESH's node-to-corner
lists): a serial test before the loop lets every thread add into the shadow itself when no two
iterations update one element, and falls back to per-thread buffers otherwise."""
import numba
import numpy as np
import pytest

import adtrans
import kernels_prange as P
from fdcheck import adtrans_gradient, check

TWO = numba.config.NUMBA_NUM_THREADS >= 2
ACT = ("const", "const", "const", "dup", "dup", "dup")


def _lists(rng, ne, nn, kind):
    """(start, corner_elem, corner_local) of nn nodes over the ne x 4 corners: ``one-to-one``
    (every corner in one node's list), ``repeated`` (a corner in two lists), ``negative`` (an
    element index counting from the end), ``same-node`` (a corner twice in one node's list)."""
    corners = rng.permutation(ne * 4)
    if kind == "repeated":
        corners[-1] = corners[0]
    cuts = np.sort(rng.choice(np.arange(1, ne * 4), nn - 1, replace=False))
    start = np.concatenate([[0], cuts, [ne * 4]]).astype(np.int64)
    ce, cl = (corners // 4).astype(np.int64), (corners % 4).astype(np.int64)
    if kind == "negative":
        ce[3] -= ne
    if kind == "same-node":
        g = int(np.argmax(np.diff(start)))
        ce[start[g] + 1], cl[start[g] + 1] = ce[start[g]], cl[start[g]]
    return [start, ce, cl]


def _args(kind, seed=0, ne=7, nn=9):
    rng = np.random.default_rng(seed)
    return _lists(rng, ne, nn, kind) + [rng.uniform(-1, 1, (ne, 4)), rng.uniform(0, 1, nn), np.zeros(nn)]


def test_source_tests_the_corner_lists_before_the_loop():
    src = adtrans.source(P.node_corner_sum, ACT, *_args("one-to-one"))
    assert "one_to_one = True" in src and "np.full(d_f.shape, -1, np.int64)" in src
    assert "d_f if thread == 0 or one_to_one else" in src and "if not one_to_one:" in src
    assert "owner" not in src.split("def ")[1].split("for g in numba.prange")[1]   # not in the loop
    # the test is written once per shadow and only where the index is integer code
    src = adtrans.source(P.node_corner_sum_float_test, ACT, *_args("one-to-one"))
    assert "one_to_one" not in src and "d_f_per_thread" in src


@pytest.mark.parametrize("kind", ["one-to-one", "repeated", "negative", "same-node"])
@pytest.mark.parametrize("fn", [P.node_corner_sum, P.node_corner_sum_float_test],
                         ids=["int-test", "float-test"])
def test_gradient_with_1_and_2_threads(fn, kind):
    args = _args(kind)
    check(fn, args, activity=ACT)
    gen = np.random.default_rng(5)
    weights = {j: gen.standard_normal(a.shape) for j, a in enumerate(args) if ACT[j] == "dup"}
    results = []
    for threads in (1, 2, 1, 2) if TWO else (1,):
        numba.set_num_threads(threads)
        try:
            g, _ = adtrans_gradient(fn, args, weights, 1.0, ACT)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        results.append(g)
    for r in results[1:]:
        for j in r:
            np.testing.assert_allclose(r[j], results[0][j], rtol=1e-13, atol=1e-15)


def _edges(kind, seed=3, ne=6, extra=0):
    """(nodes, x, y, out): ne elements of two nodes each; ``disjoint`` (each node in one
    element: one-to-one) or ``chain`` (neighbours share a node); ``extra`` more entries in y."""
    rng = np.random.default_rng(seed)
    if kind == "disjoint":
        nodes = rng.permutation(2 * ne).reshape(ne, 2).astype(np.int64)
    else:
        nodes = np.stack([np.arange(ne), np.arange(1, ne + 1)], axis=1).astype(np.int64)
    nn = 2 * ne
    return [nodes, rng.uniform(-1, 1, nn), rng.uniform(-1, 1, nn + extra), np.zeros(ne)]


EDGE_ACT = ("const", "dup", "dup", "dup")


def test_one_test_serves_shadows_whose_slices_differ_only_in_names():
    # the two inlined gathers load nodes[k, 0], nodes[k, 1] into differently named temporaries:
    # one run-time test, the second shadow's flag also asks for the first's extents
    src = adtrans.source(P.edge_energy_two_fields, EDGE_ACT, *_edges("disjoint"))
    assert src.count("np.full(") == 1, src
    assert "one_to_one_1 = one_to_one and d_y.shape == d_x.shape" in src
    assert "d_y if thread == 0 or one_to_one_1 else" in src


@pytest.mark.parametrize("kind,extra", [("disjoint", 0), ("chain", 0), ("disjoint", 3)],
                         ids=["one-to-one", "shared-nodes", "other-extents"])
def test_shared_test_gradient_with_1_and_2_threads(kind, extra):
    args = _edges(kind, extra=extra)
    check(P.edge_energy_two_fields, args, activity=EDGE_ACT)
    gen = np.random.default_rng(7)
    weights = {j: gen.standard_normal(a.shape) for j, a in enumerate(args) if EDGE_ACT[j] == "dup"}
    results = []
    for threads in (1, 2, 2) if TWO else (1,):
        numba.set_num_threads(threads)
        try:
            g, _ = adtrans_gradient(P.edge_energy_two_fields, args, weights, 1.0, EDGE_ACT)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        results.append(g)
    for r in results[1:]:
        for j in r:
            np.testing.assert_allclose(r[j], results[0][j], rtol=1e-13, atol=1e-15)

"""Adjoints of single LULESH kernels against central differences, fast enough for `make test`.

The whole-step and K-cycle gradients are in test_lulesh_grad.py (marked slow: they compile
the adjoints of ~25 kernels).  These two exercise the loop strategies LULESH needs: the EOS
repeats its evaluation ``rep`` times per element and keeps the last (last-iteration loop
inside a prange), and the Courant limit is a running minimum (carried-scalar loop).  State:
a jittered -s 3 mesh without cut-offs after 4 cycles (every element away from the kinks).
"""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import adtrans  # noqa: E402
from examples.lulesh import grad as G  # noqa: E402
from examples.lulesh import kernels as K  # noqa: E402
from examples.lulesh.domain import Domain  # noqa: E402
from examples.lulesh.lulesh import run_cycles  # noqa: E402
from fdcheck import adtrans_gradient, objective, tape_pushes  # noqa: E402


def directional_check(fn, args, activity, ndirections=3, t=1e-7, rtol=1e-6):
    """<adjoint, direction> against central differences along random directions that move each
    input by a multiple of its own value (LULESH's fields span ten orders of magnitude)."""
    rng = np.random.default_rng(0)
    dup = [k for k, a in enumerate(activity) if a == "dup"]
    act = [k for k, a in enumerate(activity) if a == "active"]
    weights = {k: rng.standard_normal(args[k].shape) for k in dup}
    grads, _ = adtrans_gradient(fn, args, weights, 1.25, activity)
    for _ in range(ndirections):
        dirs = {k: args[k] * rng.standard_normal(np.shape(args[k])) for k in dup + act}

        def moved(sign):
            out = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            for k, v in dirs.items():
                out[k] = out[k] + sign * t * v
            return out
        fd = (objective(fn, moved(1), weights, 1.25) - objective(fn, moved(-1), weights, 1.25)) / (2 * t)
        ad = sum(float(np.sum(grads[k] * v)) for k, v in dirs.items())
        assert abs(ad - fd) <= rtol * max(abs(fd), 1e-300) + 1e-9, (ad, fd)


@pytest.fixture(scope="module")
def developed():
    d = G.without_cutoffs(G.jitter_mesh(Domain(3), 0.05, seed=1))
    run_cycles(d, 4)
    return d


@pytest.mark.slow  # ~65 s of compiles; make test-all (the last-iteration strategy is also in test_core_rules)
def test_eos_adjoint_with_repeated_evaluations(developed):
    d = developed
    assert d.regRep.max() > 1          # some regions evaluate their EOS several times
    args = [d.regNumList, d.regRep, d.e.copy(), d.delv.copy(), d.p.copy(), d.q.copy(), d.qq.copy(),
            d.ql.copy(), d.vnewc.copy(), d.ss.copy(), d.eosvmin, d.eosvmax, d.pmin, d.p_cut, d.e_cut,
            d.q_cut, d.emin, d.refdens, d.numElem]
    activity = ["const", "const"] + ["dup"] * 8 + ["const"] * 9
    src = adtrans.source(K.eval_eos_for_elems, tuple(activity), *args)
    assert "last-iteration loop" in src and "tape_push" not in src and tape_pushes(src) == 0
    directional_check(K.eval_eos_for_elems, args, activity)


def test_courant_limit_adjoint_is_a_running_minimum(developed):
    d = developed
    args = [d.regElemList, 0, d.numElem, d.ss.copy(), d.vdov.copy(), d.arealg.copy(), d.qqc, 1.0e20]
    activity = ["const", "const", "const", "dup", "dup", "dup", "const", "active"]
    src = adtrans.source(K.calc_courant_constraint_for_elems, tuple(activity), *args)
    assert "carried-scalar loop" in src
    directional_check(K.calc_courant_constraint_for_elems, args, activity)

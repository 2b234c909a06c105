"""What a new user's thirteenth trial found (tests/kernels_newuser13.py): 50 kernels and drivers from
fields not tried before, plus 5 CUDA kernels, each gradient against central finite differences in
float64 on the pure-Python function (drivers: the driver itself, its kernels compiled; CUDA: the
same math in NumPy, launched under ``NUMBA_ENABLE_CUDASIM=1`` in one subprocess).

MEASURED BEFORE ANY FIX (adtrans at c7a95d1), 55 kernels: 45 right, 2 WRONG, 2 crash, 6 refused.
(The first sweep had reprojection_error right; its first pytest run failed: the gradient changed
from run to run, 236 of 300 runs differing, so it counts as WRONG.)

  right (42 njit/driver): lbm_diffusion, lorenz96_4dvar, hawkes_nll, lindley_mean_wait, erlang_c_cost,
    heston_call, holt_sse, truss_compliance, darcy_head, transit_chi2, random_intercept_nll, gmm_nll,
    cahn_hilliard, tv_energy, ray_path_length, slab_offset, lj_periodic, notch_power, shallow_water,
    ebm_mean_temp, reactor_energy, bv_fit, toggle_switch, crowd_driver,
    hopfield_energy, soft_kmeans_geo, variogram_fit, river_profile, shoaling_fit, lens_chi2, arm_effort,
    dispatch_cost, rt_design, karplus_strong, wlc_energy, metapop_seir, ordinal_nll, softmax_xent,
    kde_loo_nll, l96_driver, lbm_driver, ebm_seasonal_driver
  right (3 CUDA): l96_tend_cuda, tv_density_cuda, lj_site_cuda

  kernel               result   what
  bezier_fit           WRONG    adtrans 2.65e+45 vs FD -2.32 (arg P): de Casteljau helper
                                ``Q = P.copy()`` then ``Q[:n - r] = (1 - t) * Q[:n - r] + t * Q[1:n - r + 1]``
  reprojection_error   WRONG    run to run (6.946 vs FD 6.888 in one run): ``R = rodrigues(w)`` read by
                                every prange iteration, its shadow updated without per-thread buffers
  american_put         crash    ValueError from the adjoint at run time: ``V = np.maximum(... V[:i + 1] ...
                                V[1:i + 2] ..., K - S)`` shrinks V each backward step ("V is rebound
                                inside a loop ... to a value of another length"); not UnsupportedError
  ecm_voltage_loss     crash    adtrans.errors.TypingError "Unknown attribute 'shape' of type
                                UniTuple(float64 x 4)": ``for p, c in enumerate(ocv)`` over a tuple default
  mean_field_ising     refused  ``for di, dj in ((1, 0), (0, 1)):`` "loop target `(di, dj)`" (prange body)
  potts_relaxed        refused  ``for shift in (-1, 1):`` "loop over `(-1, 1)`"
  plume_driver         refused  ``for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):`` in a prange kernel
  muffler_tl           refused  complex constant ``0j`` (real arithmetic only): acceptable, clear line
  project_cuda         refused  ``cuda.local.array`` allocated inside a grid-stride loop: clear line
  lbm_collide_cuda     refused  ``for k, wk in enumerate((2/3, 1/6, 1/6)):`` "iterating over (...)"

FIXED THIS ROUND: both wrong gradients (parallel.py: a helper result read under an alias in a
prange body gets per-thread buffers; varlen.py: a temporary whose length follows the loop index,
n-D too, is rebound per iteration in the reverse sweep), the four tuple-literal loops
(forms.py: an index loop selecting the element), the loop over a tuple parameter (forms.py: up to
``len``), loops over literals of arrays (written out per element: an intermediate version of the
fix, commit 7802b44, selected ``a if k == 0 else b``: a WRONG gradient when the body writes
through the name, found by write_through_literal and fixed in dd42171).  After, of the 55
measured: 52 right, 1 crash (american_put; its ``V[:i + 1] = ...`` form is right), 2 refused
with a clear line (muffler_tl complex, project_cuda local array).  Then american_put's run-time
ValueError became an UnsupportedError naming its line and the prefix form (adjoint.rebinding_refusal):
52 right, 0 wrong, 0 crash, 3 refused with a line.
"""
import inspect
import os
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
for _p in (str(REPO), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import adtrans  # noqa: E402
import kernels_newuser13 as K  # noqa: E402
from cudacheck import check_cuda_case, run_under_simulator  # noqa: E402
from fdcheck import case_params, check  # noqa: E402

SIM = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" or os.environ.get("ADTRANS_CUDA_DIRECT") == "1"
not_sim = pytest.mark.skipif(SIM, reason="CPU kernels: run outside the simulator")
in_sim = pytest.mark.skipif(not SIM, reason="launches CUDA kernels: run by test_cuda_kernels_under_the_simulator")

def cases():
    """name -> (fn, args, activity)."""
    R = np.random.default_rng(13)
    n = 8
    obs96 = R.standard_normal((4, n)) + 2.0
    nodes = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.5, 0.9], [1.5, 0.9]])
    bars = np.array([[0, 1], [1, 2], [0, 3], [1, 3], [1, 4], [2, 4], [3, 4]])
    free = np.array([2, 3, 6, 7, 8, 9])
    load = np.zeros(10)
    load[7] = -1.0
    load[8] = 0.3
    load[9] = -0.5
    tt = np.linspace(-0.2, 0.2, 25)
    groups = np.repeat(np.arange(4), 5)
    Xm = np.column_stack((np.ones(20), R.standard_normal(20)))
    W = R.standard_normal((6, 6))
    W = 0.5 * (W + W.T)
    np.fill_diagonal(W, 0.0)
    pts = np.radians(np.column_stack((R.uniform(40, 50, 12), R.uniform(0, 10, 12))))
    ctr = np.radians(np.array([[42.0, 2.0], [47.0, 8.0], [45.0, 5.0]]))
    Mm = np.array([[0.8, 0.15, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
    y0 = np.array([[990.0, 500.0, 800.0], [5.0, 0.0, 1.0], [5.0, 1.0, 0.0], [0.0, 0.0, 0.0]]) + 1.0
    c0 = np.zeros((7, 8))
    c0[3, 3] = 1.0
    c0 += 0.05 * R.uniform(0, 1, (7, 8))
    Rw = np.array([0.1, -0.2, 0.15])
    Xb = np.column_stack((R.uniform(-1, 1, 10), R.uniform(-1, 1, 10), R.uniform(4, 6, 10)))
    lat = np.linspace(-1.4, 1.4, 9)
    return {
        "lbm_diffusion": (K.lbm_diffusion, [R.uniform(0.5, 1.5, 10), 1.2], None),
        "lorenz96_4dvar": (K.lorenz96_4dvar, [R.standard_normal(n) + 2.0, 8.0, obs96], ["dup", "active", "const"]),
        "hawkes_nll": (K.hawkes_nll, [0.5, 0.4, 2.0, np.sort(R.uniform(0, 10, 15)), 10.0],
                       ["active", "active", "active", "dup", "active"]),
        "lindley_mean_wait": (K.lindley_mean_wait, [R.exponential(0.8, 20), R.exponential(1.0, 20), 1.1], None),
        "erlang_c_cost": (K.erlang_c_cost, [3.0, 1.0], None),
        "heston_call": (K.heston_call, [100.0, 0.04, 1.5, 0.05, 0.3, -0.6, R.standard_normal((40, 10)),
                                        R.standard_normal((40, 10))],
                        ["active"] * 6 + ["const", "const"]),
        "american_put": (K.american_put, [95.0, 100.0, 0.25, 0.03, 1.0], None),
        "holt_sse": (K.holt_sse, [0.4, 0.2, np.cumsum(R.standard_normal(15)) + 0.3 * np.arange(15)], None),
        "bezier_fit": (K.bezier_fit, [R.standard_normal((4, 2)), np.linspace(0, 1, 7), R.standard_normal((7, 2))],
                       ["dup", "dup", "dup"]),
        "truss_compliance": (K.truss_compliance, [R.uniform(0.5, 1.5, 7), nodes + 0.02 * R.standard_normal((5, 2)),
                                                  bars, free, load], None),
        "darcy_head": (K.darcy_head, [0.5 * R.standard_normal((5, 6)), 10.0, 2.0], None),
        "transit_chi2": (K.transit_chi2, [0.01, 3.0, 0.1, 10.0, 1.55, 0.4, 0.2, tt, 1 - 0.01 * R.uniform(0, 1, 25)],
                         ["active"] * 7 + ["const", "dup"]),
        "random_intercept_nll": (K.random_intercept_nll, [np.array([0.5, -0.3]), -0.5, -0.2, Xm,
                                                          R.standard_normal(20), groups, 4], None),
        "gmm_nll": (K.gmm_nll, [np.array([0.1, -0.3, 0.2]), np.array([-1.0, 0.0, 1.5]), np.array([-0.3, 0.0, -0.5]),
                                R.standard_normal(15)], None),
        "mean_field_ising": (K.mean_field_ising, [0.5 * R.standard_normal((5, 5)), 1.0, 0.1], None),
        "potts_relaxed": (K.potts_relaxed, [R.standard_normal((6, 3)), 1.3], None),
        "cahn_hilliard": (K.cahn_hilliard, [0.3 * R.standard_normal(12), 0.8], None),
        "tv_energy": (K.tv_energy, [R.uniform(0, 1, (5, 6)), R.uniform(0, 1, (5, 6)), 0.3], None),
        "ray_path_length": (K.ray_path_length, [np.zeros((6, 3)) + np.array([0.0, 0.0, -5.0]),
                                                np.column_stack((0.1 * R.standard_normal((6, 2)), np.ones(6))),
                                                np.array([[0.0, 0.0, 0.0], [0.3, 0.2, 2.0]]), np.array([1.0, 0.8])],
                            None),
        "slab_offset": (K.slab_offset, [0.5, np.array([1.0, 1.5, 1.3, 1.8, 1.2]), np.array([1.0, 0.5, 2.0, 0.7])],
                        None),
        "lj_periodic": (K.lj_periodic, [np.array([[0.0, 0.0, 0.0], [1.1, 0.1, 0.0], [0.1, 1.2, 0.0], [1.0, 1.0, 1.1],
                                                  [0.0, 0.1, 1.2], [1.2, 0.0, 1.0]]) + 0.3, 2.3], None),
        "notch_power": (K.notch_power, [R.standard_normal((3, 30)), np.array([0.9, -1.5, 0.9]),
                                        np.array([1.0, -1.4, 0.8])], None),
        "shallow_water": (K.shallow_water, [np.exp(-0.5 * (np.arange(12) - 5.0) ** 2), R.uniform(0.8, 1.2, 12)], None),
        "ebm_mean_temp": (K.ebm_mean_temp, [R.uniform(-20, 25, 9), 0.6], None),
        "reactor_energy": (K.reactor_energy, [np.array([0.0, 0.001, 0.002, 0.001, -0.001]), 0.0065], None),
        "bv_fit": (K.bv_fit, [np.log(1e-3), 0.45, 5.0, np.linspace(-0.1, 0.1, 9), R.uniform(-1e-2, 1e-2, 9)],
                   ["active", "active", "active", "dup", "const"]),
        "ecm_voltage_loss": (K.ecm_voltage_loss, [0.05, 0.02, 500.0, R.uniform(0.5, 2.0, 20),
                                                  3.9 + 0.01 * R.standard_normal(20)], None),
        "toggle_switch": (K.toggle_switch, [3.0, 2.5, 2.2, 1.0, 0.5], None),
        "crowd_driver": (K.crowd_driver, [R.uniform(0, 2, (5, 2)), np.zeros((5, 2)), R.uniform(3, 5, (5, 2))],
                         ["dup", "dup", "const"]),
        "reprojection_error": (K.reprojection_error, [Rw, np.array([0.1, 0.0, 0.2]), 2.0, Xb,
                                                      R.standard_normal((10, 2)) * 0.2], None),
        "hopfield_energy": (K.hopfield_energy, [0.4 * R.standard_normal(6), W, R.standard_normal(6)], None),
        "soft_kmeans_geo": (K.soft_kmeans_geo, [ctr, pts], ["dup", "const"]),
        "variogram_fit": (K.variogram_fit, [0.0, 0.3, 0.1, R.uniform(0, 3, (10, 2)), R.standard_normal(10)],
                          ["active", "active", "active", "const", "dup"]),
        "river_profile": (K.river_profile, [np.linspace(0, 50, 10) + R.uniform(0, 1, 10), 0.01, 1e-5], None),
        "shoaling_fit": (K.shoaling_fit, [R.uniform(1, 20, 6), R.uniform(4, 12, 6), R.uniform(3, 10, 6)],
                         ["dup", "dup", "const"]),
        "lens_chi2": (K.lens_chi2, [1.0, 0.05, -0.03, 0.1, 0.05, R.uniform(-1.5, 1.5, 4), R.uniform(-1.5, 1.5, 4)],
                      None),
        "arm_effort": (K.arm_effort, [R.uniform(-1, 1, (6, 2)), R.standard_normal((6, 2)), R.standard_normal((6, 2)),
                                      1.2], None),
        "dispatch_cost": (K.dispatch_cost, [np.array([50.0, 80.0, 30.0]), np.array([10.0, 20.0, 5.0]),
                                            np.array([2.0, 1.5, 3.0]), np.array([0.01, 0.02, 0.015]), 170.0,
                                            np.array([60.0, 70.0, 40.0])], None),
        "muffler_tl": (K.muffler_tl, [np.array([0.1, 0.3, 0.1]), np.array([0.002, 0.02, 0.002]),
                                      np.array([150.0, 400.0, 900.0])], None),
        "rt_design": (K.rt_design, [R.uniform(0.05, 0.5, (3, 4)), np.array([60.0, 60.0, 40.0, 40.0]), 120.0,
                                    np.array([0.6, 0.5, 0.4])], None),
        "karplus_strong": (K.karplus_strong, [R.uniform(-1, 1, 7), 0.98], None),
        "wlc_energy": (K.wlc_energy, [np.cumsum(np.ones((6, 3)) * 0.6 + 0.1 * R.standard_normal((6, 3)), axis=0),
                                      2.0, 10.0], None),
        "metapop_seir": (K.metapop_seir, [0.5, 0.3, 0.2, Mm, y0, R.uniform(2, 30, (10, 3))],
                         ["active", "active", "active", "dup", "dup", "const"]),
        "ordinal_nll": (K.ordinal_nll, [R.standard_normal(3), np.array([-0.5, 0.0, -0.3]), R.standard_normal((12, 3)),
                                        R.integers(0, 4, 12)], None),
        "softmax_xent": (K.softmax_xent, [R.standard_normal((3, 4)), R.standard_normal((10, 4)), R.integers(0, 3, 10)],
                         None),
        "plume_driver": (K.plume_driver, [c0, 0.6, -0.4, 0.2], None),
        "kde_loo_nll": (K.kde_loo_nll, [np.log(0.5), R.standard_normal(12)], None),
        "l96_driver": (K.l96_driver, [R.standard_normal(n) + 2.0, np.full(n, 8.0), obs96[:3]], ["dup", "dup", "const"]),
        "lbm_driver": (K.lbm_driver, [R.uniform(0.5, 1.5, 10), 1.2], None),
        "ebm_seasonal_driver": (K.ebm_seasonal_driver, [R.uniform(-20, 25, 9), 0.6, 30.0], None),
    }


QUICK = ["hawkes_nll", "lindley_mean_wait", "erlang_c_cost", "holt_sse", "reactor_energy", "toggle_switch",
         "shoaling_fit", "lens_chi2", "arm_effort", "dispatch_cost", "karplus_strong", "river_profile"]

# name -> reason: what still fails (measured before any fix: see the module docstring)
WRONG = {}
BROKEN = {}
REFUSED_OK = {"muffler_tl": "complex constant", "american_put": "V rebound to a shorter slice"}


@not_sim
@pytest.mark.parametrize("name", case_params(cases(), {**BROKEN, **WRONG}, QUICK, REFUSED_OK))
def test_gradient_against_finite_differences(name):
    fn, args, act = cases()[name]
    assert check(fn, args, primal=getattr(fn, "py_func", fn), activity=act) < 2e-5


@not_sim
def test_complex_arithmetic_is_refused_at_its_line():
    fn, args, act = cases()["muffler_tl"]
    with pytest.raises(adtrans.UnsupportedError, match="complex constant") as info:
        check(fn, args, primal=fn.py_func, activity=act)
    assert info.value.filename.endswith("kernels_newuser13.py")


@not_sim
def test_binomial_tree_rebinding_a_shorter_array_is_refused_at_its_line():
    """american_put rebinds ``V`` to a shorter array each backward step (``V = np.maximum(...
    V[:i + 1] ...)``): adtrans writes a rebinding into the array the name holds, so its run-time
    check fails; that is an UnsupportedError naming the user's line and the prefix form, not a
    bare ValueError (was: the crash of the first measurement)."""
    fn, args, act = cases()["american_put"]
    with pytest.raises(adtrans.UnsupportedError, match=r"rebound inside a loop.*`V\[:m\] = \.\.\.`") as info:
        adtrans.grad(fn, argnums=(0, 2))(*args)
    assert info.value.filename.endswith("kernels_newuser13.py") and info.value.lineno == 133
    assert "bound_" not in info.value.construct         # no name of adtrans' own in what it reports
    with pytest.raises(ValueError, match="could not broadcast"):    # a user's shape error stays NumPy's
        adtrans.grad(K.shape_error_of_the_users)(np.ones(4), np.ones(3))


# ------------------------------------------------------------------- what this round fixed
@not_sim
def test_loops_over_tuple_and_list_literals():
    """Were refused ("loop over `(-1, 1)`", "loop target `(di, dj)`"): now an index loop whose
    element is selected in the body, the literal's non-constant elements evaluated once before
    the loop (as Python does: the body's new `a` is not seen), with enumerate, zip, break,
    a list literal and a tuple-valued target (``for off in ((1, 0), ...): off[0]``)."""
    R = np.random.default_rng(3)
    x = R.standard_normal(9) * 0.8
    x[4] = 2.0                                  # one inner loop breaks
    assert check(K.literal_loop_forms, [x, 0.7, -0.4], primal=K.literal_loop_forms.py_func) < 2e-5
    u = R.standard_normal((5, 6))
    assert check(K.literal_offsets_whole, [u, 0.3], primal=K.literal_offsets_whole.py_func) < 2e-5
    src = adtrans.source(K.literal_offsets_whole, ("dup", "active"), u, 0.3)
    assert "range(4)" in src


@not_sim
def test_loops_over_literals_of_arrays_are_written_out_per_element():
    """``for arr in (a, b):`` selects no element by index (``a if k == 0 else b`` of two arrays
    would be a temporary: the write through ``arr`` lost, or lengths mismatched): the body once per
    element.  ``break``/``continue`` there, and a literal of non-numbers zipped with an array, are
    refused at their line."""
    R = np.random.default_rng(6)
    a, b = R.standard_normal(4), R.standard_normal(5)
    assert check(K.arrays_in_literal, [a, b], primal=K.arrays_in_literal.py_func) < 2e-5
    assert check(K.write_through_literal, [a, b], primal=K.write_through_literal.py_func) < 2e-5
    with pytest.raises(adtrans.UnsupportedError, match="`break` in a loop over `\\(a, b\\)`") as info:
        adtrans.source(K.break_in_array_literal, ("dup", "dup"), a, b)
    lines, first = inspect.getsourcelines(K.break_in_array_literal.py_func)
    assert info.value.lineno == first + next(k for k, ln in enumerate(lines) if "# <-" in ln)


@pytest.mark.slow
@not_sim
@pytest.mark.parametrize("name", ["potts_relaxed", "mean_field_ising", "plume_driver"])
def test_tuple_literal_loops_of_the_corpus(name):
    fn, args, act = cases()[name]
    assert check(fn, args, primal=getattr(fn, "py_func", fn), activity=act) < 2e-5


@not_sim
def test_array_returned_by_a_helper_and_read_by_every_prange_iteration():
    """Was: the shadow of ``R = soft_weights(w)`` (the inlined helper's result) updated by every
    iteration without per-thread buffers ("the primal loop only stores into soft_weights_result":
    the body reads it as ``R``): lost updates, gradients changing from run to run (the corpus's
    bundle adjustment, ``R = rodrigues(w)``, differed in 236 of 300 runs)."""
    R = np.random.default_rng(4)
    w, X = R.standard_normal(4), R.standard_normal((20000, 4))
    src = adtrans.source(K.helper_result_in_prange, ("dup", "dup"), w, X)
    assert "only stores into soft_weights_result" not in src
    assert "d_soft_weights_result: per-thread buffers" in src
    p = np.exp(w - w.max())
    p /= p.sum()
    dR = 2 * X.T @ (X @ p)
    want = p * dR - p * (p @ dR)
    for _ in range(5):
        dw, dX = np.zeros(4), np.zeros_like(X)
        adtrans.autodiff(K.helper_result_in_prange, adtrans.Duplicated(w, dw), adtrans.Duplicated(X, dX), seed=1.0)
        np.testing.assert_allclose(dw, want, rtol=1e-10, atol=1e-9 * np.abs(want).max())
    assert check(K.alias_in_prange, [w, X[:50]], primal=K.alias_in_prange.py_func) < 2e-5


@not_sim
def test_two_dimensional_temporary_whose_length_follows_the_loop_index():
    """Was a WRONG gradient (bezier_fit: 2.65e45 against -2.32): in ``for r in range(1, n):``,
    ``Q[:n - r] = (1 - t) * Q[:n - r] + t * Q[1:n - r + 1]`` on a 2-D ``Q`` makes a temporary
    ``n - r`` rows long; the reverse sweep popped every iteration's copy at the last one's size.
    Now the loop index counts as varying and n-D temporaries record one length per axis."""
    R = np.random.default_rng(5)
    assert check(K.casteljau_2d, [R.standard_normal((5, 3)), 0.35], primal=K.casteljau_2d.py_func) < 2e-5
    fn, args, act = cases()["bezier_fit"]
    assert check(fn, args, primal=fn.py_func, activity=act) < 2e-5


@not_sim
def test_loop_over_a_tuple_parameter():
    """Was a crash (``Unknown attribute 'shape' of type UniTuple(float64 x 4)``: the loop over a
    parameter was lowered as one over an array): ``for c in coeffs``, ``enumerate(ocv)`` of a
    tuple parameter (a default argument, or passed) index it up to ``len``."""
    x = np.array([0.7, -1.2, 0.4])
    assert check(K.horner_tuple, [x], primal=K.horner_tuple.py_func) < 2e-5
    assert check(K.horner_tuple, [x, (0.5, 2.0)], primal=K.horner_tuple.py_func) < 2e-5
    fn, args, act = cases()["ecm_voltage_loss"]
    assert check(fn, args, primal=fn.py_func, activity=act) < 2e-5


@pytest.mark.slow
@not_sim
def test_binomial_tree_with_its_shape_kept():
    """american_put (still a crash: ``V = np.maximum(... V[:i + 1] ...)`` rebinds V to a shorter
    array each step, refused at run time by a ValueError naming the line) written as the message
    suggests, ``V[:i + 1] = ...``: right."""
    fn = K.american_put_fixed_shape
    assert check(fn, [95.0, 100.0, 0.25, 0.03, 1.0], primal=fn.py_func) < 2e-5


# ------------------------------------------------------------------------- CUDA
CUDA_BROKEN = {
    "project_cuda": "refused: cuda.local.array allocated inside a grid-stride loop",
}


@in_sim
@pytest.mark.parametrize("name", case_params(K.cuda_cases(), CUDA_BROKEN))
def test_cuda_gradient_against_finite_differences_of_numpy(name):
    check_cuda_case(name, K.cuda_cases()[name])


@not_sim
def test_cuda_kernels_under_the_simulator():
    """The CUDA tests of this file, in one subprocess with the simulator on."""
    run_under_simulator(__file__, len(K.cuda_cases()), CUDA_BROKEN)

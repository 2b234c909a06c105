"""What a new user's twelfth trial found: kernels from fields not tried before (population
ecology, Morse clusters, AC and DC power flow, robot arms and quaternions, GARCH, gravity surveys,
structure factors, Biot-Savart, FitzHugh-Nagumo cables, Allen-Cahn, item response theory,
Bradley-Terry, photovoltaic diodes, Peng-Robinson, Weibull reliability, beamforming, Bateman
chains, shallow ice, pseudo-Voigt peaks, bilateral filters, GNSS and ECEF geodesy, cell
transmission traffic, layered travel times, Fresnel optics, Black-Scholes, molecular dynamics,
column climate, image sources, ballistics, RGB images) and plain-Python drivers calling them.
Each gradient against central finite differences in float64 on the pure-Python function
(drivers: the driver itself, its kernels compiled).

Found: a parallel adjoint that Numba failed to compile (``AssertionError: key already in
dictionary: 'mismatch_2'``, Biot-Savart), fixed in ``transform/parnames.py``; ``...`` in indices
refused, now written out (``normalise/ellipsis.py``)."""
import ast

import numpy as np
import pytest
from numba import njit, prange

import adtrans
import kernels_newuser12 as K
from adtrans.adjoint import raised_by_numba_compiler
from adtrans.transform.parnames import avoid_legalized_collisions
from fdcheck import adtrans_gradient, check, objective


def _kernels():
    R = np.random.default_rng(12)
    n = 5
    G = R.uniform(-1, 1, (n, n))
    Bm = R.uniform(-5, 5, (n, n))
    return [
        (K.lotka_volterra_fit, [np.array([1.0, 0.4, 0.3, 0.8]), np.array([2.0, 1.0]), R.uniform(0.5, 3, (6, 2))], None),
        (K.morse_energy, [R.uniform(0, 3, (6, 3)), 1.2, 1.5, 1.1], None),
        (K.power_mismatch, [R.uniform(0.95, 1.05, n), R.uniform(-0.1, 0.1, n), G + G.T, Bm + Bm.T,
                            R.standard_normal(n), R.standard_normal(n)], None),
        (K.dh_reach, [R.uniform(-1, 1, 4), R.uniform(0, 0.3, 4), R.uniform(0.2, 0.5, 4),
                      np.array([0.0, np.pi / 2, 0.0, -np.pi / 2]), np.array([0.4, 0.3, 0.2])], None),
        (K.garch_nll, [0.05, 0.1, 0.85, R.standard_normal(30)], None),
        (K.gravity_misfit, [np.array([-50.0, 40.0]), np.array([30.0, 45.0]), np.array([500.0, -300.0]),
                            np.array([10.0, 15.0]), np.linspace(-100, 100, 9), 0.01 * R.standard_normal(9)], None),
        (K.structure_factor_loss, [R.uniform(0, 1, (4, 3)), np.array([8.0, 6.0, 6.0, 1.0]),
                                   R.integers(-3, 4, (10, 3)).astype(np.float64), R.uniform(1, 100, 10)],
         ["dup", "dup", "const", "dup"]),
        (K.fhn_cable, [R.uniform(-1, 1, 10), R.uniform(-0.5, 0.5, 10), 0.7, 0.08, 0.5], None),
        (K.allen_cahn, [R.uniform(-1, 1, (6, 7)), 0.5], None),
        (K.irt_2pl, [R.standard_normal(8), R.uniform(0.5, 2, 5), R.standard_normal(5),
                     (R.uniform(0, 1, (8, 5)) > 0.5).astype(np.float64)], ["dup", "dup", "dup", "const"]),
        (K.bradley_terry, [R.standard_normal(5), R.integers(0, 5, 12), R.integers(0, 5, 12)], None),
        (K.weibull_nll, [0.3, 1.0, R.uniform(0.5, 5, 10), (R.uniform(0, 1, 10) > 0.3).astype(np.float64)],
         ["active", "active", "dup", "const"]),
        (K.beam_power, [np.linspace(0, 0.5, 6), R.uniform(0.5, 1.5, 6), np.linspace(-1, 1, 7)], None),
        (K.bateman_chain, [np.array([0.3, 0.1, 0.05]), np.array([1.0, 0.2, 0.0]), 0.1, 20], None),
        (K.pseudo_voigt_fit, [np.array([1.0, -1.0, 0.5, 0.3, 0.7, 1.2, 0.8, 0.6]), np.linspace(-3, 3, 20),
                              R.standard_normal(20)], None),
        (K.bilateral_loss, [R.uniform(0, 1, (5, 6)), R.uniform(0, 1, (5, 6)), 1.2, 0.3], None),
        (K.lv_driver, [np.array([1.0, 0.4, 0.3, 0.8]), np.array([2.0, 1.0])], None),
        (K.attitude_error, [0.3 * R.standard_normal((6, 3)), np.array([1.0, 0.1, -0.2, 0.05]),
                            np.array([0.9, 0.3, 0.2, 0.1]) / np.linalg.norm([0.9, 0.3, 0.2, 0.1])], None),
        (K.ctm, [R.uniform(0.01, 0.1, 8), 1.0, 0.3, 0.15, 0.03], None),
        (K.layered_traveltimes, [np.array([2.0, 3.0, 4.5]), np.array([1.0, 2.0, 1.5]), np.linspace(0.02, 0.2, 5)],
         None),
        (K.fresnel_reflect, [1.5, 1.0, np.linspace(0.05, 1.4, 11) + 0.003], None),
        (K.dc_loadflow, [R.uniform(5, 10, 5), np.array([0, 0, 1, 2, 1]), np.array([1, 2, 2, 3, 3]),
                         np.array([0.0, -0.5, 0.8, -0.3]), R.uniform(0.5, 1.0, 5)], None),
        (K.bs_portfolio, [R.uniform(80, 120, 5), R.uniform(0.1, 0.4, 5), R.uniform(90, 110, 5), R.uniform(0.2, 2, 5),
                          R.uniform(-1, 1, 5)], None),
        (K.sir_weekly, [0.4, 0.1, np.array([0.99, 0.01, 0.0]), R.uniform(0, 0.3, 4)], None),
        (K.blur_rows, [R.uniform(0, 1, (5, 6)), np.array([0.25, 0.5, 0.25]), R.uniform(0, 1, (5, 6))], None),
        (K.md_driver, [np.cumsum(np.ones((5, 3)) + 0.1 * R.standard_normal((5, 3)), axis=0),
                       0.1 * R.standard_normal((5, 3)), 3.0], None),
        (K.column_model, [np.linspace(290, 220, 8) + R.standard_normal(8), 5.0, np.linspace(300, 200, 8)], None),
        (K.image_source_energy, [np.array([1.0, 2.0, 1.5]), np.array([3.0, 1.0, 1.2]), np.array([0.1, 0.2, 0.3]),
                                 np.array([5.0, 4.0, 3.0])], None),
        (K.granular_energy, [R.uniform(0, 2, (6, 3)), 10.0, 1.0, np.zeros((6, 3))], None),
        (K.histogram_entropy, [R.standard_normal(20), np.linspace(-2, 2, 7), 0.5], None),
        (K.first_passage, [R.uniform(0, 1, 6), 0.7, 3.0], None),
        (K.pupil_strehl, [0.3 * R.standard_normal(8), R.uniform(0.5, 1, 8)], None),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("fn, args, activity", _kernels(), ids=lambda v: getattr(v, "__name__", ""))
def test_kernels_as_users_write_them(fn, args, activity):
    """Right before this round: kept so that they stay right."""
    assert check(fn, args, primal=getattr(fn, "py_func", fn), activity=activity) < 2e-5


def relative_check(fn, args, activity=None, hrel=1e-5, rtol=1e-5):
    """Central differences with a step relative to each input (inputs of 1e-9 or 1e6: diode
    saturation currents, critical pressures, satellite coordinates), every entry checked."""
    gen = np.random.default_rng(0)
    weights = {k: gen.standard_normal(a.shape) for k, a in enumerate(args)
               if isinstance(a, np.ndarray) and a.dtype.kind == "f" and (activity is None or activity[k] == "dup")}
    grads, _ = adtrans_gradient(fn, args, weights, 1.25, activity)
    run = getattr(fn, "py_func", fn)

    def at(k, j, h):
        x = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        if j is None:
            x[k] = x[k] + h
        else:
            x[k].flat[j] += h
        return objective(run, x, weights, 1.25)
    for k, g in grads.items():
        for j in ([None] if np.ndim(g) == 0 else range(np.size(g))):
            v = args[k] if j is None else args[k].flat[j]
            h = hrel * (abs(v) if v != 0 else 1.0)
            fd = (at(k, j, h) - at(k, j, -h)) / (2 * h)
            got = float(g if j is None else g.flat[j])
            assert abs(got - fd) <= rtol * max(abs(fd), 1e-300), f"arg {k} entry {j}: {got!r} vs {fd!r}"


@pytest.mark.slow
def test_badly_scaled_kernels_with_relative_steps():
    """Right before this round; fdcheck's absolute step 1e-6 is meaningless against a diode's
    I0 = 1e-9 or a critical pressure of 4.6e6 Pa, so each input gets its own step."""
    R = np.random.default_rng(5)
    relative_check(K.pv_power, [5.0, 1e-9, 0.01, 100.0, 1.3, np.linspace(0.0, 0.7, 15)],
                   ["active"] * 5 + ["const"])
    relative_check(K.peng_robinson_fit, [190.6, 4.6e6, 0.011, np.linspace(2e-4, 2e-3, 8), R.uniform(1e6, 5e6, 8)],
                   ["active", "active", "active", "dup", "const"], rtol=1e-6)
    relative_check(K.gnss_residual, [np.array([1e3, 2e3, 3e3, 10.0]), R.uniform(-2e7, 2e7, (6, 3)),
                                     R.uniform(2e7, 2.5e7, 6)], hrel=1e-3)
    # A = 1e-20: the ice flux matters at this step (at 1e-24 it is below the objective's rounding);
    # the objective is ~1.6e6, so its differences lose ~2e-5 of a 0.7 derivative: rtol 1e-4
    relative_check(K.glacier_driver, [R.uniform(100, 300, 8), np.linspace(500, 0, 8), 1e-20, R.uniform(-1, 1, 8)],
                   rtol=1e-4)
    relative_check(K.baselines, [np.radians(np.array([40.0, 41.0, 40.5])), np.radians(np.array([-105.0, -104.0, -106.0])),
                                 np.array([1600.0, 1500.0, 2000.0]), np.array([140000.0, 90000.0, 190000.0])],
                   rtol=2e-5)


# ----------------------------------------------------------------- the crash this round fixed
def test_biot_savart_parallel_adjoint_compiles_and_is_right():
    """Was: ``AssertionError: key already in dictionary: 'mismatch_2'`` from Numba's parfor
    lowering (the prange body's shape-check counters ``mismatch``, ``mismatch_1``, ... of
    ``pts[p] - mid``, ``np.cross(dl, rv)``, ``acc += ...``, ``B[p, :] = acc``: Numba legalizes its
    SSA version ``mismatch.2`` to ``mismatch_2``).  The current scales the field to O(1)."""
    R = np.random.default_rng(8)
    nodes = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.2]])
    relative_check(K.biot_savart, [nodes, R.uniform(2, 3, (5, 3)), 2.0e7, np.zeros((5, 3))], rtol=2e-6)


@njit(parallel=True)
def _reduction_with_versioned_names(x, c):
    s = 0.0
    for i in prange(x.shape[0]):
        if x[i] > 0:
            s += x[i] * c
        else:
            s += x[i] ** 2
    s_1 = s * 2.0
    s_2 = s_1 + c
    s_3 = s_2 * s
    return s_3


def test_prange_reduction_beside_names_of_its_versions():
    """``s`` reduced in a prange beside ``s_1`` ... ``s_3``: Numba itself fails on this primal
    (``key already in dictionary: 's_3'``, numba 0.68.1); the adjoint renames ``s_1`` ... and
    compiles; differences on the Python function."""
    with pytest.raises(AssertionError, match="key already in dictionary") as info:
        _reduction_with_versioned_names(np.arange(5.0) - 2.2, 1.5)
    assert raised_by_numba_compiler(info.value)
    x = np.arange(5.0) - 2.2
    assert check(_reduction_with_versioned_names, [x, 1.5], primal=_reduction_with_versioned_names.py_func) < 1e-6


def test_parnames_renames_only_what_could_collide():
    src = ("def f(x, m_1):\n    mismatch = 0\n    mismatch_2 = 0\n    d_x_1 = 0.0\n    t_1 = 1.0\n"
           "    for p in numba.prange(3):\n        mismatch += 1\n        mismatch_2 += 1\n    return m_1\n")
    func = ast.parse(src).body[0]
    out = ast.unparse(avoid_legalized_collisions(func))
    assert "mismatch_2_ += 1" in out and "mismatch += 1" in out
    assert "d_x_1 = 0.0" in out and "t_1 = 1.0" in out and "m_1" in out     # no multiply stored d_x, t; params stay
    serial = ast.parse(src.replace("numba.prange", "range")).body[0]
    assert ast.unparse(avoid_legalized_collisions(serial)) == ast.unparse(ast.parse(src.replace("numba.prange", "range")).body[0])


def test_runtime_assertion_of_a_kernel_is_not_taken_for_numba():
    @njit
    def positive(x):
        if x <= 0:      # (an `assert` here would be rewritten by pytest)
            raise AssertionError("not positive")
        return x
    with pytest.raises(AssertionError) as info:
        positive(-1.0)
    assert not raised_by_numba_compiler(info.value)


# ----------------------------------------------------------------- the refusal this round lifted
def test_ellipsis_indices():
    """Was refused: ``constant Ellipsis. kernels compute with numbers only`` at ``r[..., 0]``."""
    R = np.random.default_rng(9)
    assert check(K.projectile, [np.array([10.0, 2.0, 15.0]), 0.01], primal=K.projectile.py_func) < 1e-6
    assert check(K.rgb_luma_smoothness, [R.uniform(0, 1, (4, 5, 3)), np.array([0.3, 0.6, 0.1])],
                 primal=K.rgb_luma_smoothness.py_func) < 1e-6


# ----------------------------------------------------------------- np.clip in a driver
def test_age_seir_driver_with_clip():
    """Was refused: ``np.clip on an active value in a driver has no adjoint rule``."""
    R = np.random.default_rng(13)
    C = R.uniform(0.1, 1, (4, 4))
    I0 = np.array([0.01, 0.02, 0.04, 0.003])
    relative_check(K.age_seir_driver, [0.9, C, np.full(4, 0.98), I0, 0.0437])


def test_clip_driver_bounds_hit_scalar_and_array_bounds():
    """Entries below, inside and above the bounds (none on them); ``None`` bounds; array bounds."""
    x = np.array([-0.9, -0.3, 0.1, 0.35, 0.8, -0.05, 0.55])
    assert check(K.clip_driver, [x, -0.5, 0.6]) < 1e-6
    lo = np.array([-0.5, -0.7, 0.3, -0.1, 0.0, -0.2, 0.5])
    hi = np.array([0.6, 0.2, 0.9, 0.5, 1.5, 0.4, 0.52])
    assert check(K.clip_driver, [x, lo, hi]) < 1e-6


# ----------------------------------------------------------------- NumPy between kernel calls in drivers
@pytest.mark.parametrize("fn", [K.chain_roll_driver, K.chain_order_driver], ids=lambda f: f.__name__)
def test_chain_drivers(fn):
    """Were refused: np.roll / np.sort / np.append / np.prod on an active value in a driver."""
    R = np.random.default_rng(21)
    assert check(fn, [np.cumsum(R.uniform(0.8, 1.2, 6)), 2.0]) < 1e-6


def test_chain_outer_driver_norm_along_rows():
    """Were refused: np.outer and np.linalg.norm(X, axis=1) of active arrays in a driver."""
    R = np.random.default_rng(22)
    assert check(K.chain_outer_driver, [R.standard_normal((5, 3)), np.zeros(5)]) < 1e-6


def test_products_with_a_zero_rolls_over_two_axes_sorts_along_columns():
    A = np.array([[0.3, -1.2, 0.0, 0.7], [1.1, 0.4, -0.8, 0.2], [-0.45, 0.9, 0.65, -1.3]])
    assert check(K.product_driver, [A, np.array([0.5, -1.0, 2.0])]) < 1e-6


def test_divmod_of_integers_and_of_active_floats():
    """Was refused: ``call to `divmod`, which has no adjoint rule``; ``q, r = divmod(a, b)`` is
    ``a // b, a % b`` (the remainder's derivative 1 in ``a``, the quotient constant)."""
    R = np.random.default_rng(23)
    assert check(K.tide_fit, [np.array([1.0, 0.4]), np.array([0.5059, 0.2625]), R.standard_normal(30)],
                 primal=K.tide_fit.py_func) < 1e-6

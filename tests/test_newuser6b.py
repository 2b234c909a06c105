"""What a new user's sixth corpus (second half, tests/kernels_newuser6b.py) found: kernels from
domains the earlier rounds did not cover, each gradient against central finite differences in
float64 on the pure-Python function; fresh arrays bound by a tuple assignment and rebound by
another in a time loop (was refused); a conditional expression with a constant test (was an
AttributeError in the normaliser); LAPACK inside a time loop refused with the line."""
import numpy as np
import pytest

import adtrans
import kernels_newuser6b as K
from fdcheck import check

RNG = np.random.default_rng(6)


def U(lo, hi, *shape):
    return RNG.uniform(lo, hi, shape)


def test_constant_tests_take_one_branch():
    """``a if False else b``, ``x if DEBUG else y`` (a module flag) and ``if DEBUG:``: only the
    branch taken is differentiated, and the adjoint has no test left for it."""
    x = np.array([0.3, -0.7, 1.1, 0.4])
    assert check(K.flagged, [x, 0.6], primal=K.flagged.py_func) < 1e-6
    src = adtrans.source(K.flagged, ("dup", "active"), x, 0.6)
    code = "\n".join(line for line in src.splitlines() if not line.strip().startswith("#"))
    assert "False" not in code and "DEBUG" not in code and "if " not in code


CASES = {
    "sir": lambda: [0.3, 0.1, np.array([990.0, 10.0, 0.0])],
    "haversine": lambda: [U(-60, 60, 8), U(-170, 170, 8), U(-60, 60, 8), U(-170, 170, 8)],
    "pk_conc": lambda: [np.log(np.array([1.2, 0.2, 5.0])), np.linspace(0.5, 24, 15), np.array([0.0, 8.0, 16.0]), 100.0],
    "sobel_energy": lambda: [U(0, 1, 6, 7)],
    "ray_sphere": lambda: [np.array([0.0, 0.0, 5.0]), 1.5, U(-0.5, 0.5, 10, 3) * np.array([1, 1, 0.0]),
                           np.tile(np.array([0.0, 0.0, 1.0]), (10, 1)) + U(-0.1, 0.1, 10, 3)],
    "ewald_real": lambda: [U(0, 4, 6, 3), np.array([1.0, -1, 1, -1, 0.5, -0.5]), 0.8, 4.0, 1.9],
    "lwr": lambda: [U(0.1, 0.8, 15), 1.0, 1.0],
    "kalman_ll": lambda: [np.cumsum(U(-1, 1, 20)), 0.3, 0.5],
    "catmull_rom": lambda: [U(0, 1, 8), U(0.1, 6.9, 10)],
    "heston_mc": lambda: [100.0, 0.04, 1.5, 0.05, 0.3, -0.6, 100.0, 1.0, RNG.standard_normal((10, 8)),
                          RNG.standard_normal((10, 8))],
    "sabr_smile": lambda: [np.array([80.0, 90, 95, 110, 120]), 100.0, 1.0, np.array([0.3, 0.7, -0.3, 0.4])],
    "lindley_wait": lambda: [U(0.5, 1.5, 20), U(0.5, 1.5, 20)],
    "erlang_c": lambda: [3.0, 1.0],
    "darcy_head": lambda: [U(-1, 1, 10), U(0, 0.1, 10)],
    "nash_cascade": lambda: [U(0, 5, 30), 2.5],
    "vfi": lambda: [0.9, 0.35, np.linspace(0.05, 0.5, 10)],
    "soft_dtw": lambda: [U(0, 1, 7), U(0, 1, 6)],
    "pwm_score": lambda: [U(0.5, 2, 4, 4), RNG.integers(0, 4, 25), np.array([0.25, 0.25, 0.3, 0.2])],
    "odometry": lambda: [U(0.5, 1, 10), U(0.5, 1.2, 10), 0.4],
    # fresh arrays bound by a tuple assignment, then rebound by one (was refused: two names for one array)
    "shallow_water": lambda: [1 + 0.2 * np.exp(-np.linspace(-3, 3, 12) ** 2), U(-0.1, 0.1, 12)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_public_style_kernel(name):
    fn, args = getattr(K, name), CASES[name]()
    primal = fn.py_func
    assert abs(fn(*args) - primal(*args)) <= 1e-9 * max(1.0, abs(primal(*args)))
    assert check(fn, args, primal=primal) < 1e-4


def test_lapack_inside_a_time_loop():
    """The Kalman filter's time loop with inv, det and solve per step (was refused: LAPACK calls in
    loops are saved per iteration now, adtrans/transform/lapack_saves.py)."""
    ys = U(-1, 1, 6, 2)
    F, H = np.array([[1.0, 0.1], [0.0, 0.9]]), np.array([[1.0, 0.0], [0.5, 1.0]])
    args = [ys, F, H, 0.1 * np.eye(2), 0.3 * np.eye(2)]
    assert check(K.kalman_mv, args) < 1e-6
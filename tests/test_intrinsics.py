"""The intrinsics of the derivative table (adtrans.rules.derivatives), in every engine.

- the table itself in forward mode (``jvp``) against central differences, and
  forward against reverse (``<g, J t>`` both ways);
- each new intrinsic in an @njit kernel and in a driver against central
  differences (float64), and under the CUDA simulator (a subprocess, see
  ``test_intrinsics_cuda_sim.py``);
- ``gamma``/``lgamma`` (derivatives through ``adtrans.special.digamma``, checked against
  scipy.special.psi where scipy is installed) and functions without a rule: allowed with
  constant arguments, refused with an active one.
"""
import ast
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import adtrans
from adtrans import special
from numba import njit
import kernels_intrinsics as K
from adtrans.rules.derivatives import INTRINSIC
from adtrans.rules.scalar import jvp, jvp_value, partials
from fdcheck import check

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(12)

# a point inside each function's domain (one per argument)
POINTS = {"acosh": (1.7,), "atanh": (0.4,), "asin": (0.3,), "acos": (-0.2,), "log": (1.3,), "log1p": (0.4,),
          "log10": (2.2,), "log2": (0.9,), "sqrt": (1.4,), "cbrt": (0.8,), "reciprocal": (-1.3,),
          "pow": (1.3, 0.7), "atan2": (0.4, -1.1), "hypot": (0.6, -0.8), "copysign": (-0.7, 2.0),
          "min": (0.3, 0.9), "max": (0.3, 0.9), "abs": (-0.6,)}
DIFFERENTIABLE = [k for k, r in INTRINSIC.items() if r.partials and not r.constant_only]


@pytest.mark.parametrize("name", [k for k in DIFFERENTIABLE if k != "float32"])   # float32 rounds
def test_forward_mode_from_the_table_matches_finite_differences(name):
    """jvp instantiates tangents from the same entries the reverse engines use."""
    arity = len(INTRINSIC[name].partials)
    x = POINTS.get(name, (0.45, -0.35)[:arity])
    t = tuple(RNG.uniform(-1, 1, arity))
    _, dz = jvp_value(name, x, t)
    h = 1e-6
    _, f = jvp_value(name, x, (0.0,) * arity)[0], None
    plus = jvp_value(name, tuple(a + h * d for a, d in zip(x, t)), (0.0,) * arity)[0]
    minus = jvp_value(name, tuple(a - h * d for a, d in zip(x, t)), (0.0,) * arity)[0]
    fd = (plus - minus) / (2 * h)
    if INTRINSIC[name].partials[-1] is None:    # copysign: no derivative w.r.t. the sign argument
        fd = (jvp_value(name, (x[0] + h * t[0],) + x[1:], (0.0,) * arity)[0]
              - jvp_value(name, (x[0] - h * t[0],) + x[1:], (0.0,) * arity)[0]) / (2 * h)
    assert abs(dz - fd) <= 1e-7 * max(1.0, abs(fd)), (name, dz, fd)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_forward_and_reverse_instantiate_the_same_partials(name):
    """<g, J t> from jvp equals sum_i t_i * (g * p_i) from the reverse instantiation."""
    arity = len(INTRINSIC[name].partials)
    x = POINTS.get(name, (0.45, -0.35)[:arity])
    t = tuple(RNG.uniform(-1, 1, arity))
    z, dz = jvp_value(name, x, t)
    names = [ast.Name(id=f"x{i}", ctx=ast.Load()) for i in range(arity)]
    env = {"math": math, "np": np, "special": special, "g": 0.75, "zz": z, **{f"x{i}": v for i, v in enumerate(x)}}
    rev = 0.0
    for i, expr in partials("call", name, names, ast.Name(id="zz", ctx=ast.Load()), ast.Name(id="g", ctx=ast.Load())):
        rev += t[i] * eval(compile(ast.fix_missing_locations(ast.Expression(expr)), "<rev>", "eval"), env)
    assert rev == pytest.approx(0.75 * dz, rel=1e-14, abs=1e-15)


def test_tangent_code_is_sum_of_partials_times_tangents():
    expr = jvp("call", "hypot", [ast.Name(id="u"), ast.Name(id="v")], ast.Name(id="z"),
               [ast.Name(id="du"), ast.Name(id="dv")])
    assert ast.unparse(expr) == "du * u / z + dv * v / z"
    assert ast.unparse(jvp("call", "sin", [ast.Name(id="u")], ast.Name(id="z"), [None])) == "0.0"
    assert ast.unparse(jvp("call", "min", [ast.Name(id="u"), ast.Name(id="v")], ast.Name(id="z"),
                           [ast.Name(id="du"), None])) == "du if u <= v else 0.0"


def vec(n, lo=0.2, hi=0.8):
    return RNG.uniform(lo, hi, n)


@pytest.mark.parametrize("fn", [K.square, K.arcsinh, K.arccosh, K.arctanh, K.exp2, K.reciprocal],
                         ids=lambda f: f.__name__)
def test_new_intrinsics_in_kernels_match_finite_differences(fn):
    check(fn, [vec(6), 0.9])


def test_gamma_of_constant_arguments_is_allowed():
    x = vec(4)
    w = RNG.standard_normal(4)
    c = 2.3
    xb = w.copy()
    adtrans.autodiff(K.gamma_of_constant, adtrans.Duplicated(x.copy(), xb), adtrans.Const(c))
    np.testing.assert_allclose(xb, w * (math.gamma(c) + 2 * math.lgamma(c + 1.0) * x), rtol=1e-13)


def test_call_without_rule_with_constant_arguments_is_allowed():
    x = vec(4)
    w = RNG.standard_normal(4)
    xb = w.copy()
    adtrans.autodiff(K.radians_of_constant, adtrans.Duplicated(x.copy(), xb), adtrans.Const(30.0))
    np.testing.assert_allclose(xb, w * math.ldexp(30.0, 2) * math.radians(30.0), rtol=1e-14)


def _line_of(fn, marker):
    import inspect
    src, start = inspect.getsourcelines(fn)
    return start + next(k for k, ln in enumerate(src) if marker in ln)


@pytest.mark.parametrize("fn,args,construct,hint", [
    (K.radians_of_active, lambda: [adtrans.Duplicated(vec(3), np.zeros(3))],
     "math.ldexp` with an active argument", "constant arguments"),
], ids=["no-rule"])
def test_active_argument_without_derivative_is_refused(fn, args, construct, hint):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.autodiff(fn, *args())
    msg = str(info.value)
    assert construct in msg and hint in msg
    assert "kernels_intrinsics.py:" in msg
    assert info.value.lineno == _line_of(fn, "<- refused") and info.value.col > 1


def test_new_intrinsics_in_a_driver_match_finite_differences():
    check(K.driver_arrays, [vec(5), 0.6])


def test_gamma_and_lgamma_of_active_values_in_kernels_and_drivers():
    check(K.gamma_of_active, [vec(4), 0.9])
    check(K.driver_gamma_active, [vec(3), 1.5])


def test_digamma_is_accurate():
    """adtrans.special.digamma against scipy.special.psi (else against differences of lgamma)."""
    from adtrans.special import digamma, digamma_array
    x = np.concatenate([np.geomspace(1e-6, 1e6, 400), np.linspace(0.01, 30.0, 400)])
    neg = np.linspace(-9.9, -0.1, 300)
    neg = neg[np.abs(neg - np.round(neg)) > 1e-3]
    try:
        from scipy.special import psi
    except ImportError:
        psi = None
    if psi is not None:
        for pts, tol in ((x, 4e-15), (neg, 1e-12)):      # reflection: pi / tan(pi x) near the poles
            err = np.abs(digamma_array(pts) - psi(pts)) / np.maximum(np.abs(psi(pts)), 1.0)
            assert err.max() < tol, (err.max(), pts[err.argmax()])
    h = 1e-5
    for v in (0.37, 1.0, 2.5, 9.99, 10.0, 31.0, -2.5):
        fd = (math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h)
        assert abs(digamma(v) - fd) < 1e-8 * max(1.0, abs(fd)), v
    assert digamma(1.0) == pytest.approx(-0.5772156649015329, abs=2e-15)     # -Euler's constant
    assert math.isnan(digamma(0.0)) and math.isnan(digamma(-3.0))


def test_new_intrinsics_under_the_cuda_simulator():
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(HERE / "test_intrinsics_cuda_sim.py")], cwd=HERE.parent, env=env,
                          capture_output=True, text=True, timeout=600)
    tail = (proc.stdout + proc.stderr)[-4000:]
    assert proc.returncode == 0, tail
    assert " passed" in tail and "skipped" not in tail.splitlines()[-1], tail


@njit
def _periodic_minimum_image(x, L):
    d = x[1:] - x[:-1]
    d -= L * np.round(d / L)          # the periodic-box idiom: round is piecewise constant
    return np.sum(d ** 2) + np.sum(np.rint(x * 3.0)) + np.sum(np.around(x, 1))


@njit
def _periodic_minimum_image_loop(x, L):
    s = 0.0
    for i in range(x.shape[0] - 1):
        d = x[i + 1] - x[i]
        d -= L * np.round(d / L)
        s += d * d
    return s


@pytest.mark.parametrize("fn", [_periodic_minimum_image, _periodic_minimum_image_loop], ids=lambda f: f.__name__)
def test_round_and_rint_are_piecewise_constant(fn):
    x, L = np.array([0.1, 0.93, 2.31, 2.52, 4.44]), 1.5
    g = adtrans.grad(fn)(x, L)
    h = 1e-6
    fd = np.array([(fn(x + h * e, L) - fn(x - h * e, L)) / (2 * h) for e in np.eye(5)])
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    assert np.abs(g).max() > 0.1

"""Singular points: where a local derivative is infinite the contribution is 0, so the
all-pairs self-pair gives the finite true gradient (rules/derivatives.py SINGULAR_CONVENTION)."""
import ast

import numpy as np

import adtrans
import kernels_singular as S
from adtrans.rules.scalar import partials
from fdcheck import check

RNG = np.random.default_rng(3)


def test_sph_density_with_self_pair_matches_finite_differences():
    pos = RNG.uniform(0, 1, (6, 3))
    g = adtrans.grad(S.sph_density)(pos, 2.0)
    assert np.all(np.isfinite(g))
    check(S.sph_density, [pos, 2.0], activity=("dup", "const"))


def test_self_pair_gradient_equals_the_pairs_without_it():
    pos = RNG.uniform(0, 1, (5, 3))
    g = adtrans.grad(S.sph_density)(pos, 2.0)
    # independent reference: analytic gradient over i != j pairs (the self term is constant)
    ref = np.zeros_like(pos)
    for i in range(5):
        for j in range(5):
            if i == j:
                continue
            d = pos[i] - pos[j]
            r = np.sqrt(d @ d)
            if r / 2.0 < 1.0:
                c = -3.0 * (1.0 - r / 2.0) ** 2 / 2.0 / r
                ref[i] += c * d
                ref[j] -= c * d
    np.testing.assert_allclose(g, ref, rtol=1e-12, atol=1e-14)


def test_prange_pairs_sqrt_at_zero():
    check(S.pair_energy_prange, [RNG.uniform(0, 1, (5, 2)), np.zeros(5)])


def test_hypot_at_zero():
    check(S.hypot_pairs, [RNG.uniform(0, 1, 5), RNG.uniform(0, 1, 5)])


def test_independent_at_singular_point_gets_zero_not_nan():
    g = adtrans.grad(S.pow_half)(np.array([0.0, 1.0, -2.0]))
    np.testing.assert_array_equal(g, [0.0, 3.0, -3.0])


def test_guard_is_folded_away_for_exponents_at_least_one():
    x, g, z = (ast.Name(id=n, ctx=ast.Load()) for n in ("x", "g", "z"))
    (_, sq), = partials("binop", ast.Pow(), [x, ast.Constant(2)], z, g)[:1]
    assert "if" not in ast.unparse(sq)
    (_, half), = partials("binop", ast.Pow(), [x, ast.Constant(0.5)], z, g)[:1]
    assert ast.unparse(half).startswith("0.0 if x == 0.0 else")
    (_, r), = partials("call", "sqrt", [x], z, g)
    assert ast.unparse(r) == "0.0 if z == 0.0 else g / (z + z)"

"""Element-wise array temporaries computed at their uses (adtrans/normalise/deferred.py): the
broadcasting N-body becomes one loop nest without n-by-n arrays, and temporaries whose inputs
change before their use, or that are read as arrays, are materialised; every gradient against
central differences."""
import numpy as np
import pytest
from numba import njit

import adtrans
import fdcheck


@njit
def nbody(x, y, z, mass, eps):
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    dz = z[:, None] - z[None, :]
    inv = 1.0 / np.sqrt(dx * dx + dy * dy + dz * dz + eps * eps)
    return -0.5 * np.sum(mass[:, None] * mass[None, :] * inv)


@njit
def written_before_use(x):
    d = x[1:] - x[:-1]
    x[0] = 2.0 * x[1]
    return np.sum(d * d)


@njit
def scalar_rebound(x, s):
    d = x * s
    s = s * 3.0
    return np.sum(d * s)


@njit
def read_in_a_loop(x):
    d = x * 2.0 + 1.0
    t = 0.0
    for i in range(d.shape[0]):
        t += d[i] * x[i]
    return t + np.sum(d)


@njit
def reduced_on_an_axis(a, w):
    d = a * a - 1.0
    return np.sum(np.sum(d, axis=0) * w)


@njit
def costly_twice(x):
    e = np.exp(x)
    return np.sum(e * e) + np.sum(e)


def rng():
    return np.random.default_rng(11)


def test_nbody_is_one_loop_nest_and_matches_finite_differences():
    r = rng()
    x, y, z, m = (r.uniform(0, 1, 12) for _ in range(4))
    src = adtrans.source(nbody, ("dup", "dup", "dup", "const", "const"), x, y, z, m, 0.1)
    assert "np.empty" not in src and "zeros_like" not in src, src
    assert src.count("for i in range(") == 1
    fdcheck.check(nbody, [x, y, z, m, 0.1], activity=("dup", "dup", "dup", "const", "active"))
    with pytest.raises(ValueError, match="could not be broadcast"):
        adtrans.grad(nbody, argnums=(0, 1, 2))(x, y[:5], z, m, 0.1)


@pytest.mark.parametrize("fn, make", [
    (written_before_use, lambda r: [r.uniform(-1, 1, 9)]),
    (scalar_rebound, lambda r: [r.uniform(-1, 1, 9), 0.7]),
    (read_in_a_loop, lambda r: [r.uniform(-1, 1, 9)]),
    (reduced_on_an_axis, lambda r: [r.uniform(-1, 1, (4, 3)), r.uniform(-1, 1, 3)]),
    (costly_twice, lambda r: [r.uniform(-1, 1, 9)]),
])
def test_temporaries_that_must_be_arrays_stay_arrays(fn, make):
    args = make(rng())
    fdcheck.check(fn, args)


def test_which_temporaries_are_computed_at_their_uses():
    x = rng().uniform(-1, 1, 9)
    assert "np.empty" in adtrans.source(written_before_use, ("dup",), x)
    assert "np.empty" in adtrans.source(scalar_rebound, ("dup", "active"), x, 0.7)
    assert "np.empty" in adtrans.source(read_in_a_loop, ("dup",), x)
    src = adtrans.source(costly_twice, ("dup",), x)
    assert src.count("math.exp(") == 1 and "np.empty" in src        # not recomputed per use

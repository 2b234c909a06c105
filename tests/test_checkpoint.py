"""Checkpointed driver time loops (binomial schedules of checkpoint_schedules): the gradient is the
store-all gradient bit for bit, the tape holds N snapshots instead of every step."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi_programs"))

import adtrans  # noqa: E402
from adtrans.driver import driver_source, last_tape_nbytes, last_tape_peak_nbytes  # noqa: E402
from driver_kernels import advect_step, diffuse, energy, sir_rhs, step_and_mass, sumsq  # noqa: E402
from fdcheck import check  # noqa: E402

RNG = np.random.default_rng(3)


def heat(u, w, c, steps):
    """Swapped work arrays, a float carried across steps, a view written in place, an append."""
    n = u.shape[0]
    unew = np.copy(u)
    acc = 0.0
    hist = []
    inner = u[1:n - 1]
    for s in range(steps):
        diffuse(u, unew, c)
        u, unew = unew, u
        acc = acc * 0.9 + sumsq(u) * c
        unew[0:2] = u[0:2] * 1.01
        hist.append(s)
        if acc > 1e6:
            break
    inner *= 1.0 + 0.0 * acc
    return energy(u[1:n - 1], w[1:n - 1]) + acc


def fresh_state(u, c, steps):
    """Each step allocates its state (u = u + dt f(u)): shadows created inside the loop."""
    for s in range(steps):
        f = np.sin(u) * c
        u = u + 0.1 * f
        k = sumsq(u)
        u = u / (1.0 + 0.01 * k)
    return sumsq(u)


def advection(u, w, c, steps):
    """A kernel returning the new state: u = step(u, c)."""
    for s in range(steps):
        u = advect_step(u, c)
    return np.sum(u * w)


def sir(S, I, beta, dt, steps):
    """A kernel returning a tuple of floats, unpacked: dS, dI = rhs(S, I, beta)."""
    for s in range(steps):
        dS, dI = sir_rhs(S, I, beta)
        S = S + dt * dS
        I = I + dt * dI
    return I + 0.5 * S


def field_and_mass(u, c, steps):
    """A kernel returning (array, float)."""
    total = 0.0
    for s in range(steps):
        u, m = step_and_mass(u, c)
        total = total + m * c
    return total + sumsq(u)


def _grad(fn, args, kinds, checkpoints):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    shadows, wrapped = {}, []
    for k, (a, kind) in enumerate(zip(args, kinds)):
        if kind == "dup":
            shadows[k] = np.linspace(0.5, 1.5, a.size).reshape(a.shape)
            wrapped.append(adtrans.Duplicated(a, shadows[k]))
        elif kind == "active":
            wrapped.append(adtrans.Active(a))
        else:
            wrapped.append(a)
    out = adtrans.autodiff(fn, *wrapped, seed=1.3, checkpoints=checkpoints)
    return out, shadows, args, last_tape_nbytes(), last_tape_peak_nbytes()


@pytest.mark.parametrize("steps", [1, 2, 7, 20])
@pytest.mark.parametrize("snapshots", [1, 2, 5])
def test_checkpointed_gradient_equals_store_all(steps, snapshots):
    args = [RNG.uniform(0.3, 1.0, 12), RNG.uniform(0.5, 1.5, 12), 0.2, steps]
    kinds = ["dup", "dup", "active", "const"]
    ref = _grad(heat, args, kinds, None)
    got = _grad(heat, args, kinds, snapshots)
    assert got[0] == ref[0]                                   # Active adjoints, bit for bit
    for k in ref[1]:
        np.testing.assert_array_equal(got[1][k], ref[1][k])  # Duplicated shadows
        np.testing.assert_array_equal(got[2][k], ref[2][k])  # final primal state


@pytest.mark.parametrize("snapshots", [1, 3])
def test_fresh_arrays_per_step(snapshots):
    args = [RNG.uniform(0.3, 1.0, 6), 0.7, 9]
    kinds = ["dup", "active", "const"]
    ref = _grad(fresh_state, args, kinds, None)
    got = _grad(fresh_state, args, kinds, snapshots)
    assert got[0] == ref[0]
    np.testing.assert_array_equal(got[1][0], ref[1][0])


def test_checkpointed_gradient_matches_finite_differences():
    import fdcheck
    real = adtrans.autodiff
    try:
        fdcheck.adtrans.autodiff = lambda fn, *a, **kw: real(fn, *a, checkpoints=2, **kw)
        check(heat, [RNG.uniform(0.3, 1.0, 8), RNG.uniform(0.5, 1.5, 8), 0.2, 9])
    finally:
        fdcheck.adtrans.autodiff = real


@pytest.mark.parametrize("fn,args,kinds", [
    (advection, lambda: [RNG.uniform(0.3, 1.0, 10), RNG.uniform(0.5, 1.5, 10), 0.3, 9], "dup dup active const"),
    (sir, lambda: [0.9, 0.1, 0.8, 0.5, 9], "active active active active const"),
    (field_and_mass, lambda: [RNG.uniform(0.3, 1.0, 6), 0.3, 9], "dup active const"),
], ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("snapshots", [1, 3])
def test_kernels_returning_values_under_checkpoints(fn, args, kinds, snapshots):
    args, kinds = args(), kinds.split()
    ref = _grad(fn, args, kinds, None)
    got = _grad(fn, args, kinds, snapshots)
    assert "reversed with checkpoints" in driver_source(fn, tuple(kinds), checkpoints=snapshots)
    assert tuple(got[0]) == tuple(ref[0])
    for k in ref[1]:
        np.testing.assert_array_equal(got[1][k], ref[1][k])
    import fdcheck
    real = adtrans.autodiff
    try:
        fdcheck.adtrans.autodiff = lambda f, *a, **kw: real(f, *a, checkpoints=snapshots, **kw)
        check(fn, args)
    finally:
        fdcheck.adtrans.autodiff = real


def test_memory_is_snapshots_not_steps():
    n, steps = 4000, 60
    args = [RNG.uniform(0.3, 1.0, n), RNG.uniform(0.5, 1.5, n), 0.2, steps]
    kinds = ["dup", "dup", "active", "const"]
    store_all = _grad(heat, args, kinds, None)
    five = _grad(heat, args, kinds, 5)
    # store-all: one copy of the overwritten work array per step (+ slices); 5 snapshots of
    # the two work arrays (u, unew): far less
    assert store_all[3] >= steps * 8 * n
    assert five[4] <= 8 * (2 * 5 + 4) * n, (five[3], five[4])
    assert five[4] < store_all[3] / 3


def test_generated_source_names_the_schedule():
    src = driver_source(heat, ("dup", "dup", "active", "const"), checkpoints=4)
    assert "_rt.Checkpoints(4, _seq" in src and "binomial schedule, 4 snapshots" in src
    assert "reversed with checkpoints" in src
    assert "_rt.Checkpoints" not in driver_source(heat, ("dup", "dup", "active", "const"))
    with pytest.raises(adtrans.ActivityError):
        driver_source(heat, ("dup", "dup", "active", "const"), checkpoints=0)

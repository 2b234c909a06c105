"""Random draws inside kernels (adtrans/normalise/draws.py): the pathwise derivative with the draws
held at the values the forward sweep drew.  Finite differences run the pure-Python kernel, which
seeds NumPy's legacy generator inside, so every primal call sees the same draws (Numba's generator
reproduces NumPy's legacy MT19937 sequence)."""
import inspect
import math
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import adtrans  # noqa: E402
import kernels_random as K  # noqa: E402
from fdcheck import check  # noqa: E402

X = np.linspace(-0.8, 0.9, 6)
CASES = {
    "langevin": (K.langevin, [X.copy(), 1.0, 0.3, 0.01, 5], ("dup", "active", "active", "const", "const")),
    "reparametrised": (K.reparametrised, [0.3, 0.7, 1.0, 2.0, 20], ("active",) * 4 + ("const",)),
    "scalar_recurrence": (K.scalar_recurrence, [0.2, 0.5, 30], ("active", "active", "const")),
    "independent_draws": (K.independent_draws, [X.copy(), 0.4], ("dup", "active")),
    "noise_array": (K.noise_array, [X.copy(), 0.4], ("dup", "active")),
    "dropout": (K.dropout, [X.copy(), 0.4, 0.5], ("dup", "active", "const")),
    "sgd_loss": (K.sgd_loss, [np.array([0.1, 0.2]), np.arange(12.0).reshape(6, 2) / 10, np.arange(6.0) / 5, 3, 2],
                 ("dup", "const", "const", "const", "const")),
    "last_draw": (K.last_draw, [np.array([0.5, 0.2]), 4], ("dup", "const")),
    "gbm_paths": (K.gbm_paths, [1.0, 0.2, 0.05, 1.0, 1.0, 50, 4], ("active", "active") + ("const",) * 5),
}


#: compiled in the default run; the others (same features: a taped scalar recurrence, independent
#: iterations, a last-iteration loop, a 2-D array draw) under `make test-all`, to keep the run short
FAST = {"langevin", "reparametrised", "noise_array", "dropout", "sgd_loss"}


@pytest.mark.parametrize("name", [n if n in FAST else pytest.param(n, marks=pytest.mark.slow) for n in sorted(CASES)])
def test_gradient_matches_finite_differences_with_the_seed_inside(name):
    fn, args, activity = CASES[name]
    check(fn, args, activity=activity, primal=fn.py_func)


def _draw_sites(fn) -> int:
    return inspect.getsource(fn.py_func).count("np.random.") - inspect.getsource(fn.py_func).count("np.random.seed")


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_draw_is_made_once_in_the_forward_sweep(name):
    """Structural: the adjoint calls the generator once per draw site of the kernel (the buffer
    store), whatever strategy its loops get; every other use reads the buffer."""
    fn, args, activity = CASES[name]
    src = adtrans.source(fn, activity, *args)
    calls = [ln.strip() for ln in src.splitlines() if "np.random." in ln and not ln.strip().startswith("#")]
    seeds = [c for c in calls if c.startswith("np.random.seed(")]
    assert len(seeds) == 1 and src.index(seeds[0]) < src.index("# adjoint of")
    draws = [c for c in calls if not c.startswith("np.random.seed(")]
    assert len(draws) == _draw_sites(fn), draws
    assert all(c.split(" = ")[0].startswith(("draws[", "int_draws[")) for c in draws), draws
    assert all(src.index(c) < src.index("# adjoint of") for c in draws)


def test_loops_the_engine_recomputes_still_read_the_draws():
    fn, args, activity = CASES["noise_array"]
    src = adtrans.source(fn, activity, *args)
    assert "# recomputed loop" in src
    fn, args, activity = CASES["independent_draws"]
    assert "# recomputed loop" in adtrans.source(fn, activity, *args)


def _norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def test_gbm_pathwise_delta_and_vega_match_black_scholes_and_finite_differences():
    s0, sigma, r, t, strike, n = 1.0, 0.25, 0.03, 1.0, 1.05, 20000
    args = [s0, sigma, r, t, strike, n]
    delta, vega = adtrans.grad(K.gbm_call, argnums=(0, 1))(*args)
    # the same estimator in NumPy from the same draws (NumPy's legacy generator, seed 42)
    np.random.seed(42)
    z = np.random.standard_normal(n)
    st = s0 * np.exp((r - 0.5 * sigma ** 2) * t + sigma * math.sqrt(t) * z)
    itm = st > strike
    disc = math.exp(-r * t)
    d_paths = disc * itm * st / s0
    v_paths = disc * itm * st * (-sigma * t + math.sqrt(t) * z)
    np.testing.assert_allclose([delta, vega], [d_paths.mean(), v_paths.mean()], rtol=1e-10)
    price = K.gbm_call(*args)
    assert price == K.gbm_call.py_func(*args) or abs(price - K.gbm_call.py_func(*args)) < 1e-14
    # closed form, within 4 standard errors of the Monte Carlo estimate
    d1 = (math.log(s0 / strike) + (r + 0.5 * sigma ** 2) * t) / (sigma * math.sqrt(t))
    bs_delta = _norm_cdf(d1)
    bs_vega = s0 * math.exp(-0.5 * d1 * d1) / math.sqrt(2 * math.pi) * math.sqrt(t)
    assert abs(delta - bs_delta) < 4 * d_paths.std() / math.sqrt(n)
    assert abs(vega - bs_vega) < 4 * v_paths.std() / math.sqrt(n)
    assert abs(delta - bs_delta) > 1e-6         # a Monte Carlo estimate, not the closed form
    # and against central differences of the seeded kernel: the same draws, so exactly
    check(K.gbm_call, [s0, sigma, r, t, strike, 2000], activity=("active", "active") + ("const",) * 4,
          primal=K.gbm_call.py_func)


def test_primal_values_and_generator_state_are_numbas():
    """The forward sweep draws exactly what Numba's primal draws: the output array holds Numba's
    values bit for bit, and the generator state after the adjoint is as after one primal call."""
    x, n = np.array([1.5]), 7
    out_primal = np.zeros(n)
    K.draws_into(out_primal, x, n)
    after_primal = K.next_uniform()
    out, d_out, d_x = np.zeros(n), np.ones(n), np.zeros(1)
    adtrans.autodiff(K.draws_into, adtrans.Duplicated(out, d_out), adtrans.Duplicated(x.copy(), d_x), n)
    assert K.next_uniform() == after_primal
    np.testing.assert_array_equal(out, out_primal)
    # d/dx of sum(out) + out[n-1]: each out[i] is x * exp(0.3 z_i)
    np.testing.assert_allclose(d_x, [(out_primal.sum() + out_primal[-1]) / x[0]], rtol=1e-13)


def test_a_draw_nothing_reads_is_still_drawn():
    np.random.seed(10)
    np.random.standard_normal()
    b = np.random.standard_normal()
    g = adtrans.grad(K.dead_draw)(np.array([2.0]))
    np.testing.assert_allclose(g, [b], rtol=1e-15)
    np.testing.assert_allclose(adtrans.grad(K.skips_a_draw)(np.array([2.0])), [b], rtol=1e-15)
    K.dead_draw(np.array([2.0]))
    after = K.next_uniform()
    adtrans.grad(K.dead_draw)(np.array([2.0]))
    assert K.next_uniform() == after


def test_a_kernel_parameter_named_seed():
    x = np.array([0.5, 2.0])
    g = adtrans.grad(K.seeded_by_argument)(x, 3, 10)
    np.random.seed(3)
    parts = np.array([(np.random.normal(1.0, 0.5) ** 2, np.random.uniform(-1, 1)) for _ in range(10)])
    np.testing.assert_allclose(g, parts.sum(axis=0), rtol=1e-13)
    assert K.seeded_by_argument(x, 3, 10) == K.seeded_by_argument.py_func(x, 3, 10)


def _marked_line(fn) -> int:
    lines, start = inspect.getsourcelines(fn.py_func if hasattr(fn, "py_func") else fn)
    return start + next(k for k, ln in enumerate(lines) if "# <-" in ln)


@pytest.mark.parametrize("fn, args, activity, words", [
    (K.in_prange, [np.ones(3)], ("dup",), "prange loop: Numba keeps one generator per thread"),
    (K.in_while, [np.ones(3)], ("dup",), "in the test of a while loop"),
    (K.calls_draw_helper, [np.ones(3)], ("dup",), "inside the @njit helper `draw_helper`"),
    (K.active_gamma, [np.ones(3)], ("dup",), "`np.random.gamma` of an active parameter (`x[0]`)"),
])
def test_refused_at_the_users_line(fn, args, activity, words):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(fn, activity, *args)
    assert words in str(info.value)
    assert info.value.filename.endswith("kernels_random.py")
    assert info.value.lineno == _marked_line(K.draw_helper if fn is K.calls_draw_helper else fn)


@pytest.mark.skipif(K.cuda_noise is None, reason="numba.cuda not importable")
def test_cuda_draws_are_refused_naming_numba_cuda_random():
    x = np.ones(4)
    with pytest.raises(adtrans.UnsupportedError, match="numba.cuda.random") as info:
        adtrans.source(K.cuda_noise, ("dup", "dup"), x, x)
    assert info.value.lineno == _marked_line(K.cuda_noise)


def _fd_driver(f, x, s, h=1e-6):
    def run(xx, ss):
        K.seed_numba(5)
        return f(xx.copy(), ss)
    e = np.eye(x.size)
    return ([(run(x + h * e[i], s) - run(x - h * e[i], s)) / (2 * h) for i in range(x.size)],
            (run(x, s + h) - run(x, s - h)) / (2 * h))


def test_driver_replays_the_draws_of_a_kernel_that_does_not_seed():
    """The driver's reverse sweep runs the kernel's adjoint from Numba's generator state of the
    forward call (adtrans.driver.runtime.checkpoint keeps it) and puts the state back after."""
    x = np.linspace(0, 1, 4)
    K.seed_numba(5)
    K.driver_steps(x.copy(), 0.3)
    after_primal = K.next_uniform()
    K.seed_numba(5)
    dx = np.zeros(4)
    (ds,) = adtrans.autodiff(K.driver_steps, adtrans.Duplicated(x.copy(), dx), adtrans.Active(0.3))
    assert K.next_uniform() == after_primal
    fdx, fds = _fd_driver(K.driver_steps, x, 0.3)
    np.testing.assert_allclose(dx, fdx, rtol=1e-6)
    np.testing.assert_allclose(ds, fds, rtol=1e-6)
    with pytest.raises(adtrans.UnsupportedError, match="draws random numbers, under checkpoints="):
        adtrans.autodiff(K.driver_steps, adtrans.Duplicated(x.copy(), dx), adtrans.Active(0.3), checkpoints=2)


def test_driver_drawing_in_plain_python_draws_once():
    x = np.linspace(0, 1, 5)
    np.random.seed(3)
    dx = np.zeros(5)
    (dw,) = adtrans.autodiff(K.driver_noise, adtrans.Duplicated(x.copy(), dx), adtrans.Active(0.7))
    after = np.random.random()
    np.random.seed(3)
    eps = 0.7 * np.random.standard_normal(5)
    assert np.random.random() == after          # NumPy's state: as after one primal run
    s = np.sum(np.sin(x + eps))
    np.testing.assert_allclose(dx, 2 * s * np.cos(x + eps), rtol=1e-13)
    np.testing.assert_allclose(dw, 2 * s * np.sum(np.cos(x + eps) * eps / 0.7), rtol=1e-13)


@pytest.mark.parametrize("checkpoints", [None, 2])
def test_driver_draws_in_a_checkpointed_time_loop_are_replayed(checkpoints):
    """A recomputed step of a checkpointed loop draws what the forward sweep drew (the snapshots
    keep the generators' states); before, checkpoints=2 gave dc = 4.177 against 4.131."""
    u0, n, h = np.linspace(0.1, 1.0, 4), 8, 1e-6

    def run_global(u, c):
        np.random.seed(3)
        return K.driver_global_draws(u.copy(), c, n)

    def run_gen(u, c):
        return K.driver_generator_draws(u.copy(), c, n, np.random.default_rng(5))

    for run, call in ((run_global, lambda u, du, c: (np.random.seed(3), adtrans.autodiff(
            K.driver_global_draws, adtrans.Duplicated(u, du), adtrans.Active(c), n, checkpoints=checkpoints))[1]),
                      (run_gen, lambda u, du, c: adtrans.autodiff(
            K.driver_generator_draws, adtrans.Duplicated(u, du), adtrans.Active(c), n, np.random.default_rng(5),
            checkpoints=checkpoints))):
        du = np.zeros(4)
        (dc,) = call(u0.copy(), du, 0.3)
        fdc = (run(u0, 0.3 + h) - run(u0, 0.3 - h)) / (2 * h)
        fdu = [(run(u0 + h * e, 0.3) - run(u0 - h * e, 0.3)) / (2 * h) for e in np.eye(4)]
        np.testing.assert_allclose(dc, fdc, rtol=1e-6)
        np.testing.assert_allclose(du, fdu, rtol=1e-6)
    np.random.seed(3)
    K.driver_global_draws(u0.copy(), 0.3, n)
    after_primal = np.random.random()
    np.random.seed(3)
    adtrans.autodiff(K.driver_global_draws, adtrans.Duplicated(u0.copy(), np.zeros(4)), adtrans.Active(0.3), n,
                     checkpoints=checkpoints)
    assert np.random.random() == after_primal    # the generator ends as after one primal run

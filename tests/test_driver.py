"""Plain-Python drivers calling @njit kernels: gradients against central finite differences.

The drivers are defined here (plain Python: nothing to compile); their kernels live in
tests/mpi_programs/driver_kernels.py (module-level, cache=True).
"""
import math
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi_programs"))

import adtrans  # noqa: E402
from adtrans.driver import driver_adjoint, driver_source  # noqa: E402
from driver_kernels import (advect_step, advect_step_loop, cubesum, diffuse, doubled, energy, fill,  # noqa: E402
                            first_negative, passthrough, relax_into, scale_sin, sir_rhs, sir_rhs_arrays,
                            square_inplace, step_and_mass, sumsq)
from fdcheck import check  # noqa: E402

RNG = np.random.default_rng(11)


def vec(n, lo=0.3, hi=1.2):
    return RNG.uniform(lo, hi, n)


# ----------------------------------------------------------------------------- drivers

def time_loop(u, w, c, steps):
    n = u.shape[0]
    unew = np.copy(u)
    for s in range(steps):
        diffuse(u, unew, c)
        u, unew = unew, u
    e = energy(u[1:n - 1], w[1:n - 1])
    return 0.5 * e + np.sum(u * u)


def slices_and_arith(x, y, a):
    out = np.empty(3)
    v = x[1:4]
    w = 2.0 * v + y[0:3] * a
    s = np.sum(w * w) + np.dot(x, y)
    t = scale_sin(w, out, a)
    x[0] = t * 0.5
    y[1:3] += x[2:4] ** 2
    return s + t + np.mean(out) + float(x[0]) * y[2]


def scalar_control(x, a):
    t = a
    k = 0
    while t < 3.0 and k < 20:
        t = t * 1.3 + 0.1 * sumsq(x)
        k += 1
    if t > 3.5:
        r = math.sin(t) * x[0]
    else:
        r = t ** 2 - x[1]
    return r + (t if k > 2 else -t) + max(x[0], x[1]) * min(a, x[2])


def inplace_kernels(x):
    square_inplace(x)
    square_inplace(x[1:])
    fill(x[0:1], 0.5)
    return sumsq(x)


def augmented(x, y, c):
    x += y
    x *= c
    x /= 1.0 + c
    z = x.copy()
    z -= y
    d = c
    d *= 2.0
    d += sumsq(z)
    d /= 1.5
    return cubesum(z) + np.sum(x) + d


def functions(x, a):
    p = np.sqrt(x) + np.exp(-x) * np.log(1.0 + x) + np.tanh(a * x)
    q = math.sqrt(a) + math.exp(a) + math.log(a) + math.cos(a) + abs(a - 2.0)
    m = np.maximum(x, 0.7) - np.minimum(x, a)
    g = np.where(x > 0.6, x * x, -x)
    cat = np.concatenate((x, p[0:2]))
    n = np.linalg.norm(x) + np.exp(x).sum() + (x * a).mean()
    return np.sum(p * m) + q * np.sum(g) + np.dot(cat, cat) + np.mean(x ** 3) + (x[0] / x[1]) ** a + n


def matrix(A, v):
    w = A @ v
    B = A.T
    s = np.sum(B * B, axis=0)
    r = np.dot(v, A.T)
    return np.dot(w, w) + np.sum(s * v[0:3]) + np.sum(r) + np.sum(np.dot(A, A.T))


def conditional_kernel(x, c, flip):
    if flip:
        e = sumsq(x) * c
    else:
        e = cubesum(x)
    y = x * c if e > 1.0 else x / c
    return e + sumsq(y)


def plain_helper(x):
    return x * 2.0


def calls_python(x):
    return sumsq(plain_helper(x))


def has_break(x):
    for i in range(3):
        if i == 1:
            break
    return sumsq(x)


def loops_over_array(x):
    s = 0.0
    for v in x:
        s += v
    return s


def early_return(x):
    if x[0] > 0:
        return sumsq(x)
    return cubesum(x)


def sorts(x):
    # np.partition: still without a driver rule (np.sort has one since newuser12, tests/test_newuser12.py)
    return np.sum(np.partition(x, 1) * x)


def fills(x):
    x.fill(0.0)
    return sumsq(x)


def returns_array(x):
    y = doubled(x)
    return sumsq(y)


def names_like_generated(x, seed, x_b):
    parts = []
    parts += [1, 2]
    e = 0.0
    for i in range(len(parts)):
        e += sumsq(x) * seed + x_b
        _ = i
    while len(parts) > 0:
        break_now = True
        if break_now:
            parts = []
    return e


def nested_loops(u, c):
    n = u.shape[0]
    tmp = np.zeros(n)
    total = 0.0
    for outer in range(3):
        for inner in range(outer + 1):
            diffuse(u, tmp, c)
            u[1:n - 1] = tmp[1:n - 1]
            total += sumsq(u) * (inner + 1)
    return total


NOISE = np.random.default_rng(5)


def noisy(x):
    y = x * NOISE.normal() + np.random.rand()
    return sumsq(y) * (2.0 if NOISE.normal() > -100 else 1.0)


def filled(x, a):
    """np.full with an active fill value (its gradient was silently lost) and full_like of an active
    array with a constant (passive)."""
    base = np.full(x.shape[0], a) + np.full_like(x, 0.5)
    return sumsq(base * x) + sumsq(np.full(3, fill_value=a * a))


def aliased(u, c):
    diffuse(u, u, c)
    return sumsq(u)


def recursive_helper(x):
    return recursive_helper(x) + sumsq(x)


def _make_closure(k):
    def scaled(x):
        return k * sumsq(x)
    return scaled


closure_helper = _make_closure(2.0)


def calls_closure(x):
    return closure_helper(x)


# ----------------------------------------------------------------------------- drivers as users write them

def early_return_kernels(x):
    if x[0] > 0.6:
        return sumsq(x)
    return cubesum(x)


def if_else_returns(x, a):
    s = sumsq(x)
    if s > 1.5:
        y = x * a
        return np.sum(y * y) + s
    else:
        return a * cubesum(x) - s


def return_in_loop(x, a):
    t = 0.0
    for k in range(10):
        t += a * sumsq(x) * (k + 1)
        if t > 2.0:
            return t * x[1]
    return t


def break_in_for(u, w, c, steps):
    n = u.shape[0]
    unew = np.copy(u)
    for s in range(steps):
        if sumsq(u) < 1.0:
            break
        diffuse(u, unew, c)
        u, unew = unew, u
    return energy(u[1:n - 1], w[1:n - 1])


def cfl_while(u, c, t_end):
    """LULESH's own main loop shape: ``while t < t_end`` with a data-dependent dt and a break."""
    n = u.shape[0]
    unew = np.copy(u)
    t = 0.0
    cycle = 0
    while t < t_end:
        dt = 0.05 / (1.0 + sumsq(u))
        if t + dt > t_end:
            dt = t_end - t
        diffuse(u, unew, dt * c)
        u, unew = unew, u
        t += dt
        cycle += 1
        if cycle >= 50:
            break
    return sumsq(u) + t


def continue_in_loop(x, a):
    total = 0.0
    for k in range(6):
        if k % 2 == 1:
            continue
        total += a * sumsq(x) + k
    return total


def half_energy(u, w, scale=0.5):
    """A plain-Python helper with a default argument, a kernel call and an early return."""
    if scale <= 0.0:
        return 0.0
    e = energy(u, w)
    return scale * e


def stepper(u, unew, c, steps):
    """A helper that steps in place and returns the array holding the last state."""
    for s in range(steps):
        diffuse(u, unew, c=c)
        u, unew = unew, u
    return u


def uses_helpers(u, w, c, steps):
    n = u.shape[0]
    work = np.copy(u)
    last = stepper(u, work, c, steps)
    e = half_energy(last[1:n - 1], w=w[1:n - 1]) + 2.0 * half_energy(last, w, scale=c)
    return e + np.sum(last)


def break_then_read_index(x):
    # the loop variable after a break is the index it left at (3 here), not the last one (9)
    t = 0.0
    for k in range(10):
        t += sumsq(x) * (k + 1)
        if t > 2.0:
            break
    return t * k


def kernel_keywords(x, out, a):
    t = scale_sin(out=out, a=a, x=x)
    return t + sumsq(x=out)


def advection(u, w, c, n):
    for t in range(n):
        u = advect_step(u, c)
    return np.sum(u * w)


def advection_loop_kernel(u, w, c, n):
    for t in range(n):
        u = advect_step_loop(u, c)
        u[0] = 0.5 * u[1]
    return np.sum(u * w) + sumsq(u)


def sir(S0, I0, beta, dt, n):
    S, I = S0, I0
    for t in range(n):
        dS, dI = sir_rhs(S, I, beta)
        S = S + dt * dS
        I = I + dt * dI
    return I + 0.5 * S


def sir_patches(S, I, beta, dt, n):
    for t in range(n):
        dS, dI = sir_rhs_arrays(S, I, beta)
        S = S + dt * dS
        I += dt * dI
    return np.sum(I * I) + sumsq(S)


def field_and_mass(u, c, n):
    total = 0.0
    for t in range(n):
        u, m = step_and_mass(u, c)
        total = total + m * c
    v, m = step_and_mass(u, 0.5 * c)
    return total + np.sum(v * u) + m


def discarded_array_result(u, out, c):
    relax_into(u, out, c)
    d = relax_into(out, u, c)
    return sumsq(out) + np.sum(d * d) + sumsq(u)


def unpack_once_then_rebind(x, S, I, n):
    # one unpacked name stable (assigned once), the other rebound in a loop: both forms
    dS, dI = sir_rhs(S, I, 0.3)
    q, r = divmod(n, 2)
    for i in range(2):
        dI = dI + sumsq(x) * dS
        r = r + 1
    return dI * r + q


def tuple_to_one_name(x):
    r = step_and_mass(x, 0.3)
    return np.sum(r[0])


def unpacks_too_many(x):
    a, b, c = sir_rhs_arrays(x, 2.0 * x, 0.3)
    return np.sum(a)


def rhs_helper(S, I):
    return sir_rhs_arrays(S, I, 0.3)


def unpacks_a_helper(x):
    a, b = rhs_helper(x, 2.0 * x)
    return np.sum(a * b)


def returns_its_argument(x):
    y = 2.0 * passthrough(x)
    return np.sum(y)


# ----------------------------------------------------------------------------- tests

@pytest.mark.parametrize("fn,args", [
    (early_return_kernels, lambda: [vec(4)]),
    (early_return_kernels, lambda: [vec(4, 0.1, 0.5)]),
    (if_else_returns, lambda: [vec(4), 0.8]),
    (if_else_returns, lambda: [vec(4, 0.1, 0.3), 0.8]),
    (return_in_loop, lambda: [vec(3), 0.3]),
    (return_in_loop, lambda: [vec(3), 0.01]),
    (break_in_for, lambda: [vec(8), vec(8), 0.2, 8]),
    (cfl_while, lambda: [vec(8), 0.9, 0.4]),
    (continue_in_loop, lambda: [vec(3), 0.7]),
    (uses_helpers, lambda: [vec(8), vec(8), 0.2, 3]),
    (kernel_keywords, lambda: [vec(4), vec(4), 0.6]),
    (break_then_read_index, lambda: [np.array([0.3, 0.4])]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_drivers_as_users_write_them(fn, args):
    check(fn, args())


def test_early_exits_take_the_branch_and_count_of_the_run():
    """The break and early return really happen on the data of the FD checks above."""
    src = driver_source(break_in_for, ("dup", "dup", "active", "const"))
    assert "broke = True" in src and "for s in _seq" in src      # the for loop stays a for loop
    x = RNG.uniform(0.3, 1.2, 3)
    t, k = 0.0, 0
    for k in range(10):
        t += 0.3 * float(np.sum(x * x)) * (k + 1)
        if t > 2.0:
            break
    assert k < 9 and return_in_loop(x, 0.3) == pytest.approx(t * x[1], rel=1e-14)
    u = np.array([0.0, 0.5, 0.52, 0.48, 0.5, 0.51, 0.5, 0.0])   # sumsq ~1.5, below 1 after 3 steps
    w, tmp, steps = u.copy(), u.copy(), 0
    while float(np.sum(w * w)) >= 1.0 and steps < 40:
        diffuse(w, tmp, 0.2)
        w, tmp = tmp, w
        steps += 1
    assert steps == 3
    check(break_in_for, [u, vec(8), 0.2, 40])


def test_helper_statements_are_inlined_with_readable_names():
    src = driver_source(uses_helpers, ("dup", "dup", "active", "const"))
    assert "half_energy_scale" in src and "stepper_u" in src
    assert "_rt.kernel_adjoint(energy" in src and "_rt.kernel_adjoint(diffuse" in src
    assert "test_driver.py:" in src


@pytest.mark.parametrize("fn,args", [
    (advection, lambda: [vec(16), vec(16), 0.3, 6]),
    (advection_loop_kernel, lambda: [vec(12), vec(12), 0.4, 5]),
    (sir, lambda: [0.9, 0.1, 0.8, 0.5, 12]),
    (sir_patches, lambda: [vec(4, 0.5, 0.9), vec(4, 0.05, 0.2), 0.7, 0.4, 6]),
    (field_and_mass, lambda: [vec(6), 0.3, 4]),
    (discarded_array_result, lambda: [vec(5), vec(5), 0.4]),
    (returns_array, lambda: [vec(3)]),
    (unpack_once_then_rebind, lambda: [vec(4), 0.7, 0.2, 5]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_kernels_returning_arrays_and_tuples(fn, args):
    check(fn, args())


def test_kernel_results_against_an_independent_reference():
    """advection: the adjoint of u -> sum(u_n * w) is the transposed step applied n times."""
    u, w, c, n = vec(10), vec(10), 0.3, 4
    grads = adtrans.grad(advection, argnums=(0, 2))(u, w, c, n)
    J = np.eye(10)      # Jacobian of n steps by forward products of the step's Jacobian
    v = u.copy()
    for t in range(n):
        S = np.eye(10)
        for i in range(1, 9):
            S[i, i - 1:i + 2] = [c + 0.1, 1.0 - c - 0.2 - 0.15 * v[i] ** 2, 0.1]
        J = S @ J
        v = advect_step(v, c)
    np.testing.assert_allclose(grads[0], J.T @ w, rtol=1e-12, atol=1e-14)
    # SIR with floats: against a forward-mode (dual-number) sweep written by hand
    S, I, dS_db, dI_db, beta, dt = 0.9, 0.1, 0.0, 0.0, 0.8, 0.5
    for t in range(12):
        inf, dinf = beta * S * I, S * I + beta * dS_db * I + beta * S * dI_db
        S, I, dS_db, dI_db = S - dt * inf, I + dt * (inf - 0.1 * I), dS_db - dt * dinf, \
            dI_db + dt * (dinf - 0.1 * dI_db)
    assert adtrans.grad(sir, argnums=2)(0.9, 0.1, beta, dt, 12) == pytest.approx(dI_db + 0.5 * dS_db, rel=1e-12)


def test_kernel_results_with_checkpointed_loops():
    u, w = vec(16), vec(16)
    store_all = adtrans.grad(advection, argnums=(0, 2))(u, w, 0.3, 9)
    shadow = np.zeros(16)
    (dc,) = adtrans.autodiff(advection, adtrans.Duplicated(u, shadow), adtrans.Const(w), adtrans.Active(0.3),
                             adtrans.Const(9), checkpoints=3)
    np.testing.assert_array_equal(shadow, store_all[0])
    assert dc == store_all[1]
    src = driver_source(sir, ("active", "active", "active", "const", "const"), checkpoints=2)
    assert "reversed with checkpoints" in src
    outs = adtrans.autodiff(sir, *map(adtrans.Active, (0.9, 0.1, 0.8)), adtrans.Const(0.5), adtrans.Const(12),
                            checkpoints=2)
    ref = adtrans.autodiff(sir, *map(adtrans.Active, (0.9, 0.1, 0.8)), adtrans.Const(0.5), adtrans.Const(12))
    assert tuple(outs) == tuple(ref)


def test_unpacked_kernel_results_in_the_generated_source():
    src = driver_source(sir, ("active", "active", "active", "const", "const"))
    assert "dS, dI = _rt.check_result(sir_rhs(S, I, beta), sir_rhs, " in src
    assert "_rt.kernel_adjoint(sir_rhs, (S, I, beta, ), (S_b, I_b, beta_b, ), (" in src
    compile(src, "<adjoint>", "exec")


def test_a_kernel_returning_its_argument_is_refused_at_the_call():
    x = vec(3)
    with pytest.raises(adtrans.UnsupportedError, match="sharing memory with one of its arguments") as info:
        adtrans.autodiff(returns_its_argument, adtrans.Duplicated(x, np.zeros(3)))
    line = returns_its_argument.__code__.co_firstlineno + 1
    assert info.value.filename == os.path.abspath(__file__)
    assert (info.value.lineno, info.value.col) == (line, 15)   # the call, not the statement


# ----------------------------------------------------------------------------- existing tests

@pytest.mark.parametrize("fn,args", [
    (time_loop, lambda: [vec(8), vec(8), 0.2, 5]),
    (slices_and_arith, lambda: [vec(5), vec(5), 0.8]),
    (scalar_control, lambda: [vec(3), 0.9]),
    (scalar_control, lambda: [vec(3), 2.9]),
    (inplace_kernels, lambda: [vec(4)]),
    (augmented, lambda: [vec(4), vec(4), 0.7]),
    (functions, lambda: [vec(4), 1.3]),
    (matrix, lambda: [RNG.uniform(-1, 1, (3, 4)), vec(4)]),
    (nested_loops, lambda: [vec(6), 0.15]),
    (filled, lambda: [vec(4), 0.7]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_driver_matches_finite_differences(fn, args):
    check(fn, args())


def checked_step(u, w, v, c, steps):
    for s in range(steps):
        bad = first_negative(u)
        if bad >= 0:
            raise ValueError("negative entry")
        diffuse(u, w, c)
        diffuse(w, u, c)
    return sumsq(u) + energy(u, v)


def test_integer_results_and_unwritten_arrays_cost_nothing_in_the_reverse_sweep(monkeypatch):
    from adtrans.driver import runtime
    src = driver_source(checked_step, ("dup", "dup", "dup", "active", "const"))
    # v is only read: the final-state copy skips it
    assert "_rt.final_state((u, w, ))" in src
    calls = []
    real = runtime._kernel_adjoint_function
    monkeypatch.setattr(runtime, "_kernel_adjoint_function",
                        lambda k, a: calls.append(k.__name__) or real(k, a))
    u0, w, v = vec(8), vec(8), vec(8)
    du, dw, dv = np.zeros(8), np.zeros(8), np.zeros(8)
    (dc,) = adtrans.autodiff(checked_step, adtrans.Duplicated(u0.copy(), du), adtrans.Duplicated(w.copy(), dw),
                             adtrans.Duplicated(v, dv), adtrans.Active(0.05), 3)
    assert "first_negative" not in calls and "diffuse" in calls
    h = 1e-6
    fd = (checked_step(u0.copy(), w.copy(), v, 0.05 + h, 3) - checked_step(u0.copy(), w.copy(), v, 0.05 - h, 3)) / (2 * h)
    assert dc == pytest.approx(fd, rel=1e-6)
    check(checked_step, [u0, w, v, 0.05, 3])


def test_time_loop_activities_and_final_state():
    u0, w = vec(8), vec(8)
    u, du = u0.copy(), np.zeros(8)
    (dc,) = adtrans.autodiff(time_loop, adtrans.Duplicated(u, du), adtrans.Const(w), adtrans.Active(0.2), 4)
    final = u0.copy()
    time_loop(final, w, 0.2, 4)
    np.testing.assert_array_equal(u, final)        # arrays end as the driver leaves them
    h = 1e-6
    fd = (time_loop(u0.copy(), w, 0.2 + h, 4) - time_loop(u0.copy(), w, 0.2 - h, 4)) / (2 * h)
    assert dc == pytest.approx(fd, rel=1e-6)
    # grad() on a driver, and the seed scales everything
    g = adtrans.grad(time_loop)(u0.copy(), w, 0.2, 4)
    du2 = np.zeros(8)
    adtrans.autodiff(time_loop, adtrans.Duplicated(u0.copy(), du2), w, 0.2, 4, seed=3.0)
    np.testing.assert_allclose(du2, 3.0 * g, rtol=1e-13)


def test_both_branches_and_data_dependent_loops():
    x = vec(3)
    for flip in (True, False):
        for c in (0.3, 2.5):
            check(conditional_kernel, [x.copy(), c, flip], activity=["dup", "active", "const"])


def test_generated_source_is_readable_python():
    src = driver_source(time_loop, ("dup", "const", "active", "const"))
    assert src.startswith("def time_loop_adjoint(u, u_b, w, c, steps, seed=1.0):")
    assert "forward sweep" in src and "reverse sweep" in src
    assert "_rt.checkpoint(diffuse" in src and "_rt.kernel_adjoint(diffuse" in src
    assert "for s in reversed(_seq" in src
    assert "test_driver.py:" in src                  # comments point at the driver's lines
    compile(src, "<adjoint>", "exec")


def test_api_source_shows_the_driver_adjoint():
    try:
        src = adtrans.source(time_loop, ("dup", "const", "active", "const"))
    except Exception as exc:     # adtrans.api.source not yet dispatching plain functions to the driver
        pytest.skip(f"adtrans.source does not handle drivers yet ({type(exc).__name__})")
    assert src == driver_source(time_loop, ("dup", "const", "active", "const"))


def test_adjoint_is_cached_per_activity():
    a1 = driver_adjoint(time_loop, ("dup", "const", "active", "const"))
    a2 = driver_adjoint(time_loop, ("dup", "const", "active", "const"))
    a3 = driver_adjoint(time_loop, ("dup", "dup", "const", "const"))
    assert a1 is a2 and a3 is not a1


def test_driver_adjoint_and_refusal_are_kept_on_disk(tmp_path, monkeypatch):
    """A new process finds the driver's generated adjoint (and a driver's refusal) in the cache
    and does not transform the driver again."""
    import adtrans.driver as D
    monkeypatch.setenv("ADTRANS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(D, "_CACHE", {})
    act = ("dup", "const", "active", "const")
    first = driver_adjoint(time_loop, act)
    with pytest.raises(adtrans.UnsupportedError) as refused:
        adtrans.autodiff(sorts, adtrans.Duplicated(vec(3), np.zeros(3)))
    assert len(list(tmp_path.glob("*.generated.pickle"))) == 2
    # a "new process": nothing in memory, and the transformation must not run
    monkeypatch.setattr(D, "_CACHE", {})
    monkeypatch.setattr(D.DriverAdjoint, "_transform", lambda self: pytest.fail("transformed again"))
    again = driver_adjoint(time_loop, act)
    assert again is not first and again.source == first.source
    u0, w = vec(8), vec(8)
    du = np.zeros(8)
    (dc,) = again(u0.copy(), du, w, 0.2, 4, 1.0)
    h = 1e-6
    fd = (time_loop(u0.copy(), w, 0.2 + h, 4) - time_loop(u0.copy(), w, 0.2 - h, 4)) / (2 * h)
    assert dc == pytest.approx(fd, rel=1e-6)
    with pytest.raises(adtrans.UnsupportedError) as cached:
        adtrans.autodiff(sorts, adtrans.Duplicated(vec(3), np.zeros(3)))
    assert str(cached.value) == str(refused.value) and "np.partition" in str(cached.value)
    assert (cached.value.filename, cached.value.lineno, cached.value.col) == \
        (refused.value.filename, refused.value.lineno, refused.value.col)
    # another activity or checkpoint count is another entry
    with pytest.raises(pytest.fail.Exception, match="transformed again"):
        driver_adjoint(time_loop, act, checkpoints=2)


@pytest.mark.parametrize("fn,args,construct", [
    (loops_over_array, [vec(3)], "for loop over active values"),
    (recursive_helper, [vec(3)], "recursive call of the helper recursive_helper"),
    (calls_closure, [vec(3)], "is a closure"),
    (sorts, [vec(3)], "np.partition"),
    (fills, [vec(3)], "method .fill()"),
    (tuple_to_one_name, [vec(3)], "kernel step_and_mass returns a tuple to one name"),
    (unpacks_a_helper, [vec(3)], "unpacking the result of a plain-Python helper"),
    (unpacks_too_many, [vec(3)], "kernel sir_rhs_arrays returns tuple of 2, unpacked into 3 names"),
], ids=lambda v: getattr(v, "__name__", None) if callable(v) else None)
def test_unsupported_constructs_name_the_line(fn, args, construct):
    wrapped = [adtrans.Duplicated(a, np.zeros_like(a)) for a in args]
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.autodiff(fn, *wrapped)
    msg = str(info.value)
    assert construct in msg
    assert "test_driver.py:" in msg and info.value.lineno > 0


def test_overlapping_kernel_arguments_are_rejected():
    u = vec(5)
    with pytest.raises(adtrans.UnsupportedError, match="overlap"):
        adtrans.autodiff(aliased, adtrans.Duplicated(u, np.zeros(5)), adtrans.Active(0.1))


def test_activity_errors():
    with pytest.raises(adtrans.ActivityError):
        driver_adjoint(time_loop, ("dup", "const"))
    with pytest.raises(adtrans.ActivityError):
        driver_adjoint(time_loop, ("dup", "const", "bogus", "const"))


def test_user_names_that_generated_code_also_uses():
    x = vec(3)
    g = adtrans.grad(names_like_generated, argnums=(0, 1, 2))(x, 0.7, 0.2)
    np.testing.assert_allclose(g[0], 2 * x * 0.7 * 2, rtol=1e-13)
    assert g[1] == pytest.approx(2 * np.sum(x * x), rel=1e-13) and g[2] == pytest.approx(2.0)


def test_time_loop_tape_memory_is_one_copy_per_step():
    """The tape of a time loop keeps one copy of the overwritten array per step
    (+ the driver's own work array and its shadow)."""
    from adtrans.driver import last_tape_nbytes
    n = 500
    sizes = []
    for steps in (10, 20):
        adtrans.autodiff(time_loop, adtrans.Duplicated(vec(n), np.zeros(n)), vec(n), adtrans.Active(0.1), steps)
        sizes.append(last_tape_nbytes())
    assert sizes[1] - sizes[0] == 10 * 8 * n
    assert sizes[0] == (10 + 2) * 8 * n


def test_impure_calls_are_evaluated_once():
    """The reverse sweep recomputes expressions; random draws are hoisted so it reuses them."""
    global NOISE
    x, dx = vec(3), np.zeros(3)
    NOISE = np.random.default_rng(5)
    np.random.seed(1)
    adtrans.autodiff(noisy, adtrans.Duplicated(x.copy(), dx))
    NOISE = np.random.default_rng(5)
    np.random.seed(1)
    a, b = NOISE.normal(), np.random.rand()
    np.testing.assert_allclose(dx, 4 * (a * x + b) * a, rtol=1e-13)

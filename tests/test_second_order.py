"""Second order (issue 14 item 5): Hessian-vector products (forward over reverse) against central
differences of the gradient and second differences of the pure-Python function; k-means'
gradient, Hessian diagonal and Newton direction; the adjoint called from ``@njit`` code."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import adtrans
import kernels_arrays as KA
import kernels_second as K
from adtrans.arguments import primal_of, typeof_args
from adtrans.build import compiled
from adtrans.pipeline import generate_tangent
from adtrans.secondorder import tangent_adjoint
from adtrans.targets.cpu import CPU_PLAIN
from adtrans.transform.tangent import tangent_function

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gradbench as GB  # noqa: E402


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _shift(args, nums, vs, h):
    out = _copy(args)
    for k, v in zip(nums, vs):
        out[k] = out[k] + h * v
    return out


def check_hvp(fn, args, argnums, vs, rtol=1e-6, h=1e-5):
    """H v from adtrans.hvp vs (a) central differences of adtrans.grad along v, (b) v^T H v vs the
    second difference of the pure-Python function along v.  Returns H v."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    vs = (vs,) if isinstance(argnums, int) else tuple(vs)
    got = adtrans.hvp(fn, argnums)(*_copy(args), vs[0] if isinstance(argnums, int) else vs)
    got = (got,) if isinstance(argnums, int) else got
    gp = adtrans.grad(fn, nums)(*_shift(args, nums, vs, h))
    gm = adtrans.grad(fn, nums)(*_shift(args, nums, vs, -h))
    for k, hv, p, m in zip(nums, got, gp, gm):
        fd = (np.asarray(p) - np.asarray(m)) / (2 * h)
        scale = max(1.0, float(np.max(np.abs(fd))))
        assert np.max(np.abs(np.asarray(hv) - fd)) <= rtol * 1e2 * scale, \
            f"argument {k}: hvp {hv!r} vs central differences of the gradient {fd!r}"
    # an independent reference: the pure-Python function, no adtrans
    py = fn.py_func
    f0 = py(*_copy(args))

    def second_difference(h2):
        return (py(*_shift(args, nums, vs, h2)) - 2.0 * f0 + py(*_shift(args, nums, vs, -h2))) / h2 ** 2
    second = (4.0 * second_difference(5e-4) - second_difference(1e-3)) / 3.0     # Richardson: O(h^4)
    vhv = sum(float(np.sum(np.asarray(v) * np.asarray(hv))) for v, hv in zip(vs, got))
    assert abs(vhv - second) <= 1e-4 * max(1.0, abs(second)), f"v.Hv {vhv} vs second difference {second}"
    return got[0] if isinstance(argnums, int) else got


def rng():
    return np.random.default_rng(7)


@pytest.mark.parametrize("fn, make, argnums", [
    (K.poly, lambda r: [r.uniform(-1, 1, 9)], 0),
    (K.poly_numpy, lambda r: [r.uniform(-1, 1, 9)], 0),
    (K.coupled, lambda r: [r.uniform(-1, 1, 7), 0.7], (0, 1)),
    (K.quad_form, lambda r: [r.standard_normal((5, 5)), r.standard_normal(5)], 1),
    (K.quad_form, lambda r: [r.standard_normal((5, 5)), r.standard_normal(5)], (0, 1)),
    (K.quad_form_loops, lambda r: [r.standard_normal((5, 5)), r.standard_normal(5)], (0, 1)),
    (K.recurrence, lambda r: [r.uniform(0.5, 1.5, 12), 0.3], (0, 1)),
    (K.time_loop, lambda r: [r.uniform(0, 1, 8), 0.2, 6], (0, 1)),
    (K.newton_iterations, lambda r: [2.0, 1.3], (0, 1)),
    (K.branchy, lambda r: [r.uniform(-1, 1, 10), 0.1], (0, 1)),
    (K.array_steps, lambda r: [r.uniform(-1, 1, 8)], 0),
    (K.pairs_prange, lambda r: [r.uniform(-1, 1, 11)], 0),
    (K.sqrt_at_zero, lambda r: [np.array([0.0, 0.5, -1.0, 2.0])], 0),
    (K.piecewise, lambda r: [r.uniform(-1, 1, 9)], 0),
    (KA.heat_time_loop, lambda r: [r.uniform(0.2, 1.2, 9), 0.2, 3], (0, 1)),
    (GB.lse, lambda r: list(GB.lse_input(30, r)), 0),
    (GB.llsq, lambda r: list(GB.llsq_input(20, 5, r)), 0),
    (GB.gmm, lambda r: list(GB.gmm_input(3, 4, 5, r)), (0, 1, 2, 3)),
], ids=["poly", "poly_numpy", "coupled", "quad_form_x", "quad_form_Ax", "quad_form_loops", "recurrence",
        "time_loop_tape", "while", "branchy", "array_steps", "prange", "sqrt", "piecewise", "heat_numpy_time_loop", "lse", "llsq", "gmm"])
def test_hvp_matches_finite_differences(fn, make, argnums):
    r = rng()
    args = make(r)
    nums = (argnums,) if isinstance(argnums, int) else argnums
    vs = [r.standard_normal(np.shape(args[k])) if isinstance(args[k], np.ndarray) else float(r.standard_normal())
          for k in nums]
    check_hvp(fn, args, argnums, vs[0] if isinstance(argnums, int) else tuple(vs))


def test_hvp_of_a_quadratic_is_the_matrix_product():
    r = rng()
    A, x, v = r.standard_normal((6, 6)), r.standard_normal(6), r.standard_normal(6)

    @njit
    def quad(A, x):
        y = A @ x
        return np.dot(x, y)
    np.testing.assert_allclose(adtrans.hvp(quad, 1)(A, x, v), (A + A.T) @ v, rtol=1e-12, atol=1e-12)
    g, hv = adtrans.hvp(quad, 1, with_grad=True)(A, x, v)
    np.testing.assert_allclose(g, (A + A.T) @ x, rtol=1e-12, atol=1e-12)


def test_tapes_get_tangent_tapes():
    args = [np.linspace(0.1, 0.9, 8), 0.2, 6]
    tan, _, _ = tangent_adjoint(K.time_loop, ("dup", "const", "const"), typeof_args(args), ("u",))
    src = tan.function_source          # array snapshots: pushed and popped beside the values
    assert "dot_tape_float64 = tape_push_array(dot_tape_float64, top_float64, dot_u)[0]" in src
    assert "tape_pop_array(dot_tape_float64, top_float64, dot_u_before_loop)" in src
    args = [np.linspace(0.5, 1.5, 8), 0.3]
    tan, _, _ = tangent_adjoint(K.recurrence, ("dup", "const"), typeof_args(args), ("x",))
    src = tan.function_source          # scalars: stored and loaded beside the values (indexed by the counter)
    assert "dot_tape_float64[top_float64 + i] = dot_y" in src and "dot_y = dot_tape_float64[top_float64 + i]" in src
    assert "dot_tape_float64 = tape_grow(dot_tape_float64, " in src


def test_tangent_source_is_deterministic_and_drops_dead_tangents():
    p, c = GB.kmeans_input(20, 3, 2, rng())
    tan, _, _ = tangent_adjoint(GB.kmeans, ("const", "dup"), typeof_args((p, c)), ("centroids",))
    gen, _ = compiled(GB.kmeans, ("const", "dup"), typeof_args((p, c)), CPU_PLAIN)
    again = generate_tangent(primal_of(GB.kmeans), gen, ("const", "dup"), typeof_args((p, c)), ("centroids",))
    assert again.function_source == tan.function_source
    # the cost's own tangent (closest, dist) reaches no output: only d(d_centroids) is computed
    assert "dot_closest" not in tan.function_source and "dot_dist" not in tan.function_source
    assert "dot_d_centroids[j, e] += " in tan.function_source


@pytest.mark.parametrize("body, construct", [
    ("d_x[0] += seed * foo(x[0])", "a call of foo"),
    ("d_x[0] += seed * np.sum(x)", "a whole array carrying a tangent"),
    ("y = x.reshape(2, 2)\n    d_x[0] += seed * y[0, 0]", "an array binding"),
])
def test_tangent_refuses_what_it_cannot_differentiate(body, construct):
    func = ast.parse(f"\ndef f_adjoint(x, d_x, seed):\n    {body}\n").body[0]

    def error(what, hint, lineno):
        assert lineno == 3          # the line of the generated source
        return adtrans.UnsupportedError(what, hint, filename="kernel.py", lineno=lineno, col=1)
    with pytest.raises(adtrans.UnsupportedError, match=construct) as info:
        tangent_function(func, {"x", "d_x"}, ["x"], "f_tangent", error)
    assert "kernel.py:3:1" in str(info.value)


# ----------------------------------------------------------------------------- k-means


def kmeans_case(n=30, k=4, d=3):
    r = np.random.default_rng(11)
    return GB.kmeans_input(n, k, d, r)


def test_kmeans_gradient_and_hessian_diagonal_match_finite_differences():
    pts, cen = kmeans_case()
    py = GB.kmeans.py_func
    g, diag = adtrans.hessian_diag(GB.kmeans, 1, colors=np.zeros(cen.shape, int), with_grad=True)(pts, cen)
    h = 1e-4
    for j in range(cen.shape[0]):
        for e in range(cen.shape[1]):
            plus, minus = cen.copy(), cen.copy()
            plus[j, e] += h
            minus[j, e] -= h
            fp, f0, fm = py(pts, plus), py(pts, cen), py(pts, minus)
            assert abs(g[j, e] - (fp - fm) / (2 * h)) <= 1e-6 * max(1.0, abs(g[j, e]))
            assert abs(diag[j, e] - (fp - 2 * f0 + fm) / h ** 2) <= 1e-4 * max(1.0, abs(diag[j, e]))
            gp = adtrans.grad(GB.kmeans, 1)(pts, plus)
            gm = adtrans.grad(GB.kmeans, 1)(pts, minus)
            assert abs(diag[j, e] - (gp[j, e] - gm[j, e]) / (2 * h)) <= 1e-6 * max(1.0, abs(diag[j, e]))
    # independent reference: 2 * the number of points nearest to each centroid
    nearest = np.argmin(((pts[:, None, :] - cen[None, :, :]) ** 2).sum(-1), axis=1)
    counts = np.bincount(nearest, minlength=cen.shape[0]).astype(float)
    np.testing.assert_allclose(diag, np.repeat(2.0 * counts[:, None], cen.shape[1], axis=1), rtol=1e-12)


def test_kmeans_hessian_diagonal_same_for_every_colouring():
    pts, cen = kmeans_case(n=12, k=3, d=2)
    dense = adtrans.hessian_diag(GB.kmeans, 1)(pts, cen)       # one product per entry
    by_coordinate = adtrans.hessian_diag(GB.kmeans, 1, colors=np.tile(np.arange(2), (3, 1)))(pts, cen)
    one = adtrans.hessian_diag(GB.kmeans, 1, colors=np.zeros((3, 2), int))(pts, cen)
    np.testing.assert_array_equal(dense, by_coordinate)
    np.testing.assert_array_equal(dense, one)


def test_kmeans_newton_step_reduces_the_cost_to_the_assignment_minimum():
    pts, cen = kmeans_case(n=40, k=3, d=2)
    g, diag = adtrans.hessian_diag(GB.kmeans, 1, colors=np.zeros(cen.shape, int), with_grad=True)(pts, cen)
    step = np.where(diag > 0, g / np.where(diag > 0, diag, 1.0), 0.0)
    new = cen - step
    # one Newton step on the piecewise quadratic moves each centroid to the mean of its points
    nearest = np.argmin(((pts[:, None, :] - cen[None, :, :]) ** 2).sum(-1), axis=1)
    for j in range(3):
        if np.any(nearest == j):
            np.testing.assert_allclose(new[j], pts[nearest == j].mean(axis=0), rtol=1e-12, atol=1e-12)
    assert GB.kmeans(pts, new) < GB.kmeans(pts, cen)


def test_hessian_diag_of_a_float_argument_and_a_dense_hessian():
    r = rng()
    x, a = r.uniform(-1, 1, 5), 0.4
    diag = adtrans.hessian_diag(K.coupled, 0)(x, a)     # dense Hessian: one product per entry
    for i in range(5):
        e = np.zeros(5)
        e[i] = 1.0
        assert abs(diag[i] - adtrans.hvp(K.coupled, 0)(x, a, e)[i]) <= 1e-12 * max(1.0, abs(diag[i]))
    ha = adtrans.hessian_diag(K.coupled, 1)(x, a)
    h = 1e-3
    py = K.coupled.py_func
    assert abs(ha - (py(x, a + h) - 2 * py(x, a) + py(x, a - h)) / h ** 2) <= 1e-4 * max(1.0, abs(ha))


def test_second_order_refuses_non_float_arguments_and_array_results():
    with pytest.raises(adtrans.ActivityError):
        adtrans.hvp(K.time_loop, 2)(np.ones(5), 0.2, 3, 1.0)

    @njit
    def twice(x):
        return 2.0 * x
    with pytest.raises(adtrans.ActivityError):
        adtrans.hvp(twice, 0)(np.ones(3), np.ones(3))


# ------------------------------------------------------------------ adjoint called from @njit code

energy_adjoint = adtrans.adjoint(K.coupled, ("dup", "active")).jit
poly_adjoint = adtrans.adjoint(K.poly_numpy, ("dup",)).jit


@njit
def descend(x, a, lr, steps):
    g = np.zeros_like(x)
    da = 0.0
    for _ in range(steps):
        g[:] = 0.0
        (da,) = energy_adjoint(x, g, a, 1.0)
        x -= lr * g
    return x, da


@njit
def descend_no_seed(x, lr, steps):
    g = np.zeros_like(x)
    for _ in range(steps):
        g[:] = 0.0
        out = poly_adjoint(x, g)        # seed omitted: 1.0; no active scalar: returns ()
        x -= lr * g
    return x, len(out)


def test_adjoint_called_from_njit_matches_python_loop():
    x0 = np.linspace(-0.5, 0.5, 7)
    x, da = descend(x0.copy(), 0.7, 0.05, 8)
    xp = x0.copy()
    for _ in range(8):
        gx, gap = adtrans.grad(K.coupled, (0, 1))(xp, 0.7)
        xp -= 0.05 * gx
    np.testing.assert_allclose(x, xp, rtol=1e-14, atol=1e-15)
    assert da == pytest.approx(gap, rel=1e-14)
    assert not np.allclose(x, x0)


def test_adjoint_called_from_njit_without_seed_and_active_scalars():
    x0 = np.linspace(-0.5, 0.5, 6)
    x, n_out = descend_no_seed(x0.copy(), 0.1, 3)
    xp = x0.copy()
    for _ in range(3):
        xp -= 0.1 * adtrans.grad(K.poly_numpy)(xp)
    np.testing.assert_allclose(x, xp, rtol=1e-14, atol=1e-15)
    assert n_out == 0


def test_jit_entry_called_from_python_is_the_adjoint():
    x = np.linspace(-0.5, 0.5, 7)
    g = np.zeros_like(x)
    (da,) = energy_adjoint(x, g, 0.7, 1.0)
    gx, ga = adtrans.grad(K.coupled, (0, 1))(x, 0.7)
    np.testing.assert_allclose(g, gx, rtol=1e-14)
    assert da == pytest.approx(ga, rel=1e-14)


def plain_python_driver(x):
    return float(np.sum(x * x))


def test_second_order_of_a_driver_is_refused():
    with pytest.raises(adtrans.UnsupportedError, match="second order of a plain-Python driver"):
        adtrans.hvp(plain_python_driver)(np.ones(3), np.ones(3))


CACHED_CALLER = '''
import numpy as np
from numba import njit
import adtrans


@njit(cache=True)
def energy(x, k):
    e = 0.0
    for i in range(x.shape[0] - 1):
        d = x[i + 1] - x[i]
        e += k * d * d
    return e


step = adtrans.adjoint(energy, ("dup", "active")).jit


@njit(cache=True)
def descend(x, k):
    g = np.zeros_like(x)
    dk = 0.0
    for _ in range(5):
        g[:] = 0.0
        (dk,) = step(x, g, k)
        x -= 0.1 * g
    return x, dk
'''


def test_cached_njit_caller_of_the_adjoint_loads_in_a_new_process(tmp_path):
    # the second process loads the caller's machine code from Numba's cache; it names the generated
    # module, which adtrans must find in its cache directory before anything generated it there
    (tmp_path / "cached_caller.py").write_text(CACHED_CALLER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(Path(adtrans.__file__).parent.parent)]),
               NUMBA_CACHE_DIR=str(tmp_path / "numba"), ADTRANS_CACHE_DIR=str(tmp_path / "adtrans"))
    code = "import numpy as np, cached_caller as c; x, dk = c.descend(np.linspace(0, 1, 6) ** 2, 2.0); " \
           "print(repr(float(x.sum())), repr(dk))"
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr[-2000:]
    assert runs[0].stdout == runs[1].stdout
    assert list((tmp_path / "numba").rglob("*descend*")), "the caller was not cached"

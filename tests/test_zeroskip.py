"""Loops skipped where a selected adjoint is zero (adtrans/transform/zeroskip.py): gradients and
Hessian-vector products against central differences where the guards fire, the tangent's guard
naming the adjoint's tangent too, and the proof refusing loops whose effects do not vanish."""
import ast
import math

import numpy as np
from numba import njit, prange

import adtrans
import fdcheck
from adtrans.arguments import typeof_args
from adtrans.secondorder import tangent_adjoint
from adtrans.transform.zeroskip import skip_zero_adjoints


@njit
def nearest_cost(points, centroids):
    cost = 0.0
    for i in range(points.shape[0]):
        closest = math.inf
        for j in range(centroids.shape[0]):
            dist = 0.0
            for e in range(points.shape[1]):
                diff = points[i, e] - centroids[j, e]
                dist += diff * diff
            closest = min(closest, dist)
        cost += closest
    return cost


@njit
def gated_cost(points, centroids):
    """(c00 - 0.5) * k-means cost: at c00 = 0.5 every adjoint d_dist is zero, its tangent is not."""
    cost = 0.0
    for i in range(points.shape[0]):
        closest = math.inf
        for j in range(centroids.shape[0]):
            dist = 0.0
            for e in range(points.shape[1]):
                diff = points[i, e] - centroids[j, e]
                dist += diff * diff
            closest = min(closest, dist)
        cost += closest
    return (centroids[0, 0] - 0.5) * cost


@njit
def best_response(W, x, out):
    """out[i] = max_j W[j] . x[i] (a max selection per row), then a weighted sum."""
    total = 0.0
    for i in range(x.shape[0]):
        best = -math.inf
        for j in range(W.shape[0]):
            s = 0.0
            for e in range(x.shape[1]):
                s += W[j, e] * x[i, e]
            best = max(best, s)
        out[i] = best
        total += abs(best) * x[i, 0]
    return total


@njit(parallel=True)
def nearest_cost_prange(points, centroids, out):
    for i in prange(points.shape[0]):
        closest = math.inf
        for j in range(centroids.shape[0]):
            dist = 0.0
            for e in range(points.shape[1]):
                diff = points[i, e] - centroids[j, e]
                dist += diff * diff
            closest = min(closest, dist)
        out[i] = closest


def case(n=25, k=4, d=3, seed=3):
    r = np.random.default_rng(seed)
    return r.standard_normal((n, d)), r.standard_normal((k, d))


def test_kmeans_adjoint_is_guarded_and_matches_finite_differences():
    p, c = case()
    src = adtrans.source(nearest_cost, ("const", "dup"), p, c)
    assert "if d_dist != 0.0:" in src
    assert "# skipped where d_dist is 0: every update the loop makes is a multiple of it" in src
    fdcheck.check(nearest_cost, [p, c], activity=("const", "dup"))
    fdcheck.check(nearest_cost, [p, c])       # points differentiated too


def test_max_abs_selection_and_prange_match_finite_differences():
    p, c = case(seed=5)
    W = np.random.default_rng(6).standard_normal((5, 3))
    src = adtrans.source(best_response, ("dup", "dup", "dup"), W, p, np.zeros(p.shape[0]))
    assert "!= 0.0:" in src
    fdcheck.check(best_response, [W, p, np.zeros(p.shape[0])])
    src = adtrans.source(nearest_cost_prange, ("dup", "dup", "dup"), p, c, np.zeros(p.shape[0]))
    assert "if d_dist != 0.0:" in src
    fdcheck.check(nearest_cost_prange, [p, c, np.zeros(p.shape[0])])


def _hvp_vs_differences(fn, p, c, v, h=1e-5):
    got = adtrans.hvp(fn, 1)(p, c.copy(), v)
    gp = adtrans.grad(fn, 1)(p, c + h * v)
    gm = adtrans.grad(fn, 1)(p, c - h * v)
    fd = (gp - gm) / (2 * h)
    assert np.max(np.abs(got - fd)) <= 1e-5 * max(1.0, float(np.max(np.abs(fd)))), (got, fd)
    py = fn.py_func

    def second(h2):
        return (py(p, c + h2 * v) - 2.0 * py(p, c) + py(p, c - h2 * v)) / h2 ** 2
    vhv = (4.0 * second(5e-4) - second(1e-3)) / 3.0
    assert abs(float(np.sum(v * got)) - vhv) <= 1e-4 * max(1.0, abs(vhv)), (float(np.sum(v * got)), vhv)
    return got


def test_tangent_guard_names_the_adjoint_and_its_tangent():
    p, c = case(seed=8)
    c[0, 0] = 0.5               # every d_dist is 0 here; dot_d_dist is not
    tan, _, _ = tangent_adjoint(gated_cost, ("const", "dup"), typeof_args([p, c]), ("centroids",))
    assert "if d_dist != 0.0 or dot_d_dist != 0.0:" in tan.function_source
    v = np.random.default_rng(9).standard_normal(c.shape)
    hv = _hvp_vs_differences(gated_cost, p, c, v)
    assert np.max(np.abs(hv)) > 1.0         # the term through dot_d_dist is there
    _hvp_vs_differences(nearest_cost, p, c, v)
    g, d = adtrans.hessian_diag(nearest_cost, 1, colors=np.zeros(c.shape, int), with_grad=True)(p, c)
    counts = np.bincount(np.argmin(((p[:, None, :] - c[None, :, :]) ** 2).sum(-1), axis=1), minlength=c.shape[0])
    assert np.array_equal(d, 2.0 * counts[:, None] * np.ones(c.shape))
    assert np.allclose(g, adtrans.grad(nearest_cost, 1)(p, c), rtol=1e-12, atol=1e-12)


def _guarded(body: str) -> str:
    func = ast.parse("def f_adjoint(x, d_x, tape, c, seed):\n" + body).body[0]
    return ast.unparse(skip_zero_adjoints(func))


def test_only_loops_whose_effects_vanish_are_guarded():
    head = "    d_s = 0.0 if c > 0.0 else seed\n"
    assert "if d_s != 0.0:" in _guarded(head + "    for e in range(3):\n        d_x[e] += d_s * x[e]\n")
    # a plain store, a scalar read after the loop, a tape pop, a call: not guarded
    for body in ("    for e in range(3):\n        d_x[e] = d_s * x[e]\n",
                 "    for e in range(3):\n        t = d_s * x[e]\n        d_x[e] += t\n    d_x[0] += t\n",
                 "    for e in range(3):\n        top -= 1\n        d_x[e] += d_s * tape[top]\n    d_x[0] += tape[top]\n",
                 "    for e in range(3):\n        print(e)\n        d_x[e] += d_s * x[e]\n",
                 "    for e in range(3):\n        d_x[e] += d_s + x[e]\n"):
        assert "!= 0.0" not in _guarded(head + body), body
    # an adjoint that is never a selection, or zero only at a singular point: no guard (seldom skips)
    assert "!= 0.0" not in _guarded("    d_s = seed * c\n    for e in range(3):\n        d_x[e] += d_s * x[e]\n")
    assert "!= 0.0" not in _guarded("    d_s = 0.0 if c == 0.0 else seed / c\n    for e in range(3):\n"
                                    "        d_x[e] += d_s * x[e]\n")
    # a scalar accumulated by zeros is unchanged, a loop-local one dead after the loop: guarded
    text = _guarded(head + "    acc = 1.0\n    for e in range(3):\n        t = d_s * x[e]\n        acc += t\n"
                    "        d_x[e] -= -t\n    d_x[0] += acc\n")
    assert "if d_s != 0.0:" in text
    assert _guarded(head + "    for e in range(3):\n        d_x[e] += d_s * x[e]\n") == \
        _guarded(head + "    for e in range(3):\n        d_x[e] += d_s * x[e]\n")

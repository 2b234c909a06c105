"""Dense linear algebra kept as LAPACK calls in kernels and their adjoints (np.linalg.solve, inv,
det, slogdet, cholesky; rules in adtrans/rules/derivatives.py LAPACK, adtrans/rules/linalg.py):
gradients against central differences of the pure-Python function, the Cholesky convention, the
singular determinant, user-style kernels (GP likelihoods, a Newton step, a Kalman update) and
the refusals."""
import ast

import numpy as np
import pytest

import adtrans
import kernels_lapack as K
from fdcheck import adtrans_gradient, objective
from adtrans.rules.linalg import lapack_adjoint
from adtrans.targets.cpu_lapack import cholesky_adjoint, cofactors


def fd_check(fn, args, rtol=1e-6, atol=1e-7, h=1e-6, seed=1.0):
    """adtrans' gradient of ``seed * fn + sum <w_k, final array k>`` (every float array
    ``Duplicated``, every float ``Active``) against central differences of ``fn.py_func``."""
    gen = np.random.default_rng(7)
    weights = {k: gen.standard_normal(a.shape) for k, a in enumerate(args) if isinstance(a, np.ndarray)}
    grads, _ = adtrans_gradient(fn, args, weights, seed)
    py = fn.py_func
    for k, g in grads.items():
        a = args[k]
        for j in range(a.size if isinstance(a, np.ndarray) else 1):
            plus = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
            minus = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
            if isinstance(a, np.ndarray):
                plus[k].flat[j] += h
                minus[k].flat[j] -= h
                got = g.flat[j]
            else:
                plus[k] += h
                minus[k] -= h
                got = g
            fd = (objective(py, plus, weights, seed) - objective(py, minus, weights, seed)) / (2 * h)
            assert abs(got - fd) <= atol + rtol * max(abs(fd), 1.0) * 10, \
                f"{fn.__name__} arg {k} entry {j}: adtrans {got!r} vs finite differences {fd!r}"


def spd(n, seed=0):
    B = np.random.default_rng(seed).standard_normal((n, n))
    return B @ B.T + n * np.eye(n)


def general(n, seed=0):
    return np.random.default_rng(seed).standard_normal((n, n)) + n * np.eye(n)


# ----------------------------------------------------------- the rules themselves (NumPy)
@pytest.mark.parametrize("call,shapes", [
    ("np.linalg.solve(A, b)", ((4, 4), (4,))), ("np.linalg.solve(A, b)", ((4, 4), (4, 3))),
    ("np.linalg.inv(A)", ((4, 4),)), ("np.linalg.det(A)", ((4, 4),)),
    ("np.linalg.slogdet(A)[1]", ((4, 4),)), ("np.linalg.cholesky(A)", ((4, 4),)),
])
def test_rules_match_finite_differences(call, shapes):
    """J = <G, f(A, b)>: each rule's expressions, evaluated by NumPy, are dJ/dA and dJ/db."""
    rng = np.random.default_rng(5)
    ops = {"A": spd(4, 1) if "cholesky" in call else general(4, 1)}
    if len(shapes) > 1:
        ops["b"] = rng.standard_normal(shapes[1])
    value = ast.parse(call, mode="eval").body
    value.adtrans_lapack = "linalg." + call.split(".")[2].split("(")[0]
    env = dict(ops, np=np, cofactors=cofactors, cholesky_adjoint=cholesky_adjoint)
    z = eval(call, env)
    G = rng.standard_normal(np.shape(z)) if np.ndim(z) else 1.7
    env.update(z=z, d_z=G)
    temps, updates = lapack_adjoint(value, "z", "d_z", tuple(np.ndim(v) for v in ops.values()), lambda b: b)
    for t, e in temps:
        env[t] = eval(ast.unparse(e), env)

    def J(**kw):
        return float(np.sum(G * eval(call, dict(env, **kw))))
    assert {arr for arr, _, _ in updates} == set(ops)
    for arr, sub, e in updates:
        got = (-1 if sub else 1) * eval(ast.unparse(e), env)
        x = ops[arr]
        fd = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            xp, xm = x.copy(), x.copy()
            xp[i] += 1e-6
            xm[i] -= 1e-6
            fd[i] = (J(**{arr: xp}) - J(**{arr: xm})) / 2e-6
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-7)


def test_cofactors_at_a_singular_matrix():
    """det == 0: the cofactors come from the SVD, the true gradient of rank n - 1 and of rank n - 2."""
    A = general(4, 2)
    A[:, 0] = 2.0 * A[:, 1]
    fd = np.zeros_like(A)
    for i in np.ndindex(A.shape):
        E = np.zeros_like(A)
        E[i] = 1e-6
        fd[i] = (np.linalg.det(A + E) - np.linalg.det(A - E)) / 2e-6
    got = cofactors(A, 0.0)
    assert np.abs(fd).max() > 0.1
    np.testing.assert_allclose(got, fd, atol=1e-7)
    A[:, 2] = A[:, 1]
    np.testing.assert_allclose(cofactors(A, 0.0), 0.0, atol=1e-12)


# ------------------------------------------------------------ kernels vs finite differences
CASES = [
    (K.solve_vector, lambda: [general(5), np.linspace(-1, 1, 5), np.linspace(0.5, 2, 5)]),
    (K.solve_matrix, lambda: [general(4), np.random.default_rng(3).standard_normal((4, 3))]),
    (K.solve_view, lambda: [general(4), np.linspace(-1, 1, 5)]),
    (K.inv_sum, lambda: [general(4)]),
    (K.det_square, lambda: [general(3) / 3.0]),
    (K.slogdet_both, lambda: [general(4)]),
    (K.cholesky_of_gram, lambda: [np.random.default_rng(4).standard_normal((4, 4))]),
    (K.cholesky_direct, lambda: [spd(4, 3)]),      # plain FD: the lower triangle it reads gets the gradient
    (K.kalman_update, lambda: [np.linspace(-1, 1, 4), spd(4, 5) / 4, np.linspace(0, 1, 2),
                               np.random.default_rng(6).standard_normal((2, 4)), spd(2, 6) / 2]),
]


@pytest.mark.parametrize("fn,make", CASES, ids=[c[0].__name__ for c in CASES])
def test_kernel_gradients_match_finite_differences(fn, make):
    fd_check(fn, make())


def test_newton_step_in_place():
    """`x -= np.linalg.solve(J, F)` on the argument itself (the final x seeded)."""
    fd_check(K.newton_step, [np.linspace(0.2, 1.0, 6), np.linspace(1.0, 2.0, 6)])


def test_gp_nll_cholesky_and_loops():
    rng = np.random.default_rng(8)
    X, y = rng.standard_normal((6, 2)), rng.standard_normal(6)
    fd_check(K.gp_nll_cholesky, [X, y, 0.9, 1.3, 0.1])


def test_gp_nll_solve_slogdet_agrees_with_cholesky_form():
    rng = np.random.default_rng(9)
    X, y = rng.standard_normal((6, 2)), rng.standard_normal(6)
    args = [X, y, 0.9, 1.3, 0.1]
    fd_check(K.gp_nll_solve, args)
    assert K.gp_nll_solve(*args) == pytest.approx(K.gp_nll_cholesky(*args), rel=1e-12)
    g1 = adtrans.grad(K.gp_nll_solve, argnums=(0, 2, 3, 4))(*args)
    g2 = adtrans.grad(K.gp_nll_cholesky, argnums=(0, 2, 3, 4))(*args)
    for a, b in zip(g1, g2):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_cholesky_convention_lower_triangle():
    """A Duplicated: the strict upper triangle (which cholesky does not read) gets 0, and
    d_A[i, j] + d_A[j, i] is the derivative for a symmetric perturbation of both entries."""
    A = spd(4, 3)
    g = adtrans.grad(K.cholesky_direct)(A)
    assert np.all(np.triu(g, 1) == 0.0) and np.abs(np.tril(g, -1)).max() > 1e-3
    f = K.cholesky_direct.py_func
    for i, j in [(0, 0), (2, 1), (3, 0), (3, 3)]:
        E = np.zeros_like(A)
        E[i, j] = E[j, i] = 1e-6
        fd = (f(A + E) - f(A - E)) / 2e-6
        assert g[i, j] + (g[j, i] if i != j else 0.0) == pytest.approx(fd, rel=1e-6, abs=1e-8)


def test_det_of_a_singular_matrix_in_a_kernel():
    A = general(3, 4)
    A[:, 0] = 0.5 * A[:, 2]
    g = adtrans.grad(K.det_square)(A)
    fd = np.zeros_like(A)
    f = K.det_square.py_func
    for i in np.ndindex(A.shape):
        E = np.zeros_like(A)
        E[i] = 1e-6
        fd[i] = (f(A + E) - f(A - E)) / 2e-6
    assert np.abs(fd).max() > 0.1
    np.testing.assert_allclose(g, fd, atol=1e-7)


def test_newton_iterations_in_a_driver():
    """The Newton loop in a plain-Python driver, the step an @njit kernel with the solve."""
    def newton(x, c, steps):
        for k in range(steps):
            x = K.newton_map(x, c)
        return np.sum(x * x)
    x0, c = np.linspace(0.2, 1.0, 5), np.linspace(1.0, 2.0, 5)
    dx, dc = np.zeros_like(x0), np.zeros_like(c)
    adtrans.autodiff(newton, adtrans.Duplicated(x0.copy(), dx), adtrans.Duplicated(c.copy(), dc),
                     adtrans.Const(4), seed=1.0)
    for arr, g, k in ((x0, dx, 0), (c, dc, 1)):
        for i in range(arr.size):
            args_p = [x0.copy(), c.copy()]
            args_m = [x0.copy(), c.copy()]
            args_p[k][i] += 1e-6
            args_m[k][i] -= 1e-6
            fd = (newton(*args_p, 4) - newton(*args_m, 4)) / 2e-6
            assert g[i] == pytest.approx(fd, rel=1e-6, abs=1e-8)


def test_generated_source_keeps_lapack_calls():
    A, b, w = general(5), np.ones(5), np.ones(5)
    src = adtrans.source(K.solve_vector, ("dup", "dup", "const"), A, b, w)
    assert "x = np.linalg.solve(A, b)" in src
    assert "d_x_solved = np.linalg.solve(A.T, d_x)" in src
    assert "d_A -= np.outer(d_x_solved, x)" in src
    assert "# adjoint of: x = np.linalg.solve(A, b)" in src
    src = adtrans.source(K.solve_vector, ("const", "dup", "const"), A, b, w)
    assert "d_b += d_x_solved" in src and "np.outer" not in src
    assert adtrans.source(K.solve_vector, ("dup", "dup", "const"), A, b, w) == \
        adtrans.source(K.solve_vector, ("dup", "dup", "const"), A, b, w)
    src = adtrans.source(K.cholesky_of_gram, ("dup",), A)
    assert "L = np.linalg.cholesky(A)" in src and "d_A += cholesky_adjoint(L, d_L)" in src


# ----------------------------------------------------------------------------- refusals
def _marked(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, line in enumerate(lines) if text in line)


def test_operand_written_after_is_differentiated():
    """Was refused ("written later"): the operand is copied after the call (lapack_saves)."""
    fd_check(K.operand_written_after, [general(3), np.ones(3)])


def test_newton_in_loop_is_differentiated():
    """Was refused ("inside a loop"): the solve's operands are saved per iteration now."""
    fd_check(K.newton_in_loop, [np.ones(3), np.array([1.0, 2.0, 3.0])])


def test_second_order_is_refused_with_the_line():
    with pytest.raises(adtrans.UnsupportedError, match="second order") as info:
        adtrans.hvp(K.inv_sum)(general(3), np.ones((3, 3)))
    assert info.value.filename.endswith("kernels_lapack.py")


# ------------------------------------------------------------------------- the driver path
def lapack_driver(A, b, B):
    """Plain-Python NumPy calling the same functions (the driver reads the same LAPACK table)."""
    x = np.linalg.solve(A, b)
    X = np.linalg.solve(A, B)
    Ai = np.linalg.inv(A + 1.0)
    L = np.linalg.cholesky(A @ A.T + 4.0 * np.eye(4))
    return (np.sum(x * x) + np.sum(X ** 3) + np.sum(Ai) + np.linalg.det(A) + np.linalg.slogdet(A)[1]
            + np.sum(np.sin(L)))


def test_driver_uses_the_same_rules():
    rng = np.random.default_rng(0)
    A, b, B = general(4), rng.standard_normal(4), rng.standard_normal((4, 2))
    shadows = [np.zeros_like(A), np.zeros_like(b), np.zeros_like(B)]
    adtrans.autodiff(lapack_driver, *(adtrans.Duplicated(x.copy(), d) for x, d in zip((A, b, B), shadows)),
                     seed=1.0)
    for k, (x, g) in enumerate(zip((A, b, B), shadows)):
        for i in np.ndindex(x.shape):
            p, m = [A.copy(), b.copy(), B.copy()], [A.copy(), b.copy(), B.copy()]
            p[k][i] += 1e-6
            m[k][i] -= 1e-6
            fd = (lapack_driver(*p) - lapack_driver(*m)) / 2e-6
            assert g[i] == pytest.approx(fd, rel=1e-6, abs=1e-7), (k, i)


def test_cholesky_adjoint_stays_in_numbas_cache():
    """cholesky_adjoint calls BLAS dtrsm by symbol name: an adjoint using it can be cached on disk
    (a ctypes pointer would make Numba refuse: "Cannot cache ... dynamic globals")."""
    import warnings
    A = spd(4, 9)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        g = adtrans.grad(K.cholesky_logdet)(A)
    assert not [w for w in seen if "Cannot cache" in str(w.message)]
    np.testing.assert_allclose(g, np.tril(2.0 * np.linalg.inv(A) - np.diag(np.diag(np.linalg.inv(A)))),
                               rtol=1e-10, atol=1e-12)

"""np.linalg.eigh, eigvalsh, svd (singular values), norm(A, 2), cond, lstsq and pinv kept as LAPACK
calls in kernels and drivers (rules in LAPACK of adtrans/rules/derivatives.py, helpers in
adtrans/targets/cpu_lapack.py): the rules against central differences, kernels against central
differences of the pure-Python function, the primal values against Numba's, the degenerate
cases (a ValueError, never a silent NaN or a basis-dependent number) and the refusals."""
import ast

import numpy as np
import pytest

import adtrans
import kernels_spectral as K
import test_lapack as L
from adtrans.rules.linalg import lapack_adjoint
from adtrans.targets import cpu_lapack


def sym(n, seed=0):
    B = np.random.default_rng(seed).standard_normal((n, n))
    return B + B.T + np.diag(np.arange(n) * 2.0)


def tall(m, n, seed=0):
    return np.random.default_rng(seed).standard_normal((m, n)) + np.eye(m, n) * 2.0


# ----------------------------------------------------------- the rules themselves (NumPy)
@pytest.mark.parametrize("call,ops", [
    ("np.linalg.eigvalsh(A)", {"A": sym(4, 1)}),
    ("np.linalg.eigh(A)[0]", {"A": sym(4, 2)}),
    ("np.linalg.eigh(A)[1]", {"A": sym(4, 3)}),
    ("np.linalg.svd(A)[1]", {"A": tall(5, 3, 4)}),
    ("np.linalg.svd(A.T)[1]", {"A": tall(5, 3, 5)}),
    ("np.linalg.svd(A, full_matrices=False)[0]", {"A": tall(5, 3, 14)}),
    pytest.param("np.linalg.svd(A, full_matrices=False)[2]", {"A": tall(5, 3, 15)}, marks=pytest.mark.slow),
    pytest.param("np.linalg.svd(A.T, full_matrices=False)[0]", {"A": tall(5, 3, 16)}, marks=pytest.mark.slow),
    pytest.param("np.linalg.svd(A.T, full_matrices=False)[2]", {"A": tall(5, 3, 17)}, marks=pytest.mark.slow),
    pytest.param("np.linalg.svd(A)[0]", {"A": tall(4, 4, 18)}, marks=pytest.mark.slow),
    ("np.linalg.lstsq(A, b)[0]", {"A": tall(6, 3, 6), "b": np.linspace(-1, 1, 6)}),
    pytest.param("np.linalg.lstsq(A, b)[0]", {"A": tall(6, 3, 7), "b": np.random.default_rng(8).standard_normal((6, 2))},
                 marks=pytest.mark.slow),      # normal_solve compiled again for a matrix G: 10 s
    ("np.linalg.lstsq(A, b)[3]", {"A": tall(5, 4, 9), "b": np.ones(5)}),
    ("np.linalg.qr(A)[0]", {"A": tall(5, 3, 21)}),
    pytest.param("np.linalg.qr(A)[1]", {"A": tall(4, 4, 22)}, marks=pytest.mark.slow),
    ("np.linalg.pinv(A)", {"A": tall(5, 3, 10)}),
    ("np.linalg.pinv(A)", {"A": tall(5, 3, 11).T.copy()}),
])
def test_rules_match_finite_differences(call, ops):
    """J = <G, f(A, b)>: each rule's expressions, evaluated by NumPy, are dJ/dA and dJ/db (every
    entry perturbed alone: eigh reads the lower triangle, so the upper one gets 0)."""
    rng = np.random.default_rng(5)
    func = "linalg." + call.split(".")[2].split("(")[0]
    value = ast.parse(call.replace("A.T", "A"), mode="eval").body
    value.adtrans_lapack = func
    if "A.T" in call:
        ops = {"A": ops["A"].T.copy()}
    env = dict(ops, np=np, **{h: getattr(cpu_lapack, h) for h in ("eigh_values_vjp", "eigh_vectors_vjp",
                                                                  "svd_values_vjp", "svd_u_vjp", "svd_vt_vjp", "normal_solve",
                                                                  "pinv_vjp", "qr_q_vjp", "qr_r_vjp")})
    run = call.replace("A.T", "A")
    z = eval(run, env)
    G = rng.standard_normal(np.shape(z))
    env.update(z=z, d_z=G)
    temps, updates = lapack_adjoint(value, "z", "d_z", tuple(np.ndim(v) for v in ops.values()), lambda b: b)
    for t, e in temps:
        env[t] = eval(ast.unparse(e), env)

    def J(**kw):
        return float(np.sum(G * eval(run, dict(env, **kw))))
    for arr, sub, e in updates:
        got = (-1 if sub else 1) * eval(ast.unparse(e), env)
        x = ops[arr]
        fd = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            xp, xm = x.copy(), x.copy()
            xp[i] += 1e-6
            xm[i] -= 1e-6
            fd[i] = (J(**{arr: xp}) - J(**{arr: xm})) / 2e-6
        assert np.abs(fd).max() > 1e-3
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-7)


# ------------------------------------------------------------ kernels vs finite differences
SLOW = pytest.mark.slow        # each compiles a kernel's adjoint with LAPACK calls (5-30 s on 2 busy cores)
CASES = [
    (K.eigh_both, lambda: [sym(4, 2), np.linspace(0.5, 2.0, 4)]),
    pytest.param(K.lstsq_fit, lambda: [tall(6, 3, 6), np.linspace(-1, 1, 6)], marks=SLOW),
    pytest.param(K.eigvalsh_energy, lambda: [np.random.default_rng(1).standard_normal((4, 4))], marks=SLOW),
    pytest.param(K.eigh_vectors_only, lambda: [sym(4, 3)], marks=SLOW),
    pytest.param(K.eigh_matrix_function, lambda: [sym(4, 4) / 4.0], marks=SLOW),
    pytest.param(K.svd_values, lambda: [tall(5, 3, 1)], marks=SLOW),
    pytest.param(K.svd_unpacked, lambda: [tall(4, 4, 2)], marks=SLOW),
    pytest.param(K.svd_vectors, lambda: [tall(5, 3, 19)], marks=SLOW),
    pytest.param(K.spectral_norm, lambda: [tall(4, 3, 3), tall(3, 4, 4)], marks=SLOW),
    pytest.param(K.condition, lambda: [tall(4, 4, 5)], marks=SLOW),
    pytest.param(K.lstsq_matrix, lambda: [tall(6, 3, 7), np.random.default_rng(8).standard_normal((6, 2))],
                 marks=SLOW),
    pytest.param(K.pinv_sum, lambda: [tall(5, 3, 9)], marks=SLOW),
    pytest.param(K.qr_both, lambda: [tall(5, 3, 23)], marks=SLOW),
    pytest.param(K.pinv_wide, lambda: [tall(5, 3, 10).T.copy()], marks=SLOW),
]


@pytest.mark.parametrize("fn,make", CASES, ids=[(c.values if hasattr(c, "values") else c)[0].__name__ for c in CASES])
def test_kernel_gradients_match_finite_differences(fn, make):
    args = make()
    L.fd_check(fn, args)
    assert fn(*[a.copy() for a in args]) == pytest.approx(fn.py_func(*[a.copy() for a in args]), rel=1e-12)


# ------------------------------------------------------------------- degenerate spectra
def _repeated_matrix():
    Q = np.linalg.qr(np.random.default_rng(3).standard_normal((4, 4)))[0]
    return Q @ np.diag([1.0, 1.0, 2.0, 3.5]) @ Q.T


def test_repeated_eigenvalues_symmetric_functions_pass():
    """A sum over the eigenvalues is differentiable at a repeated eigenvalue: its gradient
    (d tr(A^3) / dA on the lower triangle) comes out; a single repeated eigenvalue raises."""
    A = _repeated_matrix()
    w = np.linalg.eigvalsh(A)
    got = cpu_lapack.eigh_values_vjp(A, w, 3.0 * w * w)
    S = 3.0 * A @ A
    want = np.tril(2.0 * S) - np.diag(np.diag(S))
    np.testing.assert_allclose(got, want, atol=1e-12)
    with pytest.raises(ValueError, match="repeated eigenvalue"):
        cpu_lapack.eigh_values_vjp(A, w, np.array([1.0, 0.0, 0.0, 0.0]))


@pytest.mark.slow
def test_repeated_eigenvalues_eigenvectors_raise_or_are_unread():
    """Eigenvectors of a repeated eigenvalue have no derivative: the adjoint raises ValueError
    (never NaN) when the result reads them; reading only a simple eigenvector passes."""
    A = _repeated_matrix()
    with pytest.raises(ValueError, match="repeated"):
        adtrans.grad(K.eigh_matrix_function)(A)
    g = adtrans.grad(K.eigh_vectors_only)(A)      # reads V[:, -1] only (eigenvalue 3.5, simple)
    assert np.all(np.isfinite(g))
    f = K.eigh_vectors_only.py_func
    for i, j in [(0, 0), (2, 1), (3, 0)]:
        E = np.zeros_like(A)
        E[i, j] = 1e-6
        assert g[i, j] == pytest.approx((f(A + E) - f(A - E)) / 2e-6, rel=1e-5, abs=1e-8)


def test_full_matrices_vectors_raise():
    """U of full_matrices=True on a tall matrix has columns without a derivative: ValueError."""
    A = tall(5, 3, 20)
    U = np.linalg.svd(A)[0]
    with pytest.raises(ValueError, match="full_matrices=False"):
        cpu_lapack.svd_u_vjp(A, U, np.ones_like(U))


def test_repeated_and_zero_singular_values():
    A = np.diag([2.0, 2.0, 1.0])
    s = np.linalg.svd(A)[1]
    np.testing.assert_allclose(cpu_lapack.svd_values_vjp(A, s, np.ones(3)), np.eye(3), atol=1e-12)  # nuclear norm
    with pytest.raises(ValueError, match="repeated singular value"):
        cpu_lapack.svd_values_vjp(A, s, np.array([1.0, 0.0, 0.0]))     # the spectral norm at a tie
    B = np.diag([2.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="zero singular value"):
        cpu_lapack.svd_values_vjp(B, np.linalg.svd(B)[1], np.ones(3))


def test_rank_deficient_lstsq_and_pinv_raise():
    A = tall(5, 3, 1)
    A[:, 2] = A[:, 0] - A[:, 1]
    with pytest.raises(ValueError, match="full column rank"):
        cpu_lapack.normal_solve(A, np.ones(3))
    with pytest.raises(ValueError, match="full rank"):
        cpu_lapack.pinv_vjp(A, np.linalg.pinv(A), np.ones((3, 5)))


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("fn,args,construct", [
    (K.lstsq_residuals, [tall(4, 2), np.ones(4)], "element 1 (residuals)"),
])
def test_refusals_name_the_line(fn, args, construct):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(fn, ("dup",) * len(args), *args)
    err = info.value
    assert err.filename.endswith("kernels_spectral.py")
    assert err.lineno == L._marked(fn, "# <-"), str(err)
    assert construct in str(err) and err.hint


def test_eigvalsh_operand_written_later_is_differentiated():
    """Was refused ("written later"): the operand is copied after the call (lapack_saves)."""
    L.fd_check(K.eigh_overwritten, [sym(3)])


def test_eigvalsh_in_loop_is_differentiated():
    """Was refused ("inside a loop"): the call's operand and result are saved per iteration now."""
    L.fd_check(K.eigh_in_loop, [sym(3)])


def test_generated_source_keeps_lapack_calls():
    A = tall(6, 3, 6)
    src = adtrans.source(K.lstsq_fit, ("dup", "dup"), A, np.ones(6))
    # one call for the parts read (x, sv); residuals and rank: unread
    assert "    x, _, _2, sv = np.linalg.lstsq(A, b)\n" in src and src.count("= np.linalg.lstsq(") == 2   # and its comment
    assert "normal_solve(A, d_x)" in src and "d_A += svd_values_vjp(A, sv, d_sv)" in src
    src = adtrans.source(K.spectral_norm, ("dup", "dup"), A.T.copy(), A)
    assert src.count("np.linalg.svd(") == 2 and "full_matrices=False" in src


@pytest.mark.parametrize("fn,args,call", [
    (K.eigh_parts, [sym(4, 2), np.linspace(0.5, 2.0, 4)], "w, V = np.linalg.eigh("),
    (K.eigh_parts_in_loop, [sym(4, 2), np.linspace(0.5, 2.0, 4)], "w, V = np.linalg.eigh(operand)"),
    (K.eigh_both, [sym(4, 2), np.linspace(0.5, 2.0, 4)], "w, V = np.linalg.eigh("),
    (K.svd_unpacked, [tall(4, 4, 2)], "np.linalg.svd("),
    (K.qr_both, [tall(5, 3, 23)], "np.linalg.qr("),
])
def test_one_lapack_call_per_tuple_result(fn, args, call):
    """``w, V = np.linalg.eigh(A)`` runs eigh once in the adjoint's forward sweep (its parts were
    two calls, ``eigh(A)[0]`` and ``eigh(A)[1]``; adtrans/transform/lapack_merge.py)."""
    src = adtrans.source(fn, ("dup",) + ("const",) * (len(args) - 1), *args)
    name = call.split("(")[0].split()[-1]
    code = "\n".join(ln for ln in src.splitlines() if not ln.lstrip().startswith("#"))
    assert call in code and code.count(name + "(") == 1, src


def test_eigh_parts_gradients():
    """A sign-invariant loss of both parts of one eigh call, at function level and in a loop."""
    args = [sym(4, 2), np.linspace(0.5, 2.0, 4)]
    L.fd_check(K.eigh_parts, args)
    L.fd_check(K.eigh_parts_in_loop, args)


# ------------------------------------------------------------------------- the driver path
def spectral_driver(S, A, b):
    """Plain-Python NumPy calling the same functions (the driver reads the same LAPACK table)."""
    w = np.linalg.eigh(S)[0]
    V = np.linalg.eigh(S)[1]
    x = np.linalg.lstsq(A, b, rcond=None)[0]
    R = np.linalg.qr(A)[1]
    return np.sum(R ** 3) + (np.sum(w ** 3) + np.sum(V[:, -1] ** 3) + np.sum(np.linalg.eigvalsh(S + 1.0))
            + np.sum(np.linalg.svd(A)[1] ** 2) + np.sum(np.sin(x)) + np.sum(np.linalg.pinv(A) ** 3))


@pytest.mark.slow
def test_driver_uses_the_same_rules():
    S, A, b = sym(4, 7), tall(5, 3, 8), np.linspace(-1.0, 1.0, 5)
    shadows = [np.zeros_like(S), np.zeros_like(A), np.zeros_like(b)]
    adtrans.autodiff(spectral_driver, *(adtrans.Duplicated(x.copy(), d) for x, d in zip((S, A, b), shadows)),
                     seed=1.0)
    for k, (x, g) in enumerate(zip((S, A, b), shadows)):
        for i in np.ndindex(x.shape):
            p, m = [S.copy(), A.copy(), b.copy()], [S.copy(), A.copy(), b.copy()]
            p[k][i] += 1e-6
            m[k][i] -= 1e-6
            fd = (spectral_driver(*p) - spectral_driver(*m)) / 2e-6
            assert g[i] == pytest.approx(fd, rel=1e-6, abs=1e-7), (k, i)


def norms_driver(A, B):
    """The spectral and nuclear norms and the condition number in a driver (NumPy compiles 'nuc')."""
    return np.linalg.norm(A @ B, 2) + np.linalg.norm(A, "nuc") + np.linalg.cond(B @ B.T, None) + \
        np.linalg.norm(B, -2)


def test_driver_norms_and_condition():
    A, B = tall(4, 3, 12), tall(3, 4, 13)
    dA, dB = np.zeros_like(A), np.zeros_like(B)
    adtrans.autodiff(norms_driver, adtrans.Duplicated(A.copy(), dA), adtrans.Duplicated(B.copy(), dB), seed=1.0)
    for k, (x, g) in enumerate(((A, dA), (B, dB))):
        for i in np.ndindex(x.shape):
            p, m = [A.copy(), B.copy()], [A.copy(), B.copy()]
            p[k][i] += 1e-6
            m[k][i] -= 1e-6
            assert g[i] == pytest.approx((norms_driver(*p) - norms_driver(*m)) / 2e-6, rel=1e-6, abs=1e-7), (k, i)

"""Dense linear algebra that stays BLAS in the adjoint (adtrans/rules/linalg.py): gradients
against central differences and against the closed-form matrix gradients computed with NumPy,
the transpose table itself, and the generated source (a BLAS `@` where the primal has one)."""
import ast

import numpy as np
import pytest
from numba import njit

import adtrans
import kernels_arrays as KA
import kernels_linalg as K
from adtrans.rules.linalg import product_adjoint
from adtrans.targets.cpu_blas import matmul_add
from fdcheck import check


def u(*shape, lo=-1.0, hi=1.0, seed=0):
    return np.random.default_rng(seed + sum(shape)).uniform(lo, hi, shape)


# ------------------------------------------------------------- the transpose table
@pytest.mark.parametrize("left,right,shapes", [
    ("A", "B", ((3, 4), (4, 5))), ("A.T", "B", ((4, 3), (4, 5))), ("A", "B.T", ((3, 4), (5, 4))),
    ("A.T", "B.T", ((4, 3), (5, 4))), ("A", "B", ((3, 4), (4,))), ("A.T", "B", ((4, 3), (4,))),
    ("A", "B", ((4,), (4, 5))), ("A", "B.T", ((4,), (5, 4))),
])
def test_transpose_rules_match_finite_differences(left, right, shapes):
    """J(A, B) = <G, X @ Y>: each rule's expression, evaluated by NumPy, is dJ/dA and dJ/dB."""
    rng = np.random.default_rng(3)
    A, B = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    prod = ast.parse(f"{left} @ {right}", mode="eval").body
    ndims = (len(shapes[0]), len(shapes[1]))
    G = rng.standard_normal(eval(ast.unparse(prod), {"A": A, "B": B}).shape)
    env = {"A": A, "B": B, "d_P": G, "np": np}
    rules = dict(product_adjoint(prod, ndims, "d_P"))

    def J(a, b):
        return float(np.sum(G * eval(ast.unparse(prod), {"A": a, "B": b})))
    for arr, x in (("A", A), ("B", B)):
        got = eval(ast.unparse(rules[arr]), env)
        fd = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            xp, xm = x.copy(), x.copy()
            xp[i] += 1e-6
            xm[i] -= 1e-6
            fd[i] = ((J(xp, B) - J(xm, B)) if arr == "A" else (J(A, xp) - J(A, xm))) / 2e-6
        np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-8)


# ------------------------------------------------------ gradients vs finite differences
CASES = [
    (K.mm_out, lambda: [u(3, 4), u(4, 5), u(3, 5)]),
    (K.mm_tn, lambda: [u(4, 3), u(4, 5), u(3, 5)]),
    (K.mm_nt, lambda: [u(3, 4), u(5, 4)]),
    (K.mm_tt, lambda: [u(4, 3), u(5, 4)]),
    (K.mv_variants, lambda: [u(3, 4), u(4), u(3), u(3), u(4), u(4), u(3)]),
    (K.chain, lambda: [u(3, 4), u(4, 3), u(3, 5), u(5)]),
    (K.gram, lambda: [1.3, u(3, 4), u(3, 3)]),
    (K.operand_written_later, lambda: [u(3, 4), u(4, 5)]),
    (K.product_in_time_loop, lambda: [u(4, 4, lo=-0.5, hi=0.5), u(4), 3]),
    (K.outer_and_vdot, lambda: [u(3), u(3, seed=1), u(3, 3)]),
    (K.product_then_prange, lambda: [u(3, 4), u(4, 5), u(5)]),
    (K.gemm_loops, lambda: [1.5, u(3, 5), u(3, 4), u(4, 5)]),
    (K.global_operand, lambda: [u(3, 4)]),
    (K.result_written_later, lambda: [u(3, 4), u(4, 5), 3]),
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_linalg_kernel_matches_finite_differences(fn, args):
    check(fn, args())


def _seeded_fd(fn, args, seeds, k, h=1e-6):
    def f(a):
        vals = list(args)
        vals[k] = a
        out = fn(*vals)
        out = out if isinstance(out, tuple) else (out,)
        return sum(float(np.sum(o * w)) for o, w in zip(out, seeds))
    x, g = args[k], np.zeros_like(args[k])
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += h
        xm[i] -= h
        g[i] = (f(xp) - f(xm)) / (2 * h)
    return g


def test_returned_product_takes_an_array_seed():
    A, B, W = u(3, 4), u(4, 5), u(3, 5)
    dA, dB = np.zeros_like(A), np.zeros_like(B)
    adtrans.autodiff(K.returns_product, adtrans.Duplicated(A, dA), adtrans.Duplicated(B, dB), seed=W)
    np.testing.assert_allclose(dA, W @ B.T, rtol=1e-12)
    np.testing.assert_allclose(dB, A.T @ W, rtol=1e-12)
    np.testing.assert_allclose(dA, _seeded_fd(K.returns_product, [A, B], [W], 0), rtol=1e-7, atol=1e-9)


def test_strided_arguments_get_the_closed_form():
    """A non-contiguous argument (and shadow): Numba's BLAS call copies it; += writes the view."""
    base, x = u(4, 10), u(5)
    A, dA, dx = base[:, ::2], np.zeros((4, 10))[:, ::2], np.zeros(5)
    adtrans.autodiff(K.tanh_matvec, adtrans.Duplicated(A, dA), adtrans.Duplicated(x, dx))
    g = 1.0 - np.tanh(A @ x) ** 2
    np.testing.assert_allclose(dA, np.outer(g, x), rtol=1e-12)
    np.testing.assert_allclose(dx, A.T @ g, rtol=1e-12)


def test_returned_matvec_and_vecmat():
    A, x, w1, w2 = u(3, 3), u(3), u(3, seed=1), u(3, seed=2)
    dA, dx = np.zeros_like(A), np.zeros_like(x)
    adtrans.autodiff(K.returns_matvec, adtrans.Duplicated(A, dA), adtrans.Duplicated(x, dx), seed=(w1, w2))
    np.testing.assert_allclose(dA, np.outer(w1, x) + np.outer(x, w2), rtol=1e-12)
    np.testing.assert_allclose(dx, A.T @ w1 + A @ w2, rtol=1e-12)


# ---------------------------------------------- closed-form matrix gradients (PolyBench)
def _run(fn, args, weights):
    """autodiff with every float array Duplicated (shadow = its weight) and floats Active."""
    wrapped, shadows = [], {}
    for k, a in enumerate(args):
        if isinstance(a, np.ndarray):
            shadows[k] = weights[k].copy() if k in weights else np.zeros_like(a)
            wrapped.append(adtrans.Duplicated(a.copy(), shadows[k]))
        else:
            wrapped.append(adtrans.Active(a))
    scalars = adtrans.autodiff(fn, *wrapped)
    return shadows, scalars


def test_gemm_gradient_is_the_closed_form():
    alpha, beta, C, A, B = 1.5, 1.2, u(3, 5), u(3, 4), u(4, 5)
    W = u(3, 5, seed=7)
    sh, (da, db) = _run(KA.gemm, [alpha, beta, C, A, B], {2: W})
    np.testing.assert_allclose(sh[3], alpha * W @ B.T, rtol=1e-12)
    np.testing.assert_allclose(sh[4], alpha * A.T @ W, rtol=1e-12)
    np.testing.assert_allclose(sh[2], beta * W, rtol=1e-12)
    assert da == pytest.approx(np.sum(W * (A @ B)), rel=1e-12)
    assert db == pytest.approx(np.sum(W * C), rel=1e-12)


def test_two_mm_gradient_is_the_closed_form():
    alpha, beta, A, B, C, D = 1.5, 1.2, u(3, 4), u(4, 5), u(5, 2), u(3, 2)
    W = u(3, 2, seed=7)
    sh, (da, db) = _run(KA.two_mm, [alpha, beta, A, B, C, D], {5: W})
    dtmp = W @ C.T
    np.testing.assert_allclose(sh[2], alpha * dtmp @ B.T, rtol=1e-12)
    np.testing.assert_allclose(sh[3], alpha * A.T @ dtmp, rtol=1e-12)
    np.testing.assert_allclose(sh[4], (alpha * A @ B).T @ W, rtol=1e-12)
    np.testing.assert_allclose(sh[5], beta * W, rtol=1e-12)
    assert da == pytest.approx(np.sum(dtmp * (A @ B)), rel=1e-12)
    assert db == pytest.approx(np.sum(W * D), rel=1e-12)


def test_atax_bicg_mvt_gesummv_gradients_are_the_closed_forms():
    A, x, y, w = u(4, 5), u(5), u(5), u(5, seed=7)
    sh, _ = _run(KA.atax, [A, x, y], {2: w})
    np.testing.assert_allclose(sh[1], A.T @ (A @ w), rtol=1e-12)
    np.testing.assert_allclose(sh[0], np.outer(A @ x, w) + np.outer(A @ w, x), rtol=1e-12)
    np.testing.assert_allclose(sh[2], 0.0)

    A, s, q, p, r = u(4, 5), u(5), u(4), u(5), u(4)
    ws, wq = u(5, seed=7), u(4, seed=8)
    sh, _ = _run(KA.bicg, [A, s, q, p, r], {1: ws, 2: wq})
    np.testing.assert_allclose(sh[4], A @ ws, rtol=1e-12)
    np.testing.assert_allclose(sh[3], A.T @ wq, rtol=1e-12)
    np.testing.assert_allclose(sh[0], np.outer(r, ws) + np.outer(wq, p), rtol=1e-12)

    x1, x2, y1, y2, A = u(4), u(4), u(4), u(4), u(4, 4)
    w1, w2 = u(4, seed=7), u(4, seed=8)
    sh, _ = _run(KA.mvt, [x1, x2, y1, y2, A], {0: w1, 1: w2})
    np.testing.assert_allclose(sh[2], A.T @ w1, rtol=1e-12)
    np.testing.assert_allclose(sh[3], A @ w2, rtol=1e-12)
    np.testing.assert_allclose(sh[4], np.outer(w1, y1) + np.outer(y2, w2), rtol=1e-12)

    alpha, beta, A, B, x, y, wy = 1.5, 1.2, u(4, 4), u(4, 4, seed=3), u(4), u(4), u(4, seed=7)
    sh, (da, db) = _run(KA.gesummv, [alpha, beta, A, B, x, y], {5: wy})
    np.testing.assert_allclose(sh[2], alpha * np.outer(wy, x), rtol=1e-12)
    np.testing.assert_allclose(sh[3], beta * np.outer(wy, x), rtol=1e-12)
    np.testing.assert_allclose(sh[4], alpha * A.T @ wy + beta * B.T @ wy, rtol=1e-12)
    assert da == pytest.approx(wy @ (A @ x), rel=1e-12)
    assert db == pytest.approx(wy @ (B @ x), rel=1e-12)


def test_syrk_gradient_is_the_closed_form():
    alpha, beta, C, A = 1.5, 1.2, u(4, 4), u(4, 3)
    W = u(4, 4, seed=7)
    sh, (da, db) = _run(KA.syrk, [alpha, beta, C, A], {2: W})
    Wl = np.tril(W)
    np.testing.assert_allclose(sh[3], alpha * (Wl + Wl.T) @ A, rtol=1e-12)
    np.testing.assert_allclose(sh[2], beta * Wl, rtol=1e-12)
    assert da == pytest.approx(np.sum(Wl * (A @ A.T)), rel=1e-12)
    assert db == pytest.approx(np.sum(Wl * C), rel=1e-12)


# -------------------------------------------------------------- the generated source
def _code(text):
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_adjoint_of_a_product_is_blas_and_reads_like_the_math():
    A, B, W = u(4, 3), u(4, 5), u(3, 5)
    code = _code(adtrans.source(K.mm_tn, ("dup", "dup", "const"), A, B, W))
    # the adjoint needs the product's shape only: the forward product is dropped
    assert "d_prod = np.zeros((A.shape[1], B.shape[1]))" in code and not any(ln.startswith("prod = ") for ln in code)
    # accumulations into the shadows are one GEMM each (beta = 1, no temporary: targets/cpu_blas.py)
    assert "matmul_add(d_A, B, d_prod.T)" in code and "matmul_add(d_B, A, d_prod)" in code
    assert not any(ln.startswith("for k") for ln in code)       # no i-k-j loop nest left
    code = _code(adtrans.source(K.mm_nt, ("dup", "dup"), u(3, 4), u(5, 4)))
    assert "P = A @ B.T" in code and "matmul_add(d_A, d_P, B)" in code and "matmul_add(d_B, d_P.T, A)" in code


def test_products_whose_operands_change_later_or_sit_in_loops_stay_loops():
    for fn, act, args in ((K.operand_written_later, ("dup", "dup"), [u(3, 4), u(4, 5)]),
                          (K.product_in_time_loop, ("dup", "dup", "const"), [u(4, 4), u(4), 3])):
        text = adtrans.source(fn, act, *args)
        # no matrix product operator in the code (a shape-check message may quote `A @ B`)
        assert not any(isinstance(n, ast.MatMult) for n in ast.walk(ast.parse(text))), text


def test_vector_products_that_are_numbers():
    """`r @ r` and `w @ S @ w` in a scalar context: FD-checked and against the closed forms
    2 A^T (A x - b) + 2 lam x and (S + S^T) w."""
    A, x, b = u(6, 3), u(3, seed=1), u(6, seed=2)
    check(K.ridge_loss, [A, x, b, 0.3])
    np.testing.assert_allclose(adtrans.grad(K.ridge_loss, argnums=1)(A, x, b, 0.3),
                               2 * A.T @ (A @ x - b) + 0.6 * x, rtol=1e-12)
    S = u(3, 3, seed=4)
    check(K.quadratic_form, [x, S])
    np.testing.assert_allclose(adtrans.grad(K.quadratic_form)(x, S), (S + S.T) @ x, rtol=1e-12)


# ------------------------------------------- accumulation into shadows (targets/cpu_blas.py)
def test_product_adjoints_add_to_what_the_shadows_hold():
    """d_A += G @ B.T is one GEMM adding into d_A (beta = 1): shadows holding values on entry
    (an earlier gradient, a seed) keep them; the product's own shadow is the product itself.
    Closed forms of sum((A B) C * D): dA = (D C^T) B^T, dB = A^T (D C^T), dC = (A B)^T D."""
    A, B, C, D = u(3, 4), u(4, 5), u(5, 2), u(3, 2)
    code = _code(adtrans.source(K.two_mm_sum, ("dup", "dup", "dup", "const"), A, B, C, D))
    assert "d_prod = d_prod_1 @ C.T" in code and not any(ln.startswith("d_prod = np.zeros") for ln in code)
    start = [u(*x.shape, seed=11 + k) for k, x in enumerate((A, B, C))]
    dA, dB, dC = (s.copy() for s in start)
    adtrans.autodiff(K.two_mm_sum, adtrans.Duplicated(A, dA), adtrans.Duplicated(B, dB), adtrans.Duplicated(C, dC), D)
    G = D @ C.T
    np.testing.assert_allclose(dA, start[0] + G @ B.T, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(dB, start[1] + A.T @ G, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(dC, start[2] + (A @ B).T @ D, rtol=1e-12, atol=1e-14)
    check(K.two_mm_sum, [A, B, C, D], activity=("dup", "dup", "dup", "const"))


@pytest.mark.parametrize("la,lb", [("C", "C"), ("C", "F"), ("F", "C"), ("F", "F"), ("A", "C"), ("C", "A")])
def test_matmul_add_is_out_plus_the_product(la, lb):
    @njit
    def run(o, a, b):
        matmul_add(o, a, b)

    def layout(x, kind):
        if kind == "F":
            return np.asfortranarray(x)
        if kind == "A":                     # strided: the fallback `out += a @ b`
            return np.repeat(x, 2, axis=1)[:, ::2]
        return x
    for m, k, n in ((3, 4, 5), (1, 1, 1), (6, 2, 1), (0, 3, 2), (3, 0, 2)):
        a, b = layout(u(m, k), la), layout(u(k, n, seed=3), lb)
        out = u(m, n, seed=5)
        want = out + np.asarray(a) @ np.asarray(b)
        run(out, a, b)
        np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-13)
    S, T = u(4, 4), u(4, 4, seed=9)
    want = S + S @ T
    run(S, S, T)                            # out is an operand: computed before it is added
    np.testing.assert_allclose(S, want, rtol=1e-13, atol=1e-13)
    with pytest.raises(ValueError, match="shapes"):
        run(np.zeros((2, 2)), np.zeros((2, 3)), np.zeros((2, 2)))

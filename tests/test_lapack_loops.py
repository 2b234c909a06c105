"""LAPACK calls (np.linalg.*) inside for/while loops, branches and inlined helpers (issue 13):
gradients against central differences of the pure-Python function (tests/fdcheck.py), what the
generated adjoint saves (adtrans/transform/lapack_saves.py), the prange refusal, and the if/else
rebinding of an array first bound in the if body, and top-level calls whose operands or results
are written later (copied after the call)."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_lapack_loops as K
import kernels_unsupported as U
from fdcheck import check

RNG = np.random.default_rng(3)
YS = RNG.standard_normal((5, 2))
F = np.array([[1.0, 0.1], [0.0, 0.9]])
H = np.array([[1.0, 0.0], [0.5, 1.0]])


def spd(n, seed=0):
    B = np.random.default_rng(seed).standard_normal((n, n))
    return B @ B.T + n * np.eye(n)


def general(n, seed=0):
    return np.random.default_rng(seed).standard_normal((n, n)) + n * np.eye(n)


def kalman_args():
    return [YS, np.array([0.1, -0.2]), np.eye(2), F, H, 0.1 * np.eye(2), 0.3 * np.eye(2)]


C = np.array([1.0, 2.0, 3.0])
B3 = np.array([0.3, -0.2, 0.5])
CASES = {
    "newton_for": lambda: [np.ones(3), C],
    "newton_while": lambda: [np.ones(3), C, 1e-20],
    "kalman_inv": kalman_args,
    "kalman_solve": kalman_args,
    "slogdet_time_loop": lambda: [general(3), 0.1 * general(3, 1)],
    "cholesky_steps": lambda: [spd(3), B3],
    "eigh_values_time_loop": lambda: [spd(3), 0.2 * np.random.default_rng(4).standard_normal((3, 3))],
    "eigh_vectors_time_loop": lambda: [np.diag([1.0, 2.0, 4.0]) + 0.1 * spd(3),
                                       0.2 * np.random.default_rng(5).standard_normal((3, 3))],
    "lstsq_per_step": lambda: [np.random.default_rng(6).standard_normal((5, 3)),
                               0.1 * np.random.default_rng(7).standard_normal((5, 3)),
                               np.random.default_rng(8).standard_normal(5)],
    "branch_in_loop": lambda: [general(3), B3],
    "newton_helper_loop": lambda: [np.ones(3), C],
    "independent_dets": lambda: [general(3), np.array([0.5, 1.0, 2.0])],
    "solves_around_a_write": lambda: [general(3), B3],
}
SLOW = {"newton_while", "kalman_inv", "kalman_solve", "cholesky_steps", "branch_in_loop",
        "solves_around_a_write"}   # 20-200 s each


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(CASES)])
def test_gradient_matches_finite_differences(name):
    fn, args = getattr(K, name), CASES[name]()
    activity = ["dup" if isinstance(a, np.ndarray) else "const" for a in args]
    assert check(fn, args, activity=activity) < 1e-6


@pytest.mark.parametrize("c", [1.0, -1.0])
def test_lapack_in_a_branch_both_paths(c):
    """solve on one path, inv on the other, the operand overwritten after the if (copied)."""
    assert check(K.solve_in_branch, [general(3), B3, c], activity=["dup", "dup", "const"]) < 1e-6


@pytest.mark.parametrize("c", [1.0, -1.0])
def test_array_bound_in_if_and_rebound_in_else(c):
    """Was a spurious shape error on the else path (the else wrote into the if body's array)."""
    fn = K.bound_in_if_rebound_in_else
    args = [general(3), B3, c]
    assert fn(*args) == pytest.approx(fn.py_func(*args), rel=1e-12)
    assert check(fn, args, activity=["dup", "dup", "const"]) < 1e-6


def test_det_in_loop_was_refused():
    """tests/kernels_unsupported.py's calls_det_in_loop (once the refusal's example)."""
    assert check(U.calls_det_in_loop, [general(3)]) < 1e-6


def test_what_the_adjoint_saves():
    """A taped loop pushes the arrays the rule reads (J and the solution) and reads them back from the
    tape; arguments never written (the branch's b) are not saved; a copy where the branch's
    operand is overwritten later."""
    src = adtrans.source(K.newton_for, ("dup", "dup"), np.ones(3), C)
    assert "tape_push_array(tape_float64, top_float64, J)" in src
    assert "np.linalg.solve(J_saved.T, d_solve)" in src and "np.outer(d_solve_solved, solve_saved)" in src
    src = adtrans.source(K.solve_in_branch, ("dup", "dup", "const"), general(3), B3, 1.0)
    assert "M_saved = M.copy()" in src and "np.linalg.solve(M_saved.T" in src and "b_saved" not in src
    assert src == adtrans.source(K.solve_in_branch, ("dup", "dup", "const"), general(3), B3, 1.0)


TOP_LEVEL = {     # a top-level call (or one in a helper inlined there), operands written after it
    "solve_then_written": lambda: [general(3), B3],
    "inv_then_squared": lambda: [general(3), B3],
    "slogdet_then_helper": lambda: [general(3), B3],
    "helper_solve_then_written": lambda: [general(3), B3],
    "eigh_then_written": lambda: [np.diag([1.0, 2.0, 4.0]) + 0.1 * spd(3)],
    "solve_then_read": lambda: [general(3), B3],
}
SLOW_TOP = {"inv_then_squared", "slogdet_then_helper", "eigh_then_written", "solve_then_read"}   # ~25 s each


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_TOP else n
                                  for n in sorted(TOP_LEVEL)])
def test_top_level_operand_written_later(name):
    """Was refused ("written later"): the operands and results the adjoint reads are copied after
    the call; differences of the pure-Python function (check copies the inputs per call)."""
    fn, args = getattr(K, name), TOP_LEVEL[name]()
    assert check(fn, args, activity=["dup"] * len(args), primal=fn.py_func) < 1e-6


def test_top_level_copies_only_what_is_written_later():
    A = general(3)
    src = adtrans.source(K.solve_then_written, ("dup", "dup"), A, B3)
    assert "A_saved = A.copy()" in src and "np.linalg.solve(A_saved.T, d_x)" in src
    assert "b_saved" not in src and "x_saved" not in src       # b: not read by the adjoint; x: not written
    assert src.index("A_saved = A.copy()") < src.index("A[0, 0] += 1.0")
    src = adtrans.source(K.inv_then_squared, ("dup", "dup"), A, B3)
    assert "Ai_saved = Ai.copy()" in src and "A_saved" not in src   # inv's adjoint reads its result only
    src = adtrans.source(K.helper_solve_then_written, ("dup", "dup"), A, B3)
    assert src.count(".copy()") == 1 and "A_saved = A.copy()" in src
    src = adtrans.source(K.eigh_then_written, ("dup",), A + A.T)
    assert "V_saved = V.copy()" in src and "w_saved" not in src
    assert src.count("A_saved = A.copy()") == 1 and "A_saved_1" not in src    # one copy for w and V
    src = adtrans.source(K.solve_then_read, ("dup", "dup"), A, B3)
    assert "_saved" not in src and ".copy()" not in src
    assert src == adtrans.source(K.solve_then_read, ("dup", "dup"), A, B3)


def test_an_array_read_by_calls_of_one_step_is_pushed_once():
    """S is read by the adjoints of solve(S, H @ P), solve(S, v) and slogdet(S) of one Kalman step
    and not changed between them: pushed once per step (after the last), popped once."""
    src = adtrans.source(K.kalman_solve, ("const",) + ("dup",) * 6, *kalman_args())
    assert src.count("tape_push_array(tape_float64, top_float64, S)") == 1
    assert src.count("np.linalg.solve(S_saved.T, d_solve") == 2 and "np.linalg.inv(S_saved).T" in src
    assert "S_saved_1" not in src
    # a write between two calls: saved for the first; the last two share one save
    src = adtrans.source(K.solves_around_a_write, ("dup", "dup"), general(3), B3)
    assert src.count("tape_push_array(tape_float64, top_float64, M)") == 2
    assert "np.linalg.solve(M_saved.T, d_y)" in src and "np.linalg.solve(M_saved_1.T, d_z)" in src
    assert "np.linalg.inv(M_saved_1).T" in src


def test_lapack_in_prange_is_refused_with_the_line():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(K.det_in_prange, ("dup", "const"), general(3), np.ones(4))
    err = info.value
    lines, first = inspect.getsourcelines(K.det_in_prange.py_func)
    assert err.filename.endswith("kernels_lapack_loops.py")
    assert err.lineno == first + next(k for k, line in enumerate(lines) if "# <-" in line), str(err)
    assert "prange" in str(err) and err.hint

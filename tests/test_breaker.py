"""Adversarial checks of last session's rules (tests/kernels_breaker.py): first accumulations as
assignments, prange scatters checked one-to-one at run time, draws, closures, and the
``np.ascontiguousarray`` alias, which Numba makes only for a C-contiguous array (a view or a
strided argument is copied)."""
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import adtrans  # noqa: E402
import kernels_breaker as K  # noqa: E402
from fdcheck import check  # noqa: E402

X = np.linspace(-0.8, 0.9, 7)
Y = np.linspace(0.1, 0.5, 7)
V = np.random.default_rng(3).uniform(0.2, 1.0, 8)


def test_ascontiguousarray_of_a_view_only_read_is_a_copy():
    # `np.ascontiguousarray(a.T)` copies, or (for an (n, 1) or (1, n) array) is a.T itself; as
    # nothing writes either, both give the same gradient
    for A in (np.arange(1.0, 7.0).reshape(2, 3) / 3, np.arange(1.0, 4.0).reshape(1, 3) / 3):
        check(K.al_contig_view_read, [A], activity=("dup",), primal=K.al_contig_view_read.py_func)


def test_ascontiguousarray_of_a_written_view_is_refused():
    # before the layout-aware rule, `z = np.ascontiguousarray(a.T)` was a second name of a.T:
    # 12.25 against 7.21; a copy is right only while a.T is not contiguous at run time (an (n, 1)
    # array makes it so, and Numba then returns the view), so a write into z or a is refused
    A = np.arange(1.0, 7.0).reshape(2, 3) / 3
    for fn, args in ((K.al_contig_view, [A]), (K.al_contig_col, [A, 1.7])):
        with pytest.raises(adtrans.UnsupportedError, match="ascontiguousarray") as e:
            adtrans.grad(fn, argnums=tuple(range(len(args))))(*args)
        assert "kernels_breaker.py" in str(e.value) and "np.copy" in str(e.value)


def _fd_strided(fn, base, h=1e-6):
    out = np.zeros(base.size)
    for j in range(0, base.size, 2):
        p, m = base.copy(), base.copy()
        p[j] += h
        m[j] -= h
        out[j] = (fn(p[::2]) - fn(m[::2])) / (2 * h)
    return out[::2]


def test_ascontiguousarray_of_a_strided_argument_is_a_copy():
    # before: a strided argument (Numba layout "A") was aliased, Numba copies it: dx[0] 3.9 vs 3.3
    base = np.linspace(0.1, 1.0, 10)
    x, dx = base.copy()[::2], np.zeros(10)[::2]
    adtrans.autodiff(K.al_contig_write, adtrans.Duplicated(x, dx))
    np.testing.assert_allclose(dx, _fd_strided(K.al_contig_write, base), rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(x, base[::2])          # the kernel wrote its copy only
    # a contiguous argument is the array itself (the write reaches x): the other adjoint
    c = np.linspace(0.1, 1.0, 5)
    check(K.al_contig_write, [c], activity=("dup",), primal=K.al_contig_write.py_func)


def test_ascontiguousarray_of_a_contiguous_view_is_the_view():
    # before: `np.ascontiguousarray(x[1:])` and `np.ascontiguousarray(a[1])` were copies; Numba (and
    # NumPy) return the view itself, so `y *= c` scales x: adtrans 2.81 against 4.25 (slice), 5.56
    # against 11.94 (row)
    A = np.arange(1.0, 7.0).reshape(2, 3) / 3
    for fn, a in ((K.al_contig_slice, np.linspace(0.1, 1.0, 5)), (K.al_contig_row, A)):
        check(fn, [a.copy(), 1.7], activity=("dup", "active"), primal=fn.py_func)


FIRSTWRITE = {
    "ode stage": (K.fw_ode, [X, 3, Y], ("dup", "const", "dup")),
    "ode stage, one element": (K.fw_ode, [X[:1], 3, Y[:1]], ("dup", "const", "dup")),
    "ode stage, no steps": (K.fw_ode, [X, 0, Y], ("dup", "const", "dup")),
    "stage read twice": (K.fw_ode_twice, [X, 3, Y], ("dup", "const", "dup")),
    "stage filled short of its extent": (K.fw_ode_m, [X, 3, Y, 4], ("dup", "const", "dup", "const")),
    "stage read before it is written": (K.fw_ode_stale, [X, 3, Y], ("dup", "const", "dup")),
    "stage element 0 written once before": (K.fw_ode_k0_once, [X, 3, Y], ("dup", "const", "dup")),
    "filled under a branch": (K.fw_skip, [X, 3], ("dup", "const")),
}


@pytest.mark.parametrize("case", list(FIRSTWRITE))
def test_stage_arrays_against_differences(case):
    fn, args, act = FIRSTWRITE[case]
    check(fn, [a.copy() if isinstance(a, np.ndarray) else a for a in args], activity=act, primal=fn.py_func)


PERM = np.array([3, 1, 7, 0, 2, 6, 5, 4])


def test_scatter_check_is_redone_on_every_call():
    # one compiled adjoint, a permutation, duplicates, a -1 that aliases 7, then the permutation again,
    # with one thread and with two
    act = ("dup", "const", "dup")
    for threads in (2, 1):
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        for idx in (PERM, np.array([3, 1, 3, 0, 2, 6, 3, 4]), np.array([-1, 1, 7, 0, 2, 6, 5, 4]), PERM):
            check(K.inj_scatter, [V.copy(), idx, np.zeros(8)], activity=act, primal=K.inj_scatter.py_func)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_scatter_from_an_inner_loop_with_duplicates_across_iterations():
    act = ("dup", "const", "dup")
    for idx in ([[0, 1], [2, 3], [4, 5], [6, 7]], [[0, 1], [2, 3], [4, 5], [6, 1]], [[0, -1], [2, 3], [4, 5], [6, 7]]):
        check(K.inj_inner, [V[:4].copy(), np.array(idx), np.zeros(8)], activity=act, primal=K.inj_inner.py_func)


def test_draws_in_branches_and_nested_loops():
    check(K.dr_branch, [X.copy(), 9], activity=("dup", "const"), primal=K.dr_branch.py_func)
    check(K.dr_nested, [X.copy(), 5], activity=("dup", "const"), primal=K.dr_nested.py_func)


def test_closures_late_binding_and_captured_arrays():
    for fn in (K.cl_late, K.cl_late_loop, K.cl_array):
        check(fn, [X.copy(), 0.7], activity=("dup", "active"), primal=fn.py_func)


def test_draws_without_a_seed_leave_the_generator_as_one_primal_call():
    @numba.njit
    def reseed(s):
        np.random.seed(s)

    @numba.njit
    def peek():
        return np.random.random()

    x = X[:5].copy()
    reseed(11)
    K.dr_noseed(x.copy(), 0.3)
    after_primal = peek()
    grads = []
    for _ in range(2):
        reseed(11)
        d = np.zeros(5)
        (ds,) = adtrans.autodiff(K.dr_noseed, adtrans.Duplicated(x.copy(), d), adtrans.Active(0.3))
        assert peek() == after_primal
        grads.append((d, ds))

    def J(xx, s):
        reseed(11)
        return K.dr_noseed(xx, s)
    h = 1e-6
    fd = np.array([(J(x + h * e, 0.3) - J(x - h * e, 0.3)) / (2 * h) for e in np.eye(5)])
    np.testing.assert_allclose(grads[0][0], fd, rtol=1e-6, atol=1e-8)
    assert abs(grads[0][1] - (J(x, 0.3 + h) - J(x, 0.3 - h)) / (2 * h)) < 1e-6
    np.testing.assert_array_equal(grads[0][0], grads[1][0])


def test_index_arrays_of_varying_length_in_a_taped_loop():
    # before: the reverse sweep popped each iteration's positions at the last iteration's length
    # (d/dx[2] 3.8 or 1.62 against 2.52, and heap corruption); then refused; now each reverse
    # iteration gets its iteration's positions back (transform/varlen.py), and so does the loop form
    m = np.array([0.5, 0.7, 0.9, 0.3, 0.65])
    x = np.linspace(1.0, 2.0, 5)
    for fn in (K.varying_positions, K.varying_mask):
        check(fn, [x, m], activity=("dup", "const"), primal=fn.py_func)
    check(K.varying_mask_loops, [x, m], activity=("dup", "const"), primal=K.varying_mask_loops.py_func)

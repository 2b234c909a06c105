"""Boolean masks, integer-array scatter writes and slice bounds beyond the axis (kernels in
tests/kernels_masks.py): gradients against central finite differences in float64, in both styles
users write (whole-array NumPy and explicit loops, serial and prange); Numba's semantics for
repeated indices; refusals naming file:line."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_masks as K
import kernels_unsupported as U
from fdcheck import check

RNG = np.random.default_rng(29)
M = np.array([True, False, True, True, False, False, True])
IDX = np.array([3, 0, 2, 3, -1, 2])            # repeats, and -1 (the last element)


def u(*shape, lo=0.1, hi=1.1):
    return RNG.uniform(lo, hi, shape)


def marked_line(fn):
    lines, first = inspect.getsourcelines(getattr(fn, "py_func", fn))
    return first + next(k for k, line in enumerate(lines) if "# <-" in line)


def primal_agrees(fn, args):
    """The kernel as Numba runs it and as Python runs it give the same value (the FD objective is
    Numba's)."""
    cp = lambda: [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    np.testing.assert_allclose(fn(*cp()), fn.py_func(*cp()), rtol=1e-12)


# ------------------------------------------------------------------------------ masks
@pytest.mark.parametrize("fn,args", [
    (K.mask_sum, lambda: [u(7)]),
    (K.mask_sum_loops, lambda: [u(7)]),
    (K.mask_argument, lambda: [u(7), M]),
    (K.mask_local, lambda: [u(9), u(9), 0.4, 0.9]),
    (K.mask_local_loops, lambda: [u(9), u(9), 0.4, 0.9]),
    (K.mask_rows, lambda: [u(7, 3), M]),
    (K.mask_method, lambda: [u(7), M]),
    (K.mask_write_scalar, lambda: [u(7), u(7)]),
    (K.mask_write_scalar_loops, lambda: [u(7), u(7)]),
    (K.mask_write_in_place, lambda: [u(7), u(7)]),
    (K.mask_writes, lambda: [u(7), u(7), M, u(7)]),
    (K.mask_writes_loops, lambda: [u(7), u(7), M, u(7)]),
    (K.mask_write_rows, lambda: [u(7, 3), M, 1.3]),
    (K.mask_time_loop, lambda: [u(8), 3]),
    (K.mask_time_loop_loops, lambda: [u(8), 3]),
    (K.mask_prange, lambda: [u(6, 5), u(6)]),
    (K.mask_prange_write, lambda: [u(6, 5), 1.3]),
    (K.mask_prange_loops, lambda: [u(6, 5), u(6)]),
    (U.mask_index, lambda: [u(5)]),                  # refused before masks
], ids=lambda v: getattr(v, "__name__", ""))
def test_masks_match_finite_differences(fn, args):
    a = args()
    primal_agrees(fn, a)
    check(fn, a)


def test_mask_gradient_is_the_masked_weight():
    x = u(7)
    np.testing.assert_array_equal(adtrans.grad(K.mask_argument)(x, M) != 0, M)
    np.testing.assert_allclose(adtrans.grad(K.mask_argument)(x, M), np.where(M, np.cos(x) + 1.0, 0.0))
    # y[y < 1] = 0: the zeroed positions get no gradient, the others 2 w
    x, w = u(7), u(7)
    np.testing.assert_allclose(adtrans.grad(K.mask_write_scalar)(x, w), np.where(2 * x < 1.0, 0.0, 2 * w))
    np.testing.assert_allclose(adtrans.grad(K.mask_write_scalar_loops)(x, w), adtrans.grad(K.mask_write_scalar)(x, w))


def test_mask_of_another_length_raises():
    with pytest.raises(IndexError):                 # NumPy raises (Numba does not check)
        K.mask_argument.py_func(u(7), M[:5])
    with pytest.raises(ValueError, match=r"kernels_masks\.py:\d+"):
        adtrans.grad(K.mask_argument)(u(7), M[:5])


def test_prange_mask_body_stays_parallel():
    src = adtrans.source(K.mask_prange_write, ("dup", "active"), u(6, 5), 1.3)
    assert "prange" in src
    body = src[src.index("prange"):]
    # the value's and the target's mask share one positions array: no shape test (an exit) in the body
    assert "raise" not in body.split("tape_keep")[0], body


# ------------------------------------------------------------------------ scatter writes
@pytest.mark.parametrize("fn,args", [
    (K.scatter_set, lambda: [u(6), IDX, u(6)]),
    (K.scatter_add, lambda: [u(6), IDX, u(6)]),
    (K.scatter_mul, lambda: [u(6), IDX, 1.7]),
    (K.scatter_scalar, lambda: [u(6), IDX]),
    (K.assembly, lambda: [u(3, 4), np.array([0, 2, 2]), u(4, 4)]),
    (K.scatter_loops, lambda: [u(6), IDX % 6, 6]),
    (K.gather_prange, lambda: [u(6), IDX]),
    (K.scatter_prange, lambda: [u(6), np.array([4, 0, 2, 5, 1, 3]), 6]),   # distinct: the primal has no race
    (U.scatter_write, lambda: [u(4), np.array([0, 2, 2]), u(3)]),        # refused before scatter writes
], ids=lambda v: getattr(v, "__name__", ""))
def test_scatter_writes_match_finite_differences(fn, args):
    a = args()
    primal_agrees(fn, a)
    check(fn, a)


def last_of(idx, n):
    """For each k: is k the last position of idx that writes its (wrapped) element?"""
    pos = idx % n
    return np.array([not np.any(pos[k + 1:] == pos[k]) for k in range(len(idx))])


def test_repeated_indices_follow_numbas_last_store():
    x, v = u(6), u(6)
    y = x * 1.5
    y[IDX] += v                                     # NumPy: buffered, one v per position
    z = x * 1.5
    z[IDX] = z[IDX] + v
    np.testing.assert_array_equal(y, z)
    # the kernel's own primal (Numba) is the same: the last store wins
    np.testing.assert_allclose(K.scatter_set(x.copy(), IDX, v), K.scatter_set.py_func(x.copy(), IDX, v))
    np.testing.assert_allclose(K.scatter_add(x.copy(), IDX, v), K.scatter_add.py_func(x.copy(), IDX, v))
    # scatter_set: y = 1.5 x; y[idx] = v**2; f = sum(y**2)
    g = adtrans.autodiff(K.scatter_set, adtrans.Duplicated(x.copy(), dx := np.zeros(6)), adtrans.Const(IDX),
                         adtrans.Duplicated(v.copy(), dv := np.zeros(6)))
    del g
    y = 1.5 * x
    y[IDX] = v ** 2
    hit = np.zeros(6, bool)
    hit[IDX] = True
    np.testing.assert_allclose(dx, np.where(hit, 0.0, 2 * y * 1.5))
    np.testing.assert_allclose(dv, np.where(last_of(IDX, 6), 2 * y[IDX] * 2 * v, 0.0))


def test_prange_scatter_adjoint_with_repeats_is_the_serial_gradient():
    """The primal of a prange scatter with repeated indices races in Numba; its gradient (a gather
    in the adjoint) is the serial one, against finite differences of the Python function."""
    w, idx = u(40), RNG.integers(0, 5, 40)
    g = adtrans.grad(K.scatter_prange)(w, idx, 5)
    h = 1e-6
    fd = np.array([(K.scatter_prange.py_func(w + h * e, idx, 5) - K.scatter_prange.py_func(w - h * e, idx, 5))
                   / (2 * h) for e in np.eye(40)])
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(g, 2 * w * idx, rtol=1e-12)
    # and the gather's adjoint (a scatter-add under prange) adds repeats without a race
    x = u(5)
    np.testing.assert_allclose(adtrans.grad(K.gather_prange)(x, idx),
                               np.bincount(idx % 5, weights=2 * x[idx] * np.arange(40), minlength=5), rtol=1e-12)


# --------------------------------------------------------------- slice bounds beyond the axis
@pytest.mark.parametrize("fn,args", [
    (K.clip_forward, lambda: [u(10), 3]),
    (K.clip_forward, lambda: [u(10), 100]),
    (K.clip_forward, lambda: [u(10), -3]),
    (K.clip_forward, lambda: [u(10), -30]),
    (K.clip_backward, lambda: [u(10), 3]),
    (K.clip_backward, lambda: [u(10), 100]),
    (K.clip_backward, lambda: [u(10), -3]),
    (K.clip_write, lambda: [u(10), 3]),
    (K.clip_write, lambda: [u(6), 100]),
    (K.clip_windows, lambda: [u(6), u(4)]),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_slice_bounds_beyond_the_axis_are_clipped(fn, args):
    a = args()
    primal_agrees(fn, a)
    check(fn, a)


def test_clipped_slice_gradient_touches_only_the_axis():
    x = u(10)
    g = adtrans.grad(K.clip_forward)(x, 100)
    np.testing.assert_allclose(g, 2 * x + np.where(np.arange(10) >= 2, 3.0, 0.0) + 3 * x ** 2 + 0.0, rtol=1e-12)


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("fn,args,activity,construct", [
    (K.mask_2d_read, [np.ones((2, 3))], ("dup",), "2-d boolean mask"),
    (K.mask_2d_write, [np.ones((2, 3)), np.ones((2, 3))], ("dup", "const"), "2-d boolean mask"),
])
def test_refused_forms_name_file_and_line(fn, args, activity, construct):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(fn, activity, *args)
    err = info.value
    assert err.filename.endswith("kernels_masks.py")
    assert err.lineno == marked_line(fn), str(err)
    assert construct in str(err)
    assert err.hint


# ------------------------------------------------- the table's "Numba primal" column is honest
def _numba_compiles(fn, *args):
    from numba import njit
    try:
        njit(fn)(*args)
    except Exception:              # TypingError, or ValueError for norm's 'fro'
        return False
    return True


def test_primal_limits_are_what_numba_refuses():
    """Each form PRIMAL_LIMITS lists fails to compile in Numba, the same call without it compiles
    (so the test fails when Numba gains the form and the table must change)."""
    from adtrans.normalise.arrayvalues import PRIMAL_LIMITS
    A = u(3, 4)
    for name, (form, _) in sorted(PRIMAL_LIMITS.items()):
        if name == "linalg.norm":
            assert not _numba_compiles(lambda A: np.linalg.norm(A, "fro"), A)
            assert not _numba_compiles(lambda A: np.linalg.norm(A, axis=1), A)
            assert _numba_compiles(lambda A: np.linalg.norm(A), A)
            continue
        if name == "kron":
            assert not _numba_compiles(lambda A: np.kron(A[:2, :3], A[0]), A)
            assert _numba_compiles(lambda A: np.kron(np.ascontiguousarray(A[:2, :3]), A[0]), A)
            continue
        assert form == "axis="
        more = ", 1" if name == "roll" else ""          # np.roll's shift
        with_axis = eval(f"lambda A: np.{name}(A{more}, axis=0)", {"np": np})
        without = eval(f"lambda A: np.{name}(A{more})", {"np": np})
        assert not _numba_compiles(with_axis, A), name
        assert _numba_compiles(without, A), name
    assert _numba_compiles(lambda A: np.sum(A, axis=0), A)
    text = open(__file__.replace("tests/test_masks.py", "docs/supported.md")).read()
    assert "| `np.std` | differentiated | whole array or axis= (ddof=0); singular at zero spread | not compiled " \
           "with axis=" in text


def test_mask_adjoint_reads_well():
    src = adtrans.source(K.mask_sum, ("dup",), u(7))
    assert src.count("np.empty(count, dtype=np.int64)") == 1      # one positions array per mask spelling
    assert "d_x[where_" in src                                     # the adjoint scatters into the positions
    assert not src.rstrip().splitlines()[-1].strip().startswith("#"), src   # no comment left describing nothing


def test_index_array_with_an_integer_scatter_matches_finite_differences():
    # `K[d, 1] += v` (an index array beside an integer) was refused; it is a scatter now
    A = np.arange(1.0, 10.0).reshape(3, 3) / 4
    check(K.scatter_mixed, [A, np.array([0, 2]), np.array([0.3, -0.7])], activity=("dup", "const", "dup"),
          primal=K.scatter_mixed.py_func)

"""Masks, index arrays and compacting reads whose length changes from iteration to iteration of a
taped loop (issue 13; kernels in tests/kernels_varlen.py): gradients against central finite
differences in float64 on the Python function, inputs away from the mask thresholds (no finite
difference step crosses one); refusals naming file:line where the binding cannot be replayed."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_varlen as K
from fdcheck import check

U0 = np.array([0.13, 0.55, 0.92, 0.31, 0.71, 0.48, 1.21, -0.23])
A = np.random.default_rng(1).uniform(0.0, 1.0, (6, 5))



CASES = [
    # (kernel, arguments, activity)
    (K.masked_update, [U0, 0.5, 0.9, 0.05, 3], ("dup", "const", "active", "active", "const")),
    (K.nonzero_update, [U0, 0.5, 3], ("dup", "const", "const")),
    (K.compacting_read, [U0, 3], ("dup", "const")),
    (K.combined, [U0, 0.5, 0.4, 0.9, 0.05, 4], ("dup", "const", "const", "active", "active", "const")),
    (K.combined_while, [U0, 0.5, 0.4, 0.9, 0.05, 0.27], ("dup", "const", "const", "active", "active", "const")),
    (K.masked_update_while, [U0, 0.5, 0.9, 1.07], ("dup", "const", "active", "const")),
    (K.nonzero_while, [U0, 0.5, 4.9], ("dup", "const", "const")),
    (K.compacting_while, [U0, 0.2], ("dup", "const")),
    (K.where_positions, [U0, 0.5, 3], ("dup", "const", "const")),
    (K.flatnonzero_positions, [np.linspace(1.0, 2.0, 5), np.array([0.5, 0.7, 0.9, 0.3, 0.65])], ("dup", "const")),
    (K.compacting_sum_in_place, [U0, 3], ("dup", "const")),
    (K.function_level, [U0, 0.5, 0.4, 0.9, 0.05], ("dup", "const", "const", "active", "active")),
    (K.prange_rows, [A, 0.5], ("dup", "const")),
    (K.rebound_same_length, [U0, 3], ("dup", "const")),
]


@pytest.mark.parametrize("fn,args,activity", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_varying_lengths_match_finite_differences(fn, args, activity):
    cp = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    np.testing.assert_allclose(fn(*cp), fn.py_func(*[a.copy() if isinstance(a, np.ndarray) else a for a in args]),
                               rtol=1e-12)
    assert check(fn, args, activity=activity, primal=fn.py_func) < 1e-6


def test_the_mask_counts_do_vary():
    """The inputs make the masks' counts change from step to step (the case the tape must replay)."""
    u, counts = U0.copy(), []
    for t in range(4):
        counts.append(int(np.sum(u > 0.5)))
        u[u > 0.5] = u[u > 0.5] * 0.9 + 0.05
        u[np.nonzero(u < 0.4)[0]] += 0.1 * u[np.nonzero(u < 0.4)[0]] ** 2
        counts.append(int(np.sum(u > 0.0)))
        u = u - 0.15
    assert len(set(counts[0::2])) > 1 and len(set(counts[1::2])) > 1


def test_generated_adjoint_tapes_the_lengths():
    """The reverse sweep rebinds each varying array at its iteration's length, popped from the tape."""
    src = adtrans.source(K.compacting_read, ("dup", "const"), U0, 3)
    assert "_len = tape_int64[top_int64]" in src and "np.empty(" in src


def marked_line(fn):
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, line in enumerate(lines) if "# <-" in line)


@pytest.mark.parametrize("fn,args,what", [
    (K.nested_compaction, [U0, 3], "allocated inside a nested loop and read outside it"),
    (K.argwhere_rows, [A[:4, :3].copy(), 3], "2-dimensional"),
], ids=["nested_loop", "two_dimensional"])
def test_bindings_that_cannot_be_replayed_are_refused(fn, args, what):
    with pytest.raises(adtrans.UnsupportedError, match="length changes from iteration to iteration") as e:
        adtrans.grad(fn)(*args)
    msg = str(e.value)
    assert f"kernels_varlen.py:{marked_line(fn)}:" in msg and what in msg and "np.where(mask, x, 0.0)" in msg


def test_a_taped_loop_of_varying_lengths_inside_a_prange_body_is_refused():
    """prange_time_loop (a mask write in a time loop in each prange iteration) passed this file's
    finite-difference test, but its gradient was garbage in some runs (1.7e277 in 1 of 40 runs on
    one thread, 39 of 40 wrong on two; tests/test_redteam16.py found the same in three more
    kernels): the reverse sweep's per-iteration rebinding is not thread-safe in Numba's parallel
    lowering. Refused at the line until it is."""
    with pytest.raises(adtrans.UnsupportedError, match="inside a prange body") as e:
        adtrans.grad(K.prange_time_loop)(A.copy(), 0.5, 3)
    assert e.value.filename.endswith("kernels_varlen.py") and e.value.lineno > 0


@pytest.mark.slow      # ~40 s: two adjoints and a tangent compiled
def test_hessian_vector_product_through_rebound_arrays():
    """Second order reads the generated adjoint back (the rebinding included): H v against central
    differences of the gradient."""
    v = np.random.default_rng(3).standard_normal(U0.size)
    hv = adtrans.hvp(K.compacting_read)(U0.copy(), 3, v)
    g = lambda x: adtrans.grad(K.compacting_read)(x.copy(), 3)
    h = 1e-5
    fd = (g(U0 + h * v) - g(U0 - h * v)) / (2 * h)
    np.testing.assert_allclose(hv, fd, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("fn,args", [
    (K.carried_compaction, [U0, 3]),
    (K.carried_positions, [U0, 3]),
    (K.branch_compaction, [U0, 1.0]),
], ids=["mask_read", "flatnonzero", "branch"])
def test_rebinding_to_another_length_is_refused(fn, args):
    """Numba rebinds the name; adtrans would write into the old array (run-time ValueError before):
    refused at normalise time with the line and what to write instead."""
    fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])      # Numba runs it
    with pytest.raises(adtrans.UnsupportedError, match="length depends on the data") as e:
        adtrans.grad(fn)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    msg = str(e.value)
    assert f"kernels_varlen.py:{marked_line(fn)}:" in msg and "bind the array afresh" in msg and \
        "np.where(mask, x, 0.0)" in msg

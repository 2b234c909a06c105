"""Scratch arrays of symbolic size (private to an iteration), loop-invariant values saved once,
cache-or-recompute by cost, tapes reused across calls: gradients against central finite
differences, and the generated code that says what was chosen."""
import re
import threading

import numba
import numpy as np
import pytest

import adtrans
from adtrans.adjoint import tape_pools
from adtrans.arguments import typeof_args
from adtrans.build import compiled
from adtrans.targets.cpu import CPU
from adtrans.targets.cpu_runtime import tape_push_array
from adtrans.targets.cpu_stream import STREAM_MIN_BYTES, STREAMING, stream_copy
import kernels_tapes as K
from fdcheck import check

RNG = np.random.default_rng(11)


def pts(n, d):
    return RNG.uniform(-1, 1, (n, d))


@pytest.mark.parametrize("fn", [K.scratch_symbolic, K.scratch_whole_array], ids=lambda f: f.__name__)
def test_symbolic_scratch_matches_finite_differences(fn):
    check(fn, [pts(6, 5), RNG.uniform(-1, 1, 5), RNG.uniform(0.1, 0.5, 5)])


def test_symbolic_scratch_is_private_not_taped():
    args = [pts(6, 5), RNG.uniform(-1, 1, 5), RNG.uniform(0.1, 0.5, 5)]
    src = adtrans.source(K.scratch_symbolic, ("dup", "dup", "dup"), *args)
    # diff and sq are rewritten by every point before they are read: the loop over points is
    # recomputed, nothing of it is copied to the tape
    assert "tape_push_array" not in src
    assert "taped loop" not in src
    assert "recomputed loop" in src


@pytest.mark.parametrize("fn, args", [
    (K.scratch_read_first, lambda: [pts(5, 4), RNG.uniform(-1, 1, 4)]),
    (K.scratch_read_after, lambda: [pts(5, 4), RNG.uniform(-1, 1, 4)]),
    (K.scratch_views_read_after, lambda: [pts(5, 4), RNG.uniform(-1, 1, 4)]),
    (K.scratch_extent_changes, lambda: [pts(5, 4), RNG.uniform(-1, 1, 4), 4]),
], ids=["read_first", "read_after", "views_read_after", "extent_changes"])
def test_arrays_that_are_not_scratch_keep_their_values(fn, args):
    check(fn, args())


def test_array_read_before_written_is_not_private():
    src = adtrans.source(K.scratch_read_first, ("dup", "dup"), pts(5, 4), RNG.uniform(-1, 1, 4))
    assert "array `buf` is both read and written" in src


@pytest.mark.parametrize("fn", [K.costly_in_recomputed_loop, K.costly_whole_array], ids=lambda f: f.__name__)
def test_costly_values_taped_matches_finite_differences(fn):
    check(fn, [RNG.uniform(-1, 1, 40)])


def test_costly_value_is_taped_not_recomputed():
    src = adtrans.source(K.costly_in_recomputed_loop, ("dup",), RNG.uniform(-1, 1, 40))
    # exp and sin are computed once (forward), popped in the reverse loop; the comment says so
    code = "\n".join(ln for ln in src.splitlines() if not ln.strip().startswith("#"))
    assert code.count("math.exp(") == 1 and code.count("math.sin(") == 1
    assert "taped, not recomputed (costly): exp_" in src
    # the subtraction feeding exp is not rerun: nothing reads it in reverse
    rev = src[src.index("taped, not recomputed"):]
    assert " - a\n" not in rev.split("carried-scalar loop")[0]


def test_costly_value_under_a_branch_matches_finite_differences():
    check(K.costly_conditional, [RNG.uniform(-1, 1, 30), 0.8])


def test_loop_invariant_value_is_saved_once_per_loop():
    args = [RNG.uniform(0.2, 0.9, 7), RNG.uniform(-1, 1, 4), 4]
    check(K.invariant_in_taped_loop, args)
    src = adtrans.source(K.invariant_in_taped_loop, ("dup", "dup", "const"), *args)
    note = re.search(r"saved once, not per iteration \(loop-invariant\): ([\w, ]+)", src)
    assert note and "c" in note.group(1).split(", ")
    # c is pushed once, before the inner loop (whose comment follows the saves), not inside it
    assert src.count("tape_float64[top_float64] = c\n") == 1
    assert src.index("tape_float64[top_float64] = c\n") < note.start()
    # the copy of u taken before the recomputed loop over u is read from the tape in place
    assert "u_before_loop = tape_view(tape_float64, top_float64, u)" in src and "np.empty_like" not in src


def test_cheap_values_recomputed_in_taped_loop():
    args = [RNG.uniform(-1, 1, 6), RNG.uniform(-1, 1, 15), 2.0]
    check(K.cheap_recomputed_in_taped_loop, args, activity=("dup", "dup", "const"))
    src = adtrans.source(K.cheap_recomputed_in_taped_loop, ("dup", "dup", "const"), *args)
    assert "recomputed in the reverse sweep, not taped (cheap): l_k" in src
    assert "recomputed in the reverse sweep, not taped (cheap): j_bound" in src
    assert src.count("l_k = l[k]") == 2           # forward, and again in reverse
    assert "tape_float64" not in src and "tape_int64" not in src     # nothing else needed a tape


def test_cheap_value_read_after_its_loop_keeps_its_tape():
    check(K.cheap_value_read_late, [RNG.uniform(0.2, 0.9, 8), RNG.uniform(-1, 1, 8)])


def _lse_gradient(adj, x):
    d = np.zeros_like(x)
    adj(x, d, 1.0)
    return d


def test_tapes_are_reused_across_calls_and_results_do_not_change():
    fn_ = K.costly_in_recomputed_loop
    adj = adtrans.adjoint(fn_, ("dup",))
    big, small = RNG.uniform(-1, 1, 5000), RNG.uniform(-1, 1, 37)
    fresh_big, fresh_small = _lse_gradient(adj, big), _lse_gradient(adj, small)
    gen, fn = compiled(fn_, ("dup",), typeof_args([big]), CPU)
    assert gen.tape_pools == ["float64"]
    pool, = tape_pools(fn, gen.tape_pools)
    tape = pool[0]
    assert tape.shape[0] >= 3 * 5000 - 1          # grown by the large call, kept for the next
    for x, want in ((small, fresh_small), (big, fresh_big), (small, fresh_small)):
        np.testing.assert_array_equal(_lse_gradient(adj, x), want)
    # no call after the first large one grew it: the same memory (typed lists box a new view)
    assert pool[0].ctypes.data == tape.ctypes.data and pool[0].shape == tape.shape
    # called without a pool, the compiled adjoint allocates its own tape: same numbers
    d = np.zeros_like(big)
    fn(big, d, 1.0)
    np.testing.assert_array_equal(d, fresh_big)
    check(fn_, [small])


def test_two_python_threads_get_their_own_tapes():
    adj = adtrans.adjoint(K.costly_in_recomputed_loop, ("dup",))
    xs = [RNG.uniform(-1, 1, 3000 + 500 * k) for k in range(4)]
    want = [_lse_gradient(adj, x) for x in xs]
    got, errors = {}, []

    def work(k):
        try:
            for _ in range(20):
                got[k] = _lse_gradient(adj, xs[k])
                np.testing.assert_array_equal(got[k], want[k])
        except Exception as exc:        # reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_two_array_snapshots_on_one_tape_come_back_in_reverse_order():
    """Was a wrong gradient (37.3 against -1.92): ``a`` and ``b`` were pushed a, b and popped a, b."""
    args = [RNG.uniform(0.2, 1, 6), RNG.uniform(0.2, 1, 6), RNG.uniform(0.2, 1, 6), 3]
    src = adtrans.source(K.two_snapshots, ("dup", "dup", "dup", "const"), *args)
    assert "tape_push_array(tape_float64, top_float64, a)" in src and \
        "tape_push_array(tape_float64, top_float64, b)" in src
    check(K.two_snapshots, args, activity=("dup", "dup", "dup", "const"))


# ------------------------------------------------ tapes indexed by loop counters, ascending reverse loops

def test_recurrence_keeps_descending_reverse_and_counter_indexed_tape():
    args = [RNG.uniform(-1, 1, 7), 0.7]
    check(K.linear_scan, args)
    src = adtrans.source(K.linear_scan, ("dup", "active"), *args)
    # each reverse iteration hands d_y[i - 1] to the next (and adds into d_a): order kept
    assert "for i_1 in range(n - 1, 0, -1):" in src and "in ascending order" not in src
    # the pushes and pops are indexed by the counter: no running `top += 1` / `top -= 1`
    assert "tape_float64[top_float64 + i_1 - 1] = y_im1" in src
    assert "y_im1 = tape_float64[top_float64 + i_1 - 1]" in src
    assert "top_float64 += 1" not in src and "top_float64 -= 1" not in src


def test_independent_reverse_loops_run_ascending():
    x, y = RNG.uniform(-1, 1, 6), RNG.uniform(-1, 1, 6)
    check(K.scaled_copy_loop, [x, y, 3])
    p, q = pts(7, 3), pts(4, 3)
    check(K.nearest_distance, [p, q])
    src = adtrans.source(K.nearest_distance, ("dup", "dup"), p, q)
    # the loop over clusters carries `best` (and its adjoint): descending; the loop over
    # coordinates writes each d_p[i, e], d_q[j, e] once: ascending, and its comment says so
    assert "for j in range(j_bound - 1, -1, -1):" in src
    assert re.search(r"in ascending order \(independent iterations: vectorisable\)\n\s*for e in range\(e_bound\):", src)


def test_inner_sum_is_taped_not_recomputed():
    p, q = pts(7, 3), pts(4, 3)
    src = adtrans.source(K.nearest_distance, ("dup", "dup"), p, q)
    assert "taped, not recomputed (costly): dist (a loop's sum)" in src
    # pushed after its loop, beside `best`; the reverse pops it first (it was pushed last) and
    # does not rerun the distance loop
    assert "tape_float64[top_float64 + j * 2 + 1] = dist" in src
    rev = src[src.index("for j in range(j_bound - 1, -1, -1):"):]
    assert rev.index("dist = tape_float64[top_float64 + j * 2 + 1]") < rev.index("best = tape_float64[top_float64 + j * 2]")
    assert len(re.findall(r"^\s*dist \+= ", src, re.M)) == 1


def test_array_push_pop_restore_at_a_nonzero_top():
    """The runtime's array copies (indexed through a view from ``top`` on) keep the values and
    the C order: a push past the capacity grows the tape, a pop into a contiguous 2-D array and
    a restore into a strided view give the pushed elements back, below them the scalars stay."""
    from adtrans.targets.cpu_runtime import tape_pop_array, tape_push_array, tape_restore_array
    tape = np.zeros(8)
    tape[:3] = [7.0, 8.0, 9.0]
    a = RNG.uniform(-1, 1, (3, 4))
    b = RNG.uniform(-1, 1, 10)[::2]
    tape, top = tape_push_array(tape, 3, a)
    tape, top = tape_push_array(tape, top, b)
    assert top == 3 + 12 + 5 and tape.shape[0] >= top
    assert np.array_equal(tape[3:15], a.ravel()) and np.array_equal(tape[15:20], b)
    out_b = np.zeros(10)
    top = tape_restore_array(tape, top, out_b[1::2])
    assert top == 15 and np.array_equal(out_b[1::2], b) and not out_b[::2].any()
    out_a = np.zeros((3, 4))
    top = tape_pop_array(tape, top, out_a)
    assert top == 3 and np.array_equal(out_a, a) and list(tape[:3]) == [7.0, 8.0, 9.0]


# ------------------------------------------------ streaming (non-temporal) array pushes

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("size", [STREAM_MIN_BYTES // 8 - 1, STREAM_MIN_BYTES // 4 + 5])
def test_array_pushes_copy_every_element_at_any_offset(dtype, size):
    """Pushes of arrays large enough to be streamed (aligned vector stores between an unaligned
    head and tail) and just below the size that streams, onto tapes at every offset modulo
    the store width, also of a strided array and of a tape of another dtype."""
    a = (np.arange(size) * 3 + 1).astype(dtype)
    for offset in range(9):
        tape = np.full(offset + 2 * size + 3, -7, dtype)
        tape, top = tape_push_array(tape, offset, a)
        tape, top = tape_push_array(tape, top, a[::-1])
        assert top == offset + 2 * size
        assert (tape[:offset] == -7).all() and (tape[top:] == -7).all()
        assert (tape[offset:offset + size] == a).all() and (tape[offset + size:top] == a[::-1]).all()
    wide, top = tape_push_array(np.zeros(3), 1, a)
    assert top == 1 + size and (wide[1:top] == a.astype(np.float64)).all()


def test_large_array_pushes_are_non_temporal_stores():
    if not STREAMING:
        pytest.skip("streaming stores are only written on x86-64")

    @numba.njit
    def copy(dst, src):
        stream_copy(dst, 1, src)
    copy(np.zeros(100), np.ones(50))
    asm = "\n".join(copy.inspect_asm().values())
    assert re.search(r"\bv?movnt", asm) and "sfence" in asm

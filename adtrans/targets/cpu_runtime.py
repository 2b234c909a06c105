"""Runtime support called by generated adjoints: typed, growable tapes.

A tape is a 1-D array and a top index; pushes double the capacity when full
(amortised O(1)).  These are compiled once and cached on disk by Numba.

Tapes are reused across calls: a generated adjoint takes one optional trailing argument
per tape dtype of its function scope, ``tape_pool_<dtype>``, a one-element
``numba.typed.List`` holding the tape.  The adjoint starts from that tape
(:func:`tape_take`) and puts the tape back, grown if a push needed more room
(:func:`tape_keep`), before it returns.  Omitted (``None``), the adjoint allocates a
fresh tape as before.  :class:`adtrans.adjoint.AdjointFunction` keeps one pool per
compiled adjoint and Python thread.  A tape is only ever read where the same call
wrote it (a pop follows its push), so what an earlier call left in it never reaches
a result.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.typed import List

from ..rules.parallel import SERIAL_SUM_MAX
from .cpu_stream import STREAM_MIN_BYTES, stream_copy


# The helpers copy with explicit loops: Numba compiles a slice assignment (``new[:n] = tape``)
# in ~3 s (its error-message string handling), a loop in ~0.1 s; the machine code is alike.
# The array copies index a view from ``top`` on (``dst = tape[top:top + n]``, ``dst[k]``), not
# ``tape[top + k]``: ``top`` is an argument of unknown sign, so ``tape[top + k]`` keeps Numba's
# negative-index wraparound in the loop and LLVM does not vectorise it (measured: pushing 200
# arrays of 2000 float64, 0.34 ms -> 0.12 ms, CPU time, medians of 51 calls).
@njit(cache=True)
def _grow(tape, need):
    n = tape.shape[0]
    cap = max(2 * n, need, 16)
    new = np.empty(cap, tape.dtype)
    for k in range(n):
        new[k] = tape[k]
    return new


@njit(cache=True)
def tape_pool(tape):
    """A tape pool holding ``tape``: a one-element ``numba.typed.List``, made in compiled code
    (cached on disk; a typed List built from Python compiles its methods in every process,
    ~1 s)."""
    pool = List()
    pool.append(tape)
    return pool


@njit(cache=True)
def tape_grow(tape, need):
    """A copy of ``tape`` with room for at least ``need`` entries (capacity at least doubled).
    Generated code calls it before a loop (room for all its pushes) or, where the count is
    not known beforehand, when a push finds the tape full; the pushes themselves are inline
    stores ``tape[top] = v``."""
    return _grow(tape, need)


# tape_take and tape_keep are cached @njit functions, not @overload templates: an overload's
# implementation is compiled again in every process for the first adjoint that calls it (~0.4-0.7 s
# of that adjoint's first call), a cached function is loaded from disk.  `pool is None` is decided
# at compile time (the branch on a None or omitted argument is pruned).
@njit(cache=True)
def tape_take(pool, size, dtype):
    """The tape a call starts from: ``pool[0]`` (a one-element typed list, kept from an
    earlier call), or ``np.empty(size, dtype)`` when ``pool`` is None (or omitted)."""
    if pool is None:
        return np.empty(size, dtype)
    return pool[0]


@njit(cache=True)
def tape_keep(pool, tape):
    """Put ``tape`` (possibly grown) back into ``pool`` for the next call (nothing when
    ``pool`` is None or omitted)."""
    if pool is not None:
        pool[0] = tape


@njit(cache=True)
def tape_push(tape, top, value):
    """Push ``value``; returns ``(tape, top)`` (the tape may have been reallocated)."""
    if top >= tape.shape[0]:
        tape = _grow(tape, top + 1)
    tape[top] = value
    return tape, top + 1


@njit(cache=True)
def tape_push_array(tape, top, arr):
    """Push a copy of every element of ``arr`` (any shape, C order).  Arrays of at least
    :data:`~adtrans.targets.cpu_stream.STREAM_MIN_BYTES` go to the tape with streaming stores
    (:func:`~adtrans.targets.cpu_stream.stream_copy`: they bypass the caches)."""
    flat = np.ascontiguousarray(arr).ravel()
    n = flat.size
    if top + n > tape.shape[0]:
        tape = _grow(tape, top + n)
    if n * flat.itemsize >= STREAM_MIN_BYTES:
        stream_copy(tape, top, flat)
    else:
        dst = tape[top:top + n]
        for k in range(n):
            dst[k] = flat[k]
    return tape, top + n


@njit(cache=True)
def tape_push_array_warm(tape, top, arr):
    """:func:`tape_push_array` with ordinary stores whatever the size: for copies read back
    soon, by the reverse of the same iteration (:mod:`adtrans.transform.rerun`), which may
    still find them in a cache."""
    flat = np.ascontiguousarray(arr).ravel()
    n = flat.size
    if top + n > tape.shape[0]:
        tape = _grow(tape, top + n)
    dst = tape[top:top + n]
    for k in range(n):
        dst[k] = flat[k]
    return tape, top + n


@njit(cache=True)
def tape_view(tape, top, like):
    """The ``like.size`` entries of ``tape`` from ``top`` on, shaped like ``like`` (a view: the
    caller has popped them and pushes nothing while it reads the view)."""
    return tape[top:top + like.size].reshape(like.shape)


@njit(cache=True)
def tape_pop_array(tape, top, out):
    """Pop ``out.size`` elements into the C-contiguous array ``out``; returns the new top."""
    n = out.size
    top -= n
    flat = out.reshape(n)
    src = tape[top:top + n]
    for k in range(n):
        flat[k] = src[k]
    return top


@njit(cache=True)
def tape_restore_array(tape, top, out):
    """Pop ``out.size`` elements back into ``out`` (any shape and layout, C order: the order
    :func:`tape_push_array` pushed them in); returns the new top."""
    top -= out.size
    src = tape[top:top + out.size]
    k = 0
    for idx in np.ndindex(out.shape):
        out[idx] = src[k]
        k += 1
    return top


# Per-thread buffers of prange adjoints, kept across calls.  A generated adjoint whose prange
# loops need per-thread copies of a shadow takes one optional trailing argument per dtype,
# ``scratch_pool_<dtype>``: a ``numba.typed.List`` of 1-D arrays, one per buffer slot of a loop
# (slots are reused by the function's prange loops one after the other).  Every array in a
# pool is all zeros between uses: the loop writes only into its own copies and the reduction
# after the loop zeroes every element it adds in.  Omitted (``None``), the buffers are fresh
# zeroed arrays, as before.  :class:`adtrans.adjoint.AdjointFunction` keeps one pool per
# compiled adjoint and Python thread, and drops it when a call raises (a loop left midway
# may leave a copy unreduced).
@njit(cache=True)
def scratch_pool(empty):
    """A scratch pool whose first slot is ``empty`` (a 1-D array, usually of size 0); made in
    compiled code for the reason :func:`tape_pool` is."""
    pool = List()
    pool.append(empty)
    return pool


@njit(cache=True)
def _scratch_slot(pool, slot, size):
    while len(pool) <= slot:
        pool.append(np.zeros(0, pool[0].dtype))
    if pool[slot].shape[0] < size:
        pool[slot] = np.zeros(size, pool[0].dtype)
    return pool[slot]


# scratch_rows is a cached @njit function, not an @overload (compiled again in every process,
# ~0.7 s of the first prange adjoint's first call); `pool is None` is decided at compile time.
@njit(cache=True)
def scratch_rows(pool, slot, rows, like):
    """``rows`` zeroed copies of ``like``'s shape, as an array of shape ``(rows,) + like.shape``:
    a view of slot ``slot`` of ``pool`` (grown if smaller; the caller leaves it zeroed), or a
    fresh ``np.zeros`` when ``pool`` is None (or omitted)."""
    shape = (rows,) + like.shape
    if pool is None:
        return np.zeros(shape, like.dtype)
    n = rows * like.size
    return _scratch_slot(pool, slot, n)[:n].reshape(shape)


# The sums of per-thread copies after a prange loop (``out += copies[t]`` for each thread's copy t,
# each element added zeroed again), one function per rank of ``out``: serial up to
# SERIAL_SUM_MAX elements of ``copies`` in all (a parallel region costs a launch and a barrier),
# a parallel loop over the rows of ``out`` above; the same order of additions either way.  Here,
# compiled once per machine, not in every adjoint: each prange loop of a generated function is
# a kernel of its own for Numba (measured, helpers already compiled, CPU s, medians of 3 interleaved:
# the compile of the bench prange gather adjoint 1.53 -> 1.06, of miniBUDE blocked 18.5 -> 14.1).
@njit(parallel=True, cache=True)
def scratch_sum_1d(out, copies):
    """``out += copies[t]`` for every ``t``, ``copies`` zeroed again (``out`` 1-D)."""
    if copies.size <= SERIAL_SUM_MAX:
        for t in range(copies.shape[0]):
            for row in range(out.shape[0]):
                out[row] += copies[t, row]
                copies[t, row] = 0.0
    else:
        for t in range(copies.shape[0]):
            for row in prange(out.shape[0]):
                out[row] += copies[t, row]
                copies[t, row] = 0.0


@njit(parallel=True, cache=True)
def scratch_sum_2d(out, copies):
    """``out += copies[t]`` for every ``t``, ``copies`` zeroed again (``out`` 2-D)."""
    if copies.size <= SERIAL_SUM_MAX:
        for t in range(copies.shape[0]):
            for row in range(out.shape[0]):
                for col in range(out.shape[1]):
                    out[row, col] += copies[t, row, col]
                    copies[t, row, col] = 0.0
    else:
        for t in range(copies.shape[0]):
            for row in prange(out.shape[0]):
                for col in range(out.shape[1]):
                    out[row, col] += copies[t, row, col]
                    copies[t, row, col] = 0.0


@njit(parallel=True, cache=True)
def scratch_sum_3d(out, copies):
    """``out += copies[t]`` for every ``t``, ``copies`` zeroed again (``out`` 3-D)."""
    if copies.size <= SERIAL_SUM_MAX:
        for t in range(copies.shape[0]):
            for row in range(out.shape[0]):
                for col in range(out.shape[1]):
                    for k in range(out.shape[2]):
                        out[row, col, k] += copies[t, row, col, k]
                        copies[t, row, col, k] = 0.0
    else:
        for t in range(copies.shape[0]):
            for row in prange(out.shape[0]):
                for col in range(out.shape[1]):
                    for k in range(out.shape[2]):
                        out[row, col, k] += copies[t, row, col, k]
                        copies[t, row, col, k] = 0.0


# Thread ids for per-thread adjoint buffers.  Numba's public get_thread_id /
# get_num_threads reference ctypes pointers, which disables on-disk caching;
# these intrinsics call the same threading-layer symbols by name.
from numba.np.ufunc.parallel import _iget_num_threads as num_threads  # noqa: E402
from numba.np.ufunc.parallel import _iget_thread_id as thread_id  # noqa: E402
from numba.np.ufunc.parallel import _launch_threads  # noqa: E402

_launch_threads()

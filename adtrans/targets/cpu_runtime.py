"""Runtime support called by generated adjoints: typed, growable tapes.

A tape is a 1-D array and a top index; pushes double the capacity when full
(amortised O(1)).  These are compiled once and cached on disk by Numba.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _grow(tape, need):
    cap = max(2 * tape.shape[0], need, 16)
    new = np.empty(cap, tape.dtype)
    new[:tape.shape[0]] = tape
    return new


@njit(cache=True)
def tape_grow(tape, need):
    """A copy of ``tape`` with room for at least ``need`` entries (capacity at least doubled).
    Generated code calls it before a loop (room for all its pushes) or, where the count is
    not known beforehand, when a push finds the tape full; the pushes themselves are inline
    stores ``tape[top] = v``."""
    return _grow(tape, need)


@njit(cache=True)
def tape_push(tape, top, value):
    """Push ``value``; returns ``(tape, top)`` (the tape may have been reallocated)."""
    if top >= tape.shape[0]:
        tape = _grow(tape, top + 1)
    tape[top] = value
    return tape, top + 1


@njit(cache=True)
def tape_push_array(tape, top, arr):
    """Push a copy of every element of ``arr`` (any shape, C order)."""
    flat = np.ascontiguousarray(arr).ravel()
    n = flat.size
    if top + n > tape.shape[0]:
        tape = _grow(tape, top + n)
    tape[top:top + n] = flat
    return tape, top + n


@njit(cache=True)
def tape_pop_array(tape, top, out):
    """Pop ``out.size`` elements into the C-contiguous array ``out``; returns the new top."""
    n = out.size
    top -= n
    flat = out.reshape(n)
    flat[:] = tape[top:top + n]
    return top


# Thread ids for per-thread adjoint buffers.  Numba's public get_thread_id /
# get_num_threads reference ctypes pointers, which disables on-disk caching;
# these intrinsics call the same threading-layer symbols by name.
from numba.np.ufunc.parallel import _iget_num_threads as num_threads  # noqa: E402
from numba.np.ufunc.parallel import _iget_thread_id as thread_id  # noqa: E402
from numba.np.ufunc.parallel import _launch_threads  # noqa: E402

_launch_threads()

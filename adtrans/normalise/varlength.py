"""Rebinding an array inside a loop to a value whose length is the data's.

Inside a loop or branch the lowering writes ``x = f(x, ...)`` into ``x``'s existing array
(:meth:`~adtrans.normalise.arrays.ArrayLowering.rebind_in_place`), which needs the new value's
length to be ``x``'s.  A value whose length depends on the data (a boolean-mask read ``u[u > c]``,
``np.flatnonzero(m)``, ``np.argwhere(m)``, or an array computed from one) can have another length
in every iteration, where Numba simply rebinds the name: such a rebinding is refused at normalise
time, naming the line, instead of raising a run-time ``ValueError`` in the adjoint's forward sweep.
(An array bound once per iteration, first in the body, is served by
:mod:`adtrans.transform.varlen`.)"""
from __future__ import annotations

import ast

from ..ir.walk import all_names

#: the run-time check's message of an assignment whose value and region differ in length
REGION_MISMATCH = "could not broadcast the value into the assigned region"

VARYING_REBINDING_HINT = ("bind the array afresh in each iteration before anything reads it (`v = u[u > c]` "
                          "first in the loop body, a name not bound before the loop), or keep the shape fixed: "
                          "np.where(mask, x, 0.0) instead of x[mask]")


#: the words of :func:`rebinding_note` that tell its run-time check from a user's shape error
REBINDING_MARK = "is rebound inside a loop or branch to a value of another length"


def rebinding_note(t: str) -> str:
    """The note of the run-time check that a rebinding written in place (``t = f(t)`` in a loop or
    branch) keeps ``t``'s length: Numba rebinds the name, adtrans needs one length."""
    return (f"`{t}` {REBINDING_MARK} (a slice or count computed "
            f"there: Numba rebinds the name, adtrans writes the value into the array `{t}` holds, which keeps "
            f"its length); keep the length: write a shrinking value into a prefix (`{t}[:m] = ...`, then read "
            f"`{t}[:m]`), or {VARYING_REBINDING_HINT}")


def _statement(lw):
    """The outermost statement being lowered (a loop or branch at depth 0), or None."""
    return (id(lw.levels[0][0]), lw.levels[0][1]) if lw.levels else None


def note_data_shaped(lw, t, extents=None) -> None:
    """Record that array ``t`` has a data-dependent length (``extents`` None: it is mask positions
    or an index array; else it is allocated with ``extents`` and has one when they read such an
    array), with the outermost statement that made it."""
    if extents is None or any(all_names(e) & set(lw.data_shaped) for e in extents):
        lw.data_shaped[t] = _statement(lw)
    else:
        lw.data_shaped.pop(t, None)


def refuse_varying_rebinding(lw, a, b) -> None:
    """Raise where extents ``a`` and ``b`` of a rebinding written in place (``lw.rebinding``)
    may differ: one reads an array of data-dependent length made in the same loop or branch
    (one made before it has one length throughout: the run-time check stays)."""
    here = _statement(lw)
    if here is not None and any(lw.data_shaped.get(x, ()) == here for x in all_names(a) | all_names(b)):
        t, s = lw.rebinding
        raise lw.err(s, f"`{t}` rebound inside a loop or branch to a value whose length depends on the data "
                        f"(a boolean-mask read or np.flatnonzero/argwhere) and may differ from its length "
                        f"before", VARYING_REBINDING_HINT)

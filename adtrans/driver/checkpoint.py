"""Checkpointing of driver time loops: a binomial schedule instead of a tape of every step.

With ``adtrans.autodiff(driver, ..., checkpoints=N)`` every ``for`` loop of the
driver that is not inside another loop and whose body has adjoint work runs
under a binomial (revolve) schedule of ``checkpoint_schedules``
(:class:`~checkpoint_schedules.MultistageCheckpointSchedule` with ``N``
snapshots in memory, Griewank & Walther's optimal binomial schedule; Stumm &
Walther 2009): the forward sweep stores ``N`` snapshots of the loop's state
and the tape of the last step only; the reverse sweep restores a snapshot,
recomputes the steps up to the one it reverses (taping only that one) and
reverses it.  Memory: ``N`` snapshots + one step's tape instead of ``T``
steps' tapes; time: at most about ``log_N T`` extra forward steps per step.

A **snapshot** of the loop's state at a step boundary (:meth:`Checkpoints.save`):

- the bindings of every name the loop body assigns (references), and of their
  shadows as the forward sweep had them;
- a copy of the contents of every array the body writes in place (kernel
  output arguments, item and ``op=`` assignments, MPI receive buffers, lists
  appended to), taken as the whole base array of each name that may alias a
  written one (so views into other arrays are covered).

When the reverse sweep restores a snapshot it keeps the shadows it holds
(adjoints accumulated by the steps already reversed) and gives them back to
the names before the next step is reversed (:meth:`Checkpoints.reverse_shadows`),
so the recomputation changes no adjoint: the gradient is the store-all one,
bit for bit.  ``while`` loops keep the store-all tape (their length is not
known when they start).  Under MPI every rank runs the same schedule, so the
recomputed messages match; the random generators the loop calls (NumPy's
global one, Python's ``random``, ``Generator``/``RandomState`` objects) are
saved with each snapshot and restored with it, so a recomputed step draws what
the forward sweep drew, and are left as the forward sweep left them at the end
of the reverse sweep.  Ranks synchronise (``sync``) before each
recomputation and each reversal so forward and adjoint messages never meet.
"""
from __future__ import annotations

import random

import numpy as np
from checkpoint_schedules import (Copy, EndForward, EndReverse, Forward, Move,
                                  MultistageCheckpointSchedule, Reverse, StorageType)

__all__ = ["Checkpoints"]


def _root(a):
    while isinstance(a, np.ndarray) and isinstance(a.base, np.ndarray):
        a = a.base
    return a


class Checkpoints:
    """The schedule and the snapshots of one checkpointed loop of ``n`` steps.

    ``snapshots``: how many snapshots the schedule may keep (at least 1).
    ``seq``: the loop's sequence.  ``sync``: a callable run before each
    recomputation and each reversal in the reverse sweep (MPI barrier), or None.
    Generated code drives it with :meth:`forward` and :meth:`reverse`, which
    yield ``(op, k)``: ``("save", k)`` take a snapshot before step ``k``;
    ``("step", k)`` run step ``k`` without keeping its tape, ``("taped", k)``
    keeping it; ``("restore", k)`` load the snapshot of step ``k``;
    ``("reverse", k)`` reverse step ``k``.
    """

    def __init__(self, snapshots: int, seq, sync=None):
        if int(snapshots) < 1:
            raise ValueError(f"checkpoints={snapshots}: at least 1 snapshot is needed")
        self.seq = seq
        self.n = len(seq)
        self.snapshots = int(snapshots)
        self.sync = sync
        self.snaps: dict = {}
        self.pending = None
        self._delete = None
        self._generators = []
        self.peak_snapshots = 0
        self.recomputed = 0
        self._actions = iter(MultistageCheckpointSchedule(self.n, min(self.snapshots, max(self.n - 1, 1)), 0)) \
            if self.n > 0 else iter(())

    # -- the schedule
    def _steps(self, action, recompute):
        if action.write_ics and action.storage in (StorageType.RAM, StorageType.DISK):
            yield "save", action.n0
        taped = "taped" if action.write_adj_deps else "step"
        for k in range(action.n0, action.n1):
            if recompute:
                self.recomputed += 1
            yield taped, k

    def forward(self):
        """The forward sweep's actions (up to the end of the forward run)."""
        for action in self._actions:
            if isinstance(action, EndForward):
                return
            if not isinstance(action, Forward):
                raise RuntimeError(f"checkpoint schedule: unexpected {action!r} in the forward run")
            yield from self._steps(action, False)

    def reverse(self):
        """The reverse sweep's actions (restores, recomputations, reversals) to the loop's start.
        The random generators end as the forward sweep left them."""
        final = _generator_states(self._generators)
        yield from self._reverse()
        _set_generator_states(final)

    def _reverse(self):
        last = None
        for action in self._actions:
            if isinstance(action, EndReverse):
                break
            kind = type(action)
            if self.sync is not None and kind in (Forward, Reverse) and kind is not last:
                self.sync()
            last = kind if kind in (Forward, Reverse) else last
            if isinstance(action, Reverse):
                for k in range(action.n1 - 1, action.n0 - 1, -1):
                    yield "reverse", k
            elif isinstance(action, (Copy, Move)):
                self._delete = action.n if isinstance(action, Move) else None
                yield "restore", action.n
            elif isinstance(action, Forward):
                yield from self._steps(action, True)
            else:
                raise RuntimeError(f"checkpoint schedule: unexpected {action!r} in the reverse run")
        if self.snaps:
            raise RuntimeError(f"checkpoint schedule left snapshots {sorted(self.snaps)}: internal error")

    # -- snapshots
    def save(self, k, names, shadows, written, receivers=()) -> None:
        """Snapshot before step ``k``: the ``names`` and ``shadows`` bindings (tuples of values),
        copies of the base arrays (and lists) of the ``written`` values, and the state of the
        random generators: the global ones and those among ``receivers`` (the values whose
        methods the loop calls)."""
        # not runtime.saved_copy: owned copies of whole base arrays (views covered) that outlive many kernel calls
        seen, contents = set(), []
        self._generators = [v for v in receivers if v is np.random or v is random
                            or isinstance(v, (np.random.Generator, np.random.RandomState))]
        for v in written:
            if isinstance(v, np.ndarray):
                r = _root(v)
                if id(r) not in seen:
                    seen.add(id(r))
                    contents.append((r, r.copy()))
            elif isinstance(v, list) and id(v) not in seen:
                seen.add(id(v))
                contents.append((v, list(v)))
        self.snaps[k] = (names, shadows, contents, _generator_states(self._generators))
        self.peak_snapshots = max(self.peak_snapshots, len(self.snaps))

    def load(self, k, shadows):
        """Restore the snapshot of step ``k``: array contents in place; returns its ``(names,
        shadows)`` bindings.  ``shadows``: the current shadow bindings, given back by the next
        :meth:`reverse_shadows`."""
        names, fwd_shadows, contents, states = self.snaps[k]
        _set_generator_states(states)
        for obj, saved in contents:
            if isinstance(obj, np.ndarray):
                obj[...] = saved
            else:
                obj[:] = saved
        if self._delete == k:
            del self.snaps[k]
            self._delete = None
        if self.pending is None:
            self.pending = shadows
        return names, fwd_shadows

    def reverse_shadows(self, shadows):
        """The shadow bindings to reverse the next step with: those held when the last snapshot
        was restored (the recomputation rebinds shadows of names it assigns), else ``shadows``."""
        if self.pending is None:
            return shadows
        out, self.pending = self.pending, None
        return out

    @staticmethod
    def end_step(tape, mark: int, op: str) -> None:
        """After a recomputed step: drop its tape unless it is to be reversed next."""
        if op != "taped":
            del tape[mark:]


def _generator_states(generators) -> list:
    """``(object, state)`` of each of ``generators``: NumPy's global generator (the module
    ``np.random``), Python's ``random`` module, ``np.random.Generator`` / ``RandomState`` objects."""
    out = []
    for g in generators:
        if g is random:
            out.append((g, random.getstate()))
        else:
            out.append((g, g.bit_generator.state if isinstance(g, np.random.Generator) else g.get_state()))
    return out


def _set_generator_states(states) -> None:
    for g, st in states:
        if g is random:
            random.setstate(st)
        elif isinstance(g, np.random.Generator):
            g.bit_generator.state = st
        else:
            g.set_state(st)

"""Reverse-mode AD of *driver* functions: plain Python that calls ``@njit`` kernels.

A driver is a plain (not jitted) Python function made of calls to ``@njit``
kernels, NumPy slicing and views, scalar and array arithmetic, ``for``/
``while`` loops (time loops), ``if``, and mpi4py calls.  ::

    def heat(u, comm, c, steps):
        ...
        for s in range(steps):
            comm.Sendrecv(u[1:2], dest=left, recvbuf=u[n - 1:n], source=right)
            step(u, unew, c)
            u, unew = unew, u
        return energy(u)

    du = np.zeros_like(u)
    (dc,) = adtrans.autodiff(heat, Duplicated(u, du), Const(comm), Active(c), Const(10))

Kernels may return floats, new arrays or tuples of them (``u = step(u, c)``,
``dS, dI = rhs(S, I, beta)``): the shadows of the names the results are bound to
are the seeds of the kernel's adjoint (one per returned value).  A returned array
must not share memory with an argument (refused at the call).

With MPI every rank calls ``autodiff`` with the same activities; each rank's
returned float is its part of a global sum, and each rank gets the adjoint of
its own data.

Pipeline (this package): :mod:`.jumps` (early returns, break/continue to flags;
plain-Python helpers inlined) -> :mod:`.normalise` (hoisting, three-address calls) ->
:mod:`.activity` -> :mod:`.sweeps` (forward sweep with a tape, reverse sweep;
expression rules in :mod:`.exprs`, kernel effects in :mod:`.effects`, MPI
rules in :mod:`adtrans.mpi.rules`; outer ``for`` loops under a binomial schedule with
``checkpoints=N``, :mod:`.checkpoint`) -> a plain Python function whose globals are
the driver's module globals.  The generated file is kept in
``$ADTRANS_CACHE_DIR`` (tracebacks show its lines).

Entry points: :func:`autodiff_driver` (what ``adtrans.autodiff`` calls for a
plain function), :func:`driver_adjoint` (the compiled adjoint, called like
:class:`adtrans.AdjointFunction`), :func:`driver_source` (its source text).
"""
from __future__ import annotations

import hashlib
import threading
import types

import numpy as np

from .. import gencache
from ..arguments import unwrap
from ..compile import cache_dir, write_atomic
from ..errors import ActivityError, UnsupportedError
from ..parse import parse_function, python_function
from . import runtime
from .activity import Activity
from .sweeps import Sweeps
from ..analyse.effects import written_params
from .normalise import normalise_driver
from .calls import Resolver

__all__ = ["autodiff_driver", "driver_adjoint", "driver_source", "DriverAdjoint", "last_tape_nbytes",
           "last_tape_peak_nbytes"]

_LOCK = threading.RLock()
_CACHE: dict = {}
ACTIVITIES = ("const", "active", "dup")


def _mpi_rules():
    from ..mpi import rules
    return rules


class DriverAdjoint:
    """The generated adjoint of a driver for one activity tuple.

    Call it with the primal arguments in order, each ``"dup"`` argument
    followed by its shadow, then optionally the seed (the adjoint of the
    driver's returned float, default 1.0).  Returns the tuple of adjoints of
    the ``"active"`` arguments; shadows of ``"dup"`` arguments are updated in
    place; arrays end with the values the driver leaves in them.
    ``source``: the generated Python source.
    """

    def __init__(self, fn, activity, checkpoints=None):
        pyfunc, dispatcher = python_function(fn)
        if dispatcher is not None:
            raise UnsupportedError(f"{pyfunc.__name__} is a Numba kernel, not a driver",
                                   "use adtrans.adjoint for @njit kernels")
        self.fn = pyfunc
        self.primal = parse_function(pyfunc)
        self.activity = tuple(a.lower() for a in activity)
        params = self.primal.params
        if len(self.activity) != len(params):
            raise ActivityError(f"{self.primal.name} has {len(params)} parameters ({', '.join(params)}) but "
                                f"{len(self.activity)} activities were given")
        for p, a in zip(params, self.activity):
            if a not in ACTIVITIES:
                raise ActivityError(f"activity {a!r} of {p}: use one of {ACTIVITIES}")
        if checkpoints is not None and (isinstance(checkpoints, bool) or not isinstance(checkpoints, int)
                                        or checkpoints < 1):
            raise ActivityError(f"checkpoints={checkpoints!r}: give the number of snapshots (an int >= 1) "
                                "or None (store every step)")
        self.checkpoints = checkpoints
        self.source = self._generated()
        self.name = f"{self.primal.name}_adjoint"
        self.uses_mpi = "_mpi." in self.source
        self._function = self._load()

    def _transform(self) -> str:
        """The adjoint's source: normalise, activity, sweeps."""
        ir = normalise_driver(self.primal)
        pa = dict(zip(self.primal.params, self.activity))
        resolver = Resolver(self.primal.globals, ir.locals)
        act = Activity(ir, pa, resolver, written_params)
        return Sweeps(self.primal, ir, pa, act, resolver, self.checkpoints).generate()

    def _generated(self) -> str:
        """:meth:`_transform`, kept on disk by :mod:`adtrans.gencache` (keyed by the driver's source,
        every kernel, helper and constant it names, the activities and ``checkpoints``), refusals
        included, so a new process does not transform the driver again."""
        key = gencache.key_of(self.primal, self.activity, (), extra=("driver", self.checkpoints))
        hit = gencache.load(key)
        if isinstance(hit, gencache.Refusal):
            raise hit.error()
        if isinstance(hit, str):
            return hit
        try:
            source = self._transform()
        except Exception as exc:
            refusal = gencache.Refusal.of(exc)
            if refusal is not None:
                gencache.store(key, refusal)
            raise
        gencache.store(key, source)
        return source

    def _load(self):
        body = "\n".join("    " + ln if ln else ln for ln in self.source.splitlines())
        text = (f"# adtrans driver adjoint of {self.primal.filename}:{self.primal.tree.lineno} "
                f"({self.primal.name}); generated, do not edit\n"
                f"def _adtrans_make(_rt, _mpi, _np, _UNDEF):\n{body}\n    return {self.name}\n")
        digest = hashlib.sha256((self.primal.filename + text).encode()).hexdigest()[:20]
        path = cache_dir() / f"adtrans_driver_{self.primal.name}_{digest}.py"
        try:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                write_atomic(path, text)
            filename = str(path)
        except OSError:
            filename = f"<adtrans driver adjoint of {self.primal.name}>"
        code = compile(text, filename, "exec")
        make_code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "_adtrans_make")
        make = types.FunctionType(make_code, self.fn.__globals__, "_adtrans_make")
        return make(runtime, _mpi_rules() if self.uses_mpi else None, np, runtime.UNDEF)

    def __call__(self, *args):
        return self._function(*args)


def driver_adjoint(fn, activity, checkpoints=None) -> DriverAdjoint:
    """The generated adjoint of the driver ``fn`` for ``activity`` (one of ``"const"``,
    ``"active"``, ``"dup"`` per parameter).  Cached per function, activity and ``checkpoints``.

    ``checkpoints``: None (store-all: the tape keeps what every step overwrites) or
    the number of snapshots of a binomial schedule for the driver's outer ``for``
    loops (:mod:`adtrans.driver.checkpoint`; same gradient, memory of ``checkpoints``
    snapshots + one step's tape, extra recomputed steps).

    Raises :class:`~adtrans.errors.UnsupportedError` (with ``file:line:col``)
    for constructs without an adjoint rule, :class:`~adtrans.errors.ActivityError`
    for bad activities.
    """
    pyfunc, _ = python_function(fn)
    key = (pyfunc, tuple(a.lower() for a in activity), checkpoints)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is None or hit.fn.__code__ is not pyfunc.__code__:
            hit = _CACHE[key] = DriverAdjoint(fn, activity, checkpoints)
        return hit


def driver_source(fn, activity, *args, checkpoints=None) -> str:
    """Source of the generated adjoint of driver ``fn`` for ``activity``.

    ``args`` (example arguments) are accepted for symmetry with
    :func:`adtrans.source` and not needed: driver adjoints are not specialised
    on types.
    """
    return driver_adjoint(fn, activity, checkpoints).source


def autodiff_driver(fn, args, seed=1.0, checkpoints=None):
    """``adtrans.autodiff`` for a plain-Python driver ``fn``.

    ``args``: the arguments, each optionally wrapped in ``Const``, ``Active``
    or ``Duplicated`` (unwrapped = ``Const``).  ``seed``: the adjoint of the
    driver's returned float.  Runs the driver (arrays end as the driver leaves
    them), adds the adjoints to the ``Duplicated`` shadows and returns the
    tuple of the ``Active`` arguments' adjoints.  ``checkpoints``: see :func:`driver_adjoint`.
    """
    activity, flat = unwrap(args)
    if isinstance(seed, (tuple, list)):
        seed = seed[0] if seed else 1.0
    out = driver_adjoint(fn, activity, checkpoints)(*flat, seed)
    return tuple(out)


def last_tape_nbytes() -> int:
    """Bytes of array memory the tape of the last driver adjoint run in this process held at the
    end of its forward sweep (copies of overwritten arrays, arrays kept alive for the reverse
    sweep, their shadows; the arguments' own arrays excluded)."""
    return runtime._STATS["tape_nbytes"]


def last_tape_peak_nbytes() -> int:
    """Like :func:`last_tape_nbytes`, the largest figure over the last run (with checkpoints the
    reverse sweep holds snapshots and a recomputed step's tape)."""
    return runtime._STATS["tape_peak"]

"""Gradients of LULESH under MPI with adtrans (:mod:`.lulesh_mpi`'s drivers, no hand-written adjoint).

* :func:`mpi_step_adjoint`: the adjoint of one :func:`.lulesh_mpi.lagrange_leapfrog_mpi`
  step with every float64 array of the rank's Domain ``Duplicated`` and the time step
  ``Active`` (the SC'22 setup), the comm and the plan ``Const``.  The adjoints of
  CommSBN/CommSyncPosVel/CommMonoQ are adtrans' Isend/Irecv/Waitall rules: the
  reversed messages carry adjoints back to the ranks that sent the values.
* :func:`mpi_origin_gradient`: d(final origin energy)/d(initial state of this rank)
  through :func:`.lulesh_mpi.origin_energy_after_mpi` (K cycles, Allreduce(MIN) of
  the time step: its adjoint goes to the rank that set the minimum).  A shared node's
  initial value is copied to every rank holding it, so the gradient for the global
  node is the sum of the ranks' adjoints (:func:`.lulesh_mpi.gather_global`).
* :func:`check_against_serial` (every rank calls it): the gathered 8-rank gradient
  against adtrans' serial gradient (:func:`.grad.origin_energy_gradient`) of the same
  global mesh on rank 0.
"""
from __future__ import annotations

import time as _time

import numpy as np

import adtrans
from adtrans import Active, Const, Duplicated

from .grad import STEP_ARRAY_NAMES, origin_energy_gradient
from .lulesh import STEP_DT_INDEX, STEP_N_FLOAT_ARRAYS
from .lulesh_mpi import (gather_global, jitter_global, lagrange_leapfrog_mpi, mpi_domain,
                         mpi_origin_arguments, origin_energy_after_mpi)
from .domain import Domain

__all__ = ["mpi_step_adjoint", "mpi_origin_gradient", "check_against_serial", "GRADIENT_FIELDS"]

#: the inputs whose gradient the check compares
GRADIENT_FIELDS = ("e", "x", "y", "z")


def _wrap(args, shadows):
    wrapped = []
    for k, a in enumerate(args):
        if k < STEP_N_FLOAT_ARRAYS:
            wrapped.append(Duplicated(a, shadows[k]))
        elif k == STEP_DT_INDEX:
            wrapped.append(Active(a))
        else:
            wrapped.append(Const(a))
    return wrapped


def mpi_step_adjoint(args, seeds):
    """Adjoint of one MPI step: ``args`` from :func:`.lulesh_mpi.mpi_step_arguments`
    (advanced in place), ``seeds`` one array per float array (:data:`.grad.STEP_ARRAY_NAMES`,
    updated in place to the adjoints before the step).  Returns ``(seeds, dt_bar)``."""
    (dt_bar,) = adtrans.autodiff(lagrange_leapfrog_mpi, *_wrap(args, seeds))
    return seeds, float(dt_bar)


def mpi_origin_gradient(d, plan, comm, max_cycles, checkpoints=None):
    """``(e0, {name: this rank's adjoint}, seconds)`` of the origin energy after
    ``max_cycles`` cycles from this rank's Domain ``d`` (not changed; e0 is 0.0 off rank 0)."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in mpi_origin_arguments(d, plan, comm, max_cycles)]
    shadows = [np.zeros_like(a) for a in args[:STEP_N_FLOAT_ARRAYS]]
    comm.Barrier()
    t0 = _time.perf_counter()
    adtrans.autodiff(origin_energy_after_mpi, *_wrap(args, shadows), checkpoints=checkpoints)
    seconds = _time.perf_counter() - t0
    e0 = float(args[STEP_ARRAY_NAMES.index("e")][0]) if comm.Get_rank() == 0 else 0.0
    return e0, dict(zip(STEP_ARRAY_NAMES, shadows)), seconds


def check_against_serial(comm, nx, max_cycles, eps=0.05, seed=0):
    """The MPI gradient of e0 after ``max_cycles`` cycles (edge ``nx`` per rank, mesh
    jittered by ``eps`` element widths) against the serial one of the same global mesh.

    Returns, on rank 0, a list of rows ``(field, max |mpi - serial| / max |serial|,
    max |serial|)`` plus the two e0 values; None elsewhere.
    """
    d, plan = mpi_domain(nx, comm)
    jitter_global(d, eps, seed, comm, plan)
    e0, grads, seconds = mpi_origin_gradient(d, plan, comm, max_cycles)
    gathered = {n: gather_global(comm, d, grads[n], "elem" if n == "e" else "node") for n in GRADIENT_FIELDS}
    if comm.Get_rank() != 0:
        return None
    ds = jitter_global(Domain(d.tp * nx), eps, seed)
    ref = origin_energy_gradient(ds, max_cycles)
    rows = []
    for n in GRADIENT_FIELDS:
        scale = float(np.abs(ref.grads[n]).max())
        rows.append((n, float(np.abs(gathered[n] - ref.grads[n]).max()) / max(scale, 1e-300), scale))
    return {"rows": rows, "e0_mpi": e0, "e0_serial": ref.e0, "seconds_mpi": seconds,
            "seconds_serial": ref.seconds}

"""Reverse-mode adjoints of numba-cuda ``@cuda.jit`` kernels.

``adtrans.adjoint(kernel, activity)`` on a ``@cuda.jit`` kernel returns a
:class:`CudaAdjointKernel`, launched like the primal::

    dk = adtrans.adjoint(axpy, ("dup", "dup", "dup"))      # a, x, y
    dk[blocks, threads](a, da, x, dx, y, dy)               # each dup argument followed by its shadow

Shadows follow the CPU convention (:class:`adtrans.Duplicated`): on entry a
shadow holds the adjoint of the array's final value, on return the adjoint of
its initial value, added to what it held.  Arguments may be host (numpy) or
device arrays; host arrays are copied by Numba as for any kernel launch.  The
adjoint is generated and compiled once per argument types; ``dk.kernel(*args)``
is the ``@cuda.jit`` dispatcher itself and ``dk.source(*args)`` (or
``adtrans.source(kernel, activity, *args)``) its source.

How a kernel is differentiated: the body of a CUDA kernel is one region per
thread (like one iteration of a fused ``prange`` loop): the adjoint runs the
thread's forward statements, then its reverse statements.  ``cuda.syncthreads()``
is mirrored at the corresponding point of the reverse sweep (also inside loops,
e.g. a tree reduction with a halving ``while`` loop); ``cuda.atomic.add`` in the
primal is an accumulation whose adjoint reads the shadow.  Shadow updates are
plain where the index is provably unique per thread and ``cuda.atomic.add``
otherwise; see :mod:`adtrans.cuda.finalize` for the rules, shadows of shared
and local arrays, and the fixed-size per-thread tapes (``tape_capacity``).

Limits (each raises :class:`~adtrans.errors.UnsupportedError` at generation time):

- ``Active`` scalars: a kernel returns nothing; pass a 1-element array as ``Duplicated``;
- the value returned by ``cuda.atomic.add`` (the old value), other atomics, and
  CUDA calls other than ``grid``, ``gridsize``, ``threadIdx``/``blockIdx``/
  ``blockDim``/``gridDim``, ``laneid``, ``warpsize``, ``shared.array``,
  ``local.array``, ``syncthreads``, ``syncwarp``, ``atomic.add``/``atomic.sub``;
- active shared or local arrays allocated inside a loop;
- a value the reverse sweep needs that is overwritten in a loop whose trip count
  adtrans cannot bound (constant ``range``, halving ``while``), unless a tape
  capacity is given: ``cuda_adjoint(kernel, activity, tape_capacity=N)`` or
  ``$ADTRANS_CUDA_TAPE_CAPACITY`` (see :mod:`adtrans.cuda.finalize`);
- a loop that reads a global array the kernel overwrites later, when that
  loop's reverse must recompute it (it would need a per-thread copy of the
  whole array; shared and local arrays, e.g. shared-memory tiles, are copied
  per thread into local memory and the tape).

Assumptions: the primal is race-free (as CUDA requires), barriers are reached
by every thread of the block, and a kernel that indexes with only x
coordinates (``cuda.grid(1)``, ``threadIdx.x + blockIdx.x * blockDim.x``) is
launched with 1-D blocks and grid, as ``cuda.grid(1)`` requires.
"""
from __future__ import annotations

import threading

import numba
import numpy as np
from numba.core import types as nbtypes

from ..compile import load_module
from ..errors import ActivityError, ADError
from ..parse import parse_function, python_function
from .finalize import HALVING_TRIPS, tape_capacity_default
from .generate import generate_cuda, module_source

__all__ = ["CudaAdjointKernel", "cuda_adjoint", "cuda_source", "generate_cuda", "HALVING_TRIPS",
           "typeof_arg"]

_LOCK = threading.RLock()
_PARSED: dict = {}
_COMPILED: dict = {}


def typeof_arg(a):
    """Numba type of a kernel argument (numpy array, device array, scalar)."""
    try:
        return numba.typeof(a)
    except (ValueError, TypeError):
        pass
    if hasattr(a, "dtype") and hasattr(a, "ndim"):
        return nbtypes.Array(numba.from_dtype(np.dtype(a.dtype)), int(a.ndim), "A")
    raise ADError(f"cannot type kernel argument {a!r}")


def _primal(fn):
    pyfunc, _ = python_function(fn)
    hit = _PARSED.get(id(pyfunc))
    if hit is None or hit[0] is not pyfunc:
        hit = _PARSED[id(pyfunc)] = (pyfunc, parse_function(fn))
    return hit[1]


def _compiled(fn, activity, argtypes, tape_capacity):
    primal = _primal(fn)
    cap = tape_capacity or tape_capacity_default()
    key = (id(primal.pyfunc), activity, argtypes, cap)
    with _LOCK:
        hit = _COMPILED.get(key)
        if hit is None:
            gen = generate_cuda(primal, activity, argtypes, tape_capacity=cap)
            text, digest = module_source([gen], f"{primal.filename}:{primal.name}", primal.source)
            mod = load_module(text, digest, gen.global_arrays)
            hit = _COMPILED[key] = (gen, getattr(mod, gen.name))
    return hit


class CudaAdjointKernel:
    """The adjoint of a ``@cuda.jit`` kernel for one activity tuple; launch it like the primal:
    ``dk[griddim, blockdim](*args)`` with each ``"dup"`` argument followed by its shadow."""

    def __init__(self, kernel, activity, tape_capacity: int | None = None):
        self.fn = kernel
        self.activity = tuple(a.lower() for a in activity)
        self.tape_capacity = tape_capacity
        self.primal = _primal(kernel)
        if len(self.activity) != len(self.primal.params):
            raise ActivityError(f"{self.primal.name} has {len(self.primal.params)} parameters "
                                f"({', '.join(self.primal.params)}), got {len(self.activity)} activities")

    def split(self, args):
        """The primal arguments among ``args`` (primal arguments with shadows after each dup)."""
        primal_args, k = [], 0
        for a in self.activity:
            if k >= len(args):
                raise ActivityError(f"too few arguments for activity {self.activity}")
            primal_args.append(args[k])
            if a == "dup":
                if k + 1 >= len(args):
                    raise ActivityError(f"missing the shadow of argument {len(primal_args) - 1}")
                v, s = args[k], args[k + 1]
                if tuple(v.shape) != tuple(s.shape) or np.dtype(v.dtype) != np.dtype(s.dtype):
                    raise ActivityError(f"shadow of shape {tuple(s.shape)} and dtype {s.dtype} for an array of "
                                        f"shape {tuple(v.shape)} and dtype {v.dtype}: they must match")
            k += 2 if a == "dup" else 1
        if k != len(args):
            raise ActivityError(f"{len(args)} arguments for activity {self.activity}: expected {k}")
        return primal_args

    def argtypes(self, primal_args):
        return tuple(typeof_arg(a) for a in primal_args)

    def kernel(self, *primal_args):
        """The ``@cuda.jit`` adjoint kernel for the types of ``primal_args``."""
        return _compiled(self.fn, self.activity, self.argtypes(primal_args), self.tape_capacity)[1]

    def kernel_for_types(self, argtypes):
        """The ``@cuda.jit`` adjoint kernel for Numba ``argtypes`` of the primal parameters."""
        return _compiled(self.fn, self.activity, tuple(argtypes), self.tape_capacity)[1]

    def generated(self, *primal_args):
        return _compiled(self.fn, self.activity, self.argtypes(primal_args), self.tape_capacity)[0]

    def source(self, *primal_args) -> str:
        return self.generated(*primal_args).function_source

    def __getitem__(self, config):
        return _Launch(self, config)


class _Launch:
    def __init__(self, adj, config):
        self.adj, self.config = adj, config

    def __call__(self, *args):
        kern = self.adj.kernel(*self.adj.split(args))
        cfg = self.config if isinstance(self.config, tuple) else (self.config,)
        return kern[cfg](*args)


def cuda_adjoint(fn, activity, tape_capacity: int | None = None) -> CudaAdjointKernel:
    """The adjoint of the ``@cuda.jit`` kernel ``fn`` (see :class:`CudaAdjointKernel`)."""
    return CudaAdjointKernel(fn, activity, tape_capacity)


def cuda_source(fn, activity, *args, signature=None, tape_capacity: int | None = None) -> str:
    """Generated source of the CUDA adjoint of ``fn``.  Types from example primal ``args``, else from
    ``signature`` (e.g. ``"void(float64[:], float64[:])"``), else from the kernel's first compiled one."""
    adj = CudaAdjointKernel(fn, activity, tape_capacity)
    if args:
        argtypes = adj.argtypes(args)
    else:
        from ..api import _signature_types
        argtypes = _signature_types(fn, signature)
    return _compiled(fn, adj.activity, tuple(argtypes), tape_capacity)[0].function_source

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
otherwise; see :mod:`adtrans.cuda.lowering` for the rules, shadows of shared
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
  ``$ADTRANS_CUDA_TAPE_CAPACITY`` (see :mod:`adtrans.cuda.lowering`);
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

from ..arguments import check_aliasing_flat, primal_of, signature_types, split_args, typeof_arg
from ..build import compiled
from ..errors import ActivityError
from ..pipeline import Generated, generate
from .lowering import HALVING_TRIPS
from .target import CudaTarget

__all__ = ["CudaAdjointKernel", "CudaTarget", "cuda_adjoint", "cuda_source", "generate_cuda", "HALVING_TRIPS",
           "typeof_arg"]

_LOCK = threading.Lock()
_LAST_LAUNCH: dict = {}     # id(kernel) -> (kernel, argtypes of its last adjoint launch); two dispatchers of
                            # one Python function (other options) are two kernels


def generate_cuda(primal, activity, argtypes, name: str | None = None,
                  tape_capacity: int | None = None) -> Generated:
    """Generate the ``@cuda.jit`` adjoint of the CUDA kernel ``primal`` for ``activity`` and Numba
    ``argtypes``.  Its parameters: the primal's, each ``dup`` followed by its shadow."""
    return generate(primal, tuple(a.lower() for a in activity), argtypes, CudaTarget(tape_capacity), name)


def last_launch_types(fn):
    """Argument types of the last adjoint launch of the kernel ``fn`` in this process, else None."""
    hit = _LAST_LAUNCH.get(id(fn))
    return hit[1] if hit is not None and hit[0] is fn else None


class CudaAdjointKernel:
    """The adjoint of a ``@cuda.jit`` kernel for one activity tuple; launch it like the primal:
    ``dk[griddim, blockdim](*args)`` with each ``"dup"`` argument followed by its shadow."""

    def __init__(self, kernel, activity, tape_capacity: int | None = None):
        self.fn = kernel
        self.activity = tuple(a.lower() for a in activity)
        self.tape_capacity = tape_capacity
        self.primal = primal_of(kernel)
        if len(self.activity) != len(self.primal.params):
            raise ActivityError(f"{self.primal.name} has {len(self.primal.params)} parameters "
                                f"({', '.join(self.primal.params)}), got {len(self.activity)} activities")

    def split(self, args):
        """The primal arguments among ``args`` (primal arguments with shadows after each dup)."""
        primal_args, rest = split_args(self.activity, args, check_shadows=True)
        if rest:
            raise ActivityError(f"{len(args)} arguments for activity {self.activity}: "
                                f"expected {len(args) - len(rest)}")
        check_aliasing_flat(self.primal.params, self.activity, args)
        return primal_args

    def argtypes(self, primal_args):
        return tuple(typeof_arg(a) for a in primal_args)

    def _compiled(self, argtypes):
        return compiled(self.fn, self.activity, tuple(argtypes), CudaTarget(self.tape_capacity))

    def kernel(self, *primal_args):
        """The ``@cuda.jit`` adjoint kernel for the types of ``primal_args``."""
        return self._compiled(self.argtypes(primal_args))[1]

    def kernel_for_types(self, argtypes):
        """The ``@cuda.jit`` adjoint kernel for Numba ``argtypes`` of the primal parameters."""
        return self._compiled(argtypes)[1]

    def generated(self, *primal_args):
        """The :class:`~adtrans.pipeline.Generated` adjoint for the types of ``primal_args``."""
        return self._compiled(self.argtypes(primal_args))[0]

    def source(self, *primal_args) -> str:
        """The generated adjoint source for the types of ``primal_args``."""
        return self.generated(*primal_args).function_source

    def launch_kernel(self, args):
        """The adjoint kernel for a launch with ``args`` (remembering their types, see
        :func:`last_launch_types`)."""
        argtypes = self.argtypes(self.split(args))
        kern = self._compiled(argtypes)[1]
        with _LOCK:
            _LAST_LAUNCH[id(self.fn)] = (self.fn, argtypes)
        return kern

    def __getitem__(self, config):
        return _Launch(self, config)


class _Launch:
    def __init__(self, adj, config):
        self.adj, self.config = adj, config

    def __call__(self, *args):
        kern = self.adj.launch_kernel(args)
        cfg = self.config if isinstance(self.config, tuple) else (self.config,)
        return kern[cfg](*args)


def cuda_adjoint(fn, activity, tape_capacity: int | None = None) -> CudaAdjointKernel:
    """The adjoint of the ``@cuda.jit`` kernel ``fn`` (see :class:`CudaAdjointKernel`)."""
    return CudaAdjointKernel(fn, activity, tape_capacity)


def cuda_source(fn, activity, *args, signature=None, tape_capacity: int | None = None) -> str:
    """Generated source of the CUDA adjoint of ``fn``.  Types from example primal ``args``, else from
    ``signature`` (e.g. ``"void(float64[:], float64[:])"``), else from the last adjoint launch of
    ``fn``, else from the kernel's first compiled signature."""
    adj = CudaAdjointKernel(fn, activity, tape_capacity)
    if args:
        argtypes = adj.argtypes(args)
    elif signature is None and last_launch_types(fn) is not None:
        argtypes = last_launch_types(fn)
    else:
        argtypes = signature_types(fn, signature)
    return adj._compiled(argtypes)[0].function_source

"""Which target a function gets: the one place that decides CPU, CUDA or driver."""
from __future__ import annotations

import inspect

from .adjoint import AdjointFunction
from .cuda import CudaAdjointKernel
from .cuda.target import CudaTarget
from .parse import Primal, is_cuda_dispatcher
from .targets.base import DRIVER, Target
from .targets.cpu import CPU, CPU_NO_OUTPUTS


def target_of(fn, tape_capacity: int | None = None) -> Target:
    """The target of ``fn``: a :class:`~adtrans.cuda.target.CudaTarget` for ``@cuda.jit`` kernels,
    :data:`~adtrans.targets.base.DRIVER` for plain Python functions, else
    :data:`~adtrans.targets.cpu.CPU`.  ``fn`` may also be a parsed :class:`~adtrans.parse.Primal`
    (read from a file: CUDA or CPU by its decorator)."""
    if isinstance(fn, Primal):
        return CudaTarget(tape_capacity) if fn.cuda else CPU
    if is_cuda_dispatcher(fn):
        return CudaTarget(tape_capacity)
    if not hasattr(fn, "py_func") and inspect.isfunction(fn):
        return DRIVER
    return CPU


def kernel_adjoint(fn, activity, keeps_outputs: bool = True):
    """The adjoint object of the kernel ``fn``: a :class:`~adtrans.cuda.CudaAdjointKernel` for
    ``@cuda.jit`` kernels, else an :class:`~adtrans.adjoint.AdjointFunction`.  ``keeps_outputs=False``:
    the caller reads none of the primal's outputs after the adjoint's call (a CPU adjoint may then
    leave them unwritten)."""
    if target_of(fn).kind == "cuda":
        return CudaAdjointKernel(fn, activity)
    return AdjointFunction(fn, activity, CPU if keeps_outputs else CPU_NO_OUTPUTS)

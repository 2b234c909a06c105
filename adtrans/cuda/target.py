"""The CUDA target: ``@cuda.jit`` adjoints (per-thread fixed-size tapes, atomics; see
:mod:`adtrans.cuda.lowering`)."""
from __future__ import annotations

import ast

from ..targets.base import IMPORTS_HEAD, Target, option_source
from .lowering import CudaLowering, tape_capacity_default
from .extension import CudaExtension, typing_copy

IMPORTS = IMPORTS_HEAD + "from numba import cuda\n"


class CudaTarget(Target):
    """``@cuda.jit`` kernels.  ``tape_capacity``: values per thread and dtype of tapes in loops
    whose trip count cannot be bounded (default ``$ADTRANS_CUDA_TAPE_CAPACITY``, else none)."""
    kind = "cuda"
    disk_cache = False

    def __init__(self, tape_capacity: int | None = None):
        self.tape_capacity = tape_capacity

    @property
    def capacity(self) -> int | None:
        """The tape capacity in effect (the given one, else ``$ADTRANS_CUDA_TAPE_CAPACITY``)."""
        return self.tape_capacity or tape_capacity_default()

    @property
    def key(self) -> tuple:
        return (self.kind, self.capacity)

    def imports(self) -> str:
        return IMPORTS

    def digest_parts(self) -> tuple:
        return ("cuda",)

    def normaliser_extension(self):
        return CudaExtension()

    def is_array_type(self, t) -> bool:
        return hasattr(t, "ndim") and hasattr(t, "dtype")

    def typing_copy(self, norm):
        return typing_copy(norm)

    def check_activity(self, primal, param_activity: dict) -> None:
        for p, a in param_activity.items():
            if a == "active":
                raise primal.error(primal.tree, f"Active scalar `{p}` of the CUDA kernel {primal.name} "
                                                f"(a kernel returns nothing, so it has no scalar adjoint to return)",
                                   f"pass `{p}` as a 1-element array, Duplicated(np.array([{p}]), shadow), "
                                   f"and read {p}[0] in the kernel")

    def lower(self, marked) -> ast.FunctionDef:
        b = marked.builder
        func = CudaLowering(marked, b.types, b.act, marked.primal, self.capacity).lower()
        for s in ast.walk(func):
            for n in ast.walk(s) if isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr)) else ():
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "special":
                    # adtrans.special.digamma is CPU code (the derivative of lgamma/gamma)
                    raise marked.primal.error(s, "math.lgamma/math.gamma of an active value in a CUDA kernel "
                                                 "(its derivative, digamma, has no CUDA version here)",
                                              "pass only constant arguments to it, or compute it in an @njit "
                                              "kernel or the driver")
        return func

    def call_convention(self, marked, func) -> dict:
        return {"returns": [], "seeds": [], "parallel": False}

    def decorator(self, primal, parallel: bool, cache: bool = True) -> str:
        opts = []
        fastmath = (getattr(primal.dispatcher, "targetoptions", None) or {}).get("fastmath")
        if fastmath is None:
            fastmath = getattr(primal.dispatcher, "_fastmath", None)
        if primal.dispatcher is None and "fastmath=True" in "".join(primal.decorators).replace(" ", ""):
            fastmath = True
        if fastmath:
            opts.append(f"fastmath={option_source(fastmath)}")
        return "cuda.jit(" + ", ".join(["cache=True"] + opts) + ")"

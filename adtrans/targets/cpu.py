"""The CPU target: ``@numba.njit`` adjoints with growable tapes and the prange rewrite."""
from __future__ import annotations

import ast

from numba.core import types as nbtypes

from ..transform.lowering import CpuLowering
from .base import IMPORTS_HEAD, Target

IMPORTS = IMPORTS_HEAD + ("\nfrom adtrans.targets.cpu_runtime import num_threads, tape_grow, tape_pop_array, "
                          "tape_push_array, thread_id\n")


class CpuTarget(Target):
    """``@njit`` kernels (also ``parallel=True`` with prange)."""
    kind = "cpu"
    tape_by_cost = True

    def imports(self) -> str:
        return IMPORTS

    def is_array_type(self, t) -> bool:
        return isinstance(t, nbtypes.Array)

    def lower(self, marked) -> ast.FunctionDef:
        b = marked.builder
        body = CpuLowering(b, marked.result_seeds).run(marked.body)
        params = marked.parameters()
        ret = ast.Tuple(elts=[ast.Name(b.adj(p), ast.Load()) if b.is_active(p) else ast.Constant(0.0)
                              for p in marked.active_scalars], ctx=ast.Load())
        body.append(ast.Return(value=ret))
        return marked.function(body, params)

    def call_convention(self, marked, func) -> dict:
        parallel = any(s.prange_var for s in marked.builder.scopes) or "numba.prange" in ast.unparse(func)
        return {"returns": list(marked.active_scalars), "seeds": list(marked.seed_params), "parallel": parallel}

    def decorator(self, primal, parallel: bool, cache: bool = True) -> str:
        opts = []
        if cache:
            opts.append("cache=True")
        if parallel:
            opts.append("parallel=True")
        fastmath = (getattr(primal.dispatcher, "targetoptions", None) or {}).get("fastmath")
        if fastmath:
            opts.append(f"fastmath={fastmath!r}")
        if primal.dispatcher is None and "fastmath=True" in "".join(primal.decorators).replace(" ", ""):
            opts.append("fastmath=True")
        return "numba.njit(" + ", ".join(opts) + ")"


#: The CPU target.
CPU = CpuTarget()

"""Types of every variable of a normalised kernel, from Numba's own type inference.

The normalised primal is itself a valid Numba function; typing it for the
call-time argument types gives the type of every temporary the rules create.
"""
from __future__ import annotations

import math
import re
import types as pytypes

import numba
import numpy as np
from numba.core import compiler, typed_passes, types as nbtypes
from numba.core.registry import cpu_target
from numba.core.rewrites.static_raise import RewriteConstRaises
from numba.core.untyped_passes import RewriteDynamicRaises

from .. import special
from ..errors import TypingError
from ..ir.lines import first_line, line_map, locate

_COUNTER = [0]


def namespace(norm) -> dict:
    """Globals the normalised or generated code refers to."""
    ns = {"math": math, "np": np, "numba": numba, "special": special}
    ns.update(norm.global_arrays)
    return ns


def _function_from_source(norm):
    src = norm.source()
    _COUNTER[0] += 1
    modname = f"adtrans_typing_{_COUNTER[0]}"
    mod = pytypes.ModuleType(modname)
    mod.__dict__.update(namespace(norm))
    code = compile(src, f"<adtrans normalised {norm.name}>", "exec")
    exec(code, mod.__dict__)
    return mod.__dict__[norm.name]


def _static_raises(func_ir) -> None:
    """``raise E("message")`` -> a static raise, and ``raise E("at", i)`` (run-time arguments) a
    dynamic one, as Numba's own pipeline does before typing."""
    rewrite = RewriteConstRaises()
    for key, block in list(func_ir.blocks.items()):
        if rewrite.match(func_ir, block, None, None):
            func_ir.blocks[key] = rewrite.apply()
    RewriteDynamicRaises().run_pass(pytypes.SimpleNamespace(func_ir=func_ir))


def infer_types(norm, argtypes) -> dict:
    """Map each variable name to its Numba type (versions ``x.1``, ``x.2`` unified).

    ``argtypes``: Numba types of the parameters, in order.  Raises
    :class:`TypingError` with Numba's message when the kernel does not type.
    """
    fn = _function_from_source(norm)
    typingctx = cpu_target.typing_context
    targetctx = cpu_target.target_context
    typingctx.refresh()
    targetctx.refresh()
    try:
        func_ir = compiler.run_frontend(fn)
        _static_raises(func_ir)
        typemap, restype, _calltypes, _errs = typed_passes.type_inference_stage(
            typingctx, targetctx, func_ir, tuple(argtypes), None)
    except Exception as exc:  # numba raises many kinds
        where = locate(str(exc), "<adtrans normalised", line_map(norm.function())) \
            if hasattr(norm, "function") else None
        if where is None:
            raise TypingError(f"Numba could not type {norm.name} for {tuple(argtypes)}: {exc}") from exc
        err = TypingError(f"{where[0]}:{where[1]}: Numba could not type this line of kernel {norm.name} for "
                          f"{tuple(argtypes)}: {first_line(str(exc))}")
        err.filename, err.lineno = where
        raise err from None
    out: dict = {}
    for key, ty in typemap.items():
        if key.startswith("$"):
            continue
        base = re.sub(r"\.\d+$", "", key)
        base = base.split(".")[0] if not base.startswith("arg.") else base[4:]
        prev = out.get(base)
        if prev is None or prev == ty:
            out[base] = ty
        else:
            unified = typingctx.unify_pairs(prev, ty)
            out[base] = unified if unified is not None else prev
    out["<return>"] = restype
    return out


def is_float(ty) -> bool:
    return isinstance(ty, nbtypes.Float)


def is_array(ty) -> bool:
    return isinstance(ty, nbtypes.Array)


def scalar_dtype_name(ty) -> str:
    """NumPy dtype name for a scalar Numba type (bool -> 'bool_'); a 0-d array (``np.array(0.5)``
    passed where the kernel reads a scalar) names its dtype."""
    if isinstance(ty, nbtypes.Array) and ty.ndim == 0:
        ty = ty.dtype
    if isinstance(ty, nbtypes.Boolean):
        return "bool_"
    if isinstance(ty, nbtypes.Literal):
        ty = ty.literal_type
    return str(ty)

"""The pipeline for one ``@cuda.jit`` kernel: parse -> normalise (CUDA extension) -> type
(CPU stand-ins) -> activity -> builder -> core finalize -> CUDA finalize -> emit."""
from __future__ import annotations

from ..analyse.activity import analyse_activity
from ..analyse.types import infer_types
from ..emit import HEADER, VERSION, digest_of, render_function
from ..normalise import normalise
from ..parse import Primal
from ..pipeline import Generated, check_activity
from ..transform import build_adjoint
from ..transform.tidy import tidy
from .finalize import CudaFinalizer
from .lower import CudaExtension, typing_copy

IMPORTS = "import math\n\nimport numba\nimport numpy as np\nfrom numba import cuda\n"


def decorator_for(primal: Primal) -> str:
    opts = []
    fastmath = (getattr(primal.dispatcher, "targetoptions", None) or {}).get("fastmath")
    if fastmath is None:
        fastmath = getattr(primal.dispatcher, "_fastmath", None)
    if primal.dispatcher is None and "fastmath=True" in "".join(primal.decorators).replace(" ", ""):
        fastmath = True
    if fastmath:
        opts.append(f"fastmath={fastmath!r}")
    return "cuda.jit(" + ", ".join(["cache=True"] + opts) + ")"


def generate_cuda(primal: Primal, activity, argtypes, name: str | None = None,
                  tape_capacity: int | None = None) -> Generated:
    """Generate the ``@cuda.jit`` adjoint of the CUDA kernel ``primal`` for ``activity`` and Numba
    ``argtypes``.  Its parameters: the primal's, each ``dup`` followed by its shadow."""
    argtypes = tuple(argtypes)
    activity = tuple(a.lower() for a in activity)
    param_activity = check_activity(primal, activity, argtypes)
    for p, a in param_activity.items():
        if a == "active":
            raise primal.error(primal.tree, f"Active scalar `{p}` of the CUDA kernel {primal.name} "
                                            f"(a kernel returns nothing, so it has no scalar adjoint to return)",
                               f"pass `{p}` as a 1-element array, Duplicated(np.array([{p}]), shadow), "
                               f"and read {p}[0] in the kernel")
    arrays = {p for p, t in zip(primal.params, argtypes) if hasattr(t, "ndim") and hasattr(t, "dtype")}
    norm = normalise(primal, arrays, ext=CudaExtension())
    types = infer_types(typing_copy(norm), argtypes)
    act = analyse_activity(norm, types, param_activity, primal.error)
    name = name or f"{primal.name}_adjoint"
    adj = build_adjoint(norm, types, act, param_activity, primal.error, name)
    func = CudaFinalizer(adj.builder, norm, types, act, primal, tape_capacity).run(adj.func)
    text = render_function(tidy(func, adj.builder.scalar_names()), decorator_for(primal))
    return Generated(name=name, function_source=text, params=adj.params, returns=[], seeds=[],
                     global_arrays=dict(norm.global_arrays), parallel=False)


def module_source(gens: list[Generated], origin: str, input_text: str) -> tuple[str, str]:
    """Module text holding the CUDA adjoints ``gens`` and its digest."""
    body = [g.function_source for g in gens]
    digest = digest_of("cuda", input_text, *body)
    head = HEADER.format(version=VERSION, origin=origin, digest=digest)
    return head + IMPORTS + "\n\n" + "\n\n\n".join(body) + "\n", digest


__all__ = ["generate_cuda", "module_source", "decorator_for"]

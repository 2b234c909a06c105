"""The whole pipeline for one kernel and one target:
parse -> normalise -> type -> activity -> transform (marked IR) -> target lowering -> emit."""
from __future__ import annotations

from dataclasses import dataclass

from numba.core import types as nbtypes

from .analyse.activity import analyse_activity
from .analyse.types import infer_types, is_array, is_float
from .emit import digest_of, render_function, render_module
from .errors import ActivityError
from .ir.lines import line_map
from .normalise import normalise
from .parse import Primal
from .targets.base import Target
from .targets.cpu import CPU
from .transform import build_adjoint
from .transform.tidy import tidy

ACTIVITIES = ("const", "active", "dup")


@dataclass
class Generated:
    """Generated adjoint: its source, name, call parameters and returned adjoints."""
    name: str
    function_source: str
    params: list
    returns: list
    seeds: list
    global_arrays: dict
    parallel: bool
    where: dict = None          # line of the function source -> (user's file, line)
    seed_args: int = 0      # kernels returning arrays: seeds passed as arguments, one per result
    tape_pools: list = None     # dtypes of the optional trailing tape-pool arguments (CPU target)


def check_activity(primal: Primal, activity, argtypes) -> dict:
    """Parameter -> activity (lower case), checked against the argument types."""
    params = primal.params
    if len(activity) != len(params):
        raise ActivityError(f"{primal.name} has {len(params)} parameters ({', '.join(params)}) but "
                            f"{len(activity)} activities were given")
    out = {}
    for p, a, t in zip(params, activity, argtypes):
        a = a.lower()
        if a not in ACTIVITIES:
            raise ActivityError(f"activity {a!r} of {p}: use one of {ACTIVITIES}")
        if a == "dup" and not (is_array(t) and is_float(t.dtype)):
            raise ActivityError(f"{p} is {t}; Duplicated needs a float array (float32 or float64)")
        if a == "active" and not is_float(t):
            raise ActivityError(f"{p} is {t}; Active needs a float scalar (arrays are Duplicated)")
        out[p] = a
    return out


def _dtype_name(dt) -> str:
    s = str(dt)
    if s in ("float64", "float32", "bool"):
        return s
    return "int64" if "int" in s else "float64"


def generate(primal: Primal, activity, argtypes, target: Target = CPU, name: str | None = None,
             cache: bool = True) -> Generated:
    """Generate the adjoint of ``primal`` for ``activity`` (one per parameter) and Numba ``argtypes``
    on ``target`` (:data:`~adtrans.targets.cpu.CPU` or a :class:`~adtrans.cuda.target.CudaTarget`)."""
    argtypes = tuple(argtypes)
    param_activity = check_activity(primal, activity, argtypes)
    target.check_activity(primal, param_activity)
    arrays = {p: (t.ndim, _dtype_name(t.dtype)) for p, t in zip(primal.params, argtypes) if target.is_array_type(t)}
    scalars = {p: _dtype_name(t) for p, t in zip(primal.params, argtypes) if not target.is_array_type(t)}
    norm = normalise(primal, arrays, ext=target.normaliser_extension(), scalar_types=scalars)
    seed_types = tuple(nbtypes.Array(nbtypes.float64 if dt != "float32" else nbtypes.float32, nd, "A")
                       if nd else nbtypes.float64 for _, nd, dt in norm.seed_params)
    param_activity.update({w: "const" for w, _, _ in norm.seed_params})
    types = infer_types(target.typing_copy(norm), argtypes + seed_types)
    act = analyse_activity(norm, types, param_activity, primal.error)
    name = name or f"{primal.name}_adjoint"
    marked = build_adjoint(norm, types, act, param_activity, primal.error, name, primal,
                           tape_by_cost=target.tape_by_cost)
    func = target.lower(marked)
    conv = target.call_convention(marked, func)
    func = tidy(func, marked.builder.scalar_names())
    decorator = target.decorator(primal, conv["parallel"], cache)
    text = render_function(func, decorator)
    where = {ln + (1 if decorator else 0): w for ln, w in line_map(func).items()}
    return Generated(name=name, function_source=text, params=marked.parameters(), returns=conv["returns"],
                     seeds=conv["seeds"], global_arrays=dict(norm.global_arrays), parallel=conv["parallel"],
                     where=where, seed_args=len(norm.seed_params), tape_pools=conv.get("tape_pools") or [])


def module_source(gens: list[Generated], origin: str, input_text: str, target: Target = CPU) -> tuple[str, str]:
    """Module text holding ``gens`` (adjoints for ``target``) and its digest."""
    body = [g.function_source for g in gens]
    digest = digest_of(*target.digest_parts(), input_text, *body)
    return render_module(body, origin, digest, target.imports()), digest

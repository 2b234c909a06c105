"""The whole pipeline for one kernel: parse -> normalise -> analyse -> transform -> emit -> compile."""
from __future__ import annotations

from dataclasses import dataclass

import numba
from numba.core import types as nbtypes

from .analyse.activity import analyse_activity
from .analyse.types import infer_types, is_array, is_float
from .emit import digest_of, render_function, render_module
from .errors import ActivityError
from .normalise import normalise
from .parse import Primal
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


def check_activity(primal: Primal, activity, argtypes) -> dict:
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


def decorator_for(primal: Primal, parallel: bool, cache: bool = True) -> str:
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


def generate(primal: Primal, activity, argtypes, name: str | None = None, cache: bool = True) -> Generated:
    """Generate the adjoint of ``primal`` for ``activity`` (one per parameter) and Numba ``argtypes``."""
    argtypes = tuple(argtypes)
    param_activity = check_activity(primal, activity, argtypes)
    arrays = {p for p, t in zip(primal.params, argtypes) if isinstance(t, nbtypes.Array)}
    norm = normalise(primal, arrays)
    types = infer_types(norm, argtypes)
    act = analyse_activity(norm, types, param_activity, primal.error)
    name = name or f"{primal.name}_adjoint"
    adj = build_adjoint(norm, types, act, param_activity, primal.error, name)
    text = render_function(tidy(adj.func, adj.builder.scalar_names()), decorator_for(primal, adj.parallel, cache))
    return Generated(name=name, function_source=text, params=adj.params, returns=adj.returns,
                     seeds=adj.seeds, global_arrays=dict(norm.global_arrays), parallel=adj.parallel)


def module_source(gens: list[Generated], origin: str, input_text: str) -> tuple[str, str]:
    """Module text holding ``gens`` and its digest."""
    body = [g.function_source for g in gens]
    digest = digest_of(input_text, *body)
    return render_module(body, origin, digest), digest


def typeof_args(args) -> tuple:
    return tuple(numba.typeof(a) for a in args)

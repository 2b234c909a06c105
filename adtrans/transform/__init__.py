"""Stage 4 (transform): build the adjoint function's AST from a normalised kernel."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .builder import AdjointBuilder
from ..ir.markers import SCOPE_START, marker
from .scope import Scope
from .finalize import Finalizer


@dataclass
class AdjointAST:
    """The adjoint ``FunctionDef`` and how to call it.

    ``params``: parameter names in call order (primal arguments, each ``dup``
    argument followed by its shadow, then the seed(s)); ``returns``: the
    ``active`` parameters whose adjoints are returned, in order.
    """
    func: ast.FunctionDef
    params: list
    returns: list
    seeds: list
    parallel: bool
    builder: object = None      # the AdjointBuilder (adjoint names, tapes) for target finalize passes


def build_adjoint(norm, types, act, param_activity, error, name) -> AdjointAST:
    b = AdjointBuilder(norm, types, act, param_activity, error)
    fscope = Scope(None, None, set(norm.params))
    b.scopes.insert(0, fscope)
    code = b.adjacent(norm.body, fscope)
    seeds = {}
    active_results = [r for r in norm.results if b.is_active(r)]
    for k, r in enumerate(norm.results):
        seeds[r] = "seed" if len(norm.results) == 1 else f"seed_{k}"
    for r in active_results:
        fscope.owned.add(r)
    active_scalars = [p for p in norm.params if param_activity.get(p) == "active"]
    for p in active_scalars:
        fscope.owned.add(p)
    body = [marker(SCOPE_START, fscope.id)] + code
    body = Finalizer(b, {r: seeds[r] for r in active_results}).run(body)
    params = []
    for p in norm.params:
        params.append(p)
        if param_activity.get(p) == "dup":
            params.append(b.adj(p))
    seed_params = [seeds[r] for r in norm.results]
    params += seed_params
    ret = ast.Tuple(elts=[ast.Name(b.adj(p), ast.Load()) if b.is_active(p) else ast.Constant(0.0)
                          for p in active_scalars], ctx=ast.Load())
    body.append(ast.Return(value=ret))
    func = ast.FunctionDef(name=name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body, decorator_list=[], returns=None, type_params=[], lineno=1, col_offset=0)
    func = ast.fix_missing_locations(func)
    parallel = any(s.prange_var for s in b.scopes) or "numba.prange" in ast.unparse(func)
    return AdjointAST(func=func, params=params, returns=active_scalars,
                      seeds=seed_params, parallel=parallel, builder=b)

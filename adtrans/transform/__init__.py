"""Stage 4 (transform): build the adjoint of a normalised kernel as marked IR.

The marked IR is the adjoint's statement list with placeholder statements
(:mod:`.markers`): tape pushes and pops (``__push__``/``__pop__``) and scope
starts (``__scope_start__``).  A target lowers them (:mod:`adtrans.targets`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .builder import AdjointBuilder
from ..ir.markers import SCOPE_START, marker
from .restores import drop_dead_restores, drop_idle_pairs
from .scope import Scope


@dataclass
class MarkedAdjoint:
    """The adjoint before target lowering.

    ``body``: statements with markers; ``builder``: the :class:`AdjointBuilder` (adjoint names,
    scopes, tapes); ``active_scalars``: the ``active`` parameters, whose adjoints a CPU adjoint
    returns, in order; ``result_seeds``: active result -> seed parameter; ``seed_params``: the
    seed parameters (one per result); ``primal``: the parsed primal.
    """
    name: str
    body: list
    builder: AdjointBuilder
    param_activity: dict
    active_scalars: list
    result_seeds: dict
    seed_params: list = field(default_factory=list)
    primal: object = None       # the parsed primal (for targets' error messages)

    @property
    def norm(self):
        return self.builder.norm

    def parameters(self) -> list:
        """Parameter names in call order: primal arguments, each ``dup`` argument followed by
        its shadow, then the seed(s).  Call it after lowering the markers (it names shadows)."""
        b, params = self.builder, []
        for p in self.norm.params:
            params.append(p)
            if self.param_activity.get(p) == "dup":
                params.append(b.adj(p))
        return params + list(self.seed_params)

    def function(self, body, params) -> ast.FunctionDef:
        """The adjoint ``FunctionDef`` with ``params`` and the lowered ``body``."""
        func = ast.FunctionDef(name=self.name, args=ast.arguments(
            posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=body, decorator_list=[], returns=None, type_params=[], lineno=1, col_offset=0)
        return ast.fix_missing_locations(func)


def build_adjoint(norm, types, act, param_activity, error, name, primal=None,
                  tape_by_cost: bool = False, reassociate: bool = False,
                  checkpoint_loops: bool = False, rerun_loops: bool = False) -> MarkedAdjoint:
    """The marked adjoint IR of the normalised kernel ``norm`` (see :class:`MarkedAdjoint`);
    ``tape_by_cost``: recomputed loops tape costly values instead of computing them again;
    ``reassociate``: the adjoint is compiled with fast-math reassociation (sums across a loop's
    iterations stay scalar accumulations, see ``LoopStrategies.lane_reductions``);
    ``checkpoint_loops``: function-level time loops save their state per segment and rerun it
    (``LoopStrategies.checkpointed_loop``) instead of taping every iteration's copies;
    ``rerun_loops``: function-level time loops tape only the state each iteration starts from
    and rerun the iteration in the reverse sweep (:mod:`adtrans.transform.rerun`)."""
    b = AdjointBuilder(norm, types, act, param_activity, error, tape_by_cost=tape_by_cost,
                       reassociate=reassociate, checkpoint_loops=checkpoint_loops, rerun_loops=rerun_loops)
    fscope = Scope(None, None, set(norm.params))
    b.scopes.insert(0, fscope)
    code = b.adjacent(norm.body, fscope)
    seeds = {}
    active_results = [r for r in norm.results if b.is_active(r)]
    for k, r in enumerate(norm.results):
        # (a kernel parameter may be called `seed`: `np.random.seed(seed)`)
        seeds[r] = norm.alloc.fresh("seed" if len(norm.results) == 1 else f"seed_{k}")
    for r in active_results:
        fscope.owned.add(r)
    active_scalars = [p for p in norm.params if param_activity.get(p) == "active"]
    for p in active_scalars:
        fscope.owned.add(p)
    body = drop_idle_pairs(drop_dead_restores([marker(SCOPE_START, fscope.id)] + code))
    return MarkedAdjoint(name=name, body=body, builder=b, param_activity=param_activity,
                         active_scalars=active_scalars, result_seeds={r: seeds[r] for r in active_results},
                         seed_params=[seeds[r] for r in norm.results], primal=primal)

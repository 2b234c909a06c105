"""The CPU target: ``@numba.njit`` adjoints with growable tapes and the prange rewrite."""
from __future__ import annotations

import ast
import os

from numba.core import types as nbtypes

from ..ir.walk import is_draw
from ..rules.derivatives import LAPACK_HELPERS
from ..transform.lowering import CpuLowering
from .base import IMPORTS_HEAD, Target, fastmath_of, option_source

IMPORTS = IMPORTS_HEAD + ("\nfrom adtrans.targets.cpu_blas import matmul_add"
                          "\nfrom adtrans.targets.cpu_lapack import " + ", ".join(sorted(LAPACK_HELPERS)) +
                          "\nfrom adtrans.targets.cpu_runtime import num_threads, tape_grow, tape_keep, "
                          "scratch_rows, scratch_sum_1d, scratch_sum_2d, scratch_sum_3d, tape_pop_array, "
                          "tape_push_array, tape_push_array_warm, tape_restore_array, tape_take, tape_view, thread_id\n")


def grow_draw_buffers(body: list) -> list:
    """Room for the random draws of ``while`` loops: before each store ``draws[k] = np.random.f()``
    inside a ``while`` loop (the forward sweep only: draws are forward-only, see
    :mod:`adtrans.normalise.draws`), ``if k >= draws.shape[0]: draws = tape_grow(draws, k + 1)``,
    as a tape push that finds its tape full (capacity doubled, contents copied: every later read
    of an earlier draw sees its value).  The list lowering counts such a store as none."""
    def walk(stmts, in_while):
        out = []
        for s in stmts:
            for field in ("body", "orelse"):
                sub = getattr(s, field, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    setattr(s, field, walk(sub, in_while or isinstance(s, ast.While)))
            if in_while and is_draw(s) and isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript) \
                    and isinstance(s.targets[0].value, ast.Name):
                buf, k = s.targets[0].value.id, ast.unparse(s.targets[0].slice)
                out += ast.parse(f"if {k} >= {buf}.shape[0]:\n    {buf} = tape_grow({buf}, {k} + 1)").body
            out.append(s)
        return out
    return walk(body, False)


class CpuTarget(Target):
    """``@njit`` kernels (also ``parallel=True`` with prange).

    ``pools``: the function's tapes come from (and go back to) optional trailing pool arguments,
    and popped arrays are read in place (see :mod:`adtrans.targets.cpu_runtime`), and matrix
    products may stay BLAS calls; False gives the plain form (fresh tapes, popped copies, products
    as loops) that the tangent of an adjoint (second order, :mod:`adtrans.transform.tangent`)
    reads back.  ``keeps_outputs=False``: the adjoint need not leave the primal's outputs in the
    caller's arrays (driver adjoints: :data:`CPU_NO_OUTPUTS`)."""
    kind = "cpu"
    tape_by_cost = True

    def __init__(self, pools: bool = True, keeps_outputs: bool = True):
        self.pools = pools
        self.keeps_outputs = keeps_outputs
        # checkpointed time loops: asked for by ADTRANS_CHECKPOINT=1 (off by default: on this
        # machine rerunning a segment costs more than the tape traffic it saves, see the README)
        self.checkpoint_loops = pools and os.environ.get("ADTRANS_CHECKPOINT", "0") == "1"
        # time loops rerun per iteration from their state: asked for by ADTRANS_RERUN=1 (off by
        # default: GradBench ode, n = 1e5, the tape's streamed copies cost less than the rerun's
        # passes, see adtrans/transform/rerun.py; the tape is a quarter of the size)
        self.rerun_loops = pools and os.environ.get("ADTRANS_RERUN", "0") == "1"
        # copy-back shadows exchanging roles (transform/shadowswap.py swap_shadows): asked for by
        # ADTRANS_SWAP_SHADOWS=1 (off by default only because the reverse step is then written
        # once per role assignment, which changes the generated form tests/test_firstwrite_params.py
        # pins; heat grad 3.2-3.9x -> 2.9-3.4x the primal with it)
        self.shadow_swaps = pools and os.environ.get("ADTRANS_SWAP_SHADOWS", "0") == "1"
        # whole-array exchanges as name swaps (transform/shadowswap.py swap_exchanges): asked for by
        # ADTRANS_SWAP_EXCHANGES=1 (off by default: Numba's code for loops over array names
        # rebound in a time loop does not vectorise, ~2x slower than the exchanges it saves)
        self.exchange_swaps = pools and os.environ.get("ADTRANS_SWAP_EXCHANGES", "0") == "1"

    @property
    def key(self) -> tuple:
        return (self.kind,) + self.digest_parts()

    def digest_parts(self) -> tuple:
        return ((() if self.pools else ("plain",)) + (("checkpoint",) if self.checkpoint_loops else ())
                + (("rerun",) if self.rerun_loops else ())
                + (("shadow-swaps",) if self.shadow_swaps else ())
                + (("exchange-swaps",) if self.exchange_swaps else ())
                + (() if self.keeps_outputs else ("no-outputs",)))

    @property
    def skips_zero_adjoints(self) -> bool:
        # the plain form is read back by the tangent, which is guarded after it is derived
        return self.pools

    @property
    def fuses_loops(self) -> bool:
        return self.pools

    @property
    def swaps_shadows(self) -> bool:
        return self.shadow_swaps

    @property
    def swaps_exchanges(self) -> bool:
        return self.exchange_swaps

    def imports(self) -> str:
        return IMPORTS

    def is_array_type(self, t) -> bool:
        return isinstance(t, nbtypes.Array)

    def lower(self, marked) -> ast.FunctionDef:
        b = marked.builder
        lowering = CpuLowering(b, marked.result_seeds, pools=self.pools)
        body = grow_draw_buffers(lowering.run(marked.body))
        params = marked.parameters()
        for dt in lowering.pooled:      # the function scope's tapes go back to their pools
            body.append(ast.parse(f"tape_keep({lowering.pool_name(dt)}, {b.tape_vars(b.scopes[0], dt)[0]})").body[0])
        ret = ast.Tuple(elts=[ast.Name(b.adj(p), ast.Load()) if b.is_active(p) else ast.Constant(0.0)
                              for p in marked.active_scalars], ctx=ast.Load())
        body.append(ast.Return(value=ret))
        func = marked.function(body, params)
        for dt in lowering.pooled:      # optional trailing arguments (see targets/cpu_runtime.py)
            func.args.args.append(ast.arg(arg=lowering.pool_name(dt)))
            func.args.defaults.append(ast.Constant(None))
        scratch = sorted(lowering.prange.scratch_dtypes)
        for dt in scratch:              # per-thread prange buffers, kept zeroed across calls
            func.args.args.append(ast.arg(arg=f"scratch_pool_{dt}"))
            func.args.defaults.append(ast.Constant(None))
        func.adtrans_tape_pools = list(lowering.pooled)
        func.adtrans_scratch_pools = scratch
        return func

    def call_convention(self, marked, func) -> dict:
        parallel = any(s.prange_var for s in marked.builder.scopes) or "numba.prange" in ast.unparse(func)
        return {"returns": list(marked.active_scalars), "seeds": list(marked.seed_params), "parallel": parallel,
                "tape_pools": list(getattr(func, "adtrans_tape_pools", ())),
                "scratch_pools": list(getattr(func, "adtrans_scratch_pools", ()))}

    def decorator(self, primal, parallel: bool, cache: bool = True) -> str:
        opts = []
        if cache:
            opts.append("cache=True")
        if parallel:
            opts.append("parallel=True")
        fastmath = fastmath_of(primal)
        if fastmath:
            opts.append(f"fastmath={option_source(fastmath)}")
        # the primal's floating-point error model and bounds checking, as the user chose them
        options = getattr(primal.dispatcher, "targetoptions", None) or {}
        for key in ("error_model", "boundscheck"):
            if options.get(key) is not None:
                opts.append(f"{key}={option_source(options[key])}")
        return "numba.njit(" + ", ".join(opts) + ")"

    def reassociates(self, primal) -> bool:
        fastmath = fastmath_of(primal)
        return fastmath is True or (isinstance(fastmath, (set, frozenset)) and bool({"reassoc", "fast"} & fastmath))


#: The CPU target.
CPU = CpuTarget()
#: the CPU target without tape pools or tape views: adjoints meant to be differentiated again
CPU_PLAIN = CpuTarget(pools=False)
#: the CPU target for adjoints whose caller reads none of the primal's outputs after the call
#: (the kernel adjoints of a driver adjoint, :func:`adtrans.driver.runtime.kernel_adjoint`)
CPU_NO_OUTPUTS = CpuTarget(keeps_outputs=False)

"""The compiled adjoint of an ``@njit`` kernel (the CPU target's callable)."""
from __future__ import annotations

import inspect
import threading

import numpy as np
from numba.core.errors import NumbaError
from numba.typed import List

from .arguments import primal_of, split_args, typeof_args
from .build import compiled
from .errors import ActivityError, GeneratedCodeError
from .ir.lines import first_line, locate
from .targets.cpu import CPU


_POOLS = threading.local()


def tape_pools(fn, dtypes) -> tuple:
    """The tape pools (one-element typed lists, see :mod:`adtrans.targets.cpu_runtime`) of the
    compiled adjoint ``fn`` for the calling Python thread: one per dtype in ``dtypes``, kept
    between calls so that a call starts from the tape the previous one grew.  Per thread, so
    two Python threads calling one adjoint at once never share a tape."""
    pools = getattr(_POOLS, "by_fn", None)
    if pools is None:
        pools = _POOLS.by_fn = {}
    hit = pools.get(id(fn))
    if hit is None or hit[0] is not fn:
        hit = pools[id(fn)] = (fn, tuple(List([np.empty(1024, np.dtype(dt))]) for dt in dtypes))
    return hit[1]


def release_tapes() -> None:
    """Drop the tapes the calling thread's adjoints keep between calls (their memory goes back
    when no call uses them); the next call of each adjoint starts with a fresh tape."""
    _POOLS.by_fn = {}


def _seed_value(w):
    return np.asarray(w, dtype=np.float64) if np.ndim(w) else float(w)


class AdjointFunction:
    """The compiled adjoint of ``fn`` for one activity tuple.

    Call it with the primal arguments in order, each ``"dup"`` argument
    followed by its shadow, then the seed (the adjoint of the returned float;
    omit it for kernels returning nothing).  Returns the tuple of adjoints of
    the ``"active"`` arguments.  Compiled once per argument types.
    """

    def __init__(self, fn, activity):
        self.fn = fn
        self.activity = tuple(a.lower() for a in activity)
        self.primal = primal_of(fn)
        if len(self.activity) != len(self.primal.params):
            raise ActivityError(f"{self.primal.name} has {len(self.primal.params)} parameters, "
                                f"got {len(self.activity)} activities")

    def __call__(self, *args):
        primal_args, seeds = split_args(self.activity, args)
        gen, fn = compiled(self.fn, self.activity, typeof_args(primal_args), CPU)
        full = list(args[:len(args) - len(seeds)])
        if gen.seed_args:       # a kernel returning arrays: one seed per returned value
            if len(seeds) != gen.seed_args:
                raise ActivityError(f"{self.primal.name} returns {gen.seed_args} value(s), some of them arrays: "
                                    f"pass one seed per returned value (seed=(w1, w2, ...), arrays shaped "
                                    f"like the results), got {len(seeds)}")
            full += [_seed_value(w) for w in seeds] + [1.0]
        else:
            if len(seeds) < len(gen.seeds):
                seeds = seeds + [1.0] * (len(gen.seeds) - len(seeds))
            full += seeds[:len(gen.seeds)]
        if gen.tape_pools:
            full += tape_pools(fn, gen.tape_pools)
        try:
            out = fn(*full)
        except NumbaError as exc:       # typing or compiling the generated code failed: our bug
            raise located_error(self.primal, gen, fn, exc) from None
        return () if out is None else out       # no active scalars: the adjoint returns nothing

    def source(self, *primal_args) -> str:
        """The generated adjoint source for the types of ``primal_args``."""
        gen, _ = compiled(self.fn, self.activity, typeof_args(primal_args), CPU)
        return gen.function_source


def located_error(primal, gen, fn, exc) -> GeneratedCodeError:
    """A :class:`GeneratedCodeError` naming the user's line behind the generated line Numba
    rejected (the kernel's own line when none is known)."""
    try:
        _, first = inspect.getsourcelines(fn.py_func)
    except (OSError, TypeError, AttributeError):
        first = 1
    where = locate(str(exc), "adtrans_gen_", getattr(gen, "where", None) or {}, offset=first - 1)
    filename, lineno = where or (primal.filename, primal.tree.lineno)
    return GeneratedCodeError(primal.name, first_line(str(exc)), filename=filename, lineno=lineno)

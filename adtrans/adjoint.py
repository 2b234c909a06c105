"""The compiled adjoint of an ``@njit`` kernel (the CPU target's callable)."""
from __future__ import annotations

import ast
import inspect
import os
import re
import threading

import numpy as np
from numba.core import types as nbtypes
from numba.core.errors import NumbaError
from numba.extending import overload

from .arguments import aliasing_pairs, host_key, primal_of, refuse_overlaps, split_args, typeof_args
from .analyse.effects import written_in
from .build import compiled
from .errors import ActivityError, GeneratedCodeError, UnsupportedError
from .ir.lines import first_line, locate
from .normalise.varlength import REBINDING_MARK
from .targets.cpu import CPU
from .targets.cpu_runtime import scratch_pool, tape_pool


_POOLS = threading.local()


def tape_pools(fn, dtypes, scratch=()) -> tuple:
    """The tape pools (one-element typed lists, see :mod:`adtrans.targets.cpu_runtime`) of the
    compiled adjoint ``fn`` for the calling Python thread: one per dtype in ``dtypes``, kept
    between calls so that a call starts from the tape the previous one grew; then one scratch
    pool (per-thread prange buffers, kept zeroed) per dtype in ``scratch``.  Per thread, so
    two Python threads calling one adjoint at once never share a tape or a buffer."""
    pools = getattr(_POOLS, "by_fn", None)
    if pools is None:
        pools = _POOLS.by_fn = {}
    hit = pools.get(id(fn))
    if hit is None or hit[0] is not fn:
        made = tuple(tape_pool(np.empty(1024, np.dtype(dt))) for dt in dtypes) + \
            tuple(scratch_pool(np.zeros(0, np.dtype(dt))) for dt in scratch)
        hit = pools[id(fn)] = (fn, made)
    return hit[1]


def drop_pools(fn) -> None:
    """Forget the calling thread's pools of ``fn`` (after a call that raised: a prange loop left
    midway may leave a per-thread buffer not zeroed)."""
    getattr(_POOLS, "by_fn", {}).pop(id(fn), None)


def release_tapes() -> None:
    """Drop the tapes and per-thread prange buffers the calling thread's adjoints keep between
    calls (their memory goes back when no call uses them); the next call of each adjoint starts
    with fresh ones."""
    _POOLS.by_fn = {}


def _seed_value(w):
    return np.asarray(w, dtype=np.float64) if np.ndim(w) else float(w)


class AdjointFunction:
    """The compiled adjoint of ``fn`` for one activity tuple.

    Call it with the primal arguments in order, each ``"dup"`` argument
    followed by its shadow, then the seed (the adjoint of the returned float;
    omit it for kernels returning nothing).  Returns the tuple of adjoints of
    the ``"active"`` arguments.  Compiled once per argument types.  ``target``: the CPU target
    (:data:`~adtrans.targets.cpu.CPU_NO_OUTPUTS` for a caller that reads none of the primal's
    outputs after the call: the adjoint may then leave them unwritten).
    """

    def __init__(self, fn, activity, target=CPU):
        self.fn = fn
        self.target = target
        self.activity = tuple(a.lower() for a in activity)
        self.primal = primal_of(fn)
        if len(self.activity) != len(self.primal.params):
            raise ActivityError(f"{self.primal.name} has {len(self.primal.params)} parameters, "
                                f"got {len(self.activity)} activities")
        self._jit = None
        self._by_key = {}       # host_key of the primal arguments -> (Generated, compiled, aliasing pairs)
        self._writes = {}       # host_key of the primal arguments -> primal_writes

    def _compiled(self, primal_args) -> tuple:
        """``(Generated, compiled adjoint, aliasing pairs)`` for the types of ``primal_args``;
        looked up by :func:`~adtrans.arguments.host_key` where the arguments have one (a call
        then costs no Numba typing and no lookup in the shared compile cache)."""
        key = host_key(primal_args)
        hit = self._by_key.get(key) if key is not None else None
        if hit is None:
            gen, fn = compiled(self.fn, self.activity, typeof_args(primal_args), self.target)
            pairs = aliasing_pairs(self.primal.params, self.activity, gen.written, gen.parallel)
            if key is not None:     # a scalar argument (in the key: its type) shares no memory
                flat = [k for k, a in enumerate(self.activity) for _ in range(2 if a == "dup" else 1)]
                scalar = {f for f, k in enumerate(flat) if not isinstance(key[k], tuple) and
                          (f == 0 or flat[f - 1] != k)}
                pairs = tuple(p for p in pairs if p[0] not in scalar and p[1] not in scalar)
            hit = (gen, fn, pairs)
            if key is not None:
                self._by_key[key] = hit
        return hit

    def __call__(self, *args):
        primal_args, seeds = split_args(self.activity, args)
        gen, fn, pairs = self._compiled(primal_args)
        refuse_overlaps(pairs, args)
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
        scratch = getattr(gen, "scratch_pools", None) or ()
        if gen.tape_pools or scratch:
            full += tape_pools(fn, gen.tape_pools, scratch)
        try:
            out = fn(*full)
        except NumbaError as exc:       # typing or compiling the generated code failed: our bug
            drop_pools(fn)
            raise located_error(self.primal, gen, fn, exc) from None
        except AssertionError as exc:   # an internal check of Numba's compiler failed on our code
            if not raised_by_numba_compiler(exc):
                if scratch:
                    drop_pools(fn)
                raise
            drop_pools(fn)
            raise located_error(self.primal, gen, fn, exc) from None
        except BaseException as exc:
            if scratch:
                drop_pools(fn)
            # a rebinding that changed an array's length (its run-time check): refused at the line
            refused = rebinding_refusal(self.primal, exc) if isinstance(exc, ValueError) else None
            if refused is None:
                raise
            raise refused from None
        return () if out is None else out       # no active scalars: the adjoint returns nothing

    @property
    def jit(self):
        """A function that ``@njit`` code calls to run this adjoint (and Python code too).

        Calling convention (as :meth:`__call__`): the primal arguments in order, each ``"dup"``
        array followed by its shadow, then the seed (the adjoint of the returned float; may be
        omitted, it is then 1.0).  Shadows are updated in place (added to); it returns the
        tuple of the adjoints of the ``"active"`` float arguments, in parameter order (``()``
        when there are none).  Inside ``@njit`` code the adjoint is generated and compiled for the
        argument types of each call site when that caller is compiled (a Numba ``overload``);
        kernels returning arrays are not supported there.  Bind it to a global name
        (``step = adtrans.adjoint(f, ("dup", "const")).jit``) and call ``step(x, d_x, k, 1.0)``.
        """
        if self._jit is None:
            self._jit = jit_entry(self)
        return self._jit

    def primal_writes(self, *primal_args) -> frozenset:
        """Positions of the kernel's parameters whose arrays (not shadows) the compiled adjoint
        for the types of ``primal_args`` may write (the conservative analysis of
        :func:`~adtrans.analyse.effects.written_params` run on the generated source; every
        parameter when that source is not one function of the expected parameters).  A
        ``keeps_outputs=False`` adjoint drops the stores into arrays it never reads, so this
        can be fewer than the kernel writes.  Cached with the compiled adjoint."""
        key = host_key(primal_args)
        if key is None:         # e.g. a NumPy integer scalar: keyed by the Numba types
            key = ("types",) + typeof_args(primal_args)
        hit = self._writes.get(key)
        if hit is None:
            gen, fn, _ = self._compiled(primal_args)
            hit = self._writes[key] = _primal_writes(gen, fn, self.activity)
        return hit

    def source(self, *primal_args) -> str:
        """The generated adjoint source for the types of ``primal_args``."""
        gen, _ = compiled(self.fn, self.activity, typeof_args(primal_args), self.target)
        return gen.function_source


def _primal_writes(gen, fn, activity) -> frozenset:
    """:meth:`AdjointFunction.primal_writes` of the generated ``gen`` compiled as ``fn``."""
    every = frozenset(range(len(activity)))
    try:
        tree = ast.parse(gen.function_source)
    except SyntaxError:
        return every
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    flat, k = {}, 0
    for p, a in enumerate(activity):
        flat[k] = p
        k += 2 if a == "dup" else 1
    if len(funcs) != 1 or len(funcs[0].args.args) < k or funcs[0].args.vararg is not None:
        return every
    globs = getattr(getattr(fn, "py_func", None), "__globals__", None)
    return frozenset(flat[i] for i in written_in(funcs[0], globs) if i in flat)


def jit_entry(adj: AdjointFunction):
    """The function behind :attr:`AdjointFunction.jit`: a Python function calling ``adj``, with a
    Numba ``overload`` that, when a jitted caller is typed, generates and compiles the adjoint for
    the argument types at the call site and calls its dispatcher."""
    activity = adj.activity

    def adjoint_call(*args):
        return adj(*args)
    adjoint_call.__name__ = f"{adj.primal.name}_adjoint_jit"
    adjoint_call.__qualname__ = adjoint_call.__name__

    @overload(adjoint_call)
    def _typed(*args):
        types = tuple(nbtypes.unliteral(t) for t in (args[0] if len(args) == 1 and
                                                     isinstance(args[0], nbtypes.StarArgTuple) else args))
        primal_types, k = [], 0
        for a in activity:
            if k >= len(types):
                raise ActivityError(f"too few arguments for the adjoint of {adj.primal.name} {activity}")
            primal_types.append(types[k])
            k += 2 if a == "dup" else 1
        gen, disp = compiled(adj.fn, activity, tuple(primal_types), adj.target)
        if gen.seed_args:
            raise ActivityError(f"{adj.primal.name} returns arrays: call its adjoint from Python (seed=...)")
        given = len(types) - k
        if given > len(gen.seeds):
            raise ActivityError(f"the adjoint of {adj.primal.name} takes {k + len(gen.seeds)} arguments "
                                f"(primal arguments, shadows, seed), got {len(types)}")
        pad = (1.0,) * (len(gen.seeds) - given)
        if gen.returns:
            def impl(*args):
                return disp(*(args + pad))
        else:
            def impl(*args):
                disp(*(args + pad))
                return ()
        return impl
    return adjoint_call


def raised_by_numba_compiler(exc: BaseException) -> bool:
    """Whether ``exc`` was raised while Numba compiled a function (a frame of its compiler
    pipeline, ``numba/core`` or ``numba/parfors``, on the way): an ``AssertionError`` of Numba's
    own checks (``key already in dictionary`` in the parfor lowering) is then a failure on the
    generated code, not an ``assert`` of the user's kernel at run time."""
    tb = exc.__traceback__
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename.replace("\\", "/")
        if "/numba/core/" in path or "/numba/parfors/" in path:
            return True
        tb = tb.tb_next
    return False


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


_CHECK_AT = re.compile(r"\(([^()\s]+):(\d+)\)")


def rebinding_refusal(primal, exc: ValueError):
    """The :class:`UnsupportedError` for the run-time check of a rebinding written in place (an array
    rebound in a loop or branch to a value of another length, :func:`~adtrans.normalise.varlength.
    rebinding_note`), naming the user's line; None for any other ``ValueError`` (a shape error of the
    user's, raised as NumPy would)."""
    text = str(exc)
    if REBINDING_MARK not in text:
        return None
    first, _, rest = text.partition("; ")
    note, _, hint = rest.partition("; ")
    stmt = re.search(r" in `(.*)` \(", first)
    construct = f"`{stmt.group(1)}`: {note}" if stmt else note
    m = _CHECK_AT.search(first)
    filename, lineno = primal.filename, 0
    if m:
        lineno = int(m.group(2))
        if m.group(1) != os.path.basename(primal.filename):
            filename = m.group(1)       # a helper's line, in another module
    return UnsupportedError(construct, hint, filename=filename, lineno=lineno)

"""The one compile cache: generated and compiled adjoints per (kernel, activity, types, target),
in memory, and on disk (:mod:`adtrans.gencache`) for targets that allow it."""
from __future__ import annotations

import threading

from . import gencache
from .arguments import primal_of
from .compile import load_module
from .errors import ADError, GeneratedCodeError
from .ir.lines import first_line
from .pipeline import generate, module_source
from .targets.base import Target
from .targets.cpu import CPU

_LOCK = threading.RLock()
_COMPILED: dict = {}


def generated(primal, activity: tuple, argtypes: tuple, target: Target = CPU):
    """The generated adjoint of ``primal`` for ``activity`` and Numba ``argtypes`` on ``target``,
    from the on-disk cache where the target allows it (:mod:`adtrans.gencache`).  A refusal
    (:class:`~adtrans.errors.UnsupportedError`, :class:`~adtrans.errors.ActivityError`) is kept
    there too and raised again, same message, without transforming again."""
    disk_key = gencache.key_of(primal, activity, argtypes, extra=target.key[1:]) if target.disk_cache else None
    hit = gencache.load(disk_key)
    if isinstance(hit, gencache.Refusal):
        raise hit.error()
    if hit is not None:
        return hit
    try:
        gen = generate(primal, activity, argtypes, target)
    except ADError as exc:
        refusal = gencache.Refusal.of(exc)
        if refusal is not None:
            gencache.store(disk_key, refusal)
        raise
    except Exception as exc:
        # a failure inside the transformation itself is an adtrans bug: name the user's kernel,
        # never leave a traceback through adtrans' own rewrite as the only message
        raise GeneratedCodeError(primal.name, f"internal error while transforming it ({type(exc).__name__}: "
                                 f"{first_line(str(exc))})", filename=primal.filename,
                                 lineno=primal.tree.lineno) from exc
    gencache.store(disk_key, gen)
    return gen


def compiled(fn, activity: tuple, argtypes: tuple, target: Target = CPU):
    """``(Generated, compiled adjoint)`` of the kernel ``fn`` for ``activity`` and Numba ``argtypes``
    on ``target``; generated and compiled once per process (and per machine on disk, for the CPU).
    A refusal is remembered as well (in memory and on disk) and raised again on the next call."""
    primal = primal_of(fn)
    key = (id(primal), activity, argtypes, target.key)
    with _LOCK:
        hit = _COMPILED.get(key)
        if hit is None:
            try:
                gen = generated(primal, activity, argtypes, target)
            except Exception as exc:
                refusal = gencache.Refusal.of(exc)
                if refusal is not None:
                    _COMPILED[key] = refusal
                raise
            text, digest = module_source([gen], f"{primal.filename}:{primal.name}", primal.source, target)
            mod = load_module(text, digest, gen.global_arrays)
            hit = _COMPILED[key] = (gen, getattr(mod, gen.name))
        elif isinstance(hit, gencache.Refusal):
            raise hit.error()
    return hit

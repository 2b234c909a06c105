"""The one compile cache: generated and compiled adjoints per (kernel, activity, types, target),
in memory, and on disk (:mod:`adtrans.gencache`) for targets that allow it."""
from __future__ import annotations

import threading

from . import gencache
from .arguments import primal_of
from .compile import load_module
from .pipeline import generate, module_source
from .targets.base import Target
from .targets.cpu import CPU

_LOCK = threading.RLock()
_COMPILED: dict = {}


def compiled(fn, activity: tuple, argtypes: tuple, target: Target = CPU):
    """``(Generated, compiled adjoint)`` of the kernel ``fn`` for ``activity`` and Numba ``argtypes``
    on ``target``; generated and compiled once per process (and per machine on disk, for the CPU)."""
    primal = primal_of(fn)
    key = (id(primal), activity, argtypes, target.key)
    with _LOCK:
        hit = _COMPILED.get(key)
        if hit is None:
            gen = disk_key = None
            if target.disk_cache:
                disk_key = gencache.key_of(primal, activity, argtypes, extra=target.key[1:])
                gen = gencache.load(disk_key)
            if gen is None:
                gen = generate(primal, activity, argtypes, target)
                if disk_key is not None:
                    gencache.store(disk_key, gen)
            text, digest = module_source([gen], f"{primal.filename}:{primal.name}", primal.source, target)
            mod = load_module(text, digest, gen.global_arrays)
            hit = _COMPILED[key] = (gen, getattr(mod, gen.name))
    return hit

"""Stage 6 (compile): write generated source to a cache directory, import it as a real
module (so Numba's ``cache=True`` works) and return the compiled functions.

Files are named by a hash of their content, written atomically (temporary file
+ ``os.replace``), so concurrent processes (MPI ranks) never see a partial file.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    """``$ADTRANS_CACHE_DIR``, else ``$XDG_CACHE_HOME/adtrans``, else ``~/.cache/adtrans``."""
    env = os.environ.get("ADTRANS_CACHE_DIR")
    if env:
        path = Path(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = Path(base) / "adtrans"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory and a rename."""
    write_atomic_bytes(path, text.encode("utf-8"))


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory and a rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class GeneratedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds ``adtrans_gen_<digest>`` modules in :func:`cache_dir` by name.  Machine code that
    Numba cached in an earlier process may name a generated module (an ``@njit(cache=True)``
    function calling :attr:`AdjointFunction.jit <adtrans.adjoint.AdjointFunction.jit>`); loading
    it imports that module before anything in this process generated it."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("adtrans_gen_") or "." in fullname:
            return None
        file = cache_dir() / f"{fullname}.py"
        if not file.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, file)


if not any(isinstance(f, GeneratedModuleFinder) for f in sys.meta_path):
    sys.meta_path.append(GeneratedModuleFinder())


def load_module(source: str, digest: str, globals_: dict | None = None):
    """Import ``source`` as module ``adtrans_gen_<digest>`` from the cache directory."""
    modname = f"adtrans_gen_{digest[:20]}"
    mod = sys.modules.get(modname)
    if mod is None:
        path = cache_dir() / f"{modname}.py"
        if not path.exists() or path.read_text(encoding="utf-8") != source:
            write_atomic(path, source)
        spec = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[modname]
            raise
    if globals_:
        mod.__dict__.update(globals_)
    return mod

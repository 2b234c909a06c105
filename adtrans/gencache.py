"""On-disk cache of generated adjoints, so a new process does not redo the source
transformation (Numba's ``cache=True`` then caches the machine code).

An entry is keyed by a fingerprint of everything the transformation reads:

- adtrans's own source (any change to a rule invalidates every entry), and the Numba and NumPy
  versions (types come from Numba's inference);
- the primal's source, file and first line (errors and run-time checks name file:line), the
  activity tuple and the Numba argument types;
- every global the primal's code names, followed transitively: the source of
  each ``@njit`` helper or function it calls (which the normaliser inlines) and its first line, the
  value of each scalar or array constant, the name of each module or builtin.

A global of any other kind (an object whose state the fingerprint cannot see)
makes the kernel uncacheable: it is transformed in every process, as before.
Entries are pickles written atomically beside the generated modules in
:func:`adtrans.compile.cache_dir`; an unreadable entry is ignored and rewritten.
``ADTRANS_GENCACHE=0`` turns the cache off.

Refusals are kept the same way (:class:`Refusal`): a kernel whose transformation raised
:class:`~adtrans.errors.UnsupportedError` or :class:`~adtrans.errors.ActivityError` raises the
same error, message and attributes included, in the next process without being transformed
again.  These are adtrans' own decisions on what the fingerprint covers; a
:class:`~adtrans.errors.TypingError` (Numba's inference of the primal, which also depends on
what else is installed or registered) is not kept.
"""
from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import os
import pickle
import textwrap
import types
from pathlib import Path

import numpy as np

from .compile import cache_dir, write_atomic_bytes
from .errors import ActivityError, UnsupportedError

_CODE_DIGEST = None


#: packages whose functions are fingerprinted by name and version, not by source
_LIBRARIES = ("numba", "numba_cuda", "numpy", "adtrans", "llvmlite", "math", "cmath")


class _Uncacheable(Exception):
    pass


def _version(module: str) -> str:
    import sys
    top = sys.modules.get(module.split(".")[0])
    return str(getattr(top, "__version__", ""))


def _adtrans_digest() -> str:
    """Hash of every ``.py`` file of the adtrans package (once per process)."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
        _CODE_DIGEST = h.hexdigest()
    return _CODE_DIGEST


def _dotted_chains(tree):
    """``(head, [attr, ...])`` for every loaded name or attribute chain in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            parts = []
            cur = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                yield cur.id, list(reversed(parts))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node.id, []


class _Fingerprint:
    def __init__(self):
        self.h = hashlib.sha256()
        self.seen: set = set()

    def add(self, *parts):
        for p in parts:
            self.h.update(repr(p).encode())
            self.h.update(b"\0")

    def function(self, pyfunc, options=None):
        if id(pyfunc) in self.seen:
            return
        self.seen.add(id(pyfunc))
        if pyfunc.__closure__:
            raise _Uncacheable(pyfunc.__qualname__)
        try:
            source = inspect.getsource(pyfunc)
        except (OSError, TypeError):
            raise _Uncacheable(pyfunc.__qualname__) from None
        self.add("function", pyfunc.__module__, pyfunc.__qualname__, pyfunc.__code__.co_firstlineno, source,
                 sorted((options or {}).items(), key=str))
        tree = ast.parse(textwrap.dedent(source))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.decorator_list = []
        local = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)} | \
            {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        g = pyfunc.__globals__
        for head, rest in sorted(set((h, tuple(r)) for h, r in _dotted_chains(tree))):
            if head in local:
                continue
            if head in g:
                obj = g[head]
            elif hasattr(builtins, head):
                obj = getattr(builtins, head)
            else:
                self.add("unbound", head)
                continue
            path = [head]
            self.value(".".join(path), obj)
            for r in rest:
                if isinstance(obj, types.ModuleType) or not isinstance(obj, (np.ndarray, np.generic)):
                    if not hasattr(obj, r):
                        break
                    obj = getattr(obj, r)
                    path.append(r)
                    self.value(".".join(path), obj)
                else:
                    break

    def value(self, name, obj):
        if isinstance(obj, types.ModuleType):
            self.add(name, "module", obj.__name__)
        elif hasattr(obj, "py_func") and inspect.isfunction(obj.py_func):
            opts = dict(getattr(obj, "targetoptions", None) or {})
            self.add(name, "dispatcher", type(obj).__module__)
            self.function(obj.py_func, opts)
        elif inspect.isfunction(obj) and obj.__module__.split(".")[0] in _LIBRARIES:
            self.add(name, "library function", obj.__module__, obj.__qualname__, _version(obj.__module__))
        elif type(obj).__module__.split(".")[0] == "numpy" and callable(obj) and \
                str(getattr(obj, "__module__", "")).split(".")[0] == "numpy":
            # NumPy 2's functions (np.sum, np.max, ...) are `_ArrayFunctionDispatcher` objects
            self.add(name, "library function", obj.__module__, getattr(obj, "__qualname__", obj.__name__),
                     _version("numpy"))
        elif inspect.isfunction(obj):
            self.add(name, "function")
            self.function(obj)
        elif obj is None or isinstance(obj, (bool, int, float, complex, str, bytes, np.generic)):
            self.add(name, type(obj).__name__, obj)
        elif isinstance(obj, tuple) and all(isinstance(v, (bool, int, float, complex, str)) for v in obj):
            self.add(name, "tuple", obj)
        elif isinstance(obj, tuple) and all(isinstance(v, tuple) and all(isinstance(e, (bool, int, float)) for e in v)
                                            for v in obj):
            self.add(name, "tuple of tuples", repr(obj))     # OFFSETS = ((1, 0), (0, 1)): literalnames.py
        elif isinstance(obj, np.ndarray):
            self.add(name, "array", obj.dtype.str, obj.shape, hashlib.sha256(np.ascontiguousarray(obj).tobytes())
                     .hexdigest())
        elif isinstance(obj, (types.BuiltinFunctionType, np.ufunc, type)):
            self.add(name, "builtin", getattr(obj, "__module__", None), getattr(obj, "__qualname__",
                                                                                 getattr(obj, "__name__", None)))
        elif type(obj).__module__.split(".")[0] in ("numba", "numba_cuda") and not callable(obj):
            self.add(name, "numba", repr(obj))
        else:
            raise _Uncacheable(name)


class Refusal:
    """A refused transformation: the error's class and state, to raise it again (:meth:`error`)."""

    KEPT = (UnsupportedError, ActivityError)

    def __init__(self, exc: Exception):
        self.cls = type(exc)
        self.args = exc.args
        self.state = dict(vars(exc))

    @classmethod
    def of(cls, exc: Exception):
        """The refusal of ``exc``, or None when ``exc`` is not an error worth keeping."""
        return cls(exc) if isinstance(exc, cls.KEPT) else None

    def error(self) -> Exception:
        """A fresh exception equal to the one refused (same class, message and attributes)."""
        exc = self.cls.__new__(self.cls, *self.args)
        exc.args = self.args
        exc.__dict__.update(self.state)
        return exc


def key_of(primal, activity, argtypes, extra=()) -> str | None:
    """The cache key of the adjoint of ``primal`` for ``activity`` and ``argtypes``, or
    None when the primal names a global the fingerprint cannot see (or caching is off)."""
    if os.environ.get("ADTRANS_GENCACHE", "1") == "0" or primal.pyfunc is None:
        return None
    fp = _Fingerprint()
    import numba
    # the first line too: refusals and run-time checks name file:line (a kernel moved in its file
    # must not raise an error naming its old line)
    fp.add(_adtrans_digest(), numba.__version__, np.__version__, primal.filename, primal.first_line, primal.source,
           tuple(activity), tuple(str(t) for t in argtypes), tuple(extra))
    try:
        fp.function(primal.pyfunc, dict(getattr(primal.dispatcher, "targetoptions", None) or {}))
    except _Uncacheable:
        return None
    return fp.h.hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / f"adtrans_gen_{key[:24]}.generated.pickle"


def load(key: str | None):
    """The cached object for ``key``, or None."""
    if key is None:
        return None
    path = _path(key)
    try:
        with open(path, "rb") as fh:
            stored_key, obj = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError, TypeError):
        return None
    return obj if stored_key == key else None


def store(key: str | None, obj) -> None:
    """Keep ``obj`` under ``key`` (atomically; errors writing the cache are not fatal)."""
    if key is None:
        return
    try:
        write_atomic_bytes(_path(key), pickle.dumps((key, obj), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass

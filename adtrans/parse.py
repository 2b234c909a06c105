"""Stage 1 (parse): read a kernel's source and resolve the names it uses.

The source comes from ``inspect.getsource`` of ``fn.py_func`` (Numba
dispatchers) or of the plain function; it can also be read from a file without
importing it (the CLI).  The result is a :class:`Primal`: the ``FunctionDef``
AST, the file and line offset for error messages, and the function's globals.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass, field

import numpy as np

from .errors import UnsupportedError


@dataclass
class Primal:
    """A parsed primal function.

    ``tree`` is the ``ast.FunctionDef`` with line numbers of the real file;
    ``globals`` is the namespace its names resolve in (None when parsed from a
    file without executing it); ``dispatcher`` is the Numba dispatcher, if any.
    """
    name: str
    tree: ast.FunctionDef
    filename: str
    source: str
    globals: dict | None
    pyfunc: object = None
    dispatcher: object = None
    parallel: bool = False
    cuda: bool = False
    decorators: list = field(default_factory=list)
    first_line: int = 0         # line of the file where ``source`` starts

    @property
    def params(self) -> list[str]:
        return [a.arg for a in self.tree.args.args]

    def line_text(self, node) -> str | None:
        """The source text of statement ``node`` on one line (continuation lines joined), or None."""
        lineno, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if lineno is None or not self.source:
            return None
        lines = self.source.splitlines()
        first = self.first_line or self.tree.lineno
        part = lines[lineno - first:(end or lineno) - first + 1]
        if not part:
            return None
        text = " ".join(ln.strip() for ln in part).split("  #")[0].strip()
        return text if len(text) <= 100 else text[:97] + "..."

    def error(self, node, construct: str, hint: str = "") -> UnsupportedError:
        return UnsupportedError(construct, hint, filename=self.filename,
                                lineno=getattr(node, "lineno", self.tree.lineno),
                                col=getattr(node, "col_offset", 0) + 1)


def python_function(fn):
    """Return ``(pyfunc, dispatcher)`` for a Numba dispatcher or a plain function."""
    pyfunc = getattr(fn, "py_func", None)
    if pyfunc is not None:
        return pyfunc, fn
    if is_vectorized(fn):
        return fn._dispatcher.py_func, fn._dispatcher
    if inspect.isfunction(fn):
        return fn, None
    raise UnsupportedError(f"object {fn!r} of type {type(fn).__name__}",
                           "pass an @njit, @cuda.jit or plain Python function")


def _parse_function_source(source: str, name: str, filename: str, first_line: int) -> ast.FunctionDef:
    module = ast.parse(textwrap.dedent(source))
    ast.increment_lineno(module, first_line - 1)
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            if isinstance(node, ast.AsyncFunctionDef):
                raise UnsupportedError("async function", "write a plain function",
                                       filename=filename, lineno=node.lineno)
            return node
    raise UnsupportedError(f"cannot find the source of function {name!r}",
                           "define kernels with `def` in a .py file", filename=filename)


def _options(dispatcher) -> dict:
    opts = getattr(dispatcher, "targetoptions", None) or {}
    return dict(opts)


def is_vectorized(obj) -> bool:
    """A ``@numba.vectorize`` ufunc (a ``DUFunc``): its scalar Python function is the kernel's
    element function; called on arrays it applies element-wise, with broadcasting."""
    return type(obj).__name__ == "DUFunc" and hasattr(getattr(obj, "_dispatcher", None), "py_func")


def is_cuda_dispatcher(obj) -> bool:
    """Whether ``obj`` is a numba-cuda dispatcher (``@cuda.jit`` kernel or device function)."""
    return type(obj).__module__.startswith(("numba.cuda", "numba_cuda"))


def _captured(pyfunc) -> dict:
    """Free variable -> value of a closure (a factory-made kernel)."""
    out = {}
    for n, cell in zip(pyfunc.__code__.co_freevars, pyfunc.__closure__):
        try:
            out[n] = cell.cell_contents
        except ValueError:          # not yet bound
            out[n] = cell
    return out


def _frozen(v) -> bool:
    """Values a kernel may capture (Numba freezes them too): jitted functions, numbers, classes
    of exceptions; never mutable containers."""
    if hasattr(v, "py_func") or isinstance(v, (bool, int, float)):
        return True
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        return True
    return isinstance(v, type) and issubclass(v, BaseException)


def parse_function(fn) -> Primal:
    """Parse the source of ``fn`` (an ``@njit``/``@cuda.jit`` dispatcher or function).

    Raises :class:`UnsupportedError` when no source is available (lambdas
    defined in a REPL, builtins) or the function is a closure over mutable state.
    """
    pyfunc, dispatcher = python_function(fn)
    try:
        lines, first = inspect.getsourcelines(pyfunc)
        filename = inspect.getsourcefile(pyfunc) or "<unknown>"
    except (OSError, TypeError) as exc:
        raise UnsupportedError(f"no source for {pyfunc.__qualname__}",
                               "define the kernel in a .py file") from exc
    scope = pyfunc.__globals__
    if pyfunc.__closure__:
        captured = _captured(pyfunc)
        bad = [n for n, v in captured.items() if not _frozen(v)]
        if bad:
            raise UnsupportedError(f"closure over {', '.join(bad)} in {pyfunc.__qualname__}",
                                   "pass captured values as arguments or make them module globals (closures "
                                   "may capture jitted functions, numbers and exception classes)",
                                   filename=filename, lineno=first)
        scope = {**pyfunc.__globals__, **captured}
    source = "".join(lines)
    tree = _parse_function_source(source, pyfunc.__name__, filename, first)
    opts = _options(dispatcher)
    is_cuda = is_cuda_dispatcher(dispatcher)
    return Primal(name=pyfunc.__name__, tree=tree, filename=filename, source=source,
                  globals=scope, pyfunc=pyfunc, dispatcher=dispatcher,
                  parallel=bool(opts.get("parallel", False)), cuda=is_cuda,
                  decorators=[ast.unparse(d) for d in tree.decorator_list], first_line=first)


def parse_file_function(path: str, name: str) -> Primal:
    """Parse function ``name`` from the file ``path`` without executing the file."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    module = ast.parse(text, filename=path)
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            decos = [ast.unparse(d) for d in node.decorator_list]
            parallel = any("parallel=True" in d.replace(" ", "") for d in decos)
            is_cuda = any(d.startswith("cuda.jit") for d in decos)
            return Primal(name=name, tree=node, filename=path,
                          source=ast.get_source_segment(text, node) or "", globals=None,
                          parallel=parallel, cuda=is_cuda, decorators=decos, first_line=node.lineno)
    raise UnsupportedError(f"no function {name!r} in {path}", "check the FILE.py:FUNC spelling",
                           filename=path)

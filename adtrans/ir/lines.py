"""Lines of generated code -> the user's source lines they come from (for error messages)."""
from __future__ import annotations

import ast

from .walk import iter_nodes
import copy
import re


def _stmts(tree):
    return [n for n in iter_nodes(tree) if isinstance(n, ast.stmt)]


def line_map(func: ast.FunctionDef, text: str | None = None) -> dict:
    """``{line of ast.unparse(func): (filename, lineno)}`` for statements that carry
    ``adtrans_where`` (set by the normaliser; reverse statements inherit it).  ``text``:
    ``ast.unparse(func)`` where the caller has it already."""
    if text is None:
        try:
            # no copy: unparsing reads node locations only for their presence (type comments)
            text = ast.unparse(func)
        except AttributeError:
            # a statement without a location (built by a rewrite): unparse a copy with them filled in
            text = ast.unparse(ast.fix_missing_locations(copy.deepcopy(func)))
    again = ast.parse(text).body[0]
    out = {}
    for a, b in zip(_stmts(func), _stmts(again)):
        where = getattr(a, "adtrans_where", None)
        if where is not None and hasattr(b, "lineno"):
            for ln in range(b.lineno, (b.end_lineno or b.lineno) + 1):
                out.setdefault(ln, where)
    return out


def locate(message: str, path_part: str, lines: dict, offset: int = 0):
    """The user's ``(filename, lineno)`` for the last ``File "...path_part...", line N`` in a
    Numba ``message`` (``N - offset`` looked up in ``lines``, else the nearest line above)."""
    hits = [int(m.group(1)) for m in re.finditer(r'File "[^"]*' + re.escape(path_part) + r'[^"]*", line (\d+)',
                                                 message)]
    for n in reversed(hits):
        n -= offset
        for k in range(n, 0, -1):
            if k in lines:
                return lines[k]
    return None


def first_line(message: str) -> str:
    """Numba's message without its traceback-like context: the first non-empty line."""
    for ln in message.splitlines():
        ln = ln.strip()
        if ln and not ln.startswith(("- ", "During:", "File ")):
            return ln[:300]
    return message[:300]

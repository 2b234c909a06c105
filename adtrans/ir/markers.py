"""Placeholder statements the builder emits and the finalizer resolves (tape pushes and pops,
scope starts, comments)."""
from __future__ import annotations

import ast
import itertools

from .nodes import name

PUSH, POP, SCOPE_START, COMMENT = "__push__", "__pop__", "__scope_start__", "__comment__"


def marker(kind, *args):
    return ast.Expr(value=ast.Call(func=name(kind), args=[ast.Constant(a) for a in args], keywords=[]))


_PAIRS = itertools.count()


def save_restore(x, scope_id):
    """A push marker (forward sweep) and its pop marker (reverse sweep) for ``x``, with a
    common pair id (see :mod:`.restores`)."""
    pair = next(_PAIRS)
    return marker(PUSH, x, scope_id, pair), marker(POP, x, scope_id, pair)


def comment(text):
    return marker(COMMENT, text)


def is_marker(s, kind=None):
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id.startswith("__") and (kind is None or s.value.func.id == kind))

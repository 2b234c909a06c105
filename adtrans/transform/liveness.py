"""Small dataflow questions on normalised code: is a name read before it is assigned?"""
from __future__ import annotations

import ast

from ..analyse.walk import reads, scalar_target


def definitely_assigns(stmts, x) -> bool:
    for s in stmts:
        if isinstance(s, ast.Assign) and scalar_target(s) == x:
            return True
        if isinstance(s, ast.If) and definitely_assigns(s.body, x) and definitely_assigns(s.orelse, x):
            return True
    return False


def upward_exposed(stmts, x) -> bool:
    """True if some path through ``stmts`` reads ``x`` before assigning it."""
    for s in stmts:
        if isinstance(s, ast.If):
            if x in reads(s.test) or upward_exposed(s.body, x) or upward_exposed(s.orelse, x):
                return True
            if definitely_assigns(s.body, x) and definitely_assigns(s.orelse, x):
                return False
            continue
        if isinstance(s, (ast.For, ast.While)):
            if x in reads(s):
                return True
            if not (isinstance(s, ast.For) and s.target.id == x) and upward_exposed(s.body, x):
                return True
            continue
        if x in reads(s):
            return True
        if isinstance(s, ast.Assign) and scalar_target(s) == x:
            return False
    return False


def containing_block(parent, elem, root_body):
    """The statement list (of ``parent``, or ``root_body`` when parent is None) holding ``elem``."""
    blocks = [root_body] if parent is None else (
        [parent.body, parent.orelse] if isinstance(parent, ast.If) else [parent.body])
    for b in blocks:
        if any(s is elem for s in b):
            return b
    raise LookupError("statement not found in its parent")


def after_in_block(block, elem):
    for k, s in enumerate(block):
        if s is elem:
            return block[k + 1:]
    return []

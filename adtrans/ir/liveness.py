"""Small dataflow questions on normalised code: is a name read before it is assigned?"""
from __future__ import annotations

import ast
import threading
from contextlib import contextmanager

from .walk import all_names, iter_stmts, reads, scalar_target, stored_names

_MEMO = threading.local()


@contextmanager
def fixed_code():
    """While active (in this thread), :func:`upward_exposed` remembers what each statement reads
    and stores: for analyses that ask it about many names of code that does not change meanwhile
    (the per-name questions re-walk the same statements; each walk is the cost)."""
    outer = getattr(_MEMO, "table", None)
    if outer is None:
        _MEMO.table = {}
    try:
        yield
    finally:
        if outer is None:
            _MEMO.table = None


def _memo(kind, s, fn):
    table = getattr(_MEMO, "table", None)
    if table is None:
        return fn(s)
    hit = table.get((kind, id(s)))
    if hit is None or hit[0] is not s:
        hit = table[(kind, id(s))] = (s, fn(s))
    return hit[1]


def _reads(s):
    return _memo("reads", s, reads)


def definitely_assigns(stmts, x) -> bool:
    for s in stmts:
        if isinstance(s, ast.Assign) and scalar_target(s) == x:
            return True
        if isinstance(s, ast.If) and definitely_assigns(s.body, x) and definitely_assigns(s.orelse, x):
            return True
    return False


def _stores(s):
    return _memo("stores", s, stored_names)


def _all_reads(s) -> frozenset:
    """Names read anywhere in ``s``: its header and every nested statement's."""
    return frozenset().union(*(_reads(n) for n, _ in iter_stmts([s])))


def _block_index(stmts):
    """``(reads, first)`` of the statement list ``stmts`` while :func:`fixed_code` is active:
    the names read anywhere in it and, per name, the position of the first statement naming it
    anywhere (read, stored or loop variable; nested statements included); None otherwise.
    Kept per list (held, and its length checked), so that asking about many names costs one
    walk of the list, not one per name."""
    table = getattr(_MEMO, "table", None)
    if table is None:
        return None
    key = ("block", id(stmts))
    hit = table.get(key)
    if hit is None or hit[0] is not stmts or hit[1] != len(stmts):
        read, first = set(), {}
        for k, s in enumerate(stmts):
            read |= _memo("all reads", s, _all_reads)
            for n in _memo("names", s, all_names):
                if n not in first:
                    first[n] = k
        hit = table[key] = (stmts, len(stmts), read, first)
    return hit[2], hit[3]


def upward_exposed(stmts, x, _under=None) -> bool:
    """True if some path through ``stmts`` reads ``x`` before assigning it.

    Two ``if`` statements on the same (unchanged) condition name take the same
    branch, so ``if c: x = 1`` ... ``if c: use(x)`` does not expose ``x``.
    """
    start = 0
    index = _block_index(stmts)
    if index is not None:
        if x not in index[0]:
            return False            # nothing reads it: no path reads it before assigning it
        if not _under:
            # the statements before the first one naming x neither read nor assign it, and can
            # only forget what the walk below knows about conditions (it knows nothing yet):
            # start there
            start = index[1][x]
    under = dict(_under or {})      # condition name -> branch -> x definitely assigned there
    for s in (stmts if start == 0 else stmts[start:]):
        if isinstance(s, ast.If):
            c = s.test.id if isinstance(s.test, ast.Name) else None
            if x in _reads(s.test):
                return True
            known = under.get(c, (False, False))
            if (not known[0] and upward_exposed(s.body, x)) or (not known[1] and upward_exposed(s.orelse, x)):
                return True
            if definitely_assigns(s.body, x) and definitely_assigns(s.orelse, x):
                return False
            if not under and c is None:
                continue                # nothing known that the branches could change
            stored = _stores(s)
            for name in stored:
                under.pop(name, None)
            if c is not None and c not in stored:
                under[c] = (known[0] or definitely_assigns(s.body, x), known[1] or definitely_assigns(s.orelse, x))
            continue
        t = scalar_target(s)
        if t is not None and t in under:
            del under[t]                # the condition changed
        if isinstance(s, (ast.For, ast.While)):
            if under:
                for name in _stores(s):
                    under.pop(name, None)
            if x in _reads(s):
                return True
            if not (isinstance(s, ast.For) and s.target.id == x) and upward_exposed(s.body, x):
                return True
            continue
        if x in _reads(s):
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


def fixed_after_in_block(block, elem):
    """:func:`after_in_block`, the same list for the same ``block`` and ``elem`` while
    :func:`fixed_code` is active (so that :func:`upward_exposed` indexes it once for all the
    names asked about, not once per name).  The list is shared: not to be changed."""
    table = getattr(_MEMO, "table", None)
    if table is None:
        return after_in_block(block, elem)
    key = ("after", id(block), id(elem))
    hit = table.get(key)
    if hit is None or hit[0] is not block or hit[1] is not elem or hit[2] != len(block):
        hit = table[key] = (block, elem, len(block), after_in_block(block, elem))
    return hit[3]

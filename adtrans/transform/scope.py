"""Scopes: regions whose forward and reverse statements run back to back."""
from __future__ import annotations

import itertools


class Scope:
    """A region whose forward and reverse statements run back to back (the function body,
    or one iteration of a fused or recomputed loop)."""
    _ids = itertools.count()

    def __init__(self, root, parent, live_in, mode="record", prange_var=None, recompute_root=None,
                 renames=None):
        self.id = next(self._ids)
        self.root, self.parent, self.live_in = root, parent, live_in
        self.mode, self.prange_var = mode, prange_var
        self.recompute_root = recompute_root
        self.renames = dict(renames or {})
        self.seen: set = set()
        self.owned: set = set()
        self.loop_node = None
        self.fused = False
        self.popped: set = set()     # ids of primal statements whose value the iteration pops instead
        self.hoisted: list = []      # statements run once at the start of this (tape) scope
        self.tape_rows: dict = {}    # dtype -> per-thread tape row to start from (prange iterations)
        self.tape_scope = self if (parent is None or prange_var) else parent.tape_scope

    @property
    def root_body(self):
        return None if self.root is None else self.root.body

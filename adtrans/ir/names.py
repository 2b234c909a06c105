"""Fresh, readable names that never collide with the user's."""
from __future__ import annotations

import ast

from .walk import iter_nodes
import re


class NameAllocator:
    """Hands out names like ``r2_1`` derived from a readable base name."""

    def __init__(self, taken=()):
        self.taken = set(taken)
        self.counters: dict[str, int] = {}

    def reserve(self, name: str) -> str:
        self.taken.add(name)
        return name

    def fresh(self, base: str) -> str:
        base = re.sub(r"\W", "_", base).strip("_") or "t"
        if base != "t" and base not in self.taken and not base[0].isdigit():
            return self.reserve(base)
        n = self.counters.get(base, 0)
        while True:
            n += 1
            cand = f"t{n}" if base == "t" else f"{base}_{n}"
            if cand not in self.taken:
                self.counters[base] = n
                return self.reserve(cand)


def names_in(node) -> set[str]:
    """Every identifier that appears as an ``ast.Name`` or argument in ``node``."""
    out = set()
    for sub in iter_nodes(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.arg):
            out.add(sub.arg)
    return out

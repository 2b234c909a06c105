"""Reverse loops whose iterations are independent run in ascending order (CPU target).

The reverse sweep of a loop runs its iterations from last to first, ``for j in range(H, L,
-1)``.  LLVM does not vectorise Numba's descending loops (measured: llsq's reverse loop
``d_x[j] += c * tape[top + j]`` compiles to no packed instruction descending, to packed AVX
ones ascending; probably the negative-index wrap-around of ``a[j]`` is not proven away), so
the reverse sweep runs one element at a time.  Where no iteration of the loop reads or writes what another one
writes, the order is irrelevant and the loop runs ``for j in range(L + 1, H + 1)``:

- its body is straight-line code (assignments, augmented assignments, calls of pure
  ``math``/``np`` functions and builtins; no branch, inner loop, tape growth or atomic);
- every scalar it assigns is assigned in the iteration before it is read (nothing is
  carried from one iteration to the next: no ``d_s += ...`` into an outer scalar, whose
  rounding would depend on the order);
- every array it stores into is accessed in it at one index only, which is one-to-one in
  ``j`` (``j + c``, or a tuple with one such entry and the others loop-invariant), so each
  element is read and written by one iteration; such an array is a parameter never rebound,
  or only ever bound to a fresh allocation, and no other array the loop reads is bound from
  it (no view of it);
- the loop counter is read nowhere after the loop (only inside loops that rebind it).

Each iteration computes exactly what it did in descending order, so results are bitwise
unchanged.  The loop's comment says so.
"""
from __future__ import annotations

import ast

from ..ir.markers import COMMENT, comment, is_marker
from ..ir.walk import const_int
from .affine_tapes import counted_range, plus

_PURE = {"abs", "min", "max", "float", "int", "bool", "len"}
_FRESH = {"np.zeros", "np.empty", "np.ones", "np.full", "np.zeros_like", "np.empty_like", "np.ones_like",
          "np.full_like", "np.copy"}


def _pure_call(c: ast.Call) -> bool:
    f = ast.unparse(c.func)
    return f in _PURE or (f.startswith(("math.", "np.")) and f.count(".") == 1)


def _stored_names(stmts) -> set:
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


class _Body:
    """The facts of one candidate loop body."""

    def __init__(self, loop):
        self.j = loop.target.id
        self.body = loop.body
        self.stored = _stored_names(loop.body)
        self.shifts = {self.j: 0}       # names equal to j + c in every iteration
        self.store_count = {}
        for st in loop.body:
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    self.store_count[n.id] = self.store_count.get(n.id, 0) + 1

    def shift(self, e):
        """``c`` where ``e`` is ``j + c`` in the iteration, else None."""
        if isinstance(e, ast.Name):
            return self.shifts.get(e.id)
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
            a, c = self.shift(e.left), const_int(e.right)
            if a is not None and c is not None:
                return a + c if isinstance(e.op, ast.Add) else a - c
            if isinstance(e.op, ast.Add):
                a, c = self.shift(e.right), const_int(e.left)
                if a is not None and c is not None:
                    return a + c
        return None

    def index_form(self, idx):
        """A hashable form of an index that is one-to-one in j, else None."""
        elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        form, injective = [], 0
        for e in elts:
            c = self.shift(e)
            if c is not None:
                form.append(("j", c))
                injective += 1
            elif not ({n.id for n in ast.walk(e) if isinstance(n, ast.Name)} & (self.stored | {self.j})):
                form.append(ast.unparse(e))
            else:
                return None
        return tuple(form) if injective == 1 else None

    def independent(self) -> bool:
        assigned = set()
        accesses = {}           # array -> index forms
        stored_arrays = set()
        for s in self.body:
            if isinstance(s, ast.Pass) or is_marker(s, COMMENT):
                continue
            if isinstance(s, ast.Assign) and len(s.targets) == 1:
                target, value = s.targets[0], s.value
            elif isinstance(s, ast.AugAssign):
                target, value = s.target, s.value
            else:
                return False
            nodes = list(ast.walk(value))
            if isinstance(target, ast.Subscript):
                nodes += list(ast.walk(target.slice))
            if any(isinstance(n, ast.Call) and not _pure_call(n) for n in nodes):
                return False
            if any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Starred, ast.Attribute))
                   and not (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                            and (n.value.id in ("math", "np") or n.attr in ("shape", "size")))
                   for n in nodes):
                return False
            read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            if isinstance(s, ast.AugAssign) and isinstance(target, ast.Name):
                read.add(target.id)
            if (read & self.stored) - assigned:
                return False        # a value carried in from the previous iteration
            for n in nodes + ([target] if isinstance(target, ast.Subscript) else []):
                if isinstance(n, ast.Subscript):
                    if isinstance(n.value, ast.Attribute) and n.value.attr == "shape":
                        continue
                    if not isinstance(n.value, ast.Name):
                        return False
                    accesses.setdefault(n.value.id, []).append(n.slice)
            if isinstance(target, ast.Name):
                if target.id == self.j:
                    return False
                c = self.shift(value) if isinstance(s, ast.Assign) else None
                if c is not None and self.store_count[target.id] == 1:
                    self.shifts[target.id] = c
                assigned.add(target.id)
            elif isinstance(target, ast.Subscript):
                stored_arrays.add(target.value.id)
            else:
                return False
        names = [n.id for s in self.body for n in ast.walk(s) if isinstance(n, ast.Name)]
        for a in stored_arrays:
            if a in self.stored or names.count(a) != len(accesses[a]):
                return False        # rebound, or read whole (by a call) besides its elements
            forms = {self.index_form(i) for i in accesses[a]}
            if len(forms) != 1 or None in forms:
                return False
        self.stored_arrays = stored_arrays
        self.read_arrays = set(accesses) - stored_arrays
        return True


def _bindings(func_body) -> dict:
    out = {}
    for n in ast.walk(ast.Module(body=list(func_body), type_ignores=[])):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for x in ast.walk(t):
                    if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                        out.setdefault(x.id, []).append(n.value if t is x else None)
        elif isinstance(n, (ast.AugAssign, ast.For)):
            t = n.target
            for x in ast.walk(t):
                if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                    out.setdefault(x.id, []).append(None)
    return out


def _fresh(values) -> bool:
    """Every binding is a fresh allocation (``np.zeros(...)``, ``x.copy()``, ...)."""
    for v in values:
        if not isinstance(v, ast.Call):
            return False
        f = ast.unparse(v.func)
        if f not in _FRESH and not (isinstance(v.func, ast.Attribute) and v.func.attr == "copy" and not v.args):
            return False
    return True


def _counter_dead_after(func_body, loop) -> bool:
    """Every read of ``loop``'s counter in the function is inside a loop that binds it."""
    j = loop.target.id

    def ok(node, bound):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == j:
            return ok(node.iter, bound) and all(ok(s, True) for s in node.body + node.orelse)
        if isinstance(node, ast.Name) and node.id == j and isinstance(node.ctx, ast.Load):
            return bound
        return all(ok(c, bound) for c in ast.iter_child_nodes(node))
    return all(ok(s, False) for s in func_body)


class Ascending:
    """The rewrite described in the module docstring, over a function's lowered body."""

    def __init__(self, func_body):
        self.func_body = func_body
        self.bindings = _bindings(func_body)
        self.count = 0

    def _distinct(self, facts) -> bool:
        for a in facts.stored_arrays:
            vals = self.bindings.get(a)
            if vals is not None and not _fresh(vals):
                return False
        for b in facts.read_arrays:
            for v in self.bindings.get(b, ()):
                if v is None or {n.id for n in ast.walk(v) if isinstance(n, ast.Name)} & facts.stored_arrays:
                    return False
        return True

    def candidate(self, s) -> bool:
        r = counted_range(s) if isinstance(s, ast.For) else None
        if r is None or r[2] != -1:
            return False
        facts = _Body(s)
        return facts.independent() and self._distinct(facts) and _counter_dead_after(self.func_body, s)

    def run(self, stmts) -> list:
        out = []
        for s in stmts:
            for field in ("body", "orelse"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self.run(getattr(s, field)))
            if self.candidate(s):
                hi, lo, _ = counted_range(s)
                start = plus(lo, 1)
                bounds = plus(hi, 1) if start == "0" else f"{start}, {plus(hi, 1)}"
                s.iter = ast.parse(f"range({bounds})", mode="eval").body
                self.count += 1
                note = "its iterations are independent, so they run in ascending order (vectorisable)"
                if out and is_marker(out[-1], COMMENT):
                    text = out[-1].value.args[0].value
                    text = text.replace("in reverse order", "in ascending order (independent iterations: "
                                        "vectorisable)") if "in reverse order" in text else f"{text}; {note}"
                    out[-1] = comment(text)
                else:
                    out.append(comment(f"reverse loop: {note}"))
            out.append(s)
        return out


def ascending(func_body) -> list:
    """``func_body`` with its independent reverse loops in ascending order (module docstring)."""
    return Ascending(func_body).run(func_body)

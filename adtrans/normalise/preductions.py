"""``max``/``min``/product reductions in ``prange`` loops (issue 13), as Numba runs them:

    m = -1e300                               m = -1e300
    for i in prange(n):                      m_parts = np.full(n, m)
        v = ...                      ->      for i in prange(n):
        m = max(m, v)                            v = ...
                                                 m_parts[i] = max(m_parts[i], v)
                                             for m_k in range(n):
                                                 m = max(m, m_parts[m_k])

Each iteration reduces into its own slot (started at ``m``: ``max``/``min`` are idempotent; a
product's slots start at 1.0), so the iterations are independent and the prange rule applies; the
slots are combined in iteration order after the loop, a serial loop whose ties go where the serial
loop's would (``max(a, b)`` keeps ``a`` when they are equal).  ``p *= f`` and ``p = p * f`` are
products.  A name qualifies when every statement of the body that binds it is such an update of
one kind and nothing else there reads it.  Runs on the kernel's ``FunctionDef`` after
:mod:`.forms` (every loop a ``range``/``prange`` loop), before jump lowering (a ``continue``
before the update leaves the slot at its start).
"""
from __future__ import annotations

import ast
import copy

from ..ir.nodes import name as _name
from ..ir.walk import iter_nodes, loaded_names as _loads, stored_names as _stores

_SELECT = ("builtins.max", "builtins.min", "max", "min")
_ARRAY_MAKERS = {"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "copy",
                 "array", "arange", "linspace", "ascontiguousarray"}


class PrangeReductions:
    """Rewrites the ``prange`` loops of one kernel (see the module docstring).  ``forms``: the
    :class:`~.forms.FormLowering` of the kernel (``canon``, ``np_attr``, its normaliser's
    ``fresh``)."""

    def __init__(self, forms):
        self.forms = forms

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        self.local_arrays = {s.targets[0].id for s in iter_nodes(tree) if isinstance(s, ast.Assign)
                             and isinstance(s.targets[0], ast.Name) and self.makes_array(s.value)}
        tree.body = self.block(tree.body)
        return tree

    def makes_array(self, v) -> bool:
        """Whether ``v`` is an array allocation or copy (``np.zeros(n)``, ``x.copy()``): a name
        bound to one is an array, whose ``a *= f`` in a prange is Numba's whole-array reduction."""
        if not isinstance(v, ast.Call):
            return False
        if isinstance(v.func, ast.Attribute) and v.func.attr == "copy":
            return True
        canon = self.forms.canon(v.func) or ""
        return canon.startswith("numpy.") and canon.split(".")[-1] in _ARRAY_MAKERS

    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            for field in ("body", "orelse"):
                if isinstance(getattr(s, field, None), list) and not isinstance(s, ast.FunctionDef):
                    setattr(s, field, self.block(getattr(s, field)))
            out += self.loop(s) if self.is_prange(s) else [s]
        return out

    def is_prange(self, s) -> bool:
        if not (isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and isinstance(s.target, ast.Name)
                and len(s.iter.args) in (1, 2) and not s.iter.keywords):
            return False
        nz = self.forms.nz
        dotted = nz.resolver.dotted(s.iter.func)
        return dotted is not None and nz.loop_kind(dotted) == "numba.prange"

    # ------------------------------------------------------------ recognition
    def site_kind(self, s):
        """``(name, kind, first)`` of a reduction update ``s``: kind ``"max"``, ``"min"`` or
        ``"prod"``; ``first``: whether the name is the first operand (else None)."""
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and isinstance(s.op, ast.Mult):
            return s.target.id, "prod", True
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            return None
        x, v = s.targets[0].id, s.value
        if isinstance(v, ast.Call) and not v.keywords and len(v.args) == 2 and self.forms.canon(v.func) in _SELECT:
            kind = self.forms.canon(v.func).split(".")[-1]
            a, b = v.args
        elif isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult):
            kind, a, b = "prod", v.left, v.right
        else:
            return None
        if isinstance(a, ast.Name) and a.id == x and x not in _loads(b):
            return x, kind, True
        if isinstance(b, ast.Name) and b.id == x and x not in _loads(a):
            return x, kind, False
        return None

    def reductions(self, loop) -> dict:
        """name -> kind of the reductions of ``loop`` this module rewrites: every statement of
        the body binding the name is an update of one kind, and no other statement reads it."""
        stmts = [s for s in iter_nodes(ast.Module(body=list(loop.body), type_ignores=[])) if isinstance(s, ast.stmt)]
        sites, stored, read = {}, set(), set()
        for s in stmts:
            hit = self.site_kind(s)
            if hit is not None:
                sites.setdefault(hit[0], set()).add(hit[1])
                continue
            heads = _heads(s) if isinstance(s, (ast.For, ast.While, ast.If, ast.With)) else [s]
            for h in heads:
                read |= _loads(h)
                stored |= _stores(h)
        arrays = set(self.forms.nz.ndims) | self.local_arrays    # (`a *= f` of an array: Numba's own)
        return {x: kinds.pop() for x, kinds in sorted(sites.items())
                if len(kinds) == 1 and x not in stored | read | arrays and x != loop.target.id}

    # ------------------------------------------------------------ rewrite
    def loop(self, loop) -> list:
        red = self.reductions(loop)
        args = loop.iter.args
        lo = None if len(args) == 1 else args[0]
        if not red or (lo is not None and (_stores(ast.Module(body=list(loop.body), type_ignores=[]))
                                           & _loads(lo) or any(isinstance(n, ast.Call)
                                                                for n in iter_nodes(lo)))):
            return [loop]
        if lo is None:
            count, slot = copy.deepcopy(args[0]), _name(loop.target.id)
        else:
            count = ast.Call(func=_name("max"), args=[ast.BinOp(left=copy.deepcopy(args[1]), op=ast.Sub(),
                                                                right=copy.deepcopy(lo)), ast.Constant(0)],
                             keywords=[])
            slot = ast.BinOp(left=_name(loop.target.id), op=ast.Sub(), right=copy.deepcopy(lo))
        nz = self.forms.nz
        before, after = [], []
        for x, kind in red.items():
            parts = nz.fresh(f"{x}_parts")
            start = _name(x) if kind != "prod" else ast.Constant(1.0)
            before.append(ast.Assign(targets=[_name(parts, True)], value=ast.Call(
                func=self.forms.np_attr("full"), args=[copy.deepcopy(count), start], keywords=[])))
            site = next(s for s in iter_nodes(ast.Module(body=list(loop.body), type_ignores=[]))
                        if isinstance(s, ast.stmt) and (self.site_kind(s) or (None,))[0] == x)
            first = self.rewrite_sites(loop.body, x, parts, slot)
            k = nz.fresh(f"{x}_k")
            elem = ast.Subscript(value=_name(parts), slice=_name(k), ctx=ast.Load())
            after.append(ast.For(target=_name(k, True), iter=ast.Call(func=_name("range"), args=[copy.deepcopy(count)],
                                                                     keywords=[]),
                                 body=[self.update(_name(x, True), _name(x), kind, first, elem)], orelse=[]))
            # (the slots and their combination carry the update's line: `# adjoint of: m = max(m, v)`)
            for s in (before[-1], after[-1]):
                ast.fix_missing_locations(ast.copy_location(s, site))
                for n in iter_nodes(s):
                    if hasattr(n, "lineno"):
                        ast.copy_location(n, site)
        return before + [loop] + after

    def update(self, target, reduced, kind, first, other):
        """``target = max(reduced, other)`` (operands in the user's order: ``first``), ``min``,
        or ``target *= other``."""
        if kind == "prod":
            return ast.AugAssign(target=target, op=ast.Mult(), value=other)
        ops = [reduced, other] if first else [other, reduced]
        return ast.Assign(targets=[target], value=ast.Call(func=_name(kind), args=ops, keywords=[]))

    def rewrite_sites(self, stmts, x, parts, slot) -> bool:
        """Replace the updates of ``x`` in ``stmts`` (nested blocks too, in place) by updates of
        its slot ``parts[slot]``; returns whether ``x`` was the first operand."""
        first = True
        for j, t in enumerate(stmts):
            hit = self.site_kind(t)
            if hit is not None and hit[0] == x:
                first = hit[2]
                cell = [ast.Subscript(value=_name(parts), slice=copy.deepcopy(slot), ctx=c)
                        for c in (ast.Store(), ast.Load())]
                new = self.update(*cell, hit[1], first, _other_operand(t, x))
                stmts[j] = ast.fix_missing_locations(ast.copy_location(new, t))
                continue
            for field in ("body", "orelse"):
                block = getattr(t, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    first = self.rewrite_sites(block, x, parts, slot) if any(
                        x in _stores(u) for u in block) else first
        return first


def _other_operand(s, x):
    """The operand of reduction update ``s`` of ``x`` that is not ``x``."""
    if isinstance(s, ast.AugAssign):
        return s.value
    v = s.value
    a, b = (v.args if isinstance(v, ast.Call) else (v.left, v.right))
    return b if isinstance(a, ast.Name) and a.id == x else a


def _heads(s) -> list:
    """The expressions of compound statement ``s`` outside its blocks (test, iter, target)."""
    if isinstance(s, ast.For):
        return [s.iter, s.target]
    if isinstance(s, (ast.While, ast.If)):
        return [s.test]
    if isinstance(s, ast.With):
        return [i.context_expr for i in s.items]
    return []

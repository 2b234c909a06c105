"""Pass 1 of the list lowering (see :mod:`.lists`): comprehensions and generators become the
loops that append to a list (or add to a sum); every list of the kernel is recorded.

Runs before :mod:`.forms`, so that the loops it writes over arrays, ``zip`` and ``enumerate`` are
lowered there as the user's own loops.
"""
from __future__ import annotations

import ast
import copy

from ..ir.nodes import Rename, name
from .listvalues import ListInfo, assign, at_line, canon_of, creation, int_names, is_int, mk_call
from ..ir.walk import iter_nodes


class Comprehensions:
    """Pass 1 (see :mod:`.lists`): comprehensions and generators -> appending loops;
    records the kernel's lists in ``nz.list_info``."""

    def __init__(self, nz):
        self.nz = nz

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        tree = copy.deepcopy(tree)
        self.tree = tree
        tree.body = self.block(tree.body)
        info = self.nz.list_info
        for p, dt in sorted(self.nz.list_params.items()):
            if dt == "array":
                raise self.nz.err(tree, f"the argument `{p}`, a list of arrays", "pass a 2-D array")
            info[p] = ListInfo(mk_call("len", name(p)), param=True)
        for s in iter_nodes(tree):
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                made = creation(self.nz, s.value)
                if made is not None:
                    lst = s.targets[0].id
                    if lst in self.nz.p.params:
                        raise self.nz.err(s, f"rebinding the argument `{lst}` to a list", "give the list a new name")
                    if lst in info:
                        raise self.nz.err(s, f"a second list bound to `{lst}`", "give each list its own name")
                    info[lst] = ListInfo(name(self.nz.fresh(lst + "_len")),
                                         dtype=made[1] if made[0] == "typed" else None)
        for n in iter_nodes(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" and \
                    isinstance(n.func.value, ast.Name) and n.func.value.id not in info:
                raise self.nz.err(n, f"`{n.func.value.id}.append()` on a name that is not a list made in this "
                                     "function (a parameter of a helper, or an array)",
                                  "create and fill the list in one function; pass helpers np.array(L)")
        return tree

    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            out += self.stmt(s)
        return out

    def stmt(self, s) -> list:
        pre = []
        if isinstance(s, ast.While):
            if any(isinstance(n, (ast.ListComp, ast.GeneratorExp)) for n in iter_nodes(s.test)):
                raise self.nz.err(s, "a comprehension in a while condition",
                                  "compute it into a name before the loop and at the end of its body")
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            return [s]
        if isinstance(s, ast.For):
            s.iter = _Hoist(self, pre).visit(s.iter)
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            return pre + [s]
        if isinstance(s, ast.If):
            s.test = _Hoist(self, pre).visit(s.test)
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            return pre + [s]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and \
                isinstance(s.value, ast.ListComp):
            return self.block(self.desugar(s.value, s.targets[0].id, s))
        if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.Raise)):
            s = _Hoist(self, pre).visit(s)
        return pre + [s]

    def desugar(self, comp, target: str, like, accumulate=None) -> list:
        """``target = []`` and the loops appending ``comp``'s elements (or, with ``accumulate`` =
        the initial value, ``target = init`` and the loops adding them)."""
        if any(g.is_async for g in comp.generators):
            raise self.nz.err(comp, "an async comprehension")
        comp = self.rename(comp)
        if accumulate is None:
            if isinstance(comp.elt, (ast.List, ast.Tuple, ast.ListComp)):
                raise self.nz.err(comp, "a list of lists or tuples", "preallocate a 2-D array and write its rows")
            body = [at_line(ast.Expr(mk_call(ast.Attribute(value=name(target), attr="append", ctx=ast.Load()),
                                        comp.elt)), like)]
            head = assign(target, ast.List(elts=[], ctx=ast.Load()), like)
        else:
            body = [at_line(ast.AugAssign(target=name(target, True), op=ast.Add(), value=comp.elt), like)]
            head = assign(target, accumulate, like)
        for g in reversed(comp.generators):
            for cond in reversed(g.ifs):
                body = [at_line(ast.If(test=cond, body=body, orelse=[]), like)]
            body = [at_line(ast.For(target=g.target, iter=g.iter, body=body, orelse=[]), like)]
        return [head] + body

    def rename(self, comp):
        """Comprehension variables keep their names unless the kernel uses the name outside the
        comprehension or a nested comprehension rebinds it (Python gives them their own scope)."""
        inside = {id(n) for n in iter_nodes(comp)}
        outside = {n.id for n in iter_nodes(self.tree) if isinstance(n, ast.Name) and id(n) not in inside}
        nested = {t.id for n in iter_nodes(comp) if n is not comp and isinstance(n, (ast.ListComp, ast.GeneratorExp))
                  for g in n.generators for t in iter_nodes(g.target) if isinstance(t, ast.Name)}
        comp = copy.deepcopy(comp)
        mapping = {}
        for g in comp.generators:
            for t in iter_nodes(g.target):
                if isinstance(t, ast.Name) and (t.id in outside or t.id in nested or t.id in self.nz.p.params):
                    mapping[t.id] = self.nz.fresh(t.id)
        if not mapping:
            return comp
        # the first generator's iterable is evaluated outside the comprehension
        first_iter = comp.generators[0].iter
        comp = Rename(mapping).visit(comp)
        comp.generators[0].iter = first_iter
        return comp


class _Hoist(ast.NodeTransformer):
    """Comprehensions inside one expression -> lists (or sums) computed before the statement."""

    def __init__(self, c: Comprehensions, pre: list):
        self.c, self.pre = c, pre

    def visit_Call(self, node):
        canon = canon_of(self.c.nz, node.func)
        arg = node.args[0] if len(node.args) in (1, 2) else None
        if canon == "builtins.sum" and isinstance(arg, (ast.GeneratorExp, ast.ListComp)) and not node.keywords:
            start = self.visit(node.args[1]) if len(node.args) == 2 else None
            acc = self.c.nz.fresh("total")
            init = start if start is not None else ast.Constant(0 if _int_elements(self.c.nz, arg) else 0.0)
            self.pre += self.c.block(self.c.desugar(arg, acc, node, accumulate=init))
            return ast.copy_location(name(acc), node)
        if canon in ("builtins.max", "builtins.min", "builtins.any", "builtins.all") and \
                len(node.args) == 1 and isinstance(arg, ast.GeneratorExp):
            node.args = [ast.copy_location(ast.ListComp(elt=arg.elt, generators=arg.generators), arg)]
        self.generic_visit(node)
        return node

    def visit_ListComp(self, node):
        items = self.c.nz.fresh("items")
        self.pre += self.c.block(self.c.desugar(node, items, node))
        return ast.copy_location(name(items), node)

    def visit_GeneratorExp(self, node):
        raise self.c.nz.err(node, "a generator outside sum()", "write the loop, or sum(... for ...)")

    def visit_Lambda(self, node):
        return node


def _int_elements(nz, comp) -> bool:
    """Whether ``comp``'s elements are integers by construction (its variables over ``range``)."""
    ints = int_names(nz, nz.p.tree)
    for g in comp.generators:
        if isinstance(g.target, ast.Name) and isinstance(g.iter, ast.Call) and \
                canon_of(nz, g.iter.func) in ("builtins.range", "range"):
            ints.add(g.target.id)
    return is_int(comp.elt, ints, nz)

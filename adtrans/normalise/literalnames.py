"""A name bound once to a literal of numbers and only looped over (``pairs = [(0, 1), (1, 2)]``,
``offsets = ((1, 0), (0, 1))``, then ``for a, b in pairs:``): each loop iterates over the literal
itself, which :mod:`.forms` lowers to an index loop (a list of tuples is otherwise refused by
the list lowering, a tuple name by the forms).  ``len(pairs)`` becomes the number of elements.
A module global tuple of tuples of numbers (``OFFSETS = ((1, 0), (0, 1))``, a compile-time constant
to Numba) is looped over the same way.  Anything else done with the name (indexing, passing it
on, rebinding) leaves the kernel as it was.
"""
from __future__ import annotations

import ast
import copy

from ..ir.walk import iter_nodes


def _numbers(e) -> bool:
    if isinstance(e, (ast.Tuple, ast.List)):
        return bool(e.elts) and all(_numbers(x) for x in e.elts)
    if isinstance(e, ast.Constant):
        return type(e.value) in (int, float)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        return _numbers(e.operand)
    if isinstance(e, ast.BinOp):
        return _numbers(e.left) and _numbers(e.right)
    return False


def _literal_of_value(v):
    """A module global tuple of tuples of numbers (``OFFSETS = ((1, 0), (0, 1))``, a constant to
    Numba as well) as its literal, else None."""
    def ok(x):
        if isinstance(x, tuple):
            return bool(x) and all(ok(e) for e in x)
        return type(x) in (int, float)
    if isinstance(v, tuple) and v and all(isinstance(e, tuple) for e in v) and ok(v):
        return ast.parse(repr(v), mode="eval").body
    return None


def inline_literal_names(tree: ast.FunctionDef, globals_=None) -> ast.FunctionDef:
    """``tree`` with each loop over (and ``len`` of) a name bound once to a literal of number
    tuples, or of a module global tuple of them (``globals_``), written over the literal itself,
    the binding dropped (see the module docstring); ``tree`` itself unchanged (a copy is
    rewritten), returned as it is when there is none."""
    stores: dict = {}
    for n in iter_nodes(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    params = {a.arg for a in tree.args.args + tree.args.kwonlyargs}
    cands = {}          # name -> its literal
    at = {}             # name -> position of its binding in tree.body (locals only)
    for k, s in enumerate(tree.body):         # bound at the top level of the body, once
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and \
                isinstance(s.value, (ast.Tuple, ast.List)) and len(s.value.elts) > 0 and \
                all(isinstance(e, (ast.Tuple, ast.List)) for e in s.value.elts) and _numbers(s.value) and \
                stores.get(s.targets[0].id) == 1 and s.targets[0].id not in params:
            cands[s.targets[0].id] = s.value
            at[s.targets[0].id] = k
    local = set(stores) | params
    for n in iter_nodes(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in local and \
                n.id not in cands and globals_ and n.id in globals_:
            lit = _literal_of_value(globals_[n.id])
            if lit is not None:
                cands[n.id] = lit
    if not cands:
        return tree
    allowed = set()                    # ids of the Name nodes in loop headers and len()
    for n in iter_nodes(tree):
        if isinstance(n, ast.For):
            it = n.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and it.args:
                it = it.args[0]
            if isinstance(it, ast.Name):
                allowed.add(id(it))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and \
                len(n.args) == 1 and isinstance(n.args[0], ast.Name):
            allowed.add(id(n.args[0]))
    for n in iter_nodes(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in cands and id(n) not in allowed:
            cands.pop(n.id)
    if not cands:
        return tree

    class _Sub(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 and \
                    isinstance(node.args[0], ast.Tuple):
                return ast.copy_location(ast.Constant(len(node.args[0].elts)), node)
            return node

        def visit_Name(self, node):
            if isinstance(node.ctx, ast.Load) and node.id in cands:
                lit = copy.deepcopy(cands[node.id])
                return ast.copy_location(ast.Tuple(elts=lit.elts, ctx=ast.Load()), node)
            return node

    drop = {at[n] for n in cands if n in at}
    tree = copy.deepcopy(tree)          # the primal's own tree stays as parsed
    tree.body = [s for k, s in enumerate(tree.body) if k not in drop]
    tree = _Sub().visit(tree)
    ast.fix_missing_locations(tree)
    return tree


def prune_none_params(tree: ast.FunctionDef, none_params) -> ast.FunctionDef:
    """``def f(x, w=None): if w is None: ...`` (Numba types ``w`` as none when it is left out, an
    array or number when passed, and compiles only the branch taken): ``w is None`` / ``w is not
    None`` of such a parameter (``none_params``: name -> whether it is None) are constants and the
    ``if`` (or ``a if ... else b``) keeps the branch taken."""
    if not none_params:
        return tree

    def const(test):
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
            a, b = test.left, test.comparators[0]
            if isinstance(b, ast.Name) and isinstance(a, ast.Constant):
                a, b = b, a
            if isinstance(a, ast.Name) and a.id in none_params and isinstance(b, ast.Constant) and b.value is None:
                return isinstance(test.ops[0], ast.Is) == bool(none_params[a.id])
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            v = const(test.operand)
            return None if v is None else not v
        return None

    class _Prune(ast.NodeTransformer):
        def visit_If(self, node):
            self.generic_visit(node)
            v = const(node.test)
            if v is None:
                return node
            keep = node.body if v else node.orelse
            return keep or [ast.copy_location(ast.Pass(), node)]

        def visit_IfExp(self, node):
            self.generic_visit(node)
            v = const(node.test)
            if v is None:
                return node
            return node.body if v else node.orelse

    if not any(isinstance(n, (ast.If, ast.IfExp)) and const(n.test) is not None for n in iter_nodes(tree)):
        return tree
    tree = _Prune().visit(copy.deepcopy(tree))      # the primal's own tree stays as parsed
    ast.fix_missing_locations(tree)
    return tree

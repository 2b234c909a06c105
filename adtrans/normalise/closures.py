"""Inner functions of a kernel (closures and named lambdas), lifted so they inline as helpers.

Numba compiles an inner ``def`` (or ``sq = lambda t: t * t``) that a kernel only calls (it never
escapes) by inlining it.  Here each one becomes a helper of its own (a :class:`~adtrans.parse.Primal`
sharing the kernel's file and globals) whose leading parameters are its *free variables*: the
names it reads that are locals or parameters of the enclosing kernel.  Each call ``g(x[i])`` is
rewritten to ``g(a, w, x[i])`` (``a``, ``w`` the free variables), so it passes the values the
names hold *when the call runs*, which is Python's (late-binding) semantics; an array free
variable is passed as the array itself, so the inlined body reads and writes the kernel's array.
Closures that call other closures get those callees' free variables too.

Refused with the line: an inner function used other than by calling it (returned, passed,
stored: Numba refuses these too), ``nonlocal``, one defined twice, ``*args``/``**kwargs``.
"""
from __future__ import annotations

import ast
import copy
import dataclasses

from ..ir.walk import iter_nodes


def _stored(nodes) -> set:
    out = set()
    for n in nodes:
        for s in iter_nodes(n):
            if isinstance(s, ast.Name) and isinstance(s.ctx, ast.Store):
                out.add(s.id)
            elif isinstance(s, ast.arg):
                out.add(s.arg)
    return out


def _loaded(nodes) -> set:
    return {s.id for n in nodes for s in iter_nodes(n) if isinstance(s, ast.Name) and isinstance(s.ctx, ast.Load)}


class _Finder(ast.NodeVisitor):
    """The inner functions of a kernel body (not descending into them)."""

    def __init__(self, err):
        self.err = err
        self.found: dict = {}       # name -> FunctionDef

    def add(self, fn, node):
        if fn.name in self.found:
            raise self.err(node, f"inner function `{fn.name}` defined twice", "give each inner function its own name")
        a = fn.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.err(node, f"inner function `{fn.name}` with *args, **kwargs or keyword-only parameters",
                           "give it plain named parameters")
        for s in iter_nodes(fn):
            if isinstance(s, (ast.Nonlocal, ast.Global)):
                raise self.err(s, "nonlocal statement in an inner function",
                               "return the new value from the inner function and assign it in the kernel")
        self.found[fn.name] = fn

    def visit_FunctionDef(self, node):
        self.add(node, node)

    def visit_Assign(self, node):
        if isinstance(node.value, ast.Lambda):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                raise self.err(node, "lambda bound to something other than one name", "write `f = lambda t: ...`")
            lam = node.value
            fn = ast.FunctionDef(name=node.targets[0].id, args=lam.args,
                                 body=[ast.copy_location(ast.Return(value=lam.body), lam.body)],
                                 decorator_list=[], returns=None, type_params=[])
            self.add(ast.copy_location(fn, node), node)
            return
        self.generic_visit(node)

    def visit_Lambda(self, node):
        raise self.err(node, "lambda used as a value", "bind it to a name (`sq = lambda t: t * t`) and call it")


class _Strip(ast.NodeTransformer):
    """Removes the definitions; rewrites calls ``g(args)`` to ``g(free..., args)``."""

    def __init__(self, free: dict, err):
        self.free, self.err = free, err

    def visit_FunctionDef(self, node):
        return None if node.name in self.free else node

    def visit_Assign(self, node):
        if isinstance(node.value, ast.Lambda):
            return None
        return self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in self.free:
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            node.args = [ast.copy_location(ast.Name(id=v, ctx=ast.Load()), node)
                         for v in self.free[node.func.id]] + node.args
            return node
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.free:
            raise self.err(node, f"inner function `{node.id}` used as a value (Numba compiles inner functions "
                                 f"only where they are called)", "call it where it is used")
        return node


def lift_closures(primal, err):
    """``(tree, closures)``: the kernel's tree without its inner functions (calls rewritten, see
    the module docstring), and name -> lifted :class:`~adtrans.parse.Primal` of each one.  The
    tree is returned unchanged (and ``{}``) when the kernel defines none."""
    tree = primal.tree
    finder = _Finder(err)
    for s in tree.body:
        finder.visit(s)
    fns = finder.found
    if not fns:
        return tree, {}
    inner_ids = {id(n) for fn in fns.values() for n in iter_nodes(fn)}
    outer_nodes = [n for s in tree.body for n in iter_nodes(s) if id(n) not in inner_ids]
    enclosing = set(primal.params) | {n.id for n in outer_nodes if isinstance(n, ast.Name)
                                      and isinstance(n.ctx, ast.Store)}
    enclosing -= set(fns)
    free = {}
    for g, fn in fns.items():
        own = _stored(fn.body) | {a.arg for a in fn.args.args}
        free[g] = sorted((_loaded(fn.body) - own) & enclosing)
    changed = True
    while changed:          # callees' free variables, transitively
        changed = False
        for g, fn in fns.items():
            own = _stored(fn.body) | {a.arg for a in fn.args.args}
            for h in _loaded(fn.body) & set(fns):
                extra = [v for v in free[h] if v not in free[g] and v not in own]
                if extra:
                    free[g] = sorted(free[g] + extra)
                    changed = True
    for g, fn in fns.items():
        own = _stored(fn.body) | {a.arg for a in fn.args.args}
        clash = own & set(free[g])
        if clash:
            raise err(fn, f"inner function `{g}` assigns `{sorted(clash)[0]}`, which a function it calls reads "
                          f"from the kernel", "rename the inner function's local")
    strip = _Strip(free, err)
    new_tree = copy.copy(tree)
    new_tree.body = [s for s in (strip.visit(copy.deepcopy(s)) for s in tree.body) if s is not None] or \
        [ast.copy_location(ast.Pass(), tree.body[0])]
    closures = {}
    for g, fn in fns.items():
        lifted = copy.deepcopy(fn)
        lifted.args = copy.deepcopy(fn.args)
        lifted.args.args = [ast.arg(arg=v) for v in free[g]] + lifted.args.args
        lifted.body = [s for s in (strip.visit(s) for s in lifted.body) if s is not None] or [ast.Pass()]
        closures[g] = dataclasses.replace(primal, name=g, tree=lifted, pyfunc=None, dispatcher=None)
    return new_tree, closures

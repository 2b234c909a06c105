"""Python forms of user kernels, lowered to the loops and element accesses the normaliser knows.

Runs on a copy of the kernel's ``FunctionDef`` before jump lowering (so ``break`` and
``continue`` in the loops it writes are lowered as any others):

- ``for a, b in zip(x, y)`` (also ``zip(range(n), x, y)``), ``for i, v in enumerate(x)``,
  ``for v in x`` (rows of a 2-D array are ``x[k]``), ``for v in x.flat`` -> ``for k in
  range(...)`` with the elements bound at the top of the body; ``zip`` stops at the shortest;
- ``for i, j in np.ndindex(M, N)`` / ``for idx in np.ndindex(x.shape)`` -> nested ``range`` loops
  (``idx`` becomes the tuple of indices);
- ``M, N = x.shape`` -> ``M = x.shape[0]``, ``N = x.shape[1]``; ``s = x.shape`` makes ``s`` stand
  for ``x.shape`` (``s[0]``, ``np.zeros(s)``);
- ``x.flat[i]`` -> ``x[i // (n1 * n2), i // n2 % n1, i % n2]`` (row-major, as NumPy);
- ``t = (a, b)`` (a tuple local) and ``t = f(x)`` (a helper returning ``a, b``) -> one name per
  element; ``t[0]``, ``u, v = t``, ``len(t)``;
- ``np.array([[c, -s], [s, c]])`` -> ``np.empty((2, 2))`` and one store per element; a literal
  inside an expression (``return np.array([...])``, ``R @ np.array([l, 0.0, 0.0])``) is first
  bound to a temporary named ``<target>_lit`` (or ``lit``) before its statement.

Also: binding a helper call's positional, keyword and default arguments (:func:`bind_call`)
and string dtypes (:func:`string_dtype`).  Errors are :class:`~adtrans.errors.UnsupportedError`
at the user's line.
"""
from __future__ import annotations

import ast
import builtins
import copy
import os

import numpy as np

from ..ir.nodes import name
from ..ir.walk import const_int, iter_nodes
from .listvalues import int_names

_STRING_DTYPES = {"float64": "float64", "f8": "float64", "double": "float64", "float": "float64",
                  "float32": "float32", "f4": "float32", "single": "float32",
                  "int64": "int64", "i8": "int64", "int": "int64", "int32": "int32", "i4": "int32",
                  "int16": "int16", "int8": "int8", "uint8": "uint8", "u1": "uint8", "uint32": "uint32",
                  "uint64": "uint64", "bool": "bool_", "bool_": "bool_", "?": "bool_", "intp": "intp"}


def string_dtype(node) -> ast.expr | None:
    """``np.float64`` for the string dtype ``'float64'`` (``'f8'``, ``'float32'`` ...), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        short = _STRING_DTYPES.get(node.value.strip().lower().lstrip("<=|"))
        if short is not None:
            return ast.parse(f"np.{short}", mode="eval").body
    return None


def exception_class(nz, s: ast.Raise) -> None:
    """Check the exception class a ``raise`` names and make a user-defined one reach the
    generated module (through the normaliser's ``global_arrays``, the names it injects)."""
    exc = s.exc
    if exc is None:
        raise nz.err(s, "bare `raise`", "raise an exception class with a message")
    func = exc.func if isinstance(exc, ast.Call) else exc
    dotted = nz.resolver.dotted(func)
    if dotted is None:
        raise nz.err(s, f"raise of `{ast.unparse(exc)}`", "raise ExceptionClass('message')")
    found, obj = nz.resolver.lookup(dotted)
    if not found and nz.resolver.globals is None:       # read from a file (adtrans gen)
        if dotted in nz.resolver.file_classes:
            nz.global_arrays[dotted] = file_exception_class(nz, s, dotted)
        return
    if not found:
        raise nz.err(s, f"raise of the unknown name `{dotted}`", "raise a built-in or module-level exception class")
    if not (isinstance(obj, type) and issubclass(obj, BaseException)):
        raise nz.err(s, f"raise of `{dotted}`, which is not an exception class", "raise ExceptionClass('message')")
    if getattr(builtins, obj.__name__, None) is obj:
        return
    if "." in dotted:
        raise nz.err(s, f"raise of `{dotted}` (an attribute)", f"import the class by name: from ... import {obj.__name__}")
    nz.global_arrays[dotted] = obj


def file_exception_class(nz, s: ast.Raise, name: str, depth: int = 0) -> type:
    """A stand-in for the exception class ``name`` defined in the file ``adtrans gen`` reads
    (the file is never executed): a class of the same name on the same built-in base, for
    typing only; the generated module imports the real one from the kernel's module."""
    node = nz.resolver.file_classes[name]
    bases = [nz.resolver.dotted(b) for b in node.bases]
    if len(bases) != 1 or bases[0] is None or depth > 20:
        raise nz.err(s, f"raise of `{name}` (bases {', '.join(map(str, bases)) or 'none'})",
                     "derive the exception class from one built-in exception class, e.g. class E(ValueError)")
    base = bases[0]
    if base in nz.resolver.file_classes:
        parent = file_exception_class(nz, s, base, depth + 1)
    else:
        parent = getattr(builtins, base, None)
        if not (isinstance(parent, type) and issubclass(parent, BaseException)):
            raise nz.err(s, f"raise of `{name}`, derived from `{base}`",
                         "derive the exception class from a built-in exception class, e.g. class E(ValueError)")
    return type(name, (parent,), {"__module__": "adtrans_gen_stand_in"})


def print_call(nz, expr: ast.Call, out):
    """``print(a, "text", b)`` as a forward-only statement: strings kept, other arguments atoms."""
    if expr.keywords:
        raise nz.err(expr, "print() with keywords", "print(a, b, ...)")
    args = [a if isinstance(a, ast.Constant) and isinstance(a.value, str) else nz.atom(a, out, "printed")
            for a in expr.args]
    stmt = ast.Expr(value=ast.Call(func=ast.Name(id="print", ctx=ast.Load()), args=args, keywords=[]))
    stmt.adtrans_kind = "print"
    out.append(ast.copy_location(stmt, expr))


def bind_call(hp, expr: ast.Call, error) -> list:
    """The argument expressions of the call ``expr`` of helper ``hp`` (a Primal), one per
    parameter: positional, then keywords by name, then the helper's defaults (values of the
    function object when it has them, else the default expressions of its source)."""
    args = hp.tree.args
    params = [a.arg for a in args.args]
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        raise error(expr, f"call to {hp.name}, which has *args, **kwargs or keyword-only parameters",
                    "give the helper plain named parameters")
    if len(expr.args) > len(params):
        raise error(expr, f"call to {hp.name} with {len(expr.args)} arguments for {len(params)} parameters",
                    "pass one argument per parameter")
    bound: dict = dict(zip(params, expr.args))
    for kw in expr.keywords:
        if kw.arg is None:
            raise error(expr, f"**-arguments in the call to {hp.name}", "pass arguments by name")
        if kw.arg not in params:
            raise error(expr, f"keyword `{kw.arg}` in the call to {hp.name}, which has no such parameter",
                        f"its parameters are {', '.join(params)}")
        if kw.arg in bound:
            raise error(expr, f"parameter `{kw.arg}` of {hp.name} given twice")
        bound[kw.arg] = kw.value
    defaults = dict(zip(params[len(params) - len(args.defaults):], args.defaults))
    values = getattr(hp.pyfunc, "__defaults__", None) or ()
    held = dict(zip(params[len(params) - len(values):], values))
    out = []
    for p in params:
        if p in bound:
            out.append(bound[p])
        elif p in held and isinstance(held[p], (bool, int, float, np.integer, np.floating)):
            v = held[p].item() if isinstance(held[p], np.generic) else held[p]
            out.append(ast.copy_location(ast.Constant(v), expr))
        elif p in defaults:
            out.append(copy.deepcopy(defaults[p]))
        else:
            raise error(expr, f"call to {hp.name} without its parameter `{p}`", "pass every parameter")
    return out


def _stores(stmts) -> set:
    return {n.id for s in stmts for n in iter_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _is_slicing(e) -> bool:
    """A subscript with a slice among its indices (a view of an array, not an element)."""
    idx = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
    return any(isinstance(x, ast.Slice) for x in idx)


def _constant_expr(e) -> bool:
    """A number or an arithmetic expression of numbers (``-1``, ``2.0 / 3.0``)."""
    if isinstance(e, ast.Constant):
        return isinstance(e.value, (int, float, bool))
    if isinstance(e, ast.UnaryOp):
        return _constant_expr(e.operand)
    if isinstance(e, ast.BinOp):
        return _constant_expr(e.left) and _constant_expr(e.right)
    return False


def _leaves(t):
    """The elements of a (nested) tuple or list literal that are not literals themselves."""
    for e in t.elts:
        if isinstance(e, (ast.Tuple, ast.List)):
            yield from _leaves(e)
        else:
            yield e


def _loc(node, like):
    return ast.fix_missing_locations(ast.copy_location(node, like)) if hasattr(like, "lineno") else node


def _call(func: str, *args):
    return ast.Call(func=ast.Name(id=func, ctx=ast.Load()), args=list(args), keywords=[])


def _sub(arr, idx):
    return ast.Subscript(value=copy.deepcopy(arr), slice=idx, ctx=ast.Load())


def _shape(arr, k):
    return ast.Subscript(value=ast.Attribute(value=copy.deepcopy(arr), attr="shape", ctx=ast.Load()),
                         slice=ast.Constant(k), ctx=ast.Load())


def _binop(l, op, r):
    return ast.BinOp(left=l, op=op, right=r)


class _Source:
    """One iterable of a ``for``: its length and its ``k``-th element (both ASTs)."""

    def __init__(self, length, element, parts=None, offset=None):
        self.length, self.element, self.parts, self.offset = length, element, parts, offset


class FormLowering:
    """Rewrites one kernel's statements (see the module docstring).  ``nz``: the normaliser
    (its resolver, ``fresh``, ``err``, ``ndims``)."""

    def __init__(self, nz):
        self.nz = nz
        self.shape_alias: dict = {}
        self.tuples: dict = {}
        self.renamed: dict = {}         # argument name -> its copy, after `x = np.copy(x)`
        self.depth = 0
        self.int_locals: set = set()    # integer locals (set by run): fixed indices of views
        self.index_checks: list = []    # range checks of run-time tuple indices (see `stmt`)

    # ------------------------------------------------------------ helpers
    def canon(self, func) -> str | None:
        dotted = self.nz.resolver.dotted(func)
        if dotted is None:
            return None
        head = dotted.split(".")[0]
        if head in self.nz.locals:
            return None
        return self.nz.resolver.canonical(dotted)

    def np_attr(self, attr):
        """``<numpy>.attr`` spelled with a name the kernel's module binds to numpy (``np``)."""
        g = self.nz.resolver.globals
        alias = "np"
        if g is not None and g.get("np") is not np:
            alias = next((k for k, v in sorted(g.items(), key=lambda kv: kv[0]) if v is np), "np")
        elif g is None:
            alias = next((k for k, v in sorted(self.nz.resolver.imports.items()) if v == "numpy"), "np")
        return ast.Attribute(value=ast.Name(id=alias, ctx=ast.Load()), attr=attr, ctx=ast.Load())

    def ndim(self, node) -> int | None:
        if isinstance(node, ast.Name):
            return self.nz.ndims.get(node.id)
        return None

    def view_ndim(self, node) -> int | None:
        """ndim of a basic-indexing view of a named array (``A[1:]``, ``A[i, 2:]``, ``A[:, None]``);
        None where an index may be an array (fancy indexing keeps its axes) or is unknown."""
        base = self.ndim(node.value) if isinstance(node.value, ast.Name) else None
        if base is None:
            return None
        idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        new = fixed = 0
        for x in idx:
            if isinstance(x, ast.Constant) and x.value is None:
                new += 1
            elif isinstance(x, ast.Constant) and type(x.value) is int:
                fixed += 1
            elif isinstance(x, ast.Name) and x.id in self.int_locals:
                fixed += 1
            elif not isinstance(x, ast.Slice):
                return None
        return base - fixed + new if fixed <= base else None

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        tree = copy.deepcopy(tree)
        self.int_locals = int_names(self.nz, tree)
        tree.body = self.block(tree.body)
        return tree

    def block(self, stmts) -> list:
        out = []
        self.depth += 1
        for s in stmts:
            out += self.checked(s)
        self.depth -= 1
        return out

    def checked(self, s) -> list:
        """:meth:`stmt` of ``s``, preceded by the range checks of the run-time tuple indices in
        its own expressions (``t[k]`` of a tuple local is a selection that picks an element for
        every ``k``: ``if k < -3 or k >= 3: raise IndexError(...)``, as Numba raises); a ``while``
        test's checks also end its body."""
        before = len(self.index_checks)
        out = self.stmt(s)
        checks, self.index_checks[before:] = self.index_checks[before:], []
        if checks and isinstance(s, ast.While):
            s.body = s.body + copy.deepcopy(checks)
        return checks + out

    def index_check(self, k, n: int, node) -> None:
        """Record the range check of index ``k`` into a tuple of ``n`` elements (see :meth:`checked`)."""
        where = f"{os.path.basename(self.nz.p.filename)}:{getattr(node, 'lineno', 0)}"
        test = ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=copy.deepcopy(k), ops=[ast.Lt()], comparators=[ast.Constant(-n)]),
            ast.Compare(left=copy.deepcopy(k), ops=[ast.GtE()], comparators=[ast.Constant(n)])])
        err = ast.Raise(exc=ast.Call(func=ast.Name(id="IndexError", ctx=ast.Load()), args=[
            ast.Constant(f"tuple index out of range in `{ast.unparse(node)}` ({where})")], keywords=[]), cause=None)
        self.index_checks.append(_loc(ast.If(test=test, body=[err], orelse=[]), node))

    def stmt(self, s) -> list:
        if isinstance(s, ast.For):
            return self.for_(s)
        if isinstance(s, ast.While):
            s.test = self.expr(s.test)
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse)
            return [s]
        if isinstance(s, ast.If):
            s.test = self.expr(s.test)
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse)
            return [s]
        if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)):
            pre = self.hoist_literals(s)
            if pre:
                out = []
                for t, v, like in pre:
                    out += self.array_literal(like, t, v) if self.is_literal(v) else \
                        self.stmt(_loc(ast.Assign(targets=[name(t.id, True)], value=v), like))
                return out + self.stmt(s)
        if isinstance(s, ast.Assign):
            return self.assign(s)
        return [self.expr_stmt(s)]

    def is_literal(self, v) -> bool:
        """``np.array([...])`` of a (nested) list or tuple literal."""
        return isinstance(v, ast.Call) and bool(v.args) and isinstance(v.args[0], (ast.List, ast.Tuple)) \
            and self.canon(v.func) == "numpy.array"

    def is_helper_call(self, v) -> bool:
        """A call of a function by name that is not a builtin, NumPy's or math's (an ``@njit``
        helper, as far as the syntax tells)."""
        if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)) or v.func.id in self.nz.locals:
            return False
        canon = self.canon(v.func) or ""
        if canon.startswith(("numpy.", "math.", "numba.", "builtins.")) or hasattr(builtins, v.func.id):
            return False
        found, obj = self.nz.resolver.lookup(self.nz.resolver.dotted(v.func))
        return not found or hasattr(obj, "py_func")

    def hoist_literals(self, s) -> list:
        """The ``np.array`` literals nested in the expressions of ``s`` (not its whole right-hand
        side, which :meth:`assign` lowers), and helper calls whose result a method is called on
        (``haversine(...).sum()``), each replaced in ``s`` by a fresh name: a list of
        ``(name, value, s)``.  Those under a conditional expression (``a if c else ...``,
        ``and``/``or``) stay where they are: hoisting them would evaluate them always."""
        whole = s.value if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Name) else None
        base = s.targets[0].id if whole is not None else \
            s.target.id if isinstance(s, (ast.AugAssign, ast.AnnAssign)) and isinstance(s.target, ast.Name) else \
            s.targets[0].value.id if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript) and \
            isinstance(s.targets[0].value, ast.Name) else None
        found = []
        forms = self

        class Hoist(ast.NodeTransformer):
            def visit_IfExp(self, node):
                return node

            def visit_BoolOp(self, node):
                return node

            def visit_Lambda(self, node):
                return node

            def visit_Call(self, node):
                if isinstance(node.func, ast.Attribute) and forms.is_helper_call(node.func.value):
                    recv = self.visit(node.func.value)
                    t = name(forms.nz.fresh(f"{recv.func.id}_out"))
                    found.append((t, recv, s))
                    node.func.value = ast.copy_location(ast.Name(id=t.id, ctx=ast.Load()), recv)
                    node.args = [self.visit(a) for a in node.args]
                    return node
                if node is not whole and forms.is_literal(node):
                    t = name(forms.nz.fresh(f"{base}_lit" if base else "lit"))
                    found.append((t, node, s))
                    return ast.copy_location(ast.Name(id=t.id, ctx=ast.Load()), node)
                self.generic_visit(node)
                return node
        if isinstance(s, ast.Assign):
            s.value = Hoist().visit(s.value)
            s.targets = [Hoist().visit(t) for t in s.targets]
        elif s.value is not None:
            s.value = Hoist().visit(s.value)
        return found

    def expr_stmt(self, s):
        return _Exprs(self).visit(s)

    def expr(self, e):
        return _Exprs(self).visit(e)

    # ---------------------------------------------------------- assignments
    def assign(self, s: ast.Assign) -> list:
        if len(s.targets) == 1:
            t, v = s.targets[0], s.value
            # M, N = x.shape
            if isinstance(t, (ast.Tuple, ast.List)) and self.is_shape(v):
                arr = self.shape_of(v)
                n = self.ndim(arr)
                if n is not None and n != len(t.elts):
                    raise self.nz.err(s, f"unpacking the shape of a {n}-d array into {len(t.elts)} names")
                return [_loc(ast.Assign(targets=[e], value=_shape(arr, k)), s) for k, e in enumerate(t.elts)]
            # idx, = np.nonzero(m): idx = np.nonzero(m)[0] (the array lowering makes it np.flatnonzero);
            # rows, cols = np.nonzero(m): m named once, then rows = np.nonzero(m)[0], cols = ...[1]
            if isinstance(t, (ast.Tuple, ast.List)) and all(isinstance(x, ast.Name) for x in t.elts) and \
                    isinstance(v, ast.Call) and (self.canon(v.func) == "numpy.nonzero" or isinstance(
                        v.func, ast.Attribute) and v.func.attr == "nonzero" and not v.args):
                out = []
                if len(t.elts) > 1:
                    method = not (self.canon(v.func) == "numpy.nonzero")
                    src = v.func.value if method else (v.args[0] if len(v.args) == 1 and not v.keywords else None)
                    if src is not None and not isinstance(src, ast.Name):
                        m = self.nz.fresh("mask")
                        out += self.assign(_loc(ast.Assign(targets=[name(m, True)], value=src), s))
                        v = copy.deepcopy(v)
                        if method:
                            v.func.value = name(m)
                        else:
                            v.args = [name(m)]
                for k, x in enumerate(t.elts):
                    part = ast.Subscript(value=copy.deepcopy(v), slice=ast.Constant(k), ctx=ast.Load())
                    out += self.assign(_loc(ast.Assign(targets=[x], value=part), s))
                return out
            # q, r = divmod(a, b): q, r = a // b, a % b (Python's and Numba's divmod; both read before
            # either name is bound, so `a, b = divmod(a, b)` keeps its meaning)
            if isinstance(t, (ast.Tuple, ast.List)) and len(t.elts) == 2 and isinstance(v, ast.Call) and \
                    self.canon(v.func) in ("builtins.divmod", "divmod") and len(v.args) == 2 and not v.keywords:
                a, b = v.args
                pair = ast.Tuple(elts=[_binop(copy.deepcopy(a), ast.FloorDiv(), copy.deepcopy(b)),
                                       _binop(copy.deepcopy(a), ast.Mod(), copy.deepcopy(b))], ctx=ast.Load())
                return self.assign(_loc(ast.Assign(targets=[t], value=_loc(pair, v)), s))
            # s = x.shape: s stands for x.shape
            if isinstance(t, ast.Name) and self.is_shape(v):
                self.shape_alias[t.id] = self.shape_of(v)
                return []
            # t = (a, b): one name per element
            if isinstance(t, ast.Name) and isinstance(v, ast.Tuple) and t.id not in self.nz.p.params:
                if any(isinstance(e, ast.Starred) for e in v.elts):
                    raise self.nz.err(s, "starred tuple", "write the elements out")
                names = [self.nz.fresh(f"{t.id}_{k}") for k in range(len(v.elts))]
                out = [_loc(ast.Assign(targets=[name(n, True)], value=self.expr(e)), s)
                       for n, e in zip(names, v.elts)]
                self.tuples[t.id] = names
                return out
            # r = helper(x) where the helper returns a tuple: r_0, r_1 = helper(x)
            n = self.tuple_results(v) if isinstance(t, ast.Name) and t.id not in self.tuples else 0
            if n > 1 and t.id not in self.nz.p.params:
                names = [self.nz.fresh(f"{t.id}_{k}") for k in range(n)]
                self.tuples[t.id] = names
                return [self.expr_stmt(_loc(ast.Assign(
                    targets=[ast.Tuple(elts=[name(m, True) for m in names], ctx=ast.Store())], value=v), s))]
            # u, v = t (a tuple local)
            if isinstance(t, (ast.Tuple, ast.List)) and isinstance(v, ast.Name) and v.id in self.tuples:
                names = self.tuples[v.id]
                if len(names) != len(t.elts):
                    raise self.nz.err(s, f"unpacking a {len(names)}-tuple into {len(t.elts)} names")
                s.value = ast.Tuple(elts=[name(n) for n in names], ctx=ast.Load())
                return [self.expr_stmt(s)]
            # y = np.copy(x) / x.copy(), also rebinding x itself
            src = self.copied(v)
            if isinstance(t, ast.Name) and src is not None:
                return self.copy_array(s, t, src)
            # A = np.array([[...], [...]])
            if isinstance(t, ast.Name) and isinstance(v, ast.Call) and self.canon(v.func) == "numpy.array" \
                    and v.args and isinstance(v.args[0], (ast.List, ast.Tuple)):
                return self.array_literal(s, t, v)
        if isinstance(s.targets[0], ast.Name) and s.targets[0].id in self.tuples:
            raise self.nz.err(s, f"reassigning the tuple `{s.targets[0].id}`", "use a new name")
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            self.note_ndim(s.targets[0].id, s.value)
        return [self.expr_stmt(s)]

    def tuple_results(self, v) -> int:
        """How many values the jitted helper ``v`` calls returns, when every ``return`` of it
        is a tuple literal of one length (``return a, b``); else 0."""
        if not isinstance(v, ast.Call):
            return 0
        helper = self.nz.helper_of(v)
        if helper is None:
            return 0
        try:
            tree = self.nz.helper_primal(helper).tree
        except Exception:       # no source: the call is refused where it is inlined
            return 0
        rets = [n for n in iter_nodes(tree) if isinstance(n, ast.Return)]
        sizes = {len(r.value.elts) if isinstance(r.value, ast.Tuple) else 0 for r in rets}
        return sizes.pop() if len(sizes) == 1 else 0

    def note_ndim(self, target, v):
        """Record the dimension of a local array allocated or copied (for ``.flat`` and ``ndindex``)."""
        n = None
        if isinstance(v, ast.Name):
            n = self.nz.ndims.get(v.id)
        elif isinstance(v, ast.Call) and v.args:
            short = (self.canon(v.func) or "").split(".")[-1]
            a = v.args[0]
            if short in ("zeros", "empty", "ones", "full"):
                n = len(a.elts) if isinstance(a, ast.Tuple) else self.ndim(self.shape_of(a)) \
                    if self.is_shape(a) else 1
            elif short in ("zeros_like", "empty_like", "ones_like", "full_like", "copy", "ascontiguousarray"):
                n = self.ndim(a)
        if n is not None:
            self.nz.ndims[target] = n

    def copied(self, v):
        """The array ``v`` copies (``np.copy(x)``, ``x.copy()``), when its dimension is known."""
        if not isinstance(v, ast.Call) or v.keywords:
            return None
        if len(v.args) == 1 and self.canon(v.func) in ("numpy.copy",) and isinstance(v.args[0], ast.Name):
            src = v.args[0]
        elif not v.args and isinstance(v.func, ast.Attribute) and v.func.attr == "copy" and \
                isinstance(v.func.value, ast.Name) and v.func.value.id in self.nz.locals:
            src = v.func.value
        else:
            return None
        return src if self.ndim(src) is not None else None

    def copy_array(self, s, t, src):
        """``t = np.copy(src)``: a fresh array and an element loop (``x = np.copy(x)`` at the top of
        the kernel rebinds the name: later uses read the copy, named ``x_copy``)."""
        n = self.ndim(src)
        src = self.expr(src)
        target = t.id
        if target == src.id:
            if self.depth != 1:
                raise self.nz.err(s, f"`{target} = np.copy({target})` inside control flow",
                                  "copy into a new name at the top of the kernel")
            target = self.nz.fresh(target + "_copy")
        alloc = ast.Call(func=self.np_attr("empty_like"), args=[copy.deepcopy(src)], keywords=[])
        out = [_loc(ast.Assign(targets=[name(target, True)], value=alloc), s)]
        idx = [name(self.nz.fresh(f"{target}_i")) for _ in range(n)]
        key = idx[0] if n == 1 else ast.Tuple(elts=idx, ctx=ast.Load())
        body = [_loc(ast.Assign(targets=[ast.Subscript(value=name(target), slice=copy.deepcopy(key), ctx=ast.Store())],
                                value=_sub(src, copy.deepcopy(key))), s)]
        for d in reversed(range(n)):
            body = [_loc(ast.For(target=name(idx[d].id, True), iter=_call("range", _shape(src, d)), body=body,
                                 orelse=[]), s)]
        self.nz.ndims[target] = n
        if target != t.id:
            self.renamed[t.id] = target
            self.nz.ndims[t.id] = n
        return out + body

    def is_shape(self, v) -> bool:
        return (isinstance(v, ast.Attribute) and v.attr == "shape" and isinstance(v.value, ast.Name)) or \
            (isinstance(v, ast.Name) and v.id in self.shape_alias)

    def shape_of(self, v):
        return self.shape_alias[v.id] if isinstance(v, ast.Name) else v.value

    def array_literal(self, s, t, v):
        def shape(e):
            if isinstance(e, (ast.List, ast.Tuple)):
                subs = [shape(x) for x in e.elts]
                if not subs or any(x != subs[0] for x in subs):
                    raise self.nz.err(s, "ragged or empty nested list in np.array", "give every row the same length")
                return (len(e.elts),) + subs[0]
            return ()
        dims = shape(v.args[0])
        leaves = []

        def walk(e, idx):
            if isinstance(e, (ast.List, ast.Tuple)):
                for k, x in enumerate(e.elts):
                    walk(x, idx + (k,))
            else:
                leaves.append((idx, e))
        walk(v.args[0], ())
        dtype = None
        for kw in v.keywords:
            if kw.arg != "dtype":
                raise self.nz.err(s, f"keyword `{kw.arg}` of np.array", "only dtype= is supported")
            dtype = kw.value
        if len(v.args) > 1:
            dtype = v.args[1]
        if dtype is None:
            ints = all(isinstance(e, ast.Constant) and type(e.value) is int for _, e in leaves)
            dtype = ast.parse("np.int64" if ints else "np.float64", mode="eval").body
        if not isinstance(v.func, ast.Attribute):
            raise self.nz.err(s, "array() called without its module", "write np.array([...])")
        alloc = ast.Call(func=ast.Attribute(value=copy.deepcopy(v.func.value), attr="empty", ctx=ast.Load()),
                         args=[], keywords=[])
        shape_node = ast.Tuple(elts=[ast.Constant(d) for d in dims], ctx=ast.Load())
        alloc.args = [shape_node]
        alloc.keywords = [ast.keyword(arg="dtype", value=dtype)]
        out = [_loc(ast.Assign(targets=[name(t.id, True)], value=alloc), s)]
        if not any(kw.arg == "dtype" for kw in v.keywords) and len(v.args) == 1:
            out[0].adtrans_literal_leaves = [e for _, e in leaves]   # ints or floats: told by the array lowering
        self.nz.ndims[t.id] = len(dims)
        for idx, e in leaves:
            target = ast.Subscript(value=name(t.id), slice=ast.Tuple(elts=[ast.Constant(k) for k in idx],
                                                                      ctx=ast.Load()) if len(idx) > 1
                                   else ast.Constant(idx[0]), ctx=ast.Store())
            out.append(_loc(ast.Assign(targets=[target], value=self.expr(e)), s))
        return out

    # ---------------------------------------------------------------- loops
    def for_(self, s: ast.For) -> list:
        it = s.iter
        canon = self.canon(it.func) if isinstance(it, ast.Call) else None
        if canon in ("numpy.ndindex",):
            return self.ndindex(s, it)
        if canon in ("builtins.range", "range", "numba.prange") or \
                (isinstance(it, ast.Call) and canon is not None and canon.endswith("prange")):
            s.iter = self.expr(it)
            s.body = self.block(s.body)
            return [s]
        body_stores = _stores(s.body)
        lit = self.literal_of(it, s)
        if lit is not None and not all(_constant_expr(e) for e in _leaves(lit)):
            return self.unroll_literal(s, lit, body_stores)
        src = self.source(it, s)
        if src is None:
            s.iter = self.expr(it)
            s.body = self.block(s.body)
            return [s]
        # `for i, v in enumerate(x)`: i itself is the loop index when the body leaves it alone
        k_name = None
        if src.parts is not None and src.offset == "enumerate" and isinstance(s.target, ast.Tuple) \
                and isinstance(s.target.elts[0], ast.Name) and s.target.elts[0].id not in body_stores \
                and isinstance(src.parts[0].element(name("_")), ast.Name):
            k_name = s.target.elts[0].id
        if k_name is None:
            k_name = self.nz.fresh("k")
        k = name(k_name)
        prologue = []
        self.bind(s.target, src, k, prologue, s, skip=k_name)
        loop = ast.For(target=name(k_name, True), iter=_call("range", src.length), body=prologue + s.body,
                       orelse=s.orelse)
        loop = _loc(loop, s)
        return self.for_(loop)

    def bind(self, target, src, k, out, like, skip=None):
        if src.parts is not None:
            if isinstance(target, ast.Name) and src.offset is None and src.length is not None:
                # `for off in ((1, 0), (0, 1)):`: the element is the tuple of its columns
                value = ast.Tuple(elts=[p.element(k) for p in src.parts], ctx=ast.Load())
                out.append(_loc(ast.Assign(targets=[name(target.id, True)], value=value), like))
                return
            if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) != len(src.parts):
                raise self.nz.err(like, f"loop target `{ast.unparse(target)}` for {len(src.parts)} values",
                                  "unpack one name per zipped/enumerated value")
            for t, part in zip(target.elts, src.parts):
                self.bind(t, part, k, out, like, skip)
            return
        value = src.element(k)
        if isinstance(target, ast.Name):
            if target.id == skip and isinstance(value, ast.Name) and value.id == skip:
                return
            out.append(_loc(ast.Assign(targets=[name(target.id, True)], value=value), like))
            return
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Subscript):
            for j, t in enumerate(target.elts):
                idx = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
                sub = ast.Subscript(value=value.value, slice=ast.Tuple(elts=list(idx) + [ast.Constant(j)],
                                                                       ctx=ast.Load()), ctx=ast.Load())
                self.bind(t, _Source(None, lambda _k, sub=sub: copy.deepcopy(sub)), k, out, like, skip)
            return
        raise self.nz.err(like, f"loop target `{ast.unparse(target)}`", "bind one name per element")

    def source(self, it, like) -> _Source | None:
        if isinstance(it, ast.Call):
            canon = self.canon(it.func)
            if canon == "builtins.zip":
                if it.keywords or not it.args:
                    raise self.nz.err(like, "zip() with keywords or no arguments", "zip(x, y, ...)")
                parts = [self.part(a, like) for a in it.args]
                length = parts[0].length
                for p in parts[1:]:
                    length = _call("min", length, p.length)
                return _Source(length, None, parts)
            if canon == "builtins.enumerate":
                if it.keywords or not 1 <= len(it.args) <= 2:
                    raise self.nz.err(like, "enumerate() with keywords", "enumerate(x) or enumerate(x, start)")
                inner = self.part(it.args[0], like)
                start = it.args[1] if len(it.args) == 2 else None
                count = _Source(None, (lambda k: k) if start is None else
                                (lambda k, st=start: _binop(k, ast.Add(), copy.deepcopy(st))))
                return _Source(inner.length, None, [count, inner], offset="enumerate")
            if canon in ("builtins.range", "range"):
                return None
            return None
        if isinstance(it, ast.Attribute) and it.attr == "flat" and (isinstance(it.value, ast.Name) or isinstance(
                it.value, ast.Subscript) and _is_slicing(it.value) and self.view_ndim(it.value) is not None):
            arr = it.value
            return _Source(ast.Attribute(value=copy.deepcopy(arr), attr="size", ctx=ast.Load()),
                           lambda k, arr=arr: self.flat_index(arr, k, like))
        if isinstance(it, (ast.Tuple, ast.List)) and it.elts:
            return self.literal_source(it, like)
        if isinstance(it, ast.Name) and it.id in self.tuples:
            raise self.nz.err(like, f"loop over the tuple `{it.id}`", "loop over range(len) and index it")
        if isinstance(it, ast.Name) and it.id in self.nz.list_info:
            arr = it        # a list: its length counter or len() (see lists.py)
            return _Source(copy.deepcopy(self.nz.list_info[it.id].length), lambda k, arr=arr: _sub(arr, k))
        if isinstance(it, ast.Name) and it.id in getattr(self.nz, "scalar_types", {}) and \
                it.id in self.nz.p.params:
            # a parameter that is no array or list: a tuple (`ocv=(3.2, 0.9, -0.4)`)
            tup = it
            return _Source(_call("len", copy.deepcopy(tup)), lambda k, tup=tup: _sub(tup, k))
        if isinstance(it, ast.Name):
            arr = it
            return _Source(_shape(arr, 0), lambda k, arr=arr: _sub(arr, k))
        if isinstance(it, ast.Subscript) and _is_slicing(it):
            # a slice or view (`x[:-1]`, `A[:, j]`, `x[::2]`): its length and elements are view
            # indexing, which the array lowering rewrites into the base array
            return _Source(_shape(it, 0), lambda k, view=it: _sub(copy.deepcopy(view), k))
        return None

    def literal_of(self, it, like):
        """The literal a loop header iterates over, as one tuple literal: ``(-1, 1)``, ``[a, b]``,
        ``enumerate((a, b))`` as ``((0, a), (1, b))``, ``zip((1, 2), (a, b))`` as ``((1, a), (2, b))``;
        None for anything else (an ``enumerate``/``zip`` mixing literals and arrays: :meth:`part`)."""
        if isinstance(it, (ast.Tuple, ast.List)):
            if not it.elts or any(isinstance(e, ast.Starred) for e in it.elts):
                raise self.nz.err(like, f"loop over `{ast.unparse(it)}`", "write the elements out, none starred")
            return ast.Tuple(elts=list(it.elts), ctx=ast.Load())
        if not isinstance(it, ast.Call) or it.keywords:
            return None
        canon = self.canon(it.func)
        if canon == "builtins.enumerate" and 1 <= len(it.args) <= 2 and isinstance(it.args[0], (ast.Tuple, ast.List)):
            start = const_int(it.args[1]) if len(it.args) == 2 else 0
            inner = self.literal_of(it.args[0], like)
            if start is None or inner is None:
                return None
            return ast.Tuple(elts=[ast.Tuple(elts=[ast.Constant(start + j), e], ctx=ast.Load())
                                   for j, e in enumerate(inner.elts)], ctx=ast.Load())
        if canon == "builtins.zip" and it.args and all(isinstance(a, (ast.Tuple, ast.List)) for a in it.args):
            cols = [self.literal_of(a, like).elts for a in it.args]
            return ast.Tuple(elts=[ast.Tuple(elts=list(row), ctx=ast.Load()) for row in zip(*cols)], ctx=ast.Load())
        return None

    def unroll_literal(self, s, lit, body_stores) -> list:
        """``for w in (a, b * 2.0):`` (elements other than numbers: arrays, names, expressions): the
        body once per element, ``w = element`` first.  Python evaluates the literal once, before
        the loop: elements other than names the body leaves alone are bound to temporaries first.
        Refused with ``break``/``continue`` (of this loop) or ``else``."""
        if s.orelse:
            raise self.nz.err(s, "for ... else", "use a flag variable")
        todo = list(s.body)
        while todo:
            n = todo.pop()
            if isinstance(n, (ast.Break, ast.Continue)):
                raise self.nz.err(n, f"`{type(n).__name__.lower()}` in a loop over `{ast.unparse(s.iter)}` "
                                     f"(elements that are not numbers: the body is written out once per element)",
                                  "loop over numbers (for k in range(2): ... with the elements indexed) or use a flag")
            if not isinstance(n, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)):
                todo += list(ast.iter_child_nodes(n))
        pre = []

        def hoist(t):
            for j, e in enumerate(t.elts):
                if isinstance(e, (ast.Tuple, ast.List)):
                    hoist(e)
                elif not (_constant_expr(e) or isinstance(e, ast.Name) and e.id not in body_stores):
                    tmp = self.nz.fresh("element")
                    pre.append(_loc(ast.Assign(targets=[name(tmp, True)], value=e), s))
                    t.elts[j] = name(tmp)
        lit = copy.deepcopy(lit)
        hoist(lit)
        out = list(pre)
        for e in lit.elts:
            out.append(_loc(ast.Assign(targets=[copy.deepcopy(s.target)], value=copy.deepcopy(e)), s))
            out += copy.deepcopy(s.body)
        return self.block(out)

    def literal_source(self, it, like) -> _Source:
        """A loop over a tuple or list literal: the index loop ``for k in range(len)`` whose
        element ``k`` is ``e0 if k == 0 else (e1 if k == 1 else ...)``; a literal of equal-length
        tuples is the zip of its columns (``for di, dj in ((1, 0), (0, 1)):``)."""
        elts = list(it.elts)
        n = len(elts)
        if any(isinstance(e, ast.Starred) for e in elts):
            raise self.nz.err(like, f"loop over `{ast.unparse(it)}` with a starred element",
                              "write the elements out")
        if not all(_constant_expr(e) for e in _leaves(it)):
            # only numbers are selected by index (`a if k == 0 else b` of two arrays is no array
            # the body may write into); a literal of other elements inside zip/enumerate with arrays
            raise self.nz.err(like, f"a literal of elements that are not numbers, `{ast.unparse(it)}`, zipped or "
                                    f"enumerated with an array", "zip literals with literals, or index the array")
        if elts and all(isinstance(e, (ast.Tuple, ast.List)) for e in elts):
            widths = {len(e.elts) for e in elts}
            if len(widths) == 1 and widths != {0}:
                w = widths.pop()
                cols = [self.literal_source(ast.Tuple(elts=[e.elts[j] for e in elts], ctx=ast.Load()), like)
                        for j in range(w)]
                return _Source(ast.Constant(n), None, cols)

        def element(k, elts=elts):
            out = copy.deepcopy(elts[-1])
            for j in range(n - 2, -1, -1):
                test = ast.Compare(left=copy.deepcopy(k), ops=[ast.Eq()], comparators=[ast.Constant(j)])
                out = ast.IfExp(test=test, body=copy.deepcopy(elts[j]), orelse=out)
            return _loc(out, like)
        return _Source(ast.Constant(n), element)

    def part(self, a, like) -> _Source:
        if isinstance(a, ast.Call) and self.canon(a.func) in ("builtins.range", "range"):
            if a.keywords or not 1 <= len(a.args) <= 3:
                raise self.nz.err(like, f"`{ast.unparse(a)}`", "range(n), range(a, b) or range(a, b, step)")
            if len(a.args) == 1:
                return _Source(copy.deepcopy(a.args[0]), lambda k: k)
            lo, hi = a.args[0], a.args[1]
            step = a.args[2] if len(a.args) == 3 else ast.Constant(1)
            if not (isinstance(step, ast.Constant) and type(step.value) is int and step.value > 0):
                raise self.nz.err(like, f"`{ast.unparse(a)}` in zip/enumerate with a non-constant or negative step",
                                  "use a constant positive step")
            span = _binop(copy.deepcopy(hi), ast.Sub(), copy.deepcopy(lo))
            if step.value != 1:
                span = _binop(_binop(span, ast.Add(), ast.Constant(step.value - 1)), ast.FloorDiv(), step)
            length = _call("max", span, ast.Constant(0))
            return _Source(length, lambda k: _binop(copy.deepcopy(lo), ast.Add(),
                                                    k if step.value == 1 else _binop(k, ast.Mult(), step)))
        src = self.source(a, like)
        if src is None:
            raise self.nz.err(like, f"iterating over `{ast.unparse(a)}`",
                              "iterate over arrays, range(...), zip(...) or enumerate(...)")
        return src

    def flat_index(self, arr, i, like):
        n = self.ndim(arr) if isinstance(arr, ast.Name) else self.view_ndim(arr)
        if n is None:
            raise self.nz.err(like, f"`{ast.unparse(arr)}.flat` of an array whose dimension adtrans does not know",
                              "index it with one index per dimension")
        if n == 1:
            return _sub(arr, i)
        idx = []
        for d in range(n):
            stride = None
            for e in range(d + 1, n):
                stride = _shape(arr, e) if stride is None else _binop(stride, ast.Mult(), _shape(arr, e))
            q = copy.deepcopy(i) if stride is None else _binop(copy.deepcopy(i), ast.FloorDiv(), stride)
            if d > 0:
                q = _binop(q, ast.Mod(), _shape(arr, d))
            idx.append(q)
        return _sub(arr, ast.Tuple(elts=idx, ctx=ast.Load()))

    def ndindex(self, s, it):
        if it.keywords:
            raise self.nz.err(s, "np.ndindex with keywords", "np.ndindex(M, N) or np.ndindex(x.shape)")
        args = it.args
        if len(args) == 1 and isinstance(args[0], ast.Tuple):
            dims = list(args[0].elts)
        elif len(args) == 1 and self.is_shape(args[0]):
            arr = self.shape_of(args[0])
            n = self.ndim(arr)
            if n is None:
                raise self.nz.err(s, f"np.ndindex over the shape of `{ast.unparse(arr)}` of unknown dimension",
                                  "pass the extents: np.ndindex(M, N)")
            dims = [_shape(arr, d) for d in range(n)]
        else:
            dims = list(args)
        for node in iter_nodes(ast.Module(body=s.body, type_ignores=[])):
            if isinstance(node, ast.Break):
                raise self.nz.err(node, "break inside a loop over np.ndindex",
                                  "write the nested range loops and a flag")
        if isinstance(s.target, ast.Tuple) and all(isinstance(e, ast.Name) for e in s.target.elts):
            if len(s.target.elts) != len(dims):
                raise self.nz.err(s, f"{len(s.target.elts)} loop indices for a {len(dims)}-d np.ndindex")
            stores = _stores(s.body)
            names = []
            body = list(s.body)
            for e in s.target.elts:
                if e.id in stores:
                    n = self.nz.fresh(e.id + "_index")
                    body.insert(0, _loc(ast.Assign(targets=[name(e.id, True)], value=name(n)), s))
                    names.append(n)
                else:
                    names.append(e.id)
        elif isinstance(s.target, ast.Name):
            if s.target.id in _stores(s.body):
                raise self.nz.err(s, f"assigning the np.ndindex tuple `{s.target.id}` in its loop", "use a new name")
            names = [self.nz.fresh(f"{s.target.id}{d}") for d in range(len(dims))]
            body = [_ReplaceName(s.target.id, ast.Tuple(elts=[name(n) for n in names], ctx=ast.Load())).visit(b)
                    for b in s.body]
        else:
            raise self.nz.err(s, f"loop target `{ast.unparse(s.target)}`", "for i, j in np.ndindex(M, N)")
        for n, d in reversed(list(zip(names, dims))):
            body = [_loc(ast.For(target=name(n, True), iter=_call("range", copy.deepcopy(d)), body=body, orelse=[]),
                         s)]
        return self.block(body)


class _ReplaceName(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old and isinstance(node.ctx, ast.Load):
            return ast.copy_location(copy.deepcopy(self.new), node)
        return node


def _select(names, k):
    """``t[k]`` of a tuple local held as ``names`` and an integer expression ``k`` of names (a
    loop over the tuple's positions): ``n0 if k == 0 or k == -3 else (n1 if ... else n2)``, the element that
    NumPy's indexing picks for every ``k`` in range (also negative)."""
    out = name(names[-1])
    for j in range(len(names) - 2, -1, -1):
        test = ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=copy.deepcopy(k), ops=[ast.Eq()], comparators=[ast.Constant(j)]),
            ast.Compare(left=copy.deepcopy(k), ops=[ast.Eq()], comparators=[ast.Constant(j - len(names))])])
        out = ast.IfExp(test=test, body=name(names[j]), orelse=out)
    return out


class _Exprs(ast.NodeTransformer):
    """Expression rewrites inside one statement: ``.flat[i]``, shape aliases, tuple locals."""

    def __init__(self, forms: FormLowering):
        self.f = forms

    def visit_Subscript(self, node):
        v = node.value
        if not (isinstance(v, ast.Name) and v.id in self.f.tuples and isinstance(node.ctx, ast.Load)):
            self.generic_visit(node)
            v = node.value
        if isinstance(v, ast.Attribute) and v.attr == "flat" and isinstance(v.value, ast.Name):
            new = self.f.flat_index(v.value, self.visit(node.slice), node)
            new.ctx = node.ctx
            return ast.copy_location(new, node)
        if isinstance(v, ast.Name) and v.id in self.f.tuples and isinstance(node.ctx, ast.Load):
            names = self.f.tuples[v.id]
            k = node.slice
            if isinstance(k, ast.UnaryOp) and isinstance(k.op, ast.USub) and isinstance(k.operand, ast.Constant):
                k = ast.Constant(-k.operand.value)
            if names and not isinstance(k, ast.Constant) and \
                    not any(isinstance(n, (ast.Call, ast.Subscript)) for n in ast.walk(k)):
                self.f.index_check(k, len(names), node)
                sel = _select(names, k)
                for n in ast.walk(sel):         # (the line of every part: messages of checks on them)
                    ast.copy_location(n, node)
                return sel
            if not (isinstance(k, ast.Constant) and type(k.value) is int and -len(names) <= k.value < len(names)):
                raise self.f.nz.err(node, f"indexing the tuple `{v.id}` with `{ast.unparse(node.slice)}`",
                                    "index tuples with constant integers or integer names (idx[a], idx[a + 1])")
            return ast.copy_location(name(names[k.value]), node)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        return node

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Name) and node.args[0].id in self.f.tuples:
            return ast.copy_location(ast.Constant(len(self.f.tuples[node.args[0].id])), node)
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if node.id in self.f.renamed:
            return ast.copy_location(name(self.f.renamed[node.id], isinstance(node.ctx, ast.Store)), node)
        if isinstance(node.ctx, ast.Load):
            if node.id in self.f.shape_alias:
                arr = self.f.shape_alias[node.id]
                return ast.copy_location(ast.Attribute(value=copy.deepcopy(arr), attr="shape", ctx=ast.Load()), node)
            if node.id in self.f.tuples:
                return ast.copy_location(ast.Tuple(elts=[name(n) for n in self.f.tuples[node.id]], ctx=ast.Load()),
                                         node)
        return node

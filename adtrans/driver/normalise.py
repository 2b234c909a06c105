"""Normalise a driver function into a small statement language.

After normalisation:

- every kernel call, value-returning MPI call (``comm.allreduce``,
  ``comm.Isend`` ...) and conditional expression is alone on the right of an
  assignment to a name (``_h1 = step(u, unew, c)``), hoisted out of the
  expression it was in, in evaluation order;
- kernel arguments and MPI buffers are names or constants (``u[1:2]`` becomes
  ``_h2 = u[1:2]``, a view with the view of ``u``'s shadow as its shadow);
- every subscript is a subscript of a name, every ``.T`` the attribute of a name;
- tuple assignments are split (values first, so ``u, v = v, u`` swaps);
  ``x[k] op= e`` becomes ``x[k] = x[k] op e``; ``x op= e`` keeps a name or
  constant on its right;
- ``for`` loops run over a hoisted sequence, ``return`` is the last statement: early
  returns, ``break`` and ``continue`` were lowered to flags first, and calls of plain-Python
  helpers inlined (:mod:`adtrans.driver.jumps`); ``for v in lst`` over a list the driver builds
  (every binding of ``lst`` a list literal or comprehension) runs over ``range(len(lst))`` and
  binds ``v = lst[k]`` (so ``v`` reads the element's shadow; the length is taken when the loop starts).

Each statement keeps its source line for error messages and for the comments
of the generated adjoint.  Unsupported constructs raise
:class:`~adtrans.errors.UnsupportedError` naming ``file:line:col``.
"""
from __future__ import annotations

import ast
import copy
import inspect
from collections import Counter
from dataclasses import dataclass, field

from ..mpi.specs import PASSIVE_METHODS, REQUEST_CREATORS, SUPPORTED, describe_supported
from ..ir.names import names_in
from .calls import CallKind, Resolver, lapack_of
from .jumps import bind_arguments, inline_helper, lower_jumps
from ..ir.walk import iter_nodes
from ..normalise.tupleargs import read_as_parts, split_tuple_names
from ..parse import parse_function
from ..rules.derivatives import LAPACK


# ----------------------------------------------------------------------------- statements

@dataclass
class Stmt:
    line: int
    text: str


@dataclass
class Assign(Stmt):
    """``target = value``.  ``kind``: ``"pure"`` (an expression), ``"alias"`` (``y``,
    ``y[key]``, ``y.T``: may share memory with ``y``), ``"kernel"`` or ``"mpi"`` (``value`` is
    the call; ``call`` its :class:`KernelCall`/:class:`MpiCall`)."""
    target: str = ""
    value: ast.expr = None
    kind: str = "pure"
    call: object = None


@dataclass
class SetItem(Stmt):
    """``container[key] = value`` (``container`` a name)."""
    container: str = ""
    key: ast.expr = None
    value: ast.expr = None


@dataclass
class AugAssign(Stmt):
    """``target op= value`` with ``value`` a name or constant (in place for arrays)."""
    target: str = ""
    op: ast.operator = None
    value: ast.expr = None


@dataclass
class Unpack(Stmt):
    """``a, b = value`` for a value without derivatives (``divmod(n, 2)``) or a name (``a, b = parts``:
    each target aliases its element), or for the tuple a kernel returns (``value`` the call,
    ``call`` its :class:`KernelCall`; ``kind`` ``"kernel"``)."""
    targets: list = field(default_factory=list)
    value: ast.expr = None
    kind: str = "pure"
    call: object = None


@dataclass
class CallStmt(Stmt):
    """A call whose result is not used: a kernel, an MPI call, ``lst.append(x)``."""
    call: object = None


@dataclass
class Passive(Stmt):
    """A statement without derivatives that runs in the forward sweep only (``print``, ``assert``)."""
    node: ast.stmt = None


@dataclass
class For(Stmt):
    target: ast.expr = None
    iter: ast.expr = None
    body: list = field(default_factory=list)


@dataclass
class While(Stmt):
    test: ast.expr = None
    body: list = field(default_factory=list)


@dataclass
class If(Stmt):
    test: ast.expr = None
    body: list = field(default_factory=list)
    orelse: list = field(default_factory=list)


@dataclass
class Return(Stmt):
    value: ast.expr = None


@dataclass
class KernelCall:
    """A call of ``@njit`` kernel ``kernel`` (source text ``func``) with name/constant ``args``
    (or a tuple literal of them: a tuple passed whole); ``col``: the call's column (1-based) for
    error messages."""
    func: str
    kernel: object
    args: list
    col: int = 1


def arg_names(a) -> list[str]:
    """The names a kernel call's argument ``a`` passes: itself, or a tuple literal's elements."""
    return [e.id for e in (a.elts if isinstance(a, ast.Tuple) else [a]) if isinstance(e, ast.Name)]


@dataclass
class MpiCall:
    """An mpi4py call: ``method`` on ``receiver`` (source text), arguments bound to the
    parameter names of :data:`adtrans.mpi.specs.SUPPORTED` (``args``)."""
    method: str
    receiver: str
    args: dict


@dataclass
class AppendCall:
    target: str
    value: ast.expr


@dataclass
class DriverIR:
    name: str
    params: list
    body: list
    locals: set
    temps: set


def iter_ir(stmts):
    """Every statement of driver IR ``stmts``, depth first in program order (loop and branch
    bodies included)."""
    for s in stmts:
        yield s
        if isinstance(s, (For, While)):
            yield from iter_ir(s.body)
        elif isinstance(s, If):
            yield from iter_ir(s.body)
            yield from iter_ir(s.orelse)


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _is_leaf(e) -> bool:
    return isinstance(e, (ast.Name, ast.Constant))


def reshape_source(value) -> str | None:
    """The array name ``v`` of ``v.reshape(...)``, ``v.ravel()``, ``np.reshape(v, ...)`` or
    ``np.ravel(v)``: NumPy's result may be a view of ``v`` (writes through it change ``v``)."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) or \
            value.func.attr not in ("reshape", "ravel"):
        return None
    base = value.func.value
    if isinstance(base, ast.Name) and base.id in ("np", "numpy"):
        return value.args[0].id if value.args and isinstance(value.args[0], ast.Name) else None
    return base.id if isinstance(base, ast.Name) else None


def _is_T(e) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "T"


# ----------------------------------------------------------------------------- normaliser

class Normaliser:
    """Turns the driver's ``FunctionDef`` into :class:`DriverIR` (see the module doc)."""

    def __init__(self, primal):
        self.primal = primal
        self.tree = primal.tree
        self.lines = primal.source.splitlines()
        self.first = primal.tree.lineno if not primal.tree.decorator_list else \
            min(d.lineno for d in primal.tree.decorator_list)
        self.params = self._params()
        self.body, _ = lower_jumps(copy.deepcopy(self.tree), names_in(self.tree), self.error)
        self.locals = set(self.params) | self._assigned_names()
        self.lists = self._lists()
        self.all_names = {n.id for s in self.body for n in iter_nodes(s) if isinstance(n, ast.Name)} | \
            names_in(self.tree)
        self.inlining: list = [primal.pyfunc] if primal.pyfunc is not None else []
        self.resolver = Resolver(primal.globals, self.locals)
        self.split_tuples()
        self.counter = 0
        self.temps: set = set()
        self.line, self.text = primal.tree.lineno, ""

    def split_tuples(self) -> None:
        """A tuple (or list) literal bound to a name passed whole to kernels and otherwise read
        as its parts: one name per element (:func:`adtrans.normalise.tupleargs.split_tuple_names`),
        the kernels called with the tuple of those names (:meth:`kernel_call`), so each element
        keeps its own shadow.  A list goes as a tuple only to kernels that read it as one."""
        lists = {t.id for s in self.body for n in iter_nodes(s) if isinstance(n, ast.Assign)
                 and isinstance(n.value, ast.List) for t in n.targets if isinstance(t, ast.Name)}

        def passed(call):
            kind = self.classify(call)
            if kind.kind != "kernel":
                return False
            params = list(inspect.signature(kind.obj.py_func).parameters)
            given = [params[k] for k, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id in lists
                     and k < len(params)]
            if not given:
                return True
            tree = parse_function(kind.obj).tree
            return all(read_as_parts(tree, p) for p in given)
        fn = copy.copy(self.tree)
        fn.body = self.body
        self.body = split_tuple_names(fn, passed, self.fresh_local, self.error, lists=True).body
        self.lists = self._lists()
        self.locals |= self._assigned_names()
        self.resolver.locals |= self.locals

    # -- helpers
    def error(self, node, construct, hint=""):
        return self.primal.error(node, construct, hint)

    def _params(self):
        a = self.tree.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.error(self.tree, "driver with *args, **kwargs or keyword-only parameters",
                             "use plain positional parameters")
        return [x.arg for x in a.args]

    def _assigned_names(self) -> set:
        return {node.id for s in self.body for node in iter_nodes(s)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}

    def _lists(self) -> set:
        """Locals that always hold lists the driver makes (every binding ``name = [...]``, a list
        comprehension or a slice of such a list): ``for v in lst`` over one reads ``lst[k]`` by
        index (and its shadow)."""
        stores, binds = Counter(), {}
        for s in self.body:
            for node in iter_nodes(s):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    stores[node.id] += 1
                elif isinstance(node, ast.Assign):
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            binds.setdefault(t.id, []).append(node.value)
                elif _list_extension(node):     # lst += [a, b]: still a list (appends)
                    binds.setdefault(node.target.id, []).append(node.value)
        lists: set = set()

        def is_list(v):     # a literal, a comprehension, or a slice of a list (``states[1:]``)
            return isinstance(v, (ast.List, ast.ListComp)) or isinstance(v, ast.Subscript) and isinstance(
                v.slice, ast.Slice) and isinstance(v.value, ast.Name) and v.value.id in lists

        changed = True
        while changed:
            changed = False
            for n, values in binds.items():
                if n not in lists and n not in self.params and stores[n] == len(values) and \
                        all(is_list(v) for v in values):
                    lists.add(n)
                    changed = True
        return lists

    def fresh_local(self, base: str) -> str:
        """An unused readable name (``helper_x``, ``helper_x_2`` ...), made a local."""
        name, k = base, 1
        while name in self.locals or name in self.all_names:
            k += 1
            name = f"{base}_{k}"
        self.add_locals({name})
        return name

    def add_locals(self, names) -> None:
        self.locals |= set(names)
        self.all_names |= set(names)
        self.resolver.locals |= set(names)

    def temp(self, prefix="_h") -> str:
        self.counter += 1
        name = f"{prefix}{self.counter}"
        while name in self.locals or name in self.all_names:
            self.counter += 1
            name = f"{prefix}{self.counter}"
        self.temps.add(name)
        self.locals.add(name)
        return name

    def source_line(self, lineno: int) -> str:
        k = lineno - self.first
        if 0 <= k < len(self.lines):
            return self.lines[k].strip()
        return ""

    def classify(self, call: ast.Call) -> CallKind:
        return self.resolver.classify(call)

    def mk(self, cls, **kw):
        return cls(line=self.line, text=self.text, **kw)

    # -- entry
    def run(self) -> DriverIR:
        body = self.body        # early returns, break and continue already lowered to flags (.jumps)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        out = self.block(body)
        return DriverIR(self.primal.name, self.params, out, self.locals, self.temps)

    def block(self, stmts) -> list:
        out: list = []
        for s in stmts:
            self.line, self.text = s.lineno, self.source_line(s.lineno)
            self.stmt(s, out)
        return out

    # -- statements
    def stmt(self, s, out):
        if isinstance(s, ast.Assign):
            if len(s.targets) > 1:
                tmp = self.assign_value(self.temp(), s.value, out)
                for t in s.targets:
                    self.assign_target(t, _load(tmp), out)
            else:
                self.assign_target(s.targets[0], s.value, out)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign_target(s.target, s.value, out)
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s, out)
        elif isinstance(s, ast.Expr):
            self.expr_stmt(s, out)
        elif isinstance(s, ast.For):
            if s.orelse:
                raise self.error(s, "for ... else", "move the else block after the loop")
            names = s.target.elts if isinstance(s.target, ast.Tuple) else [s.target]
            if not all(isinstance(n, ast.Name) for n in names):
                raise self.error(s.target, "for-loop target that is not a name or a tuple of names",
                                 "loop over indices and read the elements in the body")
            line, text = self.line, self.text
            if isinstance(s.iter, ast.Name) and s.iter.id in self.lists and isinstance(s.target, ast.Name):
                # for st in states: a loop over the indices reading each element (its shadow too)
                k = self.temp("_k")
                n = ast.Call(func=_load("len"), args=[_load(s.iter.id)], keywords=[])
                it = ast.Call(func=_load("range"), args=[n], keywords=[])
                body = []
                self.assign_target(s.target, ast.Subscript(value=_load(s.iter.id), slice=_load(k), ctx=ast.Load()),
                                   body)
                body += self.block(s.body)
                out.append(For(line=line, text=text, target=ast.Name(id=k, ctx=ast.Store()), iter=it, body=body))
                return
            it = self.expr(s.iter, out)
            body = self.block(s.body)
            out.append(For(line=line, text=text, target=s.target, iter=it, body=body))
        elif isinstance(s, ast.While):
            if s.orelse:
                raise self.error(s, "while ... else", "move the else block after the loop")
            if self.has_effect(s.test):
                raise self.error(s.test, "kernel or MPI call in a while condition",
                                 "compute the condition in the loop body into a variable")
            line, text = self.line, self.text
            test = self.expr(s.test, [])
            out.append(While(line=line, text=text, test=test, body=self.block(s.body)))
        elif isinstance(s, ast.If):
            test = self.expr(s.test, out)
            line, text = self.line, self.text
            body, orelse = self.block(s.body), self.block(s.orelse)
            out.append(If(line=line, text=text, test=test, body=body, orelse=orelse))
        elif isinstance(s, ast.Return):
            val = s.value
            if isinstance(val, (ast.List, ast.ListComp)) or isinstance(val, ast.Name) and val.id in self.lists:
                raise self.error(val, "a list returned by a driver",
                                 "return an array (`np.array(parts)`) or a float (`sum(parts)`)")
            if val is not None:
                val = self.expr(val, out)
                if not _is_leaf(val):
                    val = _load(self.assign_value(self.temp("_ret"), val, out))
            out.append(self.mk(Return, value=val))
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, (ast.Assert, ast.Raise)):
            for n in iter_nodes(s):
                if isinstance(n, ast.Call) and self.effect_kind(n):
                    raise self.error(n, "kernel or MPI call inside assert/raise", "call it before, into a variable")
            out.append(self.mk(Passive, node=s))
        elif isinstance(s, (ast.Break, ast.Continue)):      # not left by lower_jumps: internal error
            raise self.error(s, type(s).__name__.lower() + " outside a loop")
        else:
            raise self.error(s, f"{type(s).__name__} statement in a driver",
                             "drivers support assignments, calls, for/while/if and a final return")

    def assign_target(self, target, value, out):
        if isinstance(target, ast.Name):
            self.assign_value(target.id, value, out)
        elif isinstance(target, ast.Subscript):
            container = self.name_of(target.value, out)
            key = self.expr(target.slice, out)
            val = self.expr(value, out)
            out.append(self.mk(SetItem, container=container, key=key, value=val))
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(elts) and \
                    not any(isinstance(e, ast.Starred) for e in elts):
                stored = {n.id for t in elts for n in iter_nodes(t) if isinstance(n, ast.Name)}
                read = {n.id for v in value.elts for n in iter_nodes(v) if isinstance(n, ast.Name)}
                if not stored & read:        # a, b = f(x), g(y): one after the other
                    for t, v in zip(elts, value.elts):
                        self.assign_target(t, v, out)
                    return
                tmps = [self.assign_value(self.temp(), v, out) for v in value.elts]   # u, v = v, u
                for t, tmp in zip(elts, tmps):
                    self.assign_target(t, _load(tmp), out)
            elif all(isinstance(t, ast.Name) for t in elts):
                names = [t.id for t in elts]
                if isinstance(value, ast.Call) and self.classify(value).kind == "kernel":
                    if len(set(names)) != len(names):
                        raise self.error(target, "unpacking a kernel's results into a name twice",
                                         "give each result its own name")
                    call = self.kernel_call(value, self.classify(value), out)
                    out.append(self.mk(Unpack, targets=names, value=value, kind="kernel", call=call))
                    return
                if isinstance(value, ast.Call) and self.classify(value).kind == "python":
                    raise self.error(value, "unpacking the result of a plain-Python helper",
                                     "call the kernel in the driver and unpack there: a, b = kernel(...)")
                if self.has_effect(value):
                    raise self.error(value, "unpacking the result of an MPI call or of a call inside an expression",
                                     "unpack a kernel's result directly (a, b = kernel(...)); assign other "
                                     "results to a name first")
                out.append(self.mk(Unpack, targets=[t.id for t in elts], value=self.expr(value, out)))
            else:
                raise self.error(target, "unpacking into subscripts or starred targets",
                                 "assign the elements one by one")
        else:
            raise self.error(target, f"assignment to {type(target).__name__}", "assign to names or array elements")

    def assign_value(self, name: str, value, out) -> str:
        """Append ``name = value`` (normalised) to ``out``; returns ``name``."""
        if isinstance(value, ast.Call):
            kind = self.classify(value)
            if kind.kind == "kernel":
                call = self.kernel_call(value, kind, out)
                out.append(self.mk(Assign, target=name, value=value, kind="kernel", call=call))
                return name
            if kind.kind == "python":
                res = self.inline(value, kind, out)
                out.append(self.mk(Assign, target=name, value=res,
                                   kind="alias" if isinstance(res, ast.Name) else "pure"))
                return name
            if kind.kind == "mpi" and kind.name not in PASSIVE_METHODS:
                call = self.mpi_call(value, kind, out)
                spec = SUPPORTED[call.method]
                if spec.kind != "object" and call.method not in REQUEST_CREATORS:
                    raise self.error(value, f"the result of comm.{call.method}", "call it as a statement")
                out.append(self.mk(Assign, target=name, value=value, kind="mpi", call=call))
                return name
        if _built_list(value):
            return self.list_literal(name, value, out)
        if _built_list(value, tuples=True) and self.only_read_by_parts(name):
            # pair = (f(x), g(y)) read only as pair[k] or a, b = pair: built as a list (its shadows
            # a list of shadows), which those reads cannot tell from the tuple
            return self.list_literal(name, ast.List(elts=value.elts, ctx=ast.Load()), out)
        if isinstance(value, ast.Tuple):
            self.mark_whole_to_kernel(name, value)
        if isinstance(value, ast.ListComp) and self.has_effect(value):
            return self.list_comprehension(name, value, out)
        if isinstance(value, ast.IfExp) and self.has_effect(value):
            test = self.expr(value.test, out)
            line, text = self.line, self.text
            body, orelse = [], []
            self.assign_value(name, value.body, body)
            self.assign_value(name, value.orelse, orelse)
            out.append(If(line=line, text=text, test=test, body=body, orelse=orelse))
            return name
        val = self.expr(value, out, top=True)
        if isinstance(val, ast.Name) or _is_T(val) or (isinstance(val, ast.Subscript) and
                                                       isinstance(val.value, ast.Name)):
            out.append(self.mk(Assign, target=name, value=val, kind="alias"))
        else:
            out.append(self.mk(Assign, target=name, value=val, kind="pure"))
        return name

    def mark_whole_to_kernel(self, name: str, value: ast.Tuple):
        """``pair = (a, b)`` then ``kernel(pair)``, where :meth:`split_tuples` left ``pair`` whole
        (bound twice, or read other than by its parts): if an element is active :mod:`.exprs`
        refuses the tuple naming that call (``value.adtrans_whole``: kernel, parameter, line, name)."""
        for s in self.body:
            for node in iter_nodes(s):
                if isinstance(node, ast.Call) and self.classify(node).kind == "kernel":
                    kind = self.classify(node)
                    params = list(inspect.signature(kind.obj.py_func).parameters)
                    for k, a in enumerate(node.args):
                        if isinstance(a, ast.Name) and a.id == name and k < len(params):
                            value.adtrans_whole = (kind.name, params[k], node.lineno, name)
                            return

    def only_read_by_parts(self, name: str) -> bool:
        """Is ``name`` read only by constant indices (``name[0]``) and as the value of an unpacking
        (``a, b = name``) in the driver?"""
        parts = set()
        for s in self.body:
            for node in iter_nodes(s):
                if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                        isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                    parts.add(id(node.value))
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and \
                        all(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets):
                    parts.add(id(node.value))
        return not any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and
                       id(n) not in parts for s in self.body for n in iter_nodes(s))

    def list_literal(self, name: str, value, out) -> str:
        """``name = [a, b(x)]`` (a literal with a computed element): ``name = []`` and one
        ``name.append(leaf)`` per element, the elements evaluated first, in order, as Python does;
        the list of shadows then works as for a list the driver appends to (see :mod:`.sweeps`)."""
        if any(isinstance(n, ast.Name) and n.id == name for e in value.elts for n in iter_nodes(e)):
            raise self.error(value, f"a list literal bound to `{name}`, a name its elements read",
                             f"build the list under a new name (`{name}_new = [...]`)")
        leaves = [self.leaf(e, out) for e in value.elts]
        out.append(self.mk(Assign, target=name, value=ast.List(elts=[], ctx=ast.Load()), kind="pure"))
        for v in leaves:
            out.append(self.mk(CallStmt, call=AppendCall(name, v)))
        self.lists.add(name)
        return name

    def list_comprehension(self, name: str, comp, out) -> str:
        """``name = [k(x, j) for j in range(n) if c]`` (a kernel call inside): ``name = []`` and the
        ``for``/``if`` nest appending to it; each comprehension variable gets a fresh local name
        (it does not leak, as in Python)."""
        self.add_locals({name})
        elt = copy.deepcopy(comp.elt)
        gens = copy.deepcopy(comp.generators)
        renames = {}
        for g in gens:
            if g.is_async or not isinstance(g.target, ast.Name):
                raise self.error(comp, "a comprehension with an async or tuple target calling a kernel",
                                 "write the for loop")
            renames[g.target.id] = self.fresh_local(g.target.id)
        rename = _Rename(renames)
        elt = rename.visit(elt)
        body: list = [ast.Expr(value=ast.Call(func=ast.Attribute(value=_load(name), attr="append", ctx=ast.Load()),
                                              args=[elt], keywords=[]))]
        for g in reversed(gens):
            for cond in reversed(g.ifs):
                body = [ast.If(test=rename.visit(cond), body=body, orelse=[])]
            it = rename.visit(g.iter) if g is not gens[0] else g.iter
            body = [ast.For(target=ast.Name(id=renames[g.target.id], ctx=ast.Store()), iter=it, body=body,
                            orelse=[])]
        stmts = [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.List(elts=[], ctx=ast.Load())),
                 body[0]]
        for st in stmts:
            ast.copy_location(st, comp)
            ast.fix_missing_locations(st)
        self.lists.add(name)
        line, text = self.line, self.text
        for st in stmts:
            self.stmt(st, out)
        self.line, self.text = line, text
        return name

    def name_of(self, e, out) -> str:
        """A name holding ``e`` (hoisted into a temporary unless ``e`` is a name)."""
        if isinstance(e, ast.Name):
            return e.id
        return self.assign_value(self.temp(), e, out)

    def leaf(self, e, out) -> ast.expr:
        """``e`` as a name or constant (hoisted into a temporary otherwise)."""
        e = self.expr(e, out)
        if _is_leaf(e):
            return e
        return _load(self.assign_value(self.temp(), e, out))

    def aug_assign(self, s: ast.AugAssign, out):
        if _list_extension(s) and s.target.id in self.lists:
            for e in s.value.elts:      # lst += [a, b(x)]: one append per element
                out.append(self.mk(CallStmt, call=AppendCall(s.target.id, self.leaf(e, out))))
            return
        if isinstance(s.target, ast.Name) and s.target.id in self.lists:
            raise self.error(s, f"an augmented assignment to the list `{s.target.id}` (other than += of a literal)",
                             f"append the elements: {s.target.id}.append(v)")
        if isinstance(s.target, ast.Name):
            val = self.leaf(s.value, out)
            out.append(self.mk(AugAssign, target=s.target.id, op=s.op, value=val))
        elif isinstance(s.target, ast.Subscript):
            container = self.name_of(s.target.value, out)
            key = self.expr(s.target.slice, out)
            val = self.expr(s.value, out)
            cur = ast.Subscript(value=_load(container), slice=copy.deepcopy(key), ctx=ast.Load())
            new = ast.BinOp(left=cur, op=s.op, right=val)
            out.append(self.mk(SetItem, container=container, key=key, value=new))
        else:
            raise self.error(s.target, f"augmented assignment to {type(s.target).__name__}",
                             "assign to names or array elements")

    def expr_stmt(self, s: ast.Expr, out):
        v = s.value
        if isinstance(v, ast.Constant):
            return
        if isinstance(v, ast.Call):
            kind = self.classify(v)
            if kind.kind == "kernel":
                out.append(self.mk(CallStmt, call=self.kernel_call(v, kind, out)))
                return
            if kind.kind == "python":
                self.inline(v, kind, out)
                return
            if kind.kind == "mpi" and kind.name not in PASSIVE_METHODS:
                call = self.mpi_call(v, kind, out)
                if call.method in REQUEST_CREATORS:
                    raise self.error(v, f"comm.{call.method} whose request is discarded",
                                     "keep the request and complete it with Wait or Waitall")
                if SUPPORTED[call.method].kind == "object":
                    out.append(self.mk(Assign, target=self.temp(), value=v, kind="mpi", call=call))
                else:
                    out.append(self.mk(CallStmt, call=call))
                return
            if kind.kind == "unknown" and kind.name == "extend" and isinstance(kind.receiver, ast.Name) and \
                    kind.receiver.id in self.lists and len(v.args) == 1 and not v.keywords and \
                    isinstance(v.args[0], (ast.List, ast.Tuple)):
                for e in v.args[0].elts:        # lst.extend([a, b(x)]): one append per element
                    out.append(self.mk(CallStmt, call=AppendCall(kind.receiver.id, self.leaf(e, out))))
                return
            if kind.kind == "append":
                recv = self.name_of(kind.receiver, out)
                if len(v.args) != 1 or v.keywords:
                    raise self.error(v, "append with other than one argument")
                out.append(self.mk(CallStmt, call=AppendCall(recv, self.leaf(v.args[0], out))))
                return
            self.check_call(v, kind, statement=True)
        node = copy.copy(s)
        node.value = self.expr(v, out, top=True)
        out.append(self.mk(Passive, node=node))

    # -- calls
    def check_call(self, call, kind: CallKind, statement: bool = False):
        """Reject calls without adjoint rules that can be decided without activity (a call
        statement of an unknown method of a local is taken for an in-place update)."""
        if kind.kind == "cuda":
            raise self.error(call, f"CUDA kernel {kind.name} called from a driver",
                             "drivers support @njit CPU kernels; use adtrans.adjoint on CUDA kernels directly")
        if kind.kind == "mpi" and kind.name not in SUPPORTED and kind.name not in PASSIVE_METHODS:
            raise self.error(call, f"MPI call {kind.name} has no adjoint rule", describe_supported())
        if statement and kind.kind == "unknown" and (kind.receiver is not None or
                                                     self.resolver.is_local_root(call.func)):
            what = f"method .{kind.name}()" if kind.receiver is not None else f"call of the local {kind.name}"
            raise self.error(call, f"{what} in a driver",
                             "drivers call @njit kernels (by their global name), NumPy/math functions, "
                             "array methods copy/sum/mean/dot and mpi4py methods")

    def effect_kind(self, call: ast.Call) -> bool:
        kind = self.classify(call)
        return kind.kind in ("kernel", "append", "python") or (kind.kind == "mpi" and kind.name not in PASSIVE_METHODS)

    def has_effect(self, e) -> bool:
        return any(isinstance(n, ast.Call) and self.effect_kind(n) for n in iter_nodes(e))

    def kernel_call(self, call: ast.Call, kind: CallKind, out) -> KernelCall:
        args = bind_arguments(call, kind.obj.py_func, f"kernel {kind.name}", self.error)
        leaves = [ast.Tuple(elts=[self.leaf(e, out) for e in a.elts], ctx=ast.Load())
                  if isinstance(a, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in a.elts)
                  else self.leaf(a, out) for a in args]
        return KernelCall(ast.unparse(call.func), kind.obj, leaves, call.col_offset + 1)

    def inline(self, call: ast.Call, kind: CallKind, out) -> ast.expr:
        """Inline the plain-Python helper ``call`` calls (see :func:`.jumps.inline_helper`): its
        statements go to ``out``; returns a name holding its result (or the constant None)."""
        func = kind.obj
        if func in self.inlining or any(getattr(f, "__code__", None) is func.__code__ for f in self.inlining):
            raise self.error(call, f"recursive call of the helper {kind.name}",
                             "write the recursion as a loop")
        bindings, body, result = inline_helper(call, func, self.primal.globals, self.fresh_local,
                                               self.locals | self.all_names, self.error)
        for name, arg in bindings:
            self.assign_value(name, arg, out)
        self.add_locals({n.id for s in body for n in iter_nodes(s) if isinstance(n, ast.Name)
                         and isinstance(n.ctx, ast.Store)})
        self.inlining.append(func)
        line, text = self.line, self.text
        out.extend(self.block(body))
        self.line, self.text = line, text
        self.inlining.pop()
        if isinstance(result, ast.Constant):
            return result
        return _load(self.assign_value(self.temp(), result, out))

    def mpi_call(self, call: ast.Call, kind: CallKind, out) -> MpiCall:
        meth = kind.name
        if meth not in SUPPORTED:
            raise self.error(call, f"MPI call {meth} has no adjoint rule", describe_supported())
        spec = SUPPORTED[meth]
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise self.error(call, f"*args/**kwargs in comm.{meth}", "pass arguments explicitly")
        if len(call.args) > len(spec.params):
            raise self.error(call, f"too many arguments for {meth}")
        bound = dict(zip(spec.params, call.args))
        for k in call.keywords:
            if k.arg not in spec.params or k.arg in bound:
                raise self.error(call, f"keyword {k.arg} of {meth}", f"{meth} takes {', '.join(spec.params)}")
            bound[k.arg] = k.value
        for p in spec.params[:spec.required]:
            if p not in bound:
                raise self.error(call, f"{meth} without {p}")
        if spec.ops and "op" in bound:
            op = bound["op"]
            opname = op.attr if isinstance(op, ast.Attribute) else getattr(op, "id", None)
            if opname not in spec.ops:
                raise self.error(op, f"{meth} with op={ast.unparse(op)}",
                                 f"differentiated {meth} supports op=" + ", ".join("MPI." + o for o in spec.ops))
        args = {}
        for p, e in bound.items():
            role = spec.buffers.get(p)
            if role is not None:
                args[p] = self.buffer(e, out)
            elif p in ("sendobj", "obj"):
                args[p] = self.leaf(e, out)
            else:
                args[p] = self.expr(e, out)
        receiver = kind.receiver
        if receiver is not None and self.has_effect(receiver):
            raise self.error(receiver, "kernel or MPI call computing the communicator or request")
        return MpiCall(meth, ast.unparse(receiver) if receiver is not None else "", args)

    def buffer(self, e, out):
        """An MPI buffer argument as a name, ``[name, datatype...]``, ``None`` or ``MPI.IN_PLACE``."""
        if isinstance(e, ast.Constant) and e.value is None:
            return e
        if isinstance(e, ast.Attribute) and e.attr == "IN_PLACE":
            return e
        if isinstance(e, (ast.List, ast.Tuple)) and e.elts:
            first = _load(self.name_of(self.expr(e.elts[0], out), out))
            rest = [self.expr(x, out) for x in e.elts[1:]]
            return type(e)(elts=[first] + rest, ctx=ast.Load())
        return _load(self.name_of(self.expr(e, out), out))

    # -- expressions
    def impure(self, call: ast.Call) -> bool:
        """A call whose value may differ when evaluated again (``rng.normal()``, ``MPI.Wtime()``,
        ``np.random.rand(3)``, anything unknown): it is evaluated once, into a temporary, because
        the reverse sweep recomputes expressions."""
        kind = self.classify(call)
        if kind.kind in ("unknown", "passive", "mpi"):
            return True
        if kind.kind == "numpy":
            return (getattr(kind.obj, "__module__", None) or "").startswith("numpy.random")
        return False

    def expr(self, e, out, top: bool = False) -> ast.expr:
        """``e`` with effectful calls and conditional expressions hoisted into ``out``, subscripts
        and ``.T`` applied to names only (``top``: ``e`` is a whole right-hand side)."""
        if isinstance(e, ast.Call):
            kind = self.classify(e)
            if kind.kind in ("kernel", "python") or (kind.kind == "mpi" and kind.name not in PASSIVE_METHODS):
                return _load(self.assign_value(self.temp(), e, out))
            if kind.kind in ("append",):
                raise self.error(e, "append used as a value")
            self.check_call(e, kind)
            if e.args and kind.kind == "numpy" and kind.name in ("array", "asarray") and _rows(e.args[0]):
                # np.array([[a, b], [c, d]]): the rows as arrays first, np.array of the list of rows
                rows = [ast.Call(func=copy.deepcopy(e.func), args=[r], keywords=[]) for r in e.args[0].elts]
                e = copy.copy(e)
                e.args = [ast.List(elts=rows, ctx=ast.Load())] + e.args[1:]
            if e.args and isinstance(e.args[0], (ast.ListComp, ast.GeneratorExp)) and self.has_effect(e.args[0]) \
                    and (kind.kind == "builtin" and kind.name in ("sum", "max", "min") or
                         kind.kind == "numpy" and kind.name in ("array", "asarray")):
                # sum(k(x, j) for j in range(n)): the comprehension becomes a list of its own
                c = e.args[0]
                lst = self.list_comprehension(self.temp("_list"), ast.copy_location(
                    ast.ListComp(elt=c.elt, generators=c.generators), c), out)
                e = copy.copy(e)
                e.args = [_load(lst)] + e.args[1:]
            if e.args and _built_list(e.args[0], tuples=True) and (
                    kind.kind == "builtin" and kind.name in ("sum", "max", "min") or
                    kind.kind == "numpy" and kind.name in ("array", "asarray")):
                # sum([f(x), g(x)]), np.array([a, b]): the literal becomes a list of its own
                lst = self.list_literal(self.temp("_list"), ast.List(elts=e.args[0].elts, ctx=ast.Load()), out)
                e = copy.copy(e)
                e.args = [_load(lst)] + e.args[1:]
            new = copy.copy(e)
            if kind.kind == "method" or (kind.kind == "mpi"):
                func = copy.copy(e.func)
                func.value = self.expr(e.func.value, out)
                new.func = func
            new.args = [self.expr(a, out) for a in e.args]
            new.keywords = [ast.keyword(arg=k.arg, value=self.expr(k.value, out)) for k in e.keywords]
            if not top and self.impure(e):
                return _load(self.assign_value(self.temp(), new, out))
            return new
        if isinstance(e, ast.IfExp):
            if self.has_effect(e.body) or self.has_effect(e.orelse) or \
                    any(isinstance(n, ast.Call) and self.impure(n) for part in (e.body, e.orelse)
                        for n in iter_nodes(part)):   # evaluate only the branch taken
                return _load(self.assign_value(self.temp(), e, out))
            return ast.IfExp(test=self.expr(e.test, out), body=e.body, orelse=e.orelse)
        if isinstance(e, ast.Subscript):
            base = self.expr(e.value, out)
            if isinstance(base, ast.Call) and LAPACK.get(lapack_of(self.classify(base)), None) is not None and \
                    LAPACK[lapack_of(self.classify(base))].parts:
                return ast.Subscript(value=base, slice=e.slice, ctx=ast.Load())   # its rule reads [k]
            if not isinstance(base, (ast.Name, ast.Attribute)) or _is_T(base):
                base = _load(self.assign_value(self.temp(), base, out))
            return ast.Subscript(value=base, slice=self.expr(e.slice, out), ctx=ast.Load())
        if _is_T(e):
            base = self.expr(e.value, out)
            if not isinstance(base, ast.Name):
                base = _load(self.assign_value(self.temp(), base, out))
            return ast.Attribute(value=base, attr="T", ctx=ast.Load())
        if isinstance(e, ast.BoolOp):
            if self.has_effect(e):
                raise self.error(e, "kernel or MPI call inside and/or", "call it before, into a variable")
            return e
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            if self.has_effect(e):
                raise self.error(e, "kernel or MPI call inside a comprehension or lambda", "write a for loop")
            return e
        if isinstance(e, ast.NamedExpr):
            raise self.error(e, "assignment expression (:=)", "assign in a statement")
        if isinstance(e, (ast.Await, ast.Yield, ast.YieldFrom)):
            raise self.error(e, f"{type(e).__name__} in a driver")
        new = copy.copy(e)
        for fname, value in ast.iter_fields(e):
            if isinstance(value, ast.expr):
                setattr(new, fname, self.expr(value, out))
            elif isinstance(value, list) and value and all(isinstance(v, ast.expr) for v in value):
                setattr(new, fname, [self.expr(v, out) for v in value])
        return new


class _Rename(ast.NodeTransformer):
    def __init__(self, renames):
        self.renames = renames

    def visit_Name(self, node):
        if node.id in self.renames:
            return ast.copy_location(ast.Name(id=self.renames[node.id], ctx=node.ctx), node)
        return node


def _list_extension(s) -> bool:
    """``lst += [a, b]`` (a list or tuple literal)."""
    return isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name) and \
        isinstance(s.value, (ast.List, ast.Tuple)) and not any(isinstance(x, ast.Starred) for x in s.value.elts)


def _rows(e) -> bool:
    """A literal of row literals of equal length with a computed element (``[[c, -s], [s, c]]``)."""
    return isinstance(e, (ast.List, ast.Tuple)) and bool(e.elts) and \
        all(isinstance(r, (ast.List, ast.Tuple)) and r.elts and len(r.elts) == len(e.elts[0].elts) and
            not any(isinstance(x, (ast.List, ast.Tuple, ast.Starred)) for x in r.elts) for r in e.elts) and \
        not all(isinstance(x, ast.Constant) for r in e.elts for x in r.elts)


def _built_list(e, tuples: bool = False) -> bool:
    """A list literal (``tuples``: or tuple) with an element that is computed (not a constant),
    one level deep, no starred elements: the driver builds it by appends (:meth:`Normaliser.list_literal`)."""
    kinds = (ast.List, ast.Tuple) if tuples else ast.List
    return isinstance(e, kinds) and bool(e.elts) and not any(isinstance(x, ast.Starred) for x in e.elts) and \
        not all(isinstance(x, ast.Constant) for x in e.elts) and \
        not any(isinstance(x, (ast.List, ast.Tuple)) for x in e.elts)


def normalise_driver(primal) -> DriverIR:
    """Normalise the parsed driver ``primal`` (a :class:`~adtrans.parse.Primal`)."""
    return Normaliser(primal).run()

"""Three-address form: every statement does one operation on names and constants.

The normalised statement language (what the analyses and rules see):

- ``x = a`` / ``x = a OP b`` / ``x = OP a`` / ``x = a CMP b`` / ``x = f(a, b)``
  (``f`` an intrinsic of :mod:`adtrans.rules.derivatives`, tagged on the call as
  ``adtrans_intrinsic``; a cast; an allocation; or a math/NumPy function with no
  rule, tagged ``adtrans_kind = "norule"``, refused by the transform only when
  an argument is active) / ``x = A[i, j]`` /
  ``x = A.shape[k]``-style integer queries (kept whole);
- ``A[i, j] = a``; ``A[i, j] += a`` / ``-= a``; ``x += a`` / ``x -= a``
  (accumulations, kept as such for the parallel rules);
- ``for i in range(a, b, c):`` / ``for i in prange(...)``; ``while c:`` (the
  condition is a name recomputed at the end of the body); ``if c: ... else: ...``;
- ``raise`` statements (kept in the forward sweep only).

Atoms (``a``, ``b``, ``i`` ...) are names or numeric constants.  Calls to
other jitted functions are inlined, with their locals renamed.  The target of
an operation never appears among its operands.
"""
from __future__ import annotations

import ast
import builtins
import copy
import math
from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import UnsupportedError
from ..ir.names import NameAllocator, names_in
from ..ir.nodes import Rename, name
from ..ir.walk import (array_target, is_lapack, is_product, iter_nodes, iter_stmts, product_operands,
                       reads, scalar_target)
from ..parse import Primal, parse_file_function, parse_function
from ..rules.derivatives import intrinsic_of, spelling
from .forms import FormLowering, bind_call, exception_class, print_call, string_dtype
from .arrays import ArrayLowering
from .deferred import Retry, leaked
from .arrayvalues import is_helper_object
from .jumps import JumpError, JumpLowering
from .comprehensions import Comprehensions
from .draws import Draws, is_draw_name
from .lists import ListLowering
from .preductions import PrangeReductions
from .mathgaps import lacking
from .closures import lift_closures
from .tupleargs import split_tuple_calls, split_tuple_names
from .ssa import SSA, reads_outside_loops
from .literalnames import inline_literal_names, prune_none_params

ALLOCATORS = {"zeros", "empty", "ones", "zeros_like", "empty_like", "ones_like", "full"}
DTYPES = {"float64", "float32", "int64", "int32", "int8", "bool_", "uint8", "intp", "int16", "uint32", "uint64"}
OPAQUE_CALLS = {"len": "len", "numba.get_thread_id": "numba.get_thread_id",
                "numba.get_num_threads": "numba.get_num_threads", "int": "int", "bool": "bool",
                "numpy.int64": "np.int64", "numpy.int32": "np.int32", "numpy.intp": "np.intp",
                "round": "round", "numpy.argsort": "np.argsort",
                # constant functions of arrays (integer or boolean results, adtrans.normalise.arrayfuncs)
                **{f"numpy.{f}": f"np.{f}" for f in ("searchsorted", "digitize", "count_nonzero", "flatnonzero",
                                                     "argwhere", "bincount", "array_equal", "allclose", "isclose",
                                                     "size", "hanning", "hamming", "blackman", "bartlett")},
                # np.histogram's counts (adtrans.special, imported by generated kernels as special)
                "special.histogram_counts": "special.histogram_counts",
                "adtrans.special.histogram_counts": "special.histogram_counts"}
LOOP_CALLS = {"range": "range", "numba.prange": "numba.prange", "numba.parfors.parfor.prange": "numba.prange",
              "numba.misc.special.prange": "numba.prange"}


@dataclass
class Normalised:
    """A kernel in three-address form.

    ``params``: parameter names; ``body``: statements; ``results``: names of
    the returned values ([] for kernels returning nothing);
    ``arrays``: names known to hold arrays; ``global_arrays``: module-level
    arrays the kernel reads (name -> object).
    """
    name: str
    params: list
    body: list
    results: list
    filename: str
    arrays: set
    alloc: NameAllocator
    global_arrays: dict = field(default_factory=dict)
    parallel: bool = False
    result_info: list = field(default_factory=list)     # (ndim, dtype) per result (ndim 0: scalar)
    seed_params: list = field(default_factory=list)     # (name, ndim, dtype): seeds of returned arrays
    cuda: bool = False
    primal: Primal | None = None

    def source(self) -> str:
        return ast.unparse(ast.fix_missing_locations(self.function()))

    def function(self) -> ast.FunctionDef:
        """The kernel as a ``FunctionDef`` (its statements are the normalised ones, with their tags)."""
        fn = ast.FunctionDef(name=self.name, args=ast.arguments(
            posonlyargs=[], args=[ast.arg(arg=p) for p in self.params], kwonlyargs=[],
            kw_defaults=[], defaults=[]), body=list(self.body) or [ast.Pass()], decorator_list=[],
            returns=None, type_params=[])
        if self.results:
            ret = ast.Name(self.results[0]) if len(self.results) == 1 else \
                ast.Tuple(elts=[ast.Name(r) for r in self.results], ctx=ast.Load())
            fn.body = fn.body + [ast.Return(value=ret)]
        return fn


def is_atom(node) -> bool:
    return isinstance(node, ast.Name) or (isinstance(node, ast.Constant) and
                                           isinstance(node.value, (int, float, bool)))


class Resolver:
    """Resolves global names: to objects (imported module) or dotted spellings (file only)."""

    def __init__(self, primal: Primal):
        self.globals = primal.globals
        self.imports: dict[str, str] = {}
        self.file_functions: dict[str, ast.FunctionDef] = {}
        self.file_constants: dict[str, object] = {}
        self.file_classes: dict[str, ast.ClassDef] = {}
        if primal.globals is None:
            self._read_file(primal.filename)

    def _read_file(self, path):
        with open(path, encoding="utf-8") as fh:
            module = ast.parse(fh.read())
        for node in module.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.imports[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.imports[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.FunctionDef):
                self.file_functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.file_classes[node.name] = node
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                try:
                    self.file_constants[node.targets[0].id] = ast.literal_eval(node.value)
                except (ValueError, SyntaxError, TypeError):
                    pass

    def dotted(self, node) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        parts.append(node.id)
        return ".".join(reversed(parts))

    def lookup(self, dotted: str):
        """(found, object) for a dotted global name."""
        head, *rest = dotted.split(".")
        if self.globals is not None:
            if head in self.globals:
                obj = self.globals[head]
            elif hasattr(builtins, head):
                obj = getattr(builtins, head)
            else:
                return False, None
            for r in rest:
                if not hasattr(obj, r):
                    return False, None
                obj = getattr(obj, r)
            return True, obj
        if head in self.file_constants and not rest:
            return True, self.file_constants[head]
        return False, None

    def canonical(self, dotted: str) -> str:
        """Canonical dotted spelling, e.g. ``np.sqrt`` -> ``numpy.sqrt``."""
        head, *rest = dotted.split(".")
        if self.globals is not None:
            found, obj = self.lookup(head)
            if found and hasattr(obj, "__name__") and type(obj).__name__ == "module":
                return ".".join([obj.__name__] + rest)
            if found and not rest and getattr(obj, "__module__", None) in ("math", "numpy"):
                return f"{obj.__module__}.{getattr(obj, '__name__', head)}"
            if found and not rest and obj is getattr(builtins, head, None):
                return f"builtins.{head}"
            return dotted
        if head in self.imports:
            return ".".join([self.imports[head]] + rest)
        if hasattr(builtins, head) and not rest:
            return f"builtins.{head}"
        return dotted


_KEEP_BASES = ("_bound", "shape", "cond", "keep_going")


def _part(e) -> str | None:
    """A short spelling of an atom for a name: ``i``, ``2``, else None."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Constant) and type(e.value) is int and e.value >= 0:
        return str(e.value)
    return None


def value_name(rhs, base: str) -> str:
    """A temporary's name from the value it holds: ``x_i`` for ``x[i]``, ``ip1`` for ``i + 1``,
    ``exp_r2`` for ``math.exp(r2)``, else ``t`` (numbered ``t1``, ``t2``...).  Bases that say what
    a value is for (loop bounds, shapes, conditions) are kept."""
    if base.endswith(_KEEP_BASES):
        return base
    name = None
    if isinstance(rhs, ast.Subscript) and isinstance(rhs.value, ast.Name):
        idx = rhs.slice.elts if isinstance(rhs.slice, ast.Tuple) else [rhs.slice]
        parts = [_part(i) for i in idx]
        if all(parts):
            name = "_".join([rhs.value.id] + parts)
    elif isinstance(rhs, ast.BinOp) and isinstance(rhs.left, ast.Name) and isinstance(rhs.right, ast.Constant) \
            and type(rhs.right.value) is int and isinstance(rhs.op, (ast.Add, ast.Sub)) and rhs.right.value > 0:
        name = f"{rhs.left.id}{'p' if isinstance(rhs.op, ast.Add) else 'm'}{rhs.right.value}"
    elif isinstance(rhs, ast.Call) and getattr(rhs, "adtrans_kind", None) == "intrinsic":
        fn = ast.unparse(rhs.func).split(".")[-1]
        parts = [p for p in (_part(a) for a in rhs.args) if p]
        name = "_".join([fn] + parts[:2]) if parts else fn + "_v"
    if name is None or len(name) > 24:
        return "t"
    return name


class Normaliser:
    def __init__(self, primal: Primal, array_params: set, alloc: NameAllocator | None = None,
                 inline_stack=(), resolver: Resolver | None = None, ext=None, views=None, ndims=None,
                 list_params=None, closures=None):
        """``list_params``: list arguments, name -> element dtype (``"array"`` for arrays);
        ``array_params``: array parameter names, or a dict name -> (ndim, dtype) (enables the
        whole-array lowering of :mod:`.arrays`); ``views``: parameters bound to views of the caller's
        arrays (inlined helpers); ``ndims``: numbers of dimensions of arrays, where known (for
        ``.flat``, ``np.ndindex``, shape unpacking; taken from ``array_params`` when it is a dict);
        ``closures``: the enclosing kernel's inner functions (name -> lifted Primal, see
        :mod:`.closures`), for an inner function that calls another."""
        self.p = primal
        self.array_info = dict(array_params) if isinstance(array_params, dict) else None
        self.ndims = dict(ndims or {})
        if self.array_info:
            self.ndims.update({p: v[0] for p, v in self.array_info.items() if p not in self.ndims})
        self.views = dict(views or {})
        self.list_params = dict(list_params or {})
        self.list_info: dict = {}       # list name -> lists.ListInfo (filled by lists.Comprehensions)
        self.closures = dict(closures or {})
        self.lowering = None
        self.alloc = alloc or NameAllocator(names_in(primal.tree))
        self.arrays = set(array_params)
        self.stack = tuple(inline_stack) + (primal.name,)
        self.resolver = resolver or Resolver(primal)
        self.global_arrays: dict = {}
        self.ext = ext      # target extension (adtrans.cuda): lowers calls/attributes of that target
        self.locals = set(primal.params) | {n.id for n in iter_nodes(primal.tree)
                                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for v in self.views.values():        # a view parameter's base and index placeholders
            self.arrays.add(v.base)
            if self.array_info is not None:
                self.array_info[v.base] = (v.base_ndim, v.dtype)
            self.locals |= {v.base} | {n.id for e in list(v.fixed.values()) + [x for a in v.axes for x in
                                                                              (a.start, a.length) if x is not None]
                                       for n in iter_nodes(e) if isinstance(n, ast.Name)}

    def fresh(self, base):
        name = self.alloc.fresh(base)
        self.locals.add(name)
        return name

    def err(self, node, construct, hint=""):
        return self.p.error(node, construct, hint)

    # ------------------------------------------------------------------ driver
    def run(self) -> Normalised:
        lower = JumpLowering(self.alloc)
        tree, lifted = lift_closures(self.p, self.err)
        self.closures.update(lifted)
        tree = split_tuple_names(tree, lambda c: self.helper_of(c) is not None, self.fresh, self.err, counters=True)
        tree, lifted = split_tuple_calls(tree, self.helper_of, self.helper_primal, self.err)
        self.closures.update(lifted)
        tree = inline_literal_names(prune_none_params(tree, getattr(self, "none_params", ())), self.p.globals)
        draws = Draws(self)
        tree = tree if self.p.cuda else Comprehensions(self).run(draws.run(tree))
        draws.set_dtypes(self.list_info)
        forms = FormLowering(self)
        tree = forms.run(tree)
        if not self.p.cuda:
            tree = ListLowering(self, forms).run(tree)
            tree = PrangeReductions(forms).run(tree)
        try:
            body = lower.run(tree)
        except JumpError as exc:
            raise self.err(exc.node, str(exc), exc.hint) from None
        self.locals |= {n.id for s in body for n in iter_nodes(s)
                        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if self.array_info is not None:
            self.lowering = ArrayLowering(self, self.array_info, self.views, getattr(self, "scalar_types", None))
            body = self.lowering.run(body)
            leaks = leaked(self.lowering.deferred, body)
            if leaks:
                raise Retry(leaks)
        self.results: list[str] = list(lower.ret_names or [])
        out: list[ast.stmt] = []
        self.block(body, out, top=True)
        out = self.freeze_branch_tests(out)
        out = SSA(self.fresh, self.arrays, self.results, reads_outside_loops(out)).run(out, self.p.params)
        seeds = self.lowering.seed_params if self.lowering else []
        return Normalised(name=self.p.name, params=list(self.p.params) + [w for w, _, _ in seeds], body=out, results=self.results,
                          filename=self.p.filename, arrays=self.arrays, alloc=self.alloc,
                          global_arrays=self.global_arrays, parallel=self.p.parallel, cuda=self.p.cuda,
                          primal=self.p, result_info=self.lowering.result_info if self.lowering else [],
                          seed_params=list(seeds))

    def freeze_branch_tests(self, stmts):
        """Copy an ``if`` test that its own branches reassign, so the reverse sweep sees the decision
        (a constant test, ``a if False else b``, has nothing to copy)."""
        out = []
        for s in stmts:
            if isinstance(s, ast.If):
                s.body = self.freeze_branch_tests(s.body)
                s.orelse = self.freeze_branch_tests(s.orelse)
                assigned = {n.id for b in s.body + s.orelse for n in iter_nodes(b)
                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                if isinstance(s.test, ast.Name) and s.test.id in assigned:
                    c = self.fresh(s.test.id + "_taken")
                    out.append(ast.copy_location(ast.Assign(targets=[name(c, True)], value=name(s.test.id)), s))
                    s.test = name(c)
            elif isinstance(s, (ast.For, ast.While)):
                s.body = self.freeze_branch_tests(s.body)
            out.append(s)
        return out

    def block(self, stmts, out, top=False):
        for i, s in enumerate(stmts):
            start = len(out)
            if isinstance(s, ast.Return):
                if not (top and i == len(stmts) - 1):
                    raise self.err(s, "return inside control flow after lowering")
                self.ret(s, out)
            else:
                self.stmt(s, out)
            self.tag_source(out[start:], s)

    def tag_source(self, produced, s):
        """Give the statements lowered from ``s`` its source text (inlined helpers keep their own)."""
        text = self.p.line_text(s)
        where = (self.p.filename, s.lineno) if hasattr(s, "lineno") else None
        for st in produced:
            if text is not None and getattr(st, "adtrans_source", None) is None:
                st.adtrans_source = text
            if where is not None and getattr(st, "adtrans_where", None) is None:
                st.adtrans_where = where

    def ret(self, s: ast.Return, out):
        if s.value is None:
            return
        if isinstance(s.value, ast.Name) and s.value.id in self.results and len(self.results) == 1:
            return
        values = s.value.elts if isinstance(s.value, ast.Tuple) else [s.value]
        if isinstance(s.value, ast.Call):
            got = self.call(s.value, out, want=-1, base="result")
            values = got if isinstance(got, list) else [got]
        if self.results and len(self.results) != len(values):
            raise self.err(s, "returns of different lengths")
        if not self.results:
            self.results = [self.fresh("result") for _ in values]
        for name, v in zip(self.results, values):
            self.assign_expr(name, v, out, s)

    # ------------------------------------------------------------ statements
    def stmt(self, s, out):
        if isinstance(s, (ast.Pass, ast.Assert)):
            return
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return    # docstring
            if isinstance(s.value, ast.Call):
                self.call(s.value, out, want=0)
                return
            raise self.err(s, f"expression statement `{ast.unparse(s)}`", "remove it or assign it")
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return
            s = ast.copy_location(ast.Assign(targets=[s.target], value=s.value), s)
        if isinstance(s, ast.Assign):
            return self.assign(s, out)
        if isinstance(s, ast.AugAssign):
            return self.augassign(s, out)
        if isinstance(s, ast.If):
            test = self.atom(s.test, out, "cond")
            if isinstance(test, ast.Constant):
                return self.block(s.body if test.value else s.orelse, out)
            body, orelse = [], []
            self.block(s.body, body)
            self.block(s.orelse, orelse)
            if body or orelse:
                out.append(ast.copy_location(ast.If(test=test, body=body or [ast.Pass()], orelse=orelse), s))
            return
        if isinstance(s, ast.For):
            return self.for_(s, out)
        if isinstance(s, ast.While):
            if s.orelse:
                raise self.err(s, "while ... else", "use a flag variable")
            c = self.fresh("keep_going")
            self.assign_expr(c, s.test, out, s)
            body = []
            self.block(s.body, body)
            self.assign_expr(c, s.test, body, s)
            out.append(ast.copy_location(ast.While(test=name(c), body=body, orelse=[]), s))
            return
        if isinstance(s, ast.Raise):
            exception_class(self, s)
            out.append(s)
            return
        kinds = {ast.Try: ("try/except", "check inputs before the kernel and keep the kernel free of exceptions"),
                 ast.With: ("with-statement", "move it out of the kernel"),
                 ast.Global: ("global statement", "pass the value as an argument"),
                 ast.Nonlocal: ("nonlocal statement", "pass the value as an argument"),
                 ast.Delete: ("del statement", "remove it"),
                 ast.FunctionDef: ("nested function (closure)", "define it at module level with @njit"),
                 ast.ClassDef: ("class definition", "define it at module level")}
        construct, hint = kinds.get(type(s), (type(s).__name__, ""))
        if isinstance(s, getattr(ast, "TryStar", ())):
            construct, hint = kinds[ast.Try]
        raise self.err(s, construct, hint)

    def assign(self, s: ast.Assign, out):
        if len(s.targets) > 1:
            tmp = self.fresh("value")
            self.assign_expr(tmp, s.value, out, s)
            for t in s.targets:
                self.assign(ast.copy_location(ast.Assign(targets=[t], value=name(tmp)), s), out)
            return
        target = s.targets[0]
        if isinstance(target, ast.Name):
            return self.assign_expr(target.id, s.value, out, s)
        if isinstance(target, ast.Subscript):
            arr, idx = self.subscript_parts(target, out)
            if isinstance(s.value, ast.Call) and is_draw_name(self.resolver.canonical(self.resolver.dotted(
                    s.value.func) or "")):
                val = self.call(s.value, out, base=arr + "_value")    # draws[draws_len] = np.random.random()
            else:
                val = self.atom(s.value, out, arr + "_value")
            out.append(ast.copy_location(ast.Assign(targets=[ast.Subscript(value=name(arr), slice=idx,
                                                                           ctx=ast.Store())], value=val), s))
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if any(isinstance(e, ast.Starred) for e in elts):
                raise self.err(s, "starred assignment", "unpack element by element")
            if isinstance(s.value, (ast.Tuple, ast.List)) and len(s.value.elts) == len(elts):
                temps = [self.atom(v, out, self._base(t)) for t, v in zip(elts, s.value.elts)]
            elif isinstance(s.value, ast.Call):
                temps = self.call(s.value, out, want=len(elts))
            elif isinstance(s.value, ast.Name) and s.value.id not in self.arrays:
                # a tuple (a parameter, `p=(1.0, 2.0)`): its elements; Numba types the length
                temps = [self.atom(ast.copy_location(ast.Subscript(value=name(s.value.id), slice=ast.Constant(k),
                                                                   ctx=ast.Load()), s.value), out, self._base(t))
                         for k, t in enumerate(elts)]
            else:
                raise self.err(s, f"tuple unpacking of `{ast.unparse(s.value)}`",
                               "unpack a tuple literal or the result of a jitted helper")
            # copy the temporaries first so swaps like `a, b = b, a` stay right
            held = []
            for t, v in zip(elts, temps):
                if isinstance(v, ast.Name) and any(isinstance(e, ast.Name) and e.id == v.id for e in elts):
                    h = self.fresh(v.id + "_old")
                    out.append(ast.copy_location(ast.Assign(targets=[name(h, True)], value=v), s))
                    v = name(h)
                held.append(v)
            for t, v in zip(elts, held):
                self.assign(ast.copy_location(ast.Assign(targets=[t], value=v), s), out)
            return
        raise self.err(s, f"assignment to `{ast.unparse(target)}`", "assign to a name or an array element")

    def augassign(self, s: ast.AugAssign, out):
        target = s.target
        if isinstance(target, ast.Name):
            if isinstance(s.op, (ast.Add, ast.Sub)) and target.id not in self.arrays:
                val = self.atom(s.value, out, target.id + "_inc")
                if isinstance(val, ast.Name) and val.id == target.id:
                    val = self.copy_to_temp(val, out, s)
                out.append(ast.copy_location(ast.AugAssign(target=name(target.id, True), op=s.op, value=val), s))
                return
            expr = ast.BinOp(left=name(target.id), op=s.op, right=s.value)
            return self.assign_expr(target.id, ast.copy_location(expr, s), out, s)
        if isinstance(target, ast.Subscript):
            arr, idx = self.subscript_parts(target, out)
            if isinstance(s.op, (ast.Add, ast.Sub)):
                val = self.atom(s.value, out, arr + "_inc")
                out.append(ast.copy_location(ast.AugAssign(
                    target=ast.Subscript(value=name(arr), slice=idx, ctx=ast.Store()), op=s.op, value=val), s))
                return
            old = self.fresh(arr + "_old")
            out.append(ast.copy_location(ast.Assign(targets=[name(old, True)], value=ast.Subscript(
                value=name(arr), slice=copy.deepcopy(idx), ctx=ast.Load())), s))
            new = self.fresh(arr + "_new")
            self.assign_expr(new, ast.copy_location(ast.BinOp(left=name(old), op=s.op, right=s.value), s), out, s)
            out.append(ast.copy_location(ast.Assign(targets=[ast.Subscript(value=name(arr), slice=idx,
                                                                           ctx=ast.Store())], value=name(new)), s))
            return
        raise self.err(s, f"augmented assignment to `{ast.unparse(target)}`")

    def for_(self, s: ast.For, out):
        if s.orelse:
            raise self.err(s, "for ... else", "use a flag variable")
        if not isinstance(s.target, ast.Name):
            raise self.err(s, f"loop target `{ast.unparse(s.target)}`", "loop over range() with one index")
        it = s.iter
        kind = None
        if isinstance(it, ast.Call) and not it.keywords:
            dotted = self.resolver.dotted(it.func)
            kind = self.loop_kind(dotted) if dotted else None
        if kind is None or not 1 <= len(it.args) <= 3:
            raise self.err(s, f"loop over `{ast.unparse(it)}`",
                           "loop over range(...) or numba.prange(...) and index the array")
        args = [self.atom(a, out, s.target.id + "_bound") for a in it.args]
        assigned_in_body = {n.id for b in s.body for n in iter_nodes(b)
                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        # bounds are evaluated once: copy any the body reassigns
        for k, a in enumerate(args):
            if isinstance(a, ast.Name) and (a.id in assigned_in_body or a.id == s.target.id):
                args[k] = self.copy_to_temp(a, out, s, s.target.id + "_bound")
        body = []
        self.block(s.body, body)
        call = ast.Call(func=ast.parse(kind, mode="eval").body, args=args, keywords=[])
        out.append(ast.copy_location(ast.For(target=name(s.target.id, True), iter=call, body=body or [ast.Pass()],
                                             orelse=[]), s))

    def loop_kind(self, dotted):
        found, obj = self.resolver.lookup(dotted)
        if found:
            if obj is range:
                return "range"
            if obj is numba.prange:
                return "numba.prange"
            return None
        canon = self.resolver.canonical(dotted)
        return LOOP_CALLS.get(canon) or LOOP_CALLS.get(canon.replace("builtins.", "")) or \
            ("numba.prange" if canon.endswith(".prange") or canon == "prange" else None)

    # ----------------------------------------------------------- expressions
    def _base(self, target) -> str:
        return target.id if isinstance(target, ast.Name) else "value"

    def copy_to_temp(self, atom, out, like, base=None):
        t = self.fresh(base or (atom.id + "_copy"))
        out.append(ast.copy_location(ast.Assign(targets=[name(t, True)], value=atom), like))
        return name(t)

    def assign_expr(self, target: str, expr, out, like):
        """Emit ``target = expr`` in three-address form."""
        rhs = self.rhs(expr, out, target)
        if isinstance(rhs, list):       # tuple result of a helper
            raise self.err(like, "assigning a tuple to one name", "unpack it: `a, b = f(...)`")
        if target in {n.id for n in iter_nodes(rhs) if isinstance(n, ast.Name)} and not is_atom(rhs):
            tmp = self.fresh(target)
            out.append(ast.copy_location(ast.Assign(targets=[name(tmp, True)], value=rhs), like))
            rhs = name(tmp)
        if isinstance(rhs, ast.Name) and rhs.id == target:
            return
        if isinstance(rhs, ast.Name) and rhs.id in self.arrays:
            self.arrays.add(target)
        if isinstance(rhs, ast.Call) and getattr(rhs, "adtrans_kind", None) == "alloc" or \
                getattr(rhs, "adtrans_linalg", None):
            self.arrays.add(target)
        node = ast.copy_location(ast.Assign(targets=[name(target, True)], value=rhs), like)
        out.append(node)

    def atom(self, expr, out, base="t"):
        """Reduce ``expr`` to a name or constant, emitting statements into ``out``."""
        if isinstance(expr, ast.Constant):
            if isinstance(expr.value, (int, float, bool)):
                return expr
            if isinstance(expr.value, complex):
                raise self.err(expr, f"complex constant {expr.value!r} (adtrans differentiates real arithmetic only)",
                               "carry the real and imaginary parts as separate floats (a complex 2x2 factor "
                               "as its real form, a complex array as two float arrays)")
            if isinstance(expr.value, str):
                raise self.err(expr, f"string constant {expr.value!r} outside a comparison",
                               "kernels compute with numbers; a string may only be compared: "
                               "`if mode == \"fast\":`, `if mode in (\"a\", \"b\"):`")
            raise self.err(expr, f"constant {expr.value!r}", "kernels compute with numbers only")
        if isinstance(expr, ast.Name):
            return self.name(expr)
        rhs = self.rhs(expr, out, base)
        if isinstance(rhs, list):
            raise self.err(expr, "tuple value in an expression", "unpack it first")
        if is_atom(rhs):
            return rhs
        t = self.fresh(value_name(rhs, base))
        if isinstance(rhs, ast.Call) and getattr(rhs, "adtrans_kind", None) == "alloc":
            self.arrays.add(t)
        out.append(ast.copy_location(ast.Assign(targets=[name(t, True)], value=rhs), expr))
        return name(t)

    def compared(self, expr, op, out, base):
        """An operand of a comparison: an atom, or a string constant compared for (in)equality
        (``if limiter == "minmod":`` on a string argument, or a module's string global, which
        Numba compiles: a constant condition with no derivative)."""
        if isinstance(op, (ast.Eq, ast.NotEq)):
            if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
                return expr
            if isinstance(expr, ast.Name) and expr.id not in self.locals:
                found, obj = self.resolver.lookup(expr.id)
                if found and isinstance(obj, str):
                    return ast.copy_location(ast.Constant(obj), expr)
        return self.atom(expr, out, base)

    def name(self, node: ast.Name):
        if node.id in self.locals:
            return name(node.id)
        if node.id in ("True", "False"):
            return ast.Constant(node.id == "True")
        found, obj = self.resolver.lookup(node.id)
        if found:
            if isinstance(obj, (bool, int, float, np.integer, np.floating)):
                v = obj.item() if isinstance(obj, np.generic) else obj
                return ast.copy_location(ast.Constant(v), node)
            if isinstance(obj, np.ndarray):
                self.global_arrays[node.id] = obj
                self.arrays.add(node.id)
                return name(node.id)
        raise self.err(node, f"name `{node.id}` that is neither local nor a numeric global",
                       "pass it as an argument")

    def rhs(self, expr, out, base):
        """One operation on atoms (an AST expression), or a list of atoms for tuple results."""
        if is_lapack(expr):
            return self.lapack_call(expr)
        if isinstance(expr, (ast.Constant, ast.Name)):
            return self.atom(expr, out, base)
        if isinstance(expr, ast.BinOp):
            if isinstance(expr.op, ast.MatMult):
                if getattr(expr, "adtrans_linalg", None) is None:
                    raise self.err(expr, "matrix product `@`", "write the loops")
                return self.blas_product(expr)
            l = self.atom(expr.left, out, base)
            r = self.atom(expr.right, out, base)
            return ast.copy_location(ast.BinOp(left=l, op=expr.op, right=r), expr)
        if isinstance(expr, ast.UnaryOp):
            v = self.atom(expr.operand, out, base)
            return ast.copy_location(ast.UnaryOp(op=expr.op, operand=v), expr)
        if isinstance(expr, ast.Compare):
            if len(expr.ops) == 1 and isinstance(expr.ops[0], (ast.In, ast.NotIn)) and \
                    isinstance(expr.comparators[0], (ast.Tuple, ast.List)) and expr.comparators[0].elts:
                # `m in ("minmod", "mc")`: one (in)equality per element, short-circuited as Python does
                eq, join = (ast.Eq, ast.Or) if isinstance(expr.ops[0], ast.In) else (ast.NotEq, ast.And)
                left = expr.left if isinstance(expr.left, (ast.Name, ast.Constant)) else self.atom(expr.left, out, base)
                parts = [ast.copy_location(ast.Compare(left=copy.deepcopy(left), ops=[eq()], comparators=[e]), expr)
                         for e in expr.comparators[0].elts]
                return self.rhs(parts[0] if len(parts) == 1 else
                                ast.copy_location(ast.BoolOp(op=join(), values=parts), expr), out, base)
            if len(expr.ops) == 1:
                l = self.compared(expr.left, expr.ops[0], out, base)
                r = self.compared(expr.comparators[0], expr.ops[0], out, base)
                return ast.copy_location(ast.Compare(left=l, ops=expr.ops, comparators=[r]), expr)
            parts, left = [], expr.left
            for op, right in zip(expr.ops, expr.comparators):
                parts.append(ast.copy_location(ast.Compare(left=left, ops=[op], comparators=[right]), expr))
                left = right
            return self.rhs(ast.copy_location(ast.BoolOp(op=ast.And(), values=parts), expr), out, base)
        if isinstance(expr, ast.BoolOp):
            # short-circuit evaluation, as Python does
            t = self.fresh(base + "_cond" if not base.endswith("cond") else base)
            self.assign_expr(t, expr.values[0], out, expr)
            for v in expr.values[1:]:
                rest = []
                self.assign_expr(t, v, rest, expr)
                test = name(t) if isinstance(expr.op, ast.And) else ast.UnaryOp(op=ast.Not(), operand=name(t))
                if isinstance(test, ast.UnaryOp):
                    n = self.fresh(t + "_not")
                    out.append(ast.copy_location(ast.Assign(targets=[name(n, True)], value=test), expr))
                    test = name(n)
                out.append(ast.copy_location(ast.If(test=test, body=rest or [ast.Pass()], orelse=[]), expr))
            return name(t)
        if isinstance(expr, ast.IfExp):
            c = self.atom(expr.test, out, base + "_cond")
            if isinstance(c, ast.Constant):      # `a if False else b`, `x if DEBUG else y`: one branch
                return self.atom(expr.body if c.value else expr.orelse, out, base)
            t = self.fresh(base)
            body, orelse = [], []
            self.assign_expr(t, expr.body, body, expr)
            self.assign_expr(t, expr.orelse, orelse, expr)
            out.append(ast.copy_location(ast.If(test=c, body=body or [ast.Pass()], orelse=orelse), expr))
            return name(t)
        if isinstance(expr, ast.Subscript):
            if isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape":
                arr = self.atom(expr.value.value, out, base)
                idx = self.atom(expr.slice, out, base)
                return ast.copy_location(ast.Subscript(value=ast.Attribute(value=arr, attr="shape", ctx=ast.Load()),
                                                       slice=idx, ctx=ast.Load()), expr)
            arr, idx = self.subscript_parts(expr, out)
            return ast.copy_location(ast.Subscript(value=name(arr), slice=idx, ctx=ast.Load()), expr)
        if isinstance(expr, ast.Attribute):
            lowered = self.ext.attribute(self, expr, out, base) if self.ext is not None else None
            if lowered is not None:
                return lowered
            dotted = self.resolver.dotted(expr)
            if isinstance(expr.value, ast.Name) and expr.value.id in self.locals and expr.attr in ("size", "ndim"):
                return ast.copy_location(ast.Attribute(value=name(expr.value.id), attr=expr.attr,
                                                       ctx=ast.Load()), expr)
            if dotted:
                found, obj = self.resolver.lookup(dotted)
                if found and isinstance(obj, (int, float)):
                    return ast.Constant(obj)
                canon = self.resolver.canonical(dotted)
                if canon in ("math.pi", "numpy.pi"):
                    return ast.Constant(math.pi)
                if canon in ("math.e", "numpy.e"):
                    return ast.Constant(math.e)
            raise self.err(expr, f"attribute `{ast.unparse(expr)}`", "use array elements, .shape[k] or constants")
        if isinstance(expr, ast.Call):
            return self.call(expr, out, want=1, base=base)
        if isinstance(expr, ast.Tuple):
            return [self.atom(e, out, base) for e in expr.elts]
        constructs = {ast.Lambda: "lambda", ast.ListComp: "list comprehension", ast.GeneratorExp: "generator",
                      ast.Yield: "generator (yield)", ast.YieldFrom: "generator (yield from)",
                      ast.List: "list", ast.Dict: "dict", ast.Set: "set", ast.DictComp: "dict comprehension",
                      ast.SetComp: "set comprehension", ast.JoinedStr: "f-string", ast.NamedExpr: "walrus `:=`",
                      ast.Starred: "starred expression"}
        if isinstance(expr, ast.List):
            raise self.err(expr, "list", "bind an array literal to a name first (A = np.array([...])), or build "
                                         "a list with L = [] and L.append(v)")
        raise self.err(expr, constructs.get(type(expr), type(expr).__name__),
                       "keep kernels to scalar arithmetic, array elements and loops")

    def blas_product(self, expr):
        """A BLAS statement's right-hand side made by the array lowering (``A @ B``, ``A.T @ B``):
        kept whole, its operands resolved; tagged ``adtrans_linalg`` (the result's ndim)."""
        def operand(x):
            if isinstance(x, ast.Attribute):
                return ast.Attribute(value=self.name(x.value), attr="T", ctx=ast.Load())
            return self.name(x)
        node = ast.copy_location(ast.BinOp(left=operand(expr.left), op=ast.MatMult(),
                                           right=operand(expr.right)), expr)
        node.adtrans_linalg, node.adtrans_position = expr.adtrans_linalg, expr.adtrans_position
        return node

    def lapack_call(self, expr):
        """A LAPACK call the array lowering kept whole (``np.linalg.solve(A, b)``,
        ``np.linalg.slogdet(A)[1]``): kept, its operands resolved, its tags copied."""
        node = copy.deepcopy(expr)
        call = node.value if isinstance(node, ast.Subscript) else node
        call.args = [self.name(a) for a in call.args]
        return node

    def subscript_parts(self, node: ast.Subscript, out):
        if not isinstance(node.value, ast.Name):
            raise self.err(node, f"indexing `{ast.unparse(node.value)}`", "index an array variable: A[i, j]")
        arr = self.name(node.value).id if node.value.id not in self.locals else node.value.id
        sl = node.slice
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        atoms = []
        for e in elts:
            if isinstance(e, ast.Slice):
                raise self.err(node, f"slice `{ast.unparse(node)}` inside a kernel",
                               "write an explicit loop over the elements")
            atoms.append(self.atom(e, out, arr + "_index" if not isinstance(e, ast.Name) else "idx"))
        idx = atoms[0] if len(atoms) == 1 else ast.Tuple(elts=atoms, ctx=ast.Load())
        return arr, idx

    # ----------------------------------------------------------------- calls
    def call(self, expr: ast.Call, out, want=1, base="t"):
        """Classify and lower a call.  ``want``: number of results (0 for a statement)."""
        dotted = self.resolver.dotted(expr.func)
        if dotted is None:
            raise self.err(expr, f"call of `{ast.unparse(expr.func)}`", "call a function by name")
        if any(isinstance(a, ast.Starred) for a in expr.args):
            raise self.err(expr, "starred arguments", "pass arguments one by one")
        canon = self.resolver.canonical(dotted)
        if lacking(canon) is not None:
            raise self.err(expr, f"`{canon}()`, which Numba does not compile", lacking(canon))
        if self.ext is not None:
            lowered = self.ext.call(self, expr, canon, out, want, base)
            if lowered is not NotImplemented:
                return lowered
        found, obj = self.resolver.lookup(dotted)
        helper = None
        if dotted in self.closures:
            helper = self.closures[dotted]
        elif found and is_helper_object(obj):
            helper = obj
        elif not found and self.resolver.globals is None and dotted in self.resolver.file_functions:
            helper = dotted
        if helper is not None:
            return self.inline(helper, expr, out, want, base)
        key = intrinsic_of(obj=obj) if found else intrinsic_of(dotted=canon)
        if key is None and not found:
            key = intrinsic_of(dotted=canon)
        if key is not None and key != "float" or (key == "float" and canon == "builtins.float"):
            if expr.keywords:
                raise self.err(expr, f"keyword arguments to {dotted}", "pass them positionally")
            if key in ("min", "max") and len(expr.args) > 2:
                acc = self.atom(expr.args[0], out, base)
                for a in expr.args[1:-1]:
                    acc = self.atom(ast.copy_location(ast.Call(func=expr.func, args=[acc, a], keywords=[]), expr),
                                    out, base)
                return self.call(ast.copy_location(ast.Call(func=expr.func, args=[acc, expr.args[-1]],
                                                            keywords=[]), expr), out, want, base)
            args = [self.atom(a, out, base) for a in expr.args]
            node = ast.Call(func=ast.parse(spelling(key), mode="eval").body, args=args, keywords=[])
            node.adtrans_args = [ast.unparse(a) for a in expr.args]     # the user's spelling, for errors
            node.adtrans_kind, node.adtrans_intrinsic = "intrinsic", key
            return ast.copy_location(node, expr)
        short = canon.split(".")[-1]
        if canon.startswith("numpy.") and short in ALLOCATORS:
            args = []
            for a in expr.args:
                if isinstance(a, ast.Tuple):
                    args.append(ast.Tuple(elts=[self.atom(e, out, "shape") for e in a.elts], ctx=ast.Load()))
                elif isinstance(a, ast.Attribute) and a.attr == "shape" and isinstance(a.value, ast.Name):
                    arr = self.atom(a.value, out, "shape")       # np.zeros(x.shape): kept whole
                    args.append(ast.Attribute(value=arr, attr="shape", ctx=ast.Load()))
                elif isinstance(a, ast.Attribute) and (a.attr == "dtype" or self.resolver.dotted(a) and
                                                       self.resolver.canonical(self.resolver.dotted(a))
                                                       .split(".")[-1] in DTYPES):
                    args.append(self._dtype(a))
                else:
                    args.append(self.atom(a, out, "shape"))
            kws = []
            for kw in expr.keywords:
                if kw.arg != "dtype":
                    raise self.err(expr, f"keyword `{kw.arg}` of np.{short}", "only dtype= is supported")
                kws.append(ast.keyword(arg="dtype", value=self._dtype(kw.value)))
            node = ast.Call(func=ast.parse(f"np.{short}", mode="eval").body, args=args, keywords=kws)
            node.adtrans_kind = "alloc"
            if want == 0:
                return None
            return ast.copy_location(node, expr)
        if canon in OPAQUE_CALLS or canon.replace("builtins.", "") in OPAQUE_CALLS:
            spell = OPAQUE_CALLS.get(canon) or OPAQUE_CALLS[canon.replace("builtins.", "")]
            def kwval(v):       # side='right'; np.histogram's range=(lo, hi)
                if isinstance(v, ast.Tuple):
                    return ast.Tuple(elts=[kwval(x) for x in v.elts], ctx=ast.Load())
                return v if isinstance(v, ast.Constant) else self.atom(v, out, base)
            args = [kwval(a) if isinstance(a, ast.Tuple) else self.atom(a, out, base) for a in expr.args]
            kws = [ast.keyword(arg=k.arg, value=kwval(k.value)) for k in expr.keywords]
            node = ast.Call(func=ast.parse(spell, mode="eval").body, args=args, keywords=kws)
            node.adtrans_kind = "opaque"
            return ast.copy_location(node, expr)
        if canon in ("builtins.print",):
            if want != 0:
                raise self.err(expr, "the value of print()", "call print() as a statement")
            return print_call(self, expr, out)
        module, _, short = canon.partition(".")
        if module in ("math", "numpy") and short.isidentifier() and (not found or callable(obj)) and not expr.keywords:
            # no derivative rule: fine with constant arguments; refused in the transform if one is active
            args = [self.atom(a, out, base) for a in expr.args]
            spell = ("np." if module == "numpy" else "math.") + short
            node = ast.Call(func=ast.parse(spell, mode="eval").body, args=args, keywords=[])
            node.adtrans_kind = "norule"
            node.adtrans_args = [ast.unparse(a) for a in expr.args]     # the user's spelling, for errors
            return ast.copy_location(node, expr)
        if is_draw_name(canon) or canon.startswith("numba.cuda.random."):
            return self.draw(expr, canon, dotted, out, want)
        if type(obj).__name__ == "StencilFunc":
            raise self.err(expr, f"the @numba.stencil kernel `{dotted}`",
                           "write its loop over the interior (`out[i] = a[i - 1] - 2 * a[i] + a[i + 1]`) "
                           "or the slices (`a[:-2] - 2 * a[1:-1] + a[2:]`)")
        raise self.err(expr, f"call to `{dotted}`, which has no adjoint rule",
                       "use math/NumPy scalar functions or decorate the helper with @njit")

    def draw(self, expr, canon, dotted, out, want):
        """A call of NumPy's generator, as :mod:`.draws` leaves them: ``np.random.seed(s)`` as a
        statement, or the value stored into a draw buffer (``draws[draws_len] = np.random.random()``);
        both tagged ``adtrans_kind = "draw"`` (:func:`adtrans.ir.walk.forward_only`)."""
        if self.p.cuda:
            raise self.err(expr, f"random numbers drawn in a CUDA kernel (`{dotted}`)",
                           "draw them before the launch and pass them in as an array, or generate them with "
                           "numba.cuda.random (xoroshiro128p) in a kernel of their own and pass that array")
        short = canon.split(".")[-1]
        if expr.keywords:
            raise self.err(expr, f"keyword arguments to {dotted}", "pass them positionally")
        args = [self.atom(a, out, "draw_arg") for a in expr.args]
        node = ast.copy_location(ast.Call(func=ast.parse(f"np.random.{short}", mode="eval").body, args=args,
                                          keywords=[]), expr)
        node.adtrans_kind = "draw"
        node.adtrans_args = [ast.unparse(a) for a in expr.args]
        if want == 0:           # np.random.seed(s) (draws.py leaves no other draw statement)
            out.append(ast.copy_location(ast.Expr(value=node), expr))
            return None
        if short == "seed":
            raise self.err(expr, "the value of np.random.seed()", "call it as a statement")
        return node

    def _dtype(self, node):
        named = string_dtype(node)
        if named is not None:
            return named
        dotted = self.resolver.dotted(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
        if dotted:
            short = self.resolver.canonical(dotted).split(".")[-1]
            if short in DTYPES:
                return ast.parse(f"np.{short}", mode="eval").body
            if short in ("float", "int", "bool"):
                return ast.parse({"float": "np.float64", "int": "np.int64", "bool": "np.bool_"}[short],
                                 mode="eval").body
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and isinstance(node.value, ast.Name):
            return node     # x.dtype
        raise self.err(node, f"dtype `{ast.unparse(node)}`", "use np.float64, np.float32, np.int64 ...")

    def helper_of(self, call):
        """The jitted helper a call names (object, or file-function name), else None."""
        dotted = self.resolver.dotted(call.func)
        if dotted in self.closures:
            return self.closures[dotted]
        found, obj = self.resolver.lookup(dotted) if dotted else (False, None)
        if found and is_helper_object(obj):
            return obj
        if dotted and not found and self.resolver.globals is None and dotted in self.resolver.file_functions:
            return dotted
        return None

    def helper_primal(self, helper):
        if isinstance(helper, Primal):
            return helper           # an inner function, lifted (.closures)
        return parse_file_function(self.p.filename, helper) if isinstance(helper, str) else parse_function(helper)

    def inner_closures(self, hp):
        """The inner functions an inlined ``hp`` may call: the kernel's, when ``hp`` is one of them."""
        return self.closures if any(c is hp for c in self.closures.values()) else None

    def helper_result_info(self, call, lowering):
        """(ndim, dtype) of each result of the helper ``call`` names (for the array lowering)."""
        return self.helper_result_summary(call, lowering)[0]

    def helper_result_summary(self, call, lowering):
        """(ndim, dtype) of each result of the helper ``call`` names, and per result whether it
        is an array the helper makes afresh (not one of its parameters, a view or a global)."""
        helper = self.helper_of(call)
        hp = self.helper_primal(helper)
        if hp.name in self.stack:
            raise self.err(call, f"recursive call to {hp.name}", "rewrite the recursion as a loop")
        arrays, views = lowering.arg_infos(hp.params, call.args)
        arrays.update({p: (len(v.axes), v.dtype) for p, v in views.items()})
        # the summary depends on the helper and its array parameters' (ndim, dtype) only: one
        # normalisation of the helper per such signature (LULESH's gather8, called for six arrays)
        key = (helper if isinstance(helper, str) else id(helper), tuple(sorted(arrays.items(), key=lambda kv: kv[0])))
        memo = self.__dict__.setdefault("_summaries", {})
        hit = memo.get(key)
        if hit is not None and (hit[0] is helper or isinstance(helper, str)):
            return hit[1]
        nz = Normaliser(hp, arrays, NameAllocator(names_in(hp.tree)), self.stack,
                        Resolver(hp) if hp.globals is not None or hp.filename != self.p.filename
                        else self.resolver, ext=self.ext, closures=self.inner_closures(hp))
        inner = nz.run()
        infos = inner.result_info or [(0, "float64")] * len(inner.results)
        fresh = getattr(nz.lowering, "result_fresh", None) or [False] * len(infos)
        memo[key] = (helper, (infos, fresh))
        return infos, fresh

    def inline(self, helper, expr: ast.Call, out, want, base):
        hp = self.helper_primal(helper)
        if hp.name in self.stack:
            raise self.err(expr, f"recursive call to {hp.name}", "rewrite the recursion as a loop")
        args = [self.atom(a, out, hp.name + "_arg") for a in bind_call(hp, expr, self.err)]
        array_params = {p for p, a in zip(hp.params, args) if isinstance(a, ast.Name) and a.id in self.arrays}
        ndims = {p: self.ndims[a.id] for p, a in zip(hp.params, args) if p in array_params and a.id in self.ndims}
        inner_alloc = NameAllocator(names_in(hp.tree))
        views, placeholders = {}, {}
        if self.lowering is not None:
            info, caller_views = self.lowering.arg_infos(hp.params, args)
            array_params = {p: info[p] for p in array_params if p in info} if \
                all(p in info for p in array_params) else array_params
            views, placeholders = self.lowering.helper_views(caller_views, inner_alloc)
        lists = {p: self.list_params[a.id] for p, a in zip(hp.params, args)
                 if isinstance(a, ast.Name) and a.id in self.list_params}
        inner = Normaliser(hp, array_params, inner_alloc, self.stack,
                           Resolver(hp) if hp.globals is not None or hp.filename != self.p.filename
                           else self.resolver, ext=self.ext, views=views, ndims=ndims, list_params=lists,
                           closures=self.inner_closures(hp)).run()
        self.global_arrays.update(inner.global_arrays)
        # rename: array parameters -> caller's arrays, everything else -> fresh names
        mapping = dict(placeholders)
        for p, a in zip(hp.params, args):
            if p in array_params:
                mapping[p] = a.id
        local_names = {n.id for s in inner.body for n in iter_nodes(s)
                       if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        local_names |= set(inner.params) | set(inner.results)
        for n in sorted(local_names):
            if n not in mapping and n not in inner.global_arrays:
                mapping[n] = self.fresh(f"{hp.name}_{n}")
        for p, a in zip(hp.params, args):
            if p not in array_params and p not in views:
                out.append(ast.copy_location(ast.Assign(targets=[name(mapping[p], True)], value=a), expr))
        renamer = Rename(mapping)
        for s in inner.body:
            out.append(renamer.visit(copy.deepcopy(s)))
        for n in inner.arrays:
            if n in mapping:
                self.arrays.add(mapping[n])
        self.locals |= set(mapping.values())
        results = [name(mapping[r]) for r in inner.results]
        if want == 0:
            return None
        if want == -1:
            return results if len(results) != 1 else results[0]
        if want == 1:
            if len(results) != 1:
                raise self.err(expr, f"{hp.name} returns {len(results)} values, used as one",
                               "unpack its results")
            return results[0]
        if len(results) != want:
            raise self.err(expr, f"{hp.name} returns {len(results)} values, unpacked into {want}")
        return results


def normalise(primal: Primal, array_params, ext=None, scalar_types=None, ndims=None,
              list_params=None, blas=True, layouts=None, none_params=None) -> Normalised:
    """Lower ``primal`` to three-address form; ``array_params``: which parameters are arrays (a set,
    or a dict name -> (ndim, dtype) to lower whole-array NumPy code); ``scalar_types``: dtype name of
    the scalar parameters (for the dtypes of lowered arrays); ``ndims``: numbers of dimensions of the
    arrays (when ``array_params`` is a set); ``list_params``: list arguments, name -> element dtype
    (read-only constants, see :mod:`.lists`); ``blas``: matrix products at function level may stay
    BLAS statements (False: every product becomes loops, for adjoints differentiated again);
    ``layouts``: Numba layout (``"C"``, ``"F"``, ``"A"``) of the array parameters (missing: ``"C"``)."""
    blas_off, defer_off = set(), set()
    while True:
        n = Normaliser(primal, array_params, ext=ext, ndims=ndims, list_params=list_params)
        n.scalar_types = dict(scalar_types or {})
        n.none_params = dict(none_params or {})
        n.blas_off = blas_off
        n.defer_off = defer_off
        n.blas = blas
        n.layouts = dict(layouts or {})
        try:
            norm = n.run()
        except Retry as retry:      # temporaries read as arrays after all: materialise them
            defer_off = defer_off | retry.names
            continue
        overwritten = overwritten_products(norm.body, norm.arrays) - blas_off
        if not overwritten:
            return norm
        blas_off = blas_off | overwritten     # lower those products to loops and normalise again


def _array_roots(body, arrays):
    """``root(a)``: the array a top-level name ``a`` is a second name for (``u = v``)."""
    alias = {}
    for s, _ in iter_stmts(body):
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name) \
                and s.targets[0].id in arrays and s.value.id in arrays:
            alias[s.targets[0].id] = s.value.id

    def root(a):
        seen = set()
        while a in alias and a not in seen:
            seen.add(a)
            a = alias[a]
        return a
    return root


def _first_write(stmts, arrays: set, root):
    """The first statement of ``stmts`` (nested ones included) that writes, rebinds or passes to
    a call one of ``arrays``, and that array (else None)."""
    for t, _ in iter_stmts(stmts):
        hit = array_target(t) or scalar_target(t)
        if hit is not None and root(hit) in arrays:
            return t, root(hit)
        if isinstance(t, ast.Expr):
            called = {root(x) for x in reads(t)} & arrays
            if called:
                return t, min(called)
    return None


def overwritten_products(body, arrays) -> set:
    """Positions (``adtrans_position``) of the BLAS products in ``body`` an operand of which is
    written, rebound or passed to a call after the product: the product's array-level adjoint
    reads its operands at the end of the forward sweep, so those are lowered to loops instead
    (whose strategies save what is overwritten)."""
    root = _array_roots(body, arrays)
    out = set()
    for k, s in enumerate(body):
        if not (isinstance(s, ast.Assign) and is_product(s.value)):
            continue
        ops = {root(a) for a in product_operands(s.value)}
        if _first_write(body[k + 1:], ops, root) is not None:
            out.add(s.value.adtrans_position)
    return out

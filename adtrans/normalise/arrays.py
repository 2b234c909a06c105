"""Whole-array NumPy statements -> scalar loops (runs after :mod:`.jumps`, before :mod:`.threeaddr`).

See :mod:`.arrayvalues` for the values (views, broadcast element functions) and the
table of supported NumPy names.  Entry point: :meth:`ArrayLowering.run`.  Every
statement it writes carries the position of the user's statement it came from, so
``# adjoint of:`` comments and errors name the user's line.
"""
from __future__ import annotations

import ast
import copy
import itertools
import os

import numpy as np

from .arrayvalues import (COMPARE_UFUNCS, ELEMENTWISE_BINOPS, METHODS, NUMBA_MISSING, REDUCTIONS, TABLE, Axis,
                          Gen, Ref, Scalar, is_helper_object, _shape,
                          View, ViewAxis, C, N, split_offset, add, broadcast, bidx, elementwise, is_const,
                          join_dtypes, located, mul, same, sub)
from .arrayfuncs import CONSTANT_CALLS, REWRITES, VALUES, constant_call, constant_ndim, rewrite_calls
from ..parse import is_vectorized
from ..rules.derivatives import LAPACK, intrinsic_of
from ..ir.walk import iter_nodes
from .deferred import deferrable
from .ellipsis import expand_ellipsis
from .varlength import REGION_MISMATCH, note_data_shaped, rebinding_note, refuse_varying_rebinding

ALLOC = {"zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like"}
FLOAT_UFUNCS_KEEP = {"abs", "min", "max", "sign"}
DTYPE_NAMES = {"float64": "float64", "float32": "float32", "int64": "int64", "int32": "int64", "intp": "int64",
               "bool_": "bool", "float": "float64", "int": "int64", "bool": "bool", "float_": "float64"}



def _const_int(e):
    """The value of an integer constant ``e`` (also ``-3``), else None."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        v = _const_int(e.operand)
        return None if v is None else -v
    return e.value if isinstance(e, ast.Constant) and type(e.value) is int else None


def _single_element(sl) -> int | None:
    """``a`` when the slice ``sl`` is ``a:a + 1`` with constant bounds and step 1 (``:1``, ``-1:``,
    ``-3:-2``), else None."""
    if sl.step is not None and _const_int(sl.step) != 1:
        return None
    lo = 0 if sl.lower is None else _const_int(sl.lower)
    hi = None if sl.upper is None else _const_int(sl.upper)
    if lo is None or (sl.upper is not None and hi is None):
        return None
    if hi is None:
        return lo if lo == -1 else None
    return lo if hi == lo + 1 and hi != 0 else None

class ArrayLowering:
    """Rewrites the whole-array statements of one kernel body (one :class:`Normaliser`).

    ``info``: array name -> (ndim, dtype) for parameters/globals; ``views``: view name ->
    :class:`View` known on entry (a helper's view parameters).  After :meth:`run`,
    ``result_info`` holds (ndim, dtype) per returned value (ndim 0: scalar).
    """

    def __init__(self, norm, info, views=None, scalar_types=None):
        self.n = norm
        self.info = dict(info)
        self.views = dict(views or {})
        self.sdt = dict(scalar_types or {})
        self.result_info: list = []
        self.seed_params: list = []      # (name, ndim, dtype) of the seeds of returned arrays
        self.data_shaped: dict = {}      # arrays whose length is the data's -> where made (varlength.py)
        self.rebinding = None            # (name, statement) while `x = f(x)` is written into x's array
        self.np = self._numpy_alias()
        self.params = set(norm.p.params)
        self.depth = 0
        self.pranges = 0                 # prange loops around the statement being lowered
        self.renames: dict = {}
        self.shared: set = set()         # arrays another name also refers to (`u = v` at top level)
        self.first_copy: dict = {}       # argument name -> (its array, the copy it names, the flag), see own_rebound
        self.hand_back_at_end: list = []  # (name, array, copy, flag) handed back before the return
        self.slot_of: dict = {}          # array a cycle of names exchanges -> int name: its slot (own_cycles)
        self.cycle_back: list = []       # (array, slot name, [(slot, argument)], exchange) handed back at return
        self.levels: list = []           # [statements, index] of the bodies being lowered, outermost first
        self.blas_extents: dict = {}     # BLAS product -> its extents (from the operands' shapes)
        self.unit_axes: dict = {}        # local array -> its axes of extent 1 by construction
        self.stores: dict = {}           # name -> how many statements of the kernel bind it
        self.loads: set = set()          # names the kernel reads somewhere
        self.counters: set = set()       # range-loop counters bound nowhere else (never negative)
        self.masks: dict = {}            # mask expression -> its positions, within one statement
        self.deferred: dict = {}         # element-wise temporary -> its Gen, computed at its uses (.deferred)
        self.deferred_reads: dict = {}   # such a temporary -> the names its elements read

    # ---------------------------------------------------------------- basics
    def _numpy_alias(self):
        r = self.n.resolver
        if r.globals is not None:
            for k, v in sorted(r.globals.items()):
                if type(v).__name__ == "module" and getattr(v, "__name__", "") == "numpy":
                    return k
        for k, v in sorted(r.imports.items()):
            if v == "numpy":
                return k
        return "np"

    def npf(self, attr):
        return ast.Attribute(value=N(self.np), attr=attr, ctx=ast.Load())

    def err(self, node, construct, hint=""):
        return self.n.err(node, construct, hint)

    def fresh(self, base):
        return self.n.fresh(base)

    def canon(self, func):
        dotted = self.n.resolver.dotted(func)
        if dotted is None:
            return None
        return self.n.resolver.canonical(dotted)

    def numpy_name(self, func):
        """``sum`` for ``np.sum``, ``linalg.norm`` for ``np.linalg.norm``, else None."""
        c = self.canon(func)
        if c and c.startswith("numpy."):
            return c[len("numpy."):]
        return None

    def function_of(self, call):
        """``(name, receiver)``: the NumPy function ``call`` is (``sum`` for ``np.sum(x)``, receiver
        None) or lowers to (``x.sum()`` -> ``sum``, receiver ``x``, by :data:`METHODS`), else
        ``(None, None)``.  A method's receiver is the function's first argument."""
        name = self.numpy_name(call.func)
        if name is None and isinstance(call.func, ast.Attribute) and call.func.attr in METHODS and \
                self.ndim(call.func.value) > 0:
            return METHODS[call.func.attr], call.func.value
        return name, None

    def vectorized(self, call) -> bool:
        """Is ``call`` a ``@vectorize`` ufunc applied to at least one array (element-wise)?"""
        dotted = self.n.resolver.dotted(call.func)
        if dotted is None or call.keywords:
            return False
        found, obj = self.n.resolver.lookup(dotted)
        return found and is_vectorized(obj) and any(self.ndim(a) > 0 for a in call.args)

    def is_helper(self, call):
        dotted = self.n.resolver.dotted(call.func)
        if dotted is None:
            return False
        if dotted in self.n.closures:       # an inner function of the kernel (.closures)
            return True
        found, obj = self.n.resolver.lookup(dotted)
        if found and is_helper_object(obj):
            return True
        return not found and self.n.resolver.globals is None and dotted in self.n.resolver.file_functions

    # ------------------------------------------------------------ shape facts
    def array_info(self, nm):
        if nm in self.views:
            v = self.views[nm]
            return len(v.axes), v.dtype
        if nm in self.info:
            return self.info[nm]
        if nm not in self.n.locals:
            found, obj = self.n.resolver.lookup(nm)
            if found and type(obj).__name__ == "ndarray":
                self.n.name(ast.Name(id=nm, ctx=ast.Load()))      # registers the global array
                self.info[nm] = (obj.ndim, _dt(str(obj.dtype)))
                return self.info[nm]
        return None

    def ndim(self, e) -> int:
        """Static number of dimensions of ``e`` (0: scalar)."""
        if isinstance(e, ast.Name):
            i = self.array_info(e.id)
            return i[0] if i else 0
        if isinstance(e, ast.Constant):
            return 0
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
                return 0
            part = self.lapack_part(e)
            if part is not None:
                nd = LAPACK[part[0]].parts[part[1]].ndim
                return self.ndim(e.value.args[-1]) if nd == "b" else int(nd)
            d = self.ndim(e.value)
            if d == 0:
                return 0
            elts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
            if any(self.ndim(x) > 0 for x in elts if not isinstance(x, ast.Slice)):
                if len(elts) != 1:                         # x[r, c]: broadcast(r, c).shape + x.shape[2:]
                    _, lead = self.advanced_indices(e)
                    return max(self.ndim(x) for x in lead) + d - len(lead)
                return self.ndim(elts[0]) + d - 1          # a gather x[idx]: idx.shape + x.shape[1:]
            out = d
            for x in elts:
                if self.newaxis(x):
                    out += 1
                elif isinstance(x, ast.Slice):
                    pass
                else:
                    out -= 1
            return out
        if isinstance(e, ast.Attribute):
            if e.attr == "T":
                return self.ndim(e.value)
            if e.attr in ("real", "flat"):
                return self.ndim(e.value)
            return 0
        if isinstance(e, ast.BinOp):
            l, r = self.ndim(e.left), self.ndim(e.right)
            if isinstance(e.op, ast.MatMult):
                return _matmul_ndim(l, r)
            return max(l, r)
        if isinstance(e, ast.UnaryOp):
            return self.ndim(e.operand)
        if isinstance(e, ast.Compare):
            return max([self.ndim(e.left)] + [self.ndim(c) for c in e.comparators])
        if isinstance(e, ast.BoolOp):
            return max(self.ndim(v) for v in e.values)
        if isinstance(e, ast.IfExp):
            return max(self.ndim(e.body), self.ndim(e.orelse))
        if isinstance(e, ast.Call):
            return self.call_ndim(e)
        return 0

    def call_ndim(self, e):
        f = e.func
        name, recv = self.function_of(e)
        args = ([recv] if recv is not None else []) + list(e.args)
        if name is None:
            if self.vectorized(e):
                return max(self.ndim(a) for a in e.args)
            if self.is_helper(e):
                infos = self.helper_results(e)
                return infos[0][0] if len(infos) == 1 else 0
            return self.target_allocation(e) or 0
        kw = {k.arg: k.value for k in e.keywords}
        if name in REWRITES:
            return self.ndim(REWRITES[name](self, e, args, kw))
        if name in VALUES:
            return VALUES[name][0](self, e, args, kw)
        if name in CONSTANT_CALLS:
            return constant_ndim(self, name, e, args)
        nd = [self.ndim(a) for a in args if not isinstance(a, (ast.Tuple, ast.List))]
        if name in REDUCTIONS or name in ("amax", "amin"):
            if name in ("any", "all") or _axis(e, recv) is None:
                return 0
            return max(nd[0] - 1, 0)
        if name in ("dot", "matmul"):
            return _matmul_ndim(nd[0], nd[1])
        if name == "linalg.norm":
            axis = self.norm_args(e, args)[1]
            return 0 if axis is None else max(nd[0] - 1, 0)
        if name in ("vdot", "trace", "linalg.det", "linalg.cond") or (name in LAPACK and LAPACK[name].parts):
            return 0
        if name in LAPACK and LAPACK[name].ndim in ("1", "2"):
            return int(LAPACK[name].ndim)
        if name == "linalg.solve":
            return nd[1] if len(nd) > 1 else 0
        if name in ("zeros", "ones", "empty", "full"):
            s = args[0] if args else kw.get("shape")
            return self.shape_len(s)
        if name in ("zeros_like", "ones_like", "empty_like", "full_like", "copy", "ascontiguousarray", "cumsum",
                    "astype", "clip", "negative", "square"):
            if name == "cumsum" and _axis(e, recv) is None:
                return 1
            return nd[0]
        if name in ("arange", "linspace", "ravel", "flatten", "sort", "argsort"):
            return 1
        if name in ("eye", "outer", "triu", "tril"):
            return 2
        if name == "diag":
            return 2 if nd[0] == 1 else 1
        if name == "reshape":
            s = args[1:] if recv is not None else args[1:2]
            if recv is not None and len(e.args) > 1:
                return len(e.args)
            return self.shape_len(s[0]) if s else 0
        if name == "transpose":
            return nd[0]
        if name in ("hstack", "vstack", "concatenate", "stack"):
            parts = args[0].elts if isinstance(args[0], (ast.Tuple, ast.List)) else []
            d = max((self.ndim(p) for p in parts), default=1)
            if name == "stack" or (name == "vstack" and d == 1):
                return d + 1
            return d
        if name == "where":
            return max(self.ndim(a) for a in args)
        if name in ELEMENTWISE_BINOPS or name in COMPARE_UFUNCS:
            return max(nd)
        if any(d > 0 for d in nd) or _scalar_of_scalars(name):
            # of arrays: the value lowering refuses a function it does not know, with the line
            return max(nd) if nd else 0
        # a NumPy function of scalars outside the table: its result may be an array (np.kaiser(M, b)
        # is one), so nothing is guessed
        raise self.err(e, f"np.{name} of scalars, which is not in adtrans' table of NumPy functions "
                       "(docs/supported.md)", _refusal_hint(name))

    def shape_len(self, s):
        if s is None:
            return 0
        if isinstance(s, (ast.Tuple, ast.List)):
            return len(s.elts)
        if isinstance(s, ast.Attribute) and s.attr == "shape":
            return self.ndim(s.value)
        return 1

    def sdtype(self, e):
        """dtype of a scalar expression (None: a Python number, which does not promote)."""
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool):
                return "bool"
            return None
        if isinstance(e, ast.Name):
            return self.sdt.get(e.id, "float64")
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
                return "int64"
            base = e.value
            while isinstance(base, ast.Subscript):      # `elems[e][0]` (unpacking a row): the array's dtype
                base = base.value
            if isinstance(base, ast.Name):
                i = self.array_info(base.id)
                if i:
                    return i[1]
            return "float64"
        if isinstance(e, ast.Compare) or isinstance(e, ast.BoolOp):
            return "bool"
        if isinstance(e, ast.BinOp):
            d = join_dtypes([self.sdtype(e.left) or "int64", self.sdtype(e.right) or "int64"]) \
                if isinstance(e.left, ast.Constant) and isinstance(e.right, ast.Constant) else \
                join_dtypes([self.sdtype(e.left), self.sdtype(e.right)])
            if isinstance(e.op, ast.Div) and d in ("int64", "bool"):
                return "float64"
            return d
        if isinstance(e, ast.UnaryOp):
            return self.sdtype(e.operand)
        if isinstance(e, ast.Call):
            c = self.canon(e.func) or ""
            if c in ("builtins.len", "builtins.int", "builtins.round"):
                return "int64"
            if c == "builtins.bool":
                return "bool"
        return "float64"

    # -------------------------------------------------------------- driver
    def run(self, body):
        if not self.levels:
            for n in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    self.stores[n.id] = self.stores.get(n.id, 0) + 1
                elif isinstance(n, ast.Name):
                    self.loads.add(n.id)
        out = []
        self.levels.append([body, 0])
        try:
            for k, s in enumerate(body):
                self.levels[-1][1] = k
                if self.depth == 0 and (self.hand_back_at_end or self.cycle_back) and isinstance(s, ast.Return):
                    out += self.hand_back_before_return(s)
                out += self.stmt(s)
            if self.depth == 0 and (self.hand_back_at_end or self.cycle_back) and body:
                out += self.hand_back_before_return(body[-1])
        finally:
            self.levels.pop()
        return out

    def stmt(self, s):
        pre = []
        owned = {}
        if self.depth == 0 and isinstance(s, (ast.For, ast.While, ast.If)):
            owned = self.own_rebound(s, pre)
        hand_back = self.hand_back(s) if self.first_copy else []
        s = self.rename(copy.deepcopy(s))       # the parsed primal is cached: never edit it
        s = expand_ellipsis(s, self.ndim, self.newaxis)     # r[..., 0] -> r[0], A[..., 1:] -> A[:, 1:]
        s = rewrite_calls(self, s)              # np.flip(x) -> x[::-1], np.ptp(x) -> max - min ...
        self.literal_dtype(s)
        self.masks = {}
        try:
            made = self._stmt(s, pre)
        except RecursionError:
            raise self.err(s, "array expression too deep") from None
        after = self.hand_back_after(owned, s) if owned else []
        return located(hand_back + pre + made + after, s)

    def rename(self, s):
        if not self.renames:
            return s
        mapping = self.renames

        class R(ast.NodeTransformer):
            def visit_AugAssign(self, node):     # `u += c` reads and writes the array `u` holds
                self.generic_visit(node)
                t = node.target
                if isinstance(t, ast.Name) and t.id in mapping and not getattr(t, "renamed", False):
                    node.target = ast.copy_location(N(mapping[t.id], True), t)
                    node.target.renamed = True
                return node

            def visit_Name(self, node):      # once: a read renamed to `x` is not renamed again
                if node.id in mapping and isinstance(node.ctx, ast.Load) and not getattr(node, "renamed", False):
                    new = ast.copy_location(N(mapping[node.id]), node)
                    new.renamed = True
                    return new
                return node
        return R().visit(s)

    def body(self, stmts):
        self.depth += 1
        saved = dict(self.renames)
        try:
            return self.run(stmts) or [ast.Pass()]
        finally:
            self.depth -= 1
            if self.renames != saved:
                self.renames = saved

    def _stmt(self, s, pre):
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            t = s.targets[0]
            if isinstance(t, ast.Name):
                return self.assign_name(t.id, s.value, pre, s)
            if isinstance(t, ast.Subscript):
                return self.assign_sub(t, s.value, None, pre, s)
            if isinstance(t, (ast.Tuple, ast.List)):
                return self.assign_tuple(s, pre)
            return [s]
        if isinstance(s, ast.AugAssign):
            t = s.target
            if isinstance(t, ast.Name) and self.ndim(t) > 0:
                return self.assign_sub(t, s.value, s.op, pre, s)
            if isinstance(t, ast.Subscript):
                return self.assign_sub(t, s.value, s.op, pre, s)
            s.value = self.scalar(s.value, pre)
            return [s]
        if isinstance(s, ast.AnnAssign) and s.value is not None:
            return self._stmt(ast.copy_location(ast.Assign(targets=[s.target], value=s.value), s), pre)
        if isinstance(s, ast.For):
            return self.for_(s, pre)
        if isinstance(s, ast.While):
            if self.has_array_work(s.test):
                flag = self.fresh("keep_going")
                first = self.stmt(ast.copy_location(ast.Assign(targets=[N(flag, True)], value=s.test), s))
                again = self.stmt(ast.copy_location(ast.Assign(targets=[N(flag, True)],
                                                               value=copy.deepcopy(s.test)), s))
                body = self.body(s.body)
                return first + [ast.copy_location(ast.While(test=N(flag), body=body + again, orelse=s.orelse), s)]
            s.test = self.scalar(s.test, pre)
            s.body = self.body(s.body)
            return [s]
        if isinstance(s, ast.If):
            s.test = self.scalar(s.test, pre)
            before = set(self.info)
            s.body = self.body(s.body)
            # an array first bound in the body is not bound on the else path: bound afresh there
            # (`if c: x = A @ b else: x = 2.0 * b`), not written into the body's array
            first = {x: self.info.pop(x) for x in set(self.info) - before} if s.orelse else {}
            s.orelse = self.body(s.orelse) if s.orelse else []
            for x, known in first.items():
                self.info.setdefault(x, known)
            return [s]
        if isinstance(s, ast.Return):
            return self.return_(s, pre)
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            c = s.value
            if isinstance(c.func, ast.Attribute) and c.func.attr == "sort" and self.ndim(c.func.value) > 0:
                # x.sort(): x[:] = np.sort(x) (through a temporary: the value reads x)
                return self.assign_sub(ast.Subscript(value=c.func.value, slice=ast.Slice(), ctx=ast.Store()),
                                       ast.copy_location(ast.Call(func=self.npf("sort"), args=[c.func.value] +
                                                                  list(c.args), keywords=c.keywords), c),
                                       None, pre, s)
            if isinstance(c.func, ast.Attribute) and c.func.attr == "fill" and self.ndim(c.func.value) > 0:
                return self.assign_sub(ast.Subscript(value=c.func.value, slice=ast.Slice(), ctx=ast.Store()),
                                       c.args[0], None, pre, s)
            s.value = self.scalar(c, pre)
            return [s]
        if isinstance(s, ast.Raise):
            return [s]
        return [s]

    def has_array_work(self, e):
        for n in iter_nodes(e):
            if isinstance(n, ast.Call) and self.ndim(n) == 0 and any(
                    self.ndim(a) > 0 for a in list(n.args) + ([n.func.value] if isinstance(n.func, ast.Attribute)
                                                                else [])):
                if not self.is_helper(n):
                    return True
        return False

    # ---------------------------------------------------------- assignments
    def assign_name(self, t, value, pre, s):
        value = self.same_array(value, t, s)
        nd = self.ndim(value)
        if nd == 0:
            if t in self.views:
                raise self.err(s, f"`{t}` bound to an array view and then to a scalar", "use two names")
            v = self.scalar(value, pre)
            self.sdt[t] = self.sdtype(value)
            return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=v), s)]
        bound = t in self.info or t in self.views or t in self.renames or t in self.params
        if bound and self.depth == 0:
            # straight-line rebinding (x = np.copy(x), x = x * 2, x = y): later statements read a new name
            if isinstance(value, ast.Name) and value.id not in self.views and self.array_info(value.id):
                self.alias(t, value.id)
                return []
            new = self.fresh(t)
            made = self.assign_name(new, value, pre, s)
            self.renames[t] = new
            return made
        if self.depth == 0 and isinstance(value, ast.Name) and value.id not in self.views \
                and self.array_info(value.id):
            self.alias(t, value.id)              # a second name for an array: one array
            return []
        cur = self.renames.get(t, t)
        if self.depth > 0 and isinstance(value, ast.Name) and value.id not in self.views \
                and self.array_info(value.id) and cur not in self.views:
            return self.alias_in_loop(t, cur, value.id, pre, s)
        if self.viewable(value):
            view = self.to_view(value, pre)
            if isinstance(value, ast.Name) and value.id not in self.views:
                self.info[t] = self.info[value.id]
                return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=N(value.id)), s)]
            return self.bind_view(t, view, pre, s)
        if t in self.views:
            raise self.err(s, f"`{t}` bound to an array view and then to a new array", "use two names")
        fresh_alloc = isinstance(value, ast.Call) and self.numpy_name(value.func) in ALLOC
        if self.depth > 0 and (cur in self.info or cur in self.params) and not fresh_alloc:
            # `a = f(a)`, also through temporaries (`m = 2 * a; a = m + 1`): written into a's array
            return self.rebind_in_place(t, cur, value, pre, s)
        copied = self.copied_array(value)
        if copied is not None:
            # `t = np.copy(src)`, `t = src.copy()`: one copy, straight into t's fresh array
            self.materialise_into(t, self.value(copied, pre), pre, s)
            return []
        if isinstance(value, ast.Call):
            made = self.assign_call(t, value, pre, s)
            if made is not None:
                return made
        arr = self.value(value, pre)
        if t not in self.info and t not in self.params and pre and _blas_result(pre[-1], arr):
            # P = A @ B: P is bound to the BLAS product itself (no copy loop)
            made = pre[-1].targets[0].id
            pre[-1].targets[0] = N(t, True)
            self.info[t] = self.info.pop(made)
            if made in self.blas_extents:
                self.blas_extents[t] = self.blas_extents.pop(made)
            return []
        if isinstance(arr, Gen) and self.depth == 0 and len(self.levels) == 1 and self.defer(t, value, arr):
            return []
        self.materialise_into(t, arr, pre, s)
        return []

    def same_array(self, value, t=None, s=None):
        """The array expression ``np.asarray(x)`` and ``np.ascontiguousarray(x)`` name when Numba
        returns ``x`` itself (no copy), so that the new name is a second name for it (or a view):
        ``np.asarray`` of any array name; ``np.ascontiguousarray`` of an array that is C-contiguous,
        a view included (``x[1:]``, ``a[i]``, ``a[i, 2:]``, ``a[1:3, :]``: :meth:`is_c_contiguous`).
        A strided or transposed view, an argument passed strided: Numba copies (:meth:`copied_array`).
        Views that only extents of 1 make contiguous (``x[::2]`` of two elements) count as copies."""
        if not (isinstance(value, ast.Call) and not value.keywords and len(value.args) == 1):
            return value
        fn, x = self.numpy_name(value.func), value.args[0]
        if fn == "asarray" and isinstance(x, ast.Name) and self.ndim(x) > 0:
            return x
        if fn == "ascontiguousarray" and self.ndim(x) > 0 and self.viewable(x):
            if self.is_c_contiguous(x):
                return x
            if t is not None and s is not None:
                self.refuse_layout_dependent_copy(t, x, s)
        return value

    def refuse_layout_dependent_copy(self, t, x, s) -> None:
        """``t = np.ascontiguousarray(x)`` of a view ``x`` not seen to be C-contiguous: Numba copies
        it, unless its extents make it C-contiguous at run time (``a.T`` of an (n, 1) array,
        ``x[::2]`` of two elements, ``a[:, j]`` of one row), when it returns the view itself.  The
        two agree unless ``t``, ``x`` or ``x``'s base is written somewhere in the kernel: then the
        gradient would depend on the run-time shape, and this is refused."""
        if isinstance(x, ast.Name) and x.id in self.params and x.id not in self.views:
            return          # an argument Numba types "A" is not C-contiguous: always a copy
        try:
            base = self.to_view(copy.deepcopy(x), []).base
        except Exception:       # noqa: BLE001 - not a view we can read
            return
        written = _written_arrays(self.levels[0][0], rebinding=False) if self.levels else set()
        written |= {self.renames.get(w, w) for w in written}
        names = {t, base} | ({x.id} if isinstance(x, ast.Name) else set())
        hit = sorted(names & written)
        if hit:
            raise self.err(s, f"`np.ascontiguousarray({ast.unparse(x)})` with `{hit[0]}` written in the kernel: "
                           "Numba returns the view itself when its run-time extents make it contiguous "
                           "and a copy otherwise, so the gradient would depend on the shape",
                           f"write `np.copy({ast.unparse(x)})` for a copy, or use the view itself")

    def is_c_contiguous(self, e) -> bool:
        """The viewable array expression ``e`` is C-contiguous: over an array Numba types C (or 1-D
        F), its axes the base's last axes in order, fixed indices before them, the first of them of
        step 1 and the others whole."""
        try:
            v = self.to_view(copy.deepcopy(e), [])
        except Exception:       # noqa: BLE001 - not a view we can read: Numba's copy is assumed
            return False
        layout = getattr(self.n, "layouts", {}).get(v.base, "C")
        if not (layout == "C" or layout == "F" and v.base_ndim == 1):
            return False
        axes = [ax for ax in v.axes if ax.base is not None]
        bases = [ax.base for ax in axes]
        if not axes:
            return True
        k = bases[0]
        if bases != list(range(k, v.base_ndim)) or set(v.fixed) != set(range(k)):
            return False
        one = ast.dump(C(1))
        if ast.dump(axes[0].step) != one:
            return False
        return all(ast.dump(ax.start) == ast.dump(C(0)) and ast.dump(ax.step) == one
                   and ast.dump(ax.length) == ast.dump(_shape(v.base, ax.base)) for ax in axes[1:])

    def copied_array(self, value):
        """The array expression ``value`` copies (``np.copy(a)``, ``a.copy()``,
        ``np.ascontiguousarray(a)``), else None."""
        if not isinstance(value, ast.Call) or value.keywords:
            return None
        name, recv = self.function_of(value)
        if name not in ("copy", "ascontiguousarray"):
            return None
        if recv is not None:
            return recv if not value.args else None
        return value.args[0] if len(value.args) == 1 else None

    def defer(self, t, value, arr) -> bool:
        """Keep the element function of ``t = value`` instead of an array where its uses allow it
        (:mod:`.deferred`); True if kept."""
        if t in getattr(self.n, "defer_off", ()):
            return False
        body, k = self.levels[0]
        reads = deferrable(t, value, body[k + 1:], self.stores, self.params, self.np or "np",
                           lambda call: self.function_of(call)[0], self.deferred_reads)
        if reads is None:
            return False
        reads |= {old for old, new in self.renames.items() if new in reads}
        self.deferred[t] = Gen(arr.shape, arr.dtype, lambda idx: copy.deepcopy(arr.at(idx)))
        self.deferred_reads[t] = reads
        self.info[t] = (arr.ndim, arr.dtype)
        return True

    def mentions(self, e, nm):
        return any(isinstance(n, ast.Name) and n.id == nm for n in iter_nodes(e))

    # ------------------------------------------------ rebinding array names
    # A name rebound to another array never makes the adjoint of one array go to another: at the
    # top level every binding gets its own name (``u = v`` makes ``u`` read ``v``), and inside loops
    # and branches a rebinding writes into the array the name holds (copied first where the caller
    # or another name still sees the old array), so the names the engine sees are arrays.
    def alias(self, t, src):
        """``t = src`` at the top level: later reads of ``t`` read ``src`` (the same array)."""
        self.renames[t] = src
        self.info[t] = self.array_info(src)
        self.shared.add(src)

    def own_rebound(self, s, pre):
        """Before a loop or branch at the top level: each array name it rebinds that is a
        parameter (the caller's array), shared with another name, or the base of a view is copied
        into a fresh array the name then reads, so writing it in place changes nothing else."""
        names = []
        for n in iter_nodes(s):
            names += [t for t in _rebound_names(n) if t not in names]
        cyc = self.cycle_names(s)
        orig = {t: self.renames.get(t, t) for t in cyc}
        owned = {}
        for t in names:
            cur = self.renames.get(t, t)
            if cur in self.views or not self.array_info(cur) or self.ndim(N(cur)) == 0:
                continue
            if t in cyc and cur in self.params and cur not in self.shared \
                    and not any(v.base == cur for v in self.views.values()):
                own = self.fresh(t)         # the caller's array gets its values back at the end (own_cycles)
                pre += self.assign_name(own, ast.Call(func=self.npf("copy"), args=[N(cur)], keywords=[]), pre, s)
                self.renames[t] = own
                continue
            if cur in self.params or cur in self.shared or any(v.base == cur for v in self.views.values()):
                cw = self.callee_writes
                body, k = self.levels[-1]
                later = [x for x in body[k + 1:] if _writes_in_place([x], t, cw)]
                first = _written_before_rebinding(s, t, cw) or bool(later)
                if first and (cur not in self.params or cur in self.shared or
                              any(v.base == cur for v in self.views.values())):
                    raise self.err(s, f"writing `{t}` in place in a loop or branch that rebinds it, while "
                                   "another name or view refers to its array",
                                   f"copy it first (`{t} = {t}.copy()` before the loop)")
                again = [x for x in body[k + 1:] if any(t in _rebound_names(n) for n in iter_nodes(x))]
                if later and again:
                    raise self.err(again[0], f"rebinding `{t}` again after a loop or branch that may leave it the "
                                   "caller's array, written in place in between",
                                   f"copy it first (`{t} = {t}.copy()` before the loop)")
                own = self.fresh(t)
                pre += self.assign_name(own, ast.Call(func=self.npf("copy"), args=[N(cur)], keywords=[]), pre, s)
                self.renames[t] = own
                if first:
                    flag = self.fresh(t + "_rebound")
                    self.sdt[flag] = "bool"
                    pre.append(ast.copy_location(ast.Assign(targets=[N(flag, True)], value=C(False)), s))
                    self.first_copy[t] = (cur, own, flag)
                    if later:
                        self.hand_back_at_end.append((t, cur, own, flag))
                    else:
                        owned[t] = (cur, own, flag, not _rebinds_every_time(s, t, cw))
        self.own_cycles(s, cyc, orig, pre)
        return owned

    # Double buffering of arguments (``u, un = un, u`` with ``u`` and ``un`` the caller's arrays,
    # ``a, b, c = b, c, a``): Python rebinds the names, so the step that writes ``un`` writes the
    # caller's ``u`` every other step and each caller's array ends holding the values of the name
    # that refers to it when the kernel returns.  The engine exchanges elements instead (one array
    # per name: the arguments' copies), so an integer per name (``u_slot``) follows which of the
    # arrays the names held before the loop the name now refers to (exchanged as the names are,
    # under the same conditions), and before the return each copy goes to the caller's array its
    # slot names.  Handing back at the first rebinding (the form for `u = u + c * u`) was wrong
    # here: the caller's arrays are written again after it, and the seed of `u` was never read.
    def cycle_names(self, s):
        """The array names the loop or branch ``s`` exchanges by tuple assignments of names only."""
        out = set()
        for n in iter_nodes(s):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) \
                    and isinstance(n.value, ast.Tuple) and len(n.value.elts) == len(n.targets[0].elts) \
                    and all(isinstance(e, ast.Name) for e in n.targets[0].elts + n.value.elts):
                tg = [e.id for e in n.targets[0].elts]
                vs = [e.id for e in n.value.elts]
                if sorted(tg) == sorted(vs) and tg != vs:
                    out |= set(tg)
        return {t for t in out if self.array_info(self.renames.get(t, t))
                and self.ndim(N(self.renames.get(t, t))) > 0}

    def own_cycles(self, s, cyc, orig, pre):
        """Slots for the names of ``s``'s cycles where one of them held an argument before it."""
        args = {t: orig[t] for t in sorted(cyc) if orig[t] in self.params}
        if not args:
            return
        for n in iter_nodes(s):
            if isinstance(n, ast.Return):
                raise self.err(n, "a return inside a loop or branch that exchanges arguments "
                               f"({', '.join(sorted(args.values()))}) by tuple assignment",
                               "return after the loop, or copy the arguments first (`u = u.copy()`)")
        for n in iter_nodes(s):
            for t in _rebound_names(n):
                if t in cyc and t not in self.cycle_names(ast.Module(body=[n], type_ignores=[])):
                    raise self.err(n, f"rebinding `{t}`, which a tuple assignment exchanges with an argument "
                                   "in the same loop, to another array",
                                   f"write into it (`{t}[:] = ...`) or copy the arguments first")
        body, k = self.levels[-1]
        for x in body[k + 1:]:      # a later loop may exchange them again (the slots follow), not rebind them
            if not isinstance(x, (ast.For, ast.While, ast.If)):
                continue            # (at the top level a rebinding names another array: the copy keeps its values)
            for n in iter_nodes(x):
                hit = [t for t in _rebound_names(n) if t in cyc
                       and t not in self.cycle_names(ast.Module(body=[n], type_ignores=[]))]
                if hit:
                    raise self.err(n, f"rebinding `{hit[0]}` inside a loop or branch after a loop that exchanged "
                                   "it with an argument, to another array",
                                   f"write into it (`{hit[0]}[:] = ...`), or copy the arguments before the first "
                                   "loop (`u = u.copy(); un = un.copy()`)")
        at = next(n for n in iter_nodes(s) if isinstance(n, ast.Assign) and set(_rebound_names(n)) & set(args))
        slots = sorted(cyc)
        dests = [(j, args[t]) for j, t in enumerate(slots) if t in args]
        for j, t in enumerate(slots):
            arr = self.renames.get(t, t)
            if arr in self.slot_of:
                raise self.err(s, f"exchanging `{t}` with an argument in a second loop",
                               f"copy it first (`{t} = {t}.copy()` before the loop)")
            w = self.fresh(t + "_slot")
            self.sdt[w] = "int64"
            pre.append(ast.copy_location(ast.Assign(targets=[N(w, True)], value=C(j)), s))
            self.slot_of[arr] = w
            self.cycle_back.append((arr, w, dests, at))

    # An argument that a loop (or branch) both writes in place and rebinds is the caller's array
    # until the first rebinding runs, and a fresh array after: Numba leaves the caller's array as
    # the writes before that rebinding made it.  The engine needs one array per name, so the name
    # reads its copy throughout (`own_rebound`) and the copy is handed back to the caller's array
    # where the first rebinding runs (a flag says whether it ran), and after the loop where it may
    # not have run; so the caller's array ends as Numba leaves it and `Duplicated(u, du)` seeds it.
    def hand_back(self, s):
        """Before a statement inside the loop that rebinds an argument it writes in place:
        ``if not u_rebound: u[:] = u_copy; u_rebound = True``."""
        out = []
        for t in _rebound_names(s):
            if t in self.first_copy:
                cur, own, flag = self.first_copy[t]
                if self.renames.get(t, t) != own:
                    continue
                out += self.copy_back(cur, own, flag, s, set_flag=True)
        return out

    def callee_writes(self, call):
        """Positions and names of the parameters the ``@njit`` helper ``call`` names may write in
        place (its own statements; its calls count as writes), None when ``call`` is no helper."""
        if not self.is_helper(call):
            return None
        cache = self.__dict__.setdefault("_writes_cache", {})
        key = self.n.resolver.dotted(call.func)
        if key not in cache:
            hp = self.n.helper_primal(self.n.helper_of(call))
            cache[key] = {x for k, p in enumerate(hp.params) if _writes_in_place(hp.tree.body, p) for x in (k, p)}
        return cache[key]

    def copy_back(self, cur, own, flag, s, set_flag):
        """``if not flag: cur[...] = own[...]`` (element loops: ``own`` is a copy of ``cur``, same
        extents), also setting the flag where ``set_flag``."""
        nd, _ = self.array_info(own)
        body = self.loops([_shape(own, k) for k in range(nd)], lambda idx: [ast.Assign(
            targets=[ast.Subscript(value=N(cur), slice=_idx(idx), ctx=ast.Store())],
            value=ast.Subscript(value=N(own), slice=_idx(idx), ctx=ast.Load()))], s)
        if set_flag:
            body.append(ast.Assign(targets=[N(flag, True)], value=C(True)))
        return located([ast.If(test=ast.UnaryOp(op=ast.Not(), operand=N(flag)), body=body, orelse=[])], s)

    def hand_back_after(self, owned, s):
        """After the loop or branch: ``if not u_rebound: u[:] = u_copy`` where it may have run
        without rebinding ``u`` (a branch, a rebinding under a condition)."""
        out = []
        for t, (cur, own, flag, needed) in sorted(owned.items()):
            del self.first_copy[t]
            if needed:
                out += self.copy_back(cur, own, flag, s, set_flag=False)
        return out

    def hand_back_before_return(self, s):
        """At the end of the kernel, for an argument written in place after such a loop (which
        may have left the name the caller's array): the copy handed back if no rebinding ran."""
        out = []
        for t, cur, own, flag in self.hand_back_at_end:
            self.first_copy.pop(t, None)
            out += self.copy_back(cur, own, flag, s, set_flag=False)
        self.hand_back_at_end = []
        for arr, w, dests, at in self.cycle_back:   # each exchanged copy to the argument its slot names
            nd, _ = self.array_info(arr)       # (located at the exchange: a refusal names its line)
            for j, param in dests:
                body = self.loops([_shape(arr, k) for k in range(nd)], lambda idx, param=param: [ast.Assign(
                    targets=[ast.Subscript(value=N(param), slice=_idx(idx), ctx=ast.Store())],
                    value=ast.Subscript(value=N(arr), slice=_idx(idx), ctx=ast.Load()))], at)
                test = ast.Compare(left=N(w), ops=[ast.Eq()], comparators=[C(j)])
                out += located([ast.If(test=test, body=body, orelse=[])], at)
        self.cycle_back = []
        return out

    def rebind_in_place(self, t, cur, value, pre, s):
        """``t = f(t, ...)`` inside a loop or branch (``y = y + dt * k``): written into ``t``'s
        array (through a temporary where ``f`` reads other elements of it)."""
        if cur in self.params or cur in self.shared or any(v.base == cur for v in self.views.values()):
            raise self.err(s, f"rebinding array `{t}` inside a nested loop or branch of a helper",
                           f"copy it first (`{t} = {t}.copy()` before the loop)")
        dst = ast.Subscript(value=N(cur), slice=ast.Slice(), ctx=ast.Store())
        self.rebinding = (t, s)
        try:
            return self.assign_sub(dst, value, None, pre, s)
        finally:
            self.rebinding = None

    def alias_in_loop(self, t, cur, src, pre, s):
        """``t = src`` inside a loop or branch.  A first binding that nothing writes later stays a
        second name; otherwise, where ``src`` is an array made afresh earlier in the same body and
        not used after this statement (``v = u.copy(); ...; u = v``), the values are copied into
        ``t``'s array, which gives the same values as sharing one array."""
        body, k = self.levels[-1]
        rest = body[k + 1:]
        later = [x for lv in self.levels[:-1] for x in lv[0][lv[1] + 1:]]
        loop_body = self.levels[0][0][self.levels[0][1]:self.levels[0][1] + 1] if self.levels else []
        written = _written_arrays(loop_body)
        if cur not in self.info and cur not in self.params and t not in written and src not in written:
            self.info[t] = self.array_info(src)
            return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=N(src)), s)]
        made_here = [j for j, x in enumerate(body[:k]) if _binds_afresh(x, src)]
        ok = (made_here and not any(self.mentions(x, src) for x in body[:made_here[0]])
              and not any(self.mentions(x, src) for x in rest + later)
              and t not in _written_arrays(rest))
        # or neither name is written element-wise anywhere from here on (rebinding a name is not
        # a write): `u_old = u; u = u_new` (a three-level time loop) copies the same values
        stored = _written_arrays(loop_body + later, rebinding=False)
        ok = ok or (t not in stored and src not in stored)
        if not ok:
            raise self.err(s, f"`{t} = {src}` inside a loop or branch (two names for one array)",
                           f"copy the values: `{t}[:] = {src}`, or `{t} = {src}.copy()`")
        if cur in self.info or cur in self.params:
            return self.rebind_in_place(t, cur, N(src), pre, s)
        return self.assign_name(t, ast.Call(func=self.npf("copy"), args=[N(src)], keywords=[]), pre, s)

    def target_allocation(self, call) -> int | None:
        """The number of axes of an array the target allocates (``cuda.shared.array``), else None."""
        ext = self.n.ext
        return ext.allocation(self.n, call) if ext is not None and hasattr(ext, "allocation") else None

    def assign_call(self, t, call, pre, s):
        """Allocations stay allocations; helper calls stay calls (their results' shapes recorded).
        A target's own allocations (``cuda.shared.array(shape, dtype)``: the extension's
        ``allocation`` hook gives the number of axes) are arrays too, so their rows are views."""
        axes = self.target_allocation(call)
        if axes is not None:
            dt = self.dtype_str(call.args[1]) if len(call.args) > 1 else \
                next((self.dtype_str(k.value) for k in call.keywords if k.arg == "dtype"), "float64")
            self.info[t] = (axes, dt)
            return [s]
        name = self.numpy_name(call.func)
        if name in ALLOC:
            args = [self.shape_arg(a, pre) if k == 0 and not name.endswith("_like") else self.scalar_or_name(a, pre)
                    for k, a in enumerate(call.args)]
            kws = [ast.keyword(arg=k.arg, value=self.dtype_arg(k.value)) if k.arg == "dtype" else k
                   for k in call.keywords]
            if name.endswith("_like"):
                src = call.args[0]
                nd, dt = self.ndim(src), self.arr_dtype(src)
                if isinstance(src, ast.Name) and src.id not in self.views:
                    args[0] = N(src.id)
                else:      # a view or an expression: allocate by its shape
                    arr = self.value(src, pre)
                    name = name[:-5]
                    args[0] = ast.Tuple(elts=[self.extent_atom(a, pre) for a in arr.shape], ctx=ast.Load())
                    if not kws:
                        kws = [ast.keyword(arg="dtype", value=self.npf(_np_dtype(dt)))]
            else:
                nd, dt = self.shape_len(call.args[0] if call.args else None), "float64"
            for k in call.keywords:
                if k.arg == "dtype":
                    dt = self.dtype_str(k.value)
            if len(call.args) > 1 and not name.endswith("_like"):
                dt = self.dtype_str(call.args[1])
                args[1] = self.dtype_arg(call.args[1])
            self.info[t] = (nd, dt)
            node = ast.Call(func=self.npf(name), args=args, keywords=kws)
            return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=node), s)]
        if self.is_helper(call):
            infos = self.helper_results(call)
            if len(infos) == 1 and infos[0][0] > 0:
                self.info[t] = infos[0]
            return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=self.scalar(call, pre)), s)]
        return None

    def assign_tuple(self, s, pre):
        t, v = s.targets[0], s.value
        if isinstance(v, (ast.Tuple, ast.List)) and len(v.elts) == len(t.elts):
            if any(self.ndim(x) > 0 for x in v.elts) and all(isinstance(x, ast.Name) for x in t.elts):
                return self.rebind_tuple(s, pre)
            if any(self.ndim(x) > 0 for x in v.elts):
                temps = []
                for x in v.elts:
                    if self.ndim(x) > 0 and not (isinstance(x, ast.Name) and x.id not in self.views):
                        tmp = self.fresh("part")
                        pre += self.assign_name(tmp, x, pre, s)
                        temps.append(N(tmp))
                    else:
                        temps.append(x)
                for tgt, x in zip(t.elts, temps):
                    if isinstance(tgt, ast.Name) and isinstance(x, ast.Name):
                        i = self.array_info(x.id)
                        if i:
                            self.info[tgt.id] = i
                s.value = ast.Tuple(elts=temps, ctx=ast.Load())
                return [s]
            s.value = ast.Tuple(elts=[self.scalar(x, pre) for x in v.elts], ctx=ast.Load())
            return [s]
        func = self.numpy_name(v.func) if isinstance(v, ast.Call) else None
        if func in LAPACK and LAPACK[func].parts and len(t.elts) == len(LAPACK[func].parts) \
                and all(isinstance(x, ast.Name) for x in t.elts):
            # sign, logdet = np.linalg.slogdet(A), w, V = np.linalg.eigh(A): one statement per part
            # (a part nobody reads goes; one the kernel never names is not made); the parts share
            # ``adtrans_group``, by which :mod:`adtrans.transform.lapack_merge` makes them one call again
            out = []
            v.adtrans_group = next(_GROUPS)
            if sum(x.id in self.loads for x in t.elts) > 1:
                # an operand expression (``A * k``) is made once, not once per part
                for j, a in enumerate(v.args):
                    if not isinstance(a, ast.Name) and self.ndim(a) > 0:
                        tmp = self.fresh("operand")
                        out += self.assign_name(tmp, a, pre, s)
                        v.args[j] = N(tmp)
            for k, x in enumerate(t.elts):
                if x.id not in self.loads:
                    continue
                if LAPACK[func].parts[k].ndim != "0":
                    out += self.assign_name(x.id, ast.copy_location(ast.Subscript(
                        value=v, slice=C(k), ctx=ast.Load()), v), pre, s)
                    continue
                self.sdt[x.id] = "float64"
                out.append(ast.copy_location(ast.Assign(targets=[N(x.id, True)], value=self.lapack(
                    func, list(v.args), pre, v, part=k)), s))
            return out
        if isinstance(v, ast.Call) and self.is_helper(v):
            infos, fresh = self.helper_summary(v)
            names = [e.id if isinstance(e, ast.Name) else None for e in t.elts]
            if len(infos) == len(names) and None not in names and any(
                    i[0] > 0 and self.rebinds_array(nm) for nm, i in zip(names, infos)):
                return self.rebind_to_results(s, infos, fresh, pre)
            for tgt, i in zip(t.elts, infos):
                if isinstance(tgt, ast.Name) and i[0] > 0:
                    self.info[tgt.id] = i
            s.value = self.scalar(v, pre)
            return [s]
        if isinstance(v, ast.Attribute) and v.attr == "shape" and self.ndim(v.value) > 0:
            arr = self.value(v.value, pre)
            s.value = ast.Tuple(elts=[copy.deepcopy(a.extent) for a in arr.shape], ctx=ast.Load())
            return [s]
        if self.ndim(v) > 0 and all(isinstance(e, ast.Name) for e in t.elts):
            return self.unpack_array(s, pre)
        s.value = self.scalar(v, pre)
        return [s]

    def rebinds_array(self, nm):
        """Whether binding ``nm`` now rebinds a name that holds an array."""
        cur = self.renames.get(nm, nm)
        return cur in self.info or cur in self.params or cur in self.views

    def rebind_to_results(self, s, infos, fresh, pre):
        """``a, b = f(a, b)``, a helper returning a tuple of arrays bound to names that hold
        arrays: the results are bound to fresh names first, then the names rebound to them as
        ``a, b = a_new, b_new`` (so each name keeps the array the engine sees; inside a loop the
        values are copied into it).  A result that is one of the helper's arguments (``return b,
        a``) would be copied over while still read: refused."""
        t, call = s.targets[0], s.value
        for e, (nd, _), new in zip(t.elts, infos, fresh):
            if nd > 0 and not new:
                raise self.err(s, f"rebinding `{e.id}` to an array {self.n.resolver.dotted(call.func)} returns "
                               "without making it (one of its arguments, a view or a global)",
                               "return a new array from the helper (`return b.copy(), a.copy()`)")
        parts = [self.fresh(e.id + "_new") for e in t.elts]
        made = ast.copy_location(ast.Assign(targets=[ast.Tuple(elts=[N(p, True) for p in parts], ctx=ast.Store())],
                                            value=call), s)
        pre += self.assign_tuple(made, pre)       # before the checks the rebinding adds to `pre`
        rebind = ast.copy_location(ast.Assign(targets=[t], value=ast.Tuple(elts=[N(p) for p in parts],
                                                                            ctx=ast.Load())), s)
        saved = getattr(self, "_parts", set())
        self._parts = saved | set(parts)
        try:
            return self.rebind_tuple(rebind, pre)
        finally:
            self._parts = saved

    def unpack_array(self, s, pre):
        """``a, b, c = x`` / ``xi, yi, zi = r[i]`` with an array value: its rows along the first axis
        (elements of a 1-d value), ``a = x[0]``, ``b = x[1]`` ... as Python iterates it.  The first
        extent must be the number of names: checked at run time (``ValueError``, as Numba raises),
        once per loop where it does not change.  Values are read before any name is bound, so
        ``i, j = pairs[i]`` reads the old ``i``."""
        t, v = s.targets[0], s.value
        k = len(t.elts)
        out = []
        if not self.viewable(v):           # `a, b = x + y`: the value once, then its rows
            tmp = self.fresh("values")
            out += self.assign_name(tmp, v, pre, s)
            v = ast.copy_location(N(tmp), v)
        arr = self.value(copy.deepcopy(v), pre)
        self.check(copy.deepcopy(arr.shape[0].extent), C(k), pre, s, what=f"unpacking into {k} names", note="")
        read = {n.id for n in iter_nodes(v) if isinstance(n, ast.Name)}
        bound = [e.id for e in t.elts]
        direct = not (read & set(bound)) and len(set(bound)) == len(bound)
        temps = []
        for j, e in enumerate(t.elts):
            elt = ast.copy_location(ast.Subscript(value=copy.deepcopy(v), slice=C(j), ctx=ast.Load()), v)
            tgt = e.id if direct else self.fresh(e.id + "_value")
            out += self.stmt(ast.copy_location(ast.Assign(targets=[N(tgt, True)], value=elt), s))
            temps.append(tgt)
        if not direct:
            for e, tmp in zip(t.elts, temps):
                out += self.stmt(ast.copy_location(ast.Assign(targets=[N(e.id, True)], value=N(tmp)), s))
        return out

    def rebind_tuple(self, s, pre):
        """``a, b = x, y`` with arrays among the values.  At the top level: the array values bound
        one after another to fresh names (all values read first).  Inside a loop or branch each
        name is rebound as a single rebinding would be (``a = x``), in an order in which no value
        is read after the array it reads was rewritten; a cycle of names (``u, un = un, u``, double
        buffering, ``a, b, c = b, c, a``) exchanges their elements, and a value that is an
        expression on a cycle is first computed into a fresh array."""
        t, v = s.targets[0], s.value
        pairs = list(zip([e.id for e in t.elts], v.elts))
        arrays = [(nm, x) for nm, x in pairs if self.ndim(x) > 0]
        scalars = [(nm, x) for nm, x in pairs if self.ndim(x) == 0]
        out = []
        if scalars:
            tup = ast.Assign(targets=[ast.Tuple(elts=[N(nm, True) for nm, _ in scalars], ctx=ast.Store())],
                             value=ast.Tuple(elts=[x for _, x in scalars], ctx=ast.Load()))
            out += self.assign_tuple(ast.copy_location(tup, s), pre) if len(scalars) > 1 else \
                self.assign_name(scalars[0][0], scalars[0][1], pre, s)
        if self.depth == 0:
            temps = []
            for nm, x in arrays:        # every value is read before any name is rebound
                if isinstance(x, ast.Name) and x.id not in self.views:
                    temps.append((nm, x.id))
                else:
                    tmp = self.fresh("part")
                    pre += self.assign_name(tmp, x, pre, s)
                    temps.append((nm, tmp))
            for nm, src in temps:
                self.alias(nm, src)
            return out
        targets = [nm for nm, _ in arrays]
        if len(set(targets)) != len(targets):
            raise self.err(s, "the same name bound twice by one tuple assignment", "use one name per value")
        plain = [x.id for _, x in arrays if isinstance(x, ast.Name)]
        if len(set(plain)) != len(plain):
            raise self.err(s, "one array bound to two names by a tuple assignment inside a loop or branch",
                           "copy it: `a, b = x, x.copy()`")
        held = {nm: self.renames.get(nm, nm) for nm in targets}
        for nm, arr in held.items():
            if arr in self.views:
                raise self.err(s, f"rebinding the view `{nm}` inside a loop or branch by tuple assignment",
                               f"copy the values: `{nm}[:] = ...`")
        bound = {nm for nm in targets if held[nm] in self.info or held[nm] in self.params}
        parts = getattr(self, "_parts", set())

        def reads(x):
            """The targets whose current arrays the value ``x`` reads (also through views)."""
            got = set()
            for n in iter_nodes(x):
                if isinstance(n, ast.Name):
                    base = self.views[n.id].base if n.id in self.views else n.id
                    got |= {nm for nm in bound if held[nm] == base}
            return got

        pending = list(arrays)
        while pending:
            pick = next((k for k, (nm, _) in enumerate(pending)
                         if not any(nm in reads(x) for j, (_, x) in enumerate(pending) if j != k)), None)
            if pick is not None:
                nm, x = pending.pop(pick)
                out += self.rebind_one(nm, held[nm], x, nm in bound, parts, pre, s)
                continue
            srcs = [x.id if isinstance(x, ast.Name) else None for _, x in pending]
            names = [held[nm] for nm, _ in pending]
            if None not in srcs and sorted(srcs) == sorted(names):
                out += self.exchange([(held[nm], x.id) for nm, x in pending], s)
                break
            # a cycle through an expression: compute one value into a fresh array first
            k = next(k for k, (_, x) in enumerate(pending) if not isinstance(x, ast.Name))
            nm, x = pending[k]
            tmp = self.fresh(nm + "_new")
            pre += self.assign_name(tmp, x, pre, s)
            parts = parts | {tmp}
            pending[k] = (nm, N(tmp))
        return out

    def rebind_one(self, t, cur, x, bound, parts, pre, s):
        """One name of a tuple rebinding inside a loop or branch: ``t = x`` where no value still
        to be bound reads ``t``'s array.  A fresh part or another rebound name's array is copied
        into ``t``'s array; anything else is rebound as ``t = x`` alone would be."""
        if isinstance(x, ast.Name) and x.id not in self.views:
            other = any(self.renames.get(n, n) == x.id for n in self.levels_targets(s)) and x.id != cur
            if x.id in parts or other:
                if bound:
                    return self.rebind_in_place(t, cur, N(x.id), pre, s)
                if x.id in parts:
                    self.info[t] = self.array_info(x.id)
                    return [ast.copy_location(ast.Assign(targets=[N(t, True)], value=N(x.id)), s)]
                return self.assign_name(t, ast.Call(func=self.npf("copy"), args=[N(x.id)], keywords=[]), pre, s)
            if x.id == cur:
                return []
        return self.assign_name(t, x, pre, s)

    @staticmethod
    def levels_targets(s):
        return [e.id for e in s.targets[0].elts if isinstance(e, ast.Name)]

    def exchange(self, perm, s):
        """A permutation of arrays (``dst`` takes the elements of ``src``), element by element."""
        perm = [(dst, src) for dst, src in perm if dst != src]
        if not perm:
            return []
        for n in {d for d, _ in perm}:
            if n in self.params or n in self.shared:
                raise self.err(s, "rebinding array names to other arrays inside a loop or branch by tuple "
                               "assignment", "exchange whole buffers only (`u, un = un, u`), or copy: `u[:] = un`")
        first = perm[0][0]
        nd, dt = self.array_info(first)
        for dst, _ in perm[1:]:
            if self.array_info(dst) != (nd, dt):
                raise self.err(s, f"exchanging arrays `{first}` and `{dst}` of different dimensions or dtypes")
        ext = [_shape(first, k) for k in range(nd)]
        checks = []
        for dst, _ in perm[1:]:
            for k in range(nd):
                self.check(copy.deepcopy(ext[k]), _shape(dst, k), checks, s, f"exchanging {first} and {dst}")
        out = located(checks, s)
        held = {src: self.fresh(src + "_v") for src in {src for _, src in perm}}
        for nm in held.values():
            self.sdt[nm] = dt

        def body(idx):
            el = lambda a, ctx=ast.Load(): ast.Subscript(value=N(a), slice=_idx(idx), ctx=ctx)
            return [ast.Assign(targets=[N(h, True)], value=el(src)) for src, h in sorted(held.items())] + \
                [ast.Assign(targets=[el(dst, ast.Store())], value=N(held[src])) for dst, src in perm]
        out += self.loops(ext, body, s)
        if any(self.slot_of.get(d) for d, _ in perm):     # the slots follow the names (own_cycles)
            if not all(self.slot_of.get(a) for p in perm for a in p):
                raise self.err(s, "exchanging arrays that an earlier exchange with an argument did not include",
                               "exchange the same names in every tuple assignment of the loop")
            held_w = [self.fresh("slot_v") for _ in perm]
            for h in held_w:
                self.sdt[h] = "int64"
            out += located([ast.Assign(targets=[N(h, True)], value=N(self.slot_of[src]))
                            for h, (_, src) in zip(held_w, perm)] +
                           [ast.Assign(targets=[N(self.slot_of[d], True)], value=N(h))
                            for h, (d, _) in zip(held_w, perm)], s)
        return out

    def assign_sub(self, target, value, op, pre, s):
        """``target = value`` / ``target op= value`` where ``target`` is an element, a slice or a view."""
        if isinstance(target, ast.Name):
            view = self.to_view(target, pre)
        elif self.is_gather(target):
            return self.scatter(target, value, op, pre, s)
        else:
            if self.ndim(target) == 0 and not self.viewable(target.value):
                # a plain element: A[i, j] = ...
                target.slice = self.scalar(target.slice, pre)
                v = self.scalar(value, pre)
                node = ast.Assign(targets=[target], value=v) if op is None else \
                    ast.AugAssign(target=target, op=op, value=v)
                return [ast.copy_location(node, s)]
            view = self.to_view(target, pre)
        if not view.axes:
            el = view.element([])
            el.ctx = ast.Store()
            v = self.scalar(value, pre)
            node = ast.Assign(targets=[el], value=v) if op is None else ast.AugAssign(target=el, op=op, value=v)
            return [ast.copy_location(node, s)]
        val = self.value(value, pre)
        if self.reads_base(value, view) and not isinstance(val, Scalar):    # a scalar is computed first
            tmp = self.fresh(view.base + "_new")
            self.materialise_into(tmp, val, pre, s)
            shape = val.shape
            val = Ref(View.whole(tmp, val.ndim, val.dtype))
            val.shape = shape        # the temporary has the value's extents (no check between them)
        dst = Ref(view)
        what = REGION_MISMATCH
        shape = broadcast([dst, val], lambda a, b: self.check(a, b, pre, s, what))
        if len(shape) != dst.ndim or any(a.unit and not d.unit for a, d in zip(shape, dst.shape)):
            raise self.err(s, f"assigning a {val.ndim}-d value to a {dst.ndim}-d region",
                           "make the shapes agree (reshape or index the value)")
        for a, d in zip(shape, dst.shape):
            if d.unit and not a.unit:        # a unit axis of the region takes a value axis of 1 only
                self.check(C(1), a.extent, pre, s, what)
        ext = [self.extent_atom(a, pre) for a in dst.shape]

        def body(idx):
            el = view.element(idx)
            el.ctx = ast.Store()
            v = val.at(bidx(val, idx, dst.shape))
            if op is None:
                return [ast.Assign(targets=[el], value=v)]
            return [ast.AugAssign(target=el, op=op, value=v)]
        pre += self.loops(ext, body, s)
        return []

    def scatter(self, target, value, op, pre, s):
        """``x[idx] = v`` and ``x[idx] op= v`` with an integer array ``idx`` (constant; rows of a 2-D
        ``x``; negative indices count from the end), as Numba runs them: the value (for ``op=`` the
        gathered ``x[idx] op v``) is computed in full first, then stored at ``idx[k]`` for ``k`` in
        order, so where ``idx`` repeats an index the last store wins (``y[idx] += v`` adds one
        ``v[k]`` per position, as NumPy; ``np.add.at`` is not in Numba: write the loop ``y[idx[k]] +=
        v[k]`` to add up repeats).  Lowered to that store loop (through a temporary where the value
        reads ``x``); the engine's adjoint of an overwriting store (reverse order, the adjoint read
        then zeroed) sends each position's adjoint to the last ``k`` that wrote it.  A boolean
        ``idx`` is a mask: the scatter into its positions (:meth:`positions`, each written once,
        so ``x[mask] op= v`` is ``x[pos[k]] op= v[k]`` in place); the adjoint of ``x[mask] = v``
        zeroes the masked positions' adjoints, of ``x[mask] *= c`` scales them."""
        if isinstance(target.slice, ast.Tuple):
            return self.scatter_multi(target, value, op, pre, s)
        idx = self.value(target.slice, pre)
        if idx.dtype not in ("bool", "int64"):
            raise self.err(s, f"writing through a {idx.dtype} array index `{ast.unparse(target)}`",
                           "index with integers")
        if not self.viewable(target.value):
            raise self.err(s, f"writing through an index of an expression `{ast.unparse(target)}`",
                           "write into a named array or a slice of one")
        view = self.to_view(target.value, pre)
        dst = Ref(view)
        unique = idx.dtype == "bool"       # a mask's positions: each written once, in order
        if unique:
            idx = self.positions(idx, dst, pre, s, target.slice)
        elif not isinstance(target.slice, ast.Name) or target.slice.id in self.views:
            idx = Ref(View.whole(self.materialise(idx, pre, s, "index"), idx.ndim, idx.dtype))
        whole = _whole_view(view)
        n = None if whole or unique else self.extent_atom(dst.shape[0], pre)
        k = idx.ndim
        shape = list(idx.shape) + list(dst.shape[1:])

        def pos(ix):             # a view: wrap a negative index here (Numba wraps a whole array's)
            return [self.wrapped(idx.at(ix[:k]), n)] + list(ix[k:])
        region = Gen(shape, view.dtype, lambda ix: view.element(pos(ix)))
        return self.store_indexed(view, region, pos, shape, value, op, unique, pre, s)

    def store_indexed(self, view, region, pos, shape, value, op, in_place, pre, s):
        """The store loops of an indexed write (:meth:`scatter`, :meth:`scatter_multi`): ``region``
        the indexed elements of ``view`` (``pos``: an index tuple of ``shape`` to ``view``'s
        element), the value computed in full first (for ``op=`` the gathered ``region op value``,
        through a temporary; also where the value reads the base), then stored in order.
        ``in_place``: every position written once (a mask's), so ``op=`` stays an augmented store."""
        val = self.value(value, pre)
        chk = (lambda a, b: self.check(a, b, pre, s, "could not broadcast the value into the indexed positions"))
        aug = op if in_place else None
        if op is not None and not in_place:
            val = elementwise([region, val], join_dtypes([view.dtype, val.dtype]),
                              lambda a: ast.BinOp(left=a[0], op=copy.deepcopy(op), right=a[1]), chk)
        full = broadcast([region, val], chk)
        if len(full) != len(shape):
            raise self.err(s, f"assigning a {val.ndim}-d value to {len(shape)}-d indexed positions",
                           "make the shapes agree (reshape or index the value)")
        if (op is not None and not in_place) or self.mentions(value, view.base):
            tmp = self.fresh(view.base + "_new")
            v0 = val
            self.materialise_into(tmp, Gen(shape, val.dtype, lambda ix: v0.at(bidx(v0, ix, shape))), pre, s)
            val = Ref(View.whole(tmp, len(shape), val.dtype))
        ext = [self.extent_atom(a, pre) for a in shape]

        def body(ix):
            el = view.element(pos(ix))
            el.ctx = ast.Store()
            v = val.at(bidx(val, ix, shape))
            return [ast.Assign(targets=[el], value=v) if aug is None else ast.AugAssign(target=el, op=aug, value=v)]
        pre += self.loops(ext, body, s)
        return []

    def scatter_multi(self, target, value, op, pre, s):
        """``x[r, c] = v`` and ``x[r, c] op= v`` (integer arrays and integers on adjacent axes):
        as :meth:`scatter`, the value computed in full first, then stored at ``(r[k], c[k])`` for
        ``k`` in order (a repeated position: the last store wins, as in Numba and NumPy)."""
        a, lead = self.advanced_indices(target)
        if not self.viewable(target.value):
            raise self.err(s, f"writing through an index of an expression `{ast.unparse(target)}`",
                           "write into a named array or a slice of one")
        view = self.to_view(self.sliced_base(target, a, lead), pre)
        dst = Ref(view)
        idxs, bshape = self.index_values(target, lead, pre, s)
        idxs = [v if v.ndim == 0 or (isinstance(a, ast.Name) and a.id not in self.views) else
                Ref(View.whole(self.materialise(v, pre, s, "index"), v.ndim, v.dtype)) for a, v in zip(lead, idxs)]
        whole = _whole_view(view)
        ns = [None if whole else self.extent_atom(dst.shape[a + j], pre) for j in range(len(lead))]
        b = len(bshape)
        shape = list(dst.shape[:a]) + list(bshape) + list(dst.shape[a + len(lead):])

        def pos(ix):
            return list(ix[:a]) + [self.wrapped(v.at(bidx(v, ix[a:a + b], bshape)), n)
                                   for v, n in zip(idxs, ns)] + list(ix[a + b:])
        region = Gen(shape, view.dtype, lambda ix: view.element(pos(ix)))
        return self.store_indexed(view, region, pos, shape, value, op, False, pre, s)

    def reads_base(self, value, view):
        """Does ``value`` read ``view``'s base array anywhere but at the element being written?"""
        same_view = view.signature()
        for n in iter_nodes(value):
            if isinstance(n, ast.Name):
                b = self.views[n.id].base if n.id in self.views else n.id
                if b != view.base:
                    continue
                if n.id in self.views and self.views[n.id].signature() == same_view:
                    continue
                if n.id not in self.views and not view.fixed and all(
                        a.base == k and is_const(a.start, 0) and is_const(a.step, 1) for k, a in
                        enumerate(view.axes)) and len(view.axes) == view.base_ndim and \
                        self._plain_uses(value, n.id):
                    continue
                return True
            if isinstance(n, ast.Subscript) and self.viewable(n) and isinstance(_root(n), ast.Name):
                pass
        return False

    def _plain_uses(self, value, nm):
        """``nm`` is used in ``value`` only as a whole array operand (not sliced, indexed or reshaped)."""
        parents = {}
        for p in iter_nodes(value):
            for c in ast.iter_child_nodes(p):
                parents[id(c)] = p
        for n in iter_nodes(value):
            if isinstance(n, ast.Name) and n.id == nm:
                p = parents.get(id(n))
                if isinstance(p, (ast.Subscript, ast.Attribute)) or (isinstance(p, ast.Call) and p.func is not n
                                                                      and self.numpy_name(p.func) not in (None,)
                                                                      and not self.same_index(p, n)):
                    return False
        return True

    def same_index(self, call, arg):
        """Does NumPy call ``call`` read its argument ``arg`` only at the index it writes (element-wise,
        same number of dimensions)?  ``np.sort``, ``np.transpose``, ``np.reshape`` ... do not."""
        name = self.numpy_name(call.func)
        elementwise = name in ELEMENTWISE_BINOPS or name in COMPARE_UFUNCS or name in (
            "where", "clip", "negative", "square", "copy", "ascontiguousarray", "triu", "tril", "logical_not",
            "logical_and", "logical_or") or intrinsic_of(dotted="numpy." + name) is not None
        return elementwise and self.call_ndim(call) == self.ndim(arg)

    def check(self, a, b, pre, like, what="operands could not be broadcast together",
              note="adtrans broadcasts an axis only where it is 1 by construction (None, reshape)"):
        """Extents ``a`` and ``b`` (expressions) must agree.  Refused when both are constants that
        differ; otherwise ``pre`` gets one run-time test, before the statement's loops::

            if a != b:
                raise ValueError("operands could not be broadcast together ... (file:line)")

        so a mismatch raises in the primal sweep of the adjoint as NumPy's own code raises in
        the kernel (one integer comparison per pair of extents per statement, never per element;
        an identical test already in ``pre`` is not repeated).  An axis broadcasts only where it
        is 1 by construction (``None``, ``reshape(-1, 1)``, fewer dimensions): an argument's axis
        that is 1 at run time raises too (NumPy would broadcast it), never a wrong result."""
        a, b = _unclamped(a), _unclamped(b)
        (xa, ca), (xb, cb) = split_offset(a), split_offset(b)
        if ca != cb and same(xa, xb):
            raise self.err(like, f"extents {ast.unparse(a)} and {ast.unparse(b)} that never agree ({what})",
                           "make the slices the same length")
        if ca or cb:         # n - 2 != m - 2: compare n != m
            a, b = xa, add(xb, C(cb - ca))
        if same(a, b):
            return
        if self.rebinding is not None and what == REGION_MISMATCH:
            refuse_varying_rebinding(self, a, b)
            note = rebinding_note(self.rebinding[0])
        if ast.dump(a) > ast.dump(b):      # one spelling per pair (a test is not repeated)
            a, b = b, a
        if is_const(a) and is_const(b):
            if a.value != b.value:
                raise self.err(like, f"shapes {a.value} and {b.value} do not broadcast")
            return
        test = ast.Compare(left=copy.deepcopy(a), ops=[ast.NotEq()], comparators=[copy.deepcopy(b)])
        if self.has_check(test, pre):
            return
        text = ast.unparse(like) if isinstance(like, ast.expr) else ast.unparse(like).split("\n")[0]
        if len(text) > 60:
            text = text[:57] + "..."
        msg = f"{what}: {ast.unparse(a)} != {ast.unparse(b)} in `{text}` ({self.where(like)})" + \
            (f"; {note}" if note else "")
        pre.append(self.run_time_check(test, msg))

    @staticmethod
    def has_check(test, pre) -> bool:
        """Is the run-time check ``test`` already among the statements ``pre``?"""
        return any(isinstance(q, ast.If) and getattr(q, "adtrans_shape_check", False) and same(q.test, test)
                   for q in pre)

    def where(self, like) -> str:
        """``file.py:line`` of the user's statement ``like``, for the messages of run-time checks."""
        return f"{os.path.basename(self.n.p.filename)}:{getattr(like, 'lineno', 0)}"

    @staticmethod
    def run_time_check(test, msg):
        """``if test: raise ValueError(msg)``, marked as a shape check (hoisted out of loops where
        its names do not change, counted instead of raised inside ``prange``)."""
        check = ast.If(test=test, body=[ast.Raise(exc=ast.Call(func=N("ValueError"), args=[C(msg)], keywords=[]),
                                                   cause=None)], orelse=[])
        check.adtrans_shape_check = True
        return check

    def hoist_checks(self, loop):
        """The run-time shape checks at the top level of ``loop``'s body whose names the loop does
        not assign, moved before it under a test that the loop runs at all (``if (n > 0) & (a !=
        b): raise ...``): one test per statement per loop, not per iteration, and no exit in the
        body of a ``prange`` loop (Numba runs a loop with one serially).  Ranges with a step
        other than a positive constant keep their checks inside."""
        args = loop.iter.args
        if len(args) == 1:
            runs = ast.Compare(left=copy.deepcopy(args[0]), ops=[ast.Gt()], comparators=[C(0)])
        elif len(args) == 2 or (len(args) == 3 and is_const(args[2]) and args[2].value > 0):
            runs = ast.Compare(left=copy.deepcopy(args[1]), ops=[ast.Gt()], comparators=[copy.deepcopy(args[0])])
        else:
            return []
        stored = {n.id for n in iter_nodes(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        moved, kept = [], []
        for q in loop.body:
            names = {n.id for n in iter_nodes(q.test) if isinstance(n, ast.Name)} if isinstance(q, ast.If) else set()
            if getattr(q, "adtrans_shape_check", False) and not names & stored:
                test = q.test.right if isinstance(q.test, ast.BinOp) else q.test
                if not any(same(test, m.test.right) for m in moved):
                    q.test = ast.BinOp(left=copy.deepcopy(runs), op=ast.BitAnd(), right=test)
                    moved.append(q)
            else:
                kept.append(q)
        loop.body = kept or [ast.Pass()]
        return located(moved, loop)

    def parallel_checks(self, loop):
        """The shape checks :meth:`hoist_checks` leaves in the body of a ``prange`` loop (under an
        ``if``, in a nested loop, or testing names the body assigns, ``m = lens[i]``) count instead
        of raising, and the loop raises after it: ``mismatch = 0`` before the loop, ``if a != b:
        mismatch += 1`` (a reduction) ``else: <the rest of the block>`` in the body, ``if mismatch
        > 0: raise ValueError(...)`` after it.  A body with an exit would make Numba run the loop
        serially; skipping the rest of the block keeps a mismatched iteration from reading out of
        bounds.  Returns (statements before the loop, statements after it)."""
        before, after = [], []

        def block(stmts):
            out = []
            for k, q in enumerate(stmts):
                if isinstance(q, ast.If) and getattr(q, "adtrans_shape_check", False):
                    count = self.fresh("mismatch")
                    self.sdt[count] = "int64"
                    before.append(ast.Assign(targets=[N(count, True)], value=C(0)))
                    after.append(ast.If(test=ast.Compare(left=N(count), ops=[ast.Gt()], comparators=[C(0)]),
                                        body=q.body, orelse=[]))
                    q.body = [ast.AugAssign(target=N(count, True), op=ast.Add(), value=C(1))]
                    q.orelse = block(stmts[k + 1:])
                    q.adtrans_shape_check = False
                    out.append(q)
                    return out
                if isinstance(q, (ast.If, ast.For, ast.While)):
                    q.body = block(q.body) or [ast.Pass()]
                    q.orelse = block(q.orelse)
                out.append(q)
            return out
        loop.body = block(loop.body)
        return located(before, loop), located(after, loop)

    # ------------------------------------------------------------- control
    def for_(self, s, pre):
        it = s.iter
        if isinstance(it, ast.Call) and self.canon(it.func) in ("builtins.range", "range") or (
                isinstance(it, ast.Call) and (self.canon(it.func) or "").endswith("prange")):
            it.args = [self.scalar(a, pre) for a in it.args]
            if isinstance(s.target, ast.Name):
                self.sdt[s.target.id] = "int64"
                if self.stores.get(s.target.id) == 1 and (len(it.args) == 1 or (
                        self.nonnegative(it.args[0]) and (len(it.args) == 2 or is_const(it.args[2]) and
                                                          it.args[2].value > 0))):
                    self.counters.add(s.target.id)
            par = (self.canon(it.func) or "").endswith("prange")
            self.pranges += par
            try:
                s.body = self.body(s.body)
            finally:
                self.pranges -= par
            hoisted = self.hoist_checks(s)
            if not par or self.pranges:
                # (a prange nested in another runs serially: the outer one's checks count its mismatches)
                return hoisted + [s]
            before, after = self.parallel_checks(s)
            return hoisted + before + [s] + after
        if self.ndim(it) > 0 and isinstance(s.target, ast.Name):
            arr = self.value(it, pre)
            k = self.fresh(s.target.id + "_k")
            self.sdt[k] = "int64"
            n = self.extent_atom(arr.shape[0], pre)
            sub = ast.Subscript(value=copy.deepcopy(it), slice=N(k), ctx=ast.Load())
            if not self.viewable(it):
                tmp = self.fresh("items")
                self.materialise_into(tmp, arr, pre, s)
                sub = ast.Subscript(value=N(tmp), slice=N(k), ctx=ast.Load())
            head = ast.copy_location(ast.Assign(targets=[s.target], value=sub), s)
            loop = ast.For(target=N(k, True), iter=ast.Call(func=N("range"), args=[n], keywords=[]),
                           body=[head] + s.body, orelse=s.orelse)
            ast.copy_location(loop, s)
            loop.body = self.body(loop.body)
            return [loop]
        s.body = self.body(s.body)
        return [s]

    def return_(self, s, pre):
        if s.value is None:
            return [s]
        vals = s.value.elts if isinstance(s.value, ast.Tuple) else [s.value]
        out, info, made = [], [], set()
        for v in vals:
            nd = self.ndim(v)
            if nd == 0:
                out.append(self.scalar(v, pre))
                info.append((0, self.sdtype(v)))
            elif isinstance(v, ast.Name) and v.id not in self.views:
                out.append(v)
                info.append(self.info[v.id])
            else:
                tmp = self.fresh("result")
                arr = self.value(v, pre)
                self.materialise_into(tmp, arr, pre, s)
                made.add(tmp)
                out.append(N(tmp))
                info.append((arr.ndim, arr.dtype))
        self.result_info = info
        # an array result is fresh unless it is a parameter's array or one bound nowhere here (a global)
        made_here = set(self.stores) | set(self.renames.values()) | made
        self.result_fresh = [nd > 0 and isinstance(v, ast.Name) and v.id not in self.params
                             and v.id not in self.views and v.id not in self.shared and v.id in made_here
                             for v, (nd, _) in zip(out, info)]
        if len(self.n.stack) == 1 and any(nd for nd, _ in info):
            return self.seeded_return(out, info, pre, s)
        s.value = out[0] if len(out) == 1 else ast.Tuple(elts=out, ctx=ast.Load())
        return [s]

    def seeded_return(self, out, info, pre, s):
        """A kernel returning arrays: ``return <r_1, w_1> + <r_2, w_2> + ...`` with one seed
        parameter ``w_k`` per result (an array like the result, or a float), so the adjoint of the
        returned float is the adjoint for those seeds (``autodiff(..., seed=(w_1, w_2))``)."""
        total = None
        for k, (v, (nd, dt)) in enumerate(zip(out, info)):
            w = self.fresh(f"seed_{v.id}" if isinstance(v, ast.Name) else f"seed_{k}")
            self.seed_params.append((w, nd, "float64" if dt != "float32" else dt))
            if nd:
                self.info[w] = (nd, "float64")
                x = self.value(ast.BinOp(left=v, op=ast.Mult(), right=N(w)), pre)
                term = self.reduce_all("sum", x, pre, s)
            else:
                term = ast.BinOp(left=v, op=ast.Mult(), right=N(w))
            total = term if total is None else ast.BinOp(left=total, op=ast.Add(), right=term)
        self.result_info = [(0, "float64")]
        return [ast.copy_location(ast.Return(value=total), s)]

    # --------------------------------------------------------------- views
    def viewable(self, e):
        if isinstance(e, ast.Name):
            return self.array_info(e.id) is not None and self.ndim(e) > 0
        if isinstance(e, ast.Subscript):
            if not self.viewable(e.value):
                return False
            elts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
            return all(isinstance(x, ast.Slice) or self.newaxis(x) or self.ndim(x) == 0 for x in elts)
        if isinstance(e, ast.Attribute) and e.attr == "T":
            return self.viewable(e.value)
        if isinstance(e, ast.Call) and not e.args and isinstance(e.func, ast.Attribute) and e.func.attr == "transpose":
            return self.viewable(e.func.value)
        if isinstance(e, ast.Call) and self.numpy_name(e.func) == "transpose" and len(e.args) == 1:
            return self.viewable(e.args[0])
        if isinstance(e, ast.Call) and self.numpy_name(e.func) == "transpose" and len(e.args) == 2 \
                and self.axes_order(e) is not None:
            return self.viewable(e.args[0])
        return False

    def axes_order(self, call):
        """The constant permutation of ``np.transpose(x, (1, 0, 2))`` (None: not one)."""
        try:
            perm = ast.literal_eval(call.args[1])
        except (ValueError, IndexError):
            return None
        nd = self.ndim(call.args[0])
        if not isinstance(perm, (tuple, list)) or sorted(p % nd if isinstance(p, int) and -nd <= p < nd else None
                                                         for p in perm) != list(range(nd)):
            return None
        return [p % nd for p in perm]

    def to_view(self, e, pre) -> View:
        if isinstance(e, ast.Name):
            if e.id in self.views:
                return copy.deepcopy(self.views[e.id])
            nd, dt = self.array_info(e.id)
            view = View.whole(e.id, nd, dt)
            for k in self.unit_axes.get(e.id, ()):
                view.axes[k].length = C(1)
            return view
        if isinstance(e, ast.Attribute):         # .T
            v = self.to_view(e.value, pre)
            v.axes = v.axes[::-1]
            return v
        if isinstance(e, ast.Call):
            v = self.to_view(e.func.value if isinstance(e.func, ast.Attribute) and not e.args else e.args[0], pre)
            v.axes = v.axes[::-1] if len(e.args) < 2 else [v.axes[p] for p in self.axes_order(e)]
            return v
        if isinstance(e, ast.Subscript) and not self.viewable(e.value):
            arr = self.value(e.value, pre)
            tmp = self.fresh("part")
            self.materialise_into(tmp, arr, pre, e)
            return self.index_view(View.whole(tmp, arr.ndim, arr.dtype), e, pre)
        return self.index_view(self.to_view(e.value, pre), e, pre)

    def newaxis(self, x):
        return (isinstance(x, ast.Constant) and x.value is None) or (
            isinstance(x, ast.Attribute) and self.canon(x) == "numpy.newaxis")

    def index_view(self, v, e, pre):
        elts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        elts = [C(None) if self.newaxis(x) else x for x in elts]
        new, fixed, k = [], dict(v.fixed), 0
        if any(isinstance(x, ast.Constant) and x.value is Ellipsis for x in elts):
            raise self.err(e, "`...` in an index of an array whose number of dimensions is not known here",
                           "write the slices out (`x[:, :, 0]`)")
        for x in elts:
            if isinstance(x, ast.Constant) and x.value is None:
                new.append(ViewAxis(None))
                continue
            if k >= len(v.axes):
                raise self.err(e, f"too many indices in `{ast.unparse(e)}`")
            ax = v.axes[k]
            k += 1
            if isinstance(x, ast.Slice):
                if ax.base is None:
                    new.append(ax)
                    continue
                start, step, length = self.slice_parts(x, ax.length, pre, e)
                new.append(ViewAxis(ax.base, add(ax.start, mul(ax.step, start)), mul(ax.step, step), length))
            else:
                i = self.scalar(x, pre)
                if is_const(i) and i.value < 0:
                    i = add(copy.deepcopy(ax.length), i)
                if ax.base is not None:
                    fixed[ax.base] = add(ax.start, mul(ax.step, i))
        new += v.axes[k:]
        return View(v.base, v.base_ndim, v.dtype, fixed, new)

    def slice_bound(self, b, n, pre, like, upper=False, forward=True):
        """A slice bound on an axis of ``n`` elements as an index, clipped to the axis as Python and
        Numba clip it (``x[:k]`` with ``k > n`` is ``x[:n]``, ``x[2:100]`` of 10 elements ``x[2:10]``):
        with a positive step to ``[0, n]``, with a negative one to ``[-1, n - 1]``.  A negative
        constant counts from the end; ``-k`` with ``k`` known at run time is ``n - k`` where ``k > 0``
        (and ``-k`` clipped to the axis where ``k <= 0``: ``x[:-0]`` is empty).  ``upper``: the stop
        bound; ``forward``: a positive step.  A bound whose overshoot can only make the slice empty
        (a start past the end of a forward slice, a stop below a backward one's start) is left as
        written, so ``x[1:] - x[:-1]`` keeps extents that are seen to agree, and so is a bound that is
        never negative by how it is written (:meth:`nonnegative`: ``x[i:i + 3]`` in a ``range``
        loop keeps its affine index); any other bound known only at run time is tested for its
        sign (``k + n`` where ``k < 0``)."""
        if b is None:
            return None
        v = self.scalar(b, pre)
        lo, hi = (C(0), copy.deepcopy(n)) if forward else (C(-1), sub(copy.deepcopy(n), C(1)))
        if is_const(v) and is_const(n) and type(v.value) is int and type(n.value) is int:
            c = v.value + n.value if v.value < 0 else v.value
            return C(max(lo.value, min(c, hi.value)))
        # the bound that may lie beyond the end the slice runs towards: a forward stop, a backward start
        towards = upper == forward

        def clipped(val):
            nm = self.fresh("bound")
            self.sdt[nm] = "int64"
            pre.append(ast.copy_location(ast.Assign(targets=[N(nm, True)], value=val), like))
            return N(nm)

        def call(f, a, b):
            return ast.Call(func=N(f), args=[a, b], keywords=[])
        if is_const(v) and v.value < 0:
            w = add(copy.deepcopy(n), v)
            return w if towards else clipped(call("max", w, lo))
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub) and not is_const(v.operand):
            e = v.operand
            pos = ast.Compare(left=copy.deepcopy(e), ops=[ast.Gt()], comparators=[C(0)])
            return clipped(ast.IfExp(test=pos, body=call("max", sub(copy.deepcopy(n), copy.deepcopy(e)), lo),
                                     orelse=call("min", copy.deepcopy(v), hi)))
        if self.nonnegative(v):
            return clipped(call("min", v, hi)) if towards and not same(v, n) else v
        nonneg = ast.Compare(left=copy.deepcopy(v), ops=[ast.GtE()], comparators=[C(0)])
        return clipped(ast.IfExp(test=nonneg, body=call("min", copy.deepcopy(v), hi) if towards else
                                 copy.deepcopy(v), orelse=call("max", add(copy.deepcopy(v), copy.deepcopy(n)), lo)))

    def nonnegative(self, e) -> bool:
        """Is integer expression ``e`` never negative by how it is written (constants, extents,
        ``len``, counters of ``range`` loops from a non-negative start, sums and products of them)?"""
        if is_const(e):
            return e.value >= 0
        if isinstance(e, ast.Name):
            return e.id in self.counters
        if _is_shape(e):
            return True
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Mult, ast.FloorDiv)):
            return self.nonnegative(e.left) and self.nonnegative(e.right)
        return isinstance(e, ast.Call) and self.canon(e.func) == "builtins.len"

    def slice_parts(self, sl, n, pre, like):
        """(start, step, length) of ``sl`` on an axis of ``n`` elements (bounds within the axis)."""
        step = self.scalar(sl.step, pre) if sl.step is not None else C(1)
        if not is_const(step):
            return self.variable_step(sl, step, n, pre, like)
        if step.value == 0:
            raise self.err(like, f"slice step `{ast.unparse(sl)}`", "use a constant nonzero step")

        one = _single_element(sl)
        if one is not None:
            return self.single_element_slice(sl, one, n, pre, like)
        fwd = step.value > 0
        lo = self.slice_bound(sl.lower, n, pre, like, forward=fwd)
        hi = self.slice_bound(sl.upper, n, pre, like, upper=True, forward=fwd)
        k = step.value
        if k > 0:
            start = lo if lo is not None else C(0)
            stop = hi if hi is not None else copy.deepcopy(n)
            span = sub(stop, start)
            length = span if k == 1 else ast.BinOp(left=add(span, C(k - 1)), op=ast.FloorDiv(), right=C(k))
        else:
            start = lo if lo is not None else sub(copy.deepcopy(n), C(1))
            stop = hi if hi is not None else C(-1)
            span = sub(start, stop)
            length = span if k == -1 else ast.BinOp(left=add(span, C(-k - 1)), op=ast.FloorDiv(), right=C(-k))
        if not (is_const(length) or _is_shape(length) or isinstance(length, ast.Name) or
                (isinstance(length, ast.BinOp) and isinstance(length.op, ast.Sub) and _is_shape(length.left)
                 and is_const(length.right))):
            length = ast.Call(func=N("max"), args=[length, C(0)], keywords=[])
        return start, step, length

    def single_element_slice(self, sl, a, n, pre, like):
        """``x[a:a + 1]`` (constant bounds, also ``x[:1]``, ``x[-1:]``) on an axis of ``n`` elements:
        extent 1 by construction, so it broadcasts as in NumPy (``p[:, 0:1] - p[:, 0:1].T``).  An
        axis too short to hold element ``a`` (where NumPy's slice is empty) is a ``ValueError``
        naming the line, checked at run time."""
        start = C(a) if a >= 0 else add(copy.deepcopy(n), C(a))
        test = ast.Compare(left=copy.deepcopy(n), ops=[ast.LtE() if a >= 0 else ast.Lt()],
                           comparators=[C(a if a >= 0 else -a)])
        if not self.has_check(test, pre):
            msg = (f"slice `{ast.unparse(sl)}` of an axis of {ast.unparse(n)} elements is empty ({self.where(like)}); "
                   f"adtrans gives a constant one-element slice extent 1")
            pre.append(ast.copy_location(self.run_time_check(test, msg), like))
        return start, C(1), C(1)

    def variable_step(self, sl, step, n, pre, like):
        """(start, step, length) of a slice with a variable step: its sign is read from how it is
        written (``x[::k]`` positive, ``x[::-k]`` negative) and checked at run time (``ValueError``
        naming the line otherwise, as NumPy raises for a zero step).  Bounds must be omitted,
        constants or names, as with a constant step."""
        neg = isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub)
        size = step.operand if neg else step
        if isinstance(size, ast.Name):
            mag = size.id
        else:
            mag = self.fresh("stride")
            self.sdt[mag] = "int64"
            pre.append(ast.copy_location(ast.Assign(targets=[N(mag, True)], value=size), like))
        test = ast.Compare(left=N(mag), ops=[ast.LtE()], comparators=[C(0)])
        if not self.has_check(test, pre):
            msg = (f"slice step {ast.unparse(sl.step)}: {ast.unparse(size)} must be positive ({self.where(like)}); "
                   f"adtrans reads the sign of a variable step from how it is written (x[::k] or x[::-k])")
            pre.append(ast.copy_location(self.run_time_check(test, msg), like))

        lo = self.slice_bound(sl.lower, n, pre, like, forward=not neg)
        hi = self.slice_bound(sl.upper, n, pre, like, upper=True, forward=not neg)
        if not neg:
            start = lo if lo is not None else C(0)
            span = sub(hi if hi is not None else copy.deepcopy(n), start)
            stride = N(mag)
        else:
            start = lo if lo is not None else sub(copy.deepcopy(n), C(1))
            span = sub(start, hi if hi is not None else C(-1))
            stride = ast.UnaryOp(op=ast.USub(), operand=N(mag))
        length = ast.Call(func=N("max"), args=[ast.BinOp(left=add(span, sub(N(mag), C(1))), op=ast.FloorDiv(),
                                                         right=N(mag)), C(0)], keywords=[])
        return start, stride, length

    def bind_view(self, t, view, pre, s):
        """``t = <view>``: later uses of ``t`` index ``view``'s base; its index values are copied."""
        slots = []

        def slot(expr, base):
            if is_const(expr) or _is_shape(expr):
                return expr
            nm = f"{t}_{base}"
            slots.append((nm, expr))
            return nm

        old = self.views.get(t)
        names = iter(old.slot_names) if old is not None and getattr(old, "slot_names", None) else None
        if old is not None and _structure(old) != _structure(view):
            raise self.err(s, f"`{t}` rebound to a view of a different shape or array", "use a new name")
        made = []
        pieces = [("fixed", b) for b in sorted(view.fixed)] + \
            [(f, k) for k, a in enumerate(view.axes) if a.base is not None for f in ("start", "step", "length")]
        used = []
        for kind, key in pieces:
            expr = view.fixed[key] if kind == "fixed" else getattr(view.axes[key], kind)
            if is_const(expr) or _is_shape(expr):
                used.append(None)
                continue
            nm = next(names) if names is not None else self.fresh(f"{t}_{'i' if kind == 'fixed' else kind[:3]}")
            used.append(nm)
            made.append(ast.copy_location(ast.Assign(targets=[N(nm, True)], value=self.scalar(expr, pre)), s))
            self.sdt[nm] = "int64"
            if kind == "fixed":
                view.fixed[key] = N(nm)
            else:
                setattr(view.axes[key], kind, N(nm))
        view.slot_names = [u for u in used if u is not None]
        if old is not None and [u for u in used] != getattr(old, "slot_pattern", used):
            raise self.err(s, f"`{t}` rebound to a view with different index kinds", "use a new name")
        view.slot_pattern = used
        self.views[t] = view
        return made

    # --------------------------------------------------------------- values
    def value(self, e, pre):
        """The :class:`Arr` of expression ``e`` (a :class:`Scalar` when ``e`` is scalar)."""
        if isinstance(e, ast.Name) and e.id in self.deferred:
            return self.deferred[e.id]
        if self.ndim(e) == 0:
            return Scalar(self.scalar(e, pre), self.sdtype(e))
        if self.viewable(e):
            return Ref(self.to_view(e, pre))
        chk = (lambda a, b: self.check(a, b, pre, e))
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.MatMult):
                return self.matmul(self.value(e.left, pre), self.value(e.right, pre), pre, e)
            l, r = self.value(e.left, pre), self.value(e.right, pre)
            op = e.op
            dt = join_dtypes([l.dtype, r.dtype])
            if isinstance(op, ast.Div) and dt in ("int64", "bool"):
                dt = "float64"
            if isinstance(op, (ast.BitAnd, ast.BitOr)) and dt == "bool":
                bop = ast.And() if isinstance(op, ast.BitAnd) else ast.Or()
                return elementwise([l, r], "bool", lambda a: ast.BoolOp(op=bop, values=a), chk)
            return elementwise([l, r], dt, lambda a: ast.BinOp(left=a[0], op=copy.deepcopy(op), right=a[1]), chk)
        if isinstance(e, ast.UnaryOp):
            x = self.value(e.operand, pre)
            op = e.op
            if isinstance(op, ast.Invert) and x.dtype == "bool":
                op = ast.Not()
            return elementwise([x], "bool" if isinstance(op, ast.Not) else x.dtype,
                               lambda a: ast.UnaryOp(op=copy.deepcopy(op), operand=a[0]), chk)
        if isinstance(e, ast.Compare):
            parts = [self.value(e.left, pre)] + [self.value(c, pre) for c in e.comparators]
            ops = e.ops

            def cmp(a):
                terms = [ast.Compare(left=a[k], ops=[copy.deepcopy(ops[k])], comparators=[a[k + 1]])
                         for k in range(len(ops))]
                return terms[0] if len(terms) == 1 else ast.BoolOp(op=ast.And(), values=terms)
            return elementwise(parts, "bool", cmp, chk)
        if isinstance(e, ast.IfExp):
            c = self.scalar(e.test, pre)
            b, o = self.value(e.body, pre), self.value(e.orelse, pre)
            return elementwise([b, o], join_dtypes([b.dtype, o.dtype]),
                               lambda a: ast.IfExp(test=copy.deepcopy(c), body=a[0], orelse=a[1]), chk)
        if isinstance(e, ast.Call):
            return self.call_value(e, pre)
        if isinstance(e, ast.Attribute) and e.attr == "real":
            return self.value(e.value, pre)
        part = self.lapack_part(e)
        if part is not None:
            return self.lapack(part[0], list(e.value.args), pre, e.value, part=part[1])
        if isinstance(e, ast.Subscript) and self.is_gather(e):
            return self.gather(e, pre)
        if isinstance(e, ast.Subscript):
            return Ref(self.to_view(e, pre))
        if isinstance(e, ast.Attribute) and e.attr == "T":
            x = self.value(e.value, pre)
            v = View.whole(self.materialise(x, pre, e), x.ndim, x.dtype)
            v.axes = v.axes[::-1]
            return Ref(v)
        raise self.err(e, f"array expression `{ast.unparse(e)}`",
                       "use element-wise arithmetic, ufuncs, slices and reductions, or write the loop")

    def is_gather(self, e):
        """``x[idx]`` with an integer array ``idx``, or ``x[r, c]`` with several (:meth:`advanced_indices`)."""
        elts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        return any(not isinstance(x, ast.Slice) and self.ndim(x) > 0 for x in elts)

    def advanced_indices(self, e):
        """``(a, lead)`` for ``x[r, c]`` / ``x[0, c]`` / ``x[:, c]`` / ``x[r, c, :]``: integer arrays
        and integers ``lead`` on adjacent axes from axis ``a`` (NumPy broadcasts them together and
        puts their shape there; Numba compiles it), slices around them.  Index arrays apart from
        each other (``x[r, :, c]``, NumPy moves their axes first) or beside ``None`` are refused
        with the line."""
        elts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]

        def full(x):          # a slice (x[1:, c] is x[1:, :][:, c]: see sliced_base)
            return isinstance(x, ast.Slice)
        a = 0
        while a < len(elts) and full(elts[a]):
            a += 1
        k = a
        while k < len(elts) and not isinstance(elts[k], ast.Slice) and not self.newaxis(elts[k]):
            k += 1
        if not all(full(x) for x in elts[k:]) or k > self.ndim(e.value) or k == a:
            raise self.err(e, f"indexing with an array and other indices `{ast.unparse(e)}`",
                           "index adjacent axes with the integer arrays and integers, slices around them "
                           "(x[r, c], x[0, c], x[1:, c], x[r, c, :]), or write the gather loop")
        return a, elts[a:k]

    def sliced_base(self, e, a, lead):
        """``x[1:, c]``: the view ``x[1:, :]`` the index arrays then index (slices are basic
        indexing: applied first, they give the same elements); ``x`` itself where all are ``:``."""
        elts = e.slice.elts
        if all(isinstance(x, ast.Slice) and x.lower is None and x.upper is None and x.step is None
               for k, x in enumerate(elts) if not a <= k < a + len(lead)):
            return e.value
        parts = [ast.Slice() if a <= k < a + len(lead) else copy.deepcopy(x) for k, x in enumerate(elts)]
        return ast.copy_location(ast.Subscript(value=copy.deepcopy(e.value), slice=ast.Tuple(elts=parts, ctx=ast.Load()),
                                               ctx=ast.Load()), e)

    def gather(self, e, pre):
        """``x[idx]`` (``idx`` an integer array, constant): the element function ``x[idx[k], ...]``,
        shape ``idx.shape + x.shape[1:]``.  Its adjoint is the scatter-add ``dx[idx[k]] += dy[k]``
        (repeated indices add up).  Negative indices count from the end, as in NumPy; indices out
        of range are not checked (as Numba's own indexing).  A boolean ``idx`` is a mask: the
        gather at its positions (:meth:`positions`)."""
        if isinstance(e.slice, ast.Tuple):
            return self.gather_multi(e, pre)
        idx = self.value(e.slice, pre)
        x = self.value(e.value, pre)
        if idx.dtype == "bool":
            return self.gather_at(x, self.positions(idx, x, pre, e, e.slice), pre, wrap=False)
        if idx.dtype != "int64":
            raise self.err(e, f"indexing with a {idx.dtype} array `{ast.unparse(e)}`", "index with integers")
        return self.gather_at(x, idx, pre)

    def index_values(self, e, lead, pre, like):
        """The values of the leading integer indices ``lead`` of ``e`` (masks refused) and their
        broadcast shape."""
        idxs = [self.value(a, pre) for a in lead]
        for a, v in zip(lead, idxs):
            if v.dtype != "int64" and not (isinstance(a, ast.Constant) and type(a.value) is int):
                raise self.err(like, f"a {v.dtype} index `{ast.unparse(a)}` beside other indices in "
                               f"`{ast.unparse(e)}`", "index with integer arrays (np.nonzero(mask) gives them)")
        chk = (lambda a, b: self.check(a, b, pre, like, "shape mismatch: indexing arrays could not be "
                                       "broadcast together"))
        return idxs, broadcast(idxs, chk)

    def wrapped(self, t, n):
        """Index expression ``t`` with a negative value counted from the end ``n`` (None: as is)."""
        if n is None:
            return t
        return ast.IfExp(test=ast.Compare(left=copy.deepcopy(t), ops=[ast.Lt()], comparators=[C(0)]),
                         body=add(copy.deepcopy(t), copy.deepcopy(n)), orelse=t)

    def gather_multi(self, e, pre):
        """``x[r, c]``, ``x[:, c]`` (integer arrays and integers on adjacent axes, constant): the
        element function ``x[..., r[k], c[k], ...]``, their broadcast shape in their place.
        Its adjoint is the scatter-add ``dx[r[k], c[k]] += dy[k]`` (repeats add up)."""
        a, lead = self.advanced_indices(e)
        x = self.value(self.sliced_base(e, a, lead), pre)
        idxs, bshape = self.index_values(e, lead, pre, e)
        whole = isinstance(x, Ref) and _whole_view(x.view)
        ns = [None if whole else self.extent_atom(x.shape[a + j], pre) for j in range(len(lead))]
        b = len(bshape)

        def at(ix):
            mid = [self.wrapped(v.at(bidx(v, ix[a:a + b], bshape)), n) for v, n in zip(idxs, ns)]
            return x.at(list(ix[:a]) + mid + list(ix[a + b:]))
        return Gen(list(x.shape[:a]) + list(bshape) + list(x.shape[a + len(lead):]), x.dtype, at)

    def gather_at(self, x, idx, pre, wrap=True):
        """The element function ``x[idx[k], ...]`` (``wrap``: negative indices count from the end)."""
        whole = isinstance(x, Ref) and _whole_view(x.view)
        n = None if whole or not wrap else self.extent_atom(x.shape[0], pre)
        k = idx.ndim

        def at(ix):              # a view or an expression: wrap a negative index here
            return x.at([self.wrapped(idx.at(ix[:k]), n)] + list(ix[k:]))
        return Gen(list(idx.shape) + list(x.shape[1:]), x.dtype, at)

    def positions(self, mask, x, pre, like, spelled):
        """A boolean mask of ``x``'s first axis as the (constant) integer array of its true
        positions, in order: ``x[mask]`` is the gather ``x[pos[k]]`` and ``x[mask] = v`` the
        scatter ``x[pos[k]] = v[k]``, so a mask has no derivative and every loop strategy serves
        the rest.  Two passive integer loops, before the statement::

            cnt = 0
            for i in range(n):
                if mask[i]: cnt += 1
            pos = np.empty(cnt, dtype=np.int64)
            j = 0
            for i in range(n):
                if mask[i]: pos[j] = i; j += 1

        The mask's length must be ``x``'s (checked at run time).  A mask spelled the same way
        twice in one statement (``y[m] = c * y[m]``) has one positions array: nothing is written
        before the statement's last loop.  Numba indexes with 1-d masks only, so a mask of more
        dimensions is refused with the line."""
        src = ast.unparse(like) if isinstance(like, ast.expr) else ast.unparse(like).split("\n")[0]
        if mask.ndim != 1:
            raise self.err(like, f"a {mask.ndim}-d boolean mask in `{src}` (Numba compiles 1-d masks only)",
                           "use np.where(mask, x, 0.0) (a fixed shape), index rows with a 1-d mask, or write "
                           "the loop: for i ...: for j ...: if mask[i, j]: ...")
        if x.ndim == 0:
            raise self.err(like, f"a boolean mask of a scalar in `{src}`")
        self.check(mask.shape[0].extent, x.shape[0].extent, pre, like,
                   "boolean index did not match the indexed array")
        key = ast.dump(spelled)
        if key in self.masks:
            return copy.deepcopy(self.masks[key])
        n = self.extent_atom(mask.shape[0], pre)
        cnt, pos, j = self.fresh("count"), self.fresh("where"), self.fresh("j")
        self.sdt[cnt] = self.sdt[j] = "int64"

        def hit(i):
            return mask.at([i])
        pre.append(ast.copy_location(ast.Assign(targets=[N(cnt, True)], value=C(0)), like))
        pre += self.loops([n], lambda ix: [ast.If(test=hit(ix[0]), body=[
            ast.AugAssign(target=N(cnt, True), op=ast.Add(), value=C(1))], orelse=[])], like)
        pre.append(ast.copy_location(ast.Assign(targets=[N(pos, True)], value=ast.Call(
            func=self.npf("empty"), args=[N(cnt)], keywords=[ast.keyword(arg="dtype", value=self.npf("int64"))])),
            like))
        pre.append(ast.copy_location(ast.Assign(targets=[N(j, True)], value=C(0)), like))
        pre += self.loops([copy.deepcopy(n)], lambda ix: [ast.If(test=hit(ix[0]), body=[
            ast.Assign(targets=[ast.Subscript(value=N(pos), slice=N(j), ctx=ast.Store())], value=ix[0]),
            ast.AugAssign(target=N(j, True), op=ast.Add(), value=C(1))], orelse=[])], like)
        self.info[pos] = (1, "int64")
        note_data_shaped(self, pos)
        self.masks[key] = Ref(View.whole(pos, 1, "int64"))
        return copy.deepcopy(self.masks[key])

    def norm_args(self, e, args):
        """``(ord, axis)`` of ``np.linalg.norm(x, ord, axis)``: ord None, a number (``np.inf`` ->
        ``math.inf``) or a string; axis None or an int."""
        kw = {k.arg: k.value for k in e.keywords}
        if set(kw) - {"ord", "axis"}:
            raise self.err(e, "np.linalg.norm with keepdims", "reshape the result")
        o = args[1] if len(args) > 1 else kw.get("ord")
        a = args[2] if len(args) > 2 else kw.get("axis")
        ord_ = None
        if o is not None and not (isinstance(o, ast.Constant) and o.value is None):
            neg = isinstance(o, ast.UnaryOp) and isinstance(o.op, ast.USub)
            v = o.operand if neg else o
            if isinstance(v, ast.Constant) and isinstance(v.value, (int, float, str)) and not isinstance(v.value, bool):
                ord_ = v.value
            elif self.canon(v) in ("numpy.inf", "math.inf"):
                ord_ = float("inf")
            else:
                raise self.err(e, f"np.linalg.norm with ord `{ast.unparse(o)}`",
                               "use a constant ord (1, 2, np.inf ...)")
            if neg:
                if isinstance(ord_, str):
                    raise self.err(e, f"np.linalg.norm with ord `{ast.unparse(o)}`")
                ord_ = -ord_
        axis = None
        if a is not None and not (isinstance(a, ast.Constant) and a.value is None):
            try:
                axis = ast.literal_eval(a)
            except ValueError:
                axis = "variable"
            if not isinstance(axis, int) or isinstance(axis, bool):
                raise self.err(e, f"np.linalg.norm with axis `{ast.unparse(a)}`", "use a constant integer axis")
        return ord_, axis

    def norm_form(self, e, args):
        """``np.linalg.norm(x, ord, axis)`` written with reductions (None: the default 2-norm of the
        flattened array, lowered by the caller).  Vector norms (1-D ``x``, or along ``axis``):
        ord 2 ``sqrt(sum(x*x))``, 1 ``sum(|x|)``, inf ``max(|x|)``, -inf ``min(|x|)``, p > 0
        ``sum(|x|**p)**(1/p)``; matrix norms (2-D ``x``, no axis): 'fro' (and None) the 2-norm of
        the elements, 1 ``max(sum(|x|, axis=0))``, inf ``max(sum(|x|, axis=1))`` (-1/-inf: min).
        The spectral norm (ord 2 / -2 of a matrix) is :meth:`spectral` (the SVD).  Refused: 'nuc'
        (Numba does not compile it), ord 0 and negative p (no derivative or a singular one
        everywhere)."""
        ord_, axis = self.norm_args(e, args)
        nd = self.ndim(args[0])
        x = args[0]
        if axis is None and (ord_ is None or (nd == 1 and ord_ == 2) or (nd == 2 and ord_ == "fro")):
            return None
        if axis is not None and nd == 1:
            axis = None
        if isinstance(ord_, str) and (axis is not None or nd != 2 or ord_ != "fro"):
            raise self.err(e, f"np.linalg.norm with ord '{ord_}'",
                           "'fro' of a matrix only; the nuclear norm (which Numba does not compile) is "
                           "np.sum(np.linalg.svd(A)[1])")

        def call(fn, *a, axis=None):
            kws = [] if axis is None else [ast.keyword(arg="axis", value=C(axis))]
            return ast.copy_location(ast.Call(func=self.npf(fn), args=list(a), keywords=kws), e)

        def ab():
            return call("abs", copy.deepcopy(x))
        if nd == 2 and axis is None:          # matrix norms
            if ord_ in (1, -1, float("inf"), float("-inf")):
                red = "max" if ord_ > 0 else "min"
                return call(red, call("sum", ab(), axis=0 if abs(ord_) == 1 else 1))
            raise self.err(e, f"np.linalg.norm of a matrix with ord {ord_!r}", "use 'fro', 1, 2, np.inf, -1, -2 or -np.inf")
        if nd > 2 and axis is None and ord_ is not None:
            raise self.err(e, f"np.linalg.norm of a {nd}-d array with ord {ord_!r}", "pass axis= or flatten it")
        if ord_ is None or ord_ == "fro":
            ord_ = 2
        if ord_ == 2:
            return call("sqrt", call("sum", ast.BinOp(left=copy.deepcopy(x), op=ast.Mult(), right=copy.deepcopy(x)),
                                     axis=axis))
        if ord_ == 1:
            return call("sum", ab(), axis=axis)
        if ord_ in (float("inf"), float("-inf")):
            return call("max" if ord_ > 0 else "min", ab(), axis=axis)
        if isinstance(ord_, (int, float)) and ord_ > 0:
            p = float(ord_)
            return ast.BinOp(left=call("sum", ast.BinOp(left=ab(), op=ast.Pow(), right=C(p)), axis=axis),
                             op=ast.Pow(), right=C(1.0 / p))
        raise self.err(e, f"np.linalg.norm with ord {ord_!r}", "use ord 1, 2, np.inf, -np.inf or a positive p")

    def permutation(self, x, pre, like, name):
        """``(src, perm)``: names holding 1-D ``x`` and ``np.argsort(src)`` (a constant integer array)."""
        if x.ndim != 1:
            raise self.err(like, f"np.{name} of a {x.ndim}-d array",
                           f"{name} a 1-d array (loop over the rows: np.{name}(A[i]))")
        src = self.materialise(x, pre, like, "unsorted")
        perm = self.fresh("order")
        call = ast.Call(func=self.npf("argsort"), args=[N(src)], keywords=[])
        if self.depth == 0:
            pre.append(ast.copy_location(ast.Assign(targets=[N(perm, True)], value=call), like))
        else:
            # inside a loop the permutation changes from one iteration to the next: the engine sees
            # an array written by stores (so the reverse sweep reads each iteration's own), not one
            # rebound by a call
            raw = self.fresh("argsort")
            pre.append(ast.copy_location(ast.Assign(targets=[N(raw, True)], value=call), like))
            self.info[raw] = (1, "int64")
            self.materialise_into(perm, Ref(View.whole(raw, 1, "int64")), pre, like)
        self.info[perm] = (1, "int64")
        return src, perm

    def materialise(self, arr, pre, like, base="t"):
        """A name holding ``arr`` (a view's base is reused when ``arr`` is a whole-array view)."""
        if isinstance(arr, Ref) and not arr.view.fixed and len(arr.view.axes) == arr.view.base_ndim and all(
                a.base == k and is_const(a.start, 0) and is_const(a.step, 1) for k, a in enumerate(arr.view.axes)):
            return arr.view.base
        tmp = self.fresh(base)
        self.materialise_into(tmp, arr, pre, like)
        return tmp

    def materialise_into(self, t, arr, pre, like):
        """``t = np.empty(shape)`` and the loop nest storing ``arr`` into it."""
        if arr.ndim == 0:
            pre.append(ast.copy_location(ast.Assign(targets=[N(t, True)], value=arr.at([])), like))
            return
        ext = [self.extent_atom(a, pre) for a in arr.shape]
        alloc = ast.Call(func=self.npf("empty"), args=[ast.Tuple(elts=[copy.deepcopy(x) for x in ext],
                                                                  ctx=ast.Load())],
                         keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(arr.dtype)))])
        pre.append(ast.copy_location(ast.Assign(targets=[N(t, True)], value=alloc), like))
        self.info[t] = (arr.ndim, arr.dtype)
        note_data_shaped(self, t, ext)
        units = {k for k, a in enumerate(arr.shape) if a.unit}
        if units:       # `mu = s.reshape(-1, 1)`: axis 1 of mu is 1 by construction, it broadcasts
            self.unit_axes[t] = units
        else:
            self.unit_axes.pop(t, None)

        def body(idx):
            tgt = ast.Subscript(value=N(t), slice=_idx(idx), ctx=ast.Store())
            return [ast.Assign(targets=[tgt], value=arr.at(idx))]
        pre += self.loops(ext, body, like)

    def extent_atom(self, a, pre):
        e = a.extent
        if is_const(e) or isinstance(e, ast.Name) or _is_shape(e):
            return copy.deepcopy(e)
        nm = self.fresh("n")
        pre.append(ast.Assign(targets=[N(nm, True)], value=self.scalar(copy.deepcopy(e), pre)))
        self.sdt[nm] = "int64"
        return N(nm)

    def loops(self, ext, body, like, names=None):
        idx = [self.fresh(nm) for nm in (names or _index_names(len(ext)))]
        for k in idx:
            self.sdt[k] = "int64"
        inner = body([N(k) for k in idx])
        for k, n in reversed(list(zip(idx, ext))):
            inner = [ast.For(target=N(k, True), iter=ast.Call(func=N("range"), args=[copy.deepcopy(n)], keywords=[]),
                             body=inner, orelse=[])]
        return located(inner, like)

    def size_of(self, arr, pre):
        out = C(1)
        for a in arr.shape:
            out = mul(out, self.extent_atom(a, pre))
        return out

    # ----------------------------------------------------------------- calls
    def call_value(self, e, pre):
        f = e.func
        name, recv = self.function_of(e)
        args = ([recv] if recv is not None else []) + list(e.args)
        kw = {k.arg: k.value for k in e.keywords}
        chk = (lambda a, b: self.check(a, b, pre, e))
        if name is None:
            if self.vectorized(e):      # the scalar function per element (inlined as a helper)
                parts = [self.value(a, pre) for a in e.args]
                dt = join_dtypes([p.dtype for p in parts])
                return elementwise(parts, "float64" if dt in ("int64", "bool") else dt,
                                   lambda a: ast.Call(func=copy.deepcopy(e.func), args=a, keywords=[]), chk)
            if self.is_helper(e):
                tmp = self.fresh("ret")
                call = self.scalar(e, pre)
                pre.append(ast.copy_location(ast.Assign(targets=[N(tmp, True)], value=call), e))
                infos = self.helper_results(e)
                self.info[tmp] = infos[0]
                return Ref(View.whole(tmp, *infos[0]))
            raise self.err(e, f"call `{ast.unparse(e.func)}` on arrays, which has no adjoint rule",
                           "call it element by element in a loop")
        if name in REWRITES:
            return self.value(ast.copy_location(REWRITES[name](self, e, args, kw), e), pre)
        if name in VALUES:
            return VALUES[name][1](self, e, args, kw, pre)
        if name in CONSTANT_CALLS:
            return constant_call(self, name, e, args, kw, pre)
        if name in REDUCTIONS or name in ("amax", "amin"):
            return self.reduce_axis(name.lstrip("a") if name in ("amax", "amin") else name, args[0], _axis(e, recv),
                                    pre, e)
        if name in ("dot", "matmul"):
            return self.matmul(self.value(args[0], pre), self.value(args[1], pre), pre, e)
        if name in ("zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like"):
            if name.endswith("_like"):
                src = self.value(args[0], pre)
                shape, dt = src.shape, src.dtype
                rest = args[1:]
            else:
                s = args[0] if args else kw["shape"]
                shape = self.shape_axes(s, pre)
                dt, rest = "float64", args[1:]
            if "dtype" in kw:
                dt = self.dtype_str(kw["dtype"])
            fill = {"zeros": C(0.0), "ones": C(1.0), "empty": C(0.0)}.get(name.replace("_like", ""))
            if fill is None:
                fill = self.scalar(rest[0] if rest else kw["fill_value"], pre)
                if "dtype" not in kw and not name.endswith("_like"):
                    dt = self.sdtype(fill) or "float64"
            if dt in ("int64", "bool") and isinstance(fill.value if is_const(fill) else None, float):
                fill = C(int(fill.value) if dt == "int64" else bool(fill.value))
            return Gen(shape, dt, lambda idx: copy.deepcopy(fill))
        if name in ("copy", "ascontiguousarray", "asarray"):
            src = self.value(args[0], pre)
            tmp = self.fresh("copy")
            self.materialise_into(tmp, src, pre, e)
            return Ref(View.whole(tmp, src.ndim, src.dtype))
        if name == "astype":
            src = self.value(args[0], pre)
            dt = self.dtype_str(args[1])
            cast = {"float64": "float64", "float32": "float32", "int64": "int64", "bool": "bool_"}[dt]
            return elementwise([src], dt, lambda a: ast.Call(func=self.npf(cast), args=a, keywords=[]), chk)
        if name == "arange":
            vals = [self.scalar(a, pre) for a in args]
            start, stop, step = (C(0), vals[0], C(1)) if len(vals) == 1 else \
                (vals[0], vals[1], vals[2] if len(vals) > 2 else C(1))
            dt = join_dtypes([self.sdtype(a) or ("float64" if isinstance(a.value, float) else "int64")
                              if is_const(a) else self.sdtype(a) for a in vals])
            if dt == "int64" or (all(is_const(v) for v in (step,)) and isinstance(step.value, int) and dt != "float64"):
                n = _ceil_div(sub(stop, start), step)
            else:
                n = ast.Call(func=N("int"), args=[ast.Call(func=self.npf("ceil"), args=[
                    ast.BinOp(left=sub(stop, start), op=ast.Div(), right=step)], keywords=[])], keywords=[])
            n = ast.Call(func=N("max"), args=[n, C(0)], keywords=[]) if not is_const(n) else n
            return Gen([Axis(n)], dt, lambda idx: add(copy.deepcopy(start), mul(copy.deepcopy(step), idx[0])))
        if name == "linspace":
            a, b = self.scalar(args[0], pre), self.scalar(args[1], pre)
            num = self.scalar(args[2], pre) if len(args) > 2 else self.scalar(kw.get("num", C(50)), pre)
            h = self.fresh("step")
            pre.append(ast.Assign(targets=[N(h, True)], value=ast.BinOp(
                left=sub(copy.deepcopy(b), copy.deepcopy(a)), op=ast.Div(), right=sub(copy.deepcopy(num), C(1)))))
            return Gen([Axis(num)], "float64", lambda idx: add(copy.deepcopy(a), mul(N(h), idx[0])))
        if name == "eye":
            n = self.scalar(args[0], pre)
            m = self.scalar(args[1], pre) if len(args) > 1 else n
            return Gen([Axis(n), Axis(copy.deepcopy(m))], "float64",
                       lambda idx: ast.IfExp(test=ast.Compare(left=idx[0], ops=[ast.Eq()], comparators=[idx[1]]),
                                             body=C(1.0), orelse=C(0.0)))
        if name in ("triu", "tril"):
            x = self.value(args[0], pre)
            k = self.scalar(args[1] if len(args) > 1 else kw.get("k", C(0)), pre)
            cmp = ast.GtE() if name == "triu" else ast.LtE()
            zero = C(0.0) if x.dtype.startswith("float") else C(0)
            return Gen(x.shape, x.dtype, lambda idx: ast.IfExp(
                test=ast.Compare(left=sub(idx[1], idx[0]), ops=[cmp], comparators=[copy.deepcopy(k)]),
                body=x.at(idx), orelse=zero))
        if name == "diag":
            x = self.value(args[0], pre)
            if x.ndim == 1:
                zero = C(0.0) if x.dtype.startswith("float") else C(0)
                return Gen([x.shape[0], x.shape[0]], x.dtype, lambda idx: ast.IfExp(
                    test=ast.Compare(left=idx[0], ops=[ast.Eq()], comparators=[idx[1]]), body=x.at([idx[0]]),
                    orelse=zero))
            n = ast.Call(func=N("min"), args=[copy.deepcopy(x.shape[0].extent), copy.deepcopy(x.shape[1].extent)],
                         keywords=[])
            return Gen([Axis(n)], x.dtype, lambda idx: x.at([idx[0], copy.deepcopy(idx[0])]))
        if name == "outer":
            a, b = self.value(args[0], pre), self.value(args[1], pre)
            a, b = self.flat(a, pre, e), self.flat(b, pre, e)
            return Gen([a.shape[0], b.shape[0]], join_dtypes([a.dtype, b.dtype]),
                       lambda idx: ast.BinOp(left=a.at([idx[0]]), op=ast.Mult(), right=b.at([idx[1]])))
        if name in ("reshape", "ravel", "flatten"):
            x = self.value(args[0], pre)
            if name != "reshape":
                return self.flat(x, pre, e)
            shape_args = list(e.args) if recv is not None else [args[1]]
            if len(shape_args) == 1:
                shape_args = shape_args[0].elts if isinstance(shape_args[0], (ast.Tuple, ast.List)) else shape_args
            return self.reshape(x, [self.scalar(s, pre) for s in shape_args], pre, e)
        if name == "transpose":
            perm = None
            if len(args) > 1 and recv is None:
                perm = self.axes_order(e)
                if perm is None:
                    raise self.err(e, f"np.transpose with axes `{ast.unparse(args[1])}`",
                                   "a constant permutation of the axes: np.transpose(A, (1, 0, 2))")
            elif len(args) > 1 or (recv is not None and e.args):
                raise self.err(e, "transpose with axes", "use .T or np.transpose(A, (1, 0, 2))")
            x = self.value(args[0], pre)
            tmp = self.materialise(x, pre, e)
            v = View.whole(tmp, x.ndim, x.dtype)
            v.axes = v.axes[::-1] if perm is None else [v.axes[p] for p in perm]
            return Ref(v)
        if name in ("hstack", "vstack", "concatenate", "stack"):
            return self.join(name, args[0], kw, pre, e)
        if name == "cumsum":
            x = self.value(args[0], pre)
            axis = _axis(e, recv)
            if axis is None and any(k.arg == "axis" for k in e.keywords) or len(args) > 2:
                raise self.err(e, "cumsum with a variable axis or a dtype", "use a constant axis")
            if axis is not None and x.ndim > 1:
                return self.scan_axis(x, axis, pre, e)
            x = self.flat(x, pre, e)
            tmp, acc = self.fresh("cumsum"), self.fresh("running")
            n = self.extent_atom(x.shape[0], pre)
            pre.append(ast.Assign(targets=[N(tmp, True)], value=ast.Call(
                func=self.npf("empty"), args=[copy.deepcopy(n)],
                keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(x.dtype)))])))
            pre.append(ast.Assign(targets=[N(acc, True)], value=C(0.0) if x.dtype.startswith("float") else C(0)))
            pre += self.loops([n], lambda idx: [
                ast.AugAssign(target=N(acc, True), op=ast.Add(), value=x.at(idx)),
                ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=idx[0], ctx=ast.Store())], value=N(acc))], e)
            self.info[tmp] = (1, x.dtype)
            return Ref(View.whole(tmp, 1, x.dtype))
        if name in LAPACK and LAPACK[name].parts:
            raise self.err(e, f"np.{name}'s tuple result used as a value",
                           f"unpack it (`{', '.join(_PART_NAMES[name])} = np.{name}(...)`) or index it (np.{name}(...)[k])")
        if name in LAPACK and LAPACK[name].ndim != "0":
            return self.lapack(name, args, pre, e)
        if name == "linalg.norm":
            form = self.norm_form(e, args)
            if form is None:
                raise self.err(e, "np.linalg.norm with an array result")
            return self.value(form, pre)
        if name in ("sort", "argsort"):
            if len(args) > 1 or e.keywords:
                raise self.err(e, f"np.{name} with axis/kind arguments", f"np.{name}(x) of a 1-d array")
            x = self.value(args[0], pre)
            src, perm = self.permutation(x, pre, e, name)
            if name == "argsort":
                return Ref(View.whole(perm, 1, "int64"))
            return Gen([x.shape[0]], x.dtype, lambda idx: ast.Subscript(
                value=N(src), slice=ast.Subscript(value=N(perm), slice=idx[0], ctx=ast.Load()), ctx=ast.Load()))
        if name == "where":
            if len(args) != 3:
                raise self.err(e, "np.where with one argument", "use np.where(cond, a, b), or "
                                  "np.where(cond)[0] (np.flatnonzero(cond)) for the positions")
            c, a, b = (self.value(x, pre) for x in args)
            return elementwise([c, a, b], join_dtypes([a.dtype, b.dtype]),
                               lambda v: ast.IfExp(test=v[0], body=v[1], orelse=v[2]), chk)
        if name == "clip":
            # a bound given as None is no bound on that side (np.clip(y, 0.0, None))
            given = [v for v in args[1:3] if not (isinstance(v, ast.Constant) and v.value is None)]
            if len(args) != 3 or not given:
                raise self.err(e, "np.clip without a lower or an upper bound", "give np.clip(x, lo, hi) a bound")
            parts = [self.value(v, pre) for v in [args[0]] + given]
            lo_none = isinstance(args[1], ast.Constant) and args[1].value is None
            hi_none = isinstance(args[2], ast.Constant) and args[2].value is None

            def clip(v):
                out = v[0] if lo_none else ast.Call(func=N("max"), args=[v[0], v[1]], keywords=[])
                return out if hi_none else ast.Call(func=N("min"), args=[out, v[-1]], keywords=[])
            return elementwise(parts, join_dtypes([p.dtype for p in parts]), clip, chk)
        if name in ELEMENTWISE_BINOPS:
            op = ELEMENTWISE_BINOPS[name]
            parts = [self.value(a, pre) for a in args[:2]]
            dt = join_dtypes([p.dtype for p in parts])
            dt = "float64" if op is ast.Div and dt in ("int64", "bool") else dt
            return elementwise(parts, dt, lambda v: ast.BinOp(left=v[0], op=op(), right=v[1]), chk)
        if name in COMPARE_UFUNCS:
            op = COMPARE_UFUNCS[name]
            parts = [self.value(a, pre) for a in args[:2]]
            return elementwise(parts, "bool", lambda v: ast.Compare(left=v[0], ops=[op()], comparators=[v[1]]), chk)
        if name == "negative":
            x = self.value(args[0], pre)
            return elementwise([x], x.dtype, lambda v: ast.UnaryOp(op=ast.USub(), operand=v[0]), chk)
        key = intrinsic_of(dotted="numpy." + name)
        if key is not None or name in ("square", "logical_not", "logical_and", "logical_or", "logical_xor"):
            if e.keywords:
                raise self.err(e, f"keyword arguments to np.{name}", "pass them positionally (no out=/where=)")
            parts = [self.value(a, pre) for a in args]
            if name.startswith("logical_"):
                if name == "logical_not":
                    return elementwise(parts, "bool", lambda v: ast.UnaryOp(op=ast.Not(), operand=v[0]), chk)
                if name == "logical_xor":
                    return elementwise(parts, "bool", lambda v: ast.Compare(left=ast.Call(
                        func=N("bool"), args=[v[0]], keywords=[]), ops=[ast.NotEq()], comparators=[ast.Call(
                            func=N("bool"), args=[v[1]], keywords=[])]), chk)
                bop = ast.And() if name == "logical_and" else ast.Or()
                return elementwise(parts, "bool", lambda v: ast.BoolOp(op=bop, values=v), chk)
            dt = join_dtypes([p.dtype for p in parts])
            if key in ("isnan", "isinf", "isfinite", "signbit"):
                dt = "bool"
            elif key not in FLOAT_UFUNCS_KEEP and dt in ("int64", "bool"):
                dt = "float64"
            func = self.npf(name)
            return elementwise(parts, dt, lambda v: ast.Call(func=copy.deepcopy(func), args=v, keywords=[]), chk)
        raise self.err(e, f"np.{name} on arrays, which has no adjoint rule", _refusal_hint(name))

    def shape_axes(self, s, pre):
        if isinstance(s, (ast.Tuple, ast.List)):
            return [Axis(self.scalar(x, pre)) for x in s.elts]
        if isinstance(s, ast.Attribute) and s.attr == "shape" and self.ndim(s.value) > 0:
            return list(self.value(s.value, pre).shape)
        return [Axis(self.scalar(s, pre))]

    def shape_arg(self, s, pre):
        if isinstance(s, ast.Attribute) and s.attr == "shape" and self.ndim(s.value) > 0:
            arr = self.value(s.value, pre)
            return ast.Tuple(elts=[self.extent_atom(a, pre) for a in arr.shape], ctx=ast.Load())
        if isinstance(s, (ast.Tuple, ast.List)):
            return ast.Tuple(elts=[self.scalar(x, pre) for x in s.elts], ctx=ast.Load())
        return self.scalar(s, pre)

    def scalar_or_name(self, a, pre):
        if isinstance(a, ast.Name):
            return a
        return self.scalar(a, pre)

    def literal_dtype(self, s):
        """The allocation of ``np.array([i, j, l])`` without dtype= (``normalise/forms.py`` tags it
        with its elements): int64 where every element is an integer (node numbers from an integer
        array), as Numba types it; float64 otherwise."""
        leaves = getattr(s, "adtrans_literal_leaves", None)
        if not leaves:
            return
        kinds = [("int64" if type(e.value) is int else "float64") if isinstance(e, ast.Constant)
                 else self.sdtype(e) or "float64" for e in leaves]
        if all(k == "int64" for k in kinds):
            s.value.keywords = [ast.keyword(arg="dtype", value=self.npf("int64"))]

    def dtype_str(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return DTYPE_NAMES.get(node.value, "float64")
        if isinstance(node, ast.Attribute) and node.attr == "dtype":
            return self.arr_dtype(node.value)
        d = self.n.resolver.dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        if d:
            return DTYPE_NAMES.get(self.n.resolver.canonical(d).split(".")[-1], "float64")
        return "float64"

    def dtype_arg(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.npf(_np_dtype(self.dtype_str(node)))
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and isinstance(node.value, ast.Name) \
                and node.value.id in self.views:
            return self.npf(_np_dtype(self.views[node.value.id].dtype))
        return node

    def arr_dtype(self, e):
        if isinstance(e, ast.Name):
            i = self.array_info(e.id)
            return i[1] if i else "float64"
        return "float64"

    # ------------------------------------------------------------ reductions
    def reduce_axis(self, kind, src, axis, pre, like):
        x = self.value(src, pre)
        if x.ndim == 0:
            return x
        if axis is None:
            return Scalar(self.reduce_all(kind, x, pre, like), "int64" if kind in ("argmax", "argmin") else
                          ("bool" if kind in ("any", "all") else _float_dt(x.dtype, kind)))
        if kind in ("any", "all"):
            raise self.err(like, f"{kind} with axis", "loop over the other axes")
        ax = axis if axis >= 0 else x.ndim + axis
        if not 0 <= ax < x.ndim:
            raise self.err(like, f"{kind} with axis {axis} of a {x.ndim}-d array")
        if kind in ("argmax", "argmin"):
            return self.arg_axis(kind, x, ax, pre, like)
        keep = [a for k, a in enumerate(x.shape) if k != ax]
        ext = [self.extent_atom(a, pre) for a in x.shape]
        kept_ext = [e for k, e in enumerate(ext) if k != ax]
        dt = _float_dt(x.dtype, kind)
        tmp = self.fresh(f"{kind}_{ax}")
        init = {"sum": C(0.0), "mean": C(0.0), "prod": C(1.0)}.get(kind)
        alloc = ast.Call(func=self.npf("empty"), args=[ast.Tuple(elts=copy.deepcopy(kept_ext), ctx=ast.Load())],
                         keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(dt)))])
        pre.append(ast.Assign(targets=[N(tmp, True)], value=alloc))
        self.info[tmp] = (len(keep), dt)

        def out_at(idx, store=False):
            rest = [i for k, i in enumerate(idx) if k != ax]
            return ast.Subscript(value=N(tmp), slice=_idx(rest), ctx=ast.Store() if store else ast.Load())
        if kind in ("var", "std"):
            mean = self.reduce_axis("mean", src, axis, pre, like)
            mname = mean.view.base

            def sq(idx, x=x):         # the elements of the source (``x`` is rebound below)
                rest = [i for k, i in enumerate(idx) if k != ax]
                d = ast.BinOp(left=x.at(idx), op=ast.Sub(), right=ast.Subscript(value=N(mname), slice=_idx(rest),
                                                                                 ctx=ast.Load()))
                return ast.BinOp(left=d, op=ast.Mult(), right=copy.deepcopy(d))
            x = Gen(x.shape, dt, sq)
            init = C(0.0)
        if init is not None:
            pre += self.loops(kept_ext, lambda idx: [ast.Assign(targets=[ast.Subscript(
                value=N(tmp), slice=_idx(idx), ctx=ast.Store())], value=copy.deepcopy(init))], like)
        else:       # max/min: start from the first slice along the axis
            def first(idx):
                full = list(idx[:ax]) + [C(0)] + list(idx[ax:])
                return [ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=_idx(idx), ctx=ast.Store())],
                                   value=x.at(full))]
            pre += self.loops(kept_ext, first, like)

        def step(idx):
            v = x.at(idx)
            if kind in ("sum", "mean", "var", "std"):
                return [ast.AugAssign(target=out_at(idx, True), op=ast.Add(), value=v)]
            if kind == "prod":
                return [ast.AugAssign(target=out_at(idx, True), op=ast.Mult(), value=v)]
            fn = "max" if kind == "max" else "min"
            return [ast.Assign(targets=[out_at(idx, True)], value=ast.Call(func=N(fn), args=[out_at(idx), v],
                                                                         keywords=[]))]
        pre += self.loops(ext, step, like)
        if kind in ("mean", "var", "std"):
            n = ext[ax]
            fin = (lambda idx: [ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=_idx(idx), ctx=ast.Store())],
                                           value=ast.BinOp(left=ast.Subscript(value=N(tmp), slice=_idx(idx),
                                                                              ctx=ast.Load()),
                                                           op=ast.Div(), right=copy.deepcopy(n)))])
            if kind == "std":
                fin = (lambda idx: [ast.Assign(
                    targets=[ast.Subscript(value=N(tmp), slice=_idx(idx), ctx=ast.Store())],
                    value=ast.Call(func=self.npf("sqrt"), args=[ast.BinOp(
                        left=ast.Subscript(value=N(tmp), slice=_idx(idx), ctx=ast.Load()), op=ast.Div(),
                        right=copy.deepcopy(n))], keywords=[]))])
            pre += self.loops(kept_ext, fin, like)
        return Ref(View.whole(tmp, len(keep), dt))

    def along(self, x, ax, pre, like, name, inner, before, after):
        """A loop nest over the axes of ``x`` but ``ax`` (outer) around a loop along ``ax``
        (inner): ``before(rest)`` statements, the inner loop of ``inner(full)``, ``after(rest)``,
        with ``rest`` the outer indices and ``full`` the index of an element."""
        ext = [self.extent_atom(a, pre) for a in x.shape]
        kept = [e for k, e in enumerate(ext) if k != ax]
        k = self.fresh(_index_names(x.ndim)[ax] if x.ndim <= 5 else "k")
        self.sdt[k] = "int64"

        def body(rest):
            full = list(rest[:ax]) + [N(k)] + list(rest[ax:])
            loop = ast.For(target=N(k, True), iter=ast.Call(func=N("range"), args=[copy.deepcopy(ext[ax])],
                                                             keywords=[]), body=inner(full), orelse=[])
            return before(rest) + [loop] + after(rest)
        return self.loops(kept, body, like)

    def scan_axis(self, x, axis, pre, like):
        """``np.cumsum(x, axis=k)``: per line along ``k`` a running sum (a carried scalar)."""
        ax = axis if axis >= 0 else x.ndim + axis
        if not 0 <= ax < x.ndim:
            raise self.err(like, f"cumsum with axis {axis} of a {x.ndim}-d array")
        dt = _float_dt(x.dtype, "sum")
        tmp, acc = self.fresh(f"cumsum_{ax}"), self.fresh("running")
        self.sdt[acc] = dt
        ext = [self.extent_atom(a, pre) for a in x.shape]
        pre.append(ast.Assign(targets=[N(tmp, True)], value=ast.Call(
            func=self.npf("empty"), args=[ast.Tuple(elts=copy.deepcopy(ext), ctx=ast.Load())],
            keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(dt)))])))
        self.info[tmp] = (x.ndim, dt)
        zero = C(0.0) if dt.startswith("float") else C(0)
        pre += self.along(x, ax, pre, like, "cumsum", lambda full: [
            ast.AugAssign(target=N(acc, True), op=ast.Add(), value=x.at(full)),
            ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=_idx(full), ctx=ast.Store())], value=N(acc))],
            lambda rest: [ast.Assign(targets=[N(acc, True)], value=copy.deepcopy(zero))], lambda rest: [])
        return Ref(View.whole(tmp, x.ndim, dt))

    def arg_axis(self, kind, x, ax, pre, like):
        """``np.argmax(x, axis=k)`` / ``argmin``: per line along ``k`` the position of the first
        extreme element (an integer array, constant)."""
        ext = [self.extent_atom(a, pre) for a in x.shape]
        kept = [e for k, e in enumerate(ext) if k != ax]
        tmp = self.fresh(f"{kind}_{ax}")
        pre.append(ast.Assign(targets=[N(tmp, True)], value=ast.Call(
            func=self.npf("empty"), args=[ast.Tuple(elts=copy.deepcopy(kept), ctx=ast.Load())],
            keywords=[ast.keyword(arg="dtype", value=self.npf("int64"))])))
        self.info[tmp] = (x.ndim - 1, "int64")
        best, pos = self.fresh("best"), self.fresh("at")
        self.sdt[pos] = "int64"
        cmp = ast.Gt() if kind == "argmax" else ast.Lt()

        def first(rest):
            full = list(rest[:ax]) + [C(0)] + list(rest[ax:])
            return [ast.Assign(targets=[N(best, True)], value=x.at(full)), ast.Assign(targets=[N(pos, True)],
                                                                                     value=C(0))]

        def step(full):
            v = self.fresh("item")
            return [ast.Assign(targets=[N(v, True)], value=x.at(full)),
                    ast.If(test=ast.Compare(left=N(v), ops=[cmp], comparators=[N(best)]), body=[
                        ast.Assign(targets=[N(best, True)], value=N(v)),
                        ast.Assign(targets=[N(pos, True)], value=copy.deepcopy(full[ax]))], orelse=[])]

        def store(rest):
            return [ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=_idx(rest), ctx=ast.Store())],
                               value=N(pos))]
        pre += self.along(x, ax, pre, like, kind, step, first, store)
        return Ref(View.whole(tmp, x.ndim - 1, "int64"))

    def reduce_all(self, kind, x, pre, like):
        """A scalar name holding the reduction ``kind`` of all elements of ``x``."""
        ext = [self.extent_atom(a, pre) for a in x.shape]
        fl = x.dtype.startswith("float")
        acc = self.fresh({"sum": "total", "mean": "total", "prod": "product", "max": "largest",
                          "min": "smallest", "var": "spread", "std": "spread"}.get(kind, kind))
        self.sdt[acc] = _float_dt(x.dtype, kind)
        if kind in ("sum", "mean", "prod"):
            pre.append(ast.Assign(targets=[N(acc, True)], value=C((0.0 if kind != "prod" else 1.0) if fl else
                                                                  (0 if kind != "prod" else 1))))
            op = ast.Mult() if kind == "prod" else ast.Add()
            if kind == "prod":
                pre += self.loops(ext, lambda idx: [ast.Assign(targets=[N(acc, True)], value=ast.BinOp(
                    left=N(acc), op=op, right=x.at(idx)))], like)
            else:
                pre += self.loops(ext, lambda idx: [ast.AugAssign(target=N(acc, True), op=op, value=x.at(idx))], like)
            if kind == "mean":
                out = self.fresh("mean")
                self.sdt[out] = "float64"
                pre.append(ast.Assign(targets=[N(out, True)], value=ast.BinOp(
                    left=N(acc), op=ast.Div(), right=self.size_of(x, pre))))
                return N(out)
            return N(acc)
        if kind in ("max", "min"):
            # find the position of the first extreme element (a constant search), then read it there:
            # the adjoint goes to that one element, with no tape
            where = [self.fresh(f"at_{n}") for n in _index_names(x.ndim)]
            for w in where:
                self.sdt[w] = "int64"
                pre.append(ast.Assign(targets=[N(w, True)], value=C(0)))
            cmp = ast.Gt() if kind == "max" else ast.Lt()

            def search(idx):        # only integers are carried from one iteration to the next
                v, b = self.fresh("item"), self.fresh("best")
                return [ast.Assign(targets=[N(v, True)], value=x.at(idx)),
                        ast.Assign(targets=[N(b, True)], value=x.at([N(w) for w in where])),
                        ast.If(test=ast.Compare(left=N(v), ops=[cmp], comparators=[N(b)]), body=[
                            ast.Assign(targets=[N(w, True)], value=i) for w, i in zip(where, idx)], orelse=[])]
            pre += self.loops(ext, search, like)
            pre.append(ast.Assign(targets=[N(acc, True)], value=x.at([N(w) for w in where])))
            return N(acc)
        if kind in ("var", "std"):
            m = self.reduce_all("mean", x, pre, like)
            pre.append(ast.Assign(targets=[N(acc, True)], value=C(0.0)))

            def sq(idx):
                d = self.fresh("dev")
                return [ast.Assign(targets=[N(d, True)], value=ast.BinOp(left=x.at(idx), op=ast.Sub(),
                                                                         right=copy.deepcopy(m))),
                        ast.AugAssign(target=N(acc, True), op=ast.Add(),
                                      value=ast.BinOp(left=N(d), op=ast.Mult(), right=N(d)))]
            pre += self.loops(ext, sq, like)
            out = self.fresh(kind)
            self.sdt[out] = "float64"
            v = ast.BinOp(left=N(acc), op=ast.Div(), right=self.size_of(x, pre))
            if kind == "std":
                v = ast.Call(func=self.npf("sqrt"), args=[v], keywords=[])
            pre.append(ast.Assign(targets=[N(out, True)], value=v))
            return N(out)
        if kind in ("argmax", "argmin"):
            best, pos = self.fresh("best"), acc
            self.sdt[pos] = "int64"
            pre.append(ast.Assign(targets=[N(best, True)], value=x.at([C(0)] * x.ndim)))
            pre.append(ast.Assign(targets=[N(pos, True)], value=C(0)))
            cmp = ast.Gt() if kind == "argmax" else ast.Lt()

            def body(idx):
                flat = C(0)
                for k, i in enumerate(idx):
                    flat = add(mul(flat, copy.deepcopy(ext[k])), i) if k else i
                v = self.fresh("item")
                return [ast.Assign(targets=[N(v, True)], value=x.at(idx)),
                        ast.If(test=ast.Compare(left=N(v), ops=[cmp], comparators=[N(best)]), body=[
                            ast.Assign(targets=[N(best, True)], value=N(v)),
                            ast.Assign(targets=[N(pos, True)], value=flat)], orelse=[])]
            pre += self.loops(ext, body, like)
            return N(pos)
        if kind in ("any", "all"):
            pre.append(ast.Assign(targets=[N(acc, True)], value=C(kind == "all")))

            def body(idx):
                v = x.at(idx)
                test = v if kind == "any" else ast.UnaryOp(op=ast.Not(), operand=v)
                return [ast.If(test=test, body=[ast.Assign(targets=[N(acc, True)], value=C(kind == "any"))],
                               orelse=[])]
            pre += self.loops(ext, body, like)
            return N(acc)
        raise self.err(like, f"reduction {kind}")

    # --------------------------------------------------------- linear algebra
    def stays_blas(self, a, b, like) -> bool:
        """Whether the product of ``a`` and ``b`` stays one BLAS statement (``prod = A @ B``, with
        an array-level adjoint in :mod:`adtrans.rules.linalg`) instead of a loop nest: a float64
        matrix-matrix, matrix-vector or vector-matrix product at the kernel's function level (not
        in a loop or branch, not in an inlined helper), unless the normaliser found that one of
        its operands is written after it (``blas_off``: then the loops keep every value right)."""
        return (getattr(self.n, "blas", True) and self.depth == 0 and len(self.n.stack) == 1
                and a.dtype == b.dtype == "float64"
                and (a.ndim, b.ndim) in ((2, 2), (2, 1), (1, 2))
                and _position(like) not in getattr(self.n, "blas_off", ()))

    def blas_operand(self, x, pre, like):
        """``x`` as a BLAS operand: ``A`` or ``A.T`` for a whole array (or its transpose), else a
        fresh array holding ``x`` (the copy loop is element-wise; its adjoint gathers into ``x``'s
        base)."""
        if isinstance(x, Ref) and not x.view.fixed and x.view.base not in self.views \
                and len(x.view.axes) == x.view.base_ndim:
            order = [a.base for a in x.view.axes]
            own = [a.length for a in View.whole(x.view.base, x.view.base_ndim, x.view.dtype).axes]
            made = self.blas_extents.get(x.view.base) or own       # a product's extents are its operands'
            whole = all(is_const(a.start, 0) and is_const(a.step, 1) and
                        (same(a.length, own[a.base]) or same(a.length, made[a.base])) for a in x.view.axes)
            if whole and order == list(range(len(order))):
                return N(x.view.base)
            if whole and order == [1, 0]:
                return ast.Attribute(value=N(x.view.base), attr="T", ctx=ast.Load())
        tmp = self.fresh("operand")
        self.materialise_into(tmp, x, pre, like)
        return N(tmp)

    def blas_product(self, a, b, pre, like):
        """``prod = A @ B``: one statement, its value tagged ``adtrans_linalg`` (the result's number
        of dimensions) and ``adtrans_position`` (the user's expression); ``P = A @ B`` renames
        ``prod`` to ``P`` afterwards (:meth:`assign_name`)."""
        dt = "float64"
        ka, kb = a.shape[-1], b.shape[0]
        if not same(ka.extent, kb.extent):
            self.check(ka.extent, kb.extent, pre, like)
        left, right = self.blas_operand(a, pre, like), self.blas_operand(b, pre, like)
        nd = (a.ndim - 1) + (b.ndim - 1)
        # the result's extents are the operands' (A.shape[0], not prod.shape[0]): code that only
        # needs its shape does not keep the product alive (the adjoint may not need its value)
        extents = ([self.extent_atom(a.shape[0], pre)] if a.ndim == 2 else []) + \
            ([self.extent_atom(b.shape[1], pre)] if b.ndim == 2 else [])
        product = ast.BinOp(left=left, op=ast.MatMult(), right=right)
        product.adtrans_linalg, product.adtrans_position = nd, _position(like)
        tmp = self.fresh("prod")
        pre.append(ast.copy_location(ast.Assign(targets=[N(tmp, True)], value=product), like))
        self.info[tmp] = (nd, dt)
        self.blas_extents[tmp] = extents
        return Ref(View(tmp, nd, dt, {}, [ViewAxis(k, C(0), C(1), copy.deepcopy(e)) for k, e in enumerate(extents)]))

    def lapack(self, name, args, pre, like, part=None):
        """``np.linalg.solve(A, b)``, ``inv``, ``det``, ``slogdet``, ``cholesky``, ``eigh``, ``eigvalsh``,
        ``svd``, ``lstsq``, ``pinv``: kept whole (a LAPACK call, element ``part`` of a tuple result)
        where the kernel's function level runs it, with the array-level adjoint of
        :data:`adtrans.rules.derivatives.LAPACK`.  An array result is bound to a fresh name (a
        :class:`Ref`), a number is the tagged call itself (``adtrans_lapack``: the function;
        ``adtrans_linalg``: the result's number of dimensions; ``adtrans_position``).  Operands
        are whole float64 arrays (a view or an expression is first copied into a fresh one)."""
        label = f"np.{name}"
        rule = LAPACK[name]
        keywords = getattr(like, "keywords", None) or []
        if len(args) != len(rule.args) or any(k.arg not in rule.keywords for k in keywords):
            raise self.err(like, f"{label} with {len(args)} arguments" + (" and keywords" if keywords else ""),
                           f"pass {len(rule.args)}" + (f" (keywords: {', '.join(rule.keywords)})" if rule.keywords
                                                         else ", no keywords"))
        one = rule.part(part)
        if one.refused:
            raise self.err(like, f"{label}'s element {part} ({_PART_NAMES[name][part]})", one.refused)
        if self.n.ext is not None:
            raise self.err(like, f"{label} in a CUDA kernel",
                           "compute it on the host and pass the result in")
        if not getattr(self.n, "blas", True):
            raise self.err(like, f"{label} in a kernel differentiated to second order (hvp, hessian_diag)",
                           "its forward (tangent) rule is not written yet: use adtrans.grad and finite "
                           "differences of the gradient")
        vals = [self.value(a, pre) for a in args]
        want = [2] if len(vals) == 1 else [2, (1, 2)]
        for x, w, role in zip(vals, want, ("A", "b")):
            if x.dtype != "float64" or x.ndim not in (w if isinstance(w, tuple) else (w,)):
                raise self.err(like, f"{label} of a {x.ndim}-d {x.dtype} `{role}`",
                               "pass float64 arrays: A a matrix" + (", b a vector or matrix" if len(vals) > 1 else ""))
        ops = [self.lapack_operand(x, pre, like) for x in vals]
        call = ast.Call(func=ast.parse(f"np.{name}", mode="eval").body, args=ops,
                        keywords=[ast.keyword(arg=k.arg, value=self.scalar(copy.deepcopy(k.value), pre))
                                  for k in keywords])
        value = call if part is None else ast.Subscript(value=call, slice=C(part), ctx=ast.Load())
        nd = vals[-1].ndim if one.ndim == "b" else int(one.ndim)
        value.adtrans_lapack, value.adtrans_linalg, value.adtrans_position = name, nd, _position(like)
        value.adtrans_group = getattr(like, "adtrans_group", None)
        ast.copy_location(value, like)
        if nd == 0:
            return value
        tmp = self.fresh(name.split(".")[1])
        pre.append(ast.copy_location(ast.Assign(targets=[N(tmp, True)], value=value), like))
        self.info[tmp] = (nd, "float64")
        return Ref(View.whole(tmp, nd, "float64"))

    def lapack_part(self, e):
        """``(function, k)`` for ``np.linalg.eigh(A)[k]`` (an element of a LAPACK function's tuple
        result, ``k`` a constant in range), else None."""
        if not (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Call)):
            return None
        func = self.numpy_name(e.value.func)
        if func not in LAPACK or not LAPACK[func].parts:
            return None
        k = e.slice
        if isinstance(k, ast.UnaryOp) and isinstance(k.op, ast.USub) and is_const(k.operand):
            k = C(-k.operand.value)
        if not (is_const(k) and isinstance(k.value, int) and -len(LAPACK[func].parts) <= k.value < len(LAPACK[func].parts)):
            return None
        return func, k.value % len(LAPACK[func].parts)

    def spectral(self, name, e, args, pre):
        """``np.linalg.norm(A, 2)`` (``-2``) and ``np.linalg.cond(A)`` (``p`` None, 2 or -2) of a
        matrix: read from its singular values, ``s = np.linalg.svd(A, full_matrices=False)[1]``
        (``s[0]``, ``s[-1]``, ``s[0] / s[-1]``; rule :func:`adtrans.targets.cpu_lapack.svd_values_vjp`).
        None for any other norm."""
        if self.ndim(args[0]) != 2:
            return None
        if name == "linalg.norm":
            ord_, axis = self.norm_args(e, args)
            if axis is not None or ord_ not in (2, -2):
                return None
            pick = "{s}[0]" if ord_ == 2 else "{s}[-1]"
        else:
            p = args[1] if len(args) > 1 else None
            p = None if p is None or (is_const(p) and p.value is None) else ast.literal_eval(p) \
                if isinstance(p, (ast.Constant, ast.UnaryOp)) else "variable"
            if len(args) > 2 or e.keywords or p not in (None, 2, -2):
                raise self.err(e, f"`{ast.unparse(e)}`", "np.linalg.cond(A) (the 2-norm condition number), "
                               "or the norms' quotient written out: np.linalg.norm(A, 1) * np.linalg.norm(np.linalg.inv(A), 1)")
            pick = "{s}[0] / {s}[-1]" if p != -2 else "{s}[-1] / {s}[0]"
        fm = ast.Call(func=e.func, args=[args[0]], keywords=[ast.keyword(arg="full_matrices", value=C(False))])
        ast.copy_location(fm, e)
        sv = self.lapack("linalg.svd", [args[0]], pre, fm, part=1)
        return self.scalar(ast.copy_location(ast.parse(pick.format(s=sv.view.base), mode="eval").body, e), pre)

    def lapack_operand(self, x, pre, like):
        """``x`` as a LAPACK operand: the name of a whole array, else a fresh copy of ``x``."""
        if isinstance(x, Ref) and not x.view.fixed and x.view.base not in self.views \
                and len(x.view.axes) == x.view.base_ndim and [a.base for a in x.view.axes] == \
                list(range(x.view.base_ndim)):
            own = [a.length for a in View.whole(x.view.base, x.view.base_ndim, x.view.dtype).axes]
            made = self.blas_extents.get(x.view.base) or own
            if all(is_const(a.start, 0) and is_const(a.step, 1) and
                   (same(a.length, own[a.base]) or same(a.length, made[a.base])) for a in x.view.axes):
                return N(x.view.base)
        tmp = self.fresh("operand")
        self.materialise_into(tmp, x, pre, like)
        return N(tmp)

    def matmul(self, a, b, pre, like):
        """``a @ b`` (``np.dot``): a BLAS statement where :meth:`stays_blas`, else the loop nest
        (``i, k, j`` for two matrices)."""
        if a.ndim == 0 or b.ndim == 0:
            return elementwise([a, b], join_dtypes([a.dtype, b.dtype]),
                               lambda v: ast.BinOp(left=v[0], op=ast.Mult(), right=v[1]),
                               lambda p, q: self.check(p, q, pre, like))
        if a.ndim > 2 or b.ndim > 2:
            raise self.err(like, "matrix product of arrays with more than 2 dimensions", "write the loops")
        if self.stays_blas(a, b, like):
            return self.blas_product(a, b, pre, like)
        dt = join_dtypes([a.dtype, b.dtype])
        ka = a.shape[-1]
        kb = b.shape[0]
        if not same(ka.extent, kb.extent):
            self.check(ka.extent, kb.extent, pre, like, "matrix product operands not aligned")
        if a.ndim == 1 and b.ndim == 1:
            x = elementwise([a, b], dt, lambda v: ast.BinOp(left=v[0], op=ast.Mult(), right=v[1]),
                            lambda p, q: None)
            return Scalar(self.reduce_all("sum", x, pre, like), dt)
        k = self.extent_atom(ka, pre)
        tmp = self.fresh("prod")
        out_shape = ([a.shape[0]] if a.ndim == 2 else []) + ([b.shape[1]] if b.ndim == 2 else [])
        ext = [self.extent_atom(x, pre) for x in out_shape]
        pre.append(ast.Assign(targets=[N(tmp, True)], value=ast.Call(
            func=self.npf("zeros"), args=[ast.Tuple(elts=copy.deepcopy(ext), ctx=ast.Load())],
            keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(dt)))])))
        self.info[tmp] = (len(out_shape), dt)
        if a.ndim == 2 and b.ndim == 2:       # i, k, j: the inner loop runs along rows of B and C
            def body(idx):
                i, kk, j = idx
                return [ast.AugAssign(target=ast.Subscript(value=N(tmp), slice=_idx([i, j]), ctx=ast.Store()),
                                      op=ast.Add(), value=ast.BinOp(left=a.at([i, kk]), op=ast.Mult(),
                                                                    right=b.at([kk, j])))]
            pre += self.loops([ext[0], k, ext[1]], body, like, names=["i", "k", "j"])
        elif a.ndim == 2:
            def body(idx):
                i, kk = idx
                return [ast.AugAssign(target=ast.Subscript(value=N(tmp), slice=i, ctx=ast.Store()), op=ast.Add(),
                                      value=ast.BinOp(left=a.at([i, kk]), op=ast.Mult(), right=b.at([kk])))]
            pre += self.loops([ext[0], k], body, like, names=["i", "k"])
        else:
            def body(idx):
                kk, j = idx
                return [ast.AugAssign(target=ast.Subscript(value=N(tmp), slice=j, ctx=ast.Store()), op=ast.Add(),
                                      value=ast.BinOp(left=a.at([kk]), op=ast.Mult(), right=b.at([kk, j])))]
            pre += self.loops([k, ext[0]], body, like, names=["k", "j"])
        return Ref(View.whole(tmp, len(out_shape), dt))

    def flat(self, x, pre, like):
        """``x`` in C order as a 1-D value."""
        if x.ndim == 1:
            return x
        ext = [self.extent_atom(a, pre) for a in x.shape]
        n = self.fresh("n")
        size = C(1)
        for e in ext:
            size = mul(size, copy.deepcopy(e))
        pre.append(ast.Assign(targets=[N(n, True)], value=size))
        self.sdt[n] = "int64"

        def at(idx):
            return x.at(_unravel(idx[0], ext))
        return Gen([Axis(N(n))], x.dtype, at)

    def reshape(self, x, shape, pre, like):
        ones = [is_const(s, 1) for s in shape]
        real = [s for s, o in zip(shape, ones) if not o]
        xr = [a for a in x.shape if not a.unit]
        if len(real) == len(xr) and all(is_const(s, -1) or not is_const(s) or True for s in real) and \
                len(real) <= 1:
            # only unit axes added or removed: the element mapping keeps the real axis
            def at(idx):
                mine = [i for i, o in zip(idx, ones) if not o]
                full, it = [], iter(mine)
                for a in x.shape:
                    full.append(C(0) if a.unit else next(it))
                return x.at(full)
            axes, it = [], iter(xr)
            for s, o in zip(shape, ones):
                axes.append(Axis(C(1), True) if o else next(it))
                if not o and not is_const(s, -1):
                    self.check(axes[-1].extent, s, pre, like, "cannot reshape: the sizes differ")
            return Gen(axes, x.dtype, at)
        flat = self.flat(x, pre, like)
        size = flat.shape[0].extent
        known = C(1)
        for s in shape:
            if not is_const(s, -1):
                known = mul(known, copy.deepcopy(s))
        ext = []
        for s in shape:
            if is_const(s, -1):
                nm = self.fresh("n")
                pre.append(ast.Assign(targets=[N(nm, True)], value=ast.BinOp(left=copy.deepcopy(size),
                                                                             op=ast.FloorDiv(), right=known)))
                self.sdt[nm] = "int64"
                ext.append(N(nm))
            else:
                ext.append(s)
        total = C(1)
        for s in ext:
            total = mul(total, copy.deepcopy(s))
        self.check(total, copy.deepcopy(size), pre, like, "cannot reshape: the sizes differ")

        def at(idx):
            lin = idx[0]
            for k in range(1, len(idx)):
                lin = add(mul(lin, copy.deepcopy(ext[k])), idx[k])
            return flat.at([lin])
        return Gen([Axis(e, is_const(e, 1)) for e in ext], x.dtype, at)

    def join(self, name, seq, kw, pre, like):
        if not isinstance(seq, (ast.Tuple, ast.List)):
            raise self.err(like, f"np.{name} of `{ast.unparse(seq)}`", "pass a tuple of arrays: np.hstack((a, b))")
        parts = [self.value(p, pre) for p in seq.elts]
        axis = kw.get("axis", C(0))
        if not is_const(axis):
            raise self.err(like, f"np.{name} with a variable axis", "use a constant axis")
        axis = axis.value
        d = max(p.ndim for p in parts)
        if name == "hstack":
            name, axis = "concatenate", (0 if d == 1 else 1)
        elif name == "vstack":
            if d == 1:
                name, axis = "stack", 0
            else:
                name, axis = "concatenate", 0
        if name == "stack":
            parts = [self.reshape(p, [C(1)] + [a.extent for a in p.shape], pre, like) if axis == 0 else
                     self.reshape(p, [a.extent for a in p.shape] + [C(1)], pre, like) for p in parts]
            if axis not in (0, -1, d):
                raise self.err(like, "np.stack on a middle axis", "stack on the first or last axis")
            axis = 0 if axis == 0 else d
        axis = axis if axis >= 0 else d + axis
        dt = join_dtypes([p.dtype for p in parts])
        nd = parts[0].ndim
        shape = list(parts[0].shape)
        if any(p.ndim != nd for p in parts):
            raise self.err(like, f"np.{name} of arrays with different numbers of dimensions",
                           "reshape the parts to the same number of dimensions")
        for p in parts[1:]:
            for k in range(nd):
                if k != axis:
                    self.check(shape[k].extent, p.shape[k].extent, pre, like,
                               f"np.{name}: the parts' extents differ off the joined axis")
        total = C(0)
        for p in parts:
            total = add(total, copy.deepcopy(p.shape[axis].extent))
        shape[axis] = Axis(total)
        tmp = self.fresh(name)
        ext = [self.extent_atom(a, pre) for a in shape]
        pre.append(ast.Assign(targets=[N(tmp, True)], value=ast.Call(
            func=self.npf("empty"), args=[ast.Tuple(elts=copy.deepcopy(ext), ctx=ast.Load())],
            keywords=[ast.keyword(arg="dtype", value=self.npf(_np_dtype(dt)))])))
        self.info[tmp] = (nd, dt)
        off = C(0)
        for p in parts:
            pext = [self.extent_atom(a, pre) if k != axis else self.extent_atom(p.shape[axis], pre)
                    for k, a in enumerate(shape)]
            o = off

            def body(idx, p=p, o=o):
                tgt = list(idx)
                tgt[axis] = add(copy.deepcopy(o), idx[axis])
                return [ast.Assign(targets=[ast.Subscript(value=N(tmp), slice=_idx(tgt), ctx=ast.Store())],
                                   value=p.at(bidx(p, idx, p.shape)))]
            pre += self.loops(pext, body, like)
            off = add(off, copy.deepcopy(pext[axis]))
        return Ref(View.whole(tmp, nd, dt))

    # ---------------------------------------------------------------- scalars
    def scalar(self, e, pre):
        """``e`` (a scalar expression) with views resolved and reductions computed into ``pre``."""
        if e is None or isinstance(e, ast.Constant):
            return e
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and is_const(e.operand):
            return C(-e.operand.value)
        if isinstance(e, ast.Name):
            if e.id in self.views:
                raise self.err(e, f"array view `{e.id}` used as a value",
                               "index it (v[k]), reduce it (np.sum(v)) or pass it to an @njit helper")
            return e
        if isinstance(e, ast.Slice):
            return ast.Slice(lower=self.scalar(e.lower, pre), upper=self.scalar(e.upper, pre),
                             step=self.scalar(e.step, pre))
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Call) and \
                LAPACK.get(self.numpy_name(e.value.func), None) is not None and \
                LAPACK[self.numpy_name(e.value.func)].parts:
            func = self.numpy_name(e.value.func)
            part = self.lapack_part(e)
            if part is None:
                raise self.err(e, f"`{ast.unparse(e)}`",
                               f"index np.{func}'s result with a constant 0 to {len(LAPACK[func].parts) - 1}")
            if LAPACK[func].parts[part[1]].ndim == "0":
                return self.lapack(func, list(e.value.args), pre, e.value, part=part[1])
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Attribute) and e.value.attr == "shape" and self.ndim(e.value.value) > 0:
                base = e.value.value
                if isinstance(base, ast.Name) and base.id not in self.views:
                    e.slice = self.scalar(e.slice, pre)
                    return e
                arr = self.value(base, pre)
                k = e.slice
                if not is_const(k):
                    raise self.err(e, f"`{ast.unparse(e)}` with a variable axis", "use a constant axis")
                return copy.deepcopy(arr.shape[k.value].extent)
            if self.ndim(e.value) > 0:
                if self.ndim(e) > 0:
                    raise self.err(e, f"array `{ast.unparse(e)}` used as a number", "index it fully or reduce it")
                if isinstance(e.value, ast.Name) and e.value.id not in self.views:
                    e.slice = self.scalar(e.slice, pre)
                    return e
                return self.to_view(e, pre).element([])
            e.slice = self.scalar(e.slice, pre)
            e.value = self.scalar(e.value, pre)
            return e
        if isinstance(e, ast.Attribute):
            if self.ndim(e.value) > 0:
                if e.attr == "shape":
                    arr = self.value(e.value, pre)
                    return ast.Tuple(elts=[copy.deepcopy(a.extent) for a in arr.shape], ctx=ast.Load())
                if e.attr == "size" and not (isinstance(e.value, ast.Name) and e.value.id not in self.views):
                    return self.size_of(self.value(e.value, pre), pre)
                if e.attr == "ndim":
                    return C(self.ndim(e.value))
                if e.attr == "dtype":
                    return self.dtype_arg(e)
            return e
        if isinstance(e, ast.Call):
            return self.scalar_call(e, pre)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.MatMult) and self.ndim(e) == 0:
            # `r @ r`, `w @ S @ w`: a number, the dot product of two vectors
            dot = ast.copy_location(ast.Call(func=self.npf("dot"), args=[e.left, e.right], keywords=[]), e)
            return self.scalar_call(dot, pre)
        if self.ndim(e) > 0:
            raise self.err(e, f"array expression `{ast.unparse(e)}` where a number is expected",
                           "reduce it (np.sum, np.max ...) or index it")
        for fld, val in ast.iter_fields(e):
            if isinstance(val, ast.expr):
                setattr(e, fld, self.scalar(val, pre))
            elif isinstance(val, list) and val and isinstance(val[0], ast.expr):
                setattr(e, fld, [self.scalar(v, pre) for v in val])
        return e

    def scalar_call(self, e, pre):
        if self.is_helper(e):
            args = []
            for a in e.args:
                if self.ndim(a) > 0 and not isinstance(a, ast.Name):
                    if self.viewable(a):
                        nm = self.fresh("view")
                        pre += self.bind_view(nm, self.to_view(a, pre), pre, e)
                        args.append(N(nm))
                    else:
                        args.append(N(self.materialise(self.value(a, pre), pre, e, "arg")))
                else:
                    args.append(self.scalar(a, pre) if self.ndim(a) == 0 else a)
            e.args = args
            e.keywords = [ast.keyword(arg=k.arg, value=self.scalar(k.value, pre) if self.ndim(k.value) == 0
                                      else k.value) for k in e.keywords]
            return e
        c = self.canon(e.func) or ""
        if c == "builtins.len" and len(e.args) == 1 and self.ndim(e.args[0]) > 0:
            a = e.args[0]
            if isinstance(a, ast.Name) and a.id not in self.views:
                return e
            return copy.deepcopy(self.value(a, pre).shape[0].extent)
        name, recv = self.function_of(e)
        args = ([recv] if recv is not None else []) + list(e.args)
        if name is not None and any(self.ndim(a) > 0 for a in args if not isinstance(a, (ast.Tuple, ast.List))):
            if name == "linalg.det":
                return self.lapack(name, args, pre, e)
            if name in LAPACK and LAPACK[name].parts:
                raise self.err(e, f"np.{name}'s result used as a value", "unpack it: "
                               f"`{', '.join(_PART_NAMES[name])} = np.{name}(...)` (or index it: np.{name}(...)[k])")
            if name in ("linalg.norm", "linalg.cond"):
                spectral = self.spectral(name, e, args, pre)
                if spectral is not None:
                    return spectral
            if name == "linalg.norm":
                form = self.norm_form(e, args)
                if form is not None:
                    return self.scalar(form, pre)
                x = self.value(args[0], pre)
                sq = elementwise([x], _float_dt(x.dtype, "sum"),
                                 lambda v: ast.BinOp(left=v[0], op=ast.Mult(), right=copy.deepcopy(v[0])),
                                 lambda p, q: None)
                s = self.reduce_all("sum", sq, pre, e)
                return ast.Call(func=self.npf("sqrt"), args=[s], keywords=[])
            if name == "trace":
                x = self.value(args[0], pre)
                n = ast.Call(func=N("min"), args=[copy.deepcopy(x.shape[0].extent),
                                                  copy.deepcopy(x.shape[1].extent)], keywords=[])
                d = Gen([Axis(n)], x.dtype, lambda idx: x.at([idx[0], copy.deepcopy(idx[0])]))
                return self.reduce_all("sum", d, pre, e)
            if name == "vdot":
                a, b = self.flat(self.value(args[0], pre), pre, e), self.flat(self.value(args[1], pre), pre, e)
                return self.matmul(a, b, pre, e).at([])
            v = self.call_value(e, pre)
            if v.ndim:
                raise self.err(e, f"array `{ast.unparse(e)}` used as a number", "reduce it or index it")
            return v.at([])
        if name is not None and name not in ("sum",) and self.ndim(e) == 0:
            pass
        e.args = [self.scalar(a, pre) for a in e.args]
        e.keywords = [ast.keyword(arg=k.arg, value=self.scalar(k.value, pre)) for k in e.keywords]
        if isinstance(e.func, ast.Attribute):
            e.func.value = e.func.value if not isinstance(e.func.value, ast.expr) or \
                self.ndim(e.func.value) == 0 and not isinstance(e.func.value, ast.Name) else e.func.value
        return e

    # ---------------------------------------------------------------- helpers
    def helper_results(self, call):
        """(ndim, dtype) of each value an @njit helper returns, for these arguments."""
        return self.helper_summary(call)[0]

    def helper_summary(self, call):
        """``helper_results`` and, per result, whether the helper makes that array afresh."""
        key = ("helper", ast.dump(call))
        cache = self.__dict__.setdefault("_helper_cache", {})
        if key not in cache:
            cache[key] = self.n.helper_result_summary(call, self)
        return cache[key]

    def helper_views(self, caller_views, alloc):
        """Views for an inlined helper's view parameters, over placeholder names, and the map from
        each placeholder back to the caller's name (the base array, the copied index values)."""
        views, back = {}, {}
        for p, v in sorted(caller_views.items()):
            names = {}
            for n in iter_nodes(ast.Tuple(elts=[e for e in _view_exprs(v)], ctx=ast.Load())):
                if isinstance(n, ast.Name) and n.id not in names:
                    names[n.id] = alloc.fresh(f"{p}_{'base' if n.id == v.base else n.id}")
            names.setdefault(v.base, alloc.fresh(f"{p}_base"))
            inner = copy.deepcopy(v)

            class R(ast.NodeTransformer):
                def visit_Name(self, node):
                    return ast.copy_location(N(names.get(node.id, node.id)), node)
            inner.fixed = {k: R().visit(e) for k, e in inner.fixed.items()}
            for a in inner.axes:
                for f in ("start", "step", "length"):
                    if getattr(a, f) is not None:
                        setattr(a, f, R().visit(getattr(a, f)))
            inner.base = names[v.base]
            views[p] = inner
            back.update({ph: orig for orig, ph in names.items()})
        return views, back

    def arg_infos(self, params, args):
        """Array parameter -> (ndim, dtype) and view parameter -> View for a helper call."""
        arrays, views = {}, {}
        for p, a in zip(params, args):
            if isinstance(a, ast.Name):
                if a.id in self.views:
                    views[p] = self.views[a.id]
                elif a.id in self.info:
                    arrays[p] = self.info[a.id]
            elif self.ndim(a) > 0:      # `minmod(u[1:] - u[:-1], ...)`: an array expression
                arrays[p] = (self.ndim(a), self.arr_dtype(a))
        return arrays, views


# --------------------------------------------------------------- functions
def _position(node):
    """Where a user's expression is (the key of :attr:`Normaliser.blas_off`)."""
    return (getattr(node, "lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))


def _blas_result(s, arr) -> bool:
    """Whether value ``arr`` is, whole and untransposed, the array BLAS statement ``s`` makes."""
    if not (isinstance(s, ast.Assign) and getattr(s.value, "adtrans_linalg", None) and isinstance(arr, Ref)):
        return False
    v = arr.view
    return v.base == s.targets[0].id and not v.fixed and [a.base for a in v.axes] == list(range(v.base_ndim))


def _matmul_ndim(l, r):
    if l == 0 or r == 0:
        return max(l, r)
    return (l - 1) + (r - 1) if l <= 2 and r <= 2 else max(l, r)


def _axis(call, recv):
    for k in call.keywords:
        if k.arg == "axis":
            if not (isinstance(k.value, ast.Constant) or isinstance(k.value, ast.UnaryOp)):
                return None
            return ast.literal_eval(k.value)
    pos = call.args[0:1] if recv is not None else call.args[1:2]
    if pos and isinstance(pos[0], (ast.Constant, ast.UnaryOp)):
        v = ast.literal_eval(pos[0])
        return v if isinstance(v, int) else None
    return None


def _dt(s):
    return {"float64": "float64", "float32": "float32", "bool": "bool"}.get(s, "int64" if "int" in s else "float64")


def _np_dtype(dt):
    return {"bool": "bool_"}.get(dt, dt)


def _float_dt(dt, kind):
    if kind in ("mean", "var", "std") and dt in ("int64", "bool"):
        return "float64"
    if kind in ("sum", "prod") and dt == "bool":
        return "int64"
    return dt


def _idx(idx):
    idx = [copy.deepcopy(i) for i in idx]
    return idx[0] if len(idx) == 1 else ast.Tuple(elts=idx, ctx=ast.Load())


def _index_names(n):
    return ["i", "j", "k", "l", "m"][:n] if n <= 5 else [f"i{k}" for k in range(n)]


def _unravel(lin, ext):
    """C-order multi-index of linear index ``lin`` for extents ``ext``."""
    out = []
    rest = lin
    for k in range(len(ext) - 1, 0, -1):
        out.append(ast.BinOp(left=copy.deepcopy(rest), op=ast.Mod(), right=copy.deepcopy(ext[k])))
        rest = ast.BinOp(left=rest, op=ast.FloorDiv(), right=copy.deepcopy(ext[k]))
    out.append(rest)
    return out[::-1]


def _ceil_div(span, step):
    if is_const(step, 1):
        return span
    if is_const(step) and step.value > 0:
        return ast.BinOp(left=add(span, C(step.value - 1)), op=ast.FloorDiv(), right=step)
    return ast.BinOp(left=ast.UnaryOp(op=ast.USub(), operand=ast.BinOp(
        left=ast.UnaryOp(op=ast.USub(), operand=span), op=ast.FloorDiv(), right=step)), op=ast.Add(), right=C(0))


def _whole_view(view) -> bool:
    """``view`` is its whole base array (no fixed index, every axis in order from 0 with step 1),
    whose negative indices Numba's own indexing wraps."""
    return not view.fixed and len(view.axes) == view.base_ndim and all(
        a.base == k and is_const(a.start, 0) and is_const(a.step, 1) for k, a in enumerate(view.axes))


def _binds_afresh(x, name):
    """Whether statement ``x`` binds ``name`` to a value that is not another name: ``v = u.copy()``,
    or its place in a parallel tuple assignment, ``hn, hun = h.copy(), hu.copy()``."""
    if not (isinstance(x, ast.Assign) and len(x.targets) == 1):
        return False
    t, v = x.targets[0], x.value
    if isinstance(t, ast.Name):
        return t.id == name and not isinstance(v, ast.Name)
    if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts):
        return any(isinstance(a, ast.Name) and a.id == name and not isinstance(b, ast.Name)
                   for a, b in zip(t.elts, v.elts))
    return False


def _written_arrays(stmts, rebinding=True) -> set:
    """Names ``stmts`` may write or rebind: assignment and augmented-assignment targets (the array
    under a subscript), ``.fill`` receivers and arrays passed to calls other than NumPy's; with
    ``rebinding`` False, names only rebound (``x = ...``) are left out."""
    out = set()
    for s in stmts:
        for n in iter_nodes(s):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
                n, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
            for t in targets:
                for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                    if not rebinding and isinstance(e, ast.Name) and not isinstance(n, ast.AugAssign):
                        continue
                    r = _root(e) if isinstance(e, ast.Subscript) else e
                    if isinstance(r, ast.Name):
                        out.add(r.id)
            if isinstance(n, ast.Call):
                f = n.func
                root = f
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr == "fill":
                    out.add(f.value.id)
                elif not (isinstance(root, ast.Name) and root.id in ("np", "numpy", "math")):
                    out |= {a.id for a in n.args if isinstance(a, ast.Name)}
    return out


#: Tags of the statements ``w, V = np.linalg.eigh(A)`` whose parts are lowered one by one.
_GROUPS = itertools.count(1)

#: What the elements of the LAPACK functions' tuple results are called (in messages).
_PART_NAMES = {"linalg.slogdet": ("sign", "logdet"), "linalg.eigh": ("w", "V"), "linalg.svd": ("U", "s", "Vt"),
               "linalg.lstsq": ("x", "residuals", "rank", "sv"), "linalg.qr": ("Q", "R")}

_NOT_WRITING = {"len", "range", "print", "min", "max", "abs", "float", "int", "bool", "sum", "enumerate", "zip",
                "round", "isinstance", "any", "all"}
_NP_WRITING = {"copyto", "put", "place", "putmask", "fill_diagonal"}


def _writes_in_place(stmts, t, callee_writes=None) -> bool:
    """Whether ``stmts`` may write the array ``t`` names (or a view or second name of it bound
    there) in place: element or slice stores, augmented assignments, ``.fill``/``.sort``, NumPy's
    writing functions and ``out=``, or passing it to a call: an ``@njit`` helper that writes that
    parameter (``callee_writes(call)``: the positions and keywords it writes, None when unknown)
    or anything else."""
    names = {t}
    grew = True
    while grew:
        grew = False
        for s in stmts:
            for n in iter_nodes(s):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                        and isinstance(_root(n.value), ast.Name) and _root(n.value).id in names \
                        and isinstance(n.value, (ast.Name, ast.Subscript, ast.Attribute)) \
                        and n.targets[0].id not in names:
                    names.add(n.targets[0].id)
                    grew = True
    for s in stmts:
        for n in iter_nodes(s):
            if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store) \
                    and isinstance(_root(n), ast.Name) and _root(n).id in names:
                return True
            if isinstance(n, ast.AugAssign) and isinstance(_root(n.target), ast.Name) and _root(n.target).id in names:
                return True
            if isinstance(n, ast.Call):
                f, root = n.func, _root(n.func)
                args = {a.id for a in list(n.args) + [k.value for k in n.keywords] if isinstance(a, ast.Name)}
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names:
                    if f.attr in ("fill", "sort", "resize", "put", "itemset"):
                        return True
                    continue
                if isinstance(root, ast.Name) and root.id in ("np", "numpy", "math"):
                    name = f.attr if isinstance(f, ast.Attribute) else ""
                    if (name in _NP_WRITING and args & names) or any(
                            k.arg == "out" and isinstance(k.value, ast.Name) and k.value.id in names
                            for k in n.keywords):
                        return True
                    continue
                if isinstance(f, ast.Name) and f.id in _NOT_WRITING:
                    continue
                known = callee_writes(n) if callee_writes is not None else None
                if known is not None:
                    if any(isinstance(a, ast.Name) and a.id in names and k in known for k, a in enumerate(n.args)) \
                            or any(isinstance(kw.value, ast.Name) and kw.value.id in names and kw.arg in known
                                   for kw in n.keywords):
                        return True
                    continue
                if args & names:
                    return True
    return False


def _rebound_names(s) -> list:
    """Names the assignment ``s`` rebinds, in order (``hu`` in ``h, hu = hn, hu`` keeps the array
    it holds: not a rebinding)."""
    if not isinstance(s, ast.Assign):
        return []
    out = []
    for tgt in s.targets:
        elts = tgt.elts if isinstance(tgt, (ast.Tuple, ast.List)) else [tgt]
        vals = s.value.elts if isinstance(s.value, (ast.Tuple, ast.List)) and len(s.value.elts) == len(elts) \
            else [s.value] if len(elts) == 1 else [None] * len(elts)
        for e, x in zip(elts, vals):
            if isinstance(e, ast.Name) and e.id not in out and not (isinstance(x, ast.Name) and x.id == e.id):
                out.append(e.id)
    return out


def _written_before_rebinding(s, t, callee_writes=None) -> bool:
    """Whether the loop or branch ``s`` may write ``t`` in place before its first rebinding of
    ``t`` ran (so while ``t`` is still the caller's array).  False only where a statement directly
    in its body rebinds ``t`` and nothing before it (the loop's test included) nor, for a branch,
    the other arm writes it."""
    if not _writes_in_place([s], t, callee_writes):
        return False
    head = [s.test] if isinstance(s, (ast.While, ast.If)) else []
    if head and _writes_in_place([ast.Expr(value=e) for e in head], t, callee_writes):
        return True
    if isinstance(s, ast.If) and _writes_in_place(s.orelse, t, callee_writes):
        return True
    for x in s.body:
        if t in _rebound_names(x):
            return _writes_in_place([x], t, callee_writes)
        if _writes_in_place([x], t, callee_writes):
            return True
    return True


def _rebinds_every_time(s, t, callee_writes=None) -> bool:
    """Whether every run of the loop or branch ``s`` that writes ``t`` also rebinds it: a statement
    directly in its body rebinds ``t`` (a loop that runs no iteration writes nothing) and, for a
    branch, the other arm does not write it."""
    if not any(t in _rebound_names(x) for x in s.body):
        return False
    return not isinstance(s, ast.If) or not _writes_in_place(s.orelse, t, callee_writes)


def _is_shape(e):
    return isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and e.value.attr == "shape"


def _unclamped(e):
    """``max(A.shape[k], 0)`` is ``A.shape[k]`` (an extent is never negative)."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "max" and len(e.args) == 2 \
            and not e.keywords and is_const(e.args[1], 0) and _is_shape(e.args[0]):
        return e.args[0]
    return e


def _root(e):
    while isinstance(e, (ast.Subscript, ast.Attribute)):
        e = e.value
    return e


def _view_exprs(v):
    return list(v.fixed.values()) + [x for a in v.axes for x in (a.start, a.step, a.length) if x is not None]


def _structure(v):
    return (v.base, tuple(sorted(v.fixed)), tuple(a.base for a in v.axes))


def _scalar_of_scalars(name) -> bool:
    """Is ``np.<name>`` of scalar arguments a scalar: a function of the rule table, a ufunc, a
    scalar type (``np.int64(k)``), a draw (:mod:`.draws` lowers those) or ``np.array`` of a list
    (:mod:`.listvalues`)?"""
    if intrinsic_of(dotted="numpy." + name) is not None or name.startswith("random.") or name == "array":
        return True
    obj = getattr(np, name, None)
    return isinstance(obj, np.ufunc) or isinstance(obj, type) and issubclass(obj, np.generic)


def _refusal_hint(name):
    if name in NUMBA_MISSING:
        return f"Numba does not compile np.{name} either: {NUMBA_MISSING[name]}"
    status, note = TABLE.get(name, ("refused", ""))
    return note if status == "refused" and note else \
        "write the element loop, or compute it in the driver and pass the result in"

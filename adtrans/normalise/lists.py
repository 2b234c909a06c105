"""Python lists in CPU kernels, lowered to a preallocated array and a length counter.

Two passes around :mod:`.forms` (both run on a copy of the kernel's ``FunctionDef``, before jump
lowering, so the loops they write get every loop strategy, the tape machinery and the array
lowering unchanged):

1. :class:`~.comprehensions.Comprehensions` (before the forms): ``L = [f(v) for v in x if c]`` becomes ``L = []``
   and the ``for``/``if`` nest appending to it (comprehension variables keep their names unless
   the kernel uses them elsewhere); a comprehension inside an expression (``np.array([...])``,
   ``max([...])``) becomes such a list, hoisted before the statement; ``sum(<generator or
   comprehension>)`` accumulates in a scalar (no list).  It records every list name (``[]``,
   ``list()``, ``numba.typed.List()``, ``List.empty_list(dtype)``, ``[a, b]``, ``[c] * n``, list
   arguments) with its length, so that :mod:`.forms` lowers ``for v in L``, ``enumerate(L)`` and
   ``zip(L, ...)`` to ``range(len)`` loops.
2. :class:`ListLowering` (after the forms, where every loop is a ``range`` loop):
   ``L = []`` -> ``L = np.empty(capacity, dtype)`` and ``L_len = 0``; ``L.append(e)`` ->
   ``L[L_len] = e; L_len += 1``; ``L.pop()`` -> ``L_len -= 1`` (its value ``L[L_len]``);
   ``len(L)`` -> ``L_len``; ``L[i]`` / ``L[-1]`` / ``L[a:b]`` -> the array (negative indices
   counted from ``L_len``); ``sum(L)`` -> an accumulation loop; ``np.array(L)`` -> a copy of
   ``L[:L_len]``; ``L`` passed to a NumPy function or an ``@njit`` helper -> the view
   ``L[:L_len]``.  The capacity is the number of appends bounded by the trip counts of the
   ``range`` loops around each append (an ``if`` counts as taken, a ``break`` leaves it an upper
   bound); a trip count that depends on an outer loop's index (triangular loops) is summed by a
   counting loop nest before the allocation.

A list of equal-length 1-d arrays (``rows.append(X[i] * c[i])``, the row length known before the
loop: :mod:`.listrows`) is a 2-D buffer ``np.empty((capacity, row_length))``: an append copies the
row in (``rows[rows_len, :] = ...``), ``rows[k]`` is a row, ``np.array(rows)`` and ``np.vstack(rows)``
copy ``rows[:rows_len]``; ``sum``/``max``/``min`` of it are refused (stack it, then reduce).

Element dtype: that of ``List.empty_list(dtype)``, else int64 when every stored value is
an integer by construction (integer constants, ``range`` indices, ``len``, integer parameters and
arithmetic of those), bool for comparisons, else float64 (float32 values are kept in float64).

A list argument (reflected or typed) is read-only and constant (no derivative): ``len``,
indexing, iteration and ``sum`` are kept as list operations.  Refused with the line and what to
write: appends inside ``while`` or ``prange`` loops, or in loops whose bounds the kernel computes
after creating the list (the number of appends is not known when the list is made: preallocate
``np.empty(n)`` and keep a counter), lists of tuples or lists, or of arrays whose length is not known
before the loop (preallocate a 2-D array), other list methods, a list bound to a second name or returned, writes to a list argument.
"""
from __future__ import annotations

import ast
import copy

from ..ir.nodes import Rename, name
from .listrows import ELEMENTWISE, row_length, single_defs
from .listvalues import assign, at_line, binop, canon_of, creation, int_names, is_bool, is_int, mk_call
from ..ir.walk import all_names, iter_nodes

#: what each list form becomes; ``scripts/supported_table.py`` writes it into ``docs/supported.md``.
LIST_TABLE = {
    "`L = []`, `list()`, `numba.typed.List()`, `List.empty_list(t)`, `[a, b]`, `[c] * n`":
        ("differentiated", "a preallocated array and a length counter"),
    "`L.append(e)`": ("differentiated", "in `if`s and `range` loops (nested, triangular); not in `while`/`prange`"),
    "`len(L)`, `L[i]`, `L[-1]`, `L[a:b]`, `L[i] = e`, `L.pop()`": ("differentiated", ""),
    "`for v in L`, `enumerate(L)`, `zip(L, ...)`": ("differentiated", ""),
    "`sum(L)`, `max(L)`, `min(L)`, `np.array(L)`, `np.array(L[a:b])`, `L` passed to an `@njit` helper":
        ("differentiated", ""),
    "`[f(v) for v in x if c]`, `sum(f(v) for v in x)`": ("differentiated", "nested generators too"),
    "a list argument (reflected or typed)": ("constant (no derivative)", "read-only: len, indexing, iteration, sum"),
    "a list of equal-length 1-d arrays (`L.append(X[i] * c[i])`), `np.array(L)`, `np.vstack(L)`, `L[k]`":
        ("differentiated", "a 2-D buffer; the row length known before the loop (`X.shape[1]`, `np.zeros(m)`)"),
    "a list or tuple of number tuples bound once and only looped over (`pairs = [(0, 1), (1, 2)]; "
    "for a, b in pairs`, a module-level `OFFSETS = ((1, 0), ...)`)":
        ("differentiated", "a loop over the literal itself (prange and CUDA kernels too); indexing it is refused"),
    "a list of tuples or lists otherwise, or of rows of unknown length":
        ("refused", "preallocate a 2-D array and write its rows"),
    "`L.extend/insert/remove/sort/...`": ("refused", "write the element loop on a preallocated array"),
}


#: NumPy calls that make an array (a list of their results is one of arrays)
_ARRAY_MAKERS = frozenset({"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "copy",
                           "arange", "linspace"})


def _trip(nz, call, like):
    """The number of iterations of ``range(...)`` (an expression), or raise."""
    a = call.args
    if len(a) == 1:
        return mk_call("max", copy.deepcopy(a[0]), ast.Constant(0))
    lo, hi = copy.deepcopy(a[0]), copy.deepcopy(a[1])
    step = a[2] if len(a) == 3 else ast.Constant(1)
    if isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub) and isinstance(step.operand, ast.Constant):
        step = ast.Constant(-step.operand.value)
    if not (isinstance(step, ast.Constant) and type(step.value) is int and step.value != 0):
        raise nz.err(like, f"appending in `for ... in {ast.unparse(call)}`, a loop with a variable step",
                     "use a constant step, or preallocate np.empty(n) and keep a counter")
    c = step.value
    span = binop(hi, ast.Sub(), lo) if c > 0 else binop(lo, ast.Sub(), hi)
    if abs(c) != 1:
        span = binop(binop(span, ast.Add(), ast.Constant(abs(c) - 1)), ast.FloorDiv(), ast.Constant(abs(c)))
    return mk_call("max", span, ast.Constant(0))


def _stored(stmts) -> set:
    return {n.id for s in stmts for n in iter_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _mentions(stmts, lst) -> bool:
    return any(isinstance(n, ast.Name) and n.id == lst for s in stmts for n in iter_nodes(s))


def _prod(terms):
    out = None
    for t in terms:
        out = t if out is None else binop(out, ast.Mult(), t)
    return out if out is not None else ast.Constant(1)


class ListLowering:
    """Pass 2 (see the module docstring): lists -> arrays and counters.  ``forms``: the
    :class:`~.forms.FormLowering` (its NumPy spelling)."""

    def __init__(self, nz, forms):
        self.nz, self.forms = nz, forms
        self.info = nz.list_info
        self.live: set = set(n for n, i in self.info.items() if i is not None and i.param)
        self.loops: list = []
        self.pending: dict = {}         # list -> (statement, allocation written right before it)

    def err(self, node, construct, hint=""):
        return self.nz.err(node, construct, hint)

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        if not self.info:
            return tree
        self.ints = int_names(self.nz, tree)
        self.defs = single_defs(tree)
        tree.body = self.block(tree.body)
        return tree

    # ------------------------------------------------------------ statements
    def block(self, stmts) -> list:
        out, made = [], []
        for i, s in enumerate(stmts):
            for lst in sorted(self.pending):
                if self.pending[lst][0] is s:
                    out += self.pending.pop(lst)[1]
            lst = self.created(s)
            if lst is not None:
                out += self.create(lst, s, stmts[i + 1:])
                made.append(lst)
                continue
            out += self.stmt(s)
        for lst in made:
            self.live.discard(lst)
        return out

    def created(self, s):
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and \
                s.targets[0].id in self.info and creation(self.nz, s.value) is not None:
            return s.targets[0].id
        return None

    def stmt(self, s) -> list:
        pre: list = []
        if isinstance(s, ast.For):
            s.iter = self.expr(s.iter, pre)
            self.loops.append(s)
            s.body = self.block(s.body)
            self.loops.pop()
            s.orelse = self.block(s.orelse)
            return pre + [s]
        if isinstance(s, ast.While):
            s.test = self.expr(self.truth(s.test), pre)
            if pre:
                raise self.err(s, "sum() or np.array() of a list in a while condition",
                               "compute it into a name before the loop and at the end of its body")
            self.loops.append(s)
            s.body = self.block(s.body)
            self.loops.pop()
            s.orelse = self.block(s.orelse)
            return [s]
        if isinstance(s, ast.If):
            s.test = self.expr(self.truth(s.test), pre)
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            return pre + [s]
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and self.method(s.value) is not None:
            lst, meth = self.method(s.value)
            return self.method_stmt(s, lst, meth, None)
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.value, ast.Call) and \
                self.method(s.value) is not None:
            lst, meth = self.method(s.value)
            return self.method_stmt(s, lst, meth, s.targets[0])
        if isinstance(s, ast.Assign):
            for t in s.targets:
                if isinstance(t, ast.Name) and t.id in self.info:
                    raise self.err(s, f"rebinding the list `{t.id}`", "give each list its own name")
            if isinstance(s.value, ast.Name) and s.value.id in self.info:
                raise self.err(s, f"binding the list `{s.value.id}` to a second name",
                               f"use `{s.value.id}` itself, or np.array({s.value.id}) for a copy")
        if isinstance(s, ast.Return) and s.value is not None:
            for e in (s.value.elts if isinstance(s.value, ast.Tuple) else [s.value]):
                if isinstance(e, ast.Name) and e.id in self.info:
                    raise self.err(s, f"returning the list `{e.id}`", f"return np.array({e.id})")
        s = _ListExprs(self, pre).visit(s)
        return pre + [s]

    def truth(self, test):
        """``if L:`` / ``while L:`` -> ``len(L) > 0``."""
        if isinstance(test, ast.Name) and test.id in self.info:
            return ast.copy_location(ast.Compare(left=mk_call("len", name(test.id)), ops=[ast.Gt()],
                                                 comparators=[ast.Constant(0)]), test)
        return test

    def method(self, call):
        f = call.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.info:
            return f.value.id, f.attr
        return None

    def method_stmt(self, s, lst, meth, target) -> list:
        call = s.value
        info = self.info[lst]
        if info.param:
            raise self.err(s, f"`{lst}.{meth}()` on the list argument `{lst}` (read-only)",
                           "build a new list in the kernel, or pass an array")
        self.need_live(lst, s)
        pre: list = []
        if meth == "append" and target is None:
            if len(call.args) != 1 or call.keywords:
                raise self.err(s, f"`{ast.unparse(call)}`", f"{lst}.append(value)")
            value = call.args[0]
            self.check_element(lst, value, s)
            value = self.expr(value, pre)
            at = copy.deepcopy(info.length)
            if info.row is not None:        # a row of the 2-D buffer
                at = ast.Tuple(elts=[at, ast.Slice(lower=None, upper=None, step=None)], ctx=ast.Load())
            store = ast.Subscript(value=name(lst), slice=at, ctx=ast.Store())
            return pre + [assign(store, value, s),
                          at_line(ast.AugAssign(target=name(info.length.id, True), op=ast.Add(), value=ast.Constant(1)),
                               s)]
        if meth == "pop" and not call.args and not call.keywords:
            out = [at_line(ast.AugAssign(target=name(info.length.id, True), op=ast.Sub(), value=ast.Constant(1)), s)]
            if target is not None:
                load = ast.Subscript(value=name(lst), slice=copy.deepcopy(info.length), ctx=ast.Load())
                out.append(_ListExprs(self, pre).visit(assign(target, load, s)))
            return pre + out
        if meth == "append":
            raise self.err(s, f"the value of `{lst}.append()` (None)", f"call {lst}.append(v) as a statement")
        hint = {"extend": f"append the elements one by one: for v in ...: {lst}.append(v)",
                "pop": f"{lst}.pop() without an index (the last element)"}.get(
            meth, "write the element loop on a preallocated array")
        raise self.err(s, f"the list method `{lst}.{meth}()`", hint)

    def need_live(self, lst, node):
        if lst not in self.live:
            raise self.err(node, f"the list `{lst}` used outside the block that creates it (or before)",
                           "create the list in the block that uses it")

    def check_element(self, lst, value, like):
        if self.info[lst].row is not None and self.is_array(value) and \
                row_length(self.nz, value, self.defs) is not None:
            return
        if isinstance(value, (ast.List, ast.Tuple, ast.ListComp, ast.Dict, ast.Set)) or self.is_array(value) or \
                creation(self.nz, value) is not None:
            raise self.err(like, f"a list of arrays, tuples or lists (`{lst}`)",
                           "preallocate a 2-D array (np.empty((n, m))) and write its rows")

    def is_array(self, e) -> bool:
        nd = self.nz.ndims
        if isinstance(e, ast.Name):
            if e.id not in nd and e.id not in self.info and e.id in self.defs:
                value = self.defs.pop(e.id)         # out while it is read: no cycles
                try:
                    return self.is_array(value)
                finally:
                    self.defs[e.id] = value
            return nd.get(e.id, 0) > 0 or e.id in self.info
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in nd:
            idx = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
            return any(isinstance(i, ast.Slice) for i in idx) or len(idx) < nd[e.value.id]
        if isinstance(e, ast.Call):
            short = (canon_of(self.nz, e.func) or "").split(".")[-1]
            if short in ELEMENTWISE and (canon_of(self.nz, e.func) or "").startswith("numpy."):
                return any(self.is_array(a) for a in e.args)
            if short in _ARRAY_MAKERS:
                return True
            return self.nz.helper_of(e) is not None and self.helper_returns_array(e)
        if isinstance(e, ast.BinOp):
            return self.is_array(e.left) or self.is_array(e.right)
        if isinstance(e, ast.UnaryOp):
            return self.is_array(e.operand)
        return False

    def helper_returns_array(self, call) -> bool:
        """Whether the ``@njit`` helper ``call`` names returns one array (``P.append(jc_matrix(t))``:
        the list is one of arrays, refused with its line rather than typed as floats); the helper
        is normalised with its array arguments' numbers of dimensions, False where that fails."""
        nd = self.nz.ndims

        class _Args:            # what helper_result_summary asks of the array lowering
            @staticmethod
            def arg_infos(params, args):
                out = {}
                for p, a in zip(params, args):
                    base = a.value if isinstance(a, ast.Subscript) else a
                    if isinstance(base, ast.Name) and nd.get(base.id, 0) > 0:
                        k = nd[base.id]
                        if a is not base:
                            idx = a.slice.elts if isinstance(a.slice, ast.Tuple) else [a.slice]
                            k -= sum(not isinstance(i, ast.Slice) for i in idx)
                        if k > 0:
                            out[p] = (k, "float64")
                return out, {}
        try:
            infos, _ = self.nz.helper_result_summary(call, _Args)
        except Exception:       # noqa: BLE001 -- only a diagnosis: the kernel is lowered as before
            return False
        return len(infos) == 1 and infos[0][0] > 0

    def rows(self, lst, sites, region):
        """The row length of a list whose appends are 1-d arrays (see :mod:`.listrows`), or None
        when they are not arrays; refused when the length is not known before the loop."""
        values = [(call, call.args[0]) for call, _, _ in sites if len(call.args) == 1]
        arrays = [(call, v) for call, v in values if self.is_array(v)]
        if not arrays:
            return None
        stored = _stored(region)
        for call, v in arrays:
            row = row_length(self.nz, v, self.defs)
            if row is None or all_names(row) & stored:
                raise self.err(call, f"a list of arrays (`{lst}`) whose row length is not known before the loop",
                               "preallocate a 2-D array (np.empty((n, m))) and write its rows (a list of "
                               f"2-D arrays: np.empty((n, m, k)), {lst}[i] = ...)")
        if len(arrays) != len(values):
            call = next(c for c, v in values if not self.is_array(v))
            raise self.err(call, f"a list of arrays (`{lst}`) with a number appended", "append rows only")
        return row_length(self.nz, arrays[0][1], self.defs)

    # -------------------------------------------------------------- creation
    def create(self, lst, s, rest) -> list:
        """``lst = np.empty(capacity)`` and its counter, at the first statement of ``rest`` that
        uses the list (so bounds computed in between count)."""
        kind, payload = creation(self.nz, s.value)
        info = self.info[lst]
        pre: list = []
        if kind == "literal":
            init = [self.expr(e, pre) for e in payload]
            for e in payload:
                self.check_element(lst, e, s)
            count0 = ast.Constant(len(init))
        elif kind == "repeat":
            self.check_element(lst, payload[0], s)
            init = [self.expr(payload[0], pre)]
            count0 = mk_call("max", self.expr(payload[1], pre), ast.Constant(0))
            if not isinstance(payload[1], ast.Constant):      # taken now, as Python does
                size = self.nz.fresh(lst + "_size")
                pre.append(assign(size, count0, s))
                count0 = name(size)
        else:
            init, count0 = [], ast.Constant(0)
        first = next((k for k, t in enumerate(rest) if _mentions([t], lst)), len(rest))
        region = rest[first:]
        sites = [(call, chain, _stored(region[:k + 1]) | self.mutated(region[:k + 1])) for k, top in enumerate(region)
                 for call, chain in self.appends([top], lst, [])]
        if kind == "literal" and not payload or kind == "typed" and payload is None:
            info.row = self.rows(lst, sites, region)
        dtype = info.dtype = info.dtype or self.element_dtype(lst, payload if kind == "literal" else init, rest)
        cap_terms, nests = [count0], []
        for call, chain, stored in sites:
            term, nest = self.count(lst, call, chain, stored)
            if nest is None:
                cap_terms.append(term)
            else:
                nests.append(nest)
        const = sum(t.value for t in cap_terms if isinstance(t, ast.Constant))
        cap = None
        for t in cap_terms:
            if not isinstance(t, ast.Constant):
                cap = copy.deepcopy(t) if cap is None else binop(cap, ast.Add(), copy.deepcopy(t))
        if cap is None or const:
            cap = ast.Constant(const) if cap is None else binop(cap, ast.Add(), ast.Constant(const))
        alloc: list = []
        cap = self.expr(cap, alloc)           # len(M) of another (finished) list -> M_len
        if nests:
            cap_name = self.nz.fresh(lst + "_capacity")
            alloc.append(assign(cap_name, cap, s))
            for nest in nests:
                alloc += [_ListExprs(self, alloc).visit(st) for st in nest(cap_name)]
            cap = name(cap_name)
        np_empty = self.forms.np_attr("empty")
        if info.row is not None:
            cap = ast.Tuple(elts=[cap, copy.deepcopy(info.row)], ctx=ast.Load())
        alloc.append(assign(lst, mk_call(np_empty, cap, keywords=[
            ast.keyword(arg="dtype", value=self.forms.np_attr(dtype))]), s))
        if kind == "repeat":
            k = self.nz.fresh(lst + "_k")
            fill = init[0]
            alloc.append(at_line(ast.For(target=name(k, True), iter=mk_call("range", copy.deepcopy(count0)),
                                      body=[assign(ast.Subscript(value=name(lst), slice=name(k), ctx=ast.Store()),
                                                    copy.deepcopy(fill), s)], orelse=[]), s))
        else:
            for j, e in enumerate(init):
                alloc.append(assign(ast.Subscript(value=name(lst), slice=ast.Constant(j), ctx=ast.Store()), e, s))
        alloc.append(assign(info.length.id, copy.deepcopy(count0), s))
        self.live.add(lst)
        if first == 0 or not region:
            return pre + alloc
        # allocate right before the first use (values of a literal are taken now)
        if kind in ("literal", "repeat") and any(not isinstance(e, ast.Constant) for e in init):
            held = []
            for j, e in enumerate(init):
                h = self.nz.fresh(f"{lst}_{j}")
                pre.append(assign(h, e, s))
                held.append(name(h))
            self._replace_init(alloc, init, held)
        self.pending[lst] = (region[0], alloc)
        return pre

    @staticmethod
    def _replace_init(alloc, init, held):
        ids = {id(e): h for e, h in zip(init, held)}
        for a in alloc:
            for n in iter_nodes(a):
                for fld, val in ast.iter_fields(n):
                    if isinstance(val, ast.expr) and id(val) in ids:
                        setattr(n, fld, copy.deepcopy(ids[id(val)]))

    def mutated(self, stmts) -> set:
        """Lists whose length ``stmts`` change (append/pop)."""
        return {n.func.value.id for s in stmts for n in iter_nodes(s) if isinstance(n, ast.Call) and
                self.method(n) is not None and n.func.attr in ("append", "pop")}

    def element_dtype(self, lst, init, rest) -> str:
        values = list(init)
        for s in rest:
            for n in iter_nodes(s):
                if isinstance(n, ast.Call) and self.method(n) == (lst, "append") and n.args:
                    values.append(n.args[0])
                elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                                       and t.value.id == lst for t in n.targets):
                    values.append(n.value)
        if values and all(is_int(v, self.ints, self.nz) for v in values):
            return "int64"
        if values and all(is_bool(v) for v in values):
            return "bool_"
        return "float64"

    def appends(self, stmts, lst, chain):
        for s in stmts:
            if isinstance(s, (ast.For, ast.While)):
                yield from self.appends(s.body, lst, chain + [s])
                yield from self.appends(s.orelse, lst, chain)
            elif isinstance(s, ast.If):
                yield from self.appends(s.body, lst, chain)
                yield from self.appends(s.orelse, lst, chain)
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and self.method(s.value) == (lst, "append"):
                yield s.value, chain

    def count(self, lst, call, chain, stored):
        """(term, None) — the number of times ``call`` can run, an expression valid before the
        region — or (None, nest): a function writing the counting loops into a capacity name."""
        trips, indices = [], []
        if self.info[lst].growable and any(isinstance(loop, ast.While) for loop in chain):
            return ast.Constant(0), None    # counted as none: the CPU target grows it (targets/cpu.py)
        for loop in chain:
            if isinstance(loop, ast.While):
                raise self.err(call, f"appending to `{lst}` inside a while loop (the number of appends is not "
                                     "known when the list is created)",
                               "loop over range(max_n) with a break, or preallocate np.empty(max_n) and keep a counter")
            it = loop.iter
            if self.info[lst].length.id in all_names(it):
                raise self.err(call, f"appending to `{lst}` while iterating over it (Python visits the new elements too)",
                               f"append to a second list, or loop over range(len({lst})) (the length when the loop starts)")
            kind = (canon_of(self.nz, it.func) or "").split(".")[-1] if isinstance(it, ast.Call) else ""
            if kind == "prange":
                raise self.err(call, f"appending to `{lst}` inside a prange loop (the order of appends is a race)",
                               "preallocate np.empty(n) and write out[i] in iteration i")
            if kind != "range":
                raise self.err(call, f"appending to `{lst}` in a loop over `{ast.unparse(it)}`",
                               "loop over range(...)")
            trips.append(_trip(self.nz, it, call))
            indices.append(loop.target.id if isinstance(loop.target, ast.Name) else None)
        depth = 0           # loops that must be run to count (a later trip reads their index)
        for j, t in enumerate(trips):
            uses = all_names(t)
            for k in range(j):
                if indices[k] in uses:
                    depth = max(depth, k + 1)
            bad = (uses & stored) - set(indices[:j])
            if bad:
                raise self.err(call, f"appending to `{lst}` in a loop whose bound uses `{sorted(bad)[0]}`, "
                                     "which the kernel assigns after creating the list",
                               "compute the bound before creating the list, or preallocate np.empty(n) and "
                               "keep a counter")
        if depth == 0:
            return _prod(trips), None
        outer = chain[:depth]
        fresh = {indices[k]: self.nz.fresh(indices[k] + "_count") for k in range(depth)}
        inner = Rename(fresh).visit(copy.deepcopy(_prod(trips[depth:])))
        heads = [Rename(fresh).visit(copy.deepcopy(lp.iter)) for lp in outer]

        def nest(cap_name):
            body = [at_line(ast.AugAssign(target=name(cap_name, True), op=ast.Add(), value=copy.deepcopy(inner)), call)]
            for k in reversed(range(depth)):
                body = [at_line(ast.For(target=name(fresh[indices[k]], True), iter=copy.deepcopy(heads[k]), body=body,
                                     orelse=[]), call)]
            return body
        return None, nest

    # ----------------------------------------------------------- expressions
    def expr(self, e, pre):
        return _ListExprs(self, pre).visit(e)

    def nonneg(self, e) -> bool:
        """Whether the integer ``e`` is >= 0 by construction (constants, ``range`` indices, lengths)."""
        if isinstance(e, ast.Constant):
            return type(e.value) is int and e.value >= 0
        if isinstance(e, ast.Name):
            if any(i.length is not None and isinstance(i.length, ast.Name) and i.length.id == e.id
                   for i in self.info.values() if i is not None):
                return True
            for loop in reversed(self.loops):
                if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and loop.target.id == e.id:
                    a = loop.iter.args if isinstance(loop.iter, ast.Call) else []
                    if e.id in _stored(loop.body):
                        return False
                    if len(a) == 1:
                        return True
                    step = a[2] if len(a) == 3 else ast.Constant(1)
                    return 2 <= len(a) <= 3 and self.nonneg(a[0]) and isinstance(step, ast.Constant) and \
                        type(step.value) is int and step.value > 0
            return False
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Mult, ast.FloorDiv, ast.Mod)):
            return self.nonneg(e.left) and self.nonneg(e.right)
        if isinstance(e, ast.Call):
            return canon_of(self.nz, e.func) == "builtins.len"
        return False

    def index(self, lst, i):
        """The array index of the list index ``i`` (negative ones count from the length)."""
        n = self.info[lst].length
        if isinstance(i, ast.UnaryOp) and isinstance(i.op, ast.USub) and isinstance(i.operand, ast.Constant) and \
                type(i.operand.value) is int:
            return binop(copy.deepcopy(n), ast.Sub(), ast.Constant(i.operand.value)) if i.operand.value else \
                ast.Constant(0)
        if isinstance(i, ast.Constant) and type(i.value) is int and i.value < 0:
            return binop(copy.deepcopy(n), ast.Sub(), ast.Constant(-i.value))
        if self.nonneg(i):
            return i
        return ast.IfExp(test=ast.Compare(left=copy.deepcopy(i), ops=[ast.Lt()], comparators=[ast.Constant(0)]),
                         body=binop(copy.deepcopy(i), ast.Add(), copy.deepcopy(n)), orelse=i)

    def bound(self, lst, b, like):
        if b is None:
            return None
        if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant):
            return binop(copy.deepcopy(self.info[lst].length), ast.Sub(), b.operand)
        if self.nonneg(b):
            return b
        raise self.err(like, f"the slice `{ast.unparse(like)}` of the list `{lst}` with a bound that may be negative",
                       "use constant or loop-index bounds")

    def view(self, lst, like):
        """``lst[:lst_len]`` (a local list) or, for a list argument, a copy into a fresh array."""
        return ast.copy_location(ast.Subscript(value=name(lst), slice=ast.Slice(
            lower=None, upper=copy.deepcopy(self.info[lst].length), step=None), ctx=ast.Load()), like)

    def param_copy(self, lst, pre, like):
        arr = self.nz.fresh(lst + "_array")
        k = self.nz.fresh(lst + "_k")
        pre.append(assign(arr, mk_call(self.forms.np_attr("empty"), mk_call("len", name(lst))), like))
        pre.append(at_line(ast.For(target=name(k, True), iter=mk_call("range", mk_call("len", name(lst))), body=[
            assign(ast.Subscript(value=name(arr), slice=name(k), ctx=ast.Store()),
                    ast.Subscript(value=name(lst), slice=name(k), ctx=ast.Load()), like)], orelse=[]), like))
        self.nz.ndims[arr] = 1
        return name(arr)

    def total(self, lst, start, pre, like):
        info = self.info[lst]
        acc = self.nz.fresh(lst + "_sum")
        k = self.nz.fresh("k")
        ints = str(info.dtype).startswith("int") or info.param and \
            str(self.nz.list_params.get(lst)).startswith("int")
        pre.append(assign(acc, start if start is not None else ast.Constant(0 if ints else 0.0), like))
        pre.append(at_line(ast.For(target=name(k, True), iter=mk_call("range", copy.deepcopy(info.length)), body=[
            at_line(ast.AugAssign(target=name(acc, True), op=ast.Add(),
                               value=ast.Subscript(value=name(lst), slice=name(k), ctx=ast.Load())), like)],
            orelse=[]), like))
        return name(acc)


class _ListExprs(ast.NodeTransformer):
    """List uses inside one statement (see :class:`ListLowering`); hoisted loops go to ``pre``."""

    def __init__(self, low: ListLowering, pre: list):
        self.l, self.pre = low, pre

    def is_list(self, e):
        return isinstance(e, ast.Name) and e.id in self.l.info and self.l.info[e.id] is not None

    def as_array(self, e, like):
        lst = e.id
        self.l.need_live(lst, like)
        if self.l.info[lst].param:
            return self.l.param_copy(lst, self.pre, like)
        return self.l.view(lst, like)

    def visit_Call(self, node):
        low = self.l
        canon = canon_of(low.nz, node.func) or ""
        if low.method(node) is not None:
            lst, meth = low.method(node)
            raise low.err(node, f"`{lst}.{meth}()` inside an expression",
                          f"call {lst}.append(v) / v = {lst}.pop() as statements")
        args = node.args
        if canon == "builtins.len" and len(args) == 1 and self.is_list(args[0]):
            low.need_live(args[0].id, node)
            return ast.copy_location(copy.deepcopy(low.info[args[0].id].length), node)
        if canon in ("builtins.sum", "builtins.max", "builtins.min", "builtins.any", "builtins.all") and args and \
                self.is_list(args[0]) and low.info[args[0].id].row is not None:
            raise low.err(node, f"`{canon.split('.')[-1]}()` of the list of arrays `{args[0].id}`",
                          f"stack it, Y = np.array({args[0].id}), and reduce Y (np.sum(Y[:, j]) ...)")
        if canon in ("numpy.vstack", "numpy.stack", "numpy.row_stack") and len(args) == 1 and not node.keywords \
                and self.is_list(args[0]) and low.info[args[0].id].row is not None:
            canon = "numpy.array"           # the rows stacked: the 2-D buffer itself
        if canon == "builtins.sum" and 1 <= len(args) <= 2 and not node.keywords:
            start = self.visit(args[1]) if len(args) == 2 else None
            if self.is_list(args[0]):
                low.need_live(args[0].id, node)
                return ast.copy_location(low.total(args[0].id, start, self.pre, node), node)
            if isinstance(args[0], ast.Subscript) and self.is_list(args[0].value) and \
                    isinstance(args[0].slice, ast.Slice):
                total = mk_call(low.forms.np_attr("sum"), self.visit(args[0]))
                return ast.copy_location(total if start is None else binop(start, ast.Add(), total), node)
        if canon in ("builtins.max", "builtins.min", "builtins.any", "builtins.all") and len(args) == 1 and \
                (self.is_list(args[0]) or isinstance(args[0], ast.Subscript) and self.is_list(args[0].value)):
            arr = self.as_array(args[0], node) if self.is_list(args[0]) else self.visit(args[0])
            return ast.copy_location(mk_call(low.forms.np_attr(canon.split(".")[-1]), arr), node)
        if canon in ("numpy.array", "numpy.asarray") and len(args) == 1 and not node.keywords and \
                isinstance(args[0], ast.Subscript) and self.is_list(args[0].value) and \
                isinstance(args[0].slice, ast.Slice) and not low.info[args[0].value.id].param:
            return ast.copy_location(mk_call(low.forms.np_attr("copy"), self.visit(args[0])), node)
        if canon in ("numpy.array", "numpy.asarray") and len(args) == 1 and self.is_list(args[0]):
            if node.keywords:
                raise low.err(node, f"`{ast.unparse(node)}` with keywords", f"np.array({args[0].id})")
            if low.info[args[0].id].param:
                return ast.copy_location(self.as_array(args[0], node), node)
            return ast.copy_location(mk_call(low.forms.np_attr("copy"), self.as_array(args[0], node)), node)
        if canon.startswith("numpy.") or low.nz.helper_of(node) is not None:
            helper = not canon.startswith("numpy.")
            node.args = [a if self.is_list(a) and helper and low.info[a.id].param else
                         self.as_array(a, node) if self.is_list(a) else self.visit(a) for a in args]
            node.keywords = [ast.keyword(arg=k.arg, value=self.as_array(k.value, node) if self.is_list(k.value)
                                         else self.visit(k.value)) for k in node.keywords]
            if not isinstance(node.func, ast.Name):
                node.func = self.visit(node.func)
            return node
        self.generic_visit(node)
        return node

    def visit_Subscript(self, node):
        low = self.l
        if not self.is_list(node.value):
            self.generic_visit(node)
            return node
        lst = node.value.id
        low.need_live(lst, node)
        info = low.info[lst]
        if info.param:
            if not isinstance(node.ctx, ast.Load):
                raise low.err(node, f"writing to the list argument `{lst}` (read-only)",
                              "pass an array, or build a new list in the kernel")
            if isinstance(node.slice, ast.Slice):
                raise low.err(node, f"a slice of the list argument `{lst}`", "index it element by element")
            node.slice = self.visit(node.slice)
            return node
        sl = node.slice
        if isinstance(sl, ast.Slice):
            if sl.step is not None:
                raise low.err(node, f"the slice `{ast.unparse(node)}` of a list with a step", "loop over the indices")
            lo = low.bound(lst, self.visit(sl.lower) if sl.lower is not None else None, node)
            hi = low.bound(lst, self.visit(sl.upper) if sl.upper is not None else None, node)
            node.slice = ast.Slice(lower=lo, upper=hi if hi is not None else copy.deepcopy(info.length), step=None)
            return node
        if isinstance(sl, ast.Tuple):
            raise low.err(node, f"`{ast.unparse(node)}`: a list has one index", f"{lst}[i]")
        node.slice = low.index(lst, self.visit(sl))
        return node

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not) and self.is_list(node.operand):
            self.l.need_live(node.operand.id, node)
            return ast.copy_location(ast.Compare(left=copy.deepcopy(self.l.info[node.operand.id].length),
                                                 ops=[ast.Eq()], comparators=[ast.Constant(0)]), node)
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if self.is_list(node):
            raise self.l.err(node, f"the list `{node.id}` used as a value",
                             f"use len({node.id}), {node.id}[i], sum({node.id}), np.array({node.id}) or loop over it")
        return node

    def visit_Lambda(self, node):
        return node

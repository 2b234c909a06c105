"""Tuples passed whole to a function: the tuple parameter split into one parameter per element.

``forward((W1, b1, W2), X)`` or ``params = (W1, b1, W2); forward(params, X)`` with ``def
forward(params, X): W1, b1, W2 = params`` is, for the engine, ``forward(params_0, params_1,
params_2, X)`` with ``params`` in the helper's body the tuple literal ``(params_0, params_1,
params_2)``: every element is then an array (or number) of its own, with its own shadow, and the
helper is inlined as any other.  The same split serves a kernel whose *own* parameter is a tuple
of ``Duplicated`` arrays (:func:`adtrans.pipeline.generate`, called by drivers passing a tuple
whole): the adjoint of the split kernel, behind an entry taking the tuple and its shadow tuple.

In the body the literal is simplified where it is read: ``params[1]`` (a constant index, negative
too) is ``params_1``, ``params[1:]`` a shorter literal, ``len(params)`` the constant, ``for W in
params:`` the body once per element (``W = params_0; ...``), ``a, b, c = params`` unpacks the
literal; passed whole to another helper it is split again there; ``for i in range(len(params)):``
(bounds known once the tuple is split: constants, ``len`` of the tuple) whose body indexes the
tuple with the counter (``params[i]``) is unrolled, the body once per value of ``i`` with ``i`` a
constant.  Refused with the line: storing into the tuple's name, indexing it with a value known
only at run time (``for i in range(n)``), ``break``/``continue`` in a loop over it.  A name bound
to a tuple literal is split where it is bound exactly once and is read only in those ways and
passed whole to a helper or indexed by such a loop's counter (``name_0 = e0`` ... at the binding:
the elements are evaluated where Python evaluates them).
"""
from __future__ import annotations

import ast
import copy
import dataclasses

from numba.core import types as nbtypes

from ..errors import ActivityError
from ..ir.names import names_in
from ..ir.walk import const_int, iter_nodes, loaded_names, stored_names
from .records import RecordSplit, split_params


#: form -> (status, note): the rows of ``docs/supported.md`` (``scripts/supported_table.py``)
TUPLE_TABLE = {
    "`f((W1, b1, W2), X)`, `params = (W1, b1, W2); f(params, X)` (an `@njit` helper)":
        ("differentiated", "the tuple parameter split into one parameter per element; nested tuples too"),
    "`W1, b1 = p`, `p[0]`, `p[-1]`, `p[1:]`, `len(p)`, `for a in p`, `p` passed on to a helper":
        ("differentiated", "in the helper taking the tuple (`for`: the body once per element)"),
    "a kernel's own tuple parameter, `Duplicated((W1, b1), (d_W1, d_b1))`":
        ("differentiated", "float arrays get the shadows at their positions, floats' adjoints are returned "
                           "with the Active ones; CPU only"),
    "a driver passing a tuple or list literal, or a name bound once to one, whole to a kernel":
        ("differentiated", "each element its own shadow; a list goes as a tuple where the kernel reads it as one"),
    "`for i in range(len(p)): ... p[i] ...`, `for i in range(3)` (bounds known at compile time)":
        ("differentiated", "unrolled: the body once per value of `i`, `p[i]` the element"),
    "`p[i]` (an index known only at run time), assigning `p` in the helper":
        ("refused", "index it with constants or unpack it; give the new value its own name"),
    "`break`/`continue`/`else` in a `for` loop over the tuple": ("refused", "unpack it and write the steps out"),
    "a list appended to, or a tuple bound twice, passed whole from a driver":
        ("refused", "bind each tuple once to a literal of its own (its length known)"),
    "a driver's tuple whose arrays the kernel writes": ("refused", "pass the written arrays as arguments of their own"),
    "a literal in a loop header: `for s in (-1, 1)`, `for di, dj in ((1, 0), (0, 1))`, `enumerate((a, b))`":
        ("differentiated", "numbers: an index loop selecting the element in the body, `break`/`continue` allowed; "
                           "other elements (arrays, expressions, evaluated once before the loop): the body once "
                           "per element, `break`/`continue` refused (normalise/forms.py)"),
}


def _literal(elts: list, like) -> ast.Tuple:
    """The tuple literal of ``elts`` (names or expressions), marked as one this module made."""
    t = ast.copy_location(ast.Tuple(elts=[ast.copy_location(ast.Name(id=e, ctx=ast.Load()), like)
                                          if isinstance(e, str) else e for e in elts], ctx=ast.Load()), like)
    t.adtrans_tuple = True
    return t


def _made(e) -> bool:
    return getattr(e, "adtrans_tuple", False)


def _is_literal(e) -> bool:
    return isinstance(e, ast.Tuple) and not any(isinstance(x, ast.Starred) for x in e.elts)


class _Simplify(ast.NodeTransformer):
    """Reads of tuple literals (``(a, b)[1]``, ``(a, b)[1:]``, ``len((a, b))``, ``for w in (a, b)``)
    replaced by what they read; ``what`` names the tuple in messages."""

    def __init__(self, err, what: str):
        self.err, self.what = err, what

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not _made(node.value) or not isinstance(node.ctx, ast.Load):
            return node
        elts, sl = node.value.elts, node.slice
        k = const_int(sl)
        if k is not None:
            if not -len(elts) <= k < len(elts):
                raise self.err(node, f"index {k} of {self.what}, a tuple of {len(elts)}", "index it within its length")
            return elts[k]
        if isinstance(sl, ast.Slice):
            bounds = [None if b is None else const_int(b) for b in (sl.lower, sl.upper, sl.step)]
            if all(b is not None or e is None for b, e in zip(bounds, (sl.lower, sl.upper, sl.step))) and bounds[2] != 0:
                return _literal(elts[slice(*bounds)], node)
        raise self.err(node, f"{self.what}, a tuple of arrays, indexed by a value known only at run time",
                       "index it with constants (p[0]), unpack it (a, b = p), or index it by the counter of "
                       "`for i in range(len(p))` (unrolled)")

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 and \
                _made(node.args[0]) and not node.keywords:
            return ast.copy_location(ast.Constant(len(node.args[0].elts)), node)
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        t = node.targets[0]
        if len(node.targets) != 1 or not _made(node.value) or not isinstance(t, (ast.Tuple, ast.List)) or \
                any(isinstance(e, ast.Starred) for e in t.elts) or len(t.elts) != len(node.value.elts) or \
                stored_names(t) & loaded_names(node.value):
            return node
        out = []        # (a, b), c = ((p_0_0, p_0_1), p_1): one name at a time (no value reads a target)
        for target, value in zip(t.elts, node.value.elts):
            out += _as_list(self.visit_Assign(ast.copy_location(ast.Assign(targets=[target], value=value), node)))
        return out

    def visit_For(self, node):
        unrolled = self.unroll(node)
        if unrolled is not None:
            return unrolled
        self.generic_visit(node)
        if not _made(node.iter):
            return node
        jumps = [n for s in node.body for n in _own_jumps(s)]
        if jumps or node.orelse:
            raise self.err(jumps[0] if jumps else node, f"break, continue or else in a loop over {self.what}, "
                                                        "a tuple of arrays", "unpack the tuple and write the steps out")
        out = []
        for e in node.iter.elts:
            out.append(ast.copy_location(ast.Assign(targets=[copy.deepcopy(node.target)], value=copy.deepcopy(e)), node))
            out.extend(copy.deepcopy(node.body))
        return out

    def unroll(self, node):
        """``for i in range(len(p)):`` (a trip count known here: constants, ``len`` of the tuple)
        whose body indexes the tuple with ``i`` (``p[i]``, ``p[i + 1]``): the body once per value,
        ``i`` a constant in each copy (``p[0]``, ...), then ``i = <last value>``; None for any
        other loop."""
        trips = _constant_range(node, lambda a: self.visit(copy.deepcopy(a)))
        if trips is None or not _indexes_by(node.body, node.target.id, _made):
            return None
        i = node.target.id
        jumps = [n for s in node.body for n in _own_jumps(s)]
        if jumps or node.orelse or any(i in stored_names(s) for s in node.body):
            raise self.err(jumps[0] if jumps else node, f"{self.what}, a tuple of arrays, indexed by the counter of a "
                           "loop that has break, continue or else, or assigns its counter",
                           "unpack the tuple and write the steps out")
        out = []
        for v in trips:
            for s in copy.deepcopy(node.body):
                out += _as_list(self.visit(_Constant(i, v).visit(s)))
        if trips:
            out.append(ast.copy_location(ast.Assign(targets=[ast.Name(id=i, ctx=ast.Store())],
                                                    value=ast.Constant(trips[-1])), node))
        return [ast.fix_missing_locations(s) for s in out] or [ast.copy_location(ast.Pass(), node)]


class _Constant(ast.NodeTransformer):
    """Reads of the name ``i`` replaced by the constant ``v``."""

    def __init__(self, i: str, v: int):
        self.i, self.v = i, v

    def visit_Name(self, node):
        if node.id == self.i and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Constant(self.v), node)
        return node


def _constant_range(node, simplify) -> list | None:
    """The values of ``for i in range(...)`` loop ``node`` when its bounds are constants after
    ``simplify`` (``len`` of a tuple literal is one), at most 256 of them; else None."""
    it = getattr(node, "iter", None)
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(it, ast.Call) and
            isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3):
        return None
    bounds = [const_int(simplify(a)) for a in it.args]
    if any(b is None for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
        return None
    values = range(*bounds)
    return list(values) if len(values) <= 256 else None


def _len_as_one(e):
    """``e`` with ``len(name)`` read as the constant 1 (the bounds of a loop that may index a tuple
    by its counter; the count itself is known once the tuple is split)."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1 and \
            isinstance(e.args[0], ast.Name) and not e.keywords:
        return ast.Constant(1)
    return e


def _indexes_by(stmts, i: str, is_tuple) -> bool:
    """Whether ``stmts`` index a tuple (``is_tuple(value)``) with an expression reading ``i``."""
    return any(isinstance(n, ast.Subscript) and is_tuple(n.value) and i in loaded_names(n.slice)
               for s in stmts for n in iter_nodes(s))


def _own_jumps(s):
    """``break``/``continue`` statements of ``s`` that leave the loop ``s`` is in (not nested loops')."""
    if isinstance(s, (ast.Break, ast.Continue)):
        yield s
    elif isinstance(s, ast.If):
        for b in s.body + s.orelse:
            yield from _own_jumps(b)
    elif isinstance(s, (ast.With, ast.Try)):
        for b in getattr(s, "body", []):
            yield from _own_jumps(b)


class _Substitute(ast.NodeTransformer):
    def __init__(self, name: str, names: list[str], err):
        self.name, self.names, self.err = name, names, err

    def visit_Name(self, node):
        if node.id != self.name:
            return node
        if not isinstance(node.ctx, ast.Load):
            raise self.err(node, f"`{self.name}`, a tuple passed whole, assigned", "give the new value its own name")
        return _literal(self.names, node)


def split_tuple_param(fn: ast.FunctionDef, param: str, count: int, err) -> tuple[ast.FunctionDef, list[str]]:
    """A copy of ``fn`` whose parameter ``param`` (a tuple of ``count`` elements) is replaced by
    ``count`` parameters (``param_0`` ..., unique in ``fn``), and their names.  Raises what ``err``
    (``err(node, construct, hint)``) makes for uses of the tuple that cannot be split (see the
    module doc)."""
    taken = names_in(fn)
    names = []
    for k in range(count):
        n, j = f"{param}_{k}", 1
        while n in taken:
            j += 1
            n = f"{param}_{k}_{j}"
        taken.add(n)
        names.append(n)
    new = copy.deepcopy(fn)
    k = [a.arg for a in new.args.args].index(param)
    new.args.args[k:k + 1] = [ast.copy_location(ast.arg(arg=n), fn.args.args[k]) for n in names]
    sub, simp = _Substitute(param, names, err), _Simplify(err, f"`{param}`")
    new.body = [r for s in new.body for r in _as_list(simp.visit(sub.visit(s)))]
    return new, names


def _as_list(r):
    return r if isinstance(r, list) else [r]


def _read_parts(tree, passed=None, counters: bool = False) -> tuple[set, set]:
    """``(ok, whole)``: ids of the ``Name`` nodes in ``tree`` read as parts of a tuple (constant
    index or slice, ``len``, unpacking, ``for``, an index reading the counter of a loop whose
    bounds are constants or ``len`` of a name, :meth:`_Simplify.unroll`; only with ``counters``)
    or passed whole, as a positional argument, to a call that ``passed(call)`` accepts (``whole``
    holds those and the names indexed by a loop counter; None: any call by a plain name)."""
    ok, whole = set(), set()
    for n in iter_nodes(tree) if counters else ():
        if _constant_range(n, _len_as_one) is not None:
            lens = {a.args[0].id for a in n.iter.args if isinstance(a, ast.Call)}      # range(len(p))
            for s in n.body:
                for u in iter_nodes(s):
                    if isinstance(u, ast.Subscript) and isinstance(u.value, ast.Name) and \
                            isinstance(u.ctx, ast.Load) and n.target.id in loaded_names(u.slice) and \
                            lens <= {u.value.id}:
                        ok.add(id(u.value))
                        whole.add(id(u.value))
    for n in iter_nodes(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load) and \
                (const_int(n.slice) is not None or isinstance(n.slice, ast.Slice)):
            ok.add(id(n.value))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1:
            ok.add(id(n.args[0]))
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and \
                all(isinstance(t, (ast.Tuple, ast.List)) for t in n.targets):
            ok.add(id(n.value))
        elif isinstance(n, ast.For) and isinstance(n.iter, ast.Name):
            ok.add(id(n.iter))
        elif isinstance(n, ast.Call) and (passed(n) if passed else isinstance(n.func, ast.Name)):
            todo = list(n.args)
            while todo:                 # names and the names in tuple literals (split in turn)
                a = todo.pop()
                if isinstance(a, ast.Name):
                    ok.add(id(a))
                    whole.add(id(a))
                elif _is_literal(a):
                    todo += a.elts
    return ok, whole


def read_as_parts(fn: ast.FunctionDef, param: str) -> bool:
    """Does ``fn`` only read its parameter ``param`` as the parts of a tuple (see
    :func:`_read_parts`), never assigning it?  Then a list argument may be passed as a tuple."""
    ok, _ = _read_parts(fn)
    return all(isinstance(n.ctx, ast.Load) and id(n) in ok for n in iter_nodes(fn)
               if isinstance(n, ast.Name) and n.id == param)


def _tuple_names(tree, passed, lists: bool = False, counters: bool = False) -> dict:
    """Names bound once, to a tuple literal (``lists``: or a list literal), read only as its
    parts (:func:`_read_parts`) and passed whole to a call ``passed(call)`` accepts (``counters``:
    or indexed by a loop counter): name -> its binding."""
    kinds = (ast.Tuple, ast.List) if lists else ast.Tuple
    binds, stores, reads = {}, {}, {}
    for n in iter_nodes(tree):
        if isinstance(n, ast.Name):
            (stores if not isinstance(n.ctx, ast.Load) else reads).setdefault(n.id, []).append(n)
        elif isinstance(n, ast.arg):
            stores.setdefault(n.arg, []).append(n)
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, kinds) and not any(isinstance(x, ast.Starred) for x in n.value.elts):
            binds.setdefault(n.targets[0].id, []).append(n)
    ok, whole = _read_parts(tree, passed, counters)
    out = {}
    for name, b in binds.items():
        r = reads.get(name, [])
        if len(b) == 1 and len(stores.get(name, [])) == 1 and r and all(id(x) in ok for x in r) and \
                any(id(x) in whole for x in r):
            out[name] = b[0]
    return out


def split_tuple_names(tree: ast.FunctionDef, passed, fresh, err, lists: bool = False,
                      counters: bool = False) -> ast.FunctionDef:
    """``tree`` with each name :func:`_tuple_names` finds (``passed(call)``: a call that takes a
    tuple whole) split: ``pair = (a, f(b))`` is ``pair_0 = a; pair_1 = f(b)`` (``fresh(base)``
    makes the names) and its reads are reads of the literal ``(pair_0, pair_1)``, simplified.
    ``lists``: list literals too (passed whole as the tuple of their elements); ``counters``:
    also names indexed by the counter of a loop of constant bounds (kernels: ``p = (a, b, c)``
    then ``for i in range(len(p)): ... p[i] ...``, unrolled)."""
    kinds = (ast.Tuple, ast.List) if lists else ast.Tuple
    if not any(isinstance(n, ast.Assign) and isinstance(n.value, kinds) for n in iter_nodes(tree)):
        return tree
    found = _tuple_names(tree, passed, lists, counters)
    if not found:
        return tree
    tree = copy.deepcopy(tree)
    found = _tuple_names(tree, passed, lists, counters)
    for name, bind in found.items():
        names = [e.id if isinstance(e, ast.Name) and _unchanged(tree, bind, name, e.id) else fresh(f"{name}_{k}")
                 for k, e in enumerate(bind.value.elts)]
        bind.adtrans_split = [ast.copy_location(ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store())], value=e), bind)
                              for n, e in zip(names, bind.value.elts) if not (isinstance(e, ast.Name) and e.id == n)]
        sub, simp = _Substitute(name, names, err), _Simplify(err, f"`{name}`")
        for b in bind.adtrans_split:
            b.value = simp.visit(sub.visit(b.value))
        body = []
        for s in tree.body:
            for u in _as_list(_Unbind(bind).visit(s)):
                body += _as_list(simp.visit(sub.visit(u)))
        tree.body = body
    return tree


def _unchanged(tree, bind, name: str, elem: str) -> bool:
    """Does the name ``elem`` hold, wherever ``name`` (bound by ``bind``, ``name = (..., elem, ...)``)
    is read, the value it had at the binding?  Then the reads use ``elem`` itself (no second
    name for an array in a loop).  True where every read is in a statement after ``bind`` in its
    block and no statement between them stores ``elem`` (the last one may, after evaluating)."""
    for block in _blocks(tree):
        if any(s is bind for s in block):
            i = next(k for k, s in enumerate(block) if s is bind)
            break
    else:
        return False
    later = block[i + 1:]
    reading = [k for k, s in enumerate(later) if name in loaded_names(s)]
    total = sum(1 for n in iter_nodes(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
    inside = sum(1 for k in reading for n in iter_nodes(later[k]) if isinstance(n, ast.Name) and n.id == name
                 and isinstance(n.ctx, ast.Load))
    if not reading or inside != total:
        return False
    last = reading[-1]
    if any(elem in stored_names(s) for s in later[:last]):
        return False
    final = later[last]
    return not (elem in stored_names(final) and not isinstance(final, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)))


def _blocks(tree):
    """Every statement list under ``tree`` (bodies, ``orelse``s)."""
    for n in iter_nodes(tree):
        for f in ("body", "orelse", "finalbody"):
            v = getattr(n, f, None)
            if isinstance(v, list) and v and isinstance(v[0], ast.stmt):
                yield v


class _Unbind(ast.NodeTransformer):
    """Replaces the binding ``name = (e0, e1)`` by its element bindings (``adtrans_split``)."""

    def __init__(self, bind):
        self.bind = bind

    def visit_Assign(self, node):
        return self.bind.adtrans_split if node is self.bind else node


def split_tuple_calls(tree: ast.FunctionDef, helper_of, helper_primal, err) -> tuple[ast.FunctionDef, dict]:
    """``(tree, lifted)``: ``tree`` with each call of a helper (``helper_of(call)``: the helper or
    None; ``helper_primal(helper)``: its :class:`~adtrans.parse.Primal`) that passes a tuple literal
    as a positional argument rewritten to call a copy of the helper whose tuple parameter is split
    (:func:`split_tuple_param`); ``lifted``: the copies by the names the calls now use."""
    lifted: dict = {}
    made: dict = {}

    class Calls(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if not any(_is_literal(a) for a in node.args) or any(isinstance(a, ast.Starred) for a in node.args):
                return node
            lift = lifted.get(node.func.id) if isinstance(node.func, ast.Name) else None
            helper = lift or helper_of(node)
            if helper is None:
                return node
            hp = lift or helper_primal(helper)
            if hp.tree.args.vararg is not None:
                return node
            params = hp.params
            split = [(k, len(a.elts)) for k, a in enumerate(node.args) if _is_literal(a) and k < len(params)]
            key = (id(hp.tree), tuple(split))
            if key not in made:
                fn = hp.tree
                for k, n in reversed(split):
                    fn, _ = split_tuple_param(fn, params[k], n, hp.error)
                label = "__".join(f"{params[k]}{n}" for k, n in split)
                made[key] = f"{hp.name}__{label}"
                while made[key] in lifted:
                    made[key] += "_"
                lifted[made[key]] = dataclasses.replace(hp, tree=fn, pyfunc=None, dispatcher=None)
            args = []
            for k, a in enumerate(node.args):
                args += a.elts if any(k == j for j, _ in split) else [a]
            new = ast.copy_location(ast.Call(func=ast.copy_location(ast.Name(id=made[key], ctx=ast.Load()), node),
                                             args=args, keywords=node.keywords), node)
            return self.visit_Call(new)     # a tuple inside the tuple: split again

    if not any(isinstance(n, ast.Call) and any(_is_literal(a) for a in n.args) for n in iter_nodes(tree)):
        return tree, {}
    new = copy.deepcopy(tree)
    new.body = [Calls().visit(s) for s in new.body]
    if not lifted:
        return tree, {}
    return new, lifted


def tuple_params(primal, activity, argtypes) -> dict:
    """The parameters of ``primal`` that are tuples (Numba ``argtypes``) with activity ``"dup"``:
    name -> their element types."""
    return {p: tuple(t.types) for p, a, t in zip(primal.params, activity, argtypes)
            if isinstance(t, nbtypes.BaseTuple) and a.lower() == "dup"}


def split_tuples(primal, activity, argtypes, tuples: dict) -> RecordSplit:
    """``primal`` with each parameter of ``tuples`` (see :func:`tuple_params`) split into one
    parameter per element (:func:`split_tuple_param`): ``"dup"`` for float arrays (the shadow
    tuple holds their shadows at their positions), ``"active"`` for floats (their adjoints are
    returned in parameter order, as other ``"active"`` ones), ``"const"`` for the rest.  Returned
    as a :class:`~.records.RecordSplit` whose fields are the element positions, so the entry of
    :func:`~.records.entry_source` passes ``p[k]``.  Raises :class:`ActivityError` for a tuple
    without float elements or one with a tuple or list inside, and :class:`UnsupportedError`
    at the kernel's line for uses of the tuple that cannot be split."""
    tree = primal.tree

    def parts(p, a, t):
        nonlocal tree
        tree, names = split_tuple_param(tree, p, len(tuples[p]), primal.error)
        out = []
        for k, (n, et) in enumerate(zip(names, tuples[p])):
            if isinstance(et, (nbtypes.BaseTuple, nbtypes.List, nbtypes.ListType)):
                raise ActivityError(f"element {k} of the Duplicated tuple {p} of {primal.name} is {et}: "
                                    f"pass its elements in the outer tuple")
            out.append((k, n, "dup" if isinstance(et, nbtypes.Array) and isinstance(et.dtype, nbtypes.Float) else
                        "active" if isinstance(et, nbtypes.Float) else "const", et))
        if all(act == "const" for _, _, act, _ in out):
            raise ActivityError(f"the Duplicated tuple {p} of {primal.name} holds no float or float array: "
                                f"pass it as Const")
        return out
    _, acts, types, fields = split_params(primal, activity, argtypes, tuples, parts)
    ast.fix_missing_locations(tree)
    return RecordSplit(dataclasses.replace(primal, tree=tree), tuple(acts), tuple(types), fields)

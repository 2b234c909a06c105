"""Structured (record) array parameters: one plain array per field.

A kernel that reads a NumPy structured array (``params['k']``, ``params[i]['k']``,
``params[i].k``, ``p = params[i]; p['k']``) is differentiated as if each field
used were its own parameter: ``params['k']`` becomes the name ``params_k``, a
record local ``p = params[i]`` becomes one binding per field it is read through
(``p_k = params_k[i]``), and ``params.shape``/``len(params)`` read the first
field's.  The engine then sees only float and integer arrays; the pipeline
passes the field views (``params['k']``, strided) from an entry function with
the kernel's own parameters (see :func:`adtrans.pipeline.generate`).

Float fields of a ``Duplicated`` structured array are ``dup`` (the shadow is a
structured array of the same dtype, each field's adjoint lands in its field);
integer fields, and every field of a ``Const`` one, are constants.

Refused, with the line: fields that are themselves arrays or records, passing the
structured array (or a record) to a function, iterating over it (``for p in P``),
storing into a field through a record local (``p['k'] = v``: write
``P[i]['k'] = v``), and record locals of a structured array the kernel writes
(their fields are read at the binding, so a later store would be missed).
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, replace

from numba.core import types as nbtypes

from ..errors import UnsupportedError
from ..parse import Primal

_SHAPE_ATTRS = {"shape", "size", "ndim"}

#: form -> (status, note); rendered into docs/supported.md by scripts/supported_table.py
RECORD_TABLE = {
    "`P['f']` (a field as an array)": ("differentiated", "float fields of a Duplicated P; integer fields constant"),
    "`P[i]['f']`, `P[i].f`, `P['f'][i]`": ("differentiated", "reads and stores"),
    "`p = P[i]`, then `p['f']` / `p.f`": ("differentiated", "a record local: its fields read at the binding"),
    "`P.shape`, `len(P)`": ("constant", "the first field's"),
    "`for p in P`": ("refused", "index it: `for i in range(len(P)): p = P[i]`"),
    "a record or `P` passed to a function": ("refused", "pass its fields"),
    "`p['f'] = v` through a record local": ("refused", "write `P[i]['f'] = v`"),
    "a record local of a `P` the kernel writes": ("refused", "read `P[i]['f']` directly"),
    "fields that are arrays or records": ("refused", "pass that field as its own array"),
    "in `@cuda.jit` kernels, second order": ("refused", "pass each field as its own array"),
    "in plain-Python drivers": ("differentiated", "field views and rows of a structured argument"),
}


@dataclass
class RecordSplit:
    """The kernel with its structured parameters split into field parameters.

    ``primal``: the rewritten kernel; ``activity``/``argtypes``: per parameter of it;
    ``fields``: original parameter -> ``[(field, parameter name), ...]`` in dtype order.
    """
    primal: Primal
    activity: tuple
    argtypes: tuple
    fields: dict


def record_params(primal: Primal, argtypes) -> dict:
    """Parameter -> Numba ``Record`` dtype for each structured-array parameter."""
    return {p: t.dtype for p, t in zip(primal.params, argtypes)
            if isinstance(t, nbtypes.Array) and isinstance(t.dtype, nbtypes.Record)}


def split_records(primal: Primal, activity, argtypes, records: dict) -> RecordSplit:
    """Rewrite ``primal`` so that each parameter in ``records`` (see :func:`record_params`)
    becomes one array parameter per field it reads.  Raises :class:`UnsupportedError` at
    the user's line for the forms listed in the module docstring."""
    tree = copy.deepcopy(primal.tree)
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(primal.params)
    rw = _Rewriter(primal, records, taken)
    tree.body = rw.body(tree.body)

    def parts(p, a, t):
        rec = records[p]
        used = [f for f in rec.fields if f in rw.used[p]] or [next(iter(rec.fields))]
        return [(f, rw.field_names[p].get(f) or rw.name_for(p, f),
                 a.lower() if a.lower() == "dup" and isinstance(rec.typeof(f), nbtypes.Float) else "const",
                 nbtypes.Array(rec.typeof(f), t.ndim, "A")) for f in used]
    params, acts, types, fields = split_params(primal, activity, argtypes, records, parts)
    tree.args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[],
                              kw_defaults=[], defaults=_defaults(tree.args, len(params)))
    ast.fix_missing_locations(tree)
    return RecordSplit(replace(primal, tree=tree), tuple(acts), tuple(types), fields)


def split_params(primal: Primal, activity, argtypes, which, parts) -> tuple[list, list, list, dict]:
    """The parameters of ``primal`` with each one in ``which`` replaced by its parts:
    ``parts(p, activity, argtype)`` -> ``[(field, name, activity, argtype), ...]`` (a record's
    fields, a tuple's elements).  Returns ``(names, activities, argtypes, fields)``, ``fields``:
    parameter of ``which`` -> ``[(field, name), ...]`` (:attr:`RecordSplit.fields`).  Raises
    what ``parts`` raises."""
    params, acts, types, fields = [], [], [], {}
    for p, a, t in zip(primal.params, activity, argtypes):
        split = parts(p, a, t) if p in which else [(None, p, a, t)]
        if p in which:
            fields[p] = [(f, name) for f, name, _, _ in split]
        for _, name, act, ty in split:
            params.append(name)
            acts.append(act)
            types.append(ty)
    return params, acts, types, fields


def _defaults(args: ast.arguments, n: int) -> list:
    return list(args.defaults) if len(args.defaults) <= n else []


class _Rewriter:
    """Field accesses of structured parameters (and their record locals) -> field names."""

    def __init__(self, primal, records, taken):
        self.primal, self.records, self.taken = primal, records, taken
        self.used = {p: set() for p in records}                # parameter -> fields read
        self.field_names = {p: {} for p in records}            # parameter -> field -> name
        self.locals: dict = {}                                 # record local -> its parameter
        self.local_fields: dict = {}                           # (local, field) -> name

    def err(self, node, construct, hint):
        return self.primal.error(node, construct, hint)

    def name_for(self, base: str, f: str) -> str:
        name, k = f"{base}_{f}", 1
        while name in self.taken:
            k += 1
            name = f"{base}_{f}{k}"
        self.taken.add(name)
        return name

    def field_param(self, p, f, node) -> str:
        rec = self.records[p]
        if f not in rec.fields:
            raise self.err(node, f"field {f!r} of {p}", f"{p} has fields {', '.join(rec.fields)}")
        if not isinstance(rec.typeof(f), (nbtypes.Float, nbtypes.Integer, nbtypes.Boolean)):
            raise self.err(node, f"field {f!r} of {p} ({rec.typeof(f)})",
                           "structured fields that are arrays or records: pass that field as its own array")
        self.used[p].add(f)
        if f not in self.field_names[p]:
            self.field_names[p][f] = self.name_for(p, f)
        return self.field_names[p][f]

    def local_field(self, local, f, node) -> str:
        p = self.locals[local]
        self.field_param(p, f, node)
        key = (local, f)
        if key not in self.local_fields:
            self.local_fields[key] = self.name_for(local, f)
        return self.local_fields[key]

    # ---- statements ------------------------------------------------------------------
    def body(self, stmts: list) -> list:
        self._find_locals(stmts)
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def _find_locals(self, stmts):
        """Names bound to a row of a structured parameter (``p = P[i]``), anywhere in ``stmts``."""
        for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and self._row_of(node.value):
                self.locals[node.targets[0].id] = self._row_of(node.value)

    def _row_of(self, e):
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in self.records \
                and not _is_field_key(e.slice):
            return e.value.id
        return None

    def _written(self, p) -> bool:
        for node in ast.walk(self.primal.tree):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
                base = node.value
                while isinstance(base, (ast.Subscript, ast.Attribute)):
                    base = base.value
                if isinstance(base, ast.Name) and base.id == p:
                    return True
        return False

    def stmt(self, s) -> list:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id in self.locals and self._row_of(s.value):
            local, p = s.targets[0].id, self._row_of(s.value)
            if self._written(p):        # its fields are read at the binding: a later store would be missed
                raise self.err(s, f"the record {local} of {p}, which the kernel also writes",
                               f"read the fields directly: {p}[i]['field']")
            idx = self.expr(s.value.slice)
            fields = sorted({f for (loc, f) in self._fields_read(local)}, key=list(self.records[p].fields).index)
            return [ast.copy_location(ast.Assign(
                targets=[ast.Name(id=self.local_field(local, f, s), ctx=ast.Store())],
                value=ast.Subscript(value=ast.Name(id=self.field_param(p, f, s), ctx=ast.Load()),
                                    slice=copy.deepcopy(idx), ctx=ast.Load())), s) for f in fields]
        if isinstance(s, ast.For) and isinstance(s.iter, ast.Name) and \
                (s.iter.id in self.records or s.iter.id in self.locals):
            raise self.err(s, f"iterating over the structured array {s.iter.id}",
                           f"index it: for i in range(len({s.iter.id})): p = {s.iter.id}[i]")
        for t in _targets(s):
            self._check_store(t)
        for name, value in ast.iter_fields(s):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                new = []
                for x in value:
                    new.extend(self.stmt(x))
                setattr(s, name, new)
            elif isinstance(value, list):
                setattr(s, name, [self.expr(x) if isinstance(x, ast.expr) else x for x in value])
            elif isinstance(value, ast.expr):
                setattr(s, name, self.expr(value))
        return [s]

    def _fields_read(self, local):
        out = set()
        for node in ast.walk(self.primal.tree):
            f = _field_of(node, local)
            if f is not None:
                out.add((local, f))
        return out

    def _check_store(self, t):
        for node in ast.walk(t):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
                base = node.value
                while isinstance(base, ast.Subscript):
                    base = base.value
                if isinstance(base, ast.Name) and base.id in self.locals:
                    p = self.locals[base.id]
                    raise self.err(node, f"storing into the record {base.id} (a row of {p})",
                                   f"write the field of the array: {p}[i]['field'] = value")

    # ---- expressions -----------------------------------------------------------------
    def expr(self, e):
        if e is None:
            return None
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and _is_field_key(e.slice):
            name = e.value.id
            if name in self.records:        # P['f']
                return ast.copy_location(ast.Name(id=self.field_param(name, e.slice.value, e), ctx=e.ctx), e)
            if name in self.locals:         # p['f']
                return ast.copy_location(ast.Name(id=self.local_field(name, e.slice.value, e), ctx=e.ctx), e)
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in self.locals \
                and e.attr in self.records[self.locals[e.value.id]].fields:     # p.f
            return ast.copy_location(ast.Name(id=self.local_field(e.value.id, e.attr, e), ctx=e.ctx), e)
        if isinstance(e, (ast.Subscript, ast.Attribute)):
            inner, f = _row_field(e)
            if inner is not None and inner.value.id in self.records:       # P[i]['f'], P[i].f
                p = inner.value.id
                return ast.copy_location(ast.Subscript(
                    value=ast.Name(id=self.field_param(p, f, e), ctx=ast.Load()),
                    slice=self.expr(inner.slice), ctx=e.ctx), e)
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in self.records \
                and e.attr in _SHAPE_ATTRS:
            return ast.copy_location(ast.Attribute(value=self._first_field(e.value.id, e), attr=e.attr,
                                                   ctx=e.ctx), e)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1 \
                and isinstance(e.args[0], ast.Name) and e.args[0].id in self.records:
            return ast.copy_location(ast.Call(func=e.func, args=[self._first_field(e.args[0].id, e)],
                                              keywords=[]), e)
        if isinstance(e, ast.Name) and (e.id in self.records or e.id in self.locals):
            what = "structured array" if e.id in self.records else "record"
            raise self.err(e, f"the {what} {e.id} used as a value",
                           f"read its fields ({e.id}['field']) and pass those to functions")
        for name, value in ast.iter_fields(e):
            if isinstance(value, list):
                setattr(e, name, [self.expr(x) if isinstance(x, ast.expr) else
                                  self._keyword(x) if isinstance(x, ast.keyword) else
                                  self._comp(x) if isinstance(x, ast.comprehension) else x for x in value])
            elif isinstance(value, ast.expr):
                setattr(e, name, self.expr(value))
        return e

    def _keyword(self, k):
        k.value = self.expr(k.value)
        return k

    def _comp(self, c):
        c.iter, c.ifs = self.expr(c.iter), [self.expr(x) for x in c.ifs]
        return c

    def _first_field(self, p, node):
        used = sorted(self.used[p], key=list(self.records[p].fields).index)
        f = used[0] if used else next(iter(self.records[p].fields))
        return ast.Name(id=self.field_param(p, f, node), ctx=ast.Load())


def _is_field_key(s) -> bool:
    return isinstance(s, ast.Constant) and isinstance(s.value, str)


def _field_of(node, local):
    """``f`` when ``node`` is ``local['f']`` or ``local.f``."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == local \
            and _is_field_key(node.slice):
        return node.slice.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == local:
        return node.attr
    return None


def _row_field(e):
    """``(P[i], 'f')`` when ``e`` is ``P[i]['f']`` or ``P[i].f`` (``P`` a name), else ``(None, None)``."""
    if isinstance(e, ast.Subscript) and _is_field_key(e.slice):
        inner, f = e.value, e.slice.value
    elif isinstance(e, ast.Attribute):
        inner, f = e.value, e.attr
    else:
        return None, None
    if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) and not _is_field_key(inner.slice):
        return inner, f
    return None, None


def _targets(s) -> list:
    if isinstance(s, ast.Assign):
        return list(s.targets)
    if isinstance(s, (ast.AugAssign, ast.AnnAssign)):
        return [s.target]
    return []


def entry_source(name: str, inner: str, inner_args: list, fields: dict, shadows: dict, decorator: str,
                 comment: str = "the structured arrays' fields, one array each (adtrans.normalise.records)",
                 unused=None) -> str:
    """The entry function: the kernel's own parameters (structured arrays whole), calling the
    adjoint ``inner`` with one field view per split parameter.  ``inner_args``: the inner
    adjoint's parameters in order; ``fields``: structured parameter -> ``[(field, name)]``
    (a field name, or an element position of a tuple parameter); ``shadows``: inner shadow name
    -> (structured shadow name, field); ``comment``: the entry's one comment line; ``unused``:
    split parameter -> the name of its shadow the entry takes but passes on to nothing."""
    by_name = {n: (p, f) for p, fs in fields.items() for f, n in fs}
    params, call, seen = [], [], set()
    for a in inner_args:
        if a in by_name or a in shadows:
            p, f = by_name[a] if a in by_name else shadows[a]
            if p not in seen:
                seen.add(p)
                params.append(p)
                if p in (unused or {}):
                    params.append(unused[p])
            call.append(f"{p}[{f!r}]")
        else:
            params.append(a)
            call.append(a)
    lines = [f"@{decorator}"] if decorator else []
    lines += [f"def {name}({', '.join(params)}):",
              f"    # {comment}",
              f"    return {inner}({', '.join(call)})"]
    return "\n".join(lines) + "\n"


__all__ = ["RECORD_TABLE", "RecordSplit", "record_params", "split_records", "entry_source", "UnsupportedError"]

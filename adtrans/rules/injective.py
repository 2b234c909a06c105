"""A run-time test that a prange adjoint's scatter index is one-to-one across iterations.

Where index analysis cannot prove that no two iterations of a ``prange`` adjoint add into the
same element of a shadow (``d_f[k, j] += ...`` with ``k = cornerElem[c]``, ``j =
cornerLocal[c]`` in a loop over a node's corners), :mod:`.parallel` gives every thread but the
first its own copy of the shadow and adds the copies up after the loop.  When the index arrays
are in fact one-to-one (every corner belongs to one node) the copies are wasted work.  This
module writes, from the loop's body, the **index slice**: the integer statements (loads of
integer arrays the loop does not write, integer arithmetic, ``range`` loops and ``if`` tests
made of them) that compute the indices of the updates, and a serial loop that runs the slice
over every iteration, marking each element it would update with the iteration that updates it
(``owner``, filled with -1).  The test fails, and the copies are used, as soon as an element is
marked by a second iteration or an index is outside the shadow's extents (a negative index
that would count from the end included).  It runs only with more than one thread, before the
loop, on the values the loop reads: the same indices as the loop's updates, so when it passes
no two iterations touch one element and every thread adds into the shadow itself.

Anything the slice cannot reproduce exactly (a float or a call in an index or in a test
enclosing an update, ``while`` loops, jumps, an index array the loop writes, a name assigned
twice) leaves the loop as it was: per-thread copies, no test.
"""
from __future__ import annotations

import ast
import copy

from ..analyse.types import is_array, scalar_dtype_name
from ..ir.walk import iter_nodes

_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_CALLS = {"min", "max", "len", "abs"}


class _NoSlice(Exception):
    pass


def _assigned(body) -> dict:
    """name -> number of ``Assign``/``AugAssign`` bindings in ``body`` (nested blocks too)."""
    out: dict = {}
    for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            for n in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                if isinstance(n, ast.Name):
                    out[n.id] = out.get(n.id, 0) + 1
                elif isinstance(n, ast.Starred):
                    out[ast.unparse(n)] = 2
    return out


def _stored_arrays(body) -> set:
    """Names of arrays stored into (``a[i] = v``, ``a[i] += v``) anywhere in ``body``."""
    out = set()
    for node in iter_nodes(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                    out.add(t.value.id)
    return out


def _is_int(ty) -> bool:
    return ty is not None and not is_array(ty) and scalar_dtype_name(ty).startswith(("int", "uint", "bool"))


def _int_array(ty) -> bool:
    return is_array(ty) and scalar_dtype_name(ty.dtype).startswith(("int", "uint"))


class IndexSlice:
    """The index slice of one prange loop body for the updates of a set of shadows (see the
    module doc).  ``types``: the kernel's Numba types by name; ``loop_var``: the prange index."""

    def __init__(self, body, loop_var: str, types: dict):
        self.body, self.i, self.types = body, loop_var, types
        self.assigned = _assigned(body)
        self.stored = _stored_arrays(body)
        self.for_targets = {n.target.id for n in iter_nodes(ast.Module(body=body, type_ignores=[]))
                            if isinstance(n, ast.For) and isinstance(n.target, ast.Name)}

    # -- expressions --------------------------------------------------------------------------
    def names_of(self, e) -> set:
        """Scalar names ``e`` reads; raises ``_NoSlice`` unless ``e`` is integer code the slice
        can run (integer names and constants, + - * // %, comparisons, loads of integer arrays
        the loop does not write, ``.shape[k]``, ``min``/``max``/``len``/``abs``)."""
        out = set()

        def visit(n):
            if isinstance(n, ast.Constant):
                if not isinstance(n.value, (int, bool)):
                    raise _NoSlice
            elif isinstance(n, ast.Name):
                if n.id != self.i and not _is_int(self.types.get(n.id)):
                    raise _NoSlice
                out.add(n.id)
            elif isinstance(n, ast.BinOp) and isinstance(n.op, _OPS):
                visit(n.left)
                visit(n.right)
            elif isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.Not)):
                visit(n.operand)
            elif isinstance(n, ast.Tuple):
                for v in n.elts:
                    visit(v)
            elif isinstance(n, ast.BoolOp):
                for v in n.values:
                    visit(v)
            elif isinstance(n, ast.Compare):
                visit(n.left)
                for v in n.comparators:
                    visit(v)
            elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
                a = n.value.id
                if not _int_array(self.types.get(a)) or a in self.stored or a in self.assigned:
                    raise _NoSlice
                for k in (n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]):
                    visit(k)
            elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and \
                    n.value.attr == "shape" and isinstance(n.value.value, ast.Name) and \
                    is_array(self.types.get(n.value.value.id)) and isinstance(n.slice, ast.Constant):
                if n.value.value.id in self.assigned:
                    raise _NoSlice
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _CALLS \
                    and not n.keywords:
                for v in n.args:
                    visit(v)
            else:
                raise _NoSlice
        visit(e)
        return out

    # -- statements ---------------------------------------------------------------------------
    def _targets(self, s, shadows) -> list:
        """The subscripts of ``s``'s updates of ``shadows`` (``d[idx] += v``); [] if none."""
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Subscript) and \
                isinstance(s.target.value, ast.Name) and s.target.value.id in shadows:
            return [s.target.slice]
        return []

    def _mentions(self, s, shadows, needed) -> bool:
        for n in iter_nodes(s):
            if isinstance(n, ast.Name) and (n.id in shadows or (n.id in needed and isinstance(n.ctx, ast.Store))):
                return True
        return False

    def needed(self, shadows) -> set:
        """Names the indices of the updates of ``shadows`` depend on (fixed point)."""
        need: set = set()
        while True:
            before = set(need)
            self._collect(self.body, shadows, need)
            if need == before:
                return need

    def _collect(self, stmts, shadows, need):
        for s in stmts:
            for idx in self._targets(s, shadows):
                need |= self.names_of(idx)
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and s.targets[0].id in need:
                need |= self.names_of(s.value)
            elif isinstance(s, (ast.For, ast.If)) and self._mentions(s, shadows, need):
                if isinstance(s, ast.For):
                    need |= self._range_names(s)
                else:
                    need |= self.names_of(s.test)
                self._collect(s.body, shadows, need)
                self._collect(s.orelse, shadows, need)

    def _range_names(self, s) -> set:
        it = s.iter
        if not (isinstance(s.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and not it.keywords and not s.orelse):
            raise _NoSlice
        out = set()
        for a in it.args:
            out |= self.names_of(a)
        return out

    def emit(self, stmts, shadows, need, mark, defined=None) -> list:
        """The slice of ``stmts``: kept definitions, loops and tests, each update replaced by
        ``mark(subscript)``.  ``defined``: names of the body bound so far on every path (a name
        of the body read before that, from an earlier iteration, stops the slice)."""
        defined = {self.i} if defined is None else defined
        local = set(self.assigned) | self.for_targets | {self.i}

        def uses(e):
            if (self.names_of(e) & local) - defined:
                raise _NoSlice
        out = []
        for s in stmts:
            targets = self._targets(s, shadows)
            if targets:
                uses(targets[0])
                out += mark(targets[0])
            elif isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and s.targets[0].id in need:
                x = s.targets[0].id
                if self.assigned.get(x, 0) != 1 or x in self.for_targets or not _is_int(self.types.get(x)):
                    raise _NoSlice
                uses(s.value)
                out.append(copy.deepcopy(s))
                defined = defined | {x}
            elif isinstance(s, ast.For) and self._mentions(s, shadows, need):
                self._range_names(s)
                for a in s.iter.args:
                    uses(a)
                if s.target.id in self.assigned:
                    raise _NoSlice
                inner = self.emit(s.body, shadows, need, mark, defined | {s.target.id})
                if inner:
                    out.append(ast.For(target=copy.deepcopy(s.target), iter=copy.deepcopy(s.iter), body=inner,
                                       orelse=[], type_comment=None))
            elif isinstance(s, ast.If) and self._mentions(s, shadows, need):
                uses(s.test)
                yes = self.emit(s.body, shadows, need, mark, defined)
                no = self.emit(s.orelse, shadows, need, mark, defined)
                if yes or no:
                    out.append(ast.If(test=copy.deepcopy(s.test), body=yes or [ast.Pass()], orelse=no))
            elif self._mentions(s, shadows, need):
                raise _NoSlice
        return out


def _rename(stmts, mapping):
    for s in stmts:
        for n in iter_nodes(s):
            if isinstance(n, ast.Name) and n.id in mapping:
                n.id = mapping[n.id]
    return stmts


def _canonical_key(inner, local_ids) -> str:
    """The slice's source with its own names (the loop index, inner loop counters, index
    temporaries) renamed in order of first appearance: two slices that differ only in the
    names inlining gave their temporaries (LULESH's six ``gather8`` calls, one per coordinate
    and velocity array, each loading ``nodelist[k, c]`` into fresh names) get one key, so one
    run-time test serves all the shadows they update."""
    stmts = copy.deepcopy(inner)
    canon: dict = {}
    for s in stmts:
        for n in iter_nodes(s):
            if isinstance(n, ast.Name) and n.id in local_ids:
                n.id = canon.setdefault(n.id, f"_v{len(canon)}")
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=stmts, type_ignores=[])))


def index_slice(body, loop: ast.For, types: dict):
    """The :class:`IndexSlice` of the prange ``loop`` whose body is ``body``, for
    :func:`injectivity_check`; None where no slice can be written for any shadow (a jump or a
    ``while`` in the body).  Built once per loop, it serves the checks of all its shadows: what it
    records of the body (names assigned, arrays stored into, loop counters) does not change when
    a shadow's updates are redirected (``d[k] += v`` -> ``d_here[k] += v``: a float array's
    store, which never decides a slice)."""
    if any(isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.While))
           for n in iter_nodes(ast.Module(body=body, type_ignores=[]))):
        return None
    return IndexSlice(body, loop.target.id, types)


def injectivity_check(body, loop: ast.For, shadow: str, ndim: int, types: dict, alloc, sl=None):
    """``(source key, statements)`` of the run-time test for the updates of ``shadow`` (an
    ``ndim``-dimensional array) in the prange ``loop`` whose body is ``body``, with the names
    ``OK`` (the result, a bool) and ``OWNER`` (the marks) still to be replaced (see
    :func:`bind`); None where the slice cannot be written.  The statements run serially and
    leave ``OK`` True only if no element of ``shadow`` is updated by two iterations and every
    index is within its extents.  ``sl``: the loop's :func:`index_slice`, built once for all its
    shadows (default: built here)."""
    i = loop.target.id
    if sl is None:
        sl = index_slice(body, loop, types)
    if sl is None:
        return None
    try:
        need = sl.needed({shadow})
        if i in sl.assigned or i not in need:
            # an index that does not depend on the iteration (a table every iteration reads) is
            # the same in all of them: never one-to-one over two or more
            raise _NoSlice

        def mark(idx):
            parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
            if len(parts) != ndim:
                raise _NoSlice
            at = ", ".join(ast.unparse(p) for p in parts)
            tests = []
            for k, p in enumerate(parts):
                if isinstance(p, ast.Constant) and p.value < 0:
                    raise _NoSlice
                if not isinstance(p, ast.Constant):
                    tests.append(f"{ast.unparse(p)} < 0")
                tests.append(f"{ast.unparse(p)} >= OWNER.shape[{k}]")
            bounds = " or ".join(tests)
            return ast.parse(f"if OK:\n    if {bounds}:\n        OK = False\n"
                             f"    elif OWNER[{at}] != -1 and OWNER[{at}] != {i}:\n        OK = False\n"
                             f"    else:\n        OWNER[{at}] = {i}").body
        inner = sl.emit(body, {shadow}, need, mark)
    except _NoSlice:
        return None
    if not inner:
        return None
    it = loop.iter
    if not (isinstance(it, ast.Call) and 1 <= len(it.args) <= 3 and not it.keywords):
        return None
    local_ids = {n.id for s in inner for n in iter_nodes(s) if isinstance(n, ast.Name)
                 and (n.id == i or n.id in sl.for_targets or n.id in sl.assigned) and n.id not in ("OK", "OWNER")}
    key = _canonical_key(inner, local_ids) + "|" + ast.unparse(it) + f"|{ndim}"
    local = sorted(local_ids)
    mapping = {x: alloc.fresh(x + "_check") for x in local}
    bounds = ", ".join(ast.unparse(a) for a in it.args)
    head = ast.parse(f"for {i} in range({bounds}):\n    if not OK:\n        break").body[0]
    head.body += inner
    return key, _rename([head], mapping)


def bind(stmts, ok: str, owner: str):
    """``stmts`` of :func:`injectivity_check` with its placeholders named ``ok`` and ``owner``."""
    return _rename(copy.deepcopy(stmts), {"OK": ok, "OWNER": owner})

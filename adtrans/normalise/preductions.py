"""``max``/``min``/product reductions in ``prange`` loops (issue 13), as Numba runs them:

    m = -1e300                               m = -1e300
    for i in prange(n):                      m_parts = np.full(n, m)
        v = ...                      ->      for i in prange(n):
        m = max(m, v)                            v = ...
                                                 m_parts[i] = max(m_parts[i], v)
                                             for m_k in range(n):
                                                 m = max(m, m_parts[m_k])

Each iteration reduces into its own slot (started at ``m``: ``max``/``min`` are idempotent; a
product's slots start at 1.0), so the iterations are independent and the prange rule applies; the
slots are combined in iteration order after the loop, a serial loop whose ties go where the serial
loop's would (``max(a, b)`` keeps ``a`` when they are equal).  ``p *= f`` and ``p = p * f`` are
products.  A name qualifies when every statement of the body that binds it is such an update of
one kind and nothing else there reads it.

Whole-array reductions of an array the kernel allocates before the loop (``acc = np.ones(m)``,
its number of dimensions known) are rewritten the same way with one row of slots per iteration:
``acc *= f`` / ``acc = acc * f`` (slots ``np.ones((n, m))``, combined ``acc *= acc_parts[k]``) and
``acc = np.maximum(acc, v)`` / ``np.minimum`` (slots started at ``acc``, combined
``acc = np.maximum(acc, acc_parts[k])``); ``acc[i]`` of a slot row is then written by iteration
``i`` only (a plain update for the prange rule).  Memory: ``n`` copies of ``acc``.  Whole-array
sums ``acc += v`` / ``acc -= v`` are left as they are (their adjoint only reads ``d_acc``).  A
whole-array product or ``np.maximum``/``np.minimum`` update that does not qualify (the array read
elsewhere in the body, updated two ways) is refused with its line.  Runs on the kernel's ``FunctionDef`` after
:mod:`.forms` (every loop a ``range``/``prange`` loop), before jump lowering (a ``continue``
before the update leaves the slot at its start).
"""
from __future__ import annotations

import ast
import copy

from ..ir.nodes import name as _name
from ..ir.walk import iter_nodes, loaded_names as _loads, stored_names as _stores

_SELECT = ("builtins.max", "builtins.min", "max", "min")
_ARRAY_SELECT = {"numpy.maximum": "max", "numpy.minimum": "min"}      # (of arrays only)
_AUG = {"prod": ast.Mult, "sum": ast.Add, "diff": ast.Sub}
ARRAY_REDUCTION_HINT = ("update the array only by `acc *= f`, `acc = np.maximum(acc, v)` or `acc = np.minimum(acc, v)` "
                        "in the loop and read it after the loop, or give each iteration its own row "
                        "(`parts[i] = f`) and combine the rows after the loop")
_ARRAY_MAKERS = {"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "copy",
                 "array", "arange", "linspace", "ascontiguousarray"}


class PrangeReductions:
    """Rewrites the ``prange`` loops of one kernel (see the module docstring).  ``forms``: the
    :class:`~.forms.FormLowering` of the kernel (``canon``, ``np_attr``, its normaliser's
    ``fresh``)."""

    def __init__(self, forms):
        self.forms = forms

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        self.local_arrays = {s.targets[0].id for s in iter_nodes(tree) if isinstance(s, ast.Assign)
                             and isinstance(s.targets[0], ast.Name) and self.makes_array(s.value)}
        tree.body = self.block(tree.body)
        return tree

    def makes_array(self, v) -> bool:
        """Whether ``v`` is an array allocation or copy (``np.zeros(n)``, ``x.copy()``): a name
        bound to one is an array, whose ``a *= f`` in a prange is Numba's whole-array reduction."""
        if not isinstance(v, ast.Call):
            return False
        if isinstance(v.func, ast.Attribute) and v.func.attr == "copy":
            return True
        canon = self.forms.canon(v.func) or ""
        return canon.startswith("numpy.") and canon.split(".")[-1] in _ARRAY_MAKERS

    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            for field in ("body", "orelse"):
                if isinstance(getattr(s, field, None), list) and not isinstance(s, ast.FunctionDef):
                    setattr(s, field, self.block(getattr(s, field)))
            out += self.loop(s) if self.is_prange(s) else [s]
        return out

    def is_prange(self, s) -> bool:
        if not (isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and isinstance(s.target, ast.Name)
                and len(s.iter.args) in (1, 2) and not s.iter.keywords):
            return False
        nz = self.forms.nz
        dotted = nz.resolver.dotted(s.iter.func)
        return dotted is not None and nz.loop_kind(dotted) == "numba.prange"

    # ------------------------------------------------------------ recognition
    def site_kind(self, s):
        """``(name, kind, first)`` of a reduction update ``s``: kind ``"max"``, ``"min"`` or
        ``"prod"``, for arrays also ``"sum"`` (``+=``) and ``"diff"`` (``-=``); ``first``: whether
        the name is the first operand (else None)."""
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and \
                isinstance(s.op, (ast.Mult, ast.Add, ast.Sub)) and s.target.id in self.array_names() and \
                s.target.id in _loads(s.value):
            return s.target.id, "self", True        # `acc *= f(acc)` of an array: not a reduction
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and isinstance(s.op, ast.Mult):
            return s.target.id, "prod", True
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and isinstance(s.op, (ast.Add, ast.Sub)) \
                and s.target.id in self.array_names():
            return s.target.id, "sum" if isinstance(s.op, ast.Add) else "diff", True
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            return None
        x, v = s.targets[0].id, s.value
        if isinstance(v, ast.BinOp) and isinstance(v.op, (ast.Add, ast.Sub)) and x in self.array_names() and \
                isinstance(v.left, ast.Name) and v.left.id == x and x not in _loads(v.right):
            return x, "sum" if isinstance(v.op, ast.Add) else "diff", True
        if isinstance(v, ast.Call) and not v.keywords and len(v.args) == 2 and self.forms.canon(v.func) in _SELECT:
            kind = self.forms.canon(v.func).split(".")[-1]
            a, b = v.args
        elif isinstance(v, ast.Call) and not v.keywords and len(v.args) == 2 and \
                self.forms.canon(v.func) in _ARRAY_SELECT and x in self.array_names():
            kind = _ARRAY_SELECT[self.forms.canon(v.func)]
            a, b = v.args
        elif isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult):
            kind, a, b = "prod", v.left, v.right
        else:
            return None
        if isinstance(a, ast.Name) and a.id == x and x not in _loads(b):
            return x, kind, True
        if isinstance(b, ast.Name) and b.id == x and x not in _loads(a):
            return x, kind, False
        return None

    def array_names(self) -> set:
        """Names of arrays: parameters and locals of a known number of dimensions, allocations."""
        return set(self.forms.nz.ndims) | self.local_arrays

    def reductions(self, loop) -> dict:
        """name -> kind of the reductions of ``loop`` this module rewrites: every statement of
        the body binding the name is an update of one kind, and no other statement reads it.
        Arrays (see the module docstring) qualify when the kernel allocates them (their number of
        dimensions known); one updated otherwise is refused at its update."""
        stmts = [s for s in iter_nodes(ast.Module(body=list(loop.body), type_ignores=[])) if isinstance(s, ast.stmt)]
        sites, stored, read, selfs = {}, set(), set(), {}
        for s in stmts:
            hit = self.site_kind(s)
            if hit is not None and hit[1] == "self":      # (reads the array: refused below)
                selfs.setdefault(hit[0], s)
                read |= _loads(s.value)
                continue
            if hit is not None:
                sites.setdefault(hit[0], set()).add(hit[1])
                continue
            heads = _heads(s) if isinstance(s, (ast.For, ast.While, ast.If, ast.With)) else [s]
            for h in heads:
                read |= _loads(h)
                stored |= _stores(h)
        arrays = self.array_names()
        for x, s in sorted(selfs.items()):
            if x not in stored and x not in sites:
                raise self.forms.nz.err(s, f"a whole-array reduction of `{x}` in a prange loop, `{x}` also read "
                                           f"otherwise in the loop body", ARRAY_REDUCTION_HINT)
        out = {}
        for x, kinds in sorted(sites.items()):
            if x == loop.target.id:
                continue
            if x in arrays:
                if x in stored:         # an array of the iteration's own (bound in the body)
                    continue
                kinds = {"sum" if k == "diff" else k for k in kinds}
                ndim = self.forms.nz.ndims.get(x)
                if len(kinds) != 1 or x in read or ndim is None:
                    site = next(s for s in stmts if (self.site_kind(s) or (None,))[0] == x)
                    why = ("also read otherwise in the loop body" if x in read else
                           "updated in two ways" if len(kinds) != 1 else "of a number of dimensions not known here")
                    raise self.forms.nz.err(site, f"a whole-array reduction of `{x}` in a prange loop, `{x}` "
                                                  f"{why}", ARRAY_REDUCTION_HINT)
                out[x] = (kinds.pop(), ndim)
            elif len(kinds) == 1 and x not in stored | read:
                out[x] = (kinds.pop(), None)
        return out

    # ------------------------------------------------------------ rewrite
    def loop(self, loop) -> list:
        red = self.reductions(loop)
        args = loop.iter.args
        lo = None if len(args) == 1 else args[0]
        if not red or (lo is not None and (_stores(ast.Module(body=list(loop.body), type_ignores=[]))
                                           & _loads(lo) or any(isinstance(n, ast.Call)
                                                                for n in iter_nodes(lo)))):
            return [loop]
        if lo is None:
            count, slot = copy.deepcopy(args[0]), _name(loop.target.id)
        else:
            count = ast.Call(func=_name("max"), args=[ast.BinOp(left=copy.deepcopy(args[1]), op=ast.Sub(),
                                                                right=copy.deepcopy(lo)), ast.Constant(0)],
                             keywords=[])
            slot = ast.BinOp(left=_name(loop.target.id), op=ast.Sub(), right=copy.deepcopy(lo))
        nz = self.forms.nz
        before, after = [], []
        for x, (kind, ndim) in red.items():
            parts = nz.fresh(f"{x}_parts")
            site = next(s for s in iter_nodes(ast.Module(body=list(loop.body), type_ignores=[]))
                        if isinstance(s, ast.stmt) and (self.site_kind(s) or (None,))[0] == x)
            made = len(before)
            if ndim is None:
                start = _name(x) if kind != "prod" else ast.Constant(1.0)
                before.append(ast.Assign(targets=[_name(parts, True)], value=ast.Call(
                    func=self.forms.np_attr("full"), args=[copy.deepcopy(count), start], keywords=[])))
            else:
                before += self.array_slots(x, parts, ndim, kind, count)
            first = self.rewrite_sites(loop.body, x, parts, slot, ndim)
            k = nz.fresh(f"{x}_k")
            elem = ast.Subscript(value=_name(parts), slice=_name(k), ctx=ast.Load())
            after.append(ast.For(target=_name(k, True), iter=ast.Call(func=_name("range"), args=[copy.deepcopy(count)],
                                                                     keywords=[]),
                                 body=[self.update(_name(x, True), _name(x), kind, first, elem, ndim)], orelse=[]))
            # (the slots and their combination carry the update's line: `# adjoint of: m = max(m, v)`)
            for s in before[made:] + after[-1:]:
                ast.fix_missing_locations(ast.copy_location(s, site))
                for n in iter_nodes(s):
                    if hasattr(n, "lineno"):
                        ast.copy_location(n, site)
        return before + [loop] + after

    def array_slots(self, x, parts, ndim, kind, count) -> list:
        """The slot rows of array ``x`` (``ndim`` dimensions): ``parts = np.ones((count, *x.shape))``
        for a product, ``np.zeros`` for a sum, else ``np.empty`` and a loop copying ``x`` into every
        row."""
        shape = ast.Tuple(elts=[copy.deepcopy(count)] + [
            ast.Subscript(value=ast.Attribute(value=_name(x), attr="shape", ctx=ast.Load()), slice=ast.Constant(d),
                          ctx=ast.Load()) for d in range(ndim)], ctx=ast.Load())
        maker = {"prod": "ones", "sum": "zeros"}.get(kind, "empty")
        alloc = ast.Assign(targets=[_name(parts, True)], value=ast.Call(
            func=self.forms.np_attr(maker), args=[shape], keywords=[]))
        if kind in ("prod", "sum"):
            return [alloc]
        k = self.forms.nz.fresh(f"{x}_k")
        fill = ast.For(target=_name(k, True), iter=ast.Call(func=_name("range"), args=[copy.deepcopy(count)],
                                                            keywords=[]),
                       body=[ast.Assign(targets=[ast.Subscript(value=_name(parts), slice=_name(k), ctx=ast.Store())],
                                        value=_name(x))], orelse=[])
        return [alloc, fill]

    def update(self, target, reduced, kind, first, other, ndim=None):
        """``target = max(reduced, other)`` (operands in the user's order: ``first``), ``min``,
        or ``target *= other`` (``+=``, ``-=``); of arrays (``ndim`` not None) ``np.maximum``/``np.minimum``."""
        if kind in _AUG:
            return ast.AugAssign(target=target, op=_AUG[kind](), value=other)
        ops = [reduced, other] if first else [other, reduced]
        func = _name(kind) if ndim is None else self.forms.np_attr("maximum" if kind == "max" else "minimum")
        return ast.Assign(targets=[target], value=ast.Call(func=func, args=ops, keywords=[]))

    def rewrite_sites(self, stmts, x, parts, slot, ndim=None) -> bool:
        """Replace the updates of ``x`` in ``stmts`` (nested blocks too, in place) by updates of
        its slot ``parts[slot]`` (``ndim``: of an array, else None); returns whether ``x`` was the
        first operand."""
        first = True
        for j, t in enumerate(stmts):
            hit = self.site_kind(t)
            if hit is not None and hit[0] == x:
                first = hit[2]
                cell = [ast.Subscript(value=_name(parts), slice=copy.deepcopy(slot), ctx=c)
                        for c in (ast.Store(), ast.Load())]
                new = self.update(*cell, hit[1], first, _other_operand(t, x), ndim)
                stmts[j] = ast.fix_missing_locations(ast.copy_location(new, t))
                continue
            for field in ("body", "orelse"):
                block = getattr(t, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    first = self.rewrite_sites(block, x, parts, slot, ndim) if any(
                        x in _stores(u) for u in block) else first
        return first


def _other_operand(s, x):
    """The operand of reduction update ``s`` of ``x`` that is not ``x``."""
    if isinstance(s, ast.AugAssign):
        return s.value
    v = s.value
    a, b = (v.args if isinstance(v, ast.Call) else (v.left, v.right))
    return b if isinstance(a, ast.Name) and a.id == x else a


def _heads(s) -> list:
    """The expressions of compound statement ``s`` outside its blocks (test, iter, target)."""
    if isinstance(s, ast.For):
        return [s.iter, s.target]
    if isinstance(s, (ast.While, ast.If)):
        return [s.test]
    if isinstance(s, ast.With):
        return [i.context_expr for i in s.items]
    return []

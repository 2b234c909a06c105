"""Forward mode (tangents) over a generated CPU adjoint: the second-order engine.

:func:`tangent_function` reads a generated adjoint (the ``FunctionDef`` parsed from its source)
as a primal and writes its tangent (JVP) function: every statement that computes a float
depending on the tangent inputs is preceded by the statement computing its tangent
(``dot_<name>``), in the same loops and branches.  Differentiating ``x -> d_x`` this way gives
Hessian-vector products (forward-over-reverse; see :mod:`adtrans.secondorder`).

Why forward over reverse and not reverse over reverse: the adjoint's tapes are stacks with a
moving top (``tape[top] = v; top += 1`` ... ``top -= 1; v = tape[top]``), slots reused after
pops, and runtime helpers (``tape_grow``) that reallocate; a reverse sweep over that needs a
tape of the tape.  A tangent needs none: a tape of floats gets a tangent tape of the same
capacity (``dot_tape = tape_grow(dot_tape, need)`` beside ``tape = tape_grow(tape, need)``), a
push stores the tangent beside the value, a pop loads it, so the runtime helpers need no
derivative at all.  Partial derivatives come from the one table via
:func:`adtrans.rules.scalar.jvp` (with the singular-point guards of the reverse mode).

Which names carry tangents is decided by a fixed point over the whole function (flow
insensitive): a scalar whose value reads a tangent-carrying name, an array that receives such a
value (tapes included), an array copied from, pushed from or popped into such an array.  A
scalar carrying a tangent is given ``dot_name = 0.0`` at the top; a local array, ``np.zeros_like``
where it is allocated.  Array parameters that carry tangents get a ``dot_`` parameter after
them.  Constructs outside the generated-adjoint language raise through ``error``.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from ..ir.names import names_in
from ..rules.derivatives import INTRINSIC
from ..rules.scalar import jvp
from ..ir.walk import iter_nodes

#: calls whose value has no tangent (integers, booleans, sizes, allocation sizes)
_PASSIVE_CALLS = {"int", "bool", "len", "range", "num_threads", "thread_id", "numba.prange", "prange"}
#: array allocations: the tangent array is ``np.zeros_like`` of the new array
_ALLOCATIONS = {"np.empty", "np.zeros", "np.ones", "np.full", "np.empty_like", "np.zeros_like",
                "np.ones_like", "np.full_like"}
_RUNTIME = {"tape_grow", "tape_push_array", "tape_pop_array"}


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _intrinsic_by_spelling() -> dict:
    """How generated code spells an intrinsic (``math.sin``, ``np.cbrt``, ``min``) -> its name."""
    out = {}
    for key, rule in INTRINSIC.items():
        out.setdefault(rule.spelling, key)
        for n in rule.names:
            mod, _, attr = n.rpartition(".")
            out.setdefault({"numpy": f"np.{attr}", "builtins": attr}.get(mod, n), key)
        out.setdefault(f"math.{key}", key)
        out.setdefault(f"np.{key}", key)
    return out


_BY_SPELLING = _intrinsic_by_spelling()


def _zero(e) -> bool:
    return e is None or (isinstance(e, ast.Constant) and not isinstance(e.value, bool) and e.value == 0)


class _Rename(ast.NodeTransformer):
    """Array names carrying tangents -> their tangent arrays (the index expressions keep theirs)."""

    def __init__(self, tangents):
        self.t = tangents

    def visit_Subscript(self, node):
        node.value = self.visit(node.value)
        return node

    def visit_Name(self, node):
        if node.id in self.t.arrays and node.id in self.t.varied:
            return ast.Name(self.t.dot(node.id), node.ctx)
        return node


@dataclass
class Tangent:
    """The tangent function: ``func`` (its ``FunctionDef``), ``params`` (each parameter of the
    adjoint as ``(name, tangent name or None)``, in order; a tangent parameter follows its
    parameter), ``returns`` (the adjoint's returned names, whose tangents the function returns
    after them), ``scalars`` (the names holding scalars, for :func:`~adtrans.transform.tidy.tidy`)."""
    func: ast.FunctionDef
    params: list
    returns: list
    scalars: frozenset = frozenset()


class _Tangents:
    def __init__(self, func: ast.FunctionDef, arrays: set, inputs: list, error, passive=()):
        self.func = func
        self.error = error
        taken = names_in(func)
        self.prefix = "dot_"
        while any(n.startswith(self.prefix) for n in taken):
            self.prefix = "dot" + self.prefix
        self.arrays = set(arrays) | self._local_arrays(func)
        self.passive = set(passive) | self._integer_arrays(func)
        self.varied = set(inputs)
        self.inputs = list(inputs)
        self.emitted: set = set()
        self.aliases: list = []         # groups of arrays that may share memory (views bound to names)

    # ------------------------------------------------------------------ names
    def dot(self, name: str) -> str:
        return self.prefix + name

    def _local_arrays(self, func) -> set:
        out = set()
        for node in iter_nodes(func):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                out.add(node.value.id)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                fn = _dotted(node.value.func)
                if fn in _ALLOCATIONS or fn == "tape_grow":
                    out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        return out

    def _integer_arrays(self, func) -> set:
        """Local arrays allocated with an integer or boolean dtype (they never carry tangents)."""
        out = set()
        for node in iter_nodes(func):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                    _dotted(node.value.func) in _ALLOCATIONS and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                spec = " ".join(ast.unparse(a) for a in node.value.args[1:] + [k.value for k in node.value.keywords])
                if "int" in spec or "bool" in spec:
                    out.add(node.targets[0].id)
        return out

    def fail(self, node, what: str):
        line = ast.unparse(node).splitlines()[0]
        raise self.error(f"second derivative: {what} in the generated adjoint (`{line}`)",
                         "hvp/hessian_diag cannot differentiate this part of the adjoint; write the line "
                         "with scalar loops and indexing (first derivatives, adtrans.grad, are unaffected)",
                         getattr(node, "lineno", None))

    # ------------------------------------------------------------ expressions
    def expr(self, e) -> ast.expr | None:
        """The tangent of expression ``e`` (None where it is zero)."""
        if isinstance(e, ast.Constant):
            return None
        if isinstance(e, ast.Name):
            if e.id in self.varied and e.id in self.arrays:
                self.fail(e, "a whole array carrying a tangent used as a value")
            if e.id in self.varied:
                return ast.Name(self.dot(e.id), ast.Load())
            return None
        if isinstance(e, ast.Subscript) and not isinstance(e.value, ast.Name):
            if isinstance(e.value, ast.Attribute) and e.value.attr in ("shape", "strides"):
                return None
            if any(isinstance(n, ast.Name) and n.id in self.varied for n in iter_nodes(e.value)):
                self.fail(e, "an indexed expression carrying a tangent")
            return None
        if isinstance(e, ast.Attribute) and e.attr not in ("shape", "size", "ndim", "dtype"):
            if any(isinstance(n, ast.Name) and n.id in self.varied for n in iter_nodes(e)):
                self.fail(e, f"the attribute .{e.attr} of a value carrying a tangent")
            return None
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Name) and e.value.id in self.varied:
                if isinstance(e.slice, ast.Slice) or (isinstance(e.slice, ast.Tuple) and
                                                      any(isinstance(s, ast.Slice) for s in e.slice.elts)):
                    self.fail(e, "a slice of an array carrying a tangent")
                return ast.Subscript(ast.Name(self.dot(e.value.id), ast.Load()), copy.deepcopy(e.slice), ast.Load())
            return None
        if isinstance(e, (ast.Attribute, ast.Compare, ast.BoolOp)):
            return None
        if isinstance(e, ast.BinOp):
            ts = [self.expr(e.left), self.expr(e.right)]
            return self._combine("binop", e.op, [e.left, e.right], e, ts)
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                return None
            return self._combine("unaryop", e.op, [e.operand], e, [self.expr(e.operand)])
        if isinstance(e, ast.IfExp):
            tb, to = self.expr(e.body), self.expr(e.orelse)
            if _zero(tb) and _zero(to):
                return None
            return ast.IfExp(copy.deepcopy(e.test), tb or ast.Constant(0.0), to or ast.Constant(0.0))
        if isinstance(e, ast.Call):
            fn = _dotted(e.func)
            if fn in _PASSIVE_CALLS:
                return None
            ts = [self.expr(a) for a in e.args]
            if all(_zero(t) for t in ts):
                return None
            name = _BY_SPELLING.get(fn)
            rule = INTRINSIC.get(name) if name else None
            if rule is not None and rule.partials == () and not e.keywords:
                return None         # piecewise constant (floor, sign, isnan ...): zero derivative
            if rule is None or e.keywords or any(t is not None and p is None
                                                 for t, p in zip(ts, rule.partials + (None,) * len(ts))):
                self.fail(e, f"a call of {fn} with an argument carrying a tangent")
            return self._combine("call", name, e.args, e, ts)
        if any(isinstance(n, ast.Name) and n.id in self.varied for n in iter_nodes(e)):
            self.fail(e, f"an expression of kind {type(e).__name__}")
        return None

    def _combine(self, kind, op, args, e, ts):
        if all(_zero(t) for t in ts):
            return None
        out = jvp(kind, op, [copy.deepcopy(a) for a in args], copy.deepcopy(e),
                  [None if _zero(t) else t for t in ts], guarded=True)
        return None if _zero(out) else out

    # ------------------------------------------------------------- analysis
    def analyse(self):
        """The fixed point of :attr:`varied` over the whole function."""
        while True:
            before = set(self.varied)
            self._scan(self.func.body)
            if self.varied == before:
                return

    def _mark(self, target, varied: bool):
        if not varied:
            return
        if isinstance(target, ast.Name) and target.id not in self.passive:
            self.varied.add(target.id)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                target.value.id not in self.passive:
            self.varied.add(target.value.id)

    def _couple(self, names):
        if any(n in self.varied for n in names):
            self.varied.update(n for n in names if n not in self.passive)

    def _scan(self, body):
        for s in body:
            if isinstance(s, ast.Assign):
                v = s.value
                fn = _dotted(v.func) if isinstance(v, ast.Call) else None
                if fn == "tape_push_array":
                    self._couple([s.targets[0].elts[0].id, v.args[2].id])
                elif fn == "tape_pop_array":
                    self._couple([v.args[0].id, v.args[2].id])
                elif fn == "tape_grow":
                    pass
                elif isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "copy" \
                        and isinstance(v.func.value, ast.Name):
                    self._couple([s.targets[0].id, v.func.value.id]) if isinstance(s.targets[0], ast.Name) else None
                elif len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id in self.arrays \
                        and fn not in _ALLOCATIONS:
                    if self._is_view(v):
                        group = [s.targets[0].id] + self._bound_arrays(v)
                        self._couple(group)
                        self.aliases.append(group)
                    elif any(isinstance(n, ast.Name) and n.id in self.arrays and n.id in self.varied
                             for n in iter_nodes(v)):
                        self.varied.add(s.targets[0].id)     # refused where it is bound
                elif fn not in _ALLOCATIONS:
                    for t in s.targets:
                        if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple):
                            for tt, vv in zip(t.elts, v.elts):
                                self._mark(tt, not _zero(self.expr(vv)))
                        else:
                            self._mark(t, not _zero(self.expr(v)))
            elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id in self.arrays:
                self._mark(s.target, any(n in self.varied for n in self._bound_arrays(s.value)))
            elif isinstance(s, ast.AugAssign):
                self._mark(s.target, not _zero(self.expr(s.value)))
            elif isinstance(s, (ast.For, ast.While, ast.If)):
                self._scan(s.body)
                self._scan(s.orelse)

    def _bound_arrays(self, v) -> list:
        """The arrays an array binding ``a = <v>`` may alias (``b``, ``b[t]``, ``b if c else d[t]``)."""
        if isinstance(v, ast.Name):
            return [v.id] if v.id in self.arrays else []
        if isinstance(v, ast.Subscript):
            return self._bound_arrays(v.value)
        if isinstance(v, ast.IfExp):
            return self._bound_arrays(v.body) + self._bound_arrays(v.orelse)
        return []

    def _is_view(self, v) -> bool:
        """Whether ``v`` is a view of arrays: a name, an indexed row, or a choice between views."""
        if isinstance(v, ast.Name):
            return v.id in self.arrays
        if isinstance(v, ast.Subscript):
            return self._is_view(v.value)
        if isinstance(v, ast.IfExp):
            return self._is_view(v.body) and self._is_view(v.orelse)
        return False

    # ----------------------------------------------------------- statements
    def body(self, stmts) -> list:
        out = []
        for s in stmts:
            for new in self.stmt(s):
                if new is not s and not isinstance(new, (ast.For, ast.While, ast.If, ast.Return)):
                    self.emitted.add(id(new))
                out.append(new)
        return out

    # ----------------------------------------------------------- pruning
    def _defines(self, s) -> set:
        """The tangent names a tangent statement writes."""
        if isinstance(s, ast.Expr) and isinstance(s.value.func, ast.Attribute):     # dot_a.fill(0.0)
            return {s.value.func.value.id}
        if isinstance(s, ast.Expr):         # tape_pop_array(dot_tape, top, dot_out)
            return {s.value.args[2].id}
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        out = set()
        for t in targets:
            for sub in (t.elts if isinstance(t, ast.Tuple) else [t]):
                out.add(sub.id if isinstance(sub, ast.Name) else sub.value.id)
        return out

    def _reads(self, s) -> set:
        return {n.id for n in iter_nodes(s) if isinstance(n, ast.Name) and n.id.startswith(self.prefix)}

    def prune(self, body, needed: set) -> list:
        """``body`` without the tangent statements whose tangents reach no output (``needed``:
        the tangents returned or left in shadow arrays); a liveness fixed point over names."""
        tangent_stmts = [n for n in iter_nodes(ast.Module(body=body, type_ignores=[])) if id(n) in self.emitted]
        needed = set(needed)
        while True:
            before = len(needed)
            for group in self.aliases:      # a store through a view is a store into what it views
                dots = {self.dot(n) for n in group}
                if dots & needed:
                    needed |= dots
            for s in tangent_stmts:
                if self._defines(s) & needed:
                    needed |= self._reads(s)
            if len(needed) == before:
                break
        dead = {id(s) for s in tangent_stmts if not self._defines(s) & needed}
        return self._drop(body, dead)

    def _drop(self, body, dead) -> list:
        out = []
        for s in body:
            if id(s) in dead:
                continue
            for field in ("body", "orelse"):
                if isinstance(s, (ast.For, ast.While, ast.If)):
                    setattr(s, field, self._drop(getattr(s, field), dead))
            out.append(s)
        return out

    def _store_target(self, t):
        """The tangent target of store target ``t``, or None when it carries none."""
        if isinstance(t, ast.Name) and t.id in self.varied and t.id not in self.arrays:
            return ast.Name(self.dot(t.id), ast.Store())
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in self.varied:
            return ast.Subscript(ast.Name(self.dot(t.value.id), ast.Load()), copy.deepcopy(t.slice), ast.Store())
        return None

    def stmt(self, s) -> list:
        if isinstance(s, ast.Assign):
            return self._assign(s)
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id in self.arrays:
            return self._array_update(s)
        if isinstance(s, ast.AugAssign):
            tt = self._store_target(s.target)
            if tt is None:
                return [s]
            te = self.expr(s.value)
            if isinstance(s.op, (ast.Add, ast.Sub)):
                return ([] if te is None else [ast.AugAssign(tt, s.op, te)]) + [s]
            cur = copy.deepcopy(s.target)
            cur.ctx = ast.Load()
            whole = ast.BinOp(cur, s.op, copy.deepcopy(s.value))
            t = self.expr(whole)
            return [ast.Assign([tt], t or ast.Constant(0.0)), s]
        if isinstance(s, ast.For):
            fn = _dotted(s.iter.func) if isinstance(s.iter, ast.Call) else None
            if fn not in ("range", "numba.prange", "prange"):
                self.fail(s, "a for loop over something other than range/prange")
            return [ast.For(s.target, s.iter, self.body(s.body), self.body(s.orelse))]
        if isinstance(s, ast.While):
            return [ast.While(s.test, self.body(s.body), self.body(s.orelse))]
        if isinstance(s, ast.If):
            return [ast.If(s.test, self.body(s.body), self.body(s.orelse))]
        if isinstance(s, ast.Return):
            return [self._return(s)]
        if isinstance(s, (ast.Break, ast.Continue, ast.Pass, ast.Raise)):
            return [s]
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
                and s.value.func.attr == "fill" and isinstance(s.value.func.value, ast.Name) \
                and s.value.func.value.id in self.arrays:
            name = s.value.func.value.id
            if name not in self.varied:
                return [s]
            if any(not _zero(self.expr(a)) for a in s.value.args):
                self.fail(s, "an array filled with a value carrying a tangent")
            return [ast.parse(f"{self.dot(name)}.fill(0.0)").body[0], s]
        if isinstance(s, ast.Expr):
            if any(isinstance(n, ast.Name) and n.id in self.varied and n.id in self.arrays for n in iter_nodes(s)):
                self.fail(s, "a call with an array carrying a tangent")
            return [s]
        self.fail(s, f"a statement of kind {type(s).__name__}")

    def _array_update(self, s) -> list:
        """``a += <view>`` (per-thread buffers summed into a shadow): ``dot_a += <view of dots>``."""
        if s.target.id not in self.varied:
            return [s]
        if not isinstance(s.op, (ast.Add, ast.Sub)) or not self._is_view(s.value):
            self.fail(s, "a whole-array update")
        sources = self._bound_arrays(s.value)
        if not any(n in self.varied for n in sources):
            return [s]
        if not all(n in self.varied for n in sources):
            self.fail(s, "a whole-array update from arrays with and without tangents")
        dot = ast.AugAssign(ast.Name(self.dot(s.target.id), ast.Store()), s.op, _Rename(self).visit(copy.deepcopy(s.value)))
        return [dot, s]

    def _assign(self, s) -> list:
        v = s.value
        fn = _dotted(v.func) if isinstance(v, ast.Call) else None
        if len(s.targets) != 1:
            self.fail(s, "a chained assignment")
        t = s.targets[0]
        if fn == "tape_push_array":
            tape, top, arr = t.elts[0].id, v.args[1], v.args[2].id
            if tape not in self.varied:
                return [s]
            push = ast.parse(f"{self.dot(tape)} = tape_push_array({self.dot(tape)}, {ast.unparse(top)}, "
                             f"{self.dot(arr)})[0]").body[0]
            return [push, s]
        if fn == "tape_pop_array":
            tape, top, out = v.args[0].id, v.args[1], v.args[2].id
            if tape not in self.varied:
                return [s]
            pop = ast.parse(f"tape_pop_array({self.dot(tape)}, {ast.unparse(top)}, {self.dot(out)})").body[0]
            return [pop, s]
        if fn == "tape_grow":
            tape = t.id
            if tape not in self.varied:
                return [s]
            grow = copy.deepcopy(s)
            grow.targets = [ast.Name(self.dot(tape), ast.Store())]
            grow.value.args[0] = ast.Name(self.dot(v.args[0].id), ast.Load())
            return [grow, s]
        if isinstance(t, ast.Name) and t.id in self.arrays:
            if t.id not in self.varied:
                return [s]
            if fn in _ALLOCATIONS:
                return [s, ast.parse(f"{self.dot(t.id)} = np.zeros_like({t.id})").body[0]]
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "copy" \
                    and not v.args and isinstance(v.func.value, ast.Name):
                return [ast.parse(f"{self.dot(t.id)} = {self.dot(v.func.value.id)}.copy()").body[0], s]
            if self._is_view(v):
                return [ast.Assign([ast.Name(self.dot(t.id), ast.Store())], _Rename(self).visit(copy.deepcopy(v))), s]
            self.fail(s, "an array binding")
        if isinstance(t, ast.Tuple):
            if not isinstance(v, ast.Tuple) or len(v.elts) != len(t.elts):
                self.fail(s, "a tuple assignment")
            pairs = [(self._store_target(tt), vv) for tt, vv in zip(t.elts, v.elts)]
            pairs = [(tt, self.expr(vv) or ast.Constant(0.0)) for tt, vv in pairs if tt is not None]
            if not pairs:
                return [s]
            dot = ast.Assign([ast.Tuple([p[0] for p in pairs], ast.Store())],
                             ast.Tuple([p[1] for p in pairs], ast.Load())) if len(pairs) > 1 else \
                ast.Assign([pairs[0][0]], pairs[0][1])
            return [dot, s]
        tt = self._store_target(t)
        if tt is None:
            return [s]
        return [ast.Assign([tt], self.expr(v) or ast.Constant(0.0)), s]

    def _return(self, s):
        if s.value is None:
            return s
        elts = list(s.value.elts) if isinstance(s.value, ast.Tuple) else [s.value]
        dots = [self.expr(e) or ast.Constant(0.0) for e in elts]
        return ast.Return(ast.Tuple([copy.deepcopy(e) for e in elts] + dots, ast.Load()))

    # ------------------------------------------------------------- function
    def function(self, name: str) -> Tangent:
        self.analyse()
        params, args = [], []
        for a in self.func.args.args:
            tangent = self.dot(a.arg) if a.arg in self.varied else None
            params.append((a.arg, tangent))
            args.append(ast.arg(a.arg))
            if tangent:
                args.append(ast.arg(tangent))
        param_names = {a.arg for a in self.func.args.args}
        inits = [ast.parse(f"{self.dot(n)} = 0.0").body[0]
                 for n in sorted(self.varied - self.arrays - param_names)]
        local_arrays = sorted((self.varied & self.arrays) - param_names)
        for n in local_arrays:      # every array carrying a tangent is allocated where it is bound
            if not any(isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == n for t in s.targets)
                       for s in iter_nodes(self.func)):
                self.fail(self.func, f"array {n} of unknown origin")
        for s in inits:
            self.emitted.add(id(s))
        what = ", ".join(self.dot(n) for n in self.inputs)
        head = ast.Expr(ast.Call(ast.Name("__comment__", ast.Load()), [ast.Constant(
            f"tangent (forward mode) of {self.func.name}: {self.prefix}v is the derivative of v along {what}")], []))
        body = [head] + inits + self.body(self.func.body)
        needed = {self.dot(n) for n in self.varied & self.arrays & param_names if n not in self.inputs}
        for node in body:
            if isinstance(node, ast.Return) and node.value is not None:
                needed |= self._reads(node)
        body = self.prune(body, needed)
        returns = []
        for node in iter_nodes(self.func):
            if isinstance(node, ast.Return) and node.value is not None:
                returns = [ast.unparse(e) for e in (node.value.elts if isinstance(node.value, ast.Tuple)
                                                    else [node.value])]
        fdef = ast.FunctionDef(name=name, args=ast.arguments(posonlyargs=[], args=args, vararg=None, kwonlyargs=[],
                                                            kw_defaults=[], kwarg=None, defaults=[]),
                               body=body, decorator_list=[], returns=None)
        arrays = self.arrays | {self.dot(n) for n in self.arrays}
        scalars = frozenset(n.id for n in iter_nodes(fdef) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                            and n.id not in arrays)
        return Tangent(ast.fix_missing_locations(fdef), params, returns, scalars)


def tangent_function(func: ast.FunctionDef, arrays, inputs, name: str, error, passive=()) -> Tangent:
    """The tangent (JVP) of the generated adjoint ``func`` with respect to the parameters ``inputs``.

    ``arrays``: the names of ``func``'s array parameters (local arrays are found from their
    allocations and subscripts); ``passive``: those of them holding integers or booleans;
    ``inputs``: parameters whose tangent the caller passes;
    ``name``: the new function's name; ``error(construct, hint, lineno)``: the
    :class:`~adtrans.errors.UnsupportedError` to raise (``lineno``: the line of ``func``'s source) for a construct outside the generated-adjoint
    language.  Returns a :class:`Tangent`; its function takes each parameter followed by its
    tangent where it has one (``dot_x`` for an input, a zero-initialised array for a shadow
    ``d_x`` to receive ``d(d_x)``), and returns the adjoint's returned values followed by their
    tangents (nothing when the adjoint returns nothing).
    """
    return _Tangents(func, arrays, inputs, error, passive).function(name)

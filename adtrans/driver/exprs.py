"""Adjoints of the expressions of a driver (scalar and NumPy-array arithmetic).

The reverse sweep runs with the primal state restored to what it was before
the statement (see :mod:`adtrans.driver.sweeps`), so an expression's
intermediate values are *recomputed* there (``_v1 = np.sum(u * u)``) instead
of being stored, then adjoints flow from the root to the leaves:

- a leaf name ``x``: ``x_b = _rt.acc(x_b, c)`` (in place for arrays, summed over
  broadcast dimensions);
- a leaf ``x[key]``: ``_rt.add_at(x_b, key, c)`` (``np.add.at`` for fancy keys);
- interior nodes: the rules below; contributions to an operand that NumPy
  broadcast are summed back to its shape (``_rt.unb``).

Rules (``c``: the adjoint of the node's value ``y``).  Scalar operators and
elementwise functions take their partial derivatives from the table shared with
kernels (:mod:`adtrans.rules.derivatives`), respelled for arrays
(:func:`adtrans.rules.scalar.elementwise`); the rest are array rules:

====================================  ==============================================
``+ - * / ** %``, ``-a``              ``c * p`` per operand (derivative table)
``np.sqrt``, ``math.sin``, ...        ``c * p`` (derivative table: every intrinsic
                                      there, NumPy ``np.`` and ``math.`` names)
``a @ b``, ``np.dot``, ``u.dot(v)``   ``c @ b.T``, ``a.T @ c`` (1-D/2-D cases)
``np.negative(a)``                    ``-c``
``np.copy``, ``np.array``, ``u.copy()``  ``c``
``np.ascontiguousarray(a)`` (a copy)  ``c`` (the copy checked at run time)
``np.sum(a, axis)``, ``np.mean``     ``c`` broadcast back (divided by the count)
``sum(lst)`` (builtin)                ``c`` to every element (of a list or an array's rows)
``max(lst)``, ``min(lst)`` (builtin)  ``c`` to the first extreme element, as Python picks it
``np.maximum/minimum``, ``max/min``   ``c`` to the chosen operand (ties: the first)
``np.where(t, a, b)``                 ``c`` where ``t`` to ``a``, elsewhere to ``b``
``np.concatenate((a, b), axis)``      ``c`` split back
``np.diff(a, n, axis)``, ``np.cumsum``  ``c`` sent back through the differences / a reversed
                                      running sum (``_rt.diff_adjoint``, ``_rt.cumsum_adjoint``)
``np.stack``, ``vstack``, ``hstack``   ``c`` cut back into the parts' shapes (``_rt.unstack``)
``np.full(shape, v)``, ``full_like``  ``sum(c)`` to ``v`` (summed to its shape)
``np.linalg.norm(a)`` (2-norm)        ``c*a/y``
``norm(a, 2 / -2 / 'nuc')``, ``cond``  singular values (``_rt.norm_vjp``, ``_rt.cond_vjp``)
``np.linalg.solve/inv/det/cholesky``  the kernels' LAPACK rules (``LAPACK`` of the derivative
``np.linalg.slogdet(a)[1]``, ``eigh``   table, :mod:`adtrans.rules.derivatives`)
``eigvalsh``, ``svd(a)[1]``, ``pinv``
``lstsq(a, b)[0]``, ``qr(a)[k]``
====================================  ==============================================

Anything else with an active operand raises :class:`~adtrans.errors.UnsupportedError`.
"""
from __future__ import annotations

import ast
import copy

from ..rules.derivatives import BINOP, INTRINSIC, LAPACK, LAPACK_HELPERS, intrinsic_of
from ..rules.scalar import elementwise, guarded_template, scale, substitute, template
from .calls import NUMPY_FILLS, lapack_of
from ..ir.walk import iter_nodes

# driver-only structural functions (identity on the adjoint); everything elementwise comes
# from the derivative table (adtrans.rules.derivatives)
IDENTITY = {"copy", "array", "ascontiguousarray", "asfortranarray"}   # the last two: a copy, checked at run time
BINARY_NUMPY = {"add": ast.Add, "subtract": ast.Sub, "multiply": ast.Mult, "divide": ast.Div,
                "true_divide": ast.Div, "power": ast.Pow, "pow": ast.Pow, "matmul": ast.MatMult,
                "dot": ast.MatMult}


def index_code(key) -> str:
    """An index as code inside ``[...]`` (``:, -1``; ``ast.unparse`` of a tuple with slices writes
    ``(:, -1)``, which is no Python)."""
    if isinstance(key, ast.Tuple):
        return ", ".join(ast.unparse(e) for e in key.elts) + ("," if len(key.elts) == 1 else "")
    return ast.unparse(key)


def paren(code: str) -> str:
    return code if code.isidentifier() or _is_number(code) else f"({code})"


def _is_number(code: str) -> bool:
    try:
        float(code)
        return not code.startswith("-")
    except ValueError:
        return False


class ExprAdjoint:
    """Reverse code of one expression: ``lines(expr, bar)`` gives the recompute lines
    followed by the adjoint lines for the adjoint ``bar`` (code) of the expression's value.

    ``gen`` supplies ``act`` (:class:`~adtrans.driver.activity.Activity`),
    ``resolver``, ``shadow(name)``, ``temp(prefix)`` and ``error(node, construct, hint)``.
    """

    def __init__(self, gen):
        self.gen = gen
        self.pre: list = []
        self.back: list = []
        self.values: dict = {}

    def lines(self, expr, bar: str) -> list:
        self.grad(expr, bar)
        return self.pre + self.back

    # -- values (recomputed in the reverse sweep)
    def active(self, node) -> bool:
        return self.gen.act.expr(node)

    def value(self, node) -> str:
        """Code for ``node``'s value: the source of leaves and passive parts, a temporary
        (recomputed once) for active interior nodes."""
        if not self.active(node) or isinstance(node, (ast.Name, ast.Constant)):
            return paren(ast.unparse(node))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            return paren(ast.unparse(node))
        key = id(node)
        if key not in self.values and isinstance(node, ast.IfExp):
            t = self.gen.temp("_v")
            self.pre.append(f"{t} = {ast.unparse(node)}")
            self.values[key] = t
        if key not in self.values:
            new = copy.copy(node)
            for fname, child in ast.iter_fields(node):
                if fname == "func" and isinstance(child, ast.Attribute):
                    func = copy.copy(child)         # a method: recompute its receiver, keep the method
                    func.value = self._sub(child.value)
                    new.func = func
                elif fname == "func":
                    continue
                elif isinstance(child, ast.expr):
                    setattr(new, fname, self._sub(child))
                elif isinstance(child, list):
                    setattr(new, fname, [self._sub(c) if isinstance(c, ast.expr) else c for c in child])
            t = self.gen.temp("_v")
            self.pre.append(f"{t} = {ast.unparse(new)}")
            self.values[key] = t
        return self.values[key]

    def _sub(self, child):
        if self.active(child) and not isinstance(child, (ast.Name, ast.Constant)) and not (
                isinstance(child, ast.Subscript) and isinstance(child.value, ast.Name)):
            return ast.Name(id=self.value(child), ctx=ast.Load())
        return child

    # -- adjoints
    def reshape_back(self, src, c: str) -> str:
        """Adjoint of ``src.reshape(...)``/``ravel`` for ``src``: skipped where the result's shadow
        is a view of ``src``'s (``runtime.reshape_shadow``)."""
        shadow = self.gen.shadow(src.id) if isinstance(src, ast.Name) else "None"
        return f"_rt.reshape_back({c}, _np.shape({self.value(src)}), {shadow})"

    def grad(self, node, c: str):
        """Add the contribution ``c`` (code) to the adjoint of ``node``."""
        if c is None or not self.active(node):
            return
        g = self.gen
        if isinstance(node, ast.Name):
            s = g.shadow(node.id)
            self.back.append(f"{s} = _rt.acc({s}, {c})")
            return
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and \
                LAPACK.get(lapack_of(g.resolver.classify(node.value)), None) is not None and \
                LAPACK[lapack_of(g.resolver.classify(node.value))].parts:
            func = lapack_of(g.resolver.classify(node.value))
            count = len(LAPACK[func].parts)
            if not (isinstance(node.slice, ast.Constant) and node.slice.value in range(count)):
                raise g.error(node, f"`{ast.unparse(node)}`",
                              f"index np.{func}'s result with a constant 0 to {count - 1}")
            self.lapack(node, func, list(node.value.args), c, part=node.slice.value)
            return
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name):
                self.back.append(f"_rt.add_at({g.shadow(node.value.id)}, _np.s_[{index_code(node.slice)}], {c})")
                return
            self.grad(node.value, f"_rt.scatter({self.value(node.value)}, _np.s_[{index_code(node.slice)}], {c})")
            return
        if not (c.isidentifier()):
            t = g.temp("_b")
            self.back.append(f"{t} = {c}")
            c = t
        if isinstance(node, ast.IfExp):         # only the branch the forward sweep took
            branches = []
            for part in (node.body, node.orelse):
                sub = ExprAdjoint(g)
                sub.grad(part, c)
                branches.append(sub.pre + sub.back or ["pass"])
            self.back.append(f"if {ast.unparse(node.test)}:")
            self.back += ["    " + ln for ln in branches[0]]
            self.back.append("else:")
            self.back += ["    " + ln for ln in branches[1]]
            return
        if isinstance(node, ast.Attribute) and node.attr == "T":
            self.grad(node.value, f"_np.transpose({c})")
        elif isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                self.grad(node.operand, f"-{c}")
            elif isinstance(node.op, ast.UAdd):
                self.grad(node.operand, c)
            else:
                raise g.error(node, f"operator {type(node.op).__name__} on an active value")
        elif isinstance(node, ast.BinOp):
            self.binop(node, node.left, type(node.op), node.right, c)
        elif isinstance(node, ast.Call):
            self.call(node, c)
        elif isinstance(node, ast.Tuple) and getattr(node, "adtrans_whole", None):
            kernel, param, line, name = node.adtrans_whole
            raise g.error(node, f"a tuple of active values passed whole to the kernel {kernel} (line {line}, its "
                                f"parameter `{param}`) through `{name}`, a name bound more than once or read other "
                                f"than as {name}[k], unpacking, len or for",
                          f"bind each tuple once to a name of its own, or pass the literal "
                          f"({kernel}({ast.unparse(node)}))")
        elif isinstance(node, ast.Tuple):
            raise g.error(node, "a tuple of active values in a driver",
                          "bind it to a name read only as `pair[k]` or `a, b = pair`, pass its elements to the "
                          "kernel one by one, or make it a list (`parts = [a, b]`: sum, max, min, np.array, "
                          "indexing and for loops over it are differentiated)")
        else:
            raise g.error(node, f"{type(node).__name__} expression with an active value in a driver",
                          "drivers differentiate arithmetic, NumPy elementwise functions, sum/mean/dot, "
                          "slicing and kernel calls")

    def operand(self, node, contribution: str):
        """A contribution to an operand that NumPy may have broadcast: summed to its shape."""
        if not self.active(node):
            return
        if isinstance(node, (ast.Name, ast.Subscript)):
            self.grad(node, contribution)      # acc / add_at reduce to the shape themselves
        else:
            self.grad(node, f"_rt.unb({contribution}, {self.value(node)})")

    def partial_code(self, node, args, src: str, c: str) -> str:
        """``c * p`` for the table partial ``src`` of ``node = f(args)``, as array code (the
        template is respelled for arrays before the operands go in)."""
        used = {n.id for n in iter_nodes(ast.parse(src, mode="eval")) if isinstance(n, ast.Name)}
        vals = [ast.parse(self.value(a), mode="eval").body if f"a{i}" in used else ast.Constant(None)
                for i, a in enumerate(args)]
        z = ast.parse(self.value(node), mode="eval").body if "z" in used else ast.Constant(None)
        expr = elementwise(scale(ast.Name(id="g", ctx=ast.Load()), template(src)))
        return ast.unparse(substitute(expr, vals, z, g=ast.Name(id=c, ctx=ast.Load())))

    def table(self, node, rule, args, c, broadcast=True):
        """Contributions of ``node = f(args)`` to each active argument, from the derivative table."""
        for i, (arg, tpl) in enumerate(zip(args, rule.partials)):
            if tpl is not None and self.active(arg):
                code = self.partial_code(node, args, guarded_template(rule, i), c)
                if broadcast:
                    self.operand(arg, code)
                else:
                    self.grad(arg, code)

    def binop(self, node, left, op, right, c):
        if op is ast.MatMult:
            ga, gb = self.gen.temp("_b"), self.gen.temp("_b")
            self.back.append(f"{ga}, {gb} = _rt.dot_adjoint({self.value(left)}, {self.value(right)}, {c})")
            self.grad(left, ga)
            self.grad(right, gb)
        elif op in BINOP:
            self.table(node, BINOP[op], [left, right], c)
        else:
            raise self.gen.error(node, f"operator {op.__name__} on active values in a driver",
                                 "use + - * / ** @, or compute it in an @njit kernel")

    def call(self, node: ast.Call, c):
        g = self.gen
        kind = g.resolver.classify(node)
        name = kind.name
        args = list(node.args)
        kw = {k.arg: k.value for k in node.keywords}
        if kind.kind == "method":
            recv = kind.receiver
            if name == "copy":
                self.grad(recv, c)
            elif name in ("sum", "mean"):
                self.reduction(node, name, recv, kw.get("axis", args[0] if args else None), c)
            elif name == "dot":
                self.binop(node, recv, ast.MatMult, args[0], c)
            elif name in ("max", "min", "std", "var") and not args and not kw:
                self.whole(name, recv, c)
            elif name == "prod" and len(args) <= 1 and set(kw) <= {"axis"} and not any(
                    self.active(v) for v in list(args) + list(kw.values())):
                axis = self.value(kw.get("axis", args[0] if args else ast.Constant(None)))
                self.grad(recv, f"_rt.prod_adjoint({c}, {self.value(recv)}, {axis})")
            elif name == "clip" and len(args) == 2 and not kw:
                self.clip([recv] + args, c)
            elif name in ("ravel", "flatten", "reshape"):       # the same elements in another shape
                self.grad(recv, self.reshape_back(recv, c) if name != "flatten" else
                          f"_np.reshape({c}, _np.shape({self.value(recv)}))")
            else:
                raise g.error(node, f"method .{name}() on an active array in a driver")
            return
        lapack = lapack_of(kind)
        if lapack is not None:
            if LAPACK[lapack].parts:
                raise g.error(node, f"np.{lapack}'s tuple of an active matrix in a driver",
                              f"index it: np.{lapack}(...)[k] (logdet = np.linalg.slogdet(A)[1], "
                              "w = np.linalg.eigh(A)[0])")
            self.lapack(node, lapack, args, c)
            return
        if kind.kind in ("numpy", "math", "builtin"):
            if name == "sum" and kind.kind == "builtin" and len(args) == 1 and not kw:
                self.grad(args[0], f"_rt.spread({c}, {self.value(args[0])})")   # a list or an array's rows
                return
            if name in ("max", "min") and kind.kind == "builtin" and len(args) == 1 and not kw:
                self.grad(args[0], f"_rt.pick({c}, {self.value(args[0])}, {name == 'max'!r})")   # the first extreme
                return
            if name in ("max", "min", "amax", "amin", "std", "var") and kind.kind == "numpy" and \
                    len(args) == 1 and not kw:
                self.whole(name.lstrip("a") if name in ("amax", "amin") else name, args[0], c)
                return
            if name in ("ravel", "reshape") and kind.kind == "numpy" and args and not any(
                    self.active(a) for a in args[1:]):
                self.grad(args[0], self.reshape_back(args[0], c))
                return
            if name in ("sum", "mean") and kind.kind == "numpy":
                self.reduction(node, name, args[0], kw.get("axis", args[1] if len(args) > 1 else None), c)
                return
            if name in BINARY_NUMPY and kind.kind in ("numpy", "math") and len(args) == 2:
                self.binop(node, args[0], BINARY_NUMPY[name], args[1], c)
                return
            if name in ("maximum", "minimum", "max", "min", "fmax", "fmin") and len(args) == 2 and \
                    not (kind.kind == "builtin" and kw):
                a, b = self.value(args[0]), self.value(args[1])
                cmp = ">=" if name in ("maximum", "max", "fmax") else "<="
                mask = g.temp("_m")
                self.back.append(f"{mask} = {a} {cmp} {b}")
                self.operand(args[0], f"_np.where({mask}, {c}, 0.0)")
                self.operand(args[1], f"_np.where({mask}, 0.0, {c})")
                return
            if kind.kind == "numpy" and self.permutation_or_product(node, name, args, kw, c):
                return
            if name == "clip" and kind.kind == "numpy" and len(args) == 3 and not kw:
                self.clip(args, c)
                return
            if name == "where" and kind.kind == "numpy" and len(args) == 3:
                cond = self.value(args[0])
                self.operand(args[1], f"_np.where({cond}, {c}, 0.0)")
                self.operand(args[2], f"_np.where({cond}, 0.0, {c})")
                return
            if name == "concatenate" and kind.kind == "numpy" and args and isinstance(args[0], (ast.Tuple, ast.List)):
                parts = args[0].elts
                axis = ast.unparse(kw.get("axis", args[1] if len(args) > 1 else ast.Constant(0)))
                t = g.temp("_b")
                self.back.append(f"{t} = _rt.split({c}, [{', '.join(self.value(p) for p in parts)}], {axis})")
                for k, p in enumerate(parts):
                    self.grad(p, f"{t}[{k}]")
                return
            if name in ("stack", "vstack", "hstack") and kind.kind == "numpy" and args and \
                    isinstance(args[0], (ast.Tuple, ast.List)):
                parts = args[0].elts
                axis = ast.unparse(kw.get("axis", args[1] if len(args) > 1 else ast.Constant(0)))
                t = g.temp("_b")
                self.back.append(f"{t} = _rt.unstack({c}, [{', '.join(self.value(p) for p in parts)}], "
                                 f"{name!r}, {axis})")
                for k, p in enumerate(parts):
                    self.grad(p, f"{t}[{k}]")
                return
            if name in ("diff", "cumsum") and kind.kind == "numpy" and args:
                self.linear_scan(node, name, args, kw, c)
                return
            if name in NUMPY_FILLS and kind.kind == "numpy":
                fill = kw.get("fill_value", args[NUMPY_FILLS[name]] if len(args) > NUMPY_FILLS[name] else None)
                if fill is not None:
                    self.operand(fill, c)            # every element is the fill value: its adjoint sums
                    return
            if name == "norm" and kind.kind == "numpy" and len(args) == 1 and set(kw) == {"axis"} and \
                    not self.active(kw["axis"]) and getattr(kind.obj, "__module__", "").startswith("numpy"):
                self.grad(args[0], f"_rt.norm_axis_adjoint({c}, {self.value(args[0])}, {self.value(kw['axis'])})")
                return
            if name == "norm" and kind.kind == "numpy" and len(args) == 1 and not kw:
                self.grad(args[0], f"{c} * {self.value(args[0])} / {self.value(node)}")   # 2-norm
                return
            if name in ("norm", "cond") and kind.kind == "numpy" and len(args) == 2 and not kw:
                # the spectral and nuclear norms and the 2-norm condition number: singular values
                order = args[1]
                if not (isinstance(order, ast.Constant) and order.value in (2, "nuc", None)) and not (
                        isinstance(order, ast.UnaryOp) and isinstance(order.op, ast.USub) and
                        isinstance(order.operand, ast.Constant) and order.operand.value == 2):
                    raise g.error(node, f"np.linalg.{name} with ord `{ast.unparse(order)}` of an active array "
                                        "in a driver", "ord 2, -2, 'nuc' (norm) or None, 2, -2 (cond); "
                                                       "np.linalg.norm(a) for the Frobenius norm")
                self.grad(args[0], f"_rt.{name}_vjp({self.value(args[0])}, {ast.unparse(order)}, {c})")
                return
            key = intrinsic_of(obj=kind.obj)
            if key is not None and INTRINSIC[key].partials and len(args) != len(INTRINSIC[key].partials):
                key = None          # e.g. np.min(a): a reduction, not the two-argument min
            if (key is not None or name in IDENTITY or name == "negative") and args and \
                    not any(self.active(v) for v in kw.values()):
                if name == "array" and kind.kind == "numpy" and kw.get("copy") is not None:
                    raise g.error(node, "np.array(..., copy=...) of an active array", "use np.copy")
                if key is None:
                    if not any(self.active(a) for a in args[1:]):
                        self.grad(args[0], f"-{c}" if name == "negative" else c)
                        return
                else:
                    rule = INTRINSIC[key]
                    if rule.constant_only:
                        raise g.error(node, f"{ast.unparse(node.func)} of an active value in a driver",
                                      rule.constant_only)
                    self.table(node, rule, args, c, broadcast=len(args) > 1)
                    return
        if kind.kind == "kernel":
            raise g.error(node, "kernel call inside an expression (internal: should be hoisted)")
        what = {"numpy": f"np.{name}", "math": f"math.{name}"}.get(kind.kind, name)
        raise g.error(node, f"{what} on an active value in a driver has no adjoint rule",
                      "supported: + - * / ** @, the math/NumPy functions of adtrans.rules.derivatives "
                      "(sqrt exp log sin ...), np.sum/mean/prod/dot/outer/copy/"
                      "maximum/minimum/clip/where/sort/roll/append/concatenate/stack/diff/cumsum; or compute it in an @njit kernel")

    def permutation_or_product(self, node, name, args, kw, c) -> bool:
        """``np.roll``, ``np.sort``, ``np.outer``, ``np.prod``, ``np.append`` of active values (their
        adjoints ``_rt.roll_adjoint`` ... in :mod:`adtrans.driver.runtime`); shifts and axes must be
        passive.  Returns whether ``node`` was one of them."""
        g = self.gen
        params = {"roll": ("a", "shift", "axis"), "sort": ("a", "axis"), "outer": ("a", "b"),
                  "prod": ("a", "axis"), "append": ("arr", "values", "axis")}.get(name)
        if params is None or len(args) > len(params) or any(k not in params for k in kw):
            return False
        bound = dict(zip(params, args))
        if any(k in bound for k in kw):
            return False
        bound.update(kw)
        if "a" not in bound and "arr" not in bound:
            return False
        for k in ("shift", "axis"):
            if k in bound and self.active(bound[k]):
                raise g.error(node, f"np.{name} with an active `{k}`", f"the {k} must not depend on active values")
        axis = self.value(bound["axis"]) if "axis" in bound else ("-1" if name == "sort" else "None")
        if name == "roll":
            if "shift" not in bound:
                return False
            self.grad(bound["a"], f"_rt.roll_adjoint({c}, {self.value(bound['shift'])}, {axis})")
        elif name == "sort":
            self.grad(bound["a"], f"_rt.sort_adjoint({c}, {self.value(bound['a'])}, {axis})")
        elif name == "prod":
            self.grad(bound["a"], f"_rt.prod_adjoint({c}, {self.value(bound['a'])}, {axis})")
        elif name == "outer":
            if "b" not in bound:
                return False
            ga, gb = g.temp("_b"), g.temp("_b")
            self.back.append(f"{ga}, {gb} = _rt.outer_adjoint({c}, {self.value(bound['a'])}, "
                             f"{self.value(bound['b'])})")
            self.grad(bound["a"], ga)
            self.grad(bound["b"], gb)
        else:
            if "values" not in bound:
                return False
            ga, gb = g.temp("_b"), g.temp("_b")
            self.back.append(f"{ga}, {gb} = _rt.append_adjoint({c}, {self.value(bound['arr'])}, "
                             f"{self.value(bound['values'])}, {axis})")
            self.grad(bound["arr"], ga)
            self.grad(bound["values"], gb)
        return True

    def clip(self, args, c):
        """``np.clip(a, lo, hi)``: NumPy's ``minimum(maximum(a, lo), hi)`` (``None`` for a missing
        bound), each with the ``maximum``/``minimum`` rule above (ties go to the first operand):
        ``a`` gets ``c`` where ``a >= lo`` and ``maximum(a, lo) <= hi``, ``lo`` where ``a < lo`` and
        ``lo <= hi``, ``hi`` where the clipped value exceeds it (``lo > hi`` gives ``hi``, as NumPy)."""
        g = self.gen
        a, lo, hi = args
        none = [isinstance(b, ast.Constant) and b.value is None for b in (lo, hi)]
        low = self.value(a) if none[0] else f"_np.maximum({self.value(a)}, {self.value(lo)})"
        keep_lo, keep_hi = g.temp("_m"), g.temp("_m")
        self.back.append(f"{keep_lo} = {'True' if none[0] else f'{self.value(a)} >= {self.value(lo)}'}")
        self.back.append(f"{keep_hi} = {'True' if none[1] else f'{low} <= {self.value(hi)}'}")
        self.operand(a, f"_np.where({keep_lo} & {keep_hi}, {c}, 0.0)")
        if not none[0]:
            self.operand(lo, f"_np.where(~{keep_lo} & {keep_hi}, {c}, 0.0)")
        if not none[1]:
            self.operand(hi, f"_np.where({keep_hi}, 0.0, {c})")

    def linear_scan(self, node, name, args, kw, c):
        """``np.diff(a, n=1, axis=-1)`` and ``np.cumsum(a, axis=None)`` of an active ``a``: linear,
        their adjoints ``_rt.diff_adjoint`` / ``_rt.cumsum_adjoint``; ``n`` and ``axis`` must be
        constants (``prepend=``/``append=`` and ``dtype=``/``out=`` are refused)."""
        g = self.gen
        params = ("a", "n", "axis") if name == "diff" else ("a", "axis")
        bound = dict(zip(params, args))
        for k, v in kw.items():
            if k not in params or k in bound:
                raise g.error(node, f"np.{name} with `{k}=` on an active array in a driver",
                              f"np.{name}(a{', n' if name == 'diff' else ''}, axis) (np.concatenate the parts "
                              "for prepend/append)")
            bound[k] = v
        if len(args) > len(params):
            raise g.error(node, f"np.{name} with {len(args)} positional arguments on an active array in a driver",
                          f"pass {', '.join(params)}")
        for k in params[1:]:
            v = bound.get(k)
            if v is not None and not (isinstance(v, ast.Constant) and isinstance(v.value, int) and
                                      not isinstance(v.value, bool) or isinstance(v, ast.UnaryOp) and
                                      isinstance(v.op, ast.USub) and isinstance(v.operand, ast.Constant) and
                                      isinstance(v.operand.value, int)):
                raise g.error(node, f"np.{name} with `{k}={ast.unparse(v)}` on an active array in a driver",
                              f"write {k}= as an integer constant")
        a = bound["a"]
        axis = ast.unparse(bound["axis"]) if bound.get("axis") is not None else ("-1" if name == "diff" else "None")
        if name == "diff":
            n = ast.unparse(bound["n"]) if bound.get("n") is not None else "1"
            self.grad(a, f"_rt.diff_adjoint({c}, {n}, {axis})")
        else:
            self.grad(a, f"_rt.cumsum_adjoint({c}, {self.value(a)}, {axis})")

    def whole(self, name, arg, c):
        """``np.max``/``min``/``std``/``var`` of a whole array (no axis)."""
        v = self.value(arg)
        if name in ("max", "min"):
            self.grad(arg, f"_rt.extreme({c}, {v}, {name == 'max'!r})")
        else:
            self.grad(arg, f"_rt.spread_adjoint({c}, {v}, {name == 'std'!r})")

    def lapack(self, node, func, args, c, part=None):
        """``np.linalg.solve(A, b)`` and the other functions of the LAPACK table: the kernels' rule
        (:data:`adtrans.rules.derivatives.LAPACK`) with the operands' and the result's recomputed
        values; ``b``'s number of dimensions is read at run time (the driver has no types)."""
        g, rule = self.gen, LAPACK[func]
        call = node.value if isinstance(node, ast.Subscript) else node
        if len(args) != len(rule.args) or any(k.arg not in rule.keywords for k in call.keywords):
            raise g.error(node, f"np.{func} with {len(args)} arguments", f"pass {len(rule.args)}")
        one = rule.part(part)
        if one.constant:
            return                          # slogdet's sign: piecewise constant
        if one.refused:
            raise g.error(node, f"np.{func}'s element {part} of an active matrix in a driver", one.refused)
        names = dict(zip(rule.args, (self.value(a) for a in args)), z=self.value(node), G=c)
        for t, tpl in one.temps:
            names[t] = g.temp("_b")
            self.back.append(f"{names[t]} = {_driver_code(tpl, names)}")
        vector = dict((arg, tpl) for arg, _, tpl in one.vector)
        for (arg, sign, tpl), a in zip(one.reverse, [args[rule.args.index(r[0])] for r in one.reverse]):
            code = _driver_code(tpl, names)
            if arg in vector:
                code = f"({_driver_code(vector[arg], names)} if _np.ndim({names['b']}) == 1 else {code})"
            self.grad(a, f"-({code})" if sign == "-" else code)

    def reduction(self, node, name, arg, axis, c):
        x = self.value(arg)
        ax = "None" if axis is None else ast.unparse(axis)
        contrib = f"_rt.expand({c}, {x}, {ax})"
        if name == "mean":
            contrib = f"{contrib} * (_np.size({self.value(node)}) / _np.size({x}))"
        self.grad(arg, contrib)


_DRIVER_NAMES = {"np": "_np", **{f: "_rt." + f for f in LAPACK_HELPERS}}


def _driver_code(template: str, names: dict) -> str:
    """A LAPACK rule template as driver code: operands replaced by their code, ``np`` by ``_np``
    and the helpers by their ``_rt`` names."""
    class Sub(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id in names:
                return ast.Name(id=paren(names[n.id]), ctx=ast.Load())
            return ast.Name(id=_DRIVER_NAMES.get(n.id, n.id), ctx=ast.Load())
    return ast.unparse(Sub().visit(ast.parse(template, mode="eval").body))

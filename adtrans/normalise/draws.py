"""Random draws in CPU kernels (``np.random.normal()``, ``np.random.rand(n)``, ``np.random.seed(s)``):
each draw becomes a value of a **draw buffer**, written once by the forward sweep and only read after.

Runs first, before the list passes (:mod:`.comprehensions`, :mod:`.lists`): every scalar draw is
hoisted out of its expression into ``draws.append(<primitive draw>)`` and a name bound to
``draws[-1]`` just before the statement, and the expression reads that name.  The list lowering then makes ``draws`` a preallocated array (its capacity from
the ``range`` trip counts around the draws) with a counter, and three-address form
(:mod:`.threeaddr`) keeps each store ``draws[draws_len] = np.random.standard_normal()`` whole: the one
statement that calls NumPy's generator.  :func:`adtrans.ir.walk.forward_only` says yes to it (and to
``np.random.seed``), so the engine runs it in the forward sweep only, in program order, and never in a
recomputation, a last-iteration or gather sweep, a checkpointed segment or a tangent; dead-code
removal keeps it (``np.random.*`` is not pure in :mod:`adtrans.transform.tidy`).  Every other use is
an ordinary read of a local array that nothing overwrites, so a reverse sweep that recomputes a
value reads the draw the forward sweep made.  The forward sweep draws exactly what the primal draws,
in the same order, so the primal value is Numba's (bit for bit) and NumPy's generator state after
an adjoint call is as after one primal call.

The derivative is the pathwise one with the draws held fixed.  Draws with parameters are written
as Numba computes them from one primitive draw, so their parameters are differentiated:
``np.random.normal(m, s)`` is ``m + s * z`` with ``z = np.random.standard_normal()``,
``np.random.uniform(a, b)`` is ``a + (b - a) * u`` with ``u = np.random.random()`` (Numba's own
formulas: the values are bit-identical).  Other distributions (``exponential``, ``gamma``, ``poisson``,
``randint``, ...) are kept as their own draw; their parameters must be constant (the transform
refuses an active one).  Integer draws go to a second buffer of int64.  Array draws
(``Z = np.random.standard_normal((n, m))``, ``np.random.rand(n)``, ``size=``) become
``Z = np.empty(shape)`` and a loop nest drawing each element in C order, as Numba fills them (inside
an expression, ``keep = np.random.rand(n) < p``, the array is bound to a name first).

Draws in ``while`` loops (rejection sampling, a walk until a threshold): the number of draws is not
known when the kernel starts, so the list lowering counts them as none and the CPU target grows the
buffer when a store finds it full (:func:`adtrans.targets.cpu.grow_draw_buffers`: capacity doubled,
contents copied, as a tape grows); the forward sweep still draws exactly what the primal draws.

Refused with the line: draws in the test of a ``while`` loop (hoisting would draw once, not per
test), in ``prange`` loops (Numba keeps one generator per thread and the iterations a thread runs
depend on the schedule, so neither the values nor the generator states after the loop can be
replayed by an adjoint), in inlined ``@njit`` helpers, under ``and``/``or``/conditional expressions and in
comprehensions (the hoisting would draw unconditionally), and
``np.random`` functions that permute or choose (``shuffle``, ``permutation``, ``choice``).
"""
from __future__ import annotations

import ast
import copy

import numpy as np

from ..ir.nodes import name

#: primitives the reparametrised draws are written with
UNIFORM, NORMAL = "random", "standard_normal"
#: distributions drawn from one primitive, as Numba computes them: name -> (primitive, max args)
REPARAMETRISED = {"random": (UNIFORM, 0), "random_sample": (UNIFORM, 0), "sample": (UNIFORM, 0),
                  "ranf": (UNIFORM, 0), "rand": (UNIFORM, 0), "uniform": (UNIFORM, 2),
                  "standard_normal": (NORMAL, 0), "randn": (NORMAL, 0), "normal": (NORMAL, 2)}
#: integer-valued draws (kept as their own draw, int64 buffer)
INTEGER = {"randint", "random_integers", "poisson", "binomial", "geometric", "hypergeometric", "logseries",
           "negative_binomial", "zipf"}
#: float draws kept as their own draw (constant parameters only)
OPAQUE = {"exponential", "standard_exponential", "gamma", "standard_gamma", "beta", "chisquare", "f",
          "gumbel", "laplace", "logistic", "lognormal", "noncentral_chisquare", "pareto", "power", "rayleigh",
          "standard_cauchy", "standard_t", "triangular", "vonmises", "wald", "weibull"}
#: positional parameters before ``size`` (array draws); rand/randn take the extents themselves
N_PARAMS = {"random": 0, "random_sample": 0, "sample": 0, "ranf": 0, "standard_normal": 0, "uniform": 2,
            "normal": 2, "randint": 2, "exponential": 1, "standard_exponential": 0, "gamma": 2,
            "standard_gamma": 1, "beta": 2, "poisson": 1, "binomial": 2, "geometric": 1, "chisquare": 1,
            "laplace": 2, "logistic": 2, "lognormal": 2, "gumbel": 2, "pareto": 1, "power": 1, "rayleigh": 1,
            "standard_cauchy": 0, "standard_t": 1, "weibull": 1, "wald": 2, "vonmises": 2, "f": 2,
            "triangular": 3, "negative_binomial": 2, "zipf": 1, "logseries": 1, "hypergeometric": 3,
            "noncentral_chisquare": 2}
#: what each form of drawing becomes; ``scripts/supported_table.py`` writes it into ``docs/supported.md``.
DRAW_TABLE = {
    "`np.random.seed(s)` (a statement)": ("constant (no derivative)", "run once, where the primal runs it"),
    "`np.random.random()`, `rand()`, `random_sample()`, `sample()`, `ranf()`, `uniform()`":
        ("constant (no derivative)", "the draw is held fixed (pathwise derivative)"),
    "`np.random.standard_normal()`, `randn()`, `normal()`": ("constant (no derivative)", "held fixed"),
    "`np.random.normal(m, s)`, `np.random.normal(m)`":
        ("differentiated", "`m + s * z`, `z = np.random.standard_normal()`: Numba's formula, bit-identical"),
    "`np.random.uniform(a, b)`":
        ("differentiated", "`a + (b - a) * u`, `u = np.random.random()`: Numba's formula, bit-identical"),
    "array draws: `standard_normal((n, m))`, `rand(n)`, `randn(n, m)`, `normal(m, s, n)`, `size=`":
        ("differentiated", "a loop nest drawing each element in C order, as Numba fills them"),
    "`exponential`, `gamma`, `beta`, `poisson`, `randint`, `binomial`, other distributions":
        ("constant (no derivative)", "held fixed; an active parameter is refused (write "
                                     "`scale * np.random.standard_exponential()`)"),
    "`np.random.shuffle`, `permutation`, `choice`, `multinomial`, `dirichlet`":
        ("refused", "draw indices with `np.random.randint`, or permute before the call"),
    "a draw in a `while` loop": ("constant (no derivative)", "held fixed; the draw buffer grows as the loop runs"),
    "a draw in the test of a `while` loop": ("refused", "draw into a variable before the loop and at the end of its "
                                                        "body (`while z < p:`)"),
    "a draw in a `prange` loop": ("refused", "Numba keeps one generator per thread and the schedule decides which "
                                             "draws each thread makes, so no adjoint can replay them: draw an array "
                                             "before the loop and read `z[i]`"),
    "a draw in an inlined `@njit` helper": ("refused", "draw in the kernel and pass the value"),
    "a draw under `and`/`or`, `x if c else y` or in a comprehension":
        ("refused", "draw in an `if` statement or an explicit loop"),
    "`np.random` or `numba.cuda.random` in a CUDA kernel":
        ("refused", "draw before the launch (or in a kernel of its own) and pass the array in"),
}
_ADVICE = "draw them before the call and pass them in (`z = np.random.default_rng(0).standard_normal(n)`)"


def is_draw_name(canon) -> bool:
    """``canon`` (a canonical dotted name) is a function of NumPy's legacy generator."""
    return bool(canon) and canon.startswith("numpy.random.")


class Draws:
    """The pass (see the module docstring); ``nz``: the :class:`~.threeaddr.Normaliser`."""

    def __init__(self, nz):
        self.nz = nz
        self.buffers = {}           # "float64"/"int64" -> buffer name, made on first use

    def canon(self, func):
        dotted = self.nz.resolver.dotted(func)
        if dotted is None or dotted.split(".")[0] in self.nz.locals:
            return None
        return self.nz.resolver.canonical(dotted)

    def short(self, node):
        """``normal`` for a call of ``np.random.normal``, else None."""
        if isinstance(node, ast.Call):
            c = self.canon(node.func)
            if is_draw_name(c):
                return c[len("numpy.random."):]
        return None

    def err(self, node, construct, hint=_ADVICE):
        return self.nz.err(node, construct, hint)

    def run(self, tree: ast.FunctionDef) -> ast.FunctionDef:
        if not any(self.short(n) is not None for n in ast.walk(tree)):
            return tree
        if len(self.nz.stack) > 1:
            n = next(n for n in ast.walk(tree) if self.short(n) is not None)
            raise self.err(n, f"a random draw (`{ast.unparse(n.func)}`) inside the @njit helper "
                              f"`{self.nz.p.name}`", "draw in the kernel itself and pass the value to the helper")
        tree = copy.deepcopy(tree)
        tree.body = self.block(tree.body, ())
        made = [ast.Assign(targets=[name(b, True)], value=ast.List(elts=[], ctx=ast.Load()))
                for _, b in sorted(self.buffers.items())]
        for m in made:
            ast.copy_location(m, tree.body[0])
            ast.fix_missing_locations(m)
        tree.body = made + tree.body
        return tree

    def set_dtypes(self, info):
        """Give the buffers their element dtypes (after :class:`~.comprehensions.Comprehensions`
        recorded them in ``info``)."""
        for dt, b in self.buffers.items():
            info[b].dtype = dt
            info[b].growable = True     # draws in while loops: the CPU target grows the buffer

    def buffer(self, dtype):
        if dtype not in self.buffers:
            self.buffers[dtype] = self.nz.fresh("draws" if dtype == "float64" else "int_draws")
        return self.buffers[dtype]

    # ------------------------------------------------------------ statements
    def block(self, stmts, loops) -> list:
        out = []
        for s in stmts:
            out += self.stmt(s, loops)
        return out

    def stmt(self, s, loops) -> list:
        if isinstance(s, ast.For):
            pre = self.hoist(s, [s.iter], loops)
            kind = "prange" if isinstance(s.iter, ast.Call) and (self.canon(s.iter.func) or "").split(".")[-1] \
                == "prange" else "for"
            s.body = self.block(s.body, loops + ((kind, s),))
            s.orelse = self.block(s.orelse, loops)
            return pre + [s]
        if isinstance(s, ast.While):
            inner = [n for n in ast.walk(s.test) if self.short(n) is not None]
            if inner:
                raise self.err(inner[0], f"a random draw (`{ast.unparse(inner[0].func)}`) in the test of a while "
                                         "loop", "draw into a variable before the loop and again at the end of "
                                                 "its body (`z = np.random.random()`, `while z < p:`)")
            s.body = self.block(s.body, loops + (("while", s),))
            s.orelse = self.block(s.orelse, loops)
            return [s]
        if isinstance(s, ast.If):
            pre = self.hoist(s, [s.test], loops)
            s.body, s.orelse = self.block(s.body, loops), self.block(s.orelse, loops)
            return pre + [s]
        if isinstance(s, ast.Expr) and self.short(s.value) == "seed":
            for a in s.value.args:
                self.refuse_nested(a)
            self.check_loops(s.value, loops)
            return [s]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and \
                self.is_array_draw(s.value):
            self.check_loops(s.value, loops)
            return self.array_draw(s, s.targets[0].id, loops)
        if isinstance(s, (ast.FunctionDef, ast.ClassDef, ast.With, ast.Try)):
            return [s]
        if isinstance(s, ast.Assign):
            parts = [s.value] + list(s.targets)
        elif isinstance(s, ast.AugAssign):
            parts = [s.target, s.value]
        elif isinstance(s, ast.AnnAssign):
            parts = [s.value] if s.value is not None else []
        elif isinstance(s, (ast.Expr, ast.Return)):
            parts = [s.value] if s.value is not None else []
        else:
            parts = [getattr(s, f) for f in s._fields if isinstance(getattr(s, f, None), ast.expr)]
        pre = self.hoist(s, parts, loops)
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Name):
            return pre          # `np.random.standard_normal()` as a statement: drawn, not used
        return pre + [s]

    def check_loops(self, call, loops):
        for kind, _ in loops:
            if kind == "prange":
                raise self.err(call, f"a random draw (`{ast.unparse(call.func)}`) in a prange loop: Numba keeps "
                                     "one generator per thread, so the draws depend on the schedule and no adjoint "
                                     "can replay them",
                               "draw them before the loop into an array (`z = np.random.standard_normal(n)`) "
                               "and read `z[i]` in the prange loop")

    # ------------------------------------------------------------ expressions
    def hoist(self, s, parts, loops) -> list:
        """Replace the draws of the expressions ``parts`` (in evaluation order) by names bound to
        their buffer elements; return the statements to run before ``s``."""
        found = []                                  # (call node, dtype or "array"), evaluation order
        for p in parts:
            self.collect(p, found, guarded=False)
        if not found:
            return []
        pre, reads = [], {}
        for call, dt in found:
            self.check_loops(call, loops)
            short = self.short(call)
            if dt == "array":             # `m = np.random.rand(n) < p`: the array first, bound to a name
                arr = self.nz.fresh(short)
                pre += self.array_draw(ast.copy_location(ast.Assign(targets=[name(arr, True)], value=call), s),
                                       arr, loops)
                reads[id(call)] = name(arr)
                continue
            buf = self.buffer(dt)
            pre.append(ast.copy_location(ast.Expr(value=ast.Call(
                func=ast.Attribute(value=name(buf), attr="append", ctx=ast.Load()), args=[self.primitive(call)],
                keywords=[])), s))
            got = self.nz.fresh(REPARAMETRISED.get(short, (short,))[0])
            pre.append(ast.copy_location(ast.Assign(targets=[name(got, True)], value=ast.Subscript(
                value=name(buf), slice=ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)), ctx=ast.Load())), s))
            reads[id(call)] = name(got)
        _Replace(reads, self.value_of).visit(s)      # the header's draws only (bodies come later)
        for st in pre:
            ast.fix_missing_locations(st)
        return pre

    def collect(self, e, found, guarded):
        """Draws under ``e`` in Python's evaluation order (arguments before the call)."""
        if e is None:
            return
        short = self.short(e)
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.Lambda)):
            inner = [n for n in ast.walk(e) if self.short(n) is not None]
            if inner:
                raise self.err(inner[0], f"a random draw (`{ast.unparse(inner[0].func)}`) in a comprehension",
                               "write the loop (`for k in range(n): z[k] = np.random.standard_normal()`)")
            return
        sub_guard = guarded or isinstance(e, (ast.BoolOp, ast.IfExp))
        if isinstance(e, ast.BoolOp):
            children = e.values
        elif isinstance(e, ast.IfExp):
            children = [e.test, e.body, e.orelse]
        else:
            children = [v for f in e._fields for v in (getattr(e, f) if isinstance(getattr(e, f, None), list)
                                                        else [getattr(e, f, None)]) if isinstance(v, ast.AST)]
        if short is not None:
            children = list(e.args) + [k.value for k in e.keywords]
            if self.is_array_draw(e):
                children = []           # its parameters are checked by array_draw
        for k, c in enumerate(children):
            if isinstance(c, ast.expr):
                # the first operand of `and`/`or` and the test of `a if t else b` always run
                self.collect(c, found, sub_guard and not (k == 0 and isinstance(e, (ast.BoolOp, ast.IfExp))))
        if short is None:
            return
        if guarded:
            raise self.err(e, f"a random draw (`{ast.unparse(e.func)}`) under `and`/`or` or a conditional "
                              "expression", "draw it in an `if` statement (`if c: z = np.random.normal()`)")
        if short == "seed":
            raise self.err(e, "`np.random.seed` inside an expression", "call it as a statement")
        if short in ("shuffle", "permutation", "choice", "multinomial", "dirichlet", "bytes"):
            raise self.err(e, f"`np.random.{short}` in a kernel",
                           "draw indices with `np.random.randint` or permute before the call")
        if self.is_array_draw(e):
            found.append((e, "array"))
            return
        if short not in REPARAMETRISED and short not in INTEGER and short not in OPAQUE:
            raise self.err(e, f"`np.random.{short}` in a kernel", _ADVICE)
        found.append((e, "int64" if short in INTEGER else "float64"))

    def refuse_nested(self, e):
        inner = [n for n in ast.walk(e) if self.short(n) is not None]
        if inner:
            raise self.err(inner[0], "a random draw inside the argument of np.random.seed", "draw it first")

    def is_array_draw(self, e) -> bool:
        short = self.short(e)
        if short is None or short == "seed":
            return False
        if short in ("rand", "randn"):
            return bool(e.args)
        if any(k.arg == "size" for k in e.keywords):
            return True
        return len(e.args) > N_PARAMS.get(short, len(e.args))

    def numpy_alias(self) -> str:
        """The name the kernel's module binds to numpy (``np``)."""
        g = self.nz.resolver.globals
        if g is not None:
            return "np" if g.get("np") is np else next((k for k, v in sorted(g.items(), key=lambda kv: kv[0])
                                                        if v is np), "np")
        return next((k for k, v in sorted(self.nz.resolver.imports.items()) if v == "numpy"), "np")

    def primitive(self, call):
        """The call that draws (a primitive for the reparametrised distributions)."""
        short = self.short(call)
        func = copy.deepcopy(call.func)
        if short in REPARAMETRISED:
            func.attr = REPARAMETRISED[short][0]
            if len(call.args) > REPARAMETRISED[short][1] or call.keywords:
                raise self.err(call, f"`{ast.unparse(call)}`: arguments", "pass the parameters positionally")
            return ast.copy_location(ast.Call(func=func, args=[], keywords=[]), call)
        if call.keywords:
            raise self.err(call, f"`{ast.unparse(call)}`: keyword arguments", "pass the parameters positionally")
        return ast.copy_location(ast.Call(func=func, args=list(call.args), keywords=[]), call)

    def value_of(self, call, read):
        """The value of the draw ``call`` from ``read``, its buffer element (Numba's formulas)."""
        short = self.short(call)
        if self.is_array_draw(call):
            return read
        a = call.args
        if short == "normal" and len(a) == 2:      # loc + scale * z
            return ast.BinOp(left=a[0], op=ast.Add(), right=ast.BinOp(left=a[1], op=ast.Mult(), right=read))
        if short == "normal" and len(a) == 1:      # loc + 1.0 * z
            return ast.BinOp(left=a[0], op=ast.Add(), right=read)
        if short == "uniform" and len(a) == 2:     # low + (high - low) * u
            width = ast.BinOp(left=copy.deepcopy(a[1]), op=ast.Sub(), right=copy.deepcopy(a[0]))
            return ast.BinOp(left=a[0], op=ast.Add(), right=ast.BinOp(left=width, op=ast.Mult(), right=read))
        if short == "uniform" and len(a) == 1:
            raise self.err(call, "`np.random.uniform(low)`", "pass both bounds")
        return read

    def array_draw(self, s, target, loops) -> list:
        """``Z = np.random.f(params, size)`` -> ``Z = np.empty(size)`` and a loop nest drawing each element."""
        call = s.value
        short = self.short(call)
        if short in ("rand", "randn"):
            params, extents = [], list(call.args)
        else:
            k = N_PARAMS[short]
            params = list(call.args[:k])
            size = call.args[k] if len(call.args) > k else next(kw.value for kw in call.keywords if kw.arg == "size")
            extents = list(size.elts) if isinstance(size, ast.Tuple) else [size]
        for e in params + extents:
            if any(self.short(n) is not None for n in ast.walk(e)):
                raise self.err(e, "a random draw inside the arguments of an array draw", "draw it first")
        np_ = self.numpy_alias()
        shape_names, pre = [], []
        for e in extents:
            if isinstance(e, ast.Constant):
                shape_names.append(e)
                continue
            n = self.nz.fresh(target + "_extent")
            pre.append(ast.copy_location(ast.Assign(targets=[name(n, True)], value=e), s))
            shape_names.append(name(n))
        dtype = "int64" if short in INTEGER else "float64"
        shape = ast.Tuple(elts=[copy.deepcopy(x) for x in shape_names], ctx=ast.Load())
        alloc = ast.Call(func=ast.parse(f"{np_}.empty", mode="eval").body, args=[shape],
                         keywords=[ast.keyword(arg="dtype", value=ast.parse(f"{np_}.{dtype}", mode="eval").body)])
        pre.append(ast.copy_location(ast.Assign(targets=[name(target, True)], value=alloc), s))
        idx = [self.nz.fresh(target + "_i" if len(extents) == 1 else f"{target}_i{k}") for k in range(len(extents))]
        scalar = ast.Call(func=copy.deepcopy(call.func), args=[copy.deepcopy(p) for p in params], keywords=[])
        if short in ("rand", "randn"):
            scalar.args = []
        sub = ast.Subscript(value=name(target), slice=name(idx[0]) if len(idx) == 1 else
                            ast.Tuple(elts=[name(i) for i in idx], ctx=ast.Load()), ctx=ast.Store())
        inner: ast.stmt = ast.copy_location(ast.Assign(targets=[sub], value=scalar), s)
        nest = [inner]
        for i, ext in reversed(list(zip(idx, shape_names))):
            nest = [ast.copy_location(ast.For(target=name(i, True), iter=ast.Call(
                func=name("range"), args=[copy.deepcopy(ext)], keywords=[]), body=nest, orelse=[]), s)]
        for st in pre + nest:
            ast.fix_missing_locations(st)
        return pre + self.block(nest, loops)


class _Replace(ast.NodeTransformer):
    """Each draw (by id) -> its value read from the buffer (arguments first: draws nest)."""

    def __init__(self, reads, value_of):
        self.reads, self.value_of = reads, value_of

    def visit_Call(self, node):
        key = id(node)
        node = self.generic_visit(node)
        if key in self.reads:
            return self.value_of(node, self.reads[key])
        return node

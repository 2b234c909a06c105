"""Activity analysis of a normalised driver: which names carry derivatives.

Flow-insensitive and conservative (a name active anywhere has a shadow
everywhere; a shadow of a passive value stays zero, so this costs time, never
correctness).  Names that may share memory -- ``v = u[1:-1]``, ``v = u``,
``u, v = v, u`` -- are one *group* with one activity.  Seeds: ``Duplicated``
arrays and ``Active`` floats.  A name becomes active when:

- it is assigned an expression reading an active name in a differentiable
  position (not an index, a ``.shape``, a comparison, ``len``/``int``/
  ``np.zeros_like`` ...);
- a kernel call with an active argument may write it (see
  :mod:`adtrans.driver.effects`), or it receives a kernel's active result (each of the names
  a returned tuple is unpacked into);
- it is the receive buffer of a point-to-point MPI call (the sender's buffer may
  be active on another rank: the *channel* is active), or of a collective whose
  send buffer is active; or the result of ``comm.allreduce`` & co. of an active value.

All ranks must pass the same activities (``Duplicated``/``Active``/``Const``
per argument) so that they take the same decisions.
"""
from __future__ import annotations

import ast

from ..mpi.specs import SUPPORTED
from .normalise import (arg_names, reshape_source, AppendCall, Assign, AugAssign, CallStmt, For, If, KernelCall, MpiCall, SetItem,
                        Unpack, While)
from .calls import BUILTIN_PASSIVE, METHOD_PASSIVE, NUMPY_FILLS, NUMPY_PASSIVE

PASSIVE_ATTRS = frozenset({"shape", "size", "ndim", "dtype", "itemsize", "nbytes", "strides", "flags",
                           "rank", "Get_rank", "Get_size"})


class Activity:
    """Activity of the names of a :class:`~adtrans.driver.normalise.DriverIR`.

    ``param_activity``: ``{param: "dup" | "active" | "const"}``.  ``written``:
    a function giving the written parameter positions of a kernel.
    """

    def __init__(self, ir, param_activity: dict, resolver, written):
        self.ir, self.resolver, self.written = ir, resolver, written
        self.parent: dict = {}
        self.active_roots: set = set()
        for p, a in param_activity.items():
            if a in ("dup", "active"):
                self.mark(p)
        state = None
        while state != self._state():
            state = self._state()
            self._block(ir.body)

    def _state(self):
        return (frozenset(n for n in self.parent if self.name(n)),
                len({self.find(n) for n in list(self.parent)}))

    # -- union-find
    def find(self, n):
        self.parent.setdefault(n, n)
        while self.parent[n] != n:
            self.parent[n] = self.parent[self.parent[n]]
            n = self.parent[n]
        return n

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb
            if ra in self.active_roots:
                self.active_roots.discard(ra)
                self.active_roots.add(rb)

    def mark(self, n):
        self.active_roots.add(self.find(n))

    def name(self, n: str) -> bool:
        """Is the name ``n`` active?"""
        return n in self.parent and self.find(n) in self.active_roots

    # -- expressions
    def expr(self, e) -> bool:
        """Does ``e`` carry a derivative (reads an active name in a differentiable position)?"""
        if e is None or isinstance(e, ast.Constant):
            return False
        if isinstance(e, ast.Name):
            return self.name(e.id)
        if isinstance(e, ast.Subscript):
            return self.expr(e.value)
        if isinstance(e, ast.Attribute):
            return e.attr not in PASSIVE_ATTRS and self.expr(e.value)
        if isinstance(e, (ast.Compare, ast.BoolOp)):
            return False
        if isinstance(e, ast.UnaryOp):
            return not isinstance(e.op, (ast.Not, ast.Invert)) and self.expr(e.operand)
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, (ast.FloorDiv, ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)):
                return False
            return self.expr(e.left) or self.expr(e.right)
        if isinstance(e, ast.Call):
            kind = self.resolver.classify(e)
            if kind.kind == "numpy" and kind.name in NUMPY_PASSIVE:
                return False
            if kind.kind == "numpy" and kind.name in NUMPY_FILLS:       # only the fill value carries one
                k = NUMPY_FILLS[kind.name]
                fill = next((kw.value for kw in e.keywords if kw.arg == "fill_value"),
                            e.args[k] if len(e.args) > k else None)
                return fill is not None and self.expr(fill)
            if kind.kind == "builtin" and kind.name in BUILTIN_PASSIVE:
                return False
            if kind.kind in ("mpi", "passive"):
                return False
            if kind.kind == "method":
                if kind.name in METHOD_PASSIVE:
                    return False
                return self.expr(kind.receiver) or any(self.expr(a) for a in e.args)
            if kind.kind == "unknown" and kind.receiver is not None and self.expr(kind.receiver):
                return True
            return any(self.expr(a) for a in e.args) or any(self.expr(k.value) for k in e.keywords)
        if isinstance(e, ast.IfExp):
            return self.expr(e.body) or self.expr(e.orelse)
        return any(self.expr(c) for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr))

    # -- statements
    def _block(self, stmts):
        for s in stmts:
            self._stmt(s)

    def _stmt(self, s):
        if isinstance(s, Assign):
            self.union(s.target, s.target)
            if s.kind == "alias":
                root = s.value
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    root = root.value
                self.union(s.target, root.id)
            elif s.kind == "pure" and reshape_source(s.value) is not None:
                self.union(s.target, reshape_source(s.value))     # may be a view: one array
            elif s.kind == "kernel":
                if self.kernel(s.call):
                    self.mark(s.target)
            elif s.kind == "mpi":
                self.mpi(s.call, s.target)
            elif self.expr(s.value):
                self.mark(s.target)
        elif isinstance(s, SetItem):
            if self.expr(s.value):
                self.mark(s.container)
        elif isinstance(s, AugAssign):
            if self.expr(s.value):
                self.mark(s.target)
        elif isinstance(s, CallStmt):
            if isinstance(s.call, KernelCall):
                self.kernel(s.call)
            elif isinstance(s.call, MpiCall):
                self.mpi(s.call, None)
            elif isinstance(s.call, AppendCall) and self.expr(s.call.value):
                self.mark(s.call.target)
        elif isinstance(s, (For, While)):
            self._block(s.body)
        elif isinstance(s, If):
            self._block(s.body)
            self._block(s.orelse)
        elif isinstance(s, Unpack):
            for t in s.targets:
                self.find(t)
            if s.kind == "kernel" and self.kernel(s.call):
                for t in s.targets:
                    self.mark(t)
            elif s.kind != "kernel" and isinstance(s.value, ast.Name) and self.expr(s.value):
                for t in s.targets:         # a, b = parts: each element may be active
                    self.mark(t)

    def kernel(self, call: KernelCall) -> bool:
        """Mark what an active kernel call writes; returns whether the call is active."""
        active = any(self.name(n) for a in call.args for n in arg_names(a))
        if active:
            for i in self.written(call.kernel):
                for n in arg_names(call.args[i]):
                    self.mark(n)
        return active

    def mpi(self, call: MpiCall, target):
        spec = SUPPORTED[call.method]
        if spec.kind == "object":
            val = call.args.get("sendobj", call.args.get("obj"))
            if target is not None and self.expr(val):
                self.mark(target)
            return
        bufs = {p: self.buffer_name(call.args.get(p)) for p in spec.buffers}
        collective = spec.collective
        send_active = any(self.name(bufs[p]) for p, r in spec.buffers.items() if r in ("send", "inout")
                          and bufs[p])
        for p, role in spec.buffers.items():
            if role in ("recv", "inout") and bufs[p] and (not collective or send_active):
                self.mark(bufs[p])

    @staticmethod
    def buffer_name(e):
        if isinstance(e, (ast.List, ast.Tuple)):
            e = e.elts[0]
        return e.id if isinstance(e, ast.Name) else None

"""Give each straight-line assignment of a scalar its own name (static single assignment
within a loop iteration), joining ``if`` branches with copies.

``x = a; if c: x = b; use(x)`` becomes
``x = a; if c: x_2 = b; x_3 = x_2 else: x_3 = x; use(x_3)``.
A value that is overwritten no longer needs a tape entry: the reverse sweep
still finds the old value under its own name.  Names assigned inside a nested
loop keep one name across iterations (they are loop-carried there).
"""
from __future__ import annotations

import ast

from ..ir.liveness import definitely_assigns, fixed_code, upward_exposed
from ..ir.walk import iter_nodes, iter_stmts, reads


def reads_outside_loops(body) -> dict:
    """For each loop (by id): the names read by statements outside its body."""
    stmts = list(iter_stmts(body))
    loops = [s for s, _ in stmts if isinstance(s, (ast.For, ast.While))]
    out = {}
    for L in loops:
        names = set()
        for s, parents in stmts:
            if s is L or any(p is L for p in parents):
                continue
            names |= reads(s)
        out[id(L)] = names
    return out


def _stores_in(stmts) -> set:
    return {n.id for s in stmts for n in iter_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


class _Reads(ast.NodeTransformer):
    def __init__(self, env):
        self.env = env

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.env:
            return ast.copy_location(ast.Name(id=self.env[node.id], ctx=ast.Load()), node)
        return node


class SSA:
    def __init__(self, fresh, arrays, keep, read_outside):
        self.fresh = fresh                  # base -> new unique name
        self.arrays = arrays                # array names are never versioned
        self.keep = set(keep)               # names that must hold their value at the end (results)
        self.read_outside = read_outside    # id(loop) -> names read outside its body

    def run(self, body, params):
        from collections import Counter
        self.counts = Counter(n.id for st in body for n in iter_nodes(st)
                              if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        self.counts.update(params)
        env = {p: p for p in params}
        out = self.block(body, env, set(params), self._loop_names(body), [])
        tail = [self._copy(x, env[x]) for x in sorted(self.keep) if x in env and env[x] != x]
        return out + tail

    def _loop_names(self, stmts) -> set:
        out = set()
        for s, _ in iter_stmts(stmts):
            if isinstance(s, (ast.For, ast.While)):
                out |= _stores_in(s.body)
                if isinstance(s, ast.For):
                    out.add(s.target.id)
        return out

    def _copy(self, dst, src):
        return ast.Assign(targets=[ast.Name(dst, ast.Store())], value=ast.Name(src, ast.Load()))

    def _body_local(self, loop) -> set:
        """Names of the loop body that every iteration assigns before reading."""
        with fixed_code():
            return {x for x in _stores_in(loop.body) if not upward_exposed(loop.body, x)}

    def block(self, stmts, env, defined, frozen, cont):
        """``cont``: the statement lists that run after ``stmts`` (innermost first)."""
        out = []
        for k, s in enumerate(stmts):
            rest = [stmts[k + 1:]] + cont
            if isinstance(s, ast.If):
                out.append(self.if_(s, env, defined, frozen, rest))
            elif isinstance(s, (ast.For, ast.While)):
                out.extend(self.loop(s, env, defined, frozen, rest))
            else:
                out.append(self.simple(s, env, defined, frozen))
        return out

    def live_out(self, x, cont) -> bool:
        for stmts in cont:
            if upward_exposed(stmts, x):
                return True
            if definitely_assigns(stmts, x):
                return False
        return x in self.keep

    def localise(self, loop, cont):
        """Give names private to this loop (its index too) their own names, when the same names
        are used elsewhere: ``for l in ...`` in two loops become two variables."""
        from collections import Counter
        inner = Counter(n.id for n in iter_nodes(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        mapping = {}
        for x in sorted(self._body_local(loop) | ({loop.target.id} if isinstance(loop, ast.For) else set())):
            if x in self.arrays or self.counts[x] <= inner[x] or self.live_out(x, cont):
                continue
            if isinstance(loop, ast.While) and x == loop.test.id:
                continue
            mapping[x] = self.fresh(x)
        if mapping:
            for n in iter_nodes(loop):
                if isinstance(n, ast.Name) and n.id in mapping:
                    n.id = mapping[n.id]

    def if_(self, s, env, defined, frozen, cont):
        s.test = _Reads(env).visit(s.test)
        env_b, env_o = dict(env), dict(env)
        def_b, def_o = set(defined), set(defined)
        s.body = self.block(s.body, env_b, def_b, frozen, cont)
        s.orelse = self.block(s.orelse, env_o, def_o, frozen, cont)
        for x in sorted(set(env_b) | set(env_o)):
            vb = env_b.get(x) if x in def_b else None
            vo = env_o.get(x) if x in def_o else None
            if vb == vo or vb is None or vo is None:
                # same version, or defined on one path only: keep that path's name
                v = vb if vb is not None else vo
                if v is not None:
                    env[x] = v
                continue
            j = self.fresh(x)
            s.body = [b for b in s.body if not isinstance(b, ast.Pass)] + [self._copy(j, vb)]
            s.orelse = s.orelse + [self._copy(j, vo)]
            env[x] = j
        defined |= def_b | def_o
        return s

    def loop(self, s, env, defined, frozen, cont):
        out = []
        self.localise(s, cont)
        inner = _stores_in(s.body) | ({s.target.id} if isinstance(s, ast.For) else set())
        for x in sorted(inner):           # names the loop assigns get back their own name first
            if env.get(x, x) != x:
                out.append(self._copy(x, env[x]))
            env[x] = x
        if isinstance(s, ast.For):
            s.iter = _Reads(env).visit(s.iter)
        else:
            s.test = _Reads(env).visit(s.test)
        local = self._body_local(s) - ({s.test.id} if isinstance(s, ast.While) else set())
        body_frozen = self._loop_names(s.body) | (inner - local) | (frozen - inner)
        body_env = dict(env)
        s.body = self.block(s.body, body_env, (set(defined) | inner) - local, body_frozen, [s.body] + cont)
        outside = self.read_outside.get(id(s), set())
        for x in sorted(local):
            if body_env.get(x, x) != x and x in outside:
                s.body.append(self._copy(x, body_env[x]))
        for x in inner:
            env[x] = x
        defined |= inner
        out.append(s)
        return out

    def simple(self, s, env, defined, frozen):
        s = _Reads(env).visit(s)
        t = s.targets[0] if isinstance(s, ast.Assign) else (s.target if isinstance(s, ast.AugAssign) else None)
        if not isinstance(t, ast.Name) or t.id in self.arrays:
            return s
        x = t.id
        if x in frozen or x not in defined:
            defined.add(x)
            env[x] = x
            return s
        new = self.fresh(x)
        if isinstance(s, ast.AugAssign):
            s = ast.copy_location(ast.Assign(targets=[ast.Name(new, ast.Store())],
                                             value=ast.BinOp(left=ast.Name(env.get(x, x), ast.Load()),
                                                             op=s.op, right=s.value)), s)
        else:
            s.targets = [ast.Name(new, ast.Store())]
        env[x] = new
        return s

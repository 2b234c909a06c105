"""Lower ``return`` inside control flow, ``break`` and ``continue`` to boolean flags.

After this pass a function body has at most one ``return``, as its last
statement, no ``break``/``continue`` and no loop ``else`` (it becomes an ``if``
after the loop on a flag its breaks set).  ``range``/``prange`` loops that can be
left early become ``while`` loops whose condition tests the flags, so the reverse
sweep replays exactly the iterations the forward sweep ran (their count is
recorded); a loop over another sequence keeps iterating with its body guarded.
"""
from __future__ import annotations

import ast
import copy

from ..ir.names import NameAllocator
from ..ir.nodes import Rename, name
from ..ir.walk import iter_nodes


def _contains(stmts, kinds, stop_at_loops=False) -> bool:
    for s in stmts:
        if stop_at_loops and isinstance(s, (ast.For, ast.While)):
            # a jump inside an inner loop leaves that loop only; one in its `else` block
            # leaves the loop around it
            if _contains(s.orelse, kinds, stop_at_loops):
                return True
            continue
        for node in iter_nodes(s) if not stop_at_loops else _walk_no_loops(s):
            if isinstance(node, kinds):
                return True
    return False


def _walk_no_loops(node):
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.For, ast.While)):
            for s in child.orelse:
                yield from _walk_no_loops(s)
            continue
        yield from _walk_no_loops(child)


def _always_leaves(stmts) -> bool:
    """True if every path through ``stmts`` ends in return/break/continue."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Break, ast.Continue)):
        return True
    if isinstance(last, ast.If):
        return _always_leaves(last.body) and _always_leaves(last.orelse)
    return False


class JumpError(SyntaxError):
    """A jump this pass cannot lower; ``node`` is the user's statement behind it and ``hint``
    what to write instead (threeaddr reports both with the location)."""

    def __init__(self, msg, node, hint="rewrite the loop with an explicit flag"):
        super().__init__(msg)
        self.node, self.hint = node, hint


def _is_range(it) -> bool:
    """``range(...)`` (or ``prange(...)``, which Numba runs serially once a jump leaves it)."""
    return isinstance(it, ast.Call) and isinstance(it.func, (ast.Name, ast.Attribute)) \
        and ast.unparse(it.func).split(".")[-1] in ("range", "prange") and not it.keywords \
        and 1 <= len(it.args) <= 3


def _mark_breaks(stmts, flag):
    """Copies of ``stmts`` where each ``break`` of this loop (not of inner loops) first sets ``flag``."""
    out = []
    for s in stmts:
        if isinstance(s, ast.Break):
            out += [_assign(flag, ast.Constant(True), s), s]
        elif isinstance(s, ast.If):
            out.append(ast.copy_location(ast.If(test=s.test, body=_mark_breaks(s.body, flag),
                                                orelse=_mark_breaks(s.orelse, flag)), s))
        elif isinstance(s, (ast.For, ast.While)) and s.orelse:     # its `else` is ours
            inner = ast.copy_location(type(s)(**{f: getattr(s, f) for f in s._fields}), s)
            inner.orelse = _mark_breaks(s.orelse, flag)
            out.append(inner)
        else:
            out.append(s)
    return out


def _as_load(target):
    """A copy of an assignment target (a name or a tuple of names) as an expression."""
    node = copy.deepcopy(target)
    for n in iter_nodes(node):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()
    return node


def _assign(target, value, like):
    node = ast.Assign(targets=[name(target, True)], value=value)
    return ast.copy_location(node, like)


def _not_any(flags):
    """``not (f1 or f2 ...)`` as an AST."""
    if len(flags) == 1:
        test = name(flags[0])
    else:
        test = ast.BoolOp(op=ast.Or(), values=[name(f) for f in flags])
    return ast.UnaryOp(op=ast.Not(), operand=test)


class JumpLowering:
    """Rewrite one function body; ``ret_names`` are the variables holding the result."""

    def __init__(self, alloc: NameAllocator):
        self.alloc = alloc
        self.done_flag = None      # set when the function has an early return
        self.ret_names: list[str] | None = None
        self.returns_value = False

    # --- entry point -------------------------------------------------------
    def run(self, fn: ast.FunctionDef) -> list[ast.stmt]:
        self.fn = fn
        body = list(fn.body)
        returns = [n for s in body for n in iter_nodes(s) if isinstance(n, ast.Return)]
        self.returns_value = any(r.value is not None for r in returns)
        early = not (len(returns) <= 1 and (not returns or body[-1] is returns[0]))
        if early:
            self.done_flag = self.alloc.fresh("returned")
        new = self.block(body, loop_flags=None)
        if self.done_flag:
            new.insert(0, _assign(self.done_flag, ast.Constant(False), fn))
        if self.ret_names is not None and early:
            new.append(ast.copy_location(ast.Return(value=self._ret_value()), fn.body[-1]))
        return new

    def _ret_value(self):
        if len(self.ret_names) == 1:
            return name(self.ret_names[0])
        return ast.Tuple(elts=[name(n) for n in self.ret_names], ctx=ast.Load())

    # --- blocks ------------------------------------------------------------
    def block(self, stmts, loop_flags):
        """Lower a statement list.  ``loop_flags`` = (break_flag, continue_flag) of the innermost loop."""
        out = []
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(s, ast.Return):
                if self.done_flag is None:          # the single final return
                    out.append(s)
                    return out
                out.extend(self._early_return(s))
                return out
            if isinstance(s, ast.Break):
                out.append(_assign(loop_flags[0], ast.Constant(True), s))
                return out
            if isinstance(s, ast.Continue):
                out.append(_assign(loop_flags[1], ast.Constant(True), s))
                return out
            if isinstance(s, ast.If) and rest and (_always_leaves(s.body) or _always_leaves(s.orelse)):
                # `if c: return a` followed by more code: the rest belongs to the other branch
                body, orelse = (s.body, s.orelse + rest) if _always_leaves(s.body) else (s.body + rest, s.orelse)
                out.append(ast.copy_location(ast.If(test=s.test, body=self.block(body, loop_flags) or [ast.Pass()],
                                                    orelse=self.block(orelse, loop_flags)), s))
                return out
            if isinstance(s, ast.If):
                new_if = ast.copy_location(ast.If(test=s.test, body=self.block(s.body, loop_flags) or [ast.Pass()],
                                                  orelse=self.block(s.orelse, loop_flags)), s)
                out.append(new_if)
                flags = self._flags_set_by([s], loop_flags)
                if flags and rest:
                    guarded = self.block(rest, loop_flags)
                    if guarded:
                        out.append(ast.copy_location(ast.If(test=_not_any(flags), body=guarded, orelse=[]), rest[0]))
                    return out
                continue
            if isinstance(s, (ast.For, ast.While)) and s.orelse:
                # `for ... else`: the else block runs when no `break` left the loop
                loop = ast.copy_location(type(s)(**{f: getattr(s, f) for f in s._fields}), s)
                loop.orelse = []
                if _contains(s.body, ast.Break, stop_at_loops=True):
                    left = self.alloc.fresh("left_by_break")
                    loop.body = _mark_breaks(s.body, left)
                    after = [_assign(left, ast.Constant(False), s), loop,
                             ast.copy_location(ast.If(test=_not_any([left]), body=s.orelse, orelse=[]), s.orelse[0])]
                else:
                    after = [loop] + s.orelse
                out.extend(self.block(after + rest, loop_flags))
                return out
            if isinstance(s, (ast.For, ast.While)):
                out.extend(self._loop(s))
                if self.done_flag and _contains([s], ast.Return) and rest:
                    guarded = self.block(rest, loop_flags)
                    exit_flags = [self.done_flag]
                    if guarded:
                        out.append(ast.copy_location(ast.If(test=_not_any(exit_flags), body=guarded, orelse=[]), rest[0]))
                    return out
                continue
            out.append(s)
        return out

    def _flags_set_by(self, stmts, loop_flags):
        flags = []
        if self.done_flag and _contains(stmts, ast.Return):
            flags.append(self.done_flag)
        if loop_flags:
            if _contains(stmts, ast.Break, stop_at_loops=True):
                flags.append(loop_flags[0])
            if _contains(stmts, ast.Continue, stop_at_loops=True):
                flags.append(loop_flags[1])
        return flags

    def _early_return(self, s: ast.Return):
        out = []
        if s.value is not None:
            values = s.value.elts if isinstance(s.value, ast.Tuple) else [s.value]
            if self.ret_names is None:
                self.ret_names = [self.alloc.fresh("result") for _ in values]
            for name, v in zip(self.ret_names, values):
                out.append(_assign(name, v, s))
        out.append(_assign(self.done_flag, ast.Constant(True), s))
        return out

    # --- loops -------------------------------------------------------------
    def _loop(self, loop):
        has_break = _contains(loop.body, ast.Break, stop_at_loops=True)
        has_cont = _contains(loop.body, ast.Continue, stop_at_loops=True)
        has_ret = self.done_flag is not None and _contains(loop.body, ast.Return)
        if not (has_break or has_cont or has_ret):
            new = ast.copy_location(type(loop)(**{f: getattr(loop, f) for f in loop._fields}), loop)
            new.body = self.block(loop.body, None)
            return [new]
        brk = self.alloc.fresh("broke") if (has_break or has_ret) else None
        cont = self.alloc.fresh("skip_rest") if has_cont else None
        body = self.block(loop.body, (brk, cont))
        pre, stop_flags = [], [f for f in (brk, self.done_flag if has_ret else None) if f]
        if brk:
            pre.append(_assign(brk, ast.Constant(False), loop))
        if cont:
            body.insert(0, _assign(cont, ast.Constant(False), loop))
        if isinstance(loop, ast.While):
            test = loop.test
            if stop_flags:
                test = ast.BoolOp(op=ast.And(), values=[test, _not_any(stop_flags)])
            return pre + [ast.copy_location(ast.While(test=test, body=body, orelse=[]), loop)]
        if not stop_flags:   # only `continue`: keep the counted loop
            return pre + [ast.copy_location(ast.For(target=loop.target, iter=loop.iter, body=body,
                                                    orelse=[]), loop)]
        if not (_is_range(loop.iter) and isinstance(loop.target, ast.Name)):
            return pre + [self._guarded_for(loop, body, stop_flags)]
        return pre + self._for_as_while(loop, body, stop_flags)

    def _guarded_for(self, loop: ast.For, body, stop_flags):
        """A ``for`` loop left early that stays a ``for`` loop over the same sequence (a loop over
        an array, ``for v in x[i]``; every loop of a driver): it keeps iterating, with its body
        skipped once a flag is set, so its trip count is the sequence's.  When its variables are
        read after the loop they must end on the element it left at, not the last one: the loop
        then runs over fresh names (``v_item``) and the guarded body assigns ``v = v_item``."""
        own = {id(n) for n in iter_nodes(loop)}
        targets = sorted({n.id for n in iter_nodes(loop.target) if isinstance(n, ast.Name)})
        read_after = any(isinstance(n, ast.Name) and n.id in targets and isinstance(n.ctx, ast.Load)
                         and id(n) not in own for n in iter_nodes(self.fn))
        target = loop.target
        if read_after:
            fresh = {x: self.alloc.fresh(x + "_item") for x in targets}
            target = Rename(fresh).visit(copy.deepcopy(loop.target))
            bind = ast.Assign(targets=[copy.deepcopy(loop.target)], value=Rename(fresh).visit(_as_load(loop.target)))
            body = [ast.copy_location(bind, loop)] + list(body)
        guard = ast.copy_location(ast.If(test=_not_any(stop_flags), body=body or [ast.Pass()], orelse=[]), loop)
        return ast.copy_location(ast.For(target=target, iter=loop.iter, body=[guard], orelse=[]), loop)

    def _for_as_while(self, loop: ast.For, body, stop_flags):
        args = list(loop.iter.args)
        start, stop, step = (ast.Constant(0), args[0], ast.Constant(1)) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else ast.Constant(1))
        k = self.alloc.fresh(loop.target.id + "_next")
        stop_v = self.alloc.fresh(loop.target.id + "_stop")
        pre = [_assign(k, start, loop), _assign(stop_v, stop, loop)]
        if isinstance(step, ast.Constant) and isinstance(step.value, int):
            if step.value == 0:
                raise JumpError("range() step of 0", loop, "use a step other than 0")
            cmp = ast.Lt() if step.value > 0 else ast.Gt()
            in_range = ast.Compare(left=name(k), ops=[cmp], comparators=[name(stop_v)])
        else:
            step_v = self.alloc.fresh(loop.target.id + "_step")
            pre.append(_assign(step_v, step, loop))
            step = name(step_v)
            in_range = ast.IfExp(test=ast.Compare(left=name(step_v), ops=[ast.Gt()], comparators=[ast.Constant(0)]),
                                 body=ast.Compare(left=name(k), ops=[ast.Lt()], comparators=[name(stop_v)]),
                                 orelse=ast.Compare(left=name(k), ops=[ast.Gt()], comparators=[name(stop_v)]))
        test = ast.BoolOp(op=ast.And(), values=[in_range, _not_any(stop_flags)])
        head = [_assign(loop.target.id, name(k), loop),
                _assign(k, ast.BinOp(left=name(k), op=ast.Add(), right=step), loop)]
        return pre + [ast.copy_location(ast.While(test=test, body=head + body, orelse=[]), loop)]

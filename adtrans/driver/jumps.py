"""Drivers as users write them: early ``return``, ``break``/``continue`` and Python helpers.

Two source-level rewrites that run before the driver normaliser
(:mod:`adtrans.driver.normalise`) sees a function body:

- :func:`lower_jumps`: ``return`` inside control flow, ``break`` and ``continue``
  become boolean flags (the kernel normaliser's :class:`~adtrans.normalise.jumps.JumpLowering`),
  with one change for drivers: a ``for`` loop that is left early stays a ``for``
  loop over the same sequence whose body is guarded by the flags (``for s in
  range(n): if not broke: ...``), so its length is known when it starts (the
  checkpointing schedules of :mod:`adtrans.driver.checkpoint` need it) and any
  sequence can be looped over.  After it the body has one ``return``, last.
  ``if comm.Get_rank() == 0: return m[1]`` then ``return 0.0`` becomes
  ``if ...: result = m[1] else: result = 0.0`` and ``return result``.
- :func:`inline_helper`: the body of a plain-Python helper function called from
  the driver, with its locals renamed (``helper_x``), its parameters bound to the
  call's arguments (arrays by reference, as Python passes them), its jumps lowered
  and its result in one variable.  Every statement takes the location of the call
  (comments and error messages of the generated adjoint name the driver's line).
"""
from __future__ import annotations

import ast
import builtins
import copy
import inspect

from ..ir.names import NameAllocator
from ..ir.nodes import Rename
from ..normalise.jumps import JumpError, JumpLowering
from ..parse import parse_function
from ..ir.walk import iter_nodes


class DriverJumps(JumpLowering):
    """:class:`JumpLowering` that keeps ``for`` loops (any sequence) and guards their body."""

    def _for_as_while(self, loop: ast.For, body, stop_flags):
        return [self._guarded_for(loop, body, stop_flags)]


def lower_jumps(fn: ast.FunctionDef, taken: set, error) -> tuple[list, list]:
    """``fn``'s body without early returns, ``break`` or ``continue`` (see the module doc).

    ``taken``: names the new flags must not reuse; ``error(node, construct, hint)``
    builds the :class:`~adtrans.errors.UnsupportedError`.  Returns ``(body, result
    names)`` (the variables holding the result when there were early returns).
    """
    lower = DriverJumps(NameAllocator(taken))
    try:
        body = lower.run(fn)
    except JumpError as exc:
        raise error(exc.node, str(exc), exc.hint) from None
    return body, list(lower.ret_names or [])


def _relocate(node, like):
    for n in iter_nodes(node):
        if "lineno" in n._attributes:
            n.lineno, n.col_offset = like.lineno, like.col_offset
            n.end_lineno, n.end_col_offset = getattr(like, "end_lineno", like.lineno), \
                getattr(like, "end_col_offset", like.col_offset)
    return node


def bind_arguments(call: ast.Call, func, what: str, error) -> list:
    """The argument expressions of ``call`` in ``func``'s parameter order (keywords and number
    defaults filled in).  Raises through ``error`` for ``*args``, unknown keywords, missing ones."""
    sig = inspect.signature(func)
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise error(call, f"*args/**kwargs in a call of {what}", "pass arguments explicitly")
    params = list(sig.parameters.values())
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        raise error(call, f"{what} with *args or **kwargs parameters", "give it plain parameters")
    if len(call.args) > len(params):
        raise error(call, f"{len(call.args)} arguments for {what} with {len(params)} parameters")
    args: list = list(call.args) + [None] * (len(params) - len(call.args))
    names = [p.name for p in params]
    for k in call.keywords:
        if k.arg not in names:
            raise error(call, f"unknown keyword {k.arg} of {what}")
        if args[names.index(k.arg)] is not None:
            raise error(call, f"argument {k.arg} of {what} given twice")
        args[names.index(k.arg)] = k.value
    for i, p in enumerate(params):
        if args[i] is None:
            if p.default is inspect.Parameter.empty:
                raise error(call, f"missing argument {p.name} of {what}")
            if not isinstance(p.default, (int, float, bool, type(None))):
                raise error(call, f"default value of {p.name} of {what} is not a number",
                            "pass the argument explicitly")
            args[i] = ast.Constant(value=p.default)
    return args


def inline_helper(call: ast.Call, func, driver_globals: dict, fresh, taken: set, error):
    """The inlined body of the plain-Python ``func`` called by ``call`` in a driver.

    ``fresh(base)`` gives an unused driver name; ``taken``: the driver's names (the flags
    of the helper's early returns avoid them).  Returns ``(bindings, body,
    result)``: ``bindings`` the ``(parameter name, argument expression)`` pairs
    to assign first, ``body`` the helper's statements (renamed, jumps lowered,
    located at ``call``), ``result`` the expression of its value (a name, or
    ``None`` as a constant).  Raises through ``error`` for closures, generators,
    helpers with ``*args``, and globals the helper reads that the driver's module
    names differently (the adjoint runs in the driver's module).
    """
    what = f"the helper {func.__name__}"
    if func.__closure__:
        raise error(call, f"{what} is a closure (it reads variables of an enclosing function)",
                    "define it at module level and pass those values as arguments")
    if inspect.isgeneratorfunction(func) or inspect.iscoroutinefunction(func):
        raise error(call, f"{what} is a generator or coroutine", "return a value instead")
    args = bind_arguments(call, func, what, error)
    primal = parse_function(func)
    tree = copy.deepcopy(primal.tree)
    params = list(primal.params)
    local = set(params) | {n.id for n in iter_nodes(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in iter_nodes(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            raise error(call, f"global/nonlocal statement in {what}", "pass the value as an argument")
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
            mine = func.__globals__.get(node.id, getattr(builtins, node.id, None))
            theirs = driver_globals.get(node.id, getattr(builtins, node.id, None))
            if mine is not theirs:
                raise error(call, f"{what} reads the global {node.id}, which the driver's module does not "
                                  "name the same way", f"import {node.id} in the driver's module too")
    mapping = {n: fresh(f"{func.__name__}_{n}") for n in sorted(local)}
    tree = Rename(mapping).visit(tree)
    body, results = lower_jumps(tree, set(taken) | set(mapping.values()) | set(mapping), lambda n, c, h="": error(call, c, h))
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    result = ast.Constant(value=None)
    if body and isinstance(body[-1], ast.Return):
        if body[-1].value is not None:
            result = body[-1].value
        body = body[:-1]
    for r in results:
        mapping[r] = r
    bindings = [(mapping[p], a) for p, a in zip(params, args)]
    return bindings, [_relocate(s, call) for s in body], _relocate(result, call)

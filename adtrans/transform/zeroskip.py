"""Loops skipped where the adjoint they propagate is zero (sparse adjoints, CPU target).

The adjoint of a selection (``min``, ``max``, ``abs``, a branch of ``np.where``) is zero on every
branch but one: ``d_dist = 0.0 if closest <= dist else d_closest``.  When such an adjoint then
drives a whole loop, as k-means' ``d_dist`` drives the loop over the coordinates of every
centroid, the loop runs for each centroid and adds zeros for all but the nearest.  This pass,
run on the final ``FunctionDef`` (after :func:`~adtrans.transform.tidy.tidy`), wraps such a loop
in ``if d_dist != 0.0:``.

A loop ``L`` is wrapped with the guard ``z1 != 0.0 or z2 != 0.0 ...`` only where it is proved
that with every ``z`` zero, running ``L`` changes nothing that is read later: a forward analysis
over ``L`` (loop nests to a fixed point) with the ``z`` known to be zero finds every array
update ``A[...] += e`` adding a zero ``e`` (a product with a zero factor, a quotient with a zero
numerator, sums, negations and selections of zeros), every other statement a pure assignment of
a name that is dead after ``L`` (backward liveness over the function) or unchanged, and no
other kind of statement (no plain stores, calls with effects, tape pops, ``while``, jumps,
``prange``).  The candidates ``z`` are the scalars the loop reads but does not assign that some
statement of the function assigns a selection with a zero arm (``x = 0.0 if c else y``, but for
the singular-point tests ``0.0 if v == 0.0 else ...``); a guard that would name other scalars is
not written (it would seldom skip anything).

Skipping follows the singular-point convention of the derivative table (a zero adjoint
contributes zero, never ``0 * inf``): where the skipped loop would have multiplied the zero by
an infinite or NaN partial, the skipped result is 0 where the unskipped one was NaN.

The tangent of an adjoint (second order) is derived from the unguarded adjoint (the plain CPU
target does not run this pass) and guarded afterwards by the same pass, so that its guard names
both an adjoint and its tangent where the loop reads both.
"""
from __future__ import annotations

import ast

from ..ir.markers import COMMENT, comment, is_marker
from ..ir.walk import dotted, iter_nodes, stored_names, unstored_names

_PURE = {"abs", "min", "max", "float", "int", "bool", "len", "range"}
_CASTS = {"float", "np.float64", "np.float32"}


def skip_zero_adjoints(func: ast.FunctionDef) -> ast.FunctionDef:
    """Wrap the loops of ``func`` whose effects vanish when some selected adjoint is zero in
    ``if adjoint != 0.0:`` (see the module docstring); ``func`` is changed in place."""
    selected = _selected(func)
    if not selected:
        return func
    every = {n.id for n in iter_nodes(func) if isinstance(n, ast.Name)}
    live_after: dict = {}
    _liveness(func.body, set(), live_after, every)
    func.body = _rewrite(func.body, selected, live_after)
    return ast.fix_missing_locations(func)


# --------------------------------------------------------------------------- candidates
def _zero_constant(e) -> bool:
    if isinstance(e, ast.Constant):
        return type(e.value) in (int, float) and e.value == 0
    return (isinstance(e, ast.Call) and dotted(e.func) in _CASTS and len(e.args) == 1 and not e.keywords
            and _zero_constant(e.args[0]))


def _singular_guard(test) -> bool:
    """``v == 0.0``: the singular-point convention's test (seldom true: no guard for it)."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and _zero_constant(test.comparators[0]))


def _has_zero_arm(e) -> bool:
    if not isinstance(e, ast.IfExp) or _singular_guard(e.test):
        return False
    return any(_zero_constant(x) or _has_zero_arm(x) for x in (e.body, e.orelse))


def _selected(func) -> set:
    """Names some statement assigns a selection with a zero arm."""
    return {s.targets[0].id for s in iter_nodes(func)
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and _has_zero_arm(s.value)}


# --------------------------------------------------------------------------- liveness
def _header(s) -> set:
    if isinstance(s, ast.For):
        return unstored_names(s.iter)
    return unstored_names(s.test)


def _liveness(stmts, live_after: set, out: dict, every: set) -> set:
    """Names live before ``stmts`` given those live after; ``out[id(loop)]`` collects the names
    live after each loop (over-approximated: a jump makes every name live)."""
    live = set(live_after)
    for s in reversed(stmts):
        if isinstance(s, ast.If):
            live = (_liveness(s.body, live, out, every) | _liveness(s.orelse, live, out, every)
                    | unstored_names(s.test))
        elif isinstance(s, (ast.For, ast.While)):
            out[id(s)] = out.get(id(s), set()) | live
            target = stored_names(s.target) if isinstance(s, ast.For) else set()
            carried: set = set()
            while True:
                inner = _liveness(s.body, live | carried | _header(s), out, every)
                if inner <= carried:
                    break
                carried |= inner
            live = live | (carried - target) | _header(s)
        elif isinstance(s, (ast.Break, ast.Continue, ast.Return, ast.Raise)):
            live = set(every)
        elif isinstance(s, ast.Assign) and all(isinstance(t, ast.Name) for t in s.targets):
            live = (live - stored_names(s)) | unstored_names(s.value)
        else:
            live = live | unstored_names(s) | stored_names(s)
    return live


# --------------------------------------------------------------------------- the proof
class _Fails(Exception):
    pass


def _pure(e) -> bool:
    for n in iter_nodes(e):
        if isinstance(n, ast.Call):
            f = dotted(n.func)
            if not (f in _PURE or f.startswith(("math.", "np."))):
                return False
        elif isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _is_zero(e, zero: set) -> bool:
    """``e`` is zero whenever the names in ``zero`` are."""
    if isinstance(e, ast.Name):
        return e.id in zero
    if _zero_constant(e):
        return True
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        return _is_zero(e.operand, zero)
    if isinstance(e, ast.BinOp):
        if isinstance(e.op, ast.Mult):
            return _is_zero(e.left, zero) or _is_zero(e.right, zero)
        if isinstance(e.op, ast.Div):
            return _is_zero(e.left, zero)
        if isinstance(e.op, (ast.Add, ast.Sub)):
            return _is_zero(e.left, zero) and _is_zero(e.right, zero)
        return False
    if isinstance(e, ast.IfExp):
        return _is_zero(e.body, zero) and _is_zero(e.orelse, zero)
    if isinstance(e, ast.Call) and dotted(e.func) in _CASTS and len(e.args) == 1 and not e.keywords:
        return _is_zero(e.args[0], zero)
    return False


def _run(stmts, zero: set, changed: set) -> set:
    """The names known zero after ``stmts`` (given ``zero`` before); adds the names the
    statements may change to ``changed``; raises :class:`_Fails` at an effect that does not vanish."""
    zero = set(zero)
    for s in stmts:
        if is_marker(s, COMMENT):
            continue
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and _pure(s.value):
            t = s.targets[0]
            if not (isinstance(t, ast.Name) or isinstance(t, ast.Tuple) and all(isinstance(x, ast.Name) for x in t.elts)):
                raise _Fails
            is_zero = isinstance(t, ast.Name) and _is_zero(s.value, zero)
            names = stored_names(t)
            changed |= names
            zero -= names
            if is_zero:
                zero.add(t.id)
        elif isinstance(s, ast.AugAssign) and _pure(s.value) and _pure(s.target):
            vanishes = isinstance(s.op, (ast.Add, ast.Sub)) and _is_zero(s.value, zero)
            if isinstance(s.target, ast.Subscript):
                if not vanishes:
                    raise _Fails
            elif isinstance(s.target, ast.Name):
                if not vanishes:
                    changed.add(s.target.id)
                    zero.discard(s.target.id)
            else:
                raise _Fails
        elif isinstance(s, ast.If) and _pure(s.test):
            cb, co = set(), set()
            zb, zo = _run(s.body, zero, cb), _run(s.orelse, zero, co)
            changed |= cb | co
            zero = zb & zo
        elif isinstance(s, ast.For) and not s.orelse and _pure(s.iter) and isinstance(s.target, ast.Name) \
                and isinstance(s.iter, ast.Call) and dotted(s.iter.func) == "range":
            entry = zero - {s.target.id}
            inner: set = set()
            while True:
                after = _run(s.body, entry, inner)
                new = entry & after
                if new == entry:
                    break
                entry = new
            changed |= inner | {s.target.id}
            zero = (zero - inner - {s.target.id}) | entry
        else:
            raise _Fails
    return zero


def _vanishes(loop, zero: set, live_after: set) -> bool:
    changed: set = set()
    try:
        _run([loop], zero, changed)
    except _Fails:
        return False
    return not (changed & live_after)


def _guard_names(loop, selected: set, live_after: set):
    """The fewest candidates whose zeros make ``loop`` vanish, or None."""
    candidates = sorted((unstored_names(loop) - stored_names(loop)) & selected)
    if not candidates or not _vanishes(loop, set(candidates), live_after):
        return None
    keep = list(candidates)
    for z in candidates:
        trial = [c for c in keep if c != z]
        if trial and _vanishes(loop, set(trial), live_after):
            keep = trial
    return keep


# --------------------------------------------------------------------------- the rewrite
def _rewrite(stmts, selected, live_after) -> list:
    out = []
    for s in stmts:
        if isinstance(s, ast.For):
            names = _guard_names(s, selected, live_after.get(id(s), set()))
            if names is not None:
                lead = [out.pop()] if out and is_marker(out[-1], COMMENT) else []    # the loop's own comment
                test = ast.BoolOp(op=ast.Or(), values=[
                    ast.Compare(left=ast.Name(z, ast.Load()), ops=[ast.NotEq()], comparators=[ast.Constant(0.0)])
                    for z in names]) if len(names) > 1 else ast.Compare(
                    left=ast.Name(names[0], ast.Load()), ops=[ast.NotEq()], comparators=[ast.Constant(0.0)])
                which = " and ".join(names)
                out.append(comment(f"skipped where {which} {'are' if len(names) > 1 else 'is'} 0: "
                                   f"every update the loop makes is a multiple of {'them' if len(names) > 1 else 'it'}"))
                out.append(ast.copy_location(ast.If(test=test, body=lead + [s], orelse=[]), s))
                continue
            s.body = _rewrite(s.body, selected, live_after)
        elif isinstance(s, ast.While):
            s.body = _rewrite(s.body, selected, live_after)
        elif isinstance(s, ast.If):
            s.body = _rewrite(s.body, selected, live_after)
            s.orelse = _rewrite(s.orelse, selected, live_after)
        out.append(s)
    return out

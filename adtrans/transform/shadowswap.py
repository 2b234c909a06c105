"""Shadow buffers that swap roles where the reverse step of a copy-back would copy them.

A time loop that computes each step into a scratch array and copies it back (bench/kernels.py
``heat_time_loop``: ``tmp[i] = f(u)[i]`` then ``u[i] = tmp[i]`` over ``[1, n - 1)``) has, after
:func:`~adtrans.transform.firstwrite.first_writes` and
:func:`~adtrans.transform.firstwrite_params.param_first_writes`, a copy loop in its reverse step::

    for i_1 in range(i_bound_1 - 1, 0, -1):     # adjoint of: u[i] = tmp[i]
        d_tmp_i = d_u[i_1]
        d_tmp[i_1] = d_tmp_i
    ...                                         # the gather: reads d_tmp, assigns d_u[1:i_bound_1]

``param_first_writes`` dropped this loop's kill of ``d_u`` because the gather assigns every
element of the span ``[lo, hi)`` before anything reads it: ``d_u[lo:hi]`` is dead after the copy.
``d_tmp`` is stored by this loop only, so it is zero outside the span.  So the two arrays can
exchange roles instead: ``d_tmp``'s role moves into ``d_u``'s array (which holds the copied values
already), ``d_u``'s into ``d_tmp``'s, and only the elements outside the span move.  The names stay
fixed (Numba's code for array names rebound in a loop does not vectorise the gather: 1.2-2.1 ms
against 0.65-0.93 ms with the copy, heat n = 2000, 200 steps): the reverse step's statements from
the first to the last that mention either array are written twice, once per assignment of roles::

    if d_u_swapped:                             # d_u's values are in d_tmp, d_tmp's role in d_u
        <the statements before the copy, d_u and d_tmp exchanged>
        d_u[:1] = d_tmp[:1]                     # outside the span: d_u's values back, zeros
        d_tmp[:1] = 0.0
        d_u[max(1, i_bound_1):] = d_tmp[max(1, i_bound_1):]
        d_tmp[max(1, i_bound_1):] = 0.0
        <the statements after the copy, as written>
    else:
        <the statements before the copy, as written>
        d_tmp[:1] = d_u[:1] ...                 # the same, the other way
        <the statements after the copy, d_u and d_tmp exchanged>
    d_u_swapped = not d_u_swapped

and after the time loop ``if d_u_swapped: d_u[:] = d_tmp`` (one copy per call instead of one per
step).  Heat, n = 2000, 200 steps (CPU time, medians, interleaved with the copying form): the adjoint
alone 0.64-0.81 -> 0.53-0.69 ms, ``grad`` against the primal 3.2-3.9x -> 2.9-3.4x.

It applies to a time loop ``T`` at the function's top level (a ``range`` loop with no ``while``,
``break``, ``continue`` or ``return``), a float64 1-D parameter shadow ``d`` (``vectors``; every
mention an element ``d[e]``) and a loop ``L`` of ``T``'s body that ``param_first_writes`` tagged
(``adtrans_kill_dropped``: its kill of ``d`` went) whose body is only the copy ``b[j] = d[j]``
(or through one scalar named nowhere else), ``j`` its index, the span's low end an int constant
``>= 0``, into a local array ``b`` that :func:`~adtrans.transform.firstwrite._extents` accepts
(1-D float64 ``np.zeros`` at the top level, every other mention an element access) with this its
only store, mentioned in ``T`` only, whose length is the parameter's by construction
(``np.zeros(n)`` or ``np.zeros_like(tmp)`` with ``tmp = np.empty(n)``, ``n = u.shape[0]``, ``len(u)``
or ``u.size`` assigned once at the top level; ``d`` the shadow of ``u``, which has ``u``'s shape).
CPU adjoints that are not differentiated again only (:attr:`~adtrans.targets.base.Target.swaps_shadows`).
"""
from __future__ import annotations

import ast
import copy

from ..ir.markers import comment
from ..ir.walk import all_names, const_int, stored_names
from .firstwrite import _element, _extents, _is_range, _minus_one, _stable
from .firstwrite_params import _elements_only_all, _span_exprs
from .tidy import _is_comment


def swap_shadows(func: ast.FunctionDef, vectors: dict) -> ast.FunctionDef:
    """Apply the rewrite above to ``func`` in place for the float64 1-D parameter shadows of
    ``vectors`` (``{shadow: its parameter}``); return ``func``."""
    params = {a.arg for a in func.args.args}
    ok = _elements_only_all(func, {d for d in vectors if d in params})
    vectors = {d: u for d, u in sorted(vectors.items()) if d in ok}
    if not vectors:
        return func
    locals_ = _extents(func, params)
    used = set()
    for T in [s for s in func.body if isinstance(s, ast.For)]:
        if not _is_range(T) or any(isinstance(n, (ast.While, ast.Break, ast.Continue, ast.Return))
                                    for n in ast.walk(T)):
            continue
        for L in [s for s in T.body if isinstance(s, ast.For)]:
            d = getattr(L, "adtrans_kill_dropped", None)
            if d not in vectors or d in used:
                continue
            b = _copy_target(func, L, d)
            if b is None or b in used or b not in locals_ or not _only_in(func, T, b, L) \
                    or not _length_of(func, params, locals_[b], vectors[d]):
                continue
            lo = _span_exprs(L, None, None, None)[0]
            if const_int(lo) is None or const_int(lo) < 0:
                continue
            _rewrite(func, T, L, d, b)
            used |= {d, b}
    return ast.fix_missing_locations(func)


def _length_of(func, params, extent, u) -> bool:
    """The allocation extent ``extent`` (``ast.dump`` of a name) is ``u``'s length: a name assigned
    once, at the top level, ``u.shape[0]``, ``len(u)`` or ``u.size`` of the parameter ``u``,
    which is never rebound."""
    stable = _stable(func, params)
    if u not in stable:
        return False
    for s in func.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and ast.dump(ast.Name(id=s.targets[0].id, ctx=ast.Load())) == extent:
            return s.targets[0].id in stable and ast.unparse(s.value) in (f"{u}.shape[0]", f"len({u})", f"{u}.size")
    return False


def _copy_target(func, L, d):
    """``b`` when ``L``'s body is only ``b[j] = d[j]`` or ``t = d[j]; b[j] = t`` (``j`` its index,
    not assigned; ``t`` named nowhere else in ``func``), else None."""
    body = [s for s in L.body if not _is_comment(s)]
    j = L.target.id
    if not _is_range(L) or j in {x for s in L.body for x in stored_names(s)} or not 1 <= len(body) <= 2:
        return None
    if not all(isinstance(s, ast.Assign) and len(s.targets) == 1 for s in body):
        return None
    store, value = body[-1].targets[0], body[-1].value
    if not (isinstance(store, ast.Subscript) and isinstance(store.value, ast.Name) and _is_index(store.slice, j)):
        return None
    if len(body) == 2:
        t = body[0].targets[0]
        if not (isinstance(t, ast.Name) and isinstance(value, ast.Name) and value.id == t.id) \
                or sum(1 for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == t.id) != 2:
            return None
        value = body[0].value
    if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == d
            and _is_index(value.slice, j)):
        return None
    b = store.value.id
    return b if b != d else None


def _is_index(e, j) -> bool:
    return isinstance(e, ast.Name) and e.id == j


def _only_in(func, T, b, L) -> bool:
    """``b`` is mentioned outside ``T`` only by its allocation and stored only by ``L``'s copy."""
    inside = sum(1 for n in ast.walk(T) if isinstance(n, ast.Name) and n.id == b)
    total = sum(1 for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == b)
    stores = [n for n in ast.walk(func) if isinstance(n, (ast.Assign, ast.AugAssign))
              for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
              if _element(t, b) is not None or isinstance(t, ast.Name) and t.id == b]
    return inside + 1 == total and len(stores) == 2 and any(s in L.body for s in stores)


def _fresh(func, base) -> str:
    names = all_names(func)
    name, k = base, 1
    while name in names:
        k += 1
        name = f"{base}_{k}"
    return name


def _exchanged(stmts, a, b):
    """Copies of ``stmts`` with the names ``a`` and ``b`` exchanged (each node once: the engine
    shares some nodes between statements, ``d[r] = v`` / ``d[r] += v`` of one target)."""
    out = [copy.deepcopy(s) for s in stmts]
    seen = set()
    for s in out:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and n.id in (a, b) and id(n) not in seen:
                seen.add(id(n))
                n.id = b if n.id == a else a
    return out


def _rewrite(func, T, L, d, b) -> None:
    lo, hi = _span_exprs(L, None, None, None)
    c = const_int(lo)
    flag = _fresh(func, f"{d}_swapped")
    mentions = [k for k, s in enumerate(T.body) if {d, b} & all_names(s)]
    k0, k1 = mentions[0], mentions[-1]
    while k0 > 0 and _is_comment(T.body[k0 - 1]):
        k0 -= 1
    region = T.body[k0:k1 + 1]
    i = region.index(L)
    pre, post = region[:i], region[i + 1:]
    high = f"max({c}, {ast.unparse(hi)})"

    def fix(src, dst):          # dst takes src's elements outside the span, src's become zeros
        lines = [f"{dst}[:{c}] = {src}[:{c}]", f"{src}[:{c}] = 0.0"] if c else []
        lines += [f"{dst}[{high}:] = {src}[{high}:]", f"{src}[{high}:] = 0.0"]
        out = [s for s in L.body if _is_comment(s)]
        out.append(comment(f"the shadows exchange roles: {src}[{c}:{ast.unparse(hi)}] holds the copied "
                           f"values (dead in the other role), outside it the values move to {dst}"))
        return out + [ast.parse(x).body[0] for x in lines]
    swapped = ast.If(test=ast.Name(id=flag, ctx=ast.Load()),
                     body=[*_exchanged(pre, d, b), *fix(b, d), *post],
                     orelse=[*pre, *fix(d, b), *_exchanged(post, d, b)])
    note = comment(f"{d}'s values in {b} when {flag} (one role per array, no copy per step)")
    toggle = ast.parse(f"{flag} = not {flag}").body[0]
    T.body[k0:k1 + 1] = [note, swapped, toggle]
    for n in [note, toggle, swapped.test, *(x for s in (*swapped.body, *swapped.orelse) for x in ast.walk(s))]:
        if not hasattr(n, "lineno") or n in (note, toggle):
            ast.copy_location(n, L)
    k = func.body.index(T)
    back = ast.parse(f"if {flag}:\n    {d}[:] = {b}\n").body[0]
    back.body.insert(0, comment(f"an odd number of steps: {d}'s values go back into the caller's array"))
    func.body[k + 1:k + 1] = [back]
    func.body[k:k] = [ast.parse(f"{flag} = False").body[0]]
    for s in (func.body[k], back):
        for n in ast.walk(s):
            ast.copy_location(n, T)


# --------------------------------------------------------------------------- exchanges
#: runtime calls that read or write an array's elements by name, keeping no reference to it
_BY_NAME_CALLS = {"np.zeros_like", "np.empty_like", "tape_push_array", "tape_pop_array", "tape_view",
                  "tape_restore_array"}


def swap_exchanges(func: ast.FunctionDef, arrays) -> ast.FunctionDef:
    """Exchange loops written as name swaps.  Double buffering ``u, tmp = tmp, u`` in a time loop
    is an element exchange in the forward sweep and its adjoint one of the shadows in the reverse
    sweep::

        for i_2 in range(i_2_bound - 1, -1, -1):    # adjoint of: u, tmp = tmp, u
            d_u_1_v = d_tmp[i_2]
            d_tmp[i_2] = 0.0
            d_tmp_v = d_u_1[i_2]
            d_u_1[i_2] = 0.0
            d_u_1[i_2] += d_u_1_v
            d_tmp[i_2] += d_tmp_v

    A unit-step loop over ``[0, E)`` whose body, run symbolically, leaves ``a[i]`` holding ``b[i]``'s
    value and ``b[i]`` holding ``a[i]``'s and does nothing else (its scalars named nowhere outside
    it) is ``a, b = b, a`` where ``E`` is both arrays' length (checked at run time; the loop
    otherwise), for two local arrays of ``arrays`` (1-D float64 C arrays: one Numba type) bound
    once at the top level by an allocation, every other mention an element ``a[e]`` (``e`` no
    slice), ``.shape``/``.size`` or an argument of :data:`_BY_NAME_CALLS`: nothing keeps a
    reference that would see the exchange.  Two passes over both arrays per step fewer in each
    sweep, but Numba's loops over array names rebound in a time loop do not vectorise (2x slower
    here), so the CPU target runs it only with ADTRANS_SWAP_EXCHANGES=1; returns ``func`` (changed
    in place)."""
    params = {a.arg for a in func.args.args}
    ok = {x for x in arrays if x not in params and _by_name_only(func, x)}
    if len(ok) < 2:
        return func
    for block in _blocks(func):
        for k, L in enumerate(block):
            pair = _exchange(func, L, ok) if isinstance(L, ast.For) else None
            if pair is None:
                continue
            a, b = pair
            E = ast.unparse(_span_exprs(L, None, None, None)[1])
            swap = ast.parse(f"if {E} == {a}.shape[0] and {E} == {b}.shape[0]:\n    {a}, {b} = {b}, {a}\n"
                             "else:\n    pass\n").body[0]
            swap.body = [*[s for s in L.body if _is_comment(s)],
                         comment("the whole arrays exchange: their names swap"), *swap.body]
            swap.orelse = [L]
            for n in ast.walk(swap):
                if n is not L and not any(n is m for m in ast.walk(L)):
                    ast.copy_location(n, L)
            block[k] = swap
    return ast.fix_missing_locations(func)


def _blocks(func):
    """Every statement list of ``func`` (bodies of loops and branches included), outer first."""
    out, todo = [], [func.body]
    while todo:
        body = todo.pop(0)
        out.append(body)
        for s in body:
            for field in ("body", "orelse"):
                if isinstance(s, (ast.For, ast.While, ast.If)) and getattr(s, field, None):
                    todo.append(getattr(s, field))
    return out


def _by_name_only(func, x) -> bool:
    """``x`` is bound once, at ``func``'s top level, by a NumPy allocation, and every other
    mention reads or writes elements by name (see :func:`swap_exchanges`)."""
    parents = {id(c): n for n in ast.walk(func) for c in ast.iter_child_nodes(n)}
    binds = [s for s in func.body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and s.targets[0].id == x]
    if len(binds) != 1 or not isinstance(binds[0].value, ast.Call) or \
            ast.unparse(binds[0].value.func) not in ("np.zeros", "np.empty", "np.ones", "np.zeros_like",
                                                      "np.empty_like", "np.full"):
        return False
    for n in ast.walk(func):
        if not (isinstance(n, ast.Name) and n.id == x) or n is binds[0].targets[0]:
            continue
        up = parents.get(id(n))
        if isinstance(up, ast.Subscript) and up.value is n:
            if any(isinstance(m, ast.Slice) for m in ast.walk(up.slice)) or \
                    isinstance(parents.get(id(up)), ast.Subscript) and parents[id(up)].value is up:
                return False
        elif isinstance(up, ast.Attribute) and up.value is n and up.attr in ("shape", "size", "ndim", "dtype"):
            pass
        elif isinstance(up, ast.Call) and n in up.args and ast.unparse(up.func) in _BY_NAME_CALLS:
            pass
        else:
            return False
    return True


def _exchange(func, L, ok):
    """``(a, b)`` when ``L`` is an exchange loop of two arrays of ``ok`` over ``[0, E)``
    (:func:`swap_exchanges`), else None."""
    if not _is_range(L) or not (len(L.iter.args) in (1, 2) or len(L.iter.args) == 3 and _minus_one(L.iter.args[2])):
        return None
    args = L.iter.args
    if const_int(args[1] if len(args) == 3 else args[0] if len(args) == 2 else ast.Constant(0)) \
            != (-1 if len(args) == 3 else 0):
        return None
    j = L.target.id
    body = [s for s in L.body if not _is_comment(s)]
    cells, scalars = {}, {}          # a[j] -> value; t -> value (a value: a sorted tuple of symbols)
    for s in body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            t, v = s.targets[0], _symbol(s.value, j, cells, scalars)
            if v is None:
                return None
            if isinstance(t, ast.Name) and t.id != j:
                scalars[t.id] = v
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and _is_index(t.slice, j):
                cells[t.value.id] = v
            else:
                return None
        elif isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Subscript) \
                and isinstance(s.target.value, ast.Name) and _is_index(s.target.slice, j):
            v = _symbol(s.value, j, cells, scalars)
            old = _symbol(s.target, j, cells, scalars)
            if v is None or old is None:
                return None
            cells[s.target.value.id] = tuple(sorted(old + v))
        else:
            return None
    if len(cells) != 2 or not set(cells) <= ok:
        return None
    a, b = sorted(cells)
    if cells[a] != (b,) or cells[b] != (a,):
        return None
    for t in scalars:               # the scalars are the loop's own
        inside = sum(1 for n in ast.walk(L) if isinstance(n, ast.Name) and n.id == t)
        if inside != sum(1 for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == t):
            return None
    return a, b


def _symbol(e, j, cells, scalars):
    """The value of ``e`` as a sorted tuple of the arrays whose element ``j`` (as the loop found
    it) it sums (``()`` for ``0.0``), else None."""
    if isinstance(e, ast.Constant) and e.value == 0.0 and type(e.value) is float:
        return ()
    if isinstance(e, ast.Name):
        return scalars.get(e.id)
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and _is_index(e.slice, j):
        return cells.get(e.value.id, (e.value.id,))
    return None

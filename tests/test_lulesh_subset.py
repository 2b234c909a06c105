"""Static checks that the LULESH kernels stay inside the AD tool's subset.

Reads ``examples/lulesh/kernels.py`` as source (no compilation) and checks
every function for the constructs the adtrans subset allows, and that every
store made by a ``prange`` loop, directly or inside a helper it calls, has
the loop index as its first subscript.
"""

import ast
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[1] / "examples" / "lulesh" / "kernels.py"

ALLOWED_BUILTINS = {"range", "prange", "min", "max", "abs"}
ALLOWED_ATTR_CALLS = {"math.sqrt", "math.fabs", "math.cbrt", "np.cbrt",
                      "np.sqrt", "np.fabs", "np.empty", "np.zeros"}
FORBIDDEN_NODES = (ast.Slice, ast.List, ast.ListComp, ast.Dict, ast.DictComp,
                   ast.Set, ast.SetComp, ast.GeneratorExp, ast.Lambda, ast.With,
                   ast.Try, ast.Raise, ast.Break, ast.Continue, ast.Starred,
                   ast.Yield, ast.Global, ast.Nonlocal, ast.ClassDef, ast.Assert,
                   ast.JoinedStr, ast.Delete, ast.Import, ast.ImportFrom)
ALLOWED_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


def _functions():
    tree = ast.parse(KERNELS.read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


FUNCS = _functions()


def _body_nodes(fn):
    for stmt in fn.body:
        yield from ast.walk(stmt)


def _decorator(fn):
    assert len(fn.decorator_list) == 1, fn.name
    dec = fn.decorator_list[0]
    assert isinstance(dec, ast.Call) and ast.unparse(dec.func) == "njit", fn.name
    return {kw.arg: ast.literal_eval(kw.value) for kw in dec.keywords}


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_kernel_uses_only_the_subset(name):
    fn = FUNCS[name]
    opts = _decorator(fn)
    assert opts.get("cache") is True
    assert "fastmath" not in opts
    assert set(opts) <= {"cache", "parallel"}
    assert not fn.args.vararg and not fn.args.kwarg and not fn.args.defaults

    local = {a.arg for a in fn.args.args}
    for node in _body_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)

    for node in _body_nodes(fn):
        where = "%s line %d" % (name, getattr(node, "lineno", 0))
        assert not isinstance(node, FORBIDDEN_NODES), where
        if isinstance(node, ast.BinOp):
            assert isinstance(node.op, ALLOWED_BINOPS), where
        if isinstance(node, ast.AugAssign):
            assert isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)), where
        if isinstance(node, ast.Call):
            assert not node.keywords, where
            func = node.func
            if isinstance(func, ast.Name):
                assert func.id in ALLOWED_BUILTINS or func.id in FUNCS, where
            else:
                assert ast.unparse(func) in ALLOWED_ATTR_CALLS, where
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            ok = (node.id in local or node.id in FUNCS
                  or node.id in ALLOWED_BUILTINS or node.id in ("np", "math"))
            assert ok, "%s: global %s" % (where, node.id)
        if isinstance(node, ast.Attribute):
            assert ast.unparse(node) in ALLOWED_ATTR_CALLS, where
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            # the tool wants a helper's tuple result unpacked before returning it
            assert False, "%s: return of a call" % where
        if isinstance(node, ast.For):
            assert isinstance(node.iter, ast.Call), where
            assert ast.unparse(node.iter.func) in ("range", "prange"), where
            assert isinstance(node.target, ast.Name), where


def _stores(fn):
    """(array name, first index expression) of every subscript store in fn."""
    out = []
    for node in _body_nodes(fn):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                    idx = sub.slice
                    first = idx.elts[0] if isinstance(idx, ast.Tuple) else idx
                    out.append((sub.value.id, first))
    return out


def _local_arrays(stmts):
    names = set()
    for stmt in stmts:
        for node in ast.walk(stmt):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and ast.unparse(node.value.func) in ("np.empty", "np.zeros")):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _check_helper_call(call, loopvar, where, depth=0):
    """A helper called in a prange body may only store at its loop-index parameter."""
    helper = FUNCS[call.func.id]
    params = [a.arg for a in helper.args.args]
    binding = dict(zip(params, call.args))
    helper_locals = _local_arrays(helper.body)
    for arr, first in _stores(helper):
        if arr in helper_locals:
            continue
        assert isinstance(first, ast.Name) and first.id in binding, \
            "%s: helper %s stores %s[%s]" % (where, helper.name, arr, ast.unparse(first))
        actual = binding[first.id]
        assert isinstance(actual, ast.Name) and actual.id == loopvar, \
            "%s: helper %s stores %s at an index not the prange variable" % (
                where, helper.name, arr)
    for node in _body_nodes(helper):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in FUNCS and depth < 4:
            # a nested helper: its stores must use a parameter bound to a
            # parameter that is bound to the loop variable
            inner = FUNCS[node.func.id]
            if _stores(inner):
                inner_params = [a.arg for a in inner.args.args]
                inner_binding = dict(zip(inner_params, node.args))
                for arr, first in _stores(inner):
                    if arr in _local_arrays(inner.body):
                        continue
                    bound = inner_binding.get(getattr(first, "id", None))
                    assert isinstance(bound, ast.Name), where
                    assert isinstance(binding.get(bound.id), ast.Name) and \
                        binding[bound.id].id == loopvar, where


@pytest.mark.parametrize("name", sorted(n for n, f in FUNCS.items()
                                        if _decorator(f).get("parallel")))
def test_prange_loops_store_only_their_own_element(name):
    fn = FUNCS[name]
    loops = [n for n in _body_nodes(fn) if isinstance(n, ast.For)
             and ast.unparse(n.iter.func) == "prange"]
    assert loops, "%s is parallel but has no prange loop" % name
    for loop in loops:
        var = loop.target.id
        local_arrays = _local_arrays(loop.body)
        fake = ast.FunctionDef(name=name, args=fn.args, body=loop.body,
                               decorator_list=[], returns=None, type_params=[])
        for arr, first in _stores(fake):
            if arr in local_arrays:
                continue
            assert isinstance(first, ast.Name) and first.id == var, \
                "%s: store to %s[%s] in prange over %s" % (
                    name, arr, ast.unparse(first), var)
        for stmt in loop.body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                        and node.func.id in FUNCS:
                    _check_helper_call(node, var, "%s line %d" % (name, node.lineno))

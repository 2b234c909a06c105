"""Random kernels (hypothesis): straight-line code, nested loops, branches, in-place
updates and helper calls; every gradient must match central finite differences."""
import importlib.util
import itertools
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdcheck import check

HELPER = '''
@njit
def helper(u, v):
    if u > v:
        return u * v
    return math.sin(u) + 0.5 * v
'''

UNARY = ["math.sin({})", "math.cos({})", "math.tanh({})", "math.sqrt(1.0 + ({0}) * ({0}))", "math.exp(0.3 * math.tanh({}))",
         "abs({})", "math.atan({})", "({}) ** 2"]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / (1.5 + math.tanh({}))", "min({}, {})", "max({}, {})",
          "helper({}, {})", "math.hypot({}, {})"]


@st.composite
def expressions(draw, names, depth=2):
    if depth == 0 or draw(st.booleans()):
        if draw(st.integers(0, 4)) == 0:
            return repr(draw(st.sampled_from([0.5, 1.25, -0.75, 2.0])))
        return draw(st.sampled_from(names))
    if draw(st.booleans()):
        return draw(st.sampled_from(UNARY)).format(draw(expressions(names, depth - 1)))
    a, b = draw(expressions(names, depth - 1)), draw(expressions(names, depth - 1))
    return draw(st.sampled_from(BINARY)).format(a, b)


@st.composite
def statements(draw, names, counter, depth, loop_vars):
    kind = draw(st.sampled_from(["assign", "assign", "acc", "store", "inc", "for", "if"] if depth < 2
                                else ["assign", "acc", "store", "inc"]))
    idx = draw(st.sampled_from(loop_vars)) if loop_vars else repr(draw(st.integers(0, 4)))
    if kind == "assign":
        t = f"t{next(counter)}"
        line = f"{t} = {draw(expressions(names))}"
        names.append(t)
        return [line]
    if kind == "acc":
        return [f"s += {draw(expressions(names))}"]
    if kind == "store":
        return [f"y[{idx}] = {draw(expressions(names))}"]
    if kind == "inc":
        return [f"x[{idx}] {draw(st.sampled_from(['+=', '*=']))} 0.5 * math.tanh({draw(expressions(names))})"]
    if kind == "for":
        v = f"i{depth}"
        bound = draw(st.sampled_from(["n", "i0 + 1" if "i0" in loop_vars else "3"]))
        inner_names = names + [f"x[{v}]"]
        body = []
        for _ in range(draw(st.integers(1, 3))):
            body += draw(statements(list(inner_names), counter, depth + 1, loop_vars + [v]))
        return [f"for {v} in range({bound}):"] + ["    " + b for b in body]
    cond = f"{draw(expressions(names, 1))} > {draw(st.sampled_from(['0.0', '0.3', '-0.2']))}"
    body = draw(statements(list(names), counter, depth + 1, loop_vars))
    orelse = draw(statements(list(names), counter, depth + 1, loop_vars))
    return [f"if {cond}:"] + ["    " + b for b in body] + ["else:"] + ["    " + b for b in orelse]


@st.composite
def programs(draw):
    counter = itertools.count()
    names = ["a", "x[0]", "x[1]", "y[2]"]
    body = []
    for _ in range(draw(st.integers(2, 5))):
        body += draw(statements(names, counter, 0, []))
    body.append(f"s += {draw(expressions(names))}")
    src = "def kernel(x, y, a, n):\n    s = 0.0\n" + textwrap.indent("\n".join(body), "    ") + "\n    return s\n"
    return src


_COUNT = itertools.count()


def load(src, tmp_path):
    name = f"randkernel_{next(_COUNT)}"
    path = tmp_path / f"{name}.py"
    path.write_text("import math\nfrom numba import njit\n" + HELPER + "\n@njit\n" + src)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod.kernel


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(programs(), st.integers(0, 10_000))
def test_random_kernel_gradient(tmp_path, src, seed):
    kernel = load(src, tmp_path)
    rng = np.random.default_rng(seed)
    args = [rng.uniform(-1, 1, 5), rng.uniform(-1, 1, 5), float(rng.uniform(-1, 1)), 5]
    try:
        kernel(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except ZeroDivisionError:
        return
    # kinks (min/max/abs/branches) make finite differences meaningless right at a switch
    check(kernel, args, h=1e-7, rtol=1e-4, atol=1e-6, rng=seed) if not _near_kink(kernel, args) else None


def _near_kink(kernel, args, h=1e-5):
    """True if a small perturbation changes the program's branch structure (FD unreliable there)."""
    base = np.array(_probe(kernel, args))
    for k in (0, 1):
        for j in range(5):
            for sgn in (1, -1):
                p = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                p[k][j] += sgn * h
                v = np.array(_probe(kernel, p))
                g = (v - base) / h
                p2 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                p2[k][j] += sgn * 2 * h
                g2 = (np.array(_probe(kernel, p2)) - v) / h
                if np.any(np.abs(g2 - g) > 1e-2 * (1 + np.abs(g))):
                    return True
    return False


def _probe(kernel, args):
    a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    r = kernel(*a)
    return [r, *a[0], *a[1]]

"""The generated adjoint reads like hand-written code (adtrans.transform.tidy), and the clean-up
never changes a gradient."""
import ast
import math

import numpy as np
from numba import njit, prange

import adtrans
from adtrans.transform.tidy import tidy
from fdcheck import check


@njit
def energy(x, k):
    e = 0.0
    for i in range(x.shape[0] - 1):
        d = x[i + 1] - x[i]
        e += k * d * d
    return e


@njit(parallel=True)
def weighted_sin(x, w):
    s = 0.0
    for i in prange(x.shape[0]):
        s += w * math.sin(x[i])
    return s


@njit
def halve_until(x, tol):
    while x[0] > tol:
        x[0] = x[0] * 0.5 + math.sin(x[1])
        x[1] = x[1] * 0.9
    return x[0] + x[1]


@njit
def loop_removed_in_else(x, y, a, n):       # found by the random-program test
    s = 0.0
    if a > 0.0:
        x[2] += 0.5 * math.tanh(x[0])
    else:
        for i1 in range(3):
            t3 = math.exp(0.3 * math.tanh(a))
            t4 = a
    s += 0.5
    return s


def _code(text):
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_energy_adjoint_reads_like_hand_written_code():
    x = np.linspace(0, 1, 10)
    text = adtrans.source(energy, ("dup", "const"), x, 2.0)
    code = _code(text)
    assert "# adjoint of: e += k * d * d" in text and "# adjoint of: d = x[i + 1] - x[i]" in text
    assert not any(ln.startswith(("result", "return", "e = 0.0", "d_e = 0.0")) for ln in code)   # dead tails
    assert "d_d = seed * t1" in code          # the first accumulation is an assignment, seed propagated
    assert "x_i = x[i]" in code and "ip1 = i + 1" in code       # temporaries named after their values
    ast.parse(text)
    g = adtrans.grad(energy)(x, 2.0)
    assert np.allclose(g, [2.0 * 2 * (x[i] - x[i - 1] if i else 0) - (2.0 * 2 * (x[i + 1] - x[i]) if i < 9 else 0)
                           for i in range(10)])


def test_prange_adjoint_keeps_the_per_thread_reduction():
    x = np.linspace(-1, 1, 50)
    text = adtrans.source(weighted_sin, ("dup", "active"), x, 0.7)
    assert "# adjoint of: s += w * math.sin(x[i])" in text
    assert "return (d_w,)" in text and "d_w += d_w_per_thread[per_thread_slot]" in text
    check(weighted_sin, [x, 0.7])


def test_taped_while_loop_reverse_assigns_first_uses():
    text = adtrans.source(halve_until, ("dup", "const"), np.array([3.0, 1.0]), 0.1)
    code = _code(text)
    assert "d_t3 = d_x[1]" in code and "d_t3 += d_x[1]" not in code
    assert not any(ln.startswith("d_") and ln.endswith("= 0.0") and "[" not in ln for ln in code)
    check(halve_until, [np.array([3.0, 1.0]), 0.1])


def test_a_loop_removed_from_a_branch_leaves_no_empty_block():
    args = [np.linspace(0.1, 0.5, 5), np.ones(5), 0.5, 5]
    text = adtrans.source(loop_removed_in_else, ("dup", "dup", "active", "const"), *args)
    ast.parse(text)
    assert "else:" not in _code(text)
    check(loop_removed_in_else, args)
    check(loop_removed_in_else, [args[0], args[1], -0.5, 5])


def test_tidy_passes_on_a_small_function():
    src = (
        "def f(x, d_x, seed):\n"
        "    d_a = 0.0\n"
        "    d_b = 0.0\n"
        "    d_r = seed\n"
        "    n = 3 - 1\n"
        "    for i in range(n, 1 - 1, -1):\n"
        "        d_a += d_r * x[i]\n"
        "        d_b = d_a\n"
        "        d_x[i] += d_b\n"
        "        d_a = 0.0\n"
        "    if seed > 0.0:\n"
        "        pass\n"
        "    else:\n"
        "        d_x[0] += 1.0\n"
        "    result = d_r\n"
        "    return ()\n")
    func = ast.parse(src).body[0]
    out = ast.unparse(tidy(func, scalars={"d_a", "d_b", "d_r", "result", "n"}))
    assert "range(n, 0, -1)" in out and "n = 2" in out                  # integer constants folded
    assert "d_a = seed * x[i]" in out and "d_a += " not in out          # zero on entry and after each iteration
    assert "d_x[i] += d_a" in out and "d_b" not in out                  # copy propagated
    assert "if not seed > 0.0:" in out and "pass" not in out            # no empty if
    assert "result" not in out and "return" not in out and "d_r" not in out
    ns = {}
    exec(compile(ast.parse(out), "<tidy>", "exec"), ns)
    d_x = np.zeros(3)
    ns["f"](np.array([1.0, 2.0, 3.0]), d_x, 2.0)
    assert np.array_equal(d_x, [0.0, 4.0, 6.0])


def test_tidy_drops_stores_nobody_reads_and_kills_of_dead_shadows():
    """A forward array read only for its shape loses its stores (and the loop computing them);
    the kill ``d_t[i, j] = 0.0`` of a local shadow no later statement reads goes; kills that a
    later iteration or statement could read, and stores into parameters, stay."""
    src = (
        "def f(x, d_x, out, seed):\n"
        "    n = x.shape[0]\n"
        "    inv = np.empty((n, n))\n"
        "    d_t = np.zeros_like(inv)\n"
        "    d_w = np.zeros(n)\n"
        "    d_v = np.zeros(n)\n"
        "    for i in range(n):\n"
        "        for j in range(n):\n"
        "            a = x[i] - x[j]\n"
        "            inv[i, j] = a * a\n"
        "            d_t[i, j] += seed * x[j]\n"
        "            out[i] = a\n"
        "    for i in range(n - 1, -1, -1):\n"
        "        for j in range(inv.shape[1]):\n"
        "            g = d_t[i, j]\n"
        "            d_t[i, j] = 0.0\n"
        "            d_x[i] += g\n"
        "    for s in range(2):\n"
        "        for i in range(n):\n"
        "            d_w[i] += d_x[i]\n"
        "            g = d_w[i]\n"
        "            d_w[i] = 0.0\n"
        "            d_x[i] += g\n"
        "    for i in range(n):\n"
        "        d_v[i] += seed\n"
        "        g = d_v[i]\n"
        "        d_v[i] = 0.0\n"
        "        d_x[i] += g\n"
        "    d_x[0] += d_v[0]\n")
    func = ast.parse(src).body[0]
    out = ast.unparse(tidy(func, scalars={"a", "g", "n"}))
    assert "inv[i, j] =" not in out and "a * a" not in out         # the unread forward array
    assert "out[i] = a" in out                                      # a parameter's store stays
    assert "d_t[i, j] = 0.0" not in out                             # nothing reads d_t later
    assert "d_w[i] = 0.0" in out                                    # the time loop comes back to d_w
    assert "d_v[i] = 0.0" in out                                    # d_v is read after its loop
    ns = {"np": np}
    exec(compile(ast.parse(out), "<tidy>", "exec"), ns)
    x, d_x, o = np.array([1.0, 3.0, 4.0]), np.zeros(3), np.zeros(3)
    ns["f"](x, d_x, o, 2.0)
    # d_t sums to 2 * sum(x) per row; the time loop doubles d_x twice (d_x += d_x); d_v adds 2
    want = np.full(3, 2.0 * x.sum()) * 4 + 2.0
    np.testing.assert_allclose(d_x, want)
    np.testing.assert_allclose(o, x - x[-1])

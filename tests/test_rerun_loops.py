"""Taped time loops recomputed from the state each iteration starts from (adtrans/transform/rerun.py,
opt-in: ADTRANS_RERUN=1 or ``CPU.rerun_loops``): the forward sweep tapes only the state, the
reverse sweep reruns the iteration from its view on the tape.  Gradients against central finite differences in float64 on the pure-Python function
for step counts 0 (where the kernel allows it), 1 and several; the state named in the loop comment; loops with a costly
intrinsic or whose arrays are read before the loop keep their tape; the primal's outputs hold
their final values after the adjoint."""
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import adtrans
from adtrans.targets.cpu import CPU
from fdcheck import check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gradbench as GB  # noqa: E402

RERUN = "the forward sweep records only the state each iteration starts from"


@pytest.fixture(autouse=True, scope="module")
def rerunning():
    old = CPU.rerun_loops
    CPU.rerun_loops = True
    yield
    CPU.rerun_loops = old


@njit(cache=True)
def rk2_pair(x, u, v, h, s):
    """Two coupled state arrays, a stage array each, a scalar read from the state in the body,
    an element of the state stored at the top level of the body."""
    n = x.shape[0]
    ku = np.empty(n)
    kv = np.empty(n)
    for step in range(s):
        m = u[0] * 0.5
        for i in range(n):
            ku[i] = u[i] + h * x[i] * v[i]
        for i in range(1, n):
            kv[i] = v[i] - h * m * ku[i - 1]
        kv[0] = v[0]
        for i in range(n):
            u[i] += h * kv[i] * x[i]
        for i in range(n):
            v[i] += h * ku[i] * ku[i]
        u[0] = u[0] * 0.9 + 0.1 * v[n - 1]


@njit(cache=True)
def costly_stage(x, y, h, s):
    """A stage through np.exp: rerunning it costs more than its tape; taped as before."""
    n = x.shape[0]
    k = np.empty(n)
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            k[i] = np.exp(-x[i] * y[i])
        for i in range(n):
            t[i] = y[i] + h * k[i]
        for i in range(1, n):
            y[i] += h * x[i] * t[i - 1] * t[i]


@njit(cache=True)
def stage_read_before(x, y, h, s):
    """The stage array is read before the loop: its reverse would see the rerun's values;
    taped as before."""
    n = x.shape[0]
    t = np.empty(n)
    for i in range(n):
        t[i] = x[i]
    c = t[0] * 2.0
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + h * x[i] * y[i]
        for i in range(n):
            y[i] = y[i] * 0.5 + t[i] * t[i] * h
        for i in range(1, n):
            y[i] += h * t[i - 1] * y[i - 1] * c
    return c * y[0]


def u(n, seed):
    return np.random.default_rng(seed).uniform(0.2, 1.0, n)


@pytest.mark.parametrize("s", [1, 3])
def test_ode_reruns_its_step_from_yf(s):
    x, _, yf = GB.ode_input(7, s, np.random.default_rng(3))
    src = adtrans.source(GB.ode, ("dup", "const", "dup"), x, s, yf)
    line = next(ln for ln in src.splitlines() if RERUN in ln)
    assert "(yf)" in line and re.search(r"yf_entry\w* views the state on the tape", line)
    forward = src.split("for step in range(s - 1, -1, -1):")[0]
    assert forward.count("tape_push_array(") == 1
    assert check(GB.ode, [x, s, yf], primal=GB.ode.py_func) < 1e-6


def test_ode_primal_output_kept():
    """The reverse reruns the step on the view of yf, never on yf: yf keeps y(2)."""
    x, s, yf = GB.ode_input(9, 4, np.random.default_rng(4))
    want = yf.copy()
    GB.ode(x, s, want)
    adj = adtrans.adjoint(GB.ode, ("dup", "const", "dup"))
    dyf = np.zeros_like(yf)
    dyf[-1] = 1.0
    adj(x, np.zeros_like(x), s, yf, dyf)
    assert np.array_equal(yf, want)


@pytest.mark.parametrize("s", [0, 1, 4])
def test_two_state_arrays(s):
    args = [u(6, 1), u(6, 2), u(6, 3), 0.1, s]
    src = adtrans.source(rk2_pair, ("dup", "dup", "dup", "const", "const"), *args)
    assert "(u, v)" in next(ln for ln in src.splitlines() if RERUN in ln)
    assert check(rk2_pair, args, activity=("dup", "dup", "dup", "const", "const"), primal=rk2_pair.py_func) < 1e-6


@pytest.mark.parametrize("fn", [costly_stage, stage_read_before])
def test_loops_that_keep_their_tape(fn):
    args = [u(6, 5), u(6, 6), 0.1, 3]
    act = ("dup", "dup", "const", "const")
    src = adtrans.source(fn, act, *args)
    assert RERUN not in src and "taped loop" in src
    assert check(fn, args, activity=act, primal=fn.py_func) < 1e-6

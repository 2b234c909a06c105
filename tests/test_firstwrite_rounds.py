"""Rounds of a shifted scatter and a read-and-kill loop (adtrans/transform/firstwrite.py,
``_plan_rounds``; GradBench ode's ``d_yt``): the scatters become assignments and the kills go
only where every round writes the same span; gradients against central finite differences in
float64 on the pure-Python function, for shifts and boundaries that leave different elements
of the stage shadow unwritten (the last one, the first one, both ends, the last two)."""
import re

import numpy as np
import pytest
from numba import njit

import adtrans
from fdcheck import check


@njit(cache=True)
def back_one(x, y, s):
    """Two stages a step, each reading the stage array ``t`` one element back: d_t[n - 1]
    is never written."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + 0.5 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.25 * x[i] * t[i - 1]
        for i in range(n):
            t[i] = y[i] - 0.125 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.25 * x[i] * t[i - 1]


@njit(cache=True)
def from_one(x, y, s):
    """Same index, from 1: d_t[0] is never written."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] * y[i] + x[i]
        for i in range(1, n):
            y[i] += 0.2 * x[i] * t[i]
        for i in range(n):
            t[i] = y[i] - 0.3 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.1 * t[i] * x[i - 1]


@njit(cache=True)
def inner_span(x, y, s):
    """From 2, one back: d_t[0] and d_t[n - 1] are never written."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + 0.5 * x[i] * y[i]
        for i in range(2, n):
            y[i] += 0.25 * x[i] * t[i - 1]
        for i in range(n):
            t[i] = 0.5 * y[i] * x[i]
        for i in range(2, n):
            y[i] -= 0.25 * x[i - 1] * t[i - 1]


@njit(cache=True)
def back_two(x, y, s):
    """Two elements back in both stages: d_t[n - 2] and d_t[n - 1] are never written."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + 0.5 * x[i] * y[i]
        for i in range(2, n):
            y[i] += 0.25 * x[i] * t[i - 2]
        for i in range(n):
            t[i] = y[i] - 0.125 * x[i] * y[i]
        for i in range(2, n):
            y[i] += 0.25 * x[i] * t[i - 2]


@njit(cache=True)
def two_shifts(x, y, s):
    """The second stage two elements back: the spans differ, the kills stay."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + 0.5 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.25 * x[i] * t[i - 1]
        for i in range(n):
            t[i] = y[i] - 0.125 * x[i] * y[i]
        for i in range(2, n):
            y[i] += 0.25 * x[i] * t[i - 2]


@njit(cache=True)
def other_end(x, y, s):
    """The first stage leaves d_t[n - 1] unwritten, the second d_t[0]: the spans differ (an
    element a round does not assign would keep the other round's value), the kills stay."""
    n = x.shape[0]
    t = np.empty(n)
    for step in range(s):
        for i in range(n):
            t[i] = y[i] + 0.5 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.25 * x[i] * t[i - 1]
        for i in range(n):
            t[i] = y[i] - 0.125 * x[i] * y[i]
        for i in range(1, n):
            y[i] += 0.25 * x[i] * t[i]


def args(n=8, s=3):
    rng = np.random.default_rng(11)
    return [rng.uniform(0.2, 1.0, n), rng.uniform(0.2, 1.0, n), s]


ACT = ("dup", "dup", "const")


@pytest.mark.parametrize("fn", [back_one, from_one, inner_span, back_two])
def test_rounds_of_one_span_assign_and_do_not_kill(fn):
    src = adtrans.source(fn, ACT, *args())
    assert not re.search(r"d_t\[\w+\] = 0\.0", src) and not re.search(r"d_t\[\w+\] \+=", src)
    assert len(re.findall(r"d_t\[\w+\] = d_", src)) == 2
    for n, s in ((8, 3), (1, 2), (2, 1), (3, 2)):
        assert check(fn, args(n, s), primal=fn.py_func) < 1e-6


@pytest.mark.parametrize("fn", [two_shifts, other_end])
def test_rounds_of_different_spans_keep_their_kills(fn):
    src = adtrans.source(fn, ACT, *args())
    assert len(re.findall(r"d_t\[\w+\] = 0\.0", src)) == 2
    assert check(fn, args(), primal=fn.py_func) < 1e-6 and check(fn, args(3, 2), primal=fn.py_func) < 1e-6

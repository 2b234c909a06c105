"""Central finite differences against adtrans gradients, for any kernel.

The objective is ``J = seed * fn(...) + sum_k <w_k, final value of float array k>``
with random weights ``w_k``: every float array is ``Duplicated`` (shadow = w_k
on entry) and every float scalar ``Active``; on return each shadow must hold
dJ/d(initial array) and each scalar adjoint dJ/dx.
"""
from __future__ import annotations

import numpy as np
import pytest

import adtrans


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def objective(fn, args, weights, seed):
    args = _copy(args)
    ret = fn(*args)
    total = 0.0 if ret is None else seed * float(ret)
    for k, w in weights.items():
        total += float(np.sum(w.astype(np.float64) * args[k].astype(np.float64)))
    return total


def adtrans_gradient(fn, args, weights, seed, activity=None):
    args = _copy(args)
    wrapped, shadows = [], {}
    for k, a in enumerate(args):
        kind = activity[k] if activity else None
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and kind in (None, "dup"):
            shadows[k] = weights[k].copy()
            wrapped.append(adtrans.Duplicated(a, shadows[k]))
        elif isinstance(a, float) and kind in (None, "active"):
            wrapped.append(adtrans.Active(a))
        else:
            wrapped.append(adtrans.Const(a))
    scal = iter(adtrans.autodiff(fn, *wrapped, seed=seed))
    out = {}
    for k, a in enumerate(args):
        if k in shadows:
            out[k] = shadows[k]
        elif isinstance(wrapped[k], adtrans.Active):
            out[k] = float(next(scal))
    return out, args


def check(fn, args, rtol=1e-6, atol=1e-8, h=1e-6, samples=12, seed=1.25, rng=0, activity=None, primal=None):
    """Assert that adtrans agrees with central differences; returns the worst relative error.
    ``primal``: the function the differences run (``fn.py_func`` for a form Numba does not compile)."""
    run = primal if primal is not None else fn
    gen = np.random.default_rng(rng)
    weights = {k: gen.standard_normal(a.shape).astype(a.dtype)
               for k, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"
               and (activity is None or activity[k] == "dup")}
    grads, _ = adtrans_gradient(fn, args, weights, seed, activity)
    worst = 0.0
    for k, g in grads.items():
        a = args[k]
        if isinstance(a, np.ndarray):
            flat = list(range(a.size))
            picks = flat if a.size <= samples else list(gen.choice(a.size, samples, replace=False))
            for j in picks:
                plus, minus = _copy(args), _copy(args)
                plus[k].flat[j] += h
                minus[k].flat[j] -= h
                fd = (objective(run, plus, weights, seed) - objective(run, minus, weights, seed)) / (2 * h)
                got = float(g.flat[j])
                err = abs(got - fd)
                assert err <= atol + rtol * max(abs(fd), 1.0) * 1e2 or err <= atol + 1e-5 * abs(fd), \
                    f"arg {k} entry {j}: adtrans {got!r} vs finite differences {fd!r}"
                worst = max(worst, err / max(abs(fd), 1e-12))
        else:
            plus, minus = _copy(args), _copy(args)
            plus[k] += h
            minus[k] -= h
            fd = (objective(run, plus, weights, seed) - objective(run, minus, weights, seed)) / (2 * h)
            err = abs(g - fd)
            assert err <= atol + 1e-5 * max(abs(fd), 1.0), f"arg {k}: adtrans {g!r} vs finite differences {fd!r}"
            worst = max(worst, err / max(abs(fd), 1e-12))
    return worst


def tape_pushes(src: str) -> int:
    """Number of scalar tape pushes in generated CPU source (inline stores ``tape[top] = v``)
    (also indexed by a loop counter, ``tape[top + j] = v``) plus any calls of the former
    ``tape_push`` helper."""
    import re
    return len(re.findall(r"^\s*tape\w*\[top\w*(?: [+-] [^\]]+)?\] = ", src, re.M)) + src.count("tape_push(")


def case_params(names, xfail=None, quick=None, skip=()):
    """pytest params of a case table's ``names``: marked slow unless in ``quick`` (None: none
    marked), xfail(strict) with its reason where in ``xfail`` (name -> reason), those in ``skip``
    left out."""
    xfail = xfail or {}
    out = []
    for name in names:
        if name in skip:
            continue
        marks = [] if quick is None or name in quick else [pytest.mark.slow]
        if name in xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=xfail[name]))
        out.append(pytest.param(name, marks=marks, id=name))
    return out

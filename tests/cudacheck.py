"""CUDA kernels of the new-user trials checked against a NumPy reference of the same math.

A case is ``(kernel, ref, args, activity, config)``: ``kernel[config](*args)`` updates its array
arguments in place as ``ref(*args)`` (NumPy, float64) does.  Launched under
``NUMBA_ENABLE_CUDASIM=1`` (one subprocess per test file, :func:`run_under_simulator`), the
adjoint's shadows are compared with central finite differences of ``ref`` for the objective
``sum_j <w_j, final args[j]>`` over the Duplicated arguments."""
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import adtrans

REPO = Path(__file__).resolve().parent.parent


def copy_args(args):
    """The arrays of ``args`` copied, the rest shared."""
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def finite_differences_in_place(ref, args, weights, h=1e-6):
    """``{j: d/d(initial args[j]) of sum_j <w_j, final args[j]>}`` with ``ref`` run in place on
    copies (central differences, step ``h``)."""
    def objective(a):
        a = copy_args(a)
        ref(*a)
        return sum(float(np.sum(w * a[j])) for j, w in weights.items())
    out = {}
    for j in weights:
        g = np.zeros(args[j].shape)
        for k in range(args[j].size):
            plus, minus = copy_args(args), copy_args(args)
            plus[j].flat[k] += h
            minus[j].flat[k] -= h
            g.flat[k] = (objective(plus) - objective(minus)) / (2 * h)
        out[j] = g
    return out


def check_cuda_case(name, case, tol=1e-7):
    """The kernel computes what its reference does (to 1e-12), and the adjoint's shadows match the
    reference's finite differences (max error relative to max(1, max |FD|) at most ``tol``)."""
    kernel, ref, args, activity, config = case
    got, want = copy_args(args), copy_args(args)
    kernel[config](*got)
    ref(*want)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    rng = np.random.default_rng(1)
    weights = {j: rng.standard_normal(a.shape) for j, (a, t) in enumerate(zip(args, activity)) if t == "dup"}
    flat, shadows = [], {}
    for j, (a, t) in enumerate(zip(copy_args(args), activity)):
        flat.append(a)
        if t == "dup":
            shadows[j] = weights[j].copy()
            flat.append(shadows[j])
    adtrans.adjoint(kernel, activity)[config](*flat)
    fd = finite_differences_in_place(ref, args, weights)
    for j in weights:
        scale = max(1.0, float(np.max(np.abs(fd[j]))))
        assert float(np.max(np.abs(shadows[j] - fd[j]))) / scale <= tol, (name, j)


def run_under_simulator(test_file, n_cases, broken, select="cuda_gradient"):
    """Run the tests of ``test_file`` matching ``select`` in one subprocess with the simulator on;
    assert that all ``n_cases`` ran: those not in ``broken`` passed, those in it xfailed."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "",
                           str(Path(test_file)), "-k", select],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    assert re.search(rf"\b{n_cases - len(broken)} passed", tail), tail
    assert re.search(rf"\b{len(broken)} xfailed", tail) if broken else ("xfailed" not in tail), tail

"""Time each kernel adjoint of one LULESH step adjoint against its kernel's primal call.

``python -m examples.lulesh.kernel_bench -s 30 --threads 1 2 --repeat 7``: runs the step
adjoint once (:func:`.grad.step_adjoint`) recording the arguments of every kernel adjoint call
the driver adjoint makes, then replays each recorded call ``repeat`` times on fresh copies of
its arguments, interleaved with the kernel's own forward call on the same inputs, and prints
medians of process CPU time and wall time per call, per thread count.  Copies are made outside
the timed region.
"""

from __future__ import annotations

import copy
import statistics
import time

import numba
import numpy as np

from adtrans.driver import runtime

from .domain import Domain
from .grad import step_adjoint
from .lulesh import STEP_N_FLOAT_ARRAYS, run_cycles, step_arguments, time_increment

__all__ = ["record_calls", "replay"]


def record_calls(size=30, warm_cycles=5):
    """The kernel adjoint calls of one step adjoint at ``-s size``: a list of
    ``(kernel name, kernel, kernel args, adjoint, adjoint args)`` (the arguments copied as they
    were when the call was made)."""
    base = Domain(size)
    run_cycles(base, warm_cycles)
    time_increment(base)
    calls = []
    saved = runtime._kernel_adjoint_function

    def recording(kernel, activity):
        adj = saved(kernel, activity)

        def call(*flat):
            kargs, k = [], 0
            for kind in activity:                 # the primal arguments: shadows skipped
                kargs.append(flat[k])
                k += 2 if kind == "dup" else 1
            calls.append((kernel.__name__, kernel, copy.deepcopy(kargs), adj, copy.deepcopy(flat)))
            return adj(*flat)
        return call
    runtime._kernel_adjoint_function = recording
    try:
        args = step_arguments(base)
        step_adjoint(args, [np.ones_like(a) for a in args[:STEP_N_FLOAT_ARRAYS]])
    finally:
        runtime._kernel_adjoint_function = saved
    return calls


def _timed(fn, args):
    args = copy.deepcopy(args)
    c0, w0 = time.process_time(), time.perf_counter()
    fn(*args)
    return time.process_time() - c0, time.perf_counter() - w0


def replay(calls, threads=(1, 2), repeats=7):
    """Median (cpu, wall) milliseconds per kernel of its adjoint and its primal call, per
    thread count: ``{threads: {name: (adj_cpu, adj_wall, fwd_cpu, fwd_wall)}}`` (a kernel
    called several times is summed over its calls)."""
    out = {}
    for nt in threads:
        numba.set_num_threads(nt)
        for name, kernel, kargs, adj, flat in calls:      # warm both
            _timed(adj, flat)
            _timed(kernel, kargs)
        rows = {}
        for name, kernel, kargs, adj, flat in calls:
            a, f = [], []
            for _ in range(repeats):
                a.append(_timed(adj, flat))
                f.append(_timed(kernel, kargs))
            med = [1e3 * statistics.median(x[i] for x in a) for i in (0, 1)]
            med += [1e3 * statistics.median(x[i] for x in f) for i in (0, 1)]
            old = rows.get(name, (0.0, 0.0, 0.0, 0.0))
            rows[name] = tuple(o + m for o, m in zip(old, med))
        out[nt] = rows
    return out


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-s", dest="size", type=int, default=30)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=None, help="kernel names to time")
    a = ap.parse_args()
    calls = record_calls(a.size)
    if a.only:
        calls = [c for c in calls if c[0] in a.only]
    res = replay(calls, a.threads, a.repeat)
    for nt, rows in res.items():
        tot = [sum(r[i] for r in rows.values()) for i in range(4)]
        print("threads=%d  %-48s %9s %9s %9s %9s %6s %6s" % (nt, "kernel (ms, medians)", "adj cpu", "adj wall",
                                                            "fwd cpu", "fwd wall", "r cpu", "r wall"))
        for name, r in sorted(rows.items(), key=lambda kv: -kv[1][0]):
            print("  %-56s %9.2f %9.2f %9.2f %9.2f %6.1f %6.1f" % (name, *r, r[0] / max(r[2], 1e-9),
                                                               r[1] / max(r[3], 1e-9)))
        print("  %-56s %9.2f %9.2f %9.2f %9.2f %6.1f %6.1f" % ("total", *tot, tot[0] / max(tot[2], 1e-9),
                                                           tot[1] / max(tot[3], 1e-9)))

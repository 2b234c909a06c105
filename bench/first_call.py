"""First-call cost of an adjoint (issue 14, item 6): where the time goes.

For each kernel, in this fresh process with empty caches (run it with fresh
``NUMBA_CACHE_DIR``/``ADTRANS_CACHE_DIR`` and ``ADTRANS_GENCACHE=0``): Numba's own
compile of the primal (a new dispatcher, no cache), adtrans' transformation
(``pipeline.generate``, by stage with cProfile's cumulative times), and Numba's
compile of the generated adjoint (the first call, less the transformation).

    python bench/first_call.py
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("ADTRANS_GENCACHE", "0")
os.environ.setdefault("ADTRANS_CACHE_DIR", tempfile.mkdtemp(prefix="adtrans-first-call-"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import numba  # noqa: E402
import numpy as np  # noqa: E402

import adtrans  # noqa: E402
import gradbench as GB  # noqa: E402
from adtrans.arguments import primal_of, typeof_args  # noqa: E402
from adtrans.pipeline import generate  # noqa: E402

_STAGES = {"normalise": ("normalise/threeaddr.py", "normalise"),
           "types (Numba inference)": ("analyse/types.py", "infer_types"),
           "activity": ("analyse/activity.py", "analyse_activity"),
           "build_adjoint": ("transform/__init__.py", "build_adjoint"),
           "lower": ("targets/cpu.py", "lower"),
           "tidy": ("transform/tidy.py", "tidy")}


def stage_times(prof) -> dict:
    """Cumulative seconds of each pipeline stage in the profile ``prof``."""
    stats = pstats.Stats(prof).stats
    out = {}
    for stage, (suffix, func) in _STAGES.items():
        for (file, _, fn), (_, _, _, cum, _) in stats.items():
            if fn == func and file.endswith(suffix):
                out[stage] = out.get(stage, 0.0) + cum
    return out


def measure(name, fn, act, args):
    py = fn.py_func
    fresh = numba.njit(py)
    t = time.perf_counter()
    fresh(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    primal_compile = time.perf_counter() - t
    primal = primal_of(fn)
    prof = cProfile.Profile()
    t = time.perf_counter()
    prof.enable()
    generate(primal, act, typeof_args(args))
    prof.disable()
    transform = time.perf_counter() - t
    adj = adtrans.adjoint(fn, act)
    flat = []
    for a, k in zip(args, act):
        flat.append(a.copy() if isinstance(a, np.ndarray) else a)
        if k == "dup":
            flat.append(np.zeros_like(a))
    t = time.perf_counter()
    adj(*flat, 1.0)
    first = time.perf_counter() - t
    stages = stage_times(prof)
    return name, primal_compile, transform, max(first - transform, 0.0), stages


def main():
    rng = np.random.default_rng(0)
    cases = [
        ("lse", GB.lse, ("dup",), GB.lse_input(100, rng)),
        ("llsq", GB.llsq, ("dup", "const"), GB.llsq_input(100, 8, rng)),
        ("ode", GB.ode, ("dup", "const", "dup"), GB.ode_input(10, 3, rng)),
        ("gmm", GB.gmm, ("dup",) * 4 + ("const",) * 3, GB.gmm_input(3, 4, 5, rng)),
        ("ba", GB.ba, ("dup", "dup", "dup", "const", "const", "dup", "dup"), GB.ba_input(3, 5, 10, rng)),
        ("kmeans", GB.kmeans, ("const", "dup"), GB.kmeans_input(10, 3, 2, rng)),
    ]
    print(f"{'kernel':<8} {'primal compile [s]':>18} {'transform [s]':>13} {'adjoint compile [s]':>19} "
          f"{'(transform+compile)/primal':>26}  transform by stage [s]")
    for name, fn, act, args in cases:
        n, pc, tr, ac, st = measure(name, fn, act, args)
        stages = ", ".join(f"{k} {v:.2f}" for k, v in sorted(st.items(), key=lambda kv: -kv[1]))
        print(f"{n:<8} {pc:>18.2f} {tr:>13.2f} {ac:>19.2f} {(tr + ac) / pc:>26.1f}  {stages}")


if __name__ == "__main__":
    main()

"""First-call cost of an adjoint (issue 14, item 6): where the time goes.

For each kernel, in one process: Numba's own compile of the primal (a new dispatcher with the
kernel's options but no cache), adtrans' transformation (``build.compiled``: parse, normalise,
Numba type inference, activity, the adjoint, lowering, tidy, emit, by stage) and Numba's compile
of the generated adjoint (its first call).  Times are CPU seconds of the main thread
(``time.thread_time``: the machine is shared, wall time is not a measure here); Numba's compiles
are timed inside ``Dispatcher.compile`` (a compile nested in another is counted once, in the
outer one; one during the transformation belongs to it).

    python bench/first_call.py            # cold: fresh Numba and adtrans caches in this process
    python bench/first_call.py --warm     # the same twice in two processes sharing the caches:
                                          # the second must find everything on disk
    python bench/first_call.py --lulesh   # also LULESH's one-step adjoint (the driver, ~25 kernels)
    python bench/first_call.py --only lse,gmm

The first row also pays for the runtime helpers of generated code (``targets/cpu_runtime.py``,
compiled once per machine and cached by Numba).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# this checkout's adtrans, not the one the environment has installed (a worktree of the project
# run with the main checkout's venv measured the main checkout's adtrans)
sys.path.insert(0, str(ROOT))


def _setup_caches(cache):
    base = Path(cache) if cache else Path(tempfile.mkdtemp(prefix="adtrans-first-call-"))
    os.environ["NUMBA_CACHE_DIR"] = str(base / "numba")
    os.environ["ADTRANS_CACHE_DIR"] = str(base / "adtrans")


class Clock:
    """CPU seconds of the main thread spent in Numba compiles and in adtrans' stages."""

    def __init__(self):
        self.compile = 0.0
        self.stages: dict = {}
        self._depth = 0         # > 0 inside a timed region: nested regions are not counted again

    def timed(self, fn, stage=None):
        clock = self

        def wrapper(*args, **kwargs):
            if clock._depth and stage is None:
                return fn(*args, **kwargs)
            outer = clock._depth == 0
            clock._depth += 1
            t = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                clock._depth -= 1
                dt = time.thread_time() - t
                if stage is None:
                    clock.compile += dt
                elif outer or stage != "transform":
                    clock.stages[stage] = clock.stages.get(stage, 0.0) + dt
        return wrapper

    def reset(self):
        self.compile = 0.0
        self.stages = {}


def install(clock):
    """Time Numba's compiles and adtrans' pipeline stages (module attributes, patched)."""
    from numba.core import dispatcher

    import adtrans.pipeline as P
    from adtrans.targets.cpu import CpuTarget

    dispatcher.Dispatcher.compile = clock.timed(dispatcher.Dispatcher.compile)
    adjoint_module = sys.modules["adtrans.adjoint"]      # (adtrans.adjoint is the function)
    adjoint_module.compiled = clock.timed(adjoint_module.compiled, "transform")
    for name, stage in (("normalise", "normalise"), ("infer_types", "types"), ("analyse_activity", "activity"),
                        ("build_adjoint", "adjoint"), ("tidy", "tidy"), ("render_function", "emit")):
        setattr(P, name, clock.timed(getattr(P, name), stage))
    CpuTarget.lower = clock.timed(CpuTarget.lower, "lower")


def cases(only):
    import numpy as np

    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))
    import array_kernels as AK
    import gradbench as GB
    import kernels as BK
    from examples.minibude import deck as D
    from examples.minibude import kernel as MB

    rng = np.random.default_rng(0)
    idx = rng.integers(0, 50, 80)
    deck = D.make_synthetic_deck(seed=3, nposes=16, dtype=np.float64)
    out = [
        ("scalar recurrence", BK.recurrence, ("dup", "active"), (rng.random(20), 0.7)),
        ("lse", GB.lse, ("dup",), GB.lse_input(100, rng)),
        ("llsq", GB.llsq, ("dup", "const"), GB.llsq_input(100, 8, rng)),
        ("ode", GB.ode, ("dup", "const", "dup"), GB.ode_input(10, 3, rng)),
        ("gmm", GB.gmm, ("dup",) * 4 + ("const",) * 3, GB.gmm_input(3, 4, 5, rng)),
        ("ba", GB.ba, ("dup", "dup", "dup", "const", "const", "dup", "dup"), GB.ba_input(3, 5, 10, rng)),
        ("kmeans", GB.kmeans, ("const", "dup"), GB.kmeans_input(10, 3, 2, rng)),
        ("prange gather", BK.gather_energy, ("dup", "const", "dup"), (rng.random(50), idx, rng.random(80))),
        ("whole-array nbody", AK.nbody_broadcast, ("dup", "dup", "dup", "const", "const"),
         tuple(rng.random(12) for _ in range(4)) + (0.1,)),
        ("miniBUDE blocked", MB.fasten_main_blocked, ("dup",) + ("const",) * 7 + ("dup", "dup"),
         deck.kernel_args() + (np.zeros(deck.nposes),)),
    ]
    return [c for c in out if not only or any(o in c[0] for o in only)]


def measure_kernel(clock, fn, act, args):
    import numba
    import numpy as np

    import adtrans
    opts = {k: v for k, v in (fn.targetoptions or {}).items() if k not in ("cache", "nopython")}
    fresh = numba.njit(**opts)(fn.py_func)
    clock.reset()
    fresh(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    primal = clock.compile
    flat = []
    for a, k in zip(args, act):
        flat.append(a.copy() if isinstance(a, np.ndarray) else a)
        if k == "dup":
            flat.append(np.zeros_like(a))
    adj = adtrans.adjoint(fn, act)
    clock.reset()
    adj(*flat, 1.0)
    return primal, clock.compile, dict(clock.stages)


def measure_lulesh(clock):
    sys.path.insert(0, str(ROOT))
    from examples.lulesh import grad as G
    from examples.lulesh import lulesh as L
    from examples.lulesh.domain import Domain

    d = G.without_cutoffs(G.jitter_mesh(Domain(3), 0.05, seed=1))
    args = L.step_arguments(d)
    clock.reset()
    L.lagrange_leapfrog_arrays(*G.copy_arguments(args))
    primal = clock.compile
    work = G.copy_arguments(args)
    seeds = [a * 0.0 + 1.0 for a in work[:L.STEP_N_FLOAT_ARRAYS]]
    clock.reset()
    t = time.thread_time()
    G.step_adjoint(work, seeds, dt_active=True)
    total = time.thread_time() - t
    stages = dict(clock.stages)
    stages["driver"] = total - clock.compile - stages.get("transform", 0.0)
    return primal, clock.compile, stages


def table(only, lulesh):
    import numba
    numba.njit(lambda x: x + 1.0)(1.0)      # Numba's own start-up (LLVM, first typing) is nobody's
    clock = Clock()
    install(clock)
    rows = []
    for name, fn, act, args in cases(only):
        rows.append((name,) + measure_kernel(clock, fn, act, args))
    if lulesh:
        rows.append(("LULESH step (driver)",) + measure_lulesh(clock))
    print(f"{'kernel':<22} {'primal compile':>14} {'transform':>9} {'adjoint compile':>15} "
          f"{'(tr+comp)/primal':>16}  transform by stage   [CPU s]")
    for name, primal, comp, st in rows:
        tr = st.pop("transform", 0.0) + st.pop("driver", 0.0)
        stages = ", ".join(f"{k} {v:.2f}" for k, v in sorted(st.items(), key=lambda kv: -kv[1]) if v >= 0.005)
        print(f"{name:<22} {primal:>14.2f} {tr:>9.2f} {comp:>15.2f} {(tr + comp) / max(primal, 1e-9):>16.1f}  "
              f"{stages}", flush=True)
    tot = [sum(r[k] for r in rows) for k in (1, 2)]
    print(f"{'total':<22} {tot[0]:>14.2f} {'':>9} {tot[1]:>15.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warm", action="store_true", help="run twice in two processes sharing the caches")
    ap.add_argument("--lulesh", action="store_true", help="also LULESH's one-step adjoint")
    ap.add_argument("--only", default="", help="comma-separated substrings of kernel names")
    ap.add_argument("--cache", default=None, help="cache directory (default: a fresh one)")
    a = ap.parse_args()
    if a.warm:
        cache = tempfile.mkdtemp(prefix="adtrans-first-call-")
        cmd = [sys.executable, __file__, "--cache", cache, "--only", a.only] + (["--lulesh"] if a.lulesh else [])
        for label in ("cold (first process)", "warm (second process, same caches)"):
            print(f"-- {label}", flush=True)
            subprocess.run(cmd, check=True)
        return
    _setup_caches(a.cache)
    table([o for o in a.only.split(",") if o], a.lulesh)


if __name__ == "__main__":
    main()

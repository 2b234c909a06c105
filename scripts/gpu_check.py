"""The CUDA path of adtrans on a real GPU (``make gpu-check``, under 5 minutes on one GPU).

1. Runs the CUDA tests (``tests/test_cuda.py``, ``tests/test_cuda_sim.py``) on the GPU: the
   simulator off, ``ADTRANS_CUDA_DIRECT=1`` so the launched checks run in-process;
2. compiles every adjoint kernel of the tests and of miniBUDE to PTX for sm_90 with
   ``cuda.compile_ptx(fn, sig, cc=(9, 0))`` (needs NVRTC: ``numba-cuda[cu13]`` and
   ``cuda-toolkit[nvrtc,nvvm,cudart,cccl]==13.0.*``; reported as skipped without it);
3. checks the miniBUDE adjoint kernel against the CPU adjoint (float64, a slice of bm1) and
   times the miniBUDE primal and adjoint kernels on bm1 (float32, device-resident arrays,
   ``cuda.synchronize()`` around each timed launch, medians of ``--repeats``) and prints the
   ratio adjoint / primal.

    python scripts/gpu_check.py [--deck DIR] [--poses N] [--repeats K] [--skip-tests]
    python scripts/gpu_check.py --simulate      # smoke test of this script without a GPU (tiny slice)

Exit status 1 when a test, a PTX compile or the gradient comparison fails.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deck", default=None, help="miniBUDE deck directory (default: bm1 next to the repo)")
    p.add_argument("--poses", type=int, default=None, help="poses to time (default: all of the deck)")
    p.add_argument("--repeats", type=int, default=5, help="timed launches of each kernel (median)")
    p.add_argument("--check-poses", type=int, default=256, help="poses of the float64 CPU comparison")
    p.add_argument("--threads", type=int, default=64, help="threads per block")
    p.add_argument("--skip-tests", action="store_true", help="do not run the pytest step")
    p.add_argument("--simulate", action="store_true",
                   help="run under the numba-cuda simulator on a tiny slice (checks this script, no GPU)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object at the end")
    return p.parse_args()


ARGS = parse_args()
if ARGS.simulate:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"          # before numba is imported
for path in (REPO, REPO / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

RESULTS: dict = {"ok": True}


def step(title):
    print(f"\n== {title}", flush=True)


def fail(msg):
    RESULTS["ok"] = False
    print(f"FAIL: {msg}", flush=True)


def run_tests():
    step("CUDA tests " + ("(simulator)" if ARGS.simulate else "on the GPU"))
    env = dict(os.environ, ADTRANS_CUDA_DIRECT="1")
    if not ARGS.simulate:
        env.pop("NUMBA_ENABLE_CUDASIM", None)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-ra",
                           "tests/test_cuda.py", "tests/test_cuda_sim.py", "tests/test_intrinsics_cuda_sim.py"],
                          cwd=REPO, env=env, text=True, capture_output=True, timeout=240)
    out = (proc.stdout + proc.stderr).strip().splitlines()
    print("\n".join(out[-25:]))
    RESULTS["tests"] = {"returncode": proc.returncode, "summary": out[-1] if out else "",
                        "seconds": round(time.perf_counter() - t0, 1)}
    if proc.returncode != 0:
        fail("CUDA tests")


def compile_ptx_all():
    step("PTX for sm_90 (cuda.compile_ptx, cc=(9, 0))")
    if ARGS.simulate:
        print("skipped under the simulator")
        RESULTS["ptx"] = "skipped (simulator)"
        return
    import test_cuda
    reason = test_cuda._nvrtc_reason()
    if reason:
        print("skipped:", reason)
        RESULTS["ptx"] = f"skipped: {reason}"
        return
    rows = []
    for label, fn, sig in test_cuda.adjoint_kernels():
        t0 = time.perf_counter()
        try:
            ptx, _ = cuda.compile_ptx(fn, sig, cc=(9, 0))
        except Exception as exc:  # report every kernel, then fail
            fail(f"PTX of {label}: {type(exc).__name__}: {exc}")
            continue
        rows.append({"kernel": label, "ptx_bytes": len(ptx), "atomics": ptx.count("atom."),
                     "seconds": round(time.perf_counter() - t0, 2)})
        print(f"  {label:24s} {len(ptx):8d} bytes  {ptx.count('atom.'):3d} atomics  "
              f"{rows[-1]['seconds']:.2f} s")
    RESULTS["ptx"] = rows


def load_deck(nposes, dtype, natp=None):
    from examples.minibude import deck as D
    path = D.find_deck(ARGS.deck)
    if path is None:
        deck = D.make_synthetic_deck(nposes=nposes or 1024, dtype=dtype)
    else:
        deck = D.load_deck(path, nposes=nposes, dtype=dtype)
    if natp is not None:
        deck = dataclasses.replace(deck, protein_xyz=np.ascontiguousarray(deck.protein_xyz[:natp]),
                                   protein_type=np.ascontiguousarray(deck.protein_type[:natp]))
    return deck


def close(a, b, rtol):
    return float(np.max(np.abs(a - b))) <= rtol * max(float(np.max(np.abs(b))), 1e-300)


def check_minibude():
    step("miniBUDE adjoint kernel vs the CPU adjoint (float64)")
    from examples.minibude import cuda_kernel as KG
    from examples.minibude.grad import gradient as cpu_gradient
    n = 32 if ARGS.simulate else ARGS.check_poses
    deck = load_deck(n, np.float64, natp=8 if ARGS.simulate else None)
    dprot, dposes, energies = KG.gradient(deck, "both", threads=ARGS.threads)
    ref = cpu_gradient(deck, "both", variant="scalar")
    errs = {name: float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-300))
            for name, a, b in (("energies", energies, ref.energies), ("protein_xyz", dprot, ref.protein_xyz),
                               ("poses", dposes, ref.poses))}
    print(f"  {deck.summary()}")
    for k, v in errs.items():
        print(f"  max relative difference {k:12s} {v:.2e}")
    RESULTS["check"] = {"deck": deck.summary(), **errs}
    tol = {"energies": 1e-6 if ARGS.simulate else 1e-9, "protein_xyz": 1e-8, "poses": 1e-8}
    for k, v in errs.items():
        if not v <= tol[k]:
            fail(f"miniBUDE {k}: GPU and CPU adjoints differ by {v:.2e} (> {tol[k]:.0e})")


def timed(launch, repeats, before=None):
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        cuda.synchronize()
        t0 = time.perf_counter()
        launch()
        cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def time_minibude():
    step("miniBUDE timings (float32, device arrays)")
    from examples.minibude import cuda_kernel as KG
    nposes = 64 if ARGS.simulate else ARGS.poses
    deck = load_deck(nposes, np.float32, natp=8 if ARGS.simulate else None)
    repeats = 1 if ARGS.simulate else ARGS.repeats
    print(f"  {deck.summary()}, {ARGS.threads} threads per block")
    cfg = KG.launch(deck.nposes, ARGS.threads)
    dev = [cuda.to_device(a) for a in deck.kernel_args()]
    out = cuda.device_array(deck.nposes, np.float32)
    t0 = time.perf_counter()
    KG.fasten_main[cfg](*dev, out)                       # compile + first launch
    cuda.synchronize()
    first_primal = time.perf_counter() - t0
    energies = out.copy_to_host()
    if deck.ref_energies is not None and not ARGS.simulate:
        from examples.minibude.kernel import validate_energies
        v = validate_energies(energies, deck.ref_energies)
        print(f"  energies vs ref_energies.out: max rel err {v['max_rel_err']:.2e} ({'ok' if v['ok'] else 'FAIL'})")
        if not v["ok"]:
            fail("miniBUDE energies do not validate")
    t_primal, all_primal = timed(lambda: KG.fasten_main[cfg](*dev, out), repeats)

    adj = KG.adjoint_kernel("both")
    kern = adj.kernel(*deck.kernel_args(), energies)      # the @cuda.jit adjoint for these types
    dprot = cuda.device_array_like(deck.protein_xyz)
    dposes = cuda.device_array_like(deck.poses)
    dout = cuda.device_array(deck.nposes, np.float32)
    ones = cuda.to_device(np.ones(deck.nposes, np.float32))
    zp, zq = cuda.to_device(np.zeros_like(deck.protein_xyz)), cuda.to_device(np.zeros_like(deck.poses))

    def reset():                                          # shadows: seed 1 per energy, zero gradients
        dout.copy_to_device(ones)
        dprot.copy_to_device(zp)
        dposes.copy_to_device(zq)

    args = [dev[0], dprot] + dev[1:8] + [dev[8], dposes, out, dout]
    reset()
    t0 = time.perf_counter()
    kern[cfg](*args)
    cuda.synchronize()
    first_adjoint = time.perf_counter() - t0
    if not ARGS.simulate and first_adjoint > 60:
        repeats = 1                                       # keep the whole check under 5 minutes
    t_adjoint, all_adjoint = timed(lambda: kern[cfg](*args), repeats, before=reset)
    g = dprot.copy_to_host()
    if not np.all(np.isfinite(g)):
        fail("miniBUDE adjoint gave non-finite protein gradients")
    ratio = t_adjoint / t_primal
    print(f"  primal  median {t_primal * 1e3:10.3f} ms  (first launch incl. compile {first_primal:.2f} s)")
    print(f"  adjoint median {t_adjoint * 1e3:10.3f} ms  (first launch incl. compile {first_adjoint:.2f} s)")
    print(f"  ratio adjoint / primal: {ratio:.1f}")
    RESULTS["timing"] = {"deck": deck.summary(), "threads": ARGS.threads, "repeats": repeats,
                         "primal_ms": t_primal * 1e3, "adjoint_ms": t_adjoint * 1e3, "ratio": ratio,
                         "primal_all_ms": [t * 1e3 for t in all_primal],
                         "adjoint_all_ms": [t * 1e3 for t in all_adjoint]}


def main():
    t0 = time.perf_counter()
    if not ARGS.simulate and not cuda.is_available():
        print("no CUDA GPU here: run on a machine with one, or use --simulate to check this script")
        return 1
    if not ARGS.simulate:
        dev = cuda.get_current_device()
        print(f"GPU: {dev.name.decode() if isinstance(dev.name, bytes) else dev.name}, "
              f"compute capability {dev.compute_capability}")
    if not ARGS.skip_tests:
        run_tests()
    compile_ptx_all()
    check_minibude()
    time_minibude()
    RESULTS["seconds"] = round(time.perf_counter() - t0, 1)
    print(f"\n{'OK' if RESULTS['ok'] else 'FAILED'} in {RESULTS['seconds']} s")
    if ARGS.json:
        print(json.dumps(RESULTS))
    return 0 if RESULTS["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

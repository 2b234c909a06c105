"""CUDA adjoints launched: against the CPU adjoint of the same computation and finite differences.

These tests launch kernels, so they run under the numba-cuda simulator
(``NUMBA_ENABLE_CUDASIM=1``, set before numba is imported) or, with
``ADTRANS_CUDA_DIRECT=1``, on a real GPU (``make gpu-check``).  In a plain
``pytest`` run this module is skipped and ``test_cuda.py::test_simulator_checks``
runs it in a subprocess with the simulator on, so the rest of the suite keeps
the real numba.cuda.  Kernels are kept to ~1,000 threads: the simulator runs
each thread in Python.
"""
import dataclasses
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1" and os.environ.get("ADTRANS_CUDA_DIRECT") != "1":
    pytest.skip("launches CUDA kernels: run by test_cuda.py::test_simulator_checks under the simulator "
                "(or set ADTRANS_CUDA_DIRECT=1 on a GPU)", allow_module_level=True)

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from numba import cuda  # noqa: E402

import adtrans  # noqa: E402
from adtrans import Const, Duplicated  # noqa: E402
import kernels_cuda as K  # noqa: E402

TOL = {np.float64: 1e-10, np.float32: 2e-5}


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def cuda_gradient(kernel, args, activity, weights, config, **kw):
    """Shadows after the CUDA adjoint (seeded with ``weights``) and the arrays after its forward sweep."""
    args = _copy(args)
    flat, shadows = [], {}
    for j, (a, t) in enumerate(zip(args, activity)):
        flat.append(a)
        if t == "dup":
            shadows[j] = weights[j].copy()
            flat.append(shadows[j])
    dk = adtrans.cuda.cuda_adjoint(kernel, activity, **kw) if kw else adtrans.adjoint(kernel, activity)
    dk[config](*flat)
    return shadows, args


def cpu_gradient(fn, args, activity, weights):
    args = _copy(args)
    wrapped, shadows = [], {}
    for j, (a, t) in enumerate(zip(args, activity)):
        if t == "dup":
            shadows[j] = weights[j].copy()
            wrapped.append(Duplicated(a, shadows[j]))
        else:
            wrapped.append(Const(a))
    adtrans.autodiff(fn, *wrapped)
    return shadows, args


def weights_for(args, activity, seed=1):
    g = np.random.default_rng(seed)
    return {j: g.standard_normal(a.shape).astype(a.dtype) for j, (a, t) in enumerate(zip(args, activity))
            if t == "dup"}


def close(a, b, rtol):
    scale = max(float(np.max(np.abs(b))), 1e-300) if b.size else 1.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) <= rtol * scale


CASES = list(K.cases())


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("name", CASES)
def test_matches_cpu_adjoint(name, dtype):
    kernel, cpu, args, activity, config = K.cases(dtype)[name]
    w = weights_for(args, activity)
    got, primal_after = cuda_gradient(kernel, args, activity, w, config)
    want, cpu_after = cpu_gradient(cpu, args, activity, w)
    for j in want:
        assert got[j].dtype == dtype
        assert close(got[j], want[j], TOL[dtype]), (name, j, got[j], want[j])
    for a, b in zip(primal_after, cpu_after):      # the forward sweep did what the primal does
        assert close(a, b, 1e-12 if dtype == np.float64 else 1e-5)


def objective(kernel, args, weights, config):
    args = _copy(args)
    kernel[config](*args)
    return sum(float(np.sum(w * args[j])) for j, w in weights.items())


@pytest.mark.parametrize("name", CASES)
def test_matches_finite_differences(name):
    kernel, _, args, activity, config = K.cases(np.float64)[name]
    w = weights_for(args, activity, seed=5)
    got, _ = cuda_gradient(kernel, args, activity, w, config)
    gen = np.random.default_rng(2)
    samples = 1 if name in ("block_sumsq", "tiled_matvec") else 3     # barriers are slow in the simulator
    h = 1e-6
    for j in got:
        for flat in gen.choice(args[j].size, min(samples, args[j].size), replace=False):
            plus, minus = _copy(args), _copy(args)
            plus[j].flat[flat] += h
            minus[j].flat[flat] -= h
            fd = (objective(kernel, plus, w, config) - objective(kernel, minus, w, config)) / (2 * h)
            ad = float(got[j].flat[flat])
            assert abs(ad - fd) <= 1e-6 * max(1.0, abs(fd)), (name, j, flat, ad, fd)


def test_device_arrays():
    kernel, cpu, args, activity, config = K.cases(np.float64)["gather"]
    w = weights_for(args, activity)
    want, _ = cpu_gradient(cpu, args, activity, w)
    flat, shadows = [], {}
    for j, (a, t) in enumerate(zip(args, activity)):
        flat.append(cuda.to_device(a))
        if t == "dup":
            shadows[j] = cuda.to_device(w[j])
            flat.append(shadows[j])
    adtrans.adjoint(kernel, activity)[config](*flat)
    for j in want:
        assert close(shadows[j].copy_to_host(), want[j], 1e-10)


def test_tape_capacity_for_runtime_trip_counts():
    g = np.random.default_rng(4)
    activity = ("dup", "const", "dup")
    args = [g.uniform(-1, 1, 100), 10, np.zeros(100)]
    w = weights_for(args, activity)
    got, _ = cuda_gradient(K.recurrence, args, activity, w, (2, 64), tape_capacity=64)
    want, _ = cpu_gradient(K.recurrence_cpu, args, activity, w)
    for j in want:
        assert close(got[j], want[j], 1e-10)
    args[1] = 100                   # at least 100 pushes per thread > 64: the gradient is NaN, not wrong
    got, _ = cuda_gradient(K.recurrence, args, activity, w, (2, 64), tape_capacity=64)
    assert np.isnan(got[0][0]) and np.isnan(got[2][0])


# ------------------------------------------------------------------ miniBUDE
def small_deck(dtype, nposes=32, natp=8):
    from examples.minibude import deck as D
    path = D.find_deck()
    if path is not None:
        deck = D.load_deck(path, nposes=nposes, dtype=dtype)
    else:
        deck = D.make_synthetic_deck(nposes=nposes, natp=natp, natl=12, dtype=dtype)
    return dataclasses.replace(deck, protein_xyz=np.ascontiguousarray(deck.protein_xyz[:natp]),
                               protein_type=np.ascontiguousarray(deck.protein_type[:natp]))


def test_minibude_cuda_gradient_matches_cpu():
    from examples.minibude import cuda_kernel as KG
    from examples.minibude.grad import gradient as cpu_gradient_bude
    deck = small_deck(np.float64)
    dprot, dposes, energies = KG.gradient(deck, "both")
    ref = cpu_gradient_bude(deck, "both", variant="scalar")
    # energies: the simulator evaluates float32 constants with NumPy's promotion rules (~1e-7 relative)
    assert close(energies, ref.energies, 1e-6)
    assert close(KG.energies(deck), ref.energies, 1e-6)
    assert close(dprot, ref.protein_xyz, 1e-9)
    assert close(dposes, ref.poses, 1e-9)
    assert np.any(dprot != 0) and np.any(dposes != 0)
    src = KG.adjoint_kernel("both").source(*deck.kernel_args(), energies)
    assert "cuda.atomic.add(d_protein_xyz" in src and "cuda.atomic.add(d_poses" not in src


def test_minibude_cuda_gradient_float32():
    from examples.minibude import cuda_kernel as KG
    from examples.minibude.grad import gradient as cpu_gradient_bude
    deck = small_deck(np.float32, nposes=32, natp=4)
    dprot, dposes, _ = KG.gradient(deck, "both")
    ref = cpu_gradient_bude(deck, "both", variant="scalar")
    assert dprot.dtype == np.float32 and dposes.dtype == np.float32
    assert close(dprot, ref.protein_xyz, 1e-3) and close(dposes, ref.poses, 1e-3)
    assert math.isfinite(float(np.sum(dprot)))


def test_source_without_arguments_uses_the_types_of_the_last_launch():
    kernel, _, args, activity, config = K.cases(np.float32)["stencil"]
    flat = []
    for a, t in zip(args, activity):
        flat += [a, np.zeros_like(a)] if t == "dup" else [a]
    adtrans.adjoint(kernel, activity)[config](*flat)
    src = adtrans.source(kernel, activity)
    assert src == adtrans.source(kernel, activity, *args)
    assert src != adtrans.source(kernel, activity, *K.cases(np.float64)["stencil"][2])
    assert "float32" in src


def test_last_launch_is_per_dispatcher():
    """Two ``cuda.jit`` dispatchers of one Python function are two kernels: the types of one's
    last launch do not become the other's source."""
    kernel, _, args64, activity, config = K.cases(np.float64)["stencil"]
    args32 = K.cases(np.float32)["stencil"][2]
    pyfunc = getattr(kernel, "py_func", None) or kernel.fn
    other = cuda.jit(pyfunc)

    def launch(kern, args):
        flat = []
        for a, t in zip(args, activity):
            flat += [a, np.zeros_like(a)] if t == "dup" else [a]
        adtrans.adjoint(kern, activity)[config](*flat)

    launch(other, args64)
    launch(kernel, args32)
    assert "float32" in adtrans.source(kernel, activity)
    assert adtrans.source(other, activity) == adtrans.source(other, activity, *args64)
    assert "float32" not in adtrans.source(other, activity)


def test_aliased_device_arrays_are_refused():
    """The same device array as a dup input and the output: a wrong gradient if launched,
    so the launch is refused naming both parameters (host arrays too)."""
    u = cuda.to_device(np.linspace(0.0, 1.0, 64))
    du = cuda.to_device(np.zeros(64))
    c = cuda.to_device(np.ones(64))
    adj = adtrans.adjoint(K.stencil, ("dup", "const", "dup"))
    with pytest.raises(adtrans.ActivityError, match="u and out"):
        adj[1, 64](u, du, c, u, du)
    host = np.linspace(0.0, 1.0, 64)
    with pytest.raises(adtrans.ActivityError, match="share memory"):
        adj[1, 64](host[:40], np.zeros(40), np.ones(40), host[20:60], np.ones(40))


def test_float32_casts_in_a_cuda_kernel():
    """d out_i / d x_i = 2 (x_i / 2) / 2 + 1 = x_i / 2 + 1, seeded with w: the casts are identities
    for the derivative (float32 throughout)."""
    x = np.linspace(0.1, 2.0, 64).astype(np.float32)
    w = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    dx, out = np.zeros_like(x), np.zeros_like(x)
    adtrans.adjoint(K.cast_float32, ("dup", "dup"))[1, 64](x, dx, out, w.copy())
    np.testing.assert_allclose(dx, w * (x / 2 + 1), rtol=2e-6)

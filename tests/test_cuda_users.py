"""CUDA kernels as users write them (tests/kernels_cuda_users.py): adjoints launched under the
numba-cuda simulator against central differences in float64 of the same math in NumPy.

A plain ``pytest`` run generates sources and checks refusals here (real numba.cuda, nothing
launched) and runs this file once more in ONE subprocess with ``NUMBA_ENABLE_CUDASIM=1`` (the
simulator must be chosen before numba is imported), where the launch tests run; with
``ADTRANS_CUDA_DIRECT=1`` they run directly on a GPU.
"""
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
for p in (str(REPO), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import adtrans  # noqa: E402
import adtrans.cuda as AC  # noqa: E402
import kernels_cuda_users as K  # noqa: E402
from cudacheck import copy_args as _copy, finite_differences_in_place as finite_differences  # noqa: E402

LAUNCH = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" or os.environ.get("ADTRANS_CUDA_DIRECT") == "1"
launches = pytest.mark.skipif(not LAUNCH, reason="launches kernels: run by test_under_the_simulator")
sources = pytest.mark.skipif(LAUNCH, reason="run once, outside the simulator")
NAMES = list(K.cases())


def adjoint_of(name):
    kernel, _, _, activity, _ = K.cases()[name]
    if name in K.CAPACITY:
        return AC.cuda_adjoint(kernel, activity, tape_capacity=K.CAPACITY[name])
    return adtrans.adjoint(kernel, activity)


# ------------------------------------------------------------------- launched
@launches
@pytest.mark.parametrize("name", NAMES)
def test_gradient_matches_finite_differences_of_numpy(name):
    kernel, ref, args, activity, config = K.cases()[name]
    # the kernel computes what its NumPy reference does (float32 casts round to float32)
    got, want = _copy(args), _copy(args)
    kernel[config](*got)
    ref(*want)
    primal_tol = 1e-6 if name == "cast_poly" else 1e-12
    for a, b in zip(got, want):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f":
            np.testing.assert_allclose(a, b, rtol=primal_tol, atol=primal_tol)
    rng = np.random.default_rng(1)
    weights = {j: rng.standard_normal(a.shape) for j, (a, t) in enumerate(zip(args, activity)) if t == "dup"}
    flat, shadows = [], {}
    for j, (a, t) in enumerate(zip(_copy(args), activity)):
        flat.append(a)
        if t == "dup":
            shadows[j] = weights[j].copy()
            flat.append(shadows[j])
    adjoint_of(name)[config](*flat)
    fd = finite_differences(ref, args, weights)
    tol = 2e-6 if name == "cast_poly" else 1e-7     # float32 rounding in the kernel moves the gradient
    for j in weights:
        scale = max(1.0, float(np.max(np.abs(fd[j]))))
        err = float(np.max(np.abs(shadows[j] - fd[j]))) / scale
        assert err <= tol, (name, j, err, shadows[j], fd[j])
    assert any(np.any(fd[j] != weights[j]) for j in weights)      # something flows through the kernel


@launches
@pytest.mark.parametrize("name", NAMES)
def test_float32_gradient(name):
    """The same kernels launched on float32 arrays: float32 shadows, the float64 gradient to float32
    precision."""
    kernel, ref, args, activity, config = K.cases()[name]
    a32 = [a.astype(np.float32) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a for a in args]
    a64 = [a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a for a in a32]
    rng = np.random.default_rng(2)
    weights = {j: rng.standard_normal(a.shape) for j, (a, t) in enumerate(zip(args, activity)) if t == "dup"}
    flat, shadows = [], {}
    for j, (a, t) in enumerate(zip(_copy(a32), activity)):
        flat.append(a)
        if t == "dup":
            shadows[j] = weights[j].astype(np.float32)
            flat.append(shadows[j])
    adjoint_of(name)[config](*flat)
    fd = finite_differences(ref, a64, weights)
    for j in weights:
        assert shadows[j].dtype == np.float32
        scale = max(1.0, float(np.max(np.abs(fd[j]))))
        assert float(np.max(np.abs(shadows[j] - fd[j]))) <= 2e-5 * scale, (name, j)


@launches
def test_tiled_matmul_tape_overflow_is_nan_not_wrong():
    """With a capacity below what the tiles need, the gradient is NaN, never silently wrong."""
    kernel, _, args, activity, config = K.cases()["tiled_matmul"]
    flat = []
    for a, t in zip(_copy(args), activity):
        flat += [a, np.ones_like(a)] if t == "dup" else [a]
    AC.cuda_adjoint(kernel, activity, tape_capacity=K.CAPACITY["tiled_matmul"] // 2)[config](*flat)
    assert np.isnan(flat[1][0, 0]) and np.isnan(flat[3][0, 0])


# ------------------------------------------------------ generated, not launched
def source(name):
    kernel, _, args, activity, _ = K.cases()[name]
    return adjoint_of(name).source(*args)


def code(text):
    return "\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("#"))


@sources
def test_row_view_passed_to_a_device_helper_is_an_index_rewrite():
    text = source("logistic_rows")
    assert "dot_row(" not in code(text) and "X_i" not in code(text)
    assert re.search(r"d_X\[i, \w+\] \+=", text) and "atomic.add(d_X" not in text     # row i: thread i alone
    assert "cuda.atomic.add(d_w, " in text                                           # w: every thread
    text = source("staged_rows")                                 # a row of a shared tile: a view too
    assert "dot_row(" not in code(text) and re.search(r"d_X\[i, \w+\] \+=", text)
    assert "d_sh = cuda.shared.array((32, 4), np.float64)" in text


@sources
def test_lane_slots_of_a_short_fused_loop_are_local_arrays():
    text = source("row_softmax")
    assert "np.zeros" not in text and re.search(r"d_s_lanes = cuda.local.array\(6, np.float64\)", text)


@sources
def test_atomics_only_where_threads_collide():
    text = source("laplace2d")
    assert "cuda.atomic.add(d_u, " in text and "atomic.add(d_out" not in text        # neighbours collide on u
    text = source("histogram")
    assert "atomic.add(d_x" not in text and "cuda.atomic.add(hist, " in text          # the primal's atomic
    text = source("nbody_accel")
    assert "cuda.atomic.add(d_pos, " in text and "cuda.atomic.add(d_mass, " in text
    assert "atomic.add(d_acc" not in text
    text = source("saxpy_return")
    assert "cuda.atomic.add(d_a, 0," in text and "atomic.add(d_x" not in text and "atomic.add(d_y" not in text


@sources
def test_shared_memory_reduction_and_halo_mirror_their_barriers():
    text = source("sum_squares")
    assert "d_sh = cuda.shared.array(32, np.float64)" in text and "cuda.atomic.add(d_sh, " in text
    assert text.count("cuda.syncthreads()") == 5          # 1 + 1 per round, mirrored, + 1 after zeroing d_sh
    text = source("shared_halo")
    assert "d_sh = cuda.shared.array(34, np.float64)" in text
    assert text.count("cuda.syncthreads()") == 3


@sources
@pytest.mark.parametrize("name", NAMES)
def test_sources_are_cuda_kernels(name):
    text = source(name)
    assert text.startswith("@cuda.jit")
    for absent in ("np.zeros", "np.empty", "tape_push", "prange", ".copy()"):
        assert absent not in text, (name, absent)


def marked_line(fn):
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, ln in enumerate(lines) if "# <-" in ln)


@sources
def test_runtime_tile_count_needs_a_tape_capacity():
    """A taped loop of run-time length: refused at the user's loop, quoting it, with the way out."""
    kernel, _, args, activity, _ = K.cases()["tiled_matmul"]
    with pytest.raises(adtrans.UnsupportedError, match="tape_capacity") as info:
        adtrans.source(kernel, activity, *args)
    assert info.value.lineno == marked_line(kernel)
    assert info.value.filename.endswith("kernels_cuda_users.py")
    assert "`for t in range(A.shape[1] // TILE):`" in str(info.value)


@sources
def test_shared_array_of_runtime_shape_is_refused_at_its_line():
    x = np.zeros(8)
    with pytest.raises(adtrans.UnsupportedError, match="must be a constant") as info:
        adtrans.source(K.shared_runtime_shape, ("dup", "dup"), x, x)
    assert info.value.lineno == marked_line(K.shared_runtime_shape)


@sources
def test_warp_shuffle_is_refused_at_its_line():
    x = np.zeros(32)
    with pytest.raises(adtrans.UnsupportedError, match="cuda.shfl_down_sync") as info:
        adtrans.source(K.warp_sum, ("dup", "dup"), x, x[:1])
    assert info.value.lineno == marked_line(K.warp_sum)


@pytest.mark.skipif(LAUNCH, reason="this is the simulator run")
def test_under_the_simulator():
    """The launch tests of this file, in one subprocess with the simulator on."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(Path(__file__))],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    assert f"{2 * len(NAMES) + 1} passed" in tail, tail

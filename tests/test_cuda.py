"""CUDA adjoints: generated source (atomics only where threads collide, barriers mirrored),
errors, PTX for sm_90 when NVRTC is installed, and the launched checks under the simulator.

Everything here runs with the real numba.cuda and no GPU (nothing is launched);
``test_simulator_checks`` runs ``test_cuda_sim.py`` in a subprocess with
``NUMBA_ENABLE_CUDASIM=1`` (the simulator must be chosen before numba is imported).
"""
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import adtrans
import adtrans.cuda as AC
import kernels_cuda as K

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def src(name, dtype=np.float64):
    kernel, _, args, activity, _ = K.cases(dtype)[name]
    return adtrans.source(kernel, activity, *args)


@pytest.mark.parametrize("name", list(K.cases()))
def test_source_is_a_cuda_kernel(name):
    text = src(name)
    assert text.startswith("@cuda.jit")
    assert not re.search(r"^\s*return\b", text, re.M)
    for absent in ("np.zeros", "np.empty", "tape_push", "prange", ".copy()"):
        assert absent not in text, absent


def test_no_atomics_where_indices_are_unique_per_thread():
    text = src("axpy")
    assert "cuda.atomic.add(d_a, 0," in text                 # every thread reads a[0]
    assert "d_x[i] +=" in text and "d_y[i] +=" in text       # x[i], y[i]: one thread per element
    assert "atomic.add(d_x" not in text and "atomic.add(d_y" not in text
    text = src("gather")
    assert "cuda.atomic.add(d_x, " in text                   # gather through idx: threads collide
    assert "d_w[i] +=" in text and "atomic.add(d_w" not in text
    text = src("stencil")                                    # i from threadIdx.x + blockIdx.x * blockDim.x
    assert "d_c[i] +=" in text and "atomic.add(d_c" not in text
    assert text.count("cuda.atomic.add(d_u,") == 5           # neighbours u[i-1], u[i], u[i+1]


def test_two_dimensional_grid_and_primal_atomics():
    text = src("rowsum2d")
    assert "cuda.grid(2)" in text
    assert "cuda.atomic.add(out, i," in text                 # the primal's atomic, in the forward sweep
    assert "d_A[i, j] +=" in text and "atomic.add(d_A" not in text
    assert "cuda.atomic.add(d_w, j," in text                 # w[j] is read by every row
    assert re.search(r"= d_out\[i\]", text) and "atomic.add(d_out" not in text


def test_shared_memory_reduction_mirrors_barriers():
    text = src("block_sumsq")
    assert "d_sh = cuda.shared.array(64, np.float64)" in text
    assert "cuda.atomic.add(d_sh," in text
    # forward: 1 before the loop + 1 per round; reverse: the same two; +1 after zeroing d_sh
    assert text.count("cuda.syncthreads()") == 5
    lines = [ln.strip() for ln in text.splitlines()]
    reverse_loop = lines.index(next(ln for ln in lines if re.match(r"for \w+ in range\(trips\w*\):", ln)))
    # each reverse round starts with the barrier that ended its forward round: before any
    # statement of the round that touches shared memory (only thread-local tape pops may precede it)
    body = lines[reverse_loop + 1:]
    barrier = body.index("cuda.syncthreads()")
    assert all(ln.startswith(("top_int64 -= 1", "s = tape_int64[")) for ln in body[:barrier]), body[:barrier]
    assert "tape_int64 = cuda.local.array(64, np.int64)" in text   # a halving loop: at most 64 rounds


def test_device_function_is_inlined_and_local_arrays_get_local_shadows():
    text = src("spring_chain")
    code = "\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("#"))   # comments quote the source
    assert "soft_energy(" not in code and "math.sqrt" in code
    assert "d_k[i] +=" in text and "cuda.atomic.add(d_x," in text
    text = src("poly_local")
    assert "d_p = cuda.local.array(4, np.float64)" in text
    size = re.search(r"tape_float64 = cuda.local.array\((\d+), np.float64\)", text)
    assert size and 4 <= int(size.group(1)) <= 64                        # pushes x 4 trips, counted


def test_shared_memory_tiles_are_saved_per_thread():
    text = src("tiled_matvec")
    assert re.search(r"sh_before_loop\w* = cuda.local.array\(32, np.float64\)", text)  # the tile, per thread
    size = re.search(r"tape_float64 = cuda.local.array\((\d+), np.float64\)", text)
    assert size and int(size.group(1)) >= 64                                   # 2 tiles of 32 values
    assert "cuda.atomic.add(d_sh, " in text and re.search(r"d_A\[i, \w+\] \+=", text)


def test_float32_shadows_keep_their_precision():
    text = src("gather", np.float32)
    assert "np.float32(" in text
    assert "math.nan" not in text


def test_adjoint_object_and_signature():
    kernel, _, args, activity, _ = K.cases()["axpy"]
    dk = adtrans.adjoint(kernel, activity)
    assert isinstance(dk, AC.CudaAdjointKernel)
    disp = dk.kernel(*args)
    assert type(disp).__module__.startswith("numba.cuda") and hasattr(disp, "py_func")
    by_sig = adtrans.source(kernel, activity, signature="void(float64[:], float64[:], float64[:])")
    assert by_sig == dk.source(*args)
    with pytest.raises(adtrans.ActivityError):
        adtrans.adjoint(kernel, ("dup", "dup"))
    with pytest.raises(adtrans.ActivityError):
        dk[1, 32](*args)                                     # shadows missing


def marked_line(fn):
    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(k for k, ln in enumerate(lines) if "# <-" in ln)


def test_unsupported_constructs():
    x = np.zeros(8)
    with pytest.raises(adtrans.UnsupportedError, match="1-element array"):
        adtrans.source(K.scale_by, ("active", "dup", "dup"), 1.0, x, x)
    for fn, what in ((K.uses_atomic_result, "value returned by `cuda.atomic.add`"),
                     (K.uses_atomic_max, "cuda.atomic.max")):
        with pytest.raises(adtrans.UnsupportedError) as info:
            adtrans.source(fn, ("dup", "dup"), x, x)
        assert what in str(info.value) and info.value.lineno == marked_line(fn)
    with pytest.raises(adtrans.UnsupportedError, match="separate output array") as info:
        adtrans.source(K.overwrites_after_loop, ("dup", "dup", "dup"), x, x, x)
    assert info.value.lineno == marked_line(K.overwrites_after_loop)      # the loop's line, not the def's


def test_tape_in_a_loop_of_runtime_length_needs_a_capacity():
    x = np.zeros(8)
    with pytest.raises(adtrans.UnsupportedError, match="tape_capacity") as info:
        adtrans.source(K.recurrence, ("dup", "const", "dup"), x, 3, x)
    assert "for k in range(n)" in str(info.value)
    text = AC.cuda_source(K.recurrence, ("dup", "const", "dup"), x, 3, x, tape_capacity=16)
    assert "tape_float64 = cuda.local.array(16, np.float64)" in text and "tape_overflow" in text


def _nvrtc_reason():
    """None when cuda.compile_ptx works here, else why not (NVRTC/NVVM missing)."""
    from numba import cuda

    def probe(x):
        i = cuda.grid(1)
        if i < x.shape[0]:
            x[i] = 1.0
    try:
        cuda.compile_ptx(probe, "void(float64[:])", cc=(9, 0))
    except Exception as exc:  # DynamicLibNotFoundError, NvrtcSupportError, CudaSupportError ...
        return f"cuda.compile_ptx unavailable ({type(exc).__name__}: {str(exc)[:120]}); " \
               f"install numba-cuda[cu13] and cuda-toolkit[nvrtc,nvvm,cudart,cccl]==13.0.*"
    return None


def adjoint_kernels():
    """(label, python function, signature) of every adjoint kernel of the tests and of miniBUDE."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    out = []
    for dtype in (np.float64, np.float32):
        for name, (kernel, _, args, activity, _) in K.cases(dtype).items():
            out.append((f"{name}-{np.dtype(dtype).name}", adtrans.adjoint(kernel, activity), args, activity))
        x = np.zeros(8, dtype)
        out.append((f"recurrence-{np.dtype(dtype).name}",
                    AC.cuda_adjoint(K.recurrence, ("dup", "const", "dup"), tape_capacity=16), [x, 3, x],
                    ("dup", "const", "dup")))
        from examples.minibude import cuda_kernel as KG
        from examples.minibude.deck import make_synthetic_deck
        deck = make_synthetic_deck(nposes=8, natp=4, natl=4, dtype=dtype)
        args = list(deck.kernel_args()) + [np.zeros(8, dtype)]
        out.append((f"minibude-{np.dtype(dtype).name}", KG.adjoint_kernel("both"), args,
                    KG.adjoint_kernel("both").activity))
    sigs = []
    for label, dk, args, activity in out:
        types = []
        for a, t in zip(args, activity):
            ty = numba.typeof(a)
            types += [ty, ty] if t == "dup" else [ty]
        sigs.append((label, dk.kernel(*args).py_func, numba.void(*types)))
    return sigs


def test_adjoints_compile_to_ptx():
    reason = _nvrtc_reason()
    if reason:
        pytest.skip(reason)
    from numba import cuda
    for label, fn, sig in adjoint_kernels():
        ptx, _ = cuda.compile_ptx(fn, sig, cc=(9, 0))
        assert ".target sm_90" in ptx, label
        if "axpy" in label or "minibude" in label:
            assert "atom.global.add" in ptx, label


@pytest.mark.skipif(os.environ.get("ADTRANS_CUDA_DIRECT") == "1", reason="test_cuda_sim.py runs directly")
def test_simulator_checks():
    """Launch the adjoints under the numba-cuda simulator (in a subprocess: the simulator is chosen at
    import): ``test_cuda_sim.py`` and the intrinsics' CUDA check ``test_intrinsics_cuda_sim.py``, in one
    process (each process pays ~10 s to start pytest, Numba, the simulator and adtrans)."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    files = ["test_cuda_sim.py", "test_intrinsics_cuda_sim.py"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"]
                          + [str(HERE / f) for f in files], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=900)
    tail = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, tail
    # nothing skipped: a module-level skip (the simulator not chosen) would leave a file out
    assert " passed" in tail and "skipped" not in tail.splitlines()[-1], tail

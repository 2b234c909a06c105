"""The new intrinsics in a CUDA kernel's adjoint, against central differences of the launched primal.

Run under the numba-cuda simulator by ``test_cuda.py::test_simulator_checks`` (or with
``ADTRANS_CUDA_DIRECT=1`` on a GPU).
"""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1" and os.environ.get("ADTRANS_CUDA_DIRECT") != "1":
    pytest.skip("launches CUDA kernels: run by test_cuda.py::test_simulator_checks under the simulator",
                allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import adtrans  # noqa: E402
import kernels_intrinsics as K  # noqa: E402


def _launch(x):
    out = np.zeros_like(x)
    K.cuda_intrinsics[2, 32](x, out)
    return out


def test_cuda_adjoint_of_new_intrinsics_matches_finite_differences():
    rng = np.random.default_rng(3)
    x = rng.uniform(0.2, 0.8, 50)
    w = rng.standard_normal(50)
    xb, outb = np.zeros_like(x), w.copy()
    adtrans.adjoint(K.cuda_intrinsics, ("dup", "dup"))[2, 32](x.copy(), xb, np.zeros_like(x), outb)
    h = 1e-6
    fd = w * (_launch(x + h) - _launch(x - h)) / (2 * h)       # out[i] depends on x[i] only
    np.testing.assert_allclose(xb, fd, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(xb, w * K.cuda_intrinsics_derivative(x), rtol=1e-12)

"""CUDA kernels for the CUDA adjoint tests, each with a CPU (@njit) version of the same computation.

The CPU versions loop over the "threads" of a launch in order; their adtrans
adjoints are the reference for the CUDA adjoints (besides finite differences).
Launch configurations are in :data:`LAUNCH` (threads kept ~1,000 for the simulator).
"""
import math

import numpy as np
import numba
from numba import cuda, float64, njit

BLOCK = 64          # threads per block of the shared-memory reduction (a power of 2)


# --------------------------------------------------------------------- axpy
@cuda.jit
def axpy(a, x, y):
    """y = a[0] * x + y, with the scalar ``a`` in a 1-element array (Active scalars are not allowed)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a[0] * x[i] + y[i]


@njit
def axpy_cpu(a, x, y):
    for i in range(x.shape[0]):
        y[i] = a[0] * x[i] + y[i]


# ------------------------------------------------------------------- gather
@cuda.jit
def gather(x, idx, w, out):
    """out[i] = w[i] * sin(x[idx[i]])**2: threads collide on x."""
    i = cuda.grid(1)
    if i < idx.shape[0]:
        v = math.sin(x[idx[i]])
        out[i] = w[i] * v * v


@njit
def gather_cpu(x, idx, w, out):
    for i in range(idx.shape[0]):
        v = math.sin(x[idx[i]])
        out[i] = w[i] * v * v


# ------------------------------------------------------------------ stencil
@cuda.jit
def stencil(u, c, out):
    """1-D three-point stencil with a nonlinear term; early return for edge threads."""
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    n = u.shape[0]
    if i < 1 or i >= n - 1:
        return
    lap = u[i - 1] - 2.0 * u[i] + u[i + 1]
    out[i] = c[i] * lap + 0.1 * u[i] * u[i + 1]


@njit
def stencil_cpu(u, c, out):
    n = u.shape[0]
    for i in range(1, n - 1):
        lap = u[i - 1] - 2.0 * u[i] + u[i + 1]
        out[i] = c[i] * lap + 0.1 * u[i] * u[i + 1]


# ------------------------------------------------- shared-memory reduction
@cuda.jit
def block_sumsq(x, out):
    """out[block] = sum over the block's threads of x[i]**2 (tree reduction in shared memory)."""
    sh = cuda.shared.array(BLOCK, float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = 0.0
    if i < x.shape[0]:
        v = x[i]
    sh[t] = v * v
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            sh[t] += sh[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = math.sqrt(sh[0] + 1.0)


@njit
def block_sumsq_cpu(x, out):
    for b in range(out.shape[0]):
        acc = 0.0
        for t in range(BLOCK):
            i = b * BLOCK + t
            if i < x.shape[0]:
                acc += x[i] * x[i]
        out[b] = math.sqrt(acc + 1.0)


# ----------------------------------------------- 2-D grid, atomic primal
@cuda.jit
def rowsum2d(A, w, out):
    """out[i] += sum_j w[j] * A[i, j]**2 with cuda.atomic.add (threads of a row collide on out[i])."""
    i, j = cuda.grid(2)
    if i < A.shape[0] and j < A.shape[1]:
        cuda.atomic.add(out, i, w[j] * A[i, j] * A[i, j])


@njit
def rowsum2d_cpu(A, w, out):
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            out[i] += w[j] * A[i, j] * A[i, j]


# ---------------------------------------------------------- device function
@cuda.jit(device=True)
def soft_energy(d, k):
    r = math.sqrt(d * d + 0.25)
    return k * (r - 0.5) * (r - 0.5)


@cuda.jit
def spring_chain(x, k, energy):
    """energy[0] += sum_i soft_energy(x[i+1] - x[i], k[i]) through a device function."""
    i = cuda.grid(1)
    if i < x.shape[0] - 1:
        e = soft_energy(x[i + 1] - x[i], k[i])
        cuda.atomic.add(energy, 0, e)


@njit
def soft_energy_cpu(d, k):
    r = math.sqrt(d * d + 0.25)
    return k * (r - 0.5) * (r - 0.5)


@njit
def spring_chain_cpu(x, k, energy):
    for i in range(x.shape[0] - 1):
        e = soft_energy_cpu(x[i + 1] - x[i], k[i])
        energy[0] += e


# --------------------------------------------------- local array and a loop
@cuda.jit
def poly_local(x, coef, out):
    """Horner-like recurrence over a per-thread local array (a taped loop with a constant trip count)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        p = cuda.local.array(4, float64)
        for k in range(4):
            p[k] = coef[k] * x[i]
        acc = 0.0
        for k in range(4):
            acc = acc * x[i] + math.sin(p[k])
        out[i] = acc


@njit
def poly_local_cpu(x, coef, out):
    for i in range(x.shape[0]):
        p = np.zeros(4)
        for k in range(4):
            p[k] = coef[k] * x[i]
        acc = 0.0
        for k in range(4):
            acc = acc * x[i] + math.sin(p[k])
        out[i] = acc


# ------------------------------------------------- shared-memory tiling
TILE = 32
NTILES = 2


@cuda.jit
def tiled_matvec(A, x, y):
    """y[i] = tanh(sum_j A[i, j] * x[j]) with x staged through shared memory tile by tile."""
    sh = cuda.shared.array(TILE, float64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    acc = 0.0
    for tile in range(NTILES):
        j = tile * TILE + t
        sh[t] = x[j] if j < x.shape[0] else 0.0
        cuda.syncthreads()
        if i < A.shape[0]:
            for k in range(TILE):
                acc += A[i, tile * TILE + k] * sh[k]
        cuda.syncthreads()
    if i < A.shape[0]:
        y[i] = math.tanh(acc)


@njit
def tiled_matvec_cpu(A, x, y):
    for i in range(A.shape[0]):
        acc = 0.0
        for tile in range(NTILES):
            for k in range(TILE):
                j = tile * TILE + k
                xv = x[j] if j < x.shape[0] else 0.0
                acc += A[i, tile * TILE + k] * xv
        y[i] = math.tanh(acc)


# ------------------------------------- a recurrence with a runtime trip count
@cuda.jit
def recurrence(x, n, out):
    """A per-thread recurrence run ``n`` times (``n`` a runtime value): its tape needs a capacity."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        for k in range(n):
            v = math.sin(v) * 1.1 + 0.1 * v
        out[i] = v


@njit
def recurrence_cpu(x, n, out):
    for i in range(x.shape[0]):
        v = x[i]
        for k in range(n):
            v = math.sin(v) * 1.1 + 0.1 * v
        out[i] = v


# ------------------------------------------------------- unsupported kernels
@cuda.jit
def scale_by(c, x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = c * x[i]


@cuda.jit
def uses_atomic_result(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        old = cuda.atomic.add(out, 0, x[i])  # <-
        out[1] = old


@cuda.jit
def uses_atomic_max(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.max(out, 0, x[i])  # <-


@cuda.jit
def overwrites_after_loop(x, w, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        acc = 0.0
        for k in range(w.shape[0]):  # <- the loop whose reverse would need w as it was
            acc += w[k] * x[i]
        w[0] = math.sin(acc)  # overwrites an array the loop reads (its reverse needs acc: no fusion)
        out[i] = acc


def _rng(seed):
    return np.random.default_rng(seed)


def cases(dtype=np.float64):
    """name -> (cuda kernel, cpu kernel, args, activity, (griddim, blockdim))."""
    g = _rng(7)
    n = 256
    f = lambda *shape: g.uniform(-1.0, 1.0, shape).astype(dtype)
    return {
        "axpy": (axpy, axpy_cpu, [np.array([0.7], dtype), f(n), f(n)], ("dup", "dup", "dup"), (4, 64)),
        "gather": (gather, gather_cpu, [f(40), g.integers(0, 40, n).astype(np.int64), f(n), np.zeros(n, dtype)],
                   ("dup", "const", "dup", "dup"), (4, 64)),
        "stencil": (stencil, stencil_cpu, [f(n), f(n), np.zeros(n, dtype)], ("dup", "dup", "dup"), (4, 64)),
        "block_sumsq": (block_sumsq, block_sumsq_cpu, [f(200), np.zeros(4, dtype)], ("dup", "dup"),
                        (4, BLOCK)),
        "rowsum2d": (rowsum2d, rowsum2d_cpu, [f(20, 24), f(24), f(20)], ("dup", "dup", "dup"),
                     ((3, 3), (8, 8))),
        "spring_chain": (spring_chain, spring_chain_cpu, [f(n), g.uniform(0.5, 1.5, n - 1).astype(dtype),
                                                          np.zeros(1, dtype)], ("dup", "dup", "dup"), (4, 64)),
        "poly_local": (poly_local, poly_local_cpu, [f(100), f(4), np.zeros(100, dtype)], ("dup", "dup", "dup"),
                       (2, 64)),
        "tiled_matvec": (tiled_matvec, tiled_matvec_cpu, [0.3 * f(100, TILE * NTILES), f(50), np.zeros(100, dtype)],
                         ("dup", "dup", "dup"), (4, TILE)),
    }


@cuda.jit
def cast_float32(x, out):
    """``numba.float32(...)`` casts of constants and of a value, as float32 kernels are written."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        half = numba.float32(0.5)
        v = numba.float32(x[i]) * half
        out[i] = v * v + numba.float32(1.0) * x[i]

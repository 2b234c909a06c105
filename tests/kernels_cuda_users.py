"""CUDA kernels written the way numba-cuda users write them, each with the same math in NumPy.

Forms covered (one or more per kernel): ``i = cuda.grid(1)`` with an ``if i < n:`` guard or an
early ``return``; grid-stride loops ``for i in range(start, n, stride)``; 2-D grids
``i, j = cuda.grid(2)``; ``n, m = A.shape``; ``@cuda.jit(device=True)`` helpers with default
arguments; ``math.*``; ``cuda.local.array`` scratch; ``cuda.shared.array`` + ``cuda.syncthreads()``
tiled reductions and matmul; ``cuda.atomic.add`` in the primal (histogram, sum reduction); row views
``A[i]`` passed to device helpers; ``numba.float32`` casts; loops over neighbours (n-body, stencils).

:func:`cases` gives, per kernel: (kernel, NumPy reference, args, activity, launch config).  A NumPy
reference takes the arguments and updates them in place as the kernel does (float64), so that
central differences of it give the gradient the adjoint must match.  Sizes are kept small: the
simulator runs every thread in Python.
"""
import math

import numba
import numpy as np
from numba import cuda, float64

TPB = 32            # threads per block of the shared-memory reduction
TILE = 8            # tile width of the shared-memory matmul
K_SOFT = 6          # columns of the local-array softmax


# --------------------------------------------------------------- 1. saxpy, early return
@cuda.jit
def saxpy_return(a, x, y):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    y[i] = a[0] * x[i] + y[i]


def saxpy_return_np(a, x, y):
    y[:] = a[0] * x + y


# ----------------------------------------------------------------- 2. grid-stride loop
@cuda.jit
def gauss_stride(x, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = math.exp(-x[i] * x[i]) + 0.5 * math.sin(x[i])


def gauss_stride_np(x, out):
    out[:] = np.exp(-x * x) + 0.5 * np.sin(x)


# ------------------------------------------------------ 3. 2-D grid, n, m = A.shape
@cuda.jit
def scale_cols(A, w, B):
    i, j = cuda.grid(2)
    n, m = A.shape
    if i < n and j < m:
        B[i, j] = math.tanh(A[i, j]) * w[j]


def scale_cols_np(A, w, B):
    B[:] = np.tanh(A) * w[None, :]


# ------------------------------------------------- 4. device helper with default argument
@cuda.jit(device=True)
def smooth_abs(v, eps=1e-2):
    return math.sqrt(v * v + eps)


@cuda.jit
def smooth_l1(x, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i < n:
        out[i] = smooth_abs(x[i]) + 0.5 * smooth_abs(x[i], 0.25)


def smooth_l1_np(x, out):
    out[:] = np.sqrt(x * x + 1e-2) + 0.5 * np.sqrt(x * x + 0.25)


# ---------------------------------------------------- 5. local-array scratch (row softmax)
@cuda.jit
def row_softmax(X, P):
    i = cuda.grid(1)
    if i < X.shape[0]:
        e = cuda.local.array(K_SOFT, float64)
        m = X[i, 0]
        for k in range(1, K_SOFT):
            m = max(m, X[i, k])
        s = 0.0
        for k in range(K_SOFT):
            e[k] = math.exp(X[i, k] - m)
            s += e[k]
        for k in range(K_SOFT):
            P[i, k] = e[k] / s


def row_softmax_np(X, P):
    e = np.exp(X - X.max(axis=1, keepdims=True))
    P[:] = e / e.sum(axis=1, keepdims=True)


# -------------------------------------- 6. shared-memory tree reduction + atomic sum
@cuda.jit
def sum_squares(x, total):
    sh = cuda.shared.array(TPB, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    v = 0.0
    if i < x.shape[0]:
        v = x[i] * x[i]
    sh[tid] = v
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, sh[0])


def sum_squares_np(x, total):
    total[0] += np.sum(x * x)


# ------------------------------------------------------- 7. shared-memory tiled matmul
@cuda.jit
def tiled_matmul(A, B, C):
    sA = cuda.shared.array((TILE, TILE), float64)
    sB = cuda.shared.array((TILE, TILE), float64)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = 0.0
    for t in range(A.shape[1] // TILE):  # <- trip count known at run time only
        sA[tx, ty] = A[x, ty + t * TILE]
        sB[tx, ty] = B[tx + t * TILE, y]
        cuda.syncthreads()
        for k in range(TILE):
            acc += sA[tx, k] * sB[k, ty]
        cuda.syncthreads()
    if x < C.shape[0] and y < C.shape[1]:
        C[x, y] = acc


def tiled_matmul_np(A, B, C):
    C[:] = A @ B


# --------------------------------------------------- 8. weighted histogram (atomic add)
@cuda.jit
def histogram(x, bins, hist):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(hist, bins[i], x[i] * x[i])


def histogram_np(x, bins, hist):
    np.add.at(hist, bins, x * x)


# ------------------------------------------- 9. grid-stride sum reduction (atomic add)
@cuda.jit
def stride_energy(x, c, energy):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = 0.0
    for i in range(start, x.shape[0], stride):
        acc += c[i] * math.log(1.0 + x[i] * x[i])
    cuda.atomic.add(energy, 0, acc)


def stride_energy_np(x, c, energy):
    energy[0] += np.sum(c * np.log(1.0 + x * x))


# ----------------------------------------- 10. row views passed to a device helper
@cuda.jit(device=True)
def dot_row(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    return s


@cuda.jit
def logistic_rows(X, w, out):
    i = cuda.grid(1)
    if i < X.shape[0]:
        z = dot_row(X[i], w)
        out[i] = 1.0 / (1.0 + math.exp(-z))


def logistic_rows_np(X, w, out):
    out[:] = 1.0 / (1.0 + np.exp(-(X @ w)))


# ---------------------------------------------------------- 11. numba.float32 casts
@cuda.jit
def cast_poly(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        half = numba.float32(0.5)
        v = numba.float32(x[i])
        out[i] = half * v * v + numba.float32(2.0) * math.cos(v)


def cast_poly_np(x, out):
    out[:] = 0.5 * x * x + 2.0 * np.cos(x)


# ----------------------------------------------------------------- 12. n-body forces
@cuda.jit
def nbody_accel(pos, mass, acc):
    i = cuda.grid(1)
    n = pos.shape[0]
    if i < n:
        ax = 0.0
        ay = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            r2 = dx * dx + dy * dy + 0.01
            inv = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * inv
            ay += dy * inv
        acc[i, 0] = ax
        acc[i, 1] = ay


def nbody_accel_np(pos, mass, acc):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = np.sum(d * d, axis=2) + 0.01
    inv = mass[None, :] / (r2 * np.sqrt(r2))
    acc[:] = np.sum(d * inv[:, :, None], axis=1)


# ---------------------------------------------------- 13. 2-D five-point stencil
@cuda.jit
def laplace2d(u, out):
    i, j = cuda.grid(2)
    n, m = u.shape
    if i < 1 or j < 1 or i >= n - 1 or j >= m - 1:
        return
    out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j] + 0.1 * u[i, j] ** 3


def laplace2d_np(u, out):
    c = u[1:-1, 1:-1]
    out[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * c + 0.1 * c ** 3


# --------------------------------- 14. Lennard-Jones pair energy, atomic into energy[0]
@cuda.jit(device=True)
def lj(r2, sigma=1.0, eps=1.0):
    s6 = (sigma * sigma / r2) ** 3
    return 4.0 * eps * (s6 * s6 - s6)


@cuda.jit
def lj_energy(pos, energy):
    i = cuda.grid(1)
    n = pos.shape[0]
    if i < n:
        e = 0.0
        for j in range(i + 1, n):
            r2 = 0.0
            for d in range(3):
                diff = pos[i, d] - pos[j, d]
                r2 += diff * diff
            e += lj(r2, 0.9)
        cuda.atomic.add(energy, 0, e)


def lj_energy_np(pos, energy):
    d = pos[:, None, :] - pos[None, :, :]
    r2 = np.sum(d * d, axis=2)
    iu = np.triu_indices(pos.shape[0], 1)
    s6 = (0.81 / r2[iu]) ** 3
    energy[0] += np.sum(4.0 * (s6 * s6 - s6))


# ------------------------------------------ 15. 1-D convolution with a local window
@cuda.jit
def conv1d(x, k, out):
    i = cuda.grid(1)
    n = out.shape[0]
    if i < n:
        win = cuda.local.array(5, float64)
        for t in range(5):
            win[t] = x[i + t]
        s = 0.0
        for t in range(5):
            s += k[t] * win[t]
        out[i] = math.tanh(s)


def conv1d_np(x, k, out):
    n = out.shape[0]
    s = np.zeros(n)
    for t in range(5):
        s += k[t] * x[t:t + n]
    out[:] = np.tanh(s)


# ------------------------------- 16. shared-memory stencil with a halo (shape TPB + 2)
@cuda.jit
def shared_halo(u, out):
    sh = cuda.shared.array(TPB + 2, float64)
    i = cuda.grid(1)
    tx = cuda.threadIdx.x
    n = u.shape[0]
    if i < n:
        sh[tx + 1] = u[i]
        if tx == 0 and i > 0:
            sh[0] = u[i - 1]
        if tx == TPB - 1 and i < n - 1:
            sh[TPB + 1] = u[i + 1]
    cuda.syncthreads()
    if i > 0 and i < n - 1:
        out[i] = sh[tx] - 2.0 * sh[tx + 1] + sh[tx + 2] + sh[tx + 1] ** 2


def shared_halo_np(u, out):
    out[1:-1] = u[:-2] - 2.0 * u[1:-1] + u[2:] + u[1:-1] ** 2


# ------------------------------------------ 17. device helper returning a tuple
@cuda.jit(device=True)
def polar(x, y):
    r = math.sqrt(x * x + y * y)
    return r, math.atan2(y, x)


@cuda.jit
def to_polar(xy, rt):
    i = cuda.grid(1)
    if i < xy.shape[0]:
        r, t = polar(xy[i, 0], xy[i, 1])
        rt[i, 0] = r
        rt[i, 1] = t


def to_polar_np(xy, rt):
    rt[:, 0] = np.hypot(xy[:, 0], xy[:, 1])
    rt[:, 1] = np.arctan2(xy[:, 1], xy[:, 0])


# ------------------ 18. blockIdx * blockDim + threadIdx, a device helper writing the output
@cuda.jit(device=True)
def store_scaled(out, i, v, s=2.0):
    out[i] = s * v


@cuda.jit
def helper_writes(x, out):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < x.shape[0]:
        store_scaled(out, i, math.sin(x[i]))


def helper_writes_np(x, out):
    out[:] = 2.0 * np.sin(x)


# ----------------------------------------- 19. explicit 2-D row/col from block and thread
@cuda.jit
def explicit_2d(A, B):
    row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if row < A.shape[0] and col < A.shape[1]:
        B[row, col] = A[row, col] * A[row, col] + math.cosh(A[row, col])


def explicit_2d_np(A, B):
    B[:] = A * A + np.cosh(A)


# ------------------------------- 20. a slice view of a row passed to a device helper
@cuda.jit(device=True)
def sum_squares_of(r):
    s = 0.0
    for k in range(r.shape[0]):
        s += r[k] * r[k]
    return s


@cuda.jit
def tail_norms(X, out):
    i = cuda.grid(1)
    if i < X.shape[0]:
        out[i] = math.sqrt(sum_squares_of(X[i, 1:]) + 1.0)


def tail_norms_np(X, out):
    out[:] = np.sqrt(np.sum(X[:, 1:] ** 2, axis=1) + 1.0)


# ------------------- 21. rows staged in shared memory, a row of the tile passed to a helper
@cuda.jit
def staged_rows(X, w, out):
    sh = cuda.shared.array((TPB, 4), float64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i < X.shape[0]:
        for k in range(4):
            sh[t, k] = math.tanh(X[i, k])
        out[i] = dot_row(sh[t], w)


def staged_rows_np(X, w, out):
    out[:] = np.tanh(X) @ w


# ------------------------------------------------------------------ refused
@cuda.jit
def warp_sum(x, out):
    i = cuda.grid(1)
    v = x[i] * x[i]
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, off)  # <- warp shuffles have no adjoint rule yet
        off //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def shared_runtime_shape(x, out):
    sh = cuda.shared.array(x.shape[0], float64)  # <- a shared array's shape must be a constant
    i = cuda.grid(1)
    sh[i] = x[i]
    out[i] = sh[i] * 2.0


#: kernels whose adjoint needs ``tape_capacity`` (a taped loop whose trip count is known only at
#: run time: the tiles of ``tiled_matmul`` are saved per thread, 2 * TILE * TILE values per tile)
CAPACITY = {"tiled_matmul": 2 * 2 * TILE * TILE}


def cases():
    """name -> (cuda kernel, NumPy reference, args, activity, (griddim, blockdim)); float64."""
    g = np.random.default_rng(11)
    f = lambda *shape: g.uniform(-1.0, 1.0, shape)
    lat = np.stack(np.meshgrid(np.arange(4.0), np.arange(4.0), np.arange(2.0), indexing="ij"), -1).reshape(-1, 3)
    return {
        "saxpy_return": (saxpy_return, saxpy_return_np, [np.array([0.7]), f(100), f(100)],
                         ("dup", "dup", "dup"), (4, 32)),
        "gauss_stride": (gauss_stride, gauss_stride_np, [f(150), np.zeros(150)], ("dup", "dup"), (2, 32)),
        "scale_cols": (scale_cols, scale_cols_np, [f(10, 12), f(12), np.zeros((10, 12))],
                       ("dup", "dup", "dup"), ((2, 2), (8, 8))),
        "smooth_l1": (smooth_l1, smooth_l1_np, [f(60), np.zeros(60)], ("dup", "dup"), (2, 32)),
        "row_softmax": (row_softmax, row_softmax_np, [f(40, K_SOFT), np.zeros((40, K_SOFT))], ("dup", "dup"),
                        (2, 32)),
        "sum_squares": (sum_squares, sum_squares_np, [f(90), np.zeros(1)], ("dup", "dup"), (3, TPB)),
        "tiled_matmul": (tiled_matmul, tiled_matmul_np, [f(16, 16), f(16, 16), np.zeros((16, 16))],
                         ("dup", "dup", "dup"), ((2, 2), (TILE, TILE))),
        "histogram": (histogram, histogram_np, [f(80), g.integers(0, 6, 80), np.zeros(6)],
                      ("dup", "const", "dup"), (3, 32)),
        "stride_energy": (stride_energy, stride_energy_np, [f(200), f(200), np.zeros(1)],
                          ("dup", "dup", "dup"), (2, 32)),
        "logistic_rows": (logistic_rows, logistic_rows_np, [f(50, 4), f(4), np.zeros(50)],
                          ("dup", "dup", "dup"), (2, 32)),
        "cast_poly": (cast_poly, cast_poly_np, [f(50), np.zeros(50)], ("dup", "dup"), (2, 32)),
        "nbody_accel": (nbody_accel, nbody_accel_np, [f(24, 2), g.uniform(0.5, 1.5, 24), np.zeros((24, 2))],
                        ("dup", "dup", "dup"), (1, 32)),
        "laplace2d": (laplace2d, laplace2d_np, [f(9, 10), np.zeros((9, 10))], ("dup", "dup"),
                      ((2, 2), (8, 8))),
        "lj_energy": (lj_energy, lj_energy_np, [lat + 0.05 * f(32, 3), np.zeros(1)], ("dup", "dup"), (1, 32)),
        "conv1d": (conv1d, conv1d_np, [f(44), f(5), np.zeros(40)], ("dup", "dup", "dup"), (2, 32)),
        "shared_halo": (shared_halo, shared_halo_np, [f(64), np.zeros(64)], ("dup", "dup"), (2, TPB)),
        "to_polar": (to_polar, to_polar_np, [f(40, 2), np.zeros((40, 2))], ("dup", "dup"), (2, 32)),
        "tail_norms": (tail_norms, tail_norms_np, [f(40, 5), np.zeros(40)], ("dup", "dup"), (2, 32)),
        "staged_rows": (staged_rows, staged_rows_np, [f(40, 4), f(4), np.zeros(40)], ("dup", "dup", "dup"),
                        (2, TPB)),
        "helper_writes": (helper_writes, helper_writes_np, [f(50), np.zeros(50)], ("dup", "dup"), (2, 32)),
        "explicit_2d": (explicit_2d, explicit_2d_np, [f(10, 12), np.zeros((10, 12))], ("dup", "dup"),
                        ((2, 2), (8, 8))),
    }

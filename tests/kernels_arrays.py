"""Kernels written with whole-array NumPy (and a few with explicit loops), as users write them:
PolyBench kernels, particle codes, statistics, finance, a filter.  Written for adtrans' tests
from the public specifications; small sizes."""
import math

import numba
import numpy as np
from numba import njit, prange


# ---------------------------------------------------------------- PolyBench
@njit
def jacobi_1d(A, B, steps):
    for t in range(steps):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])


@njit
def jacobi_2d(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


@njit
def heat_3d(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                               + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                               + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                               + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
                               + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
                               + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
                               + B[1:-1, 1:-1, 1:-1])


@njit
def seidel_2d(A, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1] + A[i, j - 1] + A[i, j]
                           + A[i, j + 1] + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0


@njit
def fdtd_2d(ex, ey, hz, fict, steps):
    for t in range(steps):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


@njit
def gemm(alpha, beta, C, A, B):
    C[:] = alpha * A @ B + beta * C


@njit
def gemm_loops(alpha, beta, C, A, B):
    ni, nk = A.shape
    nj = B.shape[1]
    for i in range(ni):
        for j in range(nj):
            C[i, j] *= beta
        for k in range(nk):
            for j in range(nj):
                C[i, j] += alpha * A[i, k] * B[k, j]


@njit
def two_mm(alpha, beta, A, B, C, D):
    tmp = alpha * A @ B
    D[:] = tmp @ C + beta * D


@njit
def atax(A, x, y):
    y[:] = A.T @ (A @ x)


@njit
def bicg(A, s, q, p, r):
    s[:] = r @ A
    q[:] = A @ p


@njit
def mvt(x1, x2, y1, y2, A):
    x1 += A @ y1
    x2 += A.T @ y2


@njit
def gesummv(alpha, beta, A, B, x, y):
    y[:] = alpha * A @ x + beta * B @ x


@njit
def syrk(alpha, beta, C, A):
    C[:] = np.tril(alpha * A @ A.T + beta * C)


@njit
def doitgen(A, C4):
    nr, nq, np_ = A.shape
    for r in range(nr):
        for q in range(nq):
            A[r, q, :] = A[r, q, :] @ C4


@njit
def covariance(data):
    n = data.shape[0]
    mean = np.sum(data, axis=0) / n
    centred = data - mean
    cov = centred.T @ centred / (n - 1.0)
    return np.sum(cov * cov)


# ------------------------------------------------------------- particles
@njit
def nbody_energy(pos, mass, eps):
    x = pos[:, 0]
    y = pos[:, 1].copy()
    z = pos[:, 2]
    dx = x[:, None] - x[None, :]
    dy = y.reshape(-1, 1) - y.reshape(1, -1)
    dz = z[:, np.newaxis] - z
    inv = 1.0 / np.sqrt(dx ** 2 + dy ** 2 + dz ** 2 + eps * eps)
    return -0.5 * np.sum(mass[:, None] * mass[None, :] * inv)


@njit
def lj_pair(ri, rj):
    d = ri - rj
    r2 = np.sum(d * d)
    s6 = 1.0 / (r2 * r2 * r2)
    return 4.0 * (s6 * s6 - s6)


@njit
def lennard_jones(pos):
    n = pos.shape[0]
    e = 0.0
    for i in range(n):
        ri = pos[i]
        for j in range(i + 1, n):
            e += lj_pair(ri, pos[j])
    return e


@njit(parallel=True)
def lennard_jones_prange(pos, out):
    n = pos.shape[0]
    for i in prange(n):
        ri = pos[i]
        acc = 0.0
        for j in range(n):
            if j != i:
                d = ri - pos[j]
                r2 = np.dot(d, d)
                s6 = 1.0 / (r2 * r2 * r2)
                acc += 4.0 * (s6 * s6 - s6)
        out[i] = acc


@njit
def sph_density(pos, mass, h):
    n = pos.shape[0]
    rho = np.zeros(n)
    for i in range(n):
        for j in range(n):          # includes the self-pair (r = 0)
            d = pos[i] - pos[j]
            q = h * h - np.sum(d * d)
            if q > 0.0:
                rho[i] += mass[j] * q * q * q
    return np.sum(rho * rho)


# ----------------------------------------------------------- statistics
@njit
def logsumexp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


@njit
def softmax_dot(x, w):
    e = np.exp(x - x.max())
    p = e / e.sum()
    return np.sum(p * w)


@njit
def kde(x, data, h):
    n = data.shape[0]
    d = (x[:, None] - data[None, :]) / h
    dens = np.sum(np.exp(-0.5 * d * d), axis=1) / (n * h * math.sqrt(2.0 * math.pi))
    return np.sum(np.log(dens))


@njit
def gmm_loglik(X, mu, logsig, logw):
    diff = (X[:, None, :] - mu[None, :, :]) / np.exp(logsig)[None, :, :]
    q = -0.5 * np.sum(diff * diff, axis=2) - np.sum(logsig, axis=1)[None, :] + logw[None, :]
    m = np.max(q)
    return np.sum(np.log(np.sum(np.exp(q - m), axis=1))) + m * X.shape[0]


@njit
def arc_distance(theta1, phi1, theta2, phi2):
    temp = np.sin((theta2 - theta1) / 2) ** 2 + np.cos(theta1) * np.cos(theta2) * np.sin((phi2 - phi1) / 2) ** 2
    d = 2 * np.arctan2(np.sqrt(temp), np.sqrt(1 - temp))
    return np.sum(d)


@njit
def cnd(d):
    A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    K = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    ret = 0.3989422804014327 * np.exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))))
    return np.where(d > 0, 1.0 - ret, ret)


@njit
def black_scholes(S, X, T, r, v):
    sqrt_t = np.sqrt(T)
    d1 = (np.log(S / X) + (r + 0.5 * v * v) * T) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    call = S * cnd(d1) - X * np.exp(-r * T) * cnd(d2)
    return np.sum(call)


@njit
def filter_2d(img, k):
    n, m = img.shape[0], img.shape[1]
    out = np.zeros((n - 2, m - 2))
    for di in range(3):
        for dj in range(3):
            out += k[di, dj] * img[di:di + n - 2, dj:dj + m - 2]
    return np.sum(out * out)


# --------------------------------------------------------- assorted forms
@njit
def ufuncs(x, y):
    a = np.arctan2(x, y) + np.hypot(x, y) + np.square(x) + np.tanh(y) + np.log1p(x) + np.expm1(-y)
    b = np.maximum(x, 0.5) * np.minimum(y, 0.7) + np.clip(x, 0.3, 0.8) + np.abs(x - y) + np.cbrt(y)
    c = np.where(x > y, x * y, x - y) + np.power(x, 1.5) + np.sqrt(x) / y
    return np.sum(a * b + c) + np.prod(x) + np.mean(y * y) + np.var(x) + np.std(y) + np.min(x * y)


@njit
def shapes(A, v):
    B = np.hstack((A, A[:, :1]))
    C = np.vstack((A, v.reshape(1, -1)))
    D = np.concatenate((A.ravel(), v))
    E = np.stack((v, 2.0 * v))
    F = np.triu(A @ A.T) + np.tril(A @ A.T, -1) * 0.5 + np.diag(np.diag(A @ A.T))
    G = np.cumsum(v) + np.arange(v.shape[0]) * 0.5 + np.linspace(0.0, 1.0, v.shape[0]) * v
    H = A.reshape(A.shape[1], A.shape[0]).T + np.eye(A.shape[0], A.shape[1]) * A
    return (np.sum(B * B) + np.sum(C) + np.sum(D * D) + np.sum(E * E) + np.sum(F) + np.sum(G * G)
            + np.sum(H * H) + np.trace(A @ A.T) + np.linalg.norm(v) + np.vdot(A.ravel(), A.ravel()) + np.sum(np.outer(v, v)))


@njit
def reductions_axis(A):
    s0 = np.sum(A, axis=0)
    s1 = A.sum(axis=1)
    k = np.argmax(A[0])
    j = A[1].argmin()
    return np.sum(s0 * s0) + np.sum(s1 * s1 * A[:, 0]) + A[0, k] + A[1, j] + np.mean(A.T) + np.max(A[:, 1:])


@njit
def row_helper(row, w):
    return np.sum(row * w)


@njit
def scale_row(row, c):
    for k in range(row.shape[0]):
        row[k] *= c


@njit
def views(A, w):
    total = 0.0
    for i in range(A.shape[0]):
        r = A[i]
        total += row_helper(r, w) + row_helper(A[:, i % A.shape[1]], A[:, 0])
    col = A[:, 1]
    col[:] = col * 2.0
    scale_row(A[0], 3.0)
    A[1, ::2] += 1.5 * A[0, ::2]
    A[-1, ::-1] = A[0]
    for row in A:
        total += np.sum(row) * row[0]
    return total + np.sum(A * A)


@njit(parallel=True)
def prange_rows(A, x, out):
    for i in prange(A.shape[0]):
        out[i] = np.dot(A[i], x) + np.sum(np.sin(A[i]) * x)


@njit(parallel=True)
def prange_rows_if(A, x, c, out):
    """The row's check is under a branch of the prange body."""
    for i in prange(A.shape[0]):
        if c[i] > 0.5:
            out[i] = np.sum(A[i] * x) * c[i]


@njit(parallel=True)
def prange_rows_triangular(A, x, out):
    """The check is in a nested loop whose trip count depends on the prange index."""
    for i in prange(A.shape[0]):
        for j in range(i):
            out[i] += np.sum(A[j] * x) * A[i, 0]


@njit(parallel=True)
def prange_rows_prefix(A, x, lens, out):
    """The check tests a name the body assigns (``m``)."""
    for i in prange(A.shape[0]):
        m = lens[i]
        out[i] = np.sum(np.sin(A[i, :m]) * x)


@njit
def heat_time_loop(u, c, steps):
    for t in range(steps):
        un = u.copy()
        u[1:-1] = un[1:-1] + c * (un[2:] - 2.0 * un[1:-1] + un[:-2])
    return np.sum(u * u)


@njit
def linear(x):
    return 2.0 * x + 1.0


@njit
def wrapper(x, w):
    return np.sum(linear(x) * w)


@njit
def returns_array(x, c):
    return np.sin(x) * c


@njit
def returns_two(A, x):
    y = A @ x
    return y * y, np.sum(A, axis=0)


# ------------------------------------------------- run-time shape checks (broadcasting)
@njit
def add_rows(a, b):
    c = a + b                      # b: (m, n) or, in NumPy, (1, n)
    return np.sum(c * c)


@njit
def add_row_by_construction(a, b):
    c = a + b[0][None, :]          # b: (1, n); the unit axis is in the code
    return np.sum(c * c)


@njit
def dot_1d(x, y):
    return np.sum(x * y)


@njit
def dot_1d_loop(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


@njit
def store_into(out, x):
    out[:] = 2.0 * x
    return np.sum(out)


@njit
def stencil_mismatch(u, v, steps):
    for t in range(steps):
        u[1:-1] = 0.5 * (v[:-2] + v[2:])
    return np.sum(u * u)


@njit
def matvec(A, x):
    y = A @ x
    return np.sum(y * y)


@njit
def reshaped(x, m, n):
    A = x.reshape(m, n)
    return np.sum(A[0] * A[1])


@njit
def joined(a, b):
    c = np.concatenate((a, b), axis=1)
    return np.sum(c * c)


# ------------------------------------------------------------------------- method forms
@njit
def methods_reduce(a):
    return (a.sum() + a.mean() * a.max() - a.min() + a.prod() + a.std() * a.var()
            + np.sum(a.sum(axis=0) ** 2) + a.ravel()[a.argmax()] - a.ravel()[a.argmin()])


@njit
def methods_shape(a, b):
    c = a.copy()
    c[0, 0] = 0.0
    s = np.sum(c * a) + np.sum(a.reshape(-1) * a.ravel()) + np.sum(a.flatten() ** 3) + np.sum(a.T * b)
    s += np.sum(a.transpose() * b) + np.sum(a.clip(0.3, 0.9) ** 2) + np.sum(a.astype(np.float64) ** 2)
    s += np.sum(a.cumsum() ** 2) + np.sum(a.dot(b) ** 2)
    if (a > 0).any() and a.all() and not (a > 5.0).any():
        s += 1.5 * a[0, 1]
    return s


@njit
def methods_rows(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s += r.sum() * r.max() + r.mean() * r.std() + r.dot(b[:, i]) + r[r.argmin()] + np.sum(r.cumsum() * r)
    return s


@njit
def std_axis(a):                   # Numba itself does not compile np.std(a, axis=0); adtrans lowers it
    return np.sum(np.std(a, axis=0))


@njit
def std_axis_loops(a):
    n, m = a.shape
    s = 0.0
    for j in range(m):
        mu = 0.0
        for i in range(n):
            mu += a[i, j]
        mu /= n
        v = 0.0
        for i in range(n):
            v += (a[i, j] - mu) ** 2
        s += math.sqrt(v / n)
    return s


# ------------------------------------------------- sort, argsort, integer-array indexing
@njit
def sort_weighted(x, w):
    y = np.sort(x)
    return np.sum(y * w) + y[-1] * y[y.shape[0] // 2]


@njit
def sort_loops(x, w):
    order = np.argsort(x)
    s = 0.0
    for k in range(x.shape[0]):
        s += x[order[k]] * w[k]
    return s


@njit
def argsort_gather(x, w):
    return np.sum(x[np.argsort(x)] * w) + np.sum(x[np.argsort(-x)][:2])


@njit
def sort_method(x, w):
    y = x * 2.0
    y.sort()
    return np.sum(y * w)


@njit
def sort_time_loop(x, steps):
    for t in range(steps):
        y = np.sort(x)
        x[:] = 0.5 * x + 0.25 * y[::-1] * y
    return np.sum(x * x)


@njit
def gather_rows(A, idx, w):
    B = A[idx]                       # rows, repeated indices allowed
    return np.sum(B * w) + np.sum(A[idx[0]] * A[idx[-1]])


@njit
def gather_view(x, idx):
    y = x[1:][idx]                   # idx may hold negative indices
    return np.sum(y ** 2) + np.sum(np.sin(x)[idx])


@njit
def gather_loops(x, idx):
    s = 0.0
    for k in range(idx.shape[0]):
        s += x[idx[k]] ** 2
    return s


@njit
def gather_whole(x, idx):
    return np.sum(x[idx] ** 2)


@njit
def transpose_in_place(A, w):
    A[:] = np.transpose(A)           # reads A other than element-wise: needs a temporary
    return np.sum(A * w)


# ------------------------------------------- cumsum/argmax with axis, norms, variable steps
@njit
def cumsum_axis(A, w):
    return np.sum(np.cumsum(A, axis=0) * w) + np.sum(np.cumsum(A, axis=1) ** 2) + np.sum(A.cumsum(axis=-1)[:, -1])


@njit
def cumsum_axis_loops(A, w):
    n, m = A.shape
    s = 0.0
    for j in range(m):
        run = 0.0
        for i in range(n):
            run += A[i, j]
            s += run * w[i, j]
    return s


@njit
def argmax_axis(A, w):
    i = np.argmax(A, axis=0)
    j = np.argmin(A, 1)
    s = 0.0
    for k in range(A.shape[1]):
        s += A[i[k], k] * w[0, k]
    for k in range(A.shape[0]):
        s += A[k, j[k]] ** 2
    return s + np.sum(A[np.argmax(A[:, 0])] * w[1])


@njit
def vector_norms(x):
    return (np.linalg.norm(x, 1) + np.linalg.norm(x, np.inf) + np.linalg.norm(x, 2) + np.linalg.norm(x, -np.inf)
            + np.linalg.norm(x, 3) + np.linalg.norm(x[1:], ord=1))


@njit
def vector_norms_loops(x):
    s1, sinf, s2, smin, s3 = 0.0, 0.0, 0.0, abs(x[0]), 0.0
    for i in range(x.shape[0]):
        a = abs(x[i])
        s1 += a
        sinf = max(sinf, a)
        s2 += a * a
        smin = min(smin, a)
        s3 += a ** 3
    s1b = 0.0
    for i in range(1, x.shape[0]):
        s1b += abs(x[i])
    return s1 + sinf + math.sqrt(s2) + smin + s3 ** (1.0 / 3.0) + s1b


@njit
def matrix_norms(A):
    return np.linalg.norm(A, 1) + np.linalg.norm(A, np.inf) + np.linalg.norm(A) + np.linalg.norm(A, -1)


@njit
def norms_numba_cannot_compile(x, A):  # 'fro' and axis= are beyond Numba's np.linalg.norm: adtrans lowers them
    return (np.linalg.norm(A, 'fro') + np.sum(np.linalg.norm(A, axis=1)) + np.sum(np.linalg.norm(A, 1, 0) * x)
            + np.sum(np.linalg.norm(A, ord=np.inf, axis=0)))


@njit
def variable_steps(x, k):
    y = x[::-k]
    s = 0.0
    for i in range(y.shape[0]):
        s += y[i] * (i + 1.0)
    x[1::k] = 2.0 * x[1::k]
    return s + np.sum(x * x) + np.sum(x[::k] ** 3)


@njit
def variable_steps_loops(x, k):
    n = x.shape[0]
    s = 0.0
    c = 1.0
    for i in range(n - 1, -1, -k):
        s += x[i] * c
        c += 1.0
    for i in range(1, n, k):
        x[i] = 2.0 * x[i]
    t = 0.0
    for i in range(0, n, k):
        t += x[i] ** 3
    return s + np.sum(x * x) + t


@njit
def lagged_products(x, k):
    """Autocorrelation at a lag known at run time: `x[:-k]` is x[:n - k] (k > 0)."""
    xc = x - np.mean(x)
    return np.dot(xc[:-k], xc[k:]) / np.dot(xc, xc) + np.sum(x[-k:] ** 2)


@njit
def identity_weighted(x):
    """`np.eye` (NumPy's own Python function, not a helper to inline)."""
    eye = np.eye(x.shape[0])
    return np.sum(eye * np.outer(x, x))


@njit
def layer_norm_loss(X, g):
    """Row statistics kept as (n, 1) columns (`reshape(-1, 1)` of a reduction, bound to a name)
    that broadcast against X later."""
    mu = (np.sum(X, axis=1) / X.shape[1]).reshape(-1, 1)
    var = np.sum((X - mu) ** 2, axis=1).reshape(-1, 1) / X.shape[1]
    Y = (X - mu) / np.sqrt(var + 1e-5)
    return np.sum(np.tanh(Y * g))


@njit
def normalise_in_place(A, x):
    """Region op= a scalar reduction of the same region (softmax rows, Gram-Schmidt columns,
    centring): the scalar is computed before the region is written."""
    P = np.exp(A - A.max())
    for i in range(P.shape[0]):
        P[i] /= P[i].sum()
    for j in range(A.shape[1]):
        A[:, j] /= np.linalg.norm(A[:, j])
    x -= x.mean()
    x[1:] *= x[1:].max()
    return np.sum(P * P) + np.sum(A[0] * A[1]) + np.sum(x * x)

"""Python forms in kernels, written the way users write Numba (not for adtrans)."""
import math

import numba
import numpy as np
from numba import njit, prange, vectorize

SCALE = 0.5
NTERMS = 3


@njit
def zip_dot(x, y):
    s = 0.0
    for a, b in zip(x, y):
        s += a * b
    return s


@njit
def zip_range(x, y):
    s = 0.0
    for i, a, b in zip(range(x.shape[0]), x, y):
        s += (i + 1) * a * math.sin(b)
    return s


@njit
def enumerate_weights(x):
    s = 0.0
    for i, v in enumerate(x):
        s += (i + 1.0) * v * v
    return s


@njit
def enumerate_start(x):
    s = 0.0
    for i, v in enumerate(x, 1):
        s += i * math.exp(v)
    return s


@njit
def iterate_values(x):
    s = 0.0
    for v in x:
        s += v ** 3
    return s


@njit
def flat_iter(a):
    s = 0.0
    for v in a.flat:
        s += v * v
    return s


@njit
def flat_index(a, out):
    for i in range(a.size):
        out.flat[i] = a.flat[i] * a.flat[a.size - 1 - i]


@njit
def ndindex_tuple(a):
    s = 0.0
    for i, j in np.ndindex(a.shape):
        s += (i + 2 * j + 1) * a[i, j] ** 2
    return s


@njit
def ndindex_name(a):
    M, N = a.shape
    s = 0.0
    for idx in np.ndindex(M, N):
        s += math.cos(a[idx])
    return s


@njit
def shape_unpack_and_alloc(image):
    M, N = image.shape
    out = np.zeros(image.shape, dtype=image.dtype)
    tmp = np.empty((M, N), dtype='float64')
    for i in range(M):
        for j in range(N):
            tmp[i, j] = image[i, j] * 2.0
    for i in range(1, M - 1):
        for j in range(N):
            out[i, j] = tmp[i - 1, j] * tmp[i + 1, j]
    s = 0.0
    for i in range(M):
        for j in range(N):
            s += out[i, j]
    return s


@njit
def tuple_locals(x):
    p = (x[0] * 2.0, x[1] + 1.0)
    a, b = p
    return a * b + p[0] * len(p) + p[-1]


@njit
def rotation(theta, v):
    c = math.cos(theta[0])
    s = math.sin(theta[0])
    R = np.array([[c, -s], [s, c]])
    out = 0.0
    for i in range(2):
        w = 0.0
        for j in range(2):
            w += R[i, j] * v[j]
        out += w * w * (i + 1.0)
    return out


@njit
def _powsum(x, p=2.0, scale=1.0):
    s = 0.0
    for i in range(x.shape[0]):
        s += abs(x[i]) ** p
    return scale * s


@njit
def kernel_with_defaults(x, p=3.0):
    return _powsum(x) + _powsum(x, scale=0.5, p=p)


@njit
def module_constants(x):
    s = 0.0
    for k in range(NTERMS):
        s += SCALE * x[k] ** 2
    return s


@njit
def casts(x):
    acc = numba.float64(0.0)
    for i in range(x.shape[0]):
        acc += numba.float32(0.0) + x[i] * np.float64(2.0)
    return acc


@njit
def rebind_argument(x):
    x = np.copy(x)
    for i in range(x.shape[0]):
        x[i] = x[i] * x[i]
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def make_kernel(f):
    @njit
    def kernel(x):
        s = 0.0
        for i in range(x.shape[0]):
            s += f(x[i])
        return s
    return kernel


@njit
def _cube(v):
    return v * v * v


factory_kernel = make_kernel(_cube)


class ConvergenceError(Exception):
    pass


@njit
def newton_or_raise(a, x0):
    x = x0[0]
    for it in range(50):
        fx = x * x - a[0]
        if abs(fx) < 1e-14:
            return x
        x = x - fx / (2.0 * x)
    raise ConvergenceError("newton did not converge")


@njit
def while_true_then_raise(a, x0):
    x = x0[0]
    n = 0
    while True:
        fx = x * x - a[0]
        if abs(fx) < 1e-13:
            return x * a[1]
        x = x - fx / (2.0 * x)
        n += 1
        if n > 100:
            break
    raise ValueError("no convergence")


@njit
def prints(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    print("sum of squares", s)
    return s


@njit
def any_all(x, mask):
    s = 0.0
    if np.any(mask):
        s += x[0] * x[1]
    if np.all(mask):
        s += x[2]
    return s


@njit
def shift(a, out):
    for i in range(a.shape[0] - 1):
        out[i + 1] = a[i] * 2.0


@njit
def with_default_exponent(x, p=2.0):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] ** p
    return s


@njit
def lgamma_constant(x, n):
    c = math.lgamma(n + 1.0)
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * c
    return s


@njit
def rows_of_matrix(A, w):
    s = 0.0
    for k, row in enumerate(A):
        for j in range(row.shape[0]):
            s += w[k] * row[j] * row[j]
    return s


@njit
def zip_over_slices(x, y):
    """The shoelace sum as users write it: zip over shifted slices (also a strided one)."""
    s = 0.0
    for a, b in zip(x[:-1], y[1:]):
        s += a * b
    for a, b, c in zip(x[1:], y[:-1], x[::2]):
        s -= a * b * c
    for i, r in enumerate(x[2:]):
        s += i * r * r
    return 0.5 * s


@njit
def unpack_rows(r, eps=1.0):
    """Pair energy with the coordinates unpacked from rows, as MD codes write it."""
    e = 0.0
    for i in range(r.shape[0]):
        xi, yi, zi = r[i]
        for j in range(i + 1, r.shape[0]):
            xj, yj, zj = r[j]
            d2 = (xi - xj) ** 2 + (yi - yj) ** 2 + (zi - zj) ** 2
            e += eps / (1.0 + d2)
    return e


@njit
def unpack_edges(x, edges, w):
    """Graph smoothing energy over an edge list: `i, j = edges[e]` (integer rows)."""
    s = 0.0
    for e in range(edges.shape[0]):
        i, j = edges[e]
        d = x[i] - x[j]
        s += w[e] * d * d
    return s


@njit
def unpack_vector_and_tuple(p, x, coef=(0.5, 2.0)):
    """`a, b = p` of a 1-d array, `c0, c1 = coef` of a tuple default, `i, j = idx[i]` reading
    the old `i`, and the rows of an expression."""
    a, b = p
    c0, c1 = coef
    s = 0.0
    for k in range(x.shape[0]):
        s += c0 * a * x[k] + c1 * b * x[k] ** 2
    u, w = x[:2] * p
    return s + u * w


@vectorize(["float64(float64, float64)"])
def soft_threshold(v, t):
    """A @vectorize ufunc with a branch, as users write element functions."""
    if v > t:
        return v - t
    return 0.5 * (v - t) ** 2


@vectorize
def decay(v):
    return math.exp(-v) + v * v


@njit
def vectorized_calls(x, y):
    """@vectorize ufuncs on arrays (broadcasting), on a scalar, and on a slice."""
    return (np.sum(soft_threshold(x, 0.5) * y) + decay(x[0]) + np.sum(soft_threshold(x[:, None], y[None, :]))
            + np.sum(decay(x[1:])))


@njit
def _moments(x):
    return x.sum(), (x * x).sum(), x * 2.0


@njit
def tuple_result_local(x):
    """A helper's tuple result kept in a local: `r = f(x)`, then `r[0]`, `a, b, c = r`, `len(r)`."""
    r = _moments(x)
    a, b, c = r
    return r[0] * r[1] + np.sum(c * x) + len(r) * a - b

"""Kernels as public Numba code writes them (issue 13, seventh round: tests/test_newuser7.py):
Kronecker products (a tight-binding or separable-filter operator built with ``np.kron``) and
histograms whose counts weight active values (a binned likelihood, a density estimate)."""
import numpy as np
from numba import njit


@njit
def kron_energy(A, B):
    """A separable 2-d operator ``kron(A, B)``: every element a product of one entry of each."""
    K = np.kron(A, B)
    return np.sum(K * K)


@njit
def kron_mixed(a, b, M):
    """1-d by 1-d (a vector of n * m), and a 2-d block by a 1-d row (Numba's np.kron wants
    contiguous operands: no sliced views)."""
    k = np.kron(a, b)
    return k @ (M @ np.kron(b, a)) + np.sum(np.kron(np.ascontiguousarray(M[:2, :3]), a) ** 2)


@njit
def binned_weights(x, w):
    """The counts are piecewise constant in ``x``: only ``w`` has a derivative."""
    counts, edges = np.histogram(x, bins=5)
    return np.sum(w * counts)


@njit
def binned_centres(x, w):
    """The edges move with ``x``'s minimum and maximum (np.linspace of them, as Numba computes them);
    a range= histogram's counts indexed by ``[0]``."""
    counts, edges = np.histogram(x, 4)
    centres = 0.5 * (edges[1:] + edges[:-1])
    h2 = np.histogram(x, bins=3, range=(-2.0, 2.0))[0]
    return np.sum(w * counts * centres) + np.sum(h2 * w[:3])


@njit
def binned_ranges(x, lo, hi, edges_in, w):
    """A range of active scalars (positional), and an array of edges (the edges are that array)."""
    c = np.histogram(x, 6, (lo, hi))[0]
    e = np.histogram(x, 6, (lo, hi))[1]
    c2, e2 = np.histogram(x, edges_in)
    return np.sum(c * e[1:] ** 2) + np.sum(c2 * e2[:-1] * w)


# ----------------------------------------------------------------- drivers (plain Python)
@njit
def col_energy(v):
    return np.sum(v ** 2)


@njit
def pair_loss(a, b):
    return a * a + b


def column_driver(A, c):
    """A column of a matrix flattened before a kernel call: ``A[:, c].ravel()``."""
    col = A[:, c].ravel()
    return col_energy(col)


def reshape_driver(A, x):
    """``.reshape``, ``np.reshape``, ``np.ravel`` and ``.flatten`` of active arrays."""
    flat = A.reshape(-1)
    M = np.reshape(flat * x.sum(), (A.shape[1], A.shape[0]))
    return col_energy(np.ravel(M[:, 1:]).copy()) + col_energy(A.T.flatten())


def tuple_driver(x, y):
    """A tuple of active values, unpacked (and again, swapped) and indexed."""
    pair = (x * 2.0, y + 1.0)
    a, b = pair
    a, b = b * a, a
    return pair_loss(a, b) + pair_loss(pair[1], a)


def list_unpack_driver(x, y):
    parts = [x * 2.0, y + 1.0]
    a, b = parts
    return pair_loss(a, b)


@njit
def sum_pair(p):
    return p[0] + p[1]


def tuple_to_kernel_driver(x, y):
    """A tuple of active values passed whole to a kernel (their adjoints returned by its adjoint)."""
    pair = (x * 2.0, y)
    return sum_pair(pair)


# ----------------------------------------------------------------- Hermitian eigenvalues
@njit
def hermitian_levels(H, x):
    """A complex matrix: refused at its parameter, with the real embedding as the hint."""
    w = np.linalg.eigvalsh(H * x)
    return np.sum(w ** 2)


@njit
def hermitian_levels_real(A, B, x):
    """The same levels from the real symmetric embedding of ``A + iB`` (each eigenvalue twice)."""
    M = np.vstack((np.hstack((A, -B)), np.hstack((B, A))))
    w = np.linalg.eigvalsh(M * x)
    return 0.5 * np.sum(w ** 2)


@njit
def complex_cast(A):
    H = A.astype(np.complex128)
    w, V = np.linalg.eigh(H)
    return np.sum(w ** 2)


@njit
def binned_rows(X, w):
    """A histogram per row in a loop (each iteration its own counts), unused edges left out."""
    tot = 0.0
    for i in range(X.shape[0]):
        h, _ = np.histogram(X[i], bins=3, range=(-1.0, 1.0))
        tot += np.sum(h * w) * X[i, 0]
    return tot


@njit
def heat_step(u, c):
    un = u.copy()
    for i in range(1, u.shape[0] - 1):
        un[i] = u[i] + c * (u[i - 1] - 2 * u[i] + u[i + 1])
    return un


def extremes_driver(u0, c, n=4):
    """Whole-array np.max/np.min/.max() and .std()/np.var of active arrays in a driver."""
    u = u0
    for k in range(n):
        u = heat_step(u, c)
    z = (u - u.mean()) / u.std()
    return np.max(u) - u.min() + np.sum(z ** 4) + np.var(u0) + np.amin(u0 * c)


def list_extreme_driver(x, y):
    parts = [x * 2.0, y + 1.0, x * y]
    return np.max(parts) + np.std(parts)


def unpack_rows_driver(X, x):
    """``a, b = X`` (rows of an active matrix) and ``p, q = x`` (elements of an active vector)."""
    a, b = X
    p, q = x
    return np.sum(a * b) * p + q * q


def unpack_twice_driver(x, y):
    pair = (x * 2.0, y)
    a, a = pair
    return a * x

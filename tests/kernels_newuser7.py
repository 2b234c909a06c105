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

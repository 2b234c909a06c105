"""Kernels written as public Numba code is (line-profile fits summing helper results in a loop,
window functions, element loops over connectivity rows, clip with one open side): the cases a
new user's corpus found (tests/test_newuser5.py)."""
import numpy as np
from numba import njit


@njit
def bump(x, c, w):
    return np.exp(-((x - c) / w) ** 2)


@njit
def line_fit(p, x, y):
    """A sum of line profiles, each a helper returning an array, in a loop over the lines."""
    model = np.zeros_like(x)
    for k in range(p.shape[0] // 3):
        model += p[3 * k] * bump(x, p[3 * k + 1], p[3 * k + 2])
    r = model - y
    return np.dot(r, r)


@njit
def windowed_power(x, k):
    """Window functions (constant arrays of an integer length) times a slice, in a frame loop."""
    frame = 8
    win = np.hanning(frame) + 0.5 * np.hamming(frame) + np.blackman(frame) * np.bartlett(frame)
    total = 0.0
    for f in range((x.shape[0] - frame) // 4 + 1):
        seg = x[f * 4: f * 4 + frame] * win
        re = np.sum(seg * np.cos(k * np.arange(frame)))
        total += re * re
    return total


@njit
def clipped_moments(x, y):
    """np.clip with one open side (None), returning a tuple of scalars."""
    w = np.clip(y, 0.0, None)
    v = np.clip(x, None, 2.0)
    total = w.sum()
    mean = np.sum(w * v) / total
    return mean, np.sqrt(np.sum(w * (v - mean) ** 2) / total)


@njit
def assemble_1d(x, kappa):
    """A 1-D stiffness matrix assembled element by element: a local array per element, scattered
    through a tuple of node numbers indexed by the loop's name."""
    n = x.shape[0]
    K = np.zeros((n, n))
    for e in range(n - 1):
        h = x[e + 1] - x[e]
        ke = kappa[e] / h * np.array([[1.0, -1.0], [-1.0, 1.0]])
        idx = (e, e + 1)
        for a in range(2):
            for b in range(2):
                K[idx[a], idx[-2 + b]] += ke[a, b]
    return K


@njit
def stiffness_energy(x, kappa, u):
    K = assemble_1d(x, kappa)
    return 0.5 * np.dot(u, K @ u)


@njit
def triangle_energy(p, tris, k_el, u):
    """2-D linear triangles: ``for e, (i, j, l) in enumerate(tris)`` and the node numbers gathered
    into ``np.array([i, j, l])`` (an integer array, as Numba types it) to scatter the element matrix."""
    n = p.shape[0]
    K = np.zeros((n, n))
    for e, (i, j, l) in enumerate(tris):
        x1, y1 = p[i]
        x2, y2 = p[j]
        x3, y3 = p[l]
        area = 0.5 * ((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
        b = np.array([y2 - y3, y3 - y1, y1 - y2])
        c = np.array([x3 - x2, x1 - x3, x2 - x1])
        ke = k_el[e] * (np.outer(b, b) + np.outer(c, c)) / (4.0 * area)
        nodes = np.array([i, j, l])
        for a in range(3):
            for bb in range(3):
                K[nodes[a], nodes[bb]] += ke[a, bb]
    return 0.5 * u @ (K @ u)

"""Kernels written as public Numba code is (ODE right-hand sides returning np.array, ray-transfer
and rotation matrices from helpers, MUSCL limiters, broadcasting with one-element slices, methods
on helper results): the cases a new user's corpus found (tests/test_newuser4.py)."""
import numpy as np
from numba import njit


@njit
def sir_rhs(y, beta, gamma):
    inf = beta * y[0] * y[1] / (y[0] + y[1] + y[2])
    return np.array([-inf, inf - gamma * y[1], gamma * y[1]])


@njit
def sir_loss(y0, params, data):
    """An Euler time loop over a helper that returns ``np.array([...])``."""
    y = y0.copy()
    loss = 0.0
    for k in range(data.shape[0]):
        y = y + 0.1 * sir_rhs(y, params[0], params[1])
        loss += (y[1] - data[k]) ** 2
    return loss


@njit
def rot_z(theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@njit
def arm_reach(thetas, lengths, target):
    """Forward kinematics: a literal inside an expression (``R @ np.array([l, 0.0, 0.0])``)."""
    R = np.eye(3)
    p = np.zeros(3)
    for i in range(thetas.shape[0]):
        R = R @ rot_z(thetas[i])
        p = p + R @ np.array([lengths[i], 0.0, 0.0])
    d = p - target
    return d @ d


@njit
def lens(f):
    B = np.eye(2)
    B[1, 0] = -1.0 / f
    return B


@njit
def gap(d):
    A = np.eye(2)
    A[0, 1] = d
    return A


@njit
def abcd_system(ds, fs, ray):
    """Matrices from helpers multiplied in a loop (the helper's array is read through the name
    ``L``/``P`` while the next iteration overwrites it)."""
    M = np.eye(2)
    for k in range(ds.shape[0]):
        L = lens(fs[k])
        M = L @ M
        P = gap(ds[k])
        M = P @ M
    out = M @ ray
    return out[0] ** 2 + 0.1 * out[1]


@njit
def pair_potential(pos, mass):
    """Broadcasting with one-element slices (``pos[:, 0:1] - pos[:, 0:1].T``)."""
    dx = pos[:, 0:1] - pos[:, 0:1].T
    dy = pos[:, 1:2] - pos[:, 1:2].T
    inv_r = 1.0 / np.sqrt(dx ** 2 + dy ** 2 + 0.1)
    return np.sum(mass[:1] * mass[-1:] * inv_r) + np.sum(pos[-1:, :] * pos)


@njit
def column_past_end(pos):
    d = pos[:, 2:3] - pos[:, 0:1].T
    return np.sum(d)


@njit
def minmod(a, b):
    return 0.5 * (np.sign(a) + np.sign(b)) * np.minimum(np.abs(a), np.abs(b))


@njit
def muscl_step(u, dt):
    """A helper called on array expressions whose result is sliced (MUSCL reconstruction)."""
    slope = minmod(u[1:-1] - u[:-2], u[2:] - u[1:-1])
    uL = u[1:-2] + 0.5 * slope[:-1]
    uR = u[2:-1] - 0.5 * slope[1:]
    flux = 0.25 * (uL ** 2 + uR ** 2) - 0.5 * np.maximum(np.abs(uL), np.abs(uR)) * (uR - uL)
    return np.sum((u[2:-2] - dt * (flux[1:] - flux[:-1])) ** 2)


@njit
def haversine(lat1, lon1, lat2, lon2):
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * 6371.0 * np.arcsin(np.sqrt(a))


@njit
def route_length(lats, lons):
    """A method on a helper's result: ``haversine(...).sum()``."""
    return haversine(lats[:-1], lons[:-1], lats[1:], lons[1:]).sum()


@njit
def literal_in_conditional(x, c):
    v = np.array([x[0], 2.0 * x[1]]) if c > 0 else np.array([x[1], x[0]])
    return v[0] * v[1]

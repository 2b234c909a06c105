"""Kernels and drivers for tests/test_tuplewhole.py: tuples (and lists) of active arrays passed
whole to an @njit helper or kernel (issue 13)."""
import numpy as np
from numba import njit


# ----------------------------------------------------------------- helpers inlined in kernels
@njit
def forward(params, X):
    """A two-layer net whose parameters come as one tuple."""
    W1, b1, W2 = params
    h = np.tanh(X @ W1 + b1)
    return np.sum((h @ W2) ** 2)


@njit
def mlp_literal(W1, b1, W2, X):
    return forward((W1, b1, W2), X)


@njit
def mlp_named(W1, b1, W2, X):
    params = (W1, b1, W2)
    return forward(params, X) + np.sum(params[1] * params[1])


@njit
def tail_energy(rest):
    s = 0.0
    for a in rest:
        s += np.sum(a * a)
    return s


@njit
def by_parts(p, c):
    """Constant and negative indices, len, a slice passed whole to another helper."""
    return np.sum(p[0] * p[-1]) * c + len(p) * tail_energy(p[1:])


@njit
def parts_kernel(x, y, z, c):
    return by_parts((np.sin(x), y * 2.0, z), c)


@njit
def nested_parts(pq):
    (a, b), c = pq
    return np.sum(a * b * c)


@njit
def nested_kernel(x, y):
    inner = (x, y)
    return nested_parts((inner, x + y))


@njit
def step(state, dt):
    """One step of a linear oscillator: the state a tuple of two arrays."""
    u, v = state
    return u + dt * v, v - dt * u


@njit
def oscillator(u, v, dt):
    for t in range(4):
        u, v = step((u, v), dt)
    return np.sum(u * u) + np.sum(v)


@njit
def oscillator_named(u, v, dt):
    """The state tuple bound to a name in the loop (its elements read where they are rebound)."""
    for t in range(4):
        state = (u, v)
        u, v = step(state, dt)
    return np.sum(u * u) + np.sum(v)


@njit
def swap_kernel(u, v):
    state = (u, v * 2.0)
    s = sum_pair(state)
    v, u = state
    return s + np.sum(u * 3.0 + v)


@njit
def pick_by_loop(p):
    s = 0.0
    for i in range(2):
        s += np.sum(p[i])
    return s


@njit
def dynamic_index_kernel(x, y):
    return pick_by_loop((x, y))


@njit
def rebinds_param(p):
    p = (p[1], p[0])
    return np.sum(p[0])


@njit
def rebind_kernel(x, y):
    return rebinds_param((x, y))


# ----------------------------------------------------------------- kernels called from drivers
@njit
def sum_pair(p):
    return np.sum(p[0] * p[1])


@njit
def scaled_pair(p, k):
    """A tuple of a float array, an integer array and an integer."""
    a, idx, n = p
    return np.sum(a[idx] ** 2) * n * k


@njit
def euler(state, dt):
    u, v = state
    return u + dt * np.sin(v)


@njit
def writes_first(p):
    p[0][0] = 0.0
    return np.sum(p[0] * p[1])


@njit
def appends(p):
    p.append(p[0] * 2.0)
    return np.sum(p[-1])


def mlp_driver(W1, b1, W2, X):
    params = (W1, b1, W2)
    loss = forward(params, X)
    return loss + np.sum(W2 * W2)


def literal_driver(x, y):
    return sum_pair((np.exp(x), y))


def tuple_driver(x, y):
    pair = (x * 2.0, y)
    a, b = pair
    return sum_pair(pair) + np.sum(a * pair[1])


def list_driver(x, y):
    parts = [x * 2.0, y]
    return sum_pair(parts)


def mixed_driver(x, k):
    idx = np.array([2, 0, 2])
    t = (x * 3.0, idx, 2)
    return scaled_pair(t, k)


def loop_driver(u, v, dt):
    for i in range(3):
        state = (u, v)
        u = euler(state, dt)
    return np.sum(u * u)


def passive_float_driver(x, y):
    """A tuple with an active float: refused at its call."""
    pair = (x * 2.0, y)
    return sum_pair(pair)


def twice_bound_driver(x, y):
    pair = (x, y)
    s = sum_pair(pair)
    pair = (y, x)
    return s + sum_pair(pair)


def appended_list_driver(x, y):
    parts = []
    parts.append(x * 2.0)
    parts.append(y)
    return sum_pair(parts)


def written_tuple_driver(x, y):
    pair = (x * 1.0, y)
    return writes_first(pair)


def list_to_list_kernel_driver(x, y):
    parts = [x * 2.0, y]
    return appends(parts)


@njit
def pick_by_count(p, n):
    s = 0.0
    for i in range(n):
        s += np.sum(p[i])
    return s


@njit
def runtime_index_kernel(x, y):
    return pick_by_count((x, y), x.shape[0] - 1)

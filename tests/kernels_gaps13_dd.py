"""Kernels and drivers of tests/test_gaps13_dd.py: random draws in while loops (the draw buffer
grows as the loop runs) and drivers that build lists from literals of active values."""
import math

import numpy as np
from numba import njit

from kernels_forms_more import advance, energy


# ------------------------------------------------------------------ draws in while loops
@njit(cache=True)
def walk_to_threshold(x, tol):
    """A random walk until the squared steps add up to tol (the number of draws is random)."""
    np.random.seed(5)
    s = 0.0
    acc = 0.0
    k = 0
    while acc < tol:
        z = np.random.normal(0.0, 1.0)
        acc += z * z
        s += x[k % x.shape[0]] * z + math.sin(x[0] * z)
        k += 1
    return s


@njit(cache=True)
def rejection(x, n):
    """Rejection sampling inside a for loop: redraw u from [x[0], 1) while u * u > 0.25."""
    np.random.seed(3)
    out = 0.0
    for i in range(n):
        u = np.random.uniform(-1.0, 1.0)
        while u * u > 0.25:
            u = np.random.uniform(x[0], 1.0)
        out += u * x[i % x.shape[0]]
    return out


@njit(cache=True)
def while_counter(x, m, c):
    """m draws in a while loop (several growths of the buffer), reparametrised by c."""
    np.random.seed(7)
    s = 0.0
    t = 0
    while t < m:
        z = np.random.normal(c, 0.5)
        if z > 0.0:
            s += x[t % x.shape[0]] * z * z
        t += 1
    return s


@njit(cache=True)
def draws_until(out, x, n):
    """Stores the kept draws: out[k] = x * exp(0.3 z) for the first n draws with z > -1."""
    k = 0
    while k < n:
        z = np.random.standard_normal()
        if z > -1.0:
            out[k] = x[0] * math.exp(0.3 * z)
            k += 1


@njit(cache=True)
def array_in_while(x, m):
    np.random.seed(2)
    s = 0.0
    t = 0
    while t < m:
        z = np.random.standard_normal(x.shape[0])
        s += np.sum(x * z) * z[0]
        t += 1
    return s

@njit(cache=True)
def break_in_while(x, tol):
    np.random.seed(4)
    s = 0.0
    k = 0
    while True:
        u = np.random.random()
        if u > tol:
            break
        s += x[k % x.shape[0]] * u + x[0] * x[1] * np.random.normal(0.0, 2.0)
        k += 1
    return s

@njit(cache=True)
def nested_while(x, n):
    np.random.seed(6)
    s = 0.0
    for i in range(n):
        j = 0
        while j < 3 + i:
            e = np.random.exponential(1.0)
            s += x[(i + j) % x.shape[0]] ** 2 * e
            j += 1
    return s


@njit(cache=True)
def odd_normals(x, n):
    """n standard normals, no seed: an odd n leaves Numba's cached second normal for the next draw."""
    s = 0.0
    for k in range(n):
        s += x[k % x.shape[0]] * np.random.standard_normal()
    return s


@njit(cache=True)
def walk_unseeded(x, tol):
    s = 0.0
    acc = 0.0
    k = 0
    while acc < tol:
        z = np.random.standard_normal()
        acc += z * z
        s += x[k % x.shape[0]] * z
        k += 1
    return s


def driver_odd_normals(x, n):
    a = odd_normals(x, n)
    b = odd_normals(x, n)
    return a * b


def driver_walks(x, tol):
    parts = [walk_unseeded(x, tol) for k in range(3)]
    return sum(parts) * parts[0]


@njit(cache=True)
def seed_numba(s):
    np.random.seed(s)


@njit(cache=True)
def next_uniform():
    return np.random.random()


# ------------------------------------------------------------------ drivers: list literals
def literal_sum(x, c):
    parts = [energy(x, 1.0), c * energy(x, 2.0)]
    total = sum(parts)
    return total


def literal_array(x, c):
    a = energy(x, 1.0)
    b = c * energy(x, 2.0)
    v = np.array([a, b, 1.0])
    return float(np.sum(v * v)) + sum([a, c]) * max((b, a))


def literal_history(u, c):
    u_hist = [u]
    for k in range(3):
        u = advance(u, c)
        u_hist.append(u)
    return float(np.sum(np.array(u_hist)[-1] ** 2)) + energy(u_hist[1], 1.0)


def literal_index_and_loop(x, c):
    s = 0.0
    for k in range(3):
        parts = [energy(x, k), c * k, 1.0]
        s += sum(parts) * parts[0]
    for p in parts:
        s += p * p
    return s


def literal_of_arrays(u, c):
    vs = [advance(u, c), advance(u, 2.0 * c)]
    return float(np.sum(vs[0] * vs[1]))


def column_store(x, c):
    z = np.zeros((x.shape[0], 2))
    z[:, 0] = x
    z[:, 1] += c * x
    return float(np.sum(z * z))


def tuple_of_actives(x, c):
    parts = (energy(x, 1.0), c)         # <- refused
    return sum(parts)


def literal_reads_its_name(x, c):
    p = [energy(x, 1.0)]
    p = [p[0], c]                       # <- refused
    return sum(p)


def literal_rows(x, c):
    a = energy(x, 1.0)
    b = c * energy(x, 2.0)
    M = np.array([[a, b], [b * b, 1.0]])
    return float(np.sum(M @ M))


def sum_of_array_literal(u, c):
    return float(np.sum(sum([advance(u, c), u * c])))


def literal_extended(x, c):
    parts = [energy(x, 1.0)]
    parts += [c * energy(x, 2.0)]
    parts.extend([c * c, energy(x, 0.5)])
    return sum(parts) * parts[-1]


def comprehension_of_kernels(x, c):
    k = 10.0                            # the comprehension's own k does not leak
    parts = [energy(x, float(k)) * c for k in range(3) if k != 1]
    s = sum(energy(x, float(j)) for j in range(2)) + max([c * energy(x, float(j)) for j in range(2)])
    return sum(parts) * k + s + sum([energy(x, float(i + j)) for i in range(2) for j in range(i + 1)]) * c


def list_scaled(x, c):
    parts = [energy(x, 1.0), c]
    parts *= 2                          # <- refused
    return sum(parts)


def returns_a_list(x, c):
    parts = [energy(x, 1.0), c]
    return parts                        # <- refused

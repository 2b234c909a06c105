"""Kernels and drivers that exchange buffers (``u, un = un, u``, ``a, b, c = b, c, a``) that are
the caller's arrays, for tests/test_buffer_swaps.py.  Python rebinds the names, so each caller's
array ends holding the values of the name that refers to it at the return (odd and even step
counts differ)."""
import numpy as np
from numba import njit, prange


@njit
def heat_swap(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(1, n - 1):
            un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        u, un = un, u
    return np.sum(u ** 2)


@njit
def heat_swap_return_un(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(1, n - 1):
            un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        u, un = un, u
    return np.sum(un * un)


@njit
def heat_swap_no_return(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(1, n - 1):
            un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        u, un = un, u


@njit
def swap_under_if(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(n):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        if t % 2 == 0:
            u, un = un, u
    return np.sum(u ** 2)


@njit
def rotate_three(a, b, c, k, nt):
    n = a.shape[0]
    for t in range(nt):
        for i in range(n):
            c[i] = a[i] * k + b[i] * b[i] * 0.3
        a, b, c = b, c, a
    return np.sum(a * b)


@njit
def rotate_or_swap(a, b, c, k, nt):
    n = a.shape[0]
    for t in range(nt):
        for i in range(n):
            c[i] = a[i] * k + b[i] * b[i] * 0.3
        if t % 2 == 0:
            a, b, c = b, c, a
        else:
            a, b = b, a
    return np.sum(a * b)


@njit
def local_and_argument(u, c, nt):
    un = np.empty_like(u)
    n = u.shape[0]
    for t in range(nt):
        for i in range(1, n - 1):
            un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        u, un = un, u
    return np.sum(u ** 2)


@njit
def swap_then_copy(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(n):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        u, un = un, u
        un[:] = u
    return np.sum(u ** 2)


@njit
def swap_2d(u, un, c, nt):
    n, m = u.shape
    for t in range(nt):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                un[i, j] = u[i, j] + c * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                                          - 4.0 * u[i, j]) + 0.1 * u[i, j] ** 2
        un[0, :] = u[0, :]
        un[n - 1, :] = u[n - 1, :]
        un[:, 0] = u[:, 0]
        un[:, m - 1] = u[:, m - 1]
        u, un = un, u
    return np.sum(u ** 2)


@njit
def step(u, un, c):
    n = u.shape[0]
    for i in range(1, n - 1):
        un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
    un[0] = u[0]
    un[n - 1] = u[n - 1]


@njit
def helper_then_swap(u, un, c, nt):
    for t in range(nt):
        step(u, un, c)
        u, un = un, u
    return np.sum(u ** 2)


@njit
def step_swapping_inside(u, un, c):
    for i in range(u.shape[0]):
        un[i] = u[i] * c + u[i] * u[i]
    u, un = un, u
    u[0] += 1.0


@njit
def helper_swapping_inside(u, un, c, nt):
    for t in range(nt):
        step_swapping_inside(u, un, c)
    return np.sum(u * un)


@njit(parallel=True)
def prange_swap(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in prange(1, n - 1):
            un[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i]
        un[0] = u[0]
        un[n - 1] = u[n - 1]
        u, un = un, u
    return np.sum(u ** 2)


@njit
def two_swapping_loops(u, un, c, nt):
    n = u.shape[0]
    for t in range(nt):
        for i in range(n):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        u, un = un, u
    for t in range(nt):
        for i in range(n):
            un[i] = u[i] * c - 0.1 * u[i] * u[i]
        u, un = un, u
    return np.sum(u * u)


@njit
def while_swap(u, un, c, nt):
    n = u.shape[0]
    t = 0
    while t < nt:
        for i in range(n):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        u, un = un, u
        t += 1
    return np.sum(u * u)


@njit
def nested_swap_and_writes(u, un, c, nt):
    u[0] = u[0] * 2.0
    n = u.shape[0]
    for s in range(2):
        for t in range(nt):
            for i in range(n):
                un[i] = u[i] * c + 0.2 * u[i] * u[i]
            u, un = un, u
        u[0] = u[0] * 0.5
    un[:] = 2.0 * u
    return np.sum(u * un)


@njit
def swap_first(u, un, c, nt):
    for t in range(nt):
        u, un = un, u
        for i in range(u.shape[0]):
            u[i] = un[i] * c + 0.2 * un[i] * un[i]
    return np.sum(u * u)


@njit
def alias_before_swaps(u, un, c, nt):
    w = u
    for t in range(nt):
        for i in range(u.shape[0]):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        u, un = un, u
    return np.sum(w * w)


@njit
def swap_return_array(u, un, c, nt):
    for t in range(nt):
        for i in range(u.shape[0]):
            un[i] = u[i] * c + 0.2 * u[i] * u[i]
        u, un = un, u
    return u


# ------------------------------------------------------------------ refused with the line
@njit
def swap_through_temporary(u, un, c, nt):
    for t in range(nt):
        for i in range(u.shape[0]):
            un[i] = u[i] * c
        tmp = u
        u = un
        un = tmp
    return np.sum(u)


@njit
def swap_rows(A, c, nt):
    u = A[0]
    un = A[1]
    for t in range(nt):
        for i in range(u.shape[0]):
            un[i] = u[i] * c + u[i] * u[i]
        u, un = un, u
    return np.sum(u)


@njit
def swap_then_fresh(u, un, c, nt):
    for t in range(nt):
        for i in range(u.shape[0]):
            un[i] = u[i] * c + u[i] * u[i]
        u, un = un, u
        un = np.zeros_like(u)
    return np.sum(u)


# ------------------------------------------------------------------ drivers
@njit
def cube_sum(u):
    s = 0.0
    for i in range(u.shape[0]):
        s += u[i] * u[i] * u[i]
    return s


def driver_swap(u, un, c, nt):
    for t in range(nt):
        step(u, un, c)
        u, un = un, u
    return cube_sum(u)


def driver_swap_no_return(u, un, c, nt):
    for t in range(nt):
        step(u, un, c)
        u, un = un, u


def driver_rotate(a, b, c, k, nt):
    for t in range(nt):
        step(a, c, k)
        a, b, c = b, c, a
    return cube_sum(a) + cube_sum(b)


def driver_swap_under_if(u, un, c, nt):
    for t in range(nt):
        step(u, un, c)
        if t % 2 == 0:
            u, un = un, u
    return cube_sum(u)


def driver_local(u, c, nt):
    un = np.empty_like(u)
    for t in range(nt):
        step(u, un, c)
        u, un = un, u
    return cube_sum(u)


def driver_temporary(u, un, c, nt):
    for t in range(nt):
        step(u, un, c)
        tmp = u
        u = un
        un = tmp
    return cube_sum(u)

"""Kernels that crashed adtrans (issue 13), written as users write Numba."""
import math

import numpy as np
from numba import njit, prange


@njit(parallel=True)
def search_then_triangular(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        first = m
        for j in range(m):
            if x[i, j] > thresh:
                first = j
                break
        for j in range(first):
            for k in range(j + 1):
                out[i, j] += x[i, k] * x[i, j]


@njit
def search_then_triangular_serial(x, thresh, out):
    n, m = x.shape
    for i in range(n):
        first = m
        for j in range(m):
            if x[i, j] > thresh:
                first = j
                break
        for j in range(first):
            for k in range(j + 1):
                out[i, j] += x[i, k] * x[i, j]


@njit(parallel=True)
def while_search_then_triangular(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        j = 0
        while j < m:
            if x[i, j] > thresh:
                break
            j += 1
        for a in range(j):
            for b in range(a, j):
                out[i, a] += x[i, b] * x[i, a] * out[i, b]


# ---- break/continue/early return in nested loops, plain loops (no lists) -------------------
# `break` lowers to a flag and the inner loop to a taped `while` (normalise/jumps.py); under an
# outer loop that is rerun in the reverse sweep (carried scalars, recomputed), the rerun must
# start the inner loop's trip counter at 0.


@njit
def inner_break_carried(x, m):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(m):
            if x[i] * j > 1.5:
                break
            s = s * 0.5 + x[i] * j
    return s


@njit
def inner_break_counter(x, m, out):
    # the list-free form of tests/kernels_lists.py::append_with_break: a preallocated array
    # and a counter written by hand
    count = 0
    for i in range(x.shape[0]):
        for j in range(m):
            if x[i] * j > 1.5:
                break
            out[count] = x[i] * j
            count += 1
    total = 0.0
    for k in range(count):
        total += out[k] * out[k]
    return total


@njit
def inner_continue_carried(x, m):
    s = 1.0
    for i in range(x.shape[0]):
        for j in range(m):
            if (i + j) % 3 == 0:
                continue
            s = s * 0.9 + math.sin(x[i] * j)
    return s


@njit
def inner_continue_on_value_carried(x, m):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(m):
            if x[i] * j > 1.0:
                continue
            s = math.tanh(s + x[i] * x[i] * j)
    return s


@njit
def while_break_in_for_in_for(x, m, out):
    n, p = x.shape
    for i in range(n):
        for j in range(p):
            k = 0
            acc = x[i, j]
            while k < m:
                if acc > 2.0:
                    break
                acc = acc * 1.3 + 0.1 * x[i, j]
                k += 1
            out[i, j] = acc * acc


@njit
def while_continue_in_for_in_for(x, m, out):
    n, p = x.shape
    for i in range(n):
        for j in range(p):
            k = 0
            acc = x[i, j]
            while k < m:
                k += 1
                if k % 2 == 0:
                    continue
                acc = math.sin(acc) + x[i, j]
            out[i, j] += acc


@njit(parallel=True)
def prange_break_then_reduce(x, out):
    n, m = x.shape
    for i in prange(n):
        s = 0.0
        for j in range(m):
            if x[i, j] > 0.8:
                break
            s = s * 0.7 + x[i, j] * x[i, j]
        out[i] = s
    total = 0.0
    for i in range(n):
        total += out[i] * out[i] * (i + 1)
    return total


@njit
def last_iteration_inner_break(x, reps):
    y = 0.0
    for it in range(reps):
        y = 0.0
        for j in range(x.shape[0]):
            if x[j] * (it + 1) > 2.0:
                break
            y = y * 0.5 + x[j] * x[j]
    return y


@njit
def carried_while_in_for_in_for(x, m):
    c = 0.1
    n, p = x.shape
    for i in range(n):
        for j in range(p):
            k = 0
            acc = x[i, j] + c
            while k < m:
                if acc > 2.0:
                    break
                acc = acc * 1.3 + 0.1 * x[i, j]
                k += 1
            c = 0.5 * c + 0.1 * acc * acc
    return c


@njit
def carried_for_break_in_for_in_for(x, m):
    c = 0.1
    n, p = x.shape
    for i in range(n):
        for j in range(p):
            acc = x[i, j] + c
            for k in range(m):
                if acc > 2.0:
                    break
                acc = acc * 1.3 + 0.1 * x[i, j]
            c = 0.5 * c + 0.1 * acc * acc
    return c


@njit
def while_break_in_for_in_for_then_read(x, m, out):
    n, p = x.shape
    for i in range(n):
        for j in range(p):
            k = 0
            acc = x[i, j]
            while k < m:
                if acc > 2.0:
                    break
                acc = acc * 1.3 + 0.1 * x[i, j]
                k += 1
            out[i, j] = acc * acc
    total = 0.0
    for i in range(n):
        for j in range(p):
            total += out[i, j] * out[i, j]
    return total


@njit(parallel=True)
def prange_continue_then_reduce(x, out):
    n, m = x.shape
    for i in prange(n):
        s = 0.0
        for j in range(m):
            if x[i, j] < 0.3:
                continue
            s = math.sin(s) + x[i, j]
        out[i] = s
    total = 0.0
    for i in range(n):
        total += out[i] * out[i]
    return total


@njit
def carried_continue_in_while(x, m):
    s = 0.0
    for i in range(x.shape[0]):
        k = 0
        while k < m:
            k += 1
            if (k + i) % 2 == 0:
                continue
            s = s * 0.9 + x[i] * k
    return s


# ---- more break/continue/early return in nested loops (serial and prange) ------------------


@njit
def early_return_from_nested(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > thresh:
                return s * x[i, j]
            s += x[i, j] * x[i, j]
    return s


@njit
def early_return_from_while_in_for(x, limit):
    s = 0.0
    for i in range(x.shape[0]):
        y = x[i]
        while True:
            y = y * 1.5
            if y > limit:
                break
        s += y
        if s > 3.0 * limit:
            return s - x[0]
    return math.sqrt(s)


@njit(parallel=True)
def prange_break_and_continue(x, out):
    n, m = x.shape
    for i in prange(n):
        s = 0.0
        for j in range(m):
            if j % 2 == 1:
                continue
            if x[i, j] > 0.9:
                break
            s = s * x[i, j] + 1.0
        out[i] = s * s


@njit
def flag_breaks_outer(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        found = False
        for j in range(x.shape[1]):
            s += x[i, j] * (j + 1)
            if s > thresh:
                found = True
                break
        if found:
            break
    return s * s


@njit
def two_level_break(x, thresh):
    s = 1.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > thresh:
                break
            s = s * (1.0 + x[i, j])
        if s > 4.0:
            break
        s = math.sqrt(s)
    return s


@njit(parallel=True)
def prange_newton_with_break(a, out):
    for i in prange(a.shape[0]):
        y = a[i]
        for it in range(50):
            y_new = 0.5 * (y + a[i] / y)
            if abs(y_new - y) < 1e-300:
                break
            y = y_new
        out[i] = y


@njit
def continue_skips_inner_loop(x, m):
    s = 0.5
    for i in range(x.shape[0]):
        if x[i] < 0.4:
            continue
        for j in range(m):
            s = s * 0.8 + x[i] / (j + 1)
    return s


@njit
def time_loop_with_inner_break(u, steps, c):
    n = u.shape[0]
    for t in range(steps):
        for i in range(1, n):
            if u[i] > c:
                break
            u[i] = 0.9 * u[i] + 0.1 * u[i - 1]
    return np.sum(u * u)


@njit
def triangular_break(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(i):
            if x[i] * x[j] > thresh:
                break
            s += x[i] * x[j]
    return s


@njit(parallel=True)
def prange_while_search_then_row_update(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        j = 0
        best = 0.0
        while j < m:
            j += 1
            if x[i, j - 1] < 0.2:
                continue
            best = best * 0.5 + x[i, j - 1]
            if best > thresh:
                break
        for k in range(j):
            out[i, k] += best * x[i, k]


@njit
def early_return_in_nested_while(x, limit):
    total = 0.0
    i = 0
    while i < x.shape[0]:
        j = 0
        while j < x.shape[1]:
            total += x[i, j] * x[i, j]
            if total > limit:
                return total * x[i, j]
            j += 1
        i += 1
    return total


@njit
def early_return_under_carried(x, m, limit):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(m):
            if s > limit:
                return s * x[i]
            s = s * 0.9 + x[i] * (j + 1)
    return s


@njit(parallel=True)
def prange_while_true_then_reduce(x, out):
    n = x.shape[0]
    for i in prange(n):
        y = x[i]
        k = 0
        while True:
            y = math.sin(y) + x[i]
            k += 1
            if k >= 3 + i % 3:
                break
        out[i] = y
    total = 0.0
    for i in range(n):
        total += out[i] * out[(i + 1) % n]
    return total


@njit
def inplace_rows_with_break(a, thresh):
    n, m = a.shape
    for i in range(1, n):
        for j in range(m):
            if a[i - 1, j] > thresh:
                break
            a[i, j] = a[i, j] * a[i - 1, j] + 0.5
    return np.sum(a * a)


@njit
def break_inside_two_rerun_levels(x, m):
    c = 0.2
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            for k in range(m):
                for l in range(m):
                    if x[i, j] * (k + l) > 1.2:
                        break
                    c = c * 0.95 + x[i, j] * l
    return c


@njit(parallel=True)
def prange_rows_search_update_reduce(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        first = m
        for j in range(m):
            if x[i, j] > thresh:
                first = j
                break
        for j in range(first):
            out[i, j] += x[i, j] * x[i, first - 1 - j]
    return np.sum(out * out)


@njit
def continue_and_break_carried(x, m):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(m):
            if j == 1:
                continue
            if x[i] * j > 2.0:
                break
            s = math.cos(s) + x[i] * j
    return s


@njit
def while_with_return_under_for(x, limit):
    s = 0.0
    for i in range(x.shape[0]):
        y = x[i]
        n = 0
        while y < limit:
            y = y * 1.7 + s * 0.01
            n += 1
            if n > 20:
                return -1.0
        s += y * y
    return s


@njit
def nested_break_last_value(x, reps):
    y = 0.0
    for r in range(reps):
        y = 0.0
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                if x[i, j] > 0.9:
                    break
                y += x[i, j] * x[i, j]
            if y > 3.0:
                break
    return y * y


@njit(parallel=True)
def prange_break_carried_inner(x, out):
    n, m = x.shape
    for i in prange(n):
        s = 1.0
        for j in range(m):
            for k in range(m):
                if x[i, k] * j > 1.0:
                    break
                s = s * 0.8 + x[i, k] * x[i, j]
        out[i] = s
    total = 0.0
    for i in range(n):
        total += out[i] * (i + 1)
    return total


@njit
def last_iteration_threshold(x, reps):
    # no jump at all: the rerun of the last iteration reset `y` and then skipped `y += ...`
    # (taken for an outer accumulator), so `y > 1.0` was never true there (a wrong gradient)
    y = 0.0
    z = 0.0
    for r in range(reps):
        y = 0.0
        z = 0.0
        for i in range(x.shape[0]):
            y += x[i] * x[i]
            if y > 1.0:
                z += x[i]
    return y * z


# ---- for/while ... else, break out of a loop over an array or zip, jumps out of a prange ----
# (a prange left by break or return runs serially in Numba; so does its adjoint)

@njit
def for_else_return(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > thresh:
                break
            s += x[i, j]
        else:
            return s * s
    return s


@njit
def break_over_array(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for v in x[i]:
            if v > thresh:
                break
            s = s * 0.5 + v
    return s


@njit(parallel=True)
def break_in_prange_body(x, out):
    for i in prange(x.shape[0]):
        if x[i] > 0.5:
            break
        out[i] = x[i] * 2.0


@njit(parallel=True)
def return_in_prange_body(x, out):
    for i in prange(x.shape[0]):
        if x[i] > 0.5:
            return
        out[i] = x[i] * 2.0


@njit
def break_over_zip(x, y, thresh):
    s = 0.0
    for r in range(2):
        for a, b in zip(x, y):
            if a * b > thresh:
                break
            s = math.sin(s) + a * b
    return s


@njit
def break_over_array_then_read(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for v in x[i]:
            if v > thresh:
                break
            s = s * 0.5 + v
        s += v * v
    return s


@njit
def while_else(x, limit):
    s = 0.0
    for i in range(x.shape[0]):
        y = x[i]
        k = 0
        while k < 4:
            y = y * 1.5
            k += 1
            if y > limit:
                break
        else:
            y = -y
        s += y * x[i]
    return s


@njit
def for_else_without_break(x):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(i):
            s = s * 0.5 + x[j]
        else:
            s += x[i] * x[i]
    return s


@njit
def for_else_continue_outer(x, thresh):
    s = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > thresh:
                break
        else:
            continue
        s = s * 0.9 + x[i, j] * x[i, 0]
    return s


@njit
def nested_for_else_break_outer(x, thresh):
    s = 0.0
    for r in range(3):
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                if x[i, j] * (r + 1) > thresh:
                    break
            else:
                break
            s = s * 0.5 + x[i, j]
        else:
            s += 1.0
    return s


@njit
def break_with_zero_step(x):
    s = 0.0
    for i in range(0, x.shape[0], 0):
        if x[i] > 0.5:
            break
        s += x[i]
    return s

"""Python lists in kernels, written the way users write Numba (not for adtrans)."""
import math

import numba
import numpy as np
from numba import njit
from numba.typed import List


@njit
def append_then_sum(x):
    out = []
    for i in range(x.shape[0]):
        out.append(math.sin(x[i]) * x[i])
    return sum(out)


@njit
def append_under_if(x, w):
    picked = []
    for i in range(len(x)):
        if x[i] > 0.6:
            picked.append(x[i] * w[i])
    total = 0.0
    for v in picked:
        total += v * v
    return total + len(picked)


@njit
def append_nested(a):
    vals = []
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            vals.append(a[i, j] ** 2 - a[i, j])
    return np.sum(np.array(vals)) + vals[0] * vals[-1]


@njit
def append_triangular(x):
    pairs = []
    n = x.shape[0]
    for i in range(n):
        for j in range(i):
            d = x[i] - x[j]
            pairs.append(d * d)
    s = 0.0
    for k in range(len(pairs)):
        s += math.exp(-pairs[k])
    return s


@njit
def running_list(x):
    hist = [x[0]]
    for i in range(1, x.shape[0]):
        hist.append(0.5 * hist[-1] + x[i])
    return hist[len(hist) - 1] + hist[1] * 2.0


@njit
def list_to_array(x, w):
    feats = []
    for v in x:
        feats.append(math.tanh(v))
    arr = np.array(feats)
    return np.dot(arr, w)


@njit
def enumerate_list(x):
    ys = []
    for v in x:
        ys.append(v * v)
    s = 0.0
    for i, y in enumerate(ys):
        s += (i + 1) * y
    return s


@njit
def comprehension_map(x):
    ys = [math.exp(v) for v in x]
    return sum(ys) / len(ys)


@njit
def comprehension_indexed(x, w):
    n = x.shape[0]
    prods = [x[i] * w[i] for i in range(n)]
    return sum(prods) + max(prods)


@njit
def comprehension_filtered(x):
    big = [v * v for v in x if v > 0.7]
    return np.sum(np.array(big)) + len(big)


@njit
def sum_of_comprehension(x):
    return sum([math.sqrt(v) for v in x]) * 2.0


@njit
def sum_of_generator(x, w):
    n = x.shape[0]
    return sum(x[i] * w[i] for i in range(n)) + sum(v ** 3 for v in x)


@njit
def typed_list(x):
    acc = List()
    for i in range(x.shape[0]):
        acc.append(x[i] * (i + 1.0))
    return sum(acc) + acc[-1]


@njit
def typed_empty_list(x):
    acc = List.empty_list(numba.float64)
    for v in x:
        if v < 0.9:
            acc.append(math.log(v))
    s = 0.0
    for v in acc:
        s += v
    return s


@njit
def list_of_indices(x):
    idx = []
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            idx.append(i)
    s = 0.0
    for k in idx:
        s += x[k] ** 2
    return s


@njit
def literal_and_repeat(x):
    coeffs = [1.0, x[0], x[1] * x[1]]
    zeros = [0.0] * 3
    for k in range(3):
        zeros[k] = coeffs[k] * x[2]
    return sum(zeros) + coeffs[-1]


@njit
def pop_last(x):
    stack = []
    for v in x:
        stack.append(v * 2.0)
    top = stack.pop()
    return top * sum(stack)


@njit
def reflected_weights(x, weights):
    s = 0.0
    for i in range(len(weights)):
        s += weights[i] * x[i] ** 2
    for w in weights:
        s += w * x[0]
    return s + sum(weights) * x[1]


@njit
def nested_comprehension(x, y):
    rows = [sum(x[i] * y[j] for j in range(y.shape[0])) for i in range(x.shape[0])]
    return sum(r * r for r in rows)


@njit
def time_loop_list(x, steps):
    u = x.copy()
    total = 0.0
    for t in range(steps):
        flux = []
        for i in range(u.shape[0] - 1):
            flux.append(u[i + 1] - u[i])
        for i in range(len(flux)):
            u[i] += 0.1 * flux[i]
        total += sum(flux) * u[0]
    return total + np.sum(u * u)


# ---------------------------------------------------------------- refused
@njit
def append_in_while(x):
    out = []
    t = 0.0
    while t < 1.0:
        out.append(x[0] * t)      # <- while
        t += 0.25
    return sum(out)


@njit
def list_of_arrays(a):
    rows = []
    for i in range(a.shape[0]):
        rows.append(a[i, :i + 1])         # <- list of arrays of unknown (ragged) length
    return rows[0][0]


@njit
def list_extend(x):
    out = [x[0]]
    out.extend([x[1], x[2]])      # <- extend
    return sum(out)


@njit
def bound_after_creation(x):
    out = []
    m = 0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            m += 1
    for j in range(m):
        out.append(x[j])
    return sum(out)


@njit
def writes_argument_list(x, weights):
    weights[0] = x[0]             # <- writes the list argument
    return weights[1] * x[1]


@njit
def returns_list(x):
    out = [x[0]]
    return out                    # <- returns the list


@njit
def literal_then_counted_bound(x):
    out = [x[0] * x[1]]
    m = 0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            m += 1
    for j in range(m):
        out.append(x[j] * 2.0)
    return sum(out) * out[0]


@njit
def bound_assigned_after_use(x):
    out = []
    out.append(x[0])
    m = 0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            m += 1
    for j in range(m):
        out.append(x[j])          # <- bound m assigned after the list's first use
    return sum(out)


@njit
def append_in_prange(x):
    out = []
    for i in numba.prange(x.shape[0]):
        out.append(x[i])          # <- prange
    return sum(out)


@njit
def list_in_expression(x):
    out = [x[0], x[1]]
    return 2.0 * out              # <- list used as a value


@njit
def _scaled_energy(v, s):
    e = 0.0
    for k in range(len(v)):
        e += v[k] * v[k]
    return s * e


@njit
def list_views(x, w):
    ys = []
    for v in x:
        ys.append(v * 1.5)
    ys[0] = ys[0] * ys[1]
    s = max(ys) + min(ys) + np.sum(np.array(ys)) + sum(ys[1:]) + np.mean(np.array(ys[:-1]))
    for a, b in zip(ys, w):
        s += a * b
    return s + _scaled_energy(ys, 0.5)


@njit
def list_truthiness(x):
    out = []
    for v in x:
        if v > 0.8:
            out.append(math.sqrt(v))
    s = x[0]
    if out:
        s += out[0]
    if not out:
        s += 1.0
    return s


@njit
def _push(acc, v):
    acc.append(v)                 # <- append in a helper


@njit
def append_in_helper(x):
    acc = []
    for v in x:
        _push(acc, v * 2.0)
    return sum(acc)


@njit
def bound_reassigned_after_loop(x, n):
    out = []
    for i in range(n):
        out.append(x[i] * x[i])
    n = 0
    return sum(out) + n


@njit
def time_loop_nonlinear(x, steps):
    u = x.copy()
    total = 0.0
    for t in range(steps):
        flux = []
        for i in range(u.shape[0] - 1):
            flux.append(u[i + 1] * u[i])
        for i in range(len(flux)):
            u[i] += 0.1 * flux[i] ** 2
        total += sum(flux) * u[0] + flux[-1] * flux[0]
    return total + np.sum(u * u)


@njit
def time_loop_comprehension(x, steps):
    u = x.copy()
    s = 0.0
    for t in range(steps):
        vals = [math.sin(u[i]) for i in range(u.shape[0])]
        for i in range(u.shape[0]):
            u[i] = vals[i] * vals[(i + 1) % len(vals)]
        s += vals[0] * vals[-1]
    return s + u[0]


@njit
def list_per_prange_iteration(x, out):
    for i in numba.prange(x.shape[0]):
        tmp = []
        for j in range(3):
            tmp.append(x[i] * (j + 1.0))
        out[i] = sum(tmp) * tmp[-1]


@njit
def pop_in_while(x):
    stack = [x[0], x[1], x[2]]
    s = 0.0
    while len(stack) > 0:
        v = stack.pop()
        s = s * v + 1.0
    return s


@njit
def integer_counts(x):
    counts = [0] * 3
    for i in range(x.shape[0]):
        counts[i % 3] += 1
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * counts[i % 3]
    return s


@njit
def _mean_log(v):
    vals = [math.log(a) for a in v]
    return sum(vals) / len(vals)


@njit
def list_in_helper(x):
    return _mean_log(x) * x[0]


@njit
def two_generators(x, y):
    prods = [x[i] * y[j] for i in range(x.shape[0]) for j in range(y.shape[0])]
    return sum(prods) + prods[1]


@njit
def prange_over_list(x):
    out = []
    for i in range(x.shape[0]):
        out.append(x[i])
    s = 0.0
    for i in numba.prange(len(out)):
        s += out[i] ** 2
    return s


@njit
def append_with_break(x, m):
    out = []
    for i in range(x.shape[0]):
        for j in range(m):
            if x[i] * j > 1.5:
                break
            out.append(x[i] * j)
    return sum(out)


@njit
def int_list_as_indices(x, n):
    order = [0] * n
    for i in range(n):
        order[i] = n - 1 - i
    picked = []
    for k in range(len(order)):
        picked.append(order[k])
    s = 0.0
    for j in range(sum(picked) // n + 1):
        s += x[picked[j % n]] ** 2
    return s


@njit
def append_while_iterating(x):
    out = [x[0], x[1]]
    for v in out:
        if v > 0.5:
            out.append(v * 0.5)   # <- appends to the list it iterates over
    return sum(out)


@njit
def list_statistics(x):
    vals = []
    for i in range(x.shape[0]):
        vals.append(np.sqrt(x[i]) + float(i))
    d = 0.0
    for i in range(len(vals) - 1):
        d += (vals[i + 1] - vals[i]) ** 2
    a = np.array(vals)
    return np.mean(a) + np.std(a) + d


@njit
def nested_lists(x):
    grid = [[0.0] * 3 for _ in range(2)]   # <- a list of lists
    return grid[0][0] + x[0]

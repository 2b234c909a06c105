"""Time loops for the checkpointed-loop strategy (tests/test_checkpoint_loops.py)."""
import numpy as np
from numba import njit, prange


@njit
def heat_sink(u, c, steps):
    """1-D: `tmp` stored on [1, n - 1) and read there only, so only `u` is state."""
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(steps):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def heat_sink_strided(u, c, steps):
    """The same with a range of step 2 starting at 1 (trip numbers, not the index, are segmented)."""
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(1, steps, 2):
        for i in range(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def heat_sink_2d(u, c, steps):
    """2-D: the state is `u` and the scratch `tmp` (its 2-D extent is not proved covered)."""
    n = u.shape[0]
    m = u.shape[1]
    tmp = np.empty((n, m))
    for s in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                tmp[i, j] = u[i, j] + c * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                                           - 4.0 * u[i, j]) - 0.01 * u[i, j] ** 3
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = tmp[i, j]
    e = 0.0
    for i in range(n):
        for j in range(m):
            e += u[i, j] * u[i, j] * (1.0 + 0.1 * j)
    return e


@njit(parallel=True)
def heat_sink_prange(u, c, steps):
    """prange bodies inside the time loop."""
    n = u.shape[0]
    tmp = np.empty(n)
    for s in range(steps):
        for i in prange(1, n - 1):
            tmp[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in prange(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def rk2_chain(x, y, h, steps):
    """An explicit two-stage step: `k` covered by k[0] and [1, n), `yt` by [0, n): only `y` is state."""
    n = x.shape[0]
    k = np.empty(n)
    yt = np.empty(n)
    for s in range(steps):
        k[0] = x[0] * y[0]
        for i in range(1, n):
            k[i] = x[i] * y[i - 1] * y[i]
        for i in range(n):
            yt[i] = y[i] + h * k[i]
        for i in range(1, n):
            y[i] += 0.5 * h * (k[i] + x[i] * yt[i - 1] * yt[i])


@njit
def heat_carried(u, c, steps):
    """A scalar carried from step to step: not checkpointed (taped as before)."""
    n = u.shape[0]
    tmp = np.empty(n)
    a = 1.0
    for s in range(steps):
        a = a * 0.9
        for i in range(1, n - 1):
            tmp[i] = u[i] + a * c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.01 * u[i] ** 3
        for i in range(1, n - 1):
            u[i] = tmp[i]
    e = 0.0
    for i in range(n):
        e += u[i] * u[i]
    return e


@njit
def partial_stage(x, y, h, steps):
    """`k` is stored on [1, n) but read on [0, n): k[0] comes from the step before (stored at the
    end of each step), so `k` is state (leaving it out would rerun a segment with the last k[0])."""
    n = x.shape[0]
    k = np.zeros(n)
    k[0] = 0.5
    for s in range(steps):
        for i in range(1, n):
            k[i] = x[i] * y[i - 1]
        for i in range(n):
            y[i] += h * k[i] * y[i]
        k[0] = 0.5 * y[n - 1]

"""Kernels that draw random numbers with NumPy's legacy generator (tests/test_random_kernels.py)."""
import math

import numba
import numpy as np
from numba import njit


@njit(cache=True)
def gbm_call(s0, sigma, r, t, strike, n):
    """European call by path simulation of geometric Brownian motion (one step to maturity)."""
    np.random.seed(42)
    total = 0.0
    for i in range(n):
        z = np.random.standard_normal()
        st = s0 * math.exp((r - 0.5 * sigma * sigma) * t + sigma * math.sqrt(t) * z)
        total += max(st - strike, 0.0)
    return math.exp(-r * t) * total / n


@njit(cache=True)
def gbm_paths(s0, sigma, r, t, strike, n, steps):
    """The same price from paths of `steps` Euler steps of the log price, drawn as one array."""
    np.random.seed(7)
    dt = t / steps
    z = np.random.standard_normal((n, steps))
    total = 0.0
    for i in range(n):
        logs = math.log(s0)
        for k in range(steps):
            logs += (r - 0.5 * sigma * sigma) * dt + sigma * math.sqrt(dt) * z[i, k]
        total += max(math.exp(logs) - strike, 0.0)
    return math.exp(-r * t) * total / n


@njit(cache=True)
def langevin(x, gamma, temp, dt, steps):
    """Overdamped Langevin dynamics in a double well, every step a dependent one; x is updated in place."""
    np.random.seed(1)
    scale = math.sqrt(2.0 * temp * dt)
    for k in range(steps):
        for i in range(x.shape[0]):
            force = -4.0 * x[i] * (x[i] * x[i] - 1.0)
            x[i] = x[i] + dt * gamma * force + scale * np.random.normal()
    e = 0.0
    for i in range(x.shape[0]):
        e += x[i] * x[i]
    return e


@njit(cache=True)
def reparametrised(mu, sigma, a, b, n):
    """normal(mu, sigma) and uniform(a, b) with active parameters (pathwise: mu + sigma z, a + (b - a) u)."""
    np.random.seed(5)
    acc = 0.0
    for i in range(n):
        y = np.random.normal(mu, sigma)
        u = np.random.uniform(a, b)
        acc += math.sin(y) * u + np.random.exponential(2.0) * y
    return acc


@njit(cache=True)
def scalar_recurrence(x0, theta, n):
    """A taped dependent loop: an Ornstein-Uhlenbeck recurrence, its noise drawn per step."""
    np.random.seed(11)
    x = x0
    s = 0.0
    for i in range(n):
        x = x + theta * (1.0 - x) * 0.1 + 0.3 * math.tanh(x) * np.random.randn()
        s += x * x
    return s


@njit(cache=True)
def independent_draws(x, w):
    """Independent iterations whose adjoints are known only after the loop (recomputed without draws)."""
    np.random.seed(3)
    y = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        y[i] = math.exp(w * x[i] + 0.1 * np.random.standard_normal())
    s = 0.0
    for i in range(x.shape[0]):
        s += y[i]
    t = 0.0
    for i in range(x.shape[0]):
        t += y[i] * y[i] / s
    return t


@njit(cache=True)
def noise_array(x, w):
    """A noise array drawn before a loop that reads it, in a loop the engine recomputes."""
    np.random.seed(9)
    eps = np.random.standard_normal(x.shape[0])
    y = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        y[i] = math.sin(w * x[i] + eps[i])
    s = 0.0
    for i in range(x.shape[0]):
        s += y[i] * y[i]
    return s * s


@njit(cache=True)
def dropout(x, w, p):
    """A dropout mask (an array draw inside an expression) and whole-array code."""
    np.random.seed(2)
    keep = np.random.rand(x.shape[0]) < p
    h = np.tanh(w * x) * keep / p
    return np.sum(h * h)


@njit(cache=True)
def sgd_loss(theta, X, y, batch, epochs):
    """Minibatches drawn with randint; theta is updated in place by plain SGD steps."""
    np.random.seed(4)
    for e in range(epochs):
        for b in range(batch):
            j = np.random.randint(0, X.shape[0])
            r = X[j, 0] * theta[0] + X[j, 1] * theta[1] - y[j]
            theta[0] -= 0.05 * r * X[j, 0]
            theta[1] -= 0.05 * r * X[j, 1]
    loss = 0.0
    for j in range(X.shape[0]):
        r = X[j, 0] * theta[0] + X[j, 1] * theta[1] - y[j]
        loss += r * r
    return loss


@njit(cache=True)
def last_draw(x, n):
    """A repeated evaluation keeping its last result (the engine reverses the last iteration only)."""
    np.random.seed(6)
    v = 0.0
    for i in range(n):
        v = x[0] * np.random.random() + x[1]
    return v * v


@njit(cache=True)
def draws_into(out, x, n):
    """Draws written into an output array (its primal values are compared with Numba's)."""
    np.random.seed(8)
    for i in range(n):
        out[i] = x[0] * math.exp(0.3 * np.random.standard_normal())
    return out[n - 1]


@njit(cache=True)
def next_uniform():
    return np.random.random()


@njit(cache=True)
def dead_draw(x):
    np.random.seed(10)
    a = np.random.standard_normal()         # nothing reads it: still drawn
    b = np.random.standard_normal()
    return x[0] * b + 0.0 * a


@njit(cache=True, parallel=True)
def in_prange(x):
    s = 0.0
    for i in numba.prange(x.shape[0]):
        s += x[i] * np.random.standard_normal()     # <- a prange draw
    return s


@njit(cache=True)
def in_while(x):
    s = 0.0
    while np.random.random() < 0.9:     # <- a draw in a while test (draws in while bodies: test_gaps13_dd.py)
        s += x[0]
    return s


@njit(cache=True)
def draw_helper(a):
    return a * np.random.standard_normal()      # <- a helper draw


@njit(cache=True)
def calls_draw_helper(x):
    return draw_helper(x[0])


@njit(cache=True)
def active_gamma(x):
    np.random.seed(0)
    return np.random.gamma(x[0], 1.0)     # <- an active gamma parameter


try:
    from numba import cuda

    @cuda.jit
    def cuda_noise(x, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = x[i] * np.random.standard_normal()  # <- a draw in a CUDA kernel
except ImportError:         # pragma: no cover
    cuda_noise = None


@njit(cache=True)
def noisy_step(x, sigma):
    """A step that draws without seeding (a driver calls it)."""
    s = 0.0
    for i in range(x.shape[0]):
        x[i] = x[i] + sigma * np.random.standard_normal()
        s += x[i]
    return s


@njit(cache=True)
def seed_numba(s):
    np.random.seed(s)


@njit(cache=True)
def weighted(x, eps):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sin(x[i] + eps[i])
    return s


def driver_steps(x, sigma):
    t = 0.0
    for k in range(3):
        t += noisy_step(x, sigma) ** 2
    return t


def driver_noise(x, w):
    eps = w * np.random.standard_normal(x.shape[0])        # drawn in plain Python, once
    return weighted(x, eps) ** 2


@njit(cache=True)
def skips_a_draw(x):
    np.random.seed(10)
    np.random.standard_normal()              # a draw discarded: it still advances the generator
    return x[0] * np.random.standard_normal()


@njit(cache=True)
def seeded_by_argument(x, seed, n):
    """A parameter named `seed` (the adjoint's own seed parameter is then named `seed_1`)."""
    np.random.seed(seed)
    s = 0.0
    for i in range(n):
        s += x[0] * np.random.normal(1.0, 0.5) ** 2 + x[1] * np.random.uniform(-1, 1)
    return s


@njit(cache=True)
def noisy_relax(u, z, c):
    for i in range(u.size):
        u[i] = u[i] + 0.1 * c * u[i] * u[i] + 0.01 * z[i]


def driver_global_draws(u, c, n):
    for k in range(n):                      # NumPy's global generator, drawn in the time loop
        noisy_relax(u, np.random.standard_normal(u.size), c)
    return np.sum(u * u)


def driver_generator_draws(u, c, n, rng):
    for k in range(n):                      # a Generator passed in, drawn in the time loop
        z = rng.standard_normal(u.size)
        noisy_relax(u, z, c)
    return np.sum(u * u)

"""Kernels for tests/test_newuser9.py (a new user's ninth trial, issue 13: "kernels as users write
them"): radiative transfer, river routing, enzyme kinetics, finite-volume Burgers, logistic
regression, smoothing filters, a Poisson GLM, a spring chain, a tiny MLP, pharmacokinetics, thin-film
optics, a Gaussian process, a heat exchanger, a portfolio, Kepler's equation."""
import math

import numpy as np
from numba import njit, prange


# ----------------------------------------------------------------- radiative transfer
@njit
def beer_lambert(mu, dz, I0):
    """Intensity after each layer of a slab: optical depth a running sum of mu * dz."""
    tau = np.cumsum(mu * dz)
    I = I0 * np.exp(-tau)
    absorbed = I0 - I[-1]
    return absorbed + 0.1 * np.sum(I ** 2)


@njit(parallel=True)
def beer_lambert_rays(mu, dz, cos_theta):
    """Many slanted rays through the same layers, one per prange iteration."""
    nray = cos_theta.shape[0]
    out = np.zeros(nray)
    for r in prange(nray):
        tau = 0.0
        for k in range(mu.shape[0]):
            tau += mu[k] * dz[k] / cos_theta[r]
        out[r] = math.exp(-tau)
    return np.sum(out)


# ----------------------------------------------------------------- river routing
@njit
def muskingum(inflow, K, X, dt):
    """Muskingum routing of an inflow hydrograph through one reach."""
    denom = 2.0 * K * (1.0 - X) + dt
    C0 = (dt - 2.0 * K * X) / denom
    C1 = (dt + 2.0 * K * X) / denom
    C2 = (2.0 * K * (1.0 - X) - dt) / denom
    n = inflow.shape[0]
    out = np.empty(n)
    out[0] = inflow[0]
    for t in range(n - 1):
        out[t + 1] = C0 * inflow[t + 1] + C1 * inflow[t] + C2 * out[t]
    peak = np.max(out)
    return peak + 0.01 * np.sum(out)


# ----------------------------------------------------------------- enzyme kinetics, RK4
@njit
def mm_rhs(y, vmax, km, kcat=0.5):
    s, p = y[0], y[1]
    rate = vmax * s / (km + s)
    return np.array([-rate, rate - kcat * p])


@njit
def enzyme_rk4(y0, vmax, km, dt, nsteps):
    y = y0.copy()
    for step in range(nsteps):
        k1 = mm_rhs(y, vmax, km)
        k2 = mm_rhs(y + 0.5 * dt * k1, vmax, km)
        k3 = mm_rhs(y + 0.5 * dt * k2, vmax, km)
        k4 = mm_rhs(y + dt * k3, vmax, km)
        y = y + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return y[1]


# ----------------------------------------------------------------- finite-volume Burgers
@njit
def minmod(a, b):
    if a * b <= 0.0:
        return 0.0
    if abs(a) < abs(b):
        return a
    return b


@njit
def burgers_fv(u0, dt, dx, nsteps):
    """MUSCL with a minmod limiter and a Rusanov flux, periodic."""
    u = u0.copy()
    n = u.shape[0]
    for step in range(nsteps):
        slope = np.empty(n)
        for i in range(n):
            slope[i] = minmod(u[i] - u[i - 1], u[(i + 1) % n] - u[i])
        flux = np.empty(n)
        for i in range(n):
            uL = u[i] + 0.5 * slope[i]
            uR = u[(i + 1) % n] - 0.5 * slope[(i + 1) % n]
            a = max(abs(uL), abs(uR))
            flux[i] = 0.25 * (uL * uL + uR * uR) - 0.5 * a * (uR - uL)
        u = u - dt / dx * (flux - np.roll(flux, 1))
    return np.sum(u ** 2)


# ----------------------------------------------------------------- logistic regression
@njit
def logreg_loss(w, X, y, lam):
    z = X @ w
    loss = np.sum(np.log1p(np.exp(-y * z)))
    return loss / X.shape[0] + 0.5 * lam * np.dot(w, w)


# ----------------------------------------------------------------- smoothing filter
@njit
def savgol_residual(x, coeffs):
    """A Savitzky-Golay style smoother as a convolution; squared residual of the interior."""
    smooth = np.convolve(x, coeffs)
    h = coeffs.shape[0] // 2
    inner = smooth[2 * h:x.shape[0]]
    r = x[h:x.shape[0] - h] - inner
    return np.sum(r * r)


# ----------------------------------------------------------------- Poisson GLM with groups
@njit
def poisson_glm(beta, offsets, X, y, group):
    n = X.shape[0]
    ll = 0.0
    for i in range(n):
        eta = offsets[group[i]]
        for j in range(X.shape[1]):
            eta += X[i, j] * beta[j]
        ll += y[i] * eta - math.exp(eta) - math.lgamma(y[i] + 1.0)
    return -ll


# ----------------------------------------------------------------- spring-mass chain
@njit
def spring_chain(x0, v0, k, L0, dt, nsteps):
    """Velocity Verlet for a chain of unit masses; springs between neighbours via np.diff."""
    x = x0.copy()
    v = v0.copy()
    n = x.shape[0]
    for step in range(nsteps):
        ext = np.diff(x) - L0
        f = np.zeros(n)
        f[:-1] += k * ext
        f[1:] -= k * ext
        v = v + 0.5 * dt * f
        x = x + dt * v
        ext = np.diff(x) - L0
        f = np.zeros(n)
        f[:-1] += k * ext
        f[1:] -= k * ext
        v = v + 0.5 * dt * f
    return np.sum(x * x) + np.sum(v * v)


# ----------------------------------------------------------------- tiny MLP
@njit
def softplus(x, beta=1.0):
    return np.log1p(np.exp(beta * x)) / beta


@njit
def mlp_loss(W1, b1, W2, X, y):
    h = np.tanh(X @ W1 + b1)
    out = h @ W2
    pred = softplus(out)
    return np.mean((pred - y) ** 2)


# ----------------------------------------------------------------- pharmacokinetics
@njit
def two_compartment(k12, k21, k10, dose, dt, nsteps):
    """Explicit Euler for a central/peripheral two-compartment model; concentrations returned."""
    a1 = dose
    a2 = 0.0
    conc = np.empty(nsteps)
    for t in range(nsteps):
        da1 = -k12 * a1 + k21 * a2 - k10 * a1
        da2 = k12 * a1 - k21 * a2
        a1 += dt * da1
        a2 += dt * da2
        conc[t] = a1 / 10.0
    return conc


def pk_fit(k, dose, obs):
    """A plain-Python driver: least squares between the model's curve and observations."""
    conc = two_compartment(k[0], k[1], k[2], dose, 0.1, obs.shape[0])
    r = conc - obs
    return float(np.sum(r * r))


# ----------------------------------------------------------------- thin-film optics
@njit
def thin_film(n_idx, d, phase):
    """Characteristic matrices (real 2x2 form, quarter-wave stack) multiplied layer by layer."""
    M = np.eye(2)
    for j in range(n_idx.shape[0]):
        delta = phase * n_idx[j] * d[j]
        c = math.cos(delta)
        s = math.sin(delta)
        L = np.array([[c, s / n_idx[j]], [-n_idx[j] * s, c]])
        M = M @ L
    return M[0, 0] ** 2 + M[0, 1] ** 2 + M[1, 0] ** 2 + M[1, 1] ** 2


# ----------------------------------------------------------------- Gaussian process
@njit
def gp_nll(X, y, ell, sf, sn):
    n = X.shape[0]
    d2 = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            d2[i, j] = np.sum((X[i] - X[j]) ** 2)
    K = sf ** 2 * np.exp(-0.5 * d2 / ell ** 2) + sn ** 2 * np.eye(n)
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * y @ alpha + 0.5 * logdet


# ----------------------------------------------------------------- heat exchanger NTU
@njit
def ntu_effectiveness(UA, C_hot, C_cold, T_hot, T_cold):
    Cmin = np.minimum(C_hot, C_cold)
    Cmax = np.maximum(C_hot, C_cold)
    Cr = Cmin / Cmax
    NTU = UA / Cmin
    e = np.exp(-NTU * (1.0 - Cr))
    eps = np.where(Cr > 0.999, NTU / (1.0 + NTU), (1.0 - e) / (1.0 - Cr * e))
    q = eps * Cmin * (T_hot - T_cold)
    return np.sum(q)


# ----------------------------------------------------------------- portfolio
@njit
def softmax(z):
    e = np.exp(z - np.max(z))
    return e / np.sum(e)


@njit
def portfolio(theta, C, mu, gamma):
    w = softmax(theta)
    return w @ C @ w - gamma * (mu @ w)


# ----------------------------------------------------------------- Kepler's equation
@njit
def kepler_orbit(M, e, a):
    """Solve E - e sin E = M by Newton for each mean anomaly; return the orbit's x^2 + y^2 sum."""
    n = M.shape[0]
    tot = 0.0
    for i in range(n):
        E = M[i]
        for it in range(50):
            f = E - e * math.sin(E) - M[i]
            E = E - f / (1.0 - e * math.cos(E))
            if abs(f) < 1e-14:
                break
        x = a * (math.cos(E) - e)
        y = a * math.sqrt(1.0 - e * e) * math.sin(E)
        tot += x * x + 2.0 * y * y
    return tot


# ================================================================= what the trial found
# --- an inner loop carrying a scalar (a Runge-Kutta stage loop: kprev) whose sum the reverse pops:
# its reverse was run without rerunning its forward statements (every kprev read as 0.0): wrong
RK_A = np.array([0.0, 0.5, 0.5, 1.0])
RK_B = np.array([1.0, 2.0, 2.0, 1.0]) / 6.0


@njit
def rk_tableau(y0, k, dt, nsteps):
    y = y0
    for step in range(nsteps):
        acc = 0.0
        kprev = 0.0
        for s in range(4):
            ks = -k * (y + RK_A[s] * dt * kprev)
            acc += RK_B[s] * ks
            kprev = ks
        y = y + dt * acc
    return y


@njit
def per_cell_stages(y0, k, dt):
    out = 0.0
    for i in range(y0.shape[0]):
        acc = 0.0
        kprev = 0.0
        for s in range(4):
            ks = -k[i] * (y0[i] + RK_A[s] * dt * kprev)
            acc += RK_B[s] * ks
            kprev = ks
        out += math.exp(acc)
    return out


# --- an element of a helper's returned array read after the helper's loop: the read ran before
# the loop (zero gradient)
@njit
def layer(x, W, b):
    return np.tanh(x @ W + b)


@njit
def mlp_forward(x, W1, b1, W2):
    return np.tanh(x @ W1 + b1) @ W2


@njit
def first_unit(W, b, x):
    h = layer(x, W, b)
    return h[1] ** 2


@njit
def mlp_batches(W1, b1, W2, X, y):
    loss = 0.0
    for i in range(X.shape[0]):
        out = mlp_forward(X[i], W1, b1, W2)
        loss += (out[0] - y[i]) ** 2
    return loss / X.shape[0]


@njit
def aliased_result(x):
    res = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        res[i] = np.sin(x[i])
    out = res
    return out[0] * out[-1]


# --- strings compared in a kernel (a limiter chosen by name, a module's scheme constant)
SCHEME = "upwind"


@njit
def phi_of(r, limiter):
    if limiter == "minmod":
        return max(0.0, min(1.0, r))
    if limiter != "superbee":
        return (r + abs(r)) / (1.0 + abs(r))
    return max(0.0, min(2.0 * r, 1.0), min(r, 2.0))


@njit
def limited_sum(u, limiter="minmod"):
    s = 0.0
    for i in range(1, u.shape[0] - 1):
        a = u[i] - u[i - 1]
        b = u[i + 1] - u[i]
        r = b / a if a != 0.0 else 0.0
        s += phi_of(r, limiter) * a * a
    return s


@njit
def global_scheme(u, c):
    if SCHEME == "upwind":
        return np.sum(c * (u[1:] - u[:-1]) ** 2)
    return np.sum(c * u ** 2)


def limiter_driver(u, name):
    return limited_sum(u * 2.0, name) + limited_sum(u, limiter="vanleer")


# --- refused: np.trapz (gone from NumPy 2.4), complex arithmetic
@njit
def trapz_dose(c, t):
    return np.trapz(c, t)


@njit
def complex_film(n_idx, d, wl):
    r = 0.0
    for j in range(n_idx.shape[0]):
        delta = 2.0 * np.pi * n_idx[j] * d[j] / wl
        r += abs(np.cos(delta) + 1j * np.sin(delta) / n_idx[j]) ** 2
    return r


@njit
def trapz_dose_hint(c, t):
    return np.trapezoid(c, t)


@njit
def horner_in_time(c, x0, n):
    """Horner's scheme (``p`` carried) summed (``s``) inside a time loop: the same pattern."""
    x = x0
    for t in range(n):
        p = 0.0
        s = 0.0
        for j in range(c.shape[0]):
            p = p * x + c[j]
            s += p
        x = 0.5 * x + 0.1 * math.tanh(s)
    return x


@njit
def in_choices(u, k, limiter="minmod"):
    s = 0.0
    for i in range(u.shape[0]):
        if limiter in ("minmod", "mc") and i % 3 in (0, 2):
            s += u[i] ** 2
        elif k not in [1, 5]:
            s += u[i] * u[0]
    return s


@njit
def string_length(u):
    return np.sum(u) * len("abc")

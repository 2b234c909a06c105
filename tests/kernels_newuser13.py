"""Kernels for tests/test_newuser13.py (a new user's thirteenth trial): fields not tried before
(lattice-Boltzmann diffusion, Lorenz-96 data assimilation, Hawkes/ETAS self-exciting processes,
Lindley and Erlang-C queues, Heston Monte Carlo, binomial American puts, Holt forecasting, Bezier
curve fitting, truss compliance, Darcy groundwater, exoplanet transits, random-intercept mixed
models, Gaussian mixtures, mean-field Ising and relaxed Potts energies, Cahn-Hilliard, total
variation denoising, ray-sphere tracing, Snell slab stacks, periodic Lennard-Jones crystals, EEG
notch filters, linear shallow water, energy-balance climate, point reactor kinetics, Butler-Volmer
electrodes, battery equivalent circuits, genetic toggle switches, social-force crowds, bundle
adjustment, Hopfield networks, geodesic soft k-means, variograms, stream-power rivers, water-wave
dispersion, gravitational lenses, two-link arm dynamics, economic dispatch, muffler transfer
matrices, Eyring reverberation, Karplus-Strong synthesis, worm-like chains, metapopulation SEIR,
ordinal regression, softmax regression, plume dispersion, kernel density bandwidths) and CUDA
kernels for five of them, written the way one finds them in public code.
"""
import math

import numpy as np
from numba import cuda, njit, prange


# ---------------------------------------------------------------- 1. lattice Boltzmann D1Q3
@njit(cache=True)
def lbm_diffusion(rho0, omega, nsteps=10):
    w = np.array([2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0])
    f = np.empty((3, rho0.shape[0]))
    for k in range(3):
        f[k] = w[k] * rho0
    for t in range(nsteps):
        rho = f[0] + f[1] + f[2]
        for k in range(3):
            f[k] += omega * (w[k] * rho - f[k])
        f[1] = np.roll(f[1], 1)
        f[2] = np.roll(f[2], -1)
    rho = f[0] + f[1] + f[2]
    return np.sum(rho ** 2 * np.arange(rho.shape[0]))


# --------------------------------------------------------------- 2. Lorenz-96 strong-constraint 4D-Var
@njit(cache=True)
def l96_tend(x, F):
    return (np.roll(x, -1) - np.roll(x, 2)) * np.roll(x, 1) - x + F


@njit(cache=True)
def lorenz96_4dvar(x0, F, obs, dt=0.01, nsteps=20):
    x = x0.copy()
    J = 0.0
    for t in range(nsteps):
        k1 = l96_tend(x, F)
        k2 = l96_tend(x + 0.5 * dt * k1, F)
        k3 = l96_tend(x + 0.5 * dt * k2, F)
        k4 = l96_tend(x + dt * k3, F)
        x = x + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        if (t + 1) % 5 == 0:
            J += np.sum((x - obs[(t + 1) // 5 - 1]) ** 2)
    return J


# ------------------------------------------------------------- 3. Hawkes / ETAS likelihood
@njit(cache=True)
def hawkes_nll(mu, alpha, beta, times, T):
    A = 0.0
    ll = 0.0
    prev = 0.0
    for k, t in enumerate(times):
        if k > 0:
            A = np.exp(-beta * (t - prev)) * (1.0 + A)
        ll += np.log(mu + alpha * beta * A)
        prev = t
    comp = mu * T + alpha * np.sum(1.0 - np.exp(-beta * (T - times)))
    return comp - ll


# ------------------------------------------------------------------- 4. Lindley queue
@njit(cache=True)
def lindley_mean_wait(service, interarrival, scale=1.0):
    w = 0.0
    total = 0.0
    for s, a in zip(service, interarrival):
        w = max(0.0, w + scale * s - a)
        total += w
    return total / len(service)


# ------------------------------------------------------------------ 5. Erlang-C staffing
@njit(cache=True)
def erlang_c_cost(lam, mu, c=4, wage=1.0):
    a = lam / mu
    term = 1.0
    s = 1.0
    k = 1
    while k < c:
        term *= a / k
        s += term
        k += 1
    term *= a / c
    pc = term / (1.0 - a / c)
    P = pc / (s + pc)
    Wq = P / (c * mu - lam)
    return Wq * lam + wage * c


# ------------------------------------------------------------- 6. Heston Monte Carlo (prange)
@njit(parallel=True, cache=True)
def heston_call(S0, v0, kappa, theta, xi, rho, Z1, Z2, K=100.0, T=1.0, r=0.01):
    npath, nstep = Z1.shape
    dt = T / nstep
    payoff = np.zeros(npath)
    for p in prange(npath):
        s = np.log(S0)
        v = v0
        for t in range(nstep):
            vp = max(v, 1e-8)
            z2 = rho * Z1[p, t] + np.sqrt(1 - rho * rho) * Z2[p, t]
            s += (r - 0.5 * vp) * dt + np.sqrt(vp * dt) * Z1[p, t]
            v += kappa * (theta - vp) * dt + xi * np.sqrt(vp * dt) * z2
        payoff[p] = max(np.exp(s) - K, 0.0)
    return np.exp(-r * T) * np.mean(payoff)


# ---------------------------------------------------------- 7. binomial American put (CRR)
@njit(cache=True)
def american_put(S0, K, sigma, r, T, n=40):
    dt = T / n
    u = np.exp(sigma * np.sqrt(dt))
    d = 1.0 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    j = np.arange(n + 1)
    V = np.maximum(K - S0 * u ** (n - j) * d ** j, 0.0)
    for i in range(n - 1, -1, -1):
        S = S0 * u ** (i - j[:i + 1]) * d ** j[:i + 1]
        V = np.maximum(disc * (p * V[:i + 1] + (1 - p) * V[1:i + 2]), K - S)
    return V[0]


# ----------------------------------------------------------------- 8. Holt linear trend
@njit(cache=True)
def holt_sse(alpha, beta, y):
    level = y[0]
    trend = y[1] - y[0]
    sse = 0.0
    for t in range(1, y.shape[0]):
        fc = level + trend
        e = y[t] - fc
        sse += e * e
        new_level = alpha * y[t] + (1 - alpha) * fc
        trend = beta * (new_level - level) + (1 - beta) * trend
        level = new_level
    return sse


# ------------------------------------------------------------- 9. Bezier de Casteljau fit
@njit(cache=True)
def de_casteljau(P, t):
    Q = P.copy()
    n = Q.shape[0]
    for r in range(1, n):
        Q[:n - r] = (1 - t) * Q[:n - r] + t * Q[1:n - r + 1]
    return Q[0]


@njit(cache=True)
def bezier_fit(P, ts, pts):
    err = 0.0
    for k in range(ts.shape[0]):
        d = de_casteljau(P, ts[k]) - pts[k]
        err += d @ d
    return err


# -------------------------------------------------------------- 10. truss compliance (FEM)
@njit(cache=True)
def truss_compliance(area, nodes, bars, free, load, E=1.0):
    ndof = 2 * nodes.shape[0]
    K = np.zeros((ndof, ndof))
    for e in range(bars.shape[0]):
        i, j = bars[e]
        dx, dy = nodes[j] - nodes[i]
        L = np.sqrt(dx * dx + dy * dy)
        c, s = dx / L, dy / L
        k = E * area[e] / L * np.array([[c * c, c * s], [c * s, s * s]])
        dofs = np.array([2 * i, 2 * i + 1, 2 * j, 2 * j + 1])
        ke = np.zeros((4, 4))
        ke[:2, :2] = k
        ke[2:, 2:] = k
        ke[:2, 2:] = -k
        ke[2:, :2] = -k
        for a in range(4):
            for b in range(4):
                K[dofs[a], dofs[b]] += ke[a, b]
    Kf = K[free][:, free]
    f = load[free]
    u = np.linalg.solve(Kf, f)
    return f @ u


# ----------------------------------------------------------- 11. Darcy groundwater (Jacobi)
@njit(cache=True)
def darcy_head(logK, h_left, h_right, niter=30):
    ny, nx = logK.shape
    Kc = np.exp(logK)
    h = np.zeros((ny, nx))
    h[:, 0] = h_left
    h[:, -1] = h_right
    Kx = 2 * Kc[:, 1:] * Kc[:, :-1] / (Kc[:, 1:] + Kc[:, :-1])
    Ky = 2 * Kc[1:] * Kc[:-1] / (Kc[1:] + Kc[:-1])
    for it in range(niter):
        num = np.zeros((ny, nx))
        den = np.zeros((ny, nx))
        num[:, :-1] += Kx * h[:, 1:]
        den[:, :-1] += Kx
        num[:, 1:] += Kx * h[:, :-1]
        den[:, 1:] += Kx
        num[:-1] += Ky * h[1:]
        den[:-1] += Ky
        num[1:] += Ky * h[:-1]
        den[1:] += Ky
        h[:, 1:-1] = num[:, 1:-1] / den[:, 1:-1]
    return np.sum(h[:, nx // 2] ** 2)


# ------------------------------------------------------------- 12. exoplanet transit fit
@njit(cache=True)
def transit_chi2(t0, period, rp, a, inc, u1, u2, t, flux):
    phase = 2 * np.pi * (t - t0) / period
    x = a * np.sin(phase)
    y = a * np.cos(inc) * np.cos(phase)
    z = np.sqrt(x * x + y * y)
    mu = np.sqrt(np.maximum(1 - z * z, 1e-12))
    I = 1 - u1 * (1 - mu) - u2 * (1 - mu) ** 2
    depth = np.where((z < 1) & (np.cos(phase) > 0), rp * rp * I / (1 - u1 / 3 - u2 / 6), 0.0)
    return np.sum((1 - depth - flux) ** 2)


# ------------------------------------------------------- 13. random-intercept mixed model
@njit(cache=True)
def random_intercept_nll(beta, log_su, log_se, X, y, groups, ngroups):
    su2 = np.exp(2 * log_su)
    se2 = np.exp(2 * log_se)
    nll = 0.0
    for g in range(ngroups):
        sel = groups == g
        r = y[sel] - X[sel] @ beta
        n = r.shape[0]
        denom = se2 + n * su2
        quad = (r @ r) / se2 - su2 * np.sum(r) ** 2 / (se2 * denom)
        nll += 0.5 * ((n - 1) * np.log(se2) + np.log(denom) + quad)
    return nll


# ------------------------------------------------------------ 14. Gaussian mixture (1-D)
@njit(cache=True)
def gmm_nll(logits, means, log_sd, x):
    w = np.exp(logits - np.max(logits))
    w = w / w.sum()
    sd = np.exp(log_sd)
    z = (x[:, None] - means[None, :]) / sd[None, :]
    logp = -0.5 * z * z - log_sd[None, :] - 0.5 * np.log(2 * np.pi) + np.log(w)[None, :]
    m = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        m[i] = logp[i].max()
    return -np.sum(m + np.log(np.sum(np.exp(logp - m[:, None]), axis=1)))


# ------------------------------------------------- 15. mean-field Ising free energy (prange)
@njit(parallel=True, cache=True)
def mean_field_ising(m, J, h, T=2.0):
    L = m.shape[0]
    s = np.tanh(m)
    e = np.zeros(L)
    for i in prange(L):
        acc = 0.0
        for j in range(L):
            nb = 0.0
            for di, dj in ((1, 0), (0, 1)):
                nb += s[(i + di) % L, (j + dj) % L]
            p = 0.5 * (1 + s[i, j])
            q = 0.5 * (1 - s[i, j])
            acc += -J * s[i, j] * nb - h * s[i, j] + T * (p * np.log(p) + q * np.log(q))
        e[i] = acc
    return e.sum()


# ------------------------------------------------------ 16. relaxed Potts ring (tuple loop)
@njit(cache=True)
def potts_relaxed(logits, J, beta=1.0):
    n, q = logits.shape
    p = np.exp(logits)
    for i in range(n):
        p[i] /= p[i].sum()
    E = 0.0
    for i in range(n):
        for shift in (-1, 1):
            j = (i + shift) % n
            E -= 0.5 * J * np.dot(p[i], p[j])
    ent = np.sum(p * np.log(p))
    return E + ent / beta


# ---------------------------------------------------------------- 17. Cahn-Hilliard 1-D
@njit(cache=True)
def periodic_lap(u, h=1.0):
    out = np.empty_like(u)
    out[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    out[0] = u[1] - 2 * u[0] + u[-1]
    out[-1] = u[0] - 2 * u[-1] + u[-2]
    return out / (h * h)


@njit(cache=True)
def cahn_hilliard(c0, kappa, M=1.0, dt=2e-3, nsteps=20):
    c = c0.copy()
    for _ in range(nsteps):
        mu = c ** 3 - c - kappa * periodic_lap(c)
        c = c + dt * M * periodic_lap(mu)
    return np.sum(c ** 4)


# ------------------------------------------------------------ 18. total-variation denoising
@njit(cache=True)
def tv_energy(u, f, lam, eps=1e-2):
    gx = np.zeros_like(u)
    gy = np.zeros_like(u)
    gx[:, :-1] = u[:, 1:] - u[:, :-1]
    gy[:-1, :] = u[1:, :] - u[:-1, :]
    return 0.5 * np.sum((u - f) ** 2) + lam * np.sum(np.sqrt(gx ** 2 + gy ** 2 + eps ** 2))


# ------------------------------------------------------ 19. ray-sphere tracing (early return)
@njit(cache=True)
def hit_sphere(o, d, c, r):
    oc = o - c
    b = np.dot(oc, d)
    cc = np.dot(oc, oc) - r * r
    disc = b * b - cc
    if disc < 0:
        return -1.0
    return -b - np.sqrt(disc)


@njit(cache=True)
def ray_path_length(origins, dirs, centers, radii):
    total = 0.0
    for k in range(origins.shape[0]):
        d = dirs[k] / np.sqrt(np.sum(dirs[k] ** 2))
        best = 1e30
        for s in range(centers.shape[0]):
            t = hit_sphere(origins[k], d, centers[s], radii[s])
            if t > 0 and t < best:
                best = t
        if best < 1e30:
            total += best
    return total


# --------------------------------------------------- 20. Snell slab stack (while, break)
@njit(cache=True)
def slab_offset(theta0, n, thick):
    s = np.sin(theta0) * n[0]
    x = 0.0
    i = 0
    while i < thick.shape[0]:
        st = s / n[i + 1]
        if st >= 1.0:
            break
        x += thick[i] * st / np.sqrt(1 - st * st)
        i += 1
    return x


# ------------------------------------------------ 21. periodic Lennard-Jones crystal (prange)
@njit(parallel=True, cache=True)
def lj_periodic(pos, box, eps=1.0, sig=1.0, rc=2.5):
    n = pos.shape[0]
    e = np.zeros(n)
    for i in prange(n):
        for j in range(n):
            if j == i:
                continue
            d = pos[i] - pos[j]
            d -= box * np.round(d / box)
            r2 = np.sum(d * d)
            if r2 < rc * rc:
                sr6 = (sig * sig / r2) ** 3
                e[i] += 2 * eps * (sr6 * sr6 - sr6)
    return e.sum()


# ----------------------------------------------------- 22. EEG notch biquad (prange, chained =)
@njit(parallel=True, cache=True)
def notch_power(x, b, a):
    nch, nt = x.shape
    out = np.zeros(nch)
    for c in prange(nch):
        x1 = x2 = y1 = y2 = 0.0
        acc = 0.0
        for t in range(nt):
            y = b[0] * x[c, t] + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
            x2, x1 = x1, x[c, t]
            y2, y1 = y1, y
            acc += y * y
        out[c] = acc / nt
    return np.sum(np.log(out))


# ------------------------------------------------------------ 23. linear shallow water 1-D
@njit(cache=True)
def shallow_water(eta0, depth, g=9.81, dt=0.05, dx=1.0, nsteps=30):
    eta = eta0.copy()
    u = np.zeros(eta.shape[0] + 1)
    Hf = np.concatenate((depth[:1], 0.5 * (depth[1:] + depth[:-1]), depth[-1:]))
    for _ in range(nsteps):
        u[1:-1] -= g * dt / dx * (eta[1:] - eta[:-1])
        flux = u * Hf
        eta -= dt / dx * (flux[1:] - flux[:-1])
    return np.sum(eta ** 2 * np.arange(1, eta.shape[0] + 1))


# ------------------------------------------------------------- 24. energy-balance climate
@njit(cache=True)
def ebm_mean_temp(T0, D, A=203.3, B=2.09, S0=1365.0, nsteps=50, dt=0.1):
    n = T0.shape[0]
    lat = np.linspace(-np.pi / 2 + np.pi / (2 * n), np.pi / 2 - np.pi / (2 * n), n)
    x = np.sin(lat)
    S = S0 / 4 * (1 - 0.482 * (3 * x ** 2 - 1) / 2)
    T = T0.copy()
    for _ in range(nsteps):
        alb = 0.45 - 0.15 * np.tanh((T + 10) / 5)
        lap = np.zeros(n)
        lap[1:-1] = T[2:] - 2 * T[1:-1] + T[:-2]
        T = T + dt * (S * (1 - alb) - (A + B * T) + D * lap) / 10
    return np.mean(T)


# ----------------------------------------------------------- 25. point reactor kinetics
@njit(cache=True)
def reactor_energy(rho, beta, lam=0.08, Lam=1e-3, dt=1e-4, sub=20):
    P = 1.0
    C = beta / (lam * Lam)
    energy = 0.0
    for r in rho:
        for _ in range(sub):
            dP = ((r - beta) / Lam) * P + lam * C
            dC = beta / Lam * P - lam * C
            P += dt * dP
            C += dt * dC
            energy += P * dt
    return energy


# ------------------------------------------------------------ 26. Butler-Volmer electrode
@njit(cache=True)
def bv_current(eta, i0, alpha_a, T=298.15):
    f = 96485.0 / (8.314 * T)
    return i0 * (np.exp(alpha_a * f * eta) - np.exp(-(1 - alpha_a) * f * eta))


@njit(cache=True)
def bv_fit(log_i0, alpha_a, Rs, E, i_obs, niter=8):
    i0 = np.exp(log_i0)
    f = 96485.0 / (8.314 * 298.15)
    eta = E.copy()
    for _ in range(niter):
        i = bv_current(eta, i0, alpha_a)
        di = i0 * (alpha_a * f * np.exp(alpha_a * f * eta) + (1 - alpha_a) * f * np.exp(-(1 - alpha_a) * f * eta))
        eta = eta - (eta + i * Rs - E) / (1 + di * Rs)
    i = bv_current(eta, i0, alpha_a)
    return np.sum((i - i_obs) ** 2)


# --------------------------------------------------- 27. battery ECM (tuple default, enumerate)
@njit(cache=True)
def ecm_voltage_loss(R0, R1, C1, current, v_meas, Q=3600.0, dt=1.0, ocv=(3.2, 0.9, -0.4, 0.3)):
    soc = 1.0
    v1 = 0.0
    loss = 0.0
    for k in range(current.shape[0]):
        I = current[k]
        o = 0.0
        for p, c in enumerate(ocv):
            o += c * soc ** p
        v = o - I * R0 - v1
        loss += (v - v_meas[k]) ** 2
        v1 += dt * (I / C1 - v1 / (R1 * C1))
        soc -= I * dt / Q
    return loss


# ------------------------------------------------------------- 28. genetic toggle switch
@njit(cache=True)
def toggle_switch(a1, a2, n, u0, v0, T=10.0, steps=200):
    u, v = u0, v0
    dt = T / steps
    acc = 0.0
    for _ in range(steps):
        du = a1 / (1 + v ** n) - u
        dv = a2 / (1 + u ** n) - v
        um = u + 0.5 * dt * du
        vm = v + 0.5 * dt * dv
        u += dt * (a1 / (1 + vm ** n) - um)
        v += dt * (a2 / (1 + um ** n) - vm)
        acc += (u - v) * dt
    return acc


# ------------------------------------------------ 29. social-force crowd (prange + driver)
@njit(parallel=True, cache=True)
def social_forces(pos, vel, goal, out, A=2.0, B=0.3, tau=0.5, v0=1.3):
    n = pos.shape[0]
    for i in prange(n):
        e = goal[i] - pos[i]
        e = e / np.sqrt(e @ e)
        f = (v0 * e - vel[i]) / tau
        for j in range(n):
            if i != j:
                d = pos[i] - pos[j]
                r = np.sqrt(d @ d)
                f = f + A * np.exp(-r / B) * d / r
        out[i] = f


def crowd_driver(pos0, vel0, goal, dt=0.05, nsteps=8):
    pos = pos0.copy()
    vel = vel0.copy()
    F = np.zeros_like(pos)
    for _ in range(nsteps):
        social_forces(pos, vel, goal, F)
        vel = vel + dt * F
        pos = pos + dt * vel
    return np.sum((pos - goal) ** 2)


# --------------------------------------------------- 30. bundle adjustment (prange, Rodrigues)
@njit(cache=True)
def rodrigues(w):
    th = np.sqrt(w @ w)
    k = w / th
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * (K @ K)


@njit(parallel=True, cache=True)
def reprojection_error(w, t, f, X, uv):
    R = rodrigues(w)
    n = X.shape[0]
    r = np.zeros(n)
    for i in prange(n):
        p = R @ X[i] + t
        du = f * p[0] / p[2] - uv[i, 0]
        dv = f * p[1] / p[2] - uv[i, 1]
        r[i] = du * du + dv * dv
    return r.sum()


# ------------------------------------------------------------ 31. continuous Hopfield energy
@njit(cache=True)
def hopfield_energy(u, W, b, gain=2.0):
    v = np.tanh(gain * u)
    E = -0.5 * v @ W @ v - b @ v
    E += np.sum(v * np.arctanh(v) + 0.5 * np.log(1 - v * v)) / gain
    return E


# --------------------------------------------------- 32. geodesic soft k-means (prange)
@njit(cache=True)
def haversine(lat1, lon1, lat2, lon2, R=6371.0):
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * R * np.arcsin(np.sqrt(a))


@njit(parallel=True, cache=True)
def soft_kmeans_geo(centers, pts, temp=100.0):
    n = pts.shape[0]
    k = centers.shape[0]
    cost = np.zeros(n)
    for i in prange(n):
        d = np.empty(k)
        for c in range(k):
            d[c] = haversine(pts[i, 0], pts[i, 1], centers[c, 0], centers[c, 1])
        m = d.min()
        cost[i] = m - temp * np.log(np.sum(np.exp(-(d - m) / temp)))
    return np.sum(cost)


# ------------------------------------------------------------- 33. variogram fit (masks)
@njit(cache=True)
def variogram_fit(log_sill, log_range, nugget, coords, z, nbins=5):
    d = np.sqrt(((coords[:, None, :] - coords[None, :, :]) ** 2).sum(axis=2)).ravel()
    g = (0.5 * (z[:, None] - z[None, :]) ** 2).ravel()
    edges = np.linspace(0.0, d.max(), nbins + 1)
    sill = np.exp(log_sill)
    rng = np.exp(log_range)
    loss = 0.0
    for b in range(nbins):
        mask = (d > edges[b]) & (d <= edges[b + 1])
        cnt = mask.sum()
        if cnt == 0:
            continue
        h = d[mask].mean()
        gam = g[mask].mean()
        model = nugget + sill * (1 - np.exp(-h / rng))
        loss += cnt * (gam - model) ** 2
    return loss


# ---------------------------------------------------------- 34. stream-power river profile
@njit(cache=True)
def river_profile(z0, uplift, K, m=0.5, dx=100.0, dt=50.0, nsteps=30):
    z = z0.copy()
    n = z.shape[0]
    area = (np.arange(n, 0, -1) * dx) ** 2
    for _ in range(nsteps):
        slope = np.maximum((z[1:] - z[:-1]) / dx, 1e-6)
        z[1:] += dt * (uplift - K * area[1:] ** m * slope)
    return np.sum(z)


# ---------------------------------------------- 35. water-wave dispersion (Newton, break, zip)
@njit(cache=True)
def wavenumber(omega, h, g=9.81, tol=1e-13):
    k = omega * omega / g
    for it in range(50):
        f = g * k * np.tanh(k * h) - omega * omega
        df = g * np.tanh(k * h) + g * k * h / np.cosh(k * h) ** 2
        dk = f / df
        k -= dk
        if abs(dk) < tol:
            break
    return k


@njit(cache=True)
def shoaling_fit(depths, periods, c_obs):
    err = 0.0
    for h, T, c in zip(depths, periods, c_obs):
        om = 2 * np.pi / T
        k = wavenumber(om, h)
        err += (om / k - c) ** 2
    return err


# ------------------------------------------------------------- 36. SIS lens + external shear
@njit(cache=True)
def lens_chi2(theta_E, gamma1, gamma2, xs, ys, img_x, img_y):
    r = np.sqrt(img_x ** 2 + img_y ** 2)
    bx = img_x - theta_E * img_x / r - (gamma1 * img_x + gamma2 * img_y)
    by = img_y - theta_E * img_y / r - (gamma2 * img_x - gamma1 * img_y)
    return np.sum((bx - xs) ** 2 + (by - ys) ** 2)


# ------------------------------------------------ 37. two-link arm (tuple return, keyword)
@njit(cache=True)
def arm_torques(q1, q2, dq1, dq2, ddq1, ddq2, m1=1.0, m2=1.0, l1=1.0, l2=0.8, g=9.81):
    c2 = np.cos(q2)
    s2 = np.sin(q2)
    lc1, lc2 = 0.5 * l1, 0.5 * l2
    I1, I2 = m1 * l1 ** 2 / 12, m2 * l2 ** 2 / 12
    M11 = I1 + I2 + m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * c2)
    M12 = I2 + m2 * (lc2 ** 2 + l1 * lc2 * c2)
    M22 = I2 + m2 * lc2 ** 2
    h = m2 * l1 * lc2 * s2
    g1 = (m1 * lc1 + m2 * l1) * g * np.cos(q1) + m2 * lc2 * g * np.cos(q1 + q2)
    g2 = m2 * lc2 * g * np.cos(q1 + q2)
    tau1 = M11 * ddq1 + M12 * ddq2 - h * (2 * dq1 * dq2 + dq2 ** 2) + g1
    tau2 = M12 * ddq1 + M22 * ddq2 + h * dq1 ** 2 + g2
    return tau1, tau2


@njit(cache=True)
def arm_effort(q, dq, ddq, m2):
    total = 0.0
    for k in range(q.shape[0]):
        t1, t2 = arm_torques(q[k, 0], q[k, 1], dq[k, 0], dq[k, 1], ddq[k, 0], ddq[k, 1], m2=m2)
        total += t1 * t1 + t2 * t2
    return total


# ------------------------------------------------------- 38. economic dispatch (softplus)
@njit(cache=True)
def dispatch_cost(P, a, b, c, demand, Pmax, rho=100.0):
    cost = np.sum(a + b * P + c * P ** 2)
    imbalance = np.sum(P) - demand
    over = np.log1p(np.exp(10 * (P - Pmax))) / 10
    return cost + rho * imbalance ** 2 + rho * np.sum(over ** 2)


# --------------------------------------------- 39. muffler transmission loss (complex 2x2)
@njit(cache=True)
def muffler_tl(lengths, areas, freqs, c=343.0, rho=1.2):
    tl = 0.0
    for f in freqs:
        k = 2 * np.pi * f / c
        T11, T12, T21, T22 = 1.0 + 0j, 0j, 0j, 1.0 + 0j
        for L, S in zip(lengths, areas):
            Z = rho * c / S
            ca, sa = np.cos(k * L), np.sin(k * L)
            a11, a12, a21, a22 = ca, 1j * Z * sa, 1j * sa / Z, ca
            T11, T12, T21, T22 = (T11 * a11 + T12 * a21, T11 * a12 + T12 * a22,
                                  T21 * a11 + T22 * a21, T21 * a12 + T22 * a22)
        Z0 = rho * c / areas[0]
        tl += 20 * np.log10(0.5 * abs(T11 + T12 / Z0 + Z0 * T21 + T22))
    return tl


# ------------------------------------------------------------- 40. Eyring reverberation
@njit(cache=True)
def eyring_rt(alpha, areas, volume):
    S = areas.sum()
    abar = np.sum(alpha * areas) / S
    return 0.161 * volume / (-S * np.log(1 - abar))


@njit(cache=True)
def rt_design(alpha_bands, areas, volume, target):
    loss = 0.0
    for b in range(alpha_bands.shape[0]):
        loss += (eyring_rt(alpha_bands[b], areas, volume) - target[b]) ** 2
    return loss


# ------------------------------------------------------- 41. Karplus-Strong (while, ring buffer)
@njit(cache=True)
def karplus_strong(excite, decay, nsamp=50):
    buf = excite.copy()
    N = buf.shape[0]
    out = np.zeros(nsamp)
    i = 0
    while i < nsamp:
        j = i % N
        nxt = decay * 0.5 * (buf[j] + buf[(j + 1) % N])
        out[i] = buf[j]
        buf[j] = nxt
        i += 1
    return np.sum(out * np.cos(0.3 * np.arange(nsamp)))


# ---------------------------------------------------------------- 42. worm-like chain
@njit(cache=True)
def wlc_energy(r, kb, ks, b0=1.0):
    bonds = r[1:] - r[:-1]
    L = np.sqrt(np.sum(bonds ** 2, axis=1))
    t = bonds / L[:, None]
    cos = np.sum(t[1:] * t[:-1], axis=1)
    return kb * np.sum(1 - cos) + 0.5 * ks * np.sum((L - b0) ** 2)


# ------------------------------------------------------------- 43. metapopulation SEIR
@njit(cache=True)
def metapop_seir(beta, sigma, gamma, M, y0, obs, dt=0.25, days=10):
    S, E, I, R = y0[0].copy(), y0[1].copy(), y0[2].copy(), y0[3].copy()
    N = S + E + I + R
    loss = 0.0
    steps = int(1 / dt)
    for d in range(days):
        for _ in range(steps):
            force = beta * (M @ (I / N))
            new_e = force * S
            new_i = sigma * E
            new_r = gamma * I
            S = S - dt * new_e
            E = E + dt * (new_e - new_i)
            I = I + dt * (new_i - new_r)
            R = R + dt * new_r
        loss += np.sum((np.log(I) - np.log(obs[d])) ** 2)
    return loss


# ----------------------------------------------------- 44. ordinal regression (ternaries)
@njit(cache=True)
def ordinal_nll(w, raw_cuts, X, y):
    cuts = np.cumsum(np.concatenate((raw_cuts[:1], np.exp(raw_cuts[1:]))))
    eta = X @ w
    nll = 0.0
    for i in range(y.shape[0]):
        k = y[i]
        hi = 1.0 if k == cuts.shape[0] else 1 / (1 + np.exp(-(cuts[k] - eta[i])))
        lo = 0.0 if k == 0 else 1 / (1 + np.exp(-(cuts[k - 1] - eta[i])))
        nll -= np.log(hi - lo)
    return nll


# ------------------------------------------------------ 45. softmax regression (prange)
@njit(parallel=True, cache=True)
def softmax_xent(W, X, labels, lam=1e-2):
    n = X.shape[0]
    losses = np.empty(n)
    for i in prange(n):
        z = W @ X[i]
        z = z - z.max()
        losses[i] = np.log(np.sum(np.exp(z))) - z[labels[i]]
    return losses.mean() + lam * np.sum(W * W)


# -------------------------------------------- 46. plume dispersion (prange step + driver)
@njit(parallel=True, cache=True)
def plume_step(c, u, v, K, out, dt=0.1):
    ny, nx = c.shape
    for i in prange(1, ny - 1):
        for j in range(1, nx - 1):
            adv_x = u * (c[i, j] - c[i, j - 1]) if u > 0 else u * (c[i, j + 1] - c[i, j])
            adv_y = v * (c[i, j] - c[i - 1, j]) if v > 0 else v * (c[i + 1, j] - c[i, j])
            lap = 0.0
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                lap += c[i + di, j + dj]
            lap -= 4 * c[i, j]
            out[i, j] = c[i, j] - dt * (adv_x + adv_y) + dt * K * lap


def plume_driver(c0, u, v, K, nsteps=6):
    c = c0.copy()
    nxt = c0.copy()
    for _ in range(nsteps):
        plume_step(c, u, v, K, nxt)
        c, nxt = nxt, c
    return np.sum(c[2, :] ** 2) + np.sum(c[:, 3])


# ----------------------------------------------- 47. KDE leave-one-out bandwidth (prange)
@njit(parallel=True, cache=True)
def kde_loo_nll(log_h, x):
    h = np.exp(log_h)
    n = x.shape[0]
    ll = np.zeros(n)
    for i in prange(n):
        s = 0.0
        for j in range(n):
            if j != i:
                z = (x[i] - x[j]) / h
                s += np.exp(-0.5 * z * z)
        ll[i] = np.log(s / ((n - 1) * h * np.sqrt(2 * np.pi)))
    return -ll.sum()


# --------------------------------------------------------- 48. Lorenz-96 driver (plain Python)
@njit(cache=True)
def l96_rk4_step(x, F, dt, out):
    k1 = l96_tend(x, F)
    k2 = l96_tend(x + 0.5 * dt * k1, F)
    k3 = l96_tend(x + 0.5 * dt * k2, F)
    k4 = l96_tend(x + dt * k3, F)
    out[:] = x + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def l96_driver(x0, F, obs, dt=0.01, nsteps=15):
    x = x0.copy()
    xn = np.empty_like(x)
    cost = 0.0
    for t in range(nsteps):
        l96_rk4_step(x, F, dt, xn)
        x, xn = xn, x
        if t % 5 == 4:
            cost += float(np.sum((x - obs[t // 5]) ** 2))
    return cost


# ------------------------------------------ 49. lattice Boltzmann driver (NumPy streaming)
@njit(cache=True)
def lbm_collide(f, omega, w):
    rho = f.sum(axis=0)
    for k in range(f.shape[0]):
        f[k] = f[k] + omega * (w[k] * rho - f[k])


def lbm_driver(rho0, omega, nsteps=8):
    w = np.array([2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0])
    f = w[:, None] * rho0[None, :]
    for _ in range(nsteps):
        lbm_collide(f, omega, w)
        f[1] = np.roll(f[1], 1)
        f[2] = np.roll(f[2], -1)
    rho = f.sum(axis=0)
    return float(np.sum(rho ** 2 * np.arange(rho.shape[0])))


# ----------------------------------------- 50. energy-balance seasonal driver (plain Python)
@njit(cache=True)
def ebm_month(T, S, D, out, A=203.3, B=2.09, dt=0.05):
    n = T.shape[0]
    for i in range(n):
        lo = T[i - 1] if i > 0 else T[i]
        hi = T[i + 1] if i < n - 1 else T[i]
        alb = 0.45 - 0.15 * np.tanh((T[i] + 10) / 5)
        out[i] = T[i] + dt * (S[i] * (1 - alb) - (A + B * T[i]) + D * (lo - 2 * T[i] + hi)) / 10


def ebm_seasonal_driver(T0, D, amp, years=2):
    n = T0.shape[0]
    x = np.sin(np.linspace(-1.4, 1.4, n))
    T = T0.copy()
    Tn = np.empty(n)
    season = []
    for yr in range(years):
        for month in range(12):
            S = 340.0 * (1 - 0.48 * (3 * x ** 2 - 1) / 2) + amp * x * np.cos(2 * np.pi * month / 12)
            ebm_month(T, S, D, Tn)
            T, Tn = Tn, T
            season.append(T.mean())
    return float(np.std(np.array(season))) + float(T[0])


# ===================================================================== CUDA kernels
# each with the same math in NumPy (updates its arguments in place, float64)

@cuda.jit
def l96_tend_cuda(x, F, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i < n:
        out[i] = (x[(i + 1) % n] - x[(i - 2) % n]) * x[(i - 1) % n] - x[i] + F[0]


def l96_tend_cuda_np(x, F, out):
    out[:] = (np.roll(x, -1) - np.roll(x, 2)) * np.roll(x, 1) - x + F[0]


@cuda.jit
def tv_density_cuda(u, eps, out):
    i, j = cuda.grid(2)
    ny, nx = u.shape
    if i >= ny or j >= nx:
        return
    gx = 0.0
    gy = 0.0
    if j + 1 < nx:
        gx = u[i, j + 1] - u[i, j]
    if i + 1 < ny:
        gy = u[i + 1, j] - u[i, j]
    out[i, j] = math.sqrt(gx * gx + gy * gy + eps[0] * eps[0])


def tv_density_cuda_np(u, eps, out):
    gx = np.zeros_like(u)
    gy = np.zeros_like(u)
    gx[:, :-1] = u[:, 1:] - u[:, :-1]
    gy[:-1, :] = u[1:, :] - u[:-1, :]
    out[:] = np.sqrt(gx ** 2 + gy ** 2 + eps[0] ** 2)


@cuda.jit(device=True)
def lj_pair(r2, eps=1.0, sig=1.0):
    sr6 = (sig * sig / r2) ** 3
    return 4.0 * eps * (sr6 * sr6 - sr6)


@cuda.jit
def lj_site_cuda(pos, e):
    i = cuda.grid(1)
    if i >= pos.shape[0]:
        return
    acc = 0.0
    for j in range(pos.shape[0]):
        if j == i:
            continue
        dx = pos[i, 0] - pos[j, 0]
        dy = pos[i, 1] - pos[j, 1]
        acc += 0.5 * lj_pair(dx * dx + dy * dy)
    e[i] = acc


def lj_site_cuda_np(pos, e):
    d = pos[:, None, :] - pos[None, :, :]
    r2 = np.sum(d * d, axis=2) + np.eye(pos.shape[0])
    sr6 = (1.0 / r2) ** 3
    v = 4.0 * (sr6 * sr6 - sr6)
    np.fill_diagonal(v, 0.0)
    e[:] = 0.5 * v.sum(axis=1)


@cuda.jit
def project_cuda(R, t, X, uv):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, X.shape[0], stride):
        p = cuda.local.array(3, np.float64)
        for a in range(3):
            p[a] = t[a]
            for b in range(3):
                p[a] += R[a, b] * X[i, b]
        uv[i, 0] = p[0] / p[2]
        uv[i, 1] = p[1] / p[2]


def project_cuda_np(R, t, X, uv):
    p = X @ R.T + t
    uv[:, 0] = p[:, 0] / p[:, 2]
    uv[:, 1] = p[:, 1] / p[:, 2]


@cuda.jit
def lbm_collide_cuda(f, omega):
    j = cuda.grid(1)
    if j < f.shape[1]:
        rho = f[0, j] + f[1, j] + f[2, j]
        for k, wk in enumerate((2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0)):
            f[k, j] += omega[0] * (wk * rho - f[k, j])


def lbm_collide_cuda_np(f, omega):
    w = np.array([2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0])
    rho = f.sum(axis=0)
    f += omega[0] * (w[:, None] * rho[None, :] - f)


@cuda.jit
def stencil_literal_cuda(u, out):
    i, j = cuda.grid(2)
    ny, nx = u.shape
    if 0 < i < ny - 1 and 0 < j < nx - 1:
        acc = 0.0
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            acc += (u[i + di, j + dj] - u[i, j]) ** 2
        out[i, j] = acc


def stencil_literal_cuda_np(u, out):
    c = u[1:-1, 1:-1]
    out[1:-1, 1:-1] = ((u[2:, 1:-1] - c) ** 2 + (u[:-2, 1:-1] - c) ** 2 + (u[1:-1, 2:] - c) ** 2
                       + (u[1:-1, :-2] - c) ** 2)


def cuda_cases():
    """name -> (cuda kernel, NumPy reference, args, activity, (griddim, blockdim))."""
    g = np.random.default_rng(13)
    grid = np.stack(np.meshgrid(np.arange(4.0), np.arange(4.0), indexing="ij"), -1).reshape(-1, 2) * 1.1
    return {
        "l96_tend_cuda": (l96_tend_cuda, l96_tend_cuda_np, [g.standard_normal(20), np.array([8.0]), np.zeros(20)],
                          ("dup", "dup", "dup"), (1, 32)),
        "tv_density_cuda": (tv_density_cuda, tv_density_cuda_np, [g.uniform(0, 1, (6, 7)), np.array([0.1]),
                                                                  np.zeros((6, 7))],
                            ("dup", "dup", "dup"), ((1, 1), (8, 8))),
        "lj_site_cuda": (lj_site_cuda, lj_site_cuda_np, [grid + 0.05 * g.standard_normal((16, 2)), np.zeros(16)],
                         ("dup", "dup"), (1, 32)),
        "project_cuda": (project_cuda, project_cuda_np, [np.eye(3) + 0.1 * g.standard_normal((3, 3)),
                                                         np.array([0.1, -0.2, 5.0]), g.standard_normal((20, 3)),
                                                         np.zeros((20, 2))],
                         ("dup", "dup", "dup", "dup"), (1, 8)),
        "lbm_collide_cuda": (lbm_collide_cuda, lbm_collide_cuda_np, [g.uniform(0.1, 1, (3, 12)), np.array([0.7])],
                             ("dup", "dup"), (1, 16)),
        # added after the measurement (a tuple-literal loop in a CUDA kernel, this round's fix)
        "stencil_literal_cuda": (stencil_literal_cuda, stencil_literal_cuda_np, [g.standard_normal((6, 7)),
                                                                                np.zeros((6, 7))],
                                 ("dup", "dup"), ((1, 1), (8, 8))),
    }


# ============================================= loops over tuple and list literals (the fix)
@njit(cache=True)
def literal_loop_forms(x, a, b):
    s = 0.0
    n = x.shape[0]
    for w in (a, b * 2.0):          # evaluated once, before the loop: the body's new `a` is not seen
        a = a * 3.0
        s += w * x[0] * a
    for k, c in enumerate((0.5, -0.25, 0.125)):
        s += c * x[k + 1] ** 2
    for i in range(1, n - 1):
        for shift in [-1, 1]:
            if x[i + shift] > 1.5:
                break
            s += x[i] * x[i + shift]
    for di, f in zip((1, 2), (a, b)):
        s += f * x[di]
    return s


@njit(cache=True)
def literal_offsets_whole(u, c):
    ny, nx = u.shape
    e = 0.0
    for i in range(1, ny - 1):
        for j in range(1, nx - 1):
            for off in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                e += c * (u[i, j] - u[i + off[0], j + off[1]]) ** 2
    return e


# ==================== an array every prange iteration reads, bound by a helper or an alias (the fix)
@njit(cache=True)
def soft_weights(w):
    e = np.exp(w - w.max())
    return e / e.sum()


@njit(parallel=True, cache=True)
def helper_result_in_prange(w, X):
    R = soft_weights(w)
    n = X.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        out[i] = np.sum(R * X[i]) ** 2
    return out.sum()


@njit(parallel=True, cache=True)
def alias_in_prange(A, X):
    R = A
    n = X.shape[0]
    out = np.zeros(n)
    for i in prange(n):
        acc = 0.0
        for k in range(X.shape[1]):
            acc += R[k] * X[i, k]
        out[i] = acc * acc
    return out.sum()


# ====================== a 2-D temporary whose length follows the loop index (de Casteljau, the fix)
@njit(cache=True)
def casteljau_2d(P, t):
    Q = P.copy()
    n = Q.shape[0]
    for r in range(1, n):
        Q[:n - r] = (1 - t) * Q[:n - r] + t * Q[1:n - r + 1]
    return np.sum(Q[0] ** 2)


# ========================= a loop over a tuple parameter (a default argument), the fix
@njit(cache=True)
def horner_tuple(x, coeffs=(1.0, -0.5, 0.25)):
    s = 0.0
    for c in coeffs:
        s = s * x[0] + c
    for j, c in enumerate(coeffs):
        s += c * x[j] ** 2
    return s


# ======================================== loops over literals of arrays (written out per element)
@njit(cache=True)
def arrays_in_literal(a, b):
    s = 0.0
    for arr in (a, b):
        for i in range(arr.shape[0]):
            s += arr[i] ** 3
    return s


@njit(cache=True)
def write_through_literal(a, b):
    for arr in [a, b]:
        for i in range(arr.shape[0]):
            arr[i] = arr[i] * 2.0 + 1.0
    return np.sum(a * b[:a.shape[0]])


@njit(cache=True)
def break_in_array_literal(a, b):   # refused: the body is written out once per array
    s = 0.0
    for arr in (a, b):
        if arr[0] > 10:
            break                   # <-
        s += arr[0]
    return s


# ========================== the binomial tree with its shape kept (the workaround for american_put)
@njit(cache=True)
def american_put_fixed_shape(S0, K, sigma, r, T, n=40):
    dt = T / n
    u = np.exp(sigma * np.sqrt(dt))
    d = 1.0 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    j = np.arange(n + 1)
    V = np.maximum(K - S0 * u ** (n - j) * d ** j, 0.0)
    for i in range(n - 1, -1, -1):
        S = S0 * u ** (i - j[:i + 1]) * d ** j[:i + 1]
        V[:i + 1] = np.maximum(disc * (p * V[:i + 1] + (1 - p) * V[1:i + 2]), K - S)
    return V[0]


# ========================== a shape error of the user's own: raised as NumPy raises it, not refused
@njit(cache=True)
def shape_error_of_the_users(x, y):
    z = np.empty(x.shape[0])
    z[:] = x * 2.0
    z[:] = y                  # called with len(y) != len(x): NumPy's ValueError
    return np.sum(z * z)

"""Kernels for tests/test_newuser12.py (a new user's twelfth trial): fields not tried before
(population ecology, molecular Morse potentials, AC power flow, Denavit-Hartenberg robot arms,
GARCH volatility, gravity surveys, X-ray structure factors, Biot-Savart magnetics, cardiac
FitzHugh-Nagumo cables, Allen-Cahn phase fields, item response theory, Bradley-Terry ratings,
photovoltaic diodes, Peng-Robinson gases, Weibull reliability, delay-and-sum beamforming,
Bateman decay chains, shallow-ice glaciers, pseudo-Voigt spectroscopy, bilateral filters, GNSS
positioning), written as one finds them in public code: whole-array NumPy mixed with loops,
serial and ``prange``, and plain-Python drivers calling kernels."""
import math

import numpy as np
from numba import njit, prange


# 1. ecology: Lotka-Volterra predator-prey, RK4 with a helper returning an array literal
@njit(cache=True)
def lv_rhs(z, alpha, beta, delta, gamma):
    x, y = z[0], z[1]
    return np.array([alpha * x - beta * x * y, delta * x * y - gamma * y])


@njit(cache=True)
def lotka_volterra_fit(theta, z0, obs, dt=0.05, substeps=5):
    alpha, beta, delta, gamma = theta[0], theta[1], theta[2], theta[3]
    z = z0.copy()
    loss = 0.0
    for k in range(obs.shape[0]):
        for s in range(substeps):
            k1 = lv_rhs(z, alpha, beta, delta, gamma)
            k2 = lv_rhs(z + 0.5 * dt * k1, alpha, beta, delta, gamma)
            k3 = lv_rhs(z + 0.5 * dt * k2, alpha, beta, delta, gamma)
            k4 = lv_rhs(z + dt * k3, alpha, beta, delta, gamma)
            z = z + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        r = np.log(z) - np.log(obs[k])
        loss += np.sum(r * r)
    return loss


# 2. chemistry: Morse potential of a cluster, prange over atoms, row differences
@njit(parallel=True, cache=True)
def morse_energy(pos, De, a, re):
    n = pos.shape[0]
    e = 0.0
    for i in prange(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            r = np.sqrt(np.sum(d * d))
            ex = math.exp(-a * (r - re))
            e += De * (1.0 - ex) ** 2
    return e


# 3. power systems: AC power-flow mismatch, whole-array broadcasting of angle differences
@njit(cache=True)
def power_mismatch(V, theta, G, B, P_spec, Q_spec):
    dth = theta[:, None] - theta[None, :]
    VV = V[:, None] * V[None, :]
    P = np.sum(VV * (G * np.cos(dth) + B * np.sin(dth)), axis=1)
    Q = np.sum(VV * (G * np.sin(dth) - B * np.cos(dth)), axis=1)
    dP = P[1:] - P_spec[1:]
    dQ = Q[1:] - Q_spec[1:]
    return 0.5 * (np.sum(dP ** 2) + np.sum(dQ ** 2))


# 4. robotics: Denavit-Hartenberg forward kinematics, 4x4 homogeneous matrices in a loop
@njit(cache=True)
def dh_matrix(theta, d, a, alpha):
    ct, st = np.cos(theta), np.sin(theta)
    ca, sa = np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


@njit(cache=True)
def dh_reach(q, d, a, alpha, target):
    T = np.eye(4)
    for i in range(q.shape[0]):
        T = T @ dh_matrix(q[i], d[i], a[i], alpha[i])
    p = T[:3, 3]
    err = p - target
    return np.dot(err, err)


# 5. econometrics: GARCH(1,1) Gaussian negative log-likelihood, variance recursion
@njit(cache=True)
def garch_nll(omega, alpha, beta, r):
    n = r.shape[0]
    h = np.var(r)
    nll = 0.0
    for t in range(1, n):
        h = omega + alpha * r[t - 1] ** 2 + beta * h
        nll += 0.5 * (math.log(2.0 * math.pi) + math.log(h) + r[t] ** 2 / h)
    return nll


# 6. geophysics: gravity anomaly of buried spheres along a profile, broadcasting
@njit(cache=True)
def gravity_misfit(xs, zs, drho, R, xobs, gobs):
    G = 6.674e-11
    mass = 4.0 / 3.0 * np.pi * R ** 3 * drho
    dx = xobs[:, None] - xs[None, :]
    r2 = dx * dx + zs[None, :] ** 2
    gz = G * np.sum(mass[None, :] * zs[None, :] / r2 ** 1.5, axis=1) * 1e5  # mGal
    res = gz - gobs
    return np.sum(res * res)


# 7. crystallography: structure factor intensities, phases from a matrix product
@njit(cache=True)
def structure_factor_loss(frac, f, hkl, I_obs):
    phase = 2.0 * np.pi * (hkl @ frac.T)          # (nrefl, natoms)
    A = np.cos(phase) @ f
    Bs = np.sin(phase) @ f
    I = A * A + Bs * Bs
    scale = np.sum(I * I_obs) / np.sum(I * I)
    return np.sum((scale * I - I_obs) ** 2)


# 8. magnetics: Biot-Savart field of a polyline wire at field points, prange, np.cross
@njit(parallel=True, cache=True)
def biot_savart(nodes, pts, current, B):
    mu = 1e-7 * current
    for p in prange(pts.shape[0]):
        acc = np.zeros(3)
        for s in range(nodes.shape[0] - 1):
            dl = nodes[s + 1] - nodes[s]
            mid = 0.5 * (nodes[s + 1] + nodes[s])
            rv = pts[p] - mid
            r = np.sqrt(np.sum(rv * rv))
            acc += mu * np.cross(dl, rv) / r ** 3
        B[p, :] = acc


# 9. cardiac electrophysiology: FitzHugh-Nagumo cable, explicit Euler, slices
@njit(cache=True)
def fhn_cable(v0, w0, a, eps, D, dt=0.02, dx=1.0, nsteps=60):
    v = v0.copy()
    w = w0.copy()
    for t in range(nsteps):
        lap = np.zeros_like(v)
        lap[1:-1] = (v[2:] - 2.0 * v[1:-1] + v[:-2]) / dx ** 2
        lap[0] = 2.0 * (v[1] - v[0]) / dx ** 2
        lap[-1] = 2.0 * (v[-2] - v[-1]) / dx ** 2
        dv = v - v ** 3 / 3.0 - w + D * lap
        dw = eps * (v + a - 0.8 * w)
        v = v + dt * dv
        w = w + dt * dw
    return np.sum(v ** 2) + 0.5 * np.sum(w)


# 10. materials: Allen-Cahn phase field on a periodic grid, np.roll Laplacian, energy at the end
@njit(cache=True)
def allen_cahn(u0, kappa, dt=0.01, nsteps=20):
    u = u0.copy()
    for _ in range(nsteps):
        lap = (np.roll(u, 1, axis=0) + np.roll(u, -1, axis=0) +
               np.roll(u, 1, axis=1) + np.roll(u, -1, axis=1) - 4.0 * u)
        u = u + dt * (kappa * lap - u ** 3 + u)
    ny, nx = u.shape
    e = 0.0
    for i in range(ny):
        for j in range(nx):
            e += 0.25 * (u[i, j] ** 2 - 1.0) ** 2
    return e / (ny * nx)


# 11. psychometrics: 2PL item response theory log-likelihood, broadcasting persons x items
@njit(cache=True)
def irt_2pl(ability, discr, diff, resp):
    z = discr[None, :] * (ability[:, None] - diff[None, :])
    # log sigmoid and log(1 - sigmoid), stable
    logp = -np.log1p(np.exp(-np.abs(z))) + np.minimum(z, 0.0)
    logq = logp - z
    ll = np.sum(resp * logp + (1.0 - resp) * logq)
    prior = 0.5 * np.sum(ability ** 2)
    return -ll + prior


# 12. sports ratings: Bradley-Terry likelihood over games, integer index arrays and zip
@njit(cache=True)
def bradley_terry(strength, winners, losers, home_adv=0.1):
    nll = 0.0
    for w, l in zip(winners, losers):
        d = strength[w] - strength[l] + home_adv
        nll += math.log1p(math.exp(-d))
    nll += 0.01 * np.sum(strength ** 2)
    return nll


# 13. photovoltaics: single-diode model, Newton per voltage point (implicit current), prange
@njit(parallel=True, cache=True)
def pv_power(Iph, I0, Rs, Rsh, n, V):
    Vt = n * 0.025852
    out = np.empty_like(V)
    for k in prange(V.shape[0]):
        I = Iph
        for it in range(30):
            e = math.exp((V[k] + I * Rs) / Vt)
            f = Iph - I0 * (e - 1.0) - (V[k] + I * Rs) / Rsh - I
            df = -I0 * e * Rs / Vt - Rs / Rsh - 1.0
            I = I - f / df
        out[k] = V[k] * I
    return np.max(out)


# 14. thermodynamics: Peng-Robinson pressure of a gas along an isotherm, keyword defaults
@njit(cache=True)
def peng_robinson_fit(Tc, Pc, omega, vm, P_obs, T=300.0, R=8.314):
    kappa = 0.37464 + 1.54226 * omega - 0.26992 * omega ** 2
    alpha = (1.0 + kappa * (1.0 - np.sqrt(T / Tc))) ** 2
    a = 0.45724 * R ** 2 * Tc ** 2 / Pc * alpha
    b = 0.07780 * R * Tc / Pc
    P = R * T / (vm - b) - a / (vm * vm + 2.0 * b * vm - b * b)
    rel = P / P_obs - 1.0
    return np.sum(rel ** 2)


# 15. reliability: Weibull log-likelihood with right censoring, np.where
@njit(cache=True)
def weibull_nll(log_k, log_lam, t, failed):
    k = np.exp(log_k)
    lam = np.exp(log_lam)
    z = t / lam
    logf = np.log(k / lam) + (k - 1.0) * np.log(z) - z ** k
    logS = -z ** k
    return -np.sum(np.where(failed > 0, logf, logS))


# 16. acoustics: delay-and-sum beamformer power over steering angles, enumerate over mics
@njit(cache=True)
def beam_power(mic_x, amp, angles, f0=1000.0, c=343.0, src=0.3):
    k = 2.0 * np.pi * f0 / c
    total = 0.0
    for th in angles:
        re = 0.0
        im = 0.0
        for m, x in enumerate(mic_x):
            ph = k * x * (np.sin(th) - np.sin(src))
            re += amp[m] * np.cos(ph)
            im += amp[m] * np.sin(ph)
        total += (re * re + im * im) * np.cos(th) ** 2
    return total


# 17. nuclear: Bateman decay chain, forward Euler on a local inventory array, per-step activity
@njit(cache=True)
def bateman_chain(lam, N0, dt, nsteps):
    nn = N0.shape[0]
    N = N0.copy()
    act = 0.0
    for t in range(nsteps):
        dN = np.empty(nn)
        dN[0] = -lam[0] * N[0]
        for i in range(1, nn):
            dN[i] = lam[i - 1] * N[i - 1] - lam[i] * N[i]
        for i in range(nn):
            N[i] += dt * dN[i]
        act += dt * np.sum(lam * N)
    return act


# 18. glaciology: shallow-ice approximation, flux kernel + plain-Python driver time loop
@njit(cache=True)
def sia_flux(H, b, A, dx, q):
    n = H.shape[0]
    rho_g = 910.0 * 9.81
    for i in range(n - 1):
        Hm = 0.5 * (H[i] + H[i + 1])
        s = (H[i + 1] + b[i + 1] - H[i] - b[i]) / dx
        D = 2.0 * A * rho_g ** 3 / 5.0 * Hm ** 5 * s * s
        q[i] = -D * s


def glacier_driver(H0, b, A, smb, nsteps=8):
    dx = 1000.0
    dt = 0.05
    H = H0.copy()
    q = np.zeros(H.shape[0] - 1)
    for t in range(nsteps):
        sia_flux(H, b, A, dx, q)
        div = np.zeros_like(H)
        div[1:-1] = (q[1:] - q[:-1]) / dx
        H = H + dt * (smb - div)
    return np.sum(H) * dx


# 19. spectroscopy: sum of pseudo-Voigt peaks, parameters reshaped (npk, 4), tuple of .shape
@njit(cache=True)
def pseudo_voigt_fit(params, x, y):
    P = params.reshape(-1, 4)
    npk, _ = P.shape
    model = np.zeros_like(x)
    for k in range(npk):
        amp, cen, wid, eta = P[k, 0], P[k, 1], P[k, 2], P[k, 3]
        u = (x - cen) / wid
        lor = 1.0 / (1.0 + u * u)
        gau = np.exp(-np.log(2.0) * u * u)
        model += amp * (eta * lor + (1.0 - eta) * gau)
    return np.sum((model - y) ** 2)


# 20. image processing: bilateral filter, prange over rows, fixed window, fit to a target
@njit(parallel=True, cache=True)
def bilateral_loss(img, target, sigma_s, sigma_r, rad=1):
    ny, nx = img.shape
    out = np.zeros_like(img)
    for i in prange(ny):
        for j in range(nx):
            num = 0.0
            den = 0.0
            for di in range(-rad, rad + 1):
                for dj in range(-rad, rad + 1):
                    ii = min(max(i + di, 0), ny - 1)
                    jj = min(max(j + dj, 0), nx - 1)
                    diff = img[ii, jj] - img[i, j]
                    w = math.exp(-(di * di + dj * dj) / (2.0 * sigma_s ** 2)
                                 - diff * diff / (2.0 * sigma_r ** 2))
                    num += w * img[ii, jj]
                    den += w
            out[i, j] = num / den
    return np.sum((out - target) ** 2)


# 21. geodesy: GNSS pseudorange positioning residual, receiver clock bias, norms along rows
@njit(cache=True)
def gnss_residual(x, sats, rho):
    pos = x[:3]
    clk = x[3]
    rng = np.sqrt(np.sum((sats - pos) ** 2, axis=1))
    res = rng + clk - rho
    return np.sum(res ** 2)


# 22. ecology driver: Lotka-Volterra via a stepping kernel writing into an output array
@njit(cache=True)
def lv_step(z, theta, dt, out):
    x = z[0]
    y = z[1]
    out[0] = x + dt * (theta[0] * x - theta[1] * x * y)
    out[1] = y + dt * (theta[2] * x * y - theta[3] * y)


def lv_driver(theta, z0, nsteps=30):
    z = z0.copy()
    zn = np.empty(2)
    traj = []
    for t in range(nsteps):
        lv_step(z, theta, 0.05, zn)
        z, zn = zn, z
        traj.append(z[0])
    return np.sum(np.array(traj) ** 2) + z[1]


# ---- second batch: forms users write next ----
# 23. robotics: quaternion attitude propagation, tuple unpacking of an array, norms, np.array literal
@njit(cache=True)
def quat_mul(p, q):
    a1, b1, c1, d1 = p
    a2, b2, c2, d2 = q
    return np.array([a1 * a2 - b1 * b2 - c1 * c2 - d1 * d2,
                     a1 * b2 + b1 * a2 + c1 * d2 - d1 * c2,
                     a1 * c2 - b1 * d2 + c1 * a2 + d1 * b2,
                     a1 * d2 + b1 * c2 - c1 * b2 + d1 * a2])


@njit(cache=True)
def attitude_error(omega, q0, q_target, dt=0.1):
    q = q0 / np.linalg.norm(q0)
    for k in range(omega.shape[0]):
        w = omega[k]
        dq = np.array([0.0, w[0], w[1], w[2]])
        q = q + 0.5 * dt * quat_mul(q, dq)
        q = q / np.linalg.norm(q)
    return 1.0 - np.dot(q, q_target) ** 2


# 24. traffic: cell transmission model, demand/supply with np.minimum, boundary inflow
@njit(cache=True)
def ctm(rho0, vf, w, rho_jam, inflow, dt=0.5, dx=10.0, nsteps=30):
    rho = rho0.copy()
    qmax = vf * w * rho_jam / (vf + w)
    delay = 0.0
    for t in range(nsteps):
        demand = np.minimum(vf * rho, qmax)
        supply = np.minimum(w * (rho_jam - rho), qmax)
        flux = np.empty(rho.shape[0] + 1)
        flux[0] = min(inflow, supply[0])
        flux[1:-1] = np.minimum(demand[:-1], supply[1:])
        flux[-1] = demand[-1]
        rho = rho + dt / dx * (flux[:-1] - flux[1:])
        delay += dt * dx * np.sum(rho)
    return delay


# 25. seismology: travel times of rays through flat layers (ray parameter p), Snell's law
@njit(cache=True)
def layered_traveltimes(v, h, p):
    T = np.zeros(p.shape[0])
    X = np.zeros(p.shape[0])
    for i, pi in enumerate(p):
        for vk, hk in zip(v, h):
            s = pi * vk
            c = np.sqrt(1.0 - s * s)
            T[i] += 2.0 * hk / (vk * c)
            X[i] += 2.0 * hk * s / c
    return np.sum(T) + 0.1 * np.sum(X)


# 26. optics: Fresnel reflectance (unpolarised) over incidence angles, np.where for the cutoff
@njit(cache=True)
def fresnel_reflect(n1, n2, theta):
    ci = np.cos(theta)
    s = n1 / n2 * np.sin(theta)
    ct = np.sqrt(np.maximum(1.0 - s * s, 0.0))
    rs = (n1 * ci - n2 * ct) / (n1 * ci + n2 * ct)
    rp = (n2 * ci - n1 * ct) / (n2 * ci + n1 * ct)
    R = 0.5 * (rs ** 2 + rp ** 2)
    return np.sum(np.where(s < 1.0, R, 1.0))


# 27. power systems: DC load flow, reduced susceptance matrix by slicing, solve, line flows
@njit(cache=True)
def dc_loadflow(b_line, frm, to, P, limit):
    nb = P.shape[0]
    Bbus = np.zeros((nb, nb))
    for k in range(b_line.shape[0]):
        i, j = frm[k], to[k]
        Bbus[i, i] += b_line[k]
        Bbus[j, j] += b_line[k]
        Bbus[i, j] -= b_line[k]
        Bbus[j, i] -= b_line[k]
    theta = np.zeros(nb)
    theta[1:] = np.linalg.solve(Bbus[1:, 1:], P[1:])
    flows = b_line * (theta[frm] - theta[to])
    over = flows / limit
    return np.sum(over ** 4)


# 28. finance: Black-Scholes portfolio value with a @vectorize normal CDF
from numba import vectorize


@vectorize(["float64(float64)"], cache=True)
def ncdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@njit(cache=True)
def bs_portfolio(S, sigma, K, T, units, r=0.02):
    sqT = np.sqrt(T)
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * sqT)
    d2 = d1 - sigma * sqT
    calls = S * ncdf(d1) - K * np.exp(-r * T) * ncdf(d2)
    return units @ calls


# 29. epidemiology: SIR with tuple unpacking of the state, weekly incidence appended to a list
@njit(cache=True)
def sir_weekly(beta, gamma, y0, cases, dt=0.25, days=28):
    y = y0.copy()
    weekly = []
    inc = 0.0
    steps = int(days / dt)
    for t in range(steps):
        S, I, R = y
        new = beta * S * I * dt
        y = y + np.array([-new, new - gamma * I * dt, gamma * I * dt])
        inc += new
        if (t + 1) % int(7 / dt) == 0:
            weekly.append(inc)
            inc = 0.0
    w = np.array(weekly)
    return np.sum((w - cases) ** 2)


# 30. image processing: separable Gaussian blur with np.convolve per row, prange, Laplacian penalty
@njit(parallel=True, cache=True)
def blur_rows(img, kern, target):
    ny, nx = img.shape
    out = np.empty_like(img)
    for i in prange(ny):
        out[i, :] = np.convolve(img[i, :], kern)[kern.shape[0] // 2: kern.shape[0] // 2 + nx]
    return np.sum((out - target) ** 2)


# 31. molecular dynamics: velocity Verlet for harmonic bonds, a force kernel returning an array,
#     plain-Python driver
@njit(cache=True)
def bond_forces(x, k, r0):
    n = x.shape[0]
    f = np.zeros_like(x)
    for i in range(n - 1):
        d = x[i + 1] - x[i]
        r = np.sqrt(np.sum(d * d))
        fm = k * (r - r0) * d / r
        f[i] += fm
        f[i + 1] -= fm
    return f


def md_driver(x0, v0, k, r0=1.0, dt=0.05, nsteps=10):
    x = x0.copy()
    v = v0.copy()
    f = bond_forces(x, k, r0)
    for s in range(nsteps):
        v = v + 0.5 * dt * f
        x = x + dt * v
        f = bond_forces(x, k, r0)
        v = v + 0.5 * dt * f
    return 0.5 * np.sum(v * v) + np.sum(x[:, 0])


# 32. geodesy: geodetic to ECEF for a set of stations, baseline lengths, keyword ellipsoid
@njit(cache=True)
def baselines(lat, lon, hgt, obs, a=6378137.0, f=1.0 / 298.257223563):
    e2 = f * (2.0 - f)
    N = a / np.sqrt(1.0 - e2 * np.sin(lat) ** 2)
    X = np.empty((lat.shape[0], 3))
    X[:, 0] = (N + hgt) * np.cos(lat) * np.cos(lon)
    X[:, 1] = (N + hgt) * np.cos(lat) * np.sin(lon)
    X[:, 2] = (N * (1.0 - e2) + hgt) * np.sin(lat)
    res = 0.0
    m = 0
    for i in range(X.shape[0]):
        for j in range(i + 1, X.shape[0]):
            L = np.linalg.norm(X[i] - X[j])
            res += (L - obs[m]) ** 2
            m += 1
    return res


# 33. climate: 1-D column radiative relaxation with convective adjustment (np.maximum, cumsum)
@njit(cache=True)
def column_model(T0, tau, Teq, gamma_c=6.5, dz=1.0, nsteps=20, dt=0.1):
    T = T0.copy()
    for t in range(nsteps):
        T = T + dt * (Teq - T) / tau
        lapse = (T[:-1] - T[1:]) / dz
        excess = np.maximum(lapse - gamma_c, 0.0)
        T[1:] = T[1:] + 0.5 * dz * excess
        T[:-1] = T[:-1] - 0.5 * dz * excess
    return np.sum(np.cumsum(T) * 1e-3) + T[0]


# 34. acoustics: room impulse response energy from image sources, reshape of positions, outer
@njit(cache=True)
def image_source_energy(src, mic, absorb, L):
    imgs = np.empty((6, 3))
    for k in range(3):
        imgs[2 * k] = src
        imgs[2 * k, k] = -src[k]
        imgs[2 * k + 1] = src
        imgs[2 * k + 1, k] = 2.0 * L[k] - src[k]
    d = np.sqrt(np.sum((imgs - mic.reshape(1, 3)) ** 2, axis=1))
    refl = np.repeat(1.0 - absorb, 2)
    direct = 1.0 / np.sum((src - mic) ** 2)
    return direct + np.sum(refl / d ** 2)


# ---- third batch: what the trial refused first ----
# 35. ballistics: point mass with quadratic drag, gravity a module-level constant array, `...` index
G_VEC = np.array([0.0, 0.0, -9.81])


@njit(cache=True)
def projectile(v0, drag, dt=0.01, nsteps=50):
    r = np.zeros(3)
    v = v0.copy()
    for t in range(nsteps):
        a = G_VEC - drag * np.linalg.norm(v) * v
        v = v + dt * a
        r = r + dt * v
    return r[..., 0] + r[2]


# 36. image processing: luminance of an RGB image by channel with `...`, smoothness of it
@njit(cache=True)
def rgb_luma_smoothness(img, wts):
    Y = wts[0] * img[..., 0] + wts[1] * img[..., 1] + wts[2] * img[..., 2]
    gx = Y[:, 1:] - Y[:, :-1]
    gy = Y[1:, ...] - Y[:-1, ...]
    return np.sum(gx ** 2) + np.sum(gy ** 2) + np.sum(img[0, ...] ** 2)


# 37. epidemiology: age-structured SEIR, prange kernel over age groups, plain-Python driver
#     clipping the infected fraction with np.clip (was refused in a driver)
@njit(parallel=True, cache=True)
def age_seir_rhs(S, E, I, C, beta, sigma, gamma, dS, dE, dI):
    for a in prange(S.shape[0]):
        lam = beta * np.dot(C[a], I)
        dS[a] = -lam * S[a]
        dE[a] = lam * S[a] - sigma * E[a]
        dI[a] = sigma * E[a] - gamma * I[a]


def age_seir_driver(beta, C, S0, I0, cap=0.05, days=20, dt=0.5):
    S = S0.copy()
    E = np.zeros_like(S0)
    I = I0.copy()
    dS = np.empty_like(S)
    dE = np.empty_like(S)
    dI = np.empty_like(S)
    burden = 0.0
    for t in range(int(days / dt)):
        age_seir_rhs(S, E, I, C, beta, 0.2, 0.1, dS, dE, dI)
        S = S + dt * dS
        E = E + dt * dE
        I = np.clip(I + dt * dI, 0.0, cap)          # hospital capacity reached in some groups
        burden += np.sum(I ** 2)
    return burden


def clip_driver(x, lo, hi):
    y = np.clip(2.0 * x, lo, hi)
    z = np.clip(x, None, hi)
    w = np.clip(x * x, lo, None)
    return np.sum(y ** 2) + np.sum(np.sin(z)) + np.sum(w)


# 38-42. a spring chain (mechanics) driven from plain Python with NumPy between kernel calls:
#        np.roll, np.outer, np.linalg.norm(axis=1), np.sort, np.prod, np.append (were refused)
@njit(cache=True)
def spring_forces(x, k, out):
    out[:] = 0.0
    for i in range(x.shape[0] - 1):
        f = k * (x[i + 1] - x[i] - 1.0)
        out[i] += f
        out[i + 1] -= f


def chain_roll_driver(x0, k):
    x = x0.copy()
    f = np.zeros_like(x)
    for t in range(5):
        spring_forces(x, k, f)
        x[1:] += 0.01 * f[1:]
        x = 0.5 * (x + np.roll(x, 1))
    return np.sum(np.abs(x - 1.0))


def chain_outer_driver(X, w):
    spring_forces(X[:, 0], 2.0, w)
    d = np.linalg.norm(X, axis=1)
    M = np.outer(d, w)
    return np.sum(M.T @ d) + np.mean(X, axis=0).sum()


def chain_order_driver(x, k):
    f = np.zeros_like(x)
    spring_forces(x, k, f)
    s = np.sort(f)
    g = np.append(f, x[0])
    return np.sum(s[:3] * np.arange(3)) + np.sum(g ** 2) + np.prod(x[:3]) + x[1:4].prod()


def product_driver(A, v):
    """np.prod along an axis, with a zero entry (the adjoint must not divide by it)."""
    return np.sum(np.prod(A, axis=1) * v) + np.prod(np.roll(A, (1, 2), axis=(0, 1))[0]) + \
        np.sum(np.sort(A, axis=0)[-1]) + np.sum(A.clip(-0.5, 0.5) ** 2)


# ---- fourth batch: prange forms (all right before this round) ----
# 43. granular mechanics: Hertz-like contact forces, a helper returning a tuple, continue, rows out
@njit(cache=True)
def contact_force(xi, xj, k, r0):
    d = xj - xi
    r = np.sqrt(np.dot(d, d))
    overlap = r0 - r
    if overlap <= 0.0:
        return 0.0, np.zeros(3)
    return 0.5 * k * overlap ** 2, -k * overlap * d / r


@njit(parallel=True, cache=True)
def granular_energy(X, k, r0, F):
    n, dim = X.shape
    E = 0.0
    for i in prange(n):
        fi = np.zeros(dim)
        for j in range(n):
            if j == i:
                continue
            e, f = contact_force(X[i], X[j], k, r0)
            E += 0.5 * e
            fi += f
        F[i, :] = fi
    return E


# 44. statistics: smoothed histogram entropy, whole-array reduction into a local array in prange
@njit(parallel=True, cache=True)
def histogram_entropy(x, centers, bw):
    acc = np.zeros(centers.shape[0])
    for i in prange(x.shape[0]):
        acc += np.exp(-0.5 * ((centers - x[i]) / bw) ** 2)
    p = acc / np.sum(acc)
    return -np.sum(p * np.log(p))


# 45. neuroscience: first-passage times of a drifting potential, while with break per path
@njit(parallel=True, cache=True)
def first_passage(x0, drift, thresh, dt=0.1, nmax=200):
    out = np.empty(x0.shape[0])
    for p in prange(x0.shape[0]):
        x = x0[p]
        t = 0.0
        k = 0
        while k < nmax:
            x = x + drift * dt * (1.0 + 0.1 * math.sin(x))
            t += dt
            k += 1
            if x > thresh:
                break
        out[p] = t + (x - thresh) / drift
    return np.sum(out)


# 46. optics: Strehl-like ratio of a 1-D pupil by an explicit DFT (np.outer of indices, cos/sin @)
@njit(cache=True)
def pupil_strehl(pupil_phase, aperture):
    n = pupil_phase.shape[0]
    k = np.arange(n)
    W = 2.0 * np.pi * np.outer(k, k) / n
    re = aperture * np.cos(pupil_phase)
    im = aperture * np.sin(pupil_phase)
    Fr = np.cos(W) @ re + np.sin(W) @ im
    Fi = np.cos(W) @ im - np.sin(W) @ re
    I = Fr ** 2 + Fi ** 2
    return I[0] / np.sum(I)


# 47. tides: harmonic constituents with the phase wrapped by divmod (float), day and hour of a
#     sample index by divmod (integers); divmod was refused ('call to `divmod`, which has no adjoint rule')
@njit(cache=True)
def tide_fit(amp, omega, h_obs, per_day=24):
    err = 0.0
    for k in range(h_obs.shape[0]):
        day, hour = divmod(k, per_day)
        t = day * 24.0 + hour
        h = 0.0
        for c in range(amp.shape[0]):
            cycles, phase = divmod(omega[c] * t, 2.0 * np.pi)
            h += amp[c] * np.cos(phase) + 0.0 * cycles
        err += (h - h_obs[k]) ** 2
    return err

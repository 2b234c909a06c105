"""Kernels for tests/test_newuser11.py (a new user's eleventh trial): kernels written the way
scientists in fields not tried before write them: seismic waves, epidemiology, finite elements,
lens optics, climate boxes, particle-in-cell, Monte Carlo Greeks, pharmacometrics, elastic net,
Kalman filtering, splines, image registration, IIR filters, chemical kinetics, hydrology,
neuron models, survival analysis, periodograms.  Whole-array NumPy, defaults, tuples, ``.shape``
unpacking, helpers and ``prange`` where they come naturally."""
import math

import numpy as np
from numba import njit, prange


# 1. seismic: 1-D acoustic wave equation, leapfrog, Ricker source, receiver trace misfit
@njit
def ricker(t, f0=8.0):
    a = (math.pi * f0 * (t - 1.0 / f0)) ** 2
    return (1.0 - 2.0 * a) * math.exp(-a)


@njit
def wave_misfit(c, obs, dt=0.2, dx=1.0, isrc=3, irec=12, f0=0.5):
    nx = c.shape[0]
    nt = obs.shape[0]
    u = np.zeros(nx)
    u_prev = np.zeros(nx)
    trace = np.zeros(nt)
    r2 = (c * dt / dx) ** 2
    for it in range(nt):
        lap = np.zeros(nx)
        lap[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
        u_next = 2.0 * u - u_prev + r2 * lap
        u_next[isrc] += dt * dt * ricker(it * dt, f0)
        u_prev = u
        u = u_next
        trace[it] = u[irec]
    return 0.5 * np.sum((trace - obs) ** 2)


# 2. epidemiology: SEIR, Euler steps, daily incidence from the cumulative curve with np.diff
@njit
def seir_loss(params, obs, N=1000.0, I0=5.0, steps_per_day=4):
    beta, sigma, gamma = params[0], params[1], params[2]
    ndays = obs.shape[0]
    S, E, I, R = N - I0, 0.0, I0, 0.0
    dt = 1.0 / steps_per_day
    cum = np.zeros(ndays + 1)
    total = 0.0
    for day in range(ndays):
        for k in range(steps_per_day):
            inf = beta * S * I / N
            inc = sigma * E
            rec = gamma * I
            S -= dt * inf
            E += dt * (inf - inc)
            I += dt * (inc - rec)
            R += dt * rec
            total += dt * inc
        cum[day + 1] = total
    new_cases = np.diff(cum)
    return np.sum((np.log1p(new_cases) - np.log1p(obs)) ** 2)


# 3. finite elements: plane-stress CST stiffness assembly, small dense matrices per element
@njit
def cst_energy(coords, elems, E, u, nu=0.3, t=1.0):
    nn = coords.shape[0]
    K = np.zeros((2 * nn, 2 * nn))
    D = E / (1.0 - nu * nu) * np.array([[1.0, nu, 0.0], [nu, 1.0, 0.0], [0.0, 0.0, 0.5 * (1.0 - nu)]])
    for e in range(elems.shape[0]):
        i, j, k = elems[e]
        x1, y1 = coords[i]
        x2, y2 = coords[j]
        x3, y3 = coords[k]
        A = 0.5 * ((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
        b = np.array([y2 - y3, y3 - y1, y1 - y2])
        c = np.array([x3 - x2, x1 - x3, x2 - x1])
        B = np.zeros((3, 6))
        for a in range(3):
            B[0, 2 * a] = b[a]
            B[1, 2 * a + 1] = c[a]
            B[2, 2 * a] = c[a]
            B[2, 2 * a + 1] = b[a]
        B /= 2.0 * A
        Ke = t * A * (B.T @ D @ B)
        dofs = np.array([2 * i, 2 * i + 1, 2 * j, 2 * j + 1, 2 * k, 2 * k + 1])
        for p in range(6):
            for q in range(6):
                K[dofs[p], dofs[q]] += Ke[p, q]
    return 0.5 * u @ K @ u


# 4. optics: paraxial-free ray trace through spherical surfaces, prange over rays, spot size
@njit
def refract(dx, dy, dz, nx, ny, nz, mu):
    """Vector Snell's law: direction (dx, dy, dz) through a surface of normal n, ratio mu."""
    cosi = -(dx * nx + dy * ny + dz * nz)
    k = 1.0 - mu * mu * (1.0 - cosi * cosi)
    f = mu * cosi - math.sqrt(k)
    return mu * dx + f * nx, mu * dy + f * ny, mu * dz + f * nz


@njit(parallel=True)
def spot_size(curv, thick, n_glass, heights, z_image):
    nr = heights.shape[0]
    ns = curv.shape[0]
    r2 = np.zeros(nr)
    for r in prange(nr):
        x, y, z = 0.0, heights[r], 0.0
        dx, dy, dz = 0.0, 0.0, 1.0
        zs = 0.0
        n1 = 1.0
        for s in range(ns):
            cv = curv[s]
            # sphere of radius 1/cv with its vertex at zs: centre at zs + 1/cv
            zc = zs + 1.0 / cv
            ox, oy, oz = x, y, z - zc
            bb = ox * dx + oy * dy + oz * dz
            cc = ox * ox + oy * oy + oz * oz - 1.0 / (cv * cv)
            disc = bb * bb - cc
            tt = -bb - math.sqrt(disc) if cv > 0 else -bb + math.sqrt(disc)
            x, y, z = x + tt * dx, y + tt * dy, z + tt * dz
            nxs, nys, nzs = x * cv, y * cv, (z - zc) * cv     # (p - centre) / R faces the ray
            n2 = n_glass[s]
            dx, dy, dz = refract(dx, dy, dz, nxs, nys, nzs, n1 / n2)
            n1 = n2
            zs += thick[s]
        tt = (z_image - z) / dz
        yi = y + tt * dy
        r2[r] = yi * yi
    return math.sqrt(np.mean(r2))


# 5. climate: two-box energy balance model, parameters as a tuple, a helper returning a tuple
@njit
def ebm_rhs(T, Td, F, params):
    lam, gamma, C, Cd = params
    dT = (F - lam * T - gamma * (T - Td)) / C
    dTd = gamma * (T - Td) / Cd
    return dT, dTd


@njit
def two_box(forcing, obs, lam, gamma, C=8.0, Cd=100.0, dt=1.0):
    params = (lam, gamma, C, Cd)
    T, Td = 0.0, 0.0
    err = 0.0
    for yr in range(forcing.shape[0]):
        dT, dTd = ebm_rhs(T, Td, forcing[yr], params)
        T += dt * dT
        Td += dt * dTd
        err += (T - obs[yr]) ** 2
    return err / forcing.shape[0]


# 6. particle-in-cell: 2-D cloud-in-cell deposition (serial scatter), then a field energy
@njit
def cic_energy(xp, yp, q, nx=8, ny=8):
    rho = np.zeros((ny, nx))
    for p in range(xp.shape[0]):
        gx = xp[p] * nx
        gy = yp[p] * ny
        i = int(math.floor(gx))
        j = int(math.floor(gy))
        fx = gx - i
        fy = gy - j
        i1 = (i + 1) % nx
        j1 = (j + 1) % ny
        rho[j, i] += q[p] * (1 - fx) * (1 - fy)
        rho[j, i1] += q[p] * fx * (1 - fy)
        rho[j1, i] += q[p] * (1 - fx) * fy
        rho[j1, i1] += q[p] * fx * fy
    rho -= rho.mean()
    gxr = np.roll(rho, -1, axis=1) - rho
    return np.sum(rho ** 2) + 0.5 * np.sum(gxr[:, :-1] ** 2)


# 7. finance: arithmetic Asian call by Monte Carlo with fixed normals (pathwise Greeks)
@njit
def asian_call(S0, sigma, Z, r=0.03, T=1.0, K=100.0):
    npaths, nsteps = Z.shape
    dt = T / nsteps
    incr = (r - 0.5 * sigma * sigma) * dt + sigma * math.sqrt(dt) * Z
    logS = math.log(S0) + np.cumsum(incr, axis=1)
    S = np.exp(logS)
    avg = S.sum(axis=1) / nsteps
    payoff = np.maximum(avg - K, 0.0)
    return math.exp(-r * T) * payoff.mean()


# 8. pharmacometrics: one compartment, first-order absorption, dosing rate from np.interp,
#    concentrations at observation times by np.interp on the solution grid
@njit
def pk_interp(theta, t_knots, rate_knots, t_obs, c_obs, dt=0.05, nsteps=120):
    ka, CL, V = np.exp(theta)
    t_grid = np.arange(nsteps + 1) * dt
    gut, central = 0.0, 0.0
    conc = np.zeros(nsteps + 1)
    for k in range(nsteps):
        t = k * dt
        dose_rate = np.interp(t, t_knots, rate_knots)
        gut += dt * (dose_rate - ka * gut)
        central += dt * (ka * gut - CL / V * central)
        conc[k + 1] = central / V
    pred = np.interp(t_obs, t_grid, conc)
    return np.sum((np.log(pred) - np.log(c_obs)) ** 2)


# 9. statistics: elastic net objective, defaults, whole-array NumPy and a matrix product
@njit
def elastic_net(w, X, y, alpha=0.1, l1_ratio=0.5):
    n = X.shape[0]
    r = X @ w - y
    pen = l1_ratio * np.sum(np.abs(w)) + 0.5 * (1.0 - l1_ratio) * np.dot(w, w)
    return 0.5 / n * np.dot(r, r) + alpha * pen


# 10. signal processing: Kalman filter log-likelihood, small matrices, solve and slogdet per step
@njit
def kalman_nll(q, r, F, H, ys):
    nx = F.shape[0]
    ny = H.shape[0]
    x = np.zeros(nx)
    P = np.eye(nx)
    Q = q * np.eye(nx)
    R = r * np.eye(ny)
    nll = 0.0
    for t in range(ys.shape[0]):
        x = F @ x
        P = F @ P @ F.T + Q
        v = ys[t] - H @ x
        S = H @ P @ H.T + R
        Sinv_v = np.linalg.solve(S, v)
        sign, logdet = np.linalg.slogdet(S)
        nll += 0.5 * (logdet + v @ Sinv_v)
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ v
        P = (np.eye(nx) - K @ H) @ P
    return nll


# 11. numerics: cubic Hermite spline with np.searchsorted to find the interval
@njit
def hermite_eval(xk, yk, mk, xq):
    n = xk.shape[0]
    idx = np.searchsorted(xk, xq) - 1
    out = np.empty(xq.shape[0])
    for q in range(xq.shape[0]):
        i = min(max(idx[q], 0), n - 2)
        h = xk[i + 1] - xk[i]
        s = (xq[q] - xk[i]) / h
        h00 = 2 * s ** 3 - 3 * s ** 2 + 1
        h10 = s ** 3 - 2 * s ** 2 + s
        h01 = -2 * s ** 3 + 3 * s ** 2
        h11 = s ** 3 - s ** 2
        out[q] = h00 * yk[i] + h10 * h * mk[i] + h01 * yk[i + 1] + h11 * h * mk[i + 1]
    return out


@njit
def spline_loss(yk, mk, xk, xq, target):
    return np.sum((hermite_eval(xk, yk, mk, xq) - target) ** 2)


# 12. imaging: affine registration, bilinear interpolation of the moving image, prange over rows
@njit
def bilinear(img, x, y):
    ny, nx = img.shape
    x = min(max(x, 0.0), nx - 1.000001)
    y = min(max(y, 0.0), ny - 1.000001)
    i = int(x)
    j = int(y)
    fx = x - i
    fy = y - j
    return ((1 - fx) * (1 - fy) * img[j, i] + fx * (1 - fy) * img[j, i + 1]
            + (1 - fx) * fy * img[j + 1, i] + fx * fy * img[j + 1, i + 1])


@njit(parallel=True)
def ssd_affine(A, fixed, moving):
    ny, nx = fixed.shape
    rows = np.zeros(ny)
    for j in prange(ny):
        acc = 0.0
        for i in range(nx):
            xs = A[0, 0] * i + A[0, 1] * j + A[0, 2]
            ys = A[1, 0] * i + A[1, 1] * j + A[1, 2]
            d = bilinear(moving, xs, ys) - fixed[j, i]
            acc += d * d
        rows[j] = acc
    return rows.sum()


# 13. acoustics: biquad IIR filter, transposed direct form II, fit to a target response
@njit
def biquad(b, a, x):
    y = np.empty_like(x)
    z1 = 0.0
    z2 = 0.0
    b0, b1, b2 = b
    a1, a2 = a[1] / a[0], a[2] / a[0]
    b0, b1, b2 = b0 / a[0], b1 / a[0], b2 / a[0]
    for n in range(x.shape[0]):
        yn = b0 * x[n] + z1
        z1 = b1 * x[n] - a1 * yn + z2
        z2 = b2 * x[n] - a2 * yn
        y[n] = yn
    return y


@njit
def iir_fit(b, a, x, target):
    y = biquad(b, a, x)
    e = y - target
    return np.mean(e * e)


# 14. chemistry: Arrhenius network A -> B -> C, A + B -> D, RK4 under a temperature ramp
@njit
def arrhenius_rhs(c, T, lnA, Ea):
    k = np.exp(lnA - Ea / (8.314e-3 * T))       # Ea in kJ/mol
    r1 = k[0] * c[0]
    r2 = k[1] * c[1]
    r3 = k[2] * c[0] * c[1]
    return np.array([-r1 - r3, r1 - r2 - r3, r2, r3])


@njit
def batch_reactor(lnA, Ea, c0, T0=600.0, ramp=2.0, dt=0.05, nsteps=40):
    c = c0.copy()
    for n in range(nsteps):
        T = T0 + ramp * n * dt
        k1 = arrhenius_rhs(c, T, lnA, Ea)
        k2 = arrhenius_rhs(c + 0.5 * dt * k1, T + 0.5 * ramp * dt, lnA, Ea)
        k3 = arrhenius_rhs(c + 0.5 * dt * k2, T + 0.5 * ramp * dt, lnA, Ea)
        k4 = arrhenius_rhs(c + dt * k3, T + ramp * dt, lnA, Ea)
        c = c + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return c[2] - 0.5 * c[3]


# 15. hydrology: kinematic wave for overland flow, Manning's law, upwind in space
@njit
def kinematic_wave(rain, n_man, slope, L=100.0, nx=20, dt=1.0):
    dx = L / nx
    h = np.zeros(nx)
    alpha = np.sqrt(slope) / n_man
    outflow = np.zeros(rain.shape[0])
    for t in range(rain.shape[0]):
        q = alpha * h ** (5.0 / 3.0)
        dq = np.empty(nx)
        dq[0] = q[0]
        dq[1:] = np.diff(q)
        h = h + dt * (rain[t] - dq / dx)
        h = np.maximum(h, 0.0)
        outflow[t] = q[-1]
    return np.sum(outflow) * dt


# 16. neuroscience: Hodgkin-Huxley, forward Euler, the vtrap guard of x / (exp(x) - 1)
@njit
def vtrap(x, y):
    if abs(x / y) < 1e-6:
        return y * (1.0 - x / y / 2.0)
    return x / (math.exp(x / y) - 1.0)


@njit
def hh_spikes(I_ext, gNa=120.0, gK=36.0, gL=0.3, dt=0.01):
    V, m, h, n = -65.0, 0.05, 0.6, 0.32
    cost = 0.0
    for t in range(I_ext.shape[0]):
        am = 0.1 * vtrap(-(V + 40.0), 10.0)
        bm = 4.0 * math.exp(-(V + 65.0) / 18.0)
        ah = 0.07 * math.exp(-(V + 65.0) / 20.0)
        bh = 1.0 / (1.0 + math.exp(-(V + 35.0) / 10.0))
        an = 0.01 * vtrap(-(V + 55.0), 10.0)
        bn = 0.125 * math.exp(-(V + 65.0) / 80.0)
        INa = gNa * m ** 3 * h * (V - 50.0)
        IK = gK * n ** 4 * (V + 77.0)
        IL = gL * (V + 54.387)
        V += dt * (I_ext[t] - INa - IK - IL)
        m += dt * (am * (1.0 - m) - bm * m)
        h += dt * (ah * (1.0 - h) - bh * h)
        n += dt * (an * (1.0 - n) - bn * n)
        cost += V * dt
    return cost


# 17. survival analysis: Cox partial likelihood, risk sets by a reversed cumulative sum
@njit
def cox_nll(beta, X, event):
    """Rows of X sorted by increasing survival time; event[i] 1 for an observed death."""
    eta = X @ beta
    risk = np.exp(eta)
    at_risk = np.cumsum(risk[::-1])[::-1]
    return -np.sum(event * (eta - np.log(at_risk)))


# 18. astronomy: Lomb-Scargle power at a few frequencies, tau from arctan2
@njit
def lomb_scargle(y, t, freqs):
    yc = y - y.mean()
    power = np.zeros(freqs.shape[0])
    for k in range(freqs.shape[0]):
        w = 2.0 * math.pi * freqs[k]
        tau = math.atan2(np.sum(np.sin(2 * w * t)), np.sum(np.cos(2 * w * t))) / (2 * w)
        c = np.cos(w * (t - tau))
        s = np.sin(w * (t - tau))
        power[k] = 0.5 * (np.sum(yc * c) ** 2 / np.sum(c * c) + np.sum(yc * s) ** 2 / np.sum(s * s))
    return np.max(power)


# 19. crystal plasticity: power-law slip rates on slip systems from Schmid tensors, hardening
@njit
def slip_work(sigma, s_dirs, n_dirs, g0=1.0, m=0.1, h0=2.0, dt=0.01, nsteps=10):
    nsys = s_dirs.shape[0]
    g = np.full(nsys, g0)
    work = 0.0
    for step in range(nsteps):
        tau = np.zeros(nsys)
        for a in range(nsys):
            P = np.outer(s_dirs[a], n_dirs[a])
            tau[a] = np.sum(P * sigma)
        rate = 0.001 * np.sign(tau) * np.abs(tau / g) ** (1.0 / m)
        g = g + dt * h0 * np.sum(np.abs(rate))
        work += dt * np.sum(tau * rate)
    return work


# 20. drivers: plain-Python time loops calling kernels, NumPy in between
@njit
def seir_day(state, beta, sigma, gamma, N, nsub):
    """One day of SEIR in ``nsub`` Euler steps; state = (S, E, I, R, cumulative incidence)."""
    dt = 1.0 / nsub
    for k in range(nsub):
        S, E, I = state[0], state[1], state[2]
        inf = beta * S * I / N
        inc = sigma * E
        rec = gamma * I
        state[0] -= dt * inf
        state[1] += dt * (inf - inc)
        state[2] += dt * (inc - rec)
        state[3] += dt * rec
        state[4] += dt * inc


def seir_driver(params, obs, N=1000.0):
    state = np.array([N - 5.0, 0.0, 5.0, 0.0, 0.0])
    cum = np.zeros(obs.shape[0] + 1)
    for d in range(obs.shape[0]):
        seir_day(state, params[0], params[1], params[2], N, 4)
        cum[d + 1] = state[4]
    new_cases = np.diff(cum)
    return float(np.sum((np.log1p(new_cases) - np.log1p(obs)) ** 2))


@njit
def wave_step(u, u_prev, r2, amp, isrc):
    nx = u.shape[0]
    u_next = np.zeros(nx)
    for i in range(1, nx - 1):
        u_next[i] = 2.0 * u[i] - u_prev[i] + r2[i] * (u[i + 1] - 2.0 * u[i] + u[i - 1])
    u_next[isrc] += amp
    return u_next


def wave_driver(c, obs, dt=0.2, dx=1.0, isrc=3, irec=12, f0=0.5):
    nx = c.shape[0]
    r2 = (c * dt / dx) ** 2
    u = np.zeros(nx)
    u_prev = np.zeros(nx)
    misfit = 0.0
    for it in range(obs.shape[0]):
        u_next = wave_step(u, u_prev, r2, dt * dt * ricker(it * dt, f0), isrc)
        u_prev, u = u, u_next
        misfit += 0.5 * (u[irec] - obs[it]) ** 2
    return misfit


# ================================================================= second round: harder forms
# 21. acoustics: direct-form I IIR, the output array read back two samples later
@njit
def iir_df1(b, a, x):
    n = x.shape[0]
    y = np.zeros(n)
    for k in range(n):
        acc = b[0] * x[k]
        if k >= 1:
            acc += b[1] * x[k - 1] - a[1] * y[k - 1]
        if k >= 2:
            acc += b[2] * x[k - 2] - a[2] * y[k - 2]
        y[k] = acc
    return np.sum(y ** 2)


# 22. hydrology: kinematic wave with an adaptive CFL step (a while loop, trip count from the state)
@njit
def kw_adaptive(h0, rain, n_man=0.05, slope=0.01, dx=5.0, t_end=20.0, cfl=0.5):
    h = h0.copy()
    alpha = math.sqrt(slope) / n_man
    t = 0.0
    out = 0.0
    while t < t_end:
        celerity = 5.0 / 3.0 * alpha * np.max(h) ** (2.0 / 3.0)
        dt = min(cfl * dx / celerity, t_end - t)
        q = alpha * h ** (5.0 / 3.0)
        h[1:] = h[1:] - dt / dx * (q[1:] - q[:-1]) + dt * rain
        h[0] = h[0] - dt / dx * q[0] + dt * rain
        out += dt * q[-1]
        t += dt
    return out


# 23. statistics: elastic net by proximal gradient (ISTA), soft-thresholding each iteration
@njit
def soft(w, thr):
    return np.sign(w) * np.maximum(np.abs(w) - thr, 0.0)


@njit
def ista_fit(X, y, alpha=0.05, l1_ratio=0.5, step=0.1, iters=15):
    n, p = X.shape
    w = np.zeros(p)
    for it in range(iters):
        grad = X.T @ (X @ w - y) / n + alpha * (1.0 - l1_ratio) * w
        w = soft(w - step * grad, step * alpha * l1_ratio)
    r = X @ w - y
    return 0.5 * np.dot(r, r) / n


# 24. numerics: natural cubic spline, tridiagonal (Thomas) solve for the moments, then evaluation
@njit
def natural_spline_loss(yk, xk, xq, target):
    n = xk.shape[0]
    h = np.diff(xk)
    rhs = np.zeros(n)
    diag = np.ones(n)
    lower = np.zeros(n)
    upper = np.zeros(n)
    for i in range(1, n - 1):
        lower[i] = h[i - 1]
        diag[i] = 2.0 * (h[i - 1] + h[i])
        upper[i] = h[i]
        rhs[i] = 6.0 * ((yk[i + 1] - yk[i]) / h[i] - (yk[i] - yk[i - 1]) / h[i - 1])
    # forward elimination, back substitution
    for i in range(1, n):
        m = lower[i] / diag[i - 1]
        diag[i] -= m * upper[i - 1]
        rhs[i] -= m * rhs[i - 1]
    M = np.zeros(n)
    M[n - 1] = rhs[n - 1] / diag[n - 1]
    for i in range(n - 2, -1, -1):
        M[i] = (rhs[i] - upper[i] * M[i + 1]) / diag[i]
    loss = 0.0
    for q in range(xq.shape[0]):
        i = min(max(np.searchsorted(xk, xq[q]) - 1, 0), n - 2)
        a = (xk[i + 1] - xq[q]) / h[i]
        bq = (xq[q] - xk[i]) / h[i]
        s = a * yk[i] + bq * yk[i + 1] + ((a ** 3 - a) * M[i] + (bq ** 3 - bq) * M[i + 1]) * h[i] ** 2 / 6.0
        loss += (s - target[q]) ** 2
    return loss


# 25. finance: down-and-out barrier call, normals drawn in the kernel from a seed, knock-out break
@njit
def barrier_call(S0, sigma, npaths=200, nsteps=8, r=0.02, T=0.5, K=100.0, B=85.0):
    np.random.seed(7)
    dt = T / nsteps
    total = 0.0
    for p in range(npaths):
        S = S0
        alive = True
        for k in range(nsteps):
            S = S * math.exp((r - 0.5 * sigma ** 2) * dt + sigma * math.sqrt(dt) * np.random.standard_normal())
            if S < B:
                alive = False
                break
        if alive:
            total += max(S - K, 0.0)
    return math.exp(-r * T) * total / npaths


# 26. signal processing: Kalman filter + RTS smoother, means and covariances in preallocated 3-D arrays
@njit
def rts_smooth(q, ys, F, H, r=0.3):
    T = ys.shape[0]
    nx = F.shape[0]
    xs = np.zeros((T, nx))
    Ps = np.zeros((T, nx, nx))
    xp = np.zeros((T, nx))
    Pp = np.zeros((T, nx, nx))
    x = np.zeros(nx)
    P = np.eye(nx)
    Q = q * np.eye(nx)
    for t in range(T):
        x = F @ x
        P = F @ P @ F.T + Q
        xp[t] = x
        Pp[t] = P
        S = H @ P @ H.T + r
        K = P @ H.T / S[0, 0]
        x = x + K[:, 0] * (ys[t] - (H @ x)[0])
        P = P - K @ H @ P
        xs[t] = x
        Ps[t] = P
    for t in range(T - 2, -1, -1):
        G = Ps[t] @ F.T @ np.linalg.inv(Pp[t + 1])
        xs[t] = xs[t] + G @ (xs[t + 1] - xp[t + 1])
    return np.sum(xs[:, 0] ** 2)


# 27. chemistry: reaction network by a stoichiometry matrix, mass-action rates, RK2
@njit
def network_rates(c, k, reactants):
    nr = k.shape[0]
    rates = np.empty(nr)
    for j in range(nr):
        rj = k[j]
        for s in range(c.shape[0]):
            if reactants[j, s] > 0:
                rj *= c[s] ** reactants[j, s]
        rates[j] = rj
    return rates


@njit
def network_final(k, c0, nu, reactants, dt=0.02, nsteps=30):
    c = c0.copy()
    for n in range(nsteps):
        k1 = nu.T @ network_rates(c, k, reactants)
        k2 = nu.T @ network_rates(c + dt * k1, k, reactants)
        c = c + 0.5 * dt * (k1 + k2)
    return np.sum(c * np.arange(c.shape[0]))


# 28. structural optimisation: SIMP compliance of a 1-D bar, global stiffness solve
@njit
def simp_compliance(rho, f, E0=1.0, p=3.0, Emin=1e-3):
    ne = rho.shape[0]
    K = np.zeros((ne + 1, ne + 1))
    for e in range(ne):
        Ee = Emin + rho[e] ** p * (E0 - Emin)
        K[e, e] += Ee
        K[e, e + 1] -= Ee
        K[e + 1, e] -= Ee
        K[e + 1, e + 1] += Ee
    Kr = K[1:, 1:]             # node 0 clamped
    u = np.linalg.solve(Kr, f)
    return f @ u


# 29. seismic: 2-D acoustic wave, prange over rows, sponge damping at the edges
@njit(parallel=True)
def wave2d_step(u, u_prev, c2, damp, out):
    ny, nx = u.shape
    for j in prange(1, ny - 1):
        for i in range(1, nx - 1):
            lap = u[j, i + 1] + u[j, i - 1] + u[j + 1, i] + u[j - 1, i] - 4.0 * u[j, i]
            out[j, i] = damp[j, i] * (2.0 * u[j, i] - u_prev[j, i] + c2[j, i] * lap)


def wave2d_driver(c, u0, nsteps=6, dt=0.2):
    ny, nx = c.shape
    c2 = (c * dt) ** 2
    yy, xx = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    edge = np.minimum(np.minimum(yy, ny - 1 - yy), np.minimum(xx, nx - 1 - xx))
    damp = np.where(edge < 2, 0.9, 1.0)
    u_prev = u0.copy()
    u = u0.copy()
    energy = 0.0
    for n in range(nsteps):
        u_next = np.zeros_like(u)
        wave2d_step(u, u_prev, c2, damp, u_next)
        u_prev, u = u, u_next
        energy += np.sum(u[1:-1, 1:-1] ** 2)
    return energy


# ================================================================= what the trial found
# --- node numbers unpacked from a row of an integer array (`i, j = springs[s]`) went into an
# np.array literal as float64 (`dofs` then failed Numba's typing of `K[dofs[p], dofs[q]]`)
@njit
def spring_network(x, springs, k):
    n = x.shape[0]
    K = np.zeros((n, n))
    for s in range(springs.shape[0]):
        i, j = springs[s]
        dofs = np.array([i, j])
        ke = k[s] * np.array([[1.0, -1.0], [-1.0, 1.0]])
        for p in range(2):
            for q in range(2):
                K[dofs[p], dofs[q]] += ke[p, q]
    return 0.5 * x @ K @ x + np.sum(x ** 4)


# --- drivers: np.diff / np.cumsum of an active array were refused
def cumulative_driver(rates, w):
    """Cumulative sums along rows, second differences down columns, a reversed risk-set sum."""
    C = np.cumsum(rates, axis=1)
    D = np.diff(C, n=2, axis=0)
    at_risk = np.cumsum(np.exp(rates[0])[::-1])[::-1]
    return float(np.sum(D * w) + np.sum(np.log(at_risk)) + np.sum(np.cumsum(rates) ** 2) * 1e-3
                 + np.sum(np.diff(rates[1]) ** 2))


def diff_prepend_driver(x):
    return float(np.sum(np.diff(x, prepend=0.0) ** 2))

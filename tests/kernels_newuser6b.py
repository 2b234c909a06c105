"""Kernels written as public Numba code is, in domains the earlier rounds did not cover (epidemics,
geodesy, pharmacokinetics, image filters, optics, Ewald sums, traffic flow, Kalman filters, splines,
Heston and SABR, queues, groundwater, routing, value function iteration, soft-DTW, motif scans,
odometry), and the constant-test conditional expressions a kernel with a debug flag has: the sixth
new-user round, second corpus (tests/test_newuser6b.py)."""
import math

import numpy as np
from numba import njit

DEBUG = False


@njit
def flagged(x, w):
    """Conditional expressions and an if statement whose tests are constants (a module flag, a literal)."""
    s = 0.0
    for i in range(x.shape[0]):
        if DEBUG:
            print(i)
        s += np.exp(x[i]) if DEBUG else x[i] * x[i] * w
        s += x[i] if False else np.sin(x[i])
    return s * x[0] if 0 else s + x[1] * w


@njit
def sir(beta, gamma, y0, dt=0.1, nsteps=200):
    S, I, R = y0[0], y0[1], y0[2]
    N = S + I + R
    peak = 0.0
    for _ in range(nsteps):
        inf = beta * S * I / N
        rec = gamma * I
        S -= dt * inf
        I += dt * (inf - rec)
        R += dt * rec
        peak = max(peak, I)
    return peak + 0.1 * R


@njit
def haversine(lat1, lon1, lat2, lon2, R=6371.0):
    lat1, lon1, lat2, lon2 = np.radians(lat1), np.radians(lon1), np.radians(lat2), np.radians(lon2)
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    c = 2 * np.arcsin(np.sqrt(a))
    return np.sum(R * c)


@njit
def pk_conc(theta, times, dose_times, dose):
    ka, ke, V = np.exp(theta[0]), np.exp(theta[1]), np.exp(theta[2])
    c = np.zeros_like(times)
    for td in dose_times:
        tau = times - td
        m = tau > 0
        c += np.where(m, dose * ka / (V * (ka - ke)) * (np.exp(-ke * tau) - np.exp(-ka * tau)), 0.0)
    return np.sum(np.log1p(c))


@njit
def sobel_energy(img):
    H, W = img.shape
    total = 0.0
    for i in range(1, H - 1):
        for j in range(1, W - 1):
            gx = (img[i - 1, j + 1] + 2 * img[i, j + 1] + img[i + 1, j + 1]
                  - img[i - 1, j - 1] - 2 * img[i, j - 1] - img[i + 1, j - 1])
            gy = (img[i + 1, j - 1] + 2 * img[i + 1, j] + img[i + 1, j + 1]
                  - img[i - 1, j - 1] - 2 * img[i - 1, j] - img[i - 1, j + 1])
            total += math.sqrt(gx * gx + gy * gy + 1e-12)
    return total


@njit
def ray_sphere(center, radius, origins, dirs):
    total = 0.0
    for k in range(origins.shape[0]):
        o = origins[k]
        d = dirs[k]
        oc = o - center
        b = np.dot(oc, d)
        c = np.dot(oc, oc) - radius * radius
        disc = b * b - c
        if disc < 0:
            continue
        t = -b - np.sqrt(disc)
        p = o + t * d
        nrm = (p - center) / radius
        total += max(0.0, nrm[2])
    return total


@njit
def ewald_real(pos, q, alpha, L, rc):
    n = pos.shape[0]
    e = 0.0
    for i in range(n - 1):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= L * np.round(d / L)
            r = np.linalg.norm(d)
            if r < rc:
                e += q[i] * q[j] * math.erfc(alpha * r) / r
    return e


@njit
def lwr(rho0, vmax, rhomax, dx=0.1, dt=0.02, nt=30):
    rho = rho0.copy()
    n = rho.shape[0]
    for _ in range(nt):
        f = vmax * rho * (1 - rho / rhomax)
        new = rho.copy()
        new[1:-1] = 0.5 * (rho[2:] + rho[:-2]) - dt / (2 * dx) * (f[2:] - f[:-2])
        rho = new
    return np.sum(rho * np.arange(n))


@njit
def kalman_ll(y, q, r, m0=0.0, P0=10.0):
    m, P = m0, P0
    ll = 0.0
    for t in range(y.shape[0]):
        P = P + q
        S = P + r
        K = P / S
        v = y[t] - m
        ll += -0.5 * (np.log(2 * np.pi * S) + v * v / S)
        m = m + K * v
        P = (1 - K) * P
    return ll


@njit
def kalman_mv(ys, F, H, Q, R):
    n = F.shape[0]
    x = np.zeros(n)
    P = np.eye(n)
    ll = 0.0
    for t in range(ys.shape[0]):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        v = ys[t] - H @ x
        ll -= 0.5 * (np.log(np.linalg.det(S)) + v @ np.linalg.solve(S, v))
        x = x + K @ v
        P = (np.eye(n) - K @ H) @ P
    return ll


@njit
def catmull_rom(p, t):
    n = p.shape[0]
    out = 0.0
    for tt in t:
        i = int(tt)
        if i < 1:
            i = 1
        if i > n - 3:
            i = n - 3
        s = tt - i
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        v = 0.5 * ((2 * p1) + (-p0 + p2) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s + (-p0 + 3 * p1 - 3 * p2 + p3) * s ** 3)
        out += v * v
    return out


@njit
def heston_mc(S0, v0, kappa, theta, xi, rho, K, T, z1, z2):
    npaths, nsteps = z1.shape
    dt = T / nsteps
    payoff = 0.0
    for p in range(npaths):
        s = math.log(S0)
        v = v0
        for t in range(nsteps):
            vp = max(v, 0.0)
            w1 = z1[p, t]
            w2 = rho * w1 + math.sqrt(1 - rho * rho) * z2[p, t]
            s += -0.5 * vp * dt + math.sqrt(vp * dt) * w1
            v += kappa * (theta - vp) * dt + xi * math.sqrt(vp * dt) * w2
        payoff += max(math.exp(s) - K, 0.0)
    return payoff / npaths


@njit
def sabr_vol(F, K, T, alpha, beta, rho, nu):
    if abs(F - K) < 1e-12:
        Fb = F ** (1 - beta)
        return alpha / Fb * (1 + ((1 - beta) ** 2 / 24 * alpha ** 2 / Fb ** 2 + rho * beta * nu * alpha / (4 * Fb) + (2 - 3 * rho ** 2) / 24 * nu ** 2) * T)
    logFK = math.log(F / K)
    FK = (F * K) ** ((1 - beta) / 2)
    z = nu / alpha * FK * logFK
    x = math.log((math.sqrt(1 - 2 * rho * z + z * z) + z - rho) / (1 - rho))
    A = alpha / (FK * (1 + (1 - beta) ** 2 / 24 * logFK ** 2 + (1 - beta) ** 4 / 1920 * logFK ** 4))
    B = 1 + ((1 - beta) ** 2 / 24 * alpha ** 2 / FK ** 2 + rho * beta * nu * alpha / (4 * FK) + (2 - 3 * rho ** 2) / 24 * nu ** 2) * T
    return A * z / x * B


@njit
def sabr_smile(strikes, F, T, params):
    alpha, beta, rho, nu = params[0], params[1], params[2], params[3]
    tot = 0.0
    for K in strikes:
        tot += sabr_vol(F, K, T, alpha, beta, rho, nu)
    return tot


@njit
def lindley_wait(service, inter):
    w = 0.0
    tot = 0.0
    for i in range(service.shape[0] - 1):
        w = max(0.0, w + service[i] - inter[i])
        tot += w
    return tot / (service.shape[0] - 1)


@njit
def erlang_c(lam, mu, c=5):
    a = lam / mu
    s = 0.0
    term = 1.0
    for k in range(c):
        if k > 0:
            term *= a / k
        s += term
    last = term * a / c
    rho = a / c
    pc = last / (1 - rho) / (s + last / (1 - rho))
    return pc / (c * mu - lam)


@njit
def thomas(a, b, c, d):
    n = d.shape[0]
    cp = np.empty(n)
    dp = np.empty(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.empty(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


@njit
def darcy_head(logK, recharge, h_left=10.0, h_right=5.0, dx=1.0):
    K = np.exp(logK)
    Kf = 2 * K[:-1] * K[1:] / (K[:-1] + K[1:])
    n = K.shape[0] - 2
    a = np.zeros(n)
    b = np.zeros(n)
    c = np.zeros(n)
    d = -recharge[1:-1] * dx * dx
    for i in range(n):
        a[i] = Kf[i]
        c[i] = Kf[i + 1]
        b[i] = -(Kf[i] + Kf[i + 1])
    d[0] -= Kf[0] * h_left
    d[-1] -= Kf[n] * h_right
    a[0] = 0.0
    c[-1] = 0.0
    h = thomas(a, b, c, d)
    return np.sum(h)


@njit
def nash_cascade(rain, k, n_res=3):
    S = np.zeros(n_res)
    q = np.zeros(rain.shape[0])
    for t in range(rain.shape[0]):
        inflow = rain[t]
        for j in range(n_res):
            S[j] += inflow
            out = S[j] / k
            S[j] -= out
            inflow = out
        q[t] = inflow
    return np.sum(q ** 2)


@njit
def vfi(beta, alpha, kgrid, iters=30):
    n = kgrid.shape[0]
    V = np.zeros(n)
    for _ in range(iters):
        Vn = np.empty(n)
        for i in range(n):
            best = -1e10
            y = kgrid[i] ** alpha
            for j in range(n):
                c = y - kgrid[j]
                if c > 0:
                    val = math.log(c) + beta * V[j]
                    if val > best:
                        best = val
            Vn[i] = best
        V = Vn
    return V.sum()


@njit
def soft_dtw(x, y, gamma=1.0):
    n, m = x.shape[0], y.shape[0]
    R = np.full((n + 1, m + 1), np.inf)
    R[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = (x[i - 1] - y[j - 1]) ** 2
            a, b, c = -R[i - 1, j - 1] / gamma, -R[i - 1, j] / gamma, -R[i, j - 1] / gamma
            mx = max(a, max(b, c))
            s = np.exp(a - mx) + np.exp(b - mx) + np.exp(c - mx)
            R[i, j] = cost - gamma * (np.log(s) + mx)
    return R[n, m]


@njit
def pwm_score(pwm, seq, bg):
    L = pwm.shape[0]
    logp = np.log(pwm / pwm.sum(axis=1).reshape(-1, 1)) - np.log(bg)
    best = 0.0
    tot = 0.0
    for s in range(seq.shape[0] - L + 1):
        sc = 0.0
        for k in range(L):
            sc += logp[k, seq[s + k]]
        tot += np.exp(sc)
    return np.log(tot)


@njit
def odometry(vl, vr, b, dt=0.1):
    v = 0.5 * (vl + vr)
    w = (vr - vl) / b
    th = np.cumsum(w * dt)
    x = np.cumsum(v * np.cos(th) * dt)
    y = np.cumsum(v * np.sin(th) * dt)
    return x[-1] ** 2 + y[-1] ** 2


@njit
def sw_flux(h, hu, g=9.81):
    u = hu / h
    return hu, hu * u + 0.5 * g * h * h


@njit
def shallow_water(h0, hu0, dx=1.0, dt=0.05, nt=10):
    """Two fields copied by one tuple assignment, updated through slices and rebound by another
    (``hn, hun = h.copy(), hu.copy()`` ... ``h, hu = hn, hun``) in a time loop."""
    h, hu = h0.copy(), hu0.copy()
    for _ in range(nt):
        f1, f2 = sw_flux(h, hu)
        hn, hun = h.copy(), hu.copy()
        hn[1:-1] = 0.5 * (h[2:] + h[:-2]) - dt / (2 * dx) * (f1[2:] - f1[:-2])
        hun[1:-1] = 0.5 * (hu[2:] + hu[:-2]) - dt / (2 * dx) * (f2[2:] - f2[:-2])
        h, hu = hn, hun
    return np.sum(h ** 2) + np.sum(hu)

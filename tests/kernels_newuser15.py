"""Kernels for tests/test_newuser15.py (a new user's fifteenth trial): fields not tried before
(crystal plasticity, phase-field fracture, seismic moment tensors, travel-time inversion, MHD
induction, Arrhenius combustion networks, PBPK compartments, HMM forward algorithm, soft
Smith-Waterman, radiative-convective columns, glacier mass balance, volcanic Mogi sources, room
acoustics, LQR rollouts, MPC costs, policy-gradient rollouts, matrix factorisation, softmax
attention, soft rasterisers, Phong shading, GNSS clocks, metrology calibration, chain-ladder loss
triangles, Elo ratings, crop growth, buck converters, drift-diffusion semiconductors, Gaussian
copulas, smooth quantile regression, Gaussian processes with loops) and CUDA kernels for five of
them, written the way one finds them in public code.
"""
import math

import numpy as np
from numba import cuda, njit, prange


# ---------------------------------------------------------------- whole-array NumPy style
@njit(cache=True)
def crystal_plasticity(tau, g0, m=20.0, dt=0.01, nsteps=15):
    """Power-law slip on several systems with Voce hardening."""
    g = g0.copy()
    gam = np.zeros_like(tau)
    for t in range(nsteps):
        rate = 0.001 * np.sign(tau) * np.abs(tau / g) ** m
        gam += rate * dt
        g = g + dt * 50.0 * (1.0 - g / 2.0) * np.sum(np.abs(rate))
    return np.sum(gam ** 2) + np.sum(g)


@njit(cache=True)
def phase_field_fracture(d, u, gc=1.0, ell=0.1):
    n = d.shape[0]
    h = 1.0 / (n - 1)
    grad_d = (d[1:] - d[:-1]) / h
    grad_u = (u[1:] - u[:-1]) / h
    dm = 0.5 * (d[1:] + d[:-1])
    elastic = 0.5 * np.sum((1.0 - dm) ** 2 * grad_u ** 2) * h
    crack = gc * (np.sum(d ** 2) / (2 * ell) * h + 0.5 * ell * np.sum(grad_d ** 2) * h)
    return elastic + crack


@njit(cache=True)
def moment_tensor_misfit(m6, G, dobs):
    M = np.array([[m6[0], m6[3], m6[4]], [m6[3], m6[1], m6[5]], [m6[4], m6[5], m6[2]]])
    syn = np.zeros(dobs.shape[0])
    for k in range(dobs.shape[0]):
        syn[k] = np.sum(G[k] * M)
    iso = np.trace(M) / 3.0
    return np.sum((syn - dobs) ** 2) + 0.1 * iso ** 2


@njit(cache=True)
def mhd_induction(B, v, eta, dt=0.002, nsteps=20):
    n = B.shape[0]
    dx = 1.0 / n
    for t in range(nsteps):
        flux = v * B
        dflux = (np.roll(flux, -1) - np.roll(flux, 1)) / (2 * dx)
        lap = (np.roll(B, -1) - 2 * B + np.roll(B, 1)) / dx ** 2
        B = B + dt * (-dflux + eta * lap)
    return 0.5 * np.sum(B * B) * dx


@njit(cache=True)
def hmm_forward(logA, logpi, logB, obs):
    A = np.exp(logA - np.log(np.sum(np.exp(logA), axis=1)).reshape(-1, 1))
    pi = np.exp(logpi) / np.sum(np.exp(logpi))
    Bm = np.exp(logB)
    Bm = Bm / Bm.sum(axis=1).reshape(-1, 1)
    alpha = pi * Bm[:, obs[0]]
    ll = 0.0
    for t in range(1, obs.shape[0]):
        c = alpha.sum()
        ll += np.log(c)
        alpha = (alpha / c) @ A * Bm[:, obs[t]]
    return ll + np.log(alpha.sum())


@njit(cache=True)
def radiative_convective(T, tau, lapse=6.5):
    n = T.shape[0]
    sigma = 5.67e-8
    emis = 1.0 - np.exp(-tau)
    up = emis * sigma * T ** 4
    net = np.zeros(n)
    net[1:] = up[:-1] - up[1:]
    dT = np.diff(T)
    conv = np.maximum(-dT - lapse, 0.0)
    return np.sum(net ** 2) * 1e-4 + np.sum(conv ** 2)


@njit(cache=True)
def softmax_attention(Q, K, V):
    d = Q.shape[1]
    S = Q @ K.T / np.sqrt(d)
    S = S - S.max()
    P = np.exp(S)
    P = P / P.sum(axis=1).reshape(-1, 1)
    out = P @ V
    return np.sum(out ** 2)


@njit(cache=True)
def matrix_factorisation(U, W, R, mask, lam=0.1):
    pred = U @ W.T
    err = (pred - R) * mask
    return np.sum(err ** 2) + lam * (np.sum(U ** 2) + np.sum(W ** 2))


@njit(cache=True)
def phong_shading(normals, light, view, ka=0.1, kd=0.7, ks=0.2, shin=8.0):
    nrm = np.sqrt(np.sum(normals ** 2, axis=1))
    N = normals / nrm.reshape(-1, 1)
    L = light / np.linalg.norm(light)
    Vv = view / np.linalg.norm(view)
    ndl = np.maximum(N @ L, 0.0)
    Rr = 2.0 * ndl.reshape(-1, 1) * N - L
    spec = np.maximum(Rr @ Vv, 0.0) ** shin
    I = ka + kd * ndl + ks * spec
    return np.sum(I)


@njit(cache=True)
def chain_ladder(tri, tail):
    n = tri.shape[0]
    f = np.ones(n - 1)
    for j in range(n - 1):
        f[j] = np.sum(tri[: n - j - 1, j + 1]) / np.sum(tri[: n - j - 1, j])
    ult = 0.0
    for i in range(n):
        last = n - 1 - i
        cum = tri[i, last]
        ult += cum * np.prod(f[last:]) * tail
    return ult


@njit(cache=True)
def gaussian_copula_nll(rho, u):
    z = np.sqrt(2.0) * erfinv_approx(2.0 * u - 1.0)
    x, y = z[:, 0], z[:, 1]
    r2 = 1.0 - rho * rho
    ll = -0.5 * np.log(r2) - (rho * rho * (x * x + y * y) - 2 * rho * x * y) / (2 * r2)
    return -np.sum(ll)


@njit(cache=True)
def erfinv_approx(y):
    a = 0.147
    ln = np.log(1.0 - y * y)
    t1 = 2.0 / (np.pi * a) + ln / 2.0
    return np.sign(y) * np.sqrt(np.sqrt(t1 * t1 - ln / a) - t1)


@njit(cache=True)
def quantile_regression_smooth(beta, X, y, q=0.7, h=0.05):
    r = y - X @ beta
    # smooth check loss: h * log(1 + exp(r/h)) + (q - 1) r
    loss = h * np.log1p(np.exp(-np.abs(r) / h)) + np.maximum(r, 0.0) + (q - 1.0) * r
    return np.mean(loss)


@njit(cache=True)
def semiconductor_dd(psi, n_, p_, Nd):
    m = psi.shape[0]
    h = 1.0 / (m - 1)
    lap = (psi[2:] - 2 * psi[1:-1] + psi[:-2]) / h ** 2
    rho = p_[1:-1] - n_[1:-1] + Nd[1:-1]
    res_p = lap + rho
    Jn = n_[:-1] * (psi[1:] - psi[:-1]) / h + (n_[1:] - n_[:-1]) / h
    Jp = p_[:-1] * (psi[1:] - psi[:-1]) / h - (p_[1:] - p_[:-1]) / h
    return np.sum(res_p ** 2) * h + np.sum(np.diff(Jn) ** 2) + np.sum(np.diff(Jp) ** 2)


@njit(cache=True)
def gnss_clock_fit(params, t, bias):
    a0, a1, a2 = params[0], params[1], params[2]
    model = a0 + a1 * t + a2 * t ** 2
    w = 1.0 / (1.0 + np.abs(t))
    return np.sum(w * (model - bias) ** 2)


@njit(cache=True)
def gp_posterior_mean(log_ell, Xtr, ytr, Xte, noise=0.05):
    d2 = np.sum((Xtr[:, None, :] - Xtr[None, :, :]) ** 2, axis=-1)
    Kxx = np.exp(-0.5 * d2 / np.exp(2 * log_ell)) + noise * np.eye(Xtr.shape[0])
    ds = np.sum((Xte[:, None, :] - Xtr[None, :, :]) ** 2, axis=-1)
    Ks = np.exp(-0.5 * ds / np.exp(2 * log_ell))
    mu = Ks @ np.linalg.solve(Kxx, ytr)
    return np.sum(mu ** 2)


@njit(cache=True)
def allan_deviation(phase, tau0=1.0, max_m=4):
    n = phase.shape[0]
    out = 0.0
    m = 1
    while m <= max_m:
        s = 0.0
        cnt = 0
        for i in range(n - 2 * m):
            d = phase[i + 2 * m] - 2 * phase[i + m] + phase[i]
            s += d * d
            cnt += 1
        if cnt == 0:
            break
        out += math.sqrt(s / (2.0 * cnt)) / (m * tau0)
        m *= 2
    return out


# ---------------------------------------------------------------- prange
@njit(parallel=True, cache=True)
def travel_time_misfit(slow, src, rec, tobs, nseg=20):
    nr = rec.shape[0]
    res = np.zeros(nr)
    ny, nx = slow.shape
    for r in prange(nr):
        tt = 0.0
        dx = (rec[r, 0] - src[0]) / nseg
        dy = (rec[r, 1] - src[1]) / nseg
        L = math.sqrt(dx * dx + dy * dy)
        for k in range(nseg):
            x = src[0] + (k + 0.5) * dx
            y = src[1] + (k + 0.5) * dy
            i = min(int(y), ny - 1)
            j = min(int(x), nx - 1)
            tt += slow[i, j] * L
        res[r] = (tt - tobs[r]) ** 2
    return res.sum()


@njit(parallel=True, cache=True)
def arrhenius_network(lnA, Ea, T, conc):
    ncell = T.shape[0]
    nr = lnA.shape[0]
    total = 0.0
    for c in prange(ncell):
        s = 0.0
        for r in range(nr):
            k = math.exp(lnA[r] - Ea[r] / (8.314 * T[c]))
            s += k * conc[c, r] * conc[c, (r + 1) % nr]
        total += s
    return total


@njit(parallel=True, cache=True)
def soft_smith_waterman(S, gap=1.0, gamma=0.5):
    nb = S.shape[0]
    out = np.zeros(nb)
    for b in prange(nb):
        n, m = S.shape[1], S.shape[2]
        H = np.zeros((n + 1, m + 1))
        for i in range(1, n + 1):
            for j in range(1, m + 1):
                a = H[i - 1, j - 1] + S[b, i - 1, j - 1]
                c = H[i - 1, j] - gap
                e = H[i, j - 1] - gap
                mx = max(a, max(c, e))
                H[i, j] = mx + gamma * math.log(math.exp((a - mx) / gamma) + math.exp((c - mx) / gamma)
                                                + math.exp((e - mx) / gamma))
        out[b] = H[n, m]
    return np.sum(out)


@njit(parallel=True, cache=True)
def room_impulse(src, mics, refl, fs=8000.0, c=343.0):
    nm = mics.shape[0]
    energy = np.zeros(nm)
    for i in prange(nm):
        e = 0.0
        for k in range(refl.shape[0]):
            dx = mics[i, 0] - (src[0] * refl[k, 0] + refl[k, 1])
            dy = mics[i, 1] - src[1]
            r = math.sqrt(dx * dx + dy * dy + 0.01)
            amp = refl[k, 2] / r
            e += amp * amp * math.exp(-r * fs / c * 1e-3)
        energy[i] = e
    return np.sum(np.log(energy))


@njit(parallel=True, cache=True)
def soft_rasteriser(verts, px, py, sigma=0.05):
    H = px.shape[0]
    img = np.zeros((H, py.shape[0]))
    ntri = verts.shape[0]
    for i in prange(H):
        for j in range(py.shape[0]):
            occ = 1.0
            for t in range(ntri):
                dmin = 1e9
                for e in range(3):
                    ax, ay = verts[t, e, 0], verts[t, e, 1]
                    bx, by = verts[t, (e + 1) % 3, 0], verts[t, (e + 1) % 3, 1]
                    ex, ey = bx - ax, by - ay
                    d = ((px[i] - ax) * ey - (py[j] - ay) * ex) / math.sqrt(ex * ex + ey * ey)
                    if d < dmin:
                        dmin = d
                prob = 1.0 / (1.0 + math.exp(-dmin / sigma))
                occ *= 1.0 - prob
            img[i, j] = 1.0 - occ
    return np.sum(img ** 2)


@njit(parallel=True, cache=True)
def policy_gradient_rollout(theta, states, noise):
    nep = states.shape[0]
    ret = np.zeros(nep)
    for e in prange(nep):
        x = states[e, 0]
        v = states[e, 1]
        R = 0.0
        for t in range(noise.shape[1]):
            a = math.tanh(theta[0] * x + theta[1] * v + theta[2]) + 0.1 * noise[e, t]
            v = v + 0.1 * a
            x = x + 0.1 * v
            R -= x * x + 0.01 * a * a
        ret[e] = R
    return ret.mean()


@njit(parallel=True, cache=True)
def gp_loglik_loops(log_ell, log_sf, X, y):
    n = X.shape[0]
    K = np.empty((n, n))
    ell = math.exp(log_ell)
    sf2 = math.exp(2 * log_sf)
    for i in prange(n):
        for j in range(n):
            d2 = 0.0
            for k in range(X.shape[1]):
                d2 += (X[i, k] - X[j, k]) ** 2
            K[i, j] = sf2 * math.exp(-0.5 * d2 / ell ** 2)
        K[i, i] += 0.1
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(K, y)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


@njit(parallel=True, cache=True)
def elo_ratings(r0, games, outcomes, kf=20.0):
    # batch Elo: each season's games in parallel, ratings per season
    ns = games.shape[0]
    loss = np.zeros(ns)
    for s in prange(ns):
        r = r0.copy()
        l = 0.0
        for g in range(games.shape[1]):
            a, b = games[s, g, 0], games[s, g, 1]
            p = 1.0 / (1.0 + 10.0 ** ((r[b] - r[a]) / 400.0))
            y = outcomes[s, g]
            l -= y * math.log(p) + (1 - y) * math.log(1 - p)
            r[a] += kf * (y - p)
            r[b] -= kf * (y - p)
        loss[s] = l
    return loss.sum()


@njit(parallel=True, cache=True)
def crop_growth(rue, lai0, par, temp, tbase=8.0):
    nf = par.shape[0]
    yld = np.zeros(nf)
    for f in prange(nf):
        lai = lai0
        biomass = 0.0
        for d in range(par.shape[1]):
            gdd = max(temp[f, d] - tbase, 0.0)
            fint = 1.0 - math.exp(-0.6 * lai)
            growth = rue * par[f, d] * fint
            biomass += growth
            lai += 0.01 * gdd * lai * (1.0 - lai / 6.0)
        yld[f] = 0.45 * biomass
    return np.sum(yld)


@njit(parallel=True, cache=True)
def pbpk_population(CL, V, dose, tobs, cobs):
    npat = CL.shape[0]
    sse = np.zeros(npat)
    for p in prange(npat):
        ke = CL[p] / V[p]
        for k in range(tobs.shape[0]):
            c = dose / V[p] * math.exp(-ke * tobs[k])
            sse[p] += (math.log(c) - math.log(cobs[p, k])) ** 2
    return sse.sum()


# ---------------------------------------------------------------- explicit loops
@njit(cache=True)
def glacier_mass_balance(ddf, Tair, precip, zs, lapse=0.0065, t_snow=1.0):
    nz = zs.shape[0]
    total = 0.0
    for i in range(nz):
        mb = 0.0
        for d in range(Tair.shape[0]):
            T = Tair[d] - lapse * zs[i]
            if T > 0.0:
                mb -= ddf * T
            if T < t_snow:
                mb += precip[d]
        total += mb
    return total / nz


@njit(cache=True)
def mogi_source(x0, y0, depth, dV, xs, ys, uz_obs, nu=0.25):
    s = 0.0
    for i in range(xs.shape[0]):
        r2 = (xs[i] - x0) ** 2 + (ys[i] - y0) ** 2
        uz = (1 - nu) * dV / math.pi * depth / (r2 + depth * depth) ** 1.5
        s += (uz - uz_obs[i]) ** 2
    return s


@njit(cache=True)
def lqr_rollout(Kgain, x0, nsteps=30, dt=0.05):
    x = x0.copy()
    J = 0.0
    k = 0
    while k < nsteps:
        u = -(Kgain[0] * x[0] + Kgain[1] * x[1])
        J += x[0] ** 2 + 0.1 * x[1] ** 2 + 0.01 * u * u
        xn0 = x[0] + dt * x[1]
        xn1 = x[1] + dt * (u - 0.5 * x[1] + math.sin(x[0]))
        x[0] = xn0
        x[1] = xn1
        k += 1
    return J


@njit(cache=True)
def mpc_cost(u, x0, ref, umax=2.0):
    x = x0
    cost = 0.0
    for t in range(u.shape[0]):
        ut = u[t]
        if ut > umax:
            cost += 100.0 * (ut - umax) ** 2
            ut = umax
        elif ut < -umax:
            cost += 100.0 * (ut + umax) ** 2
            ut = -umax
        x = 0.9 * x + 0.2 * ut
        cost += (x - ref[t]) ** 2 + 0.05 * ut * ut
    return cost


@njit(cache=True)
def _buck_step(iL, vC, d, Vin, L=1e-4, C=1e-4, R=5.0, dt=1e-6):
    diL = (d * Vin - vC) / L
    dvC = (iL - vC / R) / C
    return iL + dt * diL, vC + dt * dvC


@njit(cache=True)
def buck_converter(duty, Vin, nsub=20):
    iL, vC = 0.0, 0.0
    ripple = 0.0
    for period, d in enumerate(duty):
        for k in range(nsub):
            on = 1.0 if k < d * nsub else 0.0
            iL, vC = _buck_step(iL, vC, on, Vin)
        ripple += (vC - 0.5 * Vin * 0.1 * period / duty.shape[0]) ** 2
    return ripple + vC


@njit(cache=True)
def calibration_curve(coef, stim, resp, tol=1e-10):
    # invert a cubic response by Newton for each reading, then squared error in stimulus
    err = 0.0
    for i in range(resp.shape[0]):
        x = resp[i] / coef[1]
        for it in range(50):
            f = coef[0] + coef[1] * x + coef[2] * x * x + coef[3] * x ** 3 - resp[i]
            df = coef[1] + 2 * coef[2] * x + 3 * coef[3] * x * x
            step = f / df
            x -= step
            if abs(step) < tol:
                break
        err += (x - stim[i]) ** 2
    return err


@njit(cache=True)
def _huber(r, delta=1.0):
    if abs(r) <= delta:
        return 0.5 * r * r
    return delta * (abs(r) - 0.5 * delta)


@njit(cache=True)
def robust_line_fit(a, b, xs, ys):
    s = 0.0
    for x, y in zip(xs, ys):
        s += _huber(y - (a * x + b))
    return s


@njit(cache=True)
def volcano_conduit(p0_mpa, rho, eta_kpa, radius, nz=40, H=5000.0):
    dz = H / nz
    p = p0_mpa * 1e6
    q = 0.0
    for k in range(nz):
        if p <= 1e5:
            return q - 1e6 * (nz - k)
        dpdz = rho * 9.81 + 8.0 * eta_kpa * 1e3 / (radius * radius)
        p = p - dpdz * dz
        q += radius ** 4 * p * 1e-12
    return q


@njit(cache=True)
def acoustic_modes(L, c0, n_modes=6):
    Lx, Ly, Lz = L[0], L[1], L[2]
    freqs = np.zeros(n_modes * n_modes)
    m = 0
    for i in range(n_modes):
        for j in range(n_modes):
            freqs[m] = 0.5 * c0 * math.sqrt((i / Lx) ** 2 + (j / Ly) ** 2 + (1.0 / Lz) ** 2)
            m += 1
    s = 0.0
    for f in freqs:
        s += math.exp(-f / 100.0)
    return s


@njit(cache=True)
def pbpk_compartments(k, dose, t_end=8.0, dt=0.02):
    # gut -> plasma -> liver/kidney -> plasma ; explicit Euler
    y = np.zeros(4)
    y[0] = dose
    auc = 0.0
    t = 0.0
    while t < t_end:
        ka, kpl, klp, kel, kpk = k[0], k[1], k[2], k[3], k[4]
        flux = np.array([-ka * y[0],
                         ka * y[0] - (kpl + kpk) * y[1] + klp * y[2],
                         kpl * y[1] - (klp + kel) * y[2],
                         kpk * y[1]])
        y = y + dt * flux
        auc += dt * y[1]
        t += dt
    return auc + y[3]


@njit(cache=True)
def hmm_viterbi_soft(logA, logB, obs, temp=0.3):
    ns = logA.shape[0]
    delta = logB[:, obs[0]].copy()
    for t in range(1, obs.shape[0]):
        new = np.empty(ns)
        for j in range(ns):
            mx = -1e300
            for i in range(ns):
                v = delta[i] + logA[i, j]
                if v > mx:
                    mx = v
            s = 0.0
            for i in range(ns):
                s += math.exp((delta[i] + logA[i, j] - mx) / temp)
            new[j] = mx + temp * math.log(s) + logB[j, obs[t]]
        delta = new
    return delta.max()


@njit(cache=True)
def insurance_reserve(paid, dev, infl=0.03):
    ny, nd = paid.shape
    total = 0.0
    for i in range(ny):
        cum = 0.0
        for j in range(nd):
            if i + j >= ny:
                # projected cell
                cum *= dev[j - 1] * (1.0 + infl)
            else:
                cum += paid[i, j]
        total += cum
    return total


@njit(cache=True)
def elo_sequential(r, a_idx, b_idx, y, kf=24.0):
    rr = r.copy()
    nll = 0.0
    for g in range(y.shape[0]):
        a = a_idx[g]
        b = b_idx[g]
        p = 1.0 / (1.0 + math.exp(-(rr[a] - rr[b])))
        nll -= y[g] * math.log(p) + (1.0 - y[g]) * math.log(1.0 - p)
        rr[a] += kf * 0.01 * (y[g] - p)
        rr[b] -= kf * 0.01 * (y[g] - p)
    return nll


@njit(cache=True)
def drift_diffusion_transient(n0, mu, E, D=0.1, dt=0.001, nsteps=25):
    n = n0.copy()
    m = n.shape[0]
    for t in range(nsteps):
        new = n.copy()
        for i in range(1, m - 1):
            flux_r = mu * E * 0.5 * (n[i] + n[i + 1]) - D * (n[i + 1] - n[i]) * m
            flux_l = mu * E * 0.5 * (n[i - 1] + n[i]) - D * (n[i] - n[i - 1]) * m
            new[i] = n[i] - dt * m * (flux_r - flux_l)
        n = new
    return np.sum(n * np.arange(m)) / np.sum(n)


# ---------------------------------------------------------------- plain-Python drivers
@njit(cache=True)
def _rc_step(T, tau, q, dt):
    n = T.shape[0]
    out = T.copy()
    for i in range(1, n - 1):
        out[i] = T[i] + dt * (q[i] - tau[i] * (T[i] - 0.5 * (T[i - 1] + T[i + 1])))
    return out


def radiative_column_driver(T0, tau, q, nsteps=10):
    T = T0.copy()
    for _ in range(nsteps):
        T = _rc_step(T, tau, q, 0.05)
        T[0] = T[1]
    return float(np.sum(T ** 2))


@njit(cache=True)
def _mf_sgd_loss(U, W, rows, cols, vals):
    s = 0.0
    for k in range(rows.shape[0]):
        e = U[rows[k]] @ W[cols[k]] - vals[k]
        s += e * e
    return s


def mf_driver(U, W, rows, cols, vals, lam=0.05):
    loss = _mf_sgd_loss(U, W, rows, cols, vals)
    return loss + lam * float(np.sum(U * U) + np.sum(W * W))


@njit(cache=True)
def _attention_head(X, Wq, Wk):
    Q = X @ Wq
    Kk = X @ Wk
    S = Q @ Kk.T
    S = S - S.max()
    P = np.exp(S)
    return P / P.sum(axis=1).reshape(-1, 1)


def attention_driver(X, Wq, Wk, Wv):
    heads = []
    for h in range(2):
        P = _attention_head(X, Wq[h], Wk[h])
        heads.append(P @ (X @ Wv[h]))
    out = heads[0] + heads[1]
    return float(np.sum(np.tanh(out)))


@njit(cache=True)
def _crop_day(lai, biomass, par, T, rue):
    fint = 1.0 - math.exp(-0.65 * lai)
    biomass = biomass + rue * par * fint
    lai = lai + 0.002 * max(T - 8.0, 0.0) * lai
    return lai, biomass


def crop_season_driver(rue, lai0, par, temp):
    lai, bm = lai0, 0.0
    for d in range(len(par)):
        lai, bm = _crop_day(lai, bm, par[d], temp[d], rue)
    return 0.45 * bm


@njit(cache=True)
def _pbpk_rhs(y, k):
    return np.array([-k[0] * y[0], k[0] * y[0] - k[1] * y[1]])


def pbpk_driver(k, y0, t_obs, c_obs, dt=0.05):
    y = y0.copy()
    t = 0.0
    sse = 0.0
    j = 0
    while j < len(t_obs):
        y = y + dt * _pbpk_rhs(y, k)
        t += dt
        if t >= t_obs[j] - 1e-12:
            sse += (y[1] - c_obs[j]) ** 2
            j += 1
    return sse


# ===================================================================== CUDA kernels
# each with the same math in NumPy (updates its arguments in place, float64)

@cuda.jit
def mogi_cuda(src, xs, uz):
    i = cuda.grid(1)
    if i < xs.shape[0]:
        r2 = (xs[i, 0] - src[0]) ** 2 + (xs[i, 1] - src[1]) ** 2
        uz[i] = 0.75 * src[3] / math.pi * src[2] / (r2 + src[2] * src[2]) ** 1.5


def mogi_cuda_np(src, xs, uz):
    r2 = (xs[:, 0] - src[0]) ** 2 + (xs[:, 1] - src[1]) ** 2
    uz[:] = 0.75 * src[3] / np.pi * src[2] / (r2 + src[2] ** 2) ** 1.5


@cuda.jit
def phong_cuda(N, L, I):
    i = cuda.grid(1)
    if i >= N.shape[0]:
        return
    nn = math.sqrt(N[i, 0] ** 2 + N[i, 1] ** 2 + N[i, 2] ** 2)
    d = 0.0
    for a in range(3):
        d += N[i, a] / nn * L[a]
    if d < 0.0:
        d = 0.0
    I[i] = 0.1 + 0.8 * d + 0.1 * d ** 8


def phong_cuda_np(N, L, I):
    nn = np.sqrt(np.sum(N ** 2, axis=1))
    d = np.maximum((N / nn[:, None]) @ L, 0.0)
    I[:] = 0.1 + 0.8 * d + 0.1 * d ** 8


@cuda.jit
def arrhenius_cuda(lnA, Ea, T, rate):
    i, r = cuda.grid(2)
    if i < T.shape[0] and r < lnA.shape[0]:
        rate[i, r] = math.exp(lnA[r] - Ea[r] * 1e3 / (8.314e3 * T[i]))   # kJ/mol, kK


def arrhenius_cuda_np(lnA, Ea, T, rate):
    rate[:] = np.exp(lnA[None, :] - Ea[None, :] * 1e3 / (8.314e3 * T[:, None]))


@cuda.jit
def mhd_step_cuda(B, v, Bn):
    i = cuda.grid(1)
    n = B.shape[0]
    if i < n:
        ip = (i + 1) % n
        im = (i - 1) % n
        Bn[i] = B[i] - 0.1 * (v[ip] * B[ip] - v[im] * B[im]) + 0.05 * (B[ip] - 2 * B[i] + B[im])


def mhd_step_cuda_np(B, v, Bn):
    Bp, Bm = np.roll(B, -1), np.roll(B, 1)
    Bn[:] = B - 0.1 * (np.roll(v, -1) * Bp - np.roll(v, 1) * Bm) + 0.05 * (Bp - 2 * B + Bm)


@cuda.jit
def attention_row_cuda(S, V, out):
    i = cuda.grid(1)
    if i >= S.shape[0]:
        return
    mx = S[i, 0]
    for j in range(1, S.shape[1]):
        mx = max(mx, S[i, j])
    z = 0.0
    for j in range(S.shape[1]):
        z += math.exp(S[i, j] - mx)
    for d in range(V.shape[1]):
        acc = 0.0
        for j in range(S.shape[1]):
            acc += math.exp(S[i, j] - mx) / z * V[j, d]
        out[i, d] = acc


def attention_row_cuda_np(S, V, out):
    P = np.exp(S - S.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    out[:] = P @ V


@cuda.jit
def offsets_name_cuda(u, out):
    i, j = cuda.grid(2)
    ny, nx = u.shape
    offs = ((1, 0), (-1, 0), (0, 1), (0, -1))
    if 0 < i < ny - 1 and 0 < j < nx - 1:
        acc = 0.0
        for di, dj in offs:
            acc += (u[i + di, j + dj] - u[i, j]) ** 2
        out[i, j] = acc / len(offs)


def offsets_name_cuda_np(u, out):
    c = u[1:-1, 1:-1]
    out[1:-1, 1:-1] = 0.25 * ((u[2:, 1:-1] - c) ** 2 + (u[:-2, 1:-1] - c) ** 2 + (u[1:-1, 2:] - c) ** 2
                              + (u[1:-1, :-2] - c) ** 2)


def cuda_cases():
    """name -> (cuda kernel, NumPy reference, args, activity, (griddim, blockdim))."""
    g = np.random.default_rng(15)
    return {
        "mogi_cuda": (mogi_cuda, mogi_cuda_np, [np.array([0.1, -0.2, 1.5, 0.8]), g.uniform(-2, 2, (20, 2)),
                                                np.zeros(20)], ("dup", "dup", "dup"), (1, 32)),
        "phong_cuda": (phong_cuda, phong_cuda_np, [g.standard_normal((16, 3)) + np.array([0, 0, 1.5]),
                                                   np.array([0.3, 0.2, 0.9]), np.zeros(16)],
                       ("dup", "dup", "dup"), (1, 32)),
        "arrhenius_cuda": (arrhenius_cuda, arrhenius_cuda_np, [g.uniform(1, 3, 4), g.uniform(1.0, 5.0, 4),
                                                               g.uniform(0.8, 1.5, 6), np.zeros((6, 4))],
                           ("dup", "dup", "dup", "dup"), ((1, 1), (8, 8))),
        "mhd_step_cuda": (mhd_step_cuda, mhd_step_cuda_np, [g.standard_normal(12), g.standard_normal(12),
                                                            np.zeros(12)], ("dup", "dup", "dup"), (1, 16)),
        "attention_row_cuda": (attention_row_cuda, attention_row_cuda_np, [g.standard_normal((5, 6)),
                                                                           g.standard_normal((6, 3)),
                                                                           np.zeros((5, 3))],
                               ("dup", "dup", "dup"), (1, 8)),
        # added after the measurement (a name bound to a literal of number tuples, looped over: this round's fix)
        "offsets_name_cuda": (offsets_name_cuda, offsets_name_cuda_np, [g.standard_normal((6, 7)), np.zeros((6, 7))],
                              ("dup", "dup"), ((1, 1), (8, 8))),
    }


# ============================== names bound to literals of number tuples, looped over (the fix)
@njit(cache=True)
def edge_list_energy(x, k=1.5):
    """A spring network with its edge list written in the kernel (``pairs = [(0, 1), ...]``)."""
    pairs = [(0, 1), (1, 2), (2, 3), (0, 3)]
    e = 0.0
    for a, b in pairs:
        e += 0.5 * k * (x[a] - x[b] - 1.0) ** 2
    return e / len(pairs)


@njit(cache=True)
def offsets_tuple_name(u, c):
    offs = ((1, 0), (-1, 0), (0, 1), (0, -1))
    ny, nx = u.shape
    s = 0.0
    for i in range(1, ny - 1):
        for j in range(1, nx - 1):
            for di, dj in offs:
                s += c * (u[i + di, j + dj] - u[i, j]) ** 2
    return s


@njit(parallel=True, cache=True)
def pairs_in_prange(X, w):
    pairs = [(0, 1), (1, 2), (0, 2)]
    out = np.zeros(X.shape[0])
    for i in prange(X.shape[0]):
        acc = 0.0
        for k, (a, b) in enumerate(pairs):
            acc += w[k] * (X[i, a] - X[i, b]) ** 2
        out[i] = acc
    return out.sum()


@njit(cache=True)
def stencil_weights_list(x):
    stencil = [(-1, 0.25), (0, 0.5), (1, 0.25)]
    y = np.zeros_like(x)
    for i in range(1, x.shape[0] - 1):
        for off, wt in stencil:
            y[i] += wt * x[i + off]
    return np.sum(y ** 2)


@njit(cache=True)
def pairs_indexed(x):
    pairs = [(0, 1), (1, 2)]       # refused at this line: the list is indexed, not only looped over
    s = 0.0
    for k in range(2):
        a, b = pairs[k]
        s += (x[a] - x[b]) ** 2
    return s


# ===================== a LAPACK adjoint reading an operand that a fused loop fills (the fix)
@njit(cache=True)
def toeplitz_logdet(theta, n=5):
    """A covariance filled element by element, then ``M += 2 I`` and its log-determinant."""
    M = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            M[i, j] = math.cos(theta * (i - j))
    M += np.eye(n) * 2.0
    return np.linalg.slogdet(M)[1]


@njit(cache=True)
def outer_logdet(x):
    n = x.shape[0]
    M = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            M[i, j] = x[i] * x[j]
    return np.linalg.slogdet(M + 2.0 * np.eye(n))[1]


# ============================================ optional parameters defaulting to None (the fix)
@njit(cache=True)
def weighted_sse(x, w=None):
    if w is None:
        return np.sum(x ** 2)
    return np.sum(w * x ** 2)


@njit(cache=True)
def scaled_energy(x, scale=None, w=None):
    s = 1.0 if scale is None else scale
    if w is not None:
        x = x * w
    return s * np.sum(x ** 2)


OFFSETS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@njit(cache=True)
def global_offsets_energy(u):
    """A module global tuple of offsets (a compile-time constant to Numba), looped over."""
    s = 0.0
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            for di, dj in OFFSETS:
                s += (u[i + di, j + dj] - u[i, j]) ** 2
    return s / len(OFFSETS)

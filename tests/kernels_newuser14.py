"""Kernels for tests/test_newuser14.py (a new user's fourteenth trial): fields not tried before
(1-D FDTD electromagnetics, 2-D acoustic waves, plate-cooling geodynamics, straight-ray
tomography, Buckley-Leverett reservoirs, Boris particle pushes, Carreau and Maxwell rheology,
single-particle battery models, intelligent-driver traffic, SABR smiles, CIR bonds, parametric
VaR, ARMA and probit likelihoods, Wright-Fisher selection, Felsenstein pruning, neural ODEs, tiny
MLPs and 1-D convolutions in NumPy, CSR mat-vecs, graph Laplacian smoothing, Sinkhorn transport,
translation registration, DFTs by loops, mesh smoothing, cloth springs, quaternion rigid bodies,
counterflow heat exchangers, Farquhar photosynthesis, degree-day snowmelt, Chapman ozone), and
CUDA kernels for five of them, written the way one finds them in public code.
"""
import math

import numpy as np
from numba import cuda, njit, prange


# ===================================================================== whole-array NumPy
# ------------------------------------------------------------- 1. 1-D FDTD (Yee, leapfrog)
@njit(cache=True)
def fdtd_probe(eps_r, src_amp, nsteps=40, probe=14):
    n = eps_r.shape[0]
    Ez = np.zeros(n)
    Hy = np.zeros(n - 1)
    c = 0.5
    rec = np.zeros(nsteps)
    for t in range(nsteps):
        Hy += c * (Ez[1:] - Ez[:-1])
        Ez[1:-1] += c / eps_r[1:-1] * (Hy[1:] - Hy[:-1])
        Ez[3] += src_amp * np.exp(-((t - 10.0) / 4.0) ** 2)
        rec[t] = Ez[probe]
    return np.sum(rec ** 2)


# ----------------------------------------------------- 2. 2-D acoustic wave, receiver misfit
@njit(cache=True)
def acoustic_misfit(c2, obs, nt=12, dt=0.2):
    ny, nx = c2.shape
    p_old = np.zeros((ny, nx))
    p = np.zeros((ny, nx))
    p[ny // 2, nx // 2] = 1.0
    misfit = 0.0
    for it in range(nt):
        lap = np.zeros((ny, nx))
        lap[1:-1, 1:-1] = (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2]
                           - 4.0 * p[1:-1, 1:-1])
        p_new = 2.0 * p - p_old + dt * dt * c2 * lap
        p_old = p
        p = p_new
        misfit += np.sum((p[1, :] - obs[it]) ** 2)
    return 0.5 * misfit


# ------------------------------------------------------- 3. plate cooling model, broadcasting
@njit(cache=True)
def plate_cooling_fit(Tm, kappa, ages, depths, T_obs, L=100.0, nterms=12):
    n = np.arange(1, nterms + 1).astype(np.float64)
    z = depths / L
    tau = kappa * ages / (L * L)
    series = np.sum(np.sin(n[None, None, :] * np.pi * z[None, :, None])
                    * np.exp(-(n[None, None, :] * np.pi) ** 2 * tau[:, None, None]) / n[None, None, :],
                    axis=2)
    T = Tm * (z[None, :] + 2.0 / np.pi * series)
    r = T - T_obs
    return np.sum(r * r) / r.size


# ---------------------------------------------- 4. straight-ray tomography, Tikhonov solve
@njit(cache=True)
def tomo_tikhonov(t_obs, lam, L, s_true):
    m = L.shape[1]
    A = L.T @ L + lam * np.eye(m)
    s = np.linalg.solve(A, L.T @ t_obs)
    resid = s - s_true
    return resid @ resid + 0.1 * np.sum((L @ s - t_obs) ** 2)


# ------------------------------------------------------ 5. Buckley-Leverett waterflood
@njit(cache=True)
def frac_flow(S, M):
    return S * S / (S * S + M * (1.0 - S) ** 2)


@njit(cache=True)
def buckley_leverett(S0, M, q, nsteps=20, dx=0.1, dt=0.02):
    S = S0.copy()
    prod = 0.0
    for _ in range(nsteps):
        f = frac_flow(S, M)
        S[1:] = S[1:] - q * dt / dx * (f[1:] - f[:-1])
        S[0] = 0.9
        prod += (1.0 - f[-1]) * q * dt
    return prod


# ------------------------------------------------------ 6. Carreau-Yasuda viscosity fit
@njit(cache=True)
def carreau_fit(params, gdot, eta_obs):
    eta0, eta_inf, lam, a, n = params
    eta = eta_inf + (eta0 - eta_inf) * (1.0 + (lam * gdot) ** a) ** ((n - 1.0) / a)
    return np.sum(np.log(eta / eta_obs) ** 2)


# ------------------------------------------------------ 7. single-particle battery model
@njit(cache=True)
def spm_voltage(Ds, I, nr=10, nsteps=30, dt=0.5):
    R = 1.0
    dr = R / nr
    r = (np.arange(nr) + 0.5) * dr
    rf = np.arange(1, nr) * dr
    c = np.full(nr, 0.6)
    vol = r * r * dr
    V = np.zeros(nsteps)
    for k in range(nsteps):
        flux = Ds * rf * rf * (c[1:] - c[:-1]) / dr
        dc = np.zeros(nr)
        dc[:-1] += flux
        dc[1:] -= flux
        dc[-1] -= I * R * R
        c = c + dt * dc / vol
        x = c[-1]
        V[k] = 4.2 - 0.8 * x + 0.05 * np.log(x / (1.0 - x))
    return np.mean(V)


# ---------------------------------------------------------- 8. SABR smile (Hagan) fit
@njit(cache=True)
def sabr_smile_loss(alpha, rho, nu, F, K, T, vol_mkt, beta=0.5):
    FK = F * K
    logFK = np.log(F / K)
    z = nu / alpha * FK ** ((1 - beta) / 2) * logFK
    xz = np.log((np.sqrt(1 - 2 * rho * z + z * z) + z - rho) / (1 - rho))
    A = alpha / (FK ** ((1 - beta) / 2) * (1 + (1 - beta) ** 2 / 24 * logFK ** 2))
    B = 1 + ((1 - beta) ** 2 / 24 * alpha ** 2 / FK ** (1 - beta)
             + rho * beta * nu * alpha / (4 * FK ** ((1 - beta) / 2)) + (2 - 3 * rho ** 2) / 24 * nu ** 2) * T
    vol = A * z / xz * B
    return np.sum((vol - vol_mkt) ** 2)


# ------------------------------------------------------- 9. CIR zero-coupon bond by MC
@njit(cache=True)
def cir_bond(r0, kappa, theta, sigma, Z, T=1.0):
    npath, nstep = Z.shape
    dt = T / nstep
    r = np.full(npath, r0)
    integral = np.zeros(npath)
    for k in range(nstep):
        integral += r * dt
        r = r + kappa * (theta - r) * dt + sigma * np.sqrt(np.maximum(r, 1e-12) * dt) * Z[:, k]
    return np.mean(np.exp(-integral))


# ---------------------------------------------------------- 10. parametric portfolio VaR
@njit(cache=True)
def parametric_var(w, returns, z=2.326):
    n = returns.shape[0]
    mu = np.sum(returns, axis=0) / n
    Rc = returns - mu
    S = Rc.T @ Rc / (n - 1)
    sig = np.sqrt(w @ S @ w)
    return z * sig - w @ mu + 10.0 * (np.sum(w) - 1.0) ** 2


# ------------------------------------------------------------ 11. neural ODE, RK4 helper
@njit(cache=True)
def node_rhs(y, W1, b1, W2):
    h = np.tanh(W1 @ y + b1)
    return W2 @ h


@njit(cache=True)
def neural_ode_loss(y0, W1, b1, W2, target, dt=0.1, nsteps=10):
    y = y0.copy()
    for _ in range(nsteps):
        k1 = node_rhs(y, W1, b1, W2)
        k2 = node_rhs(y + 0.5 * dt * k1, W1, b1, W2)
        k3 = node_rhs(y + 0.5 * dt * k2, W1, b1, W2)
        k4 = node_rhs(y + dt * k3, W1, b1, W2)
        y = y + dt * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0
    return np.sum((y - target) ** 2)


# --------------------------------------------------- 12. tiny MLP classifier (log-loss)
@njit(cache=True)
def mlp_logloss(W1, b1, w2, b2, X, y):
    H = np.maximum(X @ W1 + b1, 0.0)
    H = H + 0.1 * np.minimum(X @ W1 + b1, 0.0)      # leaky ReLU
    logits = H @ w2 + b2
    p = 1.0 / (1.0 + np.exp(-logits))
    eps = 1e-12
    return -np.mean(y * np.log(p + eps) + (1.0 - y) * np.log(1.0 - p + eps))


# ---------------------------------------------------- 13. 1-D conv layer with slices
@njit(cache=True)
def conv1d_loss(x, w, b, target):
    m = w.shape[0]
    nout = x.shape[0] - m + 1
    y = np.full(nout, b)
    for k in range(m):
        y += w[k] * x[k:k + nout]
    a = np.tanh(y)
    pooled = 0.5 * (a[0::2][: nout // 2] + a[1::2][: nout // 2])
    return np.sum((pooled - target) ** 2)


# ------------------------------------------------ 14. graph Laplacian smoothing (denoise)
@njit(cache=True)
def laplacian_smooth(x_noisy, A, lam, iters=5):
    deg = A.sum(axis=1)
    L = np.diag(deg) - A
    x = x_noisy.copy()
    for _ in range(iters):
        x = x - lam * (L @ x)
    return np.sum((x - x_noisy) ** 2) + x @ (L @ x)


# ------------------------------------------------------- 15. Sinkhorn optimal transport
@njit(cache=True)
def sinkhorn_cost(a, b, C, eps=0.5, iters=30):
    K = np.exp(-C / eps)
    v = np.ones(b.shape[0])
    u = np.ones(a.shape[0])
    for _ in range(iters):
        u = a / (K @ v)
        v = b / (K.T @ u)
    P = u[:, None] * K * v[None, :]
    return np.sum(P * C)


# ------------------------------------------------ 16. Farquhar photosynthesis, leaf array
@njit(cache=True)
def farquhar_fit(Vcmax, Jmax, Ci, I, A_obs, Rd=1.0):
    Kc, Ko, O, gstar = 404.9, 278.4, 210.0, 42.75
    Wc = Vcmax * (Ci - gstar) / (Ci + Kc * (1.0 + O / Ko))
    J = (0.3 * I + Jmax - np.sqrt((0.3 * I + Jmax) ** 2 - 4 * 0.7 * 0.3 * I * Jmax)) / (2 * 0.7)
    Wj = J * (Ci - gstar) / (4.0 * Ci + 8.0 * gstar)
    A = np.minimum(Wc, Wj) - Rd
    return np.sum((A - A_obs) ** 2)


# ================================================================ explicit loops
# ------------------------------------------------------------- 17. CSR sparse mat-vec
@njit(cache=True)
def csr_residual(data, indptr, indices, x, b):
    n = indptr.shape[0] - 1
    r2 = 0.0
    for i in range(n):
        acc = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            acc += data[k] * x[indices[k]]
        r2 += (acc - b[i]) ** 2
    return r2


# ------------------------------------------------------- 18. DFT by loops, spectrum fit
@njit(cache=True)
def dft_power_fit(x, P_obs):
    n = x.shape[0]
    loss = 0.0
    for k in range(n // 2 + 1):
        re = 0.0
        im = 0.0
        for t in range(n):
            ang = 2.0 * math.pi * k * t / n
            re += x[t] * math.cos(ang)
            im -= x[t] * math.sin(ang)
        p = (re * re + im * im) / n
        loss += (math.log(p + 1e-3) - math.log(P_obs[k] + 1e-3)) ** 2
    return loss


# ------------------------------------------------- 19. Wright-Fisher selection + mutation
@njit(cache=True)
def wright_fisher(s, mu, p0, ngen=50):
    p = p0
    traj = 0.0
    for g in range(ngen):
        w_bar = p * p * (1 + s) + 2 * p * (1 - p) * (1 + 0.5 * s) + (1 - p) ** 2
        p = (p * p * (1 + s) + p * (1 - p) * (1 + 0.5 * s)) / w_bar
        p = p * (1 - mu) + (1 - p) * mu
        if p > 0.999:
            break
        traj += p
    return traj + p


# ------------------------------------------- 20. Felsenstein pruning, JC69, 4-taxon tree
@njit(cache=True)
def jc_matrix(t):
    e = math.exp(-4.0 * t / 3.0)
    P = np.full((4, 4), 0.25 - 0.25 * e)
    for i in range(4):
        P[i, i] = 0.25 + 0.75 * e
    return P


@njit(cache=True)
def pruning_loglik(bl, seqs):
    # ((0,1),(2,3)): branches bl[0..3] to tips, bl[4] the internal one
    P = [jc_matrix(bl[k]) for k in range(5)]
    nsite = seqs.shape[1]
    ll = 0.0
    for s in range(nsite):
        tip = np.zeros((4, 4))
        for k in range(4):
            tip[k, seqs[k, s]] = 1.0
        left = (P[0] @ tip[0]) * (P[1] @ tip[1])
        right = (P[2] @ tip[2]) * (P[3] @ tip[3])
        root = left * (P[4] @ right)
        ll += math.log(0.25 * root.sum())
    return ll


# -------------------------------------------- 21. translation registration, bilinear
@njit(cache=True)
def bilinear(img, y, x):
    ny, nx = img.shape
    i = int(math.floor(y))
    j = int(math.floor(x))
    if i < 0 or j < 0 or i >= ny - 1 or j >= nx - 1:
        return 0.0
    fy = y - i
    fx = x - j
    return ((1 - fy) * (1 - fx) * img[i, j] + (1 - fy) * fx * img[i, j + 1]
            + fy * (1 - fx) * img[i + 1, j] + fy * fx * img[i + 1, j + 1])


@njit(cache=True)
def register_ssd(ty, tx, fixed, moving):
    ny, nx = fixed.shape
    ssd = 0.0
    for i in range(1, ny - 1):
        for j in range(1, nx - 1):
            d = bilinear(moving, i + ty, j + tx) - fixed[i, j]
            ssd += d * d
    return ssd


# ------------------------------------------------------ 22. mesh Laplacian smoothing
@njit(cache=True)
def mesh_smooth_energy(V, tris, lam=0.3, iters=3):
    nv = V.shape[0]
    P = V.copy()
    for it in range(iters):
        acc = np.zeros_like(P)
        cnt = np.zeros(nv)
        for t in range(tris.shape[0]):
            for a in range(3):
                i = tris[t, a]
                j = tris[t, (a + 1) % 3]
                acc[i] += P[j]
                acc[j] += P[i]
                cnt[i] += 1
                cnt[j] += 1
        for i in range(nv):
            P[i] = (1 - lam) * P[i] + lam * acc[i] / cnt[i]
    area = 0.0
    for t in range(tris.shape[0]):
        e1 = P[tris[t, 1]] - P[tris[t, 0]]
        e2 = P[tris[t, 2]] - P[tris[t, 0]]
        cx = e1[1] * e2[2] - e1[2] * e2[1]
        cy = e1[2] * e2[0] - e1[0] * e2[2]
        cz = e1[0] * e2[1] - e1[1] * e2[0]
        area += 0.5 * math.sqrt(cx * cx + cy * cy + cz * cz)
    return area


# ------------------------------------------------ 23. rigid body, quaternion integration
@njit(cache=True)
def quat_mul(q, r):
    w0, x0, y0, z0 = q
    w1, x1, y1, z1 = r
    return np.array([w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
                     w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
                     w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
                     w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1])


@njit(cache=True)
def rigid_body_spin(omega0, Ivec, dt=0.05, nsteps=30):
    q = np.array([1.0, 0.0, 0.0, 0.0])
    w = omega0.copy()
    I1, I2, I3 = Ivec[0], Ivec[1], Ivec[2]
    for _ in range(nsteps):
        dw = np.array([(I2 - I3) / I1 * w[1] * w[2],
                       (I3 - I1) / I2 * w[2] * w[0],
                       (I1 - I2) / I3 * w[0] * w[1]])
        w = w + dt * dw
        q = q + 0.5 * dt * quat_mul(q, np.array([0.0, w[0], w[1], w[2]]))
        q = q / np.sqrt(np.sum(q * q))
    return q[0] * q[3] + q[1] - 0.5 * q[2] * q[2]


# ---------------------------------------------- 24. counterflow heat exchangers (eps-NTU)
@njit(cache=True)
def hx_network_duty(UA, m_hot, m_cold, Th_in=400.0, Tc_in=300.0):
    cp = 4.18
    Th = Th_in
    Q = 0.0
    for k in range(UA.shape[0]):
        Ch = m_hot * cp
        Cc = m_cold[k] * cp
        Cmin = min(Ch, Cc)
        Cmax = max(Ch, Cc)
        Cr = Cmin / Cmax
        ntu = UA[k] / Cmin
        if abs(1.0 - Cr) < 1e-9:
            eff = ntu / (1.0 + ntu)
        else:
            eff = (1.0 - math.exp(-ntu * (1.0 - Cr))) / (1.0 - Cr * math.exp(-ntu * (1.0 - Cr)))
        q = eff * Cmin * (Th - Tc_in)
        Th -= q / Ch
        Q += q
    return Q


# ------------------------------------------------------- 25. intelligent driver model
@njit(cache=True)
def idm_travel(v0, T, a, b, x_init, nsteps=40, dt=0.2, s0=2.0, length=5.0):
    n = x_init.shape[0]
    x = x_init.copy()
    v = np.full(n, 10.0)
    for _ in range(nsteps):
        acc = np.empty(n)
        for i in range(n):
            if i == 0:
                acc[i] = a * (1.0 - (v[i] / v0) ** 4)
                continue
            gap = x[i - 1] - x[i] - length
            dv = v[i] - v[i - 1]
            s_star = s0 + v[i] * T + v[i] * dv / (2.0 * math.sqrt(a * b))
            acc[i] = a * (1.0 - (v[i] / v0) ** 4 - (s_star / gap) ** 2)
        v = v + dt * acc
        x = x + dt * v
    return x[-1] - x_init[-1]


# ------------------------------------------------------- 26. ARMA(1,1) conditional NLL
@njit(cache=True)
def arma11_nll(phi, theta, log_sigma, y):
    sigma2 = math.exp(2.0 * log_sigma)
    e_prev = 0.0
    nll = 0.0
    for t in range(1, y.shape[0]):
        e = y[t] - phi * y[t - 1] - theta * e_prev
        nll += 0.5 * (math.log(2.0 * math.pi * sigma2) + e * e / sigma2)
        e_prev = e
    return nll


# -------------------------------------------------------------- 27. probit regression
@njit(cache=True)
def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@njit(cache=True)
def probit_nll(beta, X, y):
    nll = 0.0
    for i in range(X.shape[0]):
        eta = 0.0
        for j in range(X.shape[1]):
            eta += X[i, j] * beta[j]
        p = norm_cdf(eta)
        p = min(max(p, 1e-12), 1.0 - 1e-12)
        if y[i] == 1:
            nll -= math.log(p)
        else:
            nll -= math.log(1.0 - p)
    return nll


# --------------------------------------------------------- 28. degree-day snowmelt
@njit(cache=True)
def snowpack_melt(ddf, t_snow, temps, precip, swe_obs):
    swe = 0.0
    err = 0.0
    for d in range(temps.shape[0]):
        T = temps[d]
        if T < t_snow:
            swe += precip[d]
        melt = ddf * (T - t_snow) if T > t_snow else 0.0
        if melt > swe:
            melt = swe
        swe -= melt
        err += (swe - swe_obs[d]) ** 2
    return err


# ------------------------------------------ 29. Chapman ozone cycle, implicit-ish steps
@njit(cache=True)
def chapman_rates(y, k):
    O, O3 = y[0], y[1]
    O2 = 1.0
    dO = 2 * k[0] * O2 - k[1] * O * O2 + k[2] * O3 - k[3] * O * O3
    dO3 = k[1] * O * O2 - k[2] * O3 - k[3] * O * O3
    return dO, dO3


@njit(cache=True)
def chapman_ozone(k, y0, dt=0.01, nsteps=60):
    O = y0[0]
    O3 = y0[1]
    total = 0.0
    for _ in range(nsteps):
        d1, d2 = chapman_rates(np.array([O, O3]), k)
        Op = O + dt * d1
        O3p = O3 + dt * d2
        e1, e2 = chapman_rates(np.array([Op, O3p]), k)
        O += 0.5 * dt * (d1 + e1)
        O3 += 0.5 * dt * (d2 + e2)
        total += O3 * dt
    return total


# ---------------------------------------------- 30. Maxwell viscoelastic stress (while)
@njit(cache=True)
def maxwell_relax(G, eta, strain_rate, t_end=2.0, dt=0.01):
    tau = eta / G
    sigma = 0.0
    t = 0.0
    work = 0.0
    while t < t_end - 1e-12:
        rate = strain_rate if t < 1.0 else 0.0
        sigma += dt * (G * rate - sigma / tau)
        work += sigma * rate * dt
        t += dt
    return work + sigma


# ================================================================ prange
# -------------------------------------------------------- 31. Boris push, many particles
@njit(parallel=True, cache=True)
def boris_push(v0, E, B, qm=1.0, dt=0.1, nsteps=20):
    n = v0.shape[0]
    ke = np.zeros(n)
    for p in prange(n):
        v = v0[p].copy()
        for _ in range(nsteps):
            vm = v + 0.5 * qm * dt * E
            t = 0.5 * qm * dt * B
            s = 2.0 * t / (1.0 + np.sum(t * t))
            vp = vm + np.cross(vm, t)
            vplus = vm + np.cross(vp, s)
            v = vplus + 0.5 * qm * dt * E
        ke[p] = 0.5 * np.sum(v * v)
    return ke.sum()


# ------------------------------------------------------ 32. CSR mat-vec, prange rows
@njit(parallel=True, cache=True)
def csr_quadratic(data, indptr, indices, x):
    n = indptr.shape[0] - 1
    total = 0.0
    for i in prange(n):
        row = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            row += data[k] * x[indices[k]]
        total += x[i] * row
    return 0.5 * total


# --------------------------------------- 33. 2-D convolution (3x3 filter) over rows
@njit(parallel=True, cache=True)
def conv2d_energy(img, w, bias):
    ny, nx = img.shape
    out = np.zeros((ny - 2, nx - 2))
    for i in prange(ny - 2):
        for j in range(nx - 2):
            s = bias
            for a in range(3):
                for c in range(3):
                    s += w[a, c] * img[i + a, j + c]
            out[i, j] = math.tanh(s)
    return np.sum(out ** 2)


# ----------------------------------------------- 34. phylogenetic site likelihoods
@njit(parallel=True, cache=True)
def site_loglik_par(bl, seqs):
    P0 = jc_matrix(bl[0])
    P1 = jc_matrix(bl[1])
    P2 = jc_matrix(bl[2])
    nsite = seqs.shape[1]
    ll = np.zeros(nsite)
    for s in prange(nsite):
        root = np.empty(4)
        for x in range(4):
            root[x] = P0[x, seqs[0, s]] * P1[x, seqs[1, s]] * P2[x, seqs[2, s]]
        ll[s] = np.log(0.25 * np.sum(root))
    return ll.sum()


# --------------------------------------------- 35. triangle areas of a deformed mesh
@njit(parallel=True, cache=True)
def mesh_area_penalty(V, tris, A0):
    nt = tris.shape[0]
    pen = 0.0
    for t in prange(nt):
        i, j, k = tris[t, 0], tris[t, 1], tris[t, 2]
        e1 = V[j] - V[i]
        e2 = V[k] - V[i]
        c = np.cross(e1, e2)
        area = 0.5 * np.sqrt(c @ c)
        pen += (area - A0[t]) ** 2
    return pen


# ---------------------------------------- 36. ray integrals through Gaussian anomalies
@njit(parallel=True, cache=True)
def ray_travel_times(amp, centers, width, rays, t_obs, nsamp=20):
    nray = rays.shape[0]
    res = np.empty(nray)
    for r in prange(nray):
        x0, y0, x1, y1 = rays[r, 0], rays[r, 1], rays[r, 2], rays[r, 3]
        length = math.hypot(x1 - x0, y1 - y0)
        tt = 0.0
        for k in range(nsamp):
            f = (k + 0.5) / nsamp
            x = x0 + f * (x1 - x0)
            y = y0 + f * (y1 - y0)
            s = 1.0
            for m in range(amp.shape[0]):
                d2 = (x - centers[m, 0]) ** 2 + (y - centers[m, 1]) ** 2
                s += amp[m] * math.exp(-d2 / (2 * width * width))
            tt += s * length / nsamp
        res[r] = tt - t_obs[r]
    return np.sum(res ** 2)


# ----------------------------------------- 37. LWR traffic ensemble, one member a thread
@njit(parallel=True, cache=True)
def lwr_ensemble(rho0, vmax, nsteps=15, dt=0.05, dx=0.2):
    nm, nc = rho0.shape
    out = np.zeros(nm)
    for m in prange(nm):
        rho = rho0[m].copy()
        for _ in range(nsteps):
            q = vmax * rho * (1.0 - rho)
            new = rho.copy()
            for i in range(1, nc):
                new[i] = rho[i] - dt / dx * (q[i] - q[i - 1])
            rho = new
        out[m] = np.sum(rho * rho)
    return np.mean(out)


# --------------------------------------------- 38. island-model demes, selection per deme
@njit(parallel=True, cache=True)
def deme_selection(s, p0, m=0.05, ngen=30):
    nd = p0.shape[0]
    final = np.zeros(nd)
    for d in prange(nd):
        p = p0[d]
        for g in range(ngen):
            w = 1.0 + s[d] * p
            p = p * (1.0 + s[d]) / w
            p = (1 - m) * p + m * 0.5
        final[d] = p
    return np.sum(final * (1.0 - final))


# --------------------------------------------- 39. tiny conv net over a batch (np.dot)
@njit(parallel=True, cache=True)
def batch_conv_net(X, w, v, y):
    nb, L = X.shape
    m = w.shape[0]
    losses = np.zeros(nb)
    for b in prange(nb):
        feat = np.empty(L - m + 1)
        for i in range(L - m + 1):
            feat[i] = math.tanh(np.dot(w, X[b, i:i + m]))
        pred = np.dot(v, feat)
        losses[b] = (pred - y[b]) ** 2
    return losses.mean()


# --------------------------------------------- 40. Sinkhorn dual objective, prange rows
@njit(parallel=True, cache=True)
def entropic_dual(f, g, C, a, b, eps=0.5):
    n, m = C.shape
    rows = np.zeros(n)
    for i in prange(n):
        acc = 0.0
        for j in range(m):
            acc += math.exp((f[i] + g[j] - C[i, j]) / eps) * b[j]
        rows[i] = a[i] * acc
    return -(np.dot(f, a) + np.dot(g, b) - eps * rows.sum())


# ================================================================ plain-Python drivers
# ----------------------------------------------------------- 41. FDTD driver
@njit(cache=True)
def fdtd_update_h(Ez, Hy, c):
    for i in range(Hy.shape[0]):
        Hy[i] += c * (Ez[i + 1] - Ez[i])


@njit(cache=True)
def fdtd_update_e(Ez, Hy, ce):
    for i in range(1, Ez.shape[0] - 1):
        Ez[i] += ce[i] * (Hy[i] - Hy[i - 1])


def fdtd_driver(eps_r, pulse, nsteps=30):
    n = eps_r.shape[0]
    Ez = np.zeros(n)
    Hy = np.zeros(n - 1)
    ce = 0.5 / eps_r
    energy = 0.0
    for t in range(nsteps):
        fdtd_update_h(Ez, Hy, 0.5)
        fdtd_update_e(Ez, Hy, ce)
        if t < pulse.shape[0]:
            Ez[2] += pulse[t]
        energy += float(Ez[-3] ** 2)
    return energy


# ----------------------------------------------------------- 42. cloth springs driver
@njit(cache=True)
def spring_forces(X, springs, rest, k, F):
    F[:] = 0.0
    for s in range(springs.shape[0]):
        i, j = springs[s, 0], springs[s, 1]
        d = X[j] - X[i]
        L = np.sqrt(np.sum(d * d))
        f = k * (L - rest[s]) * d / L
        F[i] += f
        F[j] -= f


def cloth_driver(X0, rest, springs, k=50.0, dt=0.01, nsteps=20):
    X = X0.copy()
    V = np.zeros_like(X)
    F = np.zeros_like(X)
    g = np.array([0.0, 0.0, -9.81])
    for _ in range(nsteps):
        spring_forces(X, springs, rest, k, F)
        V = 0.98 * V + dt * (F + g)
        V[0] = 0.0
        V[1] = 0.0
        X = X + dt * V
    return float(np.sum(X[:, 2]))


# ----------------------------------------------------------- 43. Sinkhorn driver
@njit(cache=True)
def sinkhorn_half(K, v, a, u):
    u[:] = a / (K @ v)


def sinkhorn_driver(a, b, C, eps=0.4, iters=20):
    K = np.exp(-C / eps)
    u = np.ones(a.shape[0])
    v = np.ones(b.shape[0])
    KT = np.ascontiguousarray(K.T)
    for _ in range(iters):
        sinkhorn_half(K, v, a, u)
        sinkhorn_half(KT, u, b, v)
    return float(u @ (K * C) @ v)


# ----------------------------------------------------------- 44. reservoir driver
@njit(cache=True)
def upwind_flux(S, M, q, out):
    for i in range(S.shape[0]):
        s2 = S[i] * S[i]
        out[i] = q * s2 / (s2 + M * (1.0 - S[i]) ** 2)


def reservoir_driver(S0, M, q, nsteps=15, dtdx=0.15):
    S = S0.copy()
    f = np.empty_like(S)
    water_cut = []
    for _ in range(nsteps):
        upwind_flux(S, M, q, f)
        S[1:] -= dtdx * (f[1:] - f[:-1])
        water_cut.append(f[-1] / q)
    return sum(water_cut) / len(water_cut)


# ----------------------------------------------------------- 45. battery SPM driver
@njit(cache=True)
def spm_step(c, Ds, I, dt):
    nr = c.shape[0]
    dr = 1.0 / nr
    new = c.copy()
    for i in range(nr):
        r_in = i * dr
        r_out = (i + 1) * dr
        vol = ((r_out ** 3) - (r_in ** 3)) / 3.0
        fin = Ds * r_in * r_in * (c[i] - c[i - 1]) / dr if i > 0 else 0.0
        fout = Ds * r_out * r_out * (c[i + 1] - c[i]) / dr if i < nr - 1 else -I
        new[i] = c[i] + dt * (fout - fin) / vol
    return new


@njit(cache=True)
def ocv(x):
    return 4.2 - 0.8 * x + 0.05 * math.log(x / (1.0 - x))


def spm_driver(c0, Ds, I, R_ohm, nsteps=25, dt=0.002):
    c = c0.copy()
    volts = np.zeros(nsteps)
    for k in range(nsteps):
        c = spm_step(c, Ds, I, dt)
        volts[k] = ocv(c[-1]) - I * R_ohm
    return float(np.mean(volts) - volts.min())


# ===================================================================== CUDA kernels
# each with the same math in NumPy (updates its arguments in place, float64)

@cuda.jit
def fdtd_h_cuda(Ez, Hy, c):
    i = cuda.grid(1)
    if i < Hy.shape[0]:
        Hy[i] += c[0] * (Ez[i + 1] - Ez[i])


def fdtd_h_cuda_np(Ez, Hy, c):
    Hy += c[0] * (Ez[1:] - Ez[:-1])


@cuda.jit
def csr_spmv_cuda(data, indptr, indices, x, y):
    row = cuda.grid(1)
    if row >= y.shape[0]:
        return
    acc = 0.0
    for k in range(indptr[row], indptr[row + 1]):
        acc += data[k] * x[indices[k]]
    y[row] = acc


def csr_spmv_cuda_np(data, indptr, indices, x, y):
    for r in range(y.shape[0]):
        y[r] = np.sum(data[indptr[r]:indptr[r + 1]] * x[indices[indptr[r]:indptr[r + 1]]])


@cuda.jit(device=True)
def rotate(vx, vy, t):
    return vx + vy * t, vy - vx * t


@cuda.jit
def boris_cuda(v, E, Bz, dt):
    p = cuda.grid(1)
    if p < v.shape[0]:
        h = 0.5 * dt[0]
        vx = v[p, 0] + h * E[0]
        vy = v[p, 1] + h * E[1]
        t = h * Bz[0]
        s = 2.0 * t / (1.0 + t * t)
        px, py = rotate(vx, vy, t)
        vx = vx + py * s
        vy = vy - px * s
        v[p, 0] = vx + h * E[0]
        v[p, 1] = vy + h * E[1]


def boris_cuda_np(v, E, Bz, dt):
    vx = v[:, 0] + 0.5 * dt[0] * E[0]
    vy = v[:, 1] + 0.5 * dt[0] * E[1]
    t = 0.5 * dt[0] * Bz[0]
    s = 2.0 * t / (1.0 + t * t)
    px = vx + vy * t
    py = vy - vx * t
    vx2 = vx + py * s
    vy2 = vy - px * s
    v[:, 0] = vx2 + 0.5 * dt[0] * E[0]
    v[:, 1] = vy2 + 0.5 * dt[0] * E[1]


@cuda.jit
def gibbs_kernel_cuda(C, u, v, eps, P):
    i, j = cuda.grid(2)
    if i < P.shape[0] and j < P.shape[1]:
        P[i, j] = u[i] * math.exp(-C[i, j] / eps[0]) * v[j]


def gibbs_kernel_cuda_np(C, u, v, eps, P):
    P[:] = u[:, None] * np.exp(-C / eps[0]) * v[None, :]


@cuda.jit
def smooth_cuda(u, lam, out):
    i, j = cuda.grid(2)
    ny, nx = u.shape
    if i < 1 or j < 1 or i >= ny - 1 or j >= nx - 1:
        return
    lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
    out[i, j] = u[i, j] + lam[0] * lap


def smooth_cuda_np(u, lam, out):
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
    out[1:-1, 1:-1] = u[1:-1, 1:-1] + lam[0] * lap


def cuda_cases():
    """name -> (cuda kernel, NumPy reference, args, activity, (griddim, blockdim))."""
    g = np.random.default_rng(14)
    indptr = np.array([0, 2, 5, 7, 9, 10])
    indices = np.array([0, 3, 0, 1, 4, 2, 3, 1, 4, 0])
    return {
        "fdtd_h_cuda": (fdtd_h_cuda, fdtd_h_cuda_np, [g.standard_normal(17), g.standard_normal(16), np.array([0.5])],
                        ("dup", "dup", "dup"), (1, 32)),
        "csr_spmv_cuda": (csr_spmv_cuda, csr_spmv_cuda_np, [g.standard_normal(10), indptr, indices,
                                                            g.standard_normal(5), np.zeros(5)],
                          ("dup", "const", "const", "dup", "dup"), (1, 8)),
        "boris_cuda": (boris_cuda, boris_cuda_np, [g.standard_normal((12, 2)), np.array([0.3, -0.2]), np.array([1.5]),
                                                   np.array([0.1])],
                       ("dup", "dup", "dup", "const"), (1, 16)),
        "gibbs_kernel_cuda": (gibbs_kernel_cuda, gibbs_kernel_cuda_np, [g.uniform(0, 2, (5, 6)), g.uniform(0.5, 1.5, 5),
                                                                        g.uniform(0.5, 1.5, 6), np.array([0.7]),
                                                                        np.zeros((5, 6))],
                              ("dup", "dup", "dup", "dup", "dup"), ((1, 1), (8, 8))),
        "smooth_cuda": (smooth_cuda, smooth_cuda_np, [g.standard_normal((6, 7)), np.array([0.2]), np.zeros((6, 7))],
                        ("dup", "dup", "dup"), ((1, 1), (8, 8))),
    }


# ============================== lists of arrays returned by helpers (refused at their line)
@njit(cache=True)
def sine_row(x, c):
    return np.sin(x) * c


@njit(cache=True)
def helper_rows_list(x):
    rows = []
    for k in range(3):
        rows.append(sine_row(x, k + 1.0))
    A = np.array(rows)
    return np.sum(A * A)


@njit(cache=True)
def helper_scalars_list(x):
    vals = [math.exp(-x[k]) * x[k] + sine_row(x, 1.0)[k] for k in range(x.shape[0])]
    s = 0.0
    for v in vals:
        s += v * v
    return s


@njit(cache=True)
def pruning_preallocated(bl, seqs):
    """pruning_loglik as the refusal's hint writes it: a 3-D array, ``P[k] = jc_matrix(bl[k])``."""
    P = np.empty((5, 4, 4))
    for k in range(5):
        P[k] = jc_matrix(bl[k])
    ll = 0.0
    for s in range(seqs.shape[1]):
        tip = np.zeros((4, 4))
        for k in range(4):
            tip[k, seqs[k, s]] = 1.0
        left = (P[0] @ tip[0]) * (P[1] @ tip[1])
        right = (P[2] @ tip[2]) * (P[3] @ tip[3])
        root = left * (P[4] @ right)
        ll += math.log(0.25 * root.sum())
    return ll


# ============================== np.ascontiguousarray in a driver (differentiated as a copy)
@njit(cache=True)
def scale_rows(A, s):
    for i in range(A.shape[0]):
        A[i] *= s[i]


def contiguous_copy_driver(X, s):
    """A strided view and a transpose made contiguous (copies), then written by a kernel."""
    Y = np.ascontiguousarray(X[:, ::2])
    scale_rows(Y, s)
    Z = np.asfortranarray(X[::-1])
    return float(np.sum(Y * Y) + np.sum(np.sin(Z)) + np.sum(X))


def contiguous_alias_driver(X, s):
    """``X`` already contiguous: ``np.ascontiguousarray(X)`` is ``X`` itself, and the kernel
    writing ``Y`` writes ``X`` too: refused at run time, not taken as a copy."""
    Y = np.ascontiguousarray(X)
    scale_rows(Y, s)
    return float(np.sum(X * X))

"""Kernels for tests/test_newuser10.py (a new user's tenth trial, issue 13): ``@njit(parallel=True)``
kernels with ``prange`` over pixels, particles, rows and ensemble members (per-iteration
temporaries, row views, inner loops, ``np.dot`` of rows, early ``continue``), and plain-Python
drivers calling several kernels in a time loop with NumPy in between."""
import math

import numpy as np
from numba import njit, prange


# 1. image denoising: smoothed total variation, prange over pixel rows, borders skipped
@njit(parallel=True, cache=True)
def tv_energy(u, f, lam, eps):
    ny, nx = u.shape
    e = 0.0
    for i in prange(ny):
        for j in range(nx):
            r = u[i, j] - f[i, j]
            e += 0.5 * lam * r * r
            if i == ny - 1 or j == nx - 1:
                continue
            gx = u[i, j + 1] - u[i, j]
            gy = u[i + 1, j] - u[i, j]
            e += math.sqrt(gx * gx + gy * gy + eps)
    return e


# 2. particle-in-cell: charge deposit (serial scatter), field solve (prange), driver time loop
@njit(cache=True)
def deposit(xp, q, rho, dx):
    n = rho.shape[0]
    rho[:] = 0.0
    for p in range(xp.shape[0]):
        s = xp[p] / dx
        k = int(math.floor(s))
        w = s - k
        rho[k % n] += q[p] * (1.0 - w)
        rho[(k + 1) % n] += q[p] * w


@njit(parallel=True, cache=True)
def field_from_rho(rho, E, dx):
    n = rho.shape[0]
    mean = np.mean(rho)
    for i in prange(n):
        E[i] = 0.0
        for j in range(n):
            d = (i - j) * dx
            E[i] += (rho[j] - mean) * math.tanh(d)


@njit(parallel=True, cache=True)
def push(xp, vp, E, dx, dt, L):
    n = E.shape[0]
    for p in prange(xp.shape[0]):
        s = xp[p] / dx
        k = int(math.floor(s))
        w = s - k
        Ep = E[k % n] * (1.0 - w) + E[(k + 1) % n] * w
        vp[p] += dt * Ep
        xp[p] = (xp[p] + dt * vp[p]) % L


def pic_driver(xp, vp, q, nsteps):
    n, L = 16, 1.0
    dx = L / n
    rho = np.zeros(n)
    E = np.zeros(n)
    x = xp.copy()
    v = vp.copy()
    for step in range(nsteps):
        deposit(x, q, rho, dx)
        field_from_rho(rho, E, dx)
        push(x, v, E, dx, 0.01, L)
    return 0.5 * np.sum(v * v) + np.sum(E[: n // 2] ** 2)


# 3. batched pendulum ensemble: prange over members, RK2 inside, local np.empty(2)
@njit(parallel=True, cache=True)
def pendulum_ensemble(theta0, omega0, g_over_l, dt, nsteps, out):
    for m in prange(theta0.shape[0]):
        y = np.empty(2)
        y[0] = theta0[m]
        y[1] = omega0[m]
        for k in range(nsteps):
            k1 = np.empty(2)
            k1[0] = y[1]
            k1[1] = -g_over_l[m] * math.sin(y[0])
            ym0 = y[0] + 0.5 * dt * k1[0]
            ym1 = y[1] + 0.5 * dt * k1[1]
            y[0] += dt * ym1
            y[1] += dt * (-g_over_l[m] * math.sin(ym0))
        out[m] = y[0] * y[0] + 0.1 * y[1] * y[1]


# 4. Nadaraya-Watson kernel regression: prange over queries, row views, np.dot of row differences
@njit(parallel=True, cache=True)
def nadaraya_watson(Xq, X, y, h, pred):
    for i in prange(Xq.shape[0]):
        xi = Xq[i]
        num = 0.0
        den = 0.0
        for j in range(X.shape[0]):
            d = xi - X[j]
            w = math.exp(-np.dot(d, d) / (2.0 * h * h))
            num += w * y[j]
            den += w
        pred[i] = num / den


def nw_loss(Xq, X, y, h, yq):
    pred = np.zeros(Xq.shape[0])
    nadaraya_watson(Xq, X, y, h, pred)
    return np.mean((pred - yq) ** 2)


# 5. per-row softmax cross-entropy: prange over rows, ignore label -1 with continue
@njit(parallel=True, cache=True)
def softmax_xent(logits, labels):
    n, c = logits.shape
    loss = 0.0
    for i in prange(n):
        if labels[i] < 0:
            continue
        row = logits[i]
        m = np.max(row)
        s = 0.0
        for k in range(c):
            s += math.exp(row[k] - m)
        loss += m + math.log(s) - row[labels[i]]
    return loss / n


# 6. Gauss-Legendre quadrature over panels: nodes and weights as arguments
@njit(parallel=True, cache=True)
def gl_quadrature(a, edges, nodes, weights):
    total = 0.0
    for p in prange(edges.shape[0] - 1):
        lo = edges[p]
        hi = edges[p + 1]
        half = 0.5 * (hi - lo)
        mid = 0.5 * (hi + lo)
        acc = 0.0
        for q in range(nodes.shape[0]):
            t = mid + half * nodes[q]
            acc += weights[q] * (a[0] * math.exp(-a[1] * t * t) + a[2] * math.cos(t))
        total += half * acc
    return total


# 7. metric MDS stress: prange over i, local np.empty(3) difference vector
@njit(parallel=True, cache=True)
def mds_stress(X, D):
    n = X.shape[0]
    s = 0.0
    for i in prange(n):
        diff = np.empty(3)
        for j in range(i + 1, n):
            for k in range(3):
                diff[k] = X[i, k] - X[j, k]
            r = math.sqrt(diff[0] ** 2 + diff[1] ** 2 + diff[2] ** 2)
            s += (r - D[i, j]) ** 2
    return s


# 8. kernel density estimate: prange over evaluation points, log-likelihood of held-out points
@njit(parallel=True, cache=True)
def kde_loglik(data, bw, pts):
    n = data.shape[0]
    ll = 0.0
    for i in prange(pts.shape[0]):
        dens = 0.0
        for j in range(n):
            z = (pts[i] - data[j]) / bw[0]
            dens += math.exp(-0.5 * z * z)
        ll += math.log(dens / (n * bw[0] * math.sqrt(2.0 * math.pi)))
    return ll


# 9. car-following (IDM) on a ring road: kernel for accelerations, driver time loop
@njit(parallel=True, cache=True)
def idm_accel(x, v, xlead, vlead, v0, T, a_max, b, s0, acc):
    for i in prange(x.shape[0]):
        gap = xlead[i] - x[i] - 5.0
        dv = v[i] - vlead[i]
        s_star = s0 + v[i] * T + v[i] * dv / (2.0 * math.sqrt(a_max * b))
        acc[i] = a_max * (1.0 - (v[i] / v0) ** 4 - (s_star / gap) ** 2)


def traffic_driver(x0, v0s, params, nsteps):
    L = 500.0
    dt = 0.1
    x = x0.copy()
    v = v0s.copy()
    acc = np.zeros_like(x)
    for t in range(nsteps):
        xlead = np.concatenate((x[1:], x[:1] + L))
        vlead = np.concatenate((v[1:], v[:1]))
        idm_accel(x, v, xlead, vlead, params[0], params[1], params[2], params[3], params[4], acc)
        v = v + dt * acc
        x = x + dt * v
    return np.mean(v) + 0.01 * np.sum(x - x0)


# 10. zonal energy-balance climate model: two kernels, driver time loop
@njit(parallel=True, cache=True)
def ebm_source(T, lat, S0, A, B, src):
    for i in prange(T.shape[0]):
        albedo = 0.3 + 0.3 * math.tanh(-(T[i] + 10.0) / 5.0)
        insol = S0 * 0.25 * (1.0 - 0.48 * (3.0 * math.sin(lat[i]) ** 2 - 1.0) / 2.0)
        src[i] = insol * (1.0 - albedo) - (A + B * T[i])


@njit(cache=True)
def ebm_diffuse(T, D, dphi, out):
    n = T.shape[0]
    for i in range(n):
        lo = T[i - 1] if i > 0 else T[i]
        hi = T[i + 1] if i < n - 1 else T[i]
        out[i] = D * (lo - 2.0 * T[i] + hi) / (dphi * dphi)


def ebm_driver(T0, lat, params, nsteps):
    dt = 0.05
    T = T0.copy()
    src = np.empty_like(T)
    dif = np.empty_like(T)
    dphi = lat[1] - lat[0]
    for k in range(nsteps):
        ebm_source(T, lat, params[0], params[1], params[2], src)
        ebm_diffuse(T, params[3], dphi, dif)
        T = T + dt * (src + dif) / 10.0
    w = np.cos(lat)
    return np.sum(w * T) / np.sum(w) + 0.001 * np.mean(T[: T.shape[0] // 2] ** 2)


# 11. Lennard-Jones-like pair energy: prange over particles, row views, np.dot of row differences
@njit(parallel=True, cache=True)
def pair_energy(R, eps):
    n = R.shape[0]
    e = 0.0
    for i in prange(n):
        ri = R[i]
        for j in range(n):
            if j == i:
                continue
            d = ri - R[j]
            r2 = np.dot(d, d)
            inv6 = 1.0 / (r2 * r2 * r2)
            e += 0.5 * eps * (inv6 * inv6 - inv6)
    return e


# 12. per-row normalisation writing an output matrix: prange over rows, row temporaries
@njit(parallel=True, cache=True)
def row_standardise(X, out):
    n, m = X.shape
    for i in prange(n):
        row = X[i]
        mu = np.mean(row)
        c = row - mu
        sd = math.sqrt(np.dot(c, c) / m + 1e-3)
        out[i, :] = c / sd


# ---- second batch: forms users write next ----
# 13. Kepler's equation per orbit: prange over orbits, Newton while loop with a tolerance inside
@njit(parallel=True, cache=True)
def kepler_positions(M, ecc, out):
    for i in prange(M.shape[0]):
        E = M[i]
        err = 1.0
        while err > 1e-13:
            dE = (E - ecc[i] * math.sin(E) - M[i]) / (1.0 - ecc[i] * math.cos(E))
            E -= dE
            err = abs(dE)
        out[i] = math.cos(E) - ecc[i]


# 14. flattened pixel loop: prange over ny * nx, i, j from divmod; data-dependent continue
@njit(parallel=True, cache=True)
def masked_smoothness(u, mask):
    ny, nx = u.shape
    e = 0.0
    for p in prange((ny - 1) * (nx - 1)):
        i = p // (nx - 1)
        j = p % (nx - 1)
        if mask[i, j] == 0:
            continue
        d = u[i + 1, j + 1] - u[i, j]
        if abs(d) > 2.0:
            continue
        e += d * d
    return e


# 15. softmax probabilities written row by row, weights shared by all rows (np.dot of rows)
@njit(parallel=True, cache=True)
def linear_softmax(X, W, P):
    for i in prange(X.shape[0]):
        z = np.empty(W.shape[0])
        for k in range(W.shape[0]):
            z[k] = np.dot(X[i], W[k])
        z = z - np.max(z)
        ez = np.exp(z)
        P[i] = ez / np.sum(ez)


# 16. per-particle RK2 through a helper returning an array
@njit(cache=True)
def pend_rhs(y, g):
    r = np.empty(2)
    r[0] = y[1]
    r[1] = -g * math.sin(y[0])
    return r


@njit(parallel=True, cache=True)
def pendulum_helper(Y0, g, dt, nsteps, out):
    for m in prange(Y0.shape[0]):
        y = Y0[m].copy()
        for k in range(nsteps):
            k1 = pend_rhs(y, g)
            k2 = pend_rhs(y + 0.5 * dt * k1, g)
            y = y + dt * k2
        out[m] = y


# 17. cut-off pair energy, data-dependent continue, whole-array prange reduction of forces' norm
@njit(parallel=True, cache=True)
def cutoff_energy(R, rc):
    n = R.shape[0]
    e = 0.0
    for i in prange(n):
        for j in range(i + 1, n):
            d = R[i] - R[j]
            r2 = np.sum(d * d)
            if r2 > rc * rc:
                continue
            e += (1.0 - math.sqrt(r2) / rc) ** 2
    return e


# 18. max-reduction in prange (a soft-worst-case objective) and product reduction
@njit(parallel=True, cache=True)
def worst_and_product(x):
    m = -1e300
    p = 1.0
    for i in prange(x.shape[0]):
        v = x[i] * x[i] + math.sin(x[i])
        m = max(m, v)
        p *= 1.0 + 0.1 * x[i]
    return m + p


# 19. driver with an adaptive time step (CFL from np.max of |v|) and a while loop
@njit(parallel=True, cache=True)
def advect(u, c, dt, dx, out):
    n = u.shape[0]
    for i in prange(n):
        im = i - 1 if i > 0 else n - 1
        out[i] = u[i] - c[i] * dt / dx * (u[i] - u[im])


def cfl_driver(u0, c, t_end):
    dx = 1.0 / u0.shape[0]
    u = u0.copy()
    un = np.empty_like(u)
    t = 0.0
    while t < t_end:
        dt = min(0.5 * dx / np.max(np.abs(c)), t_end - t)
        advect(u, c, dt, dx, un)
        u, un = un, u
        t += dt
    return np.sum(u * u) * dx


# 20. driver with ghost padding by np.concatenate, history array, loss against observations
@njit(parallel=True, cache=True)
def heat_interior(up, kappa, out):
    for i in prange(out.shape[0]):
        out[i] = up[i + 1] + kappa * (up[i] - 2.0 * up[i + 1] + up[i + 2])


def heat_fit_driver(u0, kappa, obs):
    nsteps = obs.shape[0]
    u = u0.copy()
    hist = np.zeros((nsteps, u.shape[0]))
    new = np.empty_like(u)
    for k in range(nsteps):
        up = np.concatenate((u[:1], u, u[-1:]))
        heat_interior(up, kappa, new)
        u = new.copy()
        hist[k] = u
    return np.mean((hist - obs) ** 2)


# 21. driver: kernel returning a scalar inside a time loop, list of losses, sum()
@njit(parallel=True, cache=True)
def misfit(u, target):
    s = 0.0
    for i in prange(u.shape[0]):
        s += (u[i] - target[i]) ** 2
    return s


@njit(cache=True)
def relax(u, rate):
    for i in range(u.shape[0]):
        u[i] = u[i] - rate * math.sin(u[i])


def relax_driver(u0, target, rate):
    u = u0.copy()
    losses = []
    for k in range(4):
        relax(u, rate)
        losses.append(misfit(u, target))
    return sum(losses) / len(losses) + float(np.max(u))


# 22. nested prange over a 2-d grid with a per-pixel local window
@njit(parallel=True, cache=True)
def box_blur_energy(img, wts):
    ny, nx = img.shape
    e = 0.0
    for i in prange(1, ny - 1):
        for j in prange(1, nx - 1):
            win = img[i - 1:i + 2, j - 1:j + 2]
            b = np.sum(win * wts)
            e += (b - img[i, j]) ** 2
    return e


# 23. driver calling a kernel with slice views as arguments and a keyword argument
@njit(cache=True)
def scale_into(src, dst, factor=2.0):
    for i in range(src.shape[0]):
        dst[i] = factor * src[i] + dst[i] * 0.5


def slice_driver(a, b):
    c = b.copy()
    scale_into(a[1:], c[:-1], factor=1.5)
    scale_into(a[:-1], c[1:])
    return np.sum(c ** 2) + np.mean(np.stack((a, c)))


# 24. prange whole-array reduction: histogram-free moments accumulated into a small array
@njit(parallel=True, cache=True)
def moments(x, w):
    acc = np.zeros(3)
    for i in prange(x.shape[0]):
        acc += w[i] * np.array([1.0, x[i], x[i] * x[i]])
    mu = acc[1] / acc[0]
    return acc[2] / acc[0] - mu * mu


@njit(parallel=True, cache=True)
def product_only(x):
    p = 1.0
    for i in prange(x.shape[0]):
        p *= 1.0 + 0.1 * x[i]
    return p


@njit(parallel=True, cache=True)
def worst_by_array(x):
    vals = np.empty(x.shape[0])
    for i in prange(x.shape[0]):
        vals[i] = x[i] * x[i] + math.sin(x[i])
    return np.max(vals)


@njit(parallel=True, cache=True)
def min_reduction(x):
    m = 1e300
    for i in prange(x.shape[0]):
        m = min(m, math.cos(x[i]) + x[i])
    return m


@njit(parallel=True, cache=True)
def peak_interior(u, w):
    """A max over an inner loop, a prange starting at 1, a continue before the update."""
    n = u.shape[0]
    peak = 0.0
    for i in prange(1, n):
        if w[i] < 0.0:
            continue
        for j in range(3):
            peak = max(peak, w[i] * u[i - 1] * (j + 1.0) - u[i] * u[i])
    return peak


@njit(parallel=True, cache=True)
def first_max_prange(x):
    m = -1e300
    for i in prange(x.shape[0]):
        m = max(m, x[i] * x[i])
    return m


@njit(cache=True)
def first_max_serial(x):
    m = -1e300
    for i in range(x.shape[0]):
        m = max(m, x[i] * x[i])
    return m


@njit(parallel=True, cache=True)
def running_max_read(x):
    """The running maximum is read by every iteration: a recurrence, not a reduction."""
    m = 0.0
    s = 0.0
    for i in prange(x.shape[0]):
        m = max(m, x[i])
        s += m
    return s


def stack_driver(A, B, w):
    S = np.stack((A, B), axis=-1)
    V = np.vstack((A[0], B[1], w))
    H = np.hstack((A, B))
    return np.sum(S ** 3) + np.sum(V * V * np.arange(3.0)[:, None]) + np.sum(np.sin(H))


@njit(parallel=True, cache=True)
def scaled_rows_product(X):
    """`acc *= ...` of a local array in a prange is Numba's whole-array reduction, not rewritten."""
    acc = np.ones(X.shape[1])
    for i in prange(X.shape[0]):
        acc *= 1.0 + 0.1 * X[i]
    return np.sum(acc)

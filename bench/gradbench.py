"""The six GradBench kernels (gradbench/gradbench, evals/*/README.md and the C++ reference
cpp/gradbench/evals/*.hpp) written as a Numba user would write them: plain loops in ``@njit``.

- ``lse(x)``: log-sum-exp with the max trick.
- ``llsq(x, n)``: linear least squares objective (cmpad llsq_obj), t_i = -1 + 2 i / (n - 1).
- ``ode(x, s, yf)``: explicit Runge-Kutta 4 of y0' = x0, yi' = xi y(i-1), y(0) = 0, tf = 2,
  ``s`` steps; the result is written into ``yf``; the eval differentiates ``yf[n - 1]``.
- ``gmm(alpha, mu, q, l, x, gamma, m)``: log posterior of a Gaussian mixture with a Wishart
  prior (ADBench/GradBench gmm, precision factor Q = diag(exp q) + strictly lower l).
- ``ba(cams, X, w, obs, feats, reproj_err, w_err)``: bundle adjustment residuals (ADBench).
- ``kmeans(points, centroids)``: sum over points of the squared distance to the nearest
  centroid.

Arrays are 2-D where the eval's are (``mu[k, d]``); the shapes are in each docstring.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def lse(x):
    """log(sum(exp(x))) of a 1-D float64 array, computed as a + log(sum(exp(x - a)))."""
    n = x.shape[0]
    a = x[0]
    for i in range(1, n):
        a = max(a, x[i])
    s = 0.0
    for i in range(n):
        s += math.exp(x[i] - a)
    return math.log(s) + a


@njit(cache=True)
def llsq(x, n):
    """0.5 * sum_i (sign(t_i) - sum_j x[j] t_i^j)^2 over n points t_i in [-1, 1]; x: (m,)."""
    m = x.shape[0]
    total = 0.0
    for i in range(n):
        ti = -1.0 + i * 2.0 / (n - 1)
        inner = 0.0
        if ti > 0.0:
            inner = 1.0
        elif ti < 0.0:
            inner = -1.0
        mul = 1.0
        for j in range(m):
            inner -= x[j] * mul
            mul *= ti
        total += inner * inner
    return total / 2.0


@njit(cache=True)
def ode(x, s, yf):
    """Runge-Kutta 4 with ``s`` steps on [0, 2]; x, yf: (n,); yf is overwritten with y(2)."""
    n = x.shape[0]
    h = 2.0 / s
    k1 = np.empty(n)
    k2 = np.empty(n)
    k3 = np.empty(n)
    k4 = np.empty(n)
    yt = np.empty(n)
    for i in range(n):
        yf[i] = 0.0
    for step in range(s):
        k1[0] = x[0]
        for i in range(1, n):
            k1[i] = x[i] * yf[i - 1]
        for i in range(n):
            yt[i] = yf[i] + h * k1[i] / 2.0
        k2[0] = x[0]
        for i in range(1, n):
            k2[i] = x[i] * yt[i - 1]
        for i in range(n):
            yt[i] = yf[i] + h * k2[i] / 2.0
        k3[0] = x[0]
        for i in range(1, n):
            k3[i] = x[i] * yt[i - 1]
        for i in range(n):
            yt[i] = yf[i] + h * k3[i]
        k4[0] = x[0]
        for i in range(1, n):
            k4[i] = x[i] * yt[i - 1]
        for i in range(n):
            yf[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0


@njit(cache=True)
def gmm(alpha, mu, q, l, x, gamma, m):
    """GMM log posterior. alpha: (k,), mu, q: (k, d), l: (k, d (d - 1) / 2), x: (n, d);
    gamma: Wishart precision, m: extra degrees of freedom (int)."""
    k = mu.shape[0]
    d = mu.shape[1]
    n = x.shape[0]
    qdiag = np.empty((k, d))
    sum_q = np.empty(k)
    for c in range(k):
        sq = 0.0
        for j in range(d):
            qdiag[c, j] = math.exp(q[c, j])
            sq += q[c, j]
        sum_q[c] = sq
    xc = np.empty(d)
    qx = np.empty(d)
    main = np.empty(k)
    slse = 0.0
    for p in range(n):
        for c in range(k):
            for j in range(d):
                xc[j] = x[p, j] - mu[c, j]
            for j in range(d):
                qx[j] = qdiag[c, j] * xc[j]
            li = 0
            for i in range(d):
                for j in range(i + 1, d):
                    qx[j] = qx[j] + l[c, li] * xc[i]
                    li += 1
            sqn = 0.0
            for j in range(d):
                sqn += qx[j] * qx[j]
            main[c] = alpha[c] + sum_q[c] - 0.5 * sqn
        mx = main[0]
        for c in range(1, k):
            mx = max(mx, main[c])
        se = 0.0
        for c in range(k):
            se += math.exp(main[c] - mx)
        slse += math.log(se) + mx
    ma = alpha[0]
    for c in range(1, k):
        ma = max(ma, alpha[c])
    sa = 0.0
    for c in range(k):
        sa += math.exp(alpha[c] - ma)
    lse_alpha = math.log(sa) + ma
    nw = d + m + 1
    lgam = 0.25 * d * (d - 1) * math.log(math.pi)
    for j in range(1, d + 1):
        lgam += math.lgamma(0.5 * nw + 0.5 * (1 - j))
    cw = nw * d * (math.log(gamma) - 0.5 * math.log(2.0)) - lgam
    prior = 0.0
    for c in range(k):
        fro = 0.0
        for j in range(d):
            fro += qdiag[c, j] * qdiag[c, j]
        for j in range(l.shape[1]):
            fro += l[c, j] * l[c, j]
        prior += 0.5 * gamma * gamma * fro - m * sum_q[c]
    const = -n * d * 0.5 * math.log(2.0 * math.pi)
    return const + slse - n * lse_alpha - prior + k * cw


@njit(cache=True)
def ba(cams, X, w, obs, feats, reproj_err, w_err):
    """Bundle adjustment residuals. cams: (N, 11) [r(3), C(3), f, u0, v0, k1, k2], X: (M, 3),
    w: (P,), obs: (P, 2) int (camera, point), feats: (P, 2); writes reproj_err (P, 2), w_err (P,)."""
    p = obs.shape[0]
    for i in range(p):
        c = obs[i, 0]
        pt = obs[i, 1]
        x0 = X[pt, 0] - cams[c, 3]
        x1 = X[pt, 1] - cams[c, 4]
        x2 = X[pt, 2] - cams[c, 5]
        r0 = cams[c, 0]
        r1 = cams[c, 1]
        r2 = cams[c, 2]
        sqtheta = r0 * r0 + r1 * r1 + r2 * r2
        if sqtheta != 0.0:
            theta = math.sqrt(sqtheta)
            ct = math.cos(theta)
            st = math.sin(theta)
            w0 = r0 / theta
            w1 = r1 / theta
            w2 = r2 / theta
            tmp = (w0 * x0 + w1 * x1 + w2 * x2) * (1.0 - ct)
            y0 = x0 * ct + (w1 * x2 - w2 * x1) * st + w0 * tmp
            y1 = x1 * ct + (w2 * x0 - w0 * x2) * st + w1 * tmp
            y2 = x2 * ct + (w0 * x1 - w1 * x0) * st + w2 * tmp
        else:
            y0 = x0 + (r1 * x2 - r2 * x1)
            y1 = x1 + (r2 * x0 - r0 * x2)
            y2 = x2 + (r0 * x1 - r1 * x0)
        p0 = y0 / y2
        p1 = y1 / y2
        rsq = p0 * p0 + p1 * p1
        L = 1.0 + cams[c, 9] * rsq + cams[c, 10] * rsq * rsq
        reproj_err[i, 0] = w[i] * (p0 * L * cams[c, 6] + cams[c, 7] - feats[i, 0])
        reproj_err[i, 1] = w[i] * (p1 * L * cams[c, 6] + cams[c, 8] - feats[i, 1])
        w_err[i] = 1.0 - w[i] * w[i]


@njit(cache=True)
def kmeans(points, centroids):
    """sum_i min_j |centroids[j] - points[i]|^2; points: (n, d), centroids: (k, d)."""
    n = points.shape[0]
    k = centroids.shape[0]
    d = points.shape[1]
    cost = 0.0
    for i in range(n):
        closest = math.inf
        for j in range(k):
            dist = 0.0
            for e in range(d):
                diff = points[i, e] - centroids[j, e]
                dist += diff * diff
            closest = min(closest, dist)
        cost += closest
    return cost


# --------------------------------------------------------------------------- inputs

def lse_input(n, rng):
    return (rng.standard_normal(n),)


def llsq_input(n, m, rng):
    return (rng.standard_normal(m), n)


def ode_input(n, s, rng):
    return (rng.uniform(0.1, 1.0, n), s, np.zeros(n))


def gmm_input(d, k, n, rng):
    alpha = rng.standard_normal(k)
    mu = rng.standard_normal((k, d))
    q = 0.1 * rng.standard_normal((k, d))
    l = 0.1 * rng.standard_normal((k, d * (d - 1) // 2))
    x = rng.standard_normal((n, d))
    return alpha, mu, q, l, x, 1.0, 0


def ba_input(ncam, npt, nobs, rng):
    cams = np.empty((ncam, 11))
    cams[:, 0:3] = 0.1 * rng.standard_normal((ncam, 3))
    cams[:, 3:6] = rng.standard_normal((ncam, 3))
    cams[:, 6] = rng.uniform(400, 600, ncam)
    cams[:, 7:9] = rng.standard_normal((ncam, 2))
    cams[:, 9:11] = 1e-3 * rng.standard_normal((ncam, 2))
    X = rng.standard_normal((npt, 3))
    X[:, 2] += 10.0
    w = rng.uniform(0.5, 1.5, nobs)
    obs = np.empty((nobs, 2), np.int64)
    obs[:, 0] = rng.integers(0, ncam, nobs)
    obs[:, 1] = np.arange(nobs) % npt
    feats = rng.standard_normal((nobs, 2))
    return cams, X, w, obs, feats, np.zeros((nobs, 2)), np.zeros(nobs)


def kmeans_input(n, k, d, rng):
    return rng.standard_normal((n, d)), rng.standard_normal((k, d))

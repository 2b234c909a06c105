"""Kernels calling LAPACK (np.linalg.*) inside loops, branches and helpers (tests/test_lapack_loops.py)."""
import numpy as np
from numba import njit, prange


@njit
def newton_for(x, c):
    """Newton's method for x**3 + 2x = c (element-wise), the Jacobian solved each step."""
    for it in range(4):
        J = np.diag(3.0 * x ** 2 + 2.0)
        x = x - np.linalg.solve(J, x ** 3 + 2.0 * x - c)
    return np.sum(x * x)


@njit
def newton_while(x, c, tol):
    """Newton's method until the residual is small: a while loop with a tolerance."""
    r = x ** 3 + 2.0 * x - c
    it = 0
    while np.sum(r * r) > tol and it < 30:
        J = np.diag(3.0 * x ** 2 + 2.0) + 0.1 * np.ones((x.shape[0], x.shape[0]))
        dx = np.linalg.solve(J, -r)
        x = x + dx
        r = x ** 3 + 2.0 * x - c
        it += 1
    return np.sum(np.sin(x))


@njit
def kalman_inv(ys, x, P, F, H, Q, R):
    """A Kalman filter: predict, then update with the inverse of the innovation covariance."""
    ll = 0.0
    for t in range(ys.shape[0]):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        v = ys[t] - H @ x
        x = x + K @ v
        P = P - K @ H @ P
        ll += np.sum(v * v)
    return ll + np.sum(x * x) + np.sum(P)


@njit
def kalman_solve(ys, x, P, F, H, Q, R):
    """The same filter with the gain from a solve (S symmetric: K = solve(S, H P).T)."""
    ll = 0.0
    for t in range(ys.shape[0]):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = np.linalg.solve(S, H @ P).T
        v = ys[t] - H @ x
        x = x + K @ v
        P = P - K @ H @ P
        ll += np.sum(v * np.linalg.solve(S, v)) + np.linalg.slogdet(S)[1]
    return ll + np.sum(x)


@njit
def slogdet_time_loop(A, B):
    """A matrix updated every step (taped) and its log-determinant read each step."""
    s = 0.0
    M = A.copy()
    for k in range(3):
        M = M + 0.1 * M @ B
        s += np.linalg.slogdet(M)[1]
    return s


@njit
def cholesky_steps(A, b):
    """A Cholesky factor per step and a forward substitution with it (the loop written out)."""
    n = b.shape[0]
    z = b.copy()
    s = 0.0
    for k in range(3):
        L = np.linalg.cholesky(A + (k + 1.0) * np.outer(z, z))
        y = np.zeros(n)
        for i in range(n):
            acc = z[i]
            for j in range(i):
                acc -= L[i, j] * y[j]
            y[i] = acc / L[i, i]
        z = 0.5 * z + 0.1 * y
        s += np.sum(y * y)
    return s


@njit
def eigh_values_time_loop(A, B):
    """Eigenvalues of a matrix evolving in time."""
    M = A.copy()
    s = 0.0
    for k in range(3):
        w = np.linalg.eigvalsh(M)
        s += np.sum(w ** 3) / (k + 1.0)
        M = M + 0.1 * (B @ M + M @ B.T)
    return s


@njit
def eigh_vectors_time_loop(A, B):
    """Eigenpairs per step; the loss reads the vectors only through squares (sign invariant)."""
    M = A.copy()
    s = 0.0
    for k in range(3):
        w, V = np.linalg.eigh(M)
        s += np.sum(w * V[0] ** 2) + np.sum(V[:, 1] ** 2 * w[1])
        M = M + 0.1 * (B @ M + M @ B.T)
    return s


@njit
def lstsq_per_step(A, B, b):
    s = 0.0
    for k in range(3):
        x = np.linalg.lstsq(A + k * B, b)[0]
        s += np.sum(x * x * (k + 1.0))
    return s


@njit
def solve_in_branch(A, b, c):
    """A LAPACK call inside an if at function level, its operand overwritten after the if."""
    M = A.copy()
    if c > 0.0:
        x = np.linalg.solve(M, b)
    else:
        x = np.linalg.inv(M) @ (2.0 * b)
    for i in range(M.shape[0]):
        M[i, i] = 0.0
    return np.sum(x * x) + np.sum(M)


@njit
def branch_in_loop(A, b):
    """A LAPACK call under an if inside a time loop."""
    x = b.copy()
    s = 0.0
    for k in range(4):
        if k % 2 == 0:
            x = np.linalg.solve(A, x)
        else:
            x = 0.5 * x + np.linalg.inv(A) @ x
        s += np.sum(np.cos(x))
    return s


@njit
def newton_step(x, c):
    J = np.diag(3.0 * x ** 2 + 2.0)
    return x - np.linalg.solve(J, x ** 3 + 2.0 * x - c)


@njit
def newton_helper_loop(x, c):
    """The Newton step in a helper, called in the loop (the helper is inlined)."""
    for it in range(3):
        x = newton_step(x, c)
    return np.sum(x ** 3)


@njit
def independent_dets(A, w):
    """Independent iterations (recomputed, not taped), the operand overwritten after the call."""
    s = 0.0
    for k in range(w.shape[0]):
        M = A * w[k]
        s += np.linalg.slogdet(M)[1]
        M[0, 0] = 0.0
        s += np.sum(M * M)
    return s


@njit(parallel=True)
def det_in_prange(A, w):
    s = 0.0
    for k in prange(w.shape[0]):
        s += np.linalg.det(A * w[k])      # <- in prange
    return s


@njit
def bound_in_if_rebound_in_else(A, b, c):
    """An array first bound inside the if body and bound again in the else (user pattern)."""
    if c > 0.0:
        x = A @ b
    else:
        x = 2.0 * b
    return np.sum(x * x)


@njit
def solve_then_written(A, b):
    """A LAPACK call at the kernel's top level, both operands written after it (copied)."""
    x = np.linalg.solve(A, b)
    A[0, 0] += 1.0
    b *= 2.0
    return np.sum(x * x) + np.sum(A * b)


@njit
def inv_then_squared(A, b):
    """The operand overwritten by a product of itself after the call; the result written too."""
    Ai = np.linalg.inv(A)
    A[:] = A @ A
    Ai[0, 1] = 0.5 * Ai[0, 1]
    return np.sum(Ai @ b) + np.sum(A * A)


@njit
def scale_diag(M, c):
    for i in range(M.shape[0]):
        M[i, i] *= c


@njit
def slogdet_then_helper(A, b):
    """The operand written by a helper (inlined) after the call."""
    s = np.linalg.slogdet(A)[1]
    scale_diag(A, 3.0)
    return s + np.sum(A @ b)


@njit
def solve_helper(A, b):
    return np.linalg.solve(A, b)


@njit
def helper_solve_then_written(A, b):
    """The call in a helper inlined at top level, its operand written after the call."""
    x = solve_helper(A, b)
    A *= 0.5
    return np.sum(x * np.cos(x)) + np.sum(A)


@njit
def eigh_then_written(A):
    """eigh at top level, the operand and the vectors written after it."""
    w, V = np.linalg.eigh(A)
    A[0, 0] = 2.0
    V[0] = 0.0
    return np.sum(w * w) + np.sum(A * A) + np.sum(V * V)


@njit
def solve_then_read(A, b):
    """A top-level call whose operands are only read after it: nothing copied."""
    x = np.linalg.solve(A, b)
    return np.sum(x * x) + np.sum(A @ b)


@njit
def solves_around_a_write(A, b):
    """Three calls of one step read M: a write between the first two (M saved for the first), none
    between the last two (one save for both)."""
    M = A.copy()
    x = b.copy()
    s = 0.0
    for k in range(3):
        M = M + 0.1 * np.outer(x, x)
        y = np.linalg.solve(M, x)
        M[0, 0] += 0.5
        z = np.linalg.solve(M, y)
        s += np.linalg.slogdet(M)[1] + np.sum(z * z)
        x = 0.5 * x + 0.1 * z
    return s

"""MPI test program: differentiates the drivers of mpi_drivers.py on every rank and checks them.

Run as ``mpiexec -n N python cases.py [CASE ...]`` (default: every case).  Rank 0 prints
one line per case and rank, ``CASE <name> <rank> OK <detail>``, then ``DONE <N>``.  A rank
that fails prints ``CASE <name> <rank> FAIL <message>`` and its traceback and aborts the
whole job (so the others do not wait forever in a collective).

Checks: central finite differences of the global objective
``J = sum over ranks (seed * driver(...) + <w, final values of the Duplicated arrays>)``
(every entry of every rank, perturbed on its own rank only), plus case-specific
assertions (the owner rule of MIN/MAX, the distributed heat gradient equal to the
one-rank gradient of the same global problem).
"""
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402

import adtrans  # noqa: E402
import mpi_drivers as D  # noqa: E402

COMM = MPI.COMM_WORLD
RANK, SIZE = COMM.Get_rank(), COMM.Get_size()


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _objective(driver, args, weights, seed):
    args = _copy(args)
    r = driver(*args)
    local = seed * float(r) if r is not None else 0.0
    for k, w in weights.items():
        local += float(np.dot(w.ravel(), args[k].ravel()))
    return COMM.allreduce(local, op=MPI.SUM)


def ad_gradient(driver, args, kinds, weights, seed):
    """adtrans gradient on this rank: {k: shadow array or float adjoint}."""
    args = _copy(args)
    wrapped, shadows = [], {}
    for k, (a, kind) in enumerate(zip(args, kinds)):
        if kind == "dup":
            shadows[k] = weights[k].copy()
            wrapped.append(adtrans.Duplicated(a, shadows[k]))
        elif kind == "active":
            wrapped.append(adtrans.Active(a))
        else:
            wrapped.append(adtrans.Const(a))
    adj = iter(adtrans.autodiff(driver, *wrapped, seed=seed))
    out = {}
    for k, kind in enumerate(kinds):
        if kind == "dup":
            out[k] = shadows[k]
        elif kind == "active":
            out[k] = float(next(adj))
    return out, args


def fd_check(driver, args, kinds, seed=1.25, h=1e-6, rtol=1e-6, atol=1e-8):
    """Compare adtrans with central differences of the global objective; returns the worst error."""
    gen = np.random.default_rng(100 + RANK)
    weights = {k: gen.standard_normal(np.shape(a)) for k, (a, kind) in enumerate(zip(args, kinds))
               if kind == "dup"}
    grads, _ = ad_gradient(driver, args, kinds, weights, seed)
    worst = 0.0
    for q in range(SIZE):
        for k, kind in enumerate(kinds):
            if kind not in ("dup", "active"):
                continue
            count = COMM.bcast(np.size(args[k]) if RANK == q else None, root=q)
            for j in range(count):
                plus, minus = _copy(args), _copy(args)
                if RANK == q:
                    if kind == "dup":
                        plus[k].flat[j] += h
                        minus[k].flat[j] -= h
                    else:
                        plus[k] += h
                        minus[k] -= h
                fd = (_objective(driver, plus, weights, seed) - _objective(driver, minus, weights, seed)) / (2 * h)
                if RANK == q:
                    got = float(grads[k].flat[j]) if kind == "dup" else grads[k]
                    err = abs(got - fd)
                    if err > atol + rtol * max(abs(fd), 1.0) * 10:
                        raise AssertionError(f"rank {q} arg {k} entry {j}: adtrans {got!r} vs finite "
                                             f"differences {fd!r}")
                    worst = max(worst, err)
    return COMM.allreduce(worst, op=MPI.MAX)


def local_x(n=3, lo=0.3, hi=1.2):
    return np.random.default_rng(7 + 13 * RANK).uniform(lo, hi, n)


# ----------------------------------------------------------------------------- cases

def case_ring():
    return f"fd err {fd_check(D.ring, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_even_odd():
    return f"fd err {fd_check(D.even_odd, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_self_send():
    x = local_x()
    dx = np.zeros_like(x)
    adtrans.autodiff(D.self_send, adtrans.Duplicated(x, dx), COMM)
    np.testing.assert_allclose(dx, 81.0 * x ** 2, rtol=1e-13)
    return f"fd err {fd_check(D.self_send, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_reductions():
    return f"fd err {fd_check(D.reductions, [local_x(4), COMM], ['dup', 'const']):.1e}"


def _owner_case(driver, pick):
    # distinct values per rank; element 0 ties on every rank (lowest rank owns it)
    x = local_x(4)
    x[0] = 0.5
    dx = np.zeros_like(x)
    adtrans.autodiff(driver, adtrans.Duplicated(x.copy(), dx), COMM)
    allx = np.array(COMM.allgather(x))
    ext = pick(allx, axis=0)
    for j in range(x.size):
        owner = int(np.flatnonzero(allx[:, j] == ext[j])[0])
        expect = SIZE * 3.0 * ext[j] ** 2 if owner == RANK else 0.0
        assert dx[j] == expect or abs(dx[j] - expect) <= 1e-12 * abs(expect), (j, dx[j], expect, owner)
    assert (dx[0] != 0.0) == (RANK == 0), "tie: the lowest rank owns the extremum"
    x = local_x(4)
    return f"owner rule ok, fd err {fd_check(driver, [x, COMM], ['dup', 'const']):.1e}"


def case_allreduce_max():
    return _owner_case(D.allreduce_max, np.max)


def case_allreduce_min():
    return _owner_case(D.allreduce_min, np.min)


def case_bcast():
    return f"fd err {fd_check(D.broadcast, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_reduce():
    return f"fd err {fd_check(D.reduce_sum, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_scalars():
    return f"fd err {fd_check(D.scalars, [local_x(2), COMM], ['dup', 'const']):.1e}"


def _global_heat(nglobal, rng_seed=3):
    return np.random.default_rng(rng_seed).uniform(0.2, 1.0, nglobal + 2)


def _local_part(g, nglobal):
    """This rank's cells of the global array g (with ghost cells): [ghost | owned | ghost]."""
    counts = [nglobal // SIZE + (1 if r < nglobal % SIZE else 0) for r in range(SIZE)]
    start = sum(counts[:RANK])
    return g[start:start + counts[RANK] + 2].copy(), start, counts[RANK]


def case_heat():
    return _heat(D.heat)


def case_heat_nonblocking():
    return _heat(D.heat_nonblocking)


def _heat(driver):
    """Distributed gradient == gradient of the same global problem on one rank, and == FD."""
    nglobal, c, steps = 10, 0.2, 6
    g = _global_heat(nglobal)
    u, start, m = _local_part(g, nglobal)
    du = np.zeros_like(u)
    (dc,) = adtrans.autodiff(driver, adtrans.Duplicated(u.copy(), du), COMM, adtrans.Active(c), steps)
    # one rank, same global objective: each owned cell i carries weight 1 + 0.1 * (its local index)
    weights = np.concatenate([[0.0]] + [1.0 + 0.1 * np.arange(1, cnt + 1) for cnt in COMM.allgather(m)] + [[0.0]])
    dg = np.zeros_like(g)
    (dc1,) = adtrans.autodiff(D.heat_global, adtrans.Duplicated(g.copy(), dg), adtrans.Active(c), steps,
                              weights)
    # global boundary ghosts are inputs of both; interior ghosts are overwritten by halos
    mine = du[1:m + 1]
    np.testing.assert_allclose(mine, dg[start + 1:start + 1 + m], rtol=1e-12, atol=1e-14)
    if RANK == 0:
        np.testing.assert_allclose(du[0], dg[0], rtol=1e-12, atol=1e-14)
    if RANK == SIZE - 1:
        np.testing.assert_allclose(du[-1], dg[-1], rtol=1e-12, atol=1e-14)
    dc_total = COMM.allreduce(dc, op=MPI.SUM)
    assert abs(dc_total - dc1) <= 1e-12 * max(1.0, abs(dc1)), (dc_total, dc1)
    err = fd_check(driver, [u, COMM, c, steps], ["dup", "const", "active", "const"])
    return f"matches one-rank gradient, fd err {err:.1e}"


def case_wildcard():
    return f"fd err {fd_check(D.wildcard, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_variants():
    return f"fd err {fd_check(D.variants, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_rank0_return():
    return f"fd err {fd_check(D.rank0_returns, [local_x(), COMM], ['dup', 'const']):.1e}"


def case_user_driver():
    """while/break, Allreduce(MIN) dt and halo exchange in plain-Python helpers, early return."""
    u = local_x(5)
    err = fd_check(D.cfl_heat, [u, COMM, 0.9, 0.35], ["dup", "const", "active", "const"])
    return f"fd err {err:.1e}"


def case_unsupported():
    try:
        adtrans.autodiff(D.uses_alltoallv, adtrans.Duplicated(local_x(), np.zeros(3)), COMM)
    except adtrans.UnsupportedError as exc:
        assert "Alltoallv" in str(exc) and "mpi_drivers.py:" in str(exc), str(exc)
        return "UnsupportedError: " + str(exc).split(": unsupported: ")[1][:40]
    raise AssertionError("no UnsupportedError")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_") and callable(fn)}


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(names):
    for name in names or list(CASES):
        try:
            detail = CASES[name]()
        except BaseException as exc:   # report, then take the whole job down
            msg = f"{type(exc).__name__}: {exc}".replace("\n", " ")
            _say(f"CASE {name} {RANK} FAIL {msg}")
            traceback.print_exc()
            sys.stderr.flush()
            COMM.Abort(1)
        details = COMM.gather(detail, root=0)       # rank 0 prints every rank's line (no interleaving)
        if RANK == 0:
            for r, d in enumerate(details):
                _say(f"CASE {name} {r} OK {d}")
    COMM.Barrier()
    if RANK == 0:
        _say(f"DONE {SIZE}")


if __name__ == "__main__":
    main(sys.argv[1:])

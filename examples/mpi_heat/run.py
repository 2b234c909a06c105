"""Gradient of a distributed heat simulation on N MPI ranks, checked against one rank.

    python examples/mpi_heat/run.py --ranks 3

re-launches itself under ``mpiexec -n 3`` (when not already under MPI), differentiates the
driver ``heat`` (examples/mpi_heat/heat.py: ghost-cell exchange with Sendrecv + an @njit
update, in a time loop) with ``adtrans.autodiff`` on every rank, and compares the
assembled gradient (w.r.t. the initial temperature and the diffusion number) with the
gradient of the same global problem differentiated on one rank.  Prints the maximum
difference; exits 1 when it exceeds --tol.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
_MPI_ENV = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS", "HYDI_CONTROL_FD")


def under_mpi() -> bool:
    return any(v in os.environ for v in _MPI_ENV)


def relaunch(args) -> int:
    exe = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    exe = exe if os.path.exists(exe) else shutil.which("mpiexec")
    if exe is None:
        sys.exit("mpiexec not found: pip install mpich mpi4py")
    cmd = [exe, "-n", str(args.ranks), sys.executable, os.path.abspath(__file__)] + sys.argv[1:]
    print("running:", " ".join(cmd[:3] + ["python", "run.py"] + sys.argv[1:]), flush=True)
    return subprocess.call(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, default=3, help="number of MPI ranks (default 3)")
    ap.add_argument("--cells", type=int, default=60, help="global number of cells (default 60)")
    ap.add_argument("--steps", type=int, default=200, help="time steps (default 200)")
    ap.add_argument("--tol", type=float, default=1e-10, help="largest accepted relative difference")
    args = ap.parse_args()
    if args.ranks > 1 and not under_mpi():
        sys.exit(relaunch(args))

    sys.path[:0] = [HERE, ROOT]
    import numpy as np
    from mpi4py import MPI

    import adtrans
    from heat import heat

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    kappa, rate = 0.25, 0.05
    x = np.linspace(0.0, 1.0, args.cells + 2)
    g = 0.5 + 0.4 * np.sin(3 * np.pi * x) ** 2            # global initial state, with the two end cells
    counts = [args.cells // size + (r < args.cells % size) for r in range(size)]
    start = sum(counts[:rank])
    u = g[start:start + counts[rank] + 2].copy()           # [ghost | owned | ghost]

    t0 = time.perf_counter()
    du = np.zeros_like(u)
    (dkappa,) = adtrans.autodiff(heat, adtrans.Duplicated(u, du), comm, adtrans.Active(kappa), rate,
                                 args.steps, start)
    t_dist = time.perf_counter() - t0
    from adtrans.driver import last_tape_nbytes
    tape = comm.allreduce(last_tape_nbytes())
    J = comm.allreduce(heat(g[start:start + counts[rank] + 2].copy(), comm, kappa, rate, args.steps, start))
    # assemble: owned cells of every rank, plus the fixed end cells of the first and last rank
    owned = comm.gather(du[1:-1], root=0)
    ends = comm.gather((du[0], du[-1]), root=0)
    dkappa_total = comm.allreduce(dkappa)

    if rank == 0:
        grad = np.concatenate([[ends[0][0]]] + owned + [[ends[-1][1]]])
        t0 = time.perf_counter()
        dg = np.zeros_like(g)
        (dkappa1,) = adtrans.autodiff(heat, adtrans.Duplicated(g.copy(), dg), MPI.COMM_SELF, adtrans.Active(kappa),
                                      rate, args.steps, 0)
        t_one = time.perf_counter() - t0
        # one directional central finite difference of the one-rank problem, as a sanity check
        d = np.random.default_rng(0).standard_normal(g.shape)
        h = 1e-6
        fd = (heat(g + h * d, MPI.COMM_SELF, kappa, rate, args.steps, 0) -
              heat(g - h * d, MPI.COMM_SELF, kappa, rate, args.steps, 0)) / (2 * h)
        fd_rel = abs(fd - np.dot(grad, d)) / abs(fd)
        diff = np.max(np.abs(grad - dg))
        rel = diff / np.max(np.abs(dg))
        dk = abs(dkappa_total - dkappa1) / max(abs(dkappa1), 1e-300)
        print(f"heat equation, {args.cells} cells, {args.steps} steps, {size} ranks: J = {J:.12g}")
        print(f"dJ/du0: max |distributed - one rank| = {diff:.3e} (relative {rel:.1e}); "
              f"dJ/dkappa = {dkappa_total:.12g} vs {dkappa1:.12g} (relative {dk:.1e})")
        print(f"finite differences along a random direction: {fd:.10g} vs {np.dot(grad, d):.10g} "
              f"(relative {fd_rel:.1e})")
        print(f"tape memory of the distributed adjoint: {tape / 1e6:.2f} MB over all ranks "
              f"({args.steps} steps; one copy of each rank's updated array per step)")
        print(f"time: {size} ranks {t_dist:.2f} s, one rank {t_one:.2f} s (first calls include compilation)")
        ok = rel <= args.tol and dk <= args.tol and fd_rel <= 1e-6
        print("OK" if ok else "MISMATCH")
        code = 0 if ok else 1
    else:
        code = None
    code = comm.bcast(code, root=0)
    sys.exit(code)


if __name__ == "__main__":
    main()

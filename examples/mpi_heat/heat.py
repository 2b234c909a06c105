"""Heat equation with a cubic reaction term on a 1-D domain split across MPI ranks.

Each rank owns ``m`` cells and stores ``[left ghost | m owned cells | right ghost]``; a
time step exchanges the ghost cells with the neighbours (``Sendrecv``), then runs the
``@njit`` update.  The objective is ``J = sum over owned cells of w_g u_g(T)^2`` with
weights depending on the global cell index ``g``, so the driver run on one rank over the
whole domain (``MPI.COMM_SELF``, ``offset=0``) is the same problem.
"""
import numpy as np
from mpi4py import MPI
from numba import njit


@njit(cache=True)
def step(u, unew, kappa, rate):
    """Explicit step on the owned cells: diffusion (number ``kappa``) and reaction ``-rate u^3``."""
    for i in range(1, u.shape[0] - 1):
        unew[i] = u[i] + kappa * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - rate * u[i] ** 3


@njit(cache=True)
def weighted_energy(u, offset):
    """sum over the owned cells of (1 + 0.01 g) u^2, g the global index of the cell."""
    e = 0.0
    for i in range(1, u.shape[0] - 1):
        e += (1.0 + 0.01 * (offset + i)) * u[i] * u[i]
    return e


def heat(u, comm, kappa, rate, steps, offset):
    """The driver: halo exchange + step, ``steps`` times; returns this rank's part of J."""
    rank, size = comm.Get_rank(), comm.Get_size()
    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    n = u.shape[0]
    unew = np.copy(u)
    for s in range(steps):
        comm.Sendrecv(u[1:2], dest=left, sendtag=11, recvbuf=u[n - 1:n], source=right, recvtag=11)
        comm.Sendrecv(u[n - 2:n - 1], dest=right, sendtag=12, recvbuf=u[0:1], source=left, recvtag=12)
        step(u, unew, kappa, rate)
        u, unew = unew, u
    return weighted_energy(u, offset)

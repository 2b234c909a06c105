"""Driver functions with mpi4py communication (differentiated by the MPI test programs).

Each rank's returned float is its part of a global objective J = sum over ranks.
"""
import numpy as np
from mpi4py import MPI

from driver_kernels import cubesum, diffuse, energy, sumsq


def ring(x, comm):
    """Ring exchange: Isend to the right, blocking Recv from the left, then Wait."""
    rank = comm.Get_rank()
    size = comm.Get_size()
    right = (rank + 1) % size
    left = (rank - 1 + size) % size
    recvbuf = np.zeros_like(x)
    req = comm.Isend(x * x, dest=right, tag=7)
    comm.Recv(recvbuf, source=left, tag=7)
    req.Wait()
    return sumsq(recvbuf * x)


def even_odd(x, comm):
    """Blocking Send/Recv between rank pairs (2k, 2k+1); even ranks send first."""
    rank, size = comm.Get_rank(), comm.Get_size()
    partner = rank + 1 if rank % 2 == 0 else rank - 1
    y = np.zeros_like(x)
    if partner < size:
        if rank % 2 == 0:
            comm.Send(x, dest=partner, tag=3)
            comm.Recv(y, source=partner, tag=4)
        else:
            comm.Recv(y, source=partner, tag=3)
            back = np.sin(y) * x
            comm.Send(back, dest=partner, tag=4)
    return cubesum(y) + sumsq(x)


def self_send(x, comm):
    """Irecv and Isend to the own rank, completed by MPI.Request.Waitall."""
    rank = comm.Get_rank()
    y = np.zeros_like(x)
    reqs = [comm.Irecv(y, source=rank, tag=5), comm.Isend(3.0 * x, dest=rank, tag=5)]
    MPI.Request.Waitall(reqs)
    return cubesum(y)


def reductions(x, comm):
    """Allreduce SUM (of an expression), MAX, MIN (in place), and a Barrier."""
    s = np.zeros_like(x)
    mx = np.zeros_like(x)
    comm.Allreduce(x * x, s, op=MPI.SUM)
    comm.Allreduce(x, mx, op=MPI.MAX)
    mn = np.copy(x)
    comm.Allreduce(MPI.IN_PLACE, mn, op=MPI.MIN)
    comm.Barrier()
    return 0.5 * sumsq(s) + cubesum(mx) + 2.0 * sumsq(mn)


def allreduce_max(x, comm):
    """Only MAX: the adjoint goes to the rank owning each maximum."""
    mx = np.empty_like(x)
    comm.Allreduce(x, mx, op=MPI.MAX)
    return cubesum(mx)


def allreduce_min(x, comm):
    """Only MIN: the adjoint goes to the rank owning each minimum."""
    mn = np.empty_like(x)
    comm.Allreduce(x, mn, op=MPI.MIN)
    return cubesum(mn)


def broadcast(x, comm):
    """Bcast from the last rank, then a product with local data."""
    root = comm.Get_size() - 1
    y = np.copy(x)
    comm.Bcast(y, root=root)
    return sumsq(y * x)


def reduce_sum(x, comm):
    """Reduce SUM of sin(x) to rank 0 (non-root ranks' out stays zero)."""
    out = np.zeros_like(x)
    comm.Reduce(np.sin(x), out, op=MPI.SUM, root=0)
    return cubesum(out)


def scalars(x, comm):
    """Lowercase allreduce (SUM, MAX), bcast and reduce on Python floats."""
    size = comm.Get_size()
    a = sumsq(x)
    t = comm.allreduce(a, op=MPI.SUM)
    m = comm.allreduce(a * a, op=MPI.MAX)
    b = comm.bcast(a, root=size - 1)
    r = comm.reduce(a, op=MPI.SUM, root=0)
    out = t * m + b * a
    if r is not None:
        out = out + 2.0 * r * r
    return out


def heat(u, comm, c, steps):
    """1-D diffusion on [ghost | owned cells | ghost] per rank: halo exchange by Sendrecv,
    then the @njit update; returns the owned cells' energy (weights 1 + 0.1 i)."""
    rank, size = comm.Get_rank(), comm.Get_size()
    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    n = u.shape[0]
    unew = np.copy(u)
    for s in range(steps):
        comm.Sendrecv(u[1:2], dest=left, sendtag=1, recvbuf=u[n - 1:n], source=right, recvtag=1)
        comm.Sendrecv(u[n - 2:n - 1], dest=right, sendtag=2, recvbuf=u[0:1], source=left, recvtag=2)
        diffuse(u, unew, c)
        u, unew = unew, u
    w = 1.0 + 0.1 * np.arange(n)
    return energy(u[1:n - 1], w[1:n - 1])


def heat_nonblocking(u, comm, c, steps):
    """As heat, with Irecv/Isend + Waitall for the halo exchange."""
    rank, size = comm.Get_rank(), comm.Get_size()
    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    n = u.shape[0]
    unew = np.copy(u)
    for s in range(steps):
        reqs = []
        reqs.append(comm.Irecv(u[n - 1:n], source=right, tag=1))
        reqs.append(comm.Irecv(u[0:1], source=left, tag=2))
        reqs.append(comm.Isend(u[1:2], dest=left, tag=1))
        reqs.append(comm.Isend(u[n - 2:n - 1], dest=right, tag=2))
        MPI.Request.Waitall(reqs)
        diffuse(u, unew, c)
        u, unew = unew, u
    w = 1.0 + 0.1 * np.arange(n)
    return energy(u[1:n - 1], w[1:n - 1])


def heat_global(u, c, steps, weights):
    """The global problem of heat on one process: fixed end cells, energy with given weights."""
    unew = np.copy(u)
    for s in range(steps):
        diffuse(u, unew, c)
        u, unew = unew, u
    return energy(u, weights)


def uses_alltoallv(x, comm):
    """An MPI call without an adjoint rule."""
    y = np.zeros_like(x)
    comm.Alltoallv(x, y)
    return sumsq(y)


def wildcard(x, comm):
    """Rank 0 receives from every other rank with ANY_SOURCE/ANY_TAG; weights by the matched source."""
    rank, size = comm.Get_rank(), comm.Get_size()
    acc = np.zeros_like(x)
    if rank == 0:
        st = MPI.Status()
        buf = np.zeros_like(x)
        for k in range(size - 1):
            comm.Recv(buf, source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, status=st)
            src = st.Get_source()
            acc += buf * buf * (src + 1.0) + 0.1 * st.Get_tag()
    else:
        comm.Send(np.sin(x), dest=0, tag=rank + 10)
    return sumsq(acc + x)


def variants(x, comm):
    """Sendrecv_replace with an [array, datatype] buffer; Issend/Irecv completed by separate Waits."""
    rank, size = comm.Get_rank(), comm.Get_size()
    right = (rank + 1) % size
    left = (rank - 1 + size) % size
    y = x * 2.0
    comm.Sendrecv_replace([y, MPI.DOUBLE], dest=right, sendtag=4, source=left, recvtag=4)
    z = np.zeros_like(x)
    r1 = comm.Irecv(z, source=left, tag=9)
    r2 = comm.Issend(np.cos(x), dest=right, tag=9)
    r2.Wait()
    r1.Wait()
    return sumsq(y * x) + cubesum(z)


# ----------------------------------------------------------------------------- drivers as users write them

def rank0_returns(x, comm):
    """The first thing an MPI user writes: reduce, then only rank 0 returns the value."""
    m = np.zeros_like(x)
    comm.Allreduce(x * x, m, op=MPI.SUM)
    if comm.Get_rank() == 0:
        return m[1] + sumsq(m)
    return 0.0


def halo(u, comm):
    """A plain-Python helper: exchange one ghost cell with each neighbour (non-blocking)."""
    rank, size = comm.Get_rank(), comm.Get_size()
    n = u.shape[0]
    reqs = []
    if rank > 0:
        reqs.append(comm.Irecv(u[0:1], source=rank - 1, tag=21))
        reqs.append(comm.Isend(u[1:2], dest=rank - 1, tag=22))
    if rank < size - 1:
        reqs.append(comm.Irecv(u[n - 1:n], source=rank + 1, tag=22))
        reqs.append(comm.Isend(u[n - 2:n - 1], dest=rank + 1, tag=21))
    MPI.Request.Waitall(reqs)


def global_dt(u, comm, cfl=0.05):
    """A helper returning the global time step: Allreduce(MIN) of the local limits."""
    local = np.zeros(1)
    local[0] = cfl / (1.0 + sumsq(u))
    g = np.zeros(1)
    comm.Allreduce(local, g, op=MPI.MIN)
    return g[0]


def cfl_heat(u, comm, c, t_end):
    """LULESH's main-loop shape under MPI: while t < t_end, dt from Allreduce(MIN), a break."""
    n = u.shape[0]
    unew = np.copy(u)
    t = 0.0
    cycle = 0
    while t < t_end:
        halo(u, comm)
        dt = global_dt(u, comm, cfl=0.08)
        if t + dt > t_end:
            dt = t_end - t
        diffuse(u, unew, c=dt * c)
        u, unew = unew, u
        t += dt
        cycle += 1
        if cycle >= 10:
            break
    e = energy(u[1:n - 1], u[1:n - 1])
    if comm.Get_rank() == 0:
        return e + t
    return e

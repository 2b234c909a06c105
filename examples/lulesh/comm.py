"""LULESH 2.0's ghost exchange (lulesh-comm.cc) for one cubic subdomain per rank.

Three exchanges, all with ``Irecv``/``Isend`` and one ``Waitall``, as the
original posts them:

* **CommSBN** (:func:`comm_sbn3`, :func:`comm_sbn1`): every rank sends the
  values of its boundary nodes to each of its up to 26 neighbours (6 faces,
  12 edges, 8 corners) and adds what it receives: node forces (fx, fy, fz)
  every step, the nodal masses once at set-up.
* **CommSyncPosVel** (:func:`comm_sync_pos_vel`): after the position update
  the shared nodes take the positions and velocities of one rank.  The
  original receives from the neighbours of higher rank and overwrites in
  message order; here each shared node is copied from the highest rank that
  holds it (the original's owner for all face, edge and corner nodes but the
  mixed (+, -) edges, where it takes an edge neighbour's value; the two differ
  only by the rounding of the force sums), so every copy of a node is equal.
* **CommMonoQ** (:func:`comm_monoq`): the velocity gradients ``delv_xi,
  delv_eta, delv_zeta`` of the boundary elements go to the 6 face
  neighbours, which store them in their ghost elements after the owned ones
  (``Domain.numGhostElem``; the order zeta-, zeta+, eta-, eta+, xi-, xi+ of
  the original's SetupBoundaryConditions).

A :class:`CommPlan` lists, per message, the neighbour rank and the local node
(or element) numbers it carries, in increasing global order, so both sides of
a message enumerate the same nodes in the same order.  Buffers are per
message ``[field 0 values | field 1 values | ...]``.  The helpers are plain
Python (adtrans inlines them into the drivers it differentiates); the packing
loops are the ``@njit`` kernels below.  Message tags are the original's
message types: between two ranks there is at most one neighbour relation.
"""
from __future__ import annotations

import numpy as np
from mpi4py import MPI
from numba import njit

__all__ = ["CommPlan", "MSG_COMM_SBN", "MSG_SYNC_POS_VEL", "MSG_MONOQ", "comm_sbn1", "comm_sbn3",
           "comm_sync_pos_vel", "comm_monoq", "pack_field", "add_field", "copy_field", "ghost_field"]

MSG_COMM_SBN = 1024
MSG_SYNC_POS_VEL = 2048
MSG_MONOQ = 3072


# --------------------------------------------------------------------------- packing kernels
@njit(cache=True)
def pack_field(a, idx, off, nf, f, buf):
    """``buf``: for message m, field f of ``nf``: ``a[idx[off[m]:off[m+1]]]`` at
    ``nf*off[m] + f*(off[m+1]-off[m])``."""
    for m in range(off.shape[0] - 1):
        lo = off[m]
        n = off[m + 1] - lo
        base = nf * lo + f * n
        for j in range(n):
            buf[base + j] = a[idx[lo + j]]


@njit(cache=True)
def add_field(a, idx, off, nf, f, buf):
    """The received values of field f added to ``a`` at the nodes of each message, in message order."""
    for m in range(off.shape[0] - 1):
        lo = off[m]
        n = off[m + 1] - lo
        base = nf * lo + f * n
        for j in range(n):
            a[idx[lo + j]] += buf[base + j]


@njit(cache=True)
def copy_field(a, idx, off, nf, f, buf):
    """The received values of field f copied into ``a`` (each node appears in one message only)."""
    for m in range(off.shape[0] - 1):
        lo = off[m]
        n = off[m + 1] - lo
        base = nf * lo + f * n
        for j in range(n):
            a[idx[lo + j]] = buf[base + j]


@njit(cache=True)
def ghost_field(a, first, off, nf, f, buf):
    """The received values of field f stored in the ghost elements ``a[first + off[m] + j]``."""
    for m in range(off.shape[0] - 1):
        lo = off[m]
        n = off[m + 1] - lo
        base = nf * lo + f * n
        for j in range(n):
            a[first + lo + j] = buf[base + j]


# --------------------------------------------------------------------------- the exchanges (drivers' helpers)
def comm_sbn3(comm, a, b, c, nbr, idx, off):
    """CommSend + CommSBN of three node fields: add every neighbour's values at shared nodes."""
    nm = nbr.shape[0]
    n = off[nm]
    sbuf = np.zeros(3 * n)
    rbuf = np.zeros(3 * n)
    pack_field(a, idx, off, 3, 0, sbuf)
    pack_field(b, idx, off, 3, 1, sbuf)
    pack_field(c, idx, off, 3, 2, sbuf)
    reqs = []
    for m in range(nm):
        reqs.append(comm.Irecv(rbuf[3 * off[m]:3 * off[m + 1]], source=nbr[m], tag=1024))
    for m in range(nm):
        reqs.append(comm.Isend(sbuf[3 * off[m]:3 * off[m + 1]], dest=nbr[m], tag=1024))
    MPI.Request.Waitall(reqs)
    add_field(a, idx, off, 3, 0, rbuf)
    add_field(b, idx, off, 3, 1, rbuf)
    add_field(c, idx, off, 3, 2, rbuf)


def comm_sbn1(comm, a, nbr, idx, off):
    """CommSBN of one node field (the nodal masses at set-up)."""
    nm = nbr.shape[0]
    n = off[nm]
    sbuf = np.zeros(n)
    rbuf = np.zeros(n)
    pack_field(a, idx, off, 1, 0, sbuf)
    reqs = []
    for m in range(nm):
        reqs.append(comm.Irecv(rbuf[off[m]:off[m + 1]], source=nbr[m], tag=1024))
    for m in range(nm):
        reqs.append(comm.Isend(sbuf[off[m]:off[m + 1]], dest=nbr[m], tag=1024))
    MPI.Request.Waitall(reqs)
    add_field(a, idx, off, 1, 0, rbuf)


def comm_sync_pos_vel(comm, x, y, z, xd, yd, zd, snbr, sidx, soff, rnbr, ridx, roff):
    """CommSyncPosVel: send owned shared nodes to lower ranks, copy those of higher ranks."""
    ns = snbr.shape[0]
    nr = rnbr.shape[0]
    sbuf = np.zeros(6 * soff[ns])
    rbuf = np.zeros(6 * roff[nr])
    pack_field(x, sidx, soff, 6, 0, sbuf)
    pack_field(y, sidx, soff, 6, 1, sbuf)
    pack_field(z, sidx, soff, 6, 2, sbuf)
    pack_field(xd, sidx, soff, 6, 3, sbuf)
    pack_field(yd, sidx, soff, 6, 4, sbuf)
    pack_field(zd, sidx, soff, 6, 5, sbuf)
    reqs = []
    for m in range(nr):
        reqs.append(comm.Irecv(rbuf[6 * roff[m]:6 * roff[m + 1]], source=rnbr[m], tag=2048))
    for m in range(ns):
        reqs.append(comm.Isend(sbuf[6 * soff[m]:6 * soff[m + 1]], dest=snbr[m], tag=2048))
    MPI.Request.Waitall(reqs)
    copy_field(x, ridx, roff, 6, 0, rbuf)
    copy_field(y, ridx, roff, 6, 1, rbuf)
    copy_field(z, ridx, roff, 6, 2, rbuf)
    copy_field(xd, ridx, roff, 6, 3, rbuf)
    copy_field(yd, ridx, roff, 6, 4, rbuf)
    copy_field(zd, ridx, roff, 6, 5, rbuf)


def comm_monoq(comm, delv_xi, delv_eta, delv_zeta, nbr, idx, off, numElem):
    """CommMonoQ: boundary-element velocity gradients into the face neighbours' ghosts."""
    nm = nbr.shape[0]
    n = off[nm]
    sbuf = np.zeros(3 * n)
    rbuf = np.zeros(3 * n)
    pack_field(delv_xi, idx, off, 3, 0, sbuf)
    pack_field(delv_eta, idx, off, 3, 1, sbuf)
    pack_field(delv_zeta, idx, off, 3, 2, sbuf)
    reqs = []
    for m in range(nm):
        reqs.append(comm.Irecv(rbuf[3 * off[m]:3 * off[m + 1]], source=nbr[m], tag=3072))
    for m in range(nm):
        reqs.append(comm.Isend(sbuf[3 * off[m]:3 * off[m + 1]], dest=nbr[m], tag=3072))
    MPI.Request.Waitall(reqs)
    ghost_field(delv_xi, numElem, off, 3, 0, rbuf)
    ghost_field(delv_eta, numElem, off, 3, 1, rbuf)
    ghost_field(delv_zeta, numElem, off, 3, 2, rbuf)


# --------------------------------------------------------------------------- the plan
def _flat(lists):
    off = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(v) for v in lists], out=off[1:])
    idx = np.concatenate([np.asarray(v, np.int64) for v in lists]) if lists else np.zeros(0, np.int64)
    return idx.astype(np.int64), off


class CommPlan:
    """Who sends which nodes/elements to whom, for one rank of a ``tp^3`` decomposition.

    Built from a :class:`.domain.Domain` (``colLoc, rowLoc, planeLoc, tp,
    sizeX``).  Attributes (all int64 arrays): ``sbn_nbr, sbn_idx, sbn_off``
    (the 26-neighbour node messages of CommSBN, by increasing neighbour rank);
    ``sync_send_*`` / ``sync_recv_*`` (CommSyncPosVel: nodes this rank owns
    and sends to lower ranks / nodes it takes from their highest-rank holder);
    ``monoq_nbr, monoq_idx, monoq_off`` (the face messages of CommMonoQ in
    ghost order).  ``*_off`` has one entry more than ``*_nbr``: message m
    carries ``idx[off[m]:off[m+1]]``.
    """

    def __init__(self, domain):
        nx, tp = domain.sizeX, domain.tp
        me = (domain.colLoc, domain.rowLoc, domain.planeLoc)
        rank = domain.colLoc + tp * (domain.rowLoc + tp * domain.planeLoc)
        nn = nx + 1
        node = np.arange(nn ** 3, dtype=np.int64)
        li = (node % nn, (node // nn) % nn, node // (nn * nn))          # local (col, row, plane)
        gi = tuple(li[d] + me[d] * nx for d in range(3))                  # global lattice coords

        def owner(d):        # the highest subdomain coordinate holding a node along axis d
            return np.minimum(gi[d] // nx, tp - 1)

        top = owner(0) + tp * (owner(1) + tp * owner(2))                  # highest rank holding each node
        offsets = [(ox, oy, oz) for oz in (-1, 0, 1) for oy in (-1, 0, 1) for ox in (-1, 0, 1)
                   if (ox, oy, oz) != (0, 0, 0)]
        offsets.sort(key=lambda o: o[0] + tp * (o[1] + tp * o[2]))        # increasing neighbour rank
        sbn, ssend, srecv = [], [], []
        for o in offsets:
            q = [me[d] + o[d] for d in range(3)]
            if not all(0 <= q[d] < tp for d in range(3)):
                continue
            qrank = q[0] + tp * (q[1] + tp * q[2])
            mask = np.ones(node.shape, bool)
            for d in range(3):
                if o[d] == -1:
                    mask &= li[d] == 0
                elif o[d] == 1:
                    mask &= li[d] == nx
            shared = node[mask]
            sbn.append((qrank, shared))
            if qrank < rank:
                ssend.append((qrank, shared[top[shared] == rank]))
            else:
                srecv.append((qrank, shared[top[shared] == qrank]))
        self.sbn_nbr = np.array([q for q, _ in sbn], np.int64)
        self.sbn_idx, self.sbn_off = _flat([v for _, v in sbn])
        self.sync_send_nbr = np.array([q for q, v in ssend if len(v)], np.int64)
        self.sync_send_idx, self.sync_send_off = _flat([v for _, v in ssend if len(v)])
        self.sync_recv_nbr = np.array([q for q, v in srecv if len(v)], np.int64)
        self.sync_recv_idx, self.sync_recv_off = _flat([v for _, v in srecv if len(v)])
        # CommMonoQ: face neighbours in the ghost order zeta-, zeta+, eta-, eta+, xi-, xi+
        elem = np.arange(nx ** 3, dtype=np.int64)
        le = (elem % nx, (elem // nx) % nx, elem // (nx * nx))
        faces = []
        for d, s in ((2, -1), (2, 1), (1, -1), (1, 1), (0, -1), (0, 1)):
            q = list(me)
            q[d] += s
            if not 0 <= q[d] < tp:
                continue
            faces.append((q[0] + tp * (q[1] + tp * q[2]), elem[le[d] == (0 if s < 0 else nx - 1)]))
        self.monoq_nbr = np.array([q for q, _ in faces], np.int64)
        self.monoq_idx, self.monoq_off = _flat([v for _, v in faces])

    def arguments(self):
        """The plan's arrays in the order the MPI drivers take them (:data:`PLAN_FIELDS`)."""
        return [getattr(self, f) for f in PLAN_FIELDS]


#: the plan's arrays as the MPI drivers take them
PLAN_FIELDS = ("sbn_nbr", "sbn_idx", "sbn_off",
               "sync_send_nbr", "sync_send_idx", "sync_send_off",
               "sync_recv_nbr", "sync_recv_idx", "sync_recv_off",
               "monoq_nbr", "monoq_idx", "monoq_off")

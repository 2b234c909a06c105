"""Forward wrappers and adjoints of mpi4py calls, called by generated driver adjoints.

Every forward wrapper performs the user's MPI call unchanged and appends a
record to the driver's tape (a Python list) with what its adjoint needs: the
communicator, peers and tags *as actually matched* (from an ``MPI.Status``,
so ``ANY_SOURCE``/``ANY_TAG`` receives work), the number of elements received,
a copy of every buffer the call overwrites (to restore the primal state in the
reverse sweep) and, for ``MIN``/``MAX`` reductions, which rank owned each
extremum.  The adjoint functions (``adjoint_<Method>``) pop nothing themselves:
generated code passes them the record it popped; each checks that the record
is the one it expects (a tape out of order raises :class:`ADError`).

Rules (Utke, Hascoet, Heimbach, Hill, Hovland, Naumann, "Toward adjoinable
MPI", IPDPS 2009; Schanen, Naumann, Hascoet, Utke, "Interpretative adjoints
for numerical simulation codes using MPI", ICCS 2010; the AMPI library):

- ``Send(x)``  <-> ``Recv(tmp)``, ``x_b += tmp`` (``Ssend`` alike);
- ``Recv(y)``  <-> ``Send(y_b)`` to the matched source with the matched tag, ``y_b = 0``;
- ``Sendrecv`` <-> ``Sendrecv`` with both directions swapped;
  ``Sendrecv_replace`` alike;
- ``Isend``/``Irecv`` + ``Wait``/``Waitall``: the adjoint of the wait *starts*
  the reversed communication (``Irecv`` for a send, ``Isend`` of a copy of the
  shadow for a receive, the shadow then zeroed), the adjoint of the
  ``I``-call *completes* it.  All adjoint requests of one wait are started
  before any is completed, so a forward pattern free of deadlock (including
  messages to the own rank) gives a reverse pattern free of deadlock;
- ``Bcast(x, root)`` <-> ``Reduce(x_b, SUM, root)`` into the root's shadow,
  other ranks' shadows zeroed;
- ``Reduce(x, y, SUM, root)`` <-> ``Bcast(y_b, root)``, ``x_b += y_b``,
  root's ``y_b = 0``;
- ``Allreduce(x, y, SUM)`` <-> ``Allreduce(y_b, SUM)`` added to ``x_b``, ``y_b = 0``;
- ``Allreduce(x, y, MIN|MAX)``: as SUM but, per element, only the rank that
  owned the extremum receives the adjoint.  Tie rule: when several ranks hold
  the extremum, the **lowest rank** owns it (a valid subgradient).  Owners are
  found in the forward sweep with one extra ``Allreduce(MIN)`` of ranks;
- ``MPI.IN_PLACE`` is accepted by ``Reduce`` (at the root) and ``Allreduce``;
- ``Barrier`` <-> ``Barrier``;
- ``comm.allreduce(v, op)`` (SUM, MIN, MAX), ``comm.bcast(v, root)`` and
  ``comm.reduce(v, SUM, root)`` on Python/NumPy floats: as their buffer
  counterparts; the adjoint functions return the adjoint of ``v``.

Adjoint messages travel on the forward message's communicator with its tag, in
the reverse direction.  Buffers must be contiguous NumPy arrays (as mpi4py
requires) or ``[array, datatype]`` lists; adjoint messages are contiguous
copies in the primal buffer's memory order, so a shadow may have another layout
than its array.  A shadow of ``None`` (a buffer the driver never differentiates)
sends zeros / discards what it receives, so the partner's adjoint still matches.
"""
from __future__ import annotations

import numpy as np
from mpi4py import MPI

from ..errors import ADError, UnsupportedError

SUM, MIN, MAX = MPI.SUM, MPI.MIN, MPI.MAX


# ----------------------------------------------------------------------------- buffers

def _array(spec):
    """The NumPy array of a buffer spec (an array or ``[array, datatype, ...]``)."""
    arr = spec[0] if isinstance(spec, (list, tuple)) else spec
    if not isinstance(arr, np.ndarray):
        raise UnsupportedError(f"MPI buffer of type {type(arr).__name__}",
                               "pass NumPy arrays (or [array, MPI datatype]) as buffers of differentiated calls")
    return arr


def _order(a: np.ndarray) -> str:
    return "F" if (a.flags.f_contiguous and not a.flags.c_contiguous) else "C"


def _elements(status: MPI.Status, arr: np.ndarray) -> int:
    """Number of elements of ``arr``'s dtype a completed receive wrote."""
    return status.Get_count(MPI.BYTE) // arr.itemsize if arr.itemsize else 0


def _matched(status: MPI.Status):
    """``(source, tag)`` of a completed receive; a receive from ``MPI.PROC_NULL`` reports
    ``ANY_TAG``, which no send accepts: tag 0 then (the adjoint goes to ``PROC_NULL`` anyway)."""
    source, tag = status.Get_source(), status.Get_tag()
    if source == MPI.PROC_NULL or tag < 0:
        return MPI.PROC_NULL if source == MPI.PROC_NULL else source, max(tag, 0)
    return source, tag


def _pack(shadow, like: np.ndarray, count: int | None = None) -> np.ndarray:
    """A contiguous 1-D copy of the first ``count`` elements of ``shadow`` in ``like``'s memory order.

    ``shadow`` is None for a buffer without a shadow: zeros are returned.
    """
    n = like.size if count is None else count
    if shadow is None:
        return np.zeros(n, like.dtype)
    flat = np.ravel(shadow, order=_order(like))
    return np.array(flat[:n], dtype=like.dtype, copy=True)


def _positions(like: np.ndarray, count: int):
    return np.unravel_index(np.arange(count), like.shape, order=_order(like))


def _add(shadow, like: np.ndarray, flat: np.ndarray) -> None:
    """``shadow += flat`` (``flat`` in ``like``'s memory order, possibly shorter)."""
    if shadow is None or shadow.dtype.kind not in "fc" or flat.size == 0:
        return
    if flat.size == like.size:
        shadow += flat.reshape(like.shape, order=_order(like))
    else:
        shadow[_positions(like, flat.size)] += flat


def _zero(shadow, like: np.ndarray, count: int | None = None) -> None:
    """Zero the first ``count`` elements (memory order of ``like``) of ``shadow``."""
    if shadow is None:
        return
    n = like.size if count is None else count
    if n == like.size:
        shadow[...] = 0
    elif n:
        shadow[_positions(like, n)] = 0


def _check(record, op: str):
    if not isinstance(record, _Record) or record.op != op:
        got = getattr(record, "op", type(record).__name__)
        raise ADError(f"driver tape out of order: expected the record of {op}, found {got}")
    return record


class _Record:
    """What the adjoint of one MPI call needs (attributes set per call)."""

    def __init__(self, op: str, comm, **fields):
        self.op, self.comm = op, comm
        self.__dict__.update(fields)


# ----------------------------------------------------------------------------- point to point

def Send(tape, comm, buf, buf_b, dest, tag=0, _method="Send"):
    """``comm.Send`` (or ``Ssend``); the adjoint receives ``buf``'s adjoint back from ``dest``."""
    getattr(comm, _method)(buf, dest, tag)
    tape.append(_Record("Send", comm, arr=_array(buf), shadow=buf_b, peer=dest, tag=tag))


def Ssend(tape, comm, buf, buf_b, dest, tag=0):
    """``comm.Ssend``: adjoint as :func:`Send`."""
    Send(tape, comm, buf, buf_b, dest, tag, _method="Ssend")


def adjoint_Send(record) -> None:
    """Receive the adjoint of the sent values from the receiver and add it to the shadow."""
    r = _check(record, "Send")
    tmp = np.zeros(r.arr.size, r.arr.dtype)
    r.comm.Recv(tmp, source=r.peer, tag=r.tag)
    _add(r.shadow, r.arr, tmp)


def Recv(tape, comm, buf, buf_b, source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, status=None):
    """``comm.Recv``; records the matched source and tag and the overwritten values."""
    arr = _array(buf)
    saved = arr.copy()
    st = status if status is not None else MPI.Status()
    comm.Recv(buf, source, tag, status=st)
    peer, tag = _matched(st)
    tape.append(_Record("Recv", comm, arr=arr, shadow=buf_b, saved=saved, peer=peer, tag=tag,
                        count=_elements(st, arr)))


def adjoint_Recv(record) -> None:
    """Send the shadow of the received values back to their sender, zero it, restore the buffer."""
    r = _check(record, "Recv")
    msg = _pack(r.shadow, r.arr, r.count)
    _zero(r.shadow, r.arr, r.count)
    r.arr[...] = r.saved
    r.comm.Send(msg, dest=r.peer, tag=r.tag)


def Sendrecv(tape, comm, sendbuf, sendbuf_b, dest, sendtag=0, recvbuf=None, recvbuf_b=None,
             source=MPI.ANY_SOURCE, recvtag=MPI.ANY_TAG, status=None):
    """``comm.Sendrecv``: a send to ``dest`` and a receive from ``source`` at once."""
    send, recv = _array(sendbuf), _array(recvbuf)
    saved = recv.copy()
    st = status if status is not None else MPI.Status()
    comm.Sendrecv(sendbuf, dest, sendtag, recvbuf, source, recvtag, status=st)
    src, rtag = _matched(st)
    tape.append(_Record("Sendrecv", comm, send=send, send_b=sendbuf_b, recv=recv, recv_b=recvbuf_b,
                        saved=saved, dest=dest, sendtag=sendtag, source=src, recvtag=rtag,
                        count=_elements(st, recv)))


def adjoint_Sendrecv(record) -> None:
    """Send the received values' shadow to their source while receiving the sent values'
    adjoint from ``dest`` (the forward ``Sendrecv`` with directions swapped)."""
    r = _check(record, "Sendrecv")
    msg = _pack(r.recv_b, r.recv, r.count)
    _zero(r.recv_b, r.recv, r.count)
    r.recv[...] = r.saved
    tmp = np.zeros(r.send.size, r.send.dtype)
    r.comm.Sendrecv(msg, dest=r.source, sendtag=r.recvtag, recvbuf=tmp, source=r.dest, recvtag=r.sendtag)
    _add(r.send_b, r.send, tmp)


def Sendrecv_replace(tape, comm, buf, buf_b, dest, sendtag=0, source=MPI.ANY_SOURCE,
                     recvtag=MPI.ANY_TAG, status=None):
    """``comm.Sendrecv_replace``: ``buf`` is sent to ``dest`` and overwritten by the message from ``source``."""
    arr = _array(buf)
    saved = arr.copy()
    st = status if status is not None else MPI.Status()
    comm.Sendrecv_replace(buf, dest, sendtag, source, recvtag, status=st)
    src, rtag = _matched(st)
    tape.append(_Record("Sendrecv_replace", comm, arr=arr, shadow=buf_b, saved=saved, dest=dest,
                        sendtag=sendtag, source=src, recvtag=rtag, count=_elements(st, arr)))


def adjoint_Sendrecv_replace(record) -> None:
    """Send the received part's shadow to its source; the shadow becomes the adjoint of the
    values that were sent (received back from ``dest``) plus the part that was not overwritten."""
    r = _check(record, "Sendrecv_replace")
    msg = _pack(r.shadow, r.arr, r.count)
    _zero(r.shadow, r.arr, r.count)
    r.arr[...] = r.saved
    tmp = np.zeros(r.arr.size, r.arr.dtype)
    r.comm.Sendrecv(msg, dest=r.source, sendtag=r.recvtag, recvbuf=tmp, source=r.dest, recvtag=r.sendtag)
    _add(r.shadow, r.arr, tmp)


# ----------------------------------------------------------------------------- non-blocking

class ADRequest:
    """A request of a differentiated ``Isend``/``Issend``/``Irecv``.

    The driver sees it where it sees the mpi4py request (``req.Wait()``,
    ``MPI.Request.Waitall([...])``); generated code completes it through
    :func:`Wait`/:func:`Waitall`.  Holds the buffer, its shadow, the peer and
    tag (for a receive: as matched, set at completion), a copy of a receive
    buffer's old values and, in the reverse sweep, the adjoint request.
    """

    def __init__(self, op, comm, spec, shadow, peer, tag, request):
        self.op, self.comm, self.arr, self.shadow = op, comm, _array(spec), shadow
        self.peer, self.tag, self.request = peer, tag, request
        self.saved = None
        self.count = self.arr.size
        self.done = False
        self.adj_request = None
        self.adj_buffer = None

    def _completed(self, status) -> None:
        self.done = True
        if self.op == "Irecv":
            self.peer, self.tag = _matched(status)
            self.count = _elements(status, self.arr)

    def _start_adjoint(self) -> None:
        if self.op == "Isend":      # adjoint of the send's completion: post the receive of its adjoint
            self.adj_buffer = np.zeros(self.arr.size, self.arr.dtype)
            self.adj_request = self.comm.Irecv(self.adj_buffer, source=self.peer, tag=self.tag)
        else:                       # adjoint of the receive's completion: send the shadow back, zero it
            self.adj_buffer = _pack(self.shadow, self.arr, self.count)
            _zero(self.shadow, self.arr, self.count)
            self.adj_request = self.comm.Isend(self.adj_buffer, dest=self.peer, tag=self.tag)

    def __repr__(self):
        return f"<ADRequest {self.op} peer={self.peer} tag={self.tag} done={self.done}>"


def Isend(tape, comm, buf, buf_b, dest, tag=0, _method="Isend"):
    """``comm.Isend`` (or ``Issend``); returns an :class:`ADRequest` (also pushed on the tape)."""
    req = ADRequest("Isend", comm, buf, buf_b, dest, tag, getattr(comm, _method)(buf, dest, tag))
    tape.append(req)
    return req


def Issend(tape, comm, buf, buf_b, dest, tag=0):
    """``comm.Issend``: as :func:`Isend`."""
    return Isend(tape, comm, buf, buf_b, dest, tag, _method="Issend")


def Irecv(tape, comm, buf, buf_b, source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG):
    """``comm.Irecv``; returns an :class:`ADRequest` (also pushed on the tape)."""
    arr = _array(buf)
    saved = arr.copy()
    req = ADRequest("Irecv", comm, buf, buf_b, source, tag, comm.Irecv(buf, source, tag))
    req.saved = saved
    tape.append(req)
    return req


def _req_check(req, op):
    if not isinstance(req, ADRequest) or req.op != op:
        raise ADError(f"driver tape out of order: expected the request of {op}, found {req!r}")
    if req.adj_request is None:
        raise UnsupportedError(f"{op} request that the driver never completes",
                               "complete every Isend/Irecv request with Wait or Waitall in the driver")
    return req


def adjoint_Isend(req) -> None:
    """Complete the adjoint receive the wait's adjoint posted; add what arrived to the shadow."""
    r = _req_check(req, "Isend")
    r.adj_request.Wait()
    _add(r.shadow, r.arr, r.adj_buffer)


def adjoint_Issend(req) -> None:
    """As :func:`adjoint_Isend`."""
    adjoint_Isend(req)


def adjoint_Irecv(req) -> None:
    """Complete the adjoint send the wait's adjoint posted; restore the receive buffer."""
    r = _req_check(req, "Irecv")
    r.adj_request.Wait()
    r.arr[...] = r.saved


def Wait(tape, request, status=None):
    """``request.Wait()``; records which differentiated request it completed."""
    st = status if status is not None else MPI.Status()
    if isinstance(request, ADRequest):
        request.request.Wait(st)
        completed = [] if request.done else [request]
        if not request.done:
            request._completed(st)
    else:
        request.Wait(st)
        completed = []
    tape.append(_Record("Wait", None, completed=completed))


def Waitall(tape, requests, statuses=None):
    """``MPI.Request.Waitall(requests)``; records which differentiated requests it completed."""
    requests = list(requests)
    sts = statuses if statuses is not None else [MPI.Status() for _ in requests]
    if len(sts) < len(requests):
        sts = list(sts) + [MPI.Status() for _ in range(len(requests) - len(sts))]
    MPI.Request.Waitall([r.request if isinstance(r, ADRequest) else r for r in requests], sts)
    completed = []
    for r, st in zip(requests, sts):
        if isinstance(r, ADRequest) and not r.done:
            r._completed(st)
            completed.append(r)
    tape.append(_Record("Waitall", None, completed=completed))


def adjoint_Wait(record) -> None:
    """Start the reversed communication of the request the wait completed."""
    for r in _check(record, "Wait").completed:
        r._start_adjoint()


def adjoint_Waitall(record) -> None:
    """Start the reversed communication of every request the wait completed (all before any completes)."""
    for r in _check(record, "Waitall").completed:
        r._start_adjoint()


# ----------------------------------------------------------------------------- collectives

def Barrier(tape, comm):
    """``comm.Barrier()``; its adjoint is a barrier too."""
    comm.Barrier()
    tape.append(_Record("Barrier", comm))


def adjoint_Barrier(record) -> None:
    _check(record, "Barrier").comm.Barrier()


def Bcast(tape, comm, buf, buf_b, root=0):
    """``comm.Bcast``; non-root ranks' overwritten values are saved."""
    arr = _array(buf)
    rank = comm.Get_rank()
    saved = None if rank == root else arr.copy()
    comm.Bcast(buf, root)
    tape.append(_Record("Bcast", comm, arr=arr, shadow=buf_b, saved=saved, root=root, rank=rank))


def adjoint_Bcast(record) -> None:
    """Sum every rank's shadow into the root's shadow (``Reduce SUM``); zero the others."""
    r = _check(record, "Bcast")
    g = _pack(r.shadow, r.arr)
    total = np.zeros_like(g)
    r.comm.Reduce(g, total if r.rank == r.root else None, op=SUM, root=r.root)
    _zero(r.shadow, r.arr)
    if r.rank == r.root:
        _add(r.shadow, r.arr, total)
    else:
        r.arr[...] = r.saved


def _op_name(op) -> str:
    for name, o in (("SUM", SUM), ("MIN", MIN), ("MAX", MAX)):
        if op == o:
            return name
    raise UnsupportedError(f"reduction operation {op!r}", "differentiated reductions use MPI.SUM, MPI.MIN or MPI.MAX")


def Reduce(tape, comm, sendbuf, sendbuf_b, recvbuf, recvbuf_b, op=SUM, root=0):
    """``comm.Reduce`` with ``MPI.SUM`` (``sendbuf`` may be ``MPI.IN_PLACE`` at the root)."""
    if _op_name(op) != "SUM":
        raise UnsupportedError("Reduce with MIN/MAX", "use Allreduce for MIN/MAX, or Reduce with MPI.SUM")
    rank = comm.Get_rank()
    in_place = sendbuf is MPI.IN_PLACE
    recv = _array(recvbuf) if rank == root else None
    send = recv if in_place else _array(sendbuf)
    saved = recv.copy() if recv is not None else None
    comm.Reduce(sendbuf, recvbuf, op=op, root=root)
    tape.append(_Record("Reduce", comm, send=send, send_b=recvbuf_b if in_place else sendbuf_b,
                        recv=recv, recv_b=recvbuf_b, saved=saved, root=root, rank=rank))


def adjoint_Reduce(record) -> None:
    """Broadcast the root's result shadow (zeroing it) and add it to every rank's send shadow."""
    r = _check(record, "Reduce")
    if r.rank == r.root:
        g = _pack(r.recv_b, r.recv)
        _zero(r.recv_b, r.recv)
        r.recv[...] = r.saved
    else:
        g = np.zeros(r.send.size, r.send.dtype)
    r.comm.Bcast(g, root=r.root)
    _add(r.send_b, r.send, g)


def Allreduce(tape, comm, sendbuf, sendbuf_b, recvbuf, recvbuf_b, op=SUM):
    """``comm.Allreduce`` with SUM, MIN or MAX (``sendbuf`` may be ``MPI.IN_PLACE``).

    For MIN/MAX, one more ``Allreduce(MIN)`` of rank numbers finds, per element,
    the lowest rank holding the extremum (the owner, which alone gets the adjoint).
    """
    name = _op_name(op)
    in_place = sendbuf is MPI.IN_PLACE
    recv = _array(recvbuf)
    send = recv if in_place else _array(sendbuf)
    saved = recv.copy()
    comm.Allreduce(sendbuf, recvbuf, op=op)
    owned = None
    if name != "SUM":
        mine = saved if in_place else send
        rank, size = comm.Get_rank(), comm.Get_size()
        cand = np.where(np.ravel(mine, order=_order(recv)) == np.ravel(recv, order=_order(recv)),
                        rank, size).astype(np.int64)
        owner = np.empty_like(cand)
        comm.Allreduce(cand, owner, op=MIN)
        owned = owner == rank
    tape.append(_Record("Allreduce", comm, send=send, send_b=recvbuf_b if in_place else sendbuf_b,
                        recv=recv, recv_b=recvbuf_b, saved=saved, owned=owned))


def adjoint_Allreduce(record) -> None:
    """Sum the result shadows of all ranks (``Allreduce SUM``), zero the result shadow and add the
    sum to the send shadow (for MIN/MAX only where this rank owned the extremum)."""
    r = _check(record, "Allreduce")
    g = _pack(r.recv_b, r.recv)
    total = np.zeros_like(g)
    r.comm.Allreduce(g, total, op=SUM)
    _zero(r.recv_b, r.recv)
    r.recv[...] = r.saved
    if r.owned is not None:
        total = np.where(r.owned, total, 0)
    _add(r.send_b, r.send, total)


# ----------------------------------------------------------------------------- object (lowercase) collectives

def _scalar_bar(bar):
    return 0.0 if bar is None else bar


def allreduce(tape, comm, sendobj, op=SUM):
    """``comm.allreduce(v, op)`` for a float ``v`` (SUM also for arrays); returns the result."""
    name = _op_name(op)
    result = comm.allreduce(sendobj, op=op)
    owned = None
    if name != "SUM":
        if np.ndim(sendobj) != 0:
            raise UnsupportedError(f"comm.allreduce(..., op=MPI.{name}) on an array",
                                   "use comm.Allreduce on arrays")
        rank, size = comm.Get_rank(), comm.Get_size()
        owned = comm.allreduce(rank if sendobj == result else size, op=MIN) == rank
    tape.append(_Record("allreduce", comm, owned=owned))
    return result


def adjoint_allreduce(record, bar):
    """The adjoint of ``sendobj``: the sum over ranks of the result's adjoint (MIN/MAX: owner only)."""
    r = _check(record, "allreduce")
    total = r.comm.allreduce(_scalar_bar(bar), op=SUM)
    if r.owned is not None and not r.owned:
        return 0.0 * total
    return total


def bcast(tape, comm, obj, root=0):
    """``comm.bcast(v, root)``; returns the root's value on every rank."""
    result = comm.bcast(obj, root=root)
    tape.append(_Record("bcast", comm, root=root, rank=comm.Get_rank()))
    return result


def adjoint_bcast(record, bar):
    """The adjoint of ``obj``: on the root the sum of all ranks' result adjoints, elsewhere 0."""
    r = _check(record, "bcast")
    total = r.comm.reduce(_scalar_bar(bar), op=SUM, root=r.root)
    return total if r.rank == r.root else 0.0


def reduce(tape, comm, sendobj, op=SUM, root=0):
    """``comm.reduce(v, MPI.SUM, root)``; returns the sum on the root, None elsewhere."""
    if _op_name(op) != "SUM":
        raise UnsupportedError("comm.reduce with MIN/MAX", "use comm.allreduce for MIN/MAX")
    result = comm.reduce(sendobj, op=op, root=root)
    tape.append(_Record("reduce", comm, root=root, rank=comm.Get_rank()))
    return result


def adjoint_reduce(record, bar):
    """The adjoint of ``sendobj``: the root's result adjoint, broadcast."""
    r = _check(record, "reduce")
    return r.comm.bcast(_scalar_bar(bar) if r.rank == r.root else None, root=r.root)


# ----------------------------------------------------------------------------- sweeps

def separate_sweeps(args) -> None:
    """Barrier on every communicator among ``args`` (the driver's arguments, in order).

    Called between the forward and the reverse sweep of drivers with
    point-to-point receives: no rank starts sending adjoint messages while
    another may still post forward receives (with ``ANY_SOURCE``/``ANY_TAG`` a
    forward receive could otherwise match an adjoint message).
    """
    for a in args:
        if isinstance(a, MPI.Comm) and a != MPI.COMM_NULL:
            a.Barrier()

"""Tables the driver transformation uses to recognise mpi4py calls.

No mpi4py import here: generating a driver adjoint does not initialise MPI.

``SUPPORTED`` maps each method with an adjoint rule to its parameters (as in
mpi4py 4, in order; a ``(name, default)`` pair marks an optional one) and the
role of each buffer parameter.  Buffer roles: ``"send"`` (read), ``"recv"``
(overwritten), ``"inout"`` (read and overwritten: ``Bcast``,
``Sendrecv_replace``).  ``PASSIVE_METHODS`` are queries and communicator
management without data to differentiate; they run in the forward sweep only.
Every other name in ``MPI_NAMES`` is an MPI call without an adjoint rule:
the driver transformation rejects it with :class:`~adtrans.errors.UnsupportedError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class MpiSpec:
    """Parameters of one mpi4py method and the role of its buffer parameters.

    ``params``: names in positional order; ``required``: how many of them have
    no default; ``buffers``: ``{param: "send" | "recv" | "inout"}``;
    ``ops``: allowed reduction operations (``MPI.<name>``), empty when the
    method takes none; ``kind``: ``"buffer"`` (buffer-based, uppercase),
    ``"object"`` (pickle-based, lowercase, on Python floats), ``"request"``
    (completion of requests), ``"sync"`` (``Barrier``).

    Facts the driver transformation asks about: ``collective`` (every rank takes
    part, so a receive buffer is active only where some rank sends an active
    value), ``p2p_receive`` (a point-to-point receive: the adjoint sweep sends
    adjoints back), ``creates_request`` (the result is a request to wait on);
    :attr:`forward` and :attr:`adjoint` name the functions of
    :mod:`adtrans.mpi.rules` that run it (``adjoint_<name>``); ``request_on_receiver``:
    the request is the receiver (``req.Wait()``).
    """
    params: tuple
    required: int
    buffers: dict = field(default_factory=dict)
    ops: tuple = ()
    kind: str = "buffer"
    collective: bool = False
    p2p_receive: bool = False
    creates_request: bool = False
    request_on_receiver: bool = False
    forward_name: str = ""
    adjoint_name: str = ""
    method: str = ""

    @property
    def forward(self) -> str:
        """The recording wrapper in :mod:`adtrans.mpi.rules` (``Barrier`` for ``barrier``)."""
        return self.forward_name or self.method

    @property
    def adjoint(self) -> str:
        """Suffix of its adjoint in :mod:`adtrans.mpi.rules` (``adjoint_Send`` for ``Ssend``)."""
        return self.adjoint_name or self.forward


SUPPORTED: dict[str, MpiSpec] = {
    "Send": MpiSpec(("buf", "dest", "tag"), 2, {"buf": "send"}),
    "Ssend": MpiSpec(("buf", "dest", "tag"), 2, {"buf": "send"}, adjoint_name="Send"),
    "Recv": MpiSpec(("buf", "source", "tag", "status"), 1, {"buf": "recv"}, p2p_receive=True),
    "Sendrecv": MpiSpec(("sendbuf", "dest", "sendtag", "recvbuf", "source", "recvtag", "status"), 2,
                        {"sendbuf": "send", "recvbuf": "recv"}, p2p_receive=True),
    "Sendrecv_replace": MpiSpec(("buf", "dest", "sendtag", "source", "recvtag", "status"), 2,
                                {"buf": "inout"}, p2p_receive=True),
    "Isend": MpiSpec(("buf", "dest", "tag"), 2, {"buf": "send"}, creates_request=True),
    "Issend": MpiSpec(("buf", "dest", "tag"), 2, {"buf": "send"}, creates_request=True, adjoint_name="Isend"),
    "Irecv": MpiSpec(("buf", "source", "tag"), 1, {"buf": "recv"}, creates_request=True, p2p_receive=True),
    "Bcast": MpiSpec(("buf", "root"), 1, {"buf": "inout"}, collective=True),
    "Reduce": MpiSpec(("sendbuf", "recvbuf", "op", "root"), 2, {"sendbuf": "send", "recvbuf": "recv"},
                      ops=("SUM",), collective=True),
    "Allreduce": MpiSpec(("sendbuf", "recvbuf", "op"), 2, {"sendbuf": "send", "recvbuf": "recv"},
                         ops=("SUM", "MIN", "MAX"), collective=True),
    "Barrier": MpiSpec((), 0, kind="sync"),
    "barrier": MpiSpec((), 0, kind="sync", forward_name="Barrier"),
    "allreduce": MpiSpec(("sendobj", "op"), 1, ops=("SUM", "MIN", "MAX"), kind="object"),
    "bcast": MpiSpec(("obj", "root"), 1, kind="object"),
    "reduce": MpiSpec(("sendobj", "op", "root"), 1, ops=("SUM",), kind="object"),
    "Wait": MpiSpec(("status",), 0, kind="request", request_on_receiver=True),
    "wait": MpiSpec(("status",), 0, kind="request", request_on_receiver=True, forward_name="Wait"),
    "Waitall": MpiSpec(("requests", "statuses"), 1, kind="request"),
    "waitall": MpiSpec(("requests", "statuses"), 1, kind="request", forward_name="Waitall"),
}
SUPPORTED = {m: replace(spec, method=m) for m, spec in SUPPORTED.items()}

#: methods that create a request (their result must be waited on in the driver)
REQUEST_CREATORS = frozenset(m for m, spec in SUPPORTED.items() if spec.creates_request)

PASSIVE_METHODS = frozenset({
    "Get_rank", "Get_size", "Get_name", "Get_group", "Get_topology", "Get_topo", "Get_coords",
    "Get_cart_rank", "Get_dim", "Get_dims", "Shift", "Is_inter", "Is_intra", "Get_attr", "Get_info",
    "Get_errhandler", "Get_parent", "Get_remote_size", "Dup", "Dup_with_info", "Split", "Split_type",
    "Create_cart", "Create_graph", "Clone", "Compare", "Free", "Probe", "Iprobe", "probe", "iprobe",
    "Get_source", "Get_tag", "Get_count", "Get_elements", "Get_error", "Wtime", "Wtick",
    "Get_processor_name", "Get_version", "Get_library_version", "Abort", "Is_initialized", "Is_finalized",
})

# Every public method name of mpi4py 4.1's Comm/Intracomm/Cartcomm/Graphcomm/Intercomm/
# Request/Prequest/Grequest/Win/File/Message classes that moves data or creates requests,
# uppercase, plus the lowercase communication methods.  (Lowercase names shared with
# Python lists or NumPy arrays are left out, so `reqs.append(r)` and `u.sum()` are not MPI.)
MPI_NAMES = frozenset("""
Accept Accumulate Ack_failed Agree Allgather Allgather_init Allgatherv Allgatherv_init Allocate
Allocate_shared Allreduce Allreduce_init Alltoall Alltoall_init Alltoallv Alltoallv_init Alltoallw
Alltoallw_init Attach Attach_buffer Barrier Barrier_init Bcast Bcast_init Bsend Bsend_init
Call_errhandler Cancel Cart_map Close Complete Connect Create Create_dist_graph
Create_dist_graph_adjacent Create_dynamic Create_errhandler Create_from_group Create_from_groups
Create_group Create_intercomm Create_keyval Delete Delete_attr Detach Detach_buffer Disconnect Exscan
Exscan_init Fence Fetch_and_op Flush Flush_all Flush_buffer Flush_local Flush_local_all Free_keyval
Gather Gather_init Gatherv Gatherv_init Get Get_accumulate Get_status Get_status_all Get_status_any
Get_status_some Graph_map Iagree Iallgather Iallgatherv Iallreduce Ialltoall Ialltoallv Ialltoallw
Ibarrier Ibcast Ibsend Idup Idup_with_info Iexscan Iflush_buffer Igather Igatherv Improbe
Ineighbor_allgather Ineighbor_allgatherv Ineighbor_alltoall Ineighbor_alltoallv Ineighbor_alltoallw
Iread Iread_all Iread_at Iread_at_all Iread_shared Irecv Ireduce Ireduce_scatter
Ireduce_scatter_block Irsend Iscan Iscatter Iscatterv Isend Isendrecv Isendrecv_replace Ishrink Issend
Iwrite Iwrite_all Iwrite_at Iwrite_at_all Iwrite_shared Join Lock Lock_all Merge Mprobe
Neighbor_allgather Neighbor_allgather_init Neighbor_allgatherv Neighbor_allgatherv_init
Neighbor_alltoall Neighbor_alltoall_init Neighbor_alltoallv Neighbor_alltoallv_init Neighbor_alltoallw
Neighbor_alltoallw_init Open Parrived Post Pready Pready_list Pready_range Preallocate Precv_init
Psend_init Put Raccumulate Read Read_all Read_all_begin Read_all_end Read_at Read_at_all
Read_at_all_begin Read_at_all_end Read_ordered Read_ordered_begin Read_ordered_end Read_shared Recv
Recv_init Reduce Reduce_init Reduce_scatter Reduce_scatter_block Reduce_scatter_block_init
Reduce_scatter_init Revoke Rget Rget_accumulate Rput Rsend Rsend_init Scan Scan_init Scatter
Scatter_init Scatterv Scatterv_init Send Send_init Sendrecv Sendrecv_replace Shrink Spawn
Spawn_multiple Ssend Ssend_init Start Startall Sync Test Testall Testany Testsome Unlock Unlock_all
Wait Waitall Waitany Waitsome Write Write_all Write_all_begin Write_all_end Write_at Write_at_all
Write_at_all_begin Write_at_all_end Write_ordered Write_ordered_begin Write_ordered_end Write_shared
allgather allreduce alltoall barrier bcast bsend exscan gather ibsend improbe irecv isend issend
mprobe neighbor_allgather neighbor_alltoall recv reduce scan scatter send sendrecv ssend test testall
testany testsome wait waitall waitany waitsome
""".split()) | PASSIVE_METHODS


def describe_supported() -> str:
    """One line listing the mpi4py calls with adjoint rules (for error hints)."""
    names = [n for n in SUPPORTED if n[0].isupper()]
    return ("supported: " + ", ".join(names) + ", MPI.Request.Waitall, and comm.allreduce/bcast/reduce "
            "on floats; Allreduce/allreduce with op=MPI.SUM, MPI.MIN or MPI.MAX, Reduce/reduce with MPI.SUM")

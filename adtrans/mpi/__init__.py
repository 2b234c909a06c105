"""Adjoint rules for mpi4py communication in differentiated driver functions.

The rules are the standard ones of adjoint MPI:

- J. Utke, L. Hascoet, P. Heimbach, C. Hill, P. Hovland, U. Naumann,
  "Toward adjoinable MPI", IEEE IPDPS 2009 (PDSEC workshop);
- M. Schanen, U. Naumann, L. Hascoet, J. Utke, "Interpretative adjoints for
  numerical simulation codes using MPI", Procedia Computer Science 1 (2010);
- the Adjoinable MPI (AMPI) library documentation (Argonne/INRIA, 2013-).

Summary (``x_b`` is the shadow, i.e. the adjoint, of ``x``):

=====================  =======================================================
forward                adjoint (run in the reverse sweep, in reverse order)
=====================  =======================================================
``Send(x, d, t)``      ``Recv(tmp, d, t)``; ``x_b += tmp``
``Recv(y, s, t)``      ``Send(y_b, s, t)``; ``y_b = 0``  (``s``/``t`` as received)
``Sendrecv``           ``Sendrecv`` with the directions swapped, as the two above
``Isend``/``Irecv``    the adjoint of the *wait* starts the reversed
+ ``Wait(all)``        communication (``Irecv``/``Isend``), the adjoint of the
                       ``I``-call completes it (no deadlock, also to the own rank)
``Bcast(x, root)``     ``Reduce(x_b, SUM, root)`` into the root's shadow;
                       non-root shadows zeroed
``Reduce(x, y, SUM)``  ``Bcast(y_b, root)``; ``x_b += y_b``; root's ``y_b = 0``
``Allreduce SUM``      ``Allreduce(y_b, SUM)``; ``x_b += that``; ``y_b = 0``
``Allreduce MIN/MAX``  as SUM, but only the rank that owned the extremum (per
                       element) receives the adjoint; ties: lowest rank wins
``Barrier``            ``Barrier``
=====================  =======================================================

Adjoint messages use the same communicator and tag as the forward message, in
the reverse direction.  :mod:`adtrans.mpi.rules` holds the forward wrappers
(called by generated driver adjoints in the forward sweep; they record what the
adjoint needs on the tape) and the adjoints; :mod:`adtrans.mpi.specs` the
tables the driver transformation uses to recognise mpi4py calls.
"""
from .specs import MPI_NAMES, PASSIVE_METHODS, SUPPORTED

__all__ = ["MPI_NAMES", "PASSIVE_METHODS", "SUPPORTED"]

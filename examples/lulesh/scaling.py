"""Weak scaling of LULESH's adtrans gradient under MPI: gradient time / primal time.

Run under mpiexec (``examples/lulesh/scaling.sh`` does 1, 8 and 27 ranks): every rank
holds an ``-s N`` cube; after a warm-up (adjoint generation and compilation), the primal
(K cycles of :func:`.lulesh_mpi.origin_energy_after_mpi`) and its gradient (d e0 / d initial
state, :func:`.grad_mpi.mpi_origin_gradient`) are timed ``--repeat`` times; the slowest
rank's time counts, the median is reported.  Rank 0 prints one line
``SCALING ranks=R s=N cycles=K primal_s=... gradient_s=... ratio=...`` (and JSON with --json).
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402

from examples.lulesh.grad_mpi import mpi_origin_gradient  # noqa: E402
from examples.lulesh.lulesh_mpi import mpi_domain, mpi_origin_arguments, origin_energy_after_mpi  # noqa: E402


def slowest(comm, seconds):
    return comm.allreduce(seconds, op=MPI.MAX)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-s", dest="size", type=int, default=5)
    ap.add_argument("-i", dest="cycles", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    d, plan = mpi_domain(a.size, comm)
    mpi_origin_gradient(d, plan, comm, a.cycles)                       # warm-up: generate + compile
    prim, grad = [], []
    for _ in range(a.repeat):
        args = [x.copy() if isinstance(x, np.ndarray) else x for x in mpi_origin_arguments(d, plan, comm, a.cycles)]
        comm.Barrier()
        t0 = time.perf_counter()
        origin_energy_after_mpi(*args)
        prim.append(slowest(comm, time.perf_counter() - t0))
        grad.append(slowest(comm, mpi_origin_gradient(d, plan, comm, a.cycles)[2]))
    if comm.Get_rank() == 0:
        res = {"ranks": comm.Get_size(), "s": a.size, "cycles": a.cycles, "cores": os.cpu_count(),
               "primal_s": statistics.median(prim), "gradient_s": statistics.median(grad)}
        res["ratio"] = res["gradient_s"] / res["primal_s"]
        print("SCALING ranks=%(ranks)d s=%(s)d cycles=%(cycles)d cores=%(cores)d primal_s=%(primal_s).4f "
              "gradient_s=%(gradient_s).4f ratio=%(ratio).2f" % res, flush=True)
        if a.json:
            print(json.dumps(res))


if __name__ == "__main__":
    main()

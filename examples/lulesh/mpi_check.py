"""LULESH under MPI against the serial port; run with ``mpiexec -n 8 python examples/lulesh/mpi_check.py``.

``primal -s N -i I``: rank 0 prints ``E0 <origin energy>`` of the MPI run and
``SERIAL <value>`` of the serial run of the same global mesh (edge tp*N), and
``REL <relative difference>``.  ``grad -s N -i K``: the MPI gradient of the origin
energy after K cycles w.r.t. the initial e, x, y, z (jittered mesh) gathered on
rank 0 against adtrans' serial gradient; prints the table and ``OK`` when every
field agrees to ``--tol`` (default 1e-12) relative to its largest entry, else
``FAIL`` (exit status 1).  ``mpi-demo`` in the Makefile runs the gradient check.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from mpi4py import MPI  # noqa: E402

from examples.lulesh.domain import Domain  # noqa: E402
from examples.lulesh.lulesh import run_cycles  # noqa: E402
from examples.lulesh.lulesh_mpi import run_mpi  # noqa: E402
from examples.lulesh.grad_mpi import check_against_serial  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("primal", "grad"))
    ap.add_argument("-s", dest="size", type=int, default=2, help="edge of each rank's cube")
    ap.add_argument("-i", dest="its", type=int, default=3, help="cycles")
    ap.add_argument("--tol", type=float, default=1e-12)
    ap.add_argument("--no-serial", action="store_true", help="primal: skip the serial run")
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    tp = round(comm.Get_size() ** (1.0 / 3.0))
    if a.mode == "primal":
        e0 = run_mpi(a.size, a.its, comm)
        if comm.Get_rank() == 0:
            print("E0 %.17e" % e0)
            if not a.no_serial:
                d = Domain(tp * a.size)
                run_cycles(d, a.its)
                print("SERIAL %.17e" % d.e[0])
                print("REL %.3e" % (abs(e0 - d.e[0]) / abs(d.e[0])))
        return 0
    res = check_against_serial(comm, a.size, a.its)
    if comm.Get_rank() != 0:
        return 0
    print("LULESH gradient on %d ranks (-s %d per rank, global edge %d), %d cycles, jittered mesh"
          % (comm.Get_size(), a.size, tp * a.size, a.its))
    print("e0: MPI %.17e  serial %.17e" % (res["e0_mpi"], res["e0_serial"]))
    print("%-8s %24s %16s" % ("d e0/d", "max|mpi - serial|/max", "max|serial|"))
    ok = True
    for name, rel, scale in res["rows"]:
        print("%-8s %24.3e %16.6e" % (name, rel, scale))
        ok = ok and rel <= a.tol
    ok = ok and abs(res["e0_mpi"] - res["e0_serial"]) <= a.tol * abs(res["e0_serial"])
    print("time: MPI gradient %.2f s (first call: generation + compile), serial %.2f s"
          % (res["seconds_mpi"], res["seconds_serial"]))
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    rc = main()
    sys.stdout.flush()
    if rc:
        MPI.COMM_WORLD.Abort(rc)

"""LULESH under MPI (examples/lulesh/lulesh_mpi.py): the primal against the C++ MPI build
and the serial port, and the adtrans gradient on 8 ranks against the serial gradient.

Each test spawns ``mpiexec -n R python examples/lulesh/mpi_check.py`` with a timeout.
"""
import os
import re

import pytest

from test_mpi import run_mpi

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(os.path.dirname(HERE), "examples", "lulesh", "mpi_check.py")
#: the C++ LULESH 2.0 MPI build, mpiexec -n 8 lulesh2.0 -s 5 -i 10 (the same as serial -s 10 -i 10)
REF_MPI8_S5_I10 = 2.59676419555243687e+05


def values(proc):
    out = dict(re.findall(r"^(E0|SERIAL|REL) (\S+)$", proc.stdout, re.M))
    assert "E0" in out, f"rc={proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return {k: float(v) for k, v in out.items()}


def test_eight_ranks_match_serial_of_twice_the_edge():
    proc = run_mpi(8, CHECK, "primal", "-s", "3", "-i", "10", timeout=240)
    v = values(proc)
    assert abs(v["E0"] - v["SERIAL"]) <= 1e-12 * abs(v["SERIAL"]), proc.stdout


def test_one_rank_is_the_serial_program():
    v = values(run_mpi(1, CHECK, "primal", "-s", "5", "-i", "10", timeout=120))
    assert v["E0"] == v["SERIAL"] == 3.24595524444012226e+04


@pytest.mark.slow
def test_eight_ranks_match_the_cpp_mpi_build():
    v = values(run_mpi(8, CHECK, "primal", "-s", "5", "-i", "10", "--no-serial", timeout=300))
    assert abs(v["E0"] - REF_MPI8_S5_I10) <= 1e-12 * REF_MPI8_S5_I10


@pytest.mark.slow
def test_27_ranks_match_serial_s15():
    proc = run_mpi(27, CHECK, "primal", "-s", "5", "-i", "10", timeout=900)
    v = values(proc)
    assert abs(v["E0"] - v["SERIAL"]) <= 1e-12 * abs(v["SERIAL"]), proc.stdout


@pytest.mark.slow
def test_eight_rank_gradient_equals_serial():
    """d e0 (3 cycles) / d initial (e, x, y, z) on 8 ranks of -s 2, gathered on rank 0, against
    adtrans' serial gradient of the 4^3 mesh: 1e-12 relative to each field's largest entry.
    Slow: cold, it compiles the adjoints of ~25 kernels; one rank compiles them first, so that the
    eight ranks load them from the cache instead of compiling them eight times on two cores."""
    warm = run_mpi(1, CHECK, "grad", "-s", "4", "-i", "3", timeout=1500)
    assert re.search(r"^OK$", warm.stdout, re.M), f"{warm.stdout}\n{warm.stderr[-3000:]}"
    proc = run_mpi(8, CHECK, "grad", "-s", "2", "-i", "3", timeout=900)
    assert re.search(r"^OK$", proc.stdout, re.M), f"{proc.stdout}\n{proc.stderr[-3000:]}"
    rows = re.findall(r"^(e|x|y|z) +(\S+) +(\S+)$", proc.stdout, re.M)
    assert [r[0] for r in rows] == ["e", "x", "y", "z"]
    assert all(float(r[1]) <= 1e-12 and float(r[2]) > 0.0 for r in rows), proc.stdout

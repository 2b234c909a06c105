"""Adjoint MPI: drivers differentiated on 2 and 3 ranks (spawned with mpiexec).

Each rank of tests/mpi_programs/cases.py checks its own adjoints against central finite
differences of the global objective (and case-specific rules) and prints one line per case;
a deadlock shows up as a timeout instead of a hang.
"""
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "mpi_programs", "cases.py")
CASES = ["ring", "even_odd", "self_send", "reductions", "allreduce_max", "allreduce_min", "bcast", "reduce",
         "scalars", "wildcard", "variants", "heat", "heat_nonblocking", "unsupported", "rank0_return",
         "user_driver"]
TIMEOUT = 60


def mpiexec():
    exe = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return exe if os.path.exists(exe) else shutil.which("mpiexec")


def run_mpi(nranks: int, program: str, *args: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    """``mpiexec -n nranks python program args`` with a timeout (a deadlock fails, it does not hang)."""
    exe = mpiexec()
    if exe is None:
        pytest.skip("mpiexec not found (pip install mpich)")
    try:
        return subprocess.run([exe, "-n", str(nranks), sys.executable, program, *args], capture_output=True,
                              stdin=subprocess.DEVNULL, text=True, timeout=timeout, cwd=HERE)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"mpiexec -n {nranks} {os.path.basename(program)} timed out after {timeout} s "
                    f"(deadlock?)\n{exc.stdout or ''}\n{exc.stderr or ''}")


_RESULTS: dict = {}


def results(nranks: int) -> dict:
    """``{case: {rank: (status, detail)}}`` of one run of every case on ``nranks`` ranks (cached)."""
    if nranks not in _RESULTS:
        proc = run_mpi(nranks, PROGRAM)
        table: dict = {}
        for line in proc.stdout.splitlines():
            parts = line.split(" ", 4)
            if len(parts) >= 4 and parts[0] == "CASE":
                table.setdefault(parts[1], {})[int(parts[2])] = (parts[3], parts[4] if len(parts) > 4 else "")
        _RESULTS[nranks] = (table, proc)
    return _RESULTS[nranks]


@pytest.mark.parametrize("nranks", [2, 3])
@pytest.mark.parametrize("case", CASES)
def test_mpi_case(case, nranks):
    table, proc = results(nranks)
    got = table.get(case, {})
    failed = {r: d for r, (st, d) in got.items() if st != "OK"}
    assert not failed, f"{case} on {nranks} ranks: {failed}\n{proc.stderr[-3000:]}"
    assert sorted(got) == list(range(nranks)), \
        f"{case} on {nranks} ranks: only ranks {sorted(got)} reported (rc={proc.returncode})\n" \
        f"{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"


def test_user_drivers_on_one_rank():
    """Early return under a rank test, while/break with an Allreduce(MIN) time step and
    plain-Python helpers doing the halo exchange: on one rank too (3 ranks in test_mpi_case)."""
    proc = run_mpi(1, PROGRAM, "rank0_return", "user_driver")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("CASE")]
    assert len(lines) == 2 and all(" 0 OK " in ln for ln in lines), f"{proc.stdout}\n{proc.stderr[-3000:]}"


# --------------------------------------------------------------------------- errors without MPI running
# (recognised by method name: generating the adjoint neither imports nor initialises MPI)

def alltoallv(x, comm):
    y = x * 2.0
    comm.Alltoallv(x, y)
    return y[0]


def persistent(x, comm):
    req = comm.Send_init(x, dest=0)
    req.Start()
    return x[0]


def prod_allreduce(x, comm):
    y = x * 1.0
    comm.Allreduce(x, y, op=MPI.PROD)  # noqa: F821 (never run)
    return y[0]


def max_reduce(x, comm):
    y = x * 1.0
    comm.Reduce(x, y, op=MPI.MAX, root=0)  # noqa: F821
    return y[0]


def discarded_request(x, comm):
    comm.Isend(x, dest=0)
    return x[0]


def nonblocking_collective(x, comm):
    y = x * 1.0
    req = comm.Iallreduce(x, y)
    req.Wait()
    return y[0]


@pytest.mark.parametrize("driver,construct", [
    (alltoallv, "MPI call Alltoallv has no adjoint rule"),
    (persistent, "MPI call Send_init has no adjoint rule"),
    (prod_allreduce, "Allreduce with op=MPI.PROD"),
    (max_reduce, "Reduce with op=MPI.MAX"),
    (discarded_request, "request is discarded"),
    (nonblocking_collective, "MPI call Iallreduce has no adjoint rule"),
], ids=lambda v: getattr(v, "__name__", None) if callable(v) else None)
def test_unsupported_mpi_calls_name_the_line(driver, construct):
    import adtrans
    from adtrans.driver import driver_source
    with pytest.raises(adtrans.UnsupportedError) as info:
        driver_source(driver, ("dup", "const"))
    assert construct in str(info.value)
    assert "test_mpi.py:" in str(info.value) and info.value.lineno > 0

"""Many ranks, one cache: 8 ranks starting cold on one empty $ADTRANS_CACHE_DIR / $NUMBA_CACHE_DIR
(a cluster's shared file system) neither crash nor corrupt it, and a second run reuses it.

adtrans writes every cache file through a temporary file and ``os.replace``
(adtrans/compile.py ``write_atomic_bytes``), so ranks generating the same entry at once each
replace it with identical bytes and no rank ever reads a partial file; a pickle that does not
load is treated as a miss (adtrans/gencache.py).  Numba writes its index and data files the
same way.  8 ranks on 2 cores compile cold for a minute or two: slow (``make test-all``).
"""
import os
import pickle
import subprocess
import sys

import pytest

from test_mpi import HERE, mpiexec

pytestmark = pytest.mark.slow


def _run(env, nranks=8, timeout=900):
    exe = mpiexec()
    if exe is None:
        pytest.skip("mpiexec not found (pip install mpich)")
    program = os.path.join(HERE, "mpi_programs", "cases.py")
    return subprocess.run([exe, "-n", str(nranks), sys.executable, program, "heat_nonblocking", "user_driver"],
                          capture_output=True, text=True, timeout=timeout, cwd=HERE, env=env,
                          stdin=subprocess.DEVNULL)


def _ok(proc, nranks=8):
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("CASE")]
    assert proc.returncode == 0 and len(lines) == 2 * nranks and all(" OK " in ln for ln in lines), \
        f"rc={proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"


def test_eight_ranks_cold_on_one_cache(tmp_path):
    env = dict(os.environ, ADTRANS_CACHE_DIR=str(tmp_path / "adtrans"), NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=os.pathsep.join([os.path.dirname(HERE), os.environ.get("PYTHONPATH", "")]))
    _ok(_run(env))                                  # cold: all 8 generate and compile at once
    files = list((tmp_path / "adtrans").iterdir())
    assert not [f for f in files if f.name.endswith(".tmp")], "temporary files left behind"
    pickles = [f for f in files if f.name.endswith(".pickle")]
    sources = [f for f in files if f.suffix == ".py"]
    assert pickles and sources
    for f in pickles:                               # every entry whole and under its own key
        with open(f, "rb") as fh:
            key, _ = pickle.load(fh)
        assert f.name.startswith(f"adtrans_gen_{key[:24]}")
    for f in sources:
        compile(f.read_text(), str(f), "exec")
    before = {f.name: f.stat().st_mtime_ns for f in files}
    _ok(_run(env))                                  # warm: the same gradients from the cache
    after = {f.name: f.stat().st_mtime_ns for f in (tmp_path / "adtrans").iterdir()}
    assert set(after) == set(before), "the warm run generated new entries"
    assert not [f for f in (tmp_path / "numba").rglob("*.tmp")]

"""The Python/Numba LULESH 2.0 port against the original C++ program.

Reference values come from the original LLNL LULESH 2.0 (serial, one thread,
no MPI).  The kernels are compiled with ``cache=True``; a cold run of this
file (compiling everything) takes about 30 s, a warm one a few seconds.
"""

import ctypes
import ctypes.util
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numba  # noqa: E402

from examples.lulesh import kernels as K  # noqa: E402
from examples.lulesh.domain import Domain, GlibcRandom  # noqa: E402
from examples.lulesh.lulesh import (QStopError, VolumeError,  # noqa: E402
                                    run_cycles, symmetry_check)

# reference output of the original program (1 thread, no MPI)
REF_S5_I10_TIME = "1.566588e-03"
REF_S5_I10_ENERGY = 3.24595524444012226e+04
REF_S10_ITERATIONS = 231
REF_S10_ENERGY = 2.72053116847034689e+04
REF_S10_MAXABSDIFF = 2.273737e-12
REF_S10_TOTALABSDIFF = 1.659646e-11
REF_S10_MAXRELDIFF = 4.649603e-14

# region sizes the original prints for -s N (-r 11 -b 1 -c 1) and -r 7 -b 2 -c 3
REF_REGION_SIZES = {
    (5, 11, 1, 1): [0, 8, 7, 10, 31, 0, 13, 0, 19, 12, 25],
    (10, 11, 1, 1): [0, 14, 14, 78, 389, 55, 73, 44, 148, 85, 100],
    (30, 11, 1, 1): [123, 457, 493, 2733, 1004, 896, 3236, 2435, 1198, 5980,
                     8445],
    (10, 7, 2, 3): [0, 27, 100, 131, 176, 225, 341],
}


@pytest.fixture
def one_thread():
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(old)


def test_s5_ten_iterations(one_thread):
    d = Domain(5)
    run_cycles(d, 10)
    assert d.cycle == 10
    assert "%.6e" % d.time == REF_S5_I10_TIME
    assert d.e[0] == pytest.approx(REF_S5_I10_ENERGY, rel=1e-12, abs=0.0)


def test_s10_to_stop_time(one_thread):
    d = Domain(10)
    run_cycles(d, 9999999)
    assert d.cycle == REF_S10_ITERATIONS
    assert d.time == pytest.approx(d.stoptime, rel=1e-14)
    assert d.e[0] == pytest.approx(REF_S10_ENERGY, rel=1e-12, abs=0.0)
    maxabs, totabs, maxrel = symmetry_check(d)
    assert maxabs == pytest.approx(REF_S10_MAXABSDIFF, rel=1e-6)
    assert totabs == pytest.approx(REF_S10_TOTALABSDIFF, rel=1e-6)
    assert maxrel == pytest.approx(REF_S10_MAXRELDIFF, rel=1e-6)


def test_thread_count_does_not_change_results():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs at least 2 Numba threads")
    old = numba.get_num_threads()
    states = []
    try:
        for nt in (1, 2):
            numba.set_num_threads(nt)
            d = Domain(6)
            run_cycles(d, 25)
            states.append(d)
    finally:
        numba.set_num_threads(old)
    a, b = states
    for name in ("x", "y", "z", "xd", "yd", "zd", "fx", "fy", "fz", "e", "p",
                 "q", "v", "ss", "arealg", "delv", "vdov", "ql", "qq"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.time == b.time and a.deltatime == b.deltatime


@pytest.mark.parametrize("key", sorted(REF_REGION_SIZES))
def test_regions_match_original(key):
    nx, nr, balance, cost = key
    d = Domain(nx, nr, balance, cost)
    assert d.regElemSize.tolist() == REF_REGION_SIZES[key]
    # every element in exactly one region, each list increasing
    assert sorted(d.regElemList.tolist()) == list(range(d.numElem))
    for r in range(nr):
        lst = d.regElemlist(r)
        assert np.all(np.diff(lst) > 0)
        assert np.all(d.regNumList[lst] == r + 1)
    # load-imbalance repetition counts of ApplyMaterialPropertiesForElems
    expected = [1 if r < nr // 2 else
                (1 + cost if r < nr - (nr + 15) // 20 else 10 * (1 + cost))
                for r in range(nr)]
    assert d.regRep.tolist() == expected


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                    reason="compares with the C library's rand()")
def test_glibc_random_matches_libc():
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    for seed in (0, 1, 4242):
        libc.srand(ctypes.c_uint(seed))
        g = GlibcRandom(seed)
        assert [libc.rand() for _ in range(2000)] == [g.rand() for _ in range(2000)]


def test_mesh_and_connectivity():
    n = 3
    d = Domain(n)
    en = n + 1
    assert d.numElem == n ** 3 and d.numNode == en ** 3
    assert d.nodelist.shape == (n ** 3, 8) and d.nodelist.dtype == np.int64
    assert d.nodelist[0].tolist() == [0, 1, en + 1, en, en * en, en * en + 1,
                                      en * en + en + 1, en * en + en]
    assert d.x.min() == 0.0 and d.x.max() == 1.125
    assert d.y.max() == 1.125 and d.z.max() == 1.125
    # unit density: masses are volumes; the whole cube weighs 1.125^3
    assert d.elemMass.sum() == pytest.approx(1.125 ** 3, rel=1e-14)
    assert d.nodalMass.sum() == pytest.approx(1.125 ** 3, rel=1e-14)
    # node -> corner map: every corner once, per node in increasing element order
    assert sorted(d.nodeElemCornerList.tolist()) == list(range(8 * d.numElem))
    for g in range(d.numNode):
        corners = d.nodeElemCornerList[d.nodeElemStart[g]:d.nodeElemStart[g + 1]]
        assert np.all(d.nodelist.ravel()[corners] == g)
        assert np.all(np.diff(corners // 8) > 0)
    assert np.array_equal(8 * d.nodeElemCornerElem + d.nodeElemCornerLocal,
                          d.nodeElemCornerList)
    assert d.fx_elem.shape == (d.numElem, 8) and d.fx_elem.flags.c_contiguous
    # symmetry planes
    assert np.all(d.x[d.symmX] == 0.0)
    assert np.all(d.y[d.symmY] == 0.0)
    assert np.all(d.z[d.symmZ] == 0.0)
    assert len(d.symmX) == en * en
    # face neighbours: interior elements see their neighbours, boundary ones themselves
    assert d.lxim[0] == 0 and d.lxip[0] == 1 and d.letap[0] == n
    assert d.lzetap[0] == n * n and d.lzetam[n * n] == 0
    # boundary flags: element 0 is on the three symmetry planes
    bc0 = int(d.elemBC[0])
    assert bc0 & K.XI_M_SYMM and bc0 & K.ETA_M_SYMM and bc0 & K.ZETA_M_SYMM
    last = int(d.elemBC[d.numElem - 1])
    assert last & K.XI_P_FREE and last & K.ETA_P_FREE and last & K.ZETA_P_FREE
    assert d.elemFaceBC[0].tolist() == [K.XI_M_SYMM, 0, K.ETA_M_SYMM, 0,
                                        K.ZETA_M_SYMM, 0]
    # Sedov energy in element 0 only
    assert d.e[0] > 0 and np.count_nonzero(d.e) == 1


def test_volume_error_is_raised():
    d = Domain(3)
    n6 = d.nodelist[0, 6]
    d.x[n6] = d.y[n6] = d.z[n6] = -1.0  # turn element 0 inside out
    with pytest.raises(VolumeError, match="IntegrateStressForElems"):
        run_cycles(d, 3)
    d = Domain(3)
    d.v[4] = -0.5
    with pytest.raises(VolumeError, match="CalcHourglassControlForElems"):
        run_cycles(d, 3)


def test_qstop_error_is_raised():
    d = Domain(3)
    d.qstop = 1.0e-3
    with pytest.raises(QStopError, match="qstop"):
        run_cycles(d, 10)


def test_command_line_json():
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, str(REPO / "examples" / "lulesh" / "run.py"),
         "-s", "5", "-i", "10", "--json", "--threads", "1"],
        capture_output=True, text=True, env=env, timeout=300, check=True)
    res = json.loads(out.stdout)
    for key in ("iterations", "final_time", "origin_energy", "max_abs_diff",
                "total_abs_diff", "max_rel_diff", "elapsed_s", "fom"):
        assert key in res
    assert res["iterations"] == 10
    assert "%.6e" % res["final_time"] == REF_S5_I10_TIME
    assert res["origin_energy"] == pytest.approx(REF_S5_I10_ENERGY, rel=1e-12)
    assert res["fom"] > 0


def test_command_line_text_report():
    out = subprocess.run(
        [sys.executable, str(REPO / "examples" / "lulesh" / "run.py"),
         "-s", "5", "-i", "3", "-p", "--threads", "1"],
        capture_output=True, text=True, timeout=300, check=True).stdout
    assert "cycle = 1, time = 3.417997e-04, dt=3.417997e-04" in out
    assert "Iteration count     =  3" in out
    assert "Final Origin Energy =  4.508605e+04" in out
    assert "FOM" in out and "MaxRelDiff" in out

"""LULESH gradients with adtrans (examples/lulesh/grad.py) against finite differences.

1. The adjoint of one LagrangeLeapFrog step with the whole Domain duplicated
   (every float64 array, dt active), on random directions.
2. d e[0](after 10 cycles) / d (e, x, y, z)(initial) at -s 5, with the time
   steps differentiated and frozen, on the LULESH problem and on a smooth
   variant (jittered mesh, no cut-offs).

Why the set-ups (see the docstring of examples/lulesh/grad.py): the Sedov
mesh is symmetric, so many minima/maxima are ties (kinks), and the initial
state sits exactly on LULESH's cut-offs (v snapped to 1 within 1e-10, e, p,
q cut below 1e-7, nodes at rest).  adtrans returns the derivative of the
branches taken; finite differences check it with steps inside those pieces,
or on a jittered mesh without cut-offs where e0 is smooth.

Time: the kernel adjoints are compiled once into $ADTRANS_CACHE_DIR /
$NUMBA_CACHE_DIR (about 10 minutes on 2 cores the first time); with a warm
cache this file takes about a minute, most of it adtrans re-generating the
adjoint sources of the big kernels in the new process.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

# cold, these compile the adjoints of ~24 LULESH kernels (~12 min on 2 cores): `make test-all`
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from examples.lulesh import grad as G  # noqa: E402
from examples.lulesh import lulesh as L  # noqa: E402
from examples.lulesh.domain import Domain  # noqa: E402

# the original C++ program, -s 5 -i 10 (as in test_lulesh_primal.py)
REF_S5_I10_ENERGY = 3.24595524444012226e+04


def _advance(d, cycles):
    for _ in range(cycles):
        L.time_increment(d)
        L.lagrange_leapfrog(d)
    L.time_increment(d)
    return d


# ---------------------------------------------------------------------------
# the flat drivers are the same program
# ---------------------------------------------------------------------------
def test_flat_step_driver_is_bit_identical_to_lagrange_leapfrog():
    a, b = Domain(4), Domain(4)
    for _ in range(25):
        L.time_increment(a)
        L.lagrange_leapfrog(a)
        L.time_increment(b)
        L.lagrange_leapfrog_flat(b)
    for f in L.STEP_FLOAT_FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)
    assert (a.dtcourant, a.dthydro, a.time, a.deltatime) == (b.dtcourant, b.dthydro, b.time, b.deltatime)


def test_origin_energy_driver_is_bit_identical_to_run_cycles():
    ref = Domain(5)
    L.run_cycles(ref, 10)
    args = G.origin_energy_arguments(Domain(5), 10)
    e0 = G.origin_energy_after(*args)
    assert e0 == ref.e[0] == REF_S5_I10_ENERGY
    for k, name in enumerate(G.STEP_ARRAY_NAMES[:-1]):
        np.testing.assert_array_equal(args[k], getattr(ref, name), err_msg=name)
    assert tuple(args[len(G.STEP_ARRAY_NAMES) - 1]) == (ref.dtcourant, ref.dthydro)
    # the same run with its own time steps replayed as a frozen schedule
    frozen = G.origin_energy_after(*G.origin_energy_arguments(Domain(5), 10, G.time_steps(Domain(5), 10)))
    assert frozen == REF_S5_I10_ENERGY


# ---------------------------------------------------------------------------
# 1. one step, whole Domain duplicated
# ---------------------------------------------------------------------------
def test_step_adjoint_whole_domain_matches_finite_differences():
    """-s 3, jittered mesh, cycle 15 (every element away from the cut-offs):
    directional derivatives of J = sum_k <w_k, array_k after the step> along
    random directions in all 51 float arrays and dt."""
    d = _advance(G.jitter_mesh(Domain(3), 1e-3), 15)
    assert np.all(d.e > 10 * d.e_cut) and np.all(np.abs(d.v - 1.0) > 1e-6)
    res = G.step_fd_check(L.step_arguments(d), ndirections=4, h=1e-7, dt_active=True, seed=3)
    for ad, fd, err in res:
        assert err < 1e-6, (ad, fd, err)
    assert min(abs(fd) for _, fd, _ in res) > 1e-3          # not trivially zero


def test_step_adjoint_ends_in_the_primal_state_and_reaches_every_input():
    d = _advance(G.jitter_mesh(Domain(3), 1e-3), 15)
    args = L.step_arguments(d)
    primal = G.copy_arguments(args)
    L.lagrange_leapfrog_arrays(*primal)
    work = G.copy_arguments(args)
    rng = np.random.default_rng(0)
    seeds = [rng.standard_normal(a.shape) for a in work[:L.STEP_N_FLOAT_ARRAYS]]
    bars, dt_bar = G.step_adjoint(work, seeds, dt_active=True)
    for k, name in enumerate(G.STEP_ARRAY_NAMES):
        np.testing.assert_array_equal(work[k], primal[k], err_msg=name)   # arrays end as the step leaves them
    # state and parameters the step reads get an adjoint; pure scratch arrays are
    # overwritten before they are read, so theirs is exactly zero
    for name in ("x", "y", "z", "xd", "yd", "zd", "e", "p", "q", "v", "ss", "volo",
                 "elemMass", "nodalMass", "gamma"):
        assert np.any(bars[G.STEP_ARRAY_NAMES.index(name)] != 0.0), name
    for name in ("sigxx", "fx_elem", "dvdx", "x8n", "vnewc", "dxx", "delv_xi", "dtc"):
        assert not np.any(bars[G.STEP_ARRAY_NAMES.index(name)]), name
    assert np.isfinite(dt_bar) and dt_bar != 0.0


# ---------------------------------------------------------------------------
# 2. d e0(after 10 cycles) / d (e, x, y, z)(initial), -s 5
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("freeze_dt", [False, True], ids=["dt-differentiated", "dt-frozen"])
def test_origin_energy_gradient_smooth_problem(freeze_dt):
    """Jittered mesh and no cut-offs: e0 is smooth, ordinary steps."""
    d = G.without_cutoffs(G.jitter_mesh(Domain(5), 1e-3))
    g = G.origin_energy_gradient(d, 10, freeze_dt=freeze_dt)
    assert g.cycles == 10 and g.e0 == G.origin_energy(d, 10)
    checks = G.origin_fd_check(d, g, entries=(("e", 0), ("x", 1), ("y", 7), ("z", 43), ("x", 44)),
                               ndirections=3, seed=1)
    for label, ad, fd, err in checks:
        assert err < 1e-6, (label, ad, fd, err)
    assert np.count_nonzero(g.grads["e"]) == d.numElem     # without cut-offs every energy matters


def test_origin_energy_gradient_lulesh_problem():
    """The LULESH problem itself (-s 5 -i 10 of the C++ reference)."""
    d = Domain(5)
    g = G.origin_energy_gradient(d, 10)
    assert g.e0 == REF_S5_I10_ENERGY
    # within the pieces of the cut-offs (positions moved by 0.1 v_cut element widths):
    # rounding limits the agreement of the position derivatives
    checks = G.origin_fd_check(d, g, entries=(("e", 0), ("e", 62), ("x", 1), ("y", 7), ("z", 0)),
                               ndirections=2, seed=2)
    errs = {label: err for label, _, _, err in checks}
    assert errs["d e0/d e[0]"] < 1e-8
    assert max(errs.values()) < 5e-3, checks
    # cold elements sit at the cut-offs: e0 does not depend on their energy
    assert np.flatnonzero(g.grads["e"]).tolist() == [0]
    assert g.grads["e"][0] == pytest.approx(0.538943794, rel=1e-8)
    # the problem is symmetric under x <-> y <-> z, and so is the gradient
    assert G.symmetry_defect(g, 5) < 1e-12
    # the time-step control matters: holding the steps fixed changes the gradient
    frozen = G.origin_energy_gradient(d, 10, freeze_dt=True)
    assert np.linalg.norm(frozen.grads["x"]) < 0.7 * np.linalg.norm(g.grads["x"])


def test_origin_energy_gradient_tape_memory():
    """Store-all: each cycle tapes one copy of every array a kernel overwrites:
    29 element arrays, 12 corner arrays (8 per element), 18 node arrays (float64)."""
    d = Domain(5)
    per_cycle = 8 * (29 * d.numElem + 12 * 8 * d.numElem + 18 * d.numNode)
    sizes = [G.origin_energy_gradient(d, k, freeze_dt=True).tape_nbytes for k in (5, 10)]
    assert sizes[1] == 2 * sizes[0]
    assert sizes[1] <= 10 * per_cycle
    assert sizes[1] >= 10 * 8 * (3 * d.numNode + 4 * d.numElem)      # at least x, y, z, e, p, q, v


# ---------------------------------------------------------------------------
# 3. the command line
# ---------------------------------------------------------------------------
def test_run_py_grad_json_and_plot(tmp_path, capsys):
    sys.path.insert(0, str(REPO / "examples" / "lulesh"))
    try:
        import run as lulesh_run
    finally:
        sys.path.remove(str(REPO / "examples" / "lulesh"))
    png = tmp_path / "sens.png"
    status = lulesh_run.main(["-s", "4", "-i", "6", "--grad", "--json", "--plot", str(png)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert out["iterations"] == 6 and out["grad_cycles"] == 6
    assert out["grad_e0"] == out["origin_energy"]
    assert out["grad_fd_ok"] and out["grad_fd_worst"] < 1e-2 and out["grad_symmetry_defect"] < 1e-12
    assert out["grad_norms"]["x"] == pytest.approx(out["grad_norms"]["y"], rel=1e-12)
    assert out["grad_tape_bytes"] > 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    assert lulesh_run.main(["-s", "4", "--grad"]) == 2                 # needs -i
    capsys.readouterr()

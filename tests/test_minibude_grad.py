"""miniBUDE example: adtrans gradients of the docking energy and the driver.

Runs on the synthetic deck (always available).  Both kernel variants (one pose
per prange iteration, and blocks of PPWI poses) must give gradients that match
central finite differences.
Cold (adtrans generating and Numba compiling the adjoints) ~30 s, warm ~15 s.
"""

import json
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from examples.minibude import deck as D  # noqa: E402
from examples.minibude import grad as G  # noqa: E402
from examples.minibude import kernel as K  # noqa: E402

RUN = REPO / "examples" / "minibude" / "run.py"


@pytest.fixture(scope="module")
def deck64():
    return D.make_synthetic_deck(seed=3, nposes=100, dtype=np.float64)


def ad_gradient(deck, wrt, variant, seed=None):
    try:
        return G.gradient(deck, wrt, variant, seed=seed)
    except G.GradientUnavailable as exc:
        if exc.kind == "missing":
            pytest.skip(str(exc))
        raise


@pytest.mark.parametrize("variant", ["scalar", "blocked"])
def test_gradient_matches_finite_differences(deck64, variant):
    g = ad_gradient(deck64, "both", variant)
    assert g.protein_xyz.shape == (200, 3) and g.poses.shape == (6, 100)
    assert g.protein_xyz.dtype == np.float64
    assert np.abs(g.protein_xyz).max() > 1.0 and np.abs(g.poses).max() > 1.0
    r = G.fd_check(deck64, g, "blocked", n_protein=12, n_poses=12, seed=1)
    assert r["n_checked"] == 24
    assert r["max_rel_err"] < 1e-5, [e for e in r["entries"] if e["rel_err"] >= 1e-5]
    # adtrans also ran the primal into `energies`.
    np.testing.assert_allclose(g.energies, K.compute_energies(deck64, "blocked"), rtol=1e-12, atol=1e-9)


@pytest.mark.slow  # make test-all; make test keeps the FD checks of both variants
def test_gradient_identities(deck64):
    """Translation invariance, pose locality and linearity in the seed."""
    g = ad_gradient(deck64, "both", "scalar")
    # Moving protein and every ligand pose together leaves all energies unchanged.
    np.testing.assert_allclose(g.protein_xyz.sum(axis=0), -g.poses[3:].sum(axis=1),
                               rtol=1e-9, atol=1e-9 * np.abs(g.poses).max())
    # A seed on one pose: only that pose's parameters get a gradient, equal to
    # that column of the all-ones gradient.
    k = 17
    seed = np.zeros(deck64.nposes)
    seed[k] = 1.0
    gk = ad_gradient(deck64, "poses", "scalar", seed=seed)
    assert np.count_nonzero(np.delete(gk.poses, k, axis=1)) == 0
    np.testing.assert_allclose(gk.poses[:, k], g.poses[:, k], rtol=1e-12, atol=1e-12)
    g2 = ad_gradient(deck64, "protein", "scalar", seed=np.full(deck64.nposes, 2.5))
    np.testing.assert_allclose(g2.protein_xyz, 2.5 * g.protein_xyz, rtol=1e-12, atol=1e-9)


@pytest.mark.slow  # make test-all; make test keeps the FD checks of both variants
def test_float32_gradient_close_to_float64(deck64):
    g64 = ad_gradient(deck64, "protein", "scalar")
    d32 = D.make_synthetic_deck(seed=3, nposes=100, dtype=np.float32)
    g32 = ad_gradient(d32, "protein", "scalar")
    assert g32.protein_xyz.dtype == np.float32
    scale = np.abs(g64.protein_xyz).max()
    assert np.abs(g32.protein_xyz - g64.protein_xyz).max() < 1e-4 * scale


def test_missing_adtrans_is_reported(monkeypatch, deck64):
    monkeypatch.setitem(sys.modules, "adtrans", types.ModuleType("adtrans"))  # no autodiff
    with pytest.raises(G.GradientUnavailable) as info:
        G.gradient(deck64, "protein", "scalar")
    assert info.value.kind == "missing" and "adtrans gradient unavailable" in str(info.value)


def test_run_degrades_without_adtrans(monkeypatch, capsys):
    from examples.minibude import run
    monkeypatch.setitem(sys.modules, "adtrans", types.ModuleType("adtrans"))
    rc = run.main(["--deck", "synthetic", "--poses", "40", "--check", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grad_kernel"] is None and "adtrans gradient unavailable" in out["grad_error"]
    assert out["gradient_s"] is None and out["ratio"] is None and out["primal_s"] > 0
    assert out["poses"] == 40 and out["synthetic"] is True


@pytest.mark.slow  # make test-all; make test keeps the FD checks of both variants
def test_run_json(tmp_path):
    png = tmp_path / "grad.png"
    proc = subprocess.run([sys.executable, str(RUN), "--deck", "synthetic", "--poses", "70", "--check",
                           "--wrt", "both", "--fd-poses", "40", "--json", "--plot", str(png)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)        # exactly one JSON object on stdout
    for key in ("deck", "poses", "energy_max_rel_err", "grad_fd_max_rel_err", "primal_s",
                "gradient_s", "ratio"):
        assert key in out
    assert out["deck"] == "synthetic(seed=0)" and out["poses"] == 70
    assert out["energy_max_rel_err"] is None          # no reference energies
    if out["grad_kernel"] is None:
        pytest.skip(out["grad_error"])
    assert out["grad_fd_max_rel_err"] < 1e-4 and out["fd_entries"] == 24 and out["fd_poses"] == 40
    assert out["gradient_s"] > 0 and out["ratio"] == pytest.approx(out["gradient_s"] / out["grad_primal_s"])
    assert len(out["top_atoms"]) == 5
    norms = [a["grad_norm"] for a in out["top_atoms"]]
    assert norms == sorted(norms, reverse=True) and norms[0] > 0
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"

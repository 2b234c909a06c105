"""miniBUDE example: deck reader and energy kernels (no AD).

The bm1 tests need the shared deck (../shared/data/minibude/bm1 next to the
repository, or $MINIBUDE_DECK) and are skipped without it; the synthetic-deck
tests always run.  Cold (compiling both kernels for float32 and float64) this
file takes ~20 s, warm a few seconds.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from examples.minibude import deck as D  # noqa: E402
from examples.minibude import kernel as K  # noqa: E402

BM1 = D.find_deck(None)
needs_bm1 = pytest.mark.skipif(BM1 is None or BM1.name != "bm1" or not (BM1 / "ref_energies.out").is_file(),
                               reason="bm1 deck not found (set $MINIBUDE_DECK or see examples/minibude)")
NPOSES = 512


@pytest.fixture(scope="module")
def bm1():
    return D.load_deck(BM1, nposes=NPOSES)


@pytest.fixture(scope="module")
def synthetic():
    return D.make_synthetic_deck(seed=3, nposes=100)  # 100 = 1 full block + 36


def energies(deck, variant):
    return K.compute_energies(deck, variant)


# ----------------------------------------------------------------- deck reader

@needs_bm1
def test_bm1_shapes_and_dtypes(bm1):
    assert bm1.name == "bm1" and not bm1.synthetic
    assert bm1.protein_xyz.shape == (938, 3) and bm1.protein_xyz.dtype == np.float32
    assert bm1.protein_type.shape == (938,) and bm1.protein_type.dtype == np.int32
    assert bm1.ligand_xyz.shape == (26, 3) and bm1.ligand_type.dtype == np.int32
    for a in (bm1.ff_hbtype, bm1.ff_radius, bm1.ff_hphb, bm1.ff_elsc):
        assert a.shape == (34,)
    assert bm1.ff_hbtype.dtype == np.int32 and bm1.ff_radius.dtype == np.float32
    assert bm1.poses.shape == (6, NPOSES) and bm1.poses.flags.c_contiguous
    assert bm1.ref_energies.shape == (NPOSES,) and bm1.ref_energies.dtype == np.float64
    assert bm1.ref_energies[0] == pytest.approx(865.522827, abs=1e-6)
    assert set(np.unique(bm1.ff_hbtype)) <= {ord(c) for c in "-DEF"}
    # First protein atom and pose as stored in the binary files.
    raw = np.fromfile(BM1 / "protein.in", dtype="<f4", count=4)
    np.testing.assert_array_equal(bm1.protein_xyz[0], raw[:3])
    raw_poses = np.fromfile(BM1 / "poses.in", dtype="<f4").reshape(6, -1)
    np.testing.assert_array_equal(bm1.poses, raw_poses[:, :NPOSES])
    # Angles are multiples of 10 degrees, translations integers in [-7, 7].
    deg = np.rad2deg(bm1.poses[:3].astype(np.float64))
    np.testing.assert_allclose(deg, np.round(deg / 10) * 10, atol=1e-4)
    assert np.all(bm1.poses[3:] == np.round(bm1.poses[3:])) and np.abs(bm1.poses[3:]).max() <= 7


@needs_bm1
def test_bm1_float64_load_is_exact(bm1):
    d64 = D.load_deck(BM1, nposes=8, dtype=np.float64)
    assert d64.protein_xyz.dtype == np.float64 and d64.poses.dtype == np.float64
    np.testing.assert_array_equal(d64.protein_xyz, bm1.protein_xyz.astype(np.float64))
    np.testing.assert_array_equal(d64.poses, bm1.poses[:, :8].astype(np.float64))
    assert D.load_deck(BM1).nposes == 65536


def test_find_deck_resolution(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIBUDE_DECK", raising=False)
    with pytest.raises(FileNotFoundError):
        D.find_deck(tmp_path)                      # --deck given but not a deck
    monkeypatch.setenv("MINIBUDE_DECK", str(tmp_path / "nope"))
    with pytest.raises(FileNotFoundError):
        D.find_deck(None)
    if BM1 is not None:
        monkeypatch.setenv("MINIBUDE_DECK", str(BM1))
        assert D.find_deck(None) == BM1
        assert D.find_deck(str(BM1)) == BM1


def test_synthetic_deck_is_deterministic_and_plausible(capsys):
    a = D.make_synthetic_deck(seed=7, nposes=64)
    b = D.make_synthetic_deck(seed=7, nposes=64)
    c = D.make_synthetic_deck(seed=8, nposes=64)
    for f in ("protein_xyz", "protein_type", "ligand_xyz", "ligand_type", "ff_hbtype", "ff_radius",
              "ff_hphb", "ff_elsc", "poses"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert not np.array_equal(a.protein_xyz, c.protein_xyz)
    assert a.synthetic and "synthetic" in a.name and a.ref_energies is None
    assert a.protein_xyz.shape == (200, 3) and a.ligand_xyz.shape == (20, 3) and a.poses.shape == (6, 64)
    assert {ord("E"), ord("F")} <= set(a.ff_hbtype[a.ligand_type]) and \
        {ord("E"), ord("F")} <= set(a.ff_hbtype[a.protein_type])
    # Protein atoms at least 2.2 A apart; ligand bonds of 1.5 A.
    dp = np.linalg.norm(a.protein_xyz[:, None] - a.protein_xyz[None], axis=-1) + 99 * np.eye(200)
    assert dp.min() > 2.19
    dl = np.linalg.norm(a.ligand_xyz[:, None] - a.ligand_xyz[None], axis=-1) + 99 * np.eye(20)
    assert 1.29 < dl.min() and np.all(dl.min(axis=1) < 1.51)
    deg = np.rad2deg(a.poses[:3].astype(np.float64))
    np.testing.assert_allclose(deg, np.round(deg / 10) * 10, atol=1e-4)
    assert np.all(np.abs(a.poses[3:]) <= 7)
    # open_deck("synthetic") gives the same deck without a message.
    s = D.open_deck("synthetic", nposes=64, seed=7)
    np.testing.assert_array_equal(s.protein_xyz, a.protein_xyz)
    assert capsys.readouterr().err == ""


def test_open_deck_falls_back_to_synthetic(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("MINIBUDE_DECK", raising=False)
    monkeypatch.setattr(D, "DEFAULT_DECK", tmp_path / "absent")
    deck = D.open_deck(None, nposes=16)
    assert deck.synthetic and deck.nposes == 16
    err = capsys.readouterr().err
    assert "UoB-HPC/miniBUDE" in err and "SYNTHETIC" in err


# ------------------------------------------------------------------- energies

@needs_bm1
@pytest.mark.parametrize("variant", ["scalar", "blocked"])
def test_bm1_energies_match_reference(bm1, variant):
    e = energies(bm1, variant)
    assert e.dtype == np.float32 and e.shape == (NPOSES,)
    v = K.validate_energies(e, bm1.ref_energies)
    assert v["ok"] and v["checked"] == NPOSES - v["skipped"]
    assert v["max_rel_err"] < 1e-4          # miniBUDE's bound is 2.5e-4; we get ~4e-5
    assert v["max_abs_err"] < 5e-3
    assert e[0] == pytest.approx(865.522827, rel=2e-5)


@needs_bm1
def test_bm1_float32_and_float64_agree(bm1):
    e32 = energies(bm1, "blocked")
    d64 = bm1.astype(np.float64)
    e64b = energies(d64, "blocked")
    e64s = energies(d64, "scalar")
    assert e64b.dtype == np.float64
    np.testing.assert_allclose(e64b, e64s, rtol=1e-12, atol=1e-9)
    scale = np.maximum(np.abs(e64b), 1.0)
    assert np.max(np.abs(e32 - e64b) / scale) < 5e-5
    assert K.validate_energies(e64b, bm1.ref_energies)["max_rel_err"] < 1e-4


def test_synthetic_kernels_match_numpy_reference(synthetic):
    ref = K.energies_numpy(synthetic)
    assert np.ptp(ref) > 100 and ref.min() < 0 < ref.max()   # steric, charge and desolvation all matter
    for variant in ("scalar", "blocked"):
        e32 = energies(synthetic, variant)
        e64 = energies(synthetic.astype(np.float64), variant)
        np.testing.assert_allclose(e64, ref, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(e32, ref, rtol=2e-5, atol=2e-3)


def test_blocked_handles_partial_blocks_and_poses_order(synthetic):
    d = synthetic.astype(np.float64)
    full = energies(d, "blocked")
    for n in (1, K.PPWI - 1, K.PPWI + 1):
        sub = d.subset(n)
        np.testing.assert_array_equal(energies(sub, "blocked"), full[:n])
    # Energies follow their poses when the poses are permuted.
    perm = np.random.default_rng(0).permutation(d.nposes)
    shuffled = d.astype(np.float64)
    shuffled.poses = np.ascontiguousarray(d.poses[:, perm])
    np.testing.assert_array_equal(energies(shuffled, "blocked"), full[perm])


def test_energy_terms_on_a_two_atom_system():
    """One protein and one ligand atom on the x axis: the three terms by hand."""
    ff_hbtype = np.array([ord("F"), ord("F")], np.int32)
    ff_radius = np.array([1.5, 1.5], np.float64)
    ff_hphb = np.array([-0.5, -0.25], np.float64)
    ff_elsc = np.array([1.0, -1.0], np.float64)
    deck = D.Deck(protein_xyz=np.zeros((1, 3)), protein_type=np.array([0], np.int32),
                  ligand_xyz=np.zeros((1, 3)), ligand_type=np.array([1], np.int32),
                  ff_hbtype=ff_hbtype, ff_radius=ff_radius, ff_hphb=ff_hphb, ff_elsc=ff_elsc,
                  poses=np.zeros((6, 4)), ref_energies=None, name="pair")
    deck.poses[3] = [2.0, 4.0, 6.0, 9.0]         # distances 2, 4, 6, 9 A; radij = 3
    # In contact (d=2): steric 76*(1-2/3), charge 45*(-1)*1 ('F','F': cut-off 4),
    # desolvation both negative: (-0.75)*1.
    e_in = 0.5 * (76 * (1 - 2 / 3) - 45 - 0.75)
    # d=4 (bb=1): charge ramp 1-1/4, desolvation ramp 1-1/5.5.
    e_4 = 0.5 * (-45 * 0.75 - 0.75 * (1 - 1 / 5.5))
    # d=6 (bb=3): charge 1-3/4, desolvation 1-3/5.5;  d=9 (bb=6): nothing.
    e_6 = 0.5 * (-45 * 0.25 - 0.75 * (1 - 3 / 5.5))
    want = np.array([e_in, e_4, e_6, 0.0])
    for variant in ("scalar", "blocked"):
        np.testing.assert_allclose(energies(deck, variant), want, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(K.energies_numpy(deck), want, rtol=1e-12, atol=1e-12)


def test_rotation_convention():
    """A rotation by +90 degrees about z maps the ligand atom (1, 0, 0) to (0, 1, 0)."""
    ff = dict(ff_hbtype=np.array([ord("-")], np.int32), ff_radius=np.array([1.0]),
              ff_hphb=np.array([0.0]), ff_elsc=np.array([0.0]))
    poses = np.zeros((6, 2))
    poses[2, 0] = np.pi / 2
    deck = D.Deck(protein_xyz=np.array([[0.0, 1.0, 0.0]]), protein_type=np.array([0], np.int32),
                  ligand_xyz=np.array([[1.0, 0.0, 0.0]]), ligand_type=np.array([0], np.int32),
                  poses=poses, ref_energies=None, name="rot", **ff)
    e = energies(deck, "scalar")
    # Pose 0: atoms coincide, steric 76 * (1 - 0/2) -> E = 38; pose 1: d = sqrt(2).
    np.testing.assert_allclose(e, [38.0, 0.5 * 76 * (1 - np.sqrt(2) / 2)], rtol=1e-12, atol=1e-12)


def test_validation_rule():
    ref = np.array([100.0, -50.0, 0.5, 0.5, 10.0])
    e = np.array([100.01, -50.0, 0.9, 1.5, 10.0])
    v = K.validate_energies(e, ref)
    assert v["skipped"] == 1                     # pose 2: both below 1
    assert v["max_rel_err"] == pytest.approx(2.0)  # pose 3: |0.5 - 1.5| / 0.5
    assert v["worst_pose"] == 3 and not v["ok"]
    v = K.validate_energies(e[:2], ref[:2])
    assert v["max_rel_err"] == pytest.approx(1e-4) and v["ok"]

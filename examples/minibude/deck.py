"""miniBUDE input decks as plain structure-of-arrays numpy data.

A deck is the directory layout used by miniBUDE (``protein.in``, ``ligand.in``,
``forcefield.in``, ``poses.in``, ``ref_energies.out``).  The binary files are
little-endian packed C structs with no header:

* ``protein.in`` / ``ligand.in``: ``struct {float x, y, z; int32 type;}`` (16 B),
  coordinates in Angstrom, ``type`` a 0-based index into the forcefield.
* ``forcefield.in``: ``struct {int32 hbtype; float radius, hphb, elsc;}`` (16 B);
  ``hbtype`` is an ASCII code ('-', 'D', 'E', 'F'), ``radius`` in Angstrom,
  ``hphb`` the hydrophobicity (desolvation) parameter, ``elsc`` the charge scale.
* ``poses.in``: ``float32[6][nposes]``: rows 0-2 rotation angles about x, y, z
  (radians), rows 3-5 translations along x, y, z (Angstrom).
* ``ref_energies.out``: one decimal number per line (BUDE energy units).

The kernels in :mod:`kernel` take the separate arrays of :class:`Deck`, never a
record array, because the AD tool only handles plain numeric arrays.

When no real deck is available, :func:`make_synthetic_deck` builds a small,
deterministic, physically plausible stand-in (clearly labelled ``synthetic``).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import numpy as np

__all__ = [
    "Deck",
    "load_deck",
    "find_deck",
    "open_deck",
    "make_synthetic_deck",
    "DECK_URL",
    "HBTYPE_E",
    "HBTYPE_F",
]

DECK_URL = "https://github.com/UoB-HPC/miniBUDE (directory data/bm1)"

#: ASCII codes of the forcefield hydrogen-bond types the kernel tests for.
HBTYPE_E = ord("E")  # 69
HBTYPE_F = ord("F")  # 70

_ATOM = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("type", "<i4")])
_FFPARAMS = np.dtype([("hbtype", "<i4"), ("radius", "<f4"), ("hphb", "<f4"), ("elsc", "<f4")])

#: Repository root (examples/minibude/deck.py -> repo).
REPO_ROOT = Path(__file__).resolve().parents[2]
#: Where the shared decks live next to the repository checkout.
DEFAULT_DECK = REPO_ROOT.parent / "shared" / "data" / "minibude" / "bm1"


@dataclasses.dataclass
class Deck:
    """One miniBUDE problem in structure-of-arrays form.

    Shapes use ``natp`` protein atoms, ``natl`` ligand atoms, ``ntypes``
    forcefield entries and ``nposes`` poses.  ``float`` is the deck's dtype
    (float32 as stored on disk, or float64 when loaded for gradient checks).

    Attributes
    ----------
    protein_xyz : (natp, 3) float, Angstrom (C-contiguous)
    protein_type : (natp,) int32, index into the forcefield arrays
    ligand_xyz : (natl, 3) float, Angstrom, in the ligand's own frame
    ligand_type : (natl,) int32
    ff_hbtype : (ntypes,) int32, ASCII code of the H-bond type ('E'=69, 'F'=70, ...)
    ff_radius : (ntypes,) float, atom radius in Angstrom
    ff_hphb : (ntypes,) float, hydrophobicity (sign selects the desolvation case)
    ff_elsc : (ntypes,) float, electrostatic scale (charge)
    poses : (6, nposes) float; rows 0-2 angles about x, y, z in radians,
        rows 3-5 translations in Angstrom
    ref_energies : (nposes,) float64 reference energies (BUDE units) or None
    name : str, e.g. ``"bm1"`` or ``"synthetic(seed=0)"``
    synthetic : bool, True for a generated stand-in deck
    path : directory the deck was read from (None when synthetic)
    """

    protein_xyz: np.ndarray
    protein_type: np.ndarray
    ligand_xyz: np.ndarray
    ligand_type: np.ndarray
    ff_hbtype: np.ndarray
    ff_radius: np.ndarray
    ff_hphb: np.ndarray
    ff_elsc: np.ndarray
    poses: np.ndarray
    ref_energies: np.ndarray | None
    name: str
    synthetic: bool = False
    path: Path | None = None

    # -- sizes -------------------------------------------------------------
    @property
    def natp(self) -> int:
        return self.protein_xyz.shape[0]

    @property
    def natl(self) -> int:
        return self.ligand_xyz.shape[0]

    @property
    def ntypes(self) -> int:
        return self.ff_radius.shape[0]

    @property
    def nposes(self) -> int:
        return self.poses.shape[1]

    @property
    def dtype(self) -> np.dtype:
        return self.protein_xyz.dtype

    def kernel_args(self):
        """The input arrays in kernel argument order (without ``energies``)."""
        return (
            self.protein_xyz, self.protein_type, self.ligand_xyz, self.ligand_type,
            self.ff_hbtype, self.ff_radius, self.ff_hphb, self.ff_elsc, self.poses,
        )

    def astype(self, dtype) -> "Deck":
        """Copy with all float arrays (except ``ref_energies``) converted to ``dtype``."""
        dt = np.dtype(dtype)

        def conv(a):
            return np.array(a, dtype=dt, order="C", copy=True)

        return dataclasses.replace(
            self,
            protein_xyz=conv(self.protein_xyz), ligand_xyz=conv(self.ligand_xyz),
            ff_radius=conv(self.ff_radius), ff_hphb=conv(self.ff_hphb),
            ff_elsc=conv(self.ff_elsc), poses=conv(self.poses),
        )

    def subset(self, nposes: int | None) -> "Deck":
        """Copy restricted to the first ``nposes`` poses (all when None)."""
        if nposes is None or nposes >= self.nposes:
            return self
        if nposes < 1:
            raise ValueError(f"nposes must be >= 1, got {nposes}")
        ref = None if self.ref_energies is None else self.ref_energies[:nposes].copy()
        return dataclasses.replace(
            self, poses=np.ascontiguousarray(self.poses[:, :nposes]), ref_energies=ref
        )

    def summary(self) -> str:
        kind = " [SYNTHETIC]" if self.synthetic else ""
        return (
            f"{self.name}{kind}: {self.natp} protein atoms, {self.natl} ligand atoms, "
            f"{self.ntypes} forcefield types, {self.nposes} poses ({self.dtype})"
        )


def _xyz(records: np.ndarray, dtype) -> np.ndarray:
    xyz = np.empty((records.shape[0], 3), dtype=dtype)
    xyz[:, 0] = records["x"]
    xyz[:, 1] = records["y"]
    xyz[:, 2] = records["z"]
    return xyz


def load_deck(path, nposes: int | None = None, dtype=np.float32) -> Deck:
    """Read a miniBUDE deck directory.

    Parameters
    ----------
    path : directory holding protein.in, ligand.in, forcefield.in, poses.in and
        optionally ref_energies.out
    nposes : keep only the first ``nposes`` poses (all when None)
    dtype : float dtype of the coordinate/forcefield/pose arrays (float32 or
        float64); the on-disk values are float32 and are converted exactly.
    """
    path = Path(path)
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dt}")
    for f in ("protein.in", "ligand.in", "forcefield.in", "poses.in"):
        if not (path / f).is_file():
            raise FileNotFoundError(f"deck {path}: missing {f}")

    def read(fname, rec):
        raw = np.fromfile(path / fname, dtype=np.uint8)
        if raw.size % rec.itemsize:
            raise ValueError(f"{path / fname}: size {raw.size} is not a multiple of {rec.itemsize}")
        return raw.view(rec)

    protein = read("protein.in", _ATOM)
    ligand = read("ligand.in", _ATOM)
    ff = read("forcefield.in", _FFPARAMS)
    poses32 = np.fromfile(path / "poses.in", dtype="<f4")
    if poses32.size % 6:
        raise ValueError(f"{path / 'poses.in'}: {poses32.size} floats is not a multiple of 6")
    poses32 = poses32.reshape(6, -1)
    ntotal = poses32.shape[1]
    n = ntotal if nposes is None else min(int(nposes), ntotal)
    if n < 1:
        raise ValueError(f"nposes must be >= 1, got {nposes}")

    ref = None
    ref_file = path / "ref_energies.out"
    if ref_file.is_file():
        # Read only what is needed: the full file has 65,536 lines.
        with open(ref_file) as fh:
            vals = []
            for line in fh:
                line = line.strip()
                if line:
                    vals.append(float(line))
                    if len(vals) == n:
                        break
        ref = np.asarray(vals, dtype=np.float64)
        if ref.size != n:
            raise ValueError(f"{ref_file}: {ref.size} energies for {n} poses")

    deck = Deck(
        protein_xyz=_xyz(protein, dt),
        protein_type=np.ascontiguousarray(protein["type"], dtype=np.int32),
        ligand_xyz=_xyz(ligand, dt),
        ligand_type=np.ascontiguousarray(ligand["type"], dtype=np.int32),
        ff_hbtype=np.ascontiguousarray(ff["hbtype"], dtype=np.int32),
        ff_radius=np.ascontiguousarray(ff["radius"], dtype=dt),
        ff_hphb=np.ascontiguousarray(ff["hphb"], dtype=dt),
        ff_elsc=np.ascontiguousarray(ff["elsc"], dtype=dt),
        poses=np.ascontiguousarray(poses32[:, :n], dtype=dt),
        ref_energies=ref,
        name=path.name,
        synthetic=False,
        path=path,
    )
    _check_types(deck)
    return deck


def _check_types(deck: Deck) -> None:
    for what, t in (("protein", deck.protein_type), ("ligand", deck.ligand_type)):
        if t.size and (t.min() < 0 or t.max() >= deck.ntypes):
            raise ValueError(f"{deck.name}: {what} atom type out of range 0..{deck.ntypes - 1}")


def make_synthetic_deck(seed: int = 0, nposes: int = 1024, natp: int = 200, natl: int = 20,
                        dtype=np.float32) -> Deck:
    """A small deterministic stand-in deck (no reference energies).

    Built to look like bm1 at a smaller scale: a roughly spherical "protein"
    shell of ``natp`` atoms (radius ~6-14 Angstrom, nearest neighbours ~1.5 to
    4 Angstrom apart) with a pocket around the origin, a compact ``natl``-atom
    ligand (a random chain with 1.5 Angstrom bonds, centred on the origin), and
    a 6-type forcefield with hbtypes '-', 'D', 'E', 'F', both signs of ``hphb``
    and both signs of ``elsc``.  Poses follow the real decks: angles are
    multiples of 10 degrees in [-170, 180] (radians), translations integers in
    [-7, 7] Angstrom.  Same ``seed`` -> identical arrays.
    """
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)

    # Forcefield: (hbtype, radius A, hphb, elsc), modelled on bm1 entries.
    ff = [
        (ord("-"), 1.90, -0.594, -0.0349),  # apolar carbon
        (ord("-"), 1.42, -0.4736, 0.0),     # apolar, neutral
        (ord("D"), 1.55, 0.253, 0.5184),    # donor
        (ord("E"), 1.51, 2.4634, 0.4399),   # acceptor (charge term forced negative)
        (ord("F"), 1.64, -0.6893, 1.0),     # formal charge +
        (ord("F"), 1.79, 0.2521, -1.0),     # formal charge -
    ]
    ff_hbtype = np.array([f[0] for f in ff], dtype=np.int32)
    ff_radius = np.array([f[1] for f in ff], dtype=dt)
    ff_hphb = np.array([f[2] for f in ff], dtype=dt)
    ff_elsc = np.array([f[3] for f in ff], dtype=dt)
    ntypes = len(ff)

    # Protein: points on a thick spherical shell, rejected when closer than 2.2 A.
    pts = []
    while len(pts) < natp:
        v = rng.normal(size=3)
        v /= np.linalg.norm(v)
        p = v * rng.uniform(6.0, 14.0)
        if p[2] > 9.0:  # open the pocket towards +z
            continue
        if all(np.linalg.norm(p - q) > 2.2 for q in pts):
            pts.append(p)
    protein_xyz = np.round(np.array(pts), 3).astype(dt)
    protein_type = rng.choice(ntypes, size=natp, p=[0.35, 0.2, 0.15, 0.15, 0.075, 0.075]).astype(np.int32)

    # Ligand: self-avoiding random chain, 1.5 A bonds, centred at the origin.
    lig = [np.zeros(3)]
    while len(lig) < natl:
        v = rng.normal(size=3)
        v /= np.linalg.norm(v)
        q = lig[rng.integers(max(0, len(lig) - 3), len(lig))] + 1.5 * v
        if all(np.linalg.norm(q - r) > 1.3 for r in lig):
            lig.append(q)
    lig = np.array(lig)
    lig -= lig.mean(axis=0)
    ligand_xyz = np.round(lig, 4).astype(dt)
    ligand_type = rng.choice(ntypes, size=natl).astype(np.int32)
    ligand_type[:4] = [0, 3, 4, 5]  # make sure 'E' and 'F' ligand atoms exist

    # Poses like the real decks.
    angles = np.deg2rad(np.arange(-170, 181, 10)).astype(np.float32)
    poses = np.empty((6, nposes), dtype=np.float32)
    poses[0:3] = rng.choice(angles, size=(3, nposes))
    poses[3:6] = rng.integers(-7, 8, size=(3, nposes))

    deck = Deck(
        protein_xyz=protein_xyz, protein_type=protein_type,
        ligand_xyz=ligand_xyz, ligand_type=ligand_type,
        ff_hbtype=ff_hbtype, ff_radius=ff_radius, ff_hphb=ff_hphb, ff_elsc=ff_elsc,
        poses=np.ascontiguousarray(poses, dtype=dt), ref_energies=None,
        name=f"synthetic(seed={seed})", synthetic=True, path=None,
    )
    _check_types(deck)
    return deck


def find_deck(arg: str | os.PathLike | None = None) -> Path | None:
    """Resolve which deck directory to use.

    Order: ``arg`` (the ``--deck`` option), then ``$MINIBUDE_DECK``, then
    ``../shared/data/minibude/bm1`` next to the repository root when present.
    An explicitly named deck that does not exist is an error.  Returns None
    when nothing is found (the caller then falls back to a synthetic deck).
    """
    for source, value in (("--deck", arg), ("$MINIBUDE_DECK", os.environ.get("MINIBUDE_DECK"))):
        if value:
            p = Path(value).expanduser()
            if not (p / "protein.in").is_file():
                raise FileNotFoundError(f"{source}={value}: not a miniBUDE deck directory (no protein.in)")
            return p
    if (DEFAULT_DECK / "protein.in").is_file():
        return DEFAULT_DECK
    return None


def open_deck(arg=None, nposes: int | None = None, dtype=np.float32, seed: int = 0,
              quiet: bool = False) -> Deck:
    """:func:`find_deck` then :func:`load_deck`; synthetic deck when none is found.

    ``arg == "synthetic"`` forces the synthetic deck.  The fallback message goes
    to stderr unless ``quiet``.
    """
    path = None if arg == "synthetic" else find_deck(arg)
    if path is not None:
        return load_deck(path, nposes=nposes, dtype=dtype)
    if arg != "synthetic" and not quiet:
        print(
            "minibude: no deck found (--deck, $MINIBUDE_DECK, "
            f"{DEFAULT_DECK}).\n  Get the real decks from {DECK_URL};\n"
            f"  using a small SYNTHETIC deck (seed={seed}) instead, without reference energies.",
            file=sys.stderr,
        )
    return make_synthetic_deck(seed, nposes=nposes or 1024, dtype=dtype)

"""miniBUDE ``fasten_main`` energy kernels written for Numba and for adtrans.

For every pose the ligand is moved rigidly (rotation from three angles, then a
translation) and its interaction energy with the fixed protein is summed over
all ligand x protein atom pairs.  With ``d`` the pair distance, ``radij`` the
sum of the two atom radii (Angstrom) and ``bb = d - radij`` the distance beyond
contact, each pair contributes three empirical terms (BUDE energy units):

* steric:      ``2*HARDNESS * max(0, 1 - d/radij)`` with HARDNESS = 38;
* charge:      ``CNSTNT * q_p*q_l * clamp(1 - bb/elcdst, 0, 1)`` with
  CNSTNT = 45 and cut-off ``elcdst`` = 2 Angstrom (4 when both atoms have
  hbtype 'F'); the product is replaced by ``-|q_p*q_l|`` when either atom has
  hbtype 'E';
* desolvation: ``(h_p' + h_l') * clamp(1 - bb/distdslv, 0, 1)`` when the
  protein hydrophobicity ``h_p`` is non-zero and at least one of ``h_p, h_l``
  is negative; ``distdslv`` = 5.5 (NPNPDIST) when both are negative, else 1
  (NPPDIST); a positive partner of a negative one enters with flipped sign.

``energies[pose] = 0.5 * (sum of all terms)``.  Each clamp is miniBUDE's
``zone1 ? 1 : (1 - bb/cutoff)`` times ``(bb < cutoff)``: 1 in contact, linear
to 0 at the cut-off, 0 beyond.  The model follows miniBUDE (UoB-HPC/miniBUDE,
``fasten_main``); this is an independent re-implementation that reproduces its
``ref_energies.out`` (max relative error 3.8e-5 on bm1 in float32, bound 2.5e-4).

The energy is continuous in the coordinates and piecewise smooth: its
gradient jumps where a pair crosses contact or a cut-off.

AD subset
---------
These kernels are inputs to the adtrans source-to-source AD tool and stay
inside its subset: separate numpy array arguments plus scalars, scalar
statements, ``for`` over ``range``/``prange``, ``if``/``elif``/``else``,
``math.sqrt/sin/cos``, ``min``/``max``/``abs``, ``np.float32(...)`` constants,
local arrays only from ``np.zeros(n, dtype)``, and calls to scalar ``@njit``
helpers.  Beyond that list they use: ``a.shape[k]`` for loop bounds,
``dtype=poses.dtype`` for the local arrays (keyword form: adtrans rejects the
positional ``np.zeros(n, poses.dtype)``), indexing with a value read from an
int array (``ff_radius[protein_type[ip]]``), helpers with several ``return``
statements, and in :func:`fasten_main_blocked` integer ``//`` and ``min`` on
indices, the module constant :data:`PPWI`, and a guarded store
``energies[group * PPWI + l]`` (each element written by one iteration only).

Precision: the same source runs for float32 and float64 arrays.  Constants
are ``np.float32`` values; they keep float32 arithmetic in float32 and are
promoted exactly in float64 code (so the float64 kernel evaluates the same
model, with 1/5.5 rounded to float32).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

import adtrans

__all__ = [
    "fasten_main",
    "fasten_main_blocked",
    "distance",
    "steric_energy",
    "ramp_energy",
    "charge_scale",
    "charge_slope",
    "desolv_scale",
    "desolv_slope",
    "PPWI",
    "KERNELS",
    "compute_energies",
    "energies_numpy",
    "validate_energies",
    "DIFF_TOLERANCE",
]

#: Poses per prange iteration ("poses per work item") in fasten_main_blocked.
#: At 8 or fewer LLVM unrolls the pose loop completely and then cannot
#: vectorise it (it cannot prove the local arrays do not alias); from 16 on
#: the loop vectoriser handles it; 64 is near the best on bm1 (README.md).
PPWI = 64

#: miniBUDE's validation threshold: 0.025 % relative error.
DIFF_TOLERANCE = 2.5e-4


# ---------------------------------------------------------------------------
# Scalar helpers.  The first three depend on the distance (active under AD);
# the last four depend only on forcefield data (constant under AD).
# ---------------------------------------------------------------------------

@njit(cache=True, fastmath=True)
def distance(ax, ay, az, bx, by, bz):
    """Euclidean distance between points a and b (Angstrom)."""
    dx = ax - bx
    dy = ay - by
    dz = az - bz
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@njit(cache=True, fastmath=True)
def steric_energy(distij, slope):
    """Steric term ``76 * max(0, 1 - distij/radij)`` as ``max(0, 76 - distij*slope)``.

    ``slope = 76/radij`` (per Angstrom), 76 = 2*HARDNESS.  Not halved.
    """
    return max(np.float32(0.0), np.float32(76.0) - distij * slope)


@njit(cache=True, fastmath=True)
def ramp_energy(distij, scale, offset, slope):
    """``scale * clamp(offset - distij*slope, 0, 1)``: charge or desolvation term.

    With ``slope = 1/cutoff`` and ``offset = 1 + radij*slope`` this is
    ``scale * clamp(1 - (distij - radij)/cutoff, 0, 1)``: ``scale`` in contact,
    falling linearly to 0 at ``cutoff`` Angstrom beyond contact.  Not halved.
    """
    return scale * min(np.float32(1.0), max(np.float32(0.0), offset - distij * slope))


@njit(cache=True, fastmath=True)
def charge_scale(p_hbtype, l_hbtype, p_elsc, l_elsc):
    """``45 * q_p * q_l``, forced to ``-|.|`` when either hbtype is 'E' (69)."""
    chrg = l_elsc * p_elsc * np.float32(45.0)
    if p_hbtype == 69 or l_hbtype == 69:
        chrg = -abs(chrg)
    return chrg


@njit(cache=True, fastmath=True)
def charge_slope(p_hbtype, l_hbtype):
    """Inverse charge cut-off (1/Angstrom): 1/4 when both hbtypes are 'F' (70), else 1/2."""
    if p_hbtype == 70 and l_hbtype == 70:
        return np.float32(0.25)
    return np.float32(0.5)


@njit(cache=True, fastmath=True)
def desolv_scale(p_hphb, l_hphb):
    """Desolvation magnitude from the two hydrophobicities (0 when the term is off).

    On only when ``p_hphb != 0`` and one of them is negative; a positive
    partner of a negative value enters with flipped sign.
    """
    if p_hphb < 0.0:
        if l_hphb < 0.0:
            return p_hphb + l_hphb
        if l_hphb > 0.0:
            return l_hphb - p_hphb
        return p_hphb
    if p_hphb > 0.0 and l_hphb < 0.0:
        return p_hphb - l_hphb
    return np.float32(0.0)


@njit(cache=True, fastmath=True)
def desolv_slope(p_hphb, l_hphb):
    """Inverse desolvation cut-off (1/Angstrom): 1/5.5 (NPNPDIST) when both are negative, else 1/1."""
    if p_hphb < 0.0 and l_hphb < 0.0:
        return np.float32(1.0) / np.float32(5.5)
    return np.float32(1.0)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@njit(parallel=True, cache=True, fastmath=True)
def fasten_main(protein_xyz, protein_type, ligand_xyz, ligand_type,
                ff_hbtype, ff_radius, ff_hphb, ff_elsc, poses, energies):
    """Docking energies, one pose per ``prange`` iteration (scalar code).

    Parameters (``float`` is float32 or float64, the same for all)
    ----------
    protein_xyz : (natp, 3) float, Angstrom
    protein_type : (natp,) int32 forcefield index
    ligand_xyz : (natl, 3) float, Angstrom (ligand frame)
    ligand_type : (natl,) int32 forcefield index
    ff_hbtype : (ntypes,) int32 ASCII H-bond type ('E' = 69, 'F' = 70)
    ff_radius : (ntypes,) float, Angstrom
    ff_hphb, ff_elsc : (ntypes,) float, hydrophobicity and charge
    poses : (6, nposes) float; rotation angles about x, y, z (radians), then
        the translation (Angstrom)
    energies : (nposes,) float, output in BUDE energy units (overwritten)
    """
    natp = protein_xyz.shape[0]
    natl = ligand_xyz.shape[0]
    nposes = poses.shape[1]
    one = np.float32(1.0)
    for ipose in prange(nposes):
        # Rigid transform: rotation R (README of the decks), then translation t.
        sx = math.sin(poses[0, ipose])
        cx = math.cos(poses[0, ipose])
        sy = math.sin(poses[1, ipose])
        cy = math.cos(poses[1, ipose])
        sz = math.sin(poses[2, ipose])
        cz = math.cos(poses[2, ipose])
        r00 = cy * cz
        r01 = sx * sy * cz - cx * sz
        r02 = cx * sy * cz + sx * sz
        r10 = cy * sz
        r11 = sx * sy * sz + cx * cz
        r12 = cx * sy * sz - sx * cz
        r20 = -sy
        r21 = sx * cy
        r22 = cx * cy
        tx = poses[3, ipose]
        ty = poses[4, ipose]
        tz = poses[5, ipose]

        etot = np.float32(0.0)
        for il in range(natl):
            lt = ligand_type[il]
            l_hbtype = ff_hbtype[lt]
            l_radius = ff_radius[lt]
            l_hphb = ff_hphb[lt]
            l_elsc = ff_elsc[lt]
            ax = ligand_xyz[il, 0]
            ay = ligand_xyz[il, 1]
            az = ligand_xyz[il, 2]
            lx = tx + ax * r00 + ay * r01 + az * r02
            ly = ty + ax * r10 + ay * r11 + az * r12
            lz = tz + ax * r20 + ay * r21 + az * r22

            for ip in range(natp):
                pt = protein_type[ip]
                p_hbtype = ff_hbtype[pt]
                p_hphb = ff_hphb[pt]
                # Coefficients of this pair of atom types.
                radij = ff_radius[pt] + l_radius
                steric_slope = np.float32(76.0) / radij
                c_scale = charge_scale(p_hbtype, l_hbtype, ff_elsc[pt], l_elsc)
                c_slope = charge_slope(p_hbtype, l_hbtype)
                c_offset = one + radij * c_slope
                d_scale = desolv_scale(p_hphb, l_hphb)
                d_slope = desolv_slope(p_hphb, l_hphb)
                d_offset = one + radij * d_slope

                distij = distance(lx, ly, lz, protein_xyz[ip, 0], protein_xyz[ip, 1], protein_xyz[ip, 2])
                etot += (steric_energy(distij, steric_slope)
                         + ramp_energy(distij, c_scale, c_offset, c_slope)
                         + ramp_energy(distij, d_scale, d_offset, d_slope))

        energies[ipose] = np.float32(0.5) * etot


@adtrans.differentiable(
    activity="dup,const,const,const,const,const,const,const,dup,dup",
    signature="void(float32[:, ::1], int32[::1], float32[:, ::1], int32[::1], int32[::1], "
              "float32[::1], float32[::1], float32[::1], float32[:, ::1], float32[::1])")
@njit(parallel=True, cache=True, fastmath=True)
def fasten_main_blocked(protein_xyz, protein_type, ligand_xyz, ligand_type,
                        ff_hbtype, ff_radius, ff_hphb, ff_elsc, poses, energies):
    """Same energies as :func:`fasten_main`, :data:`PPWI` poses per ``prange`` iteration.

    The pair coefficients are computed once per (ligand atom, protein atom)
    and reused for the block's poses; the innermost loops run over the PPWI
    poses (local arrays of length PPWI), which LLVM vectorises.  Pairs whose
    charge product is zero (~88 % in bm1) take a loop without the charge term;
    the skipped term is exactly 0.  ``nposes`` need not be a multiple of PPWI:
    the last block repeats the last pose and does not store the repeats.
    Arguments as for :func:`fasten_main`.
    """
    natp = protein_xyz.shape[0]
    natl = ligand_xyz.shape[0]
    nposes = poses.shape[1]
    ngroups = (nposes + PPWI - 1) // PPWI
    one = np.float32(1.0)
    for group in prange(ngroups):
        # Per-pose rotation entries and translations of this block.
        r00 = np.zeros(PPWI, dtype=poses.dtype)
        r01 = np.zeros(PPWI, dtype=poses.dtype)
        r02 = np.zeros(PPWI, dtype=poses.dtype)
        r10 = np.zeros(PPWI, dtype=poses.dtype)
        r11 = np.zeros(PPWI, dtype=poses.dtype)
        r12 = np.zeros(PPWI, dtype=poses.dtype)
        r20 = np.zeros(PPWI, dtype=poses.dtype)
        r21 = np.zeros(PPWI, dtype=poses.dtype)
        r22 = np.zeros(PPWI, dtype=poses.dtype)
        tx = np.zeros(PPWI, dtype=poses.dtype)
        ty = np.zeros(PPWI, dtype=poses.dtype)
        tz = np.zeros(PPWI, dtype=poses.dtype)
        # Current ligand atom moved by each pose (overwritten per ligand atom).
        lx = np.zeros(PPWI, dtype=poses.dtype)
        ly = np.zeros(PPWI, dtype=poses.dtype)
        lz = np.zeros(PPWI, dtype=poses.dtype)
        etot = np.zeros(PPWI, dtype=poses.dtype)

        for l in range(PPWI):
            ipose = min(group * PPWI + l, nposes - 1)
            sx = math.sin(poses[0, ipose])
            cx = math.cos(poses[0, ipose])
            sy = math.sin(poses[1, ipose])
            cy = math.cos(poses[1, ipose])
            sz = math.sin(poses[2, ipose])
            cz = math.cos(poses[2, ipose])
            r00[l] = cy * cz
            r01[l] = sx * sy * cz - cx * sz
            r02[l] = cx * sy * cz + sx * sz
            r10[l] = cy * sz
            r11[l] = sx * sy * sz + cx * cz
            r12[l] = cx * sy * sz - sx * cz
            r20[l] = -sy
            r21[l] = sx * cy
            r22[l] = cx * cy
            tx[l] = poses[3, ipose]
            ty[l] = poses[4, ipose]
            tz[l] = poses[5, ipose]

        for il in range(natl):
            lt = ligand_type[il]
            l_hbtype = ff_hbtype[lt]
            l_radius = ff_radius[lt]
            l_hphb = ff_hphb[lt]
            l_elsc = ff_elsc[lt]
            ax = ligand_xyz[il, 0]
            ay = ligand_xyz[il, 1]
            az = ligand_xyz[il, 2]
            for l in range(PPWI):
                lx[l] = tx[l] + ax * r00[l] + ay * r01[l] + az * r02[l]
                ly[l] = ty[l] + ax * r10[l] + ay * r11[l] + az * r12[l]
                lz[l] = tz[l] + ax * r20[l] + ay * r21[l] + az * r22[l]

            for ip in range(natp):
                pt = protein_type[ip]
                p_hbtype = ff_hbtype[pt]
                p_hphb = ff_hphb[pt]
                # Coefficients of this pair of atom types.
                radij = ff_radius[pt] + l_radius
                steric_slope = np.float32(76.0) / radij
                c_scale = charge_scale(p_hbtype, l_hbtype, ff_elsc[pt], l_elsc)
                c_slope = charge_slope(p_hbtype, l_hbtype)
                c_offset = one + radij * c_slope
                d_scale = desolv_scale(p_hphb, l_hphb)
                d_slope = desolv_slope(p_hphb, l_hphb)
                d_offset = one + radij * d_slope

                px = protein_xyz[ip, 0]
                py = protein_xyz[ip, 1]
                pz = protein_xyz[ip, 2]
                if c_scale == 0.0:
                    for l in range(PPWI):
                        distij = distance(lx[l], ly[l], lz[l], px, py, pz)
                        etot[l] += (steric_energy(distij, steric_slope)
                                    + ramp_energy(distij, d_scale, d_offset, d_slope))
                else:
                    for l in range(PPWI):
                        distij = distance(lx[l], ly[l], lz[l], px, py, pz)
                        etot[l] += (steric_energy(distij, steric_slope)
                                    + ramp_energy(distij, c_scale, c_offset, c_slope)
                                    + ramp_energy(distij, d_scale, d_offset, d_slope))

        for l in range(PPWI):
            ipose = group * PPWI + l
            if ipose < nposes:
                energies[ipose] = np.float32(0.5) * etot[l]


#: Kernel variants by name (all share the same signature).
KERNELS = {"scalar": fasten_main, "blocked": fasten_main_blocked}


def compute_energies(deck, variant: str = "blocked", out: np.ndarray | None = None) -> np.ndarray:
    """Run a kernel variant on ``deck``; returns ``energies`` (nposes,) in the deck's dtype."""
    if out is None:
        out = np.zeros(deck.nposes, dtype=deck.dtype)
    KERNELS[variant](*deck.kernel_args(), out)
    return out


def energies_numpy(deck, poses: slice | None = None) -> np.ndarray:
    """Slow whole-array numpy version of the same energy (float64), for tests.

    Independent of the Numba kernels: evaluates all pair terms of a pose at
    once with ``np.where``.  Returns (nposes,) float64 for the selected poses.
    """
    P = np.asarray(deck.protein_xyz, np.float64)
    L = np.asarray(deck.ligand_xyz, np.float64)
    ff_hb, ff_r = deck.ff_hbtype, np.asarray(deck.ff_radius, np.float64)
    ff_h, ff_q = np.asarray(deck.ff_hphb, np.float64), np.asarray(deck.ff_elsc, np.float64)
    pt, lt = deck.protein_type, deck.ligand_type
    # Pair parameters, shape (natl, natp).
    radij = ff_r[lt][:, None] + ff_r[pt][None, :]
    both_f = (ff_hb[lt][:, None] == ord("F")) & (ff_hb[pt][None, :] == ord("F"))
    elcdst = np.where(both_f, 4.0, 2.0)
    any_e = (ff_hb[lt][:, None] == ord("E")) | (ff_hb[pt][None, :] == ord("E"))
    hl, hp = ff_h[lt][:, None], ff_h[pt][None, :]
    chrg = ff_q[lt][:, None] * ff_q[pt][None, :]
    hp_eff = np.where((hp < 0) & (hl > 0), -hp, hp)
    hl_eff = np.where((hp > 0) & (hl < 0), -hl, hl)
    dslv = hp_eff + hl_eff
    dslv_on = (hp != 0) & ((hp < 0) | (hl < 0))
    distdslv = np.where((hp < 0) & (hl < 0), 5.5, 1.0)

    pz = np.asarray(deck.poses, np.float64)
    if poses is not None:
        pz = pz[:, poses]
    out = np.empty(pz.shape[1])
    for k in range(pz.shape[1]):
        a, b, c = pz[0:3, k]
        sx, cx, sy, cy, sz, cz = np.sin(a), np.cos(a), np.sin(b), np.cos(b), np.sin(c), np.cos(c)
        R = np.array([[cy * cz, sx * sy * cz - cx * sz, cx * sy * cz + sx * sz],
                      [cy * sz, sx * sy * sz + cx * cz, cx * sy * sz - sx * cz],
                      [-sy, sx * cy, cx * cy]])
        lpos = L @ R.T + pz[3:6, k]
        d = np.sqrt(((lpos[:, None, :] - P[None, :, :]) ** 2).sum(-1))
        bb = d - radij
        zone1 = bb < 0
        steric = np.where(zone1, 2 * 38.0 * (1 - d / radij), 0.0)
        q = chrg * np.where(zone1, 1.0, 1 - bb / elcdst) * (bb < elcdst)
        q = np.where(any_e, -np.abs(q), q)
        ds = dslv * np.where(dslv_on & (bb < distdslv), np.where(zone1, 1.0, 1 - bb / distdslv), 0.0)
        out[k] = 0.5 * (steric + 45.0 * q + ds).sum()
    return out


def validate_energies(energies: np.ndarray, ref: np.ndarray) -> dict:
    """miniBUDE's check with ``|ref|`` in the denominator.

    A pose is skipped when both ``|ref| < 1`` and ``|E| < 1``; otherwise
    ``|ref - E| / |ref|`` must stay below :data:`DIFF_TOLERANCE` (2.5e-4).
    Returns ``max_rel_err``, ``worst_pose``, ``max_abs_err``, ``skipped``,
    ``checked`` and ``ok``.
    """
    e = np.asarray(energies, np.float64)
    r = np.asarray(ref, np.float64)[: e.size]
    if r.size != e.size:
        raise ValueError(f"{e.size} energies but only {r.size} reference values")
    skip = (np.abs(r) < 1.0) & (np.abs(e) < 1.0)
    keep = ~skip
    rel = np.zeros_like(e)
    rel[keep] = np.abs(r[keep] - e[keep]) / np.abs(r[keep])
    worst = int(np.argmax(rel)) if e.size else -1
    max_rel = float(rel.max()) if e.size else 0.0
    return {
        "max_rel_err": max_rel,
        "worst_pose": worst,
        "max_abs_err": float(np.abs(r - e).max()) if e.size else 0.0,
        "skipped": int(skip.sum()),
        "checked": int(keep.sum()),
        "ok": bool(max_rel < DIFF_TOLERANCE and np.all(np.isfinite(e))),
    }

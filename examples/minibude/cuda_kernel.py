"""miniBUDE ``fasten_main`` as a numba-cuda kernel (one thread per pose), and its adtrans gradient.

The model and arithmetic are those of :func:`examples.minibude.kernel.fasten_main`
(see that module for the energy terms); the prange loop over poses becomes
the CUDA grid, and the scalar helpers become ``@cuda.jit(device=True)``
functions, which adtrans inlines.  :func:`gradient` differentiates the total
energy with ``adtrans.adjoint`` applied to the kernel: the adjoint is itself a
``@cuda.jit`` kernel, launched with the same configuration.

Runs on a GPU, or anywhere under the numba-cuda simulator
(``NUMBA_ENABLE_CUDASIM=1``, slow: use a few dozen poses and protein atoms).
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda

__all__ = ["fasten_main", "launch", "energies", "gradient", "adjoint_kernel", "THREADS"]

#: Threads per block (poses per block).
THREADS = 64


@cuda.jit(device=True)
def distance(ax, ay, az, bx, by, bz):
    dx = ax - bx
    dy = ay - by
    dz = az - bz
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@cuda.jit(device=True)
def steric_energy(distij, slope):
    return max(np.float32(0.0), np.float32(76.0) - distij * slope)


@cuda.jit(device=True)
def ramp_energy(distij, scale, offset, slope):
    return scale * min(np.float32(1.0), max(np.float32(0.0), offset - distij * slope))


@cuda.jit(device=True)
def charge_scale(p_hbtype, l_hbtype, p_elsc, l_elsc):
    chrg = l_elsc * p_elsc * np.float32(45.0)
    if p_hbtype == 69 or l_hbtype == 69:
        chrg = -abs(chrg)
    return chrg


@cuda.jit(device=True)
def charge_slope(p_hbtype, l_hbtype):
    if p_hbtype == 70 and l_hbtype == 70:
        return np.float32(0.25)
    return np.float32(0.5)


@cuda.jit(device=True)
def desolv_scale(p_hphb, l_hphb):
    if p_hphb < 0.0:
        if l_hphb < 0.0:
            return p_hphb + l_hphb
        if l_hphb > 0.0:
            return l_hphb - p_hphb
        return p_hphb
    if p_hphb > 0.0 and l_hphb < 0.0:
        return p_hphb - l_hphb
    return np.float32(0.0)


@cuda.jit(device=True)
def desolv_slope(p_hphb, l_hphb):
    if p_hphb < 0.0 and l_hphb < 0.0:
        return np.float32(1.0) / np.float32(5.5)
    return np.float32(1.0)


@cuda.jit
def fasten_main(protein_xyz, protein_type, ligand_xyz, ligand_type,
                ff_hbtype, ff_radius, ff_hphb, ff_elsc, poses, energies):
    """Docking energies, one pose per thread; arguments as for the CPU ``fasten_main``."""
    ipose = cuda.grid(1)
    natp = protein_xyz.shape[0]
    natl = ligand_xyz.shape[0]
    nposes = poses.shape[1]
    one = np.float32(1.0)
    if ipose < nposes:
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


def launch(nposes: int, threads: int = THREADS) -> tuple:
    """``(blocks, threads)`` covering ``nposes`` poses."""
    return ((nposes + threads - 1) // threads, threads)


def energies(deck, threads: int = THREADS) -> np.ndarray:
    """Energies of every pose of ``deck`` (host arrays in, host array out)."""
    out = np.zeros(deck.nposes, dtype=deck.dtype)
    fasten_main[launch(deck.nposes, threads)](*deck.kernel_args(), out)
    return out


def adjoint_kernel(wrt: str = "both"):
    """``adtrans.adjoint`` of :func:`fasten_main`: protein_xyz and/or poses Duplicated, energies Duplicated."""
    import adtrans
    prot = "dup" if wrt in ("protein", "both") else "const"
    pose = "dup" if wrt in ("poses", "both") else "const"
    return adtrans.adjoint(fasten_main, (prot, "const", "const", "const", "const", "const", "const", "const",
                                         pose, "dup"))


def adjoint_args(deck, dprot, dposes, out, dout):
    """Arguments of the adjoint kernel (each Duplicated argument followed by its shadow)."""
    args = [deck.protein_xyz]
    if dprot is not None:
        args.append(dprot)
    args += [deck.protein_type, deck.ligand_xyz, deck.ligand_type, deck.ff_hbtype, deck.ff_radius,
             deck.ff_hphb, deck.ff_elsc, deck.poses]
    if dposes is not None:
        args.append(dposes)
    return args + [out, dout]


def gradient(deck, wrt: str = "both", seed=None, threads: int = THREADS):
    """Adjoints of ``sum(seed * energies)`` w.r.t. protein_xyz and/or poses on the GPU.

    Returns ``(d_protein_xyz or None, d_poses or None, energies)`` as host arrays.
    """
    dt = deck.dtype
    out = np.zeros(deck.nposes, dtype=dt)
    dout = np.ones(deck.nposes, dtype=dt) if seed is None else np.array(seed, dtype=dt)
    dprot = np.zeros_like(deck.protein_xyz) if wrt in ("protein", "both") else None
    dposes = np.zeros_like(deck.poses) if wrt in ("poses", "both") else None
    adjoint_kernel(wrt)[launch(deck.nposes, threads)](*adjoint_args(deck, dprot, dposes, out, dout))
    return dprot, dposes, out

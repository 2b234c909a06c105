"""Gradients of the miniBUDE energy with adtrans, and their finite-difference check.

:func:`gradient` is the only place that calls adtrans: change it there.  The
quantity differentiated is ``sum_p seed[p] * energies[p]`` (seed = 1: the
total energy of all poses, BUDE energy units); the results are

* ``d/d protein_xyz``: (natp, 3), energy per Angstrom,
* ``d/d poses``: (6, nposes); rows 0-2 energy per radian, rows 3-5 energy
  per Angstrom.

No derivative is written by hand here: :func:`fd_check` only compares the
adtrans result with central differences of the kernel itself.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

from .kernel import KERNELS

__all__ = ["GradientUnavailable", "Gradient", "gradient", "fd_check", "WRT"]

WRT = ("protein", "poses", "both")


class GradientUnavailable(RuntimeError):
    """adtrans is missing, incomplete, or cannot differentiate the kernel.

    ``kind`` is ``"missing"`` (ImportError/AttributeError: adtrans or its API
    is not there yet) or ``"failed"`` (adtrans raised while differentiating).
    """

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


@dataclasses.dataclass
class Gradient:
    """Adjoints of ``sum(seed * energies)``.

    protein_xyz : (natp, 3) array in the deck's dtype, or None when not requested
    poses : (6, nposes) array in the deck's dtype, or None when not requested
    energies : (nposes,) the energies array after the adtrans call (the primal
        result, if adtrans ran the forward sweep into it)
    """

    protein_xyz: np.ndarray | None
    poses: np.ndarray | None
    energies: np.ndarray


def gradient(deck, wrt: str = "protein", variant: str = "blocked", seed=None,
             adjoint_module=None) -> Gradient:
    """Reverse-mode gradient of the energies of ``deck`` with adtrans.

    Parameters
    ----------
    deck : :class:`~examples.minibude.deck.Deck` (float32 or float64)
    wrt : ``"protein"``, ``"poses"`` or ``"both"``
    variant : kernel name in :data:`~examples.minibude.kernel.KERNELS`
        (``"blocked"`` or ``"scalar"``)
    seed : (nposes,) weights of the energies (default all ones)
    adjoint_module : a module written by ``adtrans gen kernel.py`` (build-time
        adjoints, see the Makefile); its ``<kernel>_adjoint`` is called directly

    Raises :class:`GradientUnavailable` when adtrans cannot provide it.
    """
    if wrt not in WRT:
        raise ValueError(f"wrt must be one of {WRT}, got {wrt!r}")
    kernel = KERNELS[variant]
    try:
        import adtrans
        from adtrans import Const, Duplicated
        ad_error = getattr(adtrans, "ADError", ())
        autodiff = adtrans.autodiff
    except (ImportError, AttributeError) as exc:
        raise GradientUnavailable(f"adtrans gradient unavailable ({type(exc).__name__}: {exc})",
                                  "missing") from exc

    dt = deck.dtype
    energies = np.zeros(deck.nposes, dtype=dt)
    denergies = np.ones(deck.nposes, dtype=dt) if seed is None else np.array(seed, dtype=dt)
    dprot = np.zeros_like(deck.protein_xyz) if wrt in ("protein", "both") else None
    dposes = np.zeros_like(deck.poses) if wrt in ("poses", "both") else None
    if adjoint_module is not None:
        adj = getattr(adjoint_module, kernel.__name__ + "_adjoint")
        adj(deck.protein_xyz, dprot if dprot is not None else np.zeros_like(deck.protein_xyz),
            *deck.kernel_args()[1:8], deck.poses, dposes if dposes is not None else np.zeros_like(deck.poses),
            energies, denergies)
        return Gradient(protein_xyz=dprot, poses=dposes, energies=energies)
    prot_arg = Duplicated(deck.protein_xyz, dprot) if dprot is not None else Const(deck.protein_xyz)
    poses_arg = Duplicated(deck.poses, dposes) if dposes is not None else Const(deck.poses)
    try:
        autodiff(kernel, prot_arg, Const(deck.protein_type), Const(deck.ligand_xyz),
                 Const(deck.ligand_type), Const(deck.ff_hbtype), Const(deck.ff_radius),
                 Const(deck.ff_hphb), Const(deck.ff_elsc), poses_arg,
                 Duplicated(energies, denergies))
    except (ImportError, AttributeError, NotImplementedError) as exc:
        raise GradientUnavailable(f"adtrans gradient unavailable ({type(exc).__name__}: {exc})",
                                  "missing") from exc
    except Exception as exc:
        # adtrans.ADError (UnsupportedError, TypingError, ...) or a Numba error
        # while compiling the generated adjoint; anything else propagates.
        from_numba = type(exc).__module__.startswith("numba")
        if not (from_numba or (ad_error and isinstance(exc, ad_error))):
            raise
        raise GradientUnavailable(
            f"adtrans could not differentiate the {variant} kernel ({type(exc).__name__}: {exc})",
            "failed") from exc
    return Gradient(protein_xyz=dprot, poses=dposes, energies=energies)


def _pick_entries(g: np.ndarray, n: int, rng: np.random.Generator, by_atom: bool) -> list:
    """About half the ``n`` entries with the largest |g|, the rest random.

    ``by_atom``: ``g`` is (natp, 3); the largest entries come from distinct
    atoms.  Otherwise ``g`` is (6, nposes) and the random entries cycle through
    the 6 pose parameters.
    """
    n_top = n // 2
    picked: list = []
    order = np.argsort(-np.abs(g), axis=None, kind="stable")
    atoms = set()
    for flat in order:
        if len(picked) >= n_top or g.flat[flat] == 0:
            break
        idx = np.unravel_index(flat, g.shape)
        if by_atom and idx[0] in atoms:
            continue
        atoms.add(idx[0])
        picked.append(tuple(int(i) for i in idx))
    row = 0
    while len(picked) < n and len(picked) < g.size:
        if by_atom:
            idx = (int(rng.integers(g.shape[0])), int(rng.integers(3)))
        else:
            idx = (row % 6, int(rng.integers(g.shape[1])))
            row += 1
        if idx not in picked:
            picked.append(idx)
    return picked


def fd_check(deck64, grad: Gradient, variant: str = "blocked", n_protein: int = 12,
             n_poses: int = 12, rel_step: float = 1e-6, seed: int = 0,
             progress: Callable | None = None) -> dict:
    """Compare an adtrans gradient with central differences of the total energy.

    ``deck64`` must be a float64 deck (its poses are the ones ``grad`` was
    computed on, seed 1).  The energies are evaluated with the kernel
    ``variant``: all variants compute the same function and ``"blocked"`` is
    the fastest, whichever kernel adtrans differentiated.

    For each sampled entry ``x`` the step is ``h = rel_step * max(1, |x|)``
    (Angstrom or radians), rounded so that ``x + h`` is exact, and
    ``fd = sum_p (E_p(x+h) - E_p(x-h)) / 2h``.  On bm1 (256 poses) steps of
    1e-5 to 1e-6 agree with adtrans to ~1e-9 (median) and 1e-6 to < 1e-6
    (worst of 48 entries); 1e-4 and larger often straddle a kink (a pair
    crossing contact or a cut-off, where the gradient jumps); 1e-7 and
    smaller lose digits to rounding.  Each entry is also differenced with
    ``h/4``; entries where the two estimates disagree by more than 1e-3
    (relative) are flagged ``kink``.

    The relative error of an entry is ``|ad - fd| / max(|fd|, floor)`` with
    ``floor = 1e-6 * max|ad|`` over the same array (so exact zeros compare
    as 0).  ``progress`` wraps the list of entries (e.g. ``tqdm``).

    Returns ``max_rel_err``, ``n_checked``, ``n_kink`` and ``entries`` (a list
    of dicts: array, index, ad, fd, fd_quarter, rel_err, kink).
    """
    if deck64.dtype != np.float64:
        raise ValueError("fd_check needs a float64 deck (load_deck(..., dtype=np.float64))")
    rng = np.random.default_rng(seed)
    todo = []
    if grad.protein_xyz is not None and n_protein > 0:
        todo += [("protein_xyz", idx) for idx in _pick_entries(grad.protein_xyz, n_protein, rng, True)]
    if grad.poses is not None and n_poses > 0:
        todo += [("poses", idx) for idx in _pick_entries(grad.poses, n_poses, rng, False)]

    kernel = KERNELS[variant]

    def energies():
        e = np.zeros(deck64.nposes)
        kernel(*deck64.kernel_args(), e)
        return e

    def central(arr, idx, h):
        # Difference pose by pose, then sum: poses the entry does not touch
        # cancel exactly instead of adding rounding noise of the whole sum.
        x0 = arr[idx]
        arr[idx] = x0 + h
        hp = arr[idx] - x0
        ep = energies()
        arr[idx] = x0 - hp
        em = energies()
        arr[idx] = x0
        return float(np.sum(ep - em)) / (2.0 * hp)

    entries = []
    it = progress(todo) if progress is not None else todo
    for name, idx in it:
        arr = getattr(deck64, name)
        g = getattr(grad, name)
        h = rel_step * max(1.0, abs(float(arr[idx])))
        fd = central(arr, idx, h)
        fd4 = central(arr, idx, h / 4)
        ad = float(g[idx])
        floor = max(1e-6 * float(np.max(np.abs(g))), 1e-12)
        rel = abs(ad - fd) / max(abs(fd), floor)
        kink = abs(fd - fd4) / max(abs(fd), floor) > 1e-3
        entries.append({"array": name, "index": list(idx), "ad": ad, "fd": fd, "fd_quarter": fd4,
                        "rel_err": rel, "kink": bool(kink)})
    max_rel = max((e["rel_err"] for e in entries), default=math.nan)
    return {"max_rel_err": max_rel, "n_checked": len(entries),
            "n_kink": sum(e["kink"] for e in entries), "entries": entries}

"""Figure of the per-protein-atom sensitivity of the docking energy."""

from __future__ import annotations

import numpy as np


def plot_gradient(deck, dprot: np.ndarray, path, ntop: int = 15) -> None:
    """Save a PNG: protein atoms coloured by ``|dE/dx|`` and a bar chart of the top atoms.

    ``dprot``: (natp, 3) gradient of the total energy with respect to
    ``deck.protein_xyz`` (energy per Angstrom).  Left: 3-D scatter of the
    protein atoms (Angstrom), colour and size by the gradient norm, with the
    ligand (in its own frame, i.e. pose zero) in black.  Right: the ``ntop``
    atoms with the largest norm, labelled by index and hbtype.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xyz = np.asarray(deck.protein_xyz, np.float64)
    norm = np.sqrt((np.asarray(dprot, np.float64) ** 2).sum(axis=1))
    order = np.argsort(norm)  # draw the large ones last (on top)
    top = np.argsort(-norm, kind="stable")[:ntop]

    fig = plt.figure(figsize=(13, 5.5))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    vmax = norm.max() if norm.max() > 0 else 1.0
    sc = ax.scatter(xyz[order, 0], xyz[order, 1], xyz[order, 2], c=norm[order], cmap="viridis",
                    vmin=0.0, vmax=vmax, s=6 + 60 * norm[order] / vmax, depthshade=False)
    lig = np.asarray(deck.ligand_xyz, np.float64)
    ax.scatter(lig[:, 0], lig[:, 1], lig[:, 2], c="k", s=12, marker="^", label="ligand (pose frame)")
    ax.set_xlabel("x (Å)")
    ax.set_ylabel("y (Å)")
    ax.set_zlabel("z (Å)")
    ax.legend(loc="upper left", fontsize=8)
    fig.colorbar(sc, ax=ax, shrink=0.6, pad=0.14, label="|dE/dx| (energy/Å)")
    fig.suptitle(f"{deck.name}{' (synthetic)' if deck.synthetic else ''}: sensitivity of the total "
                 f"energy of {deck.nposes} poses to each protein atom", fontsize=11)

    ax2 = fig.add_subplot(1, 2, 2)
    labels = [f"{i} ({chr(int(deck.ff_hbtype[deck.protein_type[i]]))})" for i in top]
    ax2.barh(range(len(top))[::-1], norm[top], color="tab:blue")
    ax2.set_yticks(range(len(top))[::-1])
    ax2.set_yticklabels(labels, fontsize=8)
    ax2.set_xlabel("|dE/dx| (energy/Å)")
    ax2.set_title(f"top {len(top)} protein atoms (index, hbtype)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)

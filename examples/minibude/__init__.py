"""miniBUDE (protein-ligand docking energy) as an adtrans example.

Modules: :mod:`.deck` (reading the bm1/bm2 decks, synthetic stand-in deck),
:mod:`.kernel` (the ``fasten_main`` Numba kernels, written in the subset the
adtrans AD tool accepts), :mod:`.grad` (the one adtrans call, and the
finite-difference check).  ``run.py`` is the command line program::

    python examples/minibude/run.py --check
"""

from .deck import Deck, find_deck, load_deck, make_synthetic_deck, open_deck
from .kernel import (KERNELS, PPWI, compute_energies, fasten_main, fasten_main_blocked,
                     validate_energies)

__all__ = [
    "Deck", "find_deck", "load_deck", "make_synthetic_deck", "open_deck",
    "KERNELS", "PPWI", "compute_energies", "fasten_main", "fasten_main_blocked",
    "validate_energies",
]

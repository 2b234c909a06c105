"""LULESH 2.0 (serial/OpenMP, no MPI) ported to Python + Numba.

Modules: :mod:`.domain` (problem set-up), :mod:`.kernels` (the Numba
kernels, written in the subset the adtrans AD tool accepts) and
:mod:`.lulesh` (the plain-Python drivers of the time step).  ``run.py`` is
the command line program.
"""

from .domain import Domain, GlibcRandom
from .lulesh import (LuleshError, QStopError, VolumeError, lagrange_leapfrog,
                     run_cycles, symmetry_check, time_increment)

__all__ = ["Domain", "GlibcRandom", "LuleshError", "QStopError", "VolumeError",
           "lagrange_leapfrog", "run_cycles", "symmetry_check",
           "time_increment"]

"""Stage 2 (normalise): lower a kernel to the small statement language the rules work on.

``jumps`` turns break/continue/early return into flags; ``threeaddr`` turns
expressions into three-address form, inlines calls to other jitted functions
and resolves intrinsic names.  The result is a :class:`~.threeaddr.Normalised`.
"""
from .threeaddr import Normalised, normalise  # noqa: F401

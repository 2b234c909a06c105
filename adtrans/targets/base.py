"""The target protocol: the hooks of :func:`adtrans.pipeline.generate` that differ per target."""
from __future__ import annotations

import ast

IMPORTS_HEAD = "import math\n\nimport numba\nimport numpy as np\n\nfrom adtrans import special\n"


class Target:
    """Base of the CPU and CUDA targets; each hook has the CPU behaviour unless overridden.

    ``kind``: ``"cpu"``, ``"cuda"`` or ``"driver"``; ``key``: what, besides the kernel, activity
    and types, makes two generated adjoints differ (part of the compile cache key);
    ``disk_cache``: generated adjoints may be kept on disk (:mod:`adtrans.gencache`);
    ``tape_by_cost``: see the attribute.
    """
    kind = "cpu"
    disk_cache = True
    #: loops driven by a selected adjoint are skipped where it is zero
    #: (:mod:`adtrans.transform.zeroskip`; CPU adjoints that are not differentiated again)
    skips_zero_adjoints = False
    #: consecutive element-wise loops run as one loop (:mod:`adtrans.transform.fuse`; CPU adjoints
    #: that are not differentiated again)
    fuses_loops = False
    #: a copy-back's shadows swap roles instead of copying (:mod:`adtrans.transform.shadowswap`;
    #: CPU adjoints that are not differentiated again)
    swaps_shadows = False
    #: whole-array exchange loops become name swaps (:func:`adtrans.transform.shadowswap.swap_exchanges`)
    swaps_exchanges = False
    #: recomputed loops may tape costly values (:data:`adtrans.rules.derivatives.COSTLY`): the
    #: target's tapes grow (a CUDA thread's local-array tape has a fixed size)
    tape_by_cost = False
    #: function-level time loops may be checkpointed (``LoopStrategies.checkpointed_loop``): the
    #: state saved per segment of iterations, the segment rerun in the reverse sweep
    checkpoint_loops = False
    #: function-level time loops may be rerun per iteration from their state
    #: (:mod:`adtrans.transform.rerun`): only the state taped, the rest recomputed
    rerun_loops = False
    #: the adjoint leaves the primal's outputs in the caller's arrays as the primal does; False
    #: (a driver adjoint, which restores or never reads them after the call): element stores into
    #: array parameters that the adjoint itself never reads are dropped (``transform.tidy``)
    keeps_outputs = True

    @property
    def key(self) -> tuple:
        return (self.kind,)

    def imports(self) -> str:
        """The import lines of a generated module."""
        raise NotImplementedError

    def digest_parts(self) -> tuple:
        """Strings that enter a generated module's digest before its input text."""
        return ()

    def normaliser_extension(self):
        """The normaliser's target extension (``normalise(..., ext=...)``), or None."""
        return None

    def is_array_type(self, t) -> bool:
        """Whether the Numba argument type ``t`` is an array (the normaliser treats it as one)."""
        raise NotImplementedError

    def typing_copy(self, norm):
        """The normalised kernel as Numba's CPU type inference should see it."""
        return norm

    def check_activity(self, primal, param_activity: dict) -> None:
        """Raise for activities the target cannot differentiate (after the common checks)."""

    def lower(self, marked) -> ast.FunctionDef:
        """The adjoint ``FunctionDef``: the marked IR (:class:`~adtrans.transform.MarkedAdjoint`)
        with its markers lowered to the target's code."""
        raise NotImplementedError

    def call_convention(self, marked, func) -> dict:
        """``returns``, ``seeds`` and ``parallel`` of the generated adjoint."""
        raise NotImplementedError

    def decorator(self, primal, parallel: bool, cache: bool = True) -> str:
        """The decorator of the generated adjoint (without ``@``)."""
        raise NotImplementedError

    def reassociates(self, primal) -> bool:
        """Whether the adjoint may add floats in another order than written (the primal's
        ``fastmath`` allows reassociation): a sum across a loop's iterations may then stay a
        scalar accumulation, which LLVM vectorises only under that flag."""
        return False


def fastmath_of(primal):
    """The primal's ``fastmath`` option: ``True``, a set of LLVM flag names, or None."""
    fastmath = (getattr(primal.dispatcher, "targetoptions", None) or {}).get("fastmath")
    if fastmath is None and primal.dispatcher is None and \
            "fastmath=True" in "".join(primal.decorators).replace(" ", ""):
        fastmath = True
    return fastmath


def option_source(value) -> str:
    """``value`` of a decorator option as source, sets sorted (generated code is deterministic)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(repr(v) for v in sorted(value)) + "}"
    return repr(value)


class DriverTarget(Target):
    """Plain-Python drivers calling kernels: differentiated by :mod:`adtrans.driver`, not by the
    kernel pipeline (only ``kind`` is meaningful)."""
    kind = "driver"
    disk_cache = False


#: The driver "target" (see :class:`DriverTarget`).
DRIVER = DriverTarget()

"""Targets of the one pipeline (:func:`adtrans.pipeline.generate`).

A target supplies what differs between CPU (``@njit``/prange) and CUDA
(``@cuda.jit``) adjoints: the decorator, the generated module's imports,
the normaliser extension, the typing copy, activity checks and the lowering
of the marked IR.  :mod:`.base` holds the protocol, :mod:`.cpu` the CPU
target; the CUDA target is :mod:`adtrans.cuda.target`.  Which target a
function object gets is decided in one place, :func:`adtrans.dispatch.target_of`.
"""

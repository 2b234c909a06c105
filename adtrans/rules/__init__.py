"""Stage 4 (transform rules): the adjoint rules, one table per family.

``scalar``: arithmetic and math/NumPy intrinsics (partial derivatives as
templates).  The statement- and loop-level rules live in
:mod:`adtrans.transform`; the parallel-accumulation strategies in
:mod:`adtrans.rules.parallel`.
"""

"""Stage 4 (transform rules): the derivative table and its instantiation.

- :mod:`adtrans.rules.derivatives`: **the** derivative table — for each
  operator and math/NumPy intrinsic, its partial derivatives as templates in
  ``a0, a1, z`` (mode-independent), the spellings that resolve to it, and the
  source of each derivative.  Kernels, CUDA kernels and drivers all read it.
- :mod:`adtrans.rules.scalar`: instantiates an entry in reverse mode
  (``g * p_i``: :func:`~adtrans.rules.scalar.partials`) or forward mode
  (``sum_i p_i * da_i``: :func:`~adtrans.rules.scalar.jvp`), and respells it
  for NumPy arrays (drivers).

Elsewhere: statement rules (``x = f(a)``, ``A[i] = v``, ``A[i] += v``, ...) are
the table of :class:`adtrans.rules.statements.StatementRules` (a BLAS product ``P = A @ B``
takes its array-level adjoint from :mod:`adtrans.rules.linalg`); loop
strategies are in :mod:`adtrans.transform.builder` / ``loops``; prange
accumulation strategies in :mod:`adtrans.rules.parallel`; driver array
rules (sum, dot, where, concatenate ...) in :mod:`adtrans.driver.exprs`; MPI
facts in :mod:`adtrans.mpi.specs` and MPI adjoints in :mod:`adtrans.mpi.rules`.
"""

"""adtrans: source-to-source reverse-mode automatic differentiation for Numba kernels.

One pipeline (:func:`adtrans.pipeline.generate`): :mod:`adtrans.parse` ->
:mod:`adtrans.normalise` -> :mod:`adtrans.analyse` -> :mod:`adtrans.transform` (asking
:mod:`adtrans.rules`) -> a target (:mod:`adtrans.targets.cpu`, :mod:`adtrans.cuda.target`)
-> :mod:`adtrans.emit`; see ``adtrans/README.md`` for the stages and where changes go.
"""
from .api import Active, AdjointFunction, Const, Duplicated, adjoint, autodiff, grad, hessian_diag, hvp, source
from .errors import ActivityError, ADError, GeneratedCodeError, TypingError, UnsupportedError
from .gen import differentiable

__version__ = "0.1.0"
__all__ = ["Active", "differentiable", "AdjointFunction", "Const", "Duplicated", "adjoint", "autodiff", "grad", "hessian_diag", "hvp", "source",
           "ADError", "ActivityError", "GeneratedCodeError", "TypingError", "UnsupportedError"]

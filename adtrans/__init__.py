"""adtrans: source-to-source reverse-mode automatic differentiation for Numba kernels.

Pipeline (one package per stage): :mod:`adtrans.parse` -> :mod:`adtrans.normalise`
-> :mod:`adtrans.analyse` -> :mod:`adtrans.transform` (rules in
:mod:`adtrans.rules`) -> :mod:`adtrans.emit` -> :mod:`adtrans.compile`.
"""
from .api import Active, AdjointFunction, Const, Duplicated, adjoint, autodiff, grad, source
from .errors import ActivityError, ADError, TypingError, UnsupportedError
from .gen import differentiable

__version__ = "0.1.0"
__all__ = ["Active", "differentiable", "AdjointFunction", "Const", "Duplicated", "adjoint", "autodiff", "grad", "source",
           "ADError", "ActivityError", "TypingError", "UnsupportedError"]

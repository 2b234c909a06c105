"""Errors raised by adtrans.

Every error that concerns the user's code names the file, line and column of
the construct, what the construct is, and what to write instead.
"""
from __future__ import annotations


class ADError(Exception):
    """Base class of every error adtrans raises."""


class UnsupportedError(ADError):
    """A construct adtrans cannot differentiate (it never guesses a gradient).

    Attributes: ``filename``, ``lineno``, ``col``, ``construct``, ``hint``.
    """

    def __init__(self, construct: str, hint: str = "", *, filename: str = "<unknown>",
                 lineno: int = 0, col: int = 0):
        self.construct, self.hint = construct, hint
        self.filename, self.lineno, self.col = filename, lineno, col
        msg = f"{filename}:{lineno}:{col}: unsupported: {construct}"
        if hint:
            msg += f". {hint}"
        super().__init__(msg)


class ActivityError(ADError):
    """The activity annotations do not fit the function's arguments."""


class TypingError(ADError):
    """Numba could not type the (normalised) primal for the given argument types."""


class GeneratedCodeError(ADError):
    """Numba could not type or compile code adtrans generated for a kernel: a bug of adtrans,
    reported at the user's construct (``filename``, ``lineno``) and ``kernel`` it comes from."""

    def __init__(self, kernel: str, detail: str, *, filename: str = "<unknown>", lineno: int = 0):
        self.kernel, self.detail, self.filename, self.lineno = kernel, detail, filename, lineno
        super().__init__(f"{filename}:{lineno}: adtrans could not compile its code for this line of kernel "
                         f"{kernel} (an adtrans bug; please report it): {detail}")

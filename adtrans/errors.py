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

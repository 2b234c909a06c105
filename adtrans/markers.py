"""Decorator that marks kernels for build-time adjoint generation (``adtrans gen``)."""
from __future__ import annotations


def differentiable(activity, signature=None):
    """Mark a kernel for ``adtrans gen``; the function itself is returned unchanged.

    ``activity``: ``"dup,const,active"`` or a tuple of those words, one per
    parameter.  ``signature``: Numba signature string giving the argument
    types, e.g. ``"float64(float64[:], int64)"`` (needed because ``adtrans gen``
    reads the source without running it).
    """
    def mark(fn):
        try:
            fn.__adtrans__ = {"activity": activity, "signature": signature}
        except AttributeError:
            pass
        return fn
    return mark

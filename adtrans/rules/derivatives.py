"""The derivative table: one entry per operator and intrinsic, for every engine.

Each entry gives the *partial derivatives* of ``z = f(a0, a1, ...)`` with
respect to each argument, as expression templates in the arguments ``a0, a1``
and the result ``z``.  The templates do not mention an adjoint or a tangent, so
the same entry serves

- the reverse (adjoint) engine of kernels and drivers, which emits
  ``da_i += g * p_i`` (:func:`adtrans.rules.scalar.partials`), and
- a forward (tangent) engine, which emits ``dz = sum_i p_i * da_i``
  (:func:`adtrans.rules.scalar.jvp`).

Templates are written with ``math.`` functions and may use conditional
expressions (``1.0 if a0 <= a1 else 0.0``); the driver engine turns these into
``_np.`` calls and ``_np.where`` so they apply to arrays elementwise.  A partial
of ``None`` marks an argument the result does not depend on differentiably; an
entry with no partials at all is piecewise constant (zero derivative).  An
entry with ``constant_only`` has no derivative adtrans can write: calls with
only constant arguments are allowed, a call with an active argument is refused
with that hint.  Templates may call ``special.digamma`` (:mod:`adtrans.special`,
the derivative of ``lgamma``/``gamma``): generated kernels and tangents import
``special``, drivers call its array version.

Spellings are chosen so the generated code is what the old adjoint-only
templates produced (``1.0 / (z + z)`` for sqrt, multiplied in as ``g / (z + z)``).

**Adding an intrinsic** is one entry in :data:`INTRINSIC`::

    "asinh": Rule("math.asinh",                          # how generated kernels call it
                  ("1.0 / math.sqrt(a0 * a0 + 1.0)",),   # d z / d a0 (one template per argument)
                  ("numpy.arcsinh",),                    # further names resolving to it
                  source="A&S 4.6.39"),

``math.<name>`` and ``numpy.<name>`` resolve to it automatically.  The kernel
normaliser, the kernel statement rules (reverse), the CUDA kernels (same
normaliser and rules), the driver expression adjoints and the forward helper
``jvp`` all pick it up: one file touched (this one), plus a finite-difference
test in ``tests/test_intrinsics.py`` (and a kernel there).  A function without
a derivative gets ``constant_only=<hint>``; a function that is not in the table
at all may still be called with constant arguments.

Sources: A&S = Abramowitz & Stegun, *Handbook of Mathematical Functions*;
DLMF = NIST Digital Library of Mathematical Functions.
"""
from __future__ import annotations

import ast
import builtins
import math
from dataclasses import dataclass

import numba
import numpy as np


@dataclass(frozen=True)
class Rule:
    """Derivative entry of one operator or intrinsic.

    ``spelling``: how generated kernels call it (``math.sin``); ``partials``:
    one template per argument (``None``: no dependence; ``()``: piecewise
    constant); ``names``: further dotted spellings resolving to it
    (``numpy.arcsin``); ``constant_only``: when set, the function has no
    derivative rule and this is the hint given if an argument is active;
    ``source``: where the derivative comes from; ``zero_where``: one condition template
    per argument (or None) marking the singular points where the partial is infinite or
    undefined and the contribution is taken as 0 (see :data:`SINGULAR_CONVENTION`).
    """
    spelling: str
    partials: tuple = ()
    names: tuple = ()
    constant_only: str | None = None
    source: str = ""
    zero_where: tuple = ()


#: The convention at singular points (used by every reverse engine: kernels, CUDA, drivers).
SINGULAR_CONVENTION = """\
Where a local derivative is infinite or undefined -- sqrt, cbrt, ``** p`` / pow with p < 1 and
hypot at 0 (and norm at 0, built from sqrt), the exponent partial of ``0 ** p`` -- the reverse
sweep adds 0 instead of ``g * inf`` (never ``inf * 0 = NaN``).  The rule: the contribution of such a
point is ``p * (incoming factor)`` with the incoming factor 0.  A square root at 0 of a smooth
non-negative argument (``dx*dx + dy*dy + dz*dz`` of a self-pair, ``x - x``) is at that argument's
minimum, whose own derivative is 0, so 0 is the true contribution: an all-pairs loop that
includes the self-pair gets the finite true gradient.  (An independent input sitting exactly at
the singular point has an infinite one-sided derivative; adtrans reports 0 there.)  Forward
tangents (``jvp``) keep the IEEE value.
"""

#: ``d(a0 ** a1)/d a0`` is infinite or undefined at a0 = 0 when a1 < 1 (1 at a1 == 1, 0 above)
_POW_AT_0 = "a0 == 0.0 and a1 < 1.0"

_LN2, _LN10, _2_SQRTPI = "0.6931471805599453", "2.302585092994046", "1.1283791670955126"

#: binary operators: ``z = a0 <op> a1``
BINOP = {
    ast.Add: Rule("+", ("1", "1"), source="sum rule"),
    ast.Sub: Rule("-", ("1", "-1"), source="sum rule"),
    ast.Mult: Rule("*", ("a1", "a0"), source="product rule"),
    ast.Div: Rule("/", ("1.0 / a1", "-z / a1"), source="quotient rule"),
    ast.Pow: Rule("**", ("a1 * a0 ** (a1 - 1)", "z * math.log(a0)"), source="A&S 3.3.14, 4.2.25",
                  zero_where=(_POW_AT_0, "a0 == 0.0")),
    ast.Mod: Rule("%", ("1", "-math.floor(a0 / a1)"), source="a0 - a1 * floor(a0 / a1), piecewise"),
    ast.FloorDiv: Rule("//", (), source="piecewise constant"),
}

#: unary operators: ``z = <op> a0``
UNARYOP = {
    ast.USub: Rule("-", ("-1",)),
    ast.UAdd: Rule("+", ("1",)),
}

#: canonical intrinsic name -> rule
INTRINSIC = {
    "exp": Rule("math.exp", ("z",), source="A&S 4.2.1"),
    "expm1": Rule("math.expm1", ("z + 1.0",), source="A&S 4.2.1"),
    "exp2": Rule("math.exp2", (f"z * {_LN2}",), source="A&S 4.2.1 with 2**x = exp(x ln 2)"),
    "log": Rule("math.log", ("1.0 / a0",), source="A&S 4.1.1"),
    "log1p": Rule("math.log1p", ("1.0 / (a0 + 1.0)",), source="A&S 4.1.1"),
    "log10": Rule("math.log10", (f"1.0 / (a0 * {_LN10})",), source="A&S 4.1.1, 4.1.23"),
    "log2": Rule("math.log2", (f"1.0 / (a0 * {_LN2})",), source="A&S 4.1.1, 4.1.23"),
    "sqrt": Rule("math.sqrt", ("1.0 / (z + z)",), source="A&S 3.3.12", zero_where=("z == 0.0",)),
    "cbrt": Rule("np.cbrt", ("1.0 / (3.0 * z * z)",), source="power rule, A&S 3.3.12", zero_where=("z == 0.0",)),
    "square": Rule("np.square", ("2.0 * a0",), source="power rule"),
    "reciprocal": Rule("np.reciprocal", ("-(z * z)",), source="power rule: d(1/x) = -1/x**2"),
    "sin": Rule("math.sin", ("math.cos(a0)",), source="A&S 4.3.105"),
    "cos": Rule("math.cos", ("-math.sin(a0)",), source="A&S 4.3.106"),
    "tan": Rule("math.tan", ("z * z + 1.0",), source="A&S 4.3.107 (sec^2 = 1 + tan^2)"),
    "tanh": Rule("math.tanh", ("1.0 - z * z",), source="A&S 4.5.79 (sech^2 = 1 - tanh^2)"),
    "sinh": Rule("math.sinh", ("math.cosh(a0)",), source="A&S 4.5.77"),
    "cosh": Rule("math.cosh", ("math.sinh(a0)",), source="A&S 4.5.78"),
    "asin": Rule("math.asin", ("1.0 / math.sqrt(1.0 - a0 * a0)",), ("numpy.arcsin",), source="A&S 4.4.52"),
    "acos": Rule("math.acos", ("-1.0 / math.sqrt(1.0 - a0 * a0)",), ("numpy.arccos",), source="A&S 4.4.53"),
    "atan": Rule("math.atan", ("1.0 / (a0 * a0 + 1.0)",), ("numpy.arctan",), source="A&S 4.4.54"),
    "asinh": Rule("math.asinh", ("1.0 / math.sqrt(a0 * a0 + 1.0)",), ("numpy.arcsinh",), source="A&S 4.6.39"),
    "acosh": Rule("math.acosh", ("1.0 / math.sqrt(a0 * a0 - 1.0)",), ("numpy.arccosh",), source="A&S 4.6.40"),
    "atanh": Rule("math.atanh", ("1.0 / (1.0 - a0 * a0)",), ("numpy.arctanh",), source="A&S 4.6.41"),
    "atan2": Rule("math.atan2", ("a1 / (a0 * a0 + a1 * a1)", "-a0 / (a0 * a0 + a1 * a1)"), ("numpy.arctan2",),
                  source="A&S 4.4.54 on atan(a0 / a1)"),
    "hypot": Rule("math.hypot", ("a0 / z", "a1 / z"), source="chain rule on sqrt(a0^2 + a1^2)",
                  zero_where=("z == 0.0", "z == 0.0")),
    "erf": Rule("math.erf", (f"{_2_SQRTPI} * math.exp(-(a0 * a0))",), source="A&S 7.1.19"),
    "erfc": Rule("math.erfc", (f"-({_2_SQRTPI} * math.exp(-(a0 * a0)))",), source="A&S 7.1.19, 7.1.2"),
    # selections: the derivative goes to one side (ties to the first argument; abs at 0 takes +1)
    "abs": Rule("abs", ("1.0 if a0 >= 0 else -1.0",),
                ("math.fabs", "numpy.abs", "numpy.absolute", "numpy.fabs", "builtins.abs"), source="piecewise"),
    "min": Rule("min", ("1.0 if a0 <= a1 else 0.0", "0.0 if a0 <= a1 else 1.0"),
                ("builtins.min", "numpy.minimum"), source="selection"),
    "max": Rule("max", ("1.0 if a0 >= a1 else 0.0", "0.0 if a0 >= a1 else 1.0"),
                ("builtins.max", "numpy.maximum"), source="selection"),
    "pow": Rule("math.pow", ("a1 * a0 ** (a1 - 1)", "z * math.log(a0)"), ("builtins.pow", "numpy.power"),
                source="A&S 3.3.14, 4.2.25", zero_where=(_POW_AT_0, "a0 == 0.0")),
    "copysign": Rule("math.copysign", ("math.copysign(1.0, a0) * math.copysign(1.0, a1)", None),
                     source="|a0| sign(a1), piecewise"),
    "float": Rule("float", ("1",), ("builtins.float",), source="identity"),
    "float64": Rule("np.float64", ("1",), ("numba.float64", "numba.types.float64", "numba.core.types.float64"),
                    source="identity"),
    "float32": Rule("np.float32", ("1",), ("numba.float32", "numba.types.float32", "numba.core.types.float32"),
                    source="identity (rounded)"),
    "logaddexp": Rule("np.logaddexp", ("math.exp(a0 - z)", "math.exp(a1 - z)"),
                      source="d log(e^a + e^b)/da = e^(a - z)"),
    "logaddexp2": Rule("np.logaddexp2", ("math.exp2(a0 - z)", "math.exp2(a1 - z)"),
                       source="d log2(2^a + 2^b)/da = 2^(a - z)"),
    # fmax/fmin ignore a NaN argument: the derivative goes to the other one (ties to the first)
    "fmax": Rule("np.fmax", ("1.0 if a0 >= a1 or a1 != a1 else 0.0", "0.0 if a0 >= a1 or a1 != a1 else 1.0"),
                 source="selection (NaN-ignoring)"),
    "fmin": Rule("np.fmin", ("1.0 if a0 <= a1 or a1 != a1 else 0.0", "0.0 if a0 <= a1 or a1 != a1 else 1.0"),
                 source="selection (NaN-ignoring)"),
    "deg2rad": Rule("np.deg2rad", ("0.017453292519943295",), ("numpy.radians", "math.radians"),
                    source="linear: pi / 180"),
    "rad2deg": Rule("np.rad2deg", ("57.29577951308232",), ("numpy.degrees", "math.degrees"),
                    source="linear: 180 / pi"),
    # sinc(x) = sin(pi x) / (pi x): (cos(pi x) - sinc(x)) / x, and near 0 its Taylor series
    # -pi^2 x / 3 + pi^4 x^3 / 30 - pi^6 x^5 / 840 (A&S 4.3.65 termwise), free of cancellation
    "sinc": Rule("np.sinc", ("(-3.289868133696453 + a0 * a0 * (3.246969701133414 - a0 * a0 * 1.144510944732505)) "
                             "* a0 if abs(a0) < 0.01 else (math.cos(3.141592653589793 * a0) - z) / a0",),
                 source="quotient rule; Taylor series near 0"),
    "positive": Rule("np.positive", ("1",), source="identity"),
    "float_power": Rule("np.float_power", ("a1 * a0 ** (a1 - 1)", "z * math.log(a0)"),
                        source="A&S 3.3.14, 4.2.25", zero_where=(_POW_AT_0, "a0 == 0.0")),
    # piecewise constant: zero derivative
    "isfinite": Rule("math.isfinite", ()),
    "signbit": Rule("np.signbit", ()),
    "floor": Rule("math.floor", ()),
    "ceil": Rule("math.ceil", ()),
    "trunc": Rule("math.trunc", ()),
    "rint": Rule("np.rint", ()),
    "around": Rule("np.round", (), ("numpy.round", "numpy.round_")),
    "sign": Rule("np.sign", ()),
    "isnan": Rule("math.isnan", ()),
    "isinf": Rule("math.isinf", ()),
    # psi = Gamma' / Gamma: adtrans.special.digamma (Numba has none; A&S 6.3.7, 6.3.5, 6.3.18)
    "gamma": Rule("math.gamma", ("z * special.digamma(a0)",), source="DLMF 5.2.2, 5.15.1 (psi = Gamma'/Gamma)"),
    "lgamma": Rule("math.lgamma", ("special.digamma(a0)",), source="DLMF 5.2.2 (d ln Gamma = psi)"),
}


#: Intrinsics whose value a reverse sweep reads back from a tape rather than computing again
#: (cache-or-recompute by cost, Enzyme's min-cut heuristic reduced to one rule): a libm call
#: costs tens of cycles and LLVM does not vectorise it without fast-math, while a tape store in
#: the forward sweep plus a load in the reverse costs a few.  Everything else (arithmetic, array
#: loads, selections) is cheap and recomputed.
COSTLY = frozenset({"exp", "expm1", "exp2", "log", "log1p", "log10", "log2", "cbrt", "sin", "cos", "tan",
                    "tanh", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2",
                    "erf", "erfc", "pow"})


def _build_lookup():
    """Objects and dotted spellings -> canonical name (several spellings share one rule)."""
    objects, dotted = {}, {}
    for key, rule in INTRINSIC.items():
        names = []
        for mod, prefix in ((math, "math"), (np, "numpy")):
            attr = "fabs" if (key == "abs" and mod is math) else key
            if getattr(mod, attr, None) is not None:
                names.append(f"{prefix}.{attr}")
        names += list(rule.names)
        for n in names:
            dotted.setdefault(n, key)
            mod, _, attr = n.partition(".")
            if mod not in ("math", "numpy", "builtins"):
                continue
            obj = getattr({"math": math, "numpy": np, "builtins": builtins}[mod], attr, None)
            if obj is not None:
                objects.setdefault(id(obj), key)
    for obj, key in ((np.float32, "float32"), (np.float64, "float64"), (numba.float32, "float32"),
                     (numba.float64, "float64")):
        objects[id(obj)] = key
    return objects, dotted


_OBJECTS, _SPELLINGS = _build_lookup()


def intrinsic_of(obj=None, dotted: str | None = None) -> str | None:
    """Canonical intrinsic name of a callee object (or of its dotted spelling), else None."""
    if obj is not None:
        try:
            return _OBJECTS.get(id(obj))
        except TypeError:
            return None
    return _SPELLINGS.get(dotted)


def rule_of(kind: str, op) -> Rule | None:
    """The entry for a ``"binop"``/``"unaryop"`` (``op`` an AST operator) or a ``"call"``
    (``op`` a canonical intrinsic name)."""
    if kind == "binop":
        return BINOP.get(type(op))
    if kind == "unaryop":
        return UNARYOP.get(type(op))
    return INTRINSIC.get(op)


def spelling(name: str) -> str:
    """How generated code spells intrinsic ``name`` (e.g. ``math.sqrt``)."""
    return INTRINSIC[name].spelling


# ------------------------------------------------------------------ dense linear algebra
@dataclass(frozen=True)
class LapackPart:
    """The rule of one element of a LAPACK function's tuple result (``np.linalg.eigh(A)[1]``):
    ``ndim`` (as :attr:`LapackRule.ndim`), ``temps``, ``reverse`` and ``vector`` (as in
    :class:`LapackRule`, ``z`` and ``G`` that element and its adjoint); ``constant``: no
    derivative (``slogdet``'s sign); ``refused``: no rule, what to write instead."""
    ndim: str
    temps: tuple = ()
    reverse: tuple = ()
    vector: tuple = ()
    constant: bool = False
    refused: str = ""


@dataclass(frozen=True)
class LapackRule:
    """Reverse rule of one dense linear-algebra function ``z = f(A[, b])`` kept whole (a LAPACK
    call in the primal and in the adjoint, at a kernel's function level).

    Templates are in the operands ``A``, ``b``, the result ``z``, its adjoint ``G`` (shaped like
    ``z``; a number for ``det``/``slogdet``) and temporaries ``t``: ``temps`` are assigned first
    (``(name, template)``), then ``reverse`` gives ``d_<operand> += template`` (``-=`` where the
    sign is ``-``).  ``vector``: replacement templates when ``b`` is a vector.  ``parts``: the
    result is a tuple, one :class:`LapackPart` per element; the kernel reads its elements
    (``sign, logdet = np.linalg.slogdet(A)``, ``w, V = np.linalg.eigh(A)``; each element read is
    its own call).  ``keywords``: keyword arguments passed through unchanged (no derivative).
    The helpers the templates name are :mod:`adtrans.targets.cpu_lapack` (they say what happens
    at singular, degenerate and non-symmetric inputs); a singular ``A`` makes
    ``solve``/``inv``/``slogdet`` raise NumPy's ``LinAlgError`` (in the forward sweep, as the
    primal does; ``slogdet``'s adjoint raises it in the reverse)."""
    args: tuple
    ndim: str                 # the result's number of dimensions: "0", "1", "2", or "b" (b's)
    temps: tuple
    reverse: tuple            # (operand, "+" or "-", template)
    source: str
    vector: tuple = ()
    parts: tuple = ()
    keywords: tuple = ()

    def part(self, k):
        """The :class:`LapackPart` of element ``k`` (None: the whole, not a tuple)."""
        if not self.parts:
            return LapackPart(self.ndim, self.temps, self.reverse, self.vector)
        return self.parts[k]


#: The helpers the templates below name (:mod:`adtrans.targets.cpu_lapack`; generated CPU code
#: imports them, drivers call them as ``_rt.<name>``).
LAPACK_HELPERS = ("cofactors", "cholesky_adjoint", "eigh_values_vjp", "eigh_vectors_vjp",
                  "svd_values_vjp", "svd_u_vjp", "svd_vt_vjp", "normal_solve", "pinv_vjp", "qr_q_vjp",
                  "qr_r_vjp")

_SVD_VALUES = LapackPart("1", reverse=(("A", "+", "svd_values_vjp(A, z, G)"),))

#: ``np.linalg.<name>`` -> its rule.  Sources: Giles, "Collected matrix derivative results for
#: forward and reverse mode algorithmic differentiation", 2008 (sec. 2.2, 2.3; eigenvalues); Murray,
#: "Differentiation of the Cholesky decomposition", 2016 (sec. 3, eq. 10); Seeger et al.,
#: "Auto-differentiating linear algebra", 2017 (eigh); Townsend, "Differentiating the singular
#: value decomposition", 2016; Golub & Pereyra, "The differentiation of pseudo-inverses", 1973;
#: Walter, Lehmann & Lamour, "On evaluating higher-order derivatives of the QR decomposition of
#: tall matrices with full column rank in forward and reverse mode AD", 2012.
LAPACK = {
    "linalg.solve": LapackRule(("A", "b"), "b", (("t", "np.linalg.solve(A.T, G)"),),
                               (("b", "+", "t"), ("A", "-", "t @ z.T")), "Giles 2008, sec. 2.3.1",
                               vector=(("b", "+", "t"), ("A", "-", "np.outer(t, z)"))),
    "linalg.inv": LapackRule(("A",), "2", (), (("A", "-", "z.T @ (G @ z.T)"),), "Giles 2008, sec. 2.2.3"),
    "linalg.det": LapackRule(("A",), "0", (), (("A", "+", "G * cofactors(A, z)"),), "Giles 2008, sec. 2.2.4"),
    "linalg.slogdet": LapackRule(("A",), "0", (), (), "Giles 2008, sec. 2.2.4 (d log|det A| = tr(A^-1 dA))",
                                 parts=(LapackPart("0", constant=True),
                                        LapackPart("0", reverse=(("A", "+", "G * np.linalg.inv(A).T"),)))),
    "linalg.cholesky": LapackRule(("A",), "2", (), (("A", "+", "cholesky_adjoint(z, G)"),),
                                  "Murray 2016, eq. 10 (lower triangle)"),
    "linalg.eigvalsh": LapackRule(("A",), "1", (), (("A", "+", "eigh_values_vjp(A, z, G)"),),
                                  "Giles 2008, eigenvalues (dw_i = v_i^T dA v_i; lower triangle)"),
    "linalg.eigh": LapackRule(("A",), "0", (), (), "Giles 2008, eigenvectors; Seeger et al. 2017 (F = 1/(w_j - w_i))",
                              parts=(LapackPart("1", reverse=(("A", "+", "eigh_values_vjp(A, z, G)"),)),
                                     LapackPart("2", reverse=(("A", "+", "eigh_vectors_vjp(A, z, G)"),)))),
    "linalg.svd": LapackRule(("A",), "0", (), (), "Townsend 2016 (ds_i = u_i^T dA v_i; U, V^T: F = 1/(s_j^2 - s_i^2))",
                             parts=(LapackPart("2", reverse=(("A", "+", "svd_u_vjp(A, z, G)"),)),
                                    _SVD_VALUES,
                                    LapackPart("2", reverse=(("A", "+", "svd_vt_vjp(A, z, G)"),))),
                             keywords=("full_matrices",)),
    "linalg.lstsq": LapackRule(("A", "b"), "0", (), (), "normal equations x = (A^T A)^-1 A^T b, Giles 2008, "
                               "sec. 2.3.1 (full column rank)",
                               parts=(LapackPart("b", (("t", "normal_solve(A, G)"),),
                                                 (("b", "+", "A @ t"), ("A", "+", "(b - A @ z) @ t.T - (A @ t) @ z.T")),
                                                 (("b", "+", "A @ t"),
                                                  ("A", "+", "np.outer(b - A @ z, t) - np.outer(A @ t, z)"))),
                                      LapackPart("1", refused="compute the residuals from the solution: "
                                                              "np.sum((A @ x - b) ** 2)"),
                                      LapackPart("0", refused="use np.linalg.matrix_rank(A)"),
                                      LapackPart("1", reverse=(("A", "+", "svd_values_vjp(A, z, G)"),))),
                               keywords=("rcond",)),
    "linalg.qr": LapackRule(("A",), "0", (), (), "Walter, Lehmann & Lamour 2012 (thin QR, full column rank)",
                            parts=(LapackPart("2", reverse=(("A", "+", "qr_q_vjp(A, z, G)"),)),
                                   LapackPart("2", reverse=(("A", "+", "qr_r_vjp(A, z, G)"),)))),
    "linalg.pinv": LapackRule(("A",), "2", (), (("A", "+", "pinv_vjp(A, z, G)"),),
                              "Golub & Pereyra 1973 (full rank)"),
}

"""Functions of Python's ``math`` module that Numba does not compile (measured with Numba 0.68.1:
``@njit`` of each fails typing), each with what to write instead.  A kernel calling one is refused
at its line (:meth:`~.threeaddr.Normaliser.call`) instead of reaching Numba's typing error."""
from __future__ import annotations

#: ``math`` function -> what to write instead (every spelling compiles in Numba's nopython mode).
NUMBA_LACKS = {
    "factorial": "math.gamma(n + 1.0), or a running product (f *= k in the loop over k)",
    "comb": "math.gamma(n + 1.0) / (math.gamma(k + 1.0) * math.gamma(n - k + 1.0)), or a running product",
    "perm": "math.gamma(n + 1.0) / math.gamma(n - k + 1.0), or a running product",
    "cbrt": "np.cbrt(x)",
    "fmod": "np.fmod(x, y)",
    "remainder": "x - y * np.rint(x / y)",
    "modf": "math.trunc(x) for the integral part and x - math.trunc(x) for the fraction",
    "fsum": "a loop accumulating s += v, or np.sum of an array",
    "prod": "a loop accumulating p *= v, or np.prod of an array",
    "dist": "math.sqrt((p0 - q0) ** 2 + (p1 - q1) ** 2), or np.sqrt(np.sum((p - q) ** 2))",
    "isclose": "abs(a - b) <= max(rel_tol * max(abs(a), abs(b)), abs_tol)",
    "isqrt": "int(math.sqrt(n)) (exact for n < 2**52)",
    "lcm": "a * b // math.gcd(a, b)",
    "ulp": "np.spacing(abs(x))",
}


def lacking(canon: str):
    """The hint when ``canon`` (a canonical dotted name) is a ``math`` function Numba lacks, else None."""
    module, _, short = canon.partition(".")
    return NUMBA_LACKS.get(short) if module == "math" else None

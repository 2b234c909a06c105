"""The six GradBench kernels of bench/gradbench.py (small sizes) against central finite
differences, and the tape code they get (inline pushes, reserved before loops)."""
import re
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import adtrans
from adtrans.arguments import typeof_args
from adtrans.build import compiled
from adtrans.targets.cpu import CPU
from adtrans.targets.cpu_runtime import tape_push_array
from fdcheck import check, tape_pushes

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gradbench as GB  # noqa: E402


def rng():
    return np.random.default_rng(3)


@pytest.mark.parametrize("fn, args, activity", [
    (GB.lse, lambda: GB.lse_input(50, rng()), None),
    (GB.llsq, lambda: GB.llsq_input(40, 6, rng()), None),
    (GB.ode, lambda: GB.ode_input(7, 4, rng()), None),
    (GB.gmm, lambda: GB.gmm_input(3, 4, 5, rng()), ("dup",) * 4 + ("const", "active", "const")),
    (GB.ba, lambda: GB.ba_input(3, 5, 12, rng()), ("dup", "dup", "dup", "const", "dup", "dup", "dup")),
    (GB.kmeans, lambda: GB.kmeans_input(20, 3, 2, rng()), ("const", "dup")),
], ids=["lse", "llsq", "ode", "gmm", "ba", "kmeans"])
def test_gradbench_kernel_matches_finite_differences(fn, args, activity):
    check(fn, list(args()), activity=activity)


def test_ba_zero_rotation_branch_matches_finite_differences():
    cams, X, w, obs, feats, err, werr = GB.ba_input(2, 4, 6, rng())
    cams[0, 0:3] = 0.0          # sqtheta == 0: the small-angle branch
    obs[:, 0] = 0
    check(GB.ba, [cams, X, w, obs, feats, err, werr], activity=("const", "dup", "dup", "const", "dup", "dup", "dup"))


def test_pushes_are_inline_stores_with_room_reserved_before_the_loop():
    src = adtrans.source(GB.llsq, ("dup", "const"), *GB.llsq_input(40, 6, rng()))
    assert "tape_push(" not in src
    # the forward loop over j pushes `mul` once per iteration, after one reserve for m entries
    assert tape_pushes(src) == 1
    assert re.search(r"if top_float64 \+ max\(m, 0\) > tape_float64.shape\[0\]:", src)
    # the rerun of an iteration in the reverse sweep does not push and pop `mul` again
    assert src.count("mul = tape_float64[top_float64") == 1
    # the tape is indexed by the loop counter, not by a running top, in both sweeps, and the
    # reverse loop (independent iterations) runs in ascending order, so that it vectorises
    assert "tape_float64[top_float64 + j] = mul\n" in src and "top_float64 += 1" not in src
    assert re.search(r"for j in range\(m\):\n\s*mul = tape_float64\[top_float64 \+ j\]", src)
    # the forward loop's `top += m` and the reverse loop's `top -= m` cancel (nothing between uses the tape)
    assert "top_float64 += max(m, 0)" not in src and "top_float64 -= max(m, 0)" not in src
    assert "range(m - 1, -1, -1)" not in src


def test_integer_counter_is_stepped_back_not_taped():
    src = adtrans.source(GB.gmm, ("dup",) * 4 + ("const",) * 3, *GB.gmm_input(3, 4, 5, rng()))
    assert "li -= 1" in src
    # li is never taped: the loop over points is recomputed (its scratch arrays xc, qx, main are
    # private to an iteration), so `li = 0` starts every rerun of a component
    assert "tape_int64[top_int64] = li\n" not in src


def test_ode_with_streamed_snapshots_matches_finite_differences():
    """n = 40000: each step's snapshots of ``yf`` and ``yt`` (320 KB) go to the tape with
    streaming stores (adtrans/targets/cpu_stream.py)."""
    x, s, yf = GB.ode_input(40_000, 3, rng())
    check(GB.ode, [x, s, yf])


def test_ode_tape_top_reaches_tape_push_array_as_int64_not_a_literal():
    """The push opening ode's time loop was typed first with ``top_float64`` ``Literal[int](0)``
    (the tape top was set to ``0``) and then ``int64``: tape_push_array compiled twice (0.4-0.8 s
    cold).  The adjoint is typed again here without Numba's cache, which would load it without
    typing its calls."""
    x, s, yf = GB.ode_input(7, 4, rng())
    activity = ("dup", "const", "dup")
    assert "top_float64 = np.int64(0)\n" in adtrans.source(GB.ode, activity, x, s, yf)
    _, adj = compiled(GB.ode, activity, typeof_args((x, s, yf)), CPU)
    numba.njit(adj.py_func).compile((numba.typeof(x),) * 2 + (numba.typeof(s),) + (numba.typeof(yf),) * 2
                                    + (numba.types.Omitted(None),))
    assert tape_push_array.signatures and not any(isinstance(sig[1], numba.types.Literal)
                                                  for sig in tape_push_array.signatures), tape_push_array.signatures

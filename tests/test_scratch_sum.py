"""The runtime's sums of per-thread copies after a prange adjoint's loop (scratch_sum_1d/2d/3d,
targets/cpu_runtime.py): ``out += copies[t]`` for every copy, the copies left zeroed, serially up
to SERIAL_SUM_MAX elements of copies in all and in parallel above; the same additions in the
same order either way, so both branches agree bit for bit with NumPy's sum of the copies in turn."""
import numpy as np
import pytest

from adtrans.rules.parallel import SERIAL_SUM_MAX
from adtrans.targets.cpu_runtime import scratch_sum_1d, scratch_sum_2d, scratch_sum_3d

SUMS = {1: scratch_sum_1d, 2: scratch_sum_2d, 3: scratch_sum_3d}


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("big", [False, True], ids=["serial", "parallel"])
def test_scratch_sum(ndim, big):
    rng = np.random.default_rng(ndim)
    rows = 2 * SERIAL_SUM_MAX // 3 + 5 if big else 7
    shape = (rows,) + (3,) * (ndim - 1)
    copies = rng.uniform(-1, 1, (3,) + shape) if not big else rng.uniform(-1, 1, (2,) + shape)
    assert (copies.size > SERIAL_SUM_MAX) == big
    out = rng.uniform(-1, 1, shape)
    want = out.copy()
    for c in copies:
        want += c
    SUMS[ndim](out, copies)
    assert np.array_equal(out, want)
    assert not copies.any()

"""Checkpointed time loops in kernels (transform/loops.py checkpointed_loop, opt-in:
ADTRANS_CHECKPOINT=1 or ``CPU.checkpoint_loops``): the forward sweep saves only the state arrays
before each segment of sqrt(trips) iterations, the reverse sweep reruns each segment from them.
Gradients against central finite differences in float64 for step counts 0, 1, a perfect square,
and counts that are not a multiple of the segment length; 1-D, 2-D, prange bodies, a strided
range; the state named in the loop comment; loops that carry a scalar stay taped."""
import numpy as np
import pytest

import adtrans
import kernels_checkpoint as K
from adtrans.arguments import typeof_args
from adtrans.build import compiled
from adtrans.targets.cpu import CPU
from adtrans.targets.cpu_runtime import tape_pool
from fdcheck import check

RNG = np.random.default_rng(11)
CKPT = "checkpointed loop"


@pytest.fixture(autouse=True, scope="module")
def checkpointing():
    old = CPU.checkpoint_loops
    CPU.checkpoint_loops = True
    yield
    CPU.checkpoint_loops = old


def u(*shape):
    return RNG.uniform(0.2, 1.2, shape)


# steps: 0 and 1 (one segment of one), 4 (two of two), 5 and 7 (last segment shorter), 10 (3 + 3 + 3 + 1)
@pytest.mark.parametrize("steps", [0, 1, 5, 7])
def test_heat_1d(steps):
    check(K.heat_sink, [u(9), 0.2, steps], activity=("dup", "const", "const"))


@pytest.mark.parametrize("steps", [1, 6])
def test_heat_strided(steps):
    check(K.heat_sink_strided, [u(8), 0.2, steps], activity=("dup", "const", "const"))


@pytest.mark.parametrize("steps", [0, 5])
def test_heat_2d(steps):
    check(K.heat_sink_2d, [u(5, 6), 0.15, steps], activity=("dup", "const", "const"))


@pytest.mark.parametrize("steps", [1, 5])
def test_heat_prange(steps):
    check(K.heat_sink_prange, [u(11), 0.2, steps], activity=("dup", "const", "const"))


@pytest.mark.parametrize("steps", [1, 8])
def test_rk2_chain(steps):
    check(K.rk2_chain, [u(7), u(7), 0.1, steps], activity=("dup", "dup", "const", "const"))


@pytest.mark.parametrize("steps", [5])
def test_partially_stored_stage(steps):
    check(K.partial_stage, [u(7), u(7), 0.1, steps], activity=("dup", "dup", "const", "const"))


@pytest.mark.parametrize("steps", [0, 3])
def test_carried_scalar_stays_taped(steps):
    check(K.heat_carried, [u(9), 0.2, steps], activity=("dup", "const", "const"))
    src = adtrans.source(K.heat_carried, ("dup", "const", "const"), u(9), 0.2, steps)
    assert CKPT not in src and "taped loop" in src


def comment_of(src):
    return next(line for line in src.splitlines() if CKPT in line)


@pytest.mark.parametrize("fn,args,act,state", [
    (K.heat_sink, lambda: [u(9), 0.2, 3], ("dup", "const", "const"), "u"),
    (K.heat_sink_prange, lambda: [u(9), 0.2, 3], ("dup", "const", "const"), "u"),
    (K.heat_sink_2d, lambda: [u(5, 6), 0.2, 3], ("dup", "const", "const"), "tmp, u"),
    (K.rk2_chain, lambda: [u(7), u(7), 0.1, 3], ("dup", "dup", "const", "const"), "y"),
    (K.partial_stage, lambda: [u(7), u(7), 0.1, 3], ("dup", "dup", "const", "const"), "k, y"),
], ids=["1d", "prange", "2d", "rk2", "partial"])
def test_state_is_named(fn, args, act, state):
    """Arrays every step stores before it reads them (k, yt, the 1-D tmp) are not state."""
    src = adtrans.source(fn, act, *args())
    assert f"saves only {state} before each segment" in comment_of(src)
    assert "tape_restore_array" in src


def test_off_by_default_gives_the_taped_loop():
    CPU.checkpoint_loops = False
    try:
        src = adtrans.source(K.heat_sink, ("dup", "const", "const"), u(9), 0.2, 3)
    finally:
        CPU.checkpoint_loops = True
    assert CKPT not in src and "taped loop" in src


def tape_elements(flag, steps):
    """Elements of the tape one call of the heat_sink adjoint grows (n = 50), with or without
    checkpointing, and its gradient."""
    CPU.checkpoint_loops = flag
    try:
        x, d = u(50), np.zeros(50)
        gen, fn = compiled(K.heat_sink, ("dup", "const", "const"), typeof_args((x, 0.2, steps)), CPU)
        pool = tape_pool(np.empty(16))
        fn(x, d, 0.2, steps, 1.0, pool)
        return pool[0].size, d
    finally:
        CPU.checkpoint_loops = True


def test_tape_holds_segments_not_steps():
    """200 steps of 50 values: the store-all tape holds 200 copies of u (10,000 values), the
    checkpointed one ceil(200 / 14) = 15 saved states plus one segment's 14 copies (about 1,450)."""
    RNG.bit_generator.state = np.random.default_rng(2).bit_generator.state
    full, d_full = tape_elements(False, 200)
    RNG.bit_generator.state = np.random.default_rng(2).bit_generator.state
    ckpt, d_ckpt = tape_elements(True, 200)
    assert full >= 200 * 50
    assert ckpt <= 32 * 50           # (room grown in steps of the runtime's tape_grow)
    np.testing.assert_allclose(d_ckpt, d_full, rtol=1e-12, atol=0)

"""Adversarial checks of session 10's rules (tests/kernels_breaker3.py): gradients against
central differences on the pure-Python functions."""
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import driver_breaker3 as D  # noqa: E402
import kernels_breaker3 as K  # noqa: E402
from fdcheck import check  # noqa: E402

U0 = np.random.default_rng(1).uniform(0.0, 1.0, 9)


def test_mask_rebound_in_an_inner_loop_of_a_taped_loop():
    # before: the inner loop's reverse left the mask's positions of length 0 (its binding before
    # its first iteration), the outer loop's next reverse iteration popped that many: 0.126 vs FD
    # 1.475 at entry 0, and reads past the positions' end (a segfault later in the process)
    check(K.nested_mask_update, [U0.copy(), 0.5, 3], activity=("dup", "const", "const"),
          primal=K.nested_mask_update.py_func)
    check(K.nested_positions_while, [U0.copy(), 0.5, 7.5], activity=("dup", "const", "const"),
          primal=K.nested_positions_while.py_func)
    check(K.doubly_nested_compaction, [U0.copy(), 3], activity=("dup", "const"),
          primal=K.doubly_nested_compaction.py_func)


def test_driver_reshape_view_written_in_place():
    # Y.reshape(-1) of a C-contiguous array is a view: before, the driver adjoint took it for a
    # copy (5.34 vs FD 10.56)
    check(D.reshape_written, [np.random.default_rng(5).uniform(0.2, 1.0, (2, 3))])


def test_driver_ravel_view_written_by_a_kernel():
    # a kernel writing into Y.ravel() writes Y: before, 0.68 vs FD 0.126
    g = np.random.default_rng(5)
    check(D.ravel_written_by_a_kernel, [g.uniform(0.2, 1.0, (2, 3)), g.uniform(0.2, 1.0, 6)])


def test_driver_ravel_views_and_copies():
    g = np.random.default_rng(6)
    check(D.ravel_of_zeros_written_by_a_kernel, [g.uniform(0.2, 1.0, 6)])
    check(D.ravel_copy_written, [g.uniform(0.2, 1.0, (2, 4))])
    check(D.reshape_read_and_written, [g.uniform(0.2, 1.0, (2, 3))])

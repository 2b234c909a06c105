"""Kernels that crashed or were refused wrongly (issue 13): gradients against finite differences."""
import numpy as np
import pytest

import kernels_crash as C
from fdcheck import check


@pytest.mark.parametrize("fn", [C.search_then_triangular, C.search_then_triangular_serial,
                                C.while_search_then_triangular], ids=lambda f: f.__name__)
def test_search_with_break_then_triangular_accumulation(fn):
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, (4, 6))
    x[2] = 0.1          # a row where the search finds nothing (runs to the end)
    check(fn, [x, 0.8, rng.uniform(0, 1, (4, 6))], activity=("dup", "const", "dup"))

"""Window functions of scalars (np.kaiser: a constant), NumPy functions of scalars outside the table
(refused with the line, never guessed to be scalars), np.nonzero of 2-d and 3-d arrays and
gathers/scatters with several index arrays (``A[r, c]``, ``A[0, c]``, ``A[:, c]``, ``T[r, c, :]``):
gradients against central finite differences in float64, primal values against NumPy."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_gaps13_arrays as K
from fdcheck import check

RNG = np.random.default_rng(1313)


def v(*shape):
    return RNG.uniform(0.3, 1.2, shape)


def _marked(fn) -> int:
    lines, start = inspect.getsourcelines(fn.py_func)
    return start + next(k for k, ln in enumerate(lines) if "# <-" in ln)


R = np.array([0, 2, 1, 2, -1])
Cc = np.array([3, 1, 1, 1, -2])


@pytest.mark.parametrize("fn,args,act", [
    (K.kaiser_window, lambda: [v(6), 0.7], ("dup", "active")),
    (K.kaiser_in_loop, lambda: [v(5), 0.7], ("dup", "active")),
    (K.linspace_power_weights, lambda: [v(5)], ("dup",)),
    (K.nonzero_rows_cols_loop, lambda: [v(3, 4)], ("dup",)),
    (K.nonzero_gather, lambda: [v(3, 4), v(3, 4) * (RNG.uniform(size=(3, 4)) > 0.4)], ("dup", "const")),
    (K.nonzero_part, lambda: [v(3, 4)], ("dup",)),
    (K.nonzero_3d, lambda: [v(2, 3, 4)], ("dup",)),
    (K.nonzero_row_gather, lambda: [v(3, 4)], ("dup",)),
    (K.gather_pairs, lambda: [v(3, 4), R, Cc], ("dup", "const", "const")),
    (K.gather_negative, lambda: [v(4, 4), np.array([0, -1, 2, -3]), np.array([-1, 0, 3, 3])],
     ("dup", "const", "const")),
    (K.gather_columns, lambda: [v(3, 5), np.array([4, 0, 4, -2])], ("dup", "const")),
    (K.gather_rows_of_3d, lambda: [v(3, 4, 2), R, Cc], ("dup", "const", "const")),
    (K.scatter_pairs, lambda: [v(3, 4), np.array([0, 2, 1]), np.array([3, 1, -1]), v(3)],
     ("dup", "const", "const", "dup")),
    (K.scatter_add_repeats, lambda: [v(3, 4), R, Cc, v(5)], ("dup", "const", "const", "dup")),
    (K.scatter_columns, lambda: [v(3, 5), np.array([4, 0, 2]), v(3)], ("dup", "const", "dup")),
    (K.gather_sliced, lambda: [v(4, 5), np.array([4, -1, 2])], ("dup", "const")),
    (K.scatter_sliced, lambda: [v(4, 5), np.array([4, 0, 2]), v(3)], ("dup", "const", "dup")),
], ids=lambda f: getattr(f, "__name__", ""))
def test_gradient_matches_finite_differences(fn, args, act):
    check(fn, args(), activity=act)


def test_primal_values_are_numpys():
    A = v(3, 4)
    r, c = np.nonzero(A > 0.6)
    assert K.nonzero_rows_cols_loop(A) == pytest.approx(np.sum(A[r, c] ** 2 * (1.0 + c)), rel=1e-14)
    assert K.gather_pairs(A, R, Cc) == pytest.approx(np.sum(A[R, Cc] ** 2 * np.arange(5)), rel=1e-14)
    w = v(5)
    got, want = A.copy(), A.copy()
    K.scatter_add_repeats(got, R, Cc, w)
    want[R, Cc] += np.sin(w)
    np.testing.assert_array_equal(got, want)
    x = v(6)
    assert K.kaiser_window(x, 0.7) == pytest.approx(0.7 * np.sum(np.kaiser(6, 2.5) * x * x), rel=1e-14)


def test_gradient_values_of_gather_and_repeated_scatter():
    A = v(3, 4)
    g = adtrans.grad(K.gather_pairs)(A, R, Cc)
    want = np.zeros_like(A)
    np.add.at(want, (R, Cc), 2 * A[R, Cc] * np.arange(5))      # repeated (2, 1): both add
    np.testing.assert_allclose(g, want, rtol=1e-14)
    # A[r, c] += sin(w) with (2, 1) at k = 1 and k = 3: only k = 3's value lands
    dA, dw = np.ones_like(A), np.zeros(5)
    adtrans.autodiff(K.scatter_add_repeats, adtrans.Duplicated(A.copy(), dA), adtrans.Const(R),
                     adtrans.Const(Cc), adtrans.Duplicated(v(5), dw))
    assert dw[1] == 0.0 and dw[3] != 0.0


def _active_beta(fn):
    x = v(5)
    return adtrans.autodiff(fn, adtrans.Duplicated(x, np.zeros(5)), adtrans.Active(2.0))


@pytest.mark.parametrize("fn,call,words", [
    (K.kaiser_active_beta, _active_beta, r"np.kaiser.* active argument \(`beta`\)"),
    (K.logspace_weights, lambda fn: adtrans.grad(fn)(v(5)),
     r"np.logspace of scalars, which is not in adtrans' table.*10.0 \*\* np.linspace"),
    (K.gather_apart, lambda fn: adtrans.grad(fn)(v(3, 4, 2), R, Cc),
     r"indexing with an array and other indices `T\[r, :, c\]`.*x\[1:, c\]"),
], ids=lambda f: getattr(f, "__name__", ""))
def test_refusals_name_the_line(fn, call, words):
    with pytest.raises(adtrans.UnsupportedError, match=rf"kernels_gaps13_arrays.py:{_marked(fn)}:\d+: .*{words}"):
        call(fn)


def test_kaiser_with_a_constant_beta_is_a_constant():
    x = v(5)
    np.testing.assert_allclose(adtrans.grad(K.kaiser_active_beta)(x, 2.0), np.kaiser(5, 2.0), rtol=1e-14)


_MOVED = '''import numpy as np
from numba import njit


@njit
def moved(T, r, c):
    return np.sum(T[r, :, c])
'''


def _load(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.moved


def test_a_cached_refusal_names_the_kernels_current_line(tmp_path):
    path = tmp_path / "moving_kernel.py"
    lines = []
    for pad in ("", "\n\n\n"):
        path.write_text(pad + _MOVED)
        with pytest.raises(adtrans.UnsupportedError) as e:
            adtrans.grad(_load(path, "moving_kernel"))(v(3, 4, 2), R, Cc)
        lines.append(int(str(e.value).split("moving_kernel.py:")[1].split(":")[0]))
    assert lines == [7, 10]

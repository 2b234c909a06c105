"""Whole-array NumPy in kernels, second part: run-time shape checks, method forms, sort/argsort and
integer-array indexing, axis= forms (kernels in tests/kernels_arrays.py); gradients against central
finite differences in float64."""
import numpy as np
import pytest

import adtrans
import kernels_arrays as K
import kernels_unsupported as U
from fdcheck import check

RNG = np.random.default_rng(13)


def u(*shape, lo=0.2, hi=1.2):
    return RNG.uniform(lo, hi, shape)


def dup(*arrays):
    return [adtrans.Duplicated(a, np.zeros_like(a)) for a in arrays]


# ------------------------------------------------------------ run-time shape checks
@pytest.mark.parametrize("fn,args", [
    (K.dot_1d, lambda: dup(u(4), u(5))),
    (K.add_rows, lambda: dup(u(3, 4), u(3, 5))),
    (K.store_into, lambda: dup(u(4), u(5))),
    (K.stencil_mismatch, lambda: dup(u(6), u(7)) + [adtrans.Const(2)]),
    (K.matvec, lambda: dup(u(3, 4), u(5))),
    (K.joined, lambda: dup(u(2, 3), u(3, 2))),
    (K.reshaped, lambda: dup(u(6)) + [adtrans.Const(2), adtrans.Const(4)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_mismatched_extents_raise_in_the_primal_and_in_the_gradient(fn, args):
    wrapped = args()
    with pytest.raises(ValueError):             # Numba's own NumPy code
        fn(*[w.value if hasattr(w, "value") else w for w in wrapped])
    with pytest.raises(ValueError, match=r"kernels_arrays\.py:\d+") as info:
        adtrans.autodiff(fn, *wrapped)
    msg = str(info.value)
    assert "broadcast" in msg or "aligned" in msg or "reshape" in msg or "differ" in msg, msg


def test_the_shape_check_names_the_users_line():
    import inspect
    lines, first = inspect.getsourcelines(K.dot_1d.py_func)
    with pytest.raises(ValueError, match=f"operands could not be broadcast together.*kernels_arrays.py:{first + 2}"):
        adtrans.autodiff(K.dot_1d, *dup(u(4), u(5)))
    with pytest.raises(ValueError, match="broadcast"):
        adtrans.grad(K.dot_1d, argnums=(0, 1))(u(4), u(5))


def test_a_unit_axis_known_only_at_run_time_raises_never_a_wrong_gradient():
    a, b = u(3, 4), u(1, 4)
    assert np.isfinite(K.add_rows(a, b))         # NumPy broadcasts the (1, n) argument
    with pytest.raises(ValueError, match="1 by construction"):
        adtrans.autodiff(K.add_rows, *dup(a, b))
    # the unit axis written in the code broadcasts, and its gradient is right
    check(K.add_row_by_construction, [a, b])


@pytest.mark.parametrize("fn,args", [
    (K.dot_1d, lambda: [u(5), u(5)]),
    (K.dot_1d_loop, lambda: [u(5), u(5)]),
    (K.add_rows, lambda: [u(3, 4), u(3, 4)]),
    (K.store_into, lambda: [u(4), u(4)]),
    (K.stencil_mismatch, lambda: [u(7), u(7), 2]),
    (K.matvec, lambda: [u(3, 4), u(4)]),
    (K.reshaped, lambda: [u(8), 2, 4]),
    (K.joined, lambda: [u(2, 3), u(2, 2)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_agreeing_extents_still_differentiate(fn, args):
    check(fn, args())


# --------------------------------------------------------------------- method forms
@pytest.mark.parametrize("fn,args", [
    (K.methods_reduce, lambda: [u(3, 4)]),
    (K.methods_shape, lambda: [u(3, 4), u(4, 3)]),
    (K.methods_rows, lambda: [u(3, 4), u(4, 3)]),
    (K.std_axis_loops, lambda: [u(4, 3)]),
    (K.normalise_in_place, lambda: [u(3, 4), u(5)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_methods_match_finite_differences(fn, args):
    check(fn, args())


def test_std_axis_matches_the_loops_and_the_formula():
    a = u(4, 3)        # the axis= form of std/var recursed forever while lowering
    ga = adtrans.grad(K.std_axis)(a)
    np.testing.assert_allclose(ga, _grad_of_std_axis0(a), rtol=1e-12)
    np.testing.assert_allclose(adtrans.grad(K.std_axis_loops)(a), ga, rtol=1e-12)


def _grad_of_std_axis0(a):
    """d/da sum_j std(a[:, j]) = (a - mean) / (n std), by hand."""
    n = a.shape[0]
    return (a - a.mean(axis=0)) / (n * a.std(axis=0))


# ------------------------------------------------ sort, argsort, integer-array indexing
def perm_free(n):
    """Distinct values (sort has a kink where two values tie)."""
    return RNG.permutation(n) * 0.37 + u(n, lo=0, hi=0.1)


IDX = np.array([3, 0, 2, 3, -1])


@pytest.mark.parametrize("fn,args", [
    (K.sort_weighted, lambda: [perm_free(7), u(7)]),
    (K.sort_loops, lambda: [perm_free(7), u(7)]),
    (K.argsort_gather, lambda: [perm_free(7), u(7)]),
    (K.sort_method, lambda: [perm_free(7), u(7)]),
    (K.sort_time_loop, lambda: [perm_free(6), 3]),
    (K.gather_rows, lambda: [u(5, 3), IDX, u(5, 3)]),
    (K.gather_view, lambda: [u(6), IDX]),
    (K.gather_loops, lambda: [u(6), IDX]),
    (K.gather_whole, lambda: [u(6), IDX]),
    (U.fancy_index, lambda: [u(4), np.array([2, 0])]),     # refused before integer-array indexing
], ids=lambda v: getattr(v, "__name__", ""))
def test_sort_and_gather_match_finite_differences(fn, args):
    check(fn, args())


def test_sort_gradient_is_the_permuted_weight_and_gather_adds_repeats():
    x, w = perm_free(6), u(6)
    np.testing.assert_array_equal(adtrans.grad(K.sort_loops)(x, w)[np.argsort(x)], w)
    x = np.arange(6.0)
    g = adtrans.grad(K.gather_whole)(x, IDX)
    np.testing.assert_allclose(g, [0.0, 0.0, 4.0, 12.0, 0.0, 10.0])   # 2 x_i per use: x_3 twice, x_5 via -1
    np.testing.assert_allclose(adtrans.grad(K.gather_loops)(x, IDX), g)


# -------------------------------------- cumsum/argmax with axis, norms, variable steps
@pytest.mark.parametrize("fn,args", [
    (K.transpose_in_place, lambda: [u(3, 3), u(3, 3)]),    # was a silent wrong gradient (no temporary)
    (K.cumsum_axis, lambda: [u(3, 4), u(3, 4)]),
    (K.cumsum_axis_loops, lambda: [u(3, 4), u(3, 4)]),
    (K.argmax_axis, lambda: [u(3, 4), u(3, 4)]),
    (K.vector_norms, lambda: [u(6, lo=-1, hi=1)]),
    (K.vector_norms_loops, lambda: [u(6, lo=-1, hi=1)]),
    (K.matrix_norms, lambda: [u(3, 4, lo=-1, hi=1)]),
    (K.variable_steps, lambda: [u(7), 2]),
    (K.variable_steps, lambda: [u(7), 3]),
    (K.variable_steps_loops, lambda: [u(7), 2]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_axis_forms_norms_and_steps_match_finite_differences(fn, args):
    check(fn, args())


def _fd(f, args, k, h=1e-6):
    x = args[k]
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = list(args), list(args)
        plus[k], minus[k] = x.copy(), x.copy()
        plus[k][i] += h
        minus[k][i] -= h
        g[i] = (f(*plus) - f(*minus)) / (2 * h)
    return g


def test_norms_numba_cannot_compile_match_the_pure_python_function():
    x, A = u(4), u(3, 4, lo=-1, hi=1)
    gx, gA = adtrans.grad(K.norms_numba_cannot_compile, argnums=(0, 1))(x, A)
    f = K.norms_numba_cannot_compile.py_func
    np.testing.assert_allclose(gx, _fd(f, [x, A], 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gA, _fd(f, [x, A], 1), rtol=1e-6, atol=1e-8)


def test_the_loops_and_the_numpy_forms_agree():
    A, w, x = u(3, 4), u(3, 4), u(6, lo=-1, hi=1)
    np.testing.assert_allclose(adtrans.grad(K.vector_norms)(x), adtrans.grad(K.vector_norms_loops)(x), rtol=1e-12)
    ga = adtrans.grad(K.cumsum_axis_loops)(A, w)
    np.testing.assert_allclose(ga, np.cumsum(w[::-1], axis=0)[::-1], rtol=1e-12)   # d/dA of sum(cumsum(A, 0) * w)
    for k in (2, 3):
        x7 = u(7)              # both kernels write x: each gets its own copy
        np.testing.assert_allclose(adtrans.grad(K.variable_steps)(x7.copy(), k),
                                   adtrans.grad(K.variable_steps_loops)(x7.copy(), k), rtol=1e-12)


def test_a_variable_step_of_the_other_sign_raises():
    with pytest.raises(ValueError, match="must be positive"):
        adtrans.grad(K.variable_steps)(u(7), -2)
    with pytest.raises(ValueError, match="must be positive"):
        adtrans.grad(K.variable_steps)(u(7), 0)


def test_shape_checks_are_hoisted_out_of_time_loops_and_prange_bodies():
    src = adtrans.source(K.prange_rows, ("dup", "dup", "dup"), u(5, 3), u(3), u(5))
    assert "raise ValueError" in src
    assert src.rindex("raise ValueError") < src.index("numba.prange(")    # Numba runs a prange with an exit serially
    with pytest.raises(ValueError, match="broadcast"):
        adtrans.autodiff(K.prange_rows, *dup(u(5, 3), u(4), u(5)))
    src = adtrans.source(K.jacobi_1d, ("dup", "dup", "const"), u(10), u(10), 3)
    assert src.count("raise ValueError") == 1 and src.index("raise ValueError") < src.index("for t in range(")
    with pytest.raises(ValueError, match="broadcast"):
        adtrans.autodiff(K.jacobi_1d, *dup(u(10), u(9)), adtrans.Const(3))
    adtrans.autodiff(K.jacobi_1d, *dup(u(10), u(9)), adtrans.Const(0))   # a loop that does not run checks nothing


def _parallel_warnings(fn, activity, *args):
    """Numba's warnings when the generated adjoint of ``fn`` is compiled afresh with parallel=True
    (no cache, so the warning cannot be skipped by a cache hit)."""
    import warnings
    import numba
    from adtrans.build import compiled
    _, adj = compiled(fn, activity, tuple(numba.typeof(a) for a in args))
    fresh = numba.njit(parallel=True)(adj.py_func)
    flat = []
    for a, t in zip(args, activity):
        flat += [a.copy(), np.zeros_like(a)] if t == "dup" else [a]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh(*flat)
    return [str(w.message) for w in caught if "parallel" in str(w.message)]


@pytest.mark.parametrize("name", ["prange_rows_if", "prange_rows_triangular", "prange_rows_prefix"])
def test_shape_checks_left_in_prange_bodies_keep_the_loop_parallel(name):
    """Checks that cannot move before the loop (under a branch, in a nested loop of varying trip count,
    on a name the body assigns) count mismatches in the loop (a reduction) and raise after it: the
    generated prange has no exit, Numba runs it in parallel, matched shapes give the gradient and a
    mismatch raises the check's ValueError."""
    fn = getattr(K, name)
    c = np.array([0.9, 0.1, 0.7, 0.6, 0.2])
    lens = np.full(5, 3)
    make = {"prange_rows_if": lambda A, x: [A, x, c, np.zeros(5)],
            "prange_rows_triangular": lambda A, x: [A, x, np.zeros(5)],
            "prange_rows_prefix": lambda A, x: [A, x, lens, np.zeros(5)]}[name]
    activity = tuple("const" if a is lens else "dup" for a in make(u(5, 3), u(3)))
    args = make(u(5, 3), u(3))
    src = adtrans.source(fn, activity, *args)
    lines = src.splitlines()
    head = next(k for k, ln in enumerate(lines) if "numba.prange(" in ln)
    indent = len(lines[head]) - len(lines[head].lstrip())
    body = []
    for ln in lines[head + 1:]:
        if ln.strip() and len(ln) - len(ln.lstrip()) <= indent:
            break
        body.append(ln)
    body = "\n".join(body)
    assert "raise" not in body and "mismatch += 1" in body, src
    assert "raise ValueError" in src[src.index(body) + len(body):]
    assert _parallel_warnings(fn, activity, *args) == []
    check(fn, args, activity=activity)
    with pytest.raises(ValueError, match="broadcast"):
        adtrans.autodiff(fn, *[adtrans.Const(a) if t == "const" else adtrans.Duplicated(a, np.zeros_like(a))
                               for a, t in zip(make(u(5, 3), u(2)), activity)])


def test_slice_bounds_negative_at_run_time():
    x = np.linspace(0.1, 1.0, 7) ** 2
    for k in (1, 3):
        check(K.lagged_products, [x, k])


def test_eye_is_numpys_not_an_inlined_helper():
    x = np.linspace(0.2, 0.9, 4)
    np.testing.assert_allclose(adtrans.grad(K.identity_weighted)(x), 2 * x, rtol=1e-14)


def test_unit_axis_of_a_named_result_broadcasts():
    X = np.random.default_rng(5).standard_normal((3, 5))
    check(K.layer_norm_loss, [X, np.linspace(0.5, 1.5, 5)])

"""Structured (record) array arguments: fields read through views, rows, record locals and
attributes; gradients of the float fields of a Duplicated structured array and of plain
arrays against central finite differences in float64; refusals at the user's line."""
import numpy as np
import pytest

import adtrans
import kernels_records as R

RNG = np.random.default_rng(5)


def params(n):
    p = np.zeros(n, dtype=R.SPRING)
    p["k"] = RNG.uniform(0.5, 2.0, n)
    p["x0"] = RNG.uniform(-0.5, 0.5, n)
    p["n"] = RNG.integers(1, 4, n)
    return p


def fd_record(fn, x, p, field, i, h=1e-6, extra=()):
    pp, pm = p.copy(), p.copy()
    pp[field][i] += h
    pm[field][i] -= h
    return (fn(x.copy(), pp, *extra) - fn(x.copy(), pm, *extra)) / (2 * h)


def fd_x(fn, x, p, i, h=1e-6, extra=()):
    xp, xm = x.copy(), x.copy()
    xp[i] += h
    xm[i] -= h
    return (fn(xp, p.copy(), *extra) - fn(xm, p.copy(), *extra)) / (2 * h)


@pytest.mark.parametrize("fn", [R.springs_record_local, R.springs_attributes, R.springs_field_views,
                                R.write_field], ids=lambda f: f.__name__)
def test_record_kernel_matches_finite_differences(fn):
    x, p = RNG.uniform(-1, 1, 5), params(5)
    dx, dp = np.zeros_like(x), np.zeros_like(p)
    adtrans.autodiff(fn, adtrans.Duplicated(x.copy(), dx), adtrans.Duplicated(p.copy(), dp))
    for i in range(5):
        assert dx[i] == pytest.approx(fd_x(fn, x, p, i), rel=1e-6, abs=1e-8)
        for f in ("k", "x0"):
            assert dp[f][i] == pytest.approx(fd_record(fn, x, p, f, i), rel=1e-6, abs=1e-8)
    assert np.all(dp["n"] == 0)            # integer fields have no adjoint


def test_grad_with_a_constant_structured_array_and_a_default():
    x, p = RNG.uniform(-1, 1, 4), params(4)
    before = p.copy()
    g = adtrans.grad(R.springs_field_views)(x, p)
    np.testing.assert_allclose(g, [fd_x(R.springs_field_views, x, p, i) for i in range(4)], rtol=1e-6)
    g2 = adtrans.grad(R.springs_record_local, argnums=(0, 1))(x, p)
    assert g2[1].dtype == R.SPRING
    assert g2[1]["k"][2] == pytest.approx(fd_record(R.springs_record_local, x, p, "k", 2), rel=1e-6)
    assert np.array_equal(p, before)       # the caller's structured array is untouched


def test_prange_kernel_with_a_structured_array():
    x, p, w = RNG.uniform(-1, 1, 6), params(6), RNG.standard_normal(6)
    dx, dp, dout = np.zeros(6), np.zeros_like(p), w.copy()
    adtrans.autodiff(R.decay_prange, adtrans.Duplicated(x.copy(), dx), adtrans.Duplicated(p.copy(), dp),
                     adtrans.Duplicated(np.zeros(6), dout))

    def J(x, p):
        out = np.zeros(6)
        R.decay_prange(x, p, out)
        return float(w @ out)
    for i in range(6):
        assert dx[i] == pytest.approx(fd_x(J, x, p, i), rel=1e-6, abs=1e-9)
        assert dp["x0"][i] == pytest.approx(fd_record(J, x, p, "x0", i), rel=1e-6, abs=1e-9)
    src = adtrans.source(R.decay_prange, ("dup", "dup", "dup"), x, p, np.zeros(6))
    assert "prange" in src and "params['k']" in src


def test_entry_function_passes_field_views():
    x, p = RNG.uniform(-1, 1, 3), params(3)
    src = adtrans.source(R.springs_record_local, ("dup", "const"), x, p)
    assert "def springs_record_local_adjoint(x, d_x, params, seed):" in src
    assert "springs_record_local_adjoint_fields(x, d_x, params['k'], params['x0'], params['n'], seed)" in src
    assert src == adtrans.source(R.springs_record_local, ("dup", "const"), x, p)


@pytest.mark.parametrize("fn,marker,what", [
    (R.iterate_records, "# <- iterating", "iterating over the structured array params"),
    (R.record_to_helper, "# <- a record passed", "record"),
    (R.store_through_record, "# <- a store through", "storing into the record p"),
    (R.record_local_of_written, "# <- a record of an array", "the record p of params, which the kernel"),
], ids=lambda v: getattr(v, "__name__", ""))
def test_refusals_name_the_line(fn, marker, what):
    lines = open(R.__file__).read().splitlines()
    line = next(k for k, t in enumerate(lines, 1) if marker in t)
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.grad(fn)(RNG.uniform(-1, 1, 3), params(3))
    msg = str(info.value)
    assert f"kernels_records.py:{line}:" in msg and what in msg, msg


def test_second_order_is_refused_with_the_kernel_line():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.hvp(R.springs_field_views)(np.ones(3), params(3), 1.0, np.ones(3))
    line = R.springs_field_views.py_func.__code__.co_firstlineno
    assert "structured-array" in str(info.value) and f"kernels_records.py:{line + 1}:" in str(info.value)


@pytest.mark.parametrize("fn", [R.driver_fields, R.driver_rows], ids=lambda f: f.__name__)
def test_driver_with_a_structured_array(fn):
    x, p = RNG.uniform(-1, 1, 4), params(4)
    gx, gp = adtrans.grad(fn, argnums=(0, 1))(x, p)
    for i in range(4):
        assert gx[i] == pytest.approx(fd_x(fn, x, p, i), rel=1e-6, abs=1e-8)
        for f in ("k", "x0"):
            assert gp[f][i] == pytest.approx(fd_record(fn, x, p, f, i), rel=1e-6, abs=1e-8)


def test_cuda_kernel_with_a_structured_array_is_refused():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(R.cuda_record, ("dup", "const", "dup"), np.ones(3), params(3), np.zeros(3))
    assert "structured array params" in str(info.value) and "kernels_records.py:" in str(info.value)

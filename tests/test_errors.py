"""Unsupported constructs raise UnsupportedError naming file:line; nothing is silently wrong."""
import inspect

import numpy as np
import pytest

import adtrans
import kernels_unsupported as U


def marked_line(fn):
    lines, first = inspect.getsourcelines(getattr(fn, "py_func", fn))
    for k, line in enumerate(lines):
        if "# <-" in line:
            return first + k
    raise AssertionError("no marked line")


@pytest.mark.parametrize("fn,args,activity,construct", [
    (U.try_kernel, [np.ones(3)], ("dup",), "try"),
    # slices and row views are differentiated now (tests/test_arrays.py checks U.slicing and
    # U.row_view against finite differences); what stays refused:
    (U.view_rebound, [np.ones((3, 2)), 0.5], ("dup", "active"), "rebound to a view"),
    (U.recursive, [np.ones(3), 2], ("dup", "const"), "recursive"),
    # np.linalg.det in a loop is differentiated now (tests/test_lapack_loops.py checks U.calls_det_in_loop)
    (U.writes_const, [np.ones(3), np.ones(3)], ("dup", "const"), "Const"),
    (U.list_kernel, [np.ones(3)], ("dup",), "list"),
    # boolean masks and integer-array scatter writes are differentiated now (tests/test_masks.py
    # checks U.mask_index and U.scatter_write against finite differences, and refuses 2-d masks)
    (U.sort_2d, [np.ones((2, 3))], ("dup",), "2-d array"),
    (U.shapes_never_agree, [np.ones(3)], ("dup",), "never agree"),
    (U.spectral_norm, [np.eye(3)], ("dup",), "ord 'nuc'"),
    # random draws are differentiated now (tests/test_random_kernels.py); a draw in a while loop stays refused
    (U.monte_carlo, [np.ones(1), 1.0, 10], ("dup", "const", "const"), "random draw"),
    (U.calls_stencil, [np.ones(6)], ("dup",), "numba.stencil"),
])
def test_unsupported_names_file_and_line(fn, args, activity, construct):
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(fn, activity, *args)
    err = info.value
    assert err.filename.endswith("kernels_unsupported.py")
    assert err.lineno == marked_line(fn), str(err)
    assert construct in str(err)
    assert err.hint


def test_closure_over_mutable_state_is_refused():
    with pytest.raises(adtrans.UnsupportedError, match="closure"):
        adtrans.source(U.closure, ("dup",), np.ones(2))


def test_generator_is_refused():
    with pytest.raises(adtrans.UnsupportedError) as info:
        adtrans.source(U.gen_kernel, ("dup",), np.ones(2))
    assert info.value.lineno == marked_line(U.gen_kernel)


def test_bad_activity():
    with pytest.raises(adtrans.ActivityError):
        adtrans.source(U.slicing, ("active",), np.ones(3))
    with pytest.raises(adtrans.ActivityError):
        adtrans.source(U.slicing, ("dup", "const"), np.ones(3))


def test_duplicated_shape_mismatch():
    with pytest.raises(adtrans.ActivityError):
        adtrans.Duplicated(np.ones(3), np.ones(4))


def test_typing_failure_names_the_users_line_not_numba():
    with pytest.raises(adtrans.ADError) as info:
        adtrans.grad(U.untypable)(np.ones(3), np.ones(2))
    err = info.value
    assert err.lineno == marked_line(U.untypable), str(err)
    assert "untypable" in str(err) and "kernels_unsupported.py" in str(err)
    assert "Traceback" not in str(err) and err.__cause__ is None


def test_failure_in_generated_code_is_located_at_the_users_line():
    """A Numba error inside the generated adjoint becomes a GeneratedCodeError at the user's line
    the failing generated statement comes from (simulated: Numba's message format, real map)."""
    from numba.core.errors import TypingError as NumbaTypingError

    from adtrans.adjoint import located_error
    from adtrans.arguments import primal_of
    from adtrans.build import compiled
    from adtrans.targets.cpu import CPU
    import kernels_forms as F
    x = np.linspace(0.5, 1.0, 4)
    gen, fn = compiled(F.zip_dot, ("dup", "dup"), adtrans.arguments.typeof_args([x, x]), CPU)
    lines, first = inspect.getsourcelines(fn.py_func)
    k = next(i for i, ln in enumerate(lines) if "d_b" in ln and "=" in ln)   # adjoint of `s += a * b`
    msg = f'Failed in nopython mode\n\nFile "/tmp/adtrans_gen_0123.py", line {first + k}:\n'
    err = located_error(primal_of(F.zip_dot), gen, fn, NumbaTypingError(msg))
    src_lines, src_first = inspect.getsourcelines(F.zip_dot.py_func)
    expect = src_first + next(i for i, ln in enumerate(src_lines) if "s += a * b" in ln)
    assert isinstance(err, adtrans.ADError)
    assert (err.filename.endswith("kernels_forms.py"), err.lineno) == (True, expect), str(err)
    assert "zip_dot" in str(err)


def test_failure_inside_the_transformation_names_the_kernel(monkeypatch):
    """An exception from adtrans' own transformation (a bug) reaches the user as a
    GeneratedCodeError naming the kernel's file and def line, the original chained."""
    import adtrans.build as B
    import kernels_forms as F

    def broken(*args, **kw):
        raise SyntaxError("invalid decimal literal")
    monkeypatch.setattr(B, "generate", broken)
    monkeypatch.setattr(B.gencache, "load", lambda key: None)
    x = np.linspace(0.5, 1.0, 4)
    with pytest.raises(adtrans.GeneratedCodeError) as info:
        B.generated(adtrans.arguments.primal_of(F.zip_dot), ("dup", "dup"),
                    adtrans.arguments.typeof_args([x, x]))
    _, first = inspect.getsourcelines(F.zip_dot.py_func)
    assert f"kernels_forms.py:{first + 1}:" in str(info.value) or f"kernels_forms.py:{first}:" in str(info.value)
    assert "zip_dot" in str(info.value) and "SyntaxError: invalid decimal literal" in str(info.value)
    assert isinstance(info.value.__cause__, SyntaxError)

"""`make bench`: primal time, gradient time and their ratio (medians over repeats), one run.

Prints one table; prange kernels are measured with 1 and 2 threads.  The
miniBUDE row uses the bm1 deck when present; the LULESH rows time one
LagrangeLeapFrog step at -s 30 and its adjoint with the whole Domain duplicated.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# BLAS on one thread (set before NumPy loads it): the @njit kernels run on one thread unless they
# use prange, so primal and gradient are compared on the same footing; on a shared 2-core machine
# a multithreaded BLAS also makes the primal rows noisy.  Override by setting it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import adtrans  # noqa: E402
import gradbench as GB  # noqa: E402
import array_kernels as AK  # noqa: E402
import kernels as K  # noqa: E402
import linalg_kernels as LA  # noqa: E402
import list_kernels as LK  # noqa: E402


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def case(name, primal, gradient, threads=None, repeats=7, note=""):
    if threads:
        numba.set_num_threads(threads)
    primal()
    gradient()          # compile both first
    # interleaved (primal, gradient, primal, ...): on a shared machine the load changes within a
    # row, and timing all primal runs before all gradient runs puts that change into the ratio
    tp, tg = [], []
    for _ in range(repeats):
        tp.append(median_time(primal, 1))
        tg.append(median_time(gradient, 1))
    tp, tg = statistics.median(tp), statistics.median(tg)
    return (name, threads or 1, tp, tg, tg / tp, note)


def gradbench_rows(repeats, quick):
    """The six GradBench kernels (bench/gradbench.py) at the sizes of issue 14 (``quick``:
    smaller).  Gradients: lse, llsq, gmm, kmeans of the returned float; ode of yf[n - 1]
    w.r.t. x; ba of sum(reproj_err) + sum(w_err) w.r.t. cams, X, w (one vector-Jacobian
    product, not GradBench's full sparse Jacobian)."""
    rng = np.random.default_rng(0)
    out = []
    q = 10 if quick else 1

    def row(name, fn, act, args, seeds, note):
        adj = adtrans.adjoint(fn, act)
        shadows = [np.zeros_like(a) if k == "dup" else None for a, k in zip(args, act)]
        flat = []
        for a, k, sh in zip(args, act, shadows):
            flat.append(a)
            if k == "dup":
                flat.append(sh)

        def gradient():
            for a, k, sh in zip(args, act, shadows):
                if k == "dup":
                    sh[...] = seeds.get(id(a), 0.0)
            adj(*flat, 1.0)
        out.append(case(name, lambda: fn(*args), gradient, repeats=repeats, note=note))

    n = 1_280_000 // q
    x, = GB.lse_input(n, rng)
    row(f"gradbench lse n={n}", GB.lse, ("dup",), (x,), {}, "Enzyme 2.2x, target 2x")
    x, nl = GB.llsq_input(16392 // q, 128, rng)
    row(f"gradbench llsq n={nl} m=128", GB.llsq, ("dup", "const"), (x, nl), {}, "Enzyme 1.4x, target 2x")
    x, s, yf = GB.ode_input(100_000 // q, 100, rng)
    last = np.zeros_like(yf)
    last[-1] = 1.0
    adj_ode = adtrans.adjoint(GB.ode, ("dup", "const", "dup"))
    dx, dyf = np.zeros_like(x), np.zeros_like(yf)

    def ode_grad():
        dx[:] = 0.0
        dyf[:] = last
        adj_ode(x, dx, s, yf, dyf)
    out.append(case(f"gradbench ode n={x.shape[0]} s={s}", lambda: GB.ode(x, s, yf), ode_grad, repeats=repeats,
                    note="d yf[n-1] / d x; Enzyme 2.0x"))
    d, k, ng = (64, 100, 20) if not quick else (16, 10, 20)
    args = GB.gmm_input(d, k, ng, rng)
    row(f"gradbench gmm d={d} k={k} n={ng}", GB.gmm, ("dup",) * 4 + ("const",) * 3, args, {},
        "Enzyme 9.1x (issue size n=1000)")
    args = GB.ba_input(356, 226_730 // q, 1_255_268 // q, rng)
    seeds = {id(args[5]): 1.0, id(args[6]): 1.0}
    row(f"gradbench ba p={args[3].shape[0]}", GB.ba, ("dup", "dup", "dup", "const", "const", "dup", "dup"), args,
        seeds, "one VJP (seed ones); Enzyme 9.7x for the Jacobian")
    pts, cen = GB.kmeans_input(10_000 // q, 100, 8, rng)
    row(f"gradbench kmeans n={pts.shape[0]} k=100 d=8", GB.kmeans, ("const", "dup"), (pts, cen), {},
        "gradient of the cost only")
    # GradBench's kmeans eval: the Newton direction needs the gradient and the Hessian diagonal; the
    # Hessian w.r.t. the centroids is diagonal, so one Hessian-vector product (seed: ones) gives it,
    # and the same forward-over-reverse run gives the gradient
    newton = adtrans.hessian_diag(GB.kmeans, 1, colors=np.zeros(cen.shape, int), with_grad=True)
    out.append(case(f"gradbench kmeans Newton step n={pts.shape[0]} k=100 d=8", lambda: GB.kmeans(pts, cen),
                    lambda: newton(pts, cen), repeats=repeats,
                    note="gradient + Hessian diagonal (forward over reverse); Enzyme 2.3x"))
    return out


def rows(repeats, quick, only=None):
    rng = np.random.default_rng(0)
    out = []
    if only == "gradbench":
        return gradbench_rows(repeats, quick)
    if only == "lists":
        return list_rows(repeats, quick)
    if only == "arrays":
        return array_rows(repeats, quick)
    if only == "heat":
        return [heat_row(rng, repeats, quick)]
    if only == "linalg":
        return linalg_rows(repeats, quick)
    if only == "lulesh":
        return lulesh_rows(repeats, quick)
    out.extend(gradbench_rows(repeats, quick))
    out.append(heat_row(rng, repeats, quick))
    m = 1500 if not quick else 400
    x = rng.uniform(0, 10, (m, 3))
    out.append(case(f"pair potential n={m} (triangular)", lambda: K.pair_potential(x, m),
                    lambda: adtrans.grad(K.pair_potential)(x, m), repeats=repeats, note="recomputed outer, fused inner"))
    xs = rng.uniform(-1, 1, 200_000)
    out.append(case("scalar recurrence n=200k", lambda: K.recurrence(xs, 0.9),
                    lambda: adtrans.grad(K.recurrence)(xs, 0.9), repeats=repeats, note="carried scalar: one value saved per step, the rest recomputed"))
    N = 2_000_000 if not quick else 200_000
    xg = rng.uniform(-1, 1, 50_000)
    idx = rng.integers(0, 50_000, N)
    w = rng.uniform(0, 1, N)
    adj = adtrans.adjoint(K.gather_energy, ("dup", "const", "dup"))
    for th in (1, 2):
        out.append(case(f"prange gather N={N}", lambda: K.gather_energy(xg, idx, w),
                        lambda: adj(xg, np.zeros_like(xg), idx, w, np.zeros_like(w), 1.0), threads=th,
                        repeats=repeats, note="thread 0 adds into d_x, other threads into private copies"))
    a = rng.uniform(-1, 1, (4000 if not quick else 800, 2))
    b = rng.uniform(-1, 1, (500, 2))
    o = np.zeros(a.shape[0])
    adj2 = adtrans.adjoint(K.pairwise_prange, ("dup", "dup", "dup"))
    for th in (1, 2):
        out.append(case(f"prange pairwise {a.shape[0]}x{b.shape[0]}", lambda: K.pairwise_prange(a, b, o),
                        lambda: adj2(a, np.zeros_like(a), b, np.zeros_like(b), o, np.ones_like(o)), threads=th,
                        repeats=repeats, note="fused; per-thread buffers for d_b"))
    out.extend(array_rows(repeats, quick))
    out.extend(list_rows(repeats, quick))
    out.extend(linalg_rows(repeats, quick))
    out.extend(minibude_rows(repeats, quick))
    out.extend(lulesh_rows(repeats, quick))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return out


def heat_row(rng, repeats, quick):
    """The heat equation time loop (bench/kernels.py): u updated in place each step."""
    n, steps = (2000, 200) if not quick else (500, 50)
    u0 = rng.uniform(0, 1, n)
    return case(f"heat time loop n={n} steps={steps}", lambda: K.heat_time_loop(u0.copy(), 0.2, steps),
                lambda: adtrans.grad(K.heat_time_loop)(u0.copy(), 0.2, steps), repeats=repeats,
                note="taped time loop, recomputed inner loops")


def linalg_rows(repeats, quick):
    """A Gaussian-process negative log-likelihood (bench/linalg_kernels.py) with np.linalg kept as
    LAPACK calls in the adjoint (rules/derivatives.py LAPACK): gradient w.r.t. the inputs X and
    the three hyperparameters."""
    rng = np.random.default_rng(2)
    n = 200 if not quick else 60
    X, y = rng.standard_normal((n, 3)), rng.standard_normal(n)
    out = []
    for fn, note in ((LA.gp_nll_cholesky, "cholesky + substitution loops"),
                     (LA.gp_nll_solve, "solve + slogdet, whole-array")):
        g = adtrans.grad(fn, argnums=(0, 2, 3, 4))
        out.append(case(f"GP NLL n={n} ({fn.__name__[7:]})", lambda fn=fn: fn(X, y, 0.9, 1.3, 0.1),
                        lambda g=g: g(X, y, 0.9, 1.3, 0.1), repeats=repeats, note=note))
    return out


def array_rows(repeats, quick):
    """Whole-array NumPy kernels (bench/array_kernels.py): lowered to loops by adtrans, matrix products
    kept as BLAS (bench/blas_rows.py times the gemm and 2mm rows alone)."""
    rng = np.random.default_rng(1)
    out = []
    n, steps = (2000, 200) if not quick else (500, 50)
    u0 = rng.uniform(0, 1, n)
    out.append(case(f"slice stencil time loop n={n} steps={steps}", lambda: AK.heat_slices(u0.copy(), 0.2, steps),
                    lambda: adtrans.grad(AK.heat_slices)(u0.copy(), 0.2, steps), repeats=repeats,
                    note="u[1:-1] = un[1:-1] + c * (un[2:] - ...)"))
    m = 1000 if not quick else 300
    x, y, z, mass = (rng.uniform(0, 1, m) for _ in range(4))
    out.append(case(f"broadcasting N-body n={m}", lambda: AK.nbody_broadcast(x, y, z, mass, 0.1),
                    lambda: adtrans.grad(AK.nbody_broadcast, argnums=(0, 1, 2))(x, y, z, mass, 0.1),
                    repeats=repeats, note="x[:, None] - x[None, :]; temporaries at their uses: one fused loop nest"))
    k = 200 if not quick else 80
    A, B, C, D = (rng.uniform(-1, 1, (k, k)) for _ in range(4))
    out.append(case(f"gemm @ {k}x{k}", lambda: AK.gemm_at(A, B, C),
                    lambda: adtrans.grad(AK.gemm_at, argnums=(0, 1))(A, B, C), repeats=repeats,
                    note="primal and adjoint: BLAS (rules/linalg.py)"))
    out.append(case(f"2mm @ {k}x{k}", lambda: AK.two_mm_at(A, B, C, D),
                    lambda: adtrans.grad(AK.two_mm_at, argnums=(0, 1, 2))(A, B, C, D), repeats=repeats,
                    note="primal and adjoint: BLAS (rules/linalg.py)"))
    N = 1_000_000 if not quick else 100_000
    xs = rng.uniform(-3, 3, N)
    out.append(case(f"log-sum-exp n={N}", lambda: AK.logsumexp(xs), lambda: adtrans.grad(AK.logsumexp)(xs),
                    repeats=repeats, note="max, exp, sum"))
    return out


def list_rows(repeats, quick):
    """Kernels accumulating into Python lists (bench/list_kernels.py): the primal grows Numba's
    list, the adjoint fills a preallocated array with a counter."""
    rng = np.random.default_rng(2)
    N = 1_000_000 if not quick else 100_000
    x, w = rng.uniform(-1, 1, N), rng.uniform(0, 1, N)
    return [case(f"list append under if n={N}", lambda: LK.filtered_append(x, w),
                 lambda: adtrans.grad(LK.filtered_append, argnums=(0, 1))(x, w), repeats=repeats,
                 note="counter carried (one int saved per step)"),
            case(f"list comprehension + sum n={N}", lambda: LK.comprehension_sum(x),
                 lambda: adtrans.grad(LK.comprehension_sum)(x), repeats=repeats, note="np.array(list) copies")]


def minibude_rows(repeats, quick):
    try:
        from examples.minibude.deck import open_deck
        from examples.minibude.kernel import fasten_main_blocked as fasten_main
    except ImportError as exc:
        return [(f"miniBUDE (unavailable: {exc})", 0, float("nan"), float("nan"), float("nan"), "")]
    d = open_deck(None, nposes=4096 if quick else None)
    energies = np.zeros(d.poses.shape[1], d.poses.dtype)
    consts = (d.protein_type, d.ligand_xyz, d.ligand_type, d.ff_hbtype, d.ff_radius, d.ff_hphb, d.ff_elsc)
    adj = adtrans.adjoint(fasten_main, ("dup",) + ("const",) * 7 + ("dup", "dup"))

    def primal():
        fasten_main(d.protein_xyz, *consts, d.poses, energies)

    def gradient():
        adj(d.protein_xyz, np.zeros_like(d.protein_xyz), *consts, d.poses, np.zeros_like(d.poses),
            energies, np.ones_like(energies))
    out = []
    for th in (1, 2):
        out.append(case(f"miniBUDE {d.name} {d.poses.shape[1]} poses", primal, gradient, threads=th,
                        repeats=max(3, repeats // 2), note="blocked kernel (64 poses per prange iteration), fused; per-thread d protein and d poses"))
    return out


def lulesh_rows(repeats, quick):
    """One LagrangeLeapFrog step at -s 30 (a state after 5 cycles) and its adjoint with the
    whole Domain Duplicated (examples/lulesh/grad.py, the SC'22 setup).  The arguments are
    copied before each call, outside the timed region."""
    from examples.lulesh import grad as G
    from examples.lulesh.domain import Domain
    from examples.lulesh.lulesh import lagrange_leapfrog_arrays, run_cycles, step_arguments, time_increment
    size = 10 if quick else 30
    d = Domain(size)
    run_cycles(d, 5)
    time_increment(d)
    args = step_arguments(d)

    def timed(fn):
        def run():
            a = G.copy_arguments(args)
            seeds = [np.ones_like(x) for x in a[:G.STEP_N_FLOAT_ARRAYS]]
            t = time.perf_counter()
            fn(a, seeds)
            return time.perf_counter() - t
        return run

    primal = timed(lambda a, seeds: lagrange_leapfrog_arrays(*a))
    gradient = timed(G.step_adjoint)
    out = []
    for th in (1, 2):
        numba.set_num_threads(th)
        primal()
        gradient()
        tp = statistics.median(primal() for _ in range(repeats))
        tg = statistics.median(gradient() for _ in range(repeats))
        out.append((f"LULESH one step -s {size}", th, tp, tg, tg / tp,
                    "driver adjoint of ~25 kernels, whole Domain duplicated (Enzyme here: 4.3x serial)"))
        out.append(trajectory_row(size, th, max(3, repeats // 2), tg))
    return out


def trajectory_row(size, threads, repeats, one_step, cycles=10):
    """d e[0] / d(state) after ``cycles`` LULESH cycles from a state after 5 (store-all tape;
    :func:`examples.lulesh.grad.origin_energy_gradient`): primal and gradient per cycle, and the
    gradient per cycle against the one-step gradient ``one_step`` (issue 14: within 1.5x).  The
    trajectory includes TimeIncrement and dt's own adjoint each cycle; the one step does not."""
    from examples.lulesh import grad as G
    from examples.lulesh.domain import Domain
    from examples.lulesh.lulesh import run_cycles
    d = Domain(size)
    run_cycles(d, 5)

    def gradient():
        r = G.origin_energy_gradient(d, d.cycle + cycles)
        assert r.cycles == cycles, r.cycles
        return r.seconds / cycles

    def primal():
        t = time.perf_counter()
        G.origin_energy(d, d.cycle + cycles)
        return (time.perf_counter() - t) / cycles

    primal(), gradient()
    tp = statistics.median(primal() for _ in range(repeats))
    tg = statistics.median(gradient() for _ in range(repeats))
    return (f"LULESH {cycles}-cycle trajectory, per cycle -s {size}", threads, tp, tg, tg / tp,
            f"store-all tape; gradient per cycle {tg / one_step:.2f}x the one-step gradient")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="smaller sizes (for a smoke run)")
    ap.add_argument("--only", choices=["gradbench", "lists", "arrays", "heat", "linalg", "lulesh"],
                    help="only these rows (arrays: the whole-array NumPy rows, N-body, gemm, 2mm among them; "
                         "linalg: the GP likelihood with np.linalg)")
    args = ap.parse_args(argv)
    print(f"adtrans {adtrans.__version__}, numba {numba.__version__}, {os.cpu_count()} cores, "
          f"threading layer default, medians of {args.repeats}")
    table = rows(args.repeats, args.quick, args.only)
    w = max(len(r[0]) for r in table)
    print(f"{'kernel':<{w}}  threads  primal [ms]  gradient [ms]  ratio  strategy")
    for name, th, tp, tg, ratio, note in table:
        print(f"{name:<{w}}  {th:>7}  {tp * 1e3:>11.2f}  {tg * 1e3:>13.2f}  {ratio:>5.2f}  {note}")


if __name__ == "__main__":
    main()

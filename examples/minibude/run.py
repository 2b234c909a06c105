"""miniBUDE docking energies and their adtrans gradients.

    python examples/minibude/run.py [--deck DIR] [--poses N] [--wrt protein|poses|both]
                                    [--check] [--bench] [--json] [--plot FILE.png]
                                    [--threads N] [--kernel blocked|scalar]

Computes the energies of all poses (BUDE energy units) with the Numba kernel,
validates them against ``ref_energies.out`` when the deck has it, and computes
the gradient of the total energy with adtrans (with respect to the protein
coordinates, the pose parameters, or both).

``--check`` adds a finite-difference check of the gradient: the kernel is run
in float64 on the first ``--fd-poses`` poses (default 256) and 24 sampled
entries are differenced.  ``--bench`` times ``--repeats`` rounds (default 5) of
the primal and the gradient, interleaved (primal, gradient, primal, ...: on a
shared machine the load changes within a run, and timing all primal runs
before all gradient runs would put that change into the ratio), and prints the
medians and their ratio.
Without ``--bench`` one timed run of each follows a warm-up (compilation)
on a few poses.  ``--json`` prints one JSON object on stdout and nothing else.

Deck resolution: ``--deck``, else ``$MINIBUDE_DECK``, else
``../shared/data/minibude/bm1`` next to the repository, else a small synthetic
deck (``--deck synthetic`` forces it).

Exit status: 1 when the energy validation or the gradient check fails, else 0
(also when no gradient could be computed; the output says why).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from examples.minibude import grad as G  # noqa: E402
from examples.minibude.deck import open_deck  # noqa: E402
from examples.minibude.kernel import DIFF_TOLERANCE, KERNELS, PPWI, validate_energies  # noqa: E402

#: Pass bound of the finite-difference check (relative, float64).
FD_TOLERANCE = 1e-4


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="miniBUDE energies (Numba) and their gradients (adtrans)",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--deck", help="deck directory, or 'synthetic' (default: $MINIBUDE_DECK, "
                                   "then ../shared/data/minibude/bm1, then synthetic)")
    ap.add_argument("--poses", type=int, default=None, help="use the first N poses (default: all)")
    ap.add_argument("--wrt", choices=G.WRT, default="protein", help="gradient with respect to")
    ap.add_argument("--check", action="store_true",
                    help="validate energies and check the gradient by finite differences")
    ap.add_argument("--fd-poses", type=int, default=256,
                    help="poses used by the finite-difference check")
    ap.add_argument("--bench", action="store_true", help="time --repeats runs of primal and gradient")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs with --bench")
    ap.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    ap.add_argument("--plot", metavar="FILE.png", help="plot the per-atom gradient magnitude")
    ap.add_argument("--threads", type=int, default=None, help="Numba threads (default: all cores)")
    ap.add_argument("--kernel", choices=sorted(KERNELS), default="blocked", help="primal kernel variant")
    ap.add_argument("--grad-kernel", choices=["auto"] + sorted(KERNELS), default="auto",
                    help="kernel variant to differentiate; auto: --kernel, falling back to "
                         "'scalar' when adtrans cannot differentiate it")
    ap.add_argument("--seed", type=int, default=0, help="seed of the FD sample and of a synthetic deck")
    ap.add_argument("--adjoint-module", metavar="MODULE",
                    help="use build-time adjoints from this module (written by `adtrans gen`, e.g. "
                         "examples.minibude.kernel_adjoint) for the timed gradient")
    args = ap.parse_args(argv)
    if args.poses is not None and args.poses < 1:
        ap.error("--poses must be >= 1")
    if args.repeats < 1:
        ap.error("--repeats must be >= 1")
    return args


class Progress:
    """tqdm on stderr, or nothing (``--json``, or tqdm not installed)."""

    def __init__(self, enabled: bool):
        self.tqdm = None
        if enabled:
            try:
                from tqdm import tqdm
                self.tqdm = tqdm
            except ImportError:
                pass

    def __call__(self, iterable, desc: str):
        if self.tqdm is None:
            return iterable
        return self.tqdm(iterable, desc=desc, file=sys.stderr, leave=False)


def timed(fn, repeats: int, progress: Progress, desc: str):
    """Run ``fn`` ``repeats`` times; returns (list of seconds, last result)."""
    times, out = [], None
    for _ in (progress(range(repeats), desc) if repeats > 1 else range(repeats)):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return times, out


def interleaved(fa, fb, repeats: int, progress: Progress, desc: str):
    """Run ``fa`` then ``fb``, ``repeats`` rounds; returns (seconds of fa, seconds of fb, last fb result)."""
    ta, tb, out = [], [], None
    for _ in (progress(range(repeats), desc) if repeats > 1 else range(repeats)):
        t0 = time.perf_counter()
        fa()
        ta.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        out = fb()
        tb.append(time.perf_counter() - t0)
    return ta, tb, out


def run_primal(deck, variant):
    e = np.zeros(deck.nposes, dtype=deck.dtype)
    KERNELS[variant](*deck.kernel_args(), e)
    return e


def choose_gradient(deck, args, info):
    """Compile (on a few poses) the gradient of the requested variant, or of the fallback.

    Returns the variant name, or None when adtrans cannot provide a gradient
    (``info['grad_error']`` says why).
    """
    wanted = args.kernel if args.grad_kernel == "auto" else args.grad_kernel
    candidates = [wanted]
    if args.grad_kernel == "auto" and wanted != "scalar":
        candidates.append("scalar")
    small = deck.subset(min(deck.nposes, 2 * PPWI + 3))  # includes a partial block
    notes = []
    for variant in candidates:
        try:
            G.gradient(small, args.wrt, variant)
            if notes:
                info["grad_note"] = "; ".join(notes) + f"; using the {variant} kernel"
            return variant
        except G.GradientUnavailable as exc:
            notes.append(str(exc))
            if exc.kind == "missing":
                break
    info["grad_error"] = "; ".join(notes)
    return None


def main(argv=None) -> int:
    args = parse_args(argv)
    progress = Progress(not args.json)

    def say(msg=""):  # the human summary; --json prints only the JSON object
        if not args.json:
            print(msg, flush=True)

    import numba
    if args.threads is not None:
        if not 1 <= args.threads <= numba.config.NUMBA_NUM_THREADS:
            print(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}", file=sys.stderr)
            return 2
        numba.set_num_threads(args.threads)

    deck = open_deck(args.deck, nposes=args.poses, dtype=np.float32, seed=args.seed, quiet=False)
    info = {
        "deck": deck.name, "deck_path": str(deck.path) if deck.path else None,
        "synthetic": deck.synthetic, "poses": deck.nposes, "protein_atoms": deck.natp,
        "ligand_atoms": deck.natl, "threads": numba.get_num_threads(), "kernel": args.kernel,
        "wrt": args.wrt,
    }
    say(f"deck      {deck.summary()}")
    repeats = args.repeats if args.bench else 1

    # ---- primal: compile on a few poses, then time on all of them ----
    run_primal(deck.subset(min(deck.nposes, 64)), args.kernel)
    ptimes, energies = timed(lambda: run_primal(deck, args.kernel), repeats, progress, "primal")
    info["primal_s"] = statistics.median(ptimes)
    info["primal_times_s"] = ptimes

    ok = True
    if deck.ref_energies is not None:
        v = validate_energies(energies, deck.ref_energies)
        info.update(energy_max_rel_err=v["max_rel_err"], energy_worst_pose=v["worst_pose"],
                    energy_max_abs_err=v["max_abs_err"], energy_skipped=v["skipped"],
                    energy_ok=v["ok"])
        ok &= v["ok"]
        say(f"energies  {deck.nposes} poses vs ref_energies.out: max rel err {v['max_rel_err']:.2e} "
            f"(pose {v['worst_pose']}), max abs err {v['max_abs_err']:.2e}, {v['skipped']} skipped "
            f"(|E|<1): {'PASS' if v['ok'] else 'FAIL'} (bound {DIFF_TOLERANCE:.1e})")
    else:
        info.update(energy_max_rel_err=None, energy_ok=None)
        say(f"energies  no reference energies (range {energies.min():.3f} .. {energies.max():.3f})")
    info["energy_min"], info["energy_max"] = float(energies.min()), float(energies.max())

    # ---- gradient ----
    gvariant = choose_gradient(deck, args, info)
    info["grad_kernel"] = gvariant
    g = None
    if gvariant is None:
        say(f"gradient  {info['grad_error']}")
        info.update(gradient_s=None, ratio=None, grad_fd_max_rel_err=None)
    else:
        if "grad_note" in info:
            say(f"gradient  note: {info['grad_note']}")
        module = None
        if args.adjoint_module:
            import importlib
            module = importlib.import_module(args.adjoint_module)
            info["adjoint_module"] = args.adjoint_module
        t_first = time.perf_counter()
        G.gradient(deck.subset(min(deck.nposes, 64)), args.wrt, gvariant, adjoint_module=module)
        info["gradient_first_call_s"] = time.perf_counter() - t_first
        if gvariant != args.kernel:  # compare with the primal of the same kernel
            run_primal(deck.subset(min(deck.nposes, 64)), gvariant)
        # the ratio comes from interleaved runs of the primal (of the differentiated kernel) and the gradient
        pt2, gtimes, g = interleaved(lambda: run_primal(deck, gvariant),
                                     lambda: G.gradient(deck, args.wrt, gvariant, adjoint_module=module),
                                     repeats, progress, "primal, gradient")
        info["gradient_s"] = statistics.median(gtimes)
        info["gradient_times_s"] = gtimes
        info["grad_primal_s"] = statistics.median(pt2)
        info["grad_primal_times_s"] = pt2
        info["ratio"] = info["gradient_s"] / info["grad_primal_s"]

    # ---- finite-difference check (float64, subset of poses) ----
    info["grad_fd_max_rel_err"] = None
    if args.check and gvariant is not None:
        deck64 = deck.subset(args.fd_poses).astype(np.float64)
        g64 = G.gradient(deck64, args.wrt, gvariant)
        fd = G.fd_check(deck64, g64, "blocked", seed=args.seed,
                        progress=lambda it: progress(it, "fd check"))
        worst_clean = max((e["rel_err"] for e in fd["entries"] if not e["kink"]), default=0.0)
        fd_ok = worst_clean < FD_TOLERANCE
        ok &= fd_ok
        info.update(grad_fd_max_rel_err=fd["max_rel_err"], grad_fd_ok=fd_ok, fd_poses=deck64.nposes,
                    fd_entries=fd["n_checked"], fd_kinks=fd["n_kink"], fd_detail=fd["entries"])
        kinks = f", {fd['n_kink']} near a kink" if fd["n_kink"] else ""
        say(f"gradient  adtrans ({gvariant} kernel, float64) vs central differences on "
            f"{deck64.nposes} poses, {fd['n_checked']} entries{kinks}: max rel err "
            f"{fd['max_rel_err']:.2e}: {'PASS' if fd_ok else 'FAIL'} (bound {FD_TOLERANCE:.0e})")

    # ---- times ----
    what = f"median of {repeats}" if repeats > 1 else "1 run"
    nt = info["threads"]
    say(f"time      primal ({args.kernel}) {info['primal_s'] * 1e3:.1f} ms ({what}, "
        f"{nt} thread{'s' if nt != 1 else ''})")
    if g is not None:
        extra = f", primal ({gvariant}) {info['grad_primal_s'] * 1e3:.1f} ms in the same rounds"
        say(f"time      gradient ({gvariant}, wrt {args.wrt}) {info['gradient_s'] * 1e3:.1f} ms{extra}; "
            f"ratio gradient/primal {info['ratio']:.2f}")

    # ---- most sensitive protein atoms ----
    info["top_atoms"] = []
    if g is not None and g.protein_xyz is not None:
        norm = np.sqrt((g.protein_xyz.astype(np.float64) ** 2).sum(axis=1))
        top = np.argsort(-norm, kind="stable")[:5]
        for i in top:
            t = int(deck.protein_type[i])
            info["top_atoms"].append({"index": int(i), "type": t, "hbtype": chr(int(deck.ff_hbtype[t])),
                                      "grad_norm": float(norm[i]),
                                      "xyz": [float(c) for c in deck.protein_xyz[i]]})
        say("top atoms |dE/dx| of the total energy (energy/Angstrom):")
        for a in info["top_atoms"]:
            say(f"  atom {a['index']:5d}  type {a['type']:3d} ({a['hbtype']})  |grad| {a['grad_norm']:.4g}")
        if args.plot:
            from examples.minibude.plot import plot_gradient
            plot_gradient(deck, g.protein_xyz, args.plot)
            info["plot"] = args.plot
            say(f"plot      {args.plot}")
    elif args.plot:
        print("--plot needs the protein gradient (--wrt protein or both, and adtrans)", file=sys.stderr)

    info["ok"] = bool(ok)
    if args.json:
        print(json.dumps(info, default=float))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Command line: ``adtrans show`` prints an adjoint, ``adtrans gen`` writes adjoint modules.

Neither runs the user's module: sources are parsed, and types come from
``--signature`` or the kernel's own ``@njit("signature")``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import gen as gen_writer
from .dispatch import target_of
from .errors import ADError
from .parse import parse_file_function
from .pipeline import generate


def _split_target(spec: str):
    if ":" not in spec:
        raise ADError(f"expected FILE.py:FUNC, got {spec!r}")
    path, func = spec.rsplit(":", 1)
    return path, func


def cmd_show(args) -> int:
    path, func = _split_target(args.target)
    targets = gen_writer.find_targets(path, only=[func], activity=args.activity, signature=args.signature)
    t = targets[0]
    primal = parse_file_function(path, func)
    gen = generate(primal, t.activity, gen_writer.argtypes_of(t.signature), target_of(primal))
    print(gen.function_source)
    return 0


def cmd_gen(args) -> int:
    only = [f.strip() for f in args.only.split(",")] if args.only else None
    status = 0
    for path in args.files:
        targets = gen_writer.find_targets(path, only=only, activity=args.activity, signature=args.signature)
        if not targets:
            print(f"{path}: no kernels marked @adtrans.differentiable (use --only FUNC)", file=sys.stderr)
            status = max(status, 1)
            continue
        source = gen_writer.generate_module(path, targets)
        out = Path(args.output) if args.output else gen_writer.default_output(path)
        if args.check:
            if gen_writer.is_stale(out, source):
                print(f"{out} is stale: run `adtrans gen {path}`", file=sys.stderr)
                status = 1
            continue
        wrote = gen_writer.write_generated(out, source, path)
        print(f"{'wrote' if wrote else 'unchanged'} {out} ({', '.join(t.name for t in targets)})")
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="adtrans", description="Reverse-mode AD for Numba kernels.")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="print the generated adjoint of FILE.py:FUNC")
    show.add_argument("target", help="FILE.py:FUNC")
    show.add_argument("--activity", help="comma-separated, one per parameter: dup, const or active")
    show.add_argument("--signature", help='Numba signature, e.g. "float64(float64[:], int64)"')
    show.set_defaults(run=cmd_show)
    gen = sub.add_parser("gen", help="write <module>_adjoint.py for marked kernels")
    gen.add_argument("files", nargs="+", help="kernel modules (read, never executed)")
    gen.add_argument("-o", "--output", help="output file (default: <module>_adjoint.py beside the input)")
    gen.add_argument("--only", help="comma-separated function names to differentiate")
    gen.add_argument("--activity", help="activity for --only functions")
    gen.add_argument("--signature", help="signature for --only functions")
    gen.add_argument("--check", action="store_true", help="exit 1 if the output is missing or stale")
    gen.set_defaults(run=cmd_gen)
    args = parser.parse_args(argv)
    if getattr(args, "output", None) and len(args.files) > 1:
        parser.error("-o takes one input file")
    try:
        return args.run(args)
    except ADError as exc:
        print(f"adtrans: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

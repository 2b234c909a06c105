"""The whole pipeline for one kernel and one target:
parse -> normalise -> type -> activity -> transform (marked IR) -> target lowering -> emit."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from numba.core import types as nbtypes

from .analyse.activity import analyse_activity
from .analyse.types import infer_types, is_array, is_float
from .emit import digest_of, render_function, render_module
from .errors import ActivityError, UnsupportedError
from .ir.lines import line_map
from .ir.walk import array_target, iter_stmts
from .normalise import normalise
from .normalise.records import entry_source, record_params, split_records
from .normalise.tupleargs import split_tuples, tuple_params
from .parse import Primal
from .targets.base import Target
from .targets.cpu import CPU
from .transform import build_adjoint
from .transform.tangent import Tangent, tangent_function
from .transform.tidy import tidy
from .transform.firstwrite import first_writes
from .transform.parnames import avoid_legalized_collisions
from .transform.firstwrite_params import param_first_writes
from .transform.shadowswap import swap_exchanges, swap_shadows
from .transform.lapack_merge import merge_lapack_parts
from .transform.zeroskip import skip_zero_adjoints
from .transform.fuse import fuse_loops

ACTIVITIES = ("const", "active", "dup")


@dataclass
class Generated:
    """Generated adjoint: its source, name, call parameters and returned adjoints."""
    name: str
    function_source: str
    params: list
    returns: list
    seeds: list
    global_arrays: dict
    parallel: bool
    where: dict = None          # line of the function source -> (user's file, line)
    seed_args: int = 0      # kernels returning arrays: seeds passed as arguments, one per result
    tape_pools: list = None     # dtypes of the optional trailing tape-pool arguments (CPU target)
    scratch_pools: list = None  # dtypes of the scratch-pool arguments after them (prange buffers)
    written: tuple = None   # parameters the kernel may write (None: unknown, take all)


def written_params(norm, params) -> tuple:
    """Parameters the normalised kernel stores into (``A[i] = ...``, ``A[i] += ...``), also
    through a second name bound to them (``r = A``)."""
    names = {p: p for p in params}
    out = set()
    for s, _ in iter_stmts(norm.body):
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name) \
                and s.value.id in names:
            names[s.targets[0].id] = names[s.value.id]
        t = array_target(s)
        if t in names:
            out.add(names[t])
    return tuple(p for p in params if p in out)


def check_activity(primal: Primal, activity, argtypes) -> dict:
    """Parameter -> activity (lower case), checked against the argument types."""
    params = primal.params
    if len(activity) != len(params):
        raise ActivityError(f"{primal.name} has {len(params)} parameters ({', '.join(params)}) but "
                            f"{len(activity)} activities were given")
    out = {}
    for k, (p, t) in enumerate(zip(params, argtypes)):
        if isinstance(getattr(t, "dtype", t), nbtypes.Complex):
            raise primal.error(primal.tree.args.args[k], f"complex parameter `{p}` ({t})",
                               "kernels compute with real numbers: pass the real and imaginary parts as two "
                               "float arrays; for np.linalg.eigh/eigvalsh of a Hermitian A + iB use the real "
                               "symmetric np.vstack((np.hstack((A, -B)), np.hstack((B, A)))) (each eigenvalue "
                               "twice)")
    for p, a, t in zip(params, activity, argtypes):
        a = a.lower()
        if a not in ACTIVITIES:
            raise ActivityError(f"activity {a!r} of {p}: use one of {ACTIVITIES}")
        if a == "dup" and not (is_array(t) and is_float(t.dtype)):
            raise ActivityError(f"{p} is {t}; Duplicated needs a float array (float32 or float64)")
        if a == "active" and not is_float(t):
            raise ActivityError(f"{p} is {t}; Active needs a float scalar (arrays are Duplicated)")
        out[p] = a
    return out


def _dtype_name(dt) -> str:
    s = str(dt)
    if s in ("float64", "float32", "bool"):
        return s
    return "int64" if "int" in s else "float64"


def generate(primal: Primal, activity, argtypes, target: Target = CPU, name: str | None = None,
             cache: bool = True) -> Generated:
    """Generate the adjoint of ``primal`` for ``activity`` (one per parameter) and Numba ``argtypes``
    on ``target`` (:data:`~adtrans.targets.cpu.CPU` or a :class:`~adtrans.cuda.target.CudaTarget`)."""
    argtypes = tuple(argtypes)
    records = record_params(primal, argtypes)
    if records:
        return _generate_split(primal, tuple(activity), argtypes, records, target, name, cache)
    tuples = tuple_params(primal, activity, argtypes)
    if tuples:       # a tuple of Duplicated arrays: one parameter per element, behind an entry
        if target.kind != "cpu":
            raise primal.error(primal.tree, f"the Duplicated tuple {next(iter(tuples))} in a {target.kind} kernel",
                               "pass each array as its own argument")
        split = split_tuples(primal, tuple(activity), argtypes, tuples)
        return _generate_entry(primal, tuple(activity), split, target, name, cache, "_elements",
                               "the tuples' elements, one parameter each (adtrans.normalise.tupleargs)")
    param_activity = check_activity(primal, activity, argtypes)
    target.check_activity(primal, param_activity)
    arrays = {p: (t.ndim, _dtype_name(t.dtype)) for p, t in zip(primal.params, argtypes) if target.is_array_type(t)}
    lists = {p: "array" if isinstance(t.dtype, nbtypes.Array) else str(t.dtype)
             for p, t in zip(primal.params, argtypes) if isinstance(t, (nbtypes.List, nbtypes.ListType))}
    scalars = {p: _dtype_name(t) for p, t in zip(primal.params, argtypes)
               if not target.is_array_type(t) and p not in lists}
    norm = normalise(primal, arrays, ext=target.normaliser_extension(), scalar_types=scalars,
                     blas=getattr(target, "pools", True), list_params=lists,
                     layouts={p: getattr(t, "layout", "C") for p, t in zip(primal.params, argtypes)
                              if target.is_array_type(t)},
                     none_params={p: isinstance(t, (nbtypes.NoneType, nbtypes.Omitted))
                                  for p, t in zip(primal.params, argtypes)
                                  if isinstance(t, (nbtypes.NoneType, nbtypes.Omitted, nbtypes.Array, nbtypes.Number))})
    seed_types = tuple(nbtypes.Array(nbtypes.float64 if dt != "float32" else nbtypes.float32, nd, "A")
                       if nd else nbtypes.float64 for _, nd, dt in norm.seed_params)
    param_activity.update({w: "const" for w, _, _ in norm.seed_params})
    types = infer_types(target.typing_copy(norm), argtypes + seed_types)
    act = analyse_activity(norm, types, param_activity, primal.error)
    name = name or f"{primal.name}_adjoint"
    marked = build_adjoint(norm, types, act, param_activity, primal.error, name, primal,
                           tape_by_cost=target.tape_by_cost, reassociate=target.reassociates(primal),
                           checkpoint_loops=getattr(target, "checkpoint_loops", False),
                           rerun_loops=getattr(target, "rerun_loops", False))
    func = target.lower(marked)
    conv = target.call_convention(marked, func)
    discard = frozenset() if target.keeps_outputs else frozenset(arrays)
    func = first_writes(tidy(func, marked.builder.scalar_names(), discard))
    dup_vectors = [(p, t) for p, t in zip(primal.params, argtypes)
                   if param_activity.get(p) == "dup" and target.is_array_type(t) and getattr(t, "ndim", 0) == 1]
    vectors = {marked.builder.adj(p) for p, _ in dup_vectors}
    func = param_first_writes(func, vectors)
    if target.swaps_shadows:
        func = swap_shadows(func, {marked.builder.adj(p): p for p, t in dup_vectors if t.dtype == nbtypes.float64})
    if target.swaps_exchanges:
        c_vectors = {x for x, t in types.items() if isinstance(t, nbtypes.Array) and t.ndim == 1
                     and t.dtype == nbtypes.float64 and t.layout == "C"}
        func = swap_exchanges(func, c_vectors | {marked.builder.adj_names[x] for x in c_vectors
                                                 if x in marked.builder.adj_names})
    func = merge_lapack_parts(func)
    if target.skips_zero_adjoints:
        func = skip_zero_adjoints(func)
    if target.fuses_loops:
        func = fuse_loops(func)
    if conv["parallel"]:
        func = avoid_legalized_collisions(func)
    decorator = target.decorator(primal, conv["parallel"], cache)
    raw: list = []
    text = render_function(func, decorator, raw=raw)
    where = {ln + (1 if decorator else 0): w for ln, w in line_map(func, raw[0]).items()}
    return Generated(name=name, function_source=text, params=marked.parameters(), returns=conv["returns"],
                     seeds=conv["seeds"], global_arrays=dict(norm.global_arrays), parallel=conv["parallel"],
                     where=where, seed_args=len(norm.seed_params), written=written_params(norm, primal.params),
                     tape_pools=conv.get("tape_pools") or [], scratch_pools=conv.get("scratch_pools") or [])


def _generate_split(primal, activity, argtypes, records, target, name, cache) -> Generated:
    """The adjoint of a kernel with structured-array parameters: the adjoint of the kernel with
    one parameter per field (:mod:`adtrans.normalise.records`), then an entry function with the
    kernel's own parameters that passes the field views."""
    for p, a in zip(primal.params, activity):
        if p not in records:
            continue
        if target.kind != "cpu":
            raise primal.error(primal.tree, f"the structured array {p} in a {target.kind} kernel",
                               "pass each field as its own array")
        if a.lower() == "active":
            raise ActivityError(f"{p} is a structured array; Active needs a float scalar")
        if a.lower() == "dup" and not any(isinstance(records[p].typeof(f), nbtypes.Float) for f in records[p].fields):
            raise ActivityError(f"{p} has no float field; Duplicated needs float fields (use Const)")
    split = split_records(primal, activity, argtypes, records)
    return _generate_entry(primal, activity, split, target, name, cache, "_fields",
                           "the structured arrays' fields, one array each (adtrans.normalise.records)")


def _generate_entry(primal, activity, split, target, name, cache, suffix, comment) -> Generated:
    """The adjoint of ``split.primal`` (a :class:`~adtrans.normalise.records.RecordSplit`: parameters
    of ``primal`` split into parts), named ``name + suffix``, then an entry function with ``primal``'s
    own parameters (``activity``: theirs) and shadows passing the parts."""
    name = name or f"{primal.name}_adjoint"
    inner = generate(split.primal, split.activity, split.argtypes, target, name=f"{name}{suffix}", cache=cache)
    inner_args = [a.arg for a in ast.parse(inner.function_source).body[0].args.args]
    field_of = {n: (p, f) for p, fs in split.fields.items() for f, n in fs}
    taken = set(inner_args) | set(primal.params)
    shadow_of, shadows, names = {}, {}, iter(inner.params)
    for p, a in zip(split.primal.params, split.activity):
        next(names)
        if a == "dup":
            sh = next(names)
            if p in field_of:
                rp, f = field_of[p]
                if rp not in shadow_of:
                    d, k = f"d_{rp}", 1
                    while d in taken:
                        k += 1
                        d = f"d_{rp}{k}"
                    taken.add(d)
                    shadow_of[rp] = d
                shadows[sh] = (shadow_of[rp], f)
    unused = {}         # a Duplicated tuple of floats only: its shadow tuple is passed, never read
    for rp in split.fields:
        if rp not in shadow_of and dict(zip(primal.params, activity)).get(rp, "").lower() == "dup":
            d = f"d_{rp}"
            while d in taken:
                d += "_"
            taken.add(d)
            unused[rp] = d
    entry = entry_source(name, inner.name, inner_args, split.fields, shadows, target.decorator(primal, False, cache),
                         comment, unused)
    params = []
    for a in inner.params:
        mapped = field_of[a][0] if a in field_of else shadows[a][0] if a in shadows else a
        if mapped not in params:
            params.append(mapped)
            if mapped in unused:
                params.append(unused[mapped])
    written = tuple(dict.fromkeys(field_of[w][0] if w in field_of else w for w in inner.written or ()))
    return replace(inner, name=name, function_source=inner.function_source + "\n\n\n" + entry,
                   params=params, written=written)


_COMMENT_LINE = re.compile(r"^(\s*)# (.*)$", re.M)


@dataclass
class GeneratedTangent:
    """The tangent (forward mode) of a generated CPU adjoint: its source, name, parameters
    (``(name, tangent name or None)`` in call order) and the adjoint's returned names."""
    name: str
    function_source: str
    params: list
    returns: list
    global_arrays: dict


def generate_tangent(primal: Primal, gen: Generated, activity, argtypes, inputs) -> GeneratedTangent:
    """The tangent of the generated CPU adjoint ``gen`` of ``primal`` (for ``activity`` and Numba
    ``argtypes``) with respect to the primal parameters ``inputs``: the adjoint's source read back
    as a primal and differentiated in forward mode (:mod:`adtrans.transform.tangent`).
    Raises :class:`~adtrans.errors.UnsupportedError` (at the kernel's line) for generated
    constructs the tangent does not cover."""
    # the adjoint's comments (`# adjoint of: ...`) travel as `__comment__` statements (emit restores them)
    text = _COMMENT_LINE.sub(lambda m: f"{m.group(1)}__comment__({m.group(2)!r})", gen.function_source)
    module = ast.parse(text)
    if len(module.body) > 1:         # an entry function for structured arrays (see _generate_split)
        raise UnsupportedError("second order of a kernel with structured-array arguments",
                               "pass each field as its own array", filename=primal.filename,
                               lineno=primal.tree.lineno, col=primal.tree.col_offset + 1)
    func = module.body[0]
    decorator = ast.unparse(func.decorator_list[0]) if func.decorator_list else None
    func.decorator_list = []
    arrays, passive, k = set(), set(), 0
    for p, a, t in zip(primal.params, activity, argtypes):
        if isinstance(t, nbtypes.Array):
            arrays.add(gen.params[k])
            if not is_float(t.dtype):
                passive.add(gen.params[k])
            if a == "dup":
                arrays.add(gen.params[k + 1])
        k += 2 if a == "dup" else 1
    def error(construct, hint, lineno):         # at the user's line behind the generated one
        filename, line = (gen.where or {}).get(lineno, (primal.filename, primal.tree.lineno))
        return UnsupportedError(construct, hint, filename=filename, lineno=line, col=1)
    tangent: Tangent = tangent_function(func, arrays, list(inputs), f"{gen.name}_tangent", error, passive)
    text = render_function(skip_zero_adjoints(tidy(tangent.func, tangent.scalars)), decorator)
    return GeneratedTangent(name=tangent.func.name, function_source=text, params=tangent.params,
                            returns=tangent.returns, global_arrays=dict(gen.global_arrays))


def module_source(gens: list[Generated], origin: str, input_text: str, target: Target = CPU) -> tuple[str, str]:
    """Module text holding ``gens`` (adjoints for ``target``) and its digest."""
    body = [g.function_source for g in gens]
    digest = digest_of(*target.digest_parts(), input_text, *body)
    return render_module(body, origin, digest, target.imports()), digest

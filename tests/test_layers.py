"""The package's structure: imports follow the stage order, form no cycle, and none hides in a
function to dodge one (see adtrans/README.md)."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "adtrans"

# stage of each module (longest matching prefix); a module may import only from its own or a lower stage
STAGES = [
    ("errors", 0), ("ir", 0), ("rules.derivatives", 0),     # ground floor: IR utilities, the derivative table
    ("special", 0),                                         # and the special functions its templates call
    ("parse", 1),
    ("normalise", 2),
    ("analyse", 3),
    ("rules", 4),
    ("transform", 5),
    ("targets", 6), ("cuda.extension", 6), ("cuda.lowering", 6), ("cuda.target", 6),
    ("emit", 6), ("compile", 6), ("gencache", 6), ("mpi", 6),
    ("pipeline", 7),
    ("build", 8), ("arguments", 8),
    ("adjoint", 9), ("cuda", 9), ("dispatch", 9), ("driver", 9), ("secondorder", 9),
    ("api", 10), ("gen", 10), ("cli", 10), ("", 11),
]

# function-local imports that are not there to dodge a cycle, with the reason
LAZY_OK = {("driver", "mpi.rules"): "importing mpi4py starts MPI: only drivers that call MPI need it"}


def _module(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _stage(mod: str) -> int:
    best = max((p for p, _ in STAGES if mod == p or mod.startswith(p + ".") or p == ""), key=len)
    return dict(STAGES)[best]


def _imports():
    """``(module, imported module, is_top_level)`` for every relative import in the package."""
    out = []
    for path in ROOT.rglob("*.py"):
        mod = _module(path)
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = pkg.split(".") if pkg else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:      # `from .pkg import submodule` imports the submodule
                    t = f"{target}.{alias.name}".strip(".")
                    if not (ROOT / t.replace(".", "/")).with_suffix(".py").exists() and \
                            not (ROOT / t.replace(".", "/") / "__init__.py").exists():
                        t = target
                    out.append((mod, t, id(node) in top))
    return out


def test_imports_follow_the_stage_order():
    wrong = [(m, t) for m, t, _ in _imports() if _stage(t) > _stage(m)]
    assert not wrong, f"imports against the stage order: {wrong}"


def test_no_import_cycle():
    graph = {}
    for m, t, _ in _imports():
        if t != m:
            graph.setdefault(m, set()).add(t)
    state = {}

    def visit(n, path):
        state[n] = 1
        for t in sorted(graph.get(n, ())):
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [n, t]))
            if t not in state:
                visit(t, path + [n])
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [])


def test_no_function_local_imports_of_adtrans():
    hidden = [(m, t) for m, t, top in _imports() if not top and (m, t) not in LAZY_OK]
    assert not hidden, f"function-local imports: {hidden}"


def test_the_stage_table_fails_on_an_upward_import():
    assert _stage("ir.walk") < _stage("normalise.ssa") < _stage("transform.builder") < _stage("api")
    assert _stage("rules.derivatives") == 0 and _stage("rules.scalar") == 4

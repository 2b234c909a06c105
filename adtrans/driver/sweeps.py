"""Generate the adjoint of a normalised driver: a forward sweep, then a reverse sweep.

Design (store-all with exact restoration, as Tapenade does for its tapes):

- The **forward sweep** runs the driver's statements.  Before a statement
  changes state it pushes onto a Python list ``_tape`` what it destroys: the old
  binding of a name it rebinds (a reference: free), a copy of the array region
  it overwrites (slice assignment, ``x op= e`` on arrays), copies of the arrays
  a kernel writes (:func:`adtrans.driver.runtime.checkpoint`), an MPI record
  (:mod:`adtrans.mpi.rules`), the sequence of a ``for`` loop, the trip count of
  a ``while`` loop, the branch of an ``if``.  Each array the driver creates
  gets a zero shadow of the same shape; views get the same view of the shadow.
- The **reverse sweep** walks the statements backwards (loops run backwards,
  branches as taken) and, for each, restores the state from before it (so every
  value it reads is the value the forward sweep read) and propagates adjoints:
  kernel calls through :func:`adtrans.adjoint` (activity per call from which
  arguments have shadows; the seeds are the adjoints of the names the results
  were bound to, one per returned float or array),
  expressions through :mod:`adtrans.driver.exprs`, MPI calls through
  :mod:`adtrans.mpi.rules`.
- At the end the arrays get their final values back (the reverse sweep left them
  as on entry), so arrays end as the primal leaves them, like kernel adjoints.

**Memory** of one adjoint call (store-all; no recomputation), for a time loop
of ``T`` steps: ``T`` times (the bytes of the arrays the step's kernel calls
overwrite + the overwritten regions of slice assignments, ``op=`` updates and
receives + the arrays the step allocates, twice: the array and its shadow) +
O(executed statements) Python references, + one copy of each array argument the
forward sweep writes (its final values), but for those only ever written as unsaved
outputs of kernel calls (:meth:`Sweeps.kept_outputs`: the reverse sweep leaves them as they are).  Only *overwritten* arrays are copied: arrays a kernel only
reads are still intact when its adjoint runs, because every later write was
undone first.  A kernel's outputs (written, never read) are not copied when no
earlier statement reads their old values (:meth:`Sweeps._unsaved_outputs`): the
kernel's adjoint does not look at them, and the reverse sweep reaches the next
reader only through a kernel that overwrites them again (or not at all).  E.g. a 1-D heat step writing ``unew`` of ``n`` float64 (then
swapped with ``u``) keeps ``8 n T`` bytes (+ ``unew`` and its shadow);
:func:`adtrans.driver.last_tape_nbytes` reports the figure of the last call.

A list the driver builds (``out = []; out.append(v)``) has a list of shadows, one per element:
an appended array's own shadow (the element is the same array), a zero for a float; the
reverse of an append pops both and adds a float element's adjoint to ``v``'s.  ``sum(out)``,
``np.array(out)``, ``out[k]`` and ``out[a:b]`` reach the elements' shadows
(:func:`adtrans.driver.runtime.acc`, ``add_at``); ``for st in out`` is a loop over the indices
reading ``st = out[k]`` (:mod:`.normalise`).  A literal ``parts = [k1(x), c * k2(x)]`` (also
``u_hist = [u0]`` appended to later) is built the same way: ``parts = []`` and one append per element;
so is a literal given to ``sum``, ``max``, ``min``, ``np.array`` or ``np.asarray`` (``sum([a, b])``,
``np.array((a, b))``), in a list of its own; ``lst += [a, b]`` and ``lst.extend([a, b])`` are appends;
a comprehension calling a kernel (``[k(x, j) for j in range(n) if c]``, also given to ``sum``/``max``/
``min``/``np.array``, generators too) is the ``for``/``if`` nest appending to a list (its variables
renamed: they do not leak); ``np.array([[a, b], [c, d]])`` is ``np.array`` of the list of its rows.

Names ``x`` that are assigned once outside loops are *stable*: their bindings
are not taped.  Name conventions of generated code: ``x_b`` the shadow of
``x``; ``_hN`` temporaries of the normalised driver; ``_vN`` recomputed
values; ``_bN`` adjoints; ``_rN`` records popped from the tape; ``_seqN``,
``_nN`` loop sequences and trip counts.
"""
from __future__ import annotations

import ast
import os
from collections import Counter

from ..mpi.specs import REQUEST_CREATORS, SUPPORTED
from ..analyse.effects import kernel_draws, read_params, returns_value, written_params
from .exprs import ExprAdjoint, index_code
from .normalise import (arg_names, reshape_source, AppendCall, Assign, AugAssign, CallStmt, For, If, KernelCall, MpiCall, Passive,
                        Return, SetItem, Unpack, While, iter_ir)
from ..ir.walk import iter_nodes

_NUMPY_ARRAY_MAKERS = {"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
                       "copy", "array", "arange", "linspace", "concatenate", "stack", "vstack", "hstack", "eye",
                       "ascontiguousarray", "asfortranarray"}
#: taken as copies (the adjoint rule of np.copy); the forward checks that they copied
_COPY_IF_NEEDED = {"ascontiguousarray", "asfortranarray"}


def _indent(lines, n=1):
    pad = "    " * n
    return [pad + ln if ln else ln for ln in lines]


def _block(lines):
    return lines if lines else ["pass"]


def _mentions(obj, name: str) -> bool:
    """Does the driver IR node ``obj`` (a statement, call, expression, or a list of them) name
    ``name`` anywhere (its source text aside)?"""
    if isinstance(obj, str):
        return obj == name
    if isinstance(obj, ast.AST):
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(obj))
    if isinstance(obj, (list, tuple)):
        return any(_mentions(x, name) for x in obj)
    if isinstance(obj, dict):
        return any(_mentions(x, name) for x in obj.values())
    if hasattr(obj, "__dataclass_fields__"):
        return any(_mentions(getattr(obj, f), name) for f in obj.__dataclass_fields__
                   if f not in ("text", "line", "kernel", "func"))
    return False


def _touch(s, name: str) -> str | None:
    """How statement ``s`` touches the array named ``name``, seen backwards from a later kernel
    call that overwrites it: ``"kill"`` (on every path through ``s`` a kernel call writes it as
    an output: writes, never reads), ``"read"`` (on some path something else names it first: a
    read, a rebinding, an alias), None (it may pass ``s`` untouched)."""
    call = getattr(s, "call", None)
    if isinstance(call, KernelCall) and isinstance(s, (CallStmt, Assign, Unpack)):
        if isinstance(s, Assign) and s.target == name or isinstance(s, Unpack) and name in s.targets:
            return "read"
        if any(isinstance(a, ast.Tuple) and name in arg_names(a) for a in call.args):
            return "read"           # in a tuple passed whole
        at = [i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == name]
        if not at:
            return None
        if read_params(call.kernel) & set(at):
            return "read"
        return "kill" if written_params(call.kernel) & set(at) else None
    if isinstance(s, If):
        branches = (_scan_back(s.body, name), _scan_back(s.orelse, name))
        if "read" in branches:
            return "read"
        if branches == ("kill", "kill"):
            return "kill"
        return "read" if _mentions(s.test, name) else None
    if isinstance(s, (For, While)):
        # the body may run no time: a kill in it does not end the scan
        if _scan_back(s.body, name) == "read":
            return "read"
        header = (s.iter, s.target) if isinstance(s, For) else (s.test,)
        return "read" if _mentions(list(header), name) else None
    return "read" if _mentions(s, name) else None


def _scan_back(stmts, name: str) -> str | None:
    for s in reversed(stmts):
        t = _touch(s, name)
        if t:
            return t
    return None


def _value_needed(frames, name: str) -> bool:
    """Is the value the array ``name`` holds just before the kernel call at the innermost of
    ``frames`` read by an earlier statement, i.e. by the reverse sweep after that call's
    adjoint?  ``frames``: ``(stmts, index, owner)`` from the function body inwards, ``owner`` the
    loop or branch whose body ``stmts`` is.  Scans backwards in program order (:func:`_touch`):
    the first statement that names it decides, a loop body is also scanned from its end (the
    previous iteration), and the function's entry ends the scan (at the end the reverse sweep
    gives every array its final contents: :func:`adtrans.driver.runtime.restore_final`)."""
    for depth in range(len(frames) - 1, -1, -1):
        stmts, idx, owner = frames[depth]
        t = _scan_back(stmts[:idx], name)
        if t:
            return t == "read"
        if isinstance(owner, (For, While)):
            # the previous iteration: the statements after this one, then this one
            if (_scan_back(stmts[idx + 1:], name) or _touch(stmts[idx], name)) == "read":
                return True
            header = (owner.iter, owner.target) if isinstance(owner, For) else (owner.test,)
            if _mentions(list(header), name):
                return True
        elif isinstance(owner, If) and _mentions(owner.test, name):
            return True
    return False


class Sweeps:
    """Generates the adjoint source of one driver for one activity tuple."""

    def __init__(self, primal, ir, param_activity: dict, act, resolver, checkpoints=None):
        self.primal, self.ir, self.pa, self.act, self.resolver = primal, ir, param_activity, act, resolver
        self.checkpoints = checkpoints      # snapshots of a binomial schedule for outer for loops (.checkpoint)
        self.loop_depth = 0
        self.snapshot_reads: set = set()
        self.used = {n.id for n in iter_nodes(primal.tree) if isinstance(n, ast.Name)} | set(ir.locals)
        self.counter = 0
        self._shadow: dict = {}
        self.sites, self.in_loop = Counter(), set()
        for p in ir.params:
            self.sites[p] += 1
        self._count(ir.body, 0)
        self.arrays = self._known_arrays()
        self.has_p2p = False
        self.file = os.path.basename(primal.filename)
        self._has_rev: dict = {}
        self._name_loops(ir.body)
        self.lists = self._list_names(ir.body)
        self.unsaved = self._unsaved_outputs(ir)

    def _name_loops(self, stmts):
        for s in stmts:
            if isinstance(s, For):
                s.seq = self.temp("_seq")
            elif isinstance(s, While):
                s.count = self.temp("_n")
            for attr in ("body", "orelse"):
                if isinstance(getattr(s, attr, None), list):
                    self._name_loops(getattr(s, attr))

    def _list_names(self, stmts) -> set:
        """The names the driver appends to (its lists, literals included: :meth:`~.normalise.list_literal`)."""
        out = set()
        for s in stmts:
            if isinstance(s, CallStmt) and isinstance(s.call, AppendCall):
                out.add(s.call.target)
            for attr in ("body", "orelse"):
                if isinstance(getattr(s, attr, None), list):
                    out |= self._list_names(getattr(s, attr))
        return out

    def has_rev(self, stmts) -> bool:
        """Do ``stmts`` have reverse-sweep code (equivalently: do they push onto the tape or
        propagate adjoints)?  Found by generating it and throwing it away."""
        key = id(stmts)
        if key not in self._has_rev:
            state = (self.counter, set(self.used), dict(self._shadow), self.checkpoints)
            self.checkpoints = None         # the answer does not depend on checkpointing
            self._has_rev[key] = bool(self.reverse(stmts))
            self.counter, self.used, self._shadow, self.checkpoints = state
        return self._has_rev[key]

    # -- names
    def shadow(self, name: str) -> str:
        if name not in self._shadow:
            s = f"{name}_b"
            while s in self.used:
                s += "_"
            self.used.add(s)
            self._shadow[name] = s
        return self._shadow[name]

    def temp(self, prefix: str) -> str:
        while True:
            self.counter += 1
            t = f"{prefix}{self.counter}"
            if t not in self.used:
                self.used.add(t)
                return t

    def error(self, node, construct, hint="", call=None):
        """The error at ``node`` (a statement of the driver IR: its line, the column of ``call``)."""
        if not hasattr(node, "lineno") and getattr(node, "line", None):     # a statement of the driver IR
            node = ast.Pass(lineno=node.line, col_offset=getattr(call, "col", 1) - 1)
        return self.primal.error(node, construct, hint)

    def at(self, s, call=None) -> str:
        """``"file:line:col"`` of statement ``s`` (the column of ``call`` when given), for the
        messages of runtime checks (:func:`adtrans.driver.runtime.check_result`)."""
        return f"{self.primal.filename}:{s.line}:{getattr(call, 'col', 1)}"

    def _count(self, stmts, depth):
        for s in stmts:
            if isinstance(s, Assign):
                self._site(s.target, depth)
            elif isinstance(s, Unpack):
                for t in s.targets:
                    self._site(t, depth)
            elif isinstance(s, For):
                for n in iter_nodes(s.target):
                    if isinstance(n, ast.Name):
                        self._site(n.id, depth)
                self._count(s.body, depth + 1)
            elif isinstance(s, While):
                self._count(s.body, depth + 1)
            elif isinstance(s, If):
                self._count(s.body, depth)
                self._count(s.orelse, depth)

    def _site(self, name, depth):
        self.sites[name] += 1
        if depth:
            self.in_loop.add(name)

    def stable(self, name: str) -> bool:
        """Assigned exactly once, outside loops, not a parameter: its binding needs no tape."""
        return self.sites[name] == 1 and name not in self.in_loop and name not in self.ir.params

    def binding(self, name: str) -> str:
        return f"({name}, {self.shadow(name)})" if self.act.name(name) else name

    def _known_arrays(self) -> set:
        """Names that certainly hold arrays (to leave out float-only code); conservative."""
        arrays = {p for p, a in self.pa.items() if a == "dup"}
        assigns: dict = {}

        for s in iter_ir(self.ir.body):
            if isinstance(s, Assign):
                assigns.setdefault(s.target, []).append(s)
            elif isinstance(s, (Unpack, For)):
                names = s.targets if isinstance(s, Unpack) else \
                    [n.id for n in iter_nodes(s.target) if isinstance(n, ast.Name)]
                for t in names:
                    assigns.setdefault(t, []).append(None)

        def is_array(s) -> bool:
            if s is None:
                return False
            v = s.value
            if s.kind == "alias":
                if isinstance(v, ast.Name):
                    return v.id in arrays
                if isinstance(v, ast.Attribute):
                    return v.value.id in arrays
                sl = v.slice.elts if isinstance(v.slice, ast.Tuple) else [v.slice]
                return v.value.id in arrays and any(isinstance(k, ast.Slice) for k in sl)
            if s.kind == "pure" and isinstance(v, ast.Call):
                kind = self.resolver.classify(v)
                return (kind.kind == "numpy" and kind.name in _NUMPY_ARRAY_MAKERS) or \
                    (kind.kind == "method" and kind.name == "copy" and isinstance(kind.receiver, ast.Name)
                     and kind.receiver.id in arrays)
            return False

        changed = True
        while changed:
            changed = False
            for name, sites in assigns.items():
                if name not in arrays and name not in self.ir.params and all(is_array(s) for s in sites):
                    arrays.add(name)
                    changed = True
        return arrays

    # -- entry
    def generate(self) -> str:
        ir, pa = self.ir, self.pa
        clash = sorted(_RESERVED & self.used)
        if clash:
            raise self.error(self.primal.tree, f"driver uses the name {clash[0]}, reserved for generated code",
                             "rename it")
        self.seed = "seed"
        while self.seed in self.used:
            self.seed = "_" + self.seed
        self.used.add(self.seed)
        fname = f"{ir.name}_adjoint"
        sig = []
        for p in ir.params:
            sig.append(p)
            if pa[p] == "dup":
                sig.append(self.shadow(p))
        fwd = self.forward(ir.body)
        rev = self.reverse(ir.body)
        actives = [p for p in ir.params if pa[p] == "active"]
        activity = ", ".join(f"{p}={pa[p]}" for p in ir.params)
        ret = "(" + "".join(f"{self.shadow(p)}, " for p in actives) + ")"
        head = [f"def {fname}({', '.join(sig + [self.seed + '=1.0'])}):",
                f'    """Adjoint of the driver {ir.name} ({self.file}:{self.primal.tree.lineno}) for {activity}.',
                "",
                f"    Generated by adtrans.driver.  Returns {ret}: the adjoints of the Active arguments;",
                f"    Duplicated shadows are updated in place.  {self.seed}: adjoint of the returned float.",
                '    """',
                "    _tape = []",
                f"    _args = ({''.join(p + ', ' for p in ir.params)})"]
        if self.checkpoints is not None:
            head.append(f"    _inputs = ({''.join(p + ', ' for p in sig)})")
        init = []
        for p in ir.params:
            if pa[p] == "active":
                init.append(f"{self.shadow(p)} = 0.0")
            elif pa[p] == "const" and self.act.name(p):
                init.append(f"{self.shadow(p)} = _rt.new_shadow({p})")
        for n in sorted(ir.locals - set(ir.params)):
            if not self.stable(n) or n in self.snapshot_reads:
                init.append(f"{n} = _UNDEF")
            if self.act.name(n):
                init.append(f"{self.shadow(n)} = None")
        if self.unsaved:
            init.append("_elide = _rt.disjoint(_args)   # distinct arrays: outputs no earlier statement reads are not saved")
        body = init + ["", "# ---------------------------------------------------------------- forward sweep"]
        body += fwd
        final = self.final_params(ir)
        kept = self.kept_outputs(ir, final)
        body.append(f"_rt.tape_stats(_tape, ({''.join(p + ', ' for p in sig)}))   # for adtrans.driver.last_tape_nbytes()")
        if kept:
            body.append(f"_final = _rt.final_state(({''.join(self.entry_value(ir, p) + ', ' for p in final)}), "
                        f"({''.join(p + ', ' for p in kept)}) if _elide else ())"
                        "       # final values of the arrays the forward sweep wrote, given back at the end "
                        "(not of the unsaved outputs in the second tuple: the reverse sweep leaves them)")
        else:
            body.append(f"_final = _rt.final_state(({''.join(self.entry_value(ir, p) + ', ' for p in final)}))"
                        "       # final values of the arrays the forward sweep wrote, given back at the end")
        if self.has_p2p:
            body += ["_mpi.separate_sweeps(_args)          # no adjoint message before every rank ends its forward sweep"]
        body += ["", "# ---------------------------------------------------------------- reverse sweep"]
        body += rev
        body += ["_rt.restore_final(_final)", "_rt.check_tape_empty(_tape)", f"return {ret}"]
        return "\n".join(head + _indent(body)) + "\n"

    def _unsaved_outputs(self, ir) -> dict:
        """For each kernel call (by ``id``), the positions of the arrays it writes that need no
        copy before it: outputs of the kernel (written, never read: its adjoint does not look at
        their old values) whose old values no earlier statement reads (:func:`_value_needed`).
        Used only when the array arguments are disjoint at run time (``_elide``); none in
        drivers with MPI calls (buffers move between ranks)."""
        out: dict = {}
        if any(isinstance(getattr(s, "call", None), MpiCall) for s in iter_ir(ir.body)):
            return out

        def walk(stmts, frames):
            for k, s in enumerate(stmts):
                here = frames + [(stmts, k, owner_of[id(stmts)])]
                call = getattr(s, "call", None)
                if isinstance(call, KernelCall) and isinstance(s, (CallStmt, Assign, Unpack)):
                    reads = read_params(call.kernel)
                    skip = tuple(i for i in self.kernel_written(call)
                                 if i not in reads and not _value_needed(here, call.args[i].id))
                    if skip:
                        out[id(call)] = skip
                for attr in ("body", "orelse"):
                    body = getattr(s, attr, None)
                    if isinstance(body, list) and isinstance(s, (For, While, If)):
                        owner_of[id(body)] = s
                        walk(body, here)

        owner_of = {id(ir.body): None}
        walk(ir.body, [])
        return out

    def kept_outputs(self, ir, final) -> list:
        """The parameters among ``final`` whose contents the reverse sweep leaves as the forward
        sweep left them when the array arguments are disjoint (``_elide``), so that they need no
        final copy: every statement that writes them is a kernel call that has them among its
        unsaved outputs (:meth:`_unsaved_outputs`; no copy is restored into them, and
        :func:`adtrans.driver.runtime.kernel_adjoint` puts back what an adjoint changes in
        them), none rebinds them, and no name but a parameter is written (no alias).  None under
        ``checkpoints=`` (the reverse sweep reruns forward segments)."""
        # copies nothing, so it shares no save/restore with Checkpoints (whose reruns rewrite these outputs)
        if self.checkpoints is not None or not self.unsaved:
            return []
        written, ok = set(), set(final)
        for s in iter_ir(ir.body):
            call = getattr(s, "call", None)
            if isinstance(call, KernelCall):
                unsaved = self.unsaved.get(id(call), ())
                for i in self.kernel_written(call):
                    written.add(call.args[i].id)
                    if i not in unsaved:
                        ok.discard(call.args[i].id)
            elif isinstance(call, MpiCall):
                return []
            if isinstance(s, SetItem):
                written.add(s.container)
                ok.discard(s.container)
            elif isinstance(s, AugAssign):
                written.add(s.target)
                ok.discard(s.target)
            elif isinstance(s, Assign):
                ok.discard(s.target)
            elif isinstance(s, Unpack):
                ok.difference_update(s.targets)
            elif isinstance(s, For):
                ok.difference_update(n.id for n in iter_nodes(s.target) if isinstance(n, ast.Name))
        if written - set(ir.params):
            return []
        return [p for p in final if p in ok]

    @staticmethod
    def entry_value(ir, p) -> str:
        """The caller's object for parameter ``p`` at the end of the forward sweep: ``p`` itself,
        or ``_args[k]`` where the driver rebinds ``p`` (``u[0] *= 0.9; u = u + c * u`` in a loop
        leaves the caller's array as the writes before the rebinding made it)."""
        rebound = any(isinstance(s, Assign) and s.target == p or isinstance(s, Unpack) and p in s.targets
                      for s in iter_ir(ir.body))
        return f"_args[{list(ir.params).index(p)}]" if rebound else p

    def final_params(self, ir) -> list:
        """Parameters whose final contents the reverse sweep disturbs: the ones that kernels,
        item assignments and ``op=`` write.  All parameters when a written name is not a
        parameter or is a rebound one (it may alias another: after ``u, un = un, u`` the kernel
        writing ``un`` writes the caller's ``u``, whose final values were lost) or when MPI calls
        are present (receive buffers)."""
        written, everything, rebound = set(), False, set()
        for s in iter_ir(ir.body):
            if isinstance(s, Assign):
                rebound.add(s.target)
            elif isinstance(s, Unpack):
                rebound.update(s.targets)
            call = getattr(s, "call", None)
            if isinstance(call, KernelCall):
                written.update(call.args[i].id for i in self.kernel_written(call))
            elif isinstance(call, MpiCall):
                everything = True
            if isinstance(s, SetItem):
                written.add(s.container)
            elif isinstance(s, AugAssign):
                written.add(s.target)
        if everything or written - set(ir.params) or written & rebound:
            return list(ir.params)
        return [p for p in ir.params if p in written]

    # -- sweeps
    def forward(self, stmts) -> list:
        out = []
        for s in stmts:
            out += self.fwd(s)
        return out

    def reverse(self, stmts) -> list:
        out, last = [], None
        for s in reversed(stmts):
            lines = self.rev(s)
            if lines and lines[0] == last:      # one comment for the pieces of one source statement
                lines = lines[1:]
            if lines:
                last = lines[0] if lines[0].startswith("#") else last
            out += lines
        return out

    def comment(self, s) -> str:
        return f"# {self.file}:{s.line}: {s.text}" if s.text else f"# {self.file}:{s.line}"

    def fwd(self, s) -> list:
        m = getattr(self, "fwd_" + type(s).__name__)
        return m(s)

    def rev(self, s) -> list:
        m = getattr(self, "rev_" + type(s).__name__)
        return m(s)

    # -- assignments
    def fwd_Assign(self, s: Assign) -> list:
        t = s.target
        out = []
        if not self.stable(t):
            out.append(f"_tape.append({self.binding(t)})")
        if s.kind == "kernel":
            out += self.fwd_kernel(s, s.call, t)
        elif s.kind == "mpi":
            out += self.fwd_mpi(s, s.call, t)
        else:
            out.append(f"{t} = {ast.unparse(s.value)}")
            v = s.value
            if s.kind == "pure" and isinstance(v, ast.Call) and v.args and self.act.expr(v.args[0]):
                kind = self.resolver.classify(v)
                if kind.kind == "numpy" and kind.name in _COPY_IF_NEEDED:
                    # the adjoint takes it as a copy; one that returned its argument (already
                    # contiguous) shares memory with it, which later writes would tell apart
                    out.append(f"_rt.check_copied({t}, {ast.unparse(v.args[0])}, {self.primal.filename!r}, {s.line}, "
                               f"{'np.' + kind.name!r})")
        if self.act.name(t) and not (s.kind == "mpi" and s.call.method in REQUEST_CREATORS):
            out.append(f"{self.shadow(t)} = {self.new_shadow(s)}")
        return out

    def new_shadow(self, s: Assign) -> str:
        v = s.value
        if s.kind == "alias":
            if isinstance(v, ast.Name):
                return f"_rt.alias_shadow({self.shadow(v.id)})"
            if isinstance(v, ast.Attribute):
                return f"_rt.alias_shadow({self.shadow(v.value.id)}).T"
            return f"_rt.getitem_shadow({self.shadow(v.value.id)}, _np.s_[{index_code(v.slice)}])"
        src = reshape_source(v) if s.kind == "pure" else None
        if src is not None and self.act.name(src):
            return f"_rt.reshape_shadow({s.target}, {src}, {self.shadow(src)})"
        return f"_rt.new_shadow({s.target})"

    def rev_Assign(self, s: Assign) -> list:
        t = s.target
        active_t = self.act.name(t)
        out = []
        bar = None
        if active_t:
            if self.stable(t):
                bar = self.shadow(t)
            else:
                bar = self.temp("_b")
                out.append(f"{bar} = {self.shadow(t)}")
        rec = None
        if self.records(s):
            rec = self.temp("_r")
            out.append(f"{rec} = _tape.pop()")
        if not self.stable(t):
            out.append(f"{self.binding(t)} = _tape.pop()")
        v = s.value
        if s.kind == "kernel":
            out += self.rev_kernel(s.call, bar or "0.0", rec)
        elif s.kind == "mpi":
            out += self.rev_mpi(s, s.call, rec, bar)
        elif s.kind == "alias" and active_t:
            if isinstance(v, ast.Name):
                ys = self.shadow(v.id)
                out.append(f"{ys} = _rt.alias_adjoint({ys}, {bar})")
            elif isinstance(v, ast.Subscript):
                out.append(f"_rt.getitem_adjoint({self.shadow(v.value.id)}, _np.s_[{index_code(v.slice)}], {bar})")
        elif s.kind == "pure" and active_t and self.act.expr(v):
            out += ExprAdjoint(self).lines(v, bar)
        if not out:
            return []
        return [self.comment(s)] + out

    def fwd_SetItem(self, s: SetItem) -> list:
        c, key = s.container, index_code(s.key)
        return [f"_tape.append(_rt.snap({c}[{key}]))", f"{c}[{key}] = {ast.unparse(s.value)}"]

    def rev_SetItem(self, s: SetItem) -> list:
        c, key = s.container, index_code(s.key)
        out = [self.comment(s)]
        if not self.act.name(c):
            return out + [f"{c}[{key}] = _tape.pop()"]
        cb = self.shadow(c)
        bar = None
        if self.act.expr(s.value):
            bar = self.temp("_b")
            out.append(f"{bar} = _rt.take({cb}, _np.s_[{key}])")
        out.append(f"_rt.zero_at({cb}, _np.s_[{key}])")
        out.append(f"{c}[{key}] = _tape.pop()")
        if bar:
            out += ExprAdjoint(self).lines(s.value, bar)
        return out

    def fwd_AugAssign(self, s: AugAssign) -> list:
        op = _OPS.get(type(s.op))
        if op is None:
            raise self.error(s, "augmented assignment operator")
        if (self.act.name(s.target) or self.act.expr(s.value)) and type(s.op) not in _DIFF_AUG:
            raise self.error(s.value, f"{op}= on an active value in a driver", "use +=, -=, *= or /=")
        return [f"_tape.append(_rt.snap({s.target}))", f"{s.target} {op}= {ast.unparse(s.value)}"]

    def rev_AugAssign(self, s: AugAssign) -> list:
        t, v = s.target, ast.unparse(s.value)
        out = [self.comment(s)]
        if not self.act.name(t):
            return out + [f"{t} = _rt.restore({t}, _tape.pop())"]
        tb = self.shadow(t)
        bar = self.temp("_b")
        out.append(f"{bar} = _rt.snap({tb})")
        out.append(f"{t} = _rt.restore({t}, _tape.pop())")
        va = self.act.expr(s.value)
        op = type(s.op)
        ex = ExprAdjoint(self)
        if op is ast.Add:
            contrib = bar
        elif op is ast.Sub:
            contrib = f"-{bar}"
        elif op is ast.Mult:
            out.append(f"{tb} *= {v}")
            contrib = f"{bar} * {t}"
        else:
            out.append(f"{tb} /= {v}")
            contrib = f"-{bar} * {t} / ({v} * {v})"
        if va:
            ex.grad(s.value, contrib)
            out += ex.pre + ex.back
        return out

    def fwd_Unpack(self, s: Unpack) -> list:
        if s.kind == "kernel":
            return self.fwd_unpack_kernel(s)
        active = self.act.expr(s.value)
        if active and not isinstance(s.value, ast.Name):
            raise self.error(s, "tuple unpacking of an active value", "assign the elements one by one")
        if active and (len(set(s.targets)) != len(s.targets) or s.value.id in s.targets):
            raise self.error(s, f"unpacking the active `{s.value.id}` into a name twice or into itself",
                             "give each element its own new name")
        names = ", ".join(s.targets)
        out = []
        taped = [t for t in s.targets if not self.stable(t)]     # stable names are never taped
        if taped:
            out.append(f"_tape.append(({', '.join(self.binding(t) for t in taped)},))")
        out.append(f"{names} = {ast.unparse(s.value)}")
        if active:          # a, b = parts: each target aliases its element, as a = parts[0]
            vs = self.shadow(s.value.id)
            out += [f"{self.shadow(t)} = _rt.getitem_shadow({vs}, _np.s_[{k}])"
                    for k, t in enumerate(s.targets) if self.act.name(t)]
        return out

    def rev_Unpack(self, s: Unpack) -> list:
        if s.kind == "kernel":
            return self.rev_unpack_kernel(s)
        taped = [t for t in s.targets if not self.stable(t)]
        out = []
        if self.act.expr(s.value):      # each target's adjoint back to its element of the value
            bars = []
            for k, t in enumerate(s.targets):
                if self.act.name(t):
                    bar = self.temp("_b")
                    out.append(f"{bar} = {self.shadow(t)}")
                    bars.append((k, bar))
        if taped:
            out.append(f"{', '.join(self.binding(t) for t in taped)}, = _tape.pop()")
        if self.act.expr(s.value):
            vs = self.shadow(s.value.id)
            out += [f"_rt.getitem_adjoint({vs}, _np.s_[{k}], {bar})" for k, bar in bars]
        return [self.comment(s)] + out if out else []

    def fwd_unpack_kernel(self, s: Unpack) -> list:
        """``a, b = kernel(...)``: tape the old bindings, call, check the results, zero shadows."""
        out = []
        taped = [t for t in s.targets if not self.stable(t)]
        if taped:
            out.append(f"_tape.append(({', '.join(self.binding(t) for t in taped)},))")
        out += self.fwd_kernel(s, s.call, ", ".join(s.targets), len(s.targets))
        out += [f"{self.shadow(t)} = _rt.new_shadow({t})" for t in s.targets if self.act.name(t)]
        return out

    def rev_unpack_kernel(self, s: Unpack) -> list:
        """Reverse of ``a, b = kernel(...)``: the kernel's adjoint seeded with ``(a_b, b_b)``;
        the shadows are consumed (the taped bindings, with their zero shadows, come back)."""
        out, seeds = [], []
        for t in s.targets:
            if not self.act.name(t):
                seeds.append("None")
            elif self.stable(t):
                seeds.append(self.shadow(t))
            else:
                bar = self.temp("_b")
                out.append(f"{bar} = {self.shadow(t)}")
                seeds.append(bar)
        rec = None
        if self.records(s):
            rec = self.temp("_r")
            out.append(f"{rec} = _tape.pop()")
        taped = [t for t in s.targets if not self.stable(t)]
        if taped:
            out.append(f"{', '.join(self.binding(t) for t in taped)}, = _tape.pop()")
        out += self.rev_kernel(s.call, f"({', '.join(seeds)},)", rec)
        return [self.comment(s)] + out if out else []

    # -- calls
    def fwd_CallStmt(self, s: CallStmt) -> list:
        call = s.call
        if isinstance(call, KernelCall):
            return self.fwd_kernel(s, call, None)
        if isinstance(call, MpiCall):
            return self.fwd_mpi(s, call, None)
        out = [f"{call.target}.append({ast.unparse(call.value)})"]
        if self.act.name(call.target):      # the element's shadow: an array's own (an alias), else a zero
            v = call.value
            elem = f"_rt.alias_shadow({self.shadow(v.id)})" if self.act.expr(v) else \
                f"_rt.new_shadow({call.target}[-1])"
            out.append(f"{self.shadow(call.target)}.append({elem})")
        return out

    def rev_CallStmt(self, s: CallStmt) -> list:
        call = s.call
        out = [self.comment(s)]
        if isinstance(call, KernelCall):
            rec = None
            if self.records(s):
                rec = self.temp("_r")
                out.append(f"{rec} = _tape.pop()")
            body = self.rev_kernel(call, "None" if returns_value(call.kernel) else "0.0", rec)
            return out + body if body else []
        if isinstance(call, MpiCall):
            return out + self.rev_mpi(s, call, "_tape.pop()", None)
        assert isinstance(call, AppendCall)
        if not self.act.name(call.target):
            return out + [f"{call.target}.pop()"]
        out.append(f"{call.target}.pop()")
        if not self.act.expr(call.value):
            return out + [f"{self.shadow(call.target)}.pop()"]
        vb = self.shadow(call.value.id)      # v's shadow gets the element's (arrays: the same shadow)
        return out + [f"{vb} = _rt.alias_adjoint({vb}, {self.shadow(call.target)}.pop())"]

    def kernel_written(self, call: KernelCall) -> list:
        return [i for i in sorted(written_params(call.kernel)) if isinstance(call.args[i], ast.Name)]

    def kernel_active(self, call: KernelCall) -> bool:
        return any(self.act.name(n) for a in call.args for n in arg_names(a))

    def records(self, s) -> bool:
        """Does the forward code of ``s`` push a record besides the name's binding?"""
        call = s.call if isinstance(s, (Assign, CallStmt, Unpack)) else None
        if isinstance(call, KernelCall):
            return bool(self.kernel_written(call)) or kernel_draws(call.kernel)
        if isinstance(call, MpiCall):
            return self.mpi_recorded(call)
        return False

    def fwd_kernel(self, s, call: KernelCall, target, count=0) -> list:
        """Forward code of a kernel call; ``target``: the name (or, with ``count`` > 0, the
        ``count`` comma-separated names) its result is bound to, None when discarded."""
        args = "".join(ast.unparse(a) + ", " for a in call.args)
        out = []
        written = self.kernel_written(call)
        at = self.at(s, call)
        for k, a in enumerate(call.args):
            if isinstance(a, ast.Name) and a.id in self.lists and self.act.name(a.id):
                raise self.error(s, f"the list `{a.id}` of active values passed whole to the kernel {call.func}: "
                                    "its length is known only at run time (it is appended to or bound twice), "
                                    f"or {call.func} does more than read it by constant index, unpacking, len "
                                    "or for (a kernel's list parameter is constant: no derivative)",
                                 f"bind it once to a list or tuple literal (`{a.id} = (a, b)`) and pass that, or "
                                 f"give {call.func} one parameter per element ({call.func}({a.id}[0], {a.id}[1], ...))",
                                 call)
            if isinstance(a, ast.Tuple):
                out += self.check_tuple_arg(s, call, k, a)
        if kernel_draws(call.kernel) and self.checkpoints is not None and self.kernel_active(call):
            raise self.error(s, f"the kernel {call.func}, which draws random numbers, under checkpoints=",
                             "leave checkpoints out (store-all replays the kernel's draws), or draw in the driver "
                             "before the loop and pass the draws in")
        if written or kernel_draws(call.kernel):
            skip = self.unsaved.get(id(call))
            skip = f", {skip!r} if _elide else ()" if skip else ""
            out.append(f"_tape.append(_rt.checkpoint({call.func}, ({args}), {tuple(written)!r}, {at!r}{skip}))")
        src = f"{call.func}({args[:-2]})"
        if target and self.kernel_active(call):     # checked before it is bound (the arguments may be rebound)
            extra = f", {count}" if count else ""
            src = f"_rt.check_result({src}, {call.func}, {at!r}, ({args}){extra})"
        out.append(f"{target} = {src}" if target else src)
        return out

    def arg_shadow(self, a) -> str:
        """The shadow a kernel's adjoint gets for the argument ``a``: a name's shadow (None for
        a passive one), for a tuple passed whole the tuple of its elements' (``(d_W, None,)``)."""
        if isinstance(a, ast.Tuple):
            return "(" + "".join(self.arg_shadow(e) + ", " for e in a.elts) + ")"
        return self.shadow(a.id) if isinstance(a, ast.Name) and self.act.name(a.id) else "None"

    def check_tuple_arg(self, s, call: KernelCall, k: int, a: ast.Tuple) -> list:
        """Refuses, at ``s``'s line, a tuple of active values passed whole (argument ``k`` of
        ``call``) into whose arrays the kernel writes (the driver's checkpoints hold whole
        arguments); returns the forward code that refuses an active number in it at run time
        (a tuple's shadow holds arrays only: :func:`adtrans.driver.runtime.check_tuple_arg`)."""
        active = [isinstance(e, ast.Name) and self.act.name(e.id) for e in a.elts]
        if not any(active):
            return []
        if k in written_params(call.kernel):
            raise self.error(s, f"a tuple of active arrays passed whole to the kernel {call.func}, which writes into it",
                             f"pass the arrays {call.func} writes as arguments of their own", call)
        if all(e.id in self.arrays for e, on in zip(a.elts, active) if on):
            return []
        return [f"_rt.check_tuple_arg({ast.unparse(a)}, {tuple(active)!r}, {call.func}, {self.at(s, call)!r})"]

    def rev_kernel(self, call: KernelCall, seed: str, rec) -> list:
        args = "".join(ast.unparse(a) + ", " for a in call.args)
        if not self.kernel_active(call):
            return [f"_rt.kernel_restore(({args}), {rec})"] if rec else []
        shadows = "".join(self.arg_shadow(a) + ", " for a in call.args)
        res = self.temp("_a")
        out = [f"{res} = _rt.kernel_adjoint({call.func}, ({args}), ({shadows}), {seed}, {rec})"]
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Name) and self.act.name(a.id) and a.id not in self.arrays:
                sb = self.shadow(a.id)
                out.append(f"{sb} = _rt.acc_scalar({sb}, {res}[{i}])")
            elif isinstance(a, ast.Tuple):      # a tuple passed whole: its floats' adjoints
                for j, e in enumerate(a.elts):
                    if isinstance(e, ast.Name) and self.act.name(e.id) and e.id not in self.arrays:
                        sb = self.shadow(e.id)
                        out.append(f"{sb} = _rt.acc_scalar({sb}, {res}[{i}][{j}])")
        return out

    def mpi_recorded(self, call: MpiCall) -> bool:
        spec = SUPPORTED[call.method]
        if spec.kind == "object":
            return self.act.expr(call.args.get("sendobj", call.args.get("obj")))
        return True

    def buffer_shadow(self, e) -> str:
        if isinstance(e, (ast.List, ast.Tuple)):
            e = e.elts[0]
        if isinstance(e, ast.Name) and self.act.name(e.id):
            return self.shadow(e.id)
        return "None"

    def fwd_mpi(self, s, call: MpiCall, target) -> list:
        spec = SUPPORTED[call.method]
        m = call.method
        if spec.kind == "object":
            val = call.args.get("sendobj", call.args.get("obj"))
            rest = "".join(f", {k}={ast.unparse(v)}" for k, v in call.args.items() if k not in ("sendobj", "obj"))
            if self.mpi_recorded(call):
                src = f"_mpi.{spec.forward}(_tape, {call.receiver}, {ast.unparse(val)}{rest})"
            else:
                src = f"{call.receiver}.{m}({ast.unparse(val)}{rest})"
            return [f"{target} = {src}" if target else src]
        if spec.p2p_receive:
            self.has_p2p = True
        parts = ["_tape"]
        if spec.kind == "request":
            if spec.request_on_receiver:
                parts.append(call.receiver)
            parts += [f"{k}={ast.unparse(v)}" for k, v in call.args.items()]
        else:
            parts.append(call.receiver)
            for k in spec.params:
                if k not in call.args:
                    continue
                parts.append(f"{k}={ast.unparse(call.args[k])}")
                if k in spec.buffers:
                    parts.append(f"{k}_b={self.buffer_shadow(call.args[k])}")
        src = f"_mpi.{spec.forward}({', '.join(parts)})"
        return [f"{target} = {src}" if target else src]

    def rev_mpi(self, s, call: MpiCall, rec, bar) -> list:
        spec = SUPPORTED[call.method]
        if spec.kind == "object":
            if not self.mpi_recorded(call):
                return []
            val = call.args.get("sendobj", call.args.get("obj"))
            if not isinstance(val, ast.Name):
                return [f"_mpi.adjoint_{spec.adjoint}({rec}, {bar or '0.0'})"]
            vb = self.shadow(val.id)
            return [f"{vb} = _rt.acc({vb}, _mpi.adjoint_{spec.adjoint}({rec}, {bar or '0.0'}))"]
        return [f"_mpi.adjoint_{spec.adjoint}({rec})"]

    # -- checkpointed loops (adtrans.driver.checkpoint)
    def checkpointed(self, s: For) -> bool:
        """Is the loop ``s`` run under a checkpointing schedule?  Outer ``for`` loops with adjoint
        work, when the driver adjoint was asked for ``checkpoints``."""
        return self.checkpoints is not None and self.loop_depth == 0 and self.has_rev(s.body)

    def loop_state(self, s: For):
        """``(names, shadows, written)`` of the checkpointed loop ``s``: the names its body (and
        target) binds, the shadows of the active ones, and the names whose arrays it may write in
        place (with every name of their alias groups)."""
        names = [n.id for n in iter_nodes(s.target) if isinstance(n, ast.Name)]
        written = []

        def add(lst, n):
            if n and n not in lst:
                lst.append(n)

        for t in iter_ir(s.body):
            if isinstance(t, Assign):
                add(names, t.target)
            elif isinstance(t, Unpack):
                for n in t.targets:
                    add(names, n)
            elif isinstance(t, For):
                for n in iter_nodes(t.target):
                    if isinstance(n, ast.Name):
                        add(names, n.id)
            elif isinstance(t, AugAssign):
                add(names, t.target)
                add(written, t.target)
            elif isinstance(t, SetItem):
                add(written, t.container)
            call = getattr(t, "call", None)
            if isinstance(call, KernelCall):
                for i in self.kernel_written(call):
                    add(written, call.args[i].id)
            elif isinstance(call, MpiCall):
                spec = SUPPORTED[call.method]
                for p, role in spec.buffers.items():
                    if role in ("recv", "inout") and p in call.args:
                        add(written, self.act.buffer_name(call.args[p]))
            elif isinstance(call, AppendCall):
                add(written, call.target)
        groups = {}
        for n in list(self.act.parent):
            groups.setdefault(self.act.find(n), []).append(n)
        for w in list(written):
            if w in self.act.parent:
                for n in sorted(groups.get(self.act.find(w), [])):
                    add(written, n)
        names = [n for n in names if not self.stable(n)]     # a stable loop target is set by each step
        self.snapshot_reads.update(n for n in written if self.stable(n))   # bound to _UNDEF at the start
        shadows = [self.shadow(n) for n in names if self.act.name(n)]
        return names, shadows, written

    @staticmethod
    def method_receivers(s: For, bound) -> list:
        """Names bound before the checkpointed loop ``s`` whose methods its body calls
        (``rng.normal(...)``): the random generators among them get their state saved with each
        snapshot (:meth:`~adtrans.driver.checkpoint.Checkpoints.save`), so a recomputed step draws
        what the forward sweep drew."""
        out = []
        for t in iter_ir(s.body):
            for field in ("value", "key", "test", "iter", "node"):
                e = getattr(t, field, None)
                if not isinstance(e, ast.AST):
                    continue
                for n in iter_nodes(e):
                    if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
                        continue
                    r = n.func.value
                    if isinstance(r, ast.Name) and r.id not in bound:
                        name = r.id
                    elif isinstance(r, ast.Attribute) and r.attr == "random" and isinstance(r.value, ast.Name) \
                            and r.value.id not in bound:
                        name = ast.unparse(r)       # np.random.standard_normal(n): NumPy's global generator
                    else:
                        continue
                    if name not in out:
                        out.append(name)
        return sorted(out)

    @staticmethod
    def _tuple(items) -> str:
        return "(" + "".join(f"{x}, " for x in items) + ")"

    def fwd_checkpointed(self, s: For, body: list, target: str) -> list:
        names, shadows, written = self.loop_state(s)
        gens = self.method_receivers(s, set(names))
        gens = f", {self._tuple(gens)}" if gens else ""
        ck, op, k, mark = self.temp("_ck"), self.temp("_op"), self.temp("_k"), self.temp("_mark")
        s.ck = (ck, op, k, mark, gens)
        sync = "lambda: _mpi.separate_sweeps(_args)" if self.has_p2p else "None"
        step = [f"{target} = {s.seq}[{k}]", f"{mark} = len(_tape)"] + body + \
            [f"{ck}.end_step(_tape, {mark}, {op})"]
        return [f"{s.seq} = _rt.sequence({ast.unparse(s.iter)})",
                f"{ck} = _rt.Checkpoints({self.checkpoints!r}, {s.seq}, {sync})"
                f"   # binomial schedule, {self.checkpoints} snapshots (adtrans.driver.checkpoint)",
                f"for {op}, {k} in {ck}.forward():",
                f"    if {op} == 'save':",
                f"        {ck}.save({k}, {self._tuple(names)}, {self._tuple(shadows)}, {self._tuple(written)}{gens})",
                "    else:"] + _indent(step, 2) + [f"_tape.append({ck})"]

    def rev_checkpointed(self, s: For, body_rev: list, target: str) -> list:
        names, shadows, written = self.loop_state(s)
        ck, op, k, mark, gens = s.ck
        sh = self._tuple(shadows)
        rev = []
        if shadows:
            rev.append(f"{sh} = {ck}.reverse_shadows({sh})")
        rev += [f"{target} = {s.seq}[{k}]"] + body_rev
        restore = f"{self._tuple(names)}, {sh if shadows else '_'} = {ck}.load({k}, {sh})"
        step = [f"{target} = {s.seq}[{k}]", f"{mark} = len(_tape)"] + s.fwd_body + \
            [f"{ck}.end_step(_tape, {mark}, {op})"]
        return [self.comment(s) + f"   (reversed with checkpoints: restore, recompute, reverse)",
                f"{ck} = _tape.pop()",
                f"{s.seq} = {ck}.seq",
                f"_rt.tape_stats(_tape, _inputs, {ck}, peak_only=True)",
                f"for {op}, {k} in {ck}.reverse():",
                f"    if {op} == 'reverse':"] + _indent(rev, 2) + \
            [f"    elif {op} == 'restore':", f"        {restore}",
             f"        _rt.tape_stats(_tape, _inputs, {ck}, peak_only=True)",
             f"    elif {op} == 'save':",
             f"        {ck}.save({k}, {self._tuple(names)}, {sh}, {self._tuple(written)}{gens})",
             "    else:"] + _indent(step, 2)

    # -- control flow
    def fwd_For(self, s: For) -> list:
        names = [n.id for n in iter_nodes(s.target) if isinstance(n, ast.Name)]
        if self.act.expr(s.iter) or any(self.act.name(n) for n in names):
            raise self.error(s, "for loop over active values", "loop over indices (range) and read the elements")
        target = ast.unparse(s.target)
        tgt = target if len(names) == 1 else f"({target})"
        out = []
        if not all(self.stable(n) for n in names):
            out.append(f"_tape.append({tgt})")
        ckpt = self.checkpointed(s)
        self.loop_depth += 1
        body = _block(self.forward(s.body))
        self.loop_depth -= 1
        if ckpt:
            s.fwd_body = body
            return out + self.fwd_checkpointed(s, body, target)
        if not self.has_rev(s.body):
            return out + [f"for {target} in {ast.unparse(s.iter)}:"] + _indent(body)
        return out + [f"{s.seq} = _rt.sequence({ast.unparse(s.iter)})", f"for {target} in {s.seq}:"] + \
            _indent(body) + [f"_tape.append({s.seq})"]

    def rev_For(self, s: For) -> list:
        names = [n.id for n in iter_nodes(s.target) if isinstance(n, ast.Name)]
        target = ast.unparse(s.target)
        tgt = target if len(names) == 1 else f"({target})"
        out = []
        ckpt = self.checkpointed(s)
        self.loop_depth += 1
        body_rev = self.reverse(s.body)
        self.loop_depth -= 1
        if ckpt:
            out += self.rev_checkpointed(s, body_rev, target)
        elif body_rev:
            out += [self.comment(s) + "   (reversed)", f"{s.seq} = _tape.pop()",
                    f"for {target} in reversed({s.seq}):"] + _indent(body_rev)
        if not all(self.stable(n) for n in names):
            out.append(f"{tgt} = _tape.pop()")
        return out

    def fwd_While(self, s: While) -> list:
        self.loop_depth += 1
        body = self.forward(s.body)
        self.loop_depth -= 1
        if not self.has_rev(s.body):
            return [f"while {ast.unparse(s.test)}:"] + _indent(_block(body))
        return [f"{s.count} = 0", f"while {ast.unparse(s.test)}:"] + _indent(body + [f"{s.count} += 1"]) + \
            [f"_tape.append({s.count})"]

    def rev_While(self, s: While) -> list:
        self.loop_depth += 1
        body_rev = self.reverse(s.body)
        self.loop_depth -= 1
        if not body_rev:
            return []
        return [self.comment(s) + "   (as many iterations as the forward sweep ran)",
                f"for {self.temp('_k')} in range(_tape.pop()):"] + _indent(body_rev)

    def fwd_If(self, s: If) -> list:
        fb, fo = self.forward(s.body), self.forward(s.orelse)
        if not self.has_rev(s.body) and not self.has_rev(s.orelse):
            out = [f"if {ast.unparse(s.test)}:"] + _indent(_block(fb))
            if fo:
                out += ["else:"] + _indent(fo)
            return out
        return [f"if {ast.unparse(s.test)}:"] + _indent(fb + ["_tape.append(True)"]) + \
            ["else:"] + _indent(fo + ["_tape.append(False)"])

    def rev_If(self, s: If) -> list:
        rb, ro = self.reverse(s.body), self.reverse(s.orelse)
        if not rb and not ro:
            return []
        out = [self.comment(s) + "   (the branch the forward sweep took)", "if _tape.pop():"] + _indent(_block(rb))
        return out + (["else:"] + _indent(ro) if ro else [])

    def fwd_Return(self, s: Return) -> list:
        return []

    def rev_Return(self, s: Return) -> list:
        v = s.value
        if isinstance(v, ast.Name) and self.act.name(v.id):
            vb = self.shadow(v.id)
            return [self.comment(s) + "   (seed)", f"{vb} = _rt.acc({vb}, {self.seed})"]
        return []

    def fwd_Passive(self, s: Passive) -> list:
        node = s.node
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            kind = self.resolver.classify(node.value)
            readonly = kind.kind == "builtin" and kind.name == "print"
            mentions = [n.id for n in iter_nodes(node.value) if isinstance(n, ast.Name) and self.act.name(n.id)]
            if mentions and not readonly:
                raise self.error(node, f"call of {kind.name} with the active value {mentions[0]} and no adjoint rule",
                                 "drivers call @njit kernels, NumPy/math functions and mpi4py methods on "
                                 "active values")
        return ast.unparse(node).splitlines()

    def rev_Passive(self, s: Passive) -> list:
        return []


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
        ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&",
        ast.MatMult: "@"}
_DIFF_AUG = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_RESERVED = frozenset({"_tape", "_args", "_inputs", "_final", "_rt", "_mpi", "_np", "_UNDEF"})

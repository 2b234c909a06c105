"""Saves for LAPACK calls inside loops, branches and inlined helpers (a mixin of
:class:`~adtrans.transform.builder.AdjointBuilder`).

A kept LAPACK statement (``x = np.linalg.solve(A, b)``, see :mod:`adtrans.rules.linalg`) has an
array-level adjoint that reads whole arrays: some of its operands and its result (``A`` and ``x``
for ``solve``, the factor ``L`` for ``cholesky``, ``V`` for ``eigh``).  They may be rewritten
between the call and its reverse: ``J`` and ``x`` are made afresh by every iteration of a Newton
loop, ``P`` is updated in place by every step of a Kalman filter, ``A[0, 0] += 1.0`` (or a helper
writing ``A``) may follow a top-level ``x = np.linalg.solve(A, b)``.  Each such array is saved
where the call runs and its reverse reads the saved copy:

- in a taped loop (``depth > 0``): pushed onto the tape after the call, popped before its reverse
  (``A_saved = np.empty(A.shape)`` and ``tape_pop_array``, read in place from the tape where
  nothing is pushed while the copy is in use: ``lowering.pops_as_views``); an array is saved
  where the kernel writes it or binds it inside a loop, and once where later calls of the same
  statement list read it unchanged (pushed after the last of them, whose pop serves all:
  :meth:`_later_reader`);
- in a fused or recomputed iteration and at function level, in a branch or not (``depth == 0``):
  the forward statements run once before the reverse, so ``A_saved = A.copy()`` after the call,
  and only where a later statement of the iteration (of the kernel) writes, rebinds or passes
  ``A`` to a call (one copy for the calls of one statement list that read it unchanged:
  :meth:`_earlier_copy`).

LAPACK calls in ``prange`` bodies are refused (:meth:`refuse_lapack_in_prange`): their
adjoints would allocate per iteration and the per-thread tapes are sized for scalars.
"""
from __future__ import annotations

import ast

from ..analyse.loops import loop_is_prange
from ..ir.walk import array_target, is_lapack, iter_stmts, lapack_operands, loaded_names, reads, scalar_target


class LapackSaves:
    """Mixin of :class:`~adtrans.transform.builder.AdjointBuilder`."""

    def refuse_lapack_in_prange(self, s, parents):
        """A kept LAPACK call inside a ``prange`` body: refused with its line."""
        if isinstance(s, ast.Assign) and is_lapack(s.value) and any(loop_is_prange(p) for p in parents):
            raise self.error(s.value, f"np.{s.value.adtrans_lapack} inside a prange loop (its array-level adjoint "
                                      "needs each iteration's operands saved as arrays)",
                             "use range() for this loop, or call the kernel once per iteration from a "
                             "prange driver")

    def lapack_read_arrays(self, s, rev) -> list:
        """The arrays (operands and result of LAPACK statement ``s``) that its reverse ``rev`` reads, in order."""
        cands = list(dict.fromkeys(lapack_operands(s.value) + [s.targets[0].id]))
        loaded = set().union(*(loaded_names(r) for r in rev))
        return [a for a in cands if a in loaded and a in self.types and getattr(self.types[a], "ndim", 0)]

    def _changes_in_loops(self, a) -> bool:
        """Whether the kernel writes array ``a`` (by root) or binds it inside a loop."""
        if self.root_array(a) in self.written_arrays():
            return True
        for site in self.sites.get(a, ()):
            if site is None or any(isinstance(p, (ast.For, ast.While)) for p in self.ancestors.get(id(site), ())):
                return True
        return False

    def _after(self, s, region) -> list:
        """The statements that run after ``s`` up to the end of ``region`` (a statement list that
        holds ``s``, through ``if`` branches): its later siblings at every level."""
        chain = list(self.ancestors.get(id(s), ())) + [s]
        out, inside = [], False
        bodies = [region]
        for node in chain:
            inside = inside or any(b is region for b in bodies)
            for body in bodies if inside else ():
                for j, t in enumerate(body):
                    if t is node:
                        out += body[j + 1:]
            bodies = [getattr(node, f) for f in ("body", "orelse") if isinstance(getattr(node, f, None), list)]
        return out

    def _changed_after(self, a, stmts) -> bool:
        """Whether ``stmts`` (nested ones included) write, rebind or pass to a call array ``a`` (by root)."""
        r = self.root_array(a)
        for t, _ in iter_stmts(stmts):
            hit = array_target(t) or scalar_target(t)
            if hit is not None and self.root_array(hit) == r:
                return True
            if isinstance(t, ast.Expr) and r in {self.root_array(x) for x in reads(t)}:
                return True
        return False

    def _siblings(self, s):
        """The statement list that holds ``s`` (the kernel's body at function level)."""
        chain = self.ancestors.get(id(s), ())
        if not chain:
            return self.norm.body
        for f in ("body", "orelse"):
            body = getattr(chain[-1], f, None)
            if isinstance(body, list) and any(t is s for t in body):
                return body
        return None

    def _earlier_copy(self, s, a, scope):
        """The copy of ``a`` an earlier LAPACK statement of the same statement list (and scope) made
        after its call, when nothing between it and ``s`` (``s`` included) changes ``a``: ``w, V =
        np.linalg.eigh(A)`` is two statements reading ``A``, one copy serves both.  Else None."""
        if a not in self.lapack_copies:
            return None
        saved, s1, scope1 = self.lapack_copies[a]
        body = self._siblings(s)
        if scope1 is not scope or body is None or body is not self._siblings(s1):
            return None
        k1 = next(k for k, t in enumerate(body) if t is s1)
        k2 = next(k for k, t in enumerate(body) if t is s)
        if k1 >= k2 or self._changed_after(a, body[k1 + 1:k2 + 1]):
            return None
        return saved

    def _later_reader(self, s, a, scope):
        """In a taped iteration, the next LAPACK statement of ``s``'s statement list whose reverse
        reads ``a`` too, when nothing from ``s`` to it (itself included) changes ``a``: ``S`` is
        read by ``solve(S, H @ P)``, ``solve(S, v)`` and ``slogdet(S)`` of one Kalman step and is
        pushed once, after the last.  Else None."""
        body = self._siblings(s)
        if scope.mode == "recompute" or body is None:
            return None
        k = next(j for j, t in enumerate(body) if t is s)
        for t in body[k + 1:]:
            if isinstance(t, ast.Assign) and is_lapack(t.value) and id(t) not in scope.popped \
                    and self.is_active(t.targets[0].id) and self.root_array(t.targets[0].id) != self.root_array(a) \
                    and a in self.lapack_read_arrays(t, self.rules.lapack(t, None, fresh=lambda base: base)):
                return t
            if self._changed_after(a, [t]):
                return None
        return None

    def lapack_saves(self, s, scope, depth, rev):
        """``(forward, reverse)`` statements saving the arrays the reverse ``rev`` of LAPACK statement
        ``s`` reads where they may be rewritten before it (see the module docstring); ``rev`` is
        renamed in place to read the copies."""
        fwd, back, renames = [], [], {}
        for a in self.lapack_read_arrays(s, rev):
            if depth > 0:
                if not self._changes_in_loops(a):
                    continue
                if a in self.varying_arrays:
                    raise self.error(s.value, f"np.{s.value.adtrans_lapack} of an array whose shape changes from "
                                              f"iteration to iteration (`{a}`) inside a taped loop",
                                     "keep the operands' shapes fixed across iterations")
                saved = self.lapack_shared.pop((id(s), a), None) or self.norm.alloc.fresh(a + "_saved")
                later = self._later_reader(s, a, scope)
                if later is not None:
                    # pushed once, by the later call: its pop (the earlier one in the reverse) serves both
                    self.lapack_shared[(id(later), a)] = saved
                else:
                    push, pop = self.array_save(scope.tape_scope, a, saved, "tape_pop_array")
                    fwd.append(push)
                    # popped in the reverse order of the pushes (the last array pushed is on top)
                    back[:0] = [ast.parse(f"{saved} = np.empty({a}.shape)").body[0], pop]
            else:
                region = self.norm.body if scope.root is None else scope.root.body
                if not self._changed_after(a, self._after(s, region)):
                    continue
                saved = self._earlier_copy(s, a, scope)
                if saved is None:
                    saved = self.norm.alloc.fresh(a + "_saved")
                    fwd.append(ast.parse(f"{saved} = {a}.copy()").body[0])
                    self.lapack_copies[a] = (saved, s, scope)
            self.types[saved] = self.types[a]
            renames[a] = saved
        for r in rev:
            for n in ast.walk(r):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in renames:
                    n.id = renames[n.id]
        self.need(back)
        return fwd, back

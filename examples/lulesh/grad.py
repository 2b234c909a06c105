"""Gradients of LULESH with adtrans (no hand-written derivatives).

Two uses, both through ``adtrans.autodiff`` on a plain-Python driver that
calls the kernels of :mod:`.kernels`:

1. **The adjoint of one LagrangeLeapFrog step** (LagrangeNodal +
   LagrangeElements + CalcTimeConstraintsForElems) with the whole Domain
   duplicated, as in the SC'22 Enzyme study: :func:`step_adjoint`
   differentiates :func:`.lulesh.lagrange_leapfrog_arrays` with every float64
   array of the Domain ``Duplicated`` (state, masses, reference volumes,
   scratch arrays, the hourglass modes ``gamma``, and ``dtc`` = (dtcourant,
   dthydro), the step's time-step limits) and the time step ``deltatime``
   ``Active`` (or ``Const``).  The model constants (``hgcoef``, cut-offs,
   Q coefficients, EOS bounds...) are ``Const``.

2. **A sensitivity**: the final origin energy ``e[0]`` after ``K`` cycles
   as a function of the initial energies ``e`` and node positions ``x, y,
   z``: :func:`origin_energy_gradient` differentiates the driver
   :func:`origin_energy_after`, which runs ``K`` cycles of TimeIncrement +
   LagrangeLeapFrog (the step written out inline: adtrans drivers call
   kernels, not Python helpers) and returns ``e[0]``.  The driver adjoint
   tapes what each step overwrites (store-all): :func:`origin_energy_gradient`
   reports that memory (``tape_nbytes``).

The time-step control.  In one step (1.) ``deltatime`` is an input and the
new limits ``dtcourant``/``dthydro`` are outputs: minima over the elements of
the Courant and hydro limits.  adtrans differentiates a minimum as the value
it selected (the limit of the element that set it), i.e. the derivative of the
branch the primal took, which is the derivative wherever the minimiser is
unique.  In the time loop (2.) the same holds for TimeIncrement: the new
``dt`` is differentiated through the branch taken (1.2 x the old step while
it grows, the hydro/Courant limit once that binds: from cycle 3 on in the
Sedov problem), so d e0 / d state includes the effect of the state on the
time steps.  ``freeze_dt=True`` instead replays the recorded time steps as
constants (the gradient with the time steps held fixed).

Non-smooth points (what adtrans returns there, and how the checks avoid them).
e0 is only piecewise smooth, and the Sedov problem sits on the seams:

* cut-offs: the EOS sets |e| < e_cut, |p| < p_cut, |q| < q_cut to 0, floors p
  at pmin = 0, velocities below u_cut are set to 0, and a relative volume
  within v_cut = 1e-10 of 1 is snapped to 1.  Initially every element but the
  origin has e = p = q = 0 and v = 1 and every node is at rest: the values
  sit on the cut-offs.  adtrans differentiates the branch taken (a value cut
  to a constant has derivative 0), which is the derivative for perturbations
  below the cut-offs: in the node positions the pieces are about
  0.1 v_cut element widths wide.  So d e0/d e is exactly 0 for every element
  that is still cold (the energy perturbation is cut away), and finite
  differences must move positions by ~1e-12 (rounding then limits the
  agreement to ~1e-3) -- or run without cut-offs (:func:`without_cutoffs`);
* ties: the mesh is a lattice of identical cubes and LULESH keeps its
  symmetry, so many maxima/minima (largest face of an element, Courant and
  hydro limits, Q limiter) are ties at the start and stay tied to within
  rounding.  There adtrans returns the derivative of the branches the run
  took, and central differences the mean of the one-sided slopes; once the
  ties are only approximate (after ~10 cycles at -s 8 to 10) the gradient is
  not even symmetric any more (:func:`symmetry_defect`).  A jittered mesh
  (:func:`jitter_mesh`) has no ties.

The checks therefore use: the step at a developed state of a jittered -s 3
mesh (every element away from the cut-offs), random directions that scale
each entry by its own value (zeros stay zero); and for the time loop the
LULESH problem with steps inside the cut-off pieces plus a jittered mesh
without cut-offs with ordinary steps.

Memory of the driver adjoint (store-all): per cycle one copy of every array
a kernel overwrites -- 29 element arrays, 12 corner (8 per element) arrays
and 18 node arrays of float64, i.e. 1.28 times the whole float state
(0.16 MB at -s 5, 31 MB at -s 30) -- plus one shadow per Duplicated array
and one copy of the final state.  :func:`origin_energy_gradient` reports the
taped bytes (``adtrans.driver.last_tape_nbytes()``).
"""

from __future__ import annotations

import dataclasses
import time as _time

import numpy as np

import adtrans
from adtrans import Active, Const, Duplicated

from . import kernels as K
from .lulesh import (QStopError, STEP_DT_INDEX, STEP_FLOAT_FIELDS, STEP_N_FLOAT_ARRAYS,
                     VolumeError, lagrange_leapfrog_arrays, step_arguments)

__all__ = [
    "copy_arguments", "jitter_mesh", "without_cutoffs", "step_adjoint", "step_fd_check",
    "origin_energy_after", "origin_energy_arguments", "origin_energy", "time_steps",
    "origin_energy_gradient", "OriginGradient", "origin_fd_check", "fd_steps",
    "symmetry_defect", "plot_sensitivity", "bench_step",
]

#: names of the float arrays of :func:`lagrange_leapfrog_arrays`, in order (dtc last)
STEP_ARRAY_NAMES = STEP_FLOAT_FIELDS + ("dtc",)


def copy_arguments(args):
    """A copy of an argument list (arrays copied, the rest shared)."""
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def jitter_mesh(domain, eps, seed=0):
    """Move the initial nodes of a fresh ``domain`` randomly by ``eps`` element widths (in place).

    The Sedov mesh is a lattice of identical cubes, and LULESH keeps its
    symmetry: many minima and maxima (largest face of an element, Courant
    limit over elements, Q limiter) are ties, where e0 is not differentiable
    (adtrans gives the derivative of the branch taken, finite differences
    the mean of two one-sided slopes).  A jittered mesh has no ties.  Nodes
    on a symmetry plane stay on it; reference volumes, masses and the first
    time step are recomputed as the set-up computes them.  Returns ``domain``.
    """
    import math
    if domain.cycle != 0:
        raise ValueError("jitter the mesh of a fresh Domain")
    rng = np.random.default_rng(seed)
    width = 1.125 / domain.sizeX
    for c in (domain.x, domain.y, domain.z):
        move = eps * width * rng.standard_normal(c.shape)
        move[c == 0.0] = 0.0
        c += move
    domain.nodalMass[:] = 0.0
    K.init_element_and_nodal_mass(domain.nodelist, domain.x, domain.y, domain.z, domain.volo,
                                  domain.elemMass, domain.nodalMass, domain.numElem)
    domain.deltatime = (0.5 * math.cbrt(domain.volo[0])) / math.sqrt(2.0 * domain.einit)
    return domain


#: the cut-offs of LULESH: values below them are set to zero (v: |v - 1| < v_cut set to 1)
CUTOFFS = ("u_cut", "e_cut", "p_cut", "q_cut", "v_cut")


def without_cutoffs(domain):
    """Set the cut-offs (:data:`CUTOFFS`) of ``domain`` to 0 (in place; returns it).

    At the initial state every element but the origin sits exactly at them
    (v = 1, e = p = q = 0, nodes at rest), so e0 is only piecewise smooth
    there, with pieces about v_cut = 1e-10 wide in the node positions.
    Without them it is smooth (on a jittered mesh) and finite differences
    with ordinary steps can check adtrans.
    """
    for name in CUTOFFS:
        setattr(domain, name, 0.0)
    return domain


# ---------------------------------------------------------------------------
# 1. The adjoint of one LagrangeLeapFrog step
# ---------------------------------------------------------------------------
def step_adjoint(args, seeds, dt_active=True):
    """Adjoint of one step :func:`lagrange_leapfrog_arrays` (whole Domain duplicated).

    ``args``: the step's arguments (:func:`.lulesh.step_arguments`); its arrays
    are advanced by the step in place, as the primal would.  ``seeds``: one
    array per float array argument (:data:`STEP_ARRAY_NAMES`, same shapes):
    the adjoints of the arrays' values after the step.  Returns ``(bars,
    dt_bar)``: ``bars[k]`` the adjoint of the k-th array before the step (the
    seed arrays themselves, updated in place by adtrans) and ``dt_bar`` the
    adjoint of ``deltatime`` (None when ``dt_active`` is False).
    """
    wrapped = []
    for k, a in enumerate(args):
        if k < STEP_N_FLOAT_ARRAYS:
            wrapped.append(Duplicated(a, seeds[k]))
        elif k == STEP_DT_INDEX and dt_active:
            wrapped.append(Active(a))
        else:
            wrapped.append(Const(a))
    out = adtrans.autodiff(lagrange_leapfrog_arrays, *wrapped)
    return seeds, (float(out[0]) if dt_active else None)


def _relative_direction(args, rng, dt_active):
    """A random direction that scales each entry by its own magnitude (zeros stay zero)."""
    dirs = [a * rng.standard_normal(a.shape) if k < STEP_N_FLOAT_ARRAYS else None
            for k, a in enumerate(args)]
    ddt = args[STEP_DT_INDEX] * rng.standard_normal() if dt_active else 0.0
    return dirs, ddt


def _shift(args, dirs, ddt, t):
    moved = copy_arguments(args)
    for k, d in enumerate(dirs):
        if d is not None:
            moved[k] += t * d
    moved[STEP_DT_INDEX] = args[STEP_DT_INDEX] + t * ddt
    return moved


def step_fd_check(args, ndirections=3, h=1e-6, dt_active=True, seed=0):
    """Directional derivatives of one step against central finite differences.

    The functional is ``J = sum_k <w_k, a_k after the step>`` over all float
    arrays, with random weights ``w_k`` scaled by ``1 / max|a_k|`` so every
    field counts.  Each direction perturbs every array entry (and dt) by a
    random multiple of its own value (see the module doc on kinks).  Returns
    a list of ``(adtrans, fd, relative error)``.  ``args`` is not changed.
    """
    rng = np.random.default_rng(seed)
    after = copy_arguments(args)
    lagrange_leapfrog_arrays(*after)
    weights = [rng.standard_normal(a.shape) / max(float(np.abs(a).max()), 1.0)
               for a in after[:STEP_N_FLOAT_ARRAYS]]

    def J(a):
        a = copy_arguments(a)
        lagrange_leapfrog_arrays(*a)
        return sum(float(np.dot(w.ravel(), x.ravel()))
                   for w, x in zip(weights, a[:STEP_N_FLOAT_ARRAYS]))

    bars, dt_bar = step_adjoint(copy_arguments(args), [w.copy() for w in weights], dt_active)
    out = []
    for _ in range(ndirections):
        dirs, ddt = _relative_direction(args, rng, dt_active)
        ad = sum(float(np.dot(b.ravel(), d.ravel())) for b, d in zip(bars, dirs))
        if dt_active:
            ad += dt_bar * ddt
        fd = (J(_shift(args, dirs, ddt, h)) - J(_shift(args, dirs, ddt, -h))) / (2.0 * h)
        out.append((ad, fd, abs(ad - fd) / max(abs(fd), 1e-300)))
    return out


# ---------------------------------------------------------------------------
# 2. d e[0](after K cycles) / d (e, x, y, z)(initial)
# ---------------------------------------------------------------------------
def origin_energy_after(
        x, y, z, xd, yd, zd, xdd, ydd, zdd, fx, fy, fz, nodalMass,
        e, p, q, ql, qq, v, volo, delv, vdov, arealg, ss, elemMass, vnew,
        delv_xi, delv_eta, delv_zeta, delx_xi, delx_eta, delx_zeta,
        dxx, dyy, dzz,
        sigxx, sigyy, sigzz, determ, fx_elem, fy_elem, fz_elem,
        dvdx, dvdy, dvdz, x8n, y8n, z8n, vnewc, gamma,
        dtc,
        nodelist, nodeElemStart, nodeElemCornerElem, nodeElemCornerLocal,
        symmX, symmY, symmZ, elemFaceBC,
        lxim, lxip, letam, letap, lzetam, lzetap,
        regNumList, regRep, regElemList, regElemStart, regElemSize,
        deltatime,
        u_cut, hgcoef, qstop, monoq_max_slope, monoq_limiter_mult,
        qlc_monoq, qqc_monoq, qqc, eosvmax, eosvmin, pmin, emin,
        dvovmax, refdens, e_cut, p_cut, q_cut, v_cut,
        sizeX, numElem, numNode, numReg, cycle,
        time, stoptime, dtfixed, deltatimemultlb, deltatimemultub, dtmax,
        dts, max_cycles):
    """Run LULESH cycles (TimeIncrement + LagrangeLeapFrog) and return e[0].

    The arguments up to ``cycle`` are those of
    :func:`.lulesh.lagrange_leapfrog_arrays` (``dtc`` (2,) holds the
    (dtcourant, dthydro) of the previous step on entry and of the last step on
    return); then the Domain's time-step fields.  Runs while ``time <
    stoptime`` and ``cycle < max_cycles`` (a ``for`` loop with a ``break``), exactly like
    :func:`.lulesh.run_cycles` (bit-identical results).  ``dts``: an empty
    array to choose the time steps as LULESH does, or the time steps to use
    (one per cycle run here: a frozen schedule).
    """
    dtcourant = dtc[0]
    dthydro = dtc[1]
    step = 0
    for _ in range(max_cycles - cycle):     # a for loop: checkpointable (adtrans.driver.checkpoint)
        if time >= stoptime:
            break
        # ---- TimeIncrement
        targetdt = stoptime - time
        if dts.shape[0] > 0:
            deltatime = dts[step]
        else:
            if dtfixed <= 0.0 and cycle != 0:
                olddt = deltatime
                gnewdt = 1.0e+20
                if dtcourant < gnewdt:
                    gnewdt = dtcourant / 2.0
                if dthydro < gnewdt:
                    gnewdt = dthydro * 2.0 / 3.0
                newdt = gnewdt
                ratio = newdt / olddt
                if ratio >= 1.0:
                    if ratio < deltatimemultlb:
                        newdt = olddt
                    elif ratio > deltatimemultub:
                        newdt = olddt * deltatimemultub
                if newdt > dtmax:
                    newdt = dtmax
                deltatime = newdt
            if targetdt > deltatime and targetdt < 4.0 * deltatime / 3.0:
                targetdt = 2.0 * deltatime / 3.0
            if targetdt < deltatime:
                deltatime = targetdt
        time += deltatime
        cycle += 1
        step += 1

        # ---- LagrangeLeapFrog (as lulesh.lagrange_leapfrog_arrays)
        delt = deltatime
        if numElem != 0:
            K.init_stress_terms_for_elems(p, q, sigxx, sigyy, sigzz, numElem)
            K.integrate_stress_for_elems(nodelist, x, y, z, sigxx, sigyy, sigzz,
                                         determ, fx_elem, fy_elem, fz_elem,
                                         numElem)
            K.gather_stress_forces(nodeElemStart, nodeElemCornerElem,
                                   nodeElemCornerLocal, fx_elem, fy_elem,
                                   fz_elem, fx, fy, fz, numNode)
            bad = K.first_index_at_most(determ, numElem, 0.0)
            if bad >= 0:
                raise VolumeError("VolumeError: element %d has volume %.17g <= 0 in "
                                  "IntegrateStressForElems (cycle %d)"
                                  % (bad, determ[bad], cycle))
            K.calc_hourglass_control_for_elems(nodelist, x, y, z, volo, v,
                                               determ, dvdx, dvdy, dvdz, x8n,
                                               y8n, z8n, numElem)
            bad = K.first_index_at_most(v, numElem, 0.0)
            if bad >= 0:
                raise VolumeError("VolumeError: relative volume v[%d] = %.17g <= 0 in "
                                  "CalcHourglassControlForElems (cycle %d)"
                                  % (bad, v[bad], cycle))
            if hgcoef > 0.0:
                K.calc_fb_hourglass_force_for_elems(
                    nodelist, xd, yd, zd, determ, x8n, y8n, z8n, dvdx, dvdy,
                    dvdz, ss, elemMass, gamma, hgcoef, fx_elem, fy_elem,
                    fz_elem, numElem)
                K.gather_hourglass_forces(nodeElemStart, nodeElemCornerElem,
                                          nodeElemCornerLocal, fx_elem,
                                          fy_elem, fz_elem, fx, fy, fz,
                                          numNode)
        K.calc_acceleration_for_nodes(fx, fy, fz, nodalMass, xdd, ydd, zdd,
                                      numNode)
        numNodeBC = (sizeX + 1) * (sizeX + 1)
        K.apply_acceleration_boundary_conditions_for_nodes(
            symmX, symmY, symmZ, xdd, ydd, zdd, numNodeBC, 1, 1, 1)
        K.calc_velocity_for_nodes(xd, yd, zd, xdd, ydd, zdd, delt, u_cut,
                                  numNode)
        K.calc_position_for_nodes(x, y, z, xd, yd, zd, delt, numNode)
        if numElem > 0:
            K.calc_kinematics_for_elems(nodelist, x, y, z, xd, yd, zd, volo, v,
                                        vnew, delv, arealg, dxx, dyy, dzz,
                                        deltatime, numElem)
            K.calc_lagrange_elements_strain(dxx, dyy, dzz, vdov, numElem)
            bad = K.first_index_at_most(vnew, numElem, 0.0)
            if bad >= 0:
                raise VolumeError("VolumeError: new relative volume vnew[%d] = %.17g <= 0 "
                                  "in CalcLagrangeElements (cycle %d)"
                                  % (bad, vnew[bad], cycle))
        if numElem != 0:
            K.calc_monotonic_q_gradients_for_elems(
                nodelist, x, y, z, xd, yd, zd, volo, vnew,
                delx_xi, delx_eta, delx_zeta, delv_xi, delv_eta, delv_zeta,
                numElem)
            ptiny = 1.e-36
            K.calc_monotonic_q_for_elems(
                elemFaceBC, lxim, lxip, letam, letap, lzetam, lzetap,
                delv_xi, delv_eta, delv_zeta, delx_xi, delx_eta, delx_zeta,
                vdov, elemMass, volo, vnew, qq, ql,
                monoq_limiter_mult, monoq_max_slope, qlc_monoq, qqc_monoq,
                ptiny, numElem)
            bad = K.first_index_above(q, numElem, qstop)
            if bad >= 0:
                raise QStopError("QStopError: artificial viscosity q[%d] = %.17g exceeds "
                                 "qstop = %.17g (cycle %d)" % (bad, q[bad], qstop, cycle))
            K.bound_relative_volumes(vnew, vnewc, eosvmin, eosvmax, numElem)
            bad = K.first_nonpositive_bounded_volume(v, eosvmin, eosvmax,
                                                     numElem)
            if bad >= 0:
                raise VolumeError("VolumeError: relative volume v[%d] = %.17g <= 0 in "
                                  "ApplyMaterialPropertiesForElems (cycle %d)"
                                  % (bad, v[bad], cycle))
            K.eval_eos_for_elems(regNumList, regRep, e, delv, p, q, qq, ql,
                                 vnewc, ss, eosvmin, eosvmax, pmin, p_cut,
                                 e_cut, q_cut, emin, refdens, numElem)
            K.update_volumes_for_elems(vnew, v, v_cut, numElem)
        dtcourant = 1.0e+20
        dthydro = 1.0e+20
        for r in range(numReg):
            start = regElemStart[r]
            size = regElemSize[r]
            dtcourant = K.calc_courant_constraint_for_elems(
                regElemList, start, size, ss, vdov, arealg, qqc, dtcourant)
            dthydro = K.calc_hydro_constraint_for_elems(
                regElemList, start, size, vdov, dvovmax, dthydro)
    dtc[0] = dtcourant
    dtc[1] = dthydro
    origin = e[0]
    return origin


#: the time-step fields of the Domain after the step arguments
TIME_FIELDS = ("time", "stoptime", "dtfixed", "deltatimemultlb", "deltatimemultub", "dtmax")


def origin_energy_arguments(domain, max_cycles, dts=None):
    """Arguments of :func:`origin_energy_after` for ``domain`` (its own arrays)."""
    args = step_arguments(domain)
    args += [getattr(domain, f) for f in TIME_FIELDS]
    args.append(np.zeros(0) if dts is None else np.asarray(dts, np.float64))
    args.append(int(max_cycles))
    return args


def time_steps(domain, max_cycles):
    """The time steps LULESH takes in ``max_cycles`` cycles from ``domain`` (not changed)."""
    from .lulesh import lagrange_leapfrog, time_increment
    import copy
    d = copy.deepcopy(domain)
    dts = []
    while d.time < d.stoptime and d.cycle < max_cycles:
        time_increment(d)
        dts.append(d.deltatime)
        lagrange_leapfrog(d)
    return np.array(dts)


_INDEX = {name: k for k, name in enumerate(STEP_ARRAY_NAMES)}


@dataclasses.dataclass
class OriginGradient:
    """d e0 / d(initial state) for ``e0`` = e[0] after ``cycles`` cycles.

    ``e0``: the final origin energy; ``grads``: the adjoint of every float
    array argument of :func:`origin_energy_after` by name (``grads["e"]``
    = d e0 / d e, (numElem,); ``grads["x"]`` = d e0 / d x, (numNode,) ...;
    masses and reference volumes held as parameters); ``dt0``: d e0 / d of
    the first time step; ``tape_nbytes``: array memory the driver adjoint
    taped; ``seconds``: time of the adtrans call; ``cycles``: how many cycles
    were differentiated, ``max_cycles``: the cycle count the run stops at.
    """
    e0: float
    cycles: int
    max_cycles: int
    grads: dict
    dt0: float
    tape_nbytes: int
    seconds: float
    freeze_dt: bool


def origin_energy_gradient(domain, max_cycles, freeze_dt=False, checkpoints=None):
    """Gradient of e[0] after ``max_cycles`` cycles from ``domain`` (an
    :class:`OriginGradient`).  ``domain`` is not changed.  ``checkpoints``: None
    (store every cycle's overwritten arrays) or the snapshots of a binomial schedule
    (``adtrans.autodiff(..., checkpoints=N)``; the same gradient); ``tape_nbytes`` is
    then the peak of snapshots + one cycle's tape."""
    schedule = time_steps(domain, max_cycles)
    args = copy_arguments(origin_energy_arguments(domain, max_cycles, schedule if freeze_dt else None))
    wrapped = []
    shadows = {}
    for k, a in enumerate(args):
        if k < STEP_N_FLOAT_ARRAYS:
            shadows[STEP_ARRAY_NAMES[k]] = np.zeros_like(a)
            wrapped.append(Duplicated(a, shadows[STEP_ARRAY_NAMES[k]]))
        elif k == STEP_DT_INDEX:
            wrapped.append(Active(a))
        else:
            wrapped.append(Const(a))
    t0 = _time.perf_counter()
    (dt0,) = adtrans.autodiff(origin_energy_after, *wrapped, checkpoints=checkpoints)
    seconds = _time.perf_counter() - t0
    from adtrans.driver import last_tape_peak_nbytes
    return OriginGradient(float(args[_INDEX["e"]][0]), len(schedule), max_cycles, shadows, float(dt0),
                          last_tape_peak_nbytes(), seconds, freeze_dt)


def origin_energy(domain, max_cycles, perturb=None, dts=None):
    """e[0] after ``max_cycles`` cycles from a copy of ``domain`` whose float
    arrays are moved by ``perturb`` (``{name: delta array}``)."""
    args = copy_arguments(origin_energy_arguments(domain, max_cycles, dts))
    for name, delta in (perturb or {}).items():
        args[_INDEX[name]] += delta
    return origin_energy_after(*args)


#: pass bounds of :func:`origin_fd_check`: with the cut-offs the position
#: steps must stay below v_cut (~1e-12), so rounding limits the agreement
FD_TOLERANCE_CUTOFFS = 1e-2
FD_TOLERANCE_SMOOTH = 1e-6
#: relative asymmetry of a gradient on the symmetric mesh above which the state is a kink
SYMMETRY_TOLERANCE = 1e-8


def fd_steps(domain):
    """Finite-difference steps for :func:`origin_fd_check`: ``(energy, position)``.

    Energies move by 1e-7 of their value.  Positions move by ``0.1 v_cut``
    element widths when the v_cut snap is on (so no element's relative
    volume crosses it: e0 is smooth only within those ~1e-10 wide pieces),
    else by 1e-6 element widths.
    """
    width = 1.125 / domain.sizeX
    pos = 0.1 * domain.v_cut * width if domain.v_cut > 0.0 else 1e-6 * width
    return 1e-7, pos


def origin_fd_check(domain, grad: OriginGradient, entries=(("e", 0), ("x", 1), ("y", 7)),
                    ndirections=2, seed=0):
    """Central differences of e0 against ``grad`` (see :func:`fd_steps` for the steps).

    ``entries``: (field, index) pairs differenced one by one.  An energy
    entry that is zero moves by 0.1 e_cut (it sits at the cut-off: below it
    e0 does not depend on it) and is skipped without cut-off (e = 0 is a
    kink of the EOS: p is floored at pmin = 0, the sound speed is sqrt(e)).
    ``ndirections`` random directions in the positions (x, y, z): each
    coordinate moved by a random multiple of its own value (the symmetry
    planes stay in place), scaled to the position step.  Returns a list of
    ``(label, adtrans, fd, error)`` with error = |adtrans - fd| /
    max(|fd|, |adtrans|, noise), noise = 1e-13 |e0| / step (the rounding
    error of the difference quotient).
    """
    dts = time_steps(domain, grad.max_cycles) if grad.freeze_dt else None
    rng = np.random.default_rng(seed)
    rel_e, step_x = fd_steps(domain)
    out = []

    def central(perturb, step):
        plus = {n: d for n, d in perturb.items()}
        minus = {n: -d for n, d in perturb.items()}
        return (origin_energy(domain, grad.max_cycles, plus, dts)
                - origin_energy(domain, grad.max_cycles, minus, dts)) / (2.0 * step)

    def record(label, ad, fd, step):
        scale = max(abs(fd), abs(ad), 1e-13 * abs(grad.e0) / step)
        out.append((label, ad, fd, abs(ad - fd) / scale))

    for name, j in entries:
        a = getattr(domain, name)
        if name == "e":
            if a[j] != 0.0:
                step = rel_e * abs(float(a[j]))
            elif domain.e_cut > 0.0:
                step = 0.1 * domain.e_cut
            else:
                continue
        else:
            step = step_x
        delta = np.zeros_like(a)
        delta[j] = step
        record("d e0/d %s[%d]" % (name, j), float(grad.grads[name][j]),
               central({name: delta}, step), step)
    for k in range(ndirections):
        dirs = {n: getattr(domain, n) * rng.standard_normal(domain.numNode) for n in "xyz"}
        big = max(float(np.abs(d).max()) for d in dirs.values())
        dirs = {n: d / big for n, d in dirs.items()}          # max |entry| = 1
        ad = sum(float(np.dot(grad.grads[n], d)) for n, d in dirs.items())
        fd = central({n: step_x * d for n, d in dirs.items()}, step_x)
        record("random direction %d in (x, y, z)" % k, ad, fd, step_x)
    return out


def symmetry_defect(grad: OriginGradient, nx):
    """How far ``grad`` is from the symmetry of the Sedov problem on the unjittered mesh.

    The problem is symmetric under permutations of the axes, so where e0 is
    differentiable its gradient is too: d e0/d x at node (i, j, k) equals
    d e0/d y at node (j, i, k), and d e0/d e is symmetric.  Returns the
    largest difference relative to the largest entry: a defect well above
    rounding shows that the point is a kink (ties in the minima/maxima that
    the symmetric solver keeps equal up to rounding), where adtrans returns
    the derivative of the branches taken and finite differences cannot
    check it.
    """
    nn = nx + 1
    gx, gy, gz = (grad.grads[n].reshape(nn, nn, nn) for n in "xyz")     # [plane, row, col]
    ge = grad.grads["e"].reshape(nx, nx, nx)
    pos = max(float(np.abs(np.stack([gx, gy, gz])).max()), 1e-300)
    den = max(float(np.abs(ge).max()), 1e-300)
    d_pos = max(float(np.abs(gx - gy.transpose(0, 2, 1)).max()),
                float(np.abs(gx - gz.transpose(2, 1, 0)).max())) / pos
    d_e = max(float(np.abs(ge - ge.transpose(0, 2, 1)).max()),
              float(np.abs(ge - ge.transpose(2, 1, 0)).max())) / den
    return max(d_pos, d_e)


# ---------------------------------------------------------------------------
# 3. Figure
# ---------------------------------------------------------------------------
def plot_sensitivity(grad: OriginGradient, nx, path, from_cycle=0):
    """Save a PNG of d e0 / d e on the element plane z = 0 (left) and of
    |d e0 / d (x, y, z)| on the node plane z = 0 (right); the state is that
    of cycle ``from_cycle``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import SymLogNorm

    ge = grad.grads["e"][:nx * nx].reshape(nx, nx)          # [row (y), col (x)]
    nn = nx + 1
    gpos = np.sqrt(grad.grads["x"][:nn * nn] ** 2 + grad.grads["y"][:nn * nn] ** 2
                   + grad.grads["z"][:nn * nn] ** 2).reshape(nn, nn)
    when = "initial" if from_cycle == 0 else "cycle-%d" % from_cycle
    w = 1.125 / nx
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.2))
    vmax = float(np.abs(ge).max()) or 1.0
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="0.85")
    im = axes[0].imshow(np.ma.masked_equal(ge, 0.0), origin="lower", extent=(0.0, 1.125, 0.0, 1.125),
                        cmap=cmap, norm=SymLogNorm(linthresh=vmax * 1e-4, vmin=-vmax, vmax=vmax))
    fig.colorbar(im, ax=axes[0], label="d e0 / d e   (symmetric log scale)")
    axes[0].set_title("d e0 / d e (%s energies), elements z = 0\n(grey: exactly 0)" % when,
                      fontsize=10)
    im2 = axes[1].imshow(gpos, origin="lower", extent=(-w / 2, 1.125 + w / 2, -w / 2, 1.125 + w / 2),
                         cmap="viridis")
    fig.colorbar(im2, ax=axes[1], label="|d e0 / d (x, y, z)|")
    axes[1].set_title("|d e0 / d (x, y, z)| (%s positions), nodes z = 0" % when, fontsize=10)
    for ax in axes:
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    fig.suptitle("LULESH -s %d: sensitivity of the origin energy e0 = %.6e after cycle %d "
                 "(adtrans)%s" % (nx, grad.e0, from_cycle + grad.cycles,
                                  ", time steps frozen" if grad.freeze_dt else ""), fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


# ---------------------------------------------------------------------------
# 4. Time of the step adjoint
# ---------------------------------------------------------------------------
def bench_step(size=30, threads=(1, 2), repeats=5, warm_cycles=5, breakdown=True, cpu=False):
    """Median times of one primal LagrangeLeapFrog step and of its adjoint (whole Domain
    duplicated, dt active), per thread count; with ``breakdown`` also where the adjoint's
    time goes (one extra instrumented run per thread count).  ``cpu``: process CPU time
    instead of wall time (steadier on a shared machine at 1 thread; at more threads it
    counts the threads' spinning too).  Returns a list of dicts."""
    clock = _time.process_time if cpu else _time.perf_counter
    import copy
    import statistics
    import numba
    from adtrans.driver import runtime as rt
    from .domain import Domain
    from .lulesh import lagrange_leapfrog, run_cycles, time_increment

    warm = Domain(3)
    run_cycles(warm, 2)
    time_increment(warm)
    step_adjoint(step_arguments(warm), [np.zeros_like(a) for a in step_arguments(warm)[:STEP_N_FLOAT_ARRAYS]])
    base = Domain(size)
    run_cycles(base, warm_cycles)
    time_increment(base)
    results = []
    for nt in threads:
        numba.set_num_threads(nt)
        prim, grad_t = [], []
        for _ in range(repeats):
            d = copy.deepcopy(base)
            t0 = clock()
            lagrange_leapfrog(d)
            prim.append(clock() - t0)
        rng = np.random.default_rng(0)
        for _ in range(repeats):
            args = copy_arguments(step_arguments(base))
            seeds = [rng.standard_normal(a.shape) for a in args[:STEP_N_FLOAT_ARRAYS]]
            t0 = clock()
            step_adjoint(args, seeds)
            grad_t.append(clock() - t0)
        res = {"size": size, "threads": nt, "primal_ms": 1e3 * statistics.median(prim),
               "gradient_ms": 1e3 * statistics.median(grad_t)}
        res["ratio"] = res["gradient_ms"] / res["primal_ms"]
        if breakdown:
            res["breakdown_ms"] = _breakdown(base, rt)
        results.append(res)
    return results


def _breakdown(base, rt):
    """Milliseconds spent in the parts of one step adjoint (instrumented run)."""
    from adtrans.driver import runtime
    spent = {}

    def timed(label, fn):
        def wrapper(*a, **k):
            t0 = _time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[label] = spent.get(label, 0.0) + 1e3 * (_time.perf_counter() - t0)
        return wrapper

    saved = {n: getattr(runtime, n) for n in ("checkpoint", "final_state", "restore_final", "tape_stats",
                                              "kernel_adjoint", "kernel_restore")}
    kernels = {n: getattr(K, n) for n in dir(K) if hasattr(getattr(K, n), "py_func")}
    try:
        wrapped = {}
        for n, f in kernels.items():
            w = timed("forward: " + n, f)
            wrapped[w] = f
            setattr(K, n, w)
        for n in ("final_state", "restore_final", "tape_stats", "kernel_restore"):
            setattr(runtime, n, timed("driver: " + n, saved[n]))

        def checkpoint(kernel, *a):
            return timed("driver: checkpoint", saved["checkpoint"])(wrapped.get(kernel, kernel), *a)

        def kernel_adjoint(kernel, *a):
            kernel = wrapped.get(kernel, kernel)
            return timed("reverse: " + kernel.__name__, saved["kernel_adjoint"])(kernel, *a)
        runtime.checkpoint = checkpoint
        runtime.kernel_adjoint = kernel_adjoint
        args = copy_arguments(step_arguments(base))
        seeds = [np.ones_like(a) for a in args[:STEP_N_FLOAT_ARRAYS]]
        t0 = _time.perf_counter()
        step_adjoint(args, seeds)
        spent["total"] = 1e3 * (_time.perf_counter() - t0)
    finally:
        for n, f in saved.items():
            setattr(runtime, n, f)
        for n, f in kernels.items():
            setattr(K, n, f)
    return dict(sorted(spent.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    import argparse
    import json
    ap = argparse.ArgumentParser(description="time of one LULESH step and of its adtrans adjoint")
    ap.add_argument("-s", dest="size", type=int, default=30)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="process CPU time instead of wall time")
    a = ap.parse_args()
    out = bench_step(a.size, a.threads, a.repeat, cpu=a.cpu)
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for r in out:
            print("s=%d threads=%d: primal step %.1f ms, gradient step %.1f ms, ratio %.1f"
                  % (r["size"], r["threads"], r["primal_ms"], r["gradient_ms"], r["ratio"]))
            for k, v in r["breakdown_ms"].items():
                print("    %-50s %8.1f ms" % (k, v))

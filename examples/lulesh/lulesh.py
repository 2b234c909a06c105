"""Drivers of the LULESH 2.0 time step (plain Python calling the kernels).

One cycle is ``time_increment(domain)`` followed by
``lagrange_leapfrog(domain)``:

* ``lagrange_nodal``: forces (stress + Flanagan-Belytschko hourglass),
  accelerations, symmetry boundary conditions, velocities, positions;
* ``lagrange_elements``: kinematics, monotonic artificial viscosity,
  equation of state and relative volumes;
* ``calc_time_constraints_for_elems``: Courant and hydro time step limits,
  region by region.

Regions: the original runs the monotonic Q and the EOS region by region over
the regions' element lists.  Each element's values do not depend on its
region, so here those kernels loop over all elements at once (each iteration
writing only its own element, as the AD tool requires); the region of an
element still sets how often its EOS is evaluated (``Domain.regRep``), so
the work matches the original's load imbalance.  Results are bit-identical.

The drivers only sequence kernel calls, do scalar arithmetic on the
``Domain`` attributes, loop and branch; all array work happens in
:mod:`kernels`.  The C++ program's ``exit(VolumeError)`` and
``exit(QStopError)`` become :class:`VolumeError` and :class:`QStopError`.
"""

import numpy as np

from . import kernels as K

__all__ = [
    "LuleshError", "VolumeError", "QStopError",
    "time_increment", "lagrange_leapfrog", "lagrange_nodal",
    "lagrange_elements", "calc_time_constraints_for_elems",
    "symmetry_check", "run_cycles",
]


class LuleshError(RuntimeError):
    """A condition under which the original program calls exit()."""

    exit_code = 1


class VolumeError(LuleshError):
    """An element volume became zero or negative (exit(VolumeError) = -1)."""

    exit_code = -1


class QStopError(LuleshError):
    """The artificial viscosity exceeded qstop (exit(QStopError) = -2)."""

    exit_code = -2


# ---------------------------------------------------------------------------
def time_increment(domain):
    """Choose the next time step from the previous step's constraints and advance time."""
    targetdt = domain.stoptime - domain.time

    if domain.dtfixed <= 0.0 and domain.cycle != 0:
        olddt = domain.deltatime

        gnewdt = 1.0e+20
        if domain.dtcourant < gnewdt:
            gnewdt = domain.dtcourant / 2.0
        if domain.dthydro < gnewdt:
            gnewdt = domain.dthydro * 2.0 / 3.0

        newdt = gnewdt
        ratio = newdt / olddt
        if ratio >= 1.0:
            if ratio < domain.deltatimemultlb:
                newdt = olddt
            elif ratio > domain.deltatimemultub:
                newdt = olddt * domain.deltatimemultub

        if newdt > domain.dtmax:
            newdt = domain.dtmax
        domain.deltatime = newdt

    # avoid a tiny last step: split the remainder when it is below 4/3 dt
    if targetdt > domain.deltatime and targetdt < 4.0 * domain.deltatime / 3.0:
        targetdt = 2.0 * domain.deltatime / 3.0

    if targetdt < domain.deltatime:
        domain.deltatime = targetdt

    domain.time += domain.deltatime
    domain.cycle += 1


# ---------------------------------------------------------------------------
# LagrangeNodal
# ---------------------------------------------------------------------------
def calc_hourglass_control_for_elems(domain, hgcoef):
    """Volume derivatives for the hourglass control, then the FB hourglass forces."""
    numElem = domain.numElem
    K.calc_hourglass_control_for_elems(
        domain.nodelist, domain.x, domain.y, domain.z, domain.volo, domain.v,
        domain.determ, domain.dvdx, domain.dvdy, domain.dvdz,
        domain.x8n, domain.y8n, domain.z8n, numElem)
    bad = K.first_index_at_most(domain.v, numElem, 0.0)
    if bad >= 0:
        raise VolumeError(
            "VolumeError: relative volume v[%d] = %.17g <= 0 in "
            "CalcHourglassControlForElems (cycle %d)"
            % (bad, domain.v[bad], domain.cycle))

    if hgcoef > 0.0:
        K.calc_fb_hourglass_force_for_elems(
            domain.nodelist, domain.xd, domain.yd, domain.zd, domain.determ,
            domain.x8n, domain.y8n, domain.z8n,
            domain.dvdx, domain.dvdy, domain.dvdz,
            domain.ss, domain.elemMass, domain.gamma, hgcoef,
            domain.fx_elem, domain.fy_elem, domain.fz_elem, numElem)
        K.gather_hourglass_forces(
            domain.nodeElemStart, domain.nodeElemCornerElem,
            domain.nodeElemCornerLocal,
            domain.fx_elem, domain.fy_elem, domain.fz_elem,
            domain.fx, domain.fy, domain.fz, domain.numNode)


def calc_volume_force_for_elems(domain):
    """Stress and hourglass forces on the nodes (fx, fy, fz)."""
    numElem = domain.numElem
    if numElem != 0:
        hgcoef = domain.hgcoef
        K.init_stress_terms_for_elems(domain.p, domain.q, domain.sigxx,
                                      domain.sigyy, domain.sigzz, numElem)
        K.integrate_stress_for_elems(
            domain.nodelist, domain.x, domain.y, domain.z,
            domain.sigxx, domain.sigyy, domain.sigzz, domain.determ,
            domain.fx_elem, domain.fy_elem, domain.fz_elem, numElem)
        K.gather_stress_forces(
            domain.nodeElemStart, domain.nodeElemCornerElem,
            domain.nodeElemCornerLocal,
            domain.fx_elem, domain.fy_elem, domain.fz_elem,
            domain.fx, domain.fy, domain.fz, domain.numNode)

        bad = K.first_index_at_most(domain.determ, numElem, 0.0)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: element %d has volume %.17g <= 0 in "
                "IntegrateStressForElems (cycle %d)"
                % (bad, domain.determ[bad], domain.cycle))

        calc_hourglass_control_for_elems(domain, hgcoef)


def calc_force_for_nodes(domain):
    """Nodal forces at the start of the step.

    The original zeroes fx/fy/fz first and adds the stress forces; here
    :func:`kernels.gather_stress_forces` assigns the sums directly, which is
    the same value (0 + a == a).
    """
    calc_volume_force_for_elems(domain)


def lagrange_nodal(domain):
    """Forces, accelerations, boundary conditions, velocities and positions."""
    delt = domain.deltatime
    u_cut = domain.u_cut
    numNode = domain.numNode

    calc_force_for_nodes(domain)

    K.calc_acceleration_for_nodes(domain.fx, domain.fy, domain.fz,
                                  domain.nodalMass, domain.xdd, domain.ydd,
                                  domain.zdd, numNode)

    numNodeBC = (domain.sizeX + 1) * (domain.sizeX + 1)
    K.apply_acceleration_boundary_conditions_for_nodes(
        domain.symmX, domain.symmY, domain.symmZ,
        domain.xdd, domain.ydd, domain.zdd, numNodeBC, 1, 1, 1)

    K.calc_velocity_for_nodes(domain.xd, domain.yd, domain.zd, domain.xdd,
                              domain.ydd, domain.zdd, delt, u_cut, numNode)

    K.calc_position_for_nodes(domain.x, domain.y, domain.z, domain.xd,
                              domain.yd, domain.zd, delt, numNode)


# ---------------------------------------------------------------------------
# LagrangeElements
# ---------------------------------------------------------------------------
def calc_lagrange_elements(domain):
    """Kinematics (new volumes, strain rates) and the deviatoric strain rates."""
    numElem = domain.numElem
    if numElem > 0:
        deltatime = domain.deltatime
        K.calc_kinematics_for_elems(
            domain.nodelist, domain.x, domain.y, domain.z,
            domain.xd, domain.yd, domain.zd, domain.volo, domain.v,
            domain.vnew, domain.delv, domain.arealg,
            domain.dxx, domain.dyy, domain.dzz, deltatime, numElem)
        K.calc_lagrange_elements_strain(domain.dxx, domain.dyy, domain.dzz,
                                        domain.vdov, numElem)
        bad = K.first_index_at_most(domain.vnew, numElem, 0.0)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: new relative volume vnew[%d] = %.17g <= 0 in "
                "CalcLagrangeElements (cycle %d)"
                % (bad, domain.vnew[bad], domain.cycle))


def calc_monotonic_q_for_elems(domain):
    """Monotonic Q terms (ql, qq) of all elements (all regions at once)."""
    ptiny = 1.e-36
    K.calc_monotonic_q_for_elems(
        domain.elemFaceBC, domain.lxim, domain.lxip, domain.letam,
        domain.letap, domain.lzetam, domain.lzetap,
        domain.delv_xi, domain.delv_eta, domain.delv_zeta,
        domain.delx_xi, domain.delx_eta, domain.delx_zeta,
        domain.vdov, domain.elemMass, domain.volo, domain.vnew,
        domain.qq, domain.ql,
        domain.monoq_limiter_mult, domain.monoq_max_slope,
        domain.qlc_monoq, domain.qqc_monoq, ptiny, domain.numElem)


def calc_q_for_elems(domain):
    """Velocity gradients, monotonic Q, and the qstop check."""
    numElem = domain.numElem
    if numElem != 0:
        K.calc_monotonic_q_gradients_for_elems(
            domain.nodelist, domain.x, domain.y, domain.z,
            domain.xd, domain.yd, domain.zd, domain.volo, domain.vnew,
            domain.delx_xi, domain.delx_eta, domain.delx_zeta,
            domain.delv_xi, domain.delv_eta, domain.delv_zeta, numElem)

        calc_monotonic_q_for_elems(domain)

        # q is still the previous step's value here, as in the original
        bad = K.first_index_above(domain.q, numElem, domain.qstop)
        if bad >= 0:
            raise QStopError(
                "QStopError: artificial viscosity q[%d] = %.17g exceeds qstop = %.17g "
                "(cycle %d)" % (bad, domain.q[bad], domain.qstop, domain.cycle))


def apply_material_properties_for_elems(domain):
    """Bounded relative volumes, the volume check, and the EOS of all regions."""
    numElem = domain.numElem
    if numElem != 0:
        eosvmin = domain.eosvmin
        eosvmax = domain.eosvmax
        K.bound_relative_volumes(domain.vnew, domain.vnewc, eosvmin, eosvmax,
                                 numElem)
        bad = K.first_nonpositive_bounded_volume(domain.v, eosvmin, eosvmax,
                                                 numElem)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: relative volume v[%d] = %.17g <= 0 in "
                "ApplyMaterialPropertiesForElems (cycle %d)"
                % (bad, domain.v[bad], domain.cycle))
        # EOS of all regions, each evaluated regRep[r] times
        K.eval_eos_for_elems(
            domain.regNumList, domain.regRep, domain.e, domain.delv, domain.p,
            domain.q, domain.qq, domain.ql, domain.vnewc, domain.ss,
            eosvmin, eosvmax, domain.pmin, domain.p_cut, domain.e_cut,
            domain.q_cut, domain.emin, domain.refdens, numElem)


def lagrange_elements(domain):
    """Element update: kinematics, Q, material properties, volumes."""
    calc_lagrange_elements(domain)
    calc_q_for_elems(domain)
    apply_material_properties_for_elems(domain)
    if domain.numElem != 0:
        K.update_volumes_for_elems(domain.vnew, domain.v, domain.v_cut,
                                   domain.numElem)


# ---------------------------------------------------------------------------
def calc_time_constraints_for_elems(domain):
    """Courant and hydro time step limits for the next cycle."""
    dtcourant = 1.0e+20
    dthydro = 1.0e+20
    for r in range(domain.numReg):
        start = domain.regElemStart[r]
        size = domain.regElemSize[r]
        dtcourant = K.calc_courant_constraint_for_elems(
            domain.regElemList, start, size, domain.ss, domain.vdov,
            domain.arealg, domain.qqc, dtcourant)
        dthydro = K.calc_hydro_constraint_for_elems(
            domain.regElemList, start, size, domain.vdov, domain.dvovmax,
            dthydro)
    domain.dtcourant = dtcourant
    domain.dthydro = dthydro


def lagrange_leapfrog(domain):
    """One Lagrange step after :func:`time_increment`."""
    lagrange_nodal(domain)
    lagrange_elements(domain)
    calc_time_constraints_for_elems(domain)


# ---------------------------------------------------------------------------
# Outside the time step
# ---------------------------------------------------------------------------
def run_cycles(domain, max_cycles, progress=None):
    """Advance until the stop time or ``max_cycles`` cycles, like the original main loop.

    ``progress``, if given, is called as ``progress(domain)`` after every cycle.
    """
    while domain.time < domain.stoptime and domain.cycle < max_cycles:
        time_increment(domain)
        lagrange_leapfrog(domain)
        if progress is not None:
            progress(domain)


def symmetry_check(domain):
    """The energy-symmetry measures of VerifyAndWriteFinalOutput.

    Compares e in plane 0 (z = 0) with its transpose across the diagonal:
    returns ``(MaxAbsDiff, TotalAbsDiff, MaxRelDiff)``.
    """
    nx = domain.sizeX
    e = domain.e
    MaxAbsDiff = np.float64(0.0)
    TotalAbsDiff = np.float64(0.0)
    MaxRelDiff = np.float64(0.0)
    # IEEE division as in C: x/0 gives inf or nan rather than an exception
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(nx):
            for k in range(j + 1, nx):
                AbsDiff = abs(e[j * nx + k] - e[k * nx + j])
                TotalAbsDiff += AbsDiff
                if MaxAbsDiff < AbsDiff:
                    MaxAbsDiff = AbsDiff
                RelDiff = AbsDiff / e[k * nx + j]
                if MaxRelDiff < RelDiff:
                    MaxRelDiff = RelDiff
    return float(MaxAbsDiff), float(TotalAbsDiff), float(MaxRelDiff)

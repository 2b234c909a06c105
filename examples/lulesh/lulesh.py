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
    "lagrange_leapfrog_arrays", "lagrange_leapfrog_flat", "step_arguments",
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


# ---------------------------------------------------------------------------
# The same time step with the state passed as arrays and scalars
# ---------------------------------------------------------------------------
# adtrans differentiates drivers whose arguments are arrays and numbers (a
# Domain object is not an array, and drivers may not call plain Python
# helpers), so for the gradient the step is also written out as one flat
# function of the Domain's fields.  It calls the same kernels in the same
# order as lagrange_leapfrog (results are bit-identical, see
# tests/test_lulesh_grad.py); run.py keeps using lagrange_leapfrog.

#: float64 fields of the Domain that the step reads or writes (its state and
#: its scratch arrays), in the order of lagrange_leapfrog_arrays' parameters.
STEP_FLOAT_FIELDS = (
    "x", "y", "z", "xd", "yd", "zd", "xdd", "ydd", "zdd", "fx", "fy", "fz",
    "nodalMass",
    "e", "p", "q", "ql", "qq", "v", "volo", "delv", "vdov", "arealg", "ss",
    "elemMass", "vnew",
    "delv_xi", "delv_eta", "delv_zeta", "delx_xi", "delx_eta", "delx_zeta",
    "dxx", "dyy", "dzz",
    "sigxx", "sigyy", "sigzz", "determ", "fx_elem", "fy_elem", "fz_elem",
    "dvdx", "dvdy", "dvdz", "x8n", "y8n", "z8n", "vnewc", "gamma",
)
#: int64 mesh and region arrays (never differentiated)
STEP_INDEX_FIELDS = (
    "nodelist", "nodeElemStart", "nodeElemCornerElem", "nodeElemCornerLocal",
    "symmX", "symmY", "symmZ", "elemFaceBC",
    "lxim", "lxip", "letam", "letap", "lzetam", "lzetap",
    "regNumList", "regRep", "regElemList", "regElemStart", "regElemSize",
)
#: float parameters of the model (cut-offs and coefficients)
STEP_FLOAT_PARAMS = (
    "u_cut", "hgcoef", "qstop", "monoq_max_slope", "monoq_limiter_mult",
    "qlc_monoq", "qqc_monoq", "qqc", "eosvmax", "eosvmin", "pmin", "emin",
    "dvovmax", "refdens", "e_cut", "p_cut", "q_cut", "v_cut",
)
#: integer sizes
STEP_INT_PARAMS = ("sizeX", "numElem", "numNode", "numReg", "cycle")


def step_arguments(domain, dtc=None):
    """The arguments of :func:`lagrange_leapfrog_arrays` for ``domain``, as a list.

    The arrays are the Domain's own (the step updates them in place).
    ``dtc`` (2,) float64 receives (dtcourant, dthydro); a new one by default.
    """
    if dtc is None:
        dtc = np.array([domain.dtcourant, domain.dthydro])
    args = [getattr(domain, f) for f in STEP_FLOAT_FIELDS]
    args.append(dtc)
    args += [getattr(domain, f) for f in STEP_INDEX_FIELDS]
    args.append(domain.deltatime)
    args += [getattr(domain, f) for f in STEP_FLOAT_PARAMS]
    args += [getattr(domain, f) for f in STEP_INT_PARAMS]
    return args


#: position of the first argument after the float arrays and dtc
STEP_N_FLOAT_ARRAYS = len(STEP_FLOAT_FIELDS) + 1
#: position of deltatime in the argument list
STEP_DT_INDEX = STEP_N_FLOAT_ARRAYS + len(STEP_INDEX_FIELDS)


def lagrange_leapfrog_flat(domain):
    """:func:`lagrange_leapfrog` through :func:`lagrange_leapfrog_arrays`."""
    args = step_arguments(domain)
    lagrange_leapfrog_arrays(*args)
    domain.dtcourant = float(args[STEP_N_FLOAT_ARRAYS - 1][0])
    domain.dthydro = float(args[STEP_N_FLOAT_ARRAYS - 1][1])


def lagrange_leapfrog_arrays(
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
        sizeX, numElem, numNode, numReg, cycle):
    """One LagrangeLeapFrog step (:func:`lagrange_leapfrog`) on explicit arrays.

    The parameters are the Domain fields of the same names (see
    :func:`step_arguments`); ``dtc`` (2,) float64 receives the new
    (dtcourant, dthydro).  Raises :class:`VolumeError`/:class:`QStopError`
    like the original.  Nothing is returned.
    """
    # ---- LagrangeNodal: CalcForceForNodes -> CalcVolumeForceForElems
    delt = deltatime
    if numElem != 0:
        K.init_stress_terms_for_elems(p, q, sigxx, sigyy, sigzz, numElem)
        K.integrate_stress_for_elems(nodelist, x, y, z, sigxx, sigyy, sigzz,
                                     determ, fx_elem, fy_elem, fz_elem,
                                     numElem)
        K.gather_stress_forces(nodeElemStart, nodeElemCornerElem,
                               nodeElemCornerLocal, fx_elem, fy_elem, fz_elem,
                               fx, fy, fz, numNode)
        bad = K.first_index_at_most(determ, numElem, 0.0)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: element %d has volume %.17g <= 0 in "
                "IntegrateStressForElems (cycle %d)"
                % (bad, determ[bad], cycle))
        # CalcHourglassControlForElems
        K.calc_hourglass_control_for_elems(nodelist, x, y, z, volo, v, determ,
                                           dvdx, dvdy, dvdz, x8n, y8n, z8n,
                                           numElem)
        bad = K.first_index_at_most(v, numElem, 0.0)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: relative volume v[%d] = %.17g <= 0 in "
                "CalcHourglassControlForElems (cycle %d)"
                % (bad, v[bad], cycle))
        if hgcoef > 0.0:
            K.calc_fb_hourglass_force_for_elems(
                nodelist, xd, yd, zd, determ, x8n, y8n, z8n, dvdx, dvdy, dvdz,
                ss, elemMass, gamma, hgcoef, fx_elem, fy_elem, fz_elem,
                numElem)
            K.gather_hourglass_forces(nodeElemStart, nodeElemCornerElem,
                                      nodeElemCornerLocal, fx_elem, fy_elem,
                                      fz_elem, fx, fy, fz, numNode)

    K.calc_acceleration_for_nodes(fx, fy, fz, nodalMass, xdd, ydd, zdd,
                                  numNode)
    numNodeBC = (sizeX + 1) * (sizeX + 1)
    K.apply_acceleration_boundary_conditions_for_nodes(
        symmX, symmY, symmZ, xdd, ydd, zdd, numNodeBC, 1, 1, 1)
    K.calc_velocity_for_nodes(xd, yd, zd, xdd, ydd, zdd, delt, u_cut, numNode)
    K.calc_position_for_nodes(x, y, z, xd, yd, zd, delt, numNode)

    # ---- LagrangeElements
    if numElem > 0:
        K.calc_kinematics_for_elems(nodelist, x, y, z, xd, yd, zd, volo, v,
                                    vnew, delv, arealg, dxx, dyy, dzz,
                                    deltatime, numElem)
        K.calc_lagrange_elements_strain(dxx, dyy, dzz, vdov, numElem)
        bad = K.first_index_at_most(vnew, numElem, 0.0)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: new relative volume vnew[%d] = %.17g <= 0 in "
                "CalcLagrangeElements (cycle %d)" % (bad, vnew[bad], cycle))
    if numElem != 0:
        # CalcQForElems
        K.calc_monotonic_q_gradients_for_elems(
            nodelist, x, y, z, xd, yd, zd, volo, vnew,
            delx_xi, delx_eta, delx_zeta, delv_xi, delv_eta, delv_zeta,
            numElem)
        ptiny = 1.e-36
        K.calc_monotonic_q_for_elems(
            elemFaceBC, lxim, lxip, letam, letap, lzetam, lzetap,
            delv_xi, delv_eta, delv_zeta, delx_xi, delx_eta, delx_zeta,
            vdov, elemMass, volo, vnew, qq, ql,
            monoq_limiter_mult, monoq_max_slope, qlc_monoq, qqc_monoq, ptiny,
            numElem)
        bad = K.first_index_above(q, numElem, qstop)
        if bad >= 0:
            raise QStopError(
                "QStopError: artificial viscosity q[%d] = %.17g exceeds "
                "qstop = %.17g (cycle %d)" % (bad, q[bad], qstop, cycle))
        # ApplyMaterialPropertiesForElems
        K.bound_relative_volumes(vnew, vnewc, eosvmin, eosvmax, numElem)
        bad = K.first_nonpositive_bounded_volume(v, eosvmin, eosvmax, numElem)
        if bad >= 0:
            raise VolumeError(
                "VolumeError: relative volume v[%d] = %.17g <= 0 in "
                "ApplyMaterialPropertiesForElems (cycle %d)"
                % (bad, v[bad], cycle))
        K.eval_eos_for_elems(regNumList, regRep, e, delv, p, q, qq, ql, vnewc,
                             ss, eosvmin, eosvmax, pmin, p_cut, e_cut, q_cut,
                             emin, refdens, numElem)
        K.update_volumes_for_elems(vnew, v, v_cut, numElem)

    # ---- CalcTimeConstraintsForElems
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

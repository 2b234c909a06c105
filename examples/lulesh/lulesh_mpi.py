"""LULESH 2.0 under MPI: one cubic subdomain per rank, as the C++ MPI build runs it.

``mpiexec -n 8 python -m examples.lulesh.lulesh_mpi -s 5 -i 10`` runs the 10^3
global mesh on a 2x2x2 decomposition (``-s`` is the edge of each rank's cube;
1, 8, 27, ... ranks).  Each rank builds its :class:`.domain.Domain` (the
original's InitMeshDecomp: rank -> (col, row, plane)), a :class:`.comm.CommPlan`,
sums the nodal masses across subdomains (CommSBN), then runs the plain-Python
step driver :func:`lagrange_leapfrog_mpi` (the serial kernels plus CommSBN,
CommSyncPosVel and CommMonoQ) under the time loop :func:`origin_energy_after_mpi`,
whose TimeIncrement takes the ``Allreduce(MIN)`` of the ranks' proposed steps.

Both drivers are what adtrans differentiates (:mod:`.grad_mpi`): they call only
kernels, the comm helpers (inlined by adtrans) and mpi4py.
"""
from __future__ import annotations

import math

import numpy as np
from mpi4py import MPI

from . import kernels as K
from .comm import CommPlan, comm_monoq, comm_sbn1, comm_sbn3, comm_sync_pos_vel
# the comm helpers' kernels: adtrans inlines the helpers into these drivers, so their globals
# must be reachable here under the same names
from .comm import add_field, copy_field, ghost_field, pack_field  # noqa: F401
from .domain import Domain
from .lulesh import QStopError, VolumeError, step_arguments

__all__ = ["mpi_domain", "jitter_global", "lagrange_leapfrog_mpi", "origin_energy_after_mpi",
           "mpi_step_arguments", "mpi_origin_arguments", "run_mpi", "global_element_index",
           "global_node_index", "gather_global"]


def mpi_domain(nx, comm, numReg=11, balance=1, cost=1):
    """This rank's Domain (edge ``nx``) and CommPlan, nodal masses summed across ranks."""
    d = Domain(nx, numReg, balance, cost, rank=comm.Get_rank(), numRanks=comm.Get_size())
    plan = CommPlan(d)
    comm_sbn1(comm, d.nodalMass, plan.sbn_nbr, plan.sbn_idx, plan.sbn_off)
    return d, plan


def global_node_index(d):
    """(numNode,) int64: the global node number of each local node (global edge tp*nx+1)."""
    nn, gn = d.sizeX + 1, d.tp * d.sizeX + 1
    i = np.arange(nn ** 3, dtype=np.int64)
    c = i % nn + d.colLoc * d.sizeX
    r = (i // nn) % nn + d.rowLoc * d.sizeX
    p = i // (nn * nn) + d.planeLoc * d.sizeX
    return c + gn * (r + gn * p)


def global_element_index(d):
    """(numElem,) int64: the global element number of each local element."""
    nx, gx = d.sizeX, d.tp * d.sizeX
    i = np.arange(nx ** 3, dtype=np.int64)
    c = i % nx + d.colLoc * nx
    r = (i // nx) % nx + d.rowLoc * nx
    p = i // (nx * nx) + d.planeLoc * nx
    return c + gx * (r + gx * p)


def jitter_global(d, eps, seed=0, comm=None, plan=None):
    """Move the nodes of a fresh Domain by ``eps`` element widths, the same on every decomposition.

    The moves are drawn for the whole global mesh (``seed``) and indexed by
    global node number, so a serial Domain of edge tp*nx and the tp^3
    subdomains get the same mesh.  Nodes on the symmetry planes stay on them.
    Volumes, masses (summed over ``comm`` with ``plan`` under MPI) and the first
    time step (from global element 0, as the serial set-up) are recomputed.
    """
    if d.cycle != 0:
        raise ValueError("jitter the mesh of a fresh Domain")
    gn = d.tp * d.sizeX + 1
    rng = np.random.default_rng(seed)
    moves = rng.standard_normal((3, gn ** 3))
    g = global_node_index(d)
    width = 1.125 / (d.tp * d.sizeX)
    for k, c in enumerate((d.x, d.y, d.z)):
        move = eps * width * moves[k][g]
        move[c == 0.0] = 0.0
        c += move
    d.nodalMass[:] = 0.0
    K.init_element_and_nodal_mass(d.nodelist, d.x, d.y, d.z, d.volo, d.elemMass, d.nodalMass, d.numElem)
    if comm is not None and d.numRanks > 1:
        comm_sbn1(comm, d.nodalMass, plan.sbn_nbr, plan.sbn_idx, plan.sbn_off)
    vol0 = np.array([d.volo[0]])
    if comm is not None and d.numRanks > 1:
        comm.Bcast(vol0, root=0)
    d.deltatime = (0.5 * math.cbrt(vol0[0])) / math.sqrt(2.0 * d.einit)
    return d


def gather_global(comm, d, values, where="node"):
    """Rank 0: the global array of ``values`` (local node or element values), copies of
    shared nodes summed (the adjoint of the copy of a global value to each rank); other
    ranks: None."""
    g = global_node_index(d) if where == "node" else global_element_index(d)
    size = (d.tp * d.sizeX + 1) ** 3 if where == "node" else (d.tp * d.sizeX) ** 3
    parts = comm.gather((g, np.asarray(values)), root=0)
    if comm.Get_rank() != 0:
        return None
    out = np.zeros(size)
    for gi, v in parts:
        np.add.at(out, gi, v)
    return out


# ---------------------------------------------------------------------------
def lagrange_leapfrog_mpi(
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
        comm, hasSymmX, hasSymmY, hasSymmZ,
        sbn_nbr, sbn_idx, sbn_off, sync_send_nbr, sync_send_idx, sync_send_off,
        sync_recv_nbr, sync_recv_idx, sync_recv_off, monoq_nbr, monoq_idx, monoq_off):
    """One LagrangeLeapFrog step of this rank's subdomain, with LULESH's ghost exchange.

    The arguments up to ``cycle`` are those of
    :func:`.lulesh.lagrange_leapfrog_arrays` for this rank's
    :class:`.domain.Domain`; then the communicator, the symmetry-plane flags
    of the subdomain and its :class:`.comm.CommPlan` arrays.  As the C++ MPI
    build: CommSBN of the node forces after CalcVolumeForceForElems,
    CommSyncPosVel after the position update (SEDOV_SYNC_POS_VEL_EARLY), and
    CommMonoQ of the velocity gradients before the monotonic Q.  ``dtc``
    receives this rank's (dtcourant, dthydro).
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
    # CommSBN: add the neighbours' forces at shared nodes
    comm_sbn3(comm, fx, fy, fz, sbn_nbr, sbn_idx, sbn_off)

    K.calc_acceleration_for_nodes(fx, fy, fz, nodalMass, xdd, ydd, zdd,
                                  numNode)
    numNodeBC = (sizeX + 1) * (sizeX + 1)
    K.apply_acceleration_boundary_conditions_for_nodes(
        symmX, symmY, symmZ, xdd, ydd, zdd, numNodeBC, hasSymmX, hasSymmY,
        hasSymmZ)
    K.calc_velocity_for_nodes(xd, yd, zd, xdd, ydd, zdd, delt, u_cut, numNode)
    K.calc_position_for_nodes(x, y, z, xd, yd, zd, delt, numNode)
    # CommSyncPosVel: shared nodes take their highest-rank holder's values
    comm_sync_pos_vel(comm, x, y, z, xd, yd, zd, sync_send_nbr, sync_send_idx,
                      sync_send_off, sync_recv_nbr, sync_recv_idx, sync_recv_off)

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
        # CommMonoQ: the face neighbours' gradients into the ghost elements
        comm_monoq(comm, delv_xi, delv_eta, delv_zeta, monoq_nbr, monoq_idx,
                   monoq_off, numElem)
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


# ---------------------------------------------------------------------------
def origin_energy_after_mpi(
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
        comm, hasSymmX, hasSymmY, hasSymmZ,
        sbn_nbr, sbn_idx, sbn_off, sync_send_nbr, sync_send_idx, sync_send_off,
        sync_recv_nbr, sync_recv_idx, sync_recv_off, monoq_nbr, monoq_idx, monoq_off,
        time, stoptime, dtfixed, deltatimemultlb, deltatimemultub, dtmax, max_cycles):
    """LULESH's main loop under MPI; returns the origin energy e[0] on rank 0, 0.0 elsewhere.

    The arguments are those of :func:`lagrange_leapfrog_mpi`, then the time
    fields of the Domain and ``max_cycles``.  Runs while ``time < stoptime`` and
    ``cycle < max_cycles``.  TimeIncrement as the C++ MPI build: each rank
    proposes ``gnewdt`` from its own (dtcourant, dthydro), the step is their
    ``Allreduce(MIN)`` (adtrans: the adjoint goes to the rank that set it).
    """
    dtcourant = dtc[0]
    dthydro = dtc[1]
    for _ in range(max_cycles - cycle):
        if time >= stoptime:
            break
        # ---- TimeIncrement
        targetdt = stoptime - time
        if dtfixed <= 0.0 and cycle != 0:
            olddt = deltatime
            gnewdt = 1.0e+20
            if dtcourant < gnewdt:
                gnewdt = dtcourant / 2.0
            if dthydro < gnewdt:
                gnewdt = dthydro * 2.0 / 3.0
            mine = np.zeros(1)
            mine[0] = gnewdt
            least = np.zeros(1)
            comm.Allreduce(mine, least, op=MPI.MIN)
            newdt = least[0]
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
        # ---- LagrangeLeapFrog
        lagrange_leapfrog_mpi(
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
            comm, hasSymmX, hasSymmY, hasSymmZ,
            sbn_nbr, sbn_idx, sbn_off, sync_send_nbr, sync_send_idx, sync_send_off,
            sync_recv_nbr, sync_recv_idx, sync_recv_off, monoq_nbr, monoq_idx, monoq_off)
        dtcourant = dtc[0]
        dthydro = dtc[1]
    if comm.Get_rank() == 0:
        return e[0]
    return 0.0


#: the time fields of the Domain after the step arguments of origin_energy_after_mpi
TIME_FIELDS = ("time", "stoptime", "dtfixed", "deltatimemultlb", "deltatimemultub", "dtmax")


def mpi_step_arguments(d, plan, comm):
    """The arguments of :func:`lagrange_leapfrog_mpi` for this rank (the Domain's own arrays)."""
    return (step_arguments(d) + [comm, d.hasSymmX, d.hasSymmY, d.hasSymmZ] + plan.arguments())


def mpi_origin_arguments(d, plan, comm, max_cycles):
    """The arguments of :func:`origin_energy_after_mpi` for this rank."""
    return mpi_step_arguments(d, plan, comm) + [getattr(d, f) for f in TIME_FIELDS] + [int(max_cycles)]


def run_mpi(nx, max_cycles, comm=None, numReg=11, balance=1, cost=1):
    """The primal run: ``-s nx -i max_cycles`` on ``comm``'s ranks; rank 0 gets e[0], others 0.0."""
    comm = MPI.COMM_WORLD if comm is None else comm
    d, plan = mpi_domain(nx, comm, numReg, balance, cost)
    return origin_energy_after_mpi(*mpi_origin_arguments(d, plan, comm, max_cycles))


if __name__ == "__main__":
    import argparse
    import time as _time
    ap = argparse.ArgumentParser(description="LULESH 2.0 under MPI (one cube per rank)")
    ap.add_argument("-s", dest="size", type=int, default=5, help="edge of each rank's cube")
    ap.add_argument("-i", dest="its", type=int, default=10, help="cycles")
    ap.add_argument("-r", dest="numReg", type=int, default=11)
    ap.add_argument("-b", dest="balance", type=int, default=1)
    ap.add_argument("-c", dest="cost", type=int, default=1)
    a = ap.parse_args()
    world = MPI.COMM_WORLD
    t0 = _time.perf_counter()
    e0 = run_mpi(a.size, a.its, world, a.numReg, a.balance, a.cost)
    if world.Get_rank() == 0:
        print("ranks %d, -s %d -i %d: origin energy %.17e (%.2f s)"
              % (world.Get_size(), a.size, a.its, e0, _time.perf_counter() - t0))

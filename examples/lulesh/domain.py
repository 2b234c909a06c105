"""The LULESH 2.0 problem set-up: mesh, connectivity, regions, initial state.

:class:`Domain` holds every field of the original ``Domain`` class as a
numpy array (float64 for real fields, int64 for indices) plus its scalar
parameters, built exactly as the serial/OpenMP (non-MPI) original builds it
for ``-s N -r numReg -b balance -c cost``: a cube of N^3 hexahedral elements
on [0, 1.125]^3, symmetry planes x=0, y=0, z=0 and free surfaces at 1.125,
and the Sedov blast energy deposited in element 0 at the origin.

The region assignment uses a re-implementation of glibc's ``rand()`` seeded
with ``srand(0)``, so the region element lists are those of the original run
on Linux.  (Regions only change the order in which elements are visited and
how often the EOS is re-evaluated, never a computed value.)

Scratch arrays that the original allocates inside the time step are
preallocated here once (``sigxx``, ``determ``, ``fx_elem``, ``dvdx``,
``x8n``, ``vnewc``, ...), so the step itself allocates nothing.
"""

import math

import numpy as np

from . import kernels as K

__all__ = ["Domain", "GlibcRandom"]


class GlibcRandom:
    """glibc's ``rand()`` (the TYPE_3 additive feedback generator).

    ``GlibcRandom(seed).rand()`` returns the same sequence of integers in
    [0, 2^31) as ``srand(seed); rand(); rand(); ...`` with glibc.
    """

    _DEG = 31
    _SEP = 3

    def __init__(self, seed=1):
        seed = seed & 0xFFFFFFFF
        if seed == 0:
            seed = 1
        state = [0] * self._DEG
        # glibc stores the seed as a signed 32-bit value
        word = seed - (1 << 32) if seed >= (1 << 31) else seed
        state[0] = word & 0xFFFFFFFF
        for i in range(1, self._DEG):
            # 16807 * word mod (2^31 - 1) by Schrage's method, with C's
            # truncating division
            hi = int(word / 127773)
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            state[i] = word & 0xFFFFFFFF
        self._state = state
        self._f = self._SEP
        self._r = 0
        for _ in range(10 * self._DEG):
            self._next()

    def _next(self):
        st = self._state
        val = (st[self._f] + st[self._r]) & 0xFFFFFFFF
        st[self._f] = val
        self._f += 1
        self._r += 1
        if self._f >= self._DEG:
            self._f = 0
        elif self._r >= self._DEG:
            self._r = 0
        return val >> 1

    def rand(self):
        """Next pseudo-random integer in [0, 2**31 - 1]."""
        return self._next()


class Domain:
    """All state of one LULESH domain (the single domain of a run without MPI).

    Node arrays (float64, length ``numNode`` = (N+1)^3): ``x, y, z``
    (position), ``xd, yd, zd`` (velocity), ``xdd, ydd, zdd`` (acceleration),
    ``fx, fy, fz`` (force), ``nodalMass``.

    Element arrays (length ``numElem`` = N^3): ``nodelist`` (numElem, 8)
    int64 corner nodes; face neighbours ``lxim, lxip, letam, letap, lzetam,
    lzetap`` (int64); ``elemBC`` (int64 bit mask as in the original) and its
    per-face split ``elemFaceBC`` (numElem, 6) int64 = ``elemBC & XI_M``,
    ``& XI_P``, ``& ETA_M``, ``& ETA_P``, ``& ZETA_M``, ``& ZETA_P``;
    float64 ``e`` (internal energy), ``p`` (pressure), ``q, ql, qq``
    (artificial viscosity and its linear/quadratic terms), ``v`` (relative
    volume), ``volo`` (reference volume), ``delv`` (change of v in the step),
    ``vdov`` (volumetric strain rate), ``arealg`` (characteristic length),
    ``ss`` (sound speed), ``elemMass``, ``vnew`` (new relative volume),
    ``delv_xi/eta/zeta``, ``delx_xi/eta/zeta`` (monotonic-Q gradients),
    ``dxx, dyy, dzz`` (deviatoric strain rates).

    Node-to-corner map: ``nodeElemStart`` (numNode+1,) and
    ``nodeElemCornerList`` (8*numElem,): the corners ``8*k + j`` touching
    node g are ``nodeElemCornerList[nodeElemStart[g]:nodeElemStart[g+1]]``,
    in increasing element order; ``nodeElemCornerElem`` and
    ``nodeElemCornerLocal`` hold the same list as (k, j) pairs.

    Corner scratch arrays (``fx_elem``, ``dvdx``, ``x8n``, ...) are
    (numElem, 8) float64, C order: the original's 8*numElem arrays with
    corner ``8*k + j`` at ``[k, j]``.

    Symmetry node sets ``symmX, symmY, symmZ`` ((N+1)^2,) int64.

    Regions: ``numReg``; ``regNumList`` (numElem,) region number (1-based) of
    each element; ``regElemList`` (numElem,) the element lists of all
    regions concatenated; region r is
    ``regElemList[regElemStart[r]:regElemStart[r] + regElemSize[r]]``
    (increasing element order);
    ``regRep`` (numReg,) how many times the EOS of region r is evaluated (the
    original's load-imbalance ``rep``).
    """

    def __init__(self, nx, numReg=11, balance=1, cost=1, rank=0, numRanks=1):
        if nx < 1:
            raise ValueError("problem size must be positive")
        tp = int(round(numRanks ** (1.0 / 3.0)))
        if tp ** 3 != numRanks or not 0 <= rank < numRanks:
            raise ValueError("LULESH needs a cube number of ranks (1, 8, 27, ...), got %d (rank %d)"
                             % (numRanks, rank))
        # InitMeshDecomp: rank -> (col, row, plane) of its cubic subdomain
        self.numRanks = numRanks
        self.myRank = rank
        self.colLoc = rank % tp
        self.rowLoc = (rank // tp) % tp
        self.planeLoc = rank // (tp * tp)
        self.tp = tp
        self.cost = cost
        self.balance = balance

        # cut-offs and constants of the original
        self.e_cut = 1.0e-7
        self.p_cut = 1.0e-7
        self.q_cut = 1.0e-7
        self.v_cut = 1.0e-10
        self.u_cut = 1.0e-7
        self.hgcoef = 3.0
        self.ss4o3 = 4.0 / 3.0
        self.qstop = 1.0e+12
        self.monoq_max_slope = 1.0
        self.monoq_limiter_mult = 2.0
        self.qlc_monoq = 0.5
        self.qqc_monoq = 2.0 / 3.0
        self.qqc = 2.0
        self.eosvmax = 1.0e+9
        self.eosvmin = 1.0e-9
        self.pmin = 0.0
        self.emin = -1.0e+15
        self.dvovmax = 0.1
        self.refdens = 1.0

        edgeElems = nx
        edgeNodes = edgeElems + 1
        self.sizeX = edgeElems
        self.sizeY = edgeElems
        self.sizeZ = edgeElems
        self.numElem = edgeElems ** 3
        self.numNode = edgeNodes ** 3
        numElem = self.numElem
        numNode = self.numNode

        f8 = np.float64
        # element-centred persistent fields
        self.e = np.zeros(numElem, f8)
        self.p = np.zeros(numElem, f8)
        self.q = np.zeros(numElem, f8)
        self.ql = np.zeros(numElem, f8)
        self.qq = np.zeros(numElem, f8)
        self.v = np.ones(numElem, f8)
        self.volo = np.zeros(numElem, f8)
        self.delv = np.zeros(numElem, f8)
        self.vdov = np.zeros(numElem, f8)
        self.arealg = np.zeros(numElem, f8)
        self.ss = np.zeros(numElem, f8)
        self.elemMass = np.zeros(numElem, f8)
        self.vnew = np.zeros(numElem, f8)
        # gradients and strains (temporaries of the original)
        # delv_* hold the face-neighbour ghost elements after the owned ones
        # (CommMonoQ; numGhostElem = 0 without MPI)
        self.numGhostElem = nx * nx * (
            (self.colLoc > 0) + (self.colLoc < tp - 1) + (self.rowLoc > 0)
            + (self.rowLoc < tp - 1) + (self.planeLoc > 0) + (self.planeLoc < tp - 1))
        allElem = numElem + self.numGhostElem
        self.delv_xi = np.zeros(allElem, f8)
        self.delv_eta = np.zeros(allElem, f8)
        self.delv_zeta = np.zeros(allElem, f8)
        self.delx_xi = np.zeros(numElem, f8)
        self.delx_eta = np.zeros(numElem, f8)
        self.delx_zeta = np.zeros(numElem, f8)
        self.dxx = np.zeros(numElem, f8)
        self.dyy = np.zeros(numElem, f8)
        self.dzz = np.zeros(numElem, f8)

        # node-centred fields
        self.x = np.zeros(numNode, f8)
        self.y = np.zeros(numNode, f8)
        self.z = np.zeros(numNode, f8)
        self.xd = np.zeros(numNode, f8)
        self.yd = np.zeros(numNode, f8)
        self.zd = np.zeros(numNode, f8)
        self.xdd = np.zeros(numNode, f8)
        self.ydd = np.zeros(numNode, f8)
        self.zdd = np.zeros(numNode, f8)
        self.fx = np.zeros(numNode, f8)
        self.fy = np.zeros(numNode, f8)
        self.fz = np.zeros(numNode, f8)
        self.nodalMass = np.zeros(numNode, f8)

        self._build_mesh(nx, edgeNodes, edgeElems)
        self._setup_node_elem_corners()
        self._create_region_index_sets(numReg, balance)
        self._setup_symmetry_planes(edgeNodes)
        self._setup_element_connectivities(edgeElems)
        self._setup_boundary_conditions(edgeElems)

        # time step controls
        self.dtfixed = -1.0e-6
        self.stoptime = 1.0e-2
        self.deltatimemultlb = 1.1
        self.deltatimemultub = 1.2
        self.dtcourant = 1.0e+20
        self.dthydro = 1.0e+20
        self.dtmax = 1.0e-2
        self.time = 0.0
        self.cycle = 0

        K.init_element_and_nodal_mass(self.nodelist, self.x, self.y, self.z,
                                      self.volo, self.elemMass, self.nodalMass,
                                      numElem)

        # Sedov blast: energy 3.948746e+7 is right for 45 elements per side;
        # it is scaled by the cube of the size ratio.
        ebase = 3.948746e+7
        scale = (nx * self.tp) / 45.0
        einit = ebase * scale * scale * scale
        if self.rowLoc + self.colLoc + self.planeLoc == 0:
            self.e[0] = einit
        self.einit = einit
        # first time step from an analytic CFL estimate
        self.deltatime = (0.5 * math.cbrt(self.volo[0])) / math.sqrt(2.0 * einit)

        # hourglass mode vectors (4, 8)
        self.gamma = np.array(
            [[1., 1., -1., -1., -1., -1., 1., 1.],
             [1., -1., -1., 1., -1., 1., 1., -1.],
             [1., -1., 1., -1., 1., -1., 1., -1.],
             [-1., 1., -1., 1., 1., -1., 1., -1.]], dtype=f8)

        # scratch space of the time step; the corner arrays are the
        # original's 8*numElem arrays as (numElem, 8): [k, j] = corner 8*k + j
        self.sigxx = np.zeros(numElem, f8)
        self.sigyy = np.zeros(numElem, f8)
        self.sigzz = np.zeros(numElem, f8)
        self.determ = np.zeros(numElem, f8)
        self.fx_elem = np.zeros((numElem, 8), f8)
        self.fy_elem = np.zeros((numElem, 8), f8)
        self.fz_elem = np.zeros((numElem, 8), f8)
        self.dvdx = np.zeros((numElem, 8), f8)
        self.dvdy = np.zeros((numElem, 8), f8)
        self.dvdz = np.zeros((numElem, 8), f8)
        self.x8n = np.zeros((numElem, 8), f8)
        self.y8n = np.zeros((numElem, 8), f8)
        self.z8n = np.zeros((numElem, 8), f8)
        # relative volumes bounded for the EOS
        self.vnewc = np.zeros(numElem, f8)

    # ------------------------------------------------------------------
    def _build_mesh(self, nx, edgeNodes, edgeElems):
        """Node coordinates on a uniform lattice and element-to-node lists."""
        meshEdgeElems = self.tp * nx
        # each coordinate is computed directly from its index (no running sum)
        cx = 1.125 * np.arange(self.colLoc * nx, self.colLoc * nx + edgeNodes,
                               dtype=np.float64) / float(meshEdgeElems)
        cy = 1.125 * np.arange(self.rowLoc * nx, self.rowLoc * nx + edgeNodes,
                               dtype=np.float64) / float(meshEdgeElems)
        cz = 1.125 * np.arange(self.planeLoc * nx,
                               self.planeLoc * nx + edgeNodes,
                               dtype=np.float64) / float(meshEdgeElems)
        # node index = col + edgeNodes * (row + edgeNodes * plane)
        self.x[:] = np.tile(cx, edgeNodes * edgeNodes)
        self.y[:] = np.tile(np.repeat(cy, edgeNodes), edgeNodes)
        self.z[:] = np.repeat(cz, edgeNodes * edgeNodes)

        e = np.arange(edgeElems)
        plane, row, col = np.meshgrid(e, e, e, indexing="ij")
        base = (col + edgeNodes * row + edgeNodes * edgeNodes * plane).ravel()
        en = edgeNodes
        en2 = edgeNodes * edgeNodes
        offsets = np.array([0, 1, en + 1, en, en2, en2 + 1, en2 + en + 1,
                            en2 + en], dtype=np.int64)
        self.nodelist = (base[:, None] + offsets[None, :]).astype(np.int64)

    def _setup_node_elem_corners(self):
        """Node -> element-corner map used by the force gathers."""
        numNode = self.numNode
        flat = self.nodelist.ravel()
        counts = np.bincount(flat, minlength=numNode)
        start = np.zeros(numNode + 1, dtype=np.int64)
        np.cumsum(counts, out=start[1:])
        # a stable sort of the corner numbers by node keeps, for every node,
        # its corners in increasing element order
        order = np.argsort(flat, kind="stable").astype(np.int64)
        if order.size and (order.min() < 0 or order.max() >= 8 * self.numElem):
            raise RuntimeError("nodeElemCornerList entry out of range")
        self.nodeElemStart = start
        self.nodeElemCornerList = order
        # the same list split into (element, local node) for the (numElem, 8)
        # corner arrays
        self.nodeElemCornerElem = order // 8
        self.nodeElemCornerLocal = order % 8

    def _create_region_index_sets(self, nr, balance):
        """Random region assignment of the original (srand(0), glibc rand)."""
        numElem = self.numElem
        # srand(myRank) under MPI, srand(0) without (glibc: the same as srand(1))
        myRank = self.myRank
        rng = GlibcRandom(myRank)
        self.numReg = nr
        regNumList = np.zeros(numElem, dtype=np.int64)
        if nr == 1:
            regNumList[:] = 1
        else:
            lastReg = -1
            costDenominator = 0
            regBinEnd = []
            for i in range(nr):
                # the original adds pow() (a double) into an int
                costDenominator = int(costDenominator + float(i + 1) ** balance)
                regBinEnd.append(costDenominator)
            nextIndex = 0
            while nextIndex < numElem:
                regionVar = rng.rand() % costDenominator
                i = 0
                while regionVar >= regBinEnd[i]:
                    i += 1
                regionNum = ((i + myRank) % nr) + 1
                while regionNum == lastReg:
                    regionVar = rng.rand() % costDenominator
                    i = 0
                    while regionVar >= regBinEnd[i]:
                        i += 1
                    regionNum = ((i + myRank) % nr) + 1
                binSize = rng.rand() % 1000
                if binSize < 773:
                    elements = rng.rand() % 15 + 1
                elif binSize < 937:
                    elements = rng.rand() % 16 + 16
                elif binSize < 970:
                    elements = rng.rand() % 32 + 32
                elif binSize < 974:
                    elements = rng.rand() % 64 + 64
                elif binSize < 978:
                    elements = rng.rand() % 128 + 128
                elif binSize < 981:
                    elements = rng.rand() % 256 + 256
                else:
                    elements = rng.rand() % 1537 + 512
                runto = min(nextIndex + elements, numElem)
                regNumList[nextIndex:runto] = regionNum
                nextIndex = runto
                lastReg = regionNum
        self.regNumList = regNumList
        regElemSize = np.bincount(regNumList - 1, minlength=nr).astype(np.int64)
        regElemStart = np.zeros(nr + 1, dtype=np.int64)
        np.cumsum(regElemSize, out=regElemStart[1:])
        self.regElemSize = regElemSize
        self.regElemStart = regElemStart
        # elements of each region in increasing order, regions one after another
        self.regElemList = np.argsort(regNumList, kind="stable").astype(np.int64)
        # load-imbalance repetition count of the EOS per region
        rep = np.zeros(nr, dtype=np.int64)
        for r in range(nr):
            if r < nr // 2:
                rep[r] = 1
            elif r < nr - (nr + 15) // 20:
                rep[r] = 1 + self.cost
            else:
                rep[r] = 10 * (1 + self.cost)
        self.regRep = rep

    def regElemlist(self, r):
        """Element numbers of region r (a view), in increasing order."""
        s = self.regElemStart[r]
        return self.regElemList[s:s + self.regElemSize[r]]

    def _setup_symmetry_planes(self, edgeNodes):
        """Node sets of the planes x=0 (symmX), y=0 (symmY), z=0 (symmZ)."""
        i = np.repeat(np.arange(edgeNodes, dtype=np.int64), edgeNodes)
        j = np.tile(np.arange(edgeNodes, dtype=np.int64), edgeNodes)
        self.symmZ = i * edgeNodes + j
        self.symmY = i * edgeNodes * edgeNodes + j
        self.symmX = i * edgeNodes * edgeNodes + j * edgeNodes
        # under MPI only the subdomains at the origin's faces have these planes
        self.hasSymmX = int(self.colLoc == 0)
        self.hasSymmY = int(self.rowLoc == 0)
        self.hasSymmZ = int(self.planeLoc == 0)

    def _setup_element_connectivities(self, edgeElems):
        """Face neighbours; an element on the mesh boundary is its own neighbour."""
        numElem = self.numElem
        idx = np.arange(numElem, dtype=np.int64)
        self.lxim = idx - 1
        self.lxim[0] = 0
        self.lxip = idx + 1
        self.lxip[numElem - 1] = numElem - 1
        self.letam = idx - edgeElems
        self.letam[:edgeElems] = idx[:edgeElems]
        self.letap = idx + edgeElems
        self.letap[numElem - edgeElems:] = idx[numElem - edgeElems:]
        e2 = edgeElems * edgeElems
        self.lzetam = idx - e2
        self.lzetam[:e2] = idx[:e2]
        self.lzetap = idx + e2
        self.lzetap[numElem - e2:] = idx[numElem - e2:]

    def _setup_boundary_conditions(self, edgeElems):
        """Symmetry / free-surface / communication flags of the boundary elements.

        A face towards a neighbouring subdomain (MPI) gets the ``*_COMM`` flag
        and its face-neighbour index points into the ghost elements after the
        owned ones, in the order zeta-, zeta+, eta-, eta+, xi-, xi+ of the
        neighbours that exist (SetupBoundaryConditions of lulesh-init.cc).
        """
        numElem = self.numElem
        tp = self.tp
        bc = np.zeros(numElem, dtype=np.int64)
        e2 = edgeElems * edgeElems
        ghost = {}
        pidx = numElem
        for name, has in (("zm", self.planeLoc > 0), ("zp", self.planeLoc < tp - 1),
                          ("ym", self.rowLoc > 0), ("yp", self.rowLoc < tp - 1),
                          ("xm", self.colLoc > 0), ("xp", self.colLoc < tp - 1)):
            if has:
                ghost[name] = pidx
                pidx += e2
        for i in range(edgeElems):
            planeInc = i * e2
            rowInc = i * edgeElems
            for j in range(edgeElems):
                if "zm" in ghost:
                    bc[rowInc + j] |= K.ZETA_M_COMM
                    self.lzetam[rowInc + j] = ghost["zm"] + rowInc + j
                else:
                    bc[rowInc + j] |= K.ZETA_M_SYMM
                k = rowInc + j + numElem - e2
                if "zp" in ghost:
                    bc[k] |= K.ZETA_P_COMM
                    self.lzetap[k] = ghost["zp"] + rowInc + j
                else:
                    bc[k] |= K.ZETA_P_FREE
                if "ym" in ghost:
                    bc[planeInc + j] |= K.ETA_M_COMM
                    self.letam[planeInc + j] = ghost["ym"] + rowInc + j
                else:
                    bc[planeInc + j] |= K.ETA_M_SYMM
                k = planeInc + j + e2 - edgeElems
                if "yp" in ghost:
                    bc[k] |= K.ETA_P_COMM
                    self.letap[k] = ghost["yp"] + rowInc + j
                else:
                    bc[k] |= K.ETA_P_FREE
                k = planeInc + j * edgeElems
                if "xm" in ghost:
                    bc[k] |= K.XI_M_COMM
                    self.lxim[k] = ghost["xm"] + rowInc + j
                else:
                    bc[k] |= K.XI_M_SYMM
                k = planeInc + j * edgeElems + edgeElems - 1
                if "xp" in ghost:
                    bc[k] |= K.XI_P_COMM
                    self.lxip[k] = ghost["xp"] + rowInc + j
                else:
                    bc[k] |= K.XI_P_FREE
        self.elemBC = bc
        self.elemFaceBC = np.stack(
            [bc & K.XI_M, bc & K.XI_P, bc & K.ETA_M, bc & K.ETA_P,
             bc & K.ZETA_M, bc & K.ZETA_P], axis=1).astype(np.int64)

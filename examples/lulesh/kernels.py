"""Numba kernels of the LULESH 2.0 Lagrangian hydrodynamics proxy application.

Every function here is written inside the subset that the adtrans AD tool
accepts:

* arguments are 1-D or 2-D numpy arrays plus int/float scalars;
* statements are scalar assignments, augmented assignments, tuple unpacking
  of scalars, element stores ``a[i] = v``, ``for`` over ``range``/``prange``,
  ``while``, ``if/elif/else`` and ``return`` of scalars or tuples of scalars;
* the only local arrays are ``np.empty(n)`` with a constant size;
* expressions use + - * /, comparisons, and/or/not, ``math.sqrt``,
  ``np.cbrt``, ``abs``, ``max``;
* a ``prange`` loop stores only into its own element: every store has the
  loop index as its first subscript (``a[i]``, ``a[i, j]``), also inside
  the helpers it calls, so no two iterations write the same entry.  Hence
  the corner arrays are (numElem, 8) rather than the original's flat
  8*numElem arrays (same memory layout), the per-region kernels of the
  original run over all elements (the per-element work does not depend on
  the region), and the few stores through index lists (symmetry planes)
  are in serial loops.

The arithmetic of each expression keeps the association of the C++ original
(left to right sums, the same grouping of products), and nothing is compiled
with fastmath, so every kernel reproduces the serial C++ program bit for bit.

Physical quantities are in the (dimensionless) code units of the Sedov blast
problem that LULESH solves: lengths in mesh units (the full mesh spans
[0, 1.125]^3), density relative to the reference density 1, energies per
unit reference volume.  All floating point arrays are float64; all index
arrays are int64.

Naming: node arrays have length ``numNode`` = (N+1)^3, element arrays length
``numElem`` = N^3, "corner" arrays shape (numElem, 8) (entry ``[k, j]`` is
local node ``j`` of element ``k``, corner ``8*k + j`` of the original).
``nodelist`` has shape (numElem, 8).
"""

import math

import numpy as np
from numba import njit, prange

# Boundary condition flags of an element face (the values the original keeps
# in its 18-bit elemBC mask, after masking out the face they belong to).
XI_M_SYMM = 0x00001
XI_M_FREE = 0x00002
XI_M_COMM = 0x00004
XI_P_SYMM = 0x00008
XI_P_FREE = 0x00010
XI_P_COMM = 0x00020
ETA_M_SYMM = 0x00040
ETA_M_FREE = 0x00080
ETA_M_COMM = 0x00100
ETA_P_SYMM = 0x00200
ETA_P_FREE = 0x00400
ETA_P_COMM = 0x00800
ZETA_M_SYMM = 0x01000
ZETA_M_FREE = 0x02000
ZETA_M_COMM = 0x04000
ZETA_P_SYMM = 0x08000
ZETA_P_FREE = 0x10000
ZETA_P_COMM = 0x20000

# Masks selecting the three flags of one face.
XI_M = 0x00007
XI_P = 0x00038
ETA_M = 0x001C0
ETA_P = 0x00E00
ZETA_M = 0x07000
ZETA_P = 0x38000


# ---------------------------------------------------------------------------
# Small element-local helpers (inlined by LLVM into the kernels)
# ---------------------------------------------------------------------------

@njit(cache=True)
def gather8(a, nodelist, k):
    """Values of node array ``a`` (numNode,) float64 at the 8 nodes of element ``k``.

    Returns a tuple of 8 floats in local node order 0..7.
    """
    return (a[nodelist[k, 0]], a[nodelist[k, 1]], a[nodelist[k, 2]],
            a[nodelist[k, 3]], a[nodelist[k, 4]], a[nodelist[k, 5]],
            a[nodelist[k, 6]], a[nodelist[k, 7]])


@njit(cache=True)
def store8(out, k, v0, v1, v2, v3, v4, v5, v6, v7):
    """Write 8 scalars into row ``k`` of a (numElem, 8) float64 corner array."""
    out[k, 0] = v0
    out[k, 1] = v1
    out[k, 2] = v2
    out[k, 3] = v3
    out[k, 4] = v4
    out[k, 5] = v5
    out[k, 6] = v6
    out[k, 7] = v7


@njit(cache=True)
def triple_product(x1, y1, z1, x2, y2, z2, x3, y3, z3):
    """Triple product (x1, x2, x3) . ((y1, y2, y3) x (z1, z2, z3)).

    The arguments come in the interleaved order the original uses, and the
    expansion is along x1, x2, x3 in that order.
    """
    return (x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3)
            + x3 * (y1 * z2 - z1 * y2))


@njit(cache=True)
def calc_elem_volume(x0, x1, x2, x3, x4, x5, x6, x7,
                     y0, y1, y2, y3, y4, y5, y6, y7,
                     z0, z1, z2, z3, z4, z5, z6, z7):
    """Volume of a hexahedron given its 8 corner coordinates (length^3).

    The hexahedron is split into three pieces, each a triple product of
    edge/diagonal differences, summed and divided by 12.
    """
    twelveth = 1.0 / 12.0

    dx61 = x6 - x1
    dy61 = y6 - y1
    dz61 = z6 - z1

    dx70 = x7 - x0
    dy70 = y7 - y0
    dz70 = z7 - z0

    dx63 = x6 - x3
    dy63 = y6 - y3
    dz63 = z6 - z3

    dx20 = x2 - x0
    dy20 = y2 - y0
    dz20 = z2 - z0

    dx50 = x5 - x0
    dy50 = y5 - y0
    dz50 = z5 - z0

    dx64 = x6 - x4
    dy64 = y6 - y4
    dz64 = z6 - z4

    dx31 = x3 - x1
    dy31 = y3 - y1
    dz31 = z3 - z1

    dx72 = x7 - x2
    dy72 = y7 - y2
    dz72 = z7 - z2

    dx43 = x4 - x3
    dy43 = y4 - y3
    dz43 = z4 - z3

    dx57 = x5 - x7
    dy57 = y5 - y7
    dz57 = z5 - z7

    dx14 = x1 - x4
    dy14 = y1 - y4
    dz14 = z1 - z4

    dx25 = x2 - x5
    dy25 = y2 - y5
    dz25 = z2 - z5

    t1 = triple_product(dx31 + dx72, dx63, dx20,
                        dy31 + dy72, dy63, dy20,
                        dz31 + dz72, dz63, dz20)
    t2 = triple_product(dx43 + dx57, dx64, dx70,
                        dy43 + dy57, dy64, dy70,
                        dz43 + dz57, dz64, dz70)
    t3 = triple_product(dx14 + dx25, dx61, dx50,
                        dy14 + dy25, dy61, dy50,
                        dz14 + dz25, dz61, dz50)
    volume = t1 + t2 + t3
    volume *= twelveth
    return volume


@njit(cache=True)
def calc_elem_shape_function_derivatives(x0, x1, x2, x3, x4, x5, x6, x7,
                                         y0, y1, y2, y3, y4, y5, y6, y7,
                                         z0, z1, z2, z3, z4, z5, z6, z7):
    """Shape function derivatives of a trilinear hexahedron at its centre.

    Returns ``(bx0, bx1, bx2, bx3, by0, by1, by2, by3, bz0, bz1, bz2, bz3,
    volume)``: the x, y and z derivatives for local nodes 0..3 (nodes 4..7
    are their negatives: b[4]=-b[2], b[5]=-b[3], b[6]=-b[0], b[7]=-b[1]) and
    the Jacobian determinant times 8, i.e. the element volume.
    """
    fjxxi = 0.125 * ((x6 - x0) + (x5 - x3) - (x7 - x1) - (x4 - x2))
    fjxet = 0.125 * ((x6 - x0) - (x5 - x3) + (x7 - x1) - (x4 - x2))
    fjxze = 0.125 * ((x6 - x0) + (x5 - x3) + (x7 - x1) + (x4 - x2))

    fjyxi = 0.125 * ((y6 - y0) + (y5 - y3) - (y7 - y1) - (y4 - y2))
    fjyet = 0.125 * ((y6 - y0) - (y5 - y3) + (y7 - y1) - (y4 - y2))
    fjyze = 0.125 * ((y6 - y0) + (y5 - y3) + (y7 - y1) + (y4 - y2))

    fjzxi = 0.125 * ((z6 - z0) + (z5 - z3) - (z7 - z1) - (z4 - z2))
    fjzet = 0.125 * ((z6 - z0) - (z5 - z3) + (z7 - z1) - (z4 - z2))
    fjzze = 0.125 * ((z6 - z0) + (z5 - z3) + (z7 - z1) + (z4 - z2))

    # cofactors of the Jacobian
    cjxxi = (fjyet * fjzze) - (fjzet * fjyze)
    cjxet = -(fjyxi * fjzze) + (fjzxi * fjyze)
    cjxze = (fjyxi * fjzet) - (fjzxi * fjyet)

    cjyxi = -(fjxet * fjzze) + (fjzet * fjxze)
    cjyet = (fjxxi * fjzze) - (fjzxi * fjxze)
    cjyze = -(fjxxi * fjzet) + (fjzxi * fjxet)

    cjzxi = (fjxet * fjyze) - (fjyet * fjxze)
    cjzet = -(fjxxi * fjyze) + (fjyxi * fjxze)
    cjzze = (fjxxi * fjyet) - (fjyxi * fjxet)

    bx0 = -cjxxi - cjxet - cjxze
    bx1 = cjxxi - cjxet - cjxze
    bx2 = cjxxi + cjxet - cjxze
    bx3 = -cjxxi + cjxet - cjxze

    by0 = -cjyxi - cjyet - cjyze
    by1 = cjyxi - cjyet - cjyze
    by2 = cjyxi + cjyet - cjyze
    by3 = -cjyxi + cjyet - cjyze

    bz0 = -cjzxi - cjzet - cjzze
    bz1 = cjzxi - cjzet - cjzze
    bz2 = cjzxi + cjzet - cjzze
    bz3 = -cjzxi + cjzet - cjzze

    volume = 8.0 * (fjxet * cjxet + fjyet * cjyet + fjzet * cjzet)
    return (bx0, bx1, bx2, bx3, by0, by1, by2, by3, bz0, bz1, bz2, bz3,
            volume)


@njit(cache=True)
def sum_elem_face_normal(x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3):
    """Quarter of the area vector of the quadrilateral face (0, 1, 2, 3).

    Returns ``(areaX, areaY, areaZ)``; each of the four face nodes receives
    this vector as its share of the face normal.
    """
    bisectX0 = 0.5 * (x3 + x2 - x1 - x0)
    bisectY0 = 0.5 * (y3 + y2 - y1 - y0)
    bisectZ0 = 0.5 * (z3 + z2 - z1 - z0)
    bisectX1 = 0.5 * (x2 + x1 - x3 - x0)
    bisectY1 = 0.5 * (y2 + y1 - y3 - y0)
    bisectZ1 = 0.5 * (z2 + z1 - z3 - z0)
    areaX = 0.25 * (bisectY0 * bisectZ1 - bisectZ0 * bisectY1)
    areaY = 0.25 * (bisectZ0 * bisectX1 - bisectX0 * bisectZ1)
    areaZ = 0.25 * (bisectX0 * bisectY1 - bisectY0 * bisectX1)
    return areaX, areaY, areaZ


@njit(cache=True)
def calc_elem_node_normals(x0, x1, x2, x3, x4, x5, x6, x7,
                           y0, y1, y2, y3, y4, y5, y6, y7,
                           z0, z1, z2, z3, z4, z5, z6, z7):
    """Area-weighted outward normals at the 8 nodes of a hexahedron.

    Returns 24 floats: ``pfx0..pfx7, pfy0..pfy7, pfz0..pfz7``.  Each node sums
    the shares of its three faces, starting from zero, in the face order
    (0123), (0451), (1562), (2673), (3740), (4765) of the original.
    """
    ax1, ay1, az1 = sum_elem_face_normal(x0, y0, z0, x1, y1, z1,
                                         x2, y2, z2, x3, y3, z3)
    ax2, ay2, az2 = sum_elem_face_normal(x0, y0, z0, x4, y4, z4,
                                         x5, y5, z5, x1, y1, z1)
    ax3, ay3, az3 = sum_elem_face_normal(x1, y1, z1, x5, y5, z5,
                                         x6, y6, z6, x2, y2, z2)
    ax4, ay4, az4 = sum_elem_face_normal(x2, y2, z2, x6, y6, z6,
                                         x7, y7, z7, x3, y3, z3)
    ax5, ay5, az5 = sum_elem_face_normal(x3, y3, z3, x7, y7, z7,
                                         x4, y4, z4, x0, y0, z0)
    ax6, ay6, az6 = sum_elem_face_normal(x4, y4, z4, x7, y7, z7,
                                         x6, y6, z6, x5, y5, z5)
    pfx0 = 0.0 + ax1 + ax2 + ax5
    pfx1 = 0.0 + ax1 + ax2 + ax3
    pfx2 = 0.0 + ax1 + ax3 + ax4
    pfx3 = 0.0 + ax1 + ax4 + ax5
    pfx4 = 0.0 + ax2 + ax5 + ax6
    pfx5 = 0.0 + ax2 + ax3 + ax6
    pfx6 = 0.0 + ax3 + ax4 + ax6
    pfx7 = 0.0 + ax4 + ax5 + ax6

    pfy0 = 0.0 + ay1 + ay2 + ay5
    pfy1 = 0.0 + ay1 + ay2 + ay3
    pfy2 = 0.0 + ay1 + ay3 + ay4
    pfy3 = 0.0 + ay1 + ay4 + ay5
    pfy4 = 0.0 + ay2 + ay5 + ay6
    pfy5 = 0.0 + ay2 + ay3 + ay6
    pfy6 = 0.0 + ay3 + ay4 + ay6
    pfy7 = 0.0 + ay4 + ay5 + ay6

    pfz0 = 0.0 + az1 + az2 + az5
    pfz1 = 0.0 + az1 + az2 + az3
    pfz2 = 0.0 + az1 + az3 + az4
    pfz3 = 0.0 + az1 + az4 + az5
    pfz4 = 0.0 + az2 + az5 + az6
    pfz5 = 0.0 + az2 + az3 + az6
    pfz6 = 0.0 + az3 + az4 + az6
    pfz7 = 0.0 + az4 + az5 + az6
    return (pfx0, pfx1, pfx2, pfx3, pfx4, pfx5, pfx6, pfx7,
            pfy0, pfy1, pfy2, pfy3, pfy4, pfy5, pfy6, pfy7,
            pfz0, pfz1, pfz2, pfz3, pfz4, pfz5, pfz6, pfz7)


@njit(cache=True)
def store8_stress(out, k, sig, p0, p1, p2, p3, p4, p5, p6, p7):
    """Corner forces of element ``k`` from one stress component.

    ``out[k, j] = -(sig * p_j)`` for the 8 node normal components p_j
    (out: (numElem, 8) float64).
    """
    out[k, 0] = -(sig * p0)
    out[k, 1] = -(sig * p1)
    out[k, 2] = -(sig * p2)
    out[k, 3] = -(sig * p3)
    out[k, 4] = -(sig * p4)
    out[k, 5] = -(sig * p5)
    out[k, 6] = -(sig * p6)
    out[k, 7] = -(sig * p7)


@njit(cache=True)
def volu_der(x0, x1, x2, x3, x4, x5,
             y0, y1, y2, y3, y4, y5,
             z0, z1, z2, z3, z4, z5):
    """Derivative of the hexahedron volume with respect to one node position.

    The six arguments per coordinate are the node's neighbours in the order
    the original passes them.  Returns ``(dvdx, dvdy, dvdz)`` (length^2).
    """
    twelfth = 1.0 / 12.0

    dvdx = ((y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2)
            + (y0 + y4) * (z3 + z4) - (y3 + y4) * (z0 + z4)
            - (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5))
    dvdy = (-(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2)
            - (x0 + x4) * (z3 + z4) + (x3 + x4) * (z0 + z4)
            + (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5))
    dvdz = (-(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2)
            - (y0 + y4) * (x3 + x4) + (y3 + y4) * (x0 + x4)
            + (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5))

    dvdx *= twelfth
    dvdy *= twelfth
    dvdz *= twelfth
    return dvdx, dvdy, dvdz


@njit(cache=True)
def area_face(x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3):
    """Squared-area measure of a quadrilateral face (length^4).

    |f|^2 |g|^2 - (f.g)^2 with f, g the differences of its two diagonals.
    """
    fx = (x2 - x0) - (x3 - x1)
    fy = (y2 - y0) - (y3 - y1)
    fz = (z2 - z0) - (z3 - z1)
    gx = (x2 - x0) + (x3 - x1)
    gy = (y2 - y0) + (y3 - y1)
    gz = (z2 - z0) + (z3 - z1)
    area = ((fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz)
            - (fx * gx + fy * gy + fz * gz) * (fx * gx + fy * gy + fz * gz))
    return area


@njit(cache=True)
def calc_elem_characteristic_length(x0, x1, x2, x3, x4, x5, x6, x7,
                                    y0, y1, y2, y3, y4, y5, y6, y7,
                                    z0, z1, z2, z3, z4, z5, z6, z7, volume):
    """Characteristic length of an element: 4 * volume / sqrt(largest face measure)."""
    charLength = 0.0
    a = area_face(x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3)
    charLength = max(a, charLength)
    a = area_face(x4, x5, x6, x7, y4, y5, y6, y7, z4, z5, z6, z7)
    charLength = max(a, charLength)
    a = area_face(x0, x1, x5, x4, y0, y1, y5, y4, z0, z1, z5, z4)
    charLength = max(a, charLength)
    a = area_face(x1, x2, x6, x5, y1, y2, y6, y5, z1, z2, z6, z5)
    charLength = max(a, charLength)
    a = area_face(x2, x3, x7, x6, y2, y3, y7, y6, z2, z3, z7, z6)
    charLength = max(a, charLength)
    a = area_face(x3, x0, x4, x7, y3, y0, y4, y7, z3, z0, z4, z7)
    charLength = max(a, charLength)
    charLength = 4.0 * volume / math.sqrt(charLength)
    return charLength


@njit(cache=True)
def grad_row(inv_detJ, p0, p1, p2, p3, v0, v1, v2, v3, v4, v5, v6, v7):
    """One entry of the velocity gradient: inv_detJ * sum_j p_j (v_j - v_opposite(j))."""
    return inv_detJ * (p0 * (v0 - v6) + p1 * (v1 - v7)
                       + p2 * (v2 - v4) + p3 * (v3 - v5))


@njit(cache=True)
def calc_elem_velocity_gradient(xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7,
                                yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7,
                                zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7,
                                bx0, bx1, bx2, bx3, by0, by1, by2, by3,
                                bz0, bz1, bz2, bz3, detJ):
    """Symmetric velocity gradient (rate of deformation, 1/time) of an element.

    Uses the node-0..3 shape function derivatives ``b`` of
    :func:`calc_elem_shape_function_derivatives`.  Returns ``(dxx, dyy, dzz,
    dyz, dxz, dxy)`` (the original's D[0..5]).
    """
    inv_detJ = 1.0 / detJ
    d0 = grad_row(inv_detJ, bx0, bx1, bx2, bx3,
                  xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7)
    d1 = grad_row(inv_detJ, by0, by1, by2, by3,
                  yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7)
    d2 = grad_row(inv_detJ, bz0, bz1, bz2, bz3,
                  zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7)
    dyddx = grad_row(inv_detJ, bx0, bx1, bx2, bx3,
                     yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7)
    dxddy = grad_row(inv_detJ, by0, by1, by2, by3,
                     xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7)
    dzddx = grad_row(inv_detJ, bx0, bx1, bx2, bx3,
                     zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7)
    dxddz = grad_row(inv_detJ, bz0, bz1, bz2, bz3,
                     xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7)
    dzddy = grad_row(inv_detJ, by0, by1, by2, by3,
                     zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7)
    dyddz = grad_row(inv_detJ, bz0, bz1, bz2, bz3,
                     yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7)
    d5 = 0.5 * (dxddy + dyddx)
    d4 = 0.5 * (dxddz + dzddx)
    d3 = 0.5 * (dzddy + dyddz)
    return d0, d1, d2, d3, d4, d5


@njit(cache=True)
def hourglass_mode_dot(v, k, g0, g1, g2, g3, g4, g5, g6, g7):
    """sum_j v[k, j] * g_j over the 8 corners of element k (left-to-right sum)."""
    return (v[k, 0] * g0 + v[k, 1] * g1 + v[k, 2] * g2
            + v[k, 3] * g3 + v[k, 4] * g4 + v[k, 5] * g5
            + v[k, 6] * g6 + v[k, 7] * g7)


@njit(cache=True)
def calc_elem_fb_hourglass_component(hourgam, v0, v1, v2, v3, v4, v5, v6, v7,
                                     coefficient, out, k):
    """Flanagan-Belytschko hourglass force of one velocity component.

    ``hourgam`` is the element's (8 x 4) hourglass base vector matrix stored
    row-major in a length-32 array (entry ``4*node + mode``); ``v0..v7`` the
    nodal velocity component.  Writes the 8 corner forces
    ``coefficient * hourgam (hourgam^T v)`` into row ``k`` of ``out``
    ((numElem, 8) float64).
    """
    h0 = (hourgam[0] * v0 + hourgam[4] * v1 + hourgam[8] * v2
          + hourgam[12] * v3 + hourgam[16] * v4 + hourgam[20] * v5
          + hourgam[24] * v6 + hourgam[28] * v7)
    h1 = (hourgam[1] * v0 + hourgam[5] * v1 + hourgam[9] * v2
          + hourgam[13] * v3 + hourgam[17] * v4 + hourgam[21] * v5
          + hourgam[25] * v6 + hourgam[29] * v7)
    h2 = (hourgam[2] * v0 + hourgam[6] * v1 + hourgam[10] * v2
          + hourgam[14] * v3 + hourgam[18] * v4 + hourgam[22] * v5
          + hourgam[26] * v6 + hourgam[30] * v7)
    h3 = (hourgam[3] * v0 + hourgam[7] * v1 + hourgam[11] * v2
          + hourgam[15] * v3 + hourgam[19] * v4 + hourgam[23] * v5
          + hourgam[27] * v6 + hourgam[31] * v7)
    for i in range(8):
        out[k, i] = coefficient * (hourgam[4 * i] * h0
                                   + hourgam[4 * i + 1] * h1
                                   + hourgam[4 * i + 2] * h2
                                   + hourgam[4 * i + 3] * h3)


@njit(cache=True)
def calc_pressure(e, compression, vnewc, pmin, p_cut, eosvmax):
    """Ideal-gas (gamma = 5/3) pressure of one element.

    Returns ``(p, bvc, pbvc)``: the pressure p = bvc * e with
    bvc = 2/3 (compression + 1), cut to zero below ``p_cut`` or when the
    relative volume reached ``eosvmax``, and floored at ``pmin``; bvc and its
    derivative pbvc = 2/3 are what the sound speed needs.
    """
    c1s = 2.0 / 3.0
    bvc = c1s * (compression + 1.0)
    pbvc = c1s
    p_new = bvc * e
    if abs(p_new) < p_cut:
        p_new = 0.0
    if vnewc >= eosvmax:
        p_new = 0.0
    if p_new < pmin:
        p_new = pmin
    return p_new, bvc, pbvc


@njit(cache=True)
def calc_artificial_q(pbvc, e, vv, bvc, p, rho0, ql_old, qq_old):
    """Artificial viscosity ``ssc * ql + qq`` with the sound speed
    ``ssc = sqrt((pbvc e + vv bvc p) / rho0)`` (floored at 0.3333333e-18);
    ``vv`` is the square of the relative volume used by the caller."""
    ssc = (pbvc * e + vv * bvc * p) / rho0
    if ssc <= 0.1111111e-36:
        ssc = 0.3333333e-18
    else:
        ssc = math.sqrt(ssc)
    return ssc * ql_old + qq_old


@njit(cache=True)
def calc_energy(p_old, e_old, q_old, compression, compHalfStep, vnewc, work,
                delvc, pmin, p_cut, e_cut, q_cut, emin, qq_old, ql_old, rho0,
                eosvmax):
    """Predictor-corrector energy update of one element (CalcEnergyForElems).

    A half-step energy and pressure, a full-step estimate, and a final
    correction, with the pressure evaluated three times by
    :func:`calc_pressure`.  Returns ``(p_new, e_new, q_new, bvc, pbvc)``
    where bvc/pbvc are those of the last pressure evaluation.
    """
    e_new = e_old - 0.5 * delvc * (p_old + q_old) + 0.5 * work
    if e_new < emin:
        e_new = emin

    pHalfStep, bvc, pbvc = calc_pressure(e_new, compHalfStep, vnewc, pmin,
                                         p_cut, eosvmax)

    vhalf = 1.0 / (1.0 + compHalfStep)
    if delvc > 0.0:
        q_new = 0.0
    else:
        q_new = calc_artificial_q(pbvc, e_new, vhalf * vhalf, bvc, pHalfStep,
                                  rho0, ql_old, qq_old)

    e_new = e_new + 0.5 * delvc * (3.0 * (p_old + q_old)
                                   - 4.0 * (pHalfStep + q_new))

    e_new += 0.5 * work
    if abs(e_new) < e_cut:
        e_new = 0.0
    if e_new < emin:
        e_new = emin

    p_new, bvc, pbvc = calc_pressure(e_new, compression, vnewc, pmin, p_cut,
                                     eosvmax)

    sixth = 1.0 / 6.0
    if delvc > 0.0:
        q_tilde = 0.0
    else:
        q_tilde = calc_artificial_q(pbvc, e_new, vnewc * vnewc, bvc, p_new,
                                    rho0, ql_old, qq_old)

    e_new = e_new - (7.0 * (p_old + q_old) - 8.0 * (pHalfStep + q_new)
                     + (p_new + q_tilde)) * delvc * sixth

    if abs(e_new) < e_cut:
        e_new = 0.0
    if e_new < emin:
        e_new = emin

    p_new, bvc, pbvc = calc_pressure(e_new, compression, vnewc, pmin, p_cut,
                                     eosvmax)

    if delvc <= 0.0:
        q_new = calc_artificial_q(pbvc, e_new, vnewc * vnewc, bvc, p_new,
                                  rho0, ql_old, qq_old)
        if abs(q_new) < q_cut:
            q_new = 0.0

    return p_new, e_new, q_new, bvc, pbvc


@njit(cache=True)
def monoq_neighbor(code, code_comm, code_symm, delv, ielem, nbr):
    """Velocity gradient seen across one element face for the Q limiter.

    ``code`` is the face's boundary flag: 0 or ``code_comm`` -> the
    neighbour's value ``delv[nbr]``, ``code_symm`` -> the element's own value,
    anything else (free surface) -> 0.
    """
    if code == 0 or code == code_comm:
        d = delv[nbr]
    elif code == code_symm:
        d = delv[ielem]
    else:
        d = 0.0
    return d


@njit(cache=True)
def monoq_limiter(delvm, delvp, norm, monoq_limiter_mult, monoq_max_slope):
    """Monotonic slope limiter phi in [0, monoq_max_slope] for one direction."""
    delvm = delvm * norm
    delvp = delvp * norm

    phi = 0.5 * (delvm + delvp)

    delvm *= monoq_limiter_mult
    delvp *= monoq_limiter_mult

    if delvm < phi:
        phi = delvm
    if delvp < phi:
        phi = delvp
    if phi < 0.0:
        phi = 0.0
    if phi > monoq_max_slope:
        phi = monoq_max_slope
    return phi


# ---------------------------------------------------------------------------
# LagrangeNodal kernels
# ---------------------------------------------------------------------------

@njit(parallel=True, cache=True)
def init_stress_terms_for_elems(p, q, sigxx, sigyy, sigzz, numElem):
    """Isotropic stress of each element: sig_ii = -p - q.

    p, q: (numElem,) pressure and artificial viscosity; sigxx/yy/zz:
    (numElem,) outputs.
    """
    for i in prange(numElem):
        s = -p[i] - q[i]
        sigxx[i] = s
        sigyy[i] = s
        sigzz[i] = s


@njit(parallel=True, cache=True)
def integrate_stress_for_elems(nodelist, x, y, z, sigxx, sigyy, sigzz, determ,
                               fx_elem, fy_elem, fz_elem, numElem):
    """Nodal forces from the element stresses, per element corner.

    For each element: volume (into ``determ`` (numElem,)), node normals, and
    the 8 corner forces -sig_ii * normal_i written into the corner arrays
    ``f?_elem`` ((numElem, 8) float64, the original's 8*numElem arrays:
    entry [k, j] is corner 8*k + j).  :func:`gather_stress_forces` sums them
    per node.
    """
    for k in prange(numElem):
        x0, x1, x2, x3, x4, x5, x6, x7 = gather8(x, nodelist, k)
        y0, y1, y2, y3, y4, y5, y6, y7 = gather8(y, nodelist, k)
        z0, z1, z2, z3, z4, z5, z6, z7 = gather8(z, nodelist, k)

        (bx0, bx1, bx2, bx3, by0, by1, by2, by3, bz0, bz1, bz2, bz3,
         vol) = calc_elem_shape_function_derivatives(
            x0, x1, x2, x3, x4, x5, x6, x7,
            y0, y1, y2, y3, y4, y5, y6, y7,
            z0, z1, z2, z3, z4, z5, z6, z7)
        determ[k] = vol

        (pfx0, pfx1, pfx2, pfx3, pfx4, pfx5, pfx6, pfx7,
         pfy0, pfy1, pfy2, pfy3, pfy4, pfy5, pfy6, pfy7,
         pfz0, pfz1, pfz2, pfz3, pfz4, pfz5, pfz6, pfz7) = calc_elem_node_normals(
            x0, x1, x2, x3, x4, x5, x6, x7,
            y0, y1, y2, y3, y4, y5, y6, y7,
            z0, z1, z2, z3, z4, z5, z6, z7)

        store8_stress(fx_elem, k, sigxx[k],
                      pfx0, pfx1, pfx2, pfx3, pfx4, pfx5, pfx6, pfx7)
        store8_stress(fy_elem, k, sigyy[k],
                      pfy0, pfy1, pfy2, pfy3, pfy4, pfy5, pfy6, pfy7)
        store8_stress(fz_elem, k, sigzz[k],
                      pfz0, pfz1, pfz2, pfz3, pfz4, pfz5, pfz6, pfz7)


@njit(parallel=True, cache=True)
def gather_stress_forces(nodeElemStart, cornerElem, cornerLocal, fx_elem, fy_elem,
                         fz_elem, fx, fy, fz, numNode):
    """Set each node's force (fx, fy, fz: (numNode,)) to the sum of its corner forces.

    The corners of node g are entries ``nodeElemStart[g]`` to
    ``nodeElemStart[g+1]-1`` of the node-to-corner list, given split into
    element ``cornerElem`` and local node ``cornerLocal`` ((8*numElem,) int64;
    the original's corner number is 8*cornerElem + cornerLocal).  They are
    added from zero in increasing element order, the order in which the
    serial program scatters them, so the sums are bit-identical to it.
    f?_elem: (numElem, 8) corner forces.
    """
    for g in prange(numNode):
        fxt = 0.0
        fyt = 0.0
        fzt = 0.0
        for c in range(nodeElemStart[g], nodeElemStart[g + 1]):
            k = cornerElem[c]
            j = cornerLocal[c]
            fxt += fx_elem[k, j]
            fyt += fy_elem[k, j]
            fzt += fz_elem[k, j]
        fx[g] = fxt
        fy[g] = fyt
        fz[g] = fzt


@njit(parallel=True, cache=True)
def calc_hourglass_control_for_elems(nodelist, x, y, z, volo, v, determ,
                                     dvdx, dvdy, dvdz, x8n, y8n, z8n, numElem):
    """Prepare the Flanagan-Belytschko hourglass control.

    Per element: the volume derivatives with respect to each node position
    (dvdx/dvdy/dvdz, (numElem, 8), length^2), copies of the corner
    coordinates (x8n/y8n/z8n, (numElem, 8)), and the current volume
    determ = volo * v ((numElem,), length^3).
    """
    for i in prange(numElem):
        x0, x1, x2, x3, x4, x5, x6, x7 = gather8(x, nodelist, i)
        y0, y1, y2, y3, y4, y5, y6, y7 = gather8(y, nodelist, i)
        z0, z1, z2, z3, z4, z5, z6, z7 = gather8(z, nodelist, i)

        dx0, dy0, dz0 = volu_der(x1, x2, x3, x4, x5, x7,
                                 y1, y2, y3, y4, y5, y7,
                                 z1, z2, z3, z4, z5, z7)
        dx3, dy3, dz3 = volu_der(x0, x1, x2, x7, x4, x6,
                                 y0, y1, y2, y7, y4, y6,
                                 z0, z1, z2, z7, z4, z6)
        dx2, dy2, dz2 = volu_der(x3, x0, x1, x6, x7, x5,
                                 y3, y0, y1, y6, y7, y5,
                                 z3, z0, z1, z6, z7, z5)
        dx1, dy1, dz1 = volu_der(x2, x3, x0, x5, x6, x4,
                                 y2, y3, y0, y5, y6, y4,
                                 z2, z3, z0, z5, z6, z4)
        dx4, dy4, dz4 = volu_der(x7, x6, x5, x0, x3, x1,
                                 y7, y6, y5, y0, y3, y1,
                                 z7, z6, z5, z0, z3, z1)
        dx5, dy5, dz5 = volu_der(x4, x7, x6, x1, x0, x2,
                                 y4, y7, y6, y1, y0, y2,
                                 z4, z7, z6, z1, z0, z2)
        dx6, dy6, dz6 = volu_der(x5, x4, x7, x2, x1, x3,
                                 y5, y4, y7, y2, y1, y3,
                                 z5, z4, z7, z2, z1, z3)
        dx7, dy7, dz7 = volu_der(x6, x5, x4, x3, x2, x0,
                                 y6, y5, y4, y3, y2, y0,
                                 z6, z5, z4, z3, z2, z0)

        store8(dvdx, i, dx0, dx1, dx2, dx3, dx4, dx5, dx6, dx7)
        store8(dvdy, i, dy0, dy1, dy2, dy3, dy4, dy5, dy6, dy7)
        store8(dvdz, i, dz0, dz1, dz2, dz3, dz4, dz5, dz6, dz7)
        store8(x8n, i, x0, x1, x2, x3, x4, x5, x6, x7)
        store8(y8n, i, y0, y1, y2, y3, y4, y5, y6, y7)
        store8(z8n, i, z0, z1, z2, z3, z4, z5, z6, z7)

        determ[i] = volo[i] * v[i]


@njit(parallel=True, cache=True)
def calc_fb_hourglass_force_for_elems(nodelist, xd, yd, zd, determ,
                                      x8n, y8n, z8n, dvdx, dvdy, dvdz,
                                      ss, elemMass, gamma, hourg,
                                      fx_elem, fy_elem, fz_elem, numElem):
    """Flanagan-Belytschko anti-hourglass corner forces.

    gamma: (4, 8) float64 hourglass mode vectors; hourg: hourglass
    coefficient (3.0 by default); ss, elemMass, determ: (numElem,) sound
    speed, mass, volume; the corner arrays are (numElem, 8).  Writes the
    corner forces into ``f?_elem`` for :func:`gather_hourglass_forces`.
    """
    for i2 in prange(numElem):
        volinv = 1.0 / determ[i2]
        hourgam = np.empty(32)
        for i1 in range(4):
            g0 = gamma[i1, 0]
            g1 = gamma[i1, 1]
            g2 = gamma[i1, 2]
            g3 = gamma[i1, 3]
            g4 = gamma[i1, 4]
            g5 = gamma[i1, 5]
            g6 = gamma[i1, 6]
            g7 = gamma[i1, 7]
            hourmodx = hourglass_mode_dot(x8n, i2, g0, g1, g2, g3, g4, g5, g6, g7)
            hourmody = hourglass_mode_dot(y8n, i2, g0, g1, g2, g3, g4, g5, g6, g7)
            hourmodz = hourglass_mode_dot(z8n, i2, g0, g1, g2, g3, g4, g5, g6, g7)
            for j in range(8):
                hourgam[4 * j + i1] = gamma[i1, j] - volinv * (
                    dvdx[i2, j] * hourmodx + dvdy[i2, j] * hourmody
                    + dvdz[i2, j] * hourmodz)

        ss1 = ss[i2]
        mass1 = elemMass[i2]
        volume13 = np.cbrt(determ[i2])

        xd0, xd1, xd2, xd3, xd4, xd5, xd6, xd7 = gather8(xd, nodelist, i2)
        yd0, yd1, yd2, yd3, yd4, yd5, yd6, yd7 = gather8(yd, nodelist, i2)
        zd0, zd1, zd2, zd3, zd4, zd5, zd6, zd7 = gather8(zd, nodelist, i2)

        coefficient = -hourg * 0.01 * ss1 * mass1 / volume13

        calc_elem_fb_hourglass_component(hourgam, xd0, xd1, xd2, xd3, xd4, xd5,
                                         xd6, xd7, coefficient, fx_elem, i2)
        calc_elem_fb_hourglass_component(hourgam, yd0, yd1, yd2, yd3, yd4, yd5,
                                         yd6, yd7, coefficient, fy_elem, i2)
        calc_elem_fb_hourglass_component(hourgam, zd0, zd1, zd2, zd3, zd4, zd5,
                                         zd6, zd7, coefficient, fz_elem, i2)


@njit(parallel=True, cache=True)
def gather_hourglass_forces(nodeElemStart, cornerElem, cornerLocal, fx_elem,
                            fy_elem, fz_elem, fx, fy, fz, numNode):
    """Add each node's hourglass corner forces to its force (fx, fy, fz: (numNode,)).

    The corners (see :func:`gather_stress_forces`) are added one by one onto
    the stress force already in ``fx`` in increasing element order, exactly
    as the serial program accumulates them, so the result is bit-identical
    to it.
    """
    for g in prange(numNode):
        fxt = fx[g]
        fyt = fy[g]
        fzt = fz[g]
        for c in range(nodeElemStart[g], nodeElemStart[g + 1]):
            k = cornerElem[c]
            j = cornerLocal[c]
            fxt += fx_elem[k, j]
            fyt += fy_elem[k, j]
            fzt += fz_elem[k, j]
        fx[g] = fxt
        fy[g] = fyt
        fz[g] = fzt


@njit(parallel=True, cache=True)
def calc_acceleration_for_nodes(fx, fy, fz, nodalMass, xdd, ydd, zdd, numNode):
    """Nodal accelerations a = f / m (all arrays (numNode,))."""
    for i in prange(numNode):
        xdd[i] = fx[i] / nodalMass[i]
        ydd[i] = fy[i] / nodalMass[i]
        zdd[i] = fz[i] / nodalMass[i]


@njit(cache=True)
def apply_acceleration_boundary_conditions_for_nodes(symmX, symmY, symmZ,
                                                     xdd, ydd, zdd, numNodeBC,
                                                     hasSymmX, hasSymmY,
                                                     hasSymmZ):
    """Zero the normal acceleration of the nodes on the three symmetry planes.

    symmX/Y/Z: (numNodeBC,) node numbers on the x=0, y=0, z=0 planes;
    hasSymm?: 1 if that node set exists (always, without MPI), else 0.
    The loops are serial: they touch only (N+1)^2 nodes each, and their
    writes go through the node sets, which a parallel loop could not show
    to be free of collisions.
    """
    if hasSymmX != 0:
        for i in range(numNodeBC):
            xdd[symmX[i]] = 0.0
    if hasSymmY != 0:
        for i in range(numNodeBC):
            ydd[symmY[i]] = 0.0
    if hasSymmZ != 0:
        for i in range(numNodeBC):
            zdd[symmZ[i]] = 0.0


@njit(parallel=True, cache=True)
def calc_velocity_for_nodes(xd, yd, zd, xdd, ydd, zdd, dt, u_cut, numNode):
    """Explicit velocity update v += a * dt, with |v| < u_cut set to zero."""
    for i in prange(numNode):
        xdtmp = xd[i] + xdd[i] * dt
        if abs(xdtmp) < u_cut:
            xdtmp = 0.0
        xd[i] = xdtmp

        ydtmp = yd[i] + ydd[i] * dt
        if abs(ydtmp) < u_cut:
            ydtmp = 0.0
        yd[i] = ydtmp

        zdtmp = zd[i] + zdd[i] * dt
        if abs(zdtmp) < u_cut:
            zdtmp = 0.0
        zd[i] = zdtmp


@njit(parallel=True, cache=True)
def calc_position_for_nodes(x, y, z, xd, yd, zd, dt, numNode):
    """Explicit position update x += v * dt (all arrays (numNode,))."""
    for i in prange(numNode):
        x[i] += xd[i] * dt
        y[i] += yd[i] * dt
        z[i] += zd[i] * dt


# ---------------------------------------------------------------------------
# LagrangeElements kernels
# ---------------------------------------------------------------------------

@njit(parallel=True, cache=True)
def calc_kinematics_for_elems(nodelist, x, y, z, xd, yd, zd, volo, v,
                              vnew, delv, arealg, dxx, dyy, dzz,
                              deltaTime, numElem):
    """Element kinematics after the nodal update.

    Writes per element (all (numElem,)): the new relative volume ``vnew``,
    its change ``delv = vnew - v``, the characteristic length ``arealg``, and
    the diagonal of the rate of deformation ``dxx, dyy, dzz`` (1/time)
    evaluated at the half-step positions x - dt/2 * xd.
    """
    for k in prange(numElem):
        x0, x1, x2, x3, x4, x5, x6, x7 = gather8(x, nodelist, k)
        y0, y1, y2, y3, y4, y5, y6, y7 = gather8(y, nodelist, k)
        z0, z1, z2, z3, z4, z5, z6, z7 = gather8(z, nodelist, k)

        volume = calc_elem_volume(x0, x1, x2, x3, x4, x5, x6, x7,
                                  y0, y1, y2, y3, y4, y5, y6, y7,
                                  z0, z1, z2, z3, z4, z5, z6, z7)
        relativeVolume = volume / volo[k]
        vnew[k] = relativeVolume
        delv[k] = relativeVolume - v[k]

        arealg[k] = calc_elem_characteristic_length(
            x0, x1, x2, x3, x4, x5, x6, x7,
            y0, y1, y2, y3, y4, y5, y6, y7,
            z0, z1, z2, z3, z4, z5, z6, z7, volume)

        xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7 = gather8(xd, nodelist, k)
        yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7 = gather8(yd, nodelist, k)
        zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7 = gather8(zd, nodelist, k)

        dt2 = 0.5 * deltaTime
        x0 -= dt2 * xv0
        x1 -= dt2 * xv1
        x2 -= dt2 * xv2
        x3 -= dt2 * xv3
        x4 -= dt2 * xv4
        x5 -= dt2 * xv5
        x6 -= dt2 * xv6
        x7 -= dt2 * xv7
        y0 -= dt2 * yv0
        y1 -= dt2 * yv1
        y2 -= dt2 * yv2
        y3 -= dt2 * yv3
        y4 -= dt2 * yv4
        y5 -= dt2 * yv5
        y6 -= dt2 * yv6
        y7 -= dt2 * yv7
        z0 -= dt2 * zv0
        z1 -= dt2 * zv1
        z2 -= dt2 * zv2
        z3 -= dt2 * zv3
        z4 -= dt2 * zv4
        z5 -= dt2 * zv5
        z6 -= dt2 * zv6
        z7 -= dt2 * zv7

        (bx0, bx1, bx2, bx3, by0, by1, by2, by3, bz0, bz1, bz2, bz3,
         detJ) = calc_elem_shape_function_derivatives(
            x0, x1, x2, x3, x4, x5, x6, x7,
            y0, y1, y2, y3, y4, y5, y6, y7,
            z0, z1, z2, z3, z4, z5, z6, z7)

        d0, d1, d2, d3, d4, d5 = calc_elem_velocity_gradient(
            xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7,
            yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7,
            zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7,
            bx0, bx1, bx2, bx3, by0, by1, by2, by3,
            bz0, bz1, bz2, bz3, detJ)

        dxx[k] = d0
        dyy[k] = d1
        dzz[k] = d2


@njit(parallel=True, cache=True)
def calc_lagrange_elements_strain(dxx, dyy, dzz, vdov, numElem):
    """Volumetric strain rate vdov = tr(D) (1/time) and the deviatoric D.

    All arrays (numElem,); dxx/dyy/dzz are updated in place.
    """
    for k in prange(numElem):
        vdovk = dxx[k] + dyy[k] + dzz[k]
        vdovthird = vdovk / 3.0
        vdov[k] = vdovk
        dxx[k] -= vdovthird
        dyy[k] -= vdovthird
        dzz[k] -= vdovthird


@njit(parallel=True, cache=True)
def calc_monotonic_q_gradients_for_elems(nodelist, x, y, z, xd, yd, zd,
                                         volo, vnew, delx_xi, delx_eta,
                                         delx_zeta, delv_xi, delv_eta,
                                         delv_zeta, numElem):
    """Position and velocity gradients along the three logical directions.

    For each element (outputs (numElem,)): ``delx_*`` the element thickness
    across the xi/eta/zeta faces (length) and ``delv_*`` the velocity
    difference across them normalised by the volume (1/time).
    """
    for i in prange(numElem):
        ptiny = 1.e-36

        x0, x1, x2, x3, x4, x5, x6, x7 = gather8(x, nodelist, i)
        y0, y1, y2, y3, y4, y5, y6, y7 = gather8(y, nodelist, i)
        z0, z1, z2, z3, z4, z5, z6, z7 = gather8(z, nodelist, i)
        xv0, xv1, xv2, xv3, xv4, xv5, xv6, xv7 = gather8(xd, nodelist, i)
        yv0, yv1, yv2, yv3, yv4, yv5, yv6, yv7 = gather8(yd, nodelist, i)
        zv0, zv1, zv2, zv3, zv4, zv5, zv6, zv7 = gather8(zd, nodelist, i)

        vol = volo[i] * vnew[i]
        norm = 1.0 / (vol + ptiny)

        dxj = -0.25 * ((x0 + x1 + x5 + x4) - (x3 + x2 + x6 + x7))
        dyj = -0.25 * ((y0 + y1 + y5 + y4) - (y3 + y2 + y6 + y7))
        dzj = -0.25 * ((z0 + z1 + z5 + z4) - (z3 + z2 + z6 + z7))

        dxi = 0.25 * ((x1 + x2 + x6 + x5) - (x0 + x3 + x7 + x4))
        dyi = 0.25 * ((y1 + y2 + y6 + y5) - (y0 + y3 + y7 + y4))
        dzi = 0.25 * ((z1 + z2 + z6 + z5) - (z0 + z3 + z7 + z4))

        dxk = 0.25 * ((x4 + x5 + x6 + x7) - (x0 + x1 + x2 + x3))
        dyk = 0.25 * ((y4 + y5 + y6 + y7) - (y0 + y1 + y2 + y3))
        dzk = 0.25 * ((z4 + z5 + z6 + z7) - (z0 + z1 + z2 + z3))

        # zeta direction: i cross j
        ax = dyi * dzj - dzi * dyj
        ay = dzi * dxj - dxi * dzj
        az = dxi * dyj - dyi * dxj

        delx_zeta[i] = vol / math.sqrt(ax * ax + ay * ay + az * az + ptiny)

        ax *= norm
        ay *= norm
        az *= norm

        dxv = 0.25 * ((xv4 + xv5 + xv6 + xv7) - (xv0 + xv1 + xv2 + xv3))
        dyv = 0.25 * ((yv4 + yv5 + yv6 + yv7) - (yv0 + yv1 + yv2 + yv3))
        dzv = 0.25 * ((zv4 + zv5 + zv6 + zv7) - (zv0 + zv1 + zv2 + zv3))

        delv_zeta[i] = ax * dxv + ay * dyv + az * dzv

        # xi direction: j cross k
        ax = dyj * dzk - dzj * dyk
        ay = dzj * dxk - dxj * dzk
        az = dxj * dyk - dyj * dxk

        delx_xi[i] = vol / math.sqrt(ax * ax + ay * ay + az * az + ptiny)

        ax *= norm
        ay *= norm
        az *= norm

        dxv = 0.25 * ((xv1 + xv2 + xv6 + xv5) - (xv0 + xv3 + xv7 + xv4))
        dyv = 0.25 * ((yv1 + yv2 + yv6 + yv5) - (yv0 + yv3 + yv7 + yv4))
        dzv = 0.25 * ((zv1 + zv2 + zv6 + zv5) - (zv0 + zv3 + zv7 + zv4))

        delv_xi[i] = ax * dxv + ay * dyv + az * dzv

        # eta direction: k cross i
        ax = dyk * dzi - dzk * dyi
        ay = dzk * dxi - dxk * dzi
        az = dxk * dyi - dyk * dxi

        delx_eta[i] = vol / math.sqrt(ax * ax + ay * ay + az * az + ptiny)

        ax *= norm
        ay *= norm
        az *= norm

        dxv = -0.25 * ((xv0 + xv1 + xv5 + xv4) - (xv3 + xv2 + xv6 + xv7))
        dyv = -0.25 * ((yv0 + yv1 + yv5 + yv4) - (yv3 + yv2 + yv6 + yv7))
        dzv = -0.25 * ((zv0 + zv1 + zv5 + zv4) - (zv3 + zv2 + zv6 + zv7))

        delv_eta[i] = ax * dxv + ay * dyv + az * dzv


@njit(cache=True)
def monotonic_q_elem(ielem, elemFaceBC, lxim, lxip, letam, letap, lzetam,
                     lzetap, delv_xi, delv_eta, delv_zeta, delx_xi, delx_eta,
                     delx_zeta, vdov, elemMass, volo, vnew, qq, ql,
                     monoq_limiter_mult, monoq_max_slope, qlc_monoq,
                     qqc_monoq, ptiny):
    """Monotonic Q terms ``qq[ielem]``, ``ql[ielem]`` of one element (see
    :func:`calc_monotonic_q_for_elems`)."""
    # xi direction
    norm = 1.0 / (delv_xi[ielem] + ptiny)
    delvm = monoq_neighbor(
        elemFaceBC[ielem, 0], 0x00004, 0x00001, delv_xi, ielem,
        lxim[ielem])  # codes XI_M_COMM, XI_M_SYMM
    delvp = monoq_neighbor(
        elemFaceBC[ielem, 1], 0x00020, 0x00008, delv_xi, ielem,
        lxip[ielem])  # codes XI_P_COMM, XI_P_SYMM
    phixi = monoq_limiter(delvm, delvp, norm, monoq_limiter_mult,
                          monoq_max_slope)

    # eta direction
    norm = 1.0 / (delv_eta[ielem] + ptiny)
    delvm = monoq_neighbor(
        elemFaceBC[ielem, 2], 0x00100, 0x00040, delv_eta, ielem,
        letam[ielem])  # codes ETA_M_COMM, ETA_M_SYMM
    delvp = monoq_neighbor(
        elemFaceBC[ielem, 3], 0x00800, 0x00200, delv_eta, ielem,
        letap[ielem])  # codes ETA_P_COMM, ETA_P_SYMM
    phieta = monoq_limiter(delvm, delvp, norm, monoq_limiter_mult,
                           monoq_max_slope)

    # zeta direction
    norm = 1.0 / (delv_zeta[ielem] + ptiny)
    delvm = monoq_neighbor(
        elemFaceBC[ielem, 4], 0x04000, 0x01000, delv_zeta, ielem,
        lzetam[ielem])  # codes ZETA_M_COMM, ZETA_M_SYMM
    delvp = monoq_neighbor(
        elemFaceBC[ielem, 5], 0x20000, 0x08000, delv_zeta, ielem,
        lzetap[ielem])  # codes ZETA_P_COMM, ZETA_P_SYMM
    phizeta = monoq_limiter(delvm, delvp, norm, monoq_limiter_mult,
                            monoq_max_slope)

    if vdov[ielem] > 0.0:
        qlin = 0.0
        qquad = 0.0
    else:
        delvxxi = delv_xi[ielem] * delx_xi[ielem]
        delvxeta = delv_eta[ielem] * delx_eta[ielem]
        delvxzeta = delv_zeta[ielem] * delx_zeta[ielem]

        if delvxxi > 0.0:
            delvxxi = 0.0
        if delvxeta > 0.0:
            delvxeta = 0.0
        if delvxzeta > 0.0:
            delvxzeta = 0.0

        rho = elemMass[ielem] / (volo[ielem] * vnew[ielem])

        qlin = -qlc_monoq * rho * (delvxxi * (1.0 - phixi)
                                   + delvxeta * (1.0 - phieta)
                                   + delvxzeta * (1.0 - phizeta))

        qquad = qqc_monoq * rho * (
            delvxxi * delvxxi * (1.0 - phixi * phixi)
            + delvxeta * delvxeta * (1.0 - phieta * phieta)
            + delvxzeta * delvxzeta * (1.0 - phizeta * phizeta))

    qq[ielem] = qquad
    ql[ielem] = qlin


@njit(parallel=True, cache=True)
def calc_monotonic_q_for_elems(elemFaceBC, lxim, lxip, letam, letap, lzetam,
                               lzetap, delv_xi, delv_eta, delv_zeta, delx_xi,
                               delx_eta, delx_zeta, vdov, elemMass, volo, vnew,
                               qq, ql, monoq_limiter_mult, monoq_max_slope,
                               qlc_monoq, qqc_monoq, ptiny, numElem):
    """Linear and quadratic monotonic artificial viscosity terms of all elements.

    The original evaluates this region by region; the computation of an
    element does not depend on its region, so one loop over all elements
    gives the same values.  ``elemFaceBC`` (numElem, 6) holds the boundary
    flag of the faces xi-, xi+, eta-, eta+, zeta-, zeta+ (the original's
    ``elemBC & XI_M`` etc.); ``l*`` (numElem,) are the face neighbours.
    Writes ``ql`` and ``qq`` (numElem,) (pressure units; ql is still to be
    multiplied by the sound speed).
    """
    for ielem in prange(numElem):
        monotonic_q_elem(ielem, elemFaceBC, lxim, lxip, letam, letap, lzetam,
                         lzetap, delv_xi, delv_eta, delv_zeta, delx_xi,
                         delx_eta, delx_zeta, vdov, elemMass, volo, vnew, qq,
                         ql, monoq_limiter_mult, monoq_max_slope, qlc_monoq,
                         qqc_monoq, ptiny)


@njit(parallel=True, cache=True)
def bound_relative_volumes(vnew, vnewc, eosvmin, eosvmax, numElem):
    """vnewc = vnew clamped to [eosvmin, eosvmax] (a bound of 0 is inactive)."""
    for i in prange(numElem):
        vc = vnew[i]
        if eosvmin != 0.0:
            if vc < eosvmin:
                vc = eosvmin
        if eosvmax != 0.0:
            if vc > eosvmax:
                vc = eosvmax
        vnewc[i] = vc


@njit(cache=True)
def eos_elem(e_old, delvc, p_old, q_old, qq_old, ql_old, vnc, eosvmin, eosvmax,
             pmin, p_cut, e_cut, q_cut, emin, rho0):
    """EOS of one element from its state at the start of the step.

    Computes the compression at the end and the middle of the step (with
    the eosvmin/eosvmax special cases of the original) and runs
    :func:`calc_energy`.  Returns ``(p_new, e_new, q_new, bvc, pbvc)``.
    """
    compression = 1.0 / vnc - 1.0
    vchalf = vnc - delvc * 0.5
    compHalfStep = 1.0 / vchalf - 1.0

    if eosvmin != 0.0:
        if vnc <= eosvmin:
            compHalfStep = compression
    if eosvmax != 0.0:
        if vnc >= eosvmax:
            p_old = 0.0
            compression = 0.0
            compHalfStep = 0.0

    work = 0.0

    p_new, e_new, q_new, bvc, pbvc = calc_energy(
        p_old, e_old, q_old, compression, compHalfStep, vnc, work, delvc,
        pmin, p_cut, e_cut, q_cut, emin, qq_old, ql_old, rho0, eosvmax)
    return p_new, e_new, q_new, bvc, pbvc


@njit(cache=True)
def sound_speed(pbvc, enew, vnewc, bvc, pnew, rho0):
    """Sound speed sqrt((pbvc e + vnewc^2 bvc p) / rho0), floored at 0.3333333e-18."""
    ssTmp = (pbvc * enew + vnewc * vnewc * bvc * pnew) / rho0
    if ssTmp <= 0.1111111e-36:
        ssTmp = 0.3333333e-18
    else:
        ssTmp = math.sqrt(ssTmp)
    return ssTmp


@njit(parallel=True, cache=True)
def eval_eos_for_elems(regNumList, regRep, e, delv, p, q, qq, ql, vnewc, ss,
                       eosvmin, eosvmax, pmin, p_cut, e_cut, q_cut, emin, rho0,
                       numElem):
    """Equation of state of every element: new p, e, q and sound speed ss.

    regNumList: (numElem,) region number (1-based) of each element; regRep:
    (numReg,) number of EOS evaluations of each region.  The original runs
    EvalEOSForElems region by region, evaluating region r ``regRep[r]``
    times (an artificial load imbalance) from the unchanged element state
    and storing the last result.  Here each element does its own region's
    ``rep`` evaluations and stores the last one; every element only reads
    and writes its own entries, so the values are the same.  Updates
    e, p, q, ss (numElem,) in place; delv, qq, ql, vnewc are inputs.
    """
    for ielem in prange(numElem):
        rep = regRep[regNumList[ielem] - 1]
        e_old = e[ielem]
        delvc = delv[ielem]
        p_old = p[ielem]
        q_old = q[ielem]
        qq_old = qq[ielem]
        ql_old = ql[ielem]
        vnc = vnewc[ielem]
        p_new = 0.0
        e_new = 0.0
        q_new = 0.0
        bvc = 0.0
        pbvc = 0.0
        for j in range(rep):
            p_new, e_new, q_new, bvc, pbvc = eos_elem(
                e_old, delvc, p_old, q_old, qq_old, ql_old, vnc, eosvmin,
                eosvmax, pmin, p_cut, e_cut, q_cut, emin, rho0)
        p[ielem] = p_new
        e[ielem] = e_new
        q[ielem] = q_new
        ss[ielem] = sound_speed(pbvc, e_new, vnc, bvc, p_new, rho0)


@njit(parallel=True, cache=True)
def update_volumes_for_elems(vnew, v, v_cut, numElem):
    """v = vnew, snapped to exactly 1 when |vnew - 1| < v_cut."""
    for i in prange(numElem):
        tmpV = vnew[i]
        if abs(tmpV - 1.0) < v_cut:
            tmpV = 1.0
        v[i] = tmpV


# ---------------------------------------------------------------------------
# Time step constraints (serial: the reduction order matches the original
# run on one thread)
# ---------------------------------------------------------------------------

@njit(cache=True)
def calc_courant_constraint_for_elems(regElemList, regStart, regSize, ss, vdov,
                                      arealg, qqc, dtcourant):
    """Courant time step limit over one region; returns the updated dtcourant.

    dt = arealg / sqrt(ss^2 + [vdov < 0] 64 qqc^2 arealg^2 vdov^2) over the
    elements with vdov != 0; ``dtcourant`` is returned unchanged when no
    element of the region lowers it.
    """
    qqc2 = 64.0 * qqc * qqc
    dtcourant_tmp = dtcourant
    courant_elem = -1
    for i in range(regSize):
        indx = regElemList[regStart + i]
        dtf = ss[indx] * ss[indx]
        if vdov[indx] < 0.0:
            dtf = dtf + qqc2 * arealg[indx] * arealg[indx] * vdov[indx] * vdov[indx]
        dtf = math.sqrt(dtf)
        dtf = arealg[indx] / dtf
        if vdov[indx] != 0.0:
            if dtf < dtcourant_tmp:
                dtcourant_tmp = dtf
                courant_elem = indx
    if courant_elem != -1:
        dtcourant = dtcourant_tmp
    return dtcourant


@njit(cache=True)
def calc_hydro_constraint_for_elems(regElemList, regStart, regSize, vdov,
                                    dvovmax, dthydro):
    """Volume-change time step limit dvovmax / |vdov| over one region.

    Returns the updated ``dthydro`` (unchanged if no element lowers it).
    """
    dthydro_tmp = dthydro
    hydro_elem = -1
    for i in range(regSize):
        indx = regElemList[regStart + i]
        if vdov[indx] != 0.0:
            dtdvov = dvovmax / (abs(vdov[indx]) + 1.e-20)
            if dthydro_tmp > dtdvov:
                dthydro_tmp = dtdvov
                hydro_elem = indx
    if hydro_elem != -1:
        dthydro = dthydro_tmp
    return dthydro


# ---------------------------------------------------------------------------
# Checks behind the original's exit(VolumeError) / exit(QStopError)
# ---------------------------------------------------------------------------

@njit(cache=True)
def first_index_at_most(a, n, bound):
    """Smallest i < n with a[i] <= bound, or -1 if there is none."""
    idx = -1
    i = 0
    while i < n and idx < 0:
        if a[i] <= bound:
            idx = i
        i += 1
    return idx


@njit(cache=True)
def first_index_above(a, n, bound):
    """Smallest i < n with a[i] > bound, or -1 if there is none."""
    idx = -1
    i = 0
    while i < n and idx < 0:
        if a[i] > bound:
            idx = i
        i += 1
    return idx


@njit(cache=True)
def first_nonpositive_bounded_volume(v, eosvmin, eosvmax, n):
    """Smallest i < n whose relative volume v[i], clamped to [eosvmin, eosvmax]
    (a bound of 0 is inactive), is <= 0; -1 if there is none."""
    idx = -1
    i = 0
    while i < n and idx < 0:
        vc = v[i]
        if eosvmin != 0.0:
            if vc < eosvmin:
                vc = eosvmin
        if eosvmax != 0.0:
            if vc > eosvmax:
                vc = eosvmax
        if vc <= 0.0:
            idx = i
        i += 1
    return idx


# ---------------------------------------------------------------------------
# Initialisation kernel (not part of the time step)
# ---------------------------------------------------------------------------

@njit(cache=True)
def init_element_and_nodal_mass(nodelist, x, y, z, volo, elemMass, nodalMass,
                                numElem):
    """Reference volumes, element masses (density 1) and lumped nodal masses.

    ``nodalMass`` (numNode,) must be zero on entry; each element adds 1/8 of
    its volume to its nodes, in element order as the original does.
    """
    for i in range(numElem):
        x0, x1, x2, x3, x4, x5, x6, x7 = gather8(x, nodelist, i)
        y0, y1, y2, y3, y4, y5, y6, y7 = gather8(y, nodelist, i)
        z0, z1, z2, z3, z4, z5, z6, z7 = gather8(z, nodelist, i)
        volume = calc_elem_volume(x0, x1, x2, x3, x4, x5, x6, x7,
                                  y0, y1, y2, y3, y4, y5, y6, y7,
                                  z0, z1, z2, z3, z4, z5, z6, z7)
        volo[i] = volume
        elemMass[i] = volume
        for j in range(8):
            idx = nodelist[i, j]
            nodalMass[idx] += volume / 8.0

# The compiled twin of sim.rules.deployment: a round base wholly within a zone. One file of
# move.pyx, which says what every twin holds to (this folder's files are named after the modules
# whose kernels they twin).

from libc.math cimport pow

_DEPLOYMENT_EDGES = []   # (sim.rules.deployment._edges, found when first needed)
# (sim.rules.polygons.BOUNDARY_EPS: a test holds the two equal)
DEPLOYMENT_BOUNDARY_EPS = 1e-7


cdef bint _on_segment_d(double px, double py, double a0, double a1, double b0, double b1, double eps) noexcept nogil:
    """polygons._on_segment's arithmetic: the point within eps of the closed segment a-b (its
    squares as Python's ``** 2``, C's pow of the magnitude, as CPython computes them)."""
    cdef double ab0 = b0 - a0, ab1 = b1 - a1, t, dx, dy
    cdef double L2 = pow(fabs(ab0), 2.0) + pow(fabs(ab1), 2.0)
    if L2 == 0:
        return pow(fabs(px - a0), 2.0) + pow(fabs(py - a1), 2.0) <= eps * eps
    t = ((px - a0) * ab0 + (py - a1) * ab1) / L2
    t = t if t > 0.0 else 0.0        # (Python's max(0.0, t): the first of equals)
    t = t if t < 1.0 else 1.0        # (min(1.0, t))
    dx = (a0 + t * ab0) - px
    dy = (a1 + t * ab1) - py
    return dx * dx + dy * dy <= eps * eps


cdef int _point_in_polygon_d(double x, double y, const double[:, :] p, double eps) noexcept nogil:
    """polygons.point_in_polygon's arithmetic: 1 strictly inside, 0 on the boundary (within
    eps), -1 outside."""
    cdef Py_ssize_t n = p.shape[0], i, j
    cdef double x0, y0, x1, y1, xc
    cdef bint inside = False
    if n == 1:
        return 0 if pow(fabs(p[0, 0] - x), 2.0) + pow(fabs(p[0, 1] - y), 2.0) <= eps * eps else -1
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if _on_segment_d(x, y, p[i, 0], p[i, 1], p[j, 0], p[j, 1], eps):
            return 0
    if n < 3:
        return -1
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0, y0, x1, y1 = p[i, 0], p[i, 1], p[j, 0], p[j, 1]
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xc > x:
                inside = not inside
    return 1 if inside else -1


def wholly_within(fp, zone):
    """deployment.wholly_within: for a round base, whether its centre is inside the zone or on
    its boundary (polygons.point_in_polygon's arithmetic) and at least its radius (less EPS) from
    every edge (each edge's clipped projection and np.hypot, as the reference's arrays compute
    them); for a hull (an oval's or a rectangle's core: geometry.core's, the reference's own
    polygon), whether its bounding circle is clear inside (_circle_clear_inside: the same centre
    test and edge distances, more than the radius and 1e-6), else polygons.polygon_inside's
    tests of its core in the zone: every vertex inside or on the boundary, no edge crossing a
    zone's edge by more than the boundary's eps, and three points along each edge inside. A zone
    of another type or a value that is no finite number is the reference's."""
    if not _DEPLOYMENT_EDGES:
        from sim.rules.deployment import _edges
        _DEPLOYMENT_EDGES.append(_edges)
    pts_, ab_, den_ = _DEPLOYMENT_EDGES[0](zone)
    if not _all_of((pts_, ab_, den_), F64) or pts_.ndim != 2 or ab_.ndim != 2 or den_.ndim != 1:
        return None
    cdef const double[:, :] pts = pts_
    cdef const double[:, :] ab = ab_
    cdef const double[:] den = den_
    cdef Py_ssize_t n = pts.shape[0], i
    if n == 0 or pts.shape[1] != 2 or ab.shape[0] != n or ab.shape[1] != 2 or den.shape[0] != n:
        return None
    if not (_finite(pts[:, 0]) and _finite(pts[:, 1]) and _finite(ab[:, 0]) and _finite(ab[:, 1]) and _finite(den)):
        return None
    if not (_bounded(pts[:, 0], 1e150) and _bounded(pts[:, 1], 1e150)):
        return None   # (no product overflows, no NaN made inside, which C's clip would not keep: the reference's)
    cdef bint round_ = fp.shape == "round"
    cdef double x = fp.x, y = fp.y, r = 0.5 * fp.length if round_ else fp.bounding_radius
    if not (-1e150 < x < 1e150 and -1e150 < y < 1e150 and -1e150 < r < 1e150):
        return None
    cdef int inside = _point_in_polygon_d(x, y, pts, DEPLOYMENT_BOUNDARY_EPS)
    if round_ and inside < 0:
        return False
    cdef double least = _edge_least(x, y, pts, ab, den) if (round_ or inside > 0) else 0.0
    if round_:
        return least >= r - EPS
    if inside > 0 and least > r + 1e-6:
        return True   # (_circle_clear_inside: the bounding circle clear inside, so is every part)
    if not _GEOMETRY_CORE:
        from sim.rules.geometry import core
        _GEOMETRY_CORE.append(core)
    q_ = _plain_polygon(_GEOMETRY_CORE[0](fp)[0])   # (regions.pxi's: no product overflows, no NaN made inside)
    if q_ is None:
        return None
    return _polygon_inside_d(q_, pts, DEPLOYMENT_BOUNDARY_EPS)


cdef double _edge_least(double x, double y, const double[:, :] pts, const double[:, :] ab,
                        const double[:] den) noexcept nogil:
    """The least distance from (x, y) to the zone's edges, as wholly_within's and
    _circle_clear_inside's arrays compute it: each edge's projection clipped to [0, 1], np.hypot
    of the offset to that point."""
    cdef Py_ssize_t i
    cdef double t, d, least = INFINITY
    for i in range(pts.shape[0]):
        t = ((x - pts[i, 0]) * ab[i, 0] + (y - pts[i, 1]) * ab[i, 1]) / den[i]
        t = _min(_max(t, 0.0), 1.0)
        d = hypot((pts[i, 0] + t * ab[i, 0]) - x, (pts[i, 1] + t * ab[i, 1]) - y)
        least = d if i == 0 else _min(least, d)
    return least


cdef inline double _orient_d(double p0, double p1, double q0, double q1, double r0, double r1) noexcept nogil:
    """polygons._orient's arithmetic."""
    return (q0 - p0) * (r1 - p1) - (q1 - p1) * (r0 - p0)


cdef bint _polygon_inside_d(const double[:, :] a, const double[:, :] b, double e) noexcept nogil:
    """polygons.polygon_inside's arithmetic: every vertex of ``a`` inside ``b`` or on its
    boundary, no edge of ``a`` crossing one of ``b`` by more than the boundary's eps at both
    (each orientation over the other edge's np.hypot length, 1.0 for a length of 0), and the
    points a quarter, a half and three quarters along each edge of ``a`` inside or on ``b``
    (``e``: the boundary's eps)."""
    cdef Py_ssize_t na = a.shape[0], nb = b.shape[0], i, j, i1, j1, q
    cdef double la, lb, d1, d2, d3, d4, t
    cdef double a00, a01, a10, a11, b00, b01, b10, b11
    for i in range(na):
        if _point_in_polygon_d(a[i, 0], a[i, 1], b, e) < 0:
            return False
    for i in range(na):
        i1 = i + 1 if i + 1 < na else 0
        a00, a01, a10, a11 = a[i, 0], a[i, 1], a[i1, 0], a[i1, 1]
        la = hypot(a10 - a00, a11 - a01)
        if la == 0.0:
            la = 1.0
        for j in range(nb):
            j1 = j + 1 if j + 1 < nb else 0
            b00, b01, b10, b11 = b[j, 0], b[j, 1], b[j1, 0], b[j1, 1]
            lb = hypot(b10 - b00, b11 - b01)
            if lb == 0.0:
                lb = 1.0
            d1 = _orient_d(b00, b01, b10, b11, a00, a01) / lb
            d2 = _orient_d(b00, b01, b10, b11, a10, a11) / lb
            d3 = _orient_d(a00, a01, a10, a11, b00, b01) / la
            d4 = _orient_d(a00, a01, a10, a11, b10, b11) / la
            if (((d1 > e and d2 < -e) or (d1 < -e and d2 > e))
                    and ((d3 > e and d4 < -e) or (d3 < -e and d4 > e))):
                return False
        for q in range(3):
            t = 0.25 if q == 0 else (0.5 if q == 1 else 0.75)
            if _point_in_polygon_d(a00 + t * (a10 - a00), a01 + t * (a11 - a01), b, e) < 0:
                return False
    return True

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
    """deployment.wholly_within, for a round base: whether its centre is inside the zone or on
    its boundary (polygons.point_in_polygon's arithmetic) and at least its radius (less EPS) from
    every edge (each edge's clipped projection and np.hypot, as the reference's arrays compute
    them). A base that is not round, a zone of another type or a value that is no finite number
    is the reference's."""
    if fp.shape != "round":
        return None
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
    cdef double x = fp.x, y = fp.y, r = 0.5 * fp.length, t, d, least = INFINITY
    if not (-1e150 < x < 1e150 and -1e150 < y < 1e150 and -1e150 < r < 1e150):
        return None
    if _point_in_polygon_d(x, y, pts, DEPLOYMENT_BOUNDARY_EPS) < 0:
        return False
    for i in range(n):
        t = ((x - pts[i, 0]) * ab[i, 0] + (y - pts[i, 1]) * ab[i, 1]) / den[i]
        t = _min(_max(t, 0.0), 1.0)
        d = hypot((pts[i, 0] + t * ab[i, 0]) - x, (pts[i, 1] + t * ab[i, 1]) - y)
        least = d if i == 0 else _min(least, d)
    return least >= r - EPS

# The compiled twins of sim.rules.movement.kernels: distances from points and segments to the
# terrain's polygons, the rows near a box, convex bases against polygons. One file of move.pyx,
# which says what every twin holds to (this folder's files are named after the modules whose
# kernels they twin).


cdef inline double _seg_poly_d(double ax, double ay, double bx, double by, _Edges ed, Py_ssize_t p) nogil:
    """The distance from the segment (ax, ay)-(bx, by) to the closed area of polygon ``p`` of
    ``ed``, 0 where the segment meets it (crosses an edge, or starts inside): segments_polys_
    distance's arithmetic for one entry (a NaN made inside is the caller's to find)."""
    cdef Py_ssize_t e0 = ed.starts[p], e1 = _edges_end(ed.starts, p, ed.E), e
    cdef double sx = bx - ax, sy = by - ay
    cdef double sl2 = sx * sx + sy * sy
    cdef double tax, tay, tbx, tby, px, py, t, qx, qy, x, o1, o2, o3, o4
    cdef double d2 = INFINITY
    cdef bint meet = False
    cdef long long crossings = 0
    for e in range(e0, e1):
        # the segment's ends to the edge, and the edge's start to the segment
        tax = ax - ed.vx[e]
        tay = ay - ed.vy[e]
        tbx = bx - ed.vx[e]
        tby = by - ed.vy[e]
        x = _min(_edge_d2(tax, tay, ed.ex[e], ed.ey[e], ed.el2[e]), _edge_d2(tbx, tby, ed.ex[e], ed.ey[e], ed.el2[e]))
        px = -tax
        py = -tay
        t = _clip01((px * sx + py * sy) / (sl2 if sl2 > 0 else 1.0))
        qx = px - t * sx
        qy = py - t * sy
        x = _min(x, qx * qx + qy * qy)
        d2 = x if e == e0 else _min(d2, x)
        # a proper crossing of the segment and the edge; the crossing number of a
        o1 = ed.ex[e] * tay - ed.ey[e] * tax
        o2 = ed.ex[e] * tby - ed.ey[e] * tbx
        o3 = sx * py - sy * px
        o4 = sx * (ed.wy[e] - ay) - sy * (ed.wx[e] - ax)
        if (o1 * o2) < 0 and (o3 * o4) < 0:
            meet = True
        if (ed.vy[e] <= ay and ed.wy[e] > ay and o1 > 0) or (ed.wy[e] <= ay and ed.vy[e] > ay and o1 < 0):
            crossings += 1
    return 0.0 if (meet or crossings % 2 == 1) else sqrt(d2)


def segments_polys_distance(a_, b_, es):
    """movement.kernels.segments_polys_distance: (K, P) from each segment a[k]-b[k] to the
    closed area of each polygon of ``es``, 0 where the segment meets it."""
    cdef _Edges ed = _edges(es)
    if ed is None or not _all_of((a_, b_), F64):
        return None
    cdef const double[:, :] a = a_
    cdef const double[:, :] b = b_
    cdef Py_ssize_t K = a.shape[0], P = ed.P
    out_ = np.empty((K, P))
    cdef double[:, ::1] out = out_
    cdef Py_ssize_t k, p
    if not (_finite(a[:, 0]) and _finite(a[:, 1]) and _finite(b[:, 0]) and _finite(b[:, 1])):
        return None
    for k in range(K):
        for p in range(P):
            out[k, p] = _seg_poly_d(a[k, 0], a[k, 1], b[k, 0], b[k, 1], ed, p)
            if out[k, p] != out[k, p]:
                return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return out_


cdef inline double _pt_poly_d(double cx, double cy, _Edges ed, Py_ssize_t p) noexcept nogil:
    """The distance from the point (cx, cy) to the closed area of polygon ``p`` of ``ed``, 0
    inside (the crossing number odd): points_polys_distance's arithmetic for one entry."""
    cdef Py_ssize_t e0 = ed.starts[p], e1 = _edges_end(ed.starts, p, ed.E), e
    cdef double tx, ty, x, o1, d2 = INFINITY
    cdef long long crossings = 0
    for e in range(e0, e1):
        tx = cx - ed.vx[e]
        ty = cy - ed.vy[e]
        x = _edge_d2(tx, ty, ed.ex[e], ed.ey[e], ed.el2[e])
        d2 = x if e == e0 else _min(d2, x)
        o1 = ed.ex[e] * ty - ed.ey[e] * tx
        if (ed.vy[e] <= cy and ed.wy[e] > cy and o1 > 0) or (ed.wy[e] <= cy and ed.vy[e] > cy and o1 < 0):
            crossings += 1
    return 0.0 if crossings % 2 == 1 else sqrt(d2)



cdef int _on_feature(double x, double y, double r, double lim, _Edges ed, const double[:, :] plo,
                     const double[:, :] phi) noexcept nogil:
    """A round base of radius ``r`` at (x, y) against the polygons of ``ed`` (their boxes
    ``plo``, ``phi``): 1 when its centre is less than ``lim`` from the closed area of one whose
    box meets the base's (feature_mask's boxes, then points_polys_distance's arithmetic), 0 when
    none is, -1 when a NaN is made inside (the reference's)."""
    cdef Py_ssize_t p
    cdef double d
    for p in range(ed.P):
        if not (x - r <= phi[p, 0] and x + r >= plo[p, 0] and y - r <= phi[p, 1] and y + r >= plo[p, 1]):
            continue
        d = _pt_poly_d(x, y, ed, p)
        if d != d:
            return -1
        if d < lim:
            return 1
    return 0

def points_polys_distance(c_, es):
    """movement.kernels.points_polys_distance: (K, P) from each point c[k] to the closed area
    of each polygon of ``es``, 0 inside."""
    cdef _Edges ed = _edges(es)
    if ed is None or not _all_of((c_,), F64):
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], P = ed.P
    out_ = np.empty((K, P))
    cdef double[:, ::1] out = out_
    cdef Py_ssize_t k, p
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    for k in range(K):
        for p in range(P):
            out[k, p] = _pt_poly_d(c[k, 0], c[k, 1], ed, p)
            if out[k, p] != out[k, p]:
                return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return out_


def rows_near_box(idx, cmin_, cmax_, bound_, reach_, rows_):
    """movement.kernels.rows_near_box: the ``rows`` whose body's box meets the box of the
    centres' bounds grown by ``bound + reach`` (and a hair), in order."""
    if (not _all_of((rows_,), INTP) or rows_.ndim != 1 or not _all_of((cmin_, cmax_), F64)
            or not isinstance(bound_, float) or not isinstance(reach_, float)):
        return None   # (numpy's own types would rule the arithmetic: the reference answers)
    cdef const Py_ssize_t[:] rows = rows_
    cdef double bound = bound_, reach = reach_
    cdef double pad = bound + reach + 1e-6
    cdef double lo0 = float(cmin_[0]) - pad, lo1 = float(cmin_[1]) - pad
    cdef double hi0 = float(cmax_[0]) + pad, hi1 = float(cmax_[1]) + pad
    xlo_, xhi_, ylo_, yhi_ = idx.boxes()
    if not _all_of((xlo_, xhi_, ylo_, yhi_), F64):
        return None
    cdef const double[:] xlo = xlo_
    cdef const double[:] xhi = xhi_
    cdef const double[:] ylo = ylo_
    cdef const double[:] yhi = yhi_
    cdef Py_ssize_t n = rows.shape[0], i, r, m = 0
    if not _indices(rows, xlo.shape[0]):
        return None
    out_ = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] out = out_
    for i in range(n):
        r = rows[i]
        if xhi[r] >= lo0 and xlo[r] <= hi0 and yhi[r] >= lo1 and ylo[r] <= hi1:
            out[m] = r
            m += 1
    return out_[:m]


cdef inline double _orient(double p0x, double p0y, double p1x, double p1y, double qx, double qy) nogil:
    """The reference's orient_n of one entry: q's signed distance from the line p0 -> p1 (its
    cross product over the edge's length, 1.0 for an edge of no length)."""
    cdef double ex = p1x - p0x, ey = p1y - p0y
    cdef double ln = hypot(ex, ey)
    return (ex * (qy - p0y) - ey * (qx - p0x)) / (ln if ln > 0 else 1.0)


cdef inline bint _crosses(double a, double b, double tol) nogil:
    """One segment's ends clear of the other's line on both sides, by more than ``tol``."""
    return (a > tol and b < -tol) or (a < -tol and b > tol)


def convex_penetrates_polygon(H_, poly, tol_=None):
    """movement.kernels._convex_penetrates_polygon: whether the ccw convex polygon H shares area
    with the simple polygon ``poly`` (edges pts -> nxt) by more than ``tol``: a vertex of H or its
    vertices' mean inside the polygon (even-odd) and more than tol from every edge; a vertex of
    the polygon more than tol inside H; or two edges crossing properly. The reference's
    arithmetic entry by entry (the mean a sum from +0.0 row by row, as numpy's over the first
    axis of a C-ordered array: another layout may be summed pairwise, so H in another is
    the reference's); places that are no finite number, or large enough to overflow, are the
    reference's, and so are a call without ``tol`` (its default is the reference's) and a
    ``tol`` below 0."""
    try:
        v_, w_ = poly.pts, poly.nxt
    except AttributeError:
        return None
    if (not _all_of((H_, v_, w_), F64) or H_.ndim != 2 or v_.ndim != 2 or w_.ndim != 2
            or type(tol_) is not float):
        return None
    if not tol_ >= 0.0:
        return None   # (a tolerance below nothing, or NaN, is no touch: the reference's)
    if not H_.flags.c_contiguous:
        return None   # (numpy's mean over the first axis of another layout may sum pairwise)
    cdef const double[:, :] H = H_
    cdef const double[:, :] v = v_
    cdef const double[:, :] w = w_
    cdef Py_ssize_t m = H.shape[0], E = v.shape[0], i, j, e
    if (m == 0 or E == 0 or H.shape[1] != 2 or v.shape[1] != 2 or w.shape[1] != 2 or w.shape[0] != E
            or not (_bounded(H[:, 0], 1e150) and _bounded(H[:, 1], 1e150) and _bounded(v[:, 0], 1e150)
                    and _bounded(v[:, 1], 1e150) and _bounded(w[:, 0], 1e150) and _bounded(w[:, 1], 1e150))):
        return None
    cdef double tol = tol_, x, y, den, xc, sx = 0.0, sy = 0.0
    cdef double abx, aby, d2, best, val, ln, ex, ey
    cdef Py_ssize_t crossings
    for i in range(m):
        sx = sx + H[i, 0]
        sy = sy + H[i, 1]
    sx = sx / <double>m
    sy = sy / <double>m
    # a vertex of H (then their mean) inside the polygon and farther than tol from its edges
    for i in range(m + 1):
        if i < m:
            x, y = H[i, 0], H[i, 1]
        else:
            x, y = sx, sy
        crossings = 0
        for e in range(E):
            den = w[e, 1] - v[e, 1]
            xc = v[e, 0] + ((y - v[e, 1]) * (w[e, 0] - v[e, 0])) / (den if den != 0 else 1.0)
            if ((v[e, 1] > y) != (w[e, 1] > y)) and xc > x:
                crossings += 1
        if crossings % 2 == 0:
            continue
        for e in range(E):
            abx = w[e, 0] - v[e, 0]
            aby = w[e, 1] - v[e, 1]
            den = abx * abx + aby * aby
            d2 = sqrt(_edge_d2(x - v[e, 0], y - v[e, 1], abx, aby, den if den > 0 else 1.0))
            best = d2 if e == 0 else _min(best, d2)
        if best > tol:
            return True
    # a vertex of the polygon more than tol inside H (its least inward edge distance)
    if m >= 3:
        for e in range(E):
            for i in range(m):
                j = i + 1 if i + 1 < m else 0
                ex = H[j, 0] - H[i, 0]
                ey = H[j, 1] - H[i, 1]
                ln = hypot(ex, ey)
                val = (ex * (v[e, 1] - H[i, 1]) - ey * (v[e, 0] - H[i, 0])) / (ln if ln > 0 else 1.0)
                best = val if i == 0 else _min(best, val)
            if best > tol:
                return True
    # an edge of H and an edge of the polygon crossing properly
    for i in range(m):
        j = i + 1 if i + 1 < m else 0
        for e in range(E):
            if (_crosses(_orient(v[e, 0], v[e, 1], w[e, 0], w[e, 1], H[i, 0], H[i, 1]),
                         _orient(v[e, 0], v[e, 1], w[e, 0], w[e, 1], H[j, 0], H[j, 1]), tol)
                    and _crosses(_orient(H[i, 0], H[i, 1], H[j, 0], H[j, 1], v[e, 0], v[e, 1]),
                                 _orient(H[i, 0], H[i, 1], H[j, 0], H[j, 1], w[e, 0], w[e, 1]), tol)):
                return True
    return False


cdef inline double _pt_convex_d(double px, double py, const double[:, :] q) noexcept nogil:
    """_points_convex_distance's arithmetic for the point (px, py) against the polygon ``q``
    (one vertex or more): _pt_convex_s over its rows."""
    return _pt_convex_s(px, py, <const char*>&q[0, 0], <const char*>&q[0, 1], q.shape[0], q.strides[0])


cdef enum:
    _S = sizeof(double)   # (the stride of a plain array of doubles, in bytes)


cdef inline double _pt_hull(double px, double py, const double* x, const double* y, Py_ssize_t n) noexcept nogil:
    """_pt_convex_s of a polygon held as two plain arrays (a hull's core, or the region it sweeps)."""
    return _pt_convex_s(px, py, <const char*>x, <const char*>y, n, _S)


cdef inline double _at(const char* base, Py_ssize_t k, Py_ssize_t stride) noexcept nogil:
    return (<const double*>(base + k * stride))[0]


cdef double _pt_convex_s(double px, double py, const char* x, const char* y, Py_ssize_t m,
                         Py_ssize_t stride) noexcept nogil:
    """_points_convex_distance's arithmetic for the point (px, py) against the polygon of the m
    vertices whose coordinates lie ``stride`` bytes apart from ``x`` and ``y`` (a memoryview's
    rows; 8 for plain arrays, _S): one vertex, the hypot to it; else the root of the least
    squared edge distance (_ab_dist2's operations: t clipped to [0, 1], the edge's length
    squared 1.0 where it is 0), and 0.0 for a point no edge has on its right (three vertices or
    more: ex * wy >= ey * wx at every edge)."""
    cdef Py_ssize_t e, f
    cdef double ax, ay, ex, ey, wx, wy, den, d2, best = 0.0
    cdef bint inside
    if m == 1:
        return hypot(px - _at(x, 0, stride), py - _at(y, 0, stride))
    inside = m >= 3
    for e in range(m):
        f = e + 1 if e + 1 < m else 0
        ax, ay = _at(x, e, stride), _at(y, e, stride)
        ex = _at(x, f, stride) - ax
        ey = _at(y, f, stride) - ay
        wx = px - ax
        wy = py - ay
        den = ex * ex + ey * ey
        d2 = _edge_d2(wx, wy, ex, ey, den if den > 0 else 1.0)
        best = d2 if e == 0 else _min(best, d2)
        if inside and not (wy * ex >= wx * ey):
            inside = False
    return 0.0 if inside else sqrt(best)


cdef bint _convex_rows(const double[:, :] p, const double[:, :] q, double[:] out) noexcept nogil:
    """_pt_convex_d of each point of ``p`` against the polygon ``q``, into ``out``; False where a
    root is no number (the reference's, sign bit and all)."""
    cdef Py_ssize_t k
    for k in range(p.shape[0]):
        out[k] = _pt_convex_d(p[k, 0], p[k, 1], q)
        if out[k] != out[k]:
            return False
    return True


def points_convex_distance(p_, poly_):
    """movement.kernels._points_convex_distance: (K,) from each point to the closed area of the
    ccw convex polygon ``poly`` (one vertex or more)."""
    if not (_plain_xy(p_, 0) and _plain_xy(poly_, 1)):
        return None
    out_ = np.empty(p_.shape[0])
    if not _convex_rows(p_, poly_, out_):
        return None
    return out_


def points_convexes_distance(p_, polys):
    """movement.kernels.points_convexes_distance: (len(polys), K), row h
    _points_convex_distance of the points to ``polys[h]`` (each entry its polygon's own
    arithmetic, as the reference's groups of polygons of one vertex count give it)."""
    if not _plain_xy(p_, 0):
        return None
    polys = list(polys)
    for q in polys:
        if not _plain_xy(q, 1):
            return None
    out_ = np.empty((len(polys), p_.shape[0]))
    cdef double[:, ::1] out = out_
    cdef Py_ssize_t h
    for h in range(len(polys)):
        if not _convex_rows(p_, polys[h], out[h]):
            return None
    return out_


def fps_to_rows(fps, idx, rows_):
    """movement.kernels.fps_to_rows, for round bases: (len(fps), len(rows)) the edge-to-edge
    distance from each footprint to each body ``rows`` of ``idx``, each entry to a round body
    disc_distances' arithmetic (the root of the squares, less each radius, at least 0), to a
    hull points_convexes_distance's (the centre's _points_convex_distance to idx.core's polygon,
    less the radius, at least 0). A base that is not round, an input of another type or a value
    that is no finite number is the reference's."""
    if not _all_of((rows_,), INTP) or rows_.ndim != 1:
        return None
    cdef const Py_ssize_t[:] rows = rows_
    cdef Py_ssize_t n = len(fps), m = rows.shape[0], i, k, j
    if n == 0 or m == 0:
        return np.empty((n, m))
    cdef _Bodies b = _bodies(idx)
    if b is None or not _indices(rows, b.N):
        return None
    cores = [None] * m   # (a hull's core, idx.core's: points_convexes_distance's polygon)
    for k in range(m):
        j = rows[k]
        if not b.rnd[j]:
            cores[k] = _plain_polygon(idx.core(int(j)))   # (regions.pxi's)
            if cores[k] is None:
                return None
        elif not (-1e150 < b.centres[j, 0] < 1e150 and -1e150 < b.centres[j, 1] < 1e150
                  and -1e150 < b.radius[j] < 1e150):
            return None
    out_ = np.empty((n, m))
    cdef double[:, ::1] out = out_
    cdef double x, y, r, dx, dy
    cdef const double[:, :] q
    i = 0
    for f in fps:
        if f.shape != "round":
            return None
        x, y, r = f.x, f.y, 0.5 * f.length
        if not (-1e150 < x < 1e150 and -1e150 < y < 1e150 and -1e150 < r < 1e150):
            return None
        for k in range(m):
            j = rows[k]
            if b.rnd[j]:
                dx = x - b.centres[j, 0]
                dy = y - b.centres[j, 1]
                out[i, k] = _max((sqrt(dx * dx + dy * dy) - r) - b.radius[j], 0.0)
            else:   # (the centre's _points_convex_distance to the core, less the radius)
                q = cores[k]
                out[i, k] = _max(_pt_convex_d(x, y, q) - r, 0.0)
        i += 1
    return out_


cdef int _least_gaps(const double[:, :] c, double r, _Bodies b, const Py_ssize_t[:] rows,
                     double[::1] out) except -1:
    """For each centre of ``c`` (K, 2), the least edge distance from a round base of radius
    ``r`` there to the bodies ``rows`` of ``b``: distances_from's round-to-round step
    (disc_distances' arithmetic, ``_max((root - r) - radius, 0)``), then the least of each row
    (``.min(axis=1)``), into ``out``. 1 where the reference answers instead: no rows (its
    minimum raises), an index out of range, a body that is not round (placed_distances' cores)
    or a centre or radius that is no finite number within a table's size; else 0."""
    cdef Py_ssize_t K = c.shape[0], M = rows.shape[0], k, i, j
    cdef double dx, dy, g, least
    if M == 0 or not _indices(rows, b.N):
        return 1
    for i in range(M):
        j = rows[i]
        if not b.rnd[j] or not (-1e6 < b.centres[j, 0] < 1e6 and -1e6 < b.centres[j, 1] < 1e6
                                and 0.0 <= b.radius[j] < 1e6):
            return 1
    for k in range(K):
        least = INFINITY
        for i in range(M):
            j = rows[i]
            dx = c[k, 0] - b.centres[j, 0]
            dy = c[k, 1] - b.centres[j, 1]
            g = _max((sqrt(dx * dx + dy * dy) - r) - b.radius[j], 0.0)
            least = _min(least, g)
        out[k] = least
    return 0

# The compiled twins of sim.rules.movement.legality for a base that is not round: check_move's
# banded tests of a hull's path. One file of move.pyx, which says what every twin holds to (this
# folder's files are named after the modules whose kernels they twin).


# --- bases that are not round: banded tests (check_move's checks for a hull) ---------------
# A hull's tests below decide with a band: a value within MOVE_HULL_BAND of the reference's
# threshold is left to the reference (its SAT products, its swept polygon's vertices and
# Minkowski sums round otherwise than these loops, by ~1e-14" at table scale), so an answer
# given is the reference's whatever the rounding.
MOVE_HULL_BAND = 1e-9
cdef enum:
    _HV = 136   # the most vertices a core held here may have (an oval's 64 and more), swept two more


cdef Py_ssize_t _load_xy(a, double* x, double* y) except -2:
    """A core's vertices (float64 (k, 2), 3 <= k <= _HV - 2, every place well within range) into
    ``x``, ``y``: k; -1 where ``a`` is another thing (the reference's)."""
    if not _plain_xy(a, 3) or a.shape[0] > _HV - 2:
        return -1
    cdef const double[:, :] v = a
    cdef Py_ssize_t k
    for k in range(v.shape[0]):
        x[k] = v[k, 0]
        y[k] = v[k, 1]
    return v.shape[0]


cdef double _sat_axes(const double* ax, const double* ay, Py_ssize_t k, const double* px, const double* py,
                      Py_ssize_t n, const double* qx, const double* qy, Py_ssize_t m, double enough) noexcept nogil:
    """The widest gap between the projections of polygons p and q on the unit normals of the
    edges of polygon a (each vertex to the next, the last to the first), or the first gap of
    ``enough`` or more found; NaN where an edge has no length (the reference's normal would be
    nought)."""
    cdef Py_ssize_t e, f, i
    cdef double ux, uy, ln, s, amin, amax, bmin, bmax, best = -INFINITY
    for e in range(k):
        f = e + 1 if e + 1 < k else 0
        ux = ay[f] - ay[e]
        uy = ax[e] - ax[f]
        ln = sqrt(ux * ux + uy * uy)
        if not (ln > 0):
            return NAN
        ux = ux / ln
        uy = uy / ln
        amin = INFINITY
        amax = -INFINITY
        for i in range(n):
            s = px[i] * ux + py[i] * uy
            amin = _min(amin, s)
            amax = _max(amax, s)
        bmin = INFINITY
        bmax = -INFINITY
        for i in range(m):
            s = qx[i] * ux + qy[i] * uy
            bmin = _min(bmin, s)
            bmax = _max(bmax, s)
        best = _max(best, _max(bmin - amax, amin - bmax))
        if best >= enough:
            return best
    return best


cdef double _sat_gap(const double* px, const double* py, Py_ssize_t n, const double* qx, const double* qy,
                     Py_ssize_t m, double enough, double hx, double hy) noexcept nogil:
    """_convex_overlap's axes (the unit normals of both polygons' edges): the widest gap between
    the two polygons' projections on one of them (at least 0 where they are apart, -g where
    every axis sees them overlap by g or more), or the first of ``enough`` or more found; NaN
    where an edge has no length. The direction (hx, hy) is tried first, if not nought: two
    convex polygons overlap least along an edge's normal (the least translation that parts
    them is along one), so a gap on any axis is at most the widest on theirs, and one of
    ``enough`` there answers for them."""
    cdef double g, h, ln = sqrt(hx * hx + hy * hy), s, amin = INFINITY, amax = -INFINITY
    cdef double bmin = INFINITY, bmax = -INFINITY
    cdef Py_ssize_t i
    if ln > 0:
        hx = hx / ln
        hy = hy / ln
        for i in range(n):
            s = px[i] * hx + py[i] * hy
            amin = _min(amin, s)
            amax = _max(amax, s)
        for i in range(m):
            s = qx[i] * hx + qy[i] * hy
            bmin = _min(bmin, s)
            bmax = _max(bmax, s)
        g = _max(bmin - amax, amin - bmax)
        if g >= enough:
            return g
    g = _sat_axes(px, py, n, px, py, n, qx, qy, m, enough)
    if g != g or g >= enough:
        return g
    h = _sat_axes(qx, qy, m, px, py, n, qx, qy, m, enough)
    return h if h != h else _max(g, h)


cdef double _convex_gap(const double* px, const double* py, Py_ssize_t n, const double* qx, const double* qy,
                        Py_ssize_t m, double hx, double hy) noexcept nogil:
    """The distance between two convex polygons' closed areas: 0 where no axis of _sat_gap parts
    them (the direction (hx, hy) tried first), else the least distance from a vertex of either
    to an edge of the other; NaN as _sat_gap."""
    cdef double g = _sat_gap(px, py, n, qx, qy, m, 0.0, hx, hy), best = INFINITY, ex, ey, den
    cdef Py_ssize_t i, e, f
    if g != g:
        return g
    if g <= 0:
        return 0.0
    for e in range(m):
        f = e + 1 if e + 1 < m else 0
        ex = qx[f] - qx[e]
        ey = qy[f] - qy[e]
        den = ex * ex + ey * ey
        for i in range(n):
            best = _min(best, _edge_d2(px[i] - qx[e], py[i] - qy[e], ex, ey, den if den > 0 else 1.0))
    for e in range(n):
        f = e + 1 if e + 1 < n else 0
        ex = px[f] - px[e]
        ey = py[f] - py[e]
        den = ex * ex + ey * ey
        for i in range(m):
            best = _min(best, _edge_d2(qx[i] - px[e], qy[i] - py[e], ex, ey, den if den > 0 else 1.0))
    return sqrt(best)


cdef Py_ssize_t _sweep_xy(const double* x, const double* y, Py_ssize_t n, double sx, double sy, double dx,
                          double dy, double* hx, double* hy) noexcept nogil:
    """The area a ccw convex polygon (x + sx, y + sy) covers dragged by (dx, dy) (the reference's
    _swept): its vertices, ccw, into ``hx``, ``hy``: the polygon from its vertex farthest to the
    right of the drag to the one farthest to its left moved by the drag, then the rest where it
    starts (n + 2 vertices); the polygon alone where the drag is nought."""
    cdef Py_ssize_t i, k, out = 0, lo = 0, hi = 0
    cdef double s, smin = INFINITY, smax = -INFINITY
    if dx == 0 and dy == 0:
        for i in range(n):
            hx[i] = x[i] + sx
            hy[i] = y[i] + sy
        return n
    for i in range(n):
        s = dx * y[i] - dy * x[i]      # (to the left of the drag)
        if s < smin:
            smin, lo = s, i
        if s > smax:
            smax, hi = s, i
    hx[0] = x[lo] + sx
    hy[0] = y[lo] + sy
    out = 1
    k = lo
    while True:
        hx[out] = x[k] + sx + dx
        hy[out] = y[k] + sy + dy
        out += 1
        if k == hi:
            break
        k = k + 1 if k + 1 < n else 0
    while True:
        hx[out] = x[k] + sx
        hy[out] = y[k] + sy
        out += 1
        k = k + 1 if k + 1 < n else 0
        if k == lo:
            break
    return out


cdef double _seg_foot(double px, double py, double ax, double ay, double bx, double by, double* fx,
                      double* fy) noexcept nogil:
    """The distance from a point to a segment, and the segment's point nearest it (into fx, fy)."""
    cdef double abx = bx - ax, aby = by - ay, den = abx * abx + aby * aby
    cdef double t = _clip01(((px - ax) * abx + (py - ay) * aby) / den) if den > 0 else 0.0
    fx[0] = ax + t * abx
    fy[0] = ay + t * aby
    return hypot(px - fx[0], py - fy[0])


cdef double _hull_poly_gap(const double* hx, const double* hy, Py_ssize_t n, _Edges ed, Py_ssize_t p) noexcept nogil:
    """The distance between a ccw convex polygon and the closed area of polygon ``p`` of ``ed``
    (simple, maybe not convex): the least of each edge's _seg_poly_d (0 where one crosses it or
    starts inside), and 0 where the polygon's first vertex lies in the convex one (every other
    way of meeting is one of those); NaN where a value is no number."""
    cdef Py_ssize_t i, f
    cdef double best = INFINITY, d
    cdef Py_ssize_t e0 = ed.starts[p]
    if _pt_hull(ed.vx[e0], ed.vy[e0], hx, hy, n) == 0.0:
        return 0.0
    for i in range(n):
        f = i + 1 if i + 1 < n else 0
        d = _seg_poly_d(hx[i], hy[i], hx[f], hy[f], ed, p)
        if d != d:
            return d
        best = _min(best, d)
    return best


_GEOMETRY_CORE = []   # (sim.rules.geometry.core, found when first needed)


def hull_path_problems(fp, pts_, idx, terr, board, blockers_, may_cross_dense):
    """movement.legality._hull_path_problems, for the answer "none" only: [] where a base that
    is not round, dragged along ``pts`` at its facing, goes over no battlefield edge (check 4),
    crosses no base of ``blockers`` (rows of ``idx``, check 3) and no dense feature it may not
    cross (check 5), each beyond MOVE_HULL_BAND of the reference's threshold; None otherwise
    (a breach, a value near a threshold, an input of another kind: the reference words it).
    The region a segment sweeps is the core from its vertex farthest right of the drag to the
    one farthest left, moved (_sweep_xy); against a round base, the distance from its centre
    to that region; against a hull, the separating-axis gap of _convex_overlap; against a
    feature, the distance to its closed area."""
    if fp.shape == "round":
        return None
    if not (_all_of((pts_,), F64) and _all_of((blockers_,), INTP)) or pts_.ndim != 2 or blockers_.ndim != 1:
        return None
    cdef const double[:, :] pts = pts_
    cdef Py_ssize_t K = pts.shape[0], s, i, j, k, p, nr, nq
    if K == 0 or pts.shape[1] != 2 or not (_finite(pts[:, 0]) and _finite(pts[:, 1])):
        return None
    if not _GEOMETRY_CORE:
        from sim.rules.geometry import core
        _GEOMETRY_CORE.append(core)
    cdef double cx[_HV]
    cdef double cy[_HV]
    cdef double rx[_HV]
    cdef double ry[_HV]
    cdef double qx[_HV]
    cdef double qy[_HV]
    cdef Py_ssize_t n = _load_xy(_GEOMETRY_CORE[0](fp)[0], cx, cy)
    if n < 0:
        return None
    cdef double fx = fp.x, fy = fp.y, bnd = fp.bounding_radius
    if not (-1e150 < fx < 1e150 and -1e150 < fy < 1e150 and 0.0 <= bnd < 1e150):
        return None
    for i in range(n):                  # (the core about the base's centre: _offsets)
        cx[i] = cx[i] - fx
        cy[i] = cy[i] - fy
    cdef double band = MOVE_HULL_BAND, touch = MOVE_TOUCH, W = board[0], H = board[1]
    cdef double omin0 = INFINITY, omin1 = INFINITY, omax0 = -INFINITY, omax1 = -INFINITY, over, d, g
    for i in range(n):
        omin0 = _min(omin0, cx[i])
        omin1 = _min(omin1, cy[i])
        omax0 = _max(omax0, cx[i])
        omax1 = _max(omax1, cy[i])
    # 4. the battlefield edge: the base at every vertex of the path inside the board
    for k in range(K):
        over = _max(_max(-(omin0 + pts[k, 0]), -(omin1 + pts[k, 1])),
                    _max(omax0 + pts[k, 0] - W, omax1 + pts[k, 1] - H))
        if not (over <= touch - band):
            return None
    if K < 2:
        return []
    # 3. enemy bases: the rows whose box meets the path's grown by the base's bounding radius
    cdef const Py_ssize_t[:] blockers = blockers_
    cdef _Bodies bv = _bodies(idx)
    if bv is None:
        return None
    cdef const double[:] xlo = bv.xlo
    cdef const double[:] xhi = bv.xhi
    cdef const double[:] ylo = bv.ylo
    cdef const double[:] yhi = bv.yhi
    cdef const double[:, :] centres = bv.centres
    cdef const double[:] radius = bv.radius
    cdef const double[:] hbound = bv.bound
    cdef const unsigned char[:] rnd = bv.rnd
    if not _indices(blockers, bv.N):
        return None
    cdef double lo0 = pts[0, 0], lo1 = pts[0, 1], hi0 = pts[0, 0], hi1 = pts[0, 1]
    for k in range(K):
        lo0 = _min(lo0, pts[k, 0])
        lo1 = _min(lo1, pts[k, 1])
        hi0 = _max(hi0, pts[k, 0])
        hi1 = _max(hi1, pts[k, 1])
    cdef double pad = bnd + 2e-6, px_ = 0.0, py_ = 0.0
    for i in range(blockers.shape[0]):
        j = blockers[i]
        if not (xhi[j] >= lo0 - pad and xlo[j] <= hi0 + pad and yhi[j] >= lo1 - pad and ylo[j] <= hi1 + pad):
            continue
        nq = 0
        for s in range(K - 1):
            # (the region swept lies within the base's bounding radius of the segment, the body
            # within its own of its centre: farther apart than both, nothing to measure)
            if _seg_foot(centres[j, 0], centres[j, 1], pts[s, 0], pts[s, 1], pts[s + 1, 0], pts[s + 1, 1],
                         &px_, &py_) > bnd + hbound[j] + 1e-6:
                continue
            nr = _sweep_xy(cx, cy, n, pts[s, 0], pts[s, 1], pts[s + 1, 0] - pts[s, 0], pts[s + 1, 1] - pts[s, 1],
                           rx, ry)
            if rnd[j]:
                d = _pt_hull(centres[j, 0], centres[j, 1], rx, ry, nr)
                if not (d > radius[j] - touch + band):
                    return None
            else:
                if nq == 0:
                    nq = _load_xy(idx.core(j), qx, qy)
                    if nq < 0:
                        return None
                g = _sat_gap(rx, ry, nr, qx, qy, nq, -touch + band, centres[j, 0] - px_, centres[j, 1] - py_)
                if not (g >= -touch + band):
                    return None
    # 5. dense features it may not cross: those whose box meets a segment's grown by the radius
    dense = terr.uncrossable(may_cross_dense)
    if len(dense) == 0:
        return []
    cdef _Edges ed = _edges(dense)
    if ed is None or not _all_of((dense.lo, dense.hi), F64):
        return None
    cdef const double[:, :] plo = dense.lo
    cdef const double[:, :] phi = dense.hi
    if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
        return None
    cdef double ax, ay, bx, by
    for s in range(K - 1):
        ax, ay, bx, by = pts[s, 0], pts[s, 1], pts[s + 1, 0], pts[s + 1, 1]
        nr = -1
        for p in range(ed.P):
            if not (_min(ax, bx) - pad <= phi[p, 0] and _max(ax, bx) + pad >= plo[p, 0]
                    and _min(ay, by) - pad <= phi[p, 1] and _max(ay, by) + pad >= plo[p, 1]):
                continue
            d = _seg_poly_d(ax, ay, bx, by, ed, p)     # (the swept region lies within bnd of the segment)
            if d > bnd + band:
                continue
            if nr < 0:
                nr = _sweep_xy(cx, cy, n, ax, ay, bx - ax, by - ay, rx, ry)
            g = _hull_poly_gap(rx, ry, nr, ed, p)
            if not (g > band):
                return None
    return []

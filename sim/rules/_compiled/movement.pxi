# 01.04/13.06 The movement kernels of sim.rules.movement (and of the players' quick look at a
# move, sim.players.options), compiled: each the same IEEE operations in the same order as its
# numpy reference, entry by entry, so each answer is the reference's to the bit
# (sim.rules.compiled: the registry, its modes and its tests). A NaN goes where numpy's minimum
# takes it (into the result), not where a comparison would; an input of another type than
# float64, or a place that is no finite number, is the reference's (sim.rules._compiled.common),
# but where a kernel takes no minimum and says so.


cdef inline double _edge_d2(double tx, double ty, double ex, double ey, double el2) nogil:
    """The squared distance from a point to an edge, the point given less the edge's start."""
    cdef double t = _clip01((tx * ex + ty * ey) / el2)
    cdef double qx = tx - t * ex, qy = ty - t * ey
    return qx * qx + qy * qy


cdef inline Py_ssize_t _edges_end(const Py_ssize_t[:] starts, Py_ssize_t p, Py_ssize_t E) nogil:
    """Where polygon ``p``'s edges end, as numpy's reduceat reads ``starts``: at the next
    polygon's first edge, the last at the end, and one edge where the next starts no later."""
    cdef Py_ssize_t e1 = starts[p + 1] if p + 1 < starts.shape[0] else E
    return e1 if e1 > starts[p] else starts[p] + 1


cdef class _Edges:
    """A movement EdgeSet's arrays as typed views (edge v -> w, its vector and squared length,
    each polygon's first edge), for the two distance kernels."""
    cdef const double[:] vx, vy, wx, wy, ex, ey, el2
    cdef const Py_ssize_t[:] starts
    cdef Py_ssize_t E, P


_VIEWS = {}     # id(edge set) -> (the edge set, its views): an EdgeSet's arrays never change once made
cdef enum:
    _VIEWS_KEPT = 1024


cdef _Edges _edges(es):
    """``es``'s views, or None where numpy's types are not float64 and intp or an offset is out
    of range (the reference's); an EdgeSet's kept (the most recent _VIEWS_KEPT: the set itself
    is kept with them, so its id names no other while they are)."""
    got = _VIEWS.get(id(es))
    if got is not None and got[0] is es:
        return got[1]
    cdef _Edges ed = _make_edges(es)
    if ed is not None and type(es).__name__ == "EdgeSet":
        if len(_VIEWS) >= _VIEWS_KEPT:
            _VIEWS.clear()
        _VIEWS[id(es)] = (es, ed)
    return ed


cdef _Edges _make_edges(es):
    if not (_all_of((es.vx, es.vy, es.wx, es.wy, es.ex, es.ey, es.el2), F64) and _all_of((es.starts,), INTP)):
        return None
    cdef _Edges ed = _Edges()
    ed.vx, ed.vy, ed.wx, ed.wy = es.vx, es.vy, es.wx, es.wy
    ed.ex, ed.ey, ed.el2, ed.starts = es.ex, es.ey, es.el2, es.starts
    ed.E, ed.P = ed.vx.shape[0], ed.starts.shape[0]
    if not _indices(ed.starts, ed.E):
        return None
    return ed


cdef class _Bodies:
    """A movement BodyIndex's arrays as typed views (each body's box, centre, round radius,
    bounding radius, and whether it is round, as bytes), for the checks of a move."""
    cdef const double[:] xlo, xhi, ylo, yhi, radius, bound
    cdef const double[:, :] centres
    cdef const unsigned char[:] rnd
    cdef Py_ssize_t N

    def __reduce__(self):
        return (_no_views, ())   # (a BodyIndex pickled or copied keeps none: made again when read)


def _no_views():
    return None


cdef _Bodies _bodies(idx):
    """``idx``'s views, kept in its ``near_memo`` (a BodyIndex never changes: a move makes
    another), or None where a type is not numpy's float64 or bool or the lengths differ (the
    reference's)."""
    memo = getattr(idx, "near_memo", None)
    if type(memo) is dict:
        got = memo.get("compiled views")
        if got is not None:
            return got
    xlo_, xhi_, ylo_, yhi_ = idx.boxes()
    if not (_all_of((xlo_, xhi_, ylo_, yhi_, idx.centres, idx.radius, idx.bound), F64) and _all_of((idx.round,), BOOL)):
        return None
    cdef _Bodies b = _Bodies()
    b.xlo, b.xhi, b.ylo, b.yhi = xlo_, xhi_, ylo_, yhi_
    b.centres, b.radius, b.bound, b.rnd = idx.centres, idx.radius, idx.bound, idx.round.view(np.uint8)
    b.N = b.xlo.shape[0]
    if (b.xhi.shape[0] != b.N or b.ylo.shape[0] != b.N or b.yhi.shape[0] != b.N or b.centres.shape[0] != b.N
            or (b.N and b.centres.shape[1] != 2) or b.radius.shape[0] != b.N or b.bound.shape[0] != b.N
            or b.rnd.shape[0] != b.N):
        return None
    if type(memo) is dict:
        memo["compiled views"] = b
    return b


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


def box_near(lo_, hi_, es):
    """movement.legality._box_near: (K, P), box k (its ``lo`` and ``hi`` corners) meets the
    bounding box of polygon p of ``es``."""
    if not _all_of((lo_, hi_, es.lo, es.hi), F64):
        return None
    cdef const double[:, :] lo = lo_
    cdef const double[:, :] hi = hi_
    cdef const double[:, :] plo = es.lo
    cdef const double[:, :] phi = es.hi
    cdef Py_ssize_t K = lo.shape[0], P = plo.shape[0], k, p
    out_ = np.empty((K, P), dtype=bool)
    cdef unsigned char[:, ::1] out = out_.view(np.uint8)
    for k in range(K):
        for p in range(P):
            out[k, p] = (lo[k, 0] <= phi[p, 0] and hi[k, 0] >= plo[p, 0]
                         and lo[k, 1] <= phi[p, 1] and hi[k, 1] >= plo[p, 1])
    return out_


# (movement.solvers.table._BAND: a test holds the two equal)
DISCS_BAND = 1e-7


def discs_clear(c_, r_, oc_, orad_, gap_):
    """movement.solvers.table._discs_clear: (K,) whether a disc of radius ``r`` at each of
    ``c`` is at least ``gap`` (edge to edge) from every disc ``oc``, ``orad``. The squared
    centre distances settle a spot whose every pair is clear of its limit by DISCS_BAND, or one
    of whose pairs is short of it by that much; any other spot is measured as the reference
    measures it: (hypot - r) - orad >= gap for every pair."""
    if (not _all_of((c_, oc_, orad_), F64) or c_.ndim != 2 or oc_.ndim != 2 or orad_.ndim != 1
            or not isinstance(r_, float) or not isinstance(gap_, float)):
        return None   # (numpy's own types, or its broadcasting, would rule: the reference answers)
    cdef const double[:, :] c = c_
    cdef const double[:, :] oc = oc_
    cdef const double[:] orad = orad_
    cdef double r = r_, gap = gap_
    cdef Py_ssize_t K = c.shape[0], N = oc.shape[0], k, j
    if c.shape[1] != 2 or oc.shape[1] != 2 or orad.shape[0] != N:
        return None   # (numpy's broadcasting, or its error: the reference's)
    lo2_, hi2_ = np.empty(N), np.empty(N)
    cdef double[::1] lo2 = lo2_, hi2 = hi2_
    cdef double lim, t, dx, dy, d2, band = DISCS_BAND
    for j in range(N):
        lim = (r + orad[j]) + gap
        t = lim + band
        hi2[j] = t * t
        t = lim - band
        lo2[j] = t * t
    out_ = np.empty(K, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef bint far, near, ok
    for k in range(K):
        far, near = True, False
        for j in range(N):
            dx = c[k, 0] - oc[j, 0]
            dy = c[k, 1] - oc[j, 1]
            d2 = dx * dx + dy * dy
            if not (d2 > hi2[j]):
                far = False
            if d2 < lo2[j]:
                near = True
            if near and not far:
                break   # (short of a limit and not clear of every one: refused, whatever follows)
        if far:
            ok = True
        elif near:
            ok = False
        else:   # (in the band: measured)
            ok = True
            for j in range(N):
                if not (((hypot(c[k, 0] - oc[j, 0], c[k, 1] - oc[j, 1]) - r) - orad[j]) >= gap):
                    ok = False
                    break
        out[k] = ok
    return out_


def bases_refused(pts_, r_, centres_, inner_, players_, rows_, x0_, x1_, y0_, y1_, gap_, margin_):
    """players.options._bases_refused: whether a disc of radius ``r[k]`` at ``pts[k]`` overlaps
    by more than ``margin`` the disc of a model in the box and not of ``rows``, or comes within
    ``gap`` less ``margin`` of an enemy's ((hypot - r) - inner, pair by pair, stopping at the
    first that says so: the answer is an "any"). No minimum is taken, only comparisons, so a NaN
    or an infinity answers as in numpy: they are not declined."""
    if (not _all_of((pts_, r_, centres_, inner_), F64) or not _all_of((players_, rows_), INTP)
            or pts_.ndim != 2 or centres_.ndim != 2 or r_.ndim != 1 or inner_.ndim != 1
            or players_.ndim != 1 or rows_.ndim != 1
            or not all([type(v) is float for v in (x0_, x1_, y0_, y1_, gap_, margin_)])):
        return None   # (numpy's own types, or its broadcasting, would rule: the reference answers)
    cdef const double[:, :] p = pts_
    cdef const double[:, :] c = centres_
    cdef const double[:] r = r_
    cdef const double[:] inner = inner_
    cdef const Py_ssize_t[:] players = players_
    cdef const Py_ssize_t[:] rows = rows_
    cdef Py_ssize_t K = p.shape[0], N = c.shape[0], k, j
    if (p.shape[1] != 2 or c.shape[1] != 2 or r.shape[0] != K or inner.shape[0] != N
            or players.shape[0] != N or rows.shape[0] == 0 or not _indices(rows, N)):
        return None   # (numpy's broadcasting, its wrapping of a negative index, or its error)
    mine_ = np.zeros(N, dtype=np.uint8)
    cdef unsigned char[::1] mine = mine_
    for k in range(rows.shape[0]):
        mine[rows[k]] = 1
    cdef double x0 = x0_, x1 = x1_, y0 = y0_, y1 = y1_, g
    cdef double over = -margin_
    cdef double near = gap_ - margin_
    cdef Py_ssize_t own = players[rows[0]]
    for j in range(N):
        if mine[j] or not (c[j, 0] >= x0 and c[j, 0] <= x1 and c[j, 1] >= y0 and c[j, 1] <= y1):
            continue
        for k in range(K):
            g = (hypot(p[k, 0] - c[j, 0], p[k, 1] - c[j, 1]) - r[k]) - inner[j]
            if g < over:
                return True
            if players[j] != own and g < near:
                return True
    return False


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


# (sim.rules.coherency's _SLACK, COHERENCY_LINK, COHERENCY_SPAN and _OVAL_INNER, cos(pi /
# OVAL_VERTICES): a test holds each equal to its source)
COHERENCY_SLACK = 1e-6
COHERENCY_LINK = 2.0
COHERENCY_SPAN = 9.0
COHERENCY_OVAL_INNER = cos(3.141592653589793 / 64)
# inches: a pair's bound this near a threshold is left to the reference (its math.hypot and
# C's hypot may differ in the last bit: ~1e-14 at these distances)
COHERENCY_BAND = 1e-9
cdef enum:
    _CO_MAX = 64    # (the most models a unit's verdict is worked out for here: bit sets of 64)


def coherency_code(fps_):
    """coherency._coherency_code: 0 (surely not coherent), 1 (surely) or 2 (open), from the
    same bounds pair by pair in the same order: the centres' distance (C's hypot, where the
    reference has math.hypot: both within an ulp of the true value) less both bounding radii
    and less both inner radii. A bound within COHERENCY_BAND of a threshold it is compared with
    is left to the reference (None); so is a unit of more than 64 models, a shape it does not
    know, and a place or size that is no finite number. The links are bit sets, the groups
    grown from the first model as the reference's search grows them."""
    cdef Py_ssize_t n = len(fps_), i, j
    if n <= 1:
        return 1
    if n > _CO_MAX:
        return None
    cdef double cx[_CO_MAX]
    cdef double cy[_CO_MAX]
    cdef double inner[_CO_MAX]
    cdef double outer[_CO_MAX]
    cdef unsigned long long maybe[_CO_MAX]
    cdef unsigned long long sure[_CO_MAX]
    cdef double length, width, h
    cdef double oval_inner = COHERENCY_OVAL_INNER, slack = COHERENCY_SLACK, band = COHERENCY_BAND
    cdef double link_lo = COHERENCY_LINK - slack, link_hi = COHERENCY_LINK + slack
    cdef double span_lo = COHERENCY_SPAN - slack, span_hi = COHERENCY_SPAN + slack
    cdef double c, lo, hi, xi, yi, ii, oi
    cdef bint spans = True
    for i in range(n):
        f = fps_[i]
        shape = f.shape
        length, width = f.length, f.width
        cx[i], cy[i] = f.x, f.y
        if shape == "round":
            inner[i] = 0.5 * length
        elif shape == "rect" or shape == "oval":
            h = 0.5 * (width if width < length else length)     # (Python's min(length, width))
            inner[i] = h if shape == "rect" else h * oval_inner
        else:
            return None
        outer[i] = f.bounding_radius
        if not (cx[i] - cx[i] == 0.0 and cy[i] - cy[i] == 0.0 and inner[i] - inner[i] == 0.0
                and outer[i] - outer[i] == 0.0):
            return None
        maybe[i] = sure[i] = 0
    for i in range(n):
        xi, yi, ii, oi = cx[i], cy[i], inner[i], outer[i]
        for j in range(i + 1, n):
            c = hypot(cx[j] - xi, cy[j] - yi)
            lo = c - oi - outer[j]
            hi = c - ii - inner[j]
            if (fabs(lo - span_hi) <= band or fabs(hi - span_lo) <= band or fabs(lo - link_hi) <= band
                    or fabs(hi - link_lo) <= band):
                return None
            if lo > span_hi:
                return 0
            if hi > span_lo:
                spans = False
            if lo <= link_hi:
                maybe[i] |= 1ULL << j
                maybe[j] |= 1ULL << i
                if hi <= link_lo:
                    sure[i] |= 1ULL << j
                    sure[j] |= 1ULL << i
    if not _co_connected(maybe, n):
        return 0
    return 1 if spans and _co_connected(sure, n) else 2


cdef bint _co_connected(unsigned long long* adj, Py_ssize_t n) nogil:
    """Whether the links join every one of the ``n`` models into one group (from the first)."""
    cdef unsigned long long seen = 1, todo = 1, nxt
    cdef Py_ssize_t k
    while todo:
        nxt = 0
        for k in range(n):
            if todo & (1ULL << k):
                nxt |= adj[k]
        todo = nxt & ~seen
        seen |= nxt
    return seen == ((1ULL << n) - 1 if n < 64 else ~0ULL)


# (sim.rules.movement.index.TOUCH: a test holds the two equal)
MOVE_TOUCH = 1e-7
_CORE_EDGES = []   # (sim.rules.movement.kernels.core_edges, found when first needed)


def round_paths_clear(V_, VR_, A_, B_, R_, board, idx, blockers_, dense):
    """movement.round_paths._round_paths_clear: whether round bases moving along the segments
    A[s]-B[s] (radius R[s]; their paths' vertices V, radii VR) go over no battlefield edge,
    cross no base of ``blockers`` (rows of the body index ``idx``) and no polygon of ``dense``:
    each test round_path_hits' arithmetic for its entry (the edge's maxima, the rows near the
    segments' box, the point-to-segment distance, the segment-to-polygon distance of each
    hull's core and of each feature whose box meets the segment's), False at the first breach
    found (the answer is whether there is one, so the order is free). Inputs of other types, or
    places that are no finite number, are the reference's."""
    if not (_all_of((V_, VR_, A_, B_, R_), F64) and _all_of((blockers_,), INTP)):
        return None
    if V_.ndim != 2 or A_.ndim != 2 or B_.ndim != 2 or VR_.ndim != 1 or R_.ndim != 1 or blockers_.ndim != 1:
        return None
    cdef const double[:, :] V = V_
    cdef const double[:] VR = VR_
    cdef const double[:, :] A = A_
    cdef const double[:, :] B = B_
    cdef const double[:] R = R_
    cdef Py_ssize_t K = V.shape[0], S = A.shape[0], k, s, i, j, p, m
    if VR.shape[0] != K or B.shape[0] != S or R.shape[0] != S or (K and V.shape[1] != 2) or (S and (A.shape[1] != 2 or B.shape[1] != 2)):
        return None
    if not (_finite(V[:, 0]) and _finite(V[:, 1]) and _finite(VR) and _finite(A[:, 0]) and _finite(A[:, 1])
            and _finite(B[:, 0]) and _finite(B[:, 1]) and _finite(R)):
        return None
    cdef double W = board[0], H = board[1], touch = MOVE_TOUCH
    cdef double over, ax, ay, bx, by, apx, apy, abx, aby, den, t, dx, dy, d, lim
    # 4. the battlefield edge: every vertex's base inside the board
    for k in range(K):
        over = _max(_max(VR[k] - V[k, 0], VR[k] - V[k, 1]), _max(V[k, 0] + VR[k] - W, V[k, 1] + VR[k] - H))
        if over > touch:
            return False
    if S == 0:
        return True
    # 3. enemy bases: the rows whose box meets the segments' (rows_near_box)
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
    cdef const unsigned char[:] rnd = bv.rnd
    if not _indices(blockers, bv.N):
        return None
    cdef double lo0 = A[0, 0], lo1 = A[0, 1], hi0 = A[0, 0], hi1 = A[0, 1], rmax = R[0]
    for s in range(S):
        lo0 = _min(_min(lo0, A[s, 0]), B[s, 0])
        lo1 = _min(_min(lo1, A[s, 1]), B[s, 1])
        hi0 = _max(_max(hi0, A[s, 0]), B[s, 0])
        hi1 = _max(_max(hi1, A[s, 1]), B[s, 1])
        rmax = _max(rmax, R[s])
    cdef double pad = rmax + 0.0 + 1e-6
    lo0 -= pad
    lo1 -= pad
    hi0 += pad
    hi1 += pad
    cdef _Edges ed
    for i in range(blockers.shape[0]):
        j = blockers[i]
        if not (xhi[j] >= lo0 and xlo[j] <= hi0 and yhi[j] >= lo1 and ylo[j] <= hi1):
            continue
        if rnd[j]:
            for s in range(S):
                ax, ay = A[s, 0], A[s, 1]
                abx = B[s, 0] - ax
                aby = B[s, 1] - ay
                apx = centres[j, 0] - ax
                apy = centres[j, 1] - ay
                den = abx * abx + aby * aby
                t = apx * abx
                t += apy * aby
                t /= den if den > 0 else 1.0
                t = _min(_max(t, 0.0), 1.0)
                dx = apx - t * abx
                dy = apy - t * aby
                d = sqrt(dx * dx + dy * dy)
                lim = R[s] + radius[j]
                if d < lim - touch:
                    return False
        else:
            if not _CORE_EDGES:
                from sim.rules.movement.kernels import core_edges
                _CORE_EDGES.append(core_edges)
            ed = _edges(_CORE_EDGES[0](idx.fps[j]))
            if ed is None:
                return None
            for s in range(S):
                d = _seg_poly_d(A[s, 0], A[s, 1], B[s, 0], B[s, 1], ed, 0)
                if d != d:
                    return None
                if d < R[s] - touch:
                    return False
    # 5. dense features: those whose box meets a segment's grown by its radius (_box_near)
    if len(dense) == 0:
        return True
    ed = _edges(dense)
    if ed is None or not _all_of((dense.lo, dense.hi), F64):
        return None
    cdef const double[:, :] plo = dense.lo
    cdef const double[:, :] phi = dense.hi
    if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
        return None
    cdef double slo0, slo1, shi0, shi1
    for s in range(S):
        ax, ay, bx, by = A[s, 0], A[s, 1], B[s, 0], B[s, 1]
        slo0 = _min(ax, bx) - R[s]
        slo1 = _min(ay, by) - R[s]
        shi0 = _max(ax, bx) + R[s]
        shi1 = _max(ay, by) + R[s]
        for p in range(ed.P):
            if not (slo0 <= phi[p, 0] and shi0 >= plo[p, 0] and slo1 <= phi[p, 1] and shi1 >= plo[p, 1]):
                continue
            d = _seg_poly_d(ax, ay, bx, by, ed, p)
            if d != d:
                return None
            if d < R[s] - touch:
                return False
    return True


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


# (sim.rules.movement.legality.OVERLAP_BAND, geometry.ENGAGEMENT_RANGE and EPS: a test holds
# each equal to its source)
MOVE_OVERLAP_BAND = 1e-9
MOVE_ENGAGEMENT = 2.0
MOVE_EPS = 1e-9
# inches: two bases of the moving unit whose centres' distance (C's hypot, where the reference
# has math.hypot) is this near a limit are left to the reference
MOVE_OWN_BAND = 1e-9
cdef enum:
    _ENDS_MAX = 256   # (the most bases a unit's ends are checked for here)
    _HULL_ENDS = 4    # (... of which not round)


cdef int _hull_disc(double gap, double band) noexcept nogil:
    """A base's overlap decided from its gap to the limit: 1 overlapping (below -band), 0 not
    (above band), -1 within the band (the reference decides)."""
    if gap != gap or fabs(gap) <= band:
        return -1
    return 1 if gap < 0 else 0


cdef int _hulls_overlap(const double* px, const double* py, Py_ssize_t n, const double* qx, const double* qy,
                        Py_ssize_t m, double band, double hx, double hy) noexcept nogil:
    """geometry.overlaps of two hulls (the strict separating-axis test, 1e-7 on every axis),
    decided from _sat_gap beyond ``band`` (the direction (hx, hy) tried first): 1 overlapping,
    0 not, -1 left to the reference."""
    cdef double g = _sat_gap(px, py, n, qx, qy, m, -1e-7 + band, hx, hy)
    if g != g:
        return -1
    if g >= -1e-7 + band:
        return 0
    return 1 if g < -1e-7 - band else -1


def ends_clear(ends, idx, others_, terr, player, end_unengaged):
    """movement.legality._ends_clear: whether no base at ``ends`` overlaps a model of ``others``
    (rows of ``idx``) or another of ``ends``, none overlaps a light or dense feature, and,
    ``end_unengaged``, none is within engagement range of an enemy model. A round base's tests
    are the reference's arithmetic for its entry (the rows near the ends' box, the round bases'
    hypot, a hull core's distance, a feature's distance, the discs' distance), False at the
    first breach found; a pair the reference decides by geometry.overlaps near the band (a base
    against a hull) or by math.hypot (two of the unit's own) is left to it, as are places that
    are no number. A base that is not round (at most _HULL_ENDS of them) is decided with
    MOVE_HULL_BAND: against a round base, its core's distance to the centre; against a hull, the
    separating-axis gap of geometry.overlaps; against a feature, the distance to its closed area
    (or the answer the terrain index keeps for it); against an enemy, the distance between them."""
    cdef Py_ssize_t n = len(ends), k, k2, i, j, p, h, h2, nh = 0, nq = 0
    if n == 0 or n > _ENDS_MAX or not _all_of((others_,), INTP) or others_.ndim != 1:
        return None
    cdef double cx[_ENDS_MAX]
    cdef double cy[_ENDS_MAX]
    cdef double rf[_ENDS_MAX]
    cdef double bnd[_ENDS_MAX]
    cdef double ln[_ENDS_MAX]
    cdef Py_ssize_t slot[_ENDS_MAX]
    cdef double hx[_HULL_ENDS][_HV]
    cdef double hy[_HULL_ENDS][_HV]
    cdef Py_ssize_t hn[_HULL_ENDS]
    cdef double qx[_HV]
    cdef double qy[_HV]
    cdef double bound = 0.0, lo0 = 0.0, lo1 = 0.0, hi0 = 0.0, hi1 = 0.0
    for k in range(n):
        f = ends[k]
        cx[k], cy[k] = f.x, f.y
        bnd[k] = f.bounding_radius
        if f.shape == "round":
            ln[k] = f.length
            rf[k] = 0.5 * ln[k]
            slot[k] = -1
        else:
            if nh == _HULL_ENDS:
                return None
            if not _GEOMETRY_CORE:
                from sim.rules.geometry import core
                _GEOMETRY_CORE.append(core)
            hn[nh] = _load_xy(_GEOMETRY_CORE[0](f)[0], hx[nh], hy[nh])
            if hn[nh] < 0:
                return None
            ln[k] = rf[k] = 0.0
            slot[k] = nh
            nh += 1
        if not (cx[k] - cx[k] == 0.0 and cy[k] - cy[k] == 0.0 and rf[k] - rf[k] == 0.0 and bnd[k] - bnd[k] == 0.0):
            return None
        if k == 0 or cx[k] < lo0:
            lo0 = cx[k]
        if k == 0 or cy[k] < lo1:
            lo1 = cy[k]
        if k == 0 or cx[k] > hi0:
            hi0 = cx[k]
        if k == 0 or cy[k] > hi1:
            hi1 = cy[k]
        if k == 0 or bnd[k] > bound:
            bound = bnd[k]
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
    cdef Py_ssize_t N = bv.N
    cdef const Py_ssize_t[:] others = others_
    if not _indices(others, N):
        return None
    cdef double touch = MOVE_TOUCH, band = MOVE_OVERLAP_BAND, hband = MOVE_HULL_BAND, pad, d, dx, dy, lim, gap
    cdef int said
    cdef const double[:, :] q
    # 6. the bases of the models of other units: those whose box meets the ends' (rows_near_box)
    pad = bound + 0.0 + 1e-6
    for i in range(others.shape[0]):
        j = others[i]
        if not (xhi[j] >= lo0 - pad and xlo[j] <= hi0 + pad and yhi[j] >= lo1 - pad and ylo[j] <= hi1 + pad):
            continue
        if rnd[j]:
            for k in range(n):
                if slot[k] >= 0:    # (a hull's core against the disc: geometry.overlaps)
                    if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + 1e-6:
                        continue    # (the bounding circles apart)
                    h = slot[k]
                    said = _hull_disc(_pt_hull(centres[j, 0], centres[j, 1], hx[h], hy[h], hn[h])
                                      - (radius[j] - 1e-7), hband)
                    if said < 0:
                        return None
                    if said:
                        return False
                    continue
                d = hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1])
                lim = rf[k] + radius[j]
                if d < lim - touch:
                    return False
        else:
            q = None
            nq = 0
            for k in range(n):
                if slot[k] >= 0:
                    if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + 1e-6:
                        continue
                    if nq == 0:
                        nq = _load_xy(idx.core(j), qx, qy)
                        if nq < 0:
                            return None
                    h = slot[k]
                    said = _hulls_overlap(hx[h], hy[h], hn[h], qx, qy, nq, hband, centres[j, 0] - cx[k],
                                          centres[j, 1] - cy[k])
                    if said < 0:
                        return None
                    if said:
                        return False
                    continue
                if not (hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) < bnd[k] + hbound[j]):
                    continue
                if q is None:
                    q_ = idx.core(j)
                    if not _plain_xy(q_, 1):
                        return None
                    q = q_
                gap = _pt_convex_d(cx[k], cy[k], q) - (rf[k] - 1e-7)
                if gap != gap or fabs(gap) <= band:
                    return None   # (geometry.overlaps decides it there)
                if gap < 0:
                    return False
    # 7. light and dense features (the features' boxes first: _box_near)
    es = terr.no_end
    cdef _Edges ed
    cdef const double[:, :] plo
    cdef const double[:, :] phi
    if len(es):
        ed = _edges(es)
        if ed is None or not _all_of((es.lo, es.hi), F64):
            return None
        plo = es.lo
        phi = es.hi
        if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
            return None
        kept = terr.hull_ends
        for k in range(n):
            if slot[k] >= 0:    # (the answer kept for the base, the reference's; else its distances)
                f = ends[k]
                if f in kept:
                    if kept[f] is not None:
                        return False
                    continue
                h = slot[k]
                pad = bnd[k] + 2e-6
                for p in range(ed.P):
                    if not (cx[k] - pad <= phi[p, 0] and cx[k] + pad >= plo[p, 0]
                            and cy[k] - pad <= phi[p, 1] and cy[k] + pad >= plo[p, 1]):
                        continue
                    if _pt_poly_d(cx[k], cy[k], ed, p) > bnd[k] + hband:
                        continue    # (the core lies within its bounding radius of the centre)
                    if not (_hull_poly_gap(hx[h], hy[h], hn[h], ed, p) > hband):
                        return None
                continue
            for p in range(ed.P):
                if not (cx[k] - rf[k] <= phi[p, 0] and cx[k] + rf[k] >= plo[p, 0]
                        and cy[k] - rf[k] <= phi[p, 1] and cy[k] + rf[k] >= plo[p, 1]):
                    continue
                d = _pt_poly_d(cx[k], cy[k], ed, p)
                if d != d:
                    return None
                if d < rf[k] - touch:
                    return False
    # 8. engagement range of an enemy model, when the move must end unengaged
    cdef const Py_ssize_t[:] enemies
    if end_unengaged:
        enemies_ = idx.enemies(player)
        if not _all_of((enemies_,), INTP) or enemies_.ndim != 1:
            return None
        enemies = enemies_
        if not _indices(enemies, N):
            return None
        pad = bound + MOVE_ENGAGEMENT + 1e-6
        lim = MOVE_ENGAGEMENT + MOVE_EPS
        for i in range(enemies.shape[0]):
            j = enemies[i]
            if not (xhi[j] >= lo0 - pad and xlo[j] <= hi0 + pad and yhi[j] >= lo1 - pad and ylo[j] <= hi1 + pad):
                continue
            if rnd[j]:
                for k in range(n):
                    if slot[k] >= 0:
                        if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + lim + 1e-6:
                            continue
                        h = slot[k]
                        d = _pt_hull(centres[j, 0], centres[j, 1], hx[h], hy[h], hn[h])
                        d = _max(d - radius[j], 0.0)
                        said = _hull_disc(d - lim, hband)
                        if said < 0:
                            return None
                        if said:
                            return False
                        continue
                    dx = cx[k] - centres[j, 0]
                    dy = cy[k] - centres[j, 1]
                    d = _max(sqrt(dx * dx + dy * dy) - rf[k] - radius[j], 0.0)
                    if d <= MOVE_ENGAGEMENT + MOVE_EPS:
                        return False
            else:
                q_ = idx.core(j)
                if not _plain_xy(q_, 1):
                    return None
                q = q_
                nq = 0
                for k in range(n):
                    if slot[k] >= 0:
                        if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + lim + 1e-6:
                            continue
                        if nq == 0:
                            nq = _load_xy(q_, qx, qy)
                            if nq < 0:
                                return None
                        h = slot[k]
                        # (apart by more than the range on an axis: not within it; else measured)
                        gap = _sat_gap(hx[h], hy[h], hn[h], qx, qy, nq, lim + hband, centres[j, 0] - cx[k],
                                       centres[j, 1] - cy[k])
                        if gap >= lim + hband:
                            continue
                        said = _hull_disc(_convex_gap(hx[h], hy[h], hn[h], qx, qy, nq, centres[j, 0] - cx[k],
                                                      centres[j, 1] - cy[k]) - lim, hband)
                        if said < 0:
                            return None
                        if said:
                            return False
                        continue
                    d = _pt_convex_d(cx[k], cy[k], q)
                    if d != d:
                        return None
                    if _max(d - rf[k], 0.0) <= MOVE_ENGAGEMENT + MOVE_EPS:
                        return False
    # 6. two of the unit's own bases (geometry.overlaps of round bases, after check_move's
    # bounding circles; a hull's as against another unit's)
    cdef double own = MOVE_OWN_BAND, t1, t2
    for k in range(n):
        for k2 in range(k + 1, n):
            h, h2 = slot[k], slot[k2]
            if h >= 0 and h2 >= 0:
                said = _hulls_overlap(hx[h], hy[h], hn[h], hx[h2], hy[h2], hn[h2], hband,
                                      cx[k2] - cx[k], cy[k2] - cy[k])
            elif h >= 0:
                said = _hull_disc(_pt_hull(cx[k2], cy[k2], hx[h], hy[h], hn[h]) - (rf[k2] - 1e-7), hband)
            elif h2 >= 0:
                said = _hull_disc(_pt_hull(cx[k], cy[k], hx[h2], hy[h2], hn[h2]) - (rf[k] - 1e-7), hband)
            else:
                d = hypot(cx[k] - cx[k2], cy[k] - cy[k2])
                t1 = bnd[k] + bnd[k2]
                t2 = 0.5 * (ln[k] + ln[k2]) - 1e-7
                if fabs(d - t1) <= own or fabs(d - t2) <= own:
                    return None
                if d < t1 and d < t2:
                    return False
                continue
            if said < 0:
                return None
            if said:
                return False
    return True


def round_features_refuse(starts_, ends_, radii_, terr, may_cross_dense, margin_):
    """movement.legality.round_features_refuse: True if a round base (radius ``radii[k]``) at
    ``ends[k]`` lies more than TOUCH plus ``margin`` into a light or dense feature, or (unless
    ``may_cross_dense`` is None) its straight path from ``starts[k]`` crosses one of the dense
    features it may not cross by that much; else False. Each entry the reference's arithmetic
    (the features' boxes, a point's and a segment's distance to a polygon's closed area); the
    answer is whether any entry is past the limit, so the order is free."""
    if (not _all_of((starts_, ends_, radii_), F64) or starts_.ndim != 2 or ends_.ndim != 2 or radii_.ndim != 1
            or type(margin_) is not float):
        return None
    cdef const double[:, :] starts = starts_
    cdef const double[:, :] ends = ends_
    cdef const double[:] radii = radii_
    cdef Py_ssize_t K = ends.shape[0], k, p
    if starts.shape[0] != K or radii.shape[0] != K or (K and (starts.shape[1] != 2 or ends.shape[1] != 2)):
        return None
    if not (_finite(starts[:, 0]) and _finite(starts[:, 1]) and _finite(ends[:, 0]) and _finite(ends[:, 1])
            and _finite(radii)):
        return None
    cdef double margin = margin_, touch = MOVE_TOUCH, lim, d, r, ax, ay, bx, by
    cdef _Edges ed
    cdef const double[:, :] plo
    cdef const double[:, :] phi
    es = terr.no_end
    if len(es):
        ed = _edges(es)
        if ed is None or not _all_of((es.lo, es.hi), F64):
            return None
        plo, phi = es.lo, es.hi
        if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
            return None
        for k in range(K):
            r = radii[k]
            lim = r - touch - margin
            bx, by = ends[k, 0], ends[k, 1]
            for p in range(ed.P):
                if not (bx - r <= phi[p, 0] and bx + r >= plo[p, 0] and by - r <= phi[p, 1] and by + r >= plo[p, 1]):
                    continue
                d = _pt_poly_d(bx, by, ed, p)
                if d != d:
                    return None
                if d < lim:
                    return True
    if may_cross_dense is None:
        return False
    dense = terr.uncrossable(may_cross_dense)
    if len(dense) == 0:
        return False
    ed = _edges(dense)
    if ed is None or not _all_of((dense.lo, dense.hi), F64):
        return None
    plo, phi = dense.lo, dense.hi
    if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
        return None
    for k in range(K):
        r = radii[k]
        lim = r - touch - margin
        ax, ay, bx, by = starts[k, 0], starts[k, 1], ends[k, 0], ends[k, 1]
        for p in range(ed.P):
            if not (_min(ax, bx) - r <= phi[p, 0] and _max(ax, bx) + r >= plo[p, 0]
                    and _min(ay, by) - r <= phi[p, 1] and _max(ay, by) + r >= plo[p, 1]):
                continue
            d = _seg_poly_d(ax, ay, bx, by, ed, p)
            if d != d:
                return None
            if d < lim:
                return True
    return False

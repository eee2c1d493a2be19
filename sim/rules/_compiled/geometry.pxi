# 01.04 The distance kernels of sim.rules.geometry, compiled: each the same IEEE operations in
# the same order as its numpy reference, entry by entry, so each answer is the reference's to the
# bit (sim.rules.compiled: the registry, its modes, and the tests that hold the two equal on
# random inputs and on every call of every scenario's golden replay).
#
# Built, included in move.pyx, when the project is installed and a C compiler is there (setup.py:
# the extension is optional, and ``-ffp-contract=off`` keeps the compiler from fusing a product and a
# sum into one rounding, which numpy never does). Each kernel answers None for an input it does
# not take (another type than float64, a value that is not a finite number, an index out of
# range: sim.rules._compiled.common), and the registry then calls the reference.
#


cdef double PRUNE_SLACK = 1e-7    # geometry._PRUNE_SLACK


cdef inline double _core_gap(double cx, double cy, const double[:, :] px, const double[:, :] py,
                             const double[:, :] abx, const double[:, :] aby, const double[:, :] den,
                             const unsigned char[:, :] pos, Py_ssize_t h) noexcept nogil:
    """_round_core_distances' distance from the point (cx, cy) to the core of hull ``h`` of a
    pack (geometry._hull_pack), before the radius: 0 inside it (every edge's product at least
    -EPS), else the root of the least of the vertices' and the edges' squared distances."""
    cdef Py_ssize_t v, V = px.shape[1]
    cdef double apx, apy, w, sq, t, dx, dy, e, dv = INFINITY, de = INFINITY
    cdef int outside = 0
    for v in range(V):
        apx = cx - px[h, v]
        apy = cy - py[h, v]
        w = abx[h, v] * apy - aby[h, v] * apx       # (w = abx * apy; w -= aby * apx)
        outside |= not (w >= -EPS)
        sq = apx * apx + apy * apy                  # (the vertex, squared)
        t = (apx * abx[h, v] + apy * aby[h, v]) / den[h, v]
        t = t if pos[h, v] else 0.0
        t = 0.0 if t < 0.0 else t
        t = 1.0 if t > 1.0 else t
        dx = apx - t * abx[h, v]
        dy = apy - t * aby[h, v]
        e = dx * dx + dy * dy                       # (the edge, squared)
        dv = sq if sq < dv else dv
        de = e if e < de else de
    return sqrt(de if de < dv else dv) if outside else 0.0


def round_core_distances(centres_, radii_, pack):
    """geometry._round_core_distances: (N, H) from round bases (centres (N, 2), radii (N,)) to
    the hulls of ``pack`` (geometry._hull_pack)."""
    if not _all_of((centres_, radii_), F64):
        return None
    cdef const double[:, :] centres = centres_
    cdef const double[:] radii = radii_
    px_, py_, _pex, _pey, abx_, aby_, den_, pos_, _every = pack
    cdef const double[:, :] px = px_
    cdef const double[:, :] py = py_
    cdef const double[:, :] abx = abx_
    cdef const double[:, :] aby = aby_
    cdef const double[:, :] den = den_
    cdef const unsigned char[:, :] pos = pos_.view(np.uint8)
    cdef Py_ssize_t N = centres.shape[0], H = px.shape[0], V = px.shape[1]
    cdef Py_ssize_t i, h, v
    # (places, radii and cores under 1e150 in size: no product overflows, so no NaN is made inside
    # and the running minimums below may be plain comparisons; larger ones are the reference's)
    if not (_bounded(centres[:, 0], 1e150) and _bounded(centres[:, 1], 1e150) and _bounded(radii, 1e150)
            and _bounded(px_.reshape(-1), 1e150) and _bounded(py_.reshape(-1), 1e150)):
        return None
    out_ = np.empty((N, H))
    cdef double[:, ::1] out = out_
    cdef double cx, cy, d
    for i in range(N):
        cx = centres[i, 0]
        cy = centres[i, 1]
        for h in range(H):
            d = _core_gap(cx, cy, px, py, abx, aby, den, pos, h)
            out[i, h] = _max(d - radii[i], 0.0)
            if out[i, h] != out[i, h]:
                return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return out_


cdef inline double _segment(double px, double py, double ax, double ay, double bx, double by) nogil:
    """geometry._point_segment_dist of one point and one segment."""
    cdef double abx = bx - ax, aby = by - ay
    cdef double apx = px - ax, apy = py - ay
    cdef double den = abx * abx + aby * aby
    cdef double t = (apx * abx + apy * aby) / den if den > 0 else 0.0
    t = 0.0 if t < 0.0 else t
    t = 1.0 if t > 1.0 else t
    cdef double dx = apx - t * abx, dy = apy - t * aby
    return sqrt(dx * dx + dy * dy)


cdef double _kept_min(const double[:, :, :] Vt, const double[:] lb_v, const double[:, :, :] A,
                      const double[:, :, :] B, const double[:] lb_e, Py_ssize_t pv, Py_ssize_t pe,
                      Py_ssize_t nv, Py_ssize_t ne, double cut) nogil:
    """The least distance from the kept vertices of polygon ``pv`` of ``Vt`` to the kept edges
    of polygon ``pe`` of (A, B): those whose bound is within ``cut``."""
    cdef double best = INFINITY, d
    cdef Py_ssize_t i, j
    for i in range(nv):
        if not (lb_v[i] <= cut):
            continue
        for j in range(ne):
            if not (lb_e[j] <= cut):
                continue
            d = _segment(Vt[pv, i, 0], Vt[pv, i, 1], A[pe, j, 0], A[pe, j, 1], B[pe, j, 0], B[pe, j, 1])
            best = _min(best, d)
    return best


cdef Py_ssize_t _vertex_bounds(const double[:, :, :] P, const unsigned char[:, :] real, Py_ssize_t a,
                               double cx, double cy, double r, double[:] lb) nogil:
    """Each vertex of core ``a`` of P to the circle (cx, cy, r): its distance to the centre less
    the radius (a padded vertex: inf), into ``lb``; the index numpy's argmin gives them (the
    first least, or the first NaN)."""
    cdef Py_ssize_t v, i0 = 0
    cdef double x, best = INFINITY
    cdef bint nan = False
    for v in range(P.shape[1]):
        x = hypot(P[a, v, 0] - cx, P[a, v, 1] - cy) - r if real[a, v] else INFINITY
        lb[v] = x
        if not nan and (x < best or x != x):
            i0, best, nan = v, x, x != x
    return i0


cdef double _vertex_to_edges(double px, double py, const double[:, :, :] A, const double[:, :, :] B,
                             Py_ssize_t b) nogil:
    """The least distance from the point to the edges A[b, v]-B[b, v] of a core, padded ones too."""
    cdef double u = INFINITY
    cdef Py_ssize_t v
    for v in range(A.shape[1]):
        u = _min(u, _segment(px, py, A[b, v, 0], A[b, v, 1], B[b, v, 0], B[b, v, 1]))
    return u


cdef void _edge_bounds(const double[:, :, :] P, const double[:, :, :] PE, const unsigned char[:, :] real,
                       Py_ssize_t a, double cx, double cy, double r, double[:] lb) nogil:
    """Each edge of core ``a`` to the circle (cx, cy, r): its midpoint's distance to the centre
    less half its length, less the radius (a padded edge: inf), into ``lb``."""
    cdef Py_ssize_t v
    cdef double m0, m1, h
    for v in range(P.shape[1]):
        if real[a, v]:
            m0 = 0.5 * (P[a, v, 0] + PE[a, v, 0])
            m1 = 0.5 * (P[a, v, 1] + PE[a, v, 1])
            h = 0.5 * hypot(PE[a, v, 0] - P[a, v, 0], PE[a, v, 1] - P[a, v, 1])
            lb[v] = (hypot(m0 - cx, m1 - cy) - h) - r
        else:
            lb[v] = INFINITY


def apart_distances(pa, xs_, pb, ys_):
    """geometry._apart_distances: the distance of the ``xs[k]``-th core of ``pa`` to the
    ``ys[k]``-th of ``pb`` (geometry._hulls_padded), each pair's bounding circles apart."""
    if not (_all_of((pa[0], pa[1], pa[3], pa[4], pb[0], pb[1], pb[3], pb[4]), F64)
            and _all_of((xs_,), INTP) and _all_of((ys_,), INTP)):
        return None
    cdef const double[:, :, :] P = pa[0]
    cdef const double[:, :, :] PE = pa[1]
    cdef const unsigned char[:, :] real_p = pa[2].view(np.uint8)
    cdef const double[:, :] cp = pa[3]
    cdef const double[:] rp = pa[4]
    cdef const double[:, :, :] Q = pb[0]
    cdef const double[:, :, :] QE = pb[1]
    cdef const unsigned char[:, :] real_q = pb[2].view(np.uint8)
    cdef const double[:, :] cq = pb[3]
    cdef const double[:] rq = pb[4]
    cdef const Py_ssize_t[:] xs = xs_
    cdef const Py_ssize_t[:] ys = ys_
    cdef Py_ssize_t n = xs.shape[0], Vp = P.shape[1], Vq = Q.shape[1]
    cdef Py_ssize_t k, a, b, i0, j0
    if not (_indices(xs, P.shape[0]) and _indices(ys, Q.shape[0])):
        return None
    for src in (pa[0], pa[1], pa[3], pa[4], pb[0], pb[1], pb[3], pb[4]):
        if not np.isfinite(src).all():
            return None
    out_ = np.empty(n)
    cdef double[::1] out = out_
    buf = np.empty((4, max(Vp, Vq)))
    cdef double[:, ::1] lb = buf
    cdef double u, cut, x, best
    for k in range(n):
        a, b = xs[k], ys[k]
        # the vertices' bounds, each to the other's circle
        i0 = _vertex_bounds(P, real_p, a, cq[b, 0], cq[b, 1], rq[b], lb[0])
        j0 = _vertex_bounds(Q, real_q, b, cp[a, 0], cp[a, 1], rp[a], lb[1])
        # U: the nearest-bound vertex of each against every edge of the other
        u = _vertex_to_edges(P[a, i0, 0], P[a, i0, 1], Q, QE, b)
        u = _min(u, _vertex_to_edges(Q[b, j0, 0], Q[b, j0, 1], P, PE, a))
        cut = u + PRUNE_SLACK
        # the edges' bounds, each to the other's circle
        _edge_bounds(P, PE, real_p, a, cq[b, 0], cq[b, 1], rq[b], lb[2])
        _edge_bounds(Q, QE, real_q, b, cp[a, 0], cp[a, 1], rp[a], lb[3])
        best = _kept_min(P, lb[0], Q, QE, lb[3], a, b, Vp, Vq, cut)
        x = _kept_min(Q, lb[1], P, PE, lb[2], b, a, Vq, Vp, cut)
        out[k] = _min(best, x)
        if out[k] != out[k]:
            return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return out_


def disc_distances(ca_, ra_, cb_, rb_):
    """geometry.disc_distances: (n, m) edge-to-edge distances between round bases, centres
    ``ca`` (n, 2), ``cb`` (m, 2) and radii ``ra``, ``rb``, at least 0."""
    if not _all_of((ca_, ra_, cb_, rb_), F64):
        return None
    cdef const double[:, :] ca = ca_
    cdef const double[:] ra = ra_
    cdef const double[:, :] cb = cb_
    cdef const double[:] rb = rb_
    cdef Py_ssize_t n = ca.shape[0], m = cb.shape[0], i, j
    if not (_finite(ca[:, 0]) and _finite(ca[:, 1]) and _finite(ra) and _finite(cb[:, 0])
            and _finite(cb[:, 1]) and _finite(rb)):
        return None
    out_ = np.empty((n, m))
    cdef double[:, ::1] out = out_
    cdef double dx, dy, x
    for i in range(n):
        for j in range(m):
            dx = ca[i, 0] - cb[j, 0]
            dy = ca[i, 1] - cb[j, 1]
            x = sqrt(dx * dx + dy * dy) - ra[i]
            x = x - rb[j]
            out[i, j] = _max(x, 0.0)
            if out[i, j] != out[i, j]:
                return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return out_


cdef double APART = 0.01          # geometry._APART


cdef bint _in_convex(double x, double y, const double[:, :] poly) noexcept nogil:
    """geometry._point_in_convex: three vertices or more, and no edge has the point more than EPS
    on its right (each edge to the next vertex, the last to the first)."""
    cdef Py_ssize_t n = poly.shape[0], k, f
    if n < 3:
        return False
    for k in range(n):
        f = k + 1 if k + 1 < n else 0
        if not ((poly[f, 0] - poly[k, 0]) * (y - poly[k, 1])
                - (poly[f, 1] - poly[k, 1]) * (x - poly[k, 0]) >= -EPS):
            return False
    return True


cdef inline double _orient3(double ax, double ay, double bx, double by, double cx, double cy) noexcept nogil:
    """geometry._edges_cross's orient: (b - a) x (c - a)."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def convex_distance(p_, q_, pe_=None, qe_=None, circles=None):
    """geometry._convex_distance: the closest distance between two convex polygons (points and
    segments allowed), 0.0 if they meet: the containment and crossing tests when the bounding
    circles are not apart, then the least (vertex, edge) distance both ways round over the
    entries the reference keeps (the same bounds, the same cut), as a float."""
    if not (_plain_xy(p_, 1) and _plain_xy(q_, 1)):
        return None
    pe_ = np.concatenate((p_[1:], p_[:1])) if pe_ is None else pe_
    qe_ = np.concatenate((q_[1:], q_[:1])) if qe_ is None else qe_
    if (not (_plain_xy(pe_, 1) and _plain_xy(qe_, 1)) or pe_.shape[0] != p_.shape[0]
            or qe_.shape[0] != q_.shape[0]):
        return None
    cdef const double[:, :] p = p_
    cdef const double[:, :] q = q_
    cdef const double[:, :] pe = pe_
    cdef const double[:, :] qe = qe_
    cdef Py_ssize_t m = p.shape[0], n = q.shape[0]
    cdef double cpx, cpy, cqx, cqy, rp, rq, x
    if circles is None:
        if not (p_.flags.c_contiguous and q_.flags.c_contiguous):
            return None   # (numpy's mean over the first axis of another layout may sum pairwise)
        cpx, cpy, rp = _circle2(p)
        cqx, cqy, rq = _circle2(q)
    else:
        try:
            (cp_, rp_), (cq_, rq_) = circles
        except (TypeError, ValueError):
            return None
        if (not _all_of((cp_, cq_), F64) or cp_.shape != (2,) or cq_.shape != (2,)
                or type(rp_) is not float or type(rq_) is not float):
            return None
        cpx, cpy, rp, cqx, cqy, rq = cp_[0], cp_[1], rp_, cq_[0], cq_[1], rq_
        if not (-1e150 < cpx < 1e150 and -1e150 < cpy < 1e150 and -1e150 < cqx < 1e150
                and -1e150 < cqy < 1e150 and -1e150 < rp < 1e150 and -1e150 < rq < 1e150):
            return None
    lb_ = np.empty((4, max(m, n)))
    x = _convex_core(p, q, pe, qe, cpx, cpy, rp, cqx, cqy, rq, lb_)
    if x != x:
        return None
    return x


cdef double _convex_core(const double[:, :] p, const double[:, :] q, const double[:, :] pe,
                         const double[:, :] qe, double cpx, double cpy, double rp, double cqx,
                         double cqy, double rq, double[:, ::1] lb):
    """convex_distance's answer from the polygons, their rolled copies and their circles
    (``lb``: scratch of 4 rows, as long as the longer polygon): NaN where a value made inside
    is no number (the caller leaves it to the reference)."""
    cdef Py_ssize_t m = p.shape[0], n = q.shape[0], i, j, i0 = 0, j0 = 0
    cdef double x, best, u, cut, d1, d2, dcx, dcy
    dcx = cpx - cqx
    dcy = cpy - cqy
    if sqrt(dcx * dcx + dcy * dcy) <= (rp + rq) + APART:
        if _in_convex(p[0, 0], p[0, 1], q) or _in_convex(q[0, 0], q[0, 1], p):
            return 0.0
        if m > 1 and n > 1:
            for i in range(m):
                for j in range(n):
                    if (_orient3(q[j, 0], q[j, 1], qe[j, 0], qe[j, 1], p[i, 0], p[i, 1])
                            * _orient3(q[j, 0], q[j, 1], qe[j, 0], qe[j, 1], pe[i, 0], pe[i, 1]) < 0
                            and _orient3(p[i, 0], p[i, 1], pe[i, 0], pe[i, 1], q[j, 0], q[j, 1])
                            * _orient3(p[i, 0], p[i, 1], pe[i, 0], pe[i, 1], qe[j, 0], qe[j, 1]) < 0):
                        return 0.0
    # the bounds: each vertex, and each edge, to the other polygon's circle
    best = INFINITY
    for i in range(m):
        lb[0, i] = hypot(p[i, 0] - cqx, p[i, 1] - cqy) - rq
        if lb[0, i] < best:
            i0, best = i, lb[0, i]
    best = INFINITY
    for j in range(n):
        lb[1, j] = hypot(q[j, 0] - cpx, q[j, 1] - cpy) - rp
        if lb[1, j] < best:
            j0, best = j, lb[1, j]
    u = INFINITY
    for j in range(n):
        u = _min(u, _segment(p[i0, 0], p[i0, 1], q[j, 0], q[j, 1], qe[j, 0], qe[j, 1]))
    x = INFINITY
    for i in range(m):
        x = _min(x, _segment(q[j0, 0], q[j0, 1], p[i, 0], p[i, 1], pe[i, 0], pe[i, 1]))
    u = _min(u, x)
    cut = u + PRUNE_SLACK
    for i in range(m):
        lb[2, i] = (hypot(0.5 * (p[i, 0] + pe[i, 0]) - cqx, 0.5 * (p[i, 1] + pe[i, 1]) - cqy)
                    - 0.5 * hypot(pe[i, 0] - p[i, 0], pe[i, 1] - p[i, 1])) - rq
    for j in range(n):
        lb[3, j] = (hypot(0.5 * (q[j, 0] + qe[j, 0]) - cpx, 0.5 * (q[j, 1] + qe[j, 1]) - cpy)
                    - 0.5 * hypot(qe[j, 0] - q[j, 0], qe[j, 1] - q[j, 1])) - rp
    d1 = INFINITY
    for i in range(m):
        if not (lb[0, i] <= cut):
            continue
        for j in range(n):
            if lb[3, j] <= cut:
                d1 = _min(d1, _segment(p[i, 0], p[i, 1], q[j, 0], q[j, 1], qe[j, 0], qe[j, 1]))
    d2 = INFINITY
    for j in range(n):
        if not (lb[1, j] <= cut):
            continue
        for i in range(m):
            if lb[2, i] <= cut:
                d2 = _min(d2, _segment(q[j, 0], q[j, 1], p[i, 0], p[i, 1], pe[i, 0], pe[i, 1]))
    return d2 if d2 < d1 else d1


cdef (double, double, double) _circle2(const double[:, :] poly):
    """geometry._circle of a C-ordered polygon: the vertex mean (a sum from +0.0 row by row, as
    numpy's over the first axis of such an array) and the root of the farthest vertex's
    squared distance."""
    cdef Py_ssize_t n = poly.shape[0], k
    cdef double sx = 0.0, sy = 0.0, dx, dy, far = -INFINITY
    for k in range(n):
        sx = sx + poly[k, 0]
        sy = sy + poly[k, 1]
    sx = sx / <double>n
    sy = sy / <double>n
    for k in range(n):
        dx = poly[k, 0] - sx
        dy = poly[k, 1] - sy
        far = _max(far, dx * dx + dy * dy)
    return sx, sy, sqrt(far)


def hull_block_values(fps_a, fps_b, hulls_a, hulls_b):
    """geometry._hull_block_values: (len(hulls_a), len(hulls_b)) the distance between each two
    hulls, read from their geometry._hull (core, radius 0, rolled core, (circle centre, radius))
    alone (the footprints are the reference's, for its kept answers): the
    pairs whose circles are not apart (the reference's test, elementwise) as geometry.distance
    gives it, max(0.0, d - 0.0 - 0.0) in Python's way; the others as _apart_distances does, the
    same d (_convex_distance's to the bit), then numpy's maximum with 0.0. Each hull's arrays
    float64 (k, 2), its radius 0.0, its circle a float64 (2,) centre and a float; else the
    reference's."""
    cdef Py_ssize_t na = len(hulls_a), nb = len(hulls_b), x, y, longest = 1
    if len(fps_a) != na or len(fps_b) != nb:
        return None
    for hs in (hulls_a, hulls_b):
        for h in hs:
            if (len(h) != 4 or not _plain_xy(h[0], 1) or not _plain_xy(h[2], 1) or h[0].shape != h[2].shape
                    or type(h[1]) is not float or h[1] != 0.0):
                return None
            c_, r_ = h[3]
            if not _all_of((c_,), F64) or c_.shape != (2,) or type(r_) is not float:
                return None
            if not (-1e150 < c_[0] < 1e150 and -1e150 < c_[1] < 1e150 and -1e150 < r_ < 1e150):
                return None
            if h[0].shape[0] > longest:
                longest = h[0].shape[0]
    out_ = np.empty((na, nb))
    cdef double[:, ::1] out = out_
    lb_ = np.empty((4, longest))
    cdef double[:, ::1] lb = lb_
    cdef double[:, ::1] ca = np.array([h[3][0] for h in hulls_a], dtype=np.float64).reshape(na, 2)
    cdef double[:, ::1] cb = np.array([h[3][0] for h in hulls_b], dtype=np.float64).reshape(nb, 2)
    cdef double[::1] rca = np.array([h[3][1] for h in hulls_a], dtype=np.float64)
    cdef double[::1] rcb = np.array([h[3][1] for h in hulls_b], dtype=np.float64)
    cdef const double[:, :] p
    cdef const double[:, :] pe
    cdef const double[:, :] q
    cdef const double[:, :] qe
    cdef double dx, dy, d, v
    bq = [(h[0], h[2]) for h in hulls_b]
    for x in range(na):
        p, pe = hulls_a[x][0], hulls_a[x][2]
        for y in range(nb):
            q, qe = bq[y]
            d = _convex_core(p, q, pe, qe, ca[x, 0], ca[x, 1], rca[x], cb[y, 0], cb[y, 1], rcb[y], lb)
            if d != d:
                return None
            v = d - 0.0 - 0.0
            dx = ca[x, 0] - cb[y, 0]
            dy = ca[x, 1] - cb[y, 1]
            # (the two maxima differ only at a NaN or a -0.0, which no distance here is: each
            # pair's kept as the reference keeps it all the same)
            if sqrt(dx * dx + dy * dy) <= (rca[x] + rcb[y]) + APART:
                out[x, y] = v if v > 0.0 else 0.0           # (Python's max(0.0, v))
            else:
                out[x, y] = _max(v, 0.0)                    # (numpy's maximum(v, 0.0))
    return out_

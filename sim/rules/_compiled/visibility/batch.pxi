# The compiled twins of sim.rules.visibility.batch: the line-of-sight batch: segments against
# pieces (the separating-axis test), the ragged rows it is indexed by, round bases' outlines and
# the lines between two of them. One file of sight.pyx, which says what every twin holds to
# (this folder mirrors sim/rules/visibility: a file for each module with twins).


def sat_cross_k(ax_, ay_, bx_, by_, pk, k_):
    """visibility.batch.sat_cross_k: does segment j, (ax, ay)-(bx, by), cross piece k[j]
    (no gap along the piece's edge normals, then none along the segment's own normal)."""
    nx_, ny_, off_, vx_, vy_ = pk.soa
    if not (_all_of((ax_, ay_, bx_, by_, nx_, ny_, off_, vx_, vy_), F64)
            and _all_of((k_,), INTP)):
        return None
    cdef const double[:] ax = ax_
    cdef const double[:] ay = ay_
    cdef const double[:] bx = bx_
    cdef const double[:] by = by_
    cdef const Py_ssize_t[:] k = k_
    cdef Py_ssize_t E = k.shape[0]
    if not _indices(k, nx_.shape[1]):
        return None
    out_ = np.empty(E, dtype=bool)
    if E == 0:
        return out_
    cdef Py_ssize_t Vm = int(pk.nverts.max()) if len(pk) else 1
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    cdef unsigned char[:] out = out_.view(np.uint8)
    cdef Py_ssize_t j
    for j in range(E):
        out[j] = _sat_cross(ax[j], ay[j], bx[j], by[j], k[j], Vm, NX, NY, OFF, VX, VY)
    return out_


cdef inline bint _sat_cross(double a0, double a1, double b0, double b1, Py_ssize_t p, Py_ssize_t Vm,
                            const double[:, :] NX, const double[:, :] NY, const double[:, :] OFF,
                            const double[:, :] VX, const double[:, :] VY) noexcept nogil:
    """sat_cross_k's test of one entry: segment (a0, a1)-(b0, b1) against piece ``p`` (its first
    ``Vm`` vertex rows of the packed copy, Pieces.soa)."""
    cdef Py_ssize_t v
    cdef double pa, gb, dx, dy, L, mx, my, c, w, lo, hi
    cdef bint nan
    for v in range(Vm):      # (the piece's edge normals: the segment's ends beyond one)
        pa = NX[v, p] * a0 + NY[v, p] * a1
        gb = NX[v, p] * b0 + NY[v, p] * b1
        if _min(pa, gb) - OFF[v, p] >= -SIGHT_EPS:
            return False
    # (the segment's own normal: the piece's vertices on one side)
    dx = b0 - a0
    dy = b1 - a1
    L = sqrt(dx * dx + dy * dy)
    if L > 1e-12:
        mx = -dy / L
        my = dx / L
        c = mx * a0 + my * a1
        lo, hi, nan = INFINITY, -INFINITY, False
        for v in range(Vm):
            w = VX[v, p] * mx + VY[v, p] * my
            w = w - c
            if w != w:
                nan = True
            if w < lo:
                lo = w
            if w > hi:
                hi = w
        if not nan and (lo >= -SIGHT_EPS or hi <= SIGHT_EPS):
            return False
    return True


cdef object _row_offsets(const Py_ssize_t[:] start, const Py_ssize_t[:] rows):
    """Where each of ``rows`` of a CSR list (offsets ``start``) would begin, laid one after
    another, and the end (n + 1 offsets, int64); None for a row out of range or of negative
    length (the reference's: numpy reads a negative row from the end, or raises)."""
    cdef Py_ssize_t n = rows.shape[0], S = start.shape[0], i, q, c
    ns_ = np.zeros(n + 1, dtype=np.int64)
    cdef long long[::1] ns = ns_
    for i in range(n):
        q = rows[i]
        if q < 0 or q + 1 >= S:
            return None
        c = start[q + 1] - start[q]
        if c < 0:
            return None
        ns[i + 1] = ns[i] + c
    return ns_


cdef void _positions(const Py_ssize_t[:] start, const Py_ssize_t[:] rows, Py_ssize_t[::1] item,
                     Py_ssize_t[::1] pos) nogil:
    """Each entry of ``rows``, row after row: the row's index in ``rows`` and its position in the
    data."""
    cdef Py_ssize_t i, p, q, m = 0
    for i in range(rows.shape[0]):
        q = rows[i]
        for p in range(start[q], start[q + 1]):
            item[m] = i
            pos[m] = p
            m += 1


cdef tuple _expand(start_, rows_):
    """For ``rows`` of a CSR list (offsets ``start``): where each would begin laid one after
    another (n + 1 offsets), and each entry's row in ``rows`` and position in the data; None for
    integers of another type than numpy's index type or a row the reference must answer."""
    if not _all_of((start_, rows_), INTP) or start_.ndim != 1 or rows_.ndim != 1:
        return None
    ns_ = _row_offsets(start_, rows_)
    if ns_ is None:
        return None
    item_ = np.empty(ns_[-1], dtype=np.intp)
    pos_ = np.empty(ns_[-1], dtype=np.intp)
    _positions(start_, rows_, item_, pos_)
    return ns_, item_, pos_


def ragged_expand(start_, owner_):
    """visibility.batch.ragged_expand: for items with owner q, (item index, position in
    [start[q], start[q+1])), item by item."""
    got = _expand(start_, owner_)
    return None if got is None else (got[1], got[2])


def csr_subset(start_, data_, sel_):
    """visibility.batch.csr_subset: rows ``sel`` of a CSR list (start offsets, data): (new
    start, new data)."""
    got = _expand(start_, sel_)
    return None if got is None else (got[0], data_[got[2]])


cdef double LINE_TOL = 1e-9       # visibility.batch._TOL


cdef inline bint _tangent_line(double c1x, double c1y, double r1, double c2x, double c2y, double r2,
                               double sgn, double root, double* nx, double* ny,
                               double* s) noexcept nogil:
    """batch._tangent for one line: the common tangent of discs (c1, r1) and (c2, r2) of sign
    ``sgn`` and root ``root``, its unit normal and offset; False where the reference's is NaN."""
    cdef double dx = c1x - c2x, dy = c1y - c2y
    cdef double D2 = dx * dx + dy * dy
    cdef double delta = r1 - sgn * r2
    cdef double h2 = D2 - delta * delta
    if not (D2 > 1e-18 and h2 >= -1e-12):
        return False
    cdef double h = sqrt(_max(h2, 0.0))
    nx[0] = (delta * dx + root * h * -dy) / D2
    ny[0] = (delta * dy + root * h * dx) / D2
    s[0] = nx[0] * c1x + ny[0] * c1y - r1
    return True


cdef inline bint _chord(double nx, double ny, double s, double cx, double cy, double r,
                        double* t0, double* t1) noexcept nogil:
    """batch._disc_chord for one line and disc: the interval along the line where it meets the
    disc; False where the reference's is NaN."""
    cdef double wx = cx - nx * s, wy = cy - ny * s
    cdef double tc = wx * -ny + wy * nx
    cdef double dist = fabs(wx * nx + wy * ny)
    if not (dist <= r + LINE_TOL):
        return False
    cdef double half = sqrt(_max(r * r - dist * dist, 0.0))
    t0[0] = tc - half
    t1[0] = tc + half
    return True


cdef bint _line_sees(double nx, double ny, double s, double ax, double ay, double ra, double bx,
                     double by, double rb, const Py_ssize_t[:] pidx, Py_ssize_t p0, Py_ssize_t p1,
                     Py_ssize_t Vm, const double[:, :] NX, const double[:, :] NY,
                     const double[:, :] OFF, const double[:, :] VX,
                     const double[:, :] VY) noexcept nogil:
    """batch._lines_free for one line of one pair: the line meets both discs, and they touch
    along it or its part from A to B crosses none of the pair's pieces pidx[p0:p1]."""
    cdef double ta0, ta1, tb0, tb1, t_from, t_to, x0, y0, p0x, p0y, p1x, p1y
    cdef bint fwd, bwd
    cdef Py_ssize_t e
    if not _chord(nx, ny, s, ax, ay, ra, &ta0, &ta1) or ta0 != ta0:
        return False
    if not _chord(nx, ny, s, bx, by, rb, &tb0, &tb1) or tb0 != tb0:
        return False
    fwd = ta1 <= tb0 + LINE_TOL
    bwd = tb1 <= ta0 + LINE_TOL
    if not fwd and not bwd:
        return True             # (the footprints meet along the line)
    t_from = ta1 if fwd else ta0
    t_to = tb0 if fwd else tb1
    x0 = nx * s
    y0 = ny * s
    p0x = x0 - t_from * ny
    p0y = y0 + t_from * nx
    p1x = x0 - t_to * ny
    p1y = y0 + t_to * nx
    for e in range(p0, p1):
        if _sat_cross(p0x, p0y, p1x, p1y, pidx[e], Vm, NX, NY, OFF, VX, VY):
            return False
    return True


cdef bint _csr_rows(const Py_ssize_t[:] start, Py_ssize_t n) noexcept nogil:
    """CSR row starts that never go back, within [0, n]."""
    cdef Py_ssize_t i
    if start[0] < 0 or start[start.shape[0] - 1] > n:
        return False
    for i in range(1, start.shape[0]):
        if start[i] < start[i - 1]:
            return False
    return True


def pairs_visible_round(ca_, ra_, cb_, rb_, pk, pstart_, pidx_, ostart_, opts_):
    """visibility.batch.pairs_visible_round: sight between round footprints A[q] and B[q], pair
    by pair, along the reference's candidate lines (the four common tangents; the tangents to A
    and to B through each obstacle vertex; the lines through two obstacle vertices), each line
    the reference's arithmetic, each pair's answer an OR over its lines (so a pair stops at its
    first free line)."""
    nx_, ny_, off_, vx_, vy_ = pk.soa
    if not (_plain_xy(ca_, 0) and _plain_xy(cb_, 0) and _plain_xy(opts_, 0)
            and _all_of((ra_, rb_, nx_, ny_, off_, vx_, vy_), F64)
            and _all_of((pstart_, pidx_, ostart_), INTP)):
        return None
    cdef Py_ssize_t Q = ca_.shape[0], q, i, j, e, o0, o1
    if (cb_.shape[0] != Q or ra_.ndim != 1 or rb_.ndim != 1 or ra_.shape[0] != Q
            or rb_.shape[0] != Q or pstart_.ndim != 1 or ostart_.ndim != 1 or pidx_.ndim != 1
            or pstart_.shape[0] != Q + 1 or ostart_.shape[0] != Q + 1):
        return None
    cdef const double[:, :] ca = ca_
    cdef const double[:, :] cb = cb_
    cdef const double[:, :] op = opts_
    cdef const double[:] ra = ra_
    cdef const double[:] rb = rb_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    cdef const Py_ssize_t[:] ostart = ostart_
    # (the reference reads the obstacle rows as one run from 0 to the last vertex)
    if not (_bounded(ra, 1e150) and _bounded(rb, 1e150) and _csr_rows(pstart, pidx.shape[0])
            and _csr_rows(ostart, op.shape[0]) and ostart[0] == 0 and ostart[Q] == op.shape[0]
            and _indices(pidx, nx_.shape[1])):
        return None
    vis_ = np.zeros(Q, dtype=bool)
    if Q == 0:
        return vis_
    cdef unsigned char[:] vis = vis_.view(np.uint8)
    cdef Py_ssize_t Vm = int(pk.nverts.max()) if len(pk) else 1
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    cdef double ax, ay, r_a, bx, by, r_b, nx, ny, s
    cdef double SG[4]
    cdef double RT[4]
    SG[:] = [1.0, 1.0, -1.0, -1.0]
    RT[:] = [1.0, -1.0, 1.0, -1.0]
    cdef bint seen, ok
    for q in range(Q):
        if pstart[q + 1] == pstart[q]:
            vis[q] = True       # (no piece between them)
            continue
        ax, ay, r_a, bx, by, r_b = ca[q, 0], ca[q, 1], ra[q], cb[q, 0], cb[q, 1], rb[q]
        o0, o1 = ostart[q], ostart[q + 1]
        seen = False
        for i in range(4):      # round 0: the common tangents of A and B
            if (_tangent_line(ax, ay, r_a, bx, by, r_b, SG[i], RT[i], &nx, &ny, &s)
                    and _line_sees(nx, ny, s, ax, ay, r_a, bx, by, r_b, pidx, pstart[q],
                                   pstart[q + 1], Vm, NX, NY, OFF, VX, VY)):
                seen = True
                break
        if not seen:            # round 1: tangent to A, then to B, through an obstacle vertex
            for e in range(4):
                for i in range(o0, o1):
                    if e < 2:
                        ok = _tangent_line(ax, ay, r_a, op[i, 0], op[i, 1], 0.0, 1.0, RT[e],
                                           &nx, &ny, &s)
                    else:
                        ok = _tangent_line(bx, by, r_b, op[i, 0], op[i, 1], 0.0, 1.0, RT[e],
                                           &nx, &ny, &s)
                    if ok and _line_sees(nx, ny, s, ax, ay, r_a, bx, by, r_b, pidx, pstart[q],
                                         pstart[q + 1], Vm, NX, NY, OFF, VX, VY):
                        seen = True
                        break
                if seen:
                    break
        if not seen:            # round 2: lines through two obstacle vertices of the pair
            for i in range(o0, o1):
                for j in range(i + 1, o1):
                    if (_tangent_line(op[i, 0], op[i, 1], 0.0, op[j, 0], op[j, 1], 0.0, 1.0, 1.0,
                                      &nx, &ny, &s)
                            and _line_sees(nx, ny, s, ax, ay, r_a, bx, by, r_b, pidx, pstart[q],
                                           pstart[q + 1], Vm, NX, NY, OFF, VX, VY)):
                        seen = True
                        break
                if seen:
                    break
        vis[q] = seen
    return vis_


def outline_crossings_round(c_, r_, pk, start_, idx_, rows_=None):
    """visibility.batch.outline_crossings_round: where the edges of the pieces of CSR row
    ``rows[q]`` (default q) cross the circle (c[q], r[q]), circle by circle, each circle's
    roots of one sign (-) then the other (+), piece and edge in order within them: a piece
    only when its box grown by the radius + 0.01" holds the centre; each edge's quadratic the
    reference's arithmetic (numpy's einsum of two terms: a sum from +0.0). Places that are no
    number well within range, or rows and indices out of range, are the reference's."""
    if not (_all_of((c_, r_), F64) and _all_of((start_, idx_), INTP)) or c_.ndim != 2 or r_.ndim != 1:
        return None
    if start_.ndim != 1 or idx_.ndim != 1 or (rows_ is not None and (not _all_of((rows_,), INTP) or rows_.ndim != 1)):
        return None
    bb_, verts_ = pk.bbox, pk.verts
    if not _all_of((bb_, verts_), F64) or bb_.ndim != 2 or verts_.ndim != 3:
        return None
    cdef const double[:, :] c = c_
    cdef const double[:] r = r_
    cdef const Py_ssize_t[:] start = start_
    cdef const Py_ssize_t[:] idx = idx_
    cdef const double[:, :] bb = bb_
    cdef const double[:, :, :] verts = verts_
    cdef Py_ssize_t n = c.shape[0], K = verts.shape[0], V = verts.shape[1], R = start.shape[0] - 1
    cdef Py_ssize_t q, row, e, k, v, w, sgn, m = 0, total = 0
    if r.shape[0] != n or (n and c.shape[1] != 2) or bb.shape[0] != K or (K and bb.shape[1] != 4) or V == 0:
        return None
    if K and verts.shape[2] != 2:
        return None
    cdef const Py_ssize_t[:] rows
    if rows_ is not None:
        rows = rows_
        if rows.shape[0] != n:
            return None
    if not (_bounded(c[:, 0], 1e150) and _bounded(c[:, 1], 1e150) and _bounded(r, 1e150)):
        return None
    for k in range(K):
        if not (_bounded(bb[k], 1e150) and _bounded(verts[k, :, 0], 1e150) and _bounded(verts[k, :, 1], 1e150)):
            return None
    for q in range(n):
        row = rows[q] if rows_ is not None else q
        if not (0 <= row < R) or not (0 <= start[row] <= start[row + 1] <= idx.shape[0]):
            return None
        for e in range(start[row], start[row + 1]):
            if not (0 <= idx[e] < K):
                return None
        total += start[row + 1] - start[row]
    own_ = np.empty(2 * total * V, dtype=np.intp)
    pts_ = np.empty((2 * total * V, 2))
    cdef Py_ssize_t[::1] own = own_
    cdef double[:, ::1] pts = pts_
    cdef double cx, cy, rq, g, ax, ay, dx, dy, fx, fy, A, B, C, disc, sq, t
    for q in range(n):
        row = rows[q] if rows_ is not None else q
        cx, cy, rq = c[q, 0], c[q, 1], r[q]
        g = rq + 0.01
        for sgn in range(2):
            for e in range(start[row], start[row + 1]):
                k = idx[e]
                if not (cx >= bb[k, 0] - g and cx <= bb[k, 2] + g and cy >= bb[k, 1] - g and cy <= bb[k, 3] + g):
                    continue
                for v in range(V):
                    w = v + 1 if v + 1 < V else 0
                    ax, ay = verts[k, v, 0], verts[k, v, 1]
                    dx = verts[k, w, 0] - ax
                    dy = verts[k, w, 1] - ay
                    fx = ax - cx
                    fy = ay - cy
                    A = (0.0 + dx * dx) + dy * dy
                    B = 2 * ((0.0 + fx * dx) + fy * dy)
                    C = ((0.0 + fx * fx) + fy * fy) - rq * rq
                    disc = B * B - 4 * A * C
                    if not (A > 0 and disc >= 0):
                        continue
                    sq = sqrt(disc)
                    t = ((-B) + (-sq if sgn == 0 else sq)) / (2 * A)
                    if t >= 0 and t <= 1:
                        own[m] = q
                        pts[m, 0] = ax + t * dx
                        pts[m, 1] = ay + t * dy
                        m += 1
    return own_[:m].copy(), pts_[:m].copy()

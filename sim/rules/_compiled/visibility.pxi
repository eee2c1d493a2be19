# 06.01/13.11 The sight kernels of sim.rules.visibility, compiled: each the same IEEE
# operations in the same order as its numpy reference, entry by entry, so each answer is the
# reference's to the bit (sim.rules.compiled: the registry, its modes and its tests). A NaN goes
# where numpy's minimum and maximum take it (into the result), not where a comparison would; an
# input of another type than numpy's float64 and index types, an index out of range, or (where
# the answer is a number) a value that is no finite number, is the reference's
# (sim.rules._compiled.common).


cdef double SIGHT_EPS = 1e-9      # visibility.kernels.SIGHT_EPS


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


cdef double FREE = 1e-7           # visibility.certs._FREE


cdef inline void _star_quad(Py_ssize_t q, Py_ssize_t s, const double[:, :] px, const double[:, :] py,
                            const double[:, :] s0, const double[:, :] wx, const double[:, :] wy,
                            const double[:, :] W, const double[:, :] rr, const double[:, :] sn,
                            const double[:, :] h, double* tx, double* ty, double* nx, double* ny,
                            double* no) noexcept nogil:
    """The star's quadrilateral of apex s of pair q (vertices: near corner 1, far corners, near
    corner 2) and its outward side normals and offsets (side 1, far side, side 2, near side):
    certs._stars_separated's arithmetic."""
    cdef double t1x = wx[q, s] * h[q, s] - wy[q, s] * sn[q, s]
    cdef double t1y = wy[q, s] * h[q, s] + wx[q, s] * sn[q, s]
    cdef double t2x = wx[q, s] * h[q, s] + wy[q, s] * sn[q, s]
    cdef double t2y = wy[q, s] * h[q, s] - wx[q, s] * sn[q, s]
    cdef double far = (W[q, s] + rr[q, 0]) / h[q, s]
    cdef Py_ssize_t i
    tx[0] = px[q, s] + t1x * s0[q, s]
    tx[1] = px[q, s] + t1x * far
    tx[2] = px[q, s] + t2x * far
    tx[3] = px[q, s] + t2x * s0[q, s]
    ty[0] = py[q, s] + t1y * s0[q, s]
    ty[1] = py[q, s] + t1y * far
    ty[2] = py[q, s] + t2y * far
    ty[3] = py[q, s] + t2y * s0[q, s]
    nx[0], nx[1], nx[2], nx[3] = -t1y, wx[q, s], t2y, -wx[q, s]
    ny[0], ny[1], ny[2], ny[3] = t1x, wy[q, s], -t2x, -wy[q, s]
    for i in range(4):
        no[i] = nx[i] * tx[i] + ny[i] * ty[i]


cdef inline bint _star_separated(Py_ssize_t p, Py_ssize_t V, const double* tx, const double* ty,
                                 const double* nx, const double* ny, const double* no,
                                 const double[:, :] NX, const double[:, :] NY,
                                 const double[:, :] GO, const double[:, :] VX,
                                 const double[:, :] VY) noexcept nogil:
    """Is the quadrilateral separated by more than FREE from piece p: its vertices all beyond
    one of the piece's edges, or the piece's vertices all beyond one of its sides."""
    cdef Py_ssize_t v, i
    cdef double m, x, mn
    cdef bint nan
    for v in range(V):
        m = NX[v, p] * tx[0] + NY[v, p] * ty[0]
        for i in range(1, 4):
            m = _min(m, NX[v, p] * tx[i] + NY[v, p] * ty[i])
        if m - GO[v, p] >= FREE:
            return True
    for i in range(4):
        mn, nan = INFINITY, False
        for v in range(V):
            x = nx[i] * VX[v, p] + ny[i] * VY[v, p]
            if x != x:
                nan = True
            if x < mn:
                mn = x
        if not nan and mn - no[i] >= FREE:
            return True
    return False


def stars_separated(px_, py_, s0_, ok_, wx_, wy_, W_, rr_, sn_, h_, e_, k_, pk):
    """visibility.certs._stars_separated: per pair q, is some apex s that applies (``ok``)
    separated by more than _FREE from every piece of the pair (its entries: e[j] == q, piece
    k[j]), its star's quadrilateral against the piece, both ways round. Entries grouped by pair
    (e ascending, as ragged_expand gives them): pair by pair, apex by apex, each apex's
    quadrilateral made once and a pair done at its first apex clear of all its pieces; else
    entry by entry."""
    pnx_, pny_, poff_, pvx_, pvy_ = pk.soa
    if not (_all_of((px_, py_, s0_, wx_, wy_, W_, rr_, sn_, h_, pnx_, pny_, poff_, pvx_, pvy_),
                    F64)
            and _all_of((ok_,), BOOL)
            and _all_of((e_,), INTP) and _all_of((k_,), INTP)):
        return None
    cdef const double[:, :] px = px_
    cdef const double[:, :] py = py_
    cdef const double[:, :] s0 = s0_
    cdef const double[:, :] wx = wx_
    cdef const double[:, :] wy = wy_
    cdef const double[:, :] W = W_
    cdef const double[:, :] rr = rr_
    cdef const double[:, :] sn = sn_
    cdef const double[:, :] h = h_
    cdef const unsigned char[:, :] ok = ok_.view(np.uint8)
    cdef const Py_ssize_t[:] e = e_
    cdef const Py_ssize_t[:] k = k_
    cdef Py_ssize_t Q = px.shape[0], S = px.shape[1], E = e.shape[0]
    if not (_indices(e, Q) and _indices(k, pnx_.shape[1])):
        return None
    cdef const double[:, :] NX = pnx_
    cdef const double[:, :] NY = pny_
    cdef const double[:, :] GO = poff_
    cdef const double[:, :] VX = pvx_
    cdef const double[:, :] VY = pvy_
    cdef Py_ssize_t V = NX.shape[0]
    out_ = np.zeros(Q, dtype=bool)
    cdef unsigned char[:] out = out_.view(np.uint8)
    cdef double tx[4]
    cdef double ty[4]
    cdef double nx[4]
    cdef double ny[4]
    cdef double no[4]
    cdef Py_ssize_t j, j0, j1, s, q
    cdef bint grouped = True, clear
    cdef unsigned char[::1] has
    for j in range(1, E):
        if e[j] < e[j - 1]:
            grouped = False
            break
    if grouped:
        has_ = np.zeros(Q, dtype=np.uint8)
        has = has_
        j0 = 0
        while j0 < E:
            q = e[j0]
            j1 = j0 + 1
            while j1 < E and e[j1] == q:
                j1 += 1
            has[q] = 1
            for s in range(S):
                if not ok[q, s]:
                    continue
                _star_quad(q, s, px, py, s0, wx, wy, W, rr, sn, h, tx, ty, nx, ny, no)
                clear = True
                for j in range(j0, j1):
                    if not _star_separated(k[j], V, tx, ty, nx, ny, no, NX, NY, GO, VX, VY):
                        clear = False
                        break
                if clear:
                    out[q] = 1
                    break
            j0 = j1
        for q in range(Q):          # (a pair without pieces: any apex that applies)
            if not has[q]:
                for s in range(S):
                    if ok[q, s]:
                        out[q] = 1
                        break
        return out_
    bad_ = np.zeros((Q, S), dtype=np.uint8)
    cdef unsigned char[:, ::1] bad = bad_
    for j in range(E):
        q = e[j]
        for s in range(S):
            if not ok[q, s] or bad[q, s]:
                continue
            _star_quad(q, s, px, py, s0, wx, wy, W, rr, sn, h, tx, ty, nx, ny, no)
            if not _star_separated(k[j], V, tx, ty, nx, ny, no, NX, NY, GO, VX, VY):
                bad[q, s] = 1
    for q in range(Q):
        for s in range(S):
            if ok[q, s] and not bad[q, s]:
                out[q] = 1
                break
    return out_


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


def capsule_distances(ax_, ay_, bx_, by_, r_, pk, k_):
    """visibility.pairs._capsule_distances: for entries (segment a-b, piece k[j], radius r[j]),
    which real vertices of the piece lie within r of the segment (entry, vertex), and the
    distance between the segment and the piece's outline."""
    _n, _m, _o, vx_, vy_ = pk.soa
    if not (_all_of((ax_, ay_, bx_, by_, r_, vx_, vy_), F64) and _all_of((k_,), INTP)):
        return None
    cdef const double[:] ax = ax_
    cdef const double[:] ay = ay_
    cdef const double[:] bx = bx_
    cdef const double[:] by = by_
    cdef const double[:] r = r_
    cdef const Py_ssize_t[:] k = k_
    if not (_indices(k, vx_.shape[1]) and _finite(ax) and _finite(ay) and _finite(bx) and _finite(by)
            and _finite(r)):
        return None
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    cdef const long long[:] nverts = np.asarray(pk.nverts, dtype=np.int64)
    cdef Py_ssize_t E = k.shape[0], V = VX.shape[0], j, v, w, p
    inside_ = np.empty((E, V), dtype=bool)
    cdef unsigned char[:, ::1] inside = inside_.view(np.uint8)
    out_ = np.empty(E)
    cdef double[::1] out = out_
    cdef double dx, dy, L2, rx, ry, t, dv, de, wx, wy, ww, qx, qy, uu, x, dva
    cdef Py_ssize_t end
    for j in range(E):
        p = k[j]
        dx = bx[j] - ax[j]
        dy = by[j] - ay[j]
        L2 = dx * dx + dy * dy
        L2 = 1.0 if L2 <= 0 else L2
        dva = INFINITY
        for v in range(V):       # (each vertex to the segment)
            rx = VX[v, p] - ax[j]
            ry = VY[v, p] - ay[j]
            t = _clip01((rx * dx + ry * dy) / L2)
            rx = rx - t * dx
            ry = ry - t * dy
            x = rx * rx + ry * ry
            inside[j, v] = v < nverts[p] and sqrt(x) <= r[j]
            dva = x if v == 0 else _min(dva, x)
        de = INFINITY
        for end in range(2):     # (each end of the segment to the piece's edges, a then b)
            dv = 0.0
            for v in range(V):
                w = v + 1 if v + 1 < V else 0
                wx = VX[w, p] - VX[v, p]
                wy = VY[w, p] - VY[v, p]
                ww = wx * wx + wy * wy
                ww = ww if (ww >= 1e-30 or ww != ww) else 1e-30
                if end == 0:
                    qx = ax[j] - VX[v, p]
                    qy = ay[j] - VY[v, p]
                else:
                    qx = bx[j] - VX[v, p]
                    qy = by[j] - VY[v, p]
                uu = _clip01((qx * wx + qy * wy) / ww)
                qx = qx - uu * wx
                qy = qy - uu * wy
                x = qx * qx + qy * qy
                dv = x if v == 0 else _min(dv, x)
            de = _min(de, dv)
        out[j] = sqrt(_min(dva, de))
        if out[j] != out[j]:
            return None   # (a NaN made inside, an overflow's: the reference's, sign bit and all)
    return inside_, out_


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


cdef double UMBRA_GROW = 1e-6     # visibility.umbra._GROW
cdef double UMBRA_REACH = 1e6     # inches: the centres umbra_chords takes (a table is under 100")
cdef Py_ssize_t PIECE_DENSE = 1   # visibility.sight.DENSE


cdef bint _chord_umbra(double cx, double cy, double r, Py_ssize_t k, Py_ssize_t V,
                       const double[:, :] NX, const double[:, :] NY, const double[:, :] OFF,
                       const double[:, :] VX, const double[:, :] VY, double* H) noexcept nogil:
    """The umbra of piece ``k``'s chord seen from (cx, cy), lit by the disc there of radius
    ``r``: umbra._chord_lines' silhouette and _chord_rows' half-planes n . x <= o, the same
    arithmetic as certs._umbra_rows' (rows of ``H``: 0-2 the chord line, facing the light; 3-5
    the tangent through t1; 6-8 through t2). False where the references' chord is not valid
    (the piece's activity and convexity are the caller's)."""
    cdef Py_ssize_t a = -1, b = V - 1, nt = 0, v, e
    cdef bint f, fprev
    cdef double x1, y1, x2, y2, ex, ey, le, wx, wy, d2, h, n_x, n_y, px, py, qx, qy, sg
    # the silhouette vertices: where the edges facing the centre change (rows v and v - 1)
    fprev = NX[V - 1, k] * cx + NY[V - 1, k] * cy > OFF[V - 1, k]
    for v in range(V):
        f = NX[v, k] * cx + NY[v, k] * cy > OFF[v, k]
        if f != fprev:
            if a < 0:
                a = v
            b = v
            nt += 1
        fprev = f
    if nt != 2:
        return False
    x1, y1, x2, y2 = VX[a, k], VY[a, k], VX[b, k], VY[b, k]
    if (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx) < 0:    # t1 -> t2 counter-clockwise
        x1, x2 = x2, x1
        y1, y2 = y2, y1
    ex = x2 - x1
    ey = y2 - y1
    le = sqrt(ex * ex + ey * ey)
    if not le > 1e-9:
        return False
    H[0] = -ey / le                     # the chord's normal, towards the light
    H[1] = ex / le
    H[2] = H[0] * x1 + H[1] * y1
    if not (H[0] * cx + H[1] * cy - r >= H[2] + 1e-9):      # the light strictly on its near side
        return False
    for e in range(1, 3):               # the tangents through t1, then t2
        if e == 1:
            px, py, qx, qy, sg = x1, y1, x2, y2, 1.0
        else:
            px, py, qx, qy, sg = x2, y2, x1, y1, -1.0
        wx = cx - px
        wy = cy - py
        d2 = wx * wx + wy * wy
        h = sqrt(_max(d2 - r * r, 0.0))
        if not d2 > r * r:
            return False
        n_x = ((-r) * wx - (sg * h) * wy) / d2
        n_y = ((-r) * wy + (sg * h) * wx) / d2
        if not (n_x * (qx - px) + n_y * (qy - py) <= 0):    # the other end on the light's side
            return False
        H[3 * e], H[3 * e + 1], H[3 * e + 2] = n_x, n_y, n_x * px + n_y * py
    return True


def umbra_chords(ix, obs_, tgt_, uo_, oinv_, ks_, dense_only):
    """visibility.umbra._umbra_chords: each observer's chord of each piece ``ks`` (its
    silhouette vertices, the umbra's three half-planes and their validity, the piece's
    activity: _chord_lines' and _chord_rows' arithmetic), then each of the observer's pairs
    against each valid chord (the reference's three tests and activity), a pair stopping at
    its first block. The reference tests only the triples its angular bins pick; the twin
    tests every triple of the pieces whose bounding circles reach the box of the observer's
    and its targets' centres (a piece blocks a pair only where it meets the segment between
    their centres). The same pairs come out: the bins pick a superset of the triples that
    pass (a target's grown circle in an umbra lies inside the cone from the observer's centre
    through the chord, by at least its radius over its distance, 1e-8 rad on any table, where
    an arctangent's last bits are 1e-16), and the bins' arctangents are the only arithmetic
    the twin leaves out. That margin needs radii of 0 or more and centres within UMBRA_REACH
    (a second reader's fuzz broke it with centres 1e10" away, and with radii below 0):
    others are the reference's."""
    C_, rad_, within_ = ix.centres, ix.rad, ix.within
    pk = ix.blk.pieces
    nx_, ny_, off_, vx_, vy_ = pk.soa
    pcx_, pcy_, prho_ = pk.circle
    area_, kind_, convex_ = ix.blk.area, ix.blk.kind, pk.convex
    if not (_plain_xy(C_, 0) and _all_of((rad_, nx_, ny_, off_, vx_, vy_, pcx_, pcy_, prho_), F64)
            and _all_of((within_, convex_), BOOL)
            and _all_of((obs_, tgt_, uo_, oinv_, ks_, area_, kind_), INTP)):
        return None
    cdef Py_ssize_t n = C_.shape[0], P = obs_.shape[0], U = uo_.shape[0], K = ks_.shape[0]
    cdef Py_ssize_t V = nx_.shape[0], NK = nx_.shape[1]
    if (rad_.ndim != 1 or rad_.shape[0] != n or within_.ndim != 2 or within_.shape[0] != n
            or tgt_.shape[0] != P or oinv_.shape[0] != P or area_.shape[0] != NK
            or kind_.shape[0] != NK or convex_.shape[0] != NK or V == 0
            or pcx_.shape[0] != NK or pcy_.shape[0] != NK or prho_.shape[0] != NK):
        return None
    cdef const double[:] PCX = pcx_
    cdef const double[:] PCY = pcy_
    cdef const double[:] PRHO = prho_
    if not (_bounded(PCX, UMBRA_REACH) and _bounded(PCY, UMBRA_REACH) and _bounded(PRHO, UMBRA_REACH)):
        return None
    cdef const double[:, :] C = C_
    cdef const double[:] rad = rad_
    cdef const Py_ssize_t[:] obs = obs_
    cdef const Py_ssize_t[:] tgt = tgt_
    cdef const Py_ssize_t[:] uo = uo_
    cdef const Py_ssize_t[:] oinv = oinv_
    cdef const Py_ssize_t[:] ks = ks_
    cdef const Py_ssize_t[:] area = area_
    cdef const Py_ssize_t[:] kind = kind_
    # (the margin that makes the twin's triples the reference's holds for bases of some size
    # within a table's reach: a radius below 0 takes it away, and beyond UMBRA_REACH" an
    # arctangent's rounding reaches it; an empty batch or a vertex that is no number the
    # reference does not answer)
    if not (P and _bounded(rad, 1e150) and _bounded(C[:, 0], UMBRA_REACH)
            and _bounded(C[:, 1], UMBRA_REACH) and _finite(vx_.ravel()) and _finite(vy_.ravel())
            and _indices(obs, n) and _indices(tgt, n) and _indices(uo, n) and _indices(oinv, U)
            and _indices(ks, NK) and _indices(area, within_.shape[1])):
        return None
    cdef Py_ssize_t i
    for i in range(n):
        if rad[i] < 0:
            return None
    for i in range(P):      # (the reference's angles are from obs, its chords from uo)
        if obs[i] != uo[oinv[i]]:
            return None
    cdef const unsigned char[:, :] within = within_.view(np.uint8)
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    blocked_ = np.zeros(P, dtype=bool)
    if K == 0:
        return blocked_
    cdef unsigned char[:] blocked = blocked_.view(np.uint8)
    # the pairs grouped by observer (in their order), each observer's chords in rows of 9
    cdef Py_ssize_t[::1] first = np.zeros(U + 1, dtype=np.intp)
    cdef Py_ssize_t[::1] byobs = np.empty(P, dtype=np.intp)
    cdef double[:, ::1] L = np.empty((K, 9))
    cdef unsigned char[::1] act_in = np.empty(K, dtype=np.uint8)
    cdef unsigned char[::1] act_out = np.empty(K, dtype=np.uint8)
    cdef Py_ssize_t[::1] live = np.empty(K, dtype=np.intp)
    cdef Py_ssize_t u, p, j, e, o, k, nlive, t
    cdef double cx, cy, r, qx, qy, rt, x0, x1, y0, y1, gx, gy, reach
    cdef bint ok, dense, w
    for p in range(P):
        first[oinv[p] + 1] += 1
    for u in range(U):
        first[u + 1] += first[u]
    for p in range(P):      # (a counting sort: the pairs of observer u at first[u]:first[u + 1])
        u = oinv[p]
        byobs[first[u]] = p
        first[u] += 1
    for u in range(U - 1, -1, -1):
        first[u + 1] = first[u]
    first[0] = 0
    for u in range(U):
        if first[u + 1] == first[u]:
            continue
        o = uo[u]
        cx, cy = C[o, 0], C[o, 1]
        r = rad[o] + UMBRA_GROW
        # (the box holding the observer's centre and its targets': a piece whose umbra holds a
        # target meets the segment between their centres, in the box, as umbra_blocked's
        # pieces near the batch's box; the others' chords block none of these pairs)
        x0, x1, y0, y1 = cx, cx, cy, cy
        for e in range(first[u], first[u + 1]):
            t = tgt[byobs[e]]
            x0, x1 = min(x0, C[t, 0]), max(x1, C[t, 0])
            y0, y1 = min(y0, C[t, 1]), max(y1, C[t, 1])
        nlive = 0
        for j in range(K):
            k = ks[j]
            gx = max(x0 - PCX[k], PCX[k] - x1, 0.0)
            gy = max(y0 - PCY[k], PCY[k] - y1, 0.0)
            reach = PRHO[k] + 1e-6
            if gx * gx + gy * gy > reach * reach:
                continue
            ok = _chord_umbra(cx, cy, r, k, V, NX, NY, OFF, VX, VY, &L[nlive, 0])
            dense = kind[k] == PIECE_DENSE
            w = within[o, area[k]]
            if dense_only:
                act_in[nlive] = act_out[nlive] = dense
            else:
                act_in[nlive] = dense
                act_out[nlive] = w if dense else not w
            if ok and (act_in[nlive] or act_out[nlive]) and convex[k]:
                live[nlive] = k
                nlive += 1
        for e in range(first[u], first[u + 1]):
            p = byobs[e]
            t = tgt[p]
            qx, qy, rt = C[t, 0], C[t, 1], rad[t] + UMBRA_GROW
            for j in range(nlive):
                # (the chord first, as the reference: it rejects the near targets)
                if not (L[j, 0] * qx + L[j, 1] * qy + rt <= L[j, 2]):
                    continue
                if not (L[j, 3] * qx + L[j, 4] * qy + rt <= L[j, 5]):
                    continue
                if not (L[j, 6] * qx + L[j, 7] * qy + rt <= L[j, 8]):
                    continue
                if dense_only or (act_in[j] if within[t, area[live[j]]] else act_out[j]):
                    blocked[p] = True
                    break
    return blocked_


def near_pairs(ix, I_, J_, R_, ks_):
    """visibility.pairs.near_pairs: the entries (pair p, piece k) where piece k's bounding
    circle comes within R[p] (+ 1e-6") of the segment between the centres of models I[p] and
    J[p], pair-major, the pieces ``ks`` (ascending) in order: _near_segment's arithmetic for
    every entry but those off the segment's box by more than the test's reach and a margin
    (the reference's sweep by x leaves out entries farther than it tests, so does this)."""
    C_ = ix.centres
    cx_, cy_, rho_ = ix.blk.pieces.circle
    if not (_plain_xy(C_, 0) and _all_of((R_, cx_, cy_, rho_), F64)
            and _all_of((I_, J_, ks_), INTP)):
        return None
    cdef Py_ssize_t n = C_.shape[0], P = I_.shape[0], K = ks_.shape[0], NK = cx_.shape[0]
    if (J_.shape[0] != P or R_.ndim != 1 or R_.shape[0] != P or cy_.shape[0] != NK
            or rho_.shape[0] != NK):
        return None
    cdef const double[:, :] C = C_
    cdef const double[:] R = R_
    cdef const double[:] cx = cx_
    cdef const double[:] cy = cy_
    cdef const double[:] rho = rho_
    cdef const Py_ssize_t[:] I = I_
    cdef const Py_ssize_t[:] J = J_
    cdef const Py_ssize_t[:] ks = ks_
    cdef Py_ssize_t p, j, k, e = 0, E = 0
    if not (_bounded(R, 1e150) and _bounded(cx, 1e150) and _bounded(cy, 1e150)
            and _bounded(rho, 1e150) and _indices(I, n) and _indices(J, n) and _indices(ks, NK)):
        return None
    for j in range(1, K):       # (the reference's order is the pieces' own: ascending)
        if ks[j] <= ks[j - 1]:
            return None
    for p in range(P):          # (below 0, the reference's sweep and its grid part ways)
        if R[p] < 0:
            return None
    hit_ = np.empty(P * K, dtype=np.uint8)
    cdef unsigned char[::1] hit = hit_
    cdef double ax, ay, dx, dy, wx, wy, L2, t, g, x0, x1, y0, y1, gb
    # (a piece whose centre lies off the segment's box by more than R + its radius + 1e-5" is
    # farther than that from every point of the segment, and its entry's distance, rounded as
    # it is, cannot come within the 1e-6" of the test: the entry is left out unmeasured, as
    # the reference's sweep leaves it out; on a table's scale only, where rounding is far
    # below that margin)
    cdef bint box = (_bounded(cx, UMBRA_REACH) and _bounded(cy, UMBRA_REACH)
                     and _bounded(rho, UMBRA_REACH) and _bounded(R, UMBRA_REACH)
                     and _bounded(C[:, 0], UMBRA_REACH) and _bounded(C[:, 1], UMBRA_REACH))
    for p in range(P):
        ax, ay = C[I[p], 0], C[I[p], 1]
        dx = C[J[p], 0] - ax
        dy = C[J[p], 1] - ay
        L2 = dx * dx + dy * dy
        x0, x1 = min(ax, C[J[p], 0]), max(ax, C[J[p], 0])
        y0, y1 = min(ay, C[J[p], 1]), max(ay, C[J[p], 1])
        for j in range(K):
            k = ks[j]
            if box:
                gb = R[p] + rho[k] + 1e-5
                if cx[k] < x0 - gb or cx[k] > x1 + gb or cy[k] < y0 - gb or cy[k] > y1 + gb:
                    hit[p * K + j] = 0
                    continue
            wx = cx[k] - ax
            wy = cy[k] - ay
            t = _clip01((wx * dx + wy * dy) / (L2 if L2 > 0 else 1.0))
            wx = wx - t * dx
            wy = wy - t * dy
            g = R[p] + rho[k] + 1e-6
            hit[p * K + j] = wx * wx + wy * wy <= g * g
            E += hit[p * K + j]
    pp_ = np.empty(E, dtype=np.intp)
    kk_ = np.empty(E, dtype=np.intp)
    cdef Py_ssize_t[::1] pp = pp_
    cdef Py_ssize_t[::1] kk = kk_
    for p in range(P):
        for j in range(K):
            if hit[p * K + j]:
                pp[e] = p
                kk[e] = ks[j]
                e += 1
    return pp_, kk_


_ring = None                      # (visibility.certs' ring of unit offsets: read once)


def ring_shadowed(D, q_, pk, pstart_, pidx_):
    """visibility.certs.ring_shadowed: per pair q, some point of B's fixed outline ring lies in
    the umbra of one of the pair's pieces lit by A (certs._umbra_rows' chord and tangent rows,
    valid only for a convex piece; the ring's three tests), entry by entry the reference's
    arithmetic; a pair stops at its first such piece."""
    global _ring
    if _ring is None:
        from sim.rules.visibility import certs
        _ring = (certs._RING_COS, certs._RING_SIN)
    rc_, rs_ = _ring
    ax_, ay_, ra_, bx_, by_, rb_ = D
    nx_, ny_, off_, vx_, vy_ = pk.soa
    convex_ = pk.convex
    if not (_all_of((ax_, ay_, ra_, bx_, by_, rb_, nx_, ny_, off_, vx_, vy_, rc_, rs_), F64)
            and _all_of((convex_,), BOOL) and _all_of((q_, pstart_, pidx_), INTP)):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], V = nx_.shape[0], NK = nx_.shape[1]
    cdef Py_ssize_t S = rc_.shape[0]
    for a_ in (ay_, ra_, bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P:
            return None
    if (ax_.ndim != 1 or pstart_.ndim != 1 or pstart_.shape[0] != P + 1 or rs_.shape[0] != S
            or convex_.shape[0] != NK or V == 0):
        return None
    cdef const double[:] ax = ax_
    cdef const double[:] ay = ay_
    cdef const double[:] ra = ra_
    cdef const double[:] bx = bx_
    cdef const double[:] by = by_
    cdef const double[:] rb = rb_
    cdef const double[:] RC = rc_
    cdef const double[:] RS = rs_
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    if not (_bounded(ax, 1e150) and _bounded(ay, 1e150) and _bounded(ra, 1e150)
            and _bounded(bx, 1e150) and _bounded(by, 1e150) and _bounded(rb, 1e150)
            and _indices(q, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, NK)):
        return None
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    out_ = np.zeros(Q, dtype=bool)
    cdef unsigned char[:] out = out_.view(np.uint8)
    cdef Py_ssize_t i, p, e, k, row, s
    cdef double cx, cy, r
    cdef double H[9]
    cdef double T[3]
    cdef bint hit
    for i in range(Q):
        p = q[i]
        cx, cy, r = ax[p], ay[p], ra[p] + 1e-6
        for e in range(pstart[p], pstart[p + 1]):
            k = pidx[e]
            if not convex[k]:
                continue
            if not _chord_umbra(cx, cy, r, k, V, NX, NY, OFF, VX, VY, H):
                continue
            for row in range(3):        # (the target's margin, then B's centre and radius)
                T[row] = (H[3 * row + 2] - 1e-6 - H[3 * row] * bx[p] - H[3 * row + 1] * by[p]) / rb[p]
            hit = False
            for s in range(S):
                if (H[0] * RC[s] + H[1] * RS[s] <= T[0]
                        and H[3] * RC[s] + H[4] * RS[s] <= T[1]
                        and H[6] * RC[s] + H[7] * RS[s] <= T[2]):
                    hit = True
                    break
            if hit:
                out[i] = True
                break
    return out_


def vertices_shadowed(ix, J_, D, q_, pk, pstart_, pidx_):
    """visibility.hull_full._vertices_shadowed: per pair q (target B a hull), some vertex of
    B's core (ix._core) lies in the umbra of one of the pair's convex pieces lit by A's disc
    (certs._umbra_rows' rows through _chord_umbra, less the target's 1e-6" margin), entry by
    entry the reference's arithmetic; a pair stops at its first such piece."""
    ax_, ay_, ra_ = D[0], D[1], D[2]
    nx_, ny_, off_, vx_, vy_ = pk.soa
    convex_ = pk.convex
    if not (_all_of((ax_, ay_, ra_, nx_, ny_, off_, vx_, vy_), F64)
            and _all_of((convex_,), BOOL) and _all_of((J_, q_, pstart_, pidx_), INTP)):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], V = nx_.shape[0], NK = nx_.shape[1]
    if (ax_.ndim != 1 or ay_.ndim != 1 or ra_.ndim != 1 or ay_.shape[0] != P or ra_.shape[0] != P
            or J_.ndim != 1 or J_.shape[0] != P or pstart_.ndim != 1 or pstart_.shape[0] != P + 1
            or convex_.shape[0] != NK or V == 0):
        return None
    cdef const double[:] ax = ax_
    cdef const double[:] ay = ay_
    cdef const double[:] ra = ra_
    cdef const Py_ssize_t[:] J = J_
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    if not (_bounded(ax, 1e150) and _bounded(ay, 1e150) and _bounded(ra, 1e150)
            and _indices(q, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, NK)):
        return None
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    cdef const double[:, :] core
    out_ = np.zeros(Q, dtype=bool)
    cdef unsigned char[:] out = out_.view(np.uint8)
    cdef Py_ssize_t i, p, e, k, t
    cdef double cx, cy, r, x, y
    cdef double H[9]
    for i in range(Q):
        p = q[i]
        if pstart[p] == pstart[p + 1]:
            continue
        core_ = ix._core(J[p])[0]
        if not _plain_xy(core_, 1):
            return None
        core = core_
        cx, cy, r = ax[p], ay[p], ra[p] + 1e-6
        for e in range(pstart[p], pstart[p + 1]):
            k = pidx[e]
            if not convex[k]:
                continue
            if not _chord_umbra(cx, cy, r, k, V, NX, NY, OFF, VX, VY, H):
                continue
            for t in range(core.shape[0]):
                x, y = core[t, 0], core[t, 1]
                if (H[0] * x + H[1] * y <= H[2] - 1e-6 and H[3] * x + H[4] * y <= H[5] - 1e-6
                        and H[6] * x + H[7] * y <= H[8] - 1e-6):
                    out[i] = True
                    break
            if out[i]:
                break
    return out_


def near_a(D, q_, pk, pstart_, pidx_):
    """visibility.certs.near_a: per pair q, one of its pieces comes within FREE of A's outline:
    the largest of A's centre's signed distances to the piece's edge lines (its padded rows
    too, as the reference's maximum over them) under A's radius plus FREE, or, for a piece
    that is not convex, its bounding circle's distance; entry by entry the reference's
    arithmetic, a pair stopping at its first such piece."""
    ax_, ay_, ra_ = D[0], D[1], D[2]
    nx_, ny_, off_ = pk.soa[0], pk.soa[1], pk.soa[2]
    cx_, cy_, rho_ = pk.circle
    convex_ = pk.convex
    if not (_all_of((ax_, ay_, ra_, nx_, ny_, off_, cx_, cy_, rho_), F64)
            and _all_of((convex_,), BOOL) and _all_of((q_, pstart_, pidx_), INTP)):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], V = nx_.shape[0], NK = nx_.shape[1]
    if (ax_.ndim != 1 or ay_.ndim != 1 or ra_.ndim != 1 or ay_.shape[0] != P or ra_.shape[0] != P
            or pstart_.ndim != 1 or pstart_.shape[0] != P + 1 or convex_.shape[0] != NK
            or cx_.shape[0] != NK or cy_.shape[0] != NK or rho_.shape[0] != NK or V == 0):
        return None
    cdef const double[:] ax = ax_
    cdef const double[:] ay = ay_
    cdef const double[:] ra = ra_
    cdef const double[:] CX = cx_
    cdef const double[:] CY = cy_
    cdef const double[:] RHO = rho_
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    if not (_bounded(ax, 1e150) and _bounded(ay, 1e150) and _bounded(ra, 1e150)
            and _indices(q, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, NK)):
        return None
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    out_ = np.zeros(Q, dtype=bool)
    cdef unsigned char[:] out = out_.view(np.uint8)
    cdef Py_ssize_t i, p, e, k, v
    cdef double x, y, lim, m, dx, dy
    for i in range(Q):
        p = q[i]
        x, y = ax[p], ay[p]
        lim = ra[p] + FREE
        for e in range(pstart[p], pstart[p + 1]):
            k = pidx[e]
            m = NX[0, k] * x + NY[0, k] * y - OFF[0, k]
            for v in range(1, V):
                m = _max(m, NX[v, k] * x + NY[v, k] * y - OFF[v, k])
            if m < lim:
                out[i] = True
                break
            if not convex[k]:
                dx = CX[k] - x
                dy = CY[k] - y
                if sqrt(dx * dx + dy * dy) - RHO[k] < lim:
                    out[i] = True
                    break
    return out_


def within_pairs(centres_, rad_, area_, edges):
    """visibility.pairs.within_pairs: for each (model, area) pair, the disc (centre, radius
    ``rad``) is within the area: its centre inside the outline (the crossing count of the real
    edges odd) or the outline within ``rad`` + EPS of it (the least distance to an edge, padding
    included, as the reference's minimum reads it). Each entry the reference's arithmetic in its
    order; places that are no number well within range, or an edge of no length, are the
    reference's."""
    if (not (_all_of((centres_, rad_), F64) and _all_of((area_,), INTP)) or centres_.ndim != 2
            or rad_.ndim != 1 or area_.ndim != 1):
        return None
    try:
        x0_, y0_, abx_, aby_, ab2_, y1_, real_ = edges
    except (TypeError, ValueError):
        return None
    if not (_all_of((x0_, y0_, abx_, aby_, ab2_, y1_), F64) and _all_of((real_,), BOOL)):
        return None
    shape = x0_.shape
    if (len(shape) != 2 or y0_.shape != shape or abx_.shape != shape or aby_.shape != shape
            or ab2_.shape != shape or y1_.shape != shape or real_.shape != shape):
        return None
    cdef const double[:, :] x0 = x0_
    cdef const double[:, :] y0 = y0_
    cdef const double[:, :] abx = abx_
    cdef const double[:, :] aby = aby_
    cdef const double[:, :] ab2 = ab2_
    cdef const double[:, :] y1 = y1_
    cdef const unsigned char[:, :] real = real_.view(np.uint8)
    cdef const double[:, :] C = centres_
    cdef const double[:] rad = rad_
    cdef const Py_ssize_t[:] area = area_
    cdef Py_ssize_t P = area.shape[0], A = x0.shape[0], E = x0.shape[1], p, a, e, cnt
    if C.shape[0] != P or (P and C.shape[1] != 2) or rad.shape[0] != P or not _indices(area, A):
        return None
    if not (_bounded(C[:, 0], 1e150) and _bounded(C[:, 1], 1e150) and _finite(rad)):
        return None   # (no product below can overflow: no NaN for numpy's minimum to keep)
    out_ = np.empty(P, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef double cx, cy, apx, apy, t, dx, dy, d2, best
    for p in range(P):
        a = area[p]
        cx, cy = C[p, 0], C[p, 1]
        best = INFINITY
        cnt = 0
        for e in range(E):
            if not (ab2[a, e] > 0 and -1e150 < x0[a, e] < 1e150 and -1e150 < y0[a, e] < 1e150
                    and -1e150 < abx[a, e] < 1e150 and -1e150 < aby[a, e] < 1e150 and -1e150 < y1[a, e] < 1e150):
                return None
            apx = cx - x0[a, e]
            apy = cy - y0[a, e]
            t = _clip01((apx * abx[a, e] + apy * aby[a, e]) / ab2[a, e])
            dx = apx - t * abx[a, e]
            dy = apy - t * aby[a, e]
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
            if real[a, e] and ((y0[a, e] > cy) != (y1[a, e] > cy)):
                if x0[a, e] + (cy - y0[a, e]) * abx[a, e] / (y1[a, e] - y0[a, e]) > cx:
                    cnt += 1
        out[p] = (cnt % 2 == 1) or (sqrt(best) <= rad[p] + EPS)
    return out_


def segments_blocked(p0_, p1_, pk, active=None):
    """visibility.kernels.segments_blocked, without ``active`` (the reference's): whether each
    segment p0[s]-p1[s] crosses the open interior of a piece of ``pk``: apart on a piece's edge
    normal (the nearer end's projection, numpy's einsum of two terms: a sum from +0.0, at least
    the edge's offset less SIGHT_EPS) or on the segment's own unit normal (a segment of length
    above 1e-12: the piece's projections all on one side of its own, within SIGHT_EPS), else
    crossing. Each test the reference's arithmetic; the answer is whether any piece crosses, so
    the first found ends a segment's. Places that are no number well within range are the
    reference's."""
    if active is not None or not _all_of((p0_, p1_), F64) or p0_.ndim != 2 or p1_.ndim != 2:
        return None
    nrm_, offs_, verts_ = pk.normals, pk.offs, pk.verts
    if not _all_of((nrm_, offs_, verts_), F64) or nrm_.ndim != 3 or offs_.ndim != 2 or verts_.ndim != 3:
        return None
    cdef const double[:, :] p0 = p0_
    cdef const double[:, :] p1 = p1_
    cdef const double[:, :, :] nrm = nrm_
    cdef const double[:, :] offs = offs_
    cdef const double[:, :, :] verts = verts_
    cdef Py_ssize_t S = p0.shape[0], K = nrm.shape[0], V = nrm.shape[1], s, k, v
    if (p1.shape[0] != S or (S and (p0.shape[1] != 2 or p1.shape[1] != 2)) or offs.shape[0] != K
            or offs.shape[1] != V or verts.shape[0] != K or verts.shape[1] != V or (K and V and (nrm.shape[2] != 2 or verts.shape[2] != 2))):
        return None
    if S == 0 or K == 0:
        return np.zeros(S, dtype=bool)
    if V == 0:
        return None
    if not (_bounded(p0[:, 0], 1e150) and _bounded(p0[:, 1], 1e150) and _bounded(p1[:, 0], 1e150)
            and _bounded(p1[:, 1], 1e150)):
        return None
    for k in range(K):
        if not (_bounded(nrm[k, :, 0], 1e150) and _bounded(nrm[k, :, 1], 1e150) and _bounded(offs[k], 1e150)
                and _bounded(verts[k, :, 0], 1e150) and _bounded(verts[k, :, 1], 1e150)):
            return None
    out_ = np.zeros(S, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef double ax, ay, bx, by, dx, dy, L, mx, my, s0, a, b, lo, hi, x, eps = SIGHT_EPS
    cdef bint ok, sep
    for s in range(S):
        ax, ay, bx, by = p0[s, 0], p0[s, 1], p1[s, 0], p1[s, 1]
        dx = bx - ax
        dy = by - ay
        L = hypot(dx, dy)
        ok = L > 1e-12
        mx = -dy / L if ok else 0.0
        my = dx / L if ok else 0.0
        s0 = (0.0 + mx * ax) + my * ay
        for k in range(K):
            sep = False
            for v in range(V):
                a = (0.0 + ax * nrm[k, v, 0]) + ay * nrm[k, v, 1]
                b = (0.0 + bx * nrm[k, v, 0]) + by * nrm[k, v, 1]
                if _min(a, b) >= offs[k, v] - eps:
                    sep = True
                    break
            if not sep and ok:
                lo = INFINITY
                hi = -INFINITY
                for v in range(V):
                    x = (0.0 + mx * verts[k, v, 0]) + my * verts[k, v, 1]
                    lo = _min(lo, x)
                    hi = _max(hi, x)
                sep = lo >= s0 - eps or hi <= s0 + eps
            if not sep:
                out[s] = 1
                break
    return out_


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


_STAR_C = np.cos(np.array([0.5, -0.5]))   # visibility.certs._STAR's cosines and sines (numpy's)
_STAR_S = np.sin(np.array([0.5, -0.5]))
cdef double PI = 3.141592653589793              # (np.pi)
cdef double HALF_PI = 0.5 * PI                    # (0.5 * np.pi)
cdef double TWO_PI = 2.0 * PI                     # (2 * np.pi)
cdef double NEG_HALF_PI = -0.5 * PI
cdef double WIDE = 1.0 + 1e-9, NARROW = 1.0 - 1e-9


cdef inline bint _star_axis(double bx, double by, double rr, double px, double py, bint ok,
                            double* wx, double* wy, double* w, double* sn, double* h) noexcept nogil:
    """certs._star_axes for one apex (px, py) towards disc B (centre bx, by, grown radius rr),
    in the reference's order: the unit direction, the distance (1 where the apex does not
    apply), the sine and cosine of the cone's half angle; returns ``ok`` with an apex inside B
    dropped."""
    cdef double dx = bx - px, dy = by - py, d = sqrt(dx * dx + dy * dy)
    ok = ok and d > rr * 1.000001
    if not ok:
        d = 1.0
    wx[0], wy[0], w[0] = dx / d, dy / d, d
    sn[0] = rr / d if ok else 0.0
    h[0] = sqrt(1.0 - sn[0] * sn[0])
    return ok


def star_free(D, q_, pk, pstart_, pidx_, near_):
    """visibility.certs.star_free: per pair q, the star certificate "fully visible" from one of
    its apexes (``star_apexes``), their separation from the pieces by stars_separated's twin."""
    if not (_all_of((q_, pstart_, pidx_), INTP) and pstart_.ndim == 1 and pidx_.ndim == 1):
        return None
    cdef Py_ssize_t P = pstart_.shape[0] - 1, NK = pk.soa[0].shape[1]
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    if P < 0 or not (_csr_rows(pstart, pidx.shape[0]) and _indices(pidx, NK)):
        return None
    apexes = star_apexes(D, q_, near_)
    if apexes is None or apexes[0].shape[0] != q_.shape[0] or D[0].shape[0] != P:
        return None
    got = _expand(pstart_, q_)
    if got is None:
        return None
    e_, pos_ = got[1], got[2]
    if e_.shape[0] == 0:
        return np.ones(q_.shape[0], dtype=bool)
    return stars_separated(*apexes, e_, pidx_.take(pos_), pk)


def star_apexes(D, q_, near_):
    """visibility.certs._star_apexes: for pairs q, the star certificate's five apexes (two on
    A's outline, A's centre, the two tangent apexes of certs._tangent_apexes) and their cones
    towards B (certs._star_axes, and the near sides), pair by pair with the reference's
    arithmetic. The angles are numpy's own: its arctan2, arcsin, arccos, cos and sin called on
    whole arrays of the arguments the reference gives them (numpy's functions answer each place
    alone, whatever the array around it, and on this machine's processors they are not the C
    library's), so every array has the reference's bits."""
    ax_, ay_, ra_, bx_, by_, rb_ = D
    if not (_all_of((ax_, ay_, ra_, bx_, by_, rb_), F64) and _all_of((near_,), BOOL)
            and _all_of((q_,), INTP) and q_.ndim == 1):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0]
    for a_ in (ax_, ay_, ra_, bx_, by_, rb_, near_):
        if a_.ndim != 1 or a_.shape[0] != P:
            return None
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const unsigned char[:] NEAR = near_.view(np.uint8)
    cdef const Py_ssize_t[:] q = q_
    if not (_bounded(AX, 1e100) and _bounded(AY, 1e100) and _bounded(RA, 1e100)
            and _bounded(BX, 1e100) and _bounded(BY, 1e100) and _bounded(RB, 1e100)
            and _indices(q, P)):
        return None
    cdef Py_ssize_t i, p, r, s, S = 5
    cdef double ax, ay, ra, bx, by, rb, ux, uy, L, Ls, rr
    # the pair's values, its unit direction to B and the arguments of the angles
    vals_ = np.empty((8, Q))
    cdef double[:, ::1] V8 = vals_
    args_ = np.empty((4, Q))        # arctan2's y and x, arcsin's, (then arccos's two, below)
    cdef double[:, ::1] A = args_
    acos_ = np.empty(2 * Q)
    cdef double[::1] AC = acos_
    okt_ = np.empty(Q, dtype=np.uint8)
    cdef unsigned char[::1] okt = okt_
    for i in range(Q):
        p = q[i]
        ax, ay, ra, bx, by, rb = AX[p], AY[p], RA[p], BX[p], BY[p], RB[p]
        ux, uy = bx - ax, by - ay
        L = _max(sqrt(ux * ux + uy * uy), 1e-12)
        V8[0, i], V8[1, i], V8[2, i] = ux / L, uy / L, L
        # (certs._tangent_apexes' first lines)
        okt[i] = L - rb > ra * WIDE
        Ls = L if okt[i] else 2.0 * (ra + rb) + 1.0
        A[0, i], A[1, i] = by - ay, bx - ax
        A[2, i] = _min(rb / Ls, 1.0)
        AC[i] = _min(ra / _max(Ls - rb, 1e-12), 1.0)
        AC[Q + i] = _min(ra / (Ls + rb), 1.0)
    phi_ = np.arctan2(args_[0], args_[1])
    dl_ = np.arcsin(args_[2])
    bb_ = np.arccos(acos_)
    cdef const double[::1] phi = phi_
    cdef const double[::1] dl = dl_
    cdef const double[::1] bb = bb_
    # the arcs' ends a0, a1 and their halves and middles, per side r (rows r * Q + i)
    cosarg_ = np.empty(8 * Q)       # where(okk, half, 0), mid, a0, a1
    sinarg_ = np.empty(6 * Q)       # mid, a0, a1
    cdef double[::1] CA = cosarg_
    cdef double[::1] SA = sinarg_
    okk_ = np.empty(2 * Q, dtype=np.uint8)
    cdef unsigned char[::1] okk = okk_
    cdef Py_ssize_t n2 = 2 * Q, j
    cdef double a0, a1, half, mid, bmin, bmax
    for r in range(2):
        for i in range(Q):
            j = r * Q + i
            bmin, bmax = bb[i], bb[Q + i]
            if r == 0:
                a0 = phi[i] - dl[i] + bmin
                a1 = phi[i] + dl[i] + bmax
            else:
                a0 = phi[i] - dl[i] - bmax
                a1 = phi[i] + dl[i] - bmin
            half, mid = 0.5 * (a1 - a0), 0.5 * (a0 + a1)
            okk[j] = okt[i] and half < HALF_PI
            CA[j] = half if okk[j] else 0.0
            CA[n2 + j], CA[2 * n2 + j], CA[3 * n2 + j] = mid, a0, a1
            SA[j], SA[n2 + j], SA[2 * n2 + j] = mid, a0, a1
    cos_ = np.cos(cosarg_)
    sin_ = np.sin(sinarg_)
    cdef const double[::1] C = cos_
    cdef const double[::1] SN = sin_
    # the apexes (Q, S): two on A's outline, A's centre, the two tangent apexes
    px_ = np.empty((Q, S))
    py_ = np.empty((Q, S))
    ok_ = np.empty((Q, S), dtype=bool)
    tnear_ = np.empty((Q, 2))
    cdef double[:, ::1] px = px_
    cdef double[:, ::1] py = py_
    cdef unsigned char[:, ::1] ok = ok_.view(np.uint8)
    cdef double[:, ::1] tnear = tnear_
    _STAR_C_, _STAR_S_ = _STAR_C, _STAR_S
    cdef const double[:] SC = _STAR_C_
    cdef const double[:] SS = _STAR_S_
    cdef double cm, mx, my, wx, wy, Dm, t, ex, ey, lat, axl, f, apx, apy, vx, vy, vn, nr
    cdef double ends[4]
    cdef bint clear
    for i in range(Q):
        p = q[i]
        ax, ay, ra, bx, by, rb = AX[p], AY[p], RA[p], BX[p], BY[p], RB[p]
        ux, uy, L = V8[0, i], V8[1, i], V8[2, i]
        rr = rb + FREE
        for s in range(2):
            px[i, s] = ax + ra * (SC[s] * ux - SS[s] * uy)
            py[i, s] = ay + ra * (SS[s] * ux + SC[s] * uy)
        px[i, 2], py[i, 2] = ax, ay
        clear = L > ra + rb + FREE
        for s in range(S):
            ok[i, s] = clear
        if NEAR[p]:
            ok[i, 0] = ok[i, 1] = False
        for r in range(2):      # certs._tangent_apexes, side r
            j = r * Q + i
            cm = ra / C[j]
            mx = ax + cm * C[n2 + j]
            my = ay + cm * SN[j]
            wx, wy = bx - mx, by - my
            Dm = sqrt(wx * wx + wy * wy)
            okk[j] = okk[j] and Dm > rr
            if not okk[j]:
                Dm = 1.0
            wx, wy = wx / Dm, wy / Dm
            ends[0] = ax + ra * C[2 * n2 + j]
            ends[1] = ay + ra * SN[n2 + j]
            ends[2] = ax + ra * C[3 * n2 + j]
            ends[3] = ay + ra * SN[2 * n2 + j]
            t = 0.0
            for s in range(2):
                ex, ey = ends[2 * s] - mx, ends[2 * s + 1] - my
                lat = fabs(wx * ey - wy * ex)
                axl = wx * ex + wy * ey
                f = lat / rr
                okk[j] = okk[j] and f < 0.5
                t = _max(t, (f * Dm - axl) / ((1.0 - f) if f < 0.5 else 1.0))
            t = t * WIDE + 1e-9
            apx, apy = mx - t * wx, my - t * wy
            vx, vy = bx - apx, by - apy
            vn = sqrt(vx * vx + vy * vy) if okk[j] else 1.0
            vx, vy = vx / vn, vy / vn
            nr = vx * mx + vy * my
            for s in range(2):
                nr = _min(nr, vx * ends[2 * s] + vy * ends[2 * s + 1])
            px[i, 3 + r], py[i, 3 + r] = apx, apy
            ok[i, 3 + r] = ok[i, 3 + r] and okk[j]
            tnear[i, r] = nr - 1e-9
    # certs._star_axes, and the near sides s0
    wx_ = np.empty((Q, S))
    wy_ = np.empty((Q, S))
    W_ = np.empty((Q, S))
    rr_ = np.empty((Q, 1))
    sn_ = np.empty((Q, S))
    h_ = np.empty((Q, S))
    s0_ = np.empty((Q, S))
    cdef double[:, ::1] WX = wx_
    cdef double[:, ::1] WY = wy_
    cdef double[:, ::1] WW = W_
    cdef double[:, ::1] RR = rr_
    cdef double[:, ::1] SNN = sn_
    cdef double[:, ::1] H = h_
    cdef double[:, ::1] S0 = s0_
    cdef double v
    for i in range(Q):
        p = q[i]
        bx, by, rb, ra = BX[p], BY[p], RB[p], RA[p]
        rr = rb + FREE
        RR[i, 0] = rr
        for s in range(S):
            ok[i, s] = _star_axis(bx, by, rr, px[i, s], py[i, s], ok[i, s], &WX[i, s], &WY[i, s],
                                  &WW[i, s], &SNN[i, s], &H[i, s])
        for s in range(S):
            if s == 2:
                v = ra * H[i, 2] * NARROW
            elif s > 2:
                v = (tnear[i, s - 3] - (WX[i, s] * px[i, s] + WY[i, s] * py[i, s])) if okk[(s - 3) * Q + i] else 0.0
            else:
                v = 0.0
            S0[i, s] = _max(v / H[i, s], 0.0)
    return px_, py_, s0_, ok_, wx_, wy_, W_, rr_, sn_, h_


_ring_angles = None     # full._arc_samples' ring: numpy's linspace over the turn (certs.RING)


cdef inline bint _line_crossing(bint valid, double nx, double ny, double s, double cx, double cy,
                                double r, Py_ssize_t n, double* Y, double* X,
                                double* C) noexcept nogil:
    """full._critical_angles for one line: where a valid line (n, s) meets B's outline (centre
    c, radius r), the arguments of its base angle's arctan2 and of its offset's arccos (place
    ``n``); False where the reference drops it."""
    if not valid:
        return False
    cdef double d = nx * cx + ny * cy - s
    if not (fabs(d) <= r):
        return False
    Y[n], X[n] = -ny, -nx
    C[n] = _min(_max(d / r, -1.0), 1.0)
    return True


def arc_samples(D, q_, ostart_, opts_):
    """visibility.full._arc_samples: B's outline samples beside the fixed ring, for pairs q: the
    critical lines' crossings of B's outline (full._critical_angles: through an obstacle vertex
    tangent to A, through two obstacle vertices; pair by pair, each line the reference's
    arithmetic), the ring's angles, each pair's angles in order and a point inside every arc
    between them, then the crossings. The angles are numpy's own (its arctan2, arccos, mod, cos
    and sin, called on whole arrays of the reference's arguments: numpy answers each place
    alone); the order of a pair's angles is the reference's sort's (two places of the same
    angle give the same values, whichever comes first). Declines pairs out of order."""
    global _ring_angles
    if _ring_angles is None:
        from sim.rules.visibility import certs
        _ring_angles = np.linspace(0, 2 * np.pi, certs.RING, endpoint=False)
    ax_, ay_, ra_, bx_, by_, rb_ = D
    if not (_all_of((ax_, ay_, ra_, bx_, by_, rb_, opts_), F64) and _all_of((q_, ostart_), INTP)
            and q_.ndim == 1 and ostart_.ndim == 1 and opts_.ndim == 2 and opts_.shape[1] == 2):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], NO = opts_.shape[0]
    for a_ in (ax_, ay_, ra_, bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P:
            return None
    if ostart_.shape[0] != P + 1:
        return None
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const double[:, :] O = opts_
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] ostart = ostart_
    cdef const double[:] RING_A = _ring_angles
    cdef Py_ssize_t R = RING_A.shape[0]
    if not (_bounded(AX, 1e100) and _bounded(AY, 1e100) and _bounded(RA, 1e100)
            and _bounded(BX, 1e100) and _bounded(BY, 1e100) and _bounded(RB, 1e100)
            and _bounded(O[:, 0], 1e100) and _bounded(O[:, 1], 1e100)
            and _indices(q, P) and _csr_rows(ostart, NO)):
        return None
    cdef Py_ssize_t i, p, a, b, n, c, L = 0
    for i in range(Q):
        p = q[i]
        if (i and p <= q[i - 1]) or not (RB[p] > 0.0):
            return None
        c = ostart[p + 1] - ostart[p]
        L += 2 * c + c * (c - 1) // 2
    # the lines meeting B's outline, pair by pair (lines[i] .. lines[i + 1])
    args_ = np.empty((3, L))
    cdef double[:, ::1] G = args_
    lines_ = np.zeros(Q + 1, dtype=np.intp)
    cdef Py_ssize_t[::1] lines = lines_
    cdef double nx, ny, m_s, sg, cx, cy, r, z = 0.0
    cdef bint v
    n = 0
    for i in range(Q):
        p = q[i]
        cx, cy, r = BX[p], BY[p], RB[p]
        for a in range(ostart[p], ostart[p + 1]):       # tangent to A through a vertex: +, then -
            for sg in (1.0, -1.0):
                v = _tangent_line(O[a, 0], O[a, 1], z, AX[p], AY[p], RA[p], 1.0, sg, &nx, &ny, &m_s)
                if _line_crossing(v, nx, ny, m_s, cx, cy, r, n, &G[0, 0], &G[1, 0], &G[2, 0]):
                    n += 1
        for a in range(ostart[p], ostart[p + 1]):       # through two vertices of the pair
            for b in range(a + 1, ostart[p + 1]):
                v = _tangent_line(O[a, 0], O[a, 1], z, O[b, 0], O[b, 1], z, 1.0, 1.0, &nx, &ny, &m_s)
                if _line_crossing(v, nx, ny, m_s, cx, cy, r, n, &G[0, 0], &G[1, 0], &G[2, 0]):
                    n += 1
        lines[i + 1] = n
    base_ = np.arctan2(args_[0, :n], args_[1, :n])
    off_ = np.arccos(args_[2, :n])
    cdef const double[::1] base = base_
    cdef const double[::1] off = off_
    raw_ = np.empty(2 * n)
    cdef double[::1] RAW = raw_
    for a in range(n):
        RAW[2 * a], RAW[2 * a + 1] = base[a] + off[a], base[a] - off[a]
    crossing_ = np.mod(raw_, 2 * np.pi)
    cdef const double[::1] X_ = crossing_
    # each pair's angles (its crossings and the ring) in order, a point inside every arc, then
    # the crossings: ang (mids, then crossings) and their pair
    cdef Py_ssize_t total = 2 * n + Q * R
    ang_ = np.empty(total + 2 * n)
    own_ = np.empty(total + 2 * n, dtype=np.intp)
    cdef double[::1] ANG = ang_
    cdef Py_ssize_t[::1] OWN = own_
    buf_ = np.empty(2 * (2 * n + R) + 2)
    cdef double[::1] buf = buf_
    isx_ = np.empty(2 * n + R + 1, dtype=np.uint8)
    cdef unsigned char[::1] isx = isx_
    cdef Py_ssize_t mo = 0, xo = total, g, j, k
    cdef double t, w
    cdef unsigned char tx
    for i in range(Q):
        p = q[i]
        g = 0
        for a in range(2 * lines[i], 2 * lines[i + 1]):
            buf[g], isx[g] = X_[a], 1
            g += 1
        for a in range(R):
            buf[g], isx[g] = RING_A[a], 0
            g += 1
        for j in range(1, g):           # (insertion sort: a few dozen angles)
            t, tx, k = buf[j], isx[j], j
            while k > 0 and buf[k - 1] > t:
                buf[k], isx[k] = buf[k - 1], isx[k - 1]
                k -= 1
            buf[k], isx[k] = t, tx
        for j in range(g):
            if j + 1 < g:
                ANG[mo] = 0.5 * (buf[j] + buf[j + 1] + 0.0)
            else:
                ANG[mo] = 0.5 * (buf[j] + buf[0] + TWO_PI)
            OWN[mo] = p
            mo += 1
            if isx[j]:
                ANG[xo], OWN[xo] = buf[j], p
                xo += 1
    cos_ = np.cos(ang_)
    sin_ = np.sin(ang_)
    cdef const double[::1] CS = cos_
    cdef const double[::1] SN = sin_
    x_ = np.empty(total + 2 * n)
    y_ = np.empty(total + 2 * n)
    cdef double[::1] XX = x_
    cdef double[::1] YY = y_
    for j in range(total + 2 * n):
        p = OWN[j]
        XX[j] = BX[p] + RB[p] * CS[j]
        YY[j] = BY[p] + RB[p] * SN[j]
    return x_, y_, own_


cdef double PT_ANG = 1e-7           # visibility.certs._ANG
cdef double PT_CLOSE = 1e-4         # visibility.certs._CLOSE
cdef Py_ssize_t PT_CHUNK = 1024     # visibility.certs._PT_CHUNK (a point's key in _covered)


cdef inline void _transitions(const double* sd, Py_ssize_t V, Py_ssize_t* a, Py_ssize_t* b,
                              Py_ssize_t* nt) noexcept nogil:
    """arrays.first_last of ``F != roll_prev(F)`` for one column, F = sd > 0: the first row
    where the side changes (0 if none), the last (V - 1 if none), how many rows do."""
    cdef Py_ssize_t v
    a[0], b[0], nt[0] = 0, V - 1, 0
    for v in range(V):
        if (sd[v] > 0) != (sd[(v - 1) if v else (V - 1)] > 0):
            if nt[0] == 0:
                a[0] = v
            b[0] = v
            nt[0] += 1


cdef inline void _interval(double a1, double a2, double* lo, double* hi) noexcept nogil:
    """certs._interval for one pair of directions."""
    cdef double d = a2 - a1
    if d > PI:
        d = d - TWO_PI
    elif d < -PI:
        d = d + TWO_PI
    lo[0] = a1 if d >= 0 else a2
    hi[0] = lo[0] + fabs(d)
    if hi[0] - TWO_PI >= NEG_HALF_PI:
        lo[0] -= TWO_PI
        hi[0] -= TWO_PI


cdef bint _covered_one(double* key, double* lo, double* hi, Py_ssize_t n, double b, double off,
                       bint strict) noexcept nogil:
    """certs._covered for one point's entries (n of them, at least one; ``key`` = its index in
    its chunk * 32 + lo, ``off`` = that index * 32): its entries in the reference's stable order
    of the keys, [-b, b] inside the union of the intervals (open if ``strict``)."""
    cdef Py_ssize_t j, k
    cdef double t, tl, th, m, reach, prev
    for j in range(1, n):               # (insertion sort, stable: a few pieces a point)
        t, tl, th, k = key[j], lo[j], hi[j], j
        while k > 0 and key[k - 1] > t:
            key[k], lo[k], hi[k] = key[k - 1], lo[k - 1], hi[k - 1]
            k -= 1
        key[k], lo[k], hi[k] = t, tl, th
    prev = -b
    m = hi[0] + off
    for j in range(n):
        if j:
            m = _max(m, hi[j] + off)
        reach = m - off
        if (lo[j] >= prev) if strict else (lo[j] > prev):
            return False
        prev = reach
    return not ((reach <= b) if strict else (reach < b))


def point_certificates(qx_, qy_, owner_, D, pk, pstart_, pidx_):
    """visibility.certs.point_certificates: per sample point q of B (pair ``owner``), "seen" (a
    direction towards A no piece's interval holds) and "hidden" (the intervals of the convex
    pieces wholly nearer than A cover every direction to A, or q inside a convex piece): the
    pieces' silhouettes (certs._silhouettes), each entry's interval (certs._point_part and
    _piece_angles) and the coverings (certs._covered), point by point with the reference's
    arithmetic and its chunks' keys. The angles are numpy's own (its arcsin and arctan2 on whole
    arrays of the reference's arguments: numpy answers each place alone)."""
    ax_, ay_, ra_, bx_, by_, rb_ = D
    nx_, ny_, off_, vx_, vy_ = pk.soa
    cx_, cy_, rho_ = pk.circle
    convex_, nverts_ = pk.convex, pk.nverts
    if not (_all_of((qx_, qy_, ax_, ay_, ra_, bx_, by_, rb_, nx_, ny_, off_, vx_, vy_, cx_, cy_, rho_), F64)
            and _all_of((convex_,), BOOL) and _all_of((owner_, pstart_, pidx_, nverts_), INTP)):
        return None
    cdef Py_ssize_t P = ax_.shape[0], N = qx_.shape[0], V = nx_.shape[0], NK = nx_.shape[1]
    for a_ in (ax_, ay_, ra_, bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P:
            return None
    for a_ in (qx_, qy_, owner_):
        if a_.ndim != 1 or a_.shape[0] != N:
            return None
    for a_ in (cx_, cy_, rho_, convex_, nverts_):
        if a_.ndim != 1 or a_.shape[0] != NK:
            return None
    if pstart_.ndim != 1 or pstart_.shape[0] != P + 1 or pidx_.ndim != 1 or V == 0:
        return None
    cdef const double[:] QX = qx_
    cdef const double[:] QY = qy_
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    cdef const double[:] CX = cx_
    cdef const double[:] CY = cy_
    cdef const double[:] RHO = rho_
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const Py_ssize_t[:] nverts = nverts_
    cdef const Py_ssize_t[:] owner = owner_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    cdef Py_ssize_t i, j, p, k, v, n, E = 0, NP = pidx.shape[0]
    for a_ in (qx_, qy_, ax_, ay_, ra_, bx_, by_, rb_, cx_, cy_, rho_):
        if not _bounded(a_, 1e100):
            return None
    for v in range(V):
        if not (_bounded(NX[v], 1e100) and _bounded(NY[v], 1e100) and _bounded(OFF[v], 1e100)
                and _bounded(VX[v], 1e100) and _bounded(VY[v], 1e100)):
            return None
    if not (_indices(owner, P) and _csr_rows(pstart, NP) and _indices(pidx, NK)):
        return None
    for k in range(NK):
        if nverts[k] < 1:
            return None
    # the silhouettes of the owners' pieces seen from B's centre (certs._silhouettes)
    stable_ = np.zeros(NP, dtype=np.uint8)
    sil_ = np.zeros((4, NP))
    done_ = np.zeros(P, dtype=np.uint8)
    sd_ = np.empty(V)
    cdef unsigned char[::1] stable = stable_
    cdef double[:, ::1] SIL = sil_
    cdef unsigned char[::1] done = done_
    cdef double[::1] sd = sd_
    cdef Py_ssize_t a, b, nt, nv
    cdef double x, y, g, smax
    cdef bint st
    for i in range(N):
        p = owner[i]
        E += pstart[p + 1] - pstart[p]
        if done[p]:
            continue
        done[p] = 1
        x, y, g = BX[p], BY[p], RB[p] + PT_CLOSE
        for j in range(pstart[p], pstart[p + 1]):
            k = pidx[j]
            for v in range(V):
                sd[v] = NX[v, k] * x + NY[v, k] * y - OFF[v, k]
            smax = sd[0]
            for v in range(1, V):
                smax = _max(smax, sd[v])
            _transitions(&sd[0], V, &a, &b, &nt)
            nv = nverts[k]
            st = (nt == 2 and convex[k] and smax > g
                  and fabs(sd[a]) > g and fabs(sd[((a - 1) % nv + nv) % nv]) > g
                  and fabs(sd[b]) > g and fabs(sd[((b - 1) % nv + nv) % nv]) > g)
            stable[j] = st
            SIL[0, j], SIL[1, j], SIL[2, j], SIL[3, j] = VX[a, k], VY[a, k], VX[b, k], VY[b, k]
    # each point's direction to A and its half-width b (arcsin, numpy's)
    pt_ = np.empty((5, N))
    cdef double[:, ::1] PT = pt_       # ux, uy, L, ok, arcsin's argument
    cdef double ux, uy, L
    for i in range(N):
        p = owner[i]
        ux, uy = AX[p] - QX[i], AY[p] - QY[i]
        L = sqrt(ux * ux + uy * uy)
        PT[3, i] = L > RA[p] + PT_CLOSE
        if not PT[3, i]:
            L = 1.0
        PT[0, i], PT[1, i], PT[2, i] = ux / L, uy / L, L
        PT[4, i] = _min(RA[p] / L if PT[3, i] else 0.0, 1.0)
    bw_ = np.arcsin(pt_[4])
    cdef const double[::1] BW = bw_
    # the entries (point, piece), point by point: the arguments of their arctan2s (two
    # silhouette vertices; a piece not stable: its own two seen from the point, and every
    # vertex of one not convex)
    ent_ = np.empty(E + 1, dtype=np.intp)       # each entry's first argument
    cdef Py_ssize_t[::1] ENT = ent_
    cdef Py_ssize_t m = 0
    n = 0
    for i in range(N):
        p = owner[i]
        for j in range(pstart[p], pstart[p + 1]):
            ENT[n] = m
            n += 1
            m += 2 if stable[j] else (2 + (0 if convex[pidx[j]] else V))
    ENT[n] = m
    targ_ = np.empty((2, m))
    cdef double[:, ::1] TA = targ_
    info_ = np.zeros((2, E), dtype=np.uint8)   # close, inside (unstable entries' own test)
    cdef unsigned char[:, ::1] INFO = info_
    cdef double px, py, rx, ry, wx, wy, vx, vy
    n = 0
    for i in range(N):
        p = owner[i]
        px, py, rx, ry = QX[i], QY[i], PT[0, i], PT[1, i]
        for j in range(pstart[p], pstart[p + 1]):
            m = ENT[n]
            k = pidx[j]
            if stable[j]:
                for v in range(2):
                    wx, wy = SIL[2 * v, j] - px, SIL[2 * v + 1, j] - py
                    TA[0, m + v], TA[1, m + v] = rx * wy - ry * wx, rx * wx + ry * wy
            else:               # certs._piece_angles
                for v in range(V):
                    sd[v] = NX[v, k] * px + NY[v, k] * py - OFF[v, k]
                smax = sd[0]
                for v in range(1, V):
                    smax = _max(smax, sd[v])
                INFO[0, n] = smax < PT_CLOSE
                INFO[1, n] = smax < -PT_CLOSE and convex[k]
                _transitions(&sd[0], V, &a, &b, &nt)
                wx, wy = VX[a, k] - px, VY[a, k] - py
                TA[0, m], TA[1, m] = rx * wy - ry * wx, rx * wx + ry * wy
                wx, wy = VX[b, k] - px, VY[b, k] - py
                TA[0, m + 1], TA[1, m + 1] = rx * wy - ry * wx, rx * wx + ry * wy
                if not convex[k]:
                    for v in range(V):
                        wx, wy = VX[v, k] - px, VY[v, k] - py
                        TA[0, m + 2 + v], TA[1, m + 2 + v] = rx * wy - ry * wx, rx * wx + ry * wy
            n += 1
    ang_ = np.arctan2(targ_[0], targ_[1])
    cdef const double[::1] ANGS = ang_
    # each entry's interval, then each point's coverings
    seen_ = np.zeros(N, dtype=bool)
    hidden_ = np.zeros(N, dtype=bool)
    cdef unsigned char[::1] SEEN = seen_.view(np.uint8)
    cdef unsigned char[::1] HID = hidden_.view(np.uint8)
    lo_ = np.empty((6, max(E, 1)))   # the seen intervals (key, lo, hi), the hidden ones
    cdef double[:, ::1] W = lo_
    cdef double lo, hi, be, a0, a1, mn, mx, off, Lf
    cdef bint close, use2, ins
    cdef Py_ssize_t ns, nh, e0
    n = 0
    for i in range(N):
        p = owner[i]
        px, py, rx, ry, Lf = QX[i], QY[i], PT[0, i], PT[1, i], PT[2, i]
        be = BW[i]
        off = 32.0 * <double>(i % PT_CHUNK)
        ns = nh = 0
        ins = False
        e0 = n
        for j in range(pstart[p], pstart[p + 1]):
            m = ENT[n]
            k = pidx[j]
            _interval(ANGS[m], ANGS[m + 1], &lo, &hi)
            if not stable[j]:
                close = INFO[0, n]
                if INFO[1, n]:
                    ins = True
                if not convex[k]:
                    mn, mx = ANGS[m + 2], ANGS[m + 2]
                    for v in range(1, V):
                        x = ANGS[m + 2 + v]
                        if x < mn:
                            mn = x
                        if x > mx:
                            mx = x
                    use2 = mx - mn >= PI
                    a0, a1 = INFINITY, -INFINITY
                    for v in range(V):
                        x = ANGS[m + 2 + v]
                        if use2 and x < 0:
                            x = x + TWO_PI
                        if x < a0:
                            a0 = x
                        if x > a1:
                            a1 = x
                    _interval(a0 - TWO_PI if a0 > PI else a0, a1 - TWO_PI if a1 > PI else a1, &lo, &hi)
                    close = close or a1 - a0 >= PI - 1e-6
                if close:
                    lo, hi = -10.0, 10.0
            if lo - PT_ANG <= be and hi + PT_ANG >= -be:
                W[0, e0 + ns], W[1, e0 + ns], W[2, e0 + ns] = off + (lo - PT_ANG), lo - PT_ANG, hi + PT_ANG
                ns += 1
            if (((CX[k] - px) * rx + (CY[k] - py) * ry + RHO[k] < Lf - RA[p] - 1e-6)
                    and lo + PT_ANG < be and hi - PT_ANG > -be and hi - lo < 5.0 and convex[k]):
                W[3, e0 + nh], W[4, e0 + nh], W[5, e0 + nh] = off + (lo + PT_ANG), lo + PT_ANG, hi - PT_ANG
                nh += 1
            n += 1
        if not PT[3, i]:
            continue            # (q inside A, or too near it: the exact test's)
        SEEN[i] = ns == 0 or not _covered_one(&W[0, e0], &W[1, e0], &W[2, e0], ns, be, off, False)
        if not SEEN[i]:
            HID[i] = ins or (nh > 0 and _covered_one(&W[3, e0], &W[4, e0], &W[5, e0], nh, be, off, True))
    return seen_, hidden_


cdef inline bint _blocked_seg(double x0, double y0, double x1, double y1, const Py_ssize_t[:] pidx,
                              Py_ssize_t p0, Py_ssize_t p1, Py_ssize_t Vm, const double[:, :] NX,
                              const double[:, :] NY, const double[:, :] OFF, const double[:, :] VX,
                              const double[:, :] VY) noexcept nogil:
    """batch._blocked_xy for one segment: does it cross one of the pieces pidx[p0:p1]
    (sat_cross_k's test; any one that crosses ends it)."""
    cdef Py_ssize_t e
    for e in range(p0, p1):
        if _sat_cross(x0, y0, x1, y1, pidx[e], Vm, NX, NY, OFF, VX, VY):
            return True
    return False


def shadowed(qx_, qy_, owner_, D, pk, pstart_, pidx_, ostart_, opts_):
    """visibility.full._shadowed: the pairs (ascending) with a sample point q not seen from the
    pair's disc A, point by point: the segment from A's outline towards q, and for a point it
    leaves blocked the candidate lines through q (the two tangents to A, the line through each
    obstacle vertex of the pair), each line's A-to-q part (full._seen_along: A's chord, the
    point on it or the part from its nearer end free); each test the reference's arithmetic,
    a point stopping at its first free line."""
    ax_, ay_, ra_ = D
    nx_, ny_, off_, vx_, vy_ = pk.soa
    if not (_all_of((qx_, qy_, ax_, ay_, ra_, nx_, ny_, off_, vx_, vy_), F64)
            and _plain_xy(opts_, 0) and _all_of((owner_, pstart_, pidx_, ostart_), INTP)):
        return None
    cdef Py_ssize_t P = ax_.shape[0], N = qx_.shape[0]
    for a_ in (ax_, ay_, ra_):
        if a_.ndim != 1 or a_.shape[0] != P:
            return None
    for a_ in (qx_, qy_, owner_):
        if a_.ndim != 1 or a_.shape[0] != N:
            return None
    if (pstart_.ndim != 1 or pstart_.shape[0] != P + 1 or ostart_.ndim != 1
            or ostart_.shape[0] != P + 1 or pidx_.ndim != 1):
        return None
    cdef const double[:] QX = qx_
    cdef const double[:] QY = qy_
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:, :] O = opts_
    cdef const Py_ssize_t[:] owner = owner_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    cdef const Py_ssize_t[:] ostart = ostart_
    for a_ in (qx_, qy_, ax_, ay_, ra_):
        if not _bounded(a_, 1e100):
            return None
    if not (_indices(owner, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, nx_.shape[1])
            and _csr_rows(ostart, O.shape[0])):
        return None
    cdef Py_ssize_t Vm = int(pk.nverts.max()) if len(pk) else 1
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef const double[:, :] VX = vx_
    cdef const double[:, :] VY = vy_
    hit_ = np.zeros(P, dtype=np.uint8)
    cdef unsigned char[::1] hit = hit_
    cdef Py_ssize_t i, p, a, c, p0, p1
    cdef double qx, qy, ax, ay, ra, dx, dy, f, nx, ny, s, t0, t1, x0, y0, tq, tf, sg
    cdef bint seen, valid
    for i in range(N):
        p = owner[i]
        if hit[p]:
            continue
        qx, qy, ax, ay, ra = QX[i], QY[i], AX[p], AY[p], RA[p]
        p0, p1 = pstart[p], pstart[p + 1]
        dx, dy = qx - ax, qy - ay
        f = ra / _max(sqrt(dx * dx + dy * dy), 1e-12)
        if not _blocked_seg(ax + f * dx, ay + f * dy, qx, qy, pidx, p0, p1, Vm, NX, NY, OFF, VX, VY):
            continue
        seen = False
        c = -2
        while not seen and c < ostart[p + 1] - ostart[p]:
            if c < 0:       # the tangents from q to A (+, then -), then the obstacle vertices
                sg = 1.0 if c == -2 else -1.0
                valid = _tangent_line(qx, qy, 0.0, ax, ay, ra, 1.0, sg, &nx, &ny, &s)
            else:
                a = ostart[p] + c
                valid = _tangent_line(qx, qy, 0.0, O[a, 0], O[a, 1], 0.0, 1.0, 1.0, &nx, &ny, &s)
            c += 1
            if not valid or not _chord(nx, ny, s, ax, ay, ra, &t0, &t1):
                continue
            x0, y0 = nx * s, ny * s
            tq = (qx - x0) * -ny + (qy - y0) * nx
            if tq >= t0 - LINE_TOL and tq <= t1 + LINE_TOL:
                seen = True         # (q on A's chord)
                break
            tf = t1 if tq >= t1 else (t0 if tq <= t0 else tq)
            seen = not _blocked_seg(x0 - tf * ny, y0 + tf * nx, qx, qy, pidx, p0, p1, Vm, NX, NY,
                                    OFF, VX, VY)
        if not seen:
            hit[p] = 1
    return np.flatnonzero(hit_).astype(np.intp, copy=False)


def apexes_free(px_, py_, ok_, D, q_, pk, pstart_, pidx_):
    """visibility.hull_full._apexes_free: per pair q, from one of its apexes that apply, the
    region towards B's bounding disc (certs._star_axes, pair by pair with the reference's
    arithmetic) separated from every piece of the pair (stars_separated's twin, near sides at
    the apexes)."""
    bx_, by_, rb_ = D[3], D[4], D[5]
    if not (_all_of((px_, py_, bx_, by_, rb_), F64) and _all_of((ok_,), BOOL)
            and _all_of((q_, pstart_, pidx_), INTP) and q_.ndim == 1 and pstart_.ndim == 1
            and pidx_.ndim == 1 and px_.ndim == 2 and py_.ndim == 2 and ok_.ndim == 2):
        return None
    cdef Py_ssize_t P = bx_.shape[0], Q = q_.shape[0], S = px_.shape[1]
    if (px_.shape[0] != Q or py_.shape[0] != Q or ok_.shape[0] != Q or py_.shape[1] != S
            or ok_.shape[1] != S or pstart_.shape[0] != P + 1):
        return None
    for a_ in (bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P or not _bounded(a_, 1e100):
            return None
    cdef const double[:, :] PX = px_
    cdef const double[:, :] PY = py_
    cdef const unsigned char[:, :] OK0 = ok_.view(np.uint8)
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    cdef Py_ssize_t i, s, p
    for i in range(Q):
        if not (_bounded(PX[i], 1e100) and _bounded(PY[i], 1e100)):
            return None
    if not (_indices(q, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, pk.soa[0].shape[1])):
        return None
    got = _expand(pstart_, q_)
    if got is None:
        return None
    e_, pos_ = got[1], got[2]
    if e_.shape[0] == 0:
        return np.ones(Q, dtype=bool)
    ok2_ = np.empty((Q, S), dtype=bool)
    wx_ = np.empty((Q, S))
    wy_ = np.empty((Q, S))
    W_ = np.empty((Q, S))
    rr_ = np.empty((Q, 1))
    sn_ = np.empty((Q, S))
    h_ = np.empty((Q, S))
    cdef unsigned char[:, ::1] OK = ok2_.view(np.uint8)
    cdef double[:, ::1] WX = wx_
    cdef double[:, ::1] WY = wy_
    cdef double[:, ::1] WW = W_
    cdef double[:, ::1] RR = rr_
    cdef double[:, ::1] SNN = sn_
    cdef double[:, ::1] H = h_
    cdef double rr
    for i in range(Q):          # (certs._star_axes)
        p = q[i]
        rr = RB[p] + FREE
        RR[i, 0] = rr
        for s in range(S):
            OK[i, s] = _star_axis(BX[p], BY[p], rr, PX[i, s], PY[i, s], OK0[i, s], &WX[i, s], &WY[i, s],
                                  &WW[i, s], &SNN[i, s], &H[i, s])
    return stars_separated(px_, py_, np.zeros((Q, S)), ok2_, wx_, wy_, W_, rr_, sn_, h_, e_,
                           pidx_.take(pos_), pk)


_hull_star = None       # hull_full._HULL_STAR
cdef double FARTHEST_BAND = 1e-9    # (two vertices' projections this close: the reference's)


def outline_apexes(cores, D, q_):
    """visibility.hull_full._outline_apexes: per pair q, the first of A's core vertices farthest
    in each of the directions _HULL_STAR from the direction of B (numpy's own arctan2, cos and
    sin, on whole arrays of the reference's arguments), and whether B's bounding disc is clear
    of A's. The reference finds the farthest by a matrix product, whose bits may be the BLAS's;
    here each projection is computed plainly, and a call where a direction's two farthest
    vertices (at different places) are within FARTHEST_BAND (inches, relative above 1") is
    declined, so the vertex chosen is the reference's."""
    global _hull_star
    if _hull_star is None:
        from sim.rules.visibility import hull_full
        _hull_star = hull_full._HULL_STAR
    ax_, ay_, ra_, bx_, by_, rb_ = D
    if not (_all_of((ax_, ay_, ra_, bx_, by_, rb_), F64) and _all_of((q_,), INTP) and q_.ndim == 1
            and isinstance(cores, list) and len(cores) == q_.shape[0]):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], S = _hull_star.shape[0]
    for a_ in (ax_, ay_, ra_, bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P or not _bounded(a_, 1e100):
            return None
    for v_ in cores:
        if not _plain_xy(v_, 1):
            return None
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const double[:] HS = _hull_star
    cdef const Py_ssize_t[:] q = q_
    if not _indices(q, P):
        return None
    cdef Py_ssize_t i, s, p, v, best
    cdef double ux, uy, L
    args_ = np.empty((2, Q))
    cdef double[:, ::1] AR = args_
    ok_ = np.empty((Q, S), dtype=bool)
    cdef unsigned char[:, ::1] OK = ok_.view(np.uint8)
    for i in range(Q):
        p = q[i]
        ux, uy = BX[p] - AX[p], BY[p] - AY[p]
        L = _max(sqrt(ux * ux + uy * uy), 1e-12)
        AR[0, i], AR[1, i] = uy, ux
        for s in range(S):
            OK[i, s] = L > RA[p] + RB[p] + 1e-6
    base_ = np.arctan2(args_[0], args_[1])
    cdef const double[::1] base = base_
    ang_ = np.empty((Q, S))
    cdef double[:, ::1] ANG = ang_
    for i in range(Q):
        for s in range(S):
            ANG[i, s] = base[i] + HS[s]
    dx_ = np.cos(ang_)
    dy_ = np.sin(ang_)
    cdef const double[:, ::1] DX = dx_
    cdef const double[:, ::1] DY = dy_
    px_ = np.empty((Q, S))
    py_ = np.empty((Q, S))
    cdef double[:, ::1] PX = px_
    cdef double[:, ::1] PY = py_
    cdef const double[:, :] V
    cdef double m, second, x
    for i in range(Q):
        V = cores[i]
        for s in range(S):
            best = 0
            m = V[0, 0] * DX[i, s] + V[0, 1] * DY[i, s]
            for v in range(1, V.shape[0]):
                x = V[v, 0] * DX[i, s] + V[v, 1] * DY[i, s]
                if x > m:
                    best, m = v, x
            second = -INFINITY
            for v in range(V.shape[0]):
                if V[v, 0] == V[best, 0] and V[v, 1] == V[best, 1]:
                    continue        # (the same place: the same apex whichever is first)
                x = V[v, 0] * DX[i, s] + V[v, 1] * DY[i, s]
                if x > second:
                    second = x
            if m - second <= FARTHEST_BAND * _max(1.0, fabs(m)):
                return None
            PX[i, s], PY[i, s] = V[best, 0], V[best, 1]
    return px_, py_, ok_


_fixed = None       # certs.FIXED: the samples every pair gets (unit offsets)


def sample_inside(D, q_, pk, pstart_, pidx_):
    """visibility.certs.sample_inside: per pair q, one of B's fixed samples inside a convex
    piece of the pair by more than _CLOSE (every edge line's test, the padded rows too, as
    the reference's) and outside A by more than that; entry by entry the reference's
    arithmetic, a pair stopping at its first such sample."""
    global _fixed
    if _fixed is None:
        from sim.rules.visibility import certs
        _fixed = certs.FIXED
    ax_, ay_, ra_, bx_, by_, rb_ = D
    nx_, ny_, off_ = pk.soa[0], pk.soa[1], pk.soa[2]
    convex_ = pk.convex
    if not (_all_of((ax_, ay_, ra_, bx_, by_, rb_, nx_, ny_, off_, _fixed), F64)
            and _all_of((convex_,), BOOL) and _all_of((q_, pstart_, pidx_), INTP)
            and q_.ndim == 1 and pstart_.ndim == 1 and pidx_.ndim == 1):
        return None
    cdef Py_ssize_t P = ax_.shape[0], Q = q_.shape[0], V = nx_.shape[0], NK = nx_.shape[1]
    for a_ in (ax_, ay_, ra_, bx_, by_, rb_):
        if a_.ndim != 1 or a_.shape[0] != P or not _bounded(a_, 1e100):
            return None
    if pstart_.shape[0] != P + 1 or convex_.shape[0] != NK or V == 0:
        return None
    cdef const double[:] AX = ax_
    cdef const double[:] AY = ay_
    cdef const double[:] RA = ra_
    cdef const double[:] BX = bx_
    cdef const double[:] BY = by_
    cdef const double[:] RB = rb_
    cdef const double[:, :] FX = _fixed
    cdef const Py_ssize_t[:] q = q_
    cdef const Py_ssize_t[:] pstart = pstart_
    cdef const Py_ssize_t[:] pidx = pidx_
    cdef const unsigned char[:] convex = convex_.view(np.uint8)
    cdef const double[:, :] NX = nx_
    cdef const double[:, :] NY = ny_
    cdef const double[:, :] OFF = off_
    cdef Py_ssize_t i, p, j, k, v, f, F = FX.shape[0]
    if not (_indices(q, P) and _csr_rows(pstart, pidx.shape[0]) and _indices(pidx, NK)):
        return None
    for i in range(Q):
        if not (RB[q[i]] > 0.0):
            return None         # (the reference divides by B's radius)
    for v in range(V):
        if not (_bounded(NX[v], 1e100) and _bounded(NY[v], 1e100) and _bounded(OFF[v], 1e100)):
            return None
    out_ = np.zeros(Q, dtype=bool)
    cdef unsigned char[:] out = out_.view(np.uint8)
    t_ = np.empty(V)
    cdef double[::1] t = t_
    cdef double bx, by, rb, ra, sx, sy
    cdef bint inside
    for i in range(Q):
        p = q[i]
        bx, by, rb = BX[p], BY[p], RB[p]
        ra = RA[p] + PT_CLOSE
        for j in range(pstart[p], pstart[p + 1]):
            k = pidx[j]
            if not convex[k]:
                continue
            for v in range(V):
                t[v] = (OFF[v, k] - NX[v, k] * bx - NY[v, k] * by - PT_CLOSE) / rb
            for f in range(F):
                inside = True
                for v in range(V):
                    if not (NX[v, k] * FX[f, 0] + NY[v, k] * FX[f, 1] < t[v]):
                        inside = False
                        break
                if not inside:
                    continue
                sx = bx + rb * FX[f, 0] - AX[p]
                sy = by + rb * FX[f, 1] - AY[p]
                if sx * sx + sy * sy > ra * ra:
                    out[i] = True
                    break
            if out[i]:
                break
    return out_


_NDARRAY = NDARRAY   # (the buffer-reading twins below take exactly this type, as _all_of)


cdef inline const unsigned char* _at(Py_buffer* b, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """The byte at [i, j] of a 2-D buffer (any strides)."""
    return <const unsigned char*> b.buf + i * b.strides[0] + j * b.strides[1]


def cover_rows_known(fv_known_, fv_, hideable_, within_any_, r0_, r1_, c0_, c1_):
    """visibility.index.cover_rows_known: per row of the block r0:r1 x c0:c1, no column is fully
    visible (``fv``) without qualifying by area (``hideable`` and ``within_any``); None when an
    entry of the block is unresolved (``fv_known``). Bounds that are no int, or that a slice
    would clip (below 0 or past the end, a stop before its start), are the reference's. The
    arrays are read through their buffers as bytes (a numpy bool is one byte, 0 or 1): a typed
    memoryview of each would cost more than the whole answer. So each must be a numpy array
    itself, not a subclass (a matrix's answer has two dimensions, a masked array's hides
    values) nor another object with an array's attributes (whose buffer they need not
    describe)."""
    if not (type(fv_known_) is _NDARRAY and type(fv_) is _NDARRAY and type(hideable_) is _NDARRAY
            and type(within_any_) is _NDARRAY):
        return None
    if not _all_of((fv_known_, fv_, hideable_, within_any_), BOOL):
        return None
    if not (type(r0_) is int and type(r1_) is int and type(c0_) is int and type(c1_) is int):
        return None
    if fv_known_.ndim != 2 or fv_.ndim != 2 or hideable_.ndim != 1 or within_any_.ndim != 1:
        return None
    if not (0 <= r0_ <= r1_ <= fv_known_.shape[0] and 0 <= c0_ <= c1_ <= fv_known_.shape[1]):
        return None
    if (fv_.shape != fv_known_.shape or hideable_.shape[0] != fv_known_.shape[1]
            or within_any_.shape[0] != fv_known_.shape[1]):
        return None
    cdef Py_ssize_t r0 = r0_, r1 = r1_, c0 = c0_, c1 = c1_, i, j
    cdef Py_buffer bufs[5]
    cdef int got = 0
    cdef const unsigned char* hide
    cdef const unsigned char* within
    out_ = np.empty(r1 - r0, dtype=bool)
    try:
        for a in (fv_known_, fv_, hideable_, within_any_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES)
            got += 1
        PyObject_GetBuffer(out_, &bufs[got], PyBUF_STRIDES | PyBUF_WRITABLE)
        got += 1
        for i in range(r0, r1):
            for j in range(c0, c1):
                if not _at(&bufs[0], i, j)[0]:
                    return None
        hide = <const unsigned char*> bufs[2].buf
        within = <const unsigned char*> bufs[3].buf
        for i in range(r0, r1):
            (<unsigned char*> bufs[4].buf)[i - r0] = 1
            for j in range(c0, c1):
                if _at(&bufs[1], i, j)[0] and not (hide[j * bufs[2].strides[0]] and within[j * bufs[3].strides[0]]):
                    (<unsigned char*> bufs[4].buf)[i - r0] = 0
                    break
    finally:
        for i in range(got):
            PyBuffer_Release(&bufs[i])
    return out_


def rows_seen_nearest(visible_, dist_, r0_, r1_, c0_, c1_):
    """visibility.index.rows_seen_nearest: per row of the block r0:r1 x c0:c1, any column visible,
    and the least distance (a minimum is exact: no rounding). Left to the reference: bounds
    that are no int or that a slice would clip, a block of no column (numpy's minimum has no
    identity: the reference raises), a NaN or a negative zero among the distances (which of
    two NaNs or of two zeros numpy's reduction keeps is its own), and any argument that is not a
    numpy array itself (read through its buffer, as cover_rows_known reads its)."""
    if not (type(visible_) is _NDARRAY and type(dist_) is _NDARRAY):
        return None
    if not (_all_of((visible_,), BOOL) and _all_of((dist_,), F64)):
        return None
    if not (type(r0_) is int and type(r1_) is int and type(c0_) is int and type(c1_) is int):
        return None
    if visible_.ndim != 2 or dist_.ndim != 2:
        return None
    if not (0 <= r0_ <= r1_ <= visible_.shape[0] and 0 <= c0_ < c1_ <= visible_.shape[1]):
        return None
    if dist_.shape != visible_.shape:
        return None
    cdef Py_ssize_t r0 = r0_, r1 = r1_, c0 = c0_, c1 = c1_, i, j
    cdef Py_buffer bufs[4]
    cdef int got = 0
    cdef unsigned char any_
    cdef double best, v
    seen_ = np.empty(r1 - r0, dtype=bool)
    near_ = np.empty(r1 - r0, dtype=np.float64)
    try:
        for a in (visible_, dist_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES)
            got += 1
        for a in (seen_, near_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES | PyBUF_WRITABLE)
            got += 1
        for i in range(r0, r1):
            any_ = 0
            for j in range(c0, c1):
                if _at(&bufs[0], i, j)[0]:
                    any_ = 1
                    break
            best = INFINITY
            for j in range(c0, c1):
                v = (<const double*> _at(&bufs[1], i, j))[0]
                if v != v or (v == 0.0 and signbit(v)):
                    return None
                if v < best:
                    best = v
            (<unsigned char*> bufs[2].buf)[i - r0] = any_
            (<double*> bufs[3].buf)[i - r0] = best
    finally:
        for i in range(got):
            PyBuffer_Release(&bufs[i])
    return seen_, near_

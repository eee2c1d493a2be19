# The compiled twins of sim.rules.visibility.pairs: the pairs a batch takes along: capsules,
# near and within pairs. One file of sight.pyx, which says what every twin holds to (this folder
# mirrors sim/rules/visibility: a file for each module with twins).


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

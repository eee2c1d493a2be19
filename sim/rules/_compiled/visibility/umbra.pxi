# The compiled twins of sim.rules.visibility.umbra: the umbra of dense features: chords of each
# base's shadow. One file of sight.pyx, which says what every twin holds to (this folder mirrors
# sim/rules/visibility: a file for each module with twins).


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

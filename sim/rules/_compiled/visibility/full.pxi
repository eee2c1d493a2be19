# The compiled twins of sim.rules.visibility.full: full visibility's last resort: arc samples
# and points shadowed. One file of sight.pyx, which says what every twin holds to (this folder
# mirrors sim/rules/visibility: a file for each module with twins).


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

# The compiled twins of sim.rules.visibility.hull_full: full visibility of oval and rectangular
# bases: their vertices, outline apexes and the apexes free of terrain. One file of sight.pyx,
# which says what every twin holds to (this folder mirrors sim/rules/visibility: a file for each
# module with twins).


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
        return _trues(Q)
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

# The compiled twins of sim.rules.visibility.certs: the certificates of full visibility: stars,
# rings, points and the samples inside a base. One file of sight.pyx, which says what every twin
# holds to (this folder mirrors sim/rules/visibility: a file for each module with twins).


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
        return _trues(q_.shape[0])
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

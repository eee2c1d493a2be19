# The compiled twin of sim.rules.movement.solvers.placement: the candidate spots for a unit's next
# model as the placement solver grows a set-up. One file of move.pyx, which says what every twin
# holds to (this folder's files are named after the modules whose kernels they twin).


_SPOTS_DIRECTIONS = []   # (sim.rules.movement.solvers.spots.directions, found when first needed)
_SPOTS_RING = []   # (spots.ring and table.ANGLES, the contact rings round a hull: found when first needed)
GROW_LOOSE = (1.0, 1.9)  # (movement.solvers.placement.LOOSE: a test holds the two equal)
# (id(a table's centres), a hull's row, the base's size and facing, the clearance) -> (the centres,
# spots.ring's array round that hull): views.pxi's _kept (the table's arrays are new after each
# ``add``)
_GROW_RINGS = {}


def grow_spots(fp, placed, table, gap_, tight, square=False):
    """movement.solvers.placement._grow_spots, for a round base after round unit-mates: the
    rings round each placed model at each gap, the spots touching two of them at ``gap``
    (circle intersections), those touching one and a side of the zone or the battlefield (the
    foot of each centre on the line, its ``along``, read by numpy's own product of the same
    arrays, as the reference reads it: a matrix product's bits are the library's), the rings
    round the other bases near them (``_Table.contact_spots``) and the region's own spots near
    them (03.02.02), in the reference's order, each value its arithmetic; a base that is not round
    near them (a vehicle's hull: a transport beside a disembark) has the ring ``spots.ring`` makes
    it, as the reference's has. A base that is not round among them, a footprint of numbers
    narrower than a float (the reference's arrays would compute in their type) or a value that
    is no finite number is the reference's."""
    return _grow_spots(fp, placed, table, None, gap_, tight, square)


cdef object _grow_spots(fp, placed, table, rule, gap_, tight, square):
    """``grow_spots``, its region's rule for the base given (None: the table's, looked up)."""
    if fp.shape != "round" or type(gap_) is not float or not isinstance(fp.length, float):
        return None
    cdef Py_ssize_t n = len(placed), i, j, k, q, m, L, A, nk
    if n == 0:
        return None
    if not _SPOTS_DIRECTIONS:
        from sim.rules.movement.solvers.spots import directions
        _SPOTS_DIRECTIONS.append(directions)
    directions = _SPOTS_DIRECTIONS[0]
    cdef double r = 0.5 * fp.length, bnd = fp.bounding_radius, gap = gap_
    if not (-1e150 < r < 1e150 and 0.0 <= bnd < 1e150 and -1e150 < gap < 1e150):
        return None
    pc_ = np.empty((n, 2))
    cdef double[:, ::1] pc = pc_
    pr_ = np.empty(n)
    cdef double[::1] pr = pr_
    i = 0
    for f in placed:
        if f.shape != "round" or not (isinstance(f.x, float) and isinstance(f.y, float) and isinstance(f.length, float)):
            return None   # (a hull; or numbers of another width (float32), in which the reference's arrays would compute)
        pc[i, 0], pc[i, 1], pr[i] = f.x, f.y, 0.5 * f.length
        if not (-1e150 < pc[i, 0] < 1e150 and -1e150 < pc[i, 1] < 1e150 and -1e150 < pr[i] < 1e150):
            return None
        i += 1
    cdef const double[:, :] u = directions(4 if square else 12)
    A = u.shape[0]
    if rule is None:
        rule = table.rule(fp)
    lines = rule.lines() if tight else ()
    L = len(lines)
    # the contact rings' bases (_Table.contact_spots): those whose box meets the placed models' box
    cdef double lox = INFINITY, loy = INFINITY, hix = -INFINITY, hiy = -INFINITY
    for i in range(n):
        lox, loy = _min(lox, pc[i, 0]), _min(loy, pc[i, 1])
        hix, hiy = _max(hix, pc[i, 0]), _max(hiy, pc[i, 1])
    lox, loy = (lox - 2.0) - bnd, (loy - 2.0) - bnd
    hix, hiy = (hix + 2.0) + bnd, (hiy + 2.0) + bnd
    oc_, orad_ = table.centres, table.radius
    xhi_, xlo_, yhi_, ylo_ = table.box
    if not _all_of((oc_, orad_, xhi_, xlo_, yhi_, ylo_), F64):
        return None
    cdef const double[:, :] oc = oc_
    cdef const double[:] orad = orad_
    cdef const double[:] xhi = xhi_
    cdef const double[:] xlo = xlo_
    cdef const double[:] yhi = yhi_
    cdef const double[:] ylo = ylo_
    cdef Py_ssize_t N = oc.shape[0]
    if orad.shape[0] != N or xhi.shape[0] != N or xlo.shape[0] != N or yhi.shape[0] != N or ylo.shape[0] != N:
        return None
    keep_ = np.empty(N, dtype=np.intp)
    cdef Py_ssize_t[::1] keep = keep_
    cdef double pad = bnd + table.clearance, clearance = table.clearance
    nk = 0
    cdef bint hull_near = False
    if tight:
        for j in range(N):
            if xhi[j] >= lox - pad and xlo[j] <= hix + pad and yhi[j] >= loy - pad and ylo[j] <= hiy + pad:
                if not (orad[j] > 0):
                    hull_near = True   # (a hull near: every near base's ring, as the reference makes them)
                keep[nk] = j
                nk += 1
    cdef Py_ssize_t nc = nk * 12
    # (a hull near: its ring is spots.ring's own array, as _Table.contact_spots makes it; the
    # discs' rings are written below either way, with contact_spots' arithmetic)
    rings = None
    cdef const double[:, :] hr
    if hull_near:
        if not _SPOTS_RING:
            from sim.rules.movement.solvers.spots import ring
            from sim.rules.movement.solvers.table import ANGLES
            _SPOTS_RING.append((ring, ANGLES))
        ring, angles = _SPOTS_RING[0]
        if angles != 12:
            return None
        others = table.others
        rings = [None] * nk
        nc = 0
        for i in range(nk):
            if orad[keep[i]] > 0:
                nc += 12
                continue
            # (spots.ring's array for this hull of the table and this base, kept with the table's
            # arrays until the next ``add``: the same array the ring gives)
            key = (id(oc_), keep[i], fp.length, fp.width, fp.angle, table.clearance)
            ring_ = _kept(_GROW_RINGS, key, oc_)
            if ring_ is None:
                ring_ = _keep(_GROW_RINGS, key, oc_, ring(fp, others[keep[i]][1], table.clearance, angles),
                              _KEPT_MOST)
            if not _all_of((ring_,), F64) or ring_.ndim != 2 or (ring_.shape[0] and ring_.shape[1] != 2):
                return None
            rings[i] = ring_
            nc += ring_.shape[0]
    seeds_ = None
    cdef const double[:, :] seeds
    cdef Py_ssize_t S = 0
    if tight and rule.mode:
        seeds_ = rule.seeds()
        if not _all_of((seeds_,), F64) or seeds_.ndim != 2 or (seeds_.shape[0] and seeds_.shape[1] != 2):
            return None
        seeds = seeds_
        S = seeds.shape[0]
    gaps = [gap_] if tight else list(GROW_LOOSE)
    cdef Py_ssize_t most = n * A * len(gaps) + (n * (n - 1) if tight and not square else 0) + 2 * n * L + nc + S
    out_ = np.empty((most, 2))
    cdef double[:, ::1] out = out_
    cdef double t, g, dx, dy, dd, a, h, ex, ey, mx, my, Ri, Rj, ox, oy
    R_ = np.empty(n)
    cdef double[::1] R = R_
    m = 0
    # rings round each placed model at each gap
    for g in gaps:
        for i in range(n):
            t = (pr[i] + r) + g
            for q in range(A):
                out[m, 0] = pc[i, 0] + t * u[q, 0]
                out[m, 1] = pc[i, 1] + t * u[q, 1]
                m += 1
    for i in range(n):
        R[i] = (pr[i] + r) + gap
    # touching two placed models at ``gap``: each pair's spot one side, then every pair's the other
    cdef Py_ssize_t P = 0, start
    if tight and not square and n >= 2:
        start = m
        for i in range(n):
            for j in range(i + 1, n):
                dx = pc[j, 0] - pc[i, 0]
                dy = pc[j, 1] - pc[i, 1]
                dd = hypot(dx, dy)
                Ri, Rj = R[i], R[j]
                if not (dd > 1e-9 and dd <= Ri + Rj and dd >= fabs(Ri - Rj)):
                    continue
                a = ((Ri * Ri - Rj * Rj) + dd * dd) / (2 * dd)
                h = sqrt(_max(Ri * Ri - a * a, 0.0))
                ex, ey = dx / dd, dy / dd
                mx, my = pc[i, 0] + a * ex, pc[i, 1] + a * ey
                out[m, 0] = mx + h * (-ey)
                out[m, 1] = my + h * ex
                m += 1
                P += 1
        m = start   # (the other side, in the same order, after them)
        for i in range(n):
            for j in range(i + 1, n):
                dx = pc[j, 0] - pc[i, 0]
                dy = pc[j, 1] - pc[i, 1]
                dd = hypot(dx, dy)
                Ri, Rj = R[i], R[j]
                if not (dd > 1e-9 and dd <= Ri + Rj and dd >= fabs(Ri - Rj)):
                    continue
                a = ((Ri * Ri - Rj * Rj) + dd * dd) / (2 * dd)
                h = sqrt(_max(Ri * Ri - a * a, 0.0))
                ex, ey = dx / dd, dy / dd
                mx, my = pc[i, 0] + a * ex, pc[i, 1] + a * ey
                out[m + P, 0] = mx - h * (-ey)
                out[m + P, 1] = my - h * ex
                m += 1
        m = start + 2 * P
    # touching one placed model at ``gap`` and a side of the zone or the battlefield
    cdef double a0x, a0y, tx, ty, off
    cdef double[::1] along
    cdef Py_ssize_t hits
    for k in range(L):
        a0, tv = lines[k]
        a0x, a0y, tx, ty = a0[0], a0[1], tv[0], tv[1]
        hits = 0
        for i in range(n):
            off = (pc[i, 0] - a0x) * ty - (pc[i, 1] - a0y) * tx
            if fabs(off) <= R[i]:
                hits += 1
        if hits == 0:
            continue
        along = (pc_ - a0) @ tv   # (numpy's product, as the reference's: its bits are the library's)
        start = m
        for i in range(n):
            off = (pc[i, 0] - a0x) * ty - (pc[i, 1] - a0y) * tx
            if not (fabs(off) <= R[i]):
                continue
            h = sqrt(_max(R[i] * R[i] - off * off, 0.0))
            mx, my = a0x + along[i] * tx, a0y + along[i] * ty
            out[m, 0] = mx + h * tx
            out[m, 1] = my + h * ty
            out[m + hits, 0] = mx - h * tx
            out[m + hits, 1] = my - h * ty
            m += 1
        m = start + 2 * hits
    # the rings round the other bases near them (_Table.contact_spots) and the region's own spots
    cdef const double[:, :] u12
    if nk:
        u12 = directions(12)
        for i in range(nk):
            j = keep[i]
            if rings is not None and rings[i] is not None:   # (a hull's ring, spots.ring's)
                hr = rings[i]
                for k in range(hr.shape[0]):
                    out[m, 0], out[m, 1] = hr[k, 0], hr[k, 1]
                    m += 1
                continue
            t = (orad[j] + r) + clearance
            for q in range(12):
                out[m, 0] = oc[j, 0] + t * u12[q, 0]
                out[m, 1] = oc[j, 1] + t * u12[q, 1]
                m += 1
    if S:
        for k in range(S):
            if (seeds[k, 0] >= lox - 2 * bnd and seeds[k, 1] >= loy - 2 * bnd
                    and seeds[k, 0] <= hix + 2 * bnd and seeds[k, 1] <= hiy + 2 * bnd):
                out[m, 0], out[m, 1] = seeds[k, 0], seeds[k, 1]
                m += 1
    for k in range(m):
        if not (out[k, 0] - out[k, 0] == 0.0 and out[k, 1] - out[k, 1] == 0.0):
            return None   # (no finite number made: the reference's)
    return out_[:m].copy()


# (placement.COMPACT: a test holds the two equal)
PICK_COMPACT = 1.0


cdef inline double _round6(double x) noexcept nogil:
    """np.round(x, 6): numpy's product by 1e6, its rint and its quotient by 1e6."""
    return rint(x * 1e6) / 1e6


cdef object _held(c_, ok_):
    """``c_[ok_]`` (the rows a (K,) mask holds, in order: the same values), made here for a float
    (K, 2) array and a plain bool mask (numpy's indexing otherwise)."""
    if not (_all_of((ok_,), BOOL) and ok_.ndim == 1 and c_.shape[0] == ok_.shape[0]):
        return c_[ok_]
    cdef const unsigned char[:] ok = ok_.view(np.uint8)
    cdef const double[:, :] c = c_
    cdef Py_ssize_t n = 0, k, m = 0
    for k in range(ok.shape[0]):
        n += ok[k] != 0
    out_ = np.empty((n, 2))
    cdef double[:, ::1] out = out_
    if n:
        for k in range(c.shape[0]):
            if ok[k]:
                out[m, 0] = c[k, 0]
                out[m, 1] = c[k, 1]
                m += 1
    return out_


def grow_pick(f, placed, table, prefer, gap_, anchor_, tight, square):
    """movement.solvers.placement._grow_pick, for a round base after round unit-mates: the spots
    ``grow_spots`` offers, the region's first limits (``edges_and_zone``; its other limits, a
    ``near`` target or what it keeps away from, by ``rest_mask``'s twin on the same arrays, or
    where it declines the reference's own ``ModelRule._rest_mask``), ``spots_fit`` of those left, then ``_model_keys``' keys for those left
    (np.hypot's, C's hypot, to the anchor and to each preferred point, the least of them; the
    edge's distance less the base's half extent; each key np.round's to 6 decimals) and the
    first of the least (``_best``'s lexicographic order, ties to the first). Each step the
    reference's arithmetic; a step's twin that declines, a base that is not round, a
    preference for bases or an unknown edge, an input of another type or a value that is no
    finite number within a table's size is the reference's."""
    if f.shape != "round" or not _all_of((anchor_,), F64) or anchor_.ndim != 1 or anchor_.shape[0] != 2:
        return None
    rule = table.rule(f)
    c_ = _grow_spots(f, placed, table, rule, gap_, tight, square)
    if c_ is None or not _all_of((c_,), F64) or c_.ndim != 2 or c_.shape[1] != 2:
        return None
    if c_.shape[0] == 0:
        return ()
    ok_ = edges_and_zone(rule, c_)
    if ok_ is None:
        return None
    rg = rule.region
    if rg.near is not None or rg.away:
        got_ = rest_mask(rule, c_, ok_)   # (the twin, called here; where it declines, its record)
        ok_ = got_ if got_ is not None else rule._rest_mask(c_, ok_)
    c_ = _held(c_, ok_)
    if not len(c_):
        return ()
    ok_ = spots_fit(f, c_, placed, table, gap_)
    if ok_ is None:
        return None
    c_ = _held(c_, ok_)
    if not len(c_):
        return ()
    # the keys (_model_keys) and the first of the least (_best)
    cdef const double[:, :] c = c_
    cdef const double[:] anchor = anchor_
    cdef Py_ssize_t K = c.shape[0], k, q, P = 0, best = 0
    cdef double ax = anchor[0], ay = anchor[1], d, s, k1, k2, b1 = 0.0, b2 = 0.0, hx, W = 0.0, H = 0.0
    cdef double compact = PICK_COMPACT
    cdef int mode   # 0: no preference (the distance alone); 1: points; 2: an edge; 3: nothing preferred
    cdef int edge = -1   # 0 south, 1 north, 2 west, 3 east
    if not (-1e6 < ax < 1e6 and -1e6 < ay < 1e6):
        return None
    pts_ = None
    if prefer is None:
        mode = 0
    elif prefer.points:
        mode = 1
        if type(prefer.points) is not tuple or not all(
                type(p) is tuple and len(p) == 2 and _plain_numbers(p) for p in prefer.points):
            return None   # (numbers of another type, or not pairs: numpy's arithmetic, or its error)
        pts_ = np.asarray(prefer.points, dtype=float)
        if not _bounded(pts_.reshape(-1), 1e6):
            return None
        P = pts_.shape[0]
    elif prefer.bases:
        return None   # (placed_distances to the bases: the reference's)
    elif prefer.edge is not None:
        mode = 2
        edge = ("south", "north", "west", "east").index(prefer.edge) if prefer.edge in (
            "south", "north", "west", "east") else -1
        board = rg.board
        if edge < 0 or type(board) is not tuple or len(board) != 2 or not _plain_numbers(board):
            return None
        W, H = board[0], board[1]
        if not (-1e6 < W < 1e6 and -1e6 < H < 1e6):
            return None
    else:
        mode = 3
    cdef const double[:, :] pts
    if mode == 1:
        pts = pts_
    hx = 0.5 * f.length   # (half_extents of a round base: half its length, both ways)
    for k in range(K):
        if not (-1e6 < c[k, 0] < 1e6 and -1e6 < c[k, 1] < 1e6):
            return None
        d = hypot(c[k, 0] - ax, c[k, 1] - ay)
        if mode == 0:
            k1, k2 = _round6(d), 0.0
        elif mode == 1:
            s = hypot(c[k, 0] - pts[0, 0], c[k, 1] - pts[0, 1])
            for q in range(1, P):
                s = _min(s, hypot(c[k, 0] - pts[q, 0], c[k, 1] - pts[q, 1]))
            k1, k2 = _round6(s), _round6(d)
        elif mode == 2:
            if edge == 0:
                s = c[k, 1] - hx
            elif edge == 1:
                s = (H - c[k, 1]) - hx
            elif edge == 2:
                s = c[k, 0] - hx
            else:
                s = (W - c[k, 0]) - hx
            k1 = _round6(s + compact * d)
            k2 = _round6(c[k, 0] if edge < 2 else c[k, 1])
        else:
            k1, k2 = 0.0, _round6(d)
        if k == 0 or k1 < b1 or (k1 == b1 and k2 < b2):
            best, b1, b2 = k, k1, k2
    if mode == 0:
        return (b1,), c[best, 0], c[best, 1]
    return (b1, b2), c[best, 0], c[best, 1]

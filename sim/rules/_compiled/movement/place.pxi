# The compiled twin of sim.rules.movement.solvers.place: the end tests of a chunk of candidate
# spots for one model of a move the charge, pile-in and consolidation solvers make. One file of
# move.pyx, which says what every twin holds to (this folder's files are named after the modules
# whose kernels they twin).


# (2" and 9": coherency.pxi's COHERENCY_LINK and COHERENCY_SPAN, which a test holds equal to
# sim.rules.coherency's)


cdef Py_ssize_t _root(Py_ssize_t* up, Py_ssize_t i) noexcept nogil:
    while up[i] != i:
        i = up[i]
    return i


def spots_legal(fp, centres_, idx, others_, mates, terr, fixed):
    """movement.solvers.place._spots_legal, for a round base among round bases: (K,) whether
    the base at each of ``centres`` overlaps no body of ``idx`` among the rows ``others`` whose
    box meets the centres' box grown by the base's bounding radius and a hair (near_rows, then
    overlap_mask's squares and root), none of ``mates`` (placed_overlaps' np.hypot) and no light
    or dense feature of ``terr`` (feature_mask's boxes, then a point's distance to a polygon's
    closed area), and, ``fixed`` given, keeps them and itself in coherency (_coherent, with
    disc_distances' arithmetic). The fixed models' 2" groups, which the reference finds by
    squaring their link matrix, are found here as the connected sets they are (each group's test
    is its own, so their order is free); a pair linked one way only by a rounding (its two
    entries of the matrix on either side of 2") is the reference's. Each value the reference's
    arithmetic, so each answer is its own to the bit; a base that is not round among those
    tested, an input of another type or a value that is no finite number is the reference's. A
    body near that is not round (a vehicle's hull) is measured as placed_overlaps measures a
    round base against it."""
    if fp.shape != "round" or not _all_of((centres_,), F64) or not _all_of((others_,), INTP):
        return None
    if centres_.ndim != 2 or others_.ndim != 1 or (centres_.shape[0] and centres_.shape[1] != 2):
        return None
    cdef const double[:, :] c = centres_
    cdef const Py_ssize_t[:] others = others_
    cdef Py_ssize_t K = c.shape[0], k, j, i, p, n, g
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    cdef double r = 0.5 * fp.length, bnd = fp.bounding_radius
    if not (-1e150 < r < 1e150 and 0.0 <= bnd < 1e150):
        return None
    out_ = _trues(K)
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0:
        return out_
    cdef _Bodies b = _bodies(idx)
    if b is None or not _indices(others, b.N):
        return None
    cdef double touch = MOVE_TOUCH, cmin0 = c[0, 0], cmin1 = c[0, 1], cmax0 = c[0, 0], cmax1 = c[0, 1]
    cdef double pad, lo0, lo1, hi0, hi1, dx, dy, lim
    for k in range(1, K):
        cmin0 = _min(cmin0, c[k, 0])
        cmin1 = _min(cmin1, c[k, 1])
        cmax0 = _max(cmax0, c[k, 0])
        cmax1 = _max(cmax1, c[k, 1])
    # 03.01: no other body (near_rows' box, then overlap_mask's round pairs)
    pad = (bnd + 0.0) + 1e-6
    lo0, lo1, hi0, hi1 = cmin0 - pad, cmin1 - pad, cmax0 + pad, cmax1 + pad
    near_ = np.empty(others.shape[0], dtype=np.intp)
    hulls_ = np.empty(others.shape[0], dtype=np.intp)
    cdef Py_ssize_t[::1] near = near_
    cdef Py_ssize_t[::1] hulls = hulls_
    cdef Py_ssize_t nh = 0
    n = 0
    for i in range(others.shape[0]):
        j = others[i]
        if b.xhi[j] >= lo0 and b.xlo[j] <= hi0 and b.yhi[j] >= lo1 and b.ylo[j] <= hi1:
            if not b.rnd[j]:
                hulls[nh] = j   # (a hull near: placed_overlaps' measure, below)
                nh += 1
                continue
            near[n] = j
            n += 1
    for k in range(K):
        for i in range(n):
            j = near[i]
            dx = c[k, 0] - b.centres[j, 0]
            dy = c[k, 1] - b.centres[j, 1]
            if sqrt(dx * dx + dy * dy) < (r + b.radius[j]) - touch:
                ok[k] = False
                break
    # (a hull near: placed_overlaps' round base against it, for the spots its bounding circles
    # reach, np.hypot's: the centre's _points_convex_distance to its core, under the radius
    # less TOUCH)
    cdef const double[:, :] q
    cdef double ox, oy, reach
    if nh and not (r > 0.0):
        return None   # (a point or less: placed_overlaps asks _convex_signed then, the reference's)
    for i in range(nh):
        if _count_ok(ok) == 0:
            break
        o = idx.fps[hulls[i]]
        q_ = _hull_core(o)
        if q_ is None:
            return None
        q = q_
        ox, oy, reach = o.x, o.y, bnd + o.bounding_radius
        if not (-1e150 < ox < 1e150 and -1e150 < oy < 1e150 and -1e150 < reach < 1e150):
            return None
        for k in range(K):
            if ok[k] and hypot(c[k, 0] - ox, c[k, 1] - oy) < reach and _pt_convex_d(c[k, 0], c[k, 1], q) < r - touch:
                ok[k] = False
    if _count_ok(ok) == 0:
        return out_
    # 03.01: no unit-mate where it stands (placed_overlaps' round pairs)
    n = len(mates)
    disc_ = np.empty((n, 3))
    cdef double[:, ::1] disc = disc_
    if not _discs_of(mates, disc):
        return None
    for k in range(K):
        if not ok[k]:
            continue
        for i in range(n):
            if hypot(c[k, 0] - disc[i, 0], c[k, 1] - disc[i, 1]) < (r + disc[i, 2]) - touch:
                ok[k] = False
                break
    if _count_ok(ok) == 0:
        return out_
    # Part A ruling 13: no light or dense feature (feature_mask's boxes and distances)
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
        lim = r - touch
        for k in range(K):
            if not ok[k]:
                continue   # (refused already: its answer stands, whatever a feature says)
            p = _on_feature(c[k, 0], c[k, 1], r, lim, ed, plo, phi)
            if p < 0:
                return None   # (a NaN made inside: the reference's)
            if p:
                ok[k] = False
    # 03.03: coherency with the fixed models (_coherent)
    n = len(fixed)
    if n == 0:
        return out_
    if _count_ok(ok) == 0:
        return out_
    disc_ = np.empty((n, 3))
    disc = disc_
    if not _discs_of(fixed, disc):
        return None
    cdef double span = COHERENCY_SPAN + EPS, link = COHERENCY_LINK + EPS, x, most, least
    up_ = np.arange(n, dtype=np.intp)
    cdef Py_ssize_t[::1] up = up_
    cdef double xt
    if n > 1:
        # the fixed models' own distances (fps_distance_matrix: disc_distances, 0 on the
        # diagonal), each pair both ways as the matrix holds them (the two may differ by a
        # rounding: linked one way only, link_groups' closure is not a partition, the reference's)
        for i in range(n):
            for j in range(i + 1, n):
                dx = disc[i, 0] - disc[j, 0]
                dy = disc[i, 1] - disc[j, 1]
                x = _max((sqrt(dx * dx + dy * dy) - disc[i, 2]) - disc[j, 2], 0.0)
                dx = disc[j, 0] - disc[i, 0]
                dy = disc[j, 1] - disc[i, 1]
                xt = _max((sqrt(dx * dx + dy * dy) - disc[j, 2]) - disc[i, 2], 0.0)
                if (x <= link) != (xt <= link):
                    return None
                if x > span or xt > span:
                    ok[:] = False   # (the fixed models span too far themselves: nowhere is coherent)
                    return out_
                if x <= link:       # (linked: one group, as link_groups' closure finds it)
                    up[_root(&up[0], i)] = _root(&up[0], j)
    grp_, dk_ = np.empty(n, dtype=np.intp), np.empty(n)
    cdef Py_ssize_t[::1] grp = grp_
    cdef double[::1] dk = dk_
    for i in range(n):
        grp[i] = _root(&up[0], i)
    for k in range(K):
        if not ok[k]:
            continue
        most = 0.0
        for i in range(n):
            dx = c[k, 0] - disc[i, 0]
            dy = c[k, 1] - disc[i, 1]
            dk[i] = _max((sqrt(dx * dx + dy * dy) - r) - disc[i, 2], 0.0)
            most = dk[i] if i == 0 else _max(most, dk[i])
        if not (most <= span):
            ok[k] = False
            continue
        # each group of the fixed models: within 2" of one of its models (one group when n is 1)
        for g in range(n):
            if grp[g] != g:
                continue
            least = INFINITY
            for i in range(n):
                if grp[i] == g:
                    least = _min(least, dk[i])
            if not (least <= link):
                ok[k] = False
                break
    return out_


# (sim.rules.grid's steps, as exact floats: a test holds them equal to grid's)
PLACE_PER_INCH = 1_000_000.0
PLACE_KEYS_PER_INCH = 100_000.0


cdef inline bint _plain_numbers(tuple values):
    """Every value a Python float or int (not a bool, not numpy's or another type of number,
    with which the reference computes in that type)."""
    for v in values:
        if type(v) is not float and type(v) is not int:
            return False
    return True


def reachable_spots(fp, cands_, reach_, board):
    """movement.solvers.place._reachable_spots, for a round base: the candidate centres (K, 2) on
    the grid (each value rint(v * 1e6) / 1e6, snap_array's operations), and the indices of those
    at which the base is within ``reach`` of its start and wholly on the board (board_mask's sums
    and comparisons), in order. The distance is np.hypot's (C's hypot, which it calls) where the
    root of the squares is within 1e-9" of the limit, the root's elsewhere (the two agree to
    ~1e-14" at the table's distances). A base that is not round, an input of another type or a
    value that is no finite number is the reference's."""
    if fp.shape != "round" or not _all_of((cands_,), F64) or cands_.ndim != 2 or type(reach_) is not float:
        return None
    if cands_.shape[1] != 2 or not _plain_numbers((fp.x, fp.y, fp.length)):
        return None
    if type(board) is not tuple or len(board) != 2 or not _plain_numbers(board):
        return None   # (a board of numpy's or other numbers: numpy computes in their type)
    cdef Py_ssize_t K = cands_.shape[0], k, m = 0
    cdef const double[:, :] c = cands_
    cdef double x0 = fp.x, y0 = fp.y, r = 0.5 * fp.length, lim = reach_ + EPS, touch = MOVE_TOUCH
    cdef double W = board[0], H = board[1], x, y, dx, dy, d, per_inch = PLACE_PER_INCH
    if not (-1e6 < x0 < 1e6 and -1e6 < y0 < 1e6 and 0.0 <= r < 1e6 and -1e6 < lim < 1e6
            and -1e6 < W < 1e6 and -1e6 < H < 1e6):
        return None
    W = W + touch
    H = H + touch
    snapped_ = np.empty((K, 2))
    sel_ = np.empty(K, dtype=np.intp)
    cdef double[:, ::1] s = snapped_
    cdef Py_ssize_t[::1] sel = sel_
    for k in range(K):
        x = c[k, 0]
        y = c[k, 1]
        if not (-1e6 < x < 1e6 and -1e6 < y < 1e6):
            return None   # (no table is that large: a value numpy would carry through is its own)
        x = rint(x * per_inch) / per_inch
        y = rint(y * per_inch) / per_inch
        s[k, 0] = x
        s[k, 1] = y
        if not (x - r >= -touch and y - r >= -touch and x + r <= W and y + r <= H):
            continue
        dx = x - x0
        dy = y - y0
        d = sqrt(dx * dx + dy * dy)
        if d > lim + 1e-9 or (d >= lim - 1e-9 and not hypot(dx, dy) <= lim):
            continue
        sel[m] = k
        m += 1
    return snapped_, sel_[:m]


cdef inline bint _ranked_before(const double* keys, Py_ssize_t nk, Py_ssize_t n, Py_ssize_t a,
                                Py_ssize_t b) noexcept nogil:
    """Candidate ``a`` before ``b``: by each key in turn (``keys``: nk rows of n, the primary
    first), then by index."""
    cdef Py_ssize_t q
    for q in range(nk):
        if keys[q * n + a] < keys[q * n + b]:
            return True
        if keys[q * n + b] < keys[q * n + a]:
            return False
    return a < b


def rank_spots(keys_):
    """movement.solvers.place._rank_spots: the candidates' order by each key on the key grid (each
    value rint(v * 1e5) / 1e5, snap_keys' operations), the primary first, ties to the earlier
    candidate: what np.lexsort gives, each key array and the indices being a total order (a
    merge sort of the indices). Keys of float64 or of numpy's integers (read as floats, as
    snap_keys reads them); another type, keys of unequal lengths or a NaN among the values on
    the grid is the reference's."""
    if type(keys_) is not list or not keys_:
        return None
    cdef Py_ssize_t nk = len(keys_), n = -1, q, k
    for a in keys_:
        if not (_all_of((a,), F64) or _all_of((a,), INTP)) or a.ndim != 1:
            return None
        if n < 0:
            n = a.shape[0]
        elif a.shape[0] != n:
            return None
    grid_ = np.empty((nk, n))
    cdef double[:, ::1] g = grid_
    cdef const double[:] f
    cdef const Py_ssize_t[:] i
    cdef double v, per_inch = PLACE_KEYS_PER_INCH
    for q in range(nk):
        a = keys_[q]
        if a.dtype is F64[1]:
            f = a
            for k in range(n):
                g[q, k] = rint(f[k] * per_inch) / per_inch
        else:
            i = a
            for k in range(n):
                g[q, k] = rint(<double>i[k] * per_inch) / per_inch
        for k in range(n):
            v = g[q, k]
            if v != v:
                return None
    order_ = np.arange(n, dtype=np.intp)
    tmp_ = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] order = order_
    cdef Py_ssize_t[::1] tmp = tmp_
    cdef Py_ssize_t width = 1, lo, mid, hi, x, y, o
    cdef const double* keys = &g[0, 0] if n else NULL
    # (bottom-up merge sort: runs of ``width`` merged in pairs, the buffers swapped each pass)
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            x, y, o = lo, mid, lo
            while x < mid and y < hi:
                if _ranked_before(keys, nk, n, order[y], order[x]):
                    tmp[o] = order[y]
                    y += 1
                else:
                    tmp[o] = order[x]
                    x += 1
                o += 1
            while x < mid:
                tmp[o] = order[x]
                x += 1
                o += 1
            while y < hi:
                tmp[o] = order[y]
                y += 1
                o += 1
            lo = hi
        order, tmp = tmp, order
        order_, tmp_ = tmp_, order_
        width *= 2
    return order_


# (place.CONTACT_AIM, grid.AIM_MARGIN and CPython's math.radians factor, Py_MATH_PI / 180: a
# test holds the first two equal to theirs)
PLACE_CONTACT_AIM = 0.7e-6
PLACE_AIM_MARGIN = 2e-6
cdef double _DEG_TO_RAD = 3.14159265358979323846 / 180.0


def ring_spots(fp0, refs, offsets, rel_):
    """movement.solvers.place._ring_spots, for a round base round round references: each
    reference's spots at each offset (0: CONTACT_AIM) in each direction of ``rel``, turned from
    the one towards the start (numpy's own arctan2, cos and sin, called here on arrays of the
    reference's shapes and strides: numpy's transcendental functions are not promised to be C's,
    and its arctan2 is not), each spot the reference's
    sums and products. A base that is not round, an input of another type or a value that is no
    finite number is the reference's."""
    if fp0.shape != "round" or type(refs) is not list or not refs or type(offsets) is not tuple:
        return None
    if not _all_of((rel_,), F64) or rel_.ndim != 1 or not _plain_numbers((fp0.x, fp0.y, fp0.length)):
        return None
    cdef Py_ssize_t m = len(refs), o = len(offsets), A = rel_.shape[0], i, j, a, k
    cdef const double[:] rel = rel_
    if not _finite(rel):
        return None
    cdef double x0 = fp0.x, y0 = fp0.y, r0 = 0.5 * fp0.length, t, aim = PLACE_CONTACT_AIM
    if not (-1e6 < x0 < 1e6 and -1e6 < y0 < 1e6 and 0.0 <= r0 < 1e6):
        return None
    rx_ = np.empty(m)
    ry_ = np.empty(m)
    rr_ = np.empty(m)
    offs_ = np.empty(o)
    cdef double[::1] rx = rx_, ry = ry_, rr = rr_, offs = offs_
    for i in range(m):
        f = refs[i]
        if f.shape != "round" or type(f.x) is not float or type(f.y) is not float or type(f.length) is not float:
            return None
        rx[i], ry[i] = f.x, f.y
        rr[i] = 0.5 * f.length
        if not (-1e6 < rx[i] < 1e6 and -1e6 < ry[i] < 1e6 and 0.0 <= rr[i] < 1e6):
            return None
        rr[i] = rr[i] + r0
    for j in range(o):
        if type(offsets[j]) is not float:
            return None
        offs[j] = offsets[j]
        if not (-1e6 < offs[j] < 1e6):
            return None
        if offs[j] == 0.0:
            offs[j] = aim
    # the directions: numpy's arctan2 of the start less each reference (none: 0), then the turns
    # (numpy's arctan2 is its own SIMD code, not C's atan2: they differ in the last bit for ~8% of
    # values here; read from an (m, 2) array's columns, strided as the reference's, its loops
    # being free to differ by layout)
    v_ = np.empty((m, 2))
    cdef double[:, ::1] v = v_
    for i in range(m):
        v[i, 0] = x0 - rx[i]
        v[i, 1] = y0 - ry[i]
    cdef const double[:] base = np.arctan2(v_[:, 1], v_[:, 0])
    ang_ = np.empty((m, A))
    cdef double[:, ::1] ang = ang_
    cdef double b
    for i in range(m):
        b = base[i] if (v[i, 0] != 0.0 or v[i, 1] != 0.0) else 0.0
        for a in range(A):
            ang[i, a] = b + rel[a]
    cdef const double[:, :] cs = np.cos(ang_)
    cdef const double[:, :] sn = np.sin(ang_)
    out_ = np.empty((m * o * A, 2))
    cdef double[:, ::1] out = out_
    k = 0
    for i in range(m):
        for j in range(o):
            t = rr[i] + offs[j]
            for a in range(A):
                out[k, 0] = rx[i] + cs[i, a] * t
                out[k, 1] = ry[i] + sn[i, a] * t
                k += 1
    return out_


def toward_spots(fp0, point, most_, fractions, spread):
    """movement.solvers.place._toward_spots: the spots from the start towards ``point`` at each
    fraction of the maximum distance (less AIM_MARGIN, capped at the point's distance, Python's
    min and max as the reference calls them) turned by each spread, fractions outer: C's hypot,
    atan2, cos and sin (what np.hypot and CPython's math call; GCC makes one sincos call of each
    cos and sin of one angle, glibc's, the same bits), math.radians' factor, the reference's sums
    and products. An input of another type, no fractions or no spread (the reference raises) or
    a value that is no finite number is the reference's."""
    if type(point) is not tuple or len(point) != 2 or type(most_) is not float:
        return None
    if type(fractions) is not tuple or type(spread) is not tuple:
        return None
    px_, py_ = point
    if type(px_) is not float or type(py_) is not float or not _plain_numbers((fp0.x, fp0.y)):
        return None
    if not fractions or not spread:
        return None   # (the reference's array of no rows has no columns to take)
    cdef double x0 = fp0.x, y0 = fp0.y, px = px_, py = py_, most = most_, vx, vy, L, base, reach, q
    if not (-1e6 < x0 < 1e6 and -1e6 < y0 < 1e6 and -1e6 < px < 1e6 and -1e6 < py < 1e6
            and -1e6 < most < 1e6):
        return None
    cdef Py_ssize_t nf = len(fractions), ns = len(spread), i, j
    for v in fractions + spread:
        if type(v) is not float or not (-1e6 < v < 1e6):
            return None
    vx = px - x0
    vy = py - y0
    L = hypot(vx, vy)
    if L <= 0:
        return np.zeros((0, 2))
    base = atan2(vy, vx)
    c_ = np.empty(ns)
    s_ = np.empty(ns)
    cdef double[::1] cs = c_, sn = s_
    for j in range(ns):
        q = base + <double>spread[j] * _DEG_TO_RAD
        cs[j] = cos(q)
        sn[j] = sin(q)
    out_ = np.empty((nf * ns, 2))
    cdef double[:, ::1] out = out_
    cdef double margin = PLACE_AIM_MARGIN
    for i in range(nf):
        reach = most * <double>fractions[i] - margin
        reach = 0.0 if 0.0 > reach else reach    # (max(reach, 0.0): the first unless 0.0 is larger)
        reach = reach if reach < L else L         # (min(L, reach): L unless reach is smaller)
        for j in range(ns):
            out[i * ns + j, 0] = x0 + reach * cs[j]
            out[i * ns + j, 1] = y0 + reach * sn[j]
    return out_

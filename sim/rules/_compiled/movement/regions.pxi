# The compiled twin of sim.rules.movement.solvers.regions: a base kept more than a distance from
# every one of a set of bases (a region's "away" limits: 8" from every enemy model for an ingress
# or a Deep Strike, a set-up's engagement). One file of move.pyx, which says what every twin holds
# to (this folder's files are named after the modules whose kernels they twin). What a search asks
# again and again of arrays that never change once made (an Away's footprints, a hull target's
# core, a rule's zone limits) is read once and kept, by the identity of the arrays it was read
# from (each kept reading holds them, so no other object takes their id while it is kept).


_REGIONS = []   # (sim.rules.movement.solvers.regions.circles_of, found when first needed)
_REGIONS_PACK = []   # (sim.rules.geometry._hull_pack, found when first needed)


def farther_than(fp, c_, fps, d_, circles=None):
    """movement.solvers.regions.farther_than: (K,) whether the base at each of ``c`` is more than
    ``d`` from every one of ``fps``: their bounding circles' box about the centres, then each
    pair's centre distance (the root of the squares) against the bounding and the inner circles'
    limits, then the exact distance of each pair they leave, as placed_distances measures it: a
    round base against a round footprint by disc_distances' arithmetic, against a hull the
    centre's _points_convex_distance to its core less the radius; a hull to place (a vehicle's
    oval or rectangle) against a round footprint the footprint's centre less the spot against
    the hull's core offsets (_hull_to_discs' translation), less that radius, and against another
    hull the spot against the two cores' Minkowski difference (_pair_terms' polygon, made by the
    reference's own function once per footprint); each at least 0. A centre reads only the
    footprints whose x is within the bounding circles' widest limit of its own (a hair more), in
    the order of their x, each measured only while the centre stands: every test of a pair is
    its own, so neither changes an answer. An input of another type or a value that is no finite
    number is the reference's."""
    if not _all_of((c_,), F64) or c_.ndim != 2 or type(d_) is not float:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0]
    if K and c.shape[1] != 2:
        return None
    out_ = _trues(K)
    if K == 0 or len(fps) == 0:
        return out_
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    cdef _FarReading rd = _kept(_FAR_READINGS, id(circles), circles) if circles is not None else None
    if rd is None or rd.fps is not fps:
        rd = _far_reading(fps, circles)
        if rd is None:
            return None
    if _farther(fp, c, out_.view(np.uint8), rd, d_) < 0:
        return None
    return out_


cdef class _FarReading:
    """``farther_than``'s reading of a set of footprints and their circles (circles_of's arrays),
    none of which changes once made: the circles as typed views, every footprint in the order of
    its centre's x (a stable sort: ties in list order), and what the footprints are measured by
    once one is first measured (a round footprint's radius; a hull's core, for a round base
    placed). Kept for an Away's circles (``_far_kept``) and for a table's hulls near some spots
    (table.pxi's ``spots_fit``)."""
    cdef object fps
    cdef Py_ssize_t n
    cdef const double[:] ox, oy, reach, inner
    cdef const Py_ssize_t[::1] order
    cdef double[::1] rad        # (-1: not read yet, or a hull)
    cdef list cores             # (a hull's core against a round base, once read)
    cdef Py_ssize_t[::1] scols  # (scratch: the footprints a call reads, in x order, and their x; no
                                # call a test makes while it reads them reads this reading again. One
                                # thread places models: two would need a reading each)
    cdef double[::1] sx


_FAR_READINGS = {}   # id(an Away's circles) -> (the circles, its _FarReading): views.pxi's _kept


cdef _FarReading _far_reading(fps, circles):
    """A new reading of ``fps`` (their circles: ``circles``, or circles_of's), or None where an
    array is of another type or size or holds a value that is no finite number (the reference's)."""
    cdef Py_ssize_t n = len(fps)
    if circles is None:
        if not _REGIONS:
            from sim.rules.movement.solvers.regions import circles_of
            _REGIONS.append(circles_of)
        circles = _REGIONS[0](fps)
    ox_, oy_, reach_, inner_ = circles
    if not _all_of((ox_, oy_, reach_, inner_), F64) or ox_.ndim != 1 or oy_.ndim != 1 or reach_.ndim != 1 or inner_.ndim != 1:
        return None
    cdef _FarReading rd = _FarReading()
    rd.fps, rd.n = fps, n
    rd.ox, rd.oy, rd.reach, rd.inner = ox_, oy_, reach_, inner_
    if rd.ox.shape[0] != n or rd.oy.shape[0] != n or rd.reach.shape[0] != n or rd.inner.shape[0] != n:
        return None
    if not (_finite(rd.ox) and _finite(rd.oy) and _finite(rd.reach) and _finite(rd.inner)):
        return None
    rd.order = np.argsort(ox_, kind="stable")
    rd.rad = _filled(n, -1.0)
    rd.cores = [None] * n
    rd.scols = np.empty(n, dtype=np.intp)
    rd.sx = np.empty(n)
    return rd


cdef _FarReading _far_kept(fps, circles):
    """``_far_reading`` of an Away's footprints and circles, kept (``_kept``)."""
    cdef _FarReading rd = _kept(_FAR_READINGS, id(circles), circles)
    if rd is not None and rd.fps is fps:
        return rd
    return _keep(_FAR_READINGS, id(circles), circles, _far_reading(fps, circles), _KEPT_MOST)


cdef int _farther(fp, const double[:, :] c, unsigned char[::1] ok, _FarReading rd, double d) except -2:
    """farther_than's test of the spots of ``c`` that ``ok`` holds, written into ``ok`` (False: the
    base there is within ``d`` of a footprint of ``rd``); -1 where the reference is to answer (a
    footprint no plain number or core measures). The footprints a spot reads are those whose
    bounding circles come within reach of the held spots' box, in the order of their x."""
    cdef Py_ssize_t K = c.shape[0], n = rd.n, k, j
    cdef bint hull = fp.shape != "round"
    # (regions._inner: an oval's inner circle a hair inside its core)
    cdef double bf = fp.bounding_radius, inf = 0.5 * min(fp.length, fp.width) * (1.0 if fp.shape != "oval" else 0.998)
    cdef double r = 0.5 * fp.length
    off_ = None
    cdef const double[:, :] off
    if hull:
        off_ = _hull_offsets(fp)
        if off_ is None:
            return -1
        off = off_
    if not (0.0 <= bf < 1e150 and -1e150 < inf < 1e150 and -1e150 < r < 1e150 and -1e150 < d < 1e150):
        return -1
    cdef double lox = INFINITY, loy = INFINITY, hix = -INFINITY, hiy = -INFINITY, slack, dx, dy, cd
    cdef Py_ssize_t held = 0
    for k in range(K):
        if ok[k]:
            lox, loy = _min(lox, c[k, 0]), _min(loy, c[k, 1])
            hix, hiy = _max(hix, c[k, 0]), _max(hiy, c[k, 1])
            held += 1
    if held == 0:
        return 0
    cdef const double[:] ox = rd.ox
    cdef const double[:] oy = rd.oy
    cdef const double[:] reach = rd.reach
    cdef const double[:] inner = rd.inner
    cdef double[::1] rad = rd.rad
    # the footprints whose bounding circles come within reach of the centres' box, in the order of
    # their centres' x (ties in list order): a centre reads only the footprints whose x is within
    # the widest reach (a hair more), the others being beyond the bounding circles' limit, which
    # every test below needs (cd >= |dx| up to three roundings)
    cdef Py_ssize_t[::1] scols = rd.scols
    cdef double[::1] sx = rd.sx
    cdef Py_ssize_t m = 0, i
    for i in range(n):
        j = rd.order[i]
        slack = ((bf + reach[j]) + d) + 1e-3
        if ox[j] >= lox - slack and ox[j] <= hix + slack and oy[j] >= loy - slack and oy[j] <= hiy + slack:
            scols[m] = j
            sx[m] = ox[j]
            m += 1
    if m == 0:
        return 0
    cdef double lim = 0.0, w, x0, x1
    cdef Py_ssize_t a, b, mid, lo_i, hi_i
    for i in range(m):
        lim = _max(lim, ((bf + reach[scols[i]]) + d) + 1e-6)
    cdef double gap, rj
    cdef const double[:, :] q
    fps = rd.fps
    # (a hull's core, once it is first measured: against a round base kept with the reading, against
    # a hull placed this call's own, the two cores' Minkowski difference)
    cores = rd.cores if not hull else [None] * n
    for k in range(K):
        if not ok[k]:
            continue
        w = lim * (1.0 + 1e-12) + 1e-9 * (1.0 + fabs(c[k, 0]))
        x0, x1 = c[k, 0] - w, c[k, 0] + w
        a, b = 0, m   # (the first footprint at or past x0)
        while a < b:
            mid = (a + b) // 2
            if sx[mid] < x0:
                a = mid + 1
            else:
                b = mid
        lo_i = a
        b = m         # (the first past x1)
        while a < b:
            mid = (a + b) // 2
            if sx[mid] <= x1:
                a = mid + 1
            else:
                b = mid
        hi_i = a
        # a centre within some footprint's inner circles' reach is out, whatever else
        for i in range(lo_i, hi_i):
            j = scols[i]
            dx = c[k, 0] - ox[j]
            dy = c[k, 1] - oy[j]
            cd = sqrt(dx * dx + dy * dy)
            if cd <= ((bf + reach[j]) + d) + 1e-6 and cd < ((inf + inner[j]) + d) - 1e-6:
                ok[k] = False
                break
        if not ok[k]:
            continue
        # then the pairs the circles leave, footprint by footprint, while the centre stands
        for i in range(lo_i, hi_i):
            j = scols[i]
            dx = c[k, 0] - ox[j]
            dy = c[k, 1] - oy[j]
            cd = sqrt(dx * dx + dy * dy)
            if not (cd <= ((bf + reach[j]) + d) + 1e-6):
                continue
            if rad[j] < 0.0 and cores[j] is None:
                f = fps[j]
                if f.shape != "round":
                    # (a hull: placed_distances' measure of a round base against it, the centre's
                    # _points_convex_distance to its core less the radius; of a hull against it,
                    # the spot's to the Minkowski difference of the two cores)
                    cores[j] = _hull_core(f) if not hull else _pair_polygon(fp, f)
                    if cores[j] is None:
                        return -1
                else:
                    rj = 0.5 * f.length
                    if not (0.0 <= rj < 1e150 and f.x == ox[j] and f.y == oy[j]):
                        return -1
                    rad[j] = rj
            if rad[j] >= 0.0 and not hull:
                gap = _max((cd - r) - rad[j], 0.0)
            elif rad[j] >= 0.0:
                # (_hull_to_discs: the disc's centre less the spot, against the hull's offsets)
                gap = _max(_pt_convex_d(ox[j] - c[k, 0], oy[j] - c[k, 1], off) - rad[j], 0.0)
            elif not hull:
                q = cores[j]
                gap = _max(_pt_convex_d(c[k, 0], c[k, 1], q) - r, 0.0)
            else:
                q = cores[j]
                gap = _max(_pt_convex_d(c[k, 0], c[k, 1], q) - 0.0, 0.0)
            if not (gap > d):
                ok[k] = False
                break
    return 0


def _hull_core(f):
    """The core polygon of the hull ``f`` (geometry.core's, which placed_distances measures a
    round base against), or None where it is no plain (k, 2) array of finite numbers (the
    reference's)."""
    if not _GEOMETRY_CORE:
        from sim.rules.geometry import core
        _GEOMETRY_CORE.append(core)
    return _plain_polygon(_GEOMETRY_CORE[0](f)[0])


_KERNELS_TERMS = []   # (sim.rules.movement.kernels' _offsets and _hull_difference, found when first needed)


def _kernels_terms():
    if not _KERNELS_TERMS:
        from sim.rules.movement.kernels import _hull_difference, _offsets
        _KERNELS_TERMS.extend((_offsets, _hull_difference))
    return _KERNELS_TERMS


def _hull_offsets(fp):
    """The hull ``fp``'s core about its centre (kernels._offsets, which placed_distances measures
    it by), or None where it is no plain (k, 2) array of finite numbers (the reference's)."""
    return _plain_polygon(_kernels_terms()[0](fp))


def _pair_polygon(fp, f):
    """The polygon the hull ``fp`` placed at a spot is measured against the hull ``f`` by (the
    two cores' Minkowski difference: kernels._hull_difference, _pair_terms' own), or None where
    it is no plain (k, 2) array of finite numbers (the reference's)."""
    return _plain_polygon(_kernels_terms()[1](fp, f))


def _plain_polygon(q_):
    """``q_`` where it is a plain (k, 2) array of finite numbers within 1e150, else None."""
    if not _all_of((q_,), F64) or q_.ndim != 2 or q_.shape[0] < 1 or q_.shape[1] != 2:
        return None
    if not (_bounded(q_.reshape(-1), 1e150)):
        return None
    return q_


cdef class _CoreBounds:
    """A hull target's core as rest_mask reads it (geometry._hull_pack's arrays as typed views),
    with the bounds that decide most spots: o, the mean of its vertices; R, the farthest vertex
    from o; rho, o's least distance to an edge's line (0 where every edge is degenerate). Made
    once per footprint (``_core_bounds``)."""
    cdef const double[:, :] px, py, abx, aby, den
    cdef const unsigned char[:, :] pos
    cdef double ox, oy, R, rho


_CORE_BOUNDS = {}   # id(a hull footprint) -> (the footprint, its _CoreBounds): views.pxi's _kept


cdef _CoreBounds _core_bounds(target):
    """The hull ``target``'s _CoreBounds, kept (``_kept``); None where its arrays are of another type
    or hold a value beyond 1e150 or no finite number (the reference's)."""
    cdef _CoreBounds cb = _kept(_CORE_BOUNDS, id(target), target)
    if cb is not None:
        return cb
    if not _REGIONS_PACK:
        from sim.rules.geometry import _hull_pack
        _REGIONS_PACK.append(_hull_pack)
    px_, py_, _pex, _pey, abx_, aby_, den_, pos_, _every = _REGIONS_PACK[0]((target,))
    if not (_all_of((px_, py_, abx_, aby_, den_), F64) and _all_of((pos_,), BOOL)):
        return None
    if not (_bounded(px_.reshape(-1), 1e150) and _bounded(py_.reshape(-1), 1e150)):
        return None
    cb = _CoreBounds()
    cb.px, cb.py, cb.abx, cb.aby, cb.den, cb.pos = px_, py_, abx_, aby_, den_, pos_.view(np.uint8)
    # (bounds that decide most spots without the core's every edge: the core lies within R of o,
    # the mean of its vertices, and holds the disc of radius rho round o (o is inside the convex
    # core; rho, o's least distance to an edge's line), so a centre's distance to the core is
    # between D - R and D - rho (at least 0), D its distance to o)
    cdef Py_ssize_t v, V = cb.px.shape[1]
    cdef double ox = 0.0, oy = 0.0, R = 0.0, rho = INFINITY
    for v in range(V):
        ox += cb.px[0, v]
        oy += cb.py[0, v]
    ox /= V
    oy /= V
    for v in range(V):
        R = _max(R, hypot(cb.px[0, v] - ox, cb.py[0, v] - oy))
        if cb.pos[0, v]:
            rho = _min(rho, (cb.abx[0, v] * (oy - cb.py[0, v]) - cb.aby[0, v] * (ox - cb.px[0, v])) / sqrt(cb.den[0, v]))
    if rho == INFINITY:
        rho = 0.0   # (every edge degenerate: the core is the point o)
    cb.ox, cb.oy, cb.R, cb.rho = ox, oy, R, rho
    return _keep(_CORE_BOUNDS, id(target), target, cb, _KEPT_MOST)


def rest_mask(rule, c_, ok_):
    """movement.solvers.regions._rest_mask, for a round base: (K,) ``ok`` (a new array: the
    reference writes into its own) with the region's tests after its edges and zone: wholly
    within the ``near`` target's distance (the centre's distance to the target, geometry.
    point_distances' arithmetic: to a round target its hypot less the radius, to a hull's core
    _round_core_distances'; at least 0, plus the base's radius, against the distance less SLACK),
    then more than each ``away`` distance from its footprints (farther_than, this module's). A
    base that is not round or too large for the distance (the "near" mode), a polygon to keep
    away from, a step's twin that declines, an input of another type or a value that is no
    finite number is the reference's."""
    fp, rg = rule.fp, rule.region
    if fp.shape != "round" or rule.mode == "near" or not _all_of((c_,), F64) or c_.ndim != 2:
        return None
    if not _all_of((ok_,), BOOL) or ok_.ndim != 1:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], k, i
    if ok_.shape[0] != K or (K and c.shape[1] != 2):
        return None
    out_ = np.array(ok_, order="C")
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0:
        return out_
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    away = rg.away
    for a in away:
        if a.polygons:
            return None   # (a polygon's distance: the reference's)
    cdef double r = 0.5 * fp.length, lim, tx, ty, tr, d, ox, oy, R, rho, D, marg
    cdef _CoreBounds cb
    cdef const double[:, :] px
    cdef const double[:, :] py
    cdef const double[:, :] abx
    cdef const double[:, :] aby
    cdef const double[:, :] den
    cdef const unsigned char[:, :] pos
    near = rg.near
    if near is not None:
        lim_ = near.distance - REGION_SLACK
        target = near.target
        if type(lim_) is not float or not (-1e150 < r < 1e150):
            return None
        lim = lim_
        if target.shape == "round":
            tx, ty, tr = target.x, target.y, 0.5 * target.length
            if not (-1e150 < tx < 1e150 and -1e150 < ty < 1e150 and -1e150 < tr < 1e150):
                return None
            for k in range(K):
                if ok[k]:
                    d = _max(hypot(c[k, 0] - tx, c[k, 1] - ty) - tr, 0.0)
                    ok[k] = (d + r) <= lim
        else:
            cb = _core_bounds(target)
            if cb is None or not (_bounded(c[:, 0], 1e150) and _bounded(c[:, 1], 1e150)):
                return None   # (as round_core_distances': no product overflows, no NaN made inside)
            px, py, abx, aby, den, pos = cb.px, cb.py, cb.abx, cb.aby, cb.den, cb.pos
            ox, oy, R, rho = cb.ox, cb.oy, cb.R, cb.rho
            # (a spot whose bound clears the limit by ``marg``, far more than this arithmetic's
            # error or the inside test's EPS can move the exact distance, has the exact answer's
            # verdict; the others are measured exactly)
            for k in range(K):
                if ok[k]:
                    D = hypot(c[k, 0] - ox, c[k, 1] - oy)
                    marg = 1e-7 * (1.0 + D + R + fabs(lim) + r)
                    if (D - R) + r > lim + marg:
                        ok[k] = False
                        continue
                    if rho >= 0.0 and _max(D - rho, 0.0) + r < lim - marg:
                        continue   # (ok[k] stays True)
                    # (point_distances: _round_core_distances of the centre as a point of radius 0)
                    d = _max(_core_gap(c[k, 0], c[k, 1], px, py, abx, aby, den, pos, 0) - 0.0, 0.0)
                    ok[k] = (d + r) <= lim
    # (farther_than's test of the spots still held, each its own answer; each Away's reading kept)
    cdef _FarReading rd
    for a in away:
        if not a.fps:
            continue
        if _count_ok(ok) == 0:
            break
        dist_ = a.distance + REGION_SLACK
        if type(dist_) is not float:
            return None
        rd = _far_kept(a.fps, a._circles)
        if rd is None or _farther(fp, c, ok, rd, dist_) < 0:
            return None
    return out_


# (sim.rules.movement.solvers.spots.SLACK and sim.rules.deployment.EDGE_TOUCH: a test holds them
# equal; and how near a zone's limit a spot's product may come before the reference decides it,
# its matrix product's last bits being the library's: products of two terms round ~1e-14" apart)
REGION_SLACK = 5e-4
REGION_EDGE_TOUCH = 1e-3
REGION_ZONE_BAND = 1e-9


cdef class _ZoneLimits:
    """A rule's zone limits (ModelRule.zone_limits: per convex piece, its normals and offsets) in one
    pair of arrays read by offsets (a typed view a piece, taken for each spot, would cost more than
    the spot's arithmetic), made once per limits tuple (``_zone_limits``)."""
    cdef double[:, ::1] nn
    cdef double[::1] ll
    cdef Py_ssize_t[::1] starts
    cdef Py_ssize_t P, E


_ZONE_LIMITS = {}   # id(a rule's limits tuple) -> (the tuple, its _ZoneLimits): views.pxi's _kept


cdef _ZoneLimits _zone_limits(limits):
    """``limits`` gathered, kept (``_kept``), or None where an array is of another type or shape or
    a value is no number (the reference's)."""
    cdef _ZoneLimits zl = _kept(_ZONE_LIMITS, id(limits), limits)
    if zl is not None:
        return zl
    cdef Py_ssize_t P = len(limits), E = 0, q, e, e0, e1
    for nv, lv in limits:
        if not _all_of((nv, lv), F64) or nv.ndim != 2 or lv.ndim != 1 or nv.shape[0] != lv.shape[0] or (
                nv.shape[0] and nv.shape[1] != 2):
            return None
        E += nv.shape[0]
    nn_, ll_, starts_ = np.empty((E, 2)), np.empty(E), np.empty(P + 1, dtype=np.intp)
    zl = _ZoneLimits()
    zl.nn, zl.ll, zl.starts, zl.P, zl.E = nn_, ll_, starts_, P, E
    e0 = 0
    for q in range(P):
        nv, lv = limits[q]
        e1 = e0 + nv.shape[0]
        nn_[e0:e1] = nv
        ll_[e0:e1] = lv
        zl.starts[q] = e0
        e0 = e1
    zl.starts[P] = e0
    for e in range(E):
        if zl.nn[e, 0] != zl.nn[e, 0] or zl.nn[e, 1] != zl.nn[e, 1] or zl.ll[e] != zl.ll[e]:
            return None
    return _keep(_ZONE_LIMITS, id(limits), limits, zl, _KEPT_MOST)


def edges_and_zone(rule, c_):
    """movement.solvers.regions._edges_and_zone, for a round base: (K,) whether the base at each
    of ``c`` is on the battlefield (SLACK inside each edge), touches one of the mode's edges
    (03.02.02) or is within the zone (inside some convex piece: each of its limits, the product
    of the centre and the limit's normal, decided here where it is more than REGION_ZONE_BAND
    from the limit and left to the reference's matrix product otherwise), and within the edge
    strip (_clear_of_box: the centre's distance from the box of points farther in, against the
    bounding and inner circles less and plus a hair; a centre between them, which the reference
    measures, is the reference's). Each decided answer is the reference's: the edges' and the
    strip's arithmetic is its own, the zone's decided only away from its limits. A base that is
    not round, an input of another type or a value that is no finite number is the reference's."""
    fp, rg = rule.fp, rule.region
    if fp.shape != "round" or not _all_of((c_,), F64) or c_.ndim != 2:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], k, e, q, E
    if K and c.shape[1] != 2:
        return None
    out_ = _trues(K)
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0:
        return out_
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    cdef double h = 0.5 * fp.length, W = rg.board[0], H = rg.board[1], slack = REGION_SLACK
    if not (-1e150 < h < 1e150 and -1e150 < W < 1e150 and -1e150 < H < 1e150):
        return None
    cdef double gx0, gx1, gy0, gy1, touch = REGION_EDGE_TOUCH - 2e-4
    mode = rule.mode
    cdef bint by_edges = mode in ("zone edge", "any edge"), west = False, east = False, south = False, north = False
    if by_edges:
        edges = rule.edges
        west, east, south, north = "west" in edges, "east" in edges, "south" in edges, "north" in edges
    cdef Py_ssize_t left = 0
    for k in range(K):
        gx0 = c[k, 0] - h
        gx1 = (W - c[k, 0]) - h
        gy0 = c[k, 1] - h
        gy1 = (H - c[k, 1]) - h
        ok[k] = gx0 >= slack and gx1 >= slack and gy0 >= slack and gy1 >= slack
        if by_edges and ok[k]:
            ok[k] = ((west and gx0 <= touch) or (east and gx1 <= touch) or (south and gy0 <= touch)
                     or (north and gy1 <= touch))
        left += ok[k]
    cdef double dot, band = REGION_ZONE_BAND
    cdef int state
    cdef bint inside, unsure
    cdef Py_ssize_t P
    cdef _ZoneLimits zl
    cdef double[:, ::1] nn
    cdef double[::1] ll
    cdef Py_ssize_t[::1] starts
    if not by_edges and rg.zone is not None and left:
        # every piece's limits in one pair of arrays, read by offsets (a typed view a piece, taken
        # for each spot, would cost more than the spot's arithmetic)
        zl = _zone_limits(rule.zone_limits())
        if zl is None:
            return None
        nn, ll, starts, P, E = zl.nn, zl.ll, zl.starts, zl.P, zl.E
        for k in range(K):
            if not ok[k]:
                continue
            inside, unsure = False, False
            for q in range(P):
                state = 1   # (1: within every limit of the piece, 0: past one, 2: not decided here)
                for e in range(starts[q], starts[q + 1]):
                    dot = c[k, 0] * nn[e, 0] + c[k, 1] * nn[e, 1]
                    if dot > ll[e] + band:
                        state = 0
                        break
                    if dot >= ll[e] - band:
                        state = 2
                if state == 1:
                    inside = True
                    break
                if state == 2:
                    unsure = True
            if not inside and unsure:
                return None   # (a limit too near to decide: the reference's product decides it)
            ok[k] = inside
            left -= not inside
    cdef double m, gx, gy, g, bnd, inner
    if rg.edge_strip is not None and mode == "" and left:
        m = rg.edge_strip - REGION_SLACK
        bnd = fp.bounding_radius
        inner = 0.5 * min(fp.length, fp.width) * 1.0
        for k in range(K):
            if not ok[k]:
                continue
            gx = _max(_max(m - c[k, 0], c[k, 0] - (W - m)), 0.0)
            gy = _max(_max(m - c[k, 1], c[k, 1] - (H - m)), 0.0)
            g = hypot(gx, gy)
            if g > bnd + 1e-6:
                continue
            if g < inner - 1e-6:
                ok[k] = False
                continue
            return None   # (between the circles: the reference measures the base against the box)
    return out_

# The compiled twins of sim.rules.movement.legality: the ends of a move clear of other bases and
# of the terrain, and round bases' paths over features. One file of move.pyx, which says what
# every twin holds to (this folder's files are named after the modules whose kernels they twin).


# (sim.rules.movement.legality.OVERLAP_BAND, geometry.ENGAGEMENT_RANGE and EPS: a test holds
# each equal to its source)
MOVE_OVERLAP_BAND = 1e-9
MOVE_ENGAGEMENT = 2.0
MOVE_EPS = 1e-9
# inches: two bases of the moving unit whose centres' distance (C's hypot, where the reference
# has math.hypot) is this near a limit are left to the reference
MOVE_OWN_BAND = 1e-9
cdef enum:
    _ENDS_MAX = 256   # (the most bases a unit's ends are checked for here)
    _HULL_ENDS = 4    # (... of which not round)


cdef int _hull_disc(double gap, double band) noexcept nogil:
    """A base's overlap decided from its gap to the limit: 1 overlapping (below -band), 0 not
    (above band), -1 within the band (the reference decides)."""
    if gap != gap or fabs(gap) <= band:
        return -1
    return 1 if gap < 0 else 0


cdef int _hulls_overlap(const double* px, const double* py, Py_ssize_t n, const double* qx, const double* qy,
                        Py_ssize_t m, double band, double hx, double hy) noexcept nogil:
    """geometry.overlaps of two hulls (the strict separating-axis test, 1e-7 on every axis),
    decided from _sat_gap beyond ``band`` (the direction (hx, hy) tried first): 1 overlapping,
    0 not, -1 left to the reference."""
    cdef double g = _sat_gap(px, py, n, qx, qy, m, -1e-7 + band, hx, hy)
    if g != g:
        return -1
    if g >= -1e-7 + band:
        return 0
    return 1 if g < -1e-7 - band else -1


def ends_clear(ends, idx, others_, terr, player, end_unengaged):
    """movement.legality._ends_clear: whether no base at ``ends`` overlaps a model of ``others``
    (rows of ``idx``) or another of ``ends``, none overlaps a light or dense feature, and,
    ``end_unengaged``, none is within engagement range of an enemy model. A round base's tests
    are the reference's arithmetic for its entry (the rows near the ends' box, the round bases'
    hypot, a hull core's distance, a feature's distance, the discs' distance), False at the
    first breach found; a pair the reference decides by geometry.overlaps near the band (a base
    against a hull) or by math.hypot (two of the unit's own) is left to it, as are places that
    are no number. A base that is not round (at most _HULL_ENDS of them) is decided with
    MOVE_HULL_BAND: against a round base, its core's distance to the centre; against a hull, the
    separating-axis gap of geometry.overlaps; against a feature, the distance to its closed area
    (or the answer the terrain index keeps for it); against an enemy, the distance between them."""
    cdef Py_ssize_t n = len(ends), k, k2, i, j, p, h, h2, nh = 0, nq = 0
    if n == 0 or n > _ENDS_MAX or not _all_of((others_,), INTP) or others_.ndim != 1:
        return None
    cdef double cx[_ENDS_MAX]
    cdef double cy[_ENDS_MAX]
    cdef double rf[_ENDS_MAX]
    cdef double bnd[_ENDS_MAX]
    cdef double ln[_ENDS_MAX]
    cdef Py_ssize_t slot[_ENDS_MAX]
    cdef double hx[_HULL_ENDS][_HV]
    cdef double hy[_HULL_ENDS][_HV]
    cdef Py_ssize_t hn[_HULL_ENDS]
    cdef double qx[_HV]
    cdef double qy[_HV]
    cdef double bound = 0.0, lo0 = 0.0, lo1 = 0.0, hi0 = 0.0, hi1 = 0.0
    for k in range(n):
        f = ends[k]
        cx[k], cy[k] = f.x, f.y
        bnd[k] = f.bounding_radius
        if f.shape == "round":
            ln[k] = f.length
            rf[k] = 0.5 * ln[k]
            slot[k] = -1
        else:
            if nh == _HULL_ENDS:
                return None
            if not _GEOMETRY_CORE:
                from sim.rules.geometry import core
                _GEOMETRY_CORE.append(core)
            hn[nh] = _load_xy(_GEOMETRY_CORE[0](f)[0], hx[nh], hy[nh])
            if hn[nh] < 0:
                return None
            ln[k] = rf[k] = 0.0
            slot[k] = nh
            nh += 1
        if not (cx[k] - cx[k] == 0.0 and cy[k] - cy[k] == 0.0 and rf[k] - rf[k] == 0.0 and bnd[k] - bnd[k] == 0.0):
            return None
        if k == 0 or cx[k] < lo0:
            lo0 = cx[k]
        if k == 0 or cy[k] < lo1:
            lo1 = cy[k]
        if k == 0 or cx[k] > hi0:
            hi0 = cx[k]
        if k == 0 or cy[k] > hi1:
            hi1 = cy[k]
        if k == 0 or bnd[k] > bound:
            bound = bnd[k]
    cdef _Bodies bv = _bodies(idx)
    if bv is None:
        return None
    cdef const double[:] xlo = bv.xlo
    cdef const double[:] xhi = bv.xhi
    cdef const double[:] ylo = bv.ylo
    cdef const double[:] yhi = bv.yhi
    cdef const double[:, :] centres = bv.centres
    cdef const double[:] radius = bv.radius
    cdef const double[:] hbound = bv.bound
    cdef const unsigned char[:] rnd = bv.rnd
    cdef Py_ssize_t N = bv.N
    cdef const Py_ssize_t[:] others = others_
    if not _indices(others, N):
        return None
    cdef double touch = MOVE_TOUCH, band = MOVE_OVERLAP_BAND, hband = MOVE_HULL_BAND, pad, d, dx, dy, lim, gap
    cdef int said
    cdef const double[:, :] q
    # 6. the bases of the models of other units: those whose box meets the ends' (rows_near_box)
    pad = bound + 0.0 + 1e-6
    for i in range(others.shape[0]):
        j = others[i]
        if not (xhi[j] >= lo0 - pad and xlo[j] <= hi0 + pad and yhi[j] >= lo1 - pad and ylo[j] <= hi1 + pad):
            continue
        if rnd[j]:
            for k in range(n):
                if slot[k] >= 0:    # (a hull's core against the disc: geometry.overlaps)
                    if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + 1e-6:
                        continue    # (the bounding circles apart)
                    h = slot[k]
                    said = _hull_disc(_pt_hull(centres[j, 0], centres[j, 1], hx[h], hy[h], hn[h])
                                      - (radius[j] - 1e-7), hband)
                    if said < 0:
                        return None
                    if said:
                        return False
                    continue
                d = hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1])
                lim = rf[k] + radius[j]
                if d < lim - touch:
                    return False
        else:
            q = None
            nq = 0
            for k in range(n):
                if slot[k] >= 0:
                    if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + 1e-6:
                        continue
                    if nq == 0:
                        nq = _load_xy(idx.core(j), qx, qy)
                        if nq < 0:
                            return None
                    h = slot[k]
                    said = _hulls_overlap(hx[h], hy[h], hn[h], qx, qy, nq, hband, centres[j, 0] - cx[k],
                                          centres[j, 1] - cy[k])
                    if said < 0:
                        return None
                    if said:
                        return False
                    continue
                if not (hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) < bnd[k] + hbound[j]):
                    continue
                if q is None:
                    q_ = idx.core(j)
                    if not _plain_xy(q_, 1):
                        return None
                    q = q_
                gap = _pt_convex_d(cx[k], cy[k], q) - (rf[k] - 1e-7)
                if gap != gap or fabs(gap) <= band:
                    return None   # (geometry.overlaps decides it there)
                if gap < 0:
                    return False
    # 7. light and dense features (the features' boxes first: _box_near)
    es = terr.no_end
    cdef _Edges ed
    cdef const double[:, :] plo
    cdef const double[:, :] phi
    if len(es):
        ed = _edges(es)
        if ed is None or not _all_of((es.lo, es.hi), F64):
            return None
        plo = es.lo
        phi = es.hi
        if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
            return None
        kept = terr.hull_ends
        for k in range(n):
            if slot[k] >= 0:    # (the answer kept for the base, the reference's; else its distances)
                f = ends[k]
                if f in kept:
                    if kept[f] is not None:
                        return False
                    continue
                h = slot[k]
                pad = bnd[k] + 2e-6
                for p in range(ed.P):
                    if not (cx[k] - pad <= phi[p, 0] and cx[k] + pad >= plo[p, 0]
                            and cy[k] - pad <= phi[p, 1] and cy[k] + pad >= plo[p, 1]):
                        continue
                    if _pt_poly_d(cx[k], cy[k], ed, p) > bnd[k] + hband:
                        continue    # (the core lies within its bounding radius of the centre)
                    if not (_hull_poly_gap(hx[h], hy[h], hn[h], ed, p) > hband):
                        return None
                continue
            for p in range(ed.P):
                if not (cx[k] - rf[k] <= phi[p, 0] and cx[k] + rf[k] >= plo[p, 0]
                        and cy[k] - rf[k] <= phi[p, 1] and cy[k] + rf[k] >= plo[p, 1]):
                    continue
                d = _pt_poly_d(cx[k], cy[k], ed, p)
                if d != d:
                    return None
                if d < rf[k] - touch:
                    return False
    # 8. engagement range of an enemy model, when the move must end unengaged
    cdef const Py_ssize_t[:] enemies
    if end_unengaged:
        enemies_ = idx.enemies(player)
        if not _all_of((enemies_,), INTP) or enemies_.ndim != 1:
            return None
        enemies = enemies_
        if not _indices(enemies, N):
            return None
        pad = bound + MOVE_ENGAGEMENT + 1e-6
        lim = MOVE_ENGAGEMENT + MOVE_EPS
        for i in range(enemies.shape[0]):
            j = enemies[i]
            if not (xhi[j] >= lo0 - pad and xlo[j] <= hi0 + pad and yhi[j] >= lo1 - pad and ylo[j] <= hi1 + pad):
                continue
            if rnd[j]:
                for k in range(n):
                    if slot[k] >= 0:
                        if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + lim + 1e-6:
                            continue
                        h = slot[k]
                        d = _pt_hull(centres[j, 0], centres[j, 1], hx[h], hy[h], hn[h])
                        d = _max(d - radius[j], 0.0)
                        said = _hull_disc(d - lim, hband)
                        if said < 0:
                            return None
                        if said:
                            return False
                        continue
                    dx = cx[k] - centres[j, 0]
                    dy = cy[k] - centres[j, 1]
                    d = _max(sqrt(dx * dx + dy * dy) - rf[k] - radius[j], 0.0)
                    if d <= MOVE_ENGAGEMENT + MOVE_EPS:
                        return False
            else:
                q_ = idx.core(j)
                if not _plain_xy(q_, 1):
                    return None
                q = q_
                nq = 0
                for k in range(n):
                    if slot[k] >= 0:
                        if hypot(cx[k] - centres[j, 0], cy[k] - centres[j, 1]) > bnd[k] + hbound[j] + lim + 1e-6:
                            continue
                        if nq == 0:
                            nq = _load_xy(q_, qx, qy)
                            if nq < 0:
                                return None
                        h = slot[k]
                        # (apart by more than the range on an axis: not within it; else measured)
                        gap = _sat_gap(hx[h], hy[h], hn[h], qx, qy, nq, lim + hband, centres[j, 0] - cx[k],
                                       centres[j, 1] - cy[k])
                        if gap >= lim + hband:
                            continue
                        said = _hull_disc(_convex_gap(hx[h], hy[h], hn[h], qx, qy, nq, centres[j, 0] - cx[k],
                                                      centres[j, 1] - cy[k]) - lim, hband)
                        if said < 0:
                            return None
                        if said:
                            return False
                        continue
                    d = _pt_convex_d(cx[k], cy[k], q)
                    if d != d:
                        return None
                    if _max(d - rf[k], 0.0) <= MOVE_ENGAGEMENT + MOVE_EPS:
                        return False
    # 6. two of the unit's own bases (geometry.overlaps of round bases, after check_move's
    # bounding circles; a hull's as against another unit's)
    cdef double own = MOVE_OWN_BAND, t1, t2
    for k in range(n):
        for k2 in range(k + 1, n):
            h, h2 = slot[k], slot[k2]
            if h >= 0 and h2 >= 0:
                said = _hulls_overlap(hx[h], hy[h], hn[h], hx[h2], hy[h2], hn[h2], hband,
                                      cx[k2] - cx[k], cy[k2] - cy[k])
            elif h >= 0:
                said = _hull_disc(_pt_hull(cx[k2], cy[k2], hx[h], hy[h], hn[h]) - (rf[k2] - 1e-7), hband)
            elif h2 >= 0:
                said = _hull_disc(_pt_hull(cx[k], cy[k], hx[h2], hy[h2], hn[h2]) - (rf[k] - 1e-7), hband)
            else:
                d = hypot(cx[k] - cx[k2], cy[k] - cy[k2])
                t1 = bnd[k] + bnd[k2]
                t2 = 0.5 * (ln[k] + ln[k2]) - 1e-7
                if fabs(d - t1) <= own or fabs(d - t2) <= own:
                    return None
                if d < t1 and d < t2:
                    return False
                continue
            if said < 0:
                return None
            if said:
                return False
    return True


def round_features_refuse(starts_, ends_, radii_, terr, may_cross_dense, margin_):
    """movement.legality.round_features_refuse: True if a round base (radius ``radii[k]``) at
    ``ends[k]`` lies more than TOUCH plus ``margin`` into a light or dense feature, or (unless
    ``may_cross_dense`` is None) its straight path from ``starts[k]`` crosses one of the dense
    features it may not cross by that much; else False. Each entry the reference's arithmetic
    (the features' boxes, a point's and a segment's distance to a polygon's closed area); the
    answer is whether any entry is past the limit, so the order is free."""
    if (not _all_of((starts_, ends_, radii_), F64) or starts_.ndim != 2 or ends_.ndim != 2 or radii_.ndim != 1
            or type(margin_) is not float):
        return None
    cdef const double[:, :] starts = starts_
    cdef const double[:, :] ends = ends_
    cdef const double[:] radii = radii_
    cdef Py_ssize_t K = ends.shape[0], k, p
    if starts.shape[0] != K or radii.shape[0] != K or (K and (starts.shape[1] != 2 or ends.shape[1] != 2)):
        return None
    if not (_finite(starts[:, 0]) and _finite(starts[:, 1]) and _finite(ends[:, 0]) and _finite(ends[:, 1])
            and _finite(radii)):
        return None
    cdef double margin = margin_, touch = MOVE_TOUCH, lim, d, r, ax, ay, bx, by
    cdef int said
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
        for k in range(K):
            r = radii[k]
            said = _on_feature(ends[k, 0], ends[k, 1], r, r - touch - margin, ed, plo, phi)
            if said < 0:
                return None
            if said:
                return True
    if may_cross_dense is None:
        return False
    dense = terr.uncrossable(may_cross_dense)
    if len(dense) == 0:
        return False
    ed = _edges(dense)
    if ed is None or not _all_of((dense.lo, dense.hi), F64):
        return None
    plo, phi = dense.lo, dense.hi
    if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
        return None
    for k in range(K):
        r = radii[k]
        lim = r - touch - margin
        ax, ay, bx, by = starts[k, 0], starts[k, 1], ends[k, 0], ends[k, 1]
        for p in range(ed.P):
            if not (_min(ax, bx) - r <= phi[p, 0] and _max(ax, bx) + r >= plo[p, 0]
                    and _min(ay, by) - r <= phi[p, 1] and _max(ay, by) + r >= plo[p, 1]):
                continue
            d = _seg_poly_d(ax, ay, bx, by, ed, p)
            if d != d:
                return None
            if d < lim:
                return True
    return False


def straight_paths_clear(fp, ends_, idx, terr, blockers_, may_cross_dense):
    """movement.legality._straight_paths_clear, for a round base: (K,) whether the base dragged
    in a straight line from where it stands to each of ``ends`` clears every round base among
    ``blockers`` near the path's box (near_rows: the distance from its centre to the segment,
    _seg_point_dist's arithmetic, against the two radii less TOUCH) and every dense feature it
    may not cross (the features' boxes, then the segment's distance to the feature's closed
    area). Each value the reference's arithmetic, so each answer is its own to the bit; a hull
    near the path, an input of another type or a value that is no finite number is the
    reference's."""
    if fp.shape != "round" or not _all_of((ends_,), F64) or not _all_of((blockers_,), INTP):
        return None
    if ends_.ndim != 2 or blockers_.ndim != 1 or (ends_.shape[0] and ends_.shape[1] != 2):
        return None
    cdef const double[:, :] e = ends_
    cdef const Py_ssize_t[:] blockers = blockers_
    cdef Py_ssize_t K = e.shape[0], k, i, j, p, n
    out_ = _trues(K)
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0:
        return out_
    if not (_finite(e[:, 0]) and _finite(e[:, 1])):
        return None
    cdef double r = 0.5 * fp.length, ax = fp.x, ay = fp.y, touch = MOVE_TOUCH
    if not (-1e150 < r < 1e150 and -1e150 < ax < 1e150 and -1e150 < ay < 1e150):
        return None
    cdef double lo0 = ax, lo1 = ay, hi0 = ax, hi1 = ay, pad, abx, aby, apx, apy, den, t, dx, dy, lim
    cdef _Bodies b
    cdef Py_ssize_t[::1] near
    if blockers.shape[0]:
        b = _bodies(idx)
        if b is None or not _indices(blockers, b.N):
            return None
        for k in range(K):   # (near_rows of the start and every end, the base's radius about them)
            lo0, lo1 = _min(lo0, e[k, 0]), _min(lo1, e[k, 1])
            hi0, hi1 = _max(hi0, e[k, 0]), _max(hi1, e[k, 1])
        pad = (r + 0.0) + 1e-6
        lo0, lo1, hi0, hi1 = lo0 - pad, lo1 - pad, hi0 + pad, hi1 + pad
        near_ = np.empty(blockers.shape[0], dtype=np.intp)
        near = near_
        n = 0
        for i in range(blockers.shape[0]):
            j = blockers[i]
            if b.xhi[j] >= lo0 and b.xlo[j] <= hi0 and b.yhi[j] >= lo1 and b.ylo[j] <= hi1:
                if not b.rnd[j]:
                    return None   # (a hull near the path: its core's distance, the reference's)
                near[n] = j
                n += 1
        for k in range(K):
            abx = e[k, 0] - ax
            aby = e[k, 1] - ay
            den = abx * abx + aby * aby
            for i in range(n):
                j = near[i]
                apx = b.centres[j, 0] - ax
                apy = b.centres[j, 1] - ay
                t = apx * abx
                t = t + apy * aby
                t = t / (den if den > 0 else 1.0)
                t = _min(_max(t, 0.0), 1.0)
                dx = apx - t * abx
                dy = apy - t * aby
                if sqrt(dx * dx + dy * dy) < (r + b.radius[j]) - touch:
                    ok[k] = False
                    break
    dense = terr.uncrossable(may_cross_dense)
    cdef _Edges ed
    cdef const double[:, :] plo
    cdef const double[:, :] phi
    cdef double d
    if len(dense):
        ed = _edges(dense)
        if ed is None or not _all_of((dense.lo, dense.hi), F64):
            return None
        plo, phi = dense.lo, dense.hi
        if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
            return None
        lim = r - touch
        for k in range(K):
            if not ok[k]:
                continue   # (refused already: its answer stands, whatever a feature says)
            for p in range(ed.P):
                if not (_min(ax, e[k, 0]) - r <= phi[p, 0] and _max(ax, e[k, 0]) + r >= plo[p, 0]
                        and _min(ay, e[k, 1]) - r <= phi[p, 1] and _max(ay, e[k, 1]) + r >= plo[p, 1]):
                    continue
                d = _seg_poly_d(ax, ay, e[k, 0], e[k, 1], ed, p)
                if d != d:
                    return None   # (a NaN made inside: the reference's)
                if d < lim:
                    ok[k] = False
                    break
    return out_


def near_each(fps, idx, reach_, rows_):
    """movement.legality.near_each: (len(fps), len(rows)) whether the body of each row of ``idx``
    among ``rows`` has a box that meets the box of each footprint at its own place grown by its
    bounding radius, ``reach`` and a hair: rows_near_box's arithmetic for each. An input of
    another type, a row out of range or a value that is no finite number is the reference's."""
    if type(reach_) is not float or not _all_of((rows_,), INTP) or rows_.ndim != 1:
        return None
    cdef const Py_ssize_t[:] rows = rows_
    cdef Py_ssize_t n = len(fps), m = rows.shape[0], i, k, j
    cdef double reach = reach_, x, y, b, pad, lo0, lo1, hi0, hi1
    if not (-1e150 < reach < 1e150):
        return None
    cdef _Bodies bd = _bodies(idx)
    if bd is None or not _indices(rows, bd.N):
        return None
    out_ = np.empty((n, m), dtype=bool)
    cdef unsigned char[:, ::1] out = out_.view(np.uint8)
    i = 0
    for f in fps:
        x, y, b = f.x, f.y, f.bounding_radius
        if not (-1e150 < x < 1e150 and -1e150 < y < 1e150 and -1e150 < b < 1e150):
            return None
        pad = (b + reach) + 1e-6
        lo0, lo1, hi0, hi1 = x - pad, y - pad, x + pad, y + pad
        for k in range(m):
            j = rows[k]
            out[i, k] = bd.xhi[j] >= lo0 and bd.xlo[j] <= hi0 and bd.yhi[j] >= lo1 and bd.ylo[j] <= hi1
        i += 1
    return out_

# The compiled twin of sim.rules.movement.solvers.table: discs clear of other discs. One file of
# move.pyx, which says what every twin holds to (this folder's files are named after the modules
# whose kernels they twin).


# (movement.solvers.table._BAND: a test holds the two equal)
DISCS_BAND = 1e-7


def discs_clear(c_, r_, oc_, orad_, gap_):
    """movement.solvers.table._discs_clear: (K,) whether a disc of radius ``r`` at each of
    ``c`` is at least ``gap`` (edge to edge) from every disc ``oc``, ``orad``. The squared
    centre distances settle a spot whose every pair is clear of its limit by DISCS_BAND, or one
    of whose pairs is short of it by that much; any other spot is measured as the reference
    measures it: (hypot - r) - orad >= gap for every pair."""
    if (not _all_of((c_, oc_, orad_), F64) or c_.ndim != 2 or oc_.ndim != 2 or orad_.ndim != 1
            or not isinstance(r_, float) or not isinstance(gap_, float)):
        return None   # (numpy's own types, or its broadcasting, would rule: the reference answers)
    cdef const double[:, :] c = c_
    cdef const double[:, :] oc = oc_
    cdef const double[:] orad = orad_
    cdef double r = r_, gap = gap_
    cdef Py_ssize_t K = c.shape[0], N = oc.shape[0], k, j
    if c.shape[1] != 2 or oc.shape[1] != 2 or orad.shape[0] != N:
        return None   # (numpy's broadcasting, or its error: the reference's)
    lo2_, hi2_ = np.empty(N), np.empty(N)
    cdef double[::1] lo2 = lo2_, hi2 = hi2_
    cdef double lim, t, dx, dy, d2, band = DISCS_BAND
    for j in range(N):
        lim = (r + orad[j]) + gap
        t = lim + band
        hi2[j] = t * t
        t = lim - band
        lo2[j] = t * t
    out_ = np.empty(K, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef bint far, near, ok
    for k in range(K):
        far, near = True, False
        for j in range(N):
            dx = c[k, 0] - oc[j, 0]
            dy = c[k, 1] - oc[j, 1]
            d2 = dx * dx + dy * dy
            if not (d2 > hi2[j]):
                far = False
            if d2 < lo2[j]:
                near = True
            if near and not far:
                break   # (short of a limit and not clear of every one: refused, whatever follows)
        if far:
            ok = True
        elif near:
            ok = False
        else:   # (in the band: measured)
            ok = True
            for j in range(N):
                if not (((hypot(c[k, 0] - oc[j, 0], c[k, 1] - oc[j, 1]) - r) - orad[j]) >= gap):
                    ok = False
                    break
        out[k] = ok
    return out_


# (movement.solvers.table's LINK and SPAN, and spots.SLACK: a test holds them equal)
FIT_SLACK = 5e-4
FIT_LINK = 2.0 - FIT_SLACK
FIT_SPAN = 9.0 - FIT_SLACK


def spots_fit(fp, c_, placed, table, gap_):
    """movement.solvers.table._spots_fit, for a round base among round bases: (K,) whether
    the base at each of ``c`` stands ``gap`` or more from each of ``placed``, within LINK of
    one and SPAN of all (placed_distances: disc_distances' arithmetic), and then, of the spots
    those leave, is clear of the table's other bases (_Table.clear: those whose box meets the
    spots' box grown by the base's bounding radius and the clearance, then _discs_clear's
    formula, (hypot - r) - radius >= clearance less a hair, settled by the squares away from
    DISCS_BAND as it settles them) and of the light and dense features under the base grown by
    SLACK (feature_mask's boxes and a point's distance to a polygon's closed area). Each value
    the reference's arithmetic, so each answer is its own to the bit; the other bases that are
    not round (a vehicle's hull: a transport beside a disembark's spots) are measured as the
    reference measures them, by ``farther_than``'s twin (its reading of those hulls kept with
    the table's arrays) on the spots the round ones leave, or where it declines by the kernel's
    record; a unit-mate that is not round, an input of another type or a value that is no finite
    number is the reference's."""
    if fp.shape != "round" or not _all_of((c_,), F64) or c_.ndim != 2 or type(gap_) is not float:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], k, j, i, p, n, N, m
    if K and c.shape[1] != 2:
        return None
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    cdef double r = 0.5 * fp.length, bnd = fp.bounding_radius, gap = gap_
    if not (0.0 <= r < 1e150 and 0.0 <= bnd < 1e150 and -1e150 < gap < 1e150):
        return None   # (a negative radius, a base no footprint() makes: the reference's band settles it otherwise)
    out_ = _trues(K)
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0:
        return out_
    # 03.03 and the unit's spacing: the unit-mates placed so far
    n = len(placed)
    disc_ = np.empty((n, 3))
    cdef double[:, ::1] disc = disc_
    cdef double x, y, dx, dy, d, least, most, low = gap - 1e-9, link = FIT_LINK, span = FIT_SPAN
    if n:
        if not _discs_of(placed, disc):
            return None
        for k in range(K):
            for i in range(n):
                dx = c[k, 0] - disc[i, 0]
                dy = c[k, 1] - disc[i, 1]
                d = _max((sqrt(dx * dx + dy * dy) - r) - disc[i, 2], 0.0)
                least = d if i == 0 else _min(least, d)
                most = d if i == 0 else _max(most, d)
            ok[k] = least >= low and least <= link and most <= span
    if _count_ok(ok) == 0:
        return out_
    # Part A ruling 13: clear of the other bases (_Table.near, then _discs_clear)
    oc_, orad_, rnd_ = table.centres, table.radius, table.is_round
    xhi_, xlo_, yhi_, ylo_ = table.box
    if not (_all_of((oc_, orad_, xhi_, xlo_, yhi_, ylo_), F64) and _all_of((rnd_,), BOOL)):
        return None
    cdef const double[:, :] oc = oc_
    cdef const double[:] orad = orad_
    cdef const double[:] xhi = xhi_
    cdef const double[:] xlo = xlo_
    cdef const double[:] yhi = yhi_
    cdef const double[:] ylo = ylo_
    cdef const unsigned char[:] rnd = rnd_.view(np.uint8)
    N = oc.shape[0]
    if (orad.shape[0] != N or xhi.shape[0] != N or xlo.shape[0] != N or yhi.shape[0] != N or ylo.shape[0] != N
            or rnd.shape[0] != N or (N and oc.shape[1] != 2)):
        return None
    cdef double clearance = table.clearance, reach = bnd + clearance, g2 = clearance - 1e-9, band = DISCS_BAND
    cdef double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY, lim, d2
    cdef bint far, short
    cdef Py_ssize_t[::1] near
    cdef Py_ssize_t[::1] hulls
    cdef Py_ssize_t nh = 0
    cdef _FarReading rd
    cdef double[::1] lo2, hi2
    if N:
        for k in range(K):
            if ok[k]:
                xmin, xmax = _min(xmin, c[k, 0]), _max(xmax, c[k, 0])
                ymin, ymax = _min(ymin, c[k, 1]), _max(ymax, c[k, 1])
        near_, lo2_, hi2_ = np.empty(N, dtype=np.intp), np.empty(N), np.empty(N)
        hulls_ = np.empty(N, dtype=np.intp)
        near, lo2, hi2, hulls = near_, lo2_, hi2_, hulls_
        n = _near_split(oc, orad, xhi, xlo, yhi, ylo, rnd, xmin - reach, xmax + reach, ymin - reach, ymax + reach,
                        r, g2, band, near, lo2, hi2, hulls, &nh)
        for k in range(K):
            if not ok[k]:
                continue
            far, short = True, False
            for i in range(n):
                j = near[i]
                dx = c[k, 0] - oc[j, 0]
                dy = c[k, 1] - oc[j, 1]
                d2 = dx * dx + dy * dy
                if not (d2 > hi2[i]):
                    far = False
                if d2 < lo2[i]:
                    short = True
                    break
            if short:
                ok[k] = False
            elif not far:   # (in the band: measured as _discs_clear's formula reads)
                for i in range(n):
                    j = near[i]
                    if not (((hypot(c[k, 0] - oc[j, 0], c[k, 1] - oc[j, 1]) - r) - orad[j]) >= g2):
                        ok[k] = False
                        break
        if nh and _count_ok(ok):   # the hulls near, on the spots the round bases leave (_Table.clear)
            if not _FARTHER_THAN:
                from sim.rules.movement.solvers.regions import farther_than
                _FARTHER_THAN.append(farther_than)
            # (farther_than's test of the spots still held, in place, its reading of these hulls
            # kept with the table's arrays until the next ``add``; where it leaves them to the
            # reference, the spots it has not refused go to farther_than's record)
            key = (id(oc_), tuple([hulls[i] for i in range(nh)]))
            rd = _kept(_HULL_READINGS, key, oc_)
            if rd is None:
                rows_ = hulls_[:nh]
                rd = _keep(_HULL_READINGS, key, oc_, _far_reading(
                    [table.others[j][1] for j in rows_.tolist()], table.circles(rows_)), _KEPT_MOST)
            if rd is None or _farther(fp, c, ok, rd, g2) < 0:
                rows_ = hulls_[:nh]
                sel = np.flatnonzero(out_)
                out_[sel] = _FARTHER_THAN[0](fp, c_[sel], [table.others[j][1] for j in rows_.tolist()], g2,
                                             table.circles(rows_))
    # Part A ruling 13: no light or dense feature under the base grown by SLACK (feature_mask)
    cdef _Edges ed
    cdef const double[:, :] plo
    cdef const double[:, :] phi
    cdef double rg = 0.5 * (fp.length + 2 * FIT_SLACK), touch = MOVE_TOUCH
    es = table.terr.no_end
    if len(es):
        if _count_ok(ok) == 0:
            return out_
        ed = _edges(es)
        if ed is None or not _all_of((es.lo, es.hi), F64):
            return None
        plo, phi = es.lo, es.hi
        if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
            return None
        lim = rg - touch
        for k in range(K):
            if not ok[k]:
                continue
            p = _on_feature(c[k, 0], c[k, 1], rg, lim, ed, plo, phi)
            if p < 0:
                return None   # (a NaN made inside: the reference's)
            if p:
                ok[k] = False
    return out_


_FARTHER_THAN = []   # (sim.rules.movement.solvers.regions.farther_than, the kernel: found when first needed)
# (id(a table's centres), the rows of its hulls near some spots) -> (the centres, farther_than's
# reading of those hulls): views.pxi's _kept (the table's arrays are new after each ``add``)
_HULL_READINGS = {}


cdef Py_ssize_t _near_split(const double[:, :] oc, const double[:] orad, const double[:] xhi, const double[:] xlo,
                            const double[:] yhi, const double[:] ylo, const unsigned char[:] rnd, double x0,
                            double x1, double y0, double y1, double r, double gap, double band,
                            Py_ssize_t[::1] near, double[::1] lo2, double[::1] hi2, Py_ssize_t[::1] hulls,
                            Py_ssize_t* nh) noexcept nogil:
    """How many of the other round bases have a box that meets the box x0..x1, y0..y1
    (_Table.near), written to ``near`` in order, with the squared limits _discs_clear settles a
    pair by (the square of the centre distance each needs, less and plus the band); the hulls
    among the bases met (not round: farther_than's to measure) written to ``hulls`` in order and
    counted in ``nh``."""
    cdef Py_ssize_t j, m = 0, h = 0
    cdef double lim, t
    for j in range(oc.shape[0]):
        if xhi[j] >= x0 and xlo[j] <= x1 and yhi[j] >= y0 and ylo[j] <= y1:
            if not rnd[j]:
                hulls[h] = j
                h += 1
                continue
            lim = (r + orad[j]) + gap
            t = lim + band
            hi2[m] = t * t
            t = lim - band
            lo2[m] = t * t
            near[m] = j
            m += 1
    nh[0] = h
    return m

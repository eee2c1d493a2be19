# The compiled twin of sim.rules.movement.solvers.regions: a base kept more than a distance from
# every one of a set of bases (a region's "away" limits: 8" from every enemy model for an ingress
# or a Deep Strike, a set-up's engagement). One file of move.pyx, which says what every twin holds
# to (this folder's files are named after the modules whose kernels they twin).


_REGIONS = []   # (sim.rules.movement.solvers.regions.circles_of, found when first needed)


def farther_than(fp, c_, fps, d_, circles=None):
    """movement.solvers.regions.farther_than, for a round base: (K,) whether the base at each
    of ``c`` is more than ``d`` from every one of ``fps``: their bounding circles' box about the
    centres, then each pair's centre distance (the root of the squares) against the bounding
    and the inner circles' limits, then the exact distance (disc_distances' arithmetic) of each
    pair they leave, in the reference's order (a footprint measured for a centre only while it
    stands). A footprint that is not round and must be measured, an input of another type or a
    value that is no finite number is the reference's."""
    if fp.shape != "round" or not _all_of((c_,), F64) or c_.ndim != 2 or type(d_) is not float:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], n = len(fps), k, j
    if K and c.shape[1] != 2:
        return None
    out_ = np.ones(K, dtype=bool)
    cdef unsigned char[::1] ok = out_.view(np.uint8)
    if K == 0 or n == 0:
        return out_
    if not (_finite(c[:, 0]) and _finite(c[:, 1])):
        return None
    if circles is None:
        if not _REGIONS:
            from sim.rules.movement.solvers.regions import circles_of
            _REGIONS.append(circles_of)
        circles = _REGIONS[0](fps)
    ox_, oy_, reach_, inner_ = circles
    if not _all_of((ox_, oy_, reach_, inner_), F64):
        return None
    cdef const double[:] ox = ox_
    cdef const double[:] oy = oy_
    cdef const double[:] reach = reach_
    cdef const double[:] inner = inner_
    if ox.shape[0] != n or oy.shape[0] != n or reach.shape[0] != n or inner.shape[0] != n:
        return None
    if not (_finite(ox) and _finite(oy) and _finite(reach) and _finite(inner)):
        return None
    cdef double bf = fp.bounding_radius, inf = 0.5 * min(fp.length, fp.width) * 1.0, r = 0.5 * fp.length
    cdef double d = d_, lox = c[0, 0], loy = c[0, 1], hix = c[0, 0], hiy = c[0, 1], slack, dx, dy, cd
    if not (0.0 <= bf < 1e150 and -1e150 < inf < 1e150 and -1e150 < r < 1e150 and -1e150 < d < 1e150):
        return None
    for k in range(1, K):
        lox, loy = _min(lox, c[k, 0]), _min(loy, c[k, 1])
        hix, hiy = _max(hix, c[k, 0]), _max(hiy, c[k, 1])
    # the footprints whose bounding circles come within reach of the centres' box
    cols_ = np.empty(n, dtype=np.intp)
    rad_ = np.full(n, -1.0)   # (a round footprint's radius for the exact measure; -1: not round)
    cdef Py_ssize_t[::1] cols = cols_
    cdef double[::1] rad = rad_
    cdef Py_ssize_t m = 0
    for j in range(n):
        slack = ((bf + reach[j]) + d) + 1e-3
        if ox[j] >= lox - slack and ox[j] <= hix + slack and oy[j] >= loy - slack and oy[j] <= hiy + slack:
            cols[m] = j
            m += 1
    if m == 0:
        return out_
    cdef Py_ssize_t i
    for k in range(K):
        # a centre within some footprint's inner circles' reach is out, whatever else
        for i in range(m):
            j = cols[i]
            dx = c[k, 0] - ox[j]
            dy = c[k, 1] - oy[j]
            cd = sqrt(dx * dx + dy * dy)
            if cd <= ((bf + reach[j]) + d) + 1e-6 and cd < ((inf + inner[j]) + d) - 1e-6:
                ok[k] = False
                break
        if not ok[k]:
            continue
        # then the pairs the circles leave, footprint by footprint, while the centre stands
        for i in range(m):
            j = cols[i]
            dx = c[k, 0] - ox[j]
            dy = c[k, 1] - oy[j]
            cd = sqrt(dx * dx + dy * dy)
            if not (cd <= ((bf + reach[j]) + d) + 1e-6):
                continue
            if rad[j] < 0.0:
                f = fps[j]
                if f.shape != "round":
                    return None   # (a hull to measure: placed_distances' cores, the reference's)
                rad[j] = 0.5 * f.length
                if not (0.0 <= rad[j] < 1e150 and f.x == ox[j] and f.y == oy[j]):
                    return None
            if not (_max((cd - r) - rad[j], 0.0) > d):
                ok[k] = False
                break
    return out_

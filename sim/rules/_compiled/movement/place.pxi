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
    tested, an input of another type or a value that is no finite number is the reference's."""
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
    out_ = np.ones(K, dtype=bool)
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
    cdef Py_ssize_t[::1] near = near_
    n = 0
    for i in range(others.shape[0]):
        j = others[i]
        if b.xhi[j] >= lo0 and b.xlo[j] <= hi0 and b.yhi[j] >= lo1 and b.ylo[j] <= hi1:
            if not b.rnd[j]:
                return None   # (a hull near: placed_overlaps' cores, the reference's)
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

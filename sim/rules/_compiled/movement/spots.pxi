# The twin of sim.rules.movement.solvers.spots' kernel (included in move.pyx).

# the polygon's orientation is the sign of its signed area (the reference: 0.5 times numpy's sum
# of the shoelace terms, < 0 reversed). Summed here left to right, the total is within
# len * 2**-53 of the terms' sizes of numpy's (pairwise) total: with at most RING_OWN_SUM
# vertices (~6e-14 of the sizes) and a total more than RING_AREA_SURE of the sizes from 0, the
# two have one sign, and halving it keeps it (the sizes over RING_SIZE_LEAST: no total near the
# smallest numbers, where 0.5 * -5e-324 is -0.0, not below 0). Otherwise numpy's own sum decides
# (sim.rules.polygons.signed_area). The largest polygon a ring asks has 128 vertices (two ovals).
cdef double RING_AREA_SURE = 1e-12
cdef Py_ssize_t RING_OWN_SUM = 512
cdef double RING_SIZE_LEAST = 1e-290


def ring_about(M_, t_, n_):
    """movement.solvers.spots._ring_about: the points ``t`` outside a convex polygon. Its
    orientation by the sign of its signed area (the shoelace terms numpy's; their sum's sign
    where sure, above, else numpy's own sum asked), then each edge, its length (C's hypot, as
    np.hypot), its outward normal, each vertex's normal and the points picked, each the
    reference's IEEE operations in its order. An input of another type, a polygon of fewer than
    three points (or left with fewer than three edges once the shortest are left out) or a value
    that is no finite number is the reference's."""
    if not _all_of((M_,), F64) or M_.ndim != 2 or M_.shape[1] != 2 or M_.shape[0] < 3:
        return None
    if type(t_) is not float or type(n_) is not int or not (0 < n_ <= 4096):
        return None
    cdef const double[:, :] M = M_
    cdef Py_ssize_t m = M.shape[0], n = n_, i, j, c, L, src
    cdef double t = t_, a, s = 0.0, size = 0.0, ex, ey, h, vx, vy
    if not (-1e6 < t < 1e6):
        return None
    for i in range(m):
        if not (-1e6 < M[i, 0] < 1e6 and -1e6 < M[i, 1] < 1e6):
            return None
    # ccw: the shoelace terms (p x q less q x p, q the next vertex), summed; the order reversed
    # where the area is negative
    for i in range(m):
        j = i + 1 if i + 1 < m else 0
        a = M[i, 0] * M[j, 1] - M[j, 0] * M[i, 1]
        s += a
        size += fabs(a)
    cdef bint reverse
    if m <= RING_OWN_SUM and size > RING_SIZE_LEAST and s > RING_AREA_SURE * size:
        reverse = False
    elif m <= RING_OWN_SUM and size > RING_SIZE_LEAST and s < -RING_AREA_SURE * size:
        reverse = True
    else:
        from sim.rules.polygons import signed_area
        reverse = signed_area(M_) < 0
    P_ = np.empty((m, 2))
    cdef double[:, ::1] P = P_
    for i in range(m):
        src = m - 1 - i if reverse else i
        P[i, 0] = M[src, 0]
        P[i, 1] = M[src, 1]
    # the edges longer than 1e-12 (each from its vertex to the next), their outward normals
    E_ = np.empty((m, 2))
    K_ = np.empty((m, 2))
    EN_ = np.empty((m, 2))
    cdef double[:, ::1] E = E_, K = K_, EN = EN_
    c = 0
    for i in range(m):
        j = i + 1 if i + 1 < m else 0
        ex = P[j, 0] - P[i, 0]
        ey = P[j, 1] - P[i, 1]
        h = hypot(ex, ey)
        if h > 1e-12:
            K[c, 0], K[c, 1] = P[i, 0], P[i, 1]
            E[c, 0], E[c, 1] = ex, ey
            EN[c, 0] = ey / h
            EN[c, 1] = (-ex) / h
            c += 1
    if c < 3:
        return None
    # each vertex's normal: its edge's and the edge before it's, summed and made of unit length
    VN_ = np.empty((c, 2))
    cdef double[:, ::1] VN = VN_
    for i in range(c):
        j = i - 1 if i > 0 else c - 1
        vx = EN[i, 0] + EN[j, 0]
        vy = EN[i, 1] + EN[j, 1]
        h = _max(hypot(vx, vy), 1e-12)
        VN[i, 0] = vx / h
        VN[i, 1] = vy / h
    # the points: the vertices, and the edges' middles after them where fewer than n; n of them
    # picked evenly (all where no more)
    L = 2 * c if c < n else c
    cdef Py_ssize_t rows = n if n < L else L, k
    out_ = np.empty((rows, 2))
    cdef double[:, ::1] out = out_
    for i in range(rows):
        k = (i * L) // n if n < L else i
        if k < c:
            out[i, 0] = K[k, 0] + t * VN[k, 0]
            out[i, 1] = K[k, 1] + t * VN[k, 1]
        else:
            k -= c
            out[i, 0] = (K[k, 0] + 0.5 * E[k, 0]) + t * EN[k, 0]
            out[i, 1] = (K[k, 1] + 0.5 * E[k, 1]) + t * EN[k, 1]
    return out_

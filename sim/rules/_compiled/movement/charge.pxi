# The compiled twin of sim.rules.movement.solvers.charge: the score of a charge move's candidate
# spots for one model. One file of move.pyx, which says what every twin holds to (this folder's
# files are named after the modules whose kernels they twin).


# (11.04's 1": a test holds it equal to sim.rules.movement.solvers.charge.WITHIN_ONE)
SCORE_WITHIN_ONE = 1.0


def charge_scores(fp0, c_, idx, rows_, gaps, must, others_, tier_asked):
    """movement.solvers.charge._charge_scores, for a round base among round bases: for each
    target, the least distance from the base at each centre to its bodies (``_least_gaps``:
    distances_from's arithmetic and ``.min(axis=1)``), closer than at the start by more than
    CLOSER and engaged where it must be; the least over the targets (np.minimum's, from an
    infinity); the non-targets whose box meets the centres' box grown by the base's bounding
    radius, 2" and a hair (rows_near_box's arithmetic), none of them engaged; then the
    reference's tiers (1 within 1", 2 engaged, 3 otherwise, as int64), the tier asked for and
    the path length (np.hypot's, C's hypot). A body that is not round among those measured, an
    input of another type, a target with no rows, or a value that is no finite number within a
    table's size is the reference's."""
    if _score_centres(fp0, c_) is None or type(rows_) is not tuple or type(gaps) is not tuple:
        return None
    if type(must) is not tuple or len(gaps) != len(rows_) or len(must) != len(rows_):
        return None
    if tier_asked is not None and (type(tier_asked) is not int or not -1000 < tier_asked < 1000):
        return None   # (numbers of another type, or an int past a C long's: numpy's comparison)
    if not _all_of((others_,), INTP) or others_.ndim != 1:
        return None
    for rows in rows_:
        if not _all_of((rows,), INTP) or rows.ndim != 1:
            return None
    for gap in gaps:
        if type(gap) is not float or not (-1e6 < gap < 1e6):
            return None
    for engage in must:
        if type(engage) is not bool:
            return None
    cdef _Bodies b = _bodies(idx)
    if b is None or not _indices(others_, b.N):
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], k, t, i, j, n
    cdef double r = 0.5 * fp0.length, x0 = fp0.x, y0 = fp0.y, bnd = fp0.bounding_radius
    cdef double er = MOVE_ENGAGEMENT + EPS, one = SCORE_WITHIN_ONE + EPS, lim
    if not (0.0 <= bnd < 1e6):
        return None
    dmin_, g_ = _filled(K, INFINITY), np.empty(K)
    allowed_, closer_, t_of_ = np.empty(K, dtype=bool), np.zeros(K, dtype=np.uint8), np.empty(K, dtype=np.int64)
    cdef double[::1] dmin = dmin_, g = g_
    cdef unsigned char[::1] allowed = allowed_.view(np.uint8), closer = closer_
    cdef long long[::1] t_of = t_of_
    for k in range(K):
        allowed[k] = True     # (engaged with every target it must be: so far)
    for t in range(len(rows_)):
        if _least_gaps(c, r, b, rows_[t], g):
            return None
        lim = <double>gaps[t] - SCORE_CLOSER
        engage = must[t]
        for k in range(K):
            if g[k] < lim:
                closer[k] = True
            dmin[k] = _min(dmin[k], g[k])
            if engage and not (g[k] <= er):
                allowed[k] = False
    for k in range(K):
        allowed[k] = allowed[k] and closer[k]
    # the non-targets near the centres' box (rows_near_box), none engaged
    cdef const Py_ssize_t[:] others = others_
    cdef Py_ssize_t[::1] near
    cdef double lo0, lo1, hi0, hi1, pad
    if others.shape[0]:
        lo0, lo1, hi0, hi1 = c[0, 0], c[0, 1], c[0, 0], c[0, 1]
        for k in range(1, K):
            lo0, lo1 = _min(lo0, c[k, 0]), _min(lo1, c[k, 1])
            hi0, hi1 = _max(hi0, c[k, 0]), _max(hi1, c[k, 1])
        pad = (bnd + MOVE_ENGAGEMENT) + 1e-6
        lo0, lo1, hi0, hi1 = lo0 - pad, lo1 - pad, hi0 + pad, hi1 + pad
        near_ = np.empty(others.shape[0], dtype=np.intp)
        near = near_
        n = 0
        for i in range(others.shape[0]):
            j = others[i]
            if b.xhi[j] >= lo0 and b.xlo[j] <= hi0 and b.yhi[j] >= lo1 and b.ylo[j] <= hi1:
                near[n] = j
                n += 1
        if n:
            if _least_gaps(c, r, b, near_[:n], g):
                return None
            for k in range(K):
                if g[k] <= er:
                    allowed[k] = False
    cdef long long most = tier_asked if tier_asked is not None else 3
    length_ = np.empty(K)
    cdef double[::1] length = length_
    for k in range(K):
        t_of[k] = 1 if dmin[k] <= one else (2 if dmin[k] <= er else 3)
        if tier_asked is not None and not (t_of[k] <= most):
            allowed[k] = False
        length[k] = hypot(c[k, 0] - x0, c[k, 1] - y0)
    return allowed_, (t_of_, dmin_, length_)

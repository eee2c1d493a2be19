# The compiled twin of sim.rules.movement.solvers.pile_in: the score of a pile-in's or a
# consolidation's candidate spots for one model heading for an enemy unit. One file of move.pyx,
# which says what every twin holds to (this folder's files are named after the modules whose
# kernels they twin).


# (place.CLOSER: a test holds the two equal; 03.04's 2" is legality.pxi's MOVE_ENGAGEMENT)
SCORE_CLOSER = 1e-6


cdef object _score_centres(fp0, c_):
    """``c_`` as a typed view when the twins of a solver's score take it and the model at
    ``fp0`` (a round base whose numbers are Python's, within a table's size; centres (K, 2) of
    float64, K at least 1, each a finite number within a table's size); else None."""
    if fp0.shape != "round" or not _all_of((c_,), F64) or c_.ndim != 2 or c_.shape[0] == 0 or c_.shape[1] != 2:
        return None
    if not _plain_numbers((fp0.x, fp0.y, fp0.length)):
        return None
    if not (-1e6 < fp0.x < 1e6 and -1e6 < fp0.y < 1e6 and 0.0 <= fp0.length < 1e6):
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t k
    for k in range(c.shape[0]):
        if not (-1e6 < c[k, 0] < 1e6 and -1e6 < c[k, 1] < 1e6):
            return None
    return c_


def enemy_scores(fp0, c_, idx, target_rows_, keep_rows, d0, require_engaged, stay_ok):
    """movement.solvers.pile_in._enemy_scores, for a round base among round bases: the least
    distance from the base at each centre to the target unit's bodies and to each unit it keeps
    engaged (``_least_gaps``: distances_from's arithmetic and ``.min(axis=1)``), the path length
    (np.hypot's, C's hypot, of the centre less the start), then the reference's comparisons and
    keys (``allowed``: closer than ``d0`` by more than CLOSER, engaged with each kept unit,
    engaged when asked, or the start spot itself when it may stay; keys: 2 for the start spot,
    0 engaged, 1 not, as int64; the distance; the length). A body that is not round, an input of
    another type, no rows, or a value that is no finite number within a table's size is the
    reference's."""
    if _score_centres(fp0, c_) is None or type(d0) is not float or not (-1e6 < d0 < 1e6):
        return None
    if type(require_engaged) is not bool or type(stay_ok) is not bool or type(keep_rows) is not tuple:
        return None
    if not _all_of((target_rows_,), INTP) or target_rows_.ndim != 1:
        return None
    for rows in keep_rows:
        if not _all_of((rows,), INTP) or rows.ndim != 1:
            return None
    cdef _Bodies b = _bodies(idx)
    if b is None:
        return None
    cdef const double[:, :] c = c_
    cdef Py_ssize_t K = c.shape[0], k
    cdef double r = 0.5 * fp0.length, x0 = fp0.x, y0 = fp0.y
    cdef double lim = d0 - SCORE_CLOSER, er = MOVE_ENGAGEMENT + EPS
    d_, length_, g_ = np.empty(K), np.empty(K), np.empty(K)
    allowed_, tier_ = np.empty(K, dtype=bool), np.empty(K, dtype=np.int64)
    cdef double[::1] d = d_, length = length_, g = g_
    cdef unsigned char[::1] allowed = allowed_.view(np.uint8)
    cdef long long[::1] tier = tier_
    if _least_gaps(c, r, b, target_rows_, d):
        return None
    for k in range(K):
        length[k] = hypot(c[k, 0] - x0, c[k, 1] - y0)
        allowed[k] = d[k] < lim
    for rows in keep_rows:
        if _least_gaps(c, r, b, rows, g):
            return None
        for k in range(K):
            if not (g[k] <= er):
                allowed[k] = False
    cdef bint eng, stay, req = require_engaged, may_stay = stay_ok
    for k in range(K):
        eng = d[k] <= er
        stay = length[k] <= 0.0
        if req and not eng:
            allowed[k] = False
        if may_stay and stay:
            allowed[k] = True
        tier[k] = 2 if stay else (0 if eng else 1)
    return allowed_, (tier_, d_, length_)

# The compiled twin of sim.players.options: the players' quick look at a move, at the other
# bases. One file of move.pyx, which says what every twin holds to (this folder's files are
# named after the modules whose kernels they twin).


def bases_refused(pts_, r_, centres_, inner_, players_, rows_, x0_, x1_, y0_, y1_, gap_, margin_):
    """players.options._bases_refused: whether a disc of radius ``r[k]`` at ``pts[k]`` overlaps
    by more than ``margin`` the disc of a model in the box and not of ``rows``, or comes within
    ``gap`` less ``margin`` of an enemy's ((hypot - r) - inner, pair by pair, stopping at the
    first that says so: the answer is an "any"). No minimum is taken, only comparisons, so a NaN
    or an infinity answers as in numpy: they are not declined."""
    if (not _all_of((pts_, r_, centres_, inner_), F64) or not _all_of((players_, rows_), INTP)
            or pts_.ndim != 2 or centres_.ndim != 2 or r_.ndim != 1 or inner_.ndim != 1
            or players_.ndim != 1 or rows_.ndim != 1
            or not all([type(v) is float for v in (x0_, x1_, y0_, y1_, gap_, margin_)])):
        return None   # (numpy's own types, or its broadcasting, would rule: the reference answers)
    cdef const double[:, :] p = pts_
    cdef const double[:, :] c = centres_
    cdef const double[:] r = r_
    cdef const double[:] inner = inner_
    cdef const Py_ssize_t[:] players = players_
    cdef const Py_ssize_t[:] rows = rows_
    cdef Py_ssize_t K = p.shape[0], N = c.shape[0], k, j
    if (p.shape[1] != 2 or c.shape[1] != 2 or r.shape[0] != K or inner.shape[0] != N
            or players.shape[0] != N or rows.shape[0] == 0 or not _indices(rows, N)):
        return None   # (numpy's broadcasting, its wrapping of a negative index, or its error)
    mine_ = np.zeros(N, dtype=np.uint8)
    cdef unsigned char[::1] mine = mine_
    for k in range(rows.shape[0]):
        mine[rows[k]] = 1
    cdef double x0 = x0_, x1 = x1_, y0 = y0_, y1 = y1_, g
    cdef double over = -margin_
    cdef double near = gap_ - margin_
    cdef Py_ssize_t own = players[rows[0]]
    for j in range(N):
        if mine[j] or not (c[j, 0] >= x0 and c[j, 0] <= x1 and c[j, 1] >= y0 and c[j, 1] <= y1):
            continue
        for k in range(K):
            g = (hypot(p[k, 0] - c[j, 0], p[k, 1] - c[j, 1]) - r[k]) - inner[j]
            if g < over:
                return True
            if players[j] != own and g < near:
                return True
    return False

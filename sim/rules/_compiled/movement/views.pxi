# What the movement twins read an edge set (sim.rules.movement.kernels.EdgeSet) and a body index
# (sim.rules.movement.index.BodyIndex) through: typed views of their arrays, made once for each
# (an edge set's arrays never change once made). One file of move.pyx, which says what every
# twin holds to (this folder's files are named after the modules whose kernels they twin).


cdef inline double _edge_d2(double tx, double ty, double ex, double ey, double el2) nogil:
    """The squared distance from a point to an edge, the point given less the edge's start."""
    cdef double t = _clip01((tx * ex + ty * ey) / el2)
    cdef double qx = tx - t * ex, qy = ty - t * ey
    return qx * qx + qy * qy


cdef inline Py_ssize_t _edges_end(const Py_ssize_t[:] starts, Py_ssize_t p, Py_ssize_t E) nogil:
    """Where polygon ``p``'s edges end, as numpy's reduceat reads ``starts``: at the next
    polygon's first edge, the last at the end, and one edge where the next starts no later."""
    cdef Py_ssize_t e1 = starts[p + 1] if p + 1 < starts.shape[0] else E
    return e1 if e1 > starts[p] else starts[p] + 1


cdef class _Edges:
    """A movement EdgeSet's arrays as typed views (edge v -> w, its vector and squared length,
    each polygon's first edge), for the two distance kernels."""
    cdef const double[:] vx, vy, wx, wy, ex, ey, el2
    cdef const Py_ssize_t[:] starts
    cdef Py_ssize_t E, P


cdef object _kept(dict kept, key, owner):
    """What a twin keeps under ``key`` (a tuple, or the id of ``owner``) of the object ``owner`` it
    was read from, or None: each entry is (owner, reading), and holds the owner, so no other object
    takes its id while the entry is kept. The twins keep, so, what they read again and again of
    arrays that never change once made (an edge set's views, an Away's footprints, a table's hulls
    until its next ``add``, a hull target's core, a rule's zone limits)."""
    got = kept.get(key)
    if got is not None and (<tuple>got)[0] is owner:
        return (<tuple>got)[1]
    return None


cdef object _keep(dict kept, key, owner, reading, Py_ssize_t most):
    """``reading`` kept under ``key`` with its ``owner`` (``_kept``'s), the dict emptied first
    when it holds ``most``; None is not kept. Returns ``reading``."""
    if reading is not None:
        if len(kept) >= most:
            kept.clear()
        kept[key] = (owner, reading)
    return reading


cdef enum:
    _KEPT_MOST = 256    # the entries a dict of kept readings holds before it is emptied
    _VIEWS_KEPT = 1024


_VIEWS = {}     # id(edge set) -> (the edge set, its views): an EdgeSet's arrays never change once made


cdef _Edges _edges(es):
    """``es``'s views, or None where numpy's types are not float64 and intp or an offset is out
    of range (the reference's); an EdgeSet's kept (``_kept``, the dict emptied at _VIEWS_KEPT)."""
    cdef _Edges ed = _kept(_VIEWS, id(es), es)
    if ed is not None:
        return ed
    ed = _make_edges(es)
    if type(es).__name__ == "EdgeSet":
        _keep(_VIEWS, id(es), es, ed, _VIEWS_KEPT)
    return ed


cdef _Edges _make_edges(es):
    if not (_all_of((es.vx, es.vy, es.wx, es.wy, es.ex, es.ey, es.el2), F64) and _all_of((es.starts,), INTP)):
        return None
    cdef _Edges ed = _Edges()
    ed.vx, ed.vy, ed.wx, ed.wy = es.vx, es.vy, es.wx, es.wy
    ed.ex, ed.ey, ed.el2, ed.starts = es.ex, es.ey, es.el2, es.starts
    ed.E, ed.P = ed.vx.shape[0], ed.starts.shape[0]
    if not _indices(ed.starts, ed.E):
        return None
    return ed


cdef class _Bodies:
    """A movement BodyIndex's arrays as typed views (each body's box, centre, round radius,
    bounding radius, and whether it is round, as bytes), for the checks of a move."""
    cdef const double[:] xlo, xhi, ylo, yhi, radius, bound
    cdef const double[:, :] centres
    cdef const unsigned char[:] rnd
    cdef Py_ssize_t N

    def __reduce__(self):
        return (_no_views, ())   # (a BodyIndex pickled or copied keeps none: made again when read)


def _no_views():
    return None


cdef _Bodies _bodies(idx):
    """``idx``'s views, kept in its ``near_memo`` (a BodyIndex never changes: a move makes
    another), or None where a type is not numpy's float64 or bool or the lengths differ (the
    reference's)."""
    memo = getattr(idx, "near_memo", None)
    if type(memo) is dict:
        got = memo.get("compiled views")
        if got is not None:
            return got
    xlo_, xhi_, ylo_, yhi_ = idx.boxes()
    if not (_all_of((xlo_, xhi_, ylo_, yhi_, idx.centres, idx.radius, idx.bound), F64) and _all_of((idx.round,), BOOL)):
        return None
    cdef _Bodies b = _Bodies()
    b.xlo, b.xhi, b.ylo, b.yhi = xlo_, xhi_, ylo_, yhi_
    b.centres, b.radius, b.bound, b.rnd = idx.centres, idx.radius, idx.bound, idx.round.view(np.uint8)
    b.N = b.xlo.shape[0]
    if (b.xhi.shape[0] != b.N or b.ylo.shape[0] != b.N or b.yhi.shape[0] != b.N or b.centres.shape[0] != b.N
            or (b.N and b.centres.shape[1] != 2) or b.radius.shape[0] != b.N or b.bound.shape[0] != b.N
            or b.rnd.shape[0] != b.N):
        return None
    if type(memo) is dict:
        memo["compiled views"] = b
    return b


cdef bint _discs_of(fps, double[:, ::1] out) except -1:
    """Each footprint of ``fps`` as (x, y, its radius: half its length) in ``out``; False when
    one is not round or not a finite number well within range (the reference's: its hulls'
    arithmetic, or numpy's with an infinity)."""
    cdef Py_ssize_t i = 0
    cdef double x, y, r
    for f in fps:
        if f.shape != "round":
            return False
        x, y, r = f.x, f.y, 0.5 * f.length
        if not (-1e150 < x < 1e150 and -1e150 < y < 1e150 and -1e150 < r < 1e150):
            return False
        out[i, 0], out[i, 1], out[i, 2] = x, y, r
        i += 1
    return True


cdef inline Py_ssize_t _count_ok(const unsigned char[::1] ok) noexcept nogil:
    """How many spots a twin's answer still holds true."""
    cdef Py_ssize_t k, m = 0
    for k in range(ok.shape[0]):
        m += ok[k]
    return m

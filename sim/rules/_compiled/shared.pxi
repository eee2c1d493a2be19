# What both extensions take (move.pyx: the geometry and movement kernels; sight.pyx: the sight
# kernels), included in each: geometry's EPS and the test of an array of points the twins of
# distances between points and cores take.


cdef double EPS = 1e-9            # geometry.EPS


cdef inline object _trues(Py_ssize_t n):
    """``np.ones(n, dtype=bool)``, the same array, made by ``np.empty`` and a fill: numpy's
    ``ones`` is a Python function around the two, about three times their cost, and a twin's
    answer starts as one on most calls."""
    out = np.empty(n, dtype=BOOL[1])   # (sim.rules._compiled's: the bool dtype)
    out.fill(True)
    return out


cdef inline object _filled(Py_ssize_t n, double value):
    """``np.full(n, value)`` (float64), made by ``np.empty`` and a fill, as ``_trues``."""
    out = np.empty(n, dtype=F64[1])
    out.fill(value)
    return out


cdef bint _plain_xy(a, Py_ssize_t least) noexcept:
    """A float64 (m, 2) array of points or vertices, m at least ``least``, every place a number
    well within range (no square can overflow): what the twins of distances between points and
    cores take (geometry.pxi and the files of movement/ and visibility/)."""
    if not _all_of((a,), F64) or a.ndim != 2 or a.shape[0] < least or a.shape[1] != 2:
        return False
    cdef const double[:, :] v = a
    return _bounded(v[:, 0], 1e150) and _bounded(v[:, 1], 1e150)

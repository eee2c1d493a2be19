# What both extensions take (move.pyx: the geometry and movement kernels; sight.pyx: the sight
# kernels), included in each: geometry's EPS and the test of an array of points the twins of
# distances between points and cores take.


cdef double EPS = 1e-9            # geometry.EPS


cdef bint _plain_xy(a, Py_ssize_t least) noexcept:
    """A float64 (m, 2) array of points or vertices, m at least ``least``, every place a number
    well within range (no square can overflow): what the twins of distances between points and
    cores take (geometry.pxi and the files of movement/ and visibility/)."""
    if not _all_of((a,), F64) or a.ndim != 2 or a.shape[0] < least or a.shape[1] != 2:
        return False
    cdef const double[:, :] v = a
    return _bounded(v[:, 0], 1e150) and _bounded(v[:, 1], 1e150)

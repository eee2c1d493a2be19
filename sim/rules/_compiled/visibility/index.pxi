# The compiled twins of sim.rules.visibility.index: the shooting plan's two reads of the
# visibility index: the cover of a block (13.08), and sight and distance per shooting model. One
# file of sight.pyx, which says what every twin holds to (this folder mirrors
# sim/rules/visibility: a file for each module with twins).


cdef inline const unsigned char* _at(Py_buffer* b, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """The byte at [i, j] of a 2-D buffer (any strides)."""
    return <const unsigned char*> b.buf + i * b.strides[0] + j * b.strides[1]


def cover_rows_known(fv_known_, fv_, hideable_, within_any_, r0_, r1_, c0_, c1_):
    """visibility.index.cover_rows_known: per row of the block r0:r1 x c0:c1, no column is fully
    visible (``fv``) without qualifying by area (``hideable`` and ``within_any``); None when an
    entry of the block is unresolved (``fv_known``). Bounds that are no int, or that a slice
    would clip (below 0 or past the end, a stop before its start), are the reference's. The
    arrays are read through their buffers as bytes (a numpy bool is one byte, 0 or 1): a typed
    memoryview of each would cost more than the whole answer. So each must be a numpy array
    itself, not a subclass (a matrix's answer has two dimensions, a masked array's hides
    values) nor another object with an array's attributes (whose buffer they need not
    describe)."""
    if not _all_of((fv_known_, fv_, hideable_, within_any_), BOOL):
        return None
    if not (type(r0_) is int and type(r1_) is int and type(c0_) is int and type(c1_) is int):
        return None
    if fv_known_.ndim != 2 or fv_.ndim != 2 or hideable_.ndim != 1 or within_any_.ndim != 1:
        return None
    if not (0 <= r0_ <= r1_ <= fv_known_.shape[0] and 0 <= c0_ <= c1_ <= fv_known_.shape[1]):
        return None
    if (fv_.shape != fv_known_.shape or hideable_.shape[0] != fv_known_.shape[1]
            or within_any_.shape[0] != fv_known_.shape[1]):
        return None
    cdef Py_ssize_t r0 = r0_, r1 = r1_, c0 = c0_, c1 = c1_, i, j
    cdef Py_buffer bufs[5]
    cdef int got = 0
    cdef const unsigned char* hide
    cdef const unsigned char* within
    out_ = np.empty(r1 - r0, dtype=bool)
    try:
        for a in (fv_known_, fv_, hideable_, within_any_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES)
            got += 1
        PyObject_GetBuffer(out_, &bufs[got], PyBUF_STRIDES | PyBUF_WRITABLE)
        got += 1
        for i in range(r0, r1):
            for j in range(c0, c1):
                if not _at(&bufs[0], i, j)[0]:
                    return None
        hide = <const unsigned char*> bufs[2].buf
        within = <const unsigned char*> bufs[3].buf
        for i in range(r0, r1):
            (<unsigned char*> bufs[4].buf)[i - r0] = 1
            for j in range(c0, c1):
                if _at(&bufs[1], i, j)[0] and not (hide[j * bufs[2].strides[0]] and within[j * bufs[3].strides[0]]):
                    (<unsigned char*> bufs[4].buf)[i - r0] = 0
                    break
    finally:
        for i in range(got):
            PyBuffer_Release(&bufs[i])
    return out_


def rows_seen_nearest(visible_, dist_, r0_, r1_, c0_, c1_):
    """visibility.index.rows_seen_nearest: per row of the block r0:r1 x c0:c1, any column visible,
    and the least distance (a minimum is exact: no rounding). Left to the reference: bounds
    that are no int or that a slice would clip, a block of no column (numpy's minimum has no
    identity: the reference raises), a NaN or a negative zero among the distances (which of
    two NaNs or of two zeros numpy's reduction keeps is its own), and any argument that is not a
    numpy array itself (read through its buffer, as cover_rows_known reads its)."""
    if not (_all_of((visible_,), BOOL) and _all_of((dist_,), F64)):
        return None
    if not (type(r0_) is int and type(r1_) is int and type(c0_) is int and type(c1_) is int):
        return None
    if visible_.ndim != 2 or dist_.ndim != 2:
        return None
    if not (0 <= r0_ <= r1_ <= visible_.shape[0] and 0 <= c0_ < c1_ <= visible_.shape[1]):
        return None
    if dist_.shape != visible_.shape:
        return None
    cdef Py_ssize_t r0 = r0_, r1 = r1_, c0 = c0_, c1 = c1_, i, j
    cdef Py_buffer bufs[4]
    cdef int got = 0
    cdef unsigned char any_
    cdef double best, v
    seen_ = np.empty(r1 - r0, dtype=bool)
    near_ = np.empty(r1 - r0, dtype=np.float64)
    try:
        for a in (visible_, dist_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES)
            got += 1
        for a in (seen_, near_):
            PyObject_GetBuffer(a, &bufs[got], PyBUF_STRIDES | PyBUF_WRITABLE)
            got += 1
        for i in range(r0, r1):
            any_ = 0
            for j in range(c0, c1):
                if _at(&bufs[0], i, j)[0]:
                    any_ = 1
                    break
            best = INFINITY
            for j in range(c0, c1):
                v = (<const double*> _at(&bufs[1], i, j))[0]
                if v != v or (v == 0.0 and signbit(v)):
                    return None
                if v < best:
                    best = v
            (<unsigned char*> bufs[2].buf)[i - r0] = any_
            (<double*> bufs[3].buf)[i - r0] = best
    finally:
        for i in range(got):
            PyBuffer_Release(&bufs[i])
    return seen_, near_

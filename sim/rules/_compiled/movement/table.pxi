# The compiled twin of sim.rules.movement.solvers.table: discs clear of other discs. One file of
# move.pyx, which says what every twin holds to (this folder's files are named after the modules
# whose kernels they twin).


# (movement.solvers.table._BAND: a test holds the two equal)
DISCS_BAND = 1e-7


def discs_clear(c_, r_, oc_, orad_, gap_):
    """movement.solvers.table._discs_clear: (K,) whether a disc of radius ``r`` at each of
    ``c`` is at least ``gap`` (edge to edge) from every disc ``oc``, ``orad``. The squared
    centre distances settle a spot whose every pair is clear of its limit by DISCS_BAND, or one
    of whose pairs is short of it by that much; any other spot is measured as the reference
    measures it: (hypot - r) - orad >= gap for every pair."""
    if (not _all_of((c_, oc_, orad_), F64) or c_.ndim != 2 or oc_.ndim != 2 or orad_.ndim != 1
            or not isinstance(r_, float) or not isinstance(gap_, float)):
        return None   # (numpy's own types, or its broadcasting, would rule: the reference answers)
    cdef const double[:, :] c = c_
    cdef const double[:, :] oc = oc_
    cdef const double[:] orad = orad_
    cdef double r = r_, gap = gap_
    cdef Py_ssize_t K = c.shape[0], N = oc.shape[0], k, j
    if c.shape[1] != 2 or oc.shape[1] != 2 or orad.shape[0] != N:
        return None   # (numpy's broadcasting, or its error: the reference's)
    lo2_, hi2_ = np.empty(N), np.empty(N)
    cdef double[::1] lo2 = lo2_, hi2 = hi2_
    cdef double lim, t, dx, dy, d2, band = DISCS_BAND
    for j in range(N):
        lim = (r + orad[j]) + gap
        t = lim + band
        hi2[j] = t * t
        t = lim - band
        lo2[j] = t * t
    out_ = np.empty(K, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef bint far, near, ok
    for k in range(K):
        far, near = True, False
        for j in range(N):
            dx = c[k, 0] - oc[j, 0]
            dy = c[k, 1] - oc[j, 1]
            d2 = dx * dx + dy * dy
            if not (d2 > hi2[j]):
                far = False
            if d2 < lo2[j]:
                near = True
            if near and not far:
                break   # (short of a limit and not clear of every one: refused, whatever follows)
        if far:
            ok = True
        elif near:
            ok = False
        else:   # (in the band: measured)
            ok = True
            for j in range(N):
                if not (((hypot(c[k, 0] - oc[j, 0], c[k, 1] - oc[j, 1]) - r) - orad[j]) >= gap):
                    ok = False
                    break
        out[k] = ok
    return out_

# The compiled twins of sim.rules.visibility.kernels: a segment against the terrain's pieces,
# and the tolerance every sight twin shares. One file of sight.pyx, which says what every twin
# holds to (this folder mirrors sim/rules/visibility: a file for each module with twins).


cdef double SIGHT_EPS = 1e-9      # visibility.kernels.SIGHT_EPS


def segments_blocked(p0_, p1_, pk, active=None):
    """visibility.kernels.segments_blocked, without ``active`` (the reference's): whether each
    segment p0[s]-p1[s] crosses the open interior of a piece of ``pk``: apart on a piece's edge
    normal (the nearer end's projection, numpy's einsum of two terms: a sum from +0.0, at least
    the edge's offset less SIGHT_EPS) or on the segment's own unit normal (a segment of length
    above 1e-12: the piece's projections all on one side of its own, within SIGHT_EPS), else
    crossing. Each test the reference's arithmetic; the answer is whether any piece crosses, so
    the first found ends a segment's. Places that are no number well within range are the
    reference's."""
    if active is not None or not _all_of((p0_, p1_), F64) or p0_.ndim != 2 or p1_.ndim != 2:
        return None
    nrm_, offs_, verts_ = pk.normals, pk.offs, pk.verts
    if not _all_of((nrm_, offs_, verts_), F64) or nrm_.ndim != 3 or offs_.ndim != 2 or verts_.ndim != 3:
        return None
    cdef const double[:, :] p0 = p0_
    cdef const double[:, :] p1 = p1_
    cdef const double[:, :, :] nrm = nrm_
    cdef const double[:, :] offs = offs_
    cdef const double[:, :, :] verts = verts_
    cdef Py_ssize_t S = p0.shape[0], K = nrm.shape[0], V = nrm.shape[1], s, k, v
    if (p1.shape[0] != S or (S and (p0.shape[1] != 2 or p1.shape[1] != 2)) or offs.shape[0] != K
            or offs.shape[1] != V or verts.shape[0] != K or verts.shape[1] != V or (K and V and (nrm.shape[2] != 2 or verts.shape[2] != 2))):
        return None
    if S == 0 or K == 0:
        return np.zeros(S, dtype=bool)
    if V == 0:
        return None
    if not (_bounded(p0[:, 0], 1e150) and _bounded(p0[:, 1], 1e150) and _bounded(p1[:, 0], 1e150)
            and _bounded(p1[:, 1], 1e150)):
        return None
    for k in range(K):
        if not (_bounded(nrm[k, :, 0], 1e150) and _bounded(nrm[k, :, 1], 1e150) and _bounded(offs[k], 1e150)
                and _bounded(verts[k, :, 0], 1e150) and _bounded(verts[k, :, 1], 1e150)):
            return None
    out_ = np.zeros(S, dtype=bool)
    cdef unsigned char[::1] out = out_.view(np.uint8)
    cdef double ax, ay, bx, by, dx, dy, L, mx, my, s0, a, b, lo, hi, x, eps = SIGHT_EPS
    cdef bint ok, sep
    for s in range(S):
        ax, ay, bx, by = p0[s, 0], p0[s, 1], p1[s, 0], p1[s, 1]
        dx = bx - ax
        dy = by - ay
        L = hypot(dx, dy)
        ok = L > 1e-12
        mx = -dy / L if ok else 0.0
        my = dx / L if ok else 0.0
        s0 = (0.0 + mx * ax) + my * ay
        for k in range(K):
            sep = False
            for v in range(V):
                a = (0.0 + ax * nrm[k, v, 0]) + ay * nrm[k, v, 1]
                b = (0.0 + bx * nrm[k, v, 0]) + by * nrm[k, v, 1]
                if _min(a, b) >= offs[k, v] - eps:
                    sep = True
                    break
            if not sep and ok:
                lo = INFINITY
                hi = -INFINITY
                for v in range(V):
                    x = (0.0 + mx * verts[k, v, 0]) + my * verts[k, v, 1]
                    lo = _min(lo, x)
                    hi = _max(hi, x)
                sep = lo >= s0 - eps or hi <= s0 + eps
            if not sep:
                out[s] = 1
                break
    return out_

# The compiled twins of sim.rules.movement.round_paths: the pieces near a box, and round bases'
# paths clear of the terrain and other bases. One file of move.pyx, which says what every twin
# holds to (this folder's files are named after the modules whose kernels they twin).


def box_near(lo_, hi_, es):
    """movement.legality._box_near: (K, P), box k (its ``lo`` and ``hi`` corners) meets the
    bounding box of polygon p of ``es``."""
    if not _all_of((lo_, hi_, es.lo, es.hi), F64):
        return None
    cdef const double[:, :] lo = lo_
    cdef const double[:, :] hi = hi_
    cdef const double[:, :] plo = es.lo
    cdef const double[:, :] phi = es.hi
    cdef Py_ssize_t K = lo.shape[0], P = plo.shape[0], k, p
    out_ = np.empty((K, P), dtype=bool)
    cdef unsigned char[:, ::1] out = out_.view(np.uint8)
    for k in range(K):
        for p in range(P):
            out[k, p] = (lo[k, 0] <= phi[p, 0] and hi[k, 0] >= plo[p, 0]
                         and lo[k, 1] <= phi[p, 1] and hi[k, 1] >= plo[p, 1])
    return out_


# (sim.rules.movement.index.TOUCH: a test holds the two equal)
MOVE_TOUCH = 1e-7
_CORE_EDGES = []   # (sim.rules.movement.kernels.core_edges, found when first needed)


def round_paths_clear(V_, VR_, A_, B_, R_, board, idx, blockers_, dense):
    """movement.round_paths._round_paths_clear: whether round bases moving along the segments
    A[s]-B[s] (radius R[s]; their paths' vertices V, radii VR) go over no battlefield edge,
    cross no base of ``blockers`` (rows of the body index ``idx``) and no polygon of ``dense``:
    each test round_path_hits' arithmetic for its entry (the edge's maxima, the rows near the
    segments' box, the point-to-segment distance, the segment-to-polygon distance of each
    hull's core and of each feature whose box meets the segment's), False at the first breach
    found (the answer is whether there is one, so the order is free). Inputs of other types, or
    places that are no finite number, are the reference's."""
    if not (_all_of((V_, VR_, A_, B_, R_), F64) and _all_of((blockers_,), INTP)):
        return None
    if V_.ndim != 2 or A_.ndim != 2 or B_.ndim != 2 or VR_.ndim != 1 or R_.ndim != 1 or blockers_.ndim != 1:
        return None
    cdef const double[:, :] V = V_
    cdef const double[:] VR = VR_
    cdef const double[:, :] A = A_
    cdef const double[:, :] B = B_
    cdef const double[:] R = R_
    cdef Py_ssize_t K = V.shape[0], S = A.shape[0], k, s, i, j, p, m
    if VR.shape[0] != K or B.shape[0] != S or R.shape[0] != S or (K and V.shape[1] != 2) or (S and (A.shape[1] != 2 or B.shape[1] != 2)):
        return None
    if not (_finite(V[:, 0]) and _finite(V[:, 1]) and _finite(VR) and _finite(A[:, 0]) and _finite(A[:, 1])
            and _finite(B[:, 0]) and _finite(B[:, 1]) and _finite(R)):
        return None
    cdef double W = board[0], H = board[1], touch = MOVE_TOUCH
    cdef double over, ax, ay, bx, by, apx, apy, abx, aby, den, t, dx, dy, d, lim
    # 4. the battlefield edge: every vertex's base inside the board
    for k in range(K):
        over = _max(_max(VR[k] - V[k, 0], VR[k] - V[k, 1]), _max(V[k, 0] + VR[k] - W, V[k, 1] + VR[k] - H))
        if over > touch:
            return False
    if S == 0:
        return True
    # 3. enemy bases: the rows whose box meets the segments' (rows_near_box)
    cdef const Py_ssize_t[:] blockers = blockers_
    cdef _Bodies bv = _bodies(idx)
    if bv is None:
        return None
    cdef const double[:] xlo = bv.xlo
    cdef const double[:] xhi = bv.xhi
    cdef const double[:] ylo = bv.ylo
    cdef const double[:] yhi = bv.yhi
    cdef const double[:, :] centres = bv.centres
    cdef const double[:] radius = bv.radius
    cdef const unsigned char[:] rnd = bv.rnd
    if not _indices(blockers, bv.N):
        return None
    cdef double lo0 = A[0, 0], lo1 = A[0, 1], hi0 = A[0, 0], hi1 = A[0, 1], rmax = R[0]
    for s in range(S):
        lo0 = _min(_min(lo0, A[s, 0]), B[s, 0])
        lo1 = _min(_min(lo1, A[s, 1]), B[s, 1])
        hi0 = _max(_max(hi0, A[s, 0]), B[s, 0])
        hi1 = _max(_max(hi1, A[s, 1]), B[s, 1])
        rmax = _max(rmax, R[s])
    cdef double pad = rmax + 0.0 + 1e-6
    lo0 -= pad
    lo1 -= pad
    hi0 += pad
    hi1 += pad
    cdef _Edges ed
    for i in range(blockers.shape[0]):
        j = blockers[i]
        if not (xhi[j] >= lo0 and xlo[j] <= hi0 and yhi[j] >= lo1 and ylo[j] <= hi1):
            continue
        if rnd[j]:
            for s in range(S):
                ax, ay = A[s, 0], A[s, 1]
                abx = B[s, 0] - ax
                aby = B[s, 1] - ay
                apx = centres[j, 0] - ax
                apy = centres[j, 1] - ay
                den = abx * abx + aby * aby
                t = apx * abx
                t += apy * aby
                t /= den if den > 0 else 1.0
                t = _min(_max(t, 0.0), 1.0)
                dx = apx - t * abx
                dy = apy - t * aby
                d = sqrt(dx * dx + dy * dy)
                lim = R[s] + radius[j]
                if d < lim - touch:
                    return False
        else:
            if not _CORE_EDGES:
                from sim.rules.movement.kernels import core_edges
                _CORE_EDGES.append(core_edges)
            ed = _edges(_CORE_EDGES[0](idx.fps[j]))
            if ed is None:
                return None
            for s in range(S):
                d = _seg_poly_d(A[s, 0], A[s, 1], B[s, 0], B[s, 1], ed, 0)
                if d != d:
                    return None
                if d < R[s] - touch:
                    return False
    # 5. dense features: those whose box meets a segment's grown by its radius (_box_near)
    if len(dense) == 0:
        return True
    ed = _edges(dense)
    if ed is None or not _all_of((dense.lo, dense.hi), F64):
        return None
    cdef const double[:, :] plo = dense.lo
    cdef const double[:, :] phi = dense.hi
    if plo.shape[0] != ed.P or phi.shape[0] != ed.P:
        return None
    cdef double slo0, slo1, shi0, shi1
    for s in range(S):
        ax, ay, bx, by = A[s, 0], A[s, 1], B[s, 0], B[s, 1]
        slo0 = _min(ax, bx) - R[s]
        slo1 = _min(ay, by) - R[s]
        shi0 = _max(ax, bx) + R[s]
        shi1 = _max(ay, by) + R[s]
        for p in range(ed.P):
            if not (slo0 <= phi[p, 0] and shi0 >= plo[p, 0] and slo1 <= phi[p, 1] and shi1 >= plo[p, 1]):
                continue
            d = _seg_poly_d(ax, ay, bx, by, ed, p)
            if d != d:
                return None
            if d < R[s] - touch:
                return False
    return True

# The compiled twin of sim.rules.coherency: unit coherency's screen, from each pair's bounds.
# One file of move.pyx, which says what every twin holds to (this folder's files are named after
# the modules whose kernels they twin).


# (sim.rules.coherency's _SLACK, COHERENCY_LINK, COHERENCY_SPAN and _OVAL_INNER, cos(pi /
# OVAL_VERTICES): a test holds each equal to its source)
COHERENCY_SLACK = 1e-6
COHERENCY_LINK = 2.0
COHERENCY_SPAN = 9.0
COHERENCY_OVAL_INNER = cos(3.141592653589793 / 64)
# inches: a pair's bound this near a threshold is left to the reference (its math.hypot and
# C's hypot may differ in the last bit: ~1e-14 at these distances)
COHERENCY_BAND = 1e-9
cdef enum:
    _CO_MAX = 64    # (the most models a unit's verdict is worked out for here: bit sets of 64)


def coherency_code(fps_):
    """coherency._coherency_code: 0 (surely not coherent), 1 (surely) or 2 (open), from the
    same bounds pair by pair in the same order: the centres' distance (C's hypot, where the
    reference has math.hypot: both within an ulp of the true value) less both bounding radii
    and less both inner radii. A bound within COHERENCY_BAND of a threshold it is compared with
    is left to the reference (None); so is a unit of more than 64 models, a shape it does not
    know, and a place or size that is no finite number. The links are bit sets, the groups
    grown from the first model as the reference's search grows them."""
    cdef Py_ssize_t n = len(fps_), i, j
    if n <= 1:
        return 1
    if n > _CO_MAX:
        return None
    cdef double cx[_CO_MAX]
    cdef double cy[_CO_MAX]
    cdef double inner[_CO_MAX]
    cdef double outer[_CO_MAX]
    cdef unsigned long long maybe[_CO_MAX]
    cdef unsigned long long sure[_CO_MAX]
    cdef double length, width, h
    cdef double oval_inner = COHERENCY_OVAL_INNER, slack = COHERENCY_SLACK, band = COHERENCY_BAND
    cdef double link_lo = COHERENCY_LINK - slack, link_hi = COHERENCY_LINK + slack
    cdef double span_lo = COHERENCY_SPAN - slack, span_hi = COHERENCY_SPAN + slack
    cdef double c, lo, hi, xi, yi, ii, oi
    cdef bint spans = True
    for i in range(n):
        f = fps_[i]
        shape = f.shape
        length, width = f.length, f.width
        cx[i], cy[i] = f.x, f.y
        if shape == "round":
            inner[i] = 0.5 * length
        elif shape == "rect" or shape == "oval":
            h = 0.5 * (width if width < length else length)     # (Python's min(length, width))
            inner[i] = h if shape == "rect" else h * oval_inner
        else:
            return None
        outer[i] = f.bounding_radius
        if not (cx[i] - cx[i] == 0.0 and cy[i] - cy[i] == 0.0 and inner[i] - inner[i] == 0.0
                and outer[i] - outer[i] == 0.0):
            return None
        maybe[i] = sure[i] = 0
    for i in range(n):
        xi, yi, ii, oi = cx[i], cy[i], inner[i], outer[i]
        for j in range(i + 1, n):
            c = hypot(cx[j] - xi, cy[j] - yi)
            lo = c - oi - outer[j]
            hi = c - ii - inner[j]
            if (fabs(lo - span_hi) <= band or fabs(hi - span_lo) <= band or fabs(lo - link_hi) <= band
                    or fabs(hi - link_lo) <= band):
                return None
            if lo > span_hi:
                return 0
            if hi > span_lo:
                spans = False
            if lo <= link_hi:
                maybe[i] |= 1ULL << j
                maybe[j] |= 1ULL << i
                if hi <= link_lo:
                    sure[i] |= 1ULL << j
                    sure[j] |= 1ULL << i
    if not _co_connected(maybe, n):
        return 0
    return 1 if spans and _co_connected(sure, n) else 2


cdef bint _co_connected(unsigned long long* adj, Py_ssize_t n) nogil:
    """Whether the links join every one of the ``n`` models into one group (from the first)."""
    cdef unsigned long long seen = 1, todo = 1, nxt
    cdef Py_ssize_t k
    while todo:
        nxt = 0
        for k in range(n):
            if todo & (1ULL << k):
                nxt |= adj[k]
        todo = nxt & ~seen
        seen |= nxt
    return seen == ((1ULL << n) - 1 if n < 64 else ~0ULL)

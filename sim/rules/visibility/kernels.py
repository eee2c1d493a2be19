"""06.01 / 13.10 / 13.11 Line-of-sight geometry kernels (numpy), used by sim.rules.visibility.sight.

Blockers are convex pieces (polygons). A sight line is blocked by a piece when it enters the
piece's *open interior* by more than ``SIGHT_EPS`` (1e-9"); grazing a corner or running
along an edge is not crossing. Non-convex polygons are split with
``sim.rules.polygons.convex_pieces`` so that the union of open pieces is the open polygon.

Exact model-to-model sight (``pair_visible``): in the 2-parameter space of lines meeting both
footprints, a line is usable iff its shortest A-to-B part (A's exit point to B's entry point)
is unblocked; any sight segment contains that part, so nothing is lost. The usable set is
closed; every constraint bounding it is a graph s = f(theta) of one of: "touches footprint
A (at the disc of one of its core vertices)", "touches footprint B", "passes through an
obstacle vertex" (or a point where an obstacle edge crosses a footprint's outline). A
non-empty compact component therefore has a leftmost point where a lower and an upper
constraint meet: a line touching/passing through two *generators* (discs of radius r about
footprint core vertices, obstacle vertices as discs of radius 0). So testing the common
tangent lines of every pair of generators (only generators inside the convex hull of A and
B matter) decides sight exactly, up to the 1e-9" crossing tolerance.

Point-to-footprint sight (``points_visible_from``) is the 1-parameter version: lines through
the point that are tangent to A or pass through an obstacle vertex.
"""

from __future__ import annotations

import numpy as np
from sim.rules.arrays import any_last, flatnonzero, min_max_last, roll_next, tile
from sim.rules.compiled import kernel

__all__ = ["Pieces", "segments_blocked", "pair_visible", "pair_witness", "footprint_fully_visible", "points_visible_from", "SIGHT_EPS"]

SIGHT_EPS = 1e-9
_TOL = 1e-9


class Pieces:
    """Convex blocker pieces packed into padded arrays.

    verts (K, V, 2) counter-clockwise, padded by repeating the first vertex; normals (K, V, 2)
    unit outward edge normals (padded by repeating the first edge); offs (K, V) = normal . vertex;
    bbox (K, 4) = xmin, ymin, xmax, ymax; nverts (K,). For the batched stages: ``soa`` (the
    vertex-major copies), ``circle`` (bounding circles: centre x, y and radius), ``convex``
    (no reflex vertex) and ``vid`` (K, V) (one id per distinct vertex position).
    """

    __slots__ = ("verts", "normals", "offs", "bbox", "nverts", "soa", "circle", "convex", "vid")

    def __init__(self, polys: list[np.ndarray]):
        K = len(polys)
        V = max((len(p) for p in polys), default=3)
        verts = np.zeros((K, V, 2))
        normals = np.zeros((K, V, 2))
        self.nverts = np.array([len(p) for p in polys], dtype=np.int64)
        for k, p in enumerate(polys):
            n = len(p)
            verts[k, :n] = p
            verts[k, n:] = p[0]
            e = roll_next(p) - p
            nr = np.stack([e[:, 1], -e[:, 0]], axis=1)
            nr /= np.linalg.norm(nr, axis=1, keepdims=True)
            normals[k, :n] = nr
            normals[k, n:] = nr[0]
        self.verts = verts
        self.normals = normals
        self.offs = np.einsum("kvi,kvi->kv", normals, verts)
        if K:
            self.bbox = np.concatenate([verts.min(axis=1), verts.max(axis=1)], axis=1)
        else:
            self.bbox = np.zeros((0, 4))
        self._pack()

    def _pack(self) -> None:
        """Structure-of-arrays copies for the batched kernels, vertex-major so that gathers
        (``take(k, axis=1)``) and reductions over a piece's vertices run on contiguous rows:
        ``soa`` = (nx, ny, offs, vx, vy), each (V, K)."""
        self.soa = tuple(np.ascontiguousarray(a.T) for a in (
            self.normals[..., 0], self.normals[..., 1], self.offs,
            self.verts[..., 0], self.verts[..., 1]))
        # bounding circles: box centre and the farthest vertex (cx, cy, radius)
        c = 0.5 * (self.bbox[:, :2] + self.bbox[:, 2:])
        d = self.verts - c[:, None, :]
        rho = np.sqrt((d * d).sum(axis=2)).max(axis=1) if len(self) else np.zeros(0)
        self.circle = (c[:, 0].copy(), c[:, 1].copy(), rho)
        # convex (counter-clockwise, no reflex vertex): polygons.convex_pieces can return a
        # non-convex "rhombus" along a diagonal; the kernels' separating-axis test then blocks
        # less than the polygon, so the certificates that rely on convexity skip it
        e = roll_next(self.verts, 1) - self.verts
        cr = e[..., 0] * roll_next(e, 1)[..., 1] - e[..., 1] * roll_next(e, 1)[..., 0]
        self.convex = (cr >= -1e-12).all(axis=1)
        # one id per distinct vertex position (pieces of one polygon share vertices)
        self.vid = np.unique(self.verts.reshape(-1, 2), axis=0, return_inverse=True)[1] \
            .reshape(self.verts.shape[:2]) if len(self) else np.zeros(self.verts.shape[:2], int)

    def __len__(self) -> int:
        return len(self.nverts)

    def subset(self, idx) -> "Pieces":
        out = Pieces.__new__(Pieces)
        out.verts, out.normals = self.verts[idx], self.normals[idx]
        out.offs, out.bbox, out.nverts = self.offs[idx], self.bbox[idx], self.nverts[idx]
        out.soa = tuple(np.ascontiguousarray(a[:, idx]) for a in self.soa)
        out.circle = tuple(a[idx] for a in self.circle)
        out.convex = self.convex[idx]
        out.vid = self.vid[idx]
        return out

    def vertex_list(self) -> np.ndarray:
        return np.concatenate([self.verts[k, : self.nverts[k]] for k in range(len(self))]) \
            if len(self) else np.zeros((0, 2))


def segments_blocked(p0: np.ndarray, p1: np.ndarray, pk: Pieces, active=None) -> np.ndarray:
    """13.11 For segments p0-p1 (S, 2): does each cross the open interior of an (active) piece?

    Separating-axis test per segment and piece: the piece's edge normals and the segment's
    normal; overlap of SIGHT_EPS or less on some axis means "not crossing". ``active`` is an
    optional (S, K) or (K,) mask of the pieces that count for each segment.
    """
    S = len(p0)
    if S == 0 or len(pk) == 0:
        return np.zeros(S, dtype=bool)
    nrm, offs = pk.normals, pk.offs
    a = np.einsum("si,kvi->skv", p0, nrm)
    b = np.einsum("si,kvi->skv", p1, nrm)
    np.minimum(a, b, out=a)
    sep = any_last(a >= offs[None] - SIGHT_EPS)
    d = p1 - p0
    L = np.hypot(d[:, 0], d[:, 1])
    ok = L > 1e-12
    m = np.zeros_like(d)
    m[ok, 0] = -d[ok, 1] / L[ok]
    m[ok, 1] = d[ok, 0] / L[ok]
    vp = np.einsum("si,kvi->skv", m, pk.verts)
    s0 = np.einsum("si,si->s", m, p0)[:, None]
    lo, hi = min_max_last(vp)
    sep_m = (lo >= s0 - SIGHT_EPS) | (hi <= s0 + SIGHT_EPS)
    sep |= sep_m & ok[:, None]
    cross = ~sep
    if active is not None:
        cross &= np.asarray(active, dtype=bool)
    return cross.any(axis=1)


# (its compiled twin runs where built, for calls without ``active``: sim.rules.compiled)
segments_blocked = kernel("visibility.segments_blocked", segments_blocked)


def _common_tangents(c1, r1, c2, r2):
    """Lines tangent to both discs (c1, r1), (c2, r2) (arrays (M,2),(M,)): unit normals n and
    offsets s (n . x = s), shape (kM, 2), (kM,) grouped by combination (k = 4, or 2 when one
    side is all points, 1 when both are); invalid lines have NaN."""
    d = c1 - c2
    D2 = np.einsum("mi,mi->m", d, d)
    perp = np.stack([-d[:, 1], d[:, 0]], axis=1)
    ns, ss = [], []
    zero1, zero2 = not np.any(r1), not np.any(r2)
    signs = (1.0,) if (zero1 or zero2) else (1.0, -1.0)
    roots = (1.0,) if (zero1 and zero2) else (1.0, -1.0)
    for sgn in signs:
        delta = r1 - sgn * r2
        h2 = D2 - delta * delta
        valid = (D2 > 1e-18) & (h2 >= -1e-12)
        h = np.sqrt(np.maximum(h2, 0.0))
        D2s = np.where(D2 > 1e-18, D2, 1.0)
        for root in roots:
            n = (delta[:, None] * d + root * h[:, None] * perp) / D2s[:, None]
            n[~valid] = np.nan
            ns.append(n)
            ss.append(np.einsum("mi,mi->m", n, c1) - r1)
    return np.concatenate(ns), np.concatenate(ss)


def _supports(core_pts, k, d) -> np.ndarray:
    """For lines through vertex ``k`` (array of indices) of a convex polygon core (3+ vertices,
    radius 0) with directions ``d`` (array (L, 2)): does each line support the polygon (the
    polygon wholly on one side; within a relative 1e-9)? A line through a vertex that cuts
    the polygon is tangent to no part of it, so it bounds no set of sight lines: of the lines
    through a polygon's vertex only the supporting ones are critical (the polygon's outline
    is met by the others, never grazed). Round cores (one generator with a radius) get their
    tangents from ``_common_tangents`` and need no filter."""
    V = len(core_pts)
    prev = core_pts[(k - 1) % V] - core_pts[k]
    nxt = core_pts[(k + 1) % V] - core_pts[k]
    c1 = d[:, 0] * prev[:, 1] - d[:, 1] * prev[:, 0]
    c2 = d[:, 0] * nxt[:, 1] - d[:, 1] * nxt[:, 0]
    dl = np.hypot(d[:, 0], d[:, 1])
    e1 = 1e-9 * dl * np.hypot(prev[:, 0], prev[:, 1])
    e2 = 1e-9 * dl * np.hypot(nxt[:, 0], nxt[:, 1])
    return ((c1 >= -e1) & (c2 >= -e2)) | ((c1 <= e1) & (c2 <= e2))


def _near(n, s, core_pts, r) -> np.ndarray:
    """Lines (n, s) that can meet a footprint (convex core + radius): within its bounding
    circle (the core's vertex mean, the farthest vertex plus the radius) grown by 1e-6. A
    line farther off misses the footprint, so ``_chord`` would give it NaN: dropping such
    lines first changes no answer and keeps the others in order."""
    c = core_pts.mean(axis=0)
    R = float(np.sqrt(((core_pts - c) ** 2).sum(axis=1).max())) + r + 1e-6
    return np.abs(n @ c - s) <= R


def _chord(n, s, core_pts, r):
    """Interval [t0, t1] (along u = perp(n), from x0 = n*s) where each line meets a footprint
    given as convex core + radius. Returns (t0, t1) with NaN where the line misses it."""
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    if len(core_pts) == 1:
        c = core_pts[0]
        w = c[None, :] - x0
        tc = np.einsum("li,li->l", w, u)
        dist = np.abs(np.einsum("li,li->l", w, n))
        ok = dist <= r + _TOL
        half = np.sqrt(np.maximum(r * r - dist * dist, 0.0))
        t0 = np.where(ok, tc - half, np.nan)
        t1 = np.where(ok, tc + half, np.nan)
        return t0, t1
    # convex polygon core, radius 0: clip the line
    di = core_pts @ n.T - s[None, :]          # (V, L) signed distance of vertices
    ti = (core_pts @ u.T) - np.einsum("li,li->l", x0, u)[None, :]
    if len(core_pts) <= _CHORD_FEW:     # (a rectangle: most of its edges are candidates)
        return _chord_reduce(di, ti)
    return _chord_candidates(di, ti)


# (a core of more vertices than this, an oval's, is clipped by _chord_candidates: a line meets
# two of its 64 edges; a rectangle's 4 by _chord_reduce, as fast or faster at any count of lines)
_CHORD_FEW = 8


def _chord_candidates(di, ti):
    """``_chord_reduce``'s answer, every bit, measuring only each line's candidates: an edge
    (k, k + 1) whose ends' distances multiply to 0 or less (and differ), and a vertex within
    _TOL of the line. Such an edge has ends on both sides of 0 or an end within _TOL (a
    product underflowing to 0 included); each candidate is measured as _chord_reduce measures
    every entry, and each line's least and greatest found by fmin.at / fmax.at."""
    V, L = di.shape
    below = di <= 0
    on = np.abs(di) <= _TOL
    cand = below != roll_next(below)
    cand |= on
    cand |= roll_next(on)
    k, li = cand.nonzero()
    kn = k + 1
    kn[kn == V] = 0
    a, b = di[k, li], di[kn, li]
    den = a - b
    cross = (a * b <= 0) & (np.abs(den) > 1e-15)
    k, li, kn, a, den = k[cross], li[cross], kn[cross], a[cross], den[cross]
    tk = ti[k, li]
    rv, lv = on.nonzero()
    vals = np.concatenate([tk + (ti[kn, li] - tk) * a / den, ti[rv, lv]])
    t0, t1 = np.full(L, np.nan), np.full(L, np.nan)
    if len(vals):
        if not vals.all():      # (a crossing at 0: a tie of 0 and -0 is left to the reduction's order)
            return _chord_reduce(di, ti)
        # (each line's least and greatest: without a 0 no two distinct values tie, so the
        # order they are met in changes no bit)
        lines = np.concatenate([li, lv])
        np.fmin.at(t0, lines, vals)
        np.fmax.at(t1, lines, vals)
    return t0, t1


def _chord_reduce(di, ti):
    """``_chord``'s polygon clip from the vertices' signed distances ``di`` and positions
    ``ti`` along each line ((V, L) each): every edge crossing and every vertex within _TOL of
    the line, the least and greatest of each line by one reduction over them all (NaN where
    a line has none)."""
    dj = roll_next(di)
    tj = roll_next(ti)
    den = di - dj
    cross = (di * dj <= 0) & (np.abs(den) > 1e-15)
    te = np.where(cross, ti + (tj - ti) * di / np.where(cross, den, 1.0), np.nan)
    tv = np.where(np.abs(di) <= _TOL, ti, np.nan)
    allt = np.concatenate([te, tv], axis=0)
    # (the least and greatest crossing of each line, NaN where it has none: fmin and fmax pass
    # over NaN, so a column of NaN only stays NaN; the same values as a min over the others)
    return np.fmin.reduce(allt, axis=0), np.fmax.reduce(allt, axis=0)


def _outline_crossings(core_pts, r, pk: Pieces) -> np.ndarray:
    """Points where blocker edges cross a footprint's outline (only matters when a blocker
    overlaps a base): extra generators for the exact test."""
    if len(pk) == 0:
        return np.zeros((0, 2))
    a = pk.verts.reshape(-1, 2)
    b = roll_next(pk.verts, 1).reshape(-1, 2)
    out = []
    if len(core_pts) == 1:
        c = core_pts[0]
        d = b - a
        f = a - c
        A = np.einsum("ei,ei->e", d, d)
        B = 2 * np.einsum("ei,ei->e", f, d)
        C = np.einsum("ei,ei->e", f, f) - r * r
        disc = B * B - 4 * A * C
        ok = (A > 0) & (disc >= 0)
        sq = np.sqrt(np.where(ok, disc, 0.0))
        for sgn in (-1.0, 1.0):
            t = (-B + sgn * sq) / np.where(A > 0, 2 * A, 1.0)
            good = ok & (t >= 0) & (t <= 1)
            out.append(a[good] + t[good, None] * d[good])
    else:                                   # (core edge i, blocker edge j) arrays
        p = core_pts
        e = roll_next(p) - p
        d = b - a
        ex, ey, dx, dy = e[:, 0:1], e[:, 1:2], d[:, 0], d[:, 1]
        den = ex * dy - ey * dx
        wx, wy = a[:, 0] - p[:, 0:1], a[:, 1] - p[:, 1:2]
        ok = np.abs(den) > 1e-15
        dd = np.where(ok, den, 1.0)
        t = (wx * dy - wy * dx) / dd
        v = (wx * ey - wy * ex) / dd
        good = ok & (t >= 0) & (t <= 1) & (v >= 0) & (v <= 1)
        i, _ = good.nonzero()                 # core-edge-major, as one edge at a time
        out.append(p[i] + t[good, None] * e[i])
    return np.concatenate(out) if out else np.zeros((0, 2))


def _overlaps_footprint(core_pts, r, pk: Pieces) -> bool:
    """Whether some piece overlaps the footprint (then the part of it a sight line may reach
    is not convex: its outline crossings are extra generators, and lines through its vertices
    that cut it can be critical). A round base: its centre within ``r`` of every edge line of
    a piece (a grown piece: may say yes when the disc only nears a corner, which only adds
    generators). A polygon core: a core vertex inside a piece, a piece vertex inside the core,
    or an edge of one crossing an edge of the other."""
    if len(pk) == 0:
        return False
    if len(core_pts) == 1:
        d = np.einsum("i,kvi->kv", core_pts[0], pk.normals) - pk.offs
        return bool(np.any(d.max(axis=1) < r - 1e-9))
    d = np.einsum("ci,kvi->kcv", core_pts, pk.normals) - pk.offs[:, None, :]
    if np.any(d.max(axis=2) < -1e-9):
        return True
    e = roll_next(core_pts) - core_pts
    v = pk.vertex_list()
    w = v[:, None, :] - core_pts[None, :, :]
    if np.any(((e[None, :, 0] * w[..., 1] - e[None, :, 1] * w[..., 0]) > 1e-9).all(axis=1)):
        return True
    return len(_outline_crossings(core_pts, r, pk)) > 0


def pair_visible(a_core, a_r, b_core, b_r, pk: Pieces, hull_pts: np.ndarray | None = None) -> bool:
    """06.01 Exact: is some segment from footprint A to footprint B free of every piece?

    ``pk`` should already be limited to pieces that can meet the convex hull of A and B.
    ``hull_pts`` optionally gives the obstacle vertices to use (default: all of pk's).
    """
    return pair_witness(a_core, a_r, b_core, b_r, pk, hull_pts) is not None


def pair_witness(a_core, a_r, b_core, b_r, pk: Pieces, hull_pts: np.ndarray | None = None):
    """06.01 Exact: an unblocked segment (p, q) from A to B, or None if there is none."""
    if len(pk) == 0:
        return (a_core.mean(axis=0), b_core.mean(axis=0))
    gens_c = [a_core, b_core]
    gens_r = [np.full(len(a_core), a_r), np.full(len(b_core), b_r)]
    tags = [np.zeros(len(a_core), dtype=np.int64), np.ones(len(b_core), dtype=np.int64)]
    obst = pk.vertex_list() if hull_pts is None else hull_pts
    extra = []
    over_a = _overlaps_footprint(a_core, a_r, pk)
    over_b = _overlaps_footprint(b_core, b_r, pk)
    if over_a:
        extra.append(_outline_crossings(a_core, a_r, pk))
    if over_b:
        extra.append(_outline_crossings(b_core, b_r, pk))
    if extra:
        obst = np.concatenate([obst] + extra)
    gens_c.append(obst)
    gens_r.append(np.zeros(len(obst)))
    tags.append(np.full(len(obst), 2, dtype=np.int64))
    C = np.concatenate(gens_c)
    R = np.concatenate(gens_r)
    T = np.concatenate(tags)
    i, j = np.triu_indices(len(C), k=1)
    keep = (T[i] != T[j]) | (T[i] == 2)
    i, j = i[keep], j[keep]
    # lines through a vertex of a polygon core: only the supporting ones (_supports), unless a
    # piece overlaps that footprint (the part left to reach is not convex); A's vertices come
    # first in C, then B's (i < j, so an A vertex is always at i)
    ka = len(a_core)
    if ka >= 3 and not over_a:
        on = flatnonzero(T[i] == 0)
        keep = np.ones(len(i), dtype=bool)
        keep[on] = _supports(a_core, i[on], C[j[on]] - C[i[on]])
        i, j = i[keep], j[keep]
    if len(b_core) >= 3 and not over_b:
        on_i = flatnonzero(T[i] == 1)            # (B vertex, obstacle point)
        on_j = flatnonzero(T[j] == 1)            # (A generator, B vertex)
        keep = np.ones(len(i), dtype=bool)
        keep[on_i] = _supports(b_core, i[on_i] - ka, C[j[on_i]] - C[i[on_i]])
        keep[on_j] &= _supports(b_core, j[on_j] - ka, C[i[on_j]] - C[j[on_j]])
        i, j = i[keep], j[keep]
    n, s = _common_tangents(C[i], R[i], C[j], R[j])
    good = ~np.isnan(n[:, 0])
    good &= _near(n, s, a_core, a_r) & _near(n, s, b_core, b_r)
    n, s = n[good], s[good]
    if len(n) == 0:
        return None
    ta0, ta1 = _chord(n, s, a_core, a_r)
    tb0, tb1 = _chord(n, s, b_core, b_r)
    ok = ~(np.isnan(ta0) | np.isnan(tb0))
    if not ok.any():
        return None
    n, s, ta0, ta1, tb0, tb1 = n[ok], s[ok], ta0[ok], ta1[ok], tb0[ok], tb1[ok]
    fwd = ta1 <= tb0 + _TOL
    bwd = tb1 <= ta0 + _TOL
    ov = flatnonzero(~fwd & ~bwd)
    if len(ov):  # the footprints overlap along this line: they touch
        x = n[ov[0]] * s[ov[0]] + 0.5 * (max(ta0[ov[0]], tb0[ov[0]]) + min(ta1[ov[0]], tb1[ov[0]])) \
            * np.array([-n[ov[0], 1], n[ov[0], 0]])
        return (x, x)
    t_from = np.where(fwd, ta1, ta0)
    t_to = np.where(fwd, tb0, tb1)
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    p0 = x0 + t_from[:, None] * u
    p1 = x0 + t_to[:, None] * u
    free = flatnonzero(~segments_blocked(p0, p1, pk))
    if len(free) == 0:
        return None
    return (p0[free[0]], p1[free[0]])


def points_visible_from(a_core, a_r, pts: np.ndarray, pk: Pieces,
                        obst: np.ndarray | None = None) -> np.ndarray:
    """06.01 Exact: for each point q (Q, 2), is some segment from footprint A to q unblocked?

    Candidate lines through q: the tangents from q to A's generators and the lines through q
    and each obstacle vertex; between consecutive candidates the blocked/unblocked status of
    the line's A-to-q part cannot change, and the usable set is closed.
    """
    Q = len(pts)
    if Q == 0:
        return np.zeros(0, dtype=bool)
    if len(pk) == 0:
        return np.ones(Q, dtype=bool)
    if obst is None:
        obst = pk.vertex_list()
    direct = _direct_visible(a_core, a_r, pts, pk)
    if direct.all():
        return direct
    rest = flatnonzero(~direct)
    out = direct.copy()
    out[rest] = _points_visible_exact(a_core, a_r, pts[rest], pk, obst)
    return out


def _direct_visible(a_core, a_r, pts, pk: Pieces) -> np.ndarray:
    """The cheap first pass of ``points_visible_from``: the segment from A's boundary
    (towards q from A's centre; a polygon core: from its vertex mean) to q is unblocked."""
    c = a_core.mean(axis=0)
    dq = pts - c
    Lq = np.hypot(dq[:, 0], dq[:, 1])
    start = c + (a_r / np.maximum(Lq, 1e-12))[:, None] * dq if len(a_core) == 1 else \
        c[None].repeat(len(pts), axis=0)
    return ~segments_blocked(start, pts, pk)


def _all_visible_from(a_core, a_r, pts, pk: Pieces, obst: np.ndarray, gens: tuple | None = None) -> bool:
    """06.01 ``points_visible_from(a_core, a_r, pts, pk, obst).all()``, stopping at the first
    point not seen: the same per-point tests (the first pass, then the exact candidate
    lines, each point's own lines, so a point's answer does not depend on its batch), the
    exact ones in batches, each spread over the whole sample list (points in shadow tend to be
    neighbours on B's outline): the first of ``_PTS_CHUNK`` points, each next one four times
    as big, up to ``_PTS_MOST`` (a batch's stages cost about as much for a few points as for
    many, and most pairs asked are seen whole). ``gens``: ``_observer_generators``' answer,
    when the caller has it."""
    rest = flatnonzero(~_direct_visible(a_core, a_r, pts, pk))
    if not len(rest):
        return True
    if gens is None:
        gens = _observer_generators(a_core, a_r, pk, obst)
    parts = -(-len(rest) // _PTS_CHUNK)
    if parts > 1:   # (the points in the order of the spread batches: every parts-th from the j-th)
        rest = np.concatenate([rest[j::parts] for j in range(parts)])
    start, size = 0, _PTS_CHUNK
    while start < len(rest):
        if len(rest) - (start + size) == 1:
            size += 1   # (no batch of one point but a lone one: as the fixed batches never made)
        if not _points_visible_exact(a_core, a_r, pts[rest[start:start + size]], pk, obst, gens).all():
            return False
        start += size
        size = min(4 * size, _PTS_MOST)
    return True


_PTS_CHUNK = 16         # points in the first exact batch of _all_visible_from (then 4x, up to:)
_PTS_MOST = 256


def _observer_generators(a_core, a_r, pk: Pieces, obst: np.ndarray) -> tuple[np.ndarray, bool]:
    """The obstacle generators for sight from footprint A, and whether only the lines
    supporting A at its vertices need trying (``_supports``): so when no piece overlaps A;
    when one does, the part of A a sight line may start from is not convex, so its outline
    crossings join the generators and every line through its vertices is kept."""
    if len(a_core) < 3 or not _overlaps_footprint(a_core, a_r, pk):
        return obst, True
    return np.concatenate([obst, _outline_crossings(a_core, a_r, pk)]), False


def _points_visible_exact(a_core, a_r, pts, pk, obst, gens: tuple | None = None):
    Q = len(pts)
    obst, supports_only = _observer_generators(a_core, a_r, pk, obst) if gens is None else gens
    ka, ko = len(a_core), len(obst)
    # lines through q and A's generators (tangents) and through q and obstacle vertices
    gc = np.concatenate([a_core, obst])
    gr = np.concatenate([np.full(ka, a_r), np.zeros(ko)])
    G = len(gc)
    qi = np.arange(Q).repeat(G)
    gi = tile(np.arange(G), Q)
    if ka >= 3 and supports_only:  # lines through q and a vertex of A: only those supporting
        # A (_supports), unless q is inside A (or on its outline): every line through q kept
        e = roll_next(a_core) - a_core
        w = pts[:, None, :] - a_core[None, :, :]
        into = ((e[None, :, 0] * w[..., 1] - e[None, :, 1] * w[..., 0]) >= -1e-9).all(axis=1)
        on = flatnonzero(gi < ka)
        keep = np.ones(len(qi), dtype=bool)
        keep[on] = _supports(a_core, gi[on], pts[qi[on]] - gc[gi[on]]) | into[qi[on]]
        qi, gi = qi[keep], gi[keep]
    n, s = _common_tangents(pts[qi], np.zeros(len(qi)), gc[gi], gr[gi])
    owner = tile(qi, len(n) // len(qi))
    good = ~np.isnan(n[:, 0])
    good &= _near(n, s, a_core, a_r)
    n, s, owner = n[good], s[good], owner[good]
    ta0, ta1 = _chord(n, s, a_core, a_r)
    ok = ~np.isnan(ta0)
    n, s, owner, ta0, ta1 = n[ok], s[ok], owner[ok], ta0[ok], ta1[ok]
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    tq = np.einsum("li,li->l", pts[owner] - x0, u)
    inside = (tq >= ta0 - _TOL) & (tq <= ta1 + _TOL)
    t_from = np.where(tq >= ta1, ta1, np.where(tq <= ta0, ta0, tq))
    p0 = x0 + t_from[:, None] * u
    p1 = pts[owner]
    free = ~segments_blocked(p0, p1, pk)
    free |= inside
    out = np.zeros(Q, dtype=bool)
    out[owner[free]] = True
    return out


def _line_circle_angles(n, s, c, r) -> np.ndarray:
    """Angles (about c) where lines n . x = s cross the circle (c, r)."""
    d = n @ c - s
    ok = np.abs(d) <= r
    if not ok.any():
        return np.zeros(0)
    n, d = n[ok], d[ok]
    base = np.arctan2(-n[:, 1], -n[:, 0])        # direction from c to the line's foot
    off = np.arccos((d / r).clip(-1.0, 1.0))    # foot is at distance d along -n
    return np.concatenate([base + off, base - off])


def _line_polyline_params(n, s, poly) -> list[np.ndarray]:
    """Per edge of a closed polygon: parameters in (0, 1) where the lines cross it."""
    out = []
    q = roll_next(poly)
    for i in range(len(poly)):
        da = n @ poly[i] - s
        db = n @ q[i] - s
        den = da - db
        ok = (da * db < 0) & (np.abs(den) > 1e-15)
        out.append(da[ok] / den[ok])
    return out


def boundary_samples(b_core, b_r, n, s, ring: int = 16, interior: int = 8) -> np.ndarray:
    """Sample points of footprint B: one point inside every arc of its outline between
    consecutive crossings of the critical lines (n, s), a fixed ring of ``ring`` outline
    points, the centre and an inner ring of ``interior`` points at half size."""
    if len(b_core) == 1:
        c = b_core[0]
        ang = np.concatenate([_line_circle_angles(n, s, c, b_r),
                              np.linspace(0, 2 * np.pi, ring, endpoint=False)])
        ang = np.sort(np.mod(ang, 2 * np.pi))
        mids = 0.5 * (ang + roll_next(ang))
        mids[-1] = 0.5 * (ang[-1] + ang[0] + 2 * np.pi)
        ang = np.concatenate([mids, ang])
        pts = c + b_r * np.stack([np.cos(ang), np.sin(ang)], axis=1)
        t = np.linspace(0, 2 * np.pi, interior, endpoint=False) + np.pi / interior
        inner = c + 0.5 * b_r * np.stack([np.cos(t), np.sin(t)], axis=1)
        return np.concatenate([pts, inner, c[None]])
    poly = b_core
    q = roll_next(poly)
    pts = [poly]
    for i, ts in enumerate(_line_polyline_params(n, s, poly)):
        ts = np.sort(np.concatenate([[0.0, 1.0], ts, np.linspace(0, 1, 4)[1:-1]]))
        mids = 0.5 * (ts[:-1] + ts[1:])
        allt = np.concatenate([mids, ts])
        pts.append(poly[i] + allt[:, None] * (q[i] - poly[i]))
    c = poly.mean(axis=0)
    pts.append(c + 0.5 * (poly - c))
    pts.append(c[None])
    return np.concatenate(pts)


def footprint_fully_visible(a_core, a_r, b_core, b_r, pk: Pieces,
                            obst: np.ndarray | None = None) -> bool:
    """06.01 Fully visible: every sampled point of B is seen from some point of A.

    Each sample is tested exactly (points_visible_from), stopping at the first one not seen
    (``_all_visible_from``). The outline of B is sampled at
    every arc between crossings of the critical lines (lines through an obstacle vertex
    tangent to A, lines through two obstacle vertices), where a point's status can change,
    so the *outline* is checked exactly; B's interior is sampled (centre and a half-size
    ring), which can only miss a shadow that lies wholly inside the base.
    """
    if len(pk) == 0:
        return True
    if obst is None:
        obst = pk.vertex_list()
    gens = crit, supports_only = _observer_generators(a_core, a_r, pk, obst)
    ko = len(crit)
    ns, ss = [], []
    if ko:
        oi = np.arange(ko).repeat(len(a_core))
        ai = tile(np.arange(len(a_core)), ko)
        if len(a_core) >= 3 and supports_only:  # only the lines supporting A at its vertex
            keep = _supports(a_core, ai, crit[oi] - a_core[ai])
            oi, ai = oi[keep], ai[keep]
        n1, s1 = _common_tangents(crit[oi], np.zeros(len(oi)), a_core[ai],
                                  np.full(len(ai), a_r))
        ns.append(n1)
        ss.append(s1)
        if ko > 1:
            i, j = np.triu_indices(ko, k=1)
            n2, s2 = _common_tangents(crit[i], np.zeros(len(i)), crit[j], np.zeros(len(j)))
            ns.append(n2)
            ss.append(s2)
    if ns:
        n = np.concatenate(ns)
        s = np.concatenate(ss)
        good = ~np.isnan(n[:, 0])
        n, s = n[good], s[good]
    else:
        n, s = np.zeros((0, 2)), np.zeros(0)
    pts = boundary_samples(b_core, b_r, n, s)
    return _all_visible_from(a_core, a_r, pts, pk, obst, gens)

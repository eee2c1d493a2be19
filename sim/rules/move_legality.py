"""03.01 Moving units: the path and end-of-move checks of one unit's move (Part A rulings 12-15).

The path model (Part A ruling 14): a model's move is a polyline of its base centre; its length
is the distance used (03.01: the sum of the straight-line segments; rotations are free). The
base keeps its facing along the path and takes its end facing at the last point (rotations
are free and not swept). While moving, the swept base (the base dragged along each segment):

* may cross friendly bases, never enemy bases (03.01) unless the move allows it
  (``through_enemies``: Desperate Escape 09.07, 17.01, taking to the skies 21.03);
  ``impassable`` names enemy models that block even then (17.01: other MONSTER/VEHICLE);
* may not cross the battlefield edge (03.01);
* may cross a dense feature only if the model may (``may_cross_dense``: Part A ruling 12,
  13.06: INFANTRY/BEASTS/SWARM/MOBILE, or taking to the skies); exposed and light features
  never hinder movement (13.06).

At the end (03.01 end-of-move checks, run once for the whole unit): no base overlaps another
model's base, friend or foe (touching is fine); no base overlaps the footprint of a light or
dense feature (Part A ruling 13); the unit is in coherency (03.03); engagement is tested only
here, never mid-path (Part A ruling 15, [FAQ] 03.04) and only when the move type demands an
unengaged end (09.05 normal, 09.06 advance, 09.07 fall back).

Tolerances: lengths and ranges use ``geometry.EPS`` ("within"/"at most" include the limit);
"overlap" means sharing area by more than ``TOUCH`` (1e-7", as ``geometry.overlaps``).

Speed: everything about round bases is vectorised over all segments and all nearby bodies at
once; hull bases (ovals, rectangles) are vectorised over candidate spots through Minkowski
sums and differences of convex cores (exact for the convex cores ``geometry`` uses; features
are split into convex pieces). An immutable ``BodyIndex`` of the table (and a cached
``TerrainIndex``) can be built once and passed instead of the raw sequences when many moves
are checked against one table state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Mapping, Sequence

import numpy as np

from sim.rules.coherency import MoveProblem, coherency_problems_from_matrix
from sim.rules.geometry import (
    EPS, ENGAGEMENT_RANGE, Footprint, core, disc_distances, distance, overlaps,
)
from sim.rules.polygons import ccw, convex_pieces
from sim.rules.terrain import TerrainArea

__all__ = [
    "Body", "MoveProblem", "Point", "BodyIndex", "TerrainIndex", "as_index", "terrain_index",
    "path_length", "check_move", "engaged_units", "unit_distance", "distances_from",
    "path_blocker", "end_blocker", "end_blockers", "blocking_rows", "board_mask", "overlap_mask",
    "feature_mask", "straight_paths_clear", "placed_distances", "placed_overlaps", "near_rows", "fps_distance_matrix", "fps_to_rows", "segments_polys_distance", "EdgeSet", "TOUCH", "START_TOL",
]

Point = tuple[float, float]
TOUCH = 1e-7        # inches of shared area still counted as touching (geometry.overlaps)
START_TOL = 1e-6    # a path's first point must be the model's position to this tolerance

RULE_NAMES = {
    "09.05": "normal move", "09.06": "advance move", "09.07": "fall-back move",
    "11.04": "charge move", "12.03": "pile-in move", "12.08": "consolidation move",
}


def _a(what: str) -> str:
    """'a normal move', 'an advance move'."""
    return ("an " if what[:1] in "aeiou" else "a ") + what


@dataclass(frozen=True, slots=True)
class Body:
    """03.01 One model on the battlefield at its current position: model id, unit id, player."""

    model: str
    unit: str
    player: int
    fp: Footprint


class BodyIndex:
    """01.04 An immutable index of the bodies on the table, in model-id order, as arrays:
    centres, round radii (0 for hulls), bounding radii, players and units. Build it once per
    table state and pass it wherever ``bodies`` is asked for."""

    __slots__ = ("bodies", "ids", "row", "fps", "units", "players", "centres", "radius",
                 "bound", "round", "unit_rows", "_cores")

    def __init__(self, bodies: Sequence[Body]):
        bs = tuple(sorted(bodies, key=lambda b: b.model))
        self.bodies = bs
        self.ids = [b.model for b in bs]
        self.row = {mid: i for i, mid in enumerate(self.ids)}
        if len(self.row) != len(self.ids):
            seen: set[str] = set()
            dup = next(m for m in self.ids if m in seen or seen.add(m))
            raise ValueError(f"03.01 bodies: model id {dup!r} appears twice")
        self.fps = [b.fp for b in bs]
        self.units = [b.unit for b in bs]
        self.players = np.array([b.player for b in bs], dtype=np.int64)
        self.centres = np.array([(f.x, f.y) for f in self.fps], dtype=float).reshape(-1, 2)
        self.round = np.array([f.shape == "round" for f in self.fps], dtype=bool)
        self.radius = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in self.fps])
        self.bound = np.array([f.bounding_radius for f in self.fps], dtype=float)
        rows: dict[str, list[int]] = {}
        for i, u in enumerate(self.units):
            rows.setdefault(u, []).append(i)
        self.unit_rows = {u: np.array(r, dtype=np.int64) for u, r in rows.items()}
        for arr in (self.players, self.centres, self.round, self.radius, self.bound):
            arr.flags.writeable = False
        self._cores: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def core(self, j: int) -> np.ndarray:
        """The convex core polygon of a hull (oval/rect) body ``j``."""
        c = self._cores.get(j)
        if c is None:
            c = self._cores[j] = core(self.fps[j])[0]
        return c

    def player_of(self, unit: str) -> int:
        rows = self.unit_rows.get(unit)
        if rows is None:
            raise ValueError(f"unit {unit!r} has no models among the bodies")
        return int(self.players[rows[0]])

    def without_unit(self, unit: str) -> "BodyIndex":
        """The same table minus one unit's models (a solver moves them itself)."""
        return BodyIndex([b for b in self.bodies if b.unit != unit])


def as_index(bodies: Sequence[Body] | BodyIndex) -> BodyIndex:
    """``bodies`` as a ``BodyIndex`` (returned as is if it already is one)."""
    return bodies if isinstance(bodies, BodyIndex) else BodyIndex(bodies)


@dataclass(frozen=True, slots=True)
class _Poly:
    area: str
    category: str
    pts: np.ndarray      # (E, 2)
    nxt: np.ndarray      # (E, 2): pts rolled by one (edge ends)
    lo: np.ndarray
    hi: np.ndarray


class EdgeSet:
    """Several simple polygons' edges in one array (edge v -> w), so that one vectorised pass
    measures a batch of segments or points against all of them; ``starts`` are the offsets of
    each polygon's first edge, ``lo``/``hi`` their bounding boxes."""

    __slots__ = ("polys", "vx", "vy", "wx", "wy", "ex", "ey", "el2", "starts", "lo", "hi",
                 "_singles")

    def __init__(self, polys: Sequence[_Poly]):
        self.polys = tuple(polys)
        v = np.vstack([p.pts for p in polys]) if polys else np.zeros((0, 2))
        w = np.vstack([p.nxt for p in polys]) if polys else np.zeros((0, 2))
        self.vx, self.vy, self.wx, self.wy = v[:, 0], v[:, 1], w[:, 0], w[:, 1]
        self.ex, self.ey = self.wx - self.vx, self.wy - self.vy
        el2 = self.ex * self.ex + self.ey * self.ey
        self.el2 = np.where(el2 > 0, el2, 1.0)
        self.starts = np.cumsum([0] + [len(p.pts) for p in polys[:-1]]).astype(np.int64) \
            if polys else np.zeros(0, dtype=np.int64)
        self.lo = np.array([p.lo for p in polys], dtype=float).reshape(-1, 2)
        self.hi = np.array([p.hi for p in polys], dtype=float).reshape(-1, 2)
        self._singles: list[EdgeSet] | None = None

    def __len__(self) -> int:
        return len(self.polys)

    def single(self, p: int) -> "EdgeSet":
        """The EdgeSet of polygon ``p`` alone. (A set of one polygon is its own single; it is
        not kept in ``_singles``, which would make a reference cycle: a TerrainIndex evicted
        from its cache would then be cyclic garbage, which a headless run never collects.)"""
        if len(self.polys) <= 1:
            return self
        if self._singles is None:
            self._singles = [EdgeSet([q]) for q in self.polys]
        return self._singles[p]


class TerrainIndex:
    """13.06 / Part A 12-13 The features that matter to movement, as arrays: dense features
    (may not be crossed by most models) and light or dense features (no model may end a move
    overlapping them). Exposed features and the areas themselves never hinder a move."""

    __slots__ = ("dense", "no_end", "_pieces")

    def __init__(self, areas: Sequence[TerrainArea]):
        dense, no_end = [], []
        for area in areas:
            for f in area.features:
                if f.category not in ("light", "dense"):
                    continue
                pts = np.asarray(f.polygon, dtype=float)
                p = _Poly(area.name, f.category, pts, np.roll(pts, -1, axis=0),
                          pts.min(axis=0), pts.max(axis=0))
                no_end.append(p)
                if f.category == "dense":
                    dense.append(p)
        self.dense = EdgeSet(dense)
        self.no_end = EdgeSet(no_end)
        self._pieces: dict[tuple[str, int], list[np.ndarray]] = {}

    def pieces(self, which: str, p: int) -> list[np.ndarray]:
        """Convex pieces (ccw) of polygon ``p`` of ``dense`` or ``no_end`` whose union is it."""
        key = (which, p)
        got = self._pieces.get(key)
        if got is None:
            poly = getattr(self, which).polys[p].pts
            got = self._pieces[key] = [ccw(q) for q in convex_pieces(poly)]
        return got


@lru_cache(maxsize=32)
def _terrain_cached(areas: tuple[TerrainArea, ...]) -> TerrainIndex:
    return TerrainIndex(areas)


def terrain_index(areas: Sequence[TerrainArea] | TerrainIndex) -> TerrainIndex:
    """``areas`` as a ``TerrainIndex`` (cached per layout; returned as is if already one)."""
    if isinstance(areas, TerrainIndex):
        return areas
    key = tuple(areas)
    try:
        return _terrain_cached(key)
    except TypeError:          # unhashable (polygons given as lists): build it afresh
        return TerrainIndex(key)


# --- geometric kernels (vectorised) --------------------------------------------------------

def _seg_point_dist(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Distances from points p (M, 2) to segments a-b (S, 2): (S, M)."""
    abx, aby = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
    apx, apy = p[None, :, 0] - a[:, 0, None], p[None, :, 1] - a[:, 1, None]
    den = abx * abx + aby * aby
    t = np.clip((apx * abx + apy * aby) / np.where(den > 0, den, 1.0), 0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return np.sqrt(dx * dx + dy * dy)


def _points_in_polygon(p: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon for points p (K, 2), polygon edges v->w (E, 2): (K,) bool.
    (Points on the boundary may go either way; callers pair this with a distance test.)"""
    y, x = p[:, 1:2], p[:, 0:1]
    cond = (v[None, :, 1] > y) != (w[None, :, 1] > y)
    dy = w[:, 1] - v[:, 1]
    xc = v[:, 0] + (y - v[:, 1]) * (w[:, 0] - v[:, 0]) / np.where(dy != 0, dy, 1.0)
    return (np.count_nonzero(cond & (xc > x), axis=1) % 2) == 1


def _segments_polygon_distance(a: np.ndarray, b: np.ndarray, v: np.ndarray,
                               w: np.ndarray) -> np.ndarray:
    """Distance from each segment a[k]-b[k] (K, 2) to the closed area of one simple polygon
    with edges v->w (E, 2): (K,), 0 where the segment meets the area."""
    poly = _Poly("", "", v, w, v.min(axis=0), v.max(axis=0))
    return segments_polys_distance(a, b, EdgeSet([poly]))[:, 0]


def points_polys_distance(c: np.ndarray, es: EdgeSet) -> np.ndarray:
    """01.04 Distance from each point c[k] (K, 2) to the closed area of each polygon of
    ``es``: (K, P), 0 inside (``segments_polys_distance`` for zero-length segments, cheaper)."""
    tx, ty = c[:, 0:1] - es.vx, c[:, 1:2] - es.vy
    t = np.clip((tx * es.ex + ty * es.ey) / es.el2, 0.0, 1.0)
    qx, qy = tx - t * es.ex, ty - t * es.ey
    d = np.sqrt(np.minimum.reduceat(qx * qx + qy * qy, es.starts, axis=1))
    o1 = es.ex * ty - es.ey * tx
    y = c[:, 1:2]
    up = (es.vy <= y) & (es.wy > y) & (o1 > 0)
    down = (es.wy <= y) & (es.vy > y) & (o1 < 0)
    inside = np.add.reduceat((up | down).astype(np.int64), es.starts, axis=1) % 2 == 1
    d[inside] = 0.0
    return d


def near_points_distance(c: np.ndarray, near: np.ndarray, es: EdgeSet) -> np.ndarray:
    """``points_polys_distance`` only where ``near`` (K, P) is true (inf elsewhere)."""
    out = np.full(near.shape, np.inf)
    for p in np.flatnonzero(near.any(axis=0)).tolist():
        rows = np.flatnonzero(near[:, p])
        out[rows, p] = points_polys_distance(c[rows], es.single(p))[:, 0]
    return out


def near_polys_distance(a: np.ndarray, b: np.ndarray, near: np.ndarray, es: EdgeSet) -> np.ndarray:
    """``segments_polys_distance`` only where ``near`` (K, P) is true (inf elsewhere): each
    polygon is measured against just the segments near it, which is far cheaper when a few
    candidates sit near a few of many features."""
    out = np.full(near.shape, np.inf)
    for p in np.flatnonzero(near.any(axis=0)).tolist():
        rows = np.flatnonzero(near[:, p])
        out[rows, p] = segments_polys_distance(a[rows], b[rows], es.single(p))[:, 0]
    return out


def segments_polys_distance(a: np.ndarray, b: np.ndarray, es: EdgeSet) -> np.ndarray:
    """01.04 Distance from each segment a[k]-b[k] (K, 2) to the closed area of each polygon of
    ``es``: (K, P), 0 where the segment meets the area (crosses an edge, or starts inside).
    One vectorised pass over all the edges (a zero-length segment is a point)."""
    ax, ay, bx, by = a[:, 0:1], a[:, 1:2], b[:, 0:1], b[:, 1:2]
    vx, vy, ex, ey, el2 = es.vx, es.vy, es.ex, es.ey, es.el2
    # squared distance from the segment ends to every edge
    tax, tay = ax - vx, ay - vy
    t = np.clip((tax * ex + tay * ey) / el2, 0.0, 1.0)
    qx, qy = tax - t * ex, tay - t * ey
    d2 = qx * qx + qy * qy
    tbx, tby = bx - vx, by - vy
    t = np.clip((tbx * ex + tby * ey) / el2, 0.0, 1.0)
    qx, qy = tbx - t * ex, tby - t * ey
    np.minimum(d2, qx * qx + qy * qy, out=d2)
    # ... and from every polygon vertex to the segment
    sx, sy = bx - ax, by - ay
    sl2 = sx * sx + sy * sy
    px, py = -tax, -tay                            # vertex - a
    t = np.clip((px * sx + py * sy) / np.where(sl2 > 0, sl2, 1.0), 0.0, 1.0)
    qx, qy = px - t * sx, py - t * sy
    np.minimum(d2, qx * qx + qy * qy, out=d2)
    # proper crossings of the segment with an edge; a inside (crossing-number rule)
    o1 = ex * tay - ey * tax                       # side of a w.r.t. edge
    o2 = ex * tby - ey * tbx                       # side of b
    o3 = sx * py - sy * px                         # side of v w.r.t. the segment
    o4 = sx * (es.wy - ay) - sy * (es.wx - ax)     # side of w
    meet = ((o1 * o2) < 0) & ((o3 * o4) < 0)
    up = (vy <= ay) & (es.wy > ay)
    down = (es.wy <= ay) & (vy > ay)
    meet_i = meet.view(np.int8) if meet.dtype == np.bool_ else meet.astype(np.int8)
    cross_n = ((up & (o1 > 0)) | (down & (o1 < 0))).astype(np.int64)
    starts = es.starts
    d = np.sqrt(np.minimum.reduceat(d2, starts, axis=1))
    hit = (np.add.reduceat(meet_i.astype(np.int64), starts, axis=1) > 0) \
        | (np.add.reduceat(cross_n, starts, axis=1) % 2 == 1)
    d[hit] = 0.0
    return d


def _minkowski_sum(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """The Minkowski sum of two counter-clockwise convex polygons (points allowed), ccw: the
    edges of both merged by polar angle from the sum of their lowest vertices."""
    if len(P) == 1 or len(Q) == 1:
        return P + Q[0] if len(Q) == 1 else Q + P[0]
    def start(X):
        k = np.lexsort((X[:, 0], X[:, 1]))[0]
        return np.roll(X, -k, axis=0)
    P, Q = start(P), start(Q)
    e = np.vstack([np.roll(P, -1, axis=0) - P, np.roll(Q, -1, axis=0) - Q])
    ang = np.mod(np.arctan2(e[:, 1], e[:, 0]), 2 * np.pi)
    e = e[np.argsort(ang, kind="stable")]
    pts = P[0] + Q[0] + np.vstack([np.zeros((1, 2)), np.cumsum(e, axis=0)[:-1]])
    return pts


def _swept(off: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The area a convex base (core offsets ``off``, ccw) sweeps moving from p to q, ccw."""
    d = np.asarray(q, dtype=float) - np.asarray(p, dtype=float)
    if not np.any(d):
        return off + p
    return _minkowski_sum(off + p, np.array([[0.0, 0.0], d]))


def _segments_enter_convex(a: np.ndarray, b: np.ndarray, poly: np.ndarray,
                           tol: float = TOUCH) -> np.ndarray:
    """(K,) whether segment a[k]-b[k] reaches more than ``tol`` inside the ccw convex polygon
    (Cyrus-Beck clipping against the polygon shrunk by ``tol``)."""
    e = np.roll(poly, -1, axis=0) - poly
    ln = np.hypot(e[:, 0], e[:, 1])
    ok = ln > 0
    e, v, ln = e[ok], poly[ok], ln[ok]
    nx, ny = -e[:, 1] / ln, e[:, 0] / ln                 # inward unit normals (ccw)
    f0 = (a[:, 0:1] - v[:, 0]) * nx + (a[:, 1:2] - v[:, 1]) * ny - tol      # (K, E)
    df = (b[:, 0:1] - a[:, 0:1]) * nx + (b[:, 1:2] - a[:, 1:2]) * ny
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -f0 / df
    lo = np.where(df > 0, t, -np.inf).max(axis=1, initial=0.0)
    hi = np.where(df < 0, t, np.inf).min(axis=1, initial=1.0)
    flat_out = ((df == 0) & (f0 < 0)).any(axis=1)
    return (np.maximum(lo, 0.0) <= np.minimum(hi, 1.0)) & ~flat_out


def _convex_signed(p: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """For points p (K, 2) and a ccw convex polygon: the smallest inward edge distance (K,)
    (positive inside, negative outside; a lower bound of the depth)."""
    e = np.roll(poly, -1, axis=0) - poly
    ln = np.hypot(e[:, 0], e[:, 1])
    ln = np.where(ln > 0, ln, 1.0)
    w = p[:, None, :] - poly[None, :, :]
    return ((e[None, :, 0] * w[..., 1] - e[None, :, 1] * w[..., 0]) / ln).min(axis=1)


def _points_convex_distance(p: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Distance from points p (K, 2) to a ccw convex polygon's closed area (K,)."""
    if len(poly) == 1:
        return np.hypot(p[:, 0] - poly[0, 0], p[:, 1] - poly[0, 1])
    d = _seg_point_dist(poly, np.roll(poly, -1, axis=0), p).min(axis=0)
    if len(poly) >= 3:
        d[_convex_signed(p, poly) >= 0] = 0.0
    return d


def _convex_overlap(P: np.ndarray, Q: np.ndarray, tol: float = TOUCH) -> bool:
    """Two ccw convex polygons share area by more than ``tol`` (separating-axis test)."""
    for poly in (P, Q):
        e = np.roll(poly, -1, axis=0) - poly
        n = np.stack([e[:, 1], -e[:, 0]], axis=1)
        ln = np.linalg.norm(n, axis=1, keepdims=True)
        n = n / np.where(ln > 0, ln, 1.0)
        sa, sb = P @ n.T, Q @ n.T
        if np.any((sa.max(0) <= sb.min(0) + tol) | (sb.max(0) <= sa.min(0) + tol)):
            return False
    return True


def _convex_penetrates_polygon(H: np.ndarray, poly: _Poly, tol: float = TOUCH) -> bool:
    """A ccw convex polygon H shares area with the simple polygon ``poly`` by more than tol."""
    v, w = poly.pts, poly.nxt
    # a vertex (or the centroid) of H well inside the polygon
    probe = np.vstack([H, H.mean(axis=0, keepdims=True)])
    inside = _points_in_polygon(probe, v, w)
    if inside.any():
        edge_d = _seg_point_dist(v, w, probe[inside]).min(axis=0)
        if np.any(edge_d > tol):
            return True
    # a vertex of the polygon well inside H
    if len(H) >= 3 and np.any(_convex_signed(v, H) > tol):
        return True
    # edges crossing properly (both ends clear of the other edge's line by more than tol)
    he = np.roll(H, -1, axis=0)

    def orient_n(p0, p1, q):
        ex, ey = p1[..., 0] - p0[..., 0], p1[..., 1] - p0[..., 1]
        ln = np.hypot(ex, ey)
        return (ex * (q[..., 1] - p0[..., 1]) - ey * (q[..., 0] - p0[..., 0])) \
            / np.where(ln > 0, ln, 1.0)
    A, B = H[:, None, :], he[:, None, :]
    V, W_ = v[None, :, :], w[None, :, :]
    d1, d2 = orient_n(V, W_, A), orient_n(V, W_, B)
    d3, d4 = orient_n(A, B, V), orient_n(A, B, W_)
    cross = (((d1 > tol) & (d2 < -tol)) | ((d1 < -tol) & (d2 > tol))) & \
            (((d3 > tol) & (d4 < -tol)) | ((d3 < -tol) & (d4 > tol)))
    return bool(cross.any())


def _offsets(fp: Footprint) -> np.ndarray:
    """A hull footprint's core polygon relative to its centre (k, 2)."""
    return core(fp)[0] - np.array([fp.x, fp.y])


# --- distances -----------------------------------------------------------------------------

def near_rows(idx: BodyIndex, centres: np.ndarray, bound: float, reach: float,
              rows: np.ndarray | None = None) -> np.ndarray:
    """Rows of ``idx`` (among ``rows``, default all) whose bodies may lie within ``reach`` of a
    footprint of bounding radius ``bound`` at any of ``centres`` (K, 2): a cheap superset."""
    if rows is None:
        rows = np.arange(len(idx))
    if len(rows) == 0 or len(centres) == 0:
        return rows[:0]
    c = idx.centres[rows]
    pad = bound + reach + 1e-6      # generous: a superset, never a borderline miss
    lo, hi = centres.min(axis=0) - pad, centres.max(axis=0) + pad
    b = idx.bound[rows]
    keep = (c[:, 0] + b >= lo[0]) & (c[:, 0] - b <= hi[0]) & (c[:, 1] + b >= lo[1]) \
        & (c[:, 1] - b <= hi[1])
    return rows[keep]


def _pair_terms(fp: Footprint, centres: np.ndarray, other: Footprint):
    """For ``fp`` placed at each of ``centres`` (K, 2) and one fixed footprint ``other``:
    (points (K, 2), convex polygon, radius) such that the edge distance between the two is
    ``_points_convex_distance(points, polygon) - radius`` (at least 0): the translation trick
    for a hull against a disc, and the Minkowski difference for two hulls (exact for convex
    cores)."""
    if fp.shape == "round":
        r = 0.5 * fp.length
        if other.shape == "round":
            return centres, np.array([[other.x, other.y]]), r + 0.5 * other.length
        return centres, core(other)[0], r
    off = _offsets(fp)
    if other.shape == "round":
        return np.array([other.x, other.y]) - centres, off, 0.5 * other.length
    return centres, _minkowski_sum(core(other)[0], -off), 0.0


def placed_distances(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint]) -> np.ndarray:
    """01.04 Edge-to-edge distances (K, n) from ``fp`` placed (same facing) at each of
    ``centres`` to each footprint of ``others``; vectorised over the K spots for every shape."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K, n = len(centres), len(others)
    out = np.empty((K, n))
    if not K or not n:
        return out
    rnd = [j for j, o in enumerate(others) if o.shape == "round"]
    if fp.shape == "round" and rnd:
        c = np.array([(others[j].x, others[j].y) for j in rnd], dtype=float)
        r = np.array([0.5 * others[j].length for j in rnd])
        out[:, rnd] = disc_distances(centres, np.full(K, 0.5 * fp.length), c, r)
    for j, o in enumerate(others):
        if fp.shape == "round" and o.shape == "round":
            continue
        pts, poly, r = _pair_terms(fp, centres, o)
        out[:, j] = np.maximum(_points_convex_distance(pts, poly) - r, 0.0)
    return out


def placed_overlaps(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint]) -> np.ndarray:
    """03.01 (K,) whether ``fp`` placed at each of ``centres`` would overlap (share area by
    more than TOUCH) one of ``others``; vectorised over the K spots for every shape."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K = len(centres)
    out = np.zeros(K, dtype=bool)
    for o in others:
        reach = np.hypot(centres[:, 0] - o.x, centres[:, 1] - o.y) \
            < fp.bounding_radius + o.bounding_radius
        if not reach.any():
            continue
        pts, poly, r = _pair_terms(fp, centres[reach], o)
        if r > 0:
            hit = _points_convex_distance(pts, poly) < r - TOUCH
        else:
            hit = _convex_signed(pts, poly) > TOUCH
        out[np.flatnonzero(reach)[hit]] = True
    return out


def distances_from(fp: Footprint, centres: np.ndarray, idx: BodyIndex,
                   rows: np.ndarray) -> np.ndarray:
    """01.04 Edge-to-edge distances (K, len(rows)) from the footprint ``fp`` placed (same facing)
    at each of ``centres`` (K, 2) to the bodies ``rows`` of ``idx``. Round-to-round pairs are
    one vectorised step; a hull on either side goes through ``placed_distances``."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K, M = len(centres), len(rows)
    out = np.empty((K, M))
    if K == 0 or M == 0:
        return out
    rnd = idx.round[rows]
    if fp.shape == "round":
        r = 0.5 * fp.length
        if rnd.any():
            sel = rows[rnd]
            out[:, rnd] = disc_distances(centres, np.full(K, r), idx.centres[sel], idx.radius[sel])
        for m in np.flatnonzero(~rnd).tolist():
            out[:, m] = np.maximum(_points_convex_distance(centres, idx.core(int(rows[m]))) - r, 0)
        return out
    return placed_distances(fp, centres, [idx.fps[int(j)] for j in rows.tolist()])


def fps_to_rows(fps: Sequence[Footprint], idx: BodyIndex, rows: np.ndarray) -> np.ndarray:
    """01.04 Edge-to-edge distances (len(fps), len(rows)) from each footprint to each body
    ``rows`` of ``idx``: one vectorised step for round-to-round pairs."""
    n, m = len(fps), len(rows)
    out = np.empty((n, m))
    if not n or not m:
        return out
    rnd = [i for i, f in enumerate(fps) if f.shape == "round"]
    if rnd:
        c = np.array([(fps[i].x, fps[i].y) for i in rnd], dtype=float)
        r = np.array([0.5 * fps[i].length for i in rnd])
        rr = idx.round[rows]
        sub = np.empty((len(rnd), m))
        if rr.any():
            sub[:, rr] = disc_distances(c, r, idx.centres[rows[rr]], idx.radius[rows[rr]])
        for k in np.flatnonzero(~rr).tolist():
            sub[:, k] = np.maximum(_points_convex_distance(c, idx.core(int(rows[k]))) - r, 0.0)
        out[rnd] = sub
    for i, f in enumerate(fps):
        if f.shape != "round":
            out[i] = distances_from(f, np.array([[f.x, f.y]]), idx, rows)[0]
    return out


def fps_distance_matrix(fps: Sequence[Footprint]) -> np.ndarray:
    """Symmetric edge-to-edge distance matrix among ``fps`` (vectorised for round bases)."""
    n = len(fps)
    c = np.array([(f.x, f.y) for f in fps], dtype=float).reshape(-1, 2)
    rnd = np.array([f.shape == "round" for f in fps], dtype=bool)
    r = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps])
    out = disc_distances(c, r, c, r)
    for i in np.flatnonzero(~rnd).tolist():
        for j in range(n):
            if j != i:
                out[i, j] = out[j, i] = distance(fps[i], fps[j])
    np.fill_diagonal(out, 0.0)
    return out


def unit_distance(fps_a: Sequence[Footprint], fps_b: Sequence[Footprint]) -> float:
    """01.04 The distance between two units: the closest edge-to-edge distance between any
    model of one and any model of the other (inf if either is empty)."""
    best = math.inf
    for a in fps_a:
        for b in fps_b:
            best = min(best, distance(a, b))
    return best


def path_length(path: Sequence[Point]) -> float:
    """03.01 The distance a model moves along a polyline of its base centre: the sum of its
    straight segments (rotations are free). 0 for a path of one point or none."""
    pts = [(float(x), float(y)) for x, y in path]
    return math.fsum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(pts, pts[1:]))


# --- path and end checks for one model (shared with the solvers) ---------------------------

def blocking_rows(idx: BodyIndex, player: int, through_enemies: bool,
                   impassable: Collection[str]) -> np.ndarray:
    enemy = idx.players != player
    if through_enemies:
        keep = np.zeros(len(idx), dtype=bool)
        for mid in impassable:
            j = idx.row.get(mid)
            if j is not None and enemy[j]:
                keep[j] = True
        return np.flatnonzero(keep)
    return np.flatnonzero(enemy)


def path_blocker(fp: Footprint, pts: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                 board: tuple[float, float], blockers: np.ndarray, *,
                 may_cross_dense: bool, first_only: bool = True) -> list[tuple[str, str, str, float | None]]:
    """03.01 / 13.06 What stops the base ``fp`` (at its start facing) being dragged along the
    polyline ``pts`` (k, 2): enemy bases among ``blockers`` (rows of ``idx``) it would cross,
    the battlefield edge, and dense features unless ``may_cross_dense``. Returns
    (kind, rule, message, distance) tuples, kind "enemy" / "edge" / "dense"; at most one of
    each kind (the first along the path); only the first found if ``first_only``."""
    out: list[tuple[str, str, str, float | None]] = []
    pts = np.asarray(pts, dtype=float).reshape(-1, 2)
    W, H = board
    rnd = fp.shape == "round"
    r = 0.5 * fp.length if rnd else 0.0
    off = None if rnd else _offsets(fp)
    # the battlefield edge: the swept area is the hull of the bases at the vertices, and the
    # board is convex, so checking every vertex's base is exact
    if rnd:
        lo, hi = pts - r, pts + r
    else:
        lo = np.array([(off + p).min(axis=0) for p in pts])
        hi = np.array([(off + p).max(axis=0) for p in pts])
    over = np.max(np.stack([-lo[:, 0], -lo[:, 1], hi[:, 0] - W, hi[:, 1] - H], axis=1), axis=1)
    if np.any(over > TOUCH):
        k = int(np.argmax(over > TOUCH))
        out.append(("edge", "03.01", f"its base would go {over[k]:.2f}\" over the battlefield edge "
                    f"at ({pts[k, 0]:.2f}, {pts[k, 1]:.2f})", float(over[k])))
        if first_only:
            return out
    if len(pts) < 2:
        return out
    a, b = pts[:-1], pts[1:]
    if len(blockers):
        if rnd:
            near = near_rows(idx, pts, r, 0.0, blockers)
        else:
            near = near_rows(idx, pts, fp.bounding_radius, 0.0, blockers)
        hit = _sweep_hits(fp, r, off, a, b, idx, near)
        if hit is not None:
            seg, j, depth = hit
            out.append(("enemy", "03.01", f"its path crosses the base of enemy model {idx.ids[j]} "
                        f"(by {depth:.2f}\") on segment {seg + 1}", depth))
            if first_only:
                return out
    if not may_cross_dense and len(terr.dense):
        hit = _dense_hit(fp, off, a, b, terr.dense)
        if hit is not None:
            _seg, p, depth = hit
            out.append(("dense", "13.06, Part A 12", _dense_message(terr.dense.polys[p]), depth))
    order = {"enemy": 0, "edge": 1, "dense": 2}
    return sorted(out, key=lambda p: order[p[0]])


def _sweep_hits(fp, r, off, a, b, idx, rows):
    """First (segment, row, depth) where the base swept along a->b crosses a body of ``rows``."""
    if len(rows) == 0:
        return None
    rnd_rows = rows[idx.round[rows]]
    hull_rows = rows[~idx.round[rows]]
    best = None   # (segment, row, depth)
    if fp.shape == "round":
        if len(rnd_rows):
            d = _seg_point_dist(a, b, idx.centres[rnd_rows])           # (S, M)
            lim = r + idx.radius[rnd_rows][None, :]
            bad = d < lim - TOUCH
            if bad.any():
                s, m = np.argwhere(bad)[0]
                best = (int(s), int(rnd_rows[m]), float(lim[0, m] - d[s, m]))
        for j in hull_rows.tolist():
            poly = idx.core(j)
            d = _segments_polygon_distance(a, b, poly, np.roll(poly, -1, axis=0))
            bad = np.flatnonzero(d < r - TOUCH)
            if len(bad) and (best is None or (bad[0], j) < best[:2]):
                best = (int(bad[0]), j, float(r - d[bad[0]]))
        return best
    for s, (p, q) in enumerate(zip(a, b)):
        hull = _swept(off, p, q)
        found = []
        if len(rnd_rows):
            d = _points_convex_distance(idx.centres[rnd_rows], hull)
            lim = idx.radius[rnd_rows]
            bad = np.flatnonzero(d < lim - TOUCH)
            found += [(int(rnd_rows[m]), float(lim[m] - d[m])) for m in bad.tolist()]
        for j in hull_rows.tolist():
            if _convex_overlap(hull, idx.core(j)):
                found.append((j, 0.0))
        if found:
            j, depth = min(found)
            return (s, j, depth)
    return None


def _dense_message(poly: _Poly) -> str:
    return (f"its path crosses a dense feature of {poly.area!r}; only INFANTRY, BEASTS, SWARM or "
            f"MOBILE models, or models taking to the skies, may")


def _box_near(lo: np.ndarray, hi: np.ndarray, es: EdgeSet) -> np.ndarray:
    """(K, P): box k (lo/hi rows) meets polygon p's bounding box."""
    return (lo[:, None, 0] <= es.hi[None, :, 0]) & (hi[:, None, 0] >= es.lo[None, :, 0]) \
        & (lo[:, None, 1] <= es.hi[None, :, 1]) & (hi[:, None, 1] >= es.lo[None, :, 1])


def _dense_hit(fp: Footprint, off: np.ndarray | None, a: np.ndarray, b: np.ndarray,
               es: EdgeSet) -> tuple[int, int, float | None] | None:
    """13.06 The first (segment, polygon, depth) where the base ``fp`` dragged along a->b
    (S, 2) enters a polygon of ``es`` by more than TOUCH, or None."""
    if not len(es) or not len(a):
        return None
    if fp.shape == "round":
        r = 0.5 * fp.length
        near = _box_near(np.minimum(a, b) - r, np.maximum(a, b) + r, es)
        if not near.any():
            return None
        d = near_polys_distance(a, b, near, es)
        bad = near & (d < r - TOUCH)
        if not bad.any():
            return None
        s, p = np.argwhere(bad)[0].tolist()
        return (s, p, float(r - d[s, p]))
    bnd = fp.bounding_radius
    near = _box_near(np.minimum(a, b) - bnd, np.maximum(a, b) + bnd, es)
    for s, p in np.argwhere(near).tolist():
        hull = _swept(off, a[s], b[s])
        if _convex_penetrates_polygon(hull, es.polys[p]):
            return (s, p, None)
    return None


def end_blockers(fps: Sequence[Footprint], terr: TerrainIndex) -> list[tuple[str, float | None] | None]:
    """03.01 / Part A ruling 13: for each base, the first light or dense feature (layout order)
    it would end overlapping, as (message, depth), or None. Vectorised for round bases."""
    out: list[tuple[str, float | None] | None] = [None] * len(fps)
    es = terr.no_end
    if not len(fps) or not len(es):
        return out
    c = np.array([(f.x, f.y) for f in fps], dtype=float)
    rnd = np.array([f.shape == "round" for f in fps])
    b = np.array([0.5 * f.length if f.shape == "round" else f.bounding_radius for f in fps])
    near = _box_near(c - b[:, None], c + b[:, None], es)
    if not near.any():
        return out
    if rnd.any():
        d = near_points_distance(c, near & rnd[:, None], es)
        bad = near & (d < b[:, None] - TOUCH) & rnd[:, None]
        for i in np.flatnonzero(bad.any(axis=1)).tolist():
            p = int(np.argmax(bad[i]))
            poly = es.polys[p]
            out[i] = (f"it would end {b[i] - d[i, p]:.2f}\" into a {poly.category} feature of "
                      f"{poly.area!r}", float(b[i] - d[i, p]))
    for i in np.flatnonzero(~rnd).tolist():
        hull = core(fps[i])[0]
        for p in np.flatnonzero(near[i]).tolist():
            poly = es.polys[p]
            if _convex_penetrates_polygon(hull, poly):
                out[i] = (f"it would end overlapping a {poly.category} feature of "
                          f"{poly.area!r}", None)
                break
    return out


def end_blocker(fp: Footprint, terr: TerrainIndex) -> tuple[str, float | None] | None:
    """Part A ruling 13: the light or dense feature the base ``fp`` would end overlapping, as
    (message, depth), or None."""
    return end_blockers([fp], terr)[0]


def _end_overlaps(fps: Sequence[Footprint], idx: BodyIndex, rows: np.ndarray) -> list[list[tuple[int, float]]]:
    """For each footprint, the rows it overlaps (sharing area by more than TOUCH) with the
    overlap depth (0 where not computed)."""
    out: list[list[tuple[int, float]]] = [[] for _ in fps]
    if not len(fps) or not len(rows):
        return out
    c = np.array([(f.x, f.y) for f in fps], dtype=float)
    bnd = np.array([f.bounding_radius for f in fps])
    near = near_rows(idx, c, float(bnd.max()), 0.0, rows)
    if not len(near):
        return out
    rnd_f = np.array([f.shape == "round" for f in fps])
    rf = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps])
    rn = near[idx.round[near]]
    if len(rn) and rnd_f.any():
        diff = c[:, None, :] - idx.centres[rn][None, :, :]
        cd = np.hypot(diff[..., 0], diff[..., 1])
        lim = rf[:, None] + idx.radius[rn][None, :]
        bad = (cd < lim - TOUCH) & rnd_f[:, None]
        for i, m in np.argwhere(bad).tolist():
            out[i].append((int(rn[m]), float(lim[i, m] - cd[i, m])))
    hull_near = near[~idx.round[near]].tolist()
    for i, f in enumerate(fps):
        for j in (near.tolist() if not rnd_f[i] else hull_near):
            if rnd_f[i] and idx.round[j]:
                continue
            if math.hypot(f.x - idx.centres[j, 0], f.y - idx.centres[j, 1]) \
                    >= f.bounding_radius + idx.bound[j]:
                continue
            if overlaps(f, idx.fps[j]):
                out[i].append((j, 0.0))
        out[i].sort()
    return out


def _nearest_enemy(fps: Sequence[Footprint], idx: BodyIndex,
                   player: int) -> list[tuple[int, float] | None]:
    """For each footprint, (row, distance) of the nearest enemy model of ``player`` if it is
    within engagement range (03.04), else None."""
    out: list[tuple[int, float] | None] = [None] * len(fps)
    enemies = np.flatnonzero(idx.players != player)
    if not len(fps) or not len(enemies):
        return out
    c = np.array([(f.x, f.y) for f in fps], dtype=float)
    bnd = max(f.bounding_radius for f in fps)
    near = near_rows(idx, c, bnd, ENGAGEMENT_RANGE, enemies)
    if not len(near):
        return out
    for i, f in enumerate(fps):
        d = distances_from(f, c[i:i + 1], idx, near)[0] if f.shape != "round" else None
        if d is None:
            continue
        m = int(np.argmin(d))
        if d[m] <= ENGAGEMENT_RANGE + EPS:
            out[i] = (int(near[m]), float(d[m]))
    rnd = [i for i, f in enumerate(fps) if f.shape == "round"]
    if rnd:
        fr = np.array([0.5 * fps[i].length for i in rnd])
        d = np.empty((len(rnd), len(near)))
        rn = idx.round[near]
        if rn.any():
            d[:, rn] = disc_distances(c[rnd], fr, idx.centres[near[rn]], idx.radius[near[rn]])
        for m in np.flatnonzero(~rn).tolist():
            d[:, m] = np.maximum(_points_convex_distance(c[rnd], idx.core(int(near[m]))) - fr, 0.0)
        best = d.argmin(axis=1)
        for k, i in enumerate(rnd):
            dm = float(d[k, best[k]])
            if dm <= ENGAGEMENT_RANGE + EPS:
                out[i] = (int(near[best[k]]), dm)
    return out


# --- batch tests of one base at many candidate spots (the solvers' prefilters) -------------

def board_mask(fp: Footprint, centres: np.ndarray, board: tuple[float, float]) -> np.ndarray:
    """03.01 (K,) whether the base ``fp`` placed at each centre lies wholly on the board."""
    W, H = board
    if fp.shape == "round":
        r = 0.5 * fp.length
        lo, hi = centres - r, centres + r
    else:
        off = _offsets(fp)
        lo, hi = centres + off.min(axis=0), centres + off.max(axis=0)
    return (lo[:, 0] >= -TOUCH) & (lo[:, 1] >= -TOUCH) & (hi[:, 0] <= W + TOUCH) \
        & (hi[:, 1] <= H + TOUCH)


def overlap_mask(fp: Footprint, centres: np.ndarray, idx: BodyIndex,
                 rows: np.ndarray) -> np.ndarray:
    """03.01 (K,) whether the base ``fp`` placed at each centre would overlap (share area by
    more than TOUCH) a body among ``rows`` of ``idx``."""
    K = len(centres)
    out = np.zeros(K, dtype=bool)
    near = near_rows(idx, centres, fp.bounding_radius, 0.0, rows)
    if not len(near) or not K:
        return out
    rn = near[idx.round[near]]
    if fp.shape == "round" and len(rn):
        diff = centres[:, None, :] - idx.centres[rn][None, :, :]
        cd = np.sqrt(np.einsum("kmi,kmi->km", diff, diff))
        out |= (cd < 0.5 * fp.length + idx.radius[rn][None, :] - TOUCH).any(axis=1)
    pairs = near[~idx.round[near]] if fp.shape == "round" else near
    if len(pairs):
        out |= placed_overlaps(fp, centres, [idx.fps[j] for j in pairs.tolist()])
    return out


def feature_mask(fp: Footprint, centres: np.ndarray, terr: TerrainIndex) -> np.ndarray:
    """Part A ruling 13 (K,) whether the base ``fp`` placed at each centre would overlap a
    light or dense feature."""
    K = len(centres)
    es = terr.no_end
    if not K or not len(es):
        return np.zeros(K, dtype=bool)
    if fp.shape == "round":
        r = 0.5 * fp.length
        near = _box_near(centres - r, centres + r, es)
        if not near.any():
            return np.zeros(K, dtype=bool)
        return (near & (near_points_distance(centres, near, es) < r - TOUCH)).any(axis=1)
    # a base overlaps a feature iff its centre is inside some convex piece (-) the base
    off = _offsets(fp)
    bnd = fp.bounding_radius
    near = _box_near(centres - bnd, centres + bnd, es)
    out = np.zeros(K, dtype=bool)
    for p in np.flatnonzero(near.any(axis=0)).tolist():
        rows = np.flatnonzero(near[:, p])
        for piece in terr.pieces("no_end", p):
            md = _minkowski_sum(piece, -off)
            out[rows] |= _convex_signed(centres[rows], md) > TOUCH
    return out


def straight_paths_clear(fp: Footprint, ends: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                         blockers: np.ndarray, *, may_cross_dense: bool) -> np.ndarray:
    """03.01 / 13.06 (K,) whether the base ``fp`` dragged in a straight line from where it
    stands to each of ``ends`` (K, 2) clears every base among ``blockers`` and (unless
    ``may_cross_dense``) every dense feature; the board edge is ``board_mask``'s business (the
    board is convex, so two ends on it mean the whole line is). Vectorised for round bases."""
    K = len(ends)
    out = np.ones(K, dtype=bool)
    if not K:
        return out
    if fp.shape != "round":
        # the base swept along s->e meets X iff the segment s->e enters X (-) base (Minkowski)
        off = _offsets(fp)
        neg = -off                                       # the base reflected (still ccw)
        a = np.repeat(np.array([[fp.x, fp.y]]), K, axis=0)
        bnd = fp.bounding_radius
        if len(blockers):
            near = near_rows(idx, np.vstack([a[:1], ends]), bnd, 0.0, blockers)
            for j in near.tolist():
                other = idx.core(j) if not idx.round[j] else idx.centres[j:j + 1]
                md = _minkowski_sum(ccw(other), neg)
                if idx.round[j]:
                    d = segments_polys_distance(a, ends, EdgeSet([_Poly(
                        "", "", md, np.roll(md, -1, axis=0), md.min(0), md.max(0))]))[:, 0]
                    out &= ~(d < idx.radius[j] - TOUCH)
                else:
                    out &= ~_segments_enter_convex(a, ends, md)
        if not may_cross_dense and len(terr.dense):
            near = _box_near(np.minimum(a, ends) - bnd, np.maximum(a, ends) + bnd, terr.dense)
            for p in np.flatnonzero(near.any(axis=0)).tolist():
                rows = np.flatnonzero(near[:, p])
                for piece in terr.pieces("dense", p):
                    md = _minkowski_sum(piece, neg)
                    out[rows] &= ~_segments_enter_convex(a[rows], ends[rows], md)
        return out
    r = 0.5 * fp.length
    a = np.repeat(np.array([[fp.x, fp.y]]), K, axis=0)
    if len(blockers):
        near = near_rows(idx, np.vstack([a[:1], ends]), r, 0.0, blockers)
        rn = near[idx.round[near]]
        if len(rn):
            d = _seg_point_dist(a, ends, idx.centres[rn])
            out &= ~(d < r + idx.radius[rn][None, :] - TOUCH).any(axis=1)
        for j in near[~idx.round[near]].tolist():
            poly = idx.core(j)
            out &= ~(_segments_polygon_distance(a, ends, poly, np.roll(poly, -1, axis=0))
                     < r - TOUCH)
    if not may_cross_dense and len(terr.dense):
        near = _box_near(np.minimum(a, ends) - r, np.maximum(a, ends) + r, terr.dense)
        if near.any():
            d = near_polys_distance(a, ends, near, terr.dense)
            out &= ~(near & (d < r - TOUCH)).any(axis=1)
    return out


# --- the unit's move -----------------------------------------------------------------------

def check_move(unit: str, paths: Mapping[str, Sequence[Point]],
               bodies: Sequence[Body] | BodyIndex,
               areas: Sequence[TerrainArea] | TerrainIndex, board: tuple[float, float], *,
               max_distance: Mapping[str, float] | float, rule: str,
               may_cross_dense: bool = False, through_enemies: bool = False,
               impassable: Collection[str] = (), end_unengaged: bool = False,
               check_coherency: bool = True,
               angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """03.01 Every problem with moving ``unit``'s models along ``paths`` (model id -> base-centre
    polyline, first point = its current position); models of the unit not in ``paths`` stay
    put but still count for overlaps and coherency. ``angles`` gives end facings (free).

    Checks, per model in id order (each kind once per model, first occurrence):
    1. the path starts at the model (03.01);
    2. its length is at most the maximum distance (``rule``: 09.05 normal, 09.06 advance,
       09.07 fall back, 11.04 charge, 12.03 pile-in, 12.08 consolidation; 03.01.01 a mapping
       gives each model its own);
    3. the swept base crosses no enemy base unless ``through_enemies`` (then only those in
       ``impassable``) (03.01, 17.01, 21.03);
    4. no part of the base leaves the battlefield along the path or at the end (03.01);
    5. it crosses no dense feature unless ``may_cross_dense`` (13.06, Part A ruling 12);
    6. its end base overlaps no other model's base, friend or foe (03.01; touching is fine);
    7. its end base overlaps no light or dense feature (03.01, Part A ruling 13);
    8. if ``end_unengaged``, it ends outside the engagement range of every enemy model (``rule``);
    then 9. the unit is in coherency after the move if ``check_coherency`` (03.03).
    Returns the problems (empty = legal); never raises on well-typed input (a ``max_distance``
    mapping missing a model that has a path is a caller's error: ValueError).
    """
    idx = as_index(bodies)
    terr = terrain_index(areas)
    rows = idx.unit_rows.get(unit)
    if rows is None:
        return [MoveProblem(None, rule, f"unit {unit!r} has no models on the battlefield")]
    player = int(idx.players[rows[0]])
    what = RULE_NAMES.get(rule, "move")
    problems: list[MoveProblem] = []
    unit_ids = {idx.ids[r] for r in rows.tolist()}
    for mid in sorted(paths):
        if mid not in unit_ids:
            problems.append(MoveProblem(mid, "03.01", f"is not a model of unit {unit}"))
    blockers = blocking_rows(idx, player, through_enemies, impassable)
    per: dict[int, list[MoveProblem]] = {}
    ends: list[Footprint] = []
    round_paths: list[tuple[int, np.ndarray]] = []
    for r in rows.tolist():
        mid, fp0 = idx.ids[r], idx.fps[r]
        mine = per.setdefault(r, [])
        path = paths.get(mid)
        ang = angles.get(mid) if angles else None
        pts = np.asarray(path if path is not None else [], dtype=float).reshape(-1, 2)
        if len(pts) == 0:
            ends.append(fp0 if ang is None else fp0.moved(fp0.x, fp0.y, ang))
            continue
        if not np.all(np.isfinite(pts)):
            mine.append(MoveProblem(mid, "03.01", "its path has a non-finite point"))
            ends.append(fp0)
            continue
        end = fp0.moved(pts[-1, 0], pts[-1, 1], ang)
        ends.append(end)
        gap = math.hypot(pts[0, 0] - fp0.x, pts[0, 1] - fp0.y)
        if gap > START_TOL:
            mine.append(MoveProblem(mid, "03.01", f"its path starts at ({pts[0, 0]:.2f}, "
                                    f"{pts[0, 1]:.2f}), {gap:.2f}\" from the model at "
                                    f"({fp0.x:.2f}, {fp0.y:.2f})", gap))
            continue
        limit = max_distance.get(mid) if isinstance(max_distance, Mapping) else max_distance
        if limit is None:
            raise ValueError(f"03.01 check_move: no maximum distance given for {mid}")
        length = path_length(pts)
        if length > float(limit) + EPS:
            mine.append(MoveProblem(mid, rule, f"would move {length:.2f}\" but may move at most "
                                    f"{float(limit):g}\" in {_a(what)}", length))
        if fp0.shape == "round":
            round_paths.append((r, pts))
            continue
        for kind, rl, msg, dist in path_blocker(fp0, pts, idx, terr, board, blockers,
                                                may_cross_dense=may_cross_dense, first_only=False):
            mine.append(MoveProblem(mid, rl, msg, dist))
        if not (end.shape == fp0.shape and end.angle == fp0.angle):
            for kind, rl, msg, dist in path_blocker(end, pts[-1:], idx, terr, board, blockers,
                                                    may_cross_dense=True, first_only=False):
                if kind == "edge":
                    mine.append(MoveProblem(mid, rl, msg, dist))
    if round_paths:
        _round_path_checks(round_paths, idx, terr, board, blockers, may_cross_dense, per)
    # end of move: overlaps with other models, features, engagement
    rlist = rows.tolist()
    moved = [ends[k].centre != idx.fps[r].centre for k, r in enumerate(rlist)]
    others = np.array([j for j in range(len(idx)) if idx.units[j] != unit], dtype=np.int64)
    hits = _end_overlaps(ends, idx, others)
    feature_hits = end_blockers(ends, terr)
    engaged_at = _nearest_enemy(ends, idx, player) if end_unengaged else [None] * len(ends)
    for k, r in enumerate(rlist):
        mid = idx.ids[r]
        if hits[k]:
            j, depth = hits[k][0]
            side = "enemy" if idx.players[j] != player else "friendly"
            per[r].append(MoveProblem(mid, "03.01", f"it would end overlapping the base of "
                                      f"{side} model {idx.ids[j]}" +
                                      (f" by {depth:.2f}\"" if depth else ""), depth or None))
        for k2 in range(k + 1, len(rlist)):
            a, b = ends[k], ends[k2]
            if math.hypot(a.x - b.x, a.y - b.y) < a.bounding_radius + b.bounding_radius \
                    and overlaps(a, b):
                # blame the model that moved onto the other (the later one if both or neither)
                who, other = (k, k2) if (moved[k] and not moved[k2]) else (k2, k)
                per[rlist[who]].append(MoveProblem(idx.ids[rlist[who]], "03.01",
                                                   f"it would end overlapping the base of "
                                                   f"{idx.ids[rlist[other]]}, a model of its own "
                                                   f"unit"))
        if feature_hits[k] is not None:
            per[r].append(MoveProblem(mid, "03.01, Part A 13", *feature_hits[k]))
        if engaged_at[k] is not None:
            j, d = engaged_at[k]
            per[r].append(MoveProblem(mid, rule, f"it would end {d:.2f}\" from enemy model "
                                      f"{idx.ids[j]}, within engagement range "
                                      f"({ENGAGEMENT_RANGE:g}\"); {_a(what)} must end unengaged", d))
    for r in rlist:
        problems.extend(per[r])
    if check_coherency and len(rlist) > 1:
        problems.extend(coherency_problems_from_matrix([idx.ids[r] for r in rlist],
                                                       fps_distance_matrix(ends)))
    return problems


def _round_path_checks(round_paths, idx, terr, board, blockers, may_cross_dense, per):
    """Checks 3-5 of ``check_move`` for every round base at once (one segment array)."""
    W, H = board
    V = np.vstack([pts for _, pts in round_paths])
    counts = [len(pts) for _, pts in round_paths]
    vown = np.repeat([r for r, _ in round_paths], counts)
    VR = idx.radius[vown]
    last = np.cumsum(counts) - 1                   # the last vertex of each path
    seg = np.ones(len(V), dtype=bool)
    seg[last] = False                              # vertex k starts a segment unless last
    A = V[seg]
    B = V[np.flatnonzero(seg) + 1]
    owners = vown[seg]
    R = VR[seg]
    found: dict[int, dict[str, MoveProblem]] = {r: {} for r, _ in round_paths}
    # 4. the battlefield edge (every vertex's base inside the board)
    over = np.max(np.stack([VR - V[:, 0], VR - V[:, 1], V[:, 0] + VR - W, V[:, 1] + VR - H],
                           axis=1), axis=1)
    for k in np.flatnonzero(over > TOUCH).tolist():
        r = int(vown[k])
        found[r].setdefault("edge", MoveProblem(
            idx.ids[r], "03.01", f"its base would go {over[k]:.2f}\" over the battlefield edge at "
            f"({V[k, 0]:.2f}, {V[k, 1]:.2f})", float(over[k])))
    if len(A):
        rmax = float(R.max())
        # 3. enemy bases
        near = near_rows(idx, np.vstack([A, B]), rmax, 0.0, blockers)
        if len(near):
            rn = near[idx.round[near]]
            if len(rn):
                d = _seg_point_dist(A, B, idx.centres[rn])
                lim = R[:, None] + idx.radius[rn][None, :]
                for s, m in np.argwhere(d < lim - TOUCH).tolist():
                    r = int(owners[s])
                    found[r].setdefault("enemy", MoveProblem(
                        idx.ids[r], "03.01", f"its path crosses the base of enemy model "
                        f"{idx.ids[int(rn[m])]} (by {lim[s, m] - d[s, m]:.2f}\")",
                        float(lim[s, m] - d[s, m])))
            for j in near[~idx.round[near]].tolist():
                poly = idx.core(j)
                d = _segments_polygon_distance(A, B, poly, np.roll(poly, -1, axis=0))
                for s in np.flatnonzero(d < R - TOUCH).tolist():
                    r = int(owners[s])
                    found[r].setdefault("enemy", MoveProblem(
                        idx.ids[r], "03.01", f"its path crosses the base of enemy model "
                        f"{idx.ids[j]} (by {R[s] - d[s]:.2f}\")", float(R[s] - d[s])))
        # 5. dense features
        if not may_cross_dense and len(terr.dense):
            near = _box_near(np.minimum(A, B) - R[:, None], np.maximum(A, B) + R[:, None],
                             terr.dense)
            if near.any():
                d = near_polys_distance(A, B, near, terr.dense)
                for s, p in np.argwhere(near & (d < R[:, None] - TOUCH)).tolist():
                    r = int(owners[s])
                    found[r].setdefault("dense", MoveProblem(
                        idx.ids[r], "13.06, Part A 12", _dense_message(terr.dense.polys[p]),
                        float(R[s] - d[s, p])))
    for r, _ in round_paths:
        for kind in ("enemy", "edge", "dense"):
            if kind in found[r]:
                per[r].append(found[r][kind])


def engaged_units(unit: str, end_fps: Mapping[str, Footprint] | Sequence[tuple[str, Footprint]],
                  bodies: Sequence[Body] | BodyIndex) -> list[str]:
    """03.04 The enemy units ``unit`` is engaged with when its models stand at ``end_fps``
    (model id -> footprint; the unit's models in ``bodies`` are ignored): those with a model
    within engagement range (2") of one of them. Sorted by unit id."""
    idx = as_index(bodies)
    player = idx.player_of(unit)
    items = sorted(end_fps.items() if isinstance(end_fps, Mapping) else end_fps)
    enemies = np.flatnonzero(idx.players != player)
    found: set[str] = set()
    for _mid, f in items:
        c = np.array([[f.x, f.y]])
        near = near_rows(idx, c, f.bounding_radius, ENGAGEMENT_RANGE, enemies)
        if len(near):
            d = distances_from(f, c, idx, near)[0]
            found.update(idx.units[int(j)] for j in near[d <= ENGAGEMENT_RANGE + EPS])
    return sorted(found)

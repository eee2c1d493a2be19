"""26 step 8 Deployment: every model set up wholly within its player's deployment zone
(01.04.01 "wholly within": every part of the base), and 03.02.02 Oversized models: a base
that cannot fit wholly within the zone is set up touching its player's battlefield edge.
Zones default to Part A ruling 22.

"Cannot fit" asks whether any placement of the base (any position, any facing) lies wholly
within the zone. For a convex zone it is decided exactly at each facing (the centres that
fit are an intersection of half-planes, Minkowski difference of the zone and the base's
01.04 core); facings are tried every degree (round bases: one). A non-convex zone is tried
piece by piece (sim.rules.polygons.convex_pieces), so a base that fits only across two
pieces counts as not fitting there (README, rulings). "Touching" an edge allows
``EDGE_TOUCH`` of gap."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from sim.rules.arrays import roll_next
from sim.rules.compiled import kernel
from sim.rules.geometry import EPS, Footprint, core, footprint_polygon_distance
from sim.rules.polygons import ccw, convex_pieces, point_in_polygon, polygon_inside

Point = tuple[float, float]

EDGE_TOUCH = 1e-3  # inches: a base this close to a battlefield edge touches it (03.02.02)
FACINGS = 180  # facings tried for a base that is not round (every degree; the shapes repeat after 180)
EDGES = ("south", "north", "west", "east")  # y = 0, y = H, x = 0, x = W


def wholly_within(fp: Footprint, zone) -> bool:
    """01.04.01 Every part of the base lies inside the zone polygon (or on its edge): a round
    base's centre is inside and at least its radius from every edge (exact); a hull's core
    polygon lies inside (rect: exact; oval: its inscribed 64-gon, sim.rules.geometry)."""
    if fp.shape == "round":
        if point_in_polygon((fp.x, fp.y), zone) < 0:
            return False
        r = 0.5 * fp.length
        pts, ab, den = _edges(zone)
        c = np.array([fp.x, fp.y])
        t = np.clip(((c - pts) * ab).sum(axis=1) / den, 0.0, 1.0)
        d = np.hypot(*(pts + t[:, None] * ab - c).T)
        return bool(d.min() >= r - EPS)
    if _circle_clear_inside(fp.x, fp.y, fp.bounding_radius, zone):
        return True  # (its bounding circle is inside, clear of every edge: so is every part of the base)
    return polygon_inside(core(fp)[0], zone)


# (its compiled twin runs where built: sim.rules.compiled)
wholly_within = kernel("movement.wholly_within", wholly_within)


def _circle_clear_inside(x: float, y: float, r: float, zone) -> bool:
    """A cheap bound in front of polygon_inside: the circle's centre strictly inside the zone
    and every edge more than ``r`` (and a hair) from it, so everything the circle holds lies
    strictly inside the zone (polygon_inside says so too). False says nothing."""
    if point_in_polygon((x, y), zone) <= 0:
        return False
    pts, ab, den = _edges(zone)
    c = np.array([x, y])
    t = np.clip(((c - pts) * ab).sum(axis=1) / den, 0.0, 1.0)
    return bool(np.hypot(*(pts + t[:, None] * ab - c).T).min() > r + 1e-6)


def _edges(zone) -> tuple:
    """The zone's vertices, edges (each vertex to the next) and the edges' squared lengths (at
    least 1e-300), as wholly_within reads them: kept per zone (a tuple of points; another
    sequence is read afresh)."""
    if isinstance(zone, tuple):
        try:
            return _kept_edges(zone)
        except TypeError:   # (a tuple holding lists: not hashable)
            pass
    return _zone_edges(zone)


def _zone_edges(zone) -> tuple:
    pts = np.asarray(zone, dtype=float)
    ab = np.roll(pts, -1, axis=0) - pts
    out = (pts, ab, np.maximum((ab * ab).sum(axis=1), 1e-300))
    for a in out:
        a.flags.writeable = False
    return out


_kept_edges = lru_cache(maxsize=64)(_zone_edges)


def _offsets(fp: Footprint) -> tuple[np.ndarray, float]:
    """The base's 01.04 core about its centre, and its radius."""
    pts, r = core(fp)
    return pts - np.array([fp.x, fp.y]), r


def _fits_convex(off: np.ndarray, r: float, piece: np.ndarray) -> bool:
    """Whether some centre c puts the base (core ``off`` about c, grown by ``r``) wholly inside
    the convex ccw polygon ``piece``: the half-planes n.c <= n.v - h(n) of each edge (outward
    unit normal n, support h of the base) have a common point (clipping a box that holds the
    piece, to 1e-9")."""
    region = [(float(x), float(y)) for x, y in piece]
    k = len(piece)
    for i in range(k):
        a, b = piece[i], piece[(i + 1) % k]
        e = b - a
        ln = math.hypot(e[0], e[1])
        if ln <= 0:
            continue
        n = np.array([e[1], -e[0]]) / ln  # outward for a ccw polygon
        limit = float(n @ a) - (float((off @ n).max()) + r) + EPS
        region = _clip(region, n, limit)
        if not region:
            return False
    return True


def _clip(poly: list, n: np.ndarray, limit: float) -> list:
    """Sutherland-Hodgman: the part of the convex polygon ``poly`` where n.p <= limit."""
    out = []
    m = len(poly)
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        dp = n[0] * p[0] + n[1] * p[1] - limit
        dq = n[0] * q[0] + n[1] * q[1] - limit
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def facings(fp: Footprint) -> list[Footprint]:
    """The base at every facing tried, its own first, then 0 and 90 degrees, then every degree
    (one for a round base)."""
    if fp.shape == "round":
        return [fp]
    step = 180.0 / FACINGS
    order = [fp.angle, 0.0, 90.0] + [k * step for k in range(FACINGS) if k * step not in (0.0, 90.0)]
    return [fp.moved(fp.x, fp.y, a) for a in order]


def fits_within(fp: Footprint, zone) -> bool:
    """03.02.02 Whether the base (its shape and size; position and facing are free) can be set
    up wholly within the polygon ``zone`` (module docstring: exact per facing in each convex
    piece). Memoised by the base's shape, size and facing and the zone."""
    return _fits_within(fp.shape, fp.length, fp.width, fp.angle,
                        tuple((float(x), float(y)) for x, y in zone))


@lru_cache(maxsize=256)
def _fits_within(shape: str, length: float, width: float, angle: float, zone: tuple) -> bool:
    pieces = [ccw(np.asarray(p, dtype=float)) for p in convex_pieces(zone)]
    for f in facings(Footprint(shape, 0.0, 0.0, length, width, angle)):
        off, r = _offsets(f)
        if any(_fits_convex(off, r, p) for p in pieces):
            return True
    return False


def player_edge(zone, board: tuple[float, float]) -> str:
    """03.02.02 A player's battlefield edge: the edge ("south" y = 0, "north" y = H, "west"
    x = 0, "east" x = W) along which their deployment zone runs, i.e. that shares the longest
    stretch of the zone's boundary; a zone on no edge: the nearest edge (ties: that order)."""
    W, H = float(board[0]), float(board[1])
    pts = np.asarray(zone, dtype=float)
    nxt = roll_next(pts)   # (np.roll(pts, -1, axis=0)'s values)
    shared = dict.fromkeys(EDGES, 0.0)
    for (x0, y0), (x1, y1) in zip(pts, nxt):
        ln = math.hypot(x1 - x0, y1 - y0)
        for edge, on in (("south", abs(y0) <= EPS and abs(y1) <= EPS),
                         ("north", abs(y0 - H) <= EPS and abs(y1 - H) <= EPS),
                         ("west", abs(x0) <= EPS and abs(x1) <= EPS),
                         ("east", abs(x0 - W) <= EPS and abs(x1 - W) <= EPS)):
            if on:
                shared[edge] += ln
    best = max(EDGES, key=lambda e: (shared[e], -EDGES.index(e)))
    if shared[best] > 0:
        return best
    gaps = {"south": pts[:, 1].min(), "north": H - pts[:, 1].max(),
            "west": pts[:, 0].min(), "east": W - pts[:, 0].max()}
    return min(EDGES, key=lambda e: (gaps[e], EDGES.index(e)))


def half_extents(fp: Footprint) -> tuple[float, float]:
    """01.04 Half the base's axis-aligned extent (x, y), exact for all three shapes."""
    a, b = 0.5 * fp.length, 0.5 * fp.width
    if fp.shape == "round":
        return a, a
    t = math.radians(fp.angle)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    if fp.shape == "rect":
        return a * c + b * s, a * s + b * c
    return math.hypot(a * c, b * s), math.hypot(a * s, b * c)


def edge_gaps(fp: Footprint, board: tuple[float, float]) -> dict[str, float]:
    """How far the base is from each battlefield edge (negative: over it)."""
    hx, hy = half_extents(fp)
    W, H = float(board[0]), float(board[1])
    return {"south": fp.y - hy, "north": H - (fp.y + hy), "west": fp.x - hx, "east": W - (fp.x + hx)}


def touches_edge(fp: Footprint, board: tuple[float, float], edges=EDGES) -> bool:
    """03.02.02 The base is wholly on the battlefield and touches one of ``edges`` (within
    EDGE_TOUCH)."""
    gaps = edge_gaps(fp, board)
    return min(gaps.values()) >= -EPS and min(gaps[e] for e in edges) <= EDGE_TOUCH + EPS


def deployment_problems(models, zones, board: tuple[float, float] | None = None) -> list[str]:
    """26 step 8 / 03.02.02: for each (model id, owner, footprint) not wholly within
    ``zones[owner]``, the reason, naming the model and how far it is from the zone (0 when it
    straddles the edge). With the ``board``, a base that cannot fit wholly within its zone
    (``fits_within``) is set up touching its player's battlefield edge (``player_edge``)
    instead, and a problem names how far it is from that edge."""
    out = []
    for mid, owner, fp in models:
        zone = zones[owner]
        if wholly_within(fp, zone):
            continue
        if board is not None and not fits_within(fp, zone):
            edge = player_edge(zone, board)
            if not touches_edge(fp, board, (edge,)):
                gap = edge_gaps(fp, board)[edge]
                out.append(f"{mid} cannot fit wholly within its deployment zone, so it is set up touching "
                           f"its battlefield edge ({edge}); it is {gap:.3f}\" from it (03.02.02)")
            continue
        gap = footprint_polygon_distance(fp, zone)
        where = f"{gap:.2f}\" outside it" if gap > EPS else "across its edge"
        out.append(f"{mid} is not wholly within its deployment zone ({where}) (26 step 8)")
    return out


def setup_problems(models, others, areas) -> list[str]:
    """03.02 Setting a unit up (an ingress move, 20.04): every model placed on no other model's
    base (03.01: touching is fine), in no light or dense feature (Part A ruling 13), and the
    unit in coherency (03.03). ``models`` are (id, footprint) of the unit as set up; ``others``
    (id, footprint) of every other model on the battlefield. Distances to enemies and the
    board's edges are sim.rules.reserves.ingress_problems'."""
    from sim.rules.coherency import coherency_problems
    from sim.rules.geometry import overlaps
    from sim.rules.movement.legality import end_blockers, terrain_index
    out = []
    terr = terrain_index(areas)
    # (each model's candidates: the others whose bounding boxes its own meets, read for every
    # model at once, the same comparisons entry by entry; the first in order that overlaps it)
    ox = np.array([ofp.x for _o, ofp in others], dtype=float)
    oy = np.array([ofp.y for _o, ofp in others], dtype=float)
    orad = np.array([ofp.bounding_radius for _o, ofp in others], dtype=float)
    blockers = end_blockers([fp for _m, fp in models], terr)   # (each base's own, read together)
    for (mid, fp), blocked in zip(models, blockers):
        reach = orad + fp.bounding_radius
        near = np.flatnonzero((np.abs(ox - fp.x) < reach) & (np.abs(oy - fp.y) < reach)).tolist()
        hit = next((others[j][0] for j in near if overlaps(fp, others[j][1])), None)
        if hit is not None:
            out.append(f"{mid}: it would be set up on {hit}'s base (03.02, 03.01)")
        if blocked is not None:
            out.append(f"{mid}: {blocked[0]} (03.02, Part A ruling 13)")
    for a, (ma, fa) in enumerate(models):
        for mb, fb in models[a + 1:]:
            if overlaps(fa, fb):
                out.append(f"{ma}: it would be set up on {mb}'s base (03.02, 03.01)")
    out += [str(p) for p in coherency_problems(list(models))]
    return out

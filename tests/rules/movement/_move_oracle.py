"""An independent brute-force oracle for the move check (03.01 moving units, 03.03 coherency,
03.04 engagement, 01.04 measuring; Part A rulings 1, 12-15), for
tests/rules/movement/test_03_01_move_check_oracle.py and test_03_03_coherency_oracle.py.

Written from RULES.md and ``check_move``'s documented contract, not from the engine's code: it
reads only the input records (a Footprint's fields, Body, TerrainArea, Feature) and uses
nothing of sim.rules.geometry, sim.rules.movement, sim.rules.polygons or sim.rules.coherency.
Clarity over speed: numpy over sample points and steps, no clever geometry.

Shapes (Part A ruling 1: a model is its base seen from above, in inches). A round base is a
disc (exact); a rectangle is its 4 corners; an oval is a polygon of ``OVAL_POINTS`` points on
its ellipse (inscribed: at most 0.00075" inside the true ellipse for ovals up to 5" long); a
terrain feature is its own polygon. Angles are degrees, counter-clockwise. Every shape has a
signed distance: a disc's is |p - c| - r; a polygon's is the distance to its nearest edge,
negative inside (inside: a ray towards +x crosses the outline an odd number of times).

Clearance between two shapes: the deciding quantity of "overlaps" (below 0) and of "within
X" (at most X). With a disc: the other shape's signed distance at the disc's centre, less its
radius (exact). Two polygons: the least signed distance of either one's outline samples (its
vertices and points every ``SPACING`` along its edges) to the other. Disjoint polygons give
exactly their distance (the closest pair of two disjoint polygons has a vertex at one end);
overlapping ones give minus the depth of the deepest outline sample, which is less than
SPACING / 2 short of the deepest outline point: an overlap can only look shallower, and never
looks like a clearance of SPACING / 2 or more.

Paths (Part A ruling 14): a base keeps its start facing along its path, stepped every ``STEP``
(every vertex included). A path of one point sweeps nothing. A model given an end facing turns
in place (03.01: rotations cost no distance, but the base may not pass through what it may
not cross), the shorter way (a round base does not turn; an oval or a rectangle looks the same
turned half a circle, so a turn is at most a quarter circle), stepped so that no point of the
base moves more than ``STEP`` between two steps: at the end of its path, or, if that is not
clear, at its start, the path then taken at the end facing (the contract of ``check_move``).
Engagement is tested at the end only (ruling 15).

The margin: a question is decided only if its deciding quantity is more than ``MARGIN`` (0.03")
from its threshold, and is otherwise answered None (not compared). That is sound:
* "overlaps" (clearance below -MARGIN): the samples only make overlaps shallower, so the true
  overlap is deeper than 0.03", far beyond the engine's documented tolerance (its ovals are
  inscribed 64-gons, under 0.005" inside the ellipse, sim/rules/geometry.py) and the
  oracle's own ovals (0.00075");
* "clear" (clearance above MARGIN at every step): each step's shapes are disjoint (as
  SPACING / 2 < MARGIN), so measured exactly; between two steps the clearance dips by at most
  STEP / 2 (it changes no faster than the base moves): still 0.015", three times the
  tolerances above;
* "within 2"/9"" and the board edge: exact for polygons and discs (a base's overshoot is
  largest at a vertex of its path, which is a step), so only the ovals' 0.0058" counts.
Path lengths are sums of the same segments on both sides and differ by rounding only:
``LENGTH_MARGIN`` 1e-6". Whether a path starts at its model: off by more than 1e-5" or less
than 1e-7" (the engine's tolerance between them is no rule).

The verdict is a dict of questions, each answered True (a problem of that kind), False (none),
None (too close to call) or NOT_ASKED (a path that cannot be read, or does not start at its
model, is not read further; what the engine says of it is not compared): (model, kind) for
each model of the unit and kind in KINDS, and (None, kind) for the unit's UNIT_KINDS.
``engine_atoms`` reads check_move's problems as the same questions.
"""

from __future__ import annotations

import functools
import math
from typing import Mapping

import numpy as np

MARGIN = 0.03            # inches: see the module docstring
STEP = 0.03              # inches between the steps of a swept base
SPACING = 0.05           # inches between a polygon's outline samples (below 2 * MARGIN)
LENGTH_MARGIN = 1e-6     # inches: path length against the maximum distance
START_FAR, START_AT = 1e-5, 1e-7   # a path starting this far off its model / this near it
OVAL_POINTS = 128

ENGAGEMENT = 2.0         # 03.04 engagement range
LINK, SPAN = 2.0, 9.0    # 03.03 coherency: 2" to one other model, 9" to every other

KINDS = ("not_in_unit", "bad_path", "start", "distance", "enemy", "edge", "dense",
         "overlap", "feature", "engagement", "link", "span")
UNIT_KINDS = ("no_unit", "own_overlap", "split")
PATH_KINDS = ("distance", "enemy", "edge", "dense")
NOT_ASKED = "not asked"


# --- shapes ---------------------------------------------------------------------------------

class Shape:
    """A disc (radius ``r``, ``verts`` None) or a polygon (``verts`` about the centre ``c``),
    with the radius ``bound`` of a circle about ``c`` holding it and (polygons) its outline
    samples about the centre."""

    def __init__(self, c, r=None, verts=None):
        self.c = np.asarray(c, dtype=float)
        self.r = r
        self.verts = None if verts is None else np.asarray(verts, dtype=float) - self.c
        self.bound = r if verts is None else float(np.hypot(*self.verts.T).max())

    @functools.cached_property
    def samples(self):
        """The vertices and points every SPACING (at most) along each edge."""
        v = self.verts
        edge = np.roll(v, -1, axis=0) - v
        n = np.maximum(1, np.ceil(np.hypot(*edge.T) / SPACING)).astype(int)
        k = np.repeat(np.arange(len(v)), n)                     # the edge of each sample
        t = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / n[k]
        return v[k] + t[:, None] * edge[k]


def rotate(pts, degrees):
    """Points (k, 2) turned ``degrees`` counter-clockwise about the origin."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return np.stack([c * pts[:, 0] - s * pts[:, 1], s * pts[:, 0] + c * pts[:, 1]], axis=1)


@functools.lru_cache(maxsize=4096)
def base_shape(fp) -> Shape:
    """01.04 A base (a Footprint: shape, centre, length x width, angle) as a Shape."""
    if fp.shape == "round":
        return Shape((fp.x, fp.y), r=fp.length / 2)
    hl, hw = fp.length / 2, fp.width / 2
    if fp.shape == "rect":
        local = np.array([(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)])
    elif fp.shape == "oval":
        t = np.linspace(0, 2 * math.pi, OVAL_POINTS, endpoint=False)
        local = np.stack([hl * np.cos(t), hw * np.sin(t)], axis=1)
    else:
        raise ValueError(f"unknown base shape {fp.shape!r}")
    return Shape((fp.x, fp.y), verts=rotate(local, fp.angle) + (fp.x, fp.y))


@functools.lru_cache(maxsize=256)
def polygon_shape(poly: tuple) -> Shape:
    """A terrain feature's polygon (a tuple of points) as a Shape."""
    v = np.asarray(poly, dtype=float)
    return Shape(v.mean(axis=0), verts=v)


def polygon_sd(p, verts):
    """Signed distance of points ``p`` (n, 2) to the polygon ``verts`` (k, 2): the distance to
    its nearest edge, negative inside (a ray towards +x crosses the outline an odd number of
    times)."""
    ax, ay = verts[:, 0], verts[:, 1]
    bx, by = np.roll(ax, -1), np.roll(ay, -1)
    ex, ey = bx - ax, by - ay                                   # edge k: a_k -> b_k
    L2 = ex * ex + ey * ey
    inv = np.where(L2 > 0, 1.0 / np.where(L2 > 0, L2, 1.0), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = ex / ey                                         # x per unit of y along the edge
    out = np.empty(len(p))
    chunk = max(1, 200_000 // len(verts))
    for s in range(0, len(p), chunk):
        px, py = p[s:s + chunk, 0:1], p[s:s + chunk, 1:2]
        apx, apy = px - ax, py - ay
        t = np.clip((apx * ex + apy * ey) * inv, 0.0, 1.0)    # the nearest point of each edge
        dx, dy = apx - t * ex, apy - t * ey
        d = np.sqrt((dx * dx + dy * dy).min(axis=1))
        with np.errstate(invalid="ignore"):
            hits = ((ay > py) != (by > py)) & (px < ax + apy * slope)
        out[s:s + chunk] = np.where(hits.sum(axis=1) % 2 == 1, -d, d)
    return out


def signed_distance(shape: Shape, p):
    """The signed distance of points ``p`` (n, 2) to ``shape``."""
    if shape.verts is None:
        return np.hypot(p[:, 0] - shape.c[0], p[:, 1] - shape.c[1]) - shape.r
    return polygon_sd(p - shape.c, shape.verts)


def swept_clearance(m: Shape, centres, x: Shape, reach=math.inf) -> float:
    """The least clearance between ``m`` with its centre at each of ``centres`` (K, 2) and the
    fixed ``x``, read only as more than ``reach``, less than ``-reach`` or in between: what
    cannot come within ``reach`` is left out (inf if nothing is left), and the search stops
    at an overlap deeper than ``reach``."""
    q = np.asarray(centres, dtype=float).reshape(-1, 2)
    q = q[np.hypot(q[:, 0] - x.c[0], q[:, 1] - x.c[1]) - m.bound - x.bound <= reach]
    if not len(q):
        return math.inf
    if m.verts is None:
        return float((signed_distance(x, q) - m.r).min())
    if x.verts is None:
        return float((polygon_sd(x.c - q, m.verts) - x.r).min())
    # no point of m is farther than m.bound from its centre, and a signed distance changes
    # no faster than the point moves: where x's signed distance at m's centre exceeds
    # m.bound + reach, no point of m comes within reach of x
    q = q[signed_distance(x, q) - m.bound <= reach]
    # where the bounding circles are apart the shapes are disjoint, and the closest pair of
    # two disjoint polygons has a vertex at one end: the vertices suffice
    apart = np.all(np.hypot(q[:, 0] - x.c[0], q[:, 1] - x.c[1]) > m.bound + x.bound)
    m_pts, x_pts = (m.verts, x.verts) if apart else (m.samples, x.samples)
    best = math.inf
    for s in range(0, len(q), 64):
        if best < -reach:
            break
        qs = q[s:s + 64]
        # m's samples against x, x's samples against m; a sample farther than reach from the
        # other's bounding circle cannot count
        pts = (qs[:, None, :] + m_pts[None, :, :]).reshape(-1, 2)
        pts = pts[np.hypot(pts[:, 0] - x.c[0], pts[:, 1] - x.c[1]) <= x.bound + reach]
        if len(pts):
            best = min(best, float(signed_distance(x, pts).min()))
        rel = ((x.c + x_pts)[None, :, :] - qs[:, None, :]).reshape(-1, 2)
        rel = rel[np.hypot(rel[:, 0], rel[:, 1]) <= m.bound + reach]
        if len(rel):
            best = min(best, float(polygon_sd(rel, m.verts).min()))
    return best


def clearance(a: Shape, b: Shape, reach=math.inf) -> float:
    """The clearance between two shapes where they stand, read as ``swept_clearance``'s."""
    return swept_clearance(a, a.c[None, :], b, reach)


def distance(a: Shape, b: Shape, reach=math.inf) -> float:
    """01.04 The edge-to-edge distance, 0 if the shapes touch or overlap (inf where the
    bounding circles say it exceeds ``reach``)."""
    return max(0.0, clearance(a, b, reach))


def near(m: Shape, centres, shapes, reach) -> list:
    """The ``shapes`` whose bounding circle comes within ``reach`` of the box of ``m``'s
    bounding circle about ``centres`` (no other can)."""
    if not shapes:
        return []
    q = np.asarray(centres, dtype=float).reshape(-1, 2)
    lo, hi = q.min(axis=0) - m.bound - reach, q.max(axis=0) + m.bound + reach
    c = np.array([x.c for x in shapes])
    b = np.array([x.bound for x in shapes])[:, None]
    keep = np.all(c + b >= lo, axis=1) & np.all(c - b <= hi, axis=1)
    return [x for x, k in zip(shapes, keep) if k]


def steps(path) -> np.ndarray:
    """Base-centre positions along a polyline (k, 2), every STEP at most, every vertex kept."""
    out = [path[:1]]
    for a, b in zip(path, path[1:]):
        n = max(1, math.ceil(math.hypot(*(b - a)) / STEP))
        out.append(a + (np.arange(1, n + 1)[:, None] / n) * (b - a))
    return np.vstack(out)


def board_overshoot(m: Shape, centres, board) -> float:
    """03.01 How far the shape goes over the battlefield edge at its worst position among
    ``centres`` (negative: how far inside it stays)."""
    W, H = board
    q = np.asarray(centres, dtype=float).reshape(-1, 2)
    if m.verts is None:
        lo, hi = q - m.r, q + m.r
    else:
        lo, hi = q + m.verts.min(axis=0), q + m.verts.max(axis=0)
    return float(np.max([-lo[:, 0], -lo[:, 1], hi[:, 0] - W, hi[:, 1] - H]))


# --- the verdict ----------------------------------------------------------------------------

def above(value: float, threshold: float, margin: float = MARGIN) -> bool | None:
    """Whether ``value`` exceeds ``threshold``; None within ``margin`` of it."""
    if value > threshold + margin:
        return True
    if value < threshold - margin:
        return False
    return None


def any_of(answers) -> bool | None:
    """True if some answer is True (the rest are not asked), False if all are False, else None."""
    unsure = False
    for a in answers:
        if a is True:
            return True
        unsure |= a is None
    return None if unsure else False


def overlaps_any(m: Shape, centres, shapes) -> bool | None:
    """Whether ``m`` at some of ``centres`` overlaps some of ``shapes`` (touching does not)."""
    return any_of(above(0.0, swept_clearance(m, centres, x, MARGIN))
                  for x in near(m, centres, shapes, MARGIN))


def oracle_verdict(unit, paths, bodies, areas, board, *, max_distance, rule,
                   may_cross_dense=False, through_enemies=False, impassable=(),
                   end_unengaged=False, check_coherency=True, angles=None) -> dict:
    """What ``check_move`` should answer (its arguments), question by question (module
    docstring). ``rule`` only names the move; a ``max_distance`` mapping gives each model its
    own maximum (03.01.01)."""
    bodies = sorted(getattr(bodies, "bodies", bodies), key=lambda b: b.model)
    mine = [b for b in bodies if b.unit == unit]
    out: dict = {(None, k): False for k in UNIT_KINDS}
    if not mine:
        out[(None, "no_unit")] = True
        return out
    out.update({(m, "not_in_unit"): True for m in paths if m not in {b.model for b in mine}})
    player = mine[0].player
    enemies = [base_shape(b.fp) for b in bodies if b.player != player]
    blockers = [base_shape(b.fp) for b in bodies if b.player != player
                and (not through_enemies or b.model in impassable)]
    others = [base_shape(b.fp) for b in bodies if b.unit != unit]
    features = [polygon_shape(tuple(map(tuple, f.polygon))) for a in areas for f in a.features
                if f.category in ("light", "dense")]
    dense = [polygon_shape(tuple(map(tuple, f.polygon))) for a in areas for f in a.features
             if f.category == "dense"]
    ends = []
    for b in mine:
        ask = dict.fromkeys(KINDS, False)
        turn = (angles or {}).get(b.model)
        end_fp = b.fp if turn is None else b.fp.moved(b.fp.x, b.fp.y, turn)
        path = paths.get(b.model)
        pts = np.zeros((0, 2)) if path is None else np.asarray(path, dtype=float).reshape(-1, 2)
        if len(pts) and not np.isfinite(pts).all():
            ask["bad_path"] = True             # a path it cannot read leaves the model put
            ask.update(dict.fromkeys(("start",) + PATH_KINDS, NOT_ASKED))
            end_fp = b.fp
        elif len(pts):
            end_fp = b.fp.moved(pts[-1, 0], pts[-1, 1], turn)
            gap = math.hypot(pts[0, 0] - b.fp.x, pts[0, 1] - b.fp.y)
            ask["start"] = True if gap > START_FAR else False if gap < START_AT else None
            if ask["start"] is False:
                limit = max_distance[b.model] if isinstance(max_distance, Mapping) else max_distance
                crossed = [] if may_cross_dense else dense
                if not turn_degrees(b.fp, turn):
                    path_questions(ask, base_shape(b.fp), base_shape(end_fp), pts, float(limit),
                                   blockers, crossed, board)
                else:
                    turned_path_questions(ask, b.fp, turn, pts, float(limit), blockers, crossed, board)
            else:                              # a path off its model is not read further
                ask.update(dict.fromkeys(PATH_KINDS, NOT_ASKED))
        elif turn_degrees(b.fp, turn):         # it turns where it stands
            ask.update(turn_questions(b.fp, turn, blockers, [] if may_cross_dense else dense, board))
        end = base_shape(end_fp)
        ends.append(end)
        stays = not len(pts) and turn is None  # (ruling 13 binds the models that move)
        ask["overlap"] = False if stays else overlaps_any(end, end.c, others)
        ask["feature"] = False if stays else overlaps_any(end, end.c, features)
        if end_unengaged:
            reach = ENGAGEMENT + MARGIN
            ask["engagement"] = any_of(above(ENGAGEMENT, distance(end, x, reach))
                                       for x in near(end, end.c, enemies, reach))
        out.update({(b.model, k): v for k, v in ask.items()})
    out[(None, "own_overlap")] = any_of(above(0.0, clearance(a, b, MARGIN))
                                        for i, a in enumerate(ends) for b in ends[i + 1:])
    if check_coherency:
        out.update(coherency_verdict([b.model for b in mine], ends))
    return out


def path_questions(ask, start: Shape, end: Shape, pts, limit, blockers, dense, board) -> None:
    """03.01 / 13.06 The path's questions: its length against ``limit``; the base swept at its
    start facing across a base of ``blockers`` or a polygon of ``dense``; any part of it over
    the board edge along the path or at the end (at its end facing)."""
    length = sum(math.hypot(*(q - p)) for p, q in zip(pts, pts[1:]))
    ask["distance"] = above(length, limit, LENGTH_MARGIN)
    along = steps(pts)
    if len(pts) > 1:
        ask["enemy"] = overlaps_any(start, along, blockers)
        ask["dense"] = overlaps_any(start, along, dense)
    ask["edge"] = above(max(board_overshoot(start, along, board),
                            board_overshoot(end, pts[-1:], board)), 0.0)


def turn_degrees(fp, angle) -> float:
    """The turn from ``fp``'s facing to ``angle``, the shorter way, in (-90, 90] degrees (0: no
    turn: none asked, a round base, or half a circle)."""
    if angle is None or fp.shape == "round":
        return 0.0
    d = (angle - fp.angle) % 180.0
    return d - 180.0 if d > 90.0 else d


def turn_questions(fp, angle, blockers, dense, board) -> dict:
    """03.01 The questions of ``fp`` turning in place to ``angle`` (``turn_degrees``), its
    facing stepped so that no point of the base moves more than STEP: does it cross a base of
    ``blockers``, a polygon of ``dense``, the board edge."""
    d = turn_degrees(fp, angle)
    bound = base_shape(fp).bound
    n = max(1, math.ceil(math.radians(abs(d)) * bound / STEP))
    shapes = [base_shape(fp.moved(fp.x, fp.y, fp.angle + d * i / n)) for i in range(n + 1)]
    return {"enemy": any_of(overlaps_any(x, x.c, blockers) for x in shapes),
            "dense": any_of(overlaps_any(x, x.c, dense) for x in shapes),
            "edge": above(max(board_overshoot(x, x.c, board) for x in shapes), 0.0)}


def turned_path_questions(ask, fp, angle, pts, limit, blockers, dense, board) -> None:
    """``path_questions`` for a model that turns: turning at the end of its path (the path at
    its start facing, then the turn), unless turning at its start (the turn, then the path at
    its end facing) is clear of all three kinds; unsure of a kind where the second is unsure
    and the first finds it."""
    start = base_shape(fp)
    at_end = {}
    path_questions(at_end, start, start, pts, limit, blockers, dense, board)
    ask["distance"] = at_end.pop("distance")
    turn = turn_questions(fp.moved(pts[-1, 0], pts[-1, 1]), angle, blockers, dense, board)
    at_end = {k: any_of([at_end.get(k, False), turn[k]]) for k in ("enemy", "dense", "edge")}
    first = turn_questions(fp, angle, blockers, dense, board)
    then = {}
    path_questions(then, base_shape(fp.moved(fp.x, fp.y, angle)), base_shape(fp.moved(fp.x, fp.y, angle)),
                   pts, limit, blockers, dense, board)
    at_start = any_of([first[k] for k in first] + [then.get(k, False) for k in ("enemy", "dense", "edge")])
    for k, v in at_end.items():
        ask[k] = False if at_start is False or v is False else v if at_start is True else None


def coherency_verdict(ids, ends) -> dict:
    """03.03 Every model within 2" of at least one other model of its unit and within 9" of
    every other; [FAQ] the 2" links join the unit into one group. A unit of one model is
    always coherent. Questions: (model, "link"), (model, "span"), (None, "split")."""
    n = len(ids)
    out = {(None, "split"): False}
    out.update({(m, k): False for m in ids for k in ("link", "span")})
    if n < 2:
        return out
    lo, hi = np.zeros((n, n)), np.zeros((n, n))       # each pair's distance lies in [lo, hi]
    for i in range(n):
        for j in range(i + 1, n):
            lo[i, j], hi[i, j] = pair_distance(ends[i], ends[j])
            lo[j, i], hi[j, i] = lo[i, j], hi[i, j]
    sure, maybe = hi <= LINK - MARGIN, lo <= LINK + MARGIN     # linked within 2"
    for i, m in enumerate(ids):
        rest = [j for j in range(n) if j != i]
        out[(m, "link")] = False if sure[i, rest].any() else None if maybe[i, rest].any() else True
        out[(m, "span")] = (True if (lo[i, rest] > SPAN + MARGIN).any() else
                            False if (hi[i, rest] < SPAN - MARGIN).all() else None)
    out[(None, "split")] = False if connected(sure) else None if connected(maybe) else True
    return out


def pair_distance(a: Shape, b: Shape) -> tuple[float, float]:
    """Bounds (lo, hi) of the distance between two bases: measured (lo = hi) unless the
    bounding circles (apart by at least lo) and the centres (at most hi apart, each inside its
    base) already settle both the 2" and the 9" question."""
    c = math.hypot(*(a.c - b.c))
    lo = c - a.bound - b.bound
    if lo > SPAN + MARGIN or (lo > LINK + MARGIN and c < SPAN - MARGIN) or c < LINK - MARGIN:
        return max(lo, 0.0), c
    d = distance(a, b)
    return d, d


def connected(linked) -> bool:
    """Whether the graph of the boolean matrix ``linked`` is one group (a search from 0)."""
    seen, todo = {0}, [0]
    while todo:
        for j in np.flatnonzero(linked[todo.pop()]).tolist():
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(linked)


# --- the engine's answer, read as the same questions ----------------------------------------

def engine_kind(p) -> tuple:
    """The question a MoveProblem answers True: (model or None, kind)."""
    msg = p.message
    if p.rule == "03.03":
        if "contiguous" in msg:
            return (None, "split")
        return (p.model, "link" if "at least one" in msg else "span")
    for kind, words in (("no_unit", "has no models on the battlefield"),
                        ("not_in_unit", "is not a model of unit"),
                        ("bad_path", "non-finite"), ("start", "its path starts at"),
                        ("distance", "may move at most"), ("enemy", "crosses the base of enemy"),
                            ("enemy", "would cross the base of enemy"),
                        ("edge", "over the battlefield edge"), ("dense", "crosses a dense feature"),
                            ("dense", "would cross a dense feature"),
                        ("engagement", "engagement range")):
        if words in msg:
            return (None if kind == "no_unit" else p.model, kind)
    if "end overlapping the base of" in msg:
        return (None, "own_overlap") if "own unit" in msg else (p.model, "overlap")
    if "feature of" in msg:
        return (p.model, "feature")
    raise AssertionError(f"a problem the oracle does not know: {p}")


def engine_atoms(problems) -> set:
    return {engine_kind(p) for p in problems}


def disagreements(verdict: dict, problems) -> list:
    """(question, oracle's answer, engine's answer) wherever the oracle decided and the
    engine answered otherwise, or the engine raised a question the oracle does not ask."""
    got = engine_atoms(problems)
    bad = [(q, want, q in got) for q, want in verdict.items()
           if want is not None and want is not NOT_ASKED and want != (q in got)]
    return bad + [(q, None, True) for q in got if q not in verdict]

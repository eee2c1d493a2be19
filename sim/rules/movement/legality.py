"""03.01 Moving units: the path and end-of-move checks of one unit's move (Part A rulings 12-15).

The path model (Part A ruling 14): a model's move is a polyline of its base centre; its length
is the distance used (03.01: the sum of the straight-line segments; rotations are free). The
base keeps its facing along the path; a model given an end facing turns in place, the shorter
way, at the end of its path, or (where that is not clear) at its start, the path then taken at
the new facing (``turn_blocker``: the turn's swept area, sim.rules.movement.turning). While
moving, the swept base (the base dragged along each segment, or turning):

* may cross friendly bases, never enemy bases (03.01) unless the move allows it
  (``through_enemies``: Desperate Escape 09.07, 17.01, taking to the skies 21.03);
  ``impassable`` names enemy models that block even then (17.01: other MONSTER/VEHICLE);
* may not cross the battlefield edge (03.01);
* may cross a dense feature only if the model may (``may_cross_dense``, read by
  ``index.crossing_limit``; Part A ruling 12, 13.06, 24.35): True, every one (INFANTRY, BEASTS,
  SWARM, MOBILE, or taking to the skies); False, those given a height of 2" or less (any
  model); 4.0, those of 4" or less (a Super-heavy Walker's normal, advance or fall-back move);
  exposed and light features never hinder movement (13.06).

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
``TerrainIndex``, both in sim.rules.movement.index) can be built once and passed instead of the raw
sequences when many moves are checked against one table state; the vectorised kernels are
sim.rules.movement.kernels.
"""

from __future__ import annotations

import functools
import math
from typing import Collection, Mapping, Sequence

import numpy as np

from sim.rules.arrays import col_max, col_min, count_true, flatnonzero, roll_next
from sim.rules.compiled import kernel
from sim.rules.coherency import MoveProblem, coherency_problems_from_matrix, coherency_screen
from sim.rules.geometry import EPS, ENGAGEMENT_RANGE, Footprint, core, disc_distances, in_engagement_range, overlaps
from sim.rules.movement.index import (TOUCH, START_TOL, RULE_NAMES, _a, Body, BodyIndex, as_index, _Poly, EdgeSet,
                                  TerrainIndex, terrain_index)
from sim.rules.movement.kernels import (_seg_point_dist, core_edges, near_points_distance,
                                    near_polys_distance, segments_polys_distance, _minkowski_sum, _swept,
                                    _segments_enter_convex, _convex_signed, _points_convex_distance,
                                    points_convexes_distance,
                                    _convex_overlap, _convex_penetrates_polygon, _offsets, near_rows,
                                    rows_near_box, placed_distances, placed_overlaps, distances_from, fps_to_rows,
                                    fps_distance_matrix, unit_distance, path_length)
from sim.rules.movement.round_paths import _DENSE_RULE, _box_near, _dense_message, round_path_checks
from sim.rules.movement.turning import turn_disc, turn_tree, turned
from sim.rules.polygons import ccw
from sim.rules.terrain import TerrainArea

__all__ = [
    "Body", "MoveProblem", "Point", "BodyIndex", "TerrainIndex", "as_index", "terrain_index",
    "path_length", "check_move", "end_coherency_problems", "end_coherent", "engaged_units",
    "unit_distance", "distances_from",
    "path_blocker", "turn_blocker", "end_blocker", "end_blockers", "blocking_rows", "board_mask", "overlap_mask",
    "feature_mask", "straight_paths_clear", "placed_distances", "placed_overlaps", "near_rows",
    "fps_distance_matrix", "fps_to_rows", "segments_polys_distance", "EdgeSet", "TOUCH", "START_TOL",
]

Point = tuple[float, float]


# --- path and end checks for one model (shared with the solvers) ---------------------------

def blocking_rows(idx: BodyIndex, player: int, through_enemies: bool,
                   impassable: Collection[str]) -> np.ndarray:
    if not through_enemies:
        return idx.enemies(player)
    enemy = idx.players != player
    keep = np.zeros(len(idx), dtype=bool)
    for mid in impassable:
        j = idx.row.get(mid)
        if j is not None and enemy[j]:
            keep[j] = True
    return flatnonzero(keep)


def path_blocker(fp: Footprint, pts: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                 board: tuple[float, float], blockers: np.ndarray, *,
                 may_cross_dense: bool | float, first_only: bool = True,
                 turning: str | None = None) -> list[tuple[str, str, str, float | None]]:
    """03.01 / 13.06 What stops the base ``fp`` (at its start facing) being dragged along the
    polyline ``pts`` (k, 2): enemy bases among ``blockers`` (rows of ``idx``) it would cross,
    the battlefield edge, and dense features it may not cross (``may_cross_dense``). Returns
    (kind, rule, message, distance) tuples, kind "enemy" / "edge" / "dense"; at most one of
    each kind (the first along the path); only the first found if ``first_only``.
    ``turning``: the base stands in place as part of a turn (``turn_blocker``), and the
    messages say so, from these words ("turning to 90 degrees")."""
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
        # (rounded addition is monotonic: the least of off + p is the least of off, plus p)
        lo, hi = off.min(axis=0) + pts, off.max(axis=0) + pts
    over = np.maximum(np.maximum(-lo[:, 0], -lo[:, 1]), np.maximum(hi[:, 0] - W, hi[:, 1] - H))
    if np.any(over > TOUCH):
        k = int(np.argmax(over > TOUCH))
        where = f"{turning}, " if turning else ""
        out.append(("edge", "03.01", f"{where}its base would go {over[k]:.2f}\" over the battlefield edge "
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
            out.append(("enemy", "03.01", f"{turning}, its base would cross the base of enemy model {idx.ids[j]} "
                        f"(by {depth:.2f}\")" if turning else f"its path crosses the base of enemy model {idx.ids[j]} "
                        f"(by {depth:.2f}\") on segment {seg + 1}", depth))
            if first_only:
                return out
    dense = terr.uncrossable(may_cross_dense)
    if len(dense):
        hit = _dense_hit(fp, off, a, b, dense)
        if hit is not None:
            _seg, p, depth = hit
            msg = _dense_message(dense.polys[p])
            if turning:
                msg = f"{turning}, " + msg.replace("its path crosses", "its base would cross", 1)
            out.append(("dense", _DENSE_RULE, msg, depth))
    order = {"enemy": 0, "edge": 1, "dense": 2}
    return sorted(out, key=lambda p: order[p[0]])


def _hull_path_problems(fp: Footprint, pts: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                        board: tuple[float, float], blockers: np.ndarray,
                        may_cross_dense: bool | float) -> list[tuple[str, str, str, float | None]]:
    """03.01 / 13.06 Checks 3-5 of ``check_move`` for a base that is not round dragged along
    ``pts``: ``path_blocker``, every kind it finds (first_only False)."""
    return path_blocker(fp, pts, idx, terr, board, blockers, may_cross_dense=may_cross_dense, first_only=False)


# (its compiled twin answers the paths with nothing to find, where built: sim.rules.compiled)
_hull_path_problems = kernel("movement.hull_path_problems", _hull_path_problems)


def turn_blocker(fp: Footprint, angle: float, idx: BodyIndex, terr: TerrainIndex, board: tuple[float, float],
                 blockers: np.ndarray, *, may_cross_dense: bool | float,
                 first_only: bool = True) -> list[tuple[str, str, str, float | None]]:
    """03.01 / Part A ruling 14 What stops the base ``fp`` turning in place to ``angle`` (the
    shorter way, sim.rules.movement.turning): ``path_blocker``'s checks (enemy bases among
    ``blockers``, the battlefield edge, dense features it may not cross) of the area the turn
    sweeps. The disc holding every facing first (a turn in the open is clear at once); else
    the turn's grown samples by the bases holding runs of them (turning.turn_tree), looked into
    only where a base meets something, and the samples of a block that does, in turning order. Returns ``path_blocker``'s tuples, at most
    one of each kind (the deepest of the turn); only the first found if ``first_only``. Errs knowingly by
    ``turning.TURN_MARGIN`` (a turn passing that near a blocker is refused)."""
    if not turned(fp, angle):
        return []
    here = np.array([[fp.x, fp.y], [fp.x, fp.y]])
    if not path_blocker(turn_disc(fp), here, idx, terr, board, blockers, may_cross_dense=may_cross_dense):
        return []
    words = f"turning to {angle:g} degrees"
    found: dict[str, tuple] = {}
    _look(turn_tree(fp, angle), (here, idx, terr, board, blockers), may_cross_dense, words, found, first_only)
    order = {"enemy": 0, "edge": 1, "dense": 2}
    out = sorted(found.values(), key=lambda p: order[p[0]])
    return out[:1] if first_only else out


def _look(nodes, scene: tuple, may_cross_dense: bool | float, words: str, found: dict, first_only: bool) -> bool:
    """turn_blocker's walk of the turn's tree (turning.turn_tree): the nodes' samples tested
    where every base holding them meets something in ``scene`` (here, idx, terr, board,
    blockers), in turning order, their problems kept in ``found`` (of each kind the deepest);
    True once the first problem is found and only that is asked (``first_only``)."""
    for node in nodes:
        if not path_blocker(node.base, *scene, may_cross_dense=may_cross_dense):
            continue  # (the node's samples all clear: its base holds them)
        if node.kids:
            if _look(node.kids, scene, may_cross_dense, words, found, first_only):
                return True
            continue
        for s in node.run:
            for p in path_blocker(s, *scene, may_cross_dense=may_cross_dense, first_only=False, turning=words):
                got = found.get(p[0])
                if got is None or (p[3] is not None and got[3] is not None and p[3] > got[3]):
                    found[p[0]] = p  # (of each kind, the deepest: how far the whole turn goes over)
            if found and first_only:
                return True
    return False


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
            if count_true(bad):
                s, m = np.argwhere(bad)[0]
                best = (int(s), int(rnd_rows[m]), float(lim[0, m] - d[s, m]))
        for j in hull_rows.tolist():
            d = segments_polys_distance(a, b, core_edges(idx.fps[j]))[:, 0]
            bad = flatnonzero(d < r - TOUCH)
            if len(bad) and (best is None or (bad[0], j) < best[:2]):
                best = (int(bad[0]), j, float(r - d[bad[0]]))
        return best
    for s, (p, q) in enumerate(zip(a, b)):
        hull = _swept(off, p, q)
        found = []
        if len(rnd_rows):
            d = _points_convex_distance(idx.centres[rnd_rows], hull)
            lim = idx.radius[rnd_rows]
            bad = flatnonzero(d < lim - TOUCH)
            found += [(int(rnd_rows[m]), float(lim[m] - d[m])) for m in bad.tolist()]
        for j in hull_rows.tolist():
            if _convex_overlap(hull, idx.core(j)):
                found.append((j, 0.0))
        if found:
            j, depth = min(found)
            return (s, j, depth)
    return None


def _dense_hit(fp: Footprint, off: np.ndarray | None, a: np.ndarray, b: np.ndarray,
               es: EdgeSet) -> tuple[int, int, float | None] | None:
    """13.06 The first (segment, polygon, depth) where the base ``fp`` dragged along a->b
    (S, 2) enters a polygon of ``es`` by more than TOUCH, or None."""
    if not len(es) or not len(a):
        return None
    if fp.shape == "round":
        r = 0.5 * fp.length
        near = _box_near(np.minimum(a, b) - r, np.maximum(a, b) + r, es)
        if not count_true(near):
            return None
        d = near_polys_distance(a, b, near, es)
        bad = near & (d < r - TOUCH)
        if not count_true(bad):
            return None
        s, p = np.argwhere(bad)[0].tolist()
        return (s, p, float(r - d[s, p]))
    bnd = fp.bounding_radius
    near = _box_near(np.minimum(a, b) - bnd, np.maximum(a, b) + bnd, es)
    for s, p in np.argwhere(near).tolist():
        hull = _swept(off, a[s], b[s])
        if _convex_penetrates_polygon(hull, es.polys[p], TOUCH):
            return (s, p, None)
    return None


def round_features_refuse(starts: np.ndarray, ends: np.ndarray, radii: np.ndarray, terr: TerrainIndex,
                          may_cross_dense: bool | float | None, margin: float) -> bool:
    """Part A ruling 13 / 13.06, for a player's quick look before a move is checked: True only
    if ``check_move`` certainly refuses a move in which round bases (``radii``) go in straight
    lines from ``starts`` to ``ends`` (K, 2): a base would end over a light or dense feature
    (check 7), or its path would cross a dense feature it may not cross (check 5;
    ``may_cross_dense`` as check_move's, None: not asked, as for a path with turning points),
    by more than ``margin`` beyond the check's own TOUCH. The check's own distance kernels
    on the same bases, so a base it finds past the limit by more than ``margin`` is one the
    check finds past it too. False says nothing."""
    limit = (radii - TOUCH - margin)[:, None]
    es = terr.no_end
    if len(es):
        near = _box_near(ends - radii[:, None], ends + radii[:, None], es)
        if count_true(near) and (near & (near_points_distance(ends, near, es) < limit)).any():
            return True
    if may_cross_dense is None:
        return False
    dense = terr.uncrossable(may_cross_dense)
    if len(dense):
        near = _box_near(np.minimum(starts, ends) - radii[:, None], np.maximum(starts, ends) + radii[:, None],
                         dense)
        if count_true(near) and (near & (near_polys_distance(starts, ends, near, dense) < limit)).any():
            return True
    return False


# (its compiled twin runs where built: sim.rules.compiled)
round_features_refuse = kernel("movement.round_features_refuse", round_features_refuse)


def end_blockers(fps: Sequence[Footprint], terr: TerrainIndex) -> list[tuple[str, float | None] | None]:
    """03.01 / Part A ruling 13: for each base, the first light or dense feature (layout order)
    it would end overlapping, as (message, depth), or None. Vectorised for round bases."""
    if not len(fps) or not len(terr.no_end):
        return [None] * len(fps)
    return _end_blockers(_Ends(fps), terr)


class _Ends:
    """The bases at the end of a move as the end checks read them, built once: centres
    (K, 2) and their smallest and largest coordinates, round or not, round radii (0 for
    hulls), bounding radii, and each base's reach (its radius if round, else its bounding
    radius)."""

    __slots__ = ("fps", "c", "cmin", "cmax", "rnd", "rnd_l", "rf", "bnd", "bnd_l", "reach")

    def __init__(self, fps: Sequence[Footprint]):
        self.fps = fps
        self.c = np.array([(f.x, f.y) for f in fps], dtype=float)
        self.cmin, self.cmax = col_min(self.c), col_max(self.c)
        self.rnd_l = [f.shape == "round" for f in fps]
        self.bnd_l = [f.bounding_radius for f in fps]
        rf = [0.5 * f.length if r else 0.0 for f, r in zip(fps, self.rnd_l)]
        self.rnd = np.array(self.rnd_l, dtype=bool)
        self.rf = np.array(rf)
        self.bnd = np.array(self.bnd_l)
        self.reach = np.array([a if r else b for a, b, r in zip(rf, self.bnd_l, self.rnd_l)])


def _end_blockers(e: _Ends, terr: TerrainIndex) -> list[tuple[str, float | None] | None]:
    fps = e.fps
    out: list[tuple[str, float | None] | None] = [None] * len(fps)
    es = terr.no_end
    if not len(fps) or not len(es):
        return out
    c, rnd, b = e.c, e.rnd, e.reach
    near = _box_near(c - b[:, None], c + b[:, None], es)
    if not count_true(near):
        return out
    if count_true(rnd):
        d = near_points_distance(c, near & rnd[:, None], es)
        bad = near & (d < b[:, None] - TOUCH) & rnd[:, None]
        for i in flatnonzero(bad.any(axis=1)).tolist():
            p = int(np.argmax(bad[i]))
            poly = es.polys[p]
            out[i] = (f"it would end {b[i] - d[i, p]:.2f}\" into a {poly.category} feature of "
                      f"{poly.area!r}", float(b[i] - d[i, p]))
    kept = terr.hull_ends  # (a base that is not round: its answer kept, a function of it alone)
    for i in flatnonzero(~rnd).tolist():
        fp = fps[i]
        if fp in kept:
            out[i] = kept[fp]
            continue
        hull = core(fp)[0]
        for p in flatnonzero(near[i]).tolist():
            poly = es.polys[p]
            if _convex_penetrates_polygon(hull, poly, TOUCH):
                out[i] = (f"it would end overlapping a {poly.category} feature of "
                          f"{poly.area!r}", None)
                break
        if len(kept) >= HULL_ENDS_KEPT:
            kept.clear()
        kept[fp] = out[i]
    return out


HULL_ENDS_KEPT = 4096  # (the end answers a TerrainIndex keeps for bases that are not round)


def end_blocker(fp: Footprint, terr: TerrainIndex) -> tuple[str, float | None] | None:
    """Part A ruling 13: the light or dense feature the base ``fp`` would end overlapping, as
    (message, depth), or None."""
    return end_blockers([fp], terr)[0]


def _end_overlaps(e: _Ends, idx: BodyIndex, rows: np.ndarray) -> list[list[tuple[int, float]]]:
    """For each footprint, the rows it overlaps (sharing area by more than TOUCH) with the
    overlap depth (0 where not computed)."""
    fps = e.fps
    out: list[list[tuple[int, float]]] = [[] for _ in fps]
    if not len(fps) or not len(rows):
        return out
    c = e.c
    near = rows_near_box(idx, e.cmin, e.cmax, max(e.bnd_l), 0.0, rows)
    if not len(near):
        return out
    rnd_f, rf = e.rnd, e.rf
    rn = near[idx.round[near]]
    if len(rn) and count_true(rnd_f):
        diff = c[:, None, :] - idx.centres[rn][None, :, :]
        cd = np.hypot(diff[..., 0], diff[..., 1])
        lim = rf[:, None] + idx.radius[rn][None, :]
        bad = (cd < lim - TOUCH) & rnd_f[:, None]
        for i, m in np.argwhere(bad).tolist():
            out[i].append((int(rn[m]), float(lim[i, m] - cd[i, m])))
    hull_near = near[~idx.round[near]].tolist()
    if hull_near and count_true(rnd_f):
        _round_hull_overlaps(e, idx, hull_near, out)
    for i, f in enumerate(fps):
        if rnd_f[i]:
            out[i].sort()
            continue
        for j in near.tolist():
            if math.hypot(f.x - idx.centres[j, 0], f.y - idx.centres[j, 1]) \
                    >= f.bounding_radius + idx.bound[j]:
                continue
            if overlaps(f, idx.fps[j]):
                out[i].append((j, 0.0))
        out[i].sort()
    return out


OVERLAP_BAND = 1e-9  # inches: a kernel distance this near the overlap threshold is measured again


def _round_hull_overlaps(e: _Ends, idx: BodyIndex, hulls: list[int], out: list) -> None:
    """``_end_overlaps`` of the round bases among ``e`` against the hull bodies ``hulls``:
    ``geometry.overlaps`` (a round base of radius r overlaps a hull when its centre is less than
    r - 1e-7 from the hull's core), its centre-to-core distances measured for every pair at once
    (``points_convexes_distance``). They and ``overlaps``' own differ by rounding only (~1e-14;
    a centre within EPS inside a core, which ``overlaps`` counts at 0, is under any base's
    threshold either way), so a pair whose distance is within OVERLAP_BAND of the threshold is
    decided by ``overlaps`` itself and every other pair gets its answer."""
    fps = e.fps
    ri = flatnonzero(e.rnd)
    hj = np.array(hulls, dtype=np.int64)
    dx = e.c[ri, 0, None] - idx.centres[hj, 0]
    dy = e.c[ri, 1, None] - idx.centres[hj, 1]
    # (the bounding circles meet: hulls whose circles a base's misses cannot overlap it)
    close = np.hypot(dx, dy) < e.bnd[ri, None] + idx.bound[hj]
    if not count_true(close):
        return
    d = points_convexes_distance(e.c[ri], [idx.core(j) for j in hulls]).T  # (round bases, hulls)
    thr = e.rf[ri, None] - 1e-7
    for a, b in np.argwhere(close).tolist():
        i, j = int(ri[a]), hulls[b]
        gap = d[a, b] - thr[a, 0]
        hit = overlaps(fps[i], idx.fps[j]) if abs(gap) <= OVERLAP_BAND else gap < 0
        if hit:
            out[i].append((j, 0.0))


def _nearest_enemy(e: _Ends, idx: BodyIndex, player: int) -> list[tuple[int, float] | None]:
    """For each footprint, (row, distance) of the nearest enemy model of ``player`` if it is
    within engagement range (03.04), else None."""
    fps = e.fps
    out: list[tuple[int, float] | None] = [None] * len(fps)
    enemies = idx.enemies(player)
    if not len(fps) or not len(enemies):
        return out
    c = e.c
    bnd = max(e.bnd_l)
    near = rows_near_box(idx, e.cmin, e.cmax, bnd, ENGAGEMENT_RANGE, enemies)
    if not len(near):
        return out
    for i, f in enumerate(fps):
        d = distances_from(f, c[i:i + 1], idx, near)[0] if f.shape != "round" else None
        if d is None:
            continue
        m = int(np.argmin(d))
        if in_engagement_range(d[m]):
            out[i] = (int(near[m]), float(d[m]))
    rnd = [i for i, f in enumerate(fps) if f.shape == "round"]
    if rnd:
        fr = np.array([0.5 * fps[i].length for i in rnd])
        d = np.empty((len(rnd), len(near)))
        rn = idx.round[near]
        if count_true(rn):
            d[:, rn] = disc_distances(c[rnd], fr, idx.centres[near[rn]], idx.radius[near[rn]])
        hm = flatnonzero(~rn)
        if len(hm):
            dh = points_convexes_distance(c[rnd], [idx.core(int(j)) for j in near[hm].tolist()])
            d[:, hm] = np.maximum(dh.T - fr[:, None], 0.0)
        best = d.argmin(axis=1)
        for k, i in enumerate(rnd):
            dm = float(d[k, best[k]])
            if in_engagement_range(dm):
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
        if not count_true(near):
            return np.zeros(K, dtype=bool)
        return (near & (near_points_distance(centres, near, es) < r - TOUCH)).any(axis=1)
    # a base overlaps a feature iff its centre is inside some convex piece (-) the base
    bnd = fp.bounding_radius
    near = _box_near(centres - bnd, centres + bnd, es)
    out = np.zeros(K, dtype=bool)
    for p in flatnonzero(near.any(axis=0)).tolist():
        rows = flatnonzero(near[:, p])
        for md in _feature_differences(terr, p, fp):
            out[rows] |= _convex_signed(centres[rows], md) > TOUCH
    return out


@functools.lru_cache(maxsize=1024)
def _feature_differences(terr: TerrainIndex, p: int, fp: Footprint) -> tuple:
    """``feature_mask``'s polygons for a hull: the Minkowski sum of each convex piece of the
    light or dense feature ``p`` and the reflection of the base's core offsets. The index and
    the footprint are immutable, so they are kept (the most recent 1024: the placement solver
    tests one base, grown at the origin, at many spots); each array read-only."""
    off = _offsets(fp)
    out = tuple(_minkowski_sum(piece, -off) for piece in terr.pieces("no_end", p))
    for md in out:
        md.flags.writeable = False
    return out


def straight_paths_clear(fp: Footprint, ends: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                         blockers: np.ndarray, *, may_cross_dense: bool | float) -> np.ndarray:
    """03.01 / 13.06 (K,) whether the base ``fp`` dragged in a straight line from where it
    stands to each of ``ends`` (K, 2) clears every base among ``blockers`` and every dense
    feature it may not cross (``may_cross_dense``); the board edge is ``board_mask``'s business
    (the board is convex, so two ends on it mean the whole line is). Vectorised for round bases
    (``_straight_paths_clear``, its arguments by position)."""
    return _straight_paths_clear(fp, ends, idx, terr, blockers, may_cross_dense)


def _straight_paths_clear(fp: Footprint, ends: np.ndarray, idx: BodyIndex, terr: TerrainIndex,
                          blockers: np.ndarray, may_cross_dense: bool | float) -> np.ndarray:
    """03.01 / 13.06 ``straight_paths_clear``: (K,) whether the base ``fp`` dragged in a straight
    line from where it stands to each of ``ends`` clears every base among ``blockers`` (a round
    one: the distance from its centre to the segment; a hull: to its core) and every dense
    feature ``may_cross_dense`` does not let it cross."""
    K = len(ends)
    out = np.ones(K, dtype=bool)
    if not K:
        return out
    dense = terr.uncrossable(may_cross_dense)
    if fp.shape != "round":
        # the base swept along s->e meets X iff the segment s->e enters X (-) base (Minkowski)
        off = _offsets(fp)
        neg = -off                                       # the base reflected (still ccw)
        a = np.array([[fp.x, fp.y]]).repeat(K, axis=0)
        bnd = fp.bounding_radius
        if len(blockers):
            near = near_rows(idx, np.vstack([a[:1], ends]), bnd, 0.0, blockers)
            for j in near.tolist():
                other = idx.core(j) if not idx.round[j] else idx.centres[j:j + 1]
                md = _minkowski_sum(ccw(other), neg)
                if idx.round[j]:
                    d = segments_polys_distance(a, ends, EdgeSet([_Poly(
                        "", "", md, roll_next(md), md.min(0), md.max(0))]))[:, 0]
                    out &= ~(d < idx.radius[j] - TOUCH)
                else:
                    out &= ~_segments_enter_convex(a, ends, md)
        if len(dense):
            near = _box_near(np.minimum(a, ends) - bnd, np.maximum(a, ends) + bnd, dense)
            for p in flatnonzero(near.any(axis=0)).tolist():
                rows = flatnonzero(near[:, p])
                for piece in terr.pieces(dense, p):
                    md = _minkowski_sum(piece, neg)
                    out[rows] &= ~_segments_enter_convex(a[rows], ends[rows], md)
        return out
    r = 0.5 * fp.length
    a = np.array([[fp.x, fp.y]]).repeat(K, axis=0)
    if len(blockers):
        near = near_rows(idx, np.vstack([a[:1], ends]), r, 0.0, blockers)
        rn = near[idx.round[near]]
        if len(rn):
            d = _seg_point_dist(a, ends, idx.centres[rn])
            out &= ~(d < r + idx.radius[rn][None, :] - TOUCH).any(axis=1)
        for j in near[~idx.round[near]].tolist():
            out &= ~(segments_polys_distance(a, ends, core_edges(idx.fps[j]))[:, 0] < r - TOUCH)
    if len(dense):
        near = _box_near(np.minimum(a, ends) - r, np.maximum(a, ends) + r, dense)
        if count_true(near):
            d = near_polys_distance(a, ends, near, dense)
            out &= ~(near & (d < r - TOUCH)).any(axis=1)
    return out


# (its compiled twin runs where built: sim.rules.compiled)
_straight_paths_clear = kernel("movement.straight_paths_clear", _straight_paths_clear)


# --- the unit's move -----------------------------------------------------------------------

def check_move(unit: str, paths: Mapping[str, Sequence[Point]],
               bodies: Sequence[Body] | BodyIndex,
               areas: Sequence[TerrainArea] | TerrainIndex, board: tuple[float, float], *,
               max_distance: Mapping[str, float] | float, rule: str,
               may_cross_dense: bool | float = False, through_enemies: bool = False,
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
    5. it crosses no dense feature it may not (``may_cross_dense``: True every one; False
       those of 2" or less; a height, those at most that tall: 13.06, 24.35, Part A ruling 12);
    6. its end base overlaps no other model's base, friend or foe (03.01; touching is fine);
    7. its end base overlaps no light or dense feature (03.01, Part A ruling 13);
    (6 and 7 ask only of the models that move or turn: a model left where it stands does not
    end a move, so a base already over a feature does not refuse its unit's move of others);
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
    per_model = isinstance(max_distance, Mapping)
    ends: list[Footprint] = []
    round_paths: list[tuple[int, np.ndarray]] = []
    for r in rows.tolist():
        mid, fp0 = idx.ids[r], idx.fps[r]
        mine = per.setdefault(r, [])
        path = paths.get(mid)
        ang = angles.get(mid) if angles else None
        pts = _points(path)
        if not pts:
            ends.append(fp0 if ang is None else fp0.moved(fp0.x, fp0.y, ang))
            if ang is not None:  # (it turns where it stands)
                for _kind, rl, msg, dist in turn_blocker(fp0, ang, idx, terr, board, blockers,
                                                         may_cross_dense=may_cross_dense, first_only=False):
                    mine.append(MoveProblem(mid, rl, msg, dist))
            continue
        if not all(math.isfinite(x) and math.isfinite(y) for x, y in pts):
            mine.append(MoveProblem(mid, "03.01", "its path has a non-finite point"))
            ends.append(fp0)
            continue
        (x0, y0), (x1, y1) = pts[0], pts[-1]
        end = fp0.moved(x1, y1, ang)
        ends.append(end)
        gap = math.hypot(x0 - fp0.x, y0 - fp0.y)
        if gap > START_TOL:
            mine.append(MoveProblem(mid, "03.01", f"its path starts at ({x0:.2f}, "
                                    f"{y0:.2f}), {gap:.2f}\" from the model at "
                                    f"({fp0.x:.2f}, {fp0.y:.2f})", gap))
            continue
        limit = max_distance.get(mid) if per_model else max_distance
        if limit is None:
            raise ValueError(f"03.01 check_move: no maximum distance given for {mid}")
        length = path_length(pts)
        if length > float(limit) + EPS:
            mine.append(MoveProblem(mid, rule, f"would move {length:.2f}\" but may move at most "
                                    f"{float(limit):g}\" in {_a(what)}", length))
        if fp0.shape == "round":
            round_paths.append((r, pts))
            continue
        arr = np.array(pts, dtype=float)
        found = _hull_path_problems(fp0, arr, idx, terr, board, blockers, may_cross_dense)
        if ang is not None and turned(fp0, ang):
            # (a turn is free, and made where it is clear: at the end of the path, or else at its
            # start, the path then taken at the new facing; refused, the turn at the end says why.
            # Each way is first asked for its first problem only: the turn's every sample is
            # measured only for a move refused both ways, for its words)
            end = fp0.moved(x1, y1)
            kw = dict(may_cross_dense=may_cross_dense)
            if found or turn_blocker(end, ang, idx, terr, board, blockers, **kw):
                if turn_blocker(fp0, ang, idx, terr, board, blockers, **kw) or _hull_path_problems(
                        fp0.moved(fp0.x, fp0.y, ang), arr, idx, terr, board, blockers, may_cross_dense):
                    found = found + turn_blocker(end, ang, idx, terr, board, blockers, first_only=False, **kw)
                else:
                    found = []
        for kind, rl, msg, dist in found:
            mine.append(MoveProblem(mid, rl, msg, dist))
    if round_paths:
        round_path_checks(round_paths, idx, terr, board, blockers, may_cross_dense, per)
    # end of move: overlaps with other models, features, engagement
    rlist = rows.tolist()
    others = idx.others(unit)
    if not _ends_clear(ends, idx, others, terr, player, end_unengaged):
        _end_checks(paths, angles, idx, terr, player, rule, end_unengaged, rlist, ends, others, per)
    for r in rlist:
        problems.extend(per[r])
    if check_coherency:
        problems.extend(end_coherency_problems([idx.ids[r] for r in rlist], ends))
    return problems


def _own_overlap(a: Footprint, b: Footprint) -> bool:
    """03.01 Two bases of the moving unit would end overlapping: their bounding circles meet and
    they share area (geometry.overlaps)."""
    return math.hypot(a.x - b.x, a.y - b.y) < a.bounding_radius + b.bounding_radius and overlaps(a, b)


def _ends_clear(ends: Sequence[Footprint], idx: BodyIndex, others: np.ndarray, terr: TerrainIndex,
                player: int, end_unengaged: bool) -> bool:
    """Checks 6-8 of ``check_move`` find nothing at ``ends`` (the unit's bases where the move
    leaves them, row by row): no base overlaps a model of ``others`` (rows of ``idx``) or
    another of ``ends`` (03.01), none overlaps a light or dense feature (Part A ruling 13), and,
    when the move must end unengaged, none is within engagement range of a model of another
    player than ``player`` (03.04). Every base counts, moved or not: True only when nothing
    breaches, so that the check has nothing to word (``_end_checks`` words what there is)."""
    e = _Ends(ends)
    if any(_end_overlaps(e, idx, others)) or any(h is not None for h in _end_blockers(e, terr)):
        return False
    if end_unengaged and any(h is not None for h in _nearest_enemy(e, idx, player)):
        return False
    n = len(ends)
    return not any(_own_overlap(ends[k], ends[k2]) for k in range(n) for k2 in range(k + 1, n))


# (its compiled twin runs where built: sim.rules.compiled)
_ends_clear = kernel("movement.ends_clear", _ends_clear)


def _end_checks(paths, angles, idx, terr, player, rule, end_unengaged, rlist, ends, others, per) -> None:
    """Checks 6-8 of ``check_move``, worded: each model's problems added to its list in ``per``
    (its row -> its problems)."""
    what = RULE_NAMES.get(rule, "move")
    moved = [ends[k].centre != idx.fps[r].centre for k, r in enumerate(rlist)]
    e = _Ends(ends)
    hits = _end_overlaps(e, idx, others)
    feature_hits = _end_blockers(e, terr)
    engaged_at = _nearest_enemy(e, idx, player) if end_unengaged else [None] * len(ends)
    for k, r in enumerate(rlist):
        mid = idx.ids[r]
        # (a model the move leaves where it stands, unturned, does not end a move: ruling 13
        # binds the models that move, not where an untouched one already is)
        stays = not _points(paths.get(mid)) and not (angles and mid in angles)
        if hits[k] and not stays:
            j, depth = hits[k][0]
            side = "enemy" if idx.players[j] != player else "friendly"
            per[r].append(MoveProblem(mid, "03.01", f"it would end overlapping the base of "
                                      f"{side} model {idx.ids[j]}" +
                                      (f" by {depth:.2f}\"" if depth else ""), depth or None))
        for k2 in range(k + 1, len(rlist)):
            if _own_overlap(ends[k], ends[k2]):
                # blame the model that moved onto the other (the later one if both or neither)
                who, other = (k, k2) if (moved[k] and not moved[k2]) else (k2, k)
                per[rlist[who]].append(MoveProblem(idx.ids[rlist[who]], "03.01",
                                                   f"it would end overlapping the base of "
                                                   f"{idx.ids[rlist[other]]}, a model of its own "
                                                   f"unit"))
        if feature_hits[k] is not None and not stays:
            per[r].append(MoveProblem(mid, "03.01, Part A 13", *feature_hits[k]))
        if engaged_at[k] is not None:
            j, d = engaged_at[k]
            per[r].append(MoveProblem(mid, rule, f"it would end {d:.2f}\" from enemy model "
                                      f"{idx.ids[j]}, within engagement range "
                                      f"({ENGAGEMENT_RANGE:g}\"); {_a(what)} must end unengaged", d))


def _points(path) -> list[tuple[float, float]]:
    """A path as a list of (x, y) floats (what ``np.asarray(path, float).reshape(-1, 2)`` holds)."""
    if path is None:
        return []
    try:
        return [(float(x), float(y)) for x, y in path]
    except (TypeError, ValueError):
        return [(x, y) for x, y in np.asarray(path, dtype=float).reshape(-1, 2).tolist()]


def end_coherency_problems(ids: Sequence[str], ends: Sequence[Footprint]) -> list[MoveProblem]:
    """03.03 Check 9 of ``check_move``: the unit's coherency problems with its models (``ids``,
    in id order) standing at ``ends`` when the move is over. A player may ask it of a move it
    is about to try (sim.players.random_player): a move with a problem here is refused."""
    if len(ids) <= 1 or coherency_screen(ends) is True:
        return []
    return coherency_problems_from_matrix(ids, fps_distance_matrix(ends))


def end_coherent(ids: Sequence[str], ends: Sequence[Footprint]) -> bool:
    """03.03 Whether ``end_coherency_problems(ids, ends)`` is empty, measured only when the
    bounds of ``coherency_screen`` leave it open (sim.plan.moves.coherent_at)."""
    sure = coherency_screen(ends)
    return sure if sure is not None else not end_coherency_problems(ids, ends)


def near_each(fps: Sequence[Footprint], idx: BodyIndex, reach: float, rows: np.ndarray) -> np.ndarray:
    """``near_rows`` of each footprint at its own place among ``rows``: (len(fps), len(rows))
    bool, ``rows_near_box``'s arithmetic for each (its centre, its bounding radius), at once."""
    c = np.array([[f.x, f.y] for f in fps], dtype=float).reshape(-1, 2)
    pad = np.array([f.bounding_radius for f in fps]) + reach
    pad += 1e-6
    lo, hi = c - pad[:, None], c + pad[:, None]
    xlo, xhi, ylo, yhi = idx.boxes()
    return (xhi[rows] >= lo[:, 0, None]) & (xlo[rows] <= hi[:, 0, None]) \
        & (yhi[rows] >= lo[:, 1, None]) & (ylo[rows] <= hi[:, 1, None])


# (its compiled twin runs where built: sim.rules.compiled)
near_each = kernel("movement.near_each", near_each)


NEAR_KEEP = 256  # near_enemy_distances' answers kept a table


def near_enemy_distances(fps: Sequence[Footprint], idx: BodyIndex, player: int, reach: float):
    """01.04 The distances from each of ``fps`` (``player``'s models) to the enemy bodies that
    may be within ``reach`` of it (``near_each``): (the enemy rows any of them is near, (len(fps),
    rows) which each is near, the distances from each to every one of those rows); None when
    none is near any. One ``fps_to_rows`` call: each entry is its own pair's arithmetic, the
    same whatever else is asked with it, so each model's near entries are those it would get
    alone. Kept on the table (``BodyIndex.near_memo``, read-only): the rules of a pile-in or
    consolidation ask it of the same footprints several times (where the unit began, where it
    stands)."""
    key = (player, reach, *map(id, fps))
    got = idx.near_memo.get(key)
    if got is not None and all(a is b for a, b in zip(got[0], fps)):
        return got[1]
    enemies = flatnonzero(idx.players != player)
    out = None
    if len(fps) and len(enemies):
        near = near_each(fps, idx, reach, enemies)
        cols = flatnonzero(near.any(axis=0))
        if len(cols):
            out = (enemies[cols], near[:, cols], fps_to_rows(fps, idx, enemies[cols]))
            for a in out:
                a.flags.writeable = False
    if len(idx.near_memo) >= NEAR_KEEP:
        idx.near_memo.clear()
    idx.near_memo[key] = (tuple(fps), out)
    return out


def enemy_unit_distances(unit: str, idx: BodyIndex) -> dict[str, float]:
    """01.04 The distance from ``unit`` (its models in ``idx``) to every enemy unit: the closest
    edge-to-edge distance between a model of each, by unit id. Kept on the table
    (``BodyIndex.near_memo``): a charge's declaration, targets, solver and check, and a pile-in's
    or consolidation's targets, mode and conditions, ask it of one table. (A new dict each call.)"""
    key = ("unit distances", unit)
    got = idx.near_memo.get(key)
    if got is None:
        rows = idx.unit_rows.get(unit)
        if rows is None:
            raise ValueError(f"unit {unit!r} has no models among the bodies")
        enemies = flatnonzero(idx.players != idx.players[rows[0]])
        d = fps_to_rows([idx.fps[r] for r in rows.tolist()], idx, enemies).min(axis=0)
        got = {}
        for j, dj in zip(enemies.tolist(), d.tolist()):
            u = idx.units[j]
            got[u] = min(got.get(u, math.inf), dj)
        got = dict(sorted(got.items()))
        if len(idx.near_memo) >= NEAR_KEEP:
            idx.near_memo.clear()
        idx.near_memo[key] = got
    return dict(got)


def engaged_units(unit: str, end_fps: Mapping[str, Footprint] | Sequence[tuple[str, Footprint]],
                  bodies: Sequence[Body] | BodyIndex) -> list[str]:
    """03.04 The enemy units ``unit`` is engaged with when its models stand at ``end_fps``
    (model id -> footprint; the unit's models in ``bodies`` are ignored): those with a model
    within engagement range (2") of one of them. Sorted by unit id."""
    idx = as_index(bodies)
    items = end_fps.values() if isinstance(end_fps, Mapping) else [f for _mid, f in end_fps]
    got = near_enemy_distances(list(items), idx, idx.player_of(unit), ENGAGEMENT_RANGE)
    if got is None:
        return []
    rows, near, d = got
    return sorted({idx.units[j] for j in rows[(near & in_engagement_range(d)).any(axis=0)].tolist()})

"""FROZEN ORACLE (a copy of sim/rules/movement/legality.py as of commit ad3e6b3, check_move and its
helpers only), for tests/rules/test_03_01_check_move_reference.py: do not optimise this file.

03.01 Moving units: the path and end-of-move checks of one unit's move (Part A rulings 12-15).

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
``TerrainIndex``, both in sim.rules.movement.index) can be built once and passed instead of the raw
sequences when many moves are checked against one table state; the vectorised kernels are
sim.rules.movement.kernels.
"""

from __future__ import annotations

import math
from typing import Collection, Mapping, Sequence

import numpy as np

from _move_ref_coherency import coherency_problems_from_matrix
from _move_ref_kernels import (_seg_point_dist, _segments_polygon_distance, near_points_distance,
                               near_polys_distance, _swept, _points_convex_distance, _convex_overlap,
                               _convex_penetrates_polygon, _offsets, near_rows, distances_from,
                               fps_distance_matrix, path_length)
from sim.rules.coherency import MoveProblem
from sim.rules.geometry import EPS, ENGAGEMENT_RANGE, Footprint, core, disc_distances, overlaps
from sim.rules.movement.index import (TOUCH, START_TOL, RULE_NAMES, _a, Body, BodyIndex, as_index, _Poly, EdgeSet,
                                  TerrainIndex, terrain_index)
from sim.rules.terrain import TerrainArea


Point = tuple[float, float]


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
    if check_coherency:
        problems.extend(end_coherency_problems([idx.ids[r] for r in rlist], ends))
    return problems


def end_coherency_problems(ids: Sequence[str], ends: Sequence[Footprint]) -> list[MoveProblem]:
    """03.03 Check 9 of ``check_move``: the unit's coherency problems with its models (``ids``,
    in id order) standing at ``ends`` when the move is over. A player may ask it of a move it
    is about to try (sim.players.random_player): a move with a problem here is refused."""
    if len(ids) <= 1:
        return []
    return coherency_problems_from_matrix(ids, fps_distance_matrix(ends))


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



"""12.03 Pile-in and 12.08 consolidation moves: targets and modes, the moves' own conditions,
and the headless solvers (Part A rulings 16, 18 and 29).

12.03 Pile-in (maximum 3"): targets are every enemy unit the unit is engaged with, or if it is
unengaged, one or more enemy units within 5". While moving, a model in base contact with an
enemy model cannot move; each model that moves must end closer to the closest pile-in target
(ties: lowest id, 01.04.02 with ruling 29), and engaged with it if possible. After moving the
unit must be engaged, and each model that began engaged with an enemy unit must still be
engaged with that unit.

12.08 Consolidation (maximum 3"), mode compulsory in this order:
* ongoing (the unit is engaged; targets: every enemy unit it is engaged with): as pile-in
  while moving; after, each model that began engaged with an enemy unit still is;
* engaging (else, within 3" of enemy units; headless selects the closest): each moved model
  ends closer to the closest selected unit and engaged with it if possible (no base-contact
  lock); after, the unit is engaged with every selected unit;
* objective (else, within 3" of objectives; headless: the nearest, ruling 18): each moved
  model ends within range of it if possible, else closer; after, the unit is within range of
  it and (errata) unengaged.
Objectives are ``sim.rules.objectives.Objective`` records, and "in range" is that module's one
rule: within 3" of a marker's 40 mm disc (14.01.01), within a terrain objective's area (14.01).
"Within 3" of an objective" (the mode) and "closer to it" are measured to its closest part
(14.01: the disc, or the area).

Headless (ruling 18): move whenever a legal move exists; models that can get closer do, best
spot first (engaged / in range, then nearest, then shortest).
"""

from __future__ import annotations

import math
from typing import Collection, Mapping, Sequence

import numpy as np

from sim.rules import objectives as O
from sim.rules.arrays import roll_next
from sim.rules.coherency import MoveProblem
from sim.rules.compiled import kernel
from sim.rules.geometry import ENGAGEMENT_RANGE, EPS, Footprint, in_engagement_range, within_distance
from sim.rules.grid import snap_key, snap_keys
from sim.rules.movement.legality import (
    Body, BodyIndex, Point, as_index, check_move, engaged_units, enemy_unit_distances, fps_to_rows,
    near_enemy_distances, near_rows,
    distances_from,
)
from sim.rules.movement.moves import ConsolidationMode
from sim.rules.movement.solvers.place import BASE_CONTACT, CLOSER, Placer, Solution
from sim.rules.terrain import TerrainArea

__all__ = [
    "PILE_IN_DISTANCE", "PILE_IN_RANGE", "CONSOLIDATION_RANGE", "pile_in_targets",
    "pile_in_conditions", "check_pile_in", "solve_pile_in", "consolidation_mode",
    "consolidation_conditions", "check_consolidation", "solve_consolidation",
]

PILE_IN_DISTANCE = 3.0      # 12.03 / 12.08 maximum distance
PILE_IN_RANGE = 5.0         # 12.03 unengaged targets within 5"
CONSOLIDATION_RANGE = 3.0   # 12.08 engaging / objective: within 3"
MAX_REFS = 6
AREA_OVERLAPS = (-0.05, -0.5)  # inches a base reaches past the closest point of an objective's area


def _engaged_with(fps: Mapping[str, Footprint], idx: BodyIndex, player: int) -> dict[str, set[str]]:
    """03.04 For each model, the enemy units it is engaged with."""
    out: dict[str, set[str]] = {mid: set() for mid in fps}
    got = near_enemy_distances(list(fps.values()), idx, player, ENGAGEMENT_RANGE)
    if got is not None:
        rows, near, d = got
        hit = near & in_engagement_range(d)
        for k, mid in enumerate(fps):
            out[mid] = {idx.units[j] for j in rows[hit[k]].tolist()}
    return out


def _in_contact(fps: Mapping[str, Footprint], idx: BodyIndex, player: int) -> set[str]:
    """01.04.04 The models in base contact with an enemy model."""
    got = near_enemy_distances(list(fps.values()), idx, player, BASE_CONTACT)
    if got is None:
        return set()
    _rows, near, d = got
    hit = (near & (d <= BASE_CONTACT)).any(axis=1)
    return {mid for k, mid in enumerate(fps) if hit[k]}


def _unit_fps(unit: str, idx: BodyIndex) -> dict[str, Footprint]:
    rows = idx.unit_rows.get(unit)
    if rows is None:
        raise ValueError(f"unit {unit!r} has no models among the bodies")
    return {idx.ids[r]: idx.fps[r] for r in rows.tolist()}


def pile_in_targets(unit: str, bodies: Sequence[Body] | BodyIndex, *,
                    headless: bool = True) -> list[str]:
    """12.03 The pile-in targets: every enemy unit ``unit`` is engaged with; if it is
    unengaged, the enemy units within 5" (``headless``: all of them, nearest first, so each
    model heads for its own closest; otherwise the same list is the player's menu)."""
    idx = as_index(bodies)
    engaged = engaged_units(unit, _unit_fps(unit, idx), idx)
    if engaged:
        return engaged
    d = enemy_unit_distances(unit, idx)
    return [u for u, _ in sorted(d.items(), key=lambda kv: (snap_key(kv[1]), kv[0]))
            if within_distance(_, PILE_IN_RANGE)]


def consolidation_mode(unit: str, bodies: Sequence[Body] | BodyIndex,
                       objectives: Sequence[O.Objective] = ()) -> tuple[str, list[str], int | None] | None:
    """12.08 The compulsory consolidation mode and the automatic players' selection (Part A
    ruling 18), in the printed order: (ongoing, every engaged enemy unit, None); (engaging, [the
    closest enemy unit within 3"], None) (ties by id); (objective, [], index of the nearest
    objective within 3" (of its closest part, 14.01), ties lowest index); or None if no mode
    applies. What a player may select instead: ``consolidation_choices``."""
    choices = consolidation_choices(unit, bodies, objectives)
    if choices is None:
        return None
    mode, units, objs = choices
    if mode == ConsolidationMode.ONGOING:
        return (mode, units, None)
    if mode == ConsolidationMode.ENGAGING:
        return (mode, units[:1], None)
    return (mode, [], objs[0])


def consolidation_choices(unit: str, bodies: Sequence[Body] | BodyIndex,
                          objectives: Sequence[O.Objective] = ()) -> tuple[str, list[str], list[int]] | None:
    """12.08 The compulsory consolidation mode and what its player may select: ongoing, every
    engaged enemy unit (all of them, selected by the rule); engaging, the enemy units within 3"
    (one or more of them), nearest first (ties by id); objective, the objectives within 3" (one
    of them, by index), nearest first (ties lowest index); or None if no mode applies."""
    idx = as_index(bodies)
    fps = _unit_fps(unit, idx)
    engaged = engaged_units(unit, fps, idx)
    if engaged:
        return (ConsolidationMode.ONGOING, engaged, [])
    d = enemy_unit_distances(unit, idx)
    near = sorted((snap_key(dv), u) for u, dv in d.items() if within_distance(dv, CONSOLIDATION_RANGE))
    if near:
        return (ConsolidationMode.ENGAGING, [u for _d, u in near], [])
    objs = []
    for k, o in enumerate(objectives):
        dk = min(O.distance_to(f, o) for f in fps.values())
        if within_distance(dk, CONSOLIDATION_RANGE):
            objs.append((snap_key(dk), k))
    if objs:
        return (ConsolidationMode.OBJECTIVE, [], [k for _d, k in sorted(objs)])
    return None


def _range_words(objective: O.Objective) -> str:
    """How far "within range" is, for a refusal: 3" of a marker, or within the terrain area."""
    return "within its terrain area" if objective.is_terrain else f"{O.range_of(objective):g}\""


def _closest_target(placer: Placer, mid: str, trows: dict[str, np.ndarray]) -> str:
    """12.03 The pile-in target closest to ``mid`` at the start (ties: lowest id)."""
    return min((snap_key(float(placer.start_gaps(mid, r).min())), t) for t, r in trows.items())[1]


def _score_enemy(placer: Placer, mid: str, target_rows: np.ndarray, *, require_engaged: bool,
                 keep: dict[str, np.ndarray], stay_ok: bool):
    """Score for a model heading for one enemy unit (rows ``target_rows``): allowed = closer to
    it (or, with ``stay_ok``, the start spot itself), still engaged with every unit in
    ``keep`` (unit -> rows); keys: (not engaged with it, distance to it, path length)."""
    idx = placer.idx
    fp0 = placer.start[mid]
    d0 = float(placer.start_gaps(mid, target_rows).min())
    keep_rows = tuple(keep.values())

    def score(c: np.ndarray):
        return _enemy_scores(fp0, c, idx, target_rows, keep_rows, d0, require_engaged, stay_ok)
    return score


def _enemy_scores(fp0: Footprint, c: np.ndarray, idx: BodyIndex, target_rows: np.ndarray, keep_rows: tuple,
                  d0: float, require_engaged: bool, stay_ok: bool):
    """12.03 / 12.08 ``_score_enemy``'s score of the candidate centres ``c`` (K, 2) for the model
    that starts at ``fp0``, ``d0`` from the enemy unit ``target_rows`` of ``idx``: (allowed (K,),
    keys (not engaged with it: 0 engaged, 1 not, 2 the start spot itself; the distance to it; the
    path length))."""
    d = distances_from(fp0, c, idx, target_rows).min(axis=1)
    length = np.hypot(c[:, 0] - fp0.x, c[:, 1] - fp0.y)
    stay = length <= 0.0
    allowed = d < d0 - CLOSER
    for rows in keep_rows:
        allowed &= in_engagement_range(distances_from(fp0, c, idx, rows).min(axis=1))
    eng = in_engagement_range(d)
    if require_engaged:
        allowed &= eng
    if stay_ok:
        allowed |= stay
    return allowed, (np.where(stay, 2, np.where(eng, 0, 1)), d, length)


# (its compiled twin runs where built: sim.rules.compiled)
_enemy_scores = kernel("movement.enemy_scores", _enemy_scores)


def _enemy_spot(placer: Placer, mid: str, target_rows: np.ndarray, keep, *, engaged_only: bool,
                coherent_with, stay_ok: bool = False, friends: Sequence[str] = ()):
    """The best spot for ``mid`` heading for the unit ``target_rows`` (see ``_score_enemy``)."""
    idx = placer.idx
    fp0 = placer.start[mid]
    d = placer.start_gaps(mid, target_rows)
    order = np.lexsort([target_rows, snap_keys(d)])
    reach = placer.max[mid] + ENGAGEMENT_RANGE
    refs = [idx.fps[int(target_rows[k])] for k in order.tolist() if d[k] <= reach + EPS][:MAX_REFS]
    cands = [placer.rings(mid, refs, (0.0, 0.95, 1.95))]
    if not engaged_only:
        if friends:
            near = sorted(friends, key=lambda m: (snap_key(math.hypot(placer.cur[m].x - fp0.x,
                                                                      placer.cur[m].y - fp0.y)), m))[:4]
            cands.append(placer.rings(mid, [placer.cur[m] for m in near], (0.0, 1.0, 1.95)))
        first = idx.fps[int(target_rows[order[0]])]
        cands.append(placer.toward(mid, (first.x, first.y)))
    if stay_ok:
        cands.append(np.array([[fp0.x, fp0.y]]))
    score = _score_enemy(placer, mid, target_rows, require_engaged=engaged_only, keep=keep,
                         stay_ok=stay_ok)
    return placer.find(mid, np.vstack(cands), score, coherent_with=coherent_with)


def _objective_score(placer: Placer, mid: str, objective: O.Objective, *, require_range: bool,
                     stay_ok: bool):
    """Score for a model heading for an objective: allowed = in range (14.01 / 14.01.01), or
    closer to it if it did not start in range; unengaged at the end ([ERRATA]); keys: (not in
    range, distance to the objective's closest part, path length)."""
    fp0 = placer.start[mid]
    d0 = O.distance_to(fp0, objective)
    enemies = placer.enemy_rows

    def score(c: np.ndarray):
        d = O.placed_distances_to(fp0, c, objective)
        length = np.hypot(c[:, 0] - fp0.x, c[:, 1] - fp0.y)
        stay = length <= 0.0
        inr = O.within_range(d, objective)
        allowed = np.where(O.within_range(d0, objective), inr, inr | (d < d0 - CLOSER))
        if require_range:
            allowed &= inr
        if stay_ok:
            allowed |= stay
        near = near_rows(placer.idx, c, fp0.bounding_radius, ENGAGEMENT_RANGE, enemies)
        if len(near):   # [ERRATA] objective consolidation ends unengaged
            allowed &= ~in_engagement_range(distances_from(fp0, c, placer.idx, near).min(axis=1))
        return allowed, (np.where(stay, 2, np.where(inr, 0, 1)), d, length)
    return score


def _closest_on_outline(poly, p: Sequence[float]) -> tuple[float, float]:
    """The point of a polygon's outline closest to ``p`` (ties: the first edge)."""
    a = np.asarray(poly, dtype=float)
    b = roll_next(a)
    e = b - a
    q = np.asarray(p, dtype=float)
    t = np.clip(((q - a) * e).sum(axis=1) / np.maximum((e * e).sum(axis=1), 1e-300), 0.0, 1.0)
    pts = a + t[:, None] * e
    k = int(np.argmin(np.hypot(pts[:, 0] - q[0], pts[:, 1] - q[1])))
    return float(pts[k, 0]), float(pts[k, 1])


def _objective_spot(placer: Placer, mid: str, objective: O.Objective, *, range_only: bool,
                    coherent_with, stay_ok: bool = False, friends: Sequence[str] = ()):
    """The best spot for ``mid`` heading for an objective (see ``_objective_score``): round a
    marker at 3" and less (14.01.01); for a terrain objective (14.01), round the point of the
    area's outline closest to the model, its base reaching past it into the area, and along
    the way there; otherwise also towards the objective's point and round placed friends."""
    fp0 = placer.start[mid]
    if objective.area is None:
        cands = [placer.rings(mid, [O.marker(objective)], (O.CONTROL_RANGE - 0.01, 2.0, 1.0, 0.0))]
    else:
        qx, qy = _closest_on_outline(objective.area.polygon, (fp0.x, fp0.y))
        cands = [placer.rings(mid, [Footprint("round", qx, qy, 0.0, 0.0)], AREA_OVERLAPS),
                 placer.toward(mid, (qx, qy))]
    if not range_only:
        cands.append(placer.toward(mid, (objective.x, objective.y)))
        if friends:
            near = sorted(friends, key=lambda m: (snap_key(math.hypot(placer.cur[m].x - fp0.x,
                                                                      placer.cur[m].y - fp0.y)), m))[:4]
            cands.append(placer.rings(mid, [placer.cur[m] for m in near], (0.0, 1.0, 1.95)))
    if stay_ok:
        cands.append(np.array([[fp0.x, fp0.y]]))
    score = _objective_score(placer, mid, objective, require_range=range_only, stay_ok=stay_ok)
    return placer.find(mid, np.vstack(cands), score, coherent_with=coherent_with)


def _pile_conditions(placer: Placer, targets: Sequence[str], *, lock: bool, rule: str,
                     what: str, skip_possible: bool = False) -> list[MoveProblem]:
    """The while-moving conditions shared by pile-in, ongoing and engaging consolidation."""
    idx = placer.idx
    trows = {t: idx.unit_rows[t] for t in targets if t in idx.unit_rows}
    out: list[MoveProblem] = []
    locked = _in_contact(placer.start, idx, placer.player) if lock else set()
    began = _engaged_with(placer.start, idx, placer.player)
    for mid in placer.ids:
        if not placer.moved(mid):
            continue
        if mid in locked:
            out.append(MoveProblem(mid, rule, f"it is in base contact with an enemy model, so it "
                                   f"cannot be moved in a {what}"))
            continue
        if not trows:
            continue
        t = _closest_target(placer, mid, trows)
        d0 = float(placer.start_gaps(mid, trows[t]).min())
        d1 = float(fps_to_rows([placer.cur[mid]], idx, trows[t]).min())
        if not d1 < d0 - CLOSER:
            out.append(MoveProblem(mid, f"{rule}, Part A 16",
                                   f"it ends {d1:.2f}\" from {t}, its closest target, not closer "
                                   f"than at the start ({d0:.2f}\")", d1))
        elif not in_engagement_range(d1) and not skip_possible:
            keep = {u: idx.unit_rows[u] for u in sorted(began[mid])}
            spot = _enemy_spot(placer, mid, trows[t], keep, engaged_only=True,
                               coherent_with=[m for m in placer.ids if m != mid])
            if spot is not None:
                x, y = spot[0][-1]
                out.append(MoveProblem(mid, rule, f"it ends {d1:.2f}\" from {t} but could end "
                                       f"engaged with it (at ({x:.2f}, {y:.2f})), so it must", d1))
    return out


def _kept_engagements(placer: Placer, rule: str) -> list[MoveProblem]:
    """12.03 / 12.08 ongoing: each model that began engaged with an enemy unit still is."""
    began = _engaged_with(placer.start, placer.idx, placer.player)
    now = _engaged_with(placer.cur, placer.idx, placer.player)
    out = []
    for mid in placer.ids:
        for u in sorted(began[mid] - now[mid]):
            out.append(MoveProblem(mid, rule, f"it began engaged with {u} and must still be "
                                   f"engaged with it"))
    return out


def pile_in_conditions(unit: str, targets: Collection[str], paths: Mapping[str, Sequence[Point]],
                       bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                       board: tuple[float, float], *, max_distance: float = PILE_IN_DISTANCE,
                       may_cross_dense: bool = False,
                       _skip_possible: bool = False,
                       angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """12.03 The pile-in move's own conditions (``check_pile_in`` adds ``check_move``'s):
    targets as 12.03 selects them; models in base contact with an enemy do not move; each
    moved model ends closer to its closest target and engaged with it if possible; after,
    the unit is engaged and keeps every engagement its models began with."""
    idx = as_index(bodies)
    targets = sorted(set(targets))
    out: list[MoveProblem] = []
    fps = _unit_fps(unit, idx)
    engaged = engaged_units(unit, fps, idx)
    if not targets:
        out.append(MoveProblem(None, "12.03", "a pile-in move needs one or more pile-in targets"))
    elif engaged and targets != engaged:
        out.append(MoveProblem(None, "12.03", f"an engaged unit piles in towards every enemy unit "
                               f"it is engaged with ({', '.join(engaged)}), not "
                               f"{', '.join(targets)}"))
    elif not engaged:
        d = enemy_unit_distances(unit, idx)
        for t in targets:
            if t not in d or not within_distance(d[t], PILE_IN_RANGE):
                out.append(MoveProblem(None, "12.03", f"pile-in target {t} is not an enemy unit "
                                       f"within {PILE_IN_RANGE:g}\"", d.get(t)))
    if out:
        return out
    placer = Placer(unit, idx, areas, board, max_distance=max_distance, ends=paths,
                    may_cross_dense=may_cross_dense, angles=angles)
    out += _pile_conditions(placer, targets, lock=True, rule="12.03", what="pile-in move",
                            skip_possible=_skip_possible)
    if not engaged_units(unit, placer.cur, idx):
        out.append(MoveProblem(None, "12.03", "the unit must end a pile-in move engaged"))
    out += _kept_engagements(placer, "12.03")
    return out


def check_pile_in(unit: str, targets: Collection[str], paths: Mapping[str, Sequence[Point]],
                  bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                  board: tuple[float, float], *, max_distance: float = PILE_IN_DISTANCE,
                  may_cross_dense: bool = False, angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """12.03 Every problem with a pile-in move: ``check_move`` then ``pile_in_conditions``
    (``angles``: the end facings of the models it turns, 03.01)."""
    idx = as_index(bodies)
    return check_move(unit, paths, idx, areas, board, max_distance=max_distance, rule="12.03",
                      may_cross_dense=may_cross_dense, angles=angles) \
        + pile_in_conditions(unit, targets, paths, idx, areas, board, max_distance=max_distance,
                             may_cross_dense=may_cross_dense, angles=angles)


def consolidation_conditions(unit: str, mode: str, targets: Collection[str],
                             objective: O.Objective | None,
                             paths: Mapping[str, Sequence[Point]],
                             bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                             board: tuple[float, float], *, max_distance: float = PILE_IN_DISTANCE,
                             may_cross_dense: bool = False,
                             _skip_possible: bool = False,
                             angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """12.08 The consolidation move's own conditions for ``mode`` ("ongoing", "engaging" or
    "objective"; ``consolidation_mode`` gives the compulsory one), its selected enemy units
    (``targets``) or ``objective`` (the mode's own eligibility is checked:
    ongoing needs an engaged unit, engaging an unengaged one within 3" of its selection,
    objective neither, and the objective within 3"). See the module docstring."""
    idx = as_index(bodies)
    targets = sorted(set(targets))
    out: list[MoveProblem] = []
    fps = _unit_fps(unit, idx)
    engaged = engaged_units(unit, fps, idx)
    d = enemy_unit_distances(unit, idx)
    if mode == ConsolidationMode.ONGOING:
        if not engaged:
            out.append(MoveProblem(None, "12.08", "ongoing consolidation needs an engaged unit"))
        elif targets != engaged:
            out.append(MoveProblem(None, "12.08", f"ongoing consolidation selects every engaged "
                                   f"enemy unit ({', '.join(engaged)})"))
    elif mode == ConsolidationMode.ENGAGING:
        if engaged:
            out.append(MoveProblem(None, "12.08", "an engaged unit must use ongoing consolidation"))
        elif not targets:
            out.append(MoveProblem(None, "12.08", "engaging consolidation selects one or more "
                                   "enemy units"))
        for t in targets:
            if not within_distance(d.get(t, math.inf), CONSOLIDATION_RANGE):
                out.append(MoveProblem(None, "12.08", f"{t} is not an enemy unit within "
                                       f"{CONSOLIDATION_RANGE:g}\"", d.get(t)))
    elif mode == ConsolidationMode.OBJECTIVE:
        if engaged or any(within_distance(v, CONSOLIDATION_RANGE) for v in d.values()):
            out.append(MoveProblem(None, "12.08", "objective consolidation only when the unit is "
                                   "unengaged and no enemy unit is within 3\""))
        if objective is None:
            out.append(MoveProblem(None, "12.08", "objective consolidation selects an objective"))
        elif not within_distance(min(O.distance_to(f, objective) for f in fps.values()),
                                 CONSOLIDATION_RANGE):
            out.append(MoveProblem(None, "12.08", "the selected objective is not within 3\""))
    else:
        out.append(MoveProblem(None, "12.08", f"unknown consolidation mode {mode!r}"))
    if out:
        return out
    placer = Placer(unit, idx, areas, board, max_distance=max_distance, ends=paths,
                    may_cross_dense=may_cross_dense, angles=angles)
    if mode in (ConsolidationMode.ONGOING, ConsolidationMode.ENGAGING):
        out += _pile_conditions(placer, targets, lock=(mode == ConsolidationMode.ONGOING), rule="12.08",
                                what=f"{mode} consolidation move", skip_possible=_skip_possible)
        if mode == ConsolidationMode.ONGOING:
            out += _kept_engagements(placer, "12.08")
        else:
            now = engaged_units(unit, placer.cur, idx)
            for t in targets:
                if t not in now:
                    out.append(MoveProblem(None, "12.08", f"the unit must end engaged with {t}, "
                                           f"selected for engaging consolidation"))
        return out
    # objective
    for mid in placer.ids:
        if not placer.moved(mid):
            continue
        d0, d1 = O.distance_to(placer.start[mid], objective), O.distance_to(placer.cur[mid], objective)
        if O.within_range(d1, objective):
            continue
        if O.within_range(d0, objective) or not d1 < d0 - CLOSER:
            out.append(MoveProblem(mid, "12.08", f"it ends {d1:.2f}\" from the objective, neither "
                                   f"within range ({_range_words(objective)}) nor closer than at the "
                                   f"start ({d0:.2f}\")", d1))
        elif not _skip_possible:
            spot = _objective_spot(placer, mid, objective, range_only=True,
                                   coherent_with=[m for m in placer.ids if m != mid])
            if spot is not None:
                x, y = spot[0][-1]
                out.append(MoveProblem(mid, "12.08", f"it ends {d1:.2f}\" from the objective but "
                                       f"could end within range (at ({x:.2f}, {y:.2f})), so it "
                                       f"must", d1))
    if not any(O.in_range(f, objective) for f in placer.cur.values()):
        out.append(MoveProblem(None, "12.08", "the unit must end within range of the objective"))
    now = engaged_units(unit, placer.cur, idx)
    if now:
        out.append(MoveProblem(None, "12.08 [ERRATA]", f"objective consolidation must end "
                               f"unengaged, but the unit ends engaged with {', '.join(now)}"))
    return out


def check_consolidation(unit: str, mode: str, targets: Collection[str],
                        objective: O.Objective | None, paths: Mapping[str, Sequence[Point]],
                        bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                        board: tuple[float, float], *,
                        max_distance: float = PILE_IN_DISTANCE,
                        may_cross_dense: bool = False,
                        angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """12.08 Every problem with a consolidation move: ``check_move`` (objective mode: ending
    unengaged) then ``consolidation_conditions`` (``angles``: the end facings of the models it
    turns, 03.01)."""
    idx = as_index(bodies)
    return check_move(unit, paths, idx, areas, board, max_distance=max_distance, rule="12.08",
                      end_unengaged=(mode == ConsolidationMode.OBJECTIVE), may_cross_dense=may_cross_dense,
                      angles=angles) \
        + consolidation_conditions(unit, mode, targets, objective, paths, idx, areas, board,
                                   max_distance=max_distance, may_cross_dense=may_cross_dense, angles=angles)


# --- the solvers ---------------------------------------------------------------------------

def _solve_enemy(unit: str, targets: Sequence[str], idx: BodyIndex, areas, board, *,
                 max_distance: float, lock: bool, may_cross_dense: bool = False):
    """Place the models of ``unit`` heading each for its closest target: locked models (base
    contact, if ``lock``) first and fixed; then the rest nearest-first, each at its best spot
    (engaged with its closest target, else closer, else where it stands) within 2" of a placed
    model and 9" of all; then models that moved but did not end engaged try again with the
    rest fixed, until none can. Returns the Placer, or a reason string."""
    placer = Placer(unit, idx, areas, board, max_distance=max_distance,
                    may_cross_dense=may_cross_dense)
    trows = {t: idx.unit_rows[t] for t in targets if t in idx.unit_rows}
    if not trows:
        return "no target unit on the battlefield"
    locked = _in_contact(placer.start, idx, placer.player) if lock else set()
    if len(locked) == len(placer.ids):
        return placer                 # every model is in base contact: nothing may move
    began = _engaged_with(placer.start, idx, placer.player)
    closest = {mid: _closest_target(placer, mid, trows) for mid in placer.ids}
    gap = {mid: float(placer.start_gaps(mid, trows[closest[mid]]).min()) for mid in placer.ids}
    placed = sorted(locked)
    order = sorted((m for m in placer.ids if m not in locked), key=lambda m: (snap_key(gap[m]), m))
    for mid in order:
        keep = {u: idx.unit_rows[u] for u in sorted(began[mid])}
        res = _enemy_spot(placer, mid, trows[closest[mid]], keep, engaged_only=False,
                          coherent_with=placed, stay_ok=True, friends=placed)
        if res is None:
            return (f"{mid}: no spot within {max_distance:g}\" closer to {closest[mid]} (nor its "
                    f"own) in coherency with the models already placed")
        placer.set(mid, res[0])
        placed.append(mid)
    for _ in range(2 * len(order)):
        changed = False
        for mid in order:
            if not placer.moved(mid):
                continue
            rows = trows[closest[mid]]
            if in_engagement_range(float(fps_to_rows([placer.cur[mid]], idx, rows).min())):
                continue
            keep = {u: idx.unit_rows[u] for u in sorted(began[mid])}
            res = _enemy_spot(placer, mid, rows, keep, engaged_only=True,
                              coherent_with=[m for m in placer.ids if m != mid])
            if res is not None:
                placer.set(mid, res[0])
                changed = True
        if not changed:
            break
    return placer


def solve_pile_in(unit: str, bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                  board: tuple[float, float], *, targets: Collection[str] | None = None,
                  max_distance: float = PILE_IN_DISTANCE, may_cross_dense: bool = False,
                  moving_only: bool = False, checked: bool = True) -> Solution:
    """Part A ruling 18: a legal 12.03 pile-in move of ``unit`` (targets default to
    ``pile_in_targets``), or why there is none. Verified with ``check_move`` and
    ``pile_in_conditions``. ``moving_only``: for a caller that takes only a move of some model
    (a command; Solution.paths empty or None both mean none), a placement that leaves every
    model where it stands is returned unverified, with empty paths. ``checked=False``: not
    verified here, for a caller that puts the move to the rules' check itself and takes a
    refused one as none (a player's command, through Battle.check: check_pile_in, the same
    functions and more, refuses the move exactly when this check would, and it is then the same
    move: tests/rules/movement/test_12_03_pile_in_solver.py and test_12_08_consolidation_solver.py)."""
    idx = as_index(bodies)
    targets = sorted(set(pile_in_targets(unit, idx) if targets is None else targets))
    if not targets:
        return Solution(None, "no enemy unit is engaged with the unit or within 5\" (12.03)")
    res = _solve_enemy(unit, targets, idx, areas, board, max_distance=max_distance, lock=True,
                       may_cross_dense=may_cross_dense)
    if isinstance(res, str):
        return Solution(None, res + " (12.03)", tuple(targets))
    paths = res.paths()
    if moving_only and not paths:
        return Solution({}, "no model moves", tuple(targets))
    if not checked:
        return Solution(paths, "", tuple(targets))
    problems = check_move(unit, paths, idx, areas, board, max_distance=max_distance,
                          rule="12.03", may_cross_dense=may_cross_dense) + \
        pile_in_conditions(unit, targets, paths, idx, areas, board, max_distance=max_distance,
                           may_cross_dense=may_cross_dense, _skip_possible=True)
    if problems:
        return Solution(None, str(problems[0]), tuple(targets), problems=tuple(problems))
    return Solution(paths, "", tuple(targets))


def solve_consolidation(unit: str, bodies: Sequence[Body] | BodyIndex,
                        areas: Sequence[TerrainArea], board: tuple[float, float],
                        objectives: Sequence[O.Objective] = (), *,
                        targets: Collection[str] | None = None, objective: int | None = None,
                        max_distance: float = PILE_IN_DISTANCE,
                        may_cross_dense: bool = False, moving_only: bool = False, checked: bool = True) -> Solution:
    """Part A ruling 18: a legal 12.08 consolidation move of ``unit`` in the compulsory mode
    (``consolidation_mode``), toward the player's selection (``targets``, the enemy units of an
    engaging consolidation; ``objective``, the index of an objective consolidation's) or, when
    none is given, ruling 18's; or why there is none. Verified with ``check_move`` and
    ``consolidation_conditions``. ``moving_only`` and ``checked``: as ``solve_pile_in``'s."""
    idx = as_index(bodies)
    mode = consolidation_mode(unit, idx, objectives)
    if mode is None:
        return Solution(None, "no enemy unit is engaged or within 3\", and no objective is "
                        "within 3\": no consolidation mode applies (12.08)")
    name, targets_default, obj = mode
    targets = targets_default if targets is None or name == ConsolidationMode.ONGOING else sorted(set(targets))
    if objective is not None and name == ConsolidationMode.OBJECTIVE:
        obj = objective
    if name in (ConsolidationMode.ONGOING, ConsolidationMode.ENGAGING):
        res = _solve_enemy(unit, targets, idx, areas, board, max_distance=max_distance,
                           lock=(name == ConsolidationMode.ONGOING), may_cross_dense=may_cross_dense)
        if isinstance(res, str):
            return Solution(None, res + " (12.08)", tuple(targets), mode=name)
        placer = res
        objective = None
    else:
        objective = objectives[obj]
        placer = Placer(unit, idx, areas, board, max_distance=max_distance,
                        may_cross_dense=may_cross_dense)
        order = sorted(placer.ids, key=lambda m: (snap_key(O.distance_to(placer.start[m], objective)), m))
        placed: list[str] = []
        for mid in order:
            res = _objective_spot(placer, mid, objective, range_only=False, coherent_with=placed,
                                  stay_ok=True, friends=placed)
            if res is None:
                return Solution(None, f"{mid}: no spot within {max_distance:g}\" in range of or "
                                f"closer to the objective (nor its own) in coherency with the "
                                f"models already placed (12.08)", mode=name, objective=obj)
            placer.set(mid, res[0])
            placed.append(mid)
        for _ in range(2 * len(order)):
            changed = False
            for mid in order:
                if not placer.moved(mid) or O.in_range(placer.cur[mid], objective):
                    continue
                res = _objective_spot(placer, mid, objective, range_only=True,
                                      coherent_with=[m for m in placer.ids if m != mid])
                if res is not None:
                    placer.set(mid, res[0])
                    changed = True
            if not changed:
                break
    paths = placer.paths()
    if moving_only and not paths:
        return Solution({}, "no model moves", tuple(targets), mode=name, objective=obj)
    if not checked:
        return Solution(paths, "", tuple(targets), mode=name, objective=obj)
    problems = check_move(unit, paths, idx, areas, board, max_distance=max_distance, rule="12.08",
                          end_unengaged=(name == ConsolidationMode.OBJECTIVE), may_cross_dense=may_cross_dense) + \
        consolidation_conditions(unit, name, targets, objective, paths, idx, areas, board,
                                 max_distance=max_distance, may_cross_dense=may_cross_dense,
                                 _skip_possible=True)
    if problems:
        return Solution(None, str(problems[0]), tuple(targets), mode=name, objective=obj,
                        problems=tuple(problems))
    return Solution(paths, "", tuple(targets), mode=name, objective=obj)

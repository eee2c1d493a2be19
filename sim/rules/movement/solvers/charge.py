"""11.04 Charge move: charge targets, the move's own conditions, and the headless solver
(Part A rulings 16 and 17).

11.04, as the rules data gives it:

* Before moving: the charge targets are one or more enemy units within 12" of the unit and
  within the maximum distance (the charge roll), measured edge to edge before moving (the
  reach of a charge is ``sim.rules.charge``'s).
* While moving: each model must end closer to one or more charge targets (ruling 16: the
  edge-to-edge distance to the nearest model of that target unit shrinks by more than 1e-6").
  Each model that can end within 1" of a charge target must; each model that can end engaged
  with one must (two tiers: if 1" is possible it is owed, else engagement if possible).
* After moving: the unit is engaged with every charge target and with no other enemy unit.

"Can" is judged with the other models where they end, by the shared candidate search of
``sim.rules.movement.solvers.place`` (its docstring gives the tolerance), keeping every other 11.04 and
03.01 condition and coherency; the solver and the checker use the very same search.
"""

from __future__ import annotations

import math
from typing import Collection, Mapping, Sequence

import numpy as np

from sim.rules import charge as CHG
from sim.rules.coherency import MoveProblem
from sim.rules.compiled import kernel
from sim.rules.geometry import ENGAGEMENT_RANGE, EPS, Footprint, in_engagement_range, within_distance
from sim.rules.grid import AIM_MARGIN, snap_key, snap_keys
from sim.rules.movement.legality import (
    Body, BodyIndex, Point, as_index, check_move, distances_from, engaged_units, enemy_unit_distances,
    fps_to_rows, near_rows,
)
from sim.rules.movement.solvers.place import CLOSER, CONTACT_AIM, Placer, Solution
from sim.rules.terrain import TerrainArea

__all__ = [
    "charge_target_distances", "charge_targets", "default_charge_targets",
    "charge_conditions", "check_charge", "solve_charge",
]

WITHIN_ONE = 1.0        # 11.04: "within 1"" of a charge target
MAX_REFS = 6            # target models tried as anchors for one charging model


def charge_target_distances(unit: str, bodies: Sequence[Body] | BodyIndex) -> dict[str, float]:
    """11.04 The edge-to-edge distance (before moving) from ``unit`` to every enemy unit
    (``enemy_unit_distances``, kept on the table)."""
    return enemy_unit_distances(unit, as_index(bodies))


def charge_targets(unit: str, roll: float, bodies: Sequence[Body] | BodyIndex) -> list[str]:
    """11.04 The enemy units that may be charge targets: within 12" and within the maximum
    distance ``roll`` (edge to edge, before moving; ``sim.rules.charge.reach``); nearest first,
    ties by id."""
    d = charge_target_distances(unit, bodies)
    limit = CHG.reach(roll)
    return [u for u, _ in sorted(d.items(), key=lambda kv: (snap_key(kv[1]), kv[0])) if CHG.in_reach(_, limit)]


def default_charge_targets(unit: str, roll: float, bodies: Sequence[Body] | BodyIndex) -> list[str]:
    """Part A ruling 17: headless play targets the closest eligible enemy unit only."""
    return charge_targets(unit, roll, bodies)[:1]


def _target_rows(idx: BodyIndex, targets: Sequence[str]) -> dict[str, np.ndarray]:
    return {t: idx.unit_rows[t] for t in targets if t in idx.unit_rows}


def _score(placer: Placer, mid: str, trows: dict[str, np.ndarray], others: np.ndarray, *,
           tier: int | None, keep_engaged: bool):
    """The 11.04 score of candidate spots for ``mid``: allowed = closer to some target, not
    engaged with a non-target; with ``tier`` only spots within 1" (tier 1) or engaged (tier 2)
    of a target; with ``keep_engaged`` the unit stays engaged with every target. Keys: tier
    (1 within 1", 2 engaged, 3 closer), distance to the nearest target model, path length."""
    idx = placer.idx
    fp0 = placer.start[mid]
    start_d = {t: float(placer.start_gaps(mid, r).min()) for t, r in trows.items()}
    if keep_engaged:
        mates = [placer.cur[m] for m in placer.ids if m != mid]
        by_others = {t: bool(len(mates)) and bool(in_engagement_range(fps_to_rows(mates, idx, r)
                                                                      .min(axis=1)).any())
                     for t, r in trows.items()}

    rows = tuple(trows.values())
    gaps = tuple(start_d[t] for t in trows)
    must = tuple(keep_engaged and not by_others[t] for t in trows)

    def score(c: np.ndarray):
        return _charge_scores(fp0, c, idx, rows, gaps, must, others, tier)
    return score


def _charge_scores(fp0: Footprint, c: np.ndarray, idx: BodyIndex, rows: tuple, gaps: tuple, must: tuple,
                   others: np.ndarray, tier: int | None):
    """11.04 ``_score``'s score of the candidate centres ``c`` (K, 2) for the model that starts at
    ``fp0``: each target's rows of ``idx`` (``rows``), the model's distance to it at the start
    (``gaps``) and whether it must end engaged with it (``must``), the non-targets' rows
    (``others``) and the ``tier`` asked for: (allowed (K,), keys (tier, the distance to the
    nearest target model, the path length))."""
    closer = np.zeros(len(c), dtype=bool)
    dmin = np.full(len(c), np.inf)
    engaged_all = np.ones(len(c), dtype=bool)
    for r, gap, engage in zip(rows, gaps, must):
        d = distances_from(fp0, c, idx, r).min(axis=1)
        closer |= d < gap - CLOSER
        dmin = np.minimum(dmin, d)
        if engage:
            engaged_all &= in_engagement_range(d)
    allowed = closer & engaged_all
    if len(others):
        near = near_rows(idx, c, fp0.bounding_radius, ENGAGEMENT_RANGE, others)
        if len(near):
            allowed &= ~in_engagement_range(distances_from(fp0, c, idx, near).min(axis=1))
    t_of = np.where(within_distance(dmin, WITHIN_ONE), 1, np.where(in_engagement_range(dmin), 2, 3))
    if tier is not None:
        allowed &= t_of <= tier
    length = np.hypot(c[:, 0] - fp0.x, c[:, 1] - fp0.y)
    return allowed, (t_of, dmin, length)


# (its compiled twin runs where built: sim.rules.compiled)
_charge_scores = kernel("movement.charge_scores", _charge_scores)


def _refs(placer: Placer, mid: str, trows: dict[str, np.ndarray], reach: float):
    """Target models within ``reach`` of ``mid``'s start, nearest first (ties by id), at most
    MAX_REFS."""
    idx = placer.idx
    rows = np.sort(np.concatenate(list(trows.values()))) if trows else np.zeros(0, np.int64)
    if not len(rows):
        return []
    d = placer.start_gaps(mid, rows)
    order = np.lexsort([rows, snap_keys(d)])
    return [idx.fps[int(rows[k])] for k in order.tolist() if d[k] <= reach + EPS][:MAX_REFS]


def _tier_spot(placer: Placer, mid: str, trows, others, below: int):
    """11.04 "can": the best spot for ``mid`` of a better tier than ``below`` (tier 1: within
    1" of a target; tier 2: engaged with one), keeping every other condition, with the other
    models where they are now; as (path, tier) or None. One search serves both tiers: spots
    are ranked by tier, so a tier-2 answer means no tier-1 spot was legal."""
    rng = WITHIN_ONE if below == 2 else ENGAGEMENT_RANGE
    refs = _refs(placer, mid, trows, placer.max[mid] + rng)
    if not refs:
        return None
    offsets = (0.0, 0.5, 0.95) if below == 2 else (0.0, 0.5, 0.95, 1.95)
    cands = placer.rings(mid, refs, offsets)
    score = _score(placer, mid, trows, others, tier=below - 1, keep_engaged=True)
    found = placer.find(mid, cands, score, coherent_with=[m for m in placer.ids if m != mid])
    if found is None:
        return None
    path, _k = found
    fp = placer.start[mid].moved(*path[-1])
    rows = np.concatenate(list(trows.values()))
    d = float(fps_to_rows([fp], placer.idx, rows).min())
    return path, (1 if within_distance(d, WITHIN_ONE) else 2)


def _model_tier(placer: Placer, mid: str, trows) -> tuple[int, float]:
    rows = np.concatenate(list(trows.values()))
    d = float(fps_to_rows([placer.cur[mid]], placer.idx, rows).min())
    return (1 if within_distance(d, WITHIN_ONE) else 2 if in_engagement_range(d) else 3), d


def _eligibility(unit: str, targets: Sequence[str], roll: float, idx: BodyIndex) -> list[MoveProblem]:
    out = []
    if not targets:
        return [MoveProblem(None, "11.04", "a charge needs one or more charge targets")]
    dist = charge_target_distances(unit, idx)
    for t in targets:
        if t not in dist:
            out.append(MoveProblem(None, "11.04", f"{t} is not an enemy unit on the battlefield"))
        elif not CHG.in_reach(dist[t], CHG.CHARGE_RANGE):
            out.append(MoveProblem(None, "11.04", f"charge target {t} is {dist[t]:.2f}\" away; "
                                   f"targets must be within {CHG.CHARGE_RANGE:g}\"", dist[t]))
        elif not CHG.in_reach(dist[t], float(roll)):
            out.append(MoveProblem(None, "11.04", f"charge target {t} is {dist[t]:.2f}\" away, "
                                   f"beyond the maximum distance of {float(roll):g}\"", dist[t]))
    return out


def charge_conditions(unit: str, targets: Collection[str], paths: Mapping[str, Sequence[Point]],
                      bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                      board: tuple[float, float], *, roll: float, may_cross_dense: bool = False,
                      through_enemies: bool = False, impassable: Collection[str] = (),
                      _skip_possible: bool = False,
                      angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """11.04 The charge move's own conditions for ``unit`` moving along ``paths`` against
    ``targets`` (the 03.01 checks are ``check_move``'s; ``check_charge`` runs both):

    * before moving: every target is an enemy unit within 12" and within ``roll``;
    * while moving: every model ends closer to some target (Part A 16); every model that can
      end within 1" of a target does, else every model that can end engaged with one is;
    * after moving: the unit is engaged with all targets and no other enemy unit.
    Problems name the model (None for the unit), the rule and the distance."""
    idx = as_index(bodies)
    targets = sorted(set(targets))
    problems = _eligibility(unit, targets, roll, idx)
    if problems:
        return problems
    placer = Placer(unit, idx, areas, board, max_distance=roll, may_cross_dense=may_cross_dense,
                    through_enemies=through_enemies, impassable=impassable, ends=paths, angles=angles)
    trows = _target_rows(idx, targets)
    others = np.array([j for j in placer.enemy_rows.tolist() if idx.units[j] not in trows],
                      dtype=np.int64)
    for mid in placer.ids:
        fp = placer.cur[mid]
        gaps = []
        for t, r in trows.items():
            d1 = float(fps_to_rows([fp], idx, r).min())
            d0 = float(placer.start_gaps(mid, r).min())
            gaps.append((d0 - d1, d1, d0, t))
        best = max(gaps)
        if best[0] <= CLOSER:
            problems.append(MoveProblem(mid, "11.04, Part A 16",
                                        f"it ends {best[1]:.2f}\" from charge target {best[3]}, "
                                        f"not closer than at the start ({best[2]:.2f}\"); every "
                                        f"model must end closer to a charge target", best[1]))
        tier, d = _model_tier(placer, mid, trows)
        spot = None if tier == 1 or _skip_possible else _tier_spot(placer, mid, trows, others,
                                                                     tier)
        if spot is not None:
            x, y = spot[0][-1]
            what = "within 1\" of" if spot[1] == 1 else "engaged with"
            problems.append(MoveProblem(mid, "11.04",
                                        f"it ends {d:.2f}\" from the nearest charge target "
                                        f"model but could end {what} one (at ({x:.2f}, "
                                        f"{y:.2f})), so it must", d))
    ends = {mid: placer.cur[mid] for mid in placer.ids}
    engaged = engaged_units(unit, ends, idx)
    for t in targets:
        if t not in engaged:
            problems.append(MoveProblem(None, "11.04", f"the unit does not end engaged with "
                                        f"charge target {t}; it must be engaged with every target"))
    for u in engaged:
        if u in trows:
            continue
        urows = idx.unit_rows[u]
        best = min((snap_key(float(fps_to_rows([f], idx, urows).min())), mid) for mid, f in ends.items())
        problems.append(MoveProblem(best[1], "11.04", f"it ends {best[0]:.2f}\" from {u}, which "
                                    f"is not a charge target; the unit may not end engaged with "
                                    f"any other enemy unit", best[0]))
    return problems


def check_charge(unit: str, targets: Collection[str], paths: Mapping[str, Sequence[Point]],
                 bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                 board: tuple[float, float], *, roll: float, may_cross_dense: bool = False,
                 through_enemies: bool = False, impassable: Collection[str] = (),
                 angles: Mapping[str, float] | None = None) -> list[MoveProblem]:
    """11.04 Every problem with a charge move: ``check_move`` (03.01, 03.03, maximum distance =
    the charge roll) followed by ``charge_conditions``; ``angles``, the end facings of the
    models it turns (03.01)."""
    idx = as_index(bodies)
    out = check_move(unit, paths, idx, areas, board, max_distance=roll, rule="11.04",
                     may_cross_dense=may_cross_dense, through_enemies=through_enemies,
                     impassable=impassable, angles=angles)
    return out + charge_conditions(unit, targets, paths, idx, areas, board, roll=roll,
                                   may_cross_dense=may_cross_dense,
                                   through_enemies=through_enemies, impassable=impassable, angles=angles)


def solve_charge(unit: str, targets: Collection[str], roll: float,
                 bodies: Sequence[Body] | BodyIndex, areas: Sequence[TerrainArea],
                 board: tuple[float, float], *, may_cross_dense: bool = False,
                 through_enemies: bool = False, impassable: Collection[str] = ()) -> Solution:
    """Part A ruling 17: a legal charge move of ``unit`` against ``targets`` with maximum
    distance ``roll``, or why there is none (then the charge fails and nothing moves).

    Models are placed nearest-first (distance to the nearest target model, ties by id), each
    at the best spot it can reach: within 1" of a target (base contact first), else engaged,
    else as close as it can; closer to a target, engaged with no other enemy unit, and within
    2" of an already placed model and 9" of all of them (so the placed models stay coherent).
    Then every model owing the 1" or engagement tier tries again with the rest fixed, until
    none can improve; the result is verified with ``check_charge``. If that fails, the unit
    tries again as one block (``_place_as_a_block``: formation kept, so coherency kept), with
    the same tier pass and check."""
    idx = as_index(bodies)
    targets = sorted(set(targets))
    problems = _eligibility(unit, targets, roll, idx)
    if problems:
        return Solution(None, str(problems[0]), tuple(targets), problems=tuple(problems))
    if float(roll) <= 0:
        return Solution(None, "a charge roll of 0\" moves nothing (11.04)", tuple(targets))
    kw = dict(may_cross_dense=may_cross_dense, through_enemies=through_enemies,
              impassable=impassable)
    first = _attempt(unit, targets, roll, idx, areas, board, kw, _place_nearest_first)
    if first:
        return first
    second = _attempt(unit, targets, roll, idx, areas, board, kw, _place_as_a_block)
    return second if second else first


def _attempt(unit, targets, roll, idx, areas, board, kw, place) -> Solution:
    """One placement strategy, the 11.04 tiers owed afterwards, and the full check."""
    placer = Placer(unit, idx, areas, board, max_distance=roll, **kw)
    trows = _target_rows(idx, targets)
    others = np.array([j for j in placer.enemy_rows.tolist() if idx.units[j] not in trows],
                      dtype=np.int64)
    order = sorted(placer.ids, key=lambda m: (snap_key(_model_tier(placer, m, trows)[1]), m))
    failed = place(placer, order, trows, others)
    if failed:
        return Solution(None, failed, tuple(targets))
    for _ in range(2 * len(order)):
        changed = False
        for mid in order:
            tier, _d = _model_tier(placer, mid, trows)
            spot = None if tier == 1 else _tier_spot(placer, mid, trows, others, tier)
            if spot is not None:
                placer.set(mid, spot[0])
                changed = True
        if not changed:
            break
    paths = placer.paths()
    # the tier pass above ended with no model able to reach a better tier, which is exactly
    # the "can" search of charge_conditions: it is not run a second time here
    problems = check_move(unit, paths, idx, areas, board, max_distance=roll, rule="11.04",
                          **kw) + \
        charge_conditions(unit, targets, paths, idx, areas, board, roll=roll, **kw,
                          _skip_possible=True)
    if problems:
        return Solution(None, str(problems[0]), tuple(targets), problems=tuple(problems))
    return Solution(paths, "", tuple(targets))


def _place_nearest_first(placer: Placer, order, trows, others) -> str | None:
    """Ruling 17: each model, nearest first, at its best reachable spot (within 1" of a
    target, else engaged, else closest), closer to a target, engaged with no other enemy unit,
    within 2" of an already placed model and 9" of all of them."""
    placed: list[str] = []
    roll = max(placer.max.values())
    for mid in order:
        refs = _refs(placer, mid, trows, placer.max[mid] + ENGAGEMENT_RANGE)
        cands = [placer.rings(mid, refs, (0.0, 0.95, 1.95))]
        if placed:
            fp0 = placer.start[mid]
            near = sorted(placed, key=lambda m: (snap_key(math.hypot(placer.cur[m].x - fp0.x,
                                                                     placer.cur[m].y - fp0.y)), m))[:4]
            cands.append(placer.rings(mid, [placer.cur[m] for m in near], (0.0, 1.0, 1.95)))
        nearest = _refs(placer, mid, trows, math.inf)[:1]
        if nearest:
            cands.append(placer.toward(mid, (nearest[0].x, nearest[0].y)))
        score = _score(placer, mid, trows, others, tier=None, keep_engaged=False)
        res = placer.find(mid, np.vstack(cands), score, coherent_with=placed)
        if res is None:
            return (f"{mid}: no spot within {roll:g}\" that is closer to a charge target, "
                    f"engaged with no other enemy unit and in coherency with the models "
                    f"already placed (11.04, 03.03)")
        placer.set(mid, res[0])
        placed.append(mid)
    return None


def _place_as_a_block(placer: Placer, order, trows, others) -> str | None:
    """The fallback: the whole unit moves as one block (so it keeps its formation, hence its
    coherency) straight towards the target model nearest to it, until that pair is in base
    contact or the roll runs out; then the tiers are owed model by model as usual."""
    lead = order[0]
    refs = _refs(placer, lead, trows, math.inf)
    if not refs:
        return "no charge target model on the battlefield (11.04)"
    fp0, t = placer.start[lead], refs[0]
    v = np.array([t.x - fp0.x, t.y - fp0.y])
    L = float(np.hypot(*v))
    gap = float(placer.start_gaps(lead, np.concatenate(list(trows.values()))).min())
    if L <= 0:
        return "the charging model stands on its target (11.04)"
    # (into base contact or the roll's end, each aimed inside by more than the grid's snap)
    vec = v / L * max(min(gap - CONTACT_AIM, placer.max[lead] - AIM_MARGIN), 0.0)
    ahead = sorted(placer.ids, key=lambda m: (snap_key(-(placer.start[m].x * v[0] + placer.start[m].y * v[1])), m))
    for mid in ahead:
        s = placer.start[mid]
        end = np.array([[s.x + vec[0], s.y + vec[1]]])
        score = _score(placer, mid, trows, others, tier=None, keep_engaged=False)
        res = placer.find(mid, end, score, coherent_with=None)
        if res is None:
            return (f"{mid}: cannot advance with its unit as a block towards the charge target "
                    f"(11.04, 03.01)")
        placer.set(mid, res[0])
    return None

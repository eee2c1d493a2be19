"""20 Strategic reserves: the pre-battle cap, when reserves may arrive and when unarrived ones
are destroyed, and the 20.04 ingress set-up limits (RULES.md §7 and §21, Part A ruling 27),
with 03.02.02 Oversized models: a base that cannot fit wholly within 6" of an edge is set up
touching an edge instead (still more than 8" from every enemy model), and its unit may not
make normal, advance, fall-back or charge moves, nor ranged attacks, that turn (AIRCRAFT
excepted).

Pure functions over plain data; problems come back as sentences naming the model (or unit),
the rule and the distance involved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from sim.rules.deployment import EDGE_TOUCH, edge_gaps, facings, half_extents, touches_edge
from sim.rules.geometry import EPS, Footprint, distance, distance_matrix, footprint_polygon_distance

__all__ = [
    "FormationUnit", "reserves_problems", "may_arrive", "destroyed_at_end_of_round",
    "ingress_problems", "fits_edge_strip", "wholly_within_edge_strip", "oversized_restricted",
    "EDGE_DISTANCE", "ENEMY_DISTANCE", "FIRST_ARRIVAL_ROUND", "LAST_ARRIVAL_ROUND", "ZONE_BAN_BEFORE_ROUND",
]

EDGE_DISTANCE = 6.0          # 20.04 wholly within 6" of a battlefield edge
ENEMY_DISTANCE = 8.0         # 20.04 more than 8" horizontally from all enemy models
FIRST_ARRIVAL_ROUND = 2      # 20.03 not before battle round 2
LAST_ARRIVAL_ROUND = 3       # 20.03 unarrived reserves are destroyed at the end of round 3
ZONE_BAN_BEFORE_ROUND = 3    # 20.04 before round 3, not in the enemy deployment zone


@dataclass(frozen=True, slots=True)
class FormationUnit:
    """20.01 A unit as declared in battle formations: its id, whether it starts in strategic
    reserves, its points (None if the scenario gives none), its keywords, and the transport it
    starts embarked in (None: none; 26 step 7)."""

    id: str
    in_reserves: bool
    points: int | None = None
    keywords: tuple[str, ...] = ()
    embarked_in: str | None = None


def reserves_problems(units: Sequence[FormationUnit], points_limit: int | None = None) -> list[str]:
    """20.01 / Part A ruling 27 The strategic-reserves limits at Declare Battle Formations:

    * no FORTIFICATION unit may start in reserves (20.01);
    * the reserves' combined points may not exceed 50% of the points limit, when every unit
      has points (the limit is ``points_limit``, or, if the scenario gives none, the army's
      own total); otherwise at most half the units, rounded down, may start in reserves. A
      unit embarked in a transport that starts in reserves is in reserves with it and counts
      (its points, or as a unit).

    The cap holds only before the battle ([FAQ]): units removed to reserves later do not count.
    Returns every problem (empty list = legal).
    """
    problems = []
    for u in units:
        if u.in_reserves and "FORTIFICATION" in u.keywords:
            problems.append(f"{u.id}: a FORTIFICATION unit cannot start in strategic reserves (20.01)")
    held_in = {u.id for u in units if u.in_reserves}
    reserves = [u for u in units if u.in_reserves or u.embarked_in in held_in]
    if not reserves:
        return problems
    if units and all(u.points is not None for u in units):
        limit = points_limit if points_limit is not None else sum(u.points for u in units)
        held = sum(u.points for u in reserves)
        if 2 * held > limit:
            problems.append(
                f"strategic reserves hold {held} points ({', '.join(u.id for u in reserves)}), "
                f"more than 50% of {limit} points ({limit / 2:g}) (20.01)")
    else:
        cap = len(units) // 2
        if len(reserves) > cap:
            problems.append(
                f"{len(reserves)} of {len(units)} units start in strategic reserves "
                f"({', '.join(u.id for u in reserves)}); at most {cap}, half the units rounded down "
                f"(20.01, Part A ruling 27: no points given)")
    return problems


def may_arrive(round: int) -> bool:
    """20.03 Reserves arrive only by an ingress move, and not before battle round 2 (unless a
    rule says otherwise); 15.07 Rapid Ingress is likewise barred in round 1."""
    return round >= FIRST_ARRIVAL_ROUND


def destroyed_at_end_of_round(round: int, *, repositioned: bool = False,
                              final_round: int = 5) -> bool:
    """20.03 / 20.01.02 Is a unit still in strategic reserves destroyed at the end of battle
    round ``round``? At the end of round 3 every reserves unit that never made an ingress move
    is destroyed, except repositioned units (20.03); any unit still in reserves at the end of
    the final turn is destroyed (20.01.02), with no death triggers either way."""
    if round == final_round:
        return True
    return round == LAST_ARRIVAL_ROUND and not repositioned


def _inches(x: float) -> str:
    """A distance for a message: up to 6 decimals, trailing zeros dropped (8, 6.000001)."""
    return f"{x:.6f}".rstrip("0").rstrip(".") + '"'


def _inner_box(m: float, board: tuple[float, float]) -> Footprint:
    """The points at least ``m`` from every battlefield edge: [m, W-m] x [m, H-m] as a rect."""
    W, H = board
    return Footprint("rect", W / 2, H / 2, W - 2 * m, H - 2 * m)


def _edge_reach(fp: Footprint, board: tuple[float, float]) -> float:
    """20.04 How far the base reaches in from the battlefield edges: the largest distance from a
    point of the base to its nearest edge, max of min(x, W - x, y, H - y) over the base. A point
    is at least m from every edge exactly when it lies in the box [m, W-m] x [m, H-m], so this is
    the largest m whose box the base still meets (bisection to 1e-10"; hulls via their 01.04
    core, which for ovals lies inside the ellipse by the documented tolerance)."""
    lo, hi = 0.0, min(board) / 2 - 1e-9
    if distance(fp, _inner_box(hi, board)) <= 0.0:
        return hi
    while hi - lo > 1e-10:
        m = 0.5 * (lo + hi)
        if distance(fp, _inner_box(m, board)) <= 0.0:
            lo = m
        else:
            hi = m
    return lo


def wholly_within_edge_strip(fp: Footprint, board: tuple[float, float]) -> bool:
    """20.04 Wholly within 6" of a battlefield edge: no point of the base more than 6" + EPS
    from its nearest edge, i.e. the base does not meet the box of points farther than that. A
    base whose bounding circle stays clear of that box (by far more than the measure's
    rounding) does not meet it: the common case, answered without measuring."""
    m = EDGE_DISTANCE + EPS
    if min(board) <= 2 * m:
        return True
    W, H = board
    gx, gy = max(m - fp.x, fp.x - (W - m), 0.0), max(m - fp.y, fp.y - (H - m), 0.0)
    if math.hypot(gx, gy) > fp.bounding_radius + _CLEAR:
        return True
    return distance(fp, _inner_box(m, board)) > 0.0


_CLEAR = 1e-6  # inches: a bounding circle this far from the box settles wholly_within_edge_strip


def fits_edge_strip(fp: Footprint, board: tuple[float, float]) -> bool:
    """03.02.02 Whether the base (its shape and size; position and facing free) can be set up
    wholly within 6" of a battlefield edge, as 20.04 reads it (every point of it within 6" of
    its nearest edge, so a corner helps a large base). Exact at each facing tried
    (sim.rules.deployment.facings): the places where the base is on the board form a
    rectangle of centres, and the places where it meets the box of points more than 6" in are
    a convex set, so some place fits exactly when one of the rectangle's corners (the base in
    a corner of the board) does. Memoised by the base's shape, size and facing and the board."""
    return _fits_edge_strip(fp.shape, fp.length, fp.width, fp.angle, float(board[0]), float(board[1]))


@lru_cache(maxsize=256)
def _fits_edge_strip(shape: str, length: float, width: float, angle: float, W: float, H: float) -> bool:
    for f in facings(Footprint(shape, 0.0, 0.0, length, width, angle)):
        hx, hy = half_extents(f)
        if 2 * hx > W + EPS or 2 * hy > H + EPS:
            continue
        for x, y in ((hx, hy), (W - hx, hy), (hx, H - hy), (W - hx, H - hy)):
            if wholly_within_edge_strip(f.moved(x, y), (W, H)):
                return True
    return False


def oversized_restricted(oversized: bool, keywords) -> bool:
    """03.02.02 A unit set up this turn with an oversized model (one set up touching an edge
    because it could not fit within 6" of one) may not make normal, advance, fall-back or
    charge moves, nor ranged attacks, this turn; AIRCRAFT set up from reserves are excepted."""
    return oversized and "AIRCRAFT" not in set(keywords)


def ingress_problems(fps: Sequence[Footprint], board: tuple[float, float],
                     enemy_fps: Sequence[Footprint], round: int,
                     enemy_zone_polygon=None, names: Sequence[str] | None = None,
                     enemy_names: Sequence[str] | None = None, deep_strike: bool = False,
                     enemy_distance: float = ENEMY_DISTANCE) -> list[str]:
    """20.04 / 20.03 / 03.02 Where an ingress move may set a unit up, model by model:

    * not before battle round 2 (20.03);
    * every base wholly on the battlefield (03.01: no model crosses the battlefield edge);
    * every base wholly within 6" of a battlefield edge: no part of it more than 6" from the
      nearest edge (each model on its own; they need not share an edge); a base that cannot
      fit so anywhere (``fits_edge_strip``) touches an edge instead (03.02.02);
    * more than 8" horizontally from every enemy model (exactly 8" is within 8", refused);
    * before battle round 3, no part of any base within the enemy deployment zone (touching
      its boundary is within 0", refused).

    24.09 Deep Strike (``deep_strike``: every model of the unit has it): the edge and
    deployment-zone limits do not apply; the unit may be set up anywhere on the battlefield
    more than 8" from every enemy model (``enemy_distance``: a rule's shorter distance for this
    set-up, e.g. 6").

    The other 03.02 set-up checks (coherency, unengaged, overlaps) are the set-up code's.
    Returns every problem (empty list = legal), each naming the model (``names``, else
    "model i"), the rule and the distance (the nearest enemy by ``enemy_names``).
    """
    W, H = float(board[0]), float(board[1])
    fps = list(fps)
    names = list(names) if names is not None else [f"model {i}" for i in range(len(fps))]
    problems = []
    if not may_arrive(round):
        problems.append(f"reserves cannot arrive in battle round {round}: not before battle round "
                        f"{FIRST_ARRIVAL_ROUND} (20.03)")
    enemies = list(enemy_fps)
    enemy_names = list(enemy_names) if enemy_names is not None else [f"enemy model {j}" for j in range(len(enemies))]
    near = distance_matrix(fps, enemies) if enemies and fps else None
    for i, (name, fp) in enumerate(zip(names, fps)):
        hx, hy = half_extents(fp)
        if fp.x - hx < -EPS or fp.y - hy < -EPS or fp.x + hx > W + EPS or fp.y + hy > H + EPS:
            problems.append(f"{name}: its base is not wholly on the {W:g}\"x{H:g}\" battlefield (03.01)")
            continue
        within = deep_strike or wholly_within_edge_strip(fp, (W, H))
        if not within and not fits_edge_strip(fp, (W, H)):
            if not touches_edge(fp, (W, H)):
                gap = min(edge_gaps(fp, (W, H)).values())
                problems.append(f"{name}: its base cannot fit wholly within {EDGE_DISTANCE:g}\" of a battlefield "
                                f"edge, so it is set up touching an edge; it is {gap:.3f}\" from the nearest "
                                f"(03.02.02, {EDGE_TOUCH:g}\" counts as touching)")
        elif not within:
            reach = _edge_reach(fp, (W, H))
            problems.append(f"{name}: part of its base is {_inches(reach)} from the nearest battlefield "
                            f"edge; an ingress move sets up wholly within {EDGE_DISTANCE:g}\" of an edge (20.04)")
        if near is not None:
            j = int(near[i].argmin())
            d = float(near[i, j])
            limit = enemy_distance if deep_strike else ENEMY_DISTANCE
            if d <= limit + EPS:
                problems.append(f"{name}: {_inches(d)} from {enemy_names[j]}; an ingress move "
                                f"sets up more than {limit:g}\" from all enemy models (20.04)")
        if enemy_zone_polygon is not None and round < ZONE_BAN_BEFORE_ROUND and not deep_strike:
            dz = footprint_polygon_distance(fp, enemy_zone_polygon)
            if dz <= EPS:
                problems.append(f"{name}: within the enemy deployment zone; before battle round "
                                f"{ZONE_BAN_BEFORE_ROUND} an ingress move cannot set up there (20.04)")
    return problems


# rules that move units into reserves, bring them back, or read their arrival -----

def removal_problem(on_battlefield: bool, engaged: bool) -> str | None:
    """20.02 Why a unit cannot be removed from the battlefield into strategic reserves by a
    rule that does so (None: it can): it is not on the battlefield, or it is within Engagement
    Range of an enemy unit (the rules that reposition units into reserves exclude those)."""
    if not on_battlefield:
        return "it is not on the battlefield"
    if engaged:
        return "it is within Engagement Range of an enemy unit"
    return None


def turn_index(round_: int, player: int, first: int) -> int:
    """07 The turns of the battle counted from 0: round 1's first player's turn, then the other's."""
    return 2 * (round_ - 1) + (0 if player == first else 1)


def arrival_in_force(arrived: tuple[int, int] | None, round_: int, active: int, phase: str,
                     owner: int, first: int) -> bool:
    """20.03.01 A unit set up as Reinforcements in the turn ``arrived`` (battle round, active
    player), "until the end of your next Fight phase": in its army's own turn, the rest of that
    turn; in the opponent's turn, the rest of it and the army's next turn; the End of the turn
    (``phase`` "end") is after that Fight phase."""
    if arrived is None:
        return False
    then, now = turn_index(arrived[0], arrived[1], first), turn_index(round_, active, first)
    last = then if arrived[1] == owner else then + 1
    return then <= now < last or (now == last and phase != "end")

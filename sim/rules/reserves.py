"""20 Strategic reserves: the pre-battle cap, when reserves may arrive and when unarrived ones
are destroyed, and the 20.04 ingress set-up limits (RULES.md §7 and §21, Part A ruling 27).

Pure functions over plain data; problems come back as sentences naming the model (or unit),
the rule and the distance involved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from sim.rules.geometry import EPS, Footprint, distance, distance_matrix, footprint_polygon_distance

__all__ = [
    "FormationUnit", "reserves_problems", "may_arrive", "destroyed_at_end_of_round",
    "ingress_problems", "EDGE_DISTANCE", "ENEMY_DISTANCE", "FIRST_ARRIVAL_ROUND",
    "LAST_ARRIVAL_ROUND", "ZONE_BAN_BEFORE_ROUND",
]

EDGE_DISTANCE = 6.0          # 20.04 wholly within 6" of a battlefield edge
ENEMY_DISTANCE = 8.0         # 20.04 more than 8" horizontally from all enemy models
FIRST_ARRIVAL_ROUND = 2      # 20.03 not before battle round 2
LAST_ARRIVAL_ROUND = 3       # 20.03 unarrived reserves are destroyed at the end of round 3
ZONE_BAN_BEFORE_ROUND = 3    # 20.04 before round 3, not in the enemy deployment zone


@dataclass(frozen=True, slots=True)
class FormationUnit:
    """20.01 A unit as declared in battle formations: its id, whether it starts in strategic
    reserves, its points (None if the scenario gives none) and its keywords."""

    id: str
    in_reserves: bool
    points: int | None = None
    keywords: tuple[str, ...] = ()


def reserves_problems(units: Sequence[FormationUnit], points_limit: int | None = None) -> list[str]:
    """20.01 / Part A ruling 27 The strategic-reserves limits at Declare Battle Formations:

    * no FORTIFICATION unit may start in reserves (20.01);
    * the reserves' combined points may not exceed 50% of the points limit, when every unit
      has points (the limit is ``points_limit``, or, if the scenario gives none, the army's
      own total); otherwise at most half the units, rounded down, may start in reserves.

    The cap holds only before the battle ([FAQ]): units removed to reserves later do not count.
    Returns every problem (empty list = legal).
    """
    problems = []
    for u in units:
        if u.in_reserves and "FORTIFICATION" in u.keywords:
            problems.append(f"{u.id}: a FORTIFICATION unit cannot start in strategic reserves (20.01)")
    reserves = [u for u in units if u.in_reserves]
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


def _half_extents(fp: Footprint) -> tuple[float, float]:
    """01.04 Half the footprint's axis-aligned extent (x, y), exact for all three shapes."""
    a, b = 0.5 * fp.length, 0.5 * fp.width
    if fp.shape == "round":
        return a, a
    t = math.radians(fp.angle)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    if fp.shape == "rect":
        return a * c + b * s, a * s + b * c
    return math.hypot(a * c, b * s), math.hypot(a * s, b * c)


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


def _wholly_within_edge_strip(fp: Footprint, board: tuple[float, float]) -> bool:
    """20.04 Wholly within 6" of a battlefield edge: no point of the base more than 6" + EPS
    from its nearest edge, i.e. the base does not meet the box of points farther than that."""
    if min(board) <= 2 * (EDGE_DISTANCE + EPS):
        return True
    return distance(fp, _inner_box(EDGE_DISTANCE + EPS, board)) > 0.0


def ingress_problems(fps: Sequence[Footprint], board: tuple[float, float],
                     enemy_fps: Sequence[Footprint], round: int,
                     enemy_zone_polygon=None, names: Sequence[str] | None = None,
                     enemy_names: Sequence[str] | None = None) -> list[str]:
    """20.04 / 20.03 / 03.02 Where an ingress move may set a unit up, model by model:

    * not before battle round 2 (20.03);
    * every base wholly on the battlefield (03.01: no model crosses the battlefield edge);
    * every base wholly within 6" of a battlefield edge: no part of it more than 6" from the
      nearest edge (each model on its own; they need not share an edge);
    * more than 8" horizontally from every enemy model (exactly 8" is within 8", refused);
    * before battle round 3, no part of any base within the enemy deployment zone (touching
      its boundary is within 0", refused).

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
        hx, hy = _half_extents(fp)
        if fp.x - hx < -EPS or fp.y - hy < -EPS or fp.x + hx > W + EPS or fp.y + hy > H + EPS:
            problems.append(f"{name}: its base is not wholly on the {W:g}\"x{H:g}\" battlefield (03.01)")
            continue
        if not _wholly_within_edge_strip(fp, (W, H)):
            reach = _edge_reach(fp, (W, H))
            problems.append(f"{name}: part of its base is {_inches(reach)} from the nearest battlefield "
                            f"edge; an ingress move sets up wholly within {EDGE_DISTANCE:g}\" of an edge (20.04)")
        if near is not None:
            j = int(near[i].argmin())
            d = float(near[i, j])
            if d <= ENEMY_DISTANCE + EPS:
                problems.append(f"{name}: {_inches(d)} from {enemy_names[j]}; an ingress move "
                                f"sets up more than {ENEMY_DISTANCE:g}\" from all enemy models (20.04)")
        if enemy_zone_polygon is not None and round < ZONE_BAN_BEFORE_ROUND:
            dz = footprint_polygon_distance(fp, enemy_zone_polygon)
            if dz <= EPS:
                problems.append(f"{name}: within the enemy deployment zone; before battle round "
                                f"{ZONE_BAN_BEFORE_ROUND} an ingress move cannot set up there (20.04)")
    return problems

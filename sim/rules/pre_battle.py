"""26 The mission's steps before battle round 1, as pure rules: the roll-offs of steps 5 and 10,
who deploys next in step 8 (alternating, Defender first; a TITANIC unit costs its player's next
deployment turn), where Infiltrators may deploy (24.20), which Scouts distance a unit has and
where a scout move may end (24.31, 24.32, 24.02).

Pure functions over plain data; problems come back as sentences naming the model, the rule and
the distance involved.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from sim.rules.transport import DEDICATED
from sim.rules.geometry import EPS, Footprint, distance_matrix, footprint_polygon_distance

__all__ = ["roll_off", "next_deployer", "unit_scouts", "infiltrator_problems", "scout_end_problems",
           "INFILTRATE_DISTANCE", "SCOUT_END_DISTANCE"]

INFILTRATE_DISTANCE = 8.0  # 24.20 more than 8" horizontally from the enemy zone and every enemy model
SCOUT_END_DISTANCE = 8.0  # 24.32 a scout move ends more than 8" horizontally from every enemy unit


def roll_off(first: int, second: int) -> int | None:
    """01.05.05 A roll-off between the players (army 0 rolled ``first``, army 1 ``second``):
    the higher roll wins; None on a tie (roll again)."""
    if first == second:
        return None
    return 0 if first > second else 1


def next_deployer(last: int, left: Sequence[int], skips: Sequence[bool]) -> tuple[int | None, tuple[bool, bool]]:
    """26 step 8 Who sets up the next unit, after ``last`` set one up: the players alternate;
    when one has no unit left to set up, the other sets up the rest; a player whose last unit
    was TITANIC (``skips[p]``) loses their next deployment turn, which the flag is then spent
    on. ``left``: each player's units still to set up. Returns (the player, or None when both
    are done; the skips after this turn)."""
    skip = [bool(skips[0]), bool(skips[1])]
    other = 1 - last
    if left[0] == 0 and left[1] == 0:
        return None, (skip[0], skip[1])
    if left[other] == 0:
        return last, (skip[0], skip[1])
    if left[last] == 0:
        return other, (skip[0], skip[1])
    if skip[other]:  # (the other's turn is the one their TITANIC unit cost: it passes back)
        skip[other] = False
        return last, (skip[0], skip[1])
    return other, (skip[0], skip[1])


def unit_scouts(per_model: Iterable[Iterable[int]]) -> int | None:
    """24.31 / 24.02 The Scouts distance a unit may use: only if every model has Scouts. With
    different values (24.02's Scouts exception) each model offers its best value and the unit
    uses the lowest of those, as the rule's examples have it (every model 6" and 8": 8"; one
    model only 6" and five 8": 6"). ``per_model``: each model's Scouts values (empty: it has
    none). None: the unit cannot scout."""
    best = None
    for values in per_model:
        values = list(values)
        if not values:
            return None
        top = max(values)
        best = top if best is None else min(best, top)
    return best


def carried_scouts(keywords: Iterable[str], per_passenger_model: Iterable[Iterable[int]]) -> int | None:
    """24.31 (its third choice) A DEDICATED TRANSPORT makes the scout move for the units
    embarked in it when every embarked model has Scouts: the distance is theirs, as
    ``unit_scouts`` reads it over all those models. ``per_passenger_model``: each embarked
    model's Scouts values. None: the transport cannot scout for them (not a dedicated
    transport, nothing embarked, or a model without Scouts)."""
    if DEDICATED not in set(keywords):
        return None
    models = [list(v) for v in per_passenger_model]
    return unit_scouts(models) if models else None


def _far_from(fps: Sequence[Footprint], names: Sequence[str], enemy_fps: Sequence[Footprint],
              enemy_names: Sequence[str], limit: float, what: str) -> list[str]:
    out = []
    if not fps or not enemy_fps:
        return out
    near = distance_matrix(list(fps), list(enemy_fps))
    for i, name in enumerate(names):
        j = int(near[i].argmin())
        d = float(near[i, j])
        if d <= limit + EPS:
            out.append(f"{name}: {d:.2f}\" from {enemy_names[j]}; {what}")
    return out


def infiltrator_problems(fps: Sequence[Footprint], names: Sequence[str], enemy_zone,
                         enemy_fps: Sequence[Footprint], enemy_names: Sequence[str]) -> list[str]:
    """24.20 Infiltrators: a unit every model of which has it may be set up anywhere more than
    8" horizontally from the enemy deployment zone and from every enemy model. Each problem
    names the model and how close it is."""
    out = []
    for name, fp in zip(names, fps):
        d = footprint_polygon_distance(fp, enemy_zone)
        if d <= INFILTRATE_DISTANCE + EPS:
            out.append(f"{name}: {d:.2f}\" from the enemy deployment zone; Infiltrators set up more than "
                       f"{INFILTRATE_DISTANCE:g}\" from it (24.20)")
    out += _far_from(fps, names, enemy_fps, enemy_names, INFILTRATE_DISTANCE,
                     f"Infiltrators set up more than {INFILTRATE_DISTANCE:g}\" from every enemy model (24.20)")
    return out


def scout_end_problems(fps: Sequence[Footprint], names: Sequence[str], enemy_fps: Sequence[Footprint],
                       enemy_names: Sequence[str]) -> list[str]:
    """24.32 A scout move ends more than 8" horizontally from every enemy unit."""
    return _far_from(fps, names, enemy_fps, enemy_names, SCOUT_END_DISTANCE,
                     f"a scout move ends more than {SCOUT_END_DISTANCE:g}\" from every enemy unit (24.32)")

"""11.02 / 11.04 / 15.11 The reach of a charge: how far away an enemy unit may be for a unit to
declare a charge, and to be one of its charge targets; with 21.03 taking to the skies (24.17
Hover) and 15.11 Heroic Intervention's caps.

* 11.02 step 1: a unit may declare a charge only with an enemy unit within 12" (15.11: Heroic
  Intervention's unit, likewise, is within 12" of an enemy unit).
* 11.02 step 2: the charge roll (2D6) is the charge move's maximum distance; 21.03 a unit
  taking to the skies has 2" less (never below 0), or all of it with Hover (24.17).
* 11.04: the charge targets are enemy units within 12" *and* within that maximum distance,
  measured edge to edge before moving (Part A ruling 17).
* 15.11 Heroic Intervention: Leap to Defend targets only units that charged this phase, within
  12" and the maximum distance, as any charge; Into the Fray caps the roll at 6 and its targets
  are any enemy units within 6" and the maximum distance.

Pure functions of numbers; distances are the caller's (edge to edge, 01.04), "within" is
``geometry.within_distance`` (01.04.01).
"""

from __future__ import annotations

from sim.rules.geometry import within_distance
from sim.rules.movement.moves import sky_distance

__all__ = [
    "CHARGE_RANGE", "INTO_THE_FRAY_ROLL", "INTO_THE_FRAY_RANGE",
    "may_declare", "max_distance", "reach", "in_reach", "into_the_fray_roll",
]

CHARGE_RANGE = 12.0         # 11.02 / 11.04 / 15.11: within 12"
INTO_THE_FRAY_ROLL = 6      # 15.11 Into the Fray: the charge roll is capped at 6
INTO_THE_FRAY_RANGE = 6.0   # 15.11 Into the Fray: targets within 6"


def may_declare(gap: float | None) -> bool:
    """11.02 step 1 (and 15.11's unit): an enemy unit is within 12" of the unit; ``gap`` is the
    distance to the closest one (None: there is none)."""
    return gap is not None and bool(within_distance(gap, CHARGE_RANGE))


def max_distance(roll: float, *, fly: bool = False, hover: bool = False) -> float:
    """11.02 step 2, 21.03 / 24.17 A charge move's maximum distance: the charge roll; taking to
    the skies (``fly``) 2" less, never below 0, unless the unit has Hover."""
    return sky_distance(roll, hover) if fly else float(roll)


def reach(roll: float, *, fly: bool = False, hover: bool = False, cap: float = CHARGE_RANGE) -> float:
    """11.04 How far away a charge target may be: within 12" (``cap``; 6" for Into the Fray,
    15.11) and within the maximum distance (``max_distance`` of ``roll``), whichever is less."""
    return min(cap, max_distance(roll, fly=fly, hover=hover))


def in_reach(gap: float | None, limit: float) -> bool:
    """11.04 An enemy unit ``gap`` inches away (edge to edge, before moving; None: no such
    distance) may be a charge target of a charge whose ``reach`` is ``limit``."""
    return gap is not None and bool(within_distance(gap, limit))


def into_the_fray_roll(roll: int) -> int:
    """15.11 Into the Fray: the charge roll, capped at 6."""
    return min(roll, INTO_THE_FRAY_ROLL)

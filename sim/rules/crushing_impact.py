"""15.06 Crushing Impact: what its dice do (RULES.md §13; the wording played is README's
ruling "Crushing Impact"). Pure: the caller rolls the dice and inflicts the mortal wounds
(06.02)."""

from __future__ import annotations

from typing import NamedTuple, Sequence

MAX_PER_UNIT = 6  # 15.06 "to a maximum of 6 mortal wounds" for each unit
HURTS_YOU = 1  # each 1: a mortal wound on your unit
HURTS_ENEMY = 5  # each 5+: a mortal wound on the enemy unit


class CrushingImpact(NamedTuple):
    """The mortal wounds the dice inflict: on the enemy unit and on your own unit."""

    to_enemy: int
    to_own: int


def dice_count(own_model_T: int) -> int:
    """15.06 (the wording played): one D6 for each point of the Toughness of your model that
    was picked (the one engaged with the enemy unit)."""
    return max(0, int(own_model_T))


def crushing_impact(rolls: Sequence[int]) -> CrushingImpact:
    """15.06 Each 1 inflicts a mortal wound on your unit and each 5+ one on the enemy unit, to
    a maximum of 6 mortal wounds on each unit."""
    enemy = sum(1 for r in rolls if r >= HURTS_ENEMY)
    own = sum(1 for r in rolls if r <= HURTS_YOU)
    return CrushingImpact(min(MAX_PER_UNIT, enemy), min(MAX_PER_UNIT, own))

"""15.06 Crushing Impact, its dice (sim.rules.crushing_impact): one D6 per point of the T of
your model (the wording played, README ruling); each 1 is a mortal wound on your unit, each
5+ one on the enemy unit, at most 6 on each unit."""

from __future__ import annotations

import pytest

from sim.rules.crushing_impact import MAX_PER_UNIT, crushing_impact, dice_count


@pytest.mark.parametrize("rolls,enemy,own", [
    ((5, 6, 1, 2, 3, 4), 2, 1),
    ((2, 3, 4), 0, 0),
    ((1, 1, 1), 0, 3),
    ((5,) * 9, 6, 0),          # capped at 6 on the enemy unit
    ((1,) * 8 + (6,) * 4, 4, 6),  # capped at 6 on your own unit
    ((), 0, 0),
])
def test_15_06_ones_hurt_you_fives_hurt_the_enemy_at_most_six_each(rolls, enemy, own):
    assert crushing_impact(rolls) == (enemy, own)


def test_15_06_one_die_per_point_of_your_models_toughness():
    assert dice_count(6) == 6 and dice_count(12) == 12 and MAX_PER_UNIT == 6

"""sim.rules.effects.dice_pool (pure): a rule's pool of dice (Acts of Faith's Miracle dice): the
options offered, a spend, the default player's answer, and the dice standing a pool's die for the
first die of one roll."""

from __future__ import annotations

import pytest

from sim.rules.dice import ForcedDice
from sim.rules.effects import dice_pool as DP
from sim.rules.effects import vocabulary as V


def test_options_and_spend():
    assert DP.options([3, 6, 3]) == ["use 6", "use 3", "decline"]
    assert DP.value_of("use 3") == 3 and DP.value_of("decline") is None
    assert DP.spend([3, 6, 3], 3) == [6, 3]
    with pytest.raises(ValueError):
        DP.spend([3], 6)


@pytest.mark.parametrize("pool, need, dice, answer", [
    ([6], 6, 1, "use 6"),  # a lone save needing 6: 1 in 6 -> sure
    ([2, 5, 6], 5, 1, "use 5"),  # the lowest die that succeeds
    ([6], 3, 1, "decline"),  # 3+: likely already
    ([3], 5, 1, "decline"),  # the die would fail too
    ([6], 6, 10, "decline"),  # one die of ten: not worth it by default
])
def test_default_answer_per_die(pool, need, dice, answer):
    assert DP.default_answer(pool, DP.per_die_chance(need, dice)) == answer


def test_default_answer_two_dice():
    assert DP.default_answer([6, 2], DP.two_dice_chance(10)) == "use 6"  # 1/6 -> 1/2
    assert DP.default_answer([6], DP.two_dice_chance(6)) == "decline"  # 26/36 already
    assert DP.default_answer([1], DP.two_dice_chance(9)) == "decline"


def test_substituted_dice_stand_for_the_first_die_of_one_roll_only():
    d = ForcedDice([2, 3, 4, 5])
    s = DP.Substituted(d, 6, "save rolls")
    assert s.d6(2, "hit rolls") == (2, 3)  # (another roll's)
    assert s.d6(3, "save rolls") == (6, 4, 5) and s.used
    assert d.log[-1] == ("save rolls", (4, 5))  # (the substituted die is not rolled)
    with pytest.raises(Exception):
        s.d6(1, "save rolls")  # (used: the stream's, which is empty)


def test_the_vocabulary_checks_pool_effects():
    with pytest.raises(V.VocabularyError):
        V.Effect(V.SUBSTITUTE, "damage")
    with pytest.raises(V.VocabularyError):
        V.Effect(V.GAIN_DICE, trigger="charge")

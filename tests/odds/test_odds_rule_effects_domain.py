"""Exact odds (``sim odds``) of attacks under rules that read the attacking army's domain
(sim.rules.effects.domain: red's deployment zone is y 0-12 here): Flow of Magic (psychic attacks
re-roll wound rolls of 1, or +1 to wound instead while wholly within the domain) and Power Matrix
(CANOPTEK units re-roll hit rolls of 1, or any hit roll while wholly within it), against hand-worked
fractions; and Flow of Magic's re-roll in a battle with forced dice."""

from __future__ import annotations

import pytest

from scen import model, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.odds import engine as E
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario

WEAPONS = {"bolt": weapon(36, 10, 3, 4, 0, 1), "smite": weapon(36, 10, 3, 4, 0, 1, "PSYCHIC")}
BASE = 10 * (2 / 3) * (1 / 2)  # A10, BS3+, S4 vs T4, no save


def _battle(rules, y, keywords=("INFANTRY",), dice=None):
    """Red's shooter at (30, y) holding the army rules ``rules``; blue's target at (30, 30)."""
    sh = unit("sh", model((30, y), list(WEAPONS), W=10), keywords=keywords)
    t = unit("t", model((30, 30), ["bolt"], W=100, Sv=7))
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [sh], "rules": list(rules)}, {"name": "B", "units": [t]}],
            "mission": {"first": "red", "rounds": 5, "deployed": False}}
    return Battle(parse_scenario(data, "test.toml"), dice=None if dice is None else ForcedDice(dice))


def _to_shooting(b):
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    while str(b.turn_state.phase) != "shooting":
        b.run_command(EndPhase())


def _odds(rules, y, weapon_, keywords=("INFANTRY",)):
    with _battle(rules, y, keywords) as b:
        _to_shooting(b)
        o = E.for_command(b, Shoot("sh", (Selection("sh/1", weapon_, "t"),)))
    assert o.method == "exact"
    return o.targets[0].damage.mean


@pytest.mark.parametrize("y, weapon_, expected", [
    (22, "smite", 10 * (2 / 3) * (7 / 12)),  # outside the domain: 4+ re-rolling 1s: 1/2 + 1/6 * 1/2
    (5, "smite", 10 * (2 / 3) * (2 / 3)),  # wholly within it: +1 to wound (3+), no re-roll
    (22, "bolt", BASE),  # (not a psychic attack: nothing)
    (5, "bolt", BASE),
])
def test_flow_of_magic_exact_odds(y, weapon_, expected):
    assert _odds(["Flow of Magic"], y, weapon_) == pytest.approx(expected, abs=1e-12)


def test_flow_of_magic_a_unit_across_its_zone_edge_is_not_wholly_within():
    assert _odds(["Flow of Magic"], 12, "smite") == pytest.approx(10 * (2 / 3) * (7 / 12), abs=1e-12)


@pytest.mark.parametrize("y, keywords, expected", [
    (22, ("CANOPTEK",), 10 * (7 / 9) / 2),  # re-roll hit rolls of 1: 2/3 + 1/6 * 2/3
    (5, ("CANOPTEK",), 10 * (8 / 9) / 2),  # wholly within: re-roll a failed hit, 2/3 + 1/3 * 2/3
    (5, ("INFANTRY",), BASE),  # (neither CANOPTEK nor CRYPTEK)
])
def test_power_matrix_exact_odds(y, keywords, expected):
    assert _odds(["Power Matrix"], y, "bolt", keywords) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("y, dice, wounded", [
    (22, [4, 1, 4, 1], True),  # outside the domain: the wound roll of 1 re-rolled (4: wounds); save 1
    (22, [4, 3], False),  # (3 fails 4+, no re-roll)
    (5, [4, 3, 1], True),  # wholly within: 3 + 1 wounds; save 1
    (5, [4, 1], False),  # (an unmodified 1 fails, and is not re-rolled there)
])
def test_flow_of_magic_in_a_battle_with_forced_dice(y, dice, wounded):
    """One psychic attack, BS3+ S4 at T4 (Sv 7+: its save fails): hit 4, then the wound roll."""
    one = {"smite": weapon(36, 1, 3, 4, 0, 1, "PSYCHIC")}
    sh = unit("sh", model((30, y), ["smite"], W=10))
    t = unit("t", model((30, 30), ["smite"], W=100, Sv=7))
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": one,
            "armies": [{"name": "A", "units": [sh], "rules": ["Flow of Magic"]}, {"name": "B", "units": [t]}],
            "mission": {"first": "red", "rounds": 5, "deployed": False}}
    with Battle(parse_scenario(data, "test.toml"), dice=ForcedDice(dice)) as b:
        _to_shooting(b)
        b.run_command(Shoot("sh", (Selection("sh/1", "smite", "t"),)))
        assert wounds(b, "t/1") == (99 if wounded else 100)
        assert b.dice.remaining == 0

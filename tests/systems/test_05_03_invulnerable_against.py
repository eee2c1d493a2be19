"""05.03/05.04 An invulnerable save against ranged or melee attacks only (a datasheet's "5+*"
whose ability says so, imported as InSv with InSv_against): through the ECS with forced dice,
the save counts against those attacks and not against the others."""

from __future__ import annotations

import pytest

from scen import model, of_type, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.rules.attack import invulnerable_against
from sim.rules.dice import ForcedDice

WEAPONS = {"rifle": weapon(36, 1, 3, 4, -3, 1), "knife": weapon("melee", 1, 3, 4, -3, 1)}


def _target(against: str, at):
    m = model(at, ["knife"], W=5, Sv=3, InSv=4)
    if against:
        m["InSv_against"] = against
    return unit("t", m)


@pytest.mark.parametrize("against,saved", [("", True), ("ranged", True), ("melee", False)])
def test_a_ranged_attack_uses_an_invulnerable_save_unless_it_is_against_melee_only(against, saved):
    """Hit 3, wound 4 (S4 v T4), save 4: AP -3 leaves the 3+ armour at 6+, the 4+ invulnerable
    saves, unless it counts against melee attacks only."""
    sh = unit("sh", model((10, 10), ["rifle"]))
    with Battle(scenario(WEAPONS, [sh], [_target(against, (10, 30))]), dice=ForcedDice([3, 4, 4])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        assert wounds(b, "t/1") == (5 if saved else 4)


@pytest.mark.parametrize("against,saved", [("", True), ("ranged", False), ("melee", True)])
def test_a_melee_attack_uses_an_invulnerable_save_unless_it_is_against_ranged_only(against, saved):
    a = unit("a", model((10, 10), ["knife"]))
    with Battle(scenario(WEAPONS, [a], [_target(against, (10, 11.6))]), dice=ForcedDice([3, 4, 4])) as b:
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))
        assert of_type(b, "hit rolls")[0]["hits"] == 1
        assert wounds(b, "t/1") == (5 if saved else 4)


def test_invulnerable_against_rule():
    assert invulnerable_against(None, "ranged", False) is None
    assert [invulnerable_against(5, a, melee) for a in ("", "ranged", "melee") for melee in (False, True)] == [
        5, 5, 5, None, None, 5]


def test_the_scenario_refuses_an_inSv_against_without_an_inSv_or_of_another_kind():
    from sim.errors import ScenarioError
    for bad in ({"InSv_against": "ranged"}, {"InSv": 4, "InSv_against": "psychic"}):
        m = model((10, 30), ["knife"])
        m.update(bad)
        with pytest.raises(ScenarioError) as e:
            scenario(WEAPONS, [unit("t", m)], [])
        assert "InSv_against" in str(e.value)

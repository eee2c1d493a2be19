"""Exact odds (``sim odds``) of melee attacks under a blessing a DICE_OPTIONS rule activated
(Blessings of Khorne; sim.rules.effects.dice_options): the option's grants read the choice in
force like any condition, so the odds move exactly as worked out by hand; nothing without it."""

from __future__ import annotations

import pytest

from scen import model, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Fight, Selection
from sim.odds import engine as E

WEAPONS = {"axe": weapon("melee", 6, 3, 4, 0, 1)}


def _odds(blessings, target_keywords=("INFANTRY",), Sv=7):
    red = unit("w", model((10, 10), ["axe"]))
    red["rules"] = ["blessings-of-khorne"]
    blue = unit("t", model((10, 11.3), ["axe"], W=100, Sv=Sv), keywords=target_keywords)
    with Battle(scenario(WEAPONS, [red], [blue])) as b:
        if blessings:
            b.resources.rule_choices["red:blessings-of-khorne"] = {"value": list(blessings), "round": 1, "player": 0}
        o = E.for_command(b, Fight("w", (Selection("w/1", "axe", "t"),)))
    assert o.method == "exact"
    return o.targets[0].damage.mean


BASE = 6 * (2 / 3) * (1 / 2)  # A6, WS3+, S4 vs T4, no save


@pytest.mark.parametrize("blessings, expected", [
    ((), BASE),
    (("Warp Blades",), 6 * ((1 / 2) * (1 / 2) + 1 / 6)),  # a 6 to hit wounds at once ([LETHAL HITS])
    (("Martial Excellence",), 6 * ((2 / 3) + 1 / 6) * (1 / 2)),  # a 6 to hit scores one more hit
    (("Unbridled Bloodlust", "Total Carnage"), BASE),  # (a charge modifier; an effect not modelled)
])
def test_blessings_of_khorne_odds_exact(blessings, expected):
    o = _odds(blessings)
    assert o == pytest.approx(expected, abs=1e-9)


def test_cleaving_blows_improves_ap_against_a_save():
    """Sv 4+ against AP 0: saves on 4+ (1/2); with Cleaving Blows' AP -1: on 5+ (1/3 saved)."""
    assert _odds((), Sv=4) == pytest.approx(BASE / 2, abs=1e-9)
    assert _odds(("Cleaving Blows",), Sv=4) == pytest.approx(BASE * (2 / 3), abs=1e-9)


def _file_odds(chosen):
    from sim.scenario.load import parse_scenario
    red = unit("w", model((10, 10), ["axe"]))
    blue = unit("t", model((10, 11.3), ["axe"], W=100, Sv=7))
    army = {"name": "A", "units": [red], "rules": ["Blessings of Khorne"]}
    if chosen is not None:
        army["chosen"] = {"Blessings of Khorne": chosen}
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [army, {"name": "B", "units": [blue]}]}
    with Battle(parse_scenario(data, "test.toml")) as b:
        return E.for_command(b, Fight("w", (Selection("w/1", "axe", "t"),))).targets[0].damage.mean


def test_a_scenario_sets_the_blessings_in_force_and_a_bad_list_is_refused():
    from sim.errors import ScenarioError
    assert _file_odds(None) == pytest.approx(BASE, abs=1e-9)
    assert _file_odds(["Warp Blades"]) == pytest.approx(6 * ((1 / 2) * (1 / 2) + 1 / 6), abs=1e-9)
    for bad in (["Warp Blades", "Cleaving Blows", "Total Carnage"], ["Bloodletting"], True):
        with pytest.raises(ScenarioError, match="at most 2 of its options"):
            _file_odds(bad)

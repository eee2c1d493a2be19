"""The exact odds (``sim odds``) of attacks while a ritual is in force (sim.phases.rituals puts
it in force; sim.world.rule_effects lets its grants reach the army's attacks at its target): the
odds read the same seam as the battle, so Twist of Fate's AP and Destiny's Ruin's re-rolls change
them exactly as worked out by hand, the bigger result's part only on its Psychic test result."""

from __future__ import annotations

import pytest

from scen import model, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.odds import engine as E

WEAPONS = {"gun": weapon(36, 10, 3, 4, 0, 1)}
BASE = 10 * (2 / 3) * (1 / 2)  # A10, BS3+, S4 vs T4, no save: 10/3 unsaved attacks


def odds(ritual: str | None, result: int, Sv: int, target: str = "t"):
    sh = unit("sh", model((10, 10), ["gun"], W=10), keywords=("INFANTRY", "PSYKER"), rules=["cabal-of-sorcerers"])
    t = unit("t", model((10, 30), ["gun"], W=100, Sv=Sv))
    other = unit("u", model((30, 30), ["gun"], W=100, Sv=Sv))
    with Battle(scenario(WEAPONS, [sh], [t, other])) as b:
        if ritual is not None:
            b.resources.rule_choices[f"red:{ritual}"] = {"value": target, "round": 1, "player": 0, "result": result,
                                                         "ritual": ritual}
        o = E.for_command(b, Shoot("sh", (Selection("sh/1", "gun", "t"),)))
    assert o.method == "exact"
    return o.targets[0].damage.mean


@pytest.mark.parametrize("ritual, result, Sv, target, expected", [
    (None, 0, 4, "t", BASE * (1 / 2)),  # Sv 4+: half saved
    ("twist-of-fate", 9, 4, "t", BASE * (2 / 3)),  # AP -1: saves on 5+
    ("twist-of-fate", 12, 4, "t", BASE * (5 / 6)),  # AP -2 on 12+: saves on 6+
    ("twist-of-fate", 12, 4, "u", BASE * (1 / 2)),  # (at another unit: nothing)
    ("destinys-ruin", 5, 7, "t", 10 * (2 / 3 + 1 / 6 * 2 / 3) / 2),  # hit rolls of 1 re-rolled
    ("destinys-ruin", 10, 7, "t", 10 * (2 / 3 + 1 / 3 * 2 / 3) / 2),  # any failed hit re-rolled on 10+
])
def test_odds_under_a_ritual_in_force(ritual, result, Sv, target, expected):
    assert odds(ritual, result, Sv, target) == pytest.approx(expected, abs=1e-12)

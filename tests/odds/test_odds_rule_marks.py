"""The exact odds (``sim odds``) of a marked unit's attacks: Internal Rivalries' Favoured Champions
re-roll their wound rolls (the condition "marked", read off Resources.rule_marks), exactly as
worked out by hand; an unmarked unit of the same army does not."""

from __future__ import annotations

import pytest

from scen import model, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.odds import engine as E
from sim.rules.effects import table
from sim.world import rule_effects as RE
from test_odds_rule_effects import give

WEAPONS = {"gun": weapon(36, 10, 3, 4, 0, 1)}
BASE = 10 * (2 / 3) * (1 / 2)  # A10, BS3+, S4 vs T4, no save: 10/3 unsaved attacks
EC_CHAR = ["INFANTRY", "EMPEROR'S CHILDREN", "CHARACTER"]


def _odds(marked: str | None):
    sh = unit("sh", model((10, 10), ["gun"], W=10), keywords=EC_CHAR)
    t = unit("t", model((10, 30), ["gun"], W=100, Sv=7))
    with Battle(scenario(WEAPONS, [sh], [t])) as b:
        give(b, "sh", table.by_key("internal-rivalries"))
        if marked:
            b.resources.rule_marks[RE.choice_key(0, "internal-rivalries") + "|marked"] = marked
        o = E.for_command(b, Shoot("sh", (Selection("sh/1", "gun", "t"),)))
    assert o.method == "exact"
    return o


@pytest.mark.parametrize("marked, expected", [
    ("sh", 10 * (2 / 3) * (1 / 2 + 1 / 2 * 1 / 2)),  # wound rolls failed on 1-3 re-rolled: 3/4 wound
    ("other", BASE),
    (None, BASE),
])
def test_internal_rivalries_favoured_champions_reroll_wound_rolls_exactly(marked, expected):
    assert _odds(marked).targets[0].damage.mean == pytest.approx(expected, abs=1e-12)

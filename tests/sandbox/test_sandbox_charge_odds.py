"""The chance that a charge succeeds, before it is declared (issue 28 item 11): the exact 2D6
odds of reaching each enemy unit within 12", named on the table beside the unit and in the hover
tip; gone once the charge is declared (the roll is known)."""

from __future__ import annotations

import pygame
import pytest

from sim.phases.state import Phase
from sim.sandbox.charge_odds import charge_chance, roll_needed
from test_sandbox_moves import mission


@pytest.mark.parametrize("gap, need, p", [(1.5, 2, 36 / 36), (3.0, 3, 35 / 36), (7.0, 7, 21 / 36),
                                          (9.5, 10, 6 / 36), (12.0, 12, 1 / 36)])
def test_two_d6_reaching_a_gap(gap, need, p):
    assert roll_needed(gap) == need
    assert charge_chance(gap) == pytest.approx(p)


def test_charge_odds_shown_before_the_charge_is_declared(make):
    d = mission(make, seed=5, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    d.pump(2)
    odds = sb.charge_odds.of(sb)
    assert list(odds) == ["line"]
    gap, p = odds["line"]
    assert p == pytest.approx(charge_chance(gap)) and 0 < p < 1
    label = next(x for x in sb.table_labels.placed if x.key == "line")
    assert sb.look().notes["line"] == f"charge {100 * p:.0f}%"
    line = sb.scene.units["line"]
    d.move(d.model_pos(line.models[0]))
    d.pump(2)
    tip = sb._tip_lines(sb.look())
    assert any(t.startswith("charge ") and f"needs {roll_needed(gap)}+" in t for t in tip), tip
    assert label.rect.w > 0
    d.key(pygame.K_c)  # (declared: the roll is known, the odds are gone)
    assert sb.charge_odds.of(sb) == {}

"""The status line names the players as the sandbox names them elsewhere (the tracker, "your
turn, Wardens"): by their armies' names, "Wardens' Shooting phase", never "red's"."""

from __future__ import annotations

import re

import pygame

from sim.phases.gates import where
from sim.phases.state import Phase
from test_sandbox_moves import mission


def test_the_status_line_names_the_army_whose_phase_it_is(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.key(pygame.K_e, "e")  # End phase: the Movement phase ends
    assert "now round 1, Wardens' Shooting phase" in sb.status, sb.status
    assert "red" not in sb.status and "blue" not in sb.status, sb.status


def test_where_names_the_sides_as_asked_and_by_player_colour_otherwise(make):
    d = mission(make, seed=5)
    ts = d.sb.battle.turn_state
    assert where(ts) == "round 1, red's Movement phase"
    assert where(ts, ("Wardens", "Raiders")) == "round 1, Wardens' Movement phase"
    assert where(ts, ("Iron Host", "Raiders")) == "round 1, Iron Host's Movement phase"


def test_the_log_names_the_sides_by_their_armies(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.pump(2)
    shown = [t for t, _oid in sb._log_items]
    assert any("Wardens: command phase" in t for t in shown), shown
    assert any("Wardens 1, Raiders 1" in t for t in shown), shown  # (+1 CP each)
    assert not [t for t in shown if re.search(r"\b(red|blue)\b", t)], shown


def _shown(sb) -> str:
    sb.update(0)
    return sb.status_label.text


def test_a_refused_order_names_the_armies_in_the_status_line_with_their_possessive(make):
    """The engine refuses in its own words ("only red, whose turn it is, ...; the unit is
    blue's"); the status line reads them as people's words, by the armies' names, a name ending
    in s taking a bare apostrophe ("Raiders'", never "Raiders's")."""
    d = mission(make, seed=5)
    sb = d.sb
    mob = sb.scene.living("mob")[0]
    a = d.model_pos(mob.id)
    d.drag(a, (a[0] + 30, a[1]))  # (the Raiders' unit, in the Wardens' Movement phase)
    shown = _shown(sb)
    assert "only Wardens, whose turn it is" in shown and "the unit is Raiders'" in shown, shown
    assert "Raiders's" not in shown and not re.search(r"\b(red|blue)\b", shown), shown


def test_an_order_the_phase_does_not_take_says_whose_phase_it_is_in_words(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.click_model(sb.scene.living("squad")[0].id)
    d.key(pygame.K_s, "s")  # (Shoot in the Movement phase: refused, greyed with the reason)
    shown = _shown(sb)
    assert "now: round 1, Wardens' Movement phase" in shown, shown
    tip = sb.names["bar:shoot"].tool_tip_text if "bar:shoot" in sb.names else None
    assert tip is None or ("Wardens' Movement phase" in tip and "Wardens's" not in tip), tip


def test_engine_text_in_people_words_names_players_units_and_possessives(make):
    """Sandbox.said, the one home every engine text goes through to a person (status line,
    decision panel's refused answer, notes on the table, greyed buttons' reasons)."""
    d = mission(make, seed=5)
    sb = d.sb
    assert sb.said("it is red's choice; the unit is blue's (mob, mob's)") == \
        "it is Wardens' choice; the unit is Raiders' (Raider Mob, Raider Mob's)"
    assert sb.said("reddish blue-ish red/2") == "reddish blue-ish red/2"  # (whole words only)


def _advance_asked(make):
    """The runners selected to advance: the battle asks their player about a stratagem."""
    from sandbox_support import DATA
    d = make(DATA / "extra" / "battle_turn.toml")
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_model("runners/1")
    d.click_button("select:advance")
    return d, sb, sb.battle.pending


def test_a_stratagems_cost_tip_names_the_army_with_its_possessive(make):
    """'1 CP of Wardens' 1' (was "Wardens's")."""
    d, sb, req = _advance_asked(make)
    assert req is not None and req.kind == "stratagem"
    d.pump(2)
    tip = d.button("answer:use").tool_tip_text
    army = sb.battle.scenario.armies[req.player].name
    assert army.endswith("s") and f"CP of {army}' " in tip and "s's" not in tip, tip


def test_a_decision_in_the_log_names_the_army_that_made_it(make):
    """'decision (stratagem ..., Wardens): decline' (was 'player 1': a number a person cannot read)."""
    d, sb, req = _advance_asked(make)
    army = sb.battle.scenario.armies[req.player].name
    d.click_button("answer:decline")
    d.pump(3)
    said = [t for t, _oid in sb._log_items if "decision (" in t]
    assert said and all(f", {army}): " in t for t in said), said
    assert not [t for t in said if re.search(r"player \d", t)], said


def test_a_target_tip_names_the_unit_not_its_id(make):
    """Hovering an enemy while an order is open: 'Raider Mob: legal target...' (was 'mob: ...')."""
    d = mission(make, seed=5, phase=Phase.SHOOTING)
    sb = d.sb
    d.click_model(sb.scene.living("squad")[0].id)
    d.key(pygame.K_s, "s")
    target = sb.scene.living("mob")[0]
    d.move(d.model_pos(target.id))
    d.pump(2)
    look = sb.look()
    assert "mob" in look.targets, look.targets
    tip = sb._tip_lines(look)
    assert tip and tip[0].startswith("Raider Mob: "), tip
    assert not [t for t in tip if re.search(r"(?<![\w-])mob(?![\w-])", t)], tip

"""Units by their names where a real-window play found ids (issue 28 leftovers): the odds block
while it works out the odds ("Command Guard: working out the odds...", was "guards: ..."), and
the orders panel while a command resolves ("Marksman Squad shoot: attacks, ...", was
"snipers shoot: ...")."""

from __future__ import annotations

import re

import pygame

from test_sandbox_battle import _labels
from test_sandbox_odds import TABLE, _declare


def test_the_odds_block_names_its_target_while_it_works(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    odds = sb.odds
    odds.state, odds.preview = "working", None  # (as drawn until the worker answers)
    assert odds.lines() == ["Command Guard: working out the odds..."], odds.lines()


def test_the_resolving_panel_names_the_unit(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    d.key(pygame.K_RETURN, "\r")
    assert sb.resolving
    d.key(pygame.K_SPACE, " ")
    shown = " ".join(lab.text for lab in _labels(sb.orders_flow))
    assert "Marksman Squad shoot" in shown, shown
    assert not re.search(r"(?<![\w-])snipers(?![\w-])", shown), shown


def test_the_charge_panel_names_its_targets(make):
    """The charge roll's target buttons ('Raider Line  7.99"', were the ids) and a failed
    charge's note ('nearest: Raider Line, ...')."""
    from sim.phases.state import Phase
    from test_sandbox_moves import _settle, mission
    d = mission(make, seed=5, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    d.key(pygame.K_c)
    _settle(d)
    assert sb.placement is not None and sb.placement.stage == "placing", sb.status
    name = sb.scene.units["line"].name
    assert d.button("target:line").text.startswith(f"{name}  "), d.button("target:line").text
    d = mission(make, seed=4, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    d.key(pygame.K_c)
    _settle(d)
    assert sb.placement is not None and sb.placement.stage == "failed", sb.status
    assert "(nearest: line," in sb.placement.note  # (the engine-side note keeps the id)
    shown = " ".join(lab.text for lab in _labels(sb.orders_flow))
    assert f"nearest: {name}" in shown and "nearest: line" not in shown, shown


def test_a_placed_models_refusal_on_the_table_names_its_models(make, monkeypatch):
    """The note beside a placed (Shift-dragged) model whose move would be refused read the
    engine's ids ("w-squad2/3: 4.49\\" from ... (w-squad2/2)"); it reads names, as the status line."""
    from sim.sandbox import unit_move
    from test_sandbox_moves import mission
    from test_sandbox_unit_moves import inches, shift_drag
    d = mission(make, seed=5)
    sb = d.sb
    a = d.model_pos("squad/3")
    shift_drag(d, a, (a[0], a[1] + inches(sb, 3.5)))  # (within engagement range of the mob)
    reason = sb.staged["verdicts"]["squad/3"]
    assert "squad/3" in reason or "mob" in reason, reason  # (the engine's text: ids)
    notes = []
    monkeypatch.setattr(unit_move, "draw_note", lambda surf, anchor, lines, *a, **k: notes.append(lines))
    sb.draw()
    assert notes, "no note drawn"
    shown = " ".join(" ".join(lines) for lines in notes)
    assert not re.search(r"(?<![\w-])(squad|mob)(/\d+)?(?![\w-])", shown), shown
    assert sb.scene.units["mob"].name in shown or sb.scene.names["squad/3"] in shown, shown

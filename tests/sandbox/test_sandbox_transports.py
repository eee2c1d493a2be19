"""18 Transports in the sandbox: an embarked unit is listed, not drawn; the transport carries a
badge with the count of embarked models and its unit card lists the passengers; in the Movement
phase a Disembark button sets the unit up with the default layout in the mode the rules give,
after which its models are on the table and the badge is gone. Screenshots of both go to
tests/sandbox/screenshots/transport-*.png."""

from __future__ import annotations

from pathlib import Path

import pygame

from sandbox_support import ROOT, shot
from sim.phases.state import Phase

SHOTS = Path(__file__).resolve().parent / "screenshots"


def test_a_transport_shows_what_it_carries_and_a_unit_disembarks_by_its_button(make):
    d = make(ROOT / "scenarios" / "transport.toml")
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    ts = sb.battle.turn_state
    assert ts.phase == Phase.MOVEMENT and ts.active == 0
    assert not sb.scene.models["squad/1"].alive and sb.scene.units["squad"].embarked_in == "carrier"
    assert sb.scene.units["carrier"].carried == 5 and "disembark:squad" in sb.names
    d.click_model("carrier/1")
    assert sb.selected_unit == "carrier"
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "transport-embarked.png")
    d.click_button("disembark:squad")
    assert sb.status.startswith("done: disembark squad"), sb.status
    assert sb.scene.models["squad/1"].alive and sb.scene.units["carrier"].carried == 0
    assert "disembark:squad" not in {n for n, b in sb.names.items() if b.alive()}
    d.pump(2)
    shot(sb.draw(), SHOTS / "transport-disembarked.png")


def test_the_disembark_buttons_are_greyed_by_the_transport_s_move_and_search_no_layout(make, monkeypatch):
    """The orders panel, made again after each command, greys a Disembark button by what the
    phase, the turn and the transport's move tell (18.04) and lays no model out: with a
    community army's dozen passengers the layouts searched for every button took seconds a
    command. The layout is searched when the button is pressed."""
    from sim.commands import Move, SelectToMove
    from sim.sandbox import battle_flow
    d = make(ROOT / "scenarios" / "transport.toml")
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    searched = []
    real = battle_flow.default_disembark
    monkeypatch.setattr(battle_flow, "default_disembark", lambda *a, **k: searched.append(a) or real(*a, **k))
    sb.dirty.add("orders")
    d.pump(2)
    assert searched == [] and sb.names["disembark:squad"].alive()
    assert "#unavailable" not in str(sb.names["disembark:squad"].object_ids)
    # (the carrier advances: its passengers may not disembark this phase, 18.04)
    b = sb.battle
    b.run_command(SelectToMove("carrier", "advance"))
    b.run_command(Move("carrier", (), "advance"))
    sb.dirty.add("orders")
    d.pump(2)
    btn = sb.names["disembark:squad"]
    assert "#unavailable" in str(btn.object_ids) and "advanced this phase" in (btn.tool_tip_text or ""), btn.tool_tip_text
    assert searched == []

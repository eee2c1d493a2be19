"""The status line names the players as the sandbox names them elsewhere (the tracker, "your
turn, Wardens"): by their armies' names, "Wardens' Shooting phase", never "red's"."""

from __future__ import annotations

import re

import pygame

from sim.phases.gates import where
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

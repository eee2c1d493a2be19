"""The computer's commands in the sandbox's log (issue 27 item 4): its player's kind, the
command's own words with unit names, and, for an attack its player weighed, the expectation from
the odds it already computed ("Tactician: Raider Gunners is selected to shoot at Warden Squad:
1.5 models, 33 pts expected")."""

from __future__ import annotations

import re

from sandbox_support import FAST
from test_play_vs_computer import TABLE, notes, play_computer_turn, start


def test_the_tacticians_attacks_are_logged_with_their_expectation(make):
    d = make(TABLE, ai={1: "tactician"}, ai_speed=FAST, ask_ai=False)
    start(d)
    play_computer_turn(d)
    lines = notes(d.sb)
    shots = [t for t in lines if "is selected to shoot" in t]
    assert shots, lines
    for t in shots:
        assert re.search(r": Tactician: Raider [\w ]+ is selected to shoot( \(\w+\))? at Warden [\w ()]+: "
                         r"\d+\.\d models, \d+ pts expected$", t), t
    assert all(": Tactician: " in t for t in lines), lines
    for t in lines:
        assert not re.search(r"(?<!\()\b[rw]-[a-z]+", t), t  # (no bare unit id)


def test_the_trails_line_to_a_target_ends_among_its_living_models(make):
    """The computer's trail marks its target at the middle of the models still standing (its
    removed models, left where they fell, put the mark on empty table)."""
    from test_sandbox_moves import mission
    from sim.sandbox.computer import trail_aim
    d = mission(make, seed=5)
    sb = d.sb
    ms = sb.scene.living("mob")
    ms[0].x -= 12.0  # (a model that fell far from where its unit now stands)
    ms[0].alive = False
    rest = ms[1:]
    aim = trail_aim(sb, "mob")
    assert aim == (sum(m.x for m in rest) / len(rest), sum(m.y for m in rest) / len(rest))

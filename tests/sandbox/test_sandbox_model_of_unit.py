"""A model named where its unit is not otherwise clear (issue 28 leftovers): "Warden 1" is in
each Warden Squad, so the log's "removed:" line (named after the attacker) reads "Warden 1 of
Warden Squad (1)" (sim.names.models_with_units, report.MODELS_AWAY); the hover tip and the
decision panel use the same form (sim.names.model_of_unit). Display only: the events are the
engine's."""

from __future__ import annotations

import re

from test_play_vs_computer import TABLE, play_computer_turn, start


def test_removed_models_are_named_with_their_unit_in_the_log(make):
    d = make(TABLE, ai={1: "default"}, ai_speed=20, ask_ai=False)
    sb = d.sb
    start(d)
    play_computer_turn(d)
    removed = [t for t, _o in sb._log_items if "removed: " in t and "removed: none" not in t]
    assert removed, [t for t, _o in sb._log_items][-40:]
    for t in removed:
        for part in t.split("removed: ", 1)[1].split(", "):
            if part.startswith("Warden ") and re.match(r"Warden \d", part):  # (a model four squads have)
                assert re.fullmatch(r"Warden \d+ of Warden Squad \(\d\)", part), t
    # the hover tip: the model with its unit's name
    mid = next(m for m, v in sorted(sb.scene.models.items()) if v.alive and v.name.startswith("Warden ")
               and re.match(r"Warden \d", v.name))
    d.move(d.model_pos(mid))
    d.pump(1)
    assert sb.hover_model == mid
    tip = "\n".join(sb._tip_lines(sb.look()))
    assert f"{sb.scene.models[mid].name} of Warden Squad (" in tip, tip

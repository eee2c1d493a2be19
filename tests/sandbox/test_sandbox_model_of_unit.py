"""A model named where its unit is not otherwise clear (issue 28 leftovers): "Warden 1" is in
each Warden Squad, so the log's "removed:" line (named after the attacker) reads "Warden 1 of
Warden Squad (1)" (sim.names.models_with_units, report.MODELS_AWAY), and several models of a unit
read counted, "3 of Warden Squad (1)" (sim.names.models_by_unit), in the log and the status line
alike (Sandbox.said); the hover tip and the decision panel use the same form (sim.names.model_of_unit).
Display only: the events are the engine's."""

from __future__ import annotations

import re

from sandbox_support import FAST, ROOT
from test_play_vs_computer import TABLE, play_computer_turn, start


def test_removed_models_are_named_with_their_unit_in_the_log(make):
    d = make(TABLE, ai={1: "default"}, ai_speed=FAST, ask_ai=False)
    sb = d.sb
    start(d)
    play_computer_turn(d)
    removed = [t for t, _o in sb._log_items if "removed: " in t and "removed: none" not in t]
    assert removed, [t for t, _o in sb._log_items][-40:]
    for t in removed:
        parts = t.split("removed: ", 1)[1].split(", ")
        units = [p.split(" of ", 1)[1] for p in parts]
        assert len(units) == len(set(units)), t  # (grouped by unit: "3 of Raider Mob (2)")
        for part in parts:
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


def test_the_status_line_reads_removed_models_grouped_by_unit(make):
    """Engine text on the status line (a replay's last event line) goes through Sandbox.said:
    the removed models of a unit counted, a unit's one model named with its unit."""
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    by_unit: dict[str, list[str]] = {}
    for mid, m in sb.scene.models.items():
        by_unit.setdefault(m.unit, []).append(mid)
    many = next(u for u, ms in sorted(by_unit.items()) if len(ms) >= 3)
    one = next(u for u in sorted(by_unit) if u != many)
    line = f"   {one} has resolved its attacks; removed: {', '.join(by_unit[many][:3])}, {by_unit[one][0]}"
    shown = sb.said(line)
    first = sb.scene.names[by_unit[one][0]]
    assert shown == (f"   {sb.scene.unit_names[one]} has resolved its attacks; removed: 3 of "
                     f"{sb.scene.unit_names[many]}, {first} of {sb.scene.unit_names[one]}"), shown
    sb.status = line
    d.pump(1)
    assert "removed: 3 of " in sb.status_label.text

"""The battle report a person reads (``sim run``: report given the battle) lists an attack's
removed models grouped by unit ("removed: 2 of Warden Squad"), one home: sim.names.in_words; the
report of the events alone (the machine's text, pinned by tests/events/test_report_lines.py's
digests) still lists the model ids one by one."""

from __future__ import annotations

from pathlib import Path

from sim.battle import Battle
from sim.players.runner import play
from sim.replay.report import report
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _removed(text: str) -> list[str]:
    return [line.split("removed: ", 1)[1] for line in text.splitlines()
            if "removed: " in line and not line.endswith("removed: none")]


def test_removed_models_are_grouped_by_unit_in_the_persons_report():
    spec = load_scenario(ROOT / "scenarios" / "default.toml")
    with Battle(spec) as b:
        play(b, spec, None)
        named, machine = _removed(report(b.events, b)), _removed(report(b.events))
    assert named and len(named) == len(machine)
    model_ids = {m.id for u in spec.units for m in u.models}
    several = 0
    for said, ids in zip(named, machine):
        parts = said.split(", ")
        units = [p.split(" of ", 1)[1] for p in parts]
        assert all(" of " in p for p in parts) and len(units) == len(set(units)), said  # (each unit once)
        counted = sum(int(p.split(" of ")[0]) if p.split(" of ")[0].isdigit() else 1 for p in parts)
        assert counted == len(ids.split(", ")), (said, ids)
        several += any(p.split(" of ")[0].isdigit() for p in parts)
        assert set(ids.split(", ")) <= model_ids, ids  # (the machine's text: model ids)
    assert several, named  # (the battle removed two models of a unit in one attack)

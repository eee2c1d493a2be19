"""The battle report (sim.replay.report) reads events through their declarations: it has a line (or
says nothing, on purpose) for every declared event type, reads only fields declared for the
type, and its text for every golden replay is the text it was before the report read them so
(sim.replay.report's table replaced the string comparisons: the text is pinned by a digest).

A golden re-recorded, or a report line changed on purpose, changes a digest: read the new
report (``python tests/events/test_report_lines.py NAME`` prints it; the same on the commit
before shows the difference) and refresh the table (``python tests/events/test_report_lines.py
--digests`` prints it)."""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sim import events as ev  # noqa: E402
from sim.replay import report as R  # noqa: E402
from sim.events.declared import DECLARED, fields  # noqa: E402

GOLDENS = sorted((ROOT / "scenarios/replays").glob("*.jsonl"))

# sha256 (first 16 hex digits) of report(golden_events(name)), taken before the report read
# the events through their declarations
DIGESTS = {
    "abilities_defence": "a9aa9e521f30a5a5",
    "abilities_dice": "d82896434ad5d5c8",
    "abilities_hits": "31430b885898b784",
    "abilities_wounds": "c2aa41b30b1e93b5",
    "anti_psyker_attached": "5e7bcbd576dacadc",
    "anti_vehicle": "568f5cfd0ab69cef",
    "battle_default": "3246af603f3c4789",
    "battle_random": "db2e495a727e8ad7",
    "charge_terrain": "822c747ece92ae65",
    "close_quarters_choice": "3943621d608f755d",
    "close_quarters_engaged": "9d56de846856cd6b",
    "default": "421dfcd7d3ee008b",
    "deployment": "2a1144a53fe58682",
    "fall_back": "9d0d662dd06b2c27",
    "hazard_fight": "ebfb090c0463a27b",
    "hazard_shooting": "850267baa44e93d3",
    "hazard_vehicles": "24c06bc4b692dc59",
    "imported_battle": "61074002fb925760",
    "modifiers": "9fdd4e48d38f3d68",
    "multi_profile": "f685d78c90f8df5a",
    "objective_contested": "7ae6332e33fff3f8",
    "precision_leader_hidden": "146200b7a30563f3",
    "precision_leader_visible": "3c8303333c542a43",
    "psychic_cover_heavy": "9813c304a5f9a742",
    "reroll_ones": "04729cfa3971b474",
    "reserves": "ffacf452d004e136",
    "rules_showcase": "007f2904a2d0e56b",
    "shooting_stratagems": "79da8744f3ebb282",
    "stratagems_fight": "b8018e90dcf93392",
    "terrain_heights": "2cdcd4e1d68c92eb",
    "transport": "d3abeff6dc3d7580",
    "turning": "b0b0384062c86fe8",
    "vehicle_engaged": "687e0986551a839f",
    "worked_example_attached": "7bdc1707b12ff2de",
    "worked_example_pools": "ee61f91e21eb1a3e",
}


def golden_events(path: Path) -> list[dict]:
    """The events a golden's battle recorded, in order: its command lines are the command
    events (the log writes them so), the rest as logged."""
    out = []
    for rec in map(json.loads, path.read_text().splitlines()):
        if rec["t"] == "command":
            out.append({"type": ev.COMMAND, "command": rec["command"]})
        elif rec["t"] == "event":
            out.append(rec["event"])
    return out


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_every_golden_has_a_digest():
    assert sorted(p.stem for p in GOLDENS) == sorted(DIGESTS)


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.stem)
def test_the_report_of_a_golden_is_unchanged(path):
    got = digest(R.report(golden_events(path)))
    assert got == DIGESTS.get(path.stem), (
        f"the report of {path.name} changed: read it (python {Path(__file__).relative_to(ROOT)} {path.stem}) "
        f"and, if it should, refresh DIGESTS (--digests)")


def test_the_report_has_a_line_for_every_declared_type():
    assert sorted(R._LINES) == sorted(DECLARED)


def _handler_reads(tree: ast.Module) -> dict[str, list[tuple[str, int]]]:
    """Per event type of the report's table, the fields its line reads of the event (``e["k"]``,
    ``e.get("k")``): in its lambda or function, and in the module's functions it passes the
    event to."""
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    table = next(n.value for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "_LINES" for t in n.targets))

    def reads(fn, seen) -> list[tuple[str, int]]:
        if fn is None or not fn.args.args or fn in seen:
            return []
        seen.add(fn)
        param = fn.args.args[0].arg
        out = []
        for node in ast.walk(fn):
            target = key = None
            if isinstance(node, ast.Subscript):
                target, key = node.value, node.slice
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                  and node.args):
                target, key = node.func.value, node.args[0]
            if (isinstance(target, ast.Name) and target.id == param and isinstance(key, ast.Constant)
                    and isinstance(key.value, str)):
                out.append((key.value, node.lineno))
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id == param):
                out += reads(funcs.get(node.func.id), seen)
        return out

    found = {}
    for k, v in zip(table.keys, table.values):
        assert isinstance(k, ast.Attribute), ast.unparse(k)
        fn = v if isinstance(v, ast.Lambda) else funcs[v.id]
        found[getattr(ev, k.attr)] = sorted(reads(fn, set()))
    return found


def test_the_report_reads_only_declared_fields():
    tree = ast.parse(Path(R.__file__).read_text(encoding="utf-8"))
    reads = _handler_reads(tree)
    assert {"rolls", "command_reroll"} <= {k for k, _line in reads[ev.HITS]}  # (read: helpers' reads too)
    stray = [f"report.py:{line}: {t!r} has no field {k!r}" for t, ks in reads.items() for k, line in ks
             if k not in fields(t)]
    assert stray == []


def test_the_field_check_would_see_an_undeclared_read():
    tree = ast.parse("def _cr(e):\n    return e.get('command_reroll')\n"
                     "def _hits(e):\n    return e['hits'] + e.get('misses') + _cr(e)\n"
                     "_LINES = {ev.HITS: _hits, ev.TURN: lambda e: e['turns']}\n")
    reads = _handler_reads(tree)
    assert {t: sorted(ks) for t, ks in reads.items()} == {
        ev.HITS: [("command_reroll", 2), ("hits", 4), ("misses", 4)], ev.TURN: [("turns", 5)]}
    assert [k for t, ks in reads.items() for k, _line in ks if k not in fields(t)] == ["misses", "turns"]


if __name__ == "__main__":
    if sys.argv[1:] == ["--digests"]:
        for p in GOLDENS:
            print(f'    "{p.stem}": "{digest(R.report(golden_events(p)))}",')
    else:
        print(R.report(golden_events(ROOT / "scenarios/replays" / f"{sys.argv[1]}.jsonl")))

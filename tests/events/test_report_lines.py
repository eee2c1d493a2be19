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
    "abilities_defence": "eaf065b099b3e760",
    "abilities_dice": "c85edddc4c54b3c3",
    "abilities_hits": "7b07de411a5fe146",
    "abilities_wounds": "2cc2bdf2b11508be",
    "anti_psyker_attached": "da21639261cd6bb2",
    "anti_vehicle": "bdd7bbb589fcb940",
    "battle_default": "3b0a4efacec81cd7",
    "battle_random": "52a6850d779e62e8",
    "charge_terrain": "47bfce44fe9dac91",
    "close_quarters_choice": "059ecde43d43df85",
    "close_quarters_engaged": "14e1bcf7045efc02",
    "deployment": "ea1e9165d035757d",
    "default": "44e89b0fb3b376f2",
    "fall_back": "a4e57607005d7c94",
    "hazard_fight": "e3699d579a4043e5",
    "hazard_shooting": "76bc696dbe712db3",
    "hazard_vehicles": "2f0468c900c51537",
    "imported_battle": "f69ce761672e5b24",
    "modifiers": "8714c0763b0d1742",
    "multi_profile": "145eb910a4d1123b",
    "objective_contested": "25a168bc85fe9ec0",
    "precision_leader_hidden": "f4f24dcd5bb32f02",
    "precision_leader_visible": "24fc61c3bd7558c0",
    "psychic_cover_heavy": "1f7cdefa6f48f697",
    "reroll_ones": "81cb34cdf76d81cc",
    "rules_showcase": "7f40f5ee691fb758",
    "reserves": "c75ce248dba06daa",
    "shooting_stratagems": "4034d6ea447b113e",
    "stratagems_fight": "26fabcd30dccd604",
    "terrain_heights": "c3b53c3b283fb261",
    "transport": "8291d7ee8f05c675",
    "vehicle_engaged": "72bfb2b509d9d0d6",
    "worked_example_attached": "35681e5875024a31",
    "worked_example_pools": "bd05515523e76890",
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

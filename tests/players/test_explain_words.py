"""`sim run --explain` in a person's words: each explanation names its player by the army it
plays and its kind ("Raiders (tactician): shooting: ..."), units by their names, never ids."""

from __future__ import annotations

import re
from pathlib import Path

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_explanations_name_the_armies_and_units(capsys):
    assert main(["run", str(ROOT / "scenarios" / "battle_default.toml"), "--red", "tactician",
                 "--blue", "tactician", "--explain", "--quiet"]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert heads and all(h.startswith(("Wardens (tactician): ", "Raiders (tactician): ")) for h in heads), heads[:5]
    assert any(re.match(r"Raiders \(tactician\): shooting: Raider [\w ]+: .* models, \d+ pts expected", h) for h in heads)
    assert not re.search(r"(?<![\w-])[rw]-[a-z]+\d*(?![\w-])", out), "a unit id in the explanations"
    # (units that share a datasheet's name are told apart as everywhere else: "Raider Mob (2)")
    assert re.search(r"Raider Mob \(\d\)", out) and re.search(r"Warden Squad \(\d\)", out)
    shared = re.findall(r"(?:Raider Mob|Warden Squad)(?! \(\d\))", out)
    assert not shared, f"{len(shared)} unit names of a shared datasheet name without their number"

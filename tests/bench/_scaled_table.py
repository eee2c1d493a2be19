"""The default scenario's armies and terrain copied onto a table ``k`` times as big (for the
growth benchmarks, issue 29 item 1): ``k`` copies of the 60"x44" table side by side along the
long edges (a 60k"x44" table), so every copy keeps its deployment zones (Part A ruling 22: the
12"-deep strips along the long edges) and its distances; unit and model ids get a ``~i`` suffix
in copy ``i`` > 0. Not a shipped scenario: made from scenarios/battle_default.toml at run time."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/battle_default.toml"
WIDTH = 60.0


def scaled_data(k: int, players=("random", "random"), path: Path = SCENARIO) -> dict:
    """The scenario data (as tomllib reads it) of the default table copied ``k`` times."""
    base = tomllib.loads(path.read_text(encoding="utf-8"))
    data = copy.deepcopy(base)
    w, d = base["battle"].get("board", [WIDTH, 44])
    data["battle"]["board"] = [w * k, d]
    data["mission"]["players"] = dict(zip(("red", "blue"), players))
    data["terrain"] = []
    for i in range(k):
        for t in base.get("terrain", []):
            t = copy.deepcopy(t)
            t["at"] = [t["at"][0] + w * i, t["at"][1]]
            data["terrain"].append(t)
    for a, army in enumerate(base["armies"]):
        units = []
        for i in range(k):
            for u in army["units"]:
                u = copy.deepcopy(u)
                if i:
                    u["id"] = f"{u['id']}~{i}"
                for m in u["models"]:
                    if i and "id" in m:
                        m["id"] = f"{m['id']}~{i}"
                    m["at"] = [[x + w * i, y] for x, y in m["at"]]
                units.append(u)
        data["armies"][a]["units"] = units
    return data


def scaled_text(k: int, players=("random", "random")) -> str:
    """``scaled_data`` as TOML text (what a scenario file of that table would hold)."""
    from sim.importers.scenario import dump
    return dump(scaled_data(k, players), f"The default table copied {k} times (tests/bench/_scaled_table.py)")


def scaled_spec(k: int, players=("random", "random")):
    from sim.scenario.load import parse_scenario
    return parse_scenario(scaled_data(k, players), f"<default table x{k}>")

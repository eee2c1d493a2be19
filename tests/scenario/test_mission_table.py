"""The scenario's [mission] table: each wrong value gets the one-line error (file, place,
expected, found); a battle with a mission starts deployed (26 step 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ScenarioError
from sim.scenario.load import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[2]


def _data(**mission):
    import tomllib
    data = tomllib.loads((ROOT / "scenarios/battle_random.toml").read_text())
    data["mission"].update(mission)
    return data


@pytest.mark.parametrize("mission,place,expected", [
    ({"rounds": 6}, "mission.rounds", "from 1 to 5"),
    ({"first": "green"}, "mission.first", "'red' or 'blue' or 'roll-off'"),
    ({"name": "purge the foe"}, "mission.name", "battlefield dominance"),
    ({"players": {"red": "clever"}}, "mission.players.red", "'scripted' or 'random' or 'default'"),
    ({"objectives": [{"name": "a", "at": [30, 22], "kind": "home"}]}, "mission.objectives[0].owner", "this field"),
    ({"objectives": [{"name": "a", "at": [70, 22], "kind": "central"}]}, "mission.objectives[0].at", "on the 60 x 44 board"),
    ({"objectives": [{"name": "a", "at": [30, 22], "kind": "central", "owner": "red"}]},
     "mission.objectives[0].owner", "only a home objective"),
    ({"zones": {"red": [[0, 0], [60, 0]]}}, "mission.zones.red", "a polygon of 3 to 64 points"),
    ({"zones": {"red": [[0, 30], [60, 30], [60, 44], [0, 44]]}}, "mission",
     "wholly within its army's deployment zone"),
    ({"deployed": "yes"}, "mission.deployed", "true or false"),
])
def test_mission_table_errors_name_the_place(mission, place, expected):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(_data(**mission), "x.toml")
    assert e.value.path == place and expected in str(e.value)


def test_26_a_unit_outside_its_zone_is_named():
    with pytest.raises(ScenarioError, match=r"w-captain is not wholly within its deployment zone \(20.21\" outside it\)"):
        parse_scenario(_data(zones={"red": [[0, 30], [60, 30], [60, 44], [0, 44]]}), "x.toml")
    spec = parse_scenario(_data(zones={"red": [[0, 30], [60, 30], [60, 44], [0, 44]]}, deployed=False), "x.toml")
    assert spec.mission.zones[0][0] == (0.0, 30.0)


def test_the_shipped_battles_have_missions():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    assert spec.mission.rounds == 5 and spec.mission.first is None and spec.mission.players == ("default", "default")


def test_03_02_a_unit_set_up_out_of_coherency_is_refused():
    data = _data()
    data["armies"][0]["units"][1]["models"][0]["at"][4] = [40, 8]
    with pytest.raises(ScenarioError, match=r"w-squad1 is not set up in coherency: .*\(03.02\)"):
        parse_scenario(data, "x.toml")

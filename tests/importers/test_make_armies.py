"""Issue 24 item 5: tools/make_armies.py builds, from a catalogue folder, two full-size armies
(about 20 units, at most 2,000 points, CHARACTERs, BATTLELINE and a mix of the rest) as a
scenario deployed by the rules; the armies deploy by the rules and play. The catalogues are the
invented ones of full_size.py, shaped like the community catalogues."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

import full_size
from make_fixtures import MARKER
from scen import of_type
from sim import events as ev
from sim.battle import Battle
from sim.players.runner import play
from sim.scenario.load import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_armies  # noqa: E402


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return full_size.write(tmp_path_factory.mktemp("catalogues"))


@pytest.fixture(scope="module")
def text(folder):
    return make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3)


def kinds(unit: dict) -> set[str]:
    return {k for m in unit["models"] for k in m.get("keywords", [])} | set(unit.get("keywords", []))


def test_each_army_is_about_twenty_units_within_2000_points_with_characters_battleline_and_a_mix(text):
    data = tomllib.loads(text)
    for army in data["armies"]:
        units = army["units"]
        assert 18 <= len(units) <= 20
        assert 1800 <= sum(u["points"] for u in units) <= 2000
        ks = [kinds(u) for u in units]
        assert sum("CHARACTER" in k for k in ks) == make_armies.CHARACTERS
        assert sum("BATTLELINE" in k for k in ks) >= 2
        assert any("VEHICLE" in k for k in ks) and any("MONSTER" in k for k in ks)
        # a CHARACTER datasheet at most once, any other at most three times (BATTLELINE six)
        names = [u["name"] for u in units]
        for u, k in zip(units, ks):
            most = 1 if "CHARACTER" in k else 6 if "BATTLELINE" in k else 3
            assert names.count(u["name"]) <= most, u["name"]
        # what a matched play army leaves out: the AIRCRAFT the importer refuses, a FORTIFICATION,
        # a [Legends] datasheet
        assert not any({"AIRCRAFT", "FORTIFICATION"} & k for k in ks)
        assert not any("Legends" in n for n in names)


def test_the_scenario_deploys_by_the_rules_with_no_positions_and_no_rules_prose(text):
    data = tomllib.loads(text)
    assert data["mission"]["deployment"] == "rules"
    assert "deployed" not in data["mission"]
    assert all("at" not in m for a in data["armies"] for u in a["units"] for m in u["models"])
    assert data["terrain"] == tomllib.loads(make_armies.TABLE.read_text())["terrain"]
    assert MARKER not in text
    spec = parse_scenario(data, "generated.toml")
    assert all(not u.planned for u in spec.units)


def test_the_same_seed_makes_the_same_armies_and_another_seed_others(folder, text):
    assert make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3) == text
    other = make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=4)
    assert other != text


def test_the_size_follows_units_and_points(folder):
    data = tomllib.loads(make_armies.scenario(folder, "Glass Choir", "Ember Pact", seed=1, points=1000, units=10))
    for army in data["armies"]:
        assert len(army["units"]) == 10 and sum(u["points"] for u in army["units"]) <= 1000


def test_a_faction_not_in_the_folder_is_one_line_and_exit_status_2(folder, capsys):
    with pytest.raises(SystemExit) as e:
        make_armies.main([str(folder), "--red", "Ember Pact", "--blue", "Nobody Here"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Nobody Here'" in err and "Glass Choir" in err


def test_the_command_line_writes_a_scenario_file(folder, tmp_path):
    out = tmp_path / "battle.toml"
    assert make_armies.main([str(folder), "--red", "Ember Pact", "--blue", "Glass Choir.json", "--seed", "3",
                             "--out", str(out)]) == 0
    assert out.read_text() == make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3)


def test_full_size_armies_deploy_by_the_rules_and_play_a_battle_round(folder, tmp_path):
    """Every unit of both 20-unit armies is set up by the players (or declared in strategic
    reserves), then the battle plays (one battle round: the mission's ``rounds``, to keep the
    suite fast, ~1.5 s on the reference machine; `sim run` of a generated file plays all five,
    as tests/bench/bench_full_size.py does)."""
    table = tomllib.loads(make_armies.TABLE.read_text())
    table["mission"]["rounds"] = 1
    short = tmp_path / "table.toml"
    from sim.importers.scenario import dump
    short.write_text(dump(table))
    data = tomllib.loads(make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3, table=short))
    spec = parse_scenario(data, "generated.toml")
    with Battle(spec) as b:
        play(b, spec)
        reserves = {u for f in of_type(b, ev.FORMATIONS) for u in f["reserves"]}
        deployed = [e["unit"] for e in of_type(b, ev.DEPLOYED)]
        assert sorted(deployed) == sorted(u.id for u in spec.units if u.id not in reserves)
        assert len(deployed) >= 30
        (result,) = of_type(b, ev.RESULT)
        assert [e["round"] for e in of_type(b, ev.ROUND)] == [1] and result["rounds"] == 1


def test_datasheets_too_dear_for_that_many_units_make_a_smaller_army(folder):
    """At 300 points the 20 units asked for cannot be bought (a knights library's datasheets at
    2,000): the army holds as many as fit, not none."""
    data = tomllib.loads(make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=1, points=300))
    for army in data["armies"]:
        assert 1 <= len(army["units"]) < 20 and sum(u["points"] for u in army["units"]) <= 300


def test_an_army_no_datasheet_fits_is_refused_in_one_line_with_exit_status_2(folder, capsys):
    with pytest.raises(SystemExit) as e:
        make_armies.main([str(folder), "--red", "Ember Pact", "--blue", "Glass Choir", "--points", "5"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "army of at most 5 points, found none (the cheapest is" in err


def test_a_catalogue_linked_but_missing_is_a_warning_on_stderr_and_in_the_scenario(folder, tmp_path, capsys):
    """A faction whose linked catalogue is not in the folder still makes an army from what is
    there, and says what it lost (Catalogue.warnings: the community data without its Space
    Marines catalogue, which the chapters link)."""
    import json
    import shutil
    d = tmp_path / "cats"
    shutil.copytree(folder, d)
    doc = json.loads((d / "Ember Pact.json").read_text())
    doc["catalogue"].setdefault("catalogueLinks", []).append(
        {"id": "cl-gone", "name": "Ember Pact Armoury", "targetId": "cat-gone", "type": "catalogue",
         "importRootEntries": True})
    (d / "Ember Pact.json").write_text(json.dumps(doc))
    out = tmp_path / "s.toml"
    assert make_armies.main([str(d), "--red", "Ember Pact", "--blue", "Glass Choir", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: Ember Pact.json: catalogue 'Ember Pact Armoury'") and err.count("\n") == 1
    assert f"# {err.strip()}" in out.read_text()
    assert "warning" not in make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3)

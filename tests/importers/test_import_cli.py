"""Issue 17 through the command line: `sim import roster` / `sim import datasheet` write a
scenario that `sim check` accepts and `sim run` plays; the shipped scenarios/imported_battle.toml
is what importing the fixtures gives (its golden replay is checked with every other scenario's);
units written to TOML and read back are the same units; no description text ever reaches an
output."""

from __future__ import annotations

import io
import json
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from make_fixtures import MARKER
from sim.cli import main
from sim.importers import into_scenario, load_datasheet, load_roster
from sim.importers.scenario import spec_records, unit_records
from sim.scenario.load import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("data")
ROSTERS = ["ashen.ros", "ashen.rosz", "ashen.json"]
CATALOGUES = ["cat_xml/Ashen Concord.cat", "cat_zip/Ashen Concord.catz", "cat_json/Ashen Concord.json"]


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def test_the_shipped_imported_battle_is_what_the_import_gives(tmp_path, monkeypatch):
    """scenarios/imported_battle.toml: ashen.ros as red (seed 2), then ashen.json as blue into
    the same file (the blue ids get a suffix)."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "battle.toml"
    assert sim("import", "roster", "tests/importers/data/ashen.ros", "--army", "red", "--seed", 2, "--out", out)[0] == 0
    assert sim("import", "roster", "tests/importers/data/ashen.json", "--army", "blue", "--out", out)[0] == 0
    assert out.read_text() == (ROOT / "scenarios/imported_battle.toml").read_text()
    spec = load_scenario(out)
    assert [u.id for u in spec.units] == ["warden-blades", "furnace-strider", "ember-hounds",
                                          "warden-blades-2", "furnace-strider-2", "ember-hounds-2"]


@pytest.mark.parametrize("name", ROSTERS)
def test_import_check_run(tmp_path, name):
    out = tmp_path / "s.toml"
    rc, stdout, err = sim("import", "roster", DATA / name, "--army", "blue", "--out", out)
    assert rc == 0 and err == "" and "blue army: 3 units, 13 models" in stdout
    assert sim("check", out)[0] == 0
    # the other army from a catalogue: a battle both default players play to the end
    rc, stdout, err = sim("import", "datasheet", DATA / CATALOGUES[0], "Ember Hounds", "--out", out)
    assert rc == 0, err
    rc, stdout, err = sim("run", out, "--quiet", "--log", tmp_path / "log.jsonl")
    assert rc == 0, err
    assert sim("replay", tmp_path / "log.jsonl")[0] == 0


def test_without_out_the_scenario_is_printed():
    rc, stdout, err = sim("import", "datasheet", DATA / CATALOGUES[2], "Furnace Strider")
    assert rc == 0 and err == ""
    spec = parse_scenario(tomllib.loads(stdout), "stdout")
    assert [u.id for u in spec.units] == ["furnace-strider"]
    assert stdout.startswith("# Imported by `sim import`")


@pytest.mark.parametrize("name", ROSTERS)
def test_round_trip_units_toml_units(name):
    army, rep = load_roster(DATA / name)
    text = into_scenario(army, "red", None, "x.toml", "x", rep)
    spec = parse_scenario(tomllib.loads(text), "x.toml")
    assert spec_records(spec, 0) == unit_records(list(army.units), army.weapons)
    # and the weapons' inert labels survive
    assert spec.weapons["Arc carbine"].labels == ("Oathbound Volley",)
    assert {u.id: u.points for u in spec.units} == {u.id: u.points for u in army.units}


@pytest.mark.parametrize("path", CATALOGUES)
def test_round_trip_datasheets(path):
    for name in ("Warden Blades", "Cinder Marshal", "Furnace Strider", "Ember Hounds"):
        army, rep = load_datasheet(DATA / path, name, None)
        spec = parse_scenario(tomllib.loads(into_scenario(army, "blue", None, "x", "x", rep)), "x")
        assert spec_records(spec, 1) == unit_records(list(army.units), army.weapons)


def test_importing_into_a_scenario_keeps_the_rest(tmp_path):
    scen = tmp_path / "d.toml"
    scen.write_text((ROOT / "scenarios/battle_default.toml").read_text())
    before = load_scenario(scen)
    rc, _, err = sim("import", "roster", DATA / "ashen.json", "--army", "blue", "--out", scen)
    assert rc == 0, err
    after = load_scenario(scen)
    assert after.terrain == before.terrain and after.mission == before.mission
    assert [u for u in after.units if u.owner == 0] == [u for u in before.units if u.owner == 0]
    assert [u.id for u in after.units if u.owner == 1] == ["warden-blades", "furnace-strider", "ember-hounds"]
    assert sim("run", scen, "--quiet")[0] == 0


def test_nothing_is_written_when_the_import_fails(tmp_path):
    out = tmp_path / "s.toml"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"roster": {"forces": [{"selections": [
        {"name": "X", "type": "model", "number": 1, "profiles": [
            {"name": "X", "typeName": "Unit", "characteristics": [{"name": "M", "$text": "*"}]}]}]}]}}))
    rc, stdout, err = sim("import", "roster", bad, "--out", out)
    assert rc == 2 and stdout == "" and not out.exists()
    assert err.startswith(f"sim: {bad}: unit 'X', forces[0].selections[0].profiles[0].M: expected M in inches")
    out.write_text("keep")
    assert sim("import", "roster", bad, "--out", out)[0] == 2 and out.read_text() == "keep"


def test_no_rules_prose_in_any_output(tmp_path):
    """Every fixture's descriptions hold MARKER: it must appear in no scenario, report, listing
    or message."""
    texts = []
    for name in ROSTERS:
        out = tmp_path / f"{name}.toml"
        texts += list(sim("import", "roster", DATA / name, "--out", out)[1:])
        texts.append(out.read_text())
        army, rep = load_roster(DATA / name)
        texts += [rep.text(), json.dumps(rep.as_dict()), repr(army)]
    for cat in CATALOGUES:
        texts += list(sim("datasheets", DATA / cat)[1:])
        for name in ("Warden Blades", "Cinder Marshal", "Furnace Strider", "Ember Hounds"):
            texts += list(sim("import", "datasheet", DATA / cat, name)[1:])
    assert MARKER in (DATA / "ashen.json").read_text()  # (the fixtures do hold it)
    assert all(MARKER not in t for t in texts)
    assert all("rules text" not in t.lower() or "no rules text" in t.lower() for t in texts)


def test_datasheets_listing(tmp_path):
    rc, out, err = sim("datasheets", DATA / CATALOGUES[1], "--search", "strider")
    assert rc == 0 and err == ""
    assert "Furnace Strider (model, 150 pts)" in out and "Slag cannon" in out and out.endswith("1 datasheet\n")

"""Part A ruling 28 through the importers: an AIRCRAFT unit (the category on the unit or on one of
its models) is refused with one line naming it and its place, exit status 2, nothing written;
a catalogue lists an AIRCRAFT datasheet as refused, with the reason, and imports the others.
The files are the project's fixtures with an "Aircraft" category added."""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ImportFileError
from sim.importers import list_datasheets, load_datasheet, load_roster
from sim.rules.scope import NOT_IN_VERSION

DATA = Path(__file__).with_name("data")
WHY = "expected a unit that is not AIRCRAFT (not in this version: Part A ruling 28)"


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def _roster(tmp_path, unit: str, model: str | None = None) -> Path:
    """ashen.json with the "Aircraft" category on the unit selection ``unit`` (or on its model
    selection ``model``)."""
    doc = json.loads((DATA / "ashen.json").read_text())
    sels = [s for f in doc["roster"]["forces"] for s in f["selections"]]
    sel = next(s for s in sels if s["name"] == unit)
    if model is not None:
        sel = next(s for s in sel["selections"] if s["name"] == model)
    sel.setdefault("categories", []).append({"id": "cat-air", "name": "Aircraft", "entryId": "cat-air"})
    path = tmp_path / "sky.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("unit,model", [("Furnace Strider", None), ("Ember Hounds", "Ember Hound")])
def test_28_an_aircraft_unit_in_a_roster_is_refused(tmp_path, unit, model):
    path = _roster(tmp_path, unit, model)
    with pytest.raises(ImportFileError) as e:
        load_roster(path)
    assert e.value.path.endswith(".categories") and e.value.found == f"AIRCRAFT unit {unit!r}"
    out = tmp_path / "s.toml"
    rc, stdout, err = sim("import", "roster", path, "--army", "red", "--out", out)
    assert rc == 2 and stdout == "" and not out.exists()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"sim: {path}: unit {unit!r}, forces[0].selections[") and WHY in err
    assert err.rstrip().endswith(f"found AIRCRAFT unit {unit!r}")


def test_28_the_same_roster_without_the_category_imports():
    """(The refusal is the category's doing: the fixture itself imports.)"""
    army, _ = load_roster(DATA / "ashen.json")
    assert "Furnace Strider" in [u.name for u in army.units]


@pytest.fixture
def sky_catalogue(tmp_path) -> Path:
    """The JSON catalogue (with the files it links to) where Furnace Strider is AIRCRAFT."""
    folder = tmp_path / "cat"
    shutil.copytree(DATA / "cat_json", folder)
    path = folder / "Ashen Concord.json"
    doc = json.loads(path.read_text())
    entry = next(e for e in doc["catalogue"]["sharedSelectionEntries"] if e["name"] == "Furnace Strider")
    entry["categoryLinks"].append({"id": "cl-air", "name": "Aircraft", "targetId": "cat-air"})
    path.write_text(json.dumps(doc))
    return path


def test_28_a_catalogue_lists_an_aircraft_datasheet_as_refused(sky_catalogue):
    sheets = {s["name"]: s for s in list_datasheets(sky_catalogue)}
    assert sheets["Furnace Strider"]["refused"] == NOT_IN_VERSION
    assert all(s["refused"] is None for n, s in sheets.items() if n != "Furnace Strider")
    rc, out, err = sim("datasheets", sky_catalogue)
    assert rc == 0 and err == ""
    block = out.split("Furnace Strider (model")[1].split("\n\n")[0]
    assert f"  refused: {NOT_IN_VERSION}" in block.splitlines()
    assert out.count("refused:") == 1 and out.endswith(f"{len(sheets)} datasheet{'' if len(sheets) == 1 else 's'}\n")


def test_28_importing_an_aircraft_datasheet_is_refused_and_the_others_import(sky_catalogue, tmp_path):
    out = tmp_path / "s.toml"
    rc, stdout, err = sim("import", "datasheet", sky_catalogue, "Furnace Strider", "--out", out)
    assert rc == 2 and stdout == "" and not out.exists()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"sim: {sky_catalogue}: datasheets['Furnace Strider'].categories: {WHY}")
    assert err.rstrip().endswith("found AIRCRAFT unit 'Furnace Strider'")
    with pytest.raises(ImportFileError):
        load_datasheet(sky_catalogue, "Furnace Strider")
    rc, stdout, err = sim("import", "datasheet", sky_catalogue, "Ember Hounds", "--out", out)
    assert rc == 0 and err == "" and out.exists()

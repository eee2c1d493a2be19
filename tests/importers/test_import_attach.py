"""19.01 `sim import roster --attach`: a leader whose selection is not nested in its unit's is
attached by name (UNIT=BODYGUARD) or by its datasheet's list (auto), judged by the rule
(sim.rules.leaders); the import report says which leader went where, or why one was left alone;
a refused or unknown attachment is one clear error (exit status 2)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ImportFileError
from sim.importers import load_roster
from sim.importers import model as M
from sim.importers.attach import attach_units
from sim.scenario.load import load_scenario

DATA = Path(__file__).resolve().parent / "data"


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def apart(tmp_path: Path) -> Path:
    """ashen.json with the Cinder Marshal's selection moved out of the Warden Blades' (as list
    builders export a leader that is not attached)."""
    doc = json.loads((DATA / "ashen.json").read_text())
    force = doc["roster"]["forces"][0]
    blades = next(s for s in force["selections"] if s.get("name") == "Warden Blades")
    marshal = next(s for s in blades["selections"] if s.get("type") == "unit")
    blades["selections"].remove(marshal)
    force["selections"].append(marshal)
    path = tmp_path / "apart.json"
    path.write_text(json.dumps(doc))
    return path


def test_19_01_a_leader_not_nested_stays_its_own_unit_without_attach(tmp_path):
    army, _ = load_roster(apart(tmp_path))
    assert [u.name for u in army.units] == ["Warden Blades", "Furnace Strider", "Ember Hounds", "Cinder Marshal"]


def test_19_01_attach_by_name_makes_one_unit_and_says_so(tmp_path):
    out = tmp_path / "s.toml"
    rc, stdout, err = sim("import", "roster", apart(tmp_path), "--attach", "Cinder Marshal=Warden Blades", "--out", out)
    assert rc == 0, err
    assert "red army: 3 units, 13 models" in stdout
    assert "note: leader 'Cinder Marshal' attached to 'Warden Blades' (--attach)" in stdout
    assert "cinder-marshal:" not in stdout  # (its report joined the unit's)
    spec = load_scenario(out)
    (blades,) = [u for u in spec.units if u.id == "warden-blades"]
    assert [m.role for m in blades.models][-1] == "leader" and len(blades.models) == 6
    assert blades.models[-1].name == "Cinder Marshal" and "CHARACTER" in blades.models[-1].keywords
    # the same unit as the roster that nests the leader gives (ids, models, roles)
    nested, _ = load_roster(DATA / "ashen.json")
    army, rep = load_roster(apart(tmp_path))
    units = attach_units(army.units, rep.units, ["Cinder Marshal=warden-blades"], "apart.json")
    assert [(m.name, m.count, m.role) for m in units[0].models] == \
        [(m.name, m.count, m.role) for m in nested.units[0].models]
    assert units[0].points == nested.units[0].points == 165


@pytest.mark.parametrize("attach, found", [
    ("Cinder Marshal=Ember Houndz", "'Ember Houndz'"),
    ("Cinder Marshal", "'Cinder Marshal'"),
    ("Ember Hounds=Warden Blades",
     "'Warden Blades': Ember Hounds has neither the LEADER nor the SUPPORT ability (24.22, 24.34)"),
])
def test_19_01_a_bad_or_refused_attach_is_one_error(tmp_path, attach, found):
    rc, stdout, err = sim("import", "roster", apart(tmp_path), "--attach", attach, "--out", tmp_path / "s.toml")
    assert rc == 2 and stdout == "" and "Traceback" not in err
    assert "--attach: expected" in err and err.rstrip().endswith("found " + found)
    assert not (tmp_path / "s.toml").exists()


def test_19_01_attach_is_for_rosters_only(tmp_path):
    rc, _, err = sim("import", "datasheet", DATA / "cat_json" / "Ashen Concord.json", "Ember Hounds", "--attach", "auto")
    assert rc == 2 and "--attach: expected a roster import" in err


@dataclass(frozen=True)
class Listed(M.Unit):
    """A unit with its datasheet's list (the catalogues' Leader lists are read elsewhere)."""

    can_lead: tuple[str, ...] = ()


def _listed(army, name, can_lead):
    return [Listed(**{f: getattr(u, f) for f in ("id", "name", "models", "keywords", "abilities", "labels", "points")},
                   can_lead=can_lead) if u.name == name else u for u in army.units]


def test_19_01_auto_attaches_by_the_datasheets_list_and_reports_who_is_left_alone(tmp_path):
    army, rep = load_roster(apart(tmp_path))
    units = attach_units(_listed(army, "Cinder Marshal", ("Ember Hounds", "Warden Blades")), rep.units, ["auto"], "f")
    assert [u.name for u in units] == ["Warden Blades", "Furnace Strider", "Ember Hounds"]
    assert units[0].models[-1].role == "leader"  # (the roster's first unit its list names)
    assert "leader 'Cinder Marshal' attached to 'Warden Blades' (its datasheet's list)" in \
        notes_of(rep, "warden-blades")
    # no list in the data: left alone, and the report says why
    army, rep = load_roster(apart(tmp_path))
    units = attach_units(army.units, rep.units, ["auto"], "f")
    assert len(units) == 4
    assert notes_of(rep, "cinder-marshal")[-1] == ("leader 'Cinder Marshal' left alone: its datasheet gives no "
                                                   "list of units it can lead")
    # a list naming no unit of the roster
    army, rep = load_roster(apart(tmp_path))
    attach_units(_listed(army, "Cinder Marshal", ("Lychguard",)), rep.units, ["auto"], "f")
    assert notes_of(rep, "cinder-marshal")[-1] == ("leader 'Cinder Marshal' left alone: no unit of the roster is "
                                                   "one it can lead (Lychguard)")


def notes_of(rep, uid):
    return next(r.notes for r in rep.units if r.id == uid)


def test_19_01_an_import_error_names_the_unknown_unit(tmp_path):
    army, rep = load_roster(apart(tmp_path))
    with pytest.raises(ImportFileError) as e:
        attach_units(army.units, rep.units, ["Overlord=Warden Blades"], "f")
    assert e.value.path == "--attach" and "as its leader (Warden Blades, Furnace Strider" in e.value.expected


def test_19_01_a_leader_asked_to_attach_twice_is_named_as_already_attached(tmp_path):
    army, rep = load_roster(apart(tmp_path))
    with pytest.raises(ImportFileError) as e:
        attach_units(army.units, rep.units, ["Cinder Marshal=Warden Blades", "Cinder Marshal=Ember Hounds"], "f")
    assert e.value.path == "--attach" and "already attached to 'Warden Blades'" in e.value.found


def test_skip_bad_is_for_rosters_only(tmp_path):
    rc, _out, err = sim("import", "datasheet", str(DATA / "ashen.json"), "Warden Blades", "--skip-bad")
    assert rc == 2 and "--skip-bad: expected a roster import" in err and "Traceback" not in err

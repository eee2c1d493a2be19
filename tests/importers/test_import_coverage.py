"""Issue 24 item 1: every datasheet of the community catalogues imports or is refused with a
precise reason. Each test changes the project's own catalogue fixture (make_fixtures: invented
names and numbers, the structure BSData 11e uses) to hold one form met in the community data:
links by catalogue id, a missing library, conditional invulnerable saves, shared Unit
profiles, raw values, points conditions, hidden rules, Leader lists, multi-profile weapons
named like a profile; and the coverage tool over such a folder."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

import make_fixtures as F
from sim.cli import main
from sim.errors import ImportFileError
from sim.importers import into_scenario, list_datasheets, load_datasheet, load_roster
from sim.importers.coverage import cover, table
from sim.scenario.load import parse_scenario

import tomllib


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def folder(tmp_path, cat=None, lib=None, lib_file="Ashen Concord Library"):
    """The JSON catalogue folder, with ``cat``/``lib`` in place of the fixture's (None: the
    fixture's; False: no such file)."""
    d = tmp_path / "cat"
    d.mkdir(parents=True, exist_ok=True)
    cat = F.catalogue() if cat is None else cat
    lib = F.library() if lib is None else lib
    (d / "Ashen Concord.json").write_text(json.dumps({"catalogue": cat}))
    if lib is not False:
        (d / f"{lib_file}.json").write_text(json.dumps({"catalogue": lib}))
    (d / "Test system.json").write_text(json.dumps({"gameSystem": F.game_system()}))
    return d / "Ashen Concord.json"


def entry(cat: dict, name: str) -> dict:
    return next(e for e in cat["sharedSelectionEntries"] if e["name"] == name)


def unit_of(path, name):
    army, rep = load_datasheet(path, name)
    return army.units[0], rep.units[0], army


# --- 5. catalogue links by id -------------------------------------------------------------------

def test_a_linked_catalogue_is_found_by_its_id_whatever_its_file_is_named(tmp_path):
    """The link names "Ashen Concord Library"; the file is "Ashen Concord - Armoury Library":
    found by the id (as Chaos Daemons' "Daemons Library" link is), so no weapon is lost."""
    path = folder(tmp_path, lib_file="Ashen Concord - Armoury Library")
    u, rep, _ = unit_of(path, "Warden Blades")
    assert "Arc carbine" in u.models[1].weapons
    assert sim("datasheets", path)[2] == ""


def test_the_name_is_the_fallback_when_no_file_has_the_id(tmp_path):
    lib = F.library()
    lib["id"] = "some-other-id"
    path = folder(tmp_path, lib=lib)
    u, rep, _ = unit_of(path, "Warden Blades")
    assert "Arc carbine" in u.models[1].weapons
    rc, out, err = sim("datasheets", path)
    assert rc == 0 and err == ""


# --- 6. a missing library -------------------------------------------------------------------------

def _importing_catalogue():
    """The catalogue imports its library's root entries; the library offers one datasheet."""
    cat, lib = F.catalogue(), F.library()
    cat["catalogueLinks"][0]["importRootEntries"] = True
    lib["sharedSelectionEntries"].append({
        "id": "u-scout", "name": "Ash Scout", "type": "model", "hidden": False,
        "profiles": [F.stat("Ash Scout", '6"', "3", "5+", "1", "7+", "1")]})
    lib["entryLinks"] = [F.link("u-scout", "Ash Scout")]
    cat["entryLinks"].append(F.link("u-scout", "Ash Scout"))  # (a root link into the library)
    return cat, lib


def test_a_missing_library_is_said_once_at_the_top_with_what_it_takes_and_exit_1(tmp_path):
    cat, lib = _importing_catalogue()
    whole = folder(tmp_path / "a", cat=cat, lib=lib)
    assert "Ash Scout" in [s["name"] for s in list_datasheets(whole)]
    path = folder(tmp_path / "b", cat=cat, lib=False)
    rc, out, err = sim("datasheets", path)
    assert rc == 1
    (line,) = err.splitlines()  # once, not a line per unit
    assert line.startswith(f"sim: warning: {path}: catalogue 'Ashen Concord Library' (id lib-ashen, linked by "
                           "'Ashen Concord') is not in")
    assert "1 datasheet lost, and every datasheet of its own" in line
    assert "not found" not in out
    # a datasheet whose weapons were in it: refused, naming the catalogue and what is lost
    with pytest.raises(ImportFileError) as e:
        load_datasheet(path, "Warden Blades")
    assert "catalogue 'Ashen Concord Library'" in e.value.found and "'Arc carbine'" in e.value.found
    # the lost datasheet itself: its catalogue named
    with pytest.raises(ImportFileError) as e:
        load_datasheet(path, "Ash Scout")
    assert "from catalogue 'Ashen Concord Library'" in e.value.expected


def test_a_missing_library_that_takes_no_datasheet_warns_with_exit_0(tmp_path):
    path = folder(tmp_path, lib=False)
    rc, out, err = sim("datasheets", path)
    assert rc == 0 and len(err.splitlines()) == 1 and "0 datasheets lost" in err
    # a datasheet that lost nothing (its weapon its own, no library rule) imports; the warning
    # is said on stderr too
    cat = F.catalogue()
    hounds = entry(cat, "Ember Hounds")
    hounds["infoLinks"] = []
    hounds["selectionEntries"][0]["entryLinks"] = []
    hounds["selectionEntries"][0]["selectionEntries"] = [F.weapon_entry("w-own-fangs", "Searing fangs", F.FANGS)]
    hounds["selectionEntries"][0]["selectionEntries"][0]["constraints"] = F.per_parent(1, 1, "own")
    path = folder(tmp_path / "b", cat=cat, lib=False)
    rc, out, err = sim("import", "datasheet", path, "Ember Hounds", "--out", tmp_path / "s.toml")
    assert rc == 0 and err.startswith(f"sim: warning: {path}: catalogue 'Ashen Concord Library'")
    assert len(err.splitlines()) == 1


# --- 11. hostile links ------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["itself", "loop", "many"])
def test_hostile_catalogue_links_are_one_clear_error(tmp_path, how):
    cat, lib = F.catalogue(), F.library()
    if how == "itself":
        cat["catalogueLinks"].append({"id": "x", "name": "Ashen Concord", "targetId": "cat-ashen"})
    elif how == "loop":
        lib["catalogueLinks"] = [{"id": "y", "name": "Ashen Concord", "targetId": "cat-ashen"}]
    else:
        cat["catalogueLinks"] += [{"id": f"z{i}", "name": f"Nothing {i}", "targetId": f"n{i}"} for i in range(5000)]
    path = folder(tmp_path, cat=cat, lib=lib)
    rc, out, err = sim("datasheets", path)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    want = {"itself": "linking itself", "loop": "linking a catalogue that links it",
            "many": "expected at most 64 catalogue links"}[how]
    assert want in err


# --- 1. invulnerable saves ----------------------------------------------------------------------

@pytest.mark.parametrize("insv,ability,want", [
    ("5+ (Ranged)", None, (5, "ranged")),
    ("4+*", ("Invulnerable Save (4+*)", "Against melee attacks only."), (4, "melee")),
    ("", ("Invulnerable Save (5+*)", "Against ranged attacks only."), (5, "ranged")),
    ("4+", None, (4, "")),
    ("5+*", ("Invulnerable Save (5+*)", "While this model is in the open."), (None, "")),
])
def test_invulnerable_save_forms(tmp_path, insv, ability, want):
    cat = F.catalogue()
    strider = entry(cat, "Furnace Strider")
    strider["profiles"] = [F.stat("Furnace Strider", '8"', "10", "2+", "10", "7+", "4", InSv=insv, base="100mm")]
    if ability:
        strider["profiles"].append(F.ability(*ability))
    u, rep, army = unit_of(folder(tmp_path, cat=cat), "Furnace Strider")
    (m,) = u.models
    assert (m.InSv, m.InSv_against) == want
    if want[0] is None:  # a condition the data does not state: not applied, said, kept as a label
        assert any("condition the data does not state" in n for n in rep.notes)
        assert "Invulnerable Save (5+*)" in u.labels + m.labels
    text = into_scenario(army, "red", None, "x", "x")
    rec = tomllib.loads(text)["armies"][0]["units"][0]["models"][0]
    assert (rec.get("InSv"), rec.get("InSv_against", "")) == want


# --- 2. a shared Unit profile -------------------------------------------------------------------

def test_models_without_a_profile_take_the_one_the_unit_keeps_on_another_model(tmp_path):
    """Ember Hounds with its statline on the Pack Leader model (as Khorne Berzerkers' is on the
    Champion): the hounds without a profile of their own take it."""
    cat = F.catalogue()
    hounds = entry(cat, "Ember Hounds")
    stat = hounds.pop("profiles")[0]
    lead = {"id": "m-lead", "name": "Pack Leader", "type": "model", "hidden": False,
            "constraints": F.per_parent(1, 1, "lead"), "profiles": [stat],
            "entryLinks": [F.link("w-fangs", "Searing fangs", constraints=F.per_parent(1, 1, "lfangs"))]}
    hounds["selectionEntries"][0]["constraints"] = F.per_parent(5, 11, "hound")
    hounds["selectionEntries"].insert(0, lead)
    u, rep, army = unit_of(folder(tmp_path, cat=cat), "Ember Hounds")
    assert [(m.name, m.count, m.M, m.W) for m in u.models] == [("Pack Leader", 1, 10, 2), ("Ember Hound", 5, 10, 2)]
    assert any("shared one ('Ember Hound', on 'Pack Leader')" in n for n in rep.notes)
    parse_scenario(tomllib.loads(into_scenario(army, "red", None, "x", "x")), "x")


# --- 3. a multi-profile weapon named like one of its profiles ------------------------------------

def test_a_weapon_whose_ranged_profile_has_its_name_and_melee_profiles_too(tmp_path):
    """"Shock lance": a ranged profile "Shock lance" and two melee ones (the Cerastus lance's
    shape): the melee group may not take the ranged profile's name; the scenario checks."""
    cat, lib = F.catalogue(), F.library()
    lib["sharedSelectionEntries"].append(F.weapon_entry(
        "w-lance", "Shock lance", F.gun("Shock lance", '8"', "D6", "3+", "7", "-1", "2"),
        F.gun("Shock lance - strike", "Melee", "4", "3+", "12", "-3", "D6+2", melee=True),
        F.gun("Shock lance - sweep", "Melee", "8", "3+", "8", "-2", "2", melee=True)))
    entry(cat, "Furnace Strider")["entryLinks"].append(
        F.link("w-lance", "Shock lance", constraints=F.per_parent(1, 1, "lance")))
    u, rep, army = unit_of(folder(tmp_path, cat=cat, lib=lib), "Furnace Strider")
    names = u.models[0].weapons
    assert "Shock lance" in names and "Shock lance - strike" in names and "Shock lance - sweep" in names
    assert army.weapons["Shock lance - strike"].weapon == army.weapons["Shock lance - sweep"].weapon != "Shock lance"
    parse_scenario(tomllib.loads(into_scenario(army, "red", None, "x", "x")), "x")


def _claws(tmp_path):
    """The fixture with a two-profile melee weapon "Reaper claw" on the Furnace Strider and a
    different one-profile weapon of that very name on the Ember Hounds (the War Dog Huntsman's
    and Karnivore's Reaper chaintalons)."""
    cat, lib = F.catalogue(), F.library()
    lib["sharedSelectionEntries"] += [
        F.weapon_entry("w-claws", "Reaper claw", F.gun("Reaper claw - strike", "Melee", "4", "3+", "12", "-3", "3",
                                                       melee=True),
                       F.gun("Reaper claw - sweep", "Melee", "8", "3+", "8", "-2", "1", melee=True)),
        F.weapon_entry("w-claw", "Reaper claw", F.gun("Reaper claw", "Melee", "5", "3+", "7", "-2", "2", melee=True))]
    entry(cat, "Furnace Strider")["entryLinks"].append(
        F.link("w-claws", "Reaper claw", constraints=F.per_parent(1, 1, "claws")))
    entry(cat, "Ember Hounds")["selectionEntries"][0]["entryLinks"].append(
        F.link("w-claw", "Reaper claw", constraints=F.per_parent(1, 1, "claw")))
    return folder(tmp_path, cat=cat, lib=lib)


@pytest.mark.parametrize("order", [("Furnace Strider", "Ember Hounds"), ("Ember Hounds", "Furnace Strider")])
def test_a_profile_never_takes_the_name_of_a_multi_profile_weapon_met_in_another_unit(tmp_path, order):
    """One import (a roster, an army: one Assembler) of both units, in either order: the
    one-profile Reaper claw is not named as the other unit's two-profile one (04.01.03: a script
    names either kind of name), and the scenario written loads."""
    from sim.importers.bases import BaseTable
    from sim.importers.catalogue import Catalogue
    from sim.importers import Army
    from sim.importers.roster import Assembler
    cat = Catalogue(_claws(tmp_path))
    asm = Assembler(cat.file, BaseTable(None))
    sheets = {e["name"]: e for e in cat.datasheets()}
    units = [asm.assemble(cat.build(sheets[n])[0], n) for n in order]
    w = asm.weapons
    groups = {x.weapon for x in w.values() if x.weapon}
    assert groups and not groups & set(w)
    hounds = next(u for u in units if u.name == "Ember Hounds")
    lone = [n for n in hounds.models[-1].weapons if n.startswith("Reaper claw")]
    assert len(lone) == 1 and w[lone[0]].A == "5" and w[lone[0]].weapon == ""
    rep = next(r for r in asm.reports if r.name == order[1])
    assert order[0] == "Ember Hounds" or any("differs from a multi-profile weapon of that name" in n
                                             for n in rep.notes)
    parse_scenario(tomllib.loads(into_scenario(Army(tuple(units), w), "red", None, "x", "x")), "x")


@pytest.mark.parametrize("first,second", [("Furnace Strider", "Ember Hounds"), ("Ember Hounds", "Furnace Strider")])
def test_an_army_imported_beside_another_never_gives_a_profile_a_multi_profile_weapons_name(tmp_path, first,
                                                                                          second):
    """The red army imported first, then the blue one into its scenario (two Assemblers, the
    scenario's [weapons] merged, sim.importers.scenario.merge_weapons): the profile or the
    multi-profile weapon met second takes a number, and the scenario loads."""
    path = _claws(tmp_path)
    red, _ = load_datasheet(path, first)
    into = tmp_path / "s.toml"
    into.write_text(into_scenario(red, "red", None, "x", "x"))
    blue, _ = load_datasheet(path, second)
    data = tomllib.loads(into_scenario(blue, "blue", into, "x", "x"))
    parse_scenario(data, "x")
    weapons = data["weapons"]
    groups = {v["weapon"] for v in weapons.values() if "weapon" in v}
    assert groups and not groups & set(weapons)
    assert ("Reaper claw #2" in weapons) == (first == "Furnace Strider")
    assert ({"Reaper claw #2"} == groups) == (first == "Ember Hounds")


# --- 4. raw values ------------------------------------------------------------------------------

def _strider_with(tmp_path, **over):
    cat, lib = F.catalogue(), F.library()
    s = dict(M='8"', T="10", Sv="2+", W="10", Ld="7+", OC="4")
    s.update({k: v for k, v in over.items() if k in s})
    entry(cat, "Furnace Strider")["profiles"][0] = F.stat("Furnace Strider", base="100mm", **s)
    if "S" in over or "AP" in over:
        slag = next(e for e in lib["sharedSelectionEntries"] if e["id"] == "w-slag")
        slag["profiles"] = [F.gun("Slag cannon", '36"', "D6+1", "4+", over.get("S", "8"), over.get("AP", "-2"), "2")]
    return folder(tmp_path, cat=cat, lib=lib)


def test_raw_values_a_minimum_move_and_a_dash_for_no_ap(tmp_path):
    path = _strider_with(tmp_path, M='20"+', AP="-")
    u, _, army = unit_of(path, "Furnace Strider")
    assert u.models[0].M == 20 and army.weapons["Slag cannon"].AP == 0


def test_raw_values_a_random_strength_is_read_as_dice(tmp_path):
    """02.02.03: a random S ("2D6") is imported as dice; the scenario written loads it."""
    path = _strider_with(tmp_path, S="2D6")
    u, _, army = unit_of(path, "Furnace Strider")
    assert army.weapons["Slag cannon"].S == "2D6"


@pytest.mark.parametrize("over,place,found", [
    ({"S": "lots"}, ".S", "found 'lots'"),
    ({"Sv": ""}, ".Sv", "found an empty value (a data error)"),
])
def test_raw_values_the_engine_cannot_take_are_refused_with_the_reason(tmp_path, over, place, found):
    path = _strider_with(tmp_path, **over)
    with pytest.raises(ImportFileError) as e:
        load_datasheet(path, "Furnace Strider")
    msg = str(e.value)
    assert "datasheets['Furnace Strider']" in msg and place + ":" in msg and msg.endswith(found)
    if "S" in over:
        assert "S as a whole number or dice like 2D6" in msg


# --- 7. points --------------------------------------------------------------------------------------

def test_the_from_the_4th_copy_surcharge_does_not_apply_to_a_unit_imported_alone(tmp_path):
    """Ember Hounds: 60 pts, +10 when three copies of the datasheet come before it in the roster
    (a localConditionGroup, as BSData writes the surcharge): alone, 60."""
    cat = F.catalogue()
    entry(cat, "Ember Hounds")["modifiers"] = [{
        "type": "increment", "field": "pts-id", "value": 10,
        "localConditionGroups": [{"type": "atLeast", "value": 3, "scope": "roster", "conditions": [
            {"type": "instanceOf", "value": 1, "field": "selections", "scope": "self", "childId": "u-hounds"},
            {"type": "before", "value": 0, "field": "selections", "scope": "self", "childId": "u-hounds"}]}]}]
    path = folder(tmp_path, cat=cat)
    u, rep, _ = unit_of(path, "Ember Hounds")
    assert u.points == rep.points == 60
    assert [s["points"] for s in list_datasheets(path, "Ember Hounds")] == [60]


def test_a_cost_that_depends_on_the_roster_is_not_taken_by_a_datasheet_alone(tmp_path):
    """+15 pts in a force with the detachment selected: a single datasheet takes its
    unconditional cost; its own model count still decides (the fixture's 10-model price)."""
    cat = F.catalogue()
    blades = entry(cat, "Warden Blades")
    blades["modifiers"].append({"type": "increment", "field": "pts-id", "value": 15, "conditions": [
        {"type": "atLeast", "value": 1, "field": "selections", "scope": "force", "childId": "det-1"}]})
    path = folder(tmp_path, cat=cat)
    assert unit_of(path, "Warden Blades")[0].points == 95
    army, _ = load_datasheet(path, "Warden Blades", models=10)
    assert army.units[0].points == 180


# --- 8. hidden and detachment rules ------------------------------------------------------------

def test_hidden_rules_and_the_rules_of_a_detachment_not_chosen_are_not_imported(tmp_path):
    cat = F.catalogue()
    hounds = entry(cat, "Ember Hounds")
    hidden = F.rule("Stray Rule")
    hidden["hidden"] = True
    detachment = F.rule("Kindling Doctrine")
    detachment["modifiers"] = [{"type": "set", "field": "hidden", "value": True, "conditions": [
        {"type": "lessThan", "value": 1, "field": "selections", "scope": "force", "childId": "det-1"}]}]
    hounds["rules"] += [hidden, detachment]
    u, rep, _ = unit_of(folder(tmp_path, cat=cat), "Ember Hounds")
    shown = set(u.labels) | {a for m in u.models for a in m.labels} | {n for _, n in rep.labels}
    assert 'Scout 6"' in shown and "Stray Rule" not in shown and "Kindling Doctrine" not in shown


def test_a_rosters_chosen_detachment_rules_are_labels_on_its_units():
    army, rep = load_roster(F.DATA / "ashen.json")
    assert all("Host of Embers" in u.labels for u in army.units)
    assert "detachment 'Kindling Host': rule 'Host of Embers' (not modelled: an inert label on every unit)" in rep.army


# --- 9. leader lists ------------------------------------------------------------------------------

def _leading_catalogue(text):
    cat = F.catalogue()
    marshal = entry(cat, "Cinder Marshal")
    marshal["profiles"][1] = F.ability("Leader", text)
    return cat


@pytest.mark.parametrize("text", [
    "This model can be attached to the following units:\n\u25a0 WARDEN BLADES\n\u25a0 EMBER HOUNDS\n"
    "It can be attached even if a FURNACE STRIDER is near.",
    "This model can be attached to the following units: ^^**Warden Blades, Ember Hounds**^^",
])
def test_a_character_can_lead_the_datasheets_its_leader_list_names(tmp_path, text):
    """Only names of known datasheets, from the list's part of the text (never the sentence
    after it, which names a Furnace Strider)."""
    path = folder(tmp_path, cat=_leading_catalogue(text))
    u, rep, army = unit_of(path, "Cinder Marshal")
    assert u.can_lead == ("Warden Blades", "Ember Hounds")
    assert "can lead: Warden Blades, Ember Hounds" in rep.notes
    data = tomllib.loads(into_scenario(army, "red", None, "x", "x"))
    assert data["armies"][0]["units"][0]["can_lead"] == ["Warden Blades", "Ember Hounds"]
    assert parse_scenario(data, "x").units[0].can_lead == ("Warden Blades", "Ember Hounds")
    assert F.MARKER not in json.dumps(data)


def test_the_scenario_loader_checks_can_lead():
    from sim.errors import ScenarioError
    from scen import model, unit
    u = unit("c", model((10, 10), [], W=4), keywords=("CHARACTER",))
    u["can_lead"] = ["Warden Blades", 3]
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": {},
            "armies": [{"name": "A", "units": [u]}, {"name": "B", "units": []}]}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t.toml")
    assert "can_lead" in str(e.value) and "a datasheet name" in str(e.value)


# --- 10. rosters: --skip-bad, nested leaders, New Recruit JSON ---------------------------------

def _bad_roster(tmp_path):
    doc = json.loads((F.DATA / "ashen.json").read_text())
    sels = doc["roster"]["forces"][0]["selections"]
    hounds = next(s for s in sels if s["name"] == "Ember Hounds")
    hounds["profiles"][0]["characteristics"][0]["$text"] = "fast"  # M: a data typo
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_unit_the_importer_cannot_read_refuses_the_roster_naming_it(tmp_path):
    path = _bad_roster(tmp_path)
    rc, out, err = sim("import", "roster", path, "--out", tmp_path / "s.toml")
    assert rc == 2 and out == "" and err.startswith(f"sim: {path}: unit 'Ember Hounds', forces[0].selections[")
    assert len(err.splitlines()) == 1


def test_skip_bad_imports_the_rest_and_names_what_it_skipped(tmp_path):
    path = _bad_roster(tmp_path)
    army, rep = load_roster(path, skip_bad=True)
    assert [u.name for u in army.units] == ["Warden Blades", "Furnace Strider"]
    (skipped,) = rep.skipped
    assert "unit 'Ember Hounds'" in skipped and "found 'fast'" in skipped
    out = tmp_path / "s.toml"
    rc, stdout, err = sim("import", "roster", path, "--skip-bad", "--out", out)
    assert rc == 0 and out.exists() and "skipped (--skip-bad): " in stdout
    (line,) = err.splitlines()
    assert line.startswith("sim: warning: unit skipped (--skip-bad): ") and "Ember Hounds" in line


def test_a_new_recruit_export_imports(tmp_path):
    """New Recruit's JSON: the roster object with generatedBy, costLimits, a customName, and
    per-selection categories and costs (the fixture shaped as it exports)."""
    doc = json.loads((F.DATA / "ashen.json").read_text())
    r = doc["roster"]
    r["generatedBy"] = "https://www.newrecruit.eu"
    r["costLimits"] = [{"name": "pts", "typeId": "points", "value": 2000}]
    r["forces"][0]["selections"][1]["customName"] = "First Blades"
    path = tmp_path / "nr.json"
    path.write_text(json.dumps(doc))
    army, rep = load_roster(path)
    assert [u.name for u in army.units] == ["Warden Blades", "Furnace Strider", "Ember Hounds"]
    assert sim("import", "roster", path, "--out", tmp_path / "s.toml")[0] == 0


# --- 12. the coverage tool --------------------------------------------------------------------------

def test_coverage_counts_listed_imported_refused_and_every_reason(tmp_path):
    cat = F.catalogue()
    entry(cat, "Furnace Strider")["categoryLinks"].append({"id": "cl-air", "name": "Aircraft", "targetId": "cat-air"})
    entry(cat, "Ember Hounds")["profiles"][0] = F.stat("Ember Hound", '10"', "4", "", "2", "7+", "1")
    path = folder(tmp_path, cat=cat)
    (lib, c) = cover(path.parent)
    assert (lib.name, lib.listed) == ("Ashen Concord Library", 0)
    assert (c.name, c.listed, c.imported, len(c.refused)) == ("Ashen Concord", 4, 2, 2)
    reasons = {r.datasheet: r.reason for r in c.refused}
    assert reasons == {"Furnace Strider": "a unit that is not AIRCRAFT (not in this version: Part A ruling 28)",
                       "Ember Hounds": "Sv as a roll like 3+"}
    t = table([lib, c])
    assert "| Ashen Concord | 4 | 2 | 2 |" in t and "- 1 x expected Sv as a roll like 3+: Ember Hounds (Ashen Concord)" in t
    rc, out, err = sim("datasheets", "--coverage", path.parent)
    assert rc == 0 and err == "" and t in out
    assert sim("datasheets", "--coverage", path)[0] == 2  # a file, not a folder


@pytest.mark.parametrize("how", ["huge numbers", "entry links that loop", "deep nesting"])
def test_hostile_catalogue_content_imports_or_is_one_clear_error(tmp_path, how):
    """Huge costs and modifier values (a JSON integer of 4,000 digits, 1e400), entries whose
    links loop, entries nested 300 deep: imported (the bounds ignore the nonsense) or
    refused with the one-line error; never a traceback."""
    cat = F.catalogue()
    hounds = entry(cat, "Ember Hounds")
    if how == "huge numbers":
        text = json.dumps({"catalogue": cat})
        hounds_mod = {"type": "increment", "field": "pts-id", "value": "1e400",
                      "repeats": [{"field": "selections", "scope": "self", "childId": "model", "value": 1,
                                   "repeats": 10 ** 4000 // 10 ** 3990}]}
        hounds["modifiers"] = [hounds_mod, {"type": "increment", "field": "c-M", "value": "1e300"}]
        hounds["costs"] = [{"name": "pts", "typeId": "pts-id", "value": 0}]
        text = json.dumps({"catalogue": cat}).replace('"value": 0}]', '"value": 1' + "0" * 4000 + "}]", 1)
    elif how == "entry links that loop":
        hounds["entryLinks"] = [F.link("u-hounds", "Ember Hounds", constraints=F.per_parent(1, 1, "loop"))]
        text = json.dumps({"catalogue": cat})
    else:
        inner: dict = {"id": "deep-0", "name": "Deep", "type": "upgrade", "constraints": F.per_parent(1, 1, "d0")}
        for k in range(1, 300):
            inner = {"id": f"deep-{k}", "name": "Deep", "type": "upgrade", "selectionEntries": [inner],
                     "constraints": F.per_parent(1, 1, f"d{k}")}
        hounds["selectionEntries"].append(inner)
        text = json.dumps({"catalogue": cat})
    path = folder(tmp_path)
    path.write_text(text)
    rc, out, err = sim("import", "datasheet", path, "Ember Hounds", "--out", tmp_path / "s.toml")
    assert "Traceback" not in err and rc in (0, 2)
    if rc == 2:
        assert len(err.splitlines()) == 1 and err.startswith(f"sim: {path}")
    assert sim("datasheets", path)[0] in (0, 2)


def test_a_character_typed_model_nested_in_a_unit_is_its_leader_and_the_report_says_so(tmp_path):
    """The Cinder Marshal's selection typed "model" (not "unit") inside the Warden Blades'
    selection, as some list builders write it: its model leads the unit (role "leader")."""
    doc = json.loads((F.DATA / "ashen.json").read_text())
    blades = next(s for s in doc["roster"]["forces"][0]["selections"] if s["name"] == "Warden Blades")
    marshal = next(s for s in blades["selections"] if s["name"] == "Cinder Marshal")
    marshal["type"] = "model"
    path = tmp_path / "nested.json"
    path.write_text(json.dumps(doc))
    army, rep = load_roster(path)
    unit = next(u for u in army.units if u.name == "Warden Blades")
    assert [(m.name, m.role) for m in unit.models][-1] == ("Cinder Marshal", "leader")
    notes = next(r for r in rep.units if r.name == "Warden Blades").notes
    assert "leader 'Cinder Marshal' attached (a CHARACTER model nested in this unit's selection)" in notes

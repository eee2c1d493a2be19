"""Issue 26 items 2 and 4: datasheet abilities, army rules and detachment rules that have a rule
record (sim.rules.effects) are imported as ``rules`` (army, unit or model level), found by the
community data's ids, else by name; the report separates modelled / modelled when the data's
condition holds / not modelled; the writer writes ``rules`` and the loader reads them back; the
coverage tool counts rule instances (`sim rules`: tests/test_cli_rules.py).

Built on the three seed records (Oath of Moment, Waaagh!, Reanimation Protocols: their ids and
names) and on the project's invented fixture (make_fixtures): no record is added here."""

from __future__ import annotations

import io
import json
import tomllib
from contextlib import redirect_stderr, redirect_stdout

import make_fixtures as F
from sim.cli import main
from sim.importers import into_scenario, load_datasheet, load_roster
from sim.importers.coverage import as_dict, cover, rules_table
from sim.importers.report import CORE
from sim.importers.scenario import spec_records, unit_records
from sim.scenario.load import parse_scenario
from sim.world.build import unit_rules

OATH_ID = "3b76-4053-ece9-6e7d"  # the community id of Oath of Moment (its seed record's)
WAAAGH_ID = "37c-6ef9-277-9091"  # of Waaagh!


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def shared_rule(ident, name):
    return {"id": ident, "name": name, "description": f"Rules text of {name}. {F.MARKER}"}


def entry(cat: dict, name: str) -> dict:
    return next(e for e in cat["sharedSelectionEntries"] if e["name"] == name)


def write(tmp_path, cat, lib=None):
    d = tmp_path / "cat"
    d.mkdir(parents=True, exist_ok=True)
    (d / "Ashen Concord.json").write_text(json.dumps({"catalogue": cat}))
    (d / "Ashen Concord Library.json").write_text(json.dumps({"catalogue": lib or F.library()}))
    (d / "Test system.json").write_text(json.dumps({"gameSystem": F.game_system()}))
    return d / "Ashen Concord.json"


def hidden_unless_detachment(det_id):
    """A modifier as the data writes a detachment's rule on a datasheet: hidden while the force
    holds no selection of the detachment (a condition the unit alone cannot decide)."""
    return [{"type": "set", "field": "hidden", "value": True, "conditions": [
        {"type": "lessThan", "value": 1, "field": "selections", "scope": "force", "childId": det_id,
         "includeChildSelections": True}]}]


def ruled_catalogue():
    """The fixture with rules the seed records model: Oath of Moment linked (by its id) on the
    Warden Blades; Waaagh! on the Blade Warden model only; Waaagh! linked again on the Blades
    but hidden unless a detachment is chosen; a Lethal Hits rule on the Arc carbine, whose
    Keywords do not print it; and the catalogue's detachments."""
    lib = F.library()
    lib["sharedRules"] += [shared_rule(OATH_ID, "Oath of Moment"), shared_rule(WAAAGH_ID, "Waaagh!"),
                           shared_rule("r-lethal", "Lethal Hits"), shared_rule("r-sus", "Sustained Hits")]
    arc = next(e for e in lib["sharedSelectionEntries"] if e["name"] == "Arc carbine")
    arc["infoLinks"] = [F.link("r-lethal", "Lethal Hits", "rule")]
    cat = F.catalogue()
    blades = entry(cat, "Warden Blades")
    blades["infoLinks"] += [F.link(OATH_ID, "Oath of Moment", "rule"),
                            F.link(WAAAGH_ID, "Waaagh!", "rule", id="l-waaagh-det",
                                   modifiers=hidden_unless_detachment("det-ash"))]
    warden = next(e for e in blades["selectionEntries"] if e["name"] == "Blade Warden")
    warden["rules"] = [shared_rule(WAAAGH_ID, "Waaagh!")]
    detachments = {
        "id": "e-det", "name": "Detachment", "type": "upgrade", "hidden": False,
        "selectionEntryGroups": [{"id": "g-det", "name": "Detachment", "selectionEntries": [
            {"id": "det-kindling", "name": "Kindling Host", "type": "upgrade", "rules": [F.rule("Host of Embers")],
             "infoLinks": [F.link("r-sus", "Sustained Hits", "rule")]},
            {"id": "det-ash", "name": "Ash Vigil", "type": "upgrade",
             "infoLinks": [F.link(WAAAGH_ID, "Waaagh!", "rule")]}]}]}
    cat["sharedSelectionEntries"].append(detachments)
    cat["entryLinks"].append(F.link("e-det", "Detachment"))
    return cat, lib


# --- a catalogue's datasheet --------------------------------------------------------------------

def test_a_datasheet_rule_with_a_record_is_a_rule_found_by_its_community_id(tmp_path):
    cat, lib = ruled_catalogue()
    army, rep = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    unit, ur = army.units[0], rep.units[0]
    # by id, though the unit's faction is not the record's
    assert unit.rules == ("oath-of-moment",) and "Oath of Moment" not in unit.labels
    assert ("unit", "Oath of Moment", "oath-of-moment") in ur.modelled
    assert ("unit", "Stealth", CORE) in ur.modelled
    assert ("unit", "Oath of Cinders") in ur.labels  # not modelled
    text = rep.text()
    assert "modelled: unit: 'Oath of Moment' (rule 'oath-of-moment')" in text
    assert "not modelled, imported as inert text label: unit: 'Oath of Cinders'" in text


def test_a_rule_only_some_models_carry_is_theirs(tmp_path):
    cat, lib = ruled_catalogue()
    army, rep = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    unit = army.units[0]
    assert "waaagh" not in unit.rules
    assert {m.name: m.rules for m in unit.models} == {"Blade Warden": ("waaagh",), "Blade": ()}
    assert ("model 'Blade Warden'", "Waaagh!", "waaagh") in rep.units[0].modelled


def test_a_rule_every_model_carries_is_the_units(tmp_path):
    cat, lib = ruled_catalogue()
    blades = entry(cat, "Warden Blades")
    for m in blades["selectionEntries"]:
        m["rules"] = [shared_rule(WAAAGH_ID, "Waaagh!")]
    army, _ = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    assert army.units[0].rules == ("oath-of-moment", "waaagh")
    assert all(m.rules == () for m in army.units[0].models)


def test_rules_the_data_attaches_under_a_condition_are_reported_as_such_not_as_unimplemented(tmp_path):
    cat, lib = ruled_catalogue()
    army, rep = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    ur = rep.units[0]
    held = {(w, n, h): why for w, n, h, why in ur.held}
    # the detachment's copy of Waaagh! on the datasheet: modelled, but not while no detachment is chosen
    assert "hidden when lessThan 1 selections of 'Ash Vigil' in force" in held[("unit", "Waaagh!", "waaagh")]
    # a core weapon ability the data attaches without printing it in the weapon's Keywords
    assert ("weapon 'Arc carbine'", "Lethal Hits", CORE) in held
    assert all(n != "Lethal Hits" for _, n in ur.labels)
    assert "LETHAL HITS" not in army.weapons["Arc carbine"].abilities.upper()  # (not applied)
    assert ("modelled when the condition in the data holds (not applied here): weapon 'Arc carbine': "
            "'Lethal Hits' (core ability;") in rep.text()


def test_a_datasheet_alone_names_the_detachment_rules_it_leaves_out(tmp_path):
    cat, lib = ruled_catalogue()
    _, rep = load_datasheet(write(tmp_path, cat, lib), "Ember Hounds")
    # (the core Sustained Hits the Kindling Host links is a glossary link, not its rule)
    assert rep.left_out == ["Kindling Host: Host of Embers", "Ash Vigil: Waaagh! (modelled: rule 'waaagh')"]
    assert ("detachment rules left out (no detachment is chosen for a datasheet alone): Kindling Host: Host of "
            "Embers; Ash Vigil: Waaagh! (modelled: rule 'waaagh')") in rep.text()


def test_a_record_is_not_taken_by_name_for_a_unit_of_another_faction(tmp_path):
    cat, lib = ruled_catalogue()
    blades = entry(cat, "Warden Blades")
    blades["rules"] = [F.rule("Reanimation Protocols")]  # (an id no record has: by name only)
    path = write(tmp_path, cat, lib)
    army, _ = load_datasheet(path, "Warden Blades")
    assert "Reanimation Protocols" in army.units[0].labels and "reanimation-protocols" not in army.units[0].rules
    blades["categoryLinks"].append({"id": "cl-nec", "name": "Faction: Necrons", "targetId": "cat-nec"})
    army, _ = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    assert "reanimation-protocols" in army.units[0].rules


# --- a roster -------------------------------------------------------------------------------------

def roster_with(tmp_path, doc):
    p = tmp_path / "list.json"
    p.write_text(json.dumps({"roster": doc}))
    return p


def test_a_rosters_detachment_rule_with_a_record_is_the_armys(tmp_path):
    doc = F.roster()
    det = doc["forces"][0]["selections"][0]
    det["selections"][0]["rules"].append(shared_rule(WAAAGH_ID, "Waaagh!"))
    hounds = doc["forces"][0]["selections"][3]
    hounds["selections"][0]["rules"] = [shared_rule(WAAAGH_ID, "Waaagh!")]  # (copied onto a datasheet too)
    doc["forces"][0]["rules"] = [shared_rule(OATH_ID, "Oath of Moment"), F.rule("Cinder Pact")]  # (force level)
    army, rep = load_roster(roster_with(tmp_path, doc))
    assert army.rules == ("waaagh", "oath-of-moment")
    assert ("detachment 'Kindling Host'", "Waaagh!", "waaagh") in rep.rules
    assert ("force 'Army Roster'", "Oath of Moment", "oath-of-moment") in rep.rules
    assert "force 'Army Roster': rule 'Cinder Pact' (not modelled)" in rep.army
    doc["forces"][0].pop("rules")
    army, rep = load_roster(roster_with(tmp_path, doc))
    assert army.rules == ("waaagh",)
    assert all("Waaagh!" not in u.labels and "waaagh" not in u.rules for u in army.units)
    assert all(m.rules == () for u in army.units for m in u.models)
    assert all(m[2] != "waaagh" for r in rep.units for m in r.modelled)
    assert all("Host of Embers" in u.labels for u in army.units)  # (not modelled: a label, as before)
    text = into_scenario(army, "red", None, "list.json", "t", rep)
    data = tomllib.loads(text)
    assert data["armies"][0]["rules"] == ["waaagh"] and "rules" not in data["armies"][1]
    spec = parse_scenario(data, "t.toml")
    assert spec.armies[0].rules == ("waaagh",) and spec.armies[1].rules == ()
    # applied: every unit of the army holds it (sim.world.build)
    for u in spec.units:
        held = unit_rules(spec.armies[u.owner].rules, u.models)
        assert [h.record.key for h in held] == (["waaagh"] if u.owner == 0 else [])
    assert "army rule, modelled: detachment 'Kindling Host': 'Waaagh!' (rule 'waaagh', every unit of the army)" \
        in rep.text()


def test_an_army_rule_every_unit_holds_is_the_armys_and_one_some_hold_stays_theirs(tmp_path):
    doc = F.roster()
    units = [s for s in doc["forces"][0]["selections"] if s["type"] in ("unit", "model")]
    marshal = next(s for s in units[0]["selections"] if s["name"] == "Cinder Marshal")  # (its leader, 19.01)
    for u in units + [marshal]:
        u.setdefault("rules", []).append(shared_rule(OATH_ID, "Oath of Moment"))
    army, rep = load_roster(roster_with(tmp_path, doc))
    assert army.rules == ("oath-of-moment",) and all("oath-of-moment" not in u.rules for u in army.units)
    assert ("every unit's datasheet", "Oath of Moment", "oath-of-moment") in rep.rules
    assert all(m[2] != "oath-of-moment" for r in rep.units for m in r.modelled)
    units[-1]["rules"].pop()  # (the hounds: an ally without it)
    army, rep = load_roster(roster_with(tmp_path, doc))
    assert army.rules == ()
    assert [("oath-of-moment" in u.rules) for u in army.units] == [True, True, False]


def test_rules_round_trip_through_the_writer_and_the_loader(tmp_path):
    cat, lib = ruled_catalogue()
    army, rep = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")
    from dataclasses import replace
    army = replace(army, rules=("reanimation-protocols",))
    text = into_scenario(army, "blue", None, "c.json", "t", rep)
    data = tomllib.loads(text)
    blue = data["armies"][1]
    assert blue["rules"] == ["reanimation-protocols"] and blue["units"][0]["rules"] == ["oath-of-moment"]
    assert [m.get("rules") for m in blue["units"][0]["models"]] == [["waaagh"], None]
    spec = parse_scenario(data, "t.toml")
    assert spec.armies[1].rules == ("reanimation-protocols",)
    assert spec_records(spec, 1) == unit_records(list(army.units), army.weapons)
    # written into that scenario again (--out), adding: the army's rules kept, the new ones after
    path = tmp_path / "s.toml"
    path.write_text(text)
    again = into_scenario(replace(army, rules=("waaagh",)), "blue", path, str(path), "t", add=True)
    assert tomllib.loads(again)["armies"][1]["rules"] == ["reanimation-protocols", "waaagh"]
    replaced = into_scenario(replace(army, rules=()), "blue", path, str(path), "t")
    assert "rules" not in tomllib.loads(replaced)["armies"][1]


# --- coverage ----------------------------------------------------------------------------------------

def test_coverage_counts_rule_instances_modelled_inert_and_unknown(tmp_path):
    cat = F.catalogue()
    entry(cat, "Ember Hounds")["rules"].append(F.rule("Assigned Agents"))  # (inert: army building)
    path = write(tmp_path, cat)
    lib, c = cover(path.parent)
    # Warden Blades: Stealth / Oath of Cinders; Cinder Marshal: Leader, Invulnerable Save (4+),
    # Feel No Pain 5+ / Kindled Command; Furnace Strider: Invulnerable Save (5+*), Deadly Demise D3,
    # Damaged; Ember Hounds: Feel No Pain 6+, Fights First / Scout 6" / Assigned Agents (inert)
    assert c.rules.counts == {"modelled": 9, "inert": 1, "unknown": 3} and lib.rules.total == 0
    assert c.rules.top() == [("Kindled Command", 1, 1), ("Oath of Cinders", 1, 1), ('Scout 6"', 1, 1)]
    t = rules_table([lib, c])
    assert "| Ashen Concord | 4 | 13 | 9 | 1 | 3 | 69.2 |" in t
    assert "| **all 2 catalogues** | **4** | **13** | **9** | **1** | **3** | **69.2** |" in t
    d = as_dict([lib, c])
    assert d["total"]["rules"] == {"instances": 13, "modelled": 9, "inert": 1, "unknown": 3, "percent_modelled": 69.2}
    rc, out, err = sim("datasheets", "--coverage", path.parent, "--json")
    assert rc == 0 and json.loads(out)["total"] == d["total"]
    rc, out, _ = sim("datasheets", "--coverage", path.parent)
    assert rc == 0 and t in out
    assert sim("datasheets", path, "--json")[0] == 2  # (--json goes with --coverage)


def test_coverage_counts_a_rule_with_a_record_as_modelled(tmp_path):
    cat, lib = ruled_catalogue()
    path = write(tmp_path, cat, lib)
    c = cover(path.parent)[1]
    # the fixture's 12 instances, plus Oath of Moment and the Warden's Waaagh! on the Warden Blades
    # (the detachment's hidden copy of Waaagh! is not shown: not counted)
    assert c.rules.counts == {"modelled": 11, "inert": 0, "unknown": 3}


def test_replacing_an_army_drops_its_choices_and_refuses_a_choice_that_picked_one_of_its_units(tmp_path):
    from dataclasses import replace

    from sim.errors import ImportFileError
    from sim.importers.scenario import dump
    cat, lib = ruled_catalogue()
    army, _ = load_datasheet(write(tmp_path, cat, lib), "Warden Blades")  # (holds Oath of Moment)
    path = tmp_path / "s.toml"
    path.write_text(into_scenario(replace(army, rules=("waaagh",)), "red", None, "c.json", "t"))
    data = tomllib.loads(into_scenario(army, "blue", path, str(path), "t"))  # (its unit: warden-blades-2)
    data["armies"][0]["chosen"] = {"waaagh": True}
    data["armies"][1]["chosen"] = {"oath-of-moment": "warden-blades"}
    path.write_text(dump(data))
    assert parse_scenario(tomllib.loads(path.read_text()), "s").armies[0].chosen == (("waaagh", True),)
    try:
        into_scenario(army, "red", path, str(path), "t")
    except ImportFileError as e:
        assert e.path == "armies[1].chosen" and "'oath-of-moment' naming 'warden-blades'" in e.found
    else:
        raise AssertionError("a choice picking a replaced unit was kept")
    del data["armies"][1]["chosen"]
    path.write_text(dump(data))
    red = tomllib.loads(into_scenario(army, "red", path, str(path), "t"))["armies"][0]
    assert "chosen" not in red and "rules" not in red
    kept = tomllib.loads(into_scenario(army, "red", path, str(path), "t", add=True))["armies"][0]
    assert kept["chosen"] == {"waaagh": True} and kept["rules"] == ["waaagh"]


def test_a_detachment_the_data_gets_wrong_does_not_refuse_a_datasheet_alone_nor_raise(tmp_path):
    cat, lib = ruled_catalogue()
    det = entry(cat, "Detachment")["selectionEntryGroups"][0]["selectionEntries"]
    det[1]["costs"] = [{"name": "pts", "typeId": "pts-id", "value": "1e400"}]  # (no finite number)
    army, rep = load_datasheet(write(tmp_path, cat, lib), "Ember Hounds")
    assert army.units[0].name == "Ember Hounds"
    # (the group's entries are checked as it is opened: nothing of it is listed)
    assert rep.left_out == ["(the rest): not read: costs[0].value of 'Ash Vigil' as a finite number from "
                            "-1,000,000,000 to 1,000,000,000, found '1e400'"]

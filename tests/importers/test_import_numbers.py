"""Issue 25 (importers): every number of a catalogue or roster the import reaches is checked
(sim.importers.bsdata.check_numbers) whether or not the import ends up using it (a modifier whose
condition does not hold, a repeat, an option not taken, a roster's total, a selection that is
no unit), and refused with the file and the place; a text value of a modifier of a text field
(a name) is not. Keywords and ability names are checked as names at import (no control
character, at most 100 characters: what the scenario loader would refuse later, naming
out.toml instead of the data file). Before, each of these imported with exit 0 or was refused
naming the scenario written."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from sim.errors import ImportFileError

sys.path.insert(0, str(Path(__file__).parent))
import hostile25 as H  # noqa: E402

BAD = [float("inf"), float("-inf"), float("nan"), 10 ** 30, -(10 ** 4000 - 1), "1e400", "9" * 4000]


def _dump(value) -> str:
    """JSON with NaN/Infinity and big whole numbers written as the hostile files write them."""
    return json.dumps(value)


def _catalogue(tmp_path, doc) -> Path:
    p = tmp_path / "Ember Pact.json"
    p.write_text(_dump(doc))
    (tmp_path / "Ember system.json").write_text(json.dumps(H.SYSTEM))
    return p


def _never(value) -> dict:
    """A modifier of the unit's points whose condition never holds (a force condition: never
    decided for a datasheet alone)."""
    return {"type": "increment", "field": "points", "value": value,
            "conditions": [{"type": "atLeast", "value": 1, "field": "selections", "scope": "force", "childId": "x"}]}


def _repeat(key, value) -> dict:
    rep = {"field": "selections", "scope": "parent", "value": 1, "repeats": 1, "childId": "any", "roundUp": False}
    rep[key] = value
    return {"type": "increment", "field": "points", "value": 5, "repeats": [rep]}


# (what, the datasheet's extra fields, the field named in the message)
PLACES = [
    ("a modifier that never applies", lambda v: {"modifiers": [_never(v)]}, "modifiers[0].value"),
    ("a repeat's value", lambda v: {"modifiers": [_repeat("value", v)]}, "modifiers[0].repeats[0].value"),
    ("a repeat's repeats", lambda v: {"modifiers": [_repeat("repeats", v)]}, "modifiers[0].repeats[0].repeats"),
    ("a modifier in a modifier group", lambda v: {"modifierGroups": [{"modifiers": [_never(v)]}]},
     "modifierGroups[0].modifiers[0].value"),
    ("a condition group's value", lambda v: {"modifiers": [{"type": "set", "field": "hidden", "value": True,
                                                              "conditionGroups": [{"type": "and", "conditions": [
                                                                  {"type": "atLeast", "value": v, "field": "selections",
                                                                   "scope": "force", "childId": "x"}]}]}]},
     "modifiers[0].conditionGroups[0].conditions[0].value"),
    ("a cost of no points type", lambda v: {"costs": [{"name": "pts", "typeId": "points", "value": 90},
                                                      {"name": "Crusade", "typeId": "cr", "value": v}]},
     "costs[1].value"),
    ("an option's defaultAmount", lambda v: {"selectionEntries": H.sheet()["selectionEntries"] + [
        {"id": "opt", "name": "Banner", "type": "upgrade", "defaultAmount": v,
         "constraints": [{"id": "omax", "type": "max", "value": 1, "field": "selections", "scope": "parent"}]}]},
     "the defaultAmount of 'Banner'"),
    ("an info link's condition", lambda v: {"infoLinks": [{"id": "il", "name": "Oath", "targetId": "r-oath",
                                                          "type": "rule", "modifiers": [{
                                                              "type": "set", "field": "hidden", "value": True,
                                                              "conditions": [{"type": "atLeast", "value": v,
                                                                              "field": "selections", "scope": "force",
                                                                              "childId": "x"}]}]}]},
     "modifiers[0].conditions[0].value"),
]


@pytest.mark.parametrize("value", BAD, ids=["inf", "-inf", "nan", "1e30", "-4000digits", "1e400", "4000digits"])
@pytest.mark.parametrize("what,extra,field", PLACES, ids=[p[0] for p in PLACES])
def test_a_catalogue_number_the_import_reaches_is_refused_whether_or_not_it_is_used(tmp_path, what, extra, field,
                                                                                      value):
    from sim.importers import list_datasheets, load_datasheet
    doc = H.catalogue([H.sheet(**extra(value))], sharedRules=[{"id": "r-oath", "name": "Oath"}])
    path = _catalogue(tmp_path, doc)
    for read in (lambda: load_datasheet(path, "Ember Wardens"), lambda: list_datasheets(path)):
        with pytest.raises(ImportFileError) as e:
            read()
        assert e.value.file == str(path)
        assert e.value.path == "datasheets['Ember Wardens']"
        assert field in e.value.expected and "finite number" in e.value.expected, e.value.expected
        assert str(e.value).startswith(f"{path}: datasheets['Ember Wardens']: expected ")


def test_the_same_catalogue_with_finite_numbers_imports(tmp_path):
    """The cases above with a good number import: the refusal is the number's alone."""
    from sim.importers import list_datasheets, load_datasheet
    for _, extra, _ in PLACES:
        doc = H.catalogue([H.sheet(**extra(3))], sharedRules=[{"id": "r-oath", "name": "Oath"}])
        path = _catalogue(tmp_path, doc)
        army, _ = load_datasheet(path, "Ember Wardens")
        assert army.units[0].points == 90
        assert [s["name"] for s in list_datasheets(path)] == ["Ember Wardens"]


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-1e400", "9" * 40])
def test_a_text_value_of_a_name_modifier_is_not_a_number(tmp_path, value):
    """A name set or appended to ("Infinity", a name of digits) is text: not refused as a number."""
    from sim.importers import bsdata as B
    from sim.importers import load_datasheet
    for t in ("set", "append"):
        B.check_numbers({"modifiers": [{"type": t, "field": "name", "value": value}]}, "x")
    doc = H.catalogue([H.sheet(modifiers=[{"type": "append", "field": "name", "value": value}])])
    army, _ = load_datasheet(_catalogue(tmp_path, doc), "Ember Wardens")
    assert army.units[0].name == f"Ember Wardens {value}"


# --- rosters ---------------------------------------------------------------------------------------

def _roster(tmp_path, doc) -> Path:
    p = tmp_path / "list.json"
    p.write_text(_dump(doc))
    return p


def _detachment(number) -> dict:
    return {"name": "Detachment", "type": "upgrade", "number": number, "selections": [{"name": "Ember Host",
                                                                                          "type": "upgrade"}]}


@pytest.mark.parametrize("value", BAD, ids=["inf", "-inf", "nan", "1e30", "-4000digits", "1e400", "4000digits"])
@pytest.mark.parametrize("where", ["roster cost", "cost limit", "a selection that is no unit", "a unit's cost type"])
def test_a_roster_number_is_refused_wherever_it_is(tmp_path, where, value):
    from sim.importers import load_roster
    doc = H.roster()
    body = doc["roster"]
    if where == "roster cost":
        body["costs"] = [{"name": "pts", "typeId": "points", "value": value}]
        place, field = "roster", "costs[0].value"
    elif where == "cost limit":
        body["costLimits"] = [{"name": "pts", "typeId": "points", "value": value}]
        place, field = "roster", "costLimits[0].value"
    elif where == "a selection that is no unit":
        body["forces"][0]["selections"].insert(0, _detachment(value))
        place, field = "forces[0].selections[0]", "the number of 'Detachment'"
    else:
        body["forces"][0]["selections"][0]["costs"].append({"name": "CP", "typeId": "cp", "value": value})
        place, field = "forces[0].selections[0]", "costs[1].value"
    path = _roster(tmp_path, doc)
    with pytest.raises(ImportFileError) as e:
        load_roster(path)
    assert (e.value.file, e.value.path) == (str(path), place)
    assert field in e.value.expected and "finite number" in e.value.expected, e.value.expected
    # --skip-bad skips units; a number that is no number refuses the file
    with pytest.raises(ImportFileError):
        load_roster(path, skip_bad=True)


def test_the_same_roster_with_finite_numbers_imports(tmp_path):
    from sim.importers import load_roster
    doc = H.roster()
    doc["roster"]["costs"] = [{"name": "pts", "typeId": "points", "value": 90}]
    doc["roster"]["costLimits"] = [{"name": "pts", "typeId": "points", "value": 2000}]
    doc["roster"]["forces"][0]["selections"].insert(0, _detachment(1))
    army, _ = load_roster(_roster(tmp_path, doc))
    assert [u.name for u in army.units] == ["Ember Wardens"]


# --- keywords and ability names ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Infan\x1btry", "Infan\x07try", "Infan\x9btry", "I" * 101])
def test_a_keyword_is_checked_at_import_naming_the_catalogue(tmp_path, text):
    from sim.importers import load_datasheet
    doc = H.catalogue()
    doc["catalogue"]["sharedSelectionEntries"][0]["categoryLinks"][0]["name"] = text
    path = _catalogue(tmp_path, doc)
    with pytest.raises(ImportFileError) as e:
        load_datasheet(path, "Ember Wardens")
    assert e.value.file == str(path)
    assert e.value.path == "datasheets['Ember Wardens'].categories"
    assert e.value.expected.startswith("a keyword of 1 to 100 characters without control characters")


@pytest.mark.parametrize("how", ["a control character", "appended past 100 characters"])
def test_an_ability_name_is_checked_at_import_naming_the_file(tmp_path, how):
    """(Appended past 1,000 characters, a name is refused as it grows: the test above.)"""
    from sim.importers import load_datasheet, load_roster
    if how == "a control character":
        rule = {"id": "r-oath", "name": "Oath\x1b[31m of Cinders"}
        link = {"id": "il", "name": "Oath\x1b[31m of Cinders", "targetId": "r-oath", "type": "rule"}
    else:
        rule = {"id": "r-oath", "name": "Oath"}
        link = {"id": "il", "name": "Oath", "targetId": "r-oath", "type": "rule",
                "modifiers": [{"type": "append", "field": "name", "value": int("9" * 400)}]}
    doc = H.catalogue([H.sheet(infoLinks=[link])], sharedRules=[rule])
    path = _catalogue(tmp_path, doc)
    with pytest.raises(ImportFileError) as e:
        load_datasheet(path, "Ember Wardens")
    assert (e.value.file, e.value.path) == (str(path), "datasheets['Ember Wardens'].abilities")
    assert e.value.expected.startswith("an ability name of 1 to 100 characters")
    # a roster's: its unit's, and a detachment's rule (a label on every unit)
    doc = H.roster()
    unit = doc["roster"]["forces"][0]["selections"][0]
    unit["rules"] = [{"name": rule["name"] if how == "a control character" else "Oath " + "9" * 200}]
    ros = _roster(tmp_path, doc)
    with pytest.raises(ImportFileError) as e:
        load_roster(ros)
    assert (e.value.file, e.value.path) == (str(ros), "unit 'Ember Wardens', forces[0].selections[0].abilities")
    doc = H.roster()
    det = _detachment(1)
    det["selections"][0]["rules"] = [copy.deepcopy(unit["rules"][0])]
    doc["roster"]["forces"][0]["selections"].insert(0, det)
    ros = _roster(tmp_path, doc)
    with pytest.raises(ImportFileError) as e:
        load_roster(ros)
    assert e.value.file == str(ros) and e.value.path == "forces: detachment 'Ember Host'", e.value.path


def test_names_the_loader_accepts_still_import(tmp_path):
    """Bidirectional and zero-width characters are no control characters: kept (the terminal
    escaping is the printer's), and the written scenario reads back."""
    from sim.importers import into_scenario, load_datasheet
    doc = H.catalogue([H.sheet(infoLinks=[{"id": "il", "name": "Oath\u2066 of\u2069 Cinders", "targetId": "r-oath",
                                           "type": "rule"}])], sharedRules=[{"id": "r-oath", "name": "Oath"}])
    path = _catalogue(tmp_path, doc)
    army, rep = load_datasheet(path, "Ember Wardens")
    assert "Oath\u2066 of\u2069 Cinders" in army.units[0].labels
    into_scenario(army, "red", None, str(path), "Ember Wardens", rep)


# --- text a modifier grows, and characteristics of many digits (review of issue 25) ----------------

def test_a_name_grown_by_appending_modifiers_is_refused_as_it_passes_the_bound(tmp_path):
    """Each append is checked as it is made (sim.importers.catalogue.MAX_TEXT): 25,000 appends of
    1,000 characters took 31 s before the one refusal at the end; now the second refuses."""
    from sim.importers import load_datasheet
    from sim.importers.catalogue import MAX_TEXT
    mods = [{"type": "append", "field": "name", "value": "x" * 600}] * 50
    doc = H.catalogue([H.sheet(modifiers=mods)])
    with pytest.raises(ImportFileError) as e:
        load_datasheet(_catalogue(tmp_path, doc), "Ember Wardens")
    assert e.value.path == "datasheets['Ember Wardens']"
    assert f"a name of at most {MAX_TEXT:,} characters after its modifiers" in e.value.expected


def test_a_characteristic_of_thousands_of_digits_is_not_incremented_into_a_traceback():
    """int() of 5,000 digits raised ValueError (Python's 4,300-digit limit): a number of more
    than 9 digits is no characteristic and is left as it is, for its reader to refuse."""
    from sim.importers.catalogue import _apply_char
    long = "6" * 5000 + '"'
    assert _apply_char(long, "c-M", {"type": "increment", "value": 1}, 1, None) == long
    assert _apply_char('6"', "c-M", {"type": "increment", "value": 1}, 1, None) == '7"'
    assert _apply_char("2D6", "c-A", {"type": "decrement", "value": 1}, 1, None) == "1D6"


def test_the_wide_tag_scan_is_not_fooled_by_a_greater_than_sign_inside_values():
    """A '>' inside an attribute's value hid every attribute after it from the scan, so the
    element was built (554 MB for 1.4 million) before the exact count refused it."""
    from sim.importers.source import MAX_XML_ELEMENT_ATTRIBUTES, _widest_tag
    n = MAX_XML_ELEMENT_ATTRIBUTES + 1
    assert _widest_tag("<a " + " ".join(f'a{i}=">"' for i in range(n)) + "/>") == n
    assert _widest_tag("<a " + " ".join(f"a{i}='=>'" for i in range(n)) + "/>") == n
    many_small = "<r>" + "".join(f'<e a="{i}" b="=">x=y</e>' for i in range(2 * n)) + "</r>"
    assert _widest_tag(many_small) == 0

"""18.01 Transport capacity through the importers: the data's Transport profile (typeId
74f8-5443-9d6d-1f1e, one Capacity text) read for its numbers and keywords only into the
scenario's ``transport = {...}`` table; the forms it reads, the sentences it does not (counted
in the report), a text it cannot read at all (no table: the unit carries nobody). The texts
are the project's own inventions in the data's shape (mark-up, non-breaking spaces, curly
apostrophes); the roster and catalogue are the project's fixtures with a Transport profile and
category added."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sim.importers import into_scenario, load_datasheet, load_roster
from sim.importers.transport import CAPACITY_TYPE_ID, read_capacity
from sim.rules.transport import Passenger, capacity_problems
from sim.scenario.load import parse_scenario

DATA = Path(__file__).with_name("data")
ASHEN = ["Ashen Concord"]


@pytest.mark.parametrize("text,table", [
    ("This model has a transport capacity of 10 ^^**Ashen Concord Infantry**^^ models.",
     {"models": 10, "keywords": ["INFANTRY"]}),
    ("This model has a transport capacity of 8 **^^Ashen Concord Infantry^^**models (excluding ^^**Ember "
     "Guard**^^ and ^^**Pyre Lord**^^ models).",
     {"models": 8, "keywords": ["INFANTRY"], "not": ["EMBER GUARD", "PYRE LORD"]}),
    ("This model has a transport capacity of 14 ASHEN CONCORD INFANTRY\u00a0models. Each CINDER PLATE, JUMP "
     "PACK or\u00a0GREAT HELM model takes up the space of 2 models and each\u00a0FORGE FRAME model takes up "
     "the space of 3 models. It cannot transport BEAST or KINDLING DRONE models.",
     {"models": 14, "keywords": ["INFANTRY"], "not": ["BEAST", "KINDLING DRONE"],
      "space": {"CINDER PLATE": 2, "JUMP PACK": 2, "GREAT HELM": 2, "FORGE FRAME": 3}}),
    ("This model has a transport capacity of 12 ^^**Ash-Wardens Infantry**^^ or **^^Slag-Priest Infantry**^^ "
     "models. The ^^**Magma Hierarch**^^ model takes up the space of 6 models.",
     {"models": 12, "keywords": ["INFANTRY", ["ASH-WARDENS", "SLAG-PRIEST"]], "space": {"MAGMA HIERARCH": 6}}),
    ("This model has a transport capacity of 30 <FACTION> INFANTRY or <FACTION> MOUNTED models.",
     {"models": 30, "keywords": [["INFANTRY", "MOUNTED"]]}),
    ("This model has a transport capacity of 1\u00a0Furnace Walker model.",
     {"models": 1, "keywords": ["FURNACE WALKER"]}),
    ("This FORTIFICATION has a transport capacity of 9 EMBER\u2019S CHOSEN INFANTRY models.",
     {"models": 9, "keywords": ["INFANTRY", "EMBER'S CHOSEN"]}),
    # (kinds of another type: a passenger of either kind, each entry one alternative of each)
    ("This model has a transport capacity of 13 CINDER WARDEN INFANTRY and EMBER ACOLYTE models. It cannot "
     "transport GREAT HELM models.",
     {"models": 13, "keywords": [["CINDER WARDEN", "EMBER ACOLYTE"], ["INFANTRY", "EMBER ACOLYTE"]],
      "not": ["GREAT HELM"]}),
    ("This model has a transport capacity of 8 ASHEN CONCORD INFANTRY or FURNACE WALKER models.",
     {"models": 8, "keywords": [["INFANTRY", "FURNACE WALKER"]]}),
    # (a capacity of two kinds: either kind, at most so many of each)
    ("This model has a transport capacity of 10 ASH WARDEN models and 1 ASHEN CONCORD INFANTRY CHARACTER model.",
     {"models": 11, "keywords": [["ASH WARDEN", "CHARACTER"], ["ASH WARDEN", "INFANTRY"]],
      "limits": [{"models": 10, "keywords": ["ASH WARDEN"]}, {"models": 1, "keywords": ["CHARACTER", "INFANTRY"]}]}),
    # (a capacity counted in units: any number of models, at most so many units)
    ("This model has a transport capacity of 1 ASHEN CONCORD INFANTRY unit.",
     {"models": 1000, "units": 1, "keywords": ["INFANTRY"]}),
    # (one more barred by name after the list)
    ("This model has a transport capacity of 12 ASHEN CONCORD INFANTRY models. It cannot transport JUMP PACK "
     "models or the Ember Colossus of Kiln.",
     {"models": 12, "keywords": ["INFANTRY"], "not": ["JUMP PACK", "EMBER COLOSSUS OF KILN"]}),
    # (rules by a model's Wounds characteristic: the space it takes, or barred, of a kind or not)
    ("This model has a transport capacity of 12 ASHEN CONCORD INFANTRY models. Each model with a Wounds "
     "characteristic of more than 2 takes up the space of 3 models. It cannot transport non-CHARACTER models "
     "with a Wounds characteristic of 5 or more. This model cannot transport models that can FLY.",
     {"models": 12, "keywords": ["INFANTRY"], "not": ["FLY"],
      "wounds": [{"at_least": 3, "space": 3}, {"at_least": 5, "barred": True, "except": ["CHARACTER"]}]}),
    ("This FORTIFICATION has a transport capacity of 8 INFANTRY models. Each ASHEN CONCORD BEAST model with a "
     "Wounds characteristic of 4 or more takes up the space of 2 models.",
     {"models": 8, "keywords": ["INFANTRY"], "wounds": [{"at_least": 4, "space": 2, "keywords": ["BEAST"]}]}),
    # (either kind: the second takes the whole room, so they never mix; its W capped)
    ("This model has a transport capacity of 10 ASHEN CONCORD INFANTRY models. This model can instead transport "
     "1 FURNACE WALKER or EMBER COLOSSUS model.",
     {"models": 10, "keywords": [["INFANTRY", "FURNACE WALKER", "EMBER COLOSSUS"]],
      "wounds": [{"at_least": 0, "space": 10, "keywords": [["FURNACE WALKER", "EMBER COLOSSUS"]]}]}),
    ("This model has a transport capacity of 16 ASHEN CONCORD INFANTRY models, or 1 ASHEN CONCORD MONSTER "
     "model with a Wounds characteristic of 10 or less.",
     {"models": 16, "keywords": [["INFANTRY", "MONSTER"]],
      "wounds": [{"at_least": 0, "space": 16, "keywords": ["MONSTER"]},
                 {"at_least": 11, "barred": True, "keywords": ["MONSTER"]}]}),
])
def test_18_01_the_forms_read_fully(text, table):
    cap = read_capacity(text, ASHEN)
    assert cap.full and cap.table == table


def test_18_01_a_sentence_not_read_is_counted_and_the_rest_kept():
    cap = read_capacity("This model has a transport capacity of 10 ASHEN CONCORD INFANTRY models. If this model "
                        "is equipped with a slag ram, it has a transport capacity of 5 ASHEN CONCORD INFANTRY "
                        "models. Each model with a Wounds characteristic of 3 or more takes up the space of 2 "
                        "models. It cannot transport BEAST models.", ASHEN)
    assert not cap.full and cap.unread == 1 and cap.sentences == 4
    assert cap.table == {"models": 10, "keywords": ["INFANTRY"], "not": ["BEAST"],
                         "wounds": [{"at_least": 3, "space": 2}]}


@pytest.mark.parametrize("text", [
    "This model has a transport capacity of 10 ASH WARDEN models and 1 FURNACE WALKER model or 2 EMBER models.",
    "This model has a transport capacity of all of the following:\n- 20 INFANTRY models\n- 2 VEHICLE models",
    "This model has a transport capacity of 6 ASHEN CONCORD INFANTRY or 1 ASHEN CONCORD MONSTER models.",
    "This model has a transport capacity of 10 ASH WARDEN models, or 3 FURNACE WALKER models.",
    # (a second count above 1: nothing would keep the two kinds apart)
    "This model has a transport capacity of 12 ASH WARDEN models, or 4 FURNACE WALKER models.",
    "Embarked units can shoot.",
    "",
])
def test_18_01_a_first_sentence_not_read_gives_no_capacity(text):
    cap = read_capacity(text, ASHEN)
    assert cap.table is None and not cap.full


# --- through a roster and a catalogue -----------------------------------------------------------

TEXT = ("This model has a transport capacity of 6 ^^**Ashen Concord Infantry**^^ models. Each ^^**Battleline**^^ "
        "model takes up the space of 2 models. It cannot transport ^^**Beast**^^ models. Prose-only sentence "
        "the importer never keeps.")


def _profile(text=TEXT) -> dict:
    return {"id": "p-cap", "name": "Furnace Strider", "typeName": "Transport", "typeId": CAPACITY_TYPE_ID,
            "characteristics": [{"name": "Capacity", "typeId": "c-cap", "$text": text}]}


def _roster(tmp_path, keyword: str | None = "Transport", text=TEXT) -> Path:
    """ashen.json with a Transport profile (and the category ``keyword``) on Furnace Strider."""
    doc = json.loads((DATA / "ashen.json").read_text())
    sels = [s for f in doc["roster"]["forces"] for s in f["selections"]]
    sel = next(s for s in sels if s["name"] == "Furnace Strider")
    if keyword:
        sel["categories"].append({"id": "cat-tr", "name": keyword, "entryId": "cat-tr"})
    sel["profiles"].append(_profile(text))
    path = tmp_path / "carrier.json"
    path.write_text(json.dumps(doc))
    return path


def _unit(army, name="Furnace Strider"):
    return next(u for u in army.units if u.name == name)


def test_18_01_a_roster_transport_imports_its_capacity_and_the_scenario_loads_it(tmp_path):
    path = _roster(tmp_path)
    army, rep = load_roster(path)
    strider = _unit(army)
    assert "TRANSPORT" in strider.keywords
    assert strider.transport == {"models": 6, "keywords": ["INFANTRY"], "not": ["BEAST"], "space": {"BATTLELINE": 2}}
    text = into_scenario(army, "red", None, str(path), "carrier", rep)
    assert "transport capacity" not in text.casefold().replace("note: transport capacity", "")
    assert "Prose-only" not in text and "takes up the space" not in text
    spec = parse_scenario_text(text, tmp_path)
    (u,) = [u for u in spec.units if u.name == "Furnace Strider"]
    assert u.transport.models == 6 and u.transport.excluded == ("BEAST",)
    # the loader's capacity is the rule's: the Warden Blades (BATTLELINE: 2 spaces each) do not fit
    blades = next(x for x in spec.units if x.name == "Warden Blades")
    assert capacity_problems("furnace-strider", u.transport, [
        Passenger(blades.id, tuple((m.id, m.keywords, m.profile.W) for m in blades.models))])
    notes = next(r for r in rep.units if r.name == "Furnace Strider").notes
    assert any("transport capacity 6 models (INFANTRY); not BEAST; BATTLELINE takes 2; 1 of its 4 sentences "
               "not read" in n for n in notes)


def parse_scenario_text(text: str, tmp_path):
    import tomllib
    return parse_scenario(tomllib.loads(text), str(tmp_path / "carrier.toml"))


def test_18_01_a_capacity_on_a_unit_without_the_transport_keyword_is_not_kept(tmp_path):
    army, rep = load_roster(_roster(tmp_path, keyword=None))
    assert _unit(army).transport is None
    notes = next(r for r in rep.units if r.name == "Furnace Strider").notes
    assert any("without the TRANSPORT keyword" in n for n in notes)


def test_18_01_an_unreadable_capacity_gives_no_table_and_the_report_says_so(tmp_path):
    army, rep = load_roster(_roster(tmp_path, text="This model can carry a great many models."))
    assert _unit(army).transport is None and "TRANSPORT" in _unit(army).keywords
    notes = next(r for r in rep.units if r.name == "Furnace Strider").notes
    assert any("cannot read" in n and "carries nobody" in n for n in notes)


def _dedicated_in_catalogue(tmp_path, profile: dict):
    """The catalogue fixture's Furnace Strider made a DEDICATED TRANSPORT with ``profile``
    added: (the catalogue's path, its document, the datasheet's entry)."""
    folder = tmp_path / "cat"
    shutil.copytree(DATA / "cat_json", folder)
    path = folder / "Ashen Concord.json"
    doc = json.loads(path.read_text())
    entry = next(e for e in doc["catalogue"]["sharedSelectionEntries"] if e["name"] == "Furnace Strider")
    entry["categoryLinks"].append({"id": "cl-tr", "name": "Dedicated Transport", "targetId": "cat-dt"})
    entry["profiles"].append(profile)
    path.write_text(json.dumps(doc))
    return path, doc, entry


def test_18_01_a_catalogue_datasheet_imports_its_capacity(tmp_path):
    path, _doc, _entry = _dedicated_in_catalogue(tmp_path, _profile())
    army, rep = load_datasheet(path, "Furnace Strider")
    strider = _unit(army)
    assert "DEDICATED TRANSPORT" in strider.keywords and strider.transport["models"] == 6
    # (empty when the battle starts it is destroyed, 18.01: the report says how to embark a unit)
    assert any("destroyed when the battle starts (18.01)" in n for r in rep.units for n in r.notes)


def test_18_01_an_ability_profile_named_transport_is_read_as_the_capacity(tmp_path):
    """Some catalogues give the capacity as an ability named Transport (typed Abilities, the
    text in its Description) rather than a profile of the Transport type: read the same; an
    ability of another name that mentions a capacity is not."""
    path, doc, entry = _dedicated_in_catalogue(tmp_path, {
        "id": "p-cap", "name": "Transport", "typeName": "Abilities", "typeId": "ab-type",
        "characteristics": [{"name": "Description", "typeId": "c-desc", "$text": TEXT}]})
    army, _rep = load_datasheet(path, "Furnace Strider")
    got = _unit(army).transport
    assert got["models"] == 6 and "INFANTRY" in got["keywords"] and got["not"] == ["BEAST"]
    entry["profiles"][-1]["name"] = "Hauler Bay"
    path.write_text(json.dumps(doc))
    army, _rep = load_datasheet(path, "Furnace Strider")
    assert _unit(army).transport is None


def test_18_01_a_capacity_of_either_kind_takes_each_kind_and_no_other():
    """The entries read from "13 CINDER WARDEN INFANTRY and EMBER ACOLYTE models", as the scenario
    loader makes them: a CINDER WARDEN INFANTRY model rides, an EMBER ACOLYTE model (not
    INFANTRY) rides, an INFANTRY model of neither kind does not (the capacity rule)."""
    from sim.rules.transport import Capacity
    table = read_capacity("This model has a transport capacity of 13 CINDER WARDEN INFANTRY and EMBER ACOLYTE "
                          "models.", ASHEN).table
    cap = Capacity(table["models"], tuple(tuple(k) if isinstance(k, list) else (k,) for k in table["keywords"]))

    def rides(*keywords):
        return not capacity_problems("carrier", cap, [Passenger("u", (("u/1", frozenset(keywords), 1),))])

    assert rides("INFANTRY", "CINDER WARDEN") and rides("EMBER ACOLYTE", "BEAST")
    assert not rides("INFANTRY", "FURNACE GUARD")


def test_18_01_a_capacity_of_two_kinds_takes_at_most_so_many_of_each():
    """'10 ASH WARDEN models and 1 INFANTRY CHARACTER model' as the scenario loads it: ten
    wardens and a character fit; an eleventh warden, or a second character, does not (each
    refusal names the kind and the capacity); a model of neither kind is refused."""
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    table = read_capacity("This model has a transport capacity of 10 ASH WARDEN models and 1 ASHEN CONCORD "
                          "INFANTRY CHARACTER model.", ASHEN).table
    cap = load(Reader("t.toml", {"transport": table}), {"TRANSPORT"})
    warden, hero = frozenset({"ASH WARDEN", "INFANTRY"}), frozenset({"INFANTRY", "CHARACTER"})

    def squad(n, kw, uid="w"):
        return Passenger(uid, tuple((f"{uid}/{i}", kw, 1) for i in range(n)))

    assert capacity_problems("ark", cap, [squad(10, warden), squad(1, hero, "h")]) == []
    got = capacity_problems("ark", cap, [squad(11, warden)])
    assert got and "11 ASH WARDEN models in ark, more than the 10 its capacity takes" in got[0]
    assert "10 ASH WARDEN models and 1 CHARACTER INFANTRY model" in got[0]
    got = capacity_problems("ark", cap, [squad(2, hero, "h")])
    assert got and "2 CHARACTER INFANTRY models in ark, more than the 1" in got[0]
    assert capacity_problems("ark", cap, [squad(1, frozenset({"INFANTRY"}), "x")])


def test_18_01_a_capacity_counted_in_units_takes_a_unit_of_any_size_and_no_second():
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    table = read_capacity("This model has a transport capacity of 1 ASHEN CONCORD INFANTRY unit.", ASHEN).table
    cap = load(Reader("t.toml", {"transport": table}), {"TRANSPORT"})
    big = Passenger("a", tuple((f"a/{i}", frozenset({"INFANTRY"}), 1) for i in range(40)))
    assert capacity_problems("scythe", cap, [big]) == []
    assert "any number of INFANTRY models" in cap.describe()
    got = capacity_problems("scythe", cap, [big, Passenger("b", (("b/1", frozenset({"INFANTRY"}), 1),))])
    assert got and "carries at most 1 unit" in got[0]


def test_18_01_a_capacity_names_the_armys_keyword_in_the_plural_it_has():
    """A capacity's 'NECRON WARRIOR models' is the army's NECRON WARRIORS (its units' own
    keyword): read so when the army has the plural and not the singular, and left as it is
    otherwise."""
    from sim.importers.transport import passengers_named
    table = {"models": 11, "keywords": [["ASH WARDEN", "CHARACTER"]], "not": ["EMBER ACOLYTE"],
             "limits": [{"models": 10, "keywords": ["ASH WARDEN"]}], "space": {"FORGE FRAMES": 2}}
    got = passengers_named(table, {"ASH WARDENS", "CHARACTER", "EMBER ACOLYTES", "FORGE FRAME"})
    assert got == {"models": 11, "keywords": [["ASH WARDENS", "CHARACTER"]], "not": ["EMBER ACOLYTES"],
                   "limits": [{"models": 10, "keywords": ["ASH WARDENS"]}], "space": {"FORGE FRAME": 2}}
    assert passengers_named(table, {"ASH WARDEN", "ASH WARDENS"})["keywords"] == [["ASH WARDEN", "CHARACTER"]]


def test_18_01_a_saved_table_writes_a_capacitys_limits_and_reads_back_the_same():
    """The sandbox's saved table (sim.sandbox.save_table) writes a capacity of two kinds and
    of units as the scenario reads it: read back, the same capacity."""
    import tomllib

    from sim.sandbox.save_table import _capacity
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    for text in ("This model has a transport capacity of 10 ASH WARDEN models and 1 ASHEN CONCORD INFANTRY "
                 "CHARACTER model. It cannot transport BEAST models.",
                 "This model has a transport capacity of 2 ASHEN CONCORD INFANTRY units."):
        cap = load(Reader("t.toml", {"transport": read_capacity(text, ASHEN).table}), {"TRANSPORT"})
        again = load(Reader("t.toml", tomllib.loads("transport = " + _capacity(cap))), {"TRANSPORT"})
        assert again == cap and (cap.limits or cap.units == 2)


def test_18_01_rules_by_wounds_as_the_scenario_loads_them_space_barred_and_either_kind():
    """The capacities read above, loaded as a scenario loads them, weigh each model's Wounds
    characteristic (its W, not the wounds left): a W 3 model takes 3 spaces, a W 5 one is
    barred unless a CHARACTER; either kind: one MONSTER of W 10 fills the room alone, one of W
    11 is barred, and a MONSTER and an INFANTRY model never ride together."""
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    inf, hero = frozenset({"INFANTRY"}), frozenset({"INFANTRY", "CHARACTER"})

    def squad(n, kw, w, uid="u"):
        return Passenger(uid, tuple((f"{uid}/{i}", kw, w) for i in range(n)))

    cap = load(Reader("t.toml", {"transport": read_capacity(
        "This model has a transport capacity of 12 ASHEN CONCORD INFANTRY models. Each model with a Wounds "
        "characteristic of more than 2 takes up the space of 3 models. It cannot transport non-CHARACTER models "
        "with a Wounds characteristic of 5 or more.", ASHEN).table}), {"TRANSPORT"})
    assert capacity_problems("ark", cap, [squad(4, inf, 3)]) == []
    got = capacity_problems("ark", cap, [squad(4, inf, 3), squad(1, inf, 1, "x")])
    assert got and "u, x take 13 spaces in ark, more than its capacity of 12" in got[0]
    got = capacity_problems("ark", cap, [squad(1, inf, 5)])
    assert got and "it has W 5, and non-CHARACTER models with W 5 or more cannot be carried" in got[0]
    assert capacity_problems("ark", cap, [squad(1, hero, 6)]) == []          # (a CHARACTER is exempt)
    assert "each of the models with W 3 or more takes the space of 3" in cap.describe()

    pod = load(Reader("t.toml", {"transport": read_capacity(
        "This model has a transport capacity of 16 ASHEN CONCORD INFANTRY models, or 1 ASHEN CONCORD MONSTER "
        "model with a Wounds characteristic of 10 or less.", ASHEN).table}), {"TRANSPORT"})
    beast = frozenset({"MONSTER"})
    assert capacity_problems("pod", pod, [squad(1, beast, 10)]) == []
    assert capacity_problems("pod", pod, [squad(16, inf, 1)]) == []
    assert capacity_problems("pod", pod, [squad(1, beast, 11)])               # (too many wounds)
    assert capacity_problems("pod", pod, [squad(1, beast, 10), squad(1, inf, 1, "x")])  # (no mixing)
    assert capacity_problems("pod", pod, [squad(2, beast, 4)])                # (one at most)


def test_18_01_a_saved_table_writes_a_capacitys_rules_by_wounds_and_reads_back_the_same():
    import tomllib

    from sim.sandbox.save_table import _capacity
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    for text in ("This model has a transport capacity of 12 ASHEN CONCORD INFANTRY models. Each BEAST model with "
                 "a Wounds characteristic of more than 2 takes up the space of 3 models. It cannot transport "
                 "non-CHARACTER models with a Wounds characteristic of 5 or more.",
                 "This model has a transport capacity of 16 ASHEN CONCORD INFANTRY models, or 1 ASHEN CONCORD "
                 "MONSTER model with a Wounds characteristic of 10 or less."):
        cap = load(Reader("t.toml", {"transport": read_capacity(text, ASHEN).table}), {"TRANSPORT"})
        again = load(Reader("t.toml", tomllib.loads("transport = " + _capacity(cap))), {"TRANSPORT"})
        assert again == cap and len(cap.wounds) == 2


@pytest.mark.parametrize("rule, expected", [
    ({"at_least": 3}, "either space"),
    ({"at_least": 3, "space": 2, "barred": True}, "either space"),
    ({"at_least": 3, "barred": False}, "true (such a model may not be carried"),
    ({"at_least": -1, "space": 2}, "a Wounds characteristic from 0 to 100"),
    ({"at_least": 3, "space": 0}, "a whole number of spaces from 1 to 100"),
    ({"at_least": 3, "space": 2, "heavy": 1}, "one of the fields"),
    ({"space": 2}, "this field"),
])
def test_18_01_a_bad_rule_by_wounds_is_a_clear_error(rule, expected):
    from sim.errors import ScenarioError
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    with pytest.raises(ScenarioError) as e:
        load(Reader("t.toml", {"transport": {"models": 10, "wounds": [rule]}}), {"TRANSPORT"})
    assert expected in str(e.value) and "transport.wounds[0]" in str(e.value)


def test_18_01_a_roster_capacity_with_rules_by_wounds_is_written_and_loaded(tmp_path):
    """A roster's capacity of either kind with a rule by Wounds goes through the scenario file
    the importer writes (an inline list of tables) and loads as the rule reads it."""
    text = ("This model has a transport capacity of 6 ^^**Ashen Concord Infantry**^^ models, or 1 ^^**Ashen "
            "Concord Monster**^^ model with a Wounds characteristic of 8 or less. Each model with a Wounds "
            "characteristic of more than 1 takes up the space of 2 models.")
    path = _roster(tmp_path, text=text)
    army, rep = load_roster(path)
    spec = parse_scenario_text(into_scenario(army, "red", None, str(path), "carrier", rep), tmp_path)
    (u,) = [u for u in spec.units if u.name == "Furnace Strider"]
    assert [(r.at_least, r.space, r.keywords) for r in u.transport.wounds] == [
        (0, 6, (("MONSTER",),)), (9, None, (("MONSTER",),)), (2, 2, ())]
    notes = next(r for r in rep.units if r.name == "Furnace Strider").notes
    assert any("no MONSTER models with W 9 or more" in n and "sentences not read" not in n for n in notes)


SPLIT_TEXT = ("This model has a transport capacity of 6 ASHEN CONCORD INFANTRY models. At the start of the Declare "
              "Battle Formations step, you can select one ^^**Ember Guard^^** or CINDER WARDENS unit from your army "
              "that has not been split. If you do, that unit is split into two units, each containing as equal a "
              "number of models as possible (when splitting a unit in this way, make a note of which models form "
              "each of the two new units). One of these units must start the battle embarked within this "
              "^^**Transport^^**; the other can start the battle embarked within another ^^**Transport^^**, or it "
              "can be deployed as a separate unit.")


def test_26_07_a_capacity_reads_the_transports_rule_that_splits_a_unit():
    cap = read_capacity(SPLIT_TEXT, ASHEN)
    assert cap.full and cap.table == {"models": 6, "keywords": ["INFANTRY"], "split": ["EMBER GUARD", "CINDER WARDENS"]}
    from sim.importers.transport import words
    assert "its rule may split a EMBER GUARD or CINDER WARDENS unit in two at battle formations" in words(cap)
    # (the terms alone, with no rule naming what it splits, are not read)
    assert read_capacity(SPLIT_TEXT.replace("At the start of the Declare Battle Formations step, you can select one "
                                            "^^**Ember Guard^^** or CINDER WARDENS unit from your army that has not "
                                            "been split. ", ""), ASHEN).unread == 2


def test_26_07_a_generated_army_splits_the_unit_too_large_for_the_transport_whose_rule_splits_it():
    """worth_splitting (tools/make_armies.py's choice): 9 wardens do not fit 6 spaces, 5 do:
    split by the carrier; 4 would fit whole: not split; each transport splits one unit only."""
    from sim.importers.model import Base, Model, Unit
    from sim.importers.transport import worth_splitting
    carrier = Unit("carrier", "Carrier", (Model("Carrier", 1, 10, 9, 3, 10, 7, 2, None, Base("oval", 100, 60)),),
                   keywords=("VEHICLE", "TRANSPORT"), transport=read_capacity(SPLIT_TEXT, ASHEN).table)

    def wardens(uid, n):
        return Unit(uid, "Cinder Wardens", (Model("Warden", n, 6, 4, 3, 1, 7, 2, None, Base("round", 32, 32)),),
                    keywords=("INFANTRY", "CINDER WARDENS"))
    got = worth_splitting([carrier, wardens("a", 4), wardens("b", 9), wardens("c", 9)])
    assert [u.split_by for u in got] == [None, None, "carrier", None]
    assert [u.split_by for u in worth_splitting([carrier, wardens("a", 14)])] == [None, None]  # (7 fit no better)


@pytest.mark.parametrize("wargear, models, unread", [
    (None, 14, 1),                      # (not known: the sentence is not read)
    ([], 14, 0),
    (["Slag Ram", "Cinder projector"], 8, 0),
    (["slag ram - Strike"], 8, 0),      # (a profile of it)
    (["Slag rammer"], 14, 0),           # (another name)
])
def test_18_01_a_capacity_that_depends_on_the_wargear_the_unit_takes(wargear, models, unread):
    cap = read_capacity("This model has a transport capacity of 14 ASHEN CONCORD INFANTRY models. If this model is "
                        "equipped with a slag ram, it has a transport capacity of 8 ASHEN CONCORD INFANTRY models.",
                        ASHEN, wargear)
    assert cap.table == {"models": models, "keywords": ["INFANTRY"]} and cap.unread == unread


def test_18_01_a_roster_transport_reads_its_capacity_by_the_wargear_it_took(tmp_path):
    """Furnace Strider's selections (ashen.json) take a slag cannon: the capacity it gives
    applies; one it does not take leaves the first."""
    for gear, models in (("slag cannon", 4), ("magma lance", 9)):
        text = (f"This model has a transport capacity of 9 ASHEN CONCORD INFANTRY models. If this model is equipped "
                f"with a {gear}, it has a transport capacity of 4 ASHEN CONCORD INFANTRY models instead.")
        army, _rep = load_roster(_roster(tmp_path, text=text))
        assert _unit(army).transport == {"models": models, "keywords": ["INFANTRY"]}



FIRST = "This model has a transport capacity of 12 ASHEN CONCORD INFANTRY models. "


@pytest.mark.parametrize("sentence, read", [
    # (a keyword of several words after non-; a type after it names the kind)
    ("It cannot transport non-EPIC HERO models with a Wounds characteristic of 4 or more.",
     {"wounds": [{"at_least": 4, "barred": True, "except": ["EPIC HERO"]}]}),
    ("It cannot transport non-CHARACTER MONSTER models with a Wounds characteristic of 4 or more.",
     {"wounds": [{"at_least": 4, "barred": True, "except": ["CHARACTER"], "keywords": ["MONSTER"]}]}),
    # (words that name no kind: not read)
    ("Each of these models with a Wounds characteristic of 3 or more takes up the space of 2 models.", None),
    ("It cannot transport any models with a Wounds characteristic of 4 or more.", None),
    # (numbers a scenario cannot hold: not read)
    ("Each model with a Wounds characteristic of 3 or more takes up the space of 500 models.", None),
    ("It cannot transport models with a Wounds characteristic of 999 or more.", None),
    # (wargear: another type of passenger, or more than one piece: not read)
    ("If this model is equipped with a slag ram, it has a transport capacity of 6 ASHEN CONCORD BEAST models.", None),
    ("If this model is equipped with a slag ram or a magma lance, it has a transport capacity of 6 ASHEN CONCORD "
     "INFANTRY models.", None),
    ("If this model is equipped with two slag rams, it has a transport capacity of 6 ASHEN CONCORD INFANTRY models.",
     None),
])
def test_18_01_what_a_second_sentence_reads_and_what_it_leaves(sentence, read):
    cap = read_capacity(FIRST + sentence, ASHEN, ["Slag ram"])
    assert cap.table == {"models": 12, "keywords": ["INFANTRY"], **(read or {})}
    assert cap.unread == (read is None)


def test_26_07_a_split_rules_kinds_lose_the_transports_faction():
    cap = read_capacity(FIRST + "At the start of the Declare Battle Formations step, you can select one ASHEN CONCORD "
                        "EMBER GUARD unit from your army.", ASHEN)
    assert cap.table["split"] == ["EMBER GUARD"] and cap.full

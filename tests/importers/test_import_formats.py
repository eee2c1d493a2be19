"""Issue 17: each format's fixture imports to the expected units (statlines, weapon profiles,
abilities, labels, counts, points, bases), the three roster forms and the three catalogue forms
alike; datasheets get their default loadout through shared entries, links and modifiers."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ImportFileError
from sim.importers import list_datasheets, load_datasheet, load_roster

DATA = Path(__file__).with_name("data")
ROSTERS = [DATA / "ashen.ros", DATA / "ashen.rosz", DATA / "ashen.json"]
CATALOGUES = [DATA / "cat_xml/Ashen Concord.cat", DATA / "cat_zip/Ashen Concord.catz",
              DATA / "cat_json/Ashen Concord.json"]


def by_id(army):
    return {u.id: u for u in army.units}


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: p.suffix)
def test_roster_imports_the_expected_units(path):
    army, rep = load_roster(path)
    units = by_id(army)
    assert list(units) == ["warden-blades", "furnace-strider", "ember-hounds"]
    blades = units["warden-blades"]
    # the leader nested in the unit's selection is attached to it (19.01)
    assert [(m.name, m.count, m.role) for m in blades.models] == [
        ("Blade Warden", 1, "bodyguard"), ("Blade", 4, "bodyguard"), ("Cinder Marshal", 1, "leader")]
    warden, blade, marshal = blades.models
    assert (blade.M, blade.T, blade.Sv, blade.W, blade.Ld, blade.OC, blade.InSv) == (6, 4, 3, 2, 6, 2, None)
    assert blade.weapons == ("Arc carbine", "Duty blade")
    # a weapon with two profiles: one multi-profile weapon, both profiles in the loadout (04.01.03)
    assert warden.weapons == ("Flux pistol - steady", "Flux pistol - overcharge", "Duty blade")
    assert army.weapons["Flux pistol - steady"].weapon == army.weapons["Flux pistol - overcharge"].weapon \
        == "Flux pistol"
    assert army.weapons["Duty blade"].weapon == ""
    # the invulnerable save given as an ability, and FNP, on the leader only
    assert marshal.InSv == 4 and marshal.W == 5
    assert marshal.abilities == ("Leader", "Feel No Pain 5+")  # (24.22: a unit ability the engine reads)
    assert set(marshal.keywords) >= {"CHARACTER"} and "BATTLELINE" not in marshal.keywords
    assert set(marshal.labels) == {"Kindled Command"}
    assert blade.abilities == ("Stealth",) and "Oath of Cinders" in blade.labels
    assert "INFANTRY" in blades.keywords and not any(k.startswith("FACTION") for k in blades.keywords)
    assert blades.points == 165
    strider = units["furnace-strider"]
    (walker,) = strider.models
    assert walker.weapons.count("Slag cannon") == 2 and "Cinder projector" in walker.weapons
    assert walker.base.text() == "100mm"  # stated by the data
    assert strider.abilities == ("Deadly Demise D3", "Damaged: 1-4 wounds remaining")
    # "5+*" whose ability says against ranged attacks only: InSv 5 with that condition (05.03);
    # the roster's chosen detachment rule: an inert label on every unit
    assert strider.labels == ("Host of Embers",) and (walker.InSv, walker.InSv_against) == (5, "ranged")
    hounds = units["ember-hounds"]
    assert hounds.models[0].count == 6 and hounds.abilities == ("Feel No Pain 6+", "Fights First")
    assert hounds.labels == ('Scout 6"', "Host of Embers")
    w = army.weapons
    assert (w["Arc carbine"].range, w["Arc carbine"].A, w["Arc carbine"].skill, w["Arc carbine"].AP) == (24, "2", 3, -1)
    assert w["Arc carbine"].abilities == "Rapid Fire 1" and w["Arc carbine"].labels == ("Oathbound Volley",)
    assert w["Slag cannon"].A == "D6+1" and w["Slag cannon"].abilities == "Blast, Heavy"
    assert w["Cinder projector"].skill is None and "Torrent" in w["Cinder projector"].abilities
    assert w["Duty blade"].range is None and w["Duty blade"].skill == 3
    # the report: every label with its place, base sources, the army-level selection
    reps = {u.id: u for u in rep.units}
    assert ("weapon 'Arc carbine'", "Oathbound Volley") in reps["warden-blades"].labels
    assert ("leader 'Cinder Marshal'", "Kindled Command") in reps["warden-blades"].labels
    assert ("unit", "Oath of Cinders") in reps["warden-blades"].labels
    assert any("generic" in src for _, _, src in reps["warden-blades"].bases)
    assert reps["furnace-strider"].bases == [("Furnace Strider", "100mm", "the data")]
    assert "BEAST" in reps["ember-hounds"].keywords_without_rule
    assert any("Detachment" in a for a in rep.army)
    assert "imported as inert text label" in rep.text()
    # the multi-profile weapon is named as one, not as profiles left out of the loadout
    assert any("'Flux pistol': a multi-profile weapon of 2 ranged profiles" in n for n in reps["warden-blades"].notes)
    assert "does not choose" not in rep.text()


def test_the_three_roster_forms_agree():
    armies = [load_roster(p)[0] for p in ROSTERS]
    assert armies[0] == armies[1] == armies[2]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.suffix)
def test_catalogue_lists_its_datasheets(path):
    sheets = list_datasheets(path)
    assert [s["name"] for s in sheets] == ["Warden Blades", "Cinder Marshal", "Furnace Strider", "Ember Hounds"]
    blades = sheets[0]
    assert set(blades["stats"]) == {"Blade Warden", "Blade"}
    assert {n for _, n in blades["weapons"]} == {"Arc carbine", "Duty blade", "Flux pistol - steady",
                                                  "Flux pistol - overcharge"}
    assert [s["name"] for s in list_datasheets(path, "hound")] == ["Ember Hounds"]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.suffix)
def test_datasheet_default_loadout(path):
    army, rep = load_datasheet(path, "Warden Blades")
    (u,) = army.units
    # compulsory entries: 1 warden (its group's default sidearm), 4 blades (min 4)
    assert [(m.name, m.count) for m in u.models] == [("Blade Warden", 1), ("Blade", 4)]
    assert u.models[0].weapons == ("Duty blade", "Flux pistol - steady", "Flux pistol - overcharge")
    assert {army.weapons[n].weapon for n in u.models[0].weapons} == {"", "Flux pistol"}
    assert u.models[1].Sv == 3  # the unconditional modifier on the characteristic
    assert u.models[1].OC == 2  # the force-dependent one is not applied, and the report says so
    assert any("OC" in n and "not applied" in n for n in rep.units[0].notes)
    assert u.points == 95 and u.abilities == ("Stealth",)
    army10, _ = load_datasheet(path, "warden blades", models=10)
    assert [(m.name, m.count) for m in army10.units[0].models] == [("Blade Warden", 1), ("Blade", 9)]
    assert army10.units[0].points == 180  # the cost modifier on the model count


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.suffix)
def test_datasheet_links_and_name_modifiers(path):
    marshal = load_datasheet(path, "Cinder Marshal")[0].units[0]
    assert marshal.models[0].InSv == 4  # an info link to a shared profile
    assert marshal.abilities == ("Leader", "Feel No Pain 5+")  # (24.22: a unit ability the engine reads)  # an info link with an append modifier
    strider = load_datasheet(path, "Furnace Strider")[0]
    assert "Deadly Demise D3" in strider.units[0].abilities
    assert strider.units[0].models[0].weapons.count("Slag cannon") == 2
    hounds = load_datasheet(path, "Ember Hounds", models=8)[0].units[0]
    assert hounds.models[0].count == 8 and hounds.models[0].weapons == ("Searing fangs",)


def test_datasheet_errors_are_one_line():
    path = CATALOGUES[0]
    with pytest.raises(ImportFileError, match="datasheet in the catalogue"):
        load_datasheet(path, "Retired Relic")  # hidden
    with pytest.raises(ImportFileError, match="at least 5 models"):
        load_datasheet(path, "Warden Blades", models=3)
    with pytest.raises(ImportFileError, match="at most 12 models"):
        load_datasheet(path, "Ember Hounds", models=14)
    with pytest.raises(ImportFileError, match="single-model"):
        load_datasheet(path, "Cinder Marshal", models=2)


def test_user_base_table_overrides(tmp_path):
    user = tmp_path / "bases.toml"
    user.write_text('[datasheets]\n"Ember Hounds" = 50\n"Warden Blades/Blade" = { base = [60, 35], shape = "oval" }\n')
    army, rep = load_roster(ROSTERS[0], bases=user)
    units = by_id(army)
    assert units["ember-hounds"].models[0].base.text() == "50mm"
    assert units["warden-blades"].models[1].base.text() == "60x35mm oval"
    assert units["warden-blades"].models[0].base.text() == "32mm"
    src = {m: s for u in rep.units for m, _, s in u.bases}
    assert "bases.toml: datasheets.Ember Hounds" in src["Ember Hound"]

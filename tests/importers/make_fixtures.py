"""Writes the import fixtures (tests/importers/data/): one invented army, the "Ashen Concord", in
every form the importer reads - a roster as BattleScribe XML (.ros), zipped (.rosz) and New
Recruit's JSON; a catalogue and the library it links to as XML (.cat), zipped (.catz) and JSON.
Every name, number and rule here is the project's own invention; the structures are those real
files use (nested selections, model selections with counts, wargear groups with a default,
shared entries reached by entry links and info links, modifiers on characteristics and names,
weapons with several profiles, a leader nested in its unit, an invulnerable save given as an
ability, points). Every description holds MARKER, which no output may show.

    python tests/importers/make_fixtures.py      # rewrite the files (they are committed)
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

DATA = Path(__file__).with_name("data")
MARKER = "PROSE-MARKER-7q2x"
RNS = "http://www.battlescribe.net/schema/rosterSchema"
CNS = "http://www.battlescribe.net/schema/catalogueSchema"

SINGULAR = {"profiles": "profile", "characteristics": "characteristic", "selections": "selection",
            "categories": "category", "costs": "cost", "rules": "rule", "forces": "force",
            "entryLinks": "entryLink", "selectionEntries": "selectionEntry",
            "selectionEntryGroups": "selectionEntryGroup", "sharedSelectionEntries": "selectionEntry",
            "sharedSelectionEntryGroups": "selectionEntryGroup", "sharedProfiles": "profile",
            "sharedRules": "rule", "constraints": "constraint", "modifiers": "modifier",
            "modifierGroups": "modifierGroup", "conditions": "condition", "conditionGroups": "conditionGroup",
            "infoLinks": "infoLink", "categoryLinks": "categoryLink", "categoryEntries": "categoryEntry",
            "catalogueLinks": "catalogueLink", "costLimits": "costLimit", "repeats": "repeat",
            "costTypes": "costType"}


def to_xml(tag: str, d: dict, ns: str | None = None, indent: str = "") -> str:
    attrs = "".join(f" {k}={quoteattr(str(v).lower() if isinstance(v, bool) else str(v))}"
                    for k, v in d.items() if not isinstance(v, (list, dict)) and k not in ("$text", "description"))
    if ns:
        attrs += f' xmlns="{ns}"'
    inner = []
    for k, v in d.items():
        if isinstance(v, list):
            inner.append(f"{indent}  <{k}>")
            inner.extend(to_xml(SINGULAR[k], x, None, indent + "    ") for x in v)
            inner.append(f"{indent}  </{k}>")
        elif k == "description":
            inner.append(f"{indent}  <description>{escape(v)}</description>")
    if "$text" in d:
        return f"{indent}<{tag}{attrs}>{escape(d['$text'])}</{tag}>"
    if not inner:
        return f"{indent}<{tag}{attrs}/>"
    return f"{indent}<{tag}{attrs}>\n" + "\n".join(inner) + f"\n{indent}</{tag}>"


# --- profiles ---------------------------------------------------------------------------------

def stat(name, M, T, Sv, W, Ld, OC, InSv="", base=None):
    chars = [("M", M), ("T", T), ("Sv", Sv), ("W", W), ("LD", Ld), ("OC", OC), ("InSv", InSv)]
    if base:
        chars.append(("Base Size", base))
    return {"id": f"p-{name}", "name": name, "typeName": "Unit", "typeId": "t-unit",
            "characteristics": [{"name": k, "typeId": f"c-{k}", "$text": v} for k, v in chars]}


def gun(name, rng, A, skill, S, AP, D, kw="-", melee=False):
    kind = "Melee Weapons" if melee else "Ranged Weapons"
    sk = "WS" if melee else "BS"
    chars = [("Range", rng), ("A", A), (sk, skill), ("S", S), ("AP", AP), ("D", D), ("Keywords", kw)]
    return {"id": f"p-{name}", "name": name, "typeName": kind, "typeId": "t-melee" if melee else "t-ranged",
            "characteristics": [{"name": k, "typeId": f"c-{k}", "$text": v} for k, v in chars]}


def ability(name, text="rules text"):
    return {"id": f"p-{name}", "name": name, "typeName": "Abilities", "typeId": "t-abil",
            "characteristics": [{"name": "Description", "typeId": "c-desc", "$text": f"{text} {MARKER}"}]}


def rule(name):
    return {"id": f"r-{name}", "name": name, "description": f"Rules text of {name}. {MARKER}"}


def cats(*names):
    return [{"id": f"cat-{n}", "entryId": f"cat-{n}", "name": n, "primary": False} for n in names]


def pts(v):
    return [{"name": "pts", "typeId": "points", "value": v}]


# weapons (invented)
ARC = gun("Arc carbine", '24"', "2", "3+", "4", "-1", "1", "Rapid Fire 1, Oathbound Volley")
DUTY = gun("Duty blade", "Melee", "2", "3+", "4", "0", "1", melee=True)
FLUX_S = gun("\u27a4 Flux pistol - steady", '12"', "1", "3+", "7", "-2", "1", "Pistol")
FLUX_O = gun("\u27a4 Flux pistol - overcharge", '12"', "1", "3+", "8", "-3", "2", "Hazardous, Pistol")
GLAIVE = gun("Ember glaive", "Melee", "4", "2+", "6", "-2", "2", "Lethal Hits, Precision", melee=True)
SLAG = gun("Slag cannon", '36"', "D6+1", "4+", "8", "-2", "2", "Blast, Heavy")
SPRAY = gun("Cinder projector", '12"', "D6", "N/A", "5", "-1", "1", "Torrent, Ignores Cover")
STOMP = gun("Strider stomp", "Melee", "3", "4+", "7", "-1", "2", melee=True)
FANGS = gun("Searing fangs", "Melee", "3", "4+", "4", "-1", "1", "Sustained Hits 1, Anti-Infantry 4+", melee=True)


# --- the roster ---------------------------------------------------------------------------------

def sel(name, kind, number=1, **kw):
    d = {"id": f"s-{name}-{number}", "name": name, "entryId": f"e-{name}", "number": number, "type": kind}
    d.update(kw)
    return d


def roster() -> dict:
    # a leader attached to the Warden Blades: a unit selection nested in theirs
    marshal = sel("Cinder Marshal", "unit", 1,
                  profiles=[stat("Cinder Marshal", '6"', "4", "3+", "5", "6+", "1"),
                            ability("Invulnerable Save (4+)", "This model has a 4+ invulnerable save."),
                            ability("Leader"), ability("Kindled Command")],
                  rules=[rule("Feel No Pain 5+")],
                  categories=cats("Character", "Infantry", "Faction: Ashen Concord"),
                  costs=pts(70),
                  selections=[sel("Ember glaive", "upgrade", 1, profiles=[GLAIVE],
                                  rules=[rule("Lethal Hits"), rule("Precision")])])
    blades = sel("Warden Blades", "unit", 1,
                 profiles=[ability("Oath of Cinders")],
                 rules=[rule("Stealth")],
                 categories=cats("Infantry", "Battleline", "Grenades", "Faction: Ashen Concord"),
                 costs=pts(95),
                 selections=[
                     sel("Blade Warden", "model", 1,
                         profiles=[stat("Blade Warden", '6"', "4", "3+", "2", "6+", "2")],
                         selections=[sel("Flux pistol", "upgrade", 1, profiles=[FLUX_S, FLUX_O]),
                                     sel("Duty blade", "upgrade", 1, profiles=[DUTY])]),
                     sel("Blade", "model", 4,
                         profiles=[stat("Blade", '6"', "4", "3+", "2", "6+", "2")],
                         selections=[sel("Arc carbine", "upgrade", 4, profiles=[ARC],
                                         rules=[rule("Rapid Fire")]),
                                     sel("Duty blade", "upgrade", 4, profiles=[DUTY])]),
                     marshal])
    strider = sel("Furnace Strider", "model", 1,
                  profiles=[stat("Furnace Strider", '8"', "10", "2+", "10", "7+", "4", base="100mm"),
                            ability("Invulnerable Save (5+*)", "Only against ranged attacks.")],
                  rules=[rule("Deadly Demise D3"), rule("Damaged: 1-4 wounds remaining")],
                  categories=cats("Vehicle", "Walker", "Smoke", "Faction: Ashen Concord"),
                  costs=pts(150),
                  selections=[sel("Slag cannon", "upgrade", 2, profiles=[SLAG]),
                              sel("Cinder projector", "upgrade", 1, profiles=[SPRAY]),
                              sel("Strider stomp", "upgrade", 1, profiles=[STOMP])])
    hounds = sel("Ember Hounds", "unit", 1,
                 profiles=[stat("Ember Hound", '10"', "4", "5+", "2", "7+", "1")],
                 rules=[rule("Feel No Pain 6+"), rule("Fights First"), rule("Scout 6\"")],
                 categories=cats("Beast", "Faction: Ashen Concord"),
                 costs=pts(60),
                 selections=[sel("Ember Hound", "model", 6,
                                 selections=[sel("Searing fangs", "upgrade", 6, profiles=[FANGS])])])
    detachment = sel("Detachment", "upgrade", 1, selections=[sel("Kindling Host", "upgrade", 1,
                                                                  rules=[rule("Host of Embers")])])
    force = {"id": "f1", "name": "Army Roster", "entryId": "fe1", "catalogueId": "cat-ashen",
             "catalogueName": "Ashen Concord", "selections": [detachment, blades, strider, hounds],
             "categories": cats("Configuration")}
    return {"id": "r1", "name": "Ashen test list", "battleScribeVersion": "2.03", "generatedBy": "tests",
            "gameSystemId": "sys-test", "gameSystemName": "Warhammer 40,000 11th Edition",
            "costs": [{"name": "pts", "typeId": "points", "value": 375}], "forces": [force]}


# --- the catalogue ------------------------------------------------------------------------------

def link(target, name, kind="selectionEntry", **kw):
    d = {"id": f"l-{name}-{target}", "name": name, "targetId": target, "type": kind, "hidden": False}
    d.update(kw)
    return d


def per_parent(lo=None, hi=None, ident=""):
    out = []
    if lo is not None:
        out.append({"id": f"min-{ident}", "type": "min", "value": lo, "field": "selections", "scope": "parent"})
    if hi is not None:
        out.append({"id": f"max-{ident}", "type": "max", "value": hi, "field": "selections", "scope": "parent"})
    return out


def weapon_entry(ident, name, *profiles):
    return {"id": ident, "name": name, "type": "upgrade", "hidden": False, "profiles": list(profiles),
            "costs": [{"name": "pts", "typeId": "pts-id", "value": 0}]}


def library() -> dict:
    return {"id": "lib-ashen", "name": "Ashen Concord Library", "library": True, "revision": 1,
            "gameSystemId": "sys-test", "type": "catalogue",
            "sharedSelectionEntries": [
                weapon_entry("w-arc", "Arc carbine", ARC), weapon_entry("w-duty", "Duty blade", DUTY),
                weapon_entry("w-flux", "Flux pistol", FLUX_S, FLUX_O), weapon_entry("w-glaive", "Ember glaive", GLAIVE),
                weapon_entry("w-slag", "Slag cannon", SLAG), weapon_entry("w-spray", "Cinder projector", SPRAY),
                weapon_entry("w-stomp", "Strider stomp", STOMP), weapon_entry("w-fangs", "Searing fangs", FANGS)],
            "sharedProfiles": [ability("Invulnerable Save (4+)", "This model has a 4+ invulnerable save.")],
            "sharedRules": [rule("Feel No Pain"), rule("Deadly Demise"), rule("Stealth"), rule("Fights First")]}


def catalogue() -> dict:
    blade_model = {
        "id": "m-blade", "name": "Blade", "type": "model", "hidden": False,
        "constraints": per_parent(4, 9, "blade"),
        "profiles": [stat("Blade", '6"', "4", "4+", "2", "6+", "2")],
        # a modifier on a characteristic (Sv 4+ -> 3+, unconditional)
        "modifiers": [{"type": "set", "field": "c-Sv", "value": "3+"}],
        "entryLinks": [link("w-arc", "Arc carbine", constraints=per_parent(1, 1, "arc")),
                       link("w-duty", "Duty blade", constraints=per_parent(1, 1, "duty"))]}
    warden = {
        "id": "m-warden", "name": "Blade Warden", "type": "model", "hidden": False,
        "constraints": per_parent(1, 1, "warden"),
        "profiles": [stat("Blade Warden", '6"', "4", "3+", "2", "6+", "2")],
        "entryLinks": [link("w-duty", "Duty blade", constraints=per_parent(1, 1, "wduty"))],
        "selectionEntryGroups": [{
            "id": "g-warden-gun", "name": "Warden sidearm", "defaultSelectionEntryId": "l-Flux pistol-w-flux",
            "constraints": per_parent(1, 1, "wgun"),
            "entryLinks": [link("w-arc", "Arc carbine"), link("w-flux", "Flux pistol")]}]}
    blades = {
        "id": "u-blades", "name": "Warden Blades", "type": "unit", "hidden": False,
        "profiles": [ability("Oath of Cinders")],
        "infoLinks": [link("r-Stealth", "Stealth", "rule")],
        "categoryLinks": [{"id": "cl1", "name": "Infantry", "targetId": "cat-inf"},
                          {"id": "cl2", "name": "Battleline", "targetId": "cat-bl"},
                          {"id": "cl3", "name": "Grenades", "targetId": "cat-gr"},
                          {"id": "cl4", "name": "Faction: Ashen Concord", "targetId": "cat-fac"}],
        "costs": [{"name": "pts", "typeId": "pts-id", "value": 95}],
        # ten models cost more (a cost modifier with a condition on the unit's model count)
        "modifiers": [{"type": "set", "field": "pts-id", "value": 180, "conditions": [
            {"type": "greaterThan", "value": 5, "field": "selections", "scope": "self", "childId": "model",
             "includeChildSelections": True}]},
            # a characteristic modifier that needs the detachment (cannot be decided from the unit)
            {"type": "set", "field": "c-OC", "value": "3", "conditions": [
                {"type": "atLeast", "value": 1, "field": "selections", "scope": "force", "childId": "det-1"}]}],
        "selectionEntries": [warden, blade_model]}
    marshal = {
        "id": "u-marshal", "name": "Cinder Marshal", "type": "model", "hidden": False,
        "profiles": [stat("Cinder Marshal", '6"', "4", "3+", "5", "6+", "1"), ability("Leader"),
                     ability("Kindled Command")],
        "infoLinks": [link("p-Invulnerable Save (4+)", "Invulnerable Save (4+)", "profile"),
                      link("r-Feel No Pain", "Feel No Pain", "rule",
                           modifiers=[{"type": "append", "field": "name", "value": "5+"}])],
        "categoryLinks": [{"id": "cl5", "name": "Character", "targetId": "cat-char"},
                          {"id": "cl6", "name": "Infantry", "targetId": "cat-inf"}],
        "costs": [{"name": "pts", "typeId": "pts-id", "value": 70}],
        "entryLinks": [link("w-glaive", "Ember glaive", constraints=per_parent(1, 1, "glaive"))]}
    strider = {
        "id": "u-strider", "name": "Furnace Strider", "type": "model", "hidden": False,
        "profiles": [stat("Furnace Strider", '8"', "10", "2+", "10", "7+", "4", base="100mm"),
                     ability("Invulnerable Save (5+*)", "Only against ranged attacks.")],
        "infoLinks": [link("r-Deadly Demise", "Deadly Demise", "rule",
                           modifiers=[{"type": "append", "field": "name", "value": "D3"}])],
        "rules": [rule("Damaged: 1-4 wounds remaining")],
        "categoryLinks": [{"id": "cl7", "name": "Vehicle", "targetId": "cat-veh"},
                          {"id": "cl8", "name": "Walker", "targetId": "cat-walk"},
                          {"id": "cl9", "name": "Smoke", "targetId": "cat-smoke"}],
        "costs": [{"name": "pts", "typeId": "pts-id", "value": 150}],
        "entryLinks": [link("w-slag", "Slag cannon", constraints=per_parent(2, 2, "slag")),
                       link("w-spray", "Cinder projector", constraints=per_parent(1, 1, "spray")),
                       link("w-stomp", "Strider stomp", constraints=per_parent(1, 1, "stomp"))]}
    hound = {"id": "m-hound", "name": "Ember Hound", "type": "model", "hidden": False,
             "constraints": per_parent(6, 12, "hound"),
             "entryLinks": [link("w-fangs", "Searing fangs", constraints=per_parent(1, 1, "fangs"))]}
    hounds = {
        "id": "u-hounds", "name": "Ember Hounds", "type": "unit", "hidden": False,
        "profiles": [stat("Ember Hound", '10"', "4", "5+", "2", "7+", "1")],
        "infoLinks": [link("r-Feel No Pain", "Feel No Pain", "rule",
                           modifiers=[{"type": "append", "field": "name", "value": "6+"}]),
                      link("r-Fights First", "Fights First", "rule")],
        "rules": [rule("Scout 6\"")],
        "categoryLinks": [{"id": "cl10", "name": "Beast", "targetId": "cat-beast"}],
        "costs": [{"name": "pts", "typeId": "pts-id", "value": 60}],
        "selectionEntries": [hound]}
    hidden = {"id": "u-hidden", "name": "Retired Relic", "type": "unit", "hidden": True}
    return {"id": "cat-ashen", "name": "Ashen Concord", "library": False, "revision": 1,
            "gameSystemId": "sys-test", "type": "catalogue",
            "catalogueLinks": [{"id": "cl-lib", "name": "Ashen Concord Library", "targetId": "lib-ashen",
                                "type": "catalogue", "importRootEntries": False}],
            "categoryEntries": [{"id": f"cat-{k}", "name": n} for k, n in
                                (("inf", "Infantry"), ("char", "Character"), ("veh", "Vehicle"))],
            "sharedSelectionEntries": [blades, marshal, strider, hounds, hidden],
            "entryLinks": [link("u-blades", "Warden Blades"), link("u-marshal", "Cinder Marshal"),
                           link("u-strider", "Furnace Strider"), link("u-hounds", "Ember Hounds"),
                           link("u-hidden", "Retired Relic")]}


def game_system() -> dict:
    return {"id": "sys-test", "name": "Test system", "revision": 1, "type": "gameSystem",
            "costTypes": [{"id": "pts-id", "name": "pts"}]}


def write() -> None:
    DATA.mkdir(exist_ok=True)
    r = roster()
    (DATA / "ashen.json").write_text(json.dumps({"roster": r}, indent=1, ensure_ascii=False) + "\n")
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + to_xml("roster", r, RNS) + "\n"
    (DATA / "ashen.ros").write_text(xml)
    with zipfile.ZipFile(DATA / "ashen.rosz", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("ashen.ros", (2024, 1, 1, 0, 0, 0)), xml)
    for folder, kind in (("cat_xml", "xml"), ("cat_zip", "zip"), ("cat_json", "json")):
        d = DATA / folder
        d.mkdir(exist_ok=True)
        for name, doc, root in (("Ashen Concord", catalogue(), "catalogue"),
                                ("Ashen Concord Library", library(), "catalogue"),
                                ("Test system", game_system(), "gameSystem")):
            ext = {"catalogue": ".cat", "gameSystem": ".gst"}[root]
            if kind == "json":
                (d / f"{name}.json").write_text(json.dumps({root: doc}, indent=1, ensure_ascii=False) + "\n")
                continue
            text = '<?xml version="1.0" encoding="UTF-8"?>\n' + to_xml(root, doc, CNS) + "\n"
            if kind == "xml" or root == "gameSystem":
                (d / f"{name}{ext}").write_text(text)
            else:
                with zipfile.ZipFile(d / f"{name}{ext}z", "w", zipfile.ZIP_DEFLATED) as z:
                    z.writestr(zipfile.ZipInfo(f"{name}{ext}", (2024, 1, 1, 0, 0, 0)), text)


if __name__ == "__main__":
    write()

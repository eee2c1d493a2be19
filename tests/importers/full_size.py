"""A catalogue folder for full-size armies (issue 24 item 5): two invented factions, the "Ember
Pact" and the "Glass Choir", each a catalogue of a dozen datasheets (CHARACTERs, BATTLELINE,
infantry, vehicles, a monster, beasts, an AIRCRAFT the importer refuses, a FORTIFICATION and a
[Legends] datasheet the army maker leaves out), and the game system, in the JSON form of the
community catalogues: datasheets as shared selection entries reached by the catalogue's entry
links, weapons as shared entries linked from the models, model counts as constraints, points
per model. Every name and number is the project's own invention; every description holds
make_fixtures.MARKER, which no output may show. Written into a folder when a test needs it
(nothing committed but this file)."""

from __future__ import annotations

import json
from pathlib import Path

from make_fixtures import ability, gun, link, per_parent, rule, stat

SYSTEM = {"id": "sys-test", "name": "Test system", "revision": 1, "type": "gameSystem",
          "costTypes": [{"id": "pts-id", "name": "pts"}]}


def _cost(v: float) -> list[dict]:
    return [{"name": "pts", "typeId": "pts-id", "value": v}]


def _cats(prefix: str, *names: str) -> list[dict]:
    return [{"id": f"{prefix}-cl-{n}", "name": n, "targetId": f"cat-{n.lower()}"} for n in names]


def _sheet(prefix: str, name: str, cats: tuple, profile: tuple, weapons: list, lo: int, hi: int,
           each: float, base: float = 0, rules=(), abilities=()) -> tuple[dict, list]:
    """One datasheet: a unit of ``lo`` to ``hi`` models of one profile (each ``each`` points; a
    single-model datasheet is a model entry) and the shared weapon entries it links."""
    ident = f"{prefix}-{name.lower().replace(' ', '-')}"
    shared = [{"id": f"{ident}-w{i}", "name": w["name"].lstrip("\u27a4 ").split(" - ")[0], "type": "upgrade",
               "hidden": False, "profiles": [w], "costs": _cost(0)} for i, w in enumerate(weapons)]
    wlinks = [link(s["id"], s["name"], constraints=per_parent(1, 1, f"{s['id']}-n")) for s in shared]
    extra = [ability(a) for a in abilities]
    if lo == hi == 1:
        sheet = {"id": ident, "name": name, "type": "model", "hidden": False,
                 "profiles": [stat(name, *profile, base=base or None), *extra],
                 "rules": [rule(r) for r in rules], "categoryLinks": _cats(ident, *cats),
                 "costs": _cost(each), "entryLinks": wlinks}
    else:
        model = {"id": f"{ident}-m", "name": name.rstrip("s"), "type": "model", "hidden": False,
                 "constraints": per_parent(lo, hi, f"{ident}-m"),
                 "profiles": [stat(name.rstrip("s"), *profile, base=base or None)],
                 "costs": _cost(each), "entryLinks": wlinks}
        sheet = {"id": ident, "name": name, "type": "unit", "hidden": False, "profiles": extra,
                 "rules": [rule(r) for r in rules], "categoryLinks": _cats(ident, *cats),
                 "costs": _cost(0), "selectionEntries": [model]}
    return sheet, shared


# (name, categories, M T Sv W Ld OC, weapons, min, max, points each, base mm, rules)
def _ember() -> list[tuple]:
    rifle = gun("Ember rifle", '24"', "2", "3+", "4", "0", "1")
    pistol = gun("Brand pistol", '12"', "1", "3+", "4", "0", "1", "Pistol")
    blade = gun("Ash blade", "Melee", "3", "3+", "4", "-1", "1", melee=True)
    cannon = gun("Slag mortar", '36"', "D3", "4+", "7", "-1", "2", "Blast")
    claws = gun("Molten claws", "Melee", "5", "3+", "7", "-2", "2", melee=True)
    torch = gun("Kiln torch", '12"', "D6", "N/A", "5", "-1", "1", "Torrent")
    return [
        ("Pyre Warden", ("Character", "Infantry"), ('6"', "4", "3+", "5", "6+", "1"), [pistol, blade], 1, 1, 70, 0, ()),
        ("Ash Seer", ("Character", "Infantry", "Psyker"), ('6"', "3", "5+", "4", "6+", "1"), [pistol, blade], 1, 1, 55,
         0, ()),
        ("Kiln Lord", ("Character", "Epic Hero", "Infantry"), ('6"', "5", "2+", "6", "5+", "1"), [torch, claws], 1, 1,
         110, 40, ("Feel No Pain 5+",)),
        ("Ember Guard", ("Battleline", "Infantry"), ('6"', "4", "4+", "1", "7+", "2"), [rifle, blade], 5, 10, 9, 0, ()),
        ("Soot Skirmishers", ("Battleline", "Infantry"), ('7"', "3", "5+", "1", "7+", "2"), [rifle], 5, 10, 6, 0,
         ('Scouts 6"',)),
        ("Brand Knights", ("Infantry",), ('5"', "5", "2+", "3", "6+", "1"), [pistol, blade], 3, 6, 35, 40, ()),
        ("Smoke Stalkers", ("Infantry",), ('7"', "4", "4+", "2", "7+", "1"), [rifle, blade], 5, 10, 14, 0,
         ("Infiltrators",)),
        ("Forge Crawler", ("Vehicle",), ('10"', "9", "3+", "11", "7+", "3"), [cannon, torch], 1, 1, 125, 90,
         ("Deadly Demise D3",)),
        ("Slag Walker", ("Vehicle", "Walker"), ('8"', "10", "2+", "12", "7+", "4"), [cannon, claws], 1, 1, 150, 100,
         ()),
        ("Magma Wyrm", ("Monster",), ('9"', "10", "3+", "14", "6+", "5"), [torch, claws], 1, 1, 180, 100, ()),
        ("Cinder Hounds", ("Beast",), ('10"', "4", "5+", "2", "7+", "1"), [claws], 5, 10, 12, 32, ("Scouts 6\"",)),
        ("Ash Glider", ("Vehicle", "Aircraft", "Fly"), ('20"', "9", "3+", "12", "7+", "0"), [cannon], 1, 1, 140, 120,
         ()),
        ("Ember Bastion", ("Fortification", "Vehicle"), ('-', "10", "3+", "15", "7+", "0"), [cannon], 1, 1, 90, 120,
         ()),
        ("Old Pyre Engine [Legends]", ("Vehicle",), ('8"', "9", "3+", "10", "7+", "3"), [cannon], 1, 1, 100, 90, ()),
    ]


def _glass() -> list[tuple]:
    shard = gun("Shard caster", '18"', "3", "4+", "4", "-1", "1", "Assault")
    lance = gun("Prism lance", '30"', "1", "3+", "9", "-3", "D6")
    needle = gun("Needle pistol", '9"', "1", "3+", "3", "-1", "1", "Pistol")
    edge = gun("Choir edge", "Melee", "2", "3+", "4", "-1", "1", melee=True)
    maw = gun("Resonant maw", "Melee", "4", "3+", "8", "-2", "3", melee=True)
    hymn = gun("Hymn burst", '12"', "D6", "N/A", "4", "0", "1", "Torrent")
    return [
        ("Cantor Prime", ("Character", "Infantry"), ('7"', "4", "4+", "5", "6+", "1"), [needle, edge], 1, 1, 75, 0, ()),
        ("Echo Adept", ("Character", "Infantry", "Psyker"), ('7"', "3", "5+", "4", "6+", "1"), [needle, edge], 1, 1,
         60, 0, ()),
        ("The Shattered Voice", ("Character", "Epic Hero", "Monster"), ('8"', "9", "3+", "10", "5+", "3"),
         [hymn, maw], 1, 1, 160, 80, ()),
        ("Choristers", ("Battleline", "Infantry"), ('7"', "3", "5+", "1", "7+", "2"), [shard, edge], 5, 10, 8, 0, ()),
        ("Glass Sentinels", ("Battleline", "Infantry"), ('6"', "4", "3+", "2", "7+", "2"), [shard], 5, 10, 13, 32, ()),
        ("Prism Wardens", ("Infantry",), ('6"', "5", "3+", "3", "6+", "1"), [lance, edge], 3, 6, 30, 40, ()),
        ("Splinter Dancers", ("Infantry",), ('8"', "3", "5+", "1", "7+", "1"), [needle, edge], 5, 10, 10, 0,
         ("Infiltrators",)),
        ("Resonance Engine", ("Vehicle",), ('10"', "9", "3+", "10", "7+", "3"), [lance, hymn], 1, 1, 130, 90, ()),
        ("Mirror Strider", ("Vehicle", "Walker"), ('8"', "9", "3+", "9", "7+", "3"), [lance, maw], 1, 1, 110, 80, ()),
        ("Crystal Leviathan", ("Monster",), ('8"', "11", "2+", "16", "6+", "5"), [hymn, maw], 1, 1, 210, 120, ()),
        ("Chime Swarms", ("Swarm", "Beast"), ('6"', "2", "6+", "3", "8+", "0"), [edge], 3, 6, 15, 40, ()),
        ("Shard Wing", ("Vehicle", "Aircraft", "Fly"), ('20"', "9", "3+", "12", "7+", "0"), [lance], 1, 1, 150, 120,
         ()),
    ]


def catalogue(ident: str, name: str, sheets: list[tuple]) -> dict:
    entries, shared = [], []
    for n, cats, prof, weapons, lo, hi, each, base, rules in sheets:
        base_txt = f"{base}mm" if base else 0
        s, ws = _sheet(ident, n, (*cats, f"Faction: {name}"), prof, weapons, lo, hi, each, base_txt, rules)
        entries.append(s)
        shared.extend(ws)
    return {"id": f"cat-{ident}", "name": name, "library": False, "revision": 1, "gameSystemId": "sys-test",
            "type": "catalogue",
            "categoryEntries": [{"id": f"cat-{c.lower()}", "name": c} for c in
                                ("Character", "Battleline", "Infantry", "Vehicle", "Monster", "Beast")],
            "sharedSelectionEntries": entries + shared,
            "sharedRules": [rule("Feel No Pain"), rule("Deadly Demise")],
            "entryLinks": [link(e["id"], e["name"]) for e in entries]}


FACTIONS = (("ember", "Ember Pact", _ember), ("glass", "Glass Choir", _glass))


def write(folder: str | Path) -> Path:
    """The two catalogues and the game system, as JSON, into ``folder``; returns it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for ident, name, sheets in FACTIONS:
        (folder / f"{name}.json").write_text(json.dumps({"catalogue": catalogue(ident, name, sheets())}, indent=1))
    (folder / "Test system.json").write_text(json.dumps({"gameSystem": SYSTEM}, indent=1))
    return folder

"""`sim import | datasheets | rules`: rosters and catalogues read into scenario armies, a catalogue's
datasheets listed, the rules the engine models listed."""

from __future__ import annotations

import sys

from sim.cli.shell import _err, _line
from sim.names import counted


def cmd_import(args) -> int:
    """`sim import roster FILE` / `sim import datasheet CATALOGUE NAME`: the units as one army of a
    scenario (written to --out, else printed), the import report on stdout (as comments at the
    head of the scenario too). Nothing is written unless the whole import succeeds."""
    from pathlib import Path

    from sim import importers
    from sim.errors import ImportFileError, ScenarioError
    from sim.replay.log import write_atomic
    if args.what == "datasheet" and (args.name is None):
        return _err("import datasheet: expected CATALOGUE NAME, found no datasheet name")
    if args.what == "roster" and args.name is not None:
        return _err(f"import roster: expected one FILE, found also {args.name!r}")
    if args.attach and args.what != "roster":
        return _err("--attach: expected a roster import, found a datasheet import")
    if args.skip_bad and args.what != "roster":
        return _err("--skip-bad: expected a roster import, found a datasheet import")
    if args.models is not None and (args.what != "datasheet" or not 1 <= args.models <= 200):
        return _err(f"--models: expected 1 to 200 models of a datasheet import, found {args.models}")
    try:
        if args.what == "roster":
            army, rep = importers.load_roster(args.file, args.bases, skip_bad=args.skip_bad)
            title = Path(args.file).stem
            if args.attach:  # 19.01 leaders the roster does not nest in their unit
                from sim.importers.attach import attach_units
                army = importers.Army(tuple(attach_units(army.units, rep.units, args.attach, args.file)),
                                      army.weapons, army.rules)
        else:
            army, rep = importers.load_datasheet(args.file, args.name, args.models, args.bases)
            title = args.name
        out = args.out
        text = importers.into_scenario(army, args.army, out, str(args.out or args.file), title, rep,
                                       seed=args.seed)
    except (ImportFileError, ScenarioError) as e:
        return _err(str(e))
    for e in rep.skipped:  # (--skip-bad: asked for, so a warning and exit status 0)
        print(_line(f"sim: warning: unit skipped (--skip-bad): {e}"), file=sys.stderr)
    for w in rep.army:  # (a linked catalogue missing: this unit lost nothing, else it was refused)
        if w.startswith("warning: "):
            print(_line(f"sim: {w.replace('warning: ', f'warning: {args.file}: ', 1)}"), file=sys.stderr)
    if out is None:
        print(text, end="")
        return 0
    try:
        write_atomic(out, text)
    except OSError as e:
        return _err(f"{out}: cannot write the scenario: {e.strerror or e}")
    print(_line(f"{out}: {args.army} army: {len(army.units)} units, "
                f"{sum(m.count for u in army.units for m in u.models)} models"))
    for line in rep.text().splitlines():
        print(_line(line))
    return 0


_STAT_NAMES = {"m": "M", "t": "T", "sv": "Sv", "w": "W", "ld": "Ld", "oc": "OC", "insv": "InSv",
               "base size": "Base", "base": "Base"}


def cmd_datasheets(args) -> int:
    """`sim datasheets CATALOGUE`: its datasheets as printed. What the catalogue loses to a linked
    catalogue missing from its folder is said once, first, on standard error; exit status 1 when
    datasheets are lost. `--coverage FOLDER`: every catalogue of the folder imported datasheet by
    datasheet (sim.importers.coverage), a table of listed / imported / refused and the reasons."""
    from sim import importers
    from sim.errors import ImportFileError
    if args.coverage is not None:
        if args.catalogue is not None:
            return _err(f"datasheets --coverage FOLDER: expected no CATALOGUE, found {args.catalogue!r}")
        return _coverage(args.coverage, args.search or "", args.json)
    if args.json:
        return _err("datasheets --json: expected --coverage FOLDER with it, found a CATALOGUE listing")
    if args.catalogue is None:
        return _err("datasheets: expected CATALOGUE (or --coverage FOLDER), found neither")
    notes: dict = {}
    try:
        sheets = importers.list_datasheets(args.catalogue, args.search or "", notes=notes)
    except ImportFileError as e:
        return _err(str(e))
    for w in notes.get("warnings", ()):
        print(_line(f"sim: warning: {args.catalogue}: {w}"), file=sys.stderr)
    for s in sheets:
        pts = f", {s['points']:g} pts" if s["points"] else ""
        print(_line(f"{s['name']} ({s['type']}{pts})"))
        for name, c in s["stats"].items():
            stat = " ".join(f"{_STAT_NAMES.get(k, k)} {v}" for k, v in c.items() if v)
            print(_line(f"  {name}: {stat}"))
        for (kind, name), c in s["weapons"].items():
            stat = " ".join(f"{k.upper() if len(k) <= 2 else k.capitalize()} {v}" for k, v in c.items()
                            if v and k != "keywords")
            kw = c.get("keywords", "")
            print(_line(f"  {kind}: {name}: {stat}" + (f" [{kw}]" if kw and kw not in ("-",) else "")))
        if s["abilities"]:
            print(_line("  abilities: " + ", ".join(s["abilities"])))
        if s["refused"]:  # (Part A ruling 28: `sim import datasheet` refuses it)
            print(_line(f"  refused: {s['refused']}"))
    print(counted(len(sheets), "datasheet"))
    return 1 if notes.get("lost") else 0


def cmd_rules(args) -> int:
    """`sim rules`: every rule the engine models (sim.rules.effects.table): its key (what a
    scenario's ``rules`` writes), name, source, faction and one-line summary; ``--faction``
    keeps one faction's (and the rules of no faction); ``--json`` for machines."""
    import json

    from sim.rules.abilities.value import norm
    from sim.rules.effects import table
    recs = list(table.records())
    if args.faction:
        want = norm(args.faction)
        factions = sorted({r.faction for r in recs if r.faction})
        if not any(want in norm(f) for f in factions):
            return _err(f"rules --faction: expected a faction of the modelled rules ({', '.join(factions)}), "
                        f"found {args.faction!r}")
        recs = [r for r in recs if not r.faction or want in norm(r.faction)]
    from sim.rules.effects.words import grant_words
    rows = [{"key": r.key, "name": r.name, "names": list(r.names), "source": r.source, "faction": r.faction,
             "detachment": r.detachment, "summary": r.summary, "effects": [grant_words(g) for g in r.grants],
             "partial": r.partial} for r in recs]
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    for r in rows:
        where = r["source"] + (f", {r['faction']}" if r["faction"] else "") + \
            (f", detachment {r['detachment']}" if r["detachment"] else "")
        print(_line(f"{r['key']}: {r['name']} ({where})"))
        print(_line(f"  {r['summary']}"))
        if r["partial"]:
            print(_line(f"  not modelled: {r['partial']}"))
    print(counted(len(rows), "modelled rule"))
    return 0


def _coverage(folder: str, only: str, as_json: bool = False) -> int:
    import json
    import os
    import time

    from sim.importers.coverage import as_dict, cover, rules_table, table
    if not os.path.isdir(folder):
        return _err(f"{folder}: expected a folder of catalogues, found {'a file' if os.path.exists(folder) else 'nothing'}")
    t0 = time.perf_counter()
    results = cover(folder, only)
    if not results:
        return _err(f"{folder}: expected catalogue files (.cat, .catz, .json), found none")
    if as_json:
        print(json.dumps(as_dict(results), indent=1, ensure_ascii=False))
        return 0
    print(table(results))
    print()
    print(rules_table(results))
    print(f"({counted(len(results), 'catalogue')} in {time.perf_counter() - t0:.1f} s)")
    return 0

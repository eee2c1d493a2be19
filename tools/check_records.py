"""Check the rule records (sim.rules.effects.records) against a folder of community catalogues
(BSData JSON, e.g. /tmp/bsdata11e). Local tool, not run by CI (the data is not in the repository).

    PYTHONPATH=. python tools/check_records.py /tmp/bsdata11e [--list]

It reports

* **copying**: any record whose summary, partial or choice prompt shares a run of 8 or more
  consecutive words with any description in the data (our records must be our own words; names,
  numbers and keywords are fine, prose is not);
* **ids**: record ids the data does not hold, and records whose printed names match none of the
  names the data gives those ids;
* **instances**: every (catalogue, datasheet, ability) listing of the data (an ability counted
  once per datasheet listing, libraries included), how many a record covers (by id, else by
  name), how many are core abilities the engine parses (sim.rules.abilities), and the most
  frequent abilities left (``--list``: all of them).

Exit status 1 if any copying or unknown id is found."""

from __future__ import annotations

import glob
import json
import os
import re
import sys
from collections import Counter

RUN = 8


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def shared_run(ours: str, theirs: str, n: int = RUN) -> str | None:
    """The first run of ``n`` consecutive words of ``ours`` found in ``theirs`` (None: none)."""
    a, b = _words(ours), _words(theirs)
    grams = {tuple(b[i:i + n]) for i in range(len(b) - n + 1)}
    for i in range(len(a) - n + 1):
        if tuple(a[i:i + n]) in grams:
            return " ".join(a[i:i + n])
    return None


def _index(folder: str) -> dict[str, tuple[str, str]]:
    """Every node with an id and some text: id -> (name, text)."""
    out: dict[str, tuple[str, str]] = {}

    def walk(n):
        if isinstance(n, dict):
            i = n.get("id")
            text = n.get("description") or " ".join(c.get("$text", "") for c in n.get("characteristics", ()) or ())
            if i and (text or n.get("name")):
                name, old = out.get(i, ("", ""))
                out[i] = (name or n.get("name", ""), old if len(old) >= len(text or "") else text)
            for v in n.values():
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)

    for f in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(f, encoding="utf-8") as fh:
            walk(json.load(fh))
    return out


def _grams(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    w = _words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def check_text(records, index) -> tuple[list[str], list[str]]:
    """Copying is checked against every text of the data (a record's options have no ids of their
    own, and one rule's prose may sit under another's id); ids and names against the record's ids."""
    from sim.rules.abilities.value import norm
    copied, unknown = [], []
    every: set = set()
    for _, text in index.values():
        every |= _grams(text)
    for r in records:
        ours = [r.summary, r.partial] + ([r.choice.prompt] if r.choice else [])
        for o in ours:
            hits = _grams(o) & every
            if hits:
                copied.append(f"{r.key}: '{' '.join(min(hits))}'")
        missing = [i for i in r.ids if i not in index]
        if missing:
            unknown.append(f"{r.key}: ids not in the data: {', '.join(missing)}")
        data_names = {norm(re.sub(r"[\^*]", "", index[i][0])) for i in r.ids if i in index}
        if data_names and not data_names & {norm(n) for n in r.names}:
            unknown.append(f"{r.key}: names {r.names} match none of the data's {sorted(data_names)}")
    return copied, unknown


def _abilities(cat, entry, B) -> list[tuple[str, str]]:
    """(name, id) of the rules and ability profiles a datasheet and its models carry."""
    out, stack, seen = [], [entry], set()
    while stack:
        e = stack.pop()
        if e.get("id") in seen or B.flag(e, "hidden"):
            continue
        seen.add(e.get("id"))
        if e is entry or e.get("type") == "model":
            acc: list = []
            _info(cat, e, acc, {id(e)}, B)
            out += acc
        ents, groups = cat.children(e)
        stack.extend(reversed(ents + groups))
    return out


def _info(cat, node, acc, opened, B) -> None:
    for p in B.items(node, "profiles"):
        if B.profile_kind(p) not in (B.STAT_TYPE, B.RANGED, B.MELEE):
            acc.append((B.clean_name(p.get("name", "")), p.get("id", "")))
    for r in B.items(node, "rules"):
        acc.append((r.get("name", ""), r.get("id", "")))
    for g in B.items(node, "infoGroups"):
        if id(g) not in opened:
            opened.add(id(g))
            _info(cat, g, acc, opened, B)
    for link in B.items(node, "infoLinks"):
        t = cat.index.get(link.get("targetId"))
        if t is None:
            acc.append((link.get("name", ""), link.get("targetId", "")))
        elif link.get("type") == "infoGroup":
            if id(t) not in opened:
                opened.add(id(t))
                _info(cat, t, acc, opened, B)
        elif link.get("type") == "profile" and B.profile_kind(t) in (B.STAT_TYPE, B.RANGED, B.MELEE):
            continue
        else:
            name = cat._rule_name(link, t, None, None) if link.get("type") == "rule" else ""
            acc.append((name or link.get("name") or t.get("name", ""), t.get("id", "")))


def instances(folder: str, show_all: bool) -> None:
    from sim.importers import bsdata as B
    from sim.importers.catalogue import Catalogue
    from sim.rules.abilities.parse import parse_unit_abilities, parse_weapon_abilities
    from sim.rules.effects import table

    def core(name: str) -> bool:
        for parse in (parse_unit_abilities, parse_weapon_abilities):
            try:
                parse(name, "x")
                return True
            except Exception:
                pass
        return False

    total = by_record = by_core = 0
    left: Counter = Counter()
    per_record: Counter = Counter()
    files = [f for f in sorted(glob.glob(os.path.join(folder, "*.json"))) if not f.endswith("Warhammer 40,000.json")]
    for f in files:
        try:
            cat = Catalogue(f)
            sheets = cat.datasheets()
        except Exception as e:  # a file that is no catalogue, or one that fails to read
            print(f"skipped {os.path.basename(f)}: {type(e).__name__}", file=sys.stderr)
            continue
        for entry in sheets:
            seen = {}
            for name, i in _abilities(cat, entry, B):
                seen.setdefault(name.casefold(), []).append((name, i))
            for key, hits in seen.items():
                total += 1
                rec = next((table.lookup(ids=(i,)) for _, i in hits if table.lookup(ids=(i,))), None)
                name = hits[0][0]
                if rec is not None:
                    by_record += 1
                    per_record[rec.key] += 1
                elif core(name):
                    by_core += 1
                else:
                    left[name] += 1
    pct = lambda n: f"{100 * n / total:.1f}%" if total else "-"
    print(f"instances: {total}; by a record: {by_record} ({pct(by_record)}); core abilities: {by_core} "
          f"({pct(by_core)}); together: {by_record + by_core} ({pct(by_record + by_core)})")
    unused = [r.key for r in table.records() if r.ids and not per_record[r.key]]
    print(f"records with ids that cover no listing: {len(unused)} {unused[:20]}")
    print("most frequent abilities left:")
    for name, n in left.most_common(None if show_all else 40):
        print(f"  {n:5d}  {name}")


def main(argv: list[str]) -> int:
    if not argv or not os.path.isdir(argv[0]):
        print("usage: check_records.py FOLDER [--list]", file=sys.stderr)
        return 2
    from sim.rules.effects import table
    index = _index(argv[0])
    copied, unknown = check_text(table.records(), index)
    print(f"records: {len(table.records())}; copied runs of {RUN}+ words: {len(copied)}; id problems: {len(unknown)}")
    for line in copied + unknown:
        print("  " + line)
    instances(argv[0], "--list" in argv)
    return 1 if copied or any("not in the data" in u for u in unknown) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

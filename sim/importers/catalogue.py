"""Catalogue -> datasheets. A catalogue (``.cat``/``.catz``, or the JSON form the 11th-edition
data repository publishes) holds datasheets as selection entries: inline, or shared
(``sharedSelectionEntries``, ``sharedSelectionEntryGroups``, ``sharedProfiles``, ``sharedRules``)
and reached through entry links and info links, possibly in a library catalogue it links to.

* Links are resolved by id, first in the file, then in the catalogues it links to and its game
  system when they lie beside it (found by the link's name with .cat, .catz or .json, or for the
  game system the .gst/.gstz or JSON file whose root is a gameSystem); a link whose target is
  found nowhere is named in the report. A link's own constraints, modifiers, costs, categories
  and children are added to its target's.
* The default unit (``sim import datasheet``) takes every entry the catalogue makes compulsory
  (a "min" constraint on selections, per parent, or a defaultAmount), and in a group with a
  minimum the group's default entry (or its first), with the minimum number of models unless
  ``--models N`` says otherwise (extra models go to the entry with the most room).
* Modifiers (and modifier groups) are applied when their conditions can be decided from the
  unit itself (selections counted within the entry, its parent, the unit or the model): set,
  increment, decrement and append on a characteristic, a name (Deadly Demise + "D3"), a cost, a
  category, hidden. A modifier whose condition depends on the roster or force (a detachment, the
  battle size) is not applied, and the report says so when it would change a characteristic or
  a name.
* The result is the same kind of selection tree a roster holds, assembled by
  sim.importers.roster.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from sim.importers import bsdata as B
from sim.importers.source import read_document

MAX_NODES = 20_000  # entries visited for one datasheet (a cycle of links stops here)
MAX_MODELS = 200


@dataclass
class Inst:
    """One entry chosen ``count`` times in all (for every copy of its parents)."""

    entry: dict
    count: int
    parent: "Inst | None" = None
    children: list["Inst"] = field(default_factory=list)
    hidden: bool = False
    name: str = ""
    points: float = 0.0


class Catalogue:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.file = str(path)
        root, doc = read_document(path, ("catalogue", "gameSystem"))
        self.root, self.doc = root, doc
        self.index: dict[str, dict] = {}
        self.missing: list[str] = []
        self.linked: list[dict] = []  # catalogues whose root entries are imported
        self._index(doc)
        self._load_links()

    # --- ids --------------------------------------------------------------------------------------
    def _index(self, doc: dict) -> None:
        stack = [doc]
        while stack:
            d = stack.pop()
            for k, v in d.items():
                if isinstance(v, list):
                    for x in v:
                        if isinstance(x, dict):
                            i = x.get("id")
                            if isinstance(i, str) and "targetId" not in x and i not in self.index:
                                self.index[i] = x
                            stack.append(x)
                elif isinstance(v, dict):
                    stack.append(v)

    def _load_links(self) -> None:
        folder = self.path.parent
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            names = []
        for link in B.items(self.doc, "catalogueLinks"):
            lname = B.text(link, "name")
            found = None
            for ext in (".cat", ".catz", ".json"):
                if lname + ext in names:
                    found = folder / (lname + ext)
                    break
            if found is None:
                self.missing.append(f"catalogue {lname!r}")
                continue
            _, d = read_document(found, ("catalogue",))
            self._index(d)
            if B.flag(link, "importRootEntries"):
                self.linked.append(d)
        if self.root == "catalogue":
            gst = None
            for n in names:
                p = folder / n
                if n.lower().endswith((".gst", ".gstz")):
                    gst = p
                elif n.lower().endswith(".json") and p != self.path:
                    try:
                        with open(p, "rb") as f:
                            head = f.read(64)
                    except OSError:
                        continue
                    if b'"gameSystem"' in head:
                        gst = p
                if gst is not None:
                    break
            if gst is not None:
                _, d = read_document(gst, ("gameSystem",))
                self._index(d)
            else:
                self.missing.append("the game system file")

    # --- entries ----------------------------------------------------------------------------------
    def resolve(self, node: dict) -> dict | None:
        """An entry or group with a link's additions; None for a link to nothing."""
        tid = node.get("targetId")
        if not isinstance(tid, str):
            return node
        target = self.index.get(tid)
        if target is None:
            name = B.text(node, "name")
            if f"entry {name!r}" not in self.missing:
                self.missing.append(f"entry {name!r}")
            return None
        out = dict(target)
        for key in ("constraints", "modifiers", "modifierGroups", "categoryLinks", "entryLinks", "selectionEntries",
                    "selectionEntryGroups", "profiles", "infoLinks", "rules"):
            extra = B.items(node, key)
            if extra:
                out[key] = B.items(target, key) + extra
        if B.items(node, "costs"):
            costs = {B.text(c, "typeId") or B.text(c, "name"): c for c in B.items(target, "costs")}
            costs.update({B.text(c, "typeId") or B.text(c, "name"): c for c in B.items(node, "costs")})
            out["costs"] = list(costs.values())
        out["hidden"] = B.flag(node, "hidden") or B.flag(target, "hidden")
        out["_ids"] = {B.text(node, "id"), tid, B.text(target, "id")}
        return out

    def children(self, entry: dict) -> tuple[list[dict], list[dict]]:
        """(entries, groups) directly inside an entry or group, resolved."""
        entries = list(B.items(entry, "selectionEntries"))
        groups = list(B.items(entry, "selectionEntryGroups"))
        for link in B.items(entry, "entryLinks"):
            r = self.resolve(link)
            if r is None:
                continue
            (groups if B.text(link, "type") == "selectionEntryGroup" else entries).append(r)
        return entries, groups

    def datasheets(self) -> list[dict]:
        """Every unit the catalogue offers at its root (and its linked catalogues' root entries
        when it imports them), resolved, hidden ones left out, first of a name kept."""
        out, seen = [], set()
        for doc in [self.doc, *self.linked]:
            for node in B.items(doc, "entryLinks") + B.items(doc, "selectionEntries"):
                e = self.resolve(node)
                if e is None or B.flag(e, "hidden") or B.text(e, "type") not in ("unit", "model"):
                    continue
                name = B.clean_name(B.text(e, "name"))
                if name and name.casefold() not in seen:
                    seen.add(name.casefold())
                    out.append(e)
        return out

    def find(self, name: str) -> dict:
        sheets = self.datasheets()
        want = B.norm(name)
        exact = [e for e in sheets if B.norm(B.text(e, "name")) == want]
        if exact:
            return exact[0]
        part = [e for e in sheets if want and want in B.norm(B.text(e, "name"))]
        if len(part) == 1:
            return part[0]
        import difflib
        names = [B.clean_name(B.text(e, "name")) for e in sheets]
        close = part and [B.clean_name(B.text(e, "name")) for e in part][:5] or difflib.get_close_matches(name, names, 3)
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        raise B.where_error(self.file, "datasheets", B.Bad(
            f"the name of a datasheet in the catalogue{hint}", repr(name[:60])))

    # --- profiles and rules of an entry ------------------------------------------------------------
    def profiles(self, entry: dict) -> list[dict]:
        out = list(B.items(entry, "profiles"))
        for link in B.items(entry, "infoLinks"):
            kind = B.text(link, "type")
            if kind == "profile":
                t = self.index.get(B.text(link, "targetId"))
                if t is None:
                    self.missing.append(f"profile {B.text(link, 'name')!r}")
                else:
                    out.append(t)
            elif kind == "infoGroup":
                t = self.index.get(B.text(link, "targetId"))
                if t is not None:
                    out.extend(self.profiles(t))
        return out

    def rules(self, entry: dict, inst: Inst | None = None, notes: list | None = None) -> list[str]:
        """The names of the rules an entry has (own rules, and info links to rules, with the
        link's name modifiers applied: "Deadly Demise" + "D3")."""
        out = [B.text(r, "name") for r in B.items(entry, "rules")]
        for link in B.items(entry, "infoLinks"):
            kind = B.text(link, "type")
            if kind == "rule":
                name = B.text(link, "name") or B.text(self.index.get(B.text(link, "targetId"), {}), "name")
                for mod, conds in _modifiers(link):
                    if B.text(mod, "field") == "name":
                        ok = self._holds(conds, inst) if inst is not None else (True if not conds else None)
                        if ok:
                            name = _apply_text(name, mod)
                        elif ok is None and notes is not None:
                            notes.append(f"rule {name!r}: a name modifier with a roster or force condition not applied")
                out.append(name)
            elif kind == "infoGroup":
                t = self.index.get(B.text(link, "targetId"))
                if t is not None:
                    out.extend(self.rules(t, inst, notes))
        return [n for n in out if n]

    # --- the default unit --------------------------------------------------------------------------
    def build(self, entry: dict, models: int | None = None) -> tuple[dict, list[str]]:
        """The datasheet's default selection tree (roster-like) and the notes for the report."""
        notes: list[str] = []
        self._nodes = 0
        root = self._build(entry, 1, None, [])
        slots = [i for i in _walk(root) if B.text(i.entry, "type") == "model" and i is not root]
        if models is not None:
            self._resize(root, slots, models, entry)
        self._evaluate(root, notes)
        return self._selection(root, notes), notes

    def _build(self, entry: dict, count: int, parent: Inst | None, path: list[str]) -> Inst:
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise B.where_error(self.file, B.text(entry, "name")[:60], B.Bad(
                f"a datasheet of at most {MAX_NODES:,} entries", "more (a cycle of links?)"))
        inst = Inst(entry, count, parent, name=B.clean_name(B.text(entry, "name")))
        key = B.text(entry, "id")
        if key in path:
            return inst
        path = path + [key]
        entries, groups = self.children(entry)
        for e in entries:
            if B.flag(e, "hidden"):
                continue
            n = _default(e)
            if n:
                inst.children.append(self._build(e, n * count, inst, path))
        for g in groups:
            if not B.flag(g, "hidden"):
                self._group(g, inst, count, path)
        return inst

    def _group(self, g: dict, inst: Inst, count: int, path: list[str]) -> None:
        entries, groups = self.children(g)
        entries = [e for e in entries if not B.flag(e, "hidden")]
        picks = {id(e): _default(e) for e in entries}
        need = _bound(g, "min") or 0
        have = sum(picks.values())
        if have < need and entries:
            want = B.text(g, "defaultSelectionEntryId")
            pick = next((e for e in entries if want and (want in e.get("_ids", ()) or want == B.text(e, "id"))), entries[0])
            picks[id(pick)] += need - have
        for e in entries:
            if picks[id(e)]:
                inst.children.append(self._build(e, picks[id(e)] * count, inst, path))
        for sub in groups:
            if not B.flag(sub, "hidden"):
                self._group(sub, inst, count, path)

    def _resize(self, root: Inst, slots: list[Inst], n: int, entry: dict) -> None:
        if not slots:  # a single-model datasheet
            if n != 1 and B.text(entry, "type") == "model":
                raise B.where_error(self.file, "--models", B.Bad("1 (a single-model datasheet)", str(n)))
            return
        have = sum(s.count for s in slots)
        if n < have:
            raise B.where_error(self.file, "--models", B.Bad(f"at least {have} models (its compulsory models)", str(n)))
        room = {id(s): (_bound(s.entry, "max") or MAX_MODELS) - s.count for s in slots}
        extra = n - have
        for s in sorted(slots, key=lambda s: -room[id(s)]):
            add = min(extra, max(room[id(s)], 0))
            if add:
                _scale(s, s.count + add)
                extra -= add
        if extra:
            raise B.where_error(self.file, "--models", B.Bad(f"at most {n - extra} models", str(n)))

    # --- modifiers ---------------------------------------------------------------------------------
    def _evaluate(self, root: Inst, notes: list[str]) -> None:
        unknown_cost = 0
        for inst in _walk(root):
            inst.points = B.pts(inst.entry)
            inst.props = {}  # characteristic typeId -> value text (set by modifiers)
            inst.extra_categories, inst.removed_categories = [], []
        for inst in _walk(root):
            for mod, conds in _modifiers(inst.entry):
                fld, kind = B.text(mod, "field"), B.text(mod, "type")
                ok = self._holds(conds, inst)
                times = self._repeats(mod, inst)
                if ok is None or times is None:
                    if self._is_characteristic(fld) or fld == "name":
                        notes.append(f"{inst.name!r}: a modifier of {self._field_name(fld)} with a roster or force "
                                     "condition not applied")
                    elif _is_pts(fld, inst.entry):
                        unknown_cost += 1
                    continue
                if not ok:
                    continue
                if fld == "hidden":
                    inst.hidden = B.flag(mod, "value") if kind == "set" else inst.hidden
                elif fld == "name":
                    inst.name = _apply_text(inst.name, mod)
                elif fld == "category":
                    cat = self.index.get(B.text(mod, "value"), {})
                    (inst.extra_categories if kind in ("add", "set-primary") else
                     inst.removed_categories if kind in ("remove", "unset-primary") else []).append(B.text(cat, "name"))
                elif _is_pts(fld, inst.entry):
                    v = B.number(mod, "value", 0.0) or 0.0
                    inst.points = v if kind == "set" else inst.points + v * times if kind == "increment" else \
                        inst.points - v * times if kind == "decrement" else inst.points
                elif self._is_characteristic(fld):
                    targets = [inst] + (list(_walk(inst))[1:] if "recursive" in B.text(mod, "affects")
                                        or B.text(mod, "scope") == "root-entry" else [])
                    for t in targets:
                        t.props[fld] = _apply_char(t.props.get(fld), fld, mod, times, self._char_value(t, fld))
        if unknown_cost:
            notes.append(f"points: {unknown_cost} cost modifier(s) with a roster or force condition not applied")

    def _is_characteristic(self, fld: str) -> bool:
        return bool(fld) and fld in self._char_types()

    def _char_types(self) -> dict[str, str]:
        if not hasattr(self, "_chars"):
            self._chars = {}
            for d in self.index.values():
                for c in B.items(d, "characteristics"):
                    if B.text(c, "typeId"):
                        self._chars.setdefault(B.text(c, "typeId"), B.text(c, "name"))
                for c in B.items(d, "characteristicTypes"):
                    self._chars.setdefault(B.text(c, "id"), B.text(c, "name"))
        return self._chars

    def _field_name(self, fld: str) -> str:
        return self._char_types().get(fld, fld) if fld != "name" else "its name"

    def _char_value(self, inst: Inst, fld: str) -> str | None:
        for p in self.profiles(inst.entry):
            for c in B.items(p, "characteristics"):
                if B.text(c, "typeId") == fld:
                    return B.text(c, "$text")
        return None

    def _holds(self, conds: list[tuple[str, dict]], inst: Inst | None):
        """True, False, or None when a condition cannot be decided from the unit."""
        result = True
        for kind, c in conds:
            if kind == "group":
                sub = [self._holds([x], inst) for x in _group_members(c)]
                t = B.text(c, "type")
                if t == "or":
                    v = True if True in sub else (None if None in sub else False)
                else:
                    v = False if False in sub else (None if None in sub else True)
            else:
                v = self._condition(c, inst)
            if v is False:
                return False
            if v is None:
                result = None
        return result

    def _condition(self, c: dict, inst: Inst | None):
        if inst is None or B.text(c, "field") != "selections":
            return None
        scope = self._scope(B.text(c, "scope"), inst)
        if scope is None:
            return None
        n = _count_of(scope, B.text(c, "childId"))
        v = B.number(c, "value", 0.0) or 0.0
        t = B.text(c, "type")
        return {"atLeast": n >= v, "atMost": n <= v, "greaterThan": n > v, "lessThan": n < v, "equalTo": n == v,
                "instanceOf": None, "notInstanceOf": None}.get(t, None) if t not in ("instanceOf", "notInstanceOf") \
            else None

    def _scope(self, scope: str, inst: Inst):
        if scope in ("self", ""):
            return inst
        if scope == "parent":
            return inst.parent
        if scope in ("unit", "root-entry"):
            while inst.parent is not None:
                inst = inst.parent
            return inst
        if scope in ("model", "model-or-unit"):
            x = inst
            while x is not None and B.text(x.entry, "type") != "model":
                x = x.parent
            return x if x is not None else (self._scope("unit", inst) if scope == "model-or-unit" else None)
        x = inst  # an entry id
        while x is not None:
            if scope in x.entry.get("_ids", ()) or scope == B.text(x.entry, "id"):
                return x
            x = x.parent
        return None

    def _repeats(self, mod: dict, inst: Inst):
        reps = B.items(mod, "repeats")
        if not reps:
            return 1
        total = 0
        for r in reps:
            if B.text(r, "field") != "selections":
                return None
            scope = self._scope(B.text(r, "scope"), inst)
            if scope is None:
                return None
            per = B.number(r, "value", 1.0) or 1.0
            n = _count_of(scope, B.text(r, "childId")) / per
            total += int(math.ceil(n) if B.flag(r, "roundUp") else math.floor(n)) * int(B.number(r, "repeats", 1.0) or 1)
        return total

    # --- to a roster-like selection ------------------------------------------------------------------
    def _selection(self, inst: Inst, notes: list[str]) -> dict:
        profiles = []
        for p in self.profiles(inst.entry):
            chars = []
            for c in B.items(p, "characteristics"):
                tid = B.text(c, "typeId")
                val = inst.props.get(tid) if tid in getattr(inst, "props", {}) else B.text(c, "$text")
                chars.append({"name": B.text(c, "name"), "$text": val if val is not None else ""})
            profiles.append({"name": B.text(p, "name"), "typeName": B.text(p, "typeName"), "characteristics": chars})
        cats = [B.text(c, "name") or B.text(self.index.get(B.text(c, "targetId"), {}), "name")
                for c in B.items(inst.entry, "categoryLinks")]
        cats = [c for c in cats + inst.extra_categories if c and c not in inst.removed_categories]
        kids = [self._selection(c, notes) for c in inst.children if not c.hidden]
        return {"name": inst.name, "type": B.text(inst.entry, "type") or "upgrade", "number": inst.count,
                "profiles": profiles, "rules": [{"name": n} for n in self.rules(inst.entry, inst, notes)],
                "categories": [{"name": c} for c in dict.fromkeys(cats)],
                "costs": [{"name": "pts", "value": inst.points * (inst.count if inst.parent is not None else 1)}],
                "selections": kids}

    # --- listing -----------------------------------------------------------------------------------
    def summary(self, entry: dict) -> dict:
        """What `sim datasheets` prints of one datasheet: its statlines and weapons as printed (every
        option, not only the default), points, the names of its abilities, and ``refused``: why
        its unit cannot be imported into this version (Part A ruling 28, sim.rules.scope: an
        AIRCRAFT category on it or one of its models), else None."""
        from sim.rules import scope
        stats, weapons, abilities, cats = {}, {}, [], []
        seen: set[str] = set()
        stack, n = [entry], 0
        while stack and n < MAX_NODES:
            e = stack.pop()
            n += 1
            key = B.text(e, "id")
            if key in seen:
                continue
            seen.add(key)
            if B.flag(e, "hidden"):
                continue
            # abilities: the datasheet's and its models' (not those of options: enhancements,
            # campaign upgrades); statlines and weapons: every option
            own = e is entry or B.text(e, "type") == "model"
            for p in self.profiles(e):
                kind = B.profile_kind(p)
                pname = B.clean_name(B.text(p, "name"))
                if kind == B.STAT_TYPE:
                    stats.setdefault(pname, B.characteristics(p))
                elif kind in (B.RANGED, B.MELEE):
                    weapons.setdefault((kind, pname), B.characteristics(p))
                elif own and pname not in abilities:
                    abilities.append(pname)
            for r in self.rules(e) if own else ():
                if r not in abilities:
                    abilities.append(r)
            if own:
                cats += [B.text(c, "name") or B.text(self.index.get(B.text(c, "targetId"), {}), "name")
                         for c in B.items(e, "categoryLinks")]
            entries, groups = self.children(e)
            stack.extend(reversed(entries + groups))
        return {"name": B.clean_name(B.text(entry, "name")), "type": B.text(entry, "type"),
                "points": B.pts(entry), "stats": stats, "weapons": weapons, "abilities": abilities,
                "refused": scope.refusal(c for c in cats if c and not B.is_faction(c))}


def _walk(inst: Inst):
    stack = [inst]
    while stack:
        i = stack.pop()
        yield i
        stack.extend(reversed(i.children))


def _scale(inst: Inst, count: int) -> None:
    """The entry chosen ``count`` times in all; what each copy holds, likewise."""
    old = inst.count
    inst.count = count
    for c in inst.children:
        _scale(c, c.count * count // old if old else c.count)


def _bound(entry: dict, kind: str) -> int | None:
    """The entry's own min or max on selections per parent, after its unconditional modifiers."""
    vals = {}
    for c in B.items(entry, "constraints"):
        if B.text(c, "type") == kind and B.text(c, "field") == "selections" and B.text(c, "scope") in ("parent", ""):
            vals[B.text(c, "id")] = B.number(c, "value", 0.0) or 0.0
    if not vals:
        return None
    for mod, conds in _modifiers(entry):
        cid = B.text(mod, "field")
        if cid in vals and not conds and not B.items(mod, "repeats"):
            v = B.number(mod, "value", 0.0) or 0.0
            t = B.text(mod, "type")
            vals[cid] = v if t == "set" else vals[cid] + v if t == "increment" else vals[cid] - v if t == "decrement" \
                else vals[cid]
    v = max(vals.values()) if kind == "min" else min(vals.values())
    return int(v) if v >= 0 else None


def _default(entry: dict) -> int:
    n = _bound(entry, "min") or 0
    d = B.number(entry, "defaultAmount")
    if d is not None and d == int(d) and 0 <= d <= MAX_MODELS:
        n = max(n, int(d))
    return n


def _modifiers(entry: dict):
    """(modifier, conditions) of an entry: its own, and those of its modifier groups (nested),
    each with the conditions of the groups it is in."""
    out = []
    stack = [(entry, [])]
    while stack:
        holder, inherited = stack.pop()
        for m in B.items(holder, "modifiers"):
            out.append((m, inherited + _conds(m)))
        for g in B.items(holder, "modifierGroups"):
            stack.append((g, inherited + _conds(g)))
    return out


def _conds(d: dict) -> list[tuple[str, dict]]:
    return [("one", c) for c in B.items(d, "conditions")] + [("group", g) for g in B.items(d, "conditionGroups")]


def _group_members(g: dict) -> list[tuple[str, dict]]:
    return _conds(g)


def _count_of(scope: Inst, child: str) -> int:
    total = 0
    for i in _walk(scope):
        if i is scope:
            continue
        t = B.text(i.entry, "type")
        if child in (t, ) or child in i.entry.get("_ids", ()) or child == B.text(i.entry, "id"):
            total += i.count
    return total


def _is_pts(fld: str, entry: dict) -> bool:
    return fld in ("51b2-306e-1021-d207", "points") or any(
        B.text(c, "typeId") == fld and B.text(c, "name").casefold() in B.PTS for c in B.items(entry, "costs"))


def _apply_text(name: str, mod: dict) -> str:
    v = B.text(mod, "value")
    t = B.text(mod, "type")
    if t == "append":
        return f"{name} {v}".strip()
    if t == "set":
        return v
    return name


def _apply_char(current: str | None, fld: str, mod: dict, times: int, base: str | None) -> str | None:
    value = current if current is not None else base
    t = B.text(mod, "type")
    v = B.text(mod, "value")
    if t == "set":
        return v
    if t == "append":
        return f"{value or ''} {v}".strip()
    if t in ("increment", "decrement") and value is not None:
        import re
        m = re.match(r"^(\D*)(\d+)(.*)$", value.strip())
        step = B.number(mod, "value", 0.0) or 0.0
        if m:
            n = int(m.group(2)) + int(step * times) * (1 if t == "increment" else -1)
            return f"{m.group(1)}{max(n, 0)}{m.group(3)}"
    return value

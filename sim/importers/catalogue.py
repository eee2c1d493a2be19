"""Catalogue -> datasheets. A catalogue (``.cat``/``.catz``, or the JSON form the 11th-edition
data repository publishes) holds datasheets as selection entries: inline, or shared
(``sharedSelectionEntries``, ``sharedSelectionEntryGroups``, ``sharedProfiles``, ``sharedRules``)
and reached through entry links and info links, possibly in a library catalogue it links to.

* The catalogues it links are found by id in its folder, their own links followed, and the game
  system read (sim.importers.library); a catalogue found nowhere is reported once, with the
  links and datasheets it takes with it (:meth:`Catalogue.warnings`). Links to entries,
  profiles and rules are resolved by id in all of them; a link's own constraints, modifiers,
  costs, categories and children are added to its target's. A datasheet one of whose links
  points to nothing is refused, naming what is lost.
* The default unit (``sim import datasheet``) takes every entry the catalogue makes compulsory
  (a "min" constraint on selections, per parent, or a defaultAmount), and in a group with a
  minimum the group's default entry (or its first), with the minimum number of models unless
  ``--models N`` says otherwise (extra models go to the entry with the most room).
* Modifiers (and modifier groups) are decided for the unit alone in its force
  (sim.importers.conditions): hidden rules and profiles (a detachment's rules, while no
  detachment is chosen) are left out, names follow; characteristics, categories and points
  change only where the unit itself decides them, and the report says when a modifier of a
  characteristic or a name was not applied. The "from the Nth copy" surcharges
  (``localConditionGroups``) never apply to a unit alone.
* Rules and ability profiles keep the community data's ids (the rule's or profile's own, an
  info link's target and id), by which the rules table (sim.rules.effects.table) finds their
  records; those hidden only by a condition of the roster (a detachment chosen) are kept aside
  for the report ("held": modelled when the data's condition holds). The catalogue's
  detachments and their rules are listed by name (:meth:`Catalogue.detachment_rules`).
* The result is the same kind of selection tree a roster holds, assembled by
  sim.importers.roster.
"""
from __future__ import annotations

import re
from pathlib import Path

from sim.importers import bsdata as B
from sim.importers.conditions import ALONE, STRICT, Conditions, Inst, conds, modifiers, walk
from sim.importers.library import Folder, Missing, load_links
from sim.names import counted

MAX_NODES = 20_000  # entries visited for one datasheet (a cycle of links stops here)
MAX_MODELS = 200
MAX_NESTING = 64  # entries and selection groups inside each other (a datasheet's tree)
MAX_INFO_LINKS = 100_000  # info groups and links looked at for one entry's profiles or rules
_LINK_KEYS = ("entryLinks", "infoLinks")


class Catalogue:
    def __init__(self, path: str | Path, folder: Folder | None = None):
        self.path = Path(path)
        self.file = str(path)
        self.folder = folder if folder is not None else Folder(self.path.parent)
        root, doc = self.folder.document(self.path, ("catalogue", "gameSystem"))
        self.root, self.doc = root, doc
        self.index: dict[str, dict] = {}
        links = load_links(self.file, doc, self.path, self.folder, root == "catalogue")
        self.linked: list[dict] = links.roots  # catalogues whose root entries are imported
        self.missing_catalogues: list[Missing] = links.missing
        self.no_system = links.no_system
        per_doc = [(doc, self._index(doc))]
        for d in links.docs:
            per_doc.append((d, self._index(d)))
        if links.system is not None:
            per_doc.append((links.system, self._index(links.system)))
        self.cond = Conditions(B.text(doc, "id"))
        self._lost: list[str] | None = None  # while a datasheet is built: the links it loses
        self._memo: dict = {}  # ids of an entry's lists -> (the lists, its profiles or rules): _info
        self._checked: set[int] = set()  # ids of the data's dicts whose numbers are checked: _check
        self._count_dangling(per_doc)

    # --- ids --------------------------------------------------------------------------------------
    def _index(self, doc: dict) -> list[dict]:
        """Index every element with an id (first one of an id kept); the entry and info links met."""
        found = []
        stack = [doc]
        while stack:
            d = stack.pop()
            for k, v in d.items():
                if isinstance(v, list):
                    for x in v:
                        if isinstance(x, dict):
                            i = x.get("id")
                            if "targetId" in x:
                                if k in _LINK_KEYS:
                                    found.append(x)
                            elif isinstance(i, str) and i not in self.index:
                                self.index[i] = x
                            stack.append(x)
                elif isinstance(v, dict):
                    stack.append(v)
        return found

    def _count_dangling(self, per_doc) -> None:
        """Links to nothing, counted against the missing catalogue the linking catalogue links
        (the first, when it links several); root entry links to nothing are datasheets lost."""
        by_via = {}
        for m in self.missing_catalogues:
            by_via.setdefault(m.via, m)
        roots = [self.doc, *self.linked]
        self.dangling = 0  # links to nothing that no missing catalogue explains (a data error)
        for d, found in per_doc:
            m = by_via.get(B.text(d, "name"))
            for link in found:
                if B.text(link, "targetId") not in self.index:
                    if m is not None:
                        m.links += 1
                    else:
                        self.dangling += 1
            if any(d is r for r in roots):
                for link in B.items(d, "entryLinks"):
                    if B.text(link, "targetId") not in self.index and not B.flag(link, "hidden"):
                        target = m or (self.missing_catalogues[0] if self.missing_catalogues else None)
                        if target is not None:
                            target.datasheets.append(B.clean_name(B.text(link, "name")))

    def warnings(self) -> list[str]:
        """What the catalogue loses, once per missing catalogue (names and counts only)."""
        folder = str(self.path.parent)
        out = [m.text(folder) for m in self.missing_catalogues]
        if self.dangling:
            out.append(f"{counted(self.dangling, 'link')} {'points' if self.dangling == 1 else 'point'} to nothing in the catalogues read (a data error)")
        if self.no_system:
            out.append(f"no game system file (.gst, .gstz or JSON) in {folder}: its shared rules and profiles "
                       "are not read")
        return out

    def datasheets_lost(self) -> int:
        return sum(len(m.datasheets) for m in self.missing_catalogues)

    def _lose(self, kind: str, name: str) -> None:
        if self._lost is not None:
            what = f"{kind} {B.clean_name(name)[:60]!r}"
            if what not in self._lost:
                self._lost.append(what)

    # --- entries ----------------------------------------------------------------------------------
    def resolve(self, node: dict) -> dict | None:
        """An entry or group with a link's additions; None for a link to nothing."""
        tid = node.get("targetId")
        if not isinstance(tid, str):
            return node
        target = self.index.get(tid)
        if target is None:
            self._lose("entry", B.text(node, "name"))
            return None
        out = dict(target)
        for key in ("constraints", "modifiers", "modifierGroups", "categoryLinks", "entryLinks", "selectionEntries",
                    "selectionEntryGroups", "profiles", "infoLinks", "infoGroups", "rules"):
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
        """(entries, groups) directly inside an entry or group, resolved, each one's numbers
        checked (bsdata.check_numbers: an option not taken too, as its constraints are read)."""
        entries = list(B.items(entry, "selectionEntries"))
        groups = list(B.items(entry, "selectionEntryGroups"))
        for e in entries + groups:
            self._check(e)
        for link in B.items(entry, "entryLinks"):
            if B.flag(link, "hidden") and link.get("targetId") not in self.index:
                continue  # (a hidden option to nothing loses nothing)
            r = self.resolve(link)
            if r is None:
                continue
            self._check(link)
            self._check(self.index[link["targetId"]])
            (groups if B.text(link, "type") == "selectionEntryGroup" else entries).append(r)
        return entries, groups

    def _check(self, node: dict) -> None:
        """bsdata.check_numbers of one element of the data (an entry, a link, a group, a
        profile, a rule), once for the catalogue: the data's own dicts live as long as it does,
        so their ids stand for them (an entry resolved from a link is new each time: its link
        and its target are checked instead)."""
        if id(node) not in self._checked:
            B.check_numbers(node)
            self._checked.add(id(node))

    def datasheets(self) -> list[dict]:
        """Every unit the catalogue offers at its root (and its linked catalogues' root entries
        when it imports them), resolved, hidden ones left out, first of a name kept."""
        out, seen = [], set()
        for doc in [self.doc, *self.linked]:
            for node in B.items(doc, "entryLinks") + B.items(doc, "selectionEntries"):
                if "targetId" in node and node.get("targetId") not in self.index:
                    continue  # (a datasheet lost with a missing catalogue: counted by warnings())
                e = self.resolve(node)
                if e is None or B.flag(e, "hidden") or B.text(e, "type") not in ("unit", "model"):
                    continue
                name = B.clean_name(B.text(e, "name"))
                if name and name.casefold() not in seen:
                    seen.add(name.casefold())
                    out.append(e)
        return out

    def detachment_rules(self) -> list[tuple[str, str, tuple]]:
        """(detachment, rule, ids) of every detachment the catalogue offers (its root entry named
        "Detachment", "Detachments" or "Detachment Choice", and its linked catalogues'): the
        rules and ability profiles of each detachment entry, by name, with their ids."""
        if hasattr(self, "_det_rules"):
            return self._det_rules
        out: list = []
        try:
            self._detachments(out)
        except B.Bad as e:  # (a number of a detachment's entry that is no number: listed as far as read)
            out.append(("(the rest)", f"not read: {e.expected}, found {e.found}"[:200], ()))
        self._det_rules = [x for x in dict.fromkeys(out) if x[1]]
        return self._det_rules

    def _detachments(self, out: list) -> None:
        for doc in [self.doc, *self.linked]:
            for node in B.items(doc, "entryLinks") + B.items(doc, "selectionEntries"):
                if B.norm(B.text(node, "name")) not in ("detachment", "detachments", "detachment choice"):
                    continue
                root = self.resolve(node)
                if root is None:
                    continue
                stack, seen = [(root, 0)], 0
                while stack and seen < 500:
                    e, depth = stack.pop()
                    seen += 1
                    entries, groups = self.children(e)
                    for d in entries:
                        name = B.clean_name(B.text(d, "name"))
                        for r, _, ids in self.rules(d):
                            out.append((name, B.clean_name(r), ids))
                        out += [(name, B.clean_name(B.text(p, "name")), (B.text(p, "id"),)) for p in self.profiles(d)
                                if B.profile_kind(p) == "ability"]
                    if depth < 3:
                        stack.extend((g, depth + 1) for g in reversed(groups))

    def datasheet_names(self) -> list[str]:
        """The names a Leader ability's list may name: the datasheets listed, and every unit entry
        of the catalogues read (sim.importers.leaders)."""
        if not hasattr(self, "_names"):
            names = [B.text(e, "name") for e in self.datasheets()]
            names += [B.text(e, "name") for e in self.index.values() if B.text(e, "type") == "unit"]
            self._names = list(dict.fromkeys(n for n in names if n))
        return self._names

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
        lost = [m for m in self.missing_catalogues if any(B.norm(d) == want for d in m.datasheets)]
        if lost:
            raise B.where_error(self.file, "datasheets", B.Bad(
                f"datasheet {name[:60]!r} from catalogue {lost[0].name!r} (id {lost[0].id}), which is not in "
                f"{self.path.parent}", "no such catalogue"))
        raise B.where_error(self.file, "datasheets", B.Bad(
            f"the name of a datasheet in the catalogue{hint}", repr(name[:60])))

    # --- profiles and rules of an entry ------------------------------------------------------------
    def profiles(self, entry: dict, inst: Inst | None = None, held: list | None = None) -> list[dict]:
        """The profiles an entry shows: its own, those of its info groups and info links
        (profiles and info groups), hidden ones (after their modifiers, decided alone) left out.
        ``held``: given a list, the profiles hidden only while a condition of the roster is not
        met are added to it (:meth:`_held`)."""
        return self._info(entry, inst, "profiles", None, held)

    def rules(self, entry: dict, inst: Inst | None = None, notes: list | None = None,
              held: list | None = None) -> list[tuple[str, str, tuple]]:
        """(name, description, ids) of the rules an entry shows (its own, its info groups', and
        info links to rules, with the link's name modifiers applied: "Deadly Demise" + "D3");
        hidden ones (after their modifiers, decided alone: a detachment's rule while the
        detachment is not chosen) left out (given ``held``, added to it: :meth:`_held`). ``ids``:
        the community data's ids of the rule (its own id; through an info link, the link's
        target and the link's id), which the rules table is keyed by. The description is read
        for what it states (an invulnerable save's condition), never written anywhere."""
        return [(n, d, i) for n, d, i in self._info(entry, inst, "rules", notes, held) if n]

    def _held(self, node: dict, inst: Inst | None, held: list | None, name: str, ids: tuple) -> None:
        """A rule or profile hidden while the unit stands alone, but only by a condition the unit
        alone cannot decide (a detachment chosen in the force, another catalogue in the roster):
        (name, ids, the condition in words) added to ``held`` (the report's "modelled when the
        condition in the data holds")."""
        if held is None or inst is None:
            return
        for mod, cs in modifiers(node):
            if (B.text(mod, "field") == "hidden" and B.text(mod, "type") == "set" and B.flag(mod, "value")
                    and cs and self.cond.holds(cs, inst, STRICT) is None):
                held.append((B.clean_name(name), tuple(i for i in ids if i), self._words(cs)))
                return

    def _words(self, cs, depth: int = 0) -> str:
        """The conditions of a hidden modifier in words ("hidden unless ..." is their negation):
        names and numbers of the data, no rules text."""
        parts = []
        for kind, c in cs[:4]:
            if kind == "one":
                child = B.text(c, "childId")
                what = B.clean_name(B.text(self.index.get(child, {}), "name")) or child
                parts.append(f"{B.text(c, 'type')} {B.text(c, 'value')} {B.text(c, 'field')} of {what[:60]!r} in "
                             f"{B.text(c, 'scope')}".replace("  ", " "))
            elif depth < 3:
                parts.append(f"{B.text(c, 'type') or 'and'}({self._words(conds(c), depth + 1)})")
        more = " ..." if len(cs) > 4 else ""
        return ("hidden when " if not depth else "") + ", ".join(parts) + more

    def _info(self, entry: dict, inst: Inst | None, own: str, notes: list | None, held: list | None = None) -> list:
        """What :meth:`profiles` (``own`` "profiles") or :meth:`rules` (``own`` "rules") give, in
        the data's order: the entry's own, then each info group's and info link's, depth first.
        Walked without recursion; each info group is opened once (a group that links itself,
        two that link each other, or one reached twice, adds its content once), and at most
        MAX_INFO_LINKS groups and links are looked at in all. Listing (no instance, nothing
        being built) remembers the answer for the entry's lists, which a shared entry's every
        link to it shares (2,000 datasheets linking one entry read its links once), each
        profile or rule in it once (19,000 links to one profile are one profile to list)."""
        memo = inst is None and notes is None and self._lost is None and held is None
        if memo:
            lists = (own, entry.get(own), entry.get("infoGroups"), entry.get("infoLinks"))
            key = tuple(id(x) for x in lists)
            hit = self._memo.get(key)
            if hit is not None:
                return list(hit[1])
        out: list = []
        opened = {id(entry)}
        steps = 0
        stack: list = [("node", entry)]
        while stack:
            kind, node = stack.pop()
            if kind == "item":
                out.append(node)
                continue
            if node is not entry:
                self._check(node)
            for x in B.items(node, "profiles") + B.items(node, "rules") + B.items(node, "infoLinks"):
                self._check(x)
            if own == "profiles":
                for p in B.items(node, "profiles"):
                    if self.cond.shown(p, inst):
                        out.append(p)
                    elif B.profile_kind(p) == "ability":
                        self._held(p, inst, held, B.text(p, "name"), (B.text(p, "id"),))
            else:
                for r in B.items(node, "rules"):
                    if self.cond.shown(r, inst):
                        out.append((B.text(r, "name"), B.text(r, "description"), (B.text(r, "id"),)))
                    else:
                        self._held(r, inst, held, B.text(r, "name"), (B.text(r, "id"),))
            tasks = []
            groups, links = B.items(node, "infoGroups"), B.items(node, "infoLinks")
            steps += len(groups) + len(links)
            if steps > MAX_INFO_LINKS:
                raise B.where_error(self.file, B.clean_name(B.text(entry, "name"))[:60], B.Bad(
                    f"at most {MAX_INFO_LINKS:,} info groups and links read for one entry", "more"))
            for g in groups:
                if self.cond.shown(g, inst) and id(g) not in opened:
                    opened.add(id(g))
                    tasks.append(("node", g))
            want = "profile" if own == "profiles" else "rule"
            for link in links:
                kind = B.text(link, "type")
                if kind not in (want, "infoGroup"):
                    continue
                t = self.index.get(B.text(link, "targetId"))
                lids = (B.text(link, "targetId"), B.text(link, "id"))
                if not self.cond.shown(link, inst):
                    if t is not None and kind == want and (own == "rules" or B.profile_kind(t) == "ability"):
                        self._held(link, inst, held, B.text(link, "name") or B.text(t, "name"), lids)
                    continue
                if t is None:
                    self._lose(kind if kind != "infoGroup" else "info group", B.text(link, "name"))
                    continue
                self._check(t)
                if not self.cond.shown(t, inst):
                    if kind == want and (own == "rules" or B.profile_kind(t) == "ability"):
                        self._held(t, inst, held, B.text(link, "name") or B.text(t, "name"), lids)
                    continue
                if kind == "infoGroup":
                    if id(t) not in opened:
                        opened.add(id(t))
                        tasks.append(("node", t))
                elif own == "profiles":
                    tasks.append(("item", t))
                else:
                    tasks.append(("item", (self._rule_name(link, t, inst, notes), B.text(t, "description"), lids)))
            stack.extend(reversed(tasks))
        if memo:  # (listing: a profile or rule shown twice is listed once, so it is kept once)
            once = {(id(x) if own == "profiles" else x): x for x in out}
            self._memo[key] = (lists, tuple(once.values()))
            return list(once.values())
        return out

    def _rule_name(self, link: dict, rule: dict, inst: Inst | None, notes: list | None) -> str:
        name = B.text(link, "name") or B.text(rule, "name")
        for mod, cs in modifiers(link):
            if B.text(mod, "field") == "name":
                ok = self.cond.holds(cs, inst, ALONE) if inst is not None else (True if not cs else None)
                if ok:
                    name = _apply_text(name, mod)
                elif ok is None and notes is not None:
                    notes.append(f"rule {name!r}: a name modifier with a roster or force condition not applied")
        return name

    # --- the default unit --------------------------------------------------------------------------
    def build(self, entry: dict, models: int | None = None) -> tuple[dict, list[str]]:
        """The datasheet's default selection tree (roster-like) and the notes for the report. A
        link of the unit's entries, profiles or rules whose target is nowhere (a missing
        catalogue, or a data error) refuses it, naming what is lost."""
        notes: list[str] = []
        self._nodes = 0
        self.cond.steps = 0
        self._lost = []
        try:
            B.check_numbers(entry)
            root = self._build(entry, 1, None, [])
            slots = [i for i in walk(root) if B.text(i.entry, "type") == "model" and i is not root]
            if models is not None:
                self._resize(root, slots, models, entry)
            self._evaluate(root, notes)
            sel = self._selection(root, notes)
            lost = self._lost
        except B.Bad as e:  # (a number that is no finite number: bsdata.number)
            raise B.where_error(self.file, f"datasheets[{B.clean_name(B.text(entry, 'name'))[:60]!r}]", e) from None
        finally:
            self._lost = None
        if lost:
            name = B.clean_name(B.text(entry, "name"))[:60]
            why = (f"catalogue {self.missing_catalogues[0].name!r} (id {self.missing_catalogues[0].id}, not in "
                   f"{self.path.parent})" if self.missing_catalogues else "ids no catalogue read has (a data error)")
            more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
            raise B.where_error(self.file, f"datasheets[{name!r}]", B.Bad(
                f"every link of datasheet {name!r} resolved",
                f"{counted(len(lost), 'link')} to {why}: " + ", ".join(lost[:3]) + more))
        return sel, notes

    def _build(self, entry: dict, count: int, parent: Inst | None, path: list[str], depth: int = 0) -> Inst:
        self._visit(entry, depth)
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
                inst.children.append(self._build(e, n * count, inst, path, depth + 1))
        for g in groups:
            if not B.flag(g, "hidden"):
                self._group(g, inst, count, path, depth + 1)
        return inst

    def _visit(self, node: dict, depth: int) -> None:
        """One more entry or group of the datasheet being built: at most MAX_NODES in all, and
        entries and groups nested at most MAX_NESTING deep in all (a chain of 3,000 links, or a
        group that links itself, is one error, not a RecursionError)."""
        if depth > MAX_NESTING:
            raise B.where_error(self.file, B.text(node, "name")[:60], B.Bad(
                f"entries and selection groups nested at most {MAX_NESTING} deep", "deeper (a cycle of links?)"))
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise B.where_error(self.file, B.text(node, "name")[:60], B.Bad(
                f"a datasheet of at most {MAX_NODES:,} entries", "more (a cycle of links?)"))

    def _group(self, g: dict, inst: Inst, count: int, path: list[str], depth: int) -> None:
        self._visit(g, depth)
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
                inst.children.append(self._build(e, picks[id(e)] * count, inst, path, depth + 1))
        for sub in groups:
            if not B.flag(sub, "hidden"):
                self._group(sub, inst, count, path, depth + 1)

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
        """Each entry's modifiers (sim.importers.conditions): hidden and names decided with the
        unit alone in its force; characteristics, categories and points only where the unit
        itself decides them (a single datasheet takes its unconditional cost)."""
        unknown_cost = 0
        for inst in walk(root):
            inst.points = B.pts(inst.entry)
        for inst in walk(root):
            for mod, cs in modifiers(inst.entry):
                fld, kind = B.text(mod, "field"), B.text(mod, "type")
                mode = ALONE if fld in ("hidden", "name") else STRICT
                ok = self.cond.holds(cs, inst, mode)
                times = self.cond.repeats(mod, inst, mode)
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
                    v = B.number(mod, "value", 0.0, f"the value of a points modifier of {inst.name[:60]!r}") or 0.0
                    inst.points = v if kind == "set" else inst.points + v * times if kind == "increment" else \
                        inst.points - v * times if kind == "decrement" else inst.points
                elif self._is_characteristic(fld):
                    targets = [inst] + (list(walk(inst))[1:] if "recursive" in B.text(mod, "affects")
                                        or B.text(mod, "scope") == "root-entry" else [])
                    for t in targets:
                        t.props[fld] = _apply_char(t.props.get(fld), fld, mod, times, self._char_value(t, fld))
        if unknown_cost:
            notes.append(f"points: {counted(unknown_cost, 'cost modifier')} with a roster or force condition not applied")

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
        for p in self.profiles(inst.entry, inst):
            for c in B.items(p, "characteristics"):
                if B.text(c, "typeId") == fld:
                    return B.text(c, "$text")
        return None

    # --- to a roster-like selection ------------------------------------------------------------------
    def _selection(self, inst: Inst, notes: list[str]) -> dict:
        profiles = []
        held: list = []
        for p in self.profiles(inst.entry, inst, held):
            chars = []
            for c in B.items(p, "characteristics"):
                tid = B.text(c, "typeId")
                val = inst.props.get(tid) if tid in inst.props else B.text(c, "$text")
                chars.append({"name": B.text(c, "name"), "$text": val if val is not None else ""})
            profiles.append({"name": B.text(p, "name"), "id": B.text(p, "id"), "typeName": B.text(p, "typeName"),
                             "characteristics": chars})
        cats = [B.text(c, "name") or B.text(self.index.get(B.text(c, "targetId"), {}), "name")
                for c in B.items(inst.entry, "categoryLinks")]
        cats = [c for c in cats + inst.extra_categories if c and c not in inst.removed_categories]
        kids = [self._selection(c, notes) for c in inst.children if not c.hidden]
        rules = [{"name": n, "description": d, "id": i[0], "ids": list(i)}
                 for n, d, i in self.rules(inst.entry, inst, notes, held)]
        return {"name": inst.name, "type": B.text(inst.entry, "type") or "upgrade", "number": inst.count,
                "profiles": profiles, "rules": rules,
                "held": [{"name": n, "ids": list(i), "why": w} for n, i, w in dict.fromkeys(held)],
                "categories": [{"name": c} for c in dict.fromkeys(cats)],
                "costs": [{"name": "pts", "value": inst.points * (inst.count if inst.parent is not None else 1)}],
                "selections": kids}

    # --- listing -----------------------------------------------------------------------------------
    def summary(self, entry: dict) -> dict:
        """What `sim datasheets` prints of one datasheet: its statlines and weapons as printed (every
        option, not only the default), points, the names of its abilities, and ``refused``: why
        its unit cannot be imported into this version (Part A ruling 28, sim.rules.scope: an
        AIRCRAFT category on it or one of its models), else None. A number of it that is no
        finite number (a cost, a condition's value) refuses the listing, naming it."""
        try:
            return self._summary(entry)
        except B.Bad as e:
            raise B.where_error(self.file, f"datasheets[{B.clean_name(B.text(entry, 'name'))[:60]!r}]", e) from None

    def _summary(self, entry: dict) -> dict:
        from sim.rules import scope
        B.check_numbers(entry)
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
            for r, _, _ in self.rules(e) if own else ():
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
            vals[B.text(c, "id")] = B.number(c, "value", 0.0, f"the {kind} constraint of {_name(entry)}") or 0.0
    if not vals:
        return None
    for mod, cs in modifiers(entry):
        cid = B.text(mod, "field")
        if cid in vals and not cs and not B.items(mod, "repeats"):
            v = B.number(mod, "value", 0.0, f"the value of a modifier of the {kind} of {_name(entry)}") or 0.0
            t = B.text(mod, "type")
            vals[cid] = v if t == "set" else vals[cid] + v if t == "increment" else vals[cid] - v if t == "decrement" \
                else vals[cid]
    v = max(vals.values()) if kind == "min" else min(vals.values())
    return int(v) if v >= 0 else None


def _default(entry: dict) -> int:
    n = _bound(entry, "min") or 0
    d = B.number(entry, "defaultAmount", None, f"the defaultAmount of {_name(entry)}")
    if d is not None and d == int(d) and 0 <= d <= MAX_MODELS:
        n = max(n, int(d))
    return n


def _name(entry: dict) -> str:
    return repr(B.clean_name(B.text(entry, "name"))[:60])


def _is_pts(fld: str, entry: dict) -> bool:
    return fld in ("51b2-306e-1021-d207", "points") or any(
        B.text(c, "typeId") == fld and B.text(c, "name").casefold() in B.PTS for c in B.items(entry, "costs"))


MAX_TEXT = 1_000  # characters a name or characteristic may grow to by modifiers (the data's: < 100)


def _bounded(text: str, what: str) -> str:
    """A name or characteristic a modifier made: refused past MAX_TEXT (so appending many
    modifiers stays linear: each append is checked as it is made, not after all of them)."""
    if len(text) > MAX_TEXT:
        raise B.Bad(f"{what} of at most {MAX_TEXT:,} characters after its modifiers",
                    f"{len(text):,} characters")
    return text


def _apply_text(name: str, mod: dict) -> str:
    v = B.text(mod, "value")
    t = B.text(mod, "type")
    if t == "append":
        return _bounded(f"{name} {v}".strip(), "a name")
    if t == "set":
        return _bounded(v, "a name")
    return name


def _apply_char(current: str | None, fld: str, mod: dict, times: int, base: str | None) -> str | None:
    value = current if current is not None else base
    t = B.text(mod, "type")
    v = B.text(mod, "value")
    if t == "set":
        return _bounded(v, f"the characteristic {fld!r}")
    if t == "append":
        return _bounded(f"{value or ''} {v}".strip(), f"the characteristic {fld!r}")
    if t in ("increment", "decrement") and value is not None:
        # (at most 9 digits: a longer number is no characteristic, and is left as it is)
        m = re.match(r"^(\D*)(\d{1,9})(\D.*)?$", value.strip())
        step = B.number(mod, "value", 0.0, f"the value of a modifier of {fld!r}") or 0.0
        if m:
            n = int(m.group(2)) + int(step * times) * (1 if t == "increment" else -1)
            return f"{m.group(1)}{max(n, 0)}{m.group(3) or ''}"
    return value

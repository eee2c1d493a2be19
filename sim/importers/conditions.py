"""Modifiers and their conditions, decided for one datasheet (sim.importers.catalogue builds it).

A datasheet imported on its own is a unit **alone in its force**: the first and only copy of its
datasheet, with no detachment, battle size or other roster choice made, in a roster whose
primary catalogue is the one it was listed from. What the unit itself decides (selections
counted in the entry, its parent, the unit or a model; what an entry or an ancestor is an
instance of; the primary catalogue) is decided in every mode. What depends on the rest of the
roster is decided by the mode:

* ``ALONE``: counted as in a force that holds only this unit (the force and roster hold nothing
  else; a force or roster is an instance of nothing). Used for what is shown: ``hidden``
  (a rule of a detachment not chosen stays hidden: every Necron unit carries all eight detachment
  rules, each hidden unless its detachment is in the force) and names.
* ``STRICT``: undecided (None), so the modifier is not applied and the report says so when it
  would change a characteristic or a name. Used for characteristics, categories and points: a
  single datasheet takes its unconditional cost.

``localConditionGroups`` (a count of the selections in a scope that meet per-selection
conditions: the "from the 4th copy of this datasheet" surcharge counts the copies before this
one) are always counted alone: a unit imported alone is its datasheet's first copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.importers import bsdata as B

ALONE, STRICT = "alone", "strict"
MAX_STEPS = 5_000_000  # selections looked at by the conditions of one datasheet (a real one: some thousands)
_COMPARE = {"atLeast": lambda n, v: n >= v, "atMost": lambda n, v: n <= v, "greaterThan": lambda n, v: n > v,
            "lessThan": lambda n, v: n < v, "equalTo": lambda n, v: n == v, "notEqualTo": lambda n, v: n != v}
_ROSTER = ("force", "roster")


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
    props: dict = field(default_factory=dict)  # characteristic typeId -> value text (set by modifiers)
    extra_categories: list = field(default_factory=list)
    removed_categories: list = field(default_factory=list)


def walk(inst: Inst):
    stack = [inst]
    while stack:
        i = stack.pop()
        yield i
        stack.extend(reversed(i.children))


def root_of(inst: Inst) -> Inst:
    while inst.parent is not None:
        inst = inst.parent
    return inst


def modifiers(entry: dict):
    """(modifier, conditions) of an entry: its own, and those of its modifier groups (nested),
    each with the conditions of the groups it is in."""
    out = []
    stack = [(entry, [])]
    while stack:
        holder, inherited = stack.pop()
        for m in B.items(holder, "modifiers"):
            out.append((m, inherited + conds(m)))
        for g in B.items(holder, "modifierGroups"):
            stack.append((g, inherited + conds(g)))
    return out


def conds(d: dict) -> list[tuple[str, dict]]:
    return ([("one", c) for c in B.items(d, "conditions")] + [("group", g) for g in B.items(d, "conditionGroups")]
            + [("local", g) for g in B.items(d, "localConditionGroups")])


def ids_of(entry: dict) -> set:
    return set(entry.get("_ids", ())) | {B.text(entry, "id")}


class Conditions:
    """Decides conditions for the datasheets of one catalogue; ``primary`` is the id of the
    catalogue they are listed from (a condition on the roster's primary catalogue)."""

    def __init__(self, primary: str):
        self.primary = primary
        self.steps = 0  # selections looked at by conditions, for the datasheet being built (MAX_STEPS)

    def _walk(self, inst: Inst) -> list[Inst]:
        """walk(inst), its selections counted against MAX_STEPS: every condition walks the unit,
        so a datasheet of 20,000 entries each with a condition would take 400 million steps;
        beyond the budget the datasheet is refused (Bad), not waited on."""
        nodes = list(walk(inst))
        self.steps += len(nodes)
        if self.steps > MAX_STEPS:
            raise B.Bad(f"modifiers whose conditions look at most {MAX_STEPS:,} selections in all", "more")
        return nodes

    # --- conditions ---------------------------------------------------------------------------
    def holds(self, cs: list[tuple[str, dict]], inst: Inst | None, mode: str = STRICT):
        """True, False, or None when the conditions cannot be decided (STRICT mode only)."""
        result = True
        for kind, c in cs:
            if kind == "group":
                sub = [self.holds([x], inst, mode) for x in conds(c)]
                if B.text(c, "type") == "or":
                    v = True if True in sub else (None if None in sub else False)
                else:
                    v = False if False in sub else (None if None in sub else True)
            elif kind == "local":
                v = self.local(c, inst)
            else:
                v = self.condition(c, inst, mode)
            if v is False:
                return False
            if v is None:
                result = None
        return result

    def condition(self, c: dict, inst: Inst | None, mode: str):
        if inst is None:
            return None
        t, fld, scope, child = B.text(c, "type"), B.text(c, "field"), B.text(c, "scope"), B.text(c, "childId")
        if t in ("instanceOf", "notInstanceOf"):
            v = self._instance(scope, child, inst, mode)
            return v if v is None or t == "instanceOf" else not v
        if t not in _COMPARE:
            return None
        value = B.number(c, "value", 0.0, "the value of a condition of a modifier") or 0.0
        if fld == "forces":
            return _COMPARE[t](0, value) if mode == ALONE and scope in _ROSTER else None
        if fld != "selections":
            return None
        n = self.count(scope, child, inst, mode)
        return None if n is None else _COMPARE[t](n, value)

    def count(self, scope: str, child: str, inst: Inst, mode: str):
        """Selections of ``child`` (an entry id, a category id, a type, "any") in ``scope``; None
        when undecided."""
        if scope in _ROSTER or (scope == "parent" and inst.parent is None):
            if mode != ALONE:
                return None
            return sum(i.count for i in self._walk(root_of(inst)) if self._is(i, child))  # (the force: this unit)
        where = self.scope(scope, inst)
        if where is None:
            return None
        return sum(i.count for i in self._walk(where) if i is not where and self._is(i, child))

    def scope(self, scope: str, inst: Inst):
        if scope in ("self", ""):
            return inst
        if scope == "parent":
            return inst.parent
        if scope in ("unit", "root-entry"):
            return root_of(inst)
        if scope in ("model", "model-or-unit"):
            x = inst
            while x is not None and B.text(x.entry, "type") != "model":
                x = x.parent
            return x if x is not None else (root_of(inst) if scope == "model-or-unit" else None)
        x = inst  # an entry id: the nearest such ancestor
        while x is not None:
            if scope in ids_of(x.entry):
                return x
            x = x.parent
        return None

    def _instance(self, scope: str, child: str, inst: Inst, mode: str):
        if scope == "primary-catalogue":
            return child == self.primary
        if scope in _ROSTER or (scope == "parent" and inst.parent is None):
            return False if mode == ALONE else None
        if scope == "ancestor":
            x = inst.parent
            while x is not None:
                if self._is(x, child):
                    return True
                x = x.parent
            return False
        where = self.scope(scope, inst)
        return None if where is None else self._is(where, child)

    def _is(self, inst: Inst, child: str) -> bool:
        """Is the selection an instance of ``child``: its entry, a category it has, its type."""
        if child in ("any", ""):
            return True
        e = inst.entry
        if child == B.text(e, "type") or child in ids_of(e):
            return True
        cats = {B.text(c, "targetId") for c in B.items(e, "categoryLinks")} | set(inst.extra_categories)
        return child in cats and child not in inst.removed_categories

    # --- local condition groups ---------------------------------------------------------------
    def local(self, g: dict, inst: Inst | None):
        """A count of the selections of the scope that meet every condition of the group, each
        tested on that selection; the unit alone in its force."""
        if inst is None:
            return None
        t = B.text(g, "type")
        if t not in _COMPARE:
            return None
        scope = B.text(g, "scope")
        if scope in _ROSTER or (scope == "parent" and inst.parent is None):
            where, include_self = root_of(inst), True
        else:
            where, include_self = self.scope(scope, inst), False
            if where is None:
                return None
        order = {id(i): k for k, i in enumerate(self._walk(root_of(inst)))}
        n = 0
        for cand in self._walk(where):
            if cand is where and not include_self:
                continue
            if all(self._local_one(c, cand, inst, order) for c in B.items(g, "conditions")):
                n += cand.count
        return _COMPARE[t](n, B.number(g, "value", 0.0, "the value of a condition group of a modifier") or 0.0)

    def _local_one(self, c: dict, cand: Inst, inst: Inst, order: dict) -> bool:
        t = B.text(c, "type")
        if t in ("before", "after"):
            ancestors = set()
            x = inst
            while x is not None:
                ancestors.add(id(x))
                x = x.parent
            if cand is inst or id(cand) in ancestors:
                return False
            return (order[id(cand)] < order[id(inst)]) == (t == "before")
        v = self.condition(c, cand, ALONE)
        return bool(v)

    # --- repeats ------------------------------------------------------------------------------
    def repeats(self, mod: dict, inst: Inst, mode: str = STRICT):
        reps = B.items(mod, "repeats")
        if not reps:
            return 1
        total = 0
        for r in reps:
            if B.text(r, "field") != "selections":
                return None
            n = self.count(B.text(r, "scope"), B.text(r, "childId"), inst, mode)
            if n is None:
                return None
            per = B.number(r, "value", 1.0, f"the value of a repeat of a modifier of {inst.name[:60]!r}") or 1.0
            q = n / per
            times = B.number(r, "repeats", 1.0, f"the repeats of a modifier of {inst.name[:60]!r}") or 1
            total += int(math.ceil(q) if B.flag(r, "roundUp") else math.floor(q)) * int(times)
        return total

    def shown(self, node: dict, inst: Inst | None) -> bool:
        """Is a rule, profile, info link or info group shown: not hidden, after its ``hidden``
        modifiers decided alone (a detachment's rule is hidden while its detachment is not
        chosen)."""
        hidden = B.flag(node, "hidden")
        for mod, cs in modifiers(node):
            if B.text(mod, "field") == "hidden" and B.text(mod, "type") == "set" and self.holds(cs, inst, ALONE):
                hidden = B.flag(mod, "value")
        return not hidden

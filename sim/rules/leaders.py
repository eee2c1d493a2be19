"""19.01 Attached units: whether a unit may join a bodyguard unit as its leader (24.22 Leader)
or its support (24.34 Support), judged before the battle (Muster Armies, 26 step 1).

A unit joins a bodyguard when:

* it has the Leader or the Support ability (24.22, 24.34): it joins as the leader, or as the
  support; a leader is a CHARACTER unit (24.22; a support need not be one: 19.02 groups support
  models that are not CHARACTERs as any others);
* the bodyguard is a friendly unit (both in the same army) other than itself, with neither
  ability of its own, and one the joining unit's datasheet lists (its ``can_lead`` datasheet
  names, compared as names; no list in the data: any such unit);
* the bodyguard takes at most one leader and one support (19.01), the joining unit joins one
  bodyguard, and neither is already part of an attached unit (a unit written as one with its
  leader, or one that joins or is joined by another here).

The answers name units by name (the player's words), never by id. The attached unit itself (its
models, keywords, starting strength: 19.03, 01.02.01) is made by who asks: the scenario loader,
the importer, the sandbox."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from sim.rules.abilities import Hook, effects_of, with_hook

LEADER, SUPPORT = "leader", "support"  # the roles of their models in the attached unit (19.02)


@dataclass(frozen=True, slots=True)
class UnitFacts:
    """What the rule reads of one unit."""

    id: str
    name: str  # its datasheet name (what a ``can_lead`` list names)
    owner: int
    character: bool  # has the CHARACTER keyword (01.02.07: one model with it is enough)
    joins_as: str | None = None  # LEADER or SUPPORT (join_role of its abilities), else None
    can_lead: tuple[str, ...] = ()  # 19.01 the datasheets it can lead; () when the data gives none
    roles: frozenset = frozenset()  # roles already in it (an attached unit written as one unit)


def join_role(abilities: Iterable) -> str | None:
    """LEADER if the abilities include one that leads (24.22), else SUPPORT if one supports
    (24.34), else None."""
    hooks = effects_of(tuple(abilities))
    if Hook.LEADS in hooks:
        return LEADER
    if Hook.SUPPORTS in hooks:
        return SUPPORT
    return None


def _tag(hook: str) -> str:
    return with_hook(hook).tag


def same_datasheet(a: str, b: str) -> bool:
    """Whether two datasheet names are the same name (case and spacing aside)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def attachment_problems(unit: UnitFacts, bodyguard: UnitFacts,
                        joined: Sequence[tuple[UnitFacts, UnitFacts]] = ()) -> list[str]:
    """19.01 Why ``unit`` may not join ``bodyguard``, given the attachments ``joined`` already
    made ((joining unit, bodyguard) pairs); [] when it may. Each reason names the units."""
    u, b = unit.name, bodyguard.name
    if unit.id == bodyguard.id:
        return [f"{u} cannot join itself"]
    out: list[str] = []
    if unit.joins_as is None:
        out.append(f"{u} has neither the {_tag(Hook.LEADS)} nor the {_tag(Hook.SUPPORTS)} ability "
                   "(24.22, 24.34)")
    elif unit.joins_as == LEADER and not unit.character:
        out.append(f"{u} is not a CHARACTER (24.22: a leader is)")
    if unit.owner != bodyguard.owner:
        out.append(f"{u} and {b} are in different armies (19.01: a friendly bodyguard)")
    if unit.can_lead and not any(same_datasheet(n, bodyguard.name) for n in unit.can_lead):
        out.append(f"{u} can lead only {', '.join(unit.can_lead)} (its datasheet's list), not {b}")
    if bodyguard.joins_as is not None:
        out.append(f"{b} has the {_tag(Hook.LEADS if bodyguard.joins_as == LEADER else Hook.SUPPORTS)} "
                   "ability itself: it joins a bodyguard, it is not one")
    if unit.roles:
        out.append(f"{u} is already an attached unit")
    if bodyguard.roles and unit.joins_as in bodyguard.roles:
        out.append(f"{b} already has its {unit.joins_as} (19.01: at most one leader and one support)")
    for j, g in joined:
        if j.id == unit.id and g.id != bodyguard.id:
            out.append(f"{u} already joins {g.name} (a unit joins one bodyguard)")
        elif j.id == unit.id:
            out.append(f"{u} already joins {b}")
        if g.id == unit.id:
            out.append(f"{u} is already joined by {j.name}: it is a bodyguard")
        if j.id == bodyguard.id:
            out.append(f"{b} itself joins {g.name}: it cannot be a bodyguard too")
        if g.id == bodyguard.id and j.id != unit.id and unit.joins_as is not None and j.joins_as == unit.joins_as:
            out.append(f"{b} already has {j.name} as its {j.joins_as} (19.01: at most one leader and one support)")
    return list(dict.fromkeys(out))


def judge(units: Sequence[UnitFacts], pairs: Sequence[tuple[str, str]]) -> list[list[str]]:
    """Each wanted attachment (joining unit id, bodyguard id), in order, judged against those
    before it that were accepted: the problems of each ([] accepted). KeyError for an unknown id."""
    by_id = {f.id: f for f in units}
    joined: list[tuple[UnitFacts, UnitFacts]] = []
    out = []
    for uid, bid in pairs:
        u, b = by_id[uid], by_id[bid]
        problems = attachment_problems(u, b, joined)
        if not problems:
            joined.append((u, b))
        out.append(problems)
    return out


def bodyguards_for(unit: UnitFacts, units: Sequence[UnitFacts],
                   joined: Sequence[tuple[UnitFacts, UnitFacts]] = ()) -> list[tuple[UnitFacts, list[str]]]:
    """Every other unit of ``unit``'s army as a bodyguard for it, in the order given, with why
    it may not join that one ([]: it may)."""
    return [(b, attachment_problems(unit, b, joined)) for b in units
            if b.id != unit.id and b.owner == unit.owner]

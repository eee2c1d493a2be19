"""Leaders joining their bodyguard units in an imported army (19.01): a leader nested in its
unit's selection (``attach_leader``, called by the roster reader), and ``sim import roster
--attach`` after assembly (``attach_units``), judged by the rule in sim.rules.leaders."""

from __future__ import annotations

from dataclasses import replace

from sim.errors import ImportFileError
from sim.importers import model as M
from sim.rules.abilities import AbilityError, parse_unit_abilities
from sim.rules.leaders import LEADER, UnitFacts, attachment_problems, join_role, same_datasheet


def attach_leader(unit: M.Unit, leader: M.Unit) -> M.Unit:
    """19.01 The leader's models join the unit (role "leader"); keywords, abilities and labels
    that are not common to every model move onto the models that have them."""
    lmodels = [replace(m, role=LEADER) for m in leader.models]
    parts = [(unit, list(unit.models)), (leader, lmodels)]
    common_kw = [k for k in unit.keywords if k in leader.keywords]
    common_ab = [a for a in unit.abilities if a in leader.abilities]
    common_lb = [a for a in unit.labels if a in leader.labels]
    common_ru = [a for a in unit.rules if a in leader.rules]
    models = []
    for u, ms in parts:
        for m in ms:
            models.append(replace(
                m, keywords=tuple(dict.fromkeys([k for k in u.keywords if k not in common_kw] + list(m.keywords))),
                abilities=tuple(dict.fromkeys([a for a in u.abilities if a not in common_ab] + list(m.abilities))),
                labels=tuple(dict.fromkeys([a for a in u.labels if a not in common_lb] + list(m.labels))),
                rules=tuple(dict.fromkeys([a for a in u.rules if a not in common_ru] + list(m.rules)))))
    return M.Unit(unit.id, unit.name, tuple(models), tuple(common_kw), tuple(common_ab), tuple(common_lb),
                  rules=tuple(common_ru))


AUTO = "auto"  # --attach auto: each leader to a unit its datasheet's list names


def attach_units(units: list, reports: list, wanted, file: str) -> list:
    """19.01 Leaders attached after assembly (``sim import roster --attach``): ``wanted`` holds
    "UNIT=BODYGUARD" (a unit's id or name each) or AUTO (each CHARACTER with the Leader or
    Support ability not attached yet goes to the roster's first unit its ``can_lead`` list
    names that the rule allows). Each attachment is judged by sim.rules.leaders; one asked for by
    name that the rule refuses, or that names no unit, is an error naming both; the report says
    "leader X attached to Y" or, for AUTO, "leader X left alone: why". The attached unit keeps
    the bodyguard's id and name (as a nested leader's does) and sums the points."""

    def facts(u) -> UnitFacts:
        printed = list(u.abilities) + [a for m in u.models for a in m.abilities]
        try:
            abilities = [x for a in printed for x in parse_unit_abilities(a, "unit")]
        except AbilityError:
            abilities = []
        kws = set(u.keywords) | {k for m in u.models for k in m.keywords}
        return UnitFacts(u.id, u.name, 0, "CHARACTER" in kws, join_role(abilities), tuple(getattr(u, "can_lead", ())),
                         frozenset(m.role for m in u.models) - {"bodyguard"})

    units = list(units)
    rep_of = {r.id: r for r in reports}
    joined: list = []  # (leader facts, bodyguard facts)
    joined_units: list = []  # (the unit that joined, the name of the unit it joined)

    def find(text: str, what: str):
        hits = [u for u in units if u.id == text] or [u for u in units if same_datasheet(u.name, text)]
        gone = [g for lu, g in joined_units if lu.id == text or same_datasheet(lu.name, text)]
        if not hits and gone:
            raise ImportFileError(file, "--attach", f"a unit not attached yet as its {what} (19.01: a unit joins "
                                  "one bodyguard)", f"{text!r}, already attached to {gone[0]!r}")
        if not hits:
            raise ImportFileError(file, "--attach", f"the id or name of a unit of the roster as its {what} "
                                  f"({', '.join(u.name for u in units)})", repr(text))
        return hits[0]

    def join(leader, guard, how: str) -> None:
        nonlocal units
        merged = attach_leader(guard, leader)
        n, role = len(guard.models), facts(leader).joins_as
        pts = [p for p in (guard.points, leader.points) if p is not None]
        merged = M.Unit(guard.id, guard.name, merged.models[:n] + tuple(replace(m, role=role) for m in merged.models[n:]),
                        merged.keywords, merged.abilities, merged.labels, sum(pts) if pts else None,
                        rules=merged.rules)
        joined.append((facts(leader), facts(guard)))
        joined_units.append((leader, guard.name))
        units = [merged if u is guard else u for u in units if u is not leader]
        g, r = rep_of.get(guard.id), rep_of.pop(leader.id, None)
        if g is not None:  # (the leader's report joins the unit's, as a nested leader's does)
            g.note(f"leader {leader.name!r} attached to {guard.name!r} ({how})")
            if r is not None:
                for where, name in r.labels:
                    g.label(f"leader {leader.name!r}" if where == "unit" else where, name)
                for where, name, how in r.modelled:
                    g.model(f"leader {leader.name!r}" if where == "unit" else where, name, how)
                for where, name, how, why in r.held:
                    g.hold(f"leader {leader.name!r}" if where == "unit" else where, name, how, why)
                g.bases += [b for b in r.bases if b not in g.bases]
                for note in r.notes:
                    g.note(f"{leader.name!r}: {note}")
                g.points = merged.points
                g.keywords_without_rule = sorted(set(g.keywords_without_rule) | set(r.keywords_without_rule))
                reports.remove(r)

    for w in wanted:
        if w.strip().casefold() == AUTO:
            continue
        if "=" not in w:
            raise ImportFileError(file, "--attach", "UNIT=BODYGUARD (a unit's id or name each) or auto", repr(w))
        lname, gname = w.split("=", 1)
        leader, guard = find(lname, "leader"), find(gname, "bodyguard")
        problems = attachment_problems(facts(leader), facts(guard), joined)
        if problems:
            raise ImportFileError(file, "--attach", f"a unit {leader.name} can join (19.01)",
                                  f"{guard.name!r}: " + "; ".join(problems))
        join(leader, guard, "--attach")
    if any(w.strip().casefold() == AUTO for w in wanted):
        for leader in [u for u in units if facts(u).joins_as is not None and not facts(u).roles]:
            if leader not in units or any(j.id == leader.id for j, _ in joined):
                continue
            me = facts(leader)
            if not me.can_lead:
                why = "its datasheet gives no list of units it can lead"
            else:
                named = [u for u in units if u is not leader and any(same_datasheet(n, u.name) for n in me.can_lead)]
                legal = [u for u in named if not attachment_problems(me, facts(u), joined)]
                if legal:
                    join(leader, legal[0], "its datasheet's list")
                    continue
                why = (f"no unit of the roster is one it can lead ({', '.join(me.can_lead)})" if not named else
                       "; ".join(attachment_problems(me, facts(named[0]), joined)))
            r = rep_of.get(leader.id)
            if r is not None:
                r.note(f"leader {leader.name!r} left alone: {why}")
    return units

"""Attached units in a scenario (19.01): a unit that ``leads`` a bodyguard joins it, as the army
list has it (Muster Armies, 26 step 1).

The loader judges each ``leads`` with the rule (sim.rules.leaders) and makes ONE unit of each
bodyguard and the units that join it: the bodyguard's id, the joining units' models added with
role leader or support (each keeping its own keywords, abilities and labels: 19.03, 19.04), and
the units as written kept in ``parts`` so the table can be written back as the file had it
(:func:`as_written`) and a leader detached again (the sandbox)."""

from __future__ import annotations

from dataclasses import replace

from sim.rules import leaders as L
from sim.scenario.spec import UnitSpec

MAX_NAME = 100  # (sim.scenario.load.MAX_NAME: a unit name)


def facts(us: UnitSpec) -> L.UnitFacts:
    """What the rule reads of a unit; of an attached unit made here, of its bodyguard as
    written (the units that joined it are :func:`joined`'s)."""
    if us.parts:
        return facts(us.parts[0])
    # (a half of a split unit, sim.scenario.split: its datasheet's name, as written)
    return L.UnitFacts(us.id, us.split[2] if us.split else us.name, us.owner, any(m.character for m in us.models),
                       L.join_role(a for m in us.models for a in m.abilities), tuple(us.can_lead),
                       frozenset(m.role for m in us.models) - {"bodyguard"})


def joined(units) -> list[tuple[L.UnitFacts, L.UnitFacts]]:
    """The (joining unit, bodyguard) pairs of the attached units made here."""
    return [(facts(j), facts(us.parts[0])) for us in units for j in us.parts[1:]]


def join(units: tuple[UnitSpec, ...], readers: dict, board, waiting) -> tuple[UnitSpec, ...]:
    """The units with each ``leads`` made into one attached unit (in the bodyguard's place).
    ``readers``: unit id -> its Reader (each refusal names the file, the unit's ``leads`` and the
    reasons); ``waiting``: load._waiting (where models not yet set up wait, below the
    bodyguard's)."""
    wanted = [(u.id, u.leads) for u in units if u.leads is not None]
    if not wanted:
        return units
    by_id = {u.id: u for u in units}
    for uid, bid in wanted:
        if bid not in by_id:
            readers[uid].fail("the id of a friendly unit for it to lead (19.01)", bid, "leads")
    for (uid, bid), problems in zip(wanted, L.judge([facts(u) for u in units], wanted)):
        if problems:
            readers[uid].fail(f"a bodyguard unit {by_id[uid].name} can join (19.01, 24.22, 24.34)",
                              f"<{bid!r}: " + "; ".join(problems) + ">", "leads")
        u, b = by_id[uid], by_id[bid]
        if u.reserves != b.reserves:
            readers[uid].fail(f"a leader and its bodyguard both in strategic reserves or neither (one unit, "
                              f"19.01; {b.name} {'is' if b.reserves else 'is not'})", u.reserves, "reserves")
        if u.embarked != b.embarked:
            readers[uid].fail(f"a leader embarked where its bodyguard is (one unit, 19.01; {b.name} is "
                              + (f"embarked in {b.embarked!r})" if b.embarked else "not embarked)"),
                              u.embarked if u.embarked is not None else "<not embarked>", "embarked")
        if u.planned != b.planned:
            readers[uid].fail(f"positions ('at') for both a leader and its bodyguard or for neither (one unit, "
                              f"19.01; {b.name} {'has' if b.planned else 'has none'})",
                              "<positions>" if u.planned else "<none>", "leads")
    joiners = {uid for uid, _ in wanted}
    for u in units:
        for m in u.models:
            for mod in m.modifiers:
                if mod.against in joiners:
                    readers[u.id].fail(f"a modifier against the bodyguard's id {by_id[mod.against].leads!r} "
                                       f"({mod.against!r} joins it: one unit, 19.01)", mod.against, "modifiers")
    out = []
    for u in units:
        if u.id in joiners:
            continue
        parts = [by_id[uid] for uid, bid in wanted if bid == u.id]
        out.append(_attached(u, parts, board, waiting) if parts else u)
    return tuple(out)


def _attached(b: UnitSpec, parts: list[UnitSpec], board, waiting) -> UnitSpec:
    """19.01 One unit of the bodyguard ``b`` and the units joining it: every model of each
    (starting strength counts them all, 01.02.01), theirs with role leader or support."""
    models = list(b.models)
    for j in parts:
        role = L.join_role(a for m in j.models for a in m.abilities)
        mine = [replace(m, role=role, labels=tuple(dict.fromkeys(j.labels + m.labels))) for m in j.models]
        if not b.planned:  # (waiting to be set up: in rows below the bodyguard's, one block)
            at = waiting(models, len(mine), max(m.length for m in mine), max(m.width for m in mine), board)
            mine = [replace(m, x=x, y=y) for m, (x, y) in zip(mine, at)]
        models += mine
    name = " + ".join([j.name for j in parts] + [b.name])
    points = [p.points for p in [b, *parts] if p.points is not None]
    return replace(b, name=name if len(name) <= MAX_NAME else b.name, models=tuple(models),
                   allocation_order=b.allocation_order + tuple(o for j in parts for o in j.allocation_order),
                   points=sum(points) if points else None, parts=(b, *parts))


def as_written(us: UnitSpec) -> list[UnitSpec]:
    """The units to write for ``us``: an attached unit made here as the units it was made of
    (each model where it stands now, the unit's state on each), the bodyguard first; while any
    of them has no model left, the attached unit itself (its models with their roles)."""
    if not us.parts:
        return [us]
    now = {m.id: m for m in us.models}
    out = []
    for p in us.parts:
        models = tuple(replace(m, x=now[m.id].x, y=now[m.id].y, angle=now[m.id].angle)
                       for m in p.models if m.id in now)
        if not models:
            return [replace(us, parts=())]
        out.append(replace(p, models=models, advanced=us.advanced, fell_back=us.fell_back, charged=us.charged,
                           moved=us.moved, ranged_attacks_last_turn=us.ranged_attacks_last_turn,
                           reserves=us.reserves, planned=us.planned))
    return out

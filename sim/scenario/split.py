"""26 step 7 A unit split in two by a transport's datasheet rule ("at the start of the Declare
Battle Formations step, you can select one <kind> unit: it is split into two units, each with
as equal a number of models as possible; one of them must start the battle embarked within
this TRANSPORT, the other within another TRANSPORT or deployed on its own"). The choice is the
file's: a unit with ``split_by = "<transport id>"`` is read as its two halves
(sim.rules.transport.split_sizes: the models in the order listed, the first half the larger),
checked with the rule (split_problems):

* the first keeps the unit's id and ``embarked``, the second is ``<id>-half-2``; each keeps its
  ``reserves``; their names say which half ("Sister Squad (1 of 2)"), and their points are
  shared out by models;
* the transport is a friendly unit whose capacity's ``split`` names one of the unit's keywords,
  and splits no other unit; the unit has no leader or support model of its own (leaders are
  attached after the split: one ``leads`` a half by its id); one of the halves fits in the
  transport (the capacity rule), else no formations could be declared;
* one half, not both, starts embarked in that transport: the battle formations must say so
  (sim.commands.deploy). ``split_by`` is for a battle deployed by the rules; a file set up by
  hand places each half itself: it writes both as units, each with ``half_of`` (below), and
  embarks one (a saved table does the same).

Each half's UnitSpec.split is (the transport's id, the other half's id, the unit's name as
written: its datasheet's, which a leader's ``can_lead`` names). A table saved once the unit is
split (sim.sandbox.save_table) writes each half with ``half_of = [transport id, other half's
id, name as written]``, read back as that (``read_half_of``)."""

from __future__ import annotations

import dataclasses

from sim.rules import transport as TR
from sim.scenario.reader import Reader
from sim.scenario.spec import UnitSpec

SECOND = "-half-2"  # the second half's id: the unit's id and this
HALVES = (" (1 of 2)", " (2 of 2)")  # the halves' names: the unit's and these
MAX_NAME = 100  # (sim.scenario.load.MAX_NAME: an id or a name)


def split_units(units: list[UnitSpec], readers: dict[str, Reader], by_rules: bool) -> list[UnitSpec]:
    """The units as written, each with ``split_by`` read as its two halves (module docstring);
    a clear error (the unit's place, what was expected) for a split the rule refuses. The
    second half's reader is the unit's (``readers``: for later errors that name it)."""
    if not any(u.split_by for u in units):
        return units
    by_id = {u.id: u for u in units}
    done: dict[str, str] = {}  # transport id -> the unit its rule split
    out: list[UnitSpec] = []
    for u in units:
        if not u.split_by:
            out.append(u)
            continue
        r = readers[u.id]
        t = by_id.get(u.split_by)
        if t is None or t.owner != u.owner or t.id == u.id or t.transport is None or not t.transport.split:
            carriers = sorted(x.id for x in units if x.owner == u.owner and x.transport is not None
                              and x.transport.split)
            r.fail(f"a friendly TRANSPORT whose rule splits units ({', '.join(carriers) or 'none in its army'})",
                   u.split_by, "split_by")
        if len(u.id + SECOND) > MAX_NAME:
            r.fail(f"a unit id of at most {MAX_NAME - len(SECOND)} characters (its second half's is "
                   f"<id>{SECOND})", u.id, "id")
        if u.id + SECOND in by_id:
            r.fail(f"no other unit with the id {u.id + SECOND!r} (the second half's)", u.id + SECOND, "id")
        keywords = frozenset().union(*(m.keywords for m in u.models))
        problems = TR.split_problems(u.id, keywords, len(u.models), t.id, t.transport, int(t.id in done))
        if problems:
            r.fail(f"a unit {t.id}'s rule may split (26 step 7)", f"<{problems[0]}>", "split_by")
        if any(m.role != "bodyguard" for m in u.models):
            r.fail("a unit of its own models only: a leader is attached after the split and leads one half "
                   "(26 step 7, 19.01)", "<a leader or support model in the unit>", "split_by")
        first, second = halves(u, t.id)
        if all(TR.capacity_problems(t.id, t.transport, [_passenger(h)]) for h in (first, second)):
            r.fail(f"a unit one of whose halves fits in {t.id} (26 step 7, 18.01: {t.transport.describe()})",
                   f"<halves of {len(first.models)} and {len(second.models)} models, neither fits>", "split_by")
        if not by_rules:  # (where each half stands is the file's: it writes both, each with its half_of)
            r.fail("split_by in a battle deployed by the rules (26 step 7; in a file set up by hand, write the "
                   "two halves as units, each with half_of = [transport id, other half's id, name], one of them "
                   "embarked in the transport)", u.split_by, "split_by")
        done[t.id] = u.id
        out += (first, second)
        readers[second.id] = r
    return out


def _passenger(u: UnitSpec) -> TR.Passenger:
    return TR.Passenger(u.id, tuple((m.id, m.keywords, m.profile.W) for m in u.models))


def halves(u: UnitSpec, transport: str) -> tuple[UnitSpec, UnitSpec]:
    """The two units ``u`` is split into by ``transport``'s rule (module docstring)."""
    n1, _n2 = TR.split_sizes(len(u.models))
    second = u.id + SECOND
    p1 = None if u.points is None else round(u.points * n1 / len(u.models))
    base = u.name[:MAX_NAME - len(HALVES[0])]
    first = dataclasses.replace(
        u, name=base + HALVES[0], models=u.models[:n1], split=(transport, second, u.name), split_by=None,
        points=p1, allocation_order=tuple(m for m in u.allocation_order if m in {x.id for x in u.models[:n1]}))
    other = dataclasses.replace(
        u, id=second, name=base + HALVES[1], models=u.models[n1:], split=(transport, u.id, u.name), split_by=None,
        embarked=None, points=None if u.points is None else u.points - p1, leads=None,
        allocation_order=tuple(m for m in u.allocation_order if m in {x.id for x in u.models[n1:]}))
    return first, other


def read_half_of(ur: Reader) -> tuple[str, str, str] | None:
    """A saved half's ``half_of = [transport id, other half's id, name as written]`` (module
    docstring), each a name of 1 to MAX_NAME characters; None when absent."""
    if not ur.has("half_of"):
        return None
    v = ur.data["half_of"]
    if not (isinstance(v, list) and len(v) == 3
            and all(isinstance(x, str) and 1 <= len(x) <= MAX_NAME for x in v)):
        ur.fail("[transport id, the other half's id, the unit's name as written] (a unit split at battle "
                "formations, 26 step 7)", v, "half_of")
    return tuple(v)

"""18.01 / 26 step 7 Transports in a scenario: a TRANSPORT unit's capacity (``transport = {
... }``, read as sim.rules.transport.Capacity) and the units that start embarked in one
(``embarked = "<transport unit id>"``), checked with the rule (capacity_problems), each
problem the usual one-line error naming the file and the place."""

from __future__ import annotations

from sim.rules.transport import ANY_NUMBER, DEDICATED, TRANSPORT, Capacity, Passenger, WoundsRule, capacity_problems
from sim.scenario.reader import Reader

CAPACITY_FIELDS = {"models", "keywords", "not", "space", "units", "limits", "wounds", "split"}
WOUNDS_FIELDS = {"at_least", "space", "barred", "keywords", "except"}
CAPACITY = (1, ANY_NUMBER)  # models' spaces a transport may have (README, Limits)
SPACE = (1, 100)  # the space one model may take


def _keyword(r: Reader, v, key, i) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 100:
        r.sub(key).fail("a keyword string of 1 to 100 characters", v, i)
    return v.strip().upper()


def read_capacity(ur: Reader, keywords) -> Capacity | None:
    """A unit's ``transport`` table (18.01): ``models`` (its capacity in models' spaces),
    ``keywords`` (what every passenger model must have: each entry a keyword, or a list of
    keywords of which it needs one), ``not`` (keywords that bar a model), ``space`` (keyword =
    n: such a model takes the space of n), ``units`` (at most that many units at once),
    ``limits`` (at most so many models of a kind), ``wounds`` (rules by a model's Wounds
    characteristic: ``_wounds``) and ``split`` (the keywords of the units its rule may split in
    two at battle formations: sim.scenario.split). Only a unit with the TRANSPORT keyword has
    one."""
    if not ur.has("transport"):
        return None
    r = ur.sub("transport")
    r.keys(CAPACITY_FIELDS, {"models"})
    if TRANSPORT not in keywords and DEDICATED not in keywords:
        ur.fail("a 'transport' capacity only on a unit with the TRANSPORT keyword (18.01)",
                f"<a capacity on a unit without TRANSPORT>", "transport")
    n = r.req("models", int, what="how many models' spaces it has (a whole number)")
    if not CAPACITY[0] <= n <= CAPACITY[1]:
        r.fail(f"a capacity of {CAPACITY[0]} to {CAPACITY[1]} models", n, "models")
    need = _needs(r)
    barred = tuple(_keyword(r, v, "not", i)
                   for i, v in enumerate(r.get("not", list, [], what="a list of keywords")))
    spaces = []
    if r.has("space"):
        sr = r.sub("space")
        if not isinstance(sr.data, dict):
            sr.fail("a table of keyword = the space such a model takes", sr.data)
        for k, v in sr.data.items():
            if isinstance(v, bool) or not isinstance(v, int) or not SPACE[0] <= v <= SPACE[1]:
                sr.fail(f"a whole number of spaces from {SPACE[0]} to {SPACE[1]}", v, k)
            spaces.append((k.strip().upper(), v))
    units = r.get("units", int, None, what="a whole number of units")
    if units is not None and not 1 <= units <= 100:
        r.fail("a number of units from 1 to 100", units, "units")
    limits = []
    for i, v in enumerate(r.get("limits", list, [], what="a list of { models, keywords } tables")):
        lr = r.sub("limits").sub(i)
        if not isinstance(lr.data, dict):
            lr.fail("a table of models and keywords (at most so many models of that kind)", lr.data)
        lr.keys({"models", "keywords"}, {"models", "keywords"})
        k = lr.req("models", int, what="a whole number of models")
        if not 1 <= k <= n:
            lr.fail(f"a number of models from 1 to the capacity's {n}", k, "models")
        limits.append((k, tuple(_needs(lr))))
    if len(limits) > 8:
        r.fail("at most 8 limits", len(limits), "limits")
    split = tuple(_keyword(r, v, "split", i) for i, v in enumerate(r.get("split", list, [], what="a list of keywords")))
    if len(split) > 8:
        r.fail("at most 8 keywords", len(split), "split")
    return Capacity(n, tuple(need), barred, tuple(spaces), units, tuple(limits), _wounds(r), split)


def _wounds(r: Reader) -> tuple[WoundsRule, ...]:
    """A capacity's ``wounds`` list (18.01 rules by a model's Wounds characteristic): each a
    table of ``at_least`` (the least W it speaks of, 0: any), either ``space`` (such a model
    takes the space of that many models) or ``barred = true`` (it may not be carried), and
    optionally ``keywords`` (the kind it speaks of, as the capacity's own) and ``except``
    (keywords that exempt a model: "non-CHARACTER models")."""
    out = []
    for i, v in enumerate(r.get("wounds", list, [], what="a list of { at_least, space or barred } tables")):
        wr = r.sub("wounds").sub(i)
        if not isinstance(wr.data, dict):
            wr.fail("a table of at_least and space (or barred = true)", wr.data)
        wr.keys(WOUNDS_FIELDS, {"at_least"})
        least = wr.req("at_least", int, what="the least Wounds characteristic it speaks of (a whole number)")
        if not 0 <= least <= 100:
            wr.fail("a Wounds characteristic from 0 to 100", least, "at_least")
        if wr.has("space") == wr.has("barred"):
            wr.fail("either space (the models' space such a model takes) or barred = true", "<both or neither>")
        space = None
        if wr.has("space"):
            space = wr.req("space", int, what="a whole number of spaces")
            if not SPACE[0] <= space <= SPACE[1]:
                wr.fail(f"a whole number of spaces from {SPACE[0]} to {SPACE[1]}", space, "space")
        elif wr.req("barred", bool, what="true (such a model may not be carried)") is not True:
            wr.fail("true (such a model may not be carried; leave the rule out otherwise)", False, "barred")
        exempt = tuple(_keyword(wr, k, "except", j)
                       for j, k in enumerate(wr.get("except", list, [], what="a list of keywords")))
        out.append(WoundsRule(least, space, tuple(_needs(wr)), exempt))
    if len(out) > 8:
        r.fail("at most 8 rules by Wounds", len(out), "wounds")
    return tuple(out)


def _needs(r: Reader) -> list:
    """A ``keywords`` list: each entry a keyword, or a non-empty list of alternatives."""
    need = []
    for i, v in enumerate(r.get("keywords", list, [], what="a list of keywords (or lists of alternatives)")):
        alts = v if isinstance(v, list) else [v]
        if not alts:
            r.sub("keywords").fail("a keyword or a non-empty list of alternatives", v, i)
        need.append(tuple(_keyword(r.sub("keywords"), a, i, j) for j, a in enumerate(alts)))
    return need


def check_transports(top: Reader, units) -> None:
    """26 step 7 / 18.01 Each ``embarked`` names a friendly unit with a transport capacity, is
    not itself carried or in strategic reserves on its own (it arrives inside its transport,
    20.04), carries nobody itself, and each transport's passengers fit together
    (sim.rules.transport.capacity_problems)."""
    by_id = {u.id: u for u in units}
    where = _places(top, units)
    for u in units:
        if u.embarked is None:
            continue
        r = where[u.id]
        t = by_id.get(u.embarked)
        if t is None or t.owner != u.owner or t.id == u.id:
            friendly = sorted(x.id for x in units if x.owner == u.owner and x.transport is not None)
            r.fail(f"a friendly TRANSPORT unit's id ({', '.join(friendly) or 'none in its army'})", u.embarked,
                   "embarked")
        if t.embarked is not None:
            r.fail(f"a transport that is not itself embarked ({t.id} is embarked in {t.embarked}) (18.01)",
                   u.embarked, "embarked")
        if u.reserves:
            r.fail(f"no 'reserves' on a unit embarked in a transport: it goes where its transport goes "
                   f"(20.01, 20.04); put 'reserves' on {t.id}", True, "reserves")
    for t in units:
        aboard = [u for u in units if u.embarked == t.id]
        if not aboard:
            continue
        if t.transport is None:
            where[aboard[0].id].fail(f"a unit with a 'transport' capacity (18.01); {t.id} has none", t.id, "embarked")
        problems = capacity_problems(t.id, t.transport, [
            Passenger(u.id, tuple((m.id, m.keywords, m.profile.W) for m in u.models)) for u in aboard])
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            where[aboard[-1].id].fail(f"units that fit in {t.id} together (18.01)", f"<{problems[0]}{more}>",
                                      "embarked")


def _places(top: Reader, units) -> dict[str, Reader]:
    """Each unit's reader (armies[i].units[j]) by its id, for errors that name its place."""
    out = {}
    for ar in top.sub("armies").items():
        for ur in ar.sub("units").items():
            uid = ur.data.get("id") if isinstance(ur.data, dict) else None
            if isinstance(uid, str):
                out.setdefault(uid, ur)
    return out

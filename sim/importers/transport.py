"""18.01 Transport capacity as the data gives it: a profile of type Transport (typeId
``74f8-5443-9d6d-1f1e``) with one text characteristic, Capacity, in prose ("This model has a
transport capacity of 12 ORKS INFANTRY models. Each MEGA ARMOUR model takes up the space of 2
models. It cannot transport JUMP PACK models."). No field holds the numbers.

So the text is read sentence by sentence, and only these forms are read, into the scenario's
``transport = {...}`` table (sim.scenario.transport: ``models``, ``keywords``, ``not``,
``space``); the prose itself is never kept:

* "This model (or FORTIFICATION) has a transport capacity of N <keywords> models", optionally
  "(excluding <list>)": N, and the keywords every passenger needs (alternatives joined by "or":
  a list of them; kinds of another type joined by "and" or "or", "13 INQUISITOR INFANTRY and
  INQUISITORIAL AGENT models": a passenger of either kind, _either). The transport's own faction keywords (and ``<FACTION>``) are dropped from
  them: the importer keeps no faction keyword on any unit (only one army's factions meet in a
  transport);
* "Each <list> model takes up the space of N models" (and "... and each <list> model takes up
  the space of N models"), "The X model takes up the space of N models": ``space``;
* "It (This model) cannot transport <list> models" (and "... or the <name>"), "cannot transport
  models that can FLY": ``not``;
* "N <kind> models, or 1 <kind> model [with a Wounds characteristic of K or less]" (and "This
  model can instead transport 1 <kind> model" after a plain first sentence), and rules
  by a model's Wounds characteristic ("Each [<kind>] model with a Wounds characteristic of 3 or
  more takes up the space of N models", "It cannot transport [non-<keyword>] models with a
  Wounds characteristic of 4 or more"): ``wounds`` (``_by_wounds``);
* "If this model is equipped with a <wargear>, it has a transport capacity of N ... models
  [instead]", given the unit's wargear (``read_capacity``'s ``wargear``: the roster's
  selections): N when the unit takes it;
* the rule that splits a unit at battle formations, one half starting inside (its three
  sentences): ``split``, the kinds it may split (sim.scenario.split).

A list is keywords joined by commas, "or" and "and"; each a phrase of letters (no number, no
"model", no "with"). Any other sentence (a second kind of passenger the transport can also
carry, a bulleted list of kinds, other rules text) is not read: ``Capacity.unread``
counts them and the import report says so. A text whose first sentence does not read gives no
capacity at all (the unit carries nobody; the report says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sim.rules.transport import ANY_NUMBER, WoundsRule  # (ANY_NUMBER: a capacity counted in units)

CAPACITY_TYPE_ID = "74f8-5443-9d6d-1f1e"
SPACE_MAX, W_MAX = 100, 100  # (the scenario's bounds: sim.scenario.transport SPACE, a rule's at_least)
MAX_TEXT = 4000  # characters of a Capacity text looked at
TYPES = ("INFANTRY", "MOUNTED", "MONSTER", "VEHICLE", "BEASTS", "BEAST", "SWARM", "CHARACTER")  # (read off the end of a phrase)
_STOP = {"WITH", "THAT", "MODEL", "MODELS", "EACH", "IF", "IT", "ITS", "UP", "TO", "CAN", "WHILE", "NON",
         "THESE", "THOSE", "ANY", "ALL", "OTHER"}

_FIRST = re.compile(r"^this (?:model|fortification) has a transport capacity of (\d+) (.+?) models?"
                    r"(?: \(excluding (.+?)(?: models?)?\))?$", re.I)
_TWO = re.compile(r"^this (?:model|fortification) has a transport capacity of (\d+) (.+?) models? and (\d+) "
                  r"(.+?) models?$", re.I)
_UNITS = re.compile(r"^this (?:model|fortification) has a transport capacity of (\d+) (.+?) units?$", re.I)
_EACH = re.compile(r"^each (.+?) models? takes? up the space of (\d+) models?"
                   r"(?:,? and each (.+?) models? takes? up the space of (\d+) models?)?$", re.I)
_ONE = re.compile(r"^(?:the )?(.+?)(?: models?)? takes? up the space of (\d+) models?$", re.I)
_NOT = re.compile(r"^(?:it|this model) cannot transport (.+?) models?(?: or the (.+))?$", re.I)
_OR = re.compile(r"^this (?:model|fortification) has a transport capacity of (\d+) (.+?) models?, or (\d+) (.+?) "
                 r"models?(?: with a wounds characteristic of (\d+) or less)?$", re.I)
_W = r"with a wounds characteristic of (?:more than (\d+)|(\d+) or more)"
_W_SPACE = re.compile(r"^each (?:(.+?) )?models? " + _W + r" takes? up the space of (\d+) models?$", re.I)
_W_NOT = re.compile(r"^(?:it|this model) cannot transport (?:non-(.+?) |(.+?) )?models? " + _W + "$", re.I)
_FLY_NOT = re.compile(r"^(?:it|this model) cannot transport models that can fly$", re.I)
_INSTEAD = re.compile(r"^this model can instead transport 1 (.+?) models?$", re.I)
# a capacity that depends on the wargear the unit takes ("If this model is equipped with a kannon, ...")
_WARGEAR = re.compile(r"^if this model is equipped with (?:an? )?(.+?), it has a transport capacity of (\d+) (.+?) "
                      r"models?(?: instead)?$", re.I)
# 26 step 7 a unit split in two at battle formations, one half starting in this transport
_SPLIT = re.compile(r"^at the start of the declare battle formations step, you can select one (.+?)(?: units?)? "
                    r"from your army(?: that has not been split)?$", re.I)
_SPLIT_HOW = re.compile(r"^if you do, that unit is split into two units, each containing as equal a number of "
                        r"models as possible \(when splitting a unit in this way, make a note of which models form "
                        r"each of the two new units\)?$", re.I)
_SPLIT_WHERE = re.compile(r"^one of these units must start the battle embarked within this transport ?; the other can "
                          r"start the battle embarked within another transport ?, or it can be deployed as a separate "
                          r"unit$", re.I)
_LIST = re.compile(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+", re.I)
_PHRASE = re.compile(r"^(?:<FACTION>|[A-Z][A-Z'\-]*)(?: [A-Z][A-Z'\-]*)*$")


@dataclass
class Capacity:
    """What a Capacity text gave: the scenario's ``transport`` table (None: not read) and how
    many of its sentences were not read."""

    table: dict | None
    sentences: int = 0
    unread: int = 0
    forms: list[str] = field(default_factory=list)  # the unread sentences' first words (for the measure only)

    @property
    def full(self) -> bool:
        return self.table is not None and not self.unread


def is_capacity(profile_type_id: str, type_name: str, name: str = "", text: str = "") -> bool:
    """A profile of the data's Transport type (by its typeId, or its type's name), or one typed
    as an ability that is named Transport and states a transport capacity (``text``: its
    characteristics; how some catalogues give it, e.g. the Agents of the Imperium's Immolator)."""
    return (profile_type_id == CAPACITY_TYPE_ID or type_name.strip().casefold() == "transport"
            or (name.strip().casefold() == "transport" and "transport capacity" in text.casefold()))


def _clean(text: str) -> str:
    text = text[:MAX_TEXT].replace("\u00a0", " ").replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"\^\^|\*\*|\*|\^", " ", text)
    return text


def sentences(text: str) -> list[str]:
    """The text's sentences, mark-up and trailing full stops dropped, spaces collapsed."""
    out = []
    for part in re.split(r"(?<=\.)\s+|\n+", _clean(text)):
        s = " ".join(part.split()).rstrip(".").strip()
        s = re.sub(r"\s+([,)])", r"\1", s).replace("( ", "(")
        if s:
            out.append(s)
    return out


def _keyword(phrase: str) -> str | None:
    """One keyword of a list (upper case), or None when it is not a plain keyword phrase."""
    p = " ".join(phrase.split()).upper()
    if not p or not _PHRASE.match(p) or len(p) > 100 or any(w in _STOP for w in p.split()):
        return None
    return p


def _items(text: str) -> list[str] | None:
    out = []
    for part in _LIST.split(text):
        k = _keyword(part)
        if k is None:
            return None
        out.append(k)
    return out or None


def _need(phrase: str, factions: set[str]) -> list | None:
    """The keywords every passenger needs, from "ORKS INFANTRY" or "<FACTION> INFANTRY or
    <FACTION> MOUNTED": each entry a keyword or a list of alternatives; None: not read."""
    alts = _items(phrase)
    if alts is None:
        return None
    parts = []
    for a in alts:
        words = a.split()
        for f in sorted(factions, key=len, reverse=True):   # (the transport's own faction: dropped)
            fw = f.split()
            if words[:len(fw)] == fw and len(words) > len(fw):
                words = words[len(fw):]
                break
        if words and words[0] == "<FACTION>":
            words = words[1:]
        if not words:
            return None
        typ = words[-1] if words[-1] in TYPES else None
        rest = " ".join(words[:-1]) if typ else " ".join(words)
        parts.append((rest or None, typ))
    types = list(dict.fromkeys(t for _r, t in parts))
    rests = list(dict.fromkeys(r for r, _t in parts))
    if len(types) == 1:   # ("A INFANTRY or B INFANTRY": INFANTRY, and A or B)
        out = [] if types[0] is None else [types[0]]
        if None not in rests:
            out.append(rests[0] if len(rests) == 1 else rests)
        return out
    if rests == [None] and None not in types:   # ("INFANTRY or MOUNTED")
        return [types]
    return _either(parts)


def _either(parts: list[tuple]) -> list | None:
    """What a passenger needs to be one of the kinds ``parts`` names, each (rest, type) a
    conjunction ("INQUISITOR INFANTRY and INQUISITORIAL AGENT models": either kind), as the
    table's entries (each a keyword, or a list of alternatives, all needed): one alternative from
    each kind per entry, an entry that holds another's alternatives dropped. None for more than
    three kinds (not read)."""
    kinds = [[k for k in kind if k is not None] for kind in parts]
    if len(kinds) > 3 or not all(kinds):
        return None
    clauses: list[list[str]] = [[]]
    for kind in kinds:
        clauses = [c + [k] for c in clauses for k in kind]
    clauses = [list(dict.fromkeys(c)) for c in clauses]
    kept = [c for i, c in enumerate(clauses)
            if not any(set(o) < set(c) or (set(o) == set(c) and j < i) for j, o in enumerate(clauses))]
    return [c[0] if len(c) == 1 else c for c in kept]


def read_capacity(text: str, factions=(), wargear=None) -> Capacity:
    """The ``transport`` table a Capacity text gives (module docstring); ``factions``: the
    transport's faction keywords (upper case), dropped from what its passengers need;
    ``wargear``: the names of what the unit takes (its selections, any case), which a capacity
    "If this model is equipped with a <name>, it has a transport capacity of N ..." reads (None:
    not known, and such a sentence is not read)."""
    fac = {" ".join(f.replace("\u2019", "'").split()).upper() for f in factions}
    ss = sentences(text)
    cap = Capacity(None, len(ss))
    if not ss:
        return cap
    got = _first(ss[0], fac)
    if got is None:
        cap.unread = len(ss)
        cap.forms = [" ".join(s.split()[:8]) for s in ss]
        return cap
    table, need, barred = got
    space: dict[str, int] = {}
    nots = list(barred)
    wounds = list(table.pop("wounds", []))
    split: list[str] = []
    for s in ss[1:]:
        got = False
        if (w := _by_wounds(s, fac)) is not None:
            wounds.append(w)
            got = True
        elif _FLY_NOT.match(s):
            nots.append("FLY")
            got = True
        elif (ins := _INSTEAD.match(s)) is not None and set(table) == {"models"} and need:
            # (one model of another kind instead: either kind, it taking all the room, as "N A
            # models, or 1 B model" reads)
            other = _need(ins.group(1), fac)
            if other and 1 <= table["models"] <= SPACE_MAX:
                wounds.append({"at_least": 0, "space": table["models"], "keywords": other})
                need = _any_of(need, other)
                got = True
        elif (wg := _WARGEAR.match(s)) is not None and wargear is not None:
            # (the count it gives, for the passengers the first sentence names: the same type,
            # "T'AU INFANTRY" for "T'AU EMPIRE INFANTRY"; one piece of wargear by its name)
            other = _need(wg.group(3), fac)
            if (other is not None and _types(other) == _types(need) and 1 <= int(wg.group(2)) <= ANY_NUMBER
                    and not _COMPOUND.search(wg.group(1))):
                if _equipped(wg.group(1), wargear):
                    table["models"] = int(wg.group(2))
                got = True
        elif (sp := _SPLIT.match(s)) is not None:
            kinds = _items(sp.group(1))
            if kinds is not None:
                split += [_unfactioned(k, fac) for k in kinds]
                got = True
        elif split and (_SPLIT_HOW.match(s) or _SPLIT_WHERE.match(s)):
            got = True  # (the split's terms: sim.scenario.split, sim.rules.transport)
        elif (e := _EACH.match(s)) is not None:
            a, b = _items(e.group(1)), _items(e.group(3)) if e.group(3) else []
            if a is not None and b is not None:
                for k in a:
                    space[k] = int(e.group(2))
                for k in b:
                    space[k] = int(e.group(4))
                got = True
        elif (n := _NOT.match(s)) is not None:
            a = _items(n.group(1))
            if a is not None and n.group(2):  # ("... JUMP PACK models or the Triumph of ...": one more, by name)
                one = _keyword(n.group(2))
                a = None if one is None else a + [one]
            if a is not None:
                nots += a
                got = True
        elif (o := _ONE.match(s)) is not None:
            k = _keyword(o.group(1))
            if k is not None:
                space[k] = int(o.group(2))
                got = True
        if not got:
            cap.unread += 1
            cap.forms.append(" ".join(s.split()[:8]))
    if need:
        table["keywords"] = need
    if nots:
        table["not"] = list(dict.fromkeys(nots))
    if space:
        table["space"] = space
    if wounds:
        table["wounds"] = wounds
    if split:
        table["split"] = list(dict.fromkeys(split))
    cap.table = table
    return cap


_COMPOUND = re.compile(r"\b(?:or|and|two|three|four|both|\d+)\b|,", re.I)  # (more than one piece of wargear)


def _types(need: list) -> set[str]:
    """The model types (INFANTRY, MONSTER...) a table's ``keywords`` entries name."""
    return {k for e in need for k in ([e] if isinstance(e, str) else e) if k in TYPES}


def _equipped(name: str, wargear) -> bool:
    """Whether the unit takes the wargear ``name`` (a capacity's "equipped with a kannon"): one
    of its selections is that name, or that name with a profile after it ("Kannon - Frag")."""
    want = " ".join(name.split()).casefold()
    for w in wargear:
        w = " ".join(str(w).split()).casefold()
        if w == want or w.startswith(want + " -") or w.startswith(want + " ("):
            return True
    return False


def _unfactioned(keyword: str, fac: set[str]) -> str:
    """``keyword`` without the transport's faction at its front ("ASHEN CONCORD EMBER GUARD":
    EMBER GUARD; the importer keeps no faction keyword on any unit)."""
    words = keyword.split()
    for f in sorted(fac, key=len, reverse=True):
        fw = f.split()
        if words[:len(fw)] == fw and len(words) > len(fw):
            return " ".join(words[len(fw):])
    return keyword


def _least(more_than: str | None, or_more: str | None) -> int:
    """The least W of "more than N" (N + 1) or "N or more" (N)."""
    return int(more_than) + 1 if more_than is not None else int(or_more)


def _by_wounds(s: str, fac: set[str]) -> dict | None:
    """A sentence of a rule by a model's Wounds characteristic, as the table's ``wounds`` entry
    (sim.scenario.transport): "Each [<kind>] model with a Wounds characteristic of 3 or more
    (more than 1) takes up the space of N models", "It cannot transport [non-<keyword>] [<kind>]
    models with a Wounds characteristic of 4 or more"; None for any other sentence."""
    if (m := _W_SPACE.match(s)) is not None:
        out: dict = {"at_least": _least(m.group(2), m.group(3)), "space": int(m.group(4))}
        if not 1 <= out["space"] <= SPACE_MAX:
            return None
        kind = m.group(1)
    elif (m := _W_NOT.match(s)) is not None:
        out = {"at_least": _least(m.group(3), m.group(4)), "barred": True}
        kind = m.group(2)
        if m.group(1):
            words = m.group(1).split()
            if len(words) > 1 and words[-1].upper() in TYPES:  # ("non-CHARACTER MONSTER": MONSTERs not CHARACTERs)
                words, kind = words[:-1], words[-1]
            k = _keyword(" ".join(words))
            if k is None:
                return None
            out["except"] = [k]
    else:
        return None
    if not 0 <= out["at_least"] <= W_MAX:
        return None
    if kind:
        need = _need(kind, fac)
        if not need:
            return None
        out["keywords"] = need
    return out


def _first(s: str, fac: set[str]) -> tuple[dict, list, list] | None:
    """The first sentence's capacity: (the table so far, what every passenger needs, what it
    barred), or None when it is not one of the forms read: N <kinds> models (excluding ...);
    N <kind> models and M <kind> models (a passenger of either kind, at most N and M of each:
    ``limits``); N <kinds> units (any number of models, at most N units); N <kind> models, or 1
    <kind> model [with a Wounds characteristic of K or less] (either kind, the second taking
    all N models' space, so the two never ride together; a second-kind model of W above K
    barred: the table's ``wounds``; a second count above 1 is not read, as nothing here would
    keep the kinds apart)."""
    if (o := _OR.match(s)) is not None:
        a, b = _need(o.group(2), fac), _need(o.group(4), fac)
        n, k = int(o.group(1)), int(o.group(3))
        if a is None or b is None or not a or not b or k != 1 or not 1 <= n <= SPACE_MAX:
            return None
        wounds: list = [{"at_least": 0, "space": n, "keywords": b}] if n > 1 else []
        if o.group(5) is not None:
            if int(o.group(5)) + 1 > W_MAX:
                return None
            wounds.append({"at_least": int(o.group(5)) + 1, "barred": True, "keywords": b})
        table: dict = {"models": n}
        if wounds:
            table["wounds"] = wounds
        return table, _any_of(a, b), []
    if (t := _TWO.match(s)) is not None:
        a, b = _need(t.group(2), fac), _need(t.group(4), fac)
        if a is None or b is None or not a or not b:
            return None
        n, k = int(t.group(1)), int(t.group(3))
        return ({"models": n + k, "limits": [{"models": n, "keywords": a}, {"models": k, "keywords": b}]},
                _any_of(a, b), [])
    if (u := _UNITS.match(s)) is not None:
        need = _need(u.group(2), fac)
        return None if need is None else ({"models": ANY_NUMBER, "units": int(u.group(1))}, need, [])
    m = _FIRST.match(s)
    need = _need(m.group(2), fac) if m else None
    barred = _items(m.group(3)) if m and m.group(3) else []
    if m is None or need is None or barred is None:
        return None
    return {"models": int(m.group(1))}, need, barred


def _any_of(a: list, b: list) -> list:
    """What a passenger of kind ``a`` or of kind ``b`` needs (each kind a table's keywords: all
    of its entries, each a keyword or a list of alternatives): one alternative of an entry of
    each per entry, an entry that holds another's alternatives dropped."""
    alts = lambda e: [e] if isinstance(e, str) else list(e)  # noqa: E731
    clauses = [list(dict.fromkeys(alts(x) + alts(y))) for x in a for y in b]
    kept = [c for i, c in enumerate(clauses)
            if not any(set(o) < set(c) or (set(o) == set(c) and j < i) for j, o in enumerate(clauses))]
    return [c[0] if len(c) == 1 else c for c in kept]


def passengers_named(table: dict, known) -> dict:
    """A capacity ``table`` whose keywords name the army's units as their own keywords do: a
    capacity's "NECRON WARRIOR models" or "INQUISITORIAL AGENT models" is read as the keyword
    NECRON WARRIORS or INQUISITORIAL AGENTS when the army has that one and not the other
    (``known``: every keyword of its units and models, upper case). Anything else is kept."""
    known = set(known)

    def fix(k: str) -> str:
        if k in known:
            return k
        if k + "S" in known:
            return k + "S"
        if k.endswith("S") and k[:-1] in known:
            return k[:-1]
        return k

    def entries(es: list) -> list:
        return [fix(e) if isinstance(e, str) else [fix(a) for a in e] for e in es]

    out = dict(table)
    if "keywords" in out:
        out["keywords"] = entries(out["keywords"])
    if "limits" in out:
        out["limits"] = [{**lim, "keywords": entries(lim["keywords"])} for lim in out["limits"]]
    if "not" in out:
        out["not"] = [fix(k) for k in out["not"]]
    if "space" in out:
        out["space"] = {fix(k): n for k, n in out["space"].items()}
    if "split" in out:
        out["split"] = [fix(k) for k in out["split"]]
    if "wounds" in out:
        out["wounds"] = [{**w, **({"keywords": entries(w["keywords"])} if "keywords" in w else {}),
                          **({"except": [fix(k) for k in w["except"]]} if "except" in w else {})} for w in out["wounds"]]
    return out


def army_passengers(units: list) -> list:
    """The army's units (sim.importers.model.Unit), each transport's capacity read with the
    keywords the army's units have (``passengers_named``)."""
    from dataclasses import replace
    known = {k.upper() for u in units for k in u.keywords} | {k.upper() for u in units for m in u.models
                                                                 for k in m.keywords}
    return [replace(u, transport=passengers_named(u.transport, known)) if u.transport else u for u in units]


def words(cap: Capacity) -> str:
    """The report's note on a capacity read."""
    if cap.table is None:
        return ("a Transport capacity the import cannot read (its first sentence is not of the form it reads): "
                "no 'transport' table, so the unit carries nobody")
    t = cap.table
    out = f"transport capacity {t['models']} models"
    if t.get("keywords"):
        out += " (" + ", ".join(k if isinstance(k, str) else " or ".join(k) for k in t["keywords"]) + ")"
    if t.get("not"):
        out += "; not " + ", ".join(t["not"])
    if t.get("space"):
        out += "; " + ", ".join(f"{k} takes {n}" for k, n in t["space"].items())
    if t.get("split"):
        out += (f"; its rule may split a {' or '.join(t['split'])} unit in two at battle formations, one half "
                "starting in it (26 step 7: write split_by = \"<this unit's id>\" on that unit)")
    for w in t.get("wounds", ()):  # (in the capacity rule's own words)
        out += "; " + WoundsRule(w["at_least"], None if w.get("barred") else w["space"],
                                 tuple((k,) if isinstance(k, str) else tuple(k) for k in w.get("keywords", ())),
                                 tuple(w.get("except", ()))).describe()
    if cap.unread:
        out += (f"; {cap.unread} of its {cap.sentences} sentences not read (wargear, other passengers or other "
                "rules): the capacity holds only what was read")
    return out


def worth_splitting(units: list) -> list:
    """26 step 7 The army's units (sim.importers.model.Unit), each split in two where a
    transport's rule (its table's ``split``) is worth it, as a player would use it: the first
    unit (unit order) of a kind the rule names, not split already, that does not fit whole in
    that transport but whose larger half does (sim.rules.transport's capacity and split rules),
    gets ``split_by`` = the transport's id; each transport splits at most one. (A generated
    army's choice, tools/make_armies.py; a roster's import only says the rule is there.)"""
    from dataclasses import replace

    from sim.rules import transport as TR
    from sim.scenario.reader import Reader
    from sim.scenario.transport import read_capacity as load
    out = list(units)
    for t in units:
        if not t.transport or not t.transport.get("split"):
            continue
        cap = load(Reader("<import>", {"transport": t.transport}), {"TRANSPORT"})
        for i, u in enumerate(out):
            if u.split_by or u.transport or u.id == t.id:
                continue
            kw = {k.upper() for k in u.keywords}
            if not kw.intersection(cap.split):
                continue
            models = [(f"{u.id}/{k}", frozenset(kw | {x.upper() for x in m.keywords}), m.W)
                      for m in u.models for k in range(m.count)]
            n1, _n2 = TR.split_sizes(len(models))
            if (len(models) >= 2 and TR.capacity_problems(t.id, cap, [TR.Passenger(u.id, tuple(models))])
                    and not TR.capacity_problems(t.id, cap, [TR.Passenger(u.id, tuple(models[:n1]))])):
                out[i] = replace(u, split_by=t.id)
                break
    return out

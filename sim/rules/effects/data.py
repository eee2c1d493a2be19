"""Rules as data files: the records of sim.rules.effects.records are TOML files, one table
``[[rule]]`` per rule (README "Rules of datasheets, armies and detachments"), read into
sim.rules.effects.vocabulary.RuleRecord here, and written back by :func:`to_toml` (a record
written and read again is the same record: a test checks it).

    [[rule]]
    key = "oath-of-moment"
    names = ["Oath of Moment"]
    source = "army rule"
    faction = "Adeptus Astartes"
    ids = ["3b76-4053-ece9-6e7d"]
    summary = "Each Command phase pick one enemy unit: attacks at it may re-roll the hit roll."
    choice = { kind = "enemy unit", moment = "command", prompt = "..." }
      [[rule.grant]]
      who = "army"
      effect = { kind = "reroll", stat = "hit", which = "failed" }
      when = { conditions = [["target chosen"]] }

An effect's ``dice`` is written as dice text ("D3", "2D6+1", "1"); a condition as ``[name]`` or
``[name, argument]``. A file that is not written so is refused with its path, the rule (by
position and key) and the field, what was expected and what was found."""

from __future__ import annotations

import tomllib
from pathlib import Path

from sim.rules.dice import DiceExpr, parse_dice_expr
from sim.rules.effects import vocabulary as V

_RULE_KEYS = {"key", "names", "source", "summary", "grant", "ids", "faction", "detachment", "choice", "partial"}
_GRANT_KEYS = {"who", "effect", "when", "range", "keywords"}
_EFFECT_KEYS = {"kind", "stat", "value", "which", "ability", "dice", "roll", "trigger"}
_WHEN_KEYS = {"phases", "attacks", "turn", "conditions", "limit"}
_CHOICE_KEYS = {"kind", "moment", "prompt", "lasts", "uses"}


class RecordFileError(ValueError):
    """A records file not written as the module docstring says (the message says where)."""


def _check_keys(table, allowed: set, where: str) -> None:
    if not isinstance(table, dict):
        raise RecordFileError(f"{where}: expected a table, found {type(table).__name__}")
    extra = sorted(set(table) - allowed)
    if extra:
        raise RecordFileError(f"{where}: expected keys of {sorted(allowed)}, found {extra[0]!r}")


def _strings(v, where: str) -> tuple[str, ...]:
    if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
        raise RecordFileError(f"{where}: expected a list of strings, found {v!r}")
    return tuple(v)


def _effect(t: dict, where: str) -> V.Effect:
    _check_keys(t, _EFFECT_KEYS, where)
    kw = dict(t)
    if "dice" in kw:
        try:
            kw["dice"] = parse_dice_expr(kw["dice"])
        except ValueError as e:
            raise RecordFileError(f"{where}.dice: {e}") from None
    return V.Effect(**kw)


def _when(t: dict, where: str) -> V.When:
    _check_keys(t, _WHEN_KEYS, where)
    kw = dict(t)
    if "phases" in kw:
        kw["phases"] = _strings(kw["phases"], where + ".phases")
    conds = []
    for i, c in enumerate(kw.pop("conditions", [])):
        if not (isinstance(c, list) and 1 <= len(c) <= 2 and isinstance(c[0], str)):
            raise RecordFileError(f"{where}.conditions[{i}]: expected [name] or [name, argument], found {c!r}")
        conds.append((c[0], c[1] if len(c) == 2 else None))
    return V.When(conditions=tuple(conds), **kw)


def _grant(t: dict, where: str) -> V.Grant:
    _check_keys(t, _GRANT_KEYS, where)
    if "effect" not in t:
        raise RecordFileError(f"{where}: expected an effect, found none")
    return V.Grant(_effect(t["effect"], where + ".effect"), t.get("who", V.UNIT),
                   _when(t.get("when", {}), where + ".when"), float(t.get("range", 0.0)),
                   _strings(t.get("keywords", []), where + ".keywords"))


def _record(t: dict, where: str) -> V.RuleRecord:
    _check_keys(t, _RULE_KEYS, where)
    for k in ("key", "names", "source", "summary"):
        if k not in t:
            raise RecordFileError(f"{where}: expected {k!r}, found none")
    where = f"{where} ({t['key']})"
    grants = tuple(_grant(g, f"{where}.grant[{i}]") for i, g in enumerate(t.get("grant", [])))
    choice = None
    if "choice" in t:
        _check_keys(t["choice"], _CHOICE_KEYS, where + ".choice")
        choice = V.RuleChoice(**t["choice"])
    return V.RuleRecord(t["key"], _strings(t["names"], where + ".names"), t["source"], t["summary"], grants,
                        _strings(t.get("ids", []), where + ".ids"), t.get("faction", ""), t.get("detachment", ""),
                        choice, t.get("partial", ""))


def load_records(path: str | Path) -> tuple[V.RuleRecord, ...]:
    """The records of one TOML file, in its order. Raises RecordFileError naming the place."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise RecordFileError(f"{path}: expected a TOML file of rule records, found: {e}") from None
    _check_keys(doc, {"rule"}, str(path))
    out = []
    for i, t in enumerate(doc.get("rule", [])):
        where = f"{path.name}: rule[{i}]"
        try:
            out.append(_record(t, where))
        except (V.VocabularyError, TypeError) as e:
            raise RecordFileError(f"{where} ({t.get('key', '?') if isinstance(t, dict) else '?'}): {e}") from None
    return tuple(out)


# --- writing --------------------------------------------------------------------------------

def _q(s: str) -> str:
    from sim.scenario.toml_text import quote
    return quote(s)


def _list(xs) -> str:
    return "[" + ", ".join(_q(x) for x in xs) + "]"


def _dice_text(d: DiceExpr) -> str:
    if not d.is_random:
        return str(d.k)
    return f"{d.n if d.n > 1 else ''}D{d.sides}" + (f"+{d.k}" if d.k > 0 else f"{d.k}" if d.k < 0 else "")


def _inline(pairs) -> str:
    return "{ " + ", ".join(f"{k} = {v}" for k, v in pairs) + " }"


def _effect_text(e: V.Effect) -> str:
    pairs = [("kind", _q(e.kind))]
    if e.stat:
        pairs.append(("stat", _q(e.stat)))
    if e.value:
        pairs.append(("value", str(e.value)))
    if e.which:
        pairs.append(("which", _q(e.which)))
    if e.ability:
        pairs.append(("ability", _q(e.ability)))
    if e.dice != DiceExpr(0, 0, 0):
        pairs.append(("dice", _q(_dice_text(e.dice))))
    if e.roll:
        pairs.append(("roll", str(e.roll)))
    if e.trigger:
        pairs.append(("trigger", _q(e.trigger)))
    return _inline(pairs)


def _when_text(w: V.When) -> str | None:
    pairs = []
    if w.phases:
        pairs.append(("phases", _list(w.phases)))
    if w.attacks:
        pairs.append(("attacks", _q(w.attacks)))
    if w.turn:
        pairs.append(("turn", _q(w.turn)))
    if w.conditions:
        conds = ", ".join("[" + _q(n) + ("" if a is None else ", " + (_q(a) if isinstance(a, str) else repr(a)))
                          + "]" for n, a in w.conditions)
        pairs.append(("conditions", "[" + conds + "]"))
    if w.limit:
        pairs.append(("limit", _q(w.limit)))
    return _inline(pairs) if pairs else None


def to_toml(records) -> str:
    """The records as a TOML text :func:`load_records` reads back as the same records."""
    out = []
    for r in records:
        out.append("[[rule]]")
        out.append(f"key = {_q(r.key)}")
        out.append(f"names = {_list(r.names)}")
        out.append(f"source = {_q(r.source)}")
        if r.faction:
            out.append(f"faction = {_q(r.faction)}")
        if r.detachment:
            out.append(f"detachment = {_q(r.detachment)}")
        if r.ids:
            out.append(f"ids = {_list(r.ids)}")
        out.append(f"summary = {_q(r.summary)}")
        if r.partial:
            out.append(f"partial = {_q(r.partial)}")
        if r.choice is not None:
            c = r.choice
            pairs = [("kind", _q(c.kind)), ("moment", _q(c.moment)), ("prompt", _q(c.prompt))]
            if c.lasts != V.UNTIL_NEXT_CHOICE:
                pairs.append(("lasts", _q(c.lasts)))
            if c.uses:
                pairs.append(("uses", str(c.uses)))
            out.append(f"choice = {_inline(pairs)}")
        for g in r.grants:
            out.append("  [[rule.grant]]")
            if g.who != V.UNIT:
                out.append(f"  who = {_q(g.who)}")
            out.append(f"  effect = {_effect_text(g.what)}")
            w = _when_text(g.when)
            if w:
                out.append(f"  when = {w}")
            if g.range:
                out.append(f"  range = {g.range!r}")
            if g.keywords:
                out.append(f"  keywords = {_list(g.keywords)}")
        out.append("")
    return "\n".join(out)

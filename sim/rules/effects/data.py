"""Rules as data files: the records of sim.rules.effects.records are TOML files, one table
``[[rule]]`` per rule (README "Rules of datasheets, armies and detachments"), read into
sim.rules.effects.vocabulary.RuleRecord here (and written by sim.scenario.rule_records.to_toml:
a record written and read again is the same record, a test checks it).

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

from sim.rules.dice import parse_dice_expr
from sim.rules.effects import vocabulary as V

_RULE_KEYS = {"key", "names", "source", "summary", "grant", "ids", "faction", "detachment", "choice", "partial"}
_GRANT_KEYS = {"who", "effect", "when", "range", "keywords"}
_EFFECT_KEYS = {"kind", "stat", "value", "which", "ability", "dice", "roll", "trigger"}
_WHEN_KEYS = {"phases", "attacks", "turn", "conditions", "limit"}
_CHOICE_KEYS = {"kind", "moment", "prompt", "lasts", "uses", "options"}
_CHOICE_KEYS |= {"turn", "rounds", "adds_to"}  # (RuleChoice.turn, .rounds, .adds_to)
_RULE_KEYS |= {"pool"}
_CHOICE_KEYS |= {"most", "at"}
_CHOICE_KEYS |= {"dice", "picks", "needs"}  # a DICE_OPTIONS choice's


def _numbers(v, where: str) -> tuple:
    """A number "by battle size" written as one whole number or a list of three."""
    v = [v] if isinstance(v, int) and not isinstance(v, bool) else v
    if not (isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise RecordFileError(f"{where}: expected a whole number or a list of three (by battle size), found {v!r}")
    return tuple(v)


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
    rng = t.get("range", 0.0)
    if isinstance(rng, bool) or not isinstance(rng, (int, float)) or not 0 <= rng <= 1000:
        raise RecordFileError(f"{where}.range: expected a distance in inches (0 to 1000), found {rng!r}")
    return V.Grant(_effect(t["effect"], where + ".effect"), t.get("who", V.UNIT),
                   _when(t.get("when", {}), where + ".when"), float(rng),
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
        kw = dict(t["choice"])
        if "options" in kw:
            kw["options"] = _strings(kw["options"], where + ".choice.options")
        if "rounds" in kw:
            if not isinstance(kw["rounds"], list):
                raise RecordFileError(f"{where}.choice.rounds: expected a list of battle rounds, found {kw['rounds']!r}")
            kw["rounds"] = tuple(kw["rounds"])
        if "most" in kw:
            kw["most"] = _numbers(kw["most"], where + ".choice.most")
        if "needs" in kw:
            kw["needs"] = _strings(kw["needs"], where + ".choice.needs")
        choice = V.RuleChoice(**kw)
    return V.RuleRecord(t["key"], _strings(t["names"], where + ".names"), t["source"], t["summary"], grants,
                        _strings(t.get("ids", []), where + ".ids"), t.get("faction", ""), t.get("detachment", ""),
                        choice, t.get("partial", ""),
                        _numbers(t["pool"], where + ".pool") if "pool" in t else ())  # (pool)


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

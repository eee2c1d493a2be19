"""Rule records written as the TOML that sim.rules.effects.data reads (the records of
sim.rules.effects.records are such files): :func:`to_toml` of records read back by
load_records gives the same records (a test checks it). Strings are written by the one TOML
quoting of the files the simulator writes (sim.scenario.toml_text)."""

from __future__ import annotations

from sim.rules.dice import DiceExpr
from sim.rules.effects import vocabulary as V
from sim.scenario.toml_text import quote as _q



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
        if r.pool:
            out.append("pool = [" + ", ".join(map(str, r.pool)) + "]")
        if r.choice is not None:
            c = r.choice
            pairs = [("kind", _q(c.kind)), ("moment", _q(c.moment)), ("prompt", _q(c.prompt))]
            if c.lasts != V.UNTIL_NEXT_CHOICE:
                pairs.append(("lasts", _q(c.lasts)))
            if c.uses:
                pairs.append(("uses", str(c.uses)))
            if c.options:
                pairs.append(("options", _list(c.options)))
            if c.turn != V.OWN_TURN:
                pairs.append(("turn", _q(c.turn)))
            if c.rounds:
                pairs.append(("rounds", "[" + ", ".join(str(n) for n in c.rounds) + "]"))
            if c.adds_to:
                pairs.append(("adds_to", _q(c.adds_to)))
            if c.most:
                pairs.append(("most", "[" + ", ".join(map(str, c.most)) + "]"))
            if c.at != V.AT_START:
                pairs.append(("at", _q(c.at)))
            if c.kind == V.DICE_OPTIONS:
                pairs += [("dice", str(c.dice)), ("picks", str(c.picks)), ("needs", _list(c.needs))]
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

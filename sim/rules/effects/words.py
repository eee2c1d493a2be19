"""Rules in words: what a grant does, to whom and when, as the sandbox's unit card and the import
report say it (generated from the record's data, so it never says more than the engine does)."""

from __future__ import annotations

from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import condition_words

_STAT = {"hit": "hit rolls", "wound": "wound rolls", "save": "save rolls", "charge": "charge rolls",
         "advance": "advance rolls", "battle-shock": "battle-shock rolls", "damage": "damage rolls",
         "A": "Attacks", "S": "Strength", "AP": "AP", "D": "Damage", "BS": "BS", "WS": "WS", "M": "Move",
         "T": "Toughness", "Sv": "Save", "W": "Wounds", "Ld": "Leadership", "OC": "Objective Control",
         "damage taken": "Damage of attacks allocated to it",
         "hit taken": "hit rolls of attacks that target it", "wound taken": "wound rolls of attacks that target it",
         "AP taken": "AP of attacks that target it"}
_WHO = {V.BEARER: "this model", V.UNIT: "its unit", V.ARMY: "every unit of the army"}
_WHO[V.ENEMIES] = "every enemy unit"  # -- zones
_RETURN_WHEN = {V.AT_COMMAND: "in its Command phase", V.AT_END_OF_PHASE: "at the end of each phase",
                V.AT_PASSED_SHOCK: "after it passes a battle-shock test"}  # -- zones


def effect_words(e: V.Effect) -> str:
    """What an effect does, e.g. "+1 to hit rolls", "re-roll hit rolls of 1", "5+ Feel No Pain"."""
    k = e.kind
    if k == V.MODIFY:
        if e.stat == "damage taken":
            return f"{e.value:+d} to the Damage of attacks allocated to it (never below 1)"
        return f"{e.value:+d} to {_STAT[e.stat]}"
    if k == V.REROLL:
        which = {V.ONES: " of 1", V.FAILED: " that fail", V.ANY: ""}[e.which]
        return f"re-roll {_STAT[e.stat]}{which}"
    if k == V.FEEL_NO_PAIN:
        return f"Feel No Pain {e.value}+"
    if k == V.INVULNERABLE:
        return f"a {e.value}+ invulnerable save"
    if k == V.WEAPON_ABILITY:
        return f"its weapons gain [{e.ability.upper()}]"
    if k == V.MORTAL_WOUNDS:
        roll = f"on a {e.roll}+ " if e.roll else ""
        if e.trigger == V.ON_FAILED_SHOCK:  # -- zones
            return f"{roll}{e.dice} mortal wounds to it after it fails a battle-shock test"
        return f"{roll}{e.dice} mortal wounds ({e.trigger})"
    if k == V.RETURN:
        when = _RETURN_WHEN[e.trigger]
        if e.which == V.ONE_MODEL:  # -- zones
            return f"one wounded model regains up to {e.dice} wounds {when}"
        return f"regains {e.dice} {'wounds' if e.which == V.WOUNDS else 'models'} {when}"
    if k == V.FIGHTS_FIRST:
        return "fights first"
    if k == V.ARRIVAL_DISTANCE:  # -- zones
        return f"may be set up by Deep Strike more than {e.value}\" from enemy models (not 8\")"
    if k == V.TARGET_LIMIT:
        return f"cannot be targeted from more than {e.value}\" away"
    if k == V.LEND:
        return f"is lent this model's ({e.ability}) abilities"
    if k == V.STRATAGEM_COST:
        what = e.ability or "stratagems"
        return f"{what} cost {e.value:+d} CP"
    return k


def grant_words(g: V.Grant) -> str:
    """A grant in one line: what, to whom, when."""
    who = _WHO.get(g.who)
    if g.who == V.AURA:
        who = f"friendly units within {g.range:g}\""
    elif g.who == V.ENEMY_AURA:
        who = f"enemy units within {g.range:g}\""
    elif g.who == V.CHOSEN_FRIEND:
        who = "the friendly unit picked" + (f" (within {g.range:g}\" of this model)" if g.range else "")
    if g.keywords:
        who += " (" + ", ".join(g.keywords) + " only)"
    parts = [effect_words(g.what), "for " + who]
    w = g.when
    if w.attacks:
        parts.append(f"with {w.attacks} attacks" if g.what.kind in (V.MODIFY, V.REROLL, V.WEAPON_ABILITY)
                     and g.what.stat not in ("save", "damage taken", *V.TAKEN_STATS) else f"against {w.attacks} attacks")
    if w.phases:
        parts.append("in the " + " or ".join(w.phases) + " phase")
    if w.turn:
        parts.append("in its army's turn" if w.turn == "own" else "in the opponent's turn")
    for name, arg in w.conditions:
        parts.append("while " + condition_words(name, arg))
    if w.limit:
        parts.append(w.limit)
    return " ".join(parts)


def record_words(r: V.RuleRecord) -> list[str]:
    """The record as the unit card lists it: its summary, then each grant, then what is left out."""
    out = [f"{r.name} ({r.source}): {r.summary}"]
    out += ["  - " + grant_words(g) for g in r.grants]
    if r.partial:
        out.append("  - not modelled: " + r.partial)
    return out

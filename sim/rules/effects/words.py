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
_WHO[V.ENEMIES] = "every enemy unit"
_RETURN_WHEN = {V.AT_COMMAND: "in its Command phase", V.AT_END_OF_PHASE: "at the end of each phase",
                V.AT_PASSED_SHOCK: "after it passes a battle-shock test"}


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
        if e.trigger == V.ON_FAILED_SHOCK:
            return f"{roll}{e.dice} mortal wounds to it after it fails a battle-shock test"
        return f"{roll}{e.dice} mortal wounds ({e.trigger})"
    if k == V.RETURN:
        when = _RETURN_WHEN[e.trigger]
        if e.which == V.ONE_MODEL:
            return f"one wounded model regains up to {e.dice} wounds {when}"
        return f"regains {e.dice} {'wounds' if e.which == V.WOUNDS else 'models'} {when}"
    if k == V.FIGHTS_FIRST:
        return "fights first"
    if k == V.ARRIVAL_DISTANCE:
        return f"may be set up by Deep Strike more than {e.value}\" from enemy models (not 8\")"
    if k == V.TARGET_LIMIT:
        return f"cannot be targeted from more than {e.value}\" away"
    if k == V.LEND:
        return f"is lent this model's ({e.ability}) abilities"
    if k == V.FORCED_SHOCK:
        when = {V.AT_COMMAND: "in the Command phase", V.IN_SHOCK_STEP: "in its Battle-shock step"}.get(
            e.trigger, "at the start of the phase")
        roll = f"on a D6 of {e.roll}+, " if e.roll else ""
        many = e.dice.is_random or e.dice.k != 1
        mw = f"{e.dice} mortal wound{'s' if many else ''} and " if e.dice.k or e.dice.is_random else ""
        return f"{roll}{mw}a battle-shock test{f' at {e.value:+d}' if e.value else ''} {when}"
    if k == V.TO_RESERVES:
        return "is removed from the battlefield into strategic reserves when picked (not within Engagement Range)"
    if k == V.UNIT_ABILITY:
        return f"its models gain {e.ability.upper()}"
    if k == V.RESURGE:
        return f"when destroyed, may come back whole into strategic reserves for {e.value} points of the pool"
    if k == V.GAIN_DICE:
        when = "at the start of each battle round" if e.trigger == V.AT_ROUND_START else \
            "each time a unit of the army holding it is destroyed"
        n = str(e.dice)
        return f"its army's pool gains {'a die' if n == '1' else n + ' dice'} (rolled, then kept) {when}"
    if k == V.SUBSTITUTE:
        return f"may spend a die of the rule's pool as one die of its {_STAT[e.stat]} (once per phase)"
    if k == V.STRATAGEM_COST:
        what = e.ability or "stratagems"
        return f"{what} cost {e.value:+d} CP"
    if k == V.RITUAL:
        from sim.rules.effects import table
        name = getattr(table.by_key(e.ability), "name", e.ability)
        return (f"may attempt the ritual {name} at the start of its Shooting phase (Psychic test 2D6, a third D6 "
                f"at will, of {e.roll}+; doubles: D3 mortal wounds to it) at a unit within {e.value}\"")
    if k == V.OATH:
        return (f"swears an oath before the battle (a deed and a quality); the deed done: Honoured and "
                f"{e.value} CP ({e.value + 1} if the oath was rolled)")
    if k == V.ELIGIBLE:
        from sim.rules.effects.eligibility import permission_words
        return permission_words(e.ability)
    if k == V.IGNORE_MODIFIERS:
        return f"ignores penalties to its {_STAT[e.stat]}"
    if k == V.MARK:
        return "becomes the marked unit the first time each turn it destroys an enemy unit"
    return k


def grant_words(g: V.Grant) -> str:
    """A grant in one line: what, to whom, when."""
    if g.what.kind == V.OATH:  # (the army's, before the battle: no one affected, no moment)
        return effect_words(g.what)
    who = _WHO.get(g.who)
    if g.who == V.AURA:
        who = f"friendly units within {g.range:g}\""
    elif g.who == V.ENEMY_AURA:
        who = f"enemy units within {g.range:g}\""
    elif g.who == V.CHOSEN_FRIEND:
        who = "the friendly unit picked" + (f" (within {g.range:g}\" of this model)" if g.range else "")
    elif g.who == V.ENEMIES:
        who = "every enemy unit"
    elif g.who == V.ENGAGED_ENEMY:
        who = "one enemy unit engaged with it (picked)"
    if g.what.trigger == V.ON_MANIFEST:  # a ritual's mortal wounds strike its target
        who = "the unit it targets"
    if g.keywords:
        who += " (" + ", ".join(g.keywords) + " only)"
    parts = [effect_words(g.what), "for " + who]
    if g.what.kind == V.GAIN_DICE:  # the army's pool's, for no unit
        parts = parts[:1]
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

"""Short constructors the record modules write their records with (sim.rules.effects.vocabulary):
one line per grant keeps a record readable. Nothing here is a rule."""

from __future__ import annotations

from sim.rules.dice import DiceExpr
from sim.rules.effects import vocabulary as V


def mod(stat: str, value: int) -> V.Effect:
    """A modifier: +1 improves (to hit, to AP, to Sv), -1 worsens."""
    return V.Effect(V.MODIFY, stat, value)


def reroll(stat: str, which: str = V.ANY) -> V.Effect:
    return V.Effect(V.REROLL, stat, which=which)


def fnp(value: int) -> V.Effect:
    return V.Effect(V.FEEL_NO_PAIN, value=value)


def invuln(value: int) -> V.Effect:
    return V.Effect(V.INVULNERABLE, value=value)


def ability(text: str) -> V.Effect:
    """A core weapon ability conferred, as printed: "LETHAL HITS", "SUSTAINED HITS 1: INFANTRY/SWARM"."""
    return V.Effect(V.WEAPON_ABILITY, ability=text)


def mortal(trigger: str, n: int = 0, sides: int = 0, k: int = 0, roll: int = 0) -> V.Effect:
    """``n``D``sides``+``k`` mortal wounds on ``trigger``, on a D6 of ``roll``+ (0: always)."""
    return V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(n, sides, k), roll=roll, trigger=trigger)


def regain(which: str, moment: str, n: int = 0, sides: int = 0, k: int = 0) -> V.Effect:
    return V.Effect(V.RETURN, which=which, dice=DiceExpr(n, sides, k), trigger=moment)


def cost(value: int, stratagem: str = "") -> V.Effect:
    return V.Effect(V.STRATAGEM_COST, value=value, ability=stratagem)


FIGHTS_FIRST = V.Effect(V.FIGHTS_FIRST)


def when(attacks: str = "", phases: tuple[str, ...] = (), turn: str = "", limit: str = "", **conds) -> V.When:
    """A When from keyword arguments: ``charged=True``, ``target_keyword="VEHICLE"``,
    ``target_within=12``, ``battle_round=3``, ``leading=True`` ... (condition names with '_')."""
    pairs = []
    for name, arg in conds.items():
        cond = name.replace("_", " ")
        if cond not in V.CONDITIONS:
            raise V.VocabularyError(f"unknown condition {cond!r}")
        pairs.append((cond, None if arg is True else arg))
    return V.When(phases=phases, attacks=attacks, turn=turn, conditions=tuple(pairs), limit=limit)


def grant(what: V.Effect, who: str = V.UNIT, w: V.When = V.ALWAYS, range: float = 0.0,
          keywords: tuple[str, ...] = ()) -> V.Grant:
    return V.Grant(what, who, w, range, keywords)


def bearer(what: V.Effect, w: V.When = V.ALWAYS) -> V.Grant:
    return V.Grant(what, V.BEARER, w)


def unit(what: V.Effect, w: V.When = V.ALWAYS, keywords: tuple[str, ...] = ()) -> V.Grant:
    return V.Grant(what, V.UNIT, w, 0.0, keywords)


def army(what: V.Effect, w: V.When = V.ALWAYS, keywords: tuple[str, ...] = ()) -> V.Grant:
    return V.Grant(what, V.ARMY, w, 0.0, keywords)


def aura(what: V.Effect, range: float, w: V.When = V.ALWAYS, keywords: tuple[str, ...] = ()) -> V.Grant:
    return V.Grant(what, V.AURA, w, range, keywords)


def enemy_aura(what: V.Effect, range: float, w: V.When = V.ALWAYS, keywords: tuple[str, ...] = ()) -> V.Grant:
    return V.Grant(what, V.ENEMY_AURA, w, range, keywords)


def _names(names) -> tuple[str, ...]:
    return (names,) if isinstance(names, str) else tuple(names)


def ds(key: str, names, summary: str, *grants: V.Grant, ids=(), faction: str = "", partial: str = "",
       choice: V.RuleChoice | None = None) -> V.RuleRecord:
    """A datasheet ability's record."""
    return V.RuleRecord(key, _names(names), V.DATASHEET, summary, tuple(grants), tuple(ids), faction,
                        choice=choice, partial=partial)


def army_rule(key: str, names, summary: str, *grants: V.Grant, ids=(), faction: str = "", partial: str = "",
              choice: V.RuleChoice | None = None) -> V.RuleRecord:
    return V.RuleRecord(key, _names(names), V.ARMY_RULE, summary, tuple(grants), tuple(ids), faction,
                        choice=choice, partial=partial)


def detachment_rule(key: str, names, detachment: str, summary: str, *grants: V.Grant, ids=(), faction: str = "",
                    partial: str = "", choice: V.RuleChoice | None = None) -> V.RuleRecord:
    return V.RuleRecord(key, _names(names), V.DETACHMENT_RULE, summary, tuple(grants), tuple(ids), faction,
                        detachment, choice, partial)


def led(what: V.Effect, attacks: str = "", **conds) -> V.Grant:
    """While the bearer leads a unit (19.01), the whole unit has it."""
    return V.Grant(what, V.UNIT, when(attacks, leading=True, **conds))

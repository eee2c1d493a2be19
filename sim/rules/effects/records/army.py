"""Army rules: one record each, in our own words (sim.rules.effects.vocabulary)."""

from sim.rules.dice import DiceExpr
from sim.rules.effects.vocabulary import (ARMY, ARMY_RULE, AT_END_OF_PHASE, CALL, CHOSEN, FAILED, INVULNERABLE,
                                          MODIFY, PICK_ENEMY, REROLL, RETURN, TARGET_CHOSEN, UNTIL_YOUR_NEXT_COMMAND,
                                          WOUNDS, Effect, Grant, RuleChoice, RuleRecord, When)

_OATH = When(conditions=((TARGET_CHOSEN, None),))
_WAAAGH = When(conditions=((CHOSEN, None),))

RECORDS = (
    RuleRecord(
        "oath-of-moment", ("Oath of Moment",), ARMY_RULE,
        "Each Command phase pick one enemy unit: attacks at it may re-roll the hit roll.",
        grants=(Grant(Effect(REROLL, "hit", which=FAILED), ARMY, _OATH),),
        ids=("3b76-4053-ece9-6e7d",), faction="Adeptus Astartes",
        choice=RuleChoice(PICK_ENEMY, "command", "Oath of Moment: pick the enemy unit to mark")),
    RuleRecord(
        "waaagh", ("Waaagh!",), ARMY_RULE,
        "Once per battle, called in your Command phase until your next one: +1 S and +1 A in melee and a "
        "5+ invulnerable save.",
        grants=(Grant(Effect(MODIFY, "S", 1), ARMY, When(attacks="melee", conditions=((CHOSEN, None),))),
                Grant(Effect(MODIFY, "A", 1), ARMY, When(attacks="melee", conditions=((CHOSEN, None),))),
                Grant(Effect(INVULNERABLE, value=5), ARMY, _WAAAGH)),
        ids=("37c-6ef9-277-9091",), faction="Orks",
        choice=RuleChoice(CALL, "command", "Call the Waaagh! now (once per battle)?", UNTIL_YOUR_NEXT_COMMAND, uses=1),
        partial="charging after advancing is not modelled"),
    RuleRecord(
        "reanimation-protocols", ("Reanimation Protocols",), ARMY_RULE,
        "At the end of each phase each unit regains D3 wounds, bringing back destroyed models.",
        grants=(Grant(Effect(RETURN, which=WOUNDS, dice=DiceExpr(1, 3, 0), trigger=AT_END_OF_PHASE), ARMY),),
        faction="Necrons"),
)

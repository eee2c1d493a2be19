"""Army rules: one record each, in our own words (sim.rules.effects.vocabulary). Where a rule
offers a fixed set of options (stances, imperatives, vows), the record holding the community id
is the first option and each other option is a record of its own a scenario may name instead.

Army rules of the community data with no record here are beyond the vocabulary (their part
that acts needs a kind it lacks): tests/rules/effects/test_records.py lists them with why."""

from sim.rules.effects.records._kit import (ability, army, army_rule, enemy_aura, invuln, mod, regain, reroll,
                                            when)
from sim.rules.effects.vocabulary import (AT_END_OF_PHASE, CALL, PICK_ENEMY, THIS_TURN, UNTIL_YOUR_NEXT_COMMAND,
                                          WOUNDS, RuleChoice)

_OATH = when(target_chosen=True)
_WAAAGH = when(chosen=True)
_WAAAGH_MELEE = when("melee", chosen=True)
_NURGLE = "contagion range grows to 6\" in battle round 2 and 9\" from round 3 (kept at 3\" here)"

RECORDS = (
    army_rule(
        "oath-of-moment", "Oath of Moment",
        "Each Command phase mark one enemy unit; attacks against it may re-roll the hit roll.",
        army(reroll("hit"), _OATH),
        ids=("3b76-4053-ece9-6e7d",), faction="Adeptus Astartes",
        choice=RuleChoice(PICK_ENEMY, "command", "Oath of Moment: pick the enemy unit to mark"),
        partial="the extra +1 to wound with a Codex: Space Marines detachment is not modelled"),
    army_rule(
        "waaagh", "Waaagh!",
        "Called once per battle at your Command phase, until the next one: +1 S and +1 A in melee and a "
        "5+ invulnerable save.",
        army(mod("S", 1), _WAAAGH_MELEE), army(mod("A", 1), _WAAAGH_MELEE), army(invuln(5), _WAAAGH),
        ids=("37c-6ef9-277-9091",), faction="Orks",
        choice=RuleChoice(CALL, "command", "Call the Waaagh! now (once per battle)?", UNTIL_YOUR_NEXT_COMMAND, uses=1),
        partial="charging after advancing is not modelled"),
    army_rule(
        "reanimation-protocols", "Reanimation Protocols",
        "As your Command phase ends each unit heals D3 wounds, standing destroyed models back up once whole.",
        army(regain(WOUNDS, AT_END_OF_PHASE, 1, 3), when(phases=("command",), turn="own")),
        ids=("a511-d9ca-17d0-42c5",), faction="Necrons"),
    army_rule(
        "harbingers-of-dread", "Harbingers of Dread",
        "Deathly Terror: enemy units within 9\" of the knight have Leadership 1 worse.",
        enemy_aura(mod("Ld", -1), 9),
        ids=("d71a-a59f-aafd-3723",), faction="Chaos Knights",
        partial="the further Dread abilities picked or rolled in battle rounds 1, 3 and 5 are not modelled"),
    army_rule(
        "nurgles-gift", ("Nurgle's Gift (Aura)", "Nurgle's Gift"),
        "Enemy units within contagion range of the unit are Afflicted: -1 Toughness.",
        enemy_aura(mod("T", -1), 3),
        ids=("ea42-7d15-fd81-73d6",), faction="Death Guard",
        partial=_NURGLE + "; the plague chosen before the battle is not part of this record (see the "
                "nurgles-gift-* records)"),
    army_rule(
        "nurgles-gift-skullsquirm-blight", "Nurgle's Gift (Skullsquirm Blight)",
        "Afflicted enemies (within contagion range): -1 Toughness and -1 to their melee hit rolls.",
        enemy_aura(mod("T", -1), 3), enemy_aura(mod("hit", -1), 3, when("melee")),
        faction="Death Guard", partial=_NURGLE),
    army_rule(
        "nurgles-gift-rattlejoint-ague", "Nurgle's Gift (Rattlejoint Ague)",
        "Afflicted enemies (within contagion range): -1 Toughness and a Save one worse.",
        enemy_aura(mod("T", -1), 3), enemy_aura(mod("Sv", -1), 3),
        faction="Death Guard", partial=_NURGLE),
    army_rule(
        "nurgles-gift-scabrous-soulrot", "Nurgle's Gift (Scabrous Soulrot)",
        "Afflicted enemies (within contagion range): -1 Toughness, and Move, Leadership and OC one worse.",
        enemy_aura(mod("T", -1), 3), enemy_aura(mod("M", -1), 3), enemy_aura(mod("Ld", -1), 3),
        enemy_aura(mod("OC", -1), 3),
        faction="Death Guard", partial=_NURGLE + "; OC is not kept from dropping below 1"),
    army_rule(
        "martial-katah", ("Martial Ka'tah", "Martial Ka'tah (Dacatarai Stance)"),
        "Dacatarai stance: the unit's melee weapons gain [SUSTAINED HITS 1].",
        army(ability("SUSTAINED HITS 1"), when("melee")),
        ids=("e348-7090-3aff-ee2c",), faction="Adeptus Custodes",
        partial="the stance is fixed for the battle (Rendax is the record martial-katah-rendax), not picked "
                "each time the unit fights"),
    army_rule(
        "martial-katah-rendax", "Martial Ka'tah (Rendax Stance)",
        "Rendax stance: the unit's melee weapons gain [LETHAL HITS].",
        army(ability("LETHAL HITS"), when("melee")),
        faction="Adeptus Custodes",
        partial="the stance is fixed for the battle, not picked each time the unit fights"),
    army_rule(
        "doctrina-imperatives", ("Doctrina Imperatives", "Doctrina Imperatives (Protector)"),
        "Protector Imperative: ranged weapons gain [HEAVY] and +1 BS.",
        army(ability("HEAVY"), when("ranged")), army(mod("BS", 1), when("ranged")),
        ids=("7a21-a958-e47d-5c0d",), faction="Adeptus Mechanicus",
        partial="the imperative is fixed for the battle (Conqueror is doctrina-imperatives-conqueror), not picked "
                "each round; -1 to be hit in melee for BATTLELINE units and those near them is not modelled"),
    army_rule(
        "doctrina-imperatives-conqueror", "Doctrina Imperatives (Conqueror)",
        "Conqueror Imperative: ranged weapons gain [ASSAULT], melee +1 WS; BATTLELINE units add 1 to AP.",
        army(ability("ASSAULT"), when("ranged")), army(mod("WS", 1), when("melee")),
        army(mod("AP", 1), keywords=("BATTLELINE",)),
        faction="Adeptus Mechanicus",
        partial="fixed for the battle, not picked each round; the AP bonus for units within 6\" of a friendly "
                "BATTLELINE unit is not modelled"),
    army_rule(
        "templar-vows", ("Templar Vows", "Templar Vows (Abhor the Witch)"),
        "Abhor the Witch vow: charges at PSYKER units may be re-rolled; melee attacks on PSYKERs gain "
        "[PRECISION].",
        army(reroll("charge"), when(target_keyword="PSYKER")), army(ability("PRECISION: PSYKER"), when("melee")),
        ids=("f26c-4b28-aaea-40cf",), faction="Adeptus Astartes",
        partial="the other three vows (wound bonus when S <= T, charging after falling back, sticky objectives) "
                "are not modelled"),
    army_rule(
        "for-the-greater-good", "For The Greater Good",
        "Each Shooting phase mark one enemy unit as Spotted: attacks against it get +1 BS.",
        army(mod("BS", 1), when("ranged", target_chosen=True)),
        ids=("eeb6-c42-48f7-cc21",), faction="T'au Empire",
        choice=RuleChoice(PICK_ENEMY, "shooting", "For The Greater Good: pick the Spotted enemy unit", THIS_TURN),
        partial="observer units (which must see the target and do not shoot it themselves), more than one "
                "Spotted unit and [IGNORES COVER] from MARKERLIGHT observers are not modelled"),
    army_rule(
        "synapse", "Synapse",
        "TYRANIDS units in Synapse range add 1 to the Strength of their melee attacks.",
        army(mod("S", 1), when("melee"), keywords=("TYRANIDS",)),
        ids=("86aa-437f-260b-5cad",), faction="Tyranids",
        partial="the unit is taken to be always within 6\" of a SYNAPSE model (range not checked); battle-shock "
                "tests on 3D6 are not modelled"),
    army_rule(
        "prioritised-efficiency", ("Prioritised Efficiency", "Prioritised Efficiency (Hostile Acquisition)"),
        "Hostile Acquisition: the unit may re-roll its advance and charge rolls.",
        army(reroll("advance")), army(reroll("charge")),
        ids=("351a-a702-9080-7f08",), faction="Leagues of Votann",
        partial="+1 to hit against units on objectives and the switch to Fortify Takeover at 7 Yield points are "
                "not modelled (Fortify Takeover is prioritised-efficiency-fortify-takeover)"),
    army_rule(
        "prioritised-efficiency-fortify-takeover", "Prioritised Efficiency (Fortify Takeover)",
        "Fortify Takeover: +1 to hit while a model of the unit is in range of an objective.",
        army(mod("hit", 1), when(on_objective=True)),
        faction="Leagues of Votann",
        partial="control of the objective is not checked; -1 to be wounded by attacks with S above T is not "
                "modelled"),
)

"""Detachment rules: one record each, in our own words (sim.rules.effects.vocabulary). First the
rule of the detachment each faction's community catalogue lists first, then the detachment rules
the data copies onto datasheets (Necrons: every dynasty's rule sits on every datasheet, shown
only when its detachment is chosen). Options of one rule (tactics, adaptations) are records of
their own beside the one that holds the community id."""

from sim.rules.effects.records._kit import ability, army, detachment_rule, mod, reroll, when
from sim.rules.effects.vocabulary import CALL, ONES, PICK_ENEMY, THIS_ROUND, UNTIL_NEXT_CHOICE, RuleChoice

_MISSION = "the tactic is fixed for the battle, not picked each Command phase (each once per battle)"

RECORDS = (
    # --- the first detachment of each faction ---------------------------------------------------
    detachment_rule(
        "relentless-rage", "Relentless Rage", "Berzerker Warband",
        "After a WORLD EATERS unit charges, its melee weapons get +1 A and +2 S until the turn ends.",
        army(mod("A", 1), when("melee", charged=True), keywords=("WORLD EATERS",)),
        army(mod("S", 2), when("melee", charged=True), keywords=("WORLD EATERS",)),
        ids=("5fc9-9ee8-8657-65b6",), faction="World Eaters"),
    detachment_rule(
        "the-blood-of-martyrs", "The Blood of Martyrs", "Hallowed Martyrs",
        "ADEPTA SORORITAS attacks: +1 to hit once the unit has lost models, and +1 to wound too below half.",
        army(mod("hit", 1), when(below_half=True), keywords=("ADEPTA SORORITAS",)),
        army(mod("wound", 1), when(below_half=True), keywords=("ADEPTA SORORITAS",)),
        ids=("afa4-169c-3aaa-650",), faction="Adepta Sororitas",
        partial="the +1 to hit applies here only below half-strength, not as soon as the unit is below its "
                "starting strength"),
    detachment_rule(
        "martial-mastery", "Martial Mastery", "Shield Host",
        "Each battle round you may choose: melee weapons of Ka'tah models get +1 AP for that round.",
        army(mod("AP", 1), when("melee", chosen=True), keywords=("ADEPTUS CUSTODES",)),
        ids=("d6d9-f1f1-2687-7b51",), faction="Adeptus Custodes",
        choice=RuleChoice(CALL, "command", "Martial Mastery: +1 AP in melee this battle round?", THIS_ROUND),
        partial="the other option (critical hits on unmodified 5+ in melee) is not modelled; the choice is asked "
                "in your Command phase rather than at the start of the round; the Martial Ka'tah ability is not "
                "checked"),
    detachment_rule(
        "deathwatch-mission-tactics", ("Deathwatch Mission Tactics", "Deathwatch Mission Tactics (Furor)"),
        "Alien Hunters (Ordo Xenos)",
        "Furor Tactics: weapons of DEATHWATCH units gain [SUSTAINED HITS 1].",
        army(ability("SUSTAINED HITS 1"), keywords=("DEATHWATCH",)),
        ids=("e9d9-5b1a-3377-bf4f",), faction="Agents of the Imperium",
        partial=_MISSION + "; Malleus is deathwatch-mission-tactics-malleus, Purgatus ([PRECISION] on critical "
                "wounds) is not modelled"),
    detachment_rule(
        "deathwatch-mission-tactics-malleus", "Deathwatch Mission Tactics (Malleus)", "Alien Hunters (Ordo Xenos)",
        "Malleus Tactics: weapons of DEATHWATCH units gain [LETHAL HITS].",
        army(ability("LETHAL HITS"), keywords=("DEATHWATCH",)),
        faction="Agents of the Imperium", partial=_MISSION),
    detachment_rule(
        "bold-gallantry", "Bold Gallantry", "Valourstrike Lance",
        "IMPERIAL KNIGHTS ranged weapons have [ASSAULT] (the rule grants it once a knight advances).",
        army(ability("ASSAULT"), when("ranged"), keywords=("IMPERIAL KNIGHTS",)),
        ids=("92f9-bfbb-ce23-f12a",), faction="Imperial Knights"),
    detachment_rule(
        "methodical-annihilation", "Methodical Annihilation", "Hearthband",
        "LEAGUES OF VOTANN attacks at an enemy within engagement range re-roll wound rolls of 1.",
        army(reroll("wound", ONES), when(target_within=2), keywords=("LEAGUES OF VOTANN",)),
        ids=("70a5-9f3d-4e2f-8eb3",), faction="Leagues of Votann",
        partial="attacks at the closest eligible target beyond engagement range, and the +1 AP of Kahl, "
                "Einhyr Hearthguard and Uthar the Destined, are not modelled"),
    detachment_rule(
        "get-stuck-in", "Get Stuck In", "War Horde",
        "ORKS melee weapons have [SUSTAINED HITS 1].",
        army(ability("SUSTAINED HITS 1"), when("melee"), keywords=("ORKS",)),
        ids=("7d88-fb67-ac56-ec9",), faction="Orks"),
    detachment_rule(
        "patient-hunter", "Patient Hunter", "Kauyon",
        "From battle round 3 on, T'AU EMPIRE ranged weapons have [SUSTAINED HITS 1].",
        army(ability("SUSTAINED HITS 1"), when("ranged", battle_round=3), keywords=("T'AU EMPIRE",)),
        ids=("317c-3f1d-9993-b610",), faction="T'au Empire",
        partial="Guided units ignoring modifiers to BS and hit rolls against Spotted units is not modelled"),
    detachment_rule(
        "hyper-adaptions", ("Hyper Adaptions", "Hyper Adaptions (Swarming Instincts)"), "Invasion Fleet",
        "Swarming Instincts: TYRANIDS attacks at INFANTRY or SWARM units have [SUSTAINED HITS 1].",
        army(ability("SUSTAINED HITS 1: INFANTRY/SWARM"), keywords=("TYRANIDS",)),
        ids=("9faa-bec0-9a4e-901e",), faction="Tyranids",
        partial="the adaptation is fixed (Hyper-aggression is hyper-adaptions-hyper-aggression); Hive Predators "
                "([PRECISION] on critical hits against CHARACTERS) is not modelled"),
    detachment_rule(
        "hyper-adaptions-hyper-aggression", "Hyper Adaptions (Hyper-aggression)", "Invasion Fleet",
        "Hyper-aggression: TYRANIDS attacks at MONSTER or VEHICLE units have [LETHAL HITS].",
        army(ability("LETHAL HITS: MONSTER/VEHICLE"), keywords=("TYRANIDS",)),
        faction="Tyranids"),
    # --- Necron dynasties' rules, carried by every Necron datasheet --------------------------
    detachment_rule(
        "annihilation-protocol", "Annihilation Protocol", "Annihilation Legion",
        "DESTROYER CULT and FLAYED ONES units may re-roll charge rolls.",
        army(reroll("charge"), keywords=("DESTROYER CULT",)), army(reroll("charge"), keywords=("FLAYED ONES",)),
        ids=("cb2f-c68b-f66e-93ae",), faction="Necrons",
        partial="+1 to the charge against a unit below half-strength and +1 AP at the closest target are not "
                "modelled"),
    detachment_rule(
        "cold-fervour", "Cold Fervour", "Cursed Legion",
        "Weapons of DESTROYER CULT models get +2 Strength.",
        army(mod("S", 2), keywords=("DESTROYER CULT",)),
        ids=("6033-8abb-9299-a5dc",), faction="Necrons",
        partial="the +2 S for other NECRONS models after a DESTROYER CULT unit destroys or breaks a unit is not "
                "modelled"),
    detachment_rule(
        "power-matrix", "Power Matrix", "Canoptek Court",
        "CRYPTEK and CANOPTEK units re-roll hit rolls of 1.",
        army(reroll("hit", ONES), keywords=("CRYPTEK",)), army(reroll("hit", ONES), keywords=("CANOPTEK",)),
        ids=("5aff-abb1-f06d-23a5",), faction="Necrons",
        partial="the full hit re-roll while wholly within the Power Matrix (own zone, or held no man's land / "
                "enemy zone) is not modelled"),
    detachment_rule(
        "technosorcerous-augmentations", "Technosorcerous Augmentations", "Cryptek Conclave",
        "Ranged weapons of CRYPTEK models have [ASSAULT].",
        army(ability("ASSAULT"), when("ranged"), keywords=("CRYPTEK",)),
        ids=("666e-a57a-9fe0-65e6",), faction="Necrons",
        partial="the extra weapon ability picked each time a CRYPTEK unit shoots is not modelled"),
    detachment_rule(
        "worthy-foes", "Worthy Foes", "Obeisance Phalanx",
        "Each Command phase pick an enemy unit: NOBLE, LYCHGUARD and TRIARCH attacks at it get +1 to wound.",
        army(mod("wound", 1), when(target_chosen=True), keywords=("NOBLE",)),
        army(mod("wound", 1), when(target_chosen=True), keywords=("LYCHGUARD",)),
        army(mod("wound", 1), when(target_chosen=True), keywords=("TRIARCH",)),
        ids=("a0f8-2836-4418-50a4",), faction="Necrons",
        choice=RuleChoice(PICK_ENEMY, "command", "Worthy Foes: pick the enemy unit", UNTIL_NEXT_CHOICE)),
)

"""The events of making attacks (04-06, 10, 12.05, 24) and of the mortal wounds and casualties
that follow, stratagems' included (15.05, 15.06). Declarations only (sim.events.schema says
how to read them)."""

from typing import Annotated, Literal, NotRequired, TypedDict

from sim import events as ev
from sim.events.core import CommandReroll, Event
from sim.events.schema import registrar

DECLARED: dict[str, type] = {}
declare = registrar(DECLARED)


# --- 04 / 10 selecting -----------------------------------------------------------------------
@declare(ev.SHOOTING_TYPE)
class ShootingType(Event):
    """10.02 The shooting type a unit selected to shoot shoots with (ShootingTypeSystem)."""

    unit: Annotated[str, "the shooting unit's id"]
    shooting_type: Annotated[str, "the shooting type it shoots with"]
    requested: Annotated[str | None, "the type the command asked for; null: the default (10.02)"]
    eligible: Annotated[dict[str, bool], "each shooting type: whether the unit qualifies for it"]
    reasons: Annotated[dict[str, str], "each type it does not qualify for: why, citing the rule"]


@declare(ev.WEAPONS_SELECTED)
class WeaponsSelected(Event):
    """04.01 / 04.02 The weapons and targets of a unit's attacks (WeaponSelectionSystem)."""

    unit: Annotated[str, "the attacking unit's id"]
    kind: Annotated[str, "'shoot' or 'fight' (sim.rules.attack.AttackKind)"]
    selections: Annotated[list[tuple[str, str, str | None, int | None]],
                          "[model id, weapon, target unit or null, attacks or null: the profile's] for "
                          "each attack declared"]


# --- 04.03 - 05.04 the attack sequence, one pool at a time -----------------------------------
@declare(ev.POOL)
class Pool(Event):
    """04.03 A pool of attack dice gathered: its weapons' profile and what modifies it; or a
    pool whose target was destroyed first (``note``: every other field but pool, target and
    dice left out)."""

    pool: Annotated[int, "the pool's index in the activation, from 0"]
    target: Annotated[str, "the target unit's id"]
    dice: Annotated[int, "the attack dice (0 for a pool whose attacks are lost)"]
    note: NotRequired[Annotated[str, "why the pool's attacks are lost (its target was destroyed)"]]
    melee: NotRequired[Annotated[bool, "true for melee attacks (WS), false for ranged ones (BS)"]]
    weapons: NotRequired[Annotated[list[str], "the pool's weapons' names, sorted"]]
    attackers: NotRequired[Annotated[list[str], "the attacking models' ids"]]
    skill: NotRequired[Annotated[int, "the BS or WS: the hit roll's target number"]]
    S: NotRequired[Annotated[int | str, "the Strength (a random one as its dice, e.g. \"2D6\": 02.02.03)"]]
    AP: NotRequired[Annotated[int, "the Armour Penetration (0 or less)"]]
    D: NotRequired[Annotated[str, "the Damage: a number or dice ('2', 'D3+1')"]]
    T: NotRequired[Annotated[int, "the target's Toughness (05.02.01: its majority's)"]]
    hit_mod: NotRequired[Annotated[int, "the hit roll's modifier (02.02.01: capped)"]]
    wound_mod: NotRequired[Annotated[int, "the wound roll's modifier (02.02.01: capped)"]]
    abilities: NotRequired[Annotated[list[str], "the weapon abilities that apply, as printed"]]
    psychic: NotRequired[Annotated[bool, "psychic attacks that ignore modifiers (24.29)"]]
    ignored: NotRequired[Annotated[list[str], "the modifiers psychic attacks ignore"]]
    modifiers: NotRequired[Annotated[list[tuple[str, int]], "[source, value] of each modifier counted"]]
    rules: NotRequired[Annotated[list[tuple[str, str]], "[rule, what it gives] of each rule's effect the attacks take"]]
    target_rules: NotRequired[Annotated[list[tuple[str, str]], "[rule, what it gives] of each rule's effect the "
                                                               "target's models take against them"]]
    snap: NotRequired[Annotated[bool, "snap shooting (15.09): the BS is ignored"]]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one die of the attack-"
                                                         "count rolls (dice counts it)"]]


@declare(ev.HITS)
class HitRolls(Event):
    """05.01 A pool's hit rolls, judged (sim.rules.sequence.judge_hits)."""

    pool: Annotated[int, "the pool's index"]
    skill: Annotated[int, "the BS or WS"]
    modifier: Annotated[int, "the hit roll's modifier"]
    rolls: Annotated[list[int], "the hit rolls, re-rolls made (empty: automatic hits, 24.37)"]
    hits: Annotated[int, "the hits scored, sustained hits' extra hits included"]
    criticals: Annotated[int, "the critical hits"]
    auto: NotRequired[Annotated[bool, "true: the hits are automatic, no roll (24.37)"]]
    sustained: NotRequired[Annotated[int, "the extra hits of sustained hits (24.36)"]]
    lethal: NotRequired[Annotated[int, "the critical hits that wound automatically (lethal hits, 24.23)"]]
    rerolled: NotRequired[Annotated[list[int], "the results of the abilities' re-rolls (1s)"]]
    snap: NotRequired[Annotated[bool, "snap shooting (15.09): only an unmodified 6 hits, never critical"]]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one hit die (15.02)"]]


@declare(ev.WOUNDS)
class WoundRolls(Event):
    """05.02 A pool's wound rolls, judged (sim.rules.sequence.judge_wounds)."""

    pool: Annotated[int, "the pool's index"]
    S: Annotated[int | str, "the Strength (a random one as its dice, e.g. \"2D6\": 02.02.03)"]
    T: Annotated[int, "the target's Toughness"]
    critical_on: Annotated[int, "the unmodified result that is a critical wound (24.03 may lower it)"]
    rolls: Annotated[list[int], "the wound rolls, re-rolls made"]
    rerolled: Annotated[list[int], "the results of the abilities' re-rolls (24.38, of 1s)"]
    strengths: NotRequired[Annotated[list[int], "a random S: the S rolled for each wound roll (02.02.03)"]]
    wounds: Annotated[int, "the wounds scored, automatic ones included"]
    criticals: Annotated[int, "the critical wounds"]
    auto: Annotated[int, "the wounds scored automatically (lethal hits, 24.23)"]
    devastating: Annotated[int, "the critical wounds that become mortal wounds (24.10)"]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one wound die (15.02)"]]


@declare(ev.PRECISION)
class Precision(Event):
    """24.28 [PRECISION]: the CHARACTER the attacker picks to take the wounds first."""

    pool: Annotated[int, "the pool's index"]
    target: Annotated[str, "the target unit's id"]
    visible: Annotated[list[str], "the CHARACTER models visible to the attackers"]
    chosen: Annotated[str | None, "the one picked; null: none (declined, or none visible)"]
    note: NotRequired[Annotated[str, "why there was no choice"]]


@declare(ev.ALLOCATION)
class AllocationOrder(Event):
    """05.03 The order in which the target's allocation groups take the wounds."""

    pool: Annotated[int, "the pool's index"]
    order: Annotated[list[str], "the groups' keys, first takes wounds first"]
    groups: Annotated[dict[str, list[str]], "each group's key: its models' ids"]
    precision: Annotated[str | None, "the group taking wounds first (24.28: a CHARACTER's), if any"]


@declare(ev.SAVES)
class SaveRolls(Event):
    """05.03 step 3 A pool's save rolls, one per wound, sorted (05.04 takes them lowest first)."""

    pool: Annotated[int, "the pool's index"]
    rolls: Annotated[list[int], "the save rolls"]
    AP: Annotated[int, "the Armour Penetration they are made against"]
    rerolled: NotRequired[Annotated[list[int], "the results of a rule's re-rolls of save rolls (01.05.02)"]]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one save die (15.02; the "
                                                         "die's index in the rolls first made, sorted)"]]


class SavedStep(TypedDict):
    """05.04 A save roll that saved."""

    save: Annotated[int, "the save roll"]
    model: Annotated[str, "the model it went to"]
    group: Annotated[str, "the model's allocation group"]
    saved: Annotated[Literal[True], "true"]
    invulnerable: Annotated[bool, "saved with the invulnerable save"]
    save_mod: NotRequired[Annotated[int, "the model's save-roll modifier"]]


class FailedStep(TypedDict):
    """05.04 A save roll that failed: the damage inflicted."""

    save: Annotated[int, "the save roll"]
    model: Annotated[str, "the model it went to"]
    group: Annotated[str, "the model's allocation group"]
    saved: Annotated[Literal[False], "false"]
    damage: Annotated[int, "the damage rolled or fixed (after a rule's change to the Damage it takes)"]
    lost: Annotated[int, "the wounds the model lost (at most its remaining ones)"]
    taken: NotRequired[Annotated[int, "the modifier a rule gave the Damage allocated to the model (never below 1)"]]
    destroyed: Annotated[bool, "the model was destroyed"]
    save_mod: NotRequired[Annotated[int, "the model's save-roll modifier"]]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one damage die (15.02)"]]
    fnp: NotRequired[Annotated[list[int], "the Feel No Pain rolls (24.12)"]]


class DevastatingStep(TypedDict):
    """24.10 The mortal wounds of a [DEVASTATING WOUNDS] critical wound."""

    mortal: Annotated[int, "the mortal wounds (the Damage)"]
    model: Annotated[str, "the model they went to"]
    lost: Annotated[int, "the wounds it lost"]
    destroyed: Annotated[bool, "the model was destroyed"]
    source: Annotated[str, "'devastating wounds'"]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one damage die (15.02)"]]
    fnp: NotRequired[Annotated[list[int], "the Feel No Pain rolls (24.12)"]]


class LostStep(TypedDict):
    """05.04 The target unit is destroyed: the pool's remaining attacks are lost."""

    lost: Annotated[str, "why the remaining attacks are lost"]


@declare(ev.DAMAGE)
class Damage(Event):
    """05.04 Inflict damage: each save roll's outcome, in order (sim.rules.sequence.damage_steps)."""

    pool: Annotated[int, "the pool's index"]
    steps: Annotated[list[SavedStep | FailedStep | DevastatingStep | LostStep], "one per save roll or "
                                                                                "devastating wound"]


class MortalStep(TypedDict):
    """06.02 One mortal wound."""

    model: Annotated[str, "the model it went to"]
    lost: Annotated[int, "1, or 0 when Feel No Pain saved it"]
    destroyed: Annotated[bool, "the model was destroyed"]
    fnp: NotRequired[Annotated[list[int], "the Feel No Pain roll (24.12)"]]


@declare(ev.MORTAL)
class MortalWounds(Event):
    """06.02 Mortal wounds a unit suffers, one at a time (sim.systems.mortal_wounds)."""

    unit: Annotated[str, "the unit's id"]
    source: Annotated[str, "what inflicts them ('hazard rolls', 'deadly demise of tank/1', ...)"]
    count: Annotated[int, "how many"]
    steps: Annotated[list[MortalStep], "each one resolved (fewer when the unit was destroyed first)"]


@declare(ev.DESTROYED)
class ModelDestroyed(Event):
    """A model destroyed (the report folds it into the damage it took)."""

    model: Annotated[str, "the model's id"]
    by: Annotated[str, "what destroyed it: the attacking unit's id, or the source of mortal wounds"]


@declare(ev.UNIT_DESTROYED)
class UnitDestroyed(Event):
    """A unit destroyed: its last model destroyed, or never arrived from reserves (20.03)."""

    unit: Annotated[str, "the unit's id"]
    by: NotRequired[Annotated[str, "what destroyed it (the attacker, a source of mortal wounds, "
                                   "'still in strategic reserves (20.03)')"]]


@declare(ev.HAZARD)
class HazardRolls(Event):
    """06.03 / 24.15 Hazard rolls after a unit's attacks with [HAZARDOUS] weapons, or a
    Desperate Escape's (09.07)."""

    unit: Annotated[str, "the unit's id"]
    rolls: Annotated[list[int], "the hazard rolls (empty: none made, see note)"]
    failures: Annotated[int, "the rolls of 1-2"]
    mortal_wounds: Annotated[int, "the mortal wounds they inflict"]
    per_failure: NotRequired[Annotated[int, "the mortal wounds per failure (3 for a unit of MONSTER or "
                                            "VEHICLE models)"]]
    note: NotRequired[Annotated[str, "a Desperate Escape's, or why no roll was made"]]
    command_reroll: NotRequired[Annotated[CommandReroll, "a Command Re-roll of one failed die (15.02)"]]


@declare(ev.ATTACKS_DONE)
class AttacksResolved(Event):
    """A unit's attacks all resolved: its casualties removed (CasualtySystem)."""

    unit: Annotated[str, "the attacking unit's id"]
    kind: Annotated[str, "'shoot' or 'fight' (sim.rules.attack.AttackKind)"]
    removed: Annotated[list[str], "the models removed as casualties"]


@declare(ev.DEADLY_DEMISE)
class DeadlyDemise(Event):
    """24.09 [DEADLY DEMISE X]: the D6 for a destroyed model, before it is removed."""

    model: Annotated[str, "the destroyed model's id"]
    roll: Annotated[int, "the D6"]
    units: Annotated[list[str], "the units within 6\" that suffer mortal wounds (on a 6)"]


@declare(ev.EXPLOSIVES)
class Explosives(Event):
    """15.05 Explosives: the six D6 and the mortal wounds they inflict."""

    unit: Annotated[str, "the unit using it"]
    model: Annotated[str, "the model throwing"]
    target: Annotated[str, "the enemy unit's id"]
    rolls: Annotated[list[int], "the D6"]
    mortal_wounds: Annotated[int, "the mortal wounds inflicted (one per 4+)"]


@declare(ev.CRUSHING_IMPACT)
class CrushingImpact(Event):
    """15.06 Crushing Impact: the dice and the mortal wounds they inflict on each side."""

    unit: Annotated[str, "the charging unit's id"]
    model: Annotated[str, "the MONSTER or VEHICLE model"]
    T: Annotated[int, "its Toughness (how many dice)"]
    target: Annotated[str, "the enemy unit's id"]
    rolls: Annotated[list[int], "the dice"]
    to_enemy: Annotated[int, "mortal wounds to the enemy unit"]
    to_own: Annotated[int, "mortal wounds to the model's own unit"]

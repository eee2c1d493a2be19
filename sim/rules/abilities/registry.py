"""24 The ability registry: one record per weapon or unit ability, and the only place in the
engine that names one.

A record says how the ability is printed (name, aliases, the kind of value X it takes and its
default), where its rule is (section) and what the rule says in one line (the sandbox's help),
and what it does, as hooks (sim.rules.abilities.hooks) and small pure functions:

* ``selection_only``: it acts only before attacks are gathered (selection, extra dice, damage
  bonus), so it never makes two otherwise identical attacks different (04.03 pooling);
* ``applies``: whether it applies to a target beyond 24.01's keyword condition (24.03 [ANTI]
  needs its keyword, the 04.03 FAQ drops [PRECISION] against a unit with no CHARACTER);
* ``extra_dice``: attack dice it adds to the weapon's A (04.03 step 2);
* ``extra_damage``: what it adds to D (24.25);
* ``modifier``: a hit or wound modifier worked out when the target is picked, and the fact of
  the attacker's unit it needs (24.16 stationary, 24.21 charged);
* ``pool``: what it does to a pool's state in the attack sequence (critical thresholds,
  automatic hits, extra hits, re-rolls, mortal wounds), given the attacker's answer to its
  ``choice`` when it has one (the choice's ``off`` answer: the ability does nothing, and its
  hooks do not act in the pool);
* ``duplicate``: the default copy when a weapon has it twice (24.02, Part A ruling 8).

Adding an ability is one record here and its tests; README "Adding an ability" walks through
[BLAST]. Every other module asks the records (through hooks or these functions), so a new
record needs no edit anywhere else unless it brings a new kind of effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from sim.rules.abilities.hooks import Hook

# Kinds of value X (how the parser reads what follows the name).
NONE = "none"  # no value
COUNT = "count"  # a whole number >= 1
OPTIONAL_COUNT = "optional count"  # a whole number >= 1, or nothing (the default)
DICE = "dice"  # a whole number or dice like D3
ROLL = "roll"  # a roll like 5+ (2+..6+)
INCHES = "inches"  # a distance like 15" (or nothing: the default)
WOUNDS = "wounds"  # wounds remaining, e.g. "Damaged: 1-4 wounds remaining"
KEYWORD_ROLL = "keyword roll"  # keywords and a threshold, e.g. ANTI-VEHICLE 4+

WEAPON = "weapon"
UNIT = "unit"


class PlanModifier(NamedTuple):
    """A modifier an ability gives when the target is picked (04.02), if ``when`` holds for the
    attacking unit ("stationary": 24.16's remained stationary, unengaged, not set up this turn;
    "charged": it made a charge move this turn)."""

    roll: str  # "hit" or "wound"
    value: int
    source: str  # the modifier's label in plans, events and the report
    when: str


class Choice(NamedTuple):
    """A choice the attacker makes for a pool (a DecisionRequest): asked only when ``when``
    says so for the pool's applying abilities; otherwise ``otherwise`` is the answer."""

    kind: str
    prompt: str
    options: tuple[str, ...]
    default: str
    otherwise: str
    when: Callable[[tuple], bool]
    off: str | None = None  # the answer with which the ability does nothing (its hooks do not act)


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """One ability: how it is printed, where its rule is, and what it does (module docstring)."""

    name: str
    section: str
    rule: str
    scope: str  # WEAPON or UNIT
    value: str = NONE  # the kind of value X
    aliases: tuple[str, ...] = ()
    default: int | None = None  # X when printed without one
    hooks: frozenset = frozenset()
    selection_only: bool = False
    applies: Callable | None = None  # (ability, target keywords, target has a CHARACTER) -> bool
    extra_dice: Callable | None = None  # (ability, half range, target models, split) -> int | DiceExpr
    extra_damage: Callable | None = None  # (ability, half range) -> int
    modifier: PlanModifier | None = None
    pool: Callable | None = None  # (ability, PoolState, the choice's answer) -> None
    choice: Choice | None = None
    duplicate: Callable | None = None  # (copies that apply, target keywords) -> the copy to use

    @property
    def tag(self) -> str:
        """The name as datasheets print a weapon ability: "[BLAST]"."""
        return f"[{self.name}]" if self.scope == WEAPON else self.name

    @property
    def effects(self) -> frozenset:
        """Its hooks, with those the registry derives from its functions."""
        derived = set(self.hooks)
        if self.extra_dice is not None:
            derived.add(Hook.ADDS_DICE)
        if self.extra_damage is not None:
            derived.add(Hook.ADDS_DAMAGE)
        if self.modifier is not None:
            derived.add(Hook.PLAN_MODIFIER)
        return frozenset(derived)


# --- the functions the records use ------------------------------------------------------------


def _per_five_models(a, half_range: bool, target_models: int, split: bool) -> int:
    """24.05: X more attack dice for every five models in the target unit (rounding down)."""
    return a.value * (target_models // 5)


def _per_five_models_unsplit(a, half_range: bool, target_models: int, split: bool) -> int:
    """24.06: as 24.05, only when every attack of the weapon goes at one target."""
    return 0 if split else a.value * (target_models // 5)


def _at_half_range(a, half_range: bool, target_models: int, split: bool):
    """24.30: X more attack dice (a random X is rolled per weapon) within half range."""
    return a.value if half_range else 0


def _damage_at_half_range(a, half_range: bool) -> int:
    """24.25: +X Damage within half range."""
    return a.value if half_range else 0


def _keyword_matches(a, target_keywords, has_character: bool) -> bool:
    """24.03: only against a unit with the keyword (non-X: with none of them)."""
    return a.anti_matches(target_keywords)


def _has_character(a, target_keywords, has_character: bool) -> bool:
    """04.03 FAQ: no effect against a unit with no CHARACTER model."""
    return has_character


def _critical_wound_on(a, p, answer) -> None:
    p.critical_wound_on = a.value  # 24.03


def _automatic_hits(a, p, answer) -> None:
    p.torrent = True  # 24.37


def _sustained(a, p, answer) -> None:
    p.sustained = a.value  # 24.36


def _lethal(a, p, answer) -> None:
    p.lethal = answer == "take"  # 24.23


def _devastating(a, p, answer) -> None:
    p.devastating = True  # 24.10


def _twin_linked(a, p, answer) -> None:
    p.twin_linked = True  # 24.38


def _reroll_hit_ones(a, p, answer) -> None:
    p.reroll_hit_ones = True  # 01.05.02 (the project's ability)


def _reroll_wound_ones(a, p, answer) -> None:
    p.reroll_wound_ones = True  # 01.05.02 (the project's ability)


def _reroll_hits_failed(a, p, answer) -> None:
    p.reroll_hit_failed = True  # 01.05.02 (the project's ability)


def _reroll_wounds_failed(a, p, answer) -> None:
    p.reroll_wound_failed = True  # 01.05.02 (the project's ability; [TWIN-LINKED]'s re-roll, 24.38)


def _lowest_matching_threshold(copies, target_keywords):
    """Part A ruling 8 for 24.03: the lowest threshold whose keyword the target has, else the
    first."""
    hits = [a for a in copies if a.anti_matches(target_keywords)]
    return min(hits, key=lambda a: a.value) if hits else copies[0]


def _with_critical_wound_effect(abilities) -> bool:
    """24.23: an automatic wound can never be a critical wound; worth asking only when a
    critical wound would do more (24.10)."""
    return any(Hook.CRITICAL_WOUND_MORTALS in a.spec.hooks for a in abilities)


# --- the records -----------------------------------------------------------------------------

_RECORDS = (
    AbilityDef("ANTI", "24.03", "Against a target unit with the named keyword, an unmodified wound roll at or "
               "above the threshold counts as a critical wound. The 'non-' form works against units without "
               "the keyword.", WEAPON, KEYWORD_ROLL, applies=_keyword_matches, pool=_critical_wound_on,
               duplicate=_lowest_matching_threshold),
    AbilityDef("ASSAULT", "24.04", "The unit can still shoot after advancing, but only with its ASSAULT weapons.",
               WEAPON, hooks=frozenset({Hook.SHOOTS_AFTER_ADVANCING}), selection_only=True),
    AbilityDef("BLAST", "24.05", "Adds one attack die (or X) for every five models in the target unit, rounding "
               "down. Cannot be fired at a unit that is engaged with the shooter's unit.", WEAPON,
               OPTIONAL_COUNT, default=1, hooks=frozenset({Hook.NOT_AT_ENGAGED}), selection_only=True,
               extra_dice=_per_five_models),
    AbilityDef("CLEAVE", "24.06", "If every attack of this weapon goes at one target, add X attack dice for every "
               "five models in that target, rounding down.", WEAPON, COUNT, selection_only=True,
               extra_dice=_per_five_models_unsplit),
    AbilityDef("CLOSE-QUARTERS", "24.07", "Lets the unit shoot at enemies it is engaged with (close-quarters "
               "shooting). Otherwise a model fires either these weapons or its other guns, not both, unless it "
               "is a MONSTER or VEHICLE. [PISTOL] is the same ability under its older name.", WEAPON,
               aliases=("PISTOL",), hooks=frozenset({Hook.CLOSE_QUARTERS}), selection_only=True),
    AbilityDef("DEVASTATING WOUNDS", "24.10", "A critical wound skips the save and instead inflicts mortal wounds "
               "equal to the weapon's Damage, which can kill at most one model.", WEAPON,
               hooks=frozenset({Hook.CRITICAL_WOUND_MORTALS}), pool=_devastating),
    AbilityDef("EXTRA ATTACKS", "24.11", "Used on top of the model's other melee weapon, never instead of it.",
               WEAPON, hooks=frozenset({Hook.EXTRA_WEAPON}), selection_only=True),
    AbilityDef("HAZARDOUS", "24.15", "After the unit finishes attacking, roll once per hazardous weapon used: "
               "each 1-2 costs a mortal wound (three if the unit is all MONSTER/VEHICLE).", WEAPON,
               hooks=frozenset({Hook.HAZARD_ROLL}), selection_only=True),
    AbilityDef("HEAVY", "24.16", "+1 to hit in your Shooting phase if the unit is unengaged, was not set up this "
               "turn and no model in it moved more than 3\".", WEAPON, selection_only=True,
               modifier=PlanModifier("hit", +1, "[HEAVY] (24.16)", "stationary")),
    AbilityDef("IGNORES COVER", "24.18", "The target never gets the benefit of cover against these attacks.",
               WEAPON, hooks=frozenset({Hook.DENIES_COVER}), selection_only=True),
    AbilityDef("INDIRECT FIRE", "24.19", "Can shoot at targets the unit cannot see, at a penalty: the target gets "
               "cover and hit rolls of 1-5 (or 1-3 with a friendly spotter) fail.", WEAPON,
               hooks=frozenset({Hook.INDIRECT}), selection_only=True),
    AbilityDef("LANCE", "24.21", "+1 to the wound roll if the attacker's unit made a charge move this turn.",
               WEAPON, modifier=PlanModifier("wound", +1, "[LANCE] after a charge (24.21)", "charged")),
    AbilityDef("LETHAL HITS", "24.23", "A critical hit may wound automatically, skipping the wound roll (so it "
               "can never be a critical wound).", WEAPON, hooks=frozenset({Hook.CRITICAL_HIT_EFFECT}),
               pool=_lethal,
               choice=Choice("lethal_hits", "[LETHAL HITS]: wound critical hits automatically? (an automatic "
                             "wound cannot trigger [DEVASTATING WOUNDS])", ("take", "decline"), "decline",
                             "take", _with_critical_wound_effect, off="decline")),
    AbilityDef("MELTA", "24.25", "Adds X to the weapon's Damage if the target was within half range when picked.",
               WEAPON, COUNT, hooks=frozenset({Hook.HALF_RANGE}), selection_only=True,
               extra_damage=_damage_at_half_range),
    AbilityDef("ONE SHOT", "24.26", "Can be used only once per battle.", WEAPON,
               hooks=frozenset({Hook.ONCE_PER_BATTLE}), selection_only=True),
    AbilityDef("PRECISION", "24.28", "The attacker may aim these attacks at a visible CHARACTER in the target "
               "unit, even one leading bodyguards.", WEAPON, hooks=frozenset({Hook.PRECISION}),
               applies=_has_character),
    AbilityDef("PSYCHIC", "24.29", "A psychic attack: the attacker may disregard any modifiers to its BS/WS or "
               "hit roll, keeping the helpful ones.", WEAPON, hooks=frozenset({Hook.IGNORES_MODIFIERS})),
    AbilityDef("RAPID FIRE", "24.30", "Adds X attack dice if the target was within half range when picked.",
               WEAPON, DICE, hooks=frozenset({Hook.HALF_RANGE}), selection_only=True, extra_dice=_at_half_range),
    AbilityDef("SUSTAINED HITS", "24.36", "Each critical hit scores X extra hits; the extra hits are not "
               "critical.", WEAPON, DICE, hooks=frozenset({Hook.CRITICAL_HIT_EFFECT}), pool=_sustained),
    AbilityDef("TORRENT", "24.37", "Hits automatically: no hit roll, so never a critical hit.", WEAPON,
               hooks=frozenset({Hook.AUTOMATIC_HITS}), pool=_automatic_hits),
    AbilityDef("TWIN-LINKED", "24.38", "The wound roll may be re-rolled.", WEAPON, pool=_twin_linked),
    # The project's own abilities for the re-rolls datasheets and auras often grant (not core
    # abilities of section 24): each applies the core re-roll rule, 01.05.02 (once per die,
    # before modifiers; no hit re-rolls under indirect or snap shooting, 10.07 and 15.09).
    AbilityDef("REROLL HITS 1", "01.05.02", "(A project ability.) Each hit roll of an unmodified 1 is "
               "re-rolled once, before modifiers; never under indirect or snap shooting.", WEAPON,
               aliases=("RE-ROLL HITS 1",), pool=_reroll_hit_ones),
    AbilityDef("REROLL WOUNDS 1", "01.05.02", "(A project ability.) Each wound roll of an unmodified 1 is "
               "re-rolled once, before modifiers.", WEAPON, aliases=("RE-ROLL WOUNDS 1",),
               pool=_reroll_wound_ones),
    AbilityDef("REROLL HITS", "01.05.02", "(A project ability.) Each failed hit roll is re-rolled once, before "
               "modifiers; never under indirect or snap shooting.", WEAPON, aliases=("RE-ROLL HITS",),
               pool=_reroll_hits_failed),
    AbilityDef("REROLL WOUNDS", "01.05.02", "(A project ability.) Each failed wound roll is re-rolled once, before "
               "modifiers (as [TWIN-LINKED] does).", WEAPON, aliases=("RE-ROLL WOUNDS",),
               pool=_reroll_wounds_failed),
    AbilityDef("FEEL NO PAIN", "24.12", "Each time a model would lose a wound, mortal wounds included, roll a D6: "
               "on X+ that wound is not lost.", UNIT, ROLL, hooks=frozenset({Hook.IGNORES_WOUNDS})),
    AbilityDef("STEALTH", "24.33", "If every model has it, the unit counts as in cover against ranged attacks.",
               UNIT, hooks=frozenset({Hook.COVER_FOR_ALL})),
    AbilityDef("LONE OPERATIVE", "24.24", "Unless attached to another unit, enemies can see and target it "
               "(indirect fire included) only from within 12\" (or X\").", UNIT, INCHES, default=12,
               hooks=frozenset({Hook.DETECTION_LIMIT})),
    AbilityDef("DAMAGED", "24.39", "While the model has X or fewer wounds left, its attacks take -1 to hit.",
               UNIT, WOUNDS, hooks=frozenset({Hook.HIT_PENALTY_WHEN_LOW})),
    AbilityDef("FIGHTS FIRST", "24.13", "If every model has it, the unit fights in the first fighting step.",
               UNIT, hooks=frozenset({Hook.FIGHTS_IN_FIRST_STEP})),
    AbilityDef("DEADLY DEMISE", "24.08", "When the model is destroyed, roll a D6: on a 6 every unit within 6\" "
               "suffers X mortal wounds.", UNIT, DICE, hooks=frozenset({Hook.EXPLODES})),
    AbilityDef("FIRING DECK", "24.14", "When the TRANSPORT is selected to shoot in your Shooting phase, up to X "
               "embarked models (of units not yet selected to shoot) each lend it one ranged weapon, not a "
               "[ONE SHOT] one; its embarked units then cannot shoot this turn.", UNIT, COUNT,
               hooks=frozenset({Hook.FIRING_DECK})),
    AbilityDef("HOVER", "24.17", "When the unit takes to the skies (21.03), its maximum distance is not "
               "reduced by 2\" (every model must have it).", UNIT, hooks=frozenset({Hook.NO_SKY_PENALTY})),
    AbilityDef("DEEP STRIKE", "24.09", "If every model has it, an ingress move may set the unit up anywhere more "
               "than 8\" from every enemy model, the enemy's deployment zone included, instead of near an edge.",
               UNIT, hooks=frozenset({Hook.ARRIVES_ANYWHERE})),
    AbilityDef("INFILTRATORS", "24.20", "If every model has it, the unit may deploy anywhere more than 8\" from "
               "the enemy's deployment zone and from every enemy model.", UNIT,
               hooks=frozenset({Hook.DEPLOYS_FORWARD})),
    AbilityDef("SCOUTS", "24.31", "If every model has it, before the battle the unit may make a move of up to "
               "X\" from its deployment zone, ending more than 8\" from every enemy unit (or be set up from "
               "strategic reserves in its deployment zone).", UNIT, INCHES, hooks=frozenset({Hook.SCOUT_MOVE})),
    # 24.35 in this version: its terrain height only (Part A ruling 12); moving through models and
    # taking MOBILE before a move (with its D6 for battle-shock) are not implemented
    AbilityDef("SUPER-HEAVY WALKER", "24.35", "In a normal, advance or fall-back move its models cross dense "
               "features 4\" tall or less (every model must have it; in this version not its moving through "
               "models, nor taking MOBILE to cross any dense feature).", UNIT,
               hooks=frozenset({Hook.CROSSES_TALLER})),
    # 24.22, 24.34: chosen before the battle (Muster Armies, 26 step 1); the judge of an
    # attachment is sim.rules.leaders, the attached unit the scenario's (README "leads")
    AbilityDef("LEADER", "24.22", "Before the battle this CHARACTER unit may join one friendly bodyguard unit "
               "its datasheet lists, as its leader: one attached unit for every rule (at most one leader "
               "per bodyguard).", UNIT, hooks=frozenset({Hook.LEADS})),
    AbilityDef("SUPPORT", "24.34", "Before the battle this unit may join one friendly bodyguard unit its "
               "datasheet lists, as its support: one attached unit for every rule (at most one support "
               "per bodyguard).", UNIT, hooks=frozenset({Hook.SUPPORTS})),
)

REGISTRY: dict[str, AbilityDef] = {r.name: r for r in _RECORDS}
ALIASES: dict[str, str] = {alias: r.name for r in _RECORDS for alias in r.aliases}
WEAPON_ABILITY_NAMES: frozenset[str] = frozenset(r.name for r in _RECORDS if r.scope == WEAPON)
UNIT_ABILITY_NAMES: frozenset[str] = frozenset(r.name for r in _RECORDS if r.scope == UNIT)
# 24 name -> (section, one-line rule) for the sandbox's help
ABILITY_HELP: dict[str, tuple[str, str]] = {r.name: (r.section, r.rule) for r in _RECORDS}


def spec(name: str) -> AbilityDef:
    """The record of an ability by its canonical name or an alias; KeyError if unknown."""
    return REGISTRY[ALIASES.get(name, name)]


# 01.05.02 the project's re-roll abilities: (roll, of 1s only) -> the record (a rule's re-roll of
# hit or wound rolls confers one: sim.rules.effects.attack)
REROLL_ABILITIES: dict[tuple[str, bool], AbilityDef] = {
    ("hit", True): REGISTRY["REROLL HITS 1"], ("hit", False): REGISTRY["REROLL HITS"],
    ("wound", True): REGISTRY["REROLL WOUNDS 1"], ("wound", False): REGISTRY["REROLL WOUNDS"]}


def with_hook(hook: str) -> AbilityDef:
    """The one record that has this hook (for messages that name the ability, e.g. "[BLAST]")."""
    found = [r for r in _RECORDS if hook in r.effects]
    if len(found) != 1:
        raise LookupError(f"{len(found)} abilities have the hook {hook!r}")
    return found[0]


def tag(hook: str) -> str:
    """How datasheets print the ability with this hook: "[BLAST]"."""
    return with_hook(hook).tag

"""The vocabulary of effects that datasheet abilities, army rules and detachment rules are written
in (rules as data: sim.rules.effects.table holds the records). A rule is one :class:`RuleRecord`:
its name and where it comes from, a one-line summary in the project's own words, the choice it
asks of its player (if any), and its :class:`Grant` s. A grant says

* **who** it affects (:data:`BEARER`, :data:`UNIT`, :data:`AURA`, :data:`ARMY`,
  :data:`ENEMY_AURA`), narrowed by ``keywords`` the affected unit must have;
* **when** it acts (:class:`When`: phases, the attack's kind, whose turn, conditions that must
  hold, a limit on uses);
* **what** it does (:class:`Effect`: a modifier, a re-roll, Feel No Pain, an invulnerable save, a
  weapon ability conferred, mortal wounds on a trigger, models returned or wounds regained,
  Fights First, a limit on being targeted, a change of stratagem cost; a forced battle-shock test
  of enemy units, sim.phases.forced_shock).

Whether a grant's conditions hold is sim.rules.effects.conditions (a pure function of facts);
which grants reach a unit at a moment is sim.world.rule_effects; each kind of effect is read
where its rule applies (the attack plan, movement, charges, the phases), as the ability
registry's hooks are. Nothing here names a published rule: the records do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sim.rules.dice import DiceExpr
from sim.rules.turn import Phase

PHASES = tuple(p.value for p in Phase)  # the phases a grant may name (When.phases, RuleChoice.moment)

# --- who a grant affects ----------------------------------------------------------------------
BEARER = "bearer"  # the model that has the rule (its own attacks, saves, characteristics)
UNIT = "unit"  # the bearer's unit (an attached unit, 19.01, as a whole)
AURA = "aura"  # friendly units with a model within ``range``" of the bearer (its own unit included)
ARMY = "army"  # every unit of the army whose rules hold it (army and detachment rules)
ENEMY_AURA = "enemy aura"  # enemy units with a model within ``range``" of the bearer
CHOSEN_FRIEND = "chosen friend"  # the friendly unit the rule's PICK_FRIEND choice picked (within ``range``" of a
# bearer when picked, with ``keywords``; range 0: anywhere); of a rule that asks no choice: the unit that a
# LEND rule of its holder picked, when the rule's name carries that LEND's tag ("Warden's Duty (Bondsman)")
WHO = (BEARER, UNIT, AURA, ARMY, ENEMY_AURA, CHOSEN_FRIEND)
# who a forced battle-shock test (FORCED_SHOCK) reaches
ENEMIES = "enemies"  # every enemy unit on the battlefield, while a unit holding the rule is on it
ENGAGED_ENEMY = "engaged enemy"  # (FORCED_SHOCK only) one enemy unit engaged with the holding unit, its player picks
# (the grant's When is read for the holding unit)
WHO = WHO + (ENEMIES, ENGAGED_ENEMY)

# --- what an effect does ----------------------------------------------------------------------
MODIFY = "modify"  # ``stat`` + ``value``: a roll or characteristic modifier
REROLL = "reroll"  # ``stat`` (a roll) + ``which`` (ONES, FAILED or ANY)
FEEL_NO_PAIN = "feel no pain"  # ``value``: X+ (24.12)
INVULNERABLE = "invulnerable"  # ``value``: X+ invulnerable save (the best one counts)
WEAPON_ABILITY = "weapon ability"  # ``ability``: as printed, e.g. "LETHAL HITS", "SUSTAINED HITS 1"
MORTAL_WOUNDS = "mortal wounds"  # ``dice`` mortal wounds to ``trigger``'s unit, on ``roll``+ of a D6 (0: always)
RETURN = "return"  # ``dice`` wounds regained / models returned (``which``: WOUNDS or MODELS)
FIGHTS_FIRST = "fights first"  # the unit fights in the first fighting step (12.04)
TARGET_LIMIT = "target limit"  # enemies cannot target it unless within ``value``"
STRATAGEM_COST = "stratagem cost"  # ``value`` added to the CP cost (of ``ability``: a stratagem's name; "" any)
LEND = "lend"  # (a CHOSEN_FRIEND grant) the holder's rules tagged "(``ability``)" in their name reach the unit picked
KINDS = (MODIFY, REROLL, FEEL_NO_PAIN, INVULNERABLE, WEAPON_ABILITY, MORTAL_WOUNDS, RETURN, FIGHTS_FIRST,
         TARGET_LIMIT, STRATAGEM_COST, LEND)
FORCED_SHOCK = "battle-shock test"  # the affected unit takes a battle-shock test (01.07) at ``trigger`` (SHOCK_MOMENTS),
# ``value`` added to it; ``roll``: only on a D6 of roll+ (0: always); ``dice``: mortal wounds it suffers first
KINDS = KINDS + (FORCED_SHOCK,)
RITUAL = "ritual"  # ``ability``: the key of a ritual record (source RITUAL_SOURCE) the unit may attempt at the start
# of its Shooting phase by a Psychic test (2D6, a third D6 at will) of ``roll`` or more, at a unit within ``value``"
KINDS = KINDS + (RITUAL,)
OATH = "oath"  # (an ARMY grant) the army swears an oath before the battle: a deed and a quality (sim.rules.effects
# .oaths); the deed done, the army is Honoured and gains ``value`` CP (one more if the oath was rolled at random)
KINDS += (OATH,)
ARRIVAL_DISTANCE = "arrival distance"  # a Deep Strike set-up (24.09) may be more than ``value``" from enemy models
# instead of 8" (its conditions on where the unit is are read where it is being set up)
KINDS += (ARRIVAL_DISTANCE,)
TO_RESERVES = "to reserves"  # (a CHOSEN_FRIEND grant) the unit picked is removed from the battlefield into strategic
# reserves when picked (20.02: it may arrive again by an ingress move; not destroyed at the end of round 3)
UNIT_ABILITY = "unit ability"  # ``ability``: a core unit ability its models gain, as printed ("INFILTRATORS"): the
# ability registry's own record then acts (sim.world.queries.every_model_has)
RESURGE = "resurge"  # when the unit is destroyed its army may spend ``value`` points of the rule's pool to set it
# back, at its Starting Strength with every wound, into strategic reserves
KINDS = KINDS + (TO_RESERVES, UNIT_ABILITY, RESURGE)
ELIGIBLE = "eligible"  # ``ability``: one of PERMISSIONS, a shoot or a charge the core rules bar after a move (09.06/09.07)
IGNORE_MODIFIERS = "ignore modifiers"  # ``stat`` of IGNORED_STATS: its penalties are ignored (its bonuses kept)
MARK = "mark"  # the army's one marked unit of this rule moves to the affected unit on ``trigger`` (MARK_TRIGGERS)
KINDS = KINDS + (ELIGIBLE, IGNORE_MODIFIERS, MARK)
SHOOT_AFTER_ADVANCE = "shoot after advance"  # eligible to shoot in a turn it advanced (all shooting types)
CHARGE_AFTER_ADVANCE = "charge after advance"  # eligible to declare a charge in a turn it advanced
SHOOT_AFTER_FALL_BACK = "shoot after fall back"  # eligible to shoot in a turn it fell back
CHARGE_AFTER_FALL_BACK = "charge after fall back"  # eligible to declare a charge in a turn it fell back
PERMISSIONS = (SHOOT_AFTER_ADVANCE, CHARGE_AFTER_ADVANCE, SHOOT_AFTER_FALL_BACK, CHARGE_AFTER_FALL_BACK)
IGNORED_STATS = ("M", "advance", "charge")  # what IGNORE_MODIFIERS may name
ON_DESTROYING = "destroys a unit"  # MARK: the first time each turn the affected unit destroys an enemy unit
MARK_TRIGGERS = (ON_DESTROYING,)
# dice economies (a pool of dice kept by the army, sim.rules.effects.dice_pool)
GAIN_DICE = "gain dice"  # ``dice`` D6 rolled into the army's pool of this rule (kept as rolled) at ``trigger``
SUBSTITUTE = "substitute"  # ``stat``: before that roll for the unit, a die of the rule's pool may stand for one of
# its dice (an unmodified roll of its value), once per phase per unit
KINDS = KINDS + (GAIN_DICE, SUBSTITUTE)
AT_ROUND_START = "battle round"  # the start of each battle round: GAIN_DICE's trigger, a DICE_OPTIONS choice's moment
ON_UNIT_DESTROYED = "unit destroyed"  # GAIN_DICE: each time a unit of the army holding the rule is destroyed
GAIN_TRIGGERS = (AT_ROUND_START, ON_UNIT_DESTROYED)
SUBSTITUTE_STATS = ("hit", "wound", "save", "charge", "advance", "battle-shock")  # (a Damage roll's: not modelled)

# what a MODIFY changes: the rolls of the attack sequence and the phases, and characteristics
# (a weapon's: A, S, AP, D; a model's: M, T, Sv, W, Ld, OC; "damage taken" lowers the Damage of
# each attack allocated to the affected unit's models, never below 1)
ROLL_STATS = ("hit", "wound", "save", "charge", "advance", "battle-shock")
WEAPON_STATS = ("A", "S", "AP", "D", "BS", "WS")
MODEL_STATS = ("M", "T", "Sv", "W", "Ld", "OC", "damage taken")
# what attacks that target the affected unit take: added to the attacker's hit / wound roll
# modifiers (netted and clamped with them, 02.02.01) and to its AP ("hit taken" -1: attacks at the
# unit subtract 1 from the hit roll; "AP taken" +1: their AP is improved by 1)
TAKEN_STATS = ("hit taken", "wound taken", "AP taken")
STATS = ROLL_STATS + WEAPON_STATS + MODEL_STATS + TAKEN_STATS
REROLL_STATS = ("hit", "wound", "save", "charge", "advance", "battle-shock")  # (a Damage re-roll: not modelled)
ONES, FAILED, ANY = "ones", "failed", "any"  # which results a REROLL re-rolls
WOUNDS, MODELS = "wounds", "models"  # what a RETURN gives back

# triggers of MORTAL_WOUNDS (what sets it off; the unit that takes them)
ON_CHARGE = "after charging"  # after the affected unit ends a charge move: each enemy unit within engagement range
ON_DESTROYED = "destroyed"  # when the bearer is destroyed: the unit that destroyed it
ON_SELECTED_FIGHT = "selected to fight"  # when the affected unit is selected to fight: one engaged enemy unit
TRIGGERS = (ON_CHARGE, ON_DESTROYED, ON_SELECTED_FIGHT)
ON_MANIFEST = "manifested"  # (a ritual record's) when the ritual is manifested: the unit it targets
TRIGGERS = TRIGGERS + (ON_MANIFEST,)
ON_FAILED_SHOCK = "failed battle-shock"  # after the affected unit fails a battle-shock test: the unit itself
TRIGGERS += (ON_FAILED_SHOCK,)

# moments of RETURN (when models come back or wounds are regained)
AT_COMMAND = "command phase"  # in the affected unit's Command phase
AT_END_OF_PHASE = "end of phase"  # at the end of each phase (of ``When.phases`` when given)
# moments of FORCED_SHOCK (AT_COMMAND: in a Command phase, after its Battle-shock step, 08.04; of the
# turn When.turn names, the affected unit's own or the enemy's)
AT_START_OF_PHASE = "start of phase"  # at the start of each phase (of ``When.phases`` when given), after its choices
IN_SHOCK_STEP = "battle-shock step"  # in the affected unit's own Battle-shock step (08.03), as its one roll of it
SHOCK_MOMENTS = (AT_COMMAND, AT_START_OF_PHASE, IN_SHOCK_STEP)
AT_PASSED_SHOCK = "passed battle-shock"  # after the affected unit passes a battle-shock test
RETURN_MOMENTS = (AT_COMMAND, AT_END_OF_PHASE, AT_PASSED_SHOCK)
ONE_MODEL = "wounds of one model"  # RETURN's ``which``: one wounded model regains up to ``dice`` wounds (no returns)

# --- conditions (When.conditions): each a (name, argument) pair -------------------------------
CHARGED = "charged"  # the affected unit made a charge move this turn
STATIONARY = "stationary"  # it remained stationary this turn (24.16's sense)
BELOW_HALF = "below half"  # it is below half-strength (01.02.01)
ON_OBJECTIVE = "on objective"  # one of its models is within range of an objective marker (14.02)
LEADING = "leading"  # the bearer is leading (or supporting) a unit: an attached unit (19.01)
TARGET_KEYWORD = "target keyword"  # argument: the keyword the target (or attacker) unit must have
TARGET_CHOSEN = "target chosen"  # the target is the enemy unit the rule's choice named (Oath of Moment)
CHOSEN = "chosen"  # the rule's choice is in force (a Waaagh! called, a once-per-battle ability used)
TARGET_BELOW_HALF = "target below half"  # the target unit is below half-strength
TARGET_WITHIN = "target within"  # argument: inches; the target is within that distance of the attacker
BATTLE_ROUND = "battle round"  # argument: the battle round is at least this
BELOW_STARTING = "below starting strength"  # it has fewer models (or wounds, a single model) than it started with
NOT_TARGET_KEYWORD = "target lacks keyword"  # argument: a keyword the target (or attacker) unit must NOT have
LED = "led"  # the affected unit is an attached unit with a leader (led by a CHARACTER, 19.01)
TARGET_NOT_BELOW_HALF = "target not below half"  # the target unit is not below half-strength
TARGET_ON_OBJECTIVE = "target on objective"  # a model of the target unit is within range of an objective marker
OPTION = "option"  # argument: one of the rule's options (RuleChoice.options); the option its PICK_OPTION choice holds
CONDITIONS = (CHARGED, STATIONARY, BELOW_HALF, ON_OBJECTIVE, LEADING, TARGET_KEYWORD, TARGET_CHOSEN, CHOSEN,
              TARGET_BELOW_HALF, TARGET_WITHIN, BATTLE_ROUND, BELOW_STARTING, NOT_TARGET_KEYWORD, LED,
              TARGET_NOT_BELOW_HALF, TARGET_ON_OBJECTIVE, OPTION)
WITH_ARGUMENT = (TARGET_KEYWORD, TARGET_WITHIN, BATTLE_ROUND, NOT_TARGET_KEYWORD, OPTION)
# argument "KEYWORD N": a unit of the rule's (the holder's) army with KEYWORD is within N" of the affected
# unit (or none is: NOT_NEAR_KEYWORD); e.g. ["near keyword", "SYNAPSE 6"]
NEAR_KEYWORD = "near keyword"
NOT_NEAR_KEYWORD = "not near keyword"
IN_OWN_ZONE = "in own deployment zone"  # a model of the affected unit is within its own army's deployment zone
TARGET_SHOCKED = "target battle-shocked"  # the target (or attacker) unit is battle-shocked (01.07)
CONDITIONS = CONDITIONS + (NEAR_KEYWORD, NOT_NEAR_KEYWORD, IN_OWN_ZONE, TARGET_SHOCKED)
WITH_ARGUMENT = WITH_ARGUMENT + (NEAR_KEYWORD, NOT_NEAR_KEYWORD)


def near_argument(arg) -> tuple[str, float]:
    """The (keyword, inches) of a NEAR_KEYWORD / NOT_NEAR_KEYWORD argument "KEYWORD N"."""
    parts = str(arg).rsplit(" ", 1)
    try:
        inches = float(parts[1])
    except (IndexError, ValueError):
        raise VocabularyError(f"a near-keyword argument is \"KEYWORD N\" (N inches), not {arg!r}") from None
    if not parts[0].strip() or inches <= 0:
        raise VocabularyError(f"a near-keyword argument is \"KEYWORD N\" (N inches), not {arg!r}")
    return parts[0].strip().upper(), inches
PSYCHIC_RESULT = "psychic result"  # argument: (a ritual record's) the Psychic test that manifested it totalled this or more
CONDITIONS = CONDITIONS + (PSYCHIC_RESULT,)
WITH_ARGUMENT = WITH_ARGUMENT + (PSYCHIC_RESULT,)
OATH_QUALITY = "oath quality"  # argument: a quality's key (sim.rules.effects.oaths.QUALITIES); the army's oath has it
HONOURED = "honoured"  # the army's oath is fulfilled (its deed done): it is Honoured until the end of the battle
CONDITIONS += (OATH_QUALITY, HONOURED)
WITH_ARGUMENT += (OATH_QUALITY,)
# the holding army's domain (sim.rules.effects.domain: its deployment zone; No Man's Land / the enemy's
# zone while it controls at least half of their objectives), the attack's weapon, the affected unit's keywords
IN_DOMAIN = "within domain"  # a model of the affected unit is within the holding army's domain
WHOLLY_IN_DOMAIN = "wholly within domain"  # every model of the affected unit is wholly within it
NOT_WHOLLY_IN_DOMAIN = "not wholly within domain"  # not every model of it is wholly within it
PSYCHIC_ATTACK = "psychic attack"  # the attack is made with a [PSYCHIC] weapon (24.29)
LACKS_KEYWORD = "lacks keyword"  # argument: a keyword the affected unit must NOT have ("A/B": none of them)
NOT_IN_DOMAIN = "not within domain"  # no model of the affected unit is within it (a grant "in the domain and/or
# near A" is two grants: within domain; not within domain + near keyword A)
DOMAIN_CONDITIONS = (IN_DOMAIN, WHOLLY_IN_DOMAIN, NOT_WHOLLY_IN_DOMAIN, NOT_IN_DOMAIN)
CONDITIONS += DOMAIN_CONDITIONS + (PSYCHIC_ATTACK, LACKS_KEYWORD)
WITH_ARGUMENT += (LACKS_KEYWORD,)
ARRIVED = "arrived"  # it was set up as Reinforcements (an ingress move, 20.03.01), until the end of its army's next
# Fight phase (sim.rules.reserves.arrival_in_force)
STARTING_STRENGTH = "starting strength"  # argument: the unit's Starting Strength (models, 01.02.01) is this
CONDITIONS = CONDITIONS + (ARRIVED, STARTING_STRENGTH)
WITH_ARGUMENT = WITH_ARGUMENT + (STARTING_STRENGTH,)
NOT_ENGAGED_AT_START = "target not engaged at start"  # the other unit was not engaged with it when the turn began
# (held when there is no other unit: on an ELIGIBLE grant it restricts the targets of the shoot or charge it permits)
NOT_TARGETED = "target not targeted this phase"  # no other unit has charged or attacked the other unit this phase
# (held when there is no other unit, likewise)
MARKED = "marked"  # the affected unit is the army's marked unit of this rule (a MARK grant moves it)
CONDITIONS = CONDITIONS + (NOT_ENGAGED_AT_START, NOT_TARGETED, MARKED)

# --- sources of a rule and the limits on uses -------------------------------------------------
ARMY_RULE, DETACHMENT_RULE, DATASHEET = "army rule", "detachment rule", "datasheet"
SOURCES = (ARMY_RULE, DETACHMENT_RULE, DATASHEET)
RITUAL_SOURCE = "ritual"  # a psychic ritual: attempted through another rule's RITUAL grant (sim.rules.effects.rituals),
# never held; its grants act, on its army's units, until the end of the phase it was manifested in
SOURCES = SOURCES + (RITUAL_SOURCE,)
ONCE_PER_BATTLE, ONCE_PER_TURN, ONCE_PER_PHASE = "once per battle", "once per turn", "once per phase"
LIMITS = ("", ONCE_PER_BATTLE, ONCE_PER_TURN, ONCE_PER_PHASE)

# --- choices a rule asks of its player (RuleChoice.kind) --------------------------------------
PICK_ENEMY = "enemy unit"  # pick one enemy unit (Oath of Moment's target); CHOSEN/TARGET_CHOSEN read it
CALL = "call"  # switch the rule on now or not (a Waaagh!'s turn, a once-per-battle ability)
PICK_FRIEND = "friendly unit"  # pick one friendly unit (within the CHOSEN_FRIEND grant's range of a bearer, with
# its keywords): the CHOSEN_FRIEND grants reach it
PICK_OPTION = "option"  # pick one of the rule's ``options`` (a stance, an imperative, a vow): OPTION conditions read it
CHOICE_KINDS = (PICK_ENEMY, CALL, PICK_FRIEND, PICK_OPTION)
PICK_FRIENDS = "friendly units"  # pick up to ``most`` friendly units, one at a time (DONE to stop): the CHOSEN_FRIEND
# grants reach each of them (range 0 only; eligibility: the grants' keywords, and TO_RESERVES's)
CHOICE_KINDS = CHOICE_KINDS + (PICK_FRIENDS,)
DONE = "done"  # the answer that ends a PICK_FRIENDS choice's picks
FORMATIONS = "battle formations"  # a choice's moment before the battle: 26 step 7, once both formations are revealed
MOMENTS = PHASES + (FORMATIONS,)
AT_START, AT_END = "start", "end"  # a choice asked at the start or at the end of its moment's phase
BATTLE_SIZES = ("incursion", "strike force", "onslaught")  # a number "by battle size" is one of each, in this order


def by_size(values: tuple[int, ...], size: str) -> int:
    """The number of ``values`` for the battle size (one value: every size's; three: by
    BATTLE_SIZES)."""
    return values[0] if len(values) == 1 else values[BATTLE_SIZES.index(size)]


def _sized(values, what: str) -> None:
    if not (isinstance(values, tuple) and len(values) in (1, 3)
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)):
        raise VocabularyError(f"{what} is one whole number above 0, or three (by battle size: "
                              f"{', '.join(BATTLE_SIZES)}), not {values!r}")
DICE_OPTIONS = "dice options"  # roll ``dice`` D6, then activate up to ``picks`` of ``options`` the roll affords
# (each paid as its ``needs`` says, "double 5+ or triple 2+", the dice spent once; sim.rules.effects.dice_options);
# OPTION conditions read the options activated
CHOICE_KINDS = CHOICE_KINDS + (DICE_OPTIONS,)
NO_OPTION, OPTION_JOIN = "none", " + "  # a DICE_OPTIONS answer activating none; several, their names joined so
_NEED = re.compile(r"^(double|triple)\s+([1-6])\+$")


def parse_need(text) -> tuple[tuple[int, int], ...]:
    """A DICE_OPTIONS option's need, "double 5+ or triple 2+" -> ((2, 5), (3, 2)): each way to pay
    for it, as (how many dice showing the same value, the lowest value)."""
    ways = []
    for part in str(text).split(" or "):
        m = _NEED.match(part.strip().lower())
        if m is None:
            raise VocabularyError(f"a need is \"double N+\" or \"triple N+\" (joined by \"or\"), not {part.strip()!r}")
        ways.append((2 if m.group(1) == "double" else 3, int(m.group(2))))
    return tuple(ways)


def _check_dice_options(c) -> None:
    """A DICE_OPTIONS choice (and only one) has its moment the battle round's start, dice 1-20,
    picks 1 or more, distinct option names (none NO_OPTION or holding OPTION_JOIN), each with a need."""
    if c.kind != DICE_OPTIONS or not c.options or len(c.needs) != len(c.options):
        raise VocabularyError("a dice options choice (and only it) has dice, picks, and a need for each option")
    if c.moment != AT_ROUND_START:
        raise VocabularyError(f"a dice options choice is made at {AT_ROUND_START!r}, not {c.moment!r}")
    if not (isinstance(c.dice, int) and 1 <= c.dice <= 20) or not (isinstance(c.picks, int) and c.picks >= 1):
        raise VocabularyError("a dice options choice needs dice (1 to 20) and picks (1 or more)")
    names = list(c.options)
    if len(set(names)) != len(names) or any(not isinstance(n, str) or not n.strip() or n != n.strip()
                                            or n == NO_OPTION or OPTION_JOIN.strip() in n for n in names):
        raise VocabularyError(f"a dice options choice needs distinct option names, not {names!r}")
    for t in c.needs:
        parse_need(t)
# how long a choice holds once made
UNTIL_NEXT_CHOICE = "until the next choice"  # e.g. a target picked each Command phase
THIS_TURN = "this turn"
THIS_ROUND = "this battle round"
UNTIL_YOUR_NEXT_COMMAND = "until your next Command phase"
LASTS = (UNTIL_NEXT_CHOICE, THIS_TURN, THIS_ROUND, UNTIL_YOUR_NEXT_COMMAND)
# in whose turn a choice is asked (RuleChoice.turn)
OWN_TURN, EITHER_TURN = "own", "either"  # the choice's army's turn only / either player's
ENEMY_TURN = "enemy"  # the opponent's turn only (Gate of Infinity: a choice of friendly units)
CHOICE_TURNS = (OWN_TURN, EITHER_TURN, ENEMY_TURN)
KEPT = "kept with the earlier picks"  # (a PICK_OPTION choice) each option picked holds for the rest of the battle,
# with those picked before (none picked twice): OPTION conditions hold for each
LASTS = LASTS + (KEPT,)


class VocabularyError(ValueError):
    """A record written outside the vocabulary (raised when the table is built: a test builds it)."""


@dataclass(frozen=True, slots=True)
class Effect:
    """What a grant does (module docstring). Only the fields its kind reads are set."""

    kind: str
    stat: str = ""  # MODIFY: one of STATS; REROLL: one of REROLL_STATS
    value: int = 0  # MODIFY: +1 improves (to hit, to AP, to Sv: a better save); FNP/INVULNERABLE: X+
    which: str = ""  # REROLL: ONES / FAILED / ANY; RETURN: WOUNDS / MODELS
    ability: str = ""  # WEAPON_ABILITY: as printed; STRATAGEM_COST: the stratagem's name ("" every one)
    dice: DiceExpr = DiceExpr(0, 0, 0)  # MORTAL_WOUNDS, RETURN: how many
    roll: int = 0  # MORTAL_WOUNDS: on this D6 result or more (0: no roll)
    trigger: str = ""  # MORTAL_WOUNDS: one of TRIGGERS; RETURN: AT_COMMAND or AT_END_OF_PHASE

    def __post_init__(self) -> None:
        k = self.kind
        if k not in KINDS:
            raise VocabularyError(f"unknown effect kind {k!r}")
        if k == MODIFY and (self.stat not in STATS or not self.value):
            raise VocabularyError(f"a modifier needs a stat of {STATS} and a value other than 0")
        if k == REROLL and (self.stat not in REROLL_STATS or self.which not in (ONES, FAILED, ANY)):
            raise VocabularyError(f"a re-roll needs a stat of {REROLL_STATS} and which of ones/failed/any")
        if k in (FEEL_NO_PAIN, INVULNERABLE) and not 2 <= self.value <= 6:
            raise VocabularyError(f"{k} needs X+ from 2 to 6")
        if k == WEAPON_ABILITY and not self.ability:
            raise VocabularyError("a conferred weapon ability needs its name")
        if k == MORTAL_WOUNDS and (self.trigger not in TRIGGERS or not (self.dice.k or self.dice.is_random)):
            raise VocabularyError(f"mortal wounds need a trigger of {TRIGGERS} and dice")
        if k == RETURN and (self.which not in (WOUNDS, MODELS, ONE_MODEL) or self.trigger not in RETURN_MOMENTS):
            raise VocabularyError(f"a return needs which (wounds/models/{ONE_MODEL}) and a moment of {RETURN_MOMENTS}")
        if k == LEND and not self.ability:
            raise VocabularyError("a lending needs the tag of the rules it lends (e.g. \"Bondsman\")")
        if k == TARGET_LIMIT and self.value <= 0:
            raise VocabularyError("a target limit needs a distance in inches")
        if k == FORCED_SHOCK and (self.trigger not in SHOCK_MOMENTS or self.roll not in (0, 2, 3, 4, 5, 6)):
            raise VocabularyError(f"a forced battle-shock test needs a moment of {SHOCK_MOMENTS} (and a roll 2-6 or 0)")
        if k == FORCED_SHOCK and self.trigger == IN_SHOCK_STEP and (self.roll or self.dice.k or self.dice.is_random):
            raise VocabularyError("a test in the Battle-shock step is the unit's roll of the step: no D6 or mortal wounds")
        if k == RITUAL and (not self.ability or not 2 <= self.roll <= 18 or self.value <= 0):
            raise VocabularyError("a ritual needs its record's key (ability), its Warp Charge (roll, 2 to 18) and the "
                                  "range to its target (value, inches)")
        if k == OATH and self.value <= 0:
            raise VocabularyError("an oath needs the CP its deed gains (value 1 or more)")
        if k == ARRIVAL_DISTANCE and self.value <= 0:
            raise VocabularyError("an arrival distance needs a distance in inches")
        if k == UNIT_ABILITY and not self.ability:
            raise VocabularyError("a conferred unit ability needs its name")
        if k == RESURGE and self.value <= 0:
            raise VocabularyError("a resurgence needs its cost in points (value above 0)")
        if k == ELIGIBLE and self.ability not in PERMISSIONS:
            raise VocabularyError(f"an eligibility needs an ability of {PERMISSIONS}")
        if k == IGNORE_MODIFIERS and self.stat not in IGNORED_STATS:
            raise VocabularyError(f"ignoring modifiers needs a stat of {IGNORED_STATS}")
        if k == MARK and self.trigger not in MARK_TRIGGERS:
            raise VocabularyError(f"a mark needs a trigger of {MARK_TRIGGERS}")
        if k == GAIN_DICE and (self.trigger not in GAIN_TRIGGERS or self.dice.is_random or self.dice.k < 1):
            raise VocabularyError(f"gaining dice needs a trigger of {GAIN_TRIGGERS} and a fixed number of dice")
        if k == SUBSTITUTE and self.stat not in SUBSTITUTE_STATS:
            raise VocabularyError(f"a substitution needs a stat of {SUBSTITUTE_STATS}")


@dataclass(frozen=True, slots=True)
class When:
    """When a grant acts: every part given must hold (empty parts always do)."""

    phases: tuple[str, ...] = ()  # sim.rules.turn.Phase values; () any phase
    attacks: str = ""  # "melee" / "ranged": only for those attacks (and saves against them); "" any
    turn: str = ""  # "own": in its army's turn; "enemy": in the opponent's; "" either
    conditions: tuple[tuple[str, object], ...] = ()  # (name, argument) pairs of CONDITIONS
    limit: str = ""  # one of LIMITS

    def __post_init__(self) -> None:
        if any(p not in PHASES for p in self.phases):
            raise VocabularyError(f"phases must be of {PHASES}, not {self.phases!r}")
        if self.attacks not in ("", "melee", "ranged"):
            raise VocabularyError(f"attacks must be melee or ranged, not {self.attacks!r}")
        if self.turn not in ("", "own", "enemy"):
            raise VocabularyError(f"turn must be own or enemy, not {self.turn!r}")
        if self.limit not in LIMITS:
            raise VocabularyError(f"unknown limit {self.limit!r}")
        for c in self.conditions:
            if not (isinstance(c, tuple) and len(c) == 2 and c[0] in CONDITIONS):
                raise VocabularyError(f"a condition is a (name, argument) pair with a name of {CONDITIONS}: {c!r}")
            if (c[0] in WITH_ARGUMENT) != (c[1] is not None):
                raise VocabularyError(f"condition {c[0]!r}: an argument {'is needed' if c[0] in WITH_ARGUMENT else 'is not taken'}")
            if c[0] in (NEAR_KEYWORD, NOT_NEAR_KEYWORD):
                near_argument(c[1])
            if c[0] == OATH_QUALITY:
                from sim.rules.effects.oaths import QUALITIES
                if c[1] not in QUALITIES:
                    raise VocabularyError(f"condition {c[0]!r}: a quality of {list(QUALITIES)}, not {c[1]!r}")


ALWAYS = When()
_COUNTED_ROLLS = ("advance", "charge", "battle-shock")


def counts_uses(e: Effect) -> bool:
    """The battle counts each use of a grant of this effect (so a When.limit on it holds): the
    effects applied at one moment by sim.systems.rule_effects and the stratagems' payment.
    Effects read while planning (attack modifiers, characteristics, saves) are read many times
    for one use, so a limit on them would not hold: the vocabulary refuses it."""
    if e.kind in (STRATAGEM_COST, MORTAL_WOUNDS, RETURN):
        return True
    if e.kind == FORCED_SHOCK:
        return True
    return e.kind in (MODIFY, REROLL) and e.stat in _COUNTED_ROLLS


@dataclass(frozen=True, slots=True)
class Grant:
    """One effect of a rule: who it affects, when, and what (module docstring)."""

    what: Effect
    who: str = UNIT
    when: When = ALWAYS
    range: float = 0.0  # AURA / ENEMY_AURA: inches from the bearer
    keywords: tuple[str, ...] = ()  # the affected unit must have every one of these keywords

    def __post_init__(self) -> None:
        if self.who not in WHO:
            raise VocabularyError(f"unknown 'who' {self.who!r}")
        if self.who == CHOSEN_FRIEND:
            if self.range < 0:
                raise VocabularyError("a chosen friend's range (to pick it) cannot be negative")
        elif (self.who in (AURA, ENEMY_AURA)) != (self.range > 0):
            raise VocabularyError("an aura (and only an aura) needs a range")
        if self.who == ENEMY_AURA and self.what.kind == RETURN:
            raise VocabularyError("a return brings back its own army's models: not as an enemy aura")
        if self.what.kind == FORCED_SHOCK and self.who not in (ENEMIES, ENEMY_AURA, ENGAGED_ENEMY):
            raise VocabularyError("a forced battle-shock test reaches enemy units: who = enemies, enemy aura or "
                                  "engaged enemy")
        if self.who == ENGAGED_ENEMY and self.what.kind != FORCED_SHOCK:
            raise VocabularyError("an engaged enemy (picked) is reached only by a forced battle-shock test")
        if self.who == ENEMIES and self.what.kind == RETURN:
            raise VocabularyError("a return brings back its own army's models: not for enemy units")
        if self.what.kind == OATH and (self.who != ARMY or self.when != ALWAYS):
            raise VocabularyError("an oath is the army's, sworn before the battle: who = army, no when")
        if self.what.kind == TO_RESERVES and self.who != CHOSEN_FRIEND:
            raise VocabularyError("a removal into reserves reaches the units picked only (who = chosen friend)")
        if self.what.kind == UNIT_ABILITY and (self.when != ALWAYS or self.who in (AURA, ENEMY_AURA)):
            raise VocabularyError("a conferred unit ability holds without conditions, for its unit, the army or the "
                                  "unit picked (not as an aura)")
        if self.when.limit and not counts_uses(self.what):
            raise VocabularyError(f"a limit on uses ({self.when.limit}) is counted only for stratagem costs, mortal "
                                  "wounds, returns, and the modifiers and re-rolls of advance, charge and "
                                  f"battle-shock rolls, not for {self.what.kind} {self.what.stat}".rstrip())


@dataclass(frozen=True, slots=True)
class RuleChoice:
    """A choice the rule asks of its player (a decision like any other: scripts, players and the
    sandbox answer it). Asked at ``moment`` (a Phase value, at its start, in its army's turn; in
    either player's with ``turn`` EITHER_TURN) while uses remain (``uses``: 0 unlimited)."""

    kind: str  # PICK_ENEMY, CALL or PICK_FRIEND
    moment: str  # a sim.rules.turn.Phase value: asked at the start of that phase of its army's turn
    prompt: str  # what is asked, in our words
    lasts: str = UNTIL_NEXT_CHOICE
    uses: int = 0  # per battle (Waaagh!: 1); 0: every time
    options: tuple[str, ...] = ()  # PICK_OPTION: the options' names (the default player takes the first)
    turn: str = OWN_TURN  # OWN_TURN, or EITHER_TURN: asked in either player's turn (Shadow in the Warp)
    rounds: tuple[int, ...] = ()  # asked only in these battle rounds, once each (() every round)
    adds_to: str = ""  # (a KEPT option choice) the key of the rule whose options it picks one more of
    most: tuple[int, ...] = ()  # PICK_FRIENDS: how many units at most (one number, or three by battle size)
    at: str = AT_START  # asked at the start (AT_START) or the end (AT_END) of the moment's phase
    # a DICE_OPTIONS choice's dice rolled, options activated at most, and each option's need
    # ("double 5+ or triple 2+", in the order of ``options``)
    dice: int = 0
    picks: int = 0
    needs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in CHOICE_KINDS:
            raise VocabularyError(f"unknown choice kind {self.kind!r}")
        if self.kind == DICE_OPTIONS or self.needs or self.dice or self.picks:  # its own checks
            _check_dice_options(self)
            if self.most or self.at != AT_START or self.turn != OWN_TURN or self.rounds or self.adds_to:
                raise VocabularyError("a dice options choice is made as each battle round starts: no most, at, turn, "
                                      "rounds or adds_to")
        else:
            self._check_asked()
        if isinstance(self.uses, bool) or not isinstance(self.uses, int) or self.uses < 0:
            raise VocabularyError(f"uses must be a whole number of 0 or more, not {self.uses!r}")
        if self.lasts not in LASTS:
            raise VocabularyError(f"unknown duration {self.lasts!r}")
        if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 5 for n in self.rounds):
            raise VocabularyError(f"a choice's rounds are battle rounds 1 to 5, not {self.rounds!r}")
        if self.lasts == KEPT and self.kind != PICK_OPTION:
            raise VocabularyError("only a choice of options keeps its picks together")
        if self.adds_to and self.lasts != KEPT:
            raise VocabularyError("a choice picking one more option of another rule keeps its picks (lasts = kept)")

    def _check_asked(self) -> None:
        """Every choice but a dice options one: its options, its moment, and where it is asked."""
        if (self.kind == PICK_OPTION) != bool(self.options):
            raise VocabularyError("a choice of options (and only one) lists its options")
        if self.options and (len(self.options) < 2 or len(set(self.options)) != len(self.options)
                             or not all(isinstance(o, str) and o.strip() == o and o for o in self.options)):
            raise VocabularyError(f"a choice of options needs two or more distinct names, not {self.options!r}")
        if self.moment not in MOMENTS:  # (a phase, or FORMATIONS)
            raise VocabularyError(f"a choice's moment must be a phase of {PHASES} or {FORMATIONS!r}, "
                                  f"not {self.moment!r}")
        if (self.kind == PICK_FRIENDS) != bool(self.most):
            raise VocabularyError("a choice of friendly units (and only it) needs the most it picks (most)")
        if self.most:
            _sized(self.most, "most")
        if self.at not in (AT_START, AT_END) or self.turn not in CHOICE_TURNS:
            raise VocabularyError(f"a choice is asked at the start or end of its phase, in a turn of {CHOICE_TURNS}, "
                                  f"not {self.at!r} / {self.turn!r}")
        if self.moment == FORMATIONS and (self.at != AT_START or self.turn != OWN_TURN):
            raise VocabularyError("a choice at battle formations is asked once, with no phase end or turn")
        if (self.at != AT_START or self.turn == ENEMY_TURN or self.moment == FORMATIONS) and self.kind != PICK_FRIENDS:
            raise VocabularyError("only a choice of friendly units is asked at a phase's end, in the opponent's turn "
                                  "only or at battle formations (in this version)")
        if self.kind == PICK_FRIENDS and self.turn == EITHER_TURN:
            raise VocabularyError("a choice of friendly units is asked in its army's turn or the opponent's, not both")
        if self.kind == PICK_FRIENDS and self.turn == ENEMY_TURN and self.at == AT_START:
            raise VocabularyError("a choice of friendly units in the opponent's turn is asked at the end of its phase")


@dataclass(frozen=True, slots=True)
class RuleRecord:
    """One modelled rule (module docstring). ``key`` is the project's stable name for it (what
    scenario files write); ``ids`` the community data's ids of the rule or profile; ``names``
    how it is printed (the first is shown); ``partial`` says, in words, what of the rule this
    version does not model ("" when it is modelled whole)."""

    key: str
    names: tuple[str, ...]
    source: str  # ARMY_RULE, DETACHMENT_RULE or DATASHEET
    summary: str  # one line, our words
    grants: tuple[Grant, ...] = ()
    ids: tuple[str, ...] = ()
    faction: str = ""
    detachment: str = ""  # a detachment rule: its detachment's name
    choice: RuleChoice | None = None
    partial: str = ""
    pool: tuple[int, ...] = ()  # the points a RESURGE rule's army starts with (one, or by battle size)

    def __post_init__(self) -> None:
        if self.pool:
            _sized(self.pool, f"{self.key}: pool")
        if any(g.what.kind == RESURGE for g in self.grants) != bool(self.pool):
            raise VocabularyError(f"{self.key}: a rule that resurges units (and only it) needs a pool of points")
        if self.source not in SOURCES:
            raise VocabularyError(f"{self.key}: unknown source {self.source!r}")
        if not self.names or not self.summary:
            raise VocabularyError(f"{self.key}: a record needs a name and a summary")
        if not self.grants and not (self.choice is not None and self.choice.adds_to):  # (another's options)
            raise VocabularyError(f"{self.key}: a record with no effect the engine applies is no record (the rule is "
                                  "not modelled: leave it out, the importer reports it so)")
        uses_choice = any(c[0] in (CHOSEN, TARGET_CHOSEN, OPTION) for g in self.grants for c in g.when.conditions)
        if uses_choice and self.choice is None:
            raise VocabularyError(f"{self.key}: a grant reads the rule's choice, but the rule asks none")
        for g in self.grants:
            for c in g.when.conditions:
                if c[0] == OPTION and c[1] not in self.choice.options:
                    raise VocabularyError(f"{self.key}: a grant reads the option {c[1]!r}, which the rule's choice "
                                          f"does not offer ({', '.join(self.choice.options) or 'no options'})")
        friend = [g for g in self.grants if g.who == CHOSEN_FRIEND]
        if friend and self.choice is not None and self.choice.kind not in (PICK_FRIEND, PICK_FRIENDS):
            raise VocabularyError(f"{self.key}: a grant reaches the chosen friendly unit, but the rule asks no "
                                  "friendly unit")
        if friend and self.choice is None and not any(n.endswith(")") and "(" in n for n in self.names):
            raise VocabularyError(f"{self.key}: a grant reaches the chosen friendly unit, but the rule asks no "
                                  "friendly unit and carries no tag a LEND rule lends (a name ending \"(tag)\")")
        if any(g.what.kind == LEND and g.who != CHOSEN_FRIEND for g in self.grants):
            raise VocabularyError(f"{self.key}: a lending reaches the chosen friendly unit only (who = chosen friend)")
        if self.choice is not None and self.choice.kind == PICK_FRIENDS and any(g.range for g in friend):
            raise VocabularyError(f"{self.key}: a choice of friendly units picks them at any distance (range 0)")
        if self.choice is not None and self.choice.kind in (PICK_FRIEND, PICK_FRIENDS) and not friend:
            raise VocabularyError(f"{self.key}: the rule picks a friendly unit, but no grant reaches it")
        ritual = self.source == RITUAL_SOURCE
        if ritual and (self.choice is None or self.choice.kind != PICK_ENEMY):
            raise VocabularyError(f"{self.key}: a ritual picks its target: it needs an enemy-unit choice")
        if ritual and any(g.what.kind == RITUAL for g in self.grants):
            raise VocabularyError(f"{self.key}: a ritual cannot open other rituals")
        if not ritual and any(g.what.trigger == ON_MANIFEST or any(c[0] == PSYCHIC_RESULT for c in g.when.conditions)
                              for g in self.grants):
            raise VocabularyError(f"{self.key}: only a ritual's grants act when manifested or read its Psychic test")
        marks = any(c[0] == MARKED for g in self.grants for c in g.when.conditions)
        if marks != any(g.what.kind == MARK for g in self.grants):
            raise VocabularyError(f"{self.key}: a grant that reads the rule's mark needs a grant that moves it, and "
                                  "a mark needs a grant that reads it")
        if any(g.what.kind == MARK and g.who not in (UNIT, ARMY) for g in self.grants):
            raise VocabularyError(f"{self.key}: a mark moves to units of its own army (who = unit or army)")

    @property
    def name(self) -> str:
        return self.names[0]


@dataclass(frozen=True, slots=True)
class Held:
    """A rule as one unit holds it in a battle: the record, and its bearers (the ids of the
    models whose datasheet carries it; () when the whole unit or army holds it: an army or
    detachment rule, or a rule every model of the unit has)."""

    record: RuleRecord
    bearers: tuple[str, ...] = ()

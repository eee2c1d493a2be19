"""Whether a grant of a rule acts now (sim.rules.effects.vocabulary.When): a pure function of the
facts the battle reads off the world (sim.world.rule_effects builds them). Sections: 01.02.01
half-strength and Starting Strength, 14.02 objective range, 24.16 remained stationary, 19.01 attached units; the
rest are the records' own conditions."""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.effects import vocabulary as V
from sim.rules.geometry import within_distance


@dataclass(frozen=True, slots=True)
class Facts:
    """What a grant's conditions read, for the affected unit at one moment (and, for an attack,
    its target; for a saving throw, the attacking unit plays the target's part)."""

    phase: str = ""  # the current sim.rules.turn.Phase value ("" before the battle)
    own_turn: bool = True  # the affected unit's army is the active player
    attack: str = ""  # "melee" / "ranged" while an attack (or a save against one) is worked out
    battle_round: int = 0
    charged: bool = False
    stationary: bool = False
    below_half: bool = False
    on_objective: bool = False
    leading: bool = False  # the bearer leads or supports a unit (19.01)
    target_keywords: frozenset = frozenset()
    target_chosen: bool = False  # the other unit is the one the rule's choice named
    chosen: bool = False  # the rule's choice is in force
    target_below_half: bool = False
    target_distance: float | None = None  # inches between the units (closest models), if known
    below_starting: bool = False  # fewer models than its Starting Strength (a single model: wounds lost, 01.02.01)
    led: bool = False  # the unit is an attached unit with a leader (19.01)
    has_target: bool = False  # there is another unit (an attack's target, or its attacker for a save)
    target_on_objective: bool = False  # a model of the other unit is within range of an objective marker
    option: str = ""  # the option the rule's PICK_OPTION choice holds ("" none)
    # (keywords, distance to the affected unit) of each unit of the rule's (holder's) army on the battlefield
    holder_units: tuple = ()
    in_own_zone: bool = False  # a model of it is within its own army's deployment zone
    target_battle_shocked: bool = False  # the other unit is battle-shocked
    options_picked: tuple = ()  # every option a KEPT PICK_OPTION choice picked so far
    psychic_result: int = 0  # (a ritual's grants) the result of the Psychic test that manifested it
    oath_quality: str = ""  # the quality of the oath its army swore (sim.rules.effects.oaths), "" none
    honoured: bool = False  # its army's oath is fulfilled
    in_domain: bool = False  # a model of the unit is within the holding army's domain (sim.rules.effects.domain)
    wholly_in_domain: bool = False  # every model of the unit is wholly within it
    psychic: bool = False  # the attack is made with a [PSYCHIC] weapon (24.29)
    keywords: frozenset = frozenset()  # the affected unit's keywords
    arrived: bool = False  # set up as Reinforcements, its army's next Fight phase not yet over (V.ARRIVED)
    starting_strength: int = 0  # its Starting Strength in models (01.02.01)
    target_engaged_at_start: bool = False  # the other unit was engaged with this one when the turn began
    target_targeted: bool = False  # another unit charged or attacked the other unit this phase
    marked: bool = False  # the unit is its army's marked unit of the rule (a MARK grant moves it)


_FACT = {V.CHARGED: "charged", V.STATIONARY: "stationary", V.BELOW_HALF: "below_half",
         V.ON_OBJECTIVE: "on_objective", V.LEADING: "leading", V.TARGET_CHOSEN: "target_chosen",
         V.CHOSEN: "chosen", V.TARGET_BELOW_HALF: "target_below_half",
         V.BELOW_STARTING: "below_starting", V.LED: "led", V.TARGET_ON_OBJECTIVE: "target_on_objective"}
_FACT[V.IN_OWN_ZONE] = "in_own_zone"
_FACT[V.TARGET_SHOCKED] = "target_battle_shocked"
_FACT[V.HONOURED] = "honoured"
_FACT.update({V.IN_DOMAIN: "in_domain", V.WHOLLY_IN_DOMAIN: "wholly_in_domain", V.PSYCHIC_ATTACK: "psychic"})
_FACT[V.ARRIVED] = "arrived"
_FACT[V.MARKED] = "marked"


def _alternatives(arg) -> list[str]:
    """A keyword argument's alternatives: "MONSTER/VEHICLE" -> ["MONSTER", "VEHICLE"]."""
    return [k.strip() for k in str(arg).upper().split("/")]


def condition_holds(name: str, arg, f: Facts) -> bool:
    """One condition of V.CONDITIONS against the facts."""
    attr = _FACT.get(name)
    if attr is not None:
        return getattr(f, attr)
    if name == V.TARGET_KEYWORD:  # ("MONSTER/VEHICLE": any of them, 02.05.01)
        return any(k in f.target_keywords for k in _alternatives(arg))
    if name == V.OPTION and f.options_picked:  # (a KEPT choice: any option picked so far)
        return arg in f.options_picked
    if name == V.OPTION:
        return f.option == arg
    if name == V.TARGET_NOT_BELOW_HALF:
        return f.has_target and not f.target_below_half
    if name == V.NOT_TARGET_KEYWORD:  # (none of them; only of an attack or a save: there must be another unit)
        return f.has_target and not any(k in f.target_keywords for k in _alternatives(arg))
    if name == V.TARGET_WITHIN:  # (01.04.01 "within", up to the measuring tolerance)
        return f.target_distance is not None and within_distance(f.target_distance, float(arg))
    if name == V.BATTLE_ROUND:
        return f.battle_round >= int(arg)
    if name in (V.NEAR_KEYWORD, V.NOT_NEAR_KEYWORD):  # (01.04.01 "within", up to the tolerance)
        kw, inches = V.near_argument(arg)
        alts = _alternatives(kw)  # ("A/B N": a unit that is A or B)
        near = any(any(k in kws for k in alts) and within_distance(d, inches) for kws, d in f.holder_units)
        return near == (name == V.NEAR_KEYWORD)
    if name == V.PSYCHIC_RESULT:
        return f.psychic_result >= int(arg)
    if name == V.OATH_QUALITY:
        return f.oath_quality == str(arg)
    if name == V.NOT_WHOLLY_IN_DOMAIN:
        return not f.wholly_in_domain
    if name == V.LACKS_KEYWORD:
        return not any(k in f.keywords for k in _alternatives(arg))
    if name == V.NOT_IN_DOMAIN:
        return not f.in_domain
    if name == V.STARTING_STRENGTH:
        return f.starting_strength == int(arg)
    # (restrictions on the other unit: they hold when there is none)
    if name == V.NOT_ENGAGED_AT_START:
        return not (f.has_target and f.target_engaged_at_start)
    if name == V.NOT_TARGETED:
        return not (f.has_target and f.target_targeted)
    raise V.VocabularyError(f"unknown condition {name!r}")


def why_not(when: V.When, f: Facts) -> str | None:
    """The first part of ``when`` that does not hold, in words (None: it holds). The limit on
    uses is the caller's (it needs the battle's count of uses)."""
    problem = not_now(when, f.phase, f.attack, f.own_turn)
    if problem is not None:
        return problem
    failing = failing_condition(when, f)
    return None if failing is None else "while " + condition_words(*failing) + " (not now)"


def failing_condition(when: V.When, f: Facts) -> tuple | None:
    """The first of ``when``'s conditions that does not hold for these facts, as its (name,
    argument), or None (``why_not`` words it; a caller that only asks whether they hold does
    not)."""
    for name, arg in when.conditions:
        if not condition_holds(name, arg, f):
            return name, arg
    return None


def not_now(when: V.When, phase: str, attack: str, own_turn: bool) -> str | None:
    """The first of ``when``'s phases, kind of attack and whose turn that does not hold, in
    words (``why_not``'s first parts: None when they hold), from the three facts they read alone
    (a caller asks these before it gathers the facts the conditions read)."""
    if when.phases and phase not in when.phases:
        return "not in this phase"
    if when.attacks and attack != when.attacks:
        return f"only for {when.attacks} attacks"
    if when.turn == "own" and not own_turn:
        return "only in its army's turn"
    if when.turn == "enemy" and own_turn:
        return "only in the opponent's turn"
    return None


def holds(when: V.When, f: Facts) -> bool:
    """True if every part of ``when`` holds for these facts (its limit on uses aside)."""
    return not_now(when, f.phase, f.attack, f.own_turn) is None and failing_condition(when, f) is None


_DOMAIN = " (its deployment zone; no man's land / the enemy zone while it holds half of their objectives)"


def condition_words(name: str, arg) -> str:
    """A condition in words, for the unit card and the import report."""
    if name == V.IN_OWN_ZONE:
        return "it is within its own deployment zone"
    if name == V.TARGET_SHOCKED:
        return "the other unit is battle-shocked"
    if name in (V.NEAR_KEYWORD, V.NOT_NEAR_KEYWORD):
        kw, inches = V.near_argument(arg)
        return f"it is {'' if name == V.NEAR_KEYWORD else 'not '}within {inches:g}\" of a {' or '.join(_alternatives(kw))} unit of the rule's army"
    return {
        V.CHARGED: "it made a charge move this turn",
        V.STATIONARY: "it remained stationary this turn",
        V.BELOW_HALF: "it is below half-strength",
        V.ON_OBJECTIVE: "it is within range of an objective marker",
        V.LEADING: "the bearer is leading a unit",
        V.TARGET_KEYWORD: f"the other unit is {' or '.join(k.strip() for k in str(arg).upper().split('/'))}",
        V.TARGET_CHOSEN: "the other unit is the one chosen for this rule",
        V.CHOSEN: "the rule has been called",
        V.TARGET_BELOW_HALF: "the other unit is below half-strength",
        V.TARGET_WITHIN: f"the other unit is within {arg}\"",
        V.BATTLE_ROUND: f"from battle round {arg}",
        V.BELOW_STARTING: "it is below its Starting Strength",
        V.NOT_TARGET_KEYWORD: f"the other unit is not {str(arg).upper()}",
        V.LED: "a leader is attached to it",
        V.TARGET_NOT_BELOW_HALF: "the other unit is not below half-strength",
        V.TARGET_ON_OBJECTIVE: "the other unit is within range of an objective marker",
        V.OPTION: f"{arg} is the option chosen",
        V.PSYCHIC_RESULT: f"its Psychic test totalled {arg} or more",
        V.OATH_QUALITY: f"its army's oath has the quality {_quality_name(arg)}",
        V.HONOURED: "its army is Honoured (its oath's deed done)",
        V.IN_DOMAIN: "it is within the domain of the rule's army" + _DOMAIN,
        V.WHOLLY_IN_DOMAIN: "it is wholly within the domain of the rule's army" + _DOMAIN,
        V.NOT_WHOLLY_IN_DOMAIN: "it is not wholly within the domain of the rule's army",
        V.PSYCHIC_ATTACK: "the attack is a psychic attack",
        V.LACKS_KEYWORD: f"it is not {' or '.join(_alternatives(arg))}",
        V.NOT_IN_DOMAIN: "it is not within the domain of the rule's army",
        V.ARRIVED: "it was set up as Reinforcements, until the end of its army's next Fight phase",
        V.STARTING_STRENGTH: f"its Starting Strength is {arg} models",
        V.NOT_ENGAGED_AT_START: "the other unit was not engaged with it at the start of the turn",
        V.NOT_TARGETED: "no other unit has charged or attacked the other unit this phase",
        V.MARKED: "it is the army's marked unit of this rule",
    }[name]


def _quality_name(key) -> str:
    """A quality's printed name, from its key (sim.rules.effects.oaths)."""
    from sim.rules.effects.oaths import QUALITIES
    q = QUALITIES.get(str(key))
    return f"\"{q.name}\"" if q is not None else repr(key)

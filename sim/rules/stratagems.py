"""15 Stratagems: one registry of the core stratagems (15.02-15.12) and the 15.01 limits as a
pure refusal check; the default headless policy (Part A ruling 25).

Every record is plain data: name, section, CP cost, whose turn it is used in (from the user's
side: "yours", "opponent" or "either"), the phase and the window inside it, a one-line
paraphrase in this project's words, the target conditions (as text, and as the facts and
keywords :func:`refusal` can check when the caller gives them), and the use limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable

__all__ = [
    "Stratagem", "STRATAGEMS", "by_name", "cost", "refusal", "default_policy_uses",
    "YOURS", "OPPONENT", "EITHER", "PHASES", "WINDOWS", "ROLLS",
    "ANY_PHASE", "AFTER_ROLL", "SELECTED_TO_FIGHT", "BEFORE_BATTLE_SHOCK_ROLL", "DURING_PHASE",
    "AFTER_CHARGE_MOVE", "END_OF_PHASE", "START_OF_PHASE", "AFTER_ENEMY_ATTACKS",
]

YOURS, OPPONENT, EITHER = "yours", "opponent", "either"
ANY_PHASE = "any"
PHASES = ("command", "movement", "shooting", "charge", "fight")

# windows: the moments inside a phase a stratagem is offered at
AFTER_ROLL = "just after a roll"                                 # 15.02
SELECTED_TO_FIGHT = "just after a unit is selected to fight"     # 15.03
BEFORE_BATTLE_SHOCK_ROLL = "just before a battle-shock roll"     # 15.04 (Battle-shock step)
DURING_PHASE = "during the phase"                                # 15.05 (any moment of the phase)
AFTER_CHARGE_MOVE = "just after a charge move"                   # 15.06
END_OF_PHASE = "end of the phase"                                # 15.07, 15.08, 15.11
START_OF_PHASE = "start of the phase"                            # 15.10
AFTER_ENEMY_ATTACKS = "just after an enemy unit resolved its attacks"  # 15.12 (Fight step)
WINDOWS = (AFTER_ROLL, SELECTED_TO_FIGHT, BEFORE_BATTLE_SHOCK_ROLL, DURING_PHASE,
           AFTER_CHARGE_MOVE, END_OF_PHASE, START_OF_PHASE, AFTER_ENEMY_ATTACKS)

# 15.02 the rolls a Command Re-roll may follow
ROLLS = ("advance", "charge", "damage", "hazard", "hit", "save", "wound", "attacks")


@dataclass(frozen=True, slots=True)
class Stratagem:
    """15.01 One stratagem: CP cost, when (whose turn, phase, window), target, effect, limits.

    ``needs`` are facts about the target the caller must vouch for (e.g. "unengaged",
    "in strategic reserves"); ``keywords_any``: the target needs one of these keywords;
    ``keywords_none``: it may have none of these; ``vehicle_needs_any``: a VEHICLE target
    needs one of these as well. ``extra`` names an optional "+N CP" section and its N.
    ``not_in_rounds``: battle rounds it cannot be used in. ``rolls``: the rolls it may follow.
    """

    name: str
    section: str
    cp: int
    turn: str
    phase: str
    window: str
    paraphrase: str
    target: str
    needs: tuple[str, ...] = ()
    keywords_any: tuple[str, ...] = ()
    keywords_none: tuple[str, ...] = ()
    vehicle_needs_any: tuple[str, ...] = ()
    extra: tuple[str, int] | None = None
    once_per_battle: bool = False
    not_in_rounds: tuple[int, ...] = ()
    rolls: tuple[str, ...] = ()


STRATAGEMS: tuple[Stratagem, ...] = (
    Stratagem(
        "Command Re-roll", "15.02", 1, EITHER, ANY_PHASE, AFTER_ROLL,
        "Roll again one advance, charge, damage, hazard, hit, save, wound or attack-count roll just "
        "made for a friendly unit or model: one die of a multi-dice roll, but a charge roll in full.",
        "the unit or model the roll was made for", rolls=ROLLS),
    Stratagem(
        "Epic Challenge", "15.03", 1, YOURS, "fight", SELECTED_TO_FIGHT,
        "A CHARACTER model of the unit just picked to fight gets the precision ability on its "
        "melee weapons until the phase ends.",
        "the friendly CHARACTER unit just selected to fight", keywords_any=("CHARACTER",)),
    Stratagem(
        "Insane Bravery", "15.04", 1, YOURS, "command", BEFORE_BATTLE_SHOCK_ROLL,
        "The battle-shock roll the unit is about to make passes without dice; once per battle.",
        "the friendly unit about to make a battle-shock roll", once_per_battle=True),
    Stratagem(
        "Explosives", "15.05", 1, YOURS, "shooting", DURING_PHASE,
        "One EXPLOSIVES/GRENADES model picks an unengaged visible enemy unit within 8 inches and "
        "rolls six dice: every 4+ is a mortal wound on that unit.",
        "a friendly unengaged EXPLOSIVES/GRENADES unit, eligible to shoot, that did not advance",
        needs=("unengaged", "eligible to shoot", "did not advance"),
        keywords_any=("EXPLOSIVES", "GRENADES")),
    Stratagem(
        "Crushing Impact", "15.06", 1, YOURS, "charge", AFTER_CHARGE_MOVE,
        "One model of the charging MONSTER/VEHICLE rolls a die per point of its T against an "
        "enemy unit it is engaged with: 1s wound its own unit, 5+ wound the enemy (6 at most per unit).",
        "the friendly MONSTER or VEHICLE unit that just ended a charge move",
        keywords_any=("MONSTER", "VEHICLE")),
    Stratagem(
        "Rapid Ingress", "15.07", 1, OPPONENT, "movement", END_OF_PHASE,
        "A unit waiting in strategic reserves arrives now with an ingress move; never in the first round.",
        "a friendly unit in strategic reserves, not AIRCRAFT",
        needs=("in strategic reserves",), keywords_none=("AIRCRAFT",), not_in_rounds=(1,)),
    Stratagem(
        "Fire Overwatch", "15.08", 1, OPPONENT, "movement", END_OF_PHASE,
        "The unit shoots straight away using snap shooting (15.09).",
        "a friendly unengaged unit, not TITANIC",
        needs=("unengaged",), keywords_none=("TITANIC",)),
    Stratagem(
        "Smokescreen", "15.10", 1, OPPONENT, "shooting", START_OF_PHASE,
        "Until the phase ends, attacks on the SMOKE unit, or on units hidden from the attacker by "
        "its models, are made as if the target had the benefit of cover.",
        "a friendly SMOKE unit", keywords_any=("SMOKE",)),
    Stratagem(
        "Heroic Intervention", "15.11", 1, OPPONENT, "charge", END_OF_PHASE,
        "The unit declares a charge of its own, either only at units that charged this phase "
        "(Leap to Defend) or, for 1 more CP, at anything within 6 inches with the roll capped at 6 "
        "(Into the Fray).",
        "a friendly unengaged unit within 12 inches of an enemy unit; a VEHICLE only if CHARACTER or WALKER",
        needs=("unengaged", "within 12 inches of an enemy unit"),
        vehicle_needs_any=("CHARACTER", "WALKER"), extra=("Into the Fray", 1)),
    Stratagem(
        "Counteroffensive", "15.12", 2, OPPONENT, "fight", AFTER_ENEMY_ATTACKS,
        "The unit gains Fights First until the phase ends and must be the next unit its player picks to fight.",
        "a friendly unit that is eligible to fight", needs=("eligible to fight",)),
)

_BY_NAME = {s.name: s for s in STRATAGEMS}


def by_name(name: str) -> Stratagem:
    """15 The core stratagem called ``name`` (KeyError naming the known ones otherwise)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown stratagem {name!r}; core stratagems: {', '.join(_BY_NAME)}") from None


def cost(record: Stratagem, extra: bool = False, modifier: int = 0) -> int:
    """15.01 / 15.01.01 / 02.02.01 The CP a use costs: the listed cost, plus the optional
    "+N CP" section if used (that is not a modifier: the cost becomes, say, 2CP); then cost
    modifiers, which raise it by at most 1 and never take it below 0."""
    if extra and record.extra is None:
        raise ValueError(f"{record.name} ({record.section}) has no optional +CP section")
    base = record.cp + (record.extra[1] if extra else 0)
    return max(0, base + min(int(modifier), 1))


def refusal(record: Stratagem, *, cp: int, phase: str, window: str, whose_turn: str,
            used_this_phase: Collection[str] = (), target: str | None = None,
            units_targeted_this_phase: Collection[str] = (), target_battle_shocked: bool = False,
            used_once_per_battle: Collection[str] = (), round: int = 1, roll: str | None = None,
            extra: bool = False, cost_modifier: int = 0,
            target_facts: Iterable[str] | None = None,
            target_keywords: Iterable[str] | None = None) -> str | None:
    """15.01 Why a player may not use ``record`` now, or None if they may. The reason names the
    section. Checked, in order:

    * whose turn (``whose_turn``: "yours" if it is the user's turn, else "opponent"), the phase
      and the window (and, for 15.02, that ``roll`` is one it may follow);
    * a battle round it is barred from (15.07 not in round 1);
    * once per battle (15.04: ``used_once_per_battle`` holds the names this player has used);
    * once per phase per player (``used_this_phase``: the names this player used this phase);
    * one stratagem per unit per phase (``units_targeted_this_phase``: the units this player
      has targeted with stratagems this phase; ``target``: this use's target unit);
    * not on the player's own battle-shocked units (01.07; every core stratagem targets a
      friendly unit), so Insane Bravery cannot save a battle-shocked unit (Part A ruling 26);
    * the target's needs and keywords, when ``target_facts`` / ``target_keywords`` are given
      (None: the caller checks them);
    * the cost (``cost``) against the player's ``cp``: too little CP, no use.
    """
    s = record.section
    if record.turn != EITHER and whose_turn != record.turn:
        when = "your own turn" if record.turn == YOURS else "your opponent's turn"
        return f"{record.name} is used in {when} ({s})"
    if record.phase != ANY_PHASE and phase != record.phase:
        return f"{record.name} is used in the {record.phase} phase, not the {phase} phase ({s})"
    if record.window != DURING_PHASE and window != record.window:
        return f"{record.name} is used {record.window}, not {window} ({s})"
    if record.rolls and roll not in record.rolls:
        return f"{record.name} may follow only a {', '.join(record.rolls)} roll, not {roll!r} ({s})"
    if round in record.not_in_rounds:
        return f"{record.name} cannot be used in battle round {round} ({s})"
    if record.once_per_battle and record.name in used_once_per_battle:
        return f"{record.name} can be used once per battle and was already used ({s})"
    if record.name in used_this_phase:
        return f"{record.name} was already used by this player this phase: once per phase (15.01)"
    if target is not None and target in units_targeted_this_phase:
        return (f"{target} was already targeted by one of this player's stratagems this phase: "
                f"one per unit per phase (15.01)")
    if target_battle_shocked:
        return f"{record.name} cannot target the player's own battle-shocked unit (15.01, 01.07)"
    if target_facts is not None:
        facts = set(target_facts)
        for need in record.needs:
            if need not in facts:
                return f"{record.name} needs a target that is {need} ({s})"
    if target_keywords is not None:
        kws = set(target_keywords)
        if record.keywords_any and not kws & set(record.keywords_any):
            return f"{record.name} needs a {'/'.join(record.keywords_any)} target ({s})"
        bad = sorted(kws & set(record.keywords_none))
        if bad:
            return f"{record.name} cannot target a {bad[0]} unit ({s})"
        if record.vehicle_needs_any and "VEHICLE" in kws and not kws & set(record.vehicle_needs_any):
            return (f"{record.name} can target a VEHICLE only if it is "
                    f"{'/'.join(record.vehicle_needs_any)} ({s})")
    price = cost(record, extra, cost_modifier)
    if cp < price:
        return f"{record.name} costs {price} CP and the player has {cp} (15.01)"
    return None


def default_policy_uses(record: Stratagem, *, roll: str | None = None, roll_failed: bool = False,
                        **context) -> bool:
    """Part A ruling 25: the default headless policy uses no stratagem, except a Command Re-roll
    (15.02) of a failed charge roll when the 15.01 limits and the player's CP allow it.
    ``context`` is the rest of ``refusal``'s keyword arguments."""
    if record.name != "Command Re-roll" or roll != "charge" or not roll_failed:
        return False
    return refusal(record, roll=roll, **context) is None

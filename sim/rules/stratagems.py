"""15 Stratagems, the pure rules: the moments a stratagem may be used at (whose turn, the phase,
the window inside it, the rolls 15.02 may follow), its cost (15.01.01) and the 15.01 limits as a
refusal check. The stratagems themselves are records (sim.stratagems: one module each, their
data, offer and effect); ``refusal`` reads any record's data: name, section, CP cost, whose turn
(from the user's side: "yours", "opponent" or "either"), phase and window, the facts its target
needs (each with a ``name``), keywords, the optional "+N CP" section and the use limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable

from sim.rules.turn import Phase

__all__ = [
    "Moment", "Roll", "cost", "refusal",
    "YOURS", "OPPONENT", "EITHER", "PHASES", "WINDOWS", "ROLLS",
    "ANY_PHASE", "AFTER_ROLL", "SELECTED_TO_FIGHT", "BEFORE_BATTLE_SHOCK_ROLL", "DURING_PHASE",
    "AFTER_CHARGE_MOVE", "END_OF_PHASE", "START_OF_PHASE", "AFTER_ENEMY_ATTACKS",
]

YOURS, OPPONENT, EITHER = "yours", "opponent", "either"
ANY_PHASE = "any"
PHASES = tuple(p for p in Phase if p != Phase.END)  # the phases a stratagem may name

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


@dataclass(slots=True)
class Roll:
    """A roll just made, that a stratagem may follow (15.02 Command Re-roll): its kind
    ("advance", "charge", "hit"...),
    its dice, which dice may be offered (``candidates``; None: the roll is re-rolled whole, a
    use/decline choice), how a die is rolled again (``new_die(i, why)``, ``why`` naming what
    rolls it again for the dice's purpose; a whole roll: ``new_die(None, why)`` gives all its
    dice), whether it failed (for the default policy), the
    attack sequence's pool it belongs to and what it is (for the offer's words). The effect
    replaces the dice it re-rolls and says which (``rerolled``)."""

    kind: str
    dice: list
    new_die: Callable
    candidates: list | None = None
    failed: bool = False
    pool: int | None = None
    about: str = ""
    rerolled: Any = None
    failing: list | None = None  # the candidates that failed (None: as the roll's kind says, command_reroll.failed_dice)


@dataclass(slots=True)
class Moment:
    """A moment of the battle a stratagem's window may be open at (15: each record's WHEN).
    ``player``: who may use one now (None: as each record's turn says: "yours" is the player
    whose turn it is, "opponent" the other); ``unit``: the unit the moment is about (the one
    selected to fight, that just charged, fought or rolled, about to make a battle-shock roll);
    ``roll``: a roll just made (AFTER_ROLL); ``info``: what else the moment knows (a unit's
    strength for 15.04). ``used``: the stratagems used at it, filled in as they are."""

    window: str
    player: int | None = None
    unit: int | None = None
    roll: Roll | None = None
    info: dict = field(default_factory=dict)
    used: list = field(default_factory=list)



def cost(record, extra: bool = False, modifier: int = 0) -> int:
    """15.01 / 15.01.01 / 02.02.01 The CP a use costs: the listed cost, plus the optional
    "+N CP" section if used (that is not a modifier: the cost becomes, say, 2CP); then cost
    modifiers, which raise it by at most 1 and never take it below 0."""
    if extra and record.extra is None:
        raise ValueError(f"{record.name} ({record.section}) has no optional +CP section")
    base = record.cp + (record.extra[1] if extra else 0)
    return max(0, base + min(int(modifier), 1))


def refusal(record, *, cp: int, phase: str, window: str, whose_turn: str,
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
            if need.name not in facts:
                return f"{record.name} needs a target that is {need.name} ({s})"
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

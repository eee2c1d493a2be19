"""05.01-05.04 and 02.02.01: the single-die rules of the attack sequence.

Results are small ints: FAIL = 0, SUCCESS = 1, CRITICAL = 2 (a critical still counts as a
success, 05).
"""

from __future__ import annotations

from enum import StrEnum

FAIL = 0
SUCCESS = 1
CRITICAL = 2


class AttackKind(StrEnum):
    """04 The attacks an activation makes: ranged attacks, by a unit selected to shoot (10.02),
    or melee attacks, by a unit selected to fight (12.04). (Its values are what the events and
    the odds' problems print.)"""

    SHOOTING = "shoot"
    FIGHTING = "fight"


def clamp_roll_modifier(total: int) -> int:
    """02.02.01 Hit and wound rolls: the net modifier is clamped to -1..+1."""
    return -1 if total < -1 else 1 if total > 1 else total


def clamp_skill(skill: int) -> int:
    """02.02.01 Caps: WS/BS never 1+ or better nor 7+ or worse (so 2+..6+)."""
    return 2 if skill < 2 else 6 if skill > 6 else skill


def clamp_ap(ap: int) -> int:
    """02.02.01 Caps: AP is never better... reductions stop at 0 (AP never positive)."""
    return 0 if ap > 0 else ap


def hit_result(unmodified: int, skill: int, modifier: int = 0, critical_on: int = 6) -> int:
    """05.01 Hit roll: unmodified 1 fails; unmodified ``critical_on``+ (normally 6) is a critical
    hit; otherwise the modified result (net modifier clamped to +-1) must reach the BS/WS."""
    if unmodified == 1:
        return FAIL
    if unmodified >= critical_on:
        return CRITICAL
    return SUCCESS if unmodified + clamp_roll_modifier(modifier) >= clamp_skill(skill) else FAIL


def wound_threshold(S: int, T: int) -> int:
    """05.02 Wound table: S >= 2T 2+; S > T 3+; S = T 4+; S <= T/2 6+; S < T 5+."""
    if S >= 2 * T:
        return 2
    if S > T:
        return 3
    if S == T:
        return 4
    if 2 * S <= T:
        return 6
    return 5


def unit_toughness(T, bodyguard, slots) -> int:
    """05.02.01 / 19.02 Mixed T: the T a unit's wound rolls use, for its models at ``slots``
    (indexes into the per-model ``T`` and ``bodyguard`` flags): the highest T among the
    bodyguard models of an attached unit, else (no bodyguard left, or not attached) the
    highest T."""
    guards = [T[i] for i in slots if bodyguard[i]]
    return max(guards or [T[i] for i in slots])


def wound_result(unmodified: int, S: int, T: int, modifier: int = 0, critical_on: int = 6) -> int:
    """05.02 Wound roll: unmodified 1 fails; unmodified ``critical_on``+ is a critical wound
    (6, or Y with [ANTI-X Y+], 24.03); otherwise the modified result (net modifier clamped to
    +-1) must reach the S-vs-T value."""
    if unmodified == 1:
        return FAIL
    if unmodified >= critical_on:
        return CRITICAL
    return SUCCESS if unmodified + clamp_roll_modifier(modifier) >= wound_threshold(S, T) else FAIL


def save_fails(unmodified: int, AP: int, Sv: int, InSv: int | None, modifier: int = 0) -> bool:
    """05.04 step 2 Check the save, first matching row: unmodified 1 -> damage; InSv and the
    result >= InSv -> no damage (the invulnerable save is used automatically when its row
    applies); the result adjusted by AP >= Sv -> no damage; otherwise damage. The result is the
    roll plus ``modifier``, the net save-roll modifier (02.02.01: after re-rolls, never clamped
    for save rolls; AP adjusts the armour row only)."""
    if unmodified == 1:
        return True
    result = unmodified + modifier
    if InSv is not None and result >= InSv:
        return False
    return result + clamp_ap(AP) < Sv


def invulnerable_against(InSv: int | None, against: str, melee: bool) -> int | None:
    """05.03/05.04 The invulnerable save a model has against one attack: a datasheet may grant
    one only against ranged attacks (an IMPERIAL KNIGHT's 5+) or only against melee attacks;
    ``against`` is "ranged", "melee" or "" (every attack). None: no invulnerable save against
    it."""
    if InSv is None or not against:
        return InSv
    return InSv if (against == "melee") == melee else None


def saved_by_invulnerable(unmodified: int, AP: int, Sv: int, InSv: int | None, modifier: int = 0) -> bool:
    """05.04 step 2: True when row 2 (the invulnerable save) is the row that stopped the damage
    and the armour save alone would not have (for the battle report)."""
    result = unmodified + modifier
    return (unmodified != 1 and InSv is not None and result >= InSv
            and result + clamp_ap(AP) < Sv)

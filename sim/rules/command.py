"""08 Command phase, 01.02.01 starting strength and half-strength, 01.06 Leadership rolls and
01.07 battle-shock (RULES.md §18, Part A rulings 24 and 26).

Pure functions over plain data; the one function that rolls takes the battle's
:class:`~sim.rules.dice.Dice` and tags the roll with its purpose.

Ld is a target number on 2D6 (a profile's ``Ld = 6`` is "6+"), as in the scenario format.
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence

from sim.rules.dice import Dice

__all__ = [
    "CORE_CP", "STARTING_CP", "OTHER_CP_PER_ROUND",
    "FULL", "BELOW_STARTING", "AT_HALF", "BELOW_HALF", "DESTROYED", "STRENGTHS",
    "starting_cp", "gain_core_cp", "other_cp_granted",
    "gain_cp",
    "half_strength", "below_starting_strength", "at_or_below_half",
    "needs_battle_shock_roll", "leadership_passes", "modified_ld", "leadership_roll",
    "battle_shock_after_roll", "oc_while", "fall_back_modes", "may_start_action", "may_surge",
    "LD_BEST", "LD_WORST",
]

Player = Hashable

CORE_CP = 1               # 08.02 each player gains 1 CP in every Command phase (both players)
STARTING_CP = 0           # Part A ruling 24 (not in the data, §29)
OTHER_CP_PER_ROUND = 1    # [EC] at most 1 CP per battle round from all sources but Core CP

LD_BEST, LD_WORST = 5, 8  # 02.02.01 a modified Ld is never 4+ or better nor 9+ or worse

# 01.02.01 half-strength states, most specific first answered by ``half_strength``
FULL = "full"                        # not below starting strength
BELOW_STARTING = "below starting"    # below starting strength, above half-strength
AT_HALF = "at half"                  # exactly half (also below starting strength)
BELOW_HALF = "below half"            # less than half (also below starting strength)
DESTROYED = "destroyed"              # no models (no wounds) left: the unit is gone
STRENGTHS = (FULL, BELOW_STARTING, AT_HALF, BELOW_HALF, DESTROYED)


# --- command points (08.02, [EC]) -----------------------------------------------------------

def starting_cp(players: Sequence[Player]) -> dict[Player, int]:
    """Part A ruling 24: every player starts the battle with 0 CP."""
    return {p: STARTING_CP for p in sorted(players)}


def gain_core_cp(cp: Mapping[Player, int]) -> dict[Player, int]:
    """08.02 Gain Core CP: at the start of every Command phase (either player's) *both* players
    gain 1 CP, so each gains 2 per battle round."""
    return {p: v + CORE_CP for p, v in sorted(cp.items())}


def other_cp_granted(gained_this_round: int, amount: int) -> int:
    """[EC] Beyond Core CP, a player gains at most 1 CP per battle round from all other sources
    (a Tactical secondary's discard included). ``gained_this_round`` is what that player has
    already gained from such sources this round; returns how much of ``amount`` they get."""
    if amount < 0 or gained_this_round < 0:
        raise ValueError("CP amounts cannot be negative")
    return max(0, min(amount, OTHER_CP_PER_ROUND - gained_this_round))


def gain_cp(cp: int, amount: int, *, capped: bool = True, gained_this_round: int = 0) -> int:
    """A player's CP after a rule grants them ``amount`` beyond Core CP (08.02): held to the [EC]
    cap of 1 per battle round from other sources (other_cp_granted; ``gained_this_round``: what
    they already gained so this round), unless the rule exempts its CP (``capped`` False: an
    oath fulfilled, sim.rules.effects.oaths)."""
    if amount < 0:
        raise ValueError("CP amounts cannot be negative")
    return cp + (other_cp_granted(gained_this_round, amount) if capped else amount)


# --- starting strength and half-strength (01.02.01) ----------------------------------------

def half_strength(starting_models: int, alive_models: int, single_model_W: int | None = None,
                  wounds_left: int | None = None) -> str:
    """01.02.01 [APP] A unit's strength against its starting strength (the models it had at the
    start of battle round 1; an attached unit counts all its models):

    * starting strength 2 or more: count the models left;
    * starting strength 1: count the model's remaining wounds against its W
      (``single_model_W``, ``wounds_left``), even if other units joined it later;
    * FULL if not below starting strength; BELOW_STARTING if fewer; AT_HALF if exactly half;
      BELOW_HALF if fewer than half; DESTROYED if nothing is left. An odd starting strength
      (or odd W) can never be "at" half, only below it (integer test 2 * left == start).

    AT_HALF and BELOW_HALF are also below starting strength (``below_starting_strength``).
    A multi-model unit down to one model with all its wounds is still counted in models
    (the 01.02.01 example: an attached Captain alone is below half-strength).
    """
    if starting_models < 1:
        raise ValueError(f"starting strength must be at least 1, found {starting_models}")
    if starting_models == 1:
        if single_model_W is None or wounds_left is None:
            raise ValueError("a unit with a starting strength of 1 tracks wounds: give its W "
                             "and its wounds left (01.02.01)")
        start, left = int(single_model_W), max(0, int(wounds_left))
        if start < 1:
            raise ValueError(f"W must be at least 1, found {single_model_W}")
        if alive_models == 0:
            left = 0
    else:
        start, left = int(starting_models), int(alive_models)
    if left < 0 or left > start:
        raise ValueError(f"{left} left of a starting {start}: expected 0..{start}")
    if left == 0:
        return DESTROYED
    if 2 * left < start:
        return BELOW_HALF
    if 2 * left == start:
        return AT_HALF
    if left < start:
        return BELOW_STARTING
    return FULL


def below_starting_strength(state: str) -> bool:
    """01.02.01 Below starting strength: any state short of full (at/below half included)."""
    return state in (BELOW_STARTING, AT_HALF, BELOW_HALF)


def at_or_below_half(state: str) -> bool:
    """01.02.01 At or below half-strength."""
    return state in (AT_HALF, BELOW_HALF)


# --- battle-shock (08.03, 01.06, 01.07) -----------------------------------------------------

def needs_battle_shock_roll(shocked: bool, strength_state: str) -> bool:
    """08.03 In the active player's Battle-shock step, a unit of theirs makes a battle-shock
    roll if it is battle-shocked or at/below half-strength (embarked and reserve units
    included, 01.02.04; a destroyed unit does not)."""
    if strength_state == DESTROYED:
        return False
    return bool(shocked) or at_or_below_half(strength_state)


def modified_ld(ld: int, improve: int = 0) -> int:
    """02.02.01 A modified Ld: improving lowers the number (+1 turns 7+ into 6+), and after
    modifiers it is never 4+ or better nor 9+ or worse. With no modifier the profile's value
    stands (the cap applies after modifiers)."""
    if improve == 0:
        return int(ld)
    return min(LD_WORST, max(LD_BEST, int(ld) - int(improve)))


def leadership_passes(total: int, lds: Sequence[int]) -> bool:
    """01.06 A Leadership roll (2D6) succeeds if its total equals or beats at least one Ld value
    among the unit's models, i.e. the best (lowest) one; otherwise it fails."""
    lds = list(lds)
    if not lds:
        raise ValueError("01.06: a Leadership roll needs the Ld of at least one model")
    return int(total) >= min(int(v) for v in lds)


def leadership_roll(dice: Dice, lds: Sequence[int], purpose: str = "battle-shock roll (01.07)",
                    auto_pass: bool = False) -> tuple[tuple[int, ...], bool]:
    """01.06 / 01.07 Make a Leadership (battle-shock) roll: 2D6 from the battle's dice, logged
    with ``purpose``. Returns (the dice, passed). ``auto_pass`` (15.04 Insane Bravery) means no
    dice are rolled and the roll passes (01.05.01): returns ((), True)."""
    if auto_pass:
        return (), True
    rolled = dice.d6(2, purpose)
    return rolled, leadership_passes(sum(rolled), lds)


def battle_shock_after_roll(was_shocked: bool, passed: bool, in_battle_shock_step: bool = True) -> bool:
    """08.03 / 01.07 / Part A ruling 26: whether the unit is battle-shocked after a battle-shock
    roll. A fail battle-shocks it. A pass in the owner's Battle-shock step (08.03) ends the
    status; a pass rolled anywhere else (e.g. after a Desperate Escape, 09.07) changes nothing,
    because only 08.03 ends it."""
    if not passed:
        return True
    return False if in_battle_shock_step else bool(was_shocked)


def oc_while(oc: int, shocked: bool) -> int | None:
    """01.07 / 02.02.01 A model's OC for objective control: '-' (None) while battle-shocked (a
    set-to value nothing can raise); otherwise never below 0."""
    return None if shocked else max(0, int(oc))


def fall_back_modes(shocked: bool) -> tuple[str, ...]:
    """09.07 / 01.07 The fall-back modes a unit may choose: Ordered Retreat only if it is not
    battle-shocked; a battle-shocked unit must use Desperate Escape."""
    return ("desperate escape",) if shocked else ("ordered retreat", "desperate escape")


def may_start_action(shocked: bool) -> bool:
    """01.07 / 16.01 A battle-shocked unit cannot start an action (and one it started stops)."""
    return not shocked


def may_surge(shocked: bool) -> bool:
    """01.07 / 21.02 A battle-shocked unit cannot surge."""
    return not shocked

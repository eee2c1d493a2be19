"""Forced battle-shock tests (sim.rules.effects.vocabulary.FORCED_SHOCK), pure: a rule makes enemy
units take a battle-shock test (01.07; a "Battle-shock test" is a battle-shock roll, 01.07.02)
at a moment, with the rule's own modifier to it, sometimes only on a D6 and after mortal wounds.
The battle applies them in sim.phases.forced_shock; the test itself is the one battle-shock
roll of sim.phases.upkeep.battle_shock_test (the rules' other modifiers and re-rolls apply to
it too). Outside the unit's own Battle-shock step a pass does not clear battle-shock (ruling 26)."""

from __future__ import annotations

from typing import Sequence

from sim.rules.effects import vocabulary as V

DECLINE = "decline"


def due(e: V.Effect, moment: str) -> bool:
    """The FORCED_SHOCK effect ``e`` is made at ``moment`` (one of V.SHOCK_MOMENTS)."""
    return e.kind == V.FORCED_SHOCK and e.trigger == moment


def gate_passes(roll_needed: int, die: int | None) -> bool:
    """The D6 some forced tests are made on: the test (and its mortal wounds) happen on
    ``roll_needed`` or more (0: always, no die rolled)."""
    return roll_needed <= 0 or (die is not None and die >= roll_needed)


def has_mortal_wounds(e: V.Effect) -> bool:
    """The effect inflicts mortal wounds before its test (``dice`` given)."""
    return bool(e.dice.k or e.dice.is_random)


def pick_options(candidates: Sequence[str], picked: set) -> list:
    """What an ENGAGED_ENEMY test may pick: an engaged enemy unit (id) not yet picked for this
    rule at this moment ("cannot select the same unit more than once per phase"), or "decline"
    (the rule says the player can). Empty: nothing to pick, nothing is asked."""
    left = [c for c in candidates if c not in picked]
    return left + [DECLINE] if left else []


def default_pick(candidates: Sequence[tuple[str, bool]], picked: set) -> str:
    """The default player's pick of an ENGAGED_ENEMY test (``candidates``: (unit id, battle-shocked
    already) in unit order): the first not yet battle-shocked (a test can shock it), else the first
    left (it may still suffer what a failed test brings)."""
    left = [c for c in candidates if c[0] not in picked]
    fresh = [uid for uid, shocked in left if not shocked]
    return fresh[0] if fresh else (left[0][0] if left else DECLINE)

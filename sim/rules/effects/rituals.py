"""Psychic rituals (a rule's RITUAL grants, sim.rules.effects.vocabulary), pure: the Psychic test,
what the player may answer when asked which ritual to attempt, the default answer, and what a
manifested ritual does at once. The battle asks and rolls in sim.phases.rituals.

The test (our reading of the rule that grants RITUAL, e.g. Cabal of Sorcerers): roll 2D6 and, at
the player's choice, a third D6; if any two dice show the same number (a double, or a triple),
the caster's unit suffers D3 mortal wounds (perils, 06.02); then, if the caster is still alive, the
ritual is manifested when the dice's total is at least its Warp Charge. Each ritual is attempted
once per turn by the army, each caster attempts one per turn. A ritual is a record of its own
(source RITUAL_SOURCE): its grants act on the units of its army until the end of the phase, its
choice's target being the unit it was attempted at; its MORTAL_WOUNDS on ON_MANIFEST go off at
once, on that unit; its PSYCHIC_RESULT conditions read the test's total."""

from __future__ import annotations

from typing import Sequence

from sim.rules.dice import DiceExpr
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, holds

NONE = "none"  # the answer that attempts no ritual
EXTRA = " +D6"  # an option's ending: the third die is rolled (the rule's "Channel the Warp")
PERILS = DiceExpr(1, 3, 0)  # D3 mortal wounds to the caster's unit on a double or triple
CHANNEL_FROM = 8  # the default player rolls the third die for a Warp Charge of this or more (2D6 averages 7)


def psychic_test(dice: Sequence[int]) -> tuple[int, bool]:
    """The test's total and whether it is perilous (two or more of the dice show the same
    number: a double on 2D6, a double or triple on 3D6)."""
    return sum(dice), len(set(dice)) < len(dice)


def manifested(total: int, warp_charge: int, caster_alive: bool) -> bool:
    """The ritual is manifested: the caster survived its perils and the total reached the Warp
    Charge."""
    return caster_alive and total >= warp_charge


def option(ritual: str, target: str, extra: bool) -> str:
    """An answer naming a ritual (its record's key), its target (a unit id) and the third die,
    e.g. "doombolt at boyz +D6"."""
    return f"{ritual} at {target}" + (EXTRA if extra else "")


def parse(answer: str) -> tuple[str, str, bool] | None:
    """(ritual key, target unit id, third die) of an answer; None for NONE."""
    if answer == NONE:
        return None
    extra = answer.endswith(EXTRA)
    body = answer[: -len(EXTRA)] if extra else answer
    ritual, _, target = body.partition(" at ")
    return ritual, target, extra


def options(rituals: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """What the player may answer: NONE, then for each ritual left (its key, the ids of the units
    it may target, in unit order) each target without and with the third die. Only NONE: there
    is nothing to attempt (the player is not asked)."""
    out = [NONE]
    for key, targets in rituals:
        for t in targets:
            out += [option(key, t, False), option(key, t, True)]
    return out


def default_answer(rituals: Sequence[tuple[str, int, Sequence[tuple[str, float]]]]) -> str:
    """The default player's answer: the first ritual left in the order its rule lists them that
    has a target, at the nearest target (ties to the first in unit order), with the third die
    when the Warp Charge is CHANNEL_FROM or more. ``rituals``: (key, Warp Charge, [(target id,
    distance)]) each."""
    for key, warp, targets in rituals:
        if targets:
            t = min(targets, key=lambda x: x[1])[0]
            return option(key, t, warp >= CHANNEL_FROM)
    return NONE


def at_once(record: V.RuleRecord, total: int) -> list[V.Effect]:
    """The MORTAL_WOUNDS effects on ON_MANIFEST of a manifested ritual whose conditions hold for
    a test of ``total`` (a bigger result adding to a smaller one's: "D3, or D3+3 on 11+" is D3,
    and 3 more on 11+), in the record's order."""
    f = Facts(phase="shooting", own_turn=True, has_target=True, target_chosen=True, chosen=True,
              psychic_result=total)
    return [g.what for g in record.grants if g.what.kind == V.MORTAL_WOUNDS and g.what.trigger == V.ON_MANIFEST
            and holds(g.when, f)]


def lasting(record: V.RuleRecord) -> tuple[V.Grant, ...]:
    """The grants of a ritual that act while it is in force (every one but those that went off
    when it was manifested)."""
    return tuple(g for g in record.grants if g.what.trigger != V.ON_MANIFEST)

"""15.05 Explosives: in your Shooting phase, one of your unengaged EXPLOSIVES/GRENADES units that
is eligible to shoot and did not advance picks an unengaged enemy unit within 8" of, and visible
to, one of its EXPLOSIVES/GRENADES models; six D6 are rolled, and each 4+ is a mortal wound on
that unit (06.02). It is not shooting (README, our rulings): the unit may still be selected to
shoot. Offered at the start of the phase and after each of your units has shot."""

from __future__ import annotations

from sim import events as ev
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.rules.geometry import within_distance
from sim.stratagems.base import (DECLINE, Fact, Moment, StratagemRecord, allowed, choose, own_units, pair, pay,
                                 uid)
from sim.stratagems.facts import ELIGIBLE_TO_SHOOT, UNENGAGED
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.world import queries as W

NAME = "Explosives"
RANGE = 8.0  # 8" of the thrower
DICE = 6  # six D6
WOUND_ON = 4  # each 4+ is a mortal wound
KEYWORDS = ("EXPLOSIVES", "GRENADES")
DID_NOT_ADVANCE = Fact("did not advance", lambda battle, u: not W.unit_state(u).advanced)


def thrower(battle, u: int, target: int) -> int | None:
    """Steps 1-2: the first EXPLOSIVES/GRENADES model of the unit, in unit order, with the enemy
    unit ``target`` within 8" of it and visible to it; None if there is none. (Which model
    throws changes nothing else, so the offer names the unit and picks the model.)"""
    tmodels = W.unit_models(target)
    models = [m for m in W.unit_models(u) if W.model_keywords(m) & _KEYWORDS]
    if not models or not tmodels:
        return None
    near = [m for m, d in zip(models, W.nearest_distances(models, tmodels)) if within_distance(d, RANGE)]
    if not near:  # (the usual answer: no thrower within 8" of that unit; its sight is not read)
        return None
    vis = battle.visibility
    tids = [W.model_id(t) for t in tmodels]
    for m in near:
        mid = W.model_id(m)
        if any(vis.model_visible(mid, t) for t in tids):
            return m
    return None


_KEYWORDS = frozenset(KEYWORDS)


def _offer(battle, player: int, moment: Moment):
    """The answer is "unit -> target"; the model's casualties are removed at once (not an
    attack's, 05.04.04)."""
    options: list[str] = []
    found: dict[str, tuple[int, int, int]] = {}
    for u in own_units(player):
        if not W.unit_keywords(u) & _KEYWORDS:
            continue
        # (the unengaged enemy units the two units' boxes do not put farther than 8": W.units_near,
        # a superset, in order; the others have no thrower within 8", as ``thrower`` would find.
        # Most units have none: whether the stratagem is allowed on the unit is asked after)
        near = [e for e in W.units_near(u, W.enemy_units(u), RANGE) if not W.unit_engaged(e)]
        if not near or not allowed(battle, RECORD, player, u, SG.DURING_PHASE):
            continue
        for e in near:
            m = thrower(battle, u, e)
            if m is not None:
                key = pair(uid(u), uid(e))
                options.append(key)
                found[key] = (u, e, m)
    if not options:
        return False
    answer = yield from choose(battle, RECORD, player, NAME, options,
                               f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP): which unit, at which "
                               f"enemy unit within 8\"?", use=False)
    if answer == DECLINE:
        return False
    u, e, m = found[answer]
    unit, target, mid = uid(u), uid(e), W.model_id(m)
    pay(battle, RECORD, player, unit, f"{mid} at {target}")
    rolls = battle.dice.d6(DICE, f"explosives {mid} -> {target} (15.05)")
    mw = sum(1 for r in rolls if r >= WOUND_ON)
    battle.emit(ev.EXPLOSIVES, unit=unit, model=mid, target=target, rolls=list(rolls), mortal_wounds=mw)
    battle.changes.touched(e)
    if mw:
        suffer_mortal_wounds(battle, e, mw, source="Explosives (15.05)", by=unit)
        yield from remove_casualties(battle)  # (not an attack: removed at once, 05.04.04)
    return True


RECORD = StratagemRecord(
    NAME, "15.05", 1, SG.YOURS, Phase.SHOOTING, SG.DURING_PHASE,
    "One EXPLOSIVES/GRENADES model picks an unengaged visible enemy unit within 8 inches and "
    "rolls six dice: every 4+ is a mortal wound on that unit.",
    "a friendly unengaged EXPLOSIVES/GRENADES unit, eligible to shoot, that did not advance", _offer,
    needs=(UNENGAGED, ELIGIBLE_TO_SHOOT, DID_NOT_ADVANCE), keywords_any=KEYWORDS)

"""15.07 Rapid Ingress: at the end of your opponent's Movement phase (never in battle round 1),
one of your units in strategic reserves (not AIRCRAFT) makes an ingress move now."""

from __future__ import annotations

import esper

from sim.commands.ingress import Searches, can_ingress, ingress_spots
from sim.decisions import DecisionRequest, ask
from sim.components import Unit
from sim.errors import PlanError
from sim.plan.phased import check_ingress
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import DECLINE, Fact, Moment, StratagemRecord, allowed, choose, pay
from sim.systems.placing import apply_ingress
from sim.world import queries as W

NAME = "Rapid Ingress"
IN_RESERVES = Fact("in strategic reserves", lambda battle, u: W.in_reserves(u))


def _offer(battle, player: int, moment: Moment):
    """The answer names the unit; then, when it has more than one legal spot, where it arrives
    (an ``arrival`` decision among the legal spots, each its formation centred at a point along
    an edge; the default is the headless ingress's, Part A ruling 27: the legal spot nearest the
    nearest objective its side does not control). Each spot is checked as any ingress move is
    (20.04, 03.02: sim.plan.phased.check_ingress; the Movement phase's gates aside); only units
    with a legal spot are offered."""
    def problem(cmd):
        try:
            check_ingress(battle, cmd)
        except PlanError as e:
            return str(e)
        return None

    # (which units have a legal spot is found lazily: the spot itself only for the unit chosen;
    # what was found and checked then is read again for its spots, not worked out again)
    seen = Searches()
    spots = []
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or not W.in_reserves(u):
            continue
        if not allowed(battle, RECORD, player, u, SG.END_OF_PHASE):
            continue
        if can_ingress(battle, u, player, check=problem, seen=seen):
            spots.append(unit.id)
    if not spots:
        return False
    answer = yield from choose(
        battle, RECORD, player, f"{NAME}: end of the opponent's Movement phase", spots,
        f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP)? which unit in strategic reserves arrives now?")
    if answer == DECLINE:
        return False
    # the legal spots in Part A ruling 27's order; its default (default_ingress) is the first
    legal = ingress_spots(battle, battle.units[answer], player, check=problem, seen=seen)
    cmd = legal[0][1] if legal else None
    pay(battle, RECORD, player, answer, "an ingress move at the end of the opponent's Movement phase")
    places = {f"{x:g}, {y:g}": c for (x, y), c in legal}
    if len(places) > 1:  # the player picks where it arrives; the default is ruling 27's spot
        default = next(k for k, c in places.items() if c == cmd)
        where = yield from ask(battle, DecisionRequest(
            "arrival", f"{NAME}: {answer}", player, list(places), default,
            prompt=f"where does {answer} arrive (20.04: its formation centred at one of these points)?",
            context={"stratagem": NAME, "target": answer}))
        cmd = places[where]
    apply_ingress(battle, cmd.unit, cmd.to, cmd.face)
    return True


RECORD = StratagemRecord(
    NAME, "15.07", 1, SG.OPPONENT, Phase.MOVEMENT, SG.END_OF_PHASE,
    "A unit waiting in strategic reserves arrives now with an ingress move; never in the first round.",
    "a friendly unit in strategic reserves, not AIRCRAFT", _offer,
    needs=(IN_RESERVES,), keywords_none=("AIRCRAFT",), not_in_rounds=(1,))

"""12.06 Overrun fights: which fight type a unit selected to fight may take, and the check of
an Overrun command (the unit, then its one additional pile-in move, 12.03).

A unit selected to fight makes a normal fight (12.05) if it is engaged, or an overrun fight if
it is unengaged, or was unengaged at the start of the Fight step and became engaged during the
Fight phase; either way it must be eligible to fight (12.04, and the 12.06 FAQ)."""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.errors import PlanError
from sim.phases.fight_order import fight_eligible
from sim.plan import moves as MV
from sim.plan.common import find_unit, not_there
from sim.plan.fight import check_fights_first
from sim.world import queries as W

NORMAL, OVERRUN = "normal", "overrun"


def fight_types(battle, ent: int) -> tuple[str, ...]:
    """12.05 / 12.06 The fight types a unit eligible to fight may be selected with now: normal
    while it is engaged; overrun while it is unengaged, or engaged now but not at the start of
    the Fight step (it became engaged during the phase). (In free play, with no Fight step,
    only normal.)"""
    ts = battle.turn_state
    engaged = W.unit_engaged(ent)
    if ts is None:
        return (NORMAL,)
    out = (NORMAL,) if engaged else ()
    if not engaged or ent not in ts.engaged_at_fight_step:
        out += (OVERRUN,)
    return out


def check_overrun(battle, cmd) -> None:
    """12.06 Select a unit for an overrun fight: a battle with a mission, a unit not yet
    selected to fight and eligible to fight (12.04: engaged now or at the start of the Fight
    step, or charged), after any waiting Fights First units (12.04 step 1), of a kind that may
    overrun (``fight_types``); its pile-in move, if it makes one, as 12.03 says (targets: every
    engaged enemy unit, else the enemy units within 5"; at most 3"; it must end engaged)."""
    ts = battle.turn_state
    if ts is None:
        raise PlanError("an overrun fight is a fight type of the Fight step of a battle with a mission (12.06)")
    ent = find_unit(battle, cmd.unit)
    if W.unit_destroyed(ent):
        raise PlanError(f"unit {not_there(ent, cmd.unit)}")
    if W.unit_state(ent).selected_to_fight:
        raise PlanError(f"unit {cmd.unit} was already selected to fight this phase (12.04)")
    owner = esper.component_for_entity(ent, Unit).owner
    if ent not in fight_eligible(battle, owner):
        raise PlanError(f"unit {cmd.unit} is not eligible to fight: not engaged (now or at the start of the "
                        f"Fight step) and did not charge; an overrun fight needs a unit eligible to fight "
                        f"(12.04, 12.06)")
    check_fights_first(ent)
    if OVERRUN not in fight_types(battle, ent):
        raise PlanError(f"unit {cmd.unit} was engaged at the start of the Fight step and still is: it makes "
                        f"a normal fight, not an overrun fight (12.05, 12.06)")
    if cmd.to:
        MV.check_pile_in(battle, ent, cmd)
    elif cmd.via:
        raise PlanError("turning points given for a pile-in move that moves no model (12.06)")

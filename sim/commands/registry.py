"""The command registry: every command record, and what the battle, the replay log, the report
and the players ask of a command through it (its JSON form, whether it is accepted now)."""

from __future__ import annotations

from typing import Any, Callable

import esper

from sim.commands.base import CommandRecord
from sim.commands.charge import CHARGE_MOVE, DECLARE_CHARGE
from sim.commands.close_in import CONSOLIDATE, PILE_IN
from sim.commands.deploy import DECLARE_FORMATIONS, DEPLOY, SCOUT_MOVE
from sim.commands.disembark import DISEMBARK
from sim.commands.fight import FIGHT, OVERRUN_FIGHT
from sim.commands.flow import END_PHASE, END_TURN, START_BATTLE
from sim.commands.ingress import INGRESS
from sim.commands.move import MOVE, SELECT_TO_MOVE
from sim.commands.shoot import SHOOT
from sim.components import Unit
from sim.errors import PlanError
from sim.phases.gates import PLAYER, where
from sim.rules.turn import PHASE_NAMES

RECORDS: tuple[CommandRecord, ...] = (
    SHOOT, FIGHT, MOVE, END_TURN, START_BATTLE, END_PHASE, SELECT_TO_MOVE, DECLARE_CHARGE, CHARGE_MOVE,
    PILE_IN, CONSOLIDATE, INGRESS, OVERRUN_FIGHT, DECLARE_FORMATIONS, DEPLOY, SCOUT_MOVE, DISEMBARK)
"""Every command kind, in the order the README lists them."""

BY_KIND: dict[str, CommandRecord] = {r.kind: r for r in RECORDS}
for _r in RECORDS:  # each command's class knows its record, so dispatch is one attribute read
    _r.cls.record = _r
    _r.cls.kind = _r.kind
KINDS: tuple[str, ...] = tuple(BY_KIND)


def record_of(cmd) -> CommandRecord:
    return cmd.record


def to_dict(cmd) -> dict:
    """The command's JSON form (fields holding their default left out where the record says),
    as the replay log stores it and a script's ``command`` step reads it."""
    return cmd.record.to_dict(cmd)


def shape_problem(d: Any, kind_of: Callable[[Any], str]) -> str | None:
    """Why the JSON value ``d`` is not a command's JSON form, or None (then ``from_dict``
    cannot fail). ``kind_of`` describes a value for the message ("a string 'x'")."""
    if not isinstance(d, dict):
        return f"expected a command (an object), found {kind_of(d)}"
    record = BY_KIND.get(d.get("kind")) if isinstance(d.get("kind"), str) else None
    if record is None:
        return f"expected a command kind ({', '.join(KINDS)}), found {kind_of(d.get('kind'))}"
    return record.shape_problem(d, kind_of)


def from_dict(d: dict):
    """The command of a JSON form; ValueError naming the problem if it is not one."""
    problem = shape_problem(d, lambda v: f"{type(v).__name__} {v!r}"[:80])
    if problem:
        raise ValueError(problem)
    return BY_KIND[d["kind"]].from_dict(d)


def describe(c: dict) -> str | None:
    """The battle report's line for a command (its JSON form), or None when its events say it."""
    record = BY_KIND.get(c.get("kind"))
    return None if record is None else record.describe(c)


# --- the door -------------------------------------------------------------------------------

def owner_of(battle, cmd) -> int | None:
    """The army of the unit a command names (None: it names none, or no such unit)."""
    uid = getattr(cmd, "unit", None)
    ent = battle.units.get(uid) if uid is not None else None
    return None if ent is None else esper.component_for_entity(ent, Unit).owner


def phase_refusal(ts, record: CommandRecord, owner: int | None) -> str | None:
    """07.02 Why a command of ``record``'s kind for a unit of army ``owner`` is not accepted now,
    or None. ``ts`` is the battle's TurnState (None in free play: everything is accepted)."""
    if ts is None:
        return None
    if record.opens_battle:
        return None if ts.round == 0 and ts.pre_battle is None else "the battle has already started (07)"
    if ts.round == 0:
        if ts.pre_battle is None:
            return "the battle has not started yet: start it first (07)"
        if ts.pre_battle not in record.pre_battle:
            steps = ", ".join(str(s) for s in record.pre_battle)
            return (f"a {record.kind} command is not accepted before the battle"
                    + (f" except in the {steps} step" if steps else "") + f" (26); now: {where(ts)}")
        if owner is not None and owner != ts.chooser:
            return f"it is {PLAYER[ts.chooser]}'s turn in the {ts.pre_battle} step (26); the unit is {PLAYER[owner]}'s"
        return None
    if not record.in_rounds:
        return f"a {record.kind} command is accepted only before the battle, in the {record.pre_battle[0]} step (26)"
    if ts.over:
        return f"the battle is over after round {ts.round} (26 step 13)"
    if not record.mission:
        return f"{record.in_mission}; now: {where(ts)}"
    if record.phase is None:
        return None
    phase, step, section = record.phase, record.step, record.section
    if ts.phase != phase or (step is not None and ts.step != step):
        place = PHASE_NAMES[phase] + (f", {step} step" if step is not None else "")
        return f"a {record.kind} command is accepted only in the {place} ({section}); now: {where(ts)}"
    if owner is not None and owner != ts.chooser:
        if step is None:
            return (f"only {PLAYER[ts.active]}, whose turn it is, acts in the {PHASE_NAMES[phase]} "
                    f"({section}); the unit is {PLAYER[owner]}'s")
        return (f"it is {PLAYER[ts.chooser]}'s choice in the {step} step ({section}); "
                f"the unit is {PLAYER[owner]}'s")
    return None


def _uid(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


def validate(battle, cmd) -> str | None:
    """The reason ``cmd`` is not accepted now, or None: in free play, whether its kind is
    played there; in a battle with a mission, the Fight step's forced picks (12.06 an overrun
    fight's own fight, 12.08 units engaged by a consolidation, 15.12 a Counteroffensive's
    unit), then the phase gate (07.02); then the command's own check. A valid Shoot or Fight
    leaves its plan in ``battle.validated`` (sim.plan.validated.ValidatedPlan)."""
    record = cmd.record
    battle.validated = None
    ts = battle.turn_state
    if ts is None and not record.free_play:
        return f"a {record.kind} command needs a battle with a mission (07); this one is free play"
    if ts is not None and ts.overrun is not None:
        unit = _uid(ts.overrun)
        if not (record.fights and cmd.unit == unit):
            return (f"{unit} was selected for an overrun fight and has made its pile-in move: its fight "
                    f"comes next (12.06)")
    elif ts is not None and ts.pending_fights:
        first = _uid(ts.pending_fights[0])
        if not (record.selects_to_fight and cmd.unit == first):
            return f"{first} was engaged by a consolidation and must be selected to fight first (12.08)"
    elif ts is not None:
        problem = phase_refusal(ts, record, owner_of(battle, cmd))
        if problem:
            return problem
        if record.selects_to_fight and ts.forced_pick is not None and battle.units.get(cmd.unit) != ts.forced_pick:
            return f"{_uid(ts.forced_pick)} was the target of a Counteroffensive and must be picked next (15.12)"
    try:
        record.check(battle, cmd)
    except PlanError as e:
        return str(e)
    return None

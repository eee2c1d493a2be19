"""Validation of the whole-battle commands (07-12): selecting a unit to move, charges, pile-in
and consolidation moves, ending a phase. Each refusal names the rule. The geometry of a move
(distance, bases, board edge, terrain, engagement, coherency) is sim.plan.moves."""

from __future__ import annotations

import math

import esper

from sim.commands import ChargeMove, Consolidate, DeclareCharge, EndPhase, PileIn, SelectToMove
from sim.components import Unit
from sim.errors import PlanError
from sim.plan.common import oversized_refusal
from sim.phases.fight_order import fight_eligible, was_eligible_to_fight
from sim.phases.state import FightStep, Phase
from sim.plan import moves as MV
from sim.plan.common import find_unit, not_there
from sim.world import queries as W

SELECT_MODES = ("stationary", "normal", "advance", "fall back", "desperate escape")
CHARGE_RANGE = 12.0  # 11.02 "within 12 inches"
PASS_RANGE = 5.0  # 12.04.01


def owner_of(battle, cmd) -> int | None:
    uid = getattr(cmd, "unit", None)
    ent = battle.units.get(uid) if uid is not None else None
    return None if ent is None else esper.component_for_entity(ent, Unit).owner


def _live_unit(battle, uid: str) -> int:
    ent = find_unit(battle, uid)
    if W.unit_destroyed(ent):
        raise PlanError(f"unit {not_there(ent, uid)}")
    return ent


def one_at_a_time(battle, ent: int, section: str) -> None:
    """09.02 / 11.02 Units are selected and resolved one at a time: while another unit's move
    or charge is open (selected, or declared, and not yet made), no other unit may start."""
    ts = battle.turn_state
    if ts is None or ts.in_progress is None or ts.in_progress == ent:
        return
    other = esper.component_for_entity(ts.in_progress, Unit).id
    st = W.unit_state(ts.in_progress)
    what = f"charge (roll {st.charge_roll}\")" if st.charge_roll is not None else f"{st.move_selected} move"
    raise PlanError(f"{other}'s {what} must be made first: units are resolved one at a time ({section})")


def check_select(battle, cmd: SelectToMove) -> None:
    """09.02 Select a unit to move, with a move type it is eligible for: remain stationary
    (09.04) any unit; normal (09.05) and advance (09.06) an unengaged unit; fall back (09.07)
    an engaged unit, Ordered Retreat only if not battle-shocked (desperate escape is the
    other mode). A unit is selected once per phase."""
    if cmd.mode not in SELECT_MODES:
        raise PlanError(f"unknown move type {cmd.mode!r} (expected {', '.join(SELECT_MODES)}) (09.02)")
    ent = _live_unit(battle, cmd.unit)
    one_at_a_time(battle, ent, "09.02")
    if cmd.mode != "stationary":
        oversized_refusal(ent, f"make a {'fall back' if cmd.mode == 'desperate escape' else cmd.mode} move")
    st = W.unit_state(ent)
    if st.move_selected is not None or st.move_type is not None:
        raise PlanError(f"{cmd.unit} was already selected to move this phase "
                        f"({st.move_selected or st.move_type}) (09.02)")
    engaged = W.unit_engaged(ent)
    if cmd.mode in ("normal", "advance") and engaged:
        raise PlanError(f"{cmd.unit} is engaged and cannot make a {cmd.mode} move (09.05/09.06)")
    if cmd.mode in ("fall back", "desperate escape") and not engaged:
        raise PlanError(f"{cmd.unit} is not engaged: a fall-back move needs an engaged unit (09.07)")
    if cmd.mode == "fall back" and st.battle_shocked:
        raise PlanError(f"{cmd.unit} is battle-shocked: it may fall back only by Desperate Escape (09.07, 01.07)")


def check_ingress(battle, cmd) -> None:
    """20.03/20.04 An ingress move: a unit in strategic reserves, from battle round 2, set up
    with every model wholly within 6" of a battlefield edge, more than 8" from every enemy
    model, outside the enemy's deployment zone before round 3, and as any set-up (03.02): on
    no other base, in no light or dense feature, in coherency."""
    from sim.rules.deployment import setup_problems
    from sim.rules.geometry import footprint
    from sim.rules.reserves import ingress_problems
    ent = find_unit(battle, cmd.unit)
    if not W.in_reserves(ent):
        raise PlanError(f"{cmd.unit} is not in strategic reserves (20.04)")
    one_at_a_time(battle, ent, "09.02")
    ts = battle.turn_state
    models = esper.component_for_entity(ent, Unit).models
    ids = [W.model_id(m) for m in models]
    given = [t[0] for t in cmd.to]
    if sorted(given) != sorted(ids):
        raise PlanError(f"an ingress move sets up every model of {cmd.unit} once ({', '.join(ids)}) (20.04)")
    fps = []
    for mid, x, y in cmd.to:
        if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > MV.FAR or abs(y) > MV.FAR:
            raise PlanError(f"{mid} would be set up off the battlefield, at ({x:g}, {y:g}) (03.02)")
        m = battle.models[mid]
        b = W.footprint(m)
        fps.append((mid, footprint(b.shape, x, y, b.length, b.width, b.angle)))
    owner = esper.component_for_entity(ent, Unit).owner
    enemies = [(W.model_id(m), W.footprint(m)) for u in W.enemy_units(ent) for m in W.unit_models(u)]
    zone = ts.mission.zones[1 - owner] if ts is not None and ts.mission.zones else None
    problems = ingress_problems([f for _m, f in fps], battle.scenario.board, [f for _m, f in enemies],
                                ts.round if ts is not None else 2, zone, names=[m for m, _f in fps],
                                enemy_names=[m for m, _f in enemies])
    others = [(W.model_id(m), W.footprint(m)) for u in W.all_units() if u != ent for m in W.unit_models(u)]
    problems += setup_problems(fps, others, battle.scenario.terrain)
    if problems:
        raise PlanError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


def check_declare_charge(battle, cmd: DeclareCharge) -> None:
    """11.02 step 1: a unit may declare a charge unless it has already declared one this phase,
    no enemy unit is within 12", it is engaged, or it advanced or fell back this turn."""
    ent = _live_unit(battle, cmd.unit)
    one_at_a_time(battle, ent, "11.02")
    oversized_refusal(ent, "declare a charge or make a charge move")
    st = W.unit_state(ent)
    if st.charge_roll is not None:
        raise PlanError(f"{cmd.unit} has already declared a charge this phase (11.02)")
    if st.advanced or st.fell_back:
        raise PlanError(f"{cmd.unit} {'advanced' if st.advanced else 'fell back'} this turn and "
                        f"cannot declare a charge (11.02, 09.06/09.07)")
    if W.unit_engaged(ent):
        raise PlanError(f"{cmd.unit} is engaged and cannot declare a charge (11.02)")
    near = MV.unit_gap(ent, W.enemy_units(ent))
    if near is None or near > CHARGE_RANGE + 1e-9:
        raise PlanError(f"{cmd.unit} has no enemy unit within 12\" (nearest "
                        f"{'none' if near is None else f'{near:.2f}'}\") and cannot declare a charge (11.02)")


def check_charge_move(battle, cmd: ChargeMove) -> None:
    """11.02 step 3 / 11.04: after the roll, targets within 12" and within the roll (edge to
    edge, before moving; ruling 17), then the move and its conditions (sim.plan.moves)."""
    ent = _live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.charge_roll is None:
        raise PlanError(f"{cmd.unit} has not declared a charge (11.02: declare and roll first)")
    if st.charge_resolved:
        raise PlanError(f"{cmd.unit}'s charge has already been resolved this phase (11.02)")
    MV.check_sky(ent, cmd.fly, "charge")
    if not cmd.targets:
        if cmd.to:
            raise PlanError("a charge with no targets moves no model (11.02 step 3)")
        return
    enemies = {esper.component_for_entity(u, Unit).id: u for u in W.enemy_units(ent)}
    if len(set(cmd.targets)) != len(cmd.targets):
        raise PlanError("a charge target is named twice (11.04)")
    reach = MV.charge_limit(ent, st.charge_roll, cmd.fly)
    for t in cmd.targets:
        u = enemies.get(t)
        if u is None or W.unit_destroyed(u):
            raise PlanError(f"{t!r} is not an enemy unit on the battlefield (11.04)")
        gap = MV.unit_gap(ent, [u])
        limit = min(CHARGE_RANGE, reach)
        if gap is None or gap > limit + 1e-9:
            sky = f", {reach:g}\" taking to the skies (21.03)" if cmd.fly else ""
            raise PlanError(f"{t} is {gap:.2f}\" away: a charge target must be within 12\" and within "
                            f"the charge roll of {st.charge_roll}\"{sky} (11.04)")
    MV.check_charge(battle, ent, cmd, st.charge_roll)


def check_pile_in(battle, cmd: PileIn) -> None:
    """12.02/12.03 One pile-in move per unit: it must be engaged or have charged this turn."""
    ent = _live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.piled_in:
        raise PlanError(f"{cmd.unit} has already piled in this phase (12.02)")
    if not (W.unit_engaged(ent) or st.charged):
        raise PlanError(f"{cmd.unit} is neither engaged nor charged this turn and cannot pile in (12.03)")
    MV.check_pile_in(battle, ent, cmd)


def check_consolidate(battle, cmd: Consolidate) -> None:
    """12.07/12.08 One consolidation move per unit that was eligible to fight this phase."""
    ent = _live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.consolidated:
        raise PlanError(f"{cmd.unit} has already consolidated this phase (12.07)")
    if not was_eligible_to_fight(battle, ent):
        raise PlanError(f"{cmd.unit} was not eligible to fight this phase and cannot consolidate (12.08)")
    MV.check_consolidate(battle, ent, cmd)


def check_end_phase(battle, cmd: EndPhase) -> None:
    """07.02 Ending a phase or a part of the Fight phase. In the Fight step it is a pass
    (12.04.01): allowed only when every eligible unit of the player is more than 5" from
    every enemy unit; every other eligible unit must fight."""
    ts = battle.turn_state
    if ts.phase == Phase.FIGHT and ts.step == FightStep.FIGHT:
        for u in fight_eligible(battle, ts.chooser):
            gap = MV.unit_gap(u, W.enemy_units(u))
            if gap is not None and gap <= PASS_RANGE + 1e-9:
                uid = esper.component_for_entity(u, Unit).id
                raise PlanError(f"{uid} is eligible to fight and within 5\" of an enemy ({gap:.2f}\"): "
                                f"it must be selected to fight before the player may pass (12.04, 12.04.01)")

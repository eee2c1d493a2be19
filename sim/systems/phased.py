"""The whole-battle commands, applied (validated already: sim.plan.phased, sim.plan.overrun):
starting the battle and ending phases (sim.phases.flow), selecting a unit to move (advance roll
and Desperate Escape hazard rolls before any model moves), charges, pile-in and consolidation,
and selecting a unit to fight (a normal fight, or an overrun fight with its extra pile-in,
12.06), with the stratagems offered on the way (sim.systems.stratagems, more_stratagems)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.commands import (ChargeMove, Consolidate, DeclareCharge, EndPhase, Fight, Ingress, Overrun, PileIn,
                          SelectToMove, StartBattle)
from sim.components import Activation, Stage, Unit
from sim.systems import battle_round as flow
from sim.rules.mortal import hazard_failed, hazard_failures, hazard_mortal_wounds
from sim.rules.turn import PLAYER, FightStep
from sim.plan import moves as MV
from sim.systems import more_stratagems
from sim.systems import command_reroll as CR
from sim.systems import stratagems as ST
from sim.systems.placing import apply_ingress, apply_positions
from sim.systems.removal import remove_casualties
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.world import queries as W


def start(battle, cmd) -> None:
    """Carry out a whole-battle command. Those that may ask a decision on the way (a
    stratagem offered after a roll, sim.systems.stratagems) are generators: they run until
    they wait for an answer (Battle.action), and CommandSystem resumes them once it is in."""
    battle.action = apply(battle, cmd)
    resume(battle)


def resume(battle) -> None:
    try:
        next(battle.action)
    except StopIteration:
        battle.action = None


def apply(battle, cmd):
    if isinstance(cmd, StartBattle):
        yield from flow.start_battle(battle)
    elif isinstance(cmd, EndPhase):
        yield from flow.end_phase(battle)
    elif isinstance(cmd, SelectToMove):
        yield from _select(battle, cmd)
    elif isinstance(cmd, DeclareCharge):
        yield from _declare_charge(battle, cmd)
    elif isinstance(cmd, Ingress):
        apply_ingress(battle, cmd)
    elif isinstance(cmd, ChargeMove):
        yield from _charge_move(battle, cmd)
    elif isinstance(cmd, Overrun):
        yield from _overrun(battle, cmd)
    elif isinstance(cmd, Fight):
        yield from _fight(battle, cmd)
    elif isinstance(cmd, PileIn):
        _place(battle, cmd, "pile in", ev.PILED_IN)
        W.unit_state(battle.units[cmd.unit]).piled_in = True
    elif isinstance(cmd, Consolidate):
        _place(battle, cmd, "consolidate", ev.CONSOLIDATED)
        W.unit_state(battle.units[cmd.unit]).consolidated = True
        _engaged_by_consolidation(battle, battle.units[cmd.unit])


def _owner(ent: int) -> int:
    return esper.component_for_entity(ent, Unit).owner


def _select(battle, cmd: SelectToMove):
    """09.02 The unit is selected with its move type. 09.06: the advance roll is made now,
    before any model moves. 09.07 Desperate Escape: one hazard roll per model, before any
    model moves; models they destroy are removed at once (RULES §20). A Command Re-roll (15.02)
    may follow either roll (of the hazard rolls, one failed die)."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    st.move_selected = cmd.mode
    if battle.turn_state is not None and cmd.mode != "stationary":
        battle.turn_state.in_progress = ent  # (until its move is made, 09.02)
    fields = {}
    if cmd.mode == "advance":
        (st.advance_roll,) = battle.dice.d6(1, f"advance roll {cmd.unit}")
        if (yield from ST.offer(battle, "Command Re-roll", _owner(ent), cmd.unit, roll="advance",
                                battle_shocked=st.battle_shocked, about=f"advance roll {st.advance_roll}")):
            (st.advance_roll,) = battle.dice.d6(1, f"advance roll {cmd.unit} (Command Re-roll)")
        fields["advance_roll"] = st.advance_roll
    elif cmd.mode == "stationary":
        st.move_type = "stationary"
    battle.emit(ev.SELECTED_TO_MOVE, unit=cmd.unit, mode=cmd.mode, **fields)
    if cmd.mode == "desperate escape":
        n = len(W.unit_models(ent))
        purpose = f"desperate escape hazard rolls {cmd.unit}"
        rolls = list(battle.dice.d6(n, purpose))
        rr = None
        if CR.may_offer(battle, _owner(ent), ent):  # 15.02 a failed hazard roll may be re-rolled
            rr = yield from CR.reroll_gen(battle, _owner(ent), ent, "hazard", rolls, hazard_failed(rolls),
                                          lambda i: battle.dice.d6(1, f"{purpose} (Command Re-roll)")[0])
        fails = hazard_failures(rolls)
        mw = hazard_mortal_wounds(fails, W.every_model_monster_or_vehicle(ent))
        extra = {} if rr is None else {"command_reroll": rr}
        battle.emit(ev.HAZARD, unit=cmd.unit, rolls=rolls, failures=fails, mortal_wounds=mw,
                    note="Desperate Escape (09.07)", **extra)
        if mw:
            suffer_mortal_wounds(battle, ent, mw, source="desperate escape", by=cmd.unit)
            remove_casualties(battle)  # (at once, after their Deadly Demise rolls)


def _declare_charge(battle, cmd: DeclareCharge):
    """11.02 steps 1-2: declared; the charge roll (2D6) is its maximum distance."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    dice = battle.dice.d6(2, f"charge roll {cmd.unit}")
    st.charge_roll = sum(dice)
    if battle.turn_state is not None:
        battle.turn_state.in_progress = ent  # (until its charge move is made or given up, 11.02)
    # ruling 25: the default policy re-rolls a failed charge roll (one that reaches no enemy
    # unit) when the CP and the 15.01 limits allow
    near = MV.unit_gap(ent, W.enemy_units(ent))
    failed = near is None or st.charge_roll < near
    if (yield from ST.offer(battle, "Command Re-roll", _owner(ent), cmd.unit, roll="charge",
                            roll_failed=failed, battle_shocked=st.battle_shocked,
                            about=f"charge roll {st.charge_roll}")):
        st.charge_roll = sum(battle.dice.d6(2, f"charge roll {cmd.unit} (Command Re-roll)"))
    battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, result="declared")


def _charge_move(battle, cmd: ChargeMove):
    """11.02 step 3 / 11.04: the move (validated), then Fights First until the end of the turn
    and 'made a charge move this turn'; no targets: nothing moves. Just after a MONSTER or
    VEHICLE unit's charge move, Crushing Impact (15.06) is offered."""
    ent = battle.units[cmd.unit]
    st = W.unit_state(ent)
    st.charge_resolved = True
    if battle.turn_state is not None:
        battle.turn_state.in_progress = None
    if not cmd.targets:
        battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, targets=[], result="not made")
        return
    final = apply_positions(battle, ent, cmd.to)
    st.charged = True
    sky = {"fly": True} if cmd.fly else {}  # (21.03 taking to the skies)
    battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, targets=list(cmd.targets),
                result="made", to=final, **sky)
    yield from more_stratagems.crushing_impact(battle, ent)


def start_fight(battle, cmd: Fight) -> None:
    """12.04 The unit is selected to fight: its activation begins (weapons and targets next)."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    W.unit_state(ent).selected_to_fight = True
    battle.activation = Activation("fight", cmd, Stage.WEAPONS)
    esper.add_component(ent, battle.activation)
    battle.activation_unit = ent


def _fight(battle, cmd: Fight):
    """12.04 / 12.05 In a battle with a mission: the unit is selected to fight (a normal fight;
    or the fight of an overrun fight, selected already, 12.06), Epic Challenge (15.03) is
    offered just after a selection, then its activation begins. A stratagem used after the
    command was validated changes its weapons: the plan is made again."""
    ent = battle.units[cmd.unit]
    ts = battle.turn_state
    if ts.overrun == ent:
        ts.overrun = None  # (its selection, and the offer, came with the Overrun command)
    else:
        W.unit_state(ent).selected_to_fight = True
        if (yield from more_stratagems.epic_challenge(battle, ent)):
            battle.validated = None  # (WeaponSelectionSystem plans it again, with the gain)
    start_fight(battle, cmd)


def _overrun(battle, cmd: Overrun):
    """12.06 The unit is selected to fight with the overrun fight type: Epic Challenge (15.03)
    may follow the selection; then its one additional pile-in move (12.03), if it makes one;
    its fight is the next command (TurnState.overrun). Enemy units it engages become eligible
    to fight (engaged now, 12.04)."""
    ent = battle.units[cmd.unit]
    ts = battle.turn_state
    battle.changes.touched(ent)
    W.unit_state(ent).selected_to_fight = True
    ts.overrun = ent
    battle.emit(ev.OVERRUN, unit=cmd.unit, rule="12.06")
    yield from more_stratagems.epic_challenge(battle, ent)
    if cmd.to:
        final = apply_positions(battle, ent, cmd.to)
        battle.emit(ev.PILED_IN, unit=cmd.unit, to=final, note="overrun fight (12.06)")


def _engaged_by_consolidation(battle, ent: int) -> None:
    """12.08 (and its 2026 errata for ongoing consolidation): each engaged enemy unit that has
    not yet been selected to fight this phase is selected to fight by its player, one at a
    time, before the Consolidate step goes on (TurnState.pending_fights)."""
    ts = battle.turn_state
    if ts is None:
        return
    new = [u for u in W.engaged_with(ent) if not W.unit_state(u).selected_to_fight
           and u not in ts.pending_fights]
    if not new:
        return
    if not ts.pending_fights:
        ts.resume_chooser = ts.chooser
    ts.pending_fights.extend(new)
    ts.chooser = _owner(ts.pending_fights[0])
    battle.emit(ev.STEP, step=str(FightStep.FIGHT), player=PLAYER[ts.chooser],
                units=[esper.component_for_entity(u, Unit).id for u in new], rule="12.08")


def _place(battle, cmd, mode: str, event: str) -> None:
    ent = battle.units[cmd.unit]
    final = apply_positions(battle, ent, cmd.to)
    battle.emit(event, unit=cmd.unit, to=final)

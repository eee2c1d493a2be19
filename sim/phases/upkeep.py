"""The automatic parts of a turn (no player choice): the Command phase (08), units that
remained stationary (09.02.01), unmade charges (11.02), coherency removals (03.03) and the
per-turn bookkeeping that resets when a turn ends."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.decisions import DecisionRequest, ask
from sim.components import Stats, Unit, Wounds
from sim.rules.turn import PLAYER
from sim.rules import command as CMD
from sim.rules import stratagems as SG
from sim.rules.coherency import coherency_removals as removals
from sim.rules.stratagems import Moment
from sim.world import mutations as M
from sim.world import resources as R
from sim.world import queries as W
from sim.world import state_hash as SH
from sim.world import rule_effects as RX
from sim.systems import rule_effects
from sim.world import rule_reads
from sim.rules.effects import phase_rules as PR
from sim.rules.reserves import destroyed_at_end_of_round
from sim.rules.effects import dice_pool as DPR
from sim.systems import dice_pools


def _units_of(player: int) -> list[int]:
    return [u for u in W.all_units()
            if esper.component_for_entity(u, Unit).owner == player and not W.unit_destroyed(u)]


def _name(u: int) -> str:
    return esper.component_for_entity(u, Unit).id


def strength(battle, u: int) -> str:
    """01.02.01 The unit's strength against its starting strength (sim.rules.command)."""
    models = W.unit_models(u)
    start = battle.turn_state.starting_strength.get(u, len(models))
    if start == 1 and models:
        m = models[0]
        return CMD.half_strength(1, 1, single_model_W=esper.component_for_entity(m, Stats).W,
                                 wounds_left=esper.component_for_entity(m, Wounds).remaining)
    return CMD.half_strength(start, len(models))


def command_phase(battle, forced_step=None):
    """08.02 both players gain 1 CP; 08.03 the active player's battle-shock rolls, for each of
    their units that is battle-shocked or at or below half-strength, in army order. ``forced_step``
    (sim.phases.forced_shock.in_step, passed by the battle round so that this module does not
    import it): the test a rule forces on a unit in its Battle-shock step, as its one roll
    (08.03.01), as a generator, or None."""
    ts = battle.turn_state
    for p in (0, 1):
        ts.cp[p] += CMD.CORE_CP
    battle.emit(ev.CP, gained=CMD.CORE_CP, cp={PLAYER[p]: ts.cp[p] for p in (0, 1)}, source="08.02 core CP")
    for u in _units_of(ts.active):
        st = W.unit_state(u)
        state = strength(battle, u)
        forced = forced_step(battle, u, state) if forced_step is not None and RX.any_rules() else None
        if not CMD.needs_battle_shock_roll(st.battle_shocked, state) and forced is None:
            continue
        moment = Moment(SG.BEFORE_BATTLE_SHOCK_ROLL, player=ts.active, unit=u, info={"strength": state})
        yield from battle.offer(moment)
        if moment.info.get("passed"):  # (a stratagem passed it without dice: 15.04)
            continue
        if forced is not None:
            yield from forced
        elif RX.any_rules():  # (a rule may re-roll it: the player may be asked)
            yield from battle_shock_test(battle, u, True, True, fields={"strength": state})
        else:
            battle_shock_roll(battle, u, in_battle_shock_step=True, strength=state)


def battle_shock_roll(battle, u: int, *, in_battle_shock_step: bool, **fields) -> None:
    """01.07 A battle-shock roll (a Leadership roll, 01.06: 2D6 against the unit's best Ld):
    a fail makes the unit battle-shocked; a pass clears it only in its Battle-shock step (08.03,
    ruling 26). ``fields`` go into the event (its strength, a note). A rule's re-roll of it
    that the player may choose takes its default answer here (``battle_shock_test`` asks). Where
    nothing can wait (a Desperate Escape's roll, made inside the move), a decision the outcome's
    casualties ask (a transport's emergency disembark, a rule bringing a destroyed unit back)
    takes its default answer at once, logged as any decision."""
    g = battle_shock_test(battle, u, in_battle_shock_step, False, fields)
    for _ in g:
        req = battle.pending
        if req is None:
            raise RuntimeError("a battle-shock roll waited on nothing")
        battle.answer(req.default)


def battle_shock_test(battle, u: int, in_battle_shock_step: bool, asked: bool, fields: dict, forced: int = 0):
    """``battle_shock_roll`` as a generator: the rules' modifiers to the unit's Ld and to the
    roll, and their re-rolls of it (sim.systems.rule_effects and sim.world.rule_reads; ``asked``: a re-roll the player may
    choose is a decision), apply. ``forced``: the modifier a rule forcing the test gives it
    (sim.phases.forced_shock), added to the others."""
    st = W.unit_state(u)
    lds = rule_reads.leadership(battle, u)
    roller = battle.dice
    if RX.any_rules():  # a pool's die may stand for one of the two (sim.systems.dice_pools)
        need = min(lds) - PR.modifier([a.grant.what for a in rule_reads.modifying(battle, u, "battle-shock")],
                                      "battle-shock") - forced  # (a forcing rule's modifier too:)
        roller = dice_pools.dice_for(battle, (yield from dice_pools.substitute(
            battle, u, "battle-shock", DPR.two_dice_chance(need), asked)), f"battle-shock roll {_name(u)}")
    dice = roller.d6(2, f"battle-shock roll {_name(u)}")
    mod = rule_effects.roll_modifier(battle, u, "battle-shock") if RX.any_rules() else 0
    mod += forced
    passed = PR.battle_shock_passes(sum(dice), mod, lds)
    if RX.any_rules():
        new = yield from rule_effects.reroll(battle, u, "battle-shock", list(dice), not passed, asked)
        if new is not None:
            dice = new
            passed = PR.battle_shock_passes(sum(dice), mod, lds)
    st.battle_shocked = CMD.battle_shock_after_roll(st.battle_shocked, passed, in_battle_shock_step)
    battle.changes.touched(u)
    battle.emit(ev.BATTLE_SHOCK, unit=_name(u), roll=sum(dice) + mod, needed=min(lds), passed=passed,
                battle_shocked=st.battle_shocked, **fields)
    # a rule's effect on the test's outcome (wounds back on a pass, mortal wounds on a fail)
    if RX.any_rules() and rule_effects.after_battle_shock(battle, u, passed):
        from sim.systems.removal import remove_casualties
        yield from remove_casualties(battle)


def remained_stationary(battle) -> None:
    """09.02.01 Units the active player never selected in the Move Units step remained
    stationary."""
    ts = battle.turn_state
    still = []
    ts.in_progress = None
    for u in _units_of(ts.active):
        st = W.unit_state(u)
        if st.move_selected in ("advance", "fall back", "desperate escape") and st.move_type is None:
            # 09.02 selected for a move type and never moved: it made that move, of 0"
            st.move_type = "advance" if st.move_selected == "advance" else "fall back"
            st.advanced = st.move_selected == "advance"
            st.fell_back = st.move_selected != "advance"
            battle.changes.touched(u)
            battle.emit(ev.MOVED, unit=_name(u), mode=st.move_type, to=[], advance_roll=st.advance_roll,
                        distance=0.0, note="selected and not moved: a move of 0\" (09.02)")
            if st.move_selected == "desperate escape":
                after_desperate_escape(battle, u, _name(u))
            continue
        if st.move_selected is None and st.move_type is None:
            st.move_selected = "stationary"
            battle.changes.touched(u)
            still.append(_name(u))
    if still:
        battle.emit(ev.STATIONARY, player=PLAYER[ts.active], units=still, rule="09.02.01")


def after_desperate_escape(battle, ent: int, uid: str) -> None:
    """09.07 After a Desperate Escape, a unit that is not battle-shocked makes a battle-shock
    roll (01.07)."""
    if W.unit_state(ent).battle_shocked or W.unit_destroyed(ent):
        return
    battle_shock_roll(battle, ent, in_battle_shock_step=False, note="after a Desperate Escape (09.07)")


def unmade_charges(battle) -> None:
    """11.02 step 3: a declared charge whose move was not made ends with nothing moved."""
    for u in _units_of(battle.turn_state.active):
        st = W.unit_state(u)
        if st.charge_roll is not None and not st.charge_resolved:
            st.charge_resolved = True
            battle.emit(ev.CHARGE, unit=_name(u), roll=st.charge_roll, targets=[], result="not made")


def coherency_removals(battle):
    """03.03 End of Turn: a unit out of coherency loses models, one at a time, until it is
    coherent; its player chooses which (a decision; the default is Part A ruling 29's order);
    destroyed, with no 'when destroyed' rules. (A generator: it may wait for the answer.)"""
    sp = R.current.spatial
    table = sp.fps  # (the models' footprints, kept current by every move)
    for p in (0, 1):
        for u in _units_of(p):
            lv = W.living(u)
            if len(lv.slots) < 2:
                continue
            rows = tuple(lv.rows.tolist())
            now = tuple([table[row] for row in rows])
            kept = sp.coherent.get(u)
            if kept is not None and kept[0] == rows and all(a is b for a, b in zip(kept[1], now)):
                continue    # (the same bases where they stood when it was last found coherent)
            by_id = dict(zip(lv.ids, lv.models))
            fps = sorted(zip(lv.ids, now))
            default = removals(fps)
            if not default:
                sp.coherent[u] = (rows, now)
            gone = []
            if default:
                req = DecisionRequest("coherency_removal", _name(u), p, sorted(by_id), default,
                                      prompt=f"{_name(u)} is out of coherency: which models does it lose (03.03)?",
                                      context={"models": fps})
                gone = yield from ask(battle, req)
            if gone:
                ents = [by_id[mid] for mid in gone]
                for m in ents:  # (destroyed: no longer a living model of the unit, 05.04)
                    esper.component_for_entity(m, Wounds).remaining = 0
                M.mark_destroyed(ents, "coherency (03.03)")
                M.remove_casualties(ents)
                battle.changes.touched(u)
                battle.emit(ev.COHERENCY_REMOVED, unit=_name(u), models=list(gone), rule="03.03")
                if W.unit_destroyed(u):
                    battle.emit(ev.UNIT_DESTROYED, unit=_name(u))


def roll_over_turn(battle) -> None:
    """End of a turn: per-turn bookkeeping resets (the ranged attacks of this turn become
    'last turn' for 13.09 Hidden; moves, charges and selections are forgotten: every UnitState
    field declared ``reset: turn``)."""
    changes = battle.changes
    # only the units whose state can differ from a fresh turn's: those a command touched this
    # turn and those that shot last turn (Changes.touched_units)
    for ent in changes.take_touched():
        st = W.unit_state(ent)
        # 13.09 "made ranged attacks this turn or last" changes only for a unit that shot last
        # turn and not this one
        if st.ranged_attacks_last_turn and not st.ranged_attacks_this_turn:
            changes.shot(ent)
        st.ranged_attacks_last_turn = st.ranged_attacks_this_turn  # (then this turn's resets)
        SH.reset(st, "turn")
        if st.ranged_attacks_last_turn or st.battle_shocked:
            changes.touched(ent)  # (rolls over at the next end of turn)
    battle.turn += 1
    if battle.turn_state is None:
        battle.record({"type": ev.TURN, "turn": battle.turn})
    else:
        battle.record({"type": ev.TURN, "turn": battle.turn, "phased": True})


def end_of_round(battle) -> None:
    """07.03 End of the battle round, non-mission rules: at the end of round 3 (20.03), and of
    the battle (20.01.02), every unit still in strategic reserves is destroyed, with no 'when
    destroyed' rules (and the units embarked in a transport still there: they arrive inside it,
    20.04; those embarked in one on the battlefield are not in reserves)."""
    ts = battle.turn_state
    if ts.round != 3 and ts.round < ts.mission.rounds:
        return
    sp = R.current.spatial
    held = [u for u in W.all_units() if W.in_reserves(u)
            or (W.embarked_in(u) is not None and W.in_reserves(W.embarked_in(u)))]
    # a unit a rule put back into reserves stays there at the end of round 3 (20.03)
    held = [u for u in held if destroyed_at_end_of_round(
        ts.round, repositioned=W.unit_state(W.embarked_in(u) or u).repositioned, final_round=ts.mission.rounds)]
    for u in held:
        models = esper.component_for_entity(u, Unit).models
        for m in models:
            esper.component_for_entity(m, Wounds).remaining = 0
        sp.off_table.discard(u)
        M.mark_destroyed(list(models), "not arrived from strategic reserves (20.03)")
        M.remove_casualties(list(models))
        battle.changes.touched(u)
        rule = "20.03" if ts.round == 3 else "20.01.02"
        battle.emit(ev.UNIT_DESTROYED, unit=_name(u), by=f"still in strategic reserves ({rule})")

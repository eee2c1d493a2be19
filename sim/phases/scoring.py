"""14 Objective control and 26 mission scoring, at the moments the battle round reaches them
(RULES §25-26, Part A rulings 19-21): control is settled first at every phase and turn end,
then Battlefield Dominance scores for the active player, within the caps."""

from __future__ import annotations

import numpy as np

import esper

from sim import events as ev
from sim.components import Unit
from sim.rules.turn import PLAYER
from sim.phases.state import Phase
from sim.rules import mission as MS
from sim.rules import objectives as OBJ
from sim.world import queries as W
from sim.world import rule_effects as RX
from sim.world import rule_reads
from sim.rules.effects import phase_rules as PR

_MOMENT = {Phase.COMMAND: MS.END_OF_COMMAND_PHASE, Phase.END: MS.END_OF_TURN}


def mission_objectives(scenario) -> tuple:
    """The mission's objectives (Part A ruling 23 by default), each a terrain objective when
    its point lies on a terrain area (14.01)."""
    mission = getattr(scenario, "mission", None)
    if mission is None:
        return ()
    if mission.objectives:
        objs = tuple(OBJ.Objective(o.name, o.x, o.y, o.kind, o.owner) for o in mission.objectives)
    else:
        objs = OBJ.default_objectives(scenario.board, defender=mission.defender,
                                      attacker=1 - mission.defender)
    return tuple(OBJ.on_terrain(o, scenario.terrain) for o in objs)


def oc_models(mods: dict | None = None) -> list:
    """(player, OC or None for '-', footprint) of every model on the battlefield (14.02; a
    battle-shocked unit's OC is '-', 01.07). The footprints are the spatial index's, which every
    move and set-up keeps equal to the models' positions and bases."""
    fps = W.spatial().fps
    players, ocs, rows = _oc_rows(mods)
    return [(p, oc, fps[k]) for p, oc, k in zip(players, ocs, rows)]


def _oc_rows(mods: dict | None) -> tuple[list, list, list[int]]:
    """Each model on the battlefield's player, OC (None for '-') and row of the spatial index,
    in unit order (``oc_models``'s, as parallel lists). What depends only on a unit's living
    models (its owner, their OCs and rows: a model's owner and OC never change, Roster) is kept
    with them (W.Living.memo)."""
    players, ocs, where = [], [], []
    for u in W.all_units():
        lv = W.living(u)
        if not lv.slots:
            continue
        kept = lv.memo.get("oc")
        if kept is None:
            r = W.roster(u)
            kept = lv.memo["oc"] = ([esper.component_for_entity(u, Unit).owner] * len(lv.slots),
                                    [r.OC[i] for i in lv.slots], [r.rows[i] for i in lv.slots])
        owners, oc, rows = kept
        players += owners
        where += rows
        if W.unit_state(u).battle_shocked:
            ocs += [None] * len(rows)
        elif mods and mods.get(u, 0):  # (a rule's modifier, 14.02: sim.rules.effects.phase_rules)
            ocs += [PR.modified_oc(o, mods[u], False) for o in oc]
        else:
            ocs += oc
    return players, ocs, where


def oc_modifiers(battle) -> dict:
    """The rules' OC modifiers of the units on the battlefield that have one now (sim.phases
    .rule_effects), by unit; {} in a battle without rules."""
    if battle is None or not RX.any_rules():
        return {}
    out = {}
    for u in W.all_units():
        if not W.off_table(u) and not W.unit_destroyed(u):
            mod = rule_reads.oc_modifier(battle, u)
            if mod:
                out[u] = mod
    return out


def control_levels(objectives: tuple, battle=None) -> list:
    """14.02 Each objective's level of control per player now (sim.rules.objectives
    .control_levels_of over ``oc_models``' players and OCs). Kept while nothing it reads
    changes: who is on the battlefield and where (the spatial index's version, bumped by every
    move, set-up and removal), which units are battle-shocked, and the objectives; a model's
    owner and OC never change during a battle (sim.components.Roster), so the players and OCs
    are kept through moves (while the presence_version stands, with the same battle-shocked
    units and modifiers): a move measures again only who is in range."""
    sp = W.spatial()
    mods = oc_modifiers(battle)  # (the rules' OC modifiers: {} without rules)
    shocked, mod_items = tuple(W.unit_state(u).battle_shocked for u in W.all_units()), tuple(mods.items())
    key = (sp.version, shocked, mod_items)
    memo = sp.control_levels
    if memo is not None and memo[0] is objectives and memo[1] == key:
        return memo[2]
    okey = (sp.presence_version, shocked, mod_items)
    if memo is not None and memo[3][0] == okey:
        oc_rows = memo[3][1]
    else:
        oc_rows = _oc_rows(mods)
    players, ocs, rows = oc_rows
    levels = OBJ.control_levels_of(len(objectives), players, ocs, in_range_rows(sp, objectives, rows))
    sp.control_levels = (objectives, key, levels, (okey, oc_rows))
    return levels


def in_range_rows(sp, objectives: tuple, rows: list[int]) -> np.ndarray:
    """sim.rules.objectives.in_range_matrix of the models at these rows of the spatial index,
    each row kept with the footprint it was measured for (an immutable object, replaced by
    every move) from the checks before: only the models that moved or came onto the
    battlefield since are measured (a row is its model's own answer), not every model at every
    phase's end. Kept for one objectives tuple (``ts.objectives`` itself: another tuple starts
    the rows afresh), which the tactician's objective stakes read too."""
    fps = sp.fps
    kept = sp.in_range_rows
    if kept is None or kept[0] is not objectives or len(kept[1]) != len(fps):
        kept = sp.in_range_rows = (objectives, [None] * len(fps), np.zeros((len(fps), len(objectives)), dtype=bool))
    _objs, measured, hit = kept
    missing = [k for k in rows if measured[k] is not fps[k]]
    if missing:
        hit[missing] = OBJ.in_range_matrix([fps[k] for k in missing], objectives)
        for k in missing:
            measured[k] = fps[k]
    return hit[rows]


def settle_control(battle) -> None:
    """14.02.01 At the end of every phase and turn, first: each objective's level of control
    per player and who controls it; an event for each objective whose controller changed."""
    ts = battle.turn_state
    if not ts.objectives:
        return
    levels = control_levels(ts.objectives, battle)
    new = OBJ.settle_levels(ts.objectives, levels, ts.control)
    for o, lv in zip(ts.objectives, levels):
        before = ts.control.get(o.name, OBJ.UNCONTROLLED).controller
        after = new[o.name].controller
        if before != after:
            battle.emit(ev.CONTROL, objective=o.name, controller=None if after is None else PLAYER[after],
                        levels={PLAYER[p]: v for p, v in sorted(lv.items())})
    ts.control = new


def score(battle, phase: Phase) -> None:
    """26 Battlefield Dominance for the active player at the end of their Command phase or
    turn, booked within the caps (15 VP a round, 45 in all); VP lost to a cap are reported."""
    ts = battle.turn_state
    moment = _MOMENT.get(phase)
    if moment is None or not ts.objectives or ts.round > MS.BATTLE_ROUNDS:
        return
    p = ts.active
    scores = MS.dominance_scores(ts.round, moment, p, ts.control, ts.objectives)
    for s in scores:
        ts.tallies[p], granted = MS.award(ts.tallies[p], ts.round, s.source, s.vp)
        ts.vp[p] += granted
        battle.emit(ev.VP, player=PLAYER[p], round=ts.round, source=s.source, scored=s.vp,
                    granted=granted, total=ts.vp[p])


def finish(battle) -> None:
    """26 steps 13-14: after the last battle round, most VP wins; equal VP is a draw."""
    ts = battle.turn_state
    ts.over = True
    ts.result = MS.result(ts.vp[0], ts.vp[1], PLAYER)
    battle.emit(ev.RESULT, vp={PLAYER[p]: ts.vp[p] for p in (0, 1)}, result=ts.result,
                rounds=ts.round)

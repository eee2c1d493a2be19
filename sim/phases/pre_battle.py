"""26 steps 5-11, run: a battle whose armies deploy by the rules begins here, before battle
round 1 (RULES §26, §28). The StartBattle, DeclareFormations, Deploy, ScoutMove and EndPhase
commands' records apply it (sim.commands.deploy, sim.commands.flow); the rules it follows are
sim.rules.pre_battle's.

5   Attacker and Defender: the mission names the Defender, or a roll-off's winner chooses
    (a ``role`` decision).
6   Secondary missions: none in this simulator (Battlefield Dominance only, Part A ruling 20).
7   Battle formations: each player declares which units start in strategic reserves, Defender
    first (the declarations are secret until both are made; both are then revealed).
8   Deployment: the players alternate, one unit at a time, Defender first (TITANIC: the
    player's next deployment turn is lost); a player with nothing left to set up stops and
    the other sets up the rest.
9   Redeployment: no rule of this simulator redeploys.
10  The first-turn roll-off.
11  Pre-battle rules (24.31 Scouts): alternately, first player first, one unit at a time; a
    player who ends the step (EndPhase) is done; when both are, battle round 1 begins.
"""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import DecisionRequest, ask
from sim.phases import battle_round as flow
from sim.phases import oaths
from sim.phases import rule_choices
from sim.phases.state import PreBattleStep
from sim.plan.deployment import scouts, to_deploy
from sim.rules import pre_battle as PB
from sim.rules.turn import PLAYER, ROLES
from sim.systems.transport import destroy_empty_dedicated
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import resources as R


def open_pre_battle(battle):
    """26 step 5 (the roles), then step 7 begins. (First, as reading the mission ends: the
    armies' oaths, sim.phases.oaths.)"""
    yield from oaths.swear(battle)
    ts = battle.turn_state
    mission = ts.mission
    more = {}
    if mission.roles_rolled:
        winner = flow.roll_off(battle, "Attacker and Defender")
        role = yield from ask(battle, DecisionRequest(
            "role", "26 step 5", winner, list(ROLES), ROLES[1],
            f"{battle.scenario.armies[winner].name} won the roll-off: be the Defender (deploy first) or the Attacker? (26 step 5)"))
        ts.defender = winner if role == ROLES[0] else 1 - winner
        more["chosen_by"] = PLAYER[winner]
        if ts.defender != mission.defender:  # (the home objectives go with the roles)
            from dataclasses import replace
            ts.objectives = tuple(o if o.owner is None else replace(o, owner=1 - o.owner) for o in ts.objectives)
    d = ts.the_defender()
    battle.emit(ev.ROLES, defender=PLAYER[d], attacker=PLAYER[1 - d], **more)
    _enter(battle, PreBattleStep.FORMATIONS, d)


def _enter(battle, step: PreBattleStep, player: int) -> None:
    ts = battle.turn_state
    ts.pre_battle = step
    ts.chooser = ts.active = player
    battle.emit(ev.PRE_BATTLE, step=str(step), player=PLAYER[player])


# --- 26 step 7 -----------------------------------------------------------------------------

def declared(battle, player: int, reserves: tuple[str, ...], embarked: tuple[tuple[str, str], ...] = ()):
    """26 step 7 A player's formations are declared; once both are, they are revealed, the
    units in reserves and those embarked in a transport leave the deployment (an embarked unit
    goes where its transport goes: set up inside it, in reserves with it), every DEDICATED
    TRANSPORT left empty is destroyed (18.01), and step 8 begins."""
    ts = battle.turn_state
    order = {esper.component_for_entity(u, Unit).id: i for i, u in enumerate(W.all_units())}
    ts.formations[player] = {"reserves": sorted(reserves, key=order.__getitem__)}
    if embarked:
        ts.formations[player]["embarked"] = {u: t for u, t in sorted(embarked, key=lambda p: order[p[0]])}
    other = 1 - player
    if ts.formations[other] is None:
        ts.chooser = ts.active = other
        return
    d = ts.the_defender()
    res = R.current
    for p in (d, 1 - d):
        held = ts.formations[p]["reserves"]
        aboard = ts.formations[p].get("embarked", {})
        battle.emit(ev.FORMATIONS, player=PLAYER[p], reserves=list(held), **({"embarked": dict(aboard)} if aboard else {}))
        for uid in held:  # (20.01 off the battlefield still, now in strategic reserves)
            res.undeployed.discard(battle.units[uid])
        for uid, tid in aboard.items():  # (18.01 off the battlefield still, inside its transport)
            res.undeployed.discard(battle.units[uid])
            M.embark(battle.units[uid], battle.units[tid])
    destroy_empty_dedicated(battle)  # 18.01 after battle formations
    for p in (d, 1 - d):  # the rules' choices made at battle formations (Defender first)
        yield from rule_choices.at_formations(battle, p)
    yield from _deploy_next(battle, None)


# --- 26 step 8 -----------------------------------------------------------------------------

def _deploy_next(battle, last: int | None):
    """26 step 8 Who sets up next (``last``: who just did; None: the step begins)."""
    ts = battle.turn_state
    left = (len(to_deploy(0)), len(to_deploy(1)))
    if last is None:
        d = ts.the_defender()
        nxt = d if left[d] else (1 - d if left[1 - d] else None)
        if nxt is not None:
            _enter(battle, PreBattleStep.DEPLOY, nxt)
            return
    else:
        nxt, skips = PB.next_deployer(last, left, ts.deploy_skips)
        ts.deploy_skips = list(skips)
        if nxt is not None:
            ts.chooser = ts.active = nxt
            return
    # 26 step 9: nothing redeploys; step 10
    flow.first_turn(battle)
    yield from _rules_next(battle, None, start=True)


def deployed(battle, unit_ent: int):
    """26 step 8 A unit was set up (sim.commands.deploy applied its positions): a TITANIC
    unit costs its player's next deployment turn; then the next player."""
    ts = battle.turn_state
    player = esper.component_for_entity(unit_ent, Unit).owner
    if "TITANIC" in W.unit_keywords(unit_ent):
        ts.deploy_skips[player] = True
    yield from _deploy_next(battle, player)


# --- 26 step 11 ----------------------------------------------------------------------------

def _rules_next(battle, last: int | None, start: bool = False):
    """26 step 11 Who resolves the next pre-battle rule: the players alternate, the first
    player first; a player with nothing left to resolve, or who ended the step, is done;
    when both are, the battle begins (26 step 12)."""
    ts = battle.turn_state
    for p in (0, 1):
        if not scouts(battle, p):
            ts.pre_battle_done[p] = True
    order = (ts.first, 1 - ts.first) if last is None else (1 - last, last)
    nxt = next((p for p in order if not ts.pre_battle_done[p]), None)
    if nxt is None:
        ts.pre_battle = None
        yield from flow.begin(battle)
        return
    if start:
        _enter(battle, PreBattleStep.RULES, nxt)
    else:
        ts.chooser = ts.active = nxt


def resolved(battle, unit_ent: int):
    """24.31 A unit used its Scouts ability; the other player resolves next."""
    ts = battle.turn_state
    ts.scouted.append(unit_ent)
    yield from _rules_next(battle, esper.component_for_entity(unit_ent, Unit).owner)


def passed(battle):
    """26 step 11 The player who has the choice ends their pre-battle rules."""
    ts = battle.turn_state
    ts.pre_battle_done[ts.chooser] = True
    yield from _rules_next(battle, ts.chooser)

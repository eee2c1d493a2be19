"""07 The commands that move a battle along: starting it (26 steps 10-12), ending a phase (or a
player's part of a Fight-phase step) in a battle with a mission, ending a turn in free play."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim.commands.base import CommandRecord
from sim.components import Unit
from sim.errors import PlanError
from sim.phases import battle_round as flow
from sim.phases import pre_battle, upkeep
from sim.plan.fight import fight_eligible
from sim.plan import moves as MV
from sim.rules.geometry import within_distance
from sim.rules.turn import FightStep, Phase, PreBattleStep
from sim.world import queries as W

PASS_RANGE = 5.0  # 12.04.01


@dataclass(frozen=True, slots=True)
class StartBattle:
    """26 steps 10-12: roll off for the first turn (unless the mission names the first player)
    and begin battle round 1; in a battle deployed by the rules, begin with step 5 instead
    (sim.phases.pre_battle). Only in a battle with a mission, and first."""


@dataclass(frozen=True, slots=True)
class EndPhase:
    """07.02 The player who has the choice is done with it: the phase (or, in the Fight phase,
    their part of the step: 12.02, 12.07; in the Fight step a pass, 12.04.01) ends. Only in a
    battle with a mission."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the current turn of a battle without a mission (free play): per-turn bookkeeping
    resets (the ranged attacks of this turn become 'last turn' for 13.09 Hidden)."""


def check_end_phase(battle, cmd) -> None:
    """07.02 Ending a phase or a part of the Fight phase. In the Fight step it is a pass
    (12.04.01): allowed only when every eligible unit of the player is more than 5" from
    every enemy unit; every other eligible unit must fight."""
    ts = battle.turn_state
    if ts.phase == Phase.FIGHT and ts.step == FightStep.FIGHT:
        for u in fight_eligible(battle, ts.chooser):
            gap = MV.unit_gap(u, W.enemy_units(u))
            if gap is not None and within_distance(gap, PASS_RANGE):
                uid = esper.component_for_entity(u, Unit).id
                raise PlanError(f"{uid} is eligible to fight and within 5\" of an enemy ({gap:.2f}\"): "
                                f"it must be selected to fight before the player may pass (12.04, 12.04.01)")


def _nothing(battle, cmd) -> None:
    return None


def _start(battle, cmd):
    if battle.turn_state.mission.deployment == "rules":  # (26 steps 5-11 first)
        return pre_battle.open_pre_battle(battle)
    return flow.start_battle(battle)


def _end_phase(battle, cmd):
    if battle.turn_state.pre_battle is not None:  # (26 step 11: the player's pre-battle rules end)
        return pre_battle.passed(battle)
    return flow.end_phase(battle)


def _end_turn(battle, cmd) -> None:
    upkeep.roll_over_turn(battle)


START_BATTLE = CommandRecord(
    "start battle", StartBattle, "07", "roll off for the first turn and begin battle round 1", (),
    check=_nothing, apply=_start, free_play=False, opens_battle=True, boundary="the start of the battle")

END_PHASE = CommandRecord(
    "end phase", EndPhase, "07.02", "end the phase, or your part of a Fight-phase step (a pass in the Fight step)",
    (), check=check_end_phase, apply=_end_phase, free_play=False, pre_battle=(PreBattleStep.RULES,),
    boundary="the phase it ended", script_step="end_phase")

END_TURN = CommandRecord(
    "end turn", EndTurn, "07", "end the turn (free play)", (), check=_nothing, apply=_end_turn,
    describe=lambda c: "== end of turn", mission=False,
    in_mission="a battle with a mission goes phase by phase: end the phase instead (07.02)",
    boundary="the turn it ended", script_step="end_turn")

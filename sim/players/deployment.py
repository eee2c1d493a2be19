"""The headless players' choices before battle round 1 (26 steps 7-11; a battle deployed by
the rules). The default player (``pick=None``) chooses deterministically; the random player
passes its ``pick`` (a uniformly random element of a list, from its own stream). Where a unit
goes is sim.commands.deploy's default_deploy and default_scout (the candidates of
sim.plan.deployment, each checked by the rules).

* Formations (26 step 7): the default player declares what the scenario file plans (the units
  it marks ``reserves = true``, and those it marks ``embarked``), or, if that is refused, only
  the embarked ones, else none; the random player first embarks each unit that could ride in a
  transport on a one-in-two draw, in a transport picked at random among those with room (18.01),
  then puts each unit not embarked in strategic reserves on a one-in-four draw, as long as the
  50% cap allows (20.01, Part A ruling 27).
* Deployment (26 step 8): its next unit in unit order (random: any of them), set up where
  default_deploy finds room.
* Pre-battle rules (26 step 11): each Scouts unit in unit order (random: any, or an end to the
  step on a one-in-four draw), as default_scout finds; a unit with nothing legal is given up
  and the next tried; none left: the step ends for the player.
"""

from __future__ import annotations

import esper

from sim.commands import DeclareFormations, Deploy, EndPhase
from sim.commands.deploy import default_deploy, default_scout
from sim.components import Unit
from sim.errors import ScriptError
from sim.plan import deployment as PD
from sim.plan.transport import room_problems
from sim.players import options as O
from sim.rules.reserves import FormationUnit, reserves_problems
from sim.rules.turn import PLAYER, PreBattleStep
from sim.world import queries as W


def choose(battle, side: int, pick=None, tried: set | None = None):
    """The side's next pre-battle command (``tried``: units the player has given up on in this
    step, kept by the caller)."""
    ts = battle.turn_state
    if ts.pre_battle == PreBattleStep.FORMATIONS:
        return formations(battle, side, pick)
    if ts.pre_battle == PreBattleStep.DEPLOY:
        return deploy(battle, side, pick)
    return scout(battle, side, pick, tried if tried is not None else set())


def formations(battle, side: int, pick=None) -> DeclareFormations:
    specs = {u.id: u for u in battle.scenario.units}
    units = [esper.component_for_entity(u, Unit).id for u in PD.units_of(side)]
    if pick is None:
        aboard = tuple((uid, specs[uid].embarked) for uid in units if specs[uid].embarked is not None)
        for cmd in (DeclareFormations(PLAYER[side], tuple(uid for uid in units if specs[uid].reserves), aboard),
                    DeclareFormations(PLAYER[side], (), aboard)):
            if battle.check(cmd) is None:
                return cmd
        return DeclareFormations(PLAYER[side])
    keywords = {uid: tuple(sorted(W.unit_keywords(battle.units[uid]))) for uid in units}
    aboard: dict[str, str] = {}
    carriers = [uid for uid in units if W.capacity(battle.units[uid]) is not None]
    for uid in units:
        if uid in carriers or not carriers or not pick([True, False]):
            continue
        room = [t for t in carriers if not room_problems(
            battle.units[t], [battle.units[u] for u, c in aboard.items() if c == t] + [battle.units[uid]])]
        if room:
            aboard[uid] = pick(room)
    held: list[str] = []
    for uid in units:
        if uid not in aboard and pick([True, False, False, False]):
            trial = [FormationUnit(u, u in held or u == uid, specs[u].points, keywords[u], embarked_in=aboard.get(u))
                     for u in units]
            if not reserves_problems(trial):
                held.append(uid)
    return DeclareFormations(PLAYER[side], tuple(held), tuple(aboard.items()))


def deploy(battle, side: int, pick=None) -> Deploy:
    """The next unit set up (in unit order, or the random player's draw first): where its file
    plans it or where the placement solver finds room. When no unit of the side can be set up,
    the army does not fit its zone: a ScriptError with the solver's reason (26 step 8)."""
    units = PD.to_deploy(side)
    if pick is not None:
        first = pick(units)
        units = [first] + [u for u in units if u != first]
    for u in units:
        cmd = default_deploy(battle, u, pick)
        if cmd is not None:
            return cmd
    u = units[0]
    why = (PD.no_room(battle, u, battle.turn_state.zones()[side])
           or f"no legal set-up of {esper.component_for_entity(u, Unit).name} was found")
    raise ScriptError(f"{battle.scenario.path}: {PLAYER[side]}'s army does not fit its deployment zone: {why}"
                      + ("" if "26 step 8" in why else " (26 step 8)"))


def scout(battle, side: int, pick, tried: set):
    units = [u for u in PD.scouts(battle, side) if u not in tried]
    if pick is not None:
        if not units or pick([True, False, False, False]):
            return EndPhase()
        units = [pick(units)]
    for u in units:
        tried.add(u)
        cmd = default_scout(battle, u, pick, O.quick_refusal)
        if cmd is not None:
            return cmd
    return EndPhase()

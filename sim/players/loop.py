"""The loop that plays a battle with a mission to its end, asking each side's player."""

from __future__ import annotations

from sim.commands import StartBattle
from sim.errors import ScriptError
from sim.players.default import DefaultPlayer
from sim.players.random_player import RandomPlayer
from sim.players.scripted import ScriptedPlayer
from sim.players.search import SearchPlayer
from sim.players.tactician import TacticianPlayer

MAX_COMMANDS = 20_000  # a battle that needs more is a bug in a player, never bad input
KINDS = {"scripted": ScriptedPlayer, "default": DefaultPlayer, "random": RandomPlayer,
         "tactician": TacticianPlayer, "search": SearchPlayer}


def make_player(kind: str, side: int, battle, scenario):
    """The player a kind names (sim.scenario.mission.split_kind: 'search:0.5' is a search player
    with a budget of 0.5 s a decision)."""
    from sim.scenario.mission import split_kind
    name, budget = split_kind(kind)
    if budget is not None:
        return KINDS[name](side, battle, scenario, budget=budget)
    return KINDS[name](side, battle, scenario)


def play_battle(battle, scenario, recorder=None, players=None) -> None:
    """07 Play a battle with a mission from the start to its result: Start Battle, then each
    command from the player who has the choice; each decision from the player it belongs to."""
    from sim.players.resolve import submit_and_resolve
    ts = battle.turn_state
    if players is None:
        players = [make_player(kind, side, battle, scenario) for side, kind in enumerate(ts.mission.players)]

    def by_player(req):
        return players[req.player].answer(battle, req)

    if ts.round == 0:
        submit_and_resolve(battle, scenario, "the start of the battle", StartBattle(), by_player, recorder)
    for _ in range(MAX_COMMANDS):
        if ts.over:
            left = [s for p in players for s in p.unplayed()]
            if left:
                raise ScriptError(f"{scenario.path}: {left[0].where}: this step was never played: the battle "
                                  f"ended before its phase came with the step acceptable (07)"
                                  + (f" (and {len(left) - 1} more)" if len(left) > 1 else ""))
            return
        c = players[ts.chooser].choose(battle)
        submit_and_resolve(battle, scenario, c.where, c.command, c.answer or by_player, recorder,
                           c.step, c.left_out)
    raise ScriptError(f"{scenario.path}: the battle did not end within {MAX_COMMANDS} commands")

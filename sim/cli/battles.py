"""`sim check | run | replay | play`: a scenario checked, a battle played headless or in the sandbox,
a replay log verified."""

from __future__ import annotations

import argparse
import sys

from sim.cli.shell import _err, _line


def cmd_check(args) -> int:
    from sim.errors import ScenarioError
    from sim.scenario.load import load_scenario
    try:
        spec = load_scenario(args.scenario)
    except ScenarioError as e:
        return _err(str(e))
    n = sum(len(u.models) for u in spec.units)
    print(f"{_line(args.scenario)}: ok ({len(spec.units)} units, {n} models, {len(spec.terrain)} terrain areas, "
          f"{len(spec.script)} script steps)")
    return 0


def cmd_run(args) -> int:
    from sim.battle import Battle
    from sim.errors import ScenarioError, ScriptError
    from sim.replay.log import Recorder, write_atomic
    from sim.replay.report import report
    from sim.players.runner import frozen_heap, play
    from sim.scenario.load import load_scenario
    try:
        spec = with_players(load_scenario(args.scenario), args)
    except ScenarioError as e:
        return _err(str(e))
    with Battle(spec, seed=args.seed) as battle, frozen_heap():
        rec = Recorder(battle, args.scenario) if args.log else None
        try:
            if getattr(args, "explain", False) and battle.turn_state is not None:
                _play_explained(battle, spec, rec)
            else:
                play(battle, spec, rec)
        except ScriptError as e:
            return _err(str(e))
        if not args.quiet:
            print(f"{spec.name} (seed {battle.seed})")
            print(report(battle.events, battle))
        if rec:
            try:
                write_atomic(args.log, rec.text())
            except OSError as e:
                return _err(f"{args.log}: cannot write the log: {e.strerror or e}")
    return 0


def _play_explained(battle, spec, recorder) -> None:
    """`sim run --explain`: the battle played by its players, each Explanation a player makes
    (what it weighed for a decision and the values, top three: sim.players.base) printed as it
    comes, before the report. Players that weigh nothing print nothing."""
    from sim.players import play_battle
    from sim.players.loop import make_player
    from sim.names import everything_of_battle, in_words
    players = [make_player(kind, side, battle, spec) for side, kind in enumerate(battle.turn_state.mission.players)]
    names = everything_of_battle(battle)
    for p in players:  # (the player by its army's name; any id in its words read as a name)
        who = f"{spec.armies[p.side].name} ({p.kind})"
        p.on_explain = lambda e, who=who: print(in_words(e._replace(player=who).text(), names))
    play_battle(battle, spec, recorder, players=players)


def with_players(spec, args):
    """The scenario with the players ``--red`` and ``--blue`` name (a battle with a mission)."""
    import dataclasses

    from sim.errors import ScenarioError
    from sim.rules.turn import PLAYER
    from sim.scenario.mission import split_kind
    chosen = [getattr(args, side, None) for side in PLAYER]
    budget = getattr(args, "budget", None)
    if all(c is None for c in chosen) and budget is None:
        return spec
    if spec.mission is None:
        raise ScenarioError(spec.path, "mission", "a [mission] table (players play a whole battle; "
                            "this scenario is free play)", "<missing>")
    players = tuple(c or spec.mission.players[i] for i, c in enumerate(chosen))
    if budget is not None:
        searching = [split_kind(p)[0] == "search" for p in players]
        if not any(searching):
            raise ScenarioError(spec.path, "mission.players", "a search player for --budget (--red search, "
                                "--blue search, or the scenario's)", f"<{' and '.join(players)}>")
        players = tuple(f"search:{budget:g}" if s else p for s, p in zip(searching, players))
    return dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))


def cmd_replay(args) -> int:
    from sim.errors import LogError, ScenarioError
    from sim.replay.log import replay
    try:
        n, div = replay(args.log, args.scenario)
    except (LogError, ScenarioError) as e:
        return _err(str(e))
    if div:
        print(_line(f"{args.log}: {div}"), file=sys.stderr)
        return 1
    print(f"{_line(args.log)}: verified, {n} commands, every event and state hash identical")
    return 0


def cmd_play(args) -> int:
    from sim.sandbox.computer_options import DEFAULT_SPEED, parse_ai, parse_speed
    try:
        ai = parse_ai(args.ai) if args.ai is not None else None
        speed = parse_speed(args.ai_speed) if args.ai_speed is not None else DEFAULT_SPEED
    except ValueError as e:
        return _err(str(e))
    if args.ai_speed is not None and not ai:
        return _err("--ai-speed: goes with --ai SIDE (the side the computer plays)")
    if ai and args.replay is not None:
        return _err("--ai: a replay is watched, not played: leave out --ai or --replay")
    if ai:
        from sim.errors import ScenarioError
        from sim.rules.turn import PLAYER
        from sim.scenario.load import load_scenario
        try:
            spec = load_scenario(args.scenario)
        except ScenarioError as e:
            return _err(str(e))
        if spec.mission is None:
            return _err(f"--ai: {args.scenario} has no [mission]: the computer plays a side of a battle with a "
                        f"mission (this scenario is free play)")
    if args.headless:
        sides = {PLAYER[s]: k for s, k in ai.items()} if ai else {}
        return cmd_run(argparse.Namespace(scenario=args.scenario, seed=args.seed, log=None, quiet=False, **sides))
    try:
        from sim.sandbox.app import run_sandbox
    except ImportError as e:  # the sandbox is optional until it lands
        print(f"sim: the sandbox is not available ({e}); running headless instead", file=sys.stderr)
        return cmd_run(argparse.Namespace(scenario=args.scenario, seed=args.seed, log=None, quiet=False))
    if args.replay_scenario is not None and args.replay is None:
        return _err("--scenario: goes with --replay LOG (the scenario to replay it against)")
    from sim.sandbox.replay_view import table_for_play  # (from any folder, with --replay and --scenario)
    return run_sandbox(table_for_play(args.scenario, args.replay, args.replay_scenario), args.seed,
                       replay=args.replay, replay_scenario=args.replay_scenario, ai=ai, ai_speed=speed)

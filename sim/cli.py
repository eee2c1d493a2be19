"""`sim play | run | stats | ladder | odds | matrix | replay | check | import | datasheets`. Bad input gets one clear message and exit status 2."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from contextlib import closing, contextmanager

from sim.names import counted

EXIT_BAD_INPUT = 2


def _err(msg: str) -> int:
    print(f"sim: {_line(msg)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _line(text: str) -> str:
    """``text`` as one line that cannot drive the terminal: a message may quote a path from the
    command line or a log, and a file's name may hold a newline or an escape sequence."""
    from sim.errors import escape_controls
    return escape_controls(str(text))


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


EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it
EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread as Ctrl-C raises KeyboardInterrupt."""


def _stop(signum, frame):
    """SIGINT or SIGTERM: raise KeyboardInterrupt or Terminated (both ignored from now on). In
    the middle of an import (the modules load lazily, command by command) the process ends at
    once instead, with the same line and status: an exception there can come out as another
    (numpy turns it into an ImportError of its C core), and nothing is open yet to clean up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    f = frame
    while f is not None:
        if f.f_code.co_filename.startswith("<frozen importlib"):
            import os
            sys.stderr.flush()
            os.write(2, b"sim: interrupted\n" if signum == signal.SIGINT else b"sim: terminated\n")
            os._exit(EXIT_INTERRUPTED if signum == signal.SIGINT else EXIT_TERMINATED)
        f = f.f_back
    raise KeyboardInterrupt if signum == signal.SIGINT else Terminated


@contextmanager
def _stopped_by_signals():
    """While the block runs, SIGINT raises KeyboardInterrupt and SIGTERM raises Terminated,
    once: the first of them ignores both until the block ends, so cleaning up (ending a pool
    of workers) is not cut short by a second. The handlers before are put back after. Inside
    a block already (main's), nothing changes; a signal ignored from the start (a shell's
    background job: SIGINT) stays ignored; outside the main thread (which alone handles
    signals), nothing changes."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is _stop):
        yield
        return
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s, h in old.items():
        if h is not signal.SIG_IGN:
            signal.signal(s, _stop)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


def cmd_stats(args) -> int:
    import dataclasses
    import json
    import os
    import time

    from sim.errors import ScenarioError
    from sim.scenario.load import load_scenario
    from sim.analysis.stats import MAX_RUNS, Tally, format_summary, iter_runs, iter_runs_ray
    if not 1 <= args.runs <= MAX_RUNS:
        return _err(f"--runs: expected a whole number of runs from 1 to {MAX_RUNS:,}, found {args.runs}")
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        return _err(f"--jobs: expected 1 or more processes, found {jobs}")
    if args.address is not None and args.backend != "ray":
        return _err(f"--address: expected it with --backend ray, found --backend {args.backend}")
    bad = _plot_path(args.plot)
    if bad:
        return _err(bad)
    try:
        spec = with_players(load_scenario(args.scenario), args)
    except ScenarioError as e:
        return _err(str(e))
    first = spec.seed if args.seed is None else args.seed
    from sim.options import last_seed_problem
    bad = last_seed_problem(first, args.runs, args.seed is not None)
    if bad:
        return _err(bad if args.seed is not None else f"{args.scenario}: {bad}")
    last = first + args.runs - 1
    jobs = min(jobs, args.runs)
    tally = Tally(spec)
    start = time.perf_counter()
    if args.backend == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            return _err("--backend: expected ray installed (pip install -e .[cluster]), found it missing")
        from sim.analysis.ray_session import Costs
        costs = Costs()
        source = iter_runs_ray(spec, first, args.runs, args.address, args.jobs, costs=costs)
    else:
        source = iter_runs(spec, first, args.runs, jobs)
    code = _tally_all(source, tally, args.runs, args.quiet, "run")
    if code is not None:
        return code
    secs = time.perf_counter() - start
    if args.plot:
        try:
            from sim.plots import stats as plot_stats
            plot_stats.destroyed(tally, args.plot, f"{spec.name}: {args.runs} runs (seeds {first}..{last})")
        except (OSError, ValueError) as e:
            return _err(f"{args.plot}: cannot write the plot: {getattr(e, 'strerror', None) or e}")
    summary = tally.summary()
    stops = tally.stopped_early()
    if args.json:
        doc = {"scenario": args.scenario, "runs": args.runs, "seeds": [first, last], "elapsed_s": round(secs, 3),
               "units": [dataclasses.asdict(u) for u in summary],
               "stopped_early": [{"reason": r, "runs": n} for r, n in stops]}
        if tally.outcomes() is not None:
            doc["battles"] = tally.outcomes()
        print(json.dumps(doc, indent=1, sort_keys=True))
        return 0
    where = (f"Ray ({args.address or 'local'})" if args.backend == "ray" else counted(jobs, "process", "processes"))
    print(f"{spec.name}: {args.runs} runs of the script (seeds {first}..{last}), "
          f"{where}, {secs:.1f} s ({args.runs / max(secs, 1e-9):,.0f} runs/s)")
    if args.backend == "ray":
        print(costs.line())
    print(format_summary(summary))
    out = tally.outcomes()
    if out is not None:
        from sim.rules.turn import PLAYER
        wins = ", ".join(f"{side} wins {100 * out[side]:.1f}%" for side in PLAYER)
        vps = ", ".join(f"{side} {out[f'{side}_vp_mean']:.2f} +- {out[f'{side}_vp_sd']:.2f}" for side in PLAYER)
        print(f"battles: {wins}, draws {100 * out['draw']:.1f}%; VP {vps}")
    for reason, n in stops:
        print(f"stopped early in {counted(n, 'run')} ({100 * n / args.runs:.1f}%): {reason}")
    return 0


def cmd_ladder(args) -> int:
    """`sim ladder SCENARIO... --players A,B[,...] --battles N`: every pair of players over N seeds
    of each scenario, each seed played both ways; each pair's results, the players x players
    table and the Elo ratings (sim.analysis.ladder)."""
    import json
    import os
    import time

    from sim.errors import ScenarioError
    from sim.options import last_seed_problem
    from sim.scenario.load import load_scenario
    from sim.analysis import ladder as LD
    from sim.analysis import ladder_report as LR
    try:
        players = LD.parse_players(args.players)
    except LD.LadderError as e:
        return _err(str(e))
    if not 1 <= args.battles <= LD.MAX_BATTLES:
        return _err(f"--battles: expected a whole number of seeds from 1 to {LD.MAX_BATTLES:,}, found {args.battles}")
    if args.address is not None and args.backend != "ray":
        return _err(f"--address: expected it with --backend ray, found --backend {args.backend}")
    if args.json and args.markdown:
        return _err("--json: expected it or --markdown, found both")
    bad = _plot_path(args.plot)
    if bad:
        return _err(bad)
    if args.logs is not None and os.path.exists(args.logs) and not os.path.isdir(args.logs):
        return _err(f"--logs: expected a folder for the replay logs, found a file: {args.logs}")
    if args.resume and args.logs is None:
        return _err("--resume: expected it with --logs, the folder the battles' logs are read from")
    specs, firsts = [], []
    for path in args.scenario:
        try:
            spec = load_scenario(path)
        except ScenarioError as e:
            return _err(str(e))
        if spec.mission is None:
            return _err(f"{path}: expected a [mission] table (a ladder plays whole battles), found a free-play "
                        f"scenario")
        first = spec.seed if args.seed is None else args.seed
        bad = last_seed_problem(first, args.battles, args.seed is not None)
        if bad:
            return _err(bad if args.seed is not None else f"{path}: {bad}")
        specs.append(spec)
        firsts.append(first)
    lad = LD.Ladder(tuple(specs), tuple(args.scenario), players, args.battles, tuple(firsts), args.logs)
    if args.resume:
        from sim.errors import LogError
        try:
            lad = LD.resumed(lad)
        except LogError as e:
            return _err(str(e))
        if not args.quiet:
            print(f"resuming: {counted(lad.total - lad.to_play, 'battle')} of {lad.total} read from their logs in "
                  f"{args.logs}, {lad.to_play} to play", file=sys.stderr)
    jobs = min(args.jobs if args.jobs is not None else (os.cpu_count() or 1), max(1, lad.to_play))
    tally = LD.Tally(lad)
    start = time.perf_counter()
    if args.backend == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            return _err("--backend: expected ray installed (pip install -e .[cluster]), found it missing")
        from sim.analysis.ray_session import Costs
        costs = Costs()
        source = LD.iter_games_ray(lad, args.address, args.jobs, costs)
    else:
        source = LD.iter_games(lad, jobs)
    try:
        code = _tally_all(source, tally, lad.total, args.quiet, "battle")
    except OSError as e:  # (a replay log that cannot be written)
        return _err(f"--logs: cannot write a replay log: {e.strerror or e}")
    if code is not None:
        return code
    secs = time.perf_counter() - start
    if args.plot:
        try:
            from sim.plots import ladder as plot_ladder
            plot_ladder.scores(tally, args.plot, f"ladder: {counted(lad.battles, 'seed')} a pair, both ways, "
                               f"{', '.join(os.path.basename(p) for p in lad.paths)}")
        except (OSError, ValueError) as e:
            return _err(f"{args.plot}: cannot write the plot: {getattr(e, 'strerror', None) or e}")
    if args.json:
        print(json.dumps({**LR.as_dict(tally), "elapsed_s": round(secs, 3)}, indent=1, sort_keys=True))
        return 0
    if args.markdown:
        print(LR.markdown(tally))
        return 0
    where = (f"Ray ({args.address or 'local'})" if args.backend == "ray" else counted(jobs, "process", "processes"))
    read = lad.total - lad.to_play
    print(f"{where}, {secs:.1f} s ({lad.to_play / max(secs, 1e-9):.2f} battles/s"
          + (f"; {counted(read, 'battle')} read from their logs)" if read else ")"))
    if args.backend == "ray":
        print(costs.line())
    print(LR.text(tally))
    return 0


def _plot_path(path: str | None) -> str | None:
    """None when ``path`` is a .png or .svg file name (or no path), else the message."""
    if path is None:
        return None
    if not path.lower().endswith((".png", ".svg")):
        return f"--plot: expected a file name ending .png or .svg, found {path}"
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        return "--plot: expected matplotlib installed (pip install -e .[plot]), found it missing"
    return None


def cmd_odds(args) -> int:
    import json

    from sim.errors import ScenarioError
    from sim.odds import report as RP
    from sim.odds.engine import solve
    from sim.odds.problem import OddsError
    from sim.analysis.locate import at_step, battle_monte_carlo, deadly_demise_matters, problem_at, unit_against
    from sim.scenario.load import load_scenario
    if args.attacker or args.defender:  # (the calculator: issue 28 item 11)
        from sim.analysis.calculator_cli import run
        return run(args, _err)
    if args.scenario is None:
        return _err("sim odds: expected SCENARIO (with --step or --unit/--target), or --attacker FILE NAME "
                    "--defender FILE NAME, found neither")
    if (args.step is None) == (args.unit is None and args.target is None):
        return _err("sim odds: expected --step N, or --unit A --target B, found "
                    + ("both" if args.step is not None else "neither"))
    if args.step is None and (args.unit is None or args.target is None):
        return _err(f"sim odds: expected --unit A --target B together, found only "
                    f"{'--unit' if args.unit else '--target'}")
    bad = _plot_path(args.plot)
    if bad:
        return _err(bad)
    if not 0 <= args.runs <= 1_000_000:
        return _err(f"--runs: expected a number of Monte Carlo runs from 0 to 1,000,000, found {args.runs}")
    from sim.analysis import odds_names as ON  # (units by name or id; the text in names)
    try:
        spec = load_scenario(args.scenario)
    except ScenarioError as e:
        return _err(str(e))
    try:
        if args.step is None:
            args.unit, args.target = ON.resolve(spec, "--unit", args.unit), ON.resolve(spec, "--target", args.target)
        loc = (at_step(spec, args.step, args.seed) if args.step is not None
               else unit_against(spec, args.unit, args.target, args.seed, args.fight))
    except ScenarioError as e:
        return _err(ON.said(spec, str(e)))
    place = f"--step {args.step}" if args.step is not None else f"--unit {args.unit} --target {args.target}"
    with loc.battle:
        try:
            problem = problem_at(loc)
            odds = solve(problem)
        except OddsError as e:
            return _err(ON.said(spec, f"{args.scenario}: {place}: expected an attack the rules accept, found: {e}"))
    if deadly_demise_matters(problem) and args.runs > 0 and loc.plan is None:
        # (an attack inside a step's resolution cannot be brought back and resolved again:
        # the exact odds stand, with their note on Deadly Demise)
        def relocate():
            return (at_step(spec, args.step, args.seed) if args.step is not None
                    else unit_against(spec, args.unit, args.target, args.seed, args.fight))
        odds = battle_monte_carlo(odds, problem, relocate, args.runs)
    title = f"{spec.name}: {loc.where}"
    if args.plot:
        try:
            from sim.plots import odds as plot_odds
            plot_odds.odds(odds, args.plot, title)
        except (OSError, ValueError) as e:
            return _err(f"{args.plot}: cannot write the plot: {getattr(e, 'strerror', None) or e}")
    if args.json:
        doc = {"scenario": args.scenario, "where": loc.where, **odds.as_dict()}
        print(json.dumps(doc, indent=1, sort_keys=True))
    else:
        print(_line(ON.said(spec, title)))
        print(ON.said(spec, RP.text(odds)))
    return 0


def cmd_matrix(args) -> int:
    from sim.errors import ScenarioError
    from sim.analysis import matrix as MX
    from sim.scenario.load import load_scenario
    if not args.range >= 0:
        return _err(f"--range: expected a distance in inches of 0 or more, found {args.range}")
    bad = _plot_path(args.plot)
    if bad:
        return _err(bad)
    try:
        att, dfn = load_scenario(args.attackers), load_scenario(args.defenders)
        cells = MX.matrix(att, dfn, args.range, args.cover, args.fight)
    except ScenarioError as e:
        return _err(str(e))
    where = "in base contact (fight)" if args.fight else f"at {args.range:g}\"" + (", in cover" if args.cover else "")
    title = f"{args.attackers} against {args.defenders}, {where}: expected damage / models destroyed / wipe"
    for path, write in ((args.csv, lambda p: MX.write_csv(cells, p)),
                        (args.plot, lambda p: _heatmap(cells, p, title))):
        if path:
            try:
                write(path)
            except (OSError, ValueError) as e:
                return _err(f"{path}: cannot write it: {getattr(e, 'strerror', None) or e}")
    print(_line(title))
    print(MX.text(cells))
    notes = sorted({c.note for row in cells for c in row if c.note})
    for n in notes:
        print(_line(f"note: {n}"))
    return 0


def _tally_all(source, tally, total: int, quiet: bool, unit: str) -> int | None:
    """Add every result of ``source`` (an iterator of runs or battles, closed at the end) to
    ``tally`` with a progress bar; None when all came, else the exit status after the line
    said why: Ctrl-C, SIGTERM (ignored once the first comes, _stopped_by_signals), or a worker
    that died (killed, or out of memory: the results after the gap are not summarised)."""
    from sim.analysis.workers import WorkerDied
    bar = _progress(total, quiet, unit)
    try:
        with _stopped_by_signals(), closing(source) as results:
            for r in results:
                tally.add(r)
                if bar is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        print(f"sim: interrupted after {tally.n} {unit}s", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print(f"sim: terminated after {tally.n} {unit}s", file=sys.stderr)
        return EXIT_TERMINATED
    except WorkerDied as e:
        print(f"sim: {e} ({tally.n:,} done)", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.close()
    return None


def _progress(total: int, quiet: bool, unit: str = "run"):
    """A progress bar on standard error (runs, runs/s, time left), or None: with --quiet, when
    standard error is not a terminal, or without tqdm."""
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    # (the bar's own carriage returns go to the stream itself; it prints only numbers)
    tqdm.monitor_interval = 0  # (no monitor thread: the workers are forked from this process)
    return tqdm(total=total, unit=unit, file=getattr(sys.stderr, "unescaped", sys.stderr),
                dynamic_ncols=True, mininterval=0.2, leave=False)


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


def cmd_import(args) -> int:
    """`sim import roster FILE` / `sim import datasheet CATALOGUE NAME`: the units as one army of a
    scenario (written to --out, else printed), the import report on stdout (as comments at the
    head of the scenario too). Nothing is written unless the whole import succeeds."""
    from pathlib import Path

    from sim import importers
    from sim.errors import ImportFileError, ScenarioError
    from sim.replay.log import write_atomic
    if args.what == "datasheet" and (args.name is None):
        return _err("import datasheet: expected CATALOGUE NAME, found no datasheet name")
    if args.what == "roster" and args.name is not None:
        return _err(f"import roster: expected one FILE, found also {args.name!r}")
    if args.attach and args.what != "roster":
        return _err("--attach: expected a roster import, found a datasheet import")
    if args.skip_bad and args.what != "roster":
        return _err("--skip-bad: expected a roster import, found a datasheet import")
    if args.models is not None and (args.what != "datasheet" or not 1 <= args.models <= 200):
        return _err(f"--models: expected 1 to 200 models of a datasheet import, found {args.models}")
    try:
        if args.what == "roster":
            army, rep = importers.load_roster(args.file, args.bases, skip_bad=args.skip_bad)
            title = Path(args.file).stem
            if args.attach:  # 19.01 leaders the roster does not nest in their unit
                from sim.importers.attach import attach_units
                army = importers.Army(tuple(attach_units(army.units, rep.units, args.attach, args.file)),
                                      army.weapons, army.rules)
        else:
            army, rep = importers.load_datasheet(args.file, args.name, args.models, args.bases)
            title = args.name
        out = args.out
        text = importers.into_scenario(army, args.army, out, str(args.out or args.file), title, rep,
                                       seed=args.seed)
    except (ImportFileError, ScenarioError) as e:
        return _err(str(e))
    for e in rep.skipped:  # (--skip-bad: asked for, so a warning and exit status 0)
        print(_line(f"sim: warning: unit skipped (--skip-bad): {e}"), file=sys.stderr)
    for w in rep.army:  # (a linked catalogue missing: this unit lost nothing, else it was refused)
        if w.startswith("warning: "):
            print(_line(f"sim: {w.replace('warning: ', f'warning: {args.file}: ', 1)}"), file=sys.stderr)
    if out is None:
        print(text, end="")
        return 0
    try:
        write_atomic(out, text)
    except OSError as e:
        return _err(f"{out}: cannot write the scenario: {e.strerror or e}")
    print(_line(f"{out}: {args.army} army: {len(army.units)} units, "
                f"{sum(m.count for u in army.units for m in u.models)} models"))
    for line in rep.text().splitlines():
        print(_line(line))
    return 0


_STAT_NAMES = {"m": "M", "t": "T", "sv": "Sv", "w": "W", "ld": "Ld", "oc": "OC", "insv": "InSv",
               "base size": "Base", "base": "Base"}


def cmd_datasheets(args) -> int:
    """`sim datasheets CATALOGUE`: its datasheets as printed. What the catalogue loses to a linked
    catalogue missing from its folder is said once, first, on standard error; exit status 1 when
    datasheets are lost. `--coverage FOLDER`: every catalogue of the folder imported datasheet by
    datasheet (sim.importers.coverage), a table of listed / imported / refused and the reasons."""
    from sim import importers
    from sim.errors import ImportFileError
    if args.coverage is not None:
        if args.catalogue is not None:
            return _err(f"datasheets --coverage FOLDER: expected no CATALOGUE, found {args.catalogue!r}")
        return _coverage(args.coverage, args.search or "", args.json)
    if args.json:
        return _err("datasheets --json: expected --coverage FOLDER with it, found a CATALOGUE listing")
    if args.catalogue is None:
        return _err("datasheets: expected CATALOGUE (or --coverage FOLDER), found neither")
    notes: dict = {}
    try:
        sheets = importers.list_datasheets(args.catalogue, args.search or "", notes=notes)
    except ImportFileError as e:
        return _err(str(e))
    for w in notes.get("warnings", ()):
        print(_line(f"sim: warning: {args.catalogue}: {w}"), file=sys.stderr)
    for s in sheets:
        pts = f", {s['points']:g} pts" if s["points"] else ""
        print(_line(f"{s['name']} ({s['type']}{pts})"))
        for name, c in s["stats"].items():
            stat = " ".join(f"{_STAT_NAMES.get(k, k)} {v}" for k, v in c.items() if v)
            print(_line(f"  {name}: {stat}"))
        for (kind, name), c in s["weapons"].items():
            stat = " ".join(f"{k.upper() if len(k) <= 2 else k.capitalize()} {v}" for k, v in c.items()
                            if v and k != "keywords")
            kw = c.get("keywords", "")
            print(_line(f"  {kind}: {name}: {stat}" + (f" [{kw}]" if kw and kw not in ("-",) else "")))
        if s["abilities"]:
            print(_line("  abilities: " + ", ".join(s["abilities"])))
        if s["refused"]:  # (Part A ruling 28: `sim import datasheet` refuses it)
            print(_line(f"  refused: {s['refused']}"))
    print(counted(len(sheets), "datasheet"))
    return 1 if notes.get("lost") else 0


def cmd_rules(args) -> int:
    """`sim rules`: every rule the engine models (sim.rules.effects.table): its key (what a
    scenario's ``rules`` writes), name, source, faction and one-line summary; ``--faction``
    keeps one faction's (and the rules of no faction); ``--json`` for machines."""
    import json

    from sim.rules.abilities.value import norm
    from sim.rules.effects import table
    recs = list(table.records())
    if args.faction:
        want = norm(args.faction)
        factions = sorted({r.faction for r in recs if r.faction})
        if not any(want in norm(f) for f in factions):
            return _err(f"rules --faction: expected a faction of the modelled rules ({', '.join(factions)}), "
                        f"found {args.faction!r}")
        recs = [r for r in recs if not r.faction or want in norm(r.faction)]
    from sim.rules.effects.words import grant_words
    rows = [{"key": r.key, "name": r.name, "names": list(r.names), "source": r.source, "faction": r.faction,
             "detachment": r.detachment, "summary": r.summary, "effects": [grant_words(g) for g in r.grants],
             "partial": r.partial} for r in recs]
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    for r in rows:
        where = r["source"] + (f", {r['faction']}" if r["faction"] else "") + \
            (f", detachment {r['detachment']}" if r["detachment"] else "")
        print(_line(f"{r['key']}: {r['name']} ({where})"))
        print(_line(f"  {r['summary']}"))
        if r["partial"]:
            print(_line(f"  not modelled: {r['partial']}"))
    print(counted(len(rows), "modelled rule"))
    return 0


def _coverage(folder: str, only: str, as_json: bool = False) -> int:
    import json
    import os
    import time

    from sim.importers.coverage import as_dict, cover, rules_table, table
    if not os.path.isdir(folder):
        return _err(f"{folder}: expected a folder of catalogues, found {'a file' if os.path.exists(folder) else 'nothing'}")
    t0 = time.perf_counter()
    results = cover(folder, only)
    if not results:
        return _err(f"{folder}: expected catalogue files (.cat, .catz, .json), found none")
    if as_json:
        print(json.dumps(as_dict(results), indent=1, ensure_ascii=False))
        return 0
    print(table(results))
    print()
    print(rules_table(results))
    print(f"({counted(len(results), 'catalogue')} in {time.perf_counter() - t0:.1f} s)")
    return 0


def main(argv=None) -> int:
    """The command line. Everything it prints goes through escape_controls (_Escaped: no text
    from a file or argv drives the terminal, argparse's echo of an unknown argument included).
    SIGINT and SIGTERM, at any moment until it returns, end it with one line and the status a
    shell gives a process the signal ended (130, 143; sim/__main__.py covers the imports
    before)."""
    code = _main_escaped(argv)
    if argv is None and "ray" in sys.modules:
        # (the command line itself, after `stats --backend ray`: Ray's threads, still there once
        # ray.shutdown has returned, crashed the interpreter's finalization with SIGSEGV after
        # our last line, most of all after an interrupted start-up; so it is skipped, flushed)
        import os
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def _main_escaped(argv) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaped(out), _Escaped(err)
    try:
        with _stopped_by_signals():
            return _main(argv)
    except KeyboardInterrupt:
        print("sim: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("sim: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:  # e.g. `sim run ... | head`
        return 0
    finally:
        sys.stdout, sys.stderr = out, err


class _Escaped:
    """A text stream writing to ``unescaped`` with each line through escape_controls (the
    newlines kept): the one place the command line's output is made safe for a terminal."""

    def __init__(self, unescaped):
        self.unescaped = unescaped

    def write(self, text: str) -> int:
        from sim.errors import escape_controls
        self.unescaped.write("\n".join(escape_controls(line) for line in text.split("\n")))
        return len(text)

    def __getattr__(self, name):  # (flush, isatty, encoding... as the stream's)
        return getattr(self.unescaped, name)


def _player_kind(text: str) -> str:
    """--red/--blue: a player kind (sim.scenario.mission.split_kind), 'search:0.5' with a budget."""
    import argparse

    from sim import options as OPT
    from sim.scenario.mission import KIND_TEXT, split_kind
    try:
        split_kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {KIND_TEXT}, found {OPT._found(text)}") from None
    return text


def _budget(text: str) -> float:
    """--budget: a search player's seconds a decision on the reference machine."""
    import argparse

    from sim import options as OPT
    from sim.scenario.mission import MAX_BUDGET, MIN_BUDGET, budget
    try:
        return budget(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds a decision from {MIN_BUDGET:g} to {MAX_BUDGET:g}, "
                                         f"found {OPT._found(text)}") from None


def _player_options(a) -> None:
    from sim.rules.turn import PLAYER
    for side in PLAYER:
        a.add_argument(f"--{side}", type=_player_kind, metavar="KIND",
                       help=f"who plays {side} in a battle with a mission: scripted, random, default, tactician, "
                       f"search or search:SECONDS (default: the scenario's [mission] players)")
    a.add_argument("--budget", type=_budget, metavar="SECONDS",
                   help="the search players' time a decision, in seconds on the reference machine (a fixed amount "
                   "of work: the battle is the same on any machine; default 0.5)")


def _main(argv=None) -> int:
    from sim.rules.turn import PLAYER
    from sim import options as OPT
    p = OPT.Parser(prog="sim", description="Warhammer 40,000 (11th edition) battle simulator "
                                "(unofficial fan tool)")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("play", help="open the battle sandbox")
    a.add_argument("scenario", nargs="?", default="scenarios/default.toml")
    a.add_argument("--seed", type=OPT.seed)
    a.add_argument("--headless", action="store_true", help="run the script headless and print the report")
    a.add_argument("--replay", help="open a replay log to step through (forward, back, play)")
    a.add_argument("--scenario", dest="replay_scenario",
                   help="with --replay: the scenario file to replay it against (as sim replay --scenario)")
    a.add_argument("--ai", action="append", metavar="SIDE[:PLAYER]",
                   help="the computer plays SIDE (red or blue; again for both) with PLAYER (default, random or "
                        "tactician; default: tactician); none: hot-seat, no dialog (default: a dialog asks)")
    a.add_argument("--ai-speed", metavar="N",
                   help="the computer's commands a second (default 2; 0: paused, '.' plays one command)")
    a.set_defaults(fn=cmd_play)
    a = sub.add_parser("run", help="play a scenario's script headless and print the battle report")
    a.add_argument("scenario")
    a.add_argument("--seed", type=OPT.seed)
    a.add_argument("--log", help="write the replay log (JSON Lines) here")
    a.add_argument("--quiet", action="store_true")
    a.add_argument("--explain", action="store_true",
                   help="print what the players weighed for each of their decisions (the options and their "
                   "expected values, top three), as they play")
    _player_options(a)
    a.set_defaults(fn=cmd_run)
    a = sub.add_parser("stats", help="play a scenario's script with many seeds and summarise the outcomes")
    a.add_argument("scenario")
    a.add_argument("--runs", type=OPT.stats_runs, default=1000, help="how many seeds (default 1000)")
    a.add_argument("--seed", type=OPT.seed, help="the first seed (default: the scenario's)")
    a.add_argument("--jobs", type=OPT.jobs, help="processes side by side (default: one per core)")
    a.add_argument("--json", action="store_true", help="print the summary as JSON")
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    a.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="where the runs go: local processes (--jobs) or Ray (pip install -e .[cluster])")
    a.add_argument("--address", help="with --backend ray: an existing Ray cluster, HOST:PORT (default: a "
                   "local Ray with --jobs CPUs)")
    a.add_argument("--plot", help="write each unit's models-destroyed distribution here (.png or .svg)")
    _player_options(a)
    a.set_defaults(fn=cmd_stats)
    a = sub.add_parser("ladder", help="play every pair of players over seeded battles, sides swapped: "
                       "win rates with intervals, VP margins, Elo ratings")
    a.add_argument("scenario", nargs="+", help="scenario files with a [mission] (each is played by every pair)")
    a.add_argument("--players", default="default,random,tactician",
                   help="comma-separated players, two or more (KIND, or KIND:NUMBER for a kind that takes a "
                   "budget, e.g. search:0.5; default: default,random,tactician)")
    a.add_argument("--battles", type=OPT.ladder_battles, default=10,
                   help="seeds per pair and scenario, each played both ways (default 10: 20 battles a pair)")
    a.add_argument("--seed", type=OPT.seed, help="the first seed (default: each scenario's)")
    a.add_argument("--jobs", type=OPT.jobs, help="processes side by side (default: one per core)")
    a.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="where the battles go: local processes (--jobs) or Ray (pip install -e .[cluster])")
    a.add_argument("--address", help="with --backend ray: an existing Ray cluster, HOST:PORT")
    a.add_argument("--json", action="store_true", help="print the results as JSON")
    a.add_argument("--markdown", action="store_true", help="print the players x players tables as Markdown")
    a.add_argument("--plot", help="write the score matrix here (.png or .svg)")
    a.add_argument("--logs", help="write every battle's replay log into this folder (sim replay plays one back)")
    a.add_argument("--resume", action="store_true",
                   help="with --logs: read the battles whose logs are already in the folder instead of playing "
                   "them (a stopped ladder goes on; pieces played apart, their logs in one folder, make one table)")
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    a.set_defaults(fn=cmd_ladder)
    a = sub.add_parser("odds", help="exact odds of one attack: a script step, a unit against a target, or "
                       "--attacker FILE NAME --defender FILE NAME (catalogues, rosters, scenarios)")
    a.add_argument("scenario", nargs="?")
    a.add_argument("--attacker", nargs=2, action="append", metavar=("FILE", "NAME"),
                   help="the calculator: a unit of a catalogue, roster or scenario (again: side by side)")
    a.add_argument("--defender", nargs=2, action="append", metavar=("FILE", "NAME"),
                   help="the calculator: the unit attacked (again: side by side)")
    a.add_argument("--range", type=OPT.inches, help="with --attacker: inches apart (default 12)")
    a.add_argument("--cover", action="store_true", help="with --attacker: the defender in cover")
    a.add_argument("--stationary", action="store_true", help="with --attacker: it remained stationary (else moved)")
    a.add_argument("--charged", action="store_true", help="with --attacker: a fight after its charge")
    a.add_argument("--weapons", action="store_true", help="with --attacker: each weapon's odds too, side by side")
    a.add_argument("--step", type=OPT.step, help="the script's step N (from 1); the steps before it are played")
    a.add_argument("--unit", help="the attacking unit (with --target)")
    a.add_argument("--target", help="the target unit (with --unit)")
    a.add_argument("--fight", action="store_true", default=None,
                   help="with --unit/--target: a fight (default: a fight when the units are engaged)")
    a.add_argument("--seed", type=OPT.seed, help="the seed the steps before it are played with (default: the scenario's)")
    a.add_argument("--json", action="store_true", help="print the odds as JSON")
    a.add_argument("--plot", help="write a plot of the distributions here (.png or .svg)")
    a.add_argument("--runs", type=OPT.odds_runs, default=2000,
                   help="when Deadly Demise (24.08) can change the losses: runs of the battle itself that "
                        "give them (default 2000; 0: the exact odds without it)")
    a.set_defaults(fn=cmd_odds)
    a = sub.add_parser("matrix", help="every attacker unit against every defender unit: expected damage, "
                       "models destroyed, chance to wipe")
    a.add_argument("attackers", help="a scenario file (or assets/unit_library.toml) with the attacking units")
    a.add_argument("defenders", help="a scenario file with the defending units")
    a.add_argument("--range", type=OPT.inches, default=12.0, help="inches between the units (default 12)")
    a.add_argument("--cover", action="store_true", help="the defender has the benefit of cover")
    a.add_argument("--fight", action="store_true", help="the units in base contact, melee weapons")
    a.add_argument("--csv", help="write the matrix as CSV here")
    a.add_argument("--plot", help="write a heatmap here (.png or .svg)")
    a.set_defaults(fn=cmd_matrix)
    a = sub.add_parser("replay", help="re-execute a replay log and verify every event and hash")
    a.add_argument("log")
    a.add_argument("--scenario", help="the scenario file to replay against (default: the one the log names, "
                   "found from the log's folder)")
    a.set_defaults(fn=cmd_replay)
    a = sub.add_parser("check", help="validate a scenario file")
    a.add_argument("scenario")
    a.set_defaults(fn=cmd_check)
    a = sub.add_parser("import", help="import a roster or a catalogue's datasheet as a scenario army")
    a.add_argument("what", choices=("roster", "datasheet"))
    a.add_argument("file", help="the roster (.ros, .rosz, New Recruit .json) or catalogue (.cat, .catz, .json)")
    a.add_argument("name", nargs="?", help="datasheet: its name in the catalogue")
    a.add_argument("--army", choices=PLAYER, default=PLAYER[0], help=f"the army the units join (default {PLAYER[0]})")
    a.add_argument("--out", help="the scenario file to write (an existing one keeps its other army, terrain, "
                   "mission and script); default: print it")
    a.add_argument("--models", type=OPT.models, help="datasheet: the number of models (default: its minimum)")
    a.add_argument("--bases", help="a base size table (as assets/base_sizes.toml) tried first")
    a.add_argument("--seed", type=OPT.seed, help="the battle's seed when a new scenario is made (default 1)")
    a.add_argument("--skip-bad", action="store_true",
                   help="roster: import the units that can be read; each one refused is named on stderr")
    a.add_argument("--attach", action="append", metavar="UNIT=BODYGUARD",
                   help="roster: attach a leader to a unit (ids or names; 19.01), or 'auto': each leader to a "
                   "unit its datasheet's list names; repeatable")
    a.set_defaults(fn=cmd_import)
    a = sub.add_parser("datasheets", help="list the datasheets of a catalogue with statlines and weapons")
    a.add_argument("catalogue", nargs="?")
    a.add_argument("--coverage", metavar="FOLDER",
                   help="import every datasheet of every catalogue in FOLDER; print listed / imported / refused")
    a.add_argument("--search", help="only datasheets whose name contains this text")
    a.add_argument("--json", action="store_true", help="with --coverage: print the coverage as JSON")
    a.set_defaults(fn=cmd_datasheets)
    a = sub.add_parser("rules", help="list every rule the engine models (datasheet abilities, army and detachment "
                       "rules): the keys a scenario's `rules` takes")
    a.add_argument("--faction", help="only this faction's rules (and those of no faction)")
    a.add_argument("--json", action="store_true", help="print the rules as JSON")
    a.set_defaults(fn=cmd_rules)
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # (OPT.Parser has printed its one line; --help its help)
        return e.code if isinstance(e.code, int) else EXIT_BAD_INPUT
    return args.fn(args)


def _heatmap(cells, path: str, title: str) -> None:
    from sim.plots import matrix as plot_matrix  # (matplotlib only when a plot is asked for)
    plot_matrix.heatmap(cells, path, title)

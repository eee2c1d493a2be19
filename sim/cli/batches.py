"""`sim stats | ladder | odds | matrix`: many battles or attacks at once, their progress, plots and
results."""

from __future__ import annotations

import sys
from contextlib import closing

from sim.cli.battles import with_players
from sim.cli.shell import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, _err, _line, _stopped_by_signals
from sim.names import counted


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


def _heatmap(cells, path: str, title: str) -> None:
    from sim.plots import matrix as plot_matrix  # (matplotlib only when a plot is asked for)
    plot_matrix.heatmap(cells, path, title)

"""The command line's arguments: every subcommand, its options and their checks, and the command
they run."""

from __future__ import annotations

from sim.cli.batches import cmd_ladder, cmd_matrix, cmd_odds, cmd_stats
from sim.cli.battles import cmd_check, cmd_play, cmd_replay, cmd_run
from sim.cli.catalogues import cmd_datasheets, cmd_import, cmd_rules
from sim.cli.shell import EXIT_BAD_INPUT


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

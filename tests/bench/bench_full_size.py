"""Benchmark: full-size armies (issue 24, Measures). Two armies made by tools/make_armies.py
(about 100 points a unit), deployed by the rules and played headless for five battle rounds,
at 10, 20 and 40 units a side (and 40 units of 2,000 points in all: small units, as many points
as the 20-unit armies; the grid stand-in the players deployed with before the placement solver
could fit these and not 40 units of 4,000 points), default v default and random v random; one
core.

Prints, for each size and pair of players: the battles per second (the median battle of
``--battles``), its range, the commands and models per battle, and the time of the automatic
deployment of one army (the time between one of its units' set-up and the one before, summed
over its units: the choice and the check of each set-up, the median over the armies of the
run). A battle a player's set-up stops (the rules refuse it: the army did not fit its zone) is
reported with the refusal. Beside the figures: a baseline measured in the same run, before and after
(tests/bench/_baseline.py), and each figure in loops of the pure-Python baseline, which reads
the same on any machine. ``--profile``: cProfile of one battle at the largest size (default v
default), the top functions by cumulative and by own time.

The armies come from the invented catalogues of tests/importers/full_size.py (written to a
temporary folder), or from a real catalogue folder: ``--catalogues DIR --red NAME --blue NAME``.
Run: .venv/bin/python tests/bench/bench_full_size.py [--sizes 10,20,40,40@2000] [--battles N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "importers"))

import _baseline  # noqa: E402  (beside this script)
import make_armies  # noqa: E402
from sim import events as ev  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.errors import ScriptError  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.scenario.load import parse_scenario  # noqa: E402
from sim.names import counted  # noqa: E402

PLAYERS = (("default", "default"), ("random", "random"))


def spec_of(folder: Path, red: str, blue: str, units: int, players, seed: int, points: int | None = None):
    points = points or 100 * units
    data = tomllib.loads(make_armies.scenario(folder, red, blue, seed=1, points=points, units=units))
    data["mission"]["players"] = dict(zip(("red", "blue"), players))
    data["battle"]["seed"] = seed
    return parse_scenario(data, "generated.toml")


def one_battle(spec) -> dict:
    marks = []  # (time, player) of each set-up
    start = [0.0]

    def on_event(e):
        if e["type"] == ev.DEPLOYED:
            marks.append((time.perf_counter(), e["player"]))

    t0 = time.perf_counter()
    with Battle(spec) as b, frozen_heap():
        b.listeners.append(on_event)
        start[0] = time.perf_counter()
        try:
            play_battle(b, spec)
        except ScriptError as e:  # (a player's set-up the rules refuse: an army that did not fit)
            return {"refused": str(e).split(": ", 1)[-1]}
        commands = b.commands_done
        rounds = max([e["rounds"] for e in b.events if e["type"] == ev.RESULT] or [0])
    t1 = time.perf_counter()
    per = {}
    last = start[0]
    for t, player in marks:
        per[player] = per.get(player, 0.0) + (t - last)
        last = t
    return {"seconds": t1 - t0, "commands": commands, "rounds": rounds, "deploy": per,
            "models": sum(len(u.models) for u in spec.units)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,20,40,40@2000",
                    help="units a side, comma-separated; N@P: N units of P points in all (default 100 a unit)")
    ap.add_argument("--battles", type=int, default=1, help="battles per size and pair of players (seeds 1..N)")
    ap.add_argument("--players", default="default,random", help="which pairs: default, random or both")
    ap.add_argument("--catalogues", help="a catalogue folder (default: the invented ones of full_size.py)")
    ap.add_argument("--red", default="Ember Pact")
    ap.add_argument("--blue", default="Glass Choir")
    ap.add_argument("--profile", action="store_true", help="also profile one battle at the largest size")
    args = ap.parse_args()
    sizes = [(int(s.split("@")[0]), int(s.split("@")[1]) if "@" in s else None) for s in args.sizes.split(",")]
    pairs = [p for p in PLAYERS if p[0] in args.players.split(",")]
    tmp = None
    if args.catalogues:
        folder = Path(args.catalogues)
    else:
        import full_size
        tmp = tempfile.TemporaryDirectory()
        folder = full_size.write(tmp.name)
    before = _baseline.measure()
    rows = []
    for n, points in sizes:
        for players in pairs:
            results = [one_battle(spec_of(folder, args.red, args.blue, n, players, seed, points))
                       for seed in range(1, args.battles + 1)]
            rows.append((f"{n:>2} units a side ({points or 100 * n} pts)", players, results))
    after = _baseline.measure()
    loop = _baseline.mean(before, after).python_s
    print(f"full-size battles ({args.red} v {args.blue}, deployed by the rules, 5 rounds), one core, "
          f"{counted(args.battles, 'battle')} each:")
    for n, players, rs in rows:
        refused = [r["refused"] for r in rs if "refused" in r]
        rs = [r for r in rs if "refused" not in r]
        if refused:
            print(f"  {n}, {players[0]} v {players[1]}: {counted(len(refused), 'battle')} stopped: {refused[0]}")
        if not rs:
            continue
        secs = [r["seconds"] for r in rs]
        med = statistics.median(secs)
        deploys = [s for r in rs for s in r["deploy"].values()]
        dep = statistics.median(deploys) if deploys else float("nan")
        print(f"  {n}, {players[0]} v {players[1]}: median {med:.2f} s a battle = "
              f"{1 / med:.3f} battles/s ({loop / med:.4f} battles per loop; range {min(secs):.2f}-{max(secs):.2f} s);"
              f" {statistics.median(r['models'] for r in rs):.0f} models in all, "
              f"{statistics.median(r['commands'] for r in rs):.0f} commands, rounds {sorted({r['rounds'] for r in rs})};"
              f" deploying one army {dep:.2f} s ({dep / loop:.0f} loops; range "
              f"{min(deploys):.2f}-{max(deploys):.2f} s)")
    print(_baseline.line(before, after))
    if args.profile:
        n, points = max(sizes, key=lambda s: (s[0], -(s[1] or 100 * s[0])))  # most units, fewest points
        spec = spec_of(folder, args.red, args.blue, n, pairs[0], 1, points)
        prof = cProfile.Profile()
        prof.enable()
        one_battle(spec)
        prof.disable()
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats(key).print_stats(25)
            print(f"profile, {n} units a side, {pairs[0][0]} v {pairs[0][1]}, by {key}:")
            print("\n".join(out.getvalue().splitlines()[4:34]))
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()

"""Benchmark: Battle.fork (sim.world.fork), the copy a search player plays forward and throws away.

Two battles, played by their default players to the middle of battle round 2 (an idle point):
the default battle (scenarios/battle_default.toml, 10 units a side) and a full-size one (20
units a side, 2,000 points, deployed by the rules: tools/make_armies.py armies from the invented
catalogues of tests/importers/full_size.py, as tests/bench/bench_full_size.py makes them). For
each, the median of ``--repeats`` of:

* fork: ``battle.fork()``; and closing it (``close``);
* replay: what a fork saves, a new Battle given the same commands and answers again up to that
  point (as a replay of the log does, without its checks);
* deepcopy: ``copy.deepcopy`` of the same state (the world's esper context, resources, turn
  state, changes, dice, visibility), the slow way to copy everything;

each also in loops of the pure-Python baseline measured in the same run, before and after
(tests/bench/_baseline.py), which reads the same on any machine.
Run: .venv/bin/python tests/bench/bench_fork.py [--repeats N] [--profile]
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import gc
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
import esper  # noqa: E402
import make_armies  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.commands import StartBattle  # noqa: E402
from sim.players.loop import make_player  # noqa: E402
from sim.scenario.load import load_scenario, parse_scenario  # noqa: E402


def full_size_spec(folder: Path, units: int = 20):
    data = tomllib.loads(make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=1,
                                              points=100 * units, units=units))
    data["mission"]["players"] = {"red": "default", "blue": "default"}
    data["battle"]["seed"] = 1
    return parse_scenario(data, "generated.toml")


def to_round_2(spec):
    """The battle played by its players to the middle of battle round 2 (its Movement phase
    done); returns it and what was played ((command, answers), to be played again)."""
    b = Battle(spec)
    ts = b.turn_state
    players = [make_player(k, s, b, spec) for s, k in enumerate(ts.mission.players)]
    script = []

    def run(command, answer):
        answers = []

        def rec(req):
            a = answer(req)
            answers.append(a)
            return a
        b.submit(command)
        b.resolve(rec)
        script.append((command, answers))

    run(StartBattle(), lambda req: players[req.player].answer(b, req))
    while not ts.over and not (ts.round == 2 and str(ts.phase) in ("shooting", "charge")):
        c = players[ts.chooser].choose(b)
        run(c.command, c.answer or (lambda req: players[req.player].answer(b, req)))
    return b, script


def replayed(spec, script) -> Battle:
    b = Battle(spec)
    for command, answers in script:
        it = iter(answers)
        b.submit(command)
        b.resolve(lambda req: next(it))
    return b


def deep_copied(b):
    """The battle's state deep-copied, its living models' cache started empty as a fork starts
    it (sim.world.fork: the cache holds shared read-only answers, e.g. a unit's shooting types
    as a MappingProxyType, which no deepcopy can copy)."""
    b._enter()
    esper.switch_world("default")  # (esper's table then holds the battle's current context)
    memo = {id(b): b, id(b.scenario): b.scenario, id(b.resources.spatial.living): {}}
    out = copy.deepcopy((esper._context_map[b.world], b.resources, b.turn_state, b.changes, b.dice,
                         b._visibility), memo)
    b._enter()
    return out


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.disable()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        gc.enable()
    return statistics.median(times)


def measure(name: str, spec, repeats: int) -> dict:
    b, script = to_round_2(spec)
    assert not b.busy
    forks = []

    def fork():
        forks.append(b.fork())

    def close():
        forks.pop().close()

    fork()  # (warm: the fork module imported)
    close()
    t_fork = timed(fork, repeats)
    for _ in range(repeats):
        fork()
    t_close = timed(close, repeats)
    while forks:
        forks.pop().close()
    t_replay = timed(lambda: replayed(spec, script).close(), max(1, repeats // 10))
    t_deep = timed(lambda: deep_copied(b), max(1, repeats // 10))
    row = {"name": name, "models": len(b.models), "units": len(b.units), "commands": len(script),
           "round": f"{b.turn_state.round} {b.turn_state.phase}", "fork": t_fork, "close": t_close,
           "replay": t_replay, "deepcopy": t_deep}
    b.close()
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--profile", action="store_true", help="also profile 200 forks of the full-size battle")
    args = ap.parse_args()
    import full_size
    tmp = tempfile.TemporaryDirectory()
    folder = full_size.write(tmp.name)
    specs = [("battle_default (10 a side)", load_scenario(ROOT / "scenarios/battle_default.toml")),
             ("full size (20 a side, 2,000 pts)", full_size_spec(Path(folder)))]
    before = _baseline.measure()
    rows = [measure(name, spec, args.repeats) for name, spec in specs]
    after = _baseline.measure()
    loop = _baseline.mean(before, after).python_s
    print(f"Battle.fork, median of {args.repeats} (replay, deepcopy: of {max(1, args.repeats // 10)}), one core:")
    for r in rows:
        print(f"  {r['name']}: {r['units']} units, {r['models']} models, at round {r['round']} "
              f"after {r['commands']} commands")
        for key, what in (("fork", "fork"), ("close", "close the fork"), ("replay", "replay to there"),
                          ("deepcopy", "deepcopy of the state")):
            s = r[key]
            print(f"    {what:<22} {s * 1e3:9.3f} ms = {s / loop:8.4f} loops"
                  + ("" if key == "fork" else f" ({s / r['fork']:7.1f} x fork)"))
    print(_baseline.line(before, after))
    if args.profile:
        b, _ = to_round_2(specs[1][1])
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(200):
            b.fork().close()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print("\n".join(out.getvalue().splitlines()[4:34]))
        b.close()
    tmp.cleanup()


if __name__ == "__main__":
    main()

"""`sim stats`: many seeds of one scenario's script, summarised per unit; the same summary for
any number of processes; bad arguments get a clear message and exit status 2."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from sim.cli import main
from sim.scenario.load import load_scenario
from sim.analysis.stats import run_many, run_seed, stopped_early, summarise

# One model with six BS4+ S4 AP0 D1 attacks at a T4 model with no save and wounds to spare:
# each attack wounds with probability 1/2 * 1/2, so wounds lost per run ~ Binomial(6, 1/4).
GUNNER = """
[battle]
name = "Six shots"
seed = 100
board = [60, 44]

[weapons.gun]
range = 24
A = 6
BS = 4
S = 4
AP = 0
D = 1

[[armies]]
name = "A"
[[armies.units]]
id = "gunner"
models = [{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, weapons = ["gun"], at = [[10, 10]] }]

[[armies]]
name = "B"
[[armies.units]]
id = "wall"
models = [{ M = 6, T = 4, Sv = 7, W = 100, Ld = 6, OC = 1, at = [[20, 10]] }]

[[script]]
shoot = "gunner"
targets = { gun = "wall" }
"""


@pytest.fixture
def gunner(tmp_path) -> Path:
    path = tmp_path / "gunner.toml"
    path.write_text(GUNNER)
    return path


def test_wounds_lost_match_the_binomial_mean(gunner):
    """Mean wounds lost over 1,000 seeds is 6 x 1/4 = 1.5 within 4 standard errors
    (sd of one run sqrt(6 x 1/4 x 3/4) = 1.06, so the tolerance is 0.134)."""
    spec = load_scenario(str(gunner))
    results = run_many(spec, list(range(1000)), jobs=1)
    wall = summarise(spec, results)[1]
    tolerance = 4 * math.sqrt(6 * 0.25 * 0.75) / math.sqrt(1000)
    assert abs(wall.wounds_lost_mean - 1.5) < tolerance
    assert wall.destroyed_mean == 0 and wall.wiped_out == 0


def test_the_summary_is_the_same_for_any_number_of_processes(gunner):
    spec = load_scenario(str(gunner))
    seeds = list(range(7, 47))
    one = run_many(spec, seeds, jobs=1)
    two = run_many(spec, seeds, jobs=2)
    assert one == two
    assert [r.seed for r in two] == seeds


def test_a_run_is_its_seed(gunner):
    spec = load_scenario(str(gunner))
    assert run_seed(spec, 3) == run_seed(spec, 3)
    assert len({run_seed(spec, s).wounds_lost for s in range(20)}) > 1  # the seed matters


def test_runs_the_rules_refuse_partway_are_counted_and_reported(tmp_path):
    """The wall shoots first and may destroy the gunner: in those runs the gunner's scripted
    shot is refused, the run stops there, and the summary says how often."""
    text = (GUNNER.replace('Sv = 3, W = 2', 'Sv = 7, W = 2')
            .replace('W = 100, Ld = 6, OC = 1, at', 'W = 100, Ld = 6, OC = 1, weapons = ["gun"], at')
            .replace('shoot = "gunner"\ntargets = { gun = "wall" }',
                     'shoot = "wall"\ntargets = { gun = "gunner" }\n\n[[script]]\nend_turn = true\n\n'
                     '[[script]]\nshoot = "gunner"\ntargets = { gun = "wall" }'))
    path = tmp_path / "duel.toml"
    path.write_text(text)
    spec = load_scenario(str(path))
    results = run_many(spec, list(range(200)), jobs=1)
    stops = stopped_early(results)
    dead = [r for r in results if r.destroyed[0] == 1]
    assert len(stops) == 1 and "unit gunner is destroyed" in stops[0][0]
    assert stops[0][1] == len(dead) > 0  # exactly the runs in which the gunner died
    assert all(r.wounds_lost[1] == 0 for r in dead)  # ... and it never fired


def test_cli_prints_a_table_and_json(gunner, capsys):
    assert main(["stats", str(gunner), "--runs", "20", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "20 runs" in out and "wall" in out and "wounds lost" in out
    assert main(["stats", str(gunner), "--runs", "20", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runs"] == 20 and [u["id"] for u in data["units"]] == ["gunner", "wall"]


@pytest.mark.parametrize("args, fragment", [
    (["--runs", "0"], "--runs: expected a whole number of runs from 1 to 1,000,000,000, found 0"),
    (["--jobs", "0"], "--jobs: expected a whole number of processes from 1 to 256, found 0"),
])
def test_cli_bad_arguments(gunner, capsys, args, fragment):
    assert main(["stats", str(gunner), *args]) == 2
    assert fragment in capsys.readouterr().err


def test_cli_bad_scenario(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[[[")
    assert main(["stats", str(path), "--runs", "3"]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "Traceback" not in err


def _reference_summary(spec, results):
    """The summary as it was first written: sorted lists, float sums, percentiles by index."""
    n = len(results)
    out = []
    for k, us in enumerate(spec.units):
        d = sorted(r.destroyed[k] for r in results)
        mean = sum(d) / n
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in d) / (n - 1))
        pct = [d[max(1, math.ceil(q * n)) - 1] for q in (0.1, 0.5, 0.9)]
        out.append((mean, sd, sum(1 for x in d if x == len(us.models)) / n, pct,
                    sum(r.wounds_lost[k] for r in results) / n))
    return out


def test_the_tally_agrees_with_sorting_every_result():
    """The running tally (integers and a histogram) gives the percentiles and shares a sorted
    list of every result gives, and the standard deviation to within rounding."""
    spec = load_scenario(str(Path(__file__).resolve().parents[2] / "scenarios/anti_vehicle.toml"))
    results = run_many(spec, list(range(300)), jobs=1)
    ref = _reference_summary(spec, results)
    for got, (mean, sd, wiped, pct, lost) in zip(summarise(spec, results), ref):
        assert got.destroyed_mean == mean and got.wiped_out == wiped and got.wounds_lost_mean == lost
        assert [got.destroyed_p10, got.destroyed_p50, got.destroyed_p90] == pct
        assert got.destroyed_sd == pytest.approx(sd, rel=1e-12, abs=1e-15)
    assert any(u.destroyed_sd > 0 for u in summarise(spec, results))


def test_seeds_are_never_listed(gunner, monkeypatch):
    """A billion runs start at once (no list of a billion seeds): the first result comes
    straight away; more than the maximum is the one-line error."""
    from sim.analysis.stats import MAX_RUNS, iter_runs
    spec = load_scenario(str(gunner))
    runs = iter_runs(spec, 5, MAX_RUNS, jobs=1)
    assert next(runs).seed == 5 and next(runs).seed == 6
    runs.close()


def test_cli_runs_above_the_maximum(gunner, capsys):
    assert main(["stats", str(gunner), "--runs", "1000000001"]) == 2
    err = capsys.readouterr().err
    assert err == "sim: --runs: expected a whole number of runs from 1 to 1,000,000,000, found 1000000001\n"


def _without_elapsed(out: str) -> str:
    """The JSON summary without its one line that changes run to run (the elapsed time)."""
    lines = out.splitlines(keepends=True)
    assert sum('"elapsed_s"' in line for line in lines) == 1
    return "".join(line for line in lines if '"elapsed_s"' not in line)


def test_json_is_byte_identical_for_any_number_of_processes(gunner, capsys):
    assert main(["stats", str(gunner), "--runs", "40", "--jobs", "1", "--json"]) == 0
    one = _without_elapsed(capsys.readouterr().out)
    assert main(["stats", str(gunner), "--runs", "40", "--jobs", "2", "--json"]) == 0
    assert _without_elapsed(capsys.readouterr().out) == one


def test_stats_memory_does_not_grow_with_the_runs(capsys):
    """`sim stats` keeps a running tally, not every result: with the collector off, the heap
    after 200 runs holds no more tracked objects than after 50."""
    import gc
    path = str(Path(__file__).resolve().parents[2] / "scenarios/anti_vehicle.toml")
    assert main(["stats", path, "--runs", "5", "--jobs", "1"]) == 0  # (warmed up)
    counts = []
    gc.collect()
    gc.disable()
    try:
        for runs in (50, 200):
            from sim.analysis.stats import Tally, iter_runs
            spec = load_scenario(path)
            tally = Tally(spec)
            for r in iter_runs(spec, 0, runs, jobs=1):
                tally.add(r)
            tally.summary()
            del spec, r
            counts.append(len(gc.get_objects()))
            del tally
    finally:
        gc.enable()
    assert counts[1] - counts[0] < 100, counts


def test_stats_of_battles_with_a_mission_count_results_and_vp_the_same_in_workers():
    """26: a battle with a mission adds wins and VP to the tally; workers play it with the
    players chosen on the command line (--red/--blue), as one process does."""
    from sim.analysis.stats import Tally, iter_runs, with_players
    spec = with_players(load_scenario(Path(__file__).resolve().parents[2] / "scenarios/battle_random.toml"), ("default", "random"))
    one = Tally(spec).add_all(iter_runs(spec, 3, 4, jobs=1)).outcomes()
    two = Tally(spec).add_all(iter_runs(spec, 3, 4, jobs=2)).outcomes()
    assert one == two and one["battles"] == 4
    assert one["red"] + one["blue"] + one["draw"] == 1.0
    assert one["red_vp_mean"] > one["blue_vp_mean"]  # (the default player beats the random one)


def test_workers_play_the_scenario_the_parent_loaded_not_its_file_again(tmp_path):
    """`sim stats --jobs 2`: the workers are sent the scenario the parent loaded and checked.
    They loaded it again from its file, so a file changed meanwhile gave a traceback (a
    ScenarioError that could not be unpickled) or, worse, another battle than the one tallied."""
    import pickle
    import shutil
    from pathlib import Path

    from sim.analysis.stats import iter_runs
    from sim.errors import ScenarioError
    from sim.scenario.load import load_scenario
    src = Path(__file__).resolve().parents[2] / "scenarios" / "abilities_dice.toml"
    copy = tmp_path / "s.toml"
    shutil.copy(src, copy)
    spec = load_scenario(copy)
    copy.write_text("garbage = [")  # (changed after the parent's check)
    alone = [r for r in iter_runs(spec, 1, 6, jobs=1)]
    assert [r for r in iter_runs(spec, 1, 6, jobs=2)] == alone
    e = ScenarioError("f.toml", "a.b", "a thing", "another")
    assert str(pickle.loads(pickle.dumps(e))) == str(e)

"""Issue 25: every numeric option of every subcommand is bounded (sim.options), and every command
that takes a seed accepts one range, the replay log's (sim.rules.dice.SEED_LIMIT): anything else
is one line naming the option, exit status 2, before any work."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main
from sim.rules.dice import SEED_LIMIT
from sim.scenario.load import MAX_INT

ROOT = Path(__file__).resolve().parents[2]
SMALL = str(ROOT / "scenarios/hazard_shooting.toml")
LIBRARY = str(ROOT / "assets/unit_library.toml")
TOP = str(SEED_LIMIT)


def one_line(capsys, option: str) -> str:
    err = capsys.readouterr().err
    assert err.startswith("sim: ") and err.count("\n") == 1 and option in err, err
    assert "\x1b" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize("argv, option", [
    *[(["matrix", LIBRARY, LIBRARY, "--range", v], "--range")
      for v in ("inf", "1e308", "nan", "-1", "1e400", "1001", "0x10", "12in", "9" * 5000)],
    *[([cmd, SMALL, *extra, "--seed", v], "--seed")
      for cmd, extra in (("run", ["--quiet"]), ("play", ["--headless"]), ("odds", ["--step", "1"]),
                         ("stats", ["--runs", "1", "--jobs", "1", "--quiet"]))
      for v in (str(2**63), str(-2**63), "1180591620717411303424", "1e3", "nan", "2.5")],
    *[(["stats", SMALL, "--runs", v, "--jobs", "1", "--quiet"], "--runs") for v in ("0", "-1", "10" * 8, "1e3", "many")],
    *[(["stats", SMALL, "--runs", "2", "--jobs", v, "--quiet"], "--jobs") for v in ("0", "-3", "nan", "257")],
    *[(["odds", SMALL, "--step", "1", "--runs", v], "--runs") for v in ("-1", "1000001", "1" + "0" * 30, "inf")],
    *[(["odds", SMALL, "--step", v], "--step") for v in ("0", "-1", str(2**63), "1.5")],
    *[(["import", "datasheet", "x.cat", "y", "--models", v], "--models") for v in ("0", "201", str(2**70), "nan")],
    (["import", "roster", "x.json", "--seed", str(2**63)], "--seed"),
])
def test_a_numeric_option_out_of_its_range_is_one_line_and_status_2(capsys, argv, option):
    assert main(argv) == 2
    one_line(capsys, option)


def test_argparse_own_errors_are_one_escaped_line(capsys):
    assert main(["run", SMALL, "--\x1b[31mevil"]) == 2
    one_line(capsys, "unrecognized arguments")
    assert main(["stats", SMALL, "--runs", "\x1b[2J5"]) == 2
    one_line(capsys, "--runs")


def test_one_seed_range_the_scenario_file_and_the_log_share():
    assert MAX_INT == SEED_LIMIT == 2**63 - 1


def test_the_top_seed_runs_and_its_log_replays(tmp_path, capsys):
    """`sim run --seed 1180591620717411303424` used to write a log `sim replay` refused; the
    range's ends are now what both take."""
    for seed in (TOP, str(-SEED_LIMIT)):
        log = tmp_path / f"{seed}.jsonl"
        assert main(["run", SMALL, "--quiet", "--seed", seed, "--log", str(log)]) == 0
        assert main(["replay", str(log), "--scenario", SMALL]) == 0
        assert "verified" in capsys.readouterr().out


def test_stats_refuses_a_first_seed_whose_runs_pass_the_top(capsys, tmp_path):
    assert main(["stats", SMALL, "--runs", "2", "--jobs", "1", "--quiet", "--seed", TOP]) == 2
    err = one_line(capsys, "--seed")
    assert f"at most {SEED_LIMIT - 1} for 2 runs" in err
    top = tmp_path / "top.toml"
    top.write_text(Path(SMALL).read_text().replace("seed = ", f"seed = {TOP} #", 1))
    assert main(["stats", str(top), "--runs", "3", "--jobs", "1", "--quiet"]) == 2
    assert "the scenario's seed: expected a first seed of at most" in one_line(capsys, str(top))
    assert main(["stats", SMALL, "--runs", "1", "--jobs", "1", "--quiet", "--json", "--seed", TOP]) == 0
    assert f"{SEED_LIMIT}" in capsys.readouterr().out


def test_matrix_refuses_a_range_that_is_not_finite_when_called_directly():
    from sim.analysis.matrix import matrix
    from sim.errors import ScenarioError
    from sim.scenario.load import load_scenario
    lib = load_scenario(LIBRARY)
    for bad in (float("inf"), float("nan"), 1e308, -1.0):
        with pytest.raises(ScenarioError, match="range: expected a distance in inches from 0 to 1000"):
            matrix(lib, lib, bad)

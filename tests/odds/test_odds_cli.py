"""`sim odds`, `sim matrix` and the new `sim stats` options from the command line: output,
JSON, plots, and bad input as the project's one-line error with exit status 2."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = str(ROOT / "scenarios/default.toml")
LIBRARY = str(ROOT / "assets/unit_library.toml")


def test_odds_step_prints_expectations_and_at_least_table(capsys):
    assert main(["odds", DEFAULT, "--step", "3"]) == 0
    out = capsys.readouterr().out
    assert "step 3 (script[2])" in out and "Warden Retinue shoots rifle -> Raider Sharpshooters" in out
    assert "exact (float64" in out and "at least k" in out and "models destroyed 1.33 +- 1.05" in out


def test_odds_json_and_plot(tmp_path, capsys):
    png, svg = tmp_path / "o.png", tmp_path / "o.svg"
    assert main(["odds", DEFAULT, "--step", "1", "--json", "--plot", str(png)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "exact" and doc["where"] == "step 1 (script[0])"
    t = doc["targets"][0]
    assert abs(sum(t["models_destroyed"]["p"]) - 1) < 1e-12
    assert t["models_destroyed"]["at_least"][0] == pytest.approx(1.0)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["odds", DEFAULT, "--unit", "gunners", "--target", "seer", "--plot", str(svg)]) == 0
    assert b"<svg" in svg.read_bytes()[:400]


def test_odds_in_a_battle_with_a_mission(capsys):
    """The step is reached by playing the battle (its players) up to it."""
    assert main(["odds", str(ROOT / "scenarios/objective_contested.toml"), "--step", "3"]) == 0
    assert "Warden Squad shoots rifle -> Raider Mob" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--step", "5"], "scenarios/default.toml: --step 5: expected a shoot or fight step, or one whose resolution "
                      "includes a shooting (Fire Overwatch, 15.08), found end turn (script[4])"),
    (["--step", "99"], "--step 99: expected a script step from 1 to 10, found 99"),
    (["--unit", "gunners", "--target", "squad"], "--target: expected an enemy unit of Warden Gun Team, found "
                                                 "Warden Squad, a friendly unit"),
    (["--unit", "nobody", "--target", "squad"], '--unit: expected a unit\'s name or id: "Warden Retinue", '),
    (["--unit", "gunners"], "expected --unit A --target B together, found only --unit"),
    ([], "expected --step N, or --unit A --target B, found neither"),
    (["--step", "1", "--plot", "x.pdf"], "--plot: expected a file name ending .png or .svg, found x.pdf"),
])
def test_odds_bad_input_is_one_line_and_status_2(capsys, args, message):
    assert main(["odds", DEFAULT, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sim: ") and err.count("\n") == 1 and message in err, err


def test_odds_refused_attack(tmp_path, capsys):
    """A step the rules refuse at that moment is the one-line error with the rules' reason."""
    text = (ROOT / "scenarios/default.toml").read_text()
    bad = tmp_path / "far.toml"
    bad.write_text(text.replace('[weapons."heavy rifle"]\nrange = 36', '[weapons."heavy rifle"]\nrange = 1'))
    assert main(["odds", str(bad), "--step", "1"]) == 2
    err = capsys.readouterr().err
    assert "--step 1: expected an attack the rules accept, found: Gunner 1 heavy rifle -> Raider Seer" in err
    assert err.count("\n") == 1


def test_matrix_csv_and_heatmap(tmp_path, capsys):
    out_csv, out_png = tmp_path / "m.csv", tmp_path / "m.png"
    assert main(["matrix", LIBRARY, LIBRARY, "--range", "12", "--cover", "--csv", str(out_csv),
                 "--plot", str(out_png)]) == 0
    text = capsys.readouterr().out
    assert "in cover" in text and "marksmen" in text
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 36 and {r["attacker"] for r in rows} == {"line", "marksmen", "command", "brutes",
                                                                  "walker", "adept"}
    marks = next(r for r in rows if r["attacker"] == "marksmen" and r["defender"] == "line")
    assert 0 < float(marks["expected_models_destroyed"]) <= 9 and 0 <= float(marks["p_wipe"]) <= 1
    assert next(r for r in rows if r["attacker"] == "brutes")["note"] == "no ranged weapon"
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_matrix_cover_lowers_the_damage():
    from sim.analysis.matrix import matrix
    from sim.scenario.load import load_scenario
    lib = load_scenario(LIBRARY)
    open_, covered = matrix(lib, lib, 12, False)[1][0], matrix(lib, lib, 12, True)[1][0]
    assert covered.destroyed < open_.destroyed


@pytest.mark.parametrize("args, message", [
    (["--range", "-1"], "--range: expected a distance in inches from 0 to 1000, found -1"),
    (["--plot", "m.gif"], "--plot: expected a file name ending .png or .svg, found m.gif"),
])
def test_matrix_bad_input(capsys, args, message):
    assert main(["matrix", LIBRARY, LIBRARY, *args]) == 2
    assert message in capsys.readouterr().err


def test_stats_json_has_sd_of_wounds_lost_and_elapsed_time_and_plot(tmp_path, capsys):
    png = tmp_path / "s.png"
    assert main(["stats", str(ROOT / "scenarios/anti_vehicle.toml"), "--runs", "30", "--jobs", "1", "--json",
                 "--plot", str(png)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["elapsed_s"] > 0
    tank = next(u for u in doc["units"] if u["id"] == "tank")
    assert tank["wounds_lost_sd"] > 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_stats_bad_backend_options(capsys):
    assert main(["stats", DEFAULT, "--runs", "2", "--address", "1.2.3.4:6379"]) == 2
    assert "--address: expected it with --backend ray" in capsys.readouterr().err


def test_odds_deadly_demise_by_the_battle_itself(capsys):
    """24.08 is not in the exact chain: where it can change the losses, they come from runs of
    the battle itself (said in the output); --runs 0 keeps the exact odds and says what they
    leave out."""
    path = str(ROOT / "scenarios/abilities_defence.toml")
    assert main(["odds", path, "--step", "8", "--runs", "150", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "monte carlo" and doc["runs"] == 150
    assert "Monte Carlo of the battle itself (150 runs" in doc["notes"][0]
    assert doc["hazard"]["wounds_lost"]["mean"] > 0  # (the trukk's explosions reach the attacker)
    assert main(["odds", path, "--step", "8", "--runs", "0"]) == 0
    out = capsys.readouterr().out
    assert "exact (float64" in out and "not included: Deadly Demise (24.08) of Raider Trukk's models" in out


# --- units by name (issue 28 item 1: ids only where a machine reads them) -----------------------
BATTLE = str(ROOT / "scenarios/battle_default.toml")


def test_odds_takes_names_and_prints_names_only(capsys):
    """--unit/--target take a unit's name, case-insensitive, as well as its id; the text names
    units and models (no id in it), --json keeps the ids."""
    assert main(["odds", DEFAULT, "--unit", "warden gun team", "--target", "RAIDER SEER"]) == 0
    by_name = capsys.readouterr().out
    assert main(["odds", DEFAULT, "--unit", "gunners", "--target", "seer"]) == 0
    assert capsys.readouterr().out == by_name
    assert "Warden Gun Team shoots heavy rifle -> Raider Seer" in by_name and "  Raider Seer, 1 model" in by_name
    import re
    assert not re.search(r"(?<![\w-])(gunners|seer)(?![\w-])", by_name), by_name
    assert main(["odds", DEFAULT, "--unit", "Warden Gun Team", "--target", "Raider Seer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [t["unit"] for t in doc["targets"]] == ["seer"]


def test_odds_a_shared_name_as_the_sandbox_numbers_it(capsys):
    """"Raider Mob (2)" is r-squad2 (sim.names' numbering, the sandbox's); a refusal names
    models and units by their names."""
    assert main(["odds", BATTLE, "--unit", "raider mob (2)", "--target", "Warden Squad (2)"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Raider 1 of Raider Mob (2)" in err and "Warden Squad (2)" in err, err
    assert "r-squad2" not in err and "w-squad2" not in err


@pytest.mark.parametrize("args, message", [
    (["--unit", "raider mob", "--target", "w-squad2"],
     '--unit: expected one of "Raider Mob (1)", "Raider Mob (2)", "Raider Mob (3)" (3 units are called that), '
     'found "raider mob"'),
    (["--unit", "r-squad2", "--target", "Warden Squad (9)"], '--target: expected a unit\'s name or id: "Warden Retinue", '),
])
def test_odds_an_unknown_or_ambiguous_name_lists_the_choices(capsys, args, message):
    assert main(["odds", BATTLE, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err

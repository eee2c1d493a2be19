"""`sim ladder`: the schedule (every pair, every seed, both ways), the numbers against values
worked by hand (Wilson interval, t interval, Elo), the same table for any number of processes,
a ladder battle's log replays, and bad input refused with one line and exit status 2."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from sim.cli import main
from sim.analysis import ladder as LD
from sim.analysis.ladder import Game, GameResult, Ladder, Tally, elo, game_at, mean_interval, wilson
from sim.analysis.stats import with_players
from sim.replay.log import replay
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """The five-a-side random battle cut to two battle rounds (a battle takes a fraction of a
    second; the first round scores nothing, so two are needed for results other than draws)."""
    text = (ROOT / "scenarios" / "battle_random.toml").read_text()
    assert '\nfirst = "roll-off"\n' in text
    path = tmp_path_factory.mktemp("ladder") / "tiny.toml"
    path.write_text(text.replace('\nfirst = "roll-off"\n', '\nfirst = "roll-off"\nrounds = 2\n', 1))
    return path


# -- the schedule -----------------------------------------------------------------------------

def test_every_pair_plays_every_seed_both_ways_on_every_scenario():
    players, battles, firsts = 3, 2, (10, 50)
    total = LD.games_total(2, players, battles)
    assert total == 2 * 3 * 2 * 2
    games = [game_at(k, players, battles, firsts) for k in range(total)]
    assert [g.index for g in games] == list(range(total))
    seen = Counter((g.scenario, g.red, g.blue, g.seed) for g in games)
    assert set(seen.values()) == {1}  # no game twice
    for s, first in enumerate(firsts):
        for i, j in [(0, 1), (0, 2), (1, 2)]:
            for seed in (first, first + 1):
                assert seen[(s, i, j, seed)] == 1 and seen[(s, j, i, seed)] == 1  # both ways
    # the order: scenario, pair, seed, then the swap
    assert [(g.scenario, g.red, g.blue, g.seed) for g in games[:6]] == [
        (0, 0, 1, 10), (0, 1, 0, 10), (0, 0, 1, 11), (0, 1, 0, 11), (0, 0, 2, 10), (0, 2, 0, 10)]
    assert games[12] == Game(12, 1, 0, 1, 50)


def test_player_names_pass_through_with_their_parameter():
    kinds = ("default", "random", "search")
    names = LD.parse_players(" default , search:0.5,search:2", kinds)
    assert names == ("default", "search:0.5", "search:2")
    spec = with_players(load_scenario(str(ROOT / "scenarios" / "battle_default.toml")), names[:2])
    assert spec.mission.players == ("default", "search:0.5")


@pytest.mark.parametrize("text, fragment", [
    ("default", "two players or more"),
    ("default,bogus", "'bogus'"),
    ("default,default", "'default' twice"),
    ("default,,random", "comma-separated"),
    ("default,scripted", "'scripted'"),
    ("default,random:3", "no parameter for random"),
    ("default,search:fast", "expected search:NUMBER, a budget"),
    ("default,search:-1", "expected search:NUMBER, a budget"),
    ("default,search:nan", "expected search:NUMBER, a budget"),
])
def test_bad_player_lists_are_refused(text, fragment):
    with pytest.raises(LD.LadderError, match=fragment):
        LD.parse_players(text, ("default", "random", "search"))


# -- the numbers, worked by hand ----------------------------------------------------------------

def test_wilson_interval_against_hand_worked_values():
    # 2 of 4 (say 1 win, 2 draws, 1 loss): centre 1/2, half-width
    # 1.96 / (1 + 1.96^2/4) * sqrt(1/16 + 1.96^2/64) = 0.99980 * 0.35003 = 0.34996
    lo, hi = wilson(2, 4)
    assert lo == pytest.approx(0.15004, abs=1e-4) and hi == pytest.approx(0.84996, abs=1e-4)
    # 10 of 10: (1 + 1.96^2/20) / (1 + 1.96^2/10) -+ 1.96 / 1.38415 * sqrt(1.96^2/400) = 0.86123 -+ 0.13877
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.72247, abs=1e-4) and hi == pytest.approx(1.0)
    assert wilson(0, 10) == pytest.approx((0.0, 1 - 0.72247), abs=1e-4)  # (the mirror image)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_is_students_t():
    # 1, 2, 3, 4: mean 2.5, sd sqrt(5/3) = 1.29099, t(3) = 3.182: 2.5 -+ 3.182 * 1.29099 / 2
    mean, lo, hi = mean_interval(10, 30, 4)
    assert mean == 2.5 and lo == pytest.approx(2.5 - 2.05397, abs=1e-4) and hi == pytest.approx(4.55397, abs=1e-4)
    assert LD.t975(1) == 12.706 and LD.t975(30) == 2.042
    assert LD.t975(60) == pytest.approx(2.0003, abs=1e-3)  # (the tables' 2.000)
    assert mean_interval(7, 49, 1) == (7.0, 7.0, 7.0)


def test_elo_against_hand_worked_values():
    # 3 wins, 1 loss, and the virtual draw: 3.5 of 5, so 10^(d/400) = 3.5/1.5, d = 147.19
    a, b = elo([[0, 3], [1, 0]], [[0, 4], [4, 0]])
    assert (a, b) == (pytest.approx(1500 + 73.595, abs=1e-3), pytest.approx(1500 - 73.595, abs=1e-3))
    # unbeaten, 4 of 4: finite through the virtual draw: 4.5 of 5, d = 400 log10 9 = 381.70
    a, b = elo([[0, 4], [0, 0]], [[0, 4], [4, 0]])
    assert a - b == pytest.approx(381.697, abs=1e-3) and a + b == pytest.approx(3000)
    # a cycle (each beats the next twice): all equal
    assert elo([[0, 2, 0], [0, 0, 2], [2, 0, 0]], [[0, 2, 2], [2, 0, 2], [2, 2, 0]]) == pytest.approx([1500] * 3)


def test_elo_is_the_maximum_likelihood_every_players_expected_score_is_its_score():
    score = [[0, 7, 9.5], [3, 0, 6], [0.5, 4, 0]]
    games = [[0, 10, 10], [10, 0, 10], [10, 10, 0]]
    r = elo(score, games)
    assert sum(r) / 3 == pytest.approx(1500)
    assert r[0] > r[1] > r[2]
    for i in range(3):  # the likelihood's gradient is zero: expected = actual (virtual draws too)
        expected = sum((games[i][j] + 1) * LD.expected_score(r[i], r[j]) for j in range(3) if j != i)
        actual = sum(score[i][j] + 0.5 for j in range(3) if j != i)
        assert expected == pytest.approx(actual, abs=1e-9)


def test_the_tally_counts_each_game_from_the_first_players_side(tiny):
    spec = load_scenario(str(tiny))
    lad = Ladder((spec,), (str(tiny),), ("default", "random"), 2, (5,))
    t = Tally(lad)
    t.add(GameResult(Game(0, 0, 0, 1, 5), "red", (10, 4)))  # default red wins by 6
    t.add(GameResult(Game(1, 0, 1, 0, 5), "red", (8, 5)))  # random red wins by 3
    t.add(GameResult(Game(2, 0, 0, 1, 6), "draw", (7, 7)))
    t.add(GameResult(Game(3, 0, 1, 0, 6), "blue", (2, 12)))  # default blue wins by 10
    p = t.pair(0, 1).summary()
    assert (p["wins"], p["draws"], p["losses"], p["games"]) == (2, 1, 1, 4)
    assert p["score"] == 2.5 / 4 and p["vp_margin"] == (6 - 3 + 0 + 10) / 4
    q = t.pair(1, 0).summary()
    assert (q["wins"], q["losses"], q["vp_margin"]) == (1, 2, -p["vp_margin"])
    t.add(GameResult(Game(0, 0, 0, 1, 7), None, stopped="a refusal"))
    assert t.pair(0, 1).stopped == 1 and t.pair(0, 1).games == 4 and t.stops == {"a refusal": 1}
    assert t.stopped_lines() == [f"not played out in 1 battle (first: {tiny} seed 7, default red v random blue): "
                                 f"a refusal"]


# -- the command ------------------------------------------------------------------------------------

def _json(out: str) -> dict:
    doc = json.loads(out)
    assert doc.pop("elapsed_s") >= 0
    return doc


def test_the_same_table_for_any_number_of_processes(tiny, capsys):
    args = ["ladder", str(tiny), "--players", "default,random", "--battles", "2", "--seed", "3", "--quiet"]
    assert main([*args, "--jobs", "1", "--json"]) == 0
    one = _json(capsys.readouterr().out)
    assert main([*args, "--jobs", "2", "--json"]) == 0
    assert _json(capsys.readouterr().out) == one
    assert one["total"] == 4 and one["scenarios"][0]["seeds"] == [3, 4]
    pair = one["all"]["pairs"][0]
    assert pair["players"] == ["default", "random"] and pair["games"] + pair["stopped"] == 4
    assert set(one["all"]["elo"]) == {"default", "random"}
    assert main([*args, "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "default v random: " in text and "Wilson" in text and "virtual draw" in text
    assert main([*args, "--jobs", "1", "--markdown"]) == 0
    md = capsys.readouterr().out
    assert "| row v column | default | random | Elo |" in md


def test_every_ladder_battle_writes_a_log_that_replays(tiny, tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(["ladder", str(tiny), "--players", "default,random", "--battles", "1", "--jobs", "1",
                 "--quiet", "--logs", str(logs)]) == 0
    names = sorted(p.name for p in logs.iterdir())
    assert names == ["tiny-seed29-default-v-random.jsonl", "tiny-seed29-random-v-default.jsonl"]
    for name in names:
        n, divergence = replay(logs / name, tiny)
        assert divergence is None and n > 0
    assert main(["replay", str(logs / names[1]), "--scenario", str(tiny)]) == 0
    assert "verified" in capsys.readouterr().out


def test_the_plot_is_written(tiny, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ladder.svg"
    assert main(["ladder", str(tiny), "--players", "default,random", "--battles", "1", "--jobs", "1",
                 "--quiet", "--plot", str(out)]) == 0
    assert out.read_text().lstrip().startswith("<?xml")


FREE_PLAY = """
[battle]
name = "No mission"
seed = 1
board = [60, 44]
[[armies]]
name = "A"
[[armies.units]]
id = "a"
models = [{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, at = [[10, 10]] }]
[[armies]]
name = "B"
[[armies.units]]
id = "b"
models = [{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, at = [[30, 10]] }]
"""


@pytest.mark.parametrize("extra, fragment", [
    (["--players", "default,bogus"], "expected players among"),
    (["--players", "default"], "two players or more"),
    (["--battles", "0"], "--battles: expected a whole number of seeds from 1"),
    (["--battles", "many"], "--battles"),
    (["--address", "1.2.3.4:6379"], "--address: expected it with --backend ray"),
    (["--plot", "out.pdf"], "--plot: expected a file name ending .png or .svg"),
    (["--json", "--markdown"], "found both"),
])
def test_bad_input_is_one_line_and_exit_status_2(tiny, capsys, extra, fragment):
    assert main(["ladder", str(tiny), "--players", "default,random", *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sim: ") and fragment in err


def test_a_scenario_without_a_mission_or_missing_is_refused(tiny, tmp_path, capsys):
    free = tmp_path / "free.toml"
    free.write_text(FREE_PLAY)
    assert main(["ladder", str(tiny), str(free), "--players", "default,random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected a [mission] table" in err
    assert main(["ladder", str(tmp_path / "nowhere.toml"), "--players", "default,random"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    logs = tmp_path / "a file"
    logs.write_text("")
    assert main(["ladder", str(tiny), "--players", "default,random", "--logs", str(logs)]) == 2
    assert "--logs: expected a folder" in capsys.readouterr().err


def test_run_explain_prints_each_explanation_before_the_report(tiny, capsys, monkeypatch):
    from sim.players import loop
    from sim.players.base import Weighed
    from sim.players.default import DefaultPlayer

    class Explaining(DefaultPlayer):
        kind = "default"

        def choose(self, battle):
            c = super().choose(battle)
            self.explain("a choice", "the first", [Weighed(f"option {k}", 4.0 - k, "pts") for k in range(4)])
            return c
    monkeypatch.setitem(loop.KINDS, "default", Explaining)
    assert main(["run", str(tiny), "--red", "default", "--blue", "random", "--explain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Wardens (default): a choice: the first\n")  # (the army and its player)
    assert "option 2" in out and "option 3" not in out  # the top three
    assert out.index("Wardens (default): a choice") < out.index("Random patrols")  # before the report
    assert "(random)" not in out  # the random player weighs nothing
    assert main(["run", str(tiny), "--red", "default", "--blue", "random"]) == 0
    assert "a choice" not in capsys.readouterr().out  # without --explain nobody listens


def test_the_full_size_ladder_scenario_is_made_from_the_invented_catalogues(tmp_path):
    """scenarios/ladder/full_size.toml (the README's full-size ladder) is tools/make_armies.py's
    output for the invented catalogues of tests/importers/full_size.py, word for word below its
    header: nothing in it comes from anywhere else, and a change to the army maker shows here."""
    import sys
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "importers")]
    try:
        import full_size
        import make_armies
    finally:
        del sys.path[:2]
    folder = full_size.write(tmp_path / "catalogues")
    made = make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=1, points=2000, units=20)
    kept = (ROOT / "scenarios" / "ladder" / "full_size.toml").read_text()
    assert kept[kept.index("\n[battle]"):] == made[made.index("\n[battle]"):]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_stops_a_ladder_with_one_line_and_no_worker_left():
    """As `sim stats` (tests/analysis/test_stats_signals.py): Ctrl-C, to the whole process
    group, ends the ladder and its workers with "sim: interrupted after N battles", status 130."""
    import os
    import re
    import signal
    import subprocess
    import sys

    from test_stats_signals import _alive, _children, _has_loaded, _wait_for, _workers
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "sim", "ladder", "scenarios/battle_default.toml",
                          "--players", "default,random", "--battles", "1000", "--jobs", "2"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        def workers():
            return _workers(p.pid)
        _wait_for(lambda: len(workers()) == 2 and all(_has_loaded(w) for w in workers()), "the workers to start")
        seen = _children(p.pid)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and re.fullmatch(r"sim: interrupted after \d+ battles", lines[0]), err
    _wait_for(lambda: not any(_alive(c) for c in seen), "the workers to end", limit=30)

"""`sim ladder --logs DIR --resume`: a battle whose replay log is already in the folder is read
from it, not played again. A ladder stopped part way goes on where it stopped; pieces played
apart (other seeds), their logs in one folder, give the same table as one run; a log that is not
that battle's, is cut short or is malformed is refused with one line and exit status 2, before
any battle is played."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sim.analysis import ladder as LD
from sim.cli import main
from sim.errors import LogError
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["--players", "default,random"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """The five-a-side random battle cut to two battle rounds (as tests/analysis/test_ladder.py)."""
    text = (ROOT / "scenarios" / "battle_random.toml").read_text()
    path = tmp_path_factory.mktemp("resume") / "tiny.toml"
    path.write_text(text.replace('\nfirst = "roll-off"\n', '\nfirst = "roll-off"\nrounds = 2\n', 1))
    return path


def _table(capsys) -> dict:
    doc = json.loads(capsys.readouterr().out)
    doc.pop("elapsed_s")
    return doc


def _other_digest(text: str) -> str:
    """The log with its header's scenario digest changed (a well-formed digest of another file)."""
    k = text.index('"digest":"') + len('"digest":"')
    return text[:k] + ("e" if text[k] == "f" else "f") + text[k + 1:]


def _ladder(tiny, logs, *extra) -> list[str]:
    return ["ladder", str(tiny), *PLAYERS, "--jobs", "1", "--quiet", "--json", "--logs", str(logs), *extra]


def test_pieces_played_apart_give_the_table_of_one_run(tiny, tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole"
    assert main(_ladder(tiny, whole, "--battles", "3", "--seed", "40")) == 0
    one_run = _table(capsys)
    pieces = tmp_path / "pieces"
    assert main(_ladder(tiny, pieces, "--battles", "1", "--seed", "40")) == 0
    assert main(_ladder(tiny, pieces, "--battles", "2", "--seed", "41")) == 0
    capsys.readouterr()
    # (each piece's logs are the whole run's, byte for byte: the same battles)
    assert sorted(p.name for p in pieces.iterdir()) == sorted(p.name for p in whole.iterdir())
    for p in whole.iterdir():
        assert (pieces / p.name).read_bytes() == p.read_bytes()
    played = []
    real_play = LD.Ladder.play

    def counting(self, k):
        if not (k < len(self.known) and self.known[k] is not None):
            played.append(k)
        return real_play(self, k)
    monkeypatch.setattr(LD.Ladder, "play", counting)
    assert main(_ladder(tiny, pieces, "--battles", "3", "--seed", "40", "--resume")) == 0
    assert played == [] and _table(capsys) == one_run


def test_a_stopped_ladder_plays_only_the_battles_without_a_log(tiny, tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(_ladder(tiny, logs, "--battles", "2", "--seed", "60")) == 0
    whole = _table(capsys)
    names = sorted(p.name for p in logs.iterdir())
    gone = logs / names[1]
    kept = gone.read_bytes()
    gone.unlink()   # (as if the ladder had been stopped before that battle)
    assert main(["ladder", str(tiny), *PLAYERS, "--jobs", "1", "--logs", str(logs), "--resume",
                 "--battles", "2", "--seed", "60"]) == 0
    out = capsys.readouterr()
    assert "resuming: 3 battles of 4 read from their logs" in out.err and "1 to play" in out.err
    assert "3 battles read from their logs" in out.out
    assert gone.read_bytes() == kept  # (the battle played again is the same battle)
    assert main(_ladder(tiny, logs, "--battles", "2", "--seed", "60", "--resume")) == 0
    assert _table(capsys) == whole


def test_a_log_of_a_battle_not_played_out_counts_as_not_played_out(tiny, tmp_path):
    spec = load_scenario(str(tiny))
    lad = LD.Ladder((spec,), (str(tiny),), ("default", "random"), 1, (7,), str(tmp_path))
    g = lad.game(0)
    path = LD.log_path(lad, g)
    assert lad.play(0).result is not None
    lines = path.read_text().splitlines()
    kept = [ln for ln in lines if '"type":"result"' not in ln]
    assert len(kept) == len(lines) - 1
    path.write_text("\n".join(kept) + "\n")
    r = LD.logged_result(path, g, spec)
    assert r.result is None and "did not end" in r.stopped


@pytest.mark.parametrize("spoil, fragment", [
    (lambda text: text.replace('"seed":7,', '"seed":8,', 1), "expected the log of seed 7, found seed 8"),
    (lambda text: _other_digest(text), "found one of another version"),
    (lambda text: "\n".join(text.splitlines()[:-1]) + "\n", "found it cut short"),
    (lambda text: re.sub(r'("type":"result","vp":\{"blue":)(\d+)', r'\1"\2"', text),
     "expected a result event with the winner"),
    (lambda text: text[:len(text) // 2], "line"),
    (lambda text: "[" * 100_000, "line 1"),
    (lambda text: "", "expected a sim-replay header, found an empty file"),
])
def test_a_log_that_is_not_that_battles_is_refused_with_one_line(tiny, tmp_path, capsys, spoil, fragment):
    logs = tmp_path / "logs"
    assert main(_ladder(tiny, logs, "--battles", "1", "--seed", "7")) == 0
    capsys.readouterr()
    path = sorted(logs.iterdir())[0]
    path.write_text(spoil(path.read_text()))
    before = {p.name: p.read_bytes() for p in logs.iterdir()}
    assert main(_ladder(tiny, logs, "--battles", "1", "--seed", "7", "--resume")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sim: ") and fragment in err and path.name in err
    assert {p.name: p.read_bytes() for p in logs.iterdir()} == before  # (nothing played, nothing written)


def test_resume_needs_the_logs_folder(tiny, capsys):
    assert main(["ladder", str(tiny), *PLAYERS, "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume: expected it with --logs" in err


def test_a_folder_in_the_place_of_a_log_is_refused(tiny, tmp_path, capsys):
    spec = load_scenario(str(tiny))
    lad = LD.Ladder((spec,), (str(tiny),), ("default", "random"), 1, (7,), str(tmp_path))
    LD.log_path(lad, lad.game(0)).mkdir()
    with pytest.raises(LogError, match="expected a regular file, found a folder"):
        LD.resumed(lad)

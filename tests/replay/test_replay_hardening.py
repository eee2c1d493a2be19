"""Hostile and damaged replay logs (issue 13): every mutation of a golden log is either a named
divergence (exit 1) or one line `LOG: line N: expected ..., found ...` (exit 2), never a
traceback, a hang or a silent "verified"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.errors import LogError, ScenarioError
from sim.replay.log import replay

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "scenarios/replays/default.jsonl"


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def golden() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines()]


def lines_of(recs) -> list[str]:
    return [dumps(r) for r in recs]


def block_end(recs, n) -> int:
    """Index after command n's hash record."""
    return next(i for i, r in enumerate(recs) if r["t"] == "hash" and r["n"] == n) + 1


def header(**change):
    def mutate(recs):
        recs[0].update(change)
        return lines_of(recs)
    return mutate


def drop_header_key(key):
    def mutate(recs):
        del recs[0][key]
        return lines_of(recs)
    return mutate


def cut_after(n):
    return lambda recs: lines_of(recs[:block_end(recs, n)])


def delete_block(n):
    def mutate(recs):
        start = block_end(recs, n - 1) if n else 1
        return lines_of(recs[:start] + recs[block_end(recs, n):])
    return mutate


def last_command():
    return max(r["n"] for r in golden() if r["t"] == "command")


def trailer(**change):
    def mutate(recs):
        recs[-1].update(change)
        return lines_of(recs)
    return mutate


def record(t, change=None, drop=None):
    """Change (or drop a field of) the first record of type ``t``."""
    def mutate(recs):
        r = next(r for r in recs if r["t"] == t)
        if change:
            r.update(change)
        if drop:
            del r[drop]
        return lines_of(recs)
    return mutate


# (id, mutation, "diverge" (exit 1) or "error" (exit 2), what the message must say)
CASES = [
    ("header only", lambda recs: lines_of(recs[:1]), "diverge", r"no trailer|end of log"),
    ("cut after command 4 of 10", cut_after(4), "diverge", r"no trailer"),
    ("last command block deleted", lambda recs: delete_block(last_command())(recs), "diverge", r"trailer"),
    ("cut inside command 0", lambda recs: lines_of(recs[:3]), "diverge", r"line 4 \(command 0\).*cut short, no trailer"),
    ("trailer removed", lambda recs: lines_of(recs[:-1]), "diverge", r"no trailer"),
    ("trailer count changed", trailer(commands=11), "diverge", r"trailer"),
    ("trailer hash changed", trailer(hash="0" * 16), "diverge", r"trailer"),
    ("header name changed", header(name="Something else"), "diverge", r"header"),
    # header, field by field
    ("seed 7.9", header(seed=2026.9), "error", r"line 1: expected 'seed' to be an integer seed from -9223372036854775807 to "
                                                  r"9223372036854775807, found a number 2026.9"),
    ("seed a string", header(seed="2026"), "error", r"line 1: expected 'seed' to be an integer"),
    ("seed -2**63", header(seed=-2**63), "error", r"line 1: expected 'seed' to be an integer seed from "),
    ("seed 2**63", header(seed=2**63), "error", r"line 1: expected 'seed' to be an integer seed from "),
    ("seed true", header(seed=True), "error", r"line 1: expected 'seed' to be an integer"),
    ("seed of 5000 digits", lambda recs: lines_of(recs)[:1] and [lines_of(recs)[0].replace(
        '"seed":2026', '"seed":' + "9" * 5000)] + lines_of(recs)[1:], "error", r"line 1: expected a JSON object"),
    ("no seed", drop_header_key("seed"), "error", r"line 1: expected a field 'seed'"),
    ("no scenario", drop_header_key("scenario"), "error", r"line 1: expected a field 'scenario'"),
    ("scenario a number", header(scenario=5), "error", r"line 1: expected 'scenario' to be a scenario path"),
    ("no digest", drop_header_key("digest"), "error", r"line 1: expected a field 'digest'"),
    ("digest a list", header(digest=[1]), "error", r"line 1: expected 'digest'"),
    ("name a list", header(name=["x"]), "error", r"line 1: expected 'name'"),
    ("version 2", header(version=2), "error", r"line 1: expected 'version' to be 1"),
    ("version true", header(version=True), "error", r"line 1: expected 'version' to be 1"),
    # records
    ("command without n", record("command", drop="n"), "error", r"line 2: expected a field 'n'"),
    ("command n a string", record("command", {"n": "0"}), "error", r"line 2: expected 'n'"),
    ("command renumbered", record("command", {"n": 3}), "error", r"line 2: expected command number 0"),
    ("command a string", record("command", {"command": "shoot"}), "error", r"line 2: expected 'command' to be an object"),
    ("command of no kind", record("command", {"command": {"unit": "x"}}), "error", r"line 2: expected a command kind"),
    ("command unit a list", record("command", {"command": {"kind": "shoot", "unit": ["gunners"]}}), "error",
     r"line 2: expected 'unit' to be a unit id"),
    ("selection without weapon", record("command", {"command": {"kind": "shoot", "unit": "gunners",
                                                                "selections": [{"model": "gunners/1"}]}}),
     "error", r"line 2: expected a field 'weapon'"),
    ("move to NaN", lambda recs: [l.replace('"kind":"shoot"', '"kind":"move","to":[["gunners/1",NaN,1]]', 1)
                                  for l in lines_of(recs)], "error", r"line 2: expected a JSON object, found invalid JSON"),
    ("event without n", record("event", drop="n"), "error", r"line 3: expected a field 'n'"),
    ("event a list", record("event", {"event": [1]}), "error", r"line 3: expected 'event' to be an object"),
    ("event without type", record("event", {"event": {}}), "error", r"line 3: expected a field 'type'"),
    ("left out step a list", record("event", {"event": {"type": "left out", "step": ["x"]}}), "error",
     r"line 3: expected 'step' to be a script step"),
    ("hash a number", record("hash", {"hash": 5}), "error", r"expected 'hash' to be a state hash"),
    ("unknown record type", record("event", {"t": "evil"}), "error", r"line 3: expected a record type"),
    ("record after the trailer", lambda recs: lines_of(recs) + [lines_of(recs)[1]], "error",
     r"expected the end of the log after the trailer"),
    ("trailer count a string", trailer(commands="10"), "error", r"expected 'commands' to be a command count"),
    ("duplicate key", lambda recs: [lines_of(recs)[0][:-1] + ',"seed":7}'] + lines_of(recs)[1:], "error",
     r"line 1: expected a JSON object, found invalid JSON \(the key 'seed' appears twice\)"),
    # bytes
    ("non-UTF-8 byte", lambda recs: b"\n".join(l.encode() for l in lines_of(recs)).replace(b"gunners", b"gunn\xffrs", 1),
     "error", r"line 2: expected UTF-8 text, found the byte 0xff"),
    ("nested 100,000 deep", lambda recs: lines_of(recs)[:1] + ["[" * 100_000 + "]" * 100_000], "error",
     r"line 2: expected a JSON object, found nesting too deep"),
    ("nested 100 deep", lambda recs: lines_of(recs)[:2] + [
        dumps({"t": "event", "n": 0, "event": {"type": "x", "v": json.loads("[" * 100 + "]" * 100)}})],
     "error", r"line 3: expected a record nested at most 32 deep"),
    ("line of 2 MB", lambda recs: lines_of(recs)[:2] + [dumps({"t": "event", "n": 0, "event": {"type": "x" * 2_000_000}})],
     "error", r"line 3: expected a record of at most 1048576 bytes, found 2000039 bytes"),
    ("empty file", lambda recs: b"", "error", r"line 1: expected a sim-replay header, found an empty file"),
    # the scenario it names
    ("scenario /etc/passwd", header(scenario="/etc/passwd"), "error", r"line 1: expected 'scenario' to be a \.toml file"),
    ("scenario ../../etc/passwd", header(scenario="../../etc/passwd"), "error", r"expected 'scenario' to be a \.toml"),
    ("scenario /proc/self/environ", header(scenario="/proc/self/environ"), "error", r"expected 'scenario' to be a \.toml"),
    ("scenario ../ escape", header(scenario="../../../outside/secret.toml"), "error", r"found '\.\./\.\./\.\./outside/secret\.toml' nowhere"),
    ("scenario absolute elsewhere", lambda recs: header(scenario=str(ROOT / "scenarios/default.toml"))(recs), "error",
     r"nowhere \(give it with --scenario PATH\)"),
]


@pytest.fixture
def project(tmp_path):
    """A copy of the default scenario and a place for its log, as in the repository."""
    (tmp_path / "scenarios/replays").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios/default.toml", tmp_path / "scenarios/default.toml")
    return tmp_path


def write(project, lines: list[str] | bytes) -> Path:
    log = project / "scenarios/replays/default.jsonl"
    log.write_bytes(lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode())
    return log


def test_the_unchanged_copy_verifies(project):
    assert replay(write(project, lines_of(golden()))) == (10, None)


@pytest.mark.parametrize("mutate, outcome, says", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_mutated_log(project, mutate, outcome, says):
    log = write(project, mutate(golden()))
    if outcome == "diverge":
        n, div = replay(log)
        assert div is not None
        assert re.search(says, str(div), re.S), str(div)
    else:
        with pytest.raises((LogError, ScenarioError), match=says) as e:
            replay(log)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("kind", ["fifo", "dev zero", "folder"])
def test_not_a_regular_file(tmp_path, kind):
    import os
    if kind == "fifo":
        path = tmp_path / "log.jsonl"
        os.mkfifo(path)  # nobody writes to it: reading it would block forever
    elif kind == "dev zero":
        path = Path("/dev/zero")
    else:
        path = tmp_path
    with pytest.raises(LogError, match=r"expected a regular file, found a (FIFO|device|folder)"):
        replay(path)


def test_hostile_log_on_the_command_line(project):
    """`sim replay` on a hostile log: exit 2, one line on stderr, no traceback."""
    log = write(project, lines_of(golden())[:1] + ["[" * 100_000])
    r = subprocess.run([sys.executable, "-m", "sim", "replay", str(log)], capture_output=True, text=True,
                       cwd=project, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"sim: {log}: line 2: expected "), r.stderr
    assert r.stdout == ""


# the secret as a key and as a value: neither the place of an error nor what was found is shown
SECRET = 'TOPSECRET-token-1234 = 1\nunits = "TOPSECRET-token-1234"\n'


@pytest.mark.parametrize("how", ["beside the log", "outside, by ..", "outside, absolute", "symlink out"])
def test_a_toml_file_that_is_not_a_scenario_is_never_echoed(project, how):
    import os
    outside = project / "outside"
    outside.mkdir()
    (outside / "secret.toml").write_text(SECRET)
    name = {"beside the log": "secret.toml", "outside, by ..": "../../outside/secret.toml",
            "outside, absolute": str(outside / "secret.toml"), "symlink out": "secret.toml"}[how]
    if how == "beside the log":
        (project / "scenarios/replays/secret.toml").write_text(SECRET)
    elif how == "symlink out":
        os.symlink(outside / "secret.toml", project / "scenarios/replays/secret.toml")
    log = write(project, header(scenario=name)(golden()))
    with pytest.raises(LogError) as e:
        replay(log)
    assert "TOPSECRET" not in str(e.value) and "\n" not in str(e.value)
    assert "line 1: expected 'scenario'" in str(e.value)


def test_a_fifo_named_as_the_scenario_does_not_block(project):
    import os
    os.mkfifo(project / "scenarios/replays/pipe.toml")
    log = write(project, header(scenario="pipe.toml")(golden()))
    with pytest.raises(LogError, match="nowhere"):
        replay(log)


def test_scenario_given_explicitly(project):
    """--scenario: the log may name a path the replay refuses to follow by itself."""
    log = write(project, header(scenario="/somewhere/else/default.toml")(golden()))
    with pytest.raises(LogError, match="--scenario"):
        replay(log)
    assert replay(log, scenario=project / "scenarios/default.toml") == (10, None)
    with pytest.raises(LogError, match=r"expected a regular \.toml scenario file \(--scenario\), found not a \.toml"):
        replay(log, scenario="/etc/passwd")


def test_scenario_beside_the_log(tmp_path):
    """A log names its scenario relative to its own folder (or the folder's parents)."""
    shutil.copy(ROOT / "scenarios/default.toml", tmp_path / "default.toml")
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join(header(scenario="default.toml")(golden())) + "\n")
    assert replay(log) == (10, None)


def test_golden_replays_verify_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert replay(GOLDEN)[1] is None


def test_sim_replay_with_scenario_option(project):
    log = write(project, header(scenario="/somewhere/else/default.toml")(golden()))
    r = subprocess.run([sys.executable, "-m", "sim", "replay", str(log), "--scenario",
                        str(project / "scenarios/default.toml")], capture_output=True, text=True,
                       cwd=project, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert "verified, 10 commands" in r.stdout


def test_the_sandbox_viewer_reads_logs_as_sim_replay_does(project):
    """The sandbox's replay viewer opens logs with the same reader (open_log)."""
    from sim.sandbox.replay_view import ReplayView
    (project / "scenarios/replays/secret.toml").write_text(SECRET)
    for name, says in [("/etc/passwd", "to be a .toml file"), ("secret.toml", "not one")]:
        log = write(project, header(scenario=name)(golden()))
        with pytest.raises(LogError, match=says) as e:
            ReplayView(log)
        assert "TOPSECRET" not in str(e.value)
    assert len(ReplayView(write(project, lines_of(golden())))) == 10


def test_a_saved_log_takes_its_scenario_along(tmp_path):
    """write_log (the sandbox's save): a scenario the log could not find is copied beside it."""
    from sim.battle import Battle
    from sim.replay.log import Recorder, write_log
    from sim.players.runner import play
    from sim.scenario.load import load_scenario
    src = tmp_path / "elsewhere/default.toml"
    src.parent.mkdir()
    shutil.copy(ROOT / "scenarios/default.toml", src)
    spec = load_scenario(src)
    with Battle(spec) as b:
        rec = Recorder(b, str(src))  # an absolute path: replay would not follow it
        play(b, spec, rec)
    log = write_log(tmp_path / "saves/run.jsonl", rec)
    head = json.loads(log.read_text().splitlines()[0])
    assert head["scenario"] == f"default-{spec.digest[:10]}.toml"
    assert (log.parent / head["scenario"]).read_bytes() == src.read_bytes()
    assert replay(log) == (10, None)


def test_no_control_characters_from_the_log_in_a_message(project):
    name = "evil\x1b[31m.toml"
    (project / "scenarios/replays" / name).write_text((ROOT / "scenarios/default.toml").read_text() + "\n")
    log = write(project, header(scenario=name)(golden()))
    with pytest.raises(LogError, match="has changed") as e:
        replay(log)
    assert "\x1b" not in str(e.value)


def test_a_divergence_is_one_line_of_bounded_length(project):
    """A divergence names the line and shows each record around where it first differs, cut
    short with "..." (a record can be up to 1 MB): one line, however long the records."""
    recs = golden()
    at = next(i for i, r in enumerate(recs) if r["t"] == "event")
    recs.insert(at, {"t": "event", "n": 0, "event": {"type": "dice", "purpose": "x" * 900_000}})
    n, div = replay(write(project, lines_of(recs)))
    text = str(div)
    assert "\n" not in text and len(text) < 500, (len(text), text[:300])
    assert text.startswith(f"diverged at line {at + 1} (command 0): expected {{\"event\":{{\"purpose\":\"xxx")
    assert text.count("...") == 2  # the expected record is cut; the found one is short
    recs = golden()
    i, r = next((i, r) for i, r in enumerate(recs) if r["t"] == "event" and len(dumps(r)) > 400)
    longest = dumps(r)
    j = next(j for j in range(300, len(longest)) if longest[j].isdigit())
    tampered = longest[:j] + str(int(longest[j]) % 9 + 1) + longest[j + 1:]  # (never a leading 0)
    div = replay(write(project, lines_of(recs[:i]) + [tampered] + lines_of(recs[i + 1:])))[1]
    expected = str(div).split(": expected ", 1)[1].split(", found ")[0]
    assert div.line == i + 1 and expected.startswith("...") and len(expected) <= 166, expected
    assert tampered[j - 20:j + 20] in expected, (tampered[j - 20:j + 20], expected)


def test_sim_replay_escapes_a_log_name(project, capsys):
    """The log's own file name may hold a newline or an escape sequence: the message shows it
    escaped, on one line (an error and a divergence alike)."""
    from sim.cli import main
    bad = project / "scenarios/replays" / "e\x1b[2Jvil\n.jsonl"
    bad.write_text("{}\n")
    assert main(["replay", str(bad)]) == 2
    cut = project / "scenarios/replays" / "cut\x07\n.jsonl"
    cut.write_text("\n".join(lines_of(golden())[:1]) + "\n")
    assert main(["replay", str(cut)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "\x1b" not in err and "\x07" not in err, err
    assert "e\\x1b[2Jvil\\n.jsonl: line 1: expected" in err and "cut\\x07\\n.jsonl: diverged at line 2" in err


def test_a_log_of_too_many_values_is_refused_before_it_is_parsed(project, monkeypatch):
    """Each JSON value read costs tens of bytes, so a log is bounded by its values too (counted
    by separators before anything is parsed): 40 MB of "[]," would be over a gigabyte."""
    import sim.replay.log as L
    log = write(project, lines_of(golden()))
    monkeypatch.setattr(L, "MAX_VALUES", 1000)  # the golden log has ~3,300
    with pytest.raises(LogError, match=r"expected a log of at most 1000 JSON values \(counted by their commas, "
                                       r"colons, brackets and line ends\), found \d+$") as e:
        replay(log)
    assert str(e.value).startswith(f"{log}: ")


def test_replay_stops_at_the_first_diverging_command(project, monkeypatch):
    """The comparison goes block by block: a log whose first command's hash is wrong is not
    played to its end (a long hostile log costs one command, not all of them)."""
    import sim.replay.log as L
    played = []
    real = L.replay_command
    monkeypatch.setattr(L, "replay_command", lambda *a: (played.append(1), real(*a)))
    recs = golden()
    next(r for r in recs if r["t"] == "hash").update(hash="0" * 16)
    n, div = replay(write(project, lines_of(recs)))
    assert (n, div.command, len(played)) == (10, 0, 1), (n, div, played)
    played.clear()
    assert replay(write(project, lines_of(golden()))) == (10, None) and len(played) == 10

"""Issue 13: the hostile corpus (hostile_corpus.py, a few hundred generated scenario files and
replay logs, each broken in one way) through the real command line. Every case must give its
exit status (2 for bad input, 1 for a well-formed log whose battle diverges), exactly one line
on stderr naming the file (`sim: FILE: ...` or `LOG: diverged at ...`), of bounded length,
without a traceback or a control character, nothing on stdout, and nothing of a file outside the
project it reaches for (a secret planted there and in the environment never shows).

Each process runs under an address-space limit (RLIMIT_AS) instead of a timer, with a CPU-time
limit as a backstop against a loop. So that a few hundred cases do not each pay for starting
Python, the cases are run in chunks by hostile_driver.py, which calls sim.cli.main in-process
for each as `python -m sim` would (fresh stdout and stderr per case, the exit status that
SystemExit gives); one case of each category also runs as a real `python -m sim` process, and
both must give the same bytes.
"""

from __future__ import annotations

import collections
import hashlib
import shutil
import subprocess
import sys

import pytest

import hostile_corpus as HC
import hostile_run as HR
from sim.errors import escape_controls

MEMORY_CAP = HR.MEMORY_CAP
CHUNKS = 2  # (one driver per core; each driver start costs ~1 s of CPU)
MAX_MESSAGE = 1000  # characters of a message after the file name
_SECRET_ENV = {HC.SECRET_ENV: HC.SECRET}


def _drive(argvs: list[tuple[str, ...]], folder) -> dict:
    """Run the command lines in one driver process under the limits (hostile_run.drive)."""
    return HR.drive(argvs, folder, _SECRET_ENV)


def _real(argv: tuple[str, ...]) -> dict:
    return HR.real(argv, _SECRET_ENV)


_is_control = HR.is_control


def problems(case: HC.Case, rc: int, stdout: bytes, stderr: bytes) -> list[str]:
    """What is wrong with a case's answer (nothing: an empty list)."""
    out = []
    if rc != case.expected_exit:
        out.append(f"exit status {rc}, expected {case.expected_exit}")
    try:
        err = stderr.decode("utf-8")
    except UnicodeDecodeError:
        return out + [f"stderr is not UTF-8: {stderr[:200]!r}"]
    if "Traceback" in err:
        out.append("a traceback")
    lines = err.split("\n")
    if len(lines) != 2 or lines[1] != "" or not lines[0].strip():
        out.append(f"stderr is {len(lines) - 1} line(s), not one: {err[:200]!r}")
    line = lines[0]
    if any(_is_control(c) for c in line):
        out.append(f"a control character in {line[:200]!r}")
    name = escape_controls(str(case.names))
    prefix = f"sim: {name}: " if case.expected_exit == 2 else f"{name}: diverged at line "
    if not line.startswith(prefix):
        out.append(f"the line does not start with {prefix!r}: {line[:300]!r}")
    elif len(line) > len(prefix) + MAX_MESSAGE:
        out.append(f"a line of {len(line)} characters (at most {MAX_MESSAGE} after the file name)")
    if stdout:
        out.append(f"stdout is not empty: {stdout[:200]!r}")
    text = stdout.decode("utf-8", "replace") + err
    for secret in dict.fromkeys((HC.SECRET, *case.forbidden)):
        if secret in text:
            out.append(f"the output shows {secret!r}, from a file outside the project or the environment")
    return out


def _report(bad: list[tuple[HC.Case, dict, list[str]]]) -> str:
    return "\n".join(f"{c.name} ({c.path}): {'; '.join(p)}\n    stderr: {r['stderr'][:400]!r}" for c, r, p in bad)


# --- the corpus itself ---------------------------------------------------------------------------

def test_the_corpus_is_large_and_spread():
    specs = HC.specs()
    by_kind = collections.Counter(s.kind for s in specs)
    by_cat = collections.Counter((s.kind, s.category) for s in specs)
    assert len(specs) >= 150, len(specs)
    assert by_kind["scenario"] >= 100 and by_kind["log"] >= 50, by_kind
    assert all(n >= 3 for n in by_cat.values()), by_cat
    assert {s.expected_exit for s in specs} == {1, 2}
    assert len({s.name for s in specs}) == len(specs)


def test_generation_is_deterministic(tmp_path):
    """The same call writes the same files (a sample of every fifth case, twice; a log that
    names a file by its absolute path differs by the folder only)."""
    pick = range(0, len(HC.specs()), 5)

    def digests(folder):
        cases = HC.generate(folder, pick)
        return [(c.name, str(c.path.relative_to(folder)), c.argv[0],
                 hashlib.sha256(c.path.read_bytes().replace(str(folder).encode(), b"<folder>")).hexdigest())
                for c in cases]
    assert digests(tmp_path / "a") == digests(tmp_path / "b")


def test_each_case_breaks_one_thing():
    """The TOML writer gives back each shipped scenario exactly, and the copy is valid, so a
    mutated copy is invalid for its one change; a log copied as the corpus copies it verifies."""
    import tomllib

    from sim.scenario.load import parse_scenario
    for name in HC.base_names():
        data = HC.base(name)
        text = HC.toml_dump(data)
        assert tomllib.loads(text) == data, name
        parse_scenario(tomllib.loads(text), name)


def test_an_unchanged_log_copy_verifies(tmp_path):
    from sim.replay.log import replay
    for log in ("default", "close_quarters_choice", "precision_leader_visible", "worked_example_attached"):
        spec = HC.log_spec("control", log, lambda recs: recs, log=log)
        path, argv, names, _ = spec.build(tmp_path)
        assert replay(path)[1] is None, log


# --- running it ----------------------------------------------------------------------------------

@pytest.mark.parametrize("chunk", range(CHUNKS), ids=[f"{k}-of-{CHUNKS}" for k in range(CHUNKS)])
def test_hostile_corpus(tmp_path, chunk):
    """Every case of one chunk (every CHUNKS-th case) through sim.cli.main, one driver process
    under the memory cap."""
    pick = range(chunk, len(HC.specs()), CHUNKS)
    cases = HC.generate(tmp_path / "corpus", pick)
    try:
        out = _drive([c.argv for c in cases], tmp_path)
    finally:
        shutil.rmtree(tmp_path / "corpus")  # tens of MB: not left for pytest to keep
    assert out["rlimit_as"] == MEMORY_CAP
    bad = [(c, r, p) for c, r in zip(cases, out["results"]) if (p := problems(c, r["rc"], r["stdout"], r["stderr"]))]
    assert not bad, f"{len(bad)} of {len(cases)} cases:\n{_report(bad)}"


def test_the_driver_answers_as_a_real_process(tmp_path):
    """One case of each category as its own `python -m sim` process: the same exit status and
    the same bytes on stdout and stderr as the driver gives."""
    specs = HC.specs()
    firsts = {}
    for i, s in enumerate(specs):
        firsts.setdefault((s.kind, s.category), i)
    cases = HC.generate(tmp_path / "corpus", sorted(firsts.values()))
    driven = _drive([c.argv for c in cases], tmp_path)["results"]
    bad = []
    for c, d in zip(cases, driven):
        r = _real(c.argv)
        if (r["rc"], r["stdout"], r["stderr"]) != (d["rc"], d["stdout"], d["stderr"]):
            bad.append((c, r, [f"driver {d['rc']} {d['stderr'][:300]!r}, real process {r['rc']}"]))
        elif p := problems(c, r["rc"], r["stdout"], r["stderr"]):
            bad.append((c, r, p))
    assert not bad, _report(bad)


def test_the_memory_cap_holds_and_leaves_room(tmp_path):
    """The cap is set in the child and bites (2 GiB cannot be had), while the valid files the
    corpus is made from run under it with room to spare (a third of the cap)."""
    r = subprocess.run([sys.executable, "-c", "import resource, sys; print(resource.getrlimit(resource.RLIMIT_AS)[0]);"
                        "bytearray(2 << 30)"], env=HR.env(**_SECRET_ENV), preexec_fn=HR.limits,
                       capture_output=True, text=True)
    assert r.returncode == 1 and "MemoryError" in r.stderr and r.stdout.strip() == str(MEMORY_CAP), r
    out = _drive([("replay", str(HR.ROOT / "scenarios/replays/default.jsonl")),
                  ("check", str(HR.ROOT / "scenarios/default.toml")),
                  ("run", str(HR.ROOT / "scenarios/default.toml"), "--quiet")], tmp_path)
    assert [x["rc"] for x in out["results"]] == [0, 0, 0], out["results"]
    assert 0 < out["vm_peak_kb"] * 1024 < MEMORY_CAP // 3, out["vm_peak_kb"]


def test_the_checks_refuse_bad_answers(tmp_path):
    """The checks themselves: a traceback, a second line, a wrong status, a control character,
    another file's name, an unbounded line, output on stdout and a leaked secret all fail."""
    case = HC.Case(tmp_path / "x.toml", "scenario", 2, "scenario/self-test/x", "self-test", ("check",),
                   tmp_path / "x.toml", ("root:x:0",))
    good = f"sim: {case.path}: battle.seed: expected a finite number, found nan\n".encode()
    assert problems(case, 2, b"", good) == []
    for rc, stdout, stderr in [
            (1, b"", good),
            (2, b"", b"Traceback (most recent call last):\n  File ...\nValueError: x\n"),
            (2, b"", good + good),
            (2, b"", good.replace(b"nan", b"\x1b[2Jnan")),
            (2, b"", good.replace(b"x.toml", b"y.toml")),
            (2, b"", good[:-1] + b"x" * 5000 + b"\n"),
            (2, b"ok\n", good),
            (2, b"", good[:-1] + HC.SECRET.encode() + b"\n"),
            (2, b"", good[:-1] + b" root:x:0:0\n"),
            (2, b"", b""),
            (2, b"", b"\xff\n")]:
        assert problems(case, rc, stdout, stderr), (rc, stdout, stderr)
    div = HC.Case(tmp_path / "l.jsonl", "log", 1, "log/self-test/l", "self-test", ("replay",), tmp_path / "l.jsonl")
    assert problems(div, 1, b"", f"{div.path}: diverged at line 2 (trailer): expected a, found b\n".encode()) == []
    assert problems(div, 1, b"", f"sim: {div.path}: line 2: expected a, found b\n".encode())

"""Issue 25: the second hostile corpus (hostile_cli.py and hostile_cli_args.py: importer files,
odds and matrix attacks, options out of range; a few hundred generated cases) through the real
command line, as tests/replay/test_hostile_corpus.py runs the first.

Every case must give its exit status (2 for bad input; 0 where the clean answer is a result, as
the Monte Carlo fallback of an attack too big to work out exactly), within 60 s of CPU time (and
90 s of wall-clock time: a FIFO blocks without using any), under the 1 GiB address-space cap and
CASE_RSS_MB of resident memory, without a traceback. A refusal is exactly one line on stderr, `sim: NAME: ...` naming the file
at fault (the catalogue, the roster, --out, --bases) or naming the option, of bounded length,
with nothing on stdout and no file written. A result prints what it must (the note of a Monte
Carlo, the listing) and at most warnings on stderr; a scenario it writes is TOML tomllib reads.
No line printed holds a control, bidirectional or zero-width character.

The cases run in chunks, each in one driver process (hostile_run.drive_all: each case with its
own CPU and wall-clock seconds; a case that kills the driver is named and the rest go on).
"""

from __future__ import annotations

import collections
import hashlib
import os
import shutil
import stat
import tomllib
import unicodedata
from pathlib import Path

import pytest

import hostile_cli as HC
import hostile_cli_args as HA
import hostile_run as HR
from sim.errors import escape_controls

CHUNKS = 2  # (one driver per core; each driver start costs ~1 s of CPU)
CASE_CPU = 60  # seconds of CPU time a case may take (issue 25: under 60 s)
CASE_WALL = 90  # seconds of wall-clock time: a backstop for a case blocked without using CPU
MAX_MESSAGE = 1000  # characters of a message after the name
# Resident memory a case may reach (its own peak, hostile_driver.py). The address-space cap (1 GiB)
# stops a case with a MemoryError, which a refusal may catch and still name the file: this catches
# a case that got there. The cases within their bounds peak at 100-300 MB.
CASE_RSS_MB = 640


def bad_char(c: str) -> bool:
    """A character no line printed may hold raw: C0, DEL and C1 controls, and the invisible
    format characters (bidirectional overrides and isolates, zero-width spaces and joiners, the
    byte-order mark) and line or paragraph separators."""
    return HR.is_control(c) or unicodedata.category(c) in ("Cf", "Zl", "Zp")


def problems(case: HC.Case, r: dict) -> list[str]:
    """What is wrong with a case's answer ``r`` (the driver's result; nothing: an empty list)."""
    if "over" in r:
        return [f"stopped: over its limit ({r['over']}) after {r['secs']} s"]
    out = []
    if r.get("rss_peak_kb", 0) > CASE_RSS_MB * 1024:
        out.append(f"a peak of {r['rss_peak_kb'] // 1024} MB resident (at most {CASE_RSS_MB} MB)")
    rc, stdout, stderr = r["rc"], r["stdout"], r["stderr"]
    if rc not in case.exits:
        out.append(f"exit status {rc}, expected {' or '.join(map(str, case.exits))}")
    try:
        err, text = stderr.decode("utf-8"), stdout.decode("utf-8")
    except UnicodeDecodeError:
        return out + [f"output that is not UTF-8: {stderr[:200]!r} {stdout[:200]!r}"]
    if "Traceback" in err or "Traceback (most recent call last)" in text:
        out.append("a traceback")
    raw = sorted({f"U+{ord(c):04X}" for c in err + text.replace("\n", "") if bad_char(c) and c != "\n"})
    if raw:
        out.append(f"unescaped characters {', '.join(raw)}")
    lines = err.split("\n")
    if rc == 2:
        if len(lines) != 2 or lines[1] != "" or not lines[0].strip():
            out.append(f"stderr is {len(lines) - 1} line(s), not one")
        line = lines[0]
        if case.mode == "file":
            prefixes = [f"sim: {escape_controls(n)}: " for n in case.names]
            match = next((p for p in prefixes if line.startswith(p)), None)
            if match is None:
                out.append(f"the line does not start with {prefixes[0]!r}")
            elif len(line) > len(match) + MAX_MESSAGE:
                out.append(f"a line of {len(line)} characters")
        else:
            name = case.names[0] if case.names else ""
            if not line.startswith("sim") or (name and name not in line):
                out.append(f"the line does not start with 'sim' and name {name or 'the error'!r}")
            elif len(line) > 200 + MAX_MESSAGE:
                out.append(f"a line of {len(line)} characters")
        if stdout:
            out.append("stdout is not empty")
        if case.out and os.path.lexists(case.out):
            out.append(f"a refusal wrote {case.out}")
    elif rc in (0, 1):
        others = [x for x in lines[:-1] if not x.startswith("sim: warning: ")]
        if others:
            out.append(f"stderr holds {len(others)} line(s) besides warnings")
        if case.stdout_has and case.stdout_has not in text:
            out.append(f"stdout lacks {case.stdout_has!r}")
        if case.out and rc == 0:
            try:
                tomllib.loads(Path(case.out).read_text("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
                out.append(f"the scenario written to --out is no TOML: {type(e).__name__}: {str(e)[:100]}")
    for p in case.absent:
        if os.path.lexists(p):
            out.append(f"{p} was written")
            os.remove(p)
    return out


def _report(bad: list[tuple[HC.Case, dict, list[str]]]) -> str:
    return "\n".join(f"{c.name}: {'; '.join(p)}\n    argv {[a[-60:] for a in c.argv]}\n    stderr "
                     f"{r['stderr'][-400:]!r}" for c, r, p in bad)


def _run(cases: list[HC.Case], folder: Path, prelude: str = "") -> dict:
    return HR.drive_all([c.argv for c in cases], folder, CASE_CPU, CASE_WALL, prelude=prelude)


# --- the corpus itself ---------------------------------------------------------------------------

def test_the_corpus_is_large_and_spread():
    specs = HC.specs()
    by_cat = collections.Counter(s.category for s in specs)
    assert len(specs) >= 150, len(specs)
    assert set(by_cat) >= {"zip", "shapes", "numbers", "links", "files", "control", "mutations", "odds", "matrix",
                           "options"}, by_cat
    assert all(n >= 3 for n in by_cat.values()), by_cat
    assert len({s.name for s in specs}) == len(specs)


def _digests(folder: Path) -> list[tuple[str, str]]:
    out = []
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        st = p.lstat()
        if stat.S_ISLNK(st.st_mode):
            out.append((rel, "-> " + os.readlink(p)))
        elif stat.S_ISFIFO(st.st_mode):
            out.append((rel, "fifo"))
        elif stat.S_ISREG(st.st_mode):
            h = hashlib.sha256()
            with open(p, "rb") as f:
                while b := f.read(1 << 22):
                    h.update(b.replace(str(folder).encode(), b"<folder>"))
            out.append((rel, h.hexdigest()))
    return out


def test_generation_is_deterministic(tmp_path):
    """The same call writes the same files and command lines (every fifth case, twice)."""
    pick = range(0, len(HC.specs()), 5)

    def made(folder):
        cases = HC.generate(folder, pick)
        argvs = [tuple(a.replace(str(folder), "<folder>") for a in c.argv) for c in cases]
        return argvs, _digests(folder)
    try:
        assert made(tmp_path / "a") == made(tmp_path / "b")
    finally:
        shutil.rmtree(tmp_path / "a")
        shutil.rmtree(tmp_path / "b")


def test_the_fixtures_import_unchanged(tmp_path):
    """Written back as the corpus writes them (JSON, XML, zipped XML), the fixture catalogue and
    roster import: each case's one change is what breaks it."""
    cases = []
    for form in ("json", "xml", "zip"):
        f = tmp_path / form
        path = HC.catalogue_folder(f, HC.doc(HC.CAT), form)
        cases.append(HC.datasheets(path, exits=(0,)))
        cases.append(HC.import_sheet(path, HC.first_sheet(), f, exits=(0,)))
        cases.append(HC.import_roster(HC.roster_file(f, HC.doc("roster"), form), f, "--bases",
                                      str(HR.ROOT / "assets/base_sizes.toml"), exits=(0,), out=str(f / "r.toml")))
    odds = tmp_path / "odds.toml"
    odds.write_text(HA.scenario([("gun", "2", "")], [(5, 1, 4)], script=True))
    cases.append(HC.Case("", "", ("odds", str(odds), "--step", "1"), (0,), (str(odds),), "exact"))
    cases.append(HC.Case("", "", ("check", str(odds)), (0,), (str(odds),), "ok"))
    results = _run(cases, tmp_path)["results"]
    bad = [(c, r, p) for c, r in zip(cases, results) if (p := problems(c, r))]
    assert not bad, _report(bad)


# --- running it ----------------------------------------------------------------------------------

@pytest.mark.parametrize("chunk", range(CHUNKS), ids=[f"{k}-of-{CHUNKS}" for k in range(CHUNKS)])
def test_hostile_cli(tmp_path, chunk):
    """Every case of one chunk (every CHUNKS-th case) through sim.cli.main in driver processes
    under the memory cap, each case within its seconds."""
    pick = range(chunk, len(HC.specs()), CHUNKS)
    cases = HC.generate(tmp_path / "corpus", pick)
    try:
        out = _run(cases, tmp_path)
        bad = [(c, r, p) for c, r in zip(cases, out["results"]) if (p := problems(c, r))]
    finally:
        shutil.rmtree(tmp_path / "corpus")  # a 3 GB sparse file, 30 MB files: not left for pytest to keep
    assert out["rlimit_as"] == HR.MEMORY_CAP
    assert not bad, f"{len(bad)} of {len(cases)} cases:\n{_report(bad)}"


def test_the_driver_answers_as_a_real_process(tmp_path):
    """The first case of each category as its own `python -m sim` process: the same exit status
    and the same bytes on stdout and stderr as the driver gives (the files written again for it)."""
    firsts: dict[str, int] = {}
    for i, s in enumerate(HC.specs()):
        firsts.setdefault(s.category, i)
    pick = sorted(firsts.values())
    folder = tmp_path / "corpus"
    cases = HC.generate(folder, pick)
    driven = _run(cases, tmp_path)["results"]
    shutil.rmtree(folder)
    HC.generate(folder, pick)
    bad = []
    for c, d in zip(cases, driven):
        r = HR.real(c.argv, timeout=CASE_WALL)
        if (r["rc"], r["stdout"], r["stderr"]) != (d["rc"], d["stdout"], d["stderr"]):
            bad.append((c, r, [f"driver {d['rc']} {d['stderr'][:300]!r}, real process {r['rc']}"]))
    shutil.rmtree(folder)
    assert not bad, _report(bad)


# --- the checks ----------------------------------------------------------------------------------

def _result(rc: int, stdout: bytes = b"", stderr: bytes = b"", **more) -> dict:
    return {"rc": rc, "stdout": stdout, "stderr": stderr, "secs": 0.1, **more}


def test_the_checks_refuse_bad_answers(tmp_path):
    """A traceback, a second line, a wrong status, a control, bidirectional or zero-width
    character, another file's name, an unbounded line, output on stdout, a file written by a
    refusal, a case over its seconds or its memory, a missing Monte Carlo note and unreadable TOML
    all fail."""
    cat = str(tmp_path / "x.cat")
    case = HC.Case("files/x", "files", ("datasheets", cat), (2,), (cat,), out=str(tmp_path / "out.toml"))
    good = f"sim: {cat}: line 3: expected a number, found nan\n".encode()
    assert problems(case, _result(2, b"", good)) == []
    for r in [_result(1, b"", good), _result(0, b"", good),
              _result(2, b"", b"Traceback (most recent call last):\n  File ...\nValueError: x\n"),
              _result(2, b"", good + good), _result(2, b"", good.replace(b"nan", b"\x1b[2Jnan")),
              _result(2, b"", good.replace(b"nan", "\u202enan".encode())),
              _result(2, b"", good.replace(b"nan", "\u200bnan".encode())),
              _result(2, b"", good.replace(b"x.cat", b"y.cat")), _result(2, b"", good[:-1] + b"x" * 5000 + b"\n"),
              _result(2, b"ok\n", good), _result(2, b"", b""), _result(2, b"", b"\xff\n"),
              _result(-1, b"", b"", over="cpu"), _result(-1, b"", b"", over="killed (-9)"),
              _result(2, b"", good, rss_peak_kb=900_000)]:
        assert problems(case, r), r
    (tmp_path / "out.toml").write_text("x = 1\n")
    assert problems(case, _result(2, b"", good))
    opt = HC.Case("options/x", "options", ("stats", "x", "--runs", "0"), (2,), ("--runs",), mode="option")
    assert problems(opt, _result(2, b"", b"sim: --runs: expected 1 to 1,000,000 runs, found 0\n")) == []
    for r in [_result(2, b"", b"usage: sim stats [-h]\nsim stats: error: argument --runs: invalid int value\n"),
              _result(2, b"", b"sim: --jobs: expected 1 or more\n"), _result(0, b"summary\n", b"")]:
        assert problems(opt, r), r
    odds = HC.Case("odds/x", "odds", ("odds", "x"), (0,), ("x",), "Monte Carlo")
    assert problems(odds, _result(0, b"x\nMonte Carlo of the same rules\n")) == []
    assert problems(odds, _result(0, b"x\nexact\n"))
    assert problems(odds, _result(0, b"x\nMonte Carlo\n", b"sim: odd\n"))
    assert problems(odds, _result(0, "x\nMonte Carlo \u202e\n".encode()))
    imp = HC.Case("control/x", "control", ("import",), (0, 2), (cat,), "army:", str(tmp_path / "w.toml"))
    (tmp_path / "w.toml").write_text('# a name \x1b[2J\nx = "\x1b"\n')
    assert problems(imp, _result(0, b"w.toml: red army:\n"))
    (tmp_path / "w.toml").write_text('x = 1\n')
    assert problems(imp, _result(0, b"w.toml: red army:\n")) == []


# (guard, the cases it keeps right): each case passes with the guard and fails without it
GUARDS = [
    ("import sim.importers.source as S; S.MAX_FILE_BYTES = 1 << 40",
     ["zip/deflate bomb as a catalogue", "zip/deflate bomb as a roster", "zip/deflate member stating 1 KB"]),
    ("import sim.importers.source as S; S.MAX_DEPTH = 10 ** 6",
     ["shapes/elements 110 deep", "shapes/JSON nested 101 deep"]),
]


@pytest.mark.parametrize("guard,names", GUARDS, ids=[g[0].split(";")[1].strip() for g in GUARDS])
def test_the_corpus_fails_when_a_guard_is_removed(tmp_path, guard, names):
    """The corpus catches a guard taken out: cases it keeps right pass with it, and fail in a
    driver that removes it before running them (the zip's counted read; the nesting bound)."""
    index = {s.name: i for i, s in enumerate(HC.specs())}
    cases = HC.generate(tmp_path / "corpus", [index[n] for n in names])
    try:
        kept = _run(cases, tmp_path)["results"]
        removed = _run(cases, tmp_path, prelude=guard)["results"]
    finally:
        shutil.rmtree(tmp_path / "corpus")
    with_guard = [(c, r, p) for c, r in zip(cases, kept) if (p := problems(c, r))]
    assert not with_guard, _report(with_guard)
    assert all(problems(c, r) for c, r in zip(cases, removed)), [r["stderr"][:200] for r in removed]

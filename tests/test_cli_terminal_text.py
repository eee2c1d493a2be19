"""Text from a file or the command line never drives the terminal (issue 25, "Terminal text"):
every line `sim` prints goes through sim.errors.escape_controls, which writes the control
characters (Cc), the format characters (Cf: bidirectional overrides, zero-width spaces), the
line and paragraph separators (Zl, Zp) and lone surrogates (Cs) as visible escapes. argparse's
own echo of an unknown argument included; unit ids and names in the reports of run, stats,
odds and matrix included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from sim.cli import main
from sim.errors import escape_controls

ROOT = Path(__file__).resolve().parents[1]
DANGEROUS = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def raw(text: str) -> list[str]:
    """The characters of ``text`` that would reach the terminal raw (newlines apart)."""
    return sorted({c for c in text if c != "\n" and unicodedata.category(c) in DANGEROUS})


@given(st.text(st.characters(blacklist_categories=())))
def test_escaped_text_holds_no_dangerous_character(text):
    out = escape_controls(text)
    assert raw(out.replace("\n", "\\n")) == []
    if text.isprintable():  # (nothing to escape: unchanged)
        assert out == text


@pytest.mark.parametrize("c, shown", [
    ("\x1b", "\\x1b"), ("\x07", "\\x07"), ("\x9b", "\\x9b"), ("\n", "\\n"),
    ("\u202e", "\\u202e"), ("\u2066", "\\u2066"), ("\u200b", "\\u200b"), ("\u200d", "\\u200d"),
    ("\ufeff", "\\ufeff"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"), ("\udcff", "\\udcff"),
])
def test_each_kind_of_character_is_shown_as_an_escape(c, shown):
    assert escape_controls(f"a{c}b") == f"a{shown}b"


def test_letters_accents_and_spaces_of_every_script_are_kept():
    text = "Café Ørk Ærø 戦士 Воин\u00a0nbsp"
    assert escape_controls(text) == text


HOSTILE_ARGS = ["--x\x1b]0;owned\x07\x1b[31m", "--\u202eevil\u200b", "\x1b[2J"]


def _status(argv: list[str]) -> int:
    """main's exit status, whether argparse's refusal comes out as SystemExit or is returned."""
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("arg", HOSTILE_ARGS)
def test_argparse_does_not_echo_an_unknown_argument_raw(capsys, arg):
    assert _status(["run", "scenarios/anti_vehicle.toml", arg]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments" in err or "invalid choice" in err or "required" in err
    assert raw(err) == [], err
    assert escape_controls(arg) in err


def test_argparse_does_not_echo_an_unknown_command_raw(capsys):
    assert _status(["\u202erun\x1b[31m"]) == 2
    err = capsys.readouterr().err
    assert raw(err) == [] and "\\u202erun\\x1b[31m" in err, err


def _hostile_scenario(tmp_path) -> Path:
    """anti_vehicle.toml with a unit id holding a right-to-left override and a zero-width
    space, and its name a line separator and a right-to-left mark (the loader refuses control
    characters in them, not these)."""
    text = (ROOT / "scenarios/anti_vehicle.toml").read_text()
    assert '"hunters"' in text and 'name = "Tank Hunter Squad"' in text
    text = text.replace('"hunters"', '"hun\u202eters\u200b"')
    text = text.replace('name = "Tank Hunter Squad"', 'name = "Tank\u2028Hunter\u200f"')
    path = tmp_path / "bidi.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("cmd", [
    ["run", "{path}"],
    ["stats", "{path}", "--runs", "3", "--jobs", "1", "--quiet"],
    ["odds", "{path}", "--step", "1"],
    ["odds", "{path}", "--unit", "hun\u202eters\u200b", "--target", "tank"],
    ["matrix", "{path}", "{path}"],
])
def test_unit_ids_and_names_reach_standard_output_escaped(tmp_path, capsys, cmd):
    path = _hostile_scenario(tmp_path)
    code = main([a.replace("{path}", str(path)) for a in cmd])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert raw(out) == [] and raw(err) == [], out
    # (sim run's report and sim odds's text read units by their names, sim.names: the name is what reaches them)
    assert ("Tank\\u2028Hunter\\u200f" if cmd[0] in ("run", "odds") else "hun\\u202eters\\u200b") in out


def test_a_name_in_an_error_reaches_standard_error_escaped(tmp_path, capsys):
    path = _hostile_scenario(tmp_path)
    assert main(["odds", str(path), "--unit", "no\u202ebody", "--target", "tank"]) == 2
    err = capsys.readouterr().err
    assert raw(err) == [] and err.count("\n") == 1, err


def test_json_output_is_unchanged(tmp_path, capsys):
    """JSON escapes every non-ASCII character itself: the document parses to the very id."""
    path = _hostile_scenario(tmp_path)
    assert main(["stats", str(path), "--runs", "2", "--jobs", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["units"][0]["id"] == "hun\u202eters\u200b"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_an_undecodable_file_name_is_printed_not_a_traceback(tmp_path):
    """A file name's invalid UTF-8 bytes come into argv as lone surrogates, which no UTF-8
    stream can write (UnicodeEncodeError on standard output): shown as escapes instead."""
    bad = os.fsencode(str(tmp_path)) + b"/\xff\x1b[31m.toml"
    with open(bad, "wb") as f:
        f.write((ROOT / "scenarios/anti_vehicle.toml").read_bytes())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    p = subprocess.run([sys.executable, "-m", "sim", "check", bad], cwd=ROOT, env=env,
                       capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr == b""
    assert b"\\udcff\\x1b[31m.toml: ok" in p.stdout

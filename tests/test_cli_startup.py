"""Issue 29, start-up: `sim --help` and `sim check` import only what they need. Each runs as its
own process (`python -m sim ...` through a small wrapper that reports, at exit, which of the heavy
modules the process imported); nothing here is timed (tests/bench/bench_startup.py times them).

* `sim --help` builds the parser only: no numpy, pygame, matplotlib, nor the engine (esper, the
  battle), the odds or the players; the options' bounds that live in those modules (the seed
  range of sim.rules.dice, the ladder's and stats' limits) are read when the option is.
* `sim check` loads the scenario: numpy comes with it (the loader's overlap checks measure the
  bases as numpy footprints, sim.rules.geometry), pygame, matplotlib, the battle, the odds and
  the players do not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "pygame", "matplotlib", "esper", "sim.battle", "sim.odds", "sim.players", "sim.sandbox",
         "sim.analysis.ladder", "sim.rules.dice")
WRAPPER = f"""
import atexit, json, runpy, sys
atexit.register(lambda: sys.stderr.write("MODULES " + json.dumps([m for m in {HEAVY!r} if m in sys.modules]) + "\\n"))
sys.argv = ["sim"] + sys.argv[1:]
runpy.run_module("sim", run_name="__main__", alter_sys=True)
"""


def imported(*args: str) -> tuple[int, set[str]]:
    """(exit status, the HEAVY modules imported) of `python -m sim ARGS` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    p = subprocess.run([sys.executable, "-c", WRAPPER, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=120)
    line = next(x for x in p.stderr.splitlines() if x.startswith("MODULES "))
    return p.returncode, set(json.loads(line[len("MODULES "):]))


def test_help_imports_no_numpy_pygame_matplotlib_nor_the_engine():
    status, mods = imported("--help")
    assert status == 0
    assert mods == set(), mods


def test_a_subcommands_help_imports_none_of_them_either():
    status, mods = imported("ladder", "--help")
    assert status == 0 and mods == set(), mods


def test_check_imports_numpy_for_the_bases_but_no_pygame_matplotlib_battle_odds_or_players():
    status, mods = imported("check", "scenarios/default.toml")
    assert status == 0
    assert "numpy" in mods  # (the check would be vacuous if the wrapper saw nothing)
    assert not mods & {"pygame", "matplotlib", "sim.battle", "sim.odds", "sim.players", "sim.sandbox",
                       "sim.analysis.ladder"}, mods


def test_the_bounds_read_late_still_refuse_what_they_refused():
    """--seed's range (sim.rules.dice) and --battles' (sim.analysis.ladder), read when the option
    is, give the same one line and status 2 as before."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "sim", "run", "x.toml", "--seed", "9" * 20], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip() == ("sim: --seed: expected a whole number seed from -9223372036854775807 to "
                                f"9223372036854775807, found {'9' * 20}")
    p = subprocess.run([sys.executable, "-m", "sim", "ladder", "x.toml", "--battles", "0"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip() == "sim: --battles: expected a whole number of seeds from 1 to 100,000, found 0"

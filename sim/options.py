"""The command line's numeric options, read in one place (issue 25): each is an argparse ``type``
that takes a bounded whole number (or, for ``--range``, a bounded finite number) and refuses
anything else (not a number, NaN, an infinity, out of range, thousands of digits) with the
project's one line, naming the option, the range and what was found, and exit status 2
(``Parser``: argparse's own errors, an unknown argument included, are that one line too).

Seeds: every command that takes one (``run``, ``play``, ``stats``, ``odds``, ``import``) accepts
the range a replay log and a scenario file hold, whole numbers from ``-SEED_LIMIT`` to
``SEED_LIMIT`` (sim.rules.dice); `sim stats` also refuses a first seed whose runs would pass
the top (sim.cli)."""

from __future__ import annotations

import argparse
import math
import re
import sys

from sim.errors import escape_controls

MAX_TEXT = 40  # characters of a refused value quoted in the message
MAX_JOBS = 256  # processes side by side (`sim stats --jobs`)
MAX_ODDS_RUNS = 1_000_000  # runs of the battle itself (`sim odds --runs`)
MAX_STEP = 10_000  # a script step (a scenario's list holds at most that many: sim.scenario.load.MAX_LIST)
MAX_MODELS = 200  # models of a datasheet import (a models entry of a scenario: sim.scenario.load.COUNT)
_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")


class Parser(argparse.ArgumentParser):
    """argparse with the project's error: one line, escaped, exit status 2 (instead of the usage
    and the message on two or more lines): ``sim: --runs: expected ..., found ...`` for an
    option's value (as the commands' own checks word it), ``sim: <command>: <message>`` for the
    rest (an unknown argument, a missing one)."""

    def error(self, message: str):
        if message.startswith("argument "):
            line = message[len("argument "):]
        else:
            line = (self.prog.split(" ", 1)[1] + ": " if " " in self.prog else "") + message
        sys.stderr.write(f"sim: {escape_controls(line)}\n")
        raise SystemExit(2)


def _found(text: str) -> str:
    t = text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + f"... ({len(text):,} characters)"
    return escape_controls(repr(t) if not _WHOLE.fullmatch(text.strip()) else t)


def whole(low: int, high: int, what: str, grouped: bool = True):
    """An argparse type: a whole number from ``low`` to ``high`` (``what`` the message calls it;
    the bounds written with thousands separators unless not ``grouped``: a seed is copied whole)."""
    lo, hi = (f"{low:,}", f"{high:,}") if grouped else (str(low), str(high))

    def read(text: str) -> int:
        t = text.strip()
        if not _WHOLE.fullmatch(t) or not low <= int(t) <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {lo} to {hi}, found {_found(text)}")
        return int(t)
    read.__name__ = what  # (argparse names a type by it)
    return read


def number(low: float, high: float, what: str):
    """An argparse type: a finite number from ``low`` to ``high``."""
    def read(text: str) -> float:
        try:
            v = float(text) if len(text) <= MAX_TEXT else math.nan
        except ValueError:
            v = math.nan
        if not (math.isfinite(v) and low <= v <= high):
            raise argparse.ArgumentTypeError(f"expected {what} from {low:g} to {high:g}, found {_found(text)}")
        return v
    read.__name__ = what
    return read


def seed(text: str) -> int:
    """--seed: a whole number from -SEED_LIMIT to SEED_LIMIT (sim.rules.dice, read when the option
    is: `sim --help` imports no dice)."""
    from sim.rules.dice import SEED_LIMIT
    return whole(-SEED_LIMIT, SEED_LIMIT, "a whole number seed", grouped=False)(text)


seed.__name__ = "a whole number seed"  # (argparse names a type by it)
jobs = whole(1, MAX_JOBS, "a whole number of processes")
odds_runs = whole(0, MAX_ODDS_RUNS, "a number of Monte Carlo runs")
step = whole(1, MAX_STEP, "a script step")
models = whole(1, MAX_MODELS, "a whole number of models")


def stats_runs(text: str) -> int:
    """`sim stats --runs`: from 1 to sim.analysis.stats.MAX_RUNS (read when the option is)."""
    from sim.analysis.stats import MAX_RUNS
    return whole(1, MAX_RUNS, "a whole number of runs")(text)


def ladder_battles(text: str) -> int:
    """`sim ladder --battles`: from 1 to sim.analysis.ladder.MAX_BATTLES (read when the option is)."""
    from sim.analysis.ladder import MAX_BATTLES
    return whole(1, MAX_BATTLES, "a whole number of seeds")(text)


def inches(text: str) -> float:
    """`sim matrix --range`: from 0 to sim.analysis.matrix.MAX_RANGE inches."""
    from sim.analysis.matrix import MAX_RANGE
    return number(0.0, MAX_RANGE, "a distance in inches")(text)  # (0 or more, as it said before)


def last_seed_problem(first: int, runs: int, given: bool) -> str | None:
    """`sim stats`: the seeds ``first`` .. ``first + runs - 1`` all within the range, or the
    message (``given``: the first seed came from --seed, else from the scenario)."""
    from sim.rules.dice import SEED_LIMIT
    last = first + runs - 1
    if last <= SEED_LIMIT:
        return None
    where = "--seed" if given else "the scenario's seed"
    return (f"{where}: expected a first seed of at most {SEED_LIMIT - runs + 1} for {runs:,} runs (seeds go up "
            f"to {SEED_LIMIT}), found {first}")

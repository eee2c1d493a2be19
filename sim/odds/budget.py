"""What one attack's odds may cost: memory and work, counted before they are spent, so that any
attack gets an answer within bounded memory and time (issue 25).

**Memory.** Before the exact engine (sim.odds.exact) allocates the arrays of one step (a pool's
joint tables, a chain's transition matrices, the [state, saves failed, wounds] array a pool's
save rolls work on, a binomial table), it counts their entries, every dimension included;
beyond ``MEMORY_BUDGET`` bytes the attack is intractable exactly and sim.odds.engine answers
with the Monte Carlo instead, its note naming the budget.

**Work.** The exact engine counts its work as it goes, in work units: one multiply-add of its
arrays is one unit, one Python-level step (a state's transitions found, an outcome added up)
``PY_STEP`` units. Beyond ``WORK_BUDGET`` units in one attack it stops (Intractable), and the
Monte Carlo answers (sim.odds.montecarlo). That counts its steps too: each die rolled, and per
pool its target's models times the wounds it allocates (allocating reads every model); it makes
its runs (sim.odds.engine.MC_RUNS), or as many as ``MC_WORK_BUDGET`` steps allow (its note says
how many). An attack that could roll more than ``MC_MAX_ATTACK_DICE`` attack dice in one run is
refused (OddsError, the figure named): it is beyond both.

Work is counted, never timed, so the answer (and which engine gives it) is the same on every
machine. The count is per attack (``counting``: the engine opens it); the pieces of the exact
engine run outside it (a test) are bounded step by step by the same figures.
"""

from __future__ import annotations

import contextlib
import contextvars

MEMORY_BUDGET = 64 * 2**20  # bytes of float64 arrays one step of the exact engine holds at once
WORK_BUDGET = 2 * 10**9  # work units of one attack's exact odds (a second or two on the reference machine)
COUNTERS_SHARE = 4  # counting unsaved attacks and mortal wounds may take WORK_BUDGET / this; beyond, the odds
# are worked out again without them (sim.odds.engine.solve): the counters are the dearest part
PY_STEP = 200  # work units one Python-level step counts (a multiply-add counts 1)
MC_WORK_BUDGET = 5_000_000  # steps of the Monte Carlo fallback in all (its runs end there)
MC_MAX_ATTACK_DICE = 20_000  # attack dice one run may roll at most (beyond: no answer, OddsError)
MC_CACHE = 4_096  # set-ups and allocation contexts the Monte Carlo keeps at once
ITEM = 8  # bytes of a float64


class Intractable(Exception):
    """Too large to work out exactly (the message says which bound, and its figure)."""


def mib(nbytes: int) -> str:
    return f"{nbytes / 2**20:,.0f} MiB"


class Budget:
    """The work one attack has spent so far, and its share of WORK_BUDGET (1: all of it)."""

    __slots__ = ("work", "share")

    def __init__(self, share: int = 1):
        self.work = 0
        self.share = share

    @property
    def limit(self) -> int:
        return WORK_BUDGET // self.share


_current: contextvars.ContextVar = contextvars.ContextVar("odds_budget", default=None)


@contextlib.contextmanager
def counting(share: int = 1):
    """Count the work of one attack from zero, within WORK_BUDGET / ``share`` (nested: the outer
    count goes on)."""
    if _current.get() is not None:
        yield _current.get()
        return
    token = _current.set(Budget(share))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def need(entries: int, what: str) -> None:
    """Before allocating float64 arrays of ``entries`` entries in all (one step's arrays): raise
    Intractable if they are beyond MEMORY_BUDGET."""
    if entries * ITEM > MEMORY_BUDGET:
        raise Intractable(f"{what} would take {mib(entries * ITEM)}, beyond the memory budget of "
                          f"{mib(MEMORY_BUDGET)}")


def spend(units: int, what: str) -> None:
    """Before doing ``units`` work units: raise Intractable if the attack's work so far and
    these go beyond WORK_BUDGET."""
    b = _current.get()
    if b is None:  # (outside an attack's count: this step alone is bounded)
        if units > WORK_BUDGET:
            raise Intractable(f"{what} would go beyond the work budget of {WORK_BUDGET:,} units")
        return
    b.work += units
    if b.work > b.limit:
        raise Intractable(f"{what} went beyond the work budget of {b.limit:,} units")


def python_steps(n: int, what: str) -> None:
    """Before ``n`` Python-level steps (PY_STEP units each)."""
    spend(n * PY_STEP, what)

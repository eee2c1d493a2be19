"""Probability distributions of counts, in float64 (the odds engine's arithmetic: every
distribution it returns sums to 1 within 1e-12, which the engine checks).

A count distribution is a 1-D numpy array ``p`` with ``p[k]`` the chance of k; a joint one of two
counts a 2-D array. A dice expression's distribution is found by rolling the expression itself
(sim.rules.dice.DiceExpr.roll: D3 halved, the sum, the +k) with forced dice over every sequence
of faces, so the odds read the dice rules from their one home."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from sim.odds import budget as BU
from sim.rules.dice import DiceExpr, ForcedDice

ENUMERATE_UP_TO = 4  # dice in an expression enumerated face by face (6**4 = 1,296 rolls)
CACHED_TABLE = 512  # binomial tables of up to this many rows are kept (2 MiB each at most)


@functools.lru_cache(maxsize=256)
def _dice_expr_tuple(expr: DiceExpr) -> tuple[float, ...]:
    if not expr.is_random:
        out = [0.0] * (expr.k + 1)
        out[expr.k] = 1.0
        return tuple(out)
    if expr.n > ENUMERATE_UP_TO:  # the sum of single dice, convolved
        one = np.array(_dice_expr_tuple(DiceExpr(1, expr.sides, 0)))
        acc = np.array([1.0])
        for _ in range(expr.n):
            acc = np.convolve(acc, one)
        if expr.k >= 0:
            return tuple(np.concatenate([np.zeros(expr.k), acc]).tolist())
        out = [0.0] * (len(acc) + expr.k)  # (a modifier took k below 0: each sum's value, DiceExpr.value)
        for s_, p_ in enumerate(acc):
            if p_:
                out[expr.value(s_)] += p_
        return tuple(out)
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=expr.n):
        v = expr.roll(ForcedDice(list(faces)), "odds")
        counts[v] = counts.get(v, 0) + 1
    total = 6 ** expr.n
    out = [0.0] * (max(counts) + 1)
    for v, c in counts.items():
        out[v] = c / total
    return tuple(out)


def dice_expr(expr) -> np.ndarray:
    """The distribution of a DiceExpr (or a plain int) when rolled (02.02.03, 01.05)."""
    if isinstance(expr, int):
        expr = DiceExpr(0, 0, expr)
    return np.array(_dice_expr_tuple(expr))


def support(p: np.ndarray):
    """(value, probability) for each value with a chance above 0."""
    return [(int(k), float(v)) for k, v in enumerate(p) if v > 0.0]


def _binomial_table(n_max: int, p: float) -> np.ndarray:
    """Row n = the Binomial(n, p) distribution (0..n_max columns), built by the recurrence
    row(n) = q * row(n-1) + p * row(n-1) shifted (no factorials: exact to rounding)."""
    rows = np.zeros((n_max + 1, n_max + 1))
    rows[0, 0] = 1.0
    q = 1.0 - p
    for n in range(1, n_max + 1):
        rows[n, :n + 1] = q * rows[n - 1, :n + 1]
        rows[n, 1:n + 1] += p * rows[n - 1, :n]
    rows.setflags(write=False)
    return rows


_binomial_rows = functools.lru_cache(maxsize=4096)(_binomial_table)


def binomial_rows(n_max: int, p: float) -> np.ndarray:
    """A read-only table: row n is Binomial(n, p) over 0..n_max (rounded up to a multiple of 16
    so that tables are shared between close sizes)."""
    size = max(16, -(-n_max // 16) * 16)
    BU.need((size + 1) ** 2, f"a binomial table of {size:,} rows")
    if size > CACHED_TABLE:  # (built again when asked again: a large table is not kept)
        BU.spend((size + 1) ** 2, f"a binomial table of {size:,} rows")
        return _binomial_table(size, float(p))
    return _binomial_rows(size, float(p))


def binomial_mixture(counts: np.ndarray, p: float) -> np.ndarray:
    """The distribution of Binomial(N, p) where N has the distribution ``counts``."""
    n = len(counts) - 1
    return counts @ binomial_rows(n, p)[:n + 1, :n + 1]


def trim(p: np.ndarray) -> np.ndarray:
    """``p`` without trailing zeros (at least one entry)."""
    nz = np.flatnonzero(p)
    return p[:nz[-1] + 1] if len(nz) else p[:1]


def mean(p: np.ndarray) -> float:
    return float(np.dot(np.arange(len(p)), p))


def sd(p: np.ndarray) -> float:
    k = np.arange(len(p))
    m = float(np.dot(k, p))
    return float(max(np.dot(k * k, p) - m * m, 0.0)) ** 0.5


def at_least(p: np.ndarray) -> np.ndarray:
    """``out[k]`` = P(X >= k)."""
    return np.cumsum(p[::-1])[::-1]

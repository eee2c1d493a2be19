"""What the sandbox's odds panel shows of an attack, worked out where the odds are solved (the
worker process: no pygame here, only sim.odds's public API). Beside sim.odds.engine's Preview
(models destroyed per target), each target's expected hits, wounds and damage (wounds lost) and
the distribution of damage, so the panel can show the whole chain an attack goes through."""

from __future__ import annotations

from typing import NamedTuple


class Chain(NamedTuple):
    """One target's expected attack dice, hits, wounds (of every pool at it) and damage, its
    wounds left when the attack starts, and P(damage = k)."""

    uid: str
    attacks: float
    hits: float
    wounds: float
    damage: float
    wounds_left: int
    damage_p: tuple


def solve_summary(problem) -> tuple:
    """(Preview, notes, method, chains): sim.odds.engine.solve_preview's answer and a Chain per
    target, from one solve."""
    from sim.odds.engine import preview, solve
    odds = solve(problem, counters=False)
    chains = []
    for t in odds.targets:
        pools = [p for p in odds.pools if p.target == t.uid]
        chains.append(Chain(t.uid, sum(p.dice.mean for p in pools), sum(p.hits.mean for p in pools),
                            sum(p.wounds.mean for p in pools), t.damage.mean, t.wounds,
                            tuple(float(x) for x in t.damage.p)))
    return preview(odds), tuple(odds.notes), odds.method, tuple(chains)

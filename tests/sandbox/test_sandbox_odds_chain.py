"""The in-battle odds panel shows the whole chain of an attack (issue 28 item 11): expected attack
dice, hits, wounds and damage per target, the very numbers of sim.odds's solve of the command
Resolve would submit, and percentages over the bars of P(k models destroyed)."""

from __future__ import annotations

import pygame
import pytest

from sandbox_support import ROOT, shot
from sim.odds import solve
from sim.odds.engine import problem_for_plan
from test_sandbox_odds import _declare, _settle, TABLE


def test_the_panel_shows_hits_wounds_and_damage(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    _settle(d)
    odds = sb.odds
    assert odds.state == "ready"
    b = sb.battle
    assert b.check(sb.order.command()) is None
    want = solve(problem_for_plan(b, b.validated), counters=False)
    (chain,) = odds.chains
    t = want.targets[0]
    pools = [p for p in want.pools if p.target == t.uid]
    assert chain.hits == pytest.approx(sum(p.hits.mean for p in pools))
    assert chain.wounds == pytest.approx(sum(p.wounds.mean for p in pools))
    assert chain.damage == pytest.approx(t.damage.mean) and chain.wounds_left == t.wounds
    (line,) = odds.chain_lines()
    assert f"hits {chain.hits:.1f}" in line and f"damage {chain.damage:.1f} of {t.wounds}" in line
    shots = ROOT / "tests" / "sandbox" / "screenshots"
    shots.mkdir(exist_ok=True)
    shot(sb.draw(), shots / "odds_panel_chain.png")


def test_bars_carry_their_percentages():
    from sim.sandbox.odds_panel import _bars
    from sim.sandbox.fonts import font
    pygame.init()
    surf = pygame.Surface((300, 60))
    surf.fill((0, 0, 0))
    _bars(surf, pygame.Rect(0, 0, 300, 60), (0.5, 0.3, 0.2), font(10))
    over = pygame.transform.average_color(surf, pygame.Rect(0, 0, 30, 11))  # (above the tallest bar)
    assert sum(over[:3]) > 0  # ("50%" written there)

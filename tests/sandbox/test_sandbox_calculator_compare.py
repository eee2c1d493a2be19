"""The calculator panel compares several attacks side by side (issue 28 item 11): "Compare"
keeps the pair shown as a column, the next pair chosen is read beside it (several units on one
target), the same figures as sim.analysis.calculator's columns; "Clear" drops them."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT, shot
from sim.analysis import calculator as C
from test_sandbox_calculator import SCENARIO, SHOTS, _pick


def test_two_attackers_on_one_target_side_by_side(make):
    d = make(SCENARIO)
    sb = d.sb
    first = sb.spec.units[0]
    d.click_model(first.models[0].id)
    d.click_button("bar:calculator")
    calc = sb.calculator
    d.pump(2)
    dfn = calc.choices[calc.defender][1]
    d.click_button("calc:compare")
    other = next(o for o, c in calc.choices.items() if c[0] == "table" and c[1] not in (first.id, dfn)
                 and next(u for u in sb.spec.units if u.id == c[1]).owner == first.owner)
    calc.choose(sb, attacker=other)
    d.pump(2)
    cond = C.Conditions(range=12.0)
    want = C.columns(_pick(sb, first.id), _pick(sb, dfn), cond) + \
        C.columns(_pick(sb, calc.choices[other][1]), _pick(sb, dfn), cond)
    assert len(calc.columns) == 2
    assert calc.lines() == C.text(want, cond).split("\n")
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "calculator_compare.png")
    d.click_button("calc:clear")
    d.pump(2)
    assert len(calc.columns) == 1 and calc.columns[0].label == calc.pick(sb, other).shown

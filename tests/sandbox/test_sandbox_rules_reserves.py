"""The sandbox's decision panel for a choice of several friendly units (helper "reserves": Gate of
Infinity's units back into reserves, one a request): each unit by its name, "done" in words, the
prompt saying how many are picked; a click answers it."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UILabel
from sim.sandbox.widgets import TextLine

from sandbox_support import ROOT
from sim.decisions import DecisionRequest
from sim.rules.effects import vocabulary as V

SHOWCASE = ROOT / "scenarios" / "rules_showcase.toml"


def test_a_choice_of_friendly_units_names_them_and_done(make):
    d = make(SHOWCASE)
    sb = d.sb
    answers = []
    sb.battle.pending = DecisionRequest(
        "rule_choice", "blue:gate-of-infinity round 1 pick 1", 1, ["mob", "boss", V.DONE], V.DONE,
        prompt="Gate of Infinity: pick a unit to remove into Strategic Reserves (0 of at most 3 picked)",
        context={"rule": "gate-of-infinity", "choice": V.PICK_FRIENDS, "picked": []})
    sb.dirty.add("orders")
    real = sb.answer
    sb.answer = answers.append
    try:
        d.pump(2)
        labels = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
        assert "Gate of Infinity (army rule)" in labels and "0 of at most 3 picked" in labels
        assert d.button("answer:mob").text == "Raider Mob" and d.button("answer:boss").text == "Raider Boss"
        assert d.button("answer:done").text == "Done: no more units"
        d.click_button("answer:boss")
        assert answers == ["boss"]
    finally:
        sb.answer = real
        sb.battle.pending = None
        pygame.event.clear()


def test_the_card_names_the_friendly_units_picked():
    from sim.battle import Battle
    from sim.rules.effects import table
    from sim.sandbox import rules_card as RC
    from sim.scenario.load import parse_scenario
    w = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}
    pm = ["INFANTRY", "PLAGUE MARINES"]
    m = {"count": 1, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "base_mm": 32, "weapons": ["gun"]}
    red = [{"id": "p1", "name": "Plague Marines", "keywords": pm, "models": [dict(m, at=[[10, 5]])]},
           {"id": "p2", "name": "Blightlords", "keywords": pm, "models": [dict(m, at=[[20, 5]])]}]
    blue = [{"id": "b1", "name": "b1", "keywords": ["INFANTRY"], "models": [dict(m, at=[[50, 40]])]}]
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": w,
            "armies": [{"name": "A", "units": red, "rules": ["verminous-haze"], "chosen": {"verminous-haze": ["p2"]}},
                       {"name": "B", "units": blue}]}
    rec = table.by_key("verminous-haze")
    with Battle(parse_scenario(data, "t.toml")) as b:
        b._enter()
        assert RC.choice_words(rec, 0) == "picked Blightlords"
        b.resources.rule_choices.clear()
        assert RC.choice_words(rec, 0) == "no friendly units picked"

"""13.09 Hidden through the whole ECS path: infantry inside a wood cannot be targeted from
beyond 15" until its unit makes ranged attacks; it stays visible the turn after, then hides
again."""

from __future__ import annotations

import pytest

from sim.battle import Battle
from sim.commands import EndTurn, Selection, Shoot
from sim.errors import Refusal
from sim.scenario.load import parse_scenario

WOOD = [[16, 16], [24, 16], [24, 24], [16, 24]]


def spec():
    return parse_scenario({
        "battle": {"name": "hidden", "seed": 3},
        "terrain": [{"name": "wood", "area": WOOD,
                     "features": [{"category": "light", "polygon": WOOD}]}],
        "weapons": {"rifle": {"range": 30, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
        "armies": [
            {"name": "A", "units": [{"id": "lurkers", "keywords": ["INFANTRY"], "models": [
                {"count": 2, "M": 6, "T": 4, "Sv": 3, "W": 20, "Ld": 6, "OC": 1, "weapons": ["rifle"],
                 "at": [[20, 20], [21.5, 20]]}]}]},
            {"name": "B", "units": [{"id": "hunters", "keywords": ["INFANTRY"], "models": [
                {"count": 2, "M": 6, "T": 4, "Sv": 3, "W": 20, "Ld": 6, "OC": 1, "weapons": ["rifle"],
                 "at": [[20, 40], [21.5, 40]]}]}]},
        ],
    }, "hidden.toml")


def shoot(b, unit, target):
    mids = [f"{unit}/1", f"{unit}/2"]
    b.run_command(Shoot(unit, tuple(Selection(m, "rifle", target) for m in mids)))


def test_13_09_hidden_until_it_shoots_then_visible_for_this_turn_and_the_next():
    with Battle(spec()) as b:
        before = b.state_hash()
        with pytest.raises(Refusal, match="not visible"):
            shoot(b, "hunters", "lurkers")  # 19" away, hidden in the wood
        assert b.state_hash() == before
        shoot(b, "lurkers", "hunters")  # the lurkers can see out and shoot
        b.run_command(EndTurn())
        shoot(b, "hunters", "lurkers")  # made ranged attacks last turn: not hidden
        b.run_command(EndTurn())
        b.run_command(EndTurn())
        with pytest.raises(Refusal, match="not visible"):
            shoot(b, "hunters", "lurkers")  # no ranged attacks this turn or last: hidden again

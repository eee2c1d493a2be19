"""13.06 / 24.35 / Part A ruling 12 in a battle: a scenario's dense feature heights decide which
moves the battle accepts. A VEHICLE crosses a dense wall of 2" or less, not a taller one or one
given no height; a Super-heavy Walker's normal and advance moves cross one of 4" or less (a
library armoured container, 3"), its charge does not; INFANTRY cross any."""

from __future__ import annotations

import pytest

from scen import model, unit
from sim.battle import Battle
from sim.commands import Move
from sim.errors import Refusal
from sim.plan import moves as MV
from sim.scenario.load import parse_scenario
from sim.world import queries as W

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}
WALL = [[12, 5], [12.5, 5], [12.5, 15], [12, 15]]


def _spec(terrain, red_keywords=("VEHICLE",), abilities=None):
    red = unit("r1", model((10, 10), ["gun"], M=8, base_mm=60), keywords=red_keywords)
    if abilities:
        red["abilities"] = abilities
    data = {"battle": {"name": "heights", "seed": 1},
            "terrain": terrain, "weapons": GUN,
            "armies": [{"name": "A", "units": [red]},
                       {"name": "B", "units": [unit("b1", model((50, 40), ["gun"]))]}]}
    return parse_scenario(data, "heights.toml")


def _wall(height=None):
    feat = {"category": "dense", "polygon": WALL}
    if height is not None:
        feat["height"] = height
    return [{"name": "wall", "area": WALL, "features": [feat]}]


def _x(b, mid="r1/1"):
    b._enter()
    return W.footprint(b.models[mid]).x


@pytest.mark.parametrize("height,legal", [(2, True), (1.5, True), (2.5, False), (None, False)])
def test_13_06_a_vehicle_crosses_a_dense_wall_only_if_it_is_2_inches_or_less(height, legal):
    with Battle(_spec(_wall(height))) as b:
        cmd = Move("r1", (("r1/1", 16, 10),))
        if legal:
            b.run_command(cmd)
            assert _x(b) == 16
        else:
            with pytest.raises(Refusal, match=r"r1/1: its path crosses a dense feature of 'wall'.*\(13.06, Part A 12\)"):
                b.submit(cmd)


def test_12_infantry_cross_a_dense_wall_of_any_height():
    with Battle(_spec(_wall(None), red_keywords=("INFANTRY",))) as b:
        b.run_command(Move("r1", (("r1/1", 16, 10),)))
        assert _x(b) == 16


def test_24_35_a_super_heavy_walker_strides_over_a_3_inch_container_but_not_a_5_inch_ruin():
    container = [{"piece": "armoured container", "at": [13, 10], "rotation": 90}]   # 3" (the piece's own)
    with Battle(_spec(container, ("VEHICLE", "WALKER"), "Super-heavy Walker")) as b:
        b._enter()
        ent = b.units["r1"]
        assert MV.may_cross_dense(ent, "normal") == 4.0 and MV.may_cross_dense(ent, "charge") is False
        b.run_command(Move("r1", (("r1/1", 16, 10),)))
        assert _x(b) == 16
    # without the ability the container stops the walker, and the refusal says who may cross it
    with Battle(_spec(container, ("VEHICLE", "WALKER"))) as b:
        with pytest.raises(Refusal, match=r"3\" tall.*Super-heavy Walker's normal, advance or fall-back move"):
            b.submit(Move("r1", (("r1/1", 16, 10),)))
    # a container given 4.5" (the scenario's height) is beyond it
    tall = [dict(container[0], height=4.5)]
    with Battle(_spec(tall, ("VEHICLE", "WALKER"), "Super-heavy Walker")) as b:
        with pytest.raises(Refusal, match=r"13.06, Part A 12"):
            b.submit(Move("r1", (("r1/1", 16, 10),)))

"""18.01 / 26 step 7 Transports in a battle deployed by the rules: battle formations name the
units that start embarked (checked by the capacity rule, counted by the reserves cap); revealed,
they leave the deployment and go where their transport goes (its Deploy sets it up with them
inside; in strategic reserves with it); then every DEDICATED TRANSPORT left empty is destroyed."""

from __future__ import annotations

import pytest

from phased import WEAPONS, model, unit
from scen import of_type
from sim import events as ev
from sim.battle import Battle
from sim.commands import DeclareFormations, Deploy, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario
from sim.world import queries as W

CAPACITY = {"models": 4, "keywords": ["INFANTRY"]}


def _waiting(n: int, **kw) -> dict:
    m = model([(0, 0)] * n, ["gun"], **kw)
    del m["at"]
    return m


def _spec():
    red = [unit("rhino", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                transport=CAPACITY),
           unit("husk", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                transport=CAPACITY),
           unit("squad", _waiting(3)), unit("pair", _waiting(2))]
    blue = [unit("b1", _waiting(2))]
    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}],
            "mission": {"deployment": "rules", "first": "red", "defender": "red"}}
    return parse_scenario(data, "test.toml")


def test_18_01_formations_that_overfill_a_transport_are_refused():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match="5 spaces in rhino, more than its capacity of 4"):
            b.run_command(DeclareFormations("red", (), (("squad", "rhino"), ("pair", "rhino"))))
        with pytest.raises(Refusal, match="not red's unit"):
            b.run_command(DeclareFormations("red", (), (("b1", "rhino"),)))
        with pytest.raises(Refusal, match="goes where rhino goes"):
            b.run_command(DeclareFormations("red", ("squad",), (("squad", "rhino"),)))


def test_18_01_embarked_units_go_with_their_transport_and_an_empty_dedicated_one_is_destroyed():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b.run_command(DeclareFormations("red", (), (("squad", "rhino"),)))
        assert not of_type(b, ev.FORMATIONS)  # (secret until both have declared)
        b.run_command(DeclareFormations("blue"))
        red = of_type(b, ev.FORMATIONS)[0]
        assert red["embarked"] == {"squad": "rhino"}
        (gone,) = of_type(b, ev.DESTROYED_EMPTY)
        assert gone["unit"] == "husk"
        b._enter()
        squad, rhino = b.units["squad"], b.units["rhino"]
        assert W.embarked_in(squad) == rhino and not W.undeployed(squad) and not W.in_reserves(squad)
        assert not W.undeployed(b.units["husk"])  # (destroyed: nothing to deploy)
        b.run_command(Deploy("rhino", (("rhino/1", 30.0, 6.0),)))
        b._enter()
        assert W.embarked_in(squad) == rhino and len(W.unit_models(rhino)) == 1 and W.unit_models(squad) == []


def test_20_01_a_transport_in_reserves_carries_its_passengers_and_they_count():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        # 4 red units: the rhino and the squad inside it are 2 in reserves, husk 1 more: over half
        with pytest.raises(Refusal, match="20.01"):
            b.run_command(DeclareFormations("red", ("rhino", "husk"), (("squad", "rhino"),)))
        b.run_command(DeclareFormations("red", ("rhino",), (("squad", "rhino"),)))
        b.run_command(DeclareFormations("blue"))
        b._enter()
        assert W.in_reserves(b.units["rhino"]) and W.embarked_in(b.units["squad"]) == b.units["rhino"]
        assert not W.in_reserves(b.units["squad"])

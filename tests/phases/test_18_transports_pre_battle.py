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


def _spec(capacity=CAPACITY):
    red = [unit("rhino", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                transport=capacity),
           unit("husk", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                transport=capacity),
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


# --- 24.31 a dedicated transport scouts for its passengers; 18.04.01 after the transport's ingress ---

def test_24_31_a_dedicated_transport_makes_the_scout_move_for_its_scouts_passengers():
    from sim.commands import ScoutMove
    from sim.plan.deployment import scouts, scouts_distance
    red = [unit("rhino", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                transport=CAPACITY),
           unit("squad", _waiting(3), abilities=['Scouts 6"'])]
    blue = [unit("b1", _waiting(2))]
    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}],
            "mission": {"deployment": "rules", "first": "red", "defender": "red"}}
    with Battle(parse_scenario(data, "test.toml"), dice=ForcedDice([1] * 20)) as b:
        b.run_command(StartBattle())
        b.run_command(DeclareFormations("red", (), (("squad", "rhino"),)))
        b.run_command(DeclareFormations("blue"))
        b.run_command(Deploy("rhino", (("rhino/1", 30.0, 6.0),)))
        b.run_command(Deploy("b1", (("b1/1", 30.0, 40.0), ("b1/2", 31.5, 40.0))))
        b.step_until_blocked()
        b._enter()
        assert scouts(b, 0) == [b.units["rhino"]] and scouts_distance(b.units["rhino"]) == 6
        with pytest.raises(Refusal, match=r"may move at most 6"):
            b.run_command(ScoutMove("rhino", (("rhino/1", 30.0, 12.5),)))
        b.run_command(ScoutMove("rhino", (("rhino/1", 30.0, 11.0),)))
        assert [e["unit"] for e in of_type(b, ev.SCOUTED)] == ["rhino"]


def _ingressed_transport(abilities, at):
    """Red's transport (the squad in it) arrives from reserves in round 2 at ``at``, after blue
    won the roles roll-off and chose Defender (so the zones swap: red's is y 32-44)."""
    from sim.commands import EndPhase, Ingress
    from sim.rules.turn import Phase
    red = [unit("rhino", _waiting(1, base_mm=60, W=10, T=9), keywords=("VEHICLE", "TRANSPORT"), transport=CAPACITY,
                abilities=abilities),
           unit("squad", _waiting(2)), unit("r1", _waiting(1)), unit("r2", _waiting(1))]
    blue = [unit("b1", _waiting(1)), unit("b2", _waiting(1))]
    data = {"battle": {"name": "z", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}],
            "mission": {"deployment": "rules", "first": "red"}}
    b = Battle(parse_scenario(data, "z.toml"), dice=ForcedDice([2, 5] + [4] * 400))
    b.__enter__()
    b.submit(StartBattle())
    b.step_until_blocked()
    b.answer("defender")
    b.step_until_blocked()
    ts = b.turn_state
    assert ts.the_defender() == 1 and ts.zones()[0][0] == (0.0, 32.0)
    b.run_command(DeclareFormations("blue"))
    b.run_command(DeclareFormations("red", ("rhino",), (("squad", "rhino"),)))
    b.run_command(Deploy("b1", (("b1/1", 10.0, 5.0),)))
    b.run_command(Deploy("r1", (("r1/1", 10.0, 38.0),)))
    b.run_command(Deploy("b2", (("b2/1", 50.0, 5.0),)))
    b.run_command(Deploy("r2", (("r2/1", 50.0, 38.0),)))
    b.step_until_blocked()
    for _ in range(200):
        if ts.round == 2 and ts.phase == Phase.MOVEMENT and ts.active == 0:
            break
        b.run_command(EndPhase(), answer=lambda r: r.default)
    b.run_command(Ingress("rhino", (("rhino/1",) + at,)))
    return b


def test_18_04_01_passengers_keep_out_of_the_enemy_zone_as_the_roles_have_it():
    from sim.commands import Disembark
    b = _ingressed_transport([], (30.0, 41.0))
    try:  # (red's own zone after the swap: not the enemy's)
        b.run_command(Disembark("squad", (("squad/1", 27.5, 41.0), ("squad/2", 27.5, 42.5))))
        assert W.embarked_in(b.units["squad"]) is None
    finally:
        b.__exit__(None, None, None)


def test_18_04_01_a_deep_strike_transports_passengers_may_disembark_inland():
    from sim.commands import Disembark
    b = _ingressed_transport(["Deep Strike"], (30.0, 22.0))
    try:
        b.run_command(Disembark("squad", (("squad/1", 27.5, 22.0), ("squad/2", 27.5, 23.5))))
        assert W.embarked_in(b.units["squad"]) is None
    finally:
        b.__exit__(None, None, None)


# --- the default player's battle formations: its dedicated transports filled -----------------

def test_18_01_the_default_player_puts_a_unit_in_each_dedicated_transport_then_fills_them():
    """A file that plans no unit embarked (an army made from a roster or a catalogue): the
    default player gives each DEDICATED TRANSPORT (capacity 5 INFANTRY) a unit first (squad 3 in
    the rhino, pair 2 in the husk: none is destroyed, where filling the rhino first would put
    both in it and lose the husk); a transport carries no other transport."""
    from sim.players import deployment as DEP
    with Battle(_spec({"models": 5, "keywords": ["INFANTRY"]}), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        cmd = DEP.formations(b, 0)
        assert cmd == DeclareFormations("red", (), (("squad", "rhino"), ("pair", "husk")))
        b.run_command(cmd)
        b.run_command(DeclareFormations("blue"))
        assert not of_type(b, ev.DESTROYED_EMPTY)


def test_18_01_the_default_player_keeps_the_file_s_plan_of_who_rides():
    """A file that plans a unit embarked keeps its plan: the husk it leaves empty is destroyed
    (scenarios/transport.toml shows it)."""
    from sim.players import deployment as DEP
    spec = _spec()
    (squad,) = [u for u in spec.units if u.id == "squad"]
    object.__setattr__(squad, "embarked", "rhino")
    with Battle(spec, dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        assert DEP.formations(b, 0) == DeclareFormations("red", (), (("squad", "rhino"),))


def test_18_01_the_default_player_fills_a_transport_as_far_as_it_goes():
    """One dedicated transport, room for 4: the squad (3) first, then nothing else fits the
    pair (2); with room for 6 it takes both."""
    for room, want in ((4, (("squad", "rhino"),)), (6, (("squad", "rhino"), ("pair", "rhino")))):
        red = [unit("rhino", _waiting(1, base_mm=100, W=10, T=9), keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"),
                    transport={"models": room, "keywords": ["INFANTRY"]}),
               unit("squad", _waiting(3)), unit("pair", _waiting(2))]
        assert _default_embarks(red) == want, room


def test_18_01_the_default_player_matches_units_to_transports_so_that_none_is_lost():
    """The first transport (unit order) takes anyone INFANTRY, the second only a PRIEST: the
    priest, first in unit order, rides in the second (the only one it can save) and the squad in
    the first; taking units in unit order would put the priest in the first and lose the second."""
    dt = ("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT")
    red = [unit("rhino", _waiting(1, base_mm=100, W=10, T=9), keywords=dt, transport={"models": 6, "keywords": ["INFANTRY"]}),
           unit("shrine", _waiting(1, base_mm=100, W=10, T=9), keywords=dt,
                transport={"models": 6, "keywords": ["INFANTRY", "PRIEST"]}),
           unit("priest", _waiting(1), keywords=("INFANTRY", "PRIEST")), unit("squad", _waiting(3))]
    assert _default_embarks(red) == (("squad", "rhino"), ("priest", "shrine"))


def _default_embarks(red: list) -> tuple:
    """Who the default player embarks where, red's units ``red`` against one blue unit."""
    from sim.players import deployment as DEP
    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": [unit("b1", _waiting(2))]}],
            "mission": {"deployment": "rules", "first": "red", "defender": "red"}}
    with Battle(parse_scenario(data, "test.toml"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        return DEP.formations(b, 0).embarked

"""18 Transports in a battle, through the commands (forced dice where dice are rolled): a unit
that starts embarked is off the battlefield (01.02.04); 18.02 Embark right after a move; 18.04
Disembark in its modes (Tactical then a move, Rapid then no charge, none after the transport
advanced, wholly within 3"); 18.05 the emergency disembark of a destroyed transport's passengers
(hazard rolls, set up within 6", battle-shocked, before Deadly Demise); 24.14 Firing Deck; 18.01
the empty DEDICATED TRANSPORT; and battle formations that embark units (26 step 7)."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type
from sim import events as ev
from sim.battle import Battle
from sim.commands import (DeclareCharge, Disembark, EndPhase, Move, Selection, SelectToMove, Shoot,
                          StartBattle)
from sim.errors import Refusal, ScenarioError
from sim.plan.common import not_there
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "lance": weapon(36, 1, 2, 14, -4, 12),
           "rocket": weapon(24, 1, 3, 8, -2, 3, "[ONE SHOT]")}
CAPACITY = {"models": 6, "keywords": ["INFANTRY"]}


def _rhino(at=(30, 10), **kw):
    return unit("rhino", model(at, ["gun"], M=10, T=9, Sv=3, W=10, base_mm=100, keywords=["VEHICLE"]),
                keywords=("VEHICLE", "TRANSPORT"), transport=CAPACITY, **kw)


def _squad(n=3, **kw):
    return unit("squad", model([(2 + 1.5 * i, 2) for i in range(n)], ["gun", "rocket"]), embarked="rhino", **kw)


def _spec(red=None, blue=None, **kw):
    red = red if red is not None else [_rhino(), _squad(), unit("walkers", model([(21, 10), (21, 11.5)], ["gun"]))]
    blue = blue if blue is not None else [unit("b1", model([(30, 38), (31.5, 38)], ["lance"]))]
    return mission_scenario(red, blue, weapons=WEAPONS, **kw)


def _to_movement(b):
    b.run_command(StartBattle())
    assert str(b.turn_state.phase) == "movement"


# a tactical layout north of the rhino (at (30, 10), radius 1.97"): wholly within 3"
NORTH = (("squad/1", 28.7, 13.0), ("squad/2", 30.0, 13.0), ("squad/3", 31.3, 13.0))


def test_01_02_04_a_unit_that_starts_embarked_is_off_the_battlefield():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        _to_movement(b)
        b._enter()
        squad = b.units["squad"]
        assert W.embarked_in(squad) == b.units["rhino"] and W.unit_models(squad) == []
        assert not W.in_reserves(squad) and W.off_table(squad)
        assert not_there(squad, "squad") == "squad is not on the battlefield: it is embarked in rhino (01.02.04)"
        with pytest.raises(Refusal, match="embarked in rhino"):
            b.run_command(Move("squad", (("squad/1", 10, 10),)))


def test_18_04_tactical_disembark_then_a_normal_move_first():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        _to_movement(b)
        b.run_command(Disembark("squad", NORTH))
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "tactical disembark" and e["transport"] == "rhino"
        b._enter()
        assert W.embarked_in(b.units["squad"]) is None and len(W.unit_models(b.units["squad"])) == 3
        with pytest.raises(Refusal, match="after its tactical disembark"):
            b.run_command(Move("walkers", (("walkers/1", 22, 10), ("walkers/2", 22, 11.5))))
        b.run_command(Move("squad", tuple((m, x, y + 2) for m, x, y in NORTH)))
        b.run_command(Move("walkers", (("walkers/1", 22, 10), ("walkers/2", 22, 11.5))))


def test_18_04_a_model_set_up_beyond_3_inches_is_refused():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        _to_movement(b)
        far = NORTH[:2] + (("squad/3", 31.3, 14.5),)
        with pytest.raises(Refusal, match=r"squad/3: part of its base is .*wholly within 3\""):
            b.run_command(Disembark("squad", far))


def test_18_04_rapid_after_the_transport_moved_and_then_no_charge():
    blue = [unit("b1", model([(36, 28), (37.5, 28)], ["gun"]))]
    with Battle(_spec(blue=blue), dice=ForcedDice([])) as b:
        _to_movement(b)
        b.run_command(Move("rhino", (("rhino/1", 30, 16),)))
        b.run_command(Disembark("squad", tuple((m, x, y + 6) for m, x, y in NORTH)))
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "rapid disembark"
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        with pytest.raises(Refusal, match="made a rapid disembark this turn and cannot declare a charge"):
            b.run_command(DeclareCharge("squad"))


def test_18_04_no_disembark_after_the_transport_advanced():
    with Battle(_spec(), dice=ForcedDice([2])) as b:
        _to_movement(b)
        b.run_command(SelectToMove("rhino", "advance"))
        b.run_command(Move("rhino", (("rhino/1", 30, 20),), "advance"))
        with pytest.raises(Refusal, match="rhino advanced this phase: no unit may disembark"):
            b.run_command(Disembark("squad", tuple((m, x, y + 10) for m, x, y in NORTH)))


def test_18_02_embark_right_after_a_move_within_3_inches():
    red = [_rhino(), unit("walkers", model([(21, 10), (21, 11.5)], ["gun"]))]
    with Battle(_spec(red=red), dice=ForcedDice([])) as b:
        _to_movement(b)
        near = (("walkers/1", 26.5, 10), ("walkers/2", 26.5, 11.5))
        with pytest.raises(Refusal, match=r"walkers/1: 3\.\d\d\" from rhino"):
            b.run_command(Move("walkers", (("walkers/1", 24.2, 10), ("walkers/2", 26.5, 11.5)), embark="rhino"))
        b.run_command(Move("walkers", near, embark="rhino"))
        (e,) = of_type(b, ev.EMBARKED)
        assert e == {"type": ev.EMBARKED, "unit": "walkers", "transport": "rhino"}
        b._enter()
        assert W.embarked_in(b.units["walkers"]) == b.units["rhino"] and W.unit_models(b.units["walkers"]) == []


def test_18_02_no_room_is_refused():
    red = [_rhino(), _squad(5), unit("walkers", model([(21, 10), (21, 11.5)], ["gun"]))]
    with Battle(_spec(red=red), dice=ForcedDice([])) as b:
        _to_movement(b)
        with pytest.raises(Refusal, match="7 spaces in rhino, more than its capacity of 6"):
            b.run_command(Move("walkers", (("walkers/1", 26.5, 10), ("walkers/2", 26.5, 11.5)), embark="rhino"))


def _to_blue_shooting(b):
    b.run_command(StartBattle())
    while not (b.turn_state.active == 1 and str(b.turn_state.phase) == "shooting"):
        b.run_command(EndPhase())


def test_18_05_emergency_disembark_before_deadly_demise():
    red = [unit("rhino", model((30, 10), ["gun"], M=10, T=9, Sv=3, W=10, base_mm=100, keywords=["VEHICLE"]),
                keywords=("VEHICLE", "TRANSPORT"), transport=CAPACITY, abilities="Deadly Demise 1"), _squad()]
    # the lance: hit 4, wound 4, save 1 (7+ at AP-4); hazard rolls 1, 4, 4; Deadly Demise 3
    with Battle(_spec(red=red), dice=ForcedDice([4, 4, 1, 1, 4, 4, 3])) as b:
        _to_blue_shooting(b)
        b.run_command(Shoot("b1", (Selection("b1/1", "lance", "rhino"),)))
        kinds = [e["type"] for e in b.events]
        (haz,) = [e for e in b.events if e["type"] == ev.HAZARD]
        assert haz["rolls"] == [1, 4, 4] and haz["mortal_wounds"] == 1
        (dis,) = of_type(b, ev.DISEMBARKED)
        assert dis["mode"] == "emergency disembark" and dis["battle_shocked"] is True
        assert len(dis["to"]) == 2  # (one model lost to its hazard roll)
        assert kinds.index(ev.DISEMBARKED) < kinds.index(ev.DEADLY_DEMISE)
        b._enter()
        squad = b.units["squad"]
        assert W.embarked_in(squad) is None and W.unit_state(squad).battle_shocked
        assert W.unit_state(squad).disembarked == "emergency disembark"
        rhino = [W.footprint(m) for m in b.models.values() if W.model_id(m) == "rhino/1"][0]
        from sim.rules.transport import reach
        assert all(reach(W.footprint(m), [rhino]) <= 6 + 1e-6 for m in W.unit_models(squad))


def test_24_14_firing_deck_lends_the_transport_embarked_models_weapons():
    red = [unit("rhino", model((30, 10), ["gun"], M=10, T=9, Sv=3, W=10, base_mm=100, keywords=["VEHICLE"]),
                keywords=("VEHICLE", "TRANSPORT"), transport=CAPACITY, abilities="Firing Deck 1"), _squad()]
    blue = [unit("b1", model([(30, 30), (31.5, 30)], ["gun"], T=4, Sv=7))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice([1, 1])) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "shooting":
            b.run_command(EndPhase())
        sels = (Selection("rhino/1", "gun", "b1"), Selection("rhino/1", "gun", "b1"))
        with pytest.raises(Refusal, match="at most 1 embarked model"):
            b.run_command(Shoot("rhino", sels, firing_deck=(("squad/1", "gun"), ("squad/2", "gun"))))
        with pytest.raises(Refusal, match=r"rocket is \[ONE SHOT\], which cannot be lent"):
            b.run_command(Shoot("rhino", sels[:1] + (Selection("rhino/1", "rocket", "b1"),),
                                firing_deck=(("squad/1", "rocket"),)))
        b.run_command(Shoot("rhino", sels, firing_deck=(("squad/1", "gun"),)))
        b._enter()
        assert W.unit_state(b.units["squad"]).transport_fired


def test_18_01_an_empty_dedicated_transport_is_destroyed_as_the_battle_starts():
    red = [unit("husk", model((45, 6), [], M=10, T=8, Sv=3, W=8, base_mm=100, keywords=["VEHICLE"]),
                keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"), transport=CAPACITY,
                abilities="Deadly Demise 6"),
           _rhino(), _squad()]
    red[1]["keywords"] = ["VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"]
    with Battle(_spec(red=red), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        (e,) = of_type(b, ev.DESTROYED_EMPTY)
        assert e["unit"] == "husk"
        assert not of_type(b, ev.DEADLY_DEMISE)  # (no 'when destroyed' rules)
        b._enter()
        assert W.unit_destroyed(b.units["husk"]) and not W.unit_destroyed(b.units["rhino"])


def test_18_01_the_loader_checks_capacity():
    with pytest.raises(ScenarioError, match="fit in rhino together"):
        _spec(red=[_rhino(), _squad(7)])
    with pytest.raises(ScenarioError, match="a friendly TRANSPORT"):
        _spec(red=[_squad()])
    with pytest.raises(ScenarioError, match="goes where its transport goes"):
        _spec(red=[_rhino(), _squad(reserves=True), unit("x", model((5, 30), ["gun"]))])
    with pytest.raises(ScenarioError, match="TRANSPORT keyword"):
        _spec(red=[unit("tank", model((30, 10), ["gun"]), keywords=("VEHICLE",), transport=CAPACITY)])


def _ring(n, cx, cy, r, a0=0.0, a1=90.0):
    import math
    step = (a1 - a0) / (n - 1)
    return [(round(cx + r * math.cos(math.radians(a0 + i * step)), 3),
             round(cy + r * math.sin(math.radians(a0 + i * step)), 3)) for i in range(n)]


def test_18_04_combat_when_no_unengaged_set_up_within_3_then_hazard_and_battle_shock():
    """The rhino stands in a corner, an enemy arc engaged with it: every spot wholly within 3"
    of it is within engagement range, so the squad cannot be set up for a Tactical disembark;
    it makes a Combat one (6", engaged with that enemy allowed), its hazard rolls (1 fails),
    then it is battle-shocked and cannot charge."""
    red = [_rhino(at=(1.98, 1.98)), _squad(2)]
    blue = [unit("arc", model(_ring(6, 1.98, 1.98, 4.5), ["gun"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice([1, 5])) as b:
        _to_movement(b)
        from sim.commands import default_disembark
        b._enter()
        cmd = default_disembark(b, b.units["squad"])
        assert cmd is not None
        b.run_command(cmd)
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "combat disembark" and e["engaged"] == ["arc"] and e["battle_shocked"]
        (haz,) = of_type(b, ev.HAZARD)
        assert haz["rolls"] == [1, 5] and haz["mortal_wounds"] == 1
        b._enter()
        st = W.unit_state(b.units["squad"])
        assert st.battle_shocked and len(W.unit_models(b.units["squad"])) == 1
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        with pytest.raises(Refusal, match="combat disembark this turn and cannot declare a charge"):
            b.run_command(DeclareCharge("squad"))


def test_18_04_a_tactical_set_up_may_not_be_engaged():
    blue = [unit("b1", model([(30, 15.5), (31.5, 15.5)], ["gun"]))]
    with Battle(_spec(blue=blue), dice=ForcedDice([])) as b:
        _to_movement(b)
        with pytest.raises(Refusal, match="within engagement range of b1; a tactical disembark sets up unengaged"):
            b.run_command(Disembark("squad", NORTH))


def test_20_04_a_transport_in_reserves_brings_its_passengers_and_18_04_01_limits_them():
    """The rhino arrives by an ingress move with the squad still inside (20.04); the squad's
    Rapid disembark then obeys the ingress's limits too (18.04.01: here wholly within 6" of a
    battlefield edge)."""
    from sim.commands import Ingress
    red = [_rhino(at=(50, 2), reserves=True), _squad(2), unit("r1", model([(30, 6), (31.5, 6)], ["gun"])),
           unit("r2", model([(40, 6), (41.5, 6)], ["gun"]))]  # (2 of 4 units in reserves: half, 20.01)
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        ts = b.turn_state
        while (ts.round, ts.active, str(ts.phase)) != (2, 0, "movement"):
            b.run_command(EndPhase())
        b.run_command(Ingress("rhino", (("rhino/1", 3.0, 22.0),)))
        b._enter()
        assert W.embarked_in(b.units["squad"]) == b.units["rhino"] and W.unit_models(b.units["squad"]) == []
        with pytest.raises(Refusal, match=r"18\.04\.01: rhino made an ingress move this turn"):
            b.run_command(Disembark("squad", (("squad/1", 5.6, 23.6), ("squad/2", 4.4, 24.6))))
        b.run_command(Disembark("squad", (("squad/1", 2.0, 24.8), ("squad/2", 3.3, 24.8))))
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "rapid disembark"


def test_18_04_whether_a_tactical_set_up_can_be_made_follows_the_enemy_moving_away():
    """18.04's "the unit can be set up" (the solver's search, kept while nothing moves): an
    enemy arc round the rhino leaves no unengaged spot within 3"; the arc moved off, there is
    one, and the answer after the move is the fresh search's."""
    from sim.plan import transport as PT
    from sim.world import mutations as M
    red = [_rhino(at=(1.98, 1.98)), _squad(2)]
    blue = [unit("arc", model(_ring(6, 1.98, 1.98, 4.5), ["gun"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice([])) as b:
        _to_movement(b)
        b._enter()
        squad, rhino = b.units["squad"], b.units["rhino"]
        assert PT.tactical_possible(b, squad, rhino) is False
        assert PT.tactical_possible(b, squad, rhino) is False  # (kept)
        M.move_models([(m, 40 + 1.5 * i, 30) for i, m in enumerate(W.unit_models(b.units["arc"]))])
        assert PT.tactical_possible(b, squad, rhino) is True
        W.spatial().rule_facts = None  # (nothing kept: the search itself)
        assert PT.tactical_possible(b, squad, rhino) is True


def test_03_01_a_disembark_that_turns_a_round_base_is_refused_by_name():
    """A disembark's ``face`` is checked as any set-up's (sim.plan.moves.facings_of): a round
    base has no facing to turn, and the check says so before the mode's placement."""
    with Battle(_spec(), dice=ForcedDice([])) as b:
        _to_movement(b)
        with pytest.raises(Refusal, match=r"squad/1 has a round base: it has no facing to turn \(03.01\)"):
            b.run_command(Disembark("squad", NORTH, face=(("squad/1", 90),)))
        b.run_command(Disembark("squad", NORTH))


def test_18_01_a_capacity_of_two_kinds_through_the_loader():
    """A ``limits`` capacity ('5 INFANTRY models and 1 CHARACTER model') as a scenario gives it:
    a squad of 5 with a leader's character fits at the start; six fit only within the limits; a
    limit larger than the capacity, or not a table, is refused by name."""
    two = {"models": 6, "keywords": ["INFANTRY"],
           "limits": [{"models": 5, "keywords": ["INFANTRY"]}, {"models": 1, "keywords": ["CHARACTER"]}]}

    def ark(cap):
        return unit("rhino", model((30, 10), ["gun"], M=10, T=9, Sv=3, W=10, base_mm=100, keywords=["VEHICLE"]),
                    keywords=("VEHICLE", "TRANSPORT"), transport=cap)

    _spec(red=[ark(two), _squad(5)])
    with pytest.raises(ScenarioError, match=r"6 INFANTRY models in rhino, more than the 5 its capacity takes"):
        _spec(red=[ark(two), _squad(6)])
    with pytest.raises(ScenarioError, match=r"transport.limits\[0\].models: expected a number of models from 1 to "
                                            r"the capacity's 6"):
        _spec(red=[ark({**two, "limits": [{"models": 7, "keywords": ["INFANTRY"]}]})])
    with pytest.raises(ScenarioError, match=r"transport.limits\[0\]: expected a table of models and keywords"):
        _spec(red=[ark({**two, "limits": [5]})])

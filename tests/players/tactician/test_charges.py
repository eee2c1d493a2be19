"""The tactician's charges (issue 27 item 1): the chance of a 2D6 charge roll reaching is exact;
a charge is declared where reaching is likely and the fight worth it, not at 11" for little; after
the roll its target is the one in reach worth most, or no charge when every one would cost more
than it gains."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from sim.battle import Battle
from sim.commands import ChargeMove, DeclareCharge, EndPhase, StartBattle
from sim.phases.state import Phase
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import charges as CH
from sim.rules.dice import ForcedDice

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "blade": weapon("melee", 3, 3, 4, 0, 1),
           "great axe": weapon("melee", 4, 2, 8, -2, 2), "butcher blade": weapon("melee", 6, 2, 6, -3, 2)}
FAR = [{"name": "n", "at": [30, 42], "kind": "central"}]


@pytest.mark.parametrize("gap, p", [(0.5, 1.0), (2.0, 1.0), (3.0, 35 / 36), (7.0, 21 / 36), (7.2, 15 / 36),
                                    (11.0, 3 / 36), (12.0, 1 / 36), (12.5, 0.0)])
def test_p_reach_is_the_exact_chance_of_2d6_at_least_the_gap(gap, p):
    assert CH.p_reach(gap) == pytest.approx(p)


def _charge_phase(red, blue, dice=None):
    spec = mission_scenario(red, blue, weapons=WEAPONS, objectives=FAR)
    b = Battle(spec, seed=1) if dice is None else Battle(spec, seed=1, dice=dice)
    b.run_command(StartBattle())
    while b.turn_state.phase != Phase.CHARGE:
        b.run_command(EndPhase())
    b._enter()
    return b, TacticianPlayer(0, b, b.scenario)


def _squad(x, y, n=5, weapons=("blade",), **kw):
    return model([(x + 1.5 * i, y) for i in range(n)], list(weapons), **kw)


def _declared(p, b) -> set:
    return {c.command.unit for c in p.candidates(b) if isinstance(c.command, DeclareCharge)}


@pytest.mark.parametrize("gap, declared", [(11.0, False), (3.0, True)])
def test_a_charge_is_declared_at_3_inches_not_at_11_for_the_same_fight(gap, declared):
    red = [unit("r-blades", _squad(10, 10))]
    blue = [unit("b-line", _squad(10, 10 + 1.26 + gap, weapons=("gun",), Sv=5))]
    b, p = _charge_phase(red, blue)
    with b:
        assert (_declared(p, b) == {"r-blades"}) is declared
        if declared:
            assert b.check(p.candidates(b)[0].command) is None


def test_no_charge_is_declared_into_a_fight_that_loses_more_than_it_gains():
    # a lone weak model 3" from a unit that would cut it down: reaching is likely, but not worth it
    red = [unit("r-lone", model([(10, 10)], ["blade"], Sv=6), points=100)]
    blue = [unit("b-axes", _squad(10, 10 + 1.26 + 3.0, weapons=("great axe",), W=3, Sv=2), points=50)]
    b, p = _charge_phase(red, blue)
    with b:
        assert _declared(p, b) == set()


def test_after_the_roll_the_target_in_reach_worth_most_is_charged():
    # two enemy units in reach of a roll of 9: a cheap one nearer, a valuable one further
    red = [unit("r-killers", _squad(20, 10, weapons=("butcher blade",), W=2, Sv=3))]
    blue = [unit("b-cheap", _squad(14, 10 + 1.26 + 4.0, n=3, weapons=("gun",)), points=15),
            unit("b-prize", _squad(26, 10 + 1.26 + 7.0, n=3, weapons=("gun",), Sv=4), points=240)]
    b, p = _charge_phase(red, blue, dice=ForcedDice([4, 5]))
    with b:
        first = p.candidates(b)[0].command
        assert first == DeclareCharge("r-killers")
        b.run_command(first)
        move = p.candidates(b)[0]
        assert isinstance(move.command, ChargeMove) and move.command.targets == ("b-prize",)
        assert b.check(move.command) is None and "r-killers charges b-prize" in move.label

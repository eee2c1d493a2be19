"""12.06 Overrun fights. A unit selected to fight makes a normal fight (12.05) only if it is
engaged; an unengaged unit eligible to fight (engaged at the start of the Fight step, or
charged), or one that was unengaged at the start of the Fight step and became engaged during
the phase, may make an overrun fight: one additional pile-in move (12.03), then it fights.
Enemy units it engages become eligible to fight. A unit not eligible to fight cannot overrun
(12.06 FAQ)."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import kill, of_type
from sim.battle import Battle
from sim.commands import EndPhase, Fight, Overrun, Selection, StartBattle
from sim.errors import PlanError, Refusal
from sim.plan import moves as MV
from sim.plan.fight import fight_types


def check_overrun(b, cmd):
    return cmd.record.check(b, cmd)  # (the Overrun command's own check, without the phase gate)
from sim.players import options as O
from sim.rules.dice import ForcedDice
from sim.world import queries as W
from sim.commands import overrun_command


def _spec():
    # r1 engaged with b1 (0.24" apart); b2 3.24" from r1: within 5", not engaged
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 11.5), ["blade"])), unit("b2", model((20, 14.5), ["blade"]))]
    return mission_scenario(red, blue)


def _to_fight_step(b):
    while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
        b.run_command(EndPhase())


def _enemy_died(b):
    """b1, engaged with r1 at the start of the Fight step, is destroyed (as by another fight)."""
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    _to_fight_step(b)
    kill(b, "b1/1")
    b._enter()
    assert b.units["r1"] in b.turn_state.engaged_at_fight_step and not W.unit_engaged(b.units["r1"])


def test_12_06_an_unengaged_eligible_unit_piles_in_again_then_fights():
    with Battle(_spec(), dice=ForcedDice([6, 6, 6, 6, 1, 1] + [1] * 10)) as b:
        _enemy_died(b)
        with pytest.raises(Refusal, match=r"r1 is not engaged: a normal fight needs an engaged unit \(12.05\); "
                                          r"an unengaged unit eligible to fight makes an overrun fight \(12.06\)"):
            b.submit(Fight("r1", (Selection("r1/1", "blade", "b2"),)))
        cmd = overrun_command(b, "r1", None)
        assert cmd.to, "the solver piles in toward b2, within 5\""
        b.run_command(cmd)
        (ov,) = of_type(b, "overrun fight")
        assert ov["unit"] == "r1"
        (piled,) = of_type(b, "piled in")
        assert piled["note"] == "overrun fight (12.06)"
        b._enter()
        r1, b2 = b.units["r1"], b.units["b2"]
        assert W.unit_engaged(r1) and b2 in W.engaged_with(r1)
        assert W.unit_state(r1).selected_to_fight and b.turn_state.overrun == r1
        # its fight is next: nothing else is accepted (not even a pass)
        with pytest.raises(Refusal, match=r"r1 was selected for an overrun fight .* its fight comes next \(12.06\)"):
            b.submit(EndPhase())
        b.run_command(Fight("r1", (Selection("r1/1", "blade", "b2"),)))
        assert b.turn_state.overrun is None
        (pool,) = [e for e in of_type(b, "pool") if e.get("target") == "b2"]
        assert pool["dice"] == 2 and pool["melee"]
        b._enter()
        assert W.unit_destroyed(b2)


def test_12_06_enemy_units_it_engages_become_eligible_and_may_overrun_themselves():
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        b2 = b.units["b2"]
        assert O.fight_pick(b, 1) is None  # b2: never engaged, did not charge: not eligible
        b.run_command(overrun_command(b, "r1", None))
        b.run_command(Fight("r1", (Selection("r1/1", "blade", "b2"),)))  # (all miss)
        b._enter()
        # b2 is engaged now, and was not at the start of the Fight step: normal or overrun
        assert O.fight_pick(b, 1) == b2 and b.turn_state.chooser == 1
        assert fight_types(b, b2) == ("normal", "overrun")
        b.run_command(Overrun("b2"))  # (no pile-in move: it may make none)
        b.run_command(Fight("b2", (Selection("b2/1", "blade", "r1"),)))
        assert [e["unit"] for e in of_type(b, "overrun fight")] == ["r1", "b2"]


def test_12_06_a_unit_engaged_at_the_start_of_the_step_and_still_engaged_fights_normally():
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        b.run_command(StartBattle())
        _to_fight_step(b)
        b._enter()
        assert fight_types(b, b.units["r1"]) == ("normal",)
        with pytest.raises(Refusal, match=r"r1 was engaged at the start of the Fight step and still is: it makes "
                                          r"a normal fight, not an overrun fight \(12.05, 12.06\)"):
            b.submit(Overrun("r1"))
        b.run_command(Fight("r1", (Selection("r1/1", "blade", "b1"),)))


def test_12_06_faq_a_unit_not_eligible_to_fight_cannot_overrun():
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        with pytest.raises(PlanError, match=r"b2 is not eligible to fight.*\(12.04, 12.06\)"):
            check_overrun(b, Overrun("b2"))


def test_12_06_the_pile_in_is_additional_and_obeys_12_03():
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        b._enter()
        W.unit_state(b.units["r1"]).piled_in = True  # (as if it piled in during the Pile In step)
        with pytest.raises(Refusal, match=r"12.03"):  # a pile-in longer than 3"
            b.submit(Overrun("r1", (("r1/1", 20.0, 13.24 + 3.0),)))
        b.run_command(overrun_command(b, "r1", None))
        assert of_type(b, "piled in")


def test_12_06_free_play_has_no_overrun_fight():
    from scen import scenario, weapon
    spec = scenario({"blade": weapon("melee", 2, 3, 4, 0, 1)},
                    [unit("r1", model((20, 10), ["blade"]))], [unit("b2", model((20, 14.5), ["blade"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"an overrun fight is a fight type of the Fight step of a battle "
                                          r"with a mission \(12.06\)"):
            b.submit(Overrun("r1"))


def test_12_06_the_default_fight_of_an_unengaged_unit_is_an_overrun_fight():
    from sim.players.default import DefaultPlayer
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        player = DefaultPlayer(0, b, b.scenario)
        first = player.choose(b).command
        assert isinstance(first, Overrun) and first.to
        b.run_command(first)
        second = player.choose(b).command
        assert isinstance(second, Fight) and second.unit == "r1" and second.selections
        b.run_command(second)


def test_12_06_a_script_fight_step_makes_an_overrun_fight_for_an_unengaged_unit():
    from sim.players.resolve import run_step
    from sim.scenario.load import parse_scenario
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]},
            "weapons": {"blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}},
            "armies": [{"name": "A", "units": [unit("r1", model((20, 10), ["blade"]))]},
                       {"name": "B", "units": [unit("b1", model((20, 11.5), ["blade"])),
                                               unit("b2", model((20, 14.5), ["blade"]))]}],
            "mission": {"first": "red", "deployed": False},
            "script": [{"fight": "r1", "targets": {"blade": "b2"}},
                       {"fight": "r1", "type": "normal", "targets": {"blade": "b2"}}]}
    spec = parse_scenario(data, "test.toml")
    with Battle(spec, dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        run_step(b, spec, spec.script[0])
        kinds = [e["command"]["kind"] for e in of_type(b, "command")]
        assert kinds[-2:] == ["overrun", "fight"]
        assert of_type(b, "weapons selected")[-1]["selections"] == [["r1/1", "blade", "b2", None]]


def test_12_06_a_script_fight_type_and_its_to_are_checked():
    from sim.errors import ScenarioError
    from sim.scenario.load import parse_scenario

    def load(step):
        data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]},
                "weapons": {"blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}},
                "armies": [{"name": "A", "units": [unit("r1", model((20, 10), ["blade"]))]},
                           {"name": "B", "units": [unit("b1", model((20, 11.5), ["blade"]))]}],
                "script": [step]}
        return parse_scenario(data, "test.toml")
    with pytest.raises(ScenarioError, match=r"expected a fight type \(normal, overrun\), found 'charge'"):
        load({"fight": "r1", "type": "charge"})
    with pytest.raises(ScenarioError, match=r"no 'to' for a normal fight"):
        load({"fight": "r1", "type": "normal", "to": {"r1/1": [20, 12]}})
    step = load({"fight": "r1", "to": {"r1/1": [20, 12]}}).script[0]
    assert step.action["type"] == "overrun" and step.action["to"] == {"r1/1": (20, 12)}


def test_12_06_the_pass_rule_still_counts_an_unengaged_eligible_unit():
    """(12.04.01: r1, eligible and 3.24" from b2, must fight - by an overrun fight - before a pass.)"""
    with Battle(_spec(), dice=ForcedDice([1] * 20)) as b:
        _enemy_died(b)
        with pytest.raises(Refusal, match=r"r1 is eligible to fight and within 5\""):
            b.submit(EndPhase())

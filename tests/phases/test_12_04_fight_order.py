"""12.04 The Fight step's order: Fights First units first (the active player's first), the
players alternating, the same player starting step 2; every eligible unit must fight; the
12.04.01 pass only when all of a player's eligible units are more than 5" from every enemy."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, phase, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Fight, Selection, StartBattle, charge_command
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

MISSES = [1] * 40  # every hit roll fails: nobody dies, the order alone is tested


def _spec(red_ff=False, blue_ff=False):
    ff = {"abilities": ["Fights First"]}
    red = [unit("ra", model((20, 20), ["blade"]), **(ff if red_ff else {})),
           unit("rb", model((40, 20), ["blade"]))]
    blue = [unit("ba", model((20, 21.5), ["blade"]), **(ff if blue_ff else {})),
            unit("bb", model((40, 21.5), ["blade"]))]
    return mission_scenario(red, blue)


def _to_fight_step(b):
    b.run_command(StartBattle())
    while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
        b.run_command(EndPhase())


def _fight(b, uid, target):
    b.run_command(Fight(uid, (Selection(f"{uid}/1", "blade", target),)))


def test_12_04_players_alternate_starting_with_the_active_player():
    with Battle(_spec(), dice=ForcedDice(MISSES)) as b:
        _to_fight_step(b)
        assert phase(b)[3:] == ("fight", 0)
        with pytest.raises(Refusal, match=r"red's choice in the fight step \(12.04\)"):
            b.submit(Fight("ba", (Selection("ba/1", "blade", "ra"),)))
        _fight(b, "ra", "ba")
        assert b.turn_state.chooser == 1
        _fight(b, "bb", "rb")
        assert b.turn_state.chooser == 0
        _fight(b, "rb", "bb")
        assert b.turn_state.chooser == 1
        _fight(b, "ba", "ra")
        assert phase(b)[3:] == ("consolidate", 0)


def test_12_04_fights_first_units_fight_first_even_for_the_other_player():
    with Battle(_spec(blue_ff=True), dice=ForcedDice(MISSES)) as b:
        _to_fight_step(b)
        # red (active) has no eligible Fights First unit: blue picks first, its Fights First unit
        assert b.turn_state.chooser == 1 and b.turn_state.fights_first_step
        with pytest.raises(Refusal, match=r"Fights First units fight before the others \(12.04 step 1\)"):
            b.submit(Fight("bb", (Selection("bb/1", "blade", "rb"),)))
        _fight(b, "ba", "ra")
        # no Fights First unit is left: step 2, red picks (the other player after a fight)
        assert not b.turn_state.fights_first_step and b.turn_state.chooser == 0


def test_12_04_step_1_with_fights_first_on_both_sides_starts_with_the_active_player():
    with Battle(_spec(red_ff=True, blue_ff=True), dice=ForcedDice(MISSES)) as b:
        _to_fight_step(b)
        assert b.turn_state.chooser == 0 and b.turn_state.fights_first_step
        _fight(b, "ra", "ba")
        assert b.turn_state.chooser == 1 and b.turn_state.fights_first_step
        _fight(b, "ba", "ra")
        # step 2: "the player who moved the sequence into this step" (red, to pick, had none)
        assert not b.turn_state.fights_first_step and b.turn_state.chooser == 0


def test_12_04_every_eligible_unit_must_fight_and_the_pass_needs_5_inches():
    with Battle(_spec(), dice=ForcedDice(MISSES)) as b:
        _to_fight_step(b)
        with pytest.raises(Refusal, match=r"ra is eligible to fight and within 5\".*12.04.01"):
            b.submit(EndPhase())


def test_12_04_01_a_pass_when_every_eligible_unit_is_far_from_enemies():
    # ra charged (eligible, Fights First) but no enemy is within 5": red may pass; blue has no
    # eligible unit, so the Fight step ends
    red = [unit("ra", model((20, 20), ["blade"]))]
    blue = [unit("ba", model((20, 27), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice(MISSES)) as b:
        b.run_command(StartBattle())
        b.run_command(EndPhase())
        b.run_command(EndPhase())  # red's Charge phase
        b._enter()
        from sim.world import queries as W
        W.unit_state(b.units["ra"]).charged = True  # (as a charge move would)
        b.run_command(EndPhase())
        b.run_command(EndPhase())
        b.run_command(EndPhase())  # both pile-in parts: the Fight step
        assert phase(b)[3:] == ("fight", 0)
        b.run_command(EndPhase())
        assert of_type(b, "fight pass") == [{"type": "fight pass", "player": "red"}]
        assert phase(b)[3:] == ("consolidate", 0)


def test_12_04_a_fights_first_unit_engaged_at_the_start_of_the_step_still_fights_first():
    # rk and rw (both Fights First) are engaged with b1 at the start of the Fight step; rk kills
    # b1, so rw is no longer engaged, but it is still eligible to fight (engaged at the start of
    # the step, 12.04): red's rc, without Fights First, waits for it (12.04 step 1)
    from scen import weapon
    wpn = {"blade": weapon("melee", 2, 3, 4, 0, 1), "axe": weapon("melee", 6, 2, 8, -5, 3)}
    ff = {"abilities": ["Fights First"]}
    red = [unit("rk", model((20, 20), ["axe"]), **ff), unit("rw", model((21.6, 21.5), ["blade"]), **ff),
           unit("rc", model((40, 20), ["blade"]))]
    blue = [unit("b1", model((20, 21.5), ["blade"])), unit("b2", model((40, 21.5), ["blade"]))]
    with Battle(mission_scenario(red, blue, weapons=wpn), dice=ForcedDice([6] * 30 + [1] * 10)) as b:
        _to_fight_step(b)
        b.run_command(Fight("rk", (Selection("rk/1", "axe", "b1"),)))
        assert [e["unit"] for e in of_type(b, "unit destroyed")] == ["b1"]
        b._enter()
        from sim.plan.fight import eligible_to_fight, fight_eligible
        from sim.world import queries as W
        rw = b.units["rw"]
        assert not W.unit_engaged(rw) and eligible_to_fight(b, rw) and rw in fight_eligible(b, 0)
        assert b.turn_state.chooser == 0 and b.turn_state.fights_first_step
        with pytest.raises(Refusal, match=r"Fights First units fight before the others \(12.04 step 1\): "
                                          r"rw must be selected to fight first"):
            b.submit(Fight("rc", (Selection("rc/1", "blade", "b2"),)))


# rv (red) charges b1 and Crushing Impact (15.06) destroys it: rv stays eligible to fight and
# Fights First, more than 5" from every enemy; ra (Fights First) is engaged with bb
CRUSHED = dict(
    red=[unit("ra", model((40, 20), ["blade"]), abilities=["Fights First"]),
         unit("rv", model((20, 10), ["blade"], T=6, W=10), keywords=("VEHICLE",))],
    blue=[unit("bb", model((40, 21.5), ["blade"])), unit("b1", model((17, 16), ["blade"]))])
# the charge roll (8), Crushing Impact's six D6 (T6: six 6s for b1's one wound), then misses
CRUSHED_DICE = [4, 4] + [6] * 6 + MISSES


def test_12_04_01_one_players_two_passes_in_a_row_do_not_end_the_fight_step():
    """Red's other Fights First unit ra fights bb; blue has no Fights First unit, so the pick
    comes back to red (12.04 step 1), which passes twice (rv is more than 5" from every enemy).
    bb, engaged, has not fought: the step goes on (12.04.01: only both players passing in
    succession, or a pass while the other has no eligible unit, ends it). Red must then select
    rv (its overrun fight, 12.06, with nothing to attack), and bb fights."""
    from sim.commands import Overrun
    from sim.plan import moves as MV
    from sim.world import queries as W
    with Battle(mission_scenario(CRUSHED["red"], CRUSHED["blue"]), dice=ForcedDice(CRUSHED_DICE)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [1, 0]
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        b.run_command(DeclareCharge("rv"))
        crushing = (lambda req: req.options[0] if req.kind == "stratagem" and "Crushing" in req.key
                    else req.default)
        b.run_command(charge_command(b, "rv", None, None), crushing)
        b._enter()
        assert W.unit_destroyed(b.units["b1"]) and W.unit_state(b.units["rv"]).charged
        while str(b.turn_state.step) != "fight":
            b.run_command(EndPhase())
        assert phase(b)[3:] == ("fight", 0) and b.turn_state.fights_first_step
        _fight(b, "ra", "bb")
        assert phase(b)[3:] == ("fight", 0)  # (blue has no Fights First unit: red again)
        b.run_command(EndPhase())
        assert phase(b)[3:] == ("fight", 0)
        b.run_command(EndPhase())  # red's second pass in a row
        assert [e["player"] for e in of_type(b, "fight pass")] == ["red", "red"]
        assert phase(b)[3:] == ("fight", 0), "one player's two passes in a row ended the Fight step"
        assert b.turn_state.fight_passes == 1  # (red's passes in a row count once)
        with pytest.raises(Refusal, match=r"red's choice in the fight step \(12.04\)"):
            b.submit(Fight("bb", (Selection("bb/1", "blade", "ra"),)))
        b.run_command(Overrun("rv", ()))
        b.run_command(Fight("rv", ()))
        assert phase(b)[3:] == ("fight", 1) and not b.turn_state.fights_first_step
        _fight(b, "bb", "ra")
        assert [e["unit"] for e in of_type(b, "weapons selected")] == ["ra", "rv", "bb"]
        assert phase(b)[3:] == ("consolidate", 0)


def test_12_04_01_the_scripted_player_does_not_pass_when_the_pick_would_come_straight_back():
    """The same battle played by scripted players (red's script: the charge with Crushing
    Impact, then ra's fight): red does not pass (it would change nothing) but selects rv, so
    bb fights in red's Fight step, and the battle ends."""
    from sim.players import play_battle
    script = [{"charge": "rv", "targets": ["b1"], "decisions": {"stratagem": "rv/1 -> b1"}},
              {"fight": "ra", "targets": {"blade": "bb"}}]
    sc = mission_scenario(CRUSHED["red"], CRUSHED["blue"], rounds=1, script=script)
    with Battle(sc, dice=ForcedDice(CRUSHED_DICE)) as b:
        play_battle(b, sc)
        assert b.turn_state.over and of_type(b, "fight pass") == []
        red_turn = [e["unit"] for e in of_type(b, "weapons selected")][:3]
        assert red_turn == ["ra", "rv", "bb"]


def test_12_04_01_a_pass_by_each_player_in_succession_ends_the_fight_step():
    # ra and ba both charged (as a charge move would leave them: eligible, Fights First), each
    # more than 5" from every enemy: red passes, the pick goes to blue, blue passes: the end
    red = [unit("ra", model((20, 20), ["blade"])), unit("rb", model((40, 20), ["blade"]))]
    blue = [unit("ba", model((20, 27), ["blade"])), unit("bb", model((40, 27), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice(MISSES)) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "fight":
            b.run_command(EndPhase())
        b._enter()
        from sim.world import queries as W
        W.unit_state(b.units["ra"]).charged = True
        W.unit_state(b.units["ba"]).charged = True
        b.run_command(EndPhase())
        b.run_command(EndPhase())  # both pile-in parts: the Fight step
        assert phase(b)[3:] == ("fight", 0)
        b.run_command(EndPhase())
        assert phase(b)[3:] == ("fight", 1)
        b.run_command(EndPhase())
        assert [e["player"] for e in of_type(b, "fight pass")] == ["red", "blue"]
        assert phase(b)[3:] == ("consolidate", 0)

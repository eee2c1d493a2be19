"""The rules' dice economies in small battles with forced dice (sim.systems.dice_pools): Acts of
Faith's Miracle dice (GAIN_DICE at the battle round's start and when a unit holding it is
destroyed; SUBSTITUTE: a pool's die standing for one die of a roll, once per phase per unit) and
Blessings of Khorne's roll (DICE_OPTIONS: the options the roll affords, activated for the round);
a battle with both recorded and replayed byte for byte."""

from __future__ import annotations

from phased import mission_scenario, model, unit, weapon
from rules_replay import default_table_with, played_and_replayed
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Selection, Shoot, StartBattle
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "lascannon": weapon(48, 1, 3, 12, -3, 6),
           "blade": weapon("melee", 2, 3, 4, 0, 1)}


def _to(b, phase_name):
    while str(b.turn_state.phase) != phase_name:
        b.run_command(EndPhase())


def _sisters(first="blue", sv=3):
    red = [unit("r1", model((20, 10), ["gun"], Sv=sv, W=6), rules=["acts-of-faith"]),
           unit("r2", model((30, 10), ["gun"], Sv=sv, W=6), rules=["acts-of-faith"])]
    blue = [unit("b1", model((20, 30), ["lascannon"], T=4, W=10)), unit("b2", model((30, 30), ["lascannon"], W=10))]
    return mission_scenario(red, blue, first=first, weapons=WEAPONS)


def test_acts_of_faith_gains_a_die_at_the_round_start_and_it_stands_for_a_failed_save():
    """Blue's lascannon (AP -3) at r1 (Sv 3+: needs 6): a lone save a rolled die fails 5 times in
    6, so the default spends the Miracle die of 6; the save is not rolled and passes."""
    with Battle(_sisters(), dice=ForcedDice([6, 5, 5])) as b:  # Miracle die 6; hit 5, wound 5; no save rolled
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        assert b.resources.dice_pools == {"red:acts-of-faith": [6]}
        _to(b, "shooting")
        b.run_command(Shoot("b1", (Selection("b1/1", "lascannon", "r1"),)))
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "dice_pool"]
        assert dec["player"] == 0 and dec["answer"] == "use 6"
        (save,) = of_type(b, "save rolls")
        assert save["rolls"] == [6]
        assert b.resources.dice_pools == {"red:acts-of-faith": []}
        spent = [e for e in of_type(b, "dice pool") if "spent" in e]
        assert spent == [{"type": "dice pool", "rule": "Acts of Faith", "player": "red", "spent": 6, "unit": "r1",
                          "roll": "save", "pool": [],
                          "effect": "a die of 6 stands for one die of r1's save roll"}]
        (dmg,) = of_type(b, "damage")
        assert all(s.get("saved") is not False for s in dmg["steps"])
        assert [p for p, _r in b.dice.log if p == "save rolls"] == []  # (the substituted die is not rolled)


def test_a_declined_miracle_die_is_kept_and_the_save_is_rolled():
    with Battle(_sisters(), dice=ForcedDice([6, 5, 5, 2, 3])) as b:  # (r1 destroyed: a die of 3 gained)
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "shooting")
        b.run_command(Shoot("b1", (Selection("b1/1", "lascannon", "r1"),)), answer_from({"dice_pool": "decline"}))
        (save,) = of_type(b, "save rolls")
        assert save["rolls"] == [2]
        assert b.resources.dice_pools == {"red:acts-of-faith": [6, 3]}


def test_one_act_of_faith_per_phase_per_unit():
    """Two lascannons at r1 in one phase: the first save takes the Miracle die; the second pool's
    save is not offered one for r1 (used this phase), though the pool still holds a die."""
    with Battle(_sisters(), dice=ForcedDice([6, 5, 5, 5, 5, 1, 4])) as b:  # (r1 destroyed: a die of 4 gained)
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.resources.dice_pools["red:acts-of-faith"] = [6, 6]
        _to(b, "shooting")
        b.run_command(Shoot("b1", (Selection("b1/1", "lascannon", "r1"),)))
        b.run_command(Shoot("b2", (Selection("b2/1", "lascannon", "r1"),)))
        assert len([e for e in of_type(b, "decision") if e["kind"] == "dice_pool"]) == 1
        assert [s["rolls"] for s in of_type(b, "save rolls")] == [[6], [1]]
        assert b.resources.dice_pools == {"red:acts-of-faith": [6, 4]}


def test_another_unit_may_use_one_in_the_same_phase_and_the_pool_grows_when_a_unit_is_destroyed():
    with Battle(_sisters(sv=6), dice=ForcedDice([4, 5, 5, 5, 3, 5, 5, 2])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.resources.dice_pools["red:acts-of-faith"] = [1, 6]
        _to(b, "shooting")
        # r1 (Sv 6+ against AP -3: no save) declines and loses its 6 wounds: destroyed, a die of 3 gained
        b.run_command(Shoot("b1", (Selection("b1/1", "lascannon", "r1"),)), answer_from({"dice_pool": "decline"}))
        assert W.unit_destroyed(b.units["r1"])
        gained = [e for e in of_type(b, "dice pool") if "gained" in e]
        assert [(e["gained"], e.get("unit")) for e in gained] == [(4, None), (3, "r1")]
        assert b.resources.dice_pools == {"red:acts-of-faith": [1, 6, 3]}
        b.run_command(Shoot("b2", (Selection("b2/1", "lascannon", "r2"),)), answer_from({"dice_pool": "use 1"}))
        assert [s["rolls"] for s in of_type(b, "save rolls")][-1] == [1]  # (r2, in the same phase: its own)
        assert b.resources.dice_pools == {"red:acts-of-faith": [6, 3, 2]}  # (r2 destroyed too: a 2 gained)


def test_a_miracle_die_stands_for_one_die_of_a_charge_roll():
    red = [unit("r1", model((20, 10), ["blade"]), rules=["acts-of-faith"])]
    blue = [unit("b1", model((20, 21), ["blade"]))]  # 11" - bases: a long charge (~9.7")
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([6, 4])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r1"))
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "dice_pool"]
        assert dec["answer"] == "use 6"  # 2D6 >= 10: 1 in 6; with a 6: 1 in 2
        (ch,) = of_type(b, "charge")
        assert ch["roll"] == 10
        assert ("charge roll r1", (4,)) in b.dice.log


def test_blessings_of_khorne_a_triple_activates_a_triple_blessing():
    red = [unit("r1", model((20, 10), ["blade"]), rules=["blessings-of-khorne"])]
    blue = [unit("b1", model((20, 30), ["blade"]))]
    # 2 2 2 and no double: only Warp Blades (triple 2+) and Martial Excellence (triple 1+)
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([2, 2, 2, 1, 3, 4, 5, 6])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "Warp Blades"}))
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert dec["answer"] == "Warp Blades"
        assert b.resources.rule_choices["red:blessings-of-khorne"] == {"value": ["Warp Blades"], "round": 1,
                                                                       "player": 0}
        (ch,) = of_type(b, "rule choice")
        assert ch["dice"] == [1, 2, 2, 2, 3, 4, 5, 6] and ch["value"] == ["Warp Blades"]


def test_blessings_of_khorne_a_roll_affording_nothing_asks_nothing_and_last_rounds_end():
    """A roll of eight dice always holds a double; a roll affording nothing is of fewer dice (a
    record of the test's: sim.rules.effects.dice_options, pure, has the no-double case). Here:
    round 1's blessing is dropped at round 2's start, where the player answers "none"."""
    red = [unit("r1", model((20, 10), ["blade"]), rules=["blessings-of-khorne"])]
    blue = [unit("b1", model((20, 30), ["blade"]))]
    dice = [6, 6, 1, 2, 3, 4, 5, 1] + [6, 6, 1, 2, 3, 4, 5, 1]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice(dice)) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "Cleaving Blows"}))
        assert b.resources.rule_choices["red:blessings-of-khorne"]["value"] == ["Cleaving Blows"]
        while b.turn_state.round == 1:
            b.run_command(EndPhase(), answer_from({"rule_choice": "none"}))
        assert "red:blessings-of-khorne" not in b.resources.rule_choices
        assert [e["value"] for e in of_type(b, "rule choice")] == [["Cleaving Blows"], False]


def test_a_battle_with_miracle_dice_and_blessings_replays_byte_for_byte(tmp_path):
    """The default battle with Acts of Faith on the first army and Blessings of Khorne on the second."""
    def check(b):
        pool = [e for e in b.events if e["type"] == "dice pool"]
        assert any("gained" in e for e in pool) and any("spent" in e for e in pool)
        assert any(e["player"] == "blue" for e in b.events if e["type"] == "rule choice")
    path = default_table_with(tmp_path, ["acts-of-faith"], ["blessings-of-khorne"], "faith")
    played_and_replayed(tmp_path, path, 11, check)


def test_the_unit_card_shows_the_pool_and_the_blessings_active():
    from sim.rules.effects import table
    from sim.sandbox.rules_card import choice_words, rule_lines
    red = [unit("r1", model((20, 10), ["blade"]), rules=["acts-of-faith"])]
    blue = [unit("b1", model((20, 30), ["blade"]), rules=["blessings-of-khorne"])]
    dice = [4] + [6, 6, 1, 2, 3, 4, 5, 1]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice(dice)) as b:
        b.run_command(StartBattle())
        assert choice_words(table.by_key("acts-of-faith"), 0) == "dice in its pool: 4"
        assert choice_words(table.by_key("blessings-of-khorne"), 1) == \
            "active this round: Unbridled Bloodlust, Decapitating Strikes"
        (line,) = rule_lines(b, b.units["b1"])
        assert line.choice.startswith("active this round")
        states = {g.short: g.why for g in line.grants}
        assert states["+1 to charge rolls"] == "acts now"


def test_a_miracle_die_stands_for_one_die_of_a_battle_shock_test():
    """Below half-strength in its Command phase, Ld 8+: 2D6 passes 15 times in 36; with a 6 standing
    for one die, 5 in 6: the default spends it, and 6 + 3 passes."""
    from scen import kill
    red = [unit("r1", model([(20, 10), (21.5, 10), (23, 10)], ["blade"], Ld=8), rules=["acts-of-faith"])]
    blue = [unit("b1", model((20, 40), ["blade"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([6, 3])) as b:
        kill(b, "r1/2")
        kill(b, "r1/3")
        b._enter()
        from sim.world import mutations
        mutations.remove_casualties(list(W.casualties()))
        b.run_command(StartBattle())
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 9 and shock["passed"]
        assert [e["roll"] for e in of_type(b, "dice pool") if "spent" in e] == ["battle-shock"]
        assert ("battle-shock roll r1", (3,)) in b.dice.log

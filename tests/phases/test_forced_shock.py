"""Forced battle-shock tests (sim.phases.forced_shock, the FORCED_SHOCK effect) in small battles
with forced dice: Shadow in the Warp (every enemy unit, -1 near a SYNAPSE unit, called once per
battle in either player's Command phase, by default, by a script and by the random player)."""

from __future__ import annotations

import dataclasses

from phased import mission_scenario, model, unit
from rules_replay import default_table_with, played_and_replayed
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice
from sim.world import queries as W


def _shadow(**kw):
    """Red: a SYNAPSE unit r1 and r2, with Shadow in the Warp; blue: b1 4" from r1 (within 6" of
    the SYNAPSE unit), b2 far from both."""
    red = [unit("r1", model((20, 10), ["gun"]), keywords=("INFANTRY", "SYNAPSE"), rules=["shadow-in-the-warp"]),
           unit("r2", model((50, 10), ["gun"]), rules=["shadow-in-the-warp"])]
    blue = [unit("b1", model((20, 14), ["gun"])), unit("b2", model((50, 30), ["gun"]))]
    return mission_scenario(red, blue, **kw)


def _shocks(b):
    return [(e["unit"], e["roll"], e["passed"], e.get("rule")) for e in of_type(b, "battle-shock")]


def _shadow_decisions(b):
    return [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]


def test_shadow_in_the_warp_called_every_enemy_unit_tests_minus_1_near_synapse():
    # red's round-1 Command phase: called (b1 is within 12"); after the Battle-shock step (08.04)
    # b1 rolls 3+3 -1 (within 6" of SYNAPSE r1) = 5 < Ld 6: fails; b2 rolls 3+3 = 6: passes
    with Battle(_shadow(), dice=ForcedDice([3, 3, 3, 3])) as b:
        b.run_command(StartBattle())
        assert _shocks(b) == [("b1", 5, False, "Shadow in the Warp"), ("b2", 6, True, "Shadow in the Warp")]
        assert W.unit_state(b.units["b1"]).battle_shocked and not W.unit_state(b.units["b2"]).battle_shocked
        assert b.resources.rule_uses["red:shadow-in-the-warp"] == 1
        effects = [e["effect"] for e in of_type(b, "rule effect")]
        assert effects == ["must take a battle-shock test (-1)", "must take a battle-shock test"]


def test_shadow_in_the_warp_without_its_call_forces_no_test():
    with Battle(_shadow(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "decline"}))
        assert _shocks(b) == [] and "red:shadow-in-the-warp" not in b.resources.rule_uses
        assert [e["value"] for e in of_type(b, "rule choice")] == [False]


def test_shadow_in_the_warp_called_in_the_enemy_command_phase_then_never_asked_again():
    """Declined in red's Command phase, called in blue's (asked of red, the player not active):
    blue's units test after blue's Battle-shock step; once used it is asked no more (once per
    battle), in either player's Command phase."""
    with Battle(_shadow(), dice=ForcedDice([2, 2, 6, 6, 6, 6])) as b:  # (then b1 in its round-2 step)
        b.run_command(StartBattle(), answer_from({"rule_choice": "decline"}))
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        decs = _shadow_decisions(b)
        assert [(d["player"], d["answer"]) for d in decs] == [(0, "decline"), (0, "call")]
        assert b.resources.rule_choices["red:shadow-in-the-warp"] == {"value": True, "round": 1, "player": 1}
        assert _shocks(b) == [("b1", 3, False, "Shadow in the Warp"), ("b2", 12, True, "Shadow in the Warp")]
        while b.turn_state.round < 3:
            b.run_command(EndPhase())
        assert len(_shadow_decisions(b)) == 2  # (no use left: not asked in rounds 2 and 3)
        assert [e["value"] for e in of_type(b, "rule choice")] == [False, True, None]
        assert [s[0] for s in _shocks(b) if s[3]] == ["b1", "b2"]


def test_a_pass_of_a_forced_test_outside_the_battle_shock_step_does_not_clear_battle_shock():
    with Battle(_shadow(), dice=ForcedDice([6, 6, 6, 6])) as b:
        b._enter()
        W.unit_state(b.units["b1"]).battle_shocked = True
        b.run_command(StartBattle())
        assert _shocks(b)[0] == ("b1", 11, True, "Shadow in the Warp")
        assert W.unit_state(b.units["b1"]).battle_shocked  # (ruling 26)


def test_a_scripted_side_answers_the_call_in_the_enemy_command_phase():
    """A choice asked in either player's turn (context "turn" "either") is answered by the side's
    next step of that round in the other player's turn too; one of its own turn only is not."""
    from sim.decisions import DecisionRequest, Scripted
    from sim.players.scripted import ScriptedPlayer
    script = [{"end_phase": "red", "decisions": {"rule_choice": "decline"}}]
    spec = _shadow(script=script, first="blue")
    with Battle(spec, dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "decline"}))
        assert b.turn_state.active == 1 and _shadow_decisions(b)[0]["player"] == 0  # (asked in blue's turn)
        red = ScriptedPlayer(0, b, spec)
        either = DecisionRequest("rule_choice", "k", 0, ["call", "decline"], "call",
                                 context={"rule": "shadow-in-the-warp", "turn": "either"})
        own = DecisionRequest("rule_choice", "k", 0, ["call", "decline"], "call", context={"rule": "waaagh"})
        assert red.answer(b, either) == Scripted("decline")
        assert red.answer(b, own) == "call"


def test_default_and_random_players_answer_the_call_and_play_the_same_battle_twice():
    from sim.players import play_battle
    spec = _shadow(rounds=3)
    for players in (("default", "default"), ("random", "random")):
        s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
        runs = []
        for _ in range(2):
            with Battle(s, seed=11) as b:
                play_battle(b, s, None)
                decs = _shadow_decisions(b)
                assert decs and all(d["answer"] in ("call", "decline") for d in decs) and b.turn_state.over
                runs.append(list(b.events))
        assert runs[0] == runs[1]


def _terror():
    """Red: two Brazen Engines (k1 engaged with b1 and b2; k2 with b1 only) with Terror of Khorne."""
    red = [unit("k1", model((20, 20), ["gun"]), rules=["terror-of-khorne"]),
           unit("k2", model((23, 21.2), ["gun"]), rules=["terror-of-khorne"])]
    blue = [unit("b1", model((21.5, 20), ["gun"])), unit("b2", model((18.5, 20), ["gun"]))]
    return mission_scenario(red, blue)


def _to_fight(b, answers=None):
    while str(b.turn_state.phase) != "charge":
        b.run_command(EndPhase())
    b.run_command(EndPhase(), answers)  # (the Fight phase starts: its forced tests)
    assert str(b.turn_state.phase) == "fight"


def test_terror_of_khorne_one_engaged_enemy_tests_at_minus_1_each_once_per_phase():
    # k1 picks b1 by default (the first engaged, not battle-shocked): 3+3 -1 = 5 < 6, fails;
    # k2 is engaged with b1 only, already picked this phase: nothing to pick, not asked
    with Battle(_terror(), dice=ForcedDice([3, 3])) as b:
        b.run_command(StartBattle())
        b._enter()
        assert b.units["b1"] in W.engaged_with(b.units["k2"])
        assert b.units["b2"] not in W.engaged_with(b.units["k2"])
        _to_fight(b)
        assert _shocks(b) == [("b1", 5, False, "Terror of Khorne")]
        decs = _shadow_decisions(b)
        assert [(d["player"], d["answer"]) for d in decs] == [(0, "b1")]
        assert W.unit_state(b.units["b1"]).battle_shocked


def test_terror_of_khorne_picked_by_a_script_then_the_other_engine_takes_the_other():
    # k1 is told b2 (3+4 -1 = 6: passes); k2 may still pick b1 (the script's b2 is not among its
    # options: the default, b1: 2+2 -1 = 3, fails)
    with Battle(_terror(), dice=ForcedDice([3, 4, 2, 2])) as b:
        b.run_command(StartBattle())
        _to_fight(b, answer_from({"rule_choice": "b2"}))
        assert _shocks(b) == [("b2", 6, True, "Terror of Khorne"), ("b1", 3, False, "Terror of Khorne")]
        assert [e["value"] for e in of_type(b, "rule choice")] == ["b2", "b1"]


def test_terror_of_khorne_declined_forces_no_test():
    with Battle(_terror(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to_fight(b, answer_from({"rule_choice": "decline"}))
        assert _shocks(b) == []
        assert [e["value"] for e in of_type(b, "rule choice")] == [False, False]


def _rad():
    """Red (the Defender: its zone y 0-12) holds Rad-bombardment; blue's zone is y 32-44: b1 (two
    models) stands in it, b2 outside it."""
    red = [unit("r1", model((20, 6), ["gun"]), rules=["rad-bombardment"])]
    blue = [unit("b1", model([(20, 40), (21.5, 40)], ["gun"])), unit("b2", model((40, 25), ["gun"]))]
    return mission_scenario(red, blue)


def _to_round(b, n):
    while b.turn_state.round < n:
        b.run_command(EndPhase())


def test_rad_bombardment_fallout_a_3_gives_a_mortal_wound_then_a_test_from_round_2():
    # none in round 1; red's round-2 Command phase starts: b1 (in its zone) rolls 3: 1 mortal wound
    # (one model destroyed), then 3+2 = 5 < 6: battle-shocked; b2 (outside its zone) rolls nothing
    with Battle(_rad(), dice=ForcedDice([3, 3, 2])) as b:
        b.run_command(StartBattle())
        assert _shocks(b) == []
        _to_round(b, 2)
        assert _shocks(b) == [("b1", 5, False, "Rad-bombardment")]
        (mw,) = of_type(b, "mortal wounds")
        assert mw["unit"] == "b1" and mw["count"] == 1 and mw["source"] == "Rad-bombardment"
        assert len(W.alive_models(b.units["b1"])) == 1 and W.unit_state(b.units["b1"]).battle_shocked
        effects = [e["effect"] for e in of_type(b, "rule effect")]
        assert effects == ["suffers 1 mortal wound (rolled 3)", "must take a battle-shock test"]


def test_rad_bombardment_fallout_below_3_does_nothing_and_only_in_red_command_phase():
    with Battle(_rad(), dice=ForcedDice([2])) as b:
        b.run_command(StartBattle())
        _to_round(b, 2)
        assert _shocks(b) == [] and not of_type(b, "mortal wounds")
        assert [e["effect"] for e in of_type(b, "rule effect")] == ["rolls 2: no test (needs 3+)"]
        while b.turn_state.active == 0:  # (blue's own Command phase: no fallout)
            b.run_command(EndPhase())
        assert len(of_type(b, "rule effect")) == 1


# --- Harbingers of Dread: Dread abilities picked (PICK_OPTION, kept) in rounds 1, 3 and 5; Paragons of Terror one more



def _dread(rules=("harbingers-of-dread",)):
    """Red: a knight k with the Dread rules; blue: b1 (three models) 5" from it, b2 far away."""
    red = [unit("k", model((20, 20), ["gun"]), keywords=("VEHICLE",), rules=list(rules))]
    blue = [unit("b1", model([(20, 25), (21.5, 25), (23, 25)], ["gun"])), unit("b2", model((50, 40), ["gun"]))]
    return mission_scenario(red, blue)


def _picks(b):
    return [(d["player"], d["answer"]) for d in _shadow_decisions(b)]


def test_harbingers_of_dread_picks_one_dread_ability_in_rounds_1_3_and_5_by_default():
    from sim.world.rule_reads import leadership
    with Battle(_dread(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert _picks(b) == [(0, "Despair")]  # (the first option, at the start of round 1)
        assert b.resources.rule_choices["red:harbingers-of-dread"]["value"] == ["Despair"]
        b._enter()
        assert leadership(b, b.units["b1"]) == [8, 8, 8]  # Ld 6, worsened by Deathly Terror and Despair
        assert leadership(b, b.units["b2"]) == [6]  # (out of the 9" auras)
        _to_round(b, 3)  # (not asked again in round 1 in blue's turn, nor in round 2; in red's round-3 Command phase)
        assert _picks(b) == [(0, "Despair"), (0, "Doom")]
        assert b.resources.rule_choices["red:harbingers-of-dread"]["round"] == 3
        assert b.resources.rule_choices["red:harbingers-of-dread"]["value"] == ["Despair", "Doom"]


def test_paragons_of_terror_picks_one_more_never_one_already_picked():
    # the script names Dismay for every pick: Harbingers takes it; Paragons may not pick it again,
    # so its answer falls back to its default, the first option left (Despair)
    with Battle(_dread(("harbingers-of-dread", "paragons-of-terror")), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "Dismay"}))
        assert _picks(b) == [(0, "Dismay"), (0, "Despair")]
        assert b.resources.rule_choices["red:paragons-of-terror"]["value"] == ["Despair"]
        assert b.resources.rule_choices["red:harbingers-of-dread"]["value"] == ["Dismay", "Despair"]
        _to_round(b, 2)
        assert len(_picks(b)) == 2  # (Paragons: round 1 only)


def test_dismay_forces_the_battle_shock_step_roll_of_a_unit_below_starting_strength():
    # b1 lost one of its three models (below Starting Strength, not at half: no roll of its own);
    # in blue's Battle-shock step Dismay makes it test: 3+3 = 6 < Ld 7 (Deathly Terror): fails
    from scen import kill
    with Battle(_dread(), dice=ForcedDice([3, 3])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "Dismay"}))
        kill(b, "b1/3")
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        (shock,) = of_type(b, "battle-shock")
        assert (shock["unit"], shock["roll"], shock["needed"], shock["passed"]) == ("b1", 6, 7, False)
        assert shock["rule"] == "Harbingers of Dread" and shock["strength"] == "below starting"
        assert W.unit_state(b.units["b1"]).battle_shocked


def test_doom_and_darkness_act_once_picked():
    from sim.rules.effects import vocabulary as V
    from sim.world import rule_effects as RE
    with Battle(_dread(("harbingers-of-dread", "paragons-of-terror")), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "Doom"}))  # (then Paragons' default: Despair)
        b._enter()
        k, b1 = b.units["k"], b.units["b1"]

        def wound(**kw):
            return [a.grant.what.value for a in RE.acting(b, k, (V.MODIFY,), **kw) if a.grant.what.stat == "wound"]
        assert wound(attack="melee", other=b1) == []
        W.unit_state(b1).battle_shocked = True
        assert wound(attack="melee", other=b1) == [1]  # Doom: +1 to wound a battle-shocked unit

        def hit_taken():
            return [a.grant.what.value for a in RE.acting(b, k, (V.MODIFY,), attack="ranged", other=b1)
                    if a.grant.what.stat == "hit taken"]
        assert hit_taken() == []
        b.resources.rule_choices["red:harbingers-of-dread"]["value"].append("Darkness")
        assert hit_taken() == [-1]  # Darkness: Stealth


def test_a_battle_with_forced_tests_and_option_choices_replays_byte_for_byte(tmp_path):
    """The default battle with Shadow in the Warp and Terror of Khorne on the first army, Harbingers
    of Dread and Paragons of Terror on the second, played by the default and the random players:
    recorded, replayed with no player (every pick and test is in the log)."""
    def check(b):
        assert any(e.get("rule") == "Shadow in the Warp" for e in of_type(b, "battle-shock"))
        assert b.resources.rule_choices["blue:harbingers-of-dread"]["value"]
    path = default_table_with(tmp_path, ["shadow-in-the-warp", "terror-of-khorne"],
                              ["harbingers-of-dread", "paragons-of-terror"], "shock")
    played_and_replayed(tmp_path, path, 5, check)


def test_a_scenario_chosen_dread_ability_starts_the_picks_kept_and_answers_round_1():
    """A scenario's `chosen` option of a KEPT choice is its first pick (a list, never the letters
    of a string): it acts, is not offered again, and round 1 asks no second pick; Paragons of
    Terror's chosen pick joins Harbingers' picks."""
    spec = _dread(("harbingers-of-dread", "paragons-of-terror"))
    red, blue = spec.armies
    spec = dataclasses.replace(spec, armies=(dataclasses.replace(red, chosen=(
        ("harbingers-of-dread", "Doom"), ("paragons-of-terror", "Despair"))), blue))
    with Battle(spec, dice=ForcedDice([])) as b:
        assert b.resources.rule_choices["red:harbingers-of-dread"]["value"] == ["Doom", "Despair"]
        b.run_command(StartBattle())
        assert _picks(b) == []  # (round 1's picks were the scenario's)
        _to_round(b, 3)
        assert _picks(b) == [(0, "Dismay")]  # (the first option left)
        assert b.resources.rule_choices["red:harbingers-of-dread"]["value"] == ["Doom", "Despair", "Dismay"]


def test_a_battle_shock_roll_that_cannot_wait_takes_the_default_of_a_decision_its_outcome_asks(monkeypatch):
    """A Desperate Escape's roll is made inside the move: a decision its outcome's casualties ask
    (a transport's emergency disembark, Cult Ambush's call) takes its default answer at once."""
    from sim.decisions import DecisionRequest, ask
    from sim.phases import upkeep
    got = []

    def test(battle, u, step, asked, fields, forced=0):
        got.append((yield from ask(battle, DecisionRequest("rule_choice", "k", 0, ["call", "decline"], "decline"))))
    monkeypatch.setattr(upkeep, "battle_shock_test", test)
    with Battle(_shadow(), dice=ForcedDice([])) as b:
        b._enter()
        upkeep.battle_shock_roll(b, b.units["r1"], in_battle_shock_step=False)
        assert got == ["decline"] and b.pending is None
        assert [e["answer"] for e in of_type(b, "decision")] == ["decline"]

"""Rules that let a unit shoot or declare a charge after advancing or falling back (the ELIGIBLE
kind: Thrill Seekers, Duty Before All, the Waaagh!'s charge), a conferred [ASSAULT] read by the
shooting type (Doctrina Imperatives (Conqueror)), and Internal Rivalries (penalties to the
charge ignored; the Favoured Champions mark moved by a unit destroyed), in small battles with
forced dice."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Move, Selection, SelectToMove, Shoot, StartBattle
from sim.commands import charge_command
from sim.errors import Refusal
from sim.rules.abilities.value import norm
from sim.rules.dice import ForcedDice
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.world import rule_effects as RE

GK = ("INFANTRY", "GREY KNIGHTS", "TERMINATOR")
EC_CHAR = ("INFANTRY", "EMPEROR'S CHILDREN", "CHARACTER")


def _to(b, phase_name):
    while str(b.turn_state.phase) != phase_name:
        b.run_command(EndPhase())


def _battle(red, blue, dice, **kw):
    b = Battle(mission_scenario(red, blue, **kw), dice=ForcedDice(dice))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    return b


def _effects(b, rule):
    return [e for e in of_type(b, "rule effect") if e["rule"] == rule]


# --- shooting after advancing -------------------------------------------------------------------
def _option(b, key, option):
    """The rule's option in force (as its Command phase choice, already asked, would hold it)."""
    b.resources.rule_choices[RE.choice_key(0, key, "")] = {"value": option, "round": 1, "player": 0}


def _advanced_shooter(rules, dice, option=None):
    red = [unit("r", model((20, 10), ["gun"]), rules=list(rules))]
    blue = [unit("b", model((20, 30), ["gun"]))]
    b = _battle(red, blue, dice)
    if option:
        _option(b, rules[0], option)
    b.run_command(SelectToMove("r", "advance"))  # the advance roll: 3
    b.run_command(Move("r", (("r/1", 20, 15),), "advance"))
    _to(b, "shooting")
    return b


def test_thrill_seekers_lets_an_advanced_unit_shoot_normally():
    b = _advanced_shooter(["thrill-seekers"], [3, 6, 6, 1])
    with b:
        b.run_command(Shoot("r", (Selection("r/1", "gun", "b"),)))
        (st,) = of_type(b, "shooting type")
        assert st["shooting_type"] == "normal" and st["eligible"]["normal"] is True
        (used,) = _effects(b, "Thrill Seekers")
        assert used["unit"] == "r" and used["effect"] == "shoots in a turn it advanced"
        assert of_type(b, "unit destroyed")[0]["unit"] == "b"


def test_without_a_rule_an_advanced_unit_without_assault_weapons_cannot_shoot():
    with _advanced_shooter([], [3]) as b:
        why = b.check(Shoot("r", (Selection("r/1", "gun", "b"),)))
        assert "qualifies for no shooting type" in why and "advanced this turn (10.04)" in why
        assert "no [ASSAULT] weapon (10.05)" in why


def test_assault_conferred_lets_an_advanced_unit_use_assault_shooting():
    """Doctrina Imperatives (Conqueror) confers [ASSAULT] on ranged weapons: the unit qualifies
    for assault shooting (10.05) after advancing and fires its gun with it; the permission to
    shoot normally it does not give (10.04 still refuses)."""
    with _advanced_shooter(["doctrina-imperatives"], [3, 6, 6, 1], "Conqueror Imperative") as b:
        assert "advanced this turn (10.04)" in b.check(Shoot("r", (Selection("r/1", "gun", "b"),), type="normal"))
        b.run_command(Shoot("r", (Selection("r/1", "gun", "b"),)))
        (st,) = of_type(b, "shooting type")
        assert st["shooting_type"] == "assault" and st["eligible"]["assault"] is True
        assert of_type(b, "unit destroyed")[0]["unit"] == "b"
    with _advanced_shooter(["doctrina-imperatives"], [3], "Protector Imperative") as b:  # (no [ASSAULT] then)
        assert "no [ASSAULT] weapon (10.05)" in b.check(Shoot("r", (Selection("r/1", "gun", "b"),)))


# --- falling back: Duty Before All, and Thrill Seekers' restrictions ----------------------------
def _fell_back(rules, keywords, dice, others=()):
    """r (engaged with b1 as the turn begins) falls back 4" away; b2 stands 10" off; ``others``:
    more red units."""
    red = [unit("r", model((20, 20), ["gun", "blade"]), keywords=keywords, rules=list(rules)), *others]
    blue = [unit("b1", model((20, 21.5), ["blade"])), unit("b2", model((30, 16), ["blade"]))]
    b = _battle(red, blue, dice)
    b.run_command(Move("r", (("r/1", 20, 16),), "fall back"))
    return b


def test_duty_before_all_lets_gk_terminators_shoot_and_charge_after_falling_back():
    with _fell_back(["duty-before-all"], GK, [6, 6, 1, 4, 4]) as b:
        _to(b, "shooting")
        b.run_command(Shoot("r", (Selection("r/1", "gun", "b2"),)))  # 6 hits, 6 wounds, 1 fails the save
        assert of_type(b, "unit destroyed")[0]["unit"] == "b2"
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 4 + 4: 8
        assert of_type(b, "charge")[-1]["roll"] == 8
        b.run_command(charge_command(b, "r", ("b1",), None))
        assert [e["effect"] for e in _effects(b, "Duty Before All")] == [
            "shoots in a turn it fell back", "declares a charge in a turn it fell back"]


def test_duty_before_all_needs_the_keywords_and_without_it_the_unit_is_refused_with_the_reason():
    for rules, keywords in (([], GK), (["duty-before-all"], ("INFANTRY", "GREY KNIGHTS"))):
        with _fell_back(rules, keywords, []) as b:
            _to(b, "shooting")
            why = b.check(Shoot("r", (Selection("r/1", "gun", "b2"),)))
            assert "fell back this turn (09.07): not eligible to shoot" in why
            _to(b, "charge")
            with pytest.raises(Refusal, match=r"fell back this turn and cannot declare a charge \(11.02"):
                b.submit(DeclareCharge("r"))


def test_thrill_seekers_refuses_a_target_it_began_the_turn_engaged_with():
    with _fell_back(["thrill-seekers"], ("INFANTRY",), [6, 6, 1, 4, 4]) as b:
        _to(b, "shooting")
        why = b.check(Shoot("r", (Selection("r/1", "gun", "b1"),)))
        assert why.startswith("Thrill Seekers lets it shoot at b1 in a turn it fell back only while the other "
                              "unit was not engaged with it at the start of the turn")
        b.run_command(Shoot("r", (Selection("r/1", "gun", "b2"),)))
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 8: both in reach; b1 refused, b2 destroyed: none left to charge
        with pytest.raises(Refusal, match="Thrill Seekers lets it charge b1"):
            b.submit(charge_command(b, "r", ("b1",), None))


def test_the_headless_charge_skips_a_target_thrill_seekers_refuses_for_the_next_closest():
    """Part A ruling 17: the closest *eligible* enemy unit. b1, the closest, began the turn
    engaged with r, so Thrill Seekers' leave to charge after falling back does not cover it: the
    default charge (no targets named) goes at b2, and the rules accept it."""
    with _fell_back(["thrill-seekers"], ("INFANTRY",), [6, 6]) as b:
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 12: both in reach
        cmd = charge_command(b, "r", None, None)
        assert cmd.targets == ("b2",) and cmd.to
        b.run_command(cmd)
        assert of_type(b, "charge")[-1]["result"] == "made"
        assert of_type(b, "charge")[-1]["targets"] == ["b2"]


def test_the_headless_charge_is_not_made_when_the_only_target_in_reach_is_refused():
    with _fell_back(["thrill-seekers"], ("INFANTRY",), [2, 3]) as b:
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 5: b1 (4.2" away) in reach, b2 not; b1 refused
        cmd = charge_command(b, "r", None, None)
        assert cmd.targets == () and cmd.to == ()
        b.run_command(cmd)
        assert of_type(b, "charge")[-1]["result"] == "not made"


def test_thrill_seekers_refuses_a_target_another_unit_attacked_this_phase():
    other = unit("q", model((40, 10), ["gun"]))
    with _fell_back(["thrill-seekers"], ("INFANTRY",), [1], others=[other]) as b:
        _to(b, "shooting")
        assert b.check(Shoot("r", (Selection("r/1", "gun", "b2"),))) is None
        b.run_command(Shoot("q", (Selection("q/1", "gun", "b2"),)))  # a 1: misses
        why = b.check(Shoot("r", (Selection("r/1", "gun", "b2"),)))
        assert why.startswith("Thrill Seekers lets it shoot at b2 in a turn it fell back only while no other "
                              "unit has charged or attacked the other unit this phase")


def test_the_waaagh_lets_units_charge_after_advancing_while_it_is_called():
    for chosen, allowed in ((True, True), (False, False)):
        red = [unit("r", model((20, 10), ["blade"]), rules=["waaagh"])]
        blue = [unit("b", model((20, 22), ["blade"]))]
        with _battle(red, blue, [3, 4, 4]) as b:
            ck = RE.choice_key(0, "waaagh", "")
            assert b.resources.rule_choices[ck]["value"] is True  # (the default player calls it at once)
            if not chosen:
                del b.resources.rule_choices[ck]
            b.run_command(SelectToMove("r", "advance"))
            b.run_command(Move("r", (("r/1", 20, 15),), "advance"))
            _to(b, "charge")
            why = b.check(DeclareCharge("r"))
            assert (why is None) is allowed
            if not allowed:
                assert "advanced this turn and cannot declare a charge" in why


def test_templar_vows_suffer_not_the_unclean_lets_a_unit_charge_but_not_shoot_after_falling_back():
    with _fell_back(["templar-vows"], ("INFANTRY", "ADEPTUS ASTARTES"), []) as b:  # (Abhor the Witch: not so)
        _to(b, "charge")
        assert "fell back this turn and cannot declare a charge" in b.check(DeclareCharge("r"))
    with _fell_back(["templar-vows"], ("INFANTRY", "ADEPTUS ASTARTES"), [4, 4]) as b:
        _option(b, "templar-vows", "Suffer Not the Unclean to Live")
        _to(b, "shooting")
        assert "fell back this turn (09.07)" in b.check(Shoot("r", (Selection("r/1", "gun", "b2"),)))
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))
        assert of_type(b, "charge")[-1]["roll"] == 8


# --- Internal Rivalries --------------------------------------------------------------------------
MIRE = V.RuleRecord("test-mire", ("Test Mire",), V.DATASHEET, "test: -2 to charges nearby",
                    (V.Grant(V.Effect(V.MODIFY, "charge", -2), V.ENEMY_AURA, range=12),))


@pytest.fixture
def with_mire(monkeypatch):
    by_key, by_id, by_name = table._tables()
    by_key, by_name = dict(by_key, **{MIRE.key: MIRE}), dict(by_name, **{norm(MIRE.name): [MIRE]})
    monkeypatch.setattr(table, "_tables", lambda: (by_key, by_id, by_name))


@pytest.mark.parametrize("keywords, roll", [(EC_CHAR, 8), (("INFANTRY", "EMPEROR'S CHILDREN"), 6)])
def test_internal_rivalries_ignores_a_penalty_to_the_charge(with_mire, keywords, roll):
    red = [unit("r", model((20, 10), ["blade"]), keywords=keywords, rules=["internal-rivalries"])]
    blue = [unit("b", model((20, 18), ["blade"]), rules=["test-mire"])]
    with _battle(red, blue, [4, 4]) as b:
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))
        assert of_type(b, "charge")[-1]["roll"] == roll
        ignored = _effects(b, "Internal Rivalries")
        assert [e["effect"] for e in ignored] == (["ignores -2 to its charge roll (Test Mire)"] if roll == 8 else [])


def _rivals(dice, chosen=None):
    red = [unit("c1", model((10, 10), ["gun"]), keywords=EC_CHAR),
           unit("c2", model((30, 10), ["gun"]), keywords=EC_CHAR),
           unit("w", model((50, 10), ["gun"]), keywords=("INFANTRY", "EMPEROR'S CHILDREN"))]
    blue = [unit(f"b{i}", model((10 + 20 * i, 30), ["blade"])) for i in range(3)]
    scen = mission_scenario(red, blue)
    import dataclasses
    army = dataclasses.replace(scen.armies[0], rules=("internal-rivalries",),
                               chosen=(("internal-rivalries", chosen),) if chosen else ())
    scen = dataclasses.replace(scen, armies=(army, scen.armies[1]))
    b = Battle(scen, dice=ForcedDice(dice))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    _to(b, "shooting")
    return b


def _marked(b):
    return RE.mark_of(0, "internal-rivalries")


def test_internal_rivalries_the_favoured_mark_moves_to_the_first_character_unit_to_destroy_a_unit():
    # w kills b2 (not a CHARACTER: no move); c2 kills b1 (moves from c1); c1 kills b0 (not the first this turn)
    with _rivals([6, 6, 1, 6, 6, 1, 6, 6, 1], chosen="c1") as b:
        assert _marked(b) == "c1"
        b.run_command(Shoot("w", (Selection("w/1", "gun", "b2"),)))
        assert _marked(b) == "c1"
        b.run_command(Shoot("c2", (Selection("c2/1", "gun", "b1"),)))
        assert _marked(b) == "c2"
        (moved,) = _effects(b, "Internal Rivalries")
        assert moved["unit"] == "c2" and "destroyed b1" in moved["effect"]
        b.run_command(Shoot("c1", (Selection("c1/1", "gun", "b0"),)))
        assert _marked(b) == "c2" and len(of_type(b, "unit destroyed")) == 3


def test_internal_rivalries_the_favoured_unit_rerolls_its_wound_rolls():
    # c1 (favoured): hit 6, wound 1 re-rolled to 6, save 1: b0 destroyed; c2: hit 6, wound 1: no re-roll
    with _rivals([6, 1, 6, 1, 6, 1], chosen="c1") as b:
        b.run_command(Shoot("c1", (Selection("c1/1", "gun", "b0"),)))
        assert [e["unit"] for e in of_type(b, "unit destroyed")] == ["b0"]
        b.run_command(Shoot("c2", (Selection("c2/1", "gun", "b1"),)))
        assert [e["unit"] for e in of_type(b, "unit destroyed")] == ["b0"]


# --- the players --------------------------------------------------------------------------------
def _played(rules, players):
    import dataclasses
    from sim.players import play_battle
    red = [unit("r", model((20, 6), ["gun", "blade"]), rules=list(rules))]
    blue = [unit("b", model((20, 34), ["blade"], W=20))]  # (the objective 10" ahead of r, b 18" beyond it)
    spec = mission_scenario(red, blue, rounds=1, objectives=[{"name": "o", "at": [20, 16], "kind": "central"}])
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
    b = Battle(spec, seed=3)
    play_battle(b, spec)
    return b


def test_the_default_player_advances_a_unit_a_rule_lets_shoot_and_charge_after_advancing_and_shoots():
    with _played(["thrill-seekers"], ("default", "default")) as b:
        (red_move,) = [e for e in of_type(b, "moved") if e["unit"] == "r"]
        assert red_move["mode"] == "advance"
        (st,) = [e for e in of_type(b, "shooting type") if e["unit"] == "r"]
        assert st["shooting_type"] == "normal"
        assert "shoots in a turn it advanced" in [e["effect"] for e in _effects(b, "Thrill Seekers")]
    with _played([], ("default", "default")) as b:  # (without it: a normal move, then shooting as ever)
        assert [e["mode"] for e in of_type(b, "moved") if e["unit"] == "r"] == ["normal"]


def test_the_tactician_never_offers_a_shot_a_rule_refuses_since_its_odds_were_kept():
    """The tactician keeps an option's odds for the phase while the wounds they read stand; Thrill
    Seekers turns against r's shot at b2 once q has attacked b2, though q missed (no wound lost).
    Its next choice is one the rules accept (a 4,000-point tactician battle stopped on this)."""
    from sim.players import make_player
    other = unit("q", model((40, 10), ["gun"]))
    with _fell_back(["thrill-seekers"], ("INFANTRY",), [1], others=[other]) as b:
        _to(b, "shooting")
        tactician = make_player("tactician", 0, b, b.scenario)
        tactician.choose(b)  # (r's shot at b2 weighed and kept)
        b.run_command(Shoot("q", (Selection("q/1", "gun", "b2"),)))  # a 1: misses
        assert b.check(Shoot("r", (Selection("r/1", "gun", "b2"),))) is not None
        cmd = tactician.choose(b).command
        assert b.check(cmd) is None, cmd

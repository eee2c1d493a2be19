"""The pure rules of the effects outside the attack sequence (sim.rules.effects.phase_rules) and
of the choices rules ask (sim.rules.effects.choices)."""

from __future__ import annotations

from sim.rules.dice import DiceExpr
from sim.rules.effects import choices as CH
from sim.rules.effects import phase_rules as PR
from sim.rules.effects import vocabulary as V
from sim.rules.geometry import round_base


def _mod(stat, value):
    return V.Effect(V.MODIFY, stat, value)


def test_modifiers_add_up_per_stat_and_bounds_hold():
    effects = [_mod("M", 2), _mod("M", -1), _mod("OC", 1), V.Effect(V.REROLL, "charge", which=V.ANY)]
    assert PR.modifier(effects, "M") == 1 and PR.modifier(effects, "OC") == 1 and PR.modifier(effects, "Ld") == 0
    assert PR.modified_move(2, -3) == 1 and PR.modified_move(6, 2) == 8  # (02.02.01: M never below 1")
    assert PR.modified_move(0, 2) == 0  # (a model with no Move gains none)
    assert PR.modified_roll(1, -2) == 0 and PR.modified_roll(7, 1) == 8
    assert PR.modified_roll(12, 1, PR.CHARGE_CAP) == 12 and PR.modified_roll(11, 1, PR.CHARGE_CAP) == 12


def test_14_02_oc_modifier_never_lifts_battle_shock_and_never_below_zero():
    assert PR.modified_oc(2, 1, False) == 3
    assert PR.modified_oc(1, -2, False) == 0
    assert PR.modified_oc(2, 5, True) is None


def test_02_02_01_leadership_improves_but_never_to_4_plus_nor_worsens_to_9_plus():
    assert PR.modified_leaderships([7, 6], 1) == [6, 5]
    assert PR.modified_leaderships([5], 3) == [5]
    assert PR.modified_leaderships([7], -3) == [8]
    assert PR.battle_shock_passes(6, 1, [7]) and not PR.battle_shock_passes(5, 1, [7])


def test_01_05_02_rerolls_broadest_wins_and_automatic_ones():
    effects = [V.Effect(V.REROLL, "charge", which=V.ONES), V.Effect(V.REROLL, "charge", which=V.FAILED)]
    assert PR.reroll_which(effects, "charge") == V.FAILED
    assert PR.reroll_which(effects, "advance") is None
    assert PR.automatic_reroll(V.FAILED, [1, 2], True) == [0, 1]
    assert PR.automatic_reroll(V.FAILED, [1, 2], False) is None
    assert PR.automatic_reroll(V.ONES, [1, 4], False) == [0]
    assert PR.automatic_reroll(V.ONES, [3, 4], True) is None
    assert PR.automatic_reroll(V.ANY, [1, 1], True) is None  # (the player's choice)


def test_default_reroll_answers():
    assert PR.default_reroll("advance", [2], False) and not PR.default_reroll("advance", [3], False)
    assert PR.default_reroll("charge", [1, 2], True) and not PR.default_reroll("charge", [6, 6], False)
    assert PR.default_reroll("battle-shock", [1, 1], True)


def test_06_02_triggered_mortal_wounds():
    assert PR.triggered_mortal_wounds(0, None)
    assert PR.triggered_mortal_wounds(4, 4) and not PR.triggered_mortal_wounds(4, 3)


def test_regain_heals_the_most_wounded_first_then_returns_models_with_one_wound():
    wounded = [("a", 2, 3), ("b", 1, 3)]
    gains, back = PR.regain(2, wounded, [("c", 3)])
    assert gains == {"b": 1, "a": 1} and back == []  # (b first, then the tie goes to listed order)
    gains, back = PR.regain(6, wounded, [("c", 3), ("d", 3)])
    # b +2 (to 3), a +1 (to 3), then c returns (1 wound) and is healed by 2 more -> c 3; d not reached
    assert back == ["c"] and gains == {"b": 2, "a": 1, "c": 3}
    gains, back = PR.regain(3, [("a", 1, 1)], [("c", 1), ("d", 1)])
    assert back == ["c", "d"] and gains == {"c": 1, "d": 1}  # (the third point has nothing left)


def test_place_returned_in_coherency_off_enemies_on_the_table_else_none():
    host = round_base(32, 10, 10)
    new = round_base(32, 0, 0)
    x, y = PR.place_returned(new, [host], [host], [], (60, 44))
    assert abs(((x - 10) ** 2 + (y - 10) ** 2) ** 0.5 - (2 * host.bounding_radius + 0.25)) < 1e-3
    # an enemy base 3" to the east: the east bearing is refused (engagement range 2"), north taken
    enemy = round_base(32, 13.5, 10)
    x2, y2 = PR.place_returned(new, [host], [host, enemy], [enemy], (60, 44))
    assert (x2, y2) != (x, y)
    # walled in by enemies on every side: no place
    ring = [round_base(32, 10 + dx, 10 + dy) for dx in (-2.5, 0, 2.5) for dy in (-2.5, 0, 2.5) if dx or dy]
    assert PR.place_returned(new, [host], [host] + ring, ring, (60, 44)) is None
    # in a corner the off-table bearings are skipped
    corner = round_base(32, 0.7, 0.7)
    cx, cy = PR.place_returned(new, [corner], [corner], [], (60, 44))
    assert cx >= 0.6 and cy >= 0.6


def test_15_01_stratagem_cost_modifier_for_this_stratagem_or_every_one():
    effects = [V.Effect(V.STRATAGEM_COST, value=-1, ability="Fire Overwatch"), V.Effect(V.STRATAGEM_COST, value=-1)]
    assert PR.stratagem_cost_modifier(effects, "Fire Overwatch") == -2
    assert PR.stratagem_cost_modifier(effects, "Smokescreen") == -1


def test_choices_options_defaults_and_uses():
    pick = V.RuleChoice(V.PICK_ENEMY, "command", "pick")
    call = V.RuleChoice(V.CALL, "command", "call?", V.UNTIL_YOUR_NEXT_COMMAND, uses=1)
    assert CH.options(pick, ["b1", "b2"]) == ["b1", "b2"] and CH.options(call, []) == ["call", "decline"]
    assert CH.default_answer(pick, [("b1", 20.0), ("b2", 8.0), ("b3", 8.0)], 1) == "b2"
    assert CH.default_answer(call, [("b1", 20.0)], 1) == "decline"
    assert CH.default_answer(call, [("b1", 12.0)], 1) == "call"
    assert CH.default_answer(call, [("b1", 30.0)], 3) == "call"
    assert CH.uses_left(call, 0) and not CH.uses_left(call, 1) and CH.uses_left(pick, 99)
    assert CH.value_of(call, "decline") is None and CH.value_of(call, "call") is True
    assert CH.value_of(pick, "b2") == "b2"


def test_choices_expire_per_lasts():
    # made in round 2, red's (0) turn
    assert not CH.expired(V.UNTIL_NEXT_CHOICE, 2, 0, 5, 1, 0, "command")
    assert not CH.expired(V.THIS_TURN, 2, 0, 2, 0, 0, "fight")
    assert CH.expired(V.THIS_TURN, 2, 0, 2, 1, 0, "command")
    assert not CH.expired(V.THIS_ROUND, 2, 0, 2, 1, 0, "command") and CH.expired(V.THIS_ROUND, 2, 0, 3, 0, 0, "command")
    assert not CH.expired(V.UNTIL_YOUR_NEXT_COMMAND, 2, 0, 2, 1, 0, "command")  # (blue's Command phase)
    assert not CH.expired(V.UNTIL_YOUR_NEXT_COMMAND, 2, 0, 2, 0, 0, "movement")
    assert CH.expired(V.UNTIL_YOUR_NEXT_COMMAND, 2, 0, 3, 0, 0, "command")


def test_dice_expr_of_records_roll_as_given():
    assert DiceExpr(0, 0, 2).roll(None, "x") == 2


def test_regain_one_heals_the_most_wounded_model_up_to_its_wounds():
    from sim.rules.effects.phase_rules import regain_one
    wounded = [("a", 2, 3), ("b", 1, 3), ("c", 1, 3)]
    assert regain_one(3, wounded) == {"b": 2}  # (2 lost: never above W; ties: listed order)
    assert regain_one(1, wounded) == {"b": 1}
    assert regain_one(3, [("a", 3, 3)]) == {} and regain_one(0, wounded) == {}

"""18 Transports as pure rules (sim.rules.transport): 18.01 capacity (what a datasheet allows,
models that take more than one space, a unit cap), 18.02 embarking, 18.04 the disembark modes
in order and their set-up distance, 18.05's after-effects, the empty DEDICATED TRANSPORT, 24.14
Firing Deck's limits, and 20.01's cap counting the units inside a transport in reserves."""

from __future__ import annotations

from sim.rules import transport as TR
from sim.rules.geometry import footprint
from sim.rules.reserves import FormationUnit, reserves_problems

INF = frozenset({"INFANTRY"})
HEAVY = frozenset({"INFANTRY", "HEAVY ARMOUR"})
JUMP = frozenset({"INFANTRY", "JUMP PACK"})
CAP = TR.Capacity(10, (("INFANTRY",),), ("JUMP PACK",), (("HEAVY ARMOUR", 2),))


def _unit(uid, n, kw=INF, w=1):
    return TR.Passenger(uid, tuple((f"{uid}/{i}", kw, w) for i in range(1, n + 1)))


def test_18_01_units_that_fit_are_accepted():
    assert TR.capacity_problems("rhino", CAP, [_unit("a", 5), _unit("b", 5)]) == []


def test_18_01_too_many_models_is_refused_naming_the_spaces():
    (p,) = TR.capacity_problems("rhino", CAP, [_unit("a", 6), _unit("b", 5)])
    assert "11 spaces" in p and "capacity of 10" in p and "18.01" in p


def test_18_01_a_model_that_takes_two_spaces_counts_twice():
    assert TR.capacity_problems("rhino", CAP, [_unit("a", 5, HEAVY)]) == []
    (p,) = TR.capacity_problems("rhino", CAP, [_unit("a", 5, HEAVY), _unit("b", 1)])
    assert "11 spaces" in p
    assert TR.model_space(CAP, HEAVY) == 2 and TR.model_space(CAP, INF) == 1


def test_18_01_a_keyword_the_datasheet_bars_is_refused():
    problems = TR.capacity_problems("rhino", CAP, [_unit("a", 2, JUMP)])
    assert len(problems) == 2 and all("JUMP PACK" in p and "cannot be carried" in p for p in problems)


def test_18_01_a_model_without_a_required_keyword_is_refused():
    (p,) = TR.capacity_problems("rhino", CAP, [_unit("a", 1, frozenset({"MOUNTED"}))])
    assert "it is not INFANTRY" in p


def test_18_01_alternative_keywords_any_one_will_do():
    cap = TR.Capacity(6, (("ORKS",), ("INFANTRY", "BEASTS")))
    assert TR.capacity_problems("t", cap, [_unit("a", 2, frozenset({"ORKS", "BEASTS"}))]) == []
    assert TR.capacity_problems("t", cap, [_unit("a", 1, frozenset({"BEASTS"}))]) != []


def test_18_01_a_unit_cap():
    cap = TR.Capacity(10, units=1)
    (p,) = TR.capacity_problems("t", cap, [_unit("a", 1), _unit("b", 1)])
    assert "at most 1 unit" in p


def test_18_01_no_capacity_carries_nothing():
    (p,) = TR.capacity_problems("tank", None, [_unit("a", 1)])
    assert "no transport capacity" in p
    assert TR.capacity_problems("tank", None, []) == []


def test_18_01_capacity_in_words():
    assert CAP.describe() == ("10 INFANTRY models; each HEAVY ARMOUR model takes the space of 2; "
                              "not JUMP PACK models")


def test_18_01_an_empty_dedicated_transport_only():
    assert TR.empty_dedicated_transport({"VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"}, 0)
    assert not TR.empty_dedicated_transport({"VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"}, 1)
    assert not TR.empty_dedicated_transport({"VEHICLE", "TRANSPORT"}, 0)


def _embark(**kw):
    args = dict(move="normal", round=1, set_up_this_turn=False, gaps=[("a/1", 2.9), ("a/2", 3.0)], room=[])
    args.update(kw)
    return TR.embark_problems("a", "rhino", **args)


def test_18_02_every_model_within_3_inches_embarks():
    assert _embark() == []


def test_18_02_a_model_beyond_3_inches_is_refused():
    (p,) = _embark(gaps=[("a/1", 1.0), ("a/2", 3.01)])
    assert p.startswith("a/2: 3.01\"") and "within 3\"" in p


def test_18_02_only_after_a_normal_advance_or_fall_back_move():
    for mode in ("normal", "advance", "fall back"):
        assert _embark(move=mode) == []
    assert "not a charge move" in _embark(move="charge")[0]


def test_18_02_not_a_unit_set_up_this_turn_and_not_before_round_1():
    assert "set up this turn" in _embark(set_up_this_turn=True)[0]
    assert "battle round 1" in _embark(round=0)[0]
    assert _embark(room=["full"]) == ["full"]


def _mode(move_selected=None, move_type=None, advanced=False, fell_back=False, tactical=True):
    return TR.disembark_mode("rhino", move_selected=move_selected, move_type=move_type, advanced=advanced,
                             fell_back=fell_back, tactical_possible=lambda: tactical)


def test_18_04_modes_in_order():
    assert _mode(move_type="normal") == (TR.DisembarkMode.RAPID, None)
    assert _mode(move_type="ingress") == (TR.DisembarkMode.RAPID, None)
    assert _mode() == (TR.DisembarkMode.TACTICAL, None)  # (not yet selected to move)
    assert _mode(move_selected="stationary", move_type="stationary") == (TR.DisembarkMode.TACTICAL, None)
    assert _mode(tactical=False) == (TR.DisembarkMode.COMBAT, None)


def test_18_04_rapid_is_tested_before_tactical():
    asked = []
    mode, _ = TR.disembark_mode("rhino", move_selected="normal", move_type="normal", advanced=False,
                                fell_back=False, tactical_possible=lambda: asked.append(1) or True)
    assert mode == TR.DisembarkMode.RAPID and asked == []


def test_18_04_none_after_the_transport_advanced_or_fell_back():
    for kw in ({"advanced": True}, {"fell_back": True}, {"move_type": "advance"}, {"move_selected": "advance"}):
        mode, why = _mode(**kw)
        assert mode is None and "no unit may disembark" in why


def test_18_04_the_set_up_distances():
    assert TR.set_up_distance(TR.DisembarkMode.RAPID) == TR.set_up_distance(TR.DisembarkMode.TACTICAL) == 3
    assert TR.set_up_distance(TR.DisembarkMode.COMBAT) == TR.set_up_distance(TR.DisembarkMode.EMERGENCY) == 6


def test_18_04_wholly_within_measures_the_far_side_of_the_base():
    rhino = [footprint("round", 10.0, 10.0, 4.0, 4.0)]  # radius 2: its edge at x = 12
    near = ("a/1", footprint("round", 14.0, 10.0, 1.0, 1.0))  # far side at 14.5: 2.5" from the edge
    far = ("a/2", footprint("round", 14.6, 10.0, 1.0, 1.0))  # far side at 15.1: 3.1"
    assert TR.set_up_distance_problems([near], rhino, "rhino", TR.DisembarkMode.TACTICAL) == []
    (p,) = TR.set_up_distance_problems([near, far], rhino, "rhino", TR.DisembarkMode.TACTICAL)
    assert p.startswith("a/2") and "3.10\"" in p
    assert TR.set_up_distance_problems([far], rhino, "rhino", TR.DisembarkMode.COMBAT) == []


def test_18_04_18_05_after_effects():
    assert [TR.charge_barred(m) for m in TR.DisembarkMode] == [True, False, True, True]
    assert [TR.battle_shocked_after(m) for m in TR.DisembarkMode] == [False, False, True, True]
    assert [TR.hazard_rolls_for(m) for m in TR.DisembarkMode] == [False, False, True, True]
    assert not TR.charge_barred(None)


def _pick(model="a/1", unit="a", shot=False, weapon="rifle"):
    return TR.FiringDeckPick(model, unit, shot, weapon, (("rifle", True, False), ("knife", False, False),
                                                         ("rocket", True, True)))


def _deck(x, picks, phase=True):
    return TR.firing_deck_problems("rhino", x, picks, in_shooting_phase=phase, one_shot="[ONCE]")


def test_24_14_up_to_x_models_each_lends_one_ranged_weapon():
    assert _deck(2, [_pick("a/1"), _pick("a/2")]) == []
    assert "at most 2" in _deck(2, [_pick("a/1"), _pick("a/2"), _pick("a/3")])[0]
    assert "one weapon only" in _deck(2, [_pick("a/1"), _pick("a/1")])[0]


def test_24_14_refusals():
    assert "no Firing Deck" in _deck(None, [_pick()])[0]
    assert "melee" in _deck(2, [_pick(weapon="knife")])[0]
    assert "[ONCE]" in _deck(2, [_pick(weapon="rocket")])[0]
    assert "already selected to shoot" in _deck(2, [_pick(shot=True)])[0]
    assert "no ranged weapon 'gun'" in _deck(2, [_pick(weapon="gun")])[0]
    assert "Shooting phase" in _deck(2, [_pick()], phase=False)[0]
    assert _deck(None, []) == []


def test_20_01_units_inside_a_transport_in_reserves_count_toward_the_cap():
    army = [FormationUnit("rhino", True), FormationUnit("squad", False, embarked_in="rhino"),
            FormationUnit("a", False), FormationUnit("b", False)]
    assert reserves_problems(army) == []  # 2 of 4 units: half
    army.append(FormationUnit("c", False, embarked_in="rhino"))
    assert reserves_problems(army) != []  # 3 of 5 units
    on_table = [FormationUnit("rhino", False), FormationUnit("squad", False, embarked_in="rhino")]
    assert reserves_problems(on_table) == []


def test_20_01_their_points_count_too():
    army = [FormationUnit("rhino", True, 100), FormationUnit("squad", False, 200, embarked_in="rhino"),
            FormationUnit("a", False, 250)]
    assert reserves_problems(army) != []  # 300 of 550 points
    army[1] = FormationUnit("squad", False, 100, embarked_in="rhino")
    assert reserves_problems(army) == []  # 200 of 450


def test_18_01_rules_by_wounds_weigh_the_wounds_characteristic_of_a_kind_with_exemptions():
    """WoundsRule: a model's space, or its refusal, by its W (not its wounds left), for the kind
    the rule names and not for a model with an exempting keyword; the largest space counts."""
    cap = TR.Capacity(10, (("INFANTRY", "BEAST"),), spaces=(("HEAVY ARMOUR", 2),), wounds=(
        TR.WoundsRule(3, 3), TR.WoundsRule(5, None, (), ("CHARACTER",)), TR.WoundsRule(0, 10, (("BEAST",),))))
    hero = frozenset({"INFANTRY", "CHARACTER"})
    beast = frozenset({"BEAST"})
    assert TR.model_space(cap, INF, 2) == 1 and TR.model_space(cap, INF, 3) == 3
    assert TR.model_space(cap, HEAVY, 1) == 2 and TR.model_space(cap, HEAVY, 4) == 3
    assert TR.model_space(cap, beast, 1) == 10
    assert TR.model_refusal(cap, INF, 4) is None
    assert TR.model_refusal(cap, INF, 5) == "it has W 5, and non-CHARACTER models with W 5 or more cannot be carried"
    assert TR.model_refusal(cap, hero, 9) is None
    assert TR.capacity_problems("rhino", cap, [_unit("a", 3, INF, 3)]) == []
    (p,) = TR.capacity_problems("rhino", cap, [_unit("a", 3, INF, 3), _unit("b", 2)])
    assert "11 spaces" in p
    assert TR.capacity_problems("rhino", cap, [_unit("a", 1, beast)]) == []
    assert TR.capacity_problems("rhino", cap, [_unit("a", 1, beast), _unit("b", 1)])
    assert ("each of the models with W 3 or more takes the space of 3; no non-CHARACTER models with W 5 or more; "
            "each of the BEAST models takes the space of 10") in cap.describe()

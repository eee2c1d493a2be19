"""15 Core stratagems: the registry (15.02-15.12), each one's window and limits, the 15.01 limits,
costs (15.01.01), and the default headless policy (Part A ruling 25)."""

from __future__ import annotations

import pytest

from sim.rules.stratagems import (
    AFTER_CHARGE_MOVE, AFTER_ENEMY_ATTACKS, AFTER_ROLL, BEFORE_BATTLE_SHOCK_ROLL, DURING_PHASE,
    END_OF_PHASE, OPPONENT, ROLLS, SELECTED_TO_FIGHT, START_OF_PHASE, YOURS, Roll, cost, refusal,
)
from sim.stratagems import REGISTRY, by_name
from sim.stratagems.command_reroll import default_answer

STRATAGEMS = sorted(REGISTRY, key=lambda s: s.section)

# the moment each stratagem is offered at: (whose turn, phase, window, roll)
LEGAL = {
    "Command Re-roll": (YOURS, "charge", AFTER_ROLL, "charge"),
    "Epic Challenge": (YOURS, "fight", SELECTED_TO_FIGHT, None),
    "Insane Bravery": (YOURS, "command", BEFORE_BATTLE_SHOCK_ROLL, None),
    "Explosives": (YOURS, "shooting", DURING_PHASE, None),
    "Crushing Impact": (YOURS, "charge", AFTER_CHARGE_MOVE, None),
    "Rapid Ingress": (OPPONENT, "movement", END_OF_PHASE, None),
    "Fire Overwatch": (OPPONENT, "movement", END_OF_PHASE, None),
    "Smokescreen": (OPPONENT, "shooting", START_OF_PHASE, None),
    "Heroic Intervention": (OPPONENT, "charge", END_OF_PHASE, None),
    "Counteroffensive": (OPPONENT, "fight", AFTER_ENEMY_ATTACKS, None),
}


def ctx(name, **over):
    turn, phase, window, roll = LEGAL[name]
    base = dict(cp=3, phase=phase, window=window, whose_turn=turn, roll=roll, round=2, target="u1")
    base.update(over)
    return base


def test_15_registry_holds_the_core_stratagems_15_02_to_15_12():
    assert [(s.section, s.name) for s in STRATAGEMS] == [
        ("15.02", "Command Re-roll"), ("15.03", "Epic Challenge"), ("15.04", "Insane Bravery"),
        ("15.05", "Explosives"), ("15.06", "Crushing Impact"), ("15.07", "Rapid Ingress"),
        ("15.08", "Fire Overwatch"), ("15.10", "Smokescreen"), ("15.11", "Heroic Intervention"),
        ("15.12", "Counteroffensive")]
    assert {s.name: s.cp for s in STRATAGEMS}["Counteroffensive"] == 2
    assert all(s.cp == 1 for s in STRATAGEMS if s.name != "Counteroffensive")
    assert [s.name for s in STRATAGEMS if s.once_per_battle] == ["Insane Bravery"]
    assert all(s.paraphrase and s.target for s in STRATAGEMS)


def test_15_by_name_names_the_known_ones_when_it_fails():
    assert by_name("Smokescreen").section == "15.10"
    with pytest.raises(KeyError, match="Command Re-roll"):
        by_name("Go to Ground")


@pytest.mark.parametrize("name", list(LEGAL))
def test_15_each_stratagem_is_usable_in_its_window(name):
    assert refusal(by_name(name), **ctx(name)) is None


@pytest.mark.parametrize("name", [n for n in LEGAL if n != "Command Re-roll"])
def test_15_each_stratagem_is_refused_in_the_other_players_turn(name):
    rec = by_name(name)
    other = OPPONENT if rec.turn == YOURS else YOURS
    reason = refusal(rec, **ctx(name, whose_turn=other))
    assert reason is not None and rec.section in reason and "turn" in reason


def test_15_02_command_reroll_is_usable_in_either_turn_and_any_phase():
    rec = by_name("Command Re-roll")
    for turn in (YOURS, OPPONENT):
        for phase in ("movement", "shooting", "fight"):
            assert refusal(rec, **ctx("Command Re-roll", whose_turn=turn, phase=phase, roll="hit")) is None


@pytest.mark.parametrize("name", list(LEGAL))
def test_15_each_stratagem_is_refused_outside_its_phase_or_window(name):
    rec = by_name(name)
    if rec.phase != "any":
        wrong_phase = "command" if rec.phase != "command" else "movement"
        reason = refusal(rec, **ctx(name, phase=wrong_phase))
        assert reason is not None and rec.section in reason and "phase" in reason
    if rec.window != DURING_PHASE:
        wrong = START_OF_PHASE if rec.window != START_OF_PHASE else END_OF_PHASE
        reason = refusal(rec, **ctx(name, window=wrong))
        assert reason is not None and rec.section in reason


def test_15_05_explosives_is_usable_at_any_moment_of_your_shooting_phase():
    rec = by_name("Explosives")
    for window in (START_OF_PHASE, END_OF_PHASE, DURING_PHASE):
        assert refusal(rec, **ctx("Explosives", window=window)) is None


@pytest.mark.parametrize("roll", ROLLS)
def test_15_02_command_reroll_follows_the_listed_rolls(roll):
    assert refusal(by_name("Command Re-roll"), **ctx("Command Re-roll", roll=roll)) is None


@pytest.mark.parametrize("roll", ["battle-shock", "leadership", None])
def test_15_02_command_reroll_refuses_other_rolls(roll):
    reason = refusal(by_name("Command Re-roll"), **ctx("Command Re-roll", roll=roll))
    assert reason is not None and "15.02" in reason


# --- 15.01 limits ----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(LEGAL))
def test_15_01_once_per_phase_per_player(name):
    reason = refusal(by_name(name), **ctx(name, used_this_phase={name}))
    assert reason is not None and "15.01" in reason and "once per phase" in reason
    # another stratagem used this phase does not block it
    assert refusal(by_name(name), **ctx(name, used_this_phase={"Some Other"})) is None


@pytest.mark.parametrize("name", list(LEGAL))
def test_15_01_one_stratagem_per_unit_per_phase(name):
    reason = refusal(by_name(name), **ctx(name, target="u1", units_targeted_this_phase={"u1"}))
    assert reason is not None and "15.01" in reason and "u1" in reason
    assert refusal(by_name(name), **ctx(name, target="u2", units_targeted_this_phase={"u1"})) is None


@pytest.mark.parametrize("name", list(LEGAL))
def test_15_01_01_07_not_on_own_battle_shocked_units(name):
    reason = refusal(by_name(name), **ctx(name, target_battle_shocked=True))
    assert reason is not None and "01.07" in reason


def test_ruling_26_insane_bravery_cannot_save_a_battle_shocked_unit():
    assert refusal(by_name("Insane Bravery"), **ctx("Insane Bravery", target_battle_shocked=True))


def test_15_04_insane_bravery_once_per_battle():
    rec = by_name("Insane Bravery")
    reason = refusal(rec, **ctx("Insane Bravery", used_once_per_battle={"Insane Bravery"}))
    assert reason is not None and "15.04" in reason and "once per battle" in reason
    # other stratagems are not limited per battle
    rr = by_name("Command Re-roll")
    assert refusal(rr, **ctx("Command Re-roll", used_once_per_battle={"Command Re-roll"})) is None


@pytest.mark.parametrize("rnd,ok", [(1, False), (2, True), (5, True)])
def test_15_07_rapid_ingress_not_in_round_1(rnd, ok):
    reason = refusal(by_name("Rapid Ingress"), **ctx("Rapid Ingress", round=rnd))
    assert (reason is None) is ok
    if not ok:
        assert "15.07" in reason and "round 1" in reason


@pytest.mark.parametrize("name,cp,ok", [
    ("Command Re-roll", 1, True), ("Command Re-roll", 0, False),
    ("Counteroffensive", 2, True), ("Counteroffensive", 1, False),
])
def test_15_01_too_little_cp_is_refused(name, cp, ok):
    reason = refusal(by_name(name), **ctx(name, cp=cp))
    assert (reason is None) is ok
    if not ok:
        assert "costs" in reason and "15.01" in reason


def test_15_11_into_the_fray_costs_one_more():
    rec = by_name("Heroic Intervention")
    assert cost(rec) == 1 and cost(rec, extra=True) == 2
    assert refusal(rec, **ctx("Heroic Intervention", cp=1)) is None
    assert "costs 2 CP" in refusal(rec, **ctx("Heroic Intervention", cp=1, extra=True))
    with pytest.raises(ValueError):
        cost(by_name("Smokescreen"), extra=True)


@pytest.mark.parametrize("modifier,out", [(0, 1), (1, 2), (2, 2), (-1, 0), (-5, 0)])
def test_15_01_01_cost_modifiers_rise_at_most_1_and_never_below_0(modifier, out):
    assert cost(by_name("Fire Overwatch"), modifier=modifier) == out


def test_15_01_01_a_free_use_needs_no_cp():
    assert refusal(by_name("Fire Overwatch"), **ctx("Fire Overwatch", cp=0, cost_modifier=-1)) is None


# --- target conditions (when the caller gives facts and keywords) -----------------------

@pytest.mark.parametrize("name,facts,keywords,fragment", [
    ("Rapid Ingress", set(), set(), "in strategic reserves"),
    ("Rapid Ingress", {"in strategic reserves"}, {"AIRCRAFT"}, "AIRCRAFT"),
    ("Fire Overwatch", set(), set(), "unengaged"),
    ("Fire Overwatch", {"unengaged"}, {"TITANIC", "VEHICLE"}, "TITANIC"),
    ("Explosives", {"unengaged", "eligible to shoot"}, {"GRENADES"}, "did not advance"),
    ("Explosives", {"unengaged", "eligible to shoot", "did not advance"}, {"INFANTRY"}, "EXPLOSIVES/GRENADES"),
    ("Smokescreen", set(), {"INFANTRY"}, "SMOKE"),
    ("Epic Challenge", set(), {"INFANTRY"}, "CHARACTER"),
    ("Crushing Impact", set(), {"INFANTRY"}, "MONSTER/VEHICLE"),
    ("Heroic Intervention", {"unengaged"}, set(), "within 12 inches"),
    ("Heroic Intervention", {"unengaged", "within 12 inches of an enemy unit"}, {"VEHICLE"}, "CHARACTER/WALKER"),
    ("Counteroffensive", set(), set(), "eligible to fight"),
])
def test_15_target_conditions_refused_with_the_section(name, facts, keywords, fragment):
    rec = by_name(name)
    reason = refusal(rec, **ctx(name, target_facts=facts, target_keywords=keywords))
    assert reason is not None and fragment in reason and rec.section in reason


@pytest.mark.parametrize("name,facts,keywords", [
    ("Rapid Ingress", {"in strategic reserves"}, {"INFANTRY"}),
    ("Fire Overwatch", {"unengaged"}, {"VEHICLE"}),
    ("Explosives", {"unengaged", "eligible to shoot", "did not advance"}, {"INFANTRY", "EXPLOSIVES"}),
    ("Heroic Intervention", {"unengaged", "within 12 inches of an enemy unit"}, {"VEHICLE", "WALKER"}),
    ("Heroic Intervention", {"unengaged", "within 12 inches of an enemy unit"}, {"INFANTRY"}),
    ("Counteroffensive", {"eligible to fight"}, {"INFANTRY"}),
])
def test_15_target_conditions_met(name, facts, keywords):
    assert refusal(by_name(name), **ctx(name, target_facts=facts, target_keywords=keywords)) is None


# --- Part A ruling 25: the default headless policy --------------------------------------

def test_ruling_25_default_policy_rerolls_a_failed_charge():
    """Command Re-roll's default answer (offered only when the 15.01 limits and the CP allow
    it): use on a failed charge roll, decline on any other."""
    def roll(kind, failed):
        return Roll(kind, [3, 2], lambda i, why: [4, 4], failed=failed)
    assert default_answer(roll("charge", True)) == "use"
    assert default_answer(roll("charge", False)) == "decline"
    assert default_answer(roll("advance", True)) == "decline"
    assert default_answer(roll("hit", True)) == "decline"

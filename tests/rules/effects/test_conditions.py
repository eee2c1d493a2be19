"""sim.rules.effects.conditions: when a grant acts, as a pure function of the facts."""

import pytest

from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, condition_holds, holds, why_not


def test_condition_holds_reads_each_fact():
    f = Facts(charged=True, target_keywords=frozenset({"VEHICLE"}), target_distance=6.0, battle_round=2)
    assert condition_holds(V.CHARGED, None, f)
    assert not condition_holds(V.STATIONARY, None, f)
    assert condition_holds(V.TARGET_KEYWORD, "vehicle", f)
    assert not condition_holds(V.TARGET_KEYWORD, "MONSTER", f)
    assert condition_holds(V.TARGET_WITHIN, 6, f) and not condition_holds(V.TARGET_WITHIN, 5.9, f)
    assert not condition_holds(V.TARGET_WITHIN, 12, Facts())  # (no target: no distance)
    assert condition_holds(V.BATTLE_ROUND, 2, f) and not condition_holds(V.BATTLE_ROUND, 3, f)
    with pytest.raises(V.VocabularyError):
        condition_holds("lucky", None, f)


def test_why_not_names_the_first_part_that_fails():
    w = V.When(phases=("fight",), attacks="melee", turn="own", conditions=((V.CHARGED, None),))
    ok = Facts(phase="fight", attack="melee", own_turn=True, charged=True)
    assert why_not(w, ok) is None and holds(w, ok)
    assert why_not(w, Facts(phase="shooting", attack="melee", charged=True)) == "not in this phase"
    assert why_not(w, Facts(phase="fight", attack="ranged", charged=True)) == "only for melee attacks"
    assert why_not(w, Facts(phase="fight", attack="melee", own_turn=False, charged=True)) == "only in its army's turn"
    assert why_not(w, Facts(phase="fight", attack="melee")) == "while it made a charge move this turn (not now)"
    assert why_not(V.When(turn="enemy"), Facts(own_turn=True)) == "only in the opponent's turn"


def test_holds_with_no_parts_is_always_true():
    assert holds(V.ALWAYS, Facts())


def test_a_target_keyword_with_alternatives_holds_once_for_any_of_them():
    """02.05.01 "MONSTER/VEHICLE": one condition, met by a unit with either (or both: once)."""
    for kws, want in (({"MONSTER"}, True), ({"VEHICLE", "MONSTER"}, True), ({"INFANTRY"}, False)):
        assert condition_holds(V.TARGET_KEYWORD, "monster/VEHICLE", Facts(target_keywords=frozenset(kws))) is want


def test_target_within_takes_the_measuring_tolerance():
    """01.04.01 within X: not more than X up to the measuring tolerance, as every other distance."""
    assert condition_holds(V.TARGET_WITHIN, 6, Facts(target_distance=6.0 + 1e-9))
    assert not condition_holds(V.TARGET_WITHIN, 6, Facts(target_distance=6.01))


def test_domain_psychic_and_lacking_keyword_conditions_read_their_facts():
    inside = Facts(in_domain=True, wholly_in_domain=True, psychic=True, keywords=frozenset({"BATTLELINE"}))
    across = Facts(in_domain=True)
    assert condition_holds(V.IN_DOMAIN, None, across) and not condition_holds(V.WHOLLY_IN_DOMAIN, None, across)
    assert condition_holds(V.NOT_WHOLLY_IN_DOMAIN, None, across)
    assert not condition_holds(V.NOT_WHOLLY_IN_DOMAIN, None, inside)
    assert condition_holds(V.PSYCHIC_ATTACK, None, inside) and not condition_holds(V.PSYCHIC_ATTACK, None, across)
    assert not condition_holds(V.LACKS_KEYWORD, "battleline", inside)
    assert condition_holds(V.LACKS_KEYWORD, "BATTLELINE", across)
    assert not condition_holds(V.LACKS_KEYWORD, "INFANTRY/BATTLELINE", inside)
    assert why_not(V.When(conditions=((V.IN_DOMAIN, None),)), Facts()).startswith(
        "while it is within the domain of the rule's army")


def test_near_keyword_takes_alternatives_and_not_in_domain():
    f = Facts(holder_units=((frozenset({"MONSTER", "BLOODTHIRSTER"}), 6.0), (frozenset({"INFANTRY"}), 1.0)))
    assert condition_holds(V.NEAR_KEYWORD, "BLOODTHIRSTER/SKARBRAND 6", f)
    assert not condition_holds(V.NEAR_KEYWORD, "BLOODTHIRSTER 5.9", f)
    assert not condition_holds(V.NEAR_KEYWORD, "SKARBRAND/ROTIGUS 12", f)
    assert condition_holds(V.NOT_IN_DOMAIN, None, f) and not condition_holds(V.NOT_IN_DOMAIN, None, Facts(in_domain=True))

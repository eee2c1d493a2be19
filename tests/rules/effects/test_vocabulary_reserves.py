"""The vocabulary's reserves kinds (helper "reserves"): TO_RESERVES, UNIT_ABILITY, RESURGE, the
ARRIVED and STARTING_STRENGTH conditions, the PICK_FRIENDS choice (most by battle size, asked at a
phase's end or in the opponent's turn, or at battle formations) and a record's pool; written and
read back by the TOML files; and the pure rules they read (sim.rules.reserves)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, holds
from sim.rules.effects.data import RecordFileError, load_records
from sim.rules.effects.words import grant_words
from sim.rules.reserves import arrival_in_force, removal_problem
from sim.scenario.rule_records import to_toml

GATE = V.RuleChoice(V.PICK_FRIENDS, "fight", "pick", most=(2, 3, 4), at=V.AT_END, turn="enemy")


def _record(**kw):
    base = dict(key="k", names=("K",), source=V.ARMY_RULE, summary="s", faction="F",
                grants=(V.Grant(V.Effect(V.TO_RESERVES), V.CHOSEN_FRIEND),), choice=GATE)
    base.update(kw)
    return V.RuleRecord(**base)


def test_by_size_reads_one_number_or_three_by_battle_size():
    assert [V.by_size((2, 3, 4), s) for s in V.BATTLE_SIZES] == [2, 3, 4]
    assert V.by_size((2,), "onslaught") == 2


@pytest.mark.parametrize("kw, match", [
    (dict(most=()), "needs the most"),
    (dict(most=(2, 3)), "three"),
    (dict(most=(0,)), "above 0"),
    (dict(at="middle"), "start or end"),
    (dict(turn="theirs"), "start or end"),
])
def test_pick_friends_choice_refuses_a_bad_maximum_or_moment(kw, match):
    args = dict(kind=V.PICK_FRIENDS, moment="fight", prompt="p", most=(2,))
    args.update(kw)
    with pytest.raises(V.VocabularyError, match=match):
        V.RuleChoice(**args)


def test_only_a_choice_of_friendly_units_is_asked_at_a_phase_end_or_at_formations():
    with pytest.raises(V.VocabularyError, match="only a choice of friendly units"):
        V.RuleChoice(V.PICK_ENEMY, "fight", "p", at=V.AT_END)
    with pytest.raises(V.VocabularyError, match="only a choice of friendly units"):
        V.RuleChoice(V.CALL, V.FORMATIONS, "p")
    with pytest.raises(V.VocabularyError, match="must be a phase"):
        V.RuleChoice(V.PICK_FRIENDS, "muster", "p", most=(1,))
    assert V.RuleChoice(V.PICK_FRIENDS, V.FORMATIONS, "p", most=(2,)).moment == V.FORMATIONS


def test_records_refuse_what_the_new_kinds_cannot_do():
    with pytest.raises(V.VocabularyError, match="units picked only"):
        V.Grant(V.Effect(V.TO_RESERVES), V.ARMY)
    with pytest.raises(V.VocabularyError, match="without conditions"):
        V.Grant(V.Effect(V.UNIT_ABILITY, ability="INFILTRATORS"), V.ARMY, V.When(phases=("fight",)))
    with pytest.raises(V.VocabularyError, match="its name"):
        V.Effect(V.UNIT_ABILITY)
    with pytest.raises(V.VocabularyError, match="cost in points"):
        V.Effect(V.RESURGE)
    with pytest.raises(V.VocabularyError, match="needs a pool"):
        _record(choice=None, grants=(V.Grant(V.Effect(V.RESURGE, value=2), V.ARMY),))
    with pytest.raises(V.VocabularyError, match="needs a pool"):
        _record(pool=(6, 10, 14))
    with pytest.raises(V.VocabularyError, match="range 0"):
        _record(grants=(V.Grant(V.Effect(V.TO_RESERVES), V.CHOSEN_FRIEND, range=6),))
    assert _record().choice.most == (2, 3, 4)


def test_new_records_are_written_and_read_back_unchanged(tmp_path):
    recs = (_record(), _record(key="r", choice=None, pool=(6, 10, 14), grants=(V.Grant(
                V.Effect(V.RESURGE, value=4), V.ARMY, V.When(conditions=((V.STARTING_STRENGTH, 5),)),
                keywords=("ABERRANTS",)),)),
            _record(key="a", choice=None, grants=(V.Grant(V.Effect(V.WEAPON_ABILITY, ability="SUSTAINED HITS 1"),
                                                          V.ARMY, V.When(conditions=((V.ARRIVED, None),))),)),
            _record(key="h", choice=V.RuleChoice(V.PICK_FRIENDS, V.FORMATIONS, "p", most=(2,)),
                    grants=(V.Grant(V.Effect(V.UNIT_ABILITY, ability="INFILTRATORS"), V.CHOSEN_FRIEND,
                                    keywords=("PLAGUE MARINES",)),)))
    p = tmp_path / "r.toml"
    p.write_text(to_toml(recs), encoding="utf-8")
    assert load_records(p) == recs


def test_a_file_with_a_bad_maximum_is_refused_saying_where(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\n'
                 'choice = { kind = "friendly units", moment = "fight", prompt = "p", most = ["two"] }\n'
                 '[[rule.grant]]\nwho = "chosen friend"\neffect = { kind = "to reserves" }\n', encoding="utf-8")
    with pytest.raises(RecordFileError, match=r"choice\.most.*'two'"):
        load_records(p)


def test_conditions_arrived_and_starting_strength():
    arrived = V.When(conditions=((V.ARRIVED, None),))
    assert holds(arrived, Facts(arrived=True)) and not holds(arrived, Facts())
    five = V.When(conditions=((V.STARTING_STRENGTH, 5),))
    assert holds(five, Facts(starting_strength=5)) and not holds(five, Facts(starting_strength=10))


def test_words_of_the_new_kinds():
    assert "strategic reserves" in grant_words(V.Grant(V.Effect(V.TO_RESERVES), V.CHOSEN_FRIEND))
    assert "gain INFILTRATORS" in grant_words(V.Grant(V.Effect(V.UNIT_ABILITY, ability="Infiltrators"), V.ARMY))
    assert "for 3 points" in grant_words(V.Grant(V.Effect(V.RESURGE, value=3), V.ARMY))


def test_removal_problem_20_02():
    assert removal_problem(True, False) is None
    assert "Engagement Range" in removal_problem(True, True)
    assert "not on the battlefield" in removal_problem(False, False)


@pytest.mark.parametrize("arrived, now, owner, expected", [
    # red (0) goes first; turns: (1,0) (1,1) (2,0) (2,1) ...
    ((2, 0), (2, 0, "shooting"), 0, True),   # its own turn: the rest of it
    ((2, 0), (2, 0, "fight"), 0, True),
    ((2, 0), (2, 0, "end"), 0, False),       # its Fight phase is over
    ((2, 0), (2, 1, "shooting"), 0, False),
    ((2, 1), (2, 1, "fight"), 0, True),      # arrived in the opponent's turn (Rapid Ingress)...
    ((2, 1), (3, 0, "fight"), 0, True),      # ...until its own next Fight phase ends
    ((2, 1), (3, 0, "end"), 0, False),
    ((2, 1), (3, 1, "shooting"), 0, False),
    ((2, 0), (1, 1, "fight"), 0, False),     # (before it arrived)
])
def test_arrival_in_force_until_the_end_of_its_next_fight_phase(arrived, now, owner, expected):
    assert arrival_in_force(arrived, *now, owner=owner, first=0) is expected
    assert arrival_in_force(None, *now, owner=owner, first=0) is False


@given(first=st.integers(0, 1), owner=st.integers(0, 1), round_=st.integers(1, 5), active=st.integers(0, 1))
def test_arrival_lasts_through_exactly_one_of_its_armys_fight_phases(first, owner, round_, active):
    """Whatever the turn of arrival, the arrived unit's army has exactly one Fight phase while it
    holds (the first after arriving), and it holds in every turn from arrival up to that one."""
    turns = [(r, p) for r in range(1, 8) for p in (first, 1 - first)]
    start = turns.index((round_, active))
    held = [t for t in turns if arrival_in_force((round_, active), *t, "fight", owner=owner, first=first)]
    assert [t for t in held if t[1] == owner] == [next(t for t in turns[start:] if t[1] == owner)]
    assert held == turns[start:start + len(held)]

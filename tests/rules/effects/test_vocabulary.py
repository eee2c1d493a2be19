"""sim.rules.effects.vocabulary: a record written outside the vocabulary is refused when it is
built, naming what is wrong (the table is built by a test, so a bad record never ships)."""

import pytest

from sim.rules.dice import DiceExpr
from sim.rules.effects import vocabulary as V


def test_effect_refuses_unknown_kind_and_incomplete_effects():
    with pytest.raises(V.VocabularyError, match="unknown effect kind"):
        V.Effect("teleport")
    with pytest.raises(V.VocabularyError, match="modifier needs"):
        V.Effect(V.MODIFY, "hit", 0)
    with pytest.raises(V.VocabularyError, match="modifier needs"):
        V.Effect(V.MODIFY, "luck", 1)
    with pytest.raises(V.VocabularyError, match="re-roll needs"):
        V.Effect(V.REROLL, "hit", which="some")
    with pytest.raises(V.VocabularyError, match="X\\+ from 2 to 6"):
        V.Effect(V.FEEL_NO_PAIN, value=7)
    with pytest.raises(V.VocabularyError, match="mortal wounds need"):
        V.Effect(V.MORTAL_WOUNDS, trigger=V.ON_CHARGE)
    with pytest.raises(V.VocabularyError, match="return needs"):
        V.Effect(V.RETURN, which=V.WOUNDS, dice=DiceExpr(1, 3, 0))
    with pytest.raises(V.VocabularyError, match="target limit"):
        V.Effect(V.TARGET_LIMIT)


def test_effect_accepts_each_kind_written_whole():
    made = [V.Effect(V.MODIFY, "hit", 1), V.Effect(V.REROLL, "wound", which=V.ONES),
            V.Effect(V.FEEL_NO_PAIN, value=5), V.Effect(V.INVULNERABLE, value=4),
            V.Effect(V.WEAPON_ABILITY, ability="LETHAL HITS"),
            V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(1, 3, 0), roll=4, trigger=V.ON_CHARGE),
            V.Effect(V.RETURN, which=V.MODELS, dice=DiceExpr(0, 0, 1), trigger=V.AT_COMMAND),
            V.Effect(V.FIGHTS_FIRST), V.Effect(V.TARGET_LIMIT, value=12), V.Effect(V.STRATAGEM_COST, value=-1),
            V.Effect(V.LEND, ability="Bondsman")]
    made.append(V.Effect(V.ARRIVAL_DISTANCE, value=6))
    made.append(V.Effect(V.FORCED_SHOCK, value=-1, trigger=V.AT_COMMAND))
    made += [V.Effect(V.RITUAL, ability="doombolt", roll=7, value=24)]
    made.append(V.Effect(V.OATH, value=2))
    made += [V.Effect(V.TO_RESERVES), V.Effect(V.UNIT_ABILITY, ability="INFILTRATORS"),
             V.Effect(V.RESURGE, value=2)]
    made += [V.Effect(V.ELIGIBLE, ability=V.SHOOT_AFTER_ADVANCE), V.Effect(V.IGNORE_MODIFIERS, "charge"),
             V.Effect(V.MARK, trigger=V.ON_DESTROYING)]
    made += [V.Effect(V.GAIN_DICE, dice=DiceExpr(0, 0, 1), trigger=V.AT_ROUND_START), V.Effect(V.SUBSTITUTE, "save")]
    assert sorted({e.kind for e in made}) == sorted(V.KINDS)


def test_zones_kinds_triggers_and_conditions_are_checked():
    with pytest.raises(V.VocabularyError, match="arrival distance needs a distance"):
        V.Effect(V.ARRIVAL_DISTANCE)
    V.Effect(V.RETURN, which=V.ONE_MODEL, dice=DiceExpr(1, 3, 0), trigger=V.AT_PASSED_SHOCK)
    with pytest.raises(V.VocabularyError, match="a return needs"):
        V.Effect(V.RETURN, which="limbs", dice=DiceExpr(1, 3, 0), trigger=V.AT_PASSED_SHOCK)
    V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(1, 3, 0), trigger=V.ON_FAILED_SHOCK)
    back = V.Effect(V.RETURN, which=V.MODELS, dice=DiceExpr(0, 0, 1), trigger=V.AT_PASSED_SHOCK)
    with pytest.raises(V.VocabularyError, match="not for enemy units"):
        V.Grant(back, V.ENEMIES)
    V.When(conditions=((V.WHOLLY_IN_DOMAIN, None), (V.PSYCHIC_ATTACK, None), (V.LACKS_KEYWORD, "BATTLELINE")))
    with pytest.raises(V.VocabularyError, match="argument is needed"):
        V.When(conditions=((V.LACKS_KEYWORD, None),))
    with pytest.raises(V.VocabularyError, match="argument is not taken"):
        V.When(conditions=((V.IN_DOMAIN, 6),))


def test_when_checks_its_parts():
    with pytest.raises(V.VocabularyError, match="melee or ranged"):
        V.When(attacks="psychic")
    with pytest.raises(V.VocabularyError, match="own or enemy"):
        V.When(turn="mine")
    with pytest.raises(V.VocabularyError, match="unknown limit"):
        V.When(limit="twice per battle")
    with pytest.raises(V.VocabularyError, match="pair"):
        V.When(conditions=("charged",))
    with pytest.raises(V.VocabularyError, match="argument is needed"):
        V.When(conditions=((V.TARGET_KEYWORD, None),))
    with pytest.raises(V.VocabularyError, match="argument is not taken"):
        V.When(conditions=((V.CHARGED, 3),))


def test_grant_aura_needs_a_range_and_only_an_aura_has_one():
    e = V.Effect(V.MODIFY, "hit", 1)
    with pytest.raises(V.VocabularyError, match="aura"):
        V.Grant(e, V.AURA)
    with pytest.raises(V.VocabularyError, match="aura"):
        V.Grant(e, V.UNIT, range=6)
    assert V.Grant(e, V.AURA, range=6).range == 6


def test_record_needs_summary_grants_or_reason_and_a_choice_when_it_reads_one():
    e = V.Effect(V.MODIFY, "hit", 1)
    with pytest.raises(V.VocabularyError, match="source"):
        V.RuleRecord("k", ("K",), "codex", "x", (V.Grant(e),))
    with pytest.raises(V.VocabularyError, match="summary"):
        V.RuleRecord("k", ("K",), V.DATASHEET, "", (V.Grant(e),))
    with pytest.raises(V.VocabularyError, match="no effect the engine applies"):
        V.RuleRecord("k", ("K",), V.DATASHEET, "x")
    chosen = V.Grant(e, when=V.When(conditions=((V.TARGET_CHOSEN, None),)))
    with pytest.raises(V.VocabularyError, match="asks none"):
        V.RuleRecord("k", ("K",), V.ARMY_RULE, "x", (chosen,))
    r = V.RuleRecord("k", ("K", "Kay"), V.ARMY_RULE, "x", (chosen,),
                     choice=V.RuleChoice(V.PICK_ENEMY, "command", "pick"))
    assert r.name == "K"


def test_a_limit_on_uses_only_where_the_battle_counts_them():
    once = V.When(limit=V.ONCE_PER_BATTLE)
    for e in (V.Effect(V.STRATAGEM_COST, value=-1), V.Effect(V.REROLL, "charge", which=V.ANY),
              V.Effect(V.MODIFY, "advance", 2), V.Effect(V.RETURN, which=V.MODELS, dice=DiceExpr(0, 0, 1),
                                                         trigger=V.AT_COMMAND)):
        assert V.Grant(e, when=once).when.limit == V.ONCE_PER_BATTLE
    for e in (V.Effect(V.MODIFY, "hit", 1), V.Effect(V.REROLL, "wound", which=V.FAILED),
              V.Effect(V.FEEL_NO_PAIN, value=5), V.Effect(V.WEAPON_ABILITY, ability="LANCE")):
        with pytest.raises(V.VocabularyError, match="limit on uses"):
            V.Grant(e, when=once)


def test_a_choice_of_options_lists_two_or_more_and_its_grants_read_only_those():
    with pytest.raises(V.VocabularyError, match="lists its options"):
        V.RuleChoice(V.PICK_OPTION, "fight", "stance?")
    with pytest.raises(V.VocabularyError, match="lists its options"):
        V.RuleChoice(V.CALL, "fight", "call?", options=("A", "B"))
    with pytest.raises(V.VocabularyError, match="two or more distinct"):
        V.RuleChoice(V.PICK_OPTION, "fight", "stance?", options=("A", "A"))
    with pytest.raises(V.VocabularyError, match="two or more distinct"):
        V.RuleChoice(V.PICK_OPTION, "fight", "stance?", options=("A",))
    choice = V.RuleChoice(V.PICK_OPTION, "fight", "stance?", options=("Blade", "Shield"))
    blade = V.Grant(V.Effect(V.MODIFY, "hit", 1), when=V.When(conditions=((V.OPTION, "Blade"),)))
    spear = V.Grant(V.Effect(V.MODIFY, "hit", 1), when=V.When(conditions=((V.OPTION, "Spear"),)))
    with pytest.raises(V.VocabularyError, match="asks none"):
        V.RuleRecord("k", ("K",), V.ARMY_RULE, "x", (blade,))
    with pytest.raises(V.VocabularyError, match="does not offer"):
        V.RuleRecord("k", ("K",), V.ARMY_RULE, "x", (spear,), choice=choice)
    with pytest.raises(V.VocabularyError, match="an argument is needed"):
        V.When(conditions=((V.OPTION, None),))
    assert V.RuleRecord("k", ("K",), V.ARMY_RULE, "x", (blade,), choice=choice).choice.options == ("Blade", "Shield")


def test_eligible_ignore_modifiers_and_mark_check_their_fields_and_a_mark_is_read():
    with pytest.raises(V.VocabularyError, match="eligibility"):
        V.Effect(V.ELIGIBLE, ability="fight after advance")
    with pytest.raises(V.VocabularyError, match="ignoring modifiers"):
        V.Effect(V.IGNORE_MODIFIERS, "hit")
    with pytest.raises(V.VocabularyError, match="a mark needs a trigger"):
        V.Effect(V.MARK)
    mark = V.Grant(V.Effect(V.MARK, trigger=V.ON_DESTROYING), V.ARMY)
    read = V.Grant(V.Effect(V.REROLL, "wound", which=V.ANY), V.ARMY, V.When(conditions=((V.MARKED, None),)))
    V.RuleRecord("k", ("K",), V.ARMY_RULE, "s", (mark, read))
    for grants in ((mark,), (read,)):
        with pytest.raises(V.VocabularyError, match="mark"):
            V.RuleRecord("k", ("K",), V.ARMY_RULE, "s", grants)


def test_a_dice_options_choice_keeps_the_common_checks_and_a_friends_choice_is_asked_where_it_can_be():
    dice = dict(kind=V.DICE_OPTIONS, moment=V.AT_ROUND_START, prompt="p", dice=8, picks=2,
                options=("A", "B"), needs=("double 5+", "triple 2+"))
    assert V.RuleChoice(**dice).picks == 2
    for bad in ({"uses": -5}, {"lasts": "bogus"}, {"turn": "nobody"}, {"rounds": (9,)}):
        with pytest.raises(V.VocabularyError):
            V.RuleChoice(**dice, **bad)
    with pytest.raises(V.VocabularyError, match="end of its phase"):
        V.RuleChoice(V.PICK_FRIENDS, "fight", "p", most=(2,), turn=V.ENEMY_TURN)
    assert V.RuleChoice(V.PICK_FRIENDS, "fight", "p", most=(2,), turn=V.ENEMY_TURN, at=V.AT_END).most == (2,)

"""The vocabulary's later elements, each written in a records file and read back
(sim.rules.effects.data): the target-side modifiers ("hit taken", "wound taken", "AP taken"),
the PICK_FRIEND choice with its CHOSEN_FRIEND grants, and the conditions "below starting
strength", "target lacks keyword", "led", "target not below half" and "target on
objective"; each condition judged by
sim.rules.effects.conditions and said in words."""

import pytest

from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, condition_holds, condition_words
from sim.rules.effects.data import RecordFileError, load_records
from sim.rules.effects.words import grant_words
from sim.scenario.rule_records import to_toml

HEAD = '[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "datasheet"\nsummary = "s"\n'


def _load(tmp_path, text):
    p = tmp_path / "r.toml"
    p.write_text(text, encoding="utf-8")
    return load_records(p)


@pytest.mark.parametrize("stat, words", [("hit taken", "-1 to hit rolls of attacks that target it"),
                                         ("wound taken", "-1 to wound rolls of attacks that target it"),
                                         ("AP taken", "-1 to AP of attacks that target it")])
def test_taken_stats_read_from_a_file(tmp_path, stat, words):
    (r,) = _load(tmp_path, HEAD + f'[[rule.grant]]\neffect = {{ kind = "modify", stat = "{stat}", value = -1 }}\n'
                 'when = { attacks = "melee" }\n')
    g = r.grants[0]
    assert g.what == V.Effect(V.MODIFY, stat, -1) and g.when.attacks == "melee"
    assert grant_words(g).startswith(words) and "against melee attacks" in grant_words(g)


def test_pick_friend_and_chosen_friend_read_and_written_back(tmp_path):
    text = (HEAD + 'choice = { kind = "friendly unit", moment = "command", prompt = "which unit?", '
            'lasts = "until your next Command phase" }\n[[rule.grant]]\nwho = "chosen friend"\n'
            'effect = { kind = "modify", stat = "hit", value = 1 }\nrange = 12.0\nkeywords = ["ARMIGER"]\n')
    (r,) = _load(tmp_path, text)
    assert r.choice.kind == V.PICK_FRIEND and r.choice.lasts == V.UNTIL_YOUR_NEXT_COMMAND
    g = r.grants[0]
    assert (g.who, g.range, g.keywords) == (V.CHOSEN_FRIEND, 12.0, ("ARMIGER",))
    assert "for the friendly unit picked (within 12\" of this model) (ARMIGER only)" in grant_words(g)
    assert _load(tmp_path, to_toml((r,))) == (r,)


def test_lend_read_from_a_file_and_its_tagged_rules_need_no_choice(tmp_path):
    text = (HEAD + 'choice = { kind = "friendly unit", moment = "command", prompt = "p" }\n[[rule.grant]]\n'
            'who = "chosen friend"\neffect = { kind = "lend", ability = "Bondsman" }\nrange = 12.0\n'
            '[[rule]]\nkey = "d"\nnames = ["Duty (Bondsman)"]\nsource = "datasheet"\nsummary = "s"\n'
            '[[rule.grant]]\nwho = "chosen friend"\neffect = { kind = "modify", stat = "hit", value = 1 }\n')
    lend, duty = _load(tmp_path, text)
    assert lend.grants[0].what == V.Effect(V.LEND, ability="Bondsman") and duty.choice is None
    assert "is lent this model's (Bondsman) abilities" in grant_words(lend.grants[0])
    with pytest.raises(V.VocabularyError, match="tag"):
        V.Effect(V.LEND)
    with pytest.raises(V.VocabularyError, match="chosen friendly unit only"):
        V.RuleRecord("k", ("K",), V.DATASHEET, "s", (V.Grant(V.Effect(V.LEND, ability="B")),))


def test_a_chosen_friend_grant_needs_a_pick_friend_choice_and_back(tmp_path):
    grant = '[[rule.grant]]\nwho = "chosen friend"\neffect = { kind = "modify", stat = "hit", value = 1 }\n'
    with pytest.raises(RecordFileError, match="asks no friendly unit"):
        _load(tmp_path, HEAD + grant)
    with pytest.raises(RecordFileError, match="asks no friendly unit"):
        _load(tmp_path, HEAD + 'choice = { kind = "enemy unit", moment = "command", prompt = "p" }\n' + grant)
    with pytest.raises(RecordFileError, match="no grant reaches it"):
        _load(tmp_path, HEAD + 'choice = { kind = "friendly unit", moment = "command", prompt = "p" }\n'
              '[[rule.grant]]\neffect = { kind = "modify", stat = "hit", value = 1 }\n')
    with pytest.raises(V.VocabularyError, match="cannot be negative"):
        V.Grant(V.Effect(V.MODIFY, "hit", 1), V.CHOSEN_FRIEND, range=-1.0)


@pytest.mark.parametrize("cond, facts_true, facts_false, words", [
    (["below starting strength"], Facts(below_starting=True), Facts(), "it is below its Starting Strength"),
    (["led"], Facts(led=True), Facts(), "a leader is attached to it"),
    (["target lacks keyword", "monster"], Facts(has_target=True, target_keywords=frozenset({"INFANTRY"})),
     Facts(has_target=True, target_keywords=frozenset({"MONSTER"})), "the other unit is not MONSTER"),
    (["target not below half"], Facts(has_target=True), Facts(has_target=True, target_below_half=True),
     "the other unit is not below half-strength"),
    (["target on objective"], Facts(target_on_objective=True), Facts(),
     "the other unit is within range of an objective marker"),
])
def test_new_conditions_read_judged_and_said(tmp_path, cond, facts_true, facts_false, words):
    arg = f', "{cond[1]}"' if len(cond) == 2 else ""
    (r,) = _load(tmp_path, HEAD + '[[rule.grant]]\neffect = { kind = "modify", stat = "hit", value = 1 }\n'
                 f'when = {{ conditions = [["{cond[0]}"{arg}]] }}\n')
    (name, a), = r.grants[0].when.conditions
    assert condition_holds(name, a, facts_true) and not condition_holds(name, a, facts_false)
    assert condition_words(name, a) == words


def test_target_lacks_keyword_needs_another_unit():
    """Outside an attack (no target) "not MONSTER" does not hold: there is no unit to lack it."""
    assert not condition_holds(V.NOT_TARGET_KEYWORD, "MONSTER", Facts())
    assert not condition_holds(V.TARGET_NOT_BELOW_HALF, None, Facts())
    with pytest.raises(V.VocabularyError, match="argument"):
        V.When(conditions=((V.NOT_TARGET_KEYWORD, None),))

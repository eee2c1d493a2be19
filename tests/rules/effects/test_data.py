"""sim.rules.effects.data: rule records as TOML files, read and written back unchanged, and a file
not written so refused with the place, what was expected and what was found."""

import pytest

from sim.rules.effects import table
from sim.scenario.rule_records import to_toml
from sim.rules.effects.data import RecordFileError, load_records


def test_to_toml_then_load_records_gives_every_record_back(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text(to_toml(table.records()), encoding="utf-8")
    assert load_records(p) == table.records()


@pytest.mark.parametrize("text, where, found", [
    ('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\n', "rule[0]", "'summary'"),
    ('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\ncolour = 1\n', "rule[0]", "'colour'"),
    ('[[rule]]\nkey = "k"\nnames = "K"\nsource = "army rule"\nsummary = "s"\npartial = "p"\n', "names", "'K'"),
    ('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\n[[rule.grant]]\n'
     'effect = { kind = "return", which = "wounds", dice = "D7x", trigger = "end of phase" }\n', "dice", "D7x"),
    ('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\n[[rule.grant]]\n'
     'effect = { kind = "modify", stat = "luck", value = 1 }\n', "rule[0]", "modifier needs"),
    ('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\n[[rule.grant]]\n'
     'effect = { kind = "modify", stat = "hit", value = 1 }\nwhen = { conditions = ["charged"] }\n',
     "conditions[0]", "'charged'"),
    ("[[rule]\n", "r.toml", "expected a TOML file"),
    ('colour = 1\n', "r.toml", "'colour'"),
])
def test_load_records_refuses_a_bad_file_saying_where(tmp_path, text, where, found):
    p = tmp_path / "r.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RecordFileError) as e:
        load_records(p)
    assert where in str(e.value) and found in str(e.value)


@pytest.mark.parametrize("grant, found", [
    ('effect = { kind = "modify", stat = "hit", value = 1 }\nwho = "aura"\nrange = "six"\n', "'six'"),
    ('effect = { kind = "modify", stat = "hit", value = 1 }\nwhen = { phases = ["shootin"] }\n', "shootin"),
    ('effect = { kind = "return", which = "wounds", dice = "D3", trigger = "end of phase" }\nwho = "enemy aura"\n'
     'range = 6\n', "enemy aura"),
])
def test_load_records_refuses_a_grant_that_could_never_act(tmp_path, grant, found):
    p = tmp_path / "r.toml"
    p.write_text('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\n[[rule.grant]]\n' + grant,
                 encoding="utf-8")
    with pytest.raises(RecordFileError) as e:
        load_records(p)
    assert found in str(e.value)


@pytest.mark.parametrize("choice, found", [
    ('{ kind = "call", moment = "comand", prompt = "p" }', "comand"),
    ('{ kind = "call", moment = "command", prompt = "p", uses = -3 }', "-3"),
    ('{ kind = "option", moment = "fight", prompt = "p", options = "A, B" }', "choice.options"),
    ('{ kind = "option", moment = "fight", prompt = "p", options = ["A"] }', "two or more"),
])
def test_load_records_refuses_a_choice_never_asked(tmp_path, choice, found):
    p = tmp_path / "r.toml"
    p.write_text('[[rule]]\nkey = "k"\nnames = ["K"]\nsource = "army rule"\nsummary = "s"\nchoice = ' + choice +
                 '\n[[rule.grant]]\neffect = { kind = "modify", stat = "hit", value = 1 }\n', encoding="utf-8")
    with pytest.raises(RecordFileError) as e:
        load_records(p)
    assert found in str(e.value)

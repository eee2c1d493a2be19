"""sim.rules.effects.data: rule records as TOML files, read and written back unchanged, and a file
not written so refused with the place, what was expected and what was found."""

import pytest

from sim.rules.effects import data, table
from sim.rules.effects.data import RecordFileError, load_records


def test_to_toml_then_load_records_gives_every_record_back(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text(data.to_toml(table.records()), encoding="utf-8")
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

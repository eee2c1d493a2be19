"""sim.rules.effects.table: records looked up by key, by community id, by printed name (any
case, unicode punctuation folded), and by faction when a name is shared."""

from sim.rules.effects import table


def test_lookup_by_id_first_then_name():
    oath = table.by_key("oath-of-moment")
    assert oath is not None
    assert table.lookup(ids=("no-such-id", "3b76-4053-ece9-6e7d")) is oath
    assert table.lookup(ids=("no-such-id",), name="oath of moment") is oath
    assert table.lookup(name="WAAAGH!").key == "waaagh"
    assert table.lookup(name="Waaagh\u2019s Cousin") is None
    assert table.lookup() is None


def test_resolve_takes_a_key_or_a_name():
    assert table.resolve("reanimation-protocols").key == "reanimation-protocols"
    assert table.resolve("Reanimation Protocols").key == "reanimation-protocols"
    assert table.resolve("Nothing Like It") is None


def test_every_record_is_found_by_its_key_names_and_ids():
    for r in table.records():
        assert table.by_key(r.key) is r
        for n in r.names:
            assert table.lookup(name=n, faction=r.faction) is r
        for i in r.ids:
            assert table.lookup(ids=(i,)) is r

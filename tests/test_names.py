"""sim.names: the name a person reads for a unit (issue 28 item 1): the datasheet name,
numbered from 1 in the scenario's order when several units share it; models numbered within
their unit; ids in a line of text read as names, never part of a longer id or a model id."""

from __future__ import annotations

from types import SimpleNamespace as NS

from sim import names as N


def _units():
    m = lambda i, n: NS(id=i, name=n)  # noqa: E731
    return [NS(id="r-mob1", name="Raider Mob", models=[m("r-mob1/1", "Raider"), m("r-mob1/2", "Raider"),
                                                        m("r-boss", "Boss")]),
            NS(id="w-squad", name="Warden Squad", models=[m("w-squad/1", "Warden")]),
            NS(id="r-mob10", name="Raider Mob", models=[m("r-mob10/1", "Raider")])]


def test_units_sharing_a_name_are_numbered_in_the_scenarios_order():
    assert N.unit_names(_units()) == {"r-mob1": "Raider Mob (1)", "w-squad": "Warden Squad",
                                      "r-mob10": "Raider Mob (2)"}


def test_models_sharing_a_name_are_numbered_within_their_unit():
    got = N.model_names(_units())
    assert got["r-mob1/1"] == "Raider 1" and got["r-mob1/2"] == "Raider 2" and got["r-boss"] == "Boss"
    assert got["r-mob10/1"] == "Raider" and got["w-squad/1"] == "Warden"


def test_ids_in_text_read_as_names_whole_ids_only():
    names = N.unit_names(_units())
    line = "r-mob1 -> w-squad; r-mob10 shoots; r-mob1/2 and r-mob12 untouched"
    assert N.in_words(line, names) == ("Raider Mob (1) -> Warden Squad; Raider Mob (2) shoots; "
                                       "r-mob1/2 and r-mob12 untouched")
    assert N.ids_in(line, names) == ["r-mob1", "w-squad", "r-mob10"]


def test_ids_named_reads_an_event_s_values_nested_and_leaves_its_type_out():
    from sim.names import ids_named
    known = {"r-squad1", "r-squad1/2", "b-mob"}.__contains__
    event = {"type": "r-squad1", "unit": "b-mob", "hits": [{"model": "r-squad1/2"}, "b-mob", "x"],
             "about": ("r-squad1",)}
    assert ids_named(event, known) == ["b-mob", "r-squad1/2", "r-squad1"]
    assert ids_named({"type": "phase"}, known) == []


def test_a_possessive_follows_the_name_it_is_read_as():
    """Engine text says "blue's" and "r-mob1's"; a person reads the name's own possessive."""
    words = {"red": "Iron Host", "blue": "Raiders", **N.unit_names(_units())}
    assert N.in_words("it is red's turn; the unit is blue's", words) == "it is Iron Host's turn; the unit is Raiders'"
    assert N.in_words("w-squad's move; r-mob1's charge", words) == "Warden Squad's move; Raider Mob (1)'s charge"
    assert N.in_words("reddish red blue-ish", words) == "reddish Iron Host blue-ish"  # (whole words only)
    assert N.possessive("Raiders") == "Raiders'" and N.possessive("Iron Host") == "Iron Host's"


def test_the_sides_of_a_battle_are_read_by_their_armies_names():
    battle = NS(scenario=NS(armies=[NS(name="Wardens"), NS(name="Raiders")]))
    assert N.sides_of_battle(battle) == {"red": "Wardens", "blue": "Raiders"}


def test_a_model_another_unit_has_too_reads_with_its_units_name():
    """'Raider 1' is in each Raider Mob: where a line does not say the unit (a removed model
    named after its attacker), the model reads with its unit's shown name; a model no other
    unit has (the Boss, the lone Warden) stays as it is."""
    got = N.models_with_units(_units())
    assert got["r-mob1/1"] == "Raider 1 of Raider Mob (1)" and got["r-mob10/1"] == "Raider of Raider Mob (2)"
    assert got["r-boss"] == "Boss" and got["w-squad/1"] == "Warden"
    assert N.model_of_unit("Raider 2", "Raider Mob (1)") == "Raider 2 of Raider Mob (1)"


def test_removed_models_read_grouped_by_unit():
    """An attack's casualties ("removed: id, id, ..."): a unit's several models counted, its one
    model named with the unit, in order of first mention; without the models table (a log's
    machine text) and for "none" the line is as it was."""
    units = _units()
    words = {**N.model_names(units), **N.unit_names(units)}
    models = N.models_in_units(units)
    line = "w-squad has resolved its attacks; removed: r-mob1/1, r-boss, w-squad/1, r-mob1/2"
    assert N.in_words(line, words, models) == ("Warden Squad has resolved its attacks; removed: 3 of Raider Mob (1), "
                                               "Warden of Warden Squad")
    assert N.in_words("r-mob10 ...; removed: r-mob10/1", words, models) == "Raider Mob (2) ...; removed: Raider of Raider Mob (2)"
    assert N.in_words(line, words) == "Warden Squad has resolved its attacks; removed: Raider 1, Boss, Warden, Raider 2"
    assert N.in_words("r-mob1 ...; removed: none", words, models) == "Raider Mob (1) ...; removed: none"
    assert N.models_by_unit(["w-squad/1"], models, {}) == "Warden of w-squad"  # (a unit without a name: its id)

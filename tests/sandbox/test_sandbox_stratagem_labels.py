"""A stratagem's option buttons say what they are (issue 28 leftovers): an option that is a unit
(Counteroffensive's, Heroic Intervention's) reads "Counteroffensive: Warden Squad (3), 2 CP",
not "Warden Squad (3) (2 CP)" (a number beside a number); the other forms keep their words."""

from __future__ import annotations

from types import SimpleNamespace as NS

from test_play_vs_computer import TABLE

from sim.sandbox.decision_panel import option_label


def _req(stratagem, options, **ctx):
    return NS(kind="stratagem", context={"stratagem": stratagem, **ctx}, options=options, player=0)


def test_a_units_option_names_the_stratagem_and_its_cost(make):
    sb = make(TABLE).sb
    req = _req("Counteroffensive", ["w-squad3", "decline"])
    assert option_label(sb, req, "w-squad3") == ("Counteroffensive: Warden Squad (3), 2 CP", 2)
    assert option_label(sb, req, "decline") == ("Decline", None)
    use = option_label(sb, _req("Counteroffensive", ["use", "decline"], target="w-squad1"), "use")
    assert use == ("Use Counteroffensive (2 CP) on Warden Squad (1)", 2)

"""A stratagem is its user's decision (README, Decisions): a script step of one side answers its
own side's stratagems only, so a red fight step's "use" (for its Epic Challenge, 15.03) never
spends blue's CP on a Counteroffensive (15.12) offered in the same step; an end_phase step
answers the stratagems the phase's end raises, whoever's they are (Rapid Ingress, 15.07: see
tests/stratagems/test_15_07_rapid_ingress.py). "use" for a stratagem that names what it picks
stands for the first option offered, with a note."""

from __future__ import annotations

from sim.battle import Battle
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice
from sim.players.runner import play
from sim.scenario.load import parse_scenario


def _unit(uid, at, keywords=("INFANTRY",)):
    return {"id": uid, "name": uid, "keywords": list(keywords),
            "models": [{"count": 1, "at": [list(at)], "M": 6, "T": 4, "Sv": 3, "W": 3, "Ld": 6, "OC": 1,
                        "base_mm": 32, "weapons": ["blade"]}]}


def _spec():
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]},
            "weapons": {"blade": {"range": "melee", "A": 1, "WS": 4, "S": 4, "AP": 0, "D": 1}},
            "armies": [{"name": "A", "units": [_unit("rc", (20, 10), ("INFANTRY", "CHARACTER"))]},
                       {"name": "B", "units": [_unit("b1", (20, 11.5)), _unit("b2", (30, 10)),
                                               _unit("b3", (40, 10))]}],
            "mission": {"first": "red", "deployed": False, "rounds": 2},
            "script": [{"round": 2, "fight": "rc", "targets": {"blade": "b1"}, "decisions": {"stratagem": "use"}}]}
    return parse_scenario(data, "test.toml")


def test_a_step_answers_only_its_own_sides_stratagems():
    # in red's Fight phase of round 2 each side has 3 CP: Epic Challenge (1) and Counteroffensive (2)
    with Battle(_spec(), dice=ForcedDice([1] * 200)) as b:
        play(b, _spec())
        used = [(e["player"], e["stratagem"]) for e in b.events if e["type"] == "stratagem"]
        assert used == [("red", "Epic Challenge")]
        offers = {e["key"].split(":")[0]: e for e in b.events
                  if e["type"] == "decision" and e["kind"] == "stratagem"}
        assert offers["Epic Challenge"]["answer"] == "rc/1" and offers["Epic Challenge"]["scripted"] == "use"
        assert offers["Counteroffensive"]["answer"] == "decline" and "scripted" not in offers["Counteroffensive"]


def test_an_end_phase_step_answers_either_side():
    from sim.decisions import DecisionRequest, Scripted
    req = DecisionRequest("stratagem", "Rapid Ingress: x", 1, ["bres", "decline"], "decline")
    assert answer_from({"stratagem": "bres"}, None)(req) == Scripted("bres")
    assert answer_from({"stratagem": "bres"}, 0)(req) == "decline"
    assert answer_from({"stratagem": "bres"}, 1)(req) == Scripted("bres")

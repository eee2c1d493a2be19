"""15.03 Epic Challenge (1 CP, your Fight phase, just after a CHARACTER unit is selected to
fight): one CHARACTER model of it has its melee weapons gain [PRECISION] until the end of the
phase. Offered as a decision naming the model (default: decline, Part A ruling 25), within the
15.01 limits; the gain goes through the ability registry and the 24.28 precision allocation."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type, wounds
from sim.battle import Battle
from sim.commands import EndPhase, Fight, Overrun, Selection, StartBattle
from sim.rules.dice import ForcedDice
from sim.world import queries as W
from sim.commands import overrun_command

HITS_THEN_FAILED_SAVES = [6, 6, 6, 6, 1, 1]  # rc/1's pool: 2 hits, 2 wounds, 2 failed saves (Sv3)


def _spec(red_keywords=("CHARACTER",), extra_red=()):
    # two CHARACTER models in red's unit; blue's unit: a bodyguard (W1) and a CHARACTER (W2)
    red = [unit("rc", model((20, 10), ["blade"], keywords=red_keywords),
                model((21.5, 10), ["blade"], keywords=red_keywords)), *extra_red]
    blue = [unit("bc", model((20, 11.5), ["blade"], ids=["guard"]),
                 model((21.5, 11.5), ["blade"], W=2, keywords=("CHARACTER",), ids=["hero"]))]
    return mission_scenario(red, blue)


def _to_fight_step(b, cp=(1, 0)):
    b.run_command(StartBattle())
    b.turn_state.cp = list(cp)
    while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
        b.run_command(EndPhase())


def _fight_rc(b, answer):
    def red(req):
        if req.kind == "stratagem" and req.context.get("stratagem") == "Epic Challenge":
            return answer
        return req.default
    b.run_command(Fight("rc", (Selection("rc/1", "blade", "bc"), Selection("rc/2", "blade", "bc"))), red)


def _epic(b) -> list[dict]:
    """The Epic Challenge decisions (a fight's failed rolls may also be offered a Command Re-roll,
    15.02: not these tests' concern)."""
    return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"].startswith("Epic Challenge")]


def _pools(b):
    return {tuple(e["attackers"]): e["abilities"] for e in of_type(b, "pool") if "attackers" in e}


def test_15_03_one_character_models_melee_weapons_gain_precision():
    with Battle(_spec(), dice=ForcedDice(HITS_THEN_FAILED_SAVES + [1] * 30)) as b:
        _to_fight_step(b)
        _fight_rc(b, "rc/1")
        (used,) = of_type(b, "stratagem")
        assert used["stratagem"] == "Epic Challenge" and used["target"] == "rc" and used["cp"] == 1
        assert b.turn_state.cp[0] == 0 and b.turn_state.melee_gains == {"rc/1": ("may be allocated to a visible CHARACTER (05.03)",)}
        (req,) = [e for e in of_type(b, "decision") if e["kind"] == "stratagem"]
        assert req["answer"] == "rc/1"
        pools = _pools(b)
        assert pools[("rc/1",)] == ["PRECISION"] and pools[("rc/2",)] == []  # only that model's weapons
        (prec,) = of_type(b, "precision")
        assert prec["chosen"] == "hero"
        # the CHARACTER took both wounds (destroyed), the bodyguard none
        assert wounds(b, "hero") == 0 and wounds(b, "guard") == 1


def test_15_03_declined_by_default_the_bodyguard_is_hit_first():
    # one pool of 4 dice (the same weapon, no gain): hits 6 6 1 1, wounds 6 6, saves 1 1
    with Battle(_spec(), dice=ForcedDice([6, 6, 1, 1, 6, 6, 1, 1] + [1] * 30)) as b:
        _to_fight_step(b)
        b.run_command(Fight("rc", (Selection("rc/1", "blade", "bc"), Selection("rc/2", "blade", "bc"))))
        (req,) = _epic(b)
        assert req["answer"] == "decline" and of_type(b, "stratagem") == []
        assert of_type(b, "precision") == [] and b.turn_state.cp[0] == 1
        assert wounds(b, "guard") == 0 and wounds(b, "hero") == 1


def test_15_03_only_until_the_end_of_the_phase():
    with Battle(_spec(), dice=ForcedDice([1] * 200)) as b:
        _to_fight_step(b)
        _fight_rc(b, "rc/2")
        assert b.turn_state.melee_gains == {"rc/2": ("may be allocated to a visible CHARACTER (05.03)",)}
        b.run_command(Fight("bc", (Selection("guard", "blade", "rc"), Selection("hero", "blade", "rc"))))
        # on to blue's Fight phase: rc fights again (still engaged), without the gain
        start = len(b.events)
        while not (b.turn_state.active == 1 and str(b.turn_state.phase) == "fight"
                   and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())
        assert b.turn_state.melee_gains == {}
        b.run_command(Fight("bc", (Selection("guard", "blade", "rc"), Selection("hero", "blade", "rc"))))
        b.run_command(Fight("rc", (Selection("rc/1", "blade", "bc"), Selection("rc/2", "blade", "bc"))),
                      lambda req: "rc/2" if req.kind == "stratagem" and "rc/2" in req.options else req.default)
        later = [e for e in b.events[start:] if e["type"] == "pool" and "rc/2" in e.get("attackers", [])]
        assert later and all(p["abilities"] == [] for p in later)
        # (and it is not offered in the opponent's Fight phase)
        assert len(of_type(b, "stratagem")) == 1


def test_15_03_not_offered_without_the_cp_or_to_a_unit_without_a_character():
    with Battle(_spec(), dice=ForcedDice([1] * 30)) as b:
        _to_fight_step(b, cp=(0, 0))
        _fight_rc(b, "rc/1")
        assert [e for e in of_type(b, "decision") if e["kind"] == "stratagem"] == []
    with Battle(_spec(red_keywords=("INFANTRY",)), dice=ForcedDice([1] * 30)) as b:
        _to_fight_step(b)
        _fight_rc(b, "rc/1")
        assert _epic(b) == []


def test_15_01_epic_challenge_not_on_a_battle_shocked_unit_and_once_per_phase():
    second = unit("rd", model((30, 10), ["blade"], keywords=("CHARACTER",)))
    blue_far = unit("bd", model((30, 11.5), ["blade"]))
    red = [unit("rc", model((20, 10), ["blade"], keywords=("CHARACTER",))), second]
    blue = [unit("bc", model((20, 11.5), ["blade"])), blue_far]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1] * 60)) as b:
        _to_fight_step(b, cp=(3, 0))
        b._enter()
        W.unit_state(b.units["rc"]).battle_shocked = True
        b.run_command(Fight("rc", (Selection("rc/1", "blade", "bc"),)), lambda r: r.options[0])
        assert [e for e in of_type(b, "decision") if e["kind"] == "stratagem"] == []
        W.unit_state(b.units["rc"]).battle_shocked = False
        b.run_command(Fight("bc", (Selection("bc/1", "blade", "rc"),)))
        b.run_command(Fight("rd", (Selection("rd/1", "blade", "bd"),)), lambda r: r.options[0])
        assert [e["target"] for e in of_type(b, "stratagem")] == ["rd"]
        # a third CHARACTER unit would not be offered it again this phase (15.01)
        from sim.rules import stratagems as SG
        from sim.stratagems import by_name
        assert "Epic Challenge" in b.turn_state.stratagems_used[0]
        assert SG.refusal(by_name("Epic Challenge"), cp=2, phase="fight", window=SG.SELECTED_TO_FIGHT,
                          whose_turn=SG.YOURS, used_this_phase=b.turn_state.stratagems_used[0]) is not None


def test_15_03_offered_at_the_selection_of_an_overrun_fight():
    from scen import kill
    red = [unit("rc", model((20, 10), ["blade"], keywords=("CHARACTER",)))]
    blue = [unit("b1", model((20, 11.5), ["blade"])),
            unit("b2", model((20, 14.5), ["blade"], W=2, keywords=("CHARACTER",)))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([6, 6, 6, 6, 1, 1] + [1] * 20)) as b:
        _to_fight_step(b)
        kill(b, "b1/1")
        from sim.plan import moves as MV
        cmd = overrun_command(b, "rc", None)
        b.run_command(cmd, lambda r: "rc/1" if r.kind == "stratagem" else r.default)
        assert [e["stratagem"] for e in of_type(b, "stratagem")] == ["Epic Challenge"]
        b.run_command(Fight("rc", (Selection("rc/1", "blade", "b2"),)))
        assert [e["kind"] for e in of_type(b, "decision")].count("stratagem") == 1  # (not asked twice)
        (pool,) = [e for e in of_type(b, "pool") if e.get("target") == "b2"]
        assert pool["abilities"] == ["PRECISION"]
        assert isinstance(cmd, Overrun)


@pytest.mark.parametrize("answer", ["use", "rc/2"])
def test_15_03_a_script_answers_with_the_model_or_use(answer):
    from sim.players.resolve import run_step
    from sim.scenario.load import parse_scenario
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]},
            "weapons": {"blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}},
            "armies": [{"name": "A", "units": [unit("rc", model((20, 10), ["blade"], keywords=("CHARACTER",)),
                                                     model((21.5, 10), ["blade"], keywords=("CHARACTER",)))]},
                       {"name": "B", "units": [unit("bc", model((20, 11.5), ["blade"]))]}],
            "mission": {"first": "red", "deployed": False},
            "script": [{"fight": "rc", "targets": {"blade": "bc"}, "decisions": {"stratagem": answer}}]}
    spec = parse_scenario(data, "test.toml")
    with Battle(spec, dice=ForcedDice([1] * 30)) as b:
        _to_fight_step(b)
        run_step(b, spec, spec.script[0])
        (used,) = of_type(b, "stratagem")
        assert used["about"].startswith("rc/1" if answer == "use" else "rc/2")


def test_15_01_epic_challenge_once_per_phase_in_a_battle():
    red = [unit("rc", model((20, 10), ["blade"], keywords=("CHARACTER",))),
           unit("rd", model((30, 10), ["blade"], keywords=("CHARACTER",)))]
    blue = [unit("bc", model((20, 11.5), ["blade"])), unit("bd", model((30, 11.5), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1] * 60)) as b:
        _to_fight_step(b, cp=(3, 0))
        use_first = (lambda r: r.options[0] if r.context.get("stratagem") == "Epic Challenge" else r.default)
        b.run_command(Fight("rc", (Selection("rc/1", "blade", "bc"),)), use_first)
        b.run_command(Fight("bc", (Selection("bc/1", "blade", "rc"),)))
        b.run_command(Fight("rd", (Selection("rd/1", "blade", "bd"),)), use_first)
        assert [e["target"] for e in of_type(b, "stratagem")] == ["rc"] and b.turn_state.cp[0] == 2
        assert [e["key"] for e in _epic(b)] == ["Epic Challenge: rc"]

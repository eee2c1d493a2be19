"""15.06 Crushing Impact (1 CP, your Charge phase, just after a MONSTER or VEHICLE unit ends a
charge move): pick an enemy unit engaged with it and one of its models engaged with that unit;
one D6 per point of that model's T: each 5+ a mortal wound on the enemy unit, each 1 one on
your unit, at most 6 on each (the NEWER-COPY wording: README ruling). Offered as a decision
("model -> unit"; default decline, Part A ruling 25), within the 15.01 limits."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import of_type, row, wounds
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, StartBattle
from sim.plan import moves as MV
from sim.rules import stratagems as SG
from sim.stratagems import by_name
from sim.rules.dice import ForcedDice
from sim.world import queries as W
from sim.commands import charge_command

CHARGE_8 = [4, 4]


def _spec(T=6, W_=10, keywords=("VEHICLE",), blue_models=5):
    red = [unit("rv", model((20, 10), ["blade"], T=T, W=W_), keywords=keywords)]
    blue = [unit("b1", model(row(17, 16, blue_models), ["blade"]))]
    return mission_scenario(red, blue)


def _charge(b, answer, cp=(1, 0)):
    b.run_command(StartBattle())
    b.turn_state.cp = list(cp)
    while str(b.turn_state.phase) != "charge":
        b.run_command(EndPhase())
    b.run_command(DeclareCharge("rv"))

    def red(req):
        if req.kind == "stratagem" and req.context.get("stratagem") == "Crushing Impact":
            return answer(req)
        return req.default
    cmd = charge_command(b, "rv", None, None)
    assert cmd.targets == ("b1",)
    b.run_command(cmd, red)


def _alive(b, uid):
    b._enter()
    return len(W.unit_models(b.units[uid]))


def test_15_06_fives_wound_the_enemy_and_ones_your_own_unit():
    # T6: six dice 5 6 1 2 3 5: 3 mortal wounds on b1 (W1 models), 1 on rv
    with Battle(_spec(), dice=ForcedDice(CHARGE_8 + [5, 6, 1, 2, 3, 5])) as b:
        _charge(b, lambda req: req.options[0])
        (req,) = [e for e in of_type(b, "decision") if e["kind"] == "stratagem"
                  and e["key"].startswith("Crushing Impact")]
        assert req["answer"].startswith("rv/1 -> b1")
        (used,) = of_type(b, "stratagem")
        assert used["stratagem"] == "Crushing Impact" and used["cp"] == 1 and b.turn_state.cp[0] == 0
        assert b.dice.log[-1] == ("Crushing Impact rv/1 -> b1", (5, 6, 1, 2, 3, 5))
        (ci,) = of_type(b, "crushing impact")
        assert (ci["T"], ci["to_enemy"], ci["to_own"]) == (6, 3, 1)
        assert _alive(b, "b1") == 2 and wounds(b, "rv/1") == 9
        assert [e["unit"] for e in of_type(b, "mortal wounds")] == ["b1", "rv"]


def test_15_06_at_most_six_mortal_wounds_on_the_enemy_unit():
    with Battle(_spec(T=12, W_=20, blue_models=10), dice=ForcedDice(CHARGE_8 + [5] * 9 + [1] * 3)) as b:
        _charge(b, lambda req: req.options[0])
        (ci,) = of_type(b, "crushing impact")
        assert len(ci["rolls"]) == 12 and (ci["to_enemy"], ci["to_own"]) == (6, 3)
        assert _alive(b, "b1") == 4 and wounds(b, "rv/1") == 17


def test_15_06_at_most_six_mortal_wounds_on_your_own_unit():
    with Battle(_spec(T=12, W_=20, blue_models=10), dice=ForcedDice(CHARGE_8 + [1] * 8 + [6] * 4)) as b:
        _charge(b, lambda req: req.options[0])
        (ci,) = of_type(b, "crushing impact")
        assert (ci["to_enemy"], ci["to_own"]) == (4, 6)
        assert _alive(b, "b1") == 6 and wounds(b, "rv/1") == 14


def test_15_06_declined_by_default():
    with Battle(_spec(), dice=ForcedDice(CHARGE_8)) as b:
        _charge(b, lambda req: req.default)
        assert of_type(b, "stratagem") == [] and of_type(b, "crushing impact") == []
        assert _alive(b, "b1") == 5 and b.turn_state.cp[0] == 1


def test_15_06_not_offered_to_other_units_without_the_cp_or_when_battle_shocked():
    def offers(b):
        return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"].startswith("Crushing")]
    with Battle(_spec(keywords=("INFANTRY",)), dice=ForcedDice(CHARGE_8)) as b:
        _charge(b, lambda req: req.options[0])
        assert offers(b) == []
    with Battle(_spec(), dice=ForcedDice(CHARGE_8)) as b:
        _charge(b, lambda req: req.options[0], cp=(0, 0))
        assert offers(b) == [] and of_type(b, "charge")[-1]["result"] == "made"
    with Battle(_spec(keywords=("MONSTER",)), dice=ForcedDice(CHARGE_8)) as b:
        b.run_command(StartBattle())
        b._enter()
        W.unit_state(b.units["rv"]).battle_shocked = True
        b.turn_state.cp = [1, 0]
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        b.run_command(DeclareCharge("rv"))
        b.run_command(charge_command(b, "rv", None, None), lambda req: req.options[0])
        assert offers(b) == []
    # and only in its own player's Charge phase (a Heroic Intervention's charge is not)
    assert SG.refusal(by_name("Crushing Impact"), cp=1, phase="charge", window=SG.AFTER_CHARGE_MOVE,
                      whose_turn=SG.OPPONENT) == "Crushing Impact is used in your own turn (15.06)"


def test_15_06_its_only_target_destroyed_the_unit_overruns_in_the_fight_phase():
    from sim.plan.fight import fight_types
    from sim.players import options as O
    from sim.commands import Overrun
    with Battle(_spec(blue_models=1), dice=ForcedDice(CHARGE_8 + [6] * 6 + [1] * 20)) as b:
        _charge(b, lambda req: req.options[0])
        b._enter()
        assert W.unit_destroyed(b.units["b1"]) and not W.unit_engaged(b.units["rv"])
        while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())
        rv = b.units["rv"]
        assert fight_types(b, rv) == ("overrun",)
        cmd = O.fight_command(b, rv)
        assert isinstance(cmd, Overrun) and cmd.to == ()  # (no enemy within 5": no pile-in)
        b.run_command(cmd)


def test_15_01_crushing_impact_once_per_phase():
    red = [unit("rv", model((20, 10), ["blade"], T=6, W=10), keywords=("VEHICLE",)),
           unit("rw", model((40, 10), ["blade"], T=6, W=10), keywords=("VEHICLE",))]
    blue = [unit("b1", model(row(17, 16, 5), ["blade"])), unit("b2", model(row(37, 16, 5), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice(CHARGE_8 + [2] * 6 + CHARGE_8 + [2] * 6)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [3, 0]
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        use_first = (lambda r: r.options[0] if r.kind == "stratagem" and "Crushing" in r.key else r.default)
        for uid in ("rv", "rw"):
            b.run_command(DeclareCharge(uid))
            b.run_command(charge_command(b, uid, None, None), use_first)
        assert [e["target"] for e in of_type(b, "stratagem")] == ["rv"] and b.turn_state.cp[0] == 2
        assert [e["key"] for e in of_type(b, "decision") if e["key"].startswith("Crushing")] == ["Crushing Impact: rv"]

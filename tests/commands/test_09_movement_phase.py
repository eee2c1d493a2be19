"""09 Movement phase, with 03.01 end checks and the Part A path model: each move type's
distance, eligibility and end conditions; the advance roll before moving; Desperate Escape's
hazard rolls; one move per unit per phase; unselected units remain stationary. Each refusal
names the model, the rule and the distance."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type, scenario
from sim.battle import Battle
from sim.commands import EndPhase, Move, SelectToMove, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}


def _free(red, blue):
    return scenario(GUN, red, blue)


def _red(*pts, **kw):
    return unit("r1", model(list(pts), ["gun"], **kw))


def test_09_05_a_normal_move_may_not_end_within_engagement_range():
    spec = _free([_red((10, 10), M=8)], [unit("b1", model((10, 20), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1/1: it would end 1.74\" from enemy model b1/1.*must end unengaged \(09.05\)"):
            b.submit(Move("r1", (("r1/1", 10, 17),)))
        b.run_command(Move("r1", (("r1/1", 10, 16),)))  # 4.74" apart: fine


def test_03_01_a_move_may_not_end_overlapping_a_friendly_base():
    spec = _free([_red((10, 10)), unit("r2", model((14, 10), ["gun"]))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1/1.*(overlap|on another).*r2/1"):
            b.submit(Move("r1", (("r1/1", 13.5, 10),)))


def test_03_01_a_base_may_not_cross_an_enemy_base():
    spec = _free([_red((10, 10), M=8)], [unit("b1", model((10, 13.5), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1/1.*b1/1"):
            b.submit(Move("r1", (("r1/1", 10, 17),)))


def test_03_03_a_move_that_breaks_coherency_is_refused():
    spec = _free([_red((10, 10), (11.5, 10))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"03.03"):
            b.submit(Move("r1", (("r1/1", 10, 14),)))
        b.run_command(Move("r1", (("r1/1", 10, 11.2),)))


def test_09_05_the_maximum_distance_is_m():
    spec = _free([_red((10, 10), M=6)], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1/1: would move 6.10\" but may move at most 6\" in a normal move \(09.05\)"):
            b.submit(Move("r1", (("r1/1", 16.1, 10),)))


def _mission(red, blue):
    return mission_scenario(red, blue)


def test_09_06_the_advance_roll_is_made_before_any_model_moves():
    spec = _mission([_red((10, 10), M=6)], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec, dice=ForcedDice([2])) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"select r1 to advance first.*\(09.06\)"):
            b.submit(Move("r1", (("r1/1", 17, 10),), "advance"))
        b.run_command(SelectToMove("r1", "advance"))
        (sel,) = of_type(b, "selected to move")
        assert sel["advance_roll"] == 2
        with pytest.raises(Refusal, match=r"would move 9.00\" but may move at most 8\" in an advance move \(09.06\)"):
            b.submit(Move("r1", (("r1/1", 19, 10),), "advance"))
        with pytest.raises(Refusal, match=r"selected to advance and cannot make a normal move"):
            b.submit(Move("r1", (("r1/1", 12, 10),), "normal"))
        b.run_command(Move("r1", (("r1/1", 18, 10),), "advance"))


def test_09_02_one_move_per_unit_per_phase_and_the_rest_remain_stationary():
    spec = _mission([_red((10, 10)), unit("r2", model((20, 10), ["gun"]))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec, dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b.run_command(Move("r1", (("r1/1", 12, 10),)))
        with pytest.raises(Refusal, match=r"already made a normal move"):
            b.submit(Move("r1", (("r1/1", 14, 10),)))
        b.run_command(EndPhase())
        (still,) = of_type(b, "remained stationary")
        assert still["units"] == ["r2"] and still["rule"] == "09.02.01"


def test_09_07_fall_back_needs_an_engaged_unit_and_must_end_unengaged():
    spec = _free([_red((10, 10))], [unit("b1", model((10, 11.5), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"engaged unit cannot make a normal move"):
            b.submit(Move("r1", (("r1/1", 6, 10),)))
        with pytest.raises(Refusal, match=r"09.07"):
            b.submit(Move("r1", (("r1/1", 10, 9.5),), "fall back"))
        b.run_command(Move("r1", (("r1/1", 10, 7),), "fall back"))


def test_09_07_desperate_escape_rolls_hazards_before_moving_and_then_a_battle_shock_roll():
    spec = _mission([_red((10, 10), (11.5, 10), W=1, Ld=7)], [unit("b1", model((10, 11.5), ["gun"]))])
    # hazard rolls 1 (fails: 1 mortal wound) and 5; then the battle-shock roll 3 + 3 = 6 < 7
    with Battle(spec, dice=ForcedDice([1, 5, 3, 3])) as b:
        b.run_command(StartBattle())
        b.run_command(SelectToMove("r1", "desperate escape"))
        (hz,) = of_type(b, "hazard rolls")
        assert hz["rolls"] == [1, 5] and hz["mortal_wounds"] == 1
        alive = [m for m in ("r1/1", "r1/2") if m not in {d["model"] for d in of_type(b, "model destroyed")}]
        assert len(alive) == 1
        b.run_command(Move("r1", ((alive[0], 14 if alive[0] == "r1/2" else 13, 6),), "fall back"))
        (bs,) = of_type(b, "battle-shock")
        assert bs["passed"] is False and bs["note"] == "after a Desperate Escape (09.07)"


def test_09_07_a_battle_shocked_unit_falls_back_only_by_desperate_escape():
    spec = _mission([_red((10, 10))], [unit("b1", model((10, 11.5), ["gun"]))])
    with Battle(spec, dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        from sim.world import queries as W
        W.unit_state(b.units["r1"]).battle_shocked = True
        with pytest.raises(Refusal, match=r"battle-shocked.*Desperate Escape"):
            b.submit(SelectToMove("r1", "fall back"))
        with pytest.raises(Refusal, match=r"battle-shocked.*Desperate Escape"):
            b.submit(Move("r1", (("r1/1", 10, 7),), "fall back"))


def test_11_02_a_unit_with_no_enemy_within_12_inches_may_not_declare_a_charge():
    from pathlib import Path
    from sim.commands import DeclareCharge
    from sim.scenario.load import load_scenario
    spec = load_scenario(Path(__file__).resolve().parents[2] / "scenarios/charge_terrain.toml")
    with Battle(spec) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        with pytest.raises(Refusal, match=r"far has no enemy unit within 12\" \(nearest 22.51\"\).*\(11.02\)"):
            b.submit(DeclareCharge("far"))


def test_03_01_a_scripted_move_stacking_a_model_on_another_is_a_script_error(tmp_path, capsys):
    """(Issue 13: a scripted move that put one model exactly on another was accepted, though
    the loader refuses overlapping bases.) Free play obeys the same end checks."""
    from sim.cli import main
    toml = tmp_path / "stack.toml"
    toml.write_text("""
[battle]
name = "stack"
[weapons."gun"]
range = 24
A = 1
BS = 3
S = 4
AP = 0
D = 1
[[armies]]
name = "A"
[[armies.units]]
id = "a"
name = "A"
models = [{ name = "x", count = 1, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[10, 10]] }]
[[armies.units]]
id = "c"
name = "C"
models = [{ name = "x", count = 1, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[14, 10]] }]
[[armies]]
name = "B"
[[armies.units]]
id = "b"
name = "B"
models = [{ name = "x", count = 1, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[40, 40]] }]
[[script]]
move = "a"
to = { "a/1" = [14, 10] }
""")
    assert main(["run", str(toml)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "script[0]" in err[0] and "a/1" in err[0] and "c/1" in err[0] and "(03.01)" in err[0]


def test_03_03_coherent_at_is_the_move_checks_own_coherency_verdict():
    """03.03 sim.plan.moves.coherent_at (what the random player asks before trying a move whose
    models scatter) agrees with check 9 of the move checks on the same ends, including oval
    bases, for a few hundred seeded scatters: False exactly when the checks report a 03.03
    problem."""
    import random

    from sim.plan import moves as MV
    from sim.players import options as O
    from sim.rules.movement import legality as ML
    riders = model([(30, 30), (33.2, 30), (36.4, 30)], ["gun"])
    riders.pop("base_mm")
    riders.update(base=[75, 42], shape="oval")
    spec = _free([_red((10, 10), (11.5, 10), (13, 10), (14.5, 10), M=6), unit("r2", riders)],
                 [unit("b1", model((50, 40), ["gun"]))])
    rng = random.Random(303)
    seen = set()
    with Battle(spec) as b:
        b._enter()
        for _ in range(300):
            uid = rng.choice(["r1", "r2"])
            u = b.units[uid]
            to = tuple((mid, round(x + rng.uniform(-3, 3), 6), round(y + rng.uniform(-3, 3), 6))
                       for mid, x, y in O.translate(b, u, 0.0, 0.0))
            problems = ML.check_move(uid, MV.paths_of(b, u, to), MV.bodies(), [], spec.board,
                                     max_distance=99.0, rule="09.05")
            incoherent = any(p.rule == "03.03" for p in problems)
            assert MV.coherent_at(u, to) == (not incoherent)
            seen.add(incoherent)
    assert seen == {True, False}

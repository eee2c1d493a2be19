"""The tactician's Movement phase (issue 27 item 1) in constructed positions where the right
choice is clear: a unit goes to the uncontested objective in its reach, does not leave an
objective it alone holds, falls back from a fight it loses (but not off an objective it holds),
stays out of a big threat when nothing is gained; and it chooses the same for the same position."""

from __future__ import annotations

import math

from phased import mission_scenario, model, unit, weapon
from sim.battle import Battle
from sim.commands import EndPhase, Move, StartBattle
from sim.phases import scoring
from sim.phases.state import Phase
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import movement as MVT
from sim.world import queries as W

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "blade": weapon("melee", 2, 3, 4, 0, 1),
           "sword": weapon("melee", 5, 2, 5, -2, 2), "axe": weapon("melee", 8, 2, 6, -3, 3)}
FAR = [unit("b-far", model([(50, 40)], ["gun"], OC=1), name="Far Sentry")]


def _at_movement(red, blue, objectives, seed=3, rounds=5):
    """A battle at red's first Movement phase and red's tactician."""
    b = Battle(mission_scenario(red, blue, objectives=objectives, weapons=WEAPONS, rounds=rounds), seed=seed)
    b.run_command(StartBattle())
    ts = b.turn_state
    while not (ts.phase == Phase.MOVEMENT and ts.chooser == 0):
        b.run_command(EndPhase())
    b._enter()
    return b, TacticianPlayer(0, b, b.scenario)


def _levels(b, name):
    ts = b.turn_state
    i = [o.name for o in ts.objectives].index(name)
    return scoring.control_levels(ts.objectives, b)[i]


def _gap(b, a_id, e_id):
    b._enter()
    return min(W.model_distance(m, e) for m in W.unit_models(b.units[a_id]) for e in W.unit_models(b.units[e_id]))


def test_a_unit_goes_to_the_uncontested_objective_in_its_reach():
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun", "blade"], OC=2), name="Warden Guard")]
    objs = [{"name": "Objective 3", "at": [10, 18], "kind": "central"}]
    b, p = _at_movement(red, FAR, objs)
    with b:
        assert _levels(b, "Objective 3")[0] == 0
        cands = p.candidates(b)
        best = cands[0]
        assert isinstance(best.command, Move) and best.command.mode == "normal"
        assert best.label == "Warden Guard moves to Objective 3 (OC 4 v 0)"
        assert all(b.check(c.command) is None for c in cands)
        assert [c.value for c in cands] == sorted((c.value for c in cands), reverse=True)
        b.run_command(best.command)
        assert _levels(b, "Objective 3")[0] == 4


def test_a_unit_does_not_leave_an_objective_it_alone_holds():
    # (another objective, unheld, is a normal move away: going there would give up the first)
    red = [unit("r1", model([(9.25, 10), (10.75, 10)], ["gun", "blade"], OC=2), name="Warden Guard")]
    objs = [{"name": "held", "at": [10, 10], "kind": "central"},
            {"name": "other", "at": [22, 10], "kind": "expansion"}]
    b, p = _at_movement(red, FAR, objs)
    with b:
        assert _levels(b, "held")[0] == 4
        best = p.candidates(b)[0]
        b.run_command(best.command)
        assert _levels(b, "held")[0] == 4


def test_a_unit_out_fought_off_an_objective_falls_back():
    # (a lone shooter with no blade, engaged by six axes: whatever it is worth, it loses it all)
    red = [unit("r1", model([(30, 10)], ["gun"], OC=2), name="Warden Scout")]
    blue = [unit("b1", model([(26 + 1.6 * i, 11.6) for i in range(6)], ["axe"], OC=1), name="Raider Mob")]
    objs = [{"name": "far", "at": [30, 40], "kind": "central"}]
    b, p = _at_movement(red, blue, objs)
    with b:
        assert W.unit_engaged(b.units["r1"])
        best = p.candidates(b)[0]
        assert isinstance(best.command, Move) and best.command.mode == "fall back"
        assert best.label.startswith("Warden Scout falls back")
        b.run_command(best.command)
        assert not W.unit_engaged(b.units["r1"])


def test_a_unit_out_fought_on_an_objective_it_holds_stays():
    red = [unit("r1", model([(30, 10)], ["gun", "blade"], OC=2), name="Warden Scout")]
    blue = [unit("b1", model([(26 + 1.6 * i, 11.6) for i in range(6)], ["sword"], OC=0), name="Raider Hounds")]
    objs = [{"name": "held", "at": [30, 9], "kind": "central"}]
    b, p = _at_movement(red, blue, objs)
    with b:
        best = p.candidates(b)[0]
        assert best.command.__class__.__name__ == "SelectToMove" and best.command.mode == "stationary"
        assert best.label.startswith("Warden Scout stays to fight")


def test_a_unit_stays_out_of_a_big_threat_when_nothing_is_gained():
    # (its objective is far beyond the enemy; moving toward it would put it in charge reach of
    # six sword-armed models for a sliver of progress)
    # (a unit worth 200 points: what the threat could take is worth far more than the progress)
    red = [unit("r1", model([(29.25, 6), (30.75, 6)], ["gun", "blade"], OC=2), name="Warden Guard", points=200)]
    blue = [unit("b1", model([(26 + 1.6 * i, 30) for i in range(6)], ["sword"], M=8, OC=1), name="Raider Mob")]
    objs = [{"name": "far", "at": [30, 40], "kind": "central"}]
    b, p = _at_movement(red, blue, objs)
    with b:
        # (out of the charge's reach now: the enemy's 8" move, then a charge declared within
        # 12", 11.01; a full move toward the objective would end 6" inside it)
        assert _gap(b, "r1", "b1") - 6 < 8 + 12 < _gap(b, "r1", "b1")
        best = p.candidates(b)[0]
        b.run_command(best.command)
        assert _gap(b, "r1", "b1") > 8 + 12


def test_the_same_position_gives_the_same_options():
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun", "blade"], OC=2), name="Warden Guard"),
           unit("r2", model([(40, 8), (41.5, 8), (43, 8)], ["gun"], OC=1), name="Warden Gunners")]
    blue = [unit("b1", model([(26 + 1.6 * i, 30) for i in range(6)], ["sword"], M=8, OC=1), name="Raider Mob")]
    objs = [{"name": "west", "at": [10, 18], "kind": "central"}, {"name": "east", "at": [45, 22], "kind": "central"}]
    runs = []
    for _ in range(2):
        b, p = _at_movement(red, blue, objs)
        with b:
            out = []
            for _step in range(4):
                cands = p.candidates(b)
                if not cands:
                    break
                out.append([(round(c.value, 9), c.command, c.label) for c in cands])
                b.run_command(cands[0].command)
            runs.append(out)
    assert runs[0] == runs[1] and len(runs[0]) >= 2


def test_the_plan_sends_enough_oc_to_a_contested_objective():
    # (the enemy can bring OC 3 to the objective: one OC-2 unit is not enough, two are)
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun"], OC=1), name="Warden Pair"),
           unit("r2", model([(14, 10), (15.5, 10)], ["gun"], OC=1), name="Warden Pair"),
           unit("r3", model([(50, 4)], ["gun"], OC=1), name="Warden Runner")]
    blue = [unit("b1", model([(12, 30), (13.5, 30), (15, 30)], ["gun"], OC=1), name="Raider Mob")]
    objs = [{"name": "mid", "at": [12, 20], "kind": "central"}]
    b, p = _at_movement(red, blue, objs)
    with b:
        pl = MVT.plan(p, b)
        assert pl.need["mid"] == 4
        assert pl.objective[b.units["r1"]].name == pl.objective[b.units["r2"]].name == "mid"
        assert pl.assigned["mid"] >= 4


def test_deployment_puts_one_far_shooting_unit_on_home_and_spreads_the_rest():
    from pathlib import Path

    from sim.players.resolve import submit_and_resolve
    from sim.players.tactician.threat import Body
    from sim.rules.turn import PreBattleStep
    from sim.scenario.load import load_scenario
    path = Path(__file__).resolve().parents[3] / "scenarios/deployment.toml"
    s = load_scenario(path)
    with Battle(s, seed=11) as b:
        ps = [TacticianPlayer(i, b, s) for i in (0, 1)]
        submit_and_resolve(b, s, "start", StartBattle(), lambda req: ps[req.player].answer(b, req), None)
        ts = b.turn_state
        targets = {0: [], 1: []}
        while ts.pre_battle is not None:
            p = ps[ts.chooser]
            p.fresh(b)
            c = MVT.deploy_candidates(p, b)[0]
            assert b.check(c.command) is None
            if ts.pre_battle == PreBattleStep.DEPLOY and c.label:
                targets[ts.chooser].append(c.label.rsplit(" toward ", 1)[1])
            submit_and_resolve(b, s, "test", c.command, lambda req: ps[req.player].answer(b, req), None)
        b._enter()
        for side, home in ((0, "defender home"), (1, "attacker home")):
            assert targets[side].count(home) == 1
            assert {"central", "expansion west", "expansion east"} <= set(targets[side])
            o = next(o for o in ts.objectives if o.name == home)
            near = [u for u in MVT.O.own_units(b, side)
                    if math.dist(MVT.O.centroid(u), (o.x, o.y)) < 9 and Body(b, u).max_range >= MVT.HOLDER_RANGE]
            assert near


def test_asking_again_before_playing_gives_the_same_options():
    # (a search player reads the options of a position more than once)
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun", "blade"], OC=2), name="Warden Guard"),
           unit("r2", model([(40, 8), (41.5, 8)], ["gun"], OC=1), name="Warden Gunners")]
    objs = [{"name": "west", "at": [10, 18], "kind": "central"}]
    b, p = _at_movement(red, FAR, objs)
    with b:
        first = p.candidates(b)
        assert p.candidates(b) == first
        b.run_command(first[0].command)
        assert p.candidates(b)[0].label.startswith("Warden Gunners")


def test_in_the_last_round_the_oc_needed_is_the_enemy_s_there_now():
    # (the last round scores at the end of this turn: an enemy that could come next turn does
    # not count; before it, it does)
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun"], OC=1), name="Warden Pair")]
    blue = [unit("b1", model([(12, 30), (13.5, 30), (15, 30)], ["gun"], OC=1), name="Raider Mob")]
    objs = [{"name": "mid", "at": [12, 20], "kind": "central"}]
    for rounds, need in ((5, 4), (1, 1)):
        b, p = _at_movement(red, blue, objs, rounds=rounds)
        with b:
            assert MVT.plan(p, b).need["mid"] == need


def test_positions_valued_together_equal_each_valued_alone():
    # (position_worths, the threat map's terms for many positions at once, gives each position's
    # position_worth to the bit: the choices stay the same; a melee unit and a shooting one,
    # positions in and out of the enemy's reach, its shooting and a charge)
    red = [unit("r1", model([(9, 10), (10.5, 10)], ["gun", "blade"], OC=2), name="Warden Guard"),
           unit("r2", model([(40, 8), (41.5, 8), (43, 8)], ["gun"], OC=1), name="Warden Gunners")]
    blue = [unit("b1", model([(26 + 1.6 * i, 30) for i in range(6)], ["sword"], M=8, OC=1), name="Raider Mob"),
            unit("b2", model([(50, 36), (51.5, 36)], ["gun", "blade"], OC=1), name="Raider Guns")]
    objs = [{"name": "west", "at": [10, 18], "kind": "central"}, {"name": "east", "at": [45, 22], "kind": "central"}]
    b, p = _at_movement(red, blue, objs)
    with b:
        shifts = [(dx * 1.7, dy * 2.3) for dx in range(-4, 5) for dy in range(-3, 9)] + [(0.0, 0.0), (0.0, 0.0)]
        for uid in ("r1", "r2"):
            u = b.units[uid]
            together = MVT.position_worths(p, b, u, shifts)
            alone = [MVT.position_worth(p, b, u, dx, dy) for dx, dy in shifts]
            assert together == alone
            assert len(set(together)) > 10  # (positions that differ: the test compares something)


def test_a_home_objective_held_by_a_unit_at_half_strength_gets_a_second_holder():
    # (r1, at half its starting strength, rolls for battle-shock in our next Command phase and
    # keeps its OC only if it passes: the plan keeps it on our home objective and sends r2 there
    # too, HOLD_SURE; at full strength r1 alone is enough and r2 goes elsewhere)
    from sim.players.tactician import judge as J
    red = [unit("r1", model([(9.25, 6), (10.75, 6)], ["gun"], OC=2, Ld=7), name="Warden Guard"),
           unit("r2", model([(9, 14), (10.5, 14)], ["gun"], OC=1), name="Warden Pair")]
    objs = [{"name": "home", "at": [10, 6], "kind": "home", "owner": "red"},
            {"name": "mid", "at": [40, 22], "kind": "central"}]
    for start, second in ((4, "home"), (2, "mid")):
        b, p = _at_movement(red, FAR, objs)
        with b:
            r1, r2 = b.units["r1"], b.units["r2"]
            b.turn_state.starting_strength[r1] = start
            pl = MVT.plan(p, b)
            assert pl.objective[r1].name == "home"
            assert math.isclose(pl.keep[r1], J.p_2d6_at_least(7) if start == 4 else 1.0)
            assert pl.objective[r2].name == second

"""15.07 Rapid Ingress (1 CP, the end of the opponent's Movement phase, not in battle round 1):
one unit in strategic reserves (not AIRCRAFT) makes an ingress move now, set up where the
headless ingress places it (Part A ruling 27) and checked as any ingress move (20.04, 03.02).
Offered as a decision naming the unit (default decline, Part A ruling 25), within the 15.01
limits."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.plan import phased as PH
from sim.world import queries as W


def _spec():
    red = [unit("r1", model([(30, 6), (31.5, 6)], ["gun"])), unit("r2", model((50, 6), ["gun"]))]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"])), unit("b2", model((50, 38), ["gun"])),
            unit("bres", model([(5, 40), (6.5, 40)], ["gun"]), reserves=True),
            unit("bres2", model((8, 40), ["gun"]), reserves=True)]
    return mission_scenario(red, blue)


def _offers(b):
    return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"].startswith("Rapid Ingress")]


def _end_reds_movement(b, answer=None, cp=(0, 1)):
    """Play to red's Movement phase of round 2 and end it (blue may use Rapid Ingress)."""
    while not (b.turn_state.round == 2 and b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"):
        b.run_command(EndPhase())
    b.turn_state.cp = list(cp)
    b.run_command(EndPhase(), answer)


def test_15_07_a_unit_in_reserves_arrives_at_the_end_of_the_opponents_movement_phase():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _end_reds_movement(b, lambda req: "bres" if req.kind == "stratagem" and "bres" in req.options else req.default)
        (offer,) = _offers(b)
        assert offer["player"] == 1 and offer["answer"] == "bres"
        (used,) = of_type(b, "stratagem")
        assert used["stratagem"] == "Rapid Ingress" and used["target"] == "bres" and used["cp"] == 1
        assert b.turn_state.cp[1] == 0
        (ing,) = of_type(b, "ingress")
        assert ing["unit"] == "bres" and len(ing["to"]) == 2
        assert str(b.turn_state.phase) == "shooting" and b.turn_state.active == 0
        b._enter()
        ent = b.units["bres"]
        assert not W.in_reserves(ent) and W.in_reserves(b.units["bres2"])
        assert W.unit_state(ent).set_up_this_turn
        # where it stands is a legal ingress (20.04: within 6" of an edge, > 8" from enemies, ...)
        for mid, x, y in ing["to"]:
            assert min(x, y, 60 - x, 44 - y) <= 6.0
        for e in W.enemy_units(ent):
            from sim.plan.moves import unit_gap
            assert unit_gap(ent, [e]) > 8.0


def test_15_07_offered_once_with_every_unit_that_has_a_spot_and_declined_by_default():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _end_reds_movement(b, cp=(0, 3))
        (offer,) = _offers(b)
        assert offer["answer"] == "decline"
        assert of_type(b, "stratagem") == [] and of_type(b, "ingress") == [] and b.turn_state.cp[1] == 3
        b._enter()
        assert W.in_reserves(b.units["bres"]) and W.in_reserves(b.units["bres2"])


def test_15_07_not_in_battle_round_1():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 5]
        while str(b.turn_state.phase) != "shooting":
            b.run_command(EndPhase())
        assert b.turn_state.round == 1 and _offers(b) == []


def test_15_07_not_without_the_cp_nor_for_a_battle_shocked_unit():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _end_reds_movement(b, cp=(0, 0))
        assert _offers(b) == []
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        b._enter()
        W.unit_state(b.units["bres"]).battle_shocked = True
        seen = []

        def answer(req):
            if req.kind == "stratagem":
                seen.append(list(req.options))
            return req.default
        _end_reds_movement(b, answer)
        assert seen == [["bres2", "decline"]]


def test_15_07_the_arrival_defaults_to_ruling_27s_spot_among_the_legal_ones():
    """The unit chosen arrives where the player picks among its legal spots (an ``arrival``
    decision, each checked as an ingress move is); the default is default_ingress's spot (Part A
    ruling 27: the legal spot nearest the nearest objective the side does not control), the first
    of the legal spots in that order."""
    from sim.commands.ingress import default_ingress, ingress_spots
    asked = []

    def answer(req):
        if req.kind == "stratagem" and "bres" in req.options:
            b._enter()
            check = lambda c: _problem(b, c)  # noqa: E731
            asked.append((default_ingress(b, b.units["bres"], 1, check),
                          [c for _a, c in ingress_spots(b, b.units["bres"], 1, check)]))
            return "bres"
        if req.kind == "arrival":
            asked.append(req)
        return req.default

    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _end_reds_movement(b, answer)
    (default, legal), arrival = asked
    assert len(legal) > 1 and default == legal[0]
    assert len(arrival.options) > 1
    (ing,) = of_type(b, "ingress")
    assert [tuple(t) for t in ing["to"]] == [tuple(t) for t in default.to]


def test_15_07_not_in_its_own_movement_phase():
    """(Its own reserves come in by the ingress command in its own Movement phase: 20.04.)"""
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        while not (b.turn_state.round == 2 and b.turn_state.active == 1 and str(b.turn_state.phase) == "movement"):
            b.run_command(EndPhase())
        before = len(_offers(b))
        b.turn_state.cp = [5, 5]
        b.run_command(EndPhase())  # blue's own Movement phase ends: red has no reserves
        assert len(_offers(b)) == before


def test_15_07_the_spot_offered_passes_the_ingress_checks():
    from sim.commands.ingress import default_ingress
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        while not (b.turn_state.round == 2 and b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"):
            b.run_command(EndPhase())
        b._enter()
        cmd = default_ingress(b, b.units["bres"], 1, check=lambda c: _problem(b, c))
        assert cmd is not None
        PH.check_ingress(b, cmd)  # (raises if illegal)
        # the Movement phase's own gate refuses it (it is red's turn): the stratagem's check is the move's
        assert b.check(cmd) is not None


def _problem(b, cmd):
    from sim.errors import PlanError
    try:
        PH.check_ingress(b, cmd)
    except PlanError as e:
        return str(e)
    return None


def test_15_07_a_script_answers_it_in_the_step_that_ends_the_phase():
    from sim.players.runner import play
    from sim.scenario.load import parse_scenario
    red = [unit("r1", model([(30, 6), (31.5, 6)], ["gun"])), unit("r2", model((50, 6), ["gun"]))]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"])),
            unit("bres", model([(5, 40), (6.5, 40)], ["gun"]), reserves=True)]
    data = {"battle": {"name": "t", "seed": 3, "board": [60, 44]},
            "weapons": {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}],
            "mission": {"first": "red", "deployed": False, "rounds": 2},
            "script": [{"end_phase": "red", "round": 2, "decisions": {"stratagem": "use"}}]}
    spec = parse_scenario(data, "test.toml")
    with Battle(spec) as b:
        play(b, spec)
        (used,) = of_type(b, "stratagem")
        assert used["stratagem"] == "Rapid Ingress" and used["target"] == "bres"
        (d,) = _offers(b)
        assert d["scripted"] == "use" and d["answer"] == "bres"


def test_15_07_the_units_offered_are_those_the_headless_ingress_finds_a_spot_for():
    """The offer finds which units have a legal spot lazily (sim.commands.ingress.can_ingress,
    stopping at the first legal candidate of the solver's): its answer is default_ingress's (a
    spot found, or None) whichever candidates the check allows: all, none, only the last
    the solver finds, only the first in ruling 27's order."""
    from sim.commands import ingress as I
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        while not (b.turn_state.round == 2 and b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"):
            b.run_command(EndPhase())
        for uid in ("bres", "bres2"):
            u = b.units[uid]
            aims = [(o.x, o.y) for o in I._aims(b, 1)]
            found = [cmd for _a, cmd in I.ingress_candidates(b, u, aims)]
            assert len(found) > 2
            preferred = [cmd for _a, cmd in I._preferred(b, u, 1)]
            for allowed in (found, [], found[-1:], preferred[:1], found[1:2]):
                def check(cmd, allowed=allowed):
                    return None if cmd in allowed else "not this one"
                got = I.default_ingress(b, u, 1, check)
                assert I.can_ingress(b, u, 1, check) == (got is not None)
                if len(allowed) == 1:
                    assert got == allowed[0]


def test_15_07_the_offer_reads_what_it_found_and_checked_once():
    """The offer asks each unit whether it has a legal spot (can_ingress), then the chosen
    unit's spots (ingress_spots) with the same Searches: the same spots as asked afresh, in the same
    order, each command found once and checked once, whichever candidates the check allows."""
    from sim.commands import ingress as I
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        while not (b.turn_state.round == 2 and b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"):
            b.run_command(EndPhase())
        u = b.units["bres"]
        found = [cmd for _a, cmd in I.ingress_candidates(b, u, [(o.x, o.y) for o in I._aims(b, 1)])]
        assert len(found) > 2
        for allowed in (found, found[1:], found[-1:], []):
            asked = []

            def check(cmd, allowed=allowed):
                asked.append(cmd)
                return None if cmd in allowed else "not this one"
            fresh = I.ingress_spots(b, u, 1, lambda cmd, allowed=allowed: None if cmd in allowed else "no")
            seen = I.Searches()
            assert I.can_ingress(b, u, 1, check, seen) == bool(allowed)
            first = len(asked)
            assert first == (found.index(allowed[0]) + 1 if allowed else len(found))
            assert I.ingress_spots(b, u, 1, check, seen) == fresh
            assert len(fresh) == len(allowed) and all(c in allowed for _a, c in fresh)
            assert sorted(map(id, asked)) == sorted(set(map(id, asked))) and len(asked) == len(found)

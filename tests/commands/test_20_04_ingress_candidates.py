"""20.04 / 24.09 / Part A ruling 27 The automatic players' ingress spots are the placement
solver's (sim.commands.ingress.ingress_candidates): every one is accepted by the Ingress
command's own check; the first is nearest the nearest objective the side does not control; a
10-model unit arrives in coherency on its own bases; Deep Strike (24.09) arrives inland, more
than 8" from every enemy model, where an ingress stays within 6" of an edge."""

from __future__ import annotations

import math

from phased import mission_scenario, model, unit
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.commands.ingress import default_ingress, ingress_candidates
from sim.rules.geometry import distance
from sim.rules.reserves import wholly_within_edge_strip
from sim.world import queries as W


def _spec():
    def ten(y):
        return [(5 + 1.5 * i, y) for i in range(10)]
    red = [unit("r1", model((30, 6), ["gun"])), unit("r2", model((40, 6), ["gun"])),
           unit("walkers", model(ten(2), ["gun"]), reserves=True),
           unit("droppers", model(ten(4), ["gun"]), abilities=["Deep Strike"], reserves=True)]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"])), unit("b2", model((50, 30), ["gun"]))]
    return mission_scenario(red, blue)


def _to_red_round_2(b):
    b.run_command(StartBattle())
    while b.turn_state.round < 2:
        b.run_command(EndPhase())
    b._enter()


def _objectives(b, side):
    ts = b.turn_state
    mine = {n for n, c in ts.control.items() if c.controller == side}
    return [(o.x, o.y) for o in ts.objectives if o.name not in mine] or [(o.x, o.y) for o in ts.objectives]


def test_20_04_every_ingress_candidate_passes_the_commands_check_in_coherency():
    with Battle(_spec()) as b:
        _to_red_round_2(b)
        cands = ingress_candidates(b, b.units["walkers"], _objectives(b, 0))
        assert len(cands) >= 4
        for _anchor, cmd in cands:
            assert b.check(cmd) is None
            fps = [W.footprint(b.models[m]).moved(x, y) for m, x, y in cmd.to]
            assert all(wholly_within_edge_strip(f, b.scenario.board) for f in fps)
        first = default_ingress(b, b.units["walkers"], 0)
        objs = _objectives(b, 0)
        near = lambda c: min(math.hypot(c[0] - x, c[1] - y) for x, y in objs)   # noqa: E731
        assert near(cands[0][0]) <= min(near(a) for a, _c in cands) + 1e-6
        best = min(near(a) for a, _c in cands)
    assert first in [c for a, c in cands if near(a) <= best + 1e-6]   # (ties: either)


def test_24_09_deep_strike_arrives_inland_more_than_8_from_every_enemy():
    with Battle(_spec()) as b:
        _to_red_round_2(b)
        cmd = default_ingress(b, b.units["droppers"], 0)
        assert cmd is not None and b.check(cmd) is None
        fps = [W.footprint(b.models[m]).moved(x, y) for m, x, y in cmd.to]
        enemies = [W.footprint(m) for u in W.enemy_units(b.units["droppers"]) for m in W.unit_models(u)]
        assert all(distance(f, e) > 8.0 for f in fps for e in enemies)
        assert not all(wholly_within_edge_strip(f, b.scenario.board) for f in fps)


def test_20_04_ingress_toward_is_the_first_legal_candidate_toward_the_point():
    """ingress_toward (the random player's arrival toward a point it draws): the first of
    ingress_candidates toward that point which the command's check accepts, found without the
    others; a different point, a different spot."""
    from sim.commands.ingress import ingress_toward
    with Battle(_spec()) as b:
        _to_red_round_2(b)
        spots = set()
        for name in ("walkers", "droppers"):
            u = b.units[name]
            for point in ((0.0, 0.0), (60.0, 0.0), (30.0, 20.0), (56.0, 44.0)):
                got = ingress_toward(b, u, [point])
                want = next(c for _a, c in ingress_candidates(b, u, [point]) if b.check(c) is None)
                assert got == want
                spots.add((name, got.to[0][1:]))
        assert len(spots) >= 5


def test_20_04_the_random_players_arrivals_are_accepted_and_spread():
    """The random player's ingress: accepted by the check, and where it arrives depends on the
    point it draws (its own stream): different seeds, different spots."""
    from sim.players.random_player import RandomPlayer
    seen = set()
    for seed in range(6):
        with Battle(_spec()) as b:
            _to_red_round_2(b)
            p = RandomPlayer(0, b, b.scenario)
            p.rng.seed(seed)
            cmd = p._ingress(b, b.units["walkers"])
            assert cmd is not None and b.check(cmd) is None
            seen.add(cmd.to[0][1:])
    assert len(seen) >= 3

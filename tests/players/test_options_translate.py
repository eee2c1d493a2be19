"""The players' whole-unit shifts (sim.players.options.translate): every living model of the unit
moved by one vector, each place on the grid, from where the models stand now. What it keeps
between calls (the places, on the spatial index while its version stands) must follow every
move, removal and set-up, and a fork's own table."""

from __future__ import annotations

from pathlib import Path

import esper

from sim.battle import Battle
from sim.components import Position, Wounds
from sim.players import options as O
from sim.rules.grid import snap
from sim.scenario.load import load_scenario
from sim.world import mutations as M
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


def fresh(u: int, dx: float, dy: float) -> tuple:
    """translate's answer worked out from the components now, as it read them before it kept any."""
    out = []
    for m in W.unit_models(u):
        p = esper.component_for_entity(m, Position)
        out.append((W.model_id(m), snap(p.x + dx), snap(p.y + dy)))
    return tuple(out)


def shown(to) -> list:
    return [(m, repr(x), repr(y)) for m, x, y in to]


def test_translate_follows_moves_removals_and_forks():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    with Battle(spec, seed=1) as b:
        b._enter()
        u, v = [u for u in W.all_units() if len(W.unit_models(u)) > 2][:2]
        shifts = [(0.0, 0.0), (1.25, -0.5), (-3.0000004, 2.0000006)]
        for dx, dy in shifts:
            assert shown(O.translate(b, u, dx, dy)) == shown(fresh(u, dx, dy))
        # its models moved (a validated move's mutation): the places it kept are stale
        M.move_models([(m, W.footprint(m).x + 0.75, W.footprint(m).y - 0.25) for m in W.unit_models(u)])
        for dx, dy in shifts:
            assert shown(O.translate(b, u, dx, dy)) == shown(fresh(u, dx, dy))
        # another unit moved: this one's places stand, and read the same
        M.move_models([(m, W.footprint(m).x + 0.5, W.footprint(m).y) for m in W.unit_models(v)])
        assert shown(O.translate(b, u, 1.0, 1.0)) == shown(fresh(u, 1.0, 1.0))
        # one of its models destroyed and removed: it is left out
        gone = W.unit_models(u)[1]
        esper.component_for_entity(gone, Wounds).remaining = 0
        M.mark_destroyed(gone, "test")
        M.remove_casualties([gone])
        got = O.translate(b, u, 1.0, 1.0)
        assert W.model_id(gone) not in [m for m, _x, _y in got]
        assert shown(got) == shown(fresh(u, 1.0, 1.0))
        # a fork reads its own table, and a move in it is its own
        with b.fork() as f:
            f._enter()
            assert shown(O.translate(f, u, 2.0, 0.0)) == shown(fresh(u, 2.0, 0.0))
            M.move_models([(m, W.footprint(m).x - 1.0, W.footprint(m).y) for m in W.unit_models(u)])
            assert shown(O.translate(f, u, 2.0, 0.0)) == shown(fresh(u, 2.0, 0.0))
        b._enter()
        assert shown(O.translate(b, u, 2.0, 0.0)) == shown(fresh(u, 2.0, 0.0))

"""18.04 / 18.05 The layouts a disembarking unit is set up in come from the one placement solver
(sim.rules.movement.solvers.placement, regions ``disembark`` and ``emergency_disembark``):
an emergency disembark as close as possible to the transport, engaged only where no unengaged
set-up exists, the models that find no room destroyed; a Rapid disembark after the transport's
ingress within 20.04's limits too (18.04.01). Forced dice throughout."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "commands"))

from phased import model, unit  # noqa: E402
from scen import of_type  # noqa: E402
from test_18_02_18_05_embark_disembark import _rhino, _ring, _spec, _squad, _to_blue_shooting  # noqa: E402

from sim import events as ev  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.commands import EndPhase, Ingress, Selection, Shoot, StartBattle, default_disembark  # noqa: E402
from sim.plan import transport as PT  # noqa: E402
from sim.rules import transport as TR  # noqa: E402
from sim.rules.coherency import coherency_problems  # noqa: E402
from sim.rules.deployment import edge_gaps  # noqa: E402
from sim.rules.geometry import distance, footprint  # noqa: E402
from sim.rules.dice import ForcedDice  # noqa: E402
from sim.world import queries as W  # noqa: E402

CORNER = (1.98, 1.98)  # the rhino (a 100 mm base) in the south-west corner
KILL = [4, 4, 1]  # the lance: hit 4, wound 4, save 1 (it deals 12 damage)


def _rhino_fp(b):
    return W.footprint(b.models["rhino/1"])


def _placed(b, to):
    return [(mid, W.footprint(b.models[mid]).moved(x, y)) for mid, x, y in to]


def test_18_05_as_close_as_possible_every_layout_touches_the_transport():
    """In the open, each layout offered has a model (all but) touching the transport, every
    model wholly within 6" of it, the unit coherent and on no other base."""
    with Battle(_spec(red=[_rhino(), _squad(3)]), dice=ForcedDice([])) as b:
        _to_blue_shooting(b)
        b._enter()
        found = PT.layouts(b, b.units["squad"], b.units["rhino"], TR.DisembarkMode.EMERGENCY)
        assert len(found) >= 2 and len({n for n, _p in found}) == len(found)
        t = _rhino_fp(b)
        for _name, places in found:
            assert len(places) == 3
            fps = _placed(b, [(m, x, y) for m, (x, y) in places.items()])
            assert min(distance(f, t) for _m, f in fps) < 0.02
            assert all(TR.reach(f, [t]) <= 6 + 1e-6 for _m, f in fps)
            assert not coherency_problems(fps)
            assert all(distance(f, g) > 0 for i, (_m, f) in enumerate(fps) for _n, g in fps[i + 1:])


def test_18_05_set_up_engaged_when_no_unengaged_set_up_exists():
    """An enemy arc 5.5" round the cornered rhino leaves no spot wholly within 6" of it more
    than 2" from an enemy: the squad is set up engaged (18.05), not destroyed."""
    red = [_rhino(at=CORNER), _squad(3)]
    blue = [unit("arc", model(_ring(7, *CORNER, 5.5), ["gun"])), unit("b1", model([(20, 20)], ["lance"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice(KILL + [4, 4, 4])) as b:
        _to_blue_shooting(b)
        b.run_command(Shoot("b1", (Selection("b1/1", "lance", "rhino"),)))
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "emergency disembark" and e["engaged"] == ["arc"] and len(e["to"]) == 3
        assert "destroyed" not in e


def _crowd(pocket: int):
    """Friendly units packing every spot round the cornered rhino (32 mm bases 1.4" apart, in
    four coherent blocks) but the ``pocket`` cells nearest (5, 1.5)."""
    cells = [(round(0.7 + 1.4 * i, 2), round(0.7 + 1.4 * j, 2)) for i in range(7) for j in range(7)]
    cells = [c for c in cells if math.hypot(c[0] - CORNER[0], c[1] - CORNER[1]) > 1.97 + 0.63 + 0.02]
    free = sorted(cells, key=lambda c: math.hypot(c[0] - 5.0, c[1] - 1.5))[:pocket]
    blocks: dict = {}
    for c in cells:
        if c not in free:
            blocks.setdefault((c[0] > 4, c[1] > 4), []).append(c)
    return [unit(f"wall{i}", model(v, ["gun"])) for i, v in enumerate(blocks.values())]


def test_18_05_models_that_cannot_be_set_up_are_destroyed():
    """Friendly units leave room round the cornered rhino for three of the squad's six models:
    the solver's partial placement sets three up (coherent, wholly within 6") and the other
    three are destroyed."""
    red = [_rhino(at=CORNER), _squad(6)] + _crowd(3)
    blue = [unit("b1", model([(20, 20)], ["lance"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice(KILL + [4] * 6)) as b:
        _to_blue_shooting(b)
        t = _rhino_fp(b)
        b.run_command(Shoot("b1", (Selection("b1/1", "lance", "rhino"),)))
        (e,) = of_type(b, ev.DISEMBARKED)
        assert len(e["to"]) == 3 and len(e["destroyed"]) == 3
        assert sorted([m for m, _x, _y in e["to"]] + e["destroyed"]) == [f"squad/{i}" for i in range(1, 7)]
        b._enter()
        fps = [(W.model_id(m), W.footprint(m)) for m in W.unit_models(b.units["squad"])]
        assert len(fps) == 3 and not coherency_problems(fps)
        assert all(TR.reach(f, [t]) <= 6 + 1e-6 for _m, f in fps)


def test_18_04_01_the_default_rapid_disembark_after_an_ingress_keeps_20_04s_limits():
    """The rhino comes in 3" from the west edge; the default disembark (the solver in the
    disembark region with 20.04's strip and 8" from the enemy) is accepted, every model wholly
    within 6" of a battlefield edge."""
    red = [_rhino(at=(50, 2), reserves=True), _squad(2), unit("r1", model([(30, 6), (31.5, 6)], ["gun"])),
           unit("r2", model([(40, 6), (41.5, 6)], ["gun"]))]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"]))]
    with Battle(_spec(red=red, blue=blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        ts = b.turn_state
        while (ts.round, ts.active, str(ts.phase)) != (2, 0, "movement"):
            b.run_command(EndPhase())
        b.run_command(Ingress("rhino", (("rhino/1", 3.0, 22.0),)))
        b._enter()
        cmd = default_disembark(b, b.units["squad"])
        assert cmd is not None and b.check(cmd) is None
        for mid, x, y in cmd.to:
            base = W.footprint(b.models[mid])
            fp = footprint(base.shape, x, y, base.length, base.width, base.angle)
            assert min(edge_gaps(fp, b.scenario.board).values()) >= 0
            assert x + 0.5 * base.length <= 6 + 1e-6
        b.run_command(cmd)
        (e,) = of_type(b, ev.DISEMBARKED)
        assert e["mode"] == "rapid disembark"


def test_18_04_disembark_options_limit_takes_the_first_layouts_and_searches_no_further_side(monkeypatch):
    """``disembark_options(limit=k)`` is the first k of the whole list, in order (the tactician
    keeps three), and the sides after the k-th layout found are not searched."""
    from sim.commands import disembark_options
    with Battle(_spec(red=[_rhino(), _squad(3)]), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        squad = b.units["squad"]
        searches = []
        real = PT.place_unit
        monkeypatch.setattr(PT, "place_unit", lambda *a, **k: searches.append(1) or real(*a, **k))
        towards = (0.0, 20.0)   # (west-north-west of the rhino: not the first of the sides)
        disembark_options(b, squad, towards)  # (18.04's "can be set up" searched and kept)
        searches.clear()
        every = disembark_options(b, squad, towards)
        whole = len(searches)
        assert len(every) >= 4 and whole >= len(every)
        assert every[0] != disembark_options(b, squad)[0]   # (the side towards the point first)
        for k in (1, 3):
            searches.clear()
            assert disembark_options(b, squad, towards, limit=k) == every[:k]
            assert len(searches) < whole

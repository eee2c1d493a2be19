"""sim.plan.deployment.set_up_spots works out the best set-up alone first (the placement solver's
search for one) and the other OPTIONS only when asked past it: the same set-ups in the same
order as the whole list of placement_options(count=OPTIONS), at every set-up of two whole
pre-battles (the headless players' picks toward the zone's centre; the random player's drawn
points, among crowded zones), and the first found without the rest."""

from __future__ import annotations

import random

from phased import model, unit
from sim.battle import Battle
from sim.commands.deploy import default_deploy
from sim.plan import deployment as PD
from sim.rules.dice import ForcedDice
from sim.rules.grid import snap_point
from sim.rules.movement.solvers import placement as PL

from test_26_08_deployment_spots import big_armies, formations, spec, waiting


def _whole_list(b, ent, region, pick):
    """The set-ups as set_up_spots listed them before: the solver's OPTIONS at once."""
    models, rg, others, prefer = PD._set_up_problem(b, ent, region, pick)
    return [tuple((mid, *snap_point(p.positions[mid])) for mid, _f in models)
            for p in PL.placement_options(models, rg, others, b.scenario.terrain, prefer,
                                          count=PD.OPTIONS, apart=PD.APART)]


def _crowded():
    red = [unit(f"r{i}", waiting(10 if i % 2 else 5, base_mm=25 + 15 * (i % 3))) for i in range(1, 9)]
    blue = [unit(f"b{i}", waiting(8, base_mm=32 + 8 * (i % 4))) for i in range(1, 9)]
    return spec(red, blue)


def _pre_battles(armies, picker):
    from sim.commands import StartBattle
    with Battle(armies, dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        while b.turn_state.pre_battle is not None:
            side = b.turn_state.chooser
            ent = PD.to_deploy(side)[0]
            region = b.turn_state.zones()[side]
            pick = picker()
            yield b, ent, region, pick
            cmd = default_deploy(b, ent, pick)
            assert cmd is not None
            b.run_command(cmd)


def _centre_first():
    return None


def test_set_up_spots_lists_the_solver_s_options_in_order():
    rng = random.Random(7)

    def drawn():  # (the random player's point, drawn once a set-up: the same for both lists)
        k = rng.random()
        return lambda points: points[int(k * len(points))]
    seen = 0
    for armies, picker in ((big_armies(), _centre_first), (_crowded(), drawn)):
        for b, ent, region, pick in _pre_battles(armies, picker):
            want = _whole_list(b, ent, region, pick)
            assert list(PD.set_up_spots(b, ent, region, pick)) == want
            seen += 1
    assert seen == 26


def test_the_first_set_up_is_found_without_the_others(monkeypatch):
    counts = []
    real = PL.placement_options
    monkeypatch.setattr(PL, "placement_options", lambda *a, **k: counts.append(k["count"]) or real(*a, **k))
    battles = _pre_battles(big_armies(), _centre_first)  # (kept: its battle stays open)
    b, ent, region, pick = next(battles)
    spots = PD.set_up_spots(b, ent, region, pick)
    first = next(spots)
    assert counts == [1]
    rest = list(spots)
    assert counts == [1, PD.OPTIONS] and [first] + rest == _whole_list(b, ent, region, pick)

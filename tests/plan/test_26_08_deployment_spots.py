"""26 step 8 The headless players' set-ups before the battle (sim.plan.deployment.set_up_spots)
are the placement solver's: a big unit (20 models) and large bases set up wholly within the
zone beside the units deployed before them, each spot accepted by the Deploy command's own
check; Infiltrators (24.20) more than 8" from the enemy zone and models; deterministic."""

from __future__ import annotations

from phased import WEAPONS, model, unit
from sim.battle import Battle
from sim.commands import DeclareFormations, Deploy, StartBattle
from sim.commands.deploy import default_deploy
from sim.plan import deployment as PD
from sim.rules.dice import ForcedDice
from sim.rules.geometry import distance, footprint_polygon_distance
from sim.scenario.load import parse_scenario
from sim.world import queries as W


def waiting(n: int, **kw) -> dict:
    """A model entry of ``n`` models with no positions (they wait to be deployed)."""
    m = model([(0, 0)] * n, ["gun"], **kw)
    del m["at"]
    return m


def spec(red, blue):
    m = {"deployment": "rules", "first": "red", "defender": "red"}
    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}], "mission": m}
    return parse_scenario(data, "test.toml")


def formations(b):
    for _ in range(2):  # (the Defender declares first)
        b.run_command(DeclareFormations(("red", "blue")[b.turn_state.chooser]))


def big_armies():
    red = [unit("r1", waiting(20)), unit("r2", waiting(10, base_mm=40)), unit("r3", waiting(3, base_mm=60)),
           unit("r4", waiting(1, base_mm=100)), unit("r5", waiting(10))]
    blue = [unit("b1", waiting(20)), unit("b2", waiting(10)), unit("b3", waiting(5, base_mm=50)),
            unit("b4", waiting(1, base_mm=100)), unit("b5", waiting(10))]
    return spec(red, blue)


def test_26_08_the_default_players_set_up_every_unit_by_the_solver_and_the_check_accepts_it():
    with Battle(big_armies(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        while b.turn_state.pre_battle is not None:
            side = b.turn_state.chooser
            u = PD.to_deploy(side)[0]
            cmd = default_deploy(b, u)
            assert cmd is not None, esper_id(b, u)
            assert b.check(cmd) is None
            b.run_command(cmd)
        zones = b.turn_state.zones()
        for uid, ent in b.units.items():
            owner = 0 if uid.startswith("r") else 1
            for m in W.unit_models(ent):
                fp = W.footprint(m)
                assert footprint_polygon_distance(fp, zones[owner]) == 0.0


def esper_id(b, ent):
    return next(uid for uid, e in b.units.items() if e == ent)


def test_26_08_the_set_ups_offered_are_the_same_every_time():
    got = []
    for _ in range(2):
        with Battle(big_armies(), dice=ForcedDice([])) as b:
            b.run_command(StartBattle())
            formations(b)
            zone = b.turn_state.zones()[0]
            got.append(list(PD.set_up_spots(b, b.units["r1"], zone)))
    assert got[0] == got[1] and len(got[0]) > 1


def test_24_20_infiltrators_are_set_up_by_the_solver_more_than_8_from_the_enemy():
    red = [unit("r1", waiting(2)), unit("r2", waiting(5), abilities="Infiltrators")]
    blue = [unit("b1", waiting(2)), unit("b2", waiting(2))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        b.run_command(Deploy("r1", tuple((f"r1/{i + 1}", 10.0 + 1.5 * i, 6.0) for i in range(2))))
        b.run_command(Deploy("b1", tuple((f"b1/{i + 1}", 30.0 + 1.5 * i, 33.0) for i in range(2))))
        spots = list(PD.set_up_spots(b, b.units["r2"], PD.battlefield(b)))
        assert spots
        enemy_zone = b.turn_state.zones()[1]
        enemies = [W.footprint(m) for m in W.unit_models(b.units["b1"])]
        for to in spots:
            assert b.check(Deploy("r2", to)) is None
            for mid, x, y in to:
                fp = W.footprint(b.models[mid]).moved(x, y)
                assert footprint_polygon_distance(fp, enemy_zone) > 8.0
                assert all(distance(fp, e) > 8.0 for e in enemies)


def test_03_01_a_vehicle_that_fits_its_zone_only_turned_is_set_up_turned():
    """A 15" x 3" hull standing along y (its scenario facing, 90 degrees) is deeper than the
    zone; set up at its own facing it fits nowhere, so the default player turns it (its set-ups
    at its own facing tried first: a unit that fits as it stands is set up as before)."""
    long = waiting(1)
    del long["base_mm"]
    long.update(base=[381, 76.2], shape="rect", angle=90)
    red = [unit("r1", long, keywords=["VEHICLE"])]
    blue = [unit("b1", waiting(5))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        while b.turn_state.chooser != 0:
            b.run_command(default_deploy(b, PD.to_deploy(1)[0]))
        zone = b.turn_state.zones()[0]
        assert list(PD.set_up_spots(b, b.units["r1"], zone)) == [] or all(
            b.check(Deploy("r1", to)) is not None for to in PD.set_up_spots(b, b.units["r1"], zone))
        cmd = default_deploy(b, b.units["r1"])
        assert cmd is not None and cmd.face and cmd.face[0][0] == "r1/1"
        assert cmd.face[0][1] % 180 != 90.0
        b.run_command(cmd)
        assert footprint_polygon_distance(W.footprint(b.models["r1/1"]), zone) == 0.0

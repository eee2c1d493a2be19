"""The importer sets a whole army up by the placement solver (sim.importers.scenario.place):
a 2,085-point roster of 17 units (20 infantry with a leader among them, vehicles on ovals and
rectangles, a 170 mm oval) fits its deployment zone (the shelves of blocks refused it, 9 of
17 placed); an army that cannot fit is refused with the solver's reason. The army is the
project's own invention (names, numbers)."""

import tomllib

import pytest

from sim.errors import ImportFileError
from sim.importers import model as M
from sim.importers.scenario import scenario_text
from sim.rules.coherency import is_coherent
from sim.rules.deployment import setup_problems
from sim.scenario.load import parse_scenario

GUN = M.Weapon("Glow rifle", 24, "1", 4, 4, 0, "1")


def _m(name, count, base, role="bodyguard"):
    return M.Model(name, count, 5, 4, 4, 1, 7, 1, None, base, ("Glow rifle",), role=role)


def rnd(mm):
    return M.Base("round", mm, mm)


def roster() -> list[M.Unit]:
    """17 units, 2,085 points: the size of a real army that the shelves could not place."""
    u = [M.Unit("husk-line", "Husk Line", (_m("Husk Lord", 1, rnd(40), "leader"), _m("Husk", 20, rnd(32))), points=290),
         M.Unit("husk-line-2", "Husk Line", (_m("Husk", 10, rnd(32)),), points=100),
         M.Unit("gilded-guard", "Gilded Guard", (_m("Gilded", 10, rnd(32)),), points=150),
         M.Unit("stalkers", "Stalkers", (_m("Stalker", 5, rnd(40)),), points=120),
         M.Unit("reavers", "Reavers", (_m("Reaver", 6, rnd(50)),), points=180),
         M.Unit("coil-wraiths", "Coil Wraiths", (_m("Coil Wraith", 3, rnd(60)),), points=170),
         M.Unit("skimmers", "Skimmers", (_m("Skimmer", 3, M.Base("oval", 90, 52)),), points=120),
         M.Unit("barge", "Barge", (_m("Barge", 1, M.Base("oval", 105, 70)),), points=115),
         M.Unit("ark", "Doom Ark", (_m("Doom Ark", 1, M.Base("oval", 170, 105)),), points=200),
         M.Unit("crawler", "Crawler", (_m("Crawler", 1, M.Base("rect", 150, 90)),), points=130),
         M.Unit("crawler-2", "Crawler", (_m("Crawler", 1, M.Base("rect", 150, 90)),), points=130),
         M.Unit("scarabs", "Scarab Swarm", (_m("Swarm", 4, rnd(40)),), points=80),
         M.Unit("watcher", "Watcher", (_m("Watcher", 1, rnd(50)),), points=60),
         M.Unit("seer", "Seer", (_m("Seer", 1, rnd(40)),), points=70),
         M.Unit("herald", "Herald", (_m("Herald", 1, rnd(40)),), points=65),
         M.Unit("engineer", "Engineer", (_m("Engineer", 1, rnd(40)),), points=75),
         M.Unit("sentinels", "Sentinels", (_m("Sentinel", 3, rnd(60)),), points=30)]
    assert len(u) == 17 and sum(x.points for x in u) == 2085
    return u


def test_a_2085_point_roster_of_17_units_is_placed_in_its_zone():
    text = scenario_text(roster(), {"Glow rifle": GUN}, "red", None, "army.ros", "Big")
    spec = parse_scenario(tomllib.loads(text), "army.ros")
    red = [u for u in spec.units if u.owner == 0]
    assert len(red) == 17 and sum(len(u.models) for u in red) == 73
    from sim.rules.geometry import Footprint
    fps = {u.id: [(m.id, Footprint(m.shape, m.x, m.y, m.length, m.width, m.angle)) for m in u.models] for u in red}
    everything = [p for ms in fps.values() for p in ms]
    for uid, ms in fps.items():
        assert is_coherent(ms), uid
        assert setup_problems(ms, [p for p in everything if p not in ms], ()) == []


def test_an_army_too_big_for_its_zone_is_refused_with_the_room_missing(tmp_path):
    huge = roster() * 3
    huge = [M.Unit(f"{u.id}-{k}", u.name, u.models, points=u.points) for k, u in enumerate(huge)]
    with pytest.raises(ImportFileError) as e:
        scenario_text(huge, {"Glow rifle": GUN}, "red", None, "army.ros", "Huge")
    msg = str(e.value)
    assert "an army that fits in its deployment zone" in msg
    assert "units placed" in msg and "sq in free" in msg and "the unit's bases need" in msg

"""13.08 Benefit of cover, per attacking model; 24.33 Stealth, 10.07 indirect, 24.18 [IGNORES COVER]."""

from sim.rules.geometry import round_base
from sim.rules.visibility.sight import benefit_of_cover, cover_qualifies
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import box_area, rect

WALL = box_area("wall", rect(10, 0, 11, 10))
VEH = frozenset({"VEHICLE"})


def test_benefit_of_cover_flags():
    assert benefit_of_cover([True, True], False, False, False)
    assert not benefit_of_cover([True, False], False, False, False)
    assert not benefit_of_cover([], False, False, False)
    assert benefit_of_cover([False], True, False, False)        # Stealth
    assert benefit_of_cover([False], False, True, False)        # indirect shooting
    assert not benefit_of_cover([True], True, True, True)       # [IGNORES COVER] beats all


def test_cover_qualifies():
    assert cover_qualifies({"INFANTRY"}, True, True)
    assert not cover_qualifies({"VEHICLE"}, True, True)
    assert cover_qualifies({"VEHICLE"}, False, False)


def test_cover_per_attacking_model():
    # two vehicle models behind the top end of a wall; attacker A1 looks down from the north
    # (sees them fully), attacker A2 looks along the wall from the west (walls hide their lower
    # part): the unit has cover against A2's attacks only
    models = [
        ModelEntry("red/a1", round_base(32, 16, 20), "red", "red", VEH),
        ModelEntry("red/a2", round_base(32, 5, 9.7), "red", "red", VEH),
        ModelEntry("blue/1", round_base(32, 16, 9.7), "blue", "blue", VEH),
        ModelEntry("blue/2", round_base(32, 18, 9.7), "blue", "blue", VEH),
    ]
    idx = VisibilityIndex([WALL], models)
    assert idx.unit_visible("red/a1", "blue") and idx.unit_visible("red/a2", "blue")
    assert idx.unit_cover_flags("red/a1", "blue") == [False, False]
    assert idx.unit_cover_flags("red/a2", "blue") == [True, True]
    assert idx.unit_fully_visible("red/a1", "blue")
    assert not idx.unit_fully_visible("red/a2", "blue")
    assert not benefit_of_cover(idx.unit_cover_flags("red/a1", "blue"), False, False, False)
    assert benefit_of_cover(idx.unit_cover_flags("red/a2", "blue"), False, False, False)


def test_infantry_within_an_area_has_cover_even_fully_visible():
    crater = box_area("crater", rect(14, 14, 20, 18), category="exposed")
    models = [
        ModelEntry("red/1", round_base(32, 5, 16), "red", "red", VEH),
        ModelEntry("blue/1", round_base(32, 17, 16), "blue", "blue", frozenset({"INFANTRY"})),
        ModelEntry("blue/2", round_base(32, 17, 16), "blue2", "blue2", VEH),
    ]
    idx = VisibilityIndex([crater], models)
    assert idx.is_fully_visible("red/1", "blue/1")
    assert idx.has_cover("red/1", "blue/1")
    assert not idx.has_cover("red/1", "blue/2")

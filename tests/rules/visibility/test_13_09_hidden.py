"""13.09 Hidden, 13.11.01 gone to ground, 24.24 Lone Operative, via the pure predicates and
the VisibilityIndex."""

import pytest

from sim.rules.geometry import round_base
from sim.rules.terrain import place
from sim.rules.visibility.sight import (
    clamp_range, detection_range, hidden_allows, is_hidden, lone_operative_allows, visible_to,
)
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

D32 = 32 / 25.4
RUINS = place("ruins", 30, 22)              # area x 25..35, y 19..25
INF = frozenset({"INFANTRY"})


def test_is_hidden_predicate():
    assert is_hidden({"INFANTRY"}, True, False)
    assert is_hidden({"BEASTS", "CHARACTER"}, True, False)
    assert not is_hidden({"VEHICLE"}, True, False)
    assert not is_hidden({"INFANTRY"}, False, False)
    assert not is_hidden({"INFANTRY"}, True, True)


def test_detection_range_and_clamp():
    assert detection_range() == 15
    assert detection_range(gone_to_ground=True) == 12
    assert detection_range(base=10, gone_to_ground=True) == 9
    assert clamp_range(40) == 30 and clamp_range(3) == 9
    assert hidden_allows(15.0, True, 15.0) and not hidden_allows(15.01, True, 15.0)
    assert hidden_allows(99, False, 15.0)


def index(target_at, observer_at, attacked=False, lone=None, attached=False, kw=INF):
    models = [
        ModelEntry("red/1", round_base(32, *observer_at), "red", "red", INF),
        ModelEntry("blue/1", round_base(32, *target_at), "blue", "blue", kw, lone, attached),
    ]
    idx = VisibilityIndex([RUINS], models)
    if attacked:
        idx.set_unit_made_ranged_attacks("blue", True)
    return idx


@pytest.mark.parametrize("gap,seen", [(14.0, True), (15.0, True), (16.0, False)])
def test_hidden_infantry_in_ruins_seen_only_within_15(gap, seen):
    target = (27.0, 24.0)                   # open top-left part of the ruin, within its area
    idx = index(target, (27.0 - gap - D32, 24.0))
    assert idx.los[0, 1]                    # terrain line of sight exists either way
    assert idx.hidden[1]
    assert idx.is_visible("red/1", "blue/1") is seen
    assert idx.is_visible("blue/1", "red/1")    # hidden is not symmetric


def test_hidden_unit_that_shot_is_visible_at_16():
    idx = index((27.0, 24.0), (27.0 - 16.0 - D32, 24.0), attacked=True)
    assert not idx.hidden[1] and idx.is_visible("red/1", "blue/1")
    idx.set_unit_made_ranged_attacks("blue", False)
    assert not idx.is_visible("red/1", "blue/1")


def test_vehicle_in_ruins_is_not_hidden():
    idx = index((27.0, 24.0), (27.0 - 16.0 - D32, 24.0), kw=frozenset({"VEHICLE"}))
    assert idx.is_visible("red/1", "blue/1")


def test_gone_to_ground_behind_a_wall_cuts_detection_to_12():
    # target inside the ruin just past the top end of its west wall (x 25..25.5, y 19..22.5);
    # observer due west: the wall hides the lower part of the base
    target = (26.5, 22.3)
    for gap, seen in ((11.5, True), (13.5, False)):
        idx = index(target, (26.5 - gap - D32, 22.3))
        assert idx.los[0, 1] and not idx.fully_visible[0, 1]
        assert idx.is_visible("red/1", "blue/1") is seen
    idx = index(target, (26.5 - 13.5 - D32, 22.3))
    _ = idx.visible
    assert not idx.full_dense[0, 1]         # gone to ground was worked out for this pair
    # same distance, but in plain view of the wall-free north side: still hidden, not gone to
    # ground, so seen at 13.5"
    idx = index((27.0, 24.0), (27.0 - 13.5 - D32, 24.0))
    assert idx.is_visible("red/1", "blue/1")


def test_lone_operative_predicate():
    assert lone_operative_allows(11.9, 12, False)
    assert not lone_operative_allows(12.1, 12, False)
    assert lone_operative_allows(12.1, 12, True)        # attached: no effect
    assert lone_operative_allows(99, None, False)
    assert not visible_to(True, True, 12.1, lone_operative_x=12)
    assert visible_to(True, False, 12.1, lone_operative_x=12)   # friendly observers unaffected


@pytest.mark.parametrize("gap,seen", [(11.9, True), (12.1, False)])
def test_lone_operative_in_the_open(gap, seen):
    idx = index((50.0, 10.0), (50.0 - gap - D32, 10.0), lone=12)
    assert idx.los[0, 1]
    assert idx.is_visible("red/1", "blue/1") is seen


def test_lone_operative_in_attached_unit_seen_at_12_1():
    idx = index((50.0, 10.0), (50.0 - 12.1 - D32, 10.0), lone=12, attached=True)
    assert idx.is_visible("red/1", "blue/1")

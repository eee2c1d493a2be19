"""13.11 Solid, 13.10 Obscuring, 13.08 cover and 13.11.01 gone to ground with dense feature heights
(Part A ruling 12; README "Our own rulings"): a dense feature the scenario gives a height of 2"
or less is low, and a sight line passes over it; one taller, or given no height, blocks every
sight line crossing it. Its terrain area still obscures (13.10) and still hides (13.09). Each
layout is one where the height decides the answer."""

from __future__ import annotations

import pytest

from sim.rules.geometry import round_base
from sim.rules.terrain import Feature, TerrainArea
from sim.rules.visibility.index import ModelEntry, VisibilityIndex
from sim.rules.visibility.sight import (TerrainBlockers, model_fully_visible, model_fully_visible_dense,
                                        model_visible)

RUIN = ((10.0, 10.0), (20.0, 10.0), (20.0, 16.0), (10.0, 16.0))
SPLIT = ((14.8, 10.0), (15.2, 10.0), (15.2, 16.0), (14.8, 16.0))    # wall across the whole ruin
STUB = ((14.8, 12.8), (15.2, 12.8), (15.2, 13.2), (14.8, 13.2))     # a short wall, hides part of a base


def ruin(height, wall=SPLIT):
    return TerrainBlockers.build([TerrainArea("ruin", RUIN, (Feature("dense", wall, height),))])


INSIDE = round_base(32, 12, 13)        # within the ruin: its area is ignored, its walls are not
BEYOND = round_base(32, 25, 13)        # outside it, across the wall
AWAY = round_base(32, 5, 13)           # outside it on the other side


def test_feature_heights_low_tall_and_blocks_sight():
    assert Feature("dense", SPLIT, 2.0).low and not Feature("dense", SPLIT, 2.0).blocks_sight
    assert not Feature("dense", SPLIT, 2.01).low and Feature("dense", SPLIT, 2.01).blocks_sight
    assert not Feature("dense", SPLIT).low and Feature("dense", SPLIT).blocks_sight     # ruling 12
    assert not Feature("light", SPLIT).blocks_sight


@pytest.mark.parametrize("height,seen", [(None, False), (6.0, False), (2.01, False), (2.0, True), (0.5, True)])
def test_13_11_a_sight_line_passes_over_a_dense_wall_of_2_inches_or_less(height, seen):
    blk = ruin(height)
    assert model_visible(INSIDE, BEYOND, blk) is seen
    assert model_visible(BEYOND, INSIDE, blk) is seen          # (symmetric)
    assert model_fully_visible(INSIDE, BEYOND, blk) is seen


@pytest.mark.parametrize("height", [None, 1.0])
def test_13_10_an_area_holding_only_a_low_dense_feature_still_obscures(height):
    """Neither model within the ruin: the area blocks, whatever its wall's height."""
    assert not model_visible(AWAY, BEYOND, ruin(height))
    assert TerrainArea("ruin", RUIN, (Feature("dense", SPLIT, height),)).obscuring


def test_13_08_a_low_wall_hides_no_part_of_a_target_a_tall_one_does():
    """13.08 (b): the short wall hides part of the target's base if it is tall (visible, not
    fully visible: the benefit of cover), none of it if it is low."""
    tall, low = ruin(None, STUB), ruin(1.5, STUB)
    assert model_visible(BEYOND, INSIDE, tall) and not model_fully_visible(BEYOND, INSIDE, tall)
    assert model_visible(BEYOND, INSIDE, low) and model_fully_visible(BEYOND, INSIDE, low)


def test_13_11_01_a_low_wall_never_sends_a_model_to_ground():
    """Gone to ground needs a Solid feature hiding the model: a low one hides nothing."""
    assert not model_fully_visible_dense(BEYOND, INSIDE, ruin(None))
    assert model_fully_visible_dense(BEYOND, INSIDE, ruin(2.0))


@pytest.mark.parametrize("height,seen", [(None, False), (2.0, True)])
def test_06_01_the_index_reads_the_height_as_the_rule_does(height, seen):
    """The battle's VisibilityIndex (the batch engine) gives the scalar rule's answer. With
    13.09 on top: the INFANTRY model within the ruin is hidden, but the enemy is within its 15"
    detection range (11.74"), so only the wall decides."""
    areas = [TerrainArea("ruin", RUIN, (Feature("dense", SPLIT, height),))]
    idx = VisibilityIndex(areas, [ModelEntry("r", INSIDE, "red", "r", frozenset({"INFANTRY"})),
                                  ModelEntry("b", BEYOND, "blue", "b", frozenset({"VEHICLE"}))])
    assert bool(idx.los[0, 1]) is seen and bool(idx.visible[1, 0]) is seen
    assert bool(idx.hidden[0])               # 13.09: an area holding a dense feature, low or not

"""13.10 Obscuring terrain areas and 13.11 Solid features (plan view, Part A ruling 2)."""

from sim.rules.geometry import round_base
from sim.rules.terrain import place
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible, model_visible

# woods: area = its light feature, x 26..34, y 19..25 around (30, 22)
WOODS = place("woods", 30, 22)
# ruins at (30, 22): area x 25..35, y 19..25; walls along the bottom/left and top/right
RUINS = place("ruins", 30, 22)


def test_models_either_side_of_woods_cannot_see_each_other():
    b = TerrainBlockers.build([WOODS])
    assert not model_visible(round_base(32, 20, 22), round_base(32, 40, 22), b)


def test_model_inside_woods_sees_and_is_seen():
    b = TerrainBlockers.build([WOODS])
    inside = round_base(32, 31, 22)
    outside = round_base(32, 20, 22)
    assert model_visible(outside, inside, b) and model_visible(inside, outside, b)
    # and a model inside sees through to the far side (the area it is within is ignored)
    assert model_visible(inside, round_base(32, 40, 22), b)


def test_line_passing_beside_woods_is_not_obscured():
    b = TerrainBlockers.build([WOODS])
    assert model_visible(round_base(32, 20, 27), round_base(32, 40, 27), b)


def test_model_behind_ruin_vs_inside_it():
    b = TerrainBlockers.build([RUINS])
    observer = round_base(32, 15, 23)
    behind = round_base(32, 40, 23)
    inside = round_base(32, 27, 23.5)       # within the area, in the open top-left corner
    assert not model_visible(observer, behind, b)
    assert model_visible(observer, inside, b)
    assert model_fully_visible(observer, inside, b)


def test_inside_ruin_behind_its_wall_is_blocked_by_the_wall():
    b = TerrainBlockers.build([RUINS])
    observer = round_base(32, 30, 14)       # south of the ruin, outside it
    inside = round_base(32, 27, 20.5)       # within, just north of the south wall (y 19..19.5)
    # the area is ignored (target within) but the dense south wall still blocks
    assert not model_visible(observer, inside, b)


def test_both_inside_the_same_ruin_see_each_other():
    b = TerrainBlockers.build([RUINS])
    assert model_visible(round_base(32, 27, 23.5), round_base(32, 32, 21), b)


def test_light_barricade_blocks_models_beyond_it_but_not_one_touching_it():
    bar = place("barricade", 30, 22, 90)    # light, 0.6 x 4 at x 29.7..30.3, y 20..24
    b = TerrainBlockers.build([bar])
    assert not model_visible(round_base(32, 25, 22), round_base(32, 35, 22), b)
    touching = round_base(25.4, 30.8, 22)   # edge at x 30.3: within the barricade's area
    assert model_visible(round_base(32, 25, 22), touching, b)


def test_exposed_craters_never_block():
    b = TerrainBlockers.build([place("crater field", 30, 22)])
    assert model_fully_visible(round_base(32, 20, 22), round_base(32, 40, 22), b)

"""13.01-13.05 terrain areas and features: validation, library pieces, default table, within."""

import numpy as np
import pytest

from sim.rules.geometry import round_base
from sim.rules.polygons import convex_pieces, point_in_polygon
from sim.rules.terrain import (
    PIECE_HEIGHTS, TERRAIN_LIBRARY, Feature, TerrainArea, default_table, model_within_area, place,
    validate_terrain,
)

SQ = ((10.0, 10.0), (20.0, 10.0), (20.0, 16.0), (10.0, 16.0))


def area(poly=SQ, feats=None):
    return TerrainArea("a", tuple(poly), tuple(feats if feats is not None else [Feature("dense", tuple(poly))]))


def test_valid_area_has_no_problems():
    assert validate_terrain([area()]) == []


def test_self_intersecting_polygon():
    bow = ((10, 10), (20, 16), (20, 10), (10, 16))
    probs = validate_terrain([area(SQ, [Feature("light", bow)])])
    assert [p.path for p in probs] == ["terrain[0].features[0].polygon"]
    assert "simple" in probs[0].expected


def test_too_few_points_and_zero_area():
    probs = validate_terrain([area(((1, 1), (2, 2)), [Feature("dense", ((1, 1), (2, 2), (3, 3)))])])
    paths = {p.path: p for p in probs}
    assert "at least 3" in paths["terrain[0].polygon"].expected
    assert "non-zero area" in paths["terrain[0].features[0].polygon"].expected


def test_feature_outside_its_area():
    feat = Feature("dense", ((18, 11), (22, 11), (22, 12), (18, 12)))
    probs = validate_terrain([area(SQ, [feat])])
    assert [p.path for p in probs] == ["terrain[0].features[0].polygon"]
    assert "inside area" in probs[0].expected


def test_feature_cutting_a_concave_corner_is_outside():
    ell = ((0, 0), (6, 0), (6, 2), (2, 2), (2, 6), (0, 6))
    feat = Feature("light", ((1, 1), (5, 1), (1, 5)))      # hypotenuse passes outside the L
    probs = validate_terrain([TerrainArea("l", ell, (feat,))])
    assert [p.path for p in probs] == ["terrain[0].features[0].polygon"]


def test_area_off_the_board():
    off = ((55, 40), (62, 40), (62, 43), (55, 43))
    probs = validate_terrain([area(off)])
    assert probs[0].path == "terrain[0].polygon" and "board" in probs[0].expected


def test_unknown_category():
    probs = validate_terrain([area(SQ, [Feature("lava", SQ)])])
    assert [p.path for p in probs] == ["terrain[0].features[0].category"]


def test_obscuring_and_solid():
    assert area().obscuring
    assert area(SQ, [Feature("light", SQ)]).obscuring
    assert not area(SQ, [Feature("exposed", SQ)]).obscuring
    assert [f.category for f in area().solid_features] == ["dense"]


@pytest.mark.parametrize("name", sorted(TERRAIN_LIBRARY))
@pytest.mark.parametrize("rot", [0, 37, 90, 180])
def test_library_pieces_are_valid(name, rot):
    assert validate_terrain([place(name, 30, 22, rot)]) == []


def test_library_kinds():
    assert place("ruins", 30, 22).obscuring and len(place("ruins", 30, 22).solid_features) == 2
    assert place("woods", 30, 22).obscuring and not place("woods", 30, 22).solid_features
    assert not place("crater field", 30, 22).obscuring
    c = place("armoured container", 30, 22)
    assert c.features[0].polygon == c.polygon and c.features[0].solid
    b = place("barricade", 30, 22)
    assert b.features[0].category == "light"
    with pytest.raises(KeyError):
        place("castle", 1, 1)


@pytest.mark.parametrize("height,ok", [(None, True), (2, True), (0.5, True), (100.0, True), (0.0, False),
                                       (-1.0, False), (100.5, False), (float("inf"), False),
                                       (float("nan"), False), (True, False), ("2", False)])
def test_12_a_dense_feature_height_is_inches_above_0_and_at_most_100(height, ok):
    probs = validate_terrain([area(SQ, [Feature("dense", SQ, height)])])
    assert (probs == []) == ok
    if not ok:
        assert [p.path for p in probs] == ["terrain[0].features[0].height"]
        assert "above 0 and at most 100" in probs[0].expected


@pytest.mark.parametrize("category", ["light", "exposed"])
def test_12_only_a_dense_feature_has_a_height(category):
    (p,) = validate_terrain([area(SQ, [Feature(category, SQ, 2.0)])])
    assert p.path == "terrain[0].features[0].height" and "only on a dense feature" in p.expected
    assert p.found == f"a height on a {category} feature"


def test_12_library_pieces_carry_the_height_of_their_dense_features():
    assert {f.height for f in place("ruins", 30, 22).features} == {PIECE_HEIGHTS["ruins"]} == {5.0}
    assert place("armoured container", 30, 22).features[0].height == PIECE_HEIGHTS["armoured container"] == 3.0
    low = place("ruins", 30, 22, 90, height=1.5)
    assert [f.height for f in low.features] == [1.5, 1.5] and all(f.low for f in low.features)
    assert low.polygon == place("ruins", 30, 22, 90).polygon and validate_terrain([low]) == []
    assert place("woods", 30, 22).features[0].height is None
    with pytest.raises(ValueError, match="no dense feature"):
        place("woods", 30, 22, height=2.0)
    table = default_table()
    assert {f.height for a in table for f in a.features if f.solid} == {5.0, 3.0}
    assert not any(f.low for a in table for f in a.features)    # (the default table: every dense feature tall)


def test_default_table_valid_mirrored():
    t = default_table()
    assert 10 <= len(t) <= 12
    assert validate_terrain(t) == []
    for a, b in zip(t[0::2], t[1::2]):
        pa = np.array(a.polygon)
        pb = np.array(b.polygon)
        assert np.allclose(np.array([60, 44]) - pa, pb, atol=1e-6)


def test_model_within_area_any_part_of_base():
    a = area()
    assert model_within_area(round_base(32, 15, 13), a)               # inside
    assert model_within_area(round_base(32, 20.5, 13), a)             # overlaps the edge
    assert model_within_area(round_base(25.4, 20.5, 13), a)           # touches the edge
    assert not model_within_area(round_base(25.4, 20.51, 13), a)


def test_model_within_area_box_test_answers_as_the_distance():
    """model_within_area's box test (a base whose bounding circle lies off the area's box
    is not within it, unmeasured) answers as the distance alone does: bases of every shape and
    angle around areas of the default table, many just off a box edge (from a fraction of
    EPS to 1e-3 off touching it), some over it; areas given as tuples (kept) and as lists (measured each
    time)."""
    from sim.rules.geometry import EPS, Footprint, footprint_polygon_distance
    rng = np.random.default_rng(3)
    areas = default_table()
    near = far = 0
    for a in areas:
        poly = np.array(a.polygon, float)
        lo, hi = poly.min(axis=0), poly.max(axis=0)
        for k in range(60):
            shape = ("round", "oval", "rect")[k % 3]
            length = rng.uniform(1, 5)
            width = length if shape == "round" else rng.uniform(0.5, length)
            fp = Footprint(shape, 0.0, 0.0, length, width, float(rng.uniform(0, 360)))
            x, y = rng.uniform(lo - 3, hi + 3)
            if k % 2:   # (its bounding circle just off, or just over, one side of the box)
                side = int(rng.integers(4))
                gap = fp.bounding_radius + rng.choice([-1e-6, 0.0, 0.5 * EPS, 0.9 * EPS, 1e-7, 1e-6, 1e-3])
                x = (lo[0] - gap, hi[0] + gap, x, x)[side]
                y = (y, y, lo[1] - gap, hi[1] + gap)[side]
            fp = fp.moved(x, y)
            want = footprint_polygon_distance(fp, a.polygon) <= EPS
            for area_ in (a, TerrainArea(a.name, list(a.polygon), a.features)):
                assert model_within_area(fp, area_) == want, (a.name, fp)
            near += want
            far += not want
    assert near and far


def test_convex_pieces_cover_the_open_interior():
    ell = ((0, 0), (6, 0), (6, 1), (1, 1), (1, 6), (0, 6))
    pieces = convex_pieces(ell)
    rng = np.random.default_rng(0)
    for p in rng.uniform(-0.5, 6.5, size=(3000, 2)):
        inside = point_in_polygon(p, ell) > 0
        in_piece = any(point_in_polygon(p, q) > 0 for q in pieces)
        assert inside == in_piece or point_in_polygon(p, ell) == 0
    # points on the internal diagonal(s) are inside some open piece
    for q in pieces:
        for v in q:
            for w in q:
                m = 0.5 * (v + w)
                if point_in_polygon(m, ell) > 0:
                    assert any(point_in_polygon(m, r) > 0 for r in pieces)

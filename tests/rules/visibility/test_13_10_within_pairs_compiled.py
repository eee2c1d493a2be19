"""13.10 / 13.11 pairs.within_pairs (a disc is within an area: its centre inside the outline, or
the outline within its radius + EPS) and its compiled twin (sim.rules.compiled:
``visibility.within_pairs``) give the same bits: discs on, near and just off the outlines of
random layouts and the default table (EPS either side of a radius); and the inputs the twin
leaves to the reference."""

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.terrain import default_table
from sim.rules.visibility.pairs import area_boxes, pack_area_edges, within_candidates
from sim.rules.visibility.sight import TerrainBlockers
from test_13_10_within_one_model import _discs_near

from _layouts import random_layout

KERN = C.KERNELS["visibility.within_pairs"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


@built
@pytest.mark.parametrize("seed", range(4))
def test_within_pairs_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    met = set()
    for n in range(12):
        areas = default_table() if n % 4 == 0 else random_layout(rng)[0]
        polys = TerrainBlockers.build(areas).area_polys
        edges, boxes = pack_area_edges(polys), area_boxes(polys)
        discs = _discs_near(rng, polys, 40)
        centres = np.array([(x, y) for x, y, _ in discs])
        rad = np.array([r for _, _, r in discs])
        m, a = within_candidates(centres, rad, boxes)
        args = (centres[m], rad[m], a, edges)
        got, want = KERN.compiled(*args), KERN.reference(*args)
        assert got is not None and C._same_bits(got, want)
        met.update(want.tolist())
    assert met == {True, False}


@built
def test_within_pairs_compiled_declines_what_it_does_not_take():
    polys = TerrainBlockers.build(default_table()).area_polys
    edges = pack_area_edges(polys)
    c, r, a = np.array([[10.0, 10.0]]), np.array([1.0]), np.array([0], dtype=np.intp)
    assert KERN.compiled(c, r, a, edges) is not None
    assert KERN.compiled(np.array([[np.nan, 10.0]]), r, a, edges) is None
    assert KERN.compiled(np.array([[1e200, 10.0]]), r, a, edges) is None      # (products overflow)
    assert KERN.compiled(c.astype(np.float32), r, a, edges) is None
    assert KERN.compiled(c, r, a.astype(np.int32), edges) is None
    assert KERN.compiled(c, r, np.array([len(polys)], dtype=np.intp), edges) is None
    flat = list(edges)
    flat[4] = np.zeros_like(flat[4])                                            # (edges of no length)
    assert KERN.compiled(c, r, a, tuple(flat)) is None

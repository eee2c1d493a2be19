"""01.04 geometry._round_core_distances (round bases against hull cores, all at once: the
distance rows' step for a round base and an oval or rectangular one) works in place on arrays
derived once per pack of hulls; its answers are those of the plain form (each operation of
_point_segment_dist written out, new arrays at each step) to the bit, hulls of different vertex
counts packed together (padding) and centres inside a core included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.geometry import EPS, Footprint, _hull_pack, _round_core_distances


def _plain(centres, radii, pack):
    """The plain form (the function as it was written before it worked in place)."""
    px, py, pex, pey = pack[:4]
    cx, cy = centres[:, 0][:, None, None], centres[:, 1][:, None, None]
    abx, aby = pex - px, pey - py
    apx, apy = cx - px, cy - py
    inside = (abx * apy - aby * apx >= -EPS).all(axis=2)
    dv = np.sqrt(apx * apx + apy * apy).min(axis=2)
    den = abx * abx + aby * aby
    t = np.where(den > 0, (apx * abx + apy * aby) / np.where(den > 0, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    d = np.minimum(dv, np.sqrt(dx * dx + dy * dy).min(axis=2))
    d[inside] = 0.0
    return np.maximum(d - radii[:, None], 0.0)


coord = st.floats(-20.0, 80.0, allow_nan=False, allow_infinity=False)
hull = st.tuples(st.sampled_from(("oval", "rect")), coord, coord, st.floats(1.0, 6.0), st.floats(0.5, 4.0),
                 st.floats(0.0, 180.0))


@settings(max_examples=80, deadline=None)
@given(st.lists(hull, min_size=1, max_size=6), st.lists(st.tuples(coord, coord, st.floats(0.0, 1.5)), min_size=1,
                                                        max_size=12), st.integers(0, 5))
def test_round_core_distances_are_the_plain_forms_to_the_bit(hulls, bases, inside):
    fps = tuple(Footprint(*h) for h in hulls)
    centres = np.array([(x, y) for x, y, _r in bases], dtype=float)
    radii = np.array([r for _x, _y, r in bases], dtype=float)
    k = min(inside, len(fps), len(centres))
    if k:
        centres[:k] = [(f.x, f.y) for f in fps[:k]]
    pack = _hull_pack(fps)
    got = _round_core_distances(centres, radii, pack)
    want = _plain(centres, radii, pack)
    assert got.shape == (len(bases), len(fps))
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    if inside:
        assert got[0, 0] == 0.0  # (a centre in a core: 0)

"""06.01 / 13.10 / 13.11 sim.rules.visibility.umbra._umbra_chords (the umbra certificate's
test of pairs against their observers' chords) and its compiled twin (sim.rules.compiled:
``visibility.umbra_chords``) block the same pairs: every ordered pair of bases of seeded
random layouts (dense features, woods and ruins: the pieces' activity for each pair) and of
bases about the default table's walls (touching them and each other), for sight and for the
dense features alone; and the inputs the twin leaves to the reference."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from _layouts import layout_and_bases
from sim.rules import compiled as C
from sim.rules import geometry as G
from sim.rules.terrain import default_table
from sim.rules.visibility import umbra as _umbra  # noqa: F401  (its kernel registered)
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

KERN = C.KERNELS["visibility.umbra_chords"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _index(areas, fps) -> VisibilityIndex:
    return VisibilityIndex(areas, [ModelEntry(f"m{k}", fp, "red" if k % 2 else "blue", f"u{k % 4}",
                                              frozenset({"INFANTRY"})) for k, fp in enumerate(fps)])


def _args(ix, pairs=None):
    """Every ordered pair of the index's models (or ``pairs``), each observer's index among
    them, and every piece."""
    n = len(ix.fps)
    I, J = np.nonzero(~np.eye(n, dtype=bool)) if pairs is None else pairs
    uo, oinv = np.unique(I, return_inverse=True)
    return I, J, uo, oinv, np.arange(len(ix.blk.pieces))


def _same(ix, args, dense_only) -> np.ndarray:
    got, want = KERN.compiled(ix, *args, dense_only), KERN.reference(ix, *args, dense_only)
    assert got is not None and C._same_bits(got, want)
    return want


def _walls(rng, bases: int = 24):
    """Bases about the default table's walls: each pair near a wall's corner."""
    areas = default_table()
    walls = [np.array(f.polygon, float) for a in areas for f in a.solid_features]
    fps = []
    for _ in range(bases // 2):
        w = walls[int(rng.integers(len(walls)))]
        c = w[int(rng.integers(len(w)))] + rng.normal(0, 0.5, size=2)
        fps += [G.round_base(int(rng.choice([25, 32, 40, 60])), *(c + rng.normal(0, 0.6, size=2)))
                for _ in range(2)]
    return areas, fps


@built
@pytest.mark.parametrize("seed", range(3))
def test_umbra_chords_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    blocked = []
    for _ in range(6):
        areas, fps, _blk, _within = layout_and_bases(rng, 14)
        ix = _index(areas, fps)
        for dense_only in (False, True):
            blocked += _same(ix, _args(ix), dense_only).tolist()
    assert 0.05 < np.mean(blocked) < 0.95


@built
@pytest.mark.parametrize("seed", range(2))
def test_umbra_chords_compiled_is_its_reference_about_the_walls(seed):
    rng = np.random.default_rng(50 + seed)
    areas, fps = _walls(rng)
    ix = _index(areas, fps)
    args = _args(ix)
    seen = set()
    for dense_only in (False, True):
        seen.update(_same(ix, args, dense_only).tolist())
        # (some pairs only, a few pieces only: the reference's bins and batches differ)
        keep = rng.random(len(args[0])) < 0.3
        I, J = args[0][keep], args[1][keep]
        uo, oinv = np.unique(I, return_inverse=True)
        _same(ix, (I, J, uo, oinv, np.flatnonzero(rng.random(len(ix.blk.pieces)) < 0.5)), dense_only)
    assert seen == {True, False}


def _on_edge_lines(rng):
    """Bases of up to 160 mm on a wall's corner, one in two with its centre on the line of
    the wall's edge (an edge neither faces it nor turns away), and one more base nearby each."""
    areas = default_table()
    walls = [np.array(f.polygon, float) for a in areas for f in a.solid_features]
    fps = []
    for _ in range(12):
        w = walls[int(rng.integers(len(walls)))]
        i = int(rng.integers(len(w)))
        c = w[i] + rng.normal(0, 0.3, size=2)
        if rng.random() < 0.5:
            c[0] = w[i][0]
        fps.append(G.round_base(int(rng.choice([25, 32, 60, 100, 130, 160])), *c))
        fps.append(G.round_base(int(rng.choice([25, 32, 40, 60])), *(c + rng.normal(0, 3, size=2))))
    return areas, fps


@built
@pytest.mark.parametrize("seed", [4, 21])
def test_umbra_chords_compiled_is_its_reference_on_edge_lines(seed):
    # (seed 21 holds a pair blocked or not as an edge whose line holds the observer's centre
    # counts as facing it or not, seed 4 one blocked by a non-convex sliver's chord were it
    # taken: twins that did either differed there, and nowhere else in 300 seeds)
    areas, fps = _on_edge_lines(np.random.default_rng(seed))
    ix = _index(areas, fps)
    for dense_only in (False, True):
        _same(ix, _args(ix), dense_only)


@built
def test_umbra_chords_compiled_leaves_other_inputs_to_the_reference():
    areas, fps = _walls(np.random.default_rng(9), 8)
    ix = _index(areas, fps)
    I, J, uo, oinv, ks = _args(ix)
    assert KERN.compiled(ix, I, J, uo, oinv, ks, False) is not None

    def like(**changed):
        names = ("centres", "rad", "within", "blk")
        return SimpleNamespace(**{k: changed.get(k, getattr(ix, k)) for k in names})
    n = len(fps)
    bad = [
        (like(), (I.astype(np.int32), J, uo, oinv, ks)),                      # another index type
        (like(), (I, J, uo, oinv, ks + len(ix.blk.pieces))),                  # no such piece
        (like(), (I, J, uo, oinv + len(uo), ks)),                             # no such observer
        (like(), (I, J % n + n, uo, oinv, ks)),                               # no such model
        (like(), (I, J[:-1], uo, oinv, ks)),                                  # lengths that differ
        (like(centres=ix.centres.astype(np.float32)), (I, J, uo, oinv, ks)),  # another float type
        (like(rad=np.where(np.arange(n) == 0, np.nan, ix.rad)), (I, J, uo, oinv, ks)),
        # (where the angular margin fails: a radius below 0; centres beyond a table's reach,
        # 1e10" away, where a second reader's fuzz found the reference's bins leave out a
        # target the twin blocked; and no pair, which the reference does not answer)
        (like(rad=np.where(np.arange(n) == 0, -1e-6, ix.rad)), (I, J, uo, oinv, ks)),
        (like(centres=ix.centres * 1e9), (I, J, uo, oinv, ks)),
        (like(), (I[:0], J[:0], uo[:0], oinv[:0], ks)),
        (like(), (I, J, uo, (oinv + 1) % len(uo), ks)),                 # observers that disagree
    ]
    for fake, args in bad:
        assert KERN.compiled(fake, *args, False) is None


@built
def test_umbra_chords_compiled_with_a_long_wall_whose_middle_is_far_off():
    """A long wall across the line between an observer and its target, its middle far off to
    one side: the wall's bounding circle reaches the box of their centres only near its rim
    (the twin leaves out, observer by observer, the pieces farther from that box than their
    circles reach: this one must stay)."""
    from _layouts import box_area, rect
    areas = [box_area("wall", rect(5.0, -1.0, 5.4, 20.0))]
    fps = [G.round_base(32, 0.0, 0.0), G.round_base(32, 10.0, 0.0)]
    ix = _index(areas, fps)
    for dense_only in (False, True):
        assert _same(ix, _args(ix), dense_only).all()      # (each behind the wall from the other)

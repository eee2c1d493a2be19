"""03.01 A turn's samples tested through a tree of bases (sim.rules.movement.turning.turn_tree,
used by legality.turn_blocker): every base of the tree holds the bases below it, its leaves
are turn_blocks' blocks in turning order, and turn_blocker's answers are those of testing each
block and then each sample of a block that meets something (the tree only spares the tests of
groups of blocks that meet nothing)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import core, footprint, round_base
from sim.rules.movement import legality as L
from sim.rules.movement.index import as_index, terrain_index
from sim.rules.movement.legality import Body, turn_blocker
from sim.rules.movement.turning import FAN, turn_blocks, turn_disc, turn_tree, turned
from sim.rules.terrain import Feature, TerrainArea

BOARD = (30.0, 24.0)


def _inside_convex(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    a, b = poly, np.roll(poly, -1, axis=0)
    cross = (b[:, 0] - a[:, 0])[None, :] * (pts[:, 1:2] - a[None, :, 1]) - \
        (b[:, 1] - a[:, 1])[None, :] * (pts[:, 0:1] - a[None, :, 0])
    return np.all(cross >= -1e-12, axis=1)


def _leaves(nodes):
    for n in nodes:
        if n.kids:
            yield from _leaves(n.kids)
        else:
            yield n


def _pairs(nodes):
    for n in nodes:
        for k in n.kids:
            yield n, k
        yield from _pairs(n.kids)


@pytest.mark.parametrize("shape", ["oval", "rect"])
def test_03_01_turn_tree_each_base_holds_the_bases_below_it(shape):
    rng = np.random.default_rng(829)
    deep = 0
    for _ in range(40):
        length = rng.uniform(1.0, 12.0)
        fp = footprint(shape, 0.0, 0.0, length, rng.uniform(0.4, length), rng.uniform(0, 360))
        to = fp.angle + rng.uniform(-179.0, 179.0)
        tree = turn_tree(fp, to)
        assert len(tree) <= FAN
        leaves = list(_leaves(tree))
        assert [(n.base, n.run) for n in leaves] == turn_blocks(fp, to)
        for parent, kid in _pairs(tree):
            deep += 1
            poly = np.asarray(core(parent.base)[0])
            assert _inside_convex(poly, np.asarray(core(kid.base)[0])).all(), (shape, length, fp.angle, to)
    assert deep > 100  # (the turns were long enough to make groups, and groups of groups)


def _flat(fp, angle, idx, terr, board, blockers, *, may_cross_dense, first_only=True):
    """turn_blocker as it was before the tree: each block of turn_blocks, then each sample of a
    block that meets something (the reference the tree must agree with)."""
    if not turned(fp, angle):
        return []
    here = np.array([[fp.x, fp.y], [fp.x, fp.y]])
    if not L.path_blocker(turn_disc(fp), here, idx, terr, board, blockers, may_cross_dense=may_cross_dense):
        return []
    words = f"turning to {angle:g} degrees"
    found: dict = {}
    for block, run in turn_blocks(fp, angle):
        if not L.path_blocker(block, here, idx, terr, board, blockers, may_cross_dense=may_cross_dense):
            continue
        for s in run:
            for p in L.path_blocker(s, here, idx, terr, board, blockers, may_cross_dense=may_cross_dense,
                                    first_only=False, turning=words):
                got = found.get(p[0])
                if got is None or (p[3] is not None and got[3] is not None and p[3] > got[3]):
                    found[p[0]] = p
            if found and first_only:
                break
        if found and first_only:
            break
    order = {"enemy": 0, "edge": 1, "dense": 2}
    out = sorted(found.values(), key=lambda p: order[p[0]])
    return out[:1] if first_only else out


def test_03_01_turn_blocker_through_the_tree_answers_as_block_by_block():
    """Seeded scenes: a long base near enemy bases (round and oval), a dense post and the
    battlefield edge, turned by random angles: the same problems, words and depths, asked for
    the first or for all, as the reference that tests every block."""
    rng = np.random.default_rng(2912)
    refused = clear = 0
    for _ in range(160):
        shape = ("oval", "rect")[int(rng.integers(2))]
        length = rng.uniform(3.0, 10.0)
        x, y = rng.uniform(2.0, 28.0), rng.uniform(2.0, 22.0)
        fp = footprint(shape, x, y, length, rng.uniform(0.8, 0.6 * length), rng.uniform(0, 360))
        bodies = [Body("a/1", "a", 1, fp)]
        for i in range(int(rng.integers(0, 4))):
            r = rng.uniform(0.3 * length, 0.75 * length)
            t = rng.uniform(0, 2 * np.pi)
            ex, ey = x + r * np.cos(t), y + r * np.sin(t)
            base = (round_base(32, ex, ey) if rng.random() < 0.6
                    else footprint("oval", ex, ey, 3.0, 1.8, rng.uniform(0, 180)))
            bodies.append(Body(f"b/{i + 1}", "b", 2, base))
        areas = []
        if rng.random() < 0.6:
            r = rng.uniform(0.3 * length, 0.7 * length)
            t = rng.uniform(0, 2 * np.pi)
            px, py = x + r * np.cos(t), y + r * np.sin(t)
            post = ((px, py), (px + 0.6, py), (px + 0.6, py + 0.6), (px, py + 0.6))
            areas.append(TerrainArea("post", post, (Feature("dense", post),)))
        idx = as_index(bodies)
        terr, blockers = terrain_index(areas), idx.enemies(1)
        to = fp.angle + rng.uniform(-179.0, 179.0)
        for first_only in (True, False):
            want = _flat(fp, to, idx, terr, BOARD, blockers, may_cross_dense=False, first_only=first_only)
            got = turn_blocker(fp, to, idx, terr, BOARD, blockers, may_cross_dense=False, first_only=first_only)
            assert got == want, (shape, length, x, y, fp.angle, to, first_only)
        refused += bool(want)
        clear += not want
    assert refused > 30 and clear > 30

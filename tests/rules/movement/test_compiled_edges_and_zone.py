"""03.02 / 03.02.02 / 20.04 sim.rules.movement.solvers.regions._edges_and_zone (a region's first
limits for a base at many spots: on the battlefield, touching an edge in 03.02.02's modes or
within the zone, within the edge strip) and its compiled twin (sim.rules.compiled:
``movement.edges_and_zone``) give the same answer wherever the twin answers: seeded spots in
deployment zones (one convex, one notched, one with slanted sides), an ingress strip, Deep
Strike, a zone too shallow for the base (03.02.02's zone edge) and the battlefield's edges for a
base too large for the strip (any edge); spots on each board edge's limit, each zone limit and
the strip's circles, and a hair either side. The zone's limits are a matrix product in the
reference, whose last bits are the library's: the twin decides a spot only more than
REGION_ZONE_BAND from each, and declines the rest (tested: a spot a hair from a limit is
declined, one 1e-8" off is answered); it declines the strip's measured band too, a base that is
not round, another type and a value that is no number."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.deployment import EDGE_TOUCH
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base
from test_compiled_grow_spots import BOARD, MM, NORTH, NOTCHED, SHALLOW, SLANTED, SOUTH  # (the same zones)

KERN = C.KERNELS["movement.edges_and_zone"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _regions(rng):
    enemies = [random_base(rng, *rng.uniform(0, 60, size=2)) for _ in range(4)]
    return [RG.deployment(SOUTH, BOARD), RG.deployment(NOTCHED, BOARD), RG.deployment(SLANTED, BOARD),
            RG.deployment(SHALLOW, BOARD), RG.ingress_strip(BOARD, enemies, NORTH), RG.deep_strike(BOARD, enemies)]


def _rule(region, mm: float):
    return RG._model_rule(region, "round", mm * MM, mm * MM, 0.0)


def _on_limit(rule, piece: int, e: int, d: float) -> np.ndarray:
    """A spot on limit ``e`` of the zone's piece ``piece`` (its product with the limit's normal
    the limit), within the piece's other limits and the battlefield by a margin, moved ``d``
    along the normal; the piece's first spot when no point of the limit's line is."""
    n, lim = rule.zone_limits()[piece]
    nn = float(n[e] @ n[e])
    foot = n[e] * (lim[e] / nn)
    t = np.array([-n[e, 1], n[e, 0]]) / np.sqrt(nn)
    h = 0.5 * rule.fp.length
    W, H = rule.region.board
    pts = foot + np.linspace(-80.0, 80.0, 3201)[:, None] * t
    fine = (pts[:, 0] > h + 1e-2) & (pts[:, 0] < W - h - 1e-2) & (pts[:, 1] > h + 1e-2) & (pts[:, 1] < H - h - 1e-2)
    for f in range(len(n)):
        if f != e:
            fine &= pts @ n[f] < lim[f] - 1e-3
    p = pts[int(np.argmax(fine))] if fine.any() else foot
    return p + n[e] * (d / nn)


def _on_limits(rng, rule, k: int, hair: bool) -> np.ndarray:
    """``k`` spots on a board edge's limit, a zone piece's limit or the strip's circles, each
    nudged by nothing or a hair (``hair``: within the twin's bands, where it may decline) or by
    more than its bands (where it answers)."""
    h = 0.5 * rule.fp.length
    W, H = rule.region.board
    out = []
    for _ in range(k):
        nudges = [0.0, 1e-15, -1e-15, 1e-12, -1e-12] if hair else [3e-6, -3e-6, 1e-5, -1e-5]
        nudge = float(rng.choice(nudges))
        kind = int(rng.integers(0, 3))
        zoned = rule.region.zone is not None and rule.mode == ""
        if kind == 0 and (hair or not zoned):   # (a board edge, SLACK inside, or 03.02.02's touching
            # distance: exact; where a zone's side lies on the edge, its limit is the zone's too)
            gap = float(rng.choice([RG.SLACK, EDGE_TOUCH - 2e-4])) + float(rng.choice([0.0, 1e-15, -1e-15]))
            x, y = rng.uniform(h, W - h), rng.uniform(h, H - h)
            out.append([(h + gap, y), (W - h - gap, y), (x, h + gap), (x, H - h - gap)][int(rng.integers(4))])
        elif kind in (0, 1) and zoned:
            q = int(rng.integers(len(rule.zone_limits())))
            out.append(tuple(_on_limit(rule, q, int(rng.integers(len(rule.zone_limits()[q][0]))), nudge)))
        elif rule.region.edge_strip is not None and rule.mode == "":   # (the strip's circles about its box)
            m = rule.region.edge_strip - RG.SLACK
            out.append((rng.uniform(m + 1, W - m - 1), m - h + nudge))
        else:
            out.append(tuple(rng.uniform(0, [W, H])))
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(8))
def test_edges_and_zone_compiled_is_its_reference_where_it_answers(seed):
    """Scattered spots and spots past the bands: every call answered, as the reference answers;
    spots a hair from a zone's limit or in the strip's measured band: declined or answered as
    the reference answers."""
    rng = np.random.default_rng(seed)
    declined = 0
    seen = set()
    for region in _regions(rng):
        for mm in (25, 32, 40, 60, 100):
            rule = _rule(region, mm)
            for hair in (False, True, False):
                c = np.vstack([rng.uniform(-1, [61, 45], size=(int(rng.integers(0, 40)), 2)),
                               _on_limits(rng, rule, int(rng.integers(0, 25)), hair)])
                got, want = KERN.compiled(rule, c), KERN.reference(rule, c)
                if got is None:
                    assert hair
                    declined += 1
                    continue
                assert C._same_bits(got, want)
                seen.update(want.tolist())
    assert declined and seen == {True, False}
    move = importlib.import_module("sim.rules._compiled.move")
    assert (move.REGION_SLACK, move.REGION_EDGE_TOUCH) == (RG.SLACK, EDGE_TOUCH)


@built
def test_edges_and_zone_compiled_decides_a_zone_limit_only_past_its_band():
    """A spot a hair from a slanted limit of the zone is declined (the reference's matrix
    product decides it); one past the band either way is answered, as the reference answers."""
    rule = _rule(RG.deployment(SLANTED, BOARD), 32)
    q, e = next((q, e) for q, (n, _lim) in enumerate(rule.zone_limits()) for e in range(len(n))
                if n[e, 0] != 0.0 and n[e, 1] != 0.0)
    for d, answered in ((0.0, False), (1e-12, False), (-1e-12, False), (3e-9, True), (-3e-9, True), (1e-6, True)):
        spot = _on_limit(rule, q, e, d)[None, :]
        got = KERN.compiled(rule, spot)
        assert (got is not None) == answered, d
        if answered:
            assert C._same_bits(got, KERN.reference(rule, spot))


@built
def test_edges_and_zone_compiled_declines_what_it_does_not_take():
    rule = _rule(RG.deployment(SOUTH, BOARD), 32)
    c = np.array([[10.0, 5.0], [30.0, 30.0]])
    assert C._same_bits(KERN.compiled(rule, c), KERN.reference(rule, c))
    oval = RG._model_rule(RG.deployment(SOUTH, BOARD), "oval", 3.5, 2.0, 30.0)
    assert KERN.compiled(oval, c) is None
    assert KERN.compiled(rule, c.astype(np.float32)) is None
    bad = c.copy()
    bad[0, 0] = np.nan
    assert KERN.compiled(rule, bad) is None
    strip = _rule(RG.ingress_strip(BOARD, [], NORTH), 32)
    m, h = RG.EDGE_DISTANCE - RG.SLACK, 0.5 * 32 * MM
    between = np.array([[30.0, m - h + 0.5e-6]])   # (between the circles' hairs: measured by the reference)
    assert KERN.compiled(strip, between) is None
    for empty in ((rule, c[:0]),):
        assert C._same_bits(KERN.compiled(*empty), KERN.reference(*empty))

"""The score the pile-in and consolidation solvers (12.03 / 12.08: a model heading for an enemy
unit, sim.rules.movement.solvers.pile_in._enemy_scores) and the charge solver (11.04:
sim.rules.movement.solvers.charge._charge_scores) give a model's candidate spots, and their
compiled twins (sim.rules.compiled: ``movement.enemy_scores``, ``movement.charge_scores``): the
same answer to the bit, allowed spots and keys alike. Seeded tables of round bases with
candidates scattered, on each limit the scores read (2" of engagement range and 1" of a charge
target, each with the measuring tolerance; closer than the start by more than CLOSER) and a hair
either side, the start spot itself among them; what each score means on a table laid out by
hand; and what the twins leave to the reference (a body that is not round among those measured,
another type, no rows, a value that is no number)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules import geometry as G
from sim.rules.geometry import ENGAGEMENT_RANGE, EPS
from sim.rules.movement.index import Body, BodyIndex
from sim.rules.movement.solvers import charge as CH
from sim.rules.movement.solvers import pile_in as PI
from sim.rules.movement.solvers import place as PLACE

from twins import checked_in_players_battles, twin_answer

ENEMY = C.KERNELS["movement.enemy_scores"]
CHARGE = C.KERNELS["movement.charge_scores"]
built = pytest.mark.skipif(ENEMY.compiled is None or CHARGE.compiled is None,
                           reason="the compiled kernels are not built here")
RADII = (0.49, 0.63, 0.79, 1.0)   # (25, 32, 40 and 50 mm bases' radii, near enough)
HAIRS = (0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-10, -1e-10, 3e-8, -3e-8)


def _disc(r: float, x: float, y: float) -> G.Footprint:
    return G.footprint("round", x, y, 2 * r, 2 * r)


def _table(rng, units: int = 5):
    """A table of round bases in ``units`` units (``u0`` the moving model's own), the moving
    model at its start, and each unit's rows."""
    bodies = []
    for i in range(int(rng.integers(units, 40))):
        u = i % units
        bodies.append(Body(f"m{i:02d}", f"u{u}", int(u > 0), _disc(float(rng.choice(RADII)),
                                                                   *rng.uniform(0, 24, size=2))))
    idx = BodyIndex(bodies)
    fp0 = _disc(float(rng.choice(RADII)), *(float(v) for v in rng.uniform(4, 20, size=2)))
    rows = {f"u{u}": np.flatnonzero([b.unit == f"u{u}" for b in bodies]) for u in range(units)}
    return idx, fp0, rows


def _spots(rng, idx, fp0, rows: np.ndarray, gap: float, k: int) -> np.ndarray:
    """``k`` candidate centres: scattered, at 2" and at 1" (with the tolerance) from one of the
    bodies ``rows``, at ``gap`` less CLOSER from them, or the start itself, each nudged by
    nothing or a hair."""
    r = 0.5 * fp0.length
    out = [(fp0.x, fp0.y)]
    for _ in range(k):
        pick = rng.random()
        if pick < 0.3 or not len(rows):
            out.append(tuple(rng.uniform(0, 24, size=2)))
            continue
        j = int(rng.choice(rows))
        limit = float(rng.choice([ENGAGEMENT_RANGE + EPS, CH.WITHIN_ONE + EPS, ENGAGEMENT_RANGE, 0.0,
                                  gap - PLACE.CLOSER]))
        d = r + idx.radius[j] + limit + float(rng.choice(HAIRS))
        a = rng.uniform(0, 2 * math.pi)
        out.append((idx.centres[j, 0] + d * math.cos(a), idx.centres[j, 1] + d * math.sin(a)))
    return np.array(out, dtype=float)


def _gap(idx, fp0, rows) -> float:
    """The model's distance at its start to the bodies ``rows`` (the solvers' ``d0``)."""
    return float(np.min(G.disc_distances(np.array([[fp0.x, fp0.y]]), np.array([0.5 * fp0.length]),
                                         idx.centres[rows], idx.radius[rows])))


@built
@pytest.mark.parametrize("seed", range(10))
def test_enemy_scores_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    allowed = tiers = 0
    for _ in range(30):
        idx, fp0, rows = _table(rng)
        target = rows["u1"]
        if not len(target):
            continue
        keep = tuple(rows[u] for u in ("u2", "u3")[:int(rng.integers(0, 3))] if len(rows[u]))
        d0 = _gap(idx, fp0, target)
        c = _spots(rng, idx, fp0, np.concatenate([target, *keep]) if keep else target, d0,
                   int(rng.integers(0, 80)))
        ok, (tier, d, length) = twin_answer(ENEMY, fp0, c, idx, target, keep, d0, bool(rng.random() < 0.5),
                                            bool(rng.random() < 0.5))
        allowed += int(ok.sum())
        tiers |= sum(1 << int(t) for t in set(tier.tolist()))
    assert allowed > 100 and tiers == 0b111   # (allowed spots, and every key: engaged, not, the start)


@built
@pytest.mark.parametrize("seed", range(10))
def test_charge_scores_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    allowed = tiers = 0
    for _ in range(30):
        idx, fp0, rows = _table(rng)
        targets = tuple(rows[u] for u in ("u1", "u2", "u3")[:int(rng.integers(1, 4))] if len(rows[u]))
        if not targets:
            continue
        gaps = tuple(_gap(idx, fp0, r) for r in targets)
        must = tuple(bool(rng.random() < 0.3) for _ in targets)
        others = np.sort(np.concatenate([rows["u4"], rows["u0"][:int(rng.integers(0, 3))]]))
        c = _spots(rng, idx, fp0, np.concatenate([*targets, others]), min(gaps), int(rng.integers(0, 80)))
        tier = [None, 1, 2, 3][int(rng.integers(4))]
        ok, (t_of, dmin, length) = twin_answer(CHARGE, fp0, c, idx, targets, gaps, must, others, tier)
        allowed += int(ok.sum())
        tiers |= sum(1 << int(t) for t in set(t_of.tolist()))
    assert allowed > 100 and tiers == 0b1110   # (allowed spots, and every tier: 1", engaged, closer)


def _laid_out():
    """A model (radius 0.5) at (0, 0); an enemy unit ``e`` of one base (radius 0.5) at (6, 0)
    (5" edge to edge); a third unit ``k`` of one base (radius 0.5) at (0, 4)."""
    bodies = [Body("a", "u0", 0, _disc(0.5, 0.0, 0.0)), Body("e1", "e", 1, _disc(0.5, 6.0, 0.0)),
              Body("k1", "k", 1, _disc(0.5, 0.0, 4.0))]
    return BodyIndex(bodies), bodies[0].fp


def test_enemy_scores_reads_engagement_closer_and_the_start_spot():
    idx, fp0 = _laid_out()
    e, k = np.array([1]), np.array([2])
    c = np.array([[0.0, 0.0], [4.0, 0.0], [2.5, 0.0], [2.0, 2.5], [-1.0, 0.0]])
    ok, (tier, d, length) = PI._enemy_scores.reference(fp0, c, idx, e, (), 5.0, False, True)
    # the start (stays), 1" away (engaged), 2.5" away (closer, not engaged), ..., farther
    assert ok.tolist() == [True, True, True, True, False]
    assert tier.tolist() == [2, 0, 1, 1, 1] and tier.dtype == np.int64
    assert d[:3].tolist() == [5.0, 1.0, 2.5] and length[1] == 4.0
    ok, _ = PI._enemy_scores.reference(fp0, c, idx, e, (), 5.0, True, False)   # engaged only, no staying
    assert ok.tolist() == [False, True, False, False, False]
    ok, _ = PI._enemy_scores.reference(fp0, c, idx, e, (k,), 5.0, False, False)  # and engaged with ``k``
    assert ok.tolist() == [False, False, False, True, False]


def test_charge_scores_reads_the_tiers_the_targets_and_the_others():
    idx, fp0 = _laid_out()
    e, k = np.array([1]), np.array([2])
    c = np.array([[4.5, 0.0], [3.5, 0.0], [2.0, 0.0], [1.5, 3.0], [-1.0, 0.0]])
    ok, (t_of, dmin, length) = CH._charge_scores.reference(fp0, c, idx, (e,), (5.0,), (False,),
                                                           np.zeros(0, dtype=np.intp), None)
    # 0.5" (within 1"), 1.5" (engaged), 3", 4.41", 6" from ``e``
    assert t_of.tolist() == [1, 2, 3, 3, 3] and t_of.dtype == np.int64
    assert dmin[:3].tolist() == [0.5, 1.5, 3.0] and length[1] == 3.5
    assert ok.tolist() == [True, True, True, True, False]    # (closer, save the last)
    ok, _ = CH._charge_scores.reference(fp0, c, idx, (e,), (5.0,), (False,), np.zeros(0, dtype=np.intp), 2)
    assert ok.tolist() == [True, True, False, False, False]  # (tier 2 asked: within engagement range)
    ok, _ = CH._charge_scores.reference(fp0, c, idx, (e,), (5.0,), (False,), k, None)
    assert ok.tolist() == [True, True, True, False, False]   # (engaged with the non-target ``k``: not)
    ok, _ = CH._charge_scores.reference(fp0, c, idx, (e, k), (5.0, 3.0), (True, False),
                                        np.zeros(0, dtype=np.intp), None)
    assert ok.tolist() == [True, True, False, False, False]  # (must end engaged with ``e``)


@built
def test_the_scores_compiled_decline_what_they_do_not_take():
    idx, fp0 = _laid_out()
    e, k = np.array([1]), np.array([2])
    c = np.array([[4.5, 0.0], [3.5, 0.0]])
    none = np.zeros(0, dtype=np.intp)
    assert ENEMY.compiled(fp0, c, idx, e, (k,), 5.0, False, True) is not None
    assert CHARGE.compiled(fp0, c, idx, (e,), (5.0,), (False,), k, None) is not None
    hull = BodyIndex([Body("a", "u0", 0, _disc(0.5, 0.0, 0.0)),
                      Body("e1", "e", 1, G.footprint("rect", 6.0, 0.0, 2.0, 1.0))])
    for args in ((fp0, c, hull, e, (), 5.0, False, True),                     # a hull to measure
                 (fp0, c, idx, none, (), 5.0, False, True),                   # no rows
                 (fp0, c, idx, e, (none,), 5.0, False, True),
                 (fp0, c.astype(np.float32), idx, e, (), 5.0, False, True),   # another type
                 (fp0, c, idx, e.astype(np.int32), (), 5.0, False, True),
                 (fp0, c, idx, e, [k], 5.0, False, True),
                 (fp0, c, idx, e, (), np.float64(5.0), False, True),
                 (fp0, c, idx, e, (), 5.0, np.bool_(False), True),
                 (fp0, np.array([[np.nan, 0.0]]), idx, e, (), 5.0, False, True),   # no number
                 (fp0, np.zeros((0, 2)), idx, e, (), 5.0, False, True),      # no spot
                 (G.footprint("oval", 0.0, 0.0, 2.0, 1.0), c, idx, e, (), 5.0, False, True)):
        assert ENEMY.compiled(*args) is None
    for args in ((fp0, c, hull, (e,), (5.0,), (False,), none, None),
                 (fp0, c, idx, (none,), (5.0,), (False,), none, None),
                 (fp0, c, idx, (e,), (5.0,), (False,), e.astype(np.int64) + 7, None),   # out of range
                 (fp0, c, idx, [e], (5.0,), (False,), none, None),
                 (fp0, c, idx, (e,), (5,), (False,), none, None),
                 (fp0, c, idx, (e,), (5.0,), (False, True), none, None),
                 (fp0, c, idx, (e,), (5.0,), (False,), none, 2.0),
                 (fp0, c, idx, (e,), (5.0,), (False,), none, 10 ** 30),                # (past a C long)
                 (fp0, c, idx, (e,), (5.0,), (False,), none, True),
                 (fp0, c, idx, (e,), (math.inf,), (False,), none, None)):
        assert CHARGE.compiled(*args) is None
    # a hull among the others, away from every centre: not measured, so not the reference's
    far = BodyIndex([Body("a", "u0", 0, _disc(0.5, 0.0, 0.0)), Body("e1", "e", 1, _disc(0.5, 6.0, 0.0)),
                     Body("h", "h", 1, G.footprint("rect", 40.0, 40.0, 2.0, 1.0))])
    twin_answer(CHARGE, fp0, c, far, (e,), (5.0,), (False,), np.array([2]), None)


@built
def test_the_twins_constants_are_the_rules():
    from sim.rules._compiled import move
    assert (move.MOVE_ENGAGEMENT, move.SCORE_CLOSER, move.SCORE_WITHIN_ONE) == (
        ENGAGEMENT_RANGE, PLACE.CLOSER, CH.WITHIN_ONE)


@built
@pytest.mark.parametrize("kern", [ENEMY, CHARGE], ids=lambda k: k.name)
def test_the_scores_compiled_in_the_players_battles(kern):
    """Beside the golden replays (whose scripted charges and fights call both), the default
    players' charges, pile-ins and consolidations on the default table: every call compared with
    the reference in ``check`` mode (a difference raises), enough of them to mean something
    (~45 and ~27 over the four battles)."""
    assert checked_in_players_battles(kern) > 20

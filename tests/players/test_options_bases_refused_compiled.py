"""The quick look's test of the other bases (sim.players.options._bases_refused) and its compiled
twin (sim.rules.compiled: ``movement.bases_refused``) give the same answer: on seeded ends
among friends' and enemies' bases, at exact ties with the margin and the engagement gap and a
float either side, on the box's edges and a float outside them, and with NaN, infinities and
negative radii here and there; inputs numpy would compute otherwise are left to the reference.
Whole battles compare the two at every look the players make
(tests/players/test_options_quick_refusal.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.players import options as O
from sim.rules import compiled as C

KERN = C.KERNELS["movement.bases_refused"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def both(*args) -> tuple:
    """(the twin's answer, the reference's); the twin must not decline these."""
    got, want = KERN.compiled(*args), KERN.reference(*args)
    assert got is not None
    return got, want


def test_the_record_stands_in_the_module_under_its_reference_s_name():
    assert O._bases_refused is KERN and KERN.reference.__name__ == "_bases_refused"


@built
@pytest.mark.parametrize("seed", range(3))
def test_bases_refused_compiled_is_its_reference_on_seeded_ends(seed):
    """Moves of up to five models among thirty bases of two sides, the moving unit's own left
    out, the box about the ends or the whole table: both answers, and both kinds of answer met."""
    rng = np.random.default_rng(seed)
    n = 30
    centres = rng.uniform(0, 40, size=(n, 2))
    inner = rng.choice([0.49, 0.63, 1.0, 1.26], size=n)
    players = rng.integers(0, 2, size=n).astype(np.int64)
    answers = set()
    for _ in range(400):
        rows = np.sort(rng.choice(n, size=int(rng.integers(1, 6)), replace=False)).astype(np.int64)
        pts = centres[rows] + rng.normal(0, 3, size=(len(rows), 2))
        reach = float(rng.choice([1.0, 4.0, 100.0]))
        box = (float(pts[:, 0].min()) - reach, float(pts[:, 0].max()) + reach,
               float(pts[:, 1].min()) - reach, float(pts[:, 1].max()) + reach)
        gap = float(rng.choice([2.0, 8.0]))
        got, want = both(pts, inner[rows], centres, inner, players, rows, *box, gap, 1e-3)
        assert got == want and type(got) is type(want) is bool
        answers.add(got)
    assert answers == {True, False}


@built
def test_bases_refused_compiled_at_exact_ties_and_the_box_s_edges():
    """A friend's base whose gap is exactly the margin's (a 3-4-5 triangle: hypot is 5 exactly),
    an enemy's exactly at the engagement gap less the margin, each a float either side; a base
    on each edge of the box and a float outside it."""
    centres = np.array([[0.0, 0.0], [30.0, 30.0]])
    inner = np.array([0.5, 0.5])
    rows = np.array([1], dtype=np.int64)
    pts = np.array([[3.0, 4.0]])
    r = np.array([0.5])
    wide = (-100.0, 100.0, -100.0, 100.0)
    for players, gap, margin in (([0, 0], 2.0, -4.0), ([1, 0], 4.0, 0.0), ([1, 0], 4.5, 0.5)):
        players = np.array(players, dtype=np.int64)
        for g in (gap, float(np.nextafter(gap, 10.0)), float(np.nextafter(gap, 0.0))):
            for m in (margin, float(np.nextafter(margin, 10.0)), float(np.nextafter(margin, -10.0))):
                got, want = both(pts, r, centres, inner, players, rows, *wide, g, m)
                assert got == want
    players = np.array([1, 0], dtype=np.int64)
    assert not O._bases_refused.reference(pts, r, centres, inner, players, rows, *wide, 4.0, 0.0)  # (the tie)
    for k in range(4):
        for edge in (0.0, float(np.nextafter(0.0, -1.0 if k % 2 == 0 else 1.0))):
            box = list(wide)
            box[k] = edge
            got, want = both(pts, r, centres, inner, players, rows, *box, 6.0, 0.0)
            assert got == want


@built
def test_bases_refused_compiled_with_nan_infinities_and_negative_radii():
    """Seeded inputs no move makes (the players pass finite ends and bases): the reference's
    answer all the same."""
    rng = np.random.default_rng(7)
    with np.errstate(invalid="ignore", over="ignore"):
        for _ in range(300):
            n, k = int(rng.integers(1, 7)), int(rng.integers(1, 4))
            centres = rng.uniform(-5, 5, size=(n, 2))
            inner = rng.uniform(-1, 2, size=n)
            pts = rng.uniform(-5, 5, size=(k, 2))
            r = rng.uniform(-1, 2, size=k)
            for a in (centres, inner, pts, r):
                if rng.random() < 0.3:
                    a.flat[int(rng.integers(a.size))] = rng.choice([np.nan, np.inf, -np.inf, 1e300])
            players = rng.integers(0, 2, size=n).astype(np.int64)
            rows = np.array([int(rng.integers(n))], dtype=np.int64)
            box = tuple(float(v) for v in rng.choice([-np.inf, -3.0, 0.0, 3.0, np.inf, np.nan], size=4))
            got, want = both(pts, r, centres, inner, players, rows, *box, 2.0, 1e-3)
            assert got == want


@built
def test_bases_refused_compiled_leaves_to_the_reference_what_numpy_would_compute_otherwise():
    """Another float or integer type, a numpy scalar for a bound, a negative or out-of-range row
    (numpy reads it from the end, or raises), no row, mismatched lengths: declined."""
    centres = np.array([[0.0, 0.0], [3.0, 4.0]])
    inner = np.array([0.5, 0.5])
    players = np.array([0, 1], dtype=np.int64)
    rows = np.array([0], dtype=np.int64)
    pts = np.array([[1.0, 1.0]])
    r = np.array([0.5])
    box = (-10.0, 10.0, -10.0, 10.0)
    assert KERN.compiled(pts, r, centres, inner, players, rows, *box, 2.0, 1e-3) is not None
    for args in [
        (pts.astype(np.float32), r, centres, inner, players, rows, *box, 2.0, 1e-3),
        (pts, r, centres, inner, players.astype(np.int32), rows, *box, 2.0, 1e-3),
        (pts, r, centres, inner, players, rows.astype(np.int32), *box, 2.0, 1e-3),
        (pts, r, centres, inner, players, rows, np.float64(-10.0), *box[1:], 2.0, 1e-3),
        (pts, r, centres, inner, players, rows, *box, 2, 1e-3),
        (pts, r, centres, inner, players, np.array([-1], dtype=np.int64), *box, 2.0, 1e-3),
        (pts, r, centres, inner, players, np.array([2], dtype=np.int64), *box, 2.0, 1e-3),
        (pts, r, centres, inner, players, np.zeros(0, dtype=np.int64), *box, 2.0, 1e-3),
        (pts, r, centres, inner[:1], players, rows, *box, 2.0, 1e-3),
        (pts, np.array([0.5, 0.5]), centres, inner, players, rows, *box, 2.0, 1e-3),
        (pts[:, :1], r, centres, inner, players, rows, *box, 2.0, 1e-3),
    ]:
        assert KERN.compiled(*args) is None

"""06.01 sim.rules.visibility.certs.star_free (the certificate "fully visible": every segment
from one apex to B free by a margin) and its compiled twin (sim.rules.compiled:
``visibility.star_free``, its angles numpy's own) give the same answers to the bit: every
ordered pair of seeded random layouts' bases with their capsule pieces, pairs with and without
a piece near A's outline; discs among crowded pieces (touching, overlapping, far apart, of no
radius); their apexes and cones compared array by array; and the inputs the twin leaves to the
reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import certs as CE

KERN = C.KERNELS["visibility.star_free"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
if KERN.compiled is not None:
    from sim.rules._compiled import sight


def _same(D, q, pk, pstart, pidx, near) -> np.ndarray:
    """The twin's answer and its apexes and cones (``star_apexes``, every array of
    certs._star_apexes) are the reference's to the bit."""
    want = twin_answer(KERN, D, q, pk, pstart, pidx, near)
    apexes = sight.star_apexes(D, q, near)
    assert apexes is not None and C._same_bits(apexes, CE._star_apexes(D, q, near))
    return want


@built
@pytest.mark.parametrize("seed", range(4))
def test_star_free_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(5):
        ix, I, _J, D, pstart, pidx = certificate_pairs(rng)
        pk = ix.blk.pieces
        q = np.arange(len(I), dtype=np.intp)
        near = CE.near_a(D, q, pk, pstart, pidx)
        found += _same(D, q, pk, pstart, pidx, near).tolist()
        sub = q[rng.random(len(q)) < 0.3]
        _same(D, sub, pk, pstart, pidx, near)
        _same(D, sub, pk, pstart, pidx, ~near)       # (the outline's apexes asked of every pair)
    assert 0 < sum(found) < len(found)


@built
@pytest.mark.parametrize("seed", range(3))
def test_star_free_compiled_among_crowded_pieces(seed):
    """Discs among crowded pieces (a third not convex), B at every distance from A: overlapping
    it, touching it, just clear of it and far off; A of no radius as well."""
    rng = np.random.default_rng(700 + seed)
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(rng, pairs=60)
    q = np.arange(len(ca), dtype=np.intp)
    found = []
    u = (cb - ca) / np.maximum(np.linalg.norm(cb - ca, axis=1, keepdims=True), 1e-12)
    for gap in (None, -0.5, 0.0, CE._FREE, 2e-7, 0.01, 3.0):
        b = cb if gap is None else ca + u * (ra + rb + gap)[:, None]
        for a_r in (ra, np.zeros_like(ra)):
            D = (ca[:, 0].copy(), ca[:, 1].copy(), a_r, b[:, 0].copy(), b[:, 1].copy(), rb)
            near = CE.near_a(D, q, pk, pstart, pidx)
            found += _same(D, q, pk, pstart, pidx, near).tolist()
            _same(D, q, pk, pstart, pidx, np.zeros_like(near))
    assert 0 < sum(found) < len(found)


@built
def test_star_free_compiled_without_pieces_and_without_pairs():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(5), pairs=6)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    near = np.zeros(len(ca), dtype=bool)
    empty = np.zeros(len(ca) + 1, dtype=np.intp)
    got = _same(D, np.arange(len(ca), dtype=np.intp), pk, empty, pidx[:0], near)
    assert got.all()
    assert len(_same(D, np.zeros(0, dtype=np.intp), pk, pstart, pidx, near)) == 0


@built
def test_star_free_compiled_leaves_other_inputs_to_the_reference():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(9), pairs=10)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    q = np.arange(len(ca), dtype=np.intp)
    near = np.zeros(len(ca), dtype=bool)
    assert KERN.compiled(D, q, pk, pstart, pidx, near) is not None
    nan = (np.where(q == 0, np.nan, D[0]),) + D[1:]
    for d, qq, ps, pi, nr in [((D[0].astype(np.float32),) + D[1:], q, pstart, pidx, near),
                              (D, q.astype(np.int32), pstart, pidx, near), (nan, q, pstart, pidx, near),
                              (D, q + len(ca), pstart, pidx, near), (D, q, pstart, pidx + len(pk), near),
                              (D, q, pstart[::-1].copy(), pidx, near), ((D[0][:-1],) + D[1:], q, pstart, pidx, near),
                              (D, q, pstart, pidx, near.astype(np.uint8)), (D, q, pstart, pidx, near[:-1])]:
        assert KERN.compiled(d, qq, pk, ps, pi, nr) is None


@built
@pytest.mark.parametrize("seed", range(3))
def test_stars_separated_compiled_pair_by_pair_and_entry_by_entry(seed):
    """certs._stars_separated's twin on the star's apexes of random layouts: its entries grouped
    by pair (as ragged_expand gives them: a pair done at its first clear apex) and shuffled
    (entry by entry), the same answers as the reference's."""
    from sim.rules.visibility.batch import ragged_expand
    SEP = C.KERNELS["visibility.stars_separated"]
    rng = np.random.default_rng(300 + seed)
    answers = []
    for _ in range(3):
        ix, I, _J, D, pstart, pidx = certificate_pairs(rng)
        pk = ix.blk.pieces
        q = np.arange(len(I), dtype=np.intp)
        apexes = CE._star_apexes(D, q, CE.near_a(D, q, pk, pstart, pidx))
        e, pos = ragged_expand(pstart, q)
        k = pidx.take(pos)
        for order in (np.arange(len(e)), rng.permutation(len(e))):
            got = SEP.compiled(*apexes, e[order], k[order], pk)
            want = SEP.reference(*apexes, e[order], k[order], pk)
            assert got is not None and C._same_bits(got, want)
        answers += want.tolist()
    assert 0 < sum(answers) < len(answers)

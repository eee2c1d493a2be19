"""13.11 sim.rules.visibility.batch.segments_blocked_ragged, the batched stages' "does this
segment cross one of its pieces?", against kernels.segments_blocked asked segment by segment of
that segment's own pieces: one pass (few pieces a segment, or few entries in all), two passes
(each segment's first piece, then the others of the segments it left unblocked), and batches
split by _BLK_CHUNK."""

import numpy as np
import pytest
from random_pieces import random_pieces

from sim.rules.visibility import batch
from sim.rules.visibility.batch import segments_blocked_ragged
from sim.rules.visibility.kernels import Pieces, segments_blocked


def _case(rng, segments: int, per_segment: tuple[int, int], k: int = 30):
    pk = random_pieces(rng, k)
    p0 = rng.uniform(0, 20, size=(segments, 2))
    p1 = rng.uniform(0, 20, size=(segments, 2))
    lists = [np.sort(rng.choice(k, size=rng.integers(*per_segment), replace=False)) for _ in range(segments)]
    start = np.zeros(segments + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=start[1:])
    idx = np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, np.int64)
    return pk, p0, p1, lists, start, idx


def _expected(pk, p0, p1, lists):
    out = []
    for s, ks in enumerate(lists):
        active = np.zeros(len(pk), dtype=bool)
        active[ks] = True
        out.append(bool(segments_blocked(p0[s:s + 1], p1[s:s + 1], pk, active)[0]))
    return out


@pytest.mark.parametrize("per_segment", [(0, 2), (1, 3), (3, 9), (6, 20)])
def test_segments_blocked_ragged_is_the_kernel_segment_by_segment(per_segment):
    rng = np.random.default_rng(sum(per_segment))
    pk, p0, p1, lists, start, idx = _case(rng, 300, per_segment)
    got = segments_blocked_ragged(p0, p1, np.arange(300), pk, start, idx)
    want = _expected(pk, p0, p1, lists)
    assert got.tolist() == want
    assert 0 < sum(want) < 300 or per_segment == (0, 2)


@pytest.mark.parametrize("two_pass_min", [0, batch._TWO_PASS_MIN])
def test_segments_blocked_ragged_in_batches_and_owners_out_of_order(monkeypatch, two_pass_min):
    """Segments in batches of a few dozen entries (each batch its own one or two passes), and
    segments naming their piece lists out of order and more than once (``owner``)."""
    monkeypatch.setattr(batch, "_TWO_PASS_MIN", two_pass_min)
    rng = np.random.default_rng(11)
    pk, p0, p1, lists, start, idx = _case(rng, 120, (0, 12))
    owner = rng.integers(0, 120, size=400)
    q0 = rng.uniform(0, 20, size=(400, 2))
    q1 = rng.uniform(0, 20, size=(400, 2))
    want = _expected(pk, q0, q1, [lists[o] for o in owner])
    monkeypatch.setattr(batch, "_BLK_CHUNK", 37)
    assert segments_blocked_ragged(q0, q1, owner, pk, start, idx).tolist() == want


def test_two_passes_skip_the_other_pieces_of_a_segment_its_first_piece_blocks(monkeypatch):
    """A segment through its first piece's centre is answered by that piece alone: the second
    pass is asked only of the other segments' other pieces (two passes however few entries:
    ``_TWO_PASS_MIN`` 0)."""
    monkeypatch.setattr(batch, "_TWO_PASS_MIN", 0)
    pk = Pieces([np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]),
                 np.array([[5.0, 0.0], [7.0, 0.0], [7.0, 2.0], [5.0, 2.0]]),
                 np.array([[9.0, 0.0], [11.0, 0.0], [11.0, 2.0], [9.0, 2.0]])])
    p0 = np.array([[-1.0, 1.0], [-1.0, 5.0]])       # through piece 0; above every piece
    p1 = np.array([[12.0, 1.0], [12.0, 5.0]])
    start = np.array([0, 3, 6], dtype=np.int64)
    idx = np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)
    asked = []
    real = batch.sat_cross_k

    def spy(ax, ay, bx, by, pieces, k):
        asked.append(k.tolist())
        return real(ax, ay, bx, by, pieces, k)
    monkeypatch.setattr(batch, "sat_cross_k", spy)
    got = segments_blocked_ragged(p0, p1, np.arange(2), pk, start, idx)
    assert got.tolist() == [True, False]
    assert asked == [[0, 0], [1, 2]]

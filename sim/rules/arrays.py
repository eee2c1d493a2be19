"""np.roll by one, np.tile of a 1-D array, np.flatnonzero and np.unique of a 1-D array, as the
geometry, movement and visibility kernels use them, without numpy's Python-level wrappers (np.roll
and np.tile are Python functions that normalise their arguments on every call: ~20 us each on a
small array; np.flatnonzero goes through two wrappers, ~1 us against ~0.25; np.unique's general
path costs ~22 us on a few hundred keys against ~6; and a moved model's sight or a battle's move
checks make thousands of such calls); and the any, min and max over a short last axis, by slices
(numpy's reduction walks such an axis entry by entry). The same values in the same order and
dtype: only the data moved. And ``count_true``, the test ``a.any()`` makes, at a quarter of its
cost."""

from __future__ import annotations

import numpy as np


def roll_next(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """np.roll(a, -1, axis): entry i holds a's entry i + 1, the last the first."""
    if axis == 0:
        return np.concatenate((a[1:], a[:1]))
    return np.concatenate((a[:, 1:], a[:, :1]), axis=1)


def roll_prev(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """np.roll(a, 1, axis): entry i holds a's entry i - 1, the first the last."""
    if axis == 0:
        return np.concatenate((a[-1:], a[:-1]))
    return np.concatenate((a[:, -1:], a[:, :-1]), axis=1)


def tile(a: np.ndarray, k: int) -> np.ndarray:
    """np.tile(a, k) of a 1-D array: a, k times over."""
    return a.reshape(1, -1).repeat(k, axis=0).reshape(-1)


# count_true(a): how many entries of ``a`` are not zero (True), numpy's C function: ``if
# count_true(a):`` is ``if a.any():`` at ~0.22 us against ~1 us (ndarray.any goes through
# numpy's Python layer; a battle asks it over a thousand times)
count_true = np.count_nonzero


def flatnonzero(a: np.ndarray) -> np.ndarray:
    """np.flatnonzero(a) of an array: the indices of its true entries, read flat."""
    return a.ravel().nonzero()[0]


# rows up to which a.min(axis=0) itself is the quicker (one call, ~1.2 us at ten rows against
# the columns' ~2.7 us; a move's few models)
_COLUMNS_FROM = 32


def col_min(a: np.ndarray) -> np.ndarray:
    """a.min(axis=0) of an (N, 2) array, column by column: numpy's reduction along the first
    axis of a C-ordered (N, 2) array walks an inner loop of two (~77 us at 3,000 rows against
    ~5; a set-up's few thousand anchor spots); a few rows, by that reduction itself. The same
    values (a minimum is exact)."""
    if len(a) < _COLUMNS_FROM:
        return a.min(axis=0)
    return np.array((a[:, 0].min(), a[:, 1].min()))


def col_max(a: np.ndarray) -> np.ndarray:
    """a.max(axis=0) of an (N, 2) array, column by column (as ``col_min``)."""
    if len(a) < _COLUMNS_FROM:
        return a.max(axis=0)
    return np.array((a[:, 0].max(), a[:, 1].max()))


def sorted_unique(a: np.ndarray) -> np.ndarray:
    """np.unique(a) of a 1-D array: its distinct values, ascending (a sorted copy, each value
    kept where it differs from the one before)."""
    a = a.copy()
    a.sort()
    keep = np.empty(len(a), dtype=bool)
    keep[:1] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


# what ``first_last`` reads a column's rows from when it has at most eight: a byte whose bit v
# is row v, and for each of the 256 bytes its first and last set bit and how many are set
_BYTES = np.arange(256)
_FIRST_BIT = np.zeros(256, dtype=np.intp)
_LAST_BIT = np.zeros(256, dtype=np.intp)
_SET_BITS = np.zeros(256, dtype=np.intp)
for _v in range(8):
    _on = ((_BYTES >> _v) & 1) == 1
    _FIRST_BIT[_on & (_FIRST_BIT == 0) & ((_BYTES & ((1 << _v) - 1)) == 0)] = _v
    _LAST_BIT[_on] = _v
    _SET_BITS += _on
del _v, _on
_PACKED_MIN = 256  # columns from which the bytes pay (below, argmax's few calls are cheaper)


def first_last(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of a 2-D bool array (V rows, as the visibility kernels' "this edge faces the
    point" changes around a piece's outline): the first row holding True, the last, and how
    many rows do: the values of ``t.argmax(axis=0)``, ``V - 1 - t[::-1].argmax(axis=0)`` and
    ``t.sum(axis=0)``, the first 0 and the last V - 1 in a column without one (intp arrays).
    With up to eight rows and many columns, each column's rows packed into a byte and read
    from tables: argmax along the first axis works column by column (~6x the time)."""
    V, N = t.shape
    if V > 8 or N < _PACKED_MIN:
        return t.argmax(axis=0), (V - 1) - t[::-1].argmax(axis=0), t.sum(axis=0)
    rows = np.ascontiguousarray(t).view(np.uint8)
    bits = rows[0].copy()
    for v in range(1, V):
        bits |= rows[v] << v
    last = _LAST_BIT.take(bits)
    last[bits == 0] = V - 1
    return _FIRST_BIT.take(bits), last, _SET_BITS.take(bits)


def any_last(m: np.ndarray) -> np.ndarray:
    """``m.any(axis=-1)`` of a bool mask with a short last axis (of one entry or more), by ORs
    of its slices (numpy's reduction over a short last axis walks it entry by entry: on a
    (2000, 6, 6) mask of the sight kernels' (segments, pieces, vertices) 221 us against 45; on
    a (40, 2, 6) one 2 us against 5, where either is nothing): the same answer."""
    out = m[..., 0].copy()
    for v in range(1, m.shape[-1]):
        out |= m[..., v]
    return out


def min_max_last(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a.min(axis=-1)`` and ``a.max(axis=-1)`` of an array with a short last axis (of one
    entry or more), by its slices (as ``any_last``; (2000, 6, 6): 942 us against 96):
    numpy's values (NaN where a NaN is; of a tie of 0 and -0 either zero may be kept, and both
    compare the same)."""
    lo = a[..., 0].copy()
    hi = lo.copy()
    for v in range(1, a.shape[-1]):
        np.minimum(lo, a[..., v], out=lo)
        np.maximum(hi, a[..., v], out=hi)
    return lo, hi

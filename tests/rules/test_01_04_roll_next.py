"""sim.rules.arrays.roll_next: np.roll(a, -1, axis=0) without its overhead, as the geometry and
movement kernels roll polygons: the same values, dtype and shape, bit for bit, for every shape
they roll (tests/rules/visibility/test_visibility_arrays.py: as the visibility kernels do)."""

import numpy as np
import pytest

from sim.rules.arrays import roll_next


@pytest.mark.parametrize("shape", [(0, 2), (1, 2), (2, 2), (3, 2), (8, 2), (17, 2), (5,), (4, 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_roll_next_is_np_roll_by_one(shape, dtype):
    rng = np.random.default_rng(sum(shape) + len(shape))
    a = (rng.standard_normal(shape) * 100).astype(dtype)
    want = np.roll(a, -1, axis=0)
    got = roll_next(a)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    assert got is not a and not np.shares_memory(got, a)  # (a copy, as np.roll's)


def test_roll_next_of_a_strided_view():
    a = np.arange(40, dtype=float).reshape(10, 4)[::2, 1:3]
    assert roll_next(a).tobytes() == np.roll(a, -1, axis=0).tobytes()


def test_roll_next_moves_the_first_vertex_last():
    poly = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    assert roll_next(poly).tolist() == [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]

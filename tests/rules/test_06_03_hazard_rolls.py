"""06.03 Hazard rolls: 1-2 fails; 1 mortal wound per failure, 3 if every model is
MONSTER/VEHICLE (a mixed unit takes 1)."""

from __future__ import annotations

import pytest

from sim.rules.mortal import hazard_failures, hazard_mortal_wounds


@pytest.mark.parametrize("roll,fails", [(1, 1), (2, 1), (3, 0), (4, 0), (5, 0), (6, 0)])
def test_06_03_one_and_two_fail(roll, fails):
    assert hazard_failures([roll]) == fails


def test_06_03_rolled_together():
    assert hazard_failures([1, 2, 3, 6, 2]) == 3
    assert hazard_failures([]) == 0


@pytest.mark.parametrize("failures,all_mv,mw", [(0, True, 0), (1, False, 1), (1, True, 3),
                                                (2, False, 2), (2, True, 6)])
def test_06_03_mortal_wounds_per_failure(failures, all_mv, mw):
    assert hazard_mortal_wounds(failures, all_mv) == mw

"""The leak tests' helper (young_garbage.py) finds the cyclic garbage the code it runs makes,
and only that, and hands the collector back as it found it."""

from __future__ import annotations

import gc

from young_garbage import young_garbage


class Node:
    def __init__(self):
        self.other = self


def test_a_cycle_made_by_the_code_is_found_and_named():
    kept = []

    def run():
        Node()  # (garbage: a cycle nothing points to)
        kept.append(Node())  # (a cycle still alive: not garbage)

    found, kinds = young_garbage(run)
    assert found >= 1 and kinds == ["Node"]
    assert kept[0].other is kept[0]


def test_garbage_made_before_is_not_counted_and_the_collector_is_handed_back():
    gc.disable()
    try:
        Node()  # (garbage made before: set aside with the rest of the heap)
        found, kinds = young_garbage(lambda: None)
        assert (found, kinds) == (0, []) and not gc.isenabled()
    finally:
        gc.enable()
    assert young_garbage(lambda: None) == (0, []) and gc.isenabled() and gc.get_freeze_count() == 0

"""A compiled kernel's twin against its numpy reference (sim.rules.compiled), as every twin's
tests ask it: the twin answers (it does not decline) with the reference's bits."""

from __future__ import annotations

from sim.rules import compiled as C


def twin_answer(kern, *args):
    """The reference's answer of the record ``kern`` to ``args``, after checking that its
    compiled twin gives the same answer to the bit (shape, type and bytes; tuples of arrays
    array by array)."""
    got, want = kern.compiled(*args), kern.reference(*args)
    assert got is not None and C._same_bits(got, want)
    return want

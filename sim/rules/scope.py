"""Part A ruling 28 What this version leaves out, where a unit would bring it in.

AIRCRAFT (23.01-23.04: they start in strategic reserves, move only by ingress, return to
reserves at the end of the opponent's turn, cannot charge, fight only FLYING units, and other
units move through them) are not in this version: a unit with the keyword is refused where it
would enter a battle (a scenario, an imported roster or datasheet), with ``refusal``'s reason,
and a catalogue lists its datasheet as refused for it."""

from __future__ import annotations

from typing import Iterable

__all__ = ["AIRCRAFT", "NOT_IN_VERSION", "EXPECTED", "refusal"]

AIRCRAFT = "AIRCRAFT"  # 23 the keyword
NOT_IN_VERSION = "AIRCRAFT are not in this version (Part A ruling 28)"
EXPECTED = "a unit that is not AIRCRAFT (not in this version: Part A ruling 28)"  # (for a refusal's line)


def refusal(keywords: Iterable[str]) -> str | None:
    """Part A ruling 28 Why a unit with these keywords (its own and its models': a unit has every
    keyword of its models, 02.05.01; any case) cannot be in a battle of this version, or None."""
    if any(str(k).strip().upper() == AIRCRAFT for k in keywords):
        return NOT_IN_VERSION
    return None

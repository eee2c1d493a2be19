"""01.04 A filter in front of the exact distance rules: bounding circles in a uniform grid.

Every footprint lies inside its bounding circle (``Footprint.bounding_radius`` about its
centre), so two footprints whose circles are more than X apart are more than X apart: they
cannot overlap, touch or be within X of each other. ``CircleGrid.near`` names every item whose
circle may lie within ``reach`` of a query circle (never fewer: the circles are tested with a
slack far above rounding), in the order the items were added, so the exact rule the caller
runs next on the pairs it names decides exactly as it would over all pairs, and the first pair
it finds is the first it would have found (the index is only a filter: one rule, one home).

Cost: an item is filed in every cell its circle's box covers (cells ``cell`` inches square);
a query reads the cells its circle's box, grown by ``reach``, covers. With bases spread over a
table, both are a few cells, so n queries cost O(n) instead of the O(n^2) of all pairs.
"""

from __future__ import annotations

import math

__all__ = ["CircleGrid", "SLACK", "circles_apart"]

SLACK = 1e-6  # inches: far above the rounding of a centre or a bounding radius, far below any rule's measure


def circles_apart(ax: float, ay: float, ar: float, bx: float, by: float, br: float, reach: float = 0.0) -> bool:
    """True when circle a and circle b are certainly more than ``reach`` apart (edge to edge),
    so nothing inside one is within ``reach`` of anything inside the other."""
    return math.hypot(ax - bx, ay - by) > ar + br + reach + SLACK


class CircleGrid:
    """Circles (centre, radius) filed by grid cell; items are numbered in the order added."""

    __slots__ = ("cell", "cells", "circles")

    def __init__(self, cell: float = 4.0) -> None:
        if not cell > 0:
            raise ValueError(f"a grid cell must be positive, found {cell}")
        self.cell = float(cell)
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.circles: list[tuple[float, float, float]] = []

    def __len__(self) -> int:
        return len(self.circles)

    def _span(self, x: float, y: float, r: float):
        c = self.cell
        return (math.floor((x - r) / c), math.floor((x + r) / c),
                math.floor((y - r) / c), math.floor((y + r) / c))

    def add(self, x: float, y: float, r: float) -> int:
        """File a circle; its number (0, 1, 2, ... in the order added)."""
        k = len(self.circles)
        self.circles.append((float(x), float(y), float(r)))
        i0, i1, j0, j1 = self._span(x, y, r + SLACK)
        cells = self.cells
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                cells.setdefault((i, j), []).append(k)
        return k

    def near(self, x: float, y: float, r: float, reach: float = 0.0) -> list[int]:
        """The numbers, ascending, of every circle that may lie within ``reach`` of the circle
        (x, y, r): all those not ``circles_apart`` from it."""
        i0, i1, j0, j1 = self._span(x, y, r + reach + SLACK)
        cells, circles = self.cells, self.circles
        found: set[int] = set()
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                ks = cells.get((i, j))
                if ks:
                    found.update(ks)
        out = []
        for k in sorted(found):
            bx, by, br = circles[k]
            if not circles_apart(x, y, r, bx, by, br, reach):
                out.append(k)
        return out

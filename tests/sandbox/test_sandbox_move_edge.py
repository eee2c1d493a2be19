"""A drag that ends against the board edge keeps the base wholly on the board, and one that ends
on the M ring is a legal move: the ghost is clamped a base's radius from the edge and to the
move's length, and the Move's rounding to 1e-4" must not push it over either (both found by the
sandbox fuzz: a base 2e-5" off the board and a saved table that would not load; full moves
refused as 6.00" of at most 6")."""

from __future__ import annotations

import math

from sandbox_support import DATA
from sim.rules import geometry
from sim.scenario.load import load_scenario

TABLE = DATA / "extra" / "edge_move.toml"


def test_a_drag_to_the_corner_stays_on_the_board(make):
    d = make(TABLE)
    sb = d.sb
    a = d.model_pos("scout/1")
    corner = sb.camera.to_screen(-2, -2)  # beyond both edges, within the 6" move
    d.drag(a, corner)
    moved = [e for e in sb.battle.events if e["type"] == "moved"]
    assert moved, sb.status
    m = sb.scene.models["scout/1"]
    assert (m.x, m.y) != (3, 3)
    pts = geometry.outline(m.fp, 32)
    assert pts.min() >= -1e-6, f"the base is {-pts.min():.2g}\" off the board at ({m.x}, {m.y})"
    path = sb.save_table()  # the battle as it stands, as a scenario file: it loads
    spec = load_scenario(path)
    (scout,) = [ms for us in spec.units for ms in us.models if ms.id == "scout/1"]
    assert (scout.x, scout.y) == (m.x, m.y)


def test_a_drag_past_the_ring_is_a_full_move(make):
    """A drag beyond the M ring stops on it, and the move is accepted whatever the direction:
    the 1e-4" rounding used to take it just over M about half the time ("refused: scout/1
    would move 6.00" but may move at most 6"")."""
    d = make(TABLE)
    sb = d.sb
    m = sb.scene.models["scout/1"]
    start = (m.x, m.y)
    for deg in range(5, 90, 7):  # (each move taken back by undo before the next: one sandbox)
        far = (start[0] + 20 * math.cos(math.radians(deg)), start[1] + 20 * math.sin(math.radians(deg)))
        d.drag(d.model_pos("scout/1"), sb.camera.to_screen(*far))
        assert [e for e in sb.battle.events if e["type"] == "moved"], f"{deg} degrees: {sb.status}"
        moved = sb.scene.models["scout/1"]
        assert 5.999 < math.hypot(moved.x - start[0], moved.y - start[1]) <= 6
        for _ in range(3):  # (the move, and its selection if that is a command of its own)
            if not [e for e in sb.battle.events if e["type"] == "moved"]:
                break
            sb.undo()
        d.pump(1)
        assert (sb.scene.models["scout/1"].x, sb.scene.models["scout/1"].y) == start, sb.status

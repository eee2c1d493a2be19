"""09 Movement phase: which moves a unit may still make this turn, and how far it has moved."""

from __future__ import annotations

from typing import Iterable, Mapping


def move_made(move_type: str | None, advanced: bool, fell_back: bool, moved: float) -> str | None:
    """09.02 The move a unit has already made this turn ("normal", "advance" or "fall back"),
    or None. A unit that advanced (09.06) or fell back (09.07), or that moved some distance
    (as a scenario's turn state may say), has made its move even if no Move command made it."""
    if move_type is not None:
        return move_type
    if advanced:
        return "advance"
    if fell_back:
        return "fall back"
    if moved > 0:
        return "normal"
    return None


def second_move_refusal(unit: str, previous: str | None, mode: str) -> str | None:
    """09.05.01 At most one normal move per phase, and 09.02 a unit is selected to move once in
    the Movement phase (one move type, resolved): a unit that has made a normal, advance or
    fall-back move this turn cannot make another (the simulator's "phase" runs to the end of
    the turn). Returns the reason a ``mode`` move is refused, or None."""
    if previous is None:
        return None
    return (f"{unit} already made a {previous} move this turn and cannot make a {mode} move: "
            f"one normal, advance or fall-back move per phase (09.05.01, 09.02)")


def add_move(totals: Mapping[str, float], distances: Iterable[tuple[str, float]]) -> tuple[dict[str, float], float]:
    """09.05-09.07 and 24.16 [HEAVY] "moved": a model's distance this turn is the sum of its
    moves, and the unit has moved as far as its furthest-moving model, in total (two 3" moves
    are 6", not 3"). Returns the new totals per model id and the furthest total."""
    new = dict(totals)
    for mid, dist in distances:
        new[mid] = new.get(mid, 0.0) + dist
    return new, max(new.values(), default=0.0)


def advance_end(x0: float, y0: float, x: float, y: float, limit: float) -> tuple[float, float, float]:
    """09.06 A model heading for (x, y) from (x0, y0) whose advance allows ``limit`` inches
    (M + the advance roll): where it ends and how far it moves. Within the limit it ends where
    it was sent; beyond it, it goes as far as the roll allows along its line (positions rounded
    to 1e-6")."""
    dist = ((x - x0) ** 2 + (y - y0) ** 2) ** 0.5
    if dist <= limit:
        return x, y, dist
    f = limit / dist
    return round(x0 + (x - x0) * f, 6), round(y0 + (y - y0) * f, 6), limit

"""The measuring grid: every position a command carries (an end, a turning point) lies on a
grid of 1e-6" (README, "Determinism: the position grid").

Why: the movement solvers compute their spots with numpy (cos, sin, arctan2, hypot, linalg),
whose last bits depend on numpy's build (its SIMD kernels change between versions), and a
spot's full float would reach the replay log and the state hash, so one scenario and seed
could give two logs on two machines. A spot snapped to the grid is the same on every machine
unless the exact value lies within a few ulps (~1e-14") of a midpoint between two grid points
(about one value in 10^8).

Why 1e-6": far below anything the rules measure (25 nanometres; the rules' smallest
tolerances, "closer" and base contact, are this size), far above numpy's noise at table scale
(an ulp of 60" is 7e-15"), and the step the players, the advance cut (``path_stop``) and the
events already wrote distances to. A snap moves a point at most half a step on each axis, so
at most ``SNAP_REACH`` (7.1e-7"); a solver that aims at a limit (base contact, its maximum
distance) aims inside it by ``AIM_MARGIN`` and tests the snapped spot, never the raw one
(``sim.rules.movement.solvers.place``).

The snap is pure IEEE arithmetic (one multiply, round half to even, one divide), identical
for a Python float and for a numpy array, and idempotent: a grid point snaps to itself, so a
command read back from a log is the command that was written.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["GRID", "SNAP_REACH", "AIM_MARGIN", "snap", "snap_shifted", "snap_array", "snap_point",
           "snap_places", "snap_turns", "snap_facing", "snap_faces", "snap_key", "snap_keys", "KEY_STEP"]

GRID = 1e-6                      # inches: the step of every position a command carries
_PER_INCH = 1_000_000.0          # 1 / GRID, exact as a float
SNAP_REACH = math.sqrt(2) * GRID / 2   # the furthest a snap moves a point (half a step on each axis)
KEY_STEP = 1e-5                  # inches: the step sort keys are compared at (ten grid steps: more
                                 # than a snap changes a distance, 2 * SNAP_REACH)
_KEYS_PER_INCH = 100_000.0       # 1 / KEY_STEP
AIM_MARGIN = 2 * GRID            # how far inside a limit a solver aims (beyond SNAP_REACH + the
                                 # rules' 1e-7" touch tolerance)


def snap(v: float) -> float:
    """``v`` (inches) on the grid: the nearest multiple of 1e-6" (ties to even)."""
    return round(v * _PER_INCH) / _PER_INCH


def snap_shifted(places, dx: float, dy: float) -> tuple:
    """((id, x, y), ...) each moved by (dx, dy) and put on the grid: (id, snap(x + dx),
    snap(y + dy)), with ``snap`` written out inline (a player tries many shifts of a unit)."""
    k = _PER_INCH
    return tuple([(i, round((x + dx) * k) / k, round((y + dy) * k) / k) for i, x, y in places])


def snap_array(a) -> np.ndarray:
    """Each value of ``a`` on the grid, exactly as ``snap`` puts a float."""
    return np.rint(np.asarray(a, dtype=float) * _PER_INCH) / _PER_INCH


def snap_point(p) -> tuple[float, float]:
    return (snap(float(p[0])), snap(float(p[1])))


def snap_places(to):
    """A command's ``to`` ((model id, x, y), ...) with each position on the grid. Anything not
    of that shape, and values that are no finite numbers, are left as they are, for the
    command's check to refuse by name."""
    if not isinstance(to, (tuple, list)):
        return to
    out = []
    for t in to:
        if type(t) is tuple and len(t) == 3:
            # (the usual place, a tuple of a model id and two floats of table scale, snapped
            # inline: the same tests and the same arithmetic as _snapped's, for a fraction of
            # the calls; NaN fails both comparisons and goes to _snapped)
            m, x, y = t
            x = round(x * _PER_INCH) / _PER_INCH if type(x) is float and -1e9 < x < 1e9 else _snapped(x)
            y = round(y * _PER_INCH) / _PER_INCH if type(y) is float and -1e9 < y < 1e9 else _snapped(y)
            out.append((m, x, y))
        else:
            out.append((t[0], _snapped(t[1]), _snapped(t[2])) if _sized(t, 3) else t)
    return tuple(out)


def snap_turns(via):
    """A command's ``via`` ((model id, ((x, y), ...)), ...) with each turning point on the grid
    (anything not of that shape left as it is, as ``snap_places``)."""
    if not isinstance(via, (tuple, list)):
        return via
    return tuple((t[0], tuple((_snapped(p[0]), _snapped(p[1])) if _sized(p, 2) else p for p in t[1]))
                 if _sized(t, 2) and isinstance(t[1], (tuple, list)) else t for t in via)


FACING_GRID = 1e-6  # degrees: the step of every facing a command carries (03.01 a model turned)
_PER_DEGREE = 1_000_000.0        # 1 / FACING_GRID, exact as a float


def snap_facing(a: float) -> float:
    """A facing in degrees on its grid, in [0, 360): ``a`` modulo 360 rounded to 1e-6 degrees
    (at a 9" hull's tip, 8e-11": far below the position grid), so a facing a solver worked out
    with numpy reads the same on every machine, and 360 and -0.0 read as 0."""
    v = round((a % 360.0) * _PER_DEGREE) / _PER_DEGREE
    return 0.0 if v >= 360.0 or v == 0.0 else v


def snap_faces(face):
    """A command's ``face`` ((model id, degrees), ...) with each facing on its grid (anything
    not of that shape, or not a finite number, left as it is for the check to refuse)."""
    if not isinstance(face, (tuple, list)):
        return face
    return tuple((t[0], snap_facing(t[1])) if _sized(t, 2) and type(t[1]) in (int, float) and math.isfinite(t[1])
                 else t for t in face)


def snap_key(v: float) -> float:
    """A float compared to choose between candidates (a distance, a score) on the coarser key
    step (``KEY_STEP``): two values the same but for numpy's last bits compare equal, so the
    choice falls to the stated tie-break (unit order, model id, generation order), the same on
    every machine; and spots aimed at one limit (base contact, a snap apart) tie too."""
    return round(v * _KEYS_PER_INCH) / _KEYS_PER_INCH


def snap_keys(a) -> np.ndarray:
    """``snap_key`` of each value of an array of sort keys."""
    return np.rint(np.asarray(a, dtype=float) * _KEYS_PER_INCH) / _KEYS_PER_INCH


def _sized(t, n: int) -> bool:
    return isinstance(t, (tuple, list)) and len(t) == n


def _snapped(v):
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)) \
            and math.isfinite(v) and abs(v) < 1e9:
        return snap(float(v))
    return v  # (not a finite number of table scale: left for the check, which refuses it)

"""03.01 A model turning about its base centre (rotations cost no distance; Part A ruling 14):
the area its base sweeps, as bases in place that cover it, for the path checks to test
(sim.rules.movement.legality.turn_blocker).

A round base looks the same at any facing, and an oval or rectangular base the same turned
half a circle, so a turn is made the shorter way to the facing asked for, at most a quarter
circle. The swept area is covered, never under-covered, by:

* ``turn_disc``: the disc about the centre holding the base at every facing (a turn whose disc
  meets nothing that blocks is clear, whatever its angle: the usual turn, in the open);
* ``turn_samples``: otherwise, the base at facings ``step`` apart from the first to the last,
  each grown so that it holds the base at every facing within half a step of it. Between two
  samples a point of the base moves along an arc; at half a step from the nearer sample it is
  at most ``rho * step / 2`` away from where that sample has it (``rho``, the base's bounding
  radius), and ``step`` is chosen so that this is at most ``TURN_MARGIN``;
* ``turn_blocks``: the samples in runs, each run held by one base grown further (a run clear
  of everything is cleared by one test, so a turn near a wall tests the samples of the runs
  near it only);
* ``turn_tree``: the blocks in groups of ``FAN``, each held by one base grown further still,
  and those in groups again, up to a few at the top: a test clears a group at once, and only
  the groups that meet something are looked into. Each base holds every base below it
  (``_holding``), so a sample is tested exactly when its block meets something, as with the
  blocks alone: the same answers, in fewer tests.

The growth: a rectangle grown by the margin on every side holds itself widened by it (its
Minkowski sum with a disc of that radius). An oval base is a polygon of ``OVAL_VERTICES``
corners on an ellipse of half-axes a and b (sim.rules.geometry): widened by ``m`` it lies in
the ellipse of half-axes a + k m, b + k m with k = (a + b) / (2 sqrt(a b)). (Support
functions: the widened ellipse's is |x| + m, x = (a u1, b u2) for a unit direction u; the
grown one's is |x + k m u| >= |x| + k m (x . u) / |x|, and |x| / (x . u) is at most k, its
greatest at u1^2 = b / (a + b).) The polygon drawn on an ellipse holds that ellipse scaled by
cos(pi / n), so the grown polygon's half-axes are those divided by cos(pi / n). So a turn refused errs knowingly: it is refused when the base would pass
within ``TURN_MARGIN`` (and that growth) of something it may not cross, never let through
when it would cross it.
"""

from __future__ import annotations

import math

from typing import NamedTuple

from sim.rules.geometry import OVAL_VERTICES, Footprint

__all__ = ["TURN_MARGIN", "BLOCK", "FAN", "TurnNode", "turn_angle", "turn_blocks", "turn_disc", "turn_samples",
           "turn_tree", "turnable", "turned"]

TURN_MARGIN = 0.01  # inches: how near a sampled turn's base may be to what it may not cross
BLOCK = 12  # samples a block's one grown base holds (``turn_blocks``)
FAN = 4  # blocks (or groups) a group's one grown base holds (``turn_tree``)


def turn_angle(fp: Footprint, angle: float) -> float:
    """The turn, in degrees, from ``fp``'s facing to ``angle`` the shorter way: in (-90, 90]
    for a base the same turned half a circle (oval, rectangle), 0.0 for a round base."""
    if fp.shape == "round":
        return 0.0
    d = (float(angle) - fp.angle) % 180.0
    return d - 180.0 if d > 90.0 else d


def turnable(fp: Footprint) -> bool:
    """Whether turning ``fp`` changes its shape on the table: a rectangle, or an oval longer
    than it is wide (a round base, or an oval as wide as it is long, looks the same turned)."""
    return fp.shape == "rect" or (fp.shape == "oval" and fp.length != fp.width)


def turned(fp: Footprint, angle: float) -> bool:
    """Whether turning ``fp`` to ``angle`` changes where its base lies."""
    return turn_angle(fp, angle) != 0.0


def _grown(fp: Footprint, margin: float) -> Footprint:
    """``fp`` grown to hold itself widened by ``margin`` (this module's docstring)."""
    if fp.shape == "rect":
        return Footprint(fp.shape, fp.x, fp.y, fp.length + 2 * margin, fp.width + 2 * margin, fp.angle)
    a, b = 0.5 * max(fp.length, fp.width), 0.5 * min(fp.length, fp.width)
    grow = margin * (a + b) / (2.0 * math.sqrt(a * b))
    scale = 1.0 / math.cos(math.pi / OVAL_VERTICES)
    # (the growth is added to both half-axes, so the longer axis stays the longer one)
    return Footprint(fp.shape, fp.x, fp.y, 2 * (0.5 * fp.length + grow) * scale, 2 * (0.5 * fp.width + grow) * scale,
                     fp.angle)


def turn_disc(fp: Footprint) -> Footprint:
    """The round base about ``fp``'s centre that holds its grown base (``_grown``) at every
    facing: the whole of any turn's swept area."""
    r = _grown(fp, TURN_MARGIN).bounding_radius
    return Footprint("round", fp.x, fp.y, 2 * r, 2 * r, 0.0)


def turn_blocks(fp: Footprint, angle: float, size: int = BLOCK) -> list[tuple[Footprint, list[Footprint]]]:
    """``turn_samples`` in runs of ``size``, each with one base that holds all of them: the base
    at the run's middle facing, grown by the margin and by how far a point of the base moves
    from that facing to the run's ends (``rho`` times the half run's angle). A block whose
    base meets nothing that blocks clears its samples at once; a test of the samples is
    needed only for a block that does (the turn then costs a test a block and one a sample of
    the blocks near a blocker, not one a sample)."""
    return [(node.base, node.run) for node in _blocks(fp, angle, size)]


class TurnNode(NamedTuple):
    """A base of ``turn_tree``: ``fp`` at ``facing`` grown by ``growth`` (``_grown``), holding
    the nodes ``kids`` (a group) or the samples ``run`` (a block of ``turn_blocks``)."""

    base: Footprint
    facing: float
    growth: float
    kids: tuple
    run: list


def _blocks(fp: Footprint, angle: float, size: int = BLOCK) -> list[TurnNode]:
    """``turn_blocks``' blocks as nodes (their facings and growths kept for ``turn_tree``)."""
    samples = turn_samples(fp, angle)
    if not samples:
        return []
    d = turn_angle(fp, angle)
    k = len(samples) - 1
    out = []
    for i in range(0, len(samples), size):
        run = samples[i:i + size]
        lo, hi = i, i + len(run) - 1
        mid = fp.angle + d * (lo + hi) / (2 * k)
        half = math.radians(abs(d) * (hi - lo) / (2 * k))
        growth = TURN_MARGIN + fp.bounding_radius * half
        out.append(TurnNode(_grown(fp.moved(fp.x, fp.y, mid), growth), mid, growth, (), run))
    return out


def turn_tree(fp: Footprint, angle: float) -> list[TurnNode]:
    """``turn_blocks``' blocks, in turning order, gathered in groups of ``FAN`` under one base
    holding them all (``_holding``), and those groups in groups, until at most ``FAN`` are
    left: the top of the tree, which a check tests first (legality.turn_blocker), looking into a
    node only when its base meets something. Empty when the turn is none."""
    nodes = _blocks(fp, angle)
    while len(nodes) > FAN:
        groups = []
        for i in range(0, len(nodes), FAN):
            kids = tuple(nodes[i:i + FAN])
            if len(kids) == 1:
                groups.append(kids[0])
                continue
            facing = 0.5 * (kids[0].facing + kids[-1].facing)
            growth = max(_holding(fp, kid, facing) for kid in kids)
            groups.append(TurnNode(_grown(fp.moved(fp.x, fp.y, facing), growth), facing, growth, kids, []))
        nodes = groups
    return nodes


def _holding(fp: Footprint, kid: TurnNode, facing: float) -> float:
    """The growth of ``fp`` at ``facing`` whose base (``_grown``) holds ``kid``'s base. Turned
    to ``facing``, a point of ``kid``'s base moves at most its bounding radius times the angle
    between them, E: its base lies in itself at ``facing`` widened by E. A rectangle grown by g
    widened by E lies in it grown by g + E. An oval's base grown by g lies in the ellipse of
    half-axes (a + k g) / c, (b + k g) / c (c = cos(pi / n)); widened by E, in that ellipse's
    half-axes plus k E (k no larger for a rounder ellipse, this module's docstring); and the
    base grown by G holds the ellipse a + k G, b + k G, so G = g / c + a (1 / c - 1) / k + E. A
    hair more for the rounding of the sums."""
    spread = kid.base.bounding_radius * math.radians(abs(kid.facing - facing))
    if fp.shape == "rect":
        return kid.growth + spread + 1e-9
    a, b = 0.5 * max(fp.length, fp.width), 0.5 * min(fp.length, fp.width)
    k = (a + b) / (2.0 * math.sqrt(a * b))
    c = math.cos(math.pi / OVAL_VERTICES)
    return kid.growth / c + a * (1.0 / c - 1.0) / k + spread + 1e-9


def turn_samples(fp: Footprint, angle: float) -> list[Footprint]:
    """The grown bases (``_grown``) at facings from ``fp``'s own to ``angle`` (turned the
    shorter way, ``turn_angle``), evenly spaced at most ``2 * TURN_MARGIN / rho`` radians
    apart (``rho``: the base's bounding radius), the first and the last included: together
    they hold every point the base passes over as it turns. Empty when the turn is none."""
    d = turn_angle(fp, angle)
    if d == 0.0:
        return []
    step = math.degrees(2.0 * TURN_MARGIN / fp.bounding_radius)
    k = max(1, math.ceil(abs(d) / step))
    return [_grown(fp.moved(fp.x, fp.y, fp.angle + d * i / k), TURN_MARGIN) for i in range(k + 1)]

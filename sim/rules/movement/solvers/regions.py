"""03.02 Where a set-up may put a model: the regions of the placement solver (``placement``),
given as data, tested for many candidate spots of one base at once, and checked afterwards by
the rules' own functions.

A ``Region`` is the board and any of these limits, each a rule of its own:

* ``zone``: wholly within this polygon (26 step 8 deployment, 01.04.01 "wholly within"); a base
  that cannot fit in it anywhere (``deployment.fits_within``) is set up touching ``zone_edge``
  instead (03.02.02, its player's battlefield edge);
* ``edge_strip``: wholly within this distance of a battlefield edge (20.04: 6"); a base that
  cannot fit so (``reserves.fits_edge_strip``) touches an edge instead (03.02.02);
* ``away``: more than D horizontally from these footprints and polygons (24.20 Infiltrators:
  8" from the enemy zone and every enemy model; 24.09 Deep Strike and 20.04: 8" from every
  enemy model; 20.04 before round 3: no part in the enemy zone, "more than 0""; 03.02
  unengaged: more than 2" from every enemy model);
* ``near``: wholly within D of one footprint (18.04 disembark: 3" of the transport; 18.05
  emergency disembark: 6"); a base too large for that (its narrower side longer than D) is set
  up within ``near.oversized`` of it instead (03.02.02: 1").

Every limit is kept by ``SLACK`` (5e-4") inside, so a position written with four decimals
(the importer's scenario text) still passes the rule; a base set up touching an edge is put
``EDGE_GAP`` from it (within 03.02.02's ``EDGE_TOUCH``). ``Region.problems`` checks a set-up
with the rules' functions (sim.rules.deployment, sim.rules.reserves, sim.rules.geometry).

The constructors name the rule: ``deployment``, ``infiltrators``, ``deep_strike``,
``ingress_strip``, ``out_of_transport`` (18.04), ``out_of_wreck`` (18.05), ``anywhere``.
The candidate centres a region offers a base (its lattice, the spots against its sides, the
rings round a footprint) are ``spots``'; ``ModelRule.seeds`` adds the rings round what it keeps
away from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

import numpy as np

from sim.rules.arrays import roll_next
from sim.rules.compiled import kernel
from sim.rules.deployment import EDGE_TOUCH, edge_gaps, fits_within, half_extents, player_edge, touches_edge
from sim.rules.geometry import (ENGAGEMENT_RANGE, EPS, Footprint, core, distance, footprint_polygon_distance,
                                point_distances, wholly_within_distance, within)
from sim.rules.movement.kernels import _minkowski_sum, _points_convex_distance, placed_distances
from sim.rules.movement.solvers.spots import EDGE_GAP, LATTICE, SLACK, _own_seeds, _support, directions, ring
from sim.rules.polygons import ccw, convex_pieces
from sim.rules.pre_battle import INFILTRATE_DISTANCE
from sim.rules.transport import DISEMBARK_RANGE, EMERGENCY_RANGE
from sim.rules.reserves import EDGE_DISTANCE, ENEMY_DISTANCE, fits_edge_strip

__all__ = ["Region", "Away", "Near", "ModelRule", "deployment", "infiltrators", "deep_strike", "ingress_strip",
           "out_of_transport", "out_of_wreck", "anywhere", "ring", "directions", "farther_than", "base_area", "SLACK",
           "EDGE_GAP", "LATTICE"]

Point = tuple[float, float]
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


@dataclass(frozen=True, slots=True)
class Away:
    """More than ``distance`` horizontally from every footprint in ``fps`` and every polygon in
    ``polygons`` (edge to edge; "more than 0" from a polygon: no part in it nor touching it).
    ``what`` names them in messages; ``names`` the footprints (for the checks' messages)."""

    distance: float
    fps: tuple[Footprint, ...] = ()
    polygons: tuple[tuple[Point, ...], ...] = ()
    what: str = "every enemy model"
    rule: str = ""
    names: tuple[str, ...] = ()
    _circles: tuple = field(default=(), compare=False, repr=False)   # (farther_than's, of fps)

    def __post_init__(self):
        circles = circles_of(self.fps)
        for a in circles:
            a.flags.writeable = False   # (shared by every mask and check of the region)
        object.__setattr__(self, "_circles", circles)


@dataclass(frozen=True, slots=True)
class Near:
    """Wholly within ``distance`` of ``target`` (every part of the base, 01.04.01); a base too
    large for that (its narrower side longer than ``distance``) within ``oversized`` of it
    instead (03.02.02), or nowhere if None."""

    distance: float
    target: Footprint
    what: str = "the transport"
    rule: str = "18.04"
    oversized: float | None = 1.0


@dataclass(frozen=True, slots=True)
class Region:
    """Where a set-up may put each model (module docstring). ``rule`` names the set-up for
    messages (e.g. "26 step 8")."""

    board: tuple[float, float]
    zone: tuple[Point, ...] | None = None
    zone_edge: str | None = None
    edge_strip: float | None = None
    away: tuple[Away, ...] = ()
    near: Near | None = None
    rule: str = "03.02"
    _pieces: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        if self.zone is not None:
            zone = tuple((float(x), float(y)) for x, y in self.zone)
            object.__setattr__(self, "zone", zone)
            object.__setattr__(self, "_pieces", _zone_pieces(zone))

    # --- words --------------------------------------------------------------------------
    def words(self) -> str:
        """The region in words: 'wholly within the deployment zone, more than 8" from every
        enemy model'."""
        out = []
        if self.zone is not None:
            out.append("wholly within the deployment zone")
        if self.edge_strip is not None:
            out.append(f"wholly within {self.edge_strip:g}\" of a battlefield edge")
        if self.near is not None:
            out.append(f"wholly within {self.near.distance:g}\" of {self.near.what}")
        for a in self.away:
            if a.distance <= 0:
                out.append(f"outside {a.what}")
            else:
                out.append(f"more than {a.distance:g}\" from {a.what}")
        return ", ".join(out) or "on the battlefield"

    def sections(self) -> str:
        rules = [self.rule] + [a.rule for a in self.away if a.rule] + ([self.near.rule] if self.near else [])
        return ", ".join(dict.fromkeys(r for r in rules if r))

    # --- per model -----------------------------------------------------------------------
    def rule_for(self, fp: Footprint) -> "ModelRule":
        """The tests and candidate spots for one base (its shape, size and facing)."""
        return _model_rule(self, fp.shape, fp.length, fp.width, fp.angle)

    # --- the rules' own checks -----------------------------------------------------------
    def problems(self, models: Sequence[tuple[str, Footprint]]) -> list[str]:
        """Every way the set-up ``models`` ((id, footprint) each) breaks the region's limits,
        as the rules word them (empty: none). The other 03.02 checks (no overlap, no terrain,
        coherency) are ``sim.rules.deployment.setup_problems``'."""
        from sim.rules.deployment import deployment_problems
        from sim.rules.reserves import ingress_problems
        out: list[str] = []
        fps = [f for _m, f in models]
        names = [m for m, _f in models]
        if self.zone is not None:
            edge = self.zone_edge
            for mid, fp in models:
                if edge is None or fits_within(fp, self.zone):
                    out += deployment_problems([(mid, 0, fp)], [self.zone])
                elif not touches_edge(fp, self.board, (edge,)):
                    out += deployment_problems([(mid, 0, fp)], [self.zone], self.board)
        if self.edge_strip is not None:
            out += ingress_problems(fps, self.board, [], 2, names=names)
        else:
            for mid, fp in models:
                g = edge_gaps(fp, self.board)
                if min(g.values()) < -EPS:
                    out.append(f"{mid}: its base is not wholly on the battlefield (03.01)")
        if self.near is not None:
            n = self.near
            for mid, fp in models:
                if n.oversized is not None and _too_big_for(fp, n.distance):
                    if not within(fp, n.target, n.oversized):
                        out.append(f"{mid}: too large to be set up wholly within {n.distance:g}\" of {n.what}, "
                                   f"its base must be within {n.oversized:g}\" of it (03.02.02)")
                elif not wholly_within_distance(fp, n.target, n.distance):
                    out.append(f"{mid}: not wholly within {n.distance:g}\" of {n.what} ({n.rule})")
        for a in self.away:
            ox, oy, reach, _inner_r = a._circles
            for mid, fp in models:
                # (only a footprint whose bounding circles come within the distance may be; the
                # first of those in order that is, named)
                gap = np.hypot(ox - fp.x, oy - fp.y) - reach - fp.bounding_radius
                for j in np.flatnonzero(gap <= a.distance + EPS + 1e-6).tolist():
                    o = a.fps[j]
                    d = distance(fp, o)
                    if d <= a.distance + EPS:
                        who = a.names[j] if j < len(a.names) else a.what
                        out.append(f"{mid}: {d:.3f}\" from {who}; it must be set up more than "
                                   f"{a.distance:g}\" from {a.what} ({a.rule or self.rule})")
                        break
                for poly in a.polygons:
                    d = footprint_polygon_distance(fp, poly)
                    if d <= a.distance + EPS:
                        out.append(f"{mid}: {d:.3f}\" from {a.what}; it must be set up "
                                   + ("outside it" if a.distance <= 0 else f"more than {a.distance:g}\" from it")
                                   + f" ({a.rule or self.rule})")
                        break
        return out


# --- constructors ----------------------------------------------------------------------------

def _unengaged(enemies: Sequence[Footprint], names=()) -> tuple[Away, ...]:
    return (Away(ENGAGEMENT_RANGE, tuple(enemies), (), "every enemy model (unengaged)", "03.02",
                 tuple(names)),) if enemies else ()


def deployment(zone, board: tuple[float, float], enemies: Sequence[Footprint] = (), *,
               oversized: bool = True) -> Region:
    """26 step 8: wholly within the player's deployment zone ``zone``; 03.02.02: a base that
    cannot fit in it touches the player's battlefield edge (``oversized``); unengaged (03.02)."""
    zone = tuple((float(x), float(y)) for x, y in zone)
    return Region(tuple(board), zone=zone, zone_edge=player_edge(zone, board) if oversized else None,
                  away=_unengaged(enemies), rule="26 step 8")


def infiltrators(board: tuple[float, float], enemy_zone, enemies: Sequence[Footprint], names=()) -> Region:
    """24.20 Infiltrators: anywhere more than 8" horizontally from the enemy deployment zone and
    from every enemy model."""
    zone = tuple((float(x), float(y)) for x, y in enemy_zone)
    return Region(tuple(board), away=(Away(INFILTRATE_DISTANCE, tuple(enemies), (zone,),
                                           "the enemy deployment zone and every enemy model", "24.20",
                                           tuple(names)),), rule="24.20")


def deep_strike(board: tuple[float, float], enemies: Sequence[Footprint], names=(), distance: float = ENEMY_DISTANCE,
                zone=None) -> Region:
    """24.09 Deep Strike: anywhere more than 8" horizontally from every enemy model (even in the
    enemy deployment zone); a rule's shorter ``distance`` within a ``zone`` (a polygon: wholly
    within it) where the rule allows it."""
    zone = None if zone is None else tuple((float(x), float(y)) for x, y in zone)
    return Region(tuple(board), zone=zone, away=(Away(distance, tuple(enemies), (), "every enemy model", "24.09",
                                                      tuple(names)),), rule="24.09")


def ingress_strip(board: tuple[float, float], enemies: Sequence[Footprint], enemy_zone=None, round: int = 2,
            names=()) -> Region:
    """20.04 An ingress move: wholly within 6" of a battlefield edge (a base that cannot fit so
    touches an edge, 03.02.02), more than 8" from every enemy model and, before battle round 3,
    no part in the enemy deployment zone."""
    from sim.rules.reserves import ZONE_BAN_BEFORE_ROUND
    away = [Away(ENEMY_DISTANCE, tuple(enemies), (), "every enemy model", "20.04", tuple(names))]
    if enemy_zone is not None and round < ZONE_BAN_BEFORE_ROUND:
        away.append(Away(0.0, (), (tuple((float(x), float(y)) for x, y in enemy_zone),),
                         "the enemy deployment zone", "20.04"))
    return Region(tuple(board), edge_strip=EDGE_DISTANCE, away=tuple(away), rule="20.04")


def out_of_transport(board: tuple[float, float], transport: Footprint, enemies: Sequence[Footprint] = (),
                     distance: float = DISEMBARK_RANGE, rule: str = "18.04") -> Region:
    """18.04 A disembark: wholly within ``distance`` (3"; a Combat disembark 6": the rule's
    sim.rules.transport.set_up_distance) of the transport, unengaged (03.02); a model too large
    for that within 1" of it (03.02.02)."""
    return Region(tuple(board), near=Near(distance, transport, "the transport", rule, 1.0),
                  away=_unengaged(enemies), rule=rule)


def out_of_wreck(board: tuple[float, float], transport: Footprint, enemies: Sequence[Footprint] = ()) -> Region:
    """18.05 An emergency disembark: wholly within 6" of the destroyed transport, unengaged
    (03.02; the caller asks again without ``enemies`` where the rule then allows engaged);
    "as close as possible" is the preference (``Prefer.toward_bases``)."""
    return out_of_transport(board, transport, enemies, EMERGENCY_RANGE, "18.05")


def anywhere(board: tuple[float, float]) -> Region:
    """03.02 Anywhere on the battlefield (the sandbox's set-up by hand)."""
    return Region(tuple(board), rule="03.02")


# --- the tests for one base ------------------------------------------------------------------

@lru_cache(maxsize=64)
def _zone_pieces(zone: tuple) -> tuple:
    """The zone's convex pieces as half-plane arrays: (outward normals (E, 2), offsets (E,)),
    read only: kept per zone (a player's every set-up in its zone makes a Region of it)."""
    out = []
    for piece in convex_pieces(np.asarray(zone, dtype=float)):
        p = ccw(piece)
        e = roll_next(p) - p   # (np.roll(p, -1, axis=0)'s values)
        ln = np.hypot(e[:, 0], e[:, 1])
        ok = ln > 1e-12
        n = np.stack([e[ok, 1], -e[ok, 0]], axis=1) / ln[ok, None]
        off = (n * p[ok]).sum(axis=1)
        n.flags.writeable = off.flags.writeable = False
        out.append((n, off))
    return tuple(out)


def _too_big_for(fp: Footprint, d: float) -> bool:
    """03.02.02 A base too large to be set up wholly within ``d`` of a model: its narrower side
    is longer than ``d`` (set flat against the model, it reaches that far out)."""
    return min(fp.length, fp.width) > d + EPS


def _inner_box(m: float, board) -> Footprint:
    W, H = board
    return Footprint("rect", W / 2, H / 2, max(W - 2 * m, 1e-9), max(H - 2 * m, 1e-9))


@dataclass(frozen=True, slots=True)
class ModelRule:
    """The region's limits for one base: ``mode`` is "" (the region's own limits) or which
    03.02.02 fallback applies ("zone edge", "any edge", "near"), with ``edges`` the edges it
    must touch."""

    region: Region
    fp: Footprint
    mode: str
    edges: tuple[str, ...]
    # (``lines`` and ``seeds``, kept once asked: the cache behind them is keyed by the region,
    # whose hash reads every footprint it keeps away from)
    _lines: tuple | None = field(default=None, compare=False, repr=False)
    _seeds: np.ndarray | None = field(default=None, compare=False, repr=False)
    _line_arrays: tuple | None = field(default=None, compare=False, repr=False)
    _zone_limits: tuple | None = field(default=None, compare=False, repr=False)

    def mask(self, c: np.ndarray) -> np.ndarray:
        """(K,) whether the base at each centre keeps every limit of the region (SLACK inside)."""
        c = np.asarray(c, dtype=float).reshape(-1, 2)
        return self._rest_mask(c, _edges_and_zone(self, c))

    def edges_mask(self, c: np.ndarray) -> np.ndarray | None:
        """(K,) ``mask``'s tests that read the battlefield's edges alone, for a region with no
        zone (an ingress's strip, a Deep Strike, a disembark): on the battlefield, touching an
        edge (03.02.02's modes), within the strip. ``mask`` is False wherever this is, and, each
        of its tests being each spot's own, gives the other spots the same answers with or
        without these beside them. None for a region with a zone (whose test reads the spots as
        one matrix product: ``mask`` alone)."""
        if self.region.zone is not None:
            return None
        return _edges_and_zone(self, np.asarray(c, dtype=float).reshape(-1, 2))

    def _rest_mask(self, c: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """``mask``'s tests after the battlefield's edges and the zone (``_rest_mask``)."""
        return _rest_mask(self, c, ok)

    def zone_limits(self) -> tuple:
        """Per convex piece of the zone: its outward normals (E, 2) and how far along each the
        base's centre may go (the piece's offset less the base's reach and SLACK), kept."""
        got = self._zone_limits
        if got is None:
            got = tuple((n, off - (_support(self.fp, n) + SLACK)) for n, off in self.region._pieces)
            object.__setattr__(self, "_zone_limits", got)
        return got

    def seeds(self) -> np.ndarray:
        """Candidate centres the region itself offers (anchors): a lattice over where the base
        may stand, spots touching the zone's edges from inside, the edge (oversized), the ring
        round the ``near`` target, and the rings just outside each ``away`` footprint. Made
        once per region and base (a read-only array: every set-up of a base of this size in
        this region starts from the same spots)."""
        got = self._seeds
        if got is None:
            got = self._make_seeds()
            got.flags.writeable = False
            object.__setattr__(self, "_seeds", got)
        return got

    def _make_seeds(self) -> np.ndarray:
        rg, fp = self.region, self.fp
        own = _own_seeds(rg.board, rg.zone, rg.edge_strip, rg.near, self.mode, self.edges,
                         fp.shape, fp.length, fp.width, fp.angle)
        if self.mode in ("zone edge", "any edge"):
            return own
        out = [own]
        for a in rg.away:
            if len(a.fps) <= 200:
                for o in a.fps:
                    out.append(ring(fp, o, a.distance + 2 * SLACK, 16))
        return np.vstack([o for o in out if len(o)]) if any(len(o) for o in out) else np.zeros((0, 2))

    def lines(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """The lines (a point, a unit direction) along which the base's centre keeps it just
        inside a side of the zone, or against a battlefield edge: where a packer sets a model
        touching both a unit-mate and a side (bottom-left fill)."""
        got = self._lines
        if got is None:
            got = _lines(self.region, self.fp.shape, self.fp.length, self.fp.width, self.fp.angle)
            object.__setattr__(self, "_lines", got)
        return got

    def line_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``lines`` as two read-only (L, 2) arrays: the points and the directions."""
        got = self._line_arrays
        if got is None:
            lines = self.lines()
            got = (np.array([a for a, _t in lines]).reshape(-1, 2), np.array([t for _a, t in lines]).reshape(-1, 2))
            for a in got:
                a.flags.writeable = False
            object.__setattr__(self, "_line_arrays", got)
        return got

    def point_mask(self, pts: np.ndarray) -> np.ndarray:
        """(N,) whether each point is in the region (for the free-area estimate: a point of
        the region, where some base could stand over it)."""
        rg = self.region
        W, H = rg.board
        ok = (pts[:, 0] >= 0) & (pts[:, 0] <= W) & (pts[:, 1] >= 0) & (pts[:, 1] <= H)
        if rg.zone is not None:
            ok &= _points_in_zone(pts, rg._pieces)
        if rg.edge_strip is not None:
            e = np.minimum(np.minimum(pts[:, 0], W - pts[:, 0]), np.minimum(pts[:, 1], H - pts[:, 1]))
            ok &= e <= rg.edge_strip
        if rg.near is not None:
            ok &= point_distances(pts, rg.near.target) <= rg.near.distance
        for a in rg.away:
            if a.fps:
                d = np.min(np.stack([point_distances(pts, o) for o in a.fps]), axis=0)
                ok &= d > a.distance
            for poly in a.polygons:
                ok &= _polygon_distances(Footprint("round", 0, 0, 1e-9, 1e-9), pts, poly) > max(a.distance, 0.0)
        return ok


def _edges_and_zone(rule: ModelRule, c: np.ndarray) -> np.ndarray:
    """03.02 / 03.02.02 / 20.04 ``ModelRule.mask``'s first tests of the base of ``rule`` at each
    of ``c`` (K, 2): on the battlefield (SLACK inside its edges), touching an edge (03.02.02's
    modes) or within the zone (each convex piece's limits, a matrix product), within the edge
    strip (``_clear_of_box``). Each spot's answer is its own."""
    rg, fp = rule.region, rule.fp
    W, H = rg.board
    hx, hy = half_extents(fp)
    gx0, gx1, gy0, gy1 = c[:, 0] - hx, W - c[:, 0] - hx, c[:, 1] - hy, H - c[:, 1] - hy
    ok = (gx0 >= SLACK) & (gx1 >= SLACK) & (gy0 >= SLACK) & (gy1 >= SLACK)
    if rule.mode in ("zone edge", "any edge"):
        gaps = {"west": gx0, "east": gx1, "south": gy0, "north": gy1}
        ok &= np.logical_or.reduce([gaps[e] <= EDGE_TOUCH - 2e-4 for e in rule.edges])
    elif rg.zone is not None and ok.any():
        inside = np.zeros(len(c), dtype=bool)
        for n, lim in rule.zone_limits():
            inside |= ((c @ n.T) <= lim).all(axis=1)
        ok &= inside
    if rg.edge_strip is not None and rule.mode == "" and ok.any():
        ok[ok] = _clear_of_box(fp, c[ok], rg.edge_strip - SLACK, rg.board)
    return ok


# (its compiled twin runs where built: sim.rules.compiled)
_edges_and_zone = kernel("movement.edges_and_zone", _edges_and_zone)


def _rest_mask(rule: ModelRule, c: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """03.02 / 03.02.02 / 18.04 / 20.04 ``ModelRule.mask``'s tests after the battlefield's edges
    and the zone, of the base of ``rule`` at each of ``c`` (K, 2) that ``ok`` (K,) still holds
    (written into ``ok``, which is returned): wholly within the ``near`` target's distance (the
    farthest point of the base: a round base's centre distance to the target plus its radius; a
    hull's farthest core vertex; an oversized base within ``oversized`` of it, edge to edge), and
    more than each ``away`` distance from its footprints (``farther_than``) and polygons. Each
    spot's answer is its own."""
    rg, fp = rule.region, rule.fp
    if rg.near is not None and ok.any():
        n = rg.near
        sel = np.flatnonzero(ok)
        if rule.mode == "near":
            ok[sel] = placed_distances(fp, c[sel], [n.target])[:, 0] <= n.oversized - SLACK
        elif fp.shape == "round":
            ok[sel] = point_distances(c[sel], n.target) + 0.5 * fp.length <= n.distance - SLACK
        else:
            off = core(fp.moved(0.0, 0.0))[0]
            pts = (c[sel][:, None, :] + off[None, :, :]).reshape(-1, 2)
            far = point_distances(pts, n.target).reshape(len(sel), len(off)).max(axis=1)
            ok[sel] = far <= n.distance - SLACK
    for a in rg.away:
        if not ok.any():
            break
        sel = np.flatnonzero(ok)
        if a.fps:
            ok[sel] = farther_than(fp, c[sel], a.fps, a.distance + SLACK, a._circles)
            sel = np.flatnonzero(ok)
        for poly in a.polygons:
            if not len(sel):
                break
            ok[sel] = _polygon_distances(fp, c[sel], poly) > max(a.distance, 0.0) + SLACK
            sel = np.flatnonzero(ok)
    return ok


# (its compiled twin runs where built: sim.rules.compiled)
_rest_mask = kernel("movement.rest_mask", _rest_mask)


def _points_in_zone(pts: np.ndarray, pieces) -> np.ndarray:
    inside = np.zeros(len(pts), dtype=bool)
    for n, off in pieces:
        inside |= ((pts @ n.T) <= off[None, :] + 1e-9).all(axis=1)
    return inside


@lru_cache(maxsize=512)
def _model_rule(region: Region, shape: str, length: float, width: float, angle: float) -> ModelRule:
    fp = Footprint(shape, 0.0, 0.0, length, width, angle)
    mode, edges = "", ()
    if region.zone is not None and region.zone_edge is not None and not fits_within(fp, region.zone):
        mode, edges = "zone edge", (region.zone_edge,)
    elif region.edge_strip is not None and not fits_edge_strip(fp, region.board):
        mode, edges = "any edge", ("south", "north", "west", "east")
    elif region.near is not None and region.near.oversized is not None and _too_big_for(fp, region.near.distance):
        mode = "near"
    return ModelRule(region, fp, mode, edges)


def _inner(fp: Footprint) -> float:
    """A radius about the centre of a circle inside the base's core."""
    return 0.5 * min(fp.length, fp.width) * (1.0 if fp.shape != "oval" else 0.998)


def _clear_of_box(fp: Footprint, c: np.ndarray, m: float, board) -> np.ndarray:
    """(K,) the base at each centre does not meet the box of points ``m`` or more in from every
    edge (``placed_distances`` to it above 0): a base whose bounding circle is more than 1e-6
    clear of the box does not, a base whose inner circle (``_inner``) reaches more than 1e-6
    into it does (the measure rounds far finer, and reads a centre inside its grown core as
    0); the others are measured."""
    W, H = board
    gx = np.maximum(np.maximum(m - c[:, 0], c[:, 0] - (W - m)), 0.0)
    gy = np.maximum(np.maximum(m - c[:, 1], c[:, 1] - (H - m)), 0.0)
    g = np.hypot(gx, gy)   # (how far the centre is from the box: 0 inside it)
    ok = g > fp.bounding_radius + 1e-6
    # (a centre less than its inner circle's radius less 1e-6 from the box, inside it included:
    # the base, which holds that circle, meets it)
    meets = g < _inner(fp) - 1e-6
    sel = (~ok & ~meets).nonzero()[0]
    if len(sel):
        ok[sel] = placed_distances(fp, c[sel], [_inner_box(m, board)])[:, 0] > 0.0
    return ok


def circles_of(fps: Sequence[Footprint]) -> tuple:
    """``farther_than``'s reading of ``fps``: their centres' x and y, bounding radii and the
    radii of circles inside their cores, as arrays."""
    return (np.array([o.x for o in fps], dtype=float), np.array([o.y for o in fps], dtype=float),
            np.array([o.bounding_radius for o in fps], dtype=float), np.array([_inner(o) for o in fps], dtype=float))


def farther_than(fp: Footprint, c: np.ndarray, fps: Sequence[Footprint], d: float,
                 circles: tuple | None = None) -> np.ndarray:
    """(K,) whether the base at each centre is more than ``d`` (edge to edge) from every one of
    ``fps``: decided by the bounding and inner circles where they settle it, measured exactly
    (``placed_distances``) where they do not. The circles of every centre and footprint are
    compared in one block (the same arithmetic entry by entry as one footprint at a time); a
    centre within some footprint's inner circles is out before any is measured, and the others
    are measured footprint by footprint, each only while it still stands. ``circles``:
    ``circles_of(fps)``, if kept (an Away keeps its own)."""
    ok = np.ones(len(c), dtype=bool)
    if not len(c) or not len(fps):
        return ok
    bf, inf = fp.bounding_radius, _inner(fp)
    # (reach: the bounding circles may meet within d; inner: the inner circles are within d)
    ox, oy, reach, inner = circles_of(fps) if circles is None else circles
    # (a footprint whose bounding circle is farther from the centres' box than the reach cannot
    # come within d of any of them, as the block below would find: left out of it)
    lo_x, lo_y = c[:, 0].min(), c[:, 1].min()
    hi_x, hi_y = c[:, 0].max(), c[:, 1].max()
    slack = bf + reach + d + 1e-3
    cols = np.flatnonzero((ox >= lo_x - slack) & (ox <= hi_x + slack) & (oy >= lo_y - slack) & (oy <= hi_y + slack))
    if not len(cols):
        return ok
    if len(cols) < len(ox):
        ox, oy, reach, inner = ox[cols], oy[cols], reach[cols], inner[cols]
        fps = [fps[j] for j in cols.tolist()]
    for lo in range(0, len(c), _FARTHER_ROWS):
        part = slice(lo, lo + _FARTHER_ROWS)
        # (the centre distances as the root of the squares: np.hypot's answer within a few
        # 1e-14", which neither bound below can feel, as each stands 1e-6" off its limit and
        # the exact measure decides within it)
        dx = c[part, 0, None] - ox
        dy = c[part, 1, None] - oy
        dx *= dx
        dy *= dy
        dx += dy
        cd = np.sqrt(dx, out=dx)
        maybe = cd <= bf + reach + d + 1e-6
        sure = maybe & (cd < inf + inner + d - 1e-6)
        ok[part] = ~sure.any(axis=1)
        measure = maybe & ~sure
        for j in np.flatnonzero(measure.any(axis=0)).tolist():
            sel = lo + np.flatnonzero(measure[:, j] & ok[part])
            if len(sel):
                ok[sel] = placed_distances(fp, c[sel], [fps[j]])[:, 0] > d
    return ok


# (its compiled twin runs where built: sim.rules.compiled)
farther_than = kernel("movement.farther_than", farther_than)


_FARTHER_ROWS = 2048  # farther_than's centres compared in one block (a few MB at most)


def _polygon_distances(fp: Footprint, c: np.ndarray, poly) -> np.ndarray:
    """(K,) the edge distance from the base at each centre to the polygon's closed area
    (exact: the least over its convex pieces of the distance from the centre to the piece
    grown by the base)."""
    best = np.full(len(c), np.inf)
    pts, r = core(fp.moved(0.0, 0.0))
    for piece in _pieces(tuple(map(tuple, poly))):
        grown = piece if len(pts) == 1 else _minkowski_sum(piece, -pts)   # (-pts: the core turned 180 deg, still ccw)
        best = np.minimum(best, np.maximum(_points_convex_distance(c, grown) - r, 0.0))
    return best


@lru_cache(maxsize=64)
def _pieces(poly: tuple) -> tuple:
    return tuple(ccw(p) for p in convex_pieces(np.asarray(poly, dtype=float)))


@lru_cache(maxsize=512)
def _lines(region: Region, shape: str, length: float, width: float, angle: float) -> tuple:
    fp = Footprint(shape, 0.0, 0.0, length, width, angle)
    out = []
    if region.zone is not None:
        z = ccw(np.asarray(region.zone, dtype=float))
        for a, b in zip(z, np.roll(z, -1, axis=0)):
            e = b - a
            ln = float(np.hypot(*e))
            if ln > 1e-9:
                t = e / ln
                inward = np.array([-t[1], t[0]])
                h = float(_support(fp, -inward[None, :])[0]) + SLACK + EDGE_GAP
                out.append((a + h * inward, t))
    W, H = region.board
    hx, hy = half_extents(fp)
    g = SLACK + EDGE_GAP
    out += [(np.array([0.0, hy + g]), np.array([1.0, 0.0])), (np.array([0.0, H - hy - g]), np.array([1.0, 0.0])),
            (np.array([hx + g, 0.0]), np.array([0.0, 1.0])), (np.array([W - hx - g, 0.0]), np.array([0.0, 1.0]))]
    return tuple(out)


def base_area(fp: Footprint) -> float:
    """The area of a base in square inches (round and oval: an ellipse; rect: a rectangle)."""
    return fp.length * fp.width * (1.0 if fp.shape == "rect" else math.pi / 4)

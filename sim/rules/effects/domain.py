"""An army's domain: the parts of the battlefield a rule counts as its army's own (the data's
army and detachment rules name it The Shadow of Chaos, Flow of Magic, Power Matrix; the
project calls it the *domain*, since [EC]'s "territory" is already the board half holding a
deployment zone, sim.rules.objectives.territory). Pure functions of the deployment zones, the
objectives and who controls them. The rules' common wording:

* the player's own deployment zone is always in their domain;
* No Man's Land (everywhere outside both deployment zones, RULES.md §26) is in it for a phase
  when, at the start of that phase, the player controls at least half of the objective markers
  within No Man's Land;
* the opponent's deployment zone likewise, with the objective markers within that zone.

Project rulings (README "Rules of datasheets, armies and detachments"):

* an objective is within an area when its point (the marker's centre) is: inside a zone or on
  its edge, else No Man's Land;
* an area with no objective marker in it never joins the domain ("at least half" of none is
  not read as met);
* control changes only when it is settled at the end of a phase or turn (14.02.01), so during
  a phase the control in force is the control at its start: the caller passes it;
* 01.04.01: a model is *within* the domain when any part of its base is (touching counts), and
  *wholly within* it when every part is; a base touching an area outside the domain is not
  wholly within it, and a base across two deployment zones that meet (no No Man's Land between
  them) counts as wholly within neither.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Hashable, Mapping, Sequence

from sim.rules.deployment import wholly_within
from sim.rules.geometry import EPS, Footprint, footprint_polygon_distance
from sim.rules.polygons import point_in_polygon

Point = tuple[float, float]
OWN_ZONE, NO_MANS_LAND, ENEMY_ZONE = "own deployment zone", "no man's land", "enemy deployment zone"


@dataclass(frozen=True, slots=True)
class Domain:
    """A player's domain now: their own zone and the opponent's (polygons), and whether No Man's
    Land and the opponent's zone are in it."""

    own: tuple
    enemy: tuple
    no_mans_land: bool = False
    enemy_zone: bool = False

    @property
    def areas(self) -> tuple[str, ...]:
        """The areas in the domain, in words (the unit card's and the log's)."""
        return (OWN_ZONE,) + ((NO_MANS_LAND,) if self.no_mans_land else ()) + \
            ((ENEMY_ZONE,) if self.enemy_zone else ())


def area_of(point: Point, own, enemy) -> str:
    """Which area a point lies in (on a zone's edge: that zone; in both, zones that overlap: the
    player's own)."""
    if point_in_polygon(point, own) >= 0:
        return OWN_ZONE
    if point_in_polygon(point, enemy) >= 0:
        return ENEMY_ZONE
    return NO_MANS_LAND


def _controller(value):
    return getattr(value, "controller", value)


def holds_half(player: Hashable, names: Sequence[str], controls: Mapping[str, object]) -> bool:
    """The player controls at least half of the objectives ``names`` (none: False, module
    docstring). ``controls``: objective name -> ObjectiveControl or the controlling player."""
    if not names:
        return False
    mine = sum(1 for n in names if _controller(controls.get(n)) == player)
    return 2 * mine >= len(names)


def domain(player: Hashable, own, enemy, objectives: Sequence, controls: Mapping[str, object]) -> Domain:
    """The player's domain (module docstring): ``own`` and ``enemy`` their deployment zone and
    the opponent's (polygons); ``objectives`` the battle's (sim.rules.objectives.Objective: a
    name and a point); ``controls`` who controls each at the start of the phase."""
    nml = [o.name for o in objectives if area_of((o.x, o.y), own, enemy) == NO_MANS_LAND]
    theirs = [o.name for o in objectives if area_of((o.x, o.y), own, enemy) == ENEMY_ZONE]
    own_t = tuple((float(x), float(y)) for x, y in own)
    enemy_t = tuple((float(x), float(y)) for x, y in enemy)
    return Domain(own_t, enemy_t, holds_half(player, nml, controls), holds_half(player, theirs, controls))


def _touches(fp: Footprint, zone) -> bool:
    """01.04.01 Some part of the base is within the zone (touching its edge counts). A base
    whose bounding circle lies clear of the zone's bounding box by more than twice EPS is not
    (every point of the one is that far from every point of the other along an axis): the
    exact distance is measured only for the others."""
    x0, y0, x1, y1 = _box(zone)
    r = fp.bounding_radius
    if max(x0 - (fp.x + r), (fp.x - r) - x1, y0 - (fp.y + r), (fp.y - r) - y1) > 2 * EPS:
        return False
    return footprint_polygon_distance(fp, zone) <= EPS


def _box(zone) -> tuple[float, float, float, float]:
    """The zone's bounding box (x0, y0, x1, y1); kept for a zone given as a tuple (a battle's)."""
    if type(zone) is tuple:
        try:
            return _kept_box(zone)
        except TypeError:  # (points of lists: not kept)
            pass
    return _box_of(zone)


@functools.lru_cache(maxsize=64)
def _kept_box(zone: tuple) -> tuple[float, float, float, float]:
    return _box_of(zone)


def _box_of(zone) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in zone]
    ys = [float(p[1]) for p in zone]
    return min(xs), min(ys), max(xs), max(ys)


def model_within(fp: Footprint, d: Domain) -> bool:
    """01.04.01 Some part of the model's base is within the domain."""
    if d.no_mans_land and d.enemy_zone:
        return True  # (the whole battlefield)
    if d.no_mans_land:  # (everywhere but the enemy zone: some part of it outside that zone)
        return _touches(fp, d.own) or not wholly_within(fp, d.enemy)
    return _touches(fp, d.own) or (d.enemy_zone and _touches(fp, d.enemy))


def model_wholly_within(fp: Footprint, d: Domain) -> bool:
    """01.04.01 Every part of the model's base is within the domain (module docstring)."""
    if d.no_mans_land and d.enemy_zone:
        return True
    if d.no_mans_land:  # (no part of it in the enemy zone, unless that part is the own zone's too)
        return wholly_within(fp, d.own) or not _touches(fp, d.enemy)
    return wholly_within(fp, d.own) or (d.enemy_zone and wholly_within(fp, d.enemy))


def unit_within(fps: Sequence[Footprint], d: Domain) -> bool:
    """A unit is within the domain when one of its models is (01.04.01)."""
    return any(model_within(fp, d) for fp in fps)


def unit_wholly_within(fps: Sequence[Footprint], d: Domain) -> bool:
    """A unit is wholly within the domain when every one of its models is (01.04.01); a unit with
    no model on the battlefield is not."""
    return bool(fps) and all(model_wholly_within(fp, d) for fp in fps)

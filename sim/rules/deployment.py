"""26 step 8 Deployment: every model set up wholly within its player's deployment zone
(01.04.01 "wholly within": every part of the base). Zones default to Part A ruling 22."""

from __future__ import annotations

import numpy as np

from sim.rules.geometry import EPS, Footprint, core, footprint_polygon_distance
from sim.rules.polygons import point_in_polygon, polygon_inside

Point = tuple[float, float]


def wholly_within(fp: Footprint, zone) -> bool:
    """01.04.01 Every part of the base lies inside the zone polygon (or on its edge): a round
    base's centre is inside and at least its radius from every edge (exact); a hull's core
    polygon lies inside (rect: exact; oval: its inscribed 64-gon, sim.rules.geometry)."""
    if fp.shape == "round":
        if point_in_polygon((fp.x, fp.y), zone) < 0:
            return False
        r = 0.5 * fp.length
        pts = np.asarray(zone, dtype=float)
        nxt = np.roll(pts, -1, axis=0)
        c = np.array([fp.x, fp.y])
        ab = nxt - pts
        t = np.clip(((c - pts) * ab).sum(axis=1) / np.maximum((ab * ab).sum(axis=1), 1e-300), 0.0, 1.0)
        d = np.hypot(*(pts + t[:, None] * ab - c).T)
        return bool(d.min() >= r - EPS)
    return polygon_inside(core(fp)[0], zone)


def deployment_problems(models, zones) -> list[str]:
    """26 step 8: for each (model id, owner, footprint) not wholly within ``zones[owner]``, the
    reason, naming the model and how far it is from the zone (0 when it straddles the edge)."""
    out = []
    for mid, owner, fp in models:
        zone = zones[owner]
        if not wholly_within(fp, zone):
            gap = footprint_polygon_distance(fp, zone)
            where = f"{gap:.2f}\" outside it" if gap > EPS else "across its edge"
            out.append(f"{mid} is not wholly within its deployment zone ({where}) (26 step 8)")
    return out

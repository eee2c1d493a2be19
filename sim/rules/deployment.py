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


def setup_problems(models, others, areas) -> list[str]:
    """03.02 Setting a unit up (an ingress move, 20.04): every model placed on no other model's
    base (03.01: touching is fine), in no light or dense feature (Part A ruling 13), and the
    unit in coherency (03.03). ``models`` are (id, footprint) of the unit as set up; ``others``
    (id, footprint) of every other model on the battlefield. Distances to enemies and the
    board's edges are sim.rules.reserves.ingress_problems'."""
    from sim.rules.coherency import coherency_problems
    from sim.rules.geometry import overlaps
    from sim.rules.move_legality import end_blocker, terrain_index
    out = []
    terr = terrain_index(areas)
    for mid, fp in models:
        hit = next((oid for oid, ofp in others
                    if abs(ofp.x - fp.x) < ofp.bounding_radius + fp.bounding_radius
                    and abs(ofp.y - fp.y) < ofp.bounding_radius + fp.bounding_radius and overlaps(fp, ofp)), None)
        if hit is not None:
            out.append(f"{mid}: it would be set up on {hit}'s base (03.02, 03.01)")
        blocked = end_blocker(fp, terr)
        if blocked is not None:
            out.append(f"{mid}: {blocked[0]} (03.02, Part A ruling 13)")
    for a, (ma, fa) in enumerate(models):
        for mb, fb in models[a + 1:]:
            if overlaps(fa, fb):
                out.append(f"{ma}: it would be set up on {mb}'s base (03.02, 03.01)")
    out += [str(p) for p in coherency_problems(list(models))]
    return out

"""13.01 Terrain footprints as plain polygons: validity checks and convex pieces.

Helpers for terrain areas and features (simple polygons in inches, Part A ruling 1):
signed area, simplicity, point-in-polygon with a boundary band, polygon-in-polygon, and a
decomposition into convex pieces whose *open interiors together equal the open interior of
the polygon* (needed so that a sight line running exactly along an internal diagonal of an
L-shaped wall is still seen as crossing the wall).
"""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import roll_next

__all__ = [
    "signed_area", "ccw", "is_simple", "self_intersection", "point_in_polygon",
    "polygon_inside", "is_convex", "convex_pieces", "BOUNDARY_EPS",
]

BOUNDARY_EPS = 1e-7  # inches: points this close to an edge count as on the boundary


def signed_area(poly) -> float:
    """13.01 Shoelace area, positive for counter-clockwise polygons (each vertex with the next:
    ``roll_next``, np.roll's values without its wrapper)."""
    p = np.asarray(poly, dtype=float)
    q = roll_next(p)
    return 0.5 * float(np.sum(p[:, 0] * q[:, 1] - q[:, 0] * p[:, 1]))


def ccw(poly) -> np.ndarray:
    """13.01 The polygon as a float array in counter-clockwise order."""
    p = np.asarray(poly, dtype=float)
    return p[::-1].copy() if signed_area(p) < 0 else p.copy()


def _orient(p, q, r) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _on_segment(p, a, b, eps=BOUNDARY_EPS) -> bool:
    ab = (b[0] - a[0], b[1] - a[1])
    L2 = ab[0] ** 2 + ab[1] ** 2
    if L2 == 0:
        return (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2 <= eps * eps
    t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / L2
    t = min(1.0, max(0.0, t))
    dx, dy = a[0] + t * ab[0] - p[0], a[1] + t * ab[1] - p[1]
    return dx * dx + dy * dy <= eps * eps


def _segments_meet(a0, a1, b0, b1) -> bool:
    """Closed segments intersect (touching counts)."""
    d1, d2 = _orient(b0, b1, a0), _orient(b0, b1, a1)
    d3, d4 = _orient(a0, a1, b0), _orient(a0, a1, b1)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return (_on_segment(a0, b0, b1) or _on_segment(a1, b0, b1)
            or _on_segment(b0, a0, a1) or _on_segment(b1, a0, a1))


def self_intersection(poly) -> tuple[int, int] | None:
    """13.01 The first pair of edges (i, j) that meet other than at their shared vertex, or None."""
    p = [tuple(map(float, v)) for v in poly]
    n = len(p)
    for i in range(n):
        a0, a1 = p[i], p[(i + 1) % n]
        for j in range(i + 1, n):
            b0, b1 = p[j], p[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):
                # adjacent edges: they may only share the common vertex (no fold-back)
                shared = a1 if j == i + 1 else a0
                other_a = a0 if j == i + 1 else a1
                other_b = b1 if j == i + 1 else b0
                if _on_segment(other_b, a0, a1) and other_b != shared:
                    return (i, j)
                if _on_segment(other_a, b0, b1) and other_a != shared:
                    return (i, j)
                continue
            if _segments_meet(a0, a1, b0, b1):
                return (i, j)
    return None


def is_simple(poly) -> bool:
    """13.01 At least 3 points, non-zero area and no edges crossing or touching."""
    return len(poly) >= 3 and abs(signed_area(poly)) > 1e-9 and self_intersection(poly) is None


def point_in_polygon(pt, poly, eps: float = BOUNDARY_EPS) -> int:
    """13.01 1 if strictly inside, 0 on the boundary (within eps), -1 outside."""
    # (the vertices as Python floats: the same IEEE doubles and arithmetic as numpy's scalars,
    # several times faster to read one by one)
    p = np.asarray(poly, dtype=float).tolist()
    x, y = float(pt[0]), float(pt[1])
    n = len(p)
    if n == 1:
        return 0 if (p[0][0] - x) ** 2 + (p[0][1] - y) ** 2 <= eps * eps else -1
    for i in range(n):
        if _on_segment((x, y), p[i], p[(i + 1) % n], eps):
            return 0
    if n < 3:
        return -1
    inside = False
    for i in range(n):
        x0, y0 = p[i]
        x1, y1 = p[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xc > x:
                inside = not inside
    return 1 if inside else -1


def polygon_inside(inner, outer) -> bool:
    """13.01 Every point of ``inner`` lies inside ``outer`` or on its boundary."""
    a = np.asarray(inner, dtype=float)
    b = np.asarray(outer, dtype=float)
    na, nb = len(a), len(b)
    for v in a:
        if point_in_polygon(v, b) < 0:
            return False
    # (each edge's length once, np.hypot as before; the points as Python floats: the same
    # doubles and arithmetic as numpy's scalars, read faster)
    la_all = [float(x) or 1.0 for x in np.hypot(*(np.roll(a, -1, axis=0) - a).T)]
    lb_all = [float(x) or 1.0 for x in np.hypot(*(np.roll(b, -1, axis=0) - b).T)]
    a_pts, b_pts = a.tolist(), b.tolist()
    for i in range(na):
        a0, a1 = a_pts[i], a_pts[(i + 1) % na]
        la = la_all[i]
        for j in range(nb):
            b0, b1 = b_pts[j], b_pts[(j + 1) % nb]
            lb = lb_all[j]
            d1, d2 = _orient(b0, b1, a0) / lb, _orient(b0, b1, a1) / lb
            d3, d4 = _orient(a0, a1, b0) / la, _orient(a0, a1, b1) / la
            e = BOUNDARY_EPS
            if ((d1 > e and d2 < -e) or (d1 < -e and d2 > e)) and \
                    ((d3 > e and d4 < -e) or (d3 < -e and d4 > e)):
                return False
        # an edge may leave a concave outer polygon through two vertices: check points along it
        for t in (0.25, 0.5, 0.75):
            if point_in_polygon(a[i] + t * (a[(i + 1) % na] - a[i]), b) < 0:
                return False
    return True


def is_convex(poly) -> bool:
    """13.01 Counter-clockwise polygon with no reflex vertex (collinear vertices allowed)."""
    p = np.asarray(poly, dtype=float)
    n = len(p)
    for i in range(n):
        if _orient(p[i - 1], p[i], p[(i + 1) % n]) < -1e-12:
            return False
    return True


def _triangulate(p: np.ndarray) -> list[tuple[int, int, int]]:
    """Ear clipping of a simple counter-clockwise polygon: triangles as vertex indices."""
    idx = list(range(len(p)))
    tris: list[tuple[int, int, int]] = []
    guard = 0
    while len(idx) > 3 and guard < 10000:
        guard += 1
        m = len(idx)
        for k in range(m):
            i0, i1, i2 = idx[k - 1], idx[k], idx[(k + 1) % m]
            if _orient(p[i0], p[i1], p[i2]) <= 1e-12:
                continue
            tri = p[[i0, i1, i2]]
            if any(point_in_polygon(p[j], tri, 0.0) >= 0 for j in idx if j not in (i0, i1, i2)):
                continue
            tris.append((i0, i1, i2))
            idx.pop(k)
            break
        else:
            break  # degenerate remainder (collinear points): stop
    if len(idx) == 3:
        tris.append(tuple(idx))
    return tris


def convex_pieces(poly) -> list[np.ndarray]:
    """13.11 Convex pieces whose open interiors together equal the polygon's open interior.

    A convex polygon is its own piece. Otherwise: ear-clip triangulation, Hertel-Mehlhorn
    merging into convex pieces, then for every remaining internal diagonal a thin convex
    rhombus straddling it (inside the two pieces beside it), so that a segment running along
    the diagonal still meets the interior of some piece.
    """
    p = ccw(poly)
    if is_convex(p):
        return [p]
    pieces = [list(t) for t in _triangulate(p)]
    merged = True
    while merged:
        merged = False
        for a in range(len(pieces)):
            for b in range(a + 1, len(pieces)):
                shared = _shared_edge(pieces[a], pieces[b])
                if shared is None:
                    continue
                cand = _merge(pieces[a], pieces[b], shared)
                if is_convex(p[cand]):
                    pieces[a] = cand
                    pieces.pop(b)
                    merged = True
                    break
            if merged:
                break
    out = [p[c] for c in pieces]
    for a in range(len(pieces)):
        for b in range(a + 1, len(pieces)):
            shared = _shared_edge(pieces[a], pieces[b])
            if shared is None:
                continue
            u, v = p[shared[0]], p[shared[1]]
            mid = 0.5 * (u + v)
            ca, cb = p[pieces[a]].mean(axis=0), p[pieces[b]].mean(axis=0)
            out.append(ccw(np.array([u, mid + 0.5 * (ca - mid), v, mid + 0.5 * (cb - mid)])))
    return out


def _shared_edge(a: list[int], b: list[int]) -> tuple[int, int] | None:
    na = len(a)
    for i in range(na):
        u, v = a[i], a[(i + 1) % na]
        nb = len(b)
        for j in range(nb):
            if b[j] == v and b[(j + 1) % nb] == u:
                return (u, v)
    return None


def _merge(a: list[int], b: list[int], edge: tuple[int, int]) -> list[int]:
    u, v = edge
    i = a.index(u)
    a_rot = a[i + 1:] + a[:i + 1]          # ends with u, starts after u (i.e. v first)
    j = b.index(v)
    b_rot = b[j + 1:] + b[:j + 1]          # starts after v ... ends with v
    # a_rot = [v, ..., u]; b_rot = [u, ..., v] minus the shared endpoints
    return a_rot + b_rot[1:-1]

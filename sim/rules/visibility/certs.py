"""06.01 / 13.08 Certificates of the batched fully-visible test (sim.rules.visibility.full).

Cheap, sound decisions that settle most pairs (or sample points) before the exact sample
tests, for round footprints A (observer) and B (target) with the CSR inputs of
sim.rules.visibility.batch. Each certificate has margins (1e-7" to 1e-6", or 1e-7 rad) far above
the kernels' 1e-9" crossing tolerance and float rounding, so it gives the answer of
kernels.footprint_fully_visible exactly:

* ``ring_shadowed`` ("not fully visible"): a point of B's fixed outline ring lies in the
  umbra of one convex piece lit by A (the certificate of umbra.umbra_blocked, for a
  point). Every segment from A to it crosses the piece, so no candidate line is free.
* ``sample_inside`` ("not fully visible"): one of B's fixed samples lies inside a convex
  piece.
* ``star_free`` ("fully visible"): every segment from one apex to B misses every piece.
* ``point_certificates``: per sample point of B, a free sight direction towards A ("seen")
  or every direction towards A entering a piece nearer than A ("hidden").

The kernel's own cases are kept: a point of B inside A is seen only along a candidate line
through it (no certificate covers B overlapping A, or a point closer than 1e-4" to A);
when a piece comes near A's outline (``near_a``) the candidate lines (tangents to A,
obstacle vertices) need not reach the part of A it leaves free, so "seen" certificates
there only vouch for the kernel's own lines (its first segment, from A's outline towards
the point; the tangents to A). Pieces from polygons.convex_pieces are not always convex
(the rhombus laid along a diagonal can be a dart); the kernels' separating-axis test then
blocks less than the polygon, so "hidden" certificates skip such pieces (``Pieces.convex``)
and "seen" ones only use separations that hold for the polygon's convex hull.
"""

from __future__ import annotations

import numpy as np

from sim.rules.visibility.batch import ragged_expand
from sim.rules.visibility.kernels import Pieces
from sim.rules.arrays import first_last, flatnonzero, roll_prev, sorted_unique
from sim.rules.compiled import kernel

__all__ = ["FIXED", "RING", "near_a", "point_certificates", "ring_shadowed", "sample_inside",
           "star_free"]

RING, _INNER = 16, 8
_FREE = 1e-7            # separation margin of the star certificate (inches)
_ANG = 1e-7             # angular margin (radians) of the point certificates
_CLOSE = 1e-4           # a piece this close to a point (inches) hides every direction


def _fixed_offsets() -> np.ndarray:
    """Unit offsets of the samples every pair gets in kernels.boundary_samples: the ring
    of 16 outline points, the inner ring of 8 at half size and the centre."""
    t = np.linspace(0, 2 * np.pi, RING, endpoint=False)
    u = np.linspace(0, 2 * np.pi, _INNER, endpoint=False) + np.pi / _INNER
    return np.concatenate([np.stack([np.cos(t), np.sin(t)], 1),
                           0.5 * np.stack([np.cos(u), np.sin(u)], 1), np.zeros((1, 2))])


FIXED = _fixed_offsets()
_RING_COS, _RING_SIN = FIXED[:RING, 0].copy(), FIXED[:RING, 1].copy()


# --- "not fully visible" -------------------------------------------------------------------

def _umbra_rows(D, e, k, pk: Pieces):
    """For entries (pair ``e``, piece ``k``): the umbra of the chord between the piece's
    silhouette vertices seen from A's centre, lit by disc A grown by 1e-6" (as in
    umbra.umbra_blocked), as three half-planes n . x <= o (unit n, o pulled in by the
    target's 1e-6" margin): rows (nx, ny, o) of a (3, 3, E) array (the chord line, then the
    tangents through its ends), and ``valid`` (convex pieces only)."""
    nx, ny, off, vx, vy = (a.take(k, axis=1) for a in pk.soa)  # (V, E)
    cx, cy, r = D[0].take(e), D[1].take(e), D[2].take(e) + 1e-6
    F = nx * cx + ny * cy > off
    T = F != roll_prev(F)
    a, b, nt = first_last(T)
    E = np.arange(len(e))
    x1, y1, x2, y2 = vx[a, E], vy[a, E], vx[b, E], vy[b, E]
    sw = (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx) < 0      # t1 -> t2 counter-clockwise
    x1, x2 = np.where(sw, x2, x1), np.where(sw, x1, x2)
    y1, y2 = np.where(sw, y2, y1), np.where(sw, y1, y2)
    ex, ey = x2 - x1, y2 - y1
    le = np.sqrt(ex * ex + ey * ey)
    valid = (nt == 2) & (le > 1e-9) & pk.convex.take(k)
    le[le == 0] = 1.0
    H = np.empty((3, 3, len(e)))
    H[0, 0], H[0, 1] = -ey / le, ex / le                        # chord normal towards A
    H[0, 2] = H[0, 0] * x1 + H[0, 1] * y1
    valid &= H[0, 0] * cx + H[0, 1] * cy - r >= H[0, 2] + 1e-9
    for row, (px, py, qx, qy, sg) in ((1, (x1, y1, x2, y2, 1.0)), (2, (x2, y2, x1, y1, -1.0))):
        wx, wy = cx - px, cy - py
        d2 = wx * wx + wy * wy
        h = np.sqrt(np.maximum(d2 - r * r, 0.0))
        valid &= d2 > r * r
        d2[~valid] = 1.0
        n_x = (-r * wx - sg * h * wy) / d2
        n_y = (-r * wy + sg * h * wx) / d2
        valid &= n_x * (qx - px) + n_y * (qy - py) <= 0
        H[row, 0], H[row, 1], H[row, 2] = n_x, n_y, n_x * px + n_y * py
    H[:, 2] -= 1e-6                     # the target's margin: n . x <= o - 1e-6
    return H, valid


def ring_shadowed(D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """Certificate "not fully visible" for pairs ``q`` (each with pieces): a point of B's
    fixed outline ring lies in the umbra of one of the pair's convex pieces lit by A
    (``_umbra_rows``). Every segment from A to such a point crosses the chord's relative
    interior, inside the piece, and goes on into it. ``D`` = (ax, ay, ra, bx, by, rb)."""
    e, pos = ragged_expand(pstart, q)
    k = pidx.take(pos)
    qe = q.take(e)
    H, valid = _umbra_rows(D, qe, k, pk)
    bx, by, rb = (a.take(qe) for a in D[3:])
    hit = None
    for row in range(3):            # n . (cB + rB u_s) <= o  <=>  n . u_s <= (o - n . cB) / rB
        nx, ny = H[row, 0], H[row, 1]
        t = (H[row, 2] - nx * bx - ny * by) / rb
        m = nx[:, None] * _RING_COS + ny[:, None] * _RING_SIN <= t[:, None]
        hit = m if hit is None else hit & m
    out = np.zeros(len(q), dtype=bool)
    out[e[hit.any(axis=1) & valid]] = True
    return out


# (its compiled twin runs where built: sim.rules.compiled)
ring_shadowed = kernel("visibility.ring_shadowed", ring_shadowed)


def sample_inside(D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """Certificate "not fully visible" for pairs ``q``: one of B's fixed samples lies inside
    a convex piece of the pair by more than ``_CLOSE`` (every segment to it enters the
    piece) and outside A by more than that (a point of A counts as seen)."""
    e, pos = ragged_expand(pstart, q)
    k = pidx.take(pos)
    qe = q.take(e)
    bx, by, rb = D[3].take(qe), D[4].take(qe), D[5].take(qe)
    nx, ny, off = (a.take(k, axis=1) for a in pk.soa[:3])      # (V, E)
    t = (off - nx * bx - ny * by - _CLOSE) / rb                 # n . o_s < t: inside edge v
    ins = np.ones((len(e), len(FIXED)), dtype=bool)
    for v in range(len(nx)):
        ins &= nx[v][:, None] * FIXED[:, 0] + ny[v][:, None] * FIXED[:, 1] < t[v][:, None]
    sx = bx[:, None] + rb[:, None] * FIXED[:, 0] - D[0].take(qe)[:, None]
    sy = by[:, None] + rb[:, None] * FIXED[:, 1] - D[1].take(qe)[:, None]
    ra = D[2].take(qe)[:, None] + _CLOSE
    ins &= sx * sx + sy * sy > ra * ra
    out = np.zeros(len(q), dtype=bool)
    out[e[ins.any(axis=1) & pk.convex.take(k)]] = True
    return out


# (its compiled twin runs where built: sim.rules.compiled)
sample_inside = kernel("visibility.sample_inside", sample_inside)


# --- "fully visible" -----------------------------------------------------------------------

def near_a(D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q``: a piece of the pair comes within ``_FREE`` of A's outline (or inside
    it), by the largest signed distance of A's centre to the piece's edge lines (a lower
    bound of the distance to a convex piece; the bounding circle for the others)."""
    e, pos = ragged_expand(pstart, q)
    k = pidx.take(pos)
    gx, gy, go = (a.take(k, axis=1) for a in pk.soa[:3])
    qe = q.take(e)
    ax, ay, ra = D[0].take(qe), D[1].take(qe), D[2].take(qe)
    close = (gx * ax + gy * ay - go).max(axis=0) < ra + _FREE
    cx, cy, rho = (c.take(k) for c in pk.circle)
    close |= ~pk.convex.take(k) & (np.sqrt((cx - ax) ** 2 + (cy - ay) ** 2) - rho < ra + _FREE)
    near = np.zeros(len(q), dtype=bool)
    near[e[close]] = True
    return near


# (its compiled twin runs where built: sim.rules.compiled)
near_a = kernel("visibility.near_a", near_a)


# star apexes on A's outline: angles from the direction of B; then A's centre and the two
# tangent families (``_tangent_apexes``)
_STAR = np.array([0.5, -0.5])


def star_free(D, q, pk: Pieces, pstart, pidx, near) -> np.ndarray:
    """Certificate "fully visible" for pairs ``q``: for one apex p, the quadrilateral
    holding every segment from p to disc B (sides along the tangents from p to B grown by
    ``_FREE``, far side tangent to it, near side where the segments begin) is separated
    from every piece of the pair by more than ``_FREE`` (separating axes: its sides and the
    pieces' edges; a side separates a piece's convex hull, an edge the piece as the
    kernels test it). Then every segment from p to a point of B is free with a margin.
    Apexes (``near``: pairs with a piece near A's outline, ``near_a``):

    * points of A's outline (angles ``_STAR`` from the direction of B), unless ``near``:
      every point of B is seen from A, and the exact point test, whose candidate lines
      bound every free range, finds a free line;
    * A's centre, near side on A's outline: the exact test's first segment (from A's
      outline towards each point of B) is free;
    * ``_tangent_apexes``: the tangents to A through the points of B on one side (candidate
      lines of the exact test) are free.

    None when B overlaps A (a point of B inside A is the exact test's own case: seen only
    along a candidate line through it). Returns a mask over ``q``."""
    e, pos = ragged_expand(pstart, q)
    if len(e) == 0:
        return np.ones(len(q), dtype=bool)
    return _stars_separated(*_star_apexes(D, q, near), e, pidx.take(pos), pk)


# (its compiled twin runs where built: sim.rules.compiled; its angles are numpy's own)
star_free = kernel("visibility.star_free", star_free)


def _star_apexes(D, q, near):
    """star_free's apexes for pairs ``q`` (Q, 5: two on A's outline, unless ``near``; A's
    centre; the two tangent apexes) and their cones towards B (``_star_axes``, and the near
    sides ``s0``): the arguments of ``_stars_separated`` before its entries."""
    ax, ay, ra, bx, by, rb = (a.take(q) for a in D)
    ux, uy = bx - ax, by - ay
    L = np.maximum(np.sqrt(ux * ux + uy * uy), 1e-12)
    ux, uy = ux / L, uy / L
    c, s = np.cos(_STAR), np.sin(_STAR)
    tgx, tgy, tok, tnear = _tangent_apexes(ax, ay, ra, bx, by, rb, L)
    px = np.concatenate([ax[:, None] + ra[:, None] * (c * ux[:, None] - s * uy[:, None]),
                         ax[:, None], tgx], axis=1)                 # (Q, S) apexes
    py = np.concatenate([ay[:, None] + ra[:, None] * (s * ux[:, None] + c * uy[:, None]),
                         ay[:, None], tgy], axis=1)
    S, n0 = px.shape[1], len(_STAR)
    ok = ((L > ra + rb + _FREE)[:, None]).repeat(S, axis=1)  # B clear of A
    ok[:, n0 + 1:] &= tok
    ok[:, :n0] &= ~near.take(q)[:, None]
    wx, wy, W, rr, sn, h, ok = _star_axes(px, py, ok, bx, by, rb)
    # the near side (across w, this far from the apex along w): at the apex on A's outline;
    # at A's outline for its centre; before the tangent arc
    s0 = np.zeros((len(q), S))
    s0[:, n0] = ra * h[:, n0] * (1.0 - 1e-9)
    s0[:, n0 + 1:] = np.where(tok, tnear - (wx * px + wy * py)[:, n0 + 1:], 0.0)
    s0 = np.maximum(s0 / h, 0.0)
    return px, py, s0, ok, wx, wy, W, rr, sn, h


def _star_axes(px, py, ok, bx, by, rb):
    """For apexes (px, py) (Q, S) towards disc B (centre bx, by, radius rb grown by
    ``_FREE``): the unit direction to B's centre, the distance, the grown radius, the sine
    and cosine of the cone's half angle, and ``ok`` with the apexes inside B dropped."""
    wx, wy = bx[:, None] - px, by[:, None] - py
    W = np.sqrt(wx * wx + wy * wy)
    rr = (rb + _FREE)[:, None]
    ok = ok & (W > rr * 1.000001)                           # apex outside B
    W = np.where(ok, W, 1.0)
    wx, wy = wx / W, wy / W
    sn = np.where(ok, rr / W, 0.0)
    h = np.sqrt(1.0 - sn * sn)
    return wx, wy, W, rr, sn, h, ok


def _stars_separated(px, py, s0, ok, wx, wy, W, rr, sn, h, e, k, pk: Pieces) -> np.ndarray:
    """Per pair (rows of the (Q, S) apex arrays): for one apex that applies (``ok``), the
    quadrilateral from the near side (``s0`` along the sides) to beyond disc B is separated
    by more than ``_FREE`` from every piece of the pair (entries: pair ``e``, piece ``k``)."""
    Q, S = px.shape
    t1x, t1y = wx * h - wy * sn, wy * h + wx * sn           # side directions from the apex
    t2x, t2y = wx * h + wy * sn, wy * h - wx * sn
    far = (W + rr) / h
    # quadrilateral (Q, S, 4) vertices: near corner 1, far corners, near corner 2; outward
    # side normals and offsets: side 1, far side, side 2, near side
    tx = np.stack([px + t1x * s0, px + t1x * far, px + t2x * far, px + t2x * s0], -1)
    ty = np.stack([py + t1y * s0, py + t1y * far, py + t2y * far, py + t2y * s0], -1)
    nx = np.stack([-t1y, wx, t2y, -wx], -1)
    ny = np.stack([t1x, wy, -t2x, -wy], -1)
    no = nx * tx + ny * ty                      # side i through vertex i
    # rows: (entry, apex), entry-major; only apexes that apply
    r = flatnonzero(ok.take(e, axis=0).ravel())
    ent, ap = r // S, r % S
    kk = k.take(ent)
    flat = e.take(ent) * S + ap
    TX, TY = tx.reshape(-1, 4).take(flat, axis=0), ty.reshape(-1, 4).take(flat, axis=0)
    # the pieces' edge normals: the quadrilateral's vertices all beyond one edge
    pnx, pny, poff, pvx, pvy = pk.soa
    gx, gy, go = pnx.take(kk, axis=1), pny.take(kk, axis=1), poff.take(kk, axis=1)
    m = gx * TX[:, 0] + gy * TY[:, 0]
    for j in (1, 2, 3):
        np.minimum(m, gx * TX[:, j] + gy * TY[:, j], out=m)
    sep = (m - go >= _FREE).any(axis=0)
    # the quadrilateral's sides: the piece's vertices all beyond one side
    vx, vy = pvx.take(kk, axis=1), pvy.take(kk, axis=1)
    NX, NY = nx.reshape(-1, 4).take(flat, axis=0), ny.reshape(-1, 4).take(flat, axis=0)
    NO = no.reshape(-1, 4).take(flat, axis=0)
    for j in range(4):
        sep |= (NX[:, j] * vx + NY[:, j] * vy).min(axis=0) - NO[:, j] >= _FREE
    # apex s works for pair i if no entry of pair i is blocked for it
    bad = np.zeros(Q * S, dtype=bool)
    bad[flat[~sep]] = True
    return (ok & ~bad.reshape(Q, S)).any(axis=1)


# (its compiled twin runs where built: sim.rules.compiled)
_stars_separated = kernel("visibility.stars_separated", _stars_separated)


def _tangent_apexes(ax, ay, ra, bx, by, rb, L):
    """For each pair, two apexes (one per side) whose star region towards B holds every
    tangent segment from a point q of B to its tangent point on A on that side: the tangent
    points lie on an arc of A (angles phi_q +- beta_q, phi_q the direction of q from A's
    centre, cos beta_q = rA / |q - cA|, bounded over B); the apex is behind the arc on the
    line from B's centre through the arc's outer corner (where the tangents to A at the
    arc's ends meet), far enough that the arc's ends and that corner are inside the cone
    towards B grown by ``_FREE``. Returns (x, y, ok, near) arrays (Q, 2); ``near``: the
    smallest projection of the arc's ends and corner on the direction from the apex to B's
    centre (the tangent segments lie beyond it)."""
    rr = rb + _FREE
    ok = L - rb > ra * (1.0 + 1e-9)
    Ls = np.where(ok, L, 2.0 * (ra + rb) + 1.0)
    phi = np.arctan2(by - ay, bx - ax)
    dl = np.arcsin(np.minimum(rb / Ls, 1.0))
    bmin = np.arccos(np.minimum(ra / np.maximum(Ls - rb, 1e-12), 1.0))
    bmax = np.arccos(np.minimum(ra / (Ls + rb), 1.0))
    # the two sides at once: rows (+, -)
    a0 = np.stack([phi - dl + bmin, phi - dl - bmax])
    a1 = np.stack([phi + dl + bmax, phi + dl - bmin])
    half, mid = 0.5 * (a1 - a0), 0.5 * (a0 + a1)
    okk = ok & (half < 0.5 * np.pi)
    cm = ra / np.cos(np.where(okk, half, 0.0))
    mx, my = ax + cm * np.cos(mid), ay + cm * np.sin(mid)        # the arc's outer corner
    wx, wy = bx - mx, by - my
    Dm = np.sqrt(wx * wx + wy * wy)
    okk &= Dm > rr
    Dm = np.where(okk, Dm, 1.0)
    wx, wy = wx / Dm, wy / Dm
    ends = [(ax + ra * np.cos(a), ay + ra * np.sin(a)) for a in (a0, a1)]
    t = np.zeros_like(mx)
    for ex, ey in ends:
        ex, ey = ex - mx, ey - my
        lat = np.abs(wx * ey - wy * ex)
        axl = wx * ex + wy * ey
        f = lat / rr
        okk &= f < 0.5
        t = np.maximum(t, (f * Dm - axl) / np.where(f < 0.5, 1.0 - f, 1.0))
    t = t * (1.0 + 1e-9) + 1e-9
    apx, apy = mx - t * wx, my - t * wy
    # the arc lies beyond the line through its nearest end (or corner) across w' (w' from
    # this apex to B's centre)
    vx, vy = bx - apx, by - apy
    vn = np.where(okk, np.sqrt(vx * vx + vy * vy), 1.0)
    vx, vy = vx / vn, vy / vn
    nr = vx * mx + vy * my
    for ex, ey in ends:
        nr = np.minimum(nr, vx * ex + vy * ey)
    return apx.T, apy.T, okk.T, (nr - 1e-9).T


# --- per sample point ----------------------------------------------------------------------

_PT_CHUNK = 1024        # points per chunk of point_certificates


def point_certificates(qx, qy, owner, D, pk: Pieces, pstart, pidx):
    """Certificates for sample points q of B (pair ``owner``, no piece near A's outline),
    from the angular intervals of the pair's pieces seen from q (between their silhouette
    vertices, of the convex hull for a piece that is not convex; a piece closer than
    ``_CLOSE`` to q spans every direction). The directions from q meeting A are [-b, b]
    about the direction of A's centre (sin b = rA / |q - cA|).

    * seen: a direction in [-b, b] that no piece's interval (grown by ``_ANG``) holds: the
      segment from q to A that way is free by a margin, and the exact point test (exact
      when no piece comes near A's outline) finds a free line;
    * hidden: [-b, b] lies inside the union of the (open, shrunk by ``_ANG``) intervals of
      convex pieces wholly nearer to q than A is along that direction (every segment from
      A to q enters one of them), or q lies inside a convex piece.

    Returns (seen, hidden) masks. Points go in chunks."""
    seen = np.zeros(len(qx), dtype=bool)
    hidden = np.zeros(len(qx), dtype=bool)
    sil = _silhouettes(D, sorted_unique(owner), pk, pstart, pidx)
    for c0 in range(0, len(qx), _PT_CHUNK):
        sl = slice(c0, c0 + _PT_CHUNK)
        seen[sl], hidden[sl] = _point_part(qx[sl], qy[sl], owner[sl], D, pk, pstart, pidx, sil)
    return seen, hidden


# (its compiled twin runs where built: sim.rules.compiled; its angles are numpy's own)
point_certificates = kernel("visibility.point_certificates", point_certificates)


def _silhouettes(D, q, pk: Pieces, pstart, pidx):
    """For the pieces of pairs ``q`` (arrays over positions in ``pidx``): whether every point
    of B sees the same silhouette of the (convex) piece and lies farther than ``_CLOSE``
    from it (the lines of the edges next to the silhouette vertices seen from B's centre,
    and the piece, are farther than rB + ``_CLOSE`` from it: the facing edges of a convex
    piece seen from outside are contiguous, so the silhouette moves only when the point
    crosses one of those lines), and those silhouette vertices (x1, y1, x2, y2)."""
    n = len(pidx)
    stable = np.zeros(n, dtype=bool)
    out = [np.zeros(n) for _ in range(4)]
    e, pos = ragged_expand(pstart, q)
    if len(e) == 0:
        return stable, out
    k = pidx.take(pos)
    nx, ny, off, vx, vy = (a.take(k, axis=1) for a in pk.soa)  # (V, E)
    qe = q.take(e)
    sd = nx * D[3].take(qe) + ny * D[4].take(qe) - off
    F = sd > 0
    T = F != roll_prev(F)
    a, b, nt = first_last(T)
    E = np.arange(len(e))
    g = D[5].take(qe) + _CLOSE
    st = (nt == 2) & pk.convex.take(k) & (sd.max(axis=0) > g)
    nv = pk.nverts.take(k)
    for i in (a, b):
        st &= (np.abs(sd[i, E]) > g) & (np.abs(sd[(i - 1) % nv, E]) > g)
    stable[pos] = st
    for arr, v in zip(out, (vx[a, E], vy[a, E], vx[b, E], vy[b, E])):
        arr[pos] = v
    return stable, out


def _point_part(qx, qy, owner, D, pk: Pieces, pstart, pidx, sil):
    """``point_certificates`` for one chunk of points."""
    Q = len(qx)
    ax, ay, ra = (a.take(owner) for a in D[:3])
    ux, uy = ax - qx, ay - qy
    L = np.sqrt(ux * ux + uy * uy)
    ok = L > ra + _CLOSE                            # q outside A (else: the exact test)
    L = np.where(ok, L, 1.0)
    ux, uy = ux / L, uy / L
    b = np.arcsin(np.minimum(np.where(ok, ra / L, 0.0), 1.0))
    e, pos = ragged_expand(pstart, owner)           # entries (point, piece)
    k = pidx.take(pos)
    stable, (sx1, sy1, sx2, sy2) = sil
    px, py = qx.take(e), qy.take(e)
    rx, ry = ux.take(e), uy.take(e)
    ang = []
    for vx, vy in ((sx1.take(pos), sy1.take(pos)), (sx2.take(pos), sy2.take(pos))):
        wx, wy = vx - px, vy - py
        ang.append(np.arctan2(rx * wy - ry * wx, rx * wx + ry * wy))
    lo, hi = _interval(ang[0], ang[1])
    un = flatnonzero(~stable.take(pos))
    hidden = np.zeros(Q, dtype=bool)
    if len(un):
        lo[un], hi[un], ins = _piece_angles(qx, qy, ux, uy, e[un], k[un], pk)
        hidden[e[un[ins]]] = True                   # q inside a convex piece
    # seen: an uncovered direction in [-b, b]
    be = b.take(e)
    keep = (lo - _ANG <= be) & (hi + _ANG >= -be)
    seen = ~_covered(e[keep], lo[keep] - _ANG, hi[keep] + _ANG, b, Q, strict=False)
    # hidden: pieces wholly nearer than A along the direction of A (bounding circle: every
    # ray towards A meets them before it reaches A) cover [-b, b]
    cx, cy, rho = pk.circle
    front = (cx.take(k) - px) * rx + (cy.take(k) - py) * ry + rho.take(k) \
        < L.take(e) - ra.take(e) - 1e-6
    front &= (lo + _ANG < be) & (hi - _ANG > -be) & (hi - lo < 5.0) & pk.convex.take(k)
    hidden |= _covered(e[front], lo[front] + _ANG, hi[front] - _ANG, b, Q, strict=True)
    return seen & ok, hidden & ok & ~seen


def _covered(pe, lo, hi, b, Q, strict: bool) -> np.ndarray:
    """Per point: is [-b, b] inside the union of the intervals (lo, hi) of its entries
    ``pe`` (sorted; open intervals if ``strict``, else closed)?"""
    out = np.zeros(Q, dtype=bool)
    if len(pe) == 0:
        return out
    # by point, then lo (|lo| < 16; a tie broken the wrong way at 1e-11 is harmless: the
    # intervals carry _ANG margins)
    o = np.argsort(pe * 32.0 + lo, kind="stable")
    pe, lo, hi = pe.take(o), lo.take(o), hi.take(o)
    off = 32.0 * pe                                 # running max of hi within each point
    reach = np.maximum.accumulate(hi + off) - off
    first = np.ones(len(pe), dtype=bool)
    first[1:] = pe[1:] != pe[:-1]
    prev = np.empty(len(pe))
    prev[1:] = reach[:-1]
    bp = b.take(pe)
    prev[first] = -bp[first]                        # the start of [-b, b]
    last = np.ones(len(pe), dtype=bool)
    last[:-1] = first[1:]
    gap = (lo >= prev) if strict else (lo > prev)
    gap |= last & ((reach <= bp) if strict else (reach < bp))
    out[pe] = True
    out[pe[gap]] = False
    return out


def _interval(a1, a2):
    """The angular interval (lo, hi), hi - lo < pi, between directions a1 and a2 (in
    (-pi, pi]), placed (mod 2 pi) to meet (-pi/2, pi/2) if it does (an interval through
    the back direction meets it on one side at most)."""
    d = a2 - a1
    d = np.where(d > np.pi, d - 2 * np.pi, np.where(d < -np.pi, d + 2 * np.pi, d))
    lo = np.where(d >= 0, a1, a2)                   # in (-pi, pi]
    hi = lo + np.abs(d)
    back = hi - 2 * np.pi >= -0.5 * np.pi
    lo[back] -= 2 * np.pi
    hi[back] -= 2 * np.pi
    return lo, hi


def _piece_angles(qx, qy, ux, uy, e, k, pk: Pieces):
    """For entries (point e, piece k): the piece's angular interval seen from point q[e]
    relative to the direction (ux, uy)[e] (``_interval``, between the silhouette vertices
    seen from q; over every vertex for a piece that is not convex). A piece within
    ``_CLOSE`` of q (or holding it) gets (-10, 10); ``inside``: q lies inside the (convex)
    piece by more than that."""
    nx, ny, off, vx, vy = (a.take(k, axis=1) for a in pk.soa)  # (V, E)
    px, py = qx.take(e), qy.take(e)
    sd = nx * px + ny * py - off                    # > 0: edge faces q
    F = sd > 0
    smax = sd.max(axis=0)
    close = smax < _CLOSE
    inside = (smax < -_CLOSE) & pk.convex.take(k)
    T = F != roll_prev(F)
    a, b, _n = first_last(T)
    E = np.arange(len(e))
    rx, ry = ux.take(e), uy.take(e)
    ang = []
    for i in (a, b):
        wx, wy = vx[i, E] - px, vy[i, E] - py
        ang.append(np.arctan2(rx * wy - ry * wx, rx * wx + ry * wy))
    lo, hi = _interval(ang[0], ang[1])
    nc = flatnonzero(~pk.convex.take(k))
    if len(nc):
        # not convex: the interval of its convex hull (every vertex); q inside the hull
        # spans every direction
        wx, wy = vx[:, nc] - px[nc], vy[:, nc] - py[nc]
        aa = np.arctan2(rx[nc] * wy - ry[nc] * wx, rx[nc] * wx + ry[nc] * wy)  # (V, n)
        use2 = aa.max(axis=0) - aa.min(axis=0) >= np.pi
        aa = np.where(use2, np.where(aa < 0, aa + 2 * np.pi, aa), aa)
        J = np.arange(len(nc))
        a0, a1 = aa[aa.argmin(axis=0), J], aa[aa.argmax(axis=0), J]
        lo[nc], hi[nc] = _interval(np.where(a0 > np.pi, a0 - 2 * np.pi, a0),
                                   np.where(a1 > np.pi, a1 - 2 * np.pi, a1))
        close[nc] |= aa.max(axis=0) - aa.min(axis=0) >= np.pi - 1e-6
    lo[close] = -10.0
    hi[close] = 10.0
    return lo, hi, inside

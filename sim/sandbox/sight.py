"""The sight mask: what one model can see of the table, shaded where it cannot.

The table is sampled on a grid of points (every ``RES`` inches); each point is visible if a
straight line from some point of the observer's base reaches it without crossing a blocker,
with the blockers of 13.10/13.11 for a point as if it were a tiny model standing there (dense
features of areas the observer or the point is within; obscuring areas neither is within).
The geometry is the rules' own (sim.rules.visibility.kernels.points_visible_from on the battle's
TerrainBlockers), vectorised over all the points of a group at once. Masks are cached per
observer position; nothing here writes the world.

Worked out over several frames (``visible`` with a budget), a mask comes in two passes: every
COARSE-th point each way first, shown at once as a provisional mask (each cell its coarse
sample's answer), then the rest. While the observer is being dragged, a new position abandons
the old one's second pass (its provisional mask stays shown) instead of waiting for it, so the
shading follows the drag a few frames behind instead of a whole mask's work behind; where the
observer stops, the exact mask follows."""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import pygame

from sim.rules.geometry import core
from sim.rules.visibility.kernels import points_visible_from
from sim.rules.visibility.sight import TerrainBlockers
from sim.sandbox.table_edit import point_in_polygon

RES = 1.0  # inches between grid points
CHUNK = 192  # points evaluated per step of a progressive job
COARSE = 2  # the first pass of a progressive job: every COARSE-th grid point in x and in y
SHADE = (12, 16, 14, 120)  # what a hidden cell is darkened by


@dataclass
class _Job:
    """A mask being worked out over several frames (``SightMask._start``)."""

    key: tuple  # the observer's position (SightMask._key)
    core: tuple  # its core and radius (sim.rules.geometry.core)
    out: np.ndarray  # the answers so far, one a grid point
    work: list  # chunks left, (point indices, active piece indices), taken from the end
    coarse_left: int  # the first pass's chunks left (0 from the start: no first pass)
    two_pass: bool = field(init=False)

    def __post_init__(self):
        self.two_pass = self.coarse_left > 0

    @property
    def first_pass_done(self) -> bool:
        """It had a first pass and has shown it: only the rest is left."""
        return self.two_pass and not self.coarse_left


class SightMask:
    def __init__(self, battle, res: float = RES):
        self.battle = battle
        self.res = res
        self._blk = None
        self._cache: OrderedDict = OrderedDict()
        self._surf_key = None
        self._surf_mask = None
        self._surf = None
        self._job: _Job | None = None  # (a progressive job: _start)
        self.current = None  # the last mask shown, complete or a first pass (kept while another is computed)

    @property
    def blockers(self) -> TerrainBlockers:
        if self._blk is None:
            self._setup()
        return self._blk

    def _setup(self) -> None:
        bw, bh = self.battle.scenario.board
        self._blk = TerrainBlockers.build(self.battle.scenario.terrain)
        nx, ny = int(round(bw / self.res)), int(round(bh / self.res))
        xs = (np.arange(nx) + 0.5) * bw / nx
        ys = (np.arange(ny) + 0.5) * bh / ny
        gx, gy = np.meshgrid(xs, ys)
        self.shape = (ny, nx)
        self.pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
        # which areas each point is within, grouped by that signature
        within = np.zeros((len(self.pts), len(self._blk.areas)), dtype=bool)
        for k, area in enumerate(self._blk.areas):
            poly = np.asarray(area.polygon)
            lo, hi = poly.min(axis=0), poly.max(axis=0)
            cand = np.flatnonzero((self.pts[:, 0] >= lo[0]) & (self.pts[:, 0] <= hi[0])
                                  & (self.pts[:, 1] >= lo[1]) & (self.pts[:, 1] <= hi[1]))
            for i in cand:
                within[i, k] = point_in_polygon(self.pts[i, 0], self.pts[i, 1], area.polygon)
        self.groups: list[tuple[np.ndarray, np.ndarray]] = []
        keys, inv = np.unique(within, axis=0, return_inverse=True)
        for g, key in enumerate(keys):
            self.groups.append((key, np.flatnonzero(inv.ravel() == g)))

    @staticmethod
    def _key(fp):
        return (fp.shape, round(fp.x, 3), round(fp.y, 3), fp.length, fp.width, fp.angle)

    def _start(self, fp):
        blk = self.blockers
        wa = blk.within(fp)
        first, second = [], []  # (the coarse pass, then the rest; each point is in one of them)
        nx = self.shape[1]
        for wkey, idx in self.groups:
            active = np.flatnonzero(blk.active(wa, wkey))
            if len(active):
                row, col = np.divmod(idx, nx)
                coarse = (row % COARSE == 0) & (col % COARSE == 0)
                for part, into in ((idx[coarse], first), (idx[~coarse], second)):
                    for k in range(0, len(part), CHUNK):
                        into.append((part[k:k + CHUNK], active))
        # (work.pop() takes the last: the coarse chunks are put last so that they go first)
        self._job = _Job(self._key(fp), core(fp), np.ones(len(self.pts), dtype=bool), second[::-1] + first[::-1],
                         len(first))

    def _run(self, budget: float | None) -> bool:
        job = self._job
        (a_core, a_r), out, work = job.core, job.out, job.work
        end = None if budget is None else time.perf_counter() + budget
        pieces = self.blockers.pieces
        while work:
            idx, active = work.pop()
            out[idx] = points_visible_from(a_core, a_r, self.pts[idx], pieces.subset(active))
            if job.coarse_left:
                job.coarse_left -= 1
                if not job.coarse_left and work:  # (the first pass done: shown until the rest is)
                    self.current = self._provisional(out)
            if end is not None and time.perf_counter() > end:
                break
        if work:
            return False
        mask = out.reshape(self.shape)
        self._cache[job.key] = mask
        while len(self._cache) > 64:
            self._cache.popitem(last=False)
        self._job = None
        self.current = mask
        return True

    def visible(self, fp, budget: float | None = None) -> np.ndarray | None:
        """(ny, nx) bool: grid points the footprint ``fp`` can see, cached per position. With a
        ``budget`` (seconds) a new mask is computed progressively over several calls, and the
        last mask shown (complete, or a first pass's provisional one; None before any) is
        returned until it is ready."""
        key = self._key(fp)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            self.current = hit
            self._job = None
            return hit
        self.blockers
        if budget is None:  # all at once, now
            self._start(fp)
            self._run(None)
            return self.current
        job = self._job
        if job is not None and job.key != key and job.first_pass_done:
            self._job = None  # (an older position's second pass: its provisional mask is shown)
        if self._job is None:
            self._start(fp)
        # an older position's first pass is finished first (while dragging, the shading follows
        # a few frames behind instead of never catching up)
        self._run(budget)
        return self.current

    def _provisional(self, out: np.ndarray) -> np.ndarray:
        """The mask from the first pass alone: each cell the answer of the coarse point at or
        before it in x and in y (a new array; never cached)."""
        mask = out.reshape(self.shape)
        ny, nx = self.shape
        rows = np.arange(ny) // COARSE * COARSE
        cols = np.arange(nx) // COARSE * COARSE
        return mask[np.ix_(rows, cols)]

    def draw(self, surf: pygame.Surface, cam, fp, budget: float | None = 0.004) -> None:
        """Darken the cells ``fp`` cannot see (only the part of the board in the viewport)."""
        mask = self.visible(fp, budget)
        if mask is None:
            return
        ny, nx = mask.shape
        bw, bh = self.battle.scenario.board
        vp = cam.viewport
        x0, y0 = cam.to_table(vp.left, vp.top)
        x1, y1 = cam.to_table(vp.right, vp.bottom)
        i0 = max(0, int(np.floor(x0 / bw * nx)))
        i1 = min(nx, int(np.ceil(x1 / bw * nx)))
        j0 = max(0, int(np.floor(y0 / bh * ny)))
        j1 = min(ny, int(np.ceil(y1 / bh * ny)))
        if i1 <= i0 or j1 <= j0:
            return
        sx0, sy0 = cam.to_screen(i0 * bw / nx, j0 * bh / ny)
        sx1, sy1 = cam.to_screen(i1 * bw / nx, j1 * bh / ny)
        size = (max(1, round(sx1 - sx0)), max(1, round(sy1 - sy0)))
        key = (i0, i1, j0, j1, size)
        if key != self._surf_key or mask is not self._surf_mask:  # (a provisional mask lives briefly: by identity)
            small = pygame.Surface((i1 - i0, j1 - j0), pygame.SRCALPHA)
            small.fill(SHADE[:3] + (0,))
            alpha = pygame.surfarray.pixels_alpha(small)
            alpha[:, :] = np.where(mask[j0:j1, i0:i1].T, 0, SHADE[3]).astype(np.uint8)
            del alpha
            self._surf = pygame.transform.smoothscale(small, size) if size[0] * size[1] < 4_000_000 else \
                pygame.transform.scale(small, size)
            self._surf_key, self._surf_mask = key, mask
        surf.blit(self._surf, (round(sx0), round(sy0)))

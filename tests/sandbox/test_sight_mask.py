"""The sandbox's sight mask (sim.sandbox.sight): worked out over several frames, it shows its
first pass (every COARSE-th grid point each way) as a provisional mask, then the exact one; a
new observer position abandons an older one's second pass, so that while a model is dragged
the shading is never more than a first pass behind; where the observer stops, the mask is the
one worked out all at once. A budget below zero makes each call work one chunk of points (no
clock is read for the answers)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from sim.battle import Battle  # noqa: E402
from sim.sandbox import sight as S  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402
from sim.world import queries as W  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ONE_CHUNK = -1.0  # (a budget already spent: each call works one chunk)


@pytest.fixture(scope="module")
def battle():
    with Battle(load_scenario(ROOT / "scenarios" / "battle_default.toml"), seed=1) as b:
        yield b


def _fp(battle, dx=0.0, dy=0.0):
    fp = W.footprint(battle.models["w-squad1/1"])
    return fp.moved(fp.x + dx, fp.y + dy)


def _chunks(mask: S.SightMask, fp) -> tuple[int, int]:
    """(first-pass chunks, all chunks) of a job for ``fp``."""
    mask._start(fp)
    job = mask._job
    mask._job = None
    return job.coarse_left, len(job.work)


def test_the_first_pass_is_shown_then_the_exact_mask(battle):
    exact = S.SightMask(battle).visible(_fp(battle), None)
    assert exact.shape == (44, 60) and exact.any() and not exact.all()
    m = S.SightMask(battle)
    first, total = _chunks(m, _fp(battle))
    assert 0 < first < total
    shown = [m.visible(_fp(battle), ONE_CHUNK) for _ in range(total)]
    assert all(s is None for s in shown[:first - 1])
    provisional = shown[first - 1]
    assert provisional is not None and all(s is provisional for s in shown[first - 1:total - 1])
    # (each cell shows its coarse sample's answer, and the coarse samples are exact)
    c = S.COARSE
    assert np.array_equal(provisional[::c, ::c], exact[::c, ::c])
    assert np.array_equal(provisional, np.repeat(np.repeat(exact[::c, ::c], c, 0), c, 1)[:44, :60])
    assert np.array_equal(shown[-1], exact) and m._job is None
    assert m.visible(_fp(battle), ONE_CHUNK) is shown[-1]  # (cached)


def test_while_dragged_the_mask_is_never_more_than_a_first_pass_behind(battle):
    m = S.SightMask(battle)
    first, total = _chunks(m, _fp(battle))
    changes, last = [], None
    steps = 4 * total
    for k in range(steps):
        shown = m.visible(_fp(battle, 0.05 * (k + 1), 0.02 * (k + 1)), ONE_CHUNK)
        if shown is not last:
            changes.append(k)
            last = shown
    gaps = [b - a for a, b in zip(changes, changes[1:])]
    assert len(changes) >= steps // (first + 1) - 1 and max(gaps) <= first + 1
    # where the drag stops, the mask becomes the one worked out all at once
    stop = _fp(battle, 0.05 * steps, 0.02 * steps)
    for _ in range(2 * total):
        shown = m.visible(stop, ONE_CHUNK)
    assert np.array_equal(shown, S.SightMask(battle).visible(stop, None))


def test_a_provisional_mask_is_drawn_anew_even_if_it_reuses_an_old_arrays_identity(battle):
    import pygame
    from sim.sandbox.camera import Camera
    pygame.init()
    surf = pygame.Surface((600, 440))
    cam = Camera(battle.scenario.board, pygame.Rect(0, 0, 600, 440))
    m = S.SightMask(battle)
    masks = [np.ones((44, 60), dtype=bool), np.zeros((44, 60), dtype=bool)]
    m.visible = lambda fp, budget=None: masks[0]
    m.draw(surf, cam, _fp(battle))
    drawn = m._surf
    m.draw(surf, cam, _fp(battle))
    assert m._surf is drawn  # (the same mask: its surface is kept)
    masks[0] = masks[1]  # (another mask, whatever its id)
    m.draw(surf, cam, _fp(battle))
    assert m._surf is not drawn

"""Seeded random input (clicks, drags, wheel, keys) never raises and never leaves the world
inconsistent: the session replays to the same events and state hashes."""

from __future__ import annotations

import random

import pygame
import pytest

from sandbox_support import DATA, ROOT, SIZE
from sim.replay.log import replay

KEYS = [pygame.K_s, pygame.K_f, pygame.K_m, pygame.K_RETURN, pygame.K_SPACE, pygame.K_n, pygame.K_p,
        pygame.K_ESCAPE, pygame.K_v, pygame.K_TAB, pygame.K_e, pygame.K_HOME, pygame.K_F1,
        pygame.K_PLUS, pygame.K_MINUS, pygame.K_a, pygame.K_1]


def _storm(d, rng: random.Random, n: int) -> None:
    sb = d.sb
    for i in range(n):
        r = rng.random()
        if r < 0.25 and sb.scene.models:  # click near a model, on the table
            m = rng.choice(list(sb.scene.models))
            x, y = d.model_pos(m)
            pos = (x + rng.randint(-6, 6), y + rng.randint(-6, 6))
            d.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
            d.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
            d.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        elif r < 0.45:  # click a live button
            names = [k for k, b in sb.names.items() if b.alive() and not k.startswith("bar:save")
                     and k != "bar:table"]
            if names:
                b = sb.names[rng.choice(sorted(names))]
                pos = b.rect.center
                d.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
                d.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
                d.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        elif r < 0.6:  # anywhere
            pos = (rng.randrange(SIZE[0]), rng.randrange(SIZE[1]))
            button = rng.choice((1, 1, 1, 2, 3))
            d.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
            d.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
            d.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
        elif r < 0.75:  # drag from a model
            m = rng.choice(list(sb.scene.models))
            a = d.model_pos(m)
            b = (a[0] + rng.randint(-200, 200), a[1] + rng.randint(-200, 200))
            button = rng.choice((1, 1, 3))
            d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=button)
            for k in range(1, 4):
                p = (a[0] + (b[0] - a[0]) * k // 3, a[1] + (b[1] - a[1]) * k // 3)
                d.post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
            d.post(pygame.MOUSEBUTTONUP, pos=b, button=button)
        elif r < 0.82:
            d.post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-2, -1, 1, 2)), flipped=False)
        else:
            k = rng.choice(KEYS)
            d.post(pygame.KEYDOWN, key=k, unicode=pygame.key.name(k)[:1], mod=0, scancode=0)
        if i % 4 == 0:
            d.pump(1, draw=(i % 40 == 0))
    d.pump(2)


def _finish(d) -> None:
    sb = d.sb
    for _ in range(500):
        if not sb.resolving:
            return
        if sb.battle.pending is not None:
            sb.answer(sb.battle.pending.default)
        sb.finish()
    raise AssertionError("could not finish the activation")


def _consistent(sb) -> None:
    bw, bh = sb.spec.board
    for m in sb.scene.models.values():
        assert 0 <= m.x <= bw and 0 <= m.y <= bh, m
        assert m.remaining <= m.W
    assert isinstance(sb.battle.state_hash(), str)


SCENES = {1: DATA / "precision_hazard.toml", 2: ROOT / "scenarios/default.toml",
          3: ROOT / "scenarios/vehicle_engaged.toml"}


@pytest.mark.parametrize("seed", sorted(SCENES))
def test_random_input_never_raises(make, seed):
    """3 x 1,000 seeded random clicks, drags, wheel turns and keys on three tables."""
    rng = random.Random(seed)
    scen = SCENES[seed]
    d = make(scen, seed=seed)
    _storm(d, rng, 1000)
    _consistent(d.sb)
    _finish(d)
    _consistent(d.sb)
    n, div = replay(d.sb.save_replay())
    assert div is None
    assert n == d.sb.battle.commands_done
